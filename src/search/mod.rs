//! Generic, monomorphized searches over any `G: Game`.
//!
//! One `Searcher` runs one search. It owns every buffer the search needs (a move list, an
//! ordering-key list and a principal-variation line per ply), sized before the search starts
//! and reused at every node, so the search allocates nothing per node.

pub mod alphabeta;
pub mod counters;
pub mod minimax;
pub mod oracle;
pub mod ordering;
pub mod perft;
pub mod quiescence;
pub mod solver;
pub mod tt;

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use counters::Counters;
pub use ordering::{OrderTerm, Ordering};
pub use quiescence::Quiescence;
pub use tt::{Bounds, Replacement, TtSpec};

use tt::{Table, NO_MOVE};

use crate::games::Game;

/// The search algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The textbook form: MAX (the side to move at the root) and MIN roles.
    Minimax,
    /// Minimax in negamax form: every node maximizes its own side's score.
    Negamax,
    /// Alpha-beta in negamax form, root window (-INF, +INF).
    AlphaBeta,
    /// The exact solver (`solver`): alpha-beta to the end of the game with null windows and
    /// switchable techniques. `Searcher::run` treats it as full-depth alpha-beta.
    Solve,
    /// Principal variation search (Marsland and Campbell 1982; NegaScout, Reinefeld 1983):
    /// alpha-beta that searches each move after the first on a null window and searches it
    /// again on the full window only when it proves better than the best so far.
    Pvs,
}

impl Algorithm {
    pub const NAMES: [&'static str; 5] = ["minimax", "negamax", "alphabeta", "solve", "pvs"];
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "minimax" => Some(Self::Minimax),
            "negamax" => Some(Self::Negamax),
            "alphabeta" => Some(Self::AlphaBeta),
            "solve" => Some(Self::Solve),
            "pvs" => Some(Self::Pvs),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// Alpha-beta and principal variation search: the searches with a window, which take a
    /// variant, a table, killers and history.
    pub fn prunes(self) -> bool {
        matches!(self, Self::AlphaBeta | Self::Pvs)
    }
}

/// Alpha-beta variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// A node's value is clamped to its window: it returns alpha on a fail-low, beta on a cutoff.
    FailHard,
    /// A node returns the best value it saw, which may lie outside its window.
    FailSoft,
}

impl Variant {
    pub const NAMES: [&'static str; 2] = ["fail-hard", "fail-soft"];
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "fail-hard" => Some(Self::FailHard),
            "fail-soft" => Some(Self::FailSoft),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// How to choose among root moves of equal value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// The first such move in search order.
    First,
    /// A uniformly random one (seeded). Alpha-beta then searches each root move with alpha one
    /// below the best value so far, so that equal values are seen exactly.
    Random,
}

impl TieBreak {
    pub const NAMES: [&'static str; 2] = ["first", "random"];
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "first" => Some(Self::First),
            "random" => Some(Self::Random),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Everything that defines one search.
#[derive(Clone, Debug)]
pub struct SearchSpec {
    pub algorithm: Algorithm,
    pub variant: Variant,
    /// Remaining depth at the root, in plies.
    pub depth: u32,
    pub ordering: Ordering,
    pub tie_break: TieBreak,
    /// The search may enter at most this many nodes.
    pub max_nodes: Option<u64>,
    /// The search stops after this many seconds (checked every 1,024 nodes).
    pub max_seconds: Option<f64>,
    /// Quiescence search at depth 0 (off by default).
    pub quiescence: Quiescence,
    /// The transposition table (alpha-beta only); `None`: no table.
    pub tt: Option<TtSpec>,
    /// Iterative deepening: search depths 1, 2, ..., `depth`, the previous iteration's
    /// principal variation first, the table and the history kept across iterations.
    pub iterative: bool,
}

impl SearchSpec {
    pub fn new(algorithm: Algorithm, depth: u32) -> Self {
        SearchSpec {
            algorithm,
            variant: Variant::FailSoft,
            depth,
            ordering: Ordering::natural(),
            tie_break: TieBreak::First,
            max_nodes: None,
            max_seconds: None,
            quiescence: Quiescence::off(),
            tt: None,
            iterative: false,
        }
    }
}

/// Whether a search finished or hit a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Status {
    Ok,
    /// Stopped by `max_nodes` or `max_seconds`: counters are partial, the value meaningless.
    Budget,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Budget => "budget",
        }
    }
}

