//! The engine API: set up a root (position and history), give limits, search, get progress
//! through a callback, stop or ponder-hit from another thread.
//!
//! The Hub shell, `analyze`, `bench`, matches, DXP and the tests all drive the search through
//! [`Engine::search`]. The search itself does no I/O: it reports through the callback and polls a
//! [`SearchControl`] for `stop` and `ponder-hit`.
//!
//! Parallel search is Lazy SMP: every thread runs its own iterative deepening on the same root
//! and they share the lockless transposition table; the main thread decides when to stop, and
//! its best move is played unless a helper completed a deeper iteration with a higher score
//! (not in analysis or multi-PV, whose lines are the main thread's).

pub mod bench;
mod egdb;
pub mod params;
mod pvs;
pub mod time;

use crate::eval::Evaluator;
use crate::game::{DrawCounters, Game};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::Score;
use crate::tt::{TableError, TranspositionTable};
use params::MAX_PLY;
use pvs::{HistoryTable, RootMoves, Searcher, Shared};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Stack size of search threads: every ply keeps a move list on the stack. A thread that
/// searches itself ([`Engine::search_on_calling_thread`]) must have at least this much.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;
/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;

/// A game clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left on the clock of the side to move.
    pub time: Duration,
    /// Increment added per move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// What ends a search. Unset limits do not apply; with none set the search runs until stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes (all threads).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub move_time: Option<Duration>,
    /// Clock-based allocation.
    pub clock: Option<Clock>,
    /// Run until stopped (limits above are ignored except `depth`).
    pub infinite: bool,
    /// A virtual clock: the time of `move_time` and `clock` passes as this many nodes (all
    /// threads) a millisecond, not as wall time, so that a test of time use gives the same games
    /// on a loaded machine (Stockfish's `nodestime`).
    pub nodes_per_ms: Option<u64>,
}

/// Microseconds in a millisecond (the unit of [`Limits::nodes_per_ms`]).
const MICROS_PER_MS: u64 = 1000;

/// The time `nodes` take on a virtual clock of `nodes_per_ms` nodes a millisecond (see
/// [`Limits::nodes_per_ms`]): the one conversion the search and the match referee share.
pub fn virtual_time(nodes: u64, nodes_per_ms: u64) -> Duration {
    Duration::from_micros(nodes.saturating_mul(MICROS_PER_MS) / nodes_per_ms.max(1))
}

/// How the search is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Find a move to play; a single legal move is played at once.
    Think,
    /// Search on the opponent's time; limits apply only after [`SearchControl::ponder_hit`].
    Ponder,
    /// Analyse: always search, report, never stop on time alone.
    Analyze,
}

/// Ponder states of a [`SearchControl`].
const PONDER_NONE: u8 = 0;
const PONDER_ACTIVE: u8 = 1;
const PONDER_HIT: u8 = 2;

/// Stop and ponder-hit signals, shared between the search and the thread driving it.
///
/// Use a fresh control for each search: a `stop` or `ponder-hit` given before the search has
/// even started still counts.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    ponder: std::sync::atomic::AtomicU8,
    /// The main thread's soft target in microseconds since the start (0 = none), so that a
    /// ponder-hit after the target ends the search at once.
    target_micros: AtomicU64,
    started: std::sync::Mutex<Option<Instant>>,
}

impl SearchControl {
    /// A fresh control.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the search to stop as soon as possible; it still returns its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: pondering becomes a normal search, whose time
    /// (counted from the start of the ponder search) applies from now on.
    pub fn ponder_hit(&self) {
        self.ponder.store(PONDER_HIT, Ordering::Relaxed);
        let target = self.target_micros.load(Ordering::Relaxed);
        let started = *self.started.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(started) = started
            && target > 0
            && started.elapsed() >= Duration::from_micros(target)
        {
            self.stop();
        }
    }

    /// Whether the search is (still) pondering.
    pub fn is_pondering(&self) -> bool {
        self.ponder.load(Ordering::Relaxed) == PONDER_ACTIVE
    }

