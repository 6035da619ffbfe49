//! Scores as a player reads them: men with a sign (`+1.25`), and "win in 4 moves (7 plies)"
//! instead of the protocol's `99.93`.
//!
//! A move here is one player's move; a ply is one move by either side. A win in `p` plies for
//! the side to move takes `(p + 1) / 2` of its own moves, the last one being the move after which
//! the opponent cannot move.

use crate::core::Color;
use crate::score::{self, KNOWN_WIN, MAX_DISTANCE, Score, WIN};

/// What a score says about the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// An evaluation in centi-men.
    Eval(Score),
    /// The game is won (positive) or lost (negative) by force in this many plies.
    End {
        /// Whether the side the score is for wins.
        win: bool,
        /// Plies to the end of the game.
        plies: i32,
    },
    /// Won or lost by endgame knowledge (the databases or a known ending), distance unknown.
    Known {
        /// Whether the side the score is for wins.
        win: bool,
    },
}

/// What `score` (from some side's view) says.
pub fn verdict(score: Score) -> Verdict {
    if score::is_game_end(score) {
        Verdict::End {
            win: score > 0,
            plies: WIN - score.abs(),
        }
    } else if score.abs() > KNOWN_WIN - MAX_DISTANCE {
        Verdict::Known { win: score > 0 }
    } else {
        Verdict::Eval(score)
    }
}

/// Moves of the winner in a win of `plies` plies for the side to move.
pub const fn winner_moves(plies: i32) -> i32 {
    (plies + 1) / 2
}

/// Centi-men with a sign and two decimals: `+1.25`, `-0.40`, `0.00`.
pub fn men(score: Score) -> String {
    let sign = match score.signum() {
        1 => "+",
        -1 => "-",
        _ => "",
    };
    let magnitude = score.unsigned_abs();
    format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100)
}

/// The end of the game for the side `score` is for, as a player reads it: `won, the game is
/// over`, `lost, ...`, `drawn, ...` (`score` is the result: [`WIN`], `-WIN` or a draw).
pub fn game_over(score: Score) -> String {
    let word = match score.signum() {
        1 => "won",
        -1 => "lost",
        _ => "drawn",
    };
    format!("{word}, the game is over")
}

/// The score for the side it is for as a player reads it: `+1.25`, `win in 4 moves (7 plies)`,
/// `loss in 3 moves (6 plies)`, `win (endgame databases or a known ending)`. Counting moves
/// breaks down at the very end, where the words say what happens instead: `loss to the
/// opponent's next move (1 ply)` (a score given for the side that just moved, which moves no
/// more), [`game_over`] at no plies at all.
pub fn for_side_to_move(score: Score) -> String {
    match verdict(score) {
        Verdict::Eval(value) => men(value),
        Verdict::End { plies: 0, .. } => game_over(score),
        Verdict::End {
            win: false,
            plies: 1,
        } => "loss to the opponent's next move (1 ply)".to_string(),
        Verdict::End { win, plies } => {
            let word = if win { "win" } else { "loss" };
            // The loser's moves count too: the loser moves plies / 2 times before the end.
            let moves = if win { winner_moves(plies) } else { plies / 2 };
            let s = if moves == 1 { "" } else { "s" };
            let ply_word = if plies == 1 { "ply" } else { "plies" };
            format!("{word} in {moves} move{s} ({plies} {ply_word})")
        }
        Verdict::Known { win: true } => "win (endgame knowledge)".to_string(),
        Verdict::Known { win: false } => "loss (endgame knowledge)".to_string(),
    }
}

/// The score, given for `side`, from White's view in the form lidraughts and chess tools read in
/// PDN comments (`[%eval 0.25]`, `[%eval #4]` when White wins in 4 of White's moves, `#-4` when
/// Black does): [`for_white`] without its plus sign, which those tools do not expect.
pub fn eval_tag(score: Score, side: Color) -> String {
    let signed = for_white(score, side);
    match signed.strip_prefix('+') {
        Some(unsigned) => unsigned.to_string(),
        None => signed,
    }
}

