//! FEN as in PDN 3.0: `W:W31-50:B1-20`.
//!
//! Reading accepts the turn, then two colour sections in either order, `K` for kings, ranges
//! (`31-50`), an empty section (`W:W:B1`), surrounding quotes, a trailing `.`, and ignores the
//! extension sections lidraughts appends (`:H0:F1`). Writing gives the widely readable form: turn,
//! White's section, Black's section, squares ascending, no ranges.

use crate::core::{BitBoard, Color, Geometry, Piece};
use crate::position::{Position, PositionError, Setup};
use crate::rules::Rules;
use thiserror::Error;

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// Nothing to read.
    #[error("empty FEN")]
    Empty,
    /// The turn is not `W` or `B`.
    #[error("FEN turn must be W or B, found '{0}'")]
    BadTurn(String),
    /// A colour section does not start with `W` or `B`, or a colour appears twice.
    #[error("bad FEN colour section '{0}' (expected W... or B..., each once)")]
    BadSection(String),
    /// A square that is not a square of the variant.
    #[error("bad FEN square '{0}'")]
    BadSquare(String),
    /// A range whose end is before its start.
    #[error("bad FEN range '{0}'")]
    BadRange(String),
    /// The pieces do not form a valid position.
    #[error("invalid position: {0}")]
    Position(#[from] PositionError),
}

/// The FEN inside a pasted `[FEN "..."]` tag (any case, with or without other tags pasted
/// along, such as `[SetUp "1"]`), or the text itself when it is no tag.
pub fn unwrap_tag(text: &str) -> &str {
    let trimmed = text.trim();
    if !trimmed.starts_with('[') {
        return trimmed;
    }
    let lower = trimmed.to_ascii_lowercase();
    let Some(start) = lower.find("[fen") else {
        return trimmed;
    };
    let inner = &trimmed[start + "[fen".len()..];
    let inner = inner.split(']').next().unwrap_or(inner);
    inner.trim()
}

/// Reads a FEN into a position of the variant `R`.
///
/// # Errors
/// See [`FenError`].
pub fn parse<R: Rules>(text: &str) -> Result<Position<R>, FenError> {
    Ok(Position::from_setup(&parse_setup::<R>(text)?)?)
}

/// Reads a FEN into an unvalidated [`Setup`].
///
/// # Errors
/// See [`FenError`]; the setup is not checked against the rules.
pub fn parse_setup<R: Rules>(text: &str) -> Result<Setup, FenError> {
    let text = text.trim().trim_matches('"').trim();
    let text = text.strip_suffix('.').unwrap_or(text);
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut sections = text.split(':').map(str::trim);
    let turn = sections.next().unwrap_or_default();
    let side = match turn {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        other => return Err(FenError::BadTurn(other.to_string())),
    };
    let mut setup = Setup {
        side: Some(side),
        ..Setup::default()
    };
    let mut seen = [false; 2];
    for section in sections {
        let mut chars = section.chars();
        let color = match chars.next() {
            Some('W' | 'w') => Color::White,
            Some('B' | 'b') => Color::Black,
            // lidraughts' halfmove clock and move number; unknown sections are ignored.
            Some('H' | 'F' | 'h' | 'f') => continue,
            _ => return Err(FenError::BadSection(section.to_string())),
        };
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(FenError::BadSection(section.to_string()));
        }
        let (men, kings) = match color {
            Color::White => (&mut setup.white_men, &mut setup.white_kings),
            Color::Black => (&mut setup.black_men, &mut setup.black_kings),
        };
        let list = chars.as_str().trim();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (is_king, body) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let target = if is_king { &mut *kings } else { &mut *men };
            match body.split_once('-') {
                Some((first, last)) => {
                    // A range runs over the variant's own square numbers.
                    let number = |text: &str| {
                        super::squares::parse_number(text.trim())
                            .ok_or_else(|| FenError::BadRange(item.to_string()))
                    };
                    let (first, last) = (number(first)?, number(last)?);
                    if last < first {
                        return Err(FenError::BadRange(item.to_string()));
                    }
                    for number in first..=last {
                        target.push(
                            super::squares::square_of_number::<R>(number)
                                .ok_or_else(|| FenError::BadSquare(number.to_string()))?,
                        );
                    }
                }
                None => target.push(square::<R>(body)?),
            }
        }
    }
    if !seen[0] && !seen[1] {
        return Err(FenError::BadSection(text.to_string()));
    }
    Ok(setup)
}

fn square<R: Rules>(text: &str) -> Result<u32, FenError> {
    super::squares::parse::<R>(text.trim()).ok_or_else(|| FenError::BadSquare(text.to_string()))
}

