//! The engine options every shell offers (Hub parameters, the command line's engine arguments):
//! one default and one range each, read by the Hub's parameter table and by the command line
//! alike, so that a new option is added here and nowhere else; and [`Setup`], what they come to,
//! from which every shell builds its engine.

use crate::book::{Book, BookError, BookRule};
use crate::egdb::Egdb;
use crate::eval::Eval;
use crate::rules::Rules;
use crate::search::Engine;
use crate::tt::TableError;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

pub use crate::search::params::MAX_DEPTH;
pub use crate::search::{DEFAULT_HASH_MB, MAX_THREADS};

/// Search threads by default.
pub const DEFAULT_THREADS: usize = 1;
/// Search threads accepted.
pub const THREADS_RANGE: RangeInclusive<i64> = 1..=MAX_THREADS as i64;
/// Smallest table accepted, in MiB (the largest is [`max_hash_mb`]).
pub const MIN_HASH_MB: u64 = 1;
/// Plies from the start during which book moves are drawn within the margin, as Scan ships it.
pub const DEFAULT_BOOK_PLY: u32 = 4;
/// Most `book-ply`, as Scan declares it.
pub const MAX_BOOK_PLY: u32 = 20;
/// `book-ply` values accepted.
pub const BOOK_PLY_RANGE: RangeInclusive<i64> = 0..=MAX_BOOK_PLY as i64;
/// Book randomness margin in centi-men, as Scan ships it.
pub const DEFAULT_BOOK_MARGIN: i32 = 4;
/// Most `book-margin`, as Scan declares it.
pub const MAX_BOOK_MARGIN: i32 = 100;
/// `book-margin` values accepted.
pub const BOOK_MARGIN_RANGE: RangeInclusive<i64> = 0..=MAX_BOOK_MARGIN as i64;
/// Most pieces of the endgame tables loaded by default: the tables a quick build gives (see the
/// README).
pub const DEFAULT_EGDB_PIECES: u32 = 5;
/// Lines of an analysis by default: the best one.
pub const DEFAULT_LINES: u32 = 1;
/// Most lines of a multi-PV analysis (`multi-pv`, `--multipv`).
pub const MAX_LINES: u32 = 64;
/// Lines of an analysis accepted.
pub const LINES_RANGE: RangeInclusive<i64> = DEFAULT_LINES as i64..=MAX_LINES as i64;
/// Most pieces of the endgame tables that can be loaded.
pub const MAX_EGDB_PIECES: u32 = 7;
/// `egdb-pieces` values accepted (0: no tables).
pub const EGDB_PIECES_RANGE: RangeInclusive<i64> = 0..=MAX_EGDB_PIECES as i64;
/// Search depths accepted, in plies (the Hub's `level depth`, the command line's `--depth`, a
/// match's `depth=` time control).
pub const DEPTH_RANGE: RangeInclusive<i64> = 1..=MAX_DEPTH as i64;
/// Node limits accepted.
pub const NODES_RANGE: RangeInclusive<u64> = 1..=u64::MAX;

/// The largest table accepted, in MiB: what this machine can hold (a failed allocation later
/// would only give a smaller table).
pub fn max_hash_mb() -> usize {
    crate::tt::max_megabytes()
}

/// Table sizes accepted, in MiB.
pub fn hash_range() -> RangeInclusive<i64> {
    MIN_HASH_MB as i64..=i64::try_from(max_hash_mb()).unwrap_or(i64::MAX)
}

