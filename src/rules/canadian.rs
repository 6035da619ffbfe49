//! Canadian draughts: the international (FMJD) rules on the 12x12 board with 30 men each (PDN
//! GameType 27, `27,W,12,12,N2,0`).

use super::international::FMJD_DRAW_RULES;
use super::{CapturePrecedence, DrawRules, ResultForm, Rules};
use crate::core::{Board12, Color};

/// Canadian draughts on the 12x12 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Canadian;

impl Rules for Canadian {
    type Geometry = Board12;
    const NAME: &'static str = "canadian";
    const PDN_GAME_TYPE: Option<&'static str> = Some("27");
    const FIRST_MOVER: Color = Color::White;
    /// 30 men each on the first five rows: Black 1-30, White 43-72.
    const START_FEN: &'static str = "W:W43-72:B1-30";
    const MAX_PIECES_PER_SIDE: u32 = 30;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const CROWN_DURING_CAPTURE: bool = false;
    /// The FMJD draw articles 6.1-6.4 (Canadian draughts is played under international rules).
    const DRAW_RULES: DrawRules = FMJD_DRAW_RULES;
    /// PDN GameType 27 scores two points a game, as international draughts.
    const RESULT_FORM: ResultForm = ResultForm::International;
}
