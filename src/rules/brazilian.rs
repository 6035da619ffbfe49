//! Brazilian draughts: the international (FMJD) rules played on the 8x8 board with 12 men each.
//! Its perft table (tests/data) proves the generator is generic over the board.

use super::international::FMJD_DRAW_RULES;
use super::{CapturePrecedence, DrawRules, Rules};
use crate::core::{Board8, Color};

/// Brazilian draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl Rules for Brazilian {
    type Geometry = Board8;
    const NAME: &'static str = "brazilian";
    const PDN_GAME_TYPE: Option<&'static str> = Some("26");
    const FIRST_MOVER: Color = Color::White;
    /// 12 men each on the first three rows; numeric squares 1-32 with 1 = b8, 29 = a1.
    const START_FEN: &'static str = "W:W21-32:B1-12";
    const MAX_PIECES_PER_SIDE: u32 = 12;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const CROWN_DURING_CAPTURE: bool = false;
    /// The Brazilian federation plays the FMJD draw articles; the variants issue revisits this
    /// with the Brazilian rulebook.
    const DRAW_RULES: DrawRules = FMJD_DRAW_RULES;
}
