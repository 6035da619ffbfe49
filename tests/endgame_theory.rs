//! The endgame knowledge of `game::endgame` against exact tables.
//!
//! `KingTables` solves the king-only lone-king endings by retrograde analysis. Here the tables are
//! checked against an independent forward search (`strong_wins_within`) on a sample, and the
//! rule-based verdicts (`lone_king_verdict`, used when no tables are built and for four kings) are
//! checked against the tables on every position: a verdict must never contradict them.
//!
//! Four kings against one are 23 million positions: about two minutes in a release build:
//! `cargo test --release --test endgame_theory -- --ignored --nocapture`.

use rafle::core::{BitBoard, Color};
use rafle::game::DrawCounters;
use rafle::game::endgame::{
    Distances, EndgameVerdict, KingTables, lone_king_verdict, long_diagonal, strong_wins_within,
};
use rafle::position::{Position, Setup};
use rafle::rules::International;

type I = International;

/// Every position of `kings` white kings against Black's lone king, both sides to move.
fn positions(kings: usize, mut visit: impl FnMut(&Position<I>)) {
    fn place(kings: usize, from: u32, setup: &mut Setup, visit: &mut dyn FnMut(&Position<I>)) {
        if setup.white_kings.len() == kings {
            for lone in 1..=50 {
                if setup.white_kings.contains(&lone) {
                    continue;
                }
                for side in Color::BOTH {
                    let setup = Setup {
                        side: Some(side),
                        black_kings: vec![lone],
                        ..setup.clone()
                    };
                    visit(&Position::from_setup(&setup).expect("valid"));
                }
            }
            return;
        }
        for square in from..=50 {
            setup.white_kings.push(square);
            place(kings, square + 1, setup, visit);
            setup.white_kings.pop();
        }
    }
    place(kings, 1, &mut Setup::default(), &mut visit);
}

/// Counts of positions by class, for the report.
#[derive(Default)]
struct Class {
    total: usize,
    won: usize,
    longest: u32,
    draw_verdicts: usize,
    win_verdicts: usize,
}

fn mirrored(verdict: Option<EndgameVerdict>) -> Option<EndgameVerdict> {
    verdict.map(|v| match v {
        EndgameVerdict::Draw => EndgameVerdict::Draw,
        EndgameVerdict::Win(color) => EndgameVerdict::Win(!color),
    })
}

#[test]
#[ignore = "solves four kings against one: about two minutes in release"]
fn verdicts_agree_with_the_tables() {
    let started = std::time::Instant::now();
    let tables = KingTables::<I>::build_up_to(4);
    println!("tables up to four kings built in {:.1?}", started.elapsed());
    let diagonal = long_diagonal::<I>();
    let mut sampled = 0;
    for kings in 1..=4 {
        // [side to move][lone king on its own long diagonal, off it]
        let mut classes: [[Class; 2]; 2] = Default::default();
        let mut lone_wins = 0;
        positions(kings, |position| {
            let outcome: Distances = tables.probe(position).expect("a king-only ending");
            let counters = DrawCounters::new(position);
            let verdict = lone_king_verdict(position, &counters);
            let mirror = position.mirror();
            assert_eq!(
                lone_king_verdict(&mirror, &DrawCounters::new(&mirror)),
                mirrored(verdict),
                "{position:?}: verdicts not symmetric"
            );
            match verdict {
                Some(EndgameVerdict::Draw) => assert_eq!(
                    (outcome.white, outcome.black),
                    (None, None),
                    "{position:?}: Draw verdict, tables say {outcome:?}"
                ),
                Some(EndgameVerdict::Win(color)) => {
                    assert_eq!(color, Color::White, "{position:?}");
                    assert!(
                        outcome.white.is_some_and(|plies| plies <= 16),
                        "{position:?}: Win verdict, tables say {outcome:?}"
                    );
                }
                None => {}
            }
            lone_wins += usize::from(kings > 1 && outcome.black.is_some());
            // The tables against a forward search, on a sample of short wins (up to two kings,
            // where no capture starts a new count, so the tables' numbers are plain distances).
            if let Some(plies) = outcome.white.filter(|_| kings <= 2)
                && plies <= 7
                && position.hash() % 97 == 0
            {
                sampled += 1;
                assert!(
                    strong_wins_within(position, Color::White, plies),
                    "{position:?}"
                );
                assert!(
                    plies == 0 || !strong_wins_within(position, Color::White, plies - 1),
                    "{position:?}"
                );
            }
            if position.has_capture() {
                return;
            }
            let lone = position.pieces(Color::Black).lowest();
            let owned = diagonal.has(lone) && (position.pieces(Color::White) & diagonal).is_empty();
            let class = &mut classes[position.side().index()][usize::from(!owned)];
            class.total += 1;
            if let Some(plies) = outcome.white {
                class.won += 1;
                class.longest = class.longest.max(plies);
            }
            class.draw_verdicts += usize::from(verdict == Some(EndgameVerdict::Draw));
            class.win_verdicts += usize::from(verdict.is_some_and(|v| v != EndgameVerdict::Draw));
        });
        for side in Color::BOTH {
            for (place, class) in ["on its long diagonal", "elsewhere"]
                .iter()
                .zip(&classes[side.index()])
            {
                println!(
                    "{kings} v 1, {side} to move, no capture pending, lone king {place}: \
                     {} positions, {} won (longest {} plies); rule verdicts: {} Draw, {} Win",
                    class.total, class.won, class.longest, class.draw_verdicts, class.win_verdicts
                );
            }
        }
        println!("{kings} v 1: positions the lone king wins: {lone_wins}");
    }
    assert!(
        sampled > 100,
        "the forward search checked {sampled} positions"
    );
}

#[test]
fn tables_know_the_lead_positions() {
    // One and two kings against one in a test-sized build (three kings: src/game/endgame.rs).
    let tables = KingTables::<I>::build_up_to(2);
    let probe = |text: &str| {
        tables
            .probe(&rafle::notation::fen::parse(text).expect("valid"))
            .expect("king-only")
    };
    // Kings on the two corners of the long diagonal: the king to move loses.
    assert_eq!(
        probe("B:WK46:BK5"),
        Distances {
            white: Some(2),
            black: None
        }
    );
    assert_eq!(
        probe("W:WK46:BK5"),
        Distances {
            white: None,
            black: Some(2)
        }
    );
    let two = probe("W:WK1,K2:BK28");
    assert_eq!((two.white, two.black), (None, None));
}
