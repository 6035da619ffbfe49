//! The counters behind the draw rules of FMJD art. 6.2-6.4, updated in O(1) per move.
//!
//! Article numbers are those of Annex 1, "Official FMJD rules for international draughts",
//! version November 2015; the limits themselves are variant data ([`crate::rules::DrawRules`]).
//!
//! # When each counter starts and resets
//!
//! * **Art. 6.2, king moves** ("during 25 successive moves of each player only kings have moved,
//!   without any man moving and without any capture"): [`DrawCounters::reversible_plies`] counts
//!   the plies since the last capture or man move. Any capture (by a man or a king) and any man
//!   move (a promotion is a man move) sets it to 0; every other move, which is a quiet king move,
//!   adds 1. The game is drawn when it reaches 2 x 25 = 50 plies: 25 moves by each player. The same
//!   count bounds repetition (art. 6.1): no position played before the last capture or man move can
//!   occur again, so it is also how far back a repetition can reach.
//! * **Art. 6.3 and 6.4, lone-king endings** ("the game is a draw after both players have each
//!   played another sixteen (five) moves"): [`DrawCounters::ending_plies`] counts the plies played
//!   since the current [`LoneKingEnding`] arose.
//!   - The count starts at 0 in the position where the material of the article first appears; the
//!     capture or promotion that creates it is not one of the "other" moves, so the draw comes
//!     2 x 16 = 32 (2 x 5 = 10) plies after that move.
//!   - Man moves, captures and promotions that keep the material within the same article do not
//!     reset it: a man of king + two men promoting (still art. 6.3), or the lone king capturing in
//!     two kings against one king (now king against king, still art. 6.4), leave the count running.
//!     The article counts moves from when that material situation arose, not since the last
//!     progress.
//!   - A change of article starts the new article's count: when a capture turns an art. 6.3 ending
//!     into an art. 6.4 one (three pieces against a king become two), the five moves of art. 6.4
//!     are counted from that capture. Art. 6.4 then applies, with its own limit, and art. 6.3 no
//!     longer does.
//!   - A game set up from a position (FEN) that is already such an ending counts from the set-up
//!     position.
//!
//! This is lidraughts' behaviour (strategygames `Standard.updatePositionHashes`): its clock restarts
//! when a promotion gives a side its first king in a lone-king ending or when a capture creates the
//! 6.3/6.4 material from more pieces, and otherwise runs on within the ending.
//!
//! # The other variants' counts
//!
//! Each is kept only for a variant whose [`DrawRules`] has the rule (a constant test, so the
//! international game pays nothing for them):
//!
//! * **Moves without a capture** (Portuguese 3.2.a): plies since the last capture; man moves and
//!   promotions do not restart it. A capture restarts it, and the count starts again at the next
//!   move, so the draw comes 2 x 20 = 40 plies after the last capture.
//! * **Kings against a lone king** (FMJD-64 art. 7.2.4, Pool's 13-move count): a lone-king ending of
//!   its own ([`LoneKingEnding::KingsAgainstKing`]), counted like art. 6.3 from when the material
//!   arose: a promotion that turns two kings and a man into three kings starts it.
//! * **Lone king on the long diagonal** (FMJD-64 art. 7.2.7): plies since the lone king, against
//!   three pieces with a king, stands on the long diagonal; its leaving the diagonal (or any other
//!   material) ends the count, a promotion among the three pieces does not.
//! * **Kings on both sides, material unchanged** (FMJD-64 art. 7.2.6): plies since the last capture
//!   or promotion; the limit is that of the number of pieces, and holds while both sides have a
//!   king.
//! * **One piece against one** (Turkish, as pydraughts plays it): plies since each side was left
//!   with a single piece, man or king. Only a capture changes the number of pieces, and in this
//!   material a capture ends the game, so the count runs from the capture that created it (or from
//!   a set-up position) to the draw; a promotion does not restart it.
//!
//! # The Frisian three-moves king rule
//!
//! Not a draw rule, but history the position cannot hold, so it is kept here with the counts
//! ([`crate::rules::RuleSet::max_same_king_moves`]): for each player, the king that made its last
//! moves and how many quiet moves in a row it made. A man move or a capture restarts the count; a
//! move by another king starts it again at one. [`DrawCounters::allows`] forbids a fourth quiet move
//! of that king while its player also has men. A game set up from a position starts with no count.

