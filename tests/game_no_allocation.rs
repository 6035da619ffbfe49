//! The draw counters carried along search paths allocate nothing: a counting global allocator
//! sees no allocation while [`DrawCounters::after`] follows a long sequence of moves.

use rafle::game::{DrawCounters, Game};
use rafle::notation::fen;
use rafle::position::Position;
use rafle::rules::International;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct CountingAllocator;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counter has no effect on
// the memory handed out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[test]
fn counters_update_does_not_allocate() {
    // A game with captures, promotions and a lone-king ending, recorded first (allocating), then
    // replayed through the counters alone.
    let start: Position<International> = fen::parse("W:W6,7,8,K46,K47:BK5,23,24").expect("valid");
    let mut game = Game::new(start);
    while game.ply_count() < 60 && game.result().is_none() {
        let mv = game.position().legal_moves()[0];
        game.play(&mv).expect("legal");
    }
    let moves = game.moves().to_vec();
    let positions = game.positions().to_vec();
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let mut counters = DrawCounters::new(&positions[0]);
    let mut drawn = 0;
    for (mv, after) in moves.iter().zip(&positions[1..]) {
        counters = counters.after(mv, after);
        drawn += usize::from(counters.draw_by_counters().is_some());
        drawn += counters.plies_until_draw().unwrap_or(0) as usize;
    }
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(after - before, 0, "DrawCounters::after allocated");
    assert_eq!(counters, game.counters());
    assert!(drawn > 0);
}
