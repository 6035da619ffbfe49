//! `rafle hub`: the Hub protocol (version 2, as Scan 3.1 speaks it) on stdin/stdout.
//!
//! A thin translator between protocol lines and the engine API. stdout carries protocol lines
//! only; diagnostics go to stderr through `log`. Beyond Scan, no input makes the engine crash or
//! exit: malformed lines, bad values, `go` before `init` and illegal moves are answered with
//! `error message="..."` and the previous state is kept.
//!
//! Three threads: the input thread reads stdin lines (at most [`MAX_LINE_BYTES`] each) into a
//! bounded channel; the protocol loop handles them one after the other, in order; each search
//! runs on a thread of its own, which writes its `info` lines and its one `done`. The protocol
//! loop never waits for a search except to end it (`stop`, or a command that changes the state,
//! `go` included), which takes a few milliseconds, so `ping` and `stop` are answered at once
//! whatever came before them.

pub mod help;
pub mod protocol;
mod session;

use crate::eval::{DEFAULT_EVAL, EVAL_NAMES, Eval};
use crate::lines::{LineRead, excerpt};
use crate::player::Thinking;
use crate::player::options::{
    DEFAULT_BOOK_MARGIN, DEFAULT_BOOK_PLY, DEFAULT_EGDB_PIECES, DEFAULT_HASH_MB, DEFAULT_THREADS,
    MAX_BOOK_MARGIN, MAX_BOOK_PLY, MAX_EGDB_PIECES, MAX_LINES, MAX_THREADS,
};
use crate::player::skill::{MAX_SKILL, MIN_SKILL};
use crate::rules::Variant;
use crate::search::params::MAX_DEPTH;
use crate::search::{Clock, Limits, Mode};
use protocol::{Line, LineError};
use session::{Session, new_session};
use std::io::Write;
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Longest input line handled, in bytes; a longer one is drained and answered with one error.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// Lines read ahead of the protocol loop. The reader waits when this many are queued, so memory
/// stays bounded (at most this many lines of [`MAX_LINE_BYTES`]) however fast the GUI writes.
const QUEUED_LINES: usize = 16;
/// Largest time accepted in `level`, in seconds (about 30 years).
const MAX_SECONDS: f64 = 1e9;
/// Range of Scan's `tt-size` parameter (log2 of 16-byte entries), accepted as an alias of `hash`.
const TT_SIZE_RANGE: std::ops::RangeInclusive<i64> = 16..=30;
/// Bytes per entry in Scan's `tt-size` convention.
const SCAN_ENTRY_BYTES: u64 = 16;
/// Time per move of `go think` and `go ponder` (after `ponder-hit`) when no `level` gave a limit:
/// Scan would search until `stop`, which a GUI that forgot `level` never sends.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// Characters of an error's `detail` at most (the detail quotes input only as an excerpt).
const MAX_DETAIL_CHARS: usize = 200;

/// What the input thread sends to the protocol loop.
enum Input {
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], of this many bytes, already drained.
    TooLong(usize),
    Eof,
}

/// The engine's stdout, shared by the protocol loop and the search thread; one line at a time.
pub(crate) struct Output {
    stdout: Mutex<std::io::Stdout>,
}

impl Output {
    pub(crate) fn line(&self, text: &str) {
        log::debug!("> {text}");
        let mut stdout = self.stdout.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout means the GUI is gone; the EOF on stdin will end the program.
        let _ = writeln!(stdout, "{text}");
        let _ = stdout.flush();
    }

    fn error(&self, message: &str, detail: Option<&str>) {
        let mut args = vec![("message", message.to_string())];
        if let Some(detail) = detail {
            args.push(("detail", crate::lines::excerpt_of(detail, MAX_DETAIL_CHARS)));
        }
        self.line(&protocol::format("error", &args));
    }
}

