//! The oracle behind the `oracle-best`, `oracle-worst` and `strong` orderings: the exact
//! negamax value of every child for the remaining depth, so that children can be put in
//! order of their true value. Its work is not counted in the search's counters.
//!
//! It runs plain negamax (no pruning) and memoizes the value of every node with at least two
//! plies left, keyed by the position's 64-bit key and checked against the remaining depth, so
//! each such node is computed once per search; nodes one ply above the horizon are recomputed
//! from their children on demand (cheaper than storing them). On a uniform tree of branching
//! b and height d that is about b^(d-1)/(b-1) entries of 16 bytes: the memo is capped at
//! `ORACLE_MAX_ENTRIES` (about 70 MB). The experiment planner refuses, before starting, a
//! uniform tree whose oracle would not fit; on other games the memo simply stops growing at
//! the cap (values stay exact, the oracle gets slower).
//!
//! Budgets bound the oracle too, or a run with `max_nodes` or `max_seconds` on a deep tree
//! would run unbounded inside it: the positions it visits count toward `max_nodes` with the
//! search's nodes and qnodes (though not in `nodes`), and it checks `max_seconds` every 1,024
//! visits. Once stopped it returns at once, and the search stops with the budget status.
//!
//! On a real game, `oracle-best` gives the best-first tree: the Knuth–Moore ideal for that
//! position. Where values tie or branching is uneven, a cheaper proof can exist (a cutoff
//! does not need the best move, only a good enough one, and a narrow subtree can be cheaper
//! to refute with than the best one), so the best-first tree is not always the smallest.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::ordering::OrderTerm;
use super::tt::{score_from_tt, score_to_tt};
use crate::games::{Game, INF};

/// The most values the oracle memoizes: 7/8 of 2^22, what a hash table of 2^22 slots holds.
pub const ORACLE_MAX_ENTRIES: usize = 3_670_016;

/// How many entries the oracle needs for a uniform tree of branching b searched to depth d:
/// the nodes with at least two plies left, levels 0..=d-2.
pub fn uniform_entries(b: u64, d: u32) -> f64 {
    if d < 2 {
        0.0
    } else {
        crate::report::theory::full_nodes(b, d - 2)
    }
}

/// Keys are already well-mixed 64-bit hashes: one multiply suffices.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        let z = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = z ^ (z >> 29);
    }
}

/// One search's oracle.
pub struct Oracle<G: Game> {
    /// key -> (remaining depth, exact value from the side to move, a distance-carrying win
    /// or loss made relative to the node as the transposition table stores it).
    memo: HashMap<u64, (u32, i32), BuildHasherDefault<KeyHasher>>,
    /// The game's `win_threshold`: scores past it carry their distance from the root.
    win_threshold: Option<i32>,
    /// The ply from the search's root of the children of the node `keys` was called for
    /// (level 0 of `value`).
    child_ply: usize,
    /// Move buffers, one per level below the node asked about.
    bufs: Vec<Vec<G::Move>>,
    /// Scratch: the children's values and a permutation of slots.
    values: Vec<i32>,
    slots: Vec<u32>,
    /// Positions visited (every call of `value`) since the search began, for the budget.
    visits: u64,
    /// Stop once `visits` passes this (`max_nodes` less the search's nodes and qnodes).
    max_visits: u64,
    /// The search's start and `max_seconds` in nanoseconds.
    start: Instant,
    deadline_ns: Option<u64>,
    /// A budget stopped it: the values since are meaningless.
    stopped: bool,
}

/// What the search lends the oracle of its budgets, per call of `Oracle::keys`.
pub struct Budget {
    /// `max_nodes` less the nodes and qnodes the search has entered (None: no `max_nodes`).
    pub nodes_left: Option<u64>,
    pub start: Instant,
    pub deadline_ns: Option<u64>,
}

impl<G: Game> Oracle<G> {
    /// An oracle for searches from `root` to at most `depth` plies.
    pub fn new(root: &G, depth: u32) -> Self {
        let width = root.max_moves();
        Oracle {
            memo: HashMap::default(),
            win_threshold: root.win_threshold(),
            child_ply: 0,
            bufs: (0..depth as usize + 1)
                .map(|_| Vec::with_capacity(width))
                .collect(),
            values: Vec::with_capacity(width),
            slots: Vec::with_capacity(width),
            visits: 0,
            max_visits: u64::MAX,
            start: Instant::now(),
            deadline_ns: None,
            stopped: false,
        }
    }

    /// Whether a budget stopped the oracle.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The positions visited since the search began (`new_search`).
    pub fn visits(&self) -> u64 {
        self.visits
    }

