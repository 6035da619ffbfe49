//! `rafle analyze --multipv N`: prints the lines of [`rafle::player::variations::best_variations`].

use rafle::player::variations::Variation;
use rafle::position::Position;
use rafle::rules::Rules;
use rafle::score_text;

/// Prints the lines as `analyze` does.
pub fn print<R: Rules>(position: &Position<R>, lines: &[Variation<R>]) {
    for (index, line) in lines.iter().enumerate() {
        println!(
            "line {}  score {}  depth {}  pv {}",
            index + 1,
            score_text::for_side_to_move(line.score),
            line.depth,
            rafle::notation::text::pdn_line(position, &line.pv)
        );
    }
}

/// Why `found` lines are shown when `asked` were: too few legal moves, or a limit that ended the
/// search before the next line had a completed iteration. `None` when all were found.
pub fn fewer_lines_note(legal_moves: usize, found: usize, asked: usize) -> Option<String> {
    if found >= asked {
        return None;
    }
    let lines = count(found, "line");
    Some(if found >= legal_moves {
        format!(
            "{} in this position: {lines} instead of {asked}",
            count(legal_moves, "legal move")
        )
    } else {
        format!(
            "the limit ended the search before line {} was found: {lines} instead of {asked}",
            found + 1
        )
    })
}

/// `n` and `noun`, plural unless `n` is 1.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::fewer_lines_note;

    #[test]
    fn says_why_there_are_fewer_lines() {
        assert_eq!(fewer_lines_note(30, 3, 3), None);
        assert_eq!(
            fewer_lines_note(1, 1, 3).as_deref(),
            Some("1 legal move in this position: 1 line instead of 3")
        );
        assert_eq!(
            fewer_lines_note(30, 2, 3).as_deref(),
            Some("the limit ended the search before line 3 was found: 2 lines instead of 3")
        );
    }
}
