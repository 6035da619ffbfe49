//! Rules as data: one zero-sized type per variant, its rule flags as associated constants.
//!
//! The move generator, the position and the game record are generic over [`Rules`], so every
//! variant gets its own monomorphised code and no rule is tested at run time on the hot path.
//! Each constant cites the article of the rulebook it encodes. A variant is a rules description:
//! the flags below plus its numbering, start position and draw rules.

mod eight_by_eight;
pub mod numbering;

pub use numbering::{Corner, Notation};

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
    /// Frisian rules: the capture of the highest value, a king worth more than one man and less
    /// than two (n kings between 2n-1 and 2n men); between captures of equal value, one by a king.
    Frisian,
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

/// Draw rules of a variant, in moves per player. `None` (or an empty list) switches a rule off.
/// Rules a rulebook has beyond these are documented with the variant's `DRAW_RULES`.
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
    /// Successive moves by each player without a capture; man moves and promotions do not restart
    /// the count, only a capture does (Portuguese rules 3.2.a as given to us).
    pub capture_free_moves: Option<u32>,
    /// Further moves each when a side that has only kings, three or more, plays against a lone
    /// king, counted from when that material arose (FMJD-64 art. 7.2.4; Pool's 13-move count).
    /// Where the variant has it, this material is not the three-against-king ending of
    /// [`Self::three_against_king`].
    pub kings_against_king: Option<u32>,
    /// Further moves each while three pieces, at least one a king, play against a lone king that
    /// stands on the long diagonal, counted from when the lone king stands there in that material
    /// (FMJD-64 art. 7.2.7).
    pub lone_king_on_long_diagonal: Option<u32>,
    /// Moves each while both sides have kings and the material stays the same (no capture, no
    /// promotion), by the number of pieces on the board (FMJD-64 art. 7.2.6).
    pub kings_on_both_sides: &'static [PieceCountLimit],
    /// Further moves each while each side has a single piece, man or king, counted from when that
    /// material arose; a promotion does not restart the count (pydraughts' Turkish rule).
    pub one_against_one: Option<u32>,
}

/// A move limit that holds for a range of piece counts (both sides together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceCountLimit {
    /// Fewest pieces on the board for which the limit holds.
    pub min_pieces: u32,
    /// Most pieces on the board for which the limit holds.
    pub max_pieces: u32,
    /// The limit, in moves per player.
    pub moves: u32,
}

/// How the variant's game records write a result (PDN's result types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultForm {
    /// `1-0`, `1/2-1/2`, `0-1` (PDN's "Default" type).
    Default,
    /// `2-0`, `1-1`, `0-2`: two points a game (PDN's "International" type).
    International,
}

/// No draw rule at all: the base the variants' draw rules are written against.
pub const NO_DRAW_RULES: DrawRules = DrawRules {
    repetitions: None,
    king_moves: None,
    three_against_king: None,
    two_against_king: None,
    capture_free_moves: None,
    kings_against_king: None,
    lone_king_on_long_diagonal: None,
    kings_on_both_sides: &[],
    one_against_one: None,
};

/// Only threefold repetition: the rule every rulebook has.
pub const REPETITION_ONLY: DrawRules = DrawRules {
    repetitions: Some(3),
    ..NO_DRAW_RULES
};

