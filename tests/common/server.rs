//! `rafle serve` on a free port of loopback, for the protocol and browser tests: started with
//! `--port 0`, its address read from the line it prints, killed when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// What `rafle serve` prints before its address.
const LISTENING: &str = "rafle serve: listening on http://";
/// Longest a raw HTTP exchange may take.
const HTTP_TIMEOUT: Duration = Duration::from_secs(10);

/// A running server.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub address: SocketAddr,
}

impl Server {
    /// Starts `rafle serve --port 0` and waits for its address.
    pub fn start() -> Server {
        Self::spawn(Command::new(env!("CARGO_BIN_EXE_rafle")).stderr(Stdio::inherit()))
    }

    /// [`Server::start`] with `RUST_LOG=<filter>`, and its stderr lines on a channel.
    pub fn start_logged(filter: &str) -> (Server, Receiver<String>) {
        let mut server = Self::spawn(
            Command::new(env!("CARGO_BIN_EXE_rafle"))
                .env("RUST_LOG", filter)
                .stderr(Stdio::piped()),
        );
        let stderr = server.child.stderr.take().expect("stderr");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        (server, lines)
    }

    fn spawn(command: &mut Command) -> Server {
        let mut child = command
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("rafle serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the address line");
        let address = line
            .trim()
            .strip_prefix(LISTENING)
            .and_then(|rest| rest.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, address }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// Sends raw bytes as an HTTP request and returns what came back (empty when the server
    /// closed the connection without answering).
    pub fn raw(&self, request: &[u8]) -> String {
        let mut stream = TcpStream::connect(self.address).expect("connect");
        stream
            .set_read_timeout(Some(HTTP_TIMEOUT))
            .expect("timeout");
        // The server may answer and close before reading everything: a failed write is fine.
        let _ = stream.write_all(request);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// `GET path`: the status code and the body.
    pub fn get(&self, path: &str) -> (u16, String) {
        let answer = self.raw(
            format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                self.address
            )
            .as_bytes(),
        );
        (status(&answer), answer)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().expect("wait").is_none()
    }
}

/// The status code of an HTTP answer (0 when there is none).
pub fn status(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
