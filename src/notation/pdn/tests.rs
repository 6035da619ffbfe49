//! Tests of PDN reading and writing.

use super::*;
use crate::core::Color;
use crate::game::DrawReason;
use crate::rules::{Brazilian, International};

type I = International;

fn moves_of(game: &Game<I>) -> Vec<String> {
    game.moves()
        .iter()
        .zip(game.positions())
        .map(|(mv, position)| text::pdn(position, mv))
        .collect()
}

#[test]
fn writes_pdn_3_0() {
    let game = Game::<I>::from_moves(Position::start(), ["32-28", "19-23", "28x19", "14x23"])
        .expect("legal");
    let mut tags = Tags::new();
    tags.set("White", "Rafle");
    tags.set("Black", "Scan \"3.1\"");
    tags.set("Event", "Test");
    tags.set("TimeControl", "60+1");
    let text = write_game(&game, &tags, None);
    assert_eq!(
        text,
        "[Event \"Test\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Rafle\"]\n\
         [Black \"Scan \\\"3.1\\\"\"]\n[Result \"*\"]\n[GameType \"20\"]\n[TimeControl \"60+1\"]\n\n\
         1. 32-28 19-23 2. 28x19 14x23 *\n\n"
    );
    let back = read_game::<I>(&text).expect("reads back");
    assert_eq!(back.game, game);
    assert_eq!(back.result, PdnResult::Unknown);
    assert_eq!(back.tags.get("black"), Some("Scan \"3.1\""));
    assert_eq!(back.tags.get("TimeControl"), Some("60+1"));
}

#[test]
fn round_trip_from_a_set_up_position_with_black_to_move_and_a_result() {
    // Black to move; White's king wins the man: the game ends 0-2... no: 2-0 for White.
    let start = fen::parse::<I>("B:WK46:B10").expect("valid");
    let mut game = Game::new(start);
    game.play_text("10-14").expect("legal");
    game.play_text("46x10").expect("capture");
    let result = game.result().expect("black has no pieces");
    assert_eq!(result.result, GameResult::WhiteWins);
    let text = write_game(&game, &Tags::new(), None);
    assert!(text.contains("[Result \"2-0\"]\n"), "{text}");
    assert!(text.contains("[FEN \"B:WK46:B10\"]\n"), "{text}");
    assert!(
        text.contains("[Termination \"white wins: black has no pieces left\"]\n"),
        "{text}"
    );
    assert!(text.ends_with("1... 10-14 2. 46x10 2-0\n\n"), "{text}");
    let back = read_game::<I>(&text).expect("reads back");
    assert_eq!(back.game, game);
    assert_eq!(back.result, PdnResult::Game(GameResult::WhiteWins));
}

#[test]
fn ambiguous_capture_is_written_long_and_read_back() {
    // rule_positions.md R10: 47x36 has two routes taking different pieces.
    let start = fen::parse::<I>("W:WK47:B14,19,29,31,42").expect("valid");
    for long in ["47x38x24x13x36", "47x38x20x9x36"] {
        let mut game = Game::new(start);
        game.play_text(long).expect("long form");
        let text = write_game(&game, &Tags::new(), Some(PdnResult::Game(GameResult::Draw)));
        assert!(text.contains(&format!("1. {long} 1-1")), "{text}");
        let back = read_game::<I>(&text).expect("reads back");
        assert_eq!(back.game, game);
        assert_eq!(back.result, PdnResult::Game(GameResult::Draw));
    }
    // The short form is refused with both candidates named.
    let err =
        read_game::<I>("[FEN \"W:WK47:B14,19,29,31,42\"]\n1. 47x36 *").expect_err("ambiguous");
    assert_eq!((err.game, err.line, err.column), (1, 2, 4));
    assert!(
        err.to_string().contains("47x38x24x13x36") && err.to_string().contains("47x38x20x9x36"),
        "{err}"
    );
}

