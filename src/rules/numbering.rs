//! How a variant's players name the squares, mapped onto the geometry's numbering.
//!
//! Internally every board is laid out as in [`crate::core::geometry`]: square 1 is the leftmost
//! playable square of Black's back row seen from White, numbers run left to right, row after row,
//! and the bottom-left corner (a1) is a playing square. Variants are written differently (PDN 3.0
//! GameType notation code, see `tests/data` and the rules files):
//!
//! * the corner where square 1 is, seen from the player who moves first (digit 0-3 of the code);
//! * whether the bottom-left corner is a playing square (the "invert" flag). Italian, Spanish and
//!   Portuguese boards have a light square there: such a board is the mirror image (left-right) of
//!   ours, and the rules are symmetric under that mirror, so it is stored mirrored;
//! * numbers or chess-like coordinates (`a1` is White's bottom-left corner of the real board).
//!
//! These functions are for the edges of the program (FEN, move text, protocols): they loop over the
//! squares instead of using tables. Writing and reading the names as text is
//! [`crate::notation::squares`]'s.

use crate::core::{Color, Geometry};

/// The corner where square 1 is, seen from the player who moves first (PDN notation digit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// Digit 0: the bottom-left corner; numbers run left to right, bottom row first.
    BottomLeft,
    /// Digit 1: the bottom-right corner; numbers run right to left, bottom row first.
    BottomRight,
    /// Digit 2: the top-left corner; numbers run left to right, top row first.
    TopLeft,
    /// Digit 3: the top-right corner; numbers run right to left, top row first.
    TopRight,
}

/// How a variant writes squares (the PDN GameType notation code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Numbers from the given corner (PDN `N`).
    Numeric(Corner),
    /// Chess-like coordinates (PDN `A`); the corner is where `a1` is, and numbering from it is the
    /// numeric form protocols use (`a1` = 1, `c1` = 2, ...).
    Algebraic(Corner),
}

/// Board width in squares.
const fn width<G: Geometry>() -> u32 {
    G::COLUMNS
}

/// The real board coordinates `(file, rank)` of a geometry square: file 0 is White's left edge,
/// rank 0 White's back row. `mirrored` boards are stored left-right mirrored.
pub fn coordinates<G: Geometry>(square: u32, mirrored: bool) -> (u32, u32) {
    let bit = G::bit_of(square).unwrap_or_default() as usize;
    let file = u32::from(G::FILE_OF_BIT[bit]);
    let row = u32::from(G::ROW_OF_BIT[bit]);
    let file = if mirrored {
        width::<G>() - 1 - file
    } else {
        file
    };
    (file, G::ROWS - 1 - row)
}

/// The geometry square at real board coordinates, if it is a playing square.
pub fn square_at<G: Geometry>(file: u32, rank: u32, mirrored: bool) -> Option<u32> {
    (1..=G::SQUARES).find(|&square| coordinates::<G>(square, mirrored) == (file, rank))
}

/// The number of a geometry square when squares are counted from `corner` as seen by `viewer`.
pub fn number_of_square<G: Geometry>(
    square: u32,
    corner: Corner,
    viewer: Color,
    mirrored: bool,
) -> u32 {
    let (file, rank) = coordinates::<G>(square, mirrored);
    let (file, rank) = match viewer {
        Color::White => (file, rank),
        Color::Black => (width::<G>() - 1 - file, G::ROWS - 1 - rank),
    };
    let row_key = match corner {
        Corner::BottomLeft | Corner::BottomRight => rank,
        Corner::TopLeft | Corner::TopRight => G::ROWS - 1 - rank,
    };
    let file_key = match corner {
        Corner::BottomLeft | Corner::TopLeft => file,
        Corner::BottomRight | Corner::TopRight => width::<G>() - 1 - file,
    };
    if G::EVERY_SQUARE {
        row_key * G::COLUMNS + file_key + 1
    } else {
        // Playing squares of a row are every other file, so halving the file gives the rank in
        // the row.
        row_key * G::HALF + file_key / 2 + 1
    }
}

/// The geometry square with a given number (see [`number_of_square`]).
pub fn square_of_number<G: Geometry>(
    number: u32,
    corner: Corner,
    viewer: Color,
    mirrored: bool,
) -> Option<u32> {
    (1..=G::SQUARES)
        .find(|&square| number_of_square::<G>(square, corner, viewer, mirrored) == number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Board8, Board10, Board12};

    fn is_identity<G: Geometry>(corner: Corner, viewer: Color) -> bool {
        (1..=G::SQUARES).all(|s| number_of_square::<G>(s, corner, viewer, false) == s)
    }

    #[test]
    fn geometry_numbering_is_pdn_n2_from_white_and_n1_from_black() {
        assert!(is_identity::<Board10>(Corner::TopLeft, Color::White));
        assert!(is_identity::<Board12>(Corner::TopLeft, Color::White));
        assert!(is_identity::<Board8>(Corner::TopLeft, Color::White));
        // English draughts: N1 seen from Black, who starts.
        assert!(is_identity::<Board8>(Corner::BottomRight, Color::Black));
    }

    #[test]
    fn national_numberings() {
        use crate::notation::squares::algebraic;
        type B = Board8;
        let name = |n, corner, viewer, mirrored| {
            algebraic::<B>(
                square_of_number::<B>(n, corner, viewer, mirrored).expect("on board"),
                mirrored,
            )
        };
        // Thai (N2 from Black): 1 = g1, 4 = a1, 32 = b8.
        assert_eq!(name(1, Corner::TopLeft, Color::Black, false), "g1");
        assert_eq!(name(4, Corner::TopLeft, Color::Black, false), "a1");
        assert_eq!(name(32, Corner::TopLeft, Color::Black, false), "b8");
        // Italian (N2, a1 not playable): 1 = a8, 4 = g8, 5 = b7, 29 = b1, 32 = h1.
        for (n, text) in [(1, "a8"), (4, "g8"), (5, "b7"), (29, "b1"), (32, "h1")] {
            assert_eq!(name(n, Corner::TopLeft, Color::White, true), text);
        }
        // Spanish / Portuguese (N1, a1 not playable): 1 = h1, 4 = b1, 5 = g2, 8 = a2, 29 = g8.
        for (n, text) in [
            (1, "h1"),
            (4, "b1"),
            (5, "g2"),
            (8, "a2"),
            (29, "g8"),
            (32, "a8"),
        ] {
            assert_eq!(name(n, Corner::BottomRight, Color::White, true), text);
        }
        // Numbers counted from a1 (the numeric form of PDN A0): 1 = a1, 2 = c1, 5 = b2, 32 = h8.
        for (n, text) in [(1, "a1"), (2, "c1"), (5, "b2"), (32, "h8")] {
            assert_eq!(name(n, Corner::BottomLeft, Color::White, false), text);
        }
    }
}
