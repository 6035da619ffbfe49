//! Static evaluation.
//!
//! The search asks an [`Evaluator`] for a score. Two evaluations exist: [`HandCrafted`] (below)
//! and the learned pattern evaluation ([`patterns`], international draughts only, weights as data
//! in [`weights_file`]); [`Eval`] selects one at run time (the Hub's `eval` parameter, `--eval`).
//!
//! The hand-crafted evaluation is linear in a small set of [`Feature`]s, each counted for White
//! minus Black, with two weights per feature (opening and endgame) blended by the number of men
//! left ("tapered" evaluation). Every weight is a named constant in [`weights`], fitted to game
//! results by the tuner in `tools/` (Texel's method). Each side's features are computed by the
//! same code on rows counted from that side's back row, so the evaluation is symmetric by
//! construction: a position and its colour mirror get the same score for the side to move
//! (tested below).

pub mod layout;
pub mod patterns;
pub mod weights;
pub mod weights_file;

use crate::core::{BitBoard, Color, Direction, Geometry, Orthogonal};
use crate::movegen;
use crate::position::Position;
use crate::rules::{BitsOf, Goal, International, Rules};
use crate::score::{EVAL_LIMIT, Score};
use std::sync::Arc;
use weights::{
    ANTI_OFFERED, BREAKTHROUGH_ADVANCE, BREAKTHROUGH_RUNAWAY, BREAKTHROUGH_RUNAWAY_PER_ROW,
    LONE_KING_ENDING_DIVISOR, LONE_KING_ENDING_MAX_PIECES, LONE_KING_ENDING_MIN_ROWS,
    RUNAWAY_MAX_ROWS, WEIGHTS,
};
use weights_file::{PatternWeights, WeightsError};

/// A static evaluation function.
pub trait Evaluator<R: Rules>: Send + Sync {
    /// Score of a quiet position for the side to move.
    fn evaluate(&self, position: &Position<R>) -> Score;
}

/// The hand-crafted evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandCrafted;

impl<R: Rules> Evaluator<R> for HandCrafted {
    #[inline]
    fn evaluate(&self, position: &Position<R>) -> Score {
        evaluate(position)
    }
}

/// The evaluation chosen at run time: the hand-crafted one, or the pattern evaluation with its
/// weights (which falls back to the hand-crafted one outside international draughts).
#[derive(Clone, Debug)]
pub enum Eval {
    /// [`HandCrafted`].
    HandCrafted,
    /// [`patterns`] with these weights.
    Patterns(Arc<PatternWeights>),
}

/// Names of the evaluations, as the `eval` option takes them.
pub const EVAL_NAMES: [&str; 2] = ["hand", "patterns"];

/// The evaluation played by default.
pub const DEFAULT_EVAL: &str = "patterns";

/// Why an evaluation could not be selected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// No evaluation of that name.
    #[error("unknown evaluation {0:?} (expected hand or patterns)")]
    UnknownName(String),
    /// The weights file was refused.
    #[error(transparent)]
    Weights(#[from] WeightsError),
}

impl Eval {
    /// The evaluation named `name` (see [`EVAL_NAMES`]); the pattern evaluation takes its
    /// weights from `file` when given, else the embedded ones.
    ///
    /// # Errors
    /// Unknown name, or a weights file that does not load.
    pub fn select(name: &str, file: Option<&std::path::Path>) -> Result<Self, EvalError> {
        let weights = || match file {
            Some(path) => PatternWeights::load(path).map(Arc::new),
            None => Ok(PatternWeights::embedded()),
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "hand" => {
                // A bad file is an error even when the hand-crafted evaluation is chosen, so
                // that a later switch to patterns cannot fail silently.
                weights()?;
                Ok(Eval::HandCrafted)
            }
            "patterns" => Ok(Eval::Patterns(weights()?)),
            _ => Err(EvalError::UnknownName(name.to_string())),
        }
    }

