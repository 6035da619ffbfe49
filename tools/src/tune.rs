//! `rafle-tune`: fits the hand-crafted evaluation's weights to game results (Texel's method).
//!
//! * `rafle-tune datagen --games N --nodes N --out FILE [--shard i/n]`: self-play games of Rafle
//!   from random openings, writing each quiet position with the search score and the game's
//!   result (packed binary, resumable; see `rafle::learn::data`).
//! * `rafle-tune merge SHARD... --out FILE`: merges shards, games in index order.
//! * `rafle-tune loss --data FILE... --weights W...`: compares evaluations (weights files, or
//!   `hand`) on the same held-out data by their cross-entropy against the game results and the
//!   search scores, each as a difference from the first with its standard error over games.
//! * `rafle-tune fit --data FILE [--write src/eval/weights.rs]`: logistic regression of the
//!   results on the evaluation's features: finds the sigmoid scale `K` for the current weights, then
//!   minimises the mean squared error of `sigmoid(eval)` against the results with Adam, keeping the
//!   man's weight fixed at 100 (the unit). With `--write` the fitted weights replace those in the
//!   weights file.

use clap::{Parser, Subcommand};
use rafle::eval::layout::{LAYOUTS, Layout};
use rafle::eval::weights_file;
use rafle::eval::{self, FEATURES, Features, WEIGHT_NAMES, weights::WEIGHTS};
use rafle::learn::{
    self,
    data::{self, GenSettings, Shard},
    train::{Dataset, TrainSettings},
};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

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
    /// Play self-play games and write their quiet positions (packed binary, resumable).
    Datagen {
        /// Index of the first game (a run in parts: each part its own range of one seed).
        #[arg(long, default_value_t = 0)]
        first: u64,
        /// Games in the whole run (over all shards), from `--first` on.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Nodes per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Output file; games it already holds are not played again (resume after a kill).
        #[arg(long)]
        out: PathBuf,
        /// Master seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// This run's share of the games, `i/n`: those whose index is i modulo n.
        #[arg(long, default_value = "0/1")]
        shard: String,
        /// Evaluation of the self-play engine: `hand` or `patterns`.
        #[arg(long, default_value = "hand")]
        eval: String,
        /// Weights file of the pattern evaluation (default: the embedded one).
        #[arg(long)]
        eval_file: Option<PathBuf>,
    },
    /// Train the pattern evaluation and write its weights file and provenance.
    Train {
        /// Data files written by `datagen` (or `merge`), or directories: their `.bin` files,
        /// nested ones included, in name order.
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        /// Weights file to write; the provenance goes beside it (same name, `.toml`).
        #[arg(long)]
        out: PathBuf,
        /// Weight of the game result in the target (the rest: the search score).
        #[arg(long, default_value_t = TrainSettings::DEFAULT.lambda)]
        lambda: f32,
        /// Weight decay of the pattern and king-square weights per step (AdamW-style).
        #[arg(long, default_value_t = TrainSettings::DEFAULT.l2)]
        l2: f32,
        /// Passes over the data.
        #[arg(long, default_value_t = TrainSettings::DEFAULT.epochs)]
        epochs: usize,
        /// Positions per gradient step.
        #[arg(long, default_value_t = TrainSettings::DEFAULT.batch)]
        batch: usize,
        /// Adam's step size at the start, centi-men.
        #[arg(long, default_value_t = TrainSettings::DEFAULT.learning_rate)]
        learning_rate: f32,
        /// Seed of the batch order.
        #[arg(long, default_value_t = TrainSettings::DEFAULT.seed)]
        seed: u64,
        /// Games whose index is a multiple of this are held out for validation.
        #[arg(long, default_value_t = TrainSettings::DEFAULT.validation_every)]
        validation_every: u64,
        /// Pattern blocks of the model: 4x4 (3^8 states, 8 tables), 4x6 (3^12, 4 tables), 4x6m
        /// (3^12, 8 tables: 4x6 and the middle six rows) or 4x6m-side (4x6m with a table for
        /// each block by whether the side it is read for is to move: 16 tables, same lookups).
        #[arg(long, default_value = TrainSettings::DEFAULT.layout.name, value_parser = parse_layout)]
        layout: &'static Layout,
        /// Worker threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Merge data files (shards) into one, games in index order.
    Merge {
        /// Input data files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Count what data files hold: games, results, plies and recorded positions.
    Stats {
        /// Data files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Compare evaluations on the same held-out data: each one's mean cross-entropy against the
    /// game results and against the data's search scores, and its difference from the first
    /// with a standard error over games.
    Loss {
        /// Data files or directories (as for `train`), none of them trained on by the weights.
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        /// Weights files of the pattern evaluation, or `hand` for the hand-crafted evaluation.
        #[arg(long, required = true, num_args = 1..)]
        weights: Vec<String>,
    },
    /// Fit the weights to the data.
    Fit {
        /// Data files written by `datagen`, or directories of them (as for `train`).
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        /// Passes of gradient descent.
        #[arg(long, default_value_t = 3000)]
        iterations: usize,
        /// Weights file to rewrite with the fitted values.
        #[arg(long)]
        write: Option<PathBuf>,
    },
}

/// A pattern layout by name.
fn parse_layout(name: &str) -> Result<&'static Layout, String> {
    Layout::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = LAYOUTS.iter().map(|l| l.name).collect();
        format!("unknown layout {name:?}; known: {}", names.join(", "))
    })
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Datagen {
            first,
            games,
            nodes,
            out,
            seed,
            threads,
            shard,
            eval,
            eval_file,
        } => Shard::parse(&shard)
            .map_err(|e| e.to_string())
            .and_then(|shard| {
                let settings = GenSettings {
                    first,
                    games,
                    nodes,
                    seed,
                    threads,
                    shard,
                    progress: true,
                };
                datagen(&settings, &out, &eval, eval_file.as_deref())
            }),
        Command::Train {
            data,
            out,
            lambda,
            l2,
            epochs,
            batch,
            learning_rate,
            seed,
            validation_every,
            layout,
            threads,
        } => {
            let settings = TrainSettings {
                lambda,
                l2,
                epochs,
                batch,
                learning_rate,
                seed,
                validation_every,
                layout,
            };
            data_files(&data).and_then(|data| train(&data, &out, &settings, threads))
        }
        Command::Merge { inputs, out } => data::merge(&inputs, &out)
            .map(|positions| eprintln!("{positions} positions written to {}", out.display()))
            .map_err(|e| e.to_string()),
        Command::Stats { inputs } => stats(&inputs),
        Command::Loss { data, weights } => {
            data_files(&data).and_then(|data| compare_losses(&data, &weights))
        }
        Command::Fit {
            data,
            iterations,
            write,
        } => data_files(&data).and_then(|data| fit(&data, iterations, write.as_ref())),
    };
    if let Err(message) = result {
        eprintln!("error: {message}");
        std::process::exit(2);
    }
}

