//! Match statistics: score, Elo difference with a 95 % interval, likelihood of superiority (LOS),
//! draw rate, and the sequential probability ratio test (SPRT).
//!
//! * Elo is the logistic model: an expected score `s` is `400 log10(s / (1 - s))` Elo.
//! * The interval is the normal approximation on the mean score, mapped through that curve. Its
//!   variance is trinomial (each game a win, draw or loss) or, when the games come in pairs (one
//!   opening with both colours), pentanomial (each pair scores 0, ½, 1, 1½ or 2). Pairing takes
//!   out the part of the variance the openings cause, so its interval is the honest one.
//! * LOS is `Φ((W - L) / √(W + L))`: the chance that the first engine is the stronger, from the
//!   decisive games.
//! * The SPRT is the generalised SPRT of fishtest: the log-likelihood ratio of the outcome
//!   distributions that fit the results best under the constraint that the expected score is that
//!   of `elo0` (H0) or `elo1` (H1), both in logistic Elo; it stops at Wald's bounds
//!   `ln(β / (1 - α))` and `ln((1 - β) / α)`.

/// The normal quantile of a two-sided 95 % interval.
pub const Z_95: f64 = 1.959_963_984_540_054;
/// Pseudo-count added to every outcome before the SPRT's maximum-likelihood fit, so that an outcome
/// not seen yet (no losses so far, say) does not make the fit degenerate.
const SPRT_PSEUDO_COUNT: f64 = 1e-3;
/// Bisection steps when solving for the Lagrange multiplier: enough for full `f64` precision.
const BISECTION_STEPS: usize = 200;

/// Wins, draws and losses, from the first engine's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The mean score per game, in `[0, 1]`.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / self.games() as f64)
    }

    /// The share of drawn games.
    pub fn draw_rate(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.draws as f64 / self.games() as f64)
    }

    /// Counts a game by the first engine's points in it (0, ½ or 1 as 0, 1 or 2 half-points).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }

    /// The same games seen from the other engine.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// Results of game pairs (one opening, colours reversed), counted by the first engine's points in
/// the pair: `counts[k]` pairs scored `k / 2` points (0, ½, 1, 1½, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs per pair score, in half-points 0..=4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Counts a pair by the first engine's half-points in it (0..=4).
    pub fn add(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    /// Outcomes as (score per game in `[0, 1]`, count).
    fn outcomes(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, self.counts[k] as f64))
    }
}

fn trinomial_outcomes(tally: &Tally) -> [(f64, f64); 3] {
    [
        (0.0, tally.losses as f64),
        (0.5, tally.draws as f64),
        (1.0, tally.wins as f64),
    ]
}

/// The Elo difference of an expected score (`±∞` at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    let score = score.clamp(0.0, 1.0);
    400.0 * (score / (1.0 - score)).log10()
}

/// The expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95 % interval (bounds may be infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The estimate.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

/// Mean and per-sample variance of weighted outcomes `(value, count)`.
fn mean_and_variance(outcomes: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = outcomes.iter().map(|(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = outcomes.iter().map(|(x, c)| x * c).sum::<f64>() / n;
    let variance = outcomes
        .iter()
        .map(|(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, variance))
}

fn estimate(outcomes: &[(f64, f64)]) -> Option<EloEstimate> {
    let (n, mean, variance) = mean_and_variance(outcomes)?;
    let error = (variance / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(mean),
        lower: elo_from_score(mean - Z_95 * error),
        upper: elo_from_score(mean + Z_95 * error),
    })
}

/// Elo with the trinomial interval (games counted one by one).
pub fn elo_trinomial(tally: &Tally) -> Option<EloEstimate> {
    estimate(&trinomial_outcomes(tally))
}

/// Elo with the pentanomial interval (games counted in pairs).
pub fn elo_pentanomial(pairs: &Pentanomial) -> Option<EloEstimate> {
    estimate(&pairs.outcomes())
}

/// Normalized Elo with its 95 % interval, from game pairs: the score's distance from ½ in
/// standard deviations of one game (a pair's variance counted as two games'), scaled to Elo
/// at the slope where a game without draws has the same variance (fishtest's definition). The
/// games a test needs to resolve a difference scale with 1 / normalized Elo², whatever the draw
/// rate: the measure that compares time controls and opening sets.
pub fn normalized_elo_pentanomial(pairs: &Pentanomial) -> Option<EloEstimate> {
    let (n, mean, variance) = mean_and_variance(&pairs.outcomes())?;
    if variance <= 0.0 {
        return None;
    }
    let per_game = (2.0 * variance).sqrt();
    let error = (variance / n).sqrt();
    let scale = NORMALIZED_ELO_SLOPE / per_game;
    Some(EloEstimate {
        elo: (mean - 0.5) * scale,
        lower: (mean - Z_95 * error - 0.5) * scale,
        upper: (mean + Z_95 * error - 0.5) * scale,
    })
}

/// Elo per unit of score divided by the standard deviation of a game (800 / ln 10): with a
/// standard deviation of ½ (no draws) normalized Elo is the logistic Elo near equality.
const NORMALIZED_ELO_SLOPE: f64 = 800.0 / std::f64::consts::LN_10;

/// The complementary error function, with a fractional error below 1.2e-7 everywhere (the
/// Chebyshev fit of Press et al., *Numerical Recipes*, 2nd ed., §6.2).
fn erfc(x: f64) -> f64 {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let series = C.iter().rev().fold(0.0, |acc, &c| c + t * acc);
    let value = t * (-z * z + series).exp();
    if x >= 0.0 { value } else { 2.0 - value }
}

/// The standard normal distribution function Φ.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Likelihood of superiority: the chance that the first engine is stronger, from the decisive
/// games (`None` before the first one).
pub fn los(tally: &Tally) -> Option<f64> {
    let decisive = tally.wins + tally.losses;
    (decisive > 0)
        .then(|| normal_cdf((tally.wins as f64 - tally.losses as f64) / (decisive as f64).sqrt()))
}

/// What an SPRT has decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 (the difference is `elo0`) is accepted.
    H0,
    /// H1 (the difference is `elo1`) is accepted.
    H1,
}

