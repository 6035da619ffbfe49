//! Local consistency: every position's stored value equals the best of its successors' values
//! (a full pass over a table; the successors' tables must be loaded and exact).

use super::TableSet;
use super::build::CHUNK;
use super::index::Material;
use super::table::{DRAW, LOSS, UNKNOWN, WIN};
use crate::moves::MoveList;
use rayon::prelude::*;

/// Result of checking one table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Check {
    /// Positions checked (legal; capture positions too when `captures` was asked).
    pub checked: u64,
    /// Positions whose value differs from the best of their successors.
    pub errors: u64,
    /// First wrong index, if any.
    pub first_error: Option<u64>,
}

/// Checks every legal position of `material` in `set`: quiet positions always, capture positions
/// when `captures` (tables read from files leave them undefined). Successor values are read with
/// captures resolved by search, so the check does not trust stored capture values either.
pub fn check_table(set: &TableSet, material: Material, captures: bool) -> Check {
    let table = set.get(material).expect("table to check is loaded");
    let layout = *table.layout();
    let size = layout.size();
    (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut check = Check::default();
            let mut moves = MoveList::new();
            for index in c * CHUNK..((c + 1) * CHUNK).min(size) {
                let Some(squares) = layout.squares(index) else {
                    continue;
                };
                let position = squares.position();
                crate::movegen::generate(&position, &mut moves);
                if !captures && !moves.is_empty() && moves[0].is_capture() {
                    continue;
                }
                let mut best = LOSS;
                for mv in moves.iter() {
                    best = match (best, set.value_of_move(&position, mv)) {
                        (_, WIN) | (WIN, _) => WIN,
                        (_, UNKNOWN) | (UNKNOWN, _) => UNKNOWN,
                        (_, DRAW) | (DRAW, _) => DRAW,
                        _ => LOSS,
                    };
                }
                check.checked += 1;
                if best != table.get(index) {
                    check.errors += 1;
                    check.first_error.get_or_insert(index);
                }
            }
            check
        })
        .reduce(Check::default, |a, b| Check {
            checked: a.checked + b.checked,
            errors: a.errors + b.errors,
            first_error: a.first_error.or(b.first_error),
        })
}
