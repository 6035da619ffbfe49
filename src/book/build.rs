//! Building a book by drop-out expansion, every new position scored by Rafle's own search.
//!
//! The book is a tree (a graph, since move orders transpose) grown from the start position.
//! Every position in it is either *expanded* (all its legal moves lead to positions in the book)
//! or a *leaf*, scored by a search of fixed depth or nodes. The value of an expanded position is
//! the minimax of its children's values.
//!
//! Drop-out expansion (T. Lincke, "Strategies for the automatic construction of opening books",
//! 2000) picks the leaves to expand next: the priority of a position is the smallest, over the
//! paths from the start, of the sum of the score each move on the path gives up against the best
//! move there (its *drop*), plus a fixed cost per ply. The cheapest leaves are those a sensible
//! game is most likely to reach, and the ply cost trades depth along the main lines against
//! breadth among the alternatives.
//!
//! Work goes in rounds: select the `batch` cheapest leaves (ties ordered by the seed), generate
//! their children, score the new ones in parallel (rayon; each expanded leaf's children by one
//! worker whose transposition table is cleared first, the shared tree in a dashmap), then back
//! the values up. A round depends only on the tree before it, and every search starts from the
//! same state, so a build is deterministic for a given seed and any thread count, and a build
//! resumed from a checkpoint continues exactly as an uninterrupted one.
//!
//! Only positions without kings are expanded (besides the start position): every move between
//! them is a man move or a capture, so the graph has no cycle and the values are well defined.

use super::{BookError, BookMove, BuildInfo, encode};
use crate::core::BitBoard;
use crate::egdb::Egdb;
use crate::eval::Eval;
use crate::moves::Move;
use crate::player::options::Setup;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::{KNOWN_WIN, MAX_DISTANCE};
use crate::score::{Score, is_decisive};
use crate::search::{Engine, Limits, Mode, Root, SearchControl};
use dashmap::DashMap;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Default depth of the search that scores a new position.
pub const DEFAULT_DEPTH: u32 = 8;
/// Default cost of a ply in the drop-out expansion, in centi-men.
pub const DEFAULT_PLY_COST: u32 = 4;
/// Default number of leaves expanded per round.
pub const DEFAULT_BATCH: u32 = 32;
/// Default transposition table of each worker, in MiB.
pub const DEFAULT_WORKER_HASH_MB: usize = 4;
/// Search threads of each worker: one, so that a score does not depend on how threads met.
const WORKER_THREADS: usize = 1;

/// How to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildSettings {
    /// Depth of the scoring search (used when `nodes` is `None`).
    pub depth: u32,
    /// Node limit of the scoring search instead of a depth.
    pub nodes: Option<u64>,
    /// Cost of one ply in centi-men.
    pub ply_cost: u32,
    /// Seed ordering leaves of equal priority.
    pub seed: u64,
    /// Leaves expanded per round.
    pub batch: u32,
    /// Worker threads.
    pub threads: usize,
    /// Transposition table of each worker, in MiB.
    pub hash_mb: usize,
}

impl Default for BuildSettings {
    fn default() -> Self {
        BuildSettings {
            depth: DEFAULT_DEPTH,
            nodes: None,
            ply_cost: DEFAULT_PLY_COST,
            seed: 0,
            batch: DEFAULT_BATCH,
            threads: 1,
            hash_mb: DEFAULT_WORKER_HASH_MB,
        }
    }
}

impl BuildSettings {
    /// The settings a book was built with (the thread count is not recorded: it does not
    /// change the book).
    pub fn from_info(info: &BuildInfo) -> Self {
        BuildSettings {
            depth: info.depth,
            nodes: (info.nodes > 0).then_some(info.nodes),
            ply_cost: info.ply_cost,
            seed: info.seed,
            batch: info.batch,
            hash_mb: info.hash_mb as usize,
            ..BuildSettings::default()
        }
    }

