//! Thai draughts (mak-hot). No authoritative rule text was found; the rules are those of dctl's
//! thai traits (thai.hpp) and the brainking.com comparison table: 8 men each on two rows, flying
//! kings whose captures land on the square right behind the captured piece, captured pieces
//! removed as they are jumped, men capturing forwards only, no majority rule, Black starts (PDN
//! GameType 31, `31,B,8,8,N2,0`, squares numbered from Black's side, captures written with `-`).

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{CapturePrecedence, Corner, Notation, REPETITION_ONLY, RuleSet, Rules};
use crate::core::{Board8, Color};

/// Thai draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thai;

impl Rules for Thai {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "thai",
        pdn_game_type: Some("31"),
        first_mover: Color::Black,
        // 8 men each on the two back rows: White on 1-8 (g1 ... b2), Black on 25-32.
        start_fen: "B:W1-8:B25-32",
        max_pieces_per_side: 8,
        men_capture_backwards: false,
        king_lands_behind: true,
        // Pieces are lifted as they are jumped, so a king may cross their squares again and even
        // turn back along the line it came (dctl: `is_passing_capture`).
        captured_removed_at_once: true,
        capture_precedence: CapturePrecedence::Free,
        // No Thai draw rules were found in authoritative form: threefold repetition only.
        draw_rules: REPETITION_ONLY,
        // Numbers 1-32 from Black's top-left corner: 1 = g1, 4 = a1, 32 = b8.
        notation: Notation::Numeric(Corner::TopLeft),
        capture_separator: '-',
        ..EIGHT_BY_EIGHT_RULES
    };
}
