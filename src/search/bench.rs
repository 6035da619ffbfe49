//! The bench: a fixed search over fixed positions whose node count is the search's signature.
//!
//! One thread, a fresh 16 MiB table per position, a fixed depth. A change that keeps the node
//! count is a refactoring; a change that alters it says so in its commit message (`Bench: N`)
//! and pins the new count in `tests/bench.rs`.

use super::{Limits, Mode, Root, SearchControl};
use crate::eval::{Eval, Evaluator};
use crate::notation::fen;
use crate::player::options::engine_at_most;
use crate::position::Position;
use crate::rules::International;
use std::time::Instant;

/// Table size of each bench search, in MiB.
const BENCH_HASH_MB: usize = 16;
/// Default bench depth.
pub const BENCH_DEPTH: u32 = 13;

/// The bench positions: the start, middle games reached in self-play from varied openings,
/// and endgames with kings (FENs of international draughts).
pub const BENCH_POSITIONS: &[&str] = &[
    "W:W31-50:B1-20",
    "B:W21,26,31,33,34,36,38,43,44,45,46,47,48,49,50:B1,2,3,4,5,7,12,14,15,17,18,20,22",
    "B:W28,32,34,35,37,43,44,47,48,50:B1,4,5,8,18,19,20,23",
    "B:W28,29,33,35,36,37,39,40,41,42,43,45,46,47,48,49,50:B1,2,3,4,5,6,7,9,11,12,13,14,16,17,19,20,22",
    "B:W28,31,32,33,34,35,36,46,47,48,49,50:B1,2,3,4,6,9,11,13,17,18,22,24",
    "B:W23,27,29,31,32,33,36,37,38,39,50:B1,6,9,13,16,17,18,22,25,30",
    "B:W24,27,29,30,31,32,33,34,36,37,38,40,45,46,47,48,49,50:B1,2,3,4,5,6,9,13,14,15,16,17,18,20,21,22,23,26",
    "B:W19,24,27,29,30,31,32,34,36,37,38,41,42,43,44:B4,6,8,9,11,12,13,15,16,17,18,20,21,25,26",
    "B:W27,28,32,35,38,39,46,49:B2,4,12,16,17,19,29",
    "B:W16,30,31,32,33,34,35,36,38,46,50:B2,4,7,8,10,15,17,18,22,23,25",
    "B:W15,27,31,38,39,45,46,47,48,49,50:B2,4,5,7,8,10,11,13,16,19,35",
    "B:W15,25,27,28,32,37,38,44,45,50:B5,11,13,16,18,19,23,26,29,35",
    "B:W26,31,32,35,36,43,49:B1,7,10,15,16,17,20,23,24",
    "B:W24,28,29,31,33,35,40,47,48,50:B1,4,5,9,11,13,14,18,21,22",
    "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    "W:WK46,K47,31,33,35:BK5,16,17,19",
    "B:WK27,K33,38:BK9,K10",
    "W:W15,29,32,36,39,42,50:B1,3,4,10,18,26,30,31",
];

/// Static evaluations timed per bench position for the ns-per-evaluation figure.
const EVAL_TIMING_ROUNDS: u32 = 50_000;

/// Searches every bench position to `depth`; returns the nodes and the seconds spent.
///
/// # Errors
/// If a bench position does not parse (a bug).
pub fn bench(depth: u32, verbose: bool) -> Result<(u64, f64), String> {
    bench_with(depth, &Eval::default_eval(), verbose)
}

fn positions() -> Result<Vec<Position<International>>, String> {
    BENCH_POSITIONS
        .iter()
        .enumerate()
        .map(|(index, text)| {
            fen::parse(text).map_err(|e| format!("bench position {}: {e}", index + 1))
        })
        .collect()
}

/// Mean time of one static evaluation over the bench positions, in nanoseconds.
///
/// # Errors
/// If a bench position does not parse (a bug).
pub fn eval_nanos(eval: &Eval) -> Result<f64, String> {
    let positions = positions()?;
    let started = Instant::now();
    let mut sum = 0i64;
    for _ in 0..EVAL_TIMING_ROUNDS {
        for position in &positions {
            sum += i64::from(eval.evaluate(std::hint::black_box(position)));
        }
    }
    std::hint::black_box(sum);
    Ok(started.elapsed().as_secs_f64() * 1e9
        / f64::from(EVAL_TIMING_ROUNDS)
        / positions.len() as f64)
}

/// [`bench`] with the evaluation `eval`.
///
/// # Errors
/// If a bench position does not parse (a bug).
pub fn bench_with(depth: u32, eval: &Eval, verbose: bool) -> Result<(u64, f64), String> {
    let mut total = 0;
    let started = Instant::now();
    for (index, text) in BENCH_POSITIONS.iter().enumerate() {
        let position: Position<International> =
            fen::parse(text).map_err(|e| format!("bench position {}: {e}", index + 1))?;
        let engine = engine_at_most::<International>(eval.clone(), 1, BENCH_HASH_MB);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let outcome = engine.search(
            &Root::new(position),
            &limits,
            Mode::Analyze,
            &SearchControl::new(),
            |_| {},
        );
        if verbose {
            eprintln!("position {:2}: {:>10} nodes", index + 1, outcome.nodes);
        }
        total += outcome.nodes;
    }
    Ok((total, started.elapsed().as_secs_f64()))
}
