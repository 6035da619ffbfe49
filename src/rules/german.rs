//! German draughts (Dame). There is no federation rulebook: the game is a folk game, and German
//! rule sheets disagree. The rules here are those the German sources agree on:
//!
//! * setupgroup.com "German checkers": men capture forwards only; a king moves any distance and
//!   must end its leap on the square directly behind the piece it takes; captured pieces are
//!   removed when the capture is complete; no priority among captures;
//! * giantchess.com "Dame" (German rules sheet): "Beim Überspringen eines gegnerischen Steines muss
//!   die Dame auf dem unmittelbar dahinterliegenden Diagonalfeld aufsetzen"; all jumped stones are
//!   removed after the move; men move forwards only;
//! * casinospiegel.net "Damespiel" and spin.de "Dame": Black begins; a king that takes lands
//!   right behind the captured piece.
//!
//! Other descriptions differ: Jocly's "German draughts" lets men capture backwards and kings land
//! anywhere behind (that is pool checkers with White first), and spin.de removes pieces as they
//! are jumped. Numbering: 1-32 as in English draughts (ludomax.de: "Diese werden als 1-32
//! bezeichnet"). There is no PDN GameType.

use super::international::INTERNATIONAL_RULES;
use super::{CapturePrecedence, Corner, Notation, REPETITION_ONLY, ResultForm, RuleSet, Rules};
use crate::core::{Board8, Color};

/// German draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct German;

impl Rules for German {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "german",
        pdn_game_type: None,
        // "Schwarz beginnt" (casinospiegel.net, spin.de, ludomax.de).
        first_mover: Color::Black,
        // 12 men each on the first three rows; Black on 1-12.
        start_fen: "B:W21-32:B1-12",
        max_pieces_per_side: 12,
        men_capture_backwards: false,
        king_lands_behind: true,
        capture_precedence: CapturePrecedence::Free,
        // Threefold repetition; the rule sheets name no other automatic draw that agrees across
        // sources (ludomax.de's 50-move limits describe English-style checkers).
        draw_rules: REPETITION_ONLY,
        notation: Notation::Numeric(Corner::BottomRight),
        result_form: ResultForm::Default,
        ..INTERNATIONAL_RULES
    };
}
