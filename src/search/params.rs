//! Search tunables: every margin, reduction and limit the search uses, in one place.

/// Deepest iteration.
pub const MAX_DEPTH: i32 = 99;
/// Deepest ply a search line may reach (iteration depth plus extensions and quiescence).
pub const MAX_PLY: usize = 128;
/// Nodes between two checks of the stop flag, the clock and the node limit.
pub const POLL_INTERVAL: u64 = 1024;
/// Iterations from which the root search starts with a narrow window.
pub const ASPIRATION_FROM_DEPTH: i32 = 5;
/// Half-width of the first aspiration window, in centi-men.
pub const ASPIRATION_WINDOW: i32 = 25;
/// Late move reductions apply from this remaining depth on.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Moves searched at full depth in a PV node before reductions start. In other nodes every
/// quiet move after the first may be reduced (as Scan does).
pub const LMR_PV_FULL_DEPTH_MOVES: usize = 4;
/// Outside PV nodes a late quiet move is reduced at least one ply, and at least two from this
/// move index on.
pub const LMR_TWO_PLIES_FROM: usize = 4;
/// Divisor of the logarithmic reduction formula `ln(depth) * ln(move number) / divisor`.
pub const LMR_DIVISOR: f64 = 1.2;
/// Times in a quiescence line that a capture threat against the side to move is answered with a
/// one-ply full-width search instead of standing pat.
pub const QUIESCENCE_THREAT_EXTENSIONS: i32 = 2;
/// Upper bound of the history scores (they are scaled down when they approach it).
pub const HISTORY_LIMIT: i32 = 1 << 20;
/// History scores carried from one search to the next (the next move of the game) are divided
/// by this.
pub const HISTORY_AGE_DIVISOR: i32 = 4;
/// Reverse futility pruning: a quiet non-PV node at this depth or less whose static evaluation
/// beats beta by the margin is cut.
pub const REVERSE_FUTILITY_MAX_DEPTH: i32 = 3;
/// Reverse futility margin per ply of remaining depth, in centi-men.
pub const REVERSE_FUTILITY_MARGIN: i32 = 90;

/// ProbCut: from this remaining depth on, a non-PV node is first searched
/// [`PROBCUT_REDUCTION`] plies shallower with a null window [`PROBCUT_MARGIN`] above beta; a
/// result above that window cuts the node (the shallow search is trusted that far).
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// See [`PROBCUT_MIN_DEPTH`]; in centi-men.
pub const PROBCUT_MARGIN: i32 = 60;
/// See [`PROBCUT_MIN_DEPTH`].
pub const PROBCUT_REDUCTION: i32 = 4;
/// Internal iterative reduction: a node at this remaining depth or more with no table move is
/// searched one ply shallower. Without a table move its move order is a guess; the shallower
/// search costs less and leaves a table move for the next visit, at the next iteration.
pub const IIR_MIN_DEPTH: i32 = 4;
/// Late move pruning: at this remaining depth or less, a non-PV node without a capture to make
/// searches only its first `LATE_MOVE_PRUNING_BASE + depth²` moves (promotions always).
pub const LATE_MOVE_PRUNING_MAX_DEPTH: i32 = 3;
/// See [`LATE_MOVE_PRUNING_MAX_DEPTH`].
pub const LATE_MOVE_PRUNING_BASE: usize = 3;
/// Futility pruning: at this remaining depth or less, in a non-PV node without a capture to
/// make whose static evaluation lies [`FUTILITY_MARGIN`] a ply below alpha, the moves after the
/// first are not searched, but for promotions and the moves that give the opponent a capture (an
/// exchange or a shot, whose outcome the evaluation does not see).
pub const FUTILITY_MAX_DEPTH: i32 = 2;
/// See [`FUTILITY_MAX_DEPTH`]; in centi-men per ply of remaining depth.
pub const FUTILITY_MARGIN: i32 = 80;
