//! Rules as data: one zero-sized type per variant, its rule flags as associated constants.
//!
//! The move generator, the position and the game record are generic over [`Rules`], so every
//! variant gets its own monomorphised code and no rule is tested at run time on the hot path.
//! Each constant cites the article of the rulebook it encodes. A variant is a rules description:
//! the flags below plus its numbering, start position and draw rules.

mod brazilian;
mod canadian;
mod czech;
mod engine_variants;
mod english;
mod german;
mod international;
mod italian;
pub mod numbering;
mod pool;
mod russian;
mod spanish;
mod thai;

pub use brazilian::Brazilian;
pub use canadian::Canadian;
pub use czech::Czech;
pub use engine_variants::{Antidraughts, Breakthrough, Killer};
pub use english::English;
pub use german::German;
pub use international::International;
pub use italian::Italian;
pub use numbering::{Corner, Notation};
pub use pool::Pool;
pub use russian::Russian;
pub use spanish::{Portuguese, Spanish};
pub use thai::Thai;

use crate::core::{Color, Geometry};
use std::fmt::Debug;
use std::hash::Hash;

/// Which captures are legal when several exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapturePrecedence {
    /// Any capture may be chosen (it must still be completed).
    Free,
    /// The capture taking the most pieces is compulsory; a king counts as one piece and has no
    /// priority (FMJD art. 4.13).
    MostPieces,
    /// The most pieces, then among those the most kings (Spanish and Portuguese rules).
    MostPiecesThenKings,
    /// A capture by a king is compulsory when there is one; otherwise any capture (Czech rules).
    KingsFirst,
    /// Italian rules (FID Regolamento tecnico art. 6.6-6.9), in order: the most pieces; then a
    /// capture by a king; then the most kings; then the capture that meets a king earliest.
    Italian,
}

/// How a game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A player who cannot move (no pieces, or all blocked) has lost (FMJD art. 7.2).
    Standard,
    /// A player who cannot move has won (antidraughts, "losing" in Scan).
    Losing,
    /// As standard, and the first player to crown a king wins (Breakthrough).
    FirstKingWins,
}

/// Draw rules of a variant, in moves per player. `None` switches a rule off. Rules a rulebook has
/// beyond these are documented with the variant's `DRAW_RULES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Occurrences of the same position with the same player to move that draw (FMJD art. 6.1).
    pub repetitions: Option<u32>,
    /// Successive moves by each player with only kings moving and no capture (FMJD art. 6.2).
    pub king_moves: Option<u32>,
    /// Further moves each in three kings, two kings + man, or king + two men against a lone king
    /// (FMJD art. 6.3).
    pub three_against_king: Option<u32>,
    /// Further moves each in two kings, king + man, or king against a lone king (FMJD art. 6.4).
    pub two_against_king: Option<u32>,
}

/// Only threefold repetition: the rule every rulebook has.
pub const REPETITION_ONLY: DrawRules = DrawRules {
    repetitions: Some(3),
    king_moves: None,
    three_against_king: None,
    two_against_king: None,
};