    /// A new search (the solver's next position) starts with no visits, not stopped and an
    /// empty memo: its visits, and so whether its budget stops it, are the same whatever
    /// positions came before it.
    pub fn new_search(&mut self) {
        self.visits = 0;
        self.stopped = false;
        self.memo.clear();
    }

    /// Counts a visit; false (and stopped) once a budget is spent.
    #[inline]
    fn visit(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        self.visits += 1;
        // Past the budget (visits, nodes and qnodes together above max_nodes): stop.
        if self.visits > self.max_visits {
            self.stopped = true;
        } else if let Some(limit) = self.deadline_ns {
            if self.visits & 1023 == 0 && self.start.elapsed().as_nanos() as u64 >= limit {
                self.stopped = true;
            }
        }
        !self.stopped
    }

    /// Values stored so far.
    pub fn entries(&self) -> usize {
        self.memo.len()
    }

    /// The exact negamax value of `game` searched `depth` plies, from the side to move.
    pub fn value(&mut self, game: &mut G, depth: u32, level: usize) -> i32 {
        if !self.visit() {
            return 0;
        }
        if let Some(u) = game.outcome() {
            return u;
        }
        if depth == 0 {
            return game.evaluate();
        }
        let key = game.key();
        // A mate found a ply nearer the root (chess: a position reached again two plies
        // deeper, in a later iteration of iterative deepening) is one ply further here.
        let ply = self.child_ply + level;
        if depth >= 2 {
            if let Some(&(d, v)) = self.memo.get(&key) {
                if d == depth {
                    return score_from_tt(v, ply, self.win_threshold);
                }
            }
        }
        if level >= self.bufs.len() {
            self.bufs.resize_with(level + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.bufs[level]);
        moves.clear();
        game.moves(&mut moves);
        let mut best = -INF;
        for &m in &moves {
            game.make(m);
            let v = -self.value(game, depth - 1, level + 1);
            game.unmake(m);
            best = best.max(v);
        }
        self.bufs[level] = moves;
        if self.stopped {
            return 0;
        }
        if depth >= 2 && (self.memo.len() < ORACLE_MAX_ENTRIES || self.memo.contains_key(&key)) {
            let stored = score_to_tt(best, ply, self.win_threshold);
            self.memo.insert(key, (depth, stored));
        }
        best
    }

    /// Fills `self.values` with each move's exact value for the mover, the node having
    /// `remaining` >= 1 plies left.
    fn child_values(&mut self, game: &mut G, moves: &[G::Move], remaining: u32) {
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        for &m in moves {
            game.make(m);
            values.push(-self.value(game, remaining - 1, 0));
            game.unmake(m);
        }
        self.values = values;
    }

    /// Ordering keys (higher first) for `moves` at a node at `ply` with `remaining` plies left, for an
    /// oracle term: `oracle-best` the mover's exact value, `oracle-worst` its negation,
    /// `strong:P1:P2` a rank that puts the best move (the first of equal best in natural
    /// order) first with probability P1, within the first quarter (the first ceil(n/4) places)
    /// with probability P2, otherwise in a uniformly chosen later place; the other moves
    /// take the remaining places in random order. When `budget` runs out meanwhile, the keys
    /// are meaningless and `stopped` says so.
    #[allow(clippy::too_many_arguments)]
    pub fn keys(
        &mut self,
        game: &mut G,
        moves: &[G::Move],
        ply: usize,
        remaining: u32,
        term: &OrderTerm,
        rng: &mut ChaCha8Rng,
        budget: &Budget,
        keys: &mut Vec<i64>,
    ) {
        // Visits since the search began, plus its nodes and qnodes, stay within max_nodes.
        self.max_visits = budget.nodes_left.unwrap_or(u64::MAX);
        (self.start, self.deadline_ns) = (budget.start, budget.deadline_ns);
        self.child_ply = ply + 1;
        self.child_values(game, moves, remaining.max(1));
        match *term {
            OrderTerm::OracleBest => keys.extend(self.values.iter().map(|&v| v as i64)),
            OrderTerm::OracleWorst => keys.extend(self.values.iter().map(|&v| -(v as i64))),
            OrderTerm::Strong { first, quarter } => {
                let n = moves.len();
                let mut best = 0;
                for (i, &v) in self.values.iter().enumerate() {
                    if v > self.values[best] {
                        best = i;
                    }
                }
                let q = n.div_ceil(4).max(1);
                let u: f64 = rng.gen();
                let p1 = first as f64 / 1e6;
                let p2 = quarter as f64 / 1e6;
                let slot = if n == 1 || u < p1 {
                    0
                } else if q > 1 && u < p2 {
                    rng.gen_range(1..q)
                } else if q > 1 && q < n {
                    rng.gen_range(q..n)
                } else {
                    rng.gen_range(1..n)
                };
                self.slots.clear();
                self.slots
                    .extend((0..n as u32).filter(|&s| s as usize != slot));
                for i in (1..self.slots.len()).rev() {
                    let j = rng.gen_range(0..=i);
                    self.slots.swap(i, j);
                }
                let mut others = self.slots.iter();
                for i in 0..n {
                    let place = if i == best {
                        slot
                    } else {
                        *others.next().expect("n - 1 places for n - 1 moves") as usize
                    };
                    keys.push((n - place) as i64);
                }
            }
            _ => unreachable!("only oracle terms ask the oracle"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::{Scale, TicTacToe};
    use crate::games::uniform::{Model, Uniform, UniformSpec, Values};
    use crate::search::{search, Algorithm, SearchSpec};
    use rand::SeedableRng;

    fn negamax_value<G: Game>(g: &mut G, depth: u32) -> i32 {
        search(g, &SearchSpec::new(Algorithm::Negamax, depth), 0)
            .unwrap()
            .value
    }

    #[test]
    fn oracle_values_are_negamax_values() {
        let mut t = TicTacToe::new(Scale::DepthPenalty);
        let mut o = Oracle::new(&t, 9);
        assert_eq!(o.value(&mut t, 9, 0), negamax_value(&mut t, 9));
        assert_eq!(o.value(&mut t, 4, 0), negamax_value(&mut t, 4));
        let spec = UniformSpec {
            branching: 3,
            height: 6,
            values: Values::Continuous,
            model: Model::Incremental,
        };
        let mut u = Uniform::new(spec, 0, 5);
        let mut o = Oracle::new(&u, 6);
        for d in 0..=6 {
            assert_eq!(o.value(&mut u, d, 0), negamax_value(&mut u, d), "depth {d}");
        }
        assert!(o.entries() > 0);
    }

    /// A mate in the memo is stored relative to its node, as the table stores it: read at a
    /// node two plies deeper (a position reached again in a later iteration of iterative
    /// deepening) it is two plies further from the root, not the distance it had where it
    /// was found.
    #[test]
    fn memoized_mates_keep_their_distance_from_the_node() {
        use crate::games::chess::{Chess, MATE};
        // Ra8 mates at once: worth MATE - 1 at the root.
        let mut g = Chess::parse_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let mut o = Oracle::new(&g, 4);
        assert_eq!(o.value(&mut g, 2, 0), MATE - 1);
        assert!(o.entries() > 0, "memoized");
        // The same position two plies deeper: from the memo, the mate is at ply 3.
        o.child_ply = 2;
        assert_eq!(o.value(&mut g, 2, 0), MATE - 3);
        // Values that carry no distance are read as stored.
        let mut u = TicTacToe::parse_position(Scale::WinLoss, "xx.oo....").unwrap();
        let mut o = Oracle::new(&u, 4);
        let v = o.value(&mut u, 3, 0);
        o.child_ply = 2;
        assert_eq!(o.value(&mut u, 3, 0), v);
    }

    #[test]
    fn budgets_stop_the_oracle() {
        use crate::games::connect4::Connect4;
        use crate::search::{Ordering, Status};
        // Connect Four from the start to depth 14: the oracle alone would visit billions of
        // positions before the search's first node below the root.
        let mut spec = SearchSpec::new(Algorithm::AlphaBeta, 14);
        spec.ordering = Ordering::parse("oracle-best").unwrap();
        spec.max_nodes = Some(1000);
        let r = search(&mut Connect4::new(7, 6), &spec, 0).unwrap();
        assert_eq!(r.status, Status::Budget);
        assert!(r.counters.nodes + r.counters.qnodes <= 1000);
        spec.max_nodes = None;
        spec.max_seconds = Some(0.05);
        let t = std::time::Instant::now();
        let r = search(&mut Connect4::new(7, 6), &spec, 0).unwrap();
        assert_eq!(r.status, Status::Budget);
        assert!(t.elapsed().as_secs_f64() < 30.0);
        // Full tic-tac-toe: 1,892 nodes (as `scripts/models/tictactoe.py` counts them) and
        // 21,233 oracle visits. A budget the two fit in changes nothing; one the nodes alone
        // fit in stops the run, for the visits count too, summed over every call of the
        // oracle (the budget one below the sum stopping it pins the visits).
        let t = TicTacToe::new(Scale::DepthPenalty);
        let mut spec = SearchSpec::new(Algorithm::AlphaBeta, 9);
        spec.ordering = Ordering::parse("oracle-best").unwrap();
        let free = search(&mut t.clone(), &spec, 0).unwrap();
        assert_eq!(free.counters.nodes, 1_892);
        for (max, status) in [
            (1_892 + 21_233, Status::Ok),
            (1_892 + 21_233 - 1, Status::Budget),
            (2 * 1_892, Status::Budget),
        ] {
            spec.max_nodes = Some(max);
            let bounded = search(&mut t.clone(), &spec, 0).unwrap();
            assert_eq!(bounded.status, status, "max_nodes {max}");
            if status == Status::Ok {
                assert_eq!(
                    (bounded.value, bounded.counters.nodes),
                    (free.value, free.counters.nodes)
                );
            }
        }
        // One oracle call at the root (4 visits), then 5 nodes: the nodes entered after the
        // oracle's last call count with its visits too, so 9 is the least budget that
        // finishes (8 finished too when only the oracle counted its visits).
        let spec_u = UniformSpec {
            branching: 4,
            height: 1,
            values: Values::Continuous,
            model: Model::Incremental,
        };
        let u = Uniform::new(spec_u, 0, 5);
        let mut spec = SearchSpec::new(Algorithm::AlphaBeta, 1);
        spec.ordering = Ordering::parse("oracle-best").unwrap();
        for (max, status) in [(9, Status::Ok), (8, Status::Budget), (6, Status::Budget)] {
            spec.max_nodes = Some(max);
            let r = search(&mut u.clone(), &spec, 0).unwrap();
            assert_eq!(r.status, status, "max_nodes {max}");
            if status == Status::Ok {
                assert_eq!(r.counters.nodes, 5);
            }
        }
    }

    #[test]
    fn iterations_order_by_their_own_depth() {
        use crate::search::{Ordering, Searcher};
        // Under iterative deepening, iteration k orders by exact values k - ply deep, as a
        // search to depth k does, not by the final depth's values.
        let mut found = false;
        for text in ["x...o....", "xo.......", "x.o......", ".x.o....."] {
            let mut g = TicTacToe::parse_position(Scale::DepthPenalty, text).unwrap();
            let root = g.clone();
            let order = |depth: u32, iterative: bool, now: u32, g: &mut TicTacToe| {
                let mut spec = SearchSpec::new(Algorithm::AlphaBeta, depth);
                spec.ordering = Ordering::parse("oracle-best").unwrap();
                spec.iterative = iterative;
                let mut s = Searcher::new(&root, &spec, 1).unwrap();
                s.depth_now = now;
                s.ordered_moves(g, 0)
            };
            let two = order(2, false, 2, &mut g);
            assert_eq!(order(6, true, 2, &mut g), two, "{text}");
            found |= order(6, false, 6, &mut g) != two;
        }
        assert!(found, "no position where depth 2 and depth 6 order apart");
    }

    #[test]
    fn strong_places_the_best_child_with_the_given_probabilities() {
        let spec = UniformSpec {
            branching: 8,
            height: 3,
            values: Values::Distinct,
            model: Model::Independent,
        };
        let mut u = Uniform::new(spec, 0, 17);
        let mut o = Oracle::new(&u, 3);
        let mut moves = Vec::new();
        u.moves(&mut moves);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let term = OrderTerm::Strong {
            first: 700_000,
            quarter: 900_000,
        };
        let unbounded = Budget {
            nodes_left: None,
            start: Instant::now(),
            deadline_ns: None,
        };
        let (mut first, mut quarter, trials) = (0, 0, 4000);
        let mut keys = Vec::new();
        for _ in 0..trials {
            keys.clear();
            o.keys(&mut u, &moves, 0, 3, &term, &mut rng, &unbounded, &mut keys);
            let best = (0..8).max_by_key(|&i| o.values[i]).unwrap();
            // Keys are 8 - place, all distinct.
            let place = 8 - keys[best] as usize;
            let mut sorted = keys.clone();
            sorted.sort();
            assert_eq!(sorted, (1..=8).collect::<Vec<i64>>());
            first += (place == 0) as u32;
            quarter += (place < 2) as u32;
        }
        let (p1, p2) = (first as f64 / trials as f64, quarter as f64 / trials as f64);
        assert!((p1 - 0.7).abs() < 0.03, "{p1}");
        assert!((p2 - 0.9).abs() < 0.03, "{p2}");
    }
}
