//! `rafle hub`: the Hub protocol (version 2, as Scan 3.1 speaks it) on stdin/stdout.
//!
//! A thin translator between protocol lines and the engine API. stdout carries protocol lines
//! only; diagnostics go to stderr through `log`. Beyond Scan, no input makes the engine crash or
//! exit: malformed lines, bad values, `go` before `init` and illegal moves are answered with
//! `error message="..."` and the previous state is kept.

pub mod protocol;
mod session;

use crate::rules::Variant;
use crate::search::{Clock, Limits, MAX_THREADS, Mode, SearchControl};
use protocol::{Line, LineError};
use session::{Session, new_session};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Largest transposition table accepted, in MiB.
const MAX_HASH_MB: usize = 1 << 16;
/// Largest time accepted in `level`, in seconds (about 30 years).
const MAX_SECONDS: f64 = 1e9;
/// Default transposition table size in MiB.
const DEFAULT_HASH_MB: usize = 64;
/// Book randomness defaults, as Scan ships them.
const DEFAULT_BOOK_PLY: i64 = 4;
const DEFAULT_BOOK_MARGIN: i64 = 4;
/// Range of Scan's `tt-size` parameter (log2 of 16-byte entries), accepted as an alias of `hash`.
const TT_SIZE_RANGE: std::ops::RangeInclusive<i64> = 16..=30;
/// Bytes per entry in Scan's `tt-size` convention.
const SCAN_ENTRY_BYTES: u64 = 16;

/// What the input thread and the search thread send to the protocol loop.
enum Input {
    Line(String),
    Eof,
    SearchDone,
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
            args.push(("detail", detail.to_string()));
        }
        self.line(&protocol::format("error", &args));
    }
}

/// Default of `egdb-pieces`: the tables a quick build gives (see the README).
const DEFAULT_EGDB_PIECES: i64 = 5;
/// Largest `egdb-pieces`.
const MAX_EGDB_PIECES: i64 = 7;

/// Engine parameters, as set by `set-param`.
#[derive(Clone, Debug)]
pub(crate) struct Params {
    pub variant: Variant,
    pub threads: usize,
    pub hash_mb: usize,
    pub ponder: bool,
    pub book: bool,
    pub book_ply: i64,
    pub book_margin: i64,
    /// Book file; empty for the variant's default (see [`crate::book::default_path`]).
    pub book_file: String,
    /// Endgame database directory; empty for none.
    pub egdb_path: String,
    /// Most pieces of the endgame tables to load.
    pub egdb_pieces: i64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            variant: Variant::International,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            ponder: false,
            book: true,
            book_ply: DEFAULT_BOOK_PLY,
            book_margin: DEFAULT_BOOK_MARGIN,
            book_file: String::new(),
            egdb_path: String::new(),
            egdb_pieces: DEFAULT_EGDB_PIECES,
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
    sender: Sender<Input>,
    pending: VecDeque<Input>,
    params: Params,
    /// Parameters changed since the session was built (variant or hash need a new session).
    rebuild: bool,
    session: Option<Box<dyn Session>>,
    limits: Limits,
}

/// Runs the Hub protocol until `quit` or the end of stdin.
pub fn run() -> ExitCode {
    let (sender, input) = channel();
    let reader = sender.clone();
    std::thread::Builder::new()
        .name("hub-input".to_string())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut stdin = stdin.lock();
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match stdin.read_until(b'\n', &mut bytes) {
                    Ok(0) => break,
                    Ok(_) => {
                        // Invalid UTF-8 is kept as replacement characters: a bad line, not EOF.
                        let line = String::from_utf8_lossy(&bytes);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if reader.send(Input::Line(line)).is_err() {
                            return;
                        }
                    }
                    Err(error) => {
                        log::warn!("stdin: {error}");
                        break;
                    }
                }
            }
            let _ = reader.send(Input::Eof);
        })
        .expect("the input thread can be started");
    let mut hub = Hub {
        out: Arc::new(Output {
            stdout: Mutex::new(std::io::stdout()),
        }),
        input,
        sender,
        pending: VecDeque::new(),
        params: Params::default(),
        rebuild: true,
        session: None,
        limits: Limits::default(),
    };
    hub.run()
}

