//! German draughts (Dame). There is no federation rulebook: the game is a folk game, and German
//! rule sheets disagree. Two readings are kept:
//!
//! * [`German`], the default: the variant table given with issue 17 ("the rulebooks we were
//!   given"): White moves first, men capture forwards only, kings are long-range (flying) and
//!   capture like international kings (landing on any empty square behind the piece taken), and
//!   there is no compulsory maximum capture.
//! * [`GermanSheets`] (`german-sheets`): what the German rule sheets agree on, Rafle's reading
//!   before issue 17:
//!   - setupgroup.com "German checkers": men capture forwards only; a king moves any distance and
//!     must end its leap on the square directly behind the piece it takes; captured pieces are
//!     removed when the capture is complete; no priority among captures;
//!   - giantchess.com "Dame" (German rules sheet): "Beim Überspringen eines gegnerischen Steines
//!     muss die Dame auf dem unmittelbar dahinterliegenden Diagonalfeld aufsetzen"; all jumped
//!     stones are removed after the move; men move forwards only;
//!   - casinospiegel.net "Damespiel" and spin.de "Dame": Black begins; a king that takes lands
//!     right behind the captured piece.
//!
//! Other descriptions differ again: Jocly's "German draughts" lets men capture backwards and kings
//! land anywhere behind (that is pool checkers with White first), and spin.de removes pieces as
//! they are jumped. Numbering, for both: 1-32 as in English draughts (ludomax.de: "Diese werden
//! als 1-32 bezeichnet"), Black on 1-12. There is no PDN GameType.

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{CapturePrecedence, Corner, Notation, REPETITION_ONLY, RuleSet, Rules};
use crate::core::{Board8, Color};

/// German draughts on the 8x8 board, as the given variant table states it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct German;

/// The rules of the given variant table.
const GERMAN_RULES: RuleSet = RuleSet {
    name: "german",
    pdn_game_type: None,
    // The table lists White as the first player.
    first_mover: Color::White,
    men_capture_backwards: false,
    // Long-range kings, capturing as international kings do.
    flying_kings: true,
    king_lands_behind: false,
    // No compulsory maximum capture: any capture, completed.
    capture_precedence: CapturePrecedence::Free,
    // Men capture forwards only, so a man reaching the last row ends its capture there.
    crown_during_capture: false,
    // Threefold repetition; neither the table nor the rule sheets name another automatic draw that
    // agrees across sources (ludomax.de's 50-move limits describe English-style checkers).
    draw_rules: REPETITION_ONLY,
    // Numbers 1-32 as in English draughts, 1 = b8 and 32 = g1: counted from the top-left corner
    // seen from White, who moves first here.
    notation: Notation::Numeric(Corner::TopLeft),
    ..EIGHT_BY_EIGHT_RULES
};

impl Rules for German {
    type Geometry = Board8;
    const RULES: RuleSet = GERMAN_RULES;
}

/// German draughts as the German rule sheets cited in the module documentation play it: Black
/// first, and a capturing king lands directly behind the piece it takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GermanSheets;

impl Rules for GermanSheets {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "german-sheets",
        // "Schwarz beginnt" (casinospiegel.net, spin.de, ludomax.de).
        first_mover: Color::Black,
        start_fen: "B:W21-32:B1-12",
        king_lands_behind: true,
        // The same squares' numbers, counted from Black's bottom-right corner (Black moves first).
        notation: Notation::Numeric(Corner::BottomRight),
        ..GERMAN_RULES
    };
}
