//! Spreading a 64-bit value over all its bits: SplitMix64 (Steele, Lea and Flood, "Fast
//! splittable pseudorandom number generators", 2014) and its constant, shared by everything that
//! hashes or seeds (Zobrist keys, table keys and fingerprints, book tie-breaks, game seeds, the
//! lab's node counts).

/// 2^64 divided by the golden ratio, made odd: its multiples spread consecutive integers evenly
/// over 64 bits (Knuth's multiplicative hashing), and it is SplitMix64's increment.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a well-mixed value from any input, so that nearby inputs give
/// unrelated outputs.
#[inline]
pub const fn mix64(input: u64) -> u64 {
    let mut z = input;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of the SplitMix64 generator from `state`: the next state and its output.
#[inline]
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(GOLDEN_GAMMA);
    (next, mix64(next))
}