    /// The default evaluation ([`DEFAULT_EVAL`], embedded weights).
    pub fn default_eval() -> Self {
        Self::select(DEFAULT_EVAL, None).expect("the default evaluation exists")
    }

    /// What a search of variant `R` evaluates with, as the shells log it at start-up: `hand`, the
    /// shipped weights' name ([`weights_file::EMBEDDED_NAME`]), or other weights by checksum.
    pub fn name<R: Rules>(&self) -> String {
        match self {
            Eval::HandCrafted => "hand".to_string(),
            Eval::Patterns(_) if !patterns::applies::<R>() => {
                "hand (the pattern weights are for international draughts)".to_string()
            }
            Eval::Patterns(weights) if **weights == *PatternWeights::embedded() => {
                weights_file::EMBEDDED_NAME.to_string()
            }
            Eval::Patterns(weights) => format!(
                "patterns (weights file, checksum {:016x})",
                weights_file::checksum(&weights.to_bytes())
            ),
        }
    }
}

impl Default for Eval {
    fn default() -> Self {
        Self::default_eval()
    }
}

impl<R: Rules> Evaluator<R> for Eval {
    #[inline]
    fn evaluate(&self, position: &Position<R>) -> Score {
        match self {
            Eval::Patterns(weights) if patterns::applies::<R>() => weights.evaluate(position),
            _ => evaluate(position),
        }
    }
}

/// An opening and an endgame weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weight {
    /// Weight with all men on the board.
    pub opening: i32,
    /// Weight with no men left.
    pub endgame: i32,
}

/// The evaluation terms, in the order of [`weights::WEIGHTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Feature {
    /// Men.
    Man,
    /// Kings.
    King,
    /// Sum over men of the rows advanced from the back row.
    Advancement,
    /// Men on the middle files of the middle rows.
    Centre,
    /// Difference between the men on the left and on the right half of the board.
    WingImbalance,
    /// Men on their own back row (guarding the promotion squares).
    BackRow,
    /// Men with a friend diagonally behind.
    Supported,
    /// Men in the opponent's half backed on both sides.
    Outpost,
    /// Men in the opponent's half with no backing.
    LooseAdvanced,
    /// Free squares ahead of men (their moves).
    ManMobility,
    /// Men with both squares ahead occupied.
    BlockedMen,
    /// Men on the edge files.
    EdgeMen,
    /// Men that will crown unhindered (no opposing king, no opposing man ahead, free path).
    Runaway,
    /// For each runaway man, how close it is (`RUNAWAY_MAX_ROWS + 1` minus rows to go).
    RunawayProximity,
    /// Squares the kings can reach.
    KingMobility,
    /// Kings on the long diagonal.
    KingOnLongDiagonal,
    /// Having a king while the opponent has none.
    SoleKingOwner,
}

/// Number of features.
pub const FEATURES: usize = Feature::SoleKingOwner as usize + 1;

/// The names of the weight constants in [`weights`], in feature order (used by the tuner to write
/// fitted weights back).
pub const WEIGHT_NAMES: [&str; FEATURES] = [
    "MAN",
    "KING",
    "ADVANCEMENT",
    "CENTRE",
    "WING_IMBALANCE",
    "BACK_ROW",
    "SUPPORTED",
    "OUTPOST",
    "LOOSE_ADVANCED",
    "MAN_MOBILITY",
    "BLOCKED_MEN",
    "EDGE_MEN",
    "RUNAWAY",
    "RUNAWAY_PROXIMITY",
    "KING_MOBILITY",
    "KING_ON_LONG_DIAGONAL",
    "SOLE_KING_OWNER",
];

/// Whether the evaluation scales the position down as a lone-king ending (the tuner leaves such
/// positions out: their score is not linear in the features).
pub fn is_lone_king_ending<R: Rules>(position: &Position<R>) -> bool {
    lone_king_ending(position)
}

/// Feature counts of a position, White minus Black.
pub type Features = [i32; FEATURES];

