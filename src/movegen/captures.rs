//! Capture generation (FMJD art. 4, and the variants' own capture rules).
//!
//! A depth-first search over capture routes. While a capture is in progress the captured pieces
//! stay on the board (art. 4.11): they block the capturing piece and cannot be jumped again
//! (art. 4.8), and the capturing piece's own origin counts as empty, so a king may pass over it or
//! end there. A route is recorded only when it cannot continue (a capture must be completed,
//! art. 4.10). Under a precedence rule (the majority rule, art. 4.13, and the national orders)
//! only the routes of the highest precedence are kept, and routes with the same origin,
//! destination and captured set count once.
//!
//! A flying king that jumps a piece may stop on any empty square behind it (art. 4.3), but where a
//! continuation exists it must stop where it can continue. Continuing straight on is the same
//! route whichever of those squares it "passed", so that continuation is searched once, from the
//! last of them; turning is searched from each.
//!
//! Variant behaviours, each behind a [`Rules`] constant so that it costs nothing elsewhere: men
//! that may not take kings (Italian), kings that land right behind the piece they take (Thai,
//! German rule sheets), a king that must halt behind a king it takes last (Killer), pieces lifted as they are
//! jumped (Thai, Turkish), captures along rows and columns as well as diagonals (Frisian) or
//! instead of them (Turkish), no turning back within a capture (Turkish), and the
//! precedence orders of [`CapturePrecedence`].
//!
//! The search is written once over the families of directions ([`DirectionFamily`]): diagonals
//! and, where the variant has them, rows and columns. At every turn of a capture a piece may go on in any direction but
//! straight back, in either family.

use super::{Sides, forward, king_reach, nearest, orthogonal_forward};
use crate::core::{BitBoard, Direction, DirectionFamily, Geometry, Orthogonal};
use crate::moves::{Move, MoveList};
use crate::rules::{BitsOf, CapturePrecedence, Rules};

/// Captured pieces from which on duplicate routes become possible: two routes through the same
/// set of pieces in a different order need a closed loop, which takes at least three pieces.
const DUPLICATES_FROM_PIECES: u32 = 3;

/// The same when pieces are lifted as they are jumped: a king may then come back along its line,
/// and two pieces can be taken in either order ending on one square. Also with captures along
/// rows and columns: a flying king that takes two pieces may reach the second one from two
/// landing squares behind the first, once along a diagonal and once along a row or column.
const DUPLICATES_FROM_PIECES_TWO: u32 = 2;

/// Italian precedence, "the king met earliest": the `i`-th captured piece being a king sets bit
/// `KING_ORDER_TOP - i` of the route's key, so an earlier king makes a larger key. A capture takes
/// at most 12 pieces on 8x8, so 16 bits are plenty.
const KING_ORDER_TOP: u32 = 15;

/// Key layout of the precedence orders: number of pieces above number of kings (Spanish), and for
/// Italian pieces, then "with a king", then kings, then the king order.
const SPANISH_PIECES_SHIFT: u32 = 8;
const ITALIAN_PIECES_SHIFT: u32 = 24;
const ITALIAN_WITH_KING_SHIFT: u32 = 20;
const ITALIAN_KINGS_SHIFT: u32 = 16;

/// Frisian value of a capture, in units: a man is worth `FRISIAN_MAN_UNITS`, a king twice that
/// less one unit. Any number of kings a capture can take (at most 20) stays below the unit count,
/// so n kings are worth more than 2n-1 men and less than 2n men, as the rules say.
const FRISIAN_MAN_UNITS: u32 = 32;

/// Frisian key layout: the value above the "by a king" bit (on equal value a king must capture).
const FRISIAN_VALUE_SHIFT: u32 = 1;

/// The square next to `at` in `direction`, as a set (empty or off the board when there is none;
/// a diagonal step off the board lands on a ghost bit, which no piece set holds).
#[inline(always)]
fn neighbour<G: Geometry, F: DirectionFamily>(at: u32, direction: F) -> G::Bits {
    if F::WRAPS {
        let ray = direction.ray::<G>(at);
        if ray.is_empty() {
            G::Bits::EMPTY
        } else {
            G::Bits::bit(nearest::<G>(ray, direction))
        }
    } else {
        G::Bits::bit(at).shift(direction.delta::<G>())
    }
}

