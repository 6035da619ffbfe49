//! `rafle serve` without a browser: the page and its assets, junk and oversized HTTP requests
//! and WebSocket messages, a foreign origin, too many tabs, a tab that vanishes mid-search, and
//! a game played over the socket. After each abuse the server must go on serving.

mod common;

use common::server::{Server, status};
use serde_json::{Value, json};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

/// Longest wait for one message from the server.
const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for the engine's reply or for a stopped search's thread to end.
const ENGINE_TIMEOUT: Duration = Duration::from_secs(30);
/// The server's limit on a WebSocket message (`rafle::serve::MAX_MESSAGE_BYTES`).
const MAX_MESSAGE_BYTES: usize = rafle::serve::MAX_MESSAGE_BYTES;
/// Name of the server's search threads.
const SEARCH_THREAD: &str = "serve-search";
/// Name of the server's review threads.
const REVIEW_THREAD: &str = "serve-review";
/// A short game with a blunder (that of `tests/annotate.rs`): 3. 28-23?? drops a man to the
/// shot 19x37, and 26x28 wins a second one.
const SHORT_GAME: &str = "[Event \"review\"]\n1. 32-28 17-21 2. 37-32 21-26 3. 28-23 19x37 \
     4. 41x32 26x28 5. 33x22 18x27 *";
/// Moves of [`SHORT_GAME`].
const SHORT_GAME_PLIES: usize = 10;
/// The blunder's index among them.
const BLUNDER_PLY: usize = 4;
/// A longer game (Rafle against itself), whose review takes seconds.
const LONG_GAME: &str = "1. 31-26 17-21 2. 26x17 12x21 3. 36-31 7-12 4. 31-27 19-23 5. 37-31 14-19 6. \
     33-28 10-14 7. 41-36 2-7 8. 31-26 4-10 9. 26x17 11x31 10. 36x27 12-17 11. 47-41 \
     7-11 12. 39-33 17-22 13. 28x17 11x31 14. 41-36 6-11 15. 36x27 11-17 16. 33-28 \
     17-21 17. 44-39 8-12 18. 49-44 20-24 19. 39-33 14-20 20. 44-39 3-8 21. 50-44 \
     10-14 22. 34-29 23x34 23. 40x29 20-25 24. 29x20 15x24 25. 45-40 5-10 *";
/// Moves of [`LONG_GAME`].
const LONG_GAME_PLIES: usize = 50;

type Socket = WebSocket<TcpStream>;

/// Opens the page's WebSocket, with `origin` as the `Origin` header when given.
fn open(server: &Server, origin: Option<&str>) -> Result<Socket, String> {
    let mut request = format!("ws://{}/ws", server.address)
        .into_client_request()
        .expect("a request");
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("Origin", origin.parse().expect("a header value"));
    }
    let stream = TcpStream::connect(server.address).expect("connect");
    stream
        .set_read_timeout(Some(READ_TIMEOUT))
        .expect("timeout");
    tungstenite::client(request, stream)
        .map(|(socket, _)| socket)
        .map_err(|error| error.to_string())
}

/// Opens a tab and reads its greeting and first state.
fn tab(server: &Server) -> (Socket, Value) {
    let mut socket = open(server, None).expect("a tab");
    let hello = next(&mut socket);
    assert_eq!(hello["type"], "hello");
    assert!(hello["variants"].as_array().expect("variants").len() > 10);
    let state = next(&mut socket);
    assert_eq!(state["type"], "state");
    (socket, state)
}

fn next(socket: &mut Socket) -> Value {
    loop {
        match socket.read().expect("a message") {
            Message::Text(text) => return serde_json::from_str(text.as_str()).expect("JSON"),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("unexpected {other:?}"),
        }
    }
}

fn send(socket: &mut Socket, request: &Value) {
    socket
        .send(Message::Text(request.to_string().into()))
        .expect("sent");
}

