//! Move text: the Hub form and the PDN form, written and read against the legal moves.
//!
//! * Hub form: `32-28`, or for a capture `from x to x captured...` with every captured square in
//!   ascending order (`28x19x23`); no intermediate landing squares.
//! * PDN form: `32-28`, `28x19`; an ambiguous capture (same origin and destination, different
//!   pieces) is written in the long form with the landing squares: `47x38x24x13x36`.
//!
//! Reading accepts either form, `-`, `x` or `:` as separators, captured squares in any order, and a
//! short capture when it is unambiguous. A text is resolved against the legal moves, and a failure
//! says whether the text is malformed, matches no legal move, or matches several.

use super::route;
use crate::core::{BitBoard, Geometry};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use thiserror::Error;

/// Why a move text could not be resolved to a legal move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not the shape of a move.
    #[error("malformed move '{text}': {reason}")]
    Malformed {
        /// The text.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well formed but no legal move matches.
    #[error("illegal move '{text}'{hint}")]
    Illegal {
        /// The text.
        text: String,
        /// Why, when it can be said (e.g. a capture is compulsory).
        hint: String,
    },
    /// Several legal moves match.
    #[error("ambiguous move '{text}': could be {candidates}")]
    Ambiguous {
        /// The text.
        text: String,
        /// The matching moves in long notation.
        candidates: String,
    },
}

/// The Hub form of a legal move (squares numbered as [`super::hub::move_square_number`] says).
pub fn hub<R: Rules>(mv: &Move<BitsOf<R>>) -> String {
    let number = |bit: u32| super::hub::move_square_number::<R>(R::Geometry::square_of(bit));
    let from = number(u32::from(mv.from));
    let to = number(u32::from(mv.to));
    if !mv.is_capture() {
        return format!("{from}-{to}");
    }
    let mut text = format!("{from}x{to}");
    // Ascending in the Hub numbering, which is not the bit order on every board.
    let mut captured: Vec<u32> = mv.captured.iter().map(number).collect();
    captured.sort_unstable();
    for square in captured {
        text.push('x');
        text.push_str(&square.to_string());
    }
    text
}

/// The PDN form of a legal move of `position`: short, or long when another legal capture has the
/// same origin and destination.
pub fn pdn<R: Rules>(position: &Position<R>, mv: &Move<BitsOf<R>>) -> String {
    let name = |bit: u32| super::squares::text::<R>(R::Geometry::square_of(bit));
    let from = name(u32::from(mv.from));
    if !mv.is_capture() {
        return format!("{from}-{}", name(u32::from(mv.to)));
    }
    let ambiguous = position
        .legal_moves()
        .iter()
        .any(|other| other.from == mv.from && other.to == mv.to && other.captured != mv.captured);
    if !ambiguous {
        return format!("{from}{}{}", R::CAPTURE_SEPARATOR, name(u32::from(mv.to)));
    }
    long_form::<R>(position, mv)
}

/// The PDN long form of a capture: origin, each landing square, destination.
pub fn long_form<R: Rules>(position: &Position<R>, mv: &Move<BitsOf<R>>) -> String {
    let name = |bit: u32| super::squares::text::<R>(R::Geometry::square_of(bit));
    let mut text = name(u32::from(mv.from));
    match route::routes_of(position, mv).first() {
        Some(route) => {
            for &landing in &route.landings {
                text.push(R::CAPTURE_SEPARATOR);
                text.push_str(&name(landing));
            }
        }
        None => {
            text.push(if mv.is_capture() {
                R::CAPTURE_SEPARATOR
            } else {
                '-'
            });
            text.push_str(&name(u32::from(mv.to)));
        }
    }
    text
}

/// Resolves a move text (Hub or PDN form, squares as the variant's players write them) against
/// the legal moves of `position`.
///
/// # Errors
/// [`MoveError::Malformed`], [`MoveError::Illegal`] or [`MoveError::Ambiguous`].
pub fn parse<R: Rules>(position: &Position<R>, text: &str) -> Result<Move<BitsOf<R>>, MoveError> {
    parse_with(position, text, super::squares::parse::<R>)
}

/// Resolves a move text of the Hub protocol, whose squares are numbered as
/// [`super::hub::move_square_number`] says (chess-like coordinates are accepted too).
///
/// # Errors
/// As [`parse`].
pub fn parse_hub<R: Rules>(
    position: &Position<R>,
    text: &str,
) -> Result<Move<BitsOf<R>>, MoveError> {
    parse_with(position, text, super::hub::parse_move_square::<R>)
}

