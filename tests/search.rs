//! Search contracts: the FMJD draw rules inside the search (art. 6), endgame knowledge, game-end
//! scores with their distance, and the engine API's limits.

use rafle::eval::HandCrafted;
use rafle::game::{DrawCounters, Game};
use rafle::notation::{fen, text};
use rafle::position::Position;
use rafle::rules::International;
use rafle::score::{self, Score};
use rafle::search::{Engine, Limits, Mode, Outcome, Root, SearchControl};

type I = International;

/// The hand-crafted evaluation, named (the engine has none by default): these are contracts of
/// the search, whose positions and depths were chosen with it.
fn search(root: &Root<I>, depth: u32) -> Outcome<I> {
    let engine = Engine::<I, HandCrafted>::with_evaluator(HandCrafted, 16, 1);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    engine.search(root, &limits, Mode::Analyze, &SearchControl::new(), |_| {})
}

fn position(text: &str) -> Position<I> {
    fen::parse(text).expect("valid FEN")
}

fn score_of(text: &str, depth: u32) -> Score {
    search(&Root::new(position(text)), depth).score
}

#[test]
fn three_kings_against_a_king_is_a_draw() {
    // FMJD art. 6.3 material; a lone king on the long diagonal holds (endgame knowledge).
    assert_eq!(score_of("B:WK1,K2,K3:BK28", 12), score::DRAW);
    // White to move: no forced win either; the evaluation knows the rule leaves only tactics.
    let white_to_move = score_of("W:WK1,K2,K3:BK28", 10);
    assert!(white_to_move.abs() < 25, "{white_to_move}");
}

#[test]
fn four_kings_against_a_king_is_a_win() {
    let score = score_of("W:WK36,K47,K48,K49:BK5", 8);
    assert!(score::is_decisive(score) && score > 0, "{score}");
}

#[test]
fn a_win_the_count_does_not_leave_room_for_is_a_draw() {
    // White needs 6 plies here (exact endgame tables, src/game/endgame.rs). With 26 of the 32
    // plies of art. 6.3 played it still wins; with 27 played the game is drawn first.
    let start = position("W:WK1,K2,K50:BK49");
    let with_count = |played| Root {
        counters: DrawCounters::with_plies(&start, 0, played),
        ..Root::new(start)
    };
    let early = search(&with_count(0), 14).score;
    assert!(score::is_game_end(early) && early > 0, "{early}");
    let late = search(&with_count(26), 14).score;
    assert!(score::is_game_end(late) && late > 0, "{late}");
    assert_eq!(search(&with_count(27), 14).score, score::DRAW);
    assert_eq!(search(&with_count(32), 14).score, score::DRAW);
}

#[test]
fn king_moves_count_draws_a_won_position() {
    // Art. 6.2: with 49 of 50 reversible plies played, only a capture or man move can avoid the
    // draw; White (up a king) cannot make one in time.
    let start = position("W:WK46,K47,K38:BK5,K4");
    let drawn = Root {
        counters: DrawCounters::with_plies(&start, 50, 0),
        ..Root::new(start)
    };
    let outcome = search(&drawn, 6);
    assert!(outcome.score.abs() < score::EVAL_LIMIT, "{}", outcome.score);
}

#[test]
fn a_side_lost_by_material_finds_the_repetition() {
    // Black is three men up. The kings have shuffled once (46-41 15-20 41-46 20-15): White to move
    // can repeat the position (46-41), which the search scores as a draw (art. 6.1; inside the
    // search the first repetition already counts).
    let start = position("W:WK46:BK15,6,7,8");
    let game = Game::from_moves(start, ["46-41", "15-20", "41-46", "20-15"])
        .unwrap_or_else(|e| panic!("{e}"));
    let root = Root::from_game(&game);
    let outcome = search(&root, 8);
    assert_eq!(outcome.score, score::DRAW);
    let best = outcome.best.expect("a move");
    assert_eq!(text::hub::<I>(&best), "46-41");
    // Without the history the same position is lost by material.
    let fresh = search(&Root::new(*game.position()), 8);
    assert!(fresh.score < -50, "{}", fresh.score);
}

#[test]
fn game_end_scores_carry_the_distance() {
    // White's man captures the last black piece at once: a win in one ply.
    assert_eq!(score_of("W:W33:B28", 3), score::win_in(1));
    // Black to move has no legal move: lost now.
    let blocked = search(&Root::new(position("B:W41,47:B36")), 3);
    assert_eq!(blocked.best, None);
}

#[test]
fn finds_a_shot() {
    // 27-22! 18x27 then 32x21... a classic two-for-one: the engine must play the shot and see
    // the win of material. Depth 10: the score of this ending swings from one iteration to the
    // next (at depth 6 and 8 the hand-crafted evaluation calls it +0.20 whichever the pruning).
    let root = Root::new(position("W:W27,32,33,38:B18,19,23,9"));
    let outcome = search(&root, 10);
    let best = outcome.best.expect("a move");
    assert_eq!(text::hub::<I>(&best), "27-22");
    assert!(outcome.score > 50, "{}", outcome.score);
}

#[test]
fn node_and_depth_limits_are_respected() {
    let engine = Engine::<I, HandCrafted>::with_evaluator(HandCrafted, 16, 1);
    let root = Root::new(Position::start());
    let limits = Limits {
        nodes: Some(50_000),
        ..Limits::default()
    };
    let outcome = engine.search(&root, &limits, Mode::Analyze, &SearchControl::new(), |_| {});
    assert!(outcome.nodes < 200_000, "{}", outcome.nodes);
    let mut depths = Vec::new();
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    engine.search(
        &root,
        &limits,
        Mode::Analyze,
        &SearchControl::new(),
        |info| depths.push(info.depth),
    );
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
}

#[test]
fn two_threads_find_a_legal_move_that_heads_its_line() {
    // In play a helper's deeper result may be chosen; whichever thread's it is, the move, its
    // line and its depth belong together. Analysis keeps the main thread's.
    let engine = Engine::<I, HandCrafted>::with_evaluator(HandCrafted, 16, 2);
    let root = Root::new(Position::start());
    let limits = Limits {
        depth: Some(9),
        ..Limits::default()
    };
    for mode in [Mode::Analyze, Mode::Think] {
        let outcome = engine.search(&root, &limits, mode, &SearchControl::new(), |_| {});
        let best = outcome.best.expect("a move");
        assert!(root.position.legal_moves().contains(&best));
        assert_eq!(outcome.pv.first(), Some(&best), "{mode:?}");
        assert!(
            (1..=9).contains(&outcome.depth),
            "{mode:?}: {}",
            outcome.depth
        );
    }
}
