//! Static evaluation.
//!
//! The search asks an [`Evaluator`] for a score; [`HandCrafted`] is the evaluation we ship now, and
//! a learned evaluation can take its place behind the same trait later. Every weight is a named
//! constant in [`weights`]. The evaluation is computed for each side with the same code on
//! rows counted from that side's back row, so it is symmetric by construction: a position and
//! its colour mirror get the same score for the side to move (tested below).

pub mod weights;

use crate::core::{BitBoard, Color, Direction, Geometry};
use crate::movegen;
use crate::position::Position;
use crate::rules::{BitsOf, Goal, Rules};
use crate::score::{EVAL_LIMIT, Score};
use weights::*;

/// A static evaluation function.
pub trait Evaluator<R: Rules>: Send + Sync {
    /// Score of a quiet position for the side to move.
    fn evaluate(&self, position: &Position<R>) -> Score;
}

/// The hand-crafted evaluation: material, advancement, centre, balance, structure, runaway men,
/// king activity.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandCrafted;

impl<R: Rules> Evaluator<R> for HandCrafted {
    #[inline]
    fn evaluate(&self, position: &Position<R>) -> Score {
        evaluate(position)
    }
}

/// Men on the board at the start of an international game; the phase runs from this down to 0.
const FULL_BOARD_MEN: i32 = 40;

