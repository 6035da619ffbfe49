//! Board geometries: the padded bit layout of 8x8, 10x10 and 12x12 boards and their const tables.
//!
//! Squares are numbered as in FMJD art. 2.6: square 1 is the leftmost playable square of the row on
//! Black's side (b10 on 10x10), numbers run left to right, row after row, and White's back row ends
//! the numbering (46..50 on 10x10). Square `s` (0-based) lives at bit `s + s / (2 * H)` where `H` is
//! the number of playable squares in a row: one ghost bit follows every pair of rows. With that
//! padding the diagonal neighbours of every square are at bit distances `-(H+1)`, `-H`, `+H` and
//! `+(H+1)`, and any step off the board lands on a ghost bit or outside the used range, so no
//! wrap-around masks are needed. All tables are computed at compile time.

use super::bitboard::BitBoard;
use std::fmt::Debug;

/// Maximum bit index + 1 over all geometries; tables are sized to it so that they can be
/// associated constants of a fixed array type.
pub const TABLE_BITS: usize = 128;

/// One of the four diagonal directions, seen from White's side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Direction {
    /// Towards Black's side and the left (lower bit indices).
    UpLeft = 0,
    /// Towards Black's side and the right.
    UpRight = 1,
    /// Towards White's side and the left (higher bit indices).
    DownLeft = 2,
    /// Towards White's side and the right.
    DownRight = 3,
}

impl Direction {
    /// The four directions, indexed by their discriminant.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// The direction pointing the other way (`UpLeft` <-> `DownRight`, `UpRight` <-> `DownLeft`).
    #[inline(always)]
    pub const fn opposite(self) -> Direction {
        Direction::ALL[3 - self as usize]
    }
}

/// One of the four orthogonal directions along the same-coloured squares, seen from White's side.
///
/// On a board played on the dark squares, the next dark square along a column is two rows away
/// and the next along a row two files away: orthogonal captures (Frisian draughts) jump over that
/// square and land on the one after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Orthogonal {
    /// Along the column towards Black's side (two rows up per step).
    Up = 0,
    /// Along the row to the left (two files per step).
    Left = 1,
    /// Along the row to the right.
    Right = 2,
    /// Along the column towards White's side.
    Down = 3,
}

impl Orthogonal {
    /// The four directions, indexed by their discriminant.
    pub const ALL: [Orthogonal; 4] = [
        Orthogonal::Up,
        Orthogonal::Left,
        Orthogonal::Right,
        Orthogonal::Down,
    ];
}

/// A family of four directions a piece can capture along: the diagonals ([`Direction`]) or the
/// rows and columns ([`Orthogonal`]). The capture search is written once over this trait, so the
/// diagonal-only variants compile to code that never looks at rows and columns.
pub trait DirectionFamily: Copy + Debug + PartialEq + Eq + 'static {
    /// The other family: at a turn in a capture a piece may switch between the two.
    type Across: DirectionFamily<Across = Self>;
    /// The four directions of the family.
    const ALL: [Self; 4];
    /// Whether a step can wrap from the end of a row into the next row, so that steps by bit
    /// distance need [`DirectionFamily::short_jump_origins`] (the diagonals never wrap: the ghost bits
    /// catch them).
    const WRAPS: bool;

    /// The squares from `bit` (exclusive) to the edge of the board in this direction.
    fn ray<G: Geometry>(self, bit: u32) -> G::Bits;
    /// Bit distance of one step in this direction.
    fn delta<G: Geometry>(self) -> i32;
    /// The squares from which a piece can jump a neighbour and land right behind it in this
    /// direction (the two squares after it are on the board). Only needed where [`DirectionFamily::WRAPS`].
    fn short_jump_origins<G: Geometry>(self) -> G::Bits;
    /// The direction pointing the other way.
    fn opposite(self) -> Self;
    /// The two directions of the family at right angles to this one.
    fn turns(self) -> [Self; 2];
}

impl DirectionFamily for Direction {
    type Across = Orthogonal;
    const ALL: [Self; 4] = Direction::ALL;
    const WRAPS: bool = false;