/// Whether a variant's capture rules look at which opponent pieces are kings; when they do not,
/// the generator does not even collect them.
pub(super) const fn needs_opponent_kings<R: Rules>() -> bool {
    !R::MEN_CAPTURE_KINGS
        || R::KING_HALTS_BEHIND_KING
        || matches!(
            R::CAPTURE_PRECEDENCE,
            CapturePrecedence::MostPiecesThenKings
                | CapturePrecedence::Italian
                | CapturePrecedence::Frisian
        )
}

/// The pieces a man may jump.
#[inline(always)]
fn man_targets<R: Rules>(sides: &Sides<BitsOf<R>>) -> BitsOf<R> {
    if R::MEN_CAPTURE_KINGS {
        sides.opponents
    } else {
        sides.opponents & !sides.opponent_kings
    }
}

/// The directions along rows and columns in which men capture: all four, or forward and sideways
/// where men do not capture backwards (Turkish).
#[inline(always)]
fn man_orthogonals<R: Rules, const WHITE: bool>() -> &'static [Orthogonal] {
    if R::MEN_CAPTURE_BACKWARDS {
        &Orthogonal::ALL
    } else if WHITE {
        const { &orthogonal_forward(true) }
    } else {
        const { &orthogonal_forward(false) }
    }
}

/// The men of the side to move that can capture, found with whole-board shifts.
#[inline(always)]
fn capturing_men<R: Rules, const WHITE: bool>(sides: &Sides<BitsOf<R>>) -> BitsOf<R> {
    let mut capturers = BitsOf::<R>::EMPTY;
    if sides.men.is_empty() {
        return capturers;
    }
    let directions: &[Direction] = if !R::DIAGONAL_PLAY {
        &[]
    } else if R::MEN_CAPTURE_BACKWARDS {
        &Direction::ALL
    } else {
        &forward(WHITE)
    };
    let targets = man_targets::<R>(sides);
    for &direction in directions {
        let delta = R::Geometry::delta(direction);
        capturers |= sides.men & targets.shift(-delta) & sides.empty.shift(-2 * delta);
    }
    if R::ORTHOGONAL_CAPTURES {
        for &direction in man_orthogonals::<R, WHITE>() {
            let delta = direction.delta::<R::Geometry>();
            capturers |= sides.men
                & direction.short_jump_origins::<R::Geometry>()
                & targets.shift(-delta)
                & sides.empty.shift(-2 * delta);
        }
    }
    capturers
}

/// Whether the king on `king` can capture in `direction`.
#[inline(always)]
fn king_can_capture_along<R: Rules, F: DirectionFamily>(
    sides: &Sides<BitsOf<R>>,
    king: u32,
    direction: F,
) -> bool {
    let jumped = if R::FLYING_KINGS {
        let blockers = direction.ray::<R::Geometry>(king) & !sides.empty;
        if blockers.is_empty() {
            return false;
        }
        BitsOf::<R>::bit(nearest::<R::Geometry>(blockers, direction))
    } else {
        neighbour::<R::Geometry, F>(king, direction)
    };
    if (jumped & sides.opponents).is_empty() {
        return false;
    }
    let behind = if F::WRAPS {
        neighbour::<R::Geometry, F>(jumped.lowest(), direction)
    } else {
        jumped.shift(direction.delta::<R::Geometry>())
    };
    (behind & sides.empty).any()
}

/// Whether the king on `king` can capture.
#[inline(always)]
fn king_can_capture<R: Rules>(sides: &Sides<BitsOf<R>>, king: u32) -> bool {
    (R::DIAGONAL_PLAY
        && Direction::ALL
            .into_iter()
            .any(|direction| king_can_capture_along::<R, _>(sides, king, direction)))
        || (R::ORTHOGONAL_CAPTURES
            && Orthogonal::ALL
                .into_iter()
                .any(|direction| king_can_capture_along::<R, _>(sides, king, direction)))
}

/// Whether the side to move has a capture.
#[inline(always)]
pub(super) fn exists<R: Rules, const WHITE: bool>(sides: &Sides<BitsOf<R>>) -> bool {
    capturing_men::<R, WHITE>(sides).any()
        || sides
            .kings
            .iter()
            .any(|king| king_can_capture::<R>(sides, king))
}