/// Reads until a message of `kind` that satisfies `accept`, skipping the others.
fn until(socket: &mut Socket, kind: &str, accept: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < ENGINE_TIMEOUT, "no {kind} in time");
        let message = next(socket);
        if message["type"] == kind && accept(&message) {
            return message;
        }
    }
}

fn legal(state: &Value) -> Vec<Value> {
    state["position"]["legal"]
        .as_array()
        .expect("legal moves")
        .clone()
}

/// The server's threads named `name` (Linux: /proc).
fn threads_named(pid: u32, name: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm")).is_ok_and(|comm| comm.trim() == name)
        })
        .count()
}

fn still_serves(server: &mut Server) {
    assert!(server.alive(), "the server died");
    let (code, body) = server.get("/");
    assert_eq!(code, 200, "{body}");
    let (_, state) = tab(server);
    assert_eq!(legal(&state).len(), 9);
}

#[test]
fn the_page_and_its_assets_are_served() {
    let mut server = Server::start();
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    assert!(page.contains("<script src=\"/app.js\">"));
    assert!(
        page.to_ascii_lowercase()
            .contains("content-security-policy")
    );
    assert_eq!(server.get("/app.js").0, 200);
    assert_eq!(server.get("/style.css").0, 200);
    assert_eq!(server.get("/no-such-page").0, 404);
    // No file of the machine is served, whatever the path says.
    assert_eq!(server.get("/../../etc/passwd").0, 404);
    still_serves(&mut server);
}

#[test]
fn junk_and_oversized_requests_leave_the_server_serving() {
    let mut server = Server::start();
    let junk = server.raw(b"\x00\x01GARBAGE \xff\xfe\r\n\r\n");
    assert!(junk.is_empty() || status(&junk) == 400, "{junk}");
    let mut huge_header = b"GET / HTTP/1.1\r\nHost: x\r\nX-Junk: ".to_vec();
    huge_header.extend(std::iter::repeat_n(b'a', 4 << 20));
    huge_header.extend(b"\r\n\r\n");
    let answer = server.raw(&huge_header);
    assert!(answer.is_empty() || status(&answer) >= 400, "{answer}");
    let big_body = format!(
        "POST / HTTP/1.1\r\nHost: {}\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n",
        server.address
    );
    let answer = server.raw(big_body.as_bytes());
    assert!(status(&answer) >= 400, "{answer}");
    // A WebSocket request without the upgrade.
    assert!(server.get("/ws").0 >= 400);
    still_serves(&mut server);
}

#[test]
fn a_foreign_origin_is_refused() {
    let mut server = Server::start();
    let refused = open(&server, Some("http://evil.example")).err();
    assert!(
        refused.as_deref().is_some_and(|e| e.contains("403")),
        "{refused:?}"
    );
    let own = format!("http://{}", server.address);
    assert!(open(&server, Some(&own)).is_ok());
    still_serves(&mut server);
}

#[test]
fn bad_messages_get_errors_and_the_tab_goes_on() {
    let mut server = Server::start();
    let (mut socket, _) = tab(&server);
    for bad in [
        "not json".to_string(),
        json!({"type": "launch_missiles"}).to_string(),
        json!({"type": "move", "id": "99-100"}).to_string(),
        json!({"type": "new", "variant": "international", "fen": "W:W99:B1"}).to_string(),
        json!({"type": "new", "variant": "chaturanga"}).to_string(),
        json!({"type": "load_pdn", "text": "1. 32-28 99-98"}).to_string(),
        json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 1e9}).to_string(),
        json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 1, "level": 0})
            .to_string(),
        json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 1, "level": 21})
            .to_string(),
        json!({"type": "settings", "mode": "analyse", "engine": "black", "seconds": 1, "lines": 0})
            .to_string(),
        json!({"type": "settings", "mode": "analyse", "engine": "black", "seconds": 1, "lines": 6})
            .to_string(),
        json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 1,
               "clock": {"minutes": 0, "increment": 1}})
        .to_string(),
        json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 1,
               "clock": {"minutes": 5, "increment": -1}})
        .to_string(),
        json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 1,
               "clock": {"minutes": 5}})
        .to_string(),
    ] {
        socket
            .send(Message::Text(bad.clone().into()))
            .expect("sent");
        let error = until(&mut socket, "error", |_| true);
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{bad}"
        );
    }
    // Still the start position, still playable.
    send(&mut socket, &json!({"type": "flip"}));
    let state = until(&mut socket, "state", |s| s["flipped"] == true);
    assert_eq!(legal(&state).len(), 9);
    // A message over the limit closes this tab, and only this one.
    let oversized = "x".repeat(MAX_MESSAGE_BYTES + 1);
    let _ = socket.send(Message::Text(oversized.into()));
    let closed = (0..10).any(|_| match socket.read() {
        Ok(Message::Close(_)) | Err(_) => true,
        Ok(_) => false,
    });
    assert!(closed, "an oversized message must close the tab");
    still_serves(&mut server);
}

