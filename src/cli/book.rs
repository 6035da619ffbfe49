//! `rafle book`: build an opening book, look positions up in it, and describe it.

use super::engine_args::{EngineArgs, EngineDefaults, default_help};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rafle::book::BookMove;
use rafle::book::build::{
    BuildSettings, Builder, DEFAULT_BATCH, DEFAULT_DEPTH, DEFAULT_PLY_COST, DEFAULT_WORKER_HASH_MB,
};
use rafle::game::Game;
use rafle::notation::text;
use rafle::player::options::{self, DEPTH_RANGE, NODES_RANGE};
use rafle::position::Position;
use rafle::rules::{Rules, Variant};
use rafle::score;
use rafle::with_variant;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Positions a build grows to when `--positions` is not given.
const DEFAULT_POSITIONS: u64 = 10_000;
/// Seconds between checkpoints of a build.
const DEFAULT_CHECKPOINT_SECONDS: u64 = 300;
/// Longest book line `probe` prints.
const MAX_LINE_PLIES: usize = 40;
/// Leaves expanded per round accepted: a round's work is held in memory at once.
const BATCH_RANGE: std::ops::RangeInclusive<i64> = 1..=100_000;
/// What `--ply-cost` does.
const PLY_COST_HELP: &str = "Cost of a ply in the drop-out expansion, in centi-men: lower grows \
    the main lines deeper, higher spreads the book over more alternatives";

/// The engine of `book build`: workers, each with a small table (a book scores many positions,
/// each by a short search).
#[derive(Clone, Copy, Debug)]
pub struct Workers;

impl EngineDefaults for Workers {
    const HASH_MB: usize = DEFAULT_WORKER_HASH_MB;
    const THREADS_HELP: &'static str =
        "Worker threads, each scoring positions with its own one-thread search and table";
    const HASH_HELP: &'static str =
        "Transposition table of each worker in MiB (recorded in the book: the scores depend on it)";
}

/// Arguments of `rafle book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// What to do with the book.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The `book` subcommands.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Grow a book by drop-out expansion, every new position scored by our search.
    Build(BuildArgs),
    /// List the book moves of a position with their scores.
    Probe(ProbeArgs),
    /// Describe a book: how it was built, its size and shape.
    Stats(StatsArgs),
}

/// Arguments of `rafle book build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Book file to write (checkpoints replace it atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// Grow the book to this many positions (expanded positions and scored leaves).
    #[arg(long, default_value_t = DEFAULT_POSITIONS)]
    pub positions: u64,
    /// Depth of the search scoring each new position; `None` for the default or the recorded one.
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(DEPTH_RANGE),
        help = default_help("Depth of the search scoring each new position", DEFAULT_DEPTH))]
    pub depth: Option<u32>,
    /// Node limit of the search scoring each new position, instead of a depth.
    #[arg(long, value_parser = clap::value_parser!(u64).range(NODES_RANGE))]
    pub nodes: Option<u64>,
    /// Cost of a ply in the drop-out expansion, in centi-men.
    #[arg(long, help = default_help(PLY_COST_HELP, DEFAULT_PLY_COST))]
    pub ply_cost: Option<u32>,
    /// Seed ordering leaves of equal priority.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Leaves expanded per round.
    #[arg(long, value_parser = clap::value_parser!(u32).range(BATCH_RANGE),
        help = default_help("Leaves expanded per round", DEFAULT_BATCH))]
    pub batch: Option<u32>,
    /// The workers' engines. The table size is recorded in the book (the scores depend on it);
    /// the evaluation and the endgame tables are not, so a resumed build is given them again.
    #[command(flatten)]
    pub engine: EngineArgs<Workers>,
    /// Continue the book in `--out` (with the settings recorded in it).
    #[arg(long)]
    pub resume: bool,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = DEFAULT_CHECKPOINT_SECONDS)]
    pub checkpoint: u64,
    /// Rules to use.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
}

/// Arguments of `rafle book probe`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// Book file (default: the shipped book of the variant, see `books/README.md`).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Position as a PDN FEN (default: the start position).
    #[arg(short, long)]
    pub fen: Option<String>,
    /// Moves played from that position.
    #[arg(short, long)]
    pub moves: Option<String>,
    /// Rules to use.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
}

/// Arguments of `rafle book stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Book file (default: the shipped book of the variant).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Rules to use.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
}