/// A variant's rules as a value. A variant that differs from another by a rule is written as
/// that variant's rule set with the rule changed (`RuleSet { flying_kings: false, ..BASE }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// Name used on the command line and in the Hub `variant` parameter.
    pub name: &'static str,
    /// PDN GameType tag value, if the variant has one.
    pub pdn_game_type: Option<&'static str>,
    /// The side that makes the first move of a game.
    pub first_mover: Color,
    /// Start position as a PDN FEN, in the variant's own square names.
    pub start_fen: &'static str,
    /// Most pieces a side can have (the number of men each side starts with).
    pub max_pieces_per_side: u32,
    /// Rows left empty between a player's own edge and his men at the start (Turkish: 1).
    pub empty_rows_behind_men: u32,
    /// Whether pieces move and capture along the diagonals (every variant but Turkish).
    pub diagonal_play: bool,
    /// Whether men step one square forward or sideways along columns and rows, and kings move
    /// along them, instead of along the diagonals (Turkish). Captures follow
    /// [`RuleSet::orthogonal_captures`].
    pub orthogonal_moves: bool,
    /// Whether a capturing piece may not turn back (180 degrees) between two captures of one
    /// move (Turkish). Only pieces lifted as they are jumped could, so this matters only with
    /// [`RuleSet::captured_removed_at_once`].
    pub no_turning_back: bool,
    /// Whether men capture backwards as well as forwards.
    pub men_capture_backwards: bool,
    /// Whether men may capture kings (not in Italian draughts).
    pub men_capture_kings: bool,
    /// Whether kings move and capture over any distance ("flying kings").
    pub flying_kings: bool,
    /// Whether a capturing king must land on the square right behind the piece it takes (Thai,
    /// the German rule sheets), rather than on any empty square behind it.
    pub king_lands_behind: bool,
    /// Whether a king that ends its capture by taking a king must stop right behind that king
    /// (Killer draughts).
    pub king_halts_behind_king: bool,
    /// Whether captured pieces are lifted as they are jumped (Thai), so that they stop blocking
    /// and their squares may be crossed again, rather than when the capture is complete.
    pub captured_removed_at_once: bool,
    /// Whether men and kings also capture along rows and columns, over the next same-coloured
    /// square of the row or column (Frisian). Quiet moves stay diagonal. Not combined with
    /// [`RuleSet::crown_during_capture`] by any variant, and the generator does not support it.
    pub orthogonal_captures: bool,
    /// Which captures are legal when several exist.
    pub capture_precedence: CapturePrecedence,
    /// Whether a man reaching the far row in the middle of a capture is crowned at once and goes
    /// on capturing as a king (Russian), rather than going on as a man.
    pub crown_during_capture: bool,
    /// The draw rules of the game.
    pub draw_rules: DrawRules,
    /// A player who has both kings and men may not move the same king more than this many times
    /// in a row without capturing (Frisian): the count is kept per player and restarted by a man
    /// move, a capture or a move of another king. The game record and the search keep it in
    /// [`crate::game::DrawCounters`], since a position alone cannot tell it.
    pub max_same_king_moves: Option<u32>,
    /// How the game is won.
    pub goal: Goal,
    /// How the variant's players write squares (PDN GameType notation code).
    pub notation: Notation,
    /// Whether the real board has a light square in the bottom-left corner (PDN invert flag 1):
    /// it is stored as the mirror image of ours (see [`numbering`]).
    pub mirrored_board: bool,
    /// The separator of captures in PDN move text.
    pub capture_separator: char,
    /// How the variant's game records write a result.
    pub result_form: ResultForm,
}

/// A variant's rules. Implemented by zero-sized marker types such as [`International`].
///
/// Every flag is a constant read from the variant's [`RuleSet`], so the generator's `if R::FLAG`
/// tests vanish at compile time and international draughts compiles to code that knows nothing
/// of the other variants.
pub trait Rules: Copy + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// Board size and bit layout.
    type Geometry: Geometry;
    /// The rules of play.
    const RULES: RuleSet;
    /// See [`RuleSet::name`].
    const NAME: &'static str = Self::RULES.name;
    /// See [`RuleSet::pdn_game_type`].
    const PDN_GAME_TYPE: Option<&'static str> = Self::RULES.pdn_game_type;
    /// See [`RuleSet::first_mover`].
    const FIRST_MOVER: Color = Self::RULES.first_mover;
    /// See [`RuleSet::start_fen`].
    const START_FEN: &'static str = Self::RULES.start_fen;
    /// See [`RuleSet::max_pieces_per_side`].
    const MAX_PIECES_PER_SIDE: u32 = Self::RULES.max_pieces_per_side;
    /// See [`RuleSet::empty_rows_behind_men`].
    const EMPTY_ROWS_BEHIND_MEN: u32 = Self::RULES.empty_rows_behind_men;
    /// See [`RuleSet::diagonal_play`].
    const DIAGONAL_PLAY: bool = Self::RULES.diagonal_play;
    /// See [`RuleSet::orthogonal_moves`].
    const ORTHOGONAL_MOVES: bool = Self::RULES.orthogonal_moves;
    /// See [`RuleSet::no_turning_back`].
    const NO_TURNING_BACK: bool = Self::RULES.no_turning_back;
    /// See [`RuleSet::men_capture_backwards`].
    const MEN_CAPTURE_BACKWARDS: bool = Self::RULES.men_capture_backwards;
    /// See [`RuleSet::men_capture_kings`].
    const MEN_CAPTURE_KINGS: bool = Self::RULES.men_capture_kings;
    /// See [`RuleSet::flying_kings`].
    const FLYING_KINGS: bool = Self::RULES.flying_kings;
    /// See [`RuleSet::king_lands_behind`].
    const KING_LANDS_BEHIND: bool = Self::RULES.king_lands_behind;
    /// See [`RuleSet::king_halts_behind_king`].
    const KING_HALTS_BEHIND_KING: bool = Self::RULES.king_halts_behind_king;
    /// See [`RuleSet::captured_removed_at_once`].
    const CAPTURED_REMOVED_AT_ONCE: bool = Self::RULES.captured_removed_at_once;
    /// See [`RuleSet::orthogonal_captures`].
    const ORTHOGONAL_CAPTURES: bool = Self::RULES.orthogonal_captures;
    /// See [`RuleSet::capture_precedence`].
    const CAPTURE_PRECEDENCE: CapturePrecedence = Self::RULES.capture_precedence;
    /// See [`RuleSet::crown_during_capture`].
    const CROWN_DURING_CAPTURE: bool = Self::RULES.crown_during_capture;
    /// See [`RuleSet::draw_rules`].
    const DRAW_RULES: DrawRules = Self::RULES.draw_rules;
    /// See [`RuleSet::max_same_king_moves`].
    const MAX_SAME_KING_MOVES: Option<u32> = Self::RULES.max_same_king_moves;
    /// See [`RuleSet::goal`].
    const GOAL: Goal = Self::RULES.goal;
    /// See [`RuleSet::notation`].
    const NOTATION: Notation = Self::RULES.notation;
    /// See [`RuleSet::mirrored_board`].
    const MIRRORED_BOARD: bool = Self::RULES.mirrored_board;
    /// See [`RuleSet::capture_separator`].
    const CAPTURE_SEPARATOR: char = Self::RULES.capture_separator;
    /// See [`RuleSet::result_form`].
    const RESULT_FORM: ResultForm = Self::RULES.result_form;
    /// Whether Rafle's endgame knowledge, worked out for the FMJD rules, holds: the lone-king
    /// theory of [`crate::game::endgame`] and the endgame databases. The variants on the same
    /// board change what an ending is worth.
    const ENDGAME_KNOWLEDGE: bool = false;
    /// The variant of the one list these rules are, found by [`Rules::NAME`] so that every listed
    /// variant has it without writing it; `None` for a rule set outside the list (a test's).
    const VARIANT: Option<Variant> = Variant::with_rules_name(Self::NAME);
}

