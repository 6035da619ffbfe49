//! The rules' contract: every rule position of the supported variants yields exactly its listed
//! legal moves (tests/data/rule_positions.tsv), and the bitboard generator agrees with the
//! independent square-by-square route walker on random games.

mod common;

use rafle::core::{BitBoard, Geometry};
use rafle::movegen;
use rafle::moves::MoveList;
use rafle::notation::{fen, route};
use rafle::position::Position;
use rafle::rules::{BitsOf, Brazilian, International, Rules};
use std::collections::BTreeSet;

/// (from, to, captured squares) in the variant's own square numbers.
type MoveKey = (u32, u32, Vec<u32>);

fn expected_moves<R: Rules>(list: &str) -> BTreeSet<MoveKey> {
    list.split_whitespace()
        .map(|item| {
            let (squares, captured) = match item.split_once('[') {
                Some((squares, rest)) => (squares, rest.trim_end_matches(']')),
                None => (item, ""),
            };
            let mut ends = squares.split(['-', 'x']);
            let mut square = |text: &str| {
                R::parse_square(text).unwrap_or_else(|| panic!("square {text} of {item}"))
            };
            let from = square(ends.next().expect("from"));
            let to = square(ends.next().expect("to"));
            let mut captured: Vec<u32> = captured
                .split(',')
                .filter(|s| !s.is_empty())
                .map(&mut square)
                .collect();
            captured.sort_unstable();
            (from, to, captured)
        })
        .collect()
}

fn key<R: Rules>(mv: &rafle::moves::Move<BitsOf<R>>) -> MoveKey {
    (
        R::Geometry::square_of(u32::from(mv.from)),
        R::Geometry::square_of(u32::from(mv.to)),
        mv.captured.iter().map(R::Geometry::square_of).collect(),
    )
}

fn check_rule_position<R: Rules>(id: &str, keep_duplicates: bool, fen_text: &str, moves: &str) {
    let position = fen::parse::<R>(fen_text).unwrap_or_else(|e| panic!("{id}: {e}"));
    let mut list = MoveList::new();
    if keep_duplicates {
        movegen::generate_keep_duplicates(&position, &mut list);
        let mut generated: Vec<MoveKey> = list.iter().map(key::<R>).collect();
        let mut expected: Vec<MoveKey> = Vec::new();
        for item in moves.split_whitespace() {
            expected.extend(expected_moves::<R>(item));
        }
        generated.sort();
        expected.sort();
        assert_eq!(generated, expected, "{id} ({}, keep-dup)", R::NAME);
    } else {
        movegen::generate(&position, &mut list);
        let generated: Vec<MoveKey> = list.iter().map(key::<R>).collect();
        let unique: BTreeSet<MoveKey> = generated.iter().cloned().collect();
        assert_eq!(
            unique.len(),
            generated.len(),
            "{id}: duplicate moves generated"
        );
        assert_eq!(unique, expected_moves::<R>(moves), "{id} ({})", R::NAME);
        assert_eq!(movegen::count(&position), list.len(), "{id}: bulk count");
    }
}

#[test]
fn rule_positions() {
    let mut checked = Vec::new();
    for row in common::rows("rule_positions.tsv") {
        let (id, variant, counting, fen_text, moves) =
            (&row[0], &row[1], &row[2], &row[3], &row[4]);
        let keep = counting == "keep-dup";
        match variant.as_str() {
            "international" => check_rule_position::<International>(id, keep, fen_text, moves),
            "brazilian" => check_rule_position::<Brazilian>(id, keep, fen_text, moves),
            _ => continue,
        }
        checked.push(format!("{id}/{variant}"));
    }
    // R1-R4 and R6-R11 are international (R9 also keep-dup); R12-R14 have Brazilian lists.
    assert_eq!(checked.len(), 14, "{checked:?}");
}

/// A small deterministic generator (xorshift) so the games are the same on every run.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn compare_with_routes<R: Rules>(start: &Position<R>, games: usize, seed: u64) -> usize {
    let mut rng = Xorshift(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut position = *start;
        for _ in 0..200 {
            let list = position.legal_moves();
            let generated: BTreeSet<MoveKey> = list.iter().map(key::<R>).collect();
            assert_eq!(generated.len(), list.len(), "duplicates in {position:?}");
            if list.first().is_some_and(|mv| mv.is_capture()) {
                let walked: BTreeSet<MoveKey> = route::legal_routes(&position)
                    .iter()
                    .map(|r| {
                        let mv = rafle::moves::Move::<BitsOf<R>>::new(
                            r.from,
                            r.to(),
                            r.captured_set(),
                            0,
                        );
                        key::<R>(&mv)
                    })
                    .collect();
                assert_eq!(generated, walked, "captures of {position:?}");
                for mv in list.iter() {
                    let routes = route::routes_of(&position, mv);
                    assert!(!routes.is_empty(), "no route for a move in {position:?}");
                    assert_eq!(routes[0].promotes, mv.is_promotion(), "{position:?}");
                }
            }
            positions += 1;
            if list.is_empty() {
                break;
            }
            position = position.play(&list[rng.below(list.len())]);
        }
    }
    positions
}

#[test]
fn generator_agrees_with_route_walker() {
    let mut positions = compare_with_routes(&Position::<International>::start(), 300, 0x9E37);
    let kings = fen::parse::<International>("W:WK46,K47,31,32,33,34,35:BK5,K4,16,17,18,19,20")
        .expect("valid");
    positions += compare_with_routes(&kings, 200, 0xBEEF);
    positions += compare_with_routes(&Position::<Brazilian>::start(), 200, 0xC0FFEE);
    assert!(positions > 20_000, "{positions}");
}
