//! The game record and the rules that end a game: the draw rules of FMJD art. 6 and adjudication
//! (art. 7), plus endgame knowledge of the lone-king endings.
//!
//! * [`DrawCounters`]: the O(1) counters of art. 6.2-6.4, `Copy`, for the game and for search
//!   paths (see the [`counters`] module for exactly when each starts and resets).
//! * [`Game`]: start position, moves, positions reached and counters; repetition (art. 6.1);
//!   [`Game::result`].
//! * [`adjudicate`]: the result of a position given its counters and repetition count.
//! * [`endgame`]: verdicts on lone-king endings without search.

pub mod counters;
pub mod endgame;
mod result;

pub use counters::{DrawCounters, DrawReason, LoneKingEnding};
pub use result::{Adjudication, GameResult, ResultReason, adjudicate};

use crate::core::Color;
use crate::moves::{Move, MoveList};
use crate::notation::fen::{self, FenError};
use crate::notation::text::{self, MoveError};
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use thiserror::Error;

/// Why a game record could not be built or extended.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    /// The start position's FEN is bad.
    #[error("bad start position: {0}")]
    Fen(#[from] FenError),
    /// A move text could not be resolved to a legal move.
    /// The message counts plies from 1, as a reader of the move list does.
    #[error("move {number} (ply {}): {source}", .ply + 1)]
    Move {
        /// Index of the move in the list given (0 = the first move played).
        ply: usize,
        /// The move number as written in PDN: `12.` for the first mover, `12...` for the other.
        number: String,
        /// Why the text was rejected.
        source: MoveError,
    },
    /// A move that is not legal in the current position.
    #[error("illegal move {0}")]
    IllegalMove(String),
}

/// A game: the start position, the moves played, every position reached and the draw counters of
/// each.
///
/// Positions are kept (not only hashes) so that repetition is decided on whole positions, free of
/// hash collisions. [`Game::play`] accepts any legal move, also after a draw by rule: a GUI may play
/// on, and [`Game::result`] is the result in the current position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<R: Rules> {
    /// `positions[0]` is the start position; `positions[i]` the position after `i` moves.
    positions: Vec<Position<R>>,
    /// `counters[i]` belongs to `positions[i]`.
    counters: Vec<DrawCounters<R>>,
    moves: Vec<Move<BitsOf<R>>>,
}

impl<R: Rules> Game<R> {
    /// A game starting from `start` with no moves played.
    pub fn new(start: Position<R>) -> Self {
        Game {
            positions: vec![start],
            counters: vec![DrawCounters::new(&start)],
            moves: Vec::new(),
        }
    }

    /// A game from `start` and move texts (Hub or PDN form, see [`text::parse`]).
    ///
    /// # Errors
    /// [`GameError::Move`] for the first text that is not a legal move; nothing is returned but
    /// the error, so a caller replacing its game keeps the old one intact.
    pub fn from_moves<S: AsRef<str>>(
        start: Position<R>,
        texts: impl IntoIterator<Item = S>,
    ) -> Result<Self, GameError> {
        let mut game = Game::new(start);
        for (ply, text) in texts.into_iter().enumerate() {
            game.play_text(text.as_ref())
                .map_err(|source| GameError::Move {
                    ply,
                    number: game.move_number_text(game.ply_count()),
                    source,
                })?;
        }
        Ok(game)
    }

    /// A game from a PDN FEN and move texts.
    ///
    /// # Errors
    /// [`GameError::Fen`] or [`GameError::Move`].
    pub fn from_fen_and_moves<S: AsRef<str>>(
        fen_text: &str,
        texts: impl IntoIterator<Item = S>,
    ) -> Result<Self, GameError> {
        Self::from_moves(fen::parse::<R>(fen_text)?, texts)
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`GameError::IllegalMove`] if `mv` is not a legal move of the current position; the game is
    /// unchanged.
    pub fn play(&mut self, mv: &Move<BitsOf<R>>) -> Result<(), GameError> {
        let legal = self.legal_moves();
        let canonical = legal
            .iter()
            .find(|m| m.same_as(mv))
            .copied()
            .ok_or_else(|| GameError::IllegalMove(text::hub::<R>(mv)))?;
        self.push(canonical);
        Ok(())
    }

