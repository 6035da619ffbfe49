//! The transposition table: a fixed array of buckets of packed entries, shared by all search
//! threads without locks.
//!
//! Each entry is two `AtomicU64`: the packed data and the key XOR the data. A reader accepts an
//! entry only if `key ^ data` gives back its own key, so an entry torn by two threads writing at
//! once reads as a miss instead of as wrong data (Hyatt and Mann's lockless hashing).

use crate::core::BitBoard;
use crate::moves::Move;
use std::alloc::Layout;
use std::sync::atomic::{AtomicU64, Ordering};
use thiserror::Error;

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const BUCKET_ENTRIES: usize = 4;
/// Bytes per bucket.
const BUCKET_BYTES: usize = BUCKET_ENTRIES * 16;
/// Generations wrap around at this value (6 bits in the packed data).
const GENERATION_CYCLE: u8 = 64;
/// Smallest table: one bucket.
const MIN_BUCKETS: usize = 1;
/// Bytes per MiB.
const MIB: usize = 1 << 20;
/// Largest table size accepted on any machine, in MiB (1 TiB); [`max_megabytes`] lowers it to
/// the machine's physical memory.
const HARD_MAX_MB: usize = 1 << 20;
/// Assumed physical memory where the system cannot tell, in MiB.
const UNKNOWN_MEMORY_MB: usize = 1 << 16;

/// A table that could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    /// More than the machine's memory (see [`max_megabytes`]).
    #[error("{requested} MiB is more than this machine's memory allows ({max} MiB)")]
    TooLarge {
        /// The size asked for, in MiB.
        requested: usize,
        /// The largest size accepted here, in MiB.
        max: usize,
    },
    /// The system refused the memory.
    #[error("the system cannot give {0} MiB")]
    OutOfMemory(usize),
}

/// The largest table size worth asking for on this machine, in MiB: its physical memory (a
/// larger table could only be swapped or killed by the system), at most 1 TiB.
pub fn max_megabytes() -> usize {
    physical_megabytes()
        .unwrap_or(UNKNOWN_MEMORY_MB)
        .clamp(1, HARD_MAX_MB)
}

#[cfg(unix)]
fn physical_megabytes() -> Option<usize> {
    // SAFETY: sysconf only reads system configuration values; it has no memory effects.
    let (pages, page_size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let pages = usize::try_from(pages).ok()?;
    let page_size = usize::try_from(page_size).ok()?;
    Some(pages.checked_mul(page_size)? / MIB)
}

#[cfg(not(unix))]
fn physical_megabytes() -> Option<usize> {
    None
}

/// Which side of the true score a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored score (fail low).
    Upper = 1,
    /// The true score is at least the stored score (fail high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// The move part of an entry: origin, destination and an 8-bit fingerprint of the captured set,
/// enough to pick the move out of the legal move list (moves with the same origin and destination
/// differ in their captured pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveHint {
    from: u8,
    to: u8,
    captured: u8,
    present: bool,
}

impl MoveHint {
    /// The hint of a move.
    pub fn of<B: BitBoard>(mv: &Move<B>) -> Self {
        MoveHint {
            from: mv.from,
            to: mv.to,
            captured: fingerprint(mv.captured),
            present: true,
        }
    }

    /// Whether `mv` is the move this hint describes.
    #[inline]
    pub fn matches<B: BitBoard>(&self, mv: &Move<B>) -> bool {
        self.present
            && mv.from == self.from
            && mv.to == self.to
            && fingerprint(mv.captured) == self.captured
    }

    /// Whether the hint holds a move.
    pub fn is_some(&self) -> bool {
        self.present
    }
}

fn fingerprint<B: BitBoard>(captured: B) -> u8 {
    let wide = captured.to_u128();
    let folded = (wide as u64) ^ ((wide >> 64) as u64);
    (folded.wrapping_mul(crate::core::mix::GOLDEN_GAMMA) >> 56) as u8
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refutation move, if one was stored.
    pub hint: MoveHint,
    /// Stored score (ply-relative win scores already converted by the caller).
    pub score: i16,
    /// Static evaluation, if stored.
    pub eval: i16,
    /// Remaining depth of the search that stored it.
    pub depth: u8,
    /// Kind of score.
    pub bound: Bound,
}