/// The hand-crafted evaluation, side-to-move view.
pub fn evaluate<R: Rules>(position: &Position<R>) -> Score {
    let white = side_score(position, Color::White);
    let black = side_score(position, Color::Black);
    let mut score = white - black;
    if lone_king_ending(position) {
        // Three pieces or fewer against a lone king: the draw rules (FMJD art. 6.3/6.4) leave no
        // time for anything but a tactical win, which the search finds; otherwise it is a draw.
        score /= LONE_KING_ENDING_DIVISOR;
    }
    if R::GOAL == Goal::Losing {
        // Antidraughts: the side with fewer pieces is closer to its goal.
        score = -score;
    }
    let score = if position.side() == Color::White {
        score
    } else {
        -score
    };
    score.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
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

fn side_score<R: Rules>(position: &Position<R>, color: Color) -> Score {
    type G<R> = <R as Rules>::Geometry;
    let men = position.men(color);
    let kings = position.kings(color);
    let opponent_men = position.men(!color);
    let opponent_kings = position.kings(!color);
    let empty = position.empty();
    let all_men = (men | opponent_men).count() as i32;
    let rows = G::<R>::ROWS;
    let half = G::<R>::HALF;

    // Phase: 0 with a full board of men, FULL_BOARD_MEN when none are left.
    let full = FULL_BOARD_MEN.min((2 * R::MAX_PIECES_PER_SIDE) as i32);
    let endgame = (full - all_men).clamp(0, full);
    let interpolate = |opening: Score, ending: Score| opening + (ending - opening) * endgame / full;

    let mut score = men.count() as i32 * MAN + kings.count() as i32 * KING;

    // Advancement: a man's value grows as it nears the promotion row, more so in the endgame.
    let advance_weight = interpolate(ADVANCE_OPENING, ADVANCE_ENDGAME);
    let mut advancement = 0;
    for row in 1..rows - 1 {
        advancement += (men & relative_row::<G<R>>(color, row)).count() as i32 * row as i32;
    }
    score += advancement * advance_weight / ADVANCE_SCALE;

    // Centre: men on the middle files of the middle rows control the game.
    let centre_files = G::<R>::FILE_MASKS[(half - 2) as usize]
        | G::<R>::FILE_MASKS[(half - 1) as usize]
        | G::<R>::FILE_MASKS[half as usize]
        | G::<R>::FILE_MASKS[(half + 1) as usize];
    let centre_rows = G::<R>::row(rows / 2 - 2)
        | G::<R>::row(rows / 2 - 1)
        | G::<R>::row(rows / 2)
        | G::<R>::row(rows / 2 + 1);
    score += (men & centre_files & centre_rows).count() as i32 * CENTRE;

    // Balance between the wings: men bunched on one side are easily outnumbered.
    let mut left = BitsOf::<R>::EMPTY;
    for file in 0..half {
        left |= G::<R>::FILE_MASKS[file as usize];
    }
    let left_men = (men & left).count() as i32;
    let right_men = (men & !left).count() as i32;
    score -= (left_men - right_men).abs() * BALANCE;

    // Back row: men at home guard the promotion squares while the opponent has men to come.
    if opponent_men.count() as i32 > BACK_ROW_MIN_OPPONENT_MEN {
        score += (men & relative_row::<G<R>>(color, 0)).count() as i32 * BACK_ROW;
    }

    // Structure: men backed by a friend diagonally behind hold; far-advanced men without backing
    // are targets; advanced men with both backers are outposts.
    let [ahead_left, ahead_right] = forward(color);
    let behind_left = men.shift(G::<R>::delta(ahead_right));
    let behind_right = men.shift(G::<R>::delta(ahead_left));
    let backed_once = men & (behind_left | behind_right);
    let backed_twice = men & behind_left & behind_right;
    score += backed_once.count() as i32 * SUPPORTED;
    let mut advanced = BitsOf::<R>::EMPTY;
    for row in rows / 2..rows - 1 {
        advanced |= relative_row::<G<R>>(color, row);
    }
    score += (men & advanced & backed_twice).count() as i32 * OUTPOST;
    score -= (men & advanced & !backed_once).count() as i32 * LOOSE_ADVANCED_MAN;

    // Mobility of men: free squares ahead.
    for direction in forward(color) {
        score += (men.shift(G::<R>::delta(direction)) & empty).count() as i32 * MAN_MOBILITY;
    }

    // Runaway men: no opposing king, no opposing man in the cone ahead, and a free path to the
    // promotion row; worth more the closer they are.
    if opponent_kings.is_empty() {
        let promotion = relative_row::<G<R>>(color, rows - 1);
        let mut near = BitsOf::<R>::EMPTY;
        for row in rows.saturating_sub(1 + RUNAWAY_MAX_ROWS)..rows - 1 {
            near |= relative_row::<G<R>>(color, row);
        }
        for bit in (men & near).iter() {
            let single = BitsOf::<R>::bit(bit);
            let cone = forward_cone::<G<R>>(single, color, G::<R>::VALID);
            if (cone & opponent_men).any() {
                continue;
            }
            if (forward_cone::<G<R>>(single, color, empty) & promotion).is_empty() {
                continue;
            }
            let row = u32::from(G::<R>::ROW_OF_BIT[bit as usize]);
            let distance = match color {
                Color::White => row,
                Color::Black => rows - 1 - row,
            } as i32;
            score += (RUNAWAY - RUNAWAY_PER_ROW * distance).max(0);
        }
    }

    // Kings: mobility, and the long diagonal.
    if kings.any() {
        for bit in kings.iter() {
            let mut reach = 0;
            for direction in Direction::ALL {
                reach += movegen::king_reach::<G<R>>(bit, direction, empty).count() as i32;
            }
            score += reach * KING_MOBILITY;
        }
        let long_diagonal = G::<R>::RAYS[long_diagonal_corner::<G<R>>() as usize]
            [Direction::UpRight as usize]
            | BitsOf::<R>::bit(long_diagonal_corner::<G<R>>());
        score += (kings & long_diagonal).count() as i32 * KING_ON_LONG_DIAGONAL;
    }
    score
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
        // From White's point of view the scores are opposite.
        let white_view = |p: &Position<R>| {
            if p.side() == Color::White {
                evaluate(p)
            } else {
                -evaluate(p)
            }
        };
        assert_eq!(white_view(position), -white_view(&mirrored));
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
        assert!(evaluate(&up_a_man) > MAN / 2);
        // White's man on 12 crowns two rows ahead of Black's on 16.
        let race = fen::parse::<International>("W:W12:B16").expect("valid");
        assert!(evaluate(&race) > 2 * RUNAWAY_PER_ROW);
    }
}
