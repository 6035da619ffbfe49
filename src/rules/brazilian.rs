//! Brazilian draughts: the international (FMJD) rules played on the 8x8 board with 12 men each
//! (Confederação Brasileira de Damas; PDN GameType 26, `26,W,8,8,A0,0`).

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::international::FMJD_DRAW_RULES;
use super::{RuleSet, Rules};
use crate::core::Board8;

/// Brazilian draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl Rules for Brazilian {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "brazilian",
        pdn_game_type: Some("26"),
        // The FMJD draw articles 6.1-6.4, which the Brazilian confederation's international-rules
        // game shares. lidraughts instead applies the Russian endings (its Brazilian.scala reuses
        // Russian.maxDrawingMoves); the two agree on repetition and on two pieces against a king.
        draw_rules: FMJD_DRAW_RULES,
        ..EIGHT_BY_EIGHT_RULES
    };
}
