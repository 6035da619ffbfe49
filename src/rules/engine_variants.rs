//! The engine variants on the international board: Killer, Breakthrough and Antidraughts. They
//! keep the FMJD rules of play (see [`super::International`]) and change one thing each.
//!
//! None has a PDN GameType. Scan 3.1 plays them as `killer`, `bt` and `losing`; lidraughts has
//! Breakthrough (gameType 96) and Antidraughts (98).

use super::international::FMJD_DRAW_RULES;
use super::{CapturePrecedence, DrawRules, Goal, Rules};
use crate::core::{Board10, Color};

/// Killer draughts: international rules, except that a king whose capture ends by taking a king
/// must stop on the square right behind it (mindsports.nl Killer Draughts rules, as implemented by
/// Scan 3.1's `killer` variant: the capture may go on from any square behind a captured king; only
/// the final stop is restricted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Killer;

impl Rules for Killer {
    type Geometry = Board10;
    const NAME: &'static str = "killer";
    const PDN_GAME_TYPE: Option<&'static str> = None;
    const FIRST_MOVER: Color = Color::White;
    const START_FEN: &'static str = "W:W31-50:B1-20";
    const MAX_PIECES_PER_SIDE: u32 = 20;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const KING_HALTS_BEHIND_KING: bool = true;
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const CROWN_DURING_CAPTURE: bool = false;
    /// As international draughts (FMJD art. 6); the Killer rules add none of their own.
    const DRAW_RULES: DrawRules = FMJD_DRAW_RULES;
}

/// Breakthrough: international rules of play; the first player to crown a king wins (Scan 3.1
/// `bt`, lidraughts Breakthrough).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Breakthrough;

impl Rules for Breakthrough {
    type Geometry = Board10;
    const NAME: &'static str = "breakthrough";
    const PDN_GAME_TYPE: Option<&'static str> = None;
    const FIRST_MOVER: Color = Color::White;
    const START_FEN: &'static str = "W:W31-50:B1-20";
    const MAX_PIECES_PER_SIDE: u32 = 20;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const CROWN_DURING_CAPTURE: bool = false;
    /// None: while the game goes on only men move, so no position can repeat and the king
    /// endings never arise (lidraughts Breakthrough.scala has no drawing rule either).
    const DRAW_RULES: DrawRules = DrawRules {
        repetitions: None,
        king_moves: None,
        three_against_king: None,
        two_against_king: None,
    };
    const GOAL: Goal = Goal::FirstKingWins;
}

/// Antidraughts (give-away, Scan's `losing`): international rules of play; a player who cannot
/// move (no pieces left, or all blocked) wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Antidraughts;

impl Rules for Antidraughts {
    type Geometry = Board10;
    const NAME: &'static str = "antidraughts";
    const PDN_GAME_TYPE: Option<&'static str> = None;
    const FIRST_MOVER: Color = Color::White;
    const START_FEN: &'static str = "W:W31-50:B1-20";
    const MAX_PIECES_PER_SIDE: u32 = 20;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const CROWN_DURING_CAPTURE: bool = false;
    /// Threefold repetition only (lidraughts Antidraughts.scala keeps the repetition history and
    /// has no move-count rule): the FMJD king endings are about a stronger side that cannot force
    /// a win by capture, which is not how antidraughts is won.
    const DRAW_RULES: DrawRules = super::REPETITION_ONLY;
    const GOAL: Goal = Goal::Losing;
}
