//! Czech draughts: rules of the Czech draughts federation (fmjd.org/variant.php?p=czech brief
//! rules; dctl czech.hpp cites damweb.cz; PDN GameType 29, `29,W,8,8,A0,0`).

use super::international::INTERNATIONAL_RULES;
use super::{
    CapturePrecedence, Corner, DrawRules, NO_DRAW_RULES, Notation, ResultForm, RuleSet, Rules,
};
use crate::core::Board8;

/// Czech draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Czech;

impl Rules for Czech {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "czech",
        pdn_game_type: Some("29"),
        start_fen: "W:W21-32:B1-12",
        max_pieces_per_side: 12,
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
            repetitions: Some(3),
            king_moves: Some(15),
            ..NO_DRAW_RULES
        },
        // Algebraic, `a1` in White's bottom-left corner (PDN `A0`).
        notation: Notation::Algebraic(Corner::BottomLeft),
        // dctl writes Czech captures with `:`, as Russian.
        capture_separator: ':',
        result_form: ResultForm::Default,
        ..INTERNATIONAL_RULES
    };
}
