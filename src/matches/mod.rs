//! `rafle match`: engine-against-engine matches and round-robin tournaments.
//!
//! * [`engine`]: the [`engine::Contestant`] trait the referee talks to, engine specifications and
//!   failures; [`hub_engine`]: Hub engines as processes; [`dxp_engine`]: DXP engines listening
//!   at an address.
//! * [`clock`]: time controls and clocks; [`referee`]: one game, every move checked by our rules
//!   core; [`record`]: the game record, the end of a game by the rules, and PDN.
//! * [`openings`]: opening sets (reading, generating); [`schedule`]: who plays whom with which
//!   opening and colour.
//! * [`stats`]: Elo, intervals, LOS, SPRT; [`report`]: results and their text.
//!
//! [`run`] plays a whole match: `concurrency` worker threads, each with its own engine processes,
//! take the scheduled games in order; the calling thread prints each finished game, appends it to
//! the PDN file, updates the progress bar and stops the match when the SPRT has decided.

pub mod clock;
pub mod dxp_engine;
pub mod engine;
pub mod hub_engine;
pub mod openings;
pub mod record;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod stats;
pub mod test_log;

use crate::rules::{Rules, Variant};
use dxp_engine::{DxpEngine, dxp_minutes};
use engine::{Contestant, EngineSpec, Protocol};
use hub_engine::{HubEngine, Timeouts};
use indicatif::{ProgressBar, ProgressStyle};
use openings::Opening;
use record::GameTags;
use referee::{Decision, GameConditions};
use report::{FinishedGame, Results};
use schedule::Pairing;
use stats::Sprt;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use test_log::{Entry, Status, TestLog};

/// An engine that crashes or cannot be started in this many games in a row stops the match: it
/// is broken or misconfigured, and the other games would only be forfeits.
const MAX_FAILURES_IN_ROW: usize = 3;

/// Everything a match needs besides its openings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (two for a match, more for a round robin).
    pub engines: Vec<EngineSpec>,
    /// Clock, margin, adjudication.
    pub conditions: GameConditions,
    /// How often the whole schedule is played.
    pub rounds: usize,
    /// Play only the first this many games of the schedule.
    pub max_games: Option<usize>,
    /// Games played at once.
    pub concurrency: usize,
    /// PDN file each finished game is appended to.
    pub pdn: Option<PathBuf>,
    /// Continue the match recorded in the PDN file.
    pub resume: bool,
    /// Stop when this test has decided (two engines only).
    pub sprt: Option<Sprt>,
    /// Keep this test's line in a test log up to date (two engines, with a PDN file).
    pub test_log: Option<TestLog>,
    /// Directory of the engines' stderr logs.
    pub log_dir: PathBuf,
    /// The PDN `Event` tag.
    pub event: String,
    /// The rules played.
    pub variant: Variant,
    /// Timeouts of the engine handshake and control messages.
    pub timeouts: Timeouts,
    /// Show a progress bar (when stderr is a terminal).
    pub progress: bool,
}

/// A game finished by a worker.
struct Finished {
    pairing: Pairing,
    end: Decision,
    plies: usize,
    label: String,
    pdn: String,
}

/// The log file of engine `index` in worker `worker`.
fn log_path(config: &MatchConfig, index: usize, worker: usize) -> PathBuf {
    let spec = &config.engines[index];
    let name = spec.name.clone().unwrap_or_else(|| spec.program_name());
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    config
        .log_dir
        .join(format!("e{}-{slug}.{}.log", index + 1, worker + 1))
}

fn new_player(
    config: &MatchConfig,
    index: usize,
    worker: usize,
    name: &str,
) -> Box<dyn Contestant> {
    let spec = &config.engines[index];
    match spec.dxp_address() {
        Some(address) => Box::new(DxpEngine::new(
            address,
            name.to_string(),
            dxp_minutes(config.conditions.control),
        )),
        None => {
            let variant = (config.variant != Variant::International)
                .then(|| config.variant.hub_name().to_string());
            let mut engine = HubEngine::new(
                spec.clone(),
                variant,
                log_path(config, index, worker),
                config.timeouts,
            );
            engine.set_name(name.to_string());
            Box::new(engine)
        }
    }
}

/// One instance of every engine, in engine order.
type Players = Vec<Box<dyn Contestant>>;

