//! `rafle annotate`: a constructed game with a known blunder gets its marks (and the shot its `!`), pydraughts reads the
//! annotated PDN back, the HTML page renders in a real browser, `--resume` keeps the games
//! already searched, and on two games of our own every better move scores better than the move
//! played, endings are worded for people, the page gives the PDN's numbers with their signs, and
//! every move marked `?!`, `?` or `??` has its diagram.

mod common;

use common::{Scratch, browser};
use std::path::Path;
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

fn scratch(name: &str) -> Scratch {
    common::scratch("annotate", name)
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
    ignore = "needs pydraughts: python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts && touch build.rs"
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

/// Two games of our own (`rafle match`, Rafle at skill 6 against Rafle at full strength, 20000
/// nodes a move, from openings of our own), one won by each side: slips of every size, and
/// endings the review must word for people.
const SKILL_GAMES: &str = "skill_games.pdn";
/// A fast review and a slower one: the move played and the better move must compare at both.
const FAST_DEPTH: &str = "4";
const SLOW_DEPTH: &str = "6";

/// A PDN text on one line: comments are wrapped at spaces wherever the line length falls.
fn flat(pdn: &str) -> String {
    pdn.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The comments of a PDN text, in order.
fn comments(pdn: &str) -> Vec<String> {
    flat(pdn)
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(comment, _)| comment.to_string()))
        .collect()
}

/// A score as the review words it, as a number in the order of `rafle::score` (centi-men; a
/// faster win above a slower one, a slower loss above a faster one).
fn score_value(text: &str) -> i32 {
    use rafle::score::{KNOWN_WIN, WIN};
    let plies = || -> i32 {
        let (_, inner) = text.rsplit_once('(').expect("a distance in plies");
        inner
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("plies in {text:?}"))
    };
    match text {
        "won, the game is over" => WIN,
        "lost, the game is over" => -WIN,
        "drawn, the game is over" => 0,
        "win (endgame knowledge)" => KNOWN_WIN,
        "loss (endgame knowledge)" => -KNOWN_WIN,
        _ if text.starts_with("win ") => WIN - plies(),
        _ if text.starts_with("loss ") => -WIN + plies(),
        _ => {
            let men: f64 = text
                .parse()
                .unwrap_or_else(|_| panic!("a score in men: {text:?}"));
            (men * 100.0).round() as i32
        }
    }
}

/// What a move's comment says: the mover's score, and the better move with its score.
struct Said {
    played: String,
    better: Option<(String, String)>,
}

fn said(comment: &str) -> Said {
    let (_, words) = comment
        .split_once("White: ")
        .or_else(|| comment.split_once("Black: "))
        .unwrap_or_else(|| panic!("no mover in {comment:?}"));
    let end = [
        "; better ",
        ", the engine's choice",
        ", as good as ",
        ", inaccuracy (",
        ", mistake (",
        ", blunder (",
    ]
    .iter()
    .filter_map(|separator| words.find(separator))
    .min()
    .unwrap_or(words.len());
    let better = words.split_once("; better ").map(|(_, rest)| {
        let (mv, rest) = rest.split_once(" (").expect("the better move's score");
        let (score, _) = rest.split_once("): ").expect("the better line");
        (mv.to_string(), score.to_string())
    });
    Said {
        played: words[..end].to_string(),
        better,
    }
}

