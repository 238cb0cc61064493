//! An exact solver: alpha-beta to the end of the game, driven by null-window searches that
//! narrow the range of possible scores until it holds one value.
//!
//! It is the harness's own alpha-beta (the `Searcher`'s buffers, ordering and counters) with
//! switchable techniques, so an experiment can show what each one buys:
//!
//! - `null-window`: find the score by a sequence of null-window tests "is the score above
//!   m?", m chosen in the middle of the range still possible (leaning towards 0, where the
//!   score of most positions lies); without it, one alpha-beta search with the full window.
//!   Scores are the game's external convention (`Game::external_score`, e.g. the Connect Four
//!   benchmark's), so the range is small.
//! - `win-check`: a node whose side to move can win at once returns that win without entering
//!   the children (`Game::win_in_one`). Without it the winning child is entered and found
//!   finished.
//! - `non-losing`: only moves that do not let the opponent win at once are searched
//!   (`Game::non_losing_moves`); none left means a loss at the opponent's next move. Needs
//!   `win-check`.
//! - `bounds`: a node's window is narrowed to the values still possible
//!   (`Game::solver_bounds`): beta down to the earliest win left, and (with `non-losing`) alpha
//!   up to the earliest loss left; a node whose window closes returns at once (counted as a
//!   node and a leaf). Near the end of the board both bounds become a draw. Needs `win-check`.
//!   At the root it also narrows the range of scores the null-window tests bisect.
//! - `tt`: a transposition table of value bounds (lower, upper) per exact key, consulted
//!   before the moves are generated and updated after.
//!
//! Nodes are counted as in every search: one per call of the recursive search, summed over all
//! the null-window searches of one position. A position that is over, or (with `win-check`)
//! that the side to move wins at once, is decided before any search: 0 nodes.
//!
//! The table is solver-local for now (`SolverTable`): a seam to be replaced by the generic
//! transposition table (`search::tt`) once it lands.

use std::fmt;
use std::time::Instant;

use super::{Algorithm, Counters, SearchSpec, Searcher, Status, Variant};
use crate::games::{Game, INF};

/// The techniques the solver uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Techniques {
    pub null_window: bool,
    pub win_check: bool,
    pub non_losing: bool,
    pub bounds: bool,
    pub tt: bool,
}

pub const TECHNIQUES_HELP: &str = "`all`, `none`, or technique names joined with `+`: null-window, win-check, non-losing (needs win-check), bounds (needs win-check), tt";

impl Techniques {
    pub const ALL: Techniques = Techniques {
        null_window: true,
        win_check: true,
        non_losing: true,
        bounds: true,
        tt: true,
    };
    pub const NONE: Techniques = Techniques {
        null_window: false,
        win_check: false,
        non_losing: false,
        bounds: false,
        tt: false,
    };

    pub fn parse(text: &str) -> Result<Techniques, String> {
        let t = text.trim();
        match t {
            "all" => return Ok(Self::ALL),
            "none" => return Ok(Self::NONE),
            _ => {}
        }
        let mut out = Self::NONE;
        for part in t.split('+') {
            match part.trim() {
                "null-window" => out.null_window = true,
                "win-check" => out.win_check = true,
                "non-losing" => out.non_losing = true,
                "bounds" => out.bounds = true,
                "tt" => out.tt = true,
                other => {
                    return Err(format!(
                        "unknown solver technique `{other}`; allowed: {TECHNIQUES_HELP}"
                    ))
                }
            }
        }
        if (out.non_losing || out.bounds) && !out.win_check {
            return Err(format!(
                "solver techniques `{t}`: non-losing and bounds assume that the side to move cannot win at once, so they need win-check"
            ));
        }
        Ok(out)
    }
}

impl fmt::Display for Techniques {
    /// The canonical text: `all`, `none`, or the names in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Self::ALL {
            return write!(f, "all");
        }
        if *self == Self::NONE {
            return write!(f, "none");
        }
        let mut parts = Vec::new();
        for (on, name) in [
            (self.null_window, "null-window"),
            (self.win_check, "win-check"),
            (self.non_losing, "non-losing"),
            (self.bounds, "bounds"),
            (self.tt, "tt"),
        ] {
            if on {
                parts.push(name);
            }
        }
        write!(f, "{}", parts.join("+"))
    }
}

/// log2 of the number of entries of the solver's table.
pub const TABLE_BITS: u32 = 20;

/// Table counters (solver-local until the generic table lands).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableCounters {
    pub probes: u64,
    /// The key matched.
    pub hits: u64,
    /// The entry alone decided the node.
    pub cutoffs: u64,
    pub stores: u64,
}

/// A direct-mapped table of value bounds, one slot per index, always replaced. Entries carry
/// the full 64-bit key, so a hit is never another position. `reset` starts a new generation in
/// O(1): entries of older generations read as empty. The arrays are zero-allocated, so only the
/// pages a search touches are ever written.
pub struct SolverTable {
    keys: Vec<u64>,
    bounds: Vec<u64>,
    generations: Vec<u32>,
    generation: u32,
    shift: u32,
    pub counters: TableCounters,
}

