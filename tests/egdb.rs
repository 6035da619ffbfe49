//! The endgame databases (2-4 pieces, built here in seconds) against independent answers:
//!
//! * local consistency: every position's stored value is the best of its successors' (full pass
//!   over every 2-4 piece table, tables read back from their files);
//! * a slow, obviously correct solver written here without the generator's index, normalisation
//!   or build order: every position with at most three pieces, both colours to move, held in a
//!   hash map and iterated naively to a fixed point; compared on every position;
//! * `game::endgame::KingTables` (its own retrograde solver) on every king-only lone-king
//!   position up to three kings against one (4 pieces);
//! * random 4-piece positions against a depth-limited independent search whose proven wins and
//!   losses the database must agree with;
//! * known results: 3 kings v 1 king drawn in general, king + 2 men v king, the counts of the
//!   wiegerw/draughts tests (quiet positions of 1110 and 1020).
//!
//! Five pieces (minutes): `cargo test --release --test egdb -- --ignored --nocapture`.

use rafle::core::{BitBoard, Color};
use rafle::egdb::build::{self, BuildOptions, Silent};
use rafle::egdb::index::Material;
use rafle::egdb::{Egdb, Wdl, verify};
use rafle::game::endgame::KingTables;
use rafle::notation::fen;
use rafle::position::{Position, Setup};
use rafle::rules::International;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

type I = International;

fn dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rafle-egdb-{}-{name}", std::process::id()))
}

/// The 2-4 piece tables, built once per test binary and read back from their files.
fn tables() -> &'static Egdb {
    static TABLES: OnceLock<Egdb> = OnceLock::new();
    TABLES.get_or_init(|| {
        let out = dir("2-4");
        let options = BuildOptions {
            pieces: 4,
            material: None,
            resume: false,
            out: &out,
            release: false,
        };
        build::build_all(&options, &Silent, &mut |_, _| {}).expect("2-4 pieces build");
        let egdb = Egdb::open(&out, 4).expect("tables load");
        assert_eq!(egdb.table_count(), 4 + 12 + 25);
        egdb
    })
}

/// Every setup of up to three pieces (both sides at least one), both sides to move.
fn small_positions() -> Vec<Position<I>> {
    let mut out = Vec::new();
    // Piece codes: 0 white man, 1 white king, 2 black man, 3 black king.
    fn place(kinds: &[u8], squares: &mut Vec<u32>, out: &mut Vec<Position<I>>) {
        if squares.len() == kinds.len() {
            let mut setup = Setup::default();
            for (&kind, &square) in kinds.iter().zip(squares.iter()) {
                match kind {
                    0 => setup.white_men.push(square),
                    1 => setup.white_kings.push(square),
                    2 => setup.black_men.push(square),
                    _ => setup.black_kings.push(square),
                }
            }
            for side in Color::BOTH {
                setup.side = Some(side);
                if let Ok(position) = Position::from_setup(&setup) {
                    out.push(position);
                }
            }
            return;
        }
        let depth = squares.len();
        // Equal kinds in increasing square order, so each set is placed once.
        let from = if depth > 0 && kinds[depth - 1] == kinds[depth] {
            squares[depth - 1] + 1
        } else {
            1
        };
        for square in from..=50 {
            if squares.contains(&square) {
                continue;
            }
            squares.push(square);
            place(kinds, squares, out);
            squares.pop();
        }
    }
    for count in 2..=3usize {
        let mut kinds = vec![0u8; count];
        loop {
            let white = kinds.iter().any(|&k| k < 2);
            let black = kinds.iter().any(|&k| k >= 2);
            if white && black && kinds.windows(2).all(|w| w[0] <= w[1]) {
                place(&kinds, &mut Vec::new(), &mut out);
            }
            let mut i = 0;
            while i < count && kinds[i] == 3 {
                kinds[i] = 0;
                i += 1;
            }
            if i == count {
                break;
            }
            kinds[i] += 1;
        }
    }
    out
}