/// A training position: features, phase shares, result.
struct Sample {
    features: Features,
    opening: f64,
    endgame: f64,
    result: f64,
}

fn datagen(
    settings: &GenSettings,
    out: &Path,
    eval_name: &str,
    eval_file: Option<&Path>,
) -> Result<(), String> {
    let evaluator = eval::Eval::select(eval_name, eval_file).map_err(|e| e.to_string())?;
    let report = data::generate(settings, &evaluator, out).map_err(|e| e.to_string())?;
    eprintln!(
        "{} games kept, {} played, {} positions written to {}",
        report.games_kept,
        report.games_played,
        report.positions,
        out.display()
    );
    Ok(())
}

fn stats(paths: &[PathBuf]) -> Result<(), String> {
    for path in paths {
        let (blocks, _) = data::read_blocks(path).map_err(|e| e.to_string())?;
        let mut results = [0u64; 3];
        let (mut played, mut plies, mut positions) = (0u64, 0u64, 0u64);
        for block in &blocks {
            if block.searched.is_empty() {
                continue;
            }
            played += 1;
            results[usize::from(data::result_byte(block.result))] += 1;
            plies += (block.opening.len() + block.searched.len()) as u64;
            positions += block
                .records()
                .map_err(|e| format!("game {}: {e}", block.game))?
                .len() as u64;
        }
        println!(
            "{}: {} games ({} played, the others' openings unbalanced), White won {}, drawn {}, \
             Black won {}, {:.1} plies a game, {positions} positions",
            path.display(),
            blocks.len(),
            played,
            results[2],
            results[1],
            results[0],
            plies as f64 / played.max(1) as f64,
        );
    }
    Ok(())
}

