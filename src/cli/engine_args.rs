//! The arguments the subcommands that search share: the engine setup ([`EngineArgs`], used by
//! `analyze`, `annotate`, `dxp`, `serve` and `book build`; its evaluation part, [`EvalArgs`], by
//! `bench` too) and the limits of a one-off search ([`LimitsArgs`], `analyze` and `annotate`).
//! Their ranges and defaults are the constants of [`rafle::player::options`], which the Hub's
//! parameters read too, so that an option is spelled, ranged, defaulted and documented once.
//! What a subcommand sets apart (a table per tab, workers instead of threads, another search
//! time) is a named [`EngineDefaults`] or [`TimeDefault`] of its own.

use clap::Args;
use clap::builder::PossibleValuesParser;
use rafle::eval::{DEFAULT_EVAL, EVAL_NAMES, Eval};
use rafle::player::options::{
    self, DEFAULT_EGDB_PIECES, DEFAULT_HASH_MB, DEFAULT_THREADS, DEPTH_RANGE, EGDB_PIECES_RANGE,
    MIN_HASH_MB, NODES_RANGE, Setup, THREADS_RANGE,
};
use rafle::rules::Rules;
use rafle::search::{Engine, Limits};
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Longest search time accepted on the command line, in seconds (about 11 days).
const MAX_SECONDS: f64 = 1e6;

/// What sets a subcommand's engine apart from the defaults every option has.
pub trait EngineDefaults {
    /// Table size without `--hash`, in MiB.
    const HASH_MB: usize = DEFAULT_HASH_MB;
    /// What `--threads` counts.
    const THREADS_HELP: &'static str = "Search threads";
    /// What `--hash` sizes.
    const HASH_HELP: &'static str =
        "Transposition table size in MiB, at most this machine's memory";
}

/// The engine of a subcommand that keeps every default (`analyze`, `annotate`, `dxp`): the Hub's.
#[derive(Clone, Copy, Debug)]
pub struct Standard;

impl EngineDefaults for Standard {}

/// The evaluation: which, and its weights.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Evaluation.
    #[arg(long, default_value = DEFAULT_EVAL, value_parser = PossibleValuesParser::new(EVAL_NAMES))]
    pub eval: String,
    /// Weights file of the pattern evaluation (default: the embedded weights).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<PathBuf>,
}

impl EvalArgs {
    /// The evaluation these arguments select.
    ///
    /// # Errors
    /// A weights file that cannot be read.
    pub fn eval(&self) -> Result<Eval, String> {
        Eval::select(&self.eval, self.eval_file.as_deref()).map_err(|e| e.to_string())
    }
}

/// The engine setup: threads, table, evaluation and endgame tables, the same options as the Hub's
/// parameters `threads`, `hash`, `eval`, `eval-file`, `egdb-path` and `egdb-pieces`.
#[derive(Debug, Args)]
pub struct EngineArgs<D: EngineDefaults> {
    /// Search threads (as the subcommand's [`EngineDefaults::THREADS_HELP`] says).
    #[arg(short, long, help = D::THREADS_HELP, default_value_t = DEFAULT_THREADS as u32,
        value_parser = clap::value_parser!(u32).range(THREADS_RANGE))]
    pub threads: u32,
    /// Transposition table size in MiB (as the subcommand's [`EngineDefaults::HASH_HELP`] says);
    /// `None` for the subcommand's default, so that a subcommand can tell a size given from its
    /// default (`book build --resume`).
    #[arg(long, help = default_help(D::HASH_HELP, D::HASH_MB),
        value_parser = clap::value_parser!(u64).range(MIN_HASH_MB..))]
    pub hash: Option<u64>,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalArgs,
    /// Probe the endgame databases of this directory (`rafle egdb build`).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
    /// Most pieces of the endgame tables to load.
    #[arg(long, default_value_t = DEFAULT_EGDB_PIECES,
        value_parser = clap::value_parser!(u32).range(EGDB_PIECES_RANGE))]
    pub egdb_pieces: u32,
    #[arg(skip)]
    defaults: PhantomData<D>,
}

/// The help of an option whose default is the subcommand's, shown as clap shows the others'
/// (clap's own defaults cannot come from a type parameter).
pub(crate) fn default_help(help: &str, default: impl std::fmt::Display) -> String {
    format!("{help} [default: {default}]")
}

