//! Exact tables of the king-only lone-king endings: one to three kings (or more, on request)
//! against a lone king, both sides to move, with the distance to a forced win of either side.
//!
//! Built by retrograde analysis over our own move generator, so they follow the variant's rules
//! exactly (compulsory and majority captures, flying or short kings).
//!
//! The tables hold, for each side, the number of plies the draw counts must still allow for that
//! side to win ([`Distances`]): the plies to the capture or blockade of the last piece, or to a
//! capture that changes the lone-king ending (three kings against one becoming two against one,
//! art. 6.3 to 6.4) and so starts a fresh count in a position that is won within it. Within one
//! article nothing restarts the count (two kings against one becoming king against king stays
//! art. 6.4), so the distance runs on. [`KingTables::verdict`] compares these numbers with the
//! [`DrawCounters`]; the result is exact for the material the tables hold.
//!
//! Size and time (international draughts): three kings against one are 1.96 million positions;
//! the build of one to three kings, for both sides' wins, takes about 2 s in a release build on
//! one core and holds 4 MB. Build it once (at start-up, or in a background thread) and share it.

use super::{EndgameVerdict, lone_king_verdict};
use crate::core::{BitBoard, Color, Direction, Geometry};
use crate::game::counters::{DrawCounters, LoneKingEnding};
use crate::moves::Move;
use crate::position::{Position, Setup};
use crate::rules::{BitsOf, Goal, Rules};
use std::marker::PhantomData;

/// The number of kings against the lone king that [`KingTables::build`] solves.
pub const DEFAULT_MAX_KINGS: usize = 3;

/// No forced win for the side the table is about.
const NOT_WON: u8 = u8::MAX;
/// Not decided yet (during the build only).
const UNKNOWN: u8 = u8::MAX - 1;

/// What the tables say about a position, for each side: `Some(n)` when that side wins if the
/// current draw count leaves it at least `n` plies (and not if fewer), `None` when it cannot force
/// a win at all.
///
/// `n` is the distance, with best play, to the capture or blockade of every opposing piece, or to
/// an earlier capture that starts a new article's count in a position won within that fresh count
/// (see the module documentation). In international draughts every such fresh count is long
/// enough, so `None` means a draw by theory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Distances {
    /// Plies White needs.
    pub white: Option<u32>,
    /// Plies Black needs.
    pub black: Option<u32>,
}

impl Distances {
    fn swapped(self) -> Self {
        Distances {
            white: self.black,
            black: self.white,
        }
    }
}

/// Exact tables of White's kings against Black's lone king (Black's kings against White's lone
/// king are read through [`Position::mirror`]).
pub struct KingTables<R: Rules> {
    max_kings: usize,
    /// `white_wins[k - 1]`: distance to White's win with `k` white kings; `black_wins` likewise.
    white_wins: Vec<Vec<u8>>,
    black_wins: Vec<Vec<u8>>,
    rules: PhantomData<R>,
}

impl<R: Rules> KingTables<R> {
    /// Solves one to [`DEFAULT_MAX_KINGS`] kings against a lone king.
    pub fn build() -> Self {
        Self::build_up_to(DEFAULT_MAX_KINGS)
    }

    /// Solves one to `max_kings` kings against a lone king (four kings: 23 million positions on
    /// the 10x10 board, about a minute).
    ///
    /// # Panics
    /// If the variant is not played to the standard goal (the losing game inverts the tables'
    /// meaning) or `max_kings` is 0.
    pub fn build_up_to(max_kings: usize) -> Self {
        assert!(R::GOAL == Goal::Standard, "tables assume the standard goal");
        assert!(max_kings >= 1, "at least one king");
        let mut tables = KingTables {
            max_kings,
            white_wins: Vec::new(),
            black_wins: Vec::new(),
            rules: PhantomData,
        };
        for kings in 1..=max_kings {
            let white = Solver::<R>::new(kings).solve(Color::White, &tables.white_wins);
            tables.white_wins.push(white);
            let black = Solver::<R>::new(kings).solve(Color::Black, &tables.black_wins);
            tables.black_wins.push(black);
        }
        tables
    }

    /// Most kings against the lone king these tables hold.
    pub fn max_kings(&self) -> usize {
        self.max_kings
    }

    /// The outcome of a position with kings only, one side having a single king and the other at
    /// most [`Self::max_kings`]; `None` for any other material.
    pub fn probe(&self, position: &Position<R>) -> Option<Distances> {
        if (position.men(Color::White) | position.men(Color::Black)).any() {
            return None;
        }
        let white = position.kings(Color::White).count() as usize;
        let black = position.kings(Color::Black).count() as usize;
        if black == 1 && (1..=self.max_kings).contains(&white) {
            let index = index_of(position);
            Some(Distances {
                white: distance(self.white_wins[white - 1][index]),
                black: distance(self.black_wins[white - 1][index]),
            })
        } else if white == 1 && (2..=self.max_kings).contains(&black) {
            self.probe(&position.mirror()).map(Distances::swapped)
        } else {
            None
        }
    }