/// What one search returns.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The root's value from the side to move at the root.
    pub value: i32,
    pub best_move: Option<M>,
    pub pv: Vec<M>,
    pub counters: Counters,
    pub status: Status,
    /// Iterative deepening: what each iteration counted, depth 1 first (empty otherwise).
    pub iterations: Vec<Counters>,
}

/// How the ordering is applied in the hot loop, decided once per search.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OrderMode {
    Natural,
    Shuffle,
    Keys,
}

/// One search's state.
pub struct Searcher<G: Game> {
    spec: SearchSpec,
    pub counters: Counters,
    /// Per ply: the move list, the ordering keys, the principal variation from that ply.
    moves: Vec<Vec<G::Move>>,
    keys: Vec<Vec<i64>>,
    pv: Vec<Vec<G::Move>>,
    rng: ChaCha8Rng,
    order_mode: OrderMode,
    /// For explicit orders: rank key per move index.
    explicit_keys: Vec<Vec<i64>>,
    start: Instant,
    deadline_ns: Option<u64>,
    pub aborted: bool,
    /// Best root move and the number of equally valued root moves seen (random tie-break).
    root_best: Option<G::Move>,
    root_ties: u32,
    /// Quiescence move and key buffers, per ply below the horizon (grown on first use).
    qmoves: Vec<Vec<G::Move>>,
    qkeys: Vec<Vec<i64>>,
    /// Exact child values for the oracle orderings (`oracle-best`, `oracle-worst`, `strong`).
    oracle: Option<oracle::Oracle<G>>,
    /// The positions the oracle has visited in this search: they count toward `max_nodes`
    /// with nodes and qnodes (though in neither), kept here as a plain integer for the
    /// budget check at every node.
    oracle_visits: u64,
    /// The depth of the search under way: the spec's, or the iteration's under iterative
    /// deepening (the oracle's remaining depth at ply p is this less p).
    depth_now: u32,
    /// The transposition table, when the spec asks for one (alpha-beta only).
    tt: Option<Table>,
    /// The table's move goes first even though the ordering does not name `tt`.
    tt_first: bool,
    /// The table's move at the node whose moves are being ordered (`NO_MOVE`: none).
    node_tt_move: u32,
    win_threshold: Option<i32>,
    /// Killer and history terms in use (they are only kept up to date when used).
    use_killer: bool,
    use_history: bool,
    /// Per ply: two killer move indices (`NO_MOVE`: empty slot), the most recent first.
    killers: Vec<[u32; 2]>,
    /// Per move index: the history score.
    history: Vec<u64>,
    /// Iterative deepening: the previous iteration's principal variation, and whether the
    /// node being entered lies on it.
    prev_pv: Vec<G::Move>,
    follow_pv: bool,
    iterations: Vec<Counters>,
    /// Any of the table, killers, history or iterative deepening in use: the searches run
    /// their `EXT = true` instantiation; otherwise the plain one, which compiles all of it out.
    ext: bool,
    /// Killers, history or iterative deepening in use (alpha-beta's `AUX`; the table is
    /// its own flag there).
    aux: bool,
}

impl<G: Game> Searcher<G> {
    /// Prepares a search of `root` (explicit orders are resolved against it).
    pub fn new(root: &G, spec: &SearchSpec, seed: u64) -> Result<Self, String> {
        Self::with_order_root(root, root, spec, seed)
    }

