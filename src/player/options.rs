//! The engine options every shell offers (Hub parameters, `analyze` and `dxp` flags): one default
//! and one range each, so that a new option is added here and nowhere else.

use crate::book::{Book, BookError, BookRule};
use crate::eval::Eval;
use crate::rules::Rules;
use crate::search::Engine;
use crate::tt::TableError;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

pub use crate::search::{DEFAULT_HASH_MB, MAX_THREADS};

/// Search threads by default.
pub const DEFAULT_THREADS: usize = 1;
/// Plies from the start during which book moves are drawn within the margin, as Scan ships it.
pub const DEFAULT_BOOK_PLY: u32 = 4;
/// Most `book-ply`, as Scan declares it.
pub const MAX_BOOK_PLY: u32 = 20;
/// Book randomness margin in centi-men, as Scan ships it.
pub const DEFAULT_BOOK_MARGIN: i32 = 4;
/// Most `book-margin`, as Scan declares it.
pub const MAX_BOOK_MARGIN: i32 = 100;
/// Most pieces of the endgame tables loaded by default: the tables a quick build gives (see the
/// README).
pub const DEFAULT_EGDB_PIECES: u32 = 5;
/// Most lines of a multi-PV analysis (`multi-pv`, `--multipv`).
pub const MAX_LINES: u32 = 64;
/// Most pieces of the endgame tables that can be loaded.
pub const MAX_EGDB_PIECES: u32 = 7;

/// The largest table accepted, in MiB: what this machine can hold (a failed allocation later
/// would only give a smaller table).
pub fn max_hash_mb() -> usize {
    crate::tt::max_megabytes()
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
/// less). The evaluation is logged (`evaluation: patterns-20261202-b`) so that a log says what
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
