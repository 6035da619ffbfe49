//! The referee: plays one game between two players, checking every move with our own rules core
//! and keeping the clocks.
//!
//! A player loses the game when it plays an illegal move (or none), crashes, answers `error`
//! instead of a move, or moves past its time (the clock's allowance plus the margin). The game
//! also ends by the rules (a player who cannot move, the FMJD draw rules of art. 6: see
//! [`super::record`]),
//! by adjudication on the scores both engines agree on, or at a ply limit no real game reaches.

use super::clock::{ClockVerdict, GameClock, TimeControl};
use super::engine::{Contestant, Failure, GameOver, MoveReply, MoveRequest};
use super::openings::Opening;
use crate::core::Color;
use crate::game::{Game, GameResult, ResultReason};
use crate::notation::{hub, text};
use crate::rules::Rules;
use std::fmt;
use std::time::Duration;

/// A game that lasts this many plies is drawn: the draw rules end every real game long before
/// (men can only move forward; kings alone are drawn by art. 6.2 after 25 moves each).
pub const MAX_PLIES: usize = 1000;

/// Default number of moves per side for which the scores must agree (`--adjudicate draw=S`).
const DEFAULT_DRAW_MOVES: u32 = 10;
/// Default first move number at which a draw may be adjudicated.
const DEFAULT_DRAW_AFTER: u32 = 40;
/// Default number of moves per side for which the scores must agree (`--adjudicate win=S`).
const DEFAULT_WIN_MOVES: u32 = 4;

/// Draw adjudication: both engines see a score within `±score` for `moves` moves each, from
/// move `after` on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdjudication {
    /// Largest absolute score, in men.
    pub score: f64,
    /// Consecutive moves of each engine.
    pub moves: u32,
    /// First move number at which it applies.
    pub after: u32,
}

/// Win adjudication: both engines see one side ahead by at least `score` for `moves` moves each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinAdjudication {
    /// Smallest score for the winner, in men.
    pub score: f64,
    /// Consecutive moves of each engine.
    pub moves: u32,
}

/// Adjudication by the scores the engines agree on (`--adjudicate draw=… win=…`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoreAdjudication {
    /// Draw rule, if any.
    pub draw: Option<DrawAdjudication>,
    /// Win rule, if any.
    pub win: Option<WinAdjudication>,
}

impl ScoreAdjudication {
    /// Reads `draw=SCORE[,MOVES[,AFTER]]` and `win=SCORE[,MOVES]` (scores in men).
    ///
    /// # Errors
    /// A message naming the bad word.
    pub fn parse(words: &[String]) -> Result<Self, String> {
        let mut rules = ScoreAdjudication::default();
        for word in words {
            let bad = || {
                format!(
                    "--adjudicate: bad '{word}' (use draw=SCORE[,MOVES[,AFTER]] or win=SCORE[,MOVES])"
                )
            };
            let (key, value) = word.split_once('=').ok_or_else(bad)?;
            let parts: Vec<&str> = value.split(',').map(str::trim).collect();
            let score: f64 = parts[0]
                .parse()
                .ok()
                .filter(|s: &f64| s.is_finite() && *s >= 0.0)
                .ok_or_else(bad)?;
            let count = |index: usize, default: u32| -> Result<u32, String> {
                match parts.get(index) {
                    None => Ok(default),
                    Some(text) => text.parse().ok().filter(|&n| n > 0).ok_or_else(bad),
                }
            };
            match key {
                "draw" if parts.len() <= 3 => {
                    rules.draw = Some(DrawAdjudication {
                        score,
                        moves: count(1, DEFAULT_DRAW_MOVES)?,
                        after: count(2, DEFAULT_DRAW_AFTER)?,
                    });
                }
                "win" if parts.len() <= 2 => {
                    rules.win = Some(WinAdjudication {
                        score,
                        moves: count(1, DEFAULT_WIN_MOVES)?,
                    });
                }
                _ => return Err(bad()),
            }
        }
        Ok(rules)
    }

