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

use crate::core::{BitBoard, Color};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
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
            (1 | 2, _) => Some(LoneKingEnding::TwoAgainstKing),
            (3, _) => Some(LoneKingEnding::ThreeAgainstKing),
            _ => None,
        }
    }
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
}

impl DrawReason {
    /// The article of the FMJD rules.
    pub const fn article(self) -> &'static str {
        match self {
            DrawReason::Repetition => "6.1",
            DrawReason::KingMoves => "6.2",
            DrawReason::ThreeAgainstKing => "6.3",
            DrawReason::TwoAgainstKing => "6.4",
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
        };
        write!(f, "{what} (FMJD art. {})", self.article())
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
    rules: PhantomData<R>,
}

impl<R: Rules> DrawCounters<R> {
    /// The counters of a position that starts a game record: nothing counted yet (the history
    /// before a set-up position is unknown and taken to be empty).
    #[inline]
    pub fn new(position: &Position<R>) -> Self {
        Self::with_plies(position, 0, 0)
    }

    /// Counters with given counts, e.g. for a set-up position whose history is known, or a
    /// test. `ending_plies` is ignored (0) when the position is not a lone-king ending.
    pub fn with_plies(position: &Position<R>, reversible_plies: u32, ending_plies: u32) -> Self {
        let ending = LoneKingEnding::of(position);
        DrawCounters {
            reversible: saturate(reversible_plies),
            ending_plies: if ending.is_some() {
                saturate(ending_plies)
            } else {
                0
            },
            ending,
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
        DrawCounters {
            reversible,
            ending_plies,
            ending,
            rules: PhantomData,
        }
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
        }
    }

    /// The counter rule (art. 6.2, 6.3 or 6.4) by which the position is drawn, if any.
    ///
    /// The draw takes effect in this position, after the move that completed the count. A move that
    /// captured the last piece or blocked the opponent has already won the game: adjudication
    /// ([`crate::game::adjudicate`]) looks at that first.
    #[inline]
    pub fn draw_by_counters(&self) -> Option<DrawReason> {
        if let Some((limit, reason)) = self.ending_limit() {
            if self.ending_plies() >= limit {
                return Some(reason);
            }
        }
        match R::DRAW_RULES.king_moves {
            Some(moves) if self.reversible_plies() >= 2 * moves => Some(DrawReason::KingMoves),
            _ => None,
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
        match (king_moves, ending) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
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
                ", art. {} {}/{} plies",
                reason.article(),
                self.ending_plies(),
                limit
            )?;
        }
        Ok(())
    }
}
