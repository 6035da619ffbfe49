//! A Hub engine as a match player.
//!
//! The engine runs in its own process group (so that killing it also kills what it started), with
//! stdin and stdout as pipes and stderr appended to a log file, never mixed into the protocol. A
//! reader thread turns stdout into lines; every wait for a reply has a timeout: `hub` → `wait`,
//! `init` → `ready`, `ping` → `pong`, and `go` → `done` within the player's clock. An engine that
//! does not move in time is sent `stop`; if it does not answer that either it is killed, and it
//! is started again for the next game. Each game begins with `new-game` and a `ping` that must be
//! answered, so a stuck engine is found before it can spoil a game.

use super::engine::{Contestant, EngineSpec, Failure, MoveReply, MoveRequest};
use crate::hub::protocol::{self, HubMessage};
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long each kind of reply may take.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// `hub` → `wait`.
    pub handshake: Duration,
    /// `init` → `ready` (engines load books and bitbases here).
    pub init: Duration,
    /// `new-game` + `ping` → `pong` (engines may clear a large hash table first).
    pub ping: Duration,
    /// `stop` → `done`, after a move was not made in time.
    pub stop: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            handshake: Duration::from_secs(10),
            init: Duration::from_secs(60),
            ping: Duration::from_secs(10),
            stop: Duration::from_secs(1),
        }
    }
}

/// How long a politely asked engine (`quit`) may take to exit before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How long to wait for the exit status of an engine that closed its output.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(200);
/// Polling step while waiting for a process to exit.
const EXIT_POLL: Duration = Duration::from_millis(5);

/// What the thread reading an engine's output passes on.
enum FromEngine {
    Line(String),
    Eof,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    events: Receiver<FromEngine>,
}

/// Why a wait for a reply ended without it.
enum WaitError {
    Timeout,
    Eof,
}

/// A Hub engine process, started on demand and restarted after a crash or a kill.
pub struct HubEngine {
    spec: EngineSpec,
    name: String,
    /// The Hub `variant` value to set (none for international draughts, every engine's default).
    variant: Option<String>,
    log_path: PathBuf,
    timeouts: Timeouts,
    process: Option<Process>,
    /// The `name` the engine gave in its `id` line.
    id_name: Option<String>,
    /// The engine may still be busy with an earlier request (it answered `error`).
    needs_sync: bool,
}

impl HubEngine {
    /// An engine, not started yet; stderr goes to `log_path`.
    pub fn new(
        spec: EngineSpec,
        variant: Option<String>,
        log_path: PathBuf,
        timeouts: Timeouts,
    ) -> Self {
        let name = spec.name.clone().unwrap_or_else(|| spec.program_name());
        HubEngine {
            spec,
            name,
            variant,
            log_path,
            timeouts,
            process: None,
            id_name: None,
            needs_sync: false,
        }
    }

    /// The name the engine gave in its `id` line (after it has been started).
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Starts the engine and goes through the handshake: `hub` → `wait`, the options, `init` →
    /// `ready`.
    ///
    /// # Errors
    /// [`Failure::Start`] with what went wrong; the process is gone.
    pub fn start(&mut self) -> Result<(), Failure> {
        self.kill();
        self.spawn().map_err(Failure::Start)?;
        let result = self.handshake();
        if result.is_err() {
            self.kill();
        }
        result.map_err(Failure::Start)
    }

