//! The pattern evaluation (international draughts): a linear model whose main terms are weights
//! indexed by the contents of overlapping board regions, in the manner of Scan 2.0.
//!
//! * **Regions** (the weights file names its [`Layout`]): blocks of 4 files at files 0, 2, 4, 6,
//!   4 rows high at rows 0, 2, 4, 6 (8 playable squares, 3^8 states) or 6 rows high at rows 0
//!   and 4 (12 squares, 3^12 states), or 6 rows high at rows 0, 2 and 4 (4x6m; with two tables
//!   a block, 4x6m-side, the shipped weights' layout since patterns-20261207-p); each square
//!   empty, a white man or a black man
//!   (kings are left to the king terms). A block and its twin under the colour mirror (board
//!   turned half a turn, colours swapped) share one table: the block is read as it stands and
//!   adds its weight, the twin is read as the mirror would see it and subtracts it, so the
//!   evaluation is exactly antisymmetric under the colour mirror by construction. In a layout
//!   with tables per side (4x6m-side) a block reads its first table when the side it is read
//!   for (White as it stands, Black for the twin) is to move and its second one otherwise, which
//!   keeps the symmetry.
//! * **Other terms**, White minus Black: men, having a king, further kings, advancement (rows
//!   the men have gone), balance (|sum of file offsets of the men|), king mobility, a king
//!   square table (mirrored for Black), and the side to move.
//! * **Phase.** Every weight has an opening and an endgame value, blended by the rows the men
//!   still have to go (300 at the start, 0 with no men left).
//!
//! Indices are computed from the bitboards at each call, with no allocation: each row's five
//! squares become a base-3 number through a 32-entry table per colour, and a block's index is
//! its rows' pairs of those digits (a 243 x 4 table) put together by Horner's rule. The trainer reads
//! the same [`features`] function, so training and play cannot drift.

use super::layout::*;
use super::weights_file::{PatternWeights, WEIGHT_SCALE};
use crate::core::{BitBoard, Color, Direction, Geometry};
use crate::movegen;
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::score::{EVAL_LIMIT, Score};

/// Rows to go over all men at the start (150 per side); the phase runs from this down to 0.
pub const FULL_TEMPO: i32 = 300;
/// Centre of the files in the balance term (files 0..9, doubled).
const BALANCE_CENTRE: i32 = 9;

/// `TERNARY[bits]`: the base-3 number with digit 1 where `bits` (five squares, left to right)
/// has a bit.
const TERNARY: [u16; 32] = ternary(false);
/// The same with the squares read right to left (the board turned half a turn).
const TERNARY_REVERSED: [u16; 32] = ternary(true);

