//! Turkish draughts (dama), as the project's variant table states it (refdata `variants.md`,
//! Turkish row and "Draw rules: Turkish"; PDN GameType 30, `30,W,8,8,A0,0`).
//!
//! The game is played on all 64 squares, along rows and columns: men step one square forward or
//! sideways, kings move any distance along a row or column. Captures go the same ways (men never
//! backwards), are compulsory, and the capture taking the most pieces must be made (a king
//! counts as one piece). Captured pieces are lifted one at a time as they are jumped, so their
//! squares are free again during the capture, and a capturing piece may not turn back 180
//! degrees between two captures.
//!
//! Promotion during a capture: the sources of the variant table disagree (a man reaching the far
//! row while capturing "continues jumping" against "is promoted and the move ends") and the
//! Turkish federation's text was not available to us. Rafle follows pydraughts, which lidraughts
//! bots use: the man goes on capturing as a man (sideways along the far row) and is crowned when
//! the capture ends there.

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{DrawRules, NO_DRAW_RULES, RuleSet, Rules};
use crate::core::Board8Full;

/// Occurrences of a position, with the same player to move, that draw the game.
const TURKISH_REPETITIONS: u32 = 3;

/// Moves each player may still make once each side is down to a single piece.
const TURKISH_ONE_AGAINST_ONE_MOVES: u32 = 2;

/// The draw rules. The variant table (refdata `variants.md`, "Draw rules: Turkish") gives only
/// threefold repetition (alemanni.pagesperso-orange.fr/turkish.html); with nothing else a game
/// of kings that avoid repeating never ends. For a numeric rule Rafle takes the one pydraughts
/// 0.6.7 applies to Turkish (`draughts/core/game.py`, `Game.is_draw`): one piece against one,
/// man or king, is drawn when each player has made two more moves without a capture, counted
/// from the capture that left that material. pydraughts' comment says the official rule draws
/// at once unless a capture is forced, which it does not detect; the two moves leave room for
/// that capture. The variant table also notes that some sources count a king against a single
/// man as a win; pydraughts draws it like any other one against one, and so does Rafle.
const TURKISH_DRAW_RULES: DrawRules = DrawRules {
    repetitions: Some(TURKISH_REPETITIONS),
    one_against_one: Some(TURKISH_ONE_AGAINST_ONE_MOVES),
    ..NO_DRAW_RULES
};

/// Turkish draughts on the 8x8 board, every square played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Turkish;

impl Rules for Turkish {
    type Geometry = Board8Full;
    const RULES: RuleSet = RuleSet {
        name: "turkish",
        pdn_game_type: Some("30"),
        // 16 men each on the second and third rows: White a2-h3, Black a6-h7 (in the numeric form
        // of algebraic squares, 1 = a8 row by row, as pydraughts and lidraughts number them).
        start_fen: "W:W41-56:B9-24",
        max_pieces_per_side: 16,
        empty_rows_behind_men: 1,
        // Men move and capture forward and sideways, never backwards or along diagonals.
        diagonal_play: false,
        orthogonal_moves: true,
        orthogonal_captures: true,
        men_capture_backwards: false,
        // Kings move and capture any distance along rows and columns.
        flying_kings: true,
        // Jumped pieces are removed at once, and the capturing piece may not turn 180 degrees.
        captured_removed_at_once: true,
        no_turning_back: true,
        // The most pieces, a king counting as one (the international majority rule).
        capture_precedence: super::CapturePrecedence::MostPieces,
        // See the module text: the man goes on as a man.
        crown_during_capture: false,
        draw_rules: TURKISH_DRAW_RULES,
        ..EIGHT_BY_EIGHT_RULES
    };
}