    fn spawn(&mut self) -> Result<(), String> {
        let program = resolve_program(&self.spec.command[0], self.spec.dir.as_deref());
        if let Some(parent) = self.log_path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("log directory {}: {e}", parent.display()))?;
        }
        let mut log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log_path)
            .map_err(|e| format!("log file {}: {e}", self.log_path.display()))?;
        // The header is written before the engine gets the file, so it cannot interleave.
        let _ = writeln!(
            log,
            "--- rafle match: starting {} ({})",
            self.spec.command.join(" "),
            self.name
        );
        let mut command = Command::new(&program);
        command
            .args(&self.spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log));
        if let Some(dir) = &self.spec.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("{}: {e}", program.display()))?;
        #[cfg(unix)]
        interrupt::register(child.id());
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_process(&mut child);
            return Err("no pipes to the engine".to_string());
        };
        let (sender, events) = channel();
        let thread_name = format!("engine-{}", self.name);
        let spawned = std::thread::Builder::new()
            .name(thread_name)
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut bytes = Vec::new();
                loop {
                    bytes.clear();
                    match reader.read_until(b'\n', &mut bytes) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&bytes);
                            let text = text.trim_end_matches(['\n', '\r']).to_string();
                            if sender.send(FromEngine::Line(text)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = sender.send(FromEngine::Eof);
            });
        if let Err(error) = spawned {
            kill_process(&mut child);
            return Err(format!("no reader thread: {error}"));
        }
        self.process = Some(Process {
            child,
            stdin,
            events,
        });
        self.needs_sync = false;
        Ok(())
    }

    fn handshake(&mut self) -> Result<(), String> {
        self.send("hub").map_err(|f| f.to_string())?;
        let lines = self
            .wait_for("wait", self.timeouts.handshake)
            .map_err(|e| self.wait_error("hub", "wait", e))?;
        self.id_name = lines
            .iter()
            .find(|line| line.command == "id")
            .and_then(|line| line.value("name"))
            .map(str::to_string);
        let mut settings = self.spec.options.clone();
        if let Some(variant) = &self.variant {
            settings.push(("variant".to_string(), variant.clone()));
        }
        for (name, value) in &settings {
            let line = protocol::format(
                "set-param",
                &[("name", name.clone()), ("value", value.clone())],
            );
            self.send(&line).map_err(|f| f.to_string())?;
        }
        self.send("init").map_err(|f| f.to_string())?;
        let lines = self
            .wait_for("ready", self.timeouts.init)
            .map_err(|e| self.wait_error("init", "ready", e))?;
        for line in lines.iter().filter(|line| line.command == "error") {
            log::warn!(
                "{}: {} during start-up (an option was refused?)",
                self.name,
                describe_error(line)
            );
        }
        Ok(())
    }

    fn wait_error(&self, sent: &str, expected: &str, error: WaitError) -> String {
        match error {
            WaitError::Timeout => format!("no '{expected}' after '{sent}'"),
            WaitError::Eof => format!(
                "exited during the handshake; see {}",
                self.log_path.display()
            ),
        }
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), Failure> {
        let Some(process) = self.process.as_mut() else {
            return Err(Failure::Crash("not running".to_string()));
        };
        log::debug!("{} < {line}", self.name);
        let written = writeln!(process.stdin, "{line}").and_then(|()| process.stdin.flush());
        written.map_err(|error| Failure::Crash(format!("its input is closed: {error}")))
    }

    /// Receives one event within `timeout`.
    fn receive(&mut self, timeout: Duration) -> Result<HubMessage, WaitError> {
        let Some(process) = self.process.as_mut() else {
            return Err(WaitError::Eof);
        };
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match process.events.recv_timeout(left) {
                Ok(FromEngine::Line(text)) => {
                    log::debug!("{} > {text}", self.name);
                    match protocol::parse(&text) {
                        Ok(line) => return Ok(line),
                        Err(error) => {
                            log::debug!("{}: unreadable line '{text}': {error}", self.name);
                        }
                    }
                }
                Ok(FromEngine::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(WaitError::Eof);
                }
                Err(RecvTimeoutError::Timeout) => return Err(WaitError::Timeout),
            }
        }
    }

    /// Receives lines until one with the command `expected` (returned last, with those before).
    fn wait_for(
        &mut self,
        expected: &str,
        timeout: Duration,
    ) -> Result<Vec<HubMessage>, WaitError> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let line = self.receive(deadline.saturating_duration_since(Instant::now()))?;
            let found = line.command == expected;
            lines.push(line);
            if found {
                return Ok(lines);
            }
        }
    }

    /// Brings the engine to a known idle state for a new game.
    fn synchronise(&mut self) -> Result<(), String> {
        if self.needs_sync {
            self.send("stop").map_err(|f| f.to_string())?;
        }
        self.send("new-game").map_err(|f| f.to_string())?;
        self.send("ping").map_err(|f| f.to_string())?;
        self.wait_for("pong", self.timeouts.ping)
            .map_err(|e| self.wait_error("ping", "pong", e))?;
        self.needs_sync = false;
        Ok(())
    }

    /// The failure of an engine whose output ended: its exit status if it has one.
    fn crashed(&mut self) -> Failure {
        let Some(mut process) = self.process.take() else {
            return Failure::Crash("not running".to_string());
        };
        let waited = Instant::now();
        let mut status = None;
        while waited.elapsed() < EXIT_STATUS_WAIT {
            if let Ok(Some(exit)) = process.child.try_wait() {
                status = Some(exit);
                break;
            }
            std::thread::sleep(EXIT_POLL);
        }
        kill_process(&mut process.child);
        let detail = match status {
            Some(exit) => describe_exit(exit),
            None => "closed its output".to_string(),
        };
        Failure::Crash(detail)
    }

    /// The engine did not move in time: `stop`, then kill it if it does not answer that.
    fn overtime(&mut self) -> Failure {
        let answered =
            self.send("stop").is_ok() && self.wait_for("done", self.timeouts.stop).is_ok();
        if answered {
            Failure::Timeout { killed: false }
        } else {
            log::warn!("{}: no answer to stop; killing it", self.name);
            self.kill();
            Failure::Timeout { killed: true }
        }
    }

    /// Kills the engine and its process group.
    fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            kill_process(&mut process.child);
        }
    }
}

