//! Russian draughts (shashki): rules of the International Draughts Federation for the 64-square
//! game (fmjd64.org "Rules of the game", article numbers as quoted by lidraughts/strategygames
//! Russian.scala and dctl russian.hpp; PDN GameType 25, `25,W,8,8,A0,0`, captures written with
//! `:`).

use super::international::INTERNATIONAL_RULES;
use super::{CapturePrecedence, Corner, DrawRules, Notation, ResultForm, RuleSet, Rules};
use crate::core::{Board8, Color};

/// Russian draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

impl Rules for Russian {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "russian",
        pdn_game_type: Some("25"),
        // White moves first.
        first_mover: Color::White,
        // 12 men each on the first three rows (White a1-h3).
        start_fen: "W:W21-32:B1-12",
        max_pieces_per_side: 12,
        // Men capture forwards and backwards.
        men_capture_backwards: true,
        // Kings move and capture over any distance.
        flying_kings: true,
        // No majority rule: any capture may be chosen, but it must be completed.
        capture_precedence: CapturePrecedence::Free,
        // A man reaching the last row during a capture becomes a king at once and goes on capturing
        // as a king (rule 1.5.15 as cited by dctl).
        crown_during_capture: true,
        // Art. 7.2.3 threefold repetition; 7.2.5 15 moves of each side with only kings moving and no
        // capture; 7.2.4 three or more kings against a lone king: 15 moves (stored in the
        // three-against-king slot, whose FMJD material condition is wider); 7.2.8 two kings, king +
        // man or king against a lone king: 5 moves. Not yet expressible here: 7.2.6 (kings on both
        // sides and unchanged material: 30 moves in 4-5 piece endings, 60 in 6-7 piece endings) and
        // 7.2.7 (three pieces with a king against a lone king on the long diagonal: 5 moves).
        draw_rules: DrawRules {
            repetitions: Some(3),
            king_moves: Some(15),
            three_against_king: Some(15),
            two_against_king: Some(5),
        },
        // Algebraic, `a1` in White's bottom-left corner (PDN `A0`).
        notation: Notation::Algebraic(Corner::BottomLeft),
        capture_separator: ':',
        result_form: ResultForm::Default,
        ..INTERNATIONAL_RULES
    };
}
