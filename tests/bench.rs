//! The bench node count is the search's signature: `rafle bench` must print the count pinned
//! here, so a change in search behaviour cannot land without saying `Bench: N` in its commit.

use rafle::search::bench::{BENCH_DEPTH, bench};

/// The node count of `rafle bench` (default depth) for the current search.
const PINNED_NODES: u64 = 2_822_133;

#[test]
fn bench_matches_the_pinned_signature() {
    let (first, _) = bench(BENCH_DEPTH, false).expect("bench positions are valid");
    assert_eq!(
        first, PINNED_NODES,
        "the search changed: pin the new count and say `Bench: {first}` in the commit"
    );
    let (second, _) = bench(BENCH_DEPTH, false).expect("bench positions are valid");
    assert_eq!(first, second, "the bench must not depend on the run");
}