#[test]
fn too_many_tabs_are_refused() {
    let mut server = Server::start();
    let tabs: Vec<Socket> = (0..rafle::serve::MAX_TABS)
        .map(|_| tab(&server).0)
        .collect();
    let refused = open(&server, None).err();
    assert!(
        refused.as_deref().is_some_and(|e| e.contains("503")),
        "{refused:?}"
    );
    drop(tabs);
    let started = Instant::now();
    while open(&server, None).is_err() {
        assert!(
            started.elapsed() < ENGINE_TIMEOUT,
            "closed tabs must free their places"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    still_serves(&mut server);
}

#[test]
fn a_game_against_the_engine_over_the_socket() {
    let server = Server::start();
    let (mut socket, state) = tab(&server);
    assert_eq!(state["mode"], "play");
    send(
        &mut socket,
        &json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 0.2}),
    );
    let state = until(&mut socket, "state", |_| true);
    let moves = legal(&state);
    assert_eq!(moves.len(), 9);
    let man_move = moves
        .iter()
        .find(|m| m["text"] == "32-28")
        .expect("32-28 is legal");
    send(&mut socket, &json!({"type": "move", "id": man_move["id"]}));
    let thinking = until(&mut socket, "state", |_| true);
    assert_eq!(thinking["thinking"], true);
    assert!(
        legal(&thinking).is_empty(),
        "no moves for the user while the engine thinks"
    );
    // A move out of turn is refused; the engine goes on. (A Black move: should the engine have
    // replied already, it is illegal for White and refused all the same.)
    send(&mut socket, &json!({"type": "move", "id": "19-23"}));
    until(&mut socket, "error", |_| true);
    let replied = until(&mut socket, "state", |s| s["thinking"] == false);
    let movetext = replied["position"]["moves"].as_str().expect("moves");
    assert!(movetext.starts_with("1. 32-28 "), "{movetext}");
    assert_eq!(movetext.split_whitespace().count(), 3, "{movetext}");
    assert_eq!(replied["position"]["side"], "white");
    assert!(!legal(&replied).is_empty());
    // Take back: the user's move and the engine's reply.
    send(&mut socket, &json!({"type": "undo"}));
    let back = until(&mut socket, "state", |_| true);
    assert_eq!(back["position"]["moves"], "");
    send(&mut socket, &json!({"type": "redo"}));
    let again = until(&mut socket, "state", |_| true);
    assert_eq!(again["position"]["moves"], "1. 32-28");
    // The game as PDN, and back.
    send(
        &mut socket,
        &json!({"type": "load_pdn", "text": "[Event \"t\"]\n1. 32-28 19-23 2. 28x19 14x23 *"}),
    );
    // (Rafle's reply to the move played again may come first.)
    until(&mut socket, "state", |s| {
        s["position"]["moves"] == "1. 32-28 19-23 2. 28x19 14x23"
    });
    send(&mut socket, &json!({"type": "save_pdn"}));
    let pdn = until(&mut socket, "pdn", |_| true);
    assert!(
        pdn["text"]
            .as_str()
            .is_some_and(|t| t.contains("28x19 14x23"))
    );
    // A game of another variant switches the tab to it.
    send(
        &mut socket,
        &json!({"type": "load_pdn", "text": "[GameType \"25\"]\n1. c3-d4 *"}),
    );
    let russian = until(&mut socket, "state", |_| true);
    assert_eq!(russian["position"]["variant"], "russian", "{russian}");
    assert_eq!(russian["position"]["moves"], "1. c3-d4");
    // A game that ends by the rules says why.
    send(
        &mut socket,
        &json!({"type": "new", "variant": "international", "fen": "W:W33:B28"}),
    );
    let _ = until(&mut socket, "state", |_| true);
    send(&mut socket, &json!({"type": "move", "id": "33x22"}));
    let over = until(&mut socket, "state", |s| !s["result"].is_null());
    assert!(
        over["result"]
            .as_str()
            .is_some_and(|r| r.contains("no pieces")),
        "{over}"
    );
}

