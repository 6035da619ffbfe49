//! `rafle annotate`: a constructed game with a known blunder gets its marks (and the shot its `!`), pydraughts reads the
//! annotated PDN back, the HTML page renders in a real browser, and `--resume` keeps the games
//! already searched.

mod common;

use common::browser;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Search depth per position: deep enough to see the shot, fast in the test profile.
const DEPTH: &str = "8";
/// Colours of the page (`src/annotate/html.rs`, `src/diagram/mod.rs`).
const EVAL_LINE: [u8; 3] = [0x2b, 0x57, 0x97];
const DARK_SQUARE: [u8; 3] = [0xa4, 0x70, 0x3f];
const TOLERANCE: u8 = 8;

/// 3. 28-23?? drops a man to the shot 19x37 (19x28x37, then 26x28 wins a second man).
const BLUNDER_GAME: &str = r#"[Event "Constructed"]
[White "blunderer"]
[Black "punisher"]
[Result "*"]
[GameType "20"]

1. 32-28 17-21 2. 37-32 21-26 3. 28-23 19x37 4. 41x32 26x28 5. 33x22 18x27 *
"#;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rafle-annotate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn annotate(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .arg("annotate")
        .args(args)
        .env("RUST_LOG", "info")
        .output()
        .expect("rafle runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The move words of a movetext, comments dropped, with their marks.
fn moves_with_marks(pdn: &str) -> Vec<String> {
    let movetext: String = pdn
        .lines()
        .filter(|line| !line.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut words = Vec::new();
    let mut depth = 0;
    let mut word = String::new();
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => word.push(c),
            _ if depth == 0 && !word.is_empty() => words.push(std::mem::take(&mut word)),
            _ => {}
        }
    }
    words.push(word);
    words
        .into_iter()
        .filter(|w| w.contains('-') || w.contains('x'))
        .filter(|w| !w.ends_with('.'))
        .collect()
}

#[test]
fn a_blunder_is_marked() {
    let dir = scratch("blunder");
    let game = dir.join("blunder.pdn");
    std::fs::write(&game, BLUNDER_GAME).expect("game written");
    let (ok, pdn, stderr) = annotate(&[&path_text(&game), "--depth", DEPTH]);
    assert!(ok, "{stderr}");
    let moves = moves_with_marks(&pdn);
    assert_eq!(moves.len(), 10, "{moves:?}");
    assert_eq!(moves[4], "28-23??", "{pdn}");
    // Comments are wrapped at spaces wherever the line length falls: read them as one line.
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    // Taking the shot is the only move that keeps the man won: every other capture gives it back.
    assert_eq!(moves[5], "19x37!", "{pdn}");
    assert!(flat.contains("the only move"), "{pdn}");
    for (ply, word) in moves.iter().enumerate() {
        if ply != 4 {
            assert!(!word.contains('?'), "ply {ply}: {word} in {pdn}");
        }
    }
    assert!(pdn.contains("[Annotator \"Rafle"), "{pdn}");
    assert_eq!(pdn.matches("[%eval ").count(), 10, "{pdn}");
    assert!(flat.contains("White: -3."), "{pdn}");
    assert!(flat.contains("blunder (lost "), "{pdn}");
    // Our own reader takes the annotated game back: the same moves and result.
    let read = rafle::notation::pdn::read_game::<rafle::rules::International>(&pdn)
        .expect("the annotated PDN reads");
    assert_eq!(read.game.ply_count(), 10);
    assert_eq!(read.result, rafle::notation::pdn::PdnResult::Unknown);
}

#[test]
#[cfg_attr(
    not(rafle_has_pydraughts),
    ignore = "needs pydraughts: python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts"
)]
fn pydraughts_reads_the_annotated_games() {
    let dir = scratch("pydraughts");
    let out = dir.join("review.pdn");
    let input = common::data_path("review.pdn");
    let (ok, _, stderr) = annotate(&[&path_text(&input), "--depth", "4", "-o", &path_text(&out)]);
    assert!(ok, "{stderr}");
    let python = common::python_with_pydraughts();
    // Each game must replay with pydraughts' own move generator and keep its result.
    let script = r#"
import sys
from draughts import Board, Move
from draughts.PDN import PDNReader
for game in PDNReader(filename=sys.argv[1]).games:
    board = Board("standard", game.tags.get("FEN", "startpos"))
    moves = list(game.moves)
    for text in moves:
        board.push(Move(board, pdn_move=text))
    print(len(moves), game.game_ending, game.tags["Result"])
"#;
    let output = Command::new(python)
        .args(["-c", script, &path_text(&out)])
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "pydraughts failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout.lines().collect::<Vec<_>>(), ["84 0-2 0-2", "10 * *"]);
}

