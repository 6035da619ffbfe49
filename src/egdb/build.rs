//! The generator: forward iteration to a fixed point, one *unit* (a material and its colour
//! twin, whose positions lead into each other) at a time, in dependency order.
//!
//! Pass 0 resolves every position whose successors all lie in finished tables: captures (fewer
//! pieces), blocked positions (lost) and, where a promotion wins, quiet positions. Each later pass
//! revisits the unresolved positions one of whose successors was resolved in the pass before
//! (found by un-making quiet moves, [`Squares::unmoves`]) and resolves one as a win when a successor is lost for the
//! opponent, as a loss when every successor is won for the opponent, and as a draw when every
//! successor is final and none better than a draw. When a pass changes nothing, what is left
//! unknown is drawn (no side can force anything). The in-memory tables stay exact on capture
//! positions, so successor lookups while building are one index computation each; files leave
//! capture positions undefined and [`repair_captures`] recomputes them after loading.
//!
//! Parallelism: rayon over chunks of indices (a multiple of 32 positions, so two threads never
//! write one word); a position only writes its own value, and a value read while another thread
//! sets it is merely resolved one pass later.

pub use super::file::{Built, Counts};
use super::index::{Layout, Material, Squares};
use super::table::{DRAW, LOSS, Table, UNKNOWN, WIN};
use super::{EgdbError, TableSet, file};
use crate::moves::MoveList;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// The best code over the successors of `position`, from its side to move's view: `(code,
/// complete)` where `complete` says every successor was known.
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

/// Visits the non-hole indices of `range` in `layout` with their men (White's, Black's).
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
        set.insert(material, Table::new(material));
    }
    let set: &TableSet = set;
    let label = unit
        .iter()
        .map(Material::to_string)
        .collect::<Vec<_>>()
        .join("+");
    let captures: Vec<Vec<AtomicU64>> = unit
        .iter()
        .map(|&m| {
            let size = Layout::new(m).size();
            (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect()
        })
        .collect();
    let total: u64 = unit.iter().map(|&m| Layout::new(m).size()).sum();

    // Positions to look at again in the next pass: the predecessors (by a quiet move inside the
    // unit) of every position resolved in this one. Nothing else can change.
    let dirty: Vec<Vec<AtomicU64>> = unit
        .iter()
        .map(|&m| {
            let size = Layout::new(m).size();
            (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect()
        })
        .collect();
    let resolve = |slot: usize, index: u64, squares: &Squares, code: u8| {
        set.get(unit[slot])
            .expect("inserted above")
            .set(index, code);
        let twin = unit[slot].twin();
        let twin_slot = unit
            .iter()
            .position(|&m| m == twin)
            .expect("unit holds the twin");
        let layout = set.get(twin).expect("inserted above").layout();
        squares.unmoves(|predecessor| {
            let i = layout.index(&predecessor);
            dirty[twin_slot][(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
        });
    };

    // Pass 0: every position; resolves captures, blocked positions, promotions that win.
    progress.pass(&label, 0, total);
    for (slot, &material) in unit.iter().enumerate() {
        let table = set.get(material).expect("inserted above");
        let bitmap = &captures[slot];
        chunks(table.layout().size()).for_each(|range| {
            let len = range.end - range.start;
            let mut moves = MoveList::new();
            for_each_position(table.layout(), range, |index, wm, bm| {
                let squares = table.layout().squares_with_men(index, wm, bm);
                crate::movegen::generate(&squares.position(), &mut moves);
                if moves.is_empty() {
                    resolve(slot, index, &squares, LOSS);
                    return;
                }
                if moves[0].is_capture() {
                    bitmap[(index / 64) as usize].fetch_or(1 << (index % 64), Ordering::Relaxed);
                }
                let code = best_of_successors(set, &squares, &moves);
                if code != UNKNOWN {
                    resolve(slot, index, &squares, code);
                }
            });
            progress.advance(len);
        });
    }

    // Later passes: only the positions marked dirty, until a pass resolves nothing.
    let mut passes = 1;
    loop {
        let current: Vec<Vec<u64>> = dirty
            .iter()
            .map(|words| words.iter().map(|w| w.swap(0, Ordering::Relaxed)).collect())
            .collect();
        let marked: u64 = current
            .iter()
            .flatten()
            .map(|w| u64::from(w.count_ones()))
            .sum();
        if marked == 0 {
            break;
        }
        progress.pass(&label, passes, marked);
        let mut changed = 0;
        for (slot, &material) in unit.iter().enumerate() {
            let table = set.get(material).expect("inserted above");
            let layout = table.layout();
            let marks = &current[slot];
            changed += chunks(layout.size())
                .map(|range| {
                    let mut moves = MoveList::new();
                    let mut resolved = 0u64;
                    let mut visited = 0u64;
                    for word in range.start / 64..range.end.div_ceil(64) {
                        let mut bits = marks[word as usize];
                        while bits != 0 {
                            let index = word * 64 + u64::from(bits.trailing_zeros());
                            bits &= bits - 1;
                            visited += 1;
                            if table.get(index) != UNKNOWN {
                                continue;
                            }
                            let Some(squares) = layout.squares(index) else {
                                continue;
                            };
                            crate::movegen::generate(&squares.position(), &mut moves);
                            let code = best_of_successors(set, &squares, &moves);
                            if code != UNKNOWN {
                                resolve(slot, index, &squares, code);
                                resolved += 1;
                            }
                        }
                    }
                    progress.advance(visited);
                    resolved
                })
                .sum::<u64>();
        }
        passes += 1;
        if changed == 0 {
            break;
        }
    }

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
        for_each_position(table.layout(), range, |index, wm, bm| {
            let squares = table.layout().squares_with_men(index, wm, bm);
            crate::movegen::generate_captures(&squares.position(), &mut moves);
            if moves.is_empty() {
                return;
            }
            bitmap[(index / 64) as usize].fetch_or(1 << (index % 64), Ordering::Relaxed);
            table.replace(index, best_of_successors(set, &squares, &moves));
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
}

/// Builds the tables asked for, writing each unit's files as soon as it is finished (the files
/// are the checkpoints: with `resume`, a unit whose files load is not built again). Calls
/// `finished` for every material built or reused. Returns the tables in memory.
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
    for (unit, buildable) in plan {
        if !buildable || options.resume {
            match load_unit(&mut set, &unit, options.out) {
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
        let built = build_unit(&mut set, &unit, progress)?;
        for entry in &built {
            let table = set.get(entry.material).expect("just built");
            file::write_table(options.out, table, entry)?;
            finished(entry, true);
        }
    }
    Ok(set)
}

/// Loads a unit's files into `set` and repairs their capture positions.
fn load_unit(set: &mut TableSet, unit: &[Material], dir: &Path) -> Result<Vec<Built>, EgdbError> {
    let mut loaded = Vec::new();
    for &material in unit {
        let (table, header) = file::read_table(&file::path_of(dir, material), Some(material))?;
        set.insert(material, table);
        loaded.push((material, header));
    }
    Ok(loaded
        .into_iter()
        .map(|(material, header)| Built {
            material,
            counts: header.counts,
            passes: header.passes,
            seconds: header.seconds,
            captures: repair_captures(set, material),
        })
        .collect())
}
