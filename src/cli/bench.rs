//! `rafle bench`: the search's signature (see [`rafle::search::bench`]).

use super::engine_args::EvalArgs;
use clap::Args;
use rafle::player::options::DEPTH_RANGE;
use rafle::search::bench::{BENCH_DEPTH, bench_with, eval_nanos};

/// Arguments of `rafle bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Depth of each search.
    #[arg(short, long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(DEPTH_RANGE))]
    pub depth: u32,
    /// The evaluation (one thread and a fixed table: the node count is the signature).
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// Runs `rafle bench`.
///
/// # Errors
/// None in practice: the positions are fixed and valid.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let eval = args.eval.eval()?;
    eprintln!(
        "evaluation {}: {:.1} ns per call",
        args.eval.eval,
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