/// The data files of `paths`: files as given, directories as their `.bin` files (recursively,
/// in name order).
fn data_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .map(|entry| entry.map(|e| e.path()))
                .collect::<Result<_, _>>()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            entries.sort();
            let nested: Vec<PathBuf> = entries
                .into_iter()
                .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "bin"))
                .collect();
            out.extend(data_files(&nested)?);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

fn train(
    paths: &[PathBuf],
    out: &Path,
    settings: &TrainSettings,
    threads: usize,
) -> Result<(), String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build_global()
        .map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let mut data = Dataset::new(settings.layout, settings.validation_every);
    let games = data::for_each_position(paths, |labelled| data.push(&labelled))
        .map_err(|e| e.to_string())?;
    if data.is_empty() {
        return Err("no positions".to_string());
    }
    eprintln!(
        "{} positions from {games} games ({:.0} s)",
        data.len(),
        started.elapsed().as_secs_f64()
    );
    let (weights, report) = learn::train::train(data, settings, |epoch, loss| {
        eprintln!(
            "epoch {epoch:3}: train loss {:.6}, validation loss {:.6} ({:.0} s)",
            loss.train,
            loss.validation,
            started.elapsed().as_secs_f64()
        );
    });
    eprintln!(
        "K = {:.6} per centi-man; hand-crafted validation loss {:.6}; quantisation drift {:.3} centi-men",
        report.k, report.hand_crafted_validation, report.quantisation_drift
    );
    std::fs::write(out, weights.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    let provenance = out.with_extension("toml");
    let mut text = String::new();
    text.push_str(
        "# Provenance of the weights file beside this one (written by rafle-tune train).\n",
    );
    text.push_str(&format!(
        "weights = {:?}\nweights_checksum_fnv1a = \"{:016x}\"\n",
        out.file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default(),
        weights_file::checksum(&weights.to_bytes())
    ));
    let command: Vec<String> = std::env::args().collect();
    text.push_str(&format!("train_command = {:?}\n", command.join(" ")));
    text.push_str(&format!("trainer_commit = {:?}\n", git_commit()));
    text.push_str(&format!(
        "layout = {:?}\nlambda = {}\nl2 = {}\nepochs = {}\nbatch = {}\nlearning_rate = {}\nseed = {}\nvalidation_every = {}\n",
        settings.layout.name, settings.lambda, settings.l2, settings.epochs, settings.batch, settings.learning_rate,
        settings.seed, settings.validation_every
    ));
    text.push_str(&format!(
        "k_per_centiman = {:.6}\ntrain_positions = {}\nvalidation_positions = {}\ngames = {}\nquantisation_drift_centimen = {:.3}\nhand_crafted_validation_loss = {:.6}\n",
        report.k, report.train_samples, report.validation_samples, games,
        report.quantisation_drift, report.hand_crafted_validation
    ));
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        text.push_str(&format!(
            "\n[[data]]\nfile = {:?}\nbytes = {}\nchecksum_fnv1a = \"{:016x}\"\n",
            path.display().to_string(),
            bytes.len(),
            weights_file::checksum(&bytes)
        ));
    }
    text.push_str("\n[losses]\n# epoch = [train, validation] mean cross-entropy\n");
    for (epoch, loss) in report.losses.iter().enumerate() {
        text.push_str(&format!(
            "e{epoch} = [{:.6}, {:.6}]\n",
            loss.train, loss.validation
        ));
    }
    std::fs::write(&provenance, text).map_err(|e| format!("{}: {e}", provenance.display()))?;
    eprintln!("wrote {} and {}", out.display(), provenance.display());
    Ok(())
}

/// One position of the held-out data and each evaluation's score of it, for White.
struct Scored {
    game: u64,
    result: f32,
    searched: f32,
    scores: Vec<f32>,
}

