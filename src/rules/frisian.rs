//! Frisian draughts (Fries dammen): the rules of the Frisian draughts federation
//! (friesdammen.nl, as cited by dctl's `frisian.hpp`), summarised in the project's variant table
//! (refdata `variants.md`, Frisian row and "Draw rules: Frisian"). PDN GameType 40,
//! `40,W,10,10,N2,0`.
//!
//! The board, the start position, the numbering and the diagonal moves are international; what
//! differs is the capture: men and kings also capture along rows and columns, kings capture at
//! any distance in all eight directions, and the capture to make is the one of the highest value.

use super::international::INTERNATIONAL_RULES;
use super::{CapturePrecedence, REPETITION_ONLY, ResultForm, RuleSet, Rules};
use crate::core::Board10;

/// Frisian draughts on the 10x10 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frisian;

impl Rules for Frisian {
    type Geometry = Board10;
    const RULES: RuleSet = RuleSet {
        name: "frisian",
        pdn_game_type: Some("40"),
        // Men move one square diagonally forward, kings any distance along a diagonal; men
        // capture backwards as well as forwards.
        men_capture_backwards: true,
        flying_kings: true,
        // Men and kings capture diagonally and orthogonally: along a column over the square two
        // rows away, along a row over the next square of the row; kings at any distance.
        orthogonal_captures: true,
        // The capture of the highest value is compulsory: a king is worth more than one man and
        // less than two (n kings between 2n-1 and 2n men); on equal value a king must capture.
        capture_precedence: CapturePrecedence::Frisian,
        // A man passing the far row during a capture stays a man, as in international draughts.
        crown_during_capture: false,
        // Threefold repetition; the king endings and the three-moves king rule of the Frisian
        // rules are not in the draw-rule description yet.
        draw_rules: REPETITION_ONLY,
        // A player with kings and men may move the same king at most three times in a row, captures
        // excepted (variants.md, Frisian draw rules; Scan and lidraughts implement it so).
        max_same_king_moves: Some(3),
        // PDN GameType 40 has the "Default" result type.
        result_form: ResultForm::Default,
        ..INTERNATIONAL_RULES
    };
}
