//! Tests of the draw rules beyond FMJD art. 6: Portuguese 3.2.a, FMJD-64 art. 7.2.4/7.2.6/7.2.7
//! (Russian), Pool's 13-move count and Turkish one piece against one, each at its limit and one
//! ply before it.

use super::counters::long_diagonal;
use super::*;
use crate::core::{BitBoard, Geometry};
use crate::notation::fen;
use crate::rules::{Pool, Portuguese, Russian, Turkish};

fn game<R: Rules>(text: &str) -> Game<R> {
    Game::new(fen::parse::<R>(text).expect("valid FEN"))
}

/// Whether the side to move has no capture and a quiet move after which the opponent has none.
fn calm<R: Rules>(position: &Position<R>) -> bool {
    !position.has_capture()
        && position
            .legal_moves()
            .iter()
            .any(|mv| !position.play(mv).has_capture())
}

/// Plays `plies` quiet moves without promotion that leave the opponent a calm position accepted by
/// `keep`, reaching positions not seen before where it can (so repetition does not interfere).
/// With `man_after` set, a man moves once the king-move count reaches it (when a man can).
fn walk<R: Rules>(
    game: &mut Game<R>,
    plies: usize,
    man_after: Option<u32>,
    keep: impl Fn(&Position<R>) -> bool,
) {
    for _ in 0..plies {
        let before = *game.position();
        let seen = |after: &Position<R>| game.positions().iter().filter(|&p| p == after).count();
        let candidates: Vec<Move<BitsOf<R>>> = before
            .legal_moves()
            .iter()
            .copied()
            .filter(|mv| {
                let after = before.play(mv);
                !mv.is_capture() && !mv.is_promotion() && calm(&after) && keep(&after)
            })
            .collect();
        let man_due = man_after.is_some_and(|limit| game.counters().reversible_plies() >= limit);
        let mv = candidates
            .iter()
            .min_by_key(|mv| (mv.is_king_move() == man_due, seen(&before.play(mv))))
            .copied()
            .unwrap_or_else(|| panic!("no quiet safe move in {before:?}"));
        game.play(&mv).expect("legal");
        assert_ne!(game.draw_reason(), Some(DrawReason::Repetition));
    }
}

/// Plays the first legal move (in generation order) that satisfies `pick`.
fn play_first<R: Rules>(game: &mut Game<R>, pick: impl Fn(&Move<BitsOf<R>>) -> bool, what: &str) {
    let mv = *game
        .position()
        .legal_moves()
        .iter()
        .find(|mv| pick(mv))
        .unwrap_or_else(|| panic!("no move: {what}"));
    game.play(&mv).expect("legal");
}

/// Walks (see [`walk`]) to one ply before `limit`, where the game must go on, then one ply more,
/// where `reason` must draw it.
fn drawn_exactly_at<R: Rules>(
    game: &mut Game<R>,
    limit: usize,
    man_after: Option<u32>,
    keep: impl Fn(&Position<R>) -> bool + Copy,
    reason: DrawReason,
) {
    walk(game, limit - 1, man_after, keep);
    assert_eq!(game.result(), None, "one ply before the limit: not yet");
    walk(game, 1, man_after, keep);
    assert_eq!(game.draw_reason(), Some(reason));
}

fn anything<R: Rules>(_: &Position<R>) -> bool {
    true
}

// ----- Portuguese 3.2.a -----

#[test]
fn portuguese_draws_after_20_moves_each_without_a_capture() {
    // Men move in the walk: they do not restart the count.
    let mut g = game::<Portuguese>("W:WK1,K2,6:BK31,K32,27");
    walk(&mut g, 39, Some(8), anything);
    assert!(g.moves().iter().any(|mv| !mv.is_king_move()), "a man moved");
    assert!(g.counters().reversible_plies() < 39);
    assert_eq!(g.counters().plies_until_draw(), Some(1));
    assert_eq!(g.result(), None, "19 moves and a half: not yet");
    walk(&mut g, 1, Some(8), anything);
    assert_eq!(g.counters().plies_until_draw(), Some(0));
    assert_eq!(g.draw_reason(), Some(DrawReason::CaptureFree));
    assert_eq!(
        g.result().expect("drawn").to_string(),
        "draw by move limit without a capture (Portuguese rules art. 3.2.a)"
    );
}