impl SolverTable {
    pub fn new(bits: u32) -> SolverTable {
        let n = 1usize << bits;
        SolverTable {
            keys: vec![0; n],
            bounds: vec![0; n],
            generations: vec![0; n],
            generation: 1,
            shift: 64 - bits,
            counters: TableCounters::default(),
        }
    }

    /// Empties the table (a new generation).
    pub fn reset(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.generations.iter_mut().for_each(|g| *g = 0);
            self.generation = 1;
        }
        self.counters = TableCounters::default();
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The (lower, upper) bounds stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&mut self, key: u64) -> Option<(i32, i32)> {
        self.counters.probes += 1;
        let i = self.index(key);
        if self.generations[i] == self.generation && self.keys[i] == key {
            self.counters.hits += 1;
            let b = self.bounds[i];
            Some(((b >> 32) as u32 as i32, b as u32 as i32))
        } else {
            None
        }
    }

    /// Stores bounds for `key`, intersected with what the slot already knows of the same key.
    #[inline(always)]
    pub fn store(&mut self, key: u64, lo: i32, hi: i32) {
        self.counters.stores += 1;
        let i = self.index(key);
        let (mut lo, mut hi) = (lo, hi);
        if self.generations[i] == self.generation && self.keys[i] == key {
            let b = self.bounds[i];
            lo = lo.max((b >> 32) as u32 as i32);
            hi = hi.min(b as u32 as i32);
        }
        self.generations[i] = self.generation;
        self.keys[i] = key;
        self.bounds[i] = ((lo as u32 as u64) << 32) | hi as u32 as u64;
    }
}

/// What one solve returns.
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// The exact value (utility) from the side to move; in weak mode the value of the weak score.
    pub value: i32,
    /// The score in the game's external convention (weak mode: 1, 0 or -1).
    pub score: i32,
    pub counters: Counters,
    pub table: TableCounters,
    /// Alpha-beta searches run (null-window tests, or 1).
    pub searches: u32,
    pub status: Status,
}

/// The solver: a `Searcher` (buffers, ordering, counters, budgets) plus its techniques and
/// table.
pub struct Solver<G: Game> {
    search: Searcher<G>,
    tech: Techniques,
    table: Option<SolverTable>,
}

impl<G: Game> Solver<G> {
    /// A solver for positions like `root` (explicit orderings are resolved against it). The
    /// spec gives the ordering and the budgets; its algorithm and depth are ignored.
    pub fn new(root: &G, spec: &SearchSpec, tech: Techniques, seed: u64) -> Result<Self, String> {
        let mut spec = spec.clone();
        spec.algorithm = Algorithm::AlphaBeta;
        spec.variant = Variant::FailSoft;
        // Buffers for the longest game from the root.
        spec.depth = root.max_remaining_plies();
        Ok(Solver {
            search: Searcher::new(root, &spec, seed)?,
            tech,
            table: tech.tt.then(|| SolverTable::new(TABLE_BITS)),
        })
    }

    /// Solves `game` (restored afterwards). `weak`: only win (1), draw (0) or loss (-1).
    /// Counters start from zero; the table is emptied first.
    pub fn solve(&mut self, game: &mut G, weak: bool) -> SolveResult {
        let depth = game.max_remaining_plies() as usize + 2;
        if self.search.moves.len() < depth {
            // A deeper root than the one the solver was built for: grow the buffers once.
            let w = game.max_moves();
            self.search
                .moves
                .resize_with(depth, || Vec::with_capacity(w));
            self.search
                .keys
                .resize_with(depth, || Vec::with_capacity(w));
            self.search
                .pv
                .resize_with(depth, || Vec::with_capacity(depth));
        }
        self.search.counters = Counters::default();
        self.search.aborted = false;
        if let Some(t) = &mut self.table {
            t.reset();
        }
        let start = Instant::now();
        self.search.start = start;
        let mut searches = 0;
        let value = if let Some(u) = game.outcome() {
            u
        } else if let Some(v) = self.tech.win_check.then(|| game.win_in_one()).flatten() {
            v
        } else {
            let (mut lo, mut hi) = game.external_bounds();
            if self.tech.bounds {
                // The side to move cannot win at once (checked above).
                hi = hi.min(game.external_score(game.solver_bounds().1));
            }
            if weak {
                lo = lo.max(-1);
                hi = hi.min(1);
            }
            if self.tech.null_window {
                while lo < hi && !self.search.aborted {
                    let mut med = lo + (hi - lo) / 2;
                    if med <= 0 && lo / 2 < med {
                        med = lo / 2;
                    } else if med >= 0 && hi / 2 > med {
                        med = hi / 2;
                    }
                    // Is the score above `med`? A null window just below the least value
                    // whose score is med + 1.
                    let target = game.value_of_external(med + 1);
                    searches += 1;
                    let r = self.node(game, 0, target - 1, target);
                    if r >= target {
                        lo = game.external_score(r).clamp(med + 1, hi);
                    } else {
                        hi = game.external_score(r).clamp(lo, med);
                    }
                }
                game.value_of_external(lo)
            } else {
                searches += 1;
                let a = game.value_of_external(lo) - 1;
                let b = game.value_of_external(hi) + 1;
                let r = self.node(game, 0, a, b);
                let s = game.external_score(r).clamp(lo, hi);
                if weak {
                    game.value_of_external(s)
                } else {
                    r
                }
            }
        };
        self.search.counters.time_ns = start.elapsed().as_nanos() as u64;
        let mut score = game.external_score(value);
        if weak {
            score = score.signum();
        }
        SolveResult {
            value,
            score,
            counters: self.search.counters,
            table: self.table.as_ref().map(|t| t.counters).unwrap_or_default(),
            searches,
            status: if self.search.aborted {
                Status::Budget
            } else {
                Status::Ok
            },
        }
    }