/// Packed data word (64 bits): score 16 | eval 16 | depth 8 | bound 2 | generation 6 |
/// origin + 1 (0 = no move) 8 | destination 8. The captured-set fingerprint of the move lives in
/// the low byte of the key word.
fn pack(entry: &Entry, generation: u8) -> u64 {
    let from = if entry.hint.present {
        u64::from(entry.hint.from) + 1
    } else {
        0
    };
    (u64::from(entry.score as u16))
        | (u64::from(entry.eval as u16) << 16)
        | (u64::from(entry.depth) << 32)
        | ((entry.bound as u64) << 40)
        | (u64::from(generation % GENERATION_CYCLE) << 42)
        | ((from & 0xFF) << 48)
        | (u64::from(entry.hint.to) << 56)
}

/// Unpacks a data word, with the fingerprint from the key word; also returns the generation.
fn unpack(data: u64, captured: u8) -> (Entry, u8) {
    let from = ((data >> 48) & 0xFF) as u8;
    let bound = match (data >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    (
        Entry {
            hint: MoveHint {
                from: from.wrapping_sub(1),
                to: (data >> 56) as u8,
                captured,
                present: from != 0,
            },
            score: data as u16 as i16,
            eval: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            bound,
        },
        ((data >> 42) & 0x3F) as u8,
    )
}

/// Key bits stored for verification: the upper 56 bits of the hash; the low byte of the key word
/// carries the captured-set fingerprint of the move.
const KEY_MASK: u64 = !0xFF;

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// One cache line of entries, aligned so that a probe touches exactly one line.
#[repr(align(64))]
struct Bucket([Slot; BUCKET_ENTRIES]);

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

/// The shared table.
pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU64,
}

/// The table's memory: `len` zeroed buckets, 64-byte aligned, owned.
///
/// On Unix it is an anonymous mapping: page-aligned, zeroed by the system page by page as the
/// search first touches it (the global allocator would write every byte of an over-aligned
/// block itself), and on Linux offered huge pages (fewer TLB misses on random probes).
/// Elsewhere it comes from the global allocator, zeroed.
struct Buckets {
    memory: std::ptr::NonNull<Bucket>,
    len: usize,
}

