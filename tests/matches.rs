//! `rafle match` against misbehaving engines: `tests/engines/mock_hub.py` relays a real
//! `rafle hub` but, in the first game only, plays an illegal move, crashes, hangs, answers `error`
//! or answers too late. Each must lose that game with the right reason, and the match must go on:
//! the second game is played (with the engine restarted where it had to be) and ends normally.
//!
//! Games are kept short: `--adjudicate draw=100,1,1` draws a game as soon as both engines have
//! reported a score once. Needs `python3` (standard library only); without it the tests are
//! skipped with a message.

mod common;

use common::Scratch;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

const RAFLE: &str = env!("CARGO_BIN_EXE_rafle");
/// `rafle hub` as a `--engine` command.
const RAFLE_HUB: &str = concat!("cmd=", env!("CARGO_BIN_EXE_rafle"), " hub");

fn mock_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/mock_hub.py")
}

fn have_python() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: no python3 for the mock engines");
    }
    found
}

fn scratch(name: &str) -> Scratch {
    common::scratch("matches", name)
}

/// One opening (the start position) written to `dir`.
fn start_opening(dir: &Path) -> PathBuf {
    let path = dir.join("openings.txt");
    std::fs::write(&path, "# the start position\nW:W31-50:B1-20\n").expect("openings file");
    path
}

/// The mock as a `--engine` command, with `fault` in every game.
fn mock_in_every_game(dir: &Path, fault: &str) -> String {
    format!(
        "cmd=python3 {} --engine {RAFLE} --fault {fault} --pids {}",
        mock_script().display(),
        dir.join("pids").display()
    )
}

/// The mock as a `--engine` command, with `fault` in the first game only.
fn mock_command(dir: &Path, fault: &str) -> String {
    format!(
        "{} --once {}",
        mock_in_every_game(dir, fault),
        dir.join("once").display()
    )
}

/// `dir/logs`, for `--log-dir`.
fn logs(dir: &Path) -> String {
    dir.join("logs").display().to_string()
}

struct Run {
    success: bool,
    stdout: String,
    stderr: String,
}

fn rafle_match<S: AsRef<OsStr>>(args: &[S]) -> Run {
    let output = Command::new(RAFLE)
        .arg("match")
        .args(args)
        .output()
        .expect("rafle runs");
    Run {
        success: output.status.success(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The mock (White in game 1, Black in game 2) against `rafle hub`, two games from the start.
fn faulty_match(fault: &str) -> (Run, Scratch) {
    let dir = scratch(fault);
    let run = rafle_match(&[
        "--engine",
        &mock_command(&dir, fault),
        "name=mock",
        "--engine",
        RAFLE_HUB,
        "name=rafle",
        "--openings",
        &start_opening(&dir).display().to_string(),
        "--log-dir",
        &logs(&dir),
        "--tc",
        "1+0.1",
        "--adjudicate",
        "draw=100,1,1",
        "--no-progress",
    ]);
    (run, dir)
}

/// Game 1 lost by the mock with `expected` (keyword and description), game 2 played on.
fn check_fault(fault: &str, expected: &str) -> Scratch {
    let (run, dir) = faulty_match(fault);
    let out = &run.stdout;
    assert!(run.success, "{out}\n{}", run.stderr);
    let first = out
        .lines()
        .find(|l| l.starts_with("Finished game 1/2"))
        .unwrap_or_else(|| panic!("no game 1 in\n{out}"));
    assert!(
        first.contains(&format!("0-2 {{{expected}")),
        "game 1 should be lost by the mock with '{expected}': {first}"
    );
    let second = out
        .lines()
        .find(|l| l.starts_with("Finished game 2/2"))
        .unwrap_or_else(|| panic!("no game 2 in\n{out}"));
    assert!(
        second.contains("1-1 {adjudication: both engines scored"),
        "game 2 should be played normally: {second}"
    );
    assert!(
        out.contains("Score of mock vs rafle: 0 - 1 - 1 (W - L - D) [0.250] 2 games"),
        "{out}"
    );
    dir
}

#[test]
fn illegal_move_loses_and_the_match_goes_on() {
    if have_python() {
        check_fault("illegal", "illegal move: mock played '46-5' (illegal move");
    }
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    if have_python() {
        check_fault("crash", "crash: mock crashed (exit status 3)");
    }
}

#[test]
fn error_answer_loses() {
    if have_python() {
        check_fault("error", "error: mock answered error: mock failure");
    }
}

#[test]
fn late_answer_loses_on_time() {
    if have_python() {
        check_fault("late", "time: mock did not move in time (had 1.100 s)}");
    }
}

/// Whether a process is running (a zombie waiting to be reaped is not).
fn running(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next());
            state != Some("Z")
        }
        Err(_) => false,
    }
}

