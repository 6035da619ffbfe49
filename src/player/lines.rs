//! The N best lines of a position, each its own search at the root with the earlier lines' first
//! moves left out ([`Engine::search_excluding`]). The first line searched is exactly the
//! single-line search (a later one may score higher and is then listed first); the limits apply
//! to every line. `analyze --multipv` shows them; the strength levels choose among them.

use crate::eval::Evaluator;
use crate::moves::Move;
use crate::rules::{BitsOf, Rules};
use crate::score::Score;
use crate::search::{Engine, Info, Limits, Mode, Root, SearchControl};

/// One of the best lines.
#[derive(Clone, Debug)]
pub struct Line<R: Rules> {
    /// Score for the side to move.
    pub score: Score,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched for this line.
    pub nodes: u64,
    /// The line, its first move first.
    pub pv: Vec<Move<BitsOf<R>>>,
}

/// The `count` best lines of `root` (fewer when there are fewer legal moves), best first. A
/// `stop` on `control` ends the line being searched and every one after it.
pub fn best_lines<R: Rules, E: Evaluator<R>>(
    engine: &Engine<R, E>,
    root: &Root<R>,
    limits: &Limits,
    mode: Mode,
    control: &SearchControl,
    count: usize,
    mut report: impl FnMut(usize, &Info<R>) + Send,
) -> Vec<Line<R>> {
    let legal = root.position.legal_moves().len();
    let mut excluded: Vec<Move<BitsOf<R>>> = Vec::new();
    let mut lines = Vec::new();
    for index in 0..count.min(legal) {
        let outcome =
            engine.search_excluding(root, limits, mode, control, &excluded, |info: &Info<R>| {
                report(index + 1, info)
            });
        let Some(best) = outcome.best else { break };
        excluded.push(best);
        lines.push(Line {
            score: outcome.score,
            depth: outcome.depth,
            nodes: outcome.nodes,
            pv: if outcome.pv.is_empty() {
                vec![best]
            } else {
                outcome.pv
            },
        });
        if control.is_stopped() {
            break;
        }
    }
    // Each later line was searched without the better moves, so it should score no higher; a
    // deeper look may still find it better, and the list is shown in score order.
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
    lines
}
