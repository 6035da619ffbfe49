//! The strength lab's log of tests (`rafle match --test-log tools/tests.tsv`): one line per
//! test, kept up to date while the test runs, so that the log always says where every test
//! stands, and what a finished test found is committed with the code (see README, "Testing
//! strength").
//!
//! The file is tab-separated with a header line; a test is identified by its state file (the
//! match's `--pdn`), and writing a test's line replaces its previous line (`running` becomes
//! `passed`, `failed` or `undecided`). Other lines are kept as they are, comments included.

use super::report::{self, FinishedGame, Results};
use super::schedule::Pairing;
use super::stats::{Sprt, SprtDecision};
use crate::core::Color;
use crate::game::GameResult;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The columns of the log, in order.
pub const COLUMNS: [&str; 13] = [
    "id",
    "date",
    "status",
    "candidate",
    "base",
    "change",
    "control",
    "games",
    "w-d-l",
    "pairs",
    "elo",
    "llr",
    "command",
];

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Games are still to be played (or the test was stopped before it decided).
    Running,
    /// The SPRT accepted H1: the candidate is stronger by the test's bounds.
    Passed,
    /// The SPRT accepted H0.
    Failed,
    /// Every scheduled game was played without a decision (or the test had no SPRT).
    Undecided,
}

impl Status {
    /// The word in the log.
    pub fn word(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Undecided => "undecided",
        }
    }

    /// The status of a test whose games so far are `results` (settled pairs), `finished` when no
    /// game is left to play.
    pub fn of(results: &Results, sprt: Option<&Sprt>, finished: bool) -> Status {
        match sprt.and_then(|sprt| sprt.decide(results.llr(sprt))) {
            Some(SprtDecision::H1) => Status::Passed,
            Some(SprtDecision::H0) => Status::Failed,
            None if finished => Status::Undecided,
            None => Status::Running,
        }
    }
}

/// What the log says of one test besides its results.
#[derive(Clone, Debug)]
pub struct TestLog {
    /// The log file.
    pub path: PathBuf,
    /// What the candidate changes, in one line.
    pub note: String,
    /// The command that starts or resumes the test.
    pub command: String,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The test's state file (its identity).
    pub id: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Where the test stands.
    pub status: String,
    /// The first engine.
    pub candidate: String,
    /// The second engine.
    pub base: String,
    /// What changed.
    pub change: String,
    /// The time control.
    pub control: String,
    /// Games counted (the settled pairs').
    pub games: usize,
    /// The candidate's wins, draws and losses: `12-130-10`.
    pub wdl: String,
    /// Pairs by the candidate's points 0, ½, 1, 1½, 2: `0 13 52 14 0`.
    pub pairs: String,
    /// `+2.2 [-20.2, +24.6]`.
    pub elo: String,
    /// `1.23 [-2.94, 2.94]`, empty without an SPRT.
    pub llr: String,
    /// How to start or resume it.
    pub command: String,
}

