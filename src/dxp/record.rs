//! The game as DXP plays it: start position, moves, and the adjudication that decides when a game
//! is over.
//!
//! Adjudication sits behind [`Record::result`] so that it follows the rules of the rest of the
//! engine. For now it knows the two ends every rule set has (no legal move loses, FMJD art. 7.2;
//! the third repetition of a position draws, art. 6.1); the counting rules of art. 6.2-6.4 come
//! with the game module (`crate::game`), which this record will wrap.

use crate::core::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, International, Rules};
use crate::search::Root;

/// The rules DXP plays.
pub(crate) type Dxp = International;
/// A move of those rules.
pub(crate) type DxpMove = Move<BitsOf<Dxp>>;

/// How a game ended by the rules: the winner (`None` for a draw) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub winner: Option<Color>,
    pub reason: String,
}

/// A game: its start and the positions after each move.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    /// `positions[0]` is the start, `positions[i]` the position after `i` moves.
    positions: Vec<Position<Dxp>>,
    moves: Vec<DxpMove>,
}

impl Record {
    pub(crate) fn new(start: Position<Dxp>) -> Self {
        Record {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    pub(crate) fn start(&self) -> &Position<Dxp> {
        &self.positions[0]
    }

    pub(crate) fn position(&self) -> &Position<Dxp> {
        self.positions
            .last()
            .expect("a record has a start position")
    }

    pub(crate) fn side(&self) -> Color {
        self.position().side()
    }

    pub(crate) fn ply_count(&self) -> usize {
        self.moves.len()
    }

    pub(crate) fn moves(&self) -> &[DxpMove] {
        &self.moves
    }

    /// Plays a move that is legal in the current position.
    pub(crate) fn play(&mut self, mv: &DxpMove) {
        let next = self.position().play(mv);
        self.moves.push(*mv);
        self.positions.push(next);
    }

    /// Takes the game back to ply `ply` (no change if it is already there or before).
    pub(crate) fn truncate(&mut self, ply: usize) {
        self.moves.truncate(ply);
        self.positions.truncate(ply + 1);
    }

    /// The search root: the current position and the positions that it can still repeat.
    pub(crate) fn root(&self) -> Root<Dxp> {
        Root::after_moves(*self.start(), &self.moves)
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

    /// The end of the game by the rules in the current position, if it is over.
    pub(crate) fn result(&self) -> Option<Verdict> {
        adjudicate(self)
    }
}

/// The rules' verdict on the current position of `record`, `None` while the game goes on.
fn adjudicate(record: &Record) -> Option<Verdict> {
    let position = record.position();
    let side = position.side();
    if position.legal_moves().is_empty() {
        let reason = if position.pieces(side) == BitsOf::<Dxp>::default() {
            format!("{side} has no pieces left")
        } else {
            format!("{side} is blocked")
        };
        return Some(Verdict {
            winner: Some(!side),
            reason,
        });
    }
    // Art. 6.1: the third occurrence with the same player to move. Positions can only recur
    // since the last capture or man move.
    let mut occurrences = 1;
    for ply in (0..record.moves.len()).rev() {
        if record.moves[ply].is_irreversible() {
            break;
        }
        let earlier = &record.positions[ply];
        if (record.moves.len() - ply) % 2 == 0 && earlier == position {
            occurrences += 1;
        }
    }
    if let Some(limit) = Dxp::DRAW_RULES.repetitions
        && occurrences >= limit
    {
        return Some(Verdict {
            winner: None,
            reason: "draw by threefold repetition".to_string(),
        });
    }
    None
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
        assert_eq!(verdict.winner, Some(Color::White));
        assert!(verdict.reason.contains("no pieces"), "{}", verdict.reason);
    }

    #[test]
    fn third_repetition_draws() {
        let mut record = Record::new(fen::parse("W:WK45:BK6").expect("valid"));
        play(&mut record, "45-40 6-11 40-45 11-6");
        assert!(record.result().is_none());
        play(&mut record, "45-40 6-11 40-45");
        assert!(record.result().is_none());
        play(&mut record, "11-6");
        assert!(record.result().expect("over").winner.is_none());
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
