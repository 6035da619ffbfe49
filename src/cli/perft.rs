//! `rafle perft`.

use clap::Args;
use rafle::notation::{fen, text};
use rafle::perft::{self, Counting};
use rafle::position::Position;
use rafle::rules::{Rules, Variant};
use rafle::with_variant;
use std::time::Instant;

/// Deepest perft accepted; the tree grows about sixfold per ply, so this is far beyond any
/// practical run.
const MAX_PERFT_DEPTH: u32 = 40;

/// Arguments of `rafle perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Depth in plies; one line is printed per depth from 1 to this.
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=MAX_PERFT_DEPTH as i64))]
    pub depth: u32,
    /// Start position as a PDN FEN (default: the variant's start position).
    #[arg(short, long)]
    pub fen: Option<String>,
    /// List each root move with its count at the last depth.
    #[arg(long)]
    pub divide: bool,
    /// Threads; the root moves are shared out among them.
    #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Rules to use.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// Count capture routes that differ only in order separately (checkers literature,
    /// pydraughts) instead of once (FMJD).
    #[arg(long)]
    pub keep_duplicates: bool,
}

/// Runs `rafle perft`.
///
/// # Errors
/// A message for a bad FEN or a thread pool that cannot be built.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    with_variant!(args.variant, R => run_variant::<R>(args))
}

fn run_variant<R: Rules>(args: &PerftArgs) -> Result<(), String> {
    let position = match &args.fen {
        Some(text) => fen::parse::<R>(text).map_err(|e| format!("bad FEN '{text}': {e}"))?,
        None => Position::<R>::start(),
    };
    let counting = if args.keep_duplicates {
        Counting::KeepDuplicates
    } else {
        Counting::DropDuplicates
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads))?;
    let parallel = args.threads > 1;
    pool.install(|| {
        for depth in 1..=args.depth {
            let started = Instant::now();
            let nodes = if parallel || (args.divide && depth == args.depth) {
                let counts = perft::divide(&position, depth, counting, parallel);
                if args.divide && depth == args.depth {
                    for (mv, count) in &counts {
                        println!("{} {count}", text::pdn(&position, mv));
                    }
                }
                counts.iter().map(|(_, count)| count).sum()
            } else {
                perft::perft(&position, depth, counting)
            };
            let seconds = started.elapsed().as_secs_f64();
            let mnps = if seconds > 0.0 {
                nodes as f64 / seconds / 1e6
            } else {
                0.0
            };
            println!("perft {depth} {nodes} {seconds:.3} s {mnps:.1} Mnps");
        }
    });
    Ok(())
}
