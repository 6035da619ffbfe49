//! Tests of the game record, FMJD art. 6 draw rules and adjudication.

use super::*;
use crate::core::{BitBoard, Color};
use crate::moves::Move;
use crate::notation::fen;
use crate::rules::{Antidraughts, Breakthrough, International};

type I = International;

fn position(text: &str) -> Position<I> {
    fen::parse::<I>(text).expect("valid FEN")
}

fn game(text: &str) -> Game<I> {
    Game::new(position(text))
}

/// Plays the first legal move (in generation order) that satisfies `pick`.
fn play_first(
    game: &mut Game<I>,
    pick: impl Fn(&Position<I>, &Move<u64>, &Position<I>) -> bool,
) -> Move<u64> {
    let before = *game.position();
    let mv = *before
        .legal_moves()
        .iter()
        .find(|mv| pick(&before, mv, &before.play(mv)))
        .unwrap_or_else(|| panic!("no move fits in {before:?}"));
    game.play(&mv).expect("legal");
    mv
}

/// Whether `position` leaves the side to move no capture and a quiet move after which the
/// opponent has no capture either (so a walk never steps into a capture or a zugzwang).
fn calm(position: &Position<I>) -> bool {
    !position.has_capture()
        && position
            .legal_moves()
            .iter()
            .any(|mv| !position.play(mv).has_capture())
}

/// Plays `plies` quiet moves that leave the opponent a calm position and, as far as possible,
/// reach positions not seen before (so that repetition does not interfere). `allow_men` lets men
/// move.
fn walk(game: &mut Game<I>, plies: usize, allow_men: bool) {
    for _ in 0..plies {
        let before = *game.position();
        let seen = |after: &Position<I>| game.positions().iter().filter(|&p| p == after).count();
        let candidates: Vec<Move<u64>> = before
            .legal_moves()
            .iter()
            .copied()
            .filter(|mv| {
                !mv.is_capture()
                    && !mv.is_promotion()
                    && (allow_men || mv.is_king_move())
                    && calm(&before.play(mv))
            })
            .collect();
        let mv = candidates
            .iter()
            .min_by_key(|mv| seen(&before.play(mv)))
            .copied()
            .unwrap_or_else(|| panic!("no quiet safe move in {before:?}"));
        game.play(&mv).expect("legal");
        assert_ne!(
            game.draw_reason(),
            Some(DrawReason::Repetition),
            "walk repeated in {before:?}"
        );
    }
}

// ----- Art. 6.2 -----

#[test]
fn king_moves_draw_exactly_at_25_moves_each() {
    let mut g = game("W:WK46,K50:BK1,K5");
    walk(&mut g, 49, false);
    assert_eq!(g.counters().reversible_plies(), 49);
    assert_eq!(g.counters().plies_until_draw(), Some(1));
    assert_eq!(g.result(), None, "24 moves and a half: not yet");
    walk(&mut g, 1, false);
    assert_eq!(g.counters().plies_until_draw(), Some(0));
    assert_eq!(g.result(), Some(Adjudication::draw(DrawReason::KingMoves)));
    assert_eq!(
        g.result().expect("drawn").to_string(),
        "draw by king moves only, without man move or capture (FMJD art. 6.2)"
    );
}

#[test]
fn king_moves_count_resets_on_man_move_and_capture() {
    // Men far from each other: White's man on 45 and Black's on 6 can move without contact.
    let mut g = game("W:WK46,K50,45:BK1,K3,6");
    walk(&mut g, 30, false);
    assert_eq!(g.counters().reversible_plies(), 30);
    while g.counters().reversible_plies() > 0 {
        let before = *g.position();
        match before
            .legal_moves()
            .iter()
            .find(|mv| !mv.is_king_move() && calm(&before.play(mv)))
        {
            Some(mv) => g.play(mv).expect("legal"),
            None => walk(&mut g, 1, false),
        }
    }
    assert!(!g.moves().last().expect("moved").is_king_move());
    assert_eq!(
        g.counters().reversible_plies(),
        0,
        "a man move resets art. 6.2"
    );
    walk(&mut g, 49, false);
    assert_eq!(g.result(), None);
    walk(&mut g, 1, false);
    assert_eq!(g.draw_reason(), Some(DrawReason::KingMoves));

    // A capture by a king resets it too.
    let mut g = game("W:WK46,K50:BK1,K5,23");
    play_first(&mut g, |_, mv, _| mv.is_capture());
    assert!(g.moves()[0].is_king_move());
    assert_eq!(g.counters().reversible_plies(), 0);
}