/// Runs `rafle book`.
///
/// # Errors
/// A message for a bad argument or an unreadable book.
pub fn run(args: &BookArgs) -> Result<(), String> {
    match &args.command {
        BookCommand::Build(args) => with_variant!(args.variant, R => build::<R>(args)),
        BookCommand::Probe(args) => with_variant!(args.variant, R => probe::<R>(args)),
        BookCommand::Stats(args) => with_variant!(args.variant, R => stats::<R>(args)),
    }
}

fn build<R: Rules>(args: &BuildArgs) -> Result<(), String> {
    let threads = args.engine.threads as usize;
    let scoring = args.engine.setup::<R>()?;
    let mut builder = if args.resume && args.out.exists() {
        let book = options::load_book::<R>(&args.out).map_err(|e| e.to_string())?;
        let builder = Builder::<R>::resume(&book, threads).map_err(|e| e.to_string())?;
        let recorded = builder.settings().clone();
        let conflicts = [
            (
                "--depth",
                args.depth
                    .is_some_and(|d| recorded.nodes.is_some() || d != recorded.depth),
            ),
            (
                "--nodes",
                args.nodes.is_some_and(|n| recorded.nodes != Some(n)),
            ),
            (
                "--ply-cost",
                args.ply_cost.is_some_and(|c| c != recorded.ply_cost),
            ),
            ("--seed", args.seed.is_some_and(|s| s != recorded.seed)),
            ("--batch", args.batch.is_some_and(|b| b != recorded.batch)),
            (
                "--hash",
                args.engine
                    .hash
                    .is_some_and(|h| h != recorded.hash_mb as u64),
            ),
        ];
        if let Some((name, _)) = conflicts.iter().find(|(_, differs)| *differs) {
            return Err(format!(
                "{name} differs from the settings recorded in {} ({recorded:?}); a resumed build keeps them",
                args.out.display()
            ));
        }
        eprintln!(
            "resuming {}: {} positions, {} expanded, {} s of building so far",
            args.out.display(),
            builder.positions(),
            builder.expanded(),
            book.info().build_seconds
        );
        builder
    } else {
        if args.out.exists() {
            return Err(format!(
                "{} exists: give --resume to continue it, or choose another file",
                args.out.display()
            ));
        }
        Builder::<R>::new(BuildSettings {
            depth: args.depth.unwrap_or(DEFAULT_DEPTH),
            nodes: args.nodes,
            ply_cost: args.ply_cost.unwrap_or(DEFAULT_PLY_COST),
            seed: args.seed.unwrap_or(0),
            batch: args.batch.unwrap_or(DEFAULT_BATCH),
            threads,
            hash_mb: scoring.hash_mb,
        })
    };
    builder.set_scoring(scoring.eval, scoring.egdb);
    let save = |builder: &Builder<R>| -> Result<(), String> {
        rafle::book::write_atomically(&args.out, &builder.to_bytes()).map_err(|e| e.to_string())
    };
    let bar = ProgressBar::new(args.positions).with_style(
        ProgressStyle::default_bar()
            .template(
                "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} positions, {per_sec}, ETA {eta}",
            )
            .expect("valid progress template")
            .progress_chars("=> "),
    );
    bar.set_position(builder.positions() as u64);
    bar.reset_eta();
    let started = Instant::now();
    let positions_before = builder.positions();
    let mut last_checkpoint = Instant::now();
    let interval = Duration::from_secs(args.checkpoint.max(1));
    let mut finished = true;
    while (builder.positions() as u64) < args.positions {
        let round = builder.round(&|| bar.inc(1));
        if round.expanded == 0 {
            break;
        }
        if last_checkpoint.elapsed() >= interval {
            save(&builder)?;
            last_checkpoint = Instant::now();
            let rate = (builder.positions() - positions_before) as f64
                / started.elapsed().as_secs_f64().max(1e-9);
            let message = format!(
                "checkpoint after {:.0} s: {} positions ({} expanded), {rate:.1} positions/s, start value {}",
                started.elapsed().as_secs_f64(),
                builder.positions(),
                builder.expanded(),
                score::to_men(builder.root_value())
            );
            // A hidden bar (stderr is not a terminal) prints nothing: log to stderr instead.
            if bar.is_hidden() {
                eprintln!("{message}");
            } else {
                bar.println(message);
            }
        }
        finished = false;
    }
    save(&builder)?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let added = builder.positions() - positions_before;
    if finished && added == 0 {
        println!(
            "nothing to do: the book already has {} positions",
            builder.positions()
        );
    }
    println!(
        "{}: {} positions ({} expanded), {added} new in {seconds:.1} s ({:.1} positions/s), {} s of building in all, start value {}",
        args.out.display(),
        builder.positions(),
        builder.expanded(),
        added as f64 / seconds.max(1e-9),
        builder.build_seconds(),
        score::to_men(builder.root_value())
    );
    Ok(())
}

