//! Positions: pieces, side to move and an incrementally updated Zobrist hash.

use crate::core::zobrist::{self, BLACK_TO_MOVE};
use crate::core::{BitBoard, Color, Geometry, Kind, Piece};
use crate::moves::Move;
use crate::rules::{BitsOf, Rules};
use std::marker::PhantomData;
use thiserror::Error;

/// Why a set of pieces is not a valid position of the variant.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A square number outside the board.
    #[error("square {0} is not on the board")]
    OffBoard(u32),
    /// Two pieces were placed on one square.
    #[error("square {0} holds more than one piece")]
    Overlap(u32),
    /// A man stands on the row where it would have been crowned.
    #[error("{color} man on square {square}, its own promotion row")]
    ManOnPromotionRow {
        /// Owner of the man.
        color: Color,
        /// Square number.
        square: u32,
    },
    /// More pieces than a side starts with.
    #[error("{color} has {count} pieces, more than the {max} allowed")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// Pieces found.
        count: u32,
        /// Pieces allowed.
        max: u32,
    },
}

/// An unvalidated description of a position, by square numbers (1-based, the geometry's
/// numbering). Turn it into a [`Position`] with [`Position::from_setup`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// Side to move.
    pub side: Option<Color>,
    /// White men.
    pub white_men: Vec<u32>,
    /// White kings.
    pub white_kings: Vec<u32>,
    /// Black men.
    pub black_men: Vec<u32>,
    /// Black kings.
    pub black_kings: Vec<u32>,
}

/// A legal arrangement of pieces with the side to move.
///
/// Copy-make: [`Position::play`] returns the next position and leaves this one untouched.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<R: Rules> {
    pieces: [BitsOf<R>; 2],
    kings: BitsOf<R>,
    side: Color,
    hash: u64,
    rules: PhantomData<R>,
}

impl<R: Rules> Position<R> {
    /// The start position of the variant.
    ///
    /// Every variant sets its men on the rows nearest each player, Black's from the first square
    /// of the geometry and White's up to the last, as many as a side may have, after the empty
    /// rows the variant leaves behind them.
    pub fn start() -> Self {
        let men = R::MAX_PIECES_PER_SIDE;
        let skipped = R::EMPTY_ROWS_BEHIND_MEN * R::Geometry::HALF;
        let last = R::Geometry::SQUARES - skipped;
        let setup = Setup {
            side: Some(R::FIRST_MOVER),
            white_men: (last + 1 - men..=last).collect(),
            black_men: (skipped + 1..=skipped + men).collect(),
            ..Setup::default()
        };
        Self::from_setup(&setup).expect("the start setup of a variant is valid")
    }

