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
    match parse_number(text) {
        Some(number) => square_of_number::<R>(number),
        None => parse_algebraic::<R::Geometry>(text, R::MIRRORED_BOARD),
    }
}

/// A geometry square written as the variant's players write it.
pub fn text<R: Rules>(square: u32) -> String {
    match R::NOTATION {
        Notation::Numeric(_) => number::<R>(square).to_string(),
        Notation::Algebraic(_) => algebraic::<R::Geometry>(square, R::MIRRORED_BOARD),
    }
}

/// Chess-like name of a geometry square (`a1` is the real board's bottom-left corner).
pub fn algebraic<G: Geometry>(square: u32, mirrored: bool) -> String {
    let (file, rank) = numbering::coordinates::<G>(square, mirrored);
    let letter = char::from(b'a' + file as u8);
    format!("{letter}{}", rank + 1)
}

/// The geometry square named by chess-like coordinates, if it is a playing square.
pub fn parse_algebraic<G: Geometry>(text: &str, mirrored: bool) -> Option<u32> {
    let bytes = text.as_bytes();
    let (&letter, rank) = bytes.split_first()?;
    let letter = letter.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() || rank.is_empty() || !rank.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let file = u32::from(letter - b'a');
    let rank: u32 = std::str::from_utf8(rank).ok()?.parse().ok()?;
    if rank == 0 || rank > G::ROWS || file >= G::COLUMNS {
        return None;
    }
    numbering::square_at::<G>(file, rank - 1, mirrored)
}

/// A decimal number, if `text` is one.
pub fn parse_number(text: &str) -> Option<u32> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || bytes.len() > 3 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Board8, Board10};

    #[test]
    fn algebraic_round_trip() {
        for mirrored in [false, true] {
            for square in 1..=Board8::SQUARES {
                let text = algebraic::<Board8>(square, mirrored);
                assert_eq!(parse_algebraic::<Board8>(&text, mirrored), Some(square));
            }
        }
        assert_eq!(algebraic::<Board10>(46, false), "a1");
        assert_eq!(algebraic::<Board10>(1, false), "b10");
        assert_eq!(parse_algebraic::<Board8>("b1", false), None);
        assert_eq!(parse_algebraic::<Board8>("a1", true), None);
        assert_eq!(parse_algebraic::<Board8>("i1", false), None);
        assert_eq!(parse_algebraic::<Board8>("a9", false), None);
    }
}
