//! Rules as data: one zero-sized type per variant, its rule flags as associated constants.
//!
//! The move generator, the position and the game record are generic over [`Rules`], so every
//! variant gets its own monomorphised code and no rule is tested at run time on the hot path.
//! Each constant cites the article of the rulebook it encodes.

mod brazilian;
mod international;

pub use brazilian::Brazilian;
pub use international::International;

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

/// Draw rules of a variant, in moves per player. `None` switches a rule off.
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

/// A variant's rules. Implemented by zero-sized marker types such as [`International`].
pub trait Rules: Copy + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// Board size and bit layout.
    type Geometry: Geometry;
    /// Name used on the command line and in the Hub `variant` parameter.
    const NAME: &'static str;
    /// PDN GameType tag value, if the variant has one.
    const PDN_GAME_TYPE: Option<&'static str>;
    /// The side that makes the first move of a game.
    const FIRST_MOVER: Color;
    /// Start position as a PDN FEN.
    const START_FEN: &'static str;
    /// Most pieces a side can have (the number of men each side starts with).
    const MAX_PIECES_PER_SIDE: u32;
    /// Whether men capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// Whether kings move and capture over any distance ("flying kings").
    const FLYING_KINGS: bool;
    /// Which captures are legal when several exist.
    const CAPTURE_PRECEDENCE: CapturePrecedence;
    /// Whether a man reaching the far row in the middle of a capture is crowned at once and goes
    /// on capturing as a king (Russian), rather than going on as a man.
    const CROWN_DURING_CAPTURE: bool;
    /// The draw rules of the game.
    const DRAW_RULES: DrawRules;
    /// How the game is won.
    const GOAL: Goal = Goal::Standard;

    /// The square number (the geometry's numbering, see [`crate::core::geometry`]) of a square
    /// written as the variant's players write it. Variants with algebraic or mirrored numbering
    /// override this.
    fn parse_square(text: &str) -> Option<u32> {
        parse_numeric_or_algebraic::<Self::Geometry>(text)
    }

    /// A square number written as the variant's players write it.
    fn square_text(square: u32) -> String {
        square.to_string()
    }
}

/// Reads a square written as a number of the geometry's numbering (`1`..) or algebraically
/// (`a1` is White's bottom-left corner, a playable square on every board we support).
pub fn parse_numeric_or_algebraic<G: Geometry>(text: &str) -> Option<u32> {
    let bytes = text.as_bytes();
    if !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit) {
        let number: u32 = text.parse().ok()?;
        return (1..=G::SQUARES).contains(&number).then_some(number);
    }
    let (&file, rank) = bytes.split_first()?;
    if !file.is_ascii_lowercase() || rank.is_empty() || !rank.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let file = u32::from(file - b'a');
    let rank: u32 = std::str::from_utf8(rank).ok()?.parse().ok()?;
    if rank == 0 || rank > G::ROWS || file >= 2 * G::HALF {
        return None;
    }
    let row = G::ROWS - rank;
    (1..=G::SQUARES).find(|&square| {
        let bit = G::bit_of(square).unwrap_or_default() as usize;
        u32::from(G::ROW_OF_BIT[bit]) == row && u32::from(G::FILE_OF_BIT[bit]) == file
    })
}

/// Bit set type of a variant.
pub type BitsOf<R> = <<R as Rules>::Geometry as Geometry>::Bits;

/// A variant chosen at run time, for the edges of the program (command line, protocols).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// International draughts, FMJD rules (10x10).
    International,
    /// Brazilian draughts: international rules on 8x8.
    Brazilian,
}

impl Variant {
    /// All variants, in the order they are listed to users.
    pub const ALL: [Variant; 2] = [Variant::International, Variant::Brazilian];

    /// The name used on the command line and in protocols.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::International => International::NAME,
            Variant::Brazilian => Brazilian::NAME,
        }
    }

    /// The name in the Hub `variant` parameter (Scan's `normal` for international).
    pub const fn hub_name(self) -> &'static str {
        match self {
            Variant::International => "normal",
            other => other.name(),
        }
    }

    /// Parses a variant name, accepting the aliases GUIs and pydraughts use.
    pub fn from_name(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "international" | "normal" | "standard" | "10x10" => Some(Variant::International),
            "brazilian" | "brazil" => Some(Variant::Brazilian),
            _ => None,
        }
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

/// Calls `$body` with the type alias `$r` bound to the rules type of a run-time [`Variant`].
/// This is the one place where a run-time variant becomes a compile-time type.
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $r:ident => $body:expr) => {
        match $variant {
            $crate::rules::Variant::International => {
                type $r = $crate::rules::International;
                $body
            }
            $crate::rules::Variant::Brazilian => {
                type $r = $crate::rules::Brazilian;
                $body
            }
        }
    };
}