/// The losses of `names`' evaluations on the positions of `paths` (see `Command::Loss`).
fn compare_losses(paths: &[PathBuf], names: &[String]) -> Result<(), String> {
    let evaluators: Vec<Option<weights_file::PatternWeights>> = names
        .iter()
        .map(|name| match name.as_str() {
            "hand" => Ok(None),
            file => weights_file::PatternWeights::load(Path::new(file))
                .map(Some)
                .map_err(|e| format!("{file}: {e}")),
        })
        .collect::<Result<_, _>>()?;
    let mut positions = Vec::new();
    let games = data::for_each_position(paths, |labelled| {
        let position = &labelled.position;
        let white = |score: i32| {
            if position.side() == rafle::core::Color::White {
                score as f32
            } else {
                -score as f32
            }
        };
        let scores = evaluators
            .iter()
            .map(|weights| match weights {
                Some(weights) => white(weights.evaluate(position)),
                None => white(eval::evaluate(position)),
            })
            .collect();
        positions.push(Scored {
            game: labelled.game,
            result: data::white_score(labelled.result),
            searched: f32::from(labelled.record.score),
            scores,
        });
    })
    .map_err(|e| e.to_string())?;
    if positions.is_empty() {
        return Err("no positions".to_string());
    }
    let pairs: Vec<(f32, f32)> = positions.iter().map(|p| (p.searched, p.result)).collect();
    let k = learn::train::fit_k(&pairs) as f32;
    println!(
        "{} positions of {games} games; K = {k:.6} per centi-man (fitted to the search scores)",
        positions.len()
    );
    println!("evaluation\tresult loss\t(- first, s.e.)\tsearch loss\t(- first, s.e.)");
    // Per game sums of each evaluation's losses: positions of one game are not independent,
    // so the standard error of a difference is taken over games.
    let losses = |p: &Scored, e: usize| {
        let q = learn::train::sigmoid(k * p.scores[e]);
        [
            learn::train::cross_entropy(p.result, q),
            learn::train::cross_entropy(learn::train::sigmoid(k * p.searched), q),
        ]
    };
    let all: Vec<Vec<[f64; 2]>> = positions
        .iter()
        .map(|p| (0..names.len()).map(|e| losses(p, e)).collect())
        .collect();
    for (e, name) in names.iter().enumerate() {
        let mut per_game: std::collections::BTreeMap<u64, [f64; 2]> = Default::default();
        let mut total = [0f64; 2];
        for (p, of) in positions.iter().zip(&all) {
            let (own, first) = (of[e], of[0]);
            let entry = per_game.entry(p.game).or_default();
            for i in 0..2 {
                total[i] += own[i];
                entry[i] += own[i] - first[i];
            }
        }
        let n = positions.len() as f64;
        let games = per_game.len() as f64;
        let mut line = name.clone();
        for (i, sum) in total.iter().enumerate() {
            let mean = per_game.values().map(|d| d[i]).sum::<f64>() / games;
            let variance = per_game
                .values()
                .map(|d| (d[i] - mean).powi(2))
                .sum::<f64>()
                / (games - 1.0).max(1.0);
            // The mean difference per position and its error: per-game sums scaled by games/positions.
            let scale = games / n;
            line.push_str(&format!(
                "\t{:.6}\t{:+.6} ± {:.6}",
                sum / n,
                mean * scale,
                (variance / games).sqrt() * scale
            ));
        }
        println!("{line}");
    }
    Ok(())
}

/// The commit the tool runs in (for the provenance), or `unknown`.
fn git_commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}

fn load(paths: &[PathBuf]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for data::Labelled {
        result, position, ..
    } in data::load_positions(paths).map_err(|e| e.to_string())?
    {
        if eval::is_lone_king_ending(&position) {
            continue;
        }
        let (opening, endgame, full) = eval::phase(&position);
        samples.push(Sample {
            features: eval::features(&position),
            opening: f64::from(opening) / f64::from(full),
            endgame: f64::from(endgame) / f64::from(full),
            result: f64::from(data::white_score(result)),
        });
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