/// Men on the board at the start of an international game, the game the weights were tuned on:
/// the phase runs from this down to 0, and a larger board (Canadian) is in its opening until as
/// few men are left.
const FULL_BOARD_MEN: i32 = 2 * International::MAX_PIECES_PER_SIDE as i32;

/// The blend of a position: `(opening share, endgame share, total)`, shares summing to total.
#[inline]
pub fn phase<R: Rules>(position: &Position<R>) -> (i32, i32, i32) {
    let full = FULL_BOARD_MEN.min((2 * R::MAX_PIECES_PER_SIDE) as i32);
    let men = (position.men(Color::White) | position.men(Color::Black)).count() as i32;
    let endgame = (full - men).clamp(0, full);
    (full - endgame, endgame, full)
}

/// The hand-crafted evaluation, side-to-move view.
pub fn evaluate<R: Rules>(position: &Position<R>) -> Score {
    let features = features(position);
    let (opening, endgame, full) = phase(position);
    let mut opening_sum = 0;
    let mut endgame_sum = 0;
    for (count, weight) in features.iter().zip(WEIGHTS.iter()) {
        opening_sum += count * weight.opening;
        endgame_sum += count * weight.endgame;
    }
    let mut score = (opening_sum * opening + endgame_sum * endgame) / full;
    if lone_king_ending(position) {
        // Three pieces or fewer against a lone king: the draw rules (FMJD art. 6.3/6.4) leave no
        // time for anything but a tactical win, which the search finds; otherwise it is a draw.
        score /= LONE_KING_ENDING_DIVISOR;
    }
    match R::GOAL {
        Goal::Standard => {}
        Goal::Losing => {
            // Antidraughts: the side with fewer pieces, fewer moves and men to give away is
            // closer to its goal.
            score = -score;
            score += offered(position, Color::White) - offered(position, Color::Black);
        }
        Goal::FirstKingWins => {
            score += breakthrough(position, Color::White) - breakthrough(position, Color::Black);
        }
    }
    let score = if position.side() == Color::White {
        score
    } else {
        -score
    };
    score.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
}

/// The feature counts of a position, White minus Black.
pub fn features<R: Rules>(position: &Position<R>) -> Features {
    let white = side_features(position, Color::White);
    let black = side_features(position, Color::Black);
    let mut difference = [0; FEATURES];
    for (index, value) in difference.iter_mut().enumerate() {
        *value = white[index] - black[index];
    }
    difference
}

/// Whether one side has a lone king and the other at most three pieces.
#[inline]
fn lone_king_ending<R: Rules>(position: &Position<R>) -> bool {
    // Only where a draw rule cuts these endings short, and for three pieces only on the large
    // boards: on 8x8 three kings against one win within the 15-16 moves the rules allow when
    // the lone king does not hold the main diagonal; short-king games have no such rule.
    let most = match (
        R::DRAW_RULES.three_against_king,
        R::DRAW_RULES.two_against_king,
    ) {
        (Some(_), _) if R::Geometry::ROWS >= LONE_KING_ENDING_MIN_ROWS => {
            LONE_KING_ENDING_MAX_PIECES
        }
        (_, Some(_)) => LONE_KING_ENDING_MAX_PIECES - 1,
        _ => return false,
    };
    let lone = |color: Color| position.pieces(color).count() == 1 && position.kings(color).any();
    let few = |color: Color| position.pieces(color).count() <= most;
    (lone(Color::White) && few(Color::Black)) || (lone(Color::Black) && few(Color::White))
}

/// Rows counted from `color`'s back row (0) to the promotion row (`ROWS - 1`).
#[inline(always)]
fn relative_row<G: Geometry>(color: Color, row: u32) -> G::Bits {
    match color {
        Color::White => G::row(G::ROWS - 1 - row),
        Color::Black => G::row(row),
    }
}

/// Forward direction pair of `color`.
#[inline(always)]
fn forward(color: Color) -> [Direction; 2] {
    movegen::forward(color == Color::White)
}