const fn ternary(reversed: bool) -> [u16; 32] {
    let mut table = [0u16; 32];
    let mut bits = 0;
    while bits < 32 {
        let mut value = 0;
        let mut square = 0;
        let mut power = 1;
        while square < ROW_SQUARES {
            let source = if reversed {
                ROW_SQUARES - 1 - square
            } else {
                square
            };
            if bits >> source & 1 == 1 {
                value += power;
            }
            power *= 3;
            square += 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
}

/// `PAIRS[code][window]`: digits `window` and `window + 1` of a row code, as `d0 + 3 d1`.
const PAIRS: [[u8; WINDOWS]; ROW_STATES] = {
    let mut table = [[0u8; WINDOWS]; ROW_STATES];
    let mut code = 0;
    while code < ROW_STATES {
        let mut window = 0;
        let mut power = 1;
        while window < WINDOWS {
            let low = (code / power) % 3;
            let high = (code / (power * 3)) % 3;
            table[code][window] = (low + 3 * high) as u8;
            power *= 3;
            window += 1;
        }
        code += 1;
    }
    table
};

/// Bit of the first square of each row (one ghost bit follows every pair of rows).
const ROW_START: [u32; ROWS] = {
    let mut table = [0u32; ROWS];
    let mut row = 0;
    while row < ROWS {
        table[row] = (ROW_SQUARES * row + row / 2) as u32;
        row += 1;
    }
    table
};

/// `SKEW[row parity][bits]`: sum of `2 file - 9` over the squares of a row's bits (even rows,
/// counted from Black's side, start on file 1).
const SKEW: [[i8; 32]; 2] = {
    let mut table = [[0i8; 32]; 2];
    let mut parity = 0;
    while parity < 2 {
        let offset = if parity == 0 { 1 } else { 0 };
        let mut bits = 0;
        while bits < 32 {
            let mut sum = 0i32;
            let mut square = 0;
            while square < ROW_SQUARES {
                if bits >> square & 1 == 1 {
                    sum += 2 * (2 * square as i32 + offset) - BALANCE_CENTRE;
                }
                square += 1;
            }
            table[parity][bits] = sum as i8;
            bits += 1;
        }
        parity += 1;
    }
    table
};

/// Bit positions of a row's square bits (one ghost bit follows every pair of rows, see
/// [`ROW_START`]).
const fn square_bit(square_index: usize) -> u32 {
    (square_index + square_index / (2 * ROW_SQUARES)) as u32
}

/// Entries of a block's bits-to-ternary table (every set of a block's squares).
const BLOCK_SUBSETS: usize = 1 << MAX_BLOCK_SQUARES;

/// The squares of each block as it stands, and of its twin as it lies on the board (the colour
/// mirror turns the board half a turn), as bit masks.
const fn block_masks(layout: &Layout) -> [[u64; 2]; MAX_BLOCKS] {
    let mut masks = [[0u64; 2]; MAX_BLOCKS];
    let mut group = 0;
    while group < layout.own_block_rows.len() {
        let top = layout.own_block_rows[group];
        let mut window = 0;
        while window < WINDOWS {
            let mut row = top;
            while row < top + layout.block_rows {
                let mut offset = 0;
                while offset < BLOCK_WIDTH {
                    let index = ROW_SQUARES * row + window + offset;
                    masks[group * WINDOWS + window][0] |= 1 << square_bit(index);
                    masks[group * WINDOWS + window][1] |= 1 << square_bit(SQUARES - 1 - index);
                    offset += 1;
                }
                row += 1;
            }
            window += 1;
        }
        group += 1;
    }
    masks
}

/// `[reversed][bits]`: the base-3 number with digit 1 where the `squares` block squares `bits`
/// (lowest bit first) have a bit, read in order or, for a twin, in reverse order.
const fn block_ternary(squares: usize) -> [[u32; BLOCK_SUBSETS]; 2] {
    let mut table = [[0u32; BLOCK_SUBSETS]; 2];
    let mut bits = 0;
    while bits < 1 << squares {
        let mut square = 0;
        let mut power = 1;
        while square < squares {
            if bits >> square & 1 == 1 {
                table[0][bits] += power;
            }
            if bits >> (squares - 1 - square) & 1 == 1 {
                table[1][bits] += power;
            }
            power *= 3;
            square += 1;
        }
        bits += 1;
    }
    table
}

/// A layout known at compile time, so that the evaluation's loops and tables are constants.
trait Blocks {
    const LAYOUT: Layout;
    fn masks() -> &'static [[u64; 2]; MAX_BLOCKS];
    fn ternary() -> &'static [[u32; BLOCK_SUBSETS]; 2];
}

/// A layout's [`Blocks`] type, with its masks and ternary tables as statics.
macro_rules! blocks {
    ($name:ident, $layout:path, $masks:ident, $ternary:ident) => {
        #[doc = concat!("[`", stringify!($layout), "`] at compile time.")]
        struct $name;
        static $masks: [[u64; 2]; MAX_BLOCKS] = block_masks(&$layout);
        static $ternary: [[u32; BLOCK_SUBSETS]; 2] = block_ternary($layout.block_squares());

        impl Blocks for $name {
            const LAYOUT: Layout = $layout;
            fn masks() -> &'static [[u64; 2]; MAX_BLOCKS] {
                &$masks
            }
            fn ternary() -> &'static [[u32; BLOCK_SUBSETS]; 2] {
                &$ternary
            }
        }
    };
}

blocks!(Blocks4x4, BLOCKS_4X4, MASKS_4X4, TERNARY_4X4);
blocks!(Blocks4x6, BLOCKS_4X6, MASKS_4X6, TERNARY_4X6);
blocks!(Blocks4x6m, BLOCKS_4X6M, MASKS_4X6M, TERNARY_4X6M);
blocks!(
    Blocks4x6mSide,
    BLOCKS_4X6M_SIDE,
    MASKS_4X6M_SIDE,
    TERNARY_4X6M_SIDE
);