/// The score, given for `side`, from White's view as people read it beside a move: men with a
/// sign as [`men`] writes them (`+0.25`, `-1.00`), `#4` when White wins in 4 of White's moves,
/// `#-4` when Black does.
pub fn for_white(score: Score, side: Color) -> String {
    let white = if side == Color::White { score } else { -score };
    match verdict(white) {
        Verdict::Eval(value) => men(value),
        Verdict::End { win, plies } => {
            // `plies` counts from the position of the score: its side moves first.
            let winner_starts = (side == Color::White) == win;
            let moves = if winner_starts {
                winner_moves(plies)
            } else {
                plies / 2
            }
            .max(1);
            if win {
                format!("#{moves}")
            } else {
                format!("#-{moves}")
            }
        }
        Verdict::Known { win } => men(if win { KNOWN_WIN } else { -KNOWN_WIN }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{loss_in, win_in};

    #[test]
    fn readable_scores() {
        assert_eq!(for_side_to_move(125), "+1.25");
        assert_eq!(for_side_to_move(-40), "-0.40");
        assert_eq!(for_side_to_move(0), "0.00");
        assert_eq!(for_side_to_move(win_in(7)), "win in 4 moves (7 plies)");
        assert_eq!(for_side_to_move(win_in(1)), "win in 1 move (1 ply)");
        assert_eq!(for_side_to_move(loss_in(6)), "loss in 3 moves (6 plies)");
        assert_eq!(for_side_to_move(loss_in(2)), "loss in 1 move (2 plies)");
        assert_eq!(
            for_side_to_move(loss_in(1)),
            "loss to the opponent's next move (1 ply)"
        );
        assert_eq!(for_side_to_move(loss_in(0)), "lost, the game is over");
        assert_eq!(for_side_to_move(win_in(0)), "won, the game is over");
        assert_eq!(game_over(0), "drawn, the game is over");
        for plies in 0..=MAX_DISTANCE {
            for score in [win_in(plies), loss_in(plies)] {
                assert!(
                    !for_side_to_move(score).contains(" 0 move"),
                    "{score}: {}",
                    for_side_to_move(score)
                );
            }
        }
        assert_eq!(for_side_to_move(KNOWN_WIN - 3), "win (endgame knowledge)");
    }

    #[test]
    fn eval_tags_are_from_whites_view() {
        assert_eq!(eval_tag(125, Color::White), "1.25");
        assert_eq!(eval_tag(125, Color::Black), "-1.25");
        assert_eq!(eval_tag(-5, Color::White), "-0.05");
        // White to move wins in 3 plies: 2 White moves.
        assert_eq!(eval_tag(win_in(3), Color::White), "#2");
        // Black to move loses in 2 plies (Black moves, White's move ends it): White needs 1 move.
        assert_eq!(eval_tag(loss_in(2), Color::Black), "#1");
        // Black to move wins in 5 plies: 3 Black moves.
        assert_eq!(eval_tag(win_in(5), Color::Black), "#-3");
        assert_eq!(eval_tag(0, Color::Black), "0.00");
        assert_eq!(eval_tag(KNOWN_WIN, Color::Black), "-90.00");
    }

    #[test]
    fn people_see_the_tag_with_its_sign() {
        assert_eq!(for_white(5, Color::White), "+0.05");
        assert_eq!(for_white(5, Color::Black), "-0.05");
        assert_eq!(for_white(0, Color::White), "0.00");
        assert_eq!(for_white(win_in(5), Color::Black), "#-3");
        for score in [125, -125, 0, 7, win_in(3), loss_in(4), KNOWN_WIN - 2] {
            for side in [Color::White, Color::Black] {
                let signed = for_white(score, side);
                assert_eq!(signed.trim_start_matches('+'), eval_tag(score, side));
            }
        }
    }
}
