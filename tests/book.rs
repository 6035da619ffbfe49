//! The opening book: file round trip, legality of the stored moves, transpositions, the margin
//! rule, deterministic and resumable building, use through the command line and Hub, and the
//! shipped book itself.

mod common;

use common::hub::Engine;
use rafle::book::build::{BuildSettings, Builder};
use rafle::book::{Book, BookMove, BookRule, BuildInfo, encode};
use rafle::notation::text;
use rafle::position::Position;
use rafle::rules::International;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

type Pos = Position<International>;

/// A small, fast build: shallow scoring searches, a few hundred positions.
fn tiny_settings() -> BuildSettings {
    BuildSettings {
        depth: 2,
        batch: 8,
        hash_mb: 1,
        ..BuildSettings::default()
    }
}

fn grow(builder: &mut Builder<International>, positions: usize) {
    while builder.positions() < positions {
        if builder.round(&|| {}).expanded == 0 {
            break;
        }
    }
}

fn tiny_book(positions: usize) -> Book<International> {
    let mut builder = Builder::<International>::new(tiny_settings());
    grow(&mut builder, positions);
    Book::from_bytes(builder.to_bytes()).expect("a built book loads")
}

type Entries = Vec<(Pos, Vec<BookMove<International>>)>;

fn entries(book: &Book<International>) -> Entries {
    book.entries()
        .collect::<Result<Vec<_>, _>>()
        .expect("every record decodes")
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rafle-test-{}-{name}.book", std::process::id()))
}

fn play(moves: &str) -> Pos {
    let mut position = Pos::start();
    for word in moves.split_whitespace() {
        let mv = text::parse(&position, word).expect("legal move");
        position = position.play(&mv);
    }
    position
}

#[test]
fn format_round_trip() {
    let book = tiny_book(300);
    assert!(book.len() > 10);
    let original = entries(&book);
    // Encoding the decoded entries gives the same bytes.
    let again = encode(book.info(), original.clone());
    assert_eq!(again, book.as_bytes());
    // Through a file.
    let path = temp_path("round-trip");
    book.save(&path).expect("save");
    let loaded = Book::<International>::load(&path).expect("load");
    std::fs::remove_file(&path).ok();
    assert_eq!(loaded.as_bytes(), book.as_bytes());
    assert_eq!(loaded.info(), book.info());
    assert_eq!(entries(&loaded), original);
    for (position, moves) in &original {
        assert_eq!(&loaded.probe(position), moves);
    }
    // A damaged byte is caught by the checksum.
    let mut damaged = book.as_bytes().to_vec();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x40;
    assert!(Book::<International>::from_bytes(damaged).is_err());
}

#[test]
fn every_stored_move_is_legal_and_every_legal_move_is_stored() {
    let book = tiny_book(300);
    for (position, moves) in entries(&book) {
        let legal = position.legal_moves();
        assert_eq!(moves.len(), legal.len(), "{position:?}");
        for book_move in &moves {
            assert!(legal.contains(&book_move.mv), "{position:?}");
        }
        // Best first.
        assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
    }
}

/// Scan's book holds about 475,000 positions; the one we ship is bigger.
const SCAN_BOOK_POSITIONS: usize = 475_000;

/// The shipped book is a contract as well: it loads with this build's Zobrist keys, every record
/// is found again by probing its own position, every stored move is legal (and every legal move
/// stored, best first), and it holds more positions than Scan's.
#[test]
fn the_shipped_book() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("books/international.book");
    let book = Book::<International>::load(&path).expect("the shipped book loads");
    let mut positions = HashSet::new();
    for (position, moves) in entries(&book) {
        assert_eq!(book.probe(&position), moves, "{position:?}");
        let legal = position.legal_moves();
        assert_eq!(moves.len(), legal.len(), "{position:?}");
        assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
        positions.insert(position.hash());
        for book_move in &moves {
            assert!(legal.contains(&book_move.mv), "{position:?}");
            positions.insert(position.play(&book_move.mv).hash());
        }
    }
    assert!(
        positions.len() > SCAN_BOOK_POSITIONS,
        "{} positions",
        positions.len()
    );
    assert!(!book.probe(&Pos::start()).is_empty());
}