/// The table sets a position's blocks read in `layout`: `[as they stand, twins]` (see
/// [`Layout::table`]).
#[inline(always)]
fn table_sets<R: Rules>(layout: &Layout, position: &Position<R>) -> [usize; 2] {
    match (layout.per_side, position.side()) {
        (false, _) => [0, 0],
        (true, Color::White) => [0, 1],
        (true, Color::Black) => [1, 0],
    }
}

/// Which coordinate of a square a set of bit planes weighs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Coordinate {
    Row,
    File,
}

/// Bit planes of a coordinate: the squares whose row (or file, 0-9) has bit `k` set, so that
/// `Σ row × |men ∩ row|` is `Σ 2^k × |men ∩ planes[k]|`.
const fn planes(coordinate: Coordinate) -> [u64; 4] {
    let mut planes = [0u64; 4];
    let mut index = 0;
    while index < SQUARES {
        let row = index / ROW_SQUARES;
        // Even rows (counted from Black's side) start on file 1.
        let file = 2 * (index % ROW_SQUARES) + if row.is_multiple_of(2) { 1 } else { 0 };
        let value = match coordinate {
            Coordinate::Row => row,
            Coordinate::File => file,
        };
        let mut k = 0;
        while k < 4 {
            if value >> k & 1 == 1 {
                planes[k] |= 1 << square_bit(index);
            }
            k += 1;
        }
        index += 1;
    }
    planes
}

/// [`planes`] of the rows (advancement and phase).
const ROW_PLANES: [u64; 4] = planes(Coordinate::Row);
/// [`planes`] of the files (balance).
const FILE_PLANES: [u64; 4] = planes(Coordinate::File);

/// `Σ plane value × |bits ∩ plane|` over weighted planes (row or file sums).
#[inline(always)]
fn plane_sum(bits: u64, planes: &[u64; 4]) -> i32 {
    let mut sum = 0;
    let mut k = 0;
    while k < 4 {
        sum += ((bits & planes[k]).count_ones() << k) as i32;
        k += 1;
    }
    sum
}

/// The bits of `bits` under `mask`, packed to the low end in order, as an index.
#[inline(always)]
fn extract(bits: u64, mask: u64) -> usize {
    crate::core::bits::extract(bits, mask) as usize
}

/// Whether the pattern evaluation applies to the variant (it is laid out for international
/// draughts only).
#[inline(always)]
pub fn applies<R: Rules>() -> bool {
    R::VARIANT == Some(Variant::International)
}

/// The board as 64-bit words (the variant has the 10x10 layout when [`applies`] holds).
#[inline(always)]
fn word<R: Rules>(set: crate::rules::BitsOf<R>) -> u64 {
    set.to_u128() as u64
}

/// Calls `add(parameter, value)` for every non-zero term of the position in `layout`, White's
/// view. The score is the sum of `value * weight[parameter]`, each weight blended by [`phase`].
///
/// Only for international draughts ([`applies`]).
#[inline(always)]
pub fn features<R: Rules>(
    layout: &Layout,
    position: &Position<R>,
    mut add: impl FnMut(usize, i32),
) {
    let white = word::<R>(position.men(Color::White));
    let black = word::<R>(position.men(Color::Black));
    // Row codes as they stand, and as the colour mirror sees them (`mirrored[r]` is row r of
    // the mirrored position).
    let mut codes = [0usize; ROWS];
    let mut mirrored = [0usize; ROWS];
    let mut advancement = 0;
    let mut skew = [0i32; 2];
    for row in 0..ROWS {
        let w = (white >> ROW_START[row]) as usize & 31;
        let b = (black >> ROW_START[row]) as usize & 31;
        codes[row] = usize::from(TERNARY[w] + 2 * TERNARY[b]);
        mirrored[ROWS - 1 - row] = usize::from(TERNARY_REVERSED[b] + 2 * TERNARY_REVERSED[w]);
        // White's men advance from row 9 to row 0, Black's the other way.
        advancement +=
            (ROWS - 1 - row) as i32 * w.count_ones() as i32 - row as i32 * b.count_ones() as i32;
        skew[0] += i32::from(SKEW[row % 2][w]);
        skew[1] += i32::from(SKEW[row % 2][b]);
    }
    let index = |rows: &[usize; ROWS], top: usize, window: usize| {
        let mut index = 0;
        for row in (top..top + layout.block_rows).rev() {
            index = index * PAIR_STATES + usize::from(PAIRS[rows[row]][window]);
        }
        index
    };
    let [own_set, twin_set] = table_sets(layout, position);
    for (group, &top) in layout.own_block_rows.iter().enumerate() {
        for window in 0..WINDOWS {
            let block = group * WINDOWS + window;
            add(layout.table(own_set, block) + index(&codes, top, window), 1);
            add(
                layout.table(twin_set, block) + index(&mirrored, top, window),
                -1,
            );
        }
    }

    let white_men = white.count_ones() as i32;
    let black_men = black.count_ones() as i32;
    add(layout.term(Term::Man), white_men - black_men);
    add(layout.term(Term::Advancement), advancement);
    add(layout.term(Term::Balance), skew[0].abs() - skew[1].abs());
    side_and_king_features(layout, position, &mut add);
}