#[test]
fn long_games_wrap_lines() {
    let mut game = Game::<I>::new(Position::start());
    while game.ply_count() < 60 && game.result().is_none() {
        let mv = game.position().legal_moves()[0];
        game.play(&mv).expect("legal");
    }
    let text = write_game(&game, &Tags::new(), None);
    assert!(text.lines().all(|line| line.chars().count() <= LINE_WIDTH));
    assert_eq!(read_game::<I>(&text).expect("reads").game, game);
}

#[test]
fn result_tokens_follow_the_variant() {
    assert_eq!(PdnResult::Game(GameResult::WhiteWins).token::<I>(), "2-0");
    assert_eq!(PdnResult::Game(GameResult::Draw).token::<I>(), "1-1");
    assert_eq!(PdnResult::Game(GameResult::BlackWins).token::<I>(), "0-2");
    assert_eq!(
        PdnResult::Game(GameResult::WhiteWins).token::<Brazilian>(),
        "1-0"
    );
    assert_eq!(
        PdnResult::Game(GameResult::Draw).token::<Brazilian>(),
        "1/2-1/2"
    );
    assert_eq!(
        PdnResult::Game(GameResult::BlackWins).token::<Brazilian>(),
        "0-1"
    );
    assert_eq!(PdnResult::BothLost.token::<I>(), "0-0");
    for token in ["2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0-0", "*"] {
        assert!(PdnResult::parse(token).is_some(), "{token}");
    }
    let game = Game::<Brazilian>::new(Position::start());
    let text = write_game(
        &game,
        &Tags::new(),
        Some(PdnResult::Game(GameResult::BlackWins)),
    );
    assert!(
        text.contains("[GameType \"26\"]") && text.ends_with("\n0-1\n\n"),
        "{text}"
    );
}