/// Everything ahead of the men in `from` (the forward cone, widening by one file each row).
#[inline(always)]
fn forward_cone<G: Geometry>(from: G::Bits, color: Color, through: G::Bits) -> G::Bits {
    let [left, right] = forward(color);
    let mut frontier = from;
    let mut cone = G::Bits::EMPTY;
    while frontier.any() {
        frontier = (frontier.shift(G::delta(left)) | frontier.shift(G::delta(right))) & through;
        cone |= frontier;
    }
    cone
}

fn side_features<R: Rules>(position: &Position<R>, color: Color) -> Features {
    type G<R> = <R as Rules>::Geometry;
    let mut f = [0; FEATURES];
    let men = position.men(color);
    let kings = position.kings(color);
    let opponent_men = position.men(!color);
    let opponent_kings = position.kings(!color);
    let empty = position.empty();
    let rows = G::<R>::ROWS;
    // Half the board's width (the playing squares of a row on the dark-square boards).
    let half = G::<R>::COLUMNS / 2;
    let count = |set: BitsOf<R>| set.count() as i32;

    f[Feature::Man as usize] = count(men);
    f[Feature::King as usize] = count(kings);

    let mut advancement = 0;
    for row in 1..rows - 1 {
        advancement += count(men & relative_row::<G<R>>(color, row)) * row as i32;
    }
    f[Feature::Advancement as usize] = advancement;

    let centre_files = G::<R>::FILE_MASKS[(half - 2) as usize]
        | G::<R>::FILE_MASKS[(half - 1) as usize]
        | G::<R>::FILE_MASKS[half as usize]
        | G::<R>::FILE_MASKS[(half + 1) as usize];
    let centre_rows = G::<R>::row(rows / 2 - 2)
        | G::<R>::row(rows / 2 - 1)
        | G::<R>::row(rows / 2)
        | G::<R>::row(rows / 2 + 1);
    f[Feature::Centre as usize] = count(men & centre_files & centre_rows);

    let mut left = BitsOf::<R>::EMPTY;
    for file in 0..half {
        left |= G::<R>::FILE_MASKS[file as usize];
    }
    f[Feature::WingImbalance as usize] = (count(men & left) - count(men & !left)).abs();

    f[Feature::BackRow as usize] = count(men & relative_row::<G<R>>(color, 0));
    f[Feature::EdgeMen as usize] =
        count(men & (G::<R>::FILE_MASKS[0] | G::<R>::FILE_MASKS[(2 * half - 1) as usize]));

    if !R::DIAGONAL_PLAY {
        // Along rows and columns (Turkish) the diagonal shape terms below mean nothing: material,
        // advancement, centre, wings, back row and edges, and the kings' reach.
        for bit in kings.iter() {
            for direction in Orthogonal::ALL {
                f[Feature::KingMobility as usize] +=
                    count(movegen::king_reach::<G<R>>(bit, direction, empty));
            }
        }
        return f;
    }

    let [ahead_left, ahead_right] = forward(color);
    let behind_left = men.shift(G::<R>::delta(ahead_right));
    let behind_right = men.shift(G::<R>::delta(ahead_left));
    let backed_once = men & (behind_left | behind_right);
    let backed_twice = men & behind_left & behind_right;
    f[Feature::Supported as usize] = count(backed_once);
    let mut advanced = BitsOf::<R>::EMPTY;
    for row in rows / 2..rows - 1 {
        advanced |= relative_row::<G<R>>(color, row);
    }
    f[Feature::Outpost as usize] = count(men & advanced & backed_twice);
    f[Feature::LooseAdvanced as usize] = count(men & advanced & !backed_once);

    let free_left = men.shift(G::<R>::delta(ahead_left)) & empty;
    let free_right = men.shift(G::<R>::delta(ahead_right)) & empty;
    f[Feature::ManMobility as usize] = count(free_left) + count(free_right);
    let movable =
        free_left.shift(-G::<R>::delta(ahead_left)) | free_right.shift(-G::<R>::delta(ahead_right));
    f[Feature::BlockedMen as usize] =
        count(men & !movable & !relative_row::<G<R>>(color, rows - 1));

    if opponent_kings.is_empty() {
        let promotion = relative_row::<G<R>>(color, rows - 1);
        let mut near = BitsOf::<R>::EMPTY;
        for row in rows.saturating_sub(1 + RUNAWAY_MAX_ROWS)..rows - 1 {
            near |= relative_row::<G<R>>(color, row);
        }
        for bit in (men & near).iter() {
            let single = BitsOf::<R>::bit(bit);
            if (forward_cone::<G<R>>(single, color, G::<R>::VALID) & opponent_men).any() {
                continue;
            }
            if (forward_cone::<G<R>>(single, color, empty) & promotion).is_empty() {
                continue;
            }
            let row = u32::from(G::<R>::ROW_OF_BIT[bit as usize]);
            let distance = match color {
                Color::White => row,
                Color::Black => rows - 1 - row,
            };
            f[Feature::Runaway as usize] += 1;
            f[Feature::RunawayProximity as usize] +=
                (RUNAWAY_MAX_ROWS + 1).saturating_sub(distance) as i32;
        }
    }

    if kings.any() {
        let mut reach = 0;
        for bit in kings.iter() {
            for direction in Direction::ALL {
                reach += count(movegen::king_reach::<G<R>>(bit, direction, empty));
            }
        }
        f[Feature::KingMobility as usize] = reach;
        let corner = long_diagonal_corner::<G<R>>();
        let long_diagonal =
            G::<R>::RAYS[corner as usize][Direction::UpRight as usize] | BitsOf::<R>::bit(corner);
        f[Feature::KingOnLongDiagonal as usize] = count(kings & long_diagonal);
        f[Feature::SoleKingOwner as usize] = i32::from(opponent_kings.is_empty());
    }
    f
}