/// Engine parameters, as set by `set-param`.
#[derive(Clone, Debug)]
pub(crate) struct Params {
    pub variant: Variant,
    pub threads: usize,
    pub hash_mb: usize,
    pub ponder: bool,
    pub book: bool,
    pub book_ply: u32,
    pub book_margin: i32,
    /// Book file; empty for the variant's default (see [`crate::book::default_path`]).
    pub book_file: String,
    /// Evaluation name (`eval`) and weights file (`eval-file`, empty for the embedded weights).
    pub eval_name: String,
    pub eval_file: String,
    /// The evaluation they select (kept when a new value fails to load).
    pub eval: Eval,
    /// Endgame database directory; empty for none.
    pub egdb_path: String,
    /// Most pieces of the endgame tables to load.
    pub egdb_pieces: u32,
    /// Strength level (see [`crate::player::skill`]).
    pub skill: u32,
    /// Lines of `go analyze` (multi-PV); `info` then says which line it is of.
    pub multi_pv: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            variant: Variant::International,
            threads: DEFAULT_THREADS,
            hash_mb: DEFAULT_HASH_MB,
            ponder: false,
            book: true,
            book_ply: DEFAULT_BOOK_PLY,
            book_margin: DEFAULT_BOOK_MARGIN,
            book_file: String::new(),
            eval_name: DEFAULT_EVAL.to_string(),
            eval_file: String::new(),
            eval: Eval::default_eval(),
            egdb_path: String::new(),
            egdb_pieces: DEFAULT_EGDB_PIECES,
            skill: MAX_SKILL,
            multi_pv: 1,
        }
    }
}

/// A protocol error: Scan's message text and, beyond Scan, what exactly was wrong.
#[derive(Debug)]
pub(crate) struct HubError {
    pub message: &'static str,
    pub detail: String,
}

impl HubError {
    pub(crate) fn new(message: &'static str, detail: impl Into<String>) -> Self {
        HubError {
            message,
            detail: detail.into(),
        }
    }
}

struct Hub {
    out: Arc<Output>,
    input: Receiver<Input>,
    params: Params,
    /// Parameters changed since the session was built (variant or hash need a new session).
    rebuild: bool,
    session: Option<Box<dyn Session>>,
    /// The table size of the current session, in MiB.
    session_hash_mb: usize,
    limits: Limits,
    /// The search started by the last `go`, until it is joined (it may have ended already).
    search: Option<Thinking>,
}

/// Runs the Hub protocol until `quit` or the end of stdin.
pub fn run() -> ExitCode {
    let (sender, input) = sync_channel(QUEUED_LINES);
    std::thread::Builder::new()
        .name("hub-input".to_string())
        .spawn(move || read_input(&sender))
        .expect("the input thread can be started");
    let mut hub = Hub {
        out: Arc::new(Output {
            stdout: Mutex::new(std::io::stdout()),
        }),
        input,
        params: Params::default(),
        rebuild: true,
        session: None,
        session_hash_mb: DEFAULT_HASH_MB,
        limits: Limits::default(),
        search: None,
    };
    hub.run()
}

/// The input thread: stdin lines into the channel, then [`Input::Eof`].
fn read_input(sender: &SyncSender<Input>) {
    let stdin = std::io::stdin();
    let mut stdin = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        let input = match crate::lines::read_line(&mut stdin, &mut buffer, MAX_LINE_BYTES) {
            Ok((LineRead::Line(line), _)) => Input::Line(line),
            Ok((LineRead::TooLong(bytes), _)) => Input::TooLong(bytes),
            Ok((LineRead::Eof, _)) => break,
            Err(error) => {
                log::warn!("stdin: {error}");
                break;
            }
        };
        if sender.send(input).is_err() {
            return;
        }
    }
    let _ = sender.send(Input::Eof);
}