/// Starts one instance of every Hub engine to check that it works and to learn its name (a DXP
/// engine's address is only resolved: a DXP engine may serve one connection only); gives the
/// players (for the first worker) and their names, made unique.
fn start_engines(config: &MatchConfig) -> Result<(Players, Vec<String>), String> {
    let dxp = config.engines.iter().any(|s| s.protocol == Protocol::Dxp);
    if dxp && config.variant != Variant::International {
        return Err("DXP is defined for international draughts only".to_string());
    }
    if dxp && config.concurrency > 1 {
        return Err("a DXP engine plays one game at a time: use --concurrency 1".to_string());
    }
    let mut players = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (index, spec) in config.engines.iter().enumerate() {
        let (mut player, mut name): (Box<dyn Contestant>, String) = match spec.dxp_address() {
            Some(address) => {
                crate::dxp::resolve(address)
                    .map_err(|error| format!("engine {}: {error}", index + 1))?;
                let name = spec
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("dxp:{address}"));
                (new_player(config, index, 0, &name), name)
            }
            None => {
                let provisional = spec.name.clone().unwrap_or_else(|| spec.program_name());
                let variant = (config.variant != Variant::International)
                    .then(|| config.variant.hub_name().to_string());
                let mut engine = HubEngine::new(
                    spec.clone(),
                    variant,
                    log_path(config, index, 0),
                    config.timeouts,
                );
                engine.start().map_err(|failure| {
                    format!(
                        "engine {} ({}) {failure}; its stderr is in {}",
                        index + 1,
                        spec.command.join(" "),
                        log_path(config, index, 0).display()
                    )
                })?;
                let name = spec
                    .name
                    .clone()
                    .or_else(|| engine.id_name().map(str::to_string))
                    .unwrap_or(provisional);
                (Box::new(engine), name)
            }
        };
        if names.contains(&name) {
            let base = name.clone();
            let mut k = 2;
            while names.contains(&name) {
                name = format!("{base}-{k}");
                k += 1;
            }
        }
        player.set_name(name.clone());
        names.push(name);
        players.push(player);
    }
    Ok((players, names))
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an engine does not play itself");
    if a < b {
        let (left, right) = items.split_at_mut(b);
        (&mut left[a], &mut right[0])
    } else {
        let (left, right) = items.split_at_mut(a);
        (&mut right[0], &mut left[b])
    }
}

/// Today's date in UTC as PDN writes it (`YYYY.MM.DD`).
fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The games already finished in the PDN file, checked against the schedule.
fn resumed_games<R: Rules>(
    config: &MatchConfig,
    schedule: &[Pairing],
    names: &[String],
) -> Result<Vec<FinishedGame>, String> {
    let Some(path) = &config.pdn else {
        return Err("--resume needs --pdn FILE".to_string());
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(format!("{}: {error}", path.display())),
    };
    let mut done: HashMap<usize, FinishedGame> = HashMap::new();
    for past in record::read_past_games::<R>(&text) {
        let Some(pairing) = schedule.iter().find(|p| p.number == past.round) else {
            return Err(format!(
                "{}: game {} is not part of this match's {} games",
                path.display(),
                past.round,
                schedule.len()
            ));
        };
        let (white, black) = (&names[pairing.white], &names[pairing.black]);
        if past.white != *white || past.black != *black {
            return Err(format!(
                "{}: game {} was {} - {}, but this match schedules {white} - {black} (same engines and order?)",
                path.display(),
                past.round,
                past.white,
                past.black
            ));
        }
        done.insert(
            past.round,
            FinishedGame {
                pairing: *pairing,
                result: past.result,
                keyword: None,
            },
        );
    }
    let mut outcomes: Vec<FinishedGame> = done.into_values().collect();
    outcomes.sort_by_key(|o| o.pairing.number);
    Ok(outcomes)
}

/// Appends a game to the PDN file and flushes it to the disk, so an interrupted match loses
/// nothing.
fn append_pdn(path: &PathBuf, text: &str) -> Result<(), String> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// What the worker threads share.
struct WorkerContext<'a, R: Rules> {
    config: &'a MatchConfig,
    openings: &'a [Opening<R>],
    /// The games still to play, in order.
    pending: &'a [Pairing],
    names: &'a [String],
    /// The PDN `Date` tag.
    date: String,
    /// Index in `pending` of the next game to start.
    next: AtomicUsize,
    /// Start no more games.
    stop: AtomicBool,
}