// SAFETY: `Buckets` owns its memory like a `Box<[Bucket]>`, and `Bucket` is made of atomics,
// which are `Send` and `Sync`.
unsafe impl Send for Buckets {}
// SAFETY: as above: shared access only reads or writes through atomics.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `count` (at least one) zeroed buckets, or `None` when the system refuses the memory.
    fn zeroed(count: usize) -> Option<Self> {
        let layout = Layout::array::<Bucket>(count).ok()?;
        let memory = std::ptr::NonNull::new(Self::allocate(layout)?)?;
        Some(Buckets { memory, len: count })
    }

    #[cfg(unix)]
    fn allocate(layout: Layout) -> Option<*mut Bucket> {
        // SAFETY: an anonymous private mapping of a non-zero size at an address of the system's
        // choosing touches no existing memory; failure is reported as MAP_FAILED.
        let memory = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                layout.size(),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if memory == libc::MAP_FAILED {
            return None;
        }
        #[cfg(target_os = "linux")]
        // SAFETY: advice on a mapping this function owns; it changes no contents. A refusal
        // (no transparent huge pages) leaves ordinary pages, so its result is ignored.
        unsafe {
            libc::madvise(memory, layout.size(), libc::MADV_HUGEPAGE);
        }
        // Page-aligned, so the 64-byte alignment of the buckets holds.
        Some(memory.cast::<Bucket>())
    }

    #[cfg(not(unix))]
    fn allocate(layout: Layout) -> Option<*mut Bucket> {
        // SAFETY: the layout has a non-zero size (at least one 64-byte bucket).
        Some(unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>())
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `memory` holds `len` buckets, initialised (all-zero bytes are valid atomics)
        // and alive as long as `self`.
        unsafe { std::slice::from_raw_parts(self.memory.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        let layout = Layout::array::<Bucket>(self.len).expect("the layout was valid when made");
        #[cfg(unix)]
        // SAFETY: the mapping was made by `allocate` with this size and is no longer used.
        unsafe {
            libc::munmap(self.memory.as_ptr().cast(), layout.size());
        }
        #[cfg(not(unix))]
        // SAFETY: allocated by `allocate` with this layout, and no longer used.
        unsafe {
            std::alloc::dealloc(self.memory.as_ptr().cast(), layout);
        }
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket). When the system cannot give that
    /// much, the largest halved size it can give is used instead, with a warning: callers that
    /// must report the failure use [`TranspositionTable::try_new`].
    pub fn new(megabytes: usize) -> Self {
        let mut size = megabytes.min(max_megabytes());
        loop {
            match Self::try_new(size) {
                Ok(table) => {
                    if size != megabytes {
                        log::warn!("hash: {megabytes} MiB cannot be had; using {size} MiB");
                    }
                    return table;
                }
                Err(_) => size /= 2,
            }
        }
    }

    /// A table of about `megabytes` MiB (at least one bucket), or why it cannot be had. Never
    /// aborts: the memory is asked for fallibly, and (on Unix) it is zeroed by the system as it
    /// is first touched, so pages the search never touches cost nothing.
    ///
    /// # Errors
    /// [`TableError::TooLarge`] beyond [`max_megabytes`], [`TableError::OutOfMemory`] when the
    /// system refuses.
    pub fn try_new(megabytes: usize) -> Result<Self, TableError> {
        let max = max_megabytes();
        if megabytes > max {
            return Err(TableError::TooLarge {
                requested: megabytes,
                max,
            });
        }
        let bytes = megabytes
            .checked_mul(MIB)
            .ok_or(TableError::OutOfMemory(megabytes))?;
        let count = (bytes / BUCKET_BYTES).max(MIN_BUCKETS);
        let buckets = Buckets::zeroed(count).ok_or(TableError::OutOfMemory(megabytes))?;
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU64::new(0),
        })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len * BUCKET_BYTES
    }

    fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.buckets
            .as_slice()
            .iter()
            .flat_map(|bucket| bucket.0.iter())
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for slot in self.slots() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) % u64::from(GENERATION_CYCLE)) as u8
    }

    #[inline(always)]
    fn bucket(&self, hash: u64) -> &[Slot; BUCKET_ENTRIES] {
        let index = ((u128::from(hash) * self.buckets.len as u128) >> 64) as usize;
        &self.buckets.as_slice()[index].0
    }

    /// Starts loading the bucket of `hash` into the cache, ahead of a probe.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        crate::core::cache::prefetch(self.bucket(hash));
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        for slot in self.bucket(hash) {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed) ^ data;
            if check & KEY_MASK == hash & KEY_MASK && data != 0 {
                return Some(unpack(data, check as u8).0);
            }
        }
        None
    }

    /// Stores a search result, replacing the same position or the least valuable entry of the
    /// bucket (oldest generation first, then shallowest).
    #[inline]
    pub fn store(&self, hash: u64, entry: Entry) {
        let generation = self.current_generation();
        let bucket = self.bucket(hash);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (index, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed) ^ data;
            if data == 0 || check & KEY_MASK == hash & KEY_MASK {
                if data != 0 {
                    let (old, _) = unpack(data, check as u8);
                    // Keep a deeper result of the same position unless this one is exact, and
                    // keep the old move when the new result has none.
                    if old.depth > entry.depth.saturating_add(2) && entry.bound != Bound::Exact {
                        return;
                    }
                    if !entry.hint.present && old.hint.present {
                        let mut merged = entry;
                        merged.hint = old.hint;
                        write(slot, hash, &merged, generation);
                        return;
                    }
                }
                write(slot, hash, &entry, generation);
                return;
            }
            let (old, old_generation) = unpack(data, check as u8);
            let age =
                i32::from((generation + GENERATION_CYCLE - old_generation) % GENERATION_CYCLE);
            let worth = i32::from(old.depth) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = index;
            }
        }
        write(&bucket[victim], hash, &entry, generation);
    }

    /// Permille of the first thousand slots used in the current search (Hub/UCI "hashfull").
    pub fn usage_permille(&self) -> u32 {
        let generation = self.current_generation();
        let sample = (self.buckets.len * BUCKET_ENTRIES).min(1000);
        let used = self
            .slots()
            .take(sample)
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                data != 0 && unpack(data, 0).1 == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

fn write(slot: &Slot, hash: u64, entry: &Entry, generation: u8) {
    let data = pack(entry, generation);
    let check = (hash & KEY_MASK) | u64::from(entry.hint.captured);
    slot.data.store(data, Ordering::Relaxed);
    slot.check.store(check ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i16, depth: u8, mv: Option<Move<u64>>) -> Entry {
        Entry {
            hint: mv.map(|m| MoveHint::of(&m)).unwrap_or_default(),
            score,
            eval: -score,
            depth,
            bound: Bound::Exact,
        }
    }

    #[test]
    fn entry_round_trip() {
        let table = TranspositionTable::new(1);
        let mv = Move::new(53, 0, 0b1010_0000u64, Move::<u64>::KING);
        table.store(0xDEAD_BEEF_1234_5678, entry(-9_990, 17, Some(mv)));
        let found = table.probe(0xDEAD_BEEF_1234_5678).expect("stored");
        assert_eq!(found.score, -9_990);
        assert_eq!(found.eval, 9_990);
        assert_eq!(found.depth, 17);
        assert_eq!(found.bound, Bound::Exact);
        assert!(found.hint.matches(&mv));
        assert!(!found.hint.matches(&Move::new(53, 0, 0b1100_0000u64, 0)));
        assert!(table.probe(0x1111_2222_3333_4444).is_none());
    }

    #[test]
    fn keeps_the_move_when_a_result_has_none() {
        let table = TranspositionTable::new(1);
        let mv = Move::new(31, 26, 0u64, 0);
        table.store(42 << 8, entry(5, 3, Some(mv)));
        table.store(42 << 8, entry(7, 4, None));
        let found = table.probe(42 << 8).expect("stored");
        assert_eq!(found.score, 7);
        assert!(found.hint.matches(&mv));
    }

    #[test]
    fn replacement_prefers_old_and_shallow() {
        let table = TranspositionTable::new(0);
        assert_eq!(table.bytes(), BUCKET_BYTES);
        for key in 1..=4u64 {
            table.store(key << 8, entry(key as i16, 10 + key as u8, None));
        }
        table.store(9 << 8, entry(9, 1, None));
        assert!(table.probe(1 << 8).is_none(), "shallowest entry replaced");
        assert!(table.probe(9 << 8).is_some());
        table.new_search();
        table.new_search();
        table.store(10 << 8, entry(10, 1, None));
        assert_eq!(table.usage_permille(), 250);
    }

    #[test]
    fn buckets_fill_aligned_cache_lines() {
        let table = TranspositionTable::new(1);
        assert_eq!(std::mem::align_of::<Bucket>(), BUCKET_BYTES);
        for bucket in table.buckets.as_slice().iter().take(16) {
            assert_eq!(std::ptr::from_ref(bucket).addr() % BUCKET_BYTES, 0);
        }
        assert_eq!(table.bytes(), 1 << 20);
    }

    #[test]
    fn impossible_sizes_are_errors_not_aborts() {
        let max = max_megabytes();
        assert_eq!(
            TranspositionTable::try_new(max + 1).err(),
            Some(TableError::TooLarge {
                requested: max + 1,
                max
            })
        );
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
    }
}
