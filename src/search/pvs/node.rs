//! The node search: principal variation search with the table, the draw rules, endgame
//! knowledge and databases, pruning and late move reductions.

use super::*;

impl<R: Rules, E: Evaluator<R>> Searcher<'_, '_, R, E> {
    /// Whether the position at the top of the key stack repeats one since the last irreversible
    /// move (the first repetition already counts as a draw inside the search).
    #[inline]
    pub(super) fn is_repetition(&self, index: usize) -> bool {
        let reversible = usize::from(self.reversible[index]);
        let key = self.keys[index];
        let mut back = 4;
        while back <= reversible {
            if self.keys[index - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// The score of a position the side to move can still move in, when it is decided without
    /// search: drawn by a counter rule (FMJD art. 6.2-6.4; a win by blockade or capture of the
    /// last piece is decided before this), or known by endgame knowledge.
    #[inline]
    pub(super) fn rule_score(node: &Node<R>, ply: usize) -> Option<Score> {
        if node.counters.draw_by_counters().is_some() {
            return Some(DRAW);
        }
        Self::known_score(&node.position, &node.counters, ply)
    }

    /// The score endgame knowledge gives a position without search (lone-king endings), from the
    /// side to move's view.
    #[inline]
    pub(super) fn known_score(
        position: &Position<R>,
        counters: &DrawCounters<R>,
        ply: usize,
    ) -> Option<Score> {
        let lone_king_possible = position.pieces(Color::White).count() == 1
            || position.pieces(Color::Black).count() == 1;
        if !lone_king_possible {
            return None;
        }
        Some(match endgame::lone_king_verdict(position, counters)? {
            EndgameVerdict::Draw => DRAW,
            EndgameVerdict::Win(winner) if winner == position.side() => {
                score::KNOWN_WIN - ply as i32
            }
            EndgameVerdict::Win(_) => -(score::KNOWN_WIN - ply as i32),
        })
    }

    /// The score of a position where the side to move has no legal move.
    #[inline]
    pub(super) fn no_moves_score(ply: usize) -> Score {
        match R::GOAL {
            Goal::Losing => score::win_in(ply as i32),
            Goal::Standard | Goal::FirstKingWins => score::loss_in(ply as i32),
        }
    }

    #[inline]
    pub(super) fn push_key(&mut self, hash: u64, reversible_move: bool) -> usize {
        let index = self.key_count;
        self.keys[index] = hash;
        self.reversible[index] = if reversible_move && index > 0 {
            self.reversible[index - 1] + 1
        } else {
            0
        };
        self.key_count += 1;
        index
    }

    /// The alpha-beta search proper (`PV`: principal-variation node; `ROOT`: the root, which
    /// is a PV node, so that `!PV` also says "not the root").
    pub(super) fn search<const PV: bool, const ROOT: bool>(
        &mut self,
        node: &Node<R>,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_extensions: i32,
    ) -> Score {
        debug_assert!(!ROOT || (PV && ply == 0));
        let (position, counters) = (&node.position, node.counters);
        self.pv_length[ply] = 0;
        if !ROOT {
            if self.stopped {
                return DRAW;
            }
            if self.key_count > 0 && self.is_repetition(self.key_count - 1) {
                return DRAW;
            }
            if R::GOAL == Goal::FirstKingWins && position.kings(!position.side()).any() {
                return score::loss_in(ply as i32);
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.shared.evaluator.evaluate(position);
        }
        // Mate distance pruning: no line from here beats a win already found nearer the root.
        let alpha_floor = score::loss_in(ply as i32);
        let beta_ceiling = score::win_in(ply as i32 + 1);
        if alpha_floor >= beta || beta_ceiling <= alpha {
            return if alpha_floor >= beta {
                alpha_floor
            } else {
                beta_ceiling
            };
        }
        if depth <= 0 {
            return self.quiescence(node, alpha, beta, ply, threat_extensions);
        }
        self.count_node();
        // The table comes before move generation: a cut-off here costs no generation. A stored
        // entry means the node was searched, so it has moves; a rule decision still wins.
        let hash = position.hash() ^ counter_key(&counters);
        let entry = self.shared.table.probe(hash);
        let mut hint = MoveHint::default();
        let mut static_eval = None;
        if let Some(entry) = entry {
            hint = entry.hint;
            if entry.eval != NO_EVAL {
                static_eval = Some(Score::from(entry.eval));
            }
            if !PV
                && i32::from(entry.depth) >= depth
                && let Some(stored) = table_cut(&entry, alpha, beta, ply)
            {
                return Self::rule_score(node, ply).unwrap_or(stored);
            }
        }

        let mut list = MoveList::new();
        if ROOT {
            self.push_root_moves(&mut list);
        } else {
            movegen::generate(position, &mut list);
            counters.restrict(position, &mut list);
        }
        if list.is_empty() {
            return Self::no_moves_score(ply);
        }
        let is_capture = list[0].is_capture();
        if !ROOT && let Some(known) = Self::rule_score(node, ply) {
            return known;
        }
        if let Some((egdb, pieces)) = self.shared.egdb {
            if ROOT {
                crate::search::egdb::filter_root(egdb, position, &mut list);
            } else if !is_capture
                && let Some(known) =
                    crate::search::egdb::quiet_score(egdb, pieces, position, &counters, ply)
            {
                return known;
            }
        }

        // Reverse futility: a quiet position far above beta near the horizon.
        if !PV && !is_capture && depth <= REVERSE_FUTILITY_MAX_DEPTH && !score::is_decisive(beta) {
            // The cheaper test first: an evaluation already known, else the threat (a capture
            // the opponent would have), which spares the evaluation when it forbids the cut.
            let cut = match static_eval {
                Some(eval) => {
                    eval - REVERSE_FUTILITY_MARGIN * depth >= beta && !position.pass().has_capture()
                }
                None => {
                    !position.pass().has_capture() && {
                        let eval = self.shared.evaluator.evaluate(position);
                        static_eval = Some(eval);
                        eval - REVERSE_FUTILITY_MARGIN * depth >= beta
                    }
                }
            };
            if cut && let Some(eval) = static_eval {
                return eval;
            }
        }

        // ProbCut: a shallow search far above beta predicts the deep one.
        if !PV
            && depth >= PROBCUT_MIN_DEPTH
            && !score::is_decisive(alpha)
            && !score::is_decisive(beta)
        {
            let raised = beta + PROBCUT_MARGIN;
            let value = self.search::<false, false>(
                node,
                depth - PROBCUT_REDUCTION,
                raised - 1,
                raised,
                ply,
                threat_extensions,
            );
            if self.stopped {
                return DRAW;
            }
            if value >= raised {
                return value;
            }
        }

        // In a lone-king ending, or when a draw-rule count runs out within the horizon, a win
        // must be found by its shortest line, which reductions (IIR, LMR) would push past the
        // horizon or past the count. These nodes are few and their trees small.
        let full_depth_only = counters.ending().is_some()
            || counters
                .plies_until_draw()
                .is_some_and(|left| left <= depth.max(0) as u32);
        // Internal iterative reduction (see IIR_MIN_DEPTH).
        let depth = if depth >= IIR_MIN_DEPTH && !hint.is_some() && !full_depth_only {
            depth - 1
        } else {
            depth
        };
        // A single legal move costs no depth.
        let next_depth = if list.len() == 1 { depth } else { depth - 1 };
        // Ordered lazily: each move is picked when its turn comes, so a cut-off spares sorting
        // the rest.
        let mut keys = OrderKeys::new();
        self.order_keys(&list, hint, ply, position.side(), &mut keys);
        pick(list.as_mut_slice(), keys.as_mut_slice(), 0);

        // Futility: a quiet node this far below alpha near the horizon searches only the moves
        // that may change the material balance (see FUTILITY_MAX_DEPTH).
        let futile =
            !PV && !is_capture && depth <= FUTILITY_MAX_DEPTH && !score::is_decisive(alpha) && {
                let eval =
                    *static_eval.get_or_insert_with(|| self.shared.evaluator.evaluate(position));
                eval + FUTILITY_MARGIN * depth <= alpha
            };

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = list[0];
        let side = position.side().index();
        for index in 0..list.len() {
            if index > 0 {
                pick(list.as_mut_slice(), keys.as_mut_slice(), index);
            }
            let mv = list[index];
            // Late move pruning: near the horizon, the moves ordered last are not searched.
            if !PV
                && depth <= LATE_MOVE_PRUNING_MAX_DEPTH
                && !is_capture
                && index >= LATE_MOVE_PRUNING_BASE + (depth * depth) as usize
                && !mv.is_promotion()
                && !score::is_decisive(best_score)
            {
                // Every later move is pruned too: promotions come before every other move but
                // the table move (first), and best_score does not change while moves are
                // skipped.
                debug_assert!(list[index..].iter().all(|m| !m.is_promotion()));
                break;
            }
            let child = position.play(&mv);
            if futile && index > 0 && !mv.is_promotion() && !child.has_capture() {
                continue;
            }
            let child_counters = counters.after(&mv, &child);
            self.shared
                .table
                .prefetch(child.hash() ^ counter_key(&child_counters));
            let child_node = Node {
                position: child,
                counters: child_counters,
            };
            let key_index = self.push_key(child.hash(), !mv.is_irreversible());
            debug_assert_eq!(key_index + 1, self.key_count);
            let quiet = !mv.is_capture() && !mv.is_promotion();
            let value = if index == 0 {
                -self.search::<PV, false>(
                    &child_node,
                    next_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    threat_extensions,
                )
            } else {
                let mut reduction = 0;
                if depth >= LMR_MIN_DEPTH
                    && quiet
                    && !full_depth_only
                    && (!PV || index >= LMR_PV_FULL_DEPTH_MOVES)
                    && !self.is_killer(&mv, ply)
                {
                    reduction = i32::from(self.reductions[depth.min(63) as usize][index.min(63)]);
                    if PV {
                        reduction -= 1;
                    } else {
                        let least = if index >= LMR_TWO_PLIES_FROM { 2 } else { 1 };
                        reduction = reduction.max(least);
                    }
                    // A move that has failed low more often than it cut goes shallower still.
                    if self.history[side][usize::from(mv.from)][usize::from(mv.to)] < 0 {
                        reduction += 1;
                    }
                    reduction = reduction.clamp(0, next_depth - 1);
                }
                let mut value = -self.search::<false, false>(
                    &child_node,
                    next_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    threat_extensions,
                );
                if value > alpha && reduction > 0 {
                    value = -self.search::<false, false>(
                        &child_node,
                        next_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        threat_extensions,
                    );
                }
                if PV && value > alpha && value < beta {
                    value = -self.search::<true, false>(
                        &child_node,
                        next_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        threat_extensions,
                    );
                }
                value
            };
            self.key_count -= 1;
            if self.stopped {
                return best_score.max(DRAW.min(alpha));
            }
            if value > best_score {
                best_score = value;
                best_move = mv;
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if value >= beta {
                        if quiet {
                            self.reward(&mv, ply, depth, side, &list[..index]);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched without some of its moves has no true value to keep.
        if !ROOT || !self.excluding() {
            self.shared.table.store(
                hash,
                Entry {
                    hint: MoveHint::of(&best_move),
                    score: score::to_table(best_score, ply as i32) as i16,
                    eval: static_eval.map_or(NO_EVAL, |e| e as i16),
                    depth: depth.clamp(0, i32::from(u8::MAX)) as u8,
                    bound,
                },
            );
        }
        best_score
    }

    /// Whether some root moves are left out (multi-PV, or moves excluded by the caller).
    pub(super) fn excluding(&self) -> bool {
        self.shared.root_moves.narrowed || !self.lines_found.is_empty()
    }

    /// Pushes the moves to search at the root: the search's root moves less the first moves of
    /// the lines already found at this depth (multi-PV), unless that leaves none.
    fn push_root_moves(&self, list: &mut MoveList<BitsOf<R>>) {
        push_without(&self.shared.root_moves.moves, &self.lines_found, list);
    }

    pub(super) fn update_pv(&mut self, ply: usize, mv: Move<BitsOf<R>>) {
        let child_length = self.pv_length[ply + 1];
        self.pv[ply][0] = mv;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=child_length].copy_from_slice(&tail[0][..child_length]);
        self.pv_length[ply] = child_length + 1;
    }
}
