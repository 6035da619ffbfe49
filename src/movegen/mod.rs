//! Legal move generation, generic over the variant's [`Rules`] and monomorphised per side.
//!
//! Captures are compulsory (FMJD art. 4.2): when the side to move can capture, only captures are
//! generated, and under the majority rule (art. 4.13) only those taking the most pieces.
//! Quiet moves are produced with whole-board shifts; captures by a depth-first search over the
//! capture routes (see [`captures`]).

mod captures;

use crate::core::{BitBoard, Color, Direction, DirectionFamily, Geometry, Orthogonal};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{BitsOf, Rules};

/// Forward directions of the men of a side (White moves up, towards square 1).
#[inline(always)]
pub(crate) const fn forward(white: bool) -> [Direction; 2] {
    if white {
        [Direction::UpLeft, Direction::UpRight]
    } else {
        [Direction::DownLeft, Direction::DownRight]
    }
}

/// Directions of the men of a side along rows and columns (Turkish): forward and sideways.
#[inline(always)]
pub(crate) const fn orthogonal_forward(white: bool) -> [Orthogonal; 3] {
    if white {
        [Orthogonal::Up, Orthogonal::Left, Orthogonal::Right]
    } else {
        [Orthogonal::Down, Orthogonal::Left, Orthogonal::Right]
    }
}

/// The squares of `pieces` stepped once in an orthogonal direction, onto `empty`; pieces on the
/// edge the step would leave by stay behind (a step along a row wraps by bit distance).
#[inline(always)]
fn orthogonal_step<G: Geometry>(pieces: G::Bits, direction: Orthogonal, empty: G::Bits) -> G::Bits {
    (pieces & G::ORTHOGONAL_STEP_ORIGINS[direction as usize]).shift(G::orthogonal_delta(direction))
        & empty
}

/// The pieces seen from the side to move.
#[derive(Clone, Copy)]
pub(crate) struct Sides<B> {
    pub men: B,
    pub kings: B,
    pub opponents: B,
    pub opponent_kings: B,
    pub empty: B,
    pub promotion_row: B,
}

