//! Time management: from the `level` limits to a soft target (checked between iterations) and a
//! hard limit (checked during the search).
//!
//! For clock games the budget follows the usual scheme (as Scan does): expect about
//! `lerp(30, 10, phase)` more moves, spend `(time + inc × moves_left) / moves_left` per move,
//! stop between iterations once a fraction of it is used and the best move is stable, and never
//! go past a hard limit that keeps a safety reserve on the clock. Every factor is a named constant.

use super::Limits;
use std::time::Duration;

/// Moves still to play in the opening, when no move count is given.
const MOVES_LEFT_OPENING: f64 = 30.0;
/// Moves still to play in the endgame.
const MOVES_LEFT_ENDGAME: f64 = 10.0;
/// Share of the per-move budget to spend in a normal move.
const TARGET_FACTOR: f64 = 1.3;
/// The hard limit is this many times the per-move budget.
const HARD_FACTOR: f64 = 4.0;
/// Never plan to use more than this share of the clock on one move.
const MAX_CLOCK_SHARE: f64 = 0.3;
/// Share of the increment that a move may spend on top of [`MAX_CLOCK_SHARE`] of the clock.
const MAX_INCREMENT_SHARE: f64 = 0.8;
/// Time kept in hand for process and pipe latency, per move (GUIs written in Python on a busy
/// machine take tens of milliseconds to pass a move on).
const MOVE_OVERHEAD: Duration = Duration::from_millis(50);
/// Share of a fixed move time kept in hand for latency, when that is less than
/// [`MOVE_OVERHEAD`]: a GUI that gives 0.1 s a move means 0.1 s, not the 0.05 s left after a
/// fixed reserve.
const MOVE_TIME_RESERVE_SHARE: f64 = 0.05;
/// Stop between iterations once this share of the target is used (opening; endgame).
const ITERATION_STOP_OPENING: f64 = 0.45;
/// See [`ITERATION_STOP_OPENING`].
const ITERATION_STOP_ENDGAME: f64 = 0.8;
/// Stability factor bounds: shrinks with a stable best move, grows when it changes.
const STABILITY_MIN: f64 = 0.6;
/// See [`STABILITY_MIN`].
const STABILITY_MAX: f64 = 2.0;
/// Factor applied after an iteration with the same best move.
const STABLE_DECAY: f64 = 0.9;
/// Factor applied when the best move changes.
const CHANGE_GROWTH: f64 = 1.3;
/// Factor applied when the score dropped by more than [`SCORE_DROP`] centi-men.
const DROP_GROWTH: f64 = 1.3;
/// Score drop that asks for more time.
pub const SCORE_DROP: i32 = 30;
/// When pondering is on, plan a little more per move (the opponent's time is also ours).
const PONDER_BONUS: f64 = 1.2;

/// Deadlines of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    target: Option<Duration>,
    hard: Option<Duration>,
    stop_share: f64,
    stability: f64,
}

impl TimeManager {
    /// Deadlines for `limits`; `phase` runs from 0 (opening) to 1 (endgame).
    pub fn new(limits: &Limits, phase: f64, ponder_enabled: bool) -> Self {
        let lerp = |a: f64, b: f64| a + (b - a) * phase;
        let stop_share = lerp(ITERATION_STOP_OPENING, ITERATION_STOP_ENDGAME);
        let mut manager = TimeManager {
            target: None,
            hard: None,
            stop_share,
            stability: 1.0,
        };
        if let Some(clock) = &limits.clock {
            let time = clock.time.as_secs_f64();
            let increment = clock.increment.as_secs_f64();
            let mut moves_left = lerp(MOVES_LEFT_OPENING, MOVES_LEFT_ENDGAME);
            if let Some(moves) = clock.moves_to_go.filter(|&m| m > 0) {
                moves_left = moves_left.min(f64::from(moves));
            }
            let total = (time + increment * (moves_left - 1.0)).max(0.0);
            let mut per_move = total / moves_left * TARGET_FACTOR;
            if ponder_enabled {
                per_move *= PONDER_BONUS;
            }
            let reserve = MOVE_OVERHEAD.as_secs_f64();
            let cap = ((time * MAX_CLOCK_SHARE).max(0.0) + increment * MAX_INCREMENT_SHARE
                - reserve)
                .min(time - reserve)
                .max(0.0);
            manager.target = Some(Duration::from_secs_f64(per_move.min(cap)));
            manager.hard = Some(Duration::from_secs_f64((per_move * HARD_FACTOR).min(cap)));
        }
        if let Some(move_time) = limits.move_time {
            // A fixed move time is spent in full: only the hard limit applies, and the running
            // iteration is stopped there.
            let reserve = MOVE_OVERHEAD.min(move_time.mul_f64(MOVE_TIME_RESERVE_SHARE));
            let budget = move_time.saturating_sub(reserve);
            manager.hard = Some(manager.hard.map_or(budget, |h| h.min(budget)));
            if manager.target.is_none() {
                manager.stop_share = f64::INFINITY;
            }
        }
        manager
    }

