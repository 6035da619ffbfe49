//! The N best lines (variations) of a position ([`Engine::search_lines`]): every depth searches the best line,
//! then the best without its first move, and so on. `analyze --multipv` shows them; the strength
//! levels choose among them.

use crate::eval::Evaluator;
use crate::moves::Move;
use crate::rules::{BitsOf, Rules};
use crate::score::Score;
use crate::search::{Engine, Info, Limits, Mode, Root, SearchControl};

/// One of the best lines: its moves, score and depth.
#[derive(Clone, Debug)]
pub struct Variation<R: Rules> {
    /// Score for the side to move.
    pub score: Score,
    /// Depth reached.
    pub depth: u32,
    /// The line, its first move first.
    pub pv: Vec<Move<BitsOf<R>>>,
}

/// The `count` best lines of `root` (fewer when there are fewer legal moves), best first, each
/// as its last completed iteration left it. `report` sees every iteration of every line.
pub fn best_variations<R: Rules, E: Evaluator<R>>(
    engine: &Engine<R, E>,
    root: &Root<R>,
    limits: &Limits,
    mode: Mode,
    control: &SearchControl,
    count: usize,
    mut report: impl FnMut(&Info<R>) + Send,
) -> Vec<Variation<R>> {
    let mut lines: Vec<Option<Variation<R>>> = vec![None; count.max(1)];
    let outcome = engine.search_lines(root, limits, mode, control, count, |info: &Info<R>| {
        if let Some(slot) = lines.get_mut(info.line.wrapping_sub(1))
            && !info.pv.is_empty()
        {
            *slot = Some(Variation {
                score: info.score,
                depth: info.depth,
                pv: info.pv.clone(),
            });
        }
        report(info);
    });
    // A position answered without search (one legal move) reports no iteration.
    if lines[0].is_none()
        && let Some(best) = outcome.best
    {
        lines[0] = Some(Variation {
            score: outcome.score,
            depth: outcome.depth,
            pv: vec![best],
        });
    }
    let mut lines: Vec<Variation<R>> = lines.into_iter().flatten().collect();
    // A later line comes from a search without the better moves, yet may have been left at a
    // shallower depth or found better by a deeper look: the list is shown in score order.
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
    lines
}