/// The naive solver: values of every position with at most three pieces, side-to-move view.
fn naive_solution() -> &'static HashMap<Position<I>, Wdl> {
    static SOLUTION: OnceLock<HashMap<Position<I>, Wdl>> = OnceLock::new();
    SOLUTION.get_or_init(|| {
        let all = small_positions();
        let mut values: HashMap<Position<I>, Wdl> = HashMap::with_capacity(all.len());
        let mut open = all;
        loop {
            let mut still_open = Vec::new();
            let mut changed = false;
            for position in open {
                let moves = position.legal_moves();
                let mut any_unknown = false;
                let mut best = Wdl::Loss;
                for mv in moves.iter() {
                    let child = position.play(mv);
                    let value = if child.pieces(child.side()).is_empty() {
                        Some(Wdl::Win)
                    } else {
                        values.get(&child).map(|v| v.flip())
                    };
                    match value {
                        Some(Wdl::Win) => best = Wdl::Win,
                        Some(Wdl::Draw) if best == Wdl::Loss => best = Wdl::Draw,
                        None => any_unknown = true,
                        _ => {}
                    }
                }
                if best == Wdl::Win || !any_unknown {
                    values.insert(position, best);
                    changed = true;
                } else {
                    still_open.push(position);
                }
            }
            open = still_open;
            if !changed {
                break;
            }
        }
        for position in open {
            values.insert(position, Wdl::Draw);
        }
        values
    })
}

#[test]
fn index_holes_and_counts_match_the_published_quiet_counts() {
    let egdb = tables();
    let lines = rafle::egdb::directory::stats_lines(&dir("2-4"), 4).expect("stats");
    // wiegerw/draughts python/tests/test_egdb.py: 73,876 quiet positions for 1 1 1 0, 37,863
    // for 1 0 2 0.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("1 1 1 0 ") && l.split(' ').nth(5) == Some("73876"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("1 0 2 0 ") && l.split(' ').nth(5) == Some("37863"))
    );
    let totals: Vec<&String> = lines.iter().filter(|l| l.starts_with("total")).collect();
    assert_eq!(totals.len(), 3);
    assert!(totals[0].contains("legal 8845 "), "{}", totals[0]);
    assert!(totals[1].contains("legal 806300 "), "{}", totals[1]);
    assert!(totals[2].contains("legal 41971200 "), "{}", totals[2]);
    assert!(egdb.max_pieces() == 4);
}

#[test]
fn every_position_is_the_best_of_its_successors() {
    let out = dir("2-4");
    tables();
    let set = rafle::egdb::directory::load_exact(&out, 4).expect("load");
    for material in set.materials() {
        let check = verify::check_table(&set, material, true);
        assert_eq!(check.errors, 0, "{material}: {check:?}");
        assert!(check.checked > 0);
    }
}

#[test]
fn compressed_tables_hold_the_same_values_as_unpacked_ones() {
    let out = dir("2-4");
    tables();
    for (material, path) in rafle::egdb::file::list_dir(&out).expect("dir") {
        let (dense, _) = rafle::egdb::file::read_table(&path, Some(material)).expect("table");
        let (compact, _) = rafle::egdb::file::read_compact(&path, Some(material)).expect("compact");
        let size = dense.layout().size();
        assert_eq!(compact.layout().size(), size);
        for index in 0..size {
            assert_eq!(
                compact.get(index),
                dense.get(index),
                "{material} index {index}"
            );
        }
    }
    // An engine holding the 4-piece tables compressed probes as one holding them unpacked.
    let (set, problems) = rafle::egdb::file::load_dir(&out, 4, 3).expect("dir");
    assert!(problems.is_empty(), "{problems:?}");
    let compact = Egdb::from_tables(set);
    for position in small_positions().iter().step_by(7) {
        assert_eq!(compact.probe(position), tables().probe(position));
    }
}

#[test]
fn the_naive_solver_agrees_on_every_position_up_to_three_pieces() {
    let egdb = tables();
    let solution = naive_solution();
    assert!(solution.len() > 1_600_000, "{}", solution.len());
    let mut wins = 0;
    for (position, &value) in solution {
        assert_eq!(egdb.probe(position), Some(value), "{position:?}");
        wins += usize::from(value == Wdl::Win);
    }
    assert!(wins > 0);
}

