//! Zobrist keys, generated at compile time from a fixed seed.
//!
//! One key per (side, kind, bit) for every bit index any geometry uses, and one for the side to
//! move. Keys are produced by SplitMix64, a small generator whose output is well distributed and
//! which is cheap to evaluate in a `const` context, so the tables need no initialisation call.

use super::color::{Color, Kind};
use super::geometry::TABLE_BITS;

/// Seed of the key generator. Changing it changes every hash (and so opening-book keys).
const SEED: u64 = 0x5261_666C_6544_7261; // "RafleDra"

use super::mix::splitmix64;

const fn piece_keys() -> [[u64; TABLE_BITS]; 4] {
    let mut keys = [[0u64; TABLE_BITS]; 4];
    let mut state = SEED;
    let mut piece = 0;
    while piece < 4 {
        let mut bit = 0;
        while bit < TABLE_BITS {
            let (next, key) = splitmix64(state);
            state = next;
            keys[piece][bit] = key;
            bit += 1;
        }
        piece += 1;
    }
    keys
}

const PIECE_KEYS: [[u64; TABLE_BITS]; 4] = piece_keys();

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(!SEED).1;

/// Key of a piece of `color` and `kind` on `bit`.
#[inline(always)]
pub fn piece_key(color: Color, kind: Kind, bit: u32) -> u64 {
    PIECE_KEYS[color.index() * 2 + kind as usize][bit as usize & (TABLE_BITS - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let mut seen = HashSet::new();
        for row in PIECE_KEYS {
            for key in row {
                assert!(seen.insert(key));
            }
        }
        assert!(seen.insert(BLACK_TO_MOVE));
    }
}
