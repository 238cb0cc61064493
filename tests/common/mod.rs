//! Helpers shared by the integration tests.

use std::collections::HashSet;

use harness::games::tictactoe::{Scale, TicTacToe};
use harness::games::Game;

/// Every tic-tac-toe position reachable from the empty board (5,478 of them), each once with
/// its ply, in depth-first order from the empty board (first).
pub fn reachable_tictactoe(scale: Scale) -> Vec<(TicTacToe, u32)> {
    fn walk(g: &mut TicTacToe, ply: u32, seen: &mut HashSet<u64>, out: &mut Vec<(TicTacToe, u32)>) {
        if !seen.insert(g.key()) {
            return;
        }
        out.push((g.clone(), ply));
        if g.outcome().is_some() {
            return;
        }
        let mut moves = Vec::new();
        g.moves(&mut moves);
        for m in moves {
            g.make(m);
            walk(g, ply + 1, seen, out);
            g.unmake(m);
        }
    }
    let mut out = Vec::new();
    walk(&mut TicTacToe::new(scale), 0, &mut HashSet::new(), &mut out);
    out
}
