//! Russian draughts (shashki): rules of the International Draughts Federation for the 64-square
//! game (fmjd64.org "Rules of the game", article numbers as quoted by lidraughts/strategygames
//! Russian.scala and dctl russian.hpp; PDN GameType 25, `25,W,8,8,A0,0`, captures written with
//! `:`).

use super::{CapturePrecedence, Corner, DrawRules, Notation, Rules};
use crate::core::{Board8, Color};

/// Russian draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

impl Rules for Russian {
    type Geometry = Board8;
    const NAME: &'static str = "russian";
    const PDN_GAME_TYPE: Option<&'static str> = Some("25");
    /// White moves first.
    const FIRST_MOVER: Color = Color::White;
    /// 12 men each on the first three rows (White a1-h3).
    const START_FEN: &'static str = "W:W21-32:B1-12";
    const MAX_PIECES_PER_SIDE: u32 = 12;
    /// Men capture forwards and backwards.
    const MEN_CAPTURE_BACKWARDS: bool = true;
    /// Kings move and capture over any distance.
    const FLYING_KINGS: bool = true;
    /// No majority rule: any capture may be chosen, but it must be completed.
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
    /// A man reaching the last row during a capture becomes a king at once and goes on capturing
    /// as a king (rule 1.5.15 as cited by dctl).
    const CROWN_DURING_CAPTURE: bool = true;
    /// Art. 7.2.3 threefold repetition; 7.2.5 15 moves of each side with only kings moving and no
    /// capture; 7.2.4 three or more kings against a lone king: 15 moves (stored in the
    /// three-against-king slot, whose FMJD material condition is wider); 7.2.8 two kings, king +
    /// man or king against a lone king: 5 moves. Not yet expressible here: 7.2.6 (kings on both
    /// sides and unchanged material: 30 moves in 4-5 piece endings, 60 in 6-7 piece endings) and
    /// 7.2.7 (three pieces with a king against a lone king on the long diagonal: 5 moves).
    const DRAW_RULES: DrawRules = DrawRules {
        repetitions: Some(3),
        king_moves: Some(15),
        three_against_king: Some(15),
        two_against_king: Some(5),
    };
    /// Algebraic, `a1` in White's bottom-left corner (PDN `A0`).
    const NOTATION: Notation = Notation::Algebraic(Corner::BottomLeft);
    const CAPTURE_SEPARATOR: char = ':';
}