/// Appends the legal captures of the side to move to `list`. With `keep_duplicates`, routes that
/// differ only in the order of the captured pieces are all kept.
#[inline(never)]
pub(super) fn generate<R: Rules, const WHITE: bool>(
    sides: &Sides<BitsOf<R>>,
    list: &mut MoveList<BitsOf<R>>,
    keep_duplicates: bool,
) {
    const {
        assert!(
            !(R::ORTHOGONAL_CAPTURES && R::CROWN_DURING_CAPTURE),
            "crowning during an orthogonal capture is not supported"
        );
    }
    let mut search = Search::<R, WHITE> {
        list,
        targets: sides.opponents,
        opponent_kings: sides.opponent_kings,
        empty: sides.empty,
        promotion_row: sides.promotion_row,
        from: 0,
        flags: 0,
        best: if R::CAPTURE_PRECEDENCE == CapturePrecedence::MostPieces {
            1
        } else {
            0
        },
        king_order: 0,
        keep_duplicates,
    };
    if R::CAPTURE_PRECEDENCE == CapturePrecedence::KingsFirst {
        search.kings(sides);
        if search.list.is_empty() {
            search.men(sides);
        }
    } else {
        search.men(sides);
        search.kings(sides);
    }
}

struct Search<'a, R: Rules, const WHITE: bool> {
    list: &'a mut MoveList<BitsOf<R>>,
    /// Opponent pieces, including those already jumped in this route.
    targets: BitsOf<R>,
    /// Opponent kings, for the variants whose rules look at them (see [`needs_opponent_kings`]).
    opponent_kings: BitsOf<R>,
    /// Empty squares, with the capturing piece's origin vacated.
    empty: BitsOf<R>,
    promotion_row: BitsOf<R>,
    from: u32,
    flags: u8,
    /// Precedence key of the recorded routes (see [`Search::key`]).
    best: u32,
    /// Italian precedence: which captures of the current route took kings.
    king_order: u32,
    keep_duplicates: bool,
}

