//! The Hub protocol's position string: the side to move (`W`/`B`) followed by one character per
//! playable square in numbering order: `w`/`b` men, `W`/`B` kings, `e` empty. For international
//! draughts that is 51 characters, e.g. the start `Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww`.
//!
//! Other boards use the variant's own numbering order (Italian 1 = a8, Spanish 1 = h1, Thai 1 =
//! g1, ...). Algebraic variants (Russian, Brazilian, Czech) have no numbering of their own: their
//! position string follows the lidraughts/dctl numbering (1 = b8, 32 = g1), which is also the
//! order pydraughts' `HubEngine` sends, while the squares of their Hub moves are numbered from
//! `a1` (1 = a1, 2 = c1, 5 = b2, ..., 32 = h8: the PDN `A0` corner), as pydraughts writes and
//! reads them; see [`move_square_number`].

use crate::core::{Color, Geometry, Piece};
use crate::position::{Position, PositionError, Setup};
use crate::rules::{Notation, Rules, numbering};
use thiserror::Error;

/// Why a Hub position string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HubPositionError {
    /// Wrong number of characters.
    #[error("position string has {found} characters, expected {expected}")]
    Length {
        /// Characters expected (squares + 1).
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// The first character is not `W` or `B`.
    #[error("side to move must be W or B, found '{0}'")]
    BadSide(char),
    /// A square character other than `w`, `b`, `W`, `B`, `e`.
    #[error("bad character '{character}' for square {square}")]
    BadSquare {
        /// The character.
        character: char,
        /// Square number.
        square: u32,
    },
    /// The pieces do not form a valid position.
    #[error("invalid position: {0}")]
    Position(#[from] PositionError),
}

/// Reads a Hub position string.
///
/// # Errors
/// See [`HubPositionError`].
pub fn parse<R: Rules>(text: &str) -> Result<Position<R>, HubPositionError> {
    let chars: Vec<char> = text.trim().chars().collect();
    let expected = R::Geometry::SQUARES as usize + 1;
    if chars.len() != expected {
        return Err(HubPositionError::Length {
            expected,
            found: chars.len(),
        });
    }
    let side = match chars[0] {
        'W' => Color::White,
        'B' => Color::Black,
        other => return Err(HubPositionError::BadSide(other)),
    };
    let mut setup = Setup {
        side: Some(side),
        ..Setup::default()
    };
    for (number, &character) in (1..).zip(&chars[1..]) {
        let square = super::squares::square_of_number::<R>(number)
            .expect("the string has one character per square");
        match character {
            'w' => setup.white_men.push(square),
            'W' => setup.white_kings.push(square),
            'b' => setup.black_men.push(square),
            'B' => setup.black_kings.push(square),
            'e' => {}
            _ => {
                return Err(HubPositionError::BadSquare {
                    character,
                    square: number,
                });
            }
        }
    }
    Ok(Position::from_setup(&setup)?)
}

/// Writes the Hub position string of a position.
pub fn format<R: Rules>(position: &Position<R>) -> String {
    let mut text = String::with_capacity(R::Geometry::SQUARES as usize + 1);
    text.push(position.side().letter());
    for number in 1..=R::Geometry::SQUARES {
        let square =
            super::squares::square_of_number::<R>(number).expect("every number names a square");
        let bit = R::Geometry::bit_of(square).expect("square on the board");
        text.push(position.piece_at(bit).map_or('e', Piece::letter));
    }
    text
}

/// The number of a geometry square in Hub move text: the variant's number, or for an algebraic
/// variant the number counted from its `a1` corner.
pub fn move_square_number<R: Rules>(square: u32) -> u32 {
    match R::NOTATION {
        Notation::Numeric(_) => super::squares::number::<R>(square),
        Notation::Algebraic(corner) => numbering::number_of_square::<R::Geometry>(
            square,
            corner,
            R::FIRST_MOVER,
            R::MIRRORED_BOARD,
        ),
    }
}

/// The geometry square of a square in Hub move text: a number (see [`move_square_number`]), or
/// chess-like coordinates.
pub fn parse_move_square<R: Rules>(text: &str) -> Option<u32> {
    let Some(number) = super::squares::parse_number(text) else {
        return super::squares::parse_algebraic::<R::Geometry>(text, R::MIRRORED_BOARD);
    };
    if !(1..=R::Geometry::SQUARES).contains(&number) {
        return None;
    }
    match R::NOTATION {
        Notation::Numeric(_) => super::squares::square_of_number::<R>(number),
        Notation::Algebraic(corner) => numbering::square_of_number::<R::Geometry>(
            number,
            corner,
            R::FIRST_MOVER,
            R::MIRRORED_BOARD,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::International;

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    #[test]
    fn start_round_trip() {
        let position = parse::<International>(START).expect("valid");
        assert_eq!(position, Position::start());
        assert_eq!(format(&position), START);
    }

    #[test]
    fn kings_and_side() {
        // Hub example part 11 (protocols/hub.md).
        let text = "WbeeeeeeeeeeeeeeeebeeeeeeeeebeeeeweeeeeeeeeeeeWeeee";
        let position = parse::<International>(text).expect("valid");
        assert_eq!(fen::format(&position), "W:W33,K46:B1,18,28");
        assert_eq!(format(&position), text);
    }

    #[test]
    fn errors() {
        assert!(matches!(
            parse::<International>("Wxyz"),
            Err(HubPositionError::Length { found: 4, .. })
        ));
        let bad_side = format!("X{}", &START[1..]);
        assert_eq!(
            parse::<International>(&bad_side),
            Err(HubPositionError::BadSide('X'))
        );
        let bad_char = START.replacen('e', "q", 1);
        assert!(matches!(
            parse::<International>(&bad_char),
            Err(HubPositionError::BadSquare {
                character: 'q',
                square: 21
            })
        ));
        let man_on_row = format!("Ww{}", &START[2..]);
        assert!(matches!(
            parse::<International>(&man_on_row),
            Err(HubPositionError::Position(_))
        ));
    }

    /// The start strings and first moves pydraughts' `HubEngine` sends for its 8x8 variants
    /// (`Board(v)._game.initial_hub_fen`, `Move.hub_move`), and those of the other numberings.
    #[test]
    fn variant_numberings() {
        use crate::notation::text;
        use crate::rules::{Italian, Russian, Spanish, Thai};
        fn first_moves<R: Rules>() -> Vec<String> {
            let mut moves: Vec<String> = Position::<R>::start()
                .legal_moves()
                .iter()
                .map(text::hub::<R>)
                .collect();
            moves.sort();
            moves
        }
        let russian = Position::<Russian>::start();
        assert_eq!(format(&russian), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        assert_eq!(parse::<Russian>(&format(&russian)), Ok(russian));
        assert_eq!(
            first_moves::<Russian>(),
            ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
        );
        assert_eq!(
            text::parse_hub(&russian, "9-13"),
            text::parse_hub(&russian, "a3-b4")
        );
        let italian = Position::<Italian>::start();
        assert_eq!(format(&italian), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        assert!(first_moves::<Italian>().contains(&"21-17".to_string()));
        let spanish = Position::<Spanish>::start();
        assert_eq!(format(&spanish), "Wwwwwwwwwwwwweeeeeeeebbbbbbbbbbbb");
        assert_eq!(parse::<Spanish>(&format(&spanish)), Ok(spanish));
        let thai = Position::<Thai>::start();
        assert_eq!(format(&thai), "Bwwwwwwwweeeeeeeeeeeeeeeebbbbbbbb");
        assert_eq!(
            first_moves::<Thai>(),
            [
                "25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"
            ]
        );
    }
}
