//! The command line as a user runs it.

mod common;

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

/// The subcommands that build an engine, each with the arguments it needs besides the engine's.
const ENGINE_COMMANDS: [(&[&str], &[&str]); 5] = [
    (&["analyze"], &[]),
    (&["annotate"], &["game.pdn"]),
    (&["dxp"], &["--listen"]),
    (&["serve"], &["--port", "0"]),
    (&["book", "build"], &["--out", "book.bin"]),
];

/// The engine options, as `--help` spells them.
const ENGINE_OPTIONS: [&str; 6] = [
    "-t, --threads <THREADS>",
    "--hash <HASH>",
    "--eval <EVAL>",
    "--eval-file <FILE>",
    "--egdb <DIR>",
    "--egdb-pieces <EGDB_PIECES>",
];

/// The help of `option` in `help` (a subcommand's `--help`), its words joined by single spaces:
/// the columns differ with the lengths of each subcommand's other options.
fn option_help(help: &str, option: &str) -> String {
    let mut lines = help
        .lines()
        .skip_while(|line| !line.trim().starts_with(option));
    let first = lines.next().unwrap_or_default();
    let rest = lines.take_while(|line| !line.trim_start().starts_with('-'));
    std::iter::once(first)
        .chain(rest)
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// An engine option out of its range is refused with the same message, naming the range, by every
/// subcommand that builds an engine: they share one group of arguments.
#[test]
fn every_engine_command_refuses_an_engine_option_out_of_range_alike() {
    for (option, value) in [("--threads", "0"), ("--hash", "0"), ("--egdb-pieces", "8")] {
        let mut messages = Vec::new();
        for (command, needed) in ENGINE_COMMANDS {
            let args = [command, needed, &[option, value]].concat();
            let output = rafle(&args);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
            let message = stderr.lines().next().unwrap_or_default().to_string();
            assert!(
                message.starts_with(&format!("error: invalid value '{value}' for '{option} ")),
                "{args:?}: {stderr}"
            );
            messages.push(message);
        }
        assert!(messages.iter().all(|m| *m == messages[0]), "{messages:#?}");
    }
    let threads = &rafle(&["analyze", "--threads", "0"]).stderr;
    assert!(
        String::from_utf8_lossy(threads).contains(&format!(
            "0 is not in 1..={}",
            rafle::player::options::MAX_THREADS
        )),
        "the range is the Hub's"
    );
}

/// Every subcommand that builds an engine lists the same engine options with the same help,
/// but for the differences each names: what `serve`'s and `book build`'s threads and tables are,
/// and their default table sizes.
#[test]
fn every_engine_command_lists_the_same_engine_options() {
    use rafle::book::build::DEFAULT_WORKER_HASH_MB;
    use rafle::serve::tab_game::TABLE_MB;
    let helps: Vec<String> = ENGINE_COMMANDS
        .iter()
        .map(|(command, _)| {
            let args = [command, &["--help"][..]].concat();
            let output = rafle(&args);
            assert!(output.status.success(), "{args:?}");
            String::from_utf8_lossy(&output.stdout).into_owned()
        })
        .collect();
    let standard = &helps[0];
    for option in ENGINE_OPTIONS {
        let expected = option_help(standard, option);
        assert!(expected.starts_with(option), "{option} in analyze --help");
        for ((command, _), help) in ENGINE_COMMANDS.iter().zip(&helps) {
            let shown = option_help(help, option);
            let own = matches!(command[0], "serve" | "book")
                && matches!(option, "-t, --threads <THREADS>" | "--hash <HASH>");
            if own {
                assert!(shown.starts_with(option), "{command:?}: {shown}");
            } else {
                assert_eq!(shown, expected, "{command:?}");
            }
        }
    }
    let (serve, book) = (&helps[3], &helps[4]);
    assert!(option_help(serve, "-t, --threads").contains("each tab's engine"));
    assert!(option_help(serve, "--hash").ends_with(&format!("[default: {TABLE_MB}]")));
    assert!(option_help(book, "-t, --threads").contains("Worker threads"));
    assert!(option_help(book, "--hash").ends_with(&format!("[default: {DEFAULT_WORKER_HASH_MB}]")));
}

/// `rafle openings` does not replace an existing file (its default path is the opening set
/// `rafle match` is built with) unless told to with `--force`, and says so before it scores.
#[test]
fn openings_keeps_an_existing_file_unless_forced() {
    let dir = common::scratch("cli", "openings");
    let file = dir.join("set.txt");
    std::fs::write(&file, "kept\n").expect("write");
    let path = file.display().to_string();
    let args = ["openings", "--plies", "1", "--depth", "1", "--out", &path];
    let refused = rafle(&args);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("exists; pass --force"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "kept\n");
    let forced = rafle(&[&args[..], &["--force"]].concat());
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    let written = std::fs::read_to_string(&file).expect("read");
    assert!(written.starts_with("# Rafle opening set"), "{written}");
}