    /// Prepares a search of `root` whose explicit orders are resolved against `order_root`, as
    /// a search of `order_root` resolved them for every node below it: a search of one of its
    /// descendants then orders as that search did there (the moves listed may not be legal at
    /// the descendant itself).
    pub fn with_order_root(
        root: &G,
        order_root: &G,
        spec: &SearchSpec,
        seed: u64,
    ) -> Result<Self, String> {
        // A search cannot go deeper than the game lasts: buffers for the shorter of the two.
        let plies = spec.depth.min(root.max_remaining_plies()) as usize + 2;
        let width = root.max_moves();
        let explicit_keys = ordering::explicit_keys(&spec.ordering, order_root)?;
        if spec.ordering.terms.contains(&OrderTerm::MvvLva) && G::NAME != "chess" {
            return Err(format!(
                "ordering mvv-lva applies to chess only, not {}; use static for the game's own order",
                G::NAME
            ));
        }
        let tt = match (&spec.tt, spec.algorithm) {
            (Some(t), Algorithm::AlphaBeta | Algorithm::Pvs) => {
                if root.move_space() > u16::MAX as usize {
                    return Err(format!(
                        "the table stores moves in 16 bits, but {} has {} move indices",
                        G::NAME,
                        root.move_space()
                    ));
                }
                tt::check_entries(t.entries, t.replacement)?;
                Some(Table::try_new(t)?)
            }
            _ => None,
        };
        let use_killer = spec.ordering.has(&OrderTerm::Killer);
        let use_history = spec.ordering.has(&OrderTerm::History);
        for (term, name) in [
            (OrderTerm::CenterOut, "center-out"),
            (OrderTerm::Threats, "threats"),
        ] {
            if !spec.ordering.terms.contains(&term) {
                continue;
            }
            let mut root_moves = Vec::with_capacity(width);
            if root.outcome().is_none() {
                root.moves(&mut root_moves);
            }
            let known = |m: G::Move| match term {
                OrderTerm::CenterOut => root.center_out_score(m).is_some(),
                _ => root.threats_score(m).is_some(),
            };
            if root_moves.first().is_some_and(|&m| !known(m)) {
                return Err(format!(
                    "the {name} ordering applies to Connect Four (column moves), not {}",
                    G::NAME
                ));
            }
        }
        let order_mode = match spec.ordering.terms.as_slice() {
            [OrderTerm::Natural] => OrderMode::Natural,
            [OrderTerm::Random] => OrderMode::Shuffle,
            _ => OrderMode::Keys,
        };
        Ok(Searcher {
            spec: spec.clone(),
            counters: Counters::default(),
            moves: (0..plies).map(|_| Vec::with_capacity(width)).collect(),
            keys: (0..plies).map(|_| Vec::with_capacity(width)).collect(),
            pv: (0..plies).map(|_| Vec::with_capacity(plies)).collect(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            order_mode,
            explicit_keys,
            start: Instant::now(),
            deadline_ns: spec.max_seconds.map(|s| (s * 1e9) as u64),
            aborted: false,
            root_best: None,
            root_ties: 0,
            qmoves: Vec::new(),
            qkeys: Vec::new(),
            oracle: spec
                .ordering
                .uses_oracle()
                .then(|| oracle::Oracle::new(root, spec.depth)),
            oracle_visits: 0,
            depth_now: spec.depth,
            tt_first: tt.is_some() && !spec.ordering.has(&OrderTerm::Tt),
            tt,
            node_tt_move: NO_MOVE,
            win_threshold: root.win_threshold(),
            use_killer,
            use_history,
            killers: vec![[NO_MOVE; 2]; if use_killer { plies } else { 0 }],
            history: vec![0; if use_history { root.move_space() } else { 0 }],
            prev_pv: Vec::new(),
            follow_pv: false,
            iterations: Vec::new(),
            ext: spec.tt.is_some() || use_killer || use_history || spec.iterative,
            aux: use_killer || use_history || spec.iterative,
        })
    }

    /// Runs the search the spec describes from `game` (which is restored afterwards).
    pub fn run(&mut self, game: &mut G) -> SearchResult<G::Move> {
        self.start = Instant::now();
        // Iterative deepening stops at the most plies the game can still last: an iteration
        // deeper than that searches the same tree to its finished positions again (tic-tac-toe
        // with `depth = 10000` ran 10,000 alike). A finished position, or depth 0, has no
        // iterations 1..d: one look.
        // A search without iterations is capped there too: deeper, it is the same tree, but
        // history would credit its cutoffs with the square of a remaining depth no node has
        // (tic-tac-toe from "4" with killer+history+static: 1,542 nodes at depth 8 = "full",
        // 1,586 at depth 9, 1,497 at 255).
        let last = self.spec.depth.min(game.max_remaining_plies());
        if !self.spec.iterative || last == 0 || game.outcome().is_some() {
            let value = self.search_depth(game, last);
            return self.finish(value);
        }
        let mut value = 0;
        for depth in 1..=last {
            if depth > 1 {
                // A new search over the kept table and history: the previous line goes first.
                self.prev_pv.clone_from(&self.pv[0]);
                if let Some(tt) = &mut self.tt {
                    tt.new_search();
                }
                for h in &mut self.history {
                    *h /= 2;
                }
            }
            self.follow_pv = !self.prev_pv.is_empty();
            self.root_best = None;
            self.root_ties = 0;
            let before = self.counters;
            value = self.search_depth(game, depth);
            self.iterations.push(self.counters.since(&before));
            if self.aborted {
                break;
            }
        }
        self.follow_pv = false;
        self.finish(value)
    }

    /// One search of the spec's algorithm to `depth`.
    fn search_depth(&mut self, game: &mut G, depth: u32) -> i32 {
        self.depth_now = depth;
        let nodes = self.counters.nodes;
        let value = match self.spec.algorithm {
            Algorithm::Minimax => {
                let root_side = game.side_to_move();
                self.minimax(game, depth, 0, root_side)
            }
            Algorithm::Negamax => self.negamax(game, depth, 0),
            Algorithm::AlphaBeta | Algorithm::Solve | Algorithm::Pvs => {
                self.alphabeta(game, depth, -crate::games::INF, crate::games::INF)
            }
        };
        self.count_root(nodes);
        value
    }

    /// Counts a search from the root as a root when it entered it (`nodes`: the node count
    /// before; a budget can stop a search before its root).
    pub(crate) fn count_root(&mut self, nodes: u64) {
        self.counters.roots += u64::from(self.counters.nodes > nodes);
    }

    /// Runs alpha-beta from `game` with the root window (alpha, beta).
    pub fn run_window(&mut self, game: &mut G, alpha: i32, beta: i32) -> SearchResult<G::Move> {
        self.start = Instant::now();
        self.depth_now = self.spec.depth;
        let nodes = self.counters.nodes;
        let value = self.alphabeta(game, self.spec.depth, alpha, beta);
        self.count_root(nodes);
        self.finish(value)
    }

    fn finish(&mut self, value: i32) -> SearchResult<G::Move> {
        self.counters.time_ns = self.start.elapsed().as_nanos() as u64;
        if let Some(tt) = &self.tt {
            self.counters.tt_occupancy = tt.occupancy();
        }
        SearchResult {
            value,
            best_move: self.root_best,
            pv: self.pv[0].clone(),
            counters: self.counters,
            status: if self.aborted {
                Status::Budget
            } else {
                Status::Ok
            },
            iterations: self.iterations.clone(),
        }
    }

    /// Restarts the random numbers (random and `strong` orderings) from `seed`, as a new
    /// searcher would.
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Bookkeeping on entering a node. Returns `Err(())` when a budget stops the search.
    #[inline(always)]
    fn enter(&mut self, ply: usize) -> Result<(), ()> {
        self.check_node_budget()?;
        self.counters.nodes += 1;
        if ply as u32 > self.counters.max_ply {
            self.counters.max_ply = ply as u32;
        }
        self.check_deadline(self.counters.nodes)?;
        self.pv[ply].clear();
        Ok(())
    }

    /// Stops the search when it was stopped before or when `max_nodes` (nodes + qnodes + the
    /// oracle's visits) is reached: shared by main-search and quiescence nodes.
    #[inline(always)]
    fn check_node_budget(&mut self) -> Result<(), ()> {
        if self.aborted {
            return Err(());
        }
        if let Some(max) = self.spec.max_nodes {
            if self.counters.nodes + self.counters.qnodes + self.oracle_visits >= max {
                self.aborted = true;
                return Err(());
            }
        }
        Ok(())
    }

    /// Checks `max_seconds` every 1,024 counts of `count` (nodes or qnodes).
    #[inline(always)]
    fn check_deadline(&mut self, count: u64) -> Result<(), ()> {
        if let Some(limit) = self.deadline_ns {
            if count & 1023 == 0 && self.start.elapsed().as_nanos() as u64 >= limit {
                self.aborted = true;
                return Err(());
            }
        }
        Ok(())
    }

    /// The score of a leaf (finished game or depth 0) from the side to move, if it is one.
    /// With quiescence on, a depth-0 leaf is scored by quiescence search on the full window.
    #[inline(always)]
    fn leaf_value(&mut self, game: &mut G, depth: u32) -> Option<i32> {
        self.leaf_value_window(game, depth, -crate::games::INF, crate::games::INF)
    }

    /// `leaf_value` with the node's window, for quiescence search under alpha-beta.
    #[inline(always)]
    fn leaf_value_window(
        &mut self,
        game: &mut G,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if let Some(u) = game.outcome() {
            self.counters.leaves += 1;
            self.counters.terminal += 1;
            return Some(u);
        }
        if depth == 0 {
            self.counters.leaves += 1;
            if self.spec.quiescence.enabled {
                return Some(self.quiesce(game, 0, alpha, beta));
            }
            return Some(game.evaluate());
        }
        None
    }

    /// Takes the ply's move buffer, filled with the legal moves in search order (the table's
    /// move and the previous principal variation included). The searches here call `order`
    /// directly; this entry point stays for other search families.
    #[allow(dead_code)]
    #[inline(always)]
    fn ordered_moves(&mut self, game: &mut G, ply: usize) -> Vec<G::Move> {
        self.order::<true, true>(game, ply)
    }

    /// `ordered_moves`; with `TT = false` the table's move, with `AUX = false` the previous
    /// principal variation are not looked at.
    #[inline(always)]
    fn order<const TT: bool, const AUX: bool>(&mut self, game: &mut G, ply: usize) -> Vec<G::Move> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        game.moves(&mut moves);
        self.counters.interior += 1;
        self.counters.moves_generated += moves.len() as u64;
        self.sort_moves(game, ply, &mut moves);
        if TT {
            let tt = std::mem::replace(&mut self.node_tt_move, NO_MOVE);
            if self.tt_first && tt != NO_MOVE {
                move_to_front(&mut moves, |m| game.move_index(m) as u32 == tt);
            }
        }
        if AUX && self.follow_pv {
            if let Some(&p) = self.prev_pv.get(ply) {
                move_to_front(&mut moves, |m| m == p);
            }
        }
        moves
    }