/// Writes the FEN of a position in the variant's square names, in the variant's reading order:
/// `W:W31,32,K40:B1,2`, or `W:Wa1,c1,Kd2:Bb8` for an algebraic variant.
pub fn format<R: Rules>(position: &Position<R>) -> String {
    let mut text = String::new();
    text.push(position.side().letter());
    for color in Color::BOTH {
        text.push(':');
        text.push(color.letter());
        let kings = position.kings(color);
        let mut squares: Vec<(u32, u32)> = position
            .pieces(color)
            .iter()
            .map(|bit| {
                // Squares are listed in number order; algebraic variants count from a1, as
                // their Hub move text does.
                let square = R::Geometry::square_of(bit);
                (super::hub::move_square_number::<R>(square), bit)
            })
            .collect();
        squares.sort_unstable();
        let items: Vec<String> = squares
            .iter()
            .map(|&(_, bit)| {
                let name = super::squares::text::<R>(R::Geometry::square_of(bit));
                if kings.has(bit) {
                    format!("K{name}")
                } else {
                    name
                }
            })
            .collect();
        text.push_str(&items.join(","));
    }
    text
}

// A position prints as the notation writes it: the core holds no text.
impl<R: Rules> std::fmt::Display for Position<R> {
    /// A diagram from White's side, then the FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in 0..R::Geometry::ROWS {
            let mut line = String::new();
            for file in 0..R::Geometry::COLUMNS {
                let symbol = match R::Geometry::square_at(row, file) {
                    None => ' ',
                    Some(square) => {
                        let bit = R::Geometry::bit_of(square).expect("square on the board");
                        self.piece_at(bit).map_or('.', Piece::letter)
                    }
                };
                line.push(' ');
                line.push(symbol);
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        write!(f, "{}", format(self))
    }
}

impl<R: Rules> std::fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", format(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Brazilian, International, Variant};

    #[test]
    fn start_positions_are_the_start_fens_of_the_rulebooks() {
        for &variant in Variant::ALL {
            crate::with_variant!(variant, R => {
                let written = parse::<R>(R::START_FEN).expect("a valid start FEN");
                assert_eq!(Position::<R>::start(), written, "{variant}");
            });
        }
    }

    #[test]
    fn start_position_forms() {
        let start = parse::<International>("W:W31-50:B1-20").expect("valid");
        let listed = parse::<International>(
            "W:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50.",
        )
        .expect("valid");
        assert_eq!(start, listed);
        assert_eq!(start, Position::start());
        let with_clock = parse::<International>("\"W:W31-50:B1-20:H0:F1\"").expect("valid");
        assert_eq!(start, with_clock);
    }

    #[test]
    fn round_trip() {
        for fen in [
            "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
            "W:WK46:BK28",
            "B:W:B1",
        ] {
            let position = parse::<International>(fen).expect(fen);
            assert_eq!(format(&position), fen);
            assert_eq!(parse::<International>(&format(&position)), Ok(position));
        }
        let brazilian = parse::<Brazilian>("W:W21-32:B1-12").expect("valid");
        assert_eq!(
            format(&brazilian),
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
        );
        assert_eq!(parse::<Brazilian>(&format(&brazilian)), Ok(brazilian));
    }

    #[test]
    fn errors_are_typed() {
        type I = International;
        assert_eq!(parse::<I>(""), Err(FenError::Empty));
        assert!(matches!(parse::<I>("X:W1"), Err(FenError::BadTurn(_))));
        assert!(matches!(parse::<I>("W:Q1"), Err(FenError::BadSection(_))));
        assert!(matches!(parse::<I>("W:W51"), Err(FenError::BadSquare(_))));
        assert!(matches!(parse::<I>("W:W0"), Err(FenError::BadSquare(_))));
        assert!(matches!(parse::<I>("W:Wx"), Err(FenError::BadSquare(_))));
        assert!(matches!(parse::<I>("W:W40-31"), Err(FenError::BadRange(_))));
        assert!(matches!(
            parse::<I>("W:W31:W32"),
            Err(FenError::BadSection(_))
        ));
        assert_eq!(
            parse::<I>("W:W31:B31"),
            Err(FenError::Position(PositionError::Overlap(31)))
        );
        assert_eq!(
            parse::<I>("W:W3:B40"),
            Err(FenError::Position(PositionError::ManOnPromotionRow {
                color: Color::White,
                square: 3
            }))
        );
        assert_eq!(
            parse::<I>("W:W31:B46"),
            Err(FenError::Position(PositionError::ManOnPromotionRow {
                color: Color::Black,
                square: 46
            }))
        );
        assert!(matches!(
            parse::<I>("W:W6-30:B1"),
            Err(FenError::Position(PositionError::TooManyPieces {
                count: 25,
                ..
            }))
        ));
    }
}
