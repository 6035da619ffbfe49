//! DXP sessions on the loopback interface against the real `rafle dxp` binary: rafle against
//! rafle in both roles, a scripted peer that misbehaves in every way we know of, the `DxpPeer`
//! client API, and pydraughts' `DXPEngine` (tools/dxp_client.py) when its venv is there.

mod common;

use rafle::core::Color;
use rafle::dxp::message::{Message, MoveMessage};
use rafle::dxp::{DxpPeer, PeerEvent};
use rafle::position::Position;
use rafle::rules::International;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long any expected message or line may take before the test fails.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);
/// Pause between the pieces of a message sent in several writes.
const SPLIT_PAUSE: Duration = Duration::from_millis(30);

/// A `rafle dxp` process and its stdout lines.
struct Rafle {
    child: Child,
    lines: Receiver<String>,
    /// stderr lines, when the process logs.
    log: Option<Receiver<String>>,
}

/// The lines of a pipe, on a channel.
fn line_channel(pipe: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

impl Rafle {
    fn start(args: &[&str]) -> Rafle {
        Self::spawn(args, None)
    }

    /// Starts rafle with `RUST_LOG=<filter>`, keeping its stderr.
    fn start_logged(args: &[&str], filter: &str) -> Rafle {
        Self::spawn(args, Some(filter))
    }

    fn spawn(args: &[&str], log_filter: Option<&str>) -> Rafle {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rafle"));
        command.arg("dxp").args(args).stdout(Stdio::piped());
        match log_filter {
            Some(filter) => command.env("RUST_LOG", filter).stderr(Stdio::piped()),
            None => command.stderr(Stdio::null()),
        };
        let mut child = command.spawn().expect("rafle starts");
        let lines = line_channel(child.stdout.take().expect("stdout"));
        let log = child.stderr.take().map(line_channel);
        Rafle { child, lines, log }
    }

    /// Starts a listener on an ephemeral loopback port and returns it with its address.
    fn listen(args: &[&str]) -> (Rafle, String) {
        let mut all = vec!["--listen", "127.0.0.1:0"];
        all.extend_from_slice(args);
        let rafle = Rafle::start(&all);
        let first = rafle.line();
        let address = first
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("first line: {first}"))
            .to_string();
        (rafle, address)
    }

    fn line(&self) -> String {
        self.lines
            .recv_timeout(REPLY_TIMEOUT)
            .expect("a line from rafle in time")
    }

    /// Every remaining stdout line, once the process has ended with success.
    fn finish(self) -> Vec<String> {
        let (ok, lines, _) = self.finish_logged();
        assert!(ok, "{lines:?}");
        lines
    }

    /// Exit success, the remaining stdout lines and the stderr lines (if logged).
    fn finish_logged(mut self) -> (bool, Vec<String>, Vec<String>) {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            assert!(Instant::now() < deadline, "rafle did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        let log = self.log.as_ref().map(drain).unwrap_or_default();
        (status.success(), drain(&self.lines), log)
    }
}

/// The lines of a channel until its reader thread hangs up (the pipe's end).
fn drain(lines: &Receiver<String>) -> Vec<String> {
    let mut all = Vec::new();
    while let Ok(line) = lines.recv_timeout(REPLY_TIMEOUT) {
        all.push(line);
    }
    all
}

impl Drop for Rafle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Game report lines (`game N: ...`) and the summary line of a finished process.
fn reports(lines: &[String]) -> (Vec<&String>, &String) {
    let games = lines.iter().filter(|l| l.starts_with("game ")).collect();
    let summary = lines.last().expect("a summary line");
    assert!(summary.starts_with("games "), "{lines:?}");
    (games, summary)
}

/// A game report that ended normally, by the rules: a result and no protocol trouble.
fn assert_regular(report: &str) {
    for bad in ["*", "forfeit", "protocol", "connection", "peer"] {
        assert!(!report.contains(bad), "{report}");
    }
}

#[test]
fn rafle_follower_against_rafle_initiator() {
    let (follower, address) = Rafle::listen(&["--depth", "2", "--games", "2"]);
    let initiator = Rafle::start(&["--connect", &address, "--depth", "3", "--games", "2"]);
    let initiator_lines = initiator.finish();
    let follower_lines = follower.finish();
    let (initiator_games, initiator_summary) = reports(&initiator_lines);
    let (follower_games, follower_summary) = reports(&follower_lines);
    assert_eq!(initiator_games.len(), 2, "{initiator_lines:?}");
    assert_eq!(follower_games.len(), 2, "{follower_lines:?}");
    // Colours alternate, the initiator starting with White; both sides agree on each result.
    assert!(initiator_games[0].contains("we play white"));
    assert!(initiator_games[1].contains("we play black"));
    assert!(follower_games[0].contains("we play black"));
    for (ours, theirs) in initiator_games.iter().zip(&follower_games) {
        assert_regular(ours);
        assert_regular(theirs);
        let result = |line: &str| line.split(": ").nth(2).map(|s| s[..3].to_string());
        assert_eq!(result(ours), result(theirs), "{ours} / {theirs}");
    }
    assert!(initiator_summary.starts_with("games 2"));
    assert!(follower_summary.starts_with("games 2"));
}

#[test]
fn pondering_on_the_opponents_time() {
    // A fixed time per move, so that a ponder search is still running when the reply comes.
    let (ponderer, address) = {
        let rafle = Rafle::start_logged(
            &[
                "--listen",
                "127.0.0.1:0",
                "--ponder",
                "--move-time",
                "0.05",
                "--games",
                "1",
            ],
            "rafle::dxp=debug",
        );
        let first = rafle.line();
        let address = first["listening on ".len()..].to_string();
        (rafle, address)
    };
    // Twice the men: the game is decided in some 50 plies (without the FMJD counting rules, an
    // even game between equals may shuffle kings for a long time).
    let opponent = Rafle::start(&[
        "--connect",
        &address,
        "--move-time",
        "0.05",
        "--games",
        "1",
        "--fen",
        "W:W26-45:B1-10",
        "--color",
        "black",
    ]);
    opponent.finish();
    let (ok, lines, log) = ponderer.finish_logged();
    assert!(ok, "{lines:?}");
    let (games, _) = reports(&lines);
    assert_regular(games[0]);
    let hits = log.iter().filter(|l| l.contains("ponder hit")).count();
    let moves = log.iter().filter(|l| l.contains(": we play ")).count();
    assert!(hits > 0, "no ponder hit in {moves} moves");
}

#[test]
fn roles_swapped_and_a_start_position_with_black_to_move() {
    // The listener proposes the games, from a position with Black to move.
    let start = "B:W27,28,32,33,37,38,42,43,47,48:B3,8,9,12,13,14,18,19,23,24";
    let (initiator, address) = Rafle::listen(&[
        "--role",
        "initiator",
        "--fen",
        start,
        "--games",
        "2",
        "--depth",
        "2",
        "--color",
        "black",
    ]);
    let follower = Rafle::start(&["--connect", &address, "--role", "follower", "--depth", "2"]);
    let initiator_lines = initiator.finish();
    // The follower stops when the initiator says the match is over.
    let follower_lines = follower.finish();
    let (games, _) = reports(&initiator_lines);
    assert_eq!(games.len(), 2, "{initiator_lines:?}");
    assert!(games[0].contains("we play black"), "{}", games[0]);
    assert!(games[1].contains("we play white"), "{}", games[1]);
    for game in games {
        assert_regular(game);
    }
    let (games, summary) = reports(&follower_lines);
    assert_eq!(games.len(), 2, "{follower_lines:?}");
    assert!(summary.starts_with("games 2"), "{summary}");
}

/// A DXP peer scripted by the test, on a raw socket.
struct Script {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Script {
    fn connect(address: &str) -> Script {
        let stream = TcpStream::connect(address).expect("connects");
        stream.set_nodelay(true).expect("nodelay");
        Script {
            stream,
            buffer: Vec::new(),
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("rafle reads");
    }

    fn send(&mut self, message: &str) {
        self.send_bytes(format!("{message}\0").as_bytes());
    }

    /// The next message from rafle (an independent NUL splitter, not the library's).
    fn next(&mut self) -> String {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            if let Some(nul) = self.buffer.iter().position(|&b| b == 0) {
                let message: Vec<u8> = self.buffer.drain(..=nul).collect();
                return String::from_utf8(message[..nul].to_vec()).expect("ASCII");
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no message from rafle in time");
            self.stream.set_read_timeout(Some(left)).expect("timeout");
            let mut chunk = [0u8; 512];
            let count = self.stream.read(&mut chunk).expect("rafle's message");
            assert!(count > 0, "rafle closed the connection");
            self.buffer.extend_from_slice(&chunk[..count]);
        }
    }

    /// The next message, which must start with `prefix`.
    fn expect(&mut self, prefix: &str) -> String {
        let message = self.next();
        assert!(
            message.starts_with(prefix),
            "expected '{prefix}...', got '{message}'"
        );
        message
    }

    /// Whether rafle closes the connection (reads to the end of the stream).
    fn closed_by_rafle(&mut self) -> bool {
        self.stream
            .set_read_timeout(Some(REPLY_TIMEOUT))
            .expect("timeout");
        let mut rest = Vec::new();
        self.stream.read_to_end(&mut rest).is_ok()
    }
}

/// A game request: the follower (rafle) plays `follower`, 5 minutes, optional position.
fn request(follower: char, position: Option<&Position<International>>) -> String {
    let setup = match position {
        None => "A".to_string(),
        Some(position) => {
            let setup = rafle::dxp::message::board_of(position);
            let side = rafle::dxp::message::color_letter(setup.side);
            format!("B{side}{}", setup.squares)
        }
    };
    format!("R01{:<32}{follower}005000{setup}", "Script")
}

/// Our move `text` (Hub notation) in `position`, as a MOVE message; the position is advanced.
fn our_move(position: &mut Position<International>, text: &str) -> String {
    let mv = rafle::notation::text::parse(position, text).expect("legal");
    *position = position.play(&mv);
    Message::Move(MoveMessage::of(&mv, 1)).encode()
}

/// Reads rafle's MOVE and plays it on `position`, checking that it is legal.
fn their_move(script: &mut Script, position: &mut Position<International>) {
    let text = script.expect("M");
    let Ok(Message::Move(message)) = Message::decode(text.as_bytes()) else {
        panic!("bad move message '{text}'")
    };
    let mv = message
        .resolve(position)
        .unwrap_or_else(|| panic!("illegal move from rafle: {text}"));
    *position = position.play(&mv);
}

fn follower() -> (Rafle, String) {
    Rafle::listen(&["--depth", "2"])
}

#[test]
fn split_and_glued_messages_are_read() {
    let (_rafle, address) = follower();
    let mut script = Script::connect(&address);
    // A game request in three writes, cut inside the name and inside a number.
    let request = request('Z', None);
    script.send_bytes(&request.as_bytes()[..10]);
    std::thread::sleep(SPLIT_PAUSE);
    script.send_bytes(&request.as_bytes()[10..38]);
    std::thread::sleep(SPLIT_PAUSE);
    script.send_bytes(format!("{}\0", &request[38..]).as_bytes());
    let accept = script.expect("A");
    assert_eq!(accept.len(), 34);
    assert!(accept.ends_with('0'));
    // A chat, a move and another chat glued in one write.
    let mut position = Position::start();
    let first = our_move(&mut position, "32-28");
    script.send_bytes(format!("Chello\0{first}\0Cgood luck\0").as_bytes());
    their_move(&mut script, &mut position);
    // A move byte by byte.
    let legal = position.legal_moves()[0];
    let second = Message::Move(MoveMessage::of(&legal, 0)).encode();
    position = position.play(&legal);
    for byte in second.bytes().chain([0]) {
        script.send_bytes(&[byte]);
    }
    their_move(&mut script, &mut position);
    // Padding between messages from a sloppy peer is ignored.
    let legal = position.legal_moves()[0];
    let third = Message::Move(MoveMessage::of(&legal, 0)).encode();
    position = position.play(&legal);
    script.send_bytes(format!("\r\n{third}\0\r\n\0").as_bytes());
    their_move(&mut script, &mut position);
    script.send("E01");
    assert_eq!(script.next(), "E01");
    assert!(script.closed_by_rafle());
}

#[test]
fn unknown_types_get_a_chat_and_the_game_goes_on() {
    let (_rafle, address) = follower();
    let mut script = Script::connect(&address);
    script.send(&request('W', None));
    script.expect("A");
    let mut position = Position::start();
    their_move(&mut script, &mut position);
    script.send("X123");
    let chat = script.expect("C");
    assert!(chat.contains("error") && chat.contains('X'), "{chat}");
    // Out of place but harmless: a GAMEACC, a BACKACC.
    script.send("ASomeone                         0");
    assert!(script.expect("C").contains("error"));
    script.send("K0");
    let reply = any_move(&mut position);
    script.send(&reply);
    their_move(&mut script, &mut position);
    script.send("E01");
    assert_eq!(script.next(), "E01");
}

/// The first legal move of `position`, as a MOVE message; the position is advanced.
fn any_move(position: &mut Position<International>) -> String {
    let mv = position.legal_moves()[0];
    *position = position.play(&mv);
    Message::Move(MoveMessage::of(&mv, 0)).encode()
}

#[test]
fn an_illegal_move_forfeits_the_game_and_the_connection_goes_on() {
    let (_rafle, address) = follower();
    let mut script = Script::connect(&address);
    script.send(&request('Z', None));
    script.expect("A");
    // 32-23 is no move (two rows up, nothing to capture).
    script.send("M0001322300");
    let chat = script.expect("C");
    assert!(chat.contains("illegal move 32-23"), "{chat}");
    // Rafle claims the game (sender wins), another game may follow.
    assert_eq!(script.next(), "E30");
    script.send("E00");
    // The next game on the same connection.
    script.send(&request('Z', None));
    script.expect("A");
    let mut position = Position::start();
    let first = our_move(&mut position, "33-28");
    script.send(&first);
    their_move(&mut script, &mut position);
    // A malformed move (a captured count that does not match) ends the game without result.
    script.send("M0000282302");
    let chat = script.expect("C");
    assert!(chat.contains("bad message"), "{chat}");
    assert_eq!(script.next(), "E00");
    script.send("E01");
    assert!(script.closed_by_rafle());
}

#[test]
fn out_of_order_messages() {
    let (_rafle, address) = follower();
    let mut script = Script::connect(&address);
    // A move and a take-back outside a game.
    script.send("M0000322800");
    assert!(script.expect("C").contains("no game in progress"));
    script.send("B001W");
    assert!(script.expect("C").contains("no game in progress"));
    assert_eq!(script.next(), "K2");
    // Version 2 is refused with code 1, an illegal position with code 2.
    script.send(&request('Z', None).replacen("R01", "R02", 1));
    assert!(script.expect("A").ends_with('1'));
    let bad = format!(
        "R01{:<32}Z005000BW{}",
        "Script",
        "w".to_string() + &"e".repeat(49)
    );
    script.send(&bad);
    assert!(script.expect("C").contains("illegal position"));
    assert!(script.expect("A").ends_with('2'));
    // A move while rafle is to move: the game ends without result.
    script.send(&request('W', None));
    script.expect("A");
    let mut position = Position::start();
    their_move(&mut script, &mut position);
    let reply = any_move(&mut position);
    script.send(&format!("{reply}\0{reply}"));
    // Both arrive in one read: the second one comes while rafle thinks about the first.
    let message = script.expect("C");
    assert!(message.contains("our turn"), "{message}");
    assert_eq!(script.next(), "E00");
    script.send("E00");
    // A game request in the middle of a game abandons it for the new one.
    script.send(&request('W', None));
    script.expect("A");
    script.expect("M");
    script.send(&request('Z', None));
    assert!(script.expect("C").contains("abandoned"));
    script.expect("A");
    script.send("E01");
    assert_eq!(script.next(), "E01");
}

#[test]
fn garbage_without_nul_and_a_disconnect_mid_game() {
    let (_rafle, address) = follower();
    let mut script = Script::connect(&address);
    script.send(&request('Z', None));
    script.expect("A");
    // 10 kB without a NUL: one error, the game ends, rafle does not buffer it all.
    script.send_bytes(&[b'x'; 10_000]);
    assert!(script.expect("C").contains("without a NUL"));
    assert_eq!(script.next(), "E00");
    script.send_bytes(b"\0E00\0");
    // A new game, then we vanish in the middle of it.
    script.send(&request('W', None));
    script.expect("A");
    script.expect("M");
    drop(script);
    // The listener serves the next connection.
    let mut script = Script::connect(&address);
    script.send(&request('W', None));
    script.expect("A");
    script.expect("M");
    script.send("E01");
    assert_eq!(script.next(), "E01");
}

/// Rafle (White) takes Black's last piece with its only move, 28x17.
fn last_capture_game(script: &mut Script) {
    let position: Position<International> =
        rafle::notation::fen::parse("W:W28:B22").expect("a FEN");
    script.send(&request('W', Some(&position)));
    script.expect("A");
    let mut position = position;
    their_move(script, &mut position);
    assert!(position.legal_moves().is_empty());
}

#[test]
fn a_game_our_move_ends_waits_for_the_peer_on_turn_to_say_so() {
    let (rafle, address) = Rafle::listen(&["--depth", "2", "--games", "1"]);
    let mut script = Script::connect(&address);
    last_capture_game(&mut script);
    // As with Scan, the side on turn ends the game; rafle's GAMEEND is the acknowledgement, and
    // it never comes glued to the move (pydraughts reads one message per read).
    script.send("E10");
    assert_eq!(script.next(), "E31");
    let lines = rafle.finish();
    let (games, _) = reports(&lines);
    assert!(games[0].contains("2-0"), "{}", games[0]);
    assert_regular(games[0]);
}

#[test]
fn a_peer_that_moves_after_the_end_gets_our_game_end() {
    let (_rafle, address) = follower();
    let mut script = Script::connect(&address);
    last_capture_game(&mut script);
    // A peer that plays on (a move from a lost position cannot be legal): rafle ends the game.
    script.send("M0000474200");
    assert_eq!(script.next(), "E30");
    script.send("E00");
}

#[test]
fn a_silent_peer_gets_our_game_end_after_a_short_wait() {
    let (_rafle, address) = follower();
    let mut script = Script::connect(&address);
    last_capture_game(&mut script);
    assert_eq!(script.next(), "E30");
    script.send("E00");
}

#[test]
fn take_back_and_play_again() {
    let (_rafle, address) = follower();
    let mut script = Script::connect(&address);
    script.send(&request('W', None));
    script.expect("A");
    let mut position = Position::start();
    their_move(&mut script, &mut position);
    let reply = any_move(&mut position);
    script.send(&reply);
    their_move(&mut script, &mut position);
    // Back to move 1 with White (rafle) to move: it answers K0 and moves again.
    script.send("B001W");
    assert_eq!(script.next(), "K0");
    let mut position = Position::start();
    their_move(&mut script, &mut position);
    // Move 9 does not exist yet.
    script.send("B009Z");
    assert!(script.expect("C").contains("bad move number"));
    assert_eq!(script.next(), "K2");
    let reply = any_move(&mut position);
    script.send(&reply);
    their_move(&mut script, &mut position);
    script.send("E21");
    assert_eq!(script.next(), "E01");
}

#[test]
fn games_limit_and_the_end_of_the_match() {
    let (rafle, address) = Rafle::listen(&["--depth", "1", "--games", "1"]);
    let mut script = Script::connect(&address);
    script.send(&request('Z', None));
    script.expect("A");
    // We resign at once; rafle's acknowledgement says there is no next game.
    script.send("E10");
    assert_eq!(script.next(), "E01");
    assert!(script.closed_by_rafle());
    let lines = rafle.finish();
    let (games, summary) = reports(&lines);
    // Rafle played Black and won.
    assert!(
        games[0].contains("0-2") && games[0].contains("resigns"),
        "{}",
        games[0]
    );
    assert_eq!(summary, "games 1 wins 1 draws 0 losses 0 unknown 0");
}

#[test]
fn dxp_peer_api_plays_a_complete_game() {
    let (rafle, address) = Rafle::listen(&["--depth", "2", "--games", "1"]);
    let mut peer = DxpPeer::connect(&address, "API test").expect("connects");
    let mut position = Position::<International>::start();
    peer.request_game(&position, Color::Black, 5, 0)
        .expect("accepted");
    assert!(peer.remote_name().starts_with("Rafle"));
    let mut plies = 0;
    let end = loop {
        if position.side() == Color::White {
            // Our side: the first legal move, a weak but legal player.
            let Some(&mv) = position.legal_moves().first() else {
                break None;
            };
            peer.send_move(&mv, 0).expect("sent");
            position = position.play(&mv);
        } else {
            match peer.next_move(&position, REPLY_TIMEOUT).expect("a reply") {
                PeerEvent::Move { mv, .. } => position = position.play(&mv),
                PeerEvent::GameEnd(end) => break Some(end),
            }
        }
        plies += 1;
        assert!(plies < 1000, "the game does not end");
    };
    // Either rafle ended the game (it won: the first-legal-move player has lost), or we have no
    // move left and end it ourselves.
    match end {
        Some(end) => assert_eq!(end.reason, rafle::dxp::message::EndReason::SenderWins),
        None => {
            let answer = peer
                .end_game(rafle::dxp::message::EndReason::SenderLoses, true)
                .expect("sent");
            assert!(answer.is_some());
        }
    }
    drop(peer);
    let lines = rafle.finish();
    assert!(
        lines.iter().any(|l| l.contains("2-0") || l.contains("0-2")),
        "{lines:?}"
    );
}

#[test]
#[cfg_attr(
    not(rafle_has_pydraughts),
    ignore = "needs pydraughts: python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts && touch build.rs"
)]
fn pydraughts_dxp_engine_plays_a_game() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = common::python_with_pydraughts();
    let (rafle, address) = Rafle::listen(&["--depth", "2", "--games", "1"]);
    let port = address.rsplit(':').next().expect("a port");
    let output = Command::new(python)
        .arg(root.join("tools/dxp_client.py"))
        .args([
            "--port",
            port,
            "--opponent-engine",
            env!("CARGO_BIN_EXE_rafle"),
            "--depth",
            "1",
        ])
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("game 1: ok"), "{stdout}");
    rafle.finish();
}