use crate::core::{BitBoard, Color, Direction, Geometry};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{BitsOf, DrawRules, Rules};
use std::fmt;
use std::marker::PhantomData;

/// The material situations of FMJD art. 6.3 and 6.4: one player has a single king, the other a
/// few pieces including at least one king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoneKingEnding {
    /// Art. 6.3: three kings, two kings and a man, or a king and two men against a lone king.
    ThreeAgainstKing,
    /// Art. 6.4: two kings, a king and a man, or a king against a lone king.
    TwoAgainstKing,
    /// Three kings or more against a lone king, in a variant with a rule for that material
    /// ([`DrawRules::kings_against_king`]; FMJD-64 art. 7.2.4, Pool).
    KingsAgainstKing,
}

impl LoneKingEnding {
    /// The ending of a position's material, if any.
    #[inline]
    pub fn of<R: Rules>(position: &Position<R>) -> Option<Self> {
        let material = |color: Color| {
            (
                position.pieces(color).count(),
                position.kings(color).count(),
            )
        };
        let (white, black) = (material(Color::White), material(Color::Black));
        let (pieces, kings) = if white == (1, 1) {
            black
        } else if black == (1, 1) {
            white
        } else {
            return None;
        };
        match (pieces, kings) {
            (_, 0) => None,
            _ if R::DRAW_RULES.kings_against_king.is_some()
                && kings == pieces
                && pieces >= KINGS_AGAINST_KING_MIN =>
            {
                Some(LoneKingEnding::KingsAgainstKing)
            }
            (1 | 2, _) => Some(LoneKingEnding::TwoAgainstKing),
            (3, _) => Some(LoneKingEnding::ThreeAgainstKing),
            _ => None,
        }
    }
}

/// Fewest kings of the strong side in the kings-against-a-lone-king ending (FMJD-64 art. 7.2.4:
/// "three kings (or more)"; Pool: three kings).
const KINGS_AGAINST_KING_MIN: u32 = 3;

/// Pieces of the strong side against a lone king on the long diagonal (FMJD-64 art. 7.2.7).
const LONG_DIAGONAL_STRONG_PIECES: u32 = 3;

/// The long diagonal ("main line", FMJD art. 2.4): from White's bottom-left corner to Black's
/// top-right corner (46-5 on the 10x10 board, a1-h8 on 8x8).
pub fn long_diagonal<R: Rules>() -> BitsOf<R> {
    let corner = (R::Geometry::SQUARES - R::Geometry::HALF + 1..=R::Geometry::SQUARES)
        .filter_map(R::Geometry::bit_of)
        .find(|&bit| R::Geometry::FILE_OF_BIT[bit as usize] == 0)
        .expect("the bottom row has a square on the left edge");
    R::Geometry::RAYS[corner as usize][Direction::UpRight as usize] | BitsOf::<R>::bit(corner)
}

/// Whether three pieces, at least one a king, play against a lone king that stands on the long
/// diagonal (FMJD-64 art. 7.2.7).
fn lone_king_on_long_diagonal<R: Rules>(position: &Position<R>) -> bool {
    let is_lone =
        |color: Color| position.pieces(color).count() == 1 && position.kings(color).count() == 1;
    Color::BOTH.into_iter().any(|lone| {
        let strong = !lone;
        is_lone(lone)
            && position.pieces(strong).count() == LONG_DIAGONAL_STRONG_PIECES
            && position.kings(strong).any()
            && (position.kings(lone) & long_diagonal::<R>()).any()
    })
}

/// Whether each side has a single piece, man or king ([`DrawRules::one_against_one`]).
fn one_against_one<R: Rules>(position: &Position<R>) -> bool {
    Color::BOTH
        .into_iter()
        .all(|color| position.pieces(color).count() == 1)
}

/// The limit, in plies, of [`DrawRules::kings_on_both_sides`] for a position, if it holds there.
fn kings_on_both_sides_limit<R: Rules>(position: &Position<R>) -> Option<u16> {
    let limits = R::DRAW_RULES.kings_on_both_sides;
    if limits.is_empty() || Color::BOTH.iter().any(|&c| position.kings(c).is_empty()) {
        return None;
    }
    let pieces = position.occupied().count();
    limits
        .iter()
        .find(|limit| (limit.min_pieces..=limit.max_pieces).contains(&pieces))
        .map(|limit| saturate(2 * limit.moves))
}