/// Real-world PDN features in one file: three games, the second with an illegal move.
const TRICKY: &str = "\u{feff}% an escape line, ignored
[Event \"Tricky \\\\ file\"]
[Site \"?\"]
[GameType \"20,W,10,10,N2,0\"]
[Result \"1-1\"]

{ A comment before the moves. 1. 31-26 is not a move here. }
1.32-28 19-23 ; a line comment 2. 99-99
2. 28x19! 14x23 $1 3. 37-32 {[%clock w0:05:00 B0:05:00]} 10-14 !?
( 3... 13-19 { nested (not really) } ( 3... 9-13 4. 41-37 ) 4. 41-37 )
4. 41-37 5-10 5. 46-41 13-19 1-1

[Event \"Second\"]
1. 32-28 19-23 2. 28-22 *

[Event \"Third\"]
[FEN \"B:W28,K46:B18\"]
[SetUp \"1\"]
1... 18-22 2. 28x17 2-0
";

#[test]
fn reads_tricky_files_game_by_game() {
    let games = read_games::<I>(TRICKY);
    assert_eq!(games.len(), 3);
    let first = games[0].as_ref().expect("first game reads");
    assert_eq!(first.tags.get("Event"), Some("Tricky \\ file"));
    assert_eq!(first.result, PdnResult::Game(GameResult::Draw));
    assert_eq!(
        moves_of(&first.game),
        [
            "32-28", "19-23", "28x19", "14x23", "37-32", "10-14", "41-37", "5-10", "46-41", "13-19"
        ]
    );
    let second = games[1]
        .as_ref()
        .expect_err("28-22 is illegal: 28x19 is compulsory");
    assert_eq!((second.game, second.line, second.column), (2, 14, 19));
    assert!(
        matches!(&second.kind, PdnErrorKind::Move { number, .. } if number == "2."),
        "{second}"
    );
    assert!(second.to_string().contains("compulsory"), "{second}");
    let third = games[2].as_ref().expect("third game reads");
    assert_eq!(third.game.start().side(), Color::Black);
    assert_eq!(moves_of(&third.game), ["18-22", "28x17"]);
    assert_eq!(third.result, PdnResult::Game(GameResult::WhiteWins));
}

#[test]
fn errors_are_located_and_never_panic() {
    let err = |text: &str| read_game::<I>(text).expect_err(text);
    assert_eq!(err("").kind, PdnErrorKind::Empty);
    assert_eq!(err("  \n% only an escape\n").kind, PdnErrorKind::Empty);
    let e = err("[Event \"x\"]\n1. 32-28 { never closed");
    assert_eq!(
        (e.line, e.column, e.kind),
        (2, 10, PdnErrorKind::UnterminatedComment)
    );
    assert!(matches!(
        err("[Event x]\n1. 32-28 *").kind,
        PdnErrorKind::BadTag(_)
    ));
    assert!(matches!(
        err("[Event \"x\n\"]").kind,
        PdnErrorKind::BadTag(_)
    ));
    assert!(matches!(
        err("[GameType \"26\"]\n1. 22-18 *").kind,
        PdnErrorKind::GameType { .. }
    ));
    assert!(matches!(
        err("[FEN \"W:W51\"]\n*").kind,
        PdnErrorKind::Fen(_)
    ));
    assert_eq!(
        err("1. 32-28 ( 19-23 *").kind,
        PdnErrorKind::UnbalancedVariation
    );
    assert_eq!(err("1. 32-28 ) *").kind, PdnErrorKind::UnbalancedVariation);
    assert_eq!(
        err("1. 32-28 /FEN \"W:W31\"/ 2. 31-27 *").kind,
        PdnErrorKind::SetupInMovetext
    );
    let e = err("1. 32-28 19-23\n2. 28x19 14x23 3. 37-32 junk *");
    assert_eq!((e.line, e.column), (2, 25));
    assert!(matches!(&e.kind, PdnErrorKind::Move { number, .. } if number == "3..."));
    // Garbage of every kind gives an error or a game, never a panic.
    for text in [
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        "[A \"",
        "[A \"b\" c]",
        "1.",
        "1...",
        "$",
        "$x",
        "!!",
        "/",
        "x",
        "-",
        "1-",
        "\"",
        "[FEN \"\"]",
        "\u{0}",
        "[GameType \"\"] *",
        "1. 32x *",
    ] {
        let _ = read_games::<I>(text);
    }
}

#[test]
fn empty_game_and_game_without_tags() {
    let game = read_game::<I>("*").expect("an empty game");
    assert_eq!(game.game.ply_count(), 0);
    let game = read_game::<I>("32-28 19-23").expect("no tags, no result");
    assert_eq!(game.game.ply_count(), 2);
    assert_eq!(game.result, PdnResult::Unknown);
    let game = read_game::<I>("[Result \"2-0\"]\n32-28").expect("result from the tag");
    assert_eq!(game.result, PdnResult::Game(GameResult::WhiteWins));
}

#[test]
fn from_pdn_gives_the_game_and_its_draw_state() {
    let text = "[FEN \"W:WK46,K47:BK3\"]\n1. 46-41 3-9 2. 41-46 9-3 3. 46-41 3-9 4. 41-46 9-3 *";
    let game = Game::<I>::from_pdn(text).expect("reads");
    assert_eq!(game.ply_count(), 8);
    assert_eq!(game.draw_reason(), Some(DrawReason::Repetition));
}

#[test]
fn random_input_never_panics() {
    const ALPHABET: &[u8] = b"[]{}()\"\\;%$!?.*-x:/0123456789 \n\tKWBGameTyp\xc3\xa9";
    let mut state = crate::core::mix::GOLDEN_GAMMA;
    for _ in 0..3000 {
        let mut bytes = Vec::new();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let length = (state % 60) as usize;
        for _ in 0..length {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            bytes.push(ALPHABET[(state % ALPHABET.len() as u64) as usize]);
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = read_games::<I>(&text);
        let _ = read_games::<I>(&format!("[FEN \"W:W31-50:B1-20\"]\n1. 32-28 {text} *"));
    }
}