#[test]
fn promotion_is_a_man_move() {
    let mut g = game("W:WK46,7:BK45");
    let mv = play_first(&mut g, |_, mv, _| mv.is_promotion());
    assert!(!mv.is_king_move());
    assert_eq!(g.counters().reversible_plies(), 0);
}

// ----- Art. 6.3 -----

#[test]
fn three_against_king_draws_after_16_more_moves_each() {
    let mut g = game("W:WK46,K47,K48:BK4,23");
    // 46x19 (or further) takes the last man: three kings against one. That capture is not counted.
    let capture = play_first(&mut g, |_, mv, after| {
        mv.is_capture() && !after.has_capture()
    });
    assert!(capture.is_capture());
    let counters = g.counters();
    assert_eq!(counters.ending(), Some(LoneKingEnding::ThreeAgainstKing));
    assert_eq!(counters.ending_plies(), 0);
    assert_eq!(counters.plies_until_draw(), Some(32));
    walk(&mut g, 31, false);
    assert_eq!(g.counters().ending_plies(), 31);
    assert_eq!(g.result(), None, "one ply before the limit: not yet drawn");
    walk(&mut g, 1, false);
    assert_eq!(
        g.result(),
        Some(Adjudication::draw(DrawReason::ThreeAgainstKing))
    );
    // Art. 6.2 alone would still allow 18 plies.
    assert_eq!(g.counters().reversible_plies(), 32);
}

#[test]
fn three_against_king_material_sets() {
    use LoneKingEnding::*;
    for (fen_text, expected) in [
        ("W:WK46,K47,K48:BK5", Some(ThreeAgainstKing)),
        ("W:WK46,K47,38:BK5", Some(ThreeAgainstKing)),
        ("W:WK46,37,38:BK5", Some(ThreeAgainstKing)),
        ("B:WK5:BK46,K47,K48", Some(ThreeAgainstKing)),
        ("B:WK5:BK46,7,8", Some(ThreeAgainstKing)),
        // Three men (no king) against a king: not in art. 6.3.
        ("W:W36,37,38:BK5", None),
        // Four pieces against a king: no ending rule.
        ("W:WK46,K47,K48,K49:BK5", None),
        // A man, not a king, alone: no ending rule.
        ("W:WK46,K47,K48:B5", None),
        ("W:WK46,K47:BK5", Some(TwoAgainstKing)),
        ("W:WK46,37:BK5", Some(TwoAgainstKing)),
        ("W:WK46:BK5", Some(TwoAgainstKing)),
        // Two men against a king: not in art. 6.4.
        ("W:W36,37:BK5", None),
        ("W:W37:BK5", None),
        ("W:WK46,K47:BK5,K4", None),
    ] {
        assert_eq!(
            LoneKingEnding::of(&position(fen_text)),
            expected,
            "{fen_text}"
        );
    }
}