/// A worker: plays the next scheduled game with its own engines until no game is left or the
/// match is stopped, then ends its engines.
fn work<R: Rules>(shared: &WorkerContext<'_, R>, mut players: Players, sender: &Sender<Finished>) {
    while !shared.stop.load(Ordering::Relaxed) && !hub_engine::interrupted() {
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(&pairing) = shared.pending.get(index) else {
            break;
        };
        let config = shared.config;
        let opening = &shared.openings[pairing.opening];
        let (white, black) = two_mut(&mut players, pairing.white, pairing.black);
        let game = referee::play_game::<R>(
            white.as_mut(),
            black.as_mut(),
            opening,
            &config.conditions,
            pairing.number,
        );
        let pdn = match &config.pdn {
            Some(_) => {
                let tags = GameTags {
                    event: config.event.clone(),
                    date: shared.date.clone(),
                    round: pairing.number,
                    white: shared.names[pairing.white].clone(),
                    black: shared.names[pairing.black].clone(),
                    time_control: config.conditions.control_text(),
                    termination: game.end.to_string(),
                };
                record::pdn_text(&game.record, game.end.result, &tags)
            }
            None => String::new(),
        };
        let finished = Finished {
            pairing,
            // As the PDN's PlyCount: the opening's moves count too.
            plies: game.record.ply_count(),
            label: opening.label(),
            end: game.end,
            pdn,
        };
        if sender.send(finished).is_err() {
            break;
        }
    }
    for player in &mut players {
        player.shutdown();
    }
}

/// The progress bar (hidden when asked, or when stderr is not a terminal).
fn progress_bar(visible: bool, games: usize, done: usize) -> ProgressBar {
    let bar = if visible {
        ProgressBar::new(games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30.cyan/blue} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta}]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done as u64);
    bar
}

/// The line of a finished game: `Finished game 3/158 (a vs b, opening 2: 31-26 18-22): 2-0
/// {rules: black has no pieces left} 127 plies [a 2.5 - 0.5 b]`.
fn game_line<R: Rules>(
    done: &Finished,
    games: usize,
    names: &[String],
    results: &Results,
) -> String {
    let p = done.pairing;
    let score = if names.len() == 2 {
        format!(" [{}]", results.running_score())
    } else {
        String::new()
    };
    format!(
        "Finished game {}/{games} ({} vs {}, opening {}: {}): {} {{{}}} {} plies{score}",
        p.number,
        names[p.white],
        names[p.black],
        p.opening + 1,
        done.label,
        done.end.result.pdn_token::<R>(),
        done.end,
        done.plies,
    )
}

/// How long the games in progress may take to end after Ctrl-C (their Hub engines are killed at
/// once; a remote DXP engine is not) before the program ends without its summary.
const INTERRUPT_GRACE: std::time::Duration = std::time::Duration::from_secs(10);
/// How often the interrupt watcher looks.
const INTERRUPT_POLL: std::time::Duration = std::time::Duration::from_millis(50);
/// Exit status of a program ended by SIGINT (128 + 2), as shells report it.
const EXIT_INTERRUPTED: i32 = 130;

/// Stops the workers when Ctrl-C comes, and ends the program if the games in progress do not
/// end within [`INTERRUPT_GRACE`].
fn stop_on_interrupt<R: Rules>(shared: &WorkerContext<'_, R>, received_all: &AtomicBool) {
    while !received_all.load(Ordering::Relaxed) {
        if hub_engine::interrupted() {
            shared.stop.store(true, Ordering::Relaxed);
            let since = std::time::Instant::now();
            while !received_all.load(Ordering::Relaxed) {
                if since.elapsed() > INTERRUPT_GRACE {
                    println!("Interrupted; the games in progress did not end.");
                    println!("{}", resume_hint(shared.config));
                    std::process::exit(EXIT_INTERRUPTED);
                }
                std::thread::sleep(INTERRUPT_POLL);
            }
            return;
        }
        std::thread::sleep(INTERRUPT_POLL);
    }
}

/// The games a match is judged on: a sequential test's settled pairs up to its decision (see
/// `Results::sequential`), otherwise every game.
fn judged(config: &MatchConfig, results: &Results) -> Results {
    match &config.sprt {
        Some(sprt) => results.sequential(sprt),
        None => results.clone(),
    }
}

