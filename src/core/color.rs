//! Sides and piece kinds.

use std::fmt;
use std::ops::Not;

/// A side. White moves up the board (towards square 1), Black down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side on the high-numbered squares at the start (31-50 in international draughts).
    White = 0,
    /// The side on the low-numbered squares at the start (1-20 in international draughts).
    Black = 1,
}

impl Color {
    /// Both sides, indexed by their discriminant.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// Array index of this side.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used by FEN and the Hub protocol.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// Man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A man: moves forward one square.
    Man = 0,
    /// A king: moves in every direction.
    King = 1,
}

/// A piece: a side and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Man or king.
    pub kind: Kind,
}

impl Piece {
    /// The letter of the piece in the Hub position string and board diagrams: `w`/`b` for men,
    /// `W`/`B` for kings.
    pub const fn letter(self) -> char {
        match (self.color, self.kind) {
            (Color::White, Kind::Man) => 'w',
            (Color::White, Kind::King) => 'W',
            (Color::Black, Kind::Man) => 'b',
            (Color::Black, Kind::King) => 'B',
        }
    }
}
