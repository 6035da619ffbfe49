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
pub trait Line: Copy + Debug + PartialEq + Eq + 'static {
    /// The other family: at a turn in a capture a piece may switch between the two.
    type Across: Line<Across = Self>;
    /// The four directions of the family.
    const ALL: [Self; 4];
    /// Whether a step can wrap from the end of a row into the next row, so that steps by bit
    /// distance need [`Line::short_jump_origins`] (the diagonals never wrap: the ghost bits
    /// catch them).
    const WRAPS: bool;

    /// The squares from `bit` (exclusive) to the edge of the board in this direction.
    fn ray<G: Geometry>(self, bit: u32) -> G::Bits;
    /// Bit distance of one step in this direction.
    fn delta<G: Geometry>(self) -> i32;
    /// The squares from which a piece can jump a neighbour and land right behind it in this
    /// direction (the two squares after it are on the board). Only needed where [`Line::WRAPS`].
    fn short_jump_origins<G: Geometry>(self) -> G::Bits;
    /// The direction pointing the other way.
    fn opposite(self) -> Self;
    /// The two directions of the family at right angles to this one.
    fn turns(self) -> [Self; 2];
}

impl Line for Direction {
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

impl Line for Orthogonal {
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
    /// Playable squares per row (half the board width).
    const HALF: u32;
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
        let column = 2 * Self::HALF as i32 + 1;
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
        let offset = if row % 2 == 0 { 1 } else { 0 };
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
    fn canadian_needs_more_than_64_bits() {
        assert_eq!(Board12::USED_BITS, 77);
        assert_eq!(Board10::USED_BITS, 54);
        assert_eq!(Board8::USED_BITS, 35);
    }
}
