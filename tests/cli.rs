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
