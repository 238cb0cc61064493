//! A wrapper that gives every node a new key, so that a transposition table never finds a
//! position it stored: a device for measuring the table (its pure cost in the benchmarks,
//! `benches/tt.rs`; its false hits in the tests, every hit being one), not a game to run.

use super::{Game, Side};

/// Any game whose key is new at every node, so that probes never hit (with fewer than 64 key
/// bits, every hit is a false one): the table's pure overhead (one probe that misses and one store per interior node). The key is the number of
/// moves made so far times an odd constant: distinct at every node and about as cheap as
/// reading an incremental key. Everything else is the wrapped game's.
#[derive(Clone)]
pub struct NeverHit<G: Game> {
    g: G,
    makes: u64,
}

impl<G: Game> NeverHit<G> {
    /// `g` wrapped, no move made yet.
    pub fn new(g: G) -> Self {
        NeverHit { g, makes: 0 }
    }
}

impl<G: Game> Game for NeverHit<G> {
    type Move = G::Move;
    const NAME: &'static str = "never-hit";
    fn max_moves(&self) -> usize {
        self.g.max_moves()
    }
    fn move_space(&self) -> usize {
        self.g.move_space()
    }
    fn move_index(&self, m: G::Move) -> usize {
        self.g.move_index(m)
    }
    fn moves(&self, out: &mut Vec<G::Move>) {
        self.g.moves(out)
    }
    fn make(&mut self, m: G::Move) {
        self.makes += 1;
        self.g.make(m)
    }
    fn unmake(&mut self, m: G::Move) {
        self.g.unmake(m)
    }
    fn outcome(&self) -> Option<i32> {
        self.g.outcome()
    }
    fn evaluate(&self) -> i32 {
        self.g.evaluate()
    }
    fn key(&self) -> u64 {
        self.makes.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn win_threshold(&self) -> Option<i32> {
        self.g.win_threshold()
    }
    fn side_to_move(&self) -> Side {
        self.g.side_to_move()
    }
    fn max_remaining_plies(&self) -> u32 {
        self.g.max_remaining_plies()
    }
    fn static_score(&self, m: G::Move) -> i32 {
        self.g.static_score(m)
    }
    fn center_out_score(&self, m: G::Move) -> Option<i32> {
        self.g.center_out_score(m)
    }
    fn format_move(&self, m: G::Move) -> String {
        self.g.format_move(m)
    }
    fn parse_move(&self, text: &str) -> Result<G::Move, String> {
        self.g.parse_move(text)
    }
    fn format_position(&self) -> String {
        self.g.format_position()
    }
}