/// The terms that follow the men's: the side to move, and the king terms when there are kings.
#[inline(always)]
fn side_and_king_features<R: Rules>(
    layout: &Layout,
    position: &Position<R>,
    add: &mut impl FnMut(usize, i32),
) {
    let side = if position.side() == Color::White {
        1
    } else {
        -1
    };
    add(layout.term(Term::SideToMove), side);
    if position.all_kings().any() {
        king_features(layout, position, add);
    }
}

/// The weighted sums of a position's features, one per phase, before they are blended.
struct PhaseSums<'w> {
    weights: &'w [[i16; 2]],
    opening: i32,
    endgame: i32,
}

impl<'w> PhaseSums<'w> {
    fn new(weights: &'w [[i16; 2]]) -> Self {
        PhaseSums {
            weights,
            opening: 0,
            endgame: 0,
        }
    }

    #[inline(always)]
    fn add(&mut self, parameter: usize, value: i32) {
        let [opening, endgame] = self.weights[parameter];
        self.opening += value * i32::from(opening);
        self.endgame += value * i32::from(endgame);
    }
}

/// The king terms of [`features`] (placement, first king, further kings, mobility).
#[inline(always)]
fn king_features<R: Rules>(
    layout: &Layout,
    position: &Position<R>,
    add: &mut impl FnMut(usize, i32),
) {
    type G<R> = <R as Rules>::Geometry;
    let empty = position.empty();
    let mut counts = [0i32; 2];
    let mut reach = [0i32; 2];
    for (side, color) in Color::BOTH.into_iter().enumerate() {
        for bit in position.kings(color).iter() {
            counts[side] += 1;
            let square = G::<R>::square_of(bit) as usize;
            match color {
                Color::White => add(layout.king_square() + square - 1, 1),
                Color::Black => add(layout.king_square() + SQUARES - square, -1),
            }
            for direction in Direction::ALL {
                reach[side] += movegen::king_reach::<G<R>>(bit, direction, empty).count() as i32;
            }
        }
    }
    add(
        layout.term(Term::FirstKing),
        i32::from(counts[0] > 0) - i32::from(counts[1] > 0),
    );
    add(
        layout.term(Term::MoreKings),
        (counts[0] - 1).max(0) - (counts[1] - 1).max(0),
    );
    add(layout.term(Term::KingMobility), reach[0] - reach[1]);
}

/// The blend of a position: the endgame share out of [`FULL_TEMPO`] (0 at the start, all of it
/// with no men left), from the rows the men still have to go.
#[inline(always)]
pub fn phase<R: Rules>(position: &Position<R>) -> i32 {
    type G<R> = <R as Rules>::Geometry;
    let mut tempo = 0;
    for row in 0..G::<R>::ROWS {
        let men = |color: Color| (position.men(color) & G::<R>::row(row)).count() as i32;
        // White's men crown on row 0, Black's on the last row.
        tempo +=
            row as i32 * men(Color::White) + (G::<R>::ROWS - 1 - row) as i32 * men(Color::Black);
    }
    (FULL_TEMPO - tempo).clamp(0, FULL_TEMPO)
}

