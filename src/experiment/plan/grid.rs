//! The search keys of `[search]` (algorithm, variant, depth, ordering, tie-break, budgets,
//! iterative deepening, the table and quiescence), validated, and their expansion with the
//! setups' positions and the repetitions into runs.

use std::collections::BTreeSet;
use std::path::Path;

use super::keys::{fnv1a, mix, run_key, seed_key, Widths};
use super::sources::SetupPositions;
use super::{GameSetup, Run, MAX_NODES_ALLOWED, MAX_REPETITIONS, MAX_RUNS};
use crate::error::{Error, Result};
use crate::experiment::config::{
    at, at_key, item_span, Depth, DepthSpec, ExperimentFile, GameKind, SearchSection, TtSection,
};
use crate::search::solver::{self, Techniques};
use crate::search::{
    tt, Algorithm, Bounds, Ordering, Quiescence, Replacement, TieBreak, TtSpec, Variant,
};

/// The values of every search key, validated: the grid's axes.
pub struct SearchGrid {
    algorithms: Vec<Algorithm>,
    variants: Vec<Variant>,
    depths: Vec<Depth>,
    quiescences: Vec<Quiescence>,
    orderings: Vec<Ordering>,
    ties: Vec<TieBreak>,
    reps: u32,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
    iteratives: Vec<bool>,
    tt_grid: Vec<Option<TtSpec>>,
    reference: bool,
    solvers: Vec<Techniques>,
    /// Every algorithm is `solve`.
    pub solve_only: bool,
}

impl SearchGrid {
    /// Reads and checks `[search]` (`kinds`: the games the experiment lists).
    pub fn new(
        path: &Path,
        src: &str,
        file: &ExperimentFile,
        kinds: &[GameKind],
    ) -> Result<SearchGrid> {
        let s = &file.search;
        let algorithms: Vec<Algorithm> = s.algorithm.values().iter().map(|n| n.0).collect();
        let variants: Vec<Variant> = s
            .variant
            .as_ref()
            .map(|v| v.values().iter().map(|n| n.0).collect())
            .unwrap_or_else(|| vec![Variant::FailSoft]);
        let solve_only = algorithms.iter().all(|&a| a == Algorithm::Solve);
        let depths = depths(path, src, file, kinds, &algorithms, solve_only)?;
        let quiescences = s.quiescence_grid();
        let orderings: Vec<Ordering> = s
            .ordering
            .as_ref()
            .map(|o| o.values().iter().map(|x| x.0.clone()).collect())
            .unwrap_or_else(|| vec![Ordering::natural()]);
        let ties: Vec<TieBreak> = s
            .tie_break
            .as_ref()
            .map(|v| v.values().iter().map(|n| n.0).collect())
            .unwrap_or_else(|| vec![TieBreak::First]);
        let (reps, max_nodes, max_seconds) = limits(path, src, s)?;
        let iteratives: Vec<bool> = s
            .iterative
            .as_ref()
            .map(|v| v.values().to_vec())
            .unwrap_or_else(|| vec![false]);
        let tt_grid = tt_specs(path, src, s.tt.as_ref())?;
        let reference = s.tt.as_ref().and_then(|t| t.reference).unwrap_or(false);
        let solvers: Vec<Techniques> = s
            .solver
            .as_ref()
            .map(|v| v.get_ref().values().iter().map(|t| t.0).collect())
            .unwrap_or_else(|| vec![Techniques::ALL]);
        if let Some(sv) = &s.solver {
            if !algorithms.contains(&Algorithm::Solve) {
                return Err(at(
                    path,
                    src,
                    sv.span(),
                    "[search] solver sets the techniques of algorithm \"solve\", which this experiment does not run",
                ));
            }
        }
        // Some run uses randomness, so `repetitions` repeats it (`Run::uses_randomness`; the
        // solver has no random tie-break).
        let random = orderings.iter().any(Ordering::uses_randomness)
            || (ties.contains(&TieBreak::Random) && !solve_only);
        unused_settings(path, src, s, kinds, &algorithms, &solvers, &tt_grid, random)?;
        Ok(SearchGrid {
            algorithms,
            variants,
            depths,
            quiescences,
            orderings,
            ties,
            reps,
            max_nodes,
            max_seconds,
            iteratives,
            tt_grid,
            reference,
            solvers,
            solve_only,
        })
    }