    /// Puts `moves` in search order (the spec's ordering), using the ply's key buffer.
    #[inline(always)]
    fn sort_moves(&mut self, game: &mut G, ply: usize, moves: &mut [G::Move]) {
        match self.order_mode {
            OrderMode::Natural => {}
            OrderMode::Shuffle => {
                for i in (1..moves.len()).rev() {
                    let j = self.rng.gen_range(0..=i);
                    moves.swap(i, j);
                }
            }
            OrderMode::Keys => {
                let mut keys = std::mem::take(&mut self.keys[ply]);
                let mut explicit = 0;
                // Apply terms from last to first with stable sorts: lexicographic order.
                for t in (0..self.spec.ordering.terms.len()).rev() {
                    keys.clear();
                    match &self.spec.ordering.terms[t] {
                        // Never here: `Ordering::parse` refuses `natural` beside other
                        // terms, and `natural` alone runs as `OrderMode::Natural`.
                        OrderTerm::Natural => continue,
                        OrderTerm::Static | OrderTerm::MvvLva => {
                            keys.extend(moves.iter().map(|&m| game.static_score(m) as i64))
                        }
                        OrderTerm::Random => {
                            for _ in 0..moves.len() {
                                keys.push(self.rng.gen::<u32>() as i64);
                            }
                        }
                        OrderTerm::CenterOut => keys.extend(
                            moves
                                .iter()
                                .map(|&m| game.center_out_score(m).unwrap_or(0) as i64),
                        ),
                        OrderTerm::Threats => keys.extend(
                            moves
                                .iter()
                                .map(|&m| game.threats_score(m).unwrap_or(0) as i64),
                        ),
                        OrderTerm::Explicit(_) => {
                            let table = &self.explicit_keys[self.explicit_count() - 1 - explicit];
                            explicit += 1;
                            keys.extend(moves.iter().map(|&m| table[game.move_index(m)]));
                        }
                        OrderTerm::Tt => {
                            let tt = self.node_tt_move;
                            keys.extend(
                                moves
                                    .iter()
                                    .map(|&m| (game.move_index(m) as u32 == tt) as i64),
                            );
                        }
                        OrderTerm::Killer => {
                            let k = self.killers[ply];
                            keys.extend(moves.iter().map(|&m| {
                                let i = game.move_index(m) as u32;
                                if i == k[0] {
                                    2
                                } else if i == k[1] {
                                    1
                                } else {
                                    0
                                }
                            }));
                        }
                        OrderTerm::History => {
                            let h = &self.history;
                            keys.extend(moves.iter().map(|&m| h[game.move_index(m)] as i64));
                        }
                        term @ (OrderTerm::OracleBest
                        | OrderTerm::OracleWorst
                        | OrderTerm::Strong { .. }) => {
                            // Every algorithm here lowers the depth by one per ply.
                            let remaining = self.depth_now.saturating_sub(ply as u32);
                            let oracle = self.oracle.as_mut().expect("built in Searcher::new");
                            let budget = oracle::Budget {
                                nodes_left: self.spec.max_nodes.map(|m| {
                                    m.saturating_sub(self.counters.nodes + self.counters.qnodes)
                                }),
                                start: self.start,
                                deadline_ns: self.deadline_ns,
                            };
                            oracle.keys(
                                game,
                                moves,
                                ply,
                                remaining,
                                term,
                                &mut self.rng,
                                &budget,
                                &mut keys,
                            );
                            self.oracle_visits = oracle.visits();
                            if oracle.stopped() {
                                self.aborted = true;
                            }
                        }
                    }
                    ordering::sort_by_keys_desc(moves, &mut keys);
                }
                self.keys[ply] = keys;
            }
        }
    }

