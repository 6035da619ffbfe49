//! Square names: the numbers and chess-like coordinates players write for the squares of a
//! variant's board ([`Rules::NOTATION`]), and back.

use crate::core::Geometry;
use crate::rules::{Notation, Rules, numbering};

/// The number players give a geometry square. Algebraic variants use the geometry's own
/// numbering (1 = top-left seen from White, as lidraughts and dctl number them).
pub fn number<R: Rules>(square: u32) -> u32 {
    match R::NOTATION {
        Notation::Numeric(corner) => numbering::number_of_square::<R::Geometry>(
            square,
            corner,
            R::FIRST_MOVER,
            R::MIRRORED_BOARD,
        ),
        Notation::Algebraic(_) => square,
    }
}

/// The geometry square players call `number` (see [`number`]).
pub fn square_of_number<R: Rules>(number: u32) -> Option<u32> {
    if !(1..=R::Geometry::SQUARES).contains(&number) {
        return None;
    }
    match R::NOTATION {
        Notation::Numeric(corner) => numbering::square_of_number::<R::Geometry>(
            number,
            corner,
            R::FIRST_MOVER,
            R::MIRRORED_BOARD,
        ),
        Notation::Algebraic(_) => Some(number),
    }
}

/// The geometry square of a square written as the variant's players write it: a number, or
/// chess-like coordinates (accepted in every variant).
pub fn parse<R: Rules>(text: &str) -> Option<u32> {
    match numbering::parse_number(text) {
        Some(number) => square_of_number::<R>(number),
        None => numbering::parse_algebraic::<R::Geometry>(text, R::MIRRORED_BOARD),
    }
}

/// A geometry square written as the variant's players write it.
pub fn text<R: Rules>(square: u32) -> String {
    match R::NOTATION {
        Notation::Numeric(_) => number::<R>(square).to_string(),
        Notation::Algebraic(_) => numbering::algebraic::<R::Geometry>(square, R::MIRRORED_BOARD),
    }
}