#[test]
fn silent_peers_are_given_up() {
    let (_rafle, address) = Rafle::listen(&["--depth", "1", "--idle-timeout", "1"]);
    // Connected, but no game request: the connection is closed after the idle timeout.
    let mut script = Script::connect(&address);
    assert!(script.closed_by_rafle());
    // A game without time (as pydraughts asks by default) in which we never move.
    let mut script = Script::connect(&address);
    script.send(&request('Z', None).replacen("005000", "000000", 1));
    script.expect("A");
    assert!(script.expect("C").contains("abandoned"));
    assert_eq!(script.next(), "E01");
    script.send("E00");
    assert!(script.closed_by_rafle());
    // And the listener still serves.
    let mut script = Script::connect(&address);
    script.send(&request('W', None));
    script.expect("A");
    script.expect("M");
}

#[test]
fn a_game_cut_by_a_disconnect_counts_towards_the_games_limit() {
    let (rafle, address) = Rafle::listen(&["--depth", "1", "--games", "1"]);
    let mut script = Script::connect(&address);
    script.send(&request('W', None));
    script.expect("A");
    script.expect("M");
    drop(script);
    let lines = rafle.finish();
    let (games, summary) = reports(&lines);
    assert!(
        games[0].contains('*') && games[0].contains("connection lost"),
        "{}",
        games[0]
    );
    assert_eq!(summary, "games 1 wins 0 draws 0 losses 0 unknown 1");
}

