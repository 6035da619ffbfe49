//! The Hub protocol's position string: the side to move (`W`/`B`) followed by one character per
//! playable square in numbering order: `w`/`b` men, `W`/`B` kings, `e` empty. For international
//! draughts that is 51 characters, e.g. the start `Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww`.

use crate::core::{Color, Geometry, Piece};
use crate::position::{Position, PositionError, Setup};
use crate::rules::Rules;
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
    for (square, &character) in (1..).zip(&chars[1..]) {
        match character {
            'w' => setup.white_men.push(square),
            'W' => setup.white_kings.push(square),
            'b' => setup.black_men.push(square),
            'B' => setup.black_kings.push(square),
            'e' => {}
            _ => return Err(HubPositionError::BadSquare { character, square }),
        }
    }
    Ok(Position::from_setup(&setup)?)
}

/// Writes the Hub position string of a position.
pub fn format<R: Rules>(position: &Position<R>) -> String {
    let mut text = String::with_capacity(R::Geometry::SQUARES as usize + 1);
    text.push(position.side().letter());
    for square in 1..=R::Geometry::SQUARES {
        let bit = R::Geometry::bit_of(square).expect("square on the board");
        text.push(position.piece_at(bit).map_or('e', Piece::letter));
    }
    text
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
}