#[test]
#[cfg_attr(
    not(rafle_has_chromium),
    ignore = "needs Chromium: apt-get install chromium chromium-driver"
)]
fn the_page_renders_in_a_browser() {
    let dir = scratch("page");
    let page = dir.join("review.html");
    let input = common::data_path("review.pdn");
    let (ok, _, stderr) = annotate(&[
        &path_text(&input),
        "--depth",
        "6",
        "-o",
        &path_text(&dir.join("review.pdn")),
        "--html",
        &path_text(&page),
    ]);
    assert!(ok, "{stderr}");
    let html = std::fs::read_to_string(&page).expect("page written");
    assert!(
        html.contains("28-23??"),
        "the constructed blunder is on the page"
    );
    let chromium = browser::chromium();
    let shot = browser::screenshot(&chromium, &page, &dir.join("review.png"), 1000, 1400);
    assert!(shot.colours() > 50, "the screenshot is blank");
    assert!(
        shot.count_near(EVAL_LINE, TOLERANCE) > 300,
        "the evaluation line"
    );
    assert!(
        shot.count_near(DARK_SQUARE, TOLERANCE) > 10_000,
        "a board diagram"
    );
    let dom = browser::dom(&chromium, &page, &dir);
    assert_eq!(
        dom.matches("class=\"eval-graph\"").count(),
        2,
        "a graph a game"
    );
    let mistakes = dom.matches("class=\"mistake\"").count();
    assert!(mistakes >= 2, "a diagram at every mistake: {mistakes}");
    assert_eq!(dom.matches("class=\"rafle-board\"").count(), mistakes);
    assert_eq!(dom.matches("class=\"arrow\"").count(), mistakes);
    assert!(dom.contains("class=\"eval-line\""));
}

#[test]
fn resume_keeps_the_games_already_searched() {
    let dir = scratch("resume");
    let out = dir.join("out.pdn");
    let input = common::data_path("review.pdn");
    let args = [
        path_text(&input),
        "--depth".to_string(),
        "4".to_string(),
        "-o".to_string(),
        path_text(&out),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, _, stderr) = annotate(&args);
    assert!(ok, "{stderr}");
    let full = std::fs::read_to_string(&out).expect("output");
    // An interrupt during the second game: the checkpoint ends inside its record.
    let progress = dir.join("out.pdn.progress");
    let checkpoint = std::fs::read_to_string(&progress).expect("checkpoint");
    let first_end = checkpoint.find("end\n").expect("a finished game") + "end\n".len();
    let cut = &checkpoint[..first_end + 40];
    std::fs::write(&progress, cut).expect("checkpoint cut");
    let mut resumed = args.clone();
    resumed.push("--resume");
    let (ok, _, stderr) = annotate(&resumed);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("resuming: 1 of 2 games already searched"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&out).expect("output"), full);
    let (ok, _, stderr) = annotate(&resumed);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("resuming: 2 of 2 games already searched"),
        "{stderr}"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch("bad");
    let bad = dir.join("bad.pdn");
    std::fs::write(&bad, "1. 32-28 19-23 2. 28-22 *\n").expect("written");
    let missing = dir.join("missing.pdn");
    for (args, expected) in [
        (vec![path_text(&missing)], "cannot read".to_string()),
        (vec![path_text(&bad)], "PDN game 1, line 1".to_string()),
        (
            vec![path_text(&bad), "--resume".to_string()],
            "--out".to_string(),
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, _, stderr) = annotate(&args);
        assert!(!ok, "{args:?}");
        assert!(stderr.contains(&expected), "{args:?}: {stderr}");
    }
}