impl PatternWeights {
    /// The pattern evaluation, side-to-move view (international draughts only: see
    /// [`applies`]).
    ///
    /// The same sum as [`features`] gives (checked in debug builds), computed in fewer steps:
    /// each block's index from its squares packed by one bit extraction per colour, and the
    /// row and file sums from popcounts of bit planes.
    #[inline]
    pub fn evaluate<R: Rules>(&self, position: &Position<R>) -> Score {
        match self.layout().id {
            id if id == BLOCKS_4X6.id => self.evaluate_in::<Blocks4x6, R>(position),
            id if id == BLOCKS_4X6M.id => self.evaluate_in::<Blocks4x6m, R>(position),
            id if id == BLOCKS_4X6M_SIDE.id => self.evaluate_in::<Blocks4x6mSide, R>(position),
            _ => {
                debug_assert_eq!(*self.layout(), BLOCKS_4X4);
                self.evaluate_in::<Blocks4x4, R>(position)
            }
        }
    }

    /// [`PatternWeights::evaluate`] with the layout's tables and loop bounds as constants.
    #[inline(always)]
    fn evaluate_in<L: Blocks, R: Rules>(&self, position: &Position<R>) -> Score {
        let layout = &L::LAYOUT;
        let white = word::<R>(position.men(Color::White));
        let black = word::<R>(position.men(Color::Black));
        let mut sums = PhaseSums::new(self.pairs());
        let mut add = |parameter: usize, value: i32| sums.add(parameter, value);
        let ternary = L::ternary();
        let [own_set, twin_set] = table_sets(layout, position);
        for (block, [own, twin]) in L::masks()[..layout.blocks()].iter().enumerate() {
            let index = ternary[0][extract(white, *own)] + 2 * ternary[0][extract(black, *own)];
            add(layout.table(own_set, block) + index as usize, 1);
            let index = ternary[1][extract(black, *twin)] + 2 * ternary[1][extract(white, *twin)];
            add(layout.table(twin_set, block) + index as usize, -1);
        }
        let white_men = white.count_ones() as i32;
        let black_men = black.count_ones() as i32;
        let white_rows = plane_sum(white, &ROW_PLANES);
        let black_rows = plane_sum(black, &ROW_PLANES);
        add(layout.term(Term::Man), white_men - black_men);
        // White's men advance from row 9 to row 0, Black's the other way.
        add(
            layout.term(Term::Advancement),
            (ROWS as i32 - 1) * white_men - white_rows - black_rows,
        );
        let skew = |men: u64, count: i32| 2 * plane_sum(men, &FILE_PLANES) - BALANCE_CENTRE * count;
        add(
            layout.term(Term::Balance),
            skew(white, white_men).abs() - skew(black, black_men).abs(),
        );
        side_and_king_features(layout, position, &mut add);
        let tempo = white_rows + (ROWS as i32 - 1) * black_men - black_rows;
        let stage = (FULL_TEMPO - tempo).clamp(0, FULL_TEMPO);
        debug_assert_eq!(stage, phase(position));
        let score = self.blend(position, sums.opening, sums.endgame, stage);
        debug_assert_eq!(score, self.evaluate_by_features(position));
        score
    }

    /// The evaluation straight from [`features`] and [`phase`]: the definition that
    /// [`PatternWeights::evaluate`] computes faster.
    pub fn evaluate_by_features<R: Rules>(&self, position: &Position<R>) -> Score {
        let mut sums = PhaseSums::new(self.pairs());
        features(self.layout(), position, |parameter, value| {
            sums.add(parameter, value);
        });
        self.blend(position, sums.opening, sums.endgame, phase(position))
    }

