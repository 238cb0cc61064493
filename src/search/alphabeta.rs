//! Alpha-beta in negamax form, fail-hard and fail-soft, with an optional transposition table.
//!
//! With a table, an interior node probes it first: an entry at least as deep as the remaining
//! depth returns its exact score, or raises alpha (lower bound) or lowers beta (upper bound)
//! and cuts off once alpha >= beta (never at the root, which must choose a move). After the
//! search the node stores its score with the bound taken from the window: upper if the score
//! is at most alpha, lower if it reaches beta, exact otherwise (`naive-exact`: always exact),
//! where the window is the node's own, moved only by the bound of a deeper entry. The stored
//! best move is tried first.
//!
//! Principal variation search is the same function with `PVS` on: a node's moves after the
//! first go through `scout` (a null window, then the full window when needed), and a move that
//! the null window shows no better is never searched on the full window.

use super::tt::{score_from_tt, score_to_tt, Bound, NO_MOVE};
use super::{Algorithm, Searcher, TieBreak, Variant};
use crate::games::{Game, INF};

impl<G: Game> Searcher<G> {
    /// Alpha-beta from the root on the window (alpha, beta). Fail-soft returns the best value
    /// seen (possibly outside the window); fail-hard returns a value clamped to [alpha, beta] at
    /// interior nodes.
    pub(crate) fn alphabeta(&mut self, game: &mut G, depth: u32, alpha: i32, beta: i32) -> i32 {
        let pvs = self.spec.algorithm == Algorithm::Pvs;
        match (self.tt.is_some(), self.aux, pvs) {
            (false, false, false) => {
                self.ab::<false, false, false, true>(game, depth, 0, alpha, beta)
            }
            (true, false, false) => {
                self.ab::<true, false, false, true>(game, depth, 0, alpha, beta)
            }
            (false, true, false) => {
                self.ab::<false, true, false, true>(game, depth, 0, alpha, beta)
            }
            (true, true, false) => self.ab::<true, true, false, true>(game, depth, 0, alpha, beta),
            (false, false, true) => {
                self.ab::<false, false, true, true>(game, depth, 0, alpha, beta)
            }
            (true, false, true) => self.ab::<true, false, true, true>(game, depth, 0, alpha, beta),
            (false, true, true) => self.ab::<false, true, true, true>(game, depth, 0, alpha, beta),
            (true, true, true) => self.ab::<true, true, true, true>(game, depth, 0, alpha, beta),
        }
    }

