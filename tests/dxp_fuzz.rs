//! Seeded fuzz of DXP input: the message decoder and the NUL deframer on random and mutated
//! bytes (never a panic; decoding what encoding wrote gives it back; the buffer stays bounded),
//! then the real `rafle dxp --listen` served hostile sessions (random bytes, mutated messages,
//! oversized runs, writes split anywhere, abrupt disconnects) and still accepting a clean game.
//!
//! `RAFLE_DXP_FUZZ_INPUTS` and `RAFLE_DXP_FUZZ_SESSIONS` scale the runs.

use rafle::dxp::framing::{Deframer, Frame, MAX_FRAME_BYTES};
use rafle::dxp::message::Message;
use rafle::position::Position;
use rafle::rules::International;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Inputs tried by the decoder test in CI.
const DEFAULT_INPUTS: u64 = 200_000;
/// Hostile sessions against the listener in CI.
const DEFAULT_SESSIONS: u64 = 25;
/// How long rafle may take to react to a session's end or a clean request.
const REPLY_TIMEOUT: Duration = Duration::from_secs(20);
/// Valid messages to mutate (Scan's, as in `src/dxp/message.rs`).
const SEEDS: [&str; 12] = [
    "R01Scan 3.1                        Z001020A",
    "R01Scan 3.1                        W001020A",
    "A01Kingsrow                        0",
    "M0000332900",
    "M000028170122",
    "M00033919022434",
    "M0002071100",
    "E00",
    "E21",
    "Cgame ended (20 moves played, unknown result, last eval = +0.03)",
    "B012Z",
    "K2",
];

/// xorshift64*.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> usize {
        (self.next() % n.max(1)) as usize
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// A random input: pure noise, or a valid message mutated (bytes changed, inserted, cut,
/// digits swapped for other digits so that the fields stay plausible).
fn input(random: &mut Random) -> Vec<u8> {
    if random.below(4) == 0 {
        let length = random.below(200);
        return (0..length).map(|_| random.next() as u8).collect();
    }
    let mut bytes = SEEDS[random.below(SEEDS.len() as u64)].as_bytes().to_vec();
    for _ in 0..1 + random.below(4) {
        if bytes.is_empty() {
            break;
        }
        let at = random.below(bytes.len() as u64);
        match random.below(5) {
            0 => bytes[at] = random.next() as u8,
            1 => bytes[at] = b'0' + random.below(10) as u8,
            2 => bytes.insert(at, random.next() as u8),
            3 => {
                bytes.remove(at);
            }
            _ => bytes.truncate(at),
        }
    }
    bytes
}

#[test]
fn decoder_and_deframer_never_panic() {
    let count = env_number("RAFLE_DXP_FUZZ_INPUTS", DEFAULT_INPUTS);
    let mut random = Random(0xD0E5_1DEA_F00D_CAFE);
    let start = Position::<International>::start();
    let mut decoded = 0u64;
    let mut deframer = Deframer::new();
    let mut frames = Vec::new();
    for _ in 0..count {
        let bytes = input(&mut random);
        if let Ok(message) = Message::decode(&bytes) {
            decoded += 1;
            let text = message.encode();
            let again = Message::decode(text.as_bytes())
                .unwrap_or_else(|e| panic!("'{text}' (from {bytes:?}) does not decode: {e}"));
            assert_eq!(again.encode(), text, "from {bytes:?}");
            if let Message::Move(mv) = &message {
                let _ = mv.resolve(&start);
                let _ = mv.notation();
            }
        }
        // The same bytes through the deframer, NUL-terminated or not, in two reads.
        let mut stream = bytes.clone();
        if random.below(2) == 0 {
            stream.push(0);
        }
        let cut = random.below(stream.len() as u64 + 1);
        deframer.feed(&stream[..cut], &mut frames);
        deframer.feed(&stream[cut..], &mut frames);
        assert!(deframer.pending() <= MAX_FRAME_BYTES);
        for frame in frames.drain(..) {
            if let Frame::Message(message) = frame {
                assert!(message.len() <= MAX_FRAME_BYTES);
                let _ = Message::decode(&message);
            }
        }
    }
    // An endless run without NUL stays bounded.
    let noise = vec![b'x'; 3 * MAX_FRAME_BYTES];
    for _ in 0..10 {
        deframer.feed(&noise, &mut frames);
        assert!(deframer.pending() <= MAX_FRAME_BYTES);
    }
    eprintln!("dxp fuzz: {count} inputs decoded and deframed, {decoded} were valid messages");
    assert!(
        decoded > count / 100,
        "the mutations stay close enough to be read"
    );
}

