//! Capture generation (FMJD art. 4).
//!
//! A depth-first search over capture routes. While a capture is in progress the captured pieces
//! stay on the board (art. 4.11): they block the capturing piece and cannot be jumped again
//! (art. 4.8), and the capturing piece's own origin counts as empty, so a king may pass over it or
//! end there. A route is recorded only when it cannot continue (a capture must be completed,
//! art. 4.10). Under the majority rule (art. 4.13) only routes taking the most pieces are kept, and
//! routes with the same origin, destination and captured set count once.
//!
//! A flying king that jumps a piece may stop on any empty square behind it (art. 4.3), but where a
//! continuation exists it must stop where it can continue. Continuing straight on is the same
//! route whichever of those squares it "passed", so that continuation is searched once, from the
//! last of them; turning is searched from each.

use super::{Sides, forward, king_reach, nearest};
use crate::core::{BitBoard, Direction, Geometry};
use crate::moves::{Move, MoveList};
use crate::rules::{BitsOf, CapturePrecedence, Rules};

/// Captured pieces from which on duplicate routes become possible: two routes through the same
/// set of pieces in a different order need a closed loop, which takes at least three pieces.
const DUPLICATES_FROM_PIECES: u32 = 3;

/// The two directions at right angles to `direction`.
#[inline(always)]
fn turns(direction: Direction) -> [Direction; 2] {
    match direction {
        Direction::UpLeft | Direction::DownRight => [Direction::UpRight, Direction::DownLeft],
        Direction::UpRight | Direction::DownLeft => [Direction::UpLeft, Direction::DownRight],
    }
}

/// The men of the side to move that can capture, found with whole-board shifts.
#[inline(always)]
fn capturing_men<R: Rules, const WHITE: bool>(sides: &Sides<BitsOf<R>>) -> BitsOf<R> {
    let mut capturers = BitsOf::<R>::EMPTY;
    if sides.men.is_empty() {
        return capturers;
    }
    let directions: &[Direction] = if R::MEN_CAPTURE_BACKWARDS {
        &Direction::ALL
    } else {
        &forward(WHITE)
    };
    for &direction in directions {
        let delta = R::Geometry::delta(direction);
        capturers |= sides.men & sides.opponents.shift(-delta) & sides.empty.shift(-2 * delta);
    }
    capturers
}

/// Whether the king on `king` can capture.
#[inline(always)]
fn king_can_capture<R: Rules>(sides: &Sides<BitsOf<R>>, king: u32) -> bool {
    Direction::ALL.into_iter().any(|direction| {
        let delta = R::Geometry::delta(direction);
        let jumped = if R::FLYING_KINGS {
            let blockers = R::Geometry::RAYS[king as usize][direction as usize] & !sides.empty;
            if blockers.is_empty() {
                return false;
            }
            BitsOf::<R>::bit(nearest::<R::Geometry>(blockers, direction))
        } else {
            BitsOf::<R>::bit(king).shift(delta)
        };
        (jumped & sides.opponents).any() && (jumped.shift(delta) & sides.empty).any()
    })
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
    let mut search = Search::<R, WHITE> {
        list,
        targets: sides.opponents,
        empty: sides.empty,
        promotion_row: sides.promotion_row,
        from: 0,
        flags: 0,
        best: 1,
        keep_duplicates,
    };
    for from in capturing_men::<R, WHITE>(sides).iter() {
        search.from = from;
        search.flags = 0;
        search.empty = sides.empty | BitsOf::<R>::bit(from);
        search.man(from, BitsOf::<R>::EMPTY);
    }
    for from in sides.kings.iter() {
        if !king_can_capture::<R>(sides, from) {
            continue;
        }
        search.from = from;
        search.flags = Move::<BitsOf<R>>::KING;
        search.empty = sides.empty | BitsOf::<R>::bit(from);
        for direction in Direction::ALL {
            search.king(from, direction, BitsOf::<R>::EMPTY);
        }
    }
}

struct Search<'a, R: Rules, const WHITE: bool> {
    list: &'a mut MoveList<BitsOf<R>>,
    /// Opponent pieces, including those already jumped in this route.
    targets: BitsOf<R>,
    /// Empty squares, with the capturing piece's origin vacated.
    empty: BitsOf<R>,
    promotion_row: BitsOf<R>,
    from: u32,
    flags: u8,
    /// Most pieces taken by a recorded route (majority rule).
    best: u32,
    keep_duplicates: bool,
}