    fn limits(&self) -> Limits {
        match self.nodes {
            Some(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            None => Limits {
                depth: Some(self.depth.max(1)),
                ..Limits::default()
            },
        }
    }
}

/// A position of the book under construction.
struct Node<R: Rules> {
    position: Position<R>,
    /// Side-to-move score: the search score of a leaf, the minimax value of an expanded node.
    value: Score,
    /// The moves and the hashes of the positions they lead to; `None` for a leaf.
    children: Option<Children<R>>,
    /// Hashes of the expanded positions with a move to this one.
    parents: Vec<u64>,
}

impl<R: Rules> Node<R> {
    /// A scored position not expanded yet.
    fn leaf(position: Position<R>, value: Score) -> Self {
        Node {
            position,
            value,
            children: None,
            parents: Vec::new(),
        }
    }
}

/// The moves of a position and the hashes of the positions they lead to.
type Children<R> = Vec<(Move<BitsOf<R>>, u64)>;

/// A leaf to expand in a round: its hash, its children, and the new positions its worker scores.
struct Expansion<R: Rules> {
    leaf: u64,
    children: Children<R>,
    new: Vec<Position<R>>,
}

/// What one round did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// Leaves expanded.
    pub expanded: usize,
    /// New positions scored.
    pub scored: usize,
}

/// A book under construction.
pub struct Builder<R: Rules> {
    settings: BuildSettings,
    tree: DashMap<u64, Node<R>>,
    root: u64,
    expanded: usize,
    engines: Mutex<Vec<Engine<R, Eval>>>,
    /// The engine of each worker.
    scoring: Setup,
    pool: rayon::ThreadPool,
    /// Build time of earlier runs (resumed books).
    seconds_before: u64,
    started: Instant,
}

/// Orders equal priorities by a hash of the position and the seed.
fn tie_break(hash: u64, seed: u64) -> u64 {
    crate::core::mix::mix64(hash ^ seed.wrapping_mul(crate::core::mix::GOLDEN_GAMMA))
}

impl<R: Rules> Builder<R> {
    /// A new book holding only the start position.
    pub fn new(settings: BuildSettings) -> Self {
        let start = Position::<R>::start();
        let tree = DashMap::new();
        tree.insert(start.hash(), Node::leaf(start, 0));
        Self::with_tree(settings, tree, 0, 0)
    }

    fn with_tree(
        settings: BuildSettings,
        tree: DashMap<u64, Node<R>>,
        expanded: usize,
        seconds_before: u64,
    ) -> Self {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(settings.threads.max(1))
            .thread_name(|i| format!("book-{i}"))
            .build()
            .expect("the book worker threads can be started");
        let scoring = Setup {
            threads: WORKER_THREADS,
            hash_mb: settings.hash_mb,
            ..Setup::default()
        };
        Builder {
            settings,
            tree,
            root: Position::<R>::start().hash(),
            expanded,
            engines: Mutex::new(Vec::new()),
            scoring,
            pool,
            seconds_before,
            started: Instant::now(),
        }
    }

    /// Continues the build of `book` with the settings recorded in it, on `threads` threads.
    ///
    /// # Errors
    /// A record that is not a valid position with legal moves.
    pub fn resume(book: &super::Book<R>, threads: usize) -> Result<Self, BookError> {
        let settings = BuildSettings {
            threads,
            ..BuildSettings::from_info(book.info())
        };
        let tree: DashMap<u64, Node<R>> = DashMap::new();
        let mut expanded = 0;
        for entry in book.entries() {
            let (position, moves) = entry?;
            let hash = position.hash();
            let value = moves.iter().map(|m| m.score).max().unwrap_or(0);
            let mut children = Vec::with_capacity(moves.len());
            for BookMove { mv, score } in moves {
                let child = position.play(&mv);
                children.push((mv, child.hash()));
                let mut node = tree
                    .entry(child.hash())
                    .or_insert_with(|| Node::leaf(child, undo_back_up(score)));
                node.parents.push(hash);
            }
            let mut node = tree
                .entry(hash)
                .or_insert_with(|| Node::leaf(position, value));
            node.value = value;
            node.children = Some(children);
            expanded += 1;
        }
        let root = Position::<R>::start();
        tree.entry(root.hash())
            .or_insert_with(|| Node::leaf(root, 0));
        Ok(Self::with_tree(
            settings,
            tree,
            expanded,
            book.info().build_seconds,
        ))
    }

