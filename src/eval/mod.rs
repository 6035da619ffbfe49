//! Static evaluation.
//!
//! The search asks an [`Evaluator`] for a score; [`HandCrafted`] is the evaluation we ship now,
//! and a learned evaluation can take its place behind the same trait later.
//!
//! The hand-crafted evaluation is linear in a small set of [`Feature`]s, each counted for White
//! minus Black, with two weights per feature (opening and endgame) blended by the number of men
//! left ("tapered" evaluation). Every weight is a named constant in [`weights`], fitted to game
//! results by the tuner in `tools/` (Texel's method). Each side's features are computed by the
//! same code on rows counted from that side's back row, so the evaluation is symmetric by
//! construction: a position and its colour mirror get the same score for the side to move
//! (tested below).

pub mod weights;

use crate::core::{BitBoard, Color, Direction, Geometry};
use crate::movegen;
use crate::position::Position;
use crate::rules::{BitsOf, Goal, Rules};
use crate::score::{EVAL_LIMIT, Score};
use weights::{LONE_KING_ENDING_DIVISOR, LONE_KING_ENDING_MAX_PIECES, RUNAWAY_MAX_ROWS, WEIGHTS};

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

/// Men on the board at the start of an international game; the phase runs from this down to 0.
const FULL_BOARD_MEN: i32 = 40;

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
    if R::GOAL == Goal::Losing {
        // Antidraughts: the side with less is closer to its goal.
        score = -score;
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
    let lone = |color: Color| position.pieces(color).count() == 1 && position.kings(color).any();
    let few = |color: Color| position.pieces(color).count() <= LONE_KING_ENDING_MAX_PIECES;
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
    let half = G::<R>::HALF;
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
    f[Feature::EdgeMen as usize] =
        count(men & (G::<R>::FILE_MASKS[0] | G::<R>::FILE_MASKS[(2 * half - 1) as usize]));

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