/// The score of a fresh engine's search of the start position to `depth`.
fn start_score<E>(engine: rafle::search::Engine<International, E>, depth: u32) -> String
where
    E: rafle::eval::Evaluator<International>,
{
    use rafle::search::{Limits, Mode, Root, SearchControl};
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let root = Root::new(Position::start());
    let outcome = engine.search(&root, &limits, Mode::Think, &SearchControl::new(), |_| {});
    rafle::score::to_men(outcome.score)
}

#[test]
fn rafle_plays_dxp_with_the_default_evaluation() {
    use rafle::eval::{Eval, HandCrafted, weights_file::EMBEDDED_NAME};
    use rafle::search::Engine;

    // Issue 38: `rafle dxp` played with the hand-crafted evaluation while the Hub played with the
    // patterns. Rafle plays White from the start to a fixed depth; its log says which
    // evaluation its engine was built with and the score of each iteration, and the score at
    // that depth must be the one the default evaluation gives, not the hand-crafted one.
    const DEPTH: u32 = 4;
    let rafle = Rafle::start_logged(
        &[
            "--listen",
            "127.0.0.1:0",
            "--depth",
            &DEPTH.to_string(),
            "--games",
            "1",
        ],
        "rafle::player::options=info,rafle::dxp=debug",
    );
    let first = rafle.line();
    let address = first["listening on ".len()..].to_string();
    let mut script = Script::connect(&address);
    script.send(&request('W', None));
    script.expect("A");
    script.expect("M");
    drop(script);
    let (ok, lines, log) = rafle.finish_logged();
    assert!(ok, "{lines:?}");
    let evaluations: Vec<&str> = log
        .iter()
        .filter_map(|line| line.split_once("evaluation: ").map(|(_, name)| name))
        .collect();
    assert_eq!(evaluations, [EMBEDDED_NAME], "{log:?}");
    let iteration = format!("depth {DEPTH} score ");
    let played = log
        .iter()
        .find_map(|line| line.split_once(&iteration))
        .map(|(_, rest)| rest.split_whitespace().next().expect("a score"))
        .unwrap_or_else(|| panic!("no depth {DEPTH} in {log:?}"));
    let patterns = start_score(
        rafle::player::options::engine_at_most::<International>(Eval::default_eval(), 1, 16),
        DEPTH,
    );
    let hand = start_score(
        Engine::<International, HandCrafted>::with_evaluator(HandCrafted, 16, 1),
        DEPTH,
    );
    // Else the score could not tell the evaluations apart.
    assert_ne!(patterns, hand);
    assert_eq!(played, patterns, "hand-crafted: {hand}");
}