    /// The adjudicated result, given the scores of the engine moves so far (White's side, in
    /// men; `None` where the engine reported none) and the number of the move about to be played.
    fn check(&self, scores: &[Option<f64>], move_number: u32) -> Option<(GameResult, String)> {
        let recent = |moves: u32| -> Option<Vec<f64>> {
            let plies = 2 * moves as usize;
            if scores.len() < plies {
                return None;
            }
            scores[scores.len() - plies..].iter().copied().collect()
        };
        if let Some(win) = self.win
            && let Some(window) = recent(win.moves)
        {
            for (winner, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
                if window.iter().all(|&s| s * sign >= win.score) {
                    return Some((
                        GameResult::win(winner),
                        format!(
                            "both engines scored {winner} at least {:.2} for {}",
                            win.score,
                            moves_text(win.moves)
                        ),
                    ));
                }
            }
        }
        if let Some(draw) = self.draw
            && move_number >= draw.after
            && let Some(window) = recent(draw.moves)
            && window.iter().all(|s| s.abs() <= draw.score)
        {
            return Some((
                GameResult::Draw,
                format!(
                    "both engines scored within +/-{:.2} for {}",
                    draw.score,
                    moves_text(draw.moves)
                ),
            ));
        }
        None
    }
}

/// `1 move`, `4 moves`.
fn moves_text(moves: u32) -> String {
    if moves == 1 {
        "1 move".to_string()
    } else {
        format!("{moves} moves")
    }
}

/// The conditions of every game.
#[derive(Clone, Debug)]
pub struct GameConditions {
    /// The time control.
    pub control: TimeControl,
    /// Time a move may exceed the clock by, for process and pipe latency.
    pub margin: Duration,
    /// Longest a move may take when the control has no clock (depth or nodes).
    pub move_limit: Duration,
    /// Adjudication by agreed scores.
    pub adjudication: ScoreAdjudication,
    /// A virtual clock: the engines are told (Hub `level nodes-time=N`) and charged time as
    /// this many nodes a millisecond, from the node count each move reports, so that the
    /// games do not depend on the machine's load.
    pub nodes_per_ms: Option<u64>,
}

impl GameConditions {
    /// The time control as the PDN, the test log and the match's banner name it: a virtual
    /// clock adds its node rate (`10+0.1@500n/ms`).
    pub fn control_text(&self) -> String {
        match self.nodes_per_ms {
            Some(rate) => format!("{}@{rate}n/ms", self.control),
            None => self.control.to_string(),
        }
    }

    /// The time a move took by the clock's measure: its nodes at the virtual clock's rate, or
    /// the wall time (an engine that does not report its nodes is charged wall time).
    fn charged(&self, reply: &MoveReply) -> Duration {
        match (self.nodes_per_ms, reply.nodes) {
            (Some(rate), Some(nodes)) => crate::search::virtual_time(nodes, rate),
            _ => reply.elapsed,
        }
    }
}

/// On a virtual clock, a move may take this many times its allowance in wall time before the
/// engine counts as hung: the clock no longer measures wall time, but a hung engine must still
/// be caught.
const VIRTUAL_DEADLINE_FACTOR: u32 = 20;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game, for this reason.
    Rules(ResultReason),
    /// A player played an illegal move, or none.
    IllegalMove {
        /// The text it sent.
        text: String,
        /// Why it is not legal.
        why: String,
    },
    /// A player moved too late: the time it had for the move (clock and increment, without the
    /// margin).
    Time(Option<Duration>),
    /// A player did not move and did not answer `stop`; it was killed.
    Hung(Option<Duration>),
    /// A player's process ended.
    Crash(String),
    /// A player answered `error`.
    EngineError(String),
    /// A player could not be started.
    StartFailure(String),
    /// Adjudicated on the engines' scores.
    Adjudicated(String),
    /// The ply limit was reached.
    PlyLimit,
}

impl Termination {
    /// One word (or two) for the kind of ending, as output and tests use it.
    pub fn keyword(&self) -> &'static str {
        match self {
            Termination::Rules(_) => "rules",
            Termination::IllegalMove { .. } => "illegal move",
            Termination::Time(_) => "time",
            Termination::Hung(_) => "hung",
            Termination::Crash(_) => "crash",
            Termination::EngineError(_) => "error",
            Termination::StartFailure(_) => "start",
            Termination::Adjudicated(_) => "adjudication",
            Termination::PlyLimit => "ply limit",
        }
    }

    fn from_failure(failure: Failure, allowed: Option<Duration>) -> Self {
        match failure {
            Failure::Crash(detail) => Termination::Crash(detail),
            Failure::Error(message) => Termination::EngineError(message),
            Failure::Timeout { killed: false } => Termination::Time(allowed),
            Failure::Timeout { killed: true } => Termination::Hung(allowed),
            Failure::Start(detail) => Termination::StartFailure(detail),
            Failure::IllegalMove(text) => Termination::IllegalMove {
                text,
                why: "not a legal move".to_string(),
            },
        }
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The result.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
    /// Who lost by its own fault (a failing engine), for the description.
    pub culprit: Option<String>,
}

