//! `rafle analyze --multipv N`: prints the lines of [`rafle::player::lines::best_lines`].

use rafle::player::lines::Line;
use rafle::position::Position;
use rafle::rules::Rules;
use rafle::score_text;

/// Prints the lines as `analyze` does.
pub fn print<R: Rules>(position: &Position<R>, lines: &[Line<R>]) {
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