#[test]
fn portuguese_count_restarts_after_a_capture_only() {
    let mut g = game::<Portuguese>("W:WK1,K2,6:BK31,K32,27");
    walk(&mut g, 30, Some(4), anything);
    assert_eq!(g.counters().plies_until_draw(), Some(10));
    // A promotion is not a capture either: the count runs on.
    let mut g = game::<Portuguese>("W:WK1,26:BK4");
    play_first(&mut g, Move::is_promotion, "the man on 26 can promote");
    assert_eq!(g.counters().plies_until_draw(), Some(39));
    // A capture restarts it; the count starts at the next move.
    // The position of rule_positions R23: 32x4 takes the kings on 7 and 23.
    let mut g = game::<Portuguese>("W:W27,K32:B5,K7,K23,29,30");
    play_first(&mut g, Move::is_capture, "32x4");
    assert_eq!(g.counters().plies_until_draw(), Some(40));
}

// ----- Russian (FMJD-64 art. 7.2) -----

fn lone_king_off_diagonal(position: &Position<Russian>) -> bool {
    (position.kings(Color::Black) & long_diagonal::<Russian>()).is_empty()
}

/// The lone king on the long diagonal, away from its two corners (where it could be trapped).
fn lone_king_on_diagonal(position: &Position<Russian>) -> bool {
    let rows = <Russian as Rules>::Geometry::ROWS;
    let corners =
        <Russian as Rules>::Geometry::row(0) | <Russian as Rules>::Geometry::row(rows - 1);
    (position.kings(Color::Black) & long_diagonal::<Russian>() & !corners).any()
}

#[test]
fn russian_three_kings_against_a_lone_king_draw_after_15_moves() {
    let mut g = game::<Russian>("W:WKa3,Kc1,Ke1:BKh4");
    assert_eq!(
        g.counters().ending(),
        Some(LoneKingEnding::KingsAgainstKing)
    );
    drawn_exactly_at(
        &mut g,
        30,
        None,
        lone_king_off_diagonal,
        DrawReason::KingsAgainstKing,
    );
}

#[test]
fn russian_three_kings_count_starts_when_the_third_king_is_crowned() {
    // Two kings and a man: no article of its own off the long diagonal.
    let mut g = game::<Russian>("W:WKa1,Kc1,g7:BKh4");
    assert_eq!(
        g.counters().ending(),
        Some(LoneKingEnding::ThreeAgainstKing)
    );
    assert_eq!(g.counters().plies_until_ending_draw(), None);
    play_first(&mut g, Move::is_promotion, "g7 promotes");
    assert_eq!(
        g.counters().ending(),
        Some(LoneKingEnding::KingsAgainstKing)
    );
    assert_eq!(g.counters().plies_until_ending_draw(), Some(30));
}

#[test]
fn russian_lone_king_on_the_long_diagonal_draws_after_5_moves() {
    // King and two men against the lone king on d4, on the long diagonal a1-h8.
    let mut g = game::<Russian>("W:WKa5,g1,h2:BKd4");
    drawn_exactly_at(
        &mut g,
        10,
        None,
        lone_king_on_diagonal,
        DrawReason::LongDiagonal,
    );
}

#[test]
fn russian_long_diagonal_count_ends_when_the_lone_king_leaves_it() {
    let mut g = game::<Russian>("W:WKa5,Kh2,Kh4:BKd4");
    walk(&mut g, 6, None, lone_king_on_diagonal);
    assert_eq!(g.counters().plies_until_draw(), Some(4));
    // Black, to move, steps off the diagonal: only the 7.2.4 count (since the start) runs on.
    assert_eq!(g.position().side(), Color::White);
    walk(&mut g, 1, None, lone_king_on_diagonal);
    walk(&mut g, 1, None, lone_king_off_diagonal);
    assert_eq!(g.counters().plies_until_draw(), Some(22));
    // Back on the diagonal, the 7.2.7 count starts again.
    walk(&mut g, 1, None, anything);
    walk(&mut g, 1, None, lone_king_on_diagonal);
    assert_eq!(g.counters().plies_until_draw(), Some(10));
}

