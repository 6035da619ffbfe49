//! The trainer of the pattern evaluation: logistic regression of a mix of game results and search
//! scores on the evaluation's own features ([`patterns::features`], the function the engine
//! calls), with (decoupled) weight decay of the pattern and king-square weights, a held-out validation
//! set (whole games), minibatch Adam and rayon.
//!
//! The model's score is `sum(value * ((1 - phase) * opening + phase * endgame))` in centi-men,
//! exactly the engine's formula before rounding; its win probability is `sigmoid(K * score)`,
//! where `K` is fitted first to the search scores of the data (which are in the hand-crafted
//! evaluation's units, a man = 100), so that the learned scores keep the units the search's
//! margins were tuned for. The target is `lambda * result + (1 - lambda) * sigmoid(K * search)`.
//!
//! Deterministic for a seed: the batch order comes from a seeded generator, and each batch's
//! gradient is summed over a fixed partition in a fixed order, whatever the thread count.

use super::data::{Labelled, white_score};
use crate::eval::layout::{BLOCKS_4X4, Layout, Term};
use crate::eval::patterns::{self, FULL_TEMPO};
use crate::eval::weights_file::{PatternWeights, WEIGHT_SCALE};
use crate::position::Position;
use crate::rules::International;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rayon::prelude::*;

/// Initial weights of the material terms, centi-men (the search's unit: a man is 100).
const INITIAL_MAN: f32 = 100.0;
/// Initial weight of the first king and of each further king.
const INITIAL_KING: f32 = 300.0;
/// Adam's moment decay rates and the guard against division by zero.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const ADAM_EPSILON: f32 = 1e-8;
/// The learning rate decays linearly to this fraction of its start over the epochs.
const FINAL_RATE_FRACTION: f32 = 0.1;
/// Each batch's gradient is summed over this many fixed parts (in parallel).
const BATCH_PARTS: usize = 4;
/// Bounds of the golden-section search for `K` (per centi-man), and its iterations.
const K_RANGE: (f64, f64) = (1e-4, 0.1);
const K_ITERATIONS: usize = 60;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f32,
    /// Weight decay of the pattern and king-square weights: the fraction they shrink by per
    /// step (at the starting learning rate; decoupled from the gradient, as in AdamW).
    pub l2: f32,
    /// Passes over the training set.
    pub epochs: usize,
    /// Samples per gradient step.
    pub batch: usize,
    /// Adam's step size at the start, centi-men.
    pub learning_rate: f32,
    /// Seed of the batch order.
    pub seed: u64,
    /// Games whose index is a multiple of this are held out for validation.
    pub validation_every: u64,
    /// The pattern blocks of the model.
    pub layout: &'static Layout,
}

impl TrainSettings {
    /// The defaults (`rafle-tune train` shows them). The weight decay 1e-5 gave the lowest
    /// validation loss of 0, 1e-5, 3e-5, 1e-4 and 3e-4 on 24.4 million positions with the 4x6m
    /// layout (flat from 3e-5 down; patterns-20261207-k.toml), where 3e-4, chosen earlier on 1.4
    /// million positions with 4x4 blocks, pinned the weights of rare 3^12 states near zero: the
    /// decay acts per step, so it outweighs a state's few samples however much data there is.
    pub const DEFAULT: TrainSettings = TrainSettings {
        lambda: 0.1,
        l2: 1e-5,
        epochs: 12,
        batch: 2048,
        learning_rate: 2.0,
        seed: 1,
        validation_every: 20,
        layout: &BLOCKS_4X4,
    };
}

impl Default for TrainSettings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Losses of one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    /// Mean cross-entropy on the training set (without the penalty).
    pub train: f64,
    /// Mean cross-entropy on the validation set.
    pub validation: f64,
}

/// What a training run did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// The fitted sigmoid scale, per centi-man.
    pub k: f64,
    /// Training positions.
    pub train_samples: usize,
    /// Validation positions.
    pub validation_samples: usize,
    /// Losses before training (epoch 0) and after each epoch.
    pub losses: Vec<EpochLoss>,
    /// Mean cross-entropy of the hand-crafted evaluation (same `K`) on the validation set: the
    /// baseline to beat.
    pub hand_crafted_validation: f64,
    /// Largest difference between the float model and the quantised weights' score on the
    /// validation set, centi-men.
    pub quantisation_drift: f64,
}

