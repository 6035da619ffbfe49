//! PDN games: a real-world file read game by game, write/read round trips of many games, and the
//! sample file that `tools/pdn_pydraughts_check.py` has pydraughts read back.

mod common;

use rafle::game::Game;
use rafle::notation::pdn::{self, PdnResult, Tags};
use rafle::notation::{fen, text};
use rafle::position::Position;
use rafle::rules::International;

type I = International;

/// A small xorshift generator: the sample games must be the same on every run.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// Start positions: the initial position and every international rule position of
/// tests/data/rule_positions.tsv (captures of every shape, ambiguous ones included).
fn starts() -> Vec<Position<I>> {
    let mut starts = vec![Position::start()];
    for row in common::rows("rule_positions.tsv") {
        if row[1] == "international" {
            starts.push(fen::parse(&row[3]).expect("rule position FEN"));
        }
    }
    starts
}

/// Random games: captures are taken as generated (the generator only gives legal ones), quiet
/// moves at random, until the game ends or `max_plies`.
fn random_games(count: usize, max_plies: usize) -> Vec<Game<I>> {
    let starts = starts();
    let mut random = Xorshift(0x0123_4567_89AB_CDEF);
    (0..count)
        .map(|index| {
            let mut game = Game::new(starts[index % starts.len()]);
            while game.ply_count() < max_plies && game.result().is_none() {
                let moves = game.position().legal_moves();
                let mv = moves[random.below(moves.len())];
                game.play(&mv).expect("legal");
            }
            game
        })
        .collect()
}

fn sample_tags(index: usize, game: &Game<I>) -> Tags {
    let mut tags = Tags::new();
    tags.set("Event", "Rafle PDN sample");
    tags.set("Round", (index + 1).to_string());
    tags.set("White", "Rafle");
    tags.set("Black", "Rafle");
    tags.set("PlyCount", game.ply_count().to_string());
    tags.set("FinalFEN", fen::format(game.position()));
    tags
}

#[test]
fn random_games_round_trip() {
    let games = random_games(120, 120);
    let mut file = String::new();
    for (index, game) in games.iter().enumerate() {
        file.push_str(&pdn::write_game(game, &sample_tags(index, game), None));
    }
    let read = pdn::read_games::<I>(&file);
    assert_eq!(read.len(), games.len());
    for (game, back) in games.iter().zip(read) {
        let back = back.expect("our own PDN reads back");
        assert_eq!(&back.game, game);
        let expected: PdnResult = game.result().map(|end| end.result).into();
        assert_eq!(back.result, expected);
        // Every capture was written in the shortest unambiguous form.
        for (mv, position) in game.moves().iter().zip(game.positions()) {
            let written = text::pdn(position, mv);
            assert_eq!(text::parse(position, &written), Ok(*mv));
        }
    }
}

#[test]
fn reads_the_sample_file() {
    let text = std::fs::read_to_string(common::data_path("games.pdn")).expect("tests/data");
    let games = pdn::read_games::<I>(&text);
    assert_eq!(games.len(), 3);
    for game in &games {
        let game = game.as_ref().expect("every game reads");
        let final_fen = game.tags.get("FinalFEN").expect("sample has FinalFEN");
        assert_eq!(fen::format(game.game.position()), final_fen);
    }
}

/// Writes the sample games for `tools/pdn_pydraughts_check.py` to the file named by
/// `RAFLE_PDN_SAMPLES`.
#[test]
#[ignore = "run by tools/pdn_pydraughts_check.py"]
fn write_samples_for_pydraughts() {
    let path = std::env::var("RAFLE_PDN_SAMPLES").expect("RAFLE_PDN_SAMPLES names the output");
    let mut file = String::new();
    for (index, game) in random_games(400, 160).iter().enumerate() {
        file.push_str(&pdn::write_game(game, &sample_tags(index, game), None));
    }
    std::fs::write(&path, file).expect("writable");
}