/// A variant's rules. Implemented by zero-sized marker types such as [`International`].
///
/// Every flag is a constant, so the generator's `if R::FLAG` tests vanish at compile time and
/// international draughts compiles to code that knows nothing of the other variants.
pub trait Rules: Copy + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// Board size and bit layout.
    type Geometry: Geometry;
    /// Name used on the command line and in the Hub `variant` parameter.
    const NAME: &'static str;
    /// PDN GameType tag value, if the variant has one.
    const PDN_GAME_TYPE: Option<&'static str>;
    /// The side that makes the first move of a game.
    const FIRST_MOVER: Color;
    /// Start position as a PDN FEN, in the variant's own square names.
    const START_FEN: &'static str;
    /// Most pieces a side can have (the number of men each side starts with).
    const MAX_PIECES_PER_SIDE: u32;
    /// Whether men capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// Whether men may capture kings (not in Italian draughts).
    const MEN_CAPTURE_KINGS: bool = true;
    /// Whether kings move and capture over any distance ("flying kings").
    const FLYING_KINGS: bool;
    /// Whether a capturing king must land on the square right behind the piece it takes (Thai,
    /// German), rather than on any empty square behind it.
    const KING_LANDS_BEHIND: bool = false;
    /// Whether a king that ends its capture by taking a king must stop right behind that king
    /// (Killer draughts).
    const KING_HALTS_BEHIND_KING: bool = false;
    /// Whether captured pieces are lifted as they are jumped (Thai), so that they stop blocking
    /// and their squares may be crossed again, rather than when the capture is complete.
    const CAPTURED_REMOVED_AT_ONCE: bool = false;
    /// Which captures are legal when several exist.
    const CAPTURE_PRECEDENCE: CapturePrecedence;
    /// Whether a man reaching the far row in the middle of a capture is crowned at once and goes
    /// on capturing as a king (Russian), rather than going on as a man.
    const CROWN_DURING_CAPTURE: bool;
    /// The draw rules of the game.
    const DRAW_RULES: DrawRules;
    /// How the game is won.
    const GOAL: Goal = Goal::Standard;
    /// How the variant's players write squares (PDN GameType notation code).
    const NOTATION: Notation = Notation::Numeric(Corner::TopLeft);
    /// Whether the real board has a light square in the bottom-left corner (PDN invert flag 1):
    /// it is stored as the mirror image of ours (see [`numbering`]).
    const MIRRORED_BOARD: bool = false;
    /// The separator of captures in PDN move text.
    const CAPTURE_SEPARATOR: char = 'x';

    /// The number players give a geometry square. Algebraic variants use the geometry's own
    /// numbering (1 = top-left seen from White, as lidraughts and dctl number them).
    fn square_number(square: u32) -> u32 {
        match Self::NOTATION {
            Notation::Numeric(corner) => numbering::number_of_square::<Self::Geometry>(
                square,
                corner,
                Self::FIRST_MOVER,
                Self::MIRRORED_BOARD,
            ),
            Notation::Algebraic(_) => square,
        }
    }

    /// The geometry square players call `number` (see [`Rules::square_number`]).
    fn square_from_number(number: u32) -> Option<u32> {
        if !(1..=Self::Geometry::SQUARES).contains(&number) {
            return None;
        }
        match Self::NOTATION {
            Notation::Numeric(corner) => numbering::square_of_number::<Self::Geometry>(
                number,
                corner,
                Self::FIRST_MOVER,
                Self::MIRRORED_BOARD,
            ),
            Notation::Algebraic(_) => Some(number),
        }
    }

    /// The geometry square of a square written as the variant's players write it: a number, or
    /// chess-like coordinates (accepted in every variant).
    fn parse_square(text: &str) -> Option<u32> {
        match numbering::parse_number(text) {
            Some(number) => Self::square_from_number(number),
            None => numbering::parse_algebraic::<Self::Geometry>(text, Self::MIRRORED_BOARD),
        }
    }

    /// A geometry square written as the variant's players write it.
    fn square_text(square: u32) -> String {
        match Self::NOTATION {
            Notation::Numeric(_) => Self::square_number(square).to_string(),
            Notation::Algebraic(_) => {
                numbering::algebraic::<Self::Geometry>(square, Self::MIRRORED_BOARD)
            }
        }
    }
}

/// Bit set type of a variant.
pub type BitsOf<R> = <<R as Rules>::Geometry as Geometry>::Bits;

macro_rules! variants {
    ($($(#[$doc:meta])* $variant:ident => [$($alias:literal),*]),* $(,)?) => {
        /// A variant chosen at run time, for the edges of the program (command line, protocols).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $($(#[$doc])* $variant,)*
        }

        impl Variant {
            /// All variants, in the order they are listed to users.
            pub const ALL: &'static [Variant] = &[$(Variant::$variant,)*];

            /// The name used on the command line and in protocols.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Variant::$variant => <$variant as Rules>::NAME,)*
                }
            }

            /// Other names accepted for the variant: Scan's Hub names, pydraughts' and
            /// lidraughts' names.
            pub const fn aliases(self) -> &'static [&'static str] {
                match self {
                    $(Variant::$variant => &[$($alias),*],)*
                }
            }
        }

    };
}

variants! {
    /// International draughts, FMJD rules (10x10).
    International => ["normal", "standard", "10x10", "fmjd", "fromposition", "from position"],
    /// Killer draughts (10x10): a king that ends by taking a king stops right behind it.
    Killer => [],
    /// Breakthrough (10x10): the first king wins.
    Breakthrough => ["bt"],
    /// Antidraughts (10x10): the player who cannot move wins.
    Antidraughts => ["losing", "giveaway", "anti"],
    /// Brazilian draughts: international rules on 8x8.
    Brazilian => ["brazil"],
    /// Russian draughts (shashki).
    Russian => ["shashki"],
    /// American pool checkers.
    Pool => ["american-pool", "pool-checkers"],
    /// Czech draughts.
    Czech => [],
    /// Portuguese draughts.
    Portuguese => [],
    /// Spanish draughts.
    Spanish => [],
    /// German draughts (Dame).
    German => ["dame"],
    /// Thai draughts (mak-hot).
    Thai => [],
    /// English draughts / American checkers.
    English => ["american", "checkers", "draughts"],
    /// Italian draughts (dama italiana).
    Italian => [],
    /// Canadian draughts: international rules on 12x12.
    Canadian => [],
}

