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
//! - `tt`: the harness's transposition table (`search::tt`, `always` replacement, 2^18
//!   entries unless the spec gives a table) holding a value bound per exact key
//!   (lower, upper or exact, a new bound intersected with the one found) and the best move,
//!   consulted after the moves are generated and before they are searched. The table's move
//!   goes first, as in every search with a table (unless the ordering names `tt`). The
//!   table picks slots by Fibonacci hashing, so Connect Four's structured key spreads. It is
//!   emptied before each solve in time proportional to the previous solve's stores.
//!
//! Nodes are counted as in every search: one per call of the recursive search, summed over all
//! the null-window searches of one position. A position that is over, or (with `win-check`)
//! that the side to move wins at once, is decided before any search: 0 nodes.
//!
//! Below the root with `non-losing`, the win check is skipped: the parent played none of the
//! moves that let the side to move connect at once, so it cannot fire (the counts are the same).

use std::fmt;
use std::time::Instant;

use super::tt::{self, Bound, Table, NO_MOVE};
use super::{
    move_to_front, Algorithm, Counters, OrderTerm, Ordering, Replacement, SearchSpec, Searcher,
    Status, TtSpec, Variant,
};
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
            let flag = match part.trim() {
                "null-window" => &mut out.null_window,
                "win-check" => &mut out.win_check,
                "non-losing" => &mut out.non_losing,
                "bounds" => &mut out.bounds,
                "tt" => &mut out.tt,
                whole @ ("all" | "none") => {
                    return Err(format!(
                        "solver techniques `{t}` join `{whole}` with other techniques; `{whole}` is a whole set by itself; allowed: `all` or `none` alone, or techniques joined with `+`"
                    ))
                }
                other => {
                    return Err(format!(
                        "unknown solver technique `{other}`; allowed: {TECHNIQUES_HELP}"
                    ))
                }
            };
            if *flag {
                return Err(format!(
                    "solver techniques `{t}` name `{}` twice; allowed: each technique at most once",
                    part.trim()
                ));
            }
            *flag = true;
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

/// Entries of the solver's table when the spec gives none: 2^18 (4 MiB), the same for
/// `harness solve` and for experiment runs, so both count the same nodes. The hardest shipped
/// positions store about 10^5 entries.
pub const TABLE_ENTRIES: u64 = 1 << 18;

/// The solver's table when the spec gives none: `TABLE_ENTRIES` entries, `always` replacement,
/// 64-bit keys, correct bounds.
pub fn default_table() -> TtSpec {
    TtSpec {
        replacement: Replacement::Always,
        ..TtSpec::new(TABLE_ENTRIES)
    }
}

/// The table of one solver: the harness's transposition table (`search::tt`) holding value
/// bounds per exact key, emptied before each solve in time proportional to the previous
/// solve's stores (the keys stored are recorded; a solve that stored more than a quarter of
/// the entries empties the whole table).
struct SolverTable {
    table: Table,
    stored: Vec<u64>,
    /// Most keys recorded (a quarter of the entries).
    cap: usize,
    overflow: bool,
}

impl SolverTable {
    fn new(spec: &TtSpec) -> Result<SolverTable, String> {
        // `Table::try_new` writes every entry: no page is first touched during a solve.
        let table = Table::try_new(spec)?;
        let cap = (table.len() / 4).max(1);
        Ok(SolverTable {
            table,
            stored: Vec::with_capacity(cap),
            cap,
            overflow: false,
        })
    }

    /// Empties the table.
    fn reset(&mut self) {
        if self.overflow {
            self.table.clear();
        } else {
            for &k in &self.stored {
                self.table.forget(k);
            }
        }
        self.stored.clear();
        self.overflow = false;
    }

