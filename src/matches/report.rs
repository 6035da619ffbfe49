//! The results of a match or tournament so far, and their text: the running score, the final
//! summary (W/D/L, score, Elo with its interval, LOS, draw rate, SPRT) and the standings.

use super::schedule::Pairing;
use super::stats::{self, EloEstimate, Pentanomial, Sprt, SprtDecision, Tally};
use crate::core::Color;
use crate::game::GameResult;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One finished game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FinishedGame {
    /// The scheduled game.
    pub pairing: Pairing,
    /// The result.
    pub result: GameResult,
    /// The kind of ending (`None` for games read back with `--resume`).
    pub keyword: Option<&'static str>,
}

impl FinishedGame {
    /// Half-points of `engine` in this game (`None` if it did not play).
    fn half_points(&self, engine: usize) -> Option<u8> {
        let color = if self.pairing.white == engine {
            Color::White
        } else if self.pairing.black == engine {
            Color::Black
        } else {
            return None;
        };
        Some(self.result.half_points(color))
    }
}

/// All results so far.
#[derive(Clone, Debug)]
pub struct Results {
    names: Vec<String>,
    outcomes: Vec<FinishedGame>,
}

impl Results {
    /// No results yet, for engines with these names.
    pub fn new(names: Vec<String>) -> Self {
        Results {
            names,
            outcomes: Vec::new(),
        }
    }

    /// The engines' names, in engine order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Adds a finished game.
    pub fn add(&mut self, outcome: FinishedGame) {
        self.outcomes.push(outcome);
    }

    /// The results of the game pairs a sequential test reads: pairs in schedule order, up to the
    /// first pair not yet finished. A test read this way decides after the same pairs however
    /// the games were spread over workers or interrupted and resumed, and games that end early
    /// (decisive ones tend to) do not count before the draws scheduled with them.
    pub fn settled(&self) -> Results {
        let mut games_per_pair: BTreeMap<usize, usize> = BTreeMap::new();
        for outcome in &self.outcomes {
            *games_per_pair.entry(outcome.pairing.pair).or_default() += 1;
        }
        let first_open = (0..)
            .find(|pair| games_per_pair.get(pair).copied().unwrap_or(0) < 2)
            .unwrap_or(0);
        Results {
            names: self.names.clone(),
            outcomes: self
                .outcomes
                .iter()
                .filter(|o| o.pairing.pair < first_open)
                .copied()
                .collect(),
        }
    }

    /// The games a sequential test is judged on: its settled pairs (see [`Results::settled`])
    /// up to the first pair after which the SPRT decides, that pair included. The games in
    /// flight when the test decides still end and go to the PDN file, but they do not move the
    /// verdict back across a bound: the test is judged where its stopping rule stopped it, and
    /// a resumed or re-read test gives the same counts.
    pub fn sequential(&self, sprt: &Sprt) -> Results {
        let mut settled = self.settled();
        let mut pairs = Pentanomial::default();
        let decided_at = settled
            .complete_pairs(0, 1)
            .into_iter()
            .find_map(|(pair, points)| {
                pairs.add(points);
                sprt.decide(sprt.llr_pentanomial(&pairs)).map(|_| pair)
            });
        if let Some(last) = decided_at {
            settled.outcomes.retain(|o| o.pairing.pair <= last);
        }
        settled
    }

    /// Games finished.
    pub fn games(&self) -> usize {
        self.outcomes.len()
    }

    /// W/D/L of `engine` against `opponent` (`None`: against everyone).
    pub fn tally(&self, engine: usize, opponent: Option<usize>) -> Tally {
        let mut tally = Tally::default();
        for outcome in &self.outcomes {
            let other = if outcome.pairing.white == engine {
                outcome.pairing.black
            } else {
                outcome.pairing.white
            };
            if opponent.is_some_and(|o| o != other) {
                continue;
            }
            if let Some(points) = outcome.half_points(engine) {
                tally.add(points);
            }
        }
        tally
    }

