//! Opening sets: reading them, and generating them from the rules and our own search.
//!
//! A set is a text file with one opening per line:
//!
//! ```text
//! # comment
//! W:W28,31,33-50:B1-18,20,23  32-28 19-23  # -0.03
//! W:W26,32-50:B1-15,17-21
//! ```
//!
//! The first word is a PDN FEN. Words after it are moves from the variant's start position that
//! reach that FEN (checked when the set is read); without moves the game starts at the FEN, as
//! in a file of FENs only. `#` starts a comment.

use crate::eval::Eval;
use crate::moves::Move;
use crate::notation::{fen, text};
use crate::player::options::engine_at_most;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::{self, Score};
use crate::search::{Limits, Mode, Root, SearchControl};
use rayon::prelude::*;
use std::collections::HashSet;

/// An opening: where the game starts and the moves already played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<R: Rules> {
    /// Start position of the game.
    pub start: Position<R>,
    /// Moves played from `start` before the engines take over.
    pub moves: Vec<Move<BitsOf<R>>>,
}

impl<R: Rules> Opening<R> {
    /// The opening that is just the variant's start position.
    pub fn start_position() -> Self {
        Opening {
            start: Position::start(),
            moves: Vec::new(),
        }
    }

    /// The position the engines start from.
    pub fn position(&self) -> Position<R> {
        self.moves.iter().fold(self.start, |p, mv| p.play(mv))
    }

    /// The moves in PDN form, or the FEN when there are none: how the opening is named in output.
    pub fn label(&self) -> String {
        if self.moves.is_empty() {
            return fen::format(&self.start);
        }
        let mut position = self.start;
        let mut words = Vec::with_capacity(self.moves.len());
        for mv in &self.moves {
            words.push(text::pdn(&position, mv));
            position = position.play(mv);
        }
        words.join(" ")
    }

    /// The line of an opening set (without comment).
    pub fn to_line(&self) -> String {
        let fen_text = fen::format(&self.position());
        if self.moves.is_empty() {
            fen_text
        } else {
            format!("{fen_text}  {}", self.label())
        }
    }
}

/// Reads an opening set (see the module documentation).
///
/// # Errors
/// The first bad line, with its number and what is wrong.
pub fn parse_set<R: Rules>(text: &str) -> Result<Vec<Opening<R>>, String> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let number = index + 1;
        let mut words = line.split_whitespace();
        let fen_text = words.next().unwrap_or_default();
        let target =
            fen::parse::<R>(fen_text).map_err(|e| format!("line {number}: bad FEN: {e}"))?;
        let move_words: Vec<&str> = words
            .map(strip_move_number)
            .filter(|w| !w.is_empty())
            .collect();
        if move_words.is_empty() {
            openings.push(Opening {
                start: target,
                moves: Vec::new(),
            });
            continue;
        }
        let start = Position::<R>::start();
        let mut position = start;
        let mut moves = Vec::with_capacity(move_words.len());
        for word in move_words {
            let mv = text::parse(&position, word)
                .map_err(|e| format!("line {number}: move '{word}': {e}"))?;
            position = position.play(&mv);
            moves.push(mv);
        }
        if position != target {
            return Err(format!(
                "line {number}: the moves reach {}, not the FEN {fen_text}",
                fen::format(&position)
            ));
        }
        openings.push(Opening { start, moves });
    }
    if openings.is_empty() {
        return Err("no opening in the set".to_string());
    }
    Ok(openings)
}

/// A word without its move number (`1.32-28` → `32-28`, `1.` → nothing).
fn strip_move_number(word: &str) -> &str {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() < word.len() && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    }
}

/// Every opening of `plies` plies from the start position, one per position reached (the first
/// move order found is kept), in move generation order.
pub fn enumerate<R: Rules>(plies: usize) -> Vec<Opening<R>> {
    fn walk<R: Rules>(
        position: Position<R>,
        line: &mut Vec<Move<BitsOf<R>>>,
        plies: usize,
        seen: &mut HashSet<Position<R>>,
        out: &mut Vec<Opening<R>>,
    ) {
        if line.len() == plies {
            if seen.insert(position) {
                out.push(Opening {
                    start: Position::start(),
                    moves: line.clone(),
                });
            }
            return;
        }
        for mv in position.legal_moves().iter() {
            line.push(*mv);
            walk(position.play(mv), line, plies, seen, out);
            line.pop();
        }
    }
    let mut out = Vec::new();
    walk(
        Position::<R>::start(),
        &mut Vec::new(),
        plies,
        &mut HashSet::new(),
        &mut out,
    );
    out
}

/// Transposition table of each search while scoring openings, in MiB.
const SCORING_HASH_MB: usize = 16;

/// Scores openings with a fixed-depth search (one thread per search, in parallel, so the scores do
/// not depend on timing): the score of the position reached, in centi-men from White's side.
pub fn score_openings<R: Rules>(openings: &[Opening<R>], depth: u32) -> Vec<Score> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    openings
        .par_iter()
        .map_init(
            || engine_at_most::<R>(Eval::default_eval(), 1, SCORING_HASH_MB),
            |engine, opening| {
                engine.new_game();
                let root = Root::after_moves(opening.start, &opening.moves);
                let control = SearchControl::new();
                let outcome = engine.search(&root, &limits, Mode::Analyze, &control, |_| {});
                if root.position.side() == crate::core::Color::White {
                    outcome.score
                } else {
                    -outcome.score
                }
            },
        )
        .collect()
}

/// The text of a generated opening set: a header saying how it was made, then one opening per
/// line with its score (men, White's side) as a comment.
pub fn format_set<R: Rules>(openings: &[(Opening<R>, Score)], header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    for (opening, score) in openings {
        out.push_str(&format!(
            "{}  # {}\n",
            opening.to_line(),
            score::to_men(*score)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::International;

    type I = International;

    #[test]
    fn two_ply_openings() {
        let openings = enumerate::<I>(2);
        // Nine first moves, nine replies each.
        assert_eq!(openings.len(), 81);
        assert!(openings.iter().all(|o| o.moves.len() == 2));
        let three = enumerate::<I>(3);
        let positions: HashSet<_> = three.iter().map(Opening::position).collect();
        assert_eq!(positions.len(), three.len());
    }

    #[test]
    fn set_round_trip() {
        let openings = enumerate::<I>(2);
        let scored: Vec<_> = openings.iter().map(|o| (o.clone(), 0)).collect();
        let text = format_set(&scored, &["test".to_string()]);
        assert_eq!(parse_set::<I>(&text), Ok(openings));
    }

    #[test]
    fn fen_only_lines_and_errors() {
        let set = parse_set::<I>("# ballots\nW:W26,32-50:B1-15,17-21\n\n").expect("valid");
        assert_eq!(set.len(), 1);
        assert!(set[0].moves.is_empty());
        assert_eq!(
            set[0].label(),
            "W:W26,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,17,18,19,20,21"
        );
        let with_moves =
            parse_set::<I>("W:W28,31,33-50:B1-18,20,23 1. 32-28 1...19-23").expect("valid");
        assert_eq!(with_moves[0].label(), "32-28 19-23");
        assert_eq!(with_moves[0].start, Position::start());
        for bad in [
            "",
            "# nothing",
            "X:W1",
            "W:W28,31,33-50:B1-18,20,23  32-28 19-24",
            "W:W28,31,33-50:B1-18,20,23  32-27 19-23",
        ] {
            assert!(parse_set::<I>(bad).is_err(), "{bad}");
        }
    }
}
