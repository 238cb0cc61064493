//! Minimax without pruning: the textbook MAX/MIN form and the negamax form.
//! Both visit the full tree to the given depth; they differ only in bookkeeping, so their
//! counters are equal and their values agree (tests check both).

use super::Searcher;
use crate::games::{Game, Side, INF};

impl<G: Game> Searcher<G> {
    /// Textbook minimax. Values are from MAX's point of view; MAX is `max_side`, the side to
    /// move at the root, so the root value is comparable with negamax's.
    pub(crate) fn minimax(&mut self, game: &mut G, depth: u32, ply: usize, max_side: Side) -> i32 {
        if self.ext {
            self.mm::<true>(game, depth, ply, max_side)
        } else {
            self.mm::<false>(game, depth, ply, max_side)
        }
    }

    /// Minimax; `EXT = false` compiles the iterative-deepening bookkeeping out.
    fn mm<const EXT: bool>(&mut self, game: &mut G, depth: u32, ply: usize, max_side: Side) -> i32 {
        if self.enter(ply).is_err() {
            return 0;
        }
        let maximizing = game.side_to_move() == max_side;
        if let Some(v) = self.leaf_value(game, depth) {
            return if maximizing { v } else { -v };
        }
        let on_pv = EXT && self.follow_pv;
        let moves = self.order::<false, EXT>(game, ply);
        let mut best = if maximizing { -INF } else { INF };
        for (i, &m) in moves.iter().enumerate() {
            if EXT {
                self.set_follow(on_pv, ply, i, m);
            }
            game.make(m);
            let v = self.mm::<EXT>(game, depth - 1, ply + 1, max_side);
            game.unmake(m);
            if self.aborted {
                break;
            }
            if ply == 0 {
                // The root is a MAX node.
                if self.root_choice(m, v, best) {
                    self.update_pv(ply, m);
                }
                best = best.max(v);
            } else if (maximizing && v > best) || (!maximizing && v < best) {
                best = v;
                self.update_pv(ply, m);
            }
        }
        self.moves[ply] = moves;
        best
    }

    /// Negamax: every node maximizes the negated values of its children.
    pub(crate) fn negamax(&mut self, game: &mut G, depth: u32, ply: usize) -> i32 {
        if self.ext {
            self.nm::<true>(game, depth, ply)
        } else {
            self.nm::<false>(game, depth, ply)
        }
    }

    /// Negamax; `EXT = false` compiles the iterative-deepening bookkeeping out.
    fn nm<const EXT: bool>(&mut self, game: &mut G, depth: u32, ply: usize) -> i32 {
        if self.enter(ply).is_err() {
            return 0;
        }
        if let Some(v) = self.leaf_value(game, depth) {
            return v;
        }
        let on_pv = EXT && self.follow_pv;
        let moves = self.order::<false, EXT>(game, ply);
        let mut best = -INF;
        for (i, &m) in moves.iter().enumerate() {
            if EXT {
                self.set_follow(on_pv, ply, i, m);
            }
            game.make(m);
            let v = -self.nm::<EXT>(game, depth - 1, ply + 1);
            game.unmake(m);
            if self.aborted {
                break;
            }
            if ply == 0 {
                if self.root_choice(m, v, best) {
                    self.update_pv(ply, m);
                }
            } else if v > best {
                self.update_pv(ply, m);
            }
            best = best.max(v);
        }
        self.moves[ply] = moves;
        best
    }
}
