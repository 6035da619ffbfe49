//! The one place where a match meets PDN ([`crate::notation::pdn`]): writing each finished game
//! of the game record ([`crate::game`]), which also decides the end of a game by the rules, and
//! reading a match's games back for `--resume`.

use crate::game::{Game, GameResult};
use crate::notation::pdn::{self, Tags};
use crate::rules::Rules;

/// The tags of a match game.
#[derive(Clone, Debug, Default)]
pub struct GameTags {
    /// `Event`.
    pub event: String,
    /// `Date` (`YYYY.MM.DD`).
    pub date: String,
    /// `Round`: the game number in the match.
    pub round: usize,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// `TimeControl`.
    pub time_control: String,
    /// `Termination`: why the game ended.
    pub termination: String,
}

/// A finished game as PDN 3.0 text: the seven-tag roster, `GameType`, `FEN` when the game does
/// not start from the start position, `TimeControl`, `Termination`, `PlyCount`, the moves and the
/// result.
pub fn pdn_text<R: Rules>(game: &Game<R>, result: GameResult, tags: &GameTags) -> String {
    let mut pdn_tags = Tags::new();
    pdn_tags.set("Event", tags.event.as_str());
    pdn_tags.set("Date", tags.date.as_str());
    pdn_tags.set("Round", tags.round.to_string());
    pdn_tags.set("White", tags.white.as_str());
    pdn_tags.set("Black", tags.black.as_str());
    pdn_tags.set("TimeControl", tags.time_control.as_str());
    pdn_tags.set("Termination", tags.termination.as_str());
    pdn_tags.set("PlyCount", game.ply_count().to_string());
    pdn::write_game(game, &pdn_tags, Some(result.into()))
}

/// A finished game read back from a match's PDN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PastGame {
    /// `Round`: the game number in the match.
    pub round: usize,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// The result.
    pub result: GameResult,
}

/// The finished games of a match's PDN file. A game that cannot be read, has no `Round` number or
/// no result (a game cut short when the match was interrupted) is skipped with a warning: it will
/// be played again.
pub fn read_past_games<R: Rules>(text: &str) -> Vec<PastGame> {
    let mut games = Vec::new();
    for read in pdn::read_games::<R>(text) {
        let game = match read {
            Ok(game) => game,
            Err(error) => {
                log::warn!("--resume: {error}; that game will be played again");
                continue;
            }
        };
        let round = game.tags.get("Round").and_then(|r| r.trim().parse().ok());
        let Some(result) = game.result.game() else {
            log::warn!("--resume: a game without a result will be played again");
            continue;
        };
        let Some(round) = round else {
            log::warn!("--resume: a game without a Round number is not part of the match");
            continue;
        };
        games.push(PastGame {
            round,
            white: game.tags.get("White").unwrap_or("?").to_string(),
            black: game.tags.get("Black").unwrap_or("?").to_string(),
            result,
        });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::rules::International;

    type I = International;

    #[test]
    fn written_games_read_back() {
        let mut game = Game::<I>::new(Position::start());
        for text in ["32-28", "19-23", "28x19"] {
            game.play_text(text).expect("legal");
        }
        let tags = GameTags {
            event: "test".into(),
            date: "2026.01.02".into(),
            round: 7,
            white: "a".into(),
            black: "b \"quoted\"".into(),
            time_control: "10+0.1".into(),
            termination: "time: b did not move in time".into(),
        };
        let text = pdn_text(&game, GameResult::WhiteWins, &tags);
        assert!(text.contains("[GameType \"20\"]"), "{text}");
        assert!(
            text.contains("[Termination \"time: b did not move in time\"]"),
            "{text}"
        );
        assert!(text.contains("[PlyCount \"3\"]"), "{text}");
        assert!(text.contains("1. 32-28 19-23 2. 28x19 2-0"), "{text}");
        let draw = pdn_text(
            &game,
            GameResult::Draw,
            &GameTags {
                round: 8,
                ..tags.clone()
            },
        );
        let unfinished = "[Event \"x\"]\n[Round \"9\"]\n[Result \"*\"]\n\n1. 32-28 *\n";
        let broken = "[Event \"x\"]\n[Round \"10\"]\n\n1. 32-29 2-0\n";
        let file = format!("{text}\n{draw}\n{unfinished}\n{broken}");
        let games = read_past_games::<I>(&file);
        assert_eq!(
            games,
            [
                PastGame {
                    round: 7,
                    white: "a".into(),
                    black: "b \"quoted\"".into(),
                    result: GameResult::WhiteWins
                },
                PastGame {
                    round: 8,
                    white: "a".into(),
                    black: "b \"quoted\"".into(),
                    result: GameResult::Draw
                }
            ]
        );
    }
}
