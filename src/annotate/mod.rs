//! Game review: every position of a game searched, every move given the score before and after
//! it, the engine's better move and line when it is better, and a mark by the score it lost.
//!
//! Scores are in centi-men from the mover's view, all of a move's scores from one search of the
//! position it was played in: a multi-PV search over every root move, so that the move played
//! and the engine's choice are scored at the same depth of the same search. (The score of the
//! next position comes from another search, one ply deeper, whose number does not compare with
//! the choice's.) A move is called better than the move played only when it scores better by a
//! margin the search can tell ([`is_better`]).
//!
//! The score lost by a move is the engine's choice's score minus the move's, both clamped to
//! ±[`SCORE_CAP`] first: a move that keeps a won game won (+8 men to +6) loses nothing that
//! matters, a move that throws a win away loses the whole cap. A move that no move is better than
//! loses nothing.

pub mod checkpoint;
pub mod html;
pub mod pdn;

use crate::eval::Evaluator;
use crate::game::{Game, GameResult};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::Score;
use crate::score_text::{self, Verdict};
use crate::search::{Engine, Info, Limits, Mode, Root, SearchControl};

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
/// How much more than the move played another move must score, at the same depth of the same
/// search, to be called better: 0.10 men. Closer than that, the search cannot tell the two
/// apart: measured on the multi-PV scores of 143 positions of five games (every third ply), two
/// moves within 0.05 men of each other at depth 8 swap places at depth 9 or 10 in 26 to 30 % of
/// pairs, within 0.05 to 0.09 in 15 %, from 0.10 on in 6 to 8 % and fewer as the gap grows.
pub const BETTER_MARGIN: Score = 10;

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
    /// Every mark, best first.
    pub const ALL: [Mark; 4] = [Mark::Good, Mark::Dubious, Mark::Mistake, Mark::Blunder];

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

    /// Whether the review draws the position of a move with this mark, the better move and its
    /// line: every move that lost enough to be marked, a slide of `?!` moves too.
    pub const fn has_diagram(self) -> bool {
        !matches!(self, Mark::Good)
    }

    /// The marks whose moves get a diagram, as the help and the README list them.
    pub fn with_diagram_text() -> String {
        let symbols: Vec<&str> = Mark::ALL
            .into_iter()
            .filter(|mark| mark.has_diagram())
            .map(Mark::symbol)
            .collect();
        match symbols.split_last() {
            Some((last, [])) => (*last).to_string(),
            Some((last, others)) => format!("{} or {last}", others.join(", ")),
            None => String::new(),
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
    /// Score for the side to move: the engine's choice's.
    pub score: Score,
    /// Depth reached (0: not searched, the game is over).
    pub depth: u32,
    /// The engine's line, best move first (empty when the game is over).
    pub pv: Vec<Move<BitsOf<R>>>,
    /// Score of the move the game played here, from the same iteration as `score` (none at the
    /// end of the game, or when the search stopped before it had scored both).
    pub played: Option<Score>,
    /// Score of the best move other than the engine's choice, from the same iteration.
    pub second: Option<Score>,
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview<R: Rules> {
    /// The position the move was played in.
    pub position: Position<R>,
    /// The move played.
    pub played: Move<BitsOf<R>>,
    /// The engine's choice's score, for the mover.
    pub before: Score,
    /// The move's score, for the mover, in the same search as `before` (distances to the end of
    /// the game count this move).
    pub after: Score,
    /// Whether the move ended the game.
    pub ends_game: bool,
    /// The engine's choice, when the search scored the move played beside it.
    pub choice: Option<Move<BitsOf<R>>>,
    /// The engine's line when its first move is better than the move played ([`is_better`]).
    pub better: Option<Vec<Move<BitsOf<R>>>>,
    /// Score lost (clamped, never negative).
    pub loss: Score,
    /// The mark.
    pub mark: Option<Mark>,
}

impl<R: Rules> MoveReview<R> {
    /// The move's score as the review words it for people: [`score_text::game_over`] when the
    /// move ended the game, else [`score_text::for_side_to_move`].
    pub fn after_text(&self) -> String {
        if self.ends_game {
            score_text::game_over(self.after)
        } else {
            score_text::for_side_to_move(self.after)
        }
    }
}

fn clamp(score: Score) -> Score {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}

/// Whether a move scoring `candidate` is better than one scoring `played`, both from the same
/// search, by a margin the search can tell: by [`BETTER_MARGIN`] between evaluations; by the
/// score order where the end of the game is in sight (a win beats anything else, a faster win a
/// slower one, a slower loss a faster one); between two wins (or losses) by endgame knowledge,
/// never: their distances are where the search met the knowledge, not to the end of the game.
pub fn is_better(candidate: Score, played: Score) -> bool {
    match (score_text::verdict(candidate), score_text::verdict(played)) {
        (Verdict::Eval(candidate), Verdict::Eval(played)) => candidate - played >= BETTER_MARGIN,
        (Verdict::Known { win: candidate }, Verdict::Known { win: played }) => candidate && !played,
        _ => candidate > played,
    }
}

/// A review's score for a game that ended: the result for the side to move.
fn result_score(result: GameResult, side: crate::core::Color) -> Score {
    match result.winner() {
        None => crate::score::DRAW,
        Some(winner) if winner == side => crate::score::WIN,
        Some(_) => -crate::score::WIN,
    }
}

/// One iteration's line of the multi-PV search.
struct Scored<R: Rules> {
    depth: u32,
    score: Score,
    pv: Vec<Move<BitsOf<R>>>,
}

/// Searches one position of a game for its review: `replay` stands at the position, `played` is
/// the move the game played there (none at its end). Every root move is scored (multi-PV over
/// all of them), and the review takes the deepest iteration that scored both the engine's choice
/// and the move played. A position where the game is over is not searched: its value is the
/// result. A stop given to `control` ends the searches at once (the review is then worth nothing
/// and should be dropped).
pub fn search_position<R: Rules, E: Evaluator<R>>(
    engine: &Engine<R, E>,
    replay: &Game<R>,
    played: Option<&Move<BitsOf<R>>>,
    limits: &Limits,
    control: &SearchControl,
) -> PositionReview<R> {
    if let Some(result) = replay.result() {
        return PositionReview {
            score: result_score(result.result, replay.position().side()),
            depth: 0,
            pv: Vec::new(),
            played: None,
            second: None,
        };
    }
    let root = Root::from_game(replay);
    let mut root_moves = root.position.legal_moves();
    root.counters.restrict(&root.position, &mut root_moves);
    let mut iterations: Vec<Scored<R>> = Vec::new();
    let outcome = engine.search_lines(
        &root,
        limits,
        Mode::Analyze,
        control,
        root_moves.len(),
        |info: &Info<R>| {
            if !info.pv.is_empty() {
                iterations.push(Scored {
                    depth: info.depth,
                    score: info.score,
                    pv: info.pv.clone(),
                });
            }
        },
    );
    let is_played = |line: &Scored<R>| {
        played.is_some_and(|played| line.pv.first().is_some_and(|mv| mv.same_as(played)))
    };
    // A search stopped within an iteration has scored only some moves at its last depth: the
    // deepest that scored the move played (the engine's choice is every iteration's first line).
    let deepest = |lines: &mut dyn Iterator<Item = &Scored<R>>| lines.map(|l| l.depth).max();
    let depth = deepest(&mut iterations.iter().filter(|line| is_played(line)))
        .or_else(|| deepest(&mut iterations.iter()));
    let mut lines: Vec<&Scored<R>> = iterations
        .iter()
        .filter(|line| Some(line.depth) == depth)
        .collect();
    // A later line is searched without the earlier lines' moves, yet the search may score it
    // above them: the best of the iteration is the engine's choice.
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
    match lines.first() {
        Some(best) => PositionReview {
            score: best.score,
            depth: best.depth,
            pv: best.pv.clone(),
            played: lines
                .iter()
                .find(|line| is_played(line))
                .map(|line| line.score),
            second: lines.get(1).map(|line| line.score),
        },
        // Stopped before any iteration: only the outcome is known.
        None => PositionReview {
            score: outcome.score,
            depth: outcome.depth,
            played: match (outcome.best, played) {
                (Some(best), Some(played)) if best.same_as(played) => Some(outcome.score),
                _ => None,
            },
            pv: outcome.pv,
            second: None,
        },
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
            // Without the move's own score (a search stopped early), the next position's, one
            // ply further from the end of the game: it tells the score, not whether another
            // move was better.
            let after = here
                .played
                .unwrap_or_else(|| crate::score::from_table(-next.score, 1));
            let better = !engine_choice && here.played.is_some() && is_better(here.score, after);
            let loss = if better {
                (clamp(here.score) - clamp(after)).max(0)
            } else {
                0
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
            let ends_game = ply + 1 == game.ply_count() && next.depth == 0 && next.pv.is_empty();
            Some(MoveReview {
                position: game.positions()[ply],
                played: *played,
                before: here.score,
                after,
                ends_game,
                choice: here.pv.first().copied().filter(|_| here.played.is_some()),
                better: if better && !here.pv.is_empty() {
                    Some(here.pv.clone())
                } else {
                    None
                },
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

    #[test]
    fn better_by_a_margin_or_by_the_end_of_the_game() {
        use crate::score::{KNOWN_WIN, loss_in, win_in};
        assert!(is_better(BETTER_MARGIN, 0));
        assert!(!is_better(BETTER_MARGIN - 1, 0));
        assert!(!is_better(1, 4) && !is_better(7, 12) && !is_better(-5, -5));
        // A win beats every other score, a faster win a slower one, a slower loss a faster one.
        assert!(is_better(win_in(41), 700));
        assert!(is_better(win_in(5), win_in(7)) && !is_better(win_in(7), win_in(6)));
        assert!(is_better(loss_in(10), loss_in(8)) && !is_better(loss_in(8), loss_in(10)));
        assert!(is_better(-700, loss_in(40)));
        // Endgame knowledge: a win beats a loss, a distance means nothing.
        assert!(is_better(KNOWN_WIN - 3, -(KNOWN_WIN - 3)));
        assert!(!is_better(KNOWN_WIN - 2, KNOWN_WIN - 9));
        assert!(is_better(win_in(9), KNOWN_WIN - 2) && is_better(KNOWN_WIN - 2, 300));
    }

    #[test]
    fn the_help_lists_the_marks_with_a_diagram() {
        assert_eq!(Mark::with_diagram_text(), "?!, ? or ??");
    }
}