    fn begin(&self, mode: Mode, started: Instant) {
        if mode == Mode::Ponder {
            // A ponder-hit that arrived first wins.
            let _ = self.ponder.compare_exchange(
                PONDER_NONE,
                PONDER_ACTIVE,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
        self.target_micros.store(0, Ordering::Relaxed);
        *self.started.lock().unwrap_or_else(|e| e.into_inner()) = Some(started);
    }
}

/// The root of a search: the position, the positions before it that can still repeat, and the
/// draw-rule counters (FMJD art. 6), which travel along every search line.
#[derive(Clone, Debug)]
pub struct Root<R: Rules> {
    /// Position to search.
    pub position: Position<R>,
    /// Hashes of the earlier positions since the last irreversible move, oldest first.
    pub history: Vec<u64>,
    /// Draw-rule counters of the position.
    pub counters: DrawCounters<R>,
}

impl<R: Rules> Root<R> {
    /// A root with no history.
    pub fn new(position: Position<R>) -> Self {
        Root {
            position,
            history: Vec::new(),
            counters: DrawCounters::new(&position),
        }
    }

    /// The root of a game's current position, with its history and counters.
    pub fn from_game(game: &Game<R>) -> Self {
        Root {
            position: *game.position(),
            history: game.history_hashes(),
            counters: game.counters(),
        }
    }

    /// The root reached by playing `moves` (legal, in order) from `start`.
    pub fn after_moves(start: Position<R>, moves: &[Move<BitsOf<R>>]) -> Self {
        let mut root = Root::new(start);
        for mv in moves {
            root.push(mv);
        }
        root
    }

    /// Plays a legal move, keeping the history that can still repeat.
    pub fn push(&mut self, mv: &Move<BitsOf<R>>) {
        if mv.is_irreversible() {
            self.history.clear();
        } else {
            self.history.push(self.position.hash());
        }
        self.position = self.position.play(mv);
        self.counters = self.counters.after(mv, &self.position);
    }
}

/// Progress of a search, reported after each iteration.
#[derive(Clone, Debug)]
pub struct Info<R: Rules> {
    /// Which line (1 the best; more with [`Engine::search_lines`]).
    pub line: usize,
    /// Iteration depth.
    pub depth: u32,
    /// Average ply of the leaves of this iteration.
    pub mean_depth: f64,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move<BitsOf<R>>>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<R: Rules> {
    /// Move to play (none when the side to move has no legal move).
    pub best: Option<Move<BitsOf<R>>>,
    /// Expected reply.
    pub ponder: Option<Move<BitsOf<R>>>,
    /// Score of the best move.
    pub score: Score,
    /// Last completed iteration (0 when answered without search).
    pub depth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Time used.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move<BitsOf<R>>>,
}

impl<R: Rules> Outcome<R> {
    /// Whether a helper thread's outcome is played instead of `current`: it completed a deeper
    /// iteration and found a higher score there (the selection rule of Stockfish 8's Lazy SMP).
    /// Helpers iterate ahead of the main thread (odd ones skip every other depth), so when the
    /// clock stops them all a helper often holds a deeper result than the one the main thread
    /// would play; asking for a higher score as well keeps the rule conservative.
    fn beats(&self, current: &Self) -> bool {
        self.depth > current.depth && self.score > current.score
    }
}

/// The engine: a transposition table, an evaluator and a thread count, for one variant. The
/// evaluator has no default, so that no shell gets one it did not name: shells build theirs with
/// [`crate::player::options::engine`].
pub struct Engine<R: Rules, E: Evaluator<R>> {
    table: Arc<TranspositionTable>,
    evaluator: E,
    threads: usize,
    ponder_enabled: bool,
    egdb: Option<Arc<crate::egdb::Egdb>>,
    /// Each thread's move-ordering history, carried from one search to the next (aged) so that
    /// the next move of the game starts with what this one learnt.
    histories: Mutex<Vec<Box<HistoryTable>>>,
    /// A one-thread search runs on the caller's thread instead of a new one.
    on_calling_thread: bool,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules, E: Evaluator<R>> Engine<R, E> {
    /// An engine with the given evaluator.
    pub fn with_evaluator(evaluator: E, hash_mb: usize, threads: usize) -> Self {
        Engine {
            table: Arc::new(TranspositionTable::new(hash_mb)),
            evaluator,
            threads: threads.clamp(1, MAX_THREADS),
            ponder_enabled: false,
            egdb: None,
            histories: Mutex::new(Vec::new()),
            on_calling_thread: false,
            rules: std::marker::PhantomData,
        }
    }

    /// Makes a one-thread engine search on the thread that calls it, which must have a stack of
    /// [`SEARCH_STACK_BYTES`]: for many short searches (self-play data), where starting a thread
    /// for each costs a fifth of the time. The search itself is the same.
    pub fn search_on_calling_thread(&mut self) {
        self.on_calling_thread = true;
    }

    /// Resizes the transposition table (its content is lost).
    ///
    /// # Errors
    /// When the memory cannot be had; the old table is kept.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), TableError> {
        self.table = Arc::new(TranspositionTable::try_new(megabytes)?);
        Ok(())
    }

    /// Replaces the evaluator (the transposition table is cleared: its scores came from the old
    /// one).
    pub fn set_evaluator(&mut self, evaluator: E) {
        self.evaluator = evaluator;
        self.table.clear();
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether the clock allocation may count on pondering.
    pub fn set_ponder(&mut self, enabled: bool) {
        self.ponder_enabled = enabled;
    }

    /// Endgame databases to probe (international draughts; `None`: none).
    pub fn set_egdb(&mut self, egdb: Option<Arc<crate::egdb::Egdb>>) {
        self.egdb = egdb;
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn new_game(&self) {
        self.table.clear();
        self.lock_histories().clear();
    }

    /// The history tables; a thread that panicked while holding them cannot have left them
    /// inconsistent (they are plain counters), so a poisoned lock is taken as it is.
    fn lock_histories(&self) -> std::sync::MutexGuard<'_, Vec<Box<HistoryTable>>> {
        self.histories
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// One history table per thread for a new search: the previous search's, aged, or new ones.
    fn take_histories(&self, threads: usize) -> Vec<Box<HistoryTable>> {
        let mut stored = std::mem::take(&mut *self.lock_histories());
        stored.truncate(threads);
        for history in stored.iter_mut() {
            pvs::age_history(history);
        }
        stored.resize_with(threads, pvs::new_history);
        stored
    }

    /// The static evaluation of a position (side-to-move view).
    pub fn evaluate(&self, position: &Position<R>) -> Score {
        self.evaluator.evaluate(position)
    }

    /// Searches `root` within `limits`, calling `report` after each iteration, and returns the
    /// best move. Blocks until the search ends (limits reached, or `control.stop()`).
    pub fn search(
        &self,
        root: &Root<R>,
        limits: &Limits,
        mode: Mode,
        control: &SearchControl,
        report: impl FnMut(&Info<R>) + Send,
    ) -> Outcome<R> {
        self.run(root, limits, mode, control, &[], 1, report)
    }

    /// Multi-PV: as [`Engine::search`], with the `lines` best lines searched at every depth,
    /// each without the first moves of the lines before it, and each reported with its number
    /// ([`Info::line`]) as its iteration completes. The outcome is the first line's.
    pub fn search_lines(
        &self,
        root: &Root<R>,
        limits: &Limits,
        mode: Mode,
        control: &SearchControl,
        lines: usize,
        report: impl FnMut(&Info<R>) + Send,
    ) -> Outcome<R> {
        self.run(root, limits, mode, control, &[], lines, report)
    }

    /// As [`Engine::search`], with the root moves in `excluded` left out (multi-PV: each line
    /// after the first is the best line without the earlier lines' first moves). When every
    /// move is excluded, all are searched.
    pub fn search_excluding(
        &self,
        root: &Root<R>,
        limits: &Limits,
        mode: Mode,
        control: &SearchControl,
        excluded: &[Move<BitsOf<R>>],
        report: impl FnMut(&Info<R>) + Send,
    ) -> Outcome<R> {
        self.run(root, limits, mode, control, excluded, 1, report)
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        root: &Root<R>,
        limits: &Limits,
        mode: Mode,
        control: &SearchControl,
        excluded: &[Move<BitsOf<R>>],
        lines: usize,
        report: impl FnMut(&Info<R>) + Send,
    ) -> Outcome<R> {
        let started = Instant::now();
        control.begin(mode, started);
        let root_moves = RootMoves::new(root, excluded);
        let moves = &root_moves.moves;
        if moves.is_empty() {
            return Outcome {
                best: None,
                ponder: None,
                score: -crate::score::WIN,
                depth: 0,
                nodes: 0,
                elapsed: started.elapsed(),
                pv: Vec::new(),
            };
        }
        if mode == Mode::Think && moves.len() == 1 {
            let best = moves[0];
            let after = root.position.play(&best);
            let ponder = self.table.probe(after.hash()).and_then(|entry| {
                after
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| entry.hint.matches(m))
            });
            return Outcome {
                best: Some(best),
                ponder,
                score: self
                    .table
                    .probe(root.position.hash())
                    .map_or(0, |e| i32::from(e.score)),
                depth: 0,
                nodes: 0,
                elapsed: started.elapsed(),
                pv: vec![best],
            };
        }
        self.table.new_search();
        let shared = Shared::new(
            &self.table,
            &self.evaluator,
            control,
            limits,
            mode,
            started,
            self.ponder_enabled,
            root,
            self.egdb.as_deref(),
            root_moves,
            lines,
        );
        let threads = self.threads;
        let mut histories = self.take_histories(threads).into_iter();
        let main_history = histories.next().expect("one history per thread");
        if threads == 1 && self.on_calling_thread {
            let mut report = report;
            let mut searcher = Searcher::new(&shared, 0, main_history);
            let outcome = searcher.iterate(root, &mut report);
            shared.finish();
            *self.lock_histories() = vec![searcher.into_history()];
            return outcome;
        }
        let (outcome, histories) = std::thread::scope(|scope| {
            let helpers: Vec<_> = histories
                .enumerate()
                .map(|(index, history)| {
                    let id = index + 1;
                    let shared = &shared;
                    std::thread::Builder::new()
                        .name(format!("search-{id}"))
                        .stack_size(SEARCH_STACK_BYTES)
                        .spawn_scoped(scope, move || {
                            let mut searcher = Searcher::new(shared, id, history);
                            let outcome = searcher.iterate(root, &mut |_: &Info<R>| {});
                            (outcome, searcher.into_history())
                        })
                        .expect("a search thread can be started")
                })
                .collect();
            let main = std::thread::Builder::new()
                .name("search-main".to_string())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, {
                    let shared = &shared;
                    let mut report = report;
                    move || {
                        let mut searcher = Searcher::new(shared, 0, main_history);
                        let outcome = searcher.iterate(root, &mut report);
                        shared.finish();
                        (outcome, searcher.into_history())
                    }
                })
                .expect("the main search thread can be started");
            let (outcome, main_history) =
                main.join().expect("the main search thread does not panic");
            let mut histories = vec![main_history];
            let mut chosen = outcome;
            for helper in helpers {
                let (helper_outcome, history) =
                    helper.join().expect("a search thread does not panic");
                histories.push(history);
                if mode != Mode::Analyze && lines == 1 && helper_outcome.beats(&chosen) {
                    chosen = Outcome {
                        nodes: chosen.nodes,
                        elapsed: chosen.elapsed,
                        ..helper_outcome
                    };
                }
            }
            (chosen, histories)
        });
        *self.lock_histories() = histories;
        outcome
    }
}

/// The ply limit of a line, re-exported for the tests.
pub const MAX_SEARCH_PLY: usize = MAX_PLY;
