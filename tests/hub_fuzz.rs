//! A seeded protocol fuzz of the real `rafle hub`: bursts of valid commands (go, stop, pos, level,
//! ping, set-param...) written without waiting for any reply, mixed with random bytes, invalid
//! UTF-8, out-of-range numbers, finished positions and lines longer than the limit.
//!
//! After every burst the test waits for the `pong` of the burst's last `ping` and checks:
//! - the engine is alive (no abort, no panic);
//! - every `ping` got its `pong`, in order (the count matches after each burst);
//! - exactly one `done` per `go`, where a `go` refused with `error message="game over"` (a
//!   finished position) gets none: after a burst ending in `stop` + `ping`, the count of `done`
//!   equals the `go`s the model expects to be searched;
//! - the `pong` comes quickly ([`MAX_PONG_LATENCY`]), however many commands were queued;
//! - the peak memory stays below [`MAX_MEMORY_KIB`].
//!
//! `RAFLE_HUB_FUZZ_LINES` sets the number of lines (default [`DEFAULT_LINES`], a few seconds) and
//! `RAFLE_HUB_FUZZ_SEED` the seed, for longer runs by hand.

mod common;

use common::hub::Engine;
use rafle::notation::text;
use rafle::position::Position;
use rafle::rules::International;
use std::time::{Duration, Instant};

/// Lines sent by the CI run.
const DEFAULT_LINES: usize = 3_000;
/// Default seed of the generator.
const DEFAULT_SEED: u64 = 0x5EED_F4B1_D00D;
/// Longest burst of lines written without waiting.
const MAX_BURST: u64 = 40;
/// The limit of `rafle hub` on one line (`rafle::hub::MAX_LINE_BYTES`).
const LINE_LIMIT: usize = rafle::hub::MAX_LINE_BYTES;
/// The `pong` of a burst's last `ping` must come within this, counted from the end of the
/// burst's write (generous: CI machines are loaded; a quiet machine answers in well under 10 ms).
const MAX_PONG_LATENCY: Duration = Duration::from_secs(2);
/// Peak resident memory allowed: the default 64 MiB table, fully touched by `new-game`, the
/// input queue and the longest line, with room to spare.
const MAX_MEMORY_KIB: u64 = 256 * 1024;
/// A finished position (Black has no pieces), whose `go` is refused.
const FINISHED: &str = "pos fen=W:W31-50:B";

/// xorshift64*: small, seeded, the same on every platform.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// What the test expects of the engine's state.
#[derive(Default)]
struct Model {
    /// The current position ends the game (a `go` gets `error`, no `done`).
    finished: bool,
    pings: usize,
    searched_gos: usize,
    refused_gos: usize,
}

