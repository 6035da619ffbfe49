//! International draughts: the FMJD rules (Annex 1, Official FMJD rules for international
//! draughts, version November 2015). Article numbers below refer to that text.

use super::{
    CapturePrecedence, Corner, DrawRules, Goal, NO_DRAW_RULES, Notation, ResultForm, RuleSet, Rules,
};
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
    ..NO_DRAW_RULES
};

/// The FMJD rules (articles cited per rule), the rules of play the other variants are written
/// against.
pub const INTERNATIONAL_RULES: RuleSet = RuleSet {
    name: "international",
    pdn_game_type: Some("20"),
    // Art. 3.3: White makes the first move.
    first_mover: Color::White,
    // Art. 2.8: 20 black men on 1-20, 20 white men on 31-50.
    start_fen: "W:W31-50:B1-20",
    // Art. 2.8: each player starts with 20 men.
    max_pieces_per_side: 20,
    // Art. 2.8: the men stand from each player's own edge on.
    empty_rows_behind_men: 0,
    // Art. 3.5 / 3.9: men and kings move along the diagonals.
    diagonal_play: true,
    orthogonal_moves: false,
    // Art. 4.11: captured pieces stay on the board until the capture is complete, so a king
    // cannot turn back over them; nothing to forbid.
    no_turning_back: false,
    // Art. 4.1: a man captures forwards and backwards.
    men_capture_backwards: true,
    men_capture_kings: true,
    // Art. 3.9 / 4.3: the king moves and captures along a diagonal over any distance.
    flying_kings: true,
    king_lands_behind: false,
    king_halts_behind_king: false,
    captured_removed_at_once: false,
    // Art. 4.1: captures go along the diagonals only.
    orthogonal_captures: false,
    // Art. 4.13: capturing the most pieces is compulsory; a king counts as one piece.
    capture_precedence: CapturePrecedence::MostPieces,
    // Art. 4.15: a man passing the far row during a capture stays a man.
    crown_during_capture: false,
    // Art. 6.1-6.4.
    draw_rules: FMJD_DRAW_RULES,
    // No limit on moves by one king in a row.
    max_same_king_moves: None,
    goal: Goal::Standard,
    notation: Notation::Numeric(Corner::TopLeft),
    mirrored_board: false,
    capture_separator: 'x',
    // PDN GameType 20 scores two points a game.
    result_form: ResultForm::International,
};

impl Rules for International {
    /// Art. 2.1: a board of 100 squares, 10 by 10, played on the 50 dark squares.
    type Geometry = Board10;
    const RULES: RuleSet = INTERNATIONAL_RULES;
    const ENDGAME_KNOWLEDGE: bool = true;
}
