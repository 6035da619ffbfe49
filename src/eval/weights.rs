//! The weights of the hand-crafted evaluation, in centi-men (100 = one man), each an opening
//! and an endgame value (see [`super::Feature`] for what each counts).
//!
//! Fitted by `tools/` (Texel's method: logistic regression of self-play game results on the
//! features); the commit that changes them says how they were obtained.

use super::{FEATURES, Weight};

const fn weight(opening: i32, endgame: i32) -> Weight {
    Weight { opening, endgame }
}

/// A man. Fixed: the unit of every other weight.
pub const MAN: Weight = weight(100, 100);
/// A king.
pub const KING: Weight = weight(300, 300);
/// Per row a man has advanced.
pub const ADVANCEMENT: Weight = weight(1, 3);
/// A man in the centre.
pub const CENTRE: Weight = weight(4, 2);
/// Per man of difference between the wings.
pub const WING_IMBALANCE: Weight = weight(-3, -1);
/// A man on its own back row.
pub const BACK_ROW: Weight = weight(4, 0);
/// A man with a friend diagonally behind.
pub const SUPPORTED: Weight = weight(2, 2);
/// An advanced man backed on both sides.
pub const OUTPOST: Weight = weight(6, 4);
/// An advanced man with no backing.
pub const LOOSE_ADVANCED: Weight = weight(-6, -3);
/// Per free square ahead of a man.
pub const MAN_MOBILITY: Weight = weight(1, 1);
/// A man that cannot move.
pub const BLOCKED_MEN: Weight = weight(0, 0);
/// A man on an edge file.
pub const EDGE_MEN: Weight = weight(0, 0);
/// A runaway man.
pub const RUNAWAY: Weight = weight(52, 52);
/// Per row of a runaway man's proximity to the promotion row.
pub const RUNAWAY_PROXIMITY: Weight = weight(18, 18);
/// Per square a king can reach.
pub const KING_MOBILITY: Weight = weight(2, 2);
/// A king on the long diagonal.
pub const KING_ON_LONG_DIAGONAL: Weight = weight(15, 15);
/// Having a king while the opponent has none.
pub const SOLE_KING_OWNER: Weight = weight(0, 0);

/// The weights in the order of [`super::Feature`].
pub const WEIGHTS: [Weight; FEATURES] = [
    MAN,
    KING,
    ADVANCEMENT,
    CENTRE,
    WING_IMBALANCE,
    BACK_ROW,
    SUPPORTED,
    OUTPOST,
    LOOSE_ADVANCED,
    MAN_MOBILITY,
    BLOCKED_MEN,
    EDGE_MEN,
    RUNAWAY,
    RUNAWAY_PROXIMITY,
    KING_MOBILITY,
    KING_ON_LONG_DIAGONAL,
    SOLE_KING_OWNER,
];

/// Men further than this from the promotion row are not considered runaways (the opponent has
/// time to react, and the test is costly).
pub const RUNAWAY_MAX_ROWS: u32 = 5;
/// Pieces against a lone king up to which the ending is drawn by rule (FMJD art. 6.3/6.4).
pub const LONE_KING_ENDING_MAX_PIECES: u32 = 3;
/// Such endings are evaluated at this fraction of the normal score.
pub const LONE_KING_ENDING_DIVISOR: i32 = 32;