/// A sequential probability ratio test between two Elo differences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// Reads `elo0=… elo1=… alpha=… beta=…` (alpha and beta default to 0.05).
    ///
    /// # Errors
    /// A message naming the bad or missing part.
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, found '{word}'"))?;
            let number: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt: '{value}' is not a number"))?;
            match key.trim() {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                other => return Err(format!("--sprt: unknown parameter '{other}'")),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("--sprt needs elo0=… and elo1=…".to_string());
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err("--sprt: elo0 must be below elo1".to_string());
        }
        let probability = 0.0..0.5;
        if !probability.contains(&sprt.alpha) || !probability.contains(&sprt.beta) {
            return Err("--sprt: alpha and beta must be in (0, 0.5)".to_string());
        }
        if sprt.alpha <= 0.0 || sprt.beta <= 0.0 {
            return Err("--sprt: alpha and beta must be in (0, 0.5)".to_string());
        }
        Ok(sprt)
    }

    /// Wald's bounds `(ln(β / (1 - α)), ln((1 - β) / α))`: below the first H0 is accepted, above
    /// the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of games counted one by one.
    pub fn llr_trinomial(&self, tally: &Tally) -> f64 {
        self.llr(&trinomial_outcomes(tally))
    }

    /// The log-likelihood ratio of games counted in pairs.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        self.llr(&pairs.outcomes())
    }

    /// The decision at a log-likelihood ratio, if the test has ended.
    pub fn decide(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr <= lower {
            Some(SprtDecision::H0)
        } else if llr >= upper {
            Some(SprtDecision::H1)
        } else {
            None
        }
    }

    fn llr(&self, outcomes: &[(f64, f64)]) -> f64 {
        if outcomes.iter().all(|&(_, count)| count == 0.0) {
            return 0.0;
        }
        let counts: Vec<(f64, f64)> = outcomes
            .iter()
            .map(|&(x, count)| (x, count + SPRT_PSEUDO_COUNT))
            .collect();
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let lambda0 = mle_multiplier(&counts, s0);
        let lambda1 = mle_multiplier(&counts, s1);
        // The constrained fit is p_i = p̂_i / (1 + λ (x_i - s)); the p̂_i cancel in the ratio.
        counts
            .iter()
            .map(|&(x, count)| {
                count * ((1.0 + lambda0 * (x - s0)).ln() - (1.0 + lambda1 * (x - s1)).ln())
            })
            .sum()
    }
}

/// The Lagrange multiplier λ of the most likely outcome distribution with mean `s`: the root of
/// `Σ p̂_i (x_i - s) / (1 + λ (x_i - s)) = 0` where every `1 + λ (x_i - s)` stays positive. The
/// left side falls strictly with λ, so bisection finds it. Needs outcomes on both sides of `s`.
fn mle_multiplier(counts: &[(f64, f64)], s: f64) -> f64 {
    let above = counts.iter().map(|(x, _)| x - s).fold(f64::MIN, f64::max);
    let below = counts.iter().map(|(x, _)| x - s).fold(f64::MAX, f64::min);
    let (mut low, mut high) = (-1.0 / above, -1.0 / below);
    let slope = |lambda: f64| -> f64 {
        counts
            .iter()
            .map(|&(x, count)| count * (x - s) / (1.0 + lambda * (x - s)))
            .sum()
    };
    for _ in 0..BISECTION_STEPS {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

#[cfg(test)]
mod tests;
