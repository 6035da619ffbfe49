//! Finds the optional programs some integration tests drive: pydraughts (in the venv
//! `tools/.venv`), Chromium and chromedriver. Each one found sets a cfg (`rafle_has_pydraughts`,
//! `rafle_has_chromium`, `rafle_has_chromedriver`) and gives the tests its path; a test that needs
//! a missing one is `#[ignore]`d with the reason, so that `cargo test` reports it as not run, with
//! the command that installs it, instead of as a pass. With `RAFLE_REQUIRE_PYDRAUGHTS` or
//! `RAFLE_REQUIRE_CHROMIUM` set (`.ci/run` sets both), a missing one fails the build instead: CI
//! must not pass without those tests.
//!
//! Cargo reruns this script (and so rebuilds the crate) when a watched path changes. A missing
//! path cannot be watched (Cargo would rerun every time), so for a program not found the
//! directory it would be installed into is watched instead: installing it is noticed by the next
//! build. The venv is the exception: its directory, `tools/`, also holds the strength lab's test
//! log, rewritten after every game of a running test, and watching it would rebuild the crate at
//! every `cargo` command while a test runs. A venv made after the first build is noticed after
//! `touch build.rs`, which the install command in the tests' reasons and README includes.

use std::fs;
use std::path::{Path, PathBuf};

/// The venv of the Python tests, relative to the crate root.
const VENV: &str = "tools/.venv";
/// Its Python.
const VENV_PYTHON: &str = "bin/python";
/// The import name of pydraughts, a directory in the venv's `site-packages`.
const PYDRAUGHTS_PACKAGE: &str = "draughts";
/// Where Debian's `chromium` package (and Ubuntu's older one) put the browser.
const CHROMIUM_PATHS: [&str; 2] = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
/// Where Debian's `chromium-driver` package puts the driver.
const CHROMEDRIVER_PATHS: [&str; 1] = ["/usr/bin/chromedriver"];
/// Where the packages above install their programs.
const PROGRAMS_DIR: &str = "/usr/bin";
/// Set by CI: the pydraughts tests must run.
const REQUIRE_PYDRAUGHTS: &str = "RAFLE_REQUIRE_PYDRAUGHTS";
/// Set by CI: the browser tests must run.
const REQUIRE_CHROMIUM: &str = "RAFLE_REQUIRE_CHROMIUM";

fn main() {
    println!("cargo::rerun-if-changed=build.rs");

    let venv = Path::new(VENV);
    let pydraughts = pydraughts_dir(venv);
    match &pydraughts {
        Some(dir) => watch(dir),
        // `pip install` writes under `lib`.
        None if venv.is_dir() => watch(&venv.join("lib")),
        None => {}
    }
    let python = pydraughts.map(|_| absolute(&venv.join(VENV_PYTHON)));
    found(
        "pydraughts",
        python.as_deref(),
        REQUIRE_PYDRAUGHTS,
        "python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts && touch build.rs",
    );

    let install_chromium = "apt-get install chromium chromium-driver";
    found(
        "chromium",
        installed(&CHROMIUM_PATHS),
        REQUIRE_CHROMIUM,
        install_chromium,
    );
    found(
        "chromedriver",
        installed(&CHROMEDRIVER_PATHS),
        REQUIRE_CHROMIUM,
        install_chromium,
    );
}

/// Tells the tests where `program` is: the cfg `rafle_has_<program>` and the environment variable
/// `RAFLE_TEST_<PROGRAM>` (its path) when found. When it is not found and the environment
/// variable `require` is set (CI), the build fails, naming `install`, the command that installs it.
fn found(program: &str, path: Option<&Path>, require: &str, install: &str) {
    println!("cargo::rerun-if-env-changed={require}");
    let cfg = format!("rafle_has_{program}");
    println!("cargo::rustc-check-cfg=cfg({cfg})");
    match path {
        Some(path) => {
            println!("cargo::rustc-cfg={cfg}");
            println!(
                "cargo::rustc-env=RAFLE_TEST_{}={}",
                program.to_uppercase(),
                path.display()
            );
        }
        None if std::env::var_os(require).is_some() => {
            panic!("{require} is set but {program} is missing; install it: {install}")
        }
        None => {}
    }
}

fn watch(path: &Path) {
    println!("cargo::rerun-if-changed={}", path.display());
}

/// The first of `paths` that exists, watched; when none does, the programs' directory is watched.
fn installed(paths: &[&'static str]) -> Option<&'static Path> {
    let path = paths
        .iter()
        .map(|path| Path::new(*path))
        .find(|path| path.exists());
    watch(path.unwrap_or(Path::new(PROGRAMS_DIR)));
    path
}

/// `path`, relative to the crate root, made absolute.
fn absolute(path: &Path) -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("Cargo sets CARGO_MANIFEST_DIR"))
        .join(path)
}

/// The pydraughts package of the venv (`lib/pythonX.Y/site-packages/draughts`), if installed.
fn pydraughts_dir(venv: &Path) -> Option<PathBuf> {
    fs::read_dir(venv.join("lib"))
        .ok()?
        .flatten()
        .map(|python| python.path().join("site-packages").join(PYDRAUGHTS_PACKAGE))
        .find(|dir| dir.is_dir())
}