    /// The complete pairs (both games of an opening) of `engine` against `opponent`.
    pub fn pentanomial(&self, engine: usize, opponent: usize) -> Pentanomial {
        let mut pentanomial = Pentanomial::default();
        for (_, points) in self.complete_pairs(engine, opponent) {
            pentanomial.add(points);
        }
        pentanomial
    }

    /// The complete pairs of `engine` against `opponent` in schedule order: each pair's number
    /// and `engine`'s half-points in its two games.
    fn complete_pairs(&self, engine: usize, opponent: usize) -> Vec<(usize, u8)> {
        let mut pairs: BTreeMap<usize, (u8, u8)> = BTreeMap::new();
        for outcome in &self.outcomes {
            let p = outcome.pairing;
            if !(p.white == engine && p.black == opponent
                || p.black == engine && p.white == opponent)
            {
                continue;
            }
            let entry = pairs.entry(p.pair).or_default();
            entry.0 += 1;
            entry.1 += outcome.half_points(engine).unwrap_or_default();
        }
        pairs
            .into_iter()
            .filter(|(_, (games, _))| *games == 2)
            .map(|(pair, (_, points))| (pair, points))
            .collect()
    }

    /// The Elo of `engine` against `opponent`: pentanomial when all its games are in complete
    /// pairs, trinomial otherwise. The flag says which.
    pub fn elo(&self, engine: usize, opponent: usize) -> Option<(EloEstimate, bool)> {
        let tally = self.tally(engine, Some(opponent));
        let pairs = self.pentanomial(engine, opponent);
        if pairs.pairs() > 1 && 2 * pairs.pairs() == tally.games() {
            stats::elo_pentanomial(&pairs).map(|e| (e, true))
        } else {
            stats::elo_trinomial(&tally).map(|e| (e, false))
        }
    }

