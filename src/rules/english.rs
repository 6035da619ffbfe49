//! English draughts / American checkers: the rules of the English Draughts Association and the
//! American Checker Federation (usacheckers.com "Official rules of checkers", as cited by dctl
//! checkers.hpp; PDN GameType 21, `21,B,8,8,N1,0`).

use super::{CapturePrecedence, Corner, DrawRules, Notation, Rules};
use crate::core::{Board8, Color};

/// English draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl Rules for English {
    type Geometry = Board8;
    const NAME: &'static str = "english";
    const PDN_GAME_TYPE: Option<&'static str> = Some("21");
    /// Black (the dark pieces) moves first.
    const FIRST_MOVER: Color = Color::Black;
    /// 12 men each; Black on 1-12, White on 21-32.
    const START_FEN: &'static str = "B:W21-32:B1-12";
    const MAX_PIECES_PER_SIDE: u32 = 12;
    /// Men move and capture forwards only.
    const MEN_CAPTURE_BACKWARDS: bool = false;
    /// Kings move and capture one square at a time, in all four directions.
    const FLYING_KINGS: bool = false;
    /// No majority rule: any capture may be chosen, but it must be completed.
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
    /// A man reaching the king row ends its move there (men cannot capture backwards, so it has
    /// no capture to go on with).
    const CROWN_DURING_CAPTURE: bool = false;
    /// Threefold repetition, and 40 moves by each player without a man move or a capture (the
    /// "40-move rule" of the ACF/EDA rules as cited by dctl; lidraughts English.scala likewise
    /// draws after 40 moves each without capture or promotion).
    const DRAW_RULES: DrawRules = DrawRules {
        repetitions: Some(3),
        king_moves: Some(40),
        three_against_king: None,
        two_against_king: None,
    };
    /// Numbers 1-32 from Black's bottom-right corner: 1 = b8 (seen from White), 32 = g1.
    const NOTATION: Notation = Notation::Numeric(Corner::BottomRight);
}
