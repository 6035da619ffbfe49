//! International draughts: the FMJD rules (Annex 1, Official FMJD rules for international
//! draughts, version November 2015). Article numbers below refer to that text.

use super::{CapturePrecedence, DrawRules, ResultForm, Rules};
use crate::core::{Board10, Color};

/// International draughts on the 10x10 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct International;

/// FMJD art. 6.1-6.4.
pub const FMJD_DRAW_RULES: DrawRules = DrawRules {
    repetitions: Some(3),
    king_moves: Some(25),
    three_against_king: Some(16),
    two_against_king: Some(5),
};

impl Rules for International {
    /// Art. 2.1: a board of 100 squares, 10 by 10, played on the 50 dark squares.
    type Geometry = Board10;
    const NAME: &'static str = "international";
    const PDN_GAME_TYPE: Option<&'static str> = Some("20");
    /// Art. 3.3: White makes the first move.
    const FIRST_MOVER: Color = Color::White;
    /// Art. 2.8: 20 black men on 1-20, 20 white men on 31-50.
    const START_FEN: &'static str = "W:W31-50:B1-20";
    /// Art. 2.8: each player starts with 20 men.
    const MAX_PIECES_PER_SIDE: u32 = 20;
    /// Art. 4.1: a man captures forwards and backwards.
    const MEN_CAPTURE_BACKWARDS: bool = true;
    /// Art. 3.9 / 4.3: the king moves and captures along a diagonal over any distance.
    const FLYING_KINGS: bool = true;
    /// Art. 4.13: capturing the most pieces is compulsory; a king counts as one piece.
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    /// Art. 4.15: a man passing the far row during a capture stays a man.
    const CROWN_DURING_CAPTURE: bool = false;
    /// Art. 6.1-6.4.
    const DRAW_RULES: DrawRules = FMJD_DRAW_RULES;
    /// PDN GameType 20 scores two points a game.
    const RESULT_FORM: ResultForm = ResultForm::International;
    const ENDGAME_KNOWLEDGE: bool = true;
}
