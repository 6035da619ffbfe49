//! Principal variation search: iterative deepening with aspiration windows, PVS with late move
//! reductions, a quiescence search over the compulsory captures, and move ordering by the table
//! move, killers, counter moves and history.

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
/// Squares indexable by the history table (bit indices of every geometry are below this).
const HISTORY_SQUARES: usize = 128;
/// A move's origin and destination square as `from << 8 | to`: the identity of a quiet move,
/// and the index of the counter-move table.
type MoveCode = u16;
/// No move (no square has bit index 255).
const NO_MOVE: MoveCode = MoveCode::MAX;

#[inline(always)]
fn move_code<B>(mv: &Move<B>) -> MoveCode {
    (MoveCode::from(mv.from) << 8) | MoveCode::from(mv.to)
}

/// What one thread learnt about the quiet moves, carried from one search to the next of the
/// same game (cleared at a new game).
pub(super) struct HistoryTable {
    /// History scores of quiet moves, by side, origin and destination square.
    scores: [[[i32; HISTORY_SQUARES]; HISTORY_SQUARES]; 2],
    /// Counter moves: by side to move and the origin and destination of the opponent's last
    /// move, the quiet reply that last caused a beta cut-off ([`NO_MOVE`]: none yet).
    counter_moves: [[[MoveCode; HISTORY_SQUARES]; HISTORY_SQUARES]; 2],
}

/// A history table with no experience.
pub(super) fn new_history() -> Box<HistoryTable> {
    Box::new(HistoryTable {
        scores: [[[0; HISTORY_SQUARES]; HISTORY_SQUARES]; 2],
        counter_moves: [[[NO_MOVE; HISTORY_SQUARES]; HISTORY_SQUARES]; 2],
    })
}

/// Ages a history table carried over from the previous search: what was learnt a move ago
/// still orders moves, but the new search soon outweighs it. Counter moves are kept until
/// replaced.
pub(super) fn age_history(history: &mut HistoryTable) {
    for value in history.scores.iter_mut().flatten().flatten() {
        *value /= HISTORY_AGE_DIVISOR;
    }
}

/// Move ordering classes, highest first.
const ORDER_TABLE_MOVE: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 28;
const ORDER_PROMOTION: i32 = 1 << 27;
const ORDER_KILLER: i32 = 1 << 26;
/// Above every history score (scaled down when it passes [`HISTORY_LIMIT`], far below this).
const ORDER_COUNTER_MOVE: i32 = 1 << 25;
/// Stored in the table's evaluation field when no static evaluation was computed.
const NO_EVAL: i16 = i16::MIN;