    /// Scores the new positions with `eval` and the endgame tables `egdb` instead of the default
    /// evaluation without tables. Neither is recorded in the book, so a resumed build is given
    /// them again.
    pub fn set_scoring(&mut self, eval: Eval, egdb: Option<Arc<Egdb>>) {
        self.scoring.eval = eval;
        self.scoring.egdb = egdb;
        self.engines
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The settings in use.
    pub fn settings(&self) -> &BuildSettings {
        &self.settings
    }

    /// Positions in the book: expanded ones and scored leaves.
    pub fn positions(&self) -> usize {
        self.tree.len()
    }

    /// Expanded positions (those stored with their moves).
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// Seconds spent building, this run and the earlier ones.
    pub fn build_seconds(&self) -> u64 {
        self.seconds_before + self.started.elapsed().as_secs()
    }

    /// Whether a leaf may be expanded.
    fn expandable(&self, hash: u64, node: &Node<R>) -> bool {
        node.children.is_none()
            && (hash == self.root || !node.position.all_kings().any())
            && !is_decisive(node.value)
    }

    /// The `count` cheapest expandable leaves, cheapest first (Dijkstra over the book from the
    /// start, edge cost = drop + ply cost).
    fn select(&self, count: usize) -> Vec<u64> {
        let seed = self.settings.seed;
        let ply_cost = i64::from(self.settings.ply_cost);
        let mut best: HashMap<u64, i64> = HashMap::new();
        let mut heap = BinaryHeap::new();
        best.insert(self.root, 0);
        heap.push(Reverse((0i64, tie_break(self.root, seed), self.root)));
        let mut done: HashSet<u64> = HashSet::new();
        let mut selected = Vec::with_capacity(count);
        while let Some(Reverse((cost, _, hash))) = heap.pop() {
            if !done.insert(hash) {
                continue;
            }
            let node = self.tree.get(&hash).expect("book nodes are in the tree");
            let Some(children) = &node.children else {
                if self.expandable(hash, &node) {
                    selected.push(hash);
                    if selected.len() == count {
                        break;
                    }
                }
                continue;
            };
            for &(_, child) in children {
                if done.contains(&child) {
                    continue;
                }
                let child_value = self
                    .tree
                    .get(&child)
                    .expect("children are in the tree")
                    .value;
                let drop = i64::from(node.value) - i64::from(back_up(child_value));
                let child_cost = cost + drop.max(0) + ply_cost;
                if best.get(&child).is_none_or(|&c| child_cost < c) {
                    best.insert(child, child_cost);
                    heap.push(Reverse((child_cost, tie_break(child, seed), child)));
                }
            }
        }
        selected
    }

    /// Scores a position with the worker's engine.
    fn score(&self, engine: &Engine<R, Eval>, position: Position<R>) -> Score {
        let limits = self.settings.limits();
        let control = SearchControl::new();
        engine
            .search(
                &Root::new(position),
                &limits,
                Mode::Analyze,
                &control,
                |_| {},
            )
            .score
    }

    /// Runs one round: expands up to `batch` leaves and scores their new children, calling
    /// `on_scored` after each search. Returns what was done; nothing when no leaf is left.
    pub fn round(&mut self, on_scored: &(dyn Fn() + Sync)) -> Round {
        let round_started = Instant::now();
        let selected = self.select(self.settings.batch.max(1) as usize);
        let selection_time = round_started.elapsed();
        // The children of each leaf, and the new positions each leaf's worker scores: a position
        // reached from several leaves of the round is scored once, by the first.
        let mut claimed: HashSet<u64> = HashSet::new();
        let mut expansions: Vec<Expansion<R>> = Vec::new();
        for &leaf in &selected {
            let position = self.tree.get(&leaf).expect("selected leaf").position;
            let mut children = Vec::new();
            let mut new = Vec::new();
            for mv in position.legal_moves().iter() {
                let child = position.play(mv);
                let hash = child.hash();
                children.push((*mv, hash));
                if !self.tree.contains_key(&hash) && claimed.insert(hash) {
                    new.push(child);
                }
            }
            expansions.push(Expansion {
                leaf,
                children,
                new,
            });
        }
        let scored: usize = expansions.iter().map(|t| t.new.len()).sum();
        let this = &*self;
        this.pool.install(|| {
            expansions.par_iter().for_each(|Expansion { new, .. }| {
                if new.is_empty() {
                    return;
                }
                let engine = this
                    .engines
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .pop()
                    .unwrap_or_else(|| this.scoring.engine_at_most::<R>());
                // Every task starts from an empty table, so that a score does not depend on which
                // worker computed it or what it searched before.
                engine.new_game();
                for &child in new {
                    let value = this.score(&engine, child);
                    this.tree.insert(child.hash(), Node::leaf(child, value));
                    on_scored();
                }
                this.engines
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(engine);
            });
        });
        for Expansion { leaf, children, .. } in expansions {
            for &(_, child) in &children {
                self.tree
                    .get_mut(&child)
                    .expect("children are in the tree")
                    .parents
                    .push(leaf);
            }
            self.tree.get_mut(&leaf).expect("leaf").children = Some(children);
            self.expanded += 1;
        }
        self.back_up_from(&selected);
        log::debug!(
            "round: {} leaves, {scored} new positions, selection {:.1} ms, round {:.1} ms",
            selected.len(),
            selection_time.as_secs_f64() * 1e3,
            round_started.elapsed().as_secs_f64() * 1e3
        );
        Round {
            expanded: selected.len(),
            scored,
        }
    }

    /// Recomputes the values of `changed` and of their ancestors, as far as they change.
    fn back_up_from(&self, changed: &[u64]) {
        let mut queue: VecDeque<u64> = changed.iter().copied().collect();
        while let Some(hash) = queue.pop_front() {
            let (value, parents) = {
                let node = self.tree.get(&hash).expect("queued nodes are in the tree");
                let Some(children) = &node.children else {
                    continue;
                };
                let value = children
                    .iter()
                    .map(|(_, child)| back_up(self.tree.get(child).expect("child").value))
                    .max()
                    .unwrap_or(node.value);
                (value, node.parents.clone())
            };
            let mut node = self
                .tree
                .get_mut(&hash)
                .expect("queued nodes are in the tree");
            if node.value != value || changed.contains(&hash) {
                node.value = value;
                drop(node);
                queue.extend(parents);
            }
        }
    }

    /// The book as it stands: every expanded position with its moves and their scores.
    pub fn to_bytes(&self) -> Vec<u8> {
        let info = BuildInfo {
            depth: if self.settings.nodes.is_some() {
                0
            } else {
                self.settings.depth
            },
            nodes: self.settings.nodes.unwrap_or(0),
            ply_cost: self.settings.ply_cost,
            seed: self.settings.seed,
            batch: self.settings.batch,
            hash_mb: self.settings.hash_mb as u32,
            build_seconds: self.build_seconds(),
        };
        let entries: Vec<(Position<R>, Vec<BookMove<R>>)> = self
            .tree
            .iter()
            .filter_map(|node| {
                let children = node.children.as_ref()?;
                let moves = children
                    .iter()
                    .map(|&(mv, child)| BookMove {
                        mv,
                        score: back_up(self.tree.get(&child).expect("child").value),
                    })
                    .collect();
                Some((node.position, moves))
            })
            .collect();
        encode(&info, entries)
    }

    /// The value of the start position.
    pub fn root_value(&self) -> Score {
        self.tree.get(&self.root).map_or(0, |n| n.value)
    }
}

/// The score of a move from the score of the position it leads to (the opponent's view): the
/// negation, one ply further from a game end.
pub fn back_up(child: Score) -> Score {
    let score = -child;
    if score > KNOWN_WIN - MAX_DISTANCE {
        score - 1
    } else if score < -(KNOWN_WIN - MAX_DISTANCE) {
        score + 1
    } else {
        score
    }
}

/// The inverse of [`back_up`]: the score of the position a move leads to.
pub fn undo_back_up(move_score: Score) -> Score {
    let child = -move_score;
    if child < -(KNOWN_WIN - MAX_DISTANCE) + 1 {
        child - 1
    } else if child > KNOWN_WIN - MAX_DISTANCE - 1 {
        child + 1
    } else {
        child
    }
}
