//! Time controls and the game clock of each player.
//!
//! Forms of `--tc`:
//!
//! | text | meaning |
//! |---|---|
//! | `40/60+0.5` | 60 s for every 40 moves, plus 0.5 s per move |
//! | `10+0.1`, `1:30+1` | 10 s (1 min 30 s) for the game, plus 0.1 s (1 s) per move |
//! | `60` | 60 s for the game |
//! | `st=1` | 1 s per move |
//! | `depth=8`, `nodes=100000` | a fixed search depth or node count; no clock |
//! | `nodes=20000~10` | about 20,000 nodes a move, each move's count drawn within ±10 % |
//!
//! A varied node count lets a fixed-node test repeat its openings (`--rounds`) without repeating
//! its games, while staying reproducible: each move's count is a function of the game number, the
//! side and the move number, so a game replayed after an interruption is the same game.
//!
//! The increment is added at the start of each move, as Scan's time management assumes (the
//! engine is sent `time=<remaining>`, may plan on `time + inc`, and loses when a move takes
//! longer than that). After the last move of a period (`40/…`) the period's time is added again.

use crate::core::mix::{GOLDEN_GAMMA, splitmix64};
use crate::player::options::DEPTH_RANGE;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How much time the players get.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock: `time` for every `moves` moves (or for the whole game), plus `increment` per move.
    Clock {
        /// Moves per period (`None`: one period for the whole game).
        moves: Option<u32>,
        /// Time of a period.
        time: Duration,
        /// Time added per move.
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed search depth per move.
    Depth(u32),
    /// A node count per move: `nodes`, varied by up to ±`spread` % from move to move.
    Nodes {
        /// Nodes per move on average.
        nodes: u64,
        /// Largest change of a move's count, in percent of `nodes` (0: every move gets `nodes`).
        spread: u32,
    },
}

/// Largest `~spread` of a node-count control, in percent: beyond it the two sides of a game would
/// no longer play at one strength.
pub const MAX_NODE_SPREAD: u32 = 50;

/// Longest time accepted in a time control, in seconds (a week).
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

fn seconds(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let value = match text.split_once(':') {
        Some((minutes, rest)) => {
            let minutes: f64 = minutes.parse().map_err(|_| bad_time(text))?;
            let rest: f64 = rest.parse().map_err(|_| bad_time(text))?;
            if minutes.fract() != 0.0 || !(0.0..60.0).contains(&rest) {
                return Err(bad_time(text));
            }
            minutes * 60.0 + rest
        }
        None => text.parse::<f64>().map_err(|_| bad_time(text))?,
    };
    if !value.is_finite() || !(0.0..=MAX_SECONDS).contains(&value) {
        return Err(bad_time(text));
    }
    Ok(Duration::from_secs_f64(value))
}

fn bad_time(text: &str) -> String {
    format!("'{text}' is not a time (seconds, or minutes:seconds)")
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let fail = |why: String| format!("bad time control '{text}': {why}");
        if let Some((key, value)) = text.split_once('=') {
            let value = value.trim();
            return match key.trim() {
                "st" => {
                    let time = seconds(value).map_err(fail)?;
                    if time.is_zero() {
                        return Err(fail("the move time must be positive".into()));
                    }
                    Ok(TimeControl::MoveTime(time))
                }
                "depth" => value
                    .parse()
                    .ok()
                    .filter(|&d: &u32| DEPTH_RANGE.contains(&i64::from(d)))
                    .map(TimeControl::Depth)
                    .ok_or_else(|| {
                        fail(format!(
                            "depth must be {}..{}",
                            DEPTH_RANGE.start(),
                            DEPTH_RANGE.end()
                        ))
                    }),
                "nodes" => {
                    let (count, spread) = match value.split_once('~') {
                        Some((count, spread)) => (count, Some(spread)),
                        None => (value, None),
                    };
                    let nodes = count
                        .trim()
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| fail("nodes must be a positive integer".into()))?;
                    let spread = match spread {
                        None => 0,
                        Some(spread) => spread
                            .trim()
                            .trim_end_matches('%')
                            .parse()
                            .ok()
                            .filter(|&s| (1..=MAX_NODE_SPREAD).contains(&s))
                            .ok_or_else(|| {
                                fail(format!(
                                    "the spread after '~' must be 1..{MAX_NODE_SPREAD} (percent)"
                                ))
                            })?,
                    };
                    Ok(TimeControl::Nodes { nodes, spread })
                }
                other => Err(fail(format!(
                    "unknown '{other}=' (use st=, depth= or nodes=)"
                ))),
            };
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| fail(format!("'{moves}' is not a move count")))?;
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (time, increment) = match rest.split_once('+') {
            Some((time, increment)) => (seconds(time), seconds(increment)),
            None => (seconds(rest), Ok(Duration::ZERO)),
        };
        let time = time.map_err(fail)?;
        let increment = increment.map_err(fail)?;
        if time.is_zero() && increment.is_zero() {
            return Err(fail("no time at all".into()));
        }
        Ok(TimeControl::Clock {
            moves,
            time,
            increment,
        })
    }
}