/// A test's identity in the test log: the name of its state file (`--pdn`).
fn test_id(config: &MatchConfig) -> String {
    config.pdn.as_ref().map_or_else(String::new, |pdn| {
        pdn.file_name().map_or_else(
            || pdn.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        )
    })
}

/// Writes the test's line in the test log, if the match keeps one: `settled` are the games the
/// test is judged on ([`judged`]), `finished` when no more games will be played.
fn write_test_log(
    config: &MatchConfig,
    settled: &Results,
    finished: bool,
    date: &str,
) -> Result<(), String> {
    let Some(log) = &config.test_log else {
        return Ok(());
    };
    let id = test_id(config);
    let status = Status::of(settled, config.sprt.as_ref(), finished);
    let entry = Entry::new(
        &id,
        &date.replace('.', "-"),
        status,
        &config.conditions.control_text(),
        settled,
        config.sprt.as_ref(),
        log,
    );
    test_log::record(&log.path, &entry)
}

/// What to do after an interrupt.
fn resume_hint(config: &MatchConfig) -> String {
    match &config.pdn {
        Some(path) => format!(
            "The finished games are in {}: run the same command with --resume to play the rest.",
            path.display()
        ),
        None => "No --pdn file was given, so this match cannot be resumed; with --pdn FILE, \
                 --resume plays only the missing games."
            .to_string(),
    }
}

