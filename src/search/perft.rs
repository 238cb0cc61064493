//! Perft: the number of legal move paths of exactly `depth` plies from a position, through
//! the same `Game` trait the searches use (`moves`, `make`, `unmake`).
//!
//! Perft counts move paths, so it ignores rules that end a game while moves remain (chess
//! draws by repetition, the fifty-move rule, insufficient material): it asks only for the
//! legal moves, and a position without any is a dead end. At the last ply it counts the
//! legal moves (`Game::count_moves`) instead of playing them ("bulk counting"), which gives
//! the same figure.
//! One move buffer per ply, reused: no allocation per node.

use crate::games::Game;

/// Reusable per-ply move buffers.
pub struct Perft<G: Game> {
    buffers: Vec<Vec<G::Move>>,
}

impl<G: Game> Perft<G> {
    pub fn new(game: &G, depth: u32) -> Self {
        Perft {
            buffers: (0..depth as usize + 1)
                .map(|_| Vec::with_capacity(game.max_moves()))
                .collect(),
        }
    }

    /// Leaf count of `game` at `depth` (1 at depth 0).
    pub fn count(&mut self, game: &mut G, depth: u32) -> u64 {
        self.count_at(game, depth, 0)
    }

    fn count_at(&mut self, game: &mut G, depth: u32, ply: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let n = if depth == 1 {
            game.count_moves(&mut moves)
        } else {
            moves.clear();
            game.moves(&mut moves);
            let mut n = 0;
            for &m in &moves {
                game.make(m);
                n += self.count_at(game, depth - 1, ply + 1);
                game.unmake(m);
            }
            n
        };
        self.buffers[ply] = moves;
        n
    }

    /// Leaf count below each root move, in natural order, as (move text, count).
    pub fn divide(&mut self, game: &mut G, depth: u32) -> Vec<(String, u64)> {
        if depth == 0 {
            // No move is made at depth 0: nothing to divide.
            return Vec::new();
        }
        let mut moves = Vec::with_capacity(game.max_moves());
        game.moves(&mut moves);
        moves
            .into_iter()
            .map(|m| {
                let text = game.format_move(m);
                game.make(m);
                let n = self.count_at(game, depth.saturating_sub(1), 1);
                game.unmake(m);
                (text, n)
            })
            .collect()
    }
}

/// Leaf count of `game` at `depth`.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    Perft::new(game, depth).count(game, depth)
}