    /// The verdict on a position: exact for the king-only endings the tables hold (a capture may
    /// be pending), and [`lone_king_verdict`] for the others.
    ///
    /// A win when the counters leave the winner the plies [`Distances`] asks for; a draw when no side
    /// can win, or when the count that binds runs out first. (The one inexact case, answered with
    /// `None`: two kings against one where art. 6.2's count, not art. 6.4's, would run out first,
    /// which only a set-up position can give: there a capture restarts art. 6.2 but not 6.4.)
    pub fn verdict(
        &self,
        position: &Position<R>,
        counters: &DrawCounters<R>,
    ) -> Option<EndgameVerdict> {
        let Some(outcome) = self.probe(position) else {
            return lone_king_verdict(position, counters);
        };
        let left = counters.plies_until_draw();
        let fastest = [(Color::White, outcome.white), (Color::Black, outcome.black)]
            .into_iter()
            .filter_map(|(color, plies)| plies.map(|plies| (color, plies)))
            .min_by_key(|&(_, plies)| plies);
        match fastest {
            None => Some(EndgameVerdict::Draw),
            Some((winner, plies)) if left.is_none_or(|left| plies <= left) => {
                Some(EndgameVerdict::Win(winner))
            }
            Some(_) => {
                let two_against_king = counters.ending() == Some(LoneKingEnding::TwoAgainstKing);
                let king_moves_bind = counters.plies_until_ending_draw() != left;
                (!(two_against_king && king_moves_bind)).then_some(EndgameVerdict::Draw)
            }
        }
    }
}

/// Whether `plies` fit in the count that a new ending of this kind starts with.
fn fits_fresh_count<R: Rules>(plies: u8, ending: Option<LoneKingEnding>) -> bool {
    let rules = R::DRAW_RULES;
    let moves = match ending {
        Some(LoneKingEnding::ThreeAgainstKing) => rules.three_against_king,
        Some(LoneKingEnding::TwoAgainstKing) => rules.two_against_king,
        Some(LoneKingEnding::KingsAgainstKing) => rules.kings_against_king,
        None => rules.king_moves,
    };
    moves.is_none_or(|moves| u32::from(plies) <= 2 * moves)
}

fn distance(value: u8) -> Option<u32> {
    (value != NOT_WON).then_some(u32::from(value))
}

fn binomial(n: u32, k: u32) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1usize, |acc, i| acc * (n - i) as usize / (i + 1) as usize)
}

/// Colex rank of a sorted set of 0-based squares.
fn rank(sorted: impl Iterator<Item = u32>) -> usize {
    sorted
        .enumerate()
        .map(|(i, square)| binomial(square, i as u32 + 1))
        .sum()
}

/// Index of a position with White's kings against Black's lone king.
fn index_of<R: Rules>(position: &Position<R>) -> usize {
    let white = rank(
        position
            .kings(Color::White)
            .iter()
            .map(|bit| R::Geometry::square_of(bit) - 1),
    );
    let lone = R::Geometry::square_of(position.pieces(Color::Black).lowest()) - 1;
    (white * R::Geometry::SQUARES as usize + lone as usize) * 2 + position.side().index()
}

/// The retrograde analysis of one material for one winner.
struct Solver<R: Rules> {
    kings: usize,
    /// White's squares (0-based) of each rank, `kings` bytes each.
    sets: Vec<u8>,
    setup: Setup,
    rules: PhantomData<R>,
}

impl<R: Rules> Solver<R> {
    fn new(kings: usize) -> Self {
        let squares = R::Geometry::SQUARES;
        let mut sets = vec![0u8; binomial(squares, kings as u32) * kings];
        let mut set = Vec::with_capacity(kings);
        fill_sets(kings, squares, 0, &mut set, &mut sets);
        Solver {
            kings,
            sets,
            setup: Setup::default(),
            rules: PhantomData,
        }
    }

    fn size(&self) -> usize {
        self.sets.len() / self.kings * R::Geometry::SQUARES as usize * 2
    }

    fn position(&mut self, index: usize) -> Option<Position<R>> {
        let squares = R::Geometry::SQUARES as usize;
        let side = Color::BOTH[index % 2];
        let lone = (index / 2 % squares) as u8;
        let set = &self.sets[index / 2 / squares * self.kings..][..self.kings];
        if set.contains(&lone) {
            return None;
        }
        self.setup.side = Some(side);
        self.setup.white_kings.clear();
        self.setup
            .white_kings
            .extend(set.iter().map(|&s| u32::from(s) + 1));
        self.setup.black_kings.clear();
        self.setup.black_kings.push(u32::from(lone) + 1);
        Position::from_setup(&self.setup).ok()
    }