/// `rafle dxp --listen` on an ephemeral port.
struct Listener {
    child: std::process::Child,
    address: String,
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn listen() -> Listener {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(["dxp", "--listen", "127.0.0.1:0", "--depth", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("rafle starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("first line");
    let address = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first line: {first}"))
        .to_string();
    // Keep reading stdout so that rafle's game lines never block it.
    std::thread::spawn(move || for _ in stdout.lines() {});
    Listener { child, address }
}

/// Reads what rafle sends until it closes the connection or the deadline passes; the messages.
fn drain(stream: &mut TcpStream, deadline: Instant) -> Vec<Vec<u8>> {
    let mut deframer = Deframer::new();
    let mut frames = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        stream.set_read_timeout(Some(left)).expect("timeout");
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(count) => deframer.feed(&chunk[..count], &mut frames),
        }
    }
    frames
        .into_iter()
        .filter_map(|frame| match frame {
            Frame::Message(message) => Some(message),
            Frame::Oversized { .. } => None,
        })
        .collect()
}

#[test]
fn listener_survives_hostile_sessions() {
    let sessions = env_number("RAFLE_DXP_FUZZ_SESSIONS", DEFAULT_SESSIONS);
    let mut random = Random(0x0BAD_5EED_1234_5678);
    let mut listener = listen();
    let mut sent_inputs = 0u64;
    for session in 0..sessions {
        let mut stream = TcpStream::connect(&listener.address).expect("connects");
        stream.set_nodelay(true).expect("nodelay");
        let mut bytes = Vec::new();
        if random.below(2) == 0 {
            bytes.extend_from_slice(SEEDS[random.below(2) as u64 as usize].as_bytes());
            bytes.push(0);
        }
        for _ in 0..random.below(60) {
            match random.below(10) {
                0 => bytes.resize(bytes.len() + MAX_FRAME_BYTES + random.below(9000), b'M'),
                1 => bytes.extend(std::iter::repeat_n(0u8, random.below(50))),
                _ => bytes.extend(input(&mut random)),
            }
            bytes.push(0);
            sent_inputs += 1;
        }
        // Written in random pieces; a peer that has had enough may close before the end.
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let piece = 1 + random.below(rest.len().min(700) as u64);
            if stream.write_all(&rest[..piece]).is_err() {
                break;
            }
            rest = &rest[piece..];
        }
        if random.below(3) == 0 {
            // An abrupt end: no shutdown, the socket is just dropped.
            drop(stream);
        } else {
            let _ = stream.shutdown(Shutdown::Write);
            drain(&mut stream, Instant::now() + REPLY_TIMEOUT);
        }
        assert!(
            matches!(listener.child.try_wait(), Ok(None)),
            "the listener died after session {session}"
        );
    }
    // A clean request is still accepted.
    let mut stream = TcpStream::connect(&listener.address).expect("connects");
    stream
        .write_all(format!("R01{:<32}Z005000A\0", "Fuzz").as_bytes())
        .expect("request");
    let deadline = Instant::now() + REPLY_TIMEOUT;
    let mut accepted = false;
    let mut deframer = Deframer::new();
    let mut frames = Vec::new();
    let mut chunk = [0u8; 512];
    while !accepted && Instant::now() < deadline {
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .expect("timeout");
        if let Ok(count) = stream.read(&mut chunk) {
            assert!(count > 0, "the listener closed a clean session");
            deframer.feed(&chunk[..count], &mut frames);
        }
        accepted = frames
            .iter()
            .any(|frame| matches!(frame, Frame::Message(m) if m.first() == Some(&b'A')));
    }
    assert!(accepted, "no game accept after the hostile sessions");
    eprintln!("dxp listener fuzz: {sessions} sessions, {sent_inputs} hostile messages");
}