    /// Iterative deepening: whether the child reached by the `i`-th move `m` of a node at `ply`
    /// lies on the previous principal variation (`on_pv`: the node does). Call before
    /// entering the child.
    #[inline(always)]
    fn set_follow(&mut self, on_pv: bool, ply: usize, i: usize, m: G::Move) {
        if on_pv {
            self.follow_pv = i == 0 && self.prev_pv.get(ply) == Some(&m);
        }
    }

    /// Bookkeeping of a cutoff by `m` at `ply` with `depth` to go: credits it to the table's
    /// move, else a killer of the ply, else a positive history score, each read as it is at
    /// the cutoff (the history may have grown in the subtrees searched since the node was
    /// ordered; README, "What is counted"), then updates killers and history.
    #[inline(always)]
    fn note_cutoff<const AUX: bool>(
        &mut self,
        game: &G,
        m: G::Move,
        ply: usize,
        depth: u32,
        tt_move: u32,
    ) {
        let i = game.move_index(m);
        let iu = i as u32;
        let by_tt = tt_move != NO_MOVE && iu == tt_move;
        if by_tt {
            self.counters.cutoffs_tt += 1;
        }
        // Without killers and history (`AUX = false`) there is nothing more to credit or update.
        if !AUX {
            return;
        }
        if by_tt {
            // Credited to the table above.
        } else if self.use_killer && self.killers[ply].contains(&iu) {
            self.counters.cutoffs_killer += 1;
        } else if self.use_history && self.history[i] > 0 {
            self.counters.cutoffs_history += 1;
        }
        if self.use_killer {
            let k = &mut self.killers[ply];
            if k[0] != iu {
                k[1] = k[0];
                k[0] = iu;
            }
        }
        if self.use_history {
            self.history[i] += depth as u64 * depth as u64;
        }
    }