    /// The SPRT's log-likelihood ratio for engine 0 against engine 1 (over complete pairs).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        sprt.llr_pentanomial(&self.pentanomial(0, 1))
    }

    /// The running score, for the progress bar: `rafle 10.5 - 7.5 dame` (two engines), or the
    /// leader's points.
    pub fn running_score(&self) -> String {
        if self.names.len() == 2 {
            let tally = self.tally(0, Some(1));
            let other = tally.games() as f64 - tally.points();
            return format!(
                "{} {} - {} {}",
                self.names[0],
                points_text(tally.points()),
                points_text(other),
                self.names[1]
            );
        }
        let leader = (0..self.names.len()).max_by(|&a, &b| {
            self.tally(a, None)
                .points()
                .total_cmp(&self.tally(b, None).points())
        });
        match leader {
            Some(leader) if self.games() > 0 => format!(
                "leader {} {}",
                self.names[leader],
                points_text(self.tally(leader, None).points())
            ),
            _ => String::new(),
        }
    }

    /// The final report.
    pub fn summary(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        if self.names.len() == 2 {
            self.write_pair(&mut out, 0, 1);
            if let Some(sprt) = sprt {
                let llr = self.llr(sprt);
                let (lower, upper) = sprt.bounds();
                let verdict = match sprt.decide(llr) {
                    Some(SprtDecision::H0) => "H0 accepted",
                    Some(SprtDecision::H1) => "H1 accepted",
                    None => "no decision yet",
                };
                let _ = writeln!(
                    out,
                    "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{lower:.2}, {upper:.2}], {verdict}",
                    sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
                );
            }
        } else {
            self.write_standings(&mut out);
            for a in 0..self.names.len() {
                for b in a + 1..self.names.len() {
                    if self.tally(a, Some(b)).games() > 0 {
                        self.write_pair(&mut out, a, b);
                    }
                }
            }
        }
        let mut endings: BTreeMap<&str, usize> = BTreeMap::new();
        for outcome in &self.outcomes {
            *endings
                .entry(outcome.keyword.unwrap_or("resumed"))
                .or_default() += 1;
        }
        let endings: Vec<String> = endings
            .iter()
            .map(|(keyword, count)| format!("{keyword} {count}"))
            .collect();
        let _ = writeln!(out, "Endings: {}", endings.join(", "));
        out
    }

    fn write_pair(&self, out: &mut String, a: usize, b: usize) {
        let tally = self.tally(a, Some(b));
        let (first, second) = (&self.names[a], &self.names[b]);
        let _ = writeln!(
            out,
            "Score of {first} vs {second}: {} - {} - {} (W - L - D) [{}] {} games",
            tally.wins,
            tally.losses,
            tally.draws,
            tally.score().map_or("-".to_string(), |s| format!("{s:.3}")),
            tally.games()
        );
        let Some((elo, paired)) = self.elo(a, b) else {
            return;
        };
        if elo.elo.is_infinite() {
            // A score of 0 % or 100 % has no finite Elo and no interval: say so in words.
            let _ = writeln!(
                out,
                "Elo difference: not measurable yet ({first} {} every game; more games are \
                 needed), draw rate 0.0 %",
                if elo.elo > 0.0 { "won" } else { "lost" },
            );
            return;
        }
        let _ = writeln!(
            out,
            "Elo difference: {} [{}, {}] (95 %, {}), score {}, LOS {}, draw rate {}",
            elo_text(elo.elo),
            elo_text(elo.lower),
            elo_text(elo.upper),
            if paired { "pentanomial" } else { "trinomial" },
            tally
                .score()
                .map_or("-".to_string(), |s| format!("{:.1} %", 100.0 * s)),
            stats::los(&tally).map_or("-".to_string(), |l| format!("{:.1} %", 100.0 * l)),
            tally
                .draw_rate()
                .map_or("-".to_string(), |d| format!("{:.1} %", 100.0 * d)),
        );
        let pairs = self.pentanomial(a, b);
        if pairs.pairs() > 0 {
            let counts: Vec<String> = pairs.counts.iter().map(u64::to_string).collect();
            let _ = writeln!(
                out,
                "Pairs by {first}'s points (0, 0.5, 1, 1.5, 2): {}",
                counts.join(" ")
            );
            if let Some(normalized) = stats::normalized_elo_pentanomial(&pairs) {
                let _ = writeln!(
                    out,
                    "Normalized Elo: {} [{}, {}] (95 %)",
                    elo_text(normalized.elo),
                    elo_text(normalized.lower),
                    elo_text(normalized.upper)
                );
            }
        }
    }

    fn write_standings(&self, out: &mut String) {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            self.tally(b, None)
                .points()
                .total_cmp(&self.tally(a, None).points())
        });
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(4);
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6}  {:>7}  {:>6}  {:>7}  {:>6}",
            "rank", "name", "games", "points", "score", "elo", "draws"
        );
        for (rank, &engine) in order.iter().enumerate() {
            let tally = self.tally(engine, None);
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>6}  {:>7}  {:>6}  {:>7}  {:>6}",
                rank + 1,
                self.names[engine],
                tally.games(),
                points_text(tally.points()),
                tally
                    .score()
                    .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s)),
                tally
                    .score()
                    .map_or("-".to_string(), |s| elo_text(stats::elo_from_score(s))),
                tally
                    .draw_rate()
                    .map_or("-".to_string(), |d| format!("{:.1}%", 100.0 * d)),
            );
        }
    }
}

/// Points as `10`, `10.5`.
fn points_text(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// An Elo difference with one decimal, `+inf`/`-inf` when unbounded.
pub(super) fn elo_text(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{elo:.1}")
    }
}

