//! Regression tests for issue 18, "Hub and command line under a fast GUI and hostile input": one
//! test per case of the issue, against the real binary.

mod common;

use common::hub::Engine;
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A `ping` or `stop` answer must come within this (a quiet machine answers in a few ms; CI
/// machines are loaded).
const QUICK: Duration = Duration::from_millis(500);
/// Error lines quote their input only as a short excerpt.
const MAX_ERROR_LINE: usize = 300;

fn rafle(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rafle runs");
    let mut input = child.stdin.take().expect("stdin");
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let output = child.wait_with_output().expect("rafle ends");
    writer.join().expect("the writer ends");
    output
}

/// Case 1: a `stop` and a `ping` queued behind a `go` are read and answered at once; 60
/// `level` + `go think` pairs sent at once do not queue up 60 searches.
#[test]
fn commands_behind_a_queued_go_are_answered_at_once() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("go analyze");
    engine.until("info");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    engine.send_bytes(b"pos start\ngo analyze\nstop\nping\n");
    let lines = engine.until("pong");
    let elapsed = sent.elapsed();
    let dones = lines.iter().filter(|l| l.starts_with("done move=")).count();
    assert_eq!(dones, 2, "{lines:?}");
    assert!(
        elapsed < QUICK,
        "stop and ping behind a go took {elapsed:?}"
    );
    assert!(
        engine.no_output_for(Duration::from_millis(300)),
        "a search ran on"
    );

    let burst: String = (0..60).map(|_| "level move-time=0.5\ngo think\n").collect();
    let sent = Instant::now();
    engine.send_bytes(format!("{burst}ping\n").as_bytes());
    let lines = engine.until("pong");
    assert!(
        sent.elapsed() < QUICK,
        "ping behind 60 go: {:?}",
        sent.elapsed()
    );
    let mut dones = lines.iter().filter(|l| l.starts_with("done")).count();
    while dones < 60 {
        if engine.next().starts_with("done") {
            dones += 1;
        }
    }
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "60 go: {:?}",
        sent.elapsed()
    );
    engine.quit();
}

fn advertised_max_hash(lines: &[String]) -> u64 {
    let param = lines
        .iter()
        .find(|l| l.starts_with("param name=hash "))
        .expect("hash parameter");
    param
        .split_whitespace()
        .find_map(|word| word.strip_prefix("max="))
        .and_then(|max| max.parse().ok())
        .expect("max=")
}

/// Case 2: a table size beyond what the machine has is an error, never an abort, in the Hub and
/// on the command line; the advertised maximum is the machine's.
#[test]
fn table_sizes_beyond_the_machine_are_errors() {
    let max = rafle::tt::max_megabytes() as u64;
    let mut engine = Engine::start();
    engine.send("hub");
    let lines = engine.until("wait");
    assert_eq!(advertised_max_hash(&lines), max);
    engine.send("set-param name=book value=false");
    for size in [max + 1, 65_536.max(max + 1), u64::MAX] {
        engine.send(&format!("set-param name=hash value={size}"));
        let error = engine.next();
        assert!(
            error.starts_with("error message=\"bad value\"") && error.contains("hash"),
            "{error}"
        );
    }
    engine.send("set-param name=hash value=2");
    engine.send("level depth=2");
    engine.send("go think");
    assert!(
        engine
            .until("done")
            .last()
            .expect("done")
            .starts_with("done move=")
    );
    engine.quit();

    let too_big = (max + 1).to_string();
    let output = rafle(&["analyze", "--depth", "1", "--hash", &too_big], b"");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--hash"), "{stderr}");
    assert!(output.stdout.is_empty(), "no analysis after the error");
}

/// Case 3: numbers outside their range are errors, not wrapped: `depth=2147483648` used to
/// search depth 1.
#[test]
fn out_of_range_numbers_are_errors() {
    let mut engine = Engine::start();
    engine.handshake();
    for level in [
        "level depth=2147483648",
        "level depth=4294967297",
        "level depth=0",
        "level depth=100",
        "level nodes=0",
        "level nodes=18446744073709551616",
        "level moves=-1",
        "level move-time=-2",
        "level time=1e300",
        "set-param name=threads value=4294967297",
        "set-param name=book-ply value=-1",
        "set-param name=tt-size value=99",
    ] {
        engine.send(level);
        let error = engine.next();
        assert!(
            error.starts_with("error message=\"bad value\""),
            "{level}: {error}"
        );
    }
    engine.send("level depth=3");
    engine.send("go analyze");
    let lines = engine.until("done");
    let last_depth = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth="))
        .filter_map(|rest| rest.split_whitespace().next())
        .next_back();
    assert_eq!(last_depth, Some("3"), "{lines:?}");
    engine.quit();
}