    #[inline(always)]
    fn ray<G: Geometry>(self, bit: u32) -> G::Bits {
        G::RAYS[bit as usize][self as usize]
    }
    #[inline(always)]
    fn delta<G: Geometry>(self) -> i32 {
        G::delta(self)
    }
    #[inline(always)]
    fn short_jump_origins<G: Geometry>(self) -> G::Bits {
        G::VALID
    }
    #[inline(always)]
    fn opposite(self) -> Self {
        Direction::opposite(self)
    }
    #[inline(always)]
    fn turns(self) -> [Self; 2] {
        match self {
            Direction::UpLeft | Direction::DownRight => [Direction::UpRight, Direction::DownLeft],
            Direction::UpRight | Direction::DownLeft => [Direction::UpLeft, Direction::DownRight],
        }
    }
}

impl DirectionFamily for Orthogonal {
    type Across = Direction;
    const ALL: [Self; 4] = Orthogonal::ALL;
    const WRAPS: bool = true;

    #[inline(always)]
    fn ray<G: Geometry>(self, bit: u32) -> G::Bits {
        G::ORTHOGONAL_RAYS[bit as usize][self as usize]
    }
    #[inline(always)]
    fn delta<G: Geometry>(self) -> i32 {
        G::orthogonal_delta(self)
    }
    #[inline(always)]
    fn short_jump_origins<G: Geometry>(self) -> G::Bits {
        G::ORTHOGONAL_JUMP_ORIGINS[self as usize]
    }
    #[inline(always)]
    fn opposite(self) -> Self {
        Orthogonal::ALL[3 - self as usize]
    }
    #[inline(always)]
    fn turns(self) -> [Self; 2] {
        match self {
            Orthogonal::Up | Orthogonal::Down => [Orthogonal::Left, Orthogonal::Right],
            Orthogonal::Left | Orthogonal::Right => [Orthogonal::Up, Orthogonal::Down],
        }
    }
}

