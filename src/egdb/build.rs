//! The generator: retrograde analysis with a counter per position, one *unit* (a material and
//! its colour twin, whose positions lead into each other) at a time, in dependency order.
//!
//! Pass 0 generates the moves of every position once ([`Layout::for_each`] steps from one index
//! to the next instead of decoding each). Blocked positions are lost; capture positions and
//! positions where a promotion wins are resolved at once from the finished tables their moves
//! lead to; every other position keeps a byte: the number of its quiet moves inside the unit,
//! plus one if a promotion reaches a draw (such a position is never lost). Each retrograde pass
//! then takes the positions won or lost in the pass before and finds their predecessors by
//! un-making quiet moves ([`Squares::unmoves`]): a lost successor makes a predecessor won, a won
//! one counts its byte down, and the byte reaching zero makes it lost (every move leads to a
//! position won for the opponent). When a pass resolves nothing, what is left unknown is drawn
//! (no side can force anything). Values are the game-theoretic ones, so they are those of the
//! forward iteration this replaces (2-4 pieces and the 5-piece units checked file by file);
//! the `passes` of the file header now counts pass 0 and the retrograde passes. A position's
//! moves are generated once and a successor inside the unit is never looked up: the work after
//! pass 0 is one index computation and one counter update per (resolved position, predecessor).
//!
//! The in-memory tables stay exact on capture positions (the successors' tables are looked up
//! directly while building); files leave capture positions undefined and [`repair_captures`]
//! recomputes them after loading.
//!
//! Parallelism: rayon over chunks of indices (multiples of 64 positions). In pass 0 a chunk owns
//! its words of the table, counters and bitmaps and stores each group of 64 positions with plain
//! writes. In the retrograde passes a position's predecessors lie anywhere, so their values,
//! counters and queue bits are updated atomically: a counter is decremented by exactly one
//! thread per won successor and only the thread that takes it to zero resolves the position; a
//! win is set with [`WdlTable::set_if_unknown`], so exactly one thread queues it. A position never
//! gets both: one with a lost successor keeps that successor in its count, which so never
//! reaches zero.
//!
//! Cost: see the README's table of build times (CPU seconds, which depend far less than wall
//! time on the load of a shared machine).

pub use super::file::{Built, Counts};
use super::index::{Layout, Material, Squares};
use super::table::{DRAW, LOSS, PER_WORD, UNKNOWN, WIN, WdlTable};
use super::{EgdbError, TableSet, file};
use crate::core::cache::prefetch;
use crate::moves::MoveList;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

/// Positions per parallel work item (a multiple of [`table::PER_WORD`] and of 64, the capture
/// bitmap's word).
pub const CHUNK: u64 = 1 << 14;

/// Progress of a unit, for a progress bar.
pub trait Progress: Sync {
    /// A pass over `total` positions starts.
    fn pass(&self, label: &str, pass: u32, total: u64);
    /// `done` more positions of the current pass were visited.
    fn advance(&self, done: u64);
}

/// Progress reporting that does nothing (tests).
pub struct Silent;