#[test]
fn king_tables_agree_on_three_kings_against_one() {
    let egdb = tables();
    let kings = KingTables::<I>::build();
    let mut checked = 0;
    let mut draws = 0;
    let mut visit = |setup: Setup| {
        let position = Position::from_setup(&setup).expect("valid");
        let outcome = kings.probe(&position).expect("king-only lone king");
        let white_to_move = position.side() == Color::White;
        let expected = match (outcome.white.is_some(), outcome.black.is_some()) {
            (true, _) if white_to_move => Wdl::Win,
            (true, _) => Wdl::Loss,
            (_, true) if white_to_move => Wdl::Loss,
            (_, true) => Wdl::Win,
            _ => Wdl::Draw,
        };
        assert_eq!(egdb.probe(&position), Some(expected), "{position:?}");
        checked += 1;
        draws += usize::from(expected == Wdl::Draw);
    };
    for a in 1..=50 {
        for b in a + 1..=50 {
            for c in b + 1..=50 {
                for lone in 1..=50 {
                    if [a, b, c].contains(&lone) {
                        continue;
                    }
                    for side in Color::BOTH {
                        visit(Setup {
                            side: Some(side),
                            white_kings: vec![a, b, c],
                            black_kings: vec![lone],
                            ..Setup::default()
                        });
                    }
                }
            }
        }
    }
    assert_eq!(checked, 2 * 19_600 * 47);
    // Three kings against one are drawn in general.
    assert!(draws > checked / 2, "{draws} of {checked}");
}

/// Independent depth-limited search: `Some(value)` when proven within `depth` plies using only
/// the rules and, below four pieces, the naive solver.
fn proven(position: &Position<I>, depth: u32) -> Option<Wdl> {
    if position.occupied().count() <= 3 {
        return naive_solution().get(position).copied();
    }
    let moves = position.legal_moves();
    if moves.is_empty() {
        return Some(Wdl::Loss);
    }
    if depth == 0 {
        return None;
    }
    let mut all_lost = true;
    let mut all_known = true;
    let mut any_draw = false;
    for mv in moves.iter() {
        let child = position.play(mv);
        let value = if child.pieces(child.side()).is_empty() {
            Some(Wdl::Win)
        } else {
            proven(&child, depth - 1).map(Wdl::flip)
        };
        match value {
            Some(Wdl::Win) => return Some(Wdl::Win),
            Some(Wdl::Draw) => {
                any_draw = true;
                all_lost = false;
            }
            Some(Wdl::Loss) => {}
            None => {
                all_known = false;
                all_lost = false;
            }
        }
    }
    if all_lost {
        Some(Wdl::Loss)
    } else if all_known && any_draw {
        Some(Wdl::Draw)
    } else {
        None
    }
}

#[test]
fn random_four_piece_positions_agree_with_an_independent_search() {
    use rand::{RngExt, SeedableRng};
    let egdb = tables();
    let mut rng = rand::rngs::StdRng::seed_from_u64(15);
    let (mut sampled, mut proven_count) = (0, 0);
    while sampled < 3000 {
        let mut squares: Vec<u32> = Vec::new();
        while squares.len() < 4 {
            let s = rng.random_range(1..=50u32);
            if !squares.contains(&s) {
                squares.push(s);
            }
        }
        let white = rng.random_range(1..=3usize);
        let mut setup = Setup {
            side: Some(if rng.random_bool(0.5) {
                Color::White
            } else {
                Color::Black
            }),
            ..Setup::default()
        };
        for (i, &s) in squares.iter().enumerate() {
            let king = rng.random_bool(0.5);
            match (i < white, king) {
                (true, false) => setup.white_men.push(s),
                (true, true) => setup.white_kings.push(s),
                (false, false) => setup.black_men.push(s),
                (false, true) => setup.black_kings.push(s),
            }
        }
        let Ok(position) = Position::<I>::from_setup(&setup) else {
            continue;
        };
        sampled += 1;
        let value = egdb.probe(&position).expect("4 pieces are in the tables");
        if let Some(independent) = proven(&position, 3) {
            assert_eq!(value, independent, "{position:?}");
            proven_count += 1;
        }
    }
    assert!(proven_count > 300, "{proven_count}");
}

