//! `rafle analyze --multipv N`: prints the lines of [`crate::player::lines::best_lines`].

use crate::player::lines::Line;
use crate::position::Position;
use crate::rules::Rules;
use crate::score_text;

/// Prints the lines as `analyze` does.
pub fn print<R: Rules>(position: &Position<R>, lines: &[Line<R>]) {
    for (index, line) in lines.iter().enumerate() {
        println!(
            "line {}  score {}  depth {}  pv {}",
            index + 1,
            score_text::for_side_to_move(line.score),
            line.depth,
            crate::notation::text::pdn_line(position, &line.pv)
        );
    }
}