fn probe<R: Rules>(args: &ProbeArgs) -> Result<(), String> {
    let (path, book) = super::open_book::<R>(args.book.as_deref())?;
    let start = super::start_position::<R>(args.fen.as_deref())?;
    let position = *Game::from_moves(start, super::move_words(args.moves.as_deref()))
        .map_err(|e| e.to_string())?
        .position();
    println!("{position}");
    let moves = book.probe(&position);
    if moves.is_empty() {
        println!("not in the book ({})", path.display());
        return Ok(());
    }
    println!("{} book moves ({}):", moves.len(), path.display());
    for BookMove { mv, score } in &moves {
        println!(
            "  {:<12} {:>7}",
            text::pdn(&position, mv),
            score::to_men(*score)
        );
    }
    let mut line = Vec::new();
    let mut current = position;
    while line.len() < MAX_LINE_PLIES {
        let Some(best) = book.probe(&current).first().copied() else {
            break;
        };
        line.push(text::pdn(&current, &best.mv));
        current = current.play(&best.mv);
    }
    println!("book line: {}", line.join(" "));
    Ok(())
}

fn stats<R: Rules>(args: &StatsArgs) -> Result<(), String> {
    let started = Instant::now();
    let (path, book) = super::open_book::<R>(args.book.as_deref())?;
    let load_time = started.elapsed();
    let bytes = book.as_bytes().len();
    let info = book.info();
    println!(
        "book {} ({} bytes, loaded in {:.1} ms)",
        path.display(),
        bytes,
        load_time.as_secs_f64() * 1e3
    );
    println!("variant {}", R::NAME);
    match info.nodes {
        0 => println!("leaves scored by a depth-{} search", info.depth),
        nodes => println!("leaves scored by a {nodes}-node search"),
    }
    println!(
        "ply cost {}, seed {}, batch {}, table {} MiB, built in {} s",
        info.ply_cost, info.seed, info.batch, info.hash_mb, info.build_seconds
    );
    let mut children: HashMap<u64, Vec<u64>> = HashMap::new();
    let mut all: HashSet<u64> = HashSet::new();
    let mut moves = 0usize;
    for entry in book.entries() {
        let (position, book_moves) = entry.map_err(|e| e.to_string())?;
        all.insert(position.hash());
        moves += book_moves.len();
        let next: Vec<u64> = book_moves
            .iter()
            .map(|m| position.play(&m.mv).hash())
            .collect();
        all.extend(next.iter().copied());
        children.insert(position.hash(), next);
    }
    println!(
        "{} expanded positions, {} positions in all (with the scored leaves), {} moves",
        book.len(),
        all.len(),
        moves
    );
    // Depth of each expanded position: its distance from the start in plies.
    let mut depth_of: HashMap<u64, usize> = HashMap::new();
    let start = Position::<R>::start().hash();
    let mut queue = VecDeque::from([(start, 0usize)]);
    depth_of.insert(start, 0);
    let mut histogram: Vec<usize> = Vec::new();
    while let Some((hash, depth)) = queue.pop_front() {
        let Some(next) = children.get(&hash) else {
            continue;
        };
        if histogram.len() <= depth {
            histogram.resize(depth + 1, 0);
        }
        histogram[depth] += 1;
        for &child in next {
            if let std::collections::hash_map::Entry::Vacant(entry) = depth_of.entry(child) {
                entry.insert(depth + 1);
                queue.push_back((child, depth + 1));
            }
        }
    }
    println!("expanded positions by ply:");
    for (depth, count) in histogram.iter().enumerate() {
        println!("  {depth:3} {count:8}");
    }
    if let Some(first) = book.probe(&Position::<R>::start()).first() {
        println!(
            "start position: best {} {}",
            text::pdn(&Position::<R>::start(), &first.mv),
            score::to_men(first.score)
        );
    }
    Ok(())
}
