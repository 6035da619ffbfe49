//! Thai draughts (mak-hot). No authoritative rule text was found; the rules are those of dctl's
//! thai traits (thai.hpp) and the brainking.com comparison table: 8 men each on two rows, flying
//! kings whose captures land on the square right behind the captured piece, captured pieces
//! removed as they are jumped, men capturing forwards only, no majority rule, Black starts (PDN
//! GameType 31, `31,B,8,8,N2,0`, squares numbered from Black's side, captures written with `-`).

use super::{CapturePrecedence, Corner, DrawRules, Notation, REPETITION_ONLY, Rules};
use crate::core::{Board8, Color};

/// Thai draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thai;

impl Rules for Thai {
    type Geometry = Board8;
    const NAME: &'static str = "thai";
    const PDN_GAME_TYPE: Option<&'static str> = Some("31");
    const FIRST_MOVER: Color = Color::Black;
    /// 8 men each on the two back rows: White on 1-8 (g1 ... b2), Black on 25-32.
    const START_FEN: &'static str = "B:W1-8:B25-32";
    const MAX_PIECES_PER_SIDE: u32 = 8;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const KING_LANDS_BEHIND: bool = true;
    /// Pieces are lifted as they are jumped, so a king may cross their squares again and even
    /// turn back along the line it came (dctl: `is_passing_capture`).
    const CAPTURED_REMOVED_AT_ONCE: bool = true;
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
    const CROWN_DURING_CAPTURE: bool = false;
    /// No Thai draw rules were found in authoritative form: threefold repetition only.
    const DRAW_RULES: DrawRules = REPETITION_ONLY;
    /// Numbers 1-32 from Black's top-left corner: 1 = g1, 4 = a1, 32 = b8.
    const NOTATION: Notation = Notation::Numeric(Corner::TopLeft);
    const CAPTURE_SEPARATOR: char = '-';
}