/// Bit set type of a variant.
pub type BitsOf<R> = <<R as Rules>::Geometry as Geometry>::Bits;

/// The one list of variants, handed to `$callback` (a macro exported by this crate) after
/// `$args`: each variant's rules type and its file (`mod file` declares the module of `src/rules/`
/// that holds it, `in file` names a module an earlier entry declared), its Hub name where Scan
/// names it otherwise than [`Rules::NAME`], the other names accepted for it (Scan's, pydraughts'
/// and lidraughts'), and its description. The rules modules and their exports, [`Variant`] with
/// its names and [`with_variant!`](crate::with_variant) are made from it: a new variant is its
/// rules file and one entry here.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_variant {
    ($callback:ident $($args:tt)*) => {
        $crate::$callback! { [$($args)*]
            International (mod international) => hub "normal", ["normal", "standard", "10x10", "fmjd", "fromposition", "from position"],
                "International draughts, FMJD rules (10x10).";
            Killer (mod engine_variants) => [],
                "Killer draughts (10x10): a king that ends by taking a king stops right behind it.";
            Breakthrough (in engine_variants) => hub "bt", ["bt"], "Breakthrough (10x10): the first king wins.";
            Frisian (mod frisian) => [],
                "Frisian draughts (10x10): captures also along rows and columns, by value.";
            Antidraughts (in engine_variants) => hub "losing", ["losing", "giveaway", "anti"],
                "Antidraughts (10x10): the player who cannot move wins.";
            Brazilian (mod brazilian) => ["brazil"], "Brazilian draughts: international rules on 8x8.";
            Russian (mod russian) => ["shashki"], "Russian draughts (shashki).";
            Pool (mod pool) => ["american-pool", "pool-checkers"], "American pool checkers.";
            Czech (mod czech) => [], "Czech draughts.";
            Portuguese (mod spanish) => [], "Portuguese draughts.";
            Spanish (in spanish) => [], "Spanish draughts.";
            German (mod german) => ["dame"],
                "German draughts (Dame) as the given variant table states it: White first, flying kings.";
            GermanSheets (in german) => [],
                "German draughts as the German rule sheets play it: Black first, kings land right behind.";
            Thai (mod thai) => [], "Thai draughts (mak-hot).";
            English (mod english) => ["american", "checkers", "draughts"],
                "English draughts / American checkers.";
            Italian (mod italian) => [], "Italian draughts (dama italiana).";
            Canadian (mod canadian) => [], "Canadian draughts: international rules on 12x12.";
            Turkish (mod turkish) => ["dama"],
                "Turkish draughts (dama): all 64 squares, moves and captures along rows and columns.";
        }
    };
}

