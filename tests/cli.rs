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