impl Hub {
    fn run(&mut self) -> ExitCode {
        loop {
            match self.input.recv().unwrap_or(Input::Eof) {
                // As Scan, the end of the input ends the program at once, during a search too.
                Input::Eof => return ExitCode::SUCCESS,
                Input::TooLong(bytes) => self.out.error(
                    "bad line",
                    Some(&format!(
                        "line of {bytes} bytes, longer than {MAX_LINE_BYTES}"
                    )),
                ),
                Input::Line(text) => {
                    if self.handle(&text).is_break() {
                        return ExitCode::SUCCESS;
                    }
                }
            }
        }
    }

    /// Stops the running search, if any, and waits for it: its `done` is written before this
    /// returns.
    fn end_search(&mut self) {
        if let Some(thinking) = self.search.take() {
            thinking.stop();
        }
    }

    fn handle(&mut self, text: &str) -> std::ops::ControlFlow<()> {
        log::debug!("< {}", excerpt(text));
        let line = match protocol::parse(text) {
            Ok(line) => line,
            Err(LineError::MissingCommand) => {
                self.out.error("missing command", None);
                return std::ops::ControlFlow::Continue(());
            }
            Err(error) => {
                self.out.error("bad line", Some(&error.to_string()));
                return std::ops::ControlFlow::Continue(());
            }
        };
        // Commands that change the engine's state end a running search first, as in Scan (its
        // `done` comes before their effect); the others leave it running.
        if matches!(
            line.command.as_str(),
            "set-param" | "init" | "new-game" | "pos" | "level" | "go"
        ) {
            self.end_search();
        }
        match line.command.as_str() {
            "hub" => self.announce(),
            "set-param" => {
                if let Err(error) = self.set_param(&line) {
                    self.out.error(error.message, Some(&error.detail));
                }
            }
            "init" => {
                self.session();
                self.out.line("ready");
            }
            "new-game" => self.session().new_game(),
            "pos" => {
                if let Err(error) = self.session().set_position(&line) {
                    self.out.error(error.message, Some(&error.detail));
                }
            }
            "level" => match parse_level(&line, self.limits) {
                Ok(limits) => self.limits = limits,
                Err(error) => self.out.error(error.message, Some(&error.detail)),
            },
            "go" => self.go(&line),
            "ping" => self.out.line("pong"),
            "stop" => self.end_search(),
            "ponder-hit" => {
                if let Some(thinking) = &self.search {
                    thinking.ponder_hit();
                }
            }
            "quit" => return std::ops::ControlFlow::Break(()),
            _ => self.out.error("bad command", Some(&excerpt(&line.command))),
        }
        std::ops::ControlFlow::Continue(())
    }

    fn announce(&self) {
        self.out.line(&protocol::format(
            "id",
            &[
                ("name", "Rafle".to_string()),
                ("version", env!("CARGO_PKG_VERSION").to_string()),
                ("author", "The Rafle developers".to_string()),
            ],
        ));
        let params = announced_params(&self.params);
        for param in &params {
            self.out.line(&protocol::format("param", param));
        }
        self.out.line("wait");
    }