#[test]
fn analysis_shows_the_lines_asked_for_and_a_weaker_level_plays() {
    let server = Server::start();
    let (mut socket, _) = tab(&server);
    send(
        &mut socket,
        &json!({"type": "settings", "mode": "analyse", "engine": "black", "seconds": 1,
                "lines": 3}),
    );
    let state = until(&mut socket, "state", |_| true);
    assert_eq!(state["lines"], 3);
    // Lines 1, 2 and 3 of one depth, each with its own first move. (A page slow to read sees
    // the latest iteration of each line, so lines of two depths may come mixed.)
    let mut by_depth: std::collections::BTreeMap<u64, Vec<Option<String>>> =
        std::collections::BTreeMap::new();
    let firsts = loop {
        let info = until(&mut socket, "info", |_| true);
        let line = info["line"].as_u64().expect("line") as usize;
        assert!((1..=3).contains(&line), "{info}");
        let depth = info["depth"].as_u64().expect("depth");
        let pv = info["pv"].as_str().expect("pv");
        let firsts = by_depth.entry(depth).or_insert_with(|| vec![None; 3]);
        firsts[line - 1] = pv
            .split_whitespace()
            .find(|word| !word.ends_with('.'))
            .map(str::to_string);
        if firsts.iter().all(Option::is_some) {
            break firsts.clone();
        }
    };
    let mut distinct = firsts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{firsts:?}");
    // Level 1 as White: the engine moves at once, a legal move.
    send(
        &mut socket,
        &json!({"type": "settings", "mode": "play", "engine": "white", "seconds": 5,
                "level": 1}),
    );
    let replied = until(&mut socket, "state", |s| {
        s["thinking"] == false && s["position"]["side"] == "black"
    });
    assert_eq!(replied["level"], 1);
    let movetext = replied["position"]["moves"].as_str().expect("moves");
    assert!(movetext.starts_with("1. "), "{movetext}");
}

/// The shortest clock the server accepts, in minutes (`rafle::serve` takes 0.1 to 180).
const SHORT_CLOCK_MINUTES: f64 = 0.1;
/// Milliseconds on that clock.
const SHORT_CLOCK_MS: u64 = 6_000;