/// A field as the log can hold it: tabs and line breaks become spaces.
fn field(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

impl Entry {
    /// The line of a test (`results`: its settled pairs, two engines: candidate first).
    pub fn new(
        id: &str,
        date: &str,
        status: Status,
        control: &str,
        results: &Results,
        sprt: Option<&Sprt>,
        log: &TestLog,
    ) -> Entry {
        let names = results.names();
        let tally = results.tally(0, Some(1));
        let pairs = results.pentanomial(0, 1);
        let elo = results.elo(0, 1).map_or(String::new(), |(elo, _)| {
            format!(
                "{} [{}, {}]",
                signed(elo.elo),
                signed(elo.lower),
                signed(elo.upper)
            )
        });
        let llr = sprt.map_or(String::new(), |sprt| {
            let (lower, upper) = sprt.bounds();
            format!(
                "{:.2} [{lower:.2}, {upper:.2}] elo0={} elo1={}",
                results.llr(sprt),
                sprt.elo0,
                sprt.elo1
            )
        });
        Entry {
            id: field(id),
            date: field(date),
            status: status.word().to_string(),
            candidate: field(&names[0]),
            base: field(&names[1]),
            change: field(&log.note),
            control: field(control),
            games: tally.games() as usize,
            wdl: format!("{}-{}-{}", tally.wins, tally.draws, tally.losses),
            pairs: pairs
                .counts
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            elo,
            llr,
            command: field(&log.command),
        }
    }

    /// The tab-separated line (no line break).
    pub fn line(&self) -> String {
        [
            self.id.as_str(),
            &self.date,
            &self.status,
            &self.candidate,
            &self.base,
            &self.change,
            &self.control,
            &self.games.to_string(),
            &self.wdl,
            &self.pairs,
            &self.elo,
            &self.llr,
            &self.command,
        ]
        .join("\t")
    }

    /// Reads a line written by [`Entry::line`] (`None`: a header, comment or foreign line).
    pub fn parse(line: &str) -> Option<Entry> {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != COLUMNS.len() || fields[0] == COLUMNS[0] || line.starts_with('#') {
            return None;
        }
        Some(Entry {
            id: fields[0].to_string(),
            date: fields[1].to_string(),
            status: fields[2].to_string(),
            candidate: fields[3].to_string(),
            base: fields[4].to_string(),
            change: fields[5].to_string(),
            control: fields[6].to_string(),
            games: fields[7].parse().ok()?,
            wdl: fields[8].to_string(),
            pairs: fields[9].to_string(),
            elo: fields[10].to_string(),
            llr: fields[11].to_string(),
            command: fields[12].to_string(),
        })
    }
}

/// Elo with its sign, one decimal (unbounded as the summary writes it).
fn signed(elo: f64) -> String {
    if elo.is_finite() {
        format!("{elo:+.1}")
    } else {
        report::elo_text(elo)
    }
}

/// Writes `entry` into the log at `path`: replaces the line of the same test, or appends it (with
/// the header when the file is new). The file is replaced whole (written beside it, then
/// renamed), so a reader or a kill never sees half a line; and under an exclusive lock on a file
/// beside it (`tests.tsv.lock`), because the lab runs fixed-node tests side by side and two
/// matches rewriting the log at once would drop each other's lines.
///
/// # Errors
/// A message naming the file when it cannot be read or written.
pub fn record(path: &Path, entry: &Entry) -> Result<(), String> {
    let failed = |error: std::io::Error| format!("test log {}: {error}", path.display());
    let lock = std::fs::File::create(beside(path, ".lock")).map_err(failed)?;
    // The lock is released when `lock` is dropped (or the process dies), whatever happens here.
    lock.lock().map_err(failed)?;
    let old = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(failed(error)),
    };
    let mut text = String::new();
    if old.trim().is_empty() {
        let _ = writeln!(text, "{}", COLUMNS.join("\t"));
    }
    let mut replaced = false;
    for line in old.lines() {
        match Entry::parse(line) {
            Some(previous) if previous.id == entry.id => {
                if !replaced {
                    let _ = writeln!(text, "{}", entry.line());
                    replaced = true;
                }
            }
            _ => {
                let _ = writeln!(text, "{line}");
            }
        }
    }
    if !replaced {
        let _ = writeln!(text, "{}", entry.line());
    }
    // Named by process as well: a writer of an older build takes no lock.
    let staging = beside(path, &format!(".writing.{}", std::process::id()));
    std::fs::write(&staging, text)
        .and_then(|()| std::fs::rename(&staging, path))
        .map_err(failed)
}

/// `path` with `suffix` added to its file name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The ending keyword of games whose counts were read back from the test log.
pub const RESTORED: &str = "restored";

