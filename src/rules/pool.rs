//! American pool checkers: the American Pool Checkers Association rules (as cited by dctl
//! pool.hpp; PDN GameType 23, `23,B,8,8,N1,0`).

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{CapturePrecedence, Corner, DrawRules, Notation, REPETITION_ONLY, RuleSet, Rules};
use crate::core::{Board8, Color};

/// Moves of the side with three kings against a lone king before the game is drawn.
const POOL_KINGS_AGAINST_KING_MOVES: u32 = 13;

/// Pool checkers on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool;

impl Rules for Pool {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "pool",
        pdn_game_type: Some("23"),
        // Black moves first (APCA; the "unified pool" rules of PDN `23,W,...` let White start).
        first_mover: Color::Black,
        // Black on 1-12, Black to move.
        start_fen: "B:W21-32:B1-12",
        // Men capture forwards and backwards.
        men_capture_backwards: true,
        // Kings move and capture over any distance.
        flying_kings: true,
        // No majority rule: any capture, completed.
        capture_precedence: CapturePrecedence::Free,
        // A man crossing the king row during a capture goes on as a man, crowned only if it ends
        // there (APCA rule 16 per dctl: `is_passing_promotion = false`).
        crown_during_capture: false,
        // Threefold repetition (APCA tournament rules art. 26 per dctl). Three kings against one:
        // the lone king must be caught within 13 moves of the strong side, counted from when the
        // material arose (the APCA Playing Rules as summarised on Wikipedia's "Pool checkers"; rule
        // 31 of Black and Waters' 1947 book as quoted on the playstrategy.org forum). dctl's limit
        // of 30 reversible moves under the same art. 26 is left out: its unit (moves or plies) and
        // its text are unverified.
        draw_rules: DrawRules {
            kings_against_king: Some(POOL_KINGS_AGAINST_KING_MOVES),
            ..REPETITION_ONLY
        },
        // Numbers 1-32 from Black's bottom-right corner: 1 = b8, 32 = g1 (PDN `N1` seen from Black).
        notation: Notation::Numeric(Corner::BottomRight),
        ..EIGHT_BY_EIGHT_RULES
    };
}
