//! English draughts / American checkers: the rules of the English Draughts Association and the
//! American Checker Federation (usacheckers.com "Official rules of checkers", as cited by dctl
//! checkers.hpp; PDN GameType 21, `21,B,8,8,N1,0`).

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{CapturePrecedence, Corner, DrawRules, Notation, REPETITION_ONLY, RuleSet, Rules};
use crate::core::{Board8, Color};

/// English draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl Rules for English {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "english",
        pdn_game_type: Some("21"),
        // Black (the dark pieces) moves first.
        first_mover: Color::Black,
        // Black on 1-12, White on 21-32, Black to move.
        start_fen: "B:W21-32:B1-12",
        // Men move and capture forwards only.
        men_capture_backwards: false,
        // Kings move and capture one square at a time, in all four directions.
        flying_kings: false,
        // No majority rule: any capture may be chosen, but it must be completed.
        capture_precedence: CapturePrecedence::Free,
        // A man reaching the king row ends its move there (men cannot capture backwards, so it has
        // no capture to go on with).
        crown_during_capture: false,
        // Threefold repetition, and 40 moves by each player without a man move or a capture (the
        // "40-move rule" of the ACF/EDA rules as cited by dctl; lidraughts English.scala likewise
        // draws after 40 moves each without capture or promotion).
        draw_rules: DrawRules {
            king_moves: Some(40),
            ..REPETITION_ONLY
        },
        // Numbers 1-32 from Black's bottom-right corner: 1 = b8 (seen from White), 32 = g1.
        notation: Notation::Numeric(Corner::BottomRight),
        ..EIGHT_BY_EIGHT_RULES
    };
}
