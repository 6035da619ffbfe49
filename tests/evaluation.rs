//! Every shell that builds an engine plays with the default evaluation. Issue 38: `rafle dxp`
//! played with the hand-crafted one while the Hub played with the patterns, because the engine's
//! evaluator type had a default. Each engine a shell builds logs its evaluation at start-up
//! (`evaluation: patterns-20261207-p`, at info level from `rafle::player::options`); these tests
//! read that line from the real binary. `tests/dxp.rs` checks `rafle dxp` the same way, and the
//! score it plays with as well.

mod common;

use common::Scratch;
use common::server::Server;
use rafle::eval::Eval;
use rafle::eval::weights_file::EMBEDDED_NAME;
use rafle::rules::International;
use std::io::Write;
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;

/// The log lines these tests read, and only them.
const LOG_FILTER: &str = "rafle::player::options=info";
/// Longest wait for the server's log line.
const LOG_TIMEOUT: Duration = Duration::from_secs(30);

/// The evaluations named in a log.
fn evaluations(log: &str) -> Vec<&str> {
    log.lines()
        .filter_map(|line| line.split_once("evaluation: ").map(|(_, name)| name))
        .collect()
}

/// Runs `rafle ARGS` with `input` on stdin; its stderr, once it has succeeded.
fn run(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(args)
        .env("RUST_LOG", LOG_FILTER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rafle starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("rafle reads its input");
    let output = child.wait_with_output().expect("rafle runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "rafle {args:?}: {stderr}");
    stderr
}

/// Every engine of `log` has the default evaluation, and there is one at least.
fn assert_default(shell: &str, log: &str) {
    let names = evaluations(log);
    assert!(!names.is_empty(), "{shell}: no evaluation logged in {log}");
    assert!(
        names.iter().all(|&name| name == EMBEDDED_NAME),
        "{shell}: {names:?}"
    );
}

fn scratch(name: &str) -> Scratch {
    common::scratch("evaluation", name)
}

#[test]
fn the_default_evaluation_is_the_shipped_patterns() {
    assert!(EMBEDDED_NAME.starts_with("patterns-"), "{EMBEDDED_NAME}");
    assert_eq!(Eval::default_eval().name::<International>(), EMBEDDED_NAME);
}

#[test]
fn hub_and_analyze_log_the_evaluation_they_were_given() {
    assert_default("hub", &run(&["hub"], "hub\ninit\nquit\n"));
    assert_default("analyze", &run(&["analyze", "--depth", "1"], ""));
    // The line follows the choice, so that its absence of `hand` above means something.
    let hub = run(&["hub"], "set-param name=eval value=hand\ninit\nquit\n");
    assert_eq!(evaluations(&hub), ["hand"]);
    let analyze = run(&["analyze", "--depth", "1", "--eval", "hand"], "");
    assert_eq!(evaluations(&analyze), ["hand"]);
}

#[test]
fn annotate_and_bench_use_the_default_evaluation() {
    let dir = scratch("annotate");
    let game = dir.join("game.pdn");
    std::fs::write(
        &game,
        "[GameType \"20\"]\n\n1. 32-28 17-21 2. 37-32 21-26 *\n",
    )
    .expect("a game file");
    let game = game.display().to_string();
    assert_default("annotate", &run(&["annotate", &game, "--depth", "1"], ""));
    assert_default("bench", &run(&["bench", "--depth", "1"], ""));
}

#[test]
fn book_build_and_openings_score_with_the_default_evaluation() {
    let dir = scratch("book");
    let book = dir.join("tiny.book").display().to_string();
    let build = [
        "book",
        "build",
        "--out",
        &book,
        "--positions",
        "20",
        "--depth",
        "1",
    ];
    assert_default("book build", &run(&build, ""));
    let openings = ["openings", "--plies", "1", "--depth", "1", "--out", "-"];
    assert_default("openings", &run(&openings, ""));
}

#[test]
fn serve_builds_its_table_with_the_default_evaluation() {
    let (server, log) = Server::start_logged(LOG_FILTER);
    // A tab gets its table, and the table its engine, when the page opens its socket.
    let request = format!("ws://{}/ws", server.address)
        .into_client_request()
        .expect("a request");
    let stream = TcpStream::connect(server.address).expect("connect");
    let (_socket, _) = tungstenite::client(request, stream).expect("a tab");
    let started = Instant::now();
    let line = loop {
        let left = LOG_TIMEOUT.saturating_sub(started.elapsed());
        let line = log
            .recv_timeout(left)
            .expect("the evaluation logged in time");
        if line.contains("evaluation: ") {
            break line;
        }
    };
    assert_default("serve", &line);
}