    /// The limit to check during the search.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// The soft target (for the ponder-hit decision).
    pub fn target(&self) -> Option<Duration> {
        self.target
    }

    /// Records a finished iteration: whether the best move changed and whether the score fell.
    pub fn iteration_done(&mut self, best_changed: bool, score_dropped: bool) {
        if best_changed {
            self.stability = (self.stability.max(1.0) * CHANGE_GROWTH).min(STABILITY_MAX);
        } else {
            self.stability = (self.stability * STABLE_DECAY).max(STABILITY_MIN);
        }
        if score_dropped {
            self.stability = (self.stability * DROP_GROWTH).min(STABILITY_MAX);
        }
    }

    /// Whether to start no further iteration after `elapsed`.
    pub fn should_stop_between_iterations(&self, elapsed: Duration) -> bool {
        match (self.target, self.hard) {
            (Some(target), Some(hard)) => {
                let soft = target.as_secs_f64() * self.stop_share * self.stability;
                elapsed.as_secs_f64() >= soft.min(hard.as_secs_f64())
            }
            (None, Some(hard)) => elapsed >= hard,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn clock(time: f64, increment: f64, moves: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_secs_f64(time),
                increment: Duration::from_secs_f64(increment),
                moves_to_go: moves,
            }),
            ..Limits::default()
        }
    }

    /// A game phase halfway between the opening (0) and the endgame (1).
    const MID_GAME: f64 = 0.5;

    /// The manager of a fixed time a move, in mid-game.
    fn fixed_move_time(move_time: Duration) -> TimeManager {
        let limits = Limits {
            move_time: Some(move_time),
            ..Limits::default()
        };
        TimeManager::new(&limits, MID_GAME, false)
    }

    #[test]
    fn never_plans_past_the_clock() {
        for (time, increment) in [(1.0, 0.1), (0.2, 0.1), (0.05, 0.0), (60.0, 0.0), (0.0, 0.0)] {
            let manager = TimeManager::new(&clock(time, increment, None), 0.0, false);
            let hard = manager.hard().expect("clock").as_secs_f64();
            assert!(
                hard <= (time - MOVE_OVERHEAD.as_secs_f64()).max(0.0) + 1e-9,
                "{time}+{increment}: {hard}"
            );
            assert!(manager.target().expect("clock") <= manager.hard().expect("clock"));
        }
    }

    #[test]
    fn moves_to_go_and_move_time() {
        let sudden = TimeManager::new(&clock(60.0, 0.0, None), 0.0, false);
        let last_move = TimeManager::new(&clock(60.0, 0.0, Some(1)), 0.0, false);
        assert!(last_move.target() > sudden.target());
        let fixed = fixed_move_time(Duration::from_secs(1));
        assert_eq!(fixed.hard(), Some(Duration::from_millis(950)));
        assert_eq!(fixed.target(), None);
        assert!(!fixed.should_stop_between_iterations(Duration::from_millis(940)));
        assert!(fixed.should_stop_between_iterations(Duration::from_millis(980)));
        // A short move time keeps a proportional reserve, not the fixed one.
        let fast = fixed_move_time(Duration::from_millis(100));
        assert_eq!(fast.hard(), Some(Duration::from_millis(95)));
    }
}