impl<B: BitBoard> Sides<B> {
    #[inline(always)]
    pub fn of<R: Rules<Geometry = G>, G: Geometry<Bits = B>>(
        position: &Position<R>,
        white: bool,
    ) -> Self {
        let (us, them) = if white {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        Sides {
            men: position.men(us),
            kings: position.kings(us),
            opponents: position.pieces(them),
            opponent_kings: if captures::needs_opponent_kings::<R>() {
                position.kings(them)
            } else {
                B::EMPTY
            },
            empty: position.empty(),
            promotion_row: Position::<R>::promotion_row(us),
        }
    }
}

/// First occupied square of `blockers` (a subset of a ray) seen from the ray's origin.
#[inline(always)]
pub(crate) fn nearest<G: Geometry>(blockers: G::Bits, direction: impl DirectionFamily) -> u32 {
    if direction.delta::<G>() > 0 {
        blockers.lowest()
    } else {
        blockers.highest()
    }
}

/// The empty squares a king on `bit` reaches in `direction` before the first occupied square.
#[inline(always)]
pub(crate) fn king_reach<G: Geometry>(
    bit: u32,
    direction: impl DirectionFamily,
    empty: G::Bits,
) -> G::Bits {
    let ray = direction.ray::<G>(bit);
    let blockers = ray & !empty;
    if blockers.is_empty() {
        ray
    } else {
        let first = nearest::<G>(blockers, direction);
        ray & !direction.ray::<G>(first) & !G::Bits::bit(first)
    }
}

/// Generates every legal move of the side to move into `list` (which is cleared first).
#[inline]
pub fn generate<R: Rules>(position: &Position<R>, list: &mut MoveList<BitsOf<R>>) {
    list.clear();
    match position.side() {
        Color::White => generate_side::<R, true>(position, list),
        Color::Black => generate_side::<R, false>(position, list),
    }
}

/// Generates the legal captures only (empty when the side to move has none).
#[inline]
pub fn generate_captures<R: Rules>(position: &Position<R>, list: &mut MoveList<BitsOf<R>>) {
    list.clear();
    match position.side() {
        Color::White => captures::generate::<R, true>(&Sides::of(position, true), list, false),
        Color::Black => captures::generate::<R, false>(&Sides::of(position, false), list, false),
    }
}

/// Generates legal moves counting capture routes that differ only in order separately
/// (the "keep-dup" convention of checkers literature and pydraughts).
pub fn generate_keep_duplicates<R: Rules>(position: &Position<R>, list: &mut MoveList<BitsOf<R>>) {
    list.clear();
    let white = position.side() == Color::White;
    let sides = Sides::of(position, white);
    if white {
        captures::generate::<R, true>(&sides, list, true);
    } else {
        captures::generate::<R, false>(&sides, list, true);
    }
    if list.is_empty() {
        if white {
            quiet_moves::<R, true>(&sides, list);
        } else {
            quiet_moves::<R, false>(&sides, list);
        }
    }
}

/// Whether the side to move has a capture (and so must capture).
#[inline]
pub fn has_capture<R: Rules>(position: &Position<R>) -> bool {
    match position.side() {
        Color::White => captures::exists::<R, true>(&Sides::of(position, true)),
        Color::Black => captures::exists::<R, false>(&Sides::of(position, false)),
    }
}

/// Number of legal moves, without building the list when there is no capture (bulk counting).
#[inline]
pub fn count<R: Rules>(position: &Position<R>) -> usize {
    match position.side() {
        Color::White => count_side::<R, true>(position),
        Color::Black => count_side::<R, false>(position),
    }
}

#[inline(always)]
fn generate_side<R: Rules, const WHITE: bool>(
    position: &Position<R>,
    list: &mut MoveList<BitsOf<R>>,
) {
    let sides = Sides::of(position, WHITE);
    if captures::exists::<R, WHITE>(&sides) {
        captures::generate::<R, WHITE>(&sides, list, false);
    } else {
        quiet_moves::<R, WHITE>(&sides, list);
    }
}

/// Number of quiet moves of the side to move: its legal moves when it has no capture (the caller
/// knows it has none; with a capture they are not legal).
#[inline]
pub fn count_quiet<R: Rules>(position: &Position<R>) -> usize {
    match position.side() {
        Color::White => count_quiet_side::<R, true>(&Sides::of(position, true)),
        Color::Black => count_quiet_side::<R, false>(&Sides::of(position, false)),
    }
}

#[inline(always)]
fn count_side<R: Rules, const WHITE: bool>(position: &Position<R>) -> usize {
    let sides = Sides::of(position, WHITE);
    if captures::exists::<R, WHITE>(&sides) {
        let mut list = MoveList::new();
        captures::generate::<R, WHITE>(&sides, &mut list, false);
        return list.len();
    }
    count_quiet_side::<R, WHITE>(&sides)
}

#[inline(always)]
fn count_quiet_side<R: Rules, const WHITE: bool>(sides: &Sides<BitsOf<R>>) -> usize {
    let mut total = 0;
    if R::DIAGONAL_PLAY {
        for direction in forward(WHITE) {
            let delta = R::Geometry::delta(direction);
            total += (sides.men.shift(delta) & sides.empty).count();
        }
        if sides.kings.any() {
            for direction in Direction::ALL {
                total += king_quiet_targets::<R::Geometry>(
                    sides.kings,
                    direction,
                    sides.empty,
                    R::FLYING_KINGS,
                )
                .count();
            }
        }
    }
    if R::ORTHOGONAL_MOVES {
        for direction in orthogonal_forward(WHITE) {
            total += orthogonal_step::<R::Geometry>(sides.men, direction, sides.empty).count();
        }
        for direction in Orthogonal::ALL {
            let mut frontier = orthogonal_step::<R::Geometry>(sides.kings, direction, sides.empty);
            while frontier.any() {
                total += frontier.count();
                if !R::FLYING_KINGS {
                    break;
                }
                frontier = orthogonal_step::<R::Geometry>(frontier, direction, sides.empty);
            }
        }
    }
    total as usize
}

/// Every square reached by some king of `kings` moving in `direction`: a fill along empty
/// squares. Rays of two kings never overlap (the nearer king blocks the farther one), so the
/// count of the fill equals the number of moves.
#[inline(always)]
fn king_quiet_targets<G: Geometry>(
    kings: G::Bits,
    direction: Direction,
    empty: G::Bits,
    flying: bool,
) -> G::Bits {
    let delta = G::delta(direction);
    let mut frontier = kings.shift(delta) & empty;
    if !flying {
        return frontier;
    }
    let mut reached = G::Bits::EMPTY;
    while frontier.any() {
        reached |= frontier;
        frontier = frontier.shift(delta) & empty;
    }
    reached
}

#[inline(always)]
fn quiet_moves<R: Rules, const WHITE: bool>(
    sides: &Sides<BitsOf<R>>,
    list: &mut MoveList<BitsOf<R>>,
) {
    if R::ORTHOGONAL_MOVES {
        orthogonal_quiet_moves::<R, WHITE>(sides, list);
    }
    if !R::DIAGONAL_PLAY {
        return;
    }
    for direction in forward(WHITE) {
        let delta = R::Geometry::delta(direction);
        push_man_steps::<R>(sides, sides.men.shift(delta) & sides.empty, delta, list);
    }
    king_quiet_moves::<R, Direction>(sides, list, |king, direction| {
        king.shift(R::Geometry::delta(direction)) & sides.empty
    });
}

/// The quiet moves along rows and columns (Turkish): men one square forward or sideways, kings
/// along rows and columns.
#[inline(always)]
fn orthogonal_quiet_moves<R: Rules, const WHITE: bool>(
    sides: &Sides<BitsOf<R>>,
    list: &mut MoveList<BitsOf<R>>,
) {
    for direction in orthogonal_forward(WHITE) {
        let delta = R::Geometry::orthogonal_delta(direction);
        let targets = orthogonal_step::<R::Geometry>(sides.men, direction, sides.empty);
        push_man_steps::<R>(sides, targets, delta, list);
    }
    king_quiet_moves::<R, Orthogonal>(sides, list, |king, direction| {
        orthogonal_step::<R::Geometry>(king, direction, sides.empty)
    });
}

/// The steps of men to `targets`, each from the square `delta` bits before it; a step onto the
/// promotion row crowns.
#[inline(always)]
fn push_man_steps<R: Rules>(
    sides: &Sides<BitsOf<R>>,
    targets: BitsOf<R>,
    delta: i32,
    list: &mut MoveList<BitsOf<R>>,
) {
    for to in targets.iter() {
        let from = (to as i32 - delta) as u32;
        let flags = if sides.promotion_row.has(to) {
            Move::<BitsOf<R>>::PROMOTION
        } else {
            0
        };
        list.push(Move::new(from, to, BitsOf::<R>::EMPTY, flags));
    }
}

/// The quiet moves of the kings along the directions of `D`: any distance for flying kings,
/// otherwise the single square `step` gives from a king's bit.
#[inline(always)]
fn king_quiet_moves<R: Rules, D: DirectionFamily>(
    sides: &Sides<BitsOf<R>>,
    list: &mut MoveList<BitsOf<R>>,
    step: impl Fn(BitsOf<R>, D) -> BitsOf<R>,
) {
    for from in sides.kings.iter() {
        for direction in D::ALL {
            let targets = if R::FLYING_KINGS {
                king_reach::<R::Geometry>(from, direction, sides.empty)
            } else {
                step(BitsOf::<R>::bit(from), direction)
            };
            for to in targets.iter() {
                list.push(Move::new(
                    from,
                    to,
                    BitsOf::<R>::EMPTY,
                    Move::<BitsOf<R>>::KING,
                ));
            }
        }
    }
}

// The move generator answers the position's questions about its moves: the position itself is
// the data the generator reads, and knows nothing of how moves are found.
impl<R: Rules> Position<R> {
    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList<BitsOf<R>> {
        let mut list = MoveList::new();
        generate(self, &mut list);
        list
    }

    /// Whether the side to move must capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        has_capture(self)
    }

    /// Whether the side to move has no legal move (it has lost: FMJD art. 7.2).
    pub fn is_blocked(&self) -> bool {
        self.legal_moves().is_empty()
    }
}
