//! The rules' contract: every rule position of the supported variants yields exactly its listed
//! legal moves (tests/data/rule_positions.tsv), and the bitboard generator agrees with the
//! independent square-by-square route walker on random games.

mod common;

use rafle::core::{BitBoard, Color, Geometry};
use rafle::game::Game;
use rafle::movegen;
use rafle::moves::MoveList;
use rafle::notation::{fen, route};
use rafle::position::Position;
use rafle::rules::{BitsOf, Brazilian, Frisian, International, Portuguese, Rules, Variant};
use rafle::with_variant;
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
                rafle::notation::squares::parse::<R>(text)
                    .unwrap_or_else(|| panic!("square {text} of {item}"))
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
    let rows = common::rows("rule_positions.tsv");
    for row in &rows {
        let (id, variant, counting, fen_text, moves) =
            (&row[0], &row[1], &row[2], &row[3], &row[4]);
        let keep = counting == "keep-dup";
        let variant = Variant::from_name(variant)
            .unwrap_or_else(|| panic!("rule position {id}: unknown variant {variant}"));
        with_variant!(variant, R => check_rule_position::<R>(id, keep, fen_text, moves));
        if variant == Variant::Spanish {
            // Portuguese is the same game under another federation (variants.md).
            check_rule_position::<Portuguese>(id, keep, fen_text, moves);
        }
        checked.push(format!("{id}/{variant}"));
    }
    // Every row (the Frisian three-moves king rule, R-F, needs a move history and is not a row).
    assert_eq!(checked.len(), rows.len(), "{checked:?}");
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

/// Random games from the start position and from a position with kings (to reach king
/// captures early), comparing the generator with the route walker.
fn compare_variant<R: Rules>(kings_fen: &str, games: usize, seed: u64) -> usize {
    let mut positions = compare_with_routes(&Position::<R>::start(), games, seed);
    let kings = fen::parse::<R>(kings_fen).unwrap_or_else(|e| panic!("{}: {e}", R::NAME));
    positions += compare_with_routes(&kings, games, seed ^ 0xDEAD);
    positions
}

/// Kings and men of both sides in the middle of a 10x10 board.
const KINGS_10: &str = "W:WK46,K47,31,32,33,34,35:BK5,K4,16,17,18,19,20";

#[test]
fn generator_agrees_with_route_walker() {
    let mut positions = compare_variant::<International>(KINGS_10, 300, 0x9E37);
    positions +=
        compare_variant::<Brazilian>("W:WKa1,Kc1,a3,c3,e3,g3:BKf8,Kh8,b6,d6,f6,h6", 200, 0xC0FFEE);
    assert!(positions > 20_000, "{positions}");
}

/// A position with kings and men of both sides, made from the variant's start position: each
/// side keeps its two rows nearest its own edge, the nearer one crowned, so that king captures
/// come early in every variant of the list without a position written for each.
fn kings_position<R: Rules>() -> Position<R> {
    let start = Position::<R>::start();
    let mut sides = [BitsOf::<R>::EMPTY; 2];
    let mut kings = BitsOf::<R>::EMPTY;
    for (index, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let pieces = start.pieces(color);
        // Rows counted from this side's own edge.
        let distance = |bit: u32| {
            let row = u32::from(R::Geometry::ROW_OF_BIT[bit as usize]);
            match color {
                Color::White => R::Geometry::ROWS - 1 - row,
                Color::Black => row,
            }
        };
        let nearest = pieces.iter().map(distance).min().expect("pieces");
        for bit in pieces.iter() {
            if distance(bit) == nearest {
                kings |= BitsOf::<R>::bit(bit);
                sides[index] |= BitsOf::<R>::bit(bit);
            } else if distance(bit) == nearest + 1 {
                sides[index] |= BitsOf::<R>::bit(bit);
            }
        }
    }
    Position::from_parts(sides[0], sides[1], kings, R::FIRST_MOVER)
}

/// Games compared per variant from each of its two positions.
const GAMES_PER_VARIANT: usize = 60;

#[test]
fn variants_agree_with_route_walker() {
    let mut positions = 0;
    for (seed, &variant) in Variant::ALL.iter().enumerate() {
        with_variant!(variant, R => {
            positions += compare_with_routes(&Position::<R>::start(), GAMES_PER_VARIANT, seed as u64 + 1);
            positions += compare_with_routes(&kings_position::<R>(), GAMES_PER_VARIANT, seed as u64 ^ 0xDEAD);
        });
    }
    assert!(positions > 50_000, "{positions}");
}

/// Kings and men of both sides in Frisian, with room for captures along rows and columns.
const FRISIAN_KINGS: &str = "W:WK46,K48,31,32,33,34,35,38:BK3,K5,16,17,18,19,20,13";

#[test]
fn frisian_agrees_with_route_walker() {
    // The walker finds its squares by row and file, so it checks the generator's orthogonal
    // steps (by bit distance and ray tables) independently, and the value rule besides.
    let positions = compare_variant::<Frisian>(FRISIAN_KINGS, 150, 0xF815);
    assert!(positions > 10_000, "{positions}");
}

#[test]
fn frisian_three_moves_king_rule_in_a_played_game() {
    let text = std::fs::read_to_string(common::data_path("frisian_three_moves.txt"))
        .expect("data file is readable");
    let moves: Vec<&str> = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect();
    assert_eq!(moves.len(), 122);
    let game = Game::<Frisian>::from_moves(Position::start(), &moves)
        .unwrap_or_else(|e| panic!("the game replays: {e}"));
    let end = fen::parse::<Frisian>("W:WK19,27:BK49").expect("valid FEN");
    assert_eq!(*game.position(), end);
    assert_eq!(game.position().legal_moves().len(), 17);
    let legal: BTreeSet<MoveKey> = game.legal_moves().iter().map(key::<Frisian>).collect();
    assert_eq!(legal, expected_moves::<Frisian>("27-21 27-22"));
}