#[test]
fn probing_finds_transpositions() {
    // A hand-made book: one position reached by two move orders.
    let a = play("31-26 19-23 34-30");
    let b = play("34-30 19-23 31-26");
    assert_eq!(a, b);
    let moves: Vec<BookMove<International>> = a
        .legal_moves()
        .iter()
        .enumerate()
        .map(|(i, &mv)| BookMove {
            mv,
            score: 10 - i as i32,
        })
        .collect();
    let book =
        Book::<International>::from_bytes(encode(&BuildInfo::default(), [(a, moves.clone())]))
            .expect("loads");
    assert_eq!(book.probe(&b), moves);
    assert!(book.probe(&play("31-26 19-23")).is_empty());

    // A built book stores a transposed position once, and finds it from every path.
    let book = tiny_book(1500);
    let records = entries(&book);
    let expanded: HashSet<u64> = records.iter().map(|(p, _)| p.hash()).collect();
    let mut parents: HashMap<u64, Vec<u64>> = HashMap::new();
    for (position, moves) in &records {
        for m in moves {
            parents
                .entry(position.play(&m.mv).hash())
                .or_default()
                .push(position.hash());
        }
    }
    let transposed = records
        .iter()
        .find(|(p, _)| parents.get(&p.hash()).is_some_and(|v| v.len() >= 2))
        .expect("the book has a transposition");
    for parent in &parents[&transposed.0.hash()] {
        assert!(expanded.contains(parent));
    }
    assert_eq!(book.probe(&transposed.0), transposed.1);
}

#[test]
fn margin_rule() {
    let position = Pos::start();
    let scores = [12, 10, 9, 8, 3, 0, -4, -20, -50];
    let moves: Vec<BookMove<International>> = position
        .legal_moves()
        .iter()
        .zip(scores)
        .map(|(&mv, score)| BookMove { mv, score })
        .collect();
    let book = Book::<International>::from_bytes(encode(
        &BuildInfo::default(),
        [(position, moves.clone())],
    ))
    .expect("loads");
    let rule = BookRule { ply: 4, margin: 4 };
    let mut rng = StdRng::seed_from_u64(7);
    let mut young = HashSet::new();
    let mut later = HashSet::new();
    for _ in 0..400 {
        let early = book.choose(&position, 3, rule, &mut rng).expect("in book");
        assert!(early.score >= 12 - 4);
        young.insert(early.score);
        let late = book.choose(&position, 4, rule, &mut rng).expect("in book");
        later.insert(late.score);
    }
    // Within the margin every candidate is played; after book-ply only the best.
    assert_eq!(young, HashSet::from([12, 10, 9, 8]));
    assert_eq!(later, HashSet::from([12]));
    let strict = BookRule { ply: 4, margin: 0 };
    assert_eq!(
        book.choose(&position, 0, strict, &mut rng).map(|m| m.score),
        Some(12)
    );
    assert!(
        book.choose(&play("32-28"), 1, rule, &mut rng).is_none(),
        "a position outside the book has no book move"
    );
}

#[test]
fn building_is_deterministic_across_threads_and_resumes() {
    let target = 600;
    let mut one = Builder::<International>::new(tiny_settings());
    grow(&mut one, target);
    let mut two = Builder::<International>::new(BuildSettings {
        threads: 2,
        ..tiny_settings()
    });
    grow(&mut two, target);
    let reference = entries(&Book::from_bytes(one.to_bytes()).expect("loads"));
    assert_eq!(
        entries(&Book::from_bytes(two.to_bytes()).expect("loads")),
        reference
    );
    // Stop half way, save, resume from the file, finish: the same book.
    let mut first = Builder::<International>::new(tiny_settings());
    grow(&mut first, target / 2);
    let checkpoint = Book::<International>::from_bytes(first.to_bytes()).expect("loads");
    let mut resumed = Builder::resume(&checkpoint, 1).expect("resumes");
    assert_eq!(resumed.positions(), first.positions());
    assert_eq!(resumed.root_value(), first.root_value());
    grow(&mut resumed, target);
    assert_eq!(resumed.positions(), one.positions());
    assert_eq!(
        entries(&Book::from_bytes(resumed.to_bytes()).expect("loads")),
        reference
    );
}

