//! `rafle-tune`: fits the hand-crafted evaluation's weights to game results (Texel's method).
//!
//! * `rafle-tune datagen --games N --nodes N --out FILE`: self-play games of Rafle from random
//!   openings, writing each quiet position with the game's result (`FEN<TAB>result`, result 1 =
//!   White won, 0.5 = draw, 0 = Black won).
//! * `rafle-tune fit --data FILE [--write src/eval/weights.rs]`: logistic regression of the
//!   results on the evaluation's features: finds the sigmoid scale `K` for the current weights, then
//!   minimises the mean squared error of `sigmoid(eval)` against the results with Adam, keeping the
//!   man's weight fixed at 100 (the unit). With `--write` the fitted weights replace those in the
//!   weights file.

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rafle::eval::{self, FEATURES, Features, WEIGHT_NAMES, weights::WEIGHTS};
use rafle::game::Game;
use rafle::notation::fen;
use rafle::position::Position;
use rafle::rules::International;
use rafle::score;
use rafle::search::{Engine, Limits, Mode, Root, SearchControl};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

type I = International;

/// Transposition table of each self-play engine, in MiB.
const DATAGEN_HASH_MB: usize = 8;
/// Random plies at the start of each game (uniform among legal moves), at least and at most.
const RANDOM_PLIES: std::ops::RangeInclusive<usize> = 4..=9;
/// Openings whose searched score is further from equal than this are not played.
const MAX_OPENING_SCORE: i32 = 150;
/// Depth of the opening check.
const OPENING_CHECK_DEPTH: u32 = 6;
/// Games longer than this are scored as draws.
const MAX_PLIES: usize = 300;
/// A side whose score stays above this for [`ADJUDICATION_PLIES`] plies is declared the winner.
const ADJUDICATION_SCORE: i32 = 700;
/// See [`ADJUDICATION_SCORE`].
const ADJUDICATION_PLIES: usize = 8;
/// Positions are recorded from this ply on (after the random opening).
const FIRST_RECORDED_PLY: usize = 10;
/// Adam's hyper-parameters.
const LEARNING_RATE: f64 = 0.5;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

#[derive(Parser)]
#[command(
    name = "rafle-tune",
    about = "Self-play data and evaluation tuning for Rafle"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play self-play games and write quiet positions with the results.
    Datagen {
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Nodes per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Output file (appended to).
        #[arg(long)]
        out: PathBuf,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Fit the weights to the data.
    Fit {
        /// Data files written by `datagen`.
        #[arg(long, required = true)]
        data: Vec<PathBuf>,
        /// Passes of gradient descent.
        #[arg(long, default_value_t = 3000)]
        iterations: usize,
        /// Weights file to rewrite with the fitted values.
        #[arg(long)]
        write: Option<PathBuf>,
    },
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Datagen {
            games,
            nodes,
            out,
            seed,
            threads,
        } => datagen(games, nodes, &out, seed, threads),
        Command::Fit {
            data,
            iterations,
            write,
        } => fit(&data, iterations, write.as_ref()),
    };
    if let Err(message) = result {
        eprintln!("error: {message}");
        std::process::exit(2);
    }
}

fn datagen(games: u64, nodes: u64, out: &PathBuf, seed: u64, threads: usize) -> Result<(), String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let file = Mutex::new(std::io::BufWriter::new(file));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta} {msg}")
            .map_err(|e| e.to_string())?,
    );
    let positions = std::sync::atomic::AtomicU64::new(0);
    pool.install(|| {
        (0..games).into_par_iter().for_each(|game| {
            let lines = play_game(seed.wrapping_mul(1_000_003).wrapping_add(game), nodes);
            positions.fetch_add(lines.len() as u64, std::sync::atomic::Ordering::Relaxed);
            if let Ok(mut writer) = file.lock() {
                for line in &lines {
                    let _ = writeln!(writer, "{line}");
                }
            }
            bar.set_message(format!(
                "{} positions",
                positions.load(std::sync::atomic::Ordering::Relaxed)
            ));
            bar.inc(1);
        });
    });
    bar.finish();
    file.lock()
        .map_err(|e| e.to_string())?
        .flush()
        .map_err(|e| e.to_string())
}

