//! The DXP time control: `moves` moves in `minutes` minutes, repeating (0 moves: the whole game in
//! one period), no increment. Each side's clock starts with one period; after every `moves`
//! moves by a side, its clock gets another period.

use std::time::Duration;

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SideClock {
    /// Time added per period (`None`: no time control for this side).
    period: Option<Duration>,
    /// Moves per period (0: the whole game).
    moves_per_period: u32,
    left: Duration,
    moves_made: u32,
}

impl SideClock {
    /// A clock with `period` per `moves_per_period` moves.
    pub(crate) fn new(period: Duration, moves_per_period: u32) -> Self {
        SideClock {
            period: Some(period),
            moves_per_period,
            left: period,
            moves_made: 0,
        }
    }

    /// A side without time control.
    pub(crate) fn untimed() -> Self {
        SideClock {
            period: None,
            moves_per_period: 0,
            left: Duration::ZERO,
            moves_made: 0,
        }
    }

    /// Whether the side has a time control.
    pub(crate) fn is_timed(&self) -> bool {
        self.period.is_some()
    }

    /// Time left.
    pub(crate) fn left(&self) -> Duration {
        self.left
    }

    /// Moves until the next period, if periods repeat.
    pub(crate) fn moves_to_go(&self) -> Option<u32> {
        (self.moves_per_period > 0)
            .then(|| self.moves_per_period - self.moves_made % self.moves_per_period)
    }

    /// Books a move that took `spent`.
    pub(crate) fn spend(&mut self, spent: Duration) {
        self.left = self.left.saturating_sub(spent);
        self.moves_made += 1;
        if let Some(period) = self.period
            && self.moves_per_period > 0
            && self.moves_made.is_multiple_of(self.moves_per_period)
        {
            self.left += period;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_repeat() {
        let mut clock = SideClock::new(Duration::from_secs(60), 2);
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.spend(Duration::from_secs(10));
        assert_eq!(clock.left(), Duration::from_secs(50));
        assert_eq!(clock.moves_to_go(), Some(1));
        clock.spend(Duration::from_secs(20));
        assert_eq!(clock.left(), Duration::from_secs(90));
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.spend(Duration::from_secs(200));
        assert_eq!(clock.left(), Duration::ZERO);
    }

    #[test]
    fn one_period_for_the_game() {
        let mut clock = SideClock::new(Duration::from_secs(300), 0);
        assert_eq!(clock.moves_to_go(), None);
        for _ in 0..100 {
            clock.spend(Duration::from_secs(1));
        }
        assert_eq!(clock.left(), Duration::from_secs(200));
        assert!(!SideClock::untimed().is_timed());
    }
}
