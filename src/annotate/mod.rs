//! Game review: every position of a game searched, every move given the score before and after
//! it, the engine's better move and line when it differs, and a mark by the score it lost.
//!
//! Scores are in centi-men from the mover's view. The score lost by a move is the best score of
//! the position before it minus the score after it, both clamped to ±[`SCORE_CAP`] first: a move
//! that keeps a won game won (+8 men to +6) loses nothing that matters, a move that throws a win
//! away loses the whole cap. A move that is the engine's own choice loses nothing: the score
//! after it differs from the score before only by search noise.

pub mod checkpoint;
pub mod html;
pub mod pdn;

use crate::eval::Evaluator;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::Score;
use crate::search::{Engine, Limits, Mode, Root, SearchControl};

/// Scores are clamped to ±5 men before the loss is taken (see the module documentation).
pub const SCORE_CAP: Score = 500;
/// Score lost from which a move is dubious (`?!`): 0.40 men.
pub const INACCURACY: Score = 40;
/// Score lost from which a move is a mistake (`?`): 1.00 man.
pub const MISTAKE: Score = 100;
/// Score lost from which a move is a blunder (`??`): 2.50 men.
pub const BLUNDER: Score = 250;
/// A move is good (`!`) when it is the engine's choice and every other move loses at least
/// [`MISTAKE`]: the only move that holds.
pub const ONLY_MOVE_MARGIN: Score = MISTAKE;

/// The mark a move gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// `!`: the only move that holds the position.
    Good,
    /// `?!`: lost at least [`INACCURACY`].
    Dubious,
    /// `?`: lost at least [`MISTAKE`].
    Mistake,
    /// `??`: lost at least [`BLUNDER`].
    Blunder,
}

impl Mark {
    /// The PDN move strength.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Good => "!",
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// A word for people.
    pub const fn word(self) -> &'static str {
        match self {
            Mark::Good => "only move",
            Mark::Dubious => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark of a move that lost `loss` centi-men (`None` below [`INACCURACY`]).
    pub const fn of_loss(loss: Score) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Dubious)
        } else {
            None
        }
    }
}

/// What the search said about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionReview<R: Rules> {
    /// Score for the side to move.
    pub score: Score,
    /// Depth reached (0: not searched, the game is over).
    pub depth: u32,
    /// The engine's line, best move first (empty when the game is over).
    pub pv: Vec<Move<BitsOf<R>>>,
    /// Score of the best move other than the engine's choice, when it was searched.
    pub second: Option<Score>,
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview<R: Rules> {
    /// The position the move was played in.
    pub position: Position<R>,
    /// The move played.
    pub played: Move<BitsOf<R>>,
    /// The best score in the position, for the mover.
    pub before: Score,
    /// The score after the move, for the mover.
    pub after: Score,
    /// The engine's line when its first move differs from the move played.
    pub better: Option<Vec<Move<BitsOf<R>>>>,
    /// Score lost (clamped, never negative).
    pub loss: Score,
    /// The mark.
    pub mark: Option<Mark>,
}

fn clamp(score: Score) -> Score {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}

/// Searches one position of a game for its review: `replay` stands at the position, `played` is
/// the move the game played there (none at its end). A position where the game is over is not
/// searched: its value is the result. A stop given to `control` ends the searches at once (the
/// review is then worth nothing and should be dropped).
pub fn search_position<R: Rules, E: Evaluator<R>>(
    engine: &Engine<R, E>,
    replay: &Game<R>,
    played: Option<&Move<BitsOf<R>>>,
    limits: &Limits,
    control: &SearchControl,
) -> PositionReview<R> {
    if let Some(result) = replay.result() {
        return PositionReview {
            score: match result.winner {
                None => crate::score::DRAW,
                Some(winner) if winner == replay.position().side() => crate::score::WIN,
                Some(_) => -crate::score::WIN,
            },
            depth: 0,
            pv: Vec::new(),
            second: None,
        };
    }
    let root = Root::from_game(replay);
    let outcome = engine.search(&root, limits, Mode::Analyze, control, |_| {});
    // When the engine's choice was played, the best other move tells whether it was the only
    // move that holds (`!`).
    let played_best = match (outcome.best, played) {
        (Some(best), Some(played)) => best.same_as(played),
        _ => false,
    };
    let second = match outcome.best {
        Some(best) if played_best && replay.position().legal_moves().len() > 1 => {
            let other =
                engine.search_excluding(&root, limits, Mode::Analyze, control, &[best], |_| {});
            Some(other.score)
        }
        _ => None,
    };
    PositionReview {
        score: outcome.score,
        depth: outcome.depth,
        pv: outcome.pv,
        second,
    }
}

/// Reviews the moves of a game from the reviews of its positions (`positions.len()` is the
/// number of moves plus one: the final position too).
pub fn review<R: Rules>(game: &Game<R>, positions: &[PositionReview<R>]) -> Vec<MoveReview<R>> {
    game.moves()
        .iter()
        .enumerate()
        .filter_map(|(ply, played)| {
            let here = positions.get(ply)?;
            let next = positions.get(ply + 1)?;
            let engine_choice = here.pv.first().is_some_and(|best| best.same_as(played));
            let after = -next.score;
            let (after, loss, better) = if engine_choice {
                (after, 0, None)
            } else {
                let loss = (clamp(here.score) - clamp(after)).max(0);
                (after, loss, Some(here.pv.clone()))
            };
            let only_move = engine_choice
                && here
                    .second
                    .is_some_and(|second| clamp(here.score) - clamp(second) >= ONLY_MOVE_MARGIN);
            let mark = if only_move {
                Some(Mark::Good)
            } else {
                Mark::of_loss(loss)
            };
            Some(MoveReview {
                position: game.positions()[ply],
                played: *played,
                before: here.score,
                after,
                better: better.filter(|line| !line.is_empty()),
                loss,
                mark,
            })
        })
        .collect()
}

/// The thresholds as the help and the README give them.
pub fn thresholds_text() -> String {
    format!(
        "`?!` loses {} men or more, `?` {} or more, `??` {} or more (scores clamped to ±{} men \
         first); `!` is the engine's choice when every other move loses {} or more",
        crate::score::to_men(INACCURACY),
        crate::score::to_men(MISTAKE),
        crate::score::to_men(BLUNDER),
        crate::score::to_men(SCORE_CAP),
        crate::score::to_men(ONLY_MOVE_MARGIN),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_by_loss() {
        assert_eq!(Mark::of_loss(0), None);
        assert_eq!(Mark::of_loss(INACCURACY - 1), None);
        assert_eq!(Mark::of_loss(INACCURACY), Some(Mark::Dubious));
        assert_eq!(Mark::of_loss(MISTAKE), Some(Mark::Mistake));
        assert_eq!(Mark::of_loss(BLUNDER), Some(Mark::Blunder));
        assert_eq!(Mark::of_loss(10_000), Some(Mark::Blunder));
    }
}