/// Breakthrough terms of `color`: the first king wins, so advancement counts double and a man
/// that nothing can stop from crowning is worth most of the game.
fn breakthrough<R: Rules>(position: &Position<R>, color: Color) -> Score {
    type G<R> = <R as Rules>::Geometry;
    let rows = G::<R>::ROWS;
    let men = position.men(color);
    let mut score = 0;
    for row in 1..rows - 1 {
        score += (men & relative_row::<G<R>>(color, row)).count() as i32
            * row as i32
            * BREAKTHROUGH_ADVANCE;
    }
    score
        + runaways(position, color, men, |distance| {
            (BREAKTHROUGH_RUNAWAY - BREAKTHROUGH_RUNAWAY_PER_ROW * distance).max(0)
        })
}

/// The sum of `value(rows to go)` over the men of `color` among `candidates` that no opposing
/// man can stop: none in the cone ahead, and a free path to the promotion row.
fn runaways<R: Rules>(
    position: &Position<R>,
    color: Color,
    candidates: BitsOf<R>,
    value: impl Fn(i32) -> Score,
) -> Score {
    type G<R> = <R as Rules>::Geometry;
    let rows = G::<R>::ROWS;
    let opponent_men = position.men(!color);
    let empty = position.empty();
    let promotion = relative_row::<G<R>>(color, rows - 1);
    let mut score = 0;
    for bit in candidates.iter() {
        let single = BitsOf::<R>::bit(bit);
        if (forward_cone::<G<R>>(single, color, G::<R>::VALID) & opponent_men).any()
            || (forward_cone::<G<R>>(single, color, empty) & promotion).is_empty()
        {
            continue;
        }
        let row = u32::from(G::<R>::ROW_OF_BIT[bit as usize]);
        let distance = match color {
            Color::White => row,
            Color::Black => rows - 1 - row,
        } as i32;
        score += value(distance);
    }
    score
}