#[test]
fn hung_engine_is_killed_with_its_children_and_restarted() {
    if !have_python() {
        return;
    }
    let dir = check_fault(
        "hang",
        "hung: mock did not move in time (had 1.100 s) and did not answer stop (killed)",
    );
    let pids = std::fs::read_to_string(dir.join("pids")).expect("the mock wrote its pids");
    // The first mock, its real engine and its `sleep` child, then the restarted mock and engine.
    assert_eq!(pids.lines().count(), 5, "{pids}");
    if Path::new("/proc/self/stat").exists() {
        for pid in pids.lines() {
            assert!(!running(pid), "process {pid} still runs");
        }
    }
}

#[test]
fn round_robin_with_concurrency() {
    if !have_python() {
        return;
    }
    let dir = scratch("round-robin");
    let run = rafle_match(&[
        "--engine",
        RAFLE_HUB,
        "name=a",
        "--engine",
        RAFLE_HUB,
        "name=b",
        "--engine",
        &mock_command(&dir, "none"),
        "name=c",
        "--openings",
        &start_opening(&dir).display().to_string(),
        "--log-dir",
        &logs(&dir),
        "--tc",
        "st=0.05",
        "--adjudicate",
        "draw=100,1,1",
        "--concurrency",
        "2",
        "--no-progress",
    ]);
    let out = &run.stdout;
    assert!(run.success, "{out}\n{}", run.stderr);
    // Three pairs of engines, one opening, both colours.
    assert_eq!(out.matches("Finished game ").count(), 6, "{out}");
    for engine in ["a", "b", "c"] {
        assert!(
            out.lines()
                .any(|l| l.contains(&format!("  {engine}  ")) && l.contains("     4  ")),
            "{engine} should have played 4 games:\n{out}"
        );
    }
    assert!(out.contains("Score of a vs b: 0 - 0 - 2"), "{out}");
    assert!(out.contains("Endings: adjudication 6"), "{out}");
}

