//! Czech draughts: rules of the Czech draughts federation (fmjd.org/variant.php?p=czech brief
//! rules; dctl czech.hpp cites damweb.cz; PDN GameType 29, `29,W,8,8,A0,0`).

use super::{CapturePrecedence, Corner, DrawRules, Notation, Rules};
use crate::core::{Board8, Color};

/// Czech draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Czech;

impl Rules for Czech {
    type Geometry = Board8;
    const NAME: &'static str = "czech";
    const PDN_GAME_TYPE: Option<&'static str> = Some("29");
    const FIRST_MOVER: Color = Color::White;
    const START_FEN: &'static str = "W:W21-32:B1-12";
    const MAX_PIECES_PER_SIDE: u32 = 12;
    /// Men capture forwards only.
    const MEN_CAPTURE_BACKWARDS: bool = false;
    /// Kings move and capture over any distance.
    const FLYING_KINGS: bool = true;
    /// "King is obligatory to jump first - priority of king's jump to a piece's jump" (fmjd.org
    /// brief rules; rule 4.14 per dctl); no majority rule otherwise.
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::KingsFirst;
    /// Men capture forwards only, so a man reaching the last row ends its capture there.
    const CROWN_DURING_CAPTURE: bool = false;
    /// Threefold repetition (claimed), and 15 moves without a capture or a man move
    /// (fmjd.org brief rules).
    const DRAW_RULES: DrawRules = DrawRules {
        repetitions: Some(3),
        king_moves: Some(15),
        three_against_king: None,
        two_against_king: None,
    };
    /// Algebraic, `a1` in White's bottom-left corner (PDN `A0`).
    const NOTATION: Notation = Notation::Algebraic(Corner::BottomLeft);
    /// dctl writes Czech captures with `:`, as Russian.
    const CAPTURE_SEPARATOR: char = ':';
}
