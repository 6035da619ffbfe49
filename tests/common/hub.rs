//! A Hub session with the real `rafle hub` binary, line by line, every reply awaited with a
//! timeout so that a silent engine fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long any expected reply may take before the test fails.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// `rafle hub` as a child process, its stdout read by a thread into a channel.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rafle"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("rafle starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine accepts input");
        self.stdin.flush().expect("flush");
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("engine accepts input");
        self.stdin.flush().expect("flush");
    }

    pub fn next(&self) -> String {
        self.lines
            .recv_timeout(REPLY_TIMEOUT)
            .expect("the engine replies in time")
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// The next line if one comes within `wait`.
    pub fn line_within(&self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    pub fn no_output_for(&self, wait: Duration) -> bool {
        matches!(
            self.lines.recv_timeout(wait),
            Err(RecvTimeoutError::Timeout)
        )
    }

    /// `hub`, then `init` with the book off: these tests are about the search, which a book hit
    /// skips (tests/book.rs covers book play).
    pub fn handshake(&mut self) {
        self.send("hub");
        let lines = self.until("wait");
        assert!(lines[0].starts_with("id name=Rafle"), "{lines:?}");
        self.send("set-param name=book value=false");
        self.send("init");
        assert_eq!(
            self.until("ready").last().map(String::as_str),
            Some("ready")
        );
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The engine's peak resident memory so far in KiB (`VmHWM` of /proc), where the system
    /// tells.
    pub fn peak_memory_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
    }

    /// Whether the engine is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("engine exits");
        assert!(status.success());
    }
}
