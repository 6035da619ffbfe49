//! Russian draughts (shashki): rules of the International Draughts Federation for the 64-square
//! game (fmjd64.org "Rules of the game", article numbers as quoted by lidraughts/strategygames
//! Russian.scala and dctl russian.hpp; PDN GameType 25, `25,W,8,8,A0,0`, captures written with
//! `:`).

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{CapturePrecedence, DrawRules, PieceCountLimit, REPETITION_ONLY, RuleSet, Rules};
use crate::core::{Board8, Color};

/// The draw rules of art. 7.2 (fmjd64.org "Rules of the game", as quoted in
/// lidraughts/strategygames Russian.scala), each in moves per player:
///
/// * 7.2.3 threefold repetition (same player to move);
/// * 7.2.4 three kings or more against a lone king: drawn if the strong side's 15th move, counted
///   from when that material arose, does not capture the king;
/// * 7.2.5 15 moves in which both players moved only kings, without a man move or a capture;
/// * 7.2.6 both sides have kings and the material has not changed (no capture, no promotion): 30
///   moves in 4- and 5-piece endings, 60 moves in 6- and 7-piece endings;
/// * 7.2.7 three pieces with at least one king (three kings, two kings and a man, a king and two
///   men) against a lone king on the long diagonal (a1-h8): drawn if the 5th move does not win,
///   counted from when the lone king stands on the diagonal in that material;
/// * 7.2.8 two kings, king and man, or king against a lone king: 5 moves.
///
/// Two kings and a man or a king and two men against a lone king off the long diagonal have no
/// article of their own: 7.2.6 (4 pieces, 30 moves) and 7.2.5 govern them.
const RUSSIAN_DRAW_RULES: DrawRules = DrawRules {
    king_moves: Some(15),
    two_against_king: Some(5),
    kings_against_king: Some(15),
    lone_king_on_long_diagonal: Some(5),
    kings_on_both_sides: &[
        PieceCountLimit {
            min_pieces: 4,
            max_pieces: 5,
            moves: 30,
        },
        PieceCountLimit {
            min_pieces: 6,
            max_pieces: 7,
            moves: 60,
        },
    ],
    ..REPETITION_ONLY
};

/// Russian draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

impl Rules for Russian {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "russian",
        pdn_game_type: Some("25"),
        // White moves first.
        first_mover: Color::White,
        // Men capture forwards and backwards.
        men_capture_backwards: true,
        // Kings move and capture over any distance.
        flying_kings: true,
        // No majority rule: any capture may be chosen, but it must be completed.
        capture_precedence: CapturePrecedence::Free,
        // A man reaching the last row during a capture becomes a king at once and goes on capturing
        // as a king (rule 1.5.15 as cited by dctl).
        crown_during_capture: true,
        draw_rules: RUSSIAN_DRAW_RULES,
        capture_separator: ':',
        ..EIGHT_BY_EIGHT_RULES
    };
}