impl<R: Rules, const WHITE: bool> Search<'_, R, WHITE> {
    /// Continues a man's capture from `at`, having taken `captured`. Returns whether it captured.
    fn man(&mut self, at: u32, captured: BitsOf<R>) -> bool {
        let mut continued = false;
        let directions: &[Direction] = if R::MEN_CAPTURE_BACKWARDS {
            &Direction::ALL
        } else {
            &forward(WHITE)
        };
        for &direction in directions {
            let delta = R::Geometry::delta(direction);
            let over = BitsOf::<R>::bit(at).shift(delta) & self.targets & !captured;
            if over.is_empty() {
                continue;
            }
            let landing = over.shift(delta) & self.empty;
            if landing.is_empty() {
                continue;
            }
            continued = true;
            let to = landing.lowest();
            let captured = captured | over;
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
        }
        continued
    }

    /// A crowned man continuing as a king from `at` after arriving in `direction`: any direction
    /// but straight back. Returns whether it captured.
    fn king_turns_or_straight(
        &mut self,
        at: u32,
        direction: Direction,
        captured: BitsOf<R>,
    ) -> bool {
        let [left, right] = turns(direction);
        let mut continued = self.king(at, left, captured);
        continued |= self.king(at, right, captured);
        continued |= self.king(at, direction, captured);
        continued
    }

    /// Tries a king capture from `at` along `direction`, having taken `captured`; searches and
    /// records every completion. Returns whether a piece could be taken in that direction.
    fn king(&mut self, at: u32, direction: Direction, captured: BitsOf<R>) -> bool {
        let delta = R::Geometry::delta(direction);
        let jumped = if R::FLYING_KINGS {
            let ray = R::Geometry::RAYS[at as usize][direction as usize];
            let blockers = ray & !self.empty;
            if blockers.is_empty() {
                return false;
            }
            nearest::<R::Geometry>(blockers, direction)
        } else {
            let next = BitsOf::<R>::bit(at).shift(delta);
            if next.is_empty() || (next & self.empty).any() {
                return false;
            }
            next.lowest()
        };
        if !(self.targets & !captured).has(jumped) {
            return false;
        }
        let landings = if R::FLYING_KINGS {
            king_reach::<R::Geometry>(jumped, direction, self.empty)
        } else {
            BitsOf::<R>::bit(jumped).shift(delta) & self.empty
        };
        if landings.is_empty() {
            return false;
        }
        let captured = captured | BitsOf::<R>::bit(jumped);
        let last = nearest::<R::Geometry>(landings, direction.opposite());
        let straight_on = self.can_take_from(last, direction, captured);
        let mut continued = straight_on;
        let [left, right] = turns(direction);
        for landing in landings.iter() {
            continued |= self.king(landing, left, captured);
            continued |= self.king(landing, right, captured);
        }
        if straight_on {
            self.king(last, direction, captured);
        }
        if !continued {
            for landing in landings.iter() {
                self.record(landing, captured, 0);
            }
        }
        true
    }

    /// Whether a king on `at` can take a piece in `direction`.
    #[inline(always)]
    fn can_take_from(&self, at: u32, direction: Direction, captured: BitsOf<R>) -> bool {
        let delta = R::Geometry::delta(direction);
        let jumped = if R::FLYING_KINGS {
            let ray = R::Geometry::RAYS[at as usize][direction as usize];
            let blockers = ray & !self.empty;
            if blockers.is_empty() {
                return false;
            }
            nearest::<R::Geometry>(blockers, direction)
        } else {
            let next = BitsOf::<R>::bit(at).shift(delta);
            if next.is_empty() {
                return false;
            }
            next.lowest()
        };
        (self.targets & !captured).has(jumped)
            && (BitsOf::<R>::bit(jumped).shift(delta) & self.empty).any()
    }

    #[inline(always)]
    fn record(&mut self, to: u32, captured: BitsOf<R>, extra_flags: u8) {
        let taken = captured.count();
        if R::CAPTURE_PRECEDENCE == CapturePrecedence::MostPieces {
            if taken < self.best {
                return;
            }
            if taken > self.best {
                self.best = taken;
                self.list.clear();
            }
        }
        let mv = Move::new(self.from, to, captured, self.flags | extra_flags);
        if !self.keep_duplicates && taken >= DUPLICATES_FROM_PIECES && self.list.contains(&mv) {
            return;
        }
        self.list.push(mv);
    }
}