fn rafle(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(args)
        .output()
        .expect("rafle runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn command_line_build_probe_and_analyze() {
    let path = temp_path("cli");
    std::fs::remove_file(&path).ok();
    let file = path.to_str().expect("utf-8 path");
    let build = [
        "book",
        "build",
        "--out",
        file,
        "--positions",
        "150",
        "--depth",
        "2",
        "--hash",
        "1",
    ];
    let (ok, out, err) = rafle(&build);
    assert!(ok, "{out}{err}");
    // An existing file is not overwritten without --resume.
    let (ok, _, err) = rafle(&build);
    assert!(!ok && err.contains("--resume"), "{err}");
    // Resuming with other settings is refused; with the same ones it grows the book.
    let (ok, _, err) = rafle(&["book", "build", "--out", file, "--resume", "--depth", "3"]);
    assert!(!ok && err.contains("--depth"), "{err}");
    let (ok, out, err) = rafle(&[
        "book",
        "build",
        "--out",
        file,
        "--resume",
        "--positions",
        "300",
    ]);
    assert!(ok, "{out}{err}");
    let book = Book::<International>::load(&path).expect("loads");
    assert!(book.len() > 20);

    let (ok, out, _) = rafle(&["book", "probe", "--book", file]);
    assert!(ok);
    assert!(out.contains("9 book moves"), "{out}");
    let (ok, out, _) = rafle(&["book", "probe", "--book", file, "--moves", "1.32-28 19-23"]);
    assert!(ok, "{out}");
    let (ok, out, _) = rafle(&["book", "stats", "--book", file]);
    assert!(ok && out.contains("expanded positions"), "{out}");
    let (ok, out, _) = rafle(&["analyze", "--book", file]);
    assert!(ok && out.contains("(book)"), "{out}");
    let (ok, _, err) = rafle(&["book", "probe", "--book", "/nonexistent/x.book"]);
    assert!(!ok && err.contains("cannot load book"), "{err}");
    std::fs::remove_file(&path).ok();
}

#[test]
fn hub_plays_from_the_book() {
    let book = tiny_book(200);
    let path = temp_path("hub");
    book.save(&path).expect("save");
    let start_moves = book.probe(&Pos::start());
    let mut engine = Engine::start();
    engine.send("hub");
    engine.send("set-param name=book value=true");
    engine.send(&format!(
        "set-param name=book-file value=\"{}\"",
        path.display()
    ));
    engine.send("set-param name=book-margin value=100");
    engine.send("init");
    engine.send("pos start");
    engine.send("level depth=3");
    engine.send("go think");
    let lines = engine.until("done");
    let done = lines.last().expect("done");
    let info = lines
        .iter()
        .rev()
        .find(|line| line.starts_with("info"))
        .cloned()
        .unwrap_or_default();
    // A book answer: `info` with only a score and the move.
    assert!(
        info.starts_with("info score=") && !info.contains("depth="),
        "{info}"
    );
    let played = done
        .split_whitespace()
        .find_map(|w| w.strip_prefix("move="))
        .expect("a move");
    assert!(
        start_moves
            .iter()
            .any(|m| text::hub::<International>(&m.mv) == played),
        "{done}"
    );
    // Out of the book the engine searches.
    engine.send("pos start moves=\"32-28 19-23 28x19 14x23 37-32 23-28\"");
    engine.send("level depth=3");
    engine.send("go think");
    let searched = engine
        .until("done")
        .iter()
        .any(|line| line.contains("depth="));
    assert!(searched);
    engine.quit();
    std::fs::remove_file(&path).ok();
}

#[test]
fn dxp_plays_from_the_book() {
    let book = tiny_book(200);
    let path = temp_path("dxp");
    book.save(&path).expect("save");
    let file = path.to_str().expect("utf-8 path");
    let mut follower = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args([
            "dxp",
            "--listen",
            "127.0.0.1:0",
            "--depth",
            "2",
            "--games",
            "1",
        ])
        .args(["--book", file])
        .env("RUST_LOG", "rafle::dxp=info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rafle starts");
    let mut stdout = BufReader::new(follower.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a line");
    let address = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first line: {first}"))
        .to_string();
    let stderr = follower.stderr.take().expect("stderr");
    let log = std::thread::spawn(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<_>>()
    });
    let (ok, out, err) = rafle(&["dxp", "--connect", &address, "--depth", "2", "--games", "1"]);
    assert!(ok, "{out}{err}");
    assert!(follower.wait().expect("exits").success());
    let log = log.join().expect("log reader");
    std::fs::remove_file(&path).ok();
    // The follower plays Black: its first reply comes from the book.
    assert!(log.iter().any(|l| l.contains("book move")), "{log:?}");
}
