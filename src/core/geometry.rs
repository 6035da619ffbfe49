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
            const RAYS: [[$bits; 4]; TABLE_BITS] = {
                let wide = rays($half, $rows);
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
            };
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

    #[test]
    fn canadian_needs_more_than_64_bits() {
        assert_eq!(Board12::USED_BITS, 77);
        assert_eq!(Board10::USED_BITS, 54);
        assert_eq!(Board8::USED_BITS, 35);
    }
}
