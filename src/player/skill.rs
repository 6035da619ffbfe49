//! Strength levels (`skill`, 1 to 20; 20 is full strength and the default).
//!
//! A weaker level searches fewer nodes and then chooses among the few best root moves those whose
//! score is within a margin of the best, the better ones more often. It never plays a move its
//! own search scores more than the margin below the best, so it does not give pieces away for
//! nothing; it misses what its small search does not see, as a weaker player does. Each level
//! below full strength searches [`CANDIDATES`] lines (multi-PV), with the level's node limit for
//! each.

use super::variations::Variation;
use crate::rules::Rules;
use crate::score::Score;
use crate::search::Limits;
use rand::{Rng, RngExt};

/// The weakest level.
pub const MIN_SKILL: u32 = 1;
/// Full strength: no node limit and always the best move.
pub const MAX_SKILL: u32 = 20;
/// Levels accepted (the Hub's `skill`, `dxp --skill`).
pub const SKILL_RANGE: std::ops::RangeInclusive<i64> = MIN_SKILL as i64..=MAX_SKILL as i64;
/// Nodes per line at level 1.
const LEVEL_ONE_NODES: f64 = 100.0;
/// Levels over which the node limit doubles.
const LEVELS_PER_DOUBLING: f64 = 2.0;
/// Centi-men of margin per level below full strength.
const MARGIN_PER_LEVEL: Score = 5;
/// Root moves searched (lines) below full strength.
pub const CANDIDATES: usize = 4;

/// A strength level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill(u32);

impl Default for Skill {
    fn default() -> Self {
        Skill(MAX_SKILL)
    }
}

impl Skill {
    /// The level `level`, when it is in [`MIN_SKILL`]..=[`MAX_SKILL`].
    pub fn new(level: u32) -> Option<Skill> {
        (MIN_SKILL..=MAX_SKILL)
            .contains(&level)
            .then_some(Skill(level))
    }

    /// The level's number.
    pub fn level(self) -> u32 {
        self.0
    }

    /// Whether this is full strength (the search plays as it is).
    pub fn is_full(self) -> bool {
        self.0 == MAX_SKILL
    }

    /// Nodes per line (`None` at full strength).
    pub fn node_limit(self) -> Option<u64> {
        (!self.is_full()).then(|| {
            let doublings = f64::from(self.0 - MIN_SKILL) / LEVELS_PER_DOUBLING;
            (LEVEL_ONE_NODES * doublings.exp2()) as u64
        })
    }

    /// How far below the best score a chosen move may be, in centi-men.
    pub fn margin(self) -> Score {
        MARGIN_PER_LEVEL * (MAX_SKILL - self.0) as Score
    }

    /// `given` with this level's node limit for all [`CANDIDATES`] lines together (the smaller
    /// one when both set one).
    pub fn limits(self, given: &Limits) -> Limits {
        let mut limits = *given;
        if let Some(nodes) = self.node_limit().map(|n| n * CANDIDATES as u64) {
            limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
        }
        limits
    }

    /// The line to play among `lines` (best first): one within the margin of the best, drawn
    /// with a weight that falls linearly from `margin + 1` for the best score to 1 at the margin.
    pub fn choose<'a, R: Rules, G: Rng + ?Sized>(
        self,
        lines: &'a [Variation<R>],
        rng: &mut G,
    ) -> Option<&'a Variation<R>> {
        let best = lines.first()?.score;
        let margin = self.margin();
        let weight = |line: &Variation<R>| -> u64 {
            let loss = best.saturating_sub(line.score);
            u64::try_from(margin - loss + 1).unwrap_or(0)
        };
        let total: u64 = lines.iter().map(weight).sum();
        let mut draw = rng.random_range(0..total.max(1));
        for line in lines {
            let w = weight(line);
            if draw < w {
                return Some(line);
            }
            draw -= w;
        }
        lines.first()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::International;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    fn line(score: Score) -> Variation<International> {
        Variation {
            score,
            depth: 1,
            pv: Vec::new(),
        }
    }

    #[test]
    fn levels_are_checked_and_grow_stronger() {
        assert_eq!(Skill::new(0), None);
        assert_eq!(Skill::new(MAX_SKILL + 1), None);
        assert!(Skill::default().is_full());
        assert_eq!(Skill::default().node_limit(), None);
        assert_eq!(Skill::default().margin(), 0);
        let mut previous = 0;
        for level in MIN_SKILL..MAX_SKILL {
            let skill = Skill::new(level).unwrap();
            let nodes = skill.node_limit().unwrap();
            assert!(nodes > previous, "level {level}: {nodes} nodes");
            previous = nodes;
            assert!(skill.margin() > 0);
        }
        let limits = Limits {
            nodes: Some(50),
            ..Limits::default()
        };
        assert_eq!(Skill::new(10).unwrap().limits(&limits).nodes, Some(50));
        let level = Skill::new(10).unwrap();
        assert_eq!(
            level.limits(&Limits::default()).nodes,
            level.node_limit().map(|n| n * CANDIDATES as u64)
        );
    }

    #[test]
    fn choices_stay_within_the_margin_and_prefer_the_best() {
        let lines = [line(30), line(20), line(-40), line(-500)];
        let skill = Skill::new(10).unwrap(); // margin 50
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut counts = [0u32; 4];
        for _ in 0..10_000 {
            let chosen = skill.choose(&lines, &mut rng).unwrap();
            let index = lines.iter().position(|l| l.score == chosen.score).unwrap();
            counts[index] += 1;
        }
        assert_eq!(counts[2] + counts[3], 0, "{counts:?}");
        assert!(counts[0] > counts[1] && counts[1] > 0, "{counts:?}");
        let full = Skill::default();
        for _ in 0..100 {
            assert_eq!(full.choose(&lines, &mut rng).unwrap().score, 30);
        }
    }
}
