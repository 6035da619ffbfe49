//! Tables kept compressed in memory: the file's value stream itself, with a checkpoint every
//! [`BLOCK`] index positions, so a probe decodes at most one block's codes instead of the whole
//! table being unpacked at load. The 6-piece tables take 1.5 GB this way against 12 GB unpacked
//! (2 bits a position); a probe costs a short forward scan.

use super::codec::{self, Step};
use super::index::{Layout, Material};
use super::table::UNKNOWN;

/// Values in a packed byte.
const PACKED: u64 = codec::PACK as u64;

/// Index positions between two checkpoints: a probe scans on average half a block's codes (a
/// packed byte holds five values, a run any number), and the checkpoints take 8 bytes a block.
pub const BLOCK: u64 = 4096;
/// A checkpoint packs the byte offset of the code covering its block's first position (low
/// bits) and how many positions before the block that code starts (high bits).
const OFFSET_BITS: u32 = 32;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

/// One material's values, compressed.
pub struct CompactTable {
    layout: Layout,
    payload: Vec<u8>,
    /// One checkpoint a block, one cache miss to read.
    checkpoints: Vec<u64>,
}

impl CompactTable {
    /// A table over a file's payload of `size` values, the whole stream checked once.
    ///
    /// # Errors
    /// The stream is malformed or does not cover the index exactly.
    pub fn new(material: Material, payload: Vec<u8>, size: u64) -> Result<Self, String> {
        if payload.len() as u64 > OFFSET_MASK {
            return Err("payload too large for the checkpoints' offsets".into());
        }
        let blocks = size.div_ceil(BLOCK) as usize;
        let mut checkpoints = Vec::with_capacity(blocks);
        crate::core::cache::advise_huge_pages(&mut checkpoints);
        let mut too_long = false;
        codec::walk(&payload, size, |first, at, step: Step| {
            // Every block whose first position this code covers starts its scan here.
            let end = first + step.length;
            let mut block = first.div_ceil(BLOCK);
            while block * BLOCK < end && (block as usize) < blocks {
                let back = block * BLOCK - first;
                too_long |= back >> (u64::BITS - OFFSET_BITS) != 0;
                checkpoints.push(back << OFFSET_BITS | at as u64);
                block += 1;
            }
        })?;
        if too_long {
            // A run of more than 2^32 equal values: no table of up to 6 pieces has one.
            return Err("a run too long for the checkpoints".into());
        }
        debug_assert_eq!(checkpoints.len(), blocks, "one checkpoint per block");
        Ok(CompactTable {
            layout: Layout::new(material),
            payload,
            checkpoints,
        })
    }

    /// The index layout.
    #[inline(always)]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The code at `index` (`index` below the layout's size).
    #[inline]
    pub fn get(&self, index: u64) -> u8 {
        let checkpoint = self.checkpoints[(index / BLOCK) as usize];
        let mut first = index / BLOCK * BLOCK - (checkpoint >> OFFSET_BITS);
        let mut at = (checkpoint & OFFSET_MASK) as usize;
        loop {
            // Packed bytes are most of a scan: skip them five values at a time.
            while index >= first + PACKED && self.payload[at] <= codec::PACK_MAX {
                first += PACKED;
                at += 1;
            }
            // The stream was checked whole in `new`: a step cannot fail here.
            let Ok(step) = codec::step(&self.payload, at) else {
                return UNKNOWN;
            };
            if index < first + step.length {
                return codec::value_in(step.code, index - first);
            }
            first += step.length;
            at = step.next;
        }
    }

    /// Bytes of memory the table takes.
    pub fn bytes(&self) -> usize {
        self.payload.len() + self.checkpoints.len() * std::mem::size_of::<u64>()
    }
}