#[test]
fn sprt_stops_a_decided_match() {
    if !have_python() {
        return;
    }
    let dir = scratch("sprt");
    // The mock plays an illegal move in every game: rafle wins them all.
    let run = rafle_match(&[
        "--engine",
        RAFLE_HUB,
        "name=rafle",
        "--engine",
        &mock_in_every_game(&dir, "illegal"),
        "name=mock",
        "--log-dir",
        &logs(&dir),
        "--tc",
        "10+0.1",
        "--sprt",
        "elo0=0",
        "elo1=200",
        "--no-progress",
    ]);
    let out = &run.stdout;
    assert!(run.success, "{out}\n{}", run.stderr);
    assert!(out.contains("SPRT decided"), "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
    let games = out.matches("Finished game ").count();
    assert!(
        games < 158,
        "the SPRT should stop the match early: {games} games"
    );
}

#[test]
fn unusable_engines_are_reported() {
    let dir = scratch("unusable");
    let logs = logs(&dir);
    let missing = rafle_match(&[
        "--engine",
        "cmd=/nonexistent/engine hub",
        "--engine",
        RAFLE_HUB,
        "--log-dir",
        &logs,
    ]);
    assert!(!missing.success);
    assert!(
        missing.stderr.contains("engine 1") && missing.stderr.contains("could not be started"),
        "{}",
        missing.stderr
    );
    // Nothing listens on port 1: three games lost by the DXP engine stop the match.
    let dxp = rafle_match(&[
        "--engine",
        "cmd=dxp://127.0.0.1:1",
        "name=nobody",
        "--engine",
        RAFLE_HUB,
        "--log-dir",
        &logs,
        "--no-progress",
    ]);
    assert!(!dxp.success);
    assert!(
        dxp.stderr.contains("nobody failed 3 games in a row"),
        "{}",
        dxp.stderr
    );
    // The game under way when the third loss is counted may finish too.
    let played = dxp.stdout.matches("Finished game").count();
    assert!((3..=4).contains(&played), "{}", dxp.stdout);
    let dxp_brazilian = rafle_match(&[
        "--engine",
        "cmd=dxp://127.0.0.1:1",
        "--engine",
        RAFLE_HUB,
        "--variant",
        "brazilian",
    ]);
    assert!(!dxp_brazilian.success);
    assert!(
        dxp_brazilian.stderr.contains("international draughts only"),
        "{}",
        dxp_brazilian.stderr
    );
    let one = rafle_match(&["--engine", RAFLE_HUB]);
    assert!(!one.success);
    assert!(
        one.stderr.contains("at least two engines"),
        "{}",
        one.stderr
    );
    let bad_tc = rafle_match(&["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "fast"]);
    assert!(!bad_tc.success);
    assert!(
        bad_tc.stderr.contains("bad time control"),
        "{}",
        bad_tc.stderr
    );
}

/// Two openings written to `dir`: a FEN only (31-26 16-21), and 32-28 19-23 given with its
/// moves.
fn two_openings(dir: &Path) -> PathBuf {
    let path = dir.join("openings.txt");
    std::fs::write(
        &path,
        "W:W26,32-50:B1-15,17-21\nW:W28,31,33-50:B1-18,20,23  32-28 19-23\n",
    )
    .expect("openings file");
    path
}

#[test]
fn pdn_is_written_game_by_game_and_a_match_resumes_from_it() {
    if !have_python() {
        return;
    }
    let dir = scratch("resume");
    play_and_resume_a_match(&dir);
}

/// An independent reader of the PDN: pydraughts.
#[test]
#[cfg_attr(
    not(rafle_has_pydraughts),
    ignore = "needs pydraughts: python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts && touch build.rs"
)]
fn pydraughts_reads_the_pdn_of_a_resumed_match() {
    let dir = scratch("resume-pydraughts");
    let pdn = play_and_resume_a_match(&dir);
    let check = Command::new(common::python_with_pydraughts())
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/match_pdn_check.py"))
        .arg(&pdn)
        .output()
        .expect("python runs");
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(report.contains("4 games"), "{report}");
    assert!(
        report.contains("rafle: 1 wins, 3 draws, 0 losses"),
        "{report}"
    );
}

/// Plays two games of a match against the mock (an illegal move in the first) with a PDN in
/// `dir`, then resumes it to four, checking the PDN and the output at each step; returns the PDN.
fn play_and_resume_a_match(dir: &Path) -> PathBuf {
    let pdn = dir.join("match.pdn");
    let mock = mock_command(dir, "illegal");
    let openings = two_openings(dir).display().to_string();
    let logs = logs(dir);
    let pdn_path = pdn.display().to_string();
    let args = |games: &'static str, resume: bool, swap: bool| {
        let mock = ["--engine", mock.as_str(), "name=mock"];
        let rafle = ["--engine", RAFLE_HUB, "name=rafle"];
        let (first, second) = if swap { (rafle, mock) } else { (mock, rafle) };
        let mut args = [first, second].concat();
        args.extend([
            "--openings",
            &openings,
            "--log-dir",
            &logs,
            "--pdn",
            &pdn_path,
            "--tc",
            "st=0.05",
            "--adjudicate",
            "draw=100,1,1",
            "--no-progress",
            "--games",
            games,
        ]);
        if resume {
            args.push("--resume");
        }
        args
    };
    let first = rafle_match(&args("2", false, false));
    assert!(first.success, "{}\n{}", first.stdout, first.stderr);
    let text = std::fs::read_to_string(&pdn).expect("the PDN was written");
    assert_eq!(text.matches("[Event \"rafle match\"]").count(), 2, "{text}");
    // The game lines count plies as the PDN's PlyCount does.
    let line_plies: Vec<&str> = first
        .stdout
        .lines()
        .filter(|line| line.starts_with("Finished game"))
        .filter_map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            let at = words.iter().position(|w| *w == "plies")?;
            at.checked_sub(1).map(|before| words[before])
        })
        .collect();
    let pdn_plies: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("[PlyCount \""))
        .map(|rest| rest.trim_end_matches("\"]"))
        .collect();
    assert_eq!(line_plies, pdn_plies, "{}\n{text}", first.stdout);
    for tag in [
        "[Round \"1\"]",
        "[White \"mock\"]",
        "[Black \"rafle\"]",
        "[Result \"0-2\"]",
        "[GameType \"20\"]",
        "[Termination \"illegal move: mock played '46-5'",
        "[TimeControl \"st=0.05\"]",
        "[FEN \"W:W26,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,17,18,19,20,21\"]",
    ] {
        assert!(text.contains(tag), "{tag} missing in\n{text}");
    }

    let wrong_order = rafle_match(&args("4", true, true));
    assert!(!wrong_order.success);
    assert!(
        wrong_order.stderr.contains("same engines and order?"),
        "{}",
        wrong_order.stderr
    );

    let second = rafle_match(&args("4", true, false));
    let out = &second.stdout;
    assert!(second.success, "{out}\n{}", second.stderr);
    assert!(
        out.contains("resumed: 2 games already played, 2 to play"),
        "{out}"
    );
    assert!(
        !out.contains("Finished game 1/4") && !out.contains("Finished game 2/4"),
        "{out}"
    );
    assert!(
        out.contains("Finished game 3/4") && out.contains("Finished game 4/4"),
        "{out}"
    );
    assert!(
        out.contains("Score of mock vs rafle: 0 - 1 - 3 (W - L - D)"),
        "{out}"
    );
    let text = std::fs::read_to_string(&pdn).expect("the PDN was written");
    assert_eq!(text.matches("[Event \"rafle match\"]").count(), 4, "{text}");

    pdn
}

