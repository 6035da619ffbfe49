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
mod params;
pub mod protocol;
mod session;

use crate::line_input::{LineRead, excerpt};
use crate::player::Thinking;
use crate::player::options::{DEFAULT_HASH_MB, DEPTH_RANGE, NODES_RANGE};
use crate::search::{Clock, Limits, Mode};
use params::{Effect, Params};
use protocol::{HubMessage, HubMessageError};
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
            args.push((
                "detail",
                crate::line_input::excerpt_of(detail, MAX_DETAIL_CHARS),
            ));
        }
        self.line(&protocol::format("error", &args));
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
        let input = match crate::line_input::read_line(&mut stdin, &mut buffer, MAX_LINE_BYTES) {
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
            Err(HubMessageError::MissingCommand) => {
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
        for param in &params::announced(&self.params) {
            self.out.line(&protocol::format("param", param));
        }
        self.out.line("wait");
    }

    /// Sets one parameter and applies only what it changes (see [`params::Effect`]).
    fn set_param(&mut self, line: &HubMessage) -> Result<(), HubError> {
        let name = line
            .value("name")
            .ok_or_else(|| HubError::new("missing name", "set-param needs name=<parameter>"))?;
        let text = line.value("value").unwrap_or("");
        let Some(param) = params::find(name) else {
            log::info!("set-param: unknown parameter '{}' ignored", excerpt(name));
            return Ok(());
        };
        let value = param.read(text).map_err(|expected| {
            HubError::new(
                "bad value",
                format!("{name}: '{}' is not {expected}", excerpt(text)),
            )
        })?;
        let changed = (param.set)(&mut self.params, &value)
            .map_err(|why| HubError::new("bad value", format!("{name}: {why}")))?;
        match (changed, param.effect, self.session.as_mut()) {
            (false, _, _) => {}
            (true, Effect::Session, _) => self.rebuild = true,
            (true, effect, Some(session)) => session.apply(effect, &self.params),
            (true, _, None) => {}
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

    fn go(&mut self, line: &HubMessage) {
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
/// out of range is an error, never wrapped or clamped. `nodes-time=N` (Rafle's own, from 1) makes
/// the clock virtual: time passes as N nodes a millisecond (see [`Limits::nodes_per_ms`]), and
/// `done` then says how many nodes the move took (`nodes=`), for the referee to charge.
fn parse_level(line: &HubMessage, mut limits: Limits) -> Result<Limits, HubError> {
    const DEFAULT_CLOCK_SECONDS: u64 = 30;
    for (name, value) in &line.args {
        let value = value.as_deref();
        match name.as_str() {
            // In range, so it fits: the largest depth is small.
            "depth" => limits.depth = Some(count(name, need(name, value)?, DEPTH_RANGE)? as u32),
            "nodes" => limits.nodes = Some(count(name, need(name, value)?, NODES_RANGE)?),
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
            "nodes-time" => {
                limits.nodes_per_ms = Some(count(name, need(name, value)?, NODES_RANGE)?);
            }
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
        assert_eq!(
            level("level time=10 inc=0.1 nodes-time=500")
                .expect("valid")
                .nodes_per_ms,
            Some(500)
        );
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
            "level time=1 nodes-time=0",
            "level time=1 nodes-time=x",
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
