//! A small WebDriver client (W3C protocol, JSON over HTTP on loopback) for Debian's
//! `chromedriver`: enough to open a page, click, type, run a script and take a screenshot. It
//! speaks HTTP/1.1 over a std TCP stream, one request per connection.

use super::browser::{self, FLAGS};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for the driver to listen, and for one command.
const DRIVER_TIMEOUT: Duration = Duration::from_secs(60);
/// Pause between polls.
const POLL: Duration = Duration::from_millis(50);
/// The W3C name of an element reference in JSON.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";
/// How long a drag's move takes, in milliseconds: the browser sees several pointer moves.
const DRAG_MILLIS: u64 = 200;

/// A browser session through chromedriver; the browser and the driver end when it is dropped.
pub struct Driver {
    child: Child,
    port: u16,
    session: String,
}

impl Driver {
    /// A headless Chromium of `width` x `height`. The tests that call this are ignored unless
    /// `build.rs` found Chromium and chromedriver (cfg `rafle_has_chromium` and
    /// `rafle_has_chromedriver`).
    pub fn start(width: u32, height: u32) -> Driver {
        let chromium = browser::chromium();
        let Some(chromedriver) = option_env!("RAFLE_TEST_CHROMEDRIVER") else {
            panic!(
                "chromedriver was not found when the tests were built (build.rs): README.md says how to install it"
            );
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let mut driver = Driver {
            child,
            port,
            session: String::new(),
        };
        let started = Instant::now();
        while driver.request("GET", "/status", None).is_err() {
            assert!(
                started.elapsed() < DRIVER_TIMEOUT,
                "chromedriver does not answer"
            );
            std::thread::sleep(POLL);
        }
        let mut args: Vec<String> = FLAGS.iter().map(|flag| flag.to_string()).collect();
        args.push(format!("--window-size={width},{height}"));
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let session = driver.command("POST", "/session", Some(capabilities));
        driver.session = session["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        driver
    }

    /// One HTTP exchange with the driver: the JSON answer, or why there is none.
    fn request(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(DRIVER_TIMEOUT))
            .map_err(|e| e.to_string())?;
        let body = body.map(|value| value.to_string()).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())?;
        let payload = read_answer(&mut stream)?;
        serde_json::from_str(&payload).map_err(|e| format!("{e}: {payload}"))
    }

    /// A WebDriver command; panics with the driver's message when it fails.
    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let answer = self
            .request(method, path, body)
            .unwrap_or_else(|error| panic!("{method} {path}: {error}"));
        let value = answer["value"].clone();
        if let Some(error) = value.get("error") {
            panic!("{method} {path}: {error} {}", value["message"]);
        }
        value
    }

    fn session_command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.command(method, &format!("/session/{}{path}", self.session), body)
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) {
        self.session_command("POST", "/url", Some(json!({"url": url})));
    }

    fn element(&self, css: &str) -> String {
        let found = self.session_command(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        found
            .get(ELEMENT_KEY)
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    /// Clicks the element `css` selects, as a user would (at its centre).
    pub fn click(&self, css: &str) {
        let id = self.element(css);
        self.session_command("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Presses the mouse button over the centre of the element `css` selects, and keeps it down.
    pub fn press(&self, css: &str) {
        let id = self.element(css);
        self.pointer(json!([
            {"type": "pointerMove", "duration": 0, "origin": {ELEMENT_KEY: id}, "x": 0, "y": 0},
            {"type": "pointerDown", "button": 0},
        ]));
    }

    /// Moves the mouse, button still down, to the centre of the element `css` selects, in steps
    /// as a hand would.
    pub fn move_to(&self, css: &str) {
        let id = self.element(css);
        self.pointer(json!([
            {"type": "pointerMove", "duration": DRAG_MILLIS, "origin": {ELEMENT_KEY: id}, "x": 0, "y": 0},
        ]));
    }

    /// Releases the mouse button.
    pub fn release(&self) {
        self.pointer(json!([{"type": "pointerUp", "button": 0}]));
    }

    fn pointer(&self, actions: Value) {
        self.session_command(
            "POST",
            "/actions",
            Some(json!({"actions": [{
                "type": "pointer",
                "id": "mouse",
                "parameters": {"pointerType": "mouse"},
                "actions": actions,
            }]})),
        );
    }

    /// Types `text` into the element `css` selects.
    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.session_command(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({"text": text})),
        );
    }

    /// Runs `script` (a function body) in the page and returns what it returns.
    pub fn run(&self, script: &str) -> Value {
        self.session_command(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Waits until `script` returns true in the page, failing the test after `timeout`.
    pub fn wait_for(&self, script: &str, timeout: Duration) {
        let started = Instant::now();
        while self.run(script) != Value::Bool(true) {
            assert!(
                started.elapsed() < timeout,
                "timed out waiting for: {script}"
            );
            std::thread::sleep(POLL);
        }
    }

    /// A PNG screenshot of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let encoded = self.session_command("GET", "/screenshot", None);
        base64(encoded.as_str().expect("base64 PNG"))
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.request("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The body of an HTTP answer. chromedriver keeps the connection open whatever the request
/// says, so the body ends where its `Content-Length` says.
fn read_answer(stream: &mut TcpStream) -> Result<String, String> {
    let mut answer = Vec::new();
    let mut chunk = [0; 64 * 1024];
    loop {
        let read = stream.read(&mut chunk).map_err(|e| e.to_string())?;
        answer.extend_from_slice(&chunk[..read]);
        let text = String::from_utf8_lossy(&answer);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head.lines().find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.trim()
                    .eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse::<usize>().ok())?
            });
            match length {
                Some(length) if body.len() >= length => return Ok(body[..length].to_string()),
                None if read == 0 => return Ok(body.to_string()),
                _ => {}
            }
        }
        if read == 0 {
            return Err("the answer was cut short".to_string());
        }
    }
}

/// Decodes standard base64 (the screenshot's encoding).
fn base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut buffer = 0u32;
    let mut bits = 0;
    for byte in text.bytes() {
        let Some(value) = ALPHABET.iter().position(|&c| c == byte) else {
            continue;
        };
        buffer = (buffer << 6) | value as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    out
}