/// A board size and its padded bit layout. Implemented by zero-sized marker types.
pub trait Geometry: Copy + Debug + Default + Send + Sync + 'static {
    /// The bit set wide enough for this board.
    type Bits: BitBoard;
    /// Human name, e.g. `10x10`.
    const NAME: &'static str;
    /// Playable squares per row (half the board width, or the whole width where
    /// [`Geometry::EVERY_SQUARE`]).
    const HALF: u32;
    /// Whether every square of the board is a playing square (Turkish draughts), rather than the
    /// dark squares only. Such a board is laid out row by row without ghost bits: a step along a
    /// column is one row, along a row one file, and steps along a row are taken only from
    /// [`Geometry::ORTHOGONAL_STEP_ORIGINS`] because they wrap into the next row.
    const EVERY_SQUARE: bool = false;
    /// Board width in squares.
    const COLUMNS: u32 = 2 * Self::HALF;
    /// Number of rows.
    const ROWS: u32;
    /// Number of playable squares.
    const SQUARES: u32 = Self::HALF * Self::ROWS;
    /// Number of bits used by the layout (highest square bit + 1).
    const USED_BITS: u32;
    /// All playable squares.
    const VALID: Self::Bits;
    /// `RAYS[bit][direction]`: the squares from `bit` (exclusive) to the edge in that direction.
    const RAYS: [[Self::Bits; 4]; TABLE_BITS];
    /// `ORTHOGONAL_RAYS[bit][direction]`: the same-coloured squares from `bit` (exclusive) to the
    /// edge along its column or row, by [`Orthogonal`] direction.
    const ORTHOGONAL_RAYS: [[Self::Bits; 4]; TABLE_BITS];
    /// By [`Orthogonal`] direction: the squares from which a jump over the next square of the row
    /// or column lands on the board.
    const ORTHOGONAL_JUMP_ORIGINS: [Self::Bits; 4];
    /// By [`Orthogonal`] direction: the squares that have a neighbour in that direction (a
    /// one-square step from them stays on the board).
    const ORTHOGONAL_STEP_ORIGINS: [Self::Bits; 4];
    /// `ROW_MASKS[r]`: the playable squares of row `r` (0 = Black's back row).
    const ROW_MASKS: [Self::Bits; TABLE_BITS];
    /// `FILE_MASKS[f]`: the playable squares of file `f` (0 = left edge seen from White).
    const FILE_MASKS: [Self::Bits; TABLE_BITS];
    /// Square number (1-based) of each bit, 0 for ghost bits.
    const SQUARE_OF_BIT: [u8; TABLE_BITS];
    /// Bit of each square number (index 0 unused).
    const BIT_OF_SQUARE: [u8; TABLE_BITS];
    /// Row of each bit (0 = Black's back row), meaningful for playable bits only.
    const ROW_OF_BIT: [u8; TABLE_BITS];
    /// File (column, 0 = left edge seen from White) of each bit.
    const FILE_OF_BIT: [u8; TABLE_BITS];

    /// Bit distance of one step in `direction`.
    #[inline(always)]
    fn delta(direction: Direction) -> i32 {
        let h = Self::HALF as i32;
        match direction {
            Direction::UpLeft => -(h + 1),
            Direction::UpRight => -h,
            Direction::DownLeft => h,
            Direction::DownRight => h + 1,
        }
    }

    /// Bit distance of one step in an orthogonal direction: a whole pair of rows (plus its ghost
    /// bit) along a column, one bit along a row. Steps along a row wrap into the next row, so
    /// they are only taken from squares of [`Geometry::ORTHOGONAL_JUMP_ORIGINS`] or along
    /// [`Geometry::ORTHOGONAL_RAYS`].
    #[inline(always)]
    fn orthogonal_delta(direction: Orthogonal) -> i32 {
        let column = if Self::EVERY_SQUARE {
            Self::COLUMNS as i32
        } else {
            2 * Self::HALF as i32 + 1
        };
        match direction {
            Orthogonal::Up => -column,
            Orthogonal::Left => -1,
            Orthogonal::Right => 1,
            Orthogonal::Down => column,
        }
    }

    /// Bit of a 1-based square number, if it is on the board.
    #[inline]
    fn bit_of(square: u32) -> Option<u32> {
        (1..=Self::SQUARES)
            .contains(&square)
            .then(|| u32::from(Self::BIT_OF_SQUARE[square as usize]))
    }

    /// 1-based square number of a playable bit.
    #[inline]
    fn square_of(bit: u32) -> u32 {
        u32::from(Self::SQUARE_OF_BIT[bit as usize & (TABLE_BITS - 1)])
    }

    /// The square number at a row (0 = Black's back row) and file (0 = White's left edge), if
    /// it is a playing square: the numbering of this module, row by row from the top left.
    #[inline]
    fn square_at(row: u32, file: u32) -> Option<u32> {
        if row >= Self::ROWS || file >= Self::COLUMNS {
            None
        } else if Self::EVERY_SQUARE {
            Some(row * Self::COLUMNS + file + 1)
        } else if (row + file) % 2 == 1 {
            // Even rows (from Black's side) start one file in.
            Some(row * Self::HALF + file / 2 + 1)
        } else {
            None
        }
    }

    /// The playable squares of a row (0 = Black's back row).
    #[inline]
    fn row(row: u32) -> Self::Bits {
        Self::ROW_MASKS[row as usize & (TABLE_BITS - 1)]
    }
}

/// Bit index of the 0-based square `s`.
const fn bit_of_index(s: u32, half: u32) -> u32 {
    s + s / (2 * half)
}

const fn used_bits(half: u32, rows: u32) -> u32 {
    bit_of_index(half * rows - 1, half) + 1
}

const fn valid_mask(half: u32, rows: u32) -> u128 {
    let mut mask = 0u128;
    let mut s = 0;
    while s < half * rows {
        mask |= 1 << bit_of_index(s, half);
        s += 1;
    }
    mask
}

const fn square_of_bit(half: u32, rows: u32) -> [u8; TABLE_BITS] {
    let mut table = [0u8; TABLE_BITS];
    let mut s = 0;
    while s < half * rows {
        table[bit_of_index(s, half) as usize] = (s + 1) as u8;
        s += 1;
    }
    table
}

const fn bit_of_square(half: u32, rows: u32) -> [u8; TABLE_BITS] {
    let mut table = [0u8; TABLE_BITS];
    let mut s = 0;
    while s < half * rows {
        table[(s + 1) as usize] = bit_of_index(s, half) as u8;
        s += 1;
    }
    table
}