#[test]
fn men_moves_and_promotion_do_not_reset_three_against_king() {
    // King + two men against a lone king, counted from the set-up position.
    let mut g = game("W:WK46,16,17:BK45");
    assert_eq!(
        g.counters().ending(),
        Some(LoneKingEnding::ThreeAgainstKing)
    );
    walk(&mut g, 6, true);
    assert!(
        g.moves().iter().any(|mv| !mv.is_king_move()),
        "the walk moved a man"
    );
    assert_eq!(g.counters().ending_plies(), 6);
    assert!(g.counters().reversible_plies() < 6);
    // Advance the men until one is crowned: still art. 6.3, the count runs on.
    for _ in 0..40 {
        if g.moves().iter().any(Move::is_promotion) {
            break;
        }
        let before = *g.position();
        let safe = |mv: &Move<u64>| !before.play(mv).has_capture();
        let legal = before.legal_moves();
        let man_move = legal
            .iter()
            .filter(|mv| safe(mv))
            .find(|mv| mv.is_promotion())
            .or_else(|| {
                legal
                    .iter()
                    .filter(|mv| safe(mv))
                    .find(|mv| !mv.is_king_move())
            });
        match (before.side(), man_move) {
            (Color::White, Some(mv)) => g.play(mv).expect("legal"),
            _ => walk(&mut g, 1, false),
        }
    }
    assert!(
        g.moves().iter().any(Move::is_promotion),
        "a man was crowned"
    );
    let plies = g.ply_count() as u32;
    assert_eq!(
        g.counters().ending(),
        Some(LoneKingEnding::ThreeAgainstKing)
    );
    assert_eq!(g.counters().ending_plies(), plies);
}

#[test]
fn ending_arising_from_setup_counts_from_setup() {
    let g = game("B:WK46,K47,K48:BK5");
    assert_eq!(g.counters().ending_plies(), 0);
    assert_eq!(g.counters().plies_until_draw(), Some(32));
}

// ----- Art. 6.4 and the 6.3 -> 6.4 transition -----

#[test]
fn two_against_king_draws_after_5_more_moves_each() {
    let mut g = game("W:WK46,K47:BK4,23");
    play_first(&mut g, |_, mv, after| {
        mv.is_capture() && !after.has_capture()
    });
    assert_eq!(g.counters().ending(), Some(LoneKingEnding::TwoAgainstKing));
    assert_eq!(g.counters().plies_until_draw(), Some(10));
    walk(&mut g, 9, false);
    assert_eq!(g.result(), None, "4 moves and a half: not yet");
    walk(&mut g, 1, false);
    assert_eq!(
        g.result(),
        Some(Adjudication::draw(DrawReason::TwoAgainstKing))
    );
}

#[test]
fn king_and_man_against_king_counts_through_man_moves() {
    let mut g = game("W:WK46,36:BK3");
    walk(&mut g, 9, true);
    assert!(g.moves().iter().any(|mv| !mv.is_king_move()));
    assert_eq!(g.result(), None);
    walk(&mut g, 1, true);
    assert_eq!(g.draw_reason(), Some(DrawReason::TwoAgainstKing));
}

/// Three against the lone king, 20 plies into art. 6.3; then White lets the lone king take the
/// man and art. 6.4 begins. Returns the game right after that capture.
fn three_then_two_against_king() -> Game<I> {
    let mut g = game("W:WK46,K47,36:BK3");
    walk(&mut g, 20, false);
    assert_eq!(
        g.counters().ending(),
        Some(LoneKingEnding::ThreeAgainstKing)
    );
    assert_eq!(g.counters().ending_plies(), 20);
    // A White move after which Black must capture, and can only capture the man.
    let offers_the_man = |after: &Position<I>| {
        after.has_capture()
            && after.legal_moves().iter().all(|m| {
                m.captured.count() == 1 && after.men(Color::White).has(m.captured.lowest())
            })
    };
    for _ in 0..40 {
        let before = *g.position();
        if before.side() == Color::White
            && before
                .legal_moves()
                .iter()
                .any(|mv| offers_the_man(&before.play(mv)))
        {
            play_first(&mut g, |_, _, after| offers_the_man(after));
            play_first(&mut g, |_, mv, after| {
                mv.is_capture() && !after.has_capture()
            });
            return g;
        }
        walk(&mut g, 1, true);
    }
    panic!("White never found a way to offer the man");
}

