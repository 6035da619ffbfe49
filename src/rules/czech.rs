//! Czech draughts: rules of the Czech draughts federation (fmjd.org/variant.php?p=czech brief
//! rules; dctl czech.hpp cites damweb.cz; PDN GameType 29, `29,W,8,8,A0,0`).

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{CapturePrecedence, DrawRules, REPETITION_ONLY, RuleSet, Rules};
use crate::core::Board8;

/// Czech draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Czech;

impl Rules for Czech {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "czech",
        pdn_game_type: Some("29"),
        // Men capture forwards only.
        men_capture_backwards: false,
        // Kings move and capture over any distance.
        flying_kings: true,
        // "King is obligatory to jump first - priority of king's jump to a piece's jump" (fmjd.org
        // brief rules; rule 4.14 per dctl); no majority rule otherwise.
        capture_precedence: CapturePrecedence::KingsFirst,
        // Men capture forwards only, so a man reaching the last row ends its capture there.
        crown_during_capture: false,
        // Threefold repetition (claimed), and 15 moves without a capture or a man move
        // (fmjd.org brief rules).
        draw_rules: DrawRules {
            king_moves: Some(15),
            ..REPETITION_ONLY
        },
        // dctl writes Czech captures with `:`, as Russian.
        capture_separator: ':',
        ..EIGHT_BY_EIGHT_RULES
    };
}