const fn row_of_bit(half: u32, rows: u32) -> [u8; TABLE_BITS] {
    let mut table = [0u8; TABLE_BITS];
    let mut s = 0;
    while s < half * rows {
        table[bit_of_index(s, half) as usize] = (s / half) as u8;
        s += 1;
    }
    table
}

/// Even rows (counted from Black's side) start one file in: square 1 is b10, square 6 is a9.
const fn file_of_bit(half: u32, rows: u32) -> [u8; TABLE_BITS] {
    let mut table = [0u8; TABLE_BITS];
    let mut s = 0;
    while s < half * rows {
        let row = s / half;
        let offset = if row.is_multiple_of(2) { 1 } else { 0 };
        table[bit_of_index(s, half) as usize] = (2 * (s % half) + offset) as u8;
        s += 1;
    }
    table
}

const fn row_masks(half: u32, rows: u32) -> [u128; TABLE_BITS] {
    let mut table = [0u128; TABLE_BITS];
    let mut s = 0;
    while s < half * rows {
        table[(s / half) as usize] |= 1 << bit_of_index(s, half);
        s += 1;
    }
    table
}

const fn file_masks(half: u32, rows: u32) -> [u128; TABLE_BITS] {
    let files = file_of_bit(half, rows);
    let mut table = [0u128; TABLE_BITS];
    let mut s = 0;
    while s < half * rows {
        let bit = bit_of_index(s, half);
        table[files[bit as usize] as usize] |= 1 << bit;
        s += 1;
    }
    table
}

const fn rays(half: u32, rows: u32) -> [[u128; 4]; TABLE_BITS] {
    let valid = valid_mask(half, rows);
    let used = used_bits(half, rows) as i32;
    let h = half as i32;
    let deltas = [-(h + 1), -h, h, h + 1];
    let mut table = [[0u128; 4]; TABLE_BITS];
    let mut s = 0;
    while s < half * rows {
        let from = bit_of_index(s, half) as i32;
        let mut d = 0;
        while d < 4 {
            let mut at = from + deltas[d];
            while at >= 0 && at < used && (valid >> at) & 1 == 1 {
                table[from as usize][d] |= 1 << at;
                at += deltas[d];
            }
            d += 1;
        }
        s += 1;
    }
    table
}

/// Orthogonal rays, walked on square indices (not bits) so that rows never wrap: along a column a
/// step is a whole pair of rows (`2 * half` squares), along a row one square within the row.
const fn orthogonal_rays(half: u32, rows: u32) -> [[u128; 4]; TABLE_BITS] {
    let squares = (half * rows) as i32;
    let h = half as i32;
    let mut table = [[0u128; 4]; TABLE_BITS];
    let mut s = 0;
    while s < squares {
        let from = bit_of_index(s as u32, half) as usize;
        let row = s / h;
        // Orthogonal::Up, Left, Right, Down.
        let steps = [-2 * h, -1, 1, 2 * h];
        let mut d = 0;
        while d < 4 {
            let mut at = s + steps[d];
            let along_row = d == 1 || d == 2;
            while at >= 0 && at < squares && (!along_row || at / h == row) {
                table[from][d] |= 1 << bit_of_index(at as u32, half);
                at += steps[d];
            }
            d += 1;
        }
        s += 1;
    }
    table
}

/// The squares whose rays in each direction hold at least two squares: a short jump from them
/// lands on the board.
const fn jump_origins(rays: &[[u128; 4]; TABLE_BITS]) -> [u128; 4] {
    let mut origins = [0u128; 4];
    let mut bit = 0;
    while bit < TABLE_BITS {
        let mut d = 0;
        while d < 4 {
            if rays[bit][d].count_ones() >= 2 {
                origins[d] |= 1 << bit;
            }
            d += 1;
        }
        bit += 1;
    }
    origins
}

/// The squares whose rays in each direction hold at least one square.
const fn step_origins(rays: &[[u128; 4]; TABLE_BITS]) -> [u128; 4] {
    let mut origins = [0u128; 4];
    let mut bit = 0;
    while bit < TABLE_BITS {
        let mut d = 0;
        while d < 4 {
            if rays[bit][d] != 0 {
                origins[d] |= 1 << bit;
            }
            d += 1;
        }
        bit += 1;
    }
    origins
}

