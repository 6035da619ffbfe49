//! Principal variation search: iterative deepening with aspiration windows, PVS with late move
//! reductions, a quiescence search over the compulsory captures, and move ordering by the table
//! move, killers and history. One file per concern: this one holds the state shared by the
//! threads of a search, one thread's state and its polling; [`iterate`] the iterative deepening
//! with multi-PV, [`node`] the node search, [`quiescence`] the capture search and [`ordering`] the
//! move ordering.

mod iterate;
mod node;
mod ordering;
mod quiescence;

pub(super) use ordering::{HistoryTable, age_history, new_history};
use ordering::{OrderKeys, pick};

use super::params::*;
use super::time::{SCORE_DROP, TimeManager};
use super::{Info, Limits, Mode, Outcome, Root, SearchControl};
use crate::core::{BitBoard, Color};
use crate::egdb::Egdb;
use crate::eval::Evaluator;
use crate::game::DrawCounters;
use crate::game::endgame::{self, EndgameVerdict};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{BitsOf, Goal, Rules};
use crate::score::{self, DRAW, INFINITE, Score};
use crate::tt::{Bound, Entry, MoveHint, TranspositionTable};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Longest reversible stretch of history the repetition check looks at (root history plus the
/// search path).
const KEY_STACK: usize = 1024;

/// Stored in the table's evaluation field when no static evaluation was computed.
const NO_EVAL: i16 = i16::MIN;

/// Draw counters within this many plies of drawing the game are part of the table key: the same
/// placement of pieces is then a different position for the search (a win there may no longer
/// fit in the moves left).
const COUNTER_KEY_HORIZON: u32 = 16;

/// The part of the table key that comes from the draw-rule counters (0 far from any limit).
#[inline(always)]
fn counter_key<R: Rules>(counters: &DrawCounters<R>) -> u64 {
    match counters.plies_until_draw() {
        Some(left) if left <= COUNTER_KEY_HORIZON => {
            u64::from(left + 1).wrapping_mul(crate::core::mix::GOLDEN_GAMMA)
        }
        _ => 0,
    }
}

/// The score of a table entry at `ply` when its bound settles the window `alpha..beta`.
#[inline(always)]
fn table_cut(entry: &Entry, alpha: Score, beta: Score, ply: usize) -> Option<Score> {
    let stored = score::from_table(Score::from(entry.score), ply as i32);
    let settles = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => stored >= beta,
        Bound::Upper => stored <= alpha,
    };
    settles.then_some(stored)
}

/// The moves a search may play at the root, generated once per search: the legal moves as the
/// draw rules restrict them, less those the caller excluded (all of them when every move is
/// excluded).
pub(in crate::search) struct RootMoves<R: Rules> {
    pub(in crate::search) moves: MoveList<BitsOf<R>>,
    /// Whether the caller's exclusions left some legal move out: the root's value is then not
    /// the position's, and is not stored.
    narrowed: bool,
}

impl<R: Rules> RootMoves<R> {
    pub(in crate::search) fn new(root: &Root<R>, excluded: &[Move<BitsOf<R>>]) -> Self {
        let mut legal = root.position.legal_moves();
        root.counters.restrict(&root.position, &mut legal);
        let mut moves = MoveList::new();
        push_without(&legal, excluded, &mut moves);
        RootMoves {
            narrowed: moves.len() < legal.len(),
            moves,
        }
    }
}

/// Pushes onto `list` the moves of `moves` less those in `left_out`, or all of `moves` when that
/// leaves none: a root always has a move to search. The caller's list is filled in place because
/// a move list returned by value is copied whole (4 KiB), which showed as a tenth of the
/// search's time when the search node did it.
fn push_without<B: BitBoard>(moves: &MoveList<B>, left_out: &[Move<B>], list: &mut MoveList<B>) {
    let kept = |mv: &&Move<B>| !left_out.iter().any(|x| x.same_as(mv));
    let every = !moves.iter().any(|mv| kept(&mv));
    for mv in moves.iter().filter(|mv| every || kept(mv)) {
        list.push(*mv);
    }
}

/// A position in the search with its draw-rule counters.
#[derive(Clone, Copy)]
struct Node<R: Rules> {
    position: Position<R>,
    counters: DrawCounters<R>,
}

/// State shared by the threads of one search.
pub(super) struct Shared<'a, R: Rules, E: Evaluator<R>> {
    table: &'a TranspositionTable,
    evaluator: &'a E,
    control: &'a SearchControl,
    limits: Limits,
    mode: Mode,
    started: Instant,
    hard_limit: Option<Duration>,
    time: TimeManager,
    nodes: AtomicU64,
    finished: AtomicBool,
    /// Endgame databases and the most pieces to probe (see `super::egdb`).
    egdb: Option<(&'a Egdb, u32)>,
    /// The moves the search may play at the root.
    root_moves: RootMoves<R>,
    /// Lines searched at each depth (multi-PV): each next one without the earlier ones' first
    /// moves.
    lines: usize,
    rules: std::marker::PhantomData<R>,
}