impl Contestant for HubEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        let mut last_error = String::new();
        for _attempt in 0..2 {
            if self.process.is_none() {
                self.start()?;
            }
            match self.synchronise() {
                Ok(()) => return Ok(()),
                Err(error) => {
                    log::warn!("{}: {error}; restarting it", self.name);
                    last_error = error;
                    self.kill();
                }
            }
        }
        Err(Failure::Start(last_error))
    }

    fn think(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, Failure> {
        let Some(process) = self.process.as_mut() else {
            return Err(Failure::Crash("not running".to_string()));
        };
        // Lines left from an earlier request are of no use now; an EOF among them is a crash.
        let mut ended = false;
        while let Ok(event) = process.events.try_recv() {
            match event {
                FromEngine::Line(text) => log::debug!("{} > {text} (stale)", self.name),
                FromEngine::Eof => ended = true,
            }
        }
        if ended {
            return Err(self.crashed());
        }
        let mut position = vec![("pos", request.start.to_string())];
        if !request.moves.is_empty() {
            position.push(("moves", request.moves.join(" ")));
        }
        let pos = protocol::format("pos", &position);
        let level = protocol::format("level", request.level);
        for line in [pos.as_str(), level.as_str(), "go think"] {
            if let Err(failure) = self.send(line) {
                self.kill();
                return Err(failure);
            }
        }
        let started = Instant::now();
        let mut score = None;
        loop {
            let left = request.deadline.saturating_sub(started.elapsed());
            match self.receive(left) {
                Ok(line) => match line.command.as_str() {
                    "done" => {
                        return Ok(MoveReply {
                            text: line.value("move").unwrap_or_default().to_string(),
                            elapsed: started.elapsed(),
                            score,
                            nodes: line.value("nodes").and_then(|n| n.parse().ok()),
                        });
                    }
                    "info" => {
                        if let Some(value) = line.value("score").and_then(|s| s.parse().ok()) {
                            score = Some(value);
                        }
                    }
                    "error" => {
                        self.needs_sync = true;
                        return Err(Failure::Error(describe_error(&line)));
                    }
                    _ => {}
                },
                Err(WaitError::Eof) => return Err(self.crashed()),
                Err(WaitError::Timeout) => return Err(self.overtime()),
            }
        }
    }

    fn shutdown(&mut self) {
        let Some(mut process) = self.process.take() else {
            return;
        };
        let _ = writeln!(process.stdin, "quit").and_then(|()| process.stdin.flush());
        let asked = Instant::now();
        while asked.elapsed() < QUIT_GRACE {
            if let Ok(Some(_)) = process.child.try_wait() {
                break;
            }
            std::thread::sleep(EXIT_POLL);
        }
        kill_process(&mut process.child);
    }
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// `message` and `detail` of an `error` line.
fn describe_error(line: &HubMessage) -> String {
    let message = line.value("message").unwrap_or("(no message)");
    match line.value("detail") {
        Some(detail) => format!("{message} ({detail})"),
        None => message.to_string(),
    }
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "exited".to_string(),
    }
}