/// Antidraughts: men of `color` that the opponent can take right away, pieces as good as given
/// away (men only, and single jumps, as a cheap estimate).
fn offered<R: Rules>(position: &Position<R>, color: Color) -> Score {
    type G<R> = <R as Rules>::Geometry;
    let men = position.men(color);
    let takers = position.men(!color);
    let empty = position.empty();
    let mut exposed = BitsOf::<R>::EMPTY;
    for direction in Direction::ALL {
        let delta = G::<R>::delta(direction);
        // A taker next to the man on one side, an empty square on the other.
        exposed |= men & takers.shift(-delta) & empty.shift(delta);
    }
    exposed.count() as i32 * ANTI_OFFERED
}

/// The bottom-left corner (a1), where the long diagonal starts (FMJD art. 2.4).
#[inline(always)]
fn long_diagonal_corner<G: Geometry>() -> u32 {
    G::BIT_OF_SQUARE[((G::ROWS - 1) * G::HALF + 1) as usize].into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::{Brazilian, International};

    fn assert_symmetric<R: Rules>(position: &Position<R>) {
        let mirrored = position.mirror();
        assert_eq!(
            evaluate(position),
            evaluate(&mirrored),
            "{position:?} vs {mirrored:?}"
        );
        // From White's point of view the scores are opposite, and so are the features.
        let white_view = |p: &Position<R>| {
            if p.side() == Color::White {
                evaluate(p)
            } else {
                -evaluate(p)
            }
        };
        assert_eq!(white_view(position), -white_view(&mirrored));
        let negated: Features = features(&mirrored).map(|v| -v);
        assert_eq!(features(position), negated);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        assert_symmetric(&Position::<International>::start());
        assert_symmetric(&Position::<Brazilian>::start());
        for text in [
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
            "W:W15,K46,33:B36,K5",
            "B:W6,7,8,9,10:B41,42,43,44,45",
        ] {
            assert_symmetric(&fen::parse::<International>(text).expect("valid"));
        }
        // Random games from the start.
        let mut position = Position::<International>::start();
        let mut seed = 0x1234_5678_u64;
        for _ in 0..120 {
            assert_symmetric(&position);
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            position = position.play(&moves[(seed >> 33) as usize % moves.len()]);
        }
    }

    #[test]
    fn engine_variant_terms() {
        use crate::rules::{Antidraughts, Breakthrough};
        assert_symmetric(&Position::<Breakthrough>::start());
        assert_symmetric(&Position::<Antidraughts>::start());
        assert_eq!(evaluate(&Position::<Breakthrough>::start()), 0);
        // Breakthrough: White's man on 12 crowns unhindered, which wins the game.
        let runaway = fen::parse::<Breakthrough>("W:W12,31-35:B16-20").expect("valid");
        assert!(
            evaluate(&runaway) > 5 * weights::MAN.opening,
            "{}",
            evaluate(&runaway)
        );
        assert_symmetric(&runaway);
        // Antidraughts: a man down is a man closer to the goal.
        let fewer = fen::parse::<Antidraughts>("W:W32-50:B1-20").expect("valid");
        assert!(
            evaluate(&fewer) > weights::MAN.opening / 2,
            "{}",
            evaluate(&fewer)
        );
        let offering = fen::parse::<Antidraughts>("B:W28,45:B23,5").expect("valid");
        assert_symmetric(&offering);
    }

    #[test]
    fn start_is_balanced_and_material_counts() {
        assert_eq!(evaluate(&Position::<International>::start()), 0);
        let up_a_man = fen::parse::<International>("W:W31-50:B2-20").expect("valid");
        assert!(evaluate(&up_a_man) > weights::MAN.opening / 2);
        // White's man on 12 crowns two rows ahead of Black's on 16.
        let race = fen::parse::<International>("W:W12:B16").expect("valid");
        assert!(evaluate(&race) > 0);
        let race_features = features(&race);
        assert_eq!(race_features[Feature::Runaway as usize], 1);
        assert!(race_features[Feature::RunawayProximity as usize] > 0);
    }
}
