//! Seeded property tests of the text readers: random and mutated FENs, Hub positions, move texts
//! and PDN games never make a reader panic, for every variant; a FEN that reads writes back to
//! a FEN that reads to the same position.
//!
//! `RAFLE_NOTATION_FUZZ_INPUTS` scales the run.

mod common;

use rafle::notation::{fen, hub, pdn, text};
use rafle::position::Position;
use rafle::rules::{Rules, Variant};
use rafle::with_variant;

/// Inputs per reader and variant in CI.
const DEFAULT_INPUTS: u64 = 20_000;
/// Characters the mutations draw from: those of the notations, and a few others.
const ALPHABET: &[u8] = b"WBKwbke0123456789:,-x.\"[] \t\n*/{}()?!;%=1-0abcdefghij\xc3\xa9\xff";

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

/// `seed` mutated: characters replaced, inserted, removed, ranges repeated or cut; or, one time
/// in eight, noise of the alphabet.
fn mutate(random: &mut Random, seed: &str) -> String {
    let mut bytes = if random.below(8) == 0 {
        (0..random.below(120))
            .map(|_| ALPHABET[random.below(ALPHABET.len() as u64)])
            .collect()
    } else {
        seed.as_bytes().to_vec()
    };
    for _ in 0..1 + random.below(6) {
        let at = random.below(bytes.len() as u64 + 1);
        let byte = ALPHABET[random.below(ALPHABET.len() as u64)];
        match random.below(6) {
            0 if at < bytes.len() => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            2 if at < bytes.len() => {
                bytes.remove(at);
            }
            3 => {
                let end = (at + random.below(20)).min(bytes.len());
                let piece = bytes[at..end].to_vec();
                for _ in 0..random.below(4) {
                    bytes.splice(at..at, piece.iter().copied());
                }
            }
            4 => bytes.truncate(at),
            _ => {
                let digits = random.next().to_string();
                bytes.splice(at..at, digits.bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn fuzz_variant<R: Rules>(random: &mut Random, inputs: u64, pdn_seed: &str) -> [u64; 4] {
    let start = Position::<R>::start();
    let start_fen = fen::format(&start);
    let start_hub = hub::format(&start);
    let moves: Vec<String> = start
        .legal_moves()
        .iter()
        .map(|mv| text::pdn(&start, mv))
        .collect();
    let mut valid = [0u64; 4];
    for _ in 0..inputs {
        let candidate = mutate(random, &start_fen);
        if let Ok(position) = fen::parse::<R>(&candidate) {
            valid[0] += 1;
            let written = fen::format(&position);
            let again = fen::parse::<R>(&written)
                .unwrap_or_else(|e| panic!("'{written}' (from '{candidate}'): {e}"));
            assert_eq!(again, position, "'{candidate}'");
            let _ = position.legal_moves();
        }
        if hub::parse::<R>(&mutate(random, &start_hub)).is_ok() {
            valid[1] += 1;
        }
        let pick = random.below(moves.len() as u64);
        let word = mutate(random, &moves[pick]);
        if text::parse(&start, &word).is_ok() {
            valid[2] += 1;
        }
        let _ = text::parse_hub(&start, &word);
        if pdn::read_games::<R>(&mutate(random, pdn_seed))
            .iter()
            .any(Result::is_ok)
        {
            valid[3] += 1;
        }
    }
    valid
}

#[test]
fn readers_never_panic() {
    let inputs = std::env::var("RAFLE_NOTATION_FUZZ_INPUTS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(DEFAULT_INPUTS);
    let games = std::fs::read_to_string(common::data_path("games.pdn")).expect("games.pdn");
    let pdn_seed: String = games.chars().take(1500).collect();
    let mut random = Random(0xF3A_5EED_0000_0001);
    for &variant in Variant::ALL {
        // International gets every input; the others (smaller boards, other notations) a fifth.
        let count = if variant == Variant::International {
            inputs
        } else {
            inputs / 5
        };
        let valid = with_variant!(variant, R => fuzz_variant::<R>(&mut random, count, &pdn_seed));
        eprintln!(
            "notation fuzz {}: {count} inputs per reader; valid FEN {}, Hub position {}, move {}, \
             PDN {}",
            variant.hub_name(),
            valid[0],
            valid[1],
            valid[2],
            valid[3]
        );
    }
}