/// A relative program path with a directory part is taken from the engine's working directory
/// when it is there, else from ours; a bare name is looked up in `PATH`.
fn resolve_program(program: &str, dir: Option<&Path>) -> PathBuf {
    let path = PathBuf::from(program);
    if path.is_absolute() || path.components().count() < 2 {
        return path;
    }
    if let Some(dir) = dir {
        let inside = dir.join(&path);
        if inside.exists() {
            return std::path::absolute(&inside).unwrap_or(inside);
        }
    }
    std::path::absolute(&path).unwrap_or(path)
}

/// Kills a process and everything in its process group, and reaps it.
fn kill_process(child: &mut Child) {
    #[cfg(unix)]
    interrupt::unregister(child.id());
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: `kill` only sends a signal and touches no memory of ours. The child was started
        // as the leader of a new process group (`process_group(0)`), so the group id is its pid.
        // POSIX does not reuse a pid while a process group of that id has members, and the child
        // is reaped only below (or, for an engine that already exited, just before), so the
        // signal reaches the engine and what it started.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Engines run in process groups of their own, so the terminal's Ctrl-C does not reach them, and
/// a hung engine would outlive an interrupted match (a responsive one exits when its input
/// closes). [`kill_engines_on_interrupt`] makes SIGINT, SIGTERM and SIGHUP kill every running
/// engine's process group before the match ends as the signal asks.
#[cfg(unix)]
mod interrupt {
    use std::sync::Once;
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

    /// Most engine processes tracked at once; more (a huge `--concurrency`) are not killed on an
    /// interrupt but still see their input close.
    const SLOTS: usize = 1024;
    /// Process group ids of the running engines (0 = free slot). Atomics, so that the signal
    /// handler may read them.
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

    pub(super) fn register(pid: u32) {
        let Ok(pid) = i32::try_from(pid) else { return };
        for slot in &GROUPS {
            if slot
                .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    pub(super) fn unregister(pid: u32) {
        let Ok(pid) = i32::try_from(pid) else { return };
        for slot in &GROUPS {
            if slot
                .compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Set by the first Ctrl-C: the match stops, reports what it has and says how to resume.
    pub(super) static INTERRUPTED: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_signal(signal: libc::c_int) {
        let first_interrupt = signal == libc::SIGINT && !INTERRUPTED.swap(true, Ordering::SeqCst);
        for slot in &GROUPS {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: `kill` is async-signal-safe and touches no memory of ours; `-pid` is the
                // process group of an engine we started and have not reaped (see `kill_process`).
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        if first_interrupt {
            // The engines are gone, so every game in progress ends now; the match loop sees the
            // flag, drops those games and prints the partial result. A second Ctrl-C, SIGTERM
            // and SIGHUP end the process at once.
            return;
        }
        // SAFETY: `signal` and `raise` are async-signal-safe; restoring the default action and
        // raising the signal again ends the process as the signal asked.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    pub(super) fn install() {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(|| {
            let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: the handler only reads atomics and calls async-signal-safe functions.
                unsafe {
                    libc::signal(signal, handler);
                }
            }
        });
    }
}

/// Whether the match was interrupted by Ctrl-C (SIGINT): its engines are killed, and the match
/// is to stop, drop the games in progress and report.
pub fn interrupted() -> bool {
    #[cfg(unix)]
    {
        interrupt::INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Makes an interrupt (Ctrl-C, SIGTERM, SIGHUP) kill the engines' process groups before the
/// program ends (on Unix; elsewhere engines see their input close). After the first Ctrl-C the
/// program goes on to report ([`interrupted`]); SIGTERM, SIGHUP and a second Ctrl-C end it.
pub fn kill_engines_on_interrupt() {
    #[cfg(unix)]
    interrupt::install();
}