    /// Alpha-beta, monomorphized over what is in use: `TT` (the table) and `AUX` (killers,
    /// history, iterative deepening's principal variation). The plain search compiles all of
    /// their bookkeeping out, and a table alone pays only for its probe and store. `ROOT`: the
    /// root node (ply 0), whose move choice, tie-breaking and stored move are its own; the
    /// nodes below it run without those checks. `PVS`: principal variation search (below).
    fn ab<const TT: bool, const AUX: bool, const PVS: bool, const ROOT: bool>(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.enter(ply).is_err() {
            return 0;
        }
        if let Some(v) = self.leaf_value_window(game, depth, alpha, beta) {
            return v;
        }
        let on_pv = AUX && self.follow_pv;
        let (alpha0, beta0) = (alpha, beta);
        let mut alpha = alpha;
        let mut beta = beta;
        let mut tt_move = NO_MOVE;
        let mut key = 0;
        // The window the stored bound is read against. A bound from an entry of the same depth
        // is what this node's own search would show, so it leaves the window as called: after
        // alpha is raised to such a lower bound, a value at that bound is exact. A deeper
        // entry's bound says nothing about this depth, so it moves the window: a value at most
        // the raised alpha is then only an upper bound.
        let (mut bound_alpha, mut bound_beta) = (alpha, beta);
        if let (true, Some(tt)) = (TT, &self.tt) {
            key = game.key();
            self.counters.tt_probes += 1;
            if let Some(e) = tt.probe(key, &mut self.counters) {
                self.counters.tt_hits += 1;
                tt_move = e.best_move();
                if !ROOT && e.depth() >= depth {
                    let v = score_from_tt(e.score(), ply, self.win_threshold);
                    let cut = match e.bound() {
                        Bound::Exact => true,
                        Bound::Lower => {
                            alpha = alpha.max(v);
                            alpha >= beta
                        }
                        Bound::Upper => {
                            beta = beta.min(v);
                            alpha >= beta
                        }
                    };
                    if cut {
                        self.counters.tt_cutoffs += 1;
                        return match self.spec.variant {
                            Variant::FailSoft => v,
                            Variant::FailHard => v.max(alpha0).min(beta0),
                        };
                    }
                    if e.depth() > depth {
                        (bound_alpha, bound_beta) = (alpha, beta);
                    }
                }
            }
        }
        if TT {
            self.node_tt_move = tt_move;
        }
        let moves = self.order::<TT, AUX>(game, ply);
        let random_root = ROOT && self.spec.tie_break == TieBreak::Random;
        let mut best = -INF;
        // Index in `moves` of the first move reaching `best` (for the table's best move).
        let mut best_i = 0;
        let mut cut = false;
        for (i, &m) in moves.iter().enumerate() {
            // With random tie-breaking the root searches one below alpha, so that a move equal
            // to the best so far returns its exact value.
            let lo = if random_root && self.root_best.is_some() {
                alpha - 1
            } else {
                alpha
            };
            if AUX {
                self.set_follow(on_pv, ply, i, m);
            }
            game.make(m);
            let v = if PVS && i > 0 {
                self.scout::<TT, AUX>(game, depth, ply, lo, beta, on_pv, i, m)
            } else {
                -self.ab::<TT, AUX, PVS, false>(game, depth - 1, ply + 1, -beta, -lo)
            };
            game.unmake(m);
            if self.aborted {
                break;
            }
            let improves = if ROOT {
                self.root_choice(m, v, best)
            } else {
                v > alpha
            };
            if improves {
                self.update_pv(ply, m);
            }
            if v > best {
                best = v;
                best_i = i;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.counters.cutoffs += 1;
                if i == 0 {
                    self.counters.first_move_cutoffs += 1;
                }
                if TT || AUX {
                    self.note_cutoff::<AUX>(game, m, ply, depth, tt_move);
                }
                cut = true;
                break;
            }
        }
        let mut best_move = NO_MOVE;
        if TT && best > -INF {
            best_move = game.move_index(moves[best_i]) as u32;
        }
        self.moves[ply] = moves;
        let value = match self.spec.variant {
            Variant::FailSoft => best,
            Variant::FailHard if cut => beta,
            Variant::FailHard => alpha,
        };
        if TT && !self.aborted {
            if let Some(tt) = &mut self.tt {
                let bound = if tt.naive_exact() {
                    Bound::Exact
                } else {
                    Bound::from_window(value, bound_alpha, bound_beta)
                };
                if ROOT {
                    if let Some(m) = self.root_best {
                        best_move = game.move_index(m) as u32;
                    }
                }
                let stored = score_to_tt(value, ply, self.win_threshold);
                tt.store(key, depth, stored, bound, best_move, &mut self.counters);
            }
        }
        value
    }

    /// Principal variation search of a move after the first (`game`: the position after the
    /// move; `depth`, `ply`: the parent's). The move is searched on the null window
    /// (lo, lo + 1), which only tells whether it beats lo: a score at most lo (fail low) or at
    /// least beta (a cutoff) is all the parent needs. A score strictly between lo and beta from
    /// a child that is not a leaf is only a bound, so the child is searched again on the
    /// parent's window (lo, beta), once: a `research`. A leaf's score (a finished game, or the
    /// horizon, unless quiescence searches on there: chess) is exact on any window, so a leaf
    /// is never searched again.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scout<const TT: bool, const AUX: bool>(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        lo: i32,
        beta: i32,
        on_pv: bool,
        i: usize,
        m: G::Move,
    ) -> i32 {
        let t = -self.ab::<TT, AUX, true, false>(game, depth - 1, ply + 1, -lo - 1, -lo);
        if t <= lo || t >= beta || self.aborted {
            return t;
        }
        // At the horizon quiescence search returns a bound, unless the game has nothing for
        // it to search (no noisy moves, never in check), where it stands pat: exact.
        let horizon_exact = !(self.spec.quiescence.enabled && G::NOISY);
        let leaf = (depth == 1 && horizon_exact) || game.outcome().is_some();
        if leaf {
            return t;
        }
        self.counters.researches += 1;
        if AUX {
            self.set_follow(on_pv, ply, i, m);
        }
        -self.ab::<TT, AUX, true, false>(game, depth - 1, ply + 1, -beta, -lo)
    }
}
