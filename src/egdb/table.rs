//! Packed values: two bits per position in atomic words, so the generator's threads can resolve
//! positions while others read (a value only ever goes from unknown to final, see
//! [`WdlTable::set`]).

use super::Wdl;
use super::index::{Layout, Material};
use std::sync::atomic::{AtomicU64, Ordering};

/// Values per 64-bit word.
pub const PER_WORD: u64 = 32;
/// Code of a position not resolved yet (also holes and, in tables read from disk, the positions
/// the file leaves undefined).
pub const UNKNOWN: u8 = 0;
/// Code of a win for the side to move.
pub const WIN: u8 = 1;
/// Code of a loss for the side to move.
pub const LOSS: u8 = 2;
/// Code of a draw.
pub const DRAW: u8 = 3;
/// Mask of one value.
const VALUE_MASK: u64 = 3;

/// The code of a value.
#[inline(always)]
pub fn code(value: Wdl) -> u8 {
    match value {
        Wdl::Win => WIN,
        Wdl::Loss => LOSS,
        Wdl::Draw => DRAW,
    }
}

/// The value of a code (`None` for [`UNKNOWN`]).
#[inline(always)]
pub fn value(code: u8) -> Option<Wdl> {
    match code {
        WIN => Some(Wdl::Win),
        LOSS => Some(Wdl::Loss),
        DRAW => Some(Wdl::Draw),
        _ => None,
    }
}

/// The code from the other side's view.
#[inline(always)]
pub fn flip(code: u8) -> u8 {
    match code {
        WIN => LOSS,
        LOSS => WIN,
        other => other,
    }
}

/// One material's values: win, draw, loss or unknown for each position.
pub struct WdlTable {
    layout: Layout,
    words: Vec<AtomicU64>,
}

impl WdlTable {
    /// A table of unknowns.
    pub fn new(material: Material) -> Self {
        let layout = Layout::new(material);
        let words = layout.size().div_ceil(PER_WORD) as usize;
        WdlTable {
            layout,
            words: (0..words).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// A table from packed words ([`WdlTable::to_words`]).
    pub fn from_words(material: Material, words: Vec<u64>) -> Self {
        WdlTable {
            layout: Layout::new(material),
            words: words.into_iter().map(AtomicU64::new).collect(),
        }
    }

    /// The packed words.
    pub fn to_words(&self) -> Vec<u64> {
        self.words
            .iter()
            .map(|w| w.load(Ordering::Relaxed))
            .collect()
    }

    /// The index layout.
    #[inline(always)]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The code at `index`.
    #[inline(always)]
    pub fn get(&self, index: u64) -> u8 {
        let word = self.words[(index / PER_WORD) as usize].load(Ordering::Relaxed);
        ((word >> (2 * (index % PER_WORD))) & VALUE_MASK) as u8
    }

    /// Starts loading the word of `index` into the cache, ahead of a [`WdlTable::get`].
    #[inline(always)]
    pub fn prefetch(&self, index: u64) {
        crate::core::cache::prefetch(&self.words[(index / PER_WORD) as usize]);
    }

    /// Sets the code at `index`, which must be [`UNKNOWN`] (values are final once set, so an OR
    /// suffices and concurrent writers of one word never lose each other's bits).
    #[inline(always)]
    pub fn set(&self, index: u64, code: u8) {
        debug_assert_eq!(self.get(index), UNKNOWN, "a value is set once");
        self.words[(index / PER_WORD) as usize].fetch_or(
            u64::from(code) << (2 * (index % PER_WORD)),
            Ordering::Relaxed,
        );
    }

    /// Sets the code at `index` unless it is known already; whether this call set it. Two
    /// threads may find the same position resolved in one retrograde pass: exactly one of them
    /// learns that it resolved it (and queues it for the next pass).
    #[inline(always)]
    pub fn set_if_unknown(&self, index: u64, code: u8) -> bool {
        let shift = 2 * (index % PER_WORD);
        self.words[(index / PER_WORD) as usize]
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |word| {
                (word >> shift & VALUE_MASK == u64::from(UNKNOWN))
                    .then_some(word | u64::from(code) << shift)
            })
            .is_ok()
    }

    /// Stores the packed codes of word `word` ([`PER_WORD`] positions) in one write: for a
    /// writer that owns those positions (the generator's first pass, chunk by chunk), where an
    /// atomic read-modify-write per position would be wasted.
    #[inline(always)]
    pub fn store_word(&self, word: usize, codes: u64) {
        self.words[word].store(codes, Ordering::Relaxed);
    }

    /// Overwrites the code at `index` (single-threaded repair of values a file left undefined).
    #[inline(always)]
    pub fn replace(&self, index: u64, code: u8) {
        let shift = 2 * (index % PER_WORD);
        let word = &self.words[(index / PER_WORD) as usize];
        let old = word.load(Ordering::Relaxed);
        word.store(
            (old & !(VALUE_MASK << shift)) | (u64::from(code) << shift),
            Ordering::Relaxed,
        );
    }

    /// Bytes of memory the values take.
    pub fn bytes(&self) -> usize {
        self.words.len() * std::mem::size_of::<u64>()
    }
}
