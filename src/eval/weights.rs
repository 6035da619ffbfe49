//! The weights of the hand-crafted evaluation, in centi-men (100 = one man).

/// A man.
pub const MAN: i32 = 100;
/// A king: worth about three men in international draughts.
pub const KING: i32 = 300;
/// Advancement per man and row in the opening (scaled by [`ADVANCE_SCALE`]).
pub const ADVANCE_OPENING: i32 = 1;
/// Advancement per man and row with no men left (scaled by [`ADVANCE_SCALE`]).
pub const ADVANCE_ENDGAME: i32 = 6;
/// Divisor of the advancement weights, so they can be fractional.
pub const ADVANCE_SCALE: i32 = 2;
/// A man on the central files of the middle rows.
pub const CENTRE: i32 = 4;
/// Per man of difference between the left and right wing.
pub const BALANCE: i32 = 3;
/// A man on its own back row, while the opponent still has men to promote.
pub const BACK_ROW: i32 = 4;
/// The back-row bonus applies while the opponent has more men than this.
pub const BACK_ROW_MIN_OPPONENT_MEN: i32 = 6;
/// A man with a friend diagonally behind it.
pub const SUPPORTED: i32 = 2;
/// An advanced man (opponent's half) backed on both sides.
pub const OUTPOST: i32 = 6;
/// Penalty for an advanced man with no backing.
pub const LOOSE_ADVANCED_MAN: i32 = 6;
/// Per free square ahead of a man.
pub const MAN_MOBILITY: i32 = 1;
/// A man that will crown unhindered, one row from the promotion row.
pub const RUNAWAY: i32 = 160;
/// Men further than this from the promotion row are not considered runaways (the opponent has
/// time to react, and the test is costly).
pub const RUNAWAY_MAX_ROWS: u32 = 5;
/// Less per further row to go.
pub const RUNAWAY_PER_ROW: i32 = 18;
/// Per square a king can reach.
pub const KING_MOBILITY: i32 = 2;
/// A king on the long diagonal (a1-j10), the key line of king endings.
pub const KING_ON_LONG_DIAGONAL: i32 = 15;
/// Pieces against a lone king up to which the ending is drawn by rule (FMJD art. 6.3/6.4).
pub const LONE_KING_ENDING_MAX_PIECES: u32 = 3;
/// Such endings are evaluated at this fraction of the normal score.
pub const LONE_KING_ENDING_DIVISOR: i32 = 32;
