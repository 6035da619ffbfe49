//! The bench node count is the search's signature: it must not depend on the run.

use rafle::cli::bench::bench;

/// Small enough to be quick in the test profile, deep enough to use every search feature.
const DEPTH: u32 = 6;

#[test]
fn bench_is_deterministic() {
    let (first, _) = bench(DEPTH, false).expect("bench positions are valid");
    let (second, _) = bench(DEPTH, false).expect("bench positions are valid");
    assert_eq!(first, second);
    assert!(first > 10_000, "{first}");
}
