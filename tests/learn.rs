//! The learning pipeline end to end on tiny data: self-play shards merged equal a single run,
//! a killed run resumes to the same data, and a model trained on it loads and plays by the
//! evaluation's contract (colour symmetry).

mod common;

use common::Scratch;
use rafle::eval::weights_file::PatternWeights;
use rafle::eval::{Eval, Evaluator};
use rafle::learn::data::{self, GenSettings, Shard};
use rafle::learn::train::{self, TrainSettings};
use rafle::rules::International;

/// Games of the tiny run, and nodes per move: enough for a few hundred positions.
const GAMES: u64 = 6;
const NODES: u64 = 300;

fn scratch(name: &str) -> Scratch {
    common::scratch("learn", name)
}

fn settings(shard: Shard, threads: usize) -> GenSettings {
    GenSettings {
        first: 0,
        games: GAMES,
        nodes: NODES,
        seed: 7,
        threads,
        shard,
        progress: false,
    }
}

#[test]
fn shards_merged_equal_a_single_run_and_a_killed_run_resumes() {
    let dir = scratch("shards");
    let hand = Eval::HandCrafted;
    let single = dir.join("single.bin");
    data::generate(&settings(Shard::ALL, 2), &hand, &single).expect("single run");
    let mut shards = Vec::new();
    for index in 0..2 {
        let path = dir.join(format!("shard{index}.bin"));
        let shard = Shard::parse(&format!("{index}/2")).expect("valid shard");
        let report = data::generate(&settings(shard, 1), &hand, &path).expect("shard run");
        assert_eq!(report.games_played, GAMES / 2);
        shards.push(path);
    }
    let merged_single = dir.join("merged-single.bin");
    let merged_shards = dir.join("merged-shards.bin");
    let positions = data::merge(std::slice::from_ref(&single), &merged_single).expect("merge");
    assert!(positions > 100, "{positions} positions");
    assert_eq!(
        data::merge(&shards, &merged_shards).expect("merge"),
        positions
    );
    let bytes = std::fs::read(&merged_single).expect("merged file");
    assert_eq!(bytes, std::fs::read(&merged_shards).expect("merged file"));

    // A run killed in the middle of a block: the partial block is cut off, the missing games
    // are played again, and the data comes out the same.
    let killed = dir.join("killed.bin");
    std::fs::write(&killed, &bytes[..bytes.len() * 2 / 3]).expect("write");
    let report = data::generate(&settings(Shard::ALL, 1), &hand, &killed).expect("resume");
    assert!(
        report.games_kept > 0 && report.games_played > 0,
        "{report:?}"
    );
    assert_eq!(report.games_kept + report.games_played, GAMES);
    let merged_killed = dir.join("merged-killed.bin");
    data::merge(&[killed], &merged_killed).expect("merge");
    assert_eq!(bytes, std::fs::read(&merged_killed).expect("merged file"));

    // Train a tiny model on it, through the weights file.
    let samples = data::load_positions(&[merged_single]).expect("load");
    let training = TrainSettings {
        epochs: 3,
        batch: 64,
        validation_every: 3,
        ..TrainSettings::default()
    };
    let mut epochs = 0;
    let mut dataset = train::Dataset::new(training.layout, training.validation_every);
    samples.iter().for_each(|sample| dataset.push(sample));
    let (weights, report) = train::train(dataset, &training, |_, loss| {
        assert!(loss.train.is_finite() && loss.validation.is_finite());
        epochs += 1;
    });
    assert_eq!(epochs, 4);
    assert!(report.validation_samples > 0 && report.train_samples > 0);
    assert!(
        report.losses[3].train < report.losses[0].train,
        "{:?}",
        report.losses
    );
    let file = dir.join("weights.bin");
    std::fs::write(&file, weights.to_bytes()).expect("write weights");
    let loaded = Eval::select("patterns", Some(&file)).expect("trained weights load");
    assert_eq!(
        PatternWeights::load(&file).expect("load"),
        weights,
        "round trip"
    );
    for sample in samples.iter().step_by(7) {
        let position = sample.position;
        assert_eq!(
            Evaluator::<International>::evaluate(&loaded, &position),
            Evaluator::<International>::evaluate(&loaded, &position.mirror())
        );
    }
}

#[test]
fn bad_shards_are_refused() {
    for text in ["2/2", "1", "a/3", "0/0"] {
        assert!(Shard::parse(text).is_err(), "{text}");
    }
    assert_eq!(
        Shard::parse("1/3").expect("valid"),
        Shard { index: 1, count: 3 }
    );
}

#[test]
fn a_game_is_stored_as_move_codes_and_replays_to_its_positions() {
    use rafle::game::Game;
    use rafle::position::Position;
    let settings = settings(Shard::ALL, 1);
    // The self-play engine searches on its caller's thread, which needs the search's stack.
    let block = std::thread::Builder::new()
        .stack_size(rafle::search::SEARCH_STACK_BYTES)
        .spawn(move || data::play_game(3, &settings, Eval::HandCrafted))
        .expect("a thread")
        .join()
        .expect("the game is played");
    assert!(!block.searched.is_empty(), "a balanced opening: {block:?}");
    let records = block.records().expect("the game replays");
    assert!(!records.is_empty() && records.len() <= block.searched.len());
    for (record, position) in &records {
        assert!(usize::from(record.ply) >= block.opening.len());
        assert!(!position.has_capture(), "only quiet positions are kept");
        assert_eq!(record.side, position.side());
    }

    // Codes are indices in an order of the rules: every legal move round-trips, and the codes
    // of a position are 0, 1, 2, ... in (origin, destination, captures) order.
    let mut game = Game::new(Position::<International>::start());
    for &code in block
        .opening
        .iter()
        .chain(block.searched.iter().map(|(_, c)| c))
    {
        if code == data::NO_MOVE {
            break;
        }
        let legal = game.legal_moves();
        let mut codes: Vec<u8> = legal
            .iter()
            .map(|mv| data::move_code(&game, mv).expect("a legal move has a code"))
            .collect();
        for (mv, &c) in legal.iter().zip(&codes) {
            assert!(data::move_of_code(&game, c).expect("a code").same_as(mv));
        }
        codes.sort_unstable();
        assert_eq!(codes, (0..legal.len() as u8).collect::<Vec<_>>());
        let mv = data::move_of_code(&game, code).expect("a stored code names a move");
        game.play(&mv).expect("legal");
    }
    assert!(data::move_of_code(&game, 200).is_none());
}