#[test]
fn an_interrupted_match_kills_its_engines() {
    if !have_python() || !Path::new("/proc/self/stat").exists() {
        return;
    }
    let dir = scratch("interrupt");
    // The mock hangs at its first move, with a child process of its own.
    let child = Command::new(RAFLE)
        .arg("match")
        .args(["--engine", &mock_in_every_game(&dir, "hang"), "name=mock"])
        .args(["--engine", RAFLE_HUB, "name=rafle"])
        .args(["--openings", &start_opening(&dir).display().to_string()])
        .args(["--log-dir", &logs(&dir)])
        .args(["--tc", "600", "--no-progress"])
        .args(["--pdn", &dir.join("games.pdn").display().to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("rafle runs");
    let pids_file = dir.join("pids");
    let waited = std::time::Instant::now();
    let pids = loop {
        let pids = std::fs::read_to_string(&pids_file).unwrap_or_default();
        if pids.lines().count() == 3 {
            break pids;
        }
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(60),
            "the mock did not start its child: '{pids}'"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let output = child.wait_with_output().expect("rafle ends");
    assert!(
        !output.status.success(),
        "an interrupted match does not succeed"
    );
    // The partial result and how to go on.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Interrupted: 0 of 2 games played"),
        "{stdout}"
    );
    assert!(stdout.contains("Score of mock vs rafle"), "{stdout}");
    assert!(
        stdout.contains("run the same command with --resume"),
        "{stdout}"
    );
    let pdn = std::fs::read_to_string(dir.join("games.pdn")).unwrap_or_default();
    assert!(
        pdn.is_empty(),
        "the game in progress is not recorded: {pdn}"
    );
    // SIGKILL is delivered asynchronously: give the processes a moment to die.
    let killed = std::time::Instant::now();
    for pid in pids.lines() {
        while running(pid) && killed.elapsed() < std::time::Duration::from_secs(5) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(
            !running(pid),
            "process {pid} outlived the interrupted match"
        );
    }
}

/// A child process killed when the test ends, however it ends.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_dxp_engine_plays_through_the_referee() {
    let dir = scratch("dxp");
    // Our own DXP engine as the follower, on an ephemeral port.
    let mut follower = KillOnDrop(
        Command::new(RAFLE)
            .args(["dxp", "--listen", "127.0.0.1:0", "--move-time", "0.05"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("rafle dxp runs"),
    );
    let mut output = std::io::BufReader::new(follower.0.stdout.take().expect("stdout"));
    let mut first_line = String::new();
    std::io::BufRead::read_line(&mut output, &mut first_line)
        .expect("the listener prints its address");
    // Keep reading: the follower prints a line per game and must not meet a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut output, &mut std::io::sink()));
    let address = first_line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line '{first_line}'"))
        .to_string();
    // Two kings against one: drawn by FMJD art. 6.4 after five moves each.
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "W:WK46,K5:BK24\n").expect("openings file");
    let pdn = dir.join("dxp.pdn");
    let run = rafle_match(&[
        "--engine",
        &format!("cmd=dxp://{address}"),
        "name=follower",
        "--engine",
        RAFLE_HUB,
        "name=hub",
        "--openings",
        &openings.display().to_string(),
        "--tc",
        "60",
        "--pdn",
        &pdn.display().to_string(),
        "--log-dir",
        &logs(&dir),
        "--no-progress",
    ]);
    let out = &run.stdout;
    assert!(run.success, "{out}\n{}", run.stderr);
    assert_eq!(
        out.matches("1-1 {rules: draw by move limit with two pieces against a lone king (FMJD art. 6.4)} 10 plies")
            .count(),
        2,
        "{out}"
    );
    assert!(out.contains("Score of follower vs hub: 0 - 0 - 2"), "{out}");
    let text = std::fs::read_to_string(&pdn).expect("the PDN was written");
    assert!(text.contains("[White \"follower\"]") && text.contains("[Black \"follower\"]"));
}

/// The strength lab's sequential test: interrupted after a few games and resumed, it ends with
/// the same games, counts and test-log line as the same test run without a break (a varied
/// node count keeps every game reproducible), and the log says `running` in between. Resumed
/// from the log line alone (its state file lost with the machine), it ends with the same line.
#[test]
fn an_interrupted_test_resumes_to_the_same_counts_and_log_line() {
    let dir = scratch("lab");
    let args = |name: &str| -> Vec<String> {
        let run = dir.join(name);
        std::fs::create_dir_all(&run).expect("run directory");
        [
            "match",
            "--engine",
            RAFLE_HUB,
            "name=cand",
            "--engine",
            RAFLE_HUB,
            "name=base",
            "--each",
            "option.book=false",
            "option.threads=1",
            "--tc",
            "nodes=400~10",
            "--games",
            "12",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0",
            "elo1=5",
            "--test-note",
            "nothing",
            "--test-command",
            "tools/sprt cand base",
            "--no-progress",
        ]
        .iter()
        .map(|word| word.to_string())
        .chain([
            "--pdn".to_string(),
            run.join("test.pdn").display().to_string(),
            "--test-log".to_string(),
            run.join("tests.tsv").display().to_string(),
            "--log-dir".to_string(),
            run.join("logs").display().to_string(),
        ])
        .collect()
    };
    let whole = Command::new(RAFLE)
        .args(args("whole"))
        .output()
        .expect("rafle runs");
    assert!(whole.status.success(), "{whole:?}");

    let mut interrupted = KillOnDrop(
        Command::new(RAFLE)
            .args(args("split"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("rafle runs"),
    );
    let pdn = dir.join("split/test.pdn");
    let waited = std::time::Instant::now();
    while std::fs::read_to_string(&pdn)
        .unwrap_or_default()
        .matches("[Event ")
        .count()
        < 3
    {
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(120),
            "no games"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let sent = Command::new("kill")
        .args(["-INT", &interrupted.0.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let _ = interrupted.0.wait();
    let log = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name).join("tests.tsv")).expect("test log");
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        assert_eq!(lines.len(), 2, "a header and one test: {text}");
        lines[1].split('\t').map(str::to_string).collect::<Vec<_>>()
    };
    let midway = log("split");
    assert_eq!(midway[2], "running", "{midway:?}");
    assert!(
        midway[7].parse::<usize>().expect("games") < 12,
        "{midway:?}"
    );

    // The test of run `name` resumed to its end.
    let resume = |name: &str| {
        let mut resumed = args(name);
        resumed.push("--resume".to_string());
        let output = Command::new(RAFLE)
            .args(&resumed)
            .output()
            .expect("rafle runs");
        assert!(output.status.success(), "{output:?}");
        output
    };
    // The same test on a machine that lost its state file but has the log line (committed).
    std::fs::create_dir_all(dir.join("lost")).expect("run directory");
    std::fs::copy(dir.join("split/tests.tsv"), dir.join("lost/tests.tsv")).expect("log copied");
    let restored = resume("lost");
    let counted: usize = midway[7].parse().expect("games");
    assert_eq!(
        String::from_utf8_lossy(&restored.stdout).contains(&format!(
            "restored: the state file lacks games 1 to {counted}"
        )),
        counted > 0,
        "{restored:?}"
    );

    resume("split");
    let (whole_line, split_line) = (log("whole"), log("split"));
    assert_eq!(whole_line[2], "undecided");
    assert_eq!(whole_line[7], "12");
    // Everything but the date (a run across midnight) is the same.
    assert_eq!(whole_line[2..], split_line[2..]);
    assert_eq!(split_line[12], "tools/sprt cand base");
    assert_eq!(whole_line[2..], log("lost")[2..]);

    // The same games, whatever order they finished in.
    let games = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name).join("test.pdn")).expect("PDN");
        let mut games: Vec<String> = text
            .split("[Event ")
            .skip(1)
            .map(|game| {
                game.lines()
                    .filter(|line| !line.starts_with("[Date "))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect();
        games.sort();
        games
    };
    assert_eq!(games("whole"), games("split"));
}