#[test]
fn capture_from_three_to_two_against_king_starts_the_art_6_4_count() {
    let mut g = three_then_two_against_king();
    assert_eq!(g.position().pieces(Color::White).count(), 2);
    assert_eq!(g.counters().ending(), Some(LoneKingEnding::TwoAgainstKing));
    assert_eq!(g.counters().ending_plies(), 0);
    assert_eq!(g.counters().plies_until_draw(), Some(10));
    walk(&mut g, 9, false);
    assert_eq!(g.result(), None);
    walk(&mut g, 1, false);
    assert_eq!(g.draw_reason(), Some(DrawReason::TwoAgainstKing));
}

#[test]
fn capture_within_art_6_4_does_not_restart_it() {
    // Two kings against one, four plies in; the lone king takes a king: king against king, still
    // art. 6.4, the count runs on.
    let start = position("B:WK28,K50:BK5");
    let counters = DrawCounters::<I>::with_plies(&start, 4, 4);
    let mv = *start
        .legal_moves()
        .iter()
        .find(|mv| mv.is_capture())
        .expect("5x32 or further takes the king on 28");
    let after = start.play(&mv);
    let next = counters.after(&mv, &after);
    assert_eq!(next.ending(), Some(LoneKingEnding::TwoAgainstKing));
    assert_eq!(next.ending_plies(), 5);
    assert_eq!(next.reversible_plies(), 0);
}

#[test]
fn promotion_creating_the_ending_is_not_counted() {
    // Two men against a king is no ending; the promotion makes king + man against king.
    let mut g = game("W:W7,36:BK45");
    assert_eq!(g.counters().ending(), None);
    play_first(&mut g, |_, mv, after| {
        mv.is_promotion() && !after.has_capture()
    });
    assert_eq!(g.counters().ending(), Some(LoneKingEnding::TwoAgainstKing));
    assert_eq!(g.counters().ending_plies(), 0);
}

#[test]
fn counters_match_a_full_recount() {
    // Whatever the path, the ending class always equals the one of the material.
    let g = three_then_two_against_king();
    let mut recount = DrawCounters::new(g.start());
    for (ply, (position, counters)) in g.positions().iter().zip(g.all_counters()).enumerate() {
        assert_eq!(counters.ending(), LoneKingEnding::of(position));
        if ply > 0 {
            recount = recount.after(&g.moves()[ply - 1], position);
        }
        assert_eq!(*counters, recount);
    }
}

#[test]
fn counters_display() {
    let g = game("W:WK46,K47,K48:BK5");
    assert_eq!(
        g.counters().to_string(),
        "art. 6.2 0/50 plies, art. 6.3 0/32 plies"
    );
    let g = game("W:W31-50:B1-20");
    assert_eq!(g.counters().to_string(), "art. 6.2 0/50 plies");
}

// ----- Art. 6.1 -----

/// A king of each side shuffling: 50-44 3-9 44-50 9-3 returns to the start position.
fn shuffle(g: &mut Game<I>, cycles: usize) {
    for _ in 0..cycles {
        for text in ["50-44", "3-9", "44-50", "9-3"] {
            g.play_text(text).expect("legal shuffle");
        }
    }
}

#[test]
fn third_occurrence_draws() {
    let mut g = game("W:WK46,K50:BK1,K3");
    shuffle(&mut g, 1);
    assert_eq!(g.occurrences(), 2);
    assert_eq!(g.result(), None);
    for text in ["50-44", "3-9", "44-50"] {
        g.play_text(text).expect("legal");
    }
    assert_eq!(g.result(), None, "one ply before the third occurrence");
    g.play_text("9-3").expect("legal");
    assert_eq!(g.occurrences(), 3);
    assert_eq!(g.result(), Some(Adjudication::draw(DrawReason::Repetition)));
}