/// Why an engine option cannot be used.
#[derive(Debug, Error)]
pub enum OptionError {
    /// A table larger than the machine's memory.
    #[error("{0} MiB: more than this machine's memory ({max} MiB)", max = max_hash_mb())]
    HashTooLarge(u64),
    /// The variant ships no book and none was named.
    #[error("no book for {0} found (looked for books/{0}.book)")]
    NoDefaultBook(&'static str),
    /// The book file cannot be used.
    #[error("cannot load book {path}: {source}")]
    Book {
        /// The file.
        path: PathBuf,
        /// Why.
        source: BookError,
    },
}

/// A table size in MiB, when this machine can hold it.
///
/// # Errors
/// [`OptionError::HashTooLarge`].
pub fn checked_hash_mb(megabytes: u64) -> Result<usize, OptionError> {
    usize::try_from(megabytes)
        .ok()
        .filter(|&mb| mb <= max_hash_mb())
        .ok_or(OptionError::HashTooLarge(megabytes))
}

/// The book rule of the `book-ply` and `book-margin` options.
pub fn book_rule(ply: u32, margin: i32) -> BookRule {
    BookRule { ply, margin }
}

impl Default for BookRule {
    /// Scan's shipped settings.
    fn default() -> Self {
        book_rule(DEFAULT_BOOK_PLY, DEFAULT_BOOK_MARGIN)
    }
}

/// The book file to read: the one given, or the variant's shipped book.
///
/// # Errors
/// [`OptionError::NoDefaultBook`] when none is given and the variant has none.
pub fn book_path<R: Rules>(given: Option<&Path>) -> Result<PathBuf, OptionError> {
    match given {
        Some(path) => Ok(path.to_path_buf()),
        None => crate::book::default_path(R::NAME).ok_or(OptionError::NoDefaultBook(R::NAME)),
    }
}

/// Loads the book of `path`, saying which file failed and why.
///
/// # Errors
/// [`OptionError::Book`].
pub fn load_book<R: Rules>(path: &Path) -> Result<Arc<Book<R>>, OptionError> {
    Book::<R>::load(path)
        .map(Arc::new)
        .map_err(|source| OptionError::Book {
            path: path.to_path_buf(),
            source,
        })
}

/// The engine of every shell (Hub, `analyze`, `annotate`, `dxp`, `serve`, `book build`,
/// `openings`, `bench`): the evaluation `eval` (the shell's `eval` option, else
/// [`Eval::default_eval`]), `threads` search threads and a table of `hash_mb` MiB. The table is
/// asked for fallibly, so that the shell can say it cannot be had ([`engine_at_most`] settles for
/// less). The evaluation is logged (`evaluation: patterns-20261207-p`) so that a log says what
/// played; the tests read it.
///
/// # Errors
/// When the table cannot be allocated.
pub fn engine<R: Rules>(
    eval: Eval,
    threads: usize,
    hash_mb: usize,
) -> Result<Engine<R, Eval>, TableError> {
    let name = eval.name::<R>();
    let mut engine = Engine::<R, Eval>::with_evaluator(eval, 0, threads);
    engine.set_hash(hash_mb)?;
    log::info!("evaluation: {name}");
    Ok(engine)
}

/// [`engine`] for a shell with no one to tell that its table cannot be had (a DXP peer, the
/// workers of `book build`, `openings` and `bench`, the Hub's last resort): the largest table the
/// system gives up to `hash_mb` MiB, with a warning when it is less.
pub fn engine_at_most<R: Rules>(eval: Eval, threads: usize, hash_mb: usize) -> Engine<R, Eval> {
    log::info!("evaluation: {}", eval.name::<R>());
    Engine::<R, Eval>::with_evaluator(eval, hash_mb, threads)
}

/// What an engine is made of, as a shell's options give it: the evaluation, the search threads,
/// the table size and the endgame tables. The shells that build their engine from a setup
/// (`dxp`, `serve`, `book build` and the command line's `analyze` and `annotate`) read it from
/// the same arguments, so that each option means the same everywhere.
#[derive(Clone)]
pub struct Setup {
    /// The evaluation.
    pub eval: Eval,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Endgame tables, for the variants that have them (another variant's engine goes without).
    pub egdb: Option<Arc<Egdb>>,
}

impl Default for Setup {
    /// The defaults of every option, no endgame tables.
    fn default() -> Self {
        Setup {
            eval: Eval::default_eval(),
            threads: DEFAULT_THREADS,
            hash_mb: DEFAULT_HASH_MB,
            egdb: None,
        }
    }
}

impl std::fmt::Debug for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setup")
            .field("eval", &self.eval)
            .field("threads", &self.threads)
            .field("hash_mb", &self.hash_mb)
            .field("egdb", &self.egdb.as_ref().map(|egdb| egdb.max_pieces()))
            .finish()
    }
}

impl Setup {
    /// The engine of this setup for variant `R` ([`engine`]), with the endgame tables when they
    /// are for `R`.
    ///
    /// # Errors
    /// When the table cannot be allocated.
    pub fn engine<R: Rules>(&self) -> Result<Engine<R, Eval>, TableError> {
        let mut engine = engine::<R>(self.eval.clone(), self.threads, self.hash_mb)?;
        engine.set_egdb(self.egdb_for::<R>());
        Ok(engine)
    }

    /// [`Setup::engine`] that settles for the largest table the system gives ([`engine_at_most`]).
    pub fn engine_at_most<R: Rules>(&self) -> Engine<R, Eval> {
        let mut engine = engine_at_most::<R>(self.eval.clone(), self.threads, self.hash_mb);
        engine.set_egdb(self.egdb_for::<R>());
        engine
    }

    fn egdb_for<R: Rules>(&self) -> Option<Arc<Egdb>> {
        self.egdb
            .clone()
            .filter(|_| crate::egdb::is_supported::<R>())
    }
}
