//! `rafle bench`: the search's signature (see [`rafle::search::bench`]).

use clap::Args;
use rafle::eval::Eval;
use rafle::search::bench::{BENCH_DEPTH, bench_with, eval_nanos};

/// Arguments of `rafle bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Depth of each search.
    #[arg(short, long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub depth: u32,
    /// Evaluation: hand or patterns (default: the engine's default).
    #[arg(long, default_value = rafle::eval::DEFAULT_EVAL)]
    pub eval: String,
    /// Weights file of the pattern evaluation (default: the embedded weights).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<std::path::PathBuf>,
}

/// Runs `rafle bench`.
///
/// # Errors
/// None in practice: the positions are fixed and valid.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let eval = Eval::select(&args.eval, args.eval_file.as_deref()).map_err(|e| e.to_string())?;
    eprintln!(
        "evaluation {}: {:.1} ns per call",
        args.eval,
        eval_nanos(&eval)?
    );
    let (nodes, seconds) = bench_with(args.depth, &eval, true)?;
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };
    println!("bench {nodes} nodes {nps} nps");
    Ok(())
}