#[test]
fn known_results() {
    let egdb = tables();
    let value = |text: &str| {
        egdb.probe(&fen::parse::<I>(text).expect("FEN"))
            .expect("in tables")
    };
    // The longest wins of Grimminck's statistics (design note 4.3): won for the side named.
    assert_eq!(value("W:WK6,K22,K27:BK49"), Wdl::Win);
    assert_eq!(value("W:WK40,K45,50:BK11"), Wdl::Win);
    assert_eq!(value("W:W6,K49,50:BK16"), Wdl::Win);
    // The lone king to move takes the king at once (14x5) and wins.
    assert_eq!(value("W:WK14:B1,K10,12"), Wdl::Win);
    assert_eq!(value("W:WK2,6:BK50"), Wdl::Win);
    assert_eq!(value("W:W33:B2"), Wdl::Win);
    assert_eq!(value("W:W33,46:B4,5"), Wdl::Win);
    assert_eq!(value("W:W23:B5,6"), Wdl::Win);
    // A lone king on the long diagonal holds against three kings.
    assert_eq!(value("W:WK1,K2,K3:BK46"), Wdl::Draw);
    assert_eq!(value("B:WK1,K2,K3:BK46"), Wdl::Draw);
    // King against king with no shot is a draw.
    assert_eq!(value("W:WK1:BK50"), Wdl::Draw);
}

/// Builds again with `resume`; the materials built anew.
fn resume(options: BuildOptions<'_>) -> Vec<Material> {
    let mut rebuilt = Vec::new();
    let options = BuildOptions {
        resume: true,
        ..options
    };
    build::build_all(&options, &Silent, &mut |b, new| {
        if new {
            rebuilt.push(b.material)
        }
    })
    .expect("resume");
    rebuilt
}

#[test]
fn corrupt_and_truncated_files_are_reported_not_loaded() {
    let out = dir("corrupt");
    let options = BuildOptions {
        pieces: 2,
        material: None,
        resume: false,
        out: &out,
        release: false,
    };
    build::build_all(&options, &Silent, &mut |_, _| {}).expect("2 pieces");
    let victim = rafle::egdb::file::path_of(&out, Material::new(0, 1, 0, 1));
    let bytes = std::fs::read(&victim).expect("file");
    std::fs::write(&victim, &bytes[..bytes.len() - 3]).expect("truncate");
    let (set, problems) = rafle::egdb::file::load_dir(&out, 7, 7).expect("dir");
    assert_eq!(set.materials().len(), 3);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("0101.rdb"), "{problems:?}");
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    std::fs::write(&victim, &flipped).expect("corrupt");
    let (_, problems) = rafle::egdb::file::load_dir(&out, 7, 7).expect("dir");
    assert!(problems[0].contains("checksum"), "{problems:?}");
    // Resume rebuilds the bad table and keeps the others.
    let rebuilt = resume(options);
    assert_eq!(rebuilt, vec![Material::new(0, 1, 0, 1)]);
    let (_, problems) = rafle::egdb::file::load_dir(&out, 7, 7).expect("dir");
    assert!(problems.is_empty(), "{problems:?}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_resumed_build_that_releases_tables_rebuilds_only_what_is_missing() {
    let out = dir("resume-release");
    let options = BuildOptions {
        pieces: 3,
        material: None,
        resume: false,
        out: &out,
        release: true,
    };
    build::build_all(&options, &Silent, &mut |_, _| {}).expect("2-3 pieces");
    let material = Material::new(1, 1, 0, 1);
    let victim = rafle::egdb::file::path_of(&out, material);
    let saved = out.join("saved.bin");
    std::fs::rename(&victim, &saved).expect("move the table away");
    let mut rebuilt = resume(options);
    rebuilt.sort();
    assert_eq!(rebuilt, vec![Material::new(0, 1, 1, 1), material]);
    let read = |path: &std::path::Path| {
        rafle::egdb::file::read_table(path, Some(material))
            .expect("table")
            .0
            .to_words()
    };
    assert_eq!(read(&saved), read(&victim), "the same values again");
    let _ = std::fs::remove_dir_all(&out);
}

