//! Bit sets over the padded ("ghost square") board layout.
//!
//! A board of `2 * H` squares per pair of rows is laid out with one unused bit after every pair of
//! rows, so that the four diagonal neighbours of any square are at constant bit distances
//! (`H` and `H + 1`), and a step off the board lands on a ghost bit or outside the used range.
//! 8x8 (35 bits) and 10x10 (54 bits) fit in `u64`; 12x12 (77 bits) needs `u128`. The generator is
//! generic over this trait, so each board size gets its own monomorphised code.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The operations the move generator needs from a bit set. Implemented for `u64` and `u128`.
pub trait BitBoard:
    Copy
    + Eq
    + Ord
    + Default
    + Debug
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// Number of bits in the representation.
    const WIDTH: u32;

    /// The set holding only bit `index` (`index < WIDTH`).
    fn bit(index: u32) -> Self;
    /// Shift towards higher bit indices; bits shifted past the top are lost.
    fn up(self, amount: u32) -> Self;
    /// Shift towards lower bit indices; bits shifted past zero are lost.
    fn down(self, amount: u32) -> Self;
    /// Number of members.
    fn count(self) -> u32;
    /// Index of the lowest member (undefined for the empty set).
    fn lowest(self) -> u32;
    /// Index of the highest member (undefined for the empty set).
    fn highest(self) -> u32;
    /// Widening conversion, for tables and printing.
    fn to_u128(self) -> u128;
    /// Narrowing conversion; bits beyond `WIDTH` are dropped.
    fn from_u128(value: u128) -> Self;

    /// Whether the set has no members.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// Whether the set has members.
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::EMPTY
    }

    /// Whether bit `index` is a member.
    #[inline(always)]
    fn has(self, index: u32) -> bool {
        (self & Self::bit(index)).any()
    }

    /// Shift by a signed distance: positive towards higher indices.
    #[inline(always)]
    fn shift(self, delta: i32) -> Self {
        if delta >= 0 {
            self.up(delta.unsigned_abs())
        } else {
            self.down(delta.unsigned_abs())
        }
    }

    /// Removes and returns the lowest member (the set must not be empty).
    #[inline(always)]
    fn pop_lowest(&mut self) -> u32 {
        let index = self.lowest();
        *self ^= Self::bit(index);
        index
    }

    /// Iterates over the member indices, lowest first.
    #[inline(always)]
    fn iter(self) -> Bits<Self> {
        Bits(self)
    }
}

/// Iterator over the members of a [`BitBoard`], lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Bits<B>(B);

impl<B: BitBoard> Iterator for Bits<B> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lowest())
        }
    }
}

macro_rules! impl_bitboard {
    ($t:ty) => {
        impl BitBoard for $t {
            const EMPTY: Self = 0;
            const WIDTH: u32 = <$t>::BITS;

            #[inline(always)]
            fn bit(index: u32) -> Self {
                debug_assert!(index < Self::WIDTH);
                1 << index
            }
            #[inline(always)]
            fn up(self, amount: u32) -> Self {
                self << amount
            }
            #[inline(always)]
            fn down(self, amount: u32) -> Self {
                self >> amount
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                Self::WIDTH - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(value: u128) -> Self {
                value as $t
            }
        }
    };
}

impl_bitboard!(u64);
impl_bitboard!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: BitBoard>() {
        let set = B::bit(3) | B::bit(40) | B::bit(7);
        assert_eq!(set.count(), 3);
        assert_eq!(set.lowest(), 3);
        assert_eq!(set.highest(), 40);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![3, 7, 40]);
        assert_eq!(set.shift(2), B::bit(5) | B::bit(42) | B::bit(9));
        assert_eq!(set.shift(-3), B::bit(0) | B::bit(37) | B::bit(4));
        assert!(set.has(7) && !set.has(8));
        assert_eq!(B::from_u128(set.to_u128()), set);
    }

    #[test]
    fn u64_and_u128_agree() {
        exercise::<u64>();
        exercise::<u128>();
        assert_eq!(<u128 as BitBoard>::bit(100).highest(), 100);
    }
}