/// Declares the rules modules and exports each variant's rules type, from the list of
/// [`for_each_variant!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __declare_variant_modules {
    ([] $($variant:ident ($kind:ident $module:ident) => $(hub $hub:literal,)? [$($alias:literal),*], $doc:literal;)*) => {
        $($crate::__variant_module!($kind $module);)*
        $(pub use $module::$variant;)*
    };
}

/// `mod file` of an entry of [`for_each_variant!`] declares the module; `in file` does nothing
/// (an earlier entry declared it).
#[doc(hidden)]
#[macro_export]
macro_rules! __variant_module {
    (mod $module:ident) => {
        mod $module;
    };
    (in $module:ident) => {};
}

for_each_variant!(__declare_variant_modules);

/// Defines [`Variant`] from the list of [`for_each_variant!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __define_variant {
    ([] $($variant:ident ($kind:ident $module:ident) => $(hub $hub:literal,)? [$($alias:literal),*], $doc:literal;)*) => {
        /// A variant chosen at run time, for the edges of the program (command line, protocols).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $(#[doc = $doc] $variant,)*
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

            /// The name in the Hub `variant` parameter: Scan's name where Scan has the variant
            /// (`normal`, `bt`, `losing`), otherwise the variant's name.
            pub const fn hub_name(self) -> &'static str {
                match self {
                    $(Variant::$variant => {
                        let scan: &[&str] = &[$($hub)?];
                        match scan {
                            [hub] => hub,
                            _ => <$variant as Rules>::NAME,
                        }
                    })*
                }
            }
        }
    };
}

for_each_variant!(__define_variant);

/// Calls `$body` with the type alias `$r` bound to the rules type of a run-time [`Variant`].
/// This is the one place where a run-time variant becomes a compile-time type.
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $r:ident => $body:expr) => {
        $crate::for_each_variant!(__with_variant_match($variant), $r, ($body))
    };
}

/// The `match` of [`with_variant!`] over the list of [`for_each_variant!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __with_variant_match {
    ([($variant:expr), $r:ident, ($body:expr)] $($name:ident ($kind:ident $module:ident) => $(hub $hub:literal,)? [$($alias:literal),*], $doc:literal;)*) => {
        match $variant {
            $($crate::rules::Variant::$name => {
                type $r = $crate::rules::$name;
                $body
            })*
        }
    };
}

impl Variant {
    /// The variant whose rules are named `name` exactly ([`Rules::NAME`]), in a const context.
    pub const fn with_rules_name(name: &str) -> Option<Variant> {
        let mut i = 0;
        while i < Variant::ALL.len() {
            if same_text(Variant::ALL[i].name(), name) {
                return Some(Variant::ALL[i]);
            }
            i += 1;
        }
        None
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

/// `a == b` for strings, which `const fn` cannot write yet.
const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
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
        assert_eq!(Variant::from_name("frisian"), Some(Variant::Frisian));
    }

    #[test]
    fn hub_names_are_scans_where_scan_has_the_variant() {
        assert_eq!(Variant::International.hub_name(), "normal");
        assert_eq!(Variant::Breakthrough.hub_name(), "bt");
        assert_eq!(Variant::Antidraughts.hub_name(), "losing");
        assert_eq!(Variant::Killer.hub_name(), "killer");
        assert_eq!(Variant::Frisian.hub_name(), "frisian");
        assert_eq!(Variant::Canadian.hub_name(), Canadian::NAME);
    }

    #[test]
    fn german_default_is_the_given_table_and_the_sheets_stay_available() {
        assert_eq!(Variant::from_name("german"), Some(Variant::German));
        assert_eq!(
            Variant::from_name("german-sheets"),
            Some(Variant::GermanSheets)
        );
        assert_eq!(German::FIRST_MOVER, Color::White);
        assert_eq!(
            (
                German::FLYING_KINGS,
                German::KING_LANDS_BEHIND,
                German::MEN_CAPTURE_BACKWARDS
            ),
            (true, false, false)
        );
        assert_eq!(German::CAPTURE_PRECEDENCE, CapturePrecedence::Free);
        assert_eq!(
            (GermanSheets::FIRST_MOVER, GermanSheets::KING_LANDS_BEHIND),
            (Color::Black, true)
        );
        // Both number the squares as English draughts does: 1 = b8, Black on 1-12.
        for square in 1..=32 {
            assert_eq!(
                crate::notation::squares::number::<German>(square),
                crate::notation::squares::number::<GermanSheets>(square)
            );
        }
    }

    #[test]
    fn every_listed_variant_knows_itself() {
        for &variant in Variant::ALL {
            with_variant!(variant, R => assert_eq!(R::VARIANT, Some(variant)));
        }
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
