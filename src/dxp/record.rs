//! The game as DXP plays it: the game record of [`crate::game`] (moves, positions, FMJD draw
//! counters and adjudication) with what the DXP loop needs around it: search roots, take-backs by
//! DXP move number, and how the game ended.

use crate::core::Color;
use crate::game::{Game, GameResult, ResultReason};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, International, Rules};
use crate::search::Root;
use std::fmt;

/// The rules DXP plays.
pub(crate) type Dxp = International;
/// A move of those rules.
pub(crate) type DxpMove = Move<BitsOf<Dxp>>;

/// How a game ended by the rules: its result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Finish {
    pub result: GameResult,
    pub reason: EndCause,
}

/// Why a DXP game ended, kept as a value until the report writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EndCause {
    /// The rules ended it.
    Rules(ResultReason),
    /// Our search returned no move in a position the rules do not end; the game is taken as
    /// lost by us rather than left hanging.
    NoMoveFound,
}

impl fmt::Display for EndCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndCause::Rules(reason) => reason.fmt(f),
            EndCause::NoMoveFound => f.write_str("no move found"),
        }
    }
}

/// A game in progress.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    game: Game<Dxp>,
}

impl Record {
    pub(crate) fn new(start: Position<Dxp>) -> Self {
        Record {
            game: Game::new(start),
        }
    }

    pub(crate) fn start(&self) -> &Position<Dxp> {
        self.game.start()
    }

    pub(crate) fn position(&self) -> &Position<Dxp> {
        self.game.position()
    }

    pub(crate) fn side(&self) -> Color {
        self.position().side()
    }

    pub(crate) fn ply_count(&self) -> usize {
        self.game.ply_count()
    }

    pub(crate) fn moves(&self) -> &[DxpMove] {
        self.game.moves()
    }

    /// Plays a move, which the caller resolved against the legal moves.
    pub(crate) fn play(&mut self, mv: &DxpMove) {
        if let Err(error) = self.game.play(mv) {
            debug_assert!(false, "{error}");
            log::error!("{error}");
        }
    }

    /// Takes the game back to ply `ply` (no change if it is already there or before).
    pub(crate) fn truncate(&mut self, ply: usize) {
        while self.game.ply_count() > ply && self.game.undo().is_some() {}
    }

    /// The search root: the current position, the positions it can still repeat, and the draw
    /// counters.
    pub(crate) fn root(&self) -> Root<Dxp> {
        Root::from_game(&self.game)
    }

    /// The root after one more (legal) move, for pondering on the expected reply.
    pub(crate) fn root_after(&self, mv: &DxpMove) -> Root<Dxp> {
        let mut root = self.root();
        root.push(mv);
        root
    }

    /// The ply at which DXP move `number` starts with `side` to move, counted like Scan: moves
    /// are numbered as if the game began with the first mover of the rules (White) to move.
    pub(crate) fn ply_of(&self, number: u16, side: Color) -> Option<usize> {
        let from_first_mover = 2 * (i64::from(number) - 1) + i64::from(side != Dxp::FIRST_MOVER);
        let offset = i64::from(self.start().side() != Dxp::FIRST_MOVER);
        usize::try_from(from_first_mover - offset).ok()
    }

    /// The end of the game by the rules (FMJD art. 6 and 7) in the current position, if it is
    /// over.
    pub(crate) fn result(&self) -> Option<Finish> {
        self.game.result().map(|result| Finish {
            result: result.result,
            reason: EndCause::Rules(result.reason),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{fen, text};

    fn play(record: &mut Record, moves: &str) {
        for word in moves.split_whitespace() {
            let mv = text::parse(record.position(), word).expect(word);
            record.play(&mv);
        }
    }

    #[test]
    fn no_legal_move_loses() {
        let record = Record::new(fen::parse("B:W28:B").expect("valid"));
        let verdict = record.result().expect("over");
        assert_eq!(verdict.result, GameResult::WhiteWins);
        let reason = verdict.reason.to_string();
        assert!(reason.contains("no pieces"), "{reason}");
    }

    #[test]
    fn third_repetition_draws() {
        let mut record = Record::new(fen::parse("W:WK45:BK6").expect("valid"));
        play(&mut record, "45-40 6-11 40-45 11-6");
        assert!(record.result().is_none());
        play(&mut record, "45-40 6-11 40-45");
        assert!(record.result().is_none());
        play(&mut record, "11-6");
        assert!(record.result().expect("over").result.is_draw());
        record.truncate(4);
        assert!(record.result().is_none());
        assert_eq!(record.ply_count(), 4);
    }

    #[test]
    fn take_back_plies() {
        let white_start = Record::new(Position::start());
        assert_eq!(white_start.ply_of(1, Color::White), Some(0));
        assert_eq!(white_start.ply_of(1, Color::Black), Some(1));
        assert_eq!(white_start.ply_of(3, Color::White), Some(4));
        assert_eq!(white_start.ply_of(0, Color::Black), None);
        let black_start = Record::new(Position::start().pass());
        assert_eq!(black_start.ply_of(1, Color::Black), Some(0));
        assert_eq!(black_start.ply_of(2, Color::White), Some(1));
        assert_eq!(black_start.ply_of(1, Color::White), None);
    }
}