/// Five pieces: build (minutes), then check every position of every table.
#[test]
#[ignore = "minutes: cargo test --release --test egdb -- --ignored --nocapture"]
fn five_pieces_are_consistent() {
    let out = std::env::var_os("RAFLE_EGDB_DIR").map_or_else(|| dir("2-5"), PathBuf::from);
    let options = BuildOptions {
        pieces: 5,
        material: None,
        resume: true,
        out: &out,
        release: false,
    };
    build::build_all(&options, &Silent, &mut |_, _| {}).expect("2-5 pieces build");
    let set = rafle::egdb::directory::load_exact(&out, 5).expect("load");
    for material in set.materials() {
        let check = verify::check_table(&set, material, true);
        println!("{material}: {check:?}");
        assert_eq!(check.errors, 0, "{material}");
    }
    let egdb = Egdb::open(&out, 5).expect("open");
    let value = |text: &str| {
        egdb.probe(&fen::parse::<I>(text).expect("FEN"))
            .expect("in tables")
    };
    // Four kings against one win.
    assert_eq!(value("W:WK1,K2,K3,K4:BK46"), Wdl::Win);
}

/// Probe cost in nanoseconds (a measurement, not a check):
/// `cargo test --release --test egdb probe_cost -- --ignored --nocapture`.
#[test]
#[ignore = "measurement"]
fn probe_cost() {
    use rand::{RngExt, SeedableRng};
    // `RAFLE_EGDB_DIR` and `RAFLE_EGDB_PIECES` measure a built directory (tables above
    // `rafle::egdb::DENSE_PIECES` pieces compressed, as in an engine); default the 2-4 pieces.
    let pieces: usize =
        std::env::var("RAFLE_EGDB_PIECES").map_or(4, |p| p.parse().expect("pieces"));
    let loaded;
    let egdb = match std::env::var_os("RAFLE_EGDB_DIR") {
        Some(dir) => {
            let started = std::time::Instant::now();
            loaded = Egdb::open(std::path::Path::new(&dir), pieces as u32).expect("open");
            println!(
                "loaded {} tables, {} MB, in {:.1} s",
                loaded.table_count(),
                loaded.bytes() >> 20,
                started.elapsed().as_secs_f64()
            );
            &loaded
        }
        None => tables(),
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut quiet = Vec::new();
    let mut any = Vec::new();
    while any.len() < 100_000 {
        let mut setup = Setup {
            side: Some(Color::White),
            ..Setup::default()
        };
        let mut used = Vec::new();
        for i in 0..pieces {
            let s = loop {
                let s = rng.random_range(1..=50u32);
                if !used.contains(&s) {
                    break s;
                }
            };
            used.push(s);
            match (i < pieces / 2, rng.random_bool(0.5)) {
                (true, false) => setup.white_men.push(s),
                (true, true) => setup.white_kings.push(s),
                (false, false) => setup.black_men.push(s),
                (false, true) => setup.black_kings.push(s),
            }
        }
        if let Ok(position) = Position::<I>::from_setup(&setup) {
            if !position.has_capture() {
                quiet.push(position);
            }
            any.push(position);
        }
    }
    let time = |positions: &[Position<I>], f: &dyn Fn(&Position<I>) -> Option<Wdl>| {
        let started = std::time::Instant::now();
        let mut wins = 0usize;
        for _ in 0..10 {
            for p in positions {
                wins += usize::from(f(p) == Some(Wdl::Win));
            }
        }
        let ns = started.elapsed().as_nanos() as f64 / (10 * positions.len()) as f64;
        (ns, wins)
    };
    let (quiet_ns, _) = time(&quiet, &|p| egdb.probe_quiet(p));
    let (any_ns, _) = time(&any, &|p| egdb.probe(p));
    println!(
        "probe_quiet {quiet_ns:.0} ns ({} quiet positions), probe with capture resolution {any_ns:.0} ns ({} positions)",
        quiet.len(),
        any.len()
    );
}