/// The training samples as flat arrays (features of sample `i` at `offsets[i]..offsets[i+1]`):
/// about 150 bytes a position, so that ten million fit in a few GiB.
#[derive(Default)]
struct Samples {
    parameters: Vec<u32>,
    values: Vec<i16>,
    offsets: Vec<usize>,
    /// Endgame share of the blend, 0..=1.
    phase: Vec<f32>,
    /// The search's score for White, centi-men.
    searched: Vec<f32>,
    /// The game's result for White, 0..=1.
    result: Vec<f32>,
    /// The training target, set by [`train`] once `K` is known.
    target: Vec<f32>,
}

impl Samples {
    fn push(
        &mut self,
        layout: &Layout,
        position: &Position<International>,
        searched: f32,
        result: f32,
    ) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        patterns::features(layout, position, |parameter, value| {
            if value != 0 {
                self.parameters.push(parameter as u32);
                self.values.push(value as i16);
            }
        });
        self.offsets.push(self.parameters.len());
        self.phase
            .push(patterns::phase(position) as f32 / FULL_TEMPO as f32);
        self.searched.push(searched);
        self.result.push(result);
    }

    fn len(&self) -> usize {
        self.result.len()
    }

    /// Sets the targets: `lambda * result + (1 - lambda) * sigmoid(k * searched)`.
    fn set_targets(&mut self, lambda: f32, k: f32) {
        self.target = self
            .result
            .iter()
            .zip(&self.searched)
            .map(|(&result, &searched)| lambda * result + (1.0 - lambda) * sigmoid(k * searched))
            .collect();
    }

    /// The model's score of sample `i`, centi-men.
    #[inline]
    fn score(&self, i: usize, weights: &[[f32; 2]]) -> f32 {
        let phase = self.phase[i];
        let mut opening = 0.0;
        let mut endgame = 0.0;
        for at in self.offsets[i]..self.offsets[i + 1] {
            let [o, e] = weights[self.parameters[at] as usize];
            let value = f32::from(self.values[at]);
            opening += value * o;
            endgame += value * e;
        }
        (1.0 - phase) * opening + phase * endgame
    }

    /// Mean cross-entropy of the model on these samples.
    fn loss(&self, weights: &[[f32; 2]], k: f32) -> f64 {
        if self.len() == 0 {
            return 0.0;
        }
        let total: f64 = (0..self.len())
            .into_par_iter()
            .map(|i| cross_entropy(self.target[i], sigmoid(k * self.score(i, weights))))
            .sum();
        total / self.len() as f64
    }
}

/// The positions of a training run, split into training and validation sets as they come (whole
/// games held out), with their features extracted once: the positions themselves are not kept.
pub struct Dataset {
    layout: &'static Layout,
    validation_every: u64,
    train: Samples,
    validation: Samples,
    /// The hand-crafted evaluation's score for White of each validation sample (the baseline).
    hand_crafted: Vec<f32>,
}

impl Dataset {
    /// An empty data set for the features of `layout`; games whose index is a multiple of
    /// `validation_every` (if not 0) are held out for validation.
    pub fn new(layout: &'static Layout, validation_every: u64) -> Self {
        Dataset {
            layout,
            validation_every,
            train: Samples::default(),
            validation: Samples::default(),
            hand_crafted: Vec::new(),
        }
    }