/// Why a game is drawn by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// FMJD art. 6.1: the same position for the third time with the same player to move.
    Repetition,
    /// FMJD art. 6.2: 25 successive moves by each player with only kings moving and no capture.
    KingMoves,
    /// FMJD art. 6.3: 16 further moves each in a three-pieces-against-lone-king ending.
    ThreeAgainstKing,
    /// FMJD art. 6.4: 5 further moves each in a two-pieces-against-lone-king ending.
    TwoAgainstKing,
    /// Portuguese art. 3.2.a: 20 moves each without a capture.
    CaptureFree,
    /// FMJD-64 art. 7.2.4 (Pool likewise): three kings or more have not caught a lone king in
    /// time.
    KingsAgainstKing,
    /// FMJD-64 art. 7.2.7: three pieces have not won against a lone king on the long diagonal in
    /// time.
    LongDiagonal,
    /// FMJD-64 art. 7.2.6: kings on both sides and no change of material in time.
    KingsOnBothSides,
    /// Turkish as pydraughts plays it: one piece against one, and no capture in time.
    OneAgainstOne,
}

impl DrawReason {
    /// The article of the rulebook: FMJD's for the rules of art. 6 (which the other variants'
    /// counterparts share), the variant's own for the others; `None` for a rule taken from an
    /// implementation rather than a rulebook.
    pub const fn article(self) -> Option<&'static str> {
        Some(match self {
            DrawReason::Repetition => "6.1",
            DrawReason::KingMoves => "6.2",
            DrawReason::ThreeAgainstKing => "6.3",
            DrawReason::TwoAgainstKing => "6.4",
            DrawReason::CaptureFree => "3.2.a",
            DrawReason::KingsAgainstKing => "7.2.4",
            DrawReason::LongDiagonal => "7.2.7",
            DrawReason::KingsOnBothSides => "7.2.6",
            DrawReason::OneAgainstOne => return None,
        })
    }

    /// The rulebook of [`Self::article`].
    pub const fn rulebook(self) -> &'static str {
        match self {
            DrawReason::Repetition
            | DrawReason::KingMoves
            | DrawReason::ThreeAgainstKing
            | DrawReason::TwoAgainstKing => "FMJD",
            DrawReason::CaptureFree => "Portuguese rules",
            DrawReason::KingsAgainstKing
            | DrawReason::LongDiagonal
            | DrawReason::KingsOnBothSides => "FMJD-64",
            DrawReason::OneAgainstOne => "pydraughts",
        }
    }

    /// Where the rule comes from, as the counters and results write it: `FMJD art. 6.1`.
    pub fn source(self) -> String {
        match self.article() {
            Some(article) => format!("{} art. {article}", self.rulebook()),
            None => self.rulebook().to_string(),
        }
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            DrawReason::Repetition => "third repetition of the position",
            DrawReason::KingMoves => "king moves only, without man move or capture",
            DrawReason::ThreeAgainstKing => "move limit with three pieces against a lone king",
            DrawReason::TwoAgainstKing => "move limit with two pieces against a lone king",
            DrawReason::CaptureFree => "move limit without a capture",
            DrawReason::KingsAgainstKing => {
                "move limit with three kings or more against a lone king"
            }
            DrawReason::LongDiagonal => "move limit against a lone king on the long diagonal",
            DrawReason::KingsOnBothSides => "move limit with kings on both sides",
            DrawReason::OneAgainstOne => "move limit with one piece against one",
        };
        write!(f, "{what} ({})", self.source())
    }
}

/// The draw-rule counters of a position in a game (art. 6.2-6.4): a few bytes, `Copy`, carried
/// along search paths and updated by [`DrawCounters::after`] in O(1) without allocation.
///
/// Repetition (art. 6.1) needs the history of positions, which [`crate::game::Game`] and the
/// search keep; these counters say how far back it can reach ([`Self::reversible_plies`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawCounters<R: Rules> {
    reversible: u16,
    ending_plies: u16,
    ending: Option<LoneKingEnding>,
    /// Plies since the last capture ([`DrawRules::capture_free_moves`]; 0 without the rule).
    capture_free: u16,
    /// Plies since the lone king stands on the long diagonal in art. 7.2.7's material.
    long_diagonal: Option<u16>,
    /// Plies since the last capture or promotion ([`DrawRules::kings_on_both_sides`]).
    same_material: u16,
    /// The art. 7.2.6 limit in plies for the current material, if it holds.
    same_material_limit: Option<u16>,
    /// Plies since each side was left with a single piece ([`DrawRules::one_against_one`]).
    single_pieces: Option<u16>,
    /// By player: the king that made the player's last quiet moves in a row, and their number
    /// ([`crate::rules::RuleSet::max_same_king_moves`]; never counted without the rule).
    king_runs: [KingRun; 2],
    rules: PhantomData<R>,
}

