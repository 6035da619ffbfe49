//! Quiescence: the compulsory captures resolved at the horizon.

use super::*;

impl<R: Rules, E: Evaluator<R>> Searcher<'_, '_, R, E> {
    /// Quiescence: resolve the compulsory captures; in a quiet position stand pat, unless the
    /// opponent threatens a capture, in which case one more full-width ply is searched (a few
    /// times per line at most).
    pub(super) fn quiescence(
        &mut self,
        node: &Node<R>,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_extensions: i32,
    ) -> Score {
        let (position, counters) = (&node.position, node.counters);
        self.count_node();
        if ply > 0 && R::GOAL == Goal::FirstKingWins && position.kings(!position.side()).any() {
            return score::loss_in(ply as i32);
        }
        if ply >= MAX_PLY - 1 {
            return self.shared.evaluator.evaluate(position);
        }
        let must_capture = position.has_capture();
        if !must_capture && movegen::count_quiet(position) == 0 {
            return Self::no_moves_score(ply);
        }
        if ply > 0
            && let Some(known) = Self::rule_score(node, ply)
        {
            return known;
        }
        // The table before generating captures or evaluating: any stored result (every depth is
        // at least quiescence's) that bounds the window answers the node.
        let entry = self
            .shared
            .table
            .probe(position.hash() ^ counter_key(&counters));
        if let Some(entry) = entry
            && let Some(stored) = table_cut(&entry, alpha, beta, ply)
        {
            return stored;
        }
        if !must_capture
            && let Some((egdb, pieces)) = self.shared.egdb
            && let Some(known) =
                crate::search::egdb::quiet_score(egdb, pieces, position, &counters, ply)
        {
            return known;
        }
        if !must_capture {
            if threat_extensions < QUIESCENCE_THREAT_EXTENSIONS && position.pass().has_capture() {
                return self.search::<false, false>(
                    node,
                    1,
                    alpha,
                    beta,
                    ply,
                    threat_extensions + 1,
                );
            }
            self.leaf_plies += ply as u64;
            self.leaves += 1;
            // Stand pat: the static evaluation the table kept for this position, if any, is the
            // same number computed again.
            let stand = match entry {
                Some(entry) if entry.eval != NO_EVAL => Score::from(entry.eval),
                _ => self.shared.evaluator.evaluate(position),
            };
            if stand >= beta
                || threat_extensions > 0
                || R::GOAL != Goal::Standard
                || position.all_kings().any()
            {
                return stand;
            }
            return self.shots(node, stand, alpha, beta, ply, threat_extensions);
        }
        let mut list = MoveList::new();
        movegen::generate_captures(position, &mut list);
        let mut best = -INFINITE;
        for mv in list.iter() {
            let child = position.play(mv);
            let child_counters = counters.after(mv, &child);
            // The child probes the table first thing: start loading its bucket now.
            self.shared
                .table
                .prefetch(child.hash() ^ counter_key(&child_counters));
            let child_node = Node {
                position: child,
                counters: child_counters,
            };
            let value = -self.quiescence(&child_node, -beta, -alpha, ply + 1, threat_extensions);
            if self.stopped {
                return best.max(DRAW.min(alpha));
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// A quiet position below beta, men only: besides standing pat, the side to move may offer
    /// a capture (an exchange or a sacrifice that gains tempo or opens a line, the start of
    /// most combinations). Each such move is resolved by quiescence, the captures it forces
    /// included; the line's budget of extensions bounds how often this happens in it.
    fn shots(
        &mut self,
        node: &Node<R>,
        stand: Score,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_extensions: i32,
    ) -> Score {
        let (position, counters) = (&node.position, node.counters);
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut list = MoveList::new();
        movegen::generate(position, &mut list);
        for mv in list.iter() {
            let child = position.play(mv);
            if !child.has_capture() {
                continue;
            }
            let child_node = Node {
                position: child,
                counters: counters.after(mv, &child),
            };
            let value =
                -self.quiescence(&child_node, -beta, -alpha, ply + 1, threat_extensions + 1);
            if self.stopped {
                return best.max(DRAW.min(alpha));
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