    fn explicit_count(&self) -> usize {
        self.explicit_keys.len()
    }

    /// Records `m` followed by the child's line as the principal variation at `ply`.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Root bookkeeping for a move of value `v` against the best value so far.
    /// Returns true when `m` becomes the root's best move.
    #[inline(always)]
    fn root_choice(&mut self, m: G::Move, v: i32, best: i32) -> bool {
        if self.root_best.is_none() || v > best {
            self.root_best = Some(m);
            self.root_ties = 1;
            true
        } else if v == best && self.spec.tie_break == TieBreak::Random {
            self.root_ties += 1;
            if self.rng.gen_range(0..self.root_ties) == 0 {
                self.root_best = Some(m);
                return true;
            }
            false
        } else {
            false
        }
    }
}

/// Moves the first move satisfying `pred` to the front, keeping the others in order.
#[inline(always)]
fn move_to_front<M: Copy>(moves: &mut [M], pred: impl Fn(M) -> bool) {
    if let Some(j) = moves.iter().position(|&m| pred(m)) {
        moves[..=j].rotate_right(1);
    }
}

/// Runs one search of `game` as `spec` describes, seeding its randomness with `seed`.
pub fn search<G: Game>(
    game: &mut G,
    spec: &SearchSpec,
    seed: u64,
) -> Result<SearchResult<G::Move>, String> {
    let mut s = Searcher::new(game, spec, seed)?;
    Ok(s.run(game))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::{Scale, TicTacToe};

    /// Iterative deepening starts a new table search before every iteration but the first
    /// (the `bucket` scheme replaces earlier iterations' entries first), and a plain search
    /// never does.
    #[test]
    fn the_table_ages_once_per_iteration_after_the_first() {
        for (iterative, depth, age) in [(true, 5, 4), (true, 1, 0), (false, 5, 0)] {
            let mut g = TicTacToe::parse_position(Scale::WinLoss, "start").unwrap();
            let mut spec = SearchSpec::new(Algorithm::AlphaBeta, depth);
            spec.iterative = iterative;
            spec.tt = Some(TtSpec {
                entries: 1024,
                replacement: Replacement::Bucket,
                key_bits: 64,
                bounds: Bounds::Correct,
            });
            let mut s = Searcher::new(&g, &spec, 1).unwrap();
            s.run(&mut g);
            assert_eq!(
                s.tt.as_ref().map(Table::age),
                Some(age),
                "iterative {iterative}, depth {depth}"
            );
        }
    }
}