/// Rays of a board where every square is played, laid out row by row (bit = row * columns +
/// file), walked by row and file so that nothing wraps. `steps` are (row, file) steps by
/// direction index.
const fn full_board_rays(
    columns: u32,
    rows: u32,
    steps: [(i32, i32); 4],
) -> [[u128; 4]; TABLE_BITS] {
    let mut table = [[0u128; 4]; TABLE_BITS];
    let (columns, rows) = (columns as i32, rows as i32);
    let mut from = 0;
    while from < columns * rows {
        let mut d = 0;
        while d < 4 {
            let (mut row, mut file) = (from / columns + steps[d].0, from % columns + steps[d].1);
            while row >= 0 && row < rows && file >= 0 && file < columns {
                table[from as usize][d] |= 1 << (row * columns + file);
                row += steps[d].0;
                file += steps[d].1;
            }
            d += 1;
        }
        from += 1;
    }
    table
}

/// Narrows a table of 4-direction rays to the geometry's bit set type.
macro_rules! narrow_rays {
    ($wide:expr, $bits:ty) => {{
        let wide = $wide;
        let mut narrow = [[0 as $bits; 4]; TABLE_BITS];
        let mut i = 0;
        while i < TABLE_BITS {
            let mut d = 0;
            while d < 4 {
                narrow[i][d] = wide[i][d] as $bits;
                d += 1;
            }
            i += 1;
        }
        narrow
    }};
}

/// Narrows 4 masks to the geometry's bit set type.
macro_rules! narrow_four {
    ($wide:expr, $bits:ty) => {{
        let wide = $wide;
        [
            wide[0] as $bits,
            wide[1] as $bits,
            wide[2] as $bits,
            wide[3] as $bits,
        ]
    }};
}

macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, $bits:ty, $label:literal, half = $half:literal, rows = $rows:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Geometry for $name {
            type Bits = $bits;
            const NAME: &'static str = $label;
            const HALF: u32 = $half;
            const ROWS: u32 = $rows;
            const USED_BITS: u32 = used_bits($half, $rows);
            const VALID: $bits = valid_mask($half, $rows) as $bits;
            const RAYS: [[$bits; 4]; TABLE_BITS] = narrow_rays!(rays($half, $rows), $bits);
            const ORTHOGONAL_RAYS: [[$bits; 4]; TABLE_BITS] =
                narrow_rays!(orthogonal_rays($half, $rows), $bits);
            const ORTHOGONAL_JUMP_ORIGINS: [$bits; 4] =
                narrow_four!(jump_origins(&orthogonal_rays($half, $rows)), $bits);
            const ORTHOGONAL_STEP_ORIGINS: [$bits; 4] =
                narrow_four!(step_origins(&orthogonal_rays($half, $rows)), $bits);
            const ROW_MASKS: [$bits; TABLE_BITS] = {
                let wide = row_masks($half, $rows);
                let mut narrow = [0 as $bits; TABLE_BITS];
                let mut i = 0;
                while i < TABLE_BITS {
                    narrow[i] = wide[i] as $bits;
                    i += 1;
                }
                narrow
            };
            const FILE_MASKS: [$bits; TABLE_BITS] = {
                let wide = file_masks($half, $rows);
                let mut narrow = [0 as $bits; TABLE_BITS];
                let mut i = 0;
                while i < TABLE_BITS {
                    narrow[i] = wide[i] as $bits;
                    i += 1;
                }
                narrow
            };
            const SQUARE_OF_BIT: [u8; TABLE_BITS] = square_of_bit($half, $rows);
            const BIT_OF_SQUARE: [u8; TABLE_BITS] = bit_of_square($half, $rows);
            const ROW_OF_BIT: [u8; TABLE_BITS] = row_of_bit($half, $rows);
            const FILE_OF_BIT: [u8; TABLE_BITS] = file_of_bit($half, $rows);
        }

        const _: () = assert!(used_bits($half, $rows) <= <$bits>::BITS);
    };
}

