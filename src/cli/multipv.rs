//! `rafle analyze --multipv N`: the N best lines, each its own search at the root with the
//! earlier lines' first moves left out ([`Engine::search_excluding`]). The first line searched is
//! exactly the single-line search (a later one may score higher and be listed first); each limit
//! (`--time`, `--depth`, `--nodes`) applies to every line.

use crate::eval::Eval;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::Score;
use crate::score_text;
use crate::search::{Engine, Info, Limits, Mode, Root, SearchControl};

/// One line of a multi-PV analysis.
#[derive(Clone, Debug)]
pub struct Line<R: Rules> {
    /// Score for the side to move.
    pub score: Score,
    /// Depth reached.
    pub depth: u32,
    /// The line, its first move first.
    pub pv: Vec<Move<BitsOf<R>>>,
}

/// The `count` best lines of `root` (fewer when there are fewer legal moves), best first.
pub fn best_lines<R: Rules>(
    engine: &Engine<R, Eval>,
    root: &Root<R>,
    limits: &Limits,
    count: usize,
    mut report: impl FnMut(usize, &Info<R>) + Send,
) -> Vec<Line<R>> {
    let legal = root.position.legal_moves().len();
    let mut excluded: Vec<Move<BitsOf<R>>> = Vec::new();
    let mut lines = Vec::new();
    for index in 0..count.min(legal) {
        let control = SearchControl::new();
        let outcome = engine.search_excluding(
            root,
            limits,
            Mode::Analyze,
            &control,
            &excluded,
            |info: &Info<R>| report(index + 1, info),
        );
        let Some(best) = outcome.best else { break };
        excluded.push(best);
        lines.push(Line {
            score: outcome.score,
            depth: outcome.depth,
            pv: outcome.pv,
        });
    }
    // Each later line was searched without the better moves, so it should score no higher; a
    // deeper look may still find it better, and the list is shown in score order.
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
    lines
}

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