impl Progress for Silent {
    fn pass(&self, _: &str, _: u32, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// The materials of every unit with `pieces` pieces, in build order; each unit is one material
/// or a material and its twin (a material whose twin is itself, like `1111`, is a unit alone).
pub fn units(pieces: u32) -> Vec<Vec<Material>> {
    let mut out: Vec<Vec<Material>> = Vec::new();
    for material in Material::all_with(pieces) {
        if out.iter().any(|unit| unit.contains(&material)) {
            continue;
        }
        let twin = material.twin();
        if twin == material {
            out.push(vec![material]);
        } else {
            out.push(vec![material, twin]);
        }
    }
    out
}

/// The unit a material belongs to.
pub fn unit_of(material: Material) -> Vec<Material> {
    if material.twin() == material {
        vec![material]
    } else {
        vec![material, material.twin()]
    }
}

/// Every material `unit` depends on, transitively, in build order (not the unit itself).
pub fn dependency_closure(unit: &[Material]) -> Vec<Material> {
    let mut seen: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = unit.iter().flat_map(|m| m.dependencies()).collect();
    while let Some(material) = stack.pop() {
        if seen.contains(&material) || unit.contains(&material) {
            continue;
        }
        seen.push(material);
        stack.extend(material.dependencies());
    }
    seen.sort_by_key(|m| (m.pieces(), m.men(), *m));
    seen
}

/// The best code over the successors of `position` (every one in a finished table, or
/// [`UNKNOWN`] if one is not), from its side to move's view.
#[inline]
fn best_of_successors(set: &TableSet, squares: &Squares, moves: &MoveList<u64>) -> u8 {
    let mut best = LOSS;
    let mut unknown = false;
    for mv in moves.iter() {
        match set.stored_squares(&squares.after(mv)) {
            LOSS => return WIN,
            UNKNOWN => unknown = true,
            DRAW => best = DRAW,
            _ => {}
        }
    }
    if unknown { UNKNOWN } else { best }
}

/// What the first pass finds out about a position.
enum FirstLook {
    /// Its value is known: the side to move is blocked, must capture (every capture leads to a
    /// finished table), or its moves inside the unit do not matter (a promotion wins, or there
    /// is none).
    Resolved {
        /// The value.
        code: u8,
        /// Whether the side to move must capture.
        capture: bool,
    },
    /// It waits for its successors inside the unit: the number of them not yet known to be won
    /// for the opponent, plus one if a promotion reaches a draw (then it can never be lost).
    Open(u8),
}

/// The first look at a legal position: its moves are generated once, successors outside the unit
/// (captures, promotions) are looked up, successors inside it only counted.
#[inline]
fn first_look(set: &TableSet, squares: &Squares, moves: &mut MoveList<u64>) -> FirstLook {
    crate::movegen::generate(&squares.position(), moves);
    if moves.is_empty() {
        return FirstLook::Resolved {
            code: LOSS,
            capture: false,
        };
    }
    if moves[0].is_capture() {
        let code = best_of_successors(set, squares, moves);
        debug_assert_ne!(code, UNKNOWN, "captures lead into finished tables");
        return FirstLook::Resolved {
            code,
            capture: true,
        };
    }
    let mut inside = 0u8;
    let mut drawn = false;
    for mv in moves.iter() {
        if !mv.is_promotion() {
            inside += 1;
            continue;
        }
        match set.stored_squares(&squares.after(mv)) {
            LOSS => {
                return FirstLook::Resolved {
                    code: WIN,
                    capture: false,
                };
            }
            DRAW => drawn = true,
            code => debug_assert_eq!(code, WIN, "promotions lead into finished tables"),
        }
    }
    if inside == 0 {
        return FirstLook::Resolved {
            code: if drawn { DRAW } else { LOSS },
            capture: false,
        };
    }
    FirstLook::Open(inside + u8::from(drawn))
}

/// Visits the non-hole indices of `range` in `layout` with their men (White's, Black's); for
/// loops that need no piece sets ([`Layout::for_each`] gives them).
#[inline]
fn for_each_position(
    layout: &Layout,
    range: std::ops::Range<u64>,
    mut visit: impl FnMut(u64, u64, u64),
) {
    let kings = layout.kings_per_men();
    let mut men_block = u64::MAX;
    let mut men = None;
    for index in range {
        if index / kings != men_block {
            men_block = index / kings;
            men = layout.men(index);
        }
        let Some((wm, bm)) = men else {
            continue;
        };
        visit(index, wm, bm);
    }
}

fn chunks(size: u64) -> impl ParallelIterator<Item = std::ops::Range<u64>> {
    (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(size))
}

/// Predecessors whose loads are started before the first of them is updated (see the
/// retrograde passes of [`build_unit`]).
const PREFETCH_BATCH: usize = 64;

/// Positions per bitmap word (the capture and queue bitmaps).
const BITMAP_WORD: u64 = 64;

/// A bitmap of `size` positions, all clear.
fn bitmap(size: u64) -> Vec<AtomicU64> {
    (0..size.div_ceil(BITMAP_WORD))
        .map(|_| AtomicU64::new(0))
        .collect()
}

/// Builds one unit into `set` (its tables are inserted; every dependency must be in `set`).
///
/// # Errors
/// A dependency is absent.
pub fn build_unit(
    set: &mut TableSet,
    unit: &[Material],
    progress: &dyn Progress,
) -> Result<Vec<Built>, EgdbError> {
    for &material in unit {
        for needed in material.dependencies() {
            if !set.contains(needed) && !unit.contains(&needed) {
                return Err(EgdbError::MissingDependency { material, needed });
            }
        }
    }
    let started = Instant::now();
    for &material in unit {
        set.insert(material, WdlTable::new(material));
    }
    let set: &TableSet = set;
    let label = unit
        .iter()
        .map(Material::to_string)
        .collect::<Vec<_>>()
        .join("+");
    let sizes: Vec<u64> = unit.iter().map(|&m| Layout::new(m).size()).collect();
    let total: u64 = sizes.iter().sum();
    let captures: Vec<Vec<AtomicU64>> = sizes.iter().map(|&size| bitmap(size)).collect();
    // Per open position, its successors inside the unit not yet known to be won for the
    // opponent (see `FirstLook::Open`); a byte suffices (at most 17 moves per king).
    let counters: Vec<Vec<AtomicU8>> = sizes
        .iter()
        .map(|&size| (0..size).map(|_| AtomicU8::new(0)).collect())
        .collect();
    // Positions won or lost whose predecessors are still to be told (the frontier of the
    // retrograde passes): filled by one pass, emptied into `current` by the next.
    let queued: Vec<Vec<AtomicU64>> = sizes.iter().map(|&size| bitmap(size)).collect();
    let twin_slot: Vec<usize> = unit
        .iter()
        .map(|m| {
            unit.iter()
                .position(|&t| t == m.twin())
                .expect("a unit holds the twin")
        })
        .collect();

    // Pass 0: every position once. Each chunk owns its words of the table and bitmaps (chunks
    // are multiples of 64 positions), so a group of 64 positions is assembled locally and
    // stored with plain writes.
    progress.pass(&label, 0, total);
    for (slot, &material) in unit.iter().enumerate() {
        let table = set.get(material).expect("inserted above");
        let layout = table.layout();
        let counters = &counters[slot];
        chunks(layout.size()).for_each(|range| {
            let mut moves = MoveList::new();
            // The group of 64 positions being assembled: its table codes, queue and capture bits.
            let mut group = range.start / BITMAP_WORD;
            let mut codes = [0u64; (BITMAP_WORD / PER_WORD) as usize];
            let mut queue = 0u64;
            let mut capture = 0u64;
            let flush = |group: u64, codes: &mut [u64], queue: &mut u64, capture: &mut u64| {
                for (k, packed) in codes.iter_mut().enumerate() {
                    let at = (group * BITMAP_WORD / PER_WORD) as usize + k;
                    if (at as u64) * PER_WORD < layout.size() {
                        table.store_word(at, *packed);
                    }
                    *packed = 0;
                }
                captures[slot][group as usize].store(*capture, Ordering::Relaxed);
                queued[slot][group as usize].store(*queue, Ordering::Relaxed);
                (*queue, *capture) = (0, 0);
            };
            layout.for_each(range.clone(), |index, squares| {
                if index / BITMAP_WORD != group {
                    flush(group, &mut codes, &mut queue, &mut capture);
                    group = index / BITMAP_WORD;
                }
                let bit = index % BITMAP_WORD;
                match first_look(set, squares, &mut moves) {
                    FirstLook::Resolved { code, capture: c } => {
                        codes[(bit / PER_WORD) as usize] |=
                            u64::from(code) << (2 * (bit % PER_WORD));
                        capture |= u64::from(c) << bit;
                        // A draw tells no predecessor anything (what is left is drawn).
                        queue |= u64::from(code != DRAW) << bit;
                    }
                    FirstLook::Open(count) => {
                        counters[index as usize].store(count, Ordering::Relaxed);
                    }
                }
            });
            flush(group, &mut codes, &mut queue, &mut capture);
            progress.advance(range.end - range.start);
        });
    }

    let first_pass = started.elapsed().as_secs_f64();

    // Retrograde passes: every position queued in the pass before tells its predecessors (found
    // by un-making quiet moves) what it is. A lost one makes them won; a won one counts down
    // theirs, and the last won successor of a position without a draw in reach makes it lost.
    // A predecessor that is known already (captures among them: un-making does not check that
    // the move was legal) is left alone; the others are true predecessors, each reached once.
    let mut current: Vec<Vec<u64>> = sizes
        .iter()
        .map(|&size| vec![0; size.div_ceil(BITMAP_WORD) as usize])
        .collect();
    let mut passes = 1;
    loop {
        let mut marked = 0u64;
        for (words, queue) in current.iter_mut().zip(&queued) {
            for (word, queued) in words.iter_mut().zip(queue) {
                *word = queued.swap(0, Ordering::Relaxed);
                marked += u64::from(word.count_ones());
            }
        }
        if marked == 0 {
            break;
        }
        progress.pass(&label, passes, marked);
        for (slot, &material) in unit.iter().enumerate() {
            let table = set.get(material).expect("inserted above");
            let layout = table.layout();
            let marks = &current[slot];
            let twin = twin_slot[slot];
            let twin_table = set.get(unit[twin]).expect("inserted above");
            let twin_layout = twin_table.layout();
            let twin_counters = &counters[twin];
            let twin_queue = &queued[twin];
            // A predecessor's value and counter lie anywhere in tables far larger than the
            // cache (6 pieces: hundreds of megabytes): their loads are started as the
            // predecessors are found and the updates made a batch later, so that the misses
            // overlap instead of stalling one at a time.
            let tell = |pending: &mut Vec<(u64, bool)>| {
                for (i, lost) in pending.drain(..) {
                    if twin_table.get(i) != UNKNOWN {
                        continue;
                    }
                    let resolved = if lost {
                        twin_table.set_if_unknown(i, WIN)
                    } else if twin_counters[i as usize].fetch_sub(1, Ordering::Relaxed) == 1 {
                        twin_table.set(i, LOSS);
                        true
                    } else {
                        false
                    };
                    if resolved {
                        twin_queue[(i / BITMAP_WORD) as usize]
                            .fetch_or(1 << (i % BITMAP_WORD), Ordering::Relaxed);
                    }
                }
            };
            chunks(layout.size()).for_each(|range| {
                let mut visited = 0u64;
                let mut pending = Vec::with_capacity(2 * PREFETCH_BATCH);
                for word in range.start / BITMAP_WORD..range.end.div_ceil(BITMAP_WORD) {
                    let mut bits = marks[word as usize];
                    while bits != 0 {
                        let index = word * BITMAP_WORD + u64::from(bits.trailing_zeros());
                        bits &= bits - 1;
                        visited += 1;
                        let lost = table.get(index) == LOSS;
                        let squares = layout.squares(index).expect("queued positions are legal");
                        squares.unmoves(|predecessor| {
                            let i = twin_layout.index(&predecessor);
                            twin_table.prefetch(i);
                            prefetch(&twin_counters[i as usize]);
                            pending.push((i, lost));
                        });
                        if pending.len() >= PREFETCH_BATCH {
                            tell(&mut pending);
                        }
                    }
                }
                tell(&mut pending);
                progress.advance(visited);
            });
        }
        passes += 1;
    }

    log::info!(
        "{label}: pass 0 in {first_pass:.1} s, {} retrograde passes in {:.1} s",
        passes - 1,
        started.elapsed().as_secs_f64() - first_pass
    );

    // What is left is drawn; count.
    let mut built = Vec::new();
    for (slot, &material) in unit.iter().enumerate() {
        let table = set.get(material).expect("inserted above");
        let bitmap = &captures[slot];
        let counts = chunks(table.layout().size())
            .map(|range| {
                let mut counts = Counts::default();
                for_each_position(table.layout(), range, |index, _, _| {
                    if table.get(index) == UNKNOWN {
                        table.set(index, DRAW);
                    }
                    counts.legal += 1;
                    if bitmap[(index / 64) as usize].load(Ordering::Relaxed) >> (index % 64) & 1
                        == 0
                    {
                        counts.quiet += 1;
                        match table.get(index) {
                            WIN => counts.win += 1,
                            LOSS => counts.loss += 1,
                            _ => counts.draw += 1,
                        }
                    }
                });
                counts
            })
            .reduce(Counts::default, add_counts);
        built.push(Built {
            material,
            counts,
            passes,
            seconds: 0.0,
            captures: bitmap.iter().map(|w| w.load(Ordering::Relaxed)).collect(),
        });
    }
    let seconds = started.elapsed().as_secs_f64();
    for entry in &mut built {
        entry.seconds = seconds;
    }
    Ok(built)
}

fn add_counts(a: Counts, b: Counts) -> Counts {
    Counts {
        legal: a.legal + b.legal,
        quiet: a.quiet + b.quiet,
        win: a.win + b.win,
        draw: a.draw + b.draw,
        loss: a.loss + b.loss,
    }
}

/// Recomputes the capture positions of a table read from a file (which leaves them undefined)
/// from the smaller tables in `set`, which must be exact already. Returns the capture bitmap.
pub fn repair_captures(set: &TableSet, material: Material) -> Vec<u64> {
    let table = set.get(material).expect("table to repair is loaded");
    let size = table.layout().size();
    let bitmap: Vec<AtomicU64> = (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    chunks(size).for_each(|range| {
        let mut moves = MoveList::new();
        table.layout().for_each(range, |index, squares| {
            crate::movegen::generate_captures(&squares.position(), &mut moves);
            if moves.is_empty() {
                return;
            }
            bitmap[(index / 64) as usize].fetch_or(1 << (index % 64), Ordering::Relaxed);
            table.replace(index, best_of_successors(set, squares, &moves));
        });
    });
    bitmap.iter().map(|w| w.load(Ordering::Relaxed)).collect()
}

/// Options of [`build_all`].
pub struct BuildOptions<'a> {
    /// Most pieces to build.
    pub pieces: u32,
    /// Only this material's unit (its dependencies must be in `out`).
    pub material: Option<Material>,
    /// Reuse finished tables found in `out` instead of rebuilding them.
    pub resume: bool,
    /// Directory of the tables.
    pub out: &'a Path,
    /// Drop each table from memory once no later unit needs it (its file keeps it), so that
    /// memory holds the unit being built and its dependencies rather than every table (6
    /// pieces: some 12 GB of values in all); the returned set is then incomplete.
    pub release: bool,
}

/// Builds the tables asked for, writing each unit's files as soon as it is finished (the files
/// are the checkpoints: with `resume`, a unit whose files load is not built again). Calls
/// `finished` for every material built or reused. Returns the tables in memory (with
/// `release`, only those the last unit needed).
///
/// # Errors
/// A directory or file cannot be written, or (with `material`) a dependency is missing.
pub fn build_all(
    options: &BuildOptions<'_>,
    progress: &dyn Progress,
    finished: &mut dyn FnMut(&Built, bool),
) -> Result<TableSet, EgdbError> {
    std::fs::create_dir_all(options.out).map_err(|source| EgdbError::Io {
        path: options.out.display().to_string(),
        source,
    })?;
    let mut set = TableSet::default();
    let plan: Vec<(Vec<Material>, bool)> = match options.material {
        Some(material) => {
            let unit = unit_of(material);
            let mut plan: Vec<(Vec<Material>, bool)> = dependency_closure(&unit)
                .into_iter()
                .map(|m| (vec![m], false))
                .collect();
            plan.push((unit, true));
            plan
        }
        None => (2..=options.pieces)
            .flat_map(units)
            .map(|unit| (unit, true))
            .collect(),
    };
    for (step, (unit, buildable)) in plan.iter().enumerate() {
        let (unit, buildable) = (unit.as_slice(), *buildable);
        if options.release {
            let needed = dependencies_of(&plan[step..]);
            for material in set.materials() {
                if !needed.contains(&material) {
                    set.remove(material);
                }
            }
        }
        if !buildable || options.resume {
            // A finished unit that no later unit needs is only checked (read, checksum), not
            // kept: resuming a 6-piece build would otherwise decode and repair every finished
            // table before building on.
            let needed_later = dependencies_of(&plan[step + 1..]);
            let keep = !options.release || unit.iter().any(|m| needed_later.contains(m));
            match load_unit(&mut set, unit, options.out, keep) {
                Ok(loaded) => {
                    for entry in &loaded {
                        finished(entry, false);
                    }
                    continue;
                }
                Err(error) if !buildable => {
                    log::error!("{error}");
                    return Err(EgdbError::MissingDependency {
                        material: options.material.expect("a plan with dependencies"),
                        needed: unit[0],
                    });
                }
                Err(error) => log::info!("building {}: {error}", unit[0]),
            }
        }
        let built = build_unit(&mut set, unit, progress)?;
        for entry in &built {
            let table = set.get(entry.material).expect("just built");
            file::write_table(options.out, table, entry)?;
            finished(entry, true);
        }
    }
    Ok(set)
}

/// Every material that one of `units` depends on directly (with repeats).
fn dependencies_of(units: &[(Vec<Material>, bool)]) -> Vec<Material> {
    units
        .iter()
        .flat_map(|(unit, _)| unit.iter().flat_map(Material::dependencies))
        .collect()
}

/// Loads a unit's files into `set` and repairs their capture positions; without `keep`, only
/// reads and checks them (the [`Built`] entries then have no capture bitmap).
fn load_unit(
    set: &mut TableSet,
    unit: &[Material],
    dir: &Path,
    keep: bool,
) -> Result<Vec<Built>, EgdbError> {
    let mut loaded = Vec::new();
    for &material in unit {
        let (table, header) = file::read_table(&file::path_of(dir, material), Some(material))?;
        if keep {
            set.insert(material, table);
        }
        loaded.push((material, header));
    }
    Ok(loaded
        .into_iter()
        .map(|(material, header)| Built {
            material,
            counts: header.counts,
            passes: header.passes,
            seconds: header.seconds,
            captures: if keep {
                repair_captures(set, material)
            } else {
                Vec::new()
            },
        })
        .collect())
}