/// Case 4: a line longer than the limit is drained, not kept, and answered with one short
/// error; no error quotes more than an excerpt of its input.
#[test]
fn long_lines_are_drained_and_errors_are_short() {
    let mut engine = Engine::start();
    engine.handshake();
    let mut long = b"pos fen=".to_vec();
    long.resize(50_000_000, b'W');
    long.push(b'\n');
    engine.send_bytes(&long);
    engine.send(&format!("bad-command-{}", "x".repeat(500_000)));
    engine.send(&format!("pos fen=W:W{}", "1,".repeat(300_000)));
    engine.send("ping");
    let lines = engine.until("pong");
    assert_eq!(lines.len(), 4, "{lines:?}");
    for error in &lines[..3] {
        assert!(error.starts_with("error "), "{error}");
        assert!(error.len() < MAX_ERROR_LINE, "{} bytes", error.len());
    }
    if let Some(peak) = engine.peak_memory_kib() {
        assert!(peak < 128 * 1024, "peak memory {peak} KiB for a 50 MB line");
    }
    engine.quit();

    let fen = format!("W:W{}\n", "1,".repeat(450_000));
    let output = rafle(&["moves"], fen.as_bytes());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.len() < 2 * MAX_ERROR_LINE, "{} bytes", stderr.len());
}

/// Case 5: `rafle moves` on stdin keeps one output line per input line, reports bad lines on
/// stderr and fails; invalid UTF-8 is one bad line, not the end of the run.
#[test]
fn moves_keeps_lines_aligned_and_fails_on_bad_ones() {
    let input = b"W:W31-50:B1-20\n\nnot a fen\nW:W31-50\xff:B1-20\nB:W31-50:B1-20\n";
    let output = rafle(&["moves"], input);
    let stdout = String::from_utf8(output.stdout).expect("text");
    let lines: Vec<&str> = stdout.split('\n').collect();
    assert_eq!(lines.len(), 6, "{stdout:?}");
    assert_eq!(lines[0].split_whitespace().count(), 9);
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "");
    assert_eq!(lines[3], "");
    assert_eq!(lines[4].split_whitespace().count(), 9);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 3:") && stderr.contains("line 4:"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("line 2:"),
        "a blank line is not an error: {stderr}"
    );
    assert_eq!(output.status.code(), Some(2));
    let good = rafle(&["moves"], b"W:W31-50:B1-20\n\n");
    assert!(good.status.success());
}

/// Case 6: defaults a GUI relies on. `go think` without `level` ends on its own (after
/// `rafle::hub::DEFAULT_MOVE_TIME`); a `level` sent before `pos` is kept; a finished position
/// is the end of the game everywhere: `analyze` says so for either side to move, and the Hub
/// answers `go` with an error and no `done`.
#[test]
fn defaults_and_finished_positions() {
    let mut engine = Engine::start();
    engine.handshake();
    let sent = Instant::now();
    engine.send("pos start");
    engine.send("go think");
    assert!(
        engine
            .until("done")
            .last()
            .expect("done")
            .starts_with("done move=")
    );
    let took = sent.elapsed();
    assert!(
        took >= rafle::hub::DEFAULT_MOVE_TIME / 2
            && took < rafle::hub::DEFAULT_MOVE_TIME + Duration::from_secs(3),
        "go think without level took {took:?}"
    );
    engine.send("level depth=2");
    engine.send("pos start moves=\"32-28\"");
    engine.send("go think");
    let lines = engine.until("done");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth=2 ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("info depth=3 ")));
    for fen in ["W:W31-50:B", "B:W31-50:B"] {
        engine.send(&format!("pos fen={fen}"));
        engine.send("go think");
        let error = engine.next();
        assert!(
            error.starts_with("error message=\"game over\"") && error.contains("white wins"),
            "{fen}: {error}"
        );
        assert!(
            engine.no_output_for(Duration::from_millis(300)),
            "{fen}: a done"
        );
    }
    engine.send("ping");
    assert_eq!(engine.next(), "pong");
    engine.quit();

    for fen in ["W:W31-50:B", "B:W31-50:B"] {
        let output = rafle(&["analyze", "--fen", fen, "--depth", "3"], b"");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{fen}");
        assert!(
            stdout.contains("the game is over: white wins: black has no pieces left"),
            "{fen}: {stdout}"
        );
        assert!(!stdout.contains("best move"), "{fen}: {stdout}");
    }
}