/// Seconds written briefly: `60`, `0.5`, `0.125`.
fn short_seconds(duration: Duration) -> String {
    let text = format!("{:.3}", duration.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for TimeControl {
    /// The `--tc` form (also PDN's `TimeControl` form for clocks: `40/60+0.5`, `10+0.1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock {
                moves,
                time,
                increment,
            } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", short_seconds(time))?;
                if !increment.is_zero() {
                    write!(f, "+{}", short_seconds(increment))?;
                }
                Ok(())
            }
            TimeControl::MoveTime(time) => write!(f, "st={}", short_seconds(time)),
            TimeControl::Depth(depth) => write!(f, "depth={depth}"),
            TimeControl::Nodes { nodes, spread: 0 } => write!(f, "nodes={nodes}"),
            TimeControl::Nodes { nodes, spread } => write!(f, "nodes={nodes}~{spread}"),
        }
    }
}

/// The clock of one player in one game.
#[derive(Clone, Debug)]
pub struct GameClock {
    control: TimeControl,
    remaining: Duration,
    moves_made: u32,
    /// Draws the node count of each move (`nodes=N~S`).
    seed: u64,
}

/// What the clock says about a move that was just made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockVerdict {
    /// In time.
    InTime,
    /// The move took longer than the time allowed plus the margin.
    Flagged,
}

impl GameClock {
    /// A fresh clock; `seed` (one per game and side) draws the node counts of `nodes=N~S`.
    pub fn new(control: TimeControl, seed: u64) -> Self {
        let remaining = match control {
            TimeControl::Clock { time, .. } => time,
            _ => Duration::ZERO,
        };
        GameClock {
            control,
            remaining,
            moves_made: 0,
            seed,
        }
    }

