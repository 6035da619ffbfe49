//! The command line as a user runs it.

use std::io::Read;
use std::process::{Command, Stdio};

/// A report command whose reader goes away (`rafle analyze | head -1`) ends quietly: killed by
/// SIGPIPE like any Unix tool, not by a panic on a failed `println!`.
#[cfg(unix)]
#[test]
fn a_report_ends_quietly_when_its_reader_goes_away() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(["analyze", "--depth", "40"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rafle runs");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 1];
    stdout
        .read_exact(&mut first)
        .expect("the analysis prints something");
    drop(stdout);
    let status = child.wait().expect("rafle ends");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr is text");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.signal(), Some(libc::SIGPIPE), "{status:?}");
}

/// A negative time is read as a time and refused with the reason (not clap's "unexpected
/// argument '-1'"), with exit status 2 like every other bad input.
#[test]
fn a_negative_time_is_refused_with_the_reason() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(["analyze", "--time", "-1"])
        .output()
        .expect("rafle runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad time '-1': give seconds > 0"),
        "{stderr}"
    );
    assert!(!stderr.contains("unexpected argument"), "{stderr}");
}

fn rafle(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(args)
        .output()
        .expect("rafle runs")
}

/// A directory named with `--egdb` that does not exist is an error naming it and saying what to
/// do, with exit status 2, and no warning that play goes on without tables.
#[test]
fn a_missing_egdb_directory_is_an_error() {
    let missing = std::env::temp_dir().join(format!("rafle-cli-{}-no-egdb", std::process::id()));
    let missing = missing.to_string_lossy();
    for args in [
        ["analyze", "--depth", "1", "--egdb", &missing].as_slice(),
        ["egdb", "probe", "--fen", "W:W46:B5", "--egdb", &missing].as_slice(),
    ] {
        let output = rafle(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("--egdb {missing}: no such directory")),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("rafle egdb build"), "{args:?}: {stderr}");
        assert!(!stderr.contains("without tables"), "{args:?}: {stderr}");
        assert!(
            output.stdout.is_empty(),
            "{args:?}: refused before any output"
        );
    }
}

/// `egdb probe` takes its position with `--fen` as the other commands do; the old positional FEN
/// still works, with a warning.
#[test]
fn egdb_probe_takes_fen() {
    let dir = std::env::temp_dir().join(format!("rafle-cli-{}-egdb", std::process::id()));
    let dir_text = dir.to_string_lossy();
    let built = rafle(&["egdb", "build", "--pieces", "2", "--out", &dir_text]);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let fen = "W:W46:B5";
    let with_flag = rafle(&["egdb", "probe", "--fen", fen, "--egdb", &dir_text]);
    let stdout = String::from_utf8_lossy(&with_flag.stdout);
    assert!(with_flag.status.success(), "{stdout}");
    assert!(stdout.starts_with(&format!("{fen}: ")), "{stdout}");
    let tag = rafle(&[
        "egdb",
        "probe",
        "--fen",
        &format!("[FEN \"{fen}\"]"),
        "--egdb",
        &dir_text,
    ]);
    assert_eq!(String::from_utf8_lossy(&tag.stdout), stdout);
    let positional = rafle(&["egdb", "probe", fen, "--egdb", &dir_text]);
    assert_eq!(String::from_utf8_lossy(&positional.stdout), stdout);
    assert!(
        String::from_utf8_lossy(&positional.stderr).contains("deprecated; give it as `--fen FEN`")
    );
    let neither = rafle(&["egdb", "probe", "--egdb", &dir_text]);
    assert_eq!(neither.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).expect("the tables are removed");
}

/// CI runs exactly the test command README.md gives a new user (its first `cargo test` line).
#[test]
fn ci_runs_the_test_command_of_the_readme() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let ci = std::fs::read_to_string(root.join(".ci/run")).expect(".ci/run");
    let readme_command = readme
        .lines()
        .find(|line| line.starts_with("cargo test"))
        .and_then(|line| line.split('#').next())
        .expect("a cargo test line in README.md")
        .trim();
    let ci_command = ci
        .lines()
        .rfind(|line| !line.trim().is_empty())
        .expect("a last line in .ci/run")
        .trim();
    assert_eq!(readme_command, ci_command);
}
