//! The perft / move generation inner loop allocates nothing: a counting global allocator sees no
//! allocation on the perft's thread while it runs (move lists are fixed-capacity arrays on the
//! stack). Allocations are counted per thread, so the test harness's own threads do not count.

use rafle::notation::fen;
use rafle::perft::{Counting, perft};
use rafle::position::Position;
use rafle::rules::International;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct CountingAllocator;

thread_local! {
    // Const-initialised and without destructor, so using it inside the allocator cannot allocate.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_allocation() {
    ALLOCATIONS.with(|count| count.set(count.get() + 1));
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter has no effect on
// the memory handed out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_allocation();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[test]
fn perft_does_not_allocate() {
    let positions = [
        Position::<International>::start(),
        fen::parse("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46").expect("R178"),
        fen::parse("W:W6,7,8,9,10:B41,42,43,44,45").expect("promotion"),
    ];
    for counting in [Counting::DropDuplicates, Counting::KeepDuplicates] {
        for position in &positions {
            let before = allocations();
            let leaves = perft(position, 5, counting);
            let after = allocations();
            assert!(leaves > 0);
            assert_eq!(
                after - before,
                0,
                "allocations during perft of {position:?}"
            );
        }
    }
}

#[test]
fn the_pattern_evaluation_does_not_allocate() {
    use rafle::eval::{Eval, Evaluator};
    let eval = Eval::select("patterns", None).expect("embedded weights");
    let positions = [
        Position::<International>::start(),
        fen::parse("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46").expect("R178"),
        fen::parse("W:W15,K46,33:B36,K5").expect("kings"),
    ];
    let before = allocations();
    let mut sum = 0;
    for position in &positions {
        sum += Evaluator::<International>::evaluate(&eval, position);
    }
    assert_eq!(allocations() - before, 0, "allocations during evaluation");
    assert!(sum.abs() < 100_000);
}