fn annotate_skill_games(depth: &str, dir: &Path, html: bool) -> (String, Option<String>) {
    let out = dir.join(format!("skill-{depth}.pdn"));
    let page = dir.join(format!("skill-{depth}.html"));
    let mut args = vec![
        path_text(&common::data_path(SKILL_GAMES)),
        "--depth".to_string(),
        depth.to_string(),
        "-o".to_string(),
        path_text(&out),
    ];
    if html {
        args.extend(["--html".to_string(), path_text(&page)]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, _, stderr) = annotate(&args);
    assert!(ok, "{stderr}");
    let pdn = std::fs::read_to_string(&out).expect("annotated PDN");
    let html = html.then(|| std::fs::read_to_string(&page).expect("page written"));
    (pdn, html)
}

/// The issue: "better X" where X scored no better than the move played, as the comment itself
/// printed them. Every "better" must now score more, by the margin for evaluations.
fn check_better_moves(depth: &str) {
    let dir = scratch(&format!("better-{depth}"));
    let (pdn, _) = annotate_skill_games(depth, &dir, false);
    let mut betters = 0;
    for comment in comments(&pdn) {
        let said = said(&comment);
        let played = score_value(&said.played);
        let Some((mv, score)) = said.better else {
            continue;
        };
        betters += 1;
        let better = score_value(&score);
        assert!(
            better > played,
            "depth {depth}: {mv} ({score}) is not better than the move played: {comment}"
        );
        if !rafle::score::is_decisive(better) && !rafle::score::is_decisive(played) {
            assert!(
                better - played >= rafle::annotate::BETTER_MARGIN,
                "depth {depth}: {mv} is better by less than the margin: {comment}"
            );
        }
    }
    assert!(betters > 0, "depth {depth}: no better move named in {pdn}");
    // Endings are worded for people: no "0 moves", and a game's last move says who won.
    assert!(
        !pdn.contains(" 0 moves") && !flat(&pdn).contains("(0 plies)"),
        "{pdn}"
    );
    let games: Vec<&str> = pdn.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 2);
    for game in games {
        let last = comments(game).pop().expect("a commented move");
        let said = said(&last);
        assert_eq!(said.played, "won, the game is over", "{last}");
    }
}

#[test]
fn a_better_move_scores_better_fast() {
    check_better_moves(FAST_DEPTH);
}

#[test]
fn a_better_move_scores_better_slower() {
    check_better_moves(SLOW_DEPTH);
}

/// Text of the page as written before HTML escaping.
fn unescape(text: &str) -> String {
    text.replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The signed numbers of the page's move list, in order.
fn page_evals(html: &str) -> Vec<String> {
    html.split("<span class=\"eval\">")
        .skip(1)
        .filter_map(|rest| rest.split_once("</span>").map(|(eval, _)| eval.to_string()))
        .collect()
}

#[test]
fn the_page_and_the_pdn_give_the_same_numbers_and_every_marked_move_a_diagram() {
    let dir = scratch("same-numbers");
    let (pdn, html) = annotate_skill_games(FAST_DEPTH, &dir, true);
    let html = html.expect("page");
    let tags: Vec<String> = comments(&pdn)
        .iter()
        .map(|comment| {
            let rest = comment.strip_prefix("[%eval ").expect("an eval first");
            rest.split_once(']').expect("a closed tag").0.to_string()
        })
        .collect();
    let evals = page_evals(&html);
    assert_eq!(evals.len(), tags.len());
    for (eval, tag) in evals.iter().zip(&tags) {
        // The tag is the form tools read, without a plus sign; people see it signed.
        let signed = match tag.chars().next() {
            Some('-' | '#') => tag.clone(),
            _ if tag == "0.00" => tag.clone(),
            _ => format!("+{tag}"),
        };
        assert_eq!(eval, &signed, "page {eval}, PDN {tag}");
    }
    // Each diagram's words are the PDN comment's: the score of the move and of the better one.
    let flat_pdn = flat(&pdn);
    let boxes: Vec<&str> = html.split("<div class=\"mistake\"").skip(1).collect();
    for diagram in &boxes {
        let words = diagram.split_once("<p>").expect("words").1;
        let better = words.split_once("Better <b>").expect("a better move").1;
        let (mv, rest) = better.split_once("</b> (").expect("its score");
        let score = unescape(rest.split_once("): ").expect("its line").0);
        assert!(
            flat_pdn.contains(&format!("better {mv} ({score}): ")),
            "better {mv} ({score}) is not in the PDN"
        );
    }
    // Every move marked ?!, ? or ?? gets a diagram, as the help says.
    let marked = moves_with_marks(&pdn)
        .iter()
        .filter(|word| word.ends_with('?') || word.ends_with("?!"))
        .count();
    let dubious = moves_with_marks(&pdn)
        .iter()
        .filter(|word| word.ends_with("?!"))
        .count();
    assert!(dubious > 0, "no ?! to check: {pdn}");
    assert_eq!(boxes.len(), marked, "{pdn}");
    let help = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(["annotate", "--help"])
        .output()
        .expect("rafle runs");
    let help = flat(&String::from_utf8_lossy(&help.stdout));
    assert!(
        help.contains("a diagram at every move marked ?!, ? or ?? with the better line"),
        "{help}"
    );
}
