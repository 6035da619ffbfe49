//! The game on the 8x8 board: what the variants played on it share, written once. Each 8x8
//! variant derives its rules from [`EIGHT_BY_EIGHT_RULES`] and states only where it differs.

use super::international::INTERNATIONAL_RULES;
use super::{Corner, Notation, ResultForm, RuleSet};

/// The international rules of play moved to the 8x8 board; the 8x8 variants are written against
/// it (its name and PDN GameType are international's: every variant states its own).
pub const EIGHT_BY_EIGHT_RULES: RuleSet = RuleSet {
    // 12 men each on the first three rows, Black on 1-12 and White on 21-32 (Italian art. 2.6,
    // as Russian, Brazilian and Czech), White to move.
    start_fen: "W:W21-32:B1-12",
    max_pieces_per_side: 12,
    // Algebraic, `a1` in White's bottom-left corner (PDN `A0`), as on a chessboard.
    notation: Notation::Algebraic(Corner::BottomLeft),
    // One point a game (PDN's "Default" result type), unlike international draughts' two.
    result_form: ResultForm::Default,
    ..INTERNATIONAL_RULES
};