impl<D: EngineDefaults> EngineArgs<D> {
    /// The table size, when this machine can hold it (checked here: a failed allocation later
    /// would only give a smaller table).
    ///
    /// # Errors
    /// A size larger than this machine's memory.
    pub fn hash_mb(&self) -> Result<usize, String> {
        let megabytes = self.hash.unwrap_or(D::HASH_MB as u64);
        options::checked_hash_mb(megabytes).map_err(|e| format!("--hash {e}"))
    }

    /// The endgame tables of `--egdb`, for an engine of variant `R`.
    ///
    /// # Errors
    /// Tables given for a variant that has none, or a directory without tables.
    pub fn egdb<R: Rules>(&self) -> Result<Option<Arc<rafle::egdb::Egdb>>, String> {
        let Some(dir) = &self.egdb else {
            return Ok(None);
        };
        if !rafle::egdb::is_supported::<R>() {
            return Err(format!(
                "--egdb: the endgame tables are for international draughts, not {}",
                R::NAME
            ));
        }
        Ok(Some(Arc::new(super::egdb::open_tables(
            dir,
            self.egdb_pieces,
        )?)))
    }

    /// The setup these arguments give an engine of variant `R`.
    ///
    /// # Errors
    /// A bad evaluation, table size or endgame table directory.
    pub fn setup<R: Rules>(&self) -> Result<Setup, String> {
        Ok(Setup {
            eval: self.eval.eval()?,
            threads: self.threads as usize,
            hash_mb: self.hash_mb()?,
            egdb: self.egdb::<R>()?,
        })
    }
}

/// The engine of `setup`, saying so when its table cannot be had.
///
/// # Errors
/// When the table cannot be allocated.
pub fn engine<R: Rules>(setup: &Setup) -> Result<Engine<R, Eval>, String> {
    setup
        .engine::<R>()
        .map_err(|error| format!("--hash {}: {error}", setup.hash_mb))
}

/// The search time of a subcommand when none is given.
pub trait TimeDefault {
    /// Seconds a search takes without `--depth`, `--time` or `--nodes`.
    const SECONDS: f64;
}

/// The limits of a search: a depth, a time or a number of nodes (the first given of depth and
/// nodes, else the time).
#[derive(Debug, Args)]
pub struct LimitsArgs<T: TimeDefault> {
    /// Search to this depth.
    #[arg(short, long, conflicts_with_all = ["time", "nodes"],
        value_parser = clap::value_parser!(u32).range(DEPTH_RANGE))]
    pub depth: Option<u32>,
    /// Search for this many seconds; `None` for the subcommand's default.
    #[arg(short = 's', long, help = default_help("Search for this many seconds", T::SECONDS),
        conflicts_with = "nodes", allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Search this many nodes.
    #[arg(short, long, value_parser = clap::value_parser!(u64).range(NODES_RANGE))]
    pub nodes: Option<u64>,
    #[arg(skip)]
    default: PhantomData<T>,
}

impl<T: TimeDefault> LimitsArgs<T> {
    /// The limits of the search: `--depth`, else `--nodes`, else `--time`.
    ///
    /// # Errors
    /// A time that is not a number of seconds above 0 and at most [`MAX_SECONDS`].
    pub fn limits(&self) -> Result<Limits, String> {
        let mut limits = Limits::default();
        if let Some(depth) = self.depth {
            limits.depth = Some(depth);
        } else if let Some(nodes) = self.nodes {
            limits.nodes = Some(nodes);
        } else {
            let seconds = self.time.unwrap_or(T::SECONDS);
            limits.move_time = Some(search_time("time", seconds)?);
        }
        Ok(limits)
    }
}

/// A search time of `seconds` given for `what`.
///
/// # Errors
/// A time that is not a number of seconds above 0 and at most [`MAX_SECONDS`].
pub fn search_time(what: &str, seconds: f64) -> Result<Duration, String> {
    if !seconds.is_finite() || seconds <= 0.0 || seconds > MAX_SECONDS {
        return Err(format!(
            "bad {what} '{seconds}': give seconds > 0, at most {MAX_SECONDS}"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}