    fn set_param(&mut self, line: &Line) -> Result<(), HubError> {
        let name = line
            .value("name")
            .ok_or_else(|| HubError::new("missing name", "set-param needs name=<parameter>"))?;
        let value = line.value("value").unwrap_or("");
        let bad = |expected: &str| {
            HubError::new(
                "bad value",
                format!("{}: '{}' is not {expected}", excerpt(name), excerpt(value)),
            )
        };
        let int = |range: std::ops::RangeInclusive<i64>| -> Result<i64, HubError> {
            value
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|v| range.contains(v))
                .ok_or_else(|| bad(&format!("an integer in {}..{}", range.start(), range.end())))
        };
        let boolean = || -> Result<bool, HubError> {
            match value.trim().to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok(true),
                "false" | "0" | "off" | "no" => Ok(false),
                _ => Err(bad("true or false")),
            }
        };
        match name {
            "variant" => {
                let variant =
                    Variant::from_name(value.trim()).ok_or_else(|| bad("a known variant"))?;
                if variant != self.params.variant {
                    self.params.variant = variant;
                    self.rebuild = true;
                }
            }
            "threads" => self.params.threads = int(1..=MAX_THREADS as i64)? as usize,
            "hash" => {
                self.params.hash_mb = int(1..=max_hash_mb())? as usize;
                self.rebuild = true;
            }
            "tt-size" => {
                let log2 = int(TT_SIZE_RANGE)?;
                let megabytes = ((1u64 << log2) * SCAN_ENTRY_BYTES) >> 20;
                if megabytes > max_hash_mb() as u64 {
                    return Err(bad(&format!(
                        "a table this machine can hold ({} MiB at most)",
                        max_hash_mb()
                    )));
                }
                self.params.hash_mb = megabytes as usize;
                self.rebuild = true;
            }
            "ponder" => self.params.ponder = boolean()?,
            "book" => self.params.book = boolean()?,
            "book-ply" => self.params.book_ply = int(0..=MAX_BOOK_PLY.into())? as u32,
            "book-margin" => self.params.book_margin = int(0..=MAX_BOOK_MARGIN.into())? as i32,
            "book-file" => self.params.book_file = value.trim().to_string(),
            "eval" | "eval-file" => {
                let (eval_name, eval_file) = if name == "eval" {
                    (value.trim().to_string(), self.params.eval_file.clone())
                } else {
                    (self.params.eval_name.clone(), value.trim().to_string())
                };
                let file = (!eval_file.is_empty()).then(|| std::path::Path::new(&eval_file));
                // On error the evaluation in use stays.
                self.params.eval = Eval::select(&eval_name, file)
                    .map_err(|e| HubError::new("bad value", format!("{name}: {e}")))?;
                self.params.eval_name = eval_name;
                self.params.eval_file = eval_file;
            }
            "egdb-path" => {
                self.params.egdb_path = value.trim().to_string();
                self.rebuild = true;
            }
            "egdb-pieces" => {
                self.params.egdb_pieces = int(0..=MAX_EGDB_PIECES.into())? as u32;
                self.rebuild = true;
            }
            "skill" => self.params.skill = int(MIN_SKILL.into()..=MAX_SKILL.into())? as u32,
            "multi-pv" => self.params.multi_pv = int(1..=MAX_LINES.into())? as u32,
            other => log::info!("set-param: unknown parameter '{}' ignored", excerpt(other)),
        }
        if let Some(session) = self.session.as_mut() {
            session.configure(&self.params);
        }
        Ok(())
    }

    /// The session for the current parameters, built on demand (so `go` before `init` works).
    /// A table size the system cannot give is reported, and the previous size is kept.
    fn session(&mut self) -> &mut dyn Session {
        if self.rebuild || self.session.is_none() {
            // The old table goes first: its memory may be what the new one needs.
            self.session = None;
            let session = match new_session(&self.params) {
                Ok(session) => session,
                Err(error) => {
                    let kept = self.session_hash_mb.min(self.params.hash_mb);
                    self.out.error(
                        "bad value",
                        Some(&format!("hash: {error}; keeping {kept} MiB")),
                    );
                    self.params.hash_mb = kept;
                    new_session(&self.params).unwrap_or_else(|error| {
                        log::warn!("hash: {error}; using a smaller table");
                        session::fallback_session(&self.params)
                    })
                }
            };
            self.session_hash_mb = self.params.hash_mb;
            self.session = Some(session);
            self.rebuild = false;
        }
        self.session
            .as_deref_mut()
            .expect("the session was just built")
    }

    fn go(&mut self, line: &Line) {
        let mode = if line.has("ponder") {
            Mode::Ponder
        } else if line.has("analyze") || line.has("analyse") {
            Mode::Analyze
        } else {
            Mode::Think
        };
        let mut limits = std::mem::take(&mut self.limits);
        if mode != Mode::Analyze && !has_limit(&limits) {
            limits.move_time = Some(DEFAULT_MOVE_TIME);
        }
        let out = Arc::clone(&self.out);
        if let Some(result) = self.session().result() {
            // No search and so no `done`: there is no move to give (pydraughts cannot read a
            // `done` without one).
            out.error("game over", Some(&result));
            return;
        }
        self.search = Some(self.session().start(limits, mode, out));
    }
}