    /// The opening and endgame sums blended by `stage`, scaled to centi-men, side-to-move view.
    #[inline(always)]
    fn blend<R: Rules>(
        &self,
        position: &Position<R>,
        opening: i32,
        endgame: i32,
        stage: i32,
    ) -> Score {
        let blended = (i64::from(opening) * i64::from(FULL_TEMPO - stage)
            + i64::from(endgame) * i64::from(stage))
            / (i64::from(FULL_TEMPO) * i64::from(WEIGHT_SCALE));
        let mut score = blended as Score;
        if super::is_lone_king_ending(position) {
            score /= super::weights::LONE_KING_ENDING_DIVISOR;
        }
        let score = if position.side() == Color::White {
            score
        } else {
            -score
        };
        score.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::International;

    type I = International;

    /// Digit of a square: 0 empty (or a king), 1 white man, 2 black man.
    fn digit(position: &Position<I>, square: usize) -> usize {
        let bit = <I as Rules>::Geometry::bit_of(square as u32).expect("on the board");
        if position.men(Color::White).has(bit) {
            1
        } else if position.men(Color::Black).has(bit) {
            2
        } else {
            0
        }
    }

    /// The block index computed square by square from its definition.
    fn reference_index(
        layout: &Layout,
        position: &Position<I>,
        top: usize,
        window: usize,
    ) -> usize {
        let mut index = 0;
        let mut power = 1;
        for row in top..top + layout.block_rows {
            for offset in 0..BLOCK_WIDTH {
                index += power * digit(position, ROW_SQUARES * row + window + offset + 1);
                power *= 3;
            }
        }
        index
    }

    fn pattern_terms(layout: &Layout, position: &Position<I>) -> Vec<(usize, i32)> {
        let mut terms = Vec::new();
        features(layout, position, |parameter, value| {
            if parameter < layout.king_square() {
                terms.push((parameter, value));
            }
        });
        terms
    }

    fn random_positions() -> Vec<Position<I>> {
        let mut out = vec![
            fen::parse::<I>("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46")
                .expect("valid"),
            fen::parse::<I>("W:W15,K46,33:B36,K5").expect("valid"),
        ];
        let mut position = Position::<I>::start();
        let mut seed = 0x9e37_79b9_u64;
        for _ in 0..150 {
            out.push(position);
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            position = position.play(&moves[(seed >> 33) as usize % moves.len()]);
        }
        out
    }

    #[test]
    fn indices_match_the_square_by_square_definition() {
        for layout in &LAYOUTS {
            for position in random_positions() {
                let mirror = position.mirror();
                let mut expected = Vec::new();
                // With tables per side, the second table is for when the viewing side is not to
                // move.
                let set = |viewer: Color| usize::from(layout.per_side && position.side() != viewer);
                for (group, &top) in layout.own_block_rows.iter().enumerate() {
                    for window in 0..WINDOWS {
                        let block = group * WINDOWS + window;
                        let index = reference_index(layout, &position, top, window);
                        expected.push((layout.table(set(Color::White), block) + index, 1));
                        let index = reference_index(layout, &mirror, top, window);
                        expected.push((layout.table(set(Color::Black), block) + index, -1));
                    }
                }
                assert_eq!(pattern_terms(layout, &position), expected, "{position:?}");
            }
        }
    }

    /// Weights with every parameter different (a pseudo-random fill).
    fn scrambled_weights(layout: &'static Layout) -> PatternWeights {
        let mut seed = 12_345_u64;
        let pairs = (0..layout.parameters())
            .map(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                [(seed >> 50) as i16 - 4000, (seed >> 40) as i16 % 3000]
            })
            .collect();
        PatternWeights::from_pairs(layout, pairs).expect("one pair per parameter")
    }

    #[test]
    fn a_position_and_its_colour_mirror_score_alike() {
        let embedded = PatternWeights::embedded();
        for layout in &LAYOUTS {
            let weights = scrambled_weights(layout);
            for position in random_positions() {
                let mirror = position.mirror();
                assert_eq!(
                    weights.evaluate(&position),
                    weights.evaluate(&mirror),
                    "{position:?}"
                );
                assert_eq!(embedded.evaluate(&position), embedded.evaluate(&mirror));
                assert_eq!(phase(&position), phase(&mirror));
            }
        }
    }

    #[test]
    fn the_fast_evaluation_equals_the_features_sum() {
        for layout in &LAYOUTS {
            let weights = scrambled_weights(layout);
            for position in random_positions() {
                assert_eq!(
                    weights.evaluate(&position),
                    weights.evaluate_by_features(&position),
                    "{position:?}"
                );
            }
        }
    }

    #[test]
    fn square_bits_follow_the_geometry() {
        for square in 1..=SQUARES as u32 {
            assert_eq!(
                Some(square_bit(square as usize - 1)),
                <I as Rules>::Geometry::bit_of(square)
            );
        }
    }

    #[test]
    fn phase_runs_from_opening_to_endgame() {
        assert_eq!(phase(&Position::<I>::start()), 0);
        assert_eq!(
            phase(&fen::parse::<I>("W:WK46:BK5").expect("valid")),
            FULL_TEMPO
        );
    }
}
