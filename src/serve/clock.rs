//! The two clocks of a timed game in play. The server keeps them (the page only shows what it is
//! sent): the clock of the side to move runs from the moment its turn began, a move charges the
//! time it took and then earns the increment (Fischer), and a side whose time runs out before it
//! moves has lost.

use crate::core::Color;
use std::time::{Duration, Instant};

/// A Fischer time control: a starting time for each side and an increment per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FischerControl {
    /// Time of each side at the start.
    pub initial: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Both sides' clocks.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: FischerControl,
    /// Time left of each side (indexed by [`Color::index`]), not counting the running turn.
    left: [Duration; 2],
    /// The side whose clock runs and since when.
    running: Option<(Color, Instant)>,
    /// The side that ran out of time.
    flagged: Option<Color>,
}

impl Clocks {
    /// Both clocks at the control's starting time, stopped.
    pub fn new(control: FischerControl) -> Self {
        Clocks {
            control,
            left: [control.initial; 2],
            running: None,
            flagged: None,
        }
    }

    /// The time control.
    pub fn control(&self) -> FischerControl {
        self.control
    }

    /// The side that ran out of time, if one did.
    pub fn flagged(&self) -> Option<Color> {
        self.flagged
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// Time left of `side` at `now`.
    pub fn left(&self, side: Color, now: Instant) -> Duration {
        let left = self.left[side.index()];
        match self.running {
            Some((running, since)) if running == side => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// When the running clock reaches zero.
    pub fn deadline(&self) -> Option<Instant> {
        self.running
            .map(|(side, since)| since + self.left[side.index()])
    }

    /// Runs the clock of `side` from `now`, stopping the other one (its time is charged, without
    /// increment: a turn taken back or set up is no move). A running clock of `side` goes on.
    pub fn run(&mut self, side: Color, now: Instant) {
        if self.flagged.is_some() || self.running() == Some(side) {
            return;
        }
        self.pause(now);
        self.running = Some((side, now));
    }

    /// Stops the running clock, charging its time.
    pub fn pause(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.left[side.index()] = self.left(side, now);
            self.running = None;
        }
    }

    /// Books a move by the side whose clock runs, made at `now`: its time is charged and the
    /// increment added, and the other side's clock runs. False, and the mover flagged, when its
    /// time ran out first; true also when no clock runs (nothing to charge).
    pub fn moved(&mut self, now: Instant) -> bool {
        let Some((side, _)) = self.running else {
            return true;
        };
        if self.out_of_time(now) {
            return false;
        }
        self.left[side.index()] = self.left(side, now) + self.control.increment;
        self.running = Some((!side, now));
        true
    }

    /// Flags the running side if its time is up at `now`; true when it is.
    pub fn out_of_time(&mut self, now: Instant) -> bool {
        let Some((side, _)) = self.running else {
            return self.flagged.is_some();
        };
        if self.deadline().is_some_and(|deadline| now >= deadline) {
            self.left[side.index()] = Duration::ZERO;
            self.running = None;
            self.flagged = Some(side);
        }
        self.flagged.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTROL: FischerControl = FischerControl {
        initial: Duration::from_secs(60),
        increment: Duration::from_secs(2),
    };

    /// The clocks of a game whose `side` started thinking at `start`.
    fn running_since(side: Color, start: Instant) -> Clocks {
        let mut clocks = Clocks::new(CONTROL);
        clocks.run(side, start);
        clocks
    }

    #[test]
    fn a_move_charges_its_time_and_earns_the_increment() {
        let start = Instant::now();
        let mut clocks = running_since(Color::White, start);
        let later = start + Duration::from_secs(10);
        assert_eq!(clocks.left(Color::White, later), Duration::from_secs(50));
        assert!(clocks.moved(later));
        assert_eq!(clocks.running(), Some(Color::Black));
        assert_eq!(clocks.left(Color::White, later), Duration::from_secs(52));
        assert_eq!(clocks.deadline(), Some(later + Duration::from_secs(60)));
        // Running the side whose clock already runs changes nothing.
        clocks.run(Color::Black, later + Duration::from_secs(5));
        assert_eq!(
            clocks.left(Color::Black, later + Duration::from_secs(5)),
            Duration::from_secs(55)
        );
    }

    #[test]
    fn a_side_out_of_time_loses_and_its_move_is_refused() {
        let start = Instant::now();
        let mut clocks = running_since(Color::Black, start);
        let late = start + Duration::from_secs(61);
        assert!(!clocks.moved(late));
        assert_eq!(clocks.flagged(), Some(Color::Black));
        assert_eq!(clocks.left(Color::Black, late), Duration::ZERO);
        assert_eq!(clocks.running(), None);
        // A lost game stays lost.
        clocks.run(Color::White, late);
        assert_eq!(clocks.running(), None);
    }

    #[test]
    fn a_pause_charges_no_increment() {
        let start = Instant::now();
        let mut clocks = running_since(Color::White, start);
        clocks.run(Color::Black, start + Duration::from_secs(3));
        assert_eq!(clocks.left(Color::White, start), Duration::from_secs(57));
        clocks.pause(start + Duration::from_secs(4));
        assert_eq!(clocks.running(), None);
        assert_eq!(clocks.deadline(), None);
        assert_eq!(clocks.left(Color::Black, start), Duration::from_secs(59));
    }
}