impl fmt::Display for Decision {
    /// The keyword, then what happened: `time: dame did not move in time`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = self.culprit.as_deref().unwrap_or("?");
        write!(f, "{}: ", self.termination.keyword())?;
        match &self.termination {
            Termination::Rules(reason) => write!(f, "{reason}"),
            Termination::IllegalMove { text, why } if text.is_empty() => {
                write!(f, "{who} sent no move ({why})")
            }
            Termination::IllegalMove { text, why } => {
                write!(f, "{who} played '{text}' ({why})")
            }
            Termination::Time(allowed) => {
                write!(f, "{who} did not move in time{}", allowed_text(*allowed))
            }
            Termination::Hung(allowed) => write!(
                f,
                "{who} did not move in time{} and did not answer stop (killed)",
                allowed_text(*allowed)
            ),
            Termination::Crash(detail) => write!(f, "{who} crashed ({detail})"),
            Termination::EngineError(message) => write!(f, "{who} answered error: {message}"),
            Termination::StartFailure(detail) => {
                write!(f, "{who} could not be started ({detail})")
            }
            Termination::Adjudicated(text) => write!(f, "{text}"),
            Termination::PlyLimit => write!(f, "draw after {MAX_PLIES} plies"),
        }
    }
}

/// ` (had 0.412 s)`, or nothing without a clock.
fn allowed_text(allowed: Option<Duration>) -> String {
    allowed.map_or(String::new(), |a| {
        format!(" (had {:.3} s)", a.as_secs_f64())
    })
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame<R: Rules> {
    /// The moves, from the opening's start.
    pub record: Game<R>,
    /// How it ended.
    pub end: Decision,
}

/// Plays game number `game` of a match from `opening`, `white` against `black` (the number draws
/// the node counts of a varied node control, so the same game number replays the same game).
pub fn play_game<R: Rules>(
    white: &mut dyn Contestant,
    black: &mut dyn Contestant,
    opening: &Opening<R>,
    conditions: &GameConditions,
    game: usize,
) -> PlayedGame<R> {
    let mut record = Game::new(opening.start);
    for mv in &opening.moves {
        record
            .play(mv)
            .expect("the moves of an opening were checked when it was read");
    }
    let players: [&mut dyn Contestant; 2] = [white, black];
    let lost =
        |side: Color, termination: Termination, players: &[&mut dyn Contestant; 2]| Decision {
            result: GameResult::win(!side),
            termination,
            culprit: Some(players[side.index()].name().to_string()),
        };
    for side in Color::BOTH {
        if let Err(failure) = players[side.index()].new_game() {
            let end = lost(side, Termination::from_failure(failure, None), &players);
            return PlayedGame { record, end };
        }
    }
    let seed = |side: Color| (game as u64) << 1 | side.index() as u64;
    let mut clocks = [
        GameClock::new(conditions.control, seed(Color::White)),
        GameClock::new(conditions.control, seed(Color::Black)),
    ];
    let start = hub::format(&opening.start);
    let mut moves: Vec<String> = opening.moves.iter().map(text::hub::<R>).collect();
    let mut scores: Vec<Option<f64>> = Vec::new();
    let end = loop {
        if let Some(result) = record.result() {
            break Decision {
                result: result.result,
                termination: Termination::Rules(result.reason),
                culprit: None,
            };
        }
        if record.moves().len() >= MAX_PLIES {
            break Decision {
                result: GameResult::Draw,
                termination: Termination::PlyLimit,
                culprit: None,
            };
        }
        let move_number = (record.moves().len() / 2 + 1) as u32;
        if let Some((result, why)) = conditions.adjudication.check(&scores, move_number) {
            break Decision {
                result,
                termination: Termination::Adjudicated(why),
                culprit: None,
            };
        }
        let side = record.position().side();
        let clock = &mut clocks[side.index()];
        let mut level = clock.level();
        let allowed = clock.allowance();
        let mut deadline = allowed.map_or(conditions.move_limit, |a| a + conditions.margin);
        if let (Some(rate), Some(_)) = (conditions.nodes_per_ms, allowed) {
            level.push(("nodes-time", rate.to_string()));
            deadline = deadline * VIRTUAL_DEADLINE_FACTOR + conditions.move_limit;
        }
        let request = MoveRequest {
            start: &start,
            moves: &moves,
            level: &level,
            deadline,
        };
        let reply = match players[side.index()].think(&request) {
            Ok(reply) => reply,
            Err(failure) => {
                let termination = Termination::from_failure(failure, allowed);
                break lost(side, termination, &players);
            }
        };
        if clock.charge(conditions.charged(&reply), conditions.margin) == ClockVerdict::Flagged {
            break lost(side, Termination::Time(allowed), &players);
        }
        // Engines answer in Hub move text, where the algebraic variants number their squares from
        // a1; the game record reads the variant's own notation, so the reply is read as Hub text
        // and handed on as the full route.
        let own_text = text::parse_hub(record.position(), &reply.text).map_or_else(
            |_| reply.text.clone(),
            |mv| text::long_form(record.position(), &mv),
        );
        let mv = match record.play_text(&own_text) {
            Ok(mv) => mv,
            Err(error) => {
                let termination = Termination::IllegalMove {
                    text: reply.text.clone(),
                    why: error.to_string(),
                };
                break lost(side, termination, &players);
            }
        };
        moves.push(text::hub::<R>(&mv));
        scores.push(
            reply
                .score
                .map(|s| if side == Color::White { s } else { -s }),
        );
    };
    for color in Color::BOTH {
        players[color.index()].game_over(&GameOver {
            start: &start,
            moves: &moves,
            result: end.result,
            color,
        });
    }
    PlayedGame { record, end }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_virtual_clock_charges_the_reported_nodes() {
        let conditions = |nodes_per_ms| GameConditions {
            control: TimeControl::Clock {
                moves: None,
                time: Duration::from_secs(10),
                increment: Duration::from_millis(100),
            },
            margin: Duration::ZERO,
            move_limit: Duration::from_secs(1),
            adjudication: ScoreAdjudication::default(),
            nodes_per_ms,
        };
        let reply = |nodes| MoveReply {
            text: String::new(),
            elapsed: Duration::from_secs(3),
            score: None,
            nodes,
        };
        let virtual_clock = conditions(Some(500));
        assert_eq!(
            virtual_clock.charged(&reply(Some(250_000))),
            Duration::from_millis(500)
        );
        // An engine that does not say its nodes is charged wall time.
        assert_eq!(virtual_clock.charged(&reply(None)), Duration::from_secs(3));
        assert_eq!(
            conditions(None).charged(&reply(Some(250_000))),
            Duration::from_secs(3)
        );
        assert_eq!(virtual_clock.control_text(), "10+0.1@500n/ms");
        assert_eq!(conditions(None).control_text(), "10+0.1");
    }

    #[test]
    fn adjudication_arguments() {
        let rules = ScoreAdjudication::parse(&words("draw=0.1 win=5,3")).expect("valid");
        assert_eq!(
            rules.draw,
            Some(DrawAdjudication {
                score: 0.1,
                moves: DEFAULT_DRAW_MOVES,
                after: DEFAULT_DRAW_AFTER
            })
        );
        assert_eq!(
            rules.win,
            Some(WinAdjudication {
                score: 5.0,
                moves: 3
            })
        );
        let draw = ScoreAdjudication::parse(&words("draw=0,2,10")).expect("valid");
        assert_eq!(draw.draw.map(|d| (d.moves, d.after)), Some((2, 10)));
        for bad in [
            "draw",
            "draw=x",
            "win=-1",
            "win=1,0",
            "draw=1,2,3,4",
            "win=1,2,3",
            "lose=1",
        ] {
            assert!(ScoreAdjudication::parse(&words(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn adjudication_windows() {
        let rules = ScoreAdjudication::parse(&words("draw=0.1,2,10 win=3,2")).expect("valid");
        let drawn = [Some(0.05), Some(-0.1), Some(0.0), Some(0.02)];
        assert_eq!(
            rules.check(&drawn, 12).map(|(r, _)| r),
            Some(GameResult::Draw)
        );
        // Too early, too short, or a missing score: no adjudication.
        assert_eq!(rules.check(&drawn, 9), None);
        assert_eq!(rules.check(&drawn[1..], 12), None);
        assert_eq!(
            rules.check(&[None, Some(0.0), Some(0.0), Some(0.0)], 12),
            None
        );
        let black_wins = [Some(0.0), Some(-3.0), Some(-4.5), Some(-3.1), Some(-3.0)];
        assert_eq!(
            rules.check(&black_wins, 5).map(|(r, _)| r),
            Some(GameResult::BlackWins)
        );
        let disagree = [Some(3.0), Some(3.0), Some(2.0), Some(3.0)];
        assert_eq!(rules.check(&disagree, 5), None);
        assert_eq!(ScoreAdjudication::default().check(&drawn, 50), None);
    }
}
