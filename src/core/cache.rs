//! Cache hints for tables far larger than the cache (the transposition table, the endgame
//! generator's values and counters), whose random accesses would otherwise wait one at a time.

/// Starts loading the cache line of `item`, ahead of a read or write of it.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint with no effect on memory; the pointer comes from a live
    // reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            std::ptr::from_ref(item).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