/// Plays a match or round robin and prints its games and summary on stdout.
///
/// # Errors
/// A message when the configuration is unusable, an engine cannot be started at all, the PDN file
/// cannot be resumed or written.
pub fn run<R: Rules>(config: &MatchConfig, openings: &[Opening<R>]) -> Result<(), String> {
    if config.engines.len() < 2 {
        return Err("a match needs at least two engines (--engine ... --engine ...)".to_string());
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return Err("--sprt needs exactly two engines".to_string());
    }
    if config.test_log.is_some() && (config.engines.len() != 2 || config.pdn.is_none()) {
        return Err(
            "--test-log needs exactly two engines and --pdn (the test's state)".to_string(),
        );
    }
    if openings.is_empty() {
        return Err("no openings".to_string());
    }
    let mut schedule = schedule::round_robin(config.engines.len(), openings.len(), config.rounds);
    if let Some(limit) = config.max_games {
        schedule.truncate(limit);
    }
    if let Some(path) = &config.pdn {
        // Find an unwritable PDN file now, not after the first game.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("--pdn {}: {e}", path.display()))?;
    }
    hub_engine::kill_engines_on_interrupt();
    let (first_engines, names) = start_engines(config)?;
    let mut results = Results::new(names.clone());
    let mut finished = std::collections::HashSet::new();
    let mut restored = 0;
    if config.resume {
        let resumed = resumed_games::<R>(config, &schedule, &names)?;
        let lost = match (&config.test_log, &config.sprt) {
            (Some(log), Some(_)) => {
                test_log::restored(&log.path, &test_id(config), &schedule, &resumed)?
            }
            _ => Vec::new(),
        };
        restored = lost.len();
        for outcome in lost.into_iter().chain(resumed) {
            finished.insert(outcome.pairing.number);
            results.add(outcome);
        }
    } else if let Some(path) = &config.pdn
        && std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
    {
        log::warn!(
            "{} exists: the games are appended (use --resume to continue that match)",
            path.display()
        );
    }
    // A test decided before an interruption plays nothing more when resumed.
    let mut decided = config
        .sprt
        .as_ref()
        .is_some_and(|sprt| sprt.decide(results.sequential(sprt).llr(sprt)).is_some());
    let pending: Vec<Pairing> = schedule
        .iter()
        .filter(|p| !decided && !finished.contains(&p.number))
        .copied()
        .collect();
    println!(
        "{} games ({} engines, {} openings, {} round{}), time control {}, concurrency {}; engine logs in {}",
        schedule.len(),
        names.len(),
        openings.len(),
        config.rounds,
        if config.rounds == 1 { "" } else { "s" },
        config.conditions.control_text(),
        config.concurrency,
        config.log_dir.display()
    );
    if !finished.is_empty() {
        println!(
            "resumed: {} games already played, {} to play",
            finished.len(),
            pending.len()
        );
    }
    if restored > 0 {
        println!(
            "restored: the state file lacks games 1 to {restored}, so their counts come from the \
             test log's line (their moves are lost)"
        );
    }
    let bar = progress_bar(config.progress, schedule.len(), finished.len());
    bar.set_message(results.running_score());
    let shared = WorkerContext {
        config,
        openings,
        pending: &pending,
        names: &names,
        date: today(),
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let (sender, receiver) = channel::<Finished>();
    let mut first_engines = Some(first_engines);
    let mut failure: Option<String> = None;
    let mut failures_in_row = vec![0; names.len()];
    let received_all = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for worker in 0..config.concurrency.max(1) {
            let players: Players = match first_engines.take() {
                Some(players) => players,
                None => (0..names.len())
                    .map(|i| new_player(config, i, worker, &names[i]))
                    .collect(),
            };
            let (shared, sender) = (&shared, sender.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || work(shared, players, &sender));
            if let Err(error) = spawned {
                failure = Some(format!("cannot start a worker thread: {error}"));
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
        drop(sender);
        let received_all = &received_all;
        let watched = &shared;
        scope.spawn(move || stop_on_interrupt(watched, received_all));
        for done in receiver {
            if hub_engine::interrupted() {
                // Killed with its engines: the game is dropped and played again on --resume.
                shared.stop.store(true, Ordering::Relaxed);
                continue;
            }
            results.add(FinishedGame {
                pairing: done.pairing,
                result: done.end.result,
                keyword: Some(done.end.termination.keyword()),
            });
            if let Some(path) = &config.pdn
                && let Err(error) = append_pdn(path, &done.pdn)
            {
                failure = Some(format!("cannot write the PDN: {error}"));
                shared.stop.store(true, Ordering::Relaxed);
            }
            for engine in [done.pairing.white, done.pairing.black] {
                let failed = matches!(done.end.termination.keyword(), "crash" | "start")
                    && done.end.culprit.as_deref() == Some(names[engine].as_str());
                failures_in_row[engine] = if failed {
                    failures_in_row[engine] + 1
                } else {
                    0
                };
                if failures_in_row[engine] == MAX_FAILURES_IN_ROW {
                    failure = Some(format!(
                        "{} failed {MAX_FAILURES_IN_ROW} games in a row ({}); the match is stopped",
                        names[engine], done.end
                    ));
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
            let line = game_line::<R>(&done, schedule.len(), &names, &results);
            bar.suspend(|| println!("{line}"));
            bar.inc(1);
            bar.set_message(results.running_score());
            // Judged once per game, for the SPRT and the test log.
            let settled = judged(config, &results);
            if let Some(sprt) = &config.sprt
                && !decided
                && sprt.decide(settled.llr(sprt)).is_some()
            {
                decided = true;
                shared.stop.store(true, Ordering::Relaxed);
                bar.suspend(|| println!("SPRT decided: no more games are started"));
            }
            if let Err(error) = write_test_log(config, &settled, decided, &shared.date) {
                bar.suspend(|| log::warn!("{error}"));
            }
        }
        received_all.store(true, Ordering::Relaxed);
    });
    bar.finish_and_clear();
    // A sequential test is judged on its settled pairs up to its decision (see `judged`).
    let counted = judged(config, &results);
    if config.sprt.is_some() && counted.games() < results.games() {
        println!(
            "The test counts {} games, the pairs in schedule order up to the first unfinished one \
             or to the SPRT's decision; {} later games are in the PDN file only",
            counted.games(),
            results.games() - counted.games()
        );
    }
    let stopped = hub_engine::interrupted() || failure.is_some();
    if let Err(error) = write_test_log(config, &counted, decided || !stopped, &shared.date) {
        log::warn!("{error}");
    }
    if hub_engine::interrupted() {
        let played = results.games();
        println!(
            "Interrupted: {played} of {} games played (the games in progress are dropped)",
            schedule.len()
        );
        print!("{}", counted.summary(config.sprt.as_ref()));
        println!("{}", resume_hint(config));
        return Err("interrupted".to_string());
    }
    print!("{}", counted.summary(config.sprt.as_ref()));
    match failure {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn two_distinct_elements() {
        let mut items = [1, 2, 3];
        let (a, b) = two_mut(&mut items, 2, 0);
        std::mem::swap(a, b);
        assert_eq!(items, [3, 2, 1]);
    }
}
