//! Spanish and Portuguese draughts: one game under two federations. The capture rules are those
//! of the Federação Portuguesa de Damas ("Regras Damas Clássicas", fpdamas.pt, as cited by dctl
//! spanish.hpp and lidraughts/strategygames Portuguese.scala): flying kings, men capture forwards
//! only, the most pieces and then the most kings must be taken. The board has a dark square at
//! each player's right, so a1 is not a playing square; squares are numbered from White's
//! bottom-right corner (PDN GameTypes 24 and 28, `N1,1`; White on 1-12).

use super::{CapturePrecedence, Corner, DrawRules, Notation, Rules};
use crate::core::{Board8, Color};

/// Portuguese rules 3.2.a-c: 3.2.c threefold repetition; 3.2.a 20 moves by each player without a
/// capture or a promotion (stored in the king-move slot, which also counts man moves as
/// progress); 3.2.b 12 moves once it is three kings against one with one of the three on the long
/// diagonal (not yet expressible here).
const PORTUGUESE_DRAW_RULES: DrawRules = DrawRules {
    repetitions: Some(3),
    king_moves: Some(20),
    three_against_king: None,
    two_against_king: None,
};

macro_rules! iberian {
    ($(#[$doc:meta])* $name:ident, $label:literal, $game_type:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Rules for $name {
            type Geometry = Board8;
            const NAME: &'static str = $label;
            const PDN_GAME_TYPE: Option<&'static str> = Some($game_type);
            /// White moves first.
            const FIRST_MOVER: Color = Color::White;
            /// White on 1-12, Black on 21-32.
            const START_FEN: &'static str = "W:W1-12:B21-32";
            const MAX_PIECES_PER_SIDE: u32 = 12;
            /// Men capture forwards only.
            const MEN_CAPTURE_BACKWARDS: bool = false;
            /// Kings move and capture over any distance.
            const FLYING_KINGS: bool = true;
            /// The most pieces; among those, the most kings.
            const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPiecesThenKings;
            /// A man reaching the last row ends its capture there.
            const CROWN_DURING_CAPTURE: bool = false;
            const DRAW_RULES: DrawRules = PORTUGUESE_DRAW_RULES;
            /// Numbers 1-32 from White's bottom-right corner (h1), right to left, row by row.
            const NOTATION: Notation = Notation::Numeric(Corner::BottomRight);
            const MIRRORED_BOARD: bool = true;
        }
    };
}

iberian!(
    /// Portuguese draughts (damas clássicas), PDN GameType 28.
    Portuguese,
    "portuguese",
    "28"
);
iberian!(
    /// Spanish draughts, PDN GameType 24. No Spanish federation text with draw articles was
    /// found; the Portuguese draw rules of the same game are used.
    Spanish,
    "spanish",
    "24"
);
