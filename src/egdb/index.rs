//! Materials and the position index of the endgame databases.
//!
//! A table holds one *material* with the side to move normalised to White: a Black-to-move
//! position is turned half a turn (square `s` becomes `51 - s`) and its colours swapped. Squares
//! are handled as 50-bit masks, bit `s - 1` for square `s` ("square space"), which is independent
//! of the move generator's padded bit layout.
//!
//! The index of a position is a mixed-radix number of four colex (combinatorial) ranks: White's
//! men over the 45 squares 6-50, Black's men over 1-45 (independent of White's: overlaps are index
//! holes), White's kings over the squares the men leave free, Black's kings over what remains.
//! Men squares are ordered by advancement (White's from 50 towards 6, Black's from 1 towards 45),
//! so the colex rank is ordered by the most advanced man first and "leading man on row r" is one
//! contiguous range of that side's men digit (see [`Layout::leading_row_range`]).

use crate::core::bits::{deposit, extract};
use crate::core::{BitBoard, Color};
use crate::position::Position;
use crate::rules::{BitsOf, International};
use std::fmt;

/// Squares of the 10x10 board.
pub const SQUARES: u32 = 50;
/// Squares a man may stand on (all but its own promotion row).
pub const MAN_SQUARES: u32 = 45;
/// Squares per row.
const ROW_SQUARES: u32 = 5;
/// All 50 squares in square space.
const ALL_SQUARES: u64 = (1 << SQUARES) - 1;
/// Most pieces per side a material may have (the index digits are 3 bits each).
pub const MAX_PER_SIDE: u8 = 7;
/// Number of distinct material codes ([`Material::code`]).
pub const MATERIAL_CODES: usize = 1 << 12;