#[test]
fn a_game_on_the_clock_and_a_loss_on_time() {
    let server = Server::start();
    let (mut socket, _) = tab(&server);
    send(
        &mut socket,
        &json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 1,
                "clock": {"minutes": SHORT_CLOCK_MINUTES, "increment": 1}}),
    );
    let state = until(&mut socket, "state", |s| !s["clock"].is_null());
    assert_eq!(state["time_control"]["minutes"], SHORT_CLOCK_MINUTES);
    assert_eq!(state["clock"]["running"], "white", "{state}");
    assert_eq!(state["clock"]["black_ms"], SHORT_CLOCK_MS);
    let man_move = legal(&state)
        .into_iter()
        .find(|m| m["text"] == "32-28")
        .expect("32-28 is legal");
    send(&mut socket, &json!({"type": "move", "id": man_move["id"]}));
    // The engine plans on its own clock, replies, and the user's clock runs again.
    let replied = until(&mut socket, "state", |s| {
        s["thinking"] == false && s["position"]["side"] == "white"
    });
    let clock = &replied["clock"];
    assert_eq!(clock["running"], "white", "{replied}");
    let black = clock["black_ms"].as_u64().expect("black's time");
    assert!(
        black > 0 && black <= SHORT_CLOCK_MS + 1_000,
        "black's clock after its move: {clock}"
    );
    assert!(replied["result"].is_null());
    // No review while the clocks run.
    send(&mut socket, &json!({"type": "review"}));
    let refused = until(&mut socket, "error", |_| true);
    assert!(
        refused["message"]
            .as_str()
            .is_some_and(|m| m.contains("on the clock")),
        "{refused}"
    );
    // The user lets the clock run out: the game is lost on time and says so.
    let over = until(&mut socket, "state", |s| !s["result"].is_null());
    let result = over["result"].as_str().expect("a result");
    assert!(
        result.contains("white ran out of time") && result.starts_with("0-2"),
        "{result}"
    );
    assert_eq!(over["clock"]["white_ms"], 0);
    assert!(over["clock"]["running"].is_null());
    assert!(legal(&over).is_empty());
    send(&mut socket, &json!({"type": "save_pdn"}));
    let pdn = until(&mut socket, "pdn", |_| true);
    let text = pdn["text"].as_str().expect("PDN");
    assert!(text.contains("[Result \"0-2\"]"), "{text}");
    // Back to a time per move: no clock.
    send(
        &mut socket,
        &json!({"type": "settings", "mode": "play", "engine": "black", "seconds": 1}),
    );
    let untimed = until(&mut socket, "state", |_| true);
    assert!(untimed["clock"].is_null() && untimed["result"].is_null());
}

#[test]
fn a_loaded_game_is_reviewed_with_marks_and_a_graph() {
    let server = Server::start();
    let (mut socket, _) = tab(&server);
    send(
        &mut socket,
        &json!({"type": "settings", "mode": "analyse", "engine": "black", "seconds": 1}),
    );
    send(
        &mut socket,
        &json!({"type": "load_pdn", "text": SHORT_GAME}),
    );
    until(&mut socket, "state", |s| s["ply"] == SHORT_GAME_PLIES);
    // Stepped back to the start: the review still takes the whole game.
    send(&mut socket, &json!({"type": "goto", "ply": 0}));
    until(&mut socket, "state", |s| {
        s["ply"] == 0 && s["forward"] == true
    });
    send(&mut socket, &json!({"type": "review"}));
    let reviewing = until(&mut socket, "state", |s| s["reviewing"] == true);
    assert_eq!(reviewing["thinking"], false);
    let progress = until(&mut socket, "review_progress", |_| true);
    assert_eq!(progress["total"], SHORT_GAME_PLIES + 1);
    let review = until(&mut socket, "review", |_| true);
    let moves = review["moves"].as_array().expect("reviewed moves");
    assert_eq!(moves.len(), SHORT_GAME_PLIES, "{review}");
    assert_eq!(moves[0]["number"], "1.");
    assert_eq!(moves[0]["text"], "32-28");
    let blunder = &moves[BLUNDER_PLY];
    assert_eq!(blunder["text"], "28-23");
    assert!(
        blunder["mark"] == "??" || blunder["mark"] == "?",
        "28-23 gives two men away: {blunder}"
    );
    let graph = review["graph"].as_str().expect("graph");
    assert!(
        graph.starts_with("<svg") && graph.contains("eval-line"),
        "{graph}"
    );
    assert!(graph.contains("class=\"mark\""), "{graph}");
    let done = until(&mut socket, "state", |_| true);
    assert_eq!(done["reviewing"], false);
    assert_eq!(done["reviewed"], true);
    // A move of the review steps there; the review still holds.
    send(&mut socket, &json!({"type": "goto", "ply": 3}));
    let stepped = until(&mut socket, "state", |s| s["ply"] == 3);
    assert_eq!(stepped["reviewed"], true);
    assert_eq!(stepped["position"]["moves"], "1. 32-28 17-21 2. 37-32");
    send(
        &mut socket,
        &json!({"type": "goto", "ply": SHORT_GAME_PLIES + 1}),
    );
    until(&mut socket, "error", |_| true);
    // Another game: the review no longer holds.
    send(
        &mut socket,
        &json!({"type": "new", "variant": "international"}),
    );
    let fresh = until(&mut socket, "state", |s| s["position"]["moves"] == "");
    assert_eq!(fresh["reviewed"], false);
    send(&mut socket, &json!({"type": "review"}));
    let error = until(&mut socket, "error", |_| true);
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("no moves"))
    );
}

