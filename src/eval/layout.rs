//! Where each parameter of the pattern evaluation lives in its weight vector: the layout the
//! weights file ([`super::weights_file`]) stores and the evaluation ([`super::patterns`]) and
//! trainer read. Kept apart from both so that neither depends on the other for it.

/// Squares of a board row (playable ones).
pub(super) const ROW_SQUARES: usize = 5;
/// Rows of the board.
pub(super) const ROWS: usize = 10;
/// States of one block: 3 per square, 8 squares.
pub const TABLE_SIZE: usize = 6561;
/// Horizontal block positions (files 0, 2, 4, 6).
pub(super) const WINDOWS: usize = 4;
/// First rows of the blocks read as they stand (their twins start at rows 2 and 0).
pub(super) const OWN_BLOCK_ROWS: [usize; 2] = [4, 6];
/// Pattern tables.
pub const TABLES: usize = OWN_BLOCK_ROWS.len() * WINDOWS;
/// Base-3 value of one two-square pair of digits (3 x 3).
pub(super) const PAIR_STATES: usize = 9;
/// Base-3 codes of a row's five squares.
pub(super) const ROW_STATES: usize = 243;

/// Index of the first king-square weight.
pub const KING_SQUARE: usize = TABLES * TABLE_SIZE;
/// Squares of the board (king square table entries).
pub(super) const SQUARES: usize = ROWS * ROW_SQUARES;
/// Men.
pub const MAN: usize = KING_SQUARE + SQUARES;
/// Having at least one king.
pub const FIRST_KING: usize = MAN + 1;
/// Kings beyond the first.
pub const MORE_KINGS: usize = MAN + 2;
/// Rows advanced by the men.
pub const ADVANCEMENT: usize = MAN + 3;
/// |Sum over the men of (2 file - 9)|: lopsided wings.
pub const BALANCE: usize = MAN + 4;
/// Squares the kings can reach.
pub const KING_MOBILITY: usize = MAN + 5;
/// The side to move (+1 White, -1 Black).
pub const SIDE_TO_MOVE: usize = MAN + 6;
/// Number of parameters (each with an opening and an endgame value).
pub const PARAMETERS: usize = MAN + 7;
