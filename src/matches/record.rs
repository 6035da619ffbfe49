//! The one place where a match meets the game record: the end of a game by the rules, and PDN.
//!
//! PROVISIONAL: until `crate::game` (draw rules, adjudication) and `crate::notation::pdn` land,
//! only the end of a game by a player who cannot move is known here, and PDN is unavailable.

use crate::core::{BitBoard, Color};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};

/// A game being played: start position and moves.
#[derive(Clone, Debug)]
pub struct Record<R: Rules> {
    start: Position<R>,
    position: Position<R>,
    moves: Vec<Move<BitsOf<R>>>,
}

impl<R: Rules> Record<R> {
    /// A game from `start`.
    pub fn new(start: Position<R>) -> Self {
        Record {
            start,
            position: start,
            moves: Vec::new(),
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: &Move<BitsOf<R>>) {
        self.position = self.position.play(mv);
        self.moves.push(*mv);
    }

    /// The start position.
    pub fn start(&self) -> &Position<R> {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position<R> {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move<BitsOf<R>>] {
        &self.moves
    }

    /// The result by the rules, if the game is over: the winner (`None`: a draw) and why.
    pub fn rule_result(&self) -> Option<(Option<Color>, String)> {
        if !self.position.legal_moves().is_empty() {
            return None;
        }
        let side = self.position.side();
        let why = if self.position.pieces(side).is_empty() {
            format!("{side} has no pieces left")
        } else {
            format!("{side} is blocked (no legal move)")
        };
        Some((Some(!side), why))
    }
}

/// The result token of a game, in the variant's PDN result type (`2-0`, `1-1`, `0-2` on 10x10).
pub fn result_token<R: Rules>(winner: Option<Color>) -> &'static str {
    let international = <R::Geometry as crate::core::Geometry>::ROWS == 10;
    match (winner, international) {
        (Some(Color::White), true) => "2-0",
        (Some(Color::White), false) => "1-0",
        (Some(Color::Black), true) => "0-2",
        (Some(Color::Black), false) => "0-1",
        (None, true) => "1-1",
        (None, false) => "1/2-1/2",
    }
}

/// The tags of a match game.
#[derive(Clone, Debug, Default)]
pub struct GameTags {
    /// `Event`.
    pub event: String,
    /// `Date` (`YYYY.MM.DD`).
    pub date: String,
    /// `Round`: the game number.
    pub round: usize,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// `TimeControl`.
    pub time_control: String,
    /// `Termination`: why the game ended.
    pub termination: String,
}

/// A game as PDN 3.0 text.
pub fn pdn_text<R: Rules>(
    _record: &Record<R>,
    _winner: Option<Color>,
    _tags: &GameTags,
) -> Result<String, String> {
    Err("PDN output is not available yet".to_string())
}

/// A finished game read back from a match's PDN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PastGame {
    /// `Round`: the game number.
    pub round: usize,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
}

/// The finished games of a match's PDN file; games without a result or unreadable are skipped
/// (they will be played again), with a warning.
pub fn read_past_games<R: Rules>(_text: &str) -> Result<Vec<PastGame>, String> {
    Err("--resume is not available yet".to_string())
}