    /// Time left before this move's increment is added (zero without a clock).
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Moves until the next period starts, when the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Clock {
                moves: Some(moves), ..
            } => Some(moves - self.moves_made % moves),
            _ => None,
        }
    }

    /// The longest the next move may take (`None`: no time limit).
    pub fn allowance(&self) -> Option<Duration> {
        match self.control {
            TimeControl::Clock { increment, .. } => Some(self.remaining + increment),
            TimeControl::MoveTime(time) => Some(time),
            TimeControl::Depth(_) | TimeControl::Nodes { .. } => None,
        }
    }

    /// The arguments of the Hub `level` line for the next move.
    pub fn level(&self) -> Vec<(&'static str, String)> {
        match self.control {
            TimeControl::Clock { increment, .. } => {
                let mut args = vec![("time", format!("{:.3}", self.remaining.as_secs_f64()))];
                if !increment.is_zero() {
                    args.push(("inc", format!("{:.3}", increment.as_secs_f64())));
                }
                if let Some(moves) = self.moves_to_go() {
                    args.push(("moves", moves.to_string()));
                }
                args
            }
            TimeControl::MoveTime(time) => {
                vec![("move-time", format!("{:.3}", time.as_secs_f64()))]
            }
            TimeControl::Depth(depth) => vec![("depth", depth.to_string())],
            TimeControl::Nodes { nodes, spread } => {
                vec![("nodes", self.move_nodes(nodes, spread).to_string())]
            }
        }
    }

    /// The node count of the next move: `nodes` moved by a fraction of `spread` % drawn from the
    /// seed and the move number.
    fn move_nodes(&self, nodes: u64, spread: u32) -> u64 {
        if spread == 0 {
            return nodes;
        }
        let (_, draw) =
            splitmix64(self.seed ^ u64::from(self.moves_made).wrapping_mul(GOLDEN_GAMMA));
        // A uniform fraction in [-1, 1) from the top 53 bits.
        let fraction = (draw >> 11) as f64 / (1u64 << 52) as f64 - 1.0;
        let scaled = nodes as f64 * (1.0 + fraction * f64::from(spread) / 100.0);
        (scaled.round() as u64).max(1)
    }

    /// Charges a move that took `elapsed`; a move over the allowance by more than `margin` has
    /// lost on time.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> ClockVerdict {
        let verdict = match self.allowance() {
            Some(allowed) if elapsed > allowed + margin => ClockVerdict::Flagged,
            _ => ClockVerdict::InTime,
        };
        if let TimeControl::Clock { moves, time, .. } = self.control {
            self.remaining = self.allowance().unwrap_or_default().saturating_sub(elapsed);
            self.moves_made += 1;
            if moves.is_some_and(|m| self.moves_made.is_multiple_of(m)) {
                self.remaining += time;
            }
        } else {
            self.moves_made += 1;
        }
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn forms() {
        assert_eq!(
            "40/60+0.5".parse(),
            Ok(TimeControl::Clock {
                moves: Some(40),
                time: ms(60_000),
                increment: ms(500)
            })
        );
        assert_eq!(
            "10+0.1".parse(),
            Ok(TimeControl::Clock {
                moves: None,
                time: ms(10_000),
                increment: ms(100)
            })
        );
        assert_eq!(
            "1:30+1".parse::<TimeControl>().map(|t| t.to_string()),
            Ok("90+1".to_string())
        );
        assert_eq!(
            "60".parse::<TimeControl>().map(|t| t.to_string()),
            Ok("60".into())
        );
        assert_eq!("st=1".parse(), Ok(TimeControl::MoveTime(ms(1000))));
        assert_eq!("depth=8".parse(), Ok(TimeControl::Depth(8)));
        assert_eq!(
            "nodes=5000".parse(),
            Ok(TimeControl::Nodes {
                nodes: 5000,
                spread: 0
            })
        );
        assert_eq!(
            "nodes=5000~10%".parse(),
            Ok(TimeControl::Nodes {
                nodes: 5000,
                spread: 10
            })
        );
        for text in [
            "40/60+0.5",
            "10+0.1",
            "st=0.25",
            "depth=3",
            "nodes=100",
            "nodes=20000~10",
            "0+0.2",
        ] {
            assert_eq!(
                text.parse::<TimeControl>().map(|t| t.to_string()),
                Ok(text.to_string())
            );
        }
        for bad in [
            "",
            "x",
            "0",
            "0/60",
            "40/",
            "10+",
            "-5",
            "st=0",
            "st=x",
            "depth=0",
            "nodes=-1",
            "nodes=100~0",
            "nodes=100~51",
            "nodes=100~x",
            "nodes=~5",
            "foo=3",
            "1:75",
            "nan",
            "inf",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fischer_clock() {
        let mut clock = GameClock::new("10+0.5".parse().expect("valid"), 0);
        assert_eq!(
            clock.level(),
            vec![("time", "10.000".to_string()), ("inc", "0.500".to_string())]
        );
        assert_eq!(clock.allowance(), Some(ms(10_500)));
        assert_eq!(clock.charge(ms(2_000), ms(0)), ClockVerdict::InTime);
        assert_eq!(clock.remaining(), ms(8_500));
        assert_eq!(clock.charge(ms(9_000), ms(0)), ClockVerdict::InTime);
        assert_eq!(clock.remaining(), ms(0));
        assert_eq!(clock.charge(ms(600), ms(50)), ClockVerdict::Flagged);
        let mut clock = GameClock::new("1+0".parse().expect("valid"), 0);
        assert_eq!(clock.charge(ms(1_040), ms(50)), ClockVerdict::InTime);
        assert_eq!(clock.remaining(), Duration::ZERO);
    }

    #[test]
    fn periods() {
        let mut clock = GameClock::new("2/10".parse().expect("valid"), 0);
        assert_eq!(clock.moves_to_go(), Some(2));
        assert_eq!(clock.charge(ms(3_000), ms(0)), ClockVerdict::InTime);
        assert_eq!(clock.moves_to_go(), Some(1));
        assert_eq!(
            clock.level(),
            vec![("time", "7.000".to_string()), ("moves", "1".to_string())]
        );
        assert_eq!(clock.charge(ms(3_000), ms(0)), ClockVerdict::InTime);
        // The second period's time is added after the second move.
        assert_eq!(clock.remaining(), ms(14_000));
        assert_eq!(clock.moves_to_go(), Some(2));
    }

    #[test]
    fn fixed_limits() {
        let mut clock = GameClock::new("st=0.5".parse().expect("valid"), 0);
        assert_eq!(clock.level(), vec![("move-time", "0.500".to_string())]);
        assert_eq!(clock.charge(ms(520), ms(50)), ClockVerdict::InTime);
        assert_eq!(clock.charge(ms(600), ms(50)), ClockVerdict::Flagged);
        let mut clock = GameClock::new(TimeControl::Depth(4), 0);
        assert_eq!(clock.allowance(), None);
        assert_eq!(clock.level(), vec![("depth", "4".to_string())]);
        assert_eq!(clock.charge(ms(100_000), ms(0)), ClockVerdict::InTime);
    }

    /// The node counts of a varied control stay within the spread, average out near the count,
    /// differ between seeds and repeat for the same seed (a replayed game is the same game).
    #[test]
    fn varied_node_counts() {
        let control: TimeControl = "nodes=20000~10".parse().expect("valid");
        let counts = |seed| {
            let mut clock = GameClock::new(control, seed);
            (0..200)
                .map(|_| {
                    let level = clock.level();
                    assert_eq!(level.len(), 1);
                    assert_eq!(level[0].0, "nodes");
                    clock.charge(ms(1), ms(0));
                    level[0].1.parse::<u64>().expect("a count")
                })
                .collect::<Vec<_>>()
        };
        let first = counts(7);
        assert!(first.iter().all(|n| (18_000..=22_000).contains(n)));
        let mean = first.iter().sum::<u64>() as f64 / first.len() as f64;
        assert!((mean - 20_000.0).abs() < 500.0, "{mean}");
        assert!(first.windows(2).any(|w| w[0] != w[1]));
        assert_eq!(first, counts(7));
        assert_ne!(first, counts(8));
        let exact = GameClock::new("nodes=500".parse().expect("valid"), 7);
        assert_eq!(exact.level(), vec![("nodes", "500".to_string())]);
    }
}
