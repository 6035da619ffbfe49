//! Where each parameter of the pattern evaluation lives in its weight vector: the layouts of
//! pattern blocks the weights file ([`super::weights_file`]) names by id and the evaluation
//! ([`super::patterns`]) and trainer read. Kept apart from both so that neither depends on the
//! other for it.
//!
//! A layout is a block height, the rows its blocks start on, and whether each block has one table
//! or two (one for when the side whose view the block is read from is to move, one for when it
//! is not). Every block is 4 files wide (two squares of each of its rows) and stands at files 0,
//! 2, 4 and 6; a block read as it stands and its twin under the colour mirror share its tables.
//! The weight vector holds the tables (all blocks' first tables, then all blocks' second ones),
//! then the king squares, then the scalar [`Term`]s.

/// Squares of a board row (playable ones).
pub(super) const ROW_SQUARES: usize = 5;
/// Rows of the board.
pub(super) const ROWS: usize = 10;
/// Squares of the board (king square table entries).
pub(super) const SQUARES: usize = ROWS * ROW_SQUARES;
/// Horizontal block positions (files 0, 2, 4, 6).
pub(super) const WINDOWS: usize = 4;
/// Squares a block takes from each of its rows.
pub(super) const BLOCK_WIDTH: usize = 2;
/// Base-3 value of one row's pair of block digits (3 x 3).
pub(super) const PAIR_STATES: usize = 9;
/// Base-3 codes of a row's five squares.
pub(super) const ROW_STATES: usize = 243;
/// Squares of the largest block of any layout.
pub const MAX_BLOCK_SQUARES: usize = 12;
/// Blocks of the layout with the most (each with its twin).
pub const MAX_BLOCKS: usize = 8;

/// The scalar terms, in their order after the king squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Men.
    Man,
    /// Having at least one king.
    FirstKing,
    /// Kings beyond the first.
    MoreKings,
    /// Rows advanced by the men.
    Advancement,
    /// |Sum over the men of (2 file - 9)|: lopsided wings.
    Balance,
    /// Squares the kings can reach.
    KingMobility,
    /// The side to move (+1 White, -1 Black).
    SideToMove,
}

impl Term {
    /// Number of scalar terms.
    pub const COUNT: usize = 7;
}

/// A layout of pattern blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The id a weights file stores.
    pub id: u32,
    /// The name `rafle-tune train --layout` takes.
    pub name: &'static str,
    /// Rows of a block.
    pub block_rows: usize,
    /// First rows of the blocks read as they stand (each block's twin starts at
    /// `ROWS - block_rows - row`).
    pub own_block_rows: &'static [usize],
    /// Whether each block has a second table, read when the side whose view it is read from
    /// (White for a block as it stands, Black for its twin) is not to move: patterns whose worth
    /// depends on who moves first (tempo fights, exchanges about to happen) at no cost in
    /// lookups.
    pub per_side: bool,
}

impl Layout {
    /// Squares of a block.
    pub const fn block_squares(&self) -> usize {
        BLOCK_WIDTH * self.block_rows
    }

    /// States of a block's table: 3 per square (empty, white man, black man).
    pub const fn table_size(&self) -> usize {
        3usize.pow(self.block_squares() as u32)
    }

    /// Blocks read as they stand (each with its twin).
    pub const fn blocks(&self) -> usize {
        self.own_block_rows.len() * WINDOWS
    }

    /// Tables of a block: two if [`Layout::per_side`].
    pub const fn sets(&self) -> usize {
        if self.per_side { 2 } else { 1 }
    }

    /// Pattern tables.
    pub const fn tables(&self) -> usize {
        self.blocks() * self.sets()
    }

    /// Index of the first weight of `block`'s table in `set` (0: the viewing side is to move, or
    /// the layout has one table a block; 1: it is not).
    pub const fn table(&self, set: usize, block: usize) -> usize {
        (set * self.blocks() + block) * self.table_size()
    }

    /// Index of the first king-square weight.
    pub const fn king_square(&self) -> usize {
        self.tables() * self.table_size()
    }

    /// Index of a scalar term.
    pub const fn term(&self, term: Term) -> usize {
        self.king_square() + SQUARES + term as usize
    }

    /// Number of parameters (each with an opening and an endgame value).
    pub const fn parameters(&self) -> usize {
        self.king_square() + SQUARES + Term::COUNT
    }

    /// The layout of an id.
    pub fn by_id(id: u32) -> Option<&'static Layout> {
        LAYOUTS.iter().find(|layout| layout.id == id)
    }

    /// The layout of a name.
    pub fn by_name(name: &str) -> Option<&'static Layout> {
        LAYOUTS.iter().find(|layout| layout.name == name)
    }
}

/// 16 blocks of 4 files x 4 rows (3^8 states) at rows 0, 2, 4, 6, in the manner of Scan 2.0:
/// 8 tables.
pub const BLOCKS_4X4: Layout = Layout {
    id: 1,
    name: "4x4",
    block_rows: 4,
    own_block_rows: &[4, 6],
    per_side: false,
};

/// 8 blocks of 4 files x 6 rows (3^12 states) at rows 0 and 4, overlapping on the middle two
/// rows, in the manner of Scan 3 (its documented design): 4 tables.
pub const BLOCKS_4X6: Layout = Layout {
    id: 2,
    name: "4x6",
    block_rows: 6,
    own_block_rows: &[4],
    per_side: false,
};

/// The 4x6 blocks and, besides them, 4 blocks of 4 files x 6 rows at row 2 (the middle six
/// rows, where the two halves of the 4x6 layout only overlap): 8 tables, twice the weights of
/// 4x6 for the part of the board where the middle game is decided.
pub const BLOCKS_4X6M: Layout = Layout {
    id: 3,
    name: "4x6m",
    block_rows: 6,
    own_block_rows: &[4, 2],
    per_side: false,
};

/// The 4x6m blocks with two tables each, by whether the viewing side is to move: 16 tables, the
/// same lookups as 4x6m.
pub const BLOCKS_4X6M_SIDE: Layout = Layout {
    id: 4,
    name: "4x6m-side",
    per_side: true,
    ..BLOCKS_4X6M
};

/// Every layout.
pub const LAYOUTS: [Layout; 4] = [BLOCKS_4X4, BLOCKS_4X6, BLOCKS_4X6M, BLOCKS_4X6M_SIDE];

const _: () = {
    let mut i = 0;
    while i < LAYOUTS.len() {
        assert!(LAYOUTS[i].block_squares() <= MAX_BLOCK_SQUARES);
        assert!(LAYOUTS[i].blocks() <= MAX_BLOCKS);
        i += 1;
    }
};
