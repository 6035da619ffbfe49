//! The engine variants on the international board: Killer, Breakthrough and Antidraughts. They
//! keep the FMJD rules of play (see [`super::International`]) and change one thing each.
//!
//! None has a PDN GameType. Scan 3.1 plays them as `killer`, `bt` and `losing`; lidraughts has
//! Breakthrough (gameType 96) and Antidraughts (98).

use super::international::INTERNATIONAL_RULES;
use super::{Goal, NO_DRAW_RULES, REPETITION_ONLY, RuleSet, Rules};
use crate::core::Board10;

/// Killer draughts: international rules, except that a king whose capture ends by taking a
/// king must stop on the square right behind it (mindsports.nl Killer Draughts rules, as
/// implemented by Scan 3.1's `killer` variant: the capture may go on from any square behind
/// a captured king; only the final stop is restricted). Draw rules as international (FMJD
/// art. 6); the Killer rules add none of their own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Killer;

impl Rules for Killer {
    type Geometry = Board10;
    const RULES: RuleSet = RuleSet {
        name: "killer",
        pdn_game_type: None,
        king_halts_behind_king: true,
        ..INTERNATIONAL_RULES
    };
}

/// Breakthrough: international rules of play; the first player to crown a king wins (Scan
/// 3.1 `bt`, lidraughts Breakthrough). No draw rule: while the game goes on only men move, so
/// no position can repeat and the king endings never arise (lidraughts Breakthrough.scala has
/// none either).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Breakthrough;

impl Rules for Breakthrough {
    type Geometry = Board10;
    const RULES: RuleSet = RuleSet {
        name: "breakthrough",
        pdn_game_type: None,
        draw_rules: NO_DRAW_RULES,
        goal: Goal::FirstKingWins,
        ..INTERNATIONAL_RULES
    };
}

/// Antidraughts (give-away, Scan's `losing`): international rules of play; a player who
/// cannot move (no pieces left, or all blocked) wins. Threefold repetition is the only draw
/// rule (lidraughts Antidraughts.scala keeps the repetition history and has no move-count
/// rule): the FMJD king endings are about a stronger side that cannot force a win by
/// capture, which is not how antidraughts is won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Antidraughts;

impl Rules for Antidraughts {
    type Geometry = Board10;
    const RULES: RuleSet = RuleSet {
        name: "antidraughts",
        pdn_game_type: None,
        draw_rules: REPETITION_ONLY,
        goal: Goal::Losing,
        ..INTERNATIONAL_RULES
    };
}