    /// Stores what a search of the node found (`score` as a `bound`) and its best move. A
    /// probe hit `old` (lower, upper) is intersected with it: when they meet, the entry becomes
    /// exact; otherwise the new bound (tightened by the old one) replaces the old entry.
    #[inline(always)]
    fn store(
        &mut self,
        key: u64,
        score: i32,
        bound: Bound,
        old: Option<(i32, i32)>,
        mv: u32,
        c: &mut Counters,
    ) {
        let (score, bound) = match (old, bound) {
            _ if self.table.naive_exact() => (score, Bound::Exact),
            (Some((lo, hi)), Bound::Lower) => {
                let lo = lo.max(score);
                (lo, if lo >= hi { Bound::Exact } else { Bound::Lower })
            }
            (Some((lo, hi)), Bound::Upper) => {
                let hi = hi.min(score);
                (hi, if lo >= hi { Bound::Exact } else { Bound::Upper })
            }
            _ => (score, bound),
        };
        self.table.store(key, 0, score, bound, mv, c);
        if self.stored.len() < self.cap {
            self.stored.push(key);
        } else {
            self.overflow = true;
        }
    }
}

/// What one solve returns.
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// The exact value (utility) from the side to move; in weak mode the value of the weak score.
    pub value: i32,
    /// The score in the game's external convention (weak mode: 1, 0 or -1).
    pub score: i32,
    /// The search counters, the table's (`tt_*`) included.
    pub counters: Counters,
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
    /// The table's move goes first although the ordering does not name `tt` (as in every
    /// search with a table).
    tt_first: bool,
    /// The seed every solve starts its random numbers from (random and `strong` orderings).
    seed: u64,
}

/// Checks that `ordering` names no term the solver never records: killer moves and history
/// would order nothing, and the runs would silently be what the ordering without them gives.
/// An experiment applies it when every run is `solve`; beside other runs its own check
/// refuses the terms unless an alpha-beta run names them (see `plan`).
pub fn check_recorded_terms(ordering: &Ordering) -> Result<(), String> {
    for (term, name) in [
        (OrderTerm::Killer, "killer"),
        (OrderTerm::History, "history"),
    ] {
        if ordering.has(&term) {
            return Err(format!(
                "ordering `{ordering}`: the solver records no {name} moves, so the term `{name}` would order nothing; allowed for the solver: the other orderings (natural, static, random, center-out, threats, explicit:..., oracle-best, oracle-worst, strong:P1:P2), and tt with its table"
            ));
        }
    }
    Ok(())
}

/// `check_recorded_terms`, and `tt` needs the solver's table: the check `harness solve` makes
/// (its one set of techniques is every run's).
pub fn check_ordering(ordering: &Ordering, tech: Techniques) -> Result<(), String> {
    check_recorded_terms(ordering)?;
    if ordering.has(&OrderTerm::Tt) && !tech.tt {
        return Err(format!(
            "ordering `{ordering}`: the term `tt` orders by the solver's table, which techniques `{tech}` leave out; add `tt` to the techniques or drop the term"
        ));
    }
    Ok(())
}

/// The longest game the solver sizes its buffers for.
pub const MAX_SOLVE_PLIES: u32 = 1_000;