    /// Builds a position from a setup, checking it (see [`PositionError`]).
    ///
    /// # Errors
    /// A square off the board, two pieces on a square, a man on its own promotion row, or more
    /// pieces than a side starts with.
    pub fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let mut occupied = BitsOf::<R>::EMPTY;
        let mut place = |squares: &[u32]| -> Result<BitsOf<R>, PositionError> {
            let mut set = BitsOf::<R>::EMPTY;
            for &square in squares {
                let bit = R::Geometry::bit_of(square).ok_or(PositionError::OffBoard(square))?;
                if occupied.has(bit) {
                    return Err(PositionError::Overlap(square));
                }
                occupied |= BitsOf::<R>::bit(bit);
                set |= BitsOf::<R>::bit(bit);
            }
            Ok(set)
        };
        let white_men = place(&setup.white_men)?;
        let white_kings = place(&setup.white_kings)?;
        let black_men = place(&setup.black_men)?;
        let black_kings = place(&setup.black_kings)?;
        for color in Color::BOTH {
            let men = if color == Color::White {
                white_men
            } else {
                black_men
            };
            if let Some(bit) = (men & Self::promotion_row(color)).iter().next() {
                return Err(PositionError::ManOnPromotionRow {
                    color,
                    square: R::Geometry::square_of(bit),
                });
            }
            let all = men
                | if color == Color::White {
                    white_kings
                } else {
                    black_kings
                };
            if all.count() > R::MAX_PIECES_PER_SIDE {
                return Err(PositionError::TooManyPieces {
                    color,
                    count: all.count(),
                    max: R::MAX_PIECES_PER_SIDE,
                });
            }
        }
        let mut position = Position {
            pieces: [white_men | white_kings, black_men | black_kings],
            kings: white_kings | black_kings,
            side: setup.side.unwrap_or(R::FIRST_MOVER),
            hash: 0,
            rules: PhantomData,
        };
        position.hash = position.compute_hash();
        Ok(position)
    }

    /// A position from its piece sets, without the checks of [`Position::from_setup`]: the caller
    /// guarantees the sets are disjoint, on the board, `kings` within them and no man on its
    /// promotion row (the endgame databases build millions of positions from their indices).
    pub fn from_parts(white: BitsOf<R>, black: BitsOf<R>, kings: BitsOf<R>, side: Color) -> Self {
        debug_assert!((white & black).is_empty(), "disjoint sides");
        debug_assert!((kings & !(white | black)).is_empty(), "kings are pieces");
        let mut position = Position {
            pieces: [white, black],
            kings,
            side,
            hash: 0,
            rules: PhantomData,
        };
        position.hash = position.compute_hash();
        position
    }

    /// The setup describing this position.
    pub fn to_setup(&self) -> Setup {
        let squares = |set: BitsOf<R>| set.iter().map(R::Geometry::square_of).collect::<Vec<_>>();
        Setup {
            side: Some(self.side),
            white_men: squares(self.men(Color::White)),
            white_kings: squares(self.kings(Color::White)),
            black_men: squares(self.men(Color::Black)),
            black_kings: squares(self.kings(Color::Black)),
        }
    }

    /// The row on which men of `color` are crowned (FMJD art. 3.5).
    #[inline(always)]
    pub fn promotion_row(color: Color) -> BitsOf<R> {
        match color {
            Color::White => R::Geometry::row(0),
            Color::Black => R::Geometry::row(R::Geometry::ROWS - 1),
        }
    }

    /// Side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Zobrist hash of pieces and side to move.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> BitsOf<R> {
        self.pieces[color.index()]
    }

    /// Men of `color`.
    #[inline(always)]
    pub fn men(&self, color: Color) -> BitsOf<R> {
        self.pieces[color.index()] & !self.kings
    }

    /// Kings of `color`.
    #[inline(always)]
    pub fn kings(&self, color: Color) -> BitsOf<R> {
        self.pieces[color.index()] & self.kings
    }

    /// Kings of both sides.
    #[inline(always)]
    pub fn all_kings(&self) -> BitsOf<R> {
        self.kings
    }

    /// Occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> BitsOf<R> {
        self.pieces[0] | self.pieces[1]
    }

    /// Empty playable squares.
    #[inline(always)]
    pub fn empty(&self) -> BitsOf<R> {
        R::Geometry::VALID & !self.occupied()
    }

    /// The piece on a bit, if any.
    pub fn piece_at(&self, bit: u32) -> Option<Piece> {
        let color = Color::BOTH
            .into_iter()
            .find(|&c| self.pieces[c.index()].has(bit))?;
        let kind = if self.kings.has(bit) {
            Kind::King
        } else {
            Kind::Man
        };
        Some(Piece { color, kind })
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == Color::Black {
            BLACK_TO_MOVE
        } else {
            0
        };
        for color in Color::BOTH {
            for bit in self.men(color).iter() {
                hash ^= zobrist::piece_key(color, Kind::Man, bit);
            }
            for bit in self.kings(color).iter() {
                hash ^= zobrist::piece_key(color, Kind::King, bit);
            }
        }
        hash
    }

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn play(&self, mv: &Move<BitsOf<R>>) -> Self {
        let us = self.side;
        let them = !us;
        let from = BitsOf::<R>::bit(u32::from(mv.from));
        let to = BitsOf::<R>::bit(u32::from(mv.to));
        debug_assert!(self.pieces[us.index()].has(u32::from(mv.from)));
        let mut next = *self;
        let moving_kind = if mv.is_king_move() {
            Kind::King
        } else {
            Kind::Man
        };
        let landing_kind = if mv.is_promotion() {
            Kind::King
        } else {
            moving_kind
        };
        // Captured pieces go first: where they are lifted as they are jumped (Thai, Turkish) the
        // capturing piece may end on the square of one of them.
        if mv.captured.any() {
            for bit in mv.captured.iter() {
                let kind = if self.kings.has(bit) {
                    Kind::King
                } else {
                    Kind::Man
                };
                next.hash ^= zobrist::piece_key(them, kind, bit);
            }
            next.pieces[them.index()] &= !mv.captured;
            next.kings &= !mv.captured;
        }
        next.pieces[us.index()] = (next.pieces[us.index()] & !from) | to;
        if moving_kind == Kind::King {
            next.kings &= !from;
        }
        if landing_kind == Kind::King {
            next.kings |= to;
        }
        next.hash ^= zobrist::piece_key(us, moving_kind, u32::from(mv.from))
            ^ zobrist::piece_key(us, landing_kind, u32::from(mv.to))
            ^ BLACK_TO_MOVE;
        next.side = them;
        debug_assert_eq!(next.hash, next.compute_hash(), "incremental hash");
        next
    }

    /// The position with the other side to move and nothing else changed (a "null move").
    #[inline]
    pub fn pass(&self) -> Self {
        let mut next = *self;
        next.side = !self.side;
        next.hash ^= BLACK_TO_MOVE;
        next
    }

    /// The same position seen from the other side: the board turned half a turn, colours swapped.
    pub fn mirror(&self) -> Self {
        let flip = |set: BitsOf<R>| {
            let mut out = BitsOf::<R>::EMPTY;
            for bit in set.iter() {
                let square = R::Geometry::square_of(bit);
                let turned = R::Geometry::SQUARES + 1 - square;
                out |= BitsOf::<R>::bit(
                    R::Geometry::bit_of(turned).expect("turned square is on the board"),
                );
            }
            out
        };
        let mut mirrored = Position {
            pieces: [flip(self.pieces[1]), flip(self.pieces[0])],
            kings: flip(self.kings),
            side: !self.side,
            hash: 0,
            rules: PhantomData,
        };
        mirrored.hash = mirrored.compute_hash();
        mirrored
    }
}

impl<R: Rules> Default for Position<R> {
    fn default() -> Self {
        Self::start()
    }
}