    /// The grid's values of `key` (a key `[search] exclude` may name), defaults included
    /// (`fail-soft`, `first`), written as runs.csv writes them: what an exclusion may name.
    pub fn listed(&self, key: &str) -> Vec<String> {
        match key {
            "algorithm" => self
                .algorithms
                .iter()
                .map(|a| a.name().to_string())
                .collect(),
            "variant" if self.algorithms.iter().any(|a| a.prunes()) => {
                self.variants.iter().map(|v| v.name().to_string()).collect()
            }
            "depth" if !self.solve_only => self.depths.iter().map(|d| d.to_string()).collect(),
            "ordering" => self.orderings.iter().map(|o| o.to_string()).collect(),
            "tie_break" if !self.solve_only => {
                self.ties.iter().map(|t| t.name().to_string()).collect()
            }
            "iterative" if !self.solve_only => {
                self.iteratives.iter().map(|i| i.to_string()).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Refuses, as `new` does for the whole grid, a setting that none of `runs` (the runs
    /// `[search] exclude` keeps) uses: the variant once every alpha-beta run is left out,
    /// `repetitions` once every random one is, and so on.
    pub fn check_kept(
        &self,
        path: &Path,
        src: &str,
        s: &SearchSection,
        kinds: &[GameKind],
        runs: &[Run],
    ) -> Result<()> {
        let algorithms: Vec<Algorithm> = self
            .algorithms
            .iter()
            .copied()
            .filter(|a| runs.iter().any(|r| r.algorithm == *a))
            .collect();
        let solvers: Vec<Techniques> = self
            .solvers
            .iter()
            .copied()
            .filter(|t| runs.iter().any(|r| r.solver == Some(*t)))
            .collect();
        let tt_grid: Vec<Option<TtSpec>> = self
            .tt_grid
            .iter()
            .copied()
            .filter(|t| runs.iter().any(|r| r.tt == *t))
            .collect();
        let random = runs.iter().any(Run::uses_randomness);
        // A depth in plies beside the solver alone, as `depths` refuses it for the file.
        if let Some(d) = &s.depth {
            if runs.iter().all(|r| r.solver.is_some()) {
                plies_beside_solver(
                    path,
                    src,
                    d,
                    "the runs kept are all algorithm \"solve\", which",
                )?;
            }
        }
        unused_settings(path, src, s, kinds, &algorithms, &solvers, &tt_grid, random)
    }

    /// What the runs of each algorithm (and each of the solver's technique sets) take from the
    /// grid, in the order of `algorithm`'s list.
    fn axes(&self) -> Vec<Axes> {
        let mut out = Vec::new();
        for &algorithm in &self.algorithms {
            let solve = algorithm == Algorithm::Solve;
            let solvers: Vec<Option<Techniques>> = if solve {
                self.solvers.iter().map(|&t| Some(t)).collect()
            } else {
                vec![None]
            };
            for solver in solvers {
                // What the solver does not use is dropped, not multiplied: it always searches
                // to the end of the game, and has no root tie-break, iterative deepening or
                // quiescence.
                let (depths, ties, iteratives, quiescences) = if solve {
                    (
                        vec![Depth::Full],
                        vec![TieBreak::First],
                        vec![false],
                        vec![Quiescence::off()],
                    )
                } else {
                    (
                        self.depths.clone(),
                        self.ties.clone(),
                        self.iteratives.clone(),
                        self.quiescences.clone(),
                    )
                };
                out.push(Axes {
                    algorithm,
                    solver,
                    // The variant only means something for alpha-beta: other algorithms run once.
                    variants: if algorithm.prunes() {
                        self.variants.iter().map(|&v| Some(v)).collect()
                    } else {
                        vec![None]
                    },
                    depths,
                    ties,
                    iteratives,
                    tables: self.tables(algorithm, solver),
                    quiescences,
                });
            }
        }
        out
    }

    /// The tables runs of `algorithm` search with. The solver's is the experiment's
    /// (`[search.tt]`), else its own default, and none without the `tt` technique; the table
    /// serves alpha-beta (and the solver's `tt`) only: other algorithms run once, without it.
    fn tables(&self, algorithm: Algorithm, solver: Option<Techniques>) -> Vec<Option<TtSpec>> {
        match solver {
            Some(t) if t.tt => {
                // `enabled = false` turns alpha-beta's table off; the solver's `tt` technique
                // says whether it has one, so a disabled grid entry gives it no second table.
                let mut v: Vec<Option<TtSpec>> = Vec::new();
                for spec in self.tt_grid.iter().flatten() {
                    if !v.contains(&Some(*spec)) {
                        v.push(Some(*spec));
                    }
                }
                if v.is_empty() {
                    v.push(Some(solver::default_table()));
                }
                v
            }
            _ if algorithm.prunes() => self.tt_grid.clone(),
            _ => vec![None],
        }
    }

    /// What multiplies the grid, for the error of a grid past `MAX_RUNS`: the positions, then
    /// each `[search]` key with more than one value and its count, then the repetitions (a
    /// product that bounds the runs: not every algorithm takes every key).
    pub fn factors(&self, setups: usize, positions: usize) -> String {
        let mut parts = vec![if setups > 1 {
            format!("{positions} positions (over {setups} game setups)")
        } else {
            format!("{positions} positions")
        }];
        for (_, key, n) in self.search_factors() {
            if n > 1 {
                parts.push(format!("{key} {n}"));
            }
        }
        if self.reps > 1 {
            parts.push(format!(
                "repetitions {} (of runs that use randomness)",
                self.reps
            ));
        }
        parts.join(" × ")
    }

    /// What each `[search]` key multiplies the grid by: (its path in the file, its name in
    /// messages, its number of values that make runs differ). `repetitions` is apart: it
    /// repeats only the runs that use randomness.
    fn search_factors(&self) -> [(&'static [&'static str], &'static str, usize); 9] {
        let alphabeta = self.algorithms.iter().any(|a| a.prunes());
        let solve = self.algorithms.contains(&Algorithm::Solve);
        [
            (&["search", "algorithm"], "algorithm", self.algorithms.len()),
            (
                &["search", "variant"],
                "variant",
                if alphabeta { self.variants.len() } else { 1 },
            ),
            (&["search", "depth"], "depth", self.depths.len()),
            (&["search", "ordering"], "ordering", self.orderings.len()),
            (&["search", "tie_break"], "tie_break", self.ties.len()),
            (&["search", "iterative"], "iterative", self.iteratives.len()),
            (
                &["search", "tt"],
                "[search.tt] settings",
                self.tt_grid.len(),
            ),
            (
                &["search", "quiescence"],
                "[search.quiescence] settings",
                self.quiescences.len(),
            ),
            (
                &["search", "solver"],
                "solver",
                if solve { self.solvers.len() } else { 1 },
            ),
        ]
    }

    /// The path in the file of the `[search]` list with the most values (`repetitions`
    /// included), with that count: what a grid past `MAX_RUNS` is most likely to shrink by
    /// (ties: the first in `factors`' order).
    pub fn largest_factor(&self) -> (&'static [&'static str], usize) {
        let reps: (&'static [&'static str], usize) =
            (&["search", "repetitions"], self.reps as usize);
        self.search_factors()
            .into_iter()
            .map(|(path, _, n)| (path, n))
            .chain([reps])
            .fold((reps.0, 0), |best, k| if k.1 > best.1 { k } else { best })
    }

    /// Every run: each setup's positions × the grid × the repetitions (of runs that use
    /// randomness), each run once (by key), in the order of the lists; the experiment's `seed`
    /// and each run's key give the run's seed.
    pub fn expand(
        &self,
        path: &Path,
        seed: u64,
        setups: &[GameSetup],
        positions: &SetupPositions,
    ) -> Result<Vec<Run>> {
        // Numbers in keys are zero-padded to one width each, so that key order is numeric order.
        let axes = self.axes();
        let widths = Widths::new(
            positions.iter().map(|r| r.len()).max().unwrap_or(0),
            axes.iter()
                .flat_map(|a| &a.depths)
                .filter_map(|d| match d {
                    Depth::Plies(p) => Some(*p),
                    Depth::Full => None,
                })
                .max()
                .unwrap_or(0),
            self.reps.saturating_sub(1),
        );
        let mut runs = Runs {
            path,
            factors: self.factors(setups.len(), positions.iter().map(Vec::len).sum()),
            seed,
            widths,
            reps: self.reps,
            runs: Vec::new(),
            seen: BTreeSet::new(),
        };
        for (setup, row) in setups.iter().zip(positions) {
            for (position_id, (position, expected)) in row.iter().enumerate() {
                for a in &axes {
                    for &variant in &a.variants {
                        for &depth in &a.depths {
                            for ordering in &self.orderings {
                                for &tie_break in &a.ties {
                                    for &iterative in &a.iteratives {
                                        for &tt in &a.tables {
                                            for &quiescence in &a.quiescences {
                                                let quiescence = quiescence_on(setup, quiescence);
                                                runs.add(Run {
                                                    key: String::new(),
                                                    seed: 0,
                                                    game: setup.clone(),
                                                    position_id,
                                                    position: position.clone(),
                                                    algorithm: a.algorithm,
                                                    variant,
                                                    depth,
                                                    ordering: ordering.clone(),
                                                    tie_break,
                                                    rep: 0,
                                                    max_nodes: self.max_nodes,
                                                    max_seconds: self.max_seconds,
                                                    quiescence,
                                                    tt,
                                                    iterative,
                                                    reference: self.reference,
                                                    solver: a.solver,
                                                    expected: *expected,
                                                })?;
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(runs.runs)
    }

    /// The runs one position of each setup makes (the same for every position of a setup:
    /// nothing in the grid looks at the position), so that a source of many positions, or a
    /// grid too large, can be refused before it is built; past `MAX_RUNS`, `MAX_RUNS + 1`.
    pub fn runs_per_position(&self, setups: &[GameSetup]) -> Vec<usize> {
        setups
            .iter()
            .map(|s| self.count(s).min(MAX_RUNS + 1))
            .collect()
    }

    /// The runs `expand` makes of one position of `setup`, counted without building them
    /// (a grid of a million runs takes seconds to build): the product of each algorithm's
    /// axes, with the repetitions only for runs that use randomness. `expand` drops a run
    /// whose key it has already made; the only such runs are quiescence settings that
    /// collapse into one on a game without noisy moves, which this counts once too (the
    /// other lists take no value twice). Saturates rather than overflows.
    fn count(&self, setup: &GameSetup) -> usize {
        let mut total = 0usize;
        for a in self.axes() {
            // Each (ordering, tie-break) pair: `reps` runs if it uses randomness
            // (`Run::uses_randomness`), else one.
            let mut pairs = 0usize;
            for o in &self.orderings {
                for &t in &a.ties {
                    let random = o.uses_randomness() || t == TieBreak::Random;
                    pairs = pairs.saturating_add(if random { self.reps as usize } else { 1 });
                }
            }
            let mut quiescences: Vec<Quiescence> = Vec::new();
            for &q in &a.quiescences {
                let q = quiescence_on(setup, q);
                if !quiescences.contains(&q) {
                    quiescences.push(q);
                }
            }
            let runs = [
                a.variants.len(),
                a.depths.len(),
                a.iteratives.len(),
                a.tables.len(),
                quiescences.len(),
                pairs,
            ]
            .into_iter()
            .fold(1usize, usize::saturating_mul);
            total = total.saturating_add(runs);
        }
        total
    }
}

/// The quiescence setting a run on `setup` searches with: only chess has noisy moves for the
/// options to choose among, so another game's run takes quiescence on or off, with the
/// defaults (one run for every setting that differs in them).
fn quiescence_on(setup: &GameSetup, q: Quiescence) -> Quiescence {
    if q.enabled && setup.kind() != GameKind::Chess {
        Quiescence::stand_pat()
    } else {
        q
    }
}

/// Refuses a depth in plies where every run is the solver's (`who`: those runs, as the
/// message names them), which searches to the end of the game and would ignore it.
fn plies_beside_solver(
    path: &Path,
    src: &str,
    d: &toml::Spanned<DepthSpec>,
    who: &str,
) -> Result<()> {
    if d.get_ref().0.iter().all(|&x| x == Depth::Full) {
        return Ok(());
    }
    Err(at(
        path,
        src,
        d.span(),
        format!("`depth`: {who} always searches to the end of the game, so a depth in plies would be ignored; allowed: \"full\", or leave depth out"),
    ))
}

/// Refuses a `[search]` setting that no run of the experiment would use, since the runs would
/// silently be what they are without it: a variant without alpha-beta; a table without
/// alpha-beta or the solver's `tt`; `enabled` without alpha-beta (the solver's table is its
/// technique); a table's size or scheme with every table off; quiescence options with
/// quiescence off in every run, or on a game with no noisy moves (all but chess: quiescence
/// there only stands pat, so `checks = [false, true]` searched each position twice alike); a
/// `reference` comparison with no
/// alpha-beta run that has a table; `repetitions` above 1 with no run that uses randomness
/// (`random`); and with the solver alone, iterative deepening, quiescence or a random
/// tie-break (the solver has none of them).
#[allow(clippy::too_many_arguments)]
fn unused_settings(
    path: &Path,
    src: &str,
    s: &SearchSection,
    kinds: &[GameKind],
    algorithms: &[Algorithm],
    solvers: &[Techniques],
    tt_grid: &[Option<TtSpec>],
    random: bool,
) -> Result<()> {
    let names: Vec<&str> = algorithms.iter().map(|a| a.name()).collect();
    let runs = format!("this experiment runs {}", names.join(", "));
    let refuse = |key: &[&str], msg: String| Err(at_key(path, src, key, msg));
    // Alpha-beta or principal variation search: the searches with a variant and a table.
    let alphabeta = algorithms.iter().any(|a| a.prunes());
    let solve_only = algorithms.iter().all(|&a| a == Algorithm::Solve);
    // The first option set of a feature that every run has off (which it would not shape).
    let first_set = |off: bool, options: &[(&'static str, bool)]| {
        options
            .iter()
            .find(|(_, set)| off && *set)
            .map(|(key, _)| *key)
    };
    let solve_tt = algorithms.contains(&Algorithm::Solve) && solvers.iter().any(|t| t.tt);
    if s.variant.is_some() && !alphabeta {
        return refuse(
            &["search", "variant"],
            format!("[search] variant: fail-hard and fail-soft are variants of alphabeta and pvs, and {runs}; add alphabeta or pvs to algorithm, or drop variant"),
        );
    }
    if let Some(t) = &s.tt {
        if !alphabeta && !solve_tt {
            let fix = if algorithms.contains(&Algorithm::Solve) {
                "add tt to solver"
            } else {
                "add alphabeta to algorithm"
            };
            return refuse(
                &["search", "tt"],
                format!("[search.tt]: a transposition table serves alphabeta, pvs and solve's `tt` technique, and {runs}{}; {fix}, or drop [search.tt]", if algorithms.contains(&Algorithm::Solve) { " with no solver set that includes tt" } else { "" }),
            );
        }
        // `enabled` turns alpha-beta's table on and off; the solver's is its `tt` technique.
        if t.enabled.is_some() && !alphabeta {
            return refuse(
                &["search", "tt", "enabled"],
                format!("[search.tt] enabled: turns the table of alphabeta and pvs on and off, and {runs}; the solver's table is its `tt` technique (to compare, list solver sets with and without it: solver = [\"all\", \"null-window+win-check+non-losing+bounds\"]), so drop enabled"),
            );
        }
        // Every table off: no run has one to size or to shape.
        let all_off = t
            .enabled
            .as_ref()
            .is_some_and(|e| !e.values().contains(&true));
        let shaped = [
            ("entries", t.entries.is_some()),
            ("mib", t.mib.is_some()),
            ("replacement", t.replacement.is_some()),
            ("key_bits", t.key_bits.is_some()),
            ("bounds", t.bounds.is_some()),
        ];
        if let Some(key) = first_set(all_off, &shaped) {
            return refuse(
                &["search", "tt", key],
                format!("[search.tt] {key}: enabled = false turns every table off, so no run has one that {key} would shape (the solver's, with `tt`, takes its default then); allowed: enabled = true or [false, true], or drop {key}"),
            );
        }
    }
    // Quiescence off in every setting: no run has one that its options would shape.
    if let Some(q) = &s.quiescence {
        let q = q.get_ref();
        let shaped = [
            ("checks", q.checks.is_some()),
            ("promotions", q.promotions.is_some()),
            ("delta", q.delta.is_some()),
        ];
        if let Some(key) = first_set(!q.enabled.values().contains(&true), &shaped) {
            // The solver has no quiescence search: with only solve runs the fix is to drop it.
            let fix = if solve_only {
                "drop quiescence (the solver has no quiescence search)".to_string()
            } else {
                format!("allowed: enabled = true or [false, true], or drop {key}")
            };
            return refuse(
                &["search", "quiescence", key],
                format!("[search] quiescence {key}: enabled = false turns quiescence search off in every run, so no run has one that {key} would shape; {fix}"),
            );
        }
        // No noisy moves: the options choose among moves the game does not have. (Beside
        // chess the options shape its runs; the other games' runs take quiescence as it is on
        // or off, `Grid::expand`.)
        if let Some(kind) = kinds.first().filter(|_| !kinds.contains(&GameKind::Chess)) {
            if let Some(key) = first_set(true, &shaped) {
                let name = kind.name();
                return refuse(
                    &["search", "quiescence", key],
                    format!("[search] quiescence {key}: {name} has no noisy moves (captures, promotions and checks are chess's), so quiescence search there only stands pat and {key} would shape no search; allowed: drop {key} (quiescence = {{ enabled = true }} stands pat at the horizon)"),
                );
            }
        }
    }
    if let Some(r) = s
        .repetitions
        .as_ref()
        .filter(|r| *r.get_ref() > 1 && !random)
    {
        return refuse(
            &["search", "repetitions"],
            format!("[search] repetitions = {}: only runs that use randomness repeat (`random` or `strong:` in the ordering, or tie_break = \"random\"), and no run of this experiment does, so each repeat would search the same tree again; allowed: drop repetitions (or repetitions = 1), or an ordering or tie-break that draws", r.get_ref()),
        );
    }
    if s.tt.as_ref().and_then(|t| t.reference) == Some(true)
        && !(alphabeta && tt_grid.iter().any(|t| t.is_some()))
    {
        return refuse(
            &["search", "tt", "reference"],
            format!("[search.tt] reference: compares alphabeta or pvs with a table against the same search without one, and no run is alphabeta or pvs with a table ({runs}{}); allowed: reference = false, or alphabeta or pvs with enabled = true", if alphabeta { ", the table disabled" } else { "" }),
        );
    }
    if solve_only {
        let unused: [(&str, bool, &str); 3] = [
            (
                "iterative",
                s.iterative
                    .as_ref()
                    .is_some_and(|v| v.values().contains(&true)),
                "iterative deepening",
            ),
            (
                "quiescence",
                s.quiescence
                    .as_ref()
                    .is_some_and(|q| q.get_ref().enabled.values().contains(&true)),
                "quiescence search",
            ),
            (
                "tie_break",
                s.tie_break
                    .as_ref()
                    .is_some_and(|v| v.values().iter().any(|t| t.0 == TieBreak::Random)),
                "random root tie-break",
            ),
        ];
        for (key, set, what) in unused {
            if set {
                return refuse(
                    &["search", key],
                    format!("[search] {key}: the solver has no {what}, and every run of this experiment is algorithm \"solve\"; add minimax, negamax, alphabeta or pvs to algorithm, or drop {key}"),
                );
            }
        }
    }
    Ok(())
}

/// The depths `depth` lists: required unless every algorithm is the solver (`solve_only`),
/// which takes only "full" (its default); chess takes neither the solver nor "full".
fn depths(
    path: &Path,
    src: &str,
    file: &ExperimentFile,
    kinds: &[GameKind],
    algorithms: &[Algorithm],
    solve_only: bool,
) -> Result<Vec<Depth>> {
    let s = &file.search;
    if kinds.contains(&GameKind::Chess) && algorithms.contains(&Algorithm::Solve) {
        return Err(at_key(
            path,
            src,
            &["search", "algorithm"],
            "[search] algorithm \"solve\" is not available for chess (the solver searches to the end of the game, which chess does not bound); use alphabeta to a depth",
        ));
    }
    let depths = match &s.depth {
        // The solver searches to the end: a depth of plies with only the solver would be
        // silently ignored.
        Some(d) => {
            if solve_only {
                plies_beside_solver(path, src, d, "algorithm \"solve\"")?;
            }
            d.get_ref().0.clone()
        }
        // The solver always searches to the end of the game.
        None if solve_only => vec![Depth::Full],
        None => {
            return Err(at_key(
                path,
                src,
                &["search"],
                "[search] depth is missing: give plies (depth = 4), a list (depth = [2, 4]), a range (depth = { from = 1, to = 6 }) or \"full\"; only algorithm \"solve\" goes without",
            ));
        }
    };
    if let (true, Some(d)) = (
        kinds.contains(&GameKind::Chess) && depths.contains(&Depth::Full),
        &s.depth,
    ) {
        return Err(at(
            path,
            src,
            d.span(),
            "depth \"full\" is not available for chess (no useful bound on the game's length); give plies, e.g. depth = { from = 1, to = 5 }",
        ));
    }
    Ok(depths)
}

/// `repetitions` (of runs that use randomness; default 1), `max_nodes` and `max_seconds`.
fn limits(path: &Path, src: &str, s: &SearchSection) -> Result<(u32, Option<u64>, Option<f64>)> {
    let reps = match &s.repetitions {
        Some(r) if !(1..=MAX_REPETITIONS).contains(r.get_ref()) => {
            return Err(at(
                path,
                src,
                r.span(),
                format!(
                    "repetitions = {}; it must be from 1 to {MAX_REPETITIONS}",
                    r.get_ref()
                ),
            ))
        }
        Some(r) => *r.get_ref(),
        None => 1,
    };
    let max_nodes = match &s.max_nodes {
        Some(m) if *m.get_ref() == 0 => {
            return Err(at(
                path,
                src,
                m.span(),
                format!("max_nodes = 0: allowed: {MAX_NODES_ALLOWED}"),
            ))
        }
        m => m.as_ref().map(|m| *m.get_ref()),
    };
    let max_seconds = match &s.max_seconds {
        // (Below a nanosecond the budget would round to none: 0 ns.)
        Some(m) if !(*m.get_ref() >= 1e-9 && m.get_ref().is_finite()) => {
            return Err(at(
                path,
                src,
                m.span(),
                format!(
                    "`max_seconds` = {}: allowed: {}",
                    short_number(*m.get_ref()),
                    crate::experiment::config::MAX_SECONDS_ALLOWED
                ),
            ))
        }
        m => m.as_ref().map(|m| *m.get_ref()),
    };
    Ok((reps, max_nodes, max_seconds))
}

/// What the runs of one algorithm (with one set of the solver's techniques) vary over, besides
/// the orderings, which every algorithm takes alike (`SearchGrid::orderings`).
struct Axes {
    algorithm: Algorithm,
    solver: Option<Techniques>,
    variants: Vec<Option<Variant>>,
    depths: Vec<Depth>,
    ties: Vec<TieBreak>,
    iteratives: Vec<bool>,
    tables: Vec<Option<TtSpec>>,
    quiescences: Vec<Quiescence>,
}

/// `x` as the file could have written it, in exponent form when tiny or huge (Rust writes
/// 5e-324 in 330 digits otherwise).
fn short_number(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-6..1e15).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// The error of a grid past `MAX_RUNS`, with what multiplies it (`SearchGrid::factors`).
pub fn too_many_runs(path: &Path, factors: &str) -> Error {
    Error::input(format!(
        "{}: {}",
        path.display(),
        too_many_runs_text(factors)
    ))
}

/// `too_many_runs`, placed at `key` (the file's largest list) where the file writes it.
pub fn too_many_runs_at(path: &Path, src: &str, key: &[&str], factors: &str) -> Error {
    match crate::experiment::config::locate(src, key) {
        Some(pos) => at(path, src, pos..pos, too_many_runs_text(factors)),
        None => too_many_runs(path, factors),
    }
}

fn too_many_runs_text(factors: &str) -> String {
    format!("the experiment's grid holds more than {MAX_RUNS} runs, the most one experiment holds; it multiplies {factors}; split it into several experiments, or give those keys fewer values")
}

/// The runs expanded so far, each key once.
struct Runs<'a> {
    path: &'a Path,
    /// What multiplies the grid (`SearchGrid::factors`), for the error past `MAX_RUNS`.
    factors: String,
    seed: u64,
    widths: Widths,
    reps: u32,
    runs: Vec<Run>,
    seen: BTreeSet<String>,
}

impl Runs<'_> {
    /// Adds `run`, repeated `reps` times if it uses randomness, with its key and seed; a run
    /// whose key is already there is not added again.
    fn add(&mut self, mut run: Run) -> Result<()> {
        let n = if run.uses_randomness() { self.reps } else { 1 };
        for rep in 0..n {
            run.rep = rep;
            run.key = run_key(&run, self.widths);
            run.seed = mix(self.seed, fnv1a(&seed_key(&run)));
            if self.seen.insert(run.key.clone()) {
                if self.runs.len() == MAX_RUNS {
                    return Err(too_many_runs(self.path, &self.factors));
                }
                self.runs.push(run.clone());
            }
        }
        Ok(())
    }
}

/// The table settings of `[search.tt]`, expanded into the grid: `None` is the table off.
/// Validates every value, with the file, line:column and key in the message.
fn tt_specs(path: &Path, src: &str, t: Option<&TtSection>) -> Result<Vec<Option<TtSpec>>> {
    let t = match t {
        Some(t) => t,
        None => return Ok(vec![None]),
    };
    let enabled: Vec<bool> = t
        .enabled
        .as_ref()
        .map(|v| v.values().to_vec())
        .unwrap_or_else(|| vec![true]);
    let replacements: Vec<Replacement> = t
        .replacement
        .as_ref()
        .map(|v| v.get_ref().values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![Replacement::Depth]);
    let bounds: Vec<Bounds> = t
        .bounds
        .as_ref()
        .map(|v| v.values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![Bounds::Correct]);
    let key_bits: Vec<u32> = match &t.key_bits {
        Some(k) => {
            for (i, &b) in k.get_ref().values().iter().enumerate() {
                if !(8..=64).contains(&b) {
                    return Err(at(
                        path,
                        src,
                        item_span(src, k.span(), i),
                        format!("[search.tt] key_bits = {b}: allowed are 8 to 64"),
                    ));
                }
            }
            k.get_ref().values().to_vec()
        }
        None => vec![64],
    };
    // Sizes in entries: (entries, replacement) pairs checked against each scheme.
    let mut sizes: Vec<u64> = Vec::new();
    match (&t.entries, &t.mib) {
        (Some(_), Some(m)) => {
            return Err(at(
                path,
                src,
                m.span(),
                "[search.tt]: give the size as `entries` or as `mib`, not both",
            ))
        }
        (Some(e), None) => {
            for (i, &n) in e.get_ref().values().iter().enumerate() {
                for &r in &replacements {
                    tt::check_entries(n, r).map_err(|msg| {
                        at(
                            path,
                            src,
                            item_span(src, e.span(), i),
                            format!("[search.tt] entries = {n}: {msg}"),
                        )
                    })?;
                }
                sizes.push(n);
            }
        }
        (None, Some(m)) => {
            for (i, &mib) in m.get_ref().values().iter().enumerate() {
                let mut n = 0;
                for &r in &replacements {
                    n = tt::entries_from_mib(mib, r).map_err(|msg| {
                        let hint = if mib.is_power_of_two() {
                            ""
                        } else {
                            " (or give `entries`)"
                        };
                        at(
                            path,
                            src,
                            item_span(src, m.span(), i),
                            format!("[search.tt] mib = {mib}: {msg}{hint}"),
                        )
                    })?;
                }
                sizes.push(n);
            }
        }
        (None, None) => sizes.push(tt::DEFAULT_ENTRIES),
    }
    let mut out = Vec::new();
    for &on in &enabled {
        if !on {
            out.push(None);
            continue;
        }
        for &entries in &sizes {
            for &replacement in &replacements {
                for &kb in &key_bits {
                    for &b in &bounds {
                        out.push(Some(TtSpec {
                            entries,
                            replacement,
                            key_bits: kb,
                            bounds: b,
                        }));
                    }
                }
            }
        }
    }
    Ok(out)
}