/// One generated input line (bytes, without the newline) and its effect on the model.
fn line(random: &mut Random, model: &mut Model) -> Vec<u8> {
    let text = match random.below(100) {
        0..=11 => {
            model.pings += 1;
            "ping".to_string()
        }
        12..=19 => "stop".to_string(),
        20..=31 => {
            if model.finished {
                model.refused_gos += 1;
            } else {
                model.searched_gos += 1;
            }
            ["go think", "go analyze", "go ponder", "go"][random.below(4) as usize].to_string()
        }
        32..=41 => {
            model.finished = false;
            let mut position = Position::<International>::start();
            let mut moves = Vec::new();
            for _ in 0..random.below(12) {
                let legal = position.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[random.below(legal.len() as u64) as usize];
                moves.push(text::hub::<International>(&mv));
                position = position.play(&mv);
            }
            if position.legal_moves().is_empty() {
                model.finished = true;
            }
            format!("pos start moves=\"{}\"", moves.join(" "))
        }
        42..=45 => {
            model.finished = true;
            FINISHED.to_string()
        }
        46..=57 => match random.below(7) {
            0 => format!("level depth={}", 1 + random.below(6)),
            1 => format!("level nodes={}", 1 + random.below(20_000)),
            2 => format!("level move-time=0.0{}", random.below(5)),
            3 => format!("level time=0.{} inc=0.01", random.below(3)),
            4 => "level infinite".to_string(),
            5 => format!("level depth={}", random.next()),
            _ => format!("level moves={} time=-{}", random.below(50), random.below(9)),
        },
        58..=62 => match random.below(6) {
            0 => format!("set-param name=threads value={}", 1 + random.below(2)),
            1 => {
                // A valid size rebuilds the session, at the start position.
                model.finished = false;
                format!("set-param name=hash value={}", 1 + random.below(16))
            }
            2 => format!("set-param name=hash value={}", random.next()),
            3 => "set-param name=variant value=chess".to_string(),
            4 => format!("set-param name=book-ply value={}", random.next() as i64),
            _ => "set-param name=ponder value=maybe".to_string(),
        },
        63..=66 => ["init", "new-game", "hub", "ponder-hit"][random.below(4) as usize].to_string(),
        67..=70 => {
            // Bad positions and moves keep the previous game.
            [
                "pos pos=Wxyz",
                "pos start moves=\"32-29\"",
                "pos start moves=junk",
                "pos fen=W:W99",
            ][random.below(4) as usize]
                .to_string()
        }
        71..=72 if random.chance(10) => {
            // Longer than the limit: one `error`, never read whole. Half start with `ping` so
            // a reader that kept the head would answer a ping the model does not expect.
            let head = if random.chance(50) {
                "ping "
            } else {
                "pos fen="
            };
            let mut long = head.as_bytes().to_vec();
            long.resize(
                LINE_LIMIT + 1 + random.below(LINE_LIMIT as u64) as usize,
                b'W',
            );
            return long;
        }
        73 if random.chance(10) => {
            // Exactly at the limit: still a line, handled.
            model.pings += 1;
            let mut long = b"ping ".to_vec();
            long.resize(LINE_LIMIT, b' ');
            return long;
        }
        _ => {
            // Random bytes behind a first byte that no command starts with.
            let first = [b'#', b'=', b'"', 0u8, 0xFF][random.below(5) as usize];
            let mut bytes = vec![first];
            for _ in 0..random.below(200) {
                let byte = random.next() as u8;
                if byte != b'\n' {
                    bytes.push(byte);
                }
            }
            return bytes;
        }
    };
    text.into_bytes()
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// What the engine wrote so far, counted.
#[derive(Default)]
struct Seen {
    pongs: usize,
    dones: usize,
    game_over_errors: usize,
    lines: usize,
}

impl Seen {
    fn take(&mut self, line: &str) {
        self.lines += 1;
        if line == "pong" {
            self.pongs += 1;
        } else if line.starts_with("done") {
            assert!(
                line.starts_with("done move="),
                "a done without a move: {line}"
            );
            self.dones += 1;
        } else if line.starts_with("error message=\"game over\"") {
            self.game_over_errors += 1;
        }
        assert!(line.len() <= 4096, "an output line of {} bytes", line.len());
    }
}

#[test]
fn hub_protocol_fuzz() {
    let total_lines = env_number("RAFLE_HUB_FUZZ_LINES", DEFAULT_LINES as u64) as usize;
    let seed = env_number("RAFLE_HUB_FUZZ_SEED", DEFAULT_SEED);
    let mut random = Random(seed | 1);
    let mut model = Model::default();
    let mut seen = Seen::default();
    let mut engine = Engine::start();
    engine.handshake();
    let started = Instant::now();
    let mut sent = 0usize;
    let mut bursts = 0usize;
    let mut bytes_sent = 0usize;
    let mut latencies = Vec::new();
    while sent < total_lines {
        let mut burst = Vec::new();
        for _ in 0..1 + random.below(MAX_BURST) {
            burst.extend(line(&mut random, &mut model));
            burst.push(b'\n');
            sent += 1;
        }
        // Every burst ends with a ping; one in three stops first, so that all its searches
        // have answered by the time the pong comes.
        let synced = random.chance(33);
        if synced {
            burst.extend_from_slice(b"stop\n");
        }
        burst.extend_from_slice(b"ping\n");
        model.pings += 1;
        bytes_sent += burst.len();
        engine.send_bytes(&burst);
        let written = Instant::now();
        while seen.pongs < model.pings {
            let line = engine.next();
            seen.take(&line);
        }
        latencies.push(written.elapsed());
        bursts += 1;
        assert!(engine.is_running(), "the engine died after burst {bursts}");
        assert_eq!(seen.pongs, model.pings, "burst {bursts}: pongs");
        assert!(
            seen.dones <= model.searched_gos,
            "burst {bursts}: {} done for {} go",
            seen.dones,
            model.searched_gos
        );
        if synced {
            assert_eq!(
                seen.dones, model.searched_gos,
                "burst {bursts}: done lines after stop + ping"
            );
        }
        assert_eq!(seen.game_over_errors, model.refused_gos, "burst {bursts}");
    }
    engine.send("stop");
    engine.send("ping");
    model.pings += 1;
    while seen.pongs < model.pings {
        let line = engine.next();
        seen.take(&line);
    }
    assert_eq!(seen.dones, model.searched_gos);
    assert!(
        engine.no_output_for(Duration::from_millis(200)),
        "output after the last stop"
    );
    let peak = engine.peak_memory_kib();
    latencies.sort();
    eprintln!(
        "hub fuzz: seed {seed:#x}, {sent} lines ({} MB) in {bursts} bursts, {:.1} s; {} go \
         searched, {} refused, {} ping; {} output lines; pong latency median {:?}, max {:?}; \
         peak memory {:?} KiB",
        bytes_sent / 1_000_000,
        started.elapsed().as_secs_f64(),
        model.searched_gos,
        model.refused_gos,
        model.pings,
        seen.lines,
        latencies[latencies.len() / 2],
        latencies[latencies.len() - 1],
        peak
    );
    assert!(
        latencies[latencies.len() - 1] < MAX_PONG_LATENCY,
        "slowest pong {:?}",
        latencies[latencies.len() - 1]
    );
    if let Some(peak) = peak {
        assert!(peak < MAX_MEMORY_KIB, "peak memory {peak} KiB");
    }
    engine.quit();
}