/// Whether any limit would end a search without `stop` (or asks for none: `infinite`).
fn has_limit(limits: &Limits) -> bool {
    limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.move_time.is_some()
        || limits.clock.is_some()
        || limits.infinite
}

/// The parameters as the `param` lines announce them: name, type, current value and range.
/// `rafle hub --help` lists them too (with the defaults), from this one place.
pub(crate) fn announced_params(p: &Params) -> [Vec<(&'static str, String)>; 14] {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.hub_name()).collect();
    [
        vec![
            ("name", "variant".into()),
            ("value", p.variant.hub_name().into()),
            ("type", "enum".into()),
            ("values", names.join(" ")),
        ],
        vec![
            ("name", "book".into()),
            ("value", p.book.to_string()),
            ("type", "bool".into()),
        ],
        int_param("book-ply", p.book_ply.into(), 0..=MAX_BOOK_PLY.into()),
        int_param(
            "book-margin",
            p.book_margin.into(),
            0..=MAX_BOOK_MARGIN.into(),
        ),
        vec![
            ("name", "book-file".into()),
            ("value", p.book_file.clone()),
            ("type", "string".into()),
        ],
        vec![
            ("name", "ponder".into()),
            ("value", p.ponder.to_string()),
            ("type", "bool".into()),
        ],
        int_param("threads", p.threads as i64, 1..=MAX_THREADS as i64),
        int_param("hash", p.hash_mb as i64, 1..=max_hash_mb()),
        vec![
            ("name", "eval".into()),
            ("value", p.eval_name.clone()),
            ("type", "enum".into()),
            ("values", EVAL_NAMES.join(" ")),
        ],
        vec![
            ("name", "eval-file".into()),
            ("value", p.eval_file.clone()),
            ("type", "string".into()),
        ],
        vec![
            ("name", "egdb-path".into()),
            ("value", p.egdb_path.clone()),
            ("type", "string".into()),
        ],
        int_param(
            "egdb-pieces",
            p.egdb_pieces.into(),
            0..=MAX_EGDB_PIECES.into(),
        ),
        int_param("skill", p.skill.into(), MIN_SKILL.into()..=MAX_SKILL.into()),
        int_param("multi-pv", p.multi_pv.into(), 1..=MAX_LINES.into()),
    ]
}

/// The largest `hash` accepted, in MiB: what this machine can hold.
fn max_hash_mb() -> i64 {
    i64::try_from(crate::player::options::max_hash_mb()).unwrap_or(i64::MAX)
}

fn int_param(
    name: &str,
    value: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Vec<(&'static str, String)> {
    vec![
        ("name", name.to_string()),
        ("value", value.to_string()),
        ("type", "int".into()),
        ("min", range.start().to_string()),
        ("max", range.end().to_string()),
    ]
}

/// Reads a time in seconds, 0 to [`MAX_SECONDS`]. For `time` only, a negative value counts as
/// none left: clients such as pydraughts subtract the increment themselves and send a negative
/// clock when it runs low.
fn seconds(name: &str, value: &str) -> Result<Duration, HubError> {
    let bad = || {
        HubError::new(
            "bad value",
            format!(
                "{name}: '{}' is not a number of seconds in 0..{MAX_SECONDS}",
                excerpt(value)
            ),
        )
    };
    let seconds = value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s <= MAX_SECONDS)
        .ok_or_else(bad)?;
    match seconds {
        s if s >= 0.0 => Ok(Duration::from_secs_f64(s)),
        _ if name == "time" => Ok(Duration::ZERO),
        _ => Err(bad()),
    }
}

fn need<'v>(name: &str, value: Option<&'v str>) -> Result<&'v str, HubError> {
    value.ok_or_else(|| HubError::new("bad value", format!("{name} needs a value")))
}