geometry!(
    /// The 8x8 board (32 squares, 35 bits): Brazilian, Russian, Pool, checkers and the other 8x8 games.
    Board8,
    u64,
    "8x8",
    half = 4,
    rows = 8
);
geometry!(
    /// The 10x10 board (50 squares, 54 bits): international draughts and its engine variants.
    Board10,
    u64,
    "10x10",
    half = 5,
    rows = 10
);
geometry!(
    /// The 12x12 board (72 squares, 77 bits, so `u128`): Canadian draughts.
    Board12,
    u128,
    "12x12",
    half = 6,
    rows = 12
);

/// Columns (and rows) of the board where every square is played.
const FULL_8: u32 = 8;

/// Diagonal steps (row, file) by [`Direction`].
const DIAGONAL_STEPS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// Orthogonal steps (row, file) by [`Orthogonal`] on a board where every square is played.
const FULL_ORTHOGONAL_STEPS: [(i32, i32); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// Mask of the first `n` bits.
const fn low_bits(n: u32) -> u128 {
    if n >= u128::BITS {
        u128::MAX
    } else {
        (1 << n) - 1
    }
}

/// A per-bit table of a board where every square is played: `f(row, file)` for each square.
const fn full_board_table(columns: u32, rows: u32, what: u8) -> [u8; TABLE_BITS] {
    let mut table = [0u8; TABLE_BITS];
    let mut s = 0;
    while s < columns * rows {
        let index = match what {
            // Square number of the bit, and bit of the square number (the same shift by one).
            FULL_SQUARE_OF_BIT => s as usize,
            FULL_BIT_OF_SQUARE => s as usize + 1,
            _ => s as usize,
        };
        table[index] = match what {
            FULL_SQUARE_OF_BIT => (s + 1) as u8,
            FULL_BIT_OF_SQUARE => s as u8,
            FULL_ROW_OF_BIT => (s / columns) as u8,
            _ => (s % columns) as u8,
        };
        s += 1;
    }
    table
}

/// Which table [`full_board_table`] makes.
const FULL_SQUARE_OF_BIT: u8 = 0;
const FULL_BIT_OF_SQUARE: u8 = 1;
const FULL_ROW_OF_BIT: u8 = 2;
const FULL_FILE_OF_BIT: u8 = 3;

/// Row (`by_row`) or file masks of a board where every square is played.
const fn full_board_lines(columns: u32, rows: u32, by_row: bool) -> [u128; TABLE_BITS] {
    let mut table = [0u128; TABLE_BITS];
    let mut s = 0;
    while s < columns * rows {
        let line = if by_row { s / columns } else { s % columns };
        table[line as usize] |= 1 << s;
        s += 1;
    }
    table
}

/// The 8x8 board with all 64 squares played (Turkish draughts): bit = row * 8 + file, row 0 on
/// Black's side, so square `n` (1-64, from the top left, row by row) is bit `n - 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board8Full;

impl Geometry for Board8Full {
    type Bits = u64;
    const NAME: &'static str = "8x8 (all squares)";
    const HALF: u32 = FULL_8;
    const ROWS: u32 = FULL_8;
    const EVERY_SQUARE: bool = true;
    const COLUMNS: u32 = FULL_8;
    const USED_BITS: u32 = FULL_8 * FULL_8;
    const VALID: u64 = low_bits(FULL_8 * FULL_8) as u64;
    const RAYS: [[u64; 4]; TABLE_BITS] =
        narrow_rays!(full_board_rays(FULL_8, FULL_8, DIAGONAL_STEPS), u64);
    const ORTHOGONAL_RAYS: [[u64; 4]; TABLE_BITS] =
        narrow_rays!(full_board_rays(FULL_8, FULL_8, FULL_ORTHOGONAL_STEPS), u64);
    const ORTHOGONAL_JUMP_ORIGINS: [u64; 4] = narrow_four!(
        jump_origins(&full_board_rays(FULL_8, FULL_8, FULL_ORTHOGONAL_STEPS)),
        u64
    );
    const ORTHOGONAL_STEP_ORIGINS: [u64; 4] = narrow_four!(
        step_origins(&full_board_rays(FULL_8, FULL_8, FULL_ORTHOGONAL_STEPS)),
        u64
    );
    const ROW_MASKS: [u64; TABLE_BITS] = {
        let wide = full_board_lines(FULL_8, FULL_8, true);
        let mut narrow = [0u64; TABLE_BITS];
        let mut i = 0;
        while i < TABLE_BITS {
            narrow[i] = wide[i] as u64;
            i += 1;
        }
        narrow
    };
    const FILE_MASKS: [u64; TABLE_BITS] = {
        let wide = full_board_lines(FULL_8, FULL_8, false);
        let mut narrow = [0u64; TABLE_BITS];
        let mut i = 0;
        while i < TABLE_BITS {
            narrow[i] = wide[i] as u64;
            i += 1;
        }
        narrow
    };
    const SQUARE_OF_BIT: [u8; TABLE_BITS] = full_board_table(FULL_8, FULL_8, FULL_SQUARE_OF_BIT);
    const BIT_OF_SQUARE: [u8; TABLE_BITS] = full_board_table(FULL_8, FULL_8, FULL_BIT_OF_SQUARE);
    const ROW_OF_BIT: [u8; TABLE_BITS] = full_board_table(FULL_8, FULL_8, FULL_ROW_OF_BIT);
    const FILE_OF_BIT: [u8; TABLE_BITS] = full_board_table(FULL_8, FULL_8, FULL_FILE_OF_BIT);

    /// Diagonal steps by bit distance; no rule on this board plays along the diagonals.
    #[inline(always)]
    fn delta(direction: Direction) -> i32 {
        let columns = Self::COLUMNS as i32;
        match direction {
            Direction::UpLeft => -(columns + 1),
            Direction::UpRight => -(columns - 1),
            Direction::DownLeft => columns - 1,
            Direction::DownRight => columns + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares_round_trip<G: Geometry>() {
        assert_eq!(G::VALID.count(), G::SQUARES);
        for square in 1..=G::SQUARES {
            let bit = G::bit_of(square).expect("on the board");
            assert!(G::VALID.has(bit));
            assert_eq!(G::square_of(bit), square);
        }
        assert_eq!(G::bit_of(0), None);
        assert_eq!(G::bit_of(G::SQUARES + 1), None);
    }

    /// Every ray step must be a true diagonal neighbour: the file changes by one and the row by one.
    fn rays_are_diagonals<G: Geometry>() {
        for bit in G::VALID.iter() {
            for direction in Direction::ALL {
                let mut previous = bit;
                for next in ray_in_order::<G>(bit, direction) {
                    let row_step = i32::from(G::ROW_OF_BIT[next as usize])
                        - i32::from(G::ROW_OF_BIT[previous as usize]);
                    let file_step = i32::from(G::FILE_OF_BIT[next as usize])
                        - i32::from(G::FILE_OF_BIT[previous as usize]);
                    assert_eq!(row_step.abs(), 1);
                    assert_eq!(file_step.abs(), 1);
                    previous = next;
                }
            }
        }
    }

    fn ray_in_order<G: Geometry>(bit: u32, direction: Direction) -> Vec<u32> {
        let mut squares: Vec<u32> = G::RAYS[bit as usize][direction as usize].iter().collect();
        if G::delta(direction) < 0 {
            squares.reverse();
        }
        squares
    }

    #[test]
    fn all_geometries_are_consistent() {
        squares_round_trip::<Board8>();
        squares_round_trip::<Board10>();
        squares_round_trip::<Board12>();
        rays_are_diagonals::<Board8>();
        rays_are_diagonals::<Board10>();
        rays_are_diagonals::<Board12>();
    }

    #[test]
    fn international_long_diagonal() {
        // FMJD art. 2.4/2.6: the long diagonal runs from 46 (a1) to 5 (j10).
        let from = Board10::bit_of(46).expect("square 46");
        let diagonal: Vec<u32> = ray_in_order::<Board10>(from, Direction::UpRight)
            .into_iter()
            .map(Board10::square_of)
            .collect();
        assert_eq!(diagonal, vec![41, 37, 32, 28, 23, 19, 14, 10, 5]);
        assert_eq!(Board10::FILE_OF_BIT[from as usize], 0);
        assert_eq!(Board10::ROW_OF_BIT[from as usize], 9);
    }

    fn orthogonal_squares<G: Geometry>(square: u32, direction: Orthogonal) -> Vec<u32> {
        let bit = G::bit_of(square).expect("on the board");
        let mut squares: Vec<u32> = G::ORTHOGONAL_RAYS[bit as usize][direction as usize]
            .iter()
            .collect();
        if G::orthogonal_delta(direction) < 0 {
            squares.reverse();
        }
        squares.into_iter().map(G::square_of).collect()
    }

    #[test]
    fn orthogonal_rays_follow_rows_and_columns() {
        // Frisian rules: the next same-coloured square along a column is 10 numbers away, along a
        // row the neighbouring number, and rows do not wrap.
        assert_eq!(
            orthogonal_squares::<Board10>(34, Orthogonal::Up),
            vec![24, 14, 4]
        );
        assert_eq!(
            orthogonal_squares::<Board10>(34, Orthogonal::Down),
            vec![44]
        );
        assert_eq!(
            orthogonal_squares::<Board10>(13, Orthogonal::Left),
            vec![12, 11]
        );
        assert_eq!(
            orthogonal_squares::<Board10>(13, Orthogonal::Right),
            vec![14, 15]
        );
        assert_eq!(
            orthogonal_squares::<Board10>(5, Orthogonal::Right),
            Vec::<u32>::new()
        );
        assert_eq!(
            orthogonal_squares::<Board10>(6, Orthogonal::Left),
            Vec::<u32>::new()
        );
        for bit in Board10::VALID.iter() {
            for direction in Orthogonal::ALL {
                let row = Board10::ROW_OF_BIT[bit as usize];
                let file = Board10::FILE_OF_BIT[bit as usize];
                for next in Board10::ORTHOGONAL_RAYS[bit as usize][direction as usize].iter() {
                    match direction {
                        Orthogonal::Up | Orthogonal::Down => {
                            assert_eq!(Board10::FILE_OF_BIT[next as usize], file);
                        }
                        Orthogonal::Left | Orthogonal::Right => {
                            assert_eq!(Board10::ROW_OF_BIT[next as usize], row);
                        }
                    }
                }
            }
        }
        let origins = Board10::ORTHOGONAL_JUMP_ORIGINS[Orthogonal::Right as usize];
        assert!(origins.has(Board10::bit_of(13).expect("13")));
        assert!(!origins.has(Board10::bit_of(14).expect("14")));
    }

    #[test]
    fn full_board_rows_and_columns() {
        // Square 1 is a8 (bit 0), 64 is h1; rows and columns do not wrap.
        assert_eq!(Board8Full::VALID.count(), 64);
        assert_eq!(Board8Full::square_at(0, 0), Some(1));
        assert_eq!(Board8Full::square_at(7, 7), Some(64));
        let from = Board8Full::bit_of(36).expect("36");
        let right: Vec<u32> = Board8Full::ORTHOGONAL_RAYS[from as usize]
            [Orthogonal::Right as usize]
            .iter()
            .map(Board8Full::square_of)
            .collect();
        assert_eq!(right, vec![37, 38, 39, 40]);
        let up: Vec<u32> = Board8Full::ORTHOGONAL_RAYS[from as usize][Orthogonal::Up as usize]
            .iter()
            .map(Board8Full::square_of)
            .collect();
        assert_eq!(up, vec![4, 12, 20, 28]);
        assert_eq!(Board8Full::orthogonal_delta(Orthogonal::Down), 8);
        let edge = Board8Full::bit_of(8).expect("8");
        assert!(!Board8Full::ORTHOGONAL_STEP_ORIGINS[Orthogonal::Right as usize].has(edge));
        assert!(Board8Full::ORTHOGONAL_STEP_ORIGINS[Orthogonal::Left as usize].has(edge));
        for square in 1..=64 {
            let bit = Board8Full::bit_of(square).expect("on the board");
            let (row, file) = (
                u32::from(Board8Full::ROW_OF_BIT[bit as usize]),
                u32::from(Board8Full::FILE_OF_BIT[bit as usize]),
            );
            assert_eq!(Board8Full::square_at(row, file), Some(square));
        }
    }

    #[test]
    fn canadian_needs_more_than_64_bits() {
        assert_eq!(Board12::USED_BITS, 77);
        assert_eq!(Board10::USED_BITS, 54);
        assert_eq!(Board8::USED_BITS, 35);
    }
}