impl Hub {
    fn next_input(&mut self) -> Input {
        self.pending
            .pop_front()
            .unwrap_or_else(|| self.input.recv().unwrap_or(Input::Eof))
    }

    fn run(&mut self) -> ExitCode {
        loop {
            match self.next_input() {
                Input::Eof => return ExitCode::SUCCESS,
                Input::SearchDone => {}
                Input::Line(text) => {
                    if self.handle(&text).is_break() {
                        return ExitCode::SUCCESS;
                    }
                }
            }
        }
    }

    fn handle(&mut self, text: &str) -> std::ops::ControlFlow<()> {
        log::debug!("< {text}");
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
                self.limits = Limits::default();
                if let Err(error) = self.session().set_position(&line) {
                    self.out.error(error.message, Some(&error.detail));
                }
            }
            "level" => match parse_level(&line, self.limits) {
                Ok(limits) => self.limits = limits,
                Err(error) => self.out.error(error.message, Some(&error.detail)),
            },
            "go" => return self.go(&line),
            "ping" => self.out.line("pong"),
            "stop" | "ponder-hit" => {}
            "quit" => return std::ops::ControlFlow::Break(()),
            _ => self.out.error("bad command", Some(&line.command)),
        }
        std::ops::ControlFlow::Continue(())
    }

    fn announce(&self) {
        let p = &self.params;
        self.out.line(&protocol::format(
            "id",
            &[
                ("name", "Rafle".to_string()),
                ("version", env!("CARGO_PKG_VERSION").to_string()),
                ("author", "The Rafle developers".to_string()),
            ],
        ));
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.hub_name()).collect();
        let params: [Vec<(&str, String)>; 10] = [
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
            int_param("book-ply", p.book_ply, 0, 20),
            int_param("book-margin", p.book_margin, 0, 100),
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
            int_param("threads", p.threads as i64, 1, MAX_THREADS as i64),
            int_param("hash", p.hash_mb as i64, 1, MAX_HASH_MB as i64),
            vec![
                ("name", "egdb-path".into()),
                ("value", p.egdb_path.clone()),
                ("type", "string".into()),
            ],
            int_param("egdb-pieces", p.egdb_pieces, 0, MAX_EGDB_PIECES),
        ];
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
            HubError::new("bad value", format!("{name}: '{value}' is not {expected}"))
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
                self.params.hash_mb = int(1..=MAX_HASH_MB as i64)? as usize;
                self.rebuild = true;
            }
            "tt-size" => {
                let log2 = int(TT_SIZE_RANGE)?;
                self.params.hash_mb = (((1u64 << log2) * SCAN_ENTRY_BYTES) >> 20) as usize;
                self.rebuild = true;
            }
            "ponder" => self.params.ponder = boolean()?,
            "book" => self.params.book = boolean()?,
            "book-ply" => self.params.book_ply = int(0..=20)?,
            "book-margin" => self.params.book_margin = int(0..=100)?,
            "book-file" => self.params.book_file = value.trim().to_string(),
            "egdb-path" => {
                self.params.egdb_path = value.trim().to_string();
                self.rebuild = true;
            }
            "egdb-pieces" => {
                self.params.egdb_pieces = int(0..=MAX_EGDB_PIECES)?;
                self.rebuild = true;
            }
            other => log::info!("set-param: unknown parameter '{other}' ignored"),
        }
        if let Some(session) = self.session.as_mut() {
            session.configure(&self.params);
        }
        Ok(())
    }

    /// The session for the current parameters, built on demand (so `go` before `init` works).
    fn session(&mut self) -> &mut dyn Session {
        if self.rebuild || self.session.is_none() {
            self.session = Some(new_session(&self.params));
            self.rebuild = false;
        }
        self.session
            .as_deref_mut()
            .expect("the session was just built")
    }

    fn go(&mut self, line: &Line) -> std::ops::ControlFlow<()> {
        let mode = if line.has("ponder") {
            Mode::Ponder
        } else if line.has("analyze") || line.has("analyse") {
            Mode::Analyze
        } else {
            Mode::Think
        };
        let limits = std::mem::take(&mut self.limits);
        let control = Arc::new(SearchControl::new());
        let out = Arc::clone(&self.out);
        let done = self.sender.clone();
        let search = self
            .session()
            .start(limits, mode, Arc::clone(&control), out, done);
        let mut stopping = false;
        loop {
            match self.input.recv().unwrap_or(Input::Eof) {
                Input::SearchDone => break,
                Input::Eof => return std::ops::ControlFlow::Break(()),
                Input::Line(text) if stopping => self.pending.push_back(Input::Line(text)),
                Input::Line(text) => match protocol::parse(&text).map(|l| l.command) {
                    Ok(command) if command == "ping" => self.out.line("pong"),
                    Ok(command) if command == "stop" => control.stop(),
                    Ok(command) if command == "ponder-hit" => control.ponder_hit(),
                    Ok(command) if command == "quit" => return std::ops::ControlFlow::Break(()),
                    _ => {
                        // As in Scan, any other line ends the search and runs after `done`;
                        // from then on input is queued in order.
                        log::debug!("'{text}' during the search stops it");
                        control.stop();
                        stopping = true;
                        self.pending.push_back(Input::Line(text));
                    }
                },
            }
        }
        if search.join().is_err() {
            log::error!("the search thread panicked");
        }
        std::ops::ControlFlow::Continue(())
    }
}