#[test]
fn repetition_needs_the_same_player_to_move() {
    // White's king goes 46-41-37-46 along the long diagonal in three moves while Black shuffles
    // in two: the start's placement recurs with Black to move, which is not a repetition.
    let mut g = game("W:WK46,K50:BK1,K3");
    let start = *g.position();
    for text in ["46-41", "3-9", "41-37", "9-3", "37-46"] {
        g.play_text(text).expect("legal");
    }
    let same_placement = *g.position();
    assert_eq!(same_placement.side(), Color::Black);
    assert_eq!(
        same_placement.pieces(Color::White),
        start.pieces(Color::White)
    );
    assert_eq!(
        same_placement.pieces(Color::Black),
        start.pieces(Color::Black)
    );
    assert_eq!(g.occurrences(), 1);
    for text in ["3-9", "46-41", "9-3", "41-37", "3-9", "37-46", "9-3"] {
        g.play_text(text).expect("legal");
    }
    assert_eq!(*g.position(), start);
    assert_eq!(g.occurrences(), 2);
    assert_eq!(g.result(), None);
}

#[test]
fn history_hashes_match_the_search_root() {
    let mut g = game("W:WK46,K50,47:BK1,K3,6,15");
    shuffle(&mut g, 1);
    g.play_text("47-42").expect("legal");
    g.play_text("15-20").expect("legal");
    shuffle(&mut g, 1);
    g.play_text("50-44").expect("legal");
    let root = crate::search::Root::after_moves(*g.start(), g.moves());
    assert_eq!(root.position, *g.position());
    assert_eq!(g.history_hashes(), root.history);
    assert_eq!(g.history_hashes().len(), 5);
}

#[test]
fn man_move_cuts_the_repetition_window() {
    let mut g = game("W:WK46,K50,45:BK1,K3,6");
    shuffle(&mut g, 1);
    assert_eq!(g.occurrences(), 2);
    assert_eq!(g.reversible_history().len(), 5);
    g.play_text("45-40").expect("legal");
    assert_eq!(g.reversible_history().len(), 1);
    assert_eq!(g.occurrences(), 1);
}

// ----- Adjudication -----

#[test]
fn win_by_capturing_all_pieces() {
    let mut g = game("W:WK46:B23");
    assert_eq!(g.result(), None);
    g.play_text("46x19").expect("capture");
    let result = g.result().expect("over");
    assert_eq!(result.result, GameResult::WhiteWins);
    assert_eq!(result.reason, ResultReason::NoPieces(Color::Black));
    assert_eq!(result.to_string(), "white wins: black has no pieces left");
    assert_eq!(result.result.pdn_token::<I>(), "2-0");
}

#[test]
fn win_by_blockade() {
    // Black's man on 36 cannot move: 41 is taken and 47 behind it blocks the capture.
    let g = game("B:W41,47:B36");
    let result = g.result().expect("over");
    assert_eq!(result.result, GameResult::WhiteWins);
    assert_eq!(result.reason, ResultReason::Blocked(Color::Black));
}

#[test]
fn the_winning_move_beats_the_draw_count() {
    // King and man against the lone king in the corner, 9 plies counted: the 10th ply, 4-10,
    // blocks the king on 5 (10 is taken and 14 behind it). The count is complete, but the game
    // was won on that move.
    let start = position("W:WK4,14:BK5");
    let counters = DrawCounters::<I>::with_plies(&start, 9, 9);
    let mv = crate::notation::text::parse(&start, "4-10").expect("legal");
    let after = start.play(&mv);
    let next = counters.after(&mv, &after);
    assert_eq!(next.draw_by_counters(), Some(DrawReason::TwoAgainstKing));
    let result = adjudicate(&after, &next, 1).expect("over");
    assert_eq!(result.result, GameResult::WhiteWins);
    assert_eq!(result.reason, ResultReason::Blocked(Color::Black));
}

// The engine variants with another goal than the standard one test adjudication under it.

