//! Alpha-beta in negamax form, fail-hard and fail-soft.

use super::{Searcher, TieBreak, Variant};
use crate::games::{Game, INF};

impl<G: Game> Searcher<G> {
    /// Alpha-beta on the window (alpha, beta). Fail-soft returns the best value seen (possibly
    /// outside the window); fail-hard returns a value clamped to [alpha, beta] at interior nodes.
    pub(crate) fn alphabeta(
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
        let moves = self.ordered_moves(game, ply);
        let random_root = ply == 0 && self.spec.tie_break == TieBreak::Random;
        let mut alpha = alpha;
        let mut best = -INF;
        let mut cut = false;
        for (i, &m) in moves.iter().enumerate() {
            // With random tie-breaking the root searches one below alpha, so that a move equal
            // to the best so far returns its exact value.
            let lo = if random_root && self.root_best.is_some() {
                alpha - 1
            } else {
                alpha
            };
            game.make(m);
            let v = -self.alphabeta(game, depth - 1, ply + 1, -beta, -lo);
            game.unmake(m);
            if self.aborted {
                break;
            }
            let improves = if ply == 0 {
                self.root_choice(m, v, best)
            } else {
                v > alpha
            };
            if improves {
                self.update_pv(ply, m);
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                self.counters.cutoffs += 1;
                if i == 0 {
                    self.counters.first_move_cutoffs += 1;
                }
                cut = true;
                break;
            }
        }
        self.moves[ply] = moves;
        match self.spec.variant {
            Variant::FailSoft => best,
            Variant::FailHard if cut => beta,
            Variant::FailHard => alpha,
        }
    }
}
