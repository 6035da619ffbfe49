//! `rafle analyze --multipv N`: N distinct first moves, in score order, the single-line search's
//! move among them with its score; also with two threads, and with fewer legal moves than N (and
//! the output says why); the help says what the limit is for.

use std::process::Command;

const DEPTH: &str = "7";
/// Centi-men by which the multi-PV search may score the single-line best move differently.
const TOLERANCE: i64 = 10;
/// Positions with several reasonable moves: the start, an opening, a middle game.
const POSITIONS: [(&str, &str); 3] = [
    ("W:W31-50:B1-20", ""),
    ("W:W31-50:B1-20", "32-28 18-23 37-32 12-18"),
    (
        "W:W31-50:B1-20",
        "35-30 19-24 30x19 14x23 33-29 10-14 39-33 4-10",
    ),
];

fn analyze(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("rafle runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The final lines: (score in centi-men, first move).
fn lines(out: &str) -> Vec<(i64, String)> {
    out.lines()
        .filter(|line| {
            line.starts_with("line ") && line.contains("  pv ") && !line.contains("nodes")
        })
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let score = words[words.iter().position(|w| *w == "score").expect("score") + 1];
            let first = words[words.iter().position(|w| *w == "pv").expect("pv") + 1];
            let centi = (score.parse::<f64>().expect("an evaluation") * 100.0).round() as i64;
            (centi, first.to_string())
        })
        .collect()
}

fn best(out: &str) -> (i64, String) {
    let line = out
        .lines()
        .find(|line| line.starts_with("best move"))
        .expect("a best move");
    let words: Vec<&str> = line.split_whitespace().collect();
    let score: f64 = words[4].parse().expect("an evaluation");
    ((score * 100.0).round() as i64, words[2].to_string())
}

#[test]
fn distinct_moves_in_score_order_and_the_first_is_the_single_line() {
    for (fen, moves) in POSITIONS {
        for threads in ["1", "2"] {
            let multi = analyze(&[
                "--fen",
                fen,
                "--moves",
                moves,
                "--depth",
                DEPTH,
                "--multipv",
                "4",
                "--threads",
                threads,
            ]);
            let found = lines(&multi);
            assert_eq!(found.len(), 4, "{multi}");
            let mut firsts: Vec<&str> = found.iter().map(|(_, m)| m.as_str()).collect();
            firsts.sort_unstable();
            firsts.dedup();
            assert_eq!(firsts.len(), 4, "distinct first moves: {multi}");
            assert!(
                found.windows(2).all(|w| w[0].0 >= w[1].0),
                "score order: {multi}"
            );
            if threads == "1" {
                let single = analyze(&["--fen", fen, "--moves", moves, "--depth", DEPTH]);
                // Every depth searches the first line as the single-line search does, but with
                // the table and history the other lines filled at the depth before: the
                // single-line best move is among the lines with its score within a tolerance,
                // or (several moves tie, as from the start position) it scores no better than
                // the last line; and the best line scores no lower than it.
                let (score, mv) = best(&single);
                let last = found.last().expect("four lines").0;
                assert!(
                    found
                        .iter()
                        .any(|(s, m)| *m == mv && (s - score).abs() <= TOLERANCE)
                        || score <= last + TOLERANCE,
                    "{multi}\n{single}"
                );
                assert!(found[0].0 >= score - TOLERANCE, "{multi}\n{single}");
            }
        }
    }
}

#[test]
fn fewer_legal_moves_than_lines() {
    // Few moves: two men on the edge of White's back rows.
    let out = analyze(&["--fen", "W:W46,47:B5", "--depth", "4", "--multipv", "5"]);
    let found = lines(&out);
    let legal = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(["moves", "--fen", "W:W46,47:B5"])
        .output()
        .expect("rafle runs");
    let count = String::from_utf8_lossy(&legal.stdout).lines().count();
    assert!(
        count < 5,
        "the position has too many moves for this test: {count}"
    );
    assert_eq!(found.len(), count, "{out}");
    // The output says why there are fewer lines than asked.
    assert!(
        out.contains(&format!(
            "{count} legal moves in this position: {count} lines instead of 5"
        )),
        "{out}"
    );
}

#[test]
fn help_says_the_limit_is_for_the_whole_search() {
    let output = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(["analyze", "--help"])
        .output()
        .expect("rafle runs");
    let help = String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        help.contains(
            "The limit (--depth, --time or --nodes) is for the whole search, not for each line"
        ),
        "{help}"
    );
}