fn int_param(name: &str, value: i64, min: i64, max: i64) -> Vec<(&'static str, String)> {
    vec![
        ("name", name.to_string()),
        ("value", value.to_string()),
        ("type", "int".into()),
        ("min", min.to_string()),
        ("max", max.to_string()),
    ]
}

/// Reads a time in seconds. A negative time counts as none left: clients such as pydraughts
/// subtract the increment themselves and send a negative clock when it runs low.
fn seconds(name: &str, value: &str) -> Result<Duration, HubError> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite())
        .map(|s| Duration::from_secs_f64(s.clamp(0.0, MAX_SECONDS)))
        .ok_or_else(|| {
            HubError::new(
                "bad value",
                format!("{name}: '{value}' is not a number of seconds"),
            )
        })
}

fn need<'v>(name: &str, value: Option<&'v str>) -> Result<&'v str, HubError> {
    value.ok_or_else(|| HubError::new("bad value", format!("{name} needs a value")))
}

fn count<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, HubError> {
    value.trim().parse::<T>().map_err(|_| {
        HubError::new(
            "bad value",
            format!("{name}: '{value}' is not a whole number"),
        )
    })
}

/// Applies a `level` line to `limits` (all or nothing). Any of `moves`, `time`, `inc` switches
/// to clock management, with `time` 30 s when absent, as in Scan.
fn parse_level(line: &Line, mut limits: Limits) -> Result<Limits, HubError> {
    const DEFAULT_CLOCK_SECONDS: u64 = 30;
    for (name, value) in &line.args {
        let value = value.as_deref();
        match name.as_str() {
            "depth" => limits.depth = Some(count::<u32>(name, need(name, value)?)?.max(1)),
            "nodes" => limits.nodes = Some(count(name, need(name, value)?)?),
            "move-time" => limits.move_time = Some(seconds(name, need(name, value)?)?),
            "time" | "inc" | "moves" => {
                let clock = limits.clock.get_or_insert(Clock {
                    time: Duration::from_secs(DEFAULT_CLOCK_SECONDS),
                    ..Clock::default()
                });
                match name.as_str() {
                    "time" => clock.time = seconds(name, need(name, value)?)?,
                    "inc" => clock.increment = seconds(name, need(name, value)?)?,
                    _ => clock.moves_to_go = Some(count(name, need(name, value)?)?),
                }
            }
            "infinite" => limits.infinite = true,
            "ponder" => {}
            other => log::info!("level: unknown argument '{other}' ignored"),
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
        ] {
            assert!(level(text).is_err(), "{text}");
        }
    }
}
