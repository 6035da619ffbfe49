//! The move generator's contract: every published perft number of the supported variants
//! (tests/data/perft.tsv), under its own counting convention.
//!
//! Rows up to `QUICK_NODE_LIMIT` leaves run by default; the deep ones run with
//! `cargo test --release --test perft -- --ignored`.

mod common;

use common::{PerftRow, perft_rows};
use rafle::notation::fen;
use rafle::perft::{Counting, perft};
use rafle::rules::{Brazilian, International, Rules};

/// Rows with more leaves than this are left to the ignored deep test.
const QUICK_NODE_LIMIT: u64 = 3_000_000;

/// Variants whose rules are implemented, with the number of rows each must have.
const SUPPORTED: &[(&str, usize)] = &[("international", 96), ("brazilian", 35)];

fn check<R: Rules>(row: &PerftRow) {
    let position = fen::parse::<R>(&row.fen)
        .unwrap_or_else(|e| panic!("{} FEN {} does not parse: {e}", row.variant, row.fen));
    let counting = if row.keep_duplicates {
        Counting::KeepDuplicates
    } else {
        Counting::DropDuplicates
    };
    assert_eq!(
        perft(&position, row.depth, counting),
        row.nodes,
        "{} {:?} perft({}) of {} (source: {})",
        row.variant,
        counting,
        row.depth,
        row.fen,
        row.source
    );
}

fn run(select: impl Fn(&PerftRow) -> bool) -> usize {
    let mut checked = 0;
    for row in perft_rows().iter().filter(|row| select(row)) {
        match row.variant.as_str() {
            "international" => check::<International>(row),
            "brazilian" => check::<Brazilian>(row),
            _ => continue,
        }
        checked += 1;
    }
    checked
}

#[test]
fn data_file_has_every_supported_row() {
    let rows = perft_rows();
    assert_eq!(rows.len(), 567);
    for &(variant, expected) in SUPPORTED {
        assert_eq!(
            rows.iter().filter(|row| row.variant == variant).count(),
            expected,
            "{variant}"
        );
    }
}

#[test]
fn perft_quick_rows() {
    let checked = run(|row| row.nodes <= QUICK_NODE_LIMIT);
    assert!(checked >= 94, "only {checked} rows checked");
}

#[test]
#[ignore = "deep rows: minutes in release mode"]
fn perft_deep_rows() {
    run(|row| row.nodes > QUICK_NODE_LIMIT);
}
