//! Adjudication: whether a position ends the game, who won, and why (FMJD art. 6 and 7).

use super::counters::{DrawCounters, DrawReason};
use crate::core::{BitBoard, Color};
use crate::position::Position;
use crate::rules::{Goal, Rules};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultReason {
    /// This side has no pieces left (FMJD art. 7.2: all its pieces were captured). In a game it
    /// is the side to move; a set-up position can also give the other side none.
    NoPieces(Color),
    /// The side to move has pieces but no legal move (FMJD art. 7.2: blocked).
    Blocked(Color),
    /// This side crowned the first king (Breakthrough).
    FirstKing(Color),
    /// Drawn by rule (FMJD art. 6).
    Draw(DrawReason),
}

impl fmt::Display for ResultReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultReason::NoPieces(side) => write!(f, "{side} has no pieces left"),
            ResultReason::Blocked(side) => write!(f, "{side} is blocked (no legal move)"),
            ResultReason::FirstKing(side) => write!(f, "{side} crowned the first king"),
            ResultReason::Draw(reason) => write!(f, "draw by {reason}"),
        }
    }
}

/// The result of a game: a win for one side or a draw. Every part of the program that records
/// who won (the rules' adjudication, PDN, DXP, matches, the training data) says it with this type
/// and converts it at its edge: PDN's tokens ([`GameResult::pdn_token`]; the result tag can also
/// say more, see [`crate::notation::pdn::PdnResult`]), DXP's end reasons, a byte of the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// A win for `winner`.
    pub const fn win(winner: Color) -> Self {
        match winner {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// Whether the game is drawn.
    pub const fn is_draw(self) -> bool {
        matches!(self, GameResult::Draw)
    }

    /// Half-points of `side`: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self, side: Color) -> u8 {
        match self.winner() {
            None => 1,
            Some(winner) if winner == side => 2,
            Some(_) => 0,
        }
    }
}

/// The end of a game by the rules: its result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Adjudication {
    /// Who won, or a draw.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: ResultReason,
}

impl Adjudication {
    /// A win for `winner`.
    const fn win(winner: Color, reason: ResultReason) -> Self {
        Adjudication {
            result: GameResult::win(winner),
            reason,
        }
    }

    /// A draw by rule.
    pub const fn draw(reason: DrawReason) -> Self {
        Adjudication {
            result: GameResult::Draw,
            reason: ResultReason::Draw(reason),
        }
    }
}

impl fmt::Display for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.result.winner() {
            Some(winner) => write!(f, "{winner} wins: {}", self.reason),
            None => write!(f, "{}", self.reason),
        }
    }
}

/// The result of the game in `position`, reached with `counters`, where the position has occurred
/// `occurrences` times (this one included) with the same player to move since the last capture or
/// man move; `None` while the game goes on.
///
/// Wins come first: a move that captures the last piece or blocks the opponent wins even if it
/// also completes a draw count (the game ends on that move; lidraughts decides the same way).
/// The goal of the variant ([`Goal`]) decides who wins when a player cannot move.
pub fn adjudicate<R: Rules>(
    position: &Position<R>,
    counters: &DrawCounters<R>,
    occurrences: u32,
) -> Option<Adjudication> {
    let side = position.side();
    if R::GOAL == Goal::FirstKingWins {
        // The player who just moved is the one who can have crowned; a set-up position with kings
        // for both is decided in that player's favour.
        if let Some(winner) = [!side, side]
            .into_iter()
            .find(|&color| position.kings(color).any())
        {
            return Some(Adjudication::win(winner, ResultReason::FirstKing(winner)));
        }
    }
    if position.pieces(!side).is_empty() {
        // Only a set-up position gets here (a game's last capture leaves the loser to move), and
        // it is decided as if the side to move had just captured the last piece.
        let loser = !side;
        let winner = if R::GOAL == Goal::Losing { loser } else { side };
        return Some(Adjudication::win(winner, ResultReason::NoPieces(loser)));
    }
    let mut moves = position.legal_moves();
    counters.restrict(position, &mut moves);
    if moves.is_empty() {
        let reason = if position.pieces(side).is_empty() {
            ResultReason::NoPieces(side)
        } else {
            ResultReason::Blocked(side)
        };
        // Art. 7.2: a player who cannot move has lost; in the losing game he has won.
        let winner = if R::GOAL == Goal::Losing { side } else { !side };
        return Some(Adjudication::win(winner, reason));
    }
    if let Some(limit) = R::DRAW_RULES.repetitions
        && occurrences >= limit
    {
        return Some(Adjudication::draw(DrawReason::Repetition));
    }
    counters.draw_by_counters().map(Adjudication::draw)
}