fn parse_with<R: Rules>(
    position: &Position<R>,
    text: &str,
    parse_square: fn(&str) -> Option<u32>,
) -> Result<Move<BitsOf<R>>, MoveError> {
    let original = text;
    let text = text.trim().trim_end_matches(['!', '?', '*', '+', '=']);
    let malformed = |reason: &str| MoveError::Malformed {
        text: original.to_string(),
        reason: reason.to_string(),
    };
    if text.is_empty() {
        return Err(malformed("empty"));
    }
    let is_capture_text = text.contains(['x', 'X', ':']);
    let mut squares = Vec::new();
    for token in text.split(['-', 'x', 'X', ':']) {
        if token.is_empty() {
            return Err(malformed("empty square between separators"));
        }
        let square = parse_square(token)
            .ok_or_else(|| malformed(&format!("'{token}' is not a square of this board")))?;
        squares.push(
            R::Geometry::bit_of(square)
                .ok_or_else(|| malformed(&format!("'{token}' is off the board")))?,
        );
    }
    if squares.len() < 2 {
        return Err(malformed("a move needs at least two squares"));
    }
    if text.contains('-') && squares.len() > 2 && R::CAPTURE_SEPARATOR != '-' {
        return Err(malformed("a quiet move has exactly two squares"));
    }
    let legal = position.legal_moves();
    let from = squares[0];
    let mut matches: Vec<Move<BitsOf<R>>> = Vec::new();
    let mut add = |mv: &Move<BitsOf<R>>| {
        if !matches.iter().any(|m| m.same_as(mv)) {
            matches.push(*mv);
        }
    };
    // Hub reading: from, to, then captured squares (all of them, or enough to decide).
    let to = squares[1];
    let listed = squares[2..]
        .iter()
        .fold(BitsOf::<R>::EMPTY, |set, &bit| set | BitsOf::<R>::bit(bit));
    for mv in legal.iter() {
        if u32::from(mv.from) == from
            && u32::from(mv.to) == to
            && (listed & !mv.captured).is_empty()
        {
            add(mv);
        }
    }
    // PDN long reading: from, landing squares, to.
    if squares.len() > 2 {
        let last = squares[squares.len() - 1];
        let via = &squares[1..squares.len() - 1];
        for mv in legal.iter() {
            if u32::from(mv.from) != from || u32::from(mv.to) != last || !mv.is_capture() {
                continue;
            }
            let fits = route::routes_of(position, mv)
                .iter()
                .any(|r| is_subsequence(via, &r.landings[..r.landings.len() - 1]));
            if fits {
                add(mv);
            }
        }
    }
    match matches.len() {
        1 => Ok(matches[0]),
        0 => {
            let hint = if legal.first().is_some_and(Move::is_capture) && !is_capture_text {
                " (a capture is compulsory)".to_string()
            } else if legal.is_empty() {
                " (no legal moves)".to_string()
            } else {
                String::new()
            };
            Err(MoveError::Illegal {
                text: original.to_string(),
                hint,
            })
        }
        _ => Err(MoveError::Ambiguous {
            text: original.to_string(),
            candidates: matches
                .iter()
                .map(|mv| long_form::<R>(position, mv))
                .collect::<Vec<_>>()
                .join(" or "),
        }),
    }
}

fn is_subsequence(needle: &[u32], haystack: &[u32]) -> bool {
    let mut rest = haystack.iter();
    needle.iter().all(|square| rest.any(|h| h == square))
}