#[test]
fn losing_goal_gives_the_win_to_the_blocked_player() {
    let g = Game::<Antidraughts>::new(fen::parse("B:W41,47:B36").expect("valid"));
    let result = g.result().expect("over");
    assert_eq!(result.result, GameResult::BlackWins);
    assert_eq!(result.reason, ResultReason::Blocked(Color::Black));
    let mut g = Game::<Antidraughts>::new(fen::parse("W:WK46:B23").expect("valid"));
    g.play_text("46x19").expect("capture");
    assert_eq!(g.result().expect("over").result, GameResult::BlackWins);
}

#[test]
fn first_king_wins_in_breakthrough() {
    let mut g = Game::<Breakthrough>::new(fen::parse("W:W7,40:B20").expect("valid"));
    assert_eq!(g.result(), None);
    g.play_text("7-1").expect("promotion");
    let result = g.result().expect("over");
    assert_eq!(result.result, GameResult::WhiteWins);
    assert_eq!(result.reason, ResultReason::FirstKing(Color::White));
}

// ----- Building games -----

#[test]
fn from_moves_resolves_hub_and_pdn_forms() {
    let g = Game::<I>::from_moves(Position::start(), ["32-28", "19-23", "28x19", "14x23"])
        .expect("legal");
    assert_eq!(g.ply_count(), 4);
    assert_eq!(g.counters().reversible_plies(), 0);
    let again =
        Game::<I>::from_fen_and_moves("W:W31-50:B1-20", ["32-28", "19-23", "28x19x23", "14x23x19"])
            .expect("hub captures");
    assert_eq!(again, g);
}

#[test]
fn from_moves_error_names_the_move_and_keeps_nothing() {
    let previous = Game::<I>::from_moves(Position::start(), ["32-28"]).expect("legal");
    let mut current = previous.clone();
    match Game::<I>::from_moves(Position::start(), ["32-28", "19-23", "28-22"]) {
        Err(GameError::Move {
            ply: 2,
            number,
            source: crate::notation::MoveError::Illegal { .. },
        }) => assert_eq!(number, "2."),
        other => panic!("expected an illegal second move, got {other:?}"),
    }
    // The caller's game is untouched by a failed rebuild (a Hub `pos` keeps its game).
    if let Ok(game) = Game::<I>::from_moves(Position::start(), ["32-28", "junk"]) {
        current = game;
    }
    assert_eq!(current, previous);
    let err = Game::<I>::from_fen_and_moves("B:W31-50:B1-20", ["20-25", "31-27", "nope"])
        .expect_err("malformed");
    // The third move given, Black's second: ply 3 counted from 1.
    assert!(err.to_string().starts_with("move 2... (ply 3)"), "{err}");
    assert!(matches!(
        Game::<I>::from_fen_and_moves("X:W1", ["32-28"]),
        Err(GameError::Fen(_))
    ));
}

#[test]
fn play_checks_legality_and_undo_restores() {
    let mut g = Game::<I>::new(Position::start());
    let illegal = Move::new(0, 1, 0u64, 0);
    assert!(matches!(g.play(&illegal), Err(GameError::IllegalMove(_))));
    assert_eq!(g.ply_count(), 0);
    let mv = Position::<I>::start().legal_moves()[0];
    g.play(&mv).expect("legal");
    assert_eq!(g.undo(), Some(mv));
    assert_eq!(g, Game::new(Position::start()));
    assert_eq!(g.undo(), None);
}

#[test]
fn move_numbers_follow_the_first_mover() {
    assert_eq!(move_number::<I>(Color::White, 0), (1, true));
    assert_eq!(move_number::<I>(Color::White, 1), (1, false));
    assert_eq!(move_number::<I>(Color::White, 2), (2, true));
    assert_eq!(move_number::<I>(Color::Black, 0), (1, false));
    assert_eq!(move_number::<I>(Color::Black, 1), (2, true));
}
