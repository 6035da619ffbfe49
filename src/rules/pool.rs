//! American pool checkers: the American Pool Checkers Association rules (as cited by dctl
//! pool.hpp; PDN GameType 23, `23,B,8,8,N1,0`).

use super::international::INTERNATIONAL_RULES;
use super::{CapturePrecedence, Corner, Notation, REPETITION_ONLY, ResultForm, RuleSet, Rules};
use crate::core::{Board8, Color};

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
        // 12 men each; Black on 1-12.
        start_fen: "B:W21-32:B1-12",
        max_pieces_per_side: 12,
        // Men capture forwards and backwards.
        men_capture_backwards: true,
        // Kings move and capture over any distance.
        flying_kings: true,
        // No majority rule: any capture, completed.
        capture_precedence: CapturePrecedence::Free,
        // A man crossing the king row during a capture goes on as a man, crowned only if it ends
        // there (APCA rule 16 per dctl: `is_passing_promotion = false`).
        crown_during_capture: false,
        // Threefold repetition (APCA tournament rules art. 26 per dctl). The same article's limit on
        // reversible moves (dctl: 30, unit unverified) is left out until its text is checked.
        draw_rules: REPETITION_ONLY,
        // Numbers 1-32 from Black's bottom-right corner: 1 = b8, 32 = g1 (PDN `N1` seen from Black).
        notation: Notation::Numeric(Corner::BottomRight),
        result_form: ResultForm::Default,
        ..INTERNATIONAL_RULES
    };
}