impl<G: Game> Solver<G> {
    /// A solver for positions like `root` (explicit orderings are resolved against it). The
    /// spec gives the ordering and the budgets; its algorithm and depth are ignored.
    pub fn new(root: &G, spec: &SearchSpec, tech: Techniques, seed: u64) -> Result<Self, String> {
        let mut spec = spec.clone();
        spec.algorithm = Algorithm::AlphaBeta;
        spec.variant = Variant::FailSoft;
        // Buffers for the longest game from the root: only for games of bounded length.
        if root.max_remaining_plies() > MAX_SOLVE_PLIES {
            return Err(format!(
                "the solver needs a game of bounded length (at most {MAX_SOLVE_PLIES} plies), which {} is not; search it to a depth with alphabeta instead",
                G::NAME
            ));
        }
        spec.depth = root.max_remaining_plies();
        // The solver keeps its own table (below), not the searcher's.
        let table_spec = spec.tt.take().unwrap_or_else(default_table);
        if tech.tt {
            tt::check_entries(table_spec.entries, table_spec.replacement)?;
        }
        Ok(Solver {
            search: Searcher::new(root, &spec, seed)?,
            tech,
            table: match tech.tt {
                true => Some(SolverTable::new(&table_spec)?),
                false => None,
            },
            tt_first: tech.tt && !spec.ordering.has(&OrderTerm::Tt),
            seed,
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
        // Oracle orderings read the remaining depth as `depth_now - ply`: this position's.
        self.search.depth_now = game.max_remaining_plies();
        // Random numbers start afresh too, so a position's solve is the same wherever it
        // stands in a file.
        self.search.reseed(self.seed);
        if let Some(o) = &mut self.search.oracle {
            o.new_search();
        }
        self.search.oracle_visits = 0;
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
            // The whole range of scores still possible. Narrowing its top by `bounds` (no win
            // before our next stone but one) would move the medians the tests bisect at, and
            // costs nodes: 3,801 instead of 3,275 per position on Test_L1_R1.
            let (mut lo, mut hi) = game.external_bounds();
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
                    let r = self.root(game, target - 1, target);
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
                let r = self.root(game, a, b);
                let s = game.external_score(r).clamp(lo, hi);
                if weak {
                    game.value_of_external(s)
                } else {
                    r
                }
            }
        };
        self.search.counters.time_ns = start.elapsed().as_nanos() as u64;
        // The table's occupancy (setup, outside the time): it was empty when the solve began.
        if let Some(t) = &self.table {
            self.search.counters.tt_occupancy = if t.overflow {
                t.table.occupancy()
            } else {
                t.table.occupancy_of(&t.stored)
            };
        }

        let mut score = game.external_score(value);
        if weak {
            score = score.signum();
        }
        SolveResult {
            value,
            score,
            counters: self.search.counters,
            searches,
            status: if self.search.aborted {
                Status::Budget
            } else {
                Status::Ok
            },
        }
    }