#[test]
fn remote_engine_plays_games_for_a_referee() {
    use rafle::dxp::RemoteEngine;
    use rafle::dxp::message::EndReason;
    use rafle::eval::HandCrafted;
    use rafle::game::Game;
    use rafle::search::{Engine, Limits, Mode, Root, SearchControl};

    let (rafle, address) = Rafle::listen(&["--depth", "1", "--games", "2"]);
    let mut remote = RemoteEngine::new(&address, "Referee", 1);
    // Named, as the engine has no default evaluation: the referee's edge is its depth (below).
    let local = Engine::<International, HandCrafted>::with_evaluator(HandCrafted, 16, 1);
    let limits = Limits {
        // Stronger than the remote engine, so that our side makes the last move (which the
        // remote engine must still be told).
        depth: Some(3),
        ..Limits::default()
    };
    let mut results = Vec::new();
    for game_number in 0..2 {
        // The remote engine plays Black in the first game, White in the second; a two-ply
        // opening is played before its first turn in the second game.
        let mut game = Game::<International>::new(Position::start());
        let remote_color = if game_number == 0 {
            Color::Black
        } else {
            Color::White
        };
        if game_number == 1 {
            game.play_text("32-28").expect("legal");
            game.play_text("19-23").expect("legal");
        }
        let result = loop {
            if let Some(end) = game.result() {
                break end.result;
            }
            if game.position().side() == remote_color {
                match remote
                    .think(game.start(), game.moves(), 0, REPLY_TIMEOUT)
                    .expect("a reply")
                {
                    PeerEvent::Move { mv, .. } => game.play(&mv).expect("legal"),
                    PeerEvent::GameEnd(end) => panic!("the remote ended the game: {end:?}"),
                }
            } else {
                let root = Root::from_game(&game);
                let outcome =
                    local.search(&root, &limits, Mode::Think, &SearchControl::new(), |_| {});
                game.play(&outcome.best.expect("a move")).expect("legal");
            }
            assert!(game.ply_count() < 2000, "the game does not end");
        };
        let reason = EndReason::of(result, !remote_color);
        // Rafle sees the end too (it gets the last move if it was ours) and sends its own
        // GAMEEND, which crosses ours.
        remote.end_game(game.moves(), reason, game_number == 1);
        results.push(result);
    }
    drop(remote);
    let lines = rafle.finish();
    let (games, summary) = reports(&lines);
    assert_eq!(games.len(), 2, "{lines:?}");
    assert!(games[0].contains("we play black"));
    assert!(games[1].contains("we play white"));
    for game in games {
        assert_regular(game);
    }
    assert!(summary.starts_with("games 2"), "{summary}");
}

#[test]
fn random_bytes_neither_crash_nor_stop_the_follower() {
    let (mut rafle, address) = follower();
    let mut script = Script::connect(&address);
    // Deterministic noise (xorshift): 400 frames of random bytes, NULs between them.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut noise = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut bytes = Vec::new();
    for _ in 0..400 {
        let length = 1 + noise() % 150;
        bytes.extend((0..length).map(|_| (noise() % 255) as u8 + 1));
        bytes.push(0);
    }
    script.send_bytes(&bytes);
    // Rafle answered with chats (and refusals); then it still accepts a game.
    script.send(&request('Z', None));
    let deadline = Instant::now() + REPLY_TIMEOUT;
    while !script.next().starts_with("ARafle") {
        assert!(Instant::now() < deadline, "no acceptance");
    }
    script.send("E01");
    while script.next() != "E01" {
        assert!(Instant::now() < deadline, "no acknowledgement");
    }
    assert!(
        rafle.child.try_wait().expect("wait").is_none(),
        "rafle exited"
    );
}