/// Draw counters within this many plies of drawing the game are part of the table key: the same
/// placement of pieces is then a different position for the search (a win there may no longer
/// fit in the moves left).
const COUNTER_KEY_HORIZON: u32 = 16;
/// Multiplier spreading the counter value over the key bits.
const COUNTER_KEY_SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// The part of the table key that comes from the draw-rule counters (0 far from any limit).
#[inline(always)]
fn counter_key<R: Rules>(counters: &DrawCounters<R>) -> u64 {
    match counters.plies_until_draw() {
        Some(left) if left <= COUNTER_KEY_HORIZON => {
            u64::from(left + 1).wrapping_mul(COUNTER_KEY_SPREAD)
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

/// A position in the search with its draw-rule counters and the move that led to it.
#[derive(Clone, Copy)]
struct Node<R: Rules> {
    position: Position<R>,
    counters: DrawCounters<R>,
    /// [`move_code`] of the opponent's move that led here ([`NO_MOVE`] at the root).
    previous: MoveCode,
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
    /// Root moves left out of this search (multi-PV searches the later lines without the
    /// earlier lines' first moves).
    excluded: &'a [Move<BitsOf<R>>],
    /// Lines searched at each depth (multi-PV): each next one without the earlier ones' first
    /// moves.
    lines: usize,
    rules: std::marker::PhantomData<R>,
}

impl<'a, R: Rules, E: Evaluator<R>> Shared<'a, R, E> {
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
        excluded: &'a [Move<BitsOf<R>>],
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
            excluded,
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

    /// Iterative deepening on `root`; reports after each iteration (main thread only).
    pub(super) fn iterate(
        &mut self,
        root: &Root<R>,
        report: &mut dyn FnMut(&Info<R>),
    ) -> Outcome<R> {
        let shared = self.shared;
        let history = &root.history[root.history.len().saturating_sub(KEY_STACK - MAX_PLY - 2)..];
        for (index, &key) in history.iter().enumerate() {
            self.keys[index] = key;
            self.reversible[index] = index as u16;
        }
        self.key_count = history.len();
        self.push_key(root.position.hash(), !history.is_empty());
        let mut root_moves = root.position.legal_moves();
        root.counters.restrict(&root.position, &mut root_moves);
        let mut best = root_moves
            .iter()
            .copied()
            .find(|mv| !shared.excluded.iter().any(|x| x.same_as(mv)))
            .unwrap_or(root_moves[0]);
        let mut pv = vec![best];
        let mut score = 0;
        let mut completed = 0;
        // Multi-PV: each later line's score at the previous depth, its aspiration centre.
        let mut line_scores = vec![0; shared.lines];
        let mut time = shared.time;
        let max_depth = shared
            .limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let mut depth = 1 + (self.id as i32 % 2);
        while depth <= max_depth {
            self.root_depth = depth;
            self.leaf_plies = 0;
            self.leaves = 0;
            let (iteration_score, aborted) =
                self.aspiration(&root.position, root.counters, depth, score);
            if aborted && completed > 0 {
                break;
            }
            if self.pv_length[0] > 0 {
                let new_best = self.pv[0][0];
                let changed = !new_best.same_as(&best);
                let dropped = completed > 0 && iteration_score < score - SCORE_DROP;
                best = new_best;
                pv = self.pv[0][..self.pv_length[0]].to_vec();
                score = iteration_score;
                time.iteration_done(changed && depth > 1, dropped);
            }
            completed = depth;
            if self.id == 0 {
                report(&Info {
                    line: 1,
                    depth: depth as u32,
                    mean_depth: if self.leaves > 0 {
                        self.leaf_plies as f64 / self.leaves as f64
                    } else {
                        f64::from(depth)
                    },
                    score,
                    nodes: self.total_nodes(),
                    elapsed: shared.started.elapsed(),
                    pv: pv.clone(),
                });
            }
            if aborted || self.stopped || shared.should_stop() {
                break;
            }
            if shared.lines > 1 && self.more_lines(root, depth, &pv, &mut line_scores, report) {
                break;
            }
            if self.id == 0 && (self.node_limit_reached() || self.time_up_between_iterations(&time))
            {
                break;
            }
            if score::is_game_end(score) && depth > (score::WIN - score.abs()) + 2 {
                // A forced win or loss found well inside the horizon will not change.
                if shared.mode != Mode::Analyze || shared.limits.depth.is_none() {
                    break;
                }
            }
            depth += if self.id == 0 {
                1
            } else {
                1 + (self.id as i32 % 2)
            };
        }
        self.flush_nodes();
        let ponder = pv.get(1).copied().or_else(|| {
            let after = root.position.play(&best);
            let entry = shared.table.probe(after.hash())?;
            after
                .legal_moves()
                .iter()
                .copied()
                .find(|m| entry.hint.matches(m))
        });
        Outcome {
            best: Some(best),
            ponder,
            score,
            depth: completed as u32,
            nodes: self.total_nodes(),
            elapsed: shared.started.elapsed(),
            pv,
        }
    }

    /// Multi-PV: the lines after the first at `depth`, each without the first moves of the lines
    /// before it, reported (main thread) as each completes. Returns whether the search was
    /// stopped in one of them.
    fn more_lines(
        &mut self,
        root: &Root<R>,
        depth: i32,
        first: &[Move<BitsOf<R>>],
        scores: &mut [Score],
        report: &mut dyn FnMut(&Info<R>),
    ) -> bool {
        let shared = self.shared;
        self.lines_found.clear();
        self.lines_found.extend(first.first().copied());
        let mut stopped = false;
        for (line, line_score) in scores.iter_mut().enumerate().skip(1) {
            let mut legal = root.position.legal_moves();
            root.counters.restrict(&root.position, &mut legal);
            let left = legal.iter().any(|mv| {
                !shared.excluded.iter().any(|x| x.same_as(mv))
                    && !self.lines_found.iter().any(|x| x.same_as(mv))
            });
            if !left {
                break;
            }
            self.leaf_plies = 0;
            self.leaves = 0;
            let (value, aborted) =
                self.aspiration(&root.position, root.counters, depth, *line_score);
            if aborted {
                stopped = true;
                break;
            }
            if self.pv_length[0] == 0 {
                break;
            }
            *line_score = value;
            let pv = self.pv[0][..self.pv_length[0]].to_vec();
            self.lines_found.push(pv[0]);
            if self.id == 0 {
                report(&Info {
                    line: line + 1,
                    depth: depth as u32,
                    mean_depth: if self.leaves > 0 {
                        self.leaf_plies as f64 / self.leaves as f64
                    } else {
                        f64::from(depth)
                    },
                    score: value,
                    nodes: self.total_nodes(),
                    elapsed: shared.started.elapsed(),
                    pv,
                });
            }
        }
        self.lines_found.clear();
        stopped
    }

    /// The history table, to carry over to the next search.
    pub(super) fn into_history(self) -> Box<HistoryTable> {
        self.history
    }

    fn time_up_between_iterations(&self, time: &TimeManager) -> bool {
        let shared = self.shared;
        if shared.limits.infinite || shared.control.is_pondering() {
            return false;
        }
        time.should_stop_between_iterations(shared.started.elapsed())
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

    /// The root search of one iteration, with a window around the previous score that widens on
    /// failure. Returns the score and whether the iteration was aborted.
    fn aspiration(
        &mut self,
        position: &Position<R>,
        counters: DrawCounters<R>,
        depth: i32,
        previous: Score,
    ) -> (Score, bool) {
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_FROM_DEPTH && !score::is_decisive(previous) {
                (previous - window, previous + window)
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let root = Node {
                position: *position,
                counters,
                previous: NO_MOVE,
            };
            let value = self.search::<true>(&root, depth, alpha, beta, 0, 0);
            if self.stopped {
                return (value, true);
            }
            if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - window).max(-INFINITE);
            } else if value >= beta {
                beta = (value + window).min(INFINITE);
            } else {
                return (value, false);
            }
            window *= 2;
            if window > 4 * score::EVAL_LIMIT {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Counts a node and, every [`POLL_INTERVAL`] nodes, checks the stop flag, the clock and the
    /// node limit.
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if self.nodes % POLL_INTERVAL == 0 {
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
            && shared.started.elapsed() >= hard
        {
            self.stop_all();
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.finish();
    }

    /// Whether the position at the top of the key stack repeats one since the last irreversible
    /// move (the first repetition already counts as a draw inside the search).
    #[inline]
    fn is_repetition(&self, index: usize) -> bool {
        let reversible = usize::from(self.reversible[index]);
        let key = self.keys[index];
        let mut back = 4;
        while back <= reversible {
            if self.keys[index - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// The score of a position the side to move can still move in, when it is decided without
    /// search: drawn by a counter rule (FMJD art. 6.2-6.4; a win by blockade or capture of the
    /// last piece is decided before this), or known by endgame knowledge.
    #[inline]
    fn rule_score(node: &Node<R>, ply: usize) -> Option<Score> {
        if node.counters.draw_by_counters().is_some() {
            return Some(DRAW);
        }
        Self::known_score(&node.position, &node.counters, ply)
    }

    /// The score endgame knowledge gives a position without search (lone-king endings), from the
    /// side to move's view.
    #[inline]
    fn known_score(
        position: &Position<R>,
        counters: &DrawCounters<R>,
        ply: usize,
    ) -> Option<Score> {
        let lone_king_possible = position.pieces(Color::White).count() == 1
            || position.pieces(Color::Black).count() == 1;
        if !lone_king_possible {
            return None;
        }
        Some(match endgame::lone_king_verdict(position, counters)? {
            EndgameVerdict::Draw => DRAW,
            EndgameVerdict::Win(winner) if winner == position.side() => {
                score::KNOWN_WIN - ply as i32
            }
            EndgameVerdict::Win(_) => -(score::KNOWN_WIN - ply as i32),
        })
    }

    /// The score of a position where the side to move has no legal move.
    #[inline]
    fn no_moves_score(ply: usize) -> Score {
        match R::GOAL {
            Goal::Losing => score::win_in(ply as i32),
            Goal::Standard | Goal::FirstKingWins => score::loss_in(ply as i32),
        }
    }

    #[inline]
    fn push_key(&mut self, hash: u64, reversible_move: bool) -> usize {
        let index = self.key_count;
        self.keys[index] = hash;
        self.reversible[index] = if reversible_move && index > 0 {
            self.reversible[index - 1] + 1
        } else {
            0
        };
        self.key_count += 1;
        index
    }

    /// The alpha-beta search proper (`PV`: principal-variation node).
    fn search<const PV: bool>(
        &mut self,
        node: &Node<R>,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_extensions: i32,
    ) -> Score {
        let (position, counters) = (&node.position, node.counters);
        self.pv_length[ply] = 0;
        if ply > 0 {
            if self.stopped {
                return DRAW;
            }
            if self.key_count > 0 && self.is_repetition(self.key_count - 1) {
                return DRAW;
            }
            if R::GOAL == Goal::FirstKingWins && position.kings(!position.side()).any() {
                return score::loss_in(ply as i32);
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.shared.evaluator.evaluate(position);
        }
        // Mate distance pruning: no line from here beats a win already found nearer the root.
        let alpha_floor = score::loss_in(ply as i32);
        let beta_ceiling = score::win_in(ply as i32 + 1);
        if alpha_floor >= beta || beta_ceiling <= alpha {
            return if alpha_floor >= beta {
                alpha_floor
            } else {
                beta_ceiling
            };
        }
        if depth <= 0 {
            return self.quiescence(node, alpha, beta, ply, threat_extensions);
        }
        self.count_node();
        // The table comes before move generation: a cut-off here costs no generation. A stored
        // entry means the node was searched, so it has moves; a rule decision still wins.
        let hash = position.hash() ^ counter_key(&counters);
        let entry = self.shared.table.probe(hash);
        let mut hint = MoveHint::default();
        let mut static_eval = None;
        if let Some(entry) = entry {
            hint = entry.hint;
            if entry.eval != NO_EVAL {
                static_eval = Some(Score::from(entry.eval));
            }
            if !PV
                && ply > 0
                && i32::from(entry.depth) >= depth
                && let Some(stored) = table_cut(&entry, alpha, beta, ply)
            {
                return Self::rule_score(node, ply).unwrap_or(stored);
            }
        }

        let mut list = MoveList::new();
        movegen::generate(position, &mut list);
        counters.restrict(position, &mut list);
        if list.is_empty() {
            return Self::no_moves_score(ply);
        }
        if ply == 0 && self.excluding() {
            let mut kept = MoveList::new();
            for mv in list.iter() {
                if !self.shared.excluded.iter().any(|x| x.same_as(mv))
                    && !self.lines_found.iter().any(|x| x.same_as(mv))
                {
                    kept.push(*mv);
                }
            }
            if !kept.is_empty() {
                list = kept;
            }
        }
        let is_capture = list[0].is_capture();
        if ply > 0
            && let Some(known) = Self::rule_score(node, ply)
        {
            return known;
        }
        if let Some((egdb, pieces)) = self.shared.egdb {
            if ply == 0 {
                super::egdb::filter_root(egdb, position, &mut list);
            } else if !is_capture
                && let Some(known) =
                    super::egdb::quiet_score(egdb, pieces, position, &counters, ply)
            {
                return known;
            }
        }

        // Reverse futility: a quiet position far above beta near the horizon.
        if !PV
            && ply > 0
            && !is_capture
            && depth <= REVERSE_FUTILITY_MAX_DEPTH
            && !score::is_decisive(beta)
        {
            // The cheaper test first: an evaluation already known, else the threat (a capture
            // the opponent would have), which spares the evaluation when it forbids the cut.
            let cut = match static_eval {
                Some(eval) => {
                    eval - REVERSE_FUTILITY_MARGIN * depth >= beta && !position.pass().has_capture()
                }
                None => {
                    !position.pass().has_capture() && {
                        let eval = self.shared.evaluator.evaluate(position);
                        static_eval = Some(eval);
                        eval - REVERSE_FUTILITY_MARGIN * depth >= beta
                    }
                }
            };
            if cut && let Some(eval) = static_eval {
                return eval;
            }
        }

        // ProbCut: a shallow search far above beta predicts the deep one.
        if !PV
            && ply > 0
            && depth >= PROBCUT_MIN_DEPTH
            && !score::is_decisive(alpha)
            && !score::is_decisive(beta)
        {
            let raised = beta + PROBCUT_MARGIN;
            let value = self.search::<false>(
                node,
                depth - PROBCUT_REDUCTION,
                raised - 1,
                raised,
                ply,
                threat_extensions,
            );
            if self.stopped {
                return DRAW;
            }
            if value >= raised {
                return value;
            }
        }

        // In a lone-king ending, or when a draw-rule count runs out within the horizon, a win
        // must be found by its shortest line, which reductions (IIR, LMR) would push past the
        // horizon or past the count. These nodes are few and their trees small.
        let full_depth_only = counters.ending().is_some()
            || counters
                .plies_until_draw()
                .is_some_and(|left| left <= depth.max(0) as u32);
        // Internal iterative reduction (see IIR_MIN_DEPTH).
        let depth = if depth >= IIR_MIN_DEPTH && !hint.is_some() && !full_depth_only {
            depth - 1
        } else {
            depth
        };
        // A single legal move costs no depth.
        let next_depth = if list.len() == 1 { depth } else { depth - 1 };
        // Ordered lazily: each move is picked when its turn comes, so a cut-off spares sorting
        // the rest.
        let side = position.side().index();
        let counter_move = self.counter_move(side, node.previous);
        let mut keys = OrderKeys::new();
        self.order_keys(&list, hint, ply, side, counter_move, &mut keys);
        pick(list.as_mut_slice(), keys.as_mut_slice(), 0);

        // Futility pruning (see FUTILITY_MAX_DEPTH): decided once for the node, applied to its
        // quiet moves below. As for reverse futility, the cheaper test comes first.
        let futile = !PV
            && ply > 0
            && !is_capture
            && depth <= FUTILITY_MAX_DEPTH
            && !score::is_decisive(alpha)
            && match static_eval {
                Some(eval) => {
                    eval + FUTILITY_MARGIN * depth <= alpha && !position.pass().has_capture()
                }
                None => {
                    !position.pass().has_capture() && {
                        let eval = self.shared.evaluator.evaluate(position);
                        static_eval = Some(eval);
                        eval + FUTILITY_MARGIN * depth <= alpha
                    }
                }
            };

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = list[0];
        for index in 0..list.len() {
            if index > 0 {
                pick(list.as_mut_slice(), keys.as_mut_slice(), index);
            }
            let mv = list[index];
            // Late move pruning: near the horizon, the moves ordered last are not searched.
            if !PV
                && ply > 0
                && depth <= LATE_MOVE_PRUNING_MAX_DEPTH
                && !is_capture
                && index >= LATE_MOVE_PRUNING_BASE + (depth * depth) as usize
                && !mv.is_promotion()
                && !score::is_decisive(best_score)
            {
                // Every later move is pruned too: promotions come before every other move but
                // the table move (first), and best_score does not change while moves are
                // skipped.
                debug_assert!(list[index..].iter().all(|m| !m.is_promotion()));
                break;
            }
            // Futility pruning: a quiet move is not expected to lift this node to alpha. Like
            // late move pruning, the skipped moves leave best_score as the searched ones set it.
            if futile
                && index > 0
                && !mv.is_promotion()
                && !hint.matches(&mv)
                && !self.is_killer(&mv, ply)
                && !score::is_decisive(best_score)
            {
                // Every later move is pruned too: the moves kept (table move, promotions,
                // killers) are ordered before the others.
                debug_assert!(
                    list[index..]
                        .iter()
                        .all(|m| !m.is_promotion() && !hint.matches(m) && !self.is_killer(m, ply))
                );
                break;
            }
            let child = position.play(&mv);
            let child_counters = counters.after(&mv, &child);
            self.shared
                .table
                .prefetch(child.hash() ^ counter_key(&child_counters));
            let child_node = Node {
                position: child,
                counters: child_counters,
                previous: move_code(&mv),
            };
            let key_index = self.push_key(child.hash(), !mv.is_irreversible());
            debug_assert_eq!(key_index + 1, self.key_count);
            let quiet = !mv.is_capture() && !mv.is_promotion();
            let value = if index == 0 {
                -self.search::<PV>(
                    &child_node,
                    next_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    threat_extensions,
                )
            } else {
                let mut reduction = 0;
                if depth >= LMR_MIN_DEPTH
                    && quiet
                    && !full_depth_only
                    && (!PV || index >= LMR_PV_FULL_DEPTH_MOVES)
                    && !self.is_killer(&mv, ply)
                {
                    reduction = i32::from(self.reductions[depth.min(63) as usize][index.min(63)]);
                    if PV {
                        reduction -= 1;
                    } else {
                        let least = if index >= LMR_TWO_PLIES_FROM { 2 } else { 1 };
                        reduction = reduction.max(least);
                    }
                    // A move that has failed low more often than it cut goes shallower still.
                    if self.history.scores[side][usize::from(mv.from)][usize::from(mv.to)] < 0 {
                        reduction += 1;
                    }
                    reduction = reduction.clamp(0, next_depth - 1);
                }
                let mut value = -self.search::<false>(
                    &child_node,
                    next_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    threat_extensions,
                );
                if value > alpha && reduction > 0 {
                    value = -self.search::<false>(
                        &child_node,
                        next_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        threat_extensions,
                    );
                }
                if PV && value > alpha && value < beta {
                    value = -self.search::<true>(
                        &child_node,
                        next_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        threat_extensions,
                    );
                }
                value
            };
            self.key_count -= 1;
            if self.stopped {
                return best_score.max(DRAW.min(alpha));
            }
            if value > best_score {
                best_score = value;
                best_move = mv;
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if value >= beta {
                        if quiet {
                            self.reward(&mv, ply, depth, side, node.previous, &list[..index]);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched without some of its moves has no true value to keep.
        if ply > 0 || !self.excluding() {
            self.shared.table.store(
                hash,
                Entry {
                    hint: MoveHint::of(&best_move),
                    score: score::to_table(best_score, ply as i32) as i16,
                    eval: static_eval.map_or(NO_EVAL, |e| e as i16),
                    depth: depth.clamp(0, i32::from(u8::MAX)) as u8,
                    bound,
                },
            );
        }
        best_score
    }

    /// Whether some root moves are left out (multi-PV, or moves excluded by the caller).
    fn excluding(&self) -> bool {
        !self.shared.excluded.is_empty() || !self.lines_found.is_empty()
    }

    /// Quiescence: resolve the compulsory captures; in a quiet position stand pat, unless the
    /// opponent threatens a capture, in which case one more full-width ply is searched (a few
    /// times per line at most).
    fn quiescence(
        &mut self,
        node: &Node<R>,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_extensions: i32,
    ) -> Score {
        let (position, counters) = (&node.position, node.counters);
        self.count_node();
        if ply > 0 && R::GOAL == Goal::FirstKingWins && position.kings(!position.side()).any() {
            return score::loss_in(ply as i32);
        }
        if ply >= MAX_PLY - 1 {
            return self.shared.evaluator.evaluate(position);
        }
        let must_capture = position.has_capture();
        if !must_capture && movegen::count_quiet(position) == 0 {
            return Self::no_moves_score(ply);
        }
        if ply > 0
            && let Some(known) = Self::rule_score(node, ply)
        {
            return known;
        }
        // The table before generating captures or evaluating: any stored result (every depth is
        // at least quiescence's) that bounds the window answers the node.
        let entry = self
            .shared
            .table
            .probe(position.hash() ^ counter_key(&counters));
        if let Some(entry) = entry
            && let Some(stored) = table_cut(&entry, alpha, beta, ply)
        {
            return stored;
        }
        if !must_capture
            && let Some((egdb, pieces)) = self.shared.egdb
            && let Some(known) = super::egdb::quiet_score(egdb, pieces, position, &counters, ply)
        {
            return known;
        }
        if !must_capture {
            if threat_extensions < QUIESCENCE_THREAT_EXTENSIONS && position.pass().has_capture() {
                return self.search::<false>(node, 1, alpha, beta, ply, threat_extensions + 1);
            }
            self.leaf_plies += ply as u64;
            self.leaves += 1;
            // Stand pat: the static evaluation the table kept for this position, if any, is the
            // same number computed again.
            return match entry {
                Some(entry) if entry.eval != NO_EVAL => Score::from(entry.eval),
                _ => self.shared.evaluator.evaluate(position),
            };
        }
        let mut list = MoveList::new();
        movegen::generate_captures(position, &mut list);
        let mut best = -INFINITE;
        for mv in list.iter() {
            let child = position.play(mv);
            let child_counters = counters.after(mv, &child);
            // The child probes the table first thing: start loading its bucket now.
            self.shared
                .table
                .prefetch(child.hash() ^ counter_key(&child_counters));
            let child_node = Node {
                position: child,
                counters: child_counters,
                previous: move_code(mv),
            };
            let value = -self.quiescence(&child_node, -beta, -alpha, ply + 1, threat_extensions);
            if self.stopped {
                return best.max(DRAW.min(alpha));
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move<BitsOf<R>>) {
        let child_length = self.pv_length[ply + 1];
        self.pv[ply][0] = mv;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=child_length].copy_from_slice(&tail[0][..child_length]);
        self.pv_length[ply] = child_length + 1;
    }

    fn is_killer(&self, mv: &Move<BitsOf<R>>, ply: usize) -> bool {
        self.killers[ply].iter().any(|k| k.same_as(mv))
    }

    /// The counter move of `side` to the opponent's move `previous` ([`NO_MOVE`]: none).
    #[inline(always)]
    fn counter_move(&self, side: usize, previous: MoveCode) -> MoveCode {
        if previous == NO_MOVE {
            return NO_MOVE;
        }
        self.history.counter_moves[side][usize::from(previous >> 8)][usize::from(previous & 0xFF)]
    }

    /// A quiet move caused a beta cut-off: it becomes a killer and the counter move to
    /// `previous`, and the history rewards it and punishes the quiet moves tried before it.
    fn reward(
        &mut self,
        mv: &Move<BitsOf<R>>,
        ply: usize,
        depth: i32,
        side: usize,
        previous: MoveCode,
        tried: &[Move<BitsOf<R>>],
    ) {
        if !self.killers[ply][0].same_as(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = *mv;
        }
        if previous != NO_MOVE {
            self.history.counter_moves[side][usize::from(previous >> 8)]
                [usize::from(previous & 0xFF)] = move_code(mv);
        }
        let bonus = depth * depth;
        let table = &mut self.history.scores[side];
        table[usize::from(mv.from)][usize::from(mv.to)] += bonus;
        for other in tried {
            if !other.is_capture() {
                table[usize::from(other.from)][usize::from(other.to)] -= bonus;
            }
        }
        if table[usize::from(mv.from)][usize::from(mv.to)].abs() > HISTORY_LIMIT {
            for row in table.iter_mut() {
                for value in row.iter_mut() {
                    *value /= 2;
                }
            }
        }
    }

    /// The ordering keys of the moves, highest first: table move, then captures (more kings
    /// first), promotions, killers, the counter move, and quiet moves by history.
    fn order_keys(
        &self,
        list: &MoveList<BitsOf<R>>,
        hint: MoveHint,
        ply: usize,
        side: usize,
        counter_move: MoveCode,
        keys: &mut OrderKeys,
    ) {
        let history = &self.history.scores[side];
        for mv in list.iter() {
            keys.push(if hint.matches(mv) {
                ORDER_TABLE_MOVE
            } else if mv.is_capture() {
                ORDER_CAPTURE + mv.captured.count() as i32
            } else if mv.is_promotion() {
                ORDER_PROMOTION
            } else if self.killers[ply][0].same_as(mv) {
                ORDER_KILLER + 1
            } else if self.killers[ply][1].same_as(mv) {
                ORDER_KILLER
            } else if move_code(mv) == counter_move {
                ORDER_COUNTER_MOVE
            } else {
                history[usize::from(mv.from)][usize::from(mv.to)]
            });
        }
    }
}

/// Moves the move of highest key among `moves[index..]` (the first of equals) to `index`, the
/// others keeping their order: picking at 0, 1, 2, ... gives a stable sort by falling key.
#[inline(always)]
fn pick<B: Copy>(moves: &mut [Move<B>], keys: &mut [i32], index: usize) {
    debug_assert_eq!(moves.len(), keys.len());
    let mut best = index;
    for j in index + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    if best > index {
        let (key, mv) = (keys[best], moves[best]);
        let mut j = best;
        while j > index {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[index] = key;
        moves[index] = mv;
    }
}

/// The ordering keys of a move list, on the stack and not zeroed (only the keys pushed are
/// read).
struct OrderKeys {
    keys: [MaybeUninit<i32>; crate::moves::MAX_MOVES],
    len: usize,
}

impl OrderKeys {
    #[inline(always)]
    fn new() -> Self {
        OrderKeys {
            keys: [const { MaybeUninit::uninit() }; crate::moves::MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, key: i32) {
        assert!(self.len < crate::moves::MAX_MOVES, "order keys overflow");
        self.keys[self.len].write(key);
        self.len += 1;
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [i32] {
        // SAFETY: the first `len` keys were written by `push`, and `len <= MAX_MOVES`; the
        // borrow of `self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.keys.as_mut_ptr().cast::<i32>(), self.len) }
    }
}
