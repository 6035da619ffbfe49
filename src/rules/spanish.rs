//! Spanish and Portuguese draughts: one game under two federations. The capture rules are those
//! of the Federação Portuguesa de Damas ("Regras Damas Clássicas", fpdamas.pt, as cited by dctl
//! spanish.hpp and lidraughts/strategygames Portuguese.scala): flying kings, men capture forwards
//! only, the most pieces and then the most kings must be taken. The board has a dark square at
//! each player's right, so a1 is not a playing square; squares are numbered from White's
//! bottom-right corner (PDN GameTypes 24 and 28, `N1,1`; White on 1-12).

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{CapturePrecedence, Corner, DrawRules, Notation, REPETITION_ONLY, RuleSet, Rules};
use crate::core::Board8;

/// The Portuguese draw rules (Federação Portuguesa de Damas, "Regras Damas Clássicas", art. 3.2):
///
/// * 3.2.a, as the rules we were given state it: "the game is drawn when each player has made 20
///   moves without either making a capture; after a capture the count starts again at the next
///   move". Only a capture restarts the count: man moves and promotions do not (lidraughts'
///   Portuguese.scala, quoting the article as "without a capture or promotion", restarts it on
///   promotions too; the given text is followed).
/// * 3.2.b, 12 moves once it is three kings against one with one of the three on the long
///   diagonal: not yet expressed here (the long-diagonal rule of [`DrawRules`] is the Russian one,
///   about the lone king).
/// * 3.2.c, threefold repetition.
const PORTUGUESE_DRAW_RULES: DrawRules = DrawRules {
    capture_free_moves: Some(PORTUGUESE_CAPTURE_FREE_MOVES),
    ..REPETITION_ONLY
};

/// Art. 3.2.a: moves by each player without a capture that draw the game.
const PORTUGUESE_CAPTURE_FREE_MOVES: u32 = 20;

/// Portuguese draughts (damas clássicas), PDN GameType 28.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Portuguese;

/// The Portuguese rules of play.
const PORTUGUESE_RULES: RuleSet = RuleSet {
    name: "portuguese",
    pdn_game_type: Some("28"),
    // White on 1-12, Black on 21-32.
    start_fen: "W:W1-12:B21-32",
    // Men capture forwards only.
    men_capture_backwards: false,
    // The most pieces; among those, the most kings.
    capture_precedence: CapturePrecedence::MostPiecesThenKings,
    draw_rules: PORTUGUESE_DRAW_RULES,
    // Numbers 1-32 from White's bottom-right corner (h1), right to left, row by row.
    notation: Notation::Numeric(Corner::BottomRight),
    mirrored_board: true,
    ..EIGHT_BY_EIGHT_RULES
};

impl Rules for Portuguese {
    type Geometry = Board8;
    const RULES: RuleSet = PORTUGUESE_RULES;
}

/// Spanish draughts, PDN GameType 24. No Spanish federation text with draw articles was
/// found; the Portuguese draw rules of the same game are used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Spanish;

impl Rules for Spanish {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "spanish",
        pdn_game_type: Some("24"),
        ..PORTUGUESE_RULES
    };
}
