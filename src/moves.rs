//! Moves and fixed-capacity move lists.

use crate::core::BitBoard;
use std::mem::MaybeUninit;

/// A move: origin, destination and the set of captured pieces (bit indices of the variant's
/// geometry).
///
/// Two capture routes with the same origin, destination and captured set are the same move
/// (FMJD counting), so these three fields identify a move. The route itself is a function of the
/// position and these fields: `notation` recovers it when the PDN long form is needed, which
/// keeps every move on the hot path at 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move<B> {
    /// Pieces captured by the move (empty for a quiet move).
    pub captured: B,
    /// Bit of the square the piece leaves.
    pub from: u8,
    /// Bit of the square the piece ends on (equal to `from` for a king capture that returns).
    pub to: u8,
    /// [`Move::KING`] and [`Move::PROMOTION`] flags.
    pub flags: u8,
}

impl<B: BitBoard> Move<B> {
    /// The moving piece is a king.
    pub const KING: u8 = 1;
    /// The moving man becomes a king.
    pub const PROMOTION: u8 = 2;

    /// A move from its parts.
    #[inline(always)]
    pub fn new(from: u32, to: u32, captured: B, flags: u8) -> Self {
        Move {
            captured,
            from: from as u8,
            to: to as u8,
            flags,
        }
    }

    /// Whether the move captures.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// Whether a king moves.
    #[inline(always)]
    pub fn is_king_move(&self) -> bool {
        self.flags & Self::KING != 0
    }

    /// Whether a man is crowned by this move.
    #[inline(always)]
    pub fn is_promotion(&self) -> bool {
        self.flags & Self::PROMOTION != 0
    }

    /// Whether the move changes the material or moves a man: the moves after which no earlier
    /// position can recur.
    #[inline(always)]
    pub fn is_irreversible(&self) -> bool {
        self.is_capture() || !self.is_king_move()
    }

    /// Whether two moves are the same move (same origin, destination and captured set).
    #[inline(always)]
    pub fn same_as(&self, other: &Self) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

/// Most moves a list holds. A position has far fewer legal moves (quiet moves are bounded by four
/// per empty square; captures only keep the maximal ones), so this is never reached in play.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack, with no heap allocation.
pub struct MoveList<B> {
    moves: [MaybeUninit<Move<B>>; MAX_MOVES],
    len: usize,
}

impl<B: BitBoard> Default for MoveList<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: BitBoard> MoveList<B> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list is full, which no position reaches (see [`MAX_MOVES`]).
    #[inline(always)]
    pub fn push(&mut self, mv: Move<B>) {
        assert!(self.len < MAX_MOVES, "move list overflow");
        self.moves[self.len].write(mv);
        self.len += 1;
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move<B>] {
        // SAFETY: the first `len` elements were written by `push` (Move is Copy, so there is no
        // drop to worry about) and `len <= MAX_MOVES`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move<B>>(), self.len) }
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move<B>] {
        // SAFETY: as in `as_slice`; the borrow of `self` is exclusive.
        unsafe {
            std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move<B>>(), self.len)
        }
    }

    /// Whether the list holds a move equal to `mv` under [`Move::same_as`].
    #[inline]
    pub fn contains(&self, mv: &Move<B>) -> bool {
        self.as_slice().iter().any(|m| m.same_as(mv))
    }

    /// Iterates over the moves.
    #[inline(always)]
    pub fn iter(&self) -> std::slice::Iter<'_, Move<B>> {
        self.as_slice().iter()
    }
}

impl<B: BitBoard> std::ops::Deref for MoveList<B> {
    type Target = [Move<B>];

    #[inline(always)]
    fn deref(&self) -> &[Move<B>] {
        self.as_slice()
    }
}

impl<B: BitBoard> std::ops::DerefMut for MoveList<B> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move<B>] {
        self.as_mut_slice()
    }
}

impl<'a, B: BitBoard> IntoIterator for &'a MoveList<B> {
    type Item = &'a Move<B>;
    type IntoIter = std::slice::Iter<'a, Move<B>>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_and_read_back() {
        let mut list = MoveList::<u64>::new();
        assert!(list.is_empty());
        list.push(Move::new(31, 26, 0, 0));
        list.push(Move::new(3, 3, 0b1010, Move::<u64>::KING));
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].captured, 0b1010);
        assert!(list[1].is_king_move() && list[1].is_capture());
        assert!(list.contains(&Move::new(31, 26, 0, Move::<u64>::PROMOTION)));
        list.clear();
        assert!(list.is_empty());
    }

    #[test]
    fn move_is_sixteen_bytes_on_u64_boards() {
        assert_eq!(std::mem::size_of::<Move<u64>>(), 16);
    }
}
