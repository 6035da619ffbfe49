//! Brazilian draughts: the international (FMJD) rules played on the 8x8 board with 12 men each
//! (Confederação Brasileira de Damas; PDN GameType 26, `26,W,8,8,A0,0`).

use super::international::FMJD_DRAW_RULES;
use super::{CapturePrecedence, Corner, DrawRules, Notation, Rules};
use crate::core::{Board8, Color};

/// Brazilian draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl Rules for Brazilian {
    type Geometry = Board8;
    const NAME: &'static str = "brazilian";
    const PDN_GAME_TYPE: Option<&'static str> = Some("26");
    const FIRST_MOVER: Color = Color::White;
    /// 12 men each on the first three rows (White a1-h3).
    const START_FEN: &'static str = "W:W21-32:B1-12";
    const MAX_PIECES_PER_SIDE: u32 = 12;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const CROWN_DURING_CAPTURE: bool = false;
    /// The FMJD draw articles 6.1-6.4, which the Brazilian confederation's international-rules
    /// game shares. lidraughts instead applies the Russian endings (its Brazilian.scala reuses
    /// Russian.maxDrawingMoves); the two agree on repetition and on two pieces against a king.
    const DRAW_RULES: DrawRules = FMJD_DRAW_RULES;
    /// Algebraic, `a1` in White's bottom-left corner (PDN `A0`).
    const NOTATION: Notation = Notation::Algebraic(Corner::BottomLeft);
}
