//! Move ordering: the table move, captures, promotions, killers, counter moves and the history
//! of quiet moves.

use super::*;

/// Squares indexable by the history table (bit indices of every geometry are below this).
const HISTORY_SQUARES: usize = 128;
/// History scores of quiet moves, by side, origin and destination square.
pub(in crate::search) type HistoryTable = [[[i32; HISTORY_SQUARES]; HISTORY_SQUARES]; 2];

/// A history table with no experience.
pub(in crate::search) fn new_history() -> Box<HistoryTable> {
    Box::new([[[0; HISTORY_SQUARES]; HISTORY_SQUARES]; 2])
}

/// Ages a history table carried over from the previous search: what was learnt a move ago
/// still orders moves, but the new search soon outweighs it.
pub(in crate::search) fn age_history(history: &mut HistoryTable) {
    for value in history.iter_mut().flatten().flatten() {
        *value /= HISTORY_AGE_DIVISOR;
    }
}

/// Move ordering classes, highest first.
const ORDER_TABLE_MOVE: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 28;
const ORDER_PROMOTION: i32 = 1 << 27;
const ORDER_KILLER: i32 = 1 << 26;

impl<R: Rules, E: Evaluator<R>> Searcher<'_, '_, R, E> {
    pub(super) fn is_killer(&self, mv: &Move<BitsOf<R>>, ply: usize) -> bool {
        self.killers[ply].iter().any(|k| k.same_as(mv))
    }

    pub(super) fn reward(
        &mut self,
        mv: &Move<BitsOf<R>>,
        ply: usize,
        depth: i32,
        side: usize,
        tried: &[Move<BitsOf<R>>],
    ) {
        if !self.killers[ply][0].same_as(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = *mv;
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_CAP);
        let table = &mut self.history[side];
        pull(&mut table[usize::from(mv.from)][usize::from(mv.to)], bonus);
        for other in tried {
            if !other.is_capture() {
                pull(
                    &mut table[usize::from(other.from)][usize::from(other.to)],
                    -bonus,
                );
            }
        }
    }

    /// The ordering keys of the moves, highest first: table move, then captures (more kings
    /// first), promotions, killers, and quiet moves by history.
    pub(super) fn order_keys(
        &self,
        list: &MoveList<BitsOf<R>>,
        hint: MoveHint,
        ply: usize,
        side: Color,
        keys: &mut OrderKeys,
    ) {
        let history = &self.history[side.index()];
        for mv in list.iter() {
            keys.push(if hint.matches(mv) {
                ORDER_TABLE_MOVE
            } else if mv.is_capture() {
                ORDER_CAPTURE + mv.captured.count() as i32
            } else if mv.is_promotion() {
                ORDER_PROMOTION
            } else if self.killers[ply][0].same_as(mv) {
                ORDER_KILLER + 1
            } else if self.killers[ply][1].same_as(mv) {
                ORDER_KILLER
            } else {
                history[usize::from(mv.from)][usize::from(mv.to)]
            });
        }
    }
}

/// Moves a history score toward `HISTORY_MAX` (a positive `bonus`) or `-HISTORY_MAX` (a
/// negative one) by `bonus` scaled by the distance left: the score stays within the bound.
#[inline]
fn pull(score: &mut i32, bonus: i32) {
    *score += bonus - *score * bonus.abs() / HISTORY_MAX;
}

/// Moves the move of highest key among `moves[index..]` (the first of equals) to `index`, the
/// others keeping their order: picking at 0, 1, 2, ... gives a stable sort by falling key.
#[inline(always)]
pub(super) fn pick<B: Copy>(moves: &mut [Move<B>], keys: &mut [i32], index: usize) {
    debug_assert_eq!(moves.len(), keys.len());
    let mut best = index;
    for j in index + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    if best > index {
        let (key, mv) = (keys[best], moves[best]);
        let mut j = best;
        while j > index {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[index] = key;
        moves[index] = mv;
    }
}

/// The ordering keys of a move list, on the stack and not zeroed (only the keys pushed are
/// read).
pub(super) struct OrderKeys {
    keys: [MaybeUninit<i32>; crate::moves::MAX_MOVES],
    len: usize,
}

impl OrderKeys {
    #[inline(always)]
    pub(super) fn new() -> Self {
        OrderKeys {
            keys: [const { MaybeUninit::uninit() }; crate::moves::MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, key: i32) {
        assert!(self.len < crate::moves::MAX_MOVES, "order keys overflow");
        self.keys[self.len].write(key);
        self.len += 1;
    }

    #[inline(always)]
    pub(super) fn as_mut_slice(&mut self) -> &mut [i32] {
        // SAFETY: the first `len` keys were written by `push`, and `len <= MAX_MOVES`; the
        // borrow of `self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.keys.as_mut_ptr().cast::<i32>(), self.len) }
    }
}
