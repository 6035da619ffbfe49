//! The move generator's contract: every published perft number of the supported variants
//! (tests/data/perft.tsv), under its own counting convention.
//!
//! Rows up to `QUICK_NODE_LIMIT` leaves run by default; the deep ones run with
//! `cargo test --release --test perft -- --ignored`. Rows beyond `DEEP_NODE_LIMIT` (English
//! checkers to depth 28, Killer from Woldouby to depth 17, ...) are published numbers no single
//! machine recomputes in a test run; `perft_out_of_reach_rows` lists them and checks they parse.

mod common;

use common::{PerftRow, perft_rows};
use rafle::core::{Board8, Color};
use rafle::notation::{fen, text};
use rafle::perft::{Counting, divide, perft};
use rafle::rules::{Corner, Notation, REPETITION_ONLY, RuleSet, Rules, Thai, Variant};
use rafle::with_variant;
use rayon::prelude::*;

/// Rows with more leaves than this are left to the ignored deep test.
const QUICK_NODE_LIMIT: u64 = 3_000_000;

/// Rows with more leaves than this are out of reach of a test run.
const DEEP_NODE_LIMIT: u64 = 20_000_000_000;

/// dctl's "thai" perft series: Thai rules of capture with the 12-man setup of the other 8x8 games
/// and dctl's numbering (1 = b8). Not a real variant, so it is defined here, from [`Thai`]'s flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct ThaiTwelveMen;

impl Rules for ThaiTwelveMen {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "thai_12man_nonstandard_setup",
        pdn_game_type: None,
        first_mover: Color::White,
        start_fen: "W:W21-32:B1-12",
        max_pieces_per_side: 12,
        draw_rules: REPETITION_ONLY,
        notation: Notation::Numeric(Corner::TopLeft),
        capture_separator: 'x',
        ..Thai::RULES
    };
}

fn check<R: Rules>(row: &PerftRow) {
    let position = fen::parse::<R>(&row.fen)
        .unwrap_or_else(|e| panic!("{} FEN {} does not parse: {e}", row.variant, row.fen));
    let counting = if row.keep_duplicates {
        Counting::KeepDuplicates
    } else {
        Counting::DropDuplicates
    };
    let nodes = match &row.divide {
        None => perft(&position, row.depth, counting),
        Some(first) => {
            let first = text::parse(&position, first)
                .unwrap_or_else(|e| panic!("{}: divide move: {e}", row.variant));
            divide(&position, row.depth, counting, false)
                .into_iter()
                .filter(|(mv, _)| mv.same_as(&first))
                .map(|(_, count)| count)
                .sum()
        }
    };
    assert_eq!(
        nodes,
        row.nodes,
        "{} {:?} perft({}) of {}{} (source: {})",
        row.variant,
        counting,
        row.depth,
        row.fen,
        row.divide
            .as_ref()
            .map(|m| format!(" under {m}"))
            .unwrap_or_default(),
        row.source
    );
}

/// Checks one row; false when its variant is not supported.
fn check_row(row: &PerftRow) -> bool {
    if row.variant == ThaiTwelveMen::NAME {
        check::<ThaiTwelveMen>(row);
        return true;
    }
    match Variant::from_name(&row.variant) {
        Some(variant) => with_variant!(variant, R => check::<R>(row)),
        None => return false,
    }
    true
}

/// Whether the row's variant is one Rafle plays (the list of [`Variant`]) or dctl's Thai series.
fn is_supported(row: &PerftRow) -> bool {
    row.variant == ThaiTwelveMen::NAME || Variant::from_name(&row.variant).is_some()
}

/// Checks the selected rows, the largest first and spread over the available threads.
fn run(select: impl Fn(&PerftRow) -> bool + Sync) -> usize {
    let mut rows: Vec<PerftRow> = perft_rows()
        .into_iter()
        .filter(|row| is_supported(row) && select(row))
        .collect();
    rows.sort_by_key(|row| std::cmp::Reverse(row.nodes));
    rows.par_iter().filter(|row| check_row(row)).count()
}

/// The data file states how many rows each supported variant has (`#rows` lines), so that a
/// lost row fails here; a variant added to the list of [`Variant`] adds its rows and that line.
#[test]
fn data_file_has_every_supported_row() {
    let rows = perft_rows();
    let text = std::fs::read_to_string(common::data_path("perft.tsv")).expect("readable");
    let stated: Vec<(String, usize)> = text
        .lines()
        .filter_map(|line| line.strip_prefix("#rows\t"))
        .map(|line| {
            let (variant, count) = line.split_once('\t').expect("#rows VARIANT COUNT");
            (variant.to_string(), count.parse().expect("count"))
        })
        .collect();
    for (variant, expected) in &stated {
        assert_eq!(
            rows.iter().filter(|row| &row.variant == variant).count(),
            *expected,
            "{variant}"
        );
    }
    for row in rows.iter().filter(|row| is_supported(row)) {
        assert!(
            stated.iter().any(|(variant, _)| *variant == row.variant),
            "no #rows line for {}",
            row.variant
        );
    }
}

#[test]
fn perft_quick_rows() {
    let checked = run(|row| row.nodes <= QUICK_NODE_LIMIT);
    assert!(checked >= 271, "only {checked} rows checked");
}

#[test]
#[ignore = "deep rows: many minutes in release mode"]
fn perft_deep_rows() {
    let checked = run(|row| row.nodes > QUICK_NODE_LIMIT && row.nodes <= DEEP_NODE_LIMIT);
    eprintln!("{checked} deep rows checked");
}

#[test]
fn perft_out_of_reach_rows() {
    let rows: Vec<PerftRow> = perft_rows()
        .into_iter()
        .filter(|row| is_supported(row) && row.nodes > DEEP_NODE_LIMIT)
        .collect();
    for row in &rows {
        let parsed = if row.variant == ThaiTwelveMen::NAME {
            fen::parse::<ThaiTwelveMen>(&row.fen).is_ok()
        } else {
            let variant = Variant::from_name(&row.variant).expect("supported");
            with_variant!(variant, R => fen::parse::<R>(&row.fen).is_ok())
        };
        assert!(parsed, "{} {}", row.variant, row.fen);
    }
    assert!(rows.len() <= 40, "{} rows out of reach", rows.len());
}
