//! Shared helpers for the integration tests: the reference data files in `tests/data`, the
//! pydraughts venv, and a Hub session with the real binary (`hub`).

#![allow(dead_code)]

pub mod browser;
pub mod hub;
pub mod server;
pub mod webdriver;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Path of a file in `tests/data`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// A fresh, empty directory for one test, removed when the test passes and kept for a look when it
/// fails.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// `rafle-{suite}-{pid}-{n}-{name}` under the system's temporary directory, emptied first: the
/// process id keeps parallel test binaries apart, the counter two tests of one binary that pick
/// the same name, and emptying keeps a killed run's files from passing for this run's.
pub fn scratch(suite: &str, name: &str) -> Scratch {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "rafle-{suite}-{}-{}-{name}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    Scratch(dir)
}

/// The tab-separated rows of a data file, without comments and blank lines.
pub fn rows(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(data_path(name)).expect("data file is readable");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split('\t').map(str::to_string).collect())
        .collect()
}

/// One published perft number.
#[derive(Debug, Clone)]
pub struct PerftRow {
    pub variant: String,
    pub keep_duplicates: bool,
    pub depth: u32,
    pub nodes: u64,
    pub fen: String,
    pub source: String,
    /// For a divide row: the first move (in the variant's notation) whose subtree is counted.
    pub divide: Option<String>,
}

/// All rows of `tests/data/perft.tsv`.
pub fn perft_rows() -> Vec<PerftRow> {
    rows("perft.tsv")
        .into_iter()
        .map(|row| PerftRow {
            variant: row[0].clone(),
            keep_duplicates: row[1] == "keep-dup",
            depth: row[2].parse().expect("depth"),
            nodes: row[3].parse().expect("nodes"),
            fen: row[4].clone(),
            source: row[5].clone(),
            divide: row
                .get(6)
                .and_then(|field| field.strip_prefix("divide="))
                .map(str::to_string),
        })
        .collect()
}

/// The Python of `tools/.venv`, which has pydraughts, as `build.rs` found it. The tests that call
/// this are `#[cfg_attr(not(rafle_has_pydraughts), ignore = "...")]`.
pub fn python_with_pydraughts() -> PathBuf {
    // Only an ignored test run anyway (`--include-ignored`) gets here without it.
    match option_env!("RAFLE_TEST_PYDRAUGHTS") {
        Some(path) => PathBuf::from(path),
        None => panic!(
            "pydraughts was not found when the tests were built (build.rs): README.md says how to install it"
        ),
    }
}