impl<R: Rules, const WHITE: bool> Search<'_, R, WHITE> {
    fn men(&mut self, sides: &Sides<BitsOf<R>>) {
        for from in capturing_men::<R, WHITE>(sides).iter() {
            self.from = from;
            self.flags = 0;
            self.empty = sides.empty | BitsOf::<R>::bit(from);
            self.man(from, BitsOf::<R>::EMPTY);
        }
    }

    fn kings(&mut self, sides: &Sides<BitsOf<R>>) {
        for from in sides.kings.iter() {
            if !king_can_capture::<R>(sides, from) {
                continue;
            }
            self.from = from;
            self.flags = Move::<BitsOf<R>>::KING;
            self.empty = sides.empty | BitsOf::<R>::bit(from);
            if R::DIAGONAL_PLAY {
                for direction in Direction::ALL {
                    self.king(from, direction, BitsOf::<R>::EMPTY);
                }
            }
            if R::ORTHOGONAL_CAPTURES {
                for direction in Orthogonal::ALL {
                    self.king(from, direction, BitsOf::<R>::EMPTY);
                }
            }
        }
    }

    /// The opponent pieces a man may jump.
    #[inline(always)]
    fn man_targets(&self) -> BitsOf<R> {
        if R::MEN_CAPTURE_KINGS {
            self.targets
        } else {
            self.targets & !self.opponent_kings
        }
    }

    /// The empty squares in the middle of a route that has taken `captured`.
    #[inline(always)]
    fn empty_now(&self, captured: BitsOf<R>) -> BitsOf<R> {
        if R::CAPTURED_REMOVED_AT_ONCE {
            self.empty | captured
        } else {
            self.empty
        }
    }

    /// Notes for the Italian order that the piece on `jumped`, the last of `captured`, is taken;
    /// returns the order to restore when the search backs up (see [`Search::restore_order`]).
    #[inline(always)]
    fn note_taken(&mut self, jumped: BitsOf<R>, captured: BitsOf<R>) -> u32 {
        let saved = self.king_order;
        if R::CAPTURE_PRECEDENCE == CapturePrecedence::Italian
            && (jumped & self.opponent_kings).any()
        {
            self.king_order |= 1 << (KING_ORDER_TOP + 1 - captured.count());
        }
        saved
    }

    /// Backs up the Italian order (nothing to do under the other precedence rules).
    #[inline(always)]
    fn restore_order(&mut self, saved: u32) {
        if R::CAPTURE_PRECEDENCE == CapturePrecedence::Italian {
            self.king_order = saved;
        }
    }

    /// Continues a man's capture from `at`, having taken `captured`. Returns whether it captured.
    fn man(&mut self, at: u32, captured: BitsOf<R>) -> bool {
        let mut continued = false;
        let directions: &[Direction] = if !R::DIAGONAL_PLAY {
            &[]
        } else if R::MEN_CAPTURE_BACKWARDS {
            &Direction::ALL
        } else {
            &forward(WHITE)
        };
        for &direction in directions {
            continued |= self.man_jump(at, direction, captured);
        }
        if R::ORTHOGONAL_CAPTURES {
            for &direction in man_orthogonals::<R, WHITE>() {
                continued |= self.man_jump(at, direction, captured);
            }
        }
        continued
    }

    /// A man's jump from `at` over its neighbour in `direction`, and everything after it.
    /// Returns whether the jump exists.
    #[inline(always)]
    fn man_jump<F: DirectionFamily>(&mut self, at: u32, direction: F, captured: BitsOf<R>) -> bool {
        if F::WRAPS && !direction.short_jump_origins::<R::Geometry>().has(at) {
            return false;
        }
        let delta = direction.delta::<R::Geometry>();
        let over = BitsOf::<R>::bit(at).shift(delta) & self.man_targets() & !captured;
        if over.is_empty() {
            return false;
        }
        let landing = over.shift(delta) & self.empty_now(captured);
        if landing.is_empty() {
            return false;
        }
        let to = landing.lowest();
        let captured = captured | over;
        let saved_order = self.note_taken(over, captured);
        if R::CROWN_DURING_CAPTURE && self.promotion_row.has(to) {
            let man_flags = self.flags;
            self.flags |= Move::<BitsOf<R>>::PROMOTION;
            if !self.king_turns_or_straight(to, direction, captured) {
                self.record(to, captured, 0);
            }
            self.flags = man_flags;
        } else if !self.man(to, captured) {
            let flags = if self.promotion_row.has(to) {
                Move::<BitsOf<R>>::PROMOTION
            } else {
                0
            };
            self.record(to, captured, flags);
        }
        self.restore_order(saved_order);
        true
    }

    /// A crowned man continuing as a king from `at` after arriving in `direction`: any direction
    /// but straight back. Returns whether it captured.
    fn king_turns_or_straight<F: DirectionFamily>(
        &mut self,
        at: u32,
        direction: F,
        captured: BitsOf<R>,
    ) -> bool {
        let [left, right] = direction.turns();
        let mut continued = self.king(at, left, captured);
        continued |= self.king(at, right, captured);
        continued |= self.king(at, direction, captured);
        if R::CAPTURED_REMOVED_AT_ONCE && !R::NO_TURNING_BACK {
            continued |= self.king(at, direction.opposite(), captured);
        }
        continued
    }

    /// Tries a king capture from `at` along `direction`, having taken `captured`; searches and
    /// records every completion. Returns whether a piece could be taken in that direction.
    fn king<F: DirectionFamily>(&mut self, at: u32, direction: F, captured: BitsOf<R>) -> bool {
        let empty = self.empty_now(captured);
        let jumped = if R::FLYING_KINGS {
            let ray = direction.ray::<R::Geometry>(at);
            let blockers = ray & !empty;
            if blockers.is_empty() {
                return false;
            }
            nearest::<R::Geometry>(blockers, direction)
        } else {
            let next = neighbour::<R::Geometry, F>(at, direction);
            if next.is_empty() || (next & empty).any() {
                return false;
            }
            next.lowest()
        };
        if !(self.targets & !captured).has(jumped) {
            return false;
        }
        let landings = if R::FLYING_KINGS && !R::KING_LANDS_BEHIND {
            king_reach::<R::Geometry>(jumped, direction, empty)
        } else {
            neighbour::<R::Geometry, F>(jumped, direction) & empty
        };
        if landings.is_empty() {
            return false;
        }
        let jumped_set = BitsOf::<R>::bit(jumped);
        let captured = captured | jumped_set;
        let saved_order = self.note_taken(jumped_set, captured);
        let last = nearest::<R::Geometry>(landings, direction.opposite());
        let straight_on = self.can_take_from(last, direction, captured);
        let mut continued = straight_on;
        let [left, right] = direction.turns();
        for landing in landings.iter() {
            continued |= self.king(landing, left, captured);
            continued |= self.king(landing, right, captured);
            if R::ORTHOGONAL_CAPTURES && R::DIAGONAL_PLAY {
                for across in F::Across::ALL {
                    continued |= self.king(landing, across, captured);
                }
            }
        }
        if R::CAPTURED_REMOVED_AT_ONCE && !R::NO_TURNING_BACK {
            // The jumped piece is gone: the king may turn back along its line. Every landing
            // square lies on that line, so searching from one of them covers them all.
            continued |= self.king(last, direction.opposite(), captured);
        }
        if straight_on {
            self.king(last, direction, captured);
        }
        if !continued {
            if R::KING_HALTS_BEHIND_KING && self.opponent_kings.has(jumped) {
                let behind = nearest::<R::Geometry>(landings, direction);
                self.record(behind, captured, 0);
            } else {
                for landing in landings.iter() {
                    self.record(landing, captured, 0);
                }
            }
        }
        self.restore_order(saved_order);
        true
    }

    /// Whether a king on `at` can take a piece in `direction`.
    #[inline(always)]
    fn can_take_from<F: DirectionFamily>(
        &self,
        at: u32,
        direction: F,
        captured: BitsOf<R>,
    ) -> bool {
        let empty = self.empty_now(captured);
        let jumped = if R::FLYING_KINGS {
            let ray = direction.ray::<R::Geometry>(at);
            let blockers = ray & !empty;
            if blockers.is_empty() {
                return false;
            }
            nearest::<R::Geometry>(blockers, direction)
        } else {
            let next = neighbour::<R::Geometry, F>(at, direction);
            if next.is_empty() {
                return false;
            }
            next.lowest()
        };
        (self.targets & !captured).has(jumped)
            && (neighbour::<R::Geometry, F>(jumped, direction) & empty).any()
    }

    /// The precedence key of a completed route: routes with a larger key are preferred, equal
    /// keys are all legal. Not used under free precedence.
    #[inline(always)]
    fn key(&self, captured: BitsOf<R>, taken: u32) -> u32 {
        match R::CAPTURE_PRECEDENCE {
            CapturePrecedence::Free | CapturePrecedence::KingsFirst => 0,
            CapturePrecedence::MostPieces => taken,
            CapturePrecedence::MostPiecesThenKings => {
                (taken << SPANISH_PIECES_SHIFT) | (captured & self.opponent_kings).count()
            }
            CapturePrecedence::Italian => {
                let with_king = u32::from(self.flags & Move::<BitsOf<R>>::KING != 0);
                (taken << ITALIAN_PIECES_SHIFT)
                    | (with_king << ITALIAN_WITH_KING_SHIFT)
                    | ((captured & self.opponent_kings).count() << ITALIAN_KINGS_SHIFT)
                    | self.king_order
            }
            CapturePrecedence::Frisian => {
                let kings = (captured & self.opponent_kings).count();
                let value = (taken + kings) * FRISIAN_MAN_UNITS - kings;
                let with_king = u32::from(self.flags & Move::<BitsOf<R>>::KING != 0);
                (value << FRISIAN_VALUE_SHIFT) | with_king
            }
        }
    }

    #[inline(always)]
    fn record(&mut self, to: u32, captured: BitsOf<R>, extra_flags: u8) {
        let taken = captured.count();
        if !matches!(
            R::CAPTURE_PRECEDENCE,
            CapturePrecedence::Free | CapturePrecedence::KingsFirst
        ) {
            let key = self.key(captured, taken);
            if key < self.best {
                return;
            }
            if key > self.best {
                self.best = key;
                self.list.clear();
            }
        }
        let mv = Move::new(self.from, to, captured, self.flags | extra_flags);
        let duplicates_from = if R::CAPTURED_REMOVED_AT_ONCE || R::ORTHOGONAL_CAPTURES {
            DUPLICATES_FROM_PIECES_TWO
        } else {
            DUPLICATES_FROM_PIECES
        };
        if !self.keep_duplicates && taken >= duplicates_from && self.list.contains(&mv) {
            return;
        }
        self.list.push(mv);
    }
}
