//! The engine variants on the international board: Killer, Breakthrough and Antidraughts. They
//! keep the FMJD rules of play (see [`super::International`]) and change one thing each.
//!
//! None has a PDN GameType. Scan 3.1 plays them as `killer`, `bt` and `losing`; lidraughts has
//! Breakthrough (gameType 96) and Antidraughts (98).

use super::international::FMJD_DRAW_RULES;
use super::{CapturePrecedence, DrawRules, Goal, REPETITION_ONLY, ResultForm, Rules};
use crate::core::{Board10, Color};

/// An international-rules variant: the FMJD board, start and rules of play (art. 2-4) with the
/// few items that differ.
macro_rules! international_board {
    (
        $(#[$doc:meta])* $name:ident, $label:literal,
        halts_behind_king: $halts:expr, draw_rules: $draw:expr, goal: $goal:expr
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Rules for $name {
            type Geometry = Board10;
            const NAME: &'static str = $label;
            const PDN_GAME_TYPE: Option<&'static str> = None;
            const FIRST_MOVER: Color = Color::White;
            const START_FEN: &'static str = "W:W31-50:B1-20";
            const MAX_PIECES_PER_SIDE: u32 = 20;
            const MEN_CAPTURE_BACKWARDS: bool = true;
            const FLYING_KINGS: bool = true;
            const KING_HALTS_BEHIND_KING: bool = $halts;
            const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
            const CROWN_DURING_CAPTURE: bool = false;
            const DRAW_RULES: DrawRules = $draw;
            const GOAL: Goal = $goal;
            /// No GameType: scored as the international game on its board.
            const RESULT_FORM: ResultForm = ResultForm::International;
        }
    };
}

international_board!(
    /// Killer draughts: international rules, except that a king whose capture ends by taking a
    /// king must stop on the square right behind it (mindsports.nl Killer Draughts rules, as
    /// implemented by Scan 3.1's `killer` variant: the capture may go on from any square behind
    /// a captured king; only the final stop is restricted). Draw rules as international (FMJD
    /// art. 6); the Killer rules add none of their own.
    Killer,
    "killer",
    halts_behind_king: true,
    draw_rules: FMJD_DRAW_RULES,
    goal: Goal::Standard
);

international_board!(
    /// Breakthrough: international rules of play; the first player to crown a king wins (Scan
    /// 3.1 `bt`, lidraughts Breakthrough). No draw rule: while the game goes on only men move, so
    /// no position can repeat and the king endings never arise (lidraughts Breakthrough.scala has
    /// none either).
    Breakthrough,
    "breakthrough",
    halts_behind_king: false,
    draw_rules: DrawRules {
        repetitions: None,
        king_moves: None,
        three_against_king: None,
        two_against_king: None,
    },
    goal: Goal::FirstKingWins
);

international_board!(
    /// Antidraughts (give-away, Scan's `losing`): international rules of play; a player who
    /// cannot move (no pieces left, or all blocked) wins. Threefold repetition is the only draw
    /// rule (lidraughts Antidraughts.scala keeps the repetition history and has no move-count
    /// rule): the FMJD king endings are about a stronger side that cannot force a win by
    /// capture, which is not how antidraughts is won.
    Antidraughts,
    "antidraughts",
    halts_behind_king: false,
    draw_rules: REPETITION_ONLY,
    goal: Goal::Losing
);