/// Reads a whole number in `range`.
fn count<T>(name: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, HubError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    value
        .trim()
        .parse::<T>()
        .ok()
        .filter(|v| range.contains(v))
        .ok_or_else(|| {
            HubError::new(
                "bad value",
                format!(
                    "{name}: '{}' is not a whole number in {}..{}",
                    excerpt(value),
                    range.start(),
                    range.end()
                ),
            )
        })
}

/// Applies a `level` line to `limits` (all or nothing). Any of `moves`, `time`, `inc` switches
/// to clock management, with `time` 30 s when absent, as in Scan. Each number must be in its
/// range (`depth` 1..99, `nodes` from 1, `moves` from 0 = no limit, times 0..1e9 s): a value
/// out of range is an error, never wrapped or clamped.
fn parse_level(line: &Line, mut limits: Limits) -> Result<Limits, HubError> {
    const DEFAULT_CLOCK_SECONDS: u64 = 30;
    let max_depth = u32::try_from(MAX_DEPTH).unwrap_or(u32::MAX);
    for (name, value) in &line.args {
        let value = value.as_deref();
        match name.as_str() {
            "depth" => limits.depth = Some(count(name, need(name, value)?, 1..=max_depth)?),
            "nodes" => limits.nodes = Some(count(name, need(name, value)?, 1..=u64::MAX)?),
            "move-time" => limits.move_time = Some(seconds(name, need(name, value)?)?),
            "time" | "inc" | "moves" => {
                let clock = limits.clock.get_or_insert(Clock {
                    time: Duration::from_secs(DEFAULT_CLOCK_SECONDS),
                    ..Clock::default()
                });
                match name.as_str() {
                    "time" => clock.time = seconds(name, need(name, value)?)?,
                    "inc" => clock.increment = seconds(name, need(name, value)?)?,
                    _ => {
                        clock.moves_to_go = Some(count(name, need(name, value)?, 0..=u32::MAX)?);
                    }
                }
            }
            "infinite" => limits.infinite = true,
            "ponder" => {}
            other => log::info!("level: unknown argument '{}' ignored", excerpt(other)),
        }
    }
    if limits.clock.is_some() {
        // Clock management replaces a move time given with it (Scan).
        limits.move_time = None;
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(text: &str) -> Result<Limits, HubError> {
        parse_level(
            &protocol::parse(text).expect("valid line"),
            Limits::default(),
        )
    }

    #[test]
    fn level_arguments() {
        let limits = level("level depth=12 nodes=1000").expect("valid");
        assert_eq!(limits.depth, Some(12));
        assert_eq!(limits.nodes, Some(1000));
        let clock = level("level moves=40 inc=0.5")
            .expect("valid")
            .clock
            .expect("clock");
        assert_eq!(clock.time, Duration::from_secs(30));
        assert_eq!(clock.increment, Duration::from_millis(500));
        assert_eq!(clock.moves_to_go, Some(40));
        assert!(
            level("level move-time=1 time=10")
                .expect("valid")
                .move_time
                .is_none()
        );
        assert!(level("level infinite").expect("valid").infinite);
    }

    #[test]
    fn a_negative_clock_is_an_empty_clock() {
        let clock = level("level time=-0.03 inc=0.1")
            .expect("valid")
            .clock
            .expect("clock");
        assert_eq!(clock.time, Duration::ZERO);
    }

    #[test]
    fn bad_level_values_are_errors() {
        for text in [
            "level move-time=abc",
            "level depth=x",
            "level nodes=99999999999999999999999",
            "level time=nan",
            "level depth",
            "level depth=0",
            "level depth=100",
            "level depth=2147483648",
            "level depth=4294967296",
            "level nodes=0",
            "level moves=-1",
            "level moves=4294967296",
            "level move-time=-1",
            "level inc=-0.5",
            "level time=1e10",
        ] {
            assert!(level(text).is_err(), "{text}");
        }
    }
}