    /// Resolves a move text against the current position and plays it.
    ///
    /// # Errors
    /// See [`text::parse`]; the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<Move<BitsOf<R>>, MoveError> {
        let mv = text::parse(self.position(), text)?;
        if let Some(limit) = R::MAX_SAME_KING_MOVES
            && !self.counters().allows(self.position(), &mv)
        {
            return Err(MoveError::Illegal {
                text: text.to_string(),
                hint: format!(" (this king has made {limit} moves in a row)"),
            });
        }
        self.push(mv);
        Ok(mv)
    }

    /// The legal moves of the current position, with the rules that need the game's history as
    /// well as the position (the Frisian three-moves king rule).
    pub fn legal_moves(&self) -> MoveList<BitsOf<R>> {
        let mut list = self.position().legal_moves();
        self.counters().restrict(self.position(), &mut list);
        list
    }

    /// Plays a move known to be legal.
    fn push(&mut self, mv: Move<BitsOf<R>>) {
        let before = *self.position();
        let after = before.play(&mv);
        let counters = self.counters().after(&mv, &after);
        self.moves.push(mv);
        self.positions.push(after);
        self.counters.push(counters);
    }

    /// Takes back the last move, returning it (`None` at the start position).
    pub fn undo(&mut self) -> Option<Move<BitsOf<R>>> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.counters.pop();
        Some(mv)
    }

    /// The start position.
    pub fn start(&self) -> &Position<R> {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position<R> {
        self.positions.last().expect("a game has a start position")
    }

    /// The draw counters of the current position.
    pub fn counters(&self) -> DrawCounters<R> {
        *self.counters.last().expect("a game has start counters")
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move<BitsOf<R>>] {
        &self.moves
    }

    /// Every position of the game, the start position first and the current one last.
    pub fn positions(&self) -> &[Position<R>] {
        &self.positions
    }

    /// The counters of every position, aligned with [`Self::positions`].
    pub fn all_counters(&self) -> &[DrawCounters<R>] {
        &self.counters
    }

    /// Number of moves (plies) played.
    pub fn ply_count(&self) -> usize {
        self.moves.len()
    }

    /// The positions that a later position can repeat: those since the last capture or man move,
    /// the current one last. The search seeds its repetition detection with their hashes.
    pub fn reversible_history(&self) -> &[Position<R>] {
        let reach = self.counters().reversible_plies() as usize;
        let first = self.positions.len().saturating_sub(reach + 1);
        &self.positions[first..]
    }

    /// Hashes of the positions before the current one that it can still repeat (those since the
    /// last capture or man move), oldest first: a search root's history
    /// ([`crate::search::Root::history`]).
    pub fn history_hashes(&self) -> Vec<u64> {
        let history = self.reversible_history();
        history[..history.len() - 1]
            .iter()
            .map(Position::hash)
            .collect()
    }

    /// How many times the current position has occurred with the same player to move, this time
    /// included (FMJD art. 6.1 draws at three).
    pub fn occurrences(&self) -> u32 {
        let history = self.reversible_history();
        let current = self.position();
        // The same player is to move every second ply.
        history
            .iter()
            .rev()
            .step_by(2)
            .filter(|&position| position == current)
            .count() as u32
    }

    /// The rule by which the current position is drawn, if any (art. 6.1-6.4).
    pub fn draw_reason(&self) -> Option<DrawReason> {
        match R::DRAW_RULES.repetitions {
            Some(limit) if self.occurrences() >= limit => Some(DrawReason::Repetition),
            _ => self.counters().draw_by_counters(),
        }
    }

    /// The result in the current position and why, `None` while the game goes on (see
    /// [`adjudicate`]).
    pub fn result(&self) -> Option<Adjudication> {
        adjudicate(self.position(), &self.counters(), self.occurrences())
    }

    /// The move number of ply `ply` as PDN writes it: `12.` when the variant's first mover plays,
    /// `12...` for the other player.
    pub fn move_number_text(&self, ply: usize) -> String {
        let (number, first_half) = move_number::<R>(self.start().side(), ply);
        if first_half {
            format!("{number}.")
        } else {
            format!("{number}...")
        }
    }
}

/// The PDN move number of ply `ply` of a game whose first ply is played by `start_side`, and
/// whether the variant's first mover plays it. Moves are numbered from the variant's first mover
/// (White in international draughts): a game set up with the other player to move starts `1...`.
pub fn move_number<R: Rules>(start_side: Color, ply: usize) -> (u32, bool) {
    let offset = usize::from(start_side != R::FIRST_MOVER);
    let index = ply + offset;
    ((index / 2 + 1) as u32, index.is_multiple_of(2))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod variant_draw_tests;