/// One self-play game; returns its recorded lines (empty if the opening was unbalanced).
fn play_game(seed: u64, nodes: u64) -> Vec<String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let engine = Engine::<I>::new(DATAGEN_HASH_MB, 1);
    let mut game = Game::new(Position::<I>::start());
    let random_plies = rng.random_range(RANDOM_PLIES);
    for _ in 0..random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        let mv = moves[rng.random_range(0..moves.len())];
        if game.play(&mv).is_err() {
            return Vec::new();
        }
    }
    let check = Limits {
        depth: Some(OPENING_CHECK_DEPTH),
        ..Limits::default()
    };
    let opening = engine.search(
        &Root::from_game(&game),
        &check,
        Mode::Analyze,
        &SearchControl::new(),
        |_| {},
    );
    if opening.score.abs() > MAX_OPENING_SCORE {
        return Vec::new();
    }
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut recorded = Vec::new();
    let mut white_ahead = 0usize;
    let mut black_ahead = 0usize;
    let result = loop {
        if let Some(result) = game.result() {
            break match result.winner {
                Some(rafle::core::Color::White) => 1.0,
                Some(rafle::core::Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if game.ply_count() >= MAX_PLIES {
            break 0.5;
        }
        let position = *game.position();
        let outcome = engine.search(
            &Root::from_game(&game),
            &limits,
            Mode::Analyze,
            &SearchControl::new(),
            |_| {},
        );
        let Some(best) = outcome.best else { break 0.5 };
        let white_score = if position.side() == rafle::core::Color::White {
            outcome.score
        } else {
            -outcome.score
        };
        if game.ply_count() >= FIRST_RECORDED_PLY
            && !position.has_capture()
            && !eval::is_lone_king_ending(&position)
            && !score::is_decisive(outcome.score)
        {
            recorded.push(fen::format(&position));
        }
        white_ahead = if white_score > ADJUDICATION_SCORE {
            white_ahead + 1
        } else {
            0
        };
        black_ahead = if white_score < -ADJUDICATION_SCORE {
            black_ahead + 1
        } else {
            0
        };
        if white_ahead >= ADJUDICATION_PLIES {
            break 1.0;
        }
        if black_ahead >= ADJUDICATION_PLIES {
            break 0.0;
        }
        if game.play(&best).is_err() {
            break 0.5;
        }
    };
    recorded
        .into_iter()
        .map(|fen_text| format!("{fen_text}\t{result}"))
        .collect()
}

/// A training position: features, phase shares, result.
struct Sample {
    features: Features,
    opening: f64,
    endgame: f64,
    result: f64,
}

fn load(paths: &[PathBuf]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (number, line) in text.lines().enumerate() {
            let Some((fen_text, result)) = line.split_once('\t') else {
                return Err(format!(
                    "{}:{}: expected FEN<TAB>result",
                    path.display(),
                    number + 1
                ));
            };
            let position = fen::parse::<I>(fen_text)
                .map_err(|e| format!("{}:{}: {e}", path.display(), number + 1))?;
            let result: f64 = result
                .trim()
                .parse()
                .map_err(|_| format!("{}:{}: bad result", path.display(), number + 1))?;
            let (opening, endgame, full) = eval::phase(&position);
            samples.push(Sample {
                features: eval::features(&position),
                opening: f64::from(opening) / f64::from(full),
                endgame: f64::from(endgame) / f64::from(full),
                result,
            });
        }
    }
    Ok(samples)
}

/// Weights as one vector: opening weights, then endgame weights.
type Vector = Vec<f64>;

fn evaluate(sample: &Sample, weights: &[f64]) -> f64 {
    let mut opening = 0.0;
    let mut endgame = 0.0;
    for (index, &count) in sample.features.iter().enumerate() {
        let count = f64::from(count);
        opening += count * weights[index];
        endgame += count * weights[FEATURES + index];
    }
    opening * sample.opening + endgame * sample.endgame
}

fn sigmoid(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

fn error(samples: &[Sample], weights: &[f64], k: f64) -> f64 {
    samples
        .par_iter()
        .map(|s| (s.result - sigmoid(evaluate(s, weights), k)).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

fn fit(paths: &[PathBuf], iterations: usize, write: Option<&PathBuf>) -> Result<(), String> {
    let samples = load(paths)?;
    if samples.is_empty() {
        return Err("no positions".to_string());
    }
    eprintln!("{} positions", samples.len());
    let mut weights: Vector = WEIGHTS
        .iter()
        .map(|w| f64::from(w.opening))
        .chain(WEIGHTS.iter().map(|w| f64::from(w.endgame)))
        .collect();
    // The scale K that best fits the current evaluation (golden-section search).
    let (mut low, mut high) = (0.05, 3.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(&samples, &weights, a) < error(&samples, &weights, b) {
            high = b;
        } else {
            low = a;
        }
    }
    let k = (low + high) / 2.0;
    eprintln!("K = {k:.4}, error {:.6}", error(&samples, &weights, k));
    let fixed = [0, FEATURES]; // the man's weights: the unit
    let mut m = vec![0.0; weights.len()];
    let mut v = vec![0.0; weights.len()];
    for iteration in 1..=iterations {
        let gradient = samples
            .par_iter()
            .fold(
                || vec![0.0; 2 * FEATURES],
                |mut g, s| {
                    let p = sigmoid(evaluate(s, &weights), k);
                    let common =
                        2.0 * (p - s.result) * p * (1.0 - p) * k * std::f64::consts::LN_10 / 400.0;
                    for (index, &count) in s.features.iter().enumerate() {
                        let count = f64::from(count) * common;
                        g[index] += count * s.opening;
                        g[FEATURES + index] += count * s.endgame;
                    }
                    g
                },
            )
            .reduce(
                || vec![0.0; 2 * FEATURES],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                    a
                },
            );
        let n = samples.len() as f64;
        for index in 0..weights.len() {
            if fixed.contains(&index) {
                continue;
            }
            let g = gradient[index] / n;
            m[index] = BETA1 * m[index] + (1.0 - BETA1) * g;
            v[index] = BETA2 * v[index] + (1.0 - BETA2) * g * g;
            let m_hat = m[index] / (1.0 - BETA1.powi(iteration as i32));
            let v_hat = v[index] / (1.0 - BETA2.powi(iteration as i32));
            weights[index] -= LEARNING_RATE * m_hat / (v_hat.sqrt() + EPSILON);
        }
        if iteration % 500 == 0 || iteration == iterations {
            eprintln!(
                "iteration {iteration}: error {:.6}",
                error(&samples, &weights, k)
            );
        }
    }
    for (index, name) in WEIGHT_NAMES.iter().enumerate() {
        println!(
            "{name:24} opening {:7.1} endgame {:7.1}   (was {} / {})",
            weights[index],
            weights[FEATURES + index],
            WEIGHTS[index].opening,
            WEIGHTS[index].endgame
        );
    }
    if let Some(path) = write {
        let mut text =
            std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (index, name) in WEIGHT_NAMES.iter().enumerate() {
            let prefix = format!("pub const {name}: Weight = weight(");
            let start = text
                .find(&prefix)
                .ok_or_else(|| format!("{name} not found in {}", path.display()))?;
            let end = start + text[start..].find(");").ok_or("unterminated weight")? + 2;
            let replacement = format!(
                "{prefix}{}, {});",
                weights[index].round() as i64,
                weights[FEATURES + index].round() as i64
            );
            text.replace_range(start..end, &replacement);
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