/// Binomial coefficients C(n, k) for n <= 50, k <= 7.
const BINOMIAL: [[u64; 8]; 51] = {
    let mut table = [[0u64; 8]; 51];
    let mut n = 0;
    while n <= 50 {
        table[n][0] = 1;
        let mut k = 1;
        while k < 8 {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

/// C(n, k) (0 when k > n).
#[inline(always)]
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// Piece counts of a table: White (the side to move) men and kings, Black men and kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White (side to move) men.
    pub wm: u8,
    /// White kings.
    pub wk: u8,
    /// Black men.
    pub bm: u8,
    /// Black kings.
    pub bk: u8,
}

impl Material {
    /// A material from its four counts.
    pub const fn new(wm: u8, wk: u8, bm: u8, bk: u8) -> Self {
        Material { wm, wk, bm, bk }
    }

    /// Parses the four-digit name (`"1201"`: one man and two kings against one king).
    pub fn parse(text: &str) -> Option<Self> {
        let digits: Vec<u8> = text
            .bytes()
            .map(|b| b.wrapping_sub(b'0'))
            .filter(|&d| d <= MAX_PER_SIDE)
            .collect();
        if text.len() != 4 || digits.len() != 4 {
            return None;
        }
        let material = Material::new(digits[0], digits[1], digits[2], digits[3]);
        material.is_valid().then_some(material)
    }

    /// Whether both sides have a piece and neither more than [`MAX_PER_SIDE`].
    pub fn is_valid(&self) -> bool {
        let (white, black) = (self.wm + self.wk, self.bm + self.bk);
        (1..=MAX_PER_SIDE).contains(&white) && (1..=MAX_PER_SIDE).contains(&black)
    }

    /// Total pieces.
    pub fn pieces(&self) -> u32 {
        u32::from(self.wm + self.wk + self.bm + self.bk)
    }

    /// Total men.
    pub fn men(&self) -> u32 {
        u32::from(self.wm + self.bm)
    }

    /// The material with the colours swapped (the table the other side's moves lead to).
    pub fn twin(&self) -> Self {
        Material::new(self.bm, self.bk, self.wm, self.wk)
    }

    /// A dense code below [`MATERIAL_CODES`], for table lookup.
    #[inline(always)]
    pub fn code(&self) -> usize {
        usize::from(self.wm)
            | usize::from(self.wk) << 3
            | usize::from(self.bm) << 6
            | usize::from(self.bk) << 9
    }

    /// Every material with `pieces` pieces (both sides at least one), in build order: men
    /// ascending (a promotion leads to a material with one man fewer, built before), then by
    /// counts.
    pub fn all_with(pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        let n = pieces as u8;
        for men in 0..=n {
            for white in 1..n {
                let black = n - white;
                if white > MAX_PER_SIDE || black > MAX_PER_SIDE {
                    continue;
                }
                for wm in 0..=white.min(men) {
                    let bm = men - wm;
                    if bm > black {
                        continue;
                    }
                    all.push(Material::new(wm, white - wm, bm, black - bm));
                }
            }
        }
        all
    }

    /// The materials a move from this one (White to move) can lead to, other than its twin:
    /// captures (fewer pieces) and promotions (a man fewer, a king more), normalised.
    pub fn dependencies(&self) -> Vec<Material> {
        let mut out = Vec::new();
        if self.wm > 0 {
            // A promotion: Black to move in (wm-1, wk+1 | bm, bk), stored as its twin.
            out.push(Material::new(self.bm, self.bk, self.wm - 1, self.wk + 1));
        }
        // Captures by White of any subset of Black's pieces (a capturing man may also promote).
        for taken_men in 0..=self.bm {
            for taken_kings in 0..=self.bk {
                if taken_men + taken_kings == 0 || taken_men + taken_kings == self.bm + self.bk {
                    continue;
                }
                let (bm, bk) = (self.bm - taken_men, self.bk - taken_kings);
                out.push(Material::new(bm, bk, self.wm, self.wk));
                if self.wm > 0 {
                    out.push(Material::new(bm, bk, self.wm - 1, self.wk + 1));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}{}", self.wm, self.wk, self.bm, self.bk)
    }
}

/// The four piece sets of a normalised position in square space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squares {
    /// White (side to move) men.
    pub wm: u64,
    /// White kings.
    pub wk: u64,
    /// Black men.
    pub bm: u64,
    /// Black kings.
    pub bk: u64,
}

/// Square `s` becomes `51 - s`: the half turn of the board.
#[inline(always)]
fn turn(mask: u64) -> u64 {
    mask.reverse_bits() >> (u64::BITS - SQUARES)
}

/// Squares in a pair of rows.
const PAIR_SQUARES: u32 = 2 * ROW_SQUARES;

/// Bits a pair of rows takes in the Board10 layout: its squares and one ghost bit.
const PAIR_BITS: u32 = PAIR_SQUARES + 1;

/// Board10 bit layout (one ghost bit after every ten squares) to square space.
#[inline(always)]
fn to_squares(bits: u64) -> u64 {
    repack_row_pairs(bits, PAIR_BITS, PAIR_SQUARES)
}

/// Square space to the Board10 bit layout.
#[inline(always)]
fn to_bits(squares: u64) -> u64 {
    repack_row_pairs(squares, PAIR_SQUARES, PAIR_BITS)
}

/// The squares of `set`, laid out a pair of rows every `from` bits, laid out a pair of rows every
/// `to` bits.
#[inline(always)]
fn repack_row_pairs(set: u64, from: u32, to: u32) -> u64 {
    let pair_mask: u64 = (1 << PAIR_SQUARES) - 1;
    let mut out = 0;
    let mut pair = 0;
    while pair < SQUARES / PAIR_SQUARES {
        out |= ((set >> (from * pair)) & pair_mask) << (to * pair);
        pair += 1;
    }
    out
}

impl Squares {
    /// The normalised piece sets of a position (any side to move) of a variant played on the
    /// international board layout. The caller checks the variant (see [`super::is_supported`]).
    #[inline]
    pub fn of<R: crate::rules::Rules>(position: &Position<R>) -> Self {
        let get = |set: BitsOf<R>| to_squares(set.to_u128() as u64);
        let us = position.side();
        let them = !us;
        let squares = Squares {
            wm: get(position.men(us)),
            wk: get(position.kings(us)),
            bm: get(position.men(them)),
            bk: get(position.kings(them)),
        };
        if us == Color::White {
            squares
        } else {
            Squares {
                wm: turn(squares.wm),
                wk: turn(squares.wk),
                bm: turn(squares.bm),
                bk: turn(squares.bk),
            }
        }
    }

    /// The material of these sets.
    #[inline(always)]
    pub fn material(&self) -> Material {
        Material::new(
            self.wm.count_ones() as u8,
            self.wk.count_ones() as u8,
            self.bm.count_ones() as u8,
            self.bk.count_ones() as u8,
        )
    }

    /// The normalised sets after White's move `mv` (of [`Squares::position`]): Black to move,
    /// so turned and colour-swapped. Cheaper than playing the move and normalising the result.
    #[inline(always)]
    pub fn after(&self, mv: &crate::moves::Move<u64>) -> Squares {
        let from = to_squares(1 << mv.from);
        let to = to_squares(1 << mv.to);
        let captured = to_squares(mv.captured);
        let (mut wm, mut wk) = (self.wm, self.wk);
        if mv.is_king_move() {
            wk ^= from | to;
        } else if mv.is_promotion() {
            wm ^= from;
            wk |= to;
        } else {
            wm ^= from | to;
        }
        Squares {
            wm: turn(self.bm & !captured),
            wk: turn(self.bk & !captured),
            bm: turn(wm),
            bk: turn(wk),
        }
    }

    /// Calls `visit` with every normalised position from which a quiet move of the side that
    /// just moved (Black here) without promotion leads to these sets (White to move). A superset
    /// is harmless to the generator (it only re-examines positions), so captures available in the
    /// predecessor are not checked; every true predecessor is visited.
    pub fn unmoves(&self, mut visit: impl FnMut(Squares)) {
        use crate::core::{Board10, Direction, Geometry};
        let occupied = to_bits(self.wm | self.wk | self.bm | self.bk);
        let empty = Board10::VALID & !occupied;
        let mut predecessor = |bm: u64, bk: u64| {
            visit(Squares {
                wm: turn(bm),
                wk: turn(bk),
                bm: turn(self.wm),
                bk: turn(self.wk),
            })
        };
        let mut kings = self.bk;
        while kings != 0 {
            let square = kings & kings.wrapping_neg();
            kings &= kings - 1;
            let bit = to_bits(square).trailing_zeros();
            for direction in Direction::ALL {
                let mut reach = crate::movegen::king_reach::<Board10>(bit, direction, empty);
                while reach != 0 {
                    let from = to_squares(reach & reach.wrapping_neg());
                    reach &= reach - 1;
                    predecessor(self.bm, (self.bk & !square) | from);
                }
            }
        }
        let mut men = self.bm;
        while men != 0 {
            let square = men & men.wrapping_neg();
            men &= men - 1;
            let bit = to_bits(square).trailing_zeros();
            for direction in [Direction::UpLeft, Direction::UpRight] {
                let ray = Board10::RAYS[bit as usize][direction as usize];
                if ray == 0 {
                    continue;
                }
                let from = crate::movegen::nearest::<Board10>(ray, direction);
                if empty & (1 << from) != 0 {
                    predecessor((self.bm & !square) | to_squares(1 << from), self.bk);
                }
            }
        }
    }

    /// The position, White to move.
    pub fn position(&self) -> Position<International> {
        Position::from_parts(
            to_bits(self.wm | self.wk),
            to_bits(self.bm | self.bk),
            to_bits(self.wk | self.bk),
            Color::White,
        )
    }
}

/// Colex rank of a set of positions (bit indices of `mask`).
#[inline(always)]
fn colex_rank(mut mask: u64) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while mask != 0 {
        rank += binomial(mask.trailing_zeros(), i);
        mask &= mask - 1;
        i += 1;
    }
    rank
}

/// The set of `k` positions below `n` with colex rank `rank`. Each member is the largest `p`
/// with C(p, i) <= the rank left, found by bisection (a linear scan down from `n` costs up to 50
/// steps a member, and decoding is the generator's most frequent operation).
#[inline(always)]
fn colex_unrank(mut rank: u64, k: u32, n: u32) -> u64 {
    let mut mask = 0;
    let mut above = n;
    for i in (1..=k).rev() {
        let p = if i == 1 {
            rank as u32
        } else {
            // C(i - 1, i) = 0 <= rank, and the answer is below `above`.
            let (mut low, mut high) = (i - 1, above);
            while high - low > 1 {
                let middle = (low + high) / 2;
                if binomial(middle, i) <= rank {
                    low = middle;
                } else {
                    high = middle;
                }
            }
            low
        };
        rank -= binomial(p, i);
        mask |= 1 << p;
        above = p;
    }
    mask
}

/// The subset of `within` that follows `set` in colex order of their members' ranks in
/// `within` (Gosper's next combination, carried through the squares outside `within`); `set`
/// must not be the last subset of its size. The step from one index to the next in
/// [`Layout::for_each`].
#[inline(always)]
fn next_subset(set: u64, within: u64) -> u64 {
    let low = set & set.wrapping_neg();
    // The lowest run of members (consecutive in `within`) clears and its top moves up one.
    let moved = (set | !within).wrapping_add(low) & within;
    // The rest of the run restarts at the bottom of `within`.
    moved | lowest(within, set.count_ones() - moved.count_ones())
}

/// The `k` lowest members of `within` (the colex-first subset of that size).
#[inline(always)]
fn lowest(within: u64, k: u32) -> u64 {
    deposit((1u64 << k) - 1, within)
}

/// The sizes of one material's index digits.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    material: Material,
    black_men: u64,
    white_kings: u64,
    black_kings: u64,
    kings: u64,
    size: u64,
}

impl Layout {
    /// The layout of a valid material.
    pub fn new(material: Material) -> Self {
        let free = SQUARES - material.men();
        let black_men = binomial(MAN_SQUARES, material.bm.into());
        let white_kings = binomial(free, material.wk.into());
        let black_kings = binomial(free - u32::from(material.wk), material.bk.into());
        let kings = white_kings * black_kings;
        let size = binomial(MAN_SQUARES, material.wm.into()) * black_men * kings;
        Layout {
            material,
            black_men,
            white_kings,
            black_kings,
            kings,
            size,
        }
    }

    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of indices, holes included.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Number of king placements per men placement (the stride of the men digits).
    pub fn kings_per_men(&self) -> u64 {
        self.kings
    }

    /// The index of normalised piece sets of this material.
    #[inline]
    pub fn index(&self, squares: &Squares) -> u64 {
        let men = squares.wm | squares.bm;
        let white_men = colex_rank(turn(squares.wm));
        let black_men = colex_rank(squares.bm);
        let free = ALL_SQUARES & !men;
        let white_kings = colex_rank(extract(squares.wk, free));
        let black_kings = colex_rank(extract(squares.bk, free & !squares.wk));
        ((white_men * self.black_men + black_men) * self.white_kings + white_kings)
            * self.black_kings
            + black_kings
    }

    /// The men of an index, `None` for a hole (men on one square).
    #[inline]
    pub fn men(&self, index: u64) -> Option<(u64, u64)> {
        let men = index / self.kings;
        let wm = turn(colex_unrank(
            men / self.black_men,
            self.material.wm.into(),
            MAN_SQUARES,
        ));
        let bm = colex_unrank(men % self.black_men, self.material.bm.into(), MAN_SQUARES);
        (wm & bm == 0).then_some((wm, bm))
    }

    /// The piece sets of an index, `None` for a hole.
    #[inline]
    pub fn squares(&self, index: u64) -> Option<Squares> {
        let (wm, bm) = self.men(index)?;
        Some(self.squares_with_men(index, wm, bm))
    }

    /// The piece sets of an index whose men are known to be `wm`, `bm` ([`Layout::men`]).
    #[inline]
    pub fn squares_with_men(&self, index: u64, wm: u64, bm: u64) -> Squares {
        let kings = index % self.kings;
        let free = ALL_SQUARES & !(wm | bm);
        let free_count = free.count_ones();
        let wk = deposit(
            colex_unrank(
                kings / self.black_kings,
                self.material.wk.into(),
                free_count,
            ),
            free,
        );
        let rest = free & !wk;
        let bk = deposit(
            colex_unrank(
                kings % self.black_kings,
                self.material.bk.into(),
                rest.count_ones(),
            ),
            rest,
        );
        Squares { wm, wk, bm, bk }
    }

    /// Calls `visit` with every non-hole index of `range`, in order, and its piece sets. The
    /// sets are stepped from one index to the next (the black king digit is the fastest, each
    /// in colex order: [`next_subset`]) instead of decoded from every index, and a men
    /// placement that is a hole is skipped whole.
    #[inline]
    pub fn for_each(&self, range: std::ops::Range<u64>, mut visit: impl FnMut(u64, &Squares)) {
        let black_king_count = u32::from(self.material.bk);
        let mut index = range.start;
        while index < range.end {
            let block_end = (index / self.kings + 1) * self.kings;
            let stop = block_end.min(range.end);
            let Some((wm, bm)) = self.men(index) else {
                index = stop;
                continue;
            };
            let free = ALL_SQUARES & !(wm | bm);
            let mut squares = self.squares_with_men(index, wm, bm);
            let mut black_rank = index % self.kings % self.black_kings;
            loop {
                visit(index, &squares);
                index += 1;
                if index == stop {
                    break;
                }
                black_rank += 1;
                if black_rank == self.black_kings {
                    black_rank = 0;
                    squares.wk = next_subset(squares.wk, free);
                    squares.bk = lowest(free & !squares.wk, black_king_count);
                } else {
                    squares.bk = next_subset(squares.bk, free & !squares.wk);
                }
            }
        }
    }

    /// The index range of the positions whose most advanced white man stands on `row` rows from
    /// White's promotion row (1 = squares 6-10, 9 = squares 46-50), or `None` without white men.
    /// Colex order puts the most advanced man's rank first, so the range is contiguous.
    pub fn leading_row_range(&self, row: u32) -> Option<std::ops::Range<u64>> {
        let k = u32::from(self.material.wm);
        if k == 0 || !(1..SQUARES / ROW_SQUARES).contains(&row) {
            return None;
        }
        // White men squares are ordered 50 (position 0) to 6 (position 44); row r holds positions
        // 45 - 5r .. 50 - 5r, so the leading man on row r means highest position in that range.
        let top = MAN_SQUARES - ROW_SQUARES * (row - 1);
        let low = top - ROW_SQUARES;
        let stride = self.black_men * self.kings;
        Some(binomial(low, k) * stride..binomial(top, k) * stride)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_small_materials() {
        for pieces in 2..=3 {
            for material in Material::all_with(pieces) {
                let layout = Layout::new(material);
                let mut legal = 0;
                for index in 0..layout.size() {
                    if let Some(squares) = layout.squares(index) {
                        legal += 1;
                        assert_eq!(squares.material(), material);
                        assert_eq!(layout.index(&squares), index, "{material} {index}");
                        let position = squares.position();
                        assert_eq!(Squares::of(&position), squares);
                        assert_eq!(Squares::of(&position.mirror()), squares);
                        for mv in position.legal_moves().iter() {
                            let child = squares.after(mv);
                            assert_eq!(child, Squares::of(&position.play(mv)));
                            if !mv.is_capture() && !mv.is_promotion() {
                                let mut found = false;
                                child.unmoves(|p| found |= p == squares);
                                assert!(found, "{position:?} {mv:?}");
                            }
                        }
                    }
                }
                assert_eq!(legal, legal_count(material), "{material}");
            }
        }
    }

    /// Kingsrow's count of legal placements (design note, section 1.2).
    fn legal_count(m: Material) -> u64 {
        let (wm, wk, bm, bk) = (m.wm as u32, m.wk as u32, m.bm as u32, m.bk as u32);
        let men: u64 = (0..=bm.min(5))
            .map(|j| binomial(5, j) * binomial(40, bm - j) * binomial(45 - (bm - j), wm))
            .sum();
        men * binomial(50 - wm - bm, bk) * binomial(50 - wm - bm - bk, wk)
    }

    #[test]
    fn stepping_agrees_with_decoding() {
        for material in [
            Material::new(1, 1, 0, 1),
            Material::new(0, 2, 1, 0),
            Material::new(2, 0, 0, 1),
            Material::new(0, 1, 0, 2),
            Material::new(1, 0, 1, 0),
        ] {
            let layout = Layout::new(material);
            let size = layout.size();
            // Ranges that start and end inside men blocks and king digits.
            for range in [0..size, 7..size / 3, size / 3..size - 5] {
                let mut expected = range
                    .clone()
                    .filter_map(|i| layout.squares(i).map(|s| (i, s)));
                layout.for_each(range, |index, squares| {
                    assert_eq!(expected.next(), Some((index, *squares)), "{material}");
                });
                assert_eq!(expected.next(), None, "{material}");
            }
        }
    }

    #[test]
    fn unranking_inverts_ranking() {
        for k in 0..=4 {
            for rank in (0..binomial(45, k)).step_by(97) {
                assert_eq!(colex_rank(colex_unrank(rank, k, 45)), rank, "k {k}");
            }
        }
    }

    #[test]
    fn index_sizes_match_the_design_note() {
        let totals: Vec<(usize, u64, u64)> = (2..=7)
            .map(|n| {
                let all = Material::all_with(n);
                let size = all.iter().map(|&m| Layout::new(m).size()).sum();
                let legal = all.iter().map(|&m| legal_count(m)).sum();
                (all.len(), legal, size)
            })
            .collect();
        assert_eq!(totals[0], (4, 8_845, 8_885));
        assert_eq!(totals[1], (12, 806_300, 813_660));
        assert_eq!(totals[2], (25, 41_971_200, 42_634_900));
        assert_eq!(totals[3], (44, 1_570_600_750, 1_609_693_590));
        assert_eq!(totals[4], (70, 46_198_758_750, 47_890_038_930));
        assert_eq!(totals[5], (104, 1_119_691_797_720, 1_176_992_056_680));
    }

    #[test]
    fn leading_row_ranges_are_the_leading_man() {
        let layout = Layout::new(Material::new(2, 0, 1, 1));
        let mut covered = 0;
        for row in 1..10 {
            let range = layout.leading_row_range(row).expect("white men");
            covered += range.end - range.start;
            for index in [range.start, range.end - 1] {
                let (wm, _) = match layout.men(index) {
                    Some(men) => men,
                    None => continue,
                };
                let leading_square = wm.trailing_zeros() + 1;
                assert_eq!((leading_square - 1) / ROW_SQUARES, row, "row {row}");
            }
        }
        assert_eq!(covered, layout.size());
    }

    #[test]
    fn material_names_parse() {
        assert_eq!(Material::parse("1201"), Some(Material::new(1, 2, 0, 1)));
        assert_eq!(Material::parse("1200"), None);
        assert_eq!(Material::parse("12x1"), None);
        assert_eq!(Material::parse("120"), None);
    }
}
