//! Scores: centi-men from the point of view of the side to move, with game-end scores that carry
//! their distance.
//!
//! The Hub protocol shows scores in men: 100 units are one man. A win in `n` plies is
//! `WIN - n`, shown as `99.xx` (100 − n/100) as Scan does; a win known by endgame knowledge
//! is `KNOWN_WIN - n`, shown as `89.xx`; ordinary evaluations are clamped to ±`EVAL_LIMIT`.

/// A score in centi-men, side-to-move view.
pub type Score = i32;

/// The game is won now (the opponent cannot move).
pub const WIN: Score = 10_000;
/// Longest distance a win score carries; scores within this of `WIN` are game-end scores.
pub const MAX_DISTANCE: Score = 999;
/// A win established by endgame knowledge rather than by reaching the end of the game.
pub const KNOWN_WIN: Score = 9_000;
/// Evaluations are clamped to this, below every win score.
pub const EVAL_LIMIT: Score = 8_000;
/// A draw.
pub const DRAW: Score = 0;
/// Larger than any score (search window bound).
pub const INFINITE: Score = WIN + 1;

/// Win in `plies` plies.
#[inline(always)]
pub const fn win_in(plies: i32) -> Score {
    WIN - plies
}

/// Loss in `plies` plies.
#[inline(always)]
pub const fn loss_in(plies: i32) -> Score {
    -WIN + plies
}

/// Whether a score announces the end of the game (a win or loss with its distance).
#[inline(always)]
pub const fn is_game_end(score: Score) -> bool {
    score.abs() > WIN - MAX_DISTANCE
}

/// Whether a score is a win or loss, from the end of the game or from endgame knowledge.
#[inline(always)]
pub const fn is_decisive(score: Score) -> bool {
    score.abs() > KNOWN_WIN - MAX_DISTANCE
}

/// Converts a score relative to the root into one relative to the current node (for storing in
/// the transposition table), so that distances stay right when the entry is met at another ply.
#[inline(always)]
pub const fn to_table(score: Score, ply: i32) -> Score {
    if score > KNOWN_WIN - MAX_DISTANCE {
        score + ply
    } else if score < -(KNOWN_WIN - MAX_DISTANCE) {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`to_table`].
#[inline(always)]
pub const fn from_table(score: Score, ply: i32) -> Score {
    if score > KNOWN_WIN - MAX_DISTANCE {
        score - ply
    } else if score < -(KNOWN_WIN - MAX_DISTANCE) {
        score + ply
    } else {
        score
    }
}

/// The score in men with two decimals, as the Hub protocol writes it (`0.25`, `-1.00`, `99.97`).
pub fn to_men(score: Score) -> String {
    let sign = if score < 0 { "-" } else { "" };
    let magnitude = score.unsigned_abs();
    format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_display() {
        assert_eq!(to_men(0), "0.00");
        assert_eq!(to_men(25), "0.25");
        assert_eq!(to_men(-100), "-1.00");
        assert_eq!(to_men(-7), "-0.07");
        assert_eq!(to_men(win_in(3)), "99.97");
        assert_eq!(to_men(loss_in(2)), "-99.98");
        assert_eq!(to_men(KNOWN_WIN - 1), "89.99");
    }

    #[test]
    fn table_conversion_round_trips() {
        for score in [win_in(5), loss_in(7), KNOWN_WIN - 3, 123, -456, 0] {
            assert_eq!(from_table(to_table(score, 9), 9), score);
        }
        assert!(is_game_end(win_in(10)) && !is_game_end(KNOWN_WIN));
        assert!(is_decisive(KNOWN_WIN - 4) && !is_decisive(EVAL_LIMIT));
    }
}