impl<'a, R: Rules, E: Evaluator<R>> Shared<'a, R, E> {
    /// The time used so far by the clock's measure: wall time, or on a virtual clock the nodes
    /// counted so far (see [`Limits::nodes_per_ms`]).
    pub(super) fn elapsed(&self) -> Duration {
        match self.limits.nodes_per_ms {
            Some(rate) => super::virtual_time(self.nodes.load(Ordering::Relaxed), rate),
            None => self.started.elapsed(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        table: &'a TranspositionTable,
        evaluator: &'a E,
        control: &'a SearchControl,
        limits: &Limits,
        mode: Mode,
        started: Instant,
        ponder_enabled: bool,
        root: &Root<R>,
        egdb: Option<&'a Egdb>,
        root_moves: RootMoves<R>,
        lines: usize,
    ) -> Self {
        let men = root.position.men(Color::White).count() + root.position.men(Color::Black).count();
        let full = 2 * R::MAX_PIECES_PER_SIDE;
        let phase = 1.0 - f64::from(men.min(full)) / f64::from(full.max(1));
        let time = if limits.infinite {
            TimeManager::new(&Limits::default(), phase, ponder_enabled)
        } else {
            TimeManager::new(limits, phase, ponder_enabled)
        };
        if let Some(target) = time.target() {
            control
                .target_micros
                .store(target.as_micros() as u64, Ordering::Relaxed);
        }
        Shared {
            table,
            evaluator,
            control,
            limits: *limits,
            mode,
            started,
            hard_limit: time.hard(),
            time,
            nodes: AtomicU64::new(0),
            finished: AtomicBool::new(false),
            egdb: egdb.map(|db| (db, super::egdb::probe_limit(db, &root.position))),
            root_moves,
            lines: lines.max(1),
            rules: std::marker::PhantomData,
        }
    }

    /// Tells the helper threads to stop.
    pub(super) fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
    }

    fn should_stop(&self) -> bool {
        self.control.is_stopped() || self.finished.load(Ordering::Relaxed)
    }
}

/// One thread's search state.
pub(super) struct Searcher<'s, 'a, R: Rules, E: Evaluator<R>> {
    shared: &'s Shared<'a, R, E>,
    id: usize,
    nodes: u64,
    unreported_nodes: u64,
    stopped: bool,
    keys: Box<[u64; KEY_STACK]>,
    /// `reversible[i]`: plies before `keys[i]` since the last irreversible move.
    reversible: Box<[u16; KEY_STACK]>,
    key_count: usize,
    killers: Box<[[Move<BitsOf<R>>; 2]; MAX_PLY + 1]>,
    history: Box<HistoryTable>,
    pv: Box<[[Move<BitsOf<R>>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_length: [usize; MAX_PLY + 1],
    reductions: Box<[[u8; 64]; 64]>,
    leaf_plies: u64,
    leaves: u64,
    root_depth: i32,
    /// First moves of the lines already searched at this depth (multi-PV), left out at the root.
    lines_found: Vec<Move<BitsOf<R>>>,
}

impl<'s, 'a, R: Rules, E: Evaluator<R>> Searcher<'s, 'a, R, E> {
    /// A searcher for thread `id`, ordering quiet moves with `history` (carried over from the
    /// previous search, or new).
    pub(super) fn new(shared: &'s Shared<'a, R, E>, id: usize, history: Box<HistoryTable>) -> Self {
        let mut reductions = Box::new([[0u8; 64]; 64]);
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (index, cell) in row.iter_mut().enumerate().skip(1) {
                let r = (depth as f64).ln() * (index as f64).ln() / LMR_DIVISOR;
                *cell = r.max(0.0) as u8;
            }
        }
        Searcher {
            shared,
            id,
            nodes: 0,
            unreported_nodes: 0,
            stopped: false,
            keys: Box::new([0; KEY_STACK]),
            reversible: Box::new([0; KEY_STACK]),
            key_count: 0,
            killers: Box::new([[Move::default(); 2]; MAX_PLY + 1]),
            history,
            pv: Box::new([[Move::default(); MAX_PLY + 1]; MAX_PLY + 1]),
            pv_length: [0; MAX_PLY + 1],
            reductions,
            leaf_plies: 0,
            leaves: 0,
            root_depth: 0,
            lines_found: Vec::new(),
        }
    }

    /// The history table, to carry over to the next search.
    pub(super) fn into_history(self) -> Box<HistoryTable> {
        self.history
    }

    /// Whether the node limit is used up, checked between iterations too: the polls come only
    /// every [`POLL_INTERVAL`] nodes, and the small limits of the weaker levels are below that.
    fn node_limit_reached(&self) -> bool {
        self.shared
            .limits
            .nodes
            .is_some_and(|limit| self.total_nodes() >= limit)
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unreported_nodes
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unreported_nodes, Ordering::Relaxed);
        self.unreported_nodes = 0;
    }

    /// Counts a node and, every [`POLL_INTERVAL`] nodes, checks the stop flag, the clock and the
    /// node limit.
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.flush_nodes();
            self.poll();
        }
    }

    fn poll(&mut self) {
        let shared = self.shared;
        if shared.should_stop() {
            self.stopped = true;
            return;
        }
        // The first iteration always completes, so there is always a move.
        if self.id != 0 || self.root_depth <= 1 {
            return;
        }
        if let Some(limit) = shared.limits.nodes
            && shared.nodes.load(Ordering::Relaxed) >= limit
        {
            self.stop_all();
            return;
        }
        if shared.limits.infinite || shared.control.is_pondering() {
            return;
        }
        if let Some(hard) = shared.hard_limit
            && shared.elapsed() >= hard
        {
            self.stop_all();
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.finish();
    }
}