    /// Adds a position.
    pub fn push(&mut self, sample: &Labelled) {
        let position = &sample.position;
        let searched = f32::from(sample.record.score);
        let result = white_score(sample.result);
        if self.validation_every > 0 && sample.game.is_multiple_of(self.validation_every) {
            let hand = crate::eval::evaluate(position);
            let white = if position.side() == crate::core::Color::White {
                hand
            } else {
                -hand
            };
            self.hand_crafted.push(white as f32);
            self.validation
                .push(self.layout, position, searched, result);
        } else {
            self.train.push(self.layout, position, searched, result);
        }
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.train.len() + self.validation.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The cross-entropy of a predicted probability `p` against a target probability.
pub fn cross_entropy(target: f32, p: f32) -> f64 {
    let p = f64::from(p).clamp(1e-7, 1.0 - 1e-7);
    let t = f64::from(target);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The `K` for which `sigmoid(K * score)` best fits the results (least squares), from pairs of
/// (score, result).
pub fn fit_k(pairs: &[(f32, f32)]) -> f64 {
    let error = |k: f64| -> f64 {
        pairs
            .par_iter()
            .map(|&(score, result)| {
                let p = 1.0 / (1.0 + (-k * f64::from(score)).exp());
                (f64::from(result) - p).powi(2)
            })
            .sum()
    };
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = K_RANGE;
    for _ in 0..K_ITERATIONS {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(a) < error(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Whether the L2 penalty applies to a parameter: the pattern tables and king squares, not the
/// scalar terms (the material's size is the unit of everything else).
fn penalised(layout: &Layout, parameter: usize) -> bool {
    parameter < layout.term(Term::Man)
}

/// Trains the pattern evaluation on `data`; calls `epoch_done` after each epoch.
pub fn train(
    data: Dataset,
    settings: &TrainSettings,
    mut epoch_done: impl FnMut(usize, &EpochLoss),
) -> (PatternWeights, TrainReport) {
    let Dataset {
        layout,
        train: mut train_set,
        validation: mut validation_set,
        hand_crafted,
        ..
    } = data;
    let pairs: Vec<(f32, f32)> = [&train_set, &validation_set]
        .into_iter()
        .flat_map(|set| set.searched.iter().copied().zip(set.result.iter().copied()))
        .collect();
    let k = fit_k(&pairs);
    drop(pairs);
    train_set.set_targets(settings.lambda, k as f32);
    validation_set.set_targets(settings.lambda, k as f32);
    let hand_crafted: f64 = hand_crafted
        .iter()
        .zip(&validation_set.target)
        .map(|(&white, &target)| cross_entropy(target, sigmoid(k as f32 * white)))
        .sum();
    let parameters = layout.parameters();
    let mut weights = vec![[0f32; 2]; parameters];
    weights[layout.term(Term::Man)] = [INITIAL_MAN; 2];
    weights[layout.term(Term::FirstKing)] = [INITIAL_KING; 2];
    weights[layout.term(Term::MoreKings)] = [INITIAL_KING; 2];
    let kf = k as f32;
    let mut losses = vec![EpochLoss {
        train: train_set.loss(&weights, kf),
        validation: validation_set.loss(&weights, kf),
    }];
    epoch_done(0, &losses[0]);
    let mut first = vec![[0f32; 2]; parameters];
    let mut second = vec![[0f32; 2]; parameters];
    let mut order: Vec<usize> = (0..train_set.len()).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed);
    let batch = settings.batch.max(1);
    let steps_per_epoch = train_set.len().div_ceil(batch).max(1);
    let total_steps = (steps_per_epoch * settings.epochs).max(1);
    let rate_at = |step: usize| {
        let progress = step as f32 / total_steps as f32;
        settings.learning_rate * (1.0 - (1.0 - FINAL_RATE_FRACTION) * progress)
    };
    // Decoupled weight decay (AdamW: an L2 gradient through Adam would be normalised to a full
    // step for every weight its batch does not touch), applied lazily: `shrunk[t]` is the
    // product of the factors of steps 1..=t, and a weight catches up on the steps since it was
    // last touched (`touched_at`) when it is touched again, and at the end.
    let mut shrunk = vec![1f64; total_steps + 1];
    for step in 1..=total_steps {
        let factor = 1.0 - f64::from(settings.l2 * rate_at(step) / settings.learning_rate);
        shrunk[step] = shrunk[step - 1] * factor;
    }
    let mut touched_at = vec![0usize; parameters];
    let catch_up = |weight: &mut [f32; 2], from: usize, to: usize| {
        let factor = (shrunk[to] / shrunk[from]) as f32;
        weight[0] *= factor;
        weight[1] *= factor;
    };
    // The batch's gradient, dense but cleared entry by entry: only `touched` entries are set.
    let mut gradient = vec![[0f32; 2]; parameters];
    let mut in_batch = vec![false; parameters];
    let mut touched: Vec<u32> = Vec::new();
    let mut step = 0usize;
    for epoch in 1..=settings.epochs {
        order.shuffle(&mut rng);
        for chunk in order.chunks(batch) {
            let part = chunk.len().div_ceil(BATCH_PARTS);
            // Each part's terms in sample order, summed below in part order: the same sums
            // whatever the number of threads.
            let parts: Vec<Vec<(u32, [f32; 2])>> = chunk
                .par_chunks(part.max(1))
                .map(|indices| {
                    let mut terms = Vec::new();
                    for &i in indices {
                        let p = sigmoid(kf * train_set.score(i, &weights));
                        let common = (p - train_set.target[i]) * kf;
                        let phase = train_set.phase[i];
                        for at in train_set.offsets[i]..train_set.offsets[i + 1] {
                            let value = f32::from(train_set.values[at]) * common;
                            terms.push((
                                train_set.parameters[at],
                                [value * (1.0 - phase), value * phase],
                            ));
                        }
                    }
                    terms
                })
                .collect();
            for &(parameter, [opening, endgame]) in parts.iter().flatten() {
                let index = parameter as usize;
                if !in_batch[index] {
                    in_batch[index] = true;
                    touched.push(parameter);
                }
                gradient[index][0] += opening;
                gradient[index][1] += endgame;
            }
            step += 1;
            let rate = rate_at(step);
            let scale = 1.0 / chunk.len() as f32;
            let correction1 = 1.0 - BETA1.powi(step as i32);
            let correction2 = 1.0 - BETA2.powi(step as i32);
            for &parameter in &touched {
                let index = parameter as usize;
                if penalised(layout, index) {
                    catch_up(&mut weights[index], touched_at[index], step);
                }
                touched_at[index] = step;
                for phase in 0..2 {
                    let g = gradient[index][phase] * scale;
                    let m = &mut first[index][phase];
                    *m = BETA1 * *m + (1.0 - BETA1) * g;
                    let v = &mut second[index][phase];
                    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                    let update = (*m / correction1) / ((*v / correction2).sqrt() + ADAM_EPSILON);
                    weights[index][phase] -= rate * update;
                }
                gradient[index] = [0.0; 2];
                in_batch[index] = false;
            }
            touched.clear();
        }
        // The losses read every weight: bring the untouched ones up to date first.
        for index in 0..parameters {
            if penalised(layout, index) {
                catch_up(&mut weights[index], touched_at[index], step);
            }
            touched_at[index] = step;
        }
        let loss = EpochLoss {
            train: train_set.loss(&weights, kf),
            validation: validation_set.loss(&weights, kf),
        };
        epoch_done(epoch, &loss);
        losses.push(loss);
    }
    let quantised = quantise(layout, &weights);
    let drift = quantisation_drift(&validation_set, &weights, &quantised);
    let report = TrainReport {
        k,
        train_samples: train_set.len(),
        validation_samples: validation_set.len(),
        losses,
        hand_crafted_validation: hand_crafted / validation_set.len().max(1) as f64,
        quantisation_drift: drift,
    };
    (quantised, report)
}

/// The weights in the file's fixed-point unit, rounded to nearest.
fn quantise(layout: &'static Layout, weights: &[[f32; 2]]) -> PatternWeights {
    let fixed = |w: f32| {
        (w * WEIGHT_SCALE as f32)
            .round()
            .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
    };
    PatternWeights::from_pairs(
        layout,
        weights.iter().map(|&[o, e]| [fixed(o), fixed(e)]).collect(),
    )
    .expect("one pair per parameter")
}

fn quantisation_drift(samples: &Samples, weights: &[[f32; 2]], quantised: &PatternWeights) -> f64 {
    let back: Vec<[f32; 2]> = quantised
        .pairs()
        .iter()
        .map(|&[o, e]| {
            [
                f32::from(o) / WEIGHT_SCALE as f32,
                f32::from(e) / WEIGHT_SCALE as f32,
            ]
        })
        .collect();
    (0..samples.len())
        .map(|i| f64::from((samples.score(i, weights) - samples.score(i, &back)).abs()))
        .fold(0.0, f64::max)
}