    /// One alpha-beta search from the root on the window (alpha, beta), counted as a root.
    fn root(&mut self, game: &mut G, alpha: i32, beta: i32) -> i32 {
        let nodes = self.search.counters.nodes;
        let r = self.node(game, 0, alpha, beta);
        self.search.count_root(nodes);
        r
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
        // Below the root with non-losing moves, the side to move cannot win at once: its
        // parent played none of the moves that let it.
        if tech.win_check && (ply == 0 || !tech.non_losing) {
            if let Some(v) = game.win_in_one() {
                c.leaves += 1;
                return v;
            }
        }
        debug_assert!(!tech.win_check || game.win_in_one().is_none());
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
        let mut old = None;
        let mut tt_move = NO_MOVE;
        if let Some(t) = &self.table {
            let c = &mut self.search.counters;
            c.tt_probes += 1;
            if let Some(e) = t.table.probe(key, c) {
                c.tt_hits += 1;
                let s = e.score();
                let (lo, hi) = match e.bound() {
                    Bound::Exact => (s, s),
                    Bound::Lower => (s, INF),
                    Bound::Upper => (-INF, s),
                };
                if lo >= beta || hi <= alpha || lo == hi {
                    c.tt_cutoffs += 1;
                    self.search.moves[ply] = moves;
                    return if lo >= beta { lo } else { hi };
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
                old = Some((lo, hi));
                tt_move = e.best_move();
            }
        }
        let alpha0 = alpha;
        self.search.counters.interior += 1;
        self.search.counters.moves_generated += moves.len() as u64;
        self.search.node_tt_move = tt_move;
        self.search.sort_moves(game, ply, &mut moves);
        if self.tt_first && tt_move != NO_MOVE {
            move_to_front(&mut moves, |m| game.move_index(m) as u32 == tt_move);
        }
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for (i, &m) in moves.iter().enumerate() {
            game.make(m);
            let v = -self.node(game, ply + 1, -beta, -alpha);
            game.unmake(m);
            if self.search.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = game.move_index(m) as u32;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    self.search.counters.cutoffs += 1;
                    if i == 0 {
                        self.search.counters.first_move_cutoffs += 1;
                    }
                    if tt_move != NO_MOVE && best_move == tt_move {
                        self.search.counters.cutoffs_tt += 1;
                    }
                    break;
                }
            }
        }
        self.search.moves[ply] = moves;
        if !self.search.aborted {
            if let Some(t) = &mut self.table {
                let bound = Bound::from_window(best, alpha0, beta);
                t.store(key, best, bound, old, best_move, &mut self.search.counters);
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
        for text in ["none+tt", "all+tt", "win-check+none"] {
            let e = Techniques::parse(text).unwrap_err();
            assert!(e.contains("is a whole set by itself"), "{text}: {e}");
        }
        let t = Techniques::parse("tt+win-check").unwrap();
        assert!(t.tt && t.win_check && !t.null_window);
        assert_eq!(t.to_string(), "win-check+tt");
        assert_eq!(
            Techniques::parse("null-window+win-check+non-losing+bounds+tt").unwrap(),
            Techniques::ALL
        );
        assert!(Techniques::parse("non-losing").is_err());
        assert!(Techniques::parse("magic").is_err());
        assert!(Techniques::parse("tt+tt")
            .unwrap_err()
            .contains("name `tt` twice"));
        // Orderings the solver cannot follow.
        let all = Techniques::ALL;
        let no_tt = Techniques::parse("null-window+win-check").unwrap();
        for (ordering, tech, ok) in [
            ("threats+center-out", all, true),
            ("tt+center-out", all, true),
            ("tt+center-out", no_tt, false),
            ("killer+center-out", all, false),
            ("history", all, false),
        ] {
            let o = crate::search::Ordering::parse(ordering).unwrap();
            assert_eq!(check_ordering(&o, tech).is_ok(), ok, "{ordering} {tech}");
        }
    }

    #[test]
    fn table_intersects_bounds_and_empties_between_solves() {
        let mut t = SolverTable::new(&TtSpec {
            replacement: Replacement::Always,
            ..TtSpec::new(16)
        })
        .unwrap();
        let mut c = Counters::default();
        let bounds = |t: &SolverTable, k: u64| {
            t.table
                .probe(k, &mut Counters::default())
                .map(|e| (e.score(), e.bound()))
        };
        t.store(7, 5, Bound::Upper, None, NO_MOVE, &mut c);
        assert_eq!(bounds(&t, 7), Some((5, Bound::Upper)));
        // A lower bound meeting the upper one makes the entry exact...
        t.store(7, 5, Bound::Lower, Some((-INF, 5)), 2, &mut c);
        assert_eq!(bounds(&t, 7), Some((5, Bound::Exact)));
        // ... otherwise the new bound, tightened by the old, replaces it.
        t.store(8, -3, Bound::Lower, Some((-4, 9)), 1, &mut c);
        assert_eq!(bounds(&t, 8), Some((-3, Bound::Lower)));
        t.store(9, 20, Bound::Upper, Some((-4, 9)), 1, &mut c);
        assert_eq!(bounds(&t, 9), Some((9, Bound::Upper)));
        assert_eq!(c.tt_stores, 4);
        // Counted from the keys stored, the occupancy is the whole table's.
        assert_eq!(t.table.occupancy_of(&t.stored), 3);
        assert_eq!(t.table.occupancy(), 3);
        t.reset();
        for k in [7, 8, 9] {
            assert_eq!(bounds(&t, k), None);
        }
        // More stores than a quarter of the entries: the whole table is emptied.
        for k in 0..10 {
            t.store(k, 1, Bound::Lower, None, NO_MOVE, &mut c);
        }
        assert!(t.overflow);
        t.reset();
        assert!((0..10).all(|k| bounds(&t, k).is_none()));
        assert_eq!(t.table.occupancy(), 0);
    }
}
