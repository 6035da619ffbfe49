//! Perft: the number of leaf positions of the legal-move tree to a given depth, the move
//! generator's contract with the published tables.

use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use rayon::prelude::*;

/// How capture routes that differ only in order are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Counting {
    /// FMJD counting: same origin, destination and captured set is one move.
    #[default]
    DropDuplicates,
    /// Every route counts (checkers literature, pydraughts).
    KeepDuplicates,
}

/// Leaves at `depth` below `position` (bulk-counted at the last ply).
pub fn perft<R: Rules>(position: &Position<R>, depth: u32, counting: Counting) -> u64 {
    match counting {
        Counting::DropDuplicates => perft_drop(position, depth),
        Counting::KeepDuplicates => perft_keep(position, depth),
    }
}

fn perft_drop<R: Rules>(position: &Position<R>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return movegen::count(position) as u64;
    }
    let mut list = MoveList::new();
    movegen::generate(position, &mut list);
    list.iter()
        .map(|mv| perft_drop(&position.play(mv), depth - 1))
        .sum()
}

fn perft_keep<R: Rules>(position: &Position<R>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    movegen::generate_keep_duplicates(position, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter()
        .map(|mv| perft_keep(&position.play(mv), depth - 1))
        .sum()
}

/// Leaves below each root move, in generation order; with `parallel`, root moves are shared out
/// over rayon's thread pool.
pub fn divide<R: Rules>(
    position: &Position<R>,
    depth: u32,
    counting: Counting,
    parallel: bool,
) -> Vec<(Move<BitsOf<R>>, u64)> {
    let mut list = MoveList::new();
    match counting {
        Counting::DropDuplicates => movegen::generate(position, &mut list),
        Counting::KeepDuplicates => movegen::generate_keep_duplicates(position, &mut list),
    }
    let below = depth.saturating_sub(1);
    let count = |mv: &Move<BitsOf<R>>| (*mv, perft(&position.play(mv), below, counting));
    if parallel {
        list.as_slice().par_iter().map(count).collect()
    } else {
        list.iter().map(count).collect()
    }
}
