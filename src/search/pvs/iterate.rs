//! Iterative deepening: one iteration after the other with aspiration windows, the lines of a
//! multi-PV search at each depth, and the decision to stop between iterations.

use super::*;

impl<R: Rules, E: Evaluator<R>> Searcher<'_, '_, R, E> {
    /// Iterative deepening on `root`; reports after each iteration (main thread only).
    pub(in crate::search) fn iterate(
        &mut self,
        root: &Root<R>,
        report: &mut dyn FnMut(&Info<R>),
    ) -> Outcome<R> {
        let shared = self.shared;
        let history = &root.history[root.history.len().saturating_sub(KEY_STACK - MAX_PLY - 2)..];
        for (index, &key) in history.iter().enumerate() {
            self.keys[index] = key;
            self.reversible[index] = index as u16;
        }
        self.key_count = history.len();
        self.push_key(root.position.hash(), !history.is_empty());
        let mut best = shared.root_moves.moves[0];
        let mut pv = vec![best];
        let mut score = 0;
        let mut completed = 0;
        // Multi-PV: each later line's score at the previous depth, its aspiration centre.
        let mut line_scores = vec![0; shared.lines];
        let mut time = shared.time;
        let max_depth = shared
            .limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let mut depth = 1 + (self.id as i32 % 2);
        while depth <= max_depth {
            self.root_depth = depth;
            self.leaf_plies = 0;
            self.leaves = 0;
            let (iteration_score, aborted) =
                self.aspiration(&root.position, root.counters, depth, score);
            if aborted && completed > 0 {
                break;
            }
            if self.pv_length[0] > 0 {
                let new_best = self.pv[0][0];
                let changed = !new_best.same_as(&best);
                let dropped = completed > 0 && iteration_score < score - SCORE_DROP;
                best = new_best;
                pv = self.pv[0][..self.pv_length[0]].to_vec();
                score = iteration_score;
                time.iteration_done(changed && depth > 1, dropped);
            }
            // An aborted first iteration still gives the move (its partial line), but it is not
            // a completed depth: a helper's result is chosen over the main thread's by depth.
            if !aborted {
                completed = depth;
            }
            if self.id == 0 {
                report(&Info {
                    line: 1,
                    depth: depth as u32,
                    mean_depth: if self.leaves > 0 {
                        self.leaf_plies as f64 / self.leaves as f64
                    } else {
                        f64::from(depth)
                    },
                    score,
                    nodes: self.total_nodes(),
                    elapsed: shared.started.elapsed(),
                    pv: pv.clone(),
                });
            }
            if aborted || self.stopped || shared.should_stop() {
                break;
            }
            if shared.lines > 1 && self.more_lines(root, depth, &pv, &mut line_scores, report) {
                break;
            }
            if self.id == 0 && (self.node_limit_reached() || self.time_up_between_iterations(&time))
            {
                break;
            }
            if score::is_game_end(score) && depth > (score::WIN - score.abs()) + 2 {
                // A forced win or loss found well inside the horizon will not change.
                if shared.mode != Mode::Analyze || shared.limits.depth.is_none() {
                    break;
                }
            }
            depth += if self.id == 0 {
                1
            } else {
                1 + (self.id as i32 % 2)
            };
        }
        self.flush_nodes();
        let ponder = pv.get(1).copied().or_else(|| {
            let after = root.position.play(&best);
            let entry = shared.table.probe(after.hash())?;
            after
                .legal_moves()
                .iter()
                .copied()
                .find(|m| entry.hint.matches(m))
        });
        Outcome {
            best: Some(best),
            ponder,
            score,
            depth: completed as u32,
            nodes: self.total_nodes(),
            elapsed: shared.started.elapsed(),
            pv,
        }
    }

    /// Multi-PV: the lines after the first at `depth`, each without the first moves of the lines
    /// before it, reported (main thread) as each completes. Returns whether the search was
    /// stopped in one of them.
    pub(super) fn more_lines(
        &mut self,
        root: &Root<R>,
        depth: i32,
        first: &[Move<BitsOf<R>>],
        scores: &mut [Score],
        report: &mut dyn FnMut(&Info<R>),
    ) -> bool {
        let shared = self.shared;
        self.lines_found.clear();
        self.lines_found.extend(first.first().copied());
        let mut stopped = false;
        for (line, line_score) in scores.iter_mut().enumerate().skip(1) {
            let left = shared
                .root_moves
                .moves
                .iter()
                .any(|mv| !self.lines_found.iter().any(|x| x.same_as(mv)));
            if !left {
                break;
            }
            self.leaf_plies = 0;
            self.leaves = 0;
            let (value, aborted) =
                self.aspiration(&root.position, root.counters, depth, *line_score);
            if aborted {
                stopped = true;
                break;
            }
            if self.pv_length[0] == 0 {
                break;
            }
            *line_score = value;
            let pv = self.pv[0][..self.pv_length[0]].to_vec();
            self.lines_found.push(pv[0]);
            if self.id == 0 {
                report(&Info {
                    line: line + 1,
                    depth: depth as u32,
                    mean_depth: if self.leaves > 0 {
                        self.leaf_plies as f64 / self.leaves as f64
                    } else {
                        f64::from(depth)
                    },
                    score: value,
                    nodes: self.total_nodes(),
                    elapsed: shared.started.elapsed(),
                    pv,
                });
            }
        }
        self.lines_found.clear();
        stopped
    }

    pub(super) fn time_up_between_iterations(&self, time: &TimeManager) -> bool {
        let shared = self.shared;
        if shared.limits.infinite || shared.control.is_pondering() {
            return false;
        }
        time.should_stop_between_iterations(shared.elapsed())
    }

    /// The root search of one iteration, with a window around the previous score that widens on
    /// failure. Returns the score and whether the iteration was aborted.
    pub(super) fn aspiration(
        &mut self,
        position: &Position<R>,
        counters: DrawCounters<R>,
        depth: i32,
        previous: Score,
    ) -> (Score, bool) {
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_FROM_DEPTH && !score::is_decisive(previous) {
                (previous - window, previous + window)
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let root = Node {
                position: *position,
                counters,
            };
            let value = self.search::<true, true>(&root, depth, alpha, beta, 0, 0);
            if self.stopped {
                return (value, true);
            }
            if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - window).max(-INFINITE);
            } else if value >= beta {
                beta = (value + window).min(INFINITE);
            } else {
                return (value, false);
            }
            window *= 2;
            if window > 4 * score::EVAL_LIMIT {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }
}