/// Waits until the server has no thread named `name` left.
fn no_thread_left(server: &Server, name: &str) {
    let started = Instant::now();
    while cfg!(target_os = "linux") && threads_named(server.pid(), name) > 0 {
        assert!(
            started.elapsed() < ENGINE_TIMEOUT,
            "a {name} thread of a closed tab or ended review is still running"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_review_cancelled_or_left_mid_way_leaves_no_thread() {
    let mut server = Server::start();
    let (mut socket, _) = tab(&server);
    send(&mut socket, &json!({"type": "load_pdn", "text": LONG_GAME}));
    until(&mut socket, "state", |s| s["ply"] == LONG_GAME_PLIES);
    send(&mut socket, &json!({"type": "review"}));
    until(&mut socket, "review_progress", |_| true);
    // (The search may run helper threads, which bear the name of the thread that started them.)
    if cfg!(target_os = "linux") {
        assert!(threads_named(server.pid(), REVIEW_THREAD) >= 1);
    }
    send(&mut socket, &json!({"type": "cancel_review"}));
    let cancelled = until(&mut socket, "state", |s| s["reviewing"] == false);
    assert_eq!(cancelled["reviewed"], false);
    no_thread_left(&server, REVIEW_THREAD);
    send(&mut socket, &json!({"type": "cancel_review"}));
    until(&mut socket, "error", |_| true);
    // Again, and the tab goes away mid-review without a close frame.
    send(&mut socket, &json!({"type": "review"}));
    until(&mut socket, "review_progress", |_| true);
    drop(socket);
    no_thread_left(&server, REVIEW_THREAD);
    no_thread_left(&server, SEARCH_THREAD);
    still_serves(&mut server);
}

#[test]
fn a_tab_that_vanishes_mid_search_leaves_no_search_thread() {
    let mut server = Server::start();
    let (mut socket, _) = tab(&server);
    send(
        &mut socket,
        &json!({"type": "settings", "mode": "analyse", "engine": "black", "seconds": 1}),
    );
    let info = until(&mut socket, "info", |_| true);
    assert!(info["score"].as_str().is_some_and(|s| !s.is_empty()));
    if cfg!(target_os = "linux") {
        assert_eq!(threads_named(server.pid(), SEARCH_THREAD), 1);
    }
    // Gone without a close frame.
    drop(socket);
    let started = Instant::now();
    while cfg!(target_os = "linux") && threads_named(server.pid(), SEARCH_THREAD) > 0 {
        assert!(
            started.elapsed() < ENGINE_TIMEOUT,
            "the search of a closed tab must stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    still_serves(&mut server);
}

/// Browser window for the page.
const WINDOW: (u32, u32) = (1200, 860);
/// Dark squares of the board (`src/diagram/mod.rs`), as the screenshot shows them.
const DARK_SQUARE: [u8; 3] = [0xa4, 0x70, 0x3f];
/// Anti-aliasing and colour management move colours a little.
const TOLERANCE: u8 = 6;

/// The bit of square `number` of international draughts (the diagram's `data-bit`).
fn bit(number: u32) -> u32 {
    use rafle::core::Geometry;
    use rafle::rules::{International, Rules};
    rafle::notation::squares::square_of_number::<International>(number)
        .and_then(<International as Rules>::Geometry::bit_of)
        .expect("a square")
}

#[test]
#[cfg_attr(
    not(all(rafle_has_chromium, rafle_has_chromedriver)),
    ignore = "needs Chromium and chromedriver: apt-get install chromium chromium-driver"
)]
fn play_and_analyse_in_a_browser() {
    let driver = common::webdriver::Driver::start(WINDOW.0, WINDOW.1);
    let server = Server::start();
    driver.goto(&server.url());
    driver.wait_for(
        "return document.querySelectorAll('#board rect.square').length === 50 \
         && document.getElementById('status').textContent.includes('your move');",
        ENGINE_TIMEOUT,
    );
    // A man move by clicking: the man on 32, then the empty square 28.
    driver.click(&format!("#board g.piece[data-bit=\"{}\"]", bit(32)));
    driver.wait_for(
        &format!(
            "return document.querySelectorAll('#board rect.square.target').length === 2 \
             && !!document.querySelector('#board rect.square.target[data-bit=\"{}\"]');",
            bit(28)
        ),
        ENGINE_TIMEOUT,
    );
    driver.click(&format!("#board rect.square[data-bit=\"{}\"]", bit(28)));
    // Rafle's reply appears on the board: two moves played, White to move, the reply's arrow.
    driver.wait_for(
        "return document.body.dataset.plies === '2' && document.body.dataset.fen.startsWith('W:') \
         && !!document.querySelector('#board polyline.arrow');",
        ENGINE_TIMEOUT,
    );
    let moves = driver.run("return document.getElementById('moves').textContent;");
    assert!(
        moves.as_str().is_some_and(|m| m.starts_with("1. 32-28 ")),
        "{moves}"
    );
    // On a one-minute clock, a new game: both clocks shown, White's running.
    driver.run(
        "document.getElementById('time-kind').value = 'clock'; \
         document.getElementById('minutes').value = 1; \
         document.getElementById('increment').value = 0; \
         document.getElementById('time-kind').dispatchEvent(new Event('change'));",
    );
    driver.wait_for(
        "return !document.getElementById('clocks').hidden \
         && document.getElementById('clock-white').classList.contains('running');",
        ENGINE_TIMEOUT,
    );
    driver.click("#new");
    driver.wait_for(
        "return document.body.dataset.plies === '0' \
         && document.getElementById('status').textContent.includes('your move');",
        ENGINE_TIMEOUT,
    );
    // A man move by dragging: the man on 33 taken along, its two destinations lit, dropped on 29.
    driver.press(&format!("#board g.piece[data-bit=\"{}\"]", bit(33)));
    driver.move_to(&format!("#board rect.square[data-bit=\"{}\"]", bit(38)));
    driver.wait_for(
        &format!(
            "return document.querySelectorAll('#board rect.square.target').length === 2 \
             && !!document.querySelector('#board rect.square.target[data-bit=\"{}\"]') \
             && !!document.querySelector('#board g.piece.dragging');",
            bit(29)
        ),
        ENGINE_TIMEOUT,
    );
    driver.move_to(&format!("#board rect.square[data-bit=\"{}\"]", bit(29)));
    driver.release();
    // Rafle replies on its clock: its time is charged, White's clock runs again.
    driver.wait_for(
        "return document.body.dataset.plies === '2' \
         && document.getElementById('moves').textContent.startsWith('1. 33-29 ') \
         && Number(document.body.dataset.clockBlack) < 60000 \
         && document.getElementById('clock-white').classList.contains('running');",
        ENGINE_TIMEOUT,
    );
    keep_screenshot(&driver, "serve-play.png");
    let bar_before = driver.run("return Number(document.body.dataset.bar || 0.5);");
    // Analysis of a FEN where White is far ahead: the bar fills with White.
    driver.click("input[name=mode][value=analyse]");
    let fen = "W:W31,32,33,34,35,36:B5";
    driver.type_into("#fen", fen);
    driver.click("#set-fen");
    driver.wait_for(
        &format!(
            "return document.body.dataset.fen === '{fen}' && Number(document.body.dataset.bar) > 0.9;"
        ),
        ENGINE_TIMEOUT,
    );
    let bar_after = driver.run("return Number(document.body.dataset.bar);");
    assert!(
        bar_after.as_f64().unwrap_or(0.0) > bar_before.as_f64().unwrap_or(1.0),
        "the bar moved from {bar_before} to {bar_after}"
    );
    driver.wait_for(
        "return document.getElementById('pv').textContent.length > 0;",
        ENGINE_TIMEOUT,
    );
    // Three lines asked for: the page lists three, each with its score and line.
    driver.run(
        "const lines = document.getElementById('lines'); lines.value = 3; \
         lines.dispatchEvent(new Event('change'));",
    );
    driver.wait_for(
        "return document.querySelectorAll('#lines-shown li').length === 3;",
        ENGINE_TIMEOUT,
    );
    keep_screenshot(&driver, "serve-analysis.png");
    // A short game loaded from a file and reviewed: the mistake marked, the graph drawn, and a
    // move of the review steps there.
    let pdn = std::env::temp_dir().join(format!("rafle-serve-review-{}.pdn", std::process::id()));
    std::fs::write(&pdn, SHORT_GAME).expect("the PDN file");
    driver.type_into("#load", &pdn.display().to_string());
    driver.wait_for(
        &format!("return document.body.dataset.plies === '{SHORT_GAME_PLIES}';"),
        ENGINE_TIMEOUT,
    );
    let _ = std::fs::remove_file(&pdn);
    driver.click("#review");
    driver.wait_for(
        &format!(
            "return document.querySelectorAll('#review-moves .review-move').length === {SHORT_GAME_PLIES} \
             && document.body.dataset.reviewed === 'true' \
             && !!document.querySelector('#review-moves .m-mistake, #review-moves .m-blunder') \
             && !!document.querySelector('#review-graph svg polyline.eval-line') \
             && !!document.querySelector('#review-graph svg circle.mark');"
        ),
        ENGINE_TIMEOUT,
    );
    driver.click("#review-moves .review-move[data-ply=\"3\"]");
    driver.wait_for(
        "return document.body.dataset.plies === '3' \
         && document.querySelector('#review-moves .review-move.current').dataset.ply === '3';",
        ENGINE_TIMEOUT,
    );
    // The middle of the graph is the middle of the game.
    driver.click("#review-graph svg");
    driver.wait_for(
        &format!(
            "return document.body.dataset.plies === '{}' \
             && document.getElementById('pv').textContent.length > 0;",
            SHORT_GAME_PLIES / 2
        ),
        ENGINE_TIMEOUT,
    );
    keep_screenshot(&driver, "serve-review.png");
    // A bad FEN: an error on the page, the tab goes on.
    driver.type_into("#fen", "x");
    driver.click("#set-fen");
    driver.wait_for(
        "return !document.getElementById('error').hidden;",
        ENGINE_TIMEOUT,
    );
    let shot = common::browser::decode(&driver.screenshot());
    assert_eq!(shot.width, WINDOW.0);
    assert!(shot.colours() > 10, "the screenshot is blank");
    assert!(
        shot.count_near(DARK_SQUARE, TOLERANCE) > 10_000,
        "no board in the screenshot"
    );
}

/// Keeps a screenshot for the README when `RAFLE_SERVE_SCREENSHOTS` names a directory.
fn keep_screenshot(driver: &common::webdriver::Driver, name: &str) {
    if let Some(dir) = std::env::var_os("RAFLE_SERVE_SCREENSHOTS") {
        let path = std::path::Path::new(&dir).join(name);
        std::fs::write(path, driver.screenshot()).expect("screenshot written");
    }
}