/// Quiet moves in a row by one king: the square it stands on and how many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct KingRun {
    bit: u8,
    moves: u8,
}

impl<R: Rules> DrawCounters<R> {
    /// The counters of a position that starts a game record: nothing counted yet (the history
    /// before a set-up position is unknown and taken to be empty).
    #[inline]
    pub fn new(position: &Position<R>) -> Self {
        Self::with_plies(position, 0, 0)
    }

    /// Counters with given counts, e.g. for a set-up position whose history is known, or a
    /// test. `ending_plies` is ignored (0) when the position is not a lone-king ending. The other
    /// variants' counts (moves without a capture, unchanged material, the lone king's stay on the
    /// long diagonal, one piece against one) start at `reversible_plies` too: that many plies without a capture or man
    /// move are also that many without a capture or promotion.
    pub fn with_plies(position: &Position<R>, reversible_plies: u32, ending_plies: u32) -> Self {
        let ending = LoneKingEnding::of(position);
        let rules = R::DRAW_RULES;
        let reversible = saturate(reversible_plies);
        DrawCounters {
            reversible,
            ending_plies: if ending.is_some() {
                saturate(ending_plies)
            } else {
                0
            },
            ending,
            capture_free: if rules.capture_free_moves.is_some() {
                reversible
            } else {
                0
            },
            long_diagonal: (rules.lone_king_on_long_diagonal.is_some()
                && lone_king_on_long_diagonal(position))
            .then_some(reversible),
            same_material: if rules.kings_on_both_sides.is_empty() {
                0
            } else {
                reversible
            },
            same_material_limit: kings_on_both_sides_limit(position),
            single_pieces: (rules.one_against_one.is_some() && one_against_one(position))
                .then_some(reversible),
            king_runs: [KingRun::default(); 2],
            rules: PhantomData,
        }
    }