    /// Distances to `winner`'s forced win for every position of this material; `smaller` holds
    /// the tables of fewer white kings for the same winner.
    fn solve(mut self, winner: Color, smaller: &[Vec<u8>]) -> Vec<u8> {
        let size = self.size();
        let mut dtw = vec![UNKNOWN; size];
        let mut pending = vec![0u8; size];
        let mut buckets: Vec<Vec<u32>> = Vec::new();
        let push = |buckets: &mut Vec<Vec<u32>>, distance: u8, index: usize| {
            if buckets.len() <= usize::from(distance) {
                buckets.resize(usize::from(distance) + 1, Vec::new());
            }
            buckets[usize::from(distance)].push(index as u32);
        };
        // Positions decided by their own moves: no move, or captures (which leave the table).
        for (index, value) in dtw.iter_mut().enumerate() {
            let Some(position) = self.position(index) else {
                *value = NOT_WON;
                continue;
            };
            let moves = position.legal_moves();
            let chooser = position.side() == winner;
            *value = if moves.is_empty() {
                if chooser { NOT_WON } else { 0 }
            } else if moves[0].is_capture() {
                let mut children = moves.iter().map(|mv| {
                    let after = position.play(mv);
                    if after.pieces(winner).is_empty() {
                        NOT_WON
                    } else if after.pieces(!winner).is_empty() {
                        0
                    } else {
                        let kings = after.kings(Color::White).count() as usize;
                        let value = smaller[kings - 1][index_of(&after)];
                        let ending = LoneKingEnding::of(&after);
                        if ending == LoneKingEnding::of(&position) {
                            value
                        } else if value != NOT_WON && fits_fresh_count::<R>(value, ending) {
                            // A new article's count starts with this capture, long enough.
                            0
                        } else {
                            NOT_WON
                        }
                    }
                });
                let best = if chooser {
                    children.filter(|&v| v != NOT_WON).min()
                } else {
                    children.try_fold(0u8, |worst, v| (v != NOT_WON).then_some(worst.max(v)))
                };
                best.map_or(NOT_WON, |v| v + 1)
            } else {
                if !chooser {
                    pending[index] = moves.len() as u8;
                }
                UNKNOWN
            };
            if *value < UNKNOWN {
                push(&mut buckets, *value, index);
            }
        }
        // Backwards from the decided positions, nearest first.
        let mut distance = 0usize;
        while distance < buckets.len() {
            let bucket = std::mem::take(&mut buckets[distance]);
            for &index in &bucket {
                let position = self.position(index as usize).expect("a decided position");
                for_each_predecessor(&position, |predecessor| {
                    let q = index_of(&predecessor);
                    if dtw[q] != UNKNOWN {
                        return;
                    }
                    let decided = if predecessor.side() == winner {
                        true
                    } else {
                        pending[q] -= 1;
                        pending[q] == 0
                    };
                    if decided {
                        let value = u8::try_from(distance + 1)
                            .ok()
                            .filter(|&v| v < UNKNOWN)
                            .expect("distances fit in a byte");
                        dtw[q] = value;
                        push(&mut buckets, value, q);
                    }
                });
            }
            distance += 1;
        }
        for value in &mut dtw {
            if *value == UNKNOWN {
                *value = NOT_WON;
            }
        }
        dtw
    }
}

fn fill_sets(kings: usize, squares: u32, from: u32, set: &mut Vec<u32>, sets: &mut [u8]) {
    if set.len() == kings {
        let at = rank(set.iter().copied()) * kings;
        for (slot, &square) in sets[at..at + kings].iter_mut().zip(set.iter()) {
            *slot = square as u8;
        }
        return;
    }
    for square in from..squares {
        set.push(square);
        fill_sets(kings, squares, square + 1, set, sets);
        set.pop();
    }
}

/// Calls `visit` with each position from which the player not to move in `position` reached it
/// by a legal quiet king move (legal: that player had no capture, captures being compulsory).
fn for_each_predecessor<R: Rules>(position: &Position<R>, mut visit: impl FnMut(Position<R>)) {
    let mover = !position.side();
    let empty = position.empty();
    let turned = position.pass();
    for to in position.kings(mover).iter() {
        for direction in Direction::ALL {
            let ray = R::Geometry::RAYS[to as usize][direction as usize];
            let step = R::Geometry::delta(direction);
            let mut at = to as i32 + step;
            while at >= 0 && ray.has(at as u32) && empty.has(at as u32) {
                let back = Move::new(to, at as u32, BitsOf::<R>::EMPTY, Move::<BitsOf<R>>::KING);
                let predecessor = turned.play(&back).pass();
                if !predecessor.has_capture() {
                    visit(predecessor);
                }
                if !R::FLYING_KINGS {
                    break;
                }
                at += step;
            }
        }
    }
}