/// Two engines' results from the results of their games in schedule order (for tests).
#[cfg(test)]
pub(crate) fn of_results(names: [&str; 2], games: &[GameResult]) -> Results {
    let mut results = Results::new(names.iter().map(|name| name.to_string()).collect());
    let schedule = super::schedule::round_robin(2, games.len().div_ceil(2), 1);
    for (pairing, &result) in schedule.into_iter().zip(games) {
        results.add(FinishedGame {
            pairing,
            result,
            keyword: Some("rules"),
        });
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::schedule::round_robin;

    use GameResult::{BlackWins, Draw, WhiteWins};

    fn results(games: &[GameResult]) -> Results {
        of_results(["a", "b"], games)
    }

    #[test]
    fn tallies_follow_colours() {
        // Game 1: a is White and wins; game 2: b is White and wins; game 3: a White, draw.
        let r = results(&[WhiteWins, WhiteWins, Draw]);
        let tally = r.tally(0, Some(1));
        assert_eq!((tally.wins, tally.draws, tally.losses), (1, 1, 1));
        assert_eq!(r.tally(1, None).wins, 1);
        assert_eq!(r.pentanomial(0, 1).counts, [0, 0, 1, 0, 0]);
        assert_eq!(r.running_score(), "a 1.5 - 1.5 b");
        let summary = r.summary(None);
        assert!(
            summary.contains("Score of a vs b: 1 - 1 - 1 (W - L - D) [0.500] 3 games"),
            "{summary}"
        );
        assert!(summary.contains("Endings: rules 3"), "{summary}");
    }

    #[test]
    fn a_one_sided_result_has_words_not_infinities() {
        let summary = results(&[BlackWins]).summary(None);
        assert!(
            summary.contains("Elo difference: not measurable yet (a lost every game"),
            "{summary}"
        );
        assert!(!summary.contains("inf"), "{summary}");
    }

    #[test]
    fn paired_games_use_the_pentanomial_interval() {
        // a wins both games of opening 1 (White, then Black), draws both of opening 2.
        let r = results(&[WhiteWins, BlackWins, Draw, Draw]);
        assert_eq!(r.pentanomial(0, 1).counts, [0, 0, 1, 0, 1]);
        let (_, paired) = r.elo(0, 1).expect("games");
        assert!(paired);
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(r.llr(&sprt) > 0.0);
        assert!(r.summary(Some(&sprt)).contains("SPRT elo0=0 elo1=10"));
    }

    #[test]
    fn a_sequential_test_reads_pairs_in_schedule_order() {
        let schedule = round_robin(2, 3, 1);
        let mut r = Results::new(vec!["a".to_string(), "b".to_string()]);
        // Pair 0 complete, pair 1 half played, pair 2 complete (finished early).
        for index in [0, 1, 2, 4, 5] {
            r.add(FinishedGame {
                pairing: schedule[index],
                result: WhiteWins,
                keyword: Some("rules"),
            });
        }
        let settled = r.settled();
        assert_eq!(settled.games(), 2);
        assert_eq!(settled.pentanomial(0, 1).pairs(), 1);
        r.add(FinishedGame {
            pairing: schedule[3],
            result: Draw,
            keyword: Some("rules"),
        });
        assert_eq!(r.settled().games(), 6);
    }

    #[test]
    fn a_sequential_test_is_judged_where_it_decided() {
        // Wide bounds make one won pair decide: a wins both games of opening 1 (WhiteWins, then
        // BlackWins as Black); the two draws of opening 2, in flight at the decision, would
        // bring the LLR back inside the bounds.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 400.0,
            alpha: 0.45,
            beta: 0.45,
        };
        let r = results(&[WhiteWins, BlackWins, Draw, Draw]);
        let first = results(&[WhiteWins, BlackWins]);
        assert!(sprt.decide(first.llr(&sprt)).is_some());
        assert!(sprt.decide(r.llr(&sprt)).is_none());
        let judged = r.sequential(&sprt);
        assert_eq!(judged.games(), 2);
        assert_eq!(judged.pentanomial(0, 1).counts, [0, 0, 0, 0, 1]);
    }
}