/// The games of a sequential test that its state file (the PDN) lost, rebuilt from the test's
/// line in the log, so that a test outlives the machine it ran on: the committed line is its
/// checkpoint. `resumed` are the games the state file still holds.
///
/// The log counts the settled pairs `0..S` (pairs in schedule order up to the first unfinished
/// one), and the state file holds every game from some pair on. The pairs below both, `0..K` with
/// `K = min(S, first pair in the file)`, are rebuilt: the log's counts less those of the file's
/// pairs `K..S`. Only their counts are known (W/D/L and pairs by points, all that the test and
/// its summary read), so they are rebuilt as games of those results in schedule order, with the
/// ending [`RESTORED`]; their moves are gone. Nothing is rebuilt when the file starts at pair 0.
///
/// # Errors
/// When the log cannot be read, or its line disagrees with the state file or the schedule.
pub fn restored(
    log: &Path,
    id: &str,
    schedule: &[Pairing],
    resumed: &[FinishedGame],
) -> Result<Vec<FinishedGame>, String> {
    let text = match std::fs::read_to_string(log) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(format!("test log {}: {error}", log.display())),
    };
    let Some(entry) = text
        .lines()
        .filter_map(Entry::parse)
        .find(|entry| entry.id == id)
    else {
        return Ok(Vec::new());
    };
    let disagree = |why: &str| format!("test log {}, line {id}: {why}", log.display());
    let numbers = |text: &str, separator: char| -> Option<Vec<u64>> {
        text.split(separator)
            .map(|n| n.trim().parse().ok())
            .collect()
    };
    let (Some(wdl), Some(counts)) = (numbers(&entry.wdl, '-'), numbers(&entry.pairs, ' ')) else {
        return Err(disagree("unreadable w-d-l or pairs"));
    };
    let (Ok([wins, draws, losses]), Ok(mut counts)) =
        (<[u64; 3]>::try_from(wdl), <[u64; 5]>::try_from(counts))
    else {
        return Err(disagree("w-d-l needs three numbers and pairs five"));
    };
    let settled_pairs: u64 = counts.iter().sum();
    if wins + draws + losses != 2 * settled_pairs || entry.games as u64 != 2 * settled_pairs {
        return Err(disagree("its games are not whole pairs"));
    }
    let first_in_file = resumed.iter().map(|game| game.pairing.pair).min();
    let kept = first_in_file.map_or(settled_pairs, |pair| settled_pairs.min(pair as u64)) as usize;
    if kept == 0 {
        return Ok(Vec::new());
    }
    // The candidate (engine 0) first: its half-points in each game, by pair.
    let mut file_pairs: std::collections::BTreeMap<usize, Vec<u8>> = Default::default();
    for game in resumed {
        let candidate = if game.pairing.white == 0 {
            Color::White
        } else {
            Color::Black
        };
        let points = game.result.half_points(candidate);
        file_pairs
            .entry(game.pairing.pair)
            .or_default()
            .push(points);
    }
    let (mut wins, mut losses) = (wins, losses);
    for pair in kept..settled_pairs as usize {
        let Some(points) = file_pairs.get(&pair).filter(|points| points.len() == 2) else {
            return Err(disagree(&format!(
                "it counts pair {} (games {} and {}), which the state file does not hold whole",
                pair + 1,
                2 * pair + 1,
                2 * pair + 2
            )));
        };
        let bin = usize::from(points[0] + points[1]);
        let (Some(count), Some(w), Some(l)) = (
            counts[bin].checked_sub(1),
            wins.checked_sub(points.iter().filter(|&&p| p == 2).count() as u64),
            losses.checked_sub(points.iter().filter(|&&p| p == 0).count() as u64),
        ) else {
            return Err(disagree("its counts are fewer than the state file's games"));
        };
        (counts[bin], wins, losses) = (count, w, l);
    }
    // Pairs of 1 point are a draw each or a win and a loss: the wins say how many of which.
    let split = wins.checked_sub(counts[3] + 2 * counts[4]);
    let Some(win_loss) =
        split.filter(|&n| n <= counts[2] && losses == counts[1] + 2 * counts[0] + n)
    else {
        return Err(disagree("its w-d-l and pairs do not agree"));
    };
    let mut pair_points: Vec<[u8; 2]> = Vec::with_capacity(kept);
    for (bin, results) in [
        (0, [0, 0]),
        (1, [0, 1]),
        (2, [1, 1]),
        (3, [2, 1]),
        (4, [2, 2]),
    ] {
        let count = if bin == 2 {
            counts[2] - win_loss
        } else {
            counts[bin]
        };
        pair_points.extend(std::iter::repeat_n(results, count as usize));
    }
    pair_points.extend(std::iter::repeat_n([2, 0], win_loss as usize));
    let mut games = Vec::with_capacity(2 * kept);
    for (pair, points) in pair_points.iter().enumerate() {
        let pairings = schedule.iter().filter(|p| p.pair == pair);
        let mut count = 0;
        for (pairing, &points) in pairings.zip(points) {
            let candidate = if pairing.white == 0 {
                Color::White
            } else {
                Color::Black
            };
            let result = match points {
                2 => GameResult::win(candidate),
                0 => GameResult::win(!candidate),
                _ => GameResult::Draw,
            };
            games.push(FinishedGame {
                pairing: *pairing,
                result,
                keyword: Some(RESTORED),
            });
            count += 1;
        }
        if count != 2 {
            return Err(disagree("it counts more pairs than the schedule has"));
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::report::of_results;

    fn results(games: &[GameResult]) -> Results {
        of_results(["cand", "base"], games)
    }

    fn log(path: &Path) -> TestLog {
        TestLog {
            path: path.to_path_buf(),
            note: "futility\tpruning\nat depth 2".to_string(),
            command: "tools/sprt abc def".to_string(),
        }
    }

    /// A directory of this test process's own and the path of a log not yet written in it.
    fn fresh_log(name: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("tests.tsv");
        let _ = std::fs::remove_file(&path);
        (dir, path)
    }

    /// The lab's bounds.
    fn lab_sprt() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The line of test `a.pdn` at the lab's control after `games`, still running.
    fn running_entry(path: &Path, games: &[GameResult]) -> Entry {
        let sprt = lab_sprt();
        let played = results(games);
        Entry::new(
            "a.pdn",
            "2026-12-06",
            Status::of(&played, Some(&sprt), false),
            "nodes=20000~10",
            &played,
            Some(&sprt),
            &log(path),
        )
    }

    #[test]
    fn a_test_keeps_one_line_from_running_to_its_verdict() {
        let (dir, path) = fresh_log("rafle-test-log");
        let running = running_entry(&path, &[GameResult::WhiteWins, GameResult::Draw]);
        assert_eq!(running.status, "running");
        assert_eq!(running.change, "futility pruning at depth 2");
        assert_eq!((running.games, running.wdl.as_str()), (2, "1-1-0"));
        assert_eq!(running.pairs, "0 0 0 1 0");
        record(&path, &running).expect("written");
        let other = Entry {
            id: "b.pdn".to_string(),
            ..running.clone()
        };
        record(&path, &other).expect("written");
        let done = Entry {
            status: Status::Passed.word().to_string(),
            games: 4,
            ..running.clone()
        };
        record(&path, &done).expect("written");
        let text = std::fs::read_to_string(&path).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0], COLUMNS.join("\t"));
        assert_eq!(Entry::parse(lines[1]), Some(done));
        assert_eq!(Entry::parse(lines[2]), Some(other));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Two matches writing the log at once (fixed-node tests side by side) keep both lines.
    #[test]
    fn writers_side_by_side_keep_each_others_lines() {
        let (dir, path) = fresh_log("rafle-test-log-writers");
        let entry = running_entry(&path, &[GameResult::Draw, GameResult::Draw]);
        const WRITES: usize = 50;
        std::thread::scope(|scope| {
            for id in ["a.pdn", "b.pdn"] {
                let (path, entry) = (&path, &entry);
                scope.spawn(move || {
                    for games in 0..WRITES {
                        let mine = Entry {
                            id: id.to_string(),
                            games,
                            ..entry.clone()
                        };
                        record(path, &mine).expect("written");
                    }
                });
            }
        });
        let text = std::fs::read_to_string(&path).expect("read");
        let ids: Vec<String> = text
            .lines()
            .filter_map(Entry::parse)
            .map(|e| e.id)
            .collect();
        assert_eq!(ids.len(), 2, "{text}");
        assert!(ids.contains(&"a.pdn".to_string()) && ids.contains(&"b.pdn".to_string()));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A state file that lost its first pairs, or all of them, is made whole again from the log:
    /// the same W/D/L and pairs by points, whichever pair the file now starts at.
    #[test]
    fn lost_games_are_rebuilt_from_the_log_line() {
        let (dir, path) = fresh_log("rafle-restore");
        let sprt = lab_sprt();
        let (white, black, draw) = (
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        );
        // Ten pairs with every kind of result, the 1-point pairs both drawn and won-and-lost.
        let played = [
            white, black, draw, draw, white, white, black, draw, draw, white, black, black, white,
            draw, draw, draw, white, black, draw, black,
        ];
        let schedule = crate::matches::schedule::round_robin(2, played.len() / 2, 1);
        let games: Vec<FinishedGame> = schedule
            .iter()
            .zip(played)
            .map(|(pairing, result)| FinishedGame {
                pairing: *pairing,
                result,
                keyword: Some("rules"),
            })
            .collect();
        let line_of = |results: &Results| {
            Entry::new(
                "t.pdn",
                "2026-12-06",
                Status::Running,
                "nodes=20000~10",
                &results.settled(),
                Some(&sprt),
                &log(&path),
            )
        };
        let rebuilt_line = |file: &[FinishedGame]| {
            let rebuilt = restored(&path, "t.pdn", &schedule, file).expect("restored");
            assert!(rebuilt.iter().all(|game| game.keyword == Some(RESTORED)));
            let mut again = Results::new(vec!["cand".to_string(), "base".to_string()]);
            for game in rebuilt.iter().chain(file) {
                again.add(*game);
            }
            (rebuilt.len(), line_of(&again))
        };
        let entry = line_of(&results(&played));
        record(&path, &entry).expect("written");
        assert_eq!(restored(&path, "other.pdn", &schedule, &[]), Ok(Vec::new()));
        assert_eq!(restored(&path, "t.pdn", &schedule, &games), Ok(Vec::new()));
        // The file lost everything, then only its first 3 pairs.
        for lost in [20, 6] {
            let (rebuilt, line) = rebuilt_line(&games[lost..]);
            assert_eq!(rebuilt, lost);
            assert_eq!((&line.wdl, &line.pairs), (&entry.wdl, &entry.pairs));
        }
        // A test resumed from the log after 7 pairs, stopped with game 15 (pair 8's first) and
        // pair 9 finished, then its file lost again: pair 8 is played again, pair 9 kept.
        let early = line_of(&results(&played[..14]));
        record(&path, &early).expect("written");
        let file = [games[14], games[16], games[17]];
        let (rebuilt, line) = rebuilt_line(&file);
        assert_eq!(rebuilt, 14);
        assert_eq!((&line.wdl, &line.pairs), (&early.wdl, &early.pairs));
        record(&path, &entry).expect("written");
        // A log that counts more than the file holds after the first gap is refused.
        let torn: Vec<FinishedGame> = games[6..]
            .iter()
            .copied()
            .filter(|game| game.pairing.pair != 5)
            .collect();
        let refused = restored(&path, "t.pdn", &schedule, &torn).expect_err("refused");
        assert!(refused.contains("pair 6"), "{refused}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