    /// Alpha-beta (fail-soft) to the end of the game with the enabled techniques.
    fn node(&mut self, game: &mut G, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.search.enter(ply).is_err() {
            return 0;
        }
        let c = &mut self.search.counters;
        if let Some(u) = game.outcome() {
            c.leaves += 1;
            c.terminal += 1;
            return u;
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let tech = self.tech;
        if tech.win_check {
            if let Some(v) = game.win_in_one() {
                c.leaves += 1;
                return v;
            }
        }
        let mut moves = std::mem::take(&mut self.search.moves[ply]);
        moves.clear();
        let lost = if tech.non_losing {
            game.non_losing_moves(&mut moves)
        } else {
            None
        };
        match lost {
            None => game.moves(&mut moves),
            Some(v) if moves.is_empty() => {
                // Every move lets the opponent connect at once.
                self.search.moves[ply] = moves;
                self.search.counters.leaves += 1;
                return v;
            }
            Some(_) => {}
        }
        if tech.bounds {
            let (lo, hi) = game.solver_bounds();
            // The lower bound assumes a non-losing move exists: only known with non-losing.
            let lo = if lost.is_some() { lo } else { -INF };
            let decided = if lo >= beta {
                Some(lo)
            } else if hi <= alpha || lo >= hi {
                Some(hi)
            } else {
                None
            };
            if let Some(v) = decided {
                self.search.moves[ply] = moves;
                self.search.counters.leaves += 1;
                return v;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let key = game.key();
        if let Some(t) = &mut self.table {
            if let Some((lo, hi)) = t.probe(key) {
                if lo >= beta || hi <= alpha || lo == hi {
                    t.counters.cutoffs += 1;
                    self.search.moves[ply] = moves;
                    return if lo >= beta { lo } else { hi };
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
        }
        let alpha0 = alpha;
        self.search.counters.interior += 1;
        self.search.counters.moves_generated += moves.len() as u64;
        self.search.sort_moves(game, ply, &mut moves);
        let mut best = -INF;
        for (i, &m) in moves.iter().enumerate() {
            game.make(m);
            let v = -self.node(game, ply + 1, -beta, -alpha);
            game.unmake(m);
            if self.search.aborted {
                break;
            }
            best = best.max(v);
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    self.search.counters.cutoffs += 1;
                    if i == 0 {
                        self.search.counters.first_move_cutoffs += 1;
                    }
                    break;
                }
            }
        }
        self.search.moves[ply] = moves;
        if !self.search.aborted {
            if let Some(t) = &mut self.table {
                if best <= alpha0 {
                    t.store(key, -INF, best);
                } else if best >= beta {
                    t.store(key, best, INF);
                } else {
                    t.store(key, best, best);
                }
            }
        }
        best
    }
}

/// Solves one position as `spec` (ordering, budgets) and `tech` say.
pub fn solve<G: Game>(
    game: &mut G,
    spec: &SearchSpec,
    tech: Techniques,
    weak: bool,
    seed: u64,
) -> Result<SolveResult, String> {
    let mut s = Solver::new(game, spec, tech, seed)?;
    Ok(s.solve(game, weak))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn techniques_parse_and_display() {
        assert_eq!(Techniques::parse("all").unwrap(), Techniques::ALL);
        let t = Techniques::parse("tt+win-check").unwrap();
        assert!(t.tt && t.win_check && !t.null_window);
        assert_eq!(t.to_string(), "win-check+tt");
        assert_eq!(
            Techniques::parse("null-window+win-check+non-losing+bounds+tt").unwrap(),
            Techniques::ALL
        );
        assert!(Techniques::parse("non-losing").is_err());
        assert!(Techniques::parse("magic").is_err());
    }

    #[test]
    fn table_keeps_bounds_per_generation() {
        let mut t = SolverTable::new(4);
        t.store(7, -INF, 5);
        t.store(7, -3, INF);
        assert_eq!(t.probe(7), Some((-3, 5)));
        assert_eq!(t.probe(8), None);
        t.reset();
        assert_eq!(t.probe(7), None);
    }
}