    /// The counters after `mv`, which led to `after`. O(1): the material is only looked at when the
    /// move captures or promotes, the only moves that change it.
    #[inline]
    #[must_use]
    pub fn after(self, mv: &Move<BitsOf<R>>, after: &Position<R>) -> Self {
        // Art. 6.2: a capture or a man move (promotions included) ends a run of king moves.
        let reversible = if mv.is_irreversible() {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        let (ending, ending_plies) = if mv.is_capture() || mv.is_promotion() {
            let ending = LoneKingEnding::of(after);
            if ending == self.ending {
                // Same article: the count runs on through captures and promotions.
                (ending, self.ending_plies.saturating_add(1))
            } else {
                // A new article (or none): its count starts with this position.
                (ending, 0)
            }
        } else if self.ending.is_some() {
            (self.ending, self.ending_plies.saturating_add(1))
        } else {
            (None, 0)
        };
        debug_assert_eq!(ending, LoneKingEnding::of(after), "ending tracks material");
        let rules: DrawRules = R::DRAW_RULES;
        // Portuguese 3.2.a: only a capture restarts the count.
        let capture_free = match rules.capture_free_moves {
            Some(_) if !mv.is_capture() => self.capture_free.saturating_add(1),
            _ => 0,
        };
        // Art. 7.2.7: the count runs while the lone king stays on the diagonal in that material.
        let long_diagonal = match rules.lone_king_on_long_diagonal {
            Some(_) if lone_king_on_long_diagonal(after) => Some(
                self.long_diagonal
                    .map_or(0, |plies| plies.saturating_add(1)),
            ),
            _ => None,
        };
        // Art. 7.2.6: a capture or a promotion changes the material and restarts the count.
        let (same_material, same_material_limit) = if rules.kings_on_both_sides.is_empty() {
            (0, None)
        } else if mv.is_capture() || mv.is_promotion() {
            (0, kings_on_both_sides_limit(after))
        } else {
            (
                self.same_material.saturating_add(1),
                self.same_material_limit,
            )
        };
        // One piece against one: only a capture changes the number of pieces.
        let single_pieces = match rules.one_against_one {
            Some(_) if mv.is_capture() => one_against_one(after).then_some(0),
            Some(_) => self.single_pieces.map(|plies| plies.saturating_add(1)),
            None => None,
        };
        let mut king_runs = self.king_runs;
        if R::MAX_SAME_KING_MOVES.is_some() {
            let mover = (!after.side()).index();
            king_runs[mover] = if mv.is_king_move() && !mv.is_capture() {
                let run = self.king_runs[mover];
                let moves = if run.moves > 0 && run.bit == mv.from {
                    run.moves.saturating_add(1)
                } else {
                    1
                };
                KingRun { bit: mv.to, moves }
            } else {
                KingRun::default()
            };
        }
        DrawCounters {
            reversible,
            ending_plies,
            ending,
            capture_free,
            long_diagonal,
            same_material,
            same_material_limit,
            single_pieces,
            king_runs,
            rules: PhantomData,
        }
    }

    /// Whether the three-moves king rule lets the player to move in `position` play `mv`: not a
    /// quiet move of a king that has made the variant's limit of quiet moves in a row while its
    /// player also has men. Captures are always allowed. Always true without the rule.
    #[inline(always)]
    pub fn allows(&self, position: &Position<R>, mv: &Move<BitsOf<R>>) -> bool {
        let Some(limit) = R::MAX_SAME_KING_MOVES else {
            return true;
        };
        if !mv.is_king_move() || mv.is_capture() {
            return true;
        }
        let us = position.side();
        let run = self.king_runs[us.index()];
        !(u32::from(run.moves) >= limit && run.bit == mv.from && position.men(us).any())
    }

    /// Removes from `list`, the legal moves of `position`, those the three-moves king rule
    /// forbids (see [`Self::allows`]). Nothing to do, and no work, without the rule.
    #[inline(always)]
    pub fn restrict(&self, position: &Position<R>, list: &mut MoveList<BitsOf<R>>) {
        if R::MAX_SAME_KING_MOVES.is_none() || list.iter().all(|mv| self.allows(position, mv)) {
            return;
        }
        let mut kept = MoveList::new();
        for mv in list.iter().filter(|mv| self.allows(position, mv)) {
            kept.push(*mv);
        }
        *list = kept;
    }

    /// Plies since the last capture or man move (art. 6.2's count, and the reach of repetition:
    /// only the positions this many plies back and later can equal the current one).
    #[inline(always)]
    pub fn reversible_plies(&self) -> u32 {
        u32::from(self.reversible)
    }

    /// The lone-king ending the position is in, if any (art. 6.3 or 6.4).
    #[inline(always)]
    pub fn ending(&self) -> Option<LoneKingEnding> {
        self.ending
    }

    /// Plies played since the current lone-king ending arose (0 outside such endings).
    #[inline(always)]
    pub fn ending_plies(&self) -> u32 {
        u32::from(self.ending_plies)
    }

    /// The limit, in plies, of the rule governing the current ending, if the variant has it.
    #[inline]
    fn ending_limit(&self) -> Option<(u32, DrawReason)> {
        let rules = R::DRAW_RULES;
        match self.ending? {
            LoneKingEnding::ThreeAgainstKing => rules
                .three_against_king
                .map(|moves| (2 * moves, DrawReason::ThreeAgainstKing)),
            LoneKingEnding::TwoAgainstKing => rules
                .two_against_king
                .map(|moves| (2 * moves, DrawReason::TwoAgainstKing)),
            LoneKingEnding::KingsAgainstKing => rules
                .kings_against_king
                .map(|moves| (2 * moves, DrawReason::KingsAgainstKing)),
        }
    }

    /// The other variants' counter rules (see the module documentation) that hold in the
    /// position, as (plies counted, limit in plies, rule).
    #[inline]
    fn other_counts(&self) -> [Option<(u32, u32, DrawReason)>; 4] {
        let rules = R::DRAW_RULES;
        [
            rules.capture_free_moves.map(|moves| {
                (
                    u32::from(self.capture_free),
                    2 * moves,
                    DrawReason::CaptureFree,
                )
            }),
            rules
                .lone_king_on_long_diagonal
                .zip(self.long_diagonal)
                .map(|(moves, plies)| (u32::from(plies), 2 * moves, DrawReason::LongDiagonal)),
            self.same_material_limit.map(|limit| {
                (
                    u32::from(self.same_material),
                    u32::from(limit),
                    DrawReason::KingsOnBothSides,
                )
            }),
            rules
                .one_against_one
                .zip(self.single_pieces)
                .map(|(moves, plies)| (u32::from(plies), 2 * moves, DrawReason::OneAgainstOne)),
        ]
    }

    /// The counter rule (art. 6.2, 6.3 or 6.4) by which the position is drawn, if any.
    ///
    /// The draw takes effect in this position, after the move that completed the count. A move that
    /// captured the last piece or blocked the opponent has already won the game: adjudication
    /// ([`crate::game::adjudicate`]) looks at that first.
    #[inline]
    pub fn draw_by_counters(&self) -> Option<DrawReason> {
        if let Some((limit, reason)) = self.ending_limit()
            && self.ending_plies() >= limit
        {
            return Some(reason);
        }
        match R::DRAW_RULES.king_moves {
            Some(moves) if self.reversible_plies() >= 2 * moves => Some(DrawReason::KingMoves),
            _ => self
                .other_counts()
                .into_iter()
                .flatten()
                .find(|&(count, limit, _)| count >= limit)
                .map(|(_, _, reason)| reason),
        }
    }

    /// Plies left before the rule of the current lone-king ending (art. 6.3 or 6.4) draws the game,
    /// or `None` outside such endings (or when the variant has no such rule).
    #[inline]
    pub fn plies_until_ending_draw(&self) -> Option<u32> {
        self.ending_limit()
            .map(|(limit, _)| limit.saturating_sub(self.ending_plies()))
    }

    /// Plies that may still be played before a counter rule draws the game, or `None` when no
    /// counter rule can end it from here without a capture or man move first.
    ///
    /// `Some(0)`: drawn now. `Some(n)`: the position after `n` more plies is drawn unless a capture
    /// or promotion restarts or ends the counts first. A win must be completed within these `n`
    /// plies (the capture of the last piece, or a blockade, on ply `n` itself still wins).
    #[inline]
    pub fn plies_until_draw(&self) -> Option<u32> {
        let king_moves = R::DRAW_RULES
            .king_moves
            .map(|moves| (2 * moves).saturating_sub(self.reversible_plies()));
        let ending = self.plies_until_ending_draw();
        let others = self
            .other_counts()
            .into_iter()
            .flatten()
            .map(|(count, limit, _)| limit.saturating_sub(count));
        [king_moves, ending]
            .into_iter()
            .flatten()
            .chain(others)
            .min()
    }
}

/// A rule as the counters' display names it: `art. 6.3`, or the source of a rule without one.
fn label(reason: DrawReason) -> String {
    match reason.article() {
        Some(article) => format!("art. {article}"),
        None => reason.rulebook().to_string(),
    }
}

fn saturate(value: u32) -> u16 {
    u16::try_from(value).unwrap_or(u16::MAX)
}

impl<R: Rules> fmt::Debug for DrawCounters<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DrawCounters")
            .field("reversible", &self.reversible)
            .field("ending", &self.ending)
            .field("ending_plies", &self.ending_plies)
            .field("capture_free", &self.capture_free)
            .field("long_diagonal", &self.long_diagonal)
            .field("same_material", &self.same_material)
            .field("same_material_limit", &self.same_material_limit)
            .field("single_pieces", &self.single_pieces)
            .finish()
    }
}

impl<R: Rules> fmt::Display for DrawCounters<R> {
    /// The counters' state as `analyze` shows it: `king moves 12/50 plies, art. 6.3 7/32 plies`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match R::DRAW_RULES.king_moves {
            Some(moves) => write!(
                f,
                "art. 6.2 {}/{} plies",
                self.reversible_plies(),
                2 * moves
            )?,
            None => write!(f, "reversible {} plies", self.reversible_plies())?,
        }
        if let Some((limit, reason)) = self.ending_limit() {
            write!(
                f,
                ", {} {}/{} plies",
                label(reason),
                self.ending_plies(),
                limit
            )?;
        }
        for (count, limit, reason) in self.other_counts().into_iter().flatten() {
            write!(f, ", {} {count}/{limit} plies", label(reason))?;
        }
        Ok(())
    }
}