/// Calls `$body` with the type alias `$r` bound to the rules type of a run-time [`Variant`].
/// This is the one place where a run-time variant becomes a compile-time type (the match is
/// exhaustive, so a variant missing here does not compile).
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $r:ident => $body:expr) => {
        match $variant {
            $crate::rules::Variant::International => {
                type $r = $crate::rules::International;
                $body
            }
            $crate::rules::Variant::Killer => {
                type $r = $crate::rules::Killer;
                $body
            }
            $crate::rules::Variant::Breakthrough => {
                type $r = $crate::rules::Breakthrough;
                $body
            }
            $crate::rules::Variant::Antidraughts => {
                type $r = $crate::rules::Antidraughts;
                $body
            }
            $crate::rules::Variant::Brazilian => {
                type $r = $crate::rules::Brazilian;
                $body
            }
            $crate::rules::Variant::Russian => {
                type $r = $crate::rules::Russian;
                $body
            }
            $crate::rules::Variant::Pool => {
                type $r = $crate::rules::Pool;
                $body
            }
            $crate::rules::Variant::Czech => {
                type $r = $crate::rules::Czech;
                $body
            }
            $crate::rules::Variant::Portuguese => {
                type $r = $crate::rules::Portuguese;
                $body
            }
            $crate::rules::Variant::Spanish => {
                type $r = $crate::rules::Spanish;
                $body
            }
            $crate::rules::Variant::German => {
                type $r = $crate::rules::German;
                $body
            }
            $crate::rules::Variant::Thai => {
                type $r = $crate::rules::Thai;
                $body
            }
            $crate::rules::Variant::English => {
                type $r = $crate::rules::English;
                $body
            }
            $crate::rules::Variant::Italian => {
                type $r = $crate::rules::Italian;
                $body
            }
            $crate::rules::Variant::Canadian => {
                type $r = $crate::rules::Canadian;
                $body
            }
        }
    };
}

impl Variant {
    /// The name in the Hub `variant` parameter: Scan's name where Scan has the variant
    /// (`normal`, `bt`, `losing`), otherwise the variant's name.
    pub const fn hub_name(self) -> &'static str {
        match self {
            Variant::International => "normal",
            Variant::Breakthrough => "bt",
            Variant::Antidraughts => "losing",
            other => other.name(),
        }
    }

    /// Parses a variant name or alias, in any case.
    pub fn from_name(name: &str) -> Option<Variant> {
        let name = name.trim().to_ascii_lowercase();
        Variant::ALL
            .iter()
            .copied()
            .find(|v| v.name() == name || v.aliases().contains(&name.as_str()))
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = String;

    fn from_str(name: &str) -> Result<Variant, String> {
        Variant::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
            format!("unknown variant '{name}' (known: {})", known.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::BitBoard;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &variant in Variant::ALL {
            assert!(seen.insert(variant.name()), "{variant}");
            for alias in variant.aliases() {
                assert!(seen.insert(alias), "{alias}");
            }
            assert_eq!(Variant::from_name(variant.name()), Some(variant));
            assert_eq!(variant.name().parse::<Variant>(), Ok(variant));
        }
        assert_eq!(Variant::from_name("normal"), Some(Variant::International));
        assert_eq!(Variant::from_name("Standard"), Some(Variant::International));
        assert_eq!(Variant::from_name("bt"), Some(Variant::Breakthrough));
        assert_eq!(Variant::from_name("losing"), Some(Variant::Antidraughts));
        assert_eq!(Variant::from_name("american"), Some(Variant::English));
        assert_eq!(Variant::from_name("frisian"), None);
    }

    #[test]
    fn start_positions_are_valid() {
        for &variant in Variant::ALL {
            with_variant!(variant, R => {
                let start = crate::position::Position::<R>::start();
                assert_eq!(start.side(), R::FIRST_MOVER, "{variant}");
                for color in Color::BOTH {
                    assert_eq!(start.pieces(color).count(), R::MAX_PIECES_PER_SIDE, "{variant}");
                }
                assert!(!start.legal_moves().is_empty(), "{variant}");
            });
        }
    }
}