#[test]
fn russian_kings_on_both_sides_draw_after_30_moves_in_four_pieces() {
    // Men move now and then, so 7.2.5 (15 moves of kings only) does not end the game first.
    let mut g = game::<Russian>("W:WKh2,a3:BKa7,h6");
    drawn_exactly_at(&mut g, 60, Some(20), anything, DrawReason::KingsOnBothSides);
}

// ----- Pool -----

#[test]
fn pool_three_kings_against_one_draw_after_13_moves() {
    let mut g = game::<Pool>("W:WK30,K31,K32:BK2");
    drawn_exactly_at(&mut g, 26, None, anything, DrawReason::KingsAgainstKing);
}

// ----- Turkish (pydraughts' one piece against one) -----

#[test]
fn turkish_one_king_against_one_draws_after_2_moves_each() {
    let mut g = game::<Turkish>("W:WKa1:BKh8");
    drawn_exactly_at(&mut g, 4, None, anything, DrawReason::OneAgainstOne);
    assert_eq!(
        g.result().expect("drawn").to_string(),
        "draw by move limit with one piece against one (pydraughts)"
    );
}

#[test]
fn turkish_one_against_one_count_runs_through_a_promotion() {
    // A man against a king: the man's crowning leaves one piece against one.
    let mut g = game::<Turkish>("W:Wb7:BKh1");
    assert_eq!(g.counters().plies_until_draw(), Some(4));
    play_first(&mut g, Move::is_promotion, "b7 promotes");
    assert_eq!(g.counters().plies_until_draw(), Some(3));
    drawn_exactly_at(&mut g, 3, None, anything, DrawReason::OneAgainstOne);
}

#[test]
fn turkish_one_against_one_count_starts_at_the_capture_that_leaves_it() {
    // A king and a man against a king: no count until the king on a1 takes the man on a5.
    let mut g = game::<Turkish>("W:WKa1:Ba5,Kh8");
    assert_eq!(g.counters().plies_until_draw(), None);
    g.play_text("a1xa6").expect("legal");
    assert_eq!(g.counters().plies_until_draw(), Some(4));
    drawn_exactly_at(&mut g, 4, None, anything, DrawReason::OneAgainstOne);
}

/// The Frisian three-moves king rule: after three quiet moves in a row by one king, a player who
/// also has men must move something else; a man move restarts the count, and a player with only
/// kings is not bound.
#[test]
fn frisian_king_may_not_move_four_times_in_a_row() {
    use crate::rules::Frisian;
    let mut with_men = game::<Frisian>("W:WK50,36:BK1,15");
    for text in ["50-44", "1-7", "44-39", "7-1", "39-44", "1-7"] {
        with_men.play_text(text).expect("legal");
    }
    let only = |game: &Game<Frisian>| -> Vec<String> {
        game.legal_moves()
            .iter()
            .map(text::hub::<Frisian>)
            .collect()
    };
    assert_eq!(only(&with_men), vec!["36-31".to_string()]);
    assert!(matches!(
        with_men.play_text("44-50"),
        Err(MoveError::Illegal { .. })
    ));
    // The position alone still has the king's moves: the rule is the game's history.
    assert!(with_men.position().legal_moves().len() > 1);
    with_men.play_text("36-31").expect("the man may move");
    assert_eq!(only(&with_men), vec!["15-20".to_string()]);
    with_men.play_text("15-20").expect("legal");
    // White's man move restarted White's count.
    with_men
        .play_text("44-50")
        .expect("the king may move again");

    let mut kings_only = game::<Frisian>("W:WK50:BK1,15");
    for text in ["50-44", "1-7", "44-39", "7-1", "39-44", "1-7"] {
        kings_only.play_text(text).expect("legal");
    }
    kings_only
        .play_text("44-50")
        .expect("without men the rule does not bind");
}
