//! American pool checkers: the American Pool Checkers Association rules (as cited by dctl
//! pool.hpp; PDN GameType 23, `23,B,8,8,N1,0`).

use super::{CapturePrecedence, Corner, DrawRules, Notation, REPETITION_ONLY, Rules};
use crate::core::{Board8, Color};

/// Pool checkers on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool;

impl Rules for Pool {
    type Geometry = Board8;
    const NAME: &'static str = "pool";
    const PDN_GAME_TYPE: Option<&'static str> = Some("23");
    /// Black moves first (APCA; the "unified pool" rules of PDN `23,W,...` let White start).
    const FIRST_MOVER: Color = Color::Black;
    /// 12 men each; Black on 1-12.
    const START_FEN: &'static str = "B:W21-32:B1-12";
    const MAX_PIECES_PER_SIDE: u32 = 12;
    /// Men capture forwards and backwards.
    const MEN_CAPTURE_BACKWARDS: bool = true;
    /// Kings move and capture over any distance.
    const FLYING_KINGS: bool = true;
    /// No majority rule: any capture, completed.
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
    /// A man crossing the king row during a capture goes on as a man, crowned only if it ends
    /// there (APCA rule 16 per dctl: `is_passing_promotion = false`).
    const CROWN_DURING_CAPTURE: bool = false;
    /// Threefold repetition (APCA tournament rules art. 26 per dctl). The same article's limit on
    /// reversible moves (dctl: 30, unit unverified) is left out until its text is checked.
    const DRAW_RULES: DrawRules = REPETITION_ONLY;
    /// Numbers 1-32 from Black's bottom-right corner: 1 = b8, 32 = g1 (PDN `N1` seen from Black).
    const NOTATION: Notation = Notation::Numeric(Corner::BottomRight);
}