/// A move word without a leading PDN move number (`12.32-28` → `32-28`, `12...` → ``).
pub fn without_move_number(word: &str) -> &str {
    match word.find('.') {
        Some(dot) if word[..dot].bytes().all(|b| b.is_ascii_digit()) => {
            word[dot..].trim_start_matches('.')
        }
        _ => word,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::International;

    type I = International;

    fn position(text: &str) -> Position<I> {
        fen::parse::<I>(text).expect("valid FEN")
    }

    #[test]
    fn quiet_moves_round_trip() {
        let start = Position::<I>::start();
        for mv in start.legal_moves().iter() {
            assert_eq!(parse(&start, &hub::<I>(mv)), Ok(*mv));
            assert_eq!(parse(&start, &pdn(&start, mv)), Ok(*mv));
        }
        assert_eq!(hub::<I>(&parse(&start, "32-28").expect("legal")), "32-28");
    }

    #[test]
    fn hub_capture_lists_captured_ascending() {
        let p = position("W:W10,17,39:B11,15,42,43");
        let mv = parse(&p, "39x37").expect("unambiguous short form");
        assert_eq!(hub::<I>(&mv), "39x37x42x43");
        assert_eq!(parse(&p, "39x37x43x42"), Ok(mv));
        assert_eq!(pdn(&p, &mv), "39x37");
    }

    #[test]
    fn ambiguous_capture_needs_long_form() {
        // rule_positions.md R10.
        let p = position("W:WK47:B14,19,29,31,42");
        let err = parse(&p, "47x36").expect_err("ambiguous");
        assert!(matches!(err, MoveError::Ambiguous { .. }), "{err}");
        let a = parse(&p, "47x38x24x13x36").expect("long form");
        let b = parse(&p, "47x38x20x9x36").expect("long form");
        assert_ne!(a, b);
        assert_eq!(pdn(&p, &a), "47x38x24x13x36");
        assert_eq!(pdn(&p, &b), "47x38x20x9x36");
        assert_eq!(hub::<I>(&a), "47x36x19x29x31x42");
        assert_eq!(parse(&p, &hub::<I>(&a)), Ok(a));
        assert_eq!(parse(&p, "47x36x14"), Ok(b));
    }

    #[test]
    fn errors_say_why() {
        let start = Position::<I>::start();
        assert!(matches!(
            parse(&start, ""),
            Err(MoveError::Malformed { .. })
        ));
        assert!(matches!(
            parse(&start, "32-"),
            Err(MoveError::Malformed { .. })
        ));
        assert!(matches!(
            parse(&start, "32-99"),
            Err(MoveError::Malformed { .. })
        ));
        assert!(matches!(
            parse(&start, "junk"),
            Err(MoveError::Malformed { .. })
        ));
        assert!(matches!(
            parse(&start, "32"),
            Err(MoveError::Malformed { .. })
        ));
        assert!(matches!(
            parse(&start, "32-26"),
            Err(MoveError::Illegal { .. })
        ));
        let p = position("W:W10,17,39:B11,15,42,43");
        let err = parse(&p, "39-34").expect_err("capture is compulsory");
        assert!(err.to_string().contains("compulsory"), "{err}");
        assert!(matches!(parse(&p, "17x6"), Err(MoveError::Illegal { .. })));
    }
}

#[cfg(test)]
mod variant_tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::{Italian, Russian, Thai};

    #[test]
    fn russian_is_algebraic_with_colon_captures() {
        // rule_positions.md R15: two routes to each of a3 and b4.
        let p = fen::parse::<Russian>("W:WKd2:Bf6,c5,e5,e3").expect("valid");
        let err = parse(&p, "d2:a3").expect_err("ambiguous");
        assert!(matches!(err, MoveError::Ambiguous { .. }), "{err}");
        let mv = parse(&p, "d2:f4:d6:a3").expect("long form");
        assert_eq!(pdn(&p, &mv), "d2:f4:d6:a3");
        assert_eq!(parse(&p, "d2xf4xd6xa3"), Ok(mv));
        let start = Position::<Russian>::start();
        let mv = parse(&start, "c3-d4").expect("legal");
        assert_eq!(pdn(&start, &mv), "c3-d4");
        assert_eq!(hub::<Russian>(&mv), "10-14");
    }

    #[test]
    fn thai_captures_are_written_with_hyphens() {
        // rule_positions.md R31.
        let p = fen::parse::<Thai>("W:WK31:B8,15,16,17,24").expect("valid");
        let mv = parse(&p, "31-20-11-4-18").expect("long form");
        assert_eq!(long_form(&p, &mv), "31-20-11-4-18");
        assert_eq!(pdn(&p, &parse(&p, "31-13").expect("short")), "31-13");
    }

    #[test]
    fn italian_numbers() {
        // rule_positions.md R21: the man on 22 may not take the king on 19.
        let p = fen::parse::<Italian>("W:W5,22:BK19,23").expect("valid");
        assert_eq!(fen::format(&p), "W:W5,22:BK19,23");
        assert!(parse(&p, "22x15").is_err());
        assert!(parse(&p, "5-1").is_ok());
    }
}

/// A line of moves in PDN notation, played from `position`, separated by spaces.
pub fn pdn_line<R: Rules>(position: &Position<R>, line: &[Move<BitsOf<R>>]) -> String {
    let mut current = *position;
    let mut words = Vec::with_capacity(line.len());
    for mv in line {
        words.push(pdn(&current, mv));
        current = current.play(mv);
    }
    words.join(" ")
}
