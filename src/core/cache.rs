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

/// Size of a transparent huge page on x86-64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back a vector's allocated capacity with huge pages (where the system
/// allows them on request): probes that land anywhere in gigabytes of tables then miss the TLB
/// far less often. Call it before the memory is written, so the pages are huge from the start.
/// Only a hint: nothing changes on other systems or when the kernel declines.
pub fn advise_huge_pages<T>(vector: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let start = vector.as_mut_ptr() as usize;
        let end = start + vector.capacity() * std::mem::size_of::<T>();
        // Whole huge pages inside the allocation only: madvise wants aligned ranges and the
        // pages around the allocation belong to others.
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end / HUGE_PAGE * HUGE_PAGE;
        if last > first {
            // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE only
            // changes how the kernel backs those pages, never their contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (vector, HUGE_PAGE);
}
