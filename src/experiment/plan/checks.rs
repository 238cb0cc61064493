//! Refusals that need the whole grid of runs, made before anything is searched: an oracle
//! too large for its memory, a uniform-tree search that cannot finish in a sitting, a table
//! deeper than its entries record, and ordering terms no run can use.

use std::path::Path;

use super::uniform::{height_span, uniform_plies};
use super::{GameSetup, Run};
use crate::error::{Error, Result};
use crate::experiment::config::{at, at_key, locate, Depth, ExperimentFile};
use crate::search::{solver, tt, Algorithm};

/// Refuses, before anything runs, an oracle ordering on a uniform tree too large for the
/// oracle's memo.
pub fn check_oracle_memory(
    path: &Path,
    src: &str,
    file: &ExperimentFile,
    runs: &[Run],
) -> Result<()> {
    use crate::search::oracle::{uniform_entries, ORACLE_MAX_ENTRIES};
    for run in runs {
        if let (GameSetup::Uniform { spec }, true) = (&run.game, run.ordering.uses_oracle()) {
            let d = uniform_plies(run.depth, spec);
            let need = uniform_entries(spec.branching as u64, d);
            if need > ORACLE_MAX_ENTRIES as f64 {
                return Err(at(path, src, height_span(file), format!(
                    "[game] height: ordering `{}` on a uniform tree of branching {} searched {d} plies needs the oracle to hold {} exact values, more than its memory allows ({ORACLE_MAX_ENTRIES}, about 70 MB); lower height or depth, or leave out oracle-best, oracle-worst and strong for this tree",
                    run.ordering, spec.branching,
                    // Whole below 10^15 (exact there), else 7 significant digits.
                    if need < 1e15 { format!("{need:.0}") } else { format!("{need:.6e}") }
                )));
            }
        }
    }
    Ok(())
}

/// The most nodes a search on a uniform tree may be certain to enter without a budget: about
/// 9 hours per search at 30 M nodes per second (README, Performance: 25 to 50 M on one core).
pub const MAX_UNBUDGETED_NODES: f64 = 1e12;

/// The longest `max_seconds` that counts as a budget for `check_search_size`: about what
/// `MAX_UNBUDGETED_NODES` take at 30 M nodes per second (33,333.3 s), in whole seconds.
pub const MAX_BUDGET_SECONDS: f64 = 33_333.0;

/// How long `nodes` take at 30 M nodes per second, in the unit a reader grasps.
fn duration_text(nodes: f64) -> String {
    let s = nodes / 3e7;
    let (v, unit) = if s < 2.0 * 3600.0 {
        (s / 60.0, "minutes")
    } else if s < 2.0 * 86400.0 {
        (s / 3600.0, "hours")
    } else if s < 2.0 * 365.25 * 86400.0 {
        (s / 86400.0, "days")
    } else {
        (s / (365.25 * 86400.0), "years")
    };
    if v < 1e6 {
        format!("about {v:.0} {unit}")
    } else {
        format!("about {v:.1e} {unit}")
    }
}

/// Refuses, before anything runs, a search on a uniform tree that cannot finish in a sitting:
/// one whose sure node count (minimax and negamax: the full tree; alpha-beta and the solver:
/// the Knuth–Moore minimal tree, which even perfect ordering enters) passes
/// `MAX_UNBUDGETED_NODES` with no `max_nodes` or `max_seconds` to stop it within that bound.
/// Only uniform trees have a size known before the search.
pub fn check_search_size(
    path: &Path,
    src: &str,
    file: &ExperimentFile,
    runs: &[Run],
) -> Result<()> {
    use crate::report::theory::{full_nodes, minimal_nodes};
    for run in runs {
        let GameSetup::Uniform { spec } = &run.game else {
            continue;
        };
        // A budget stops the search only if it would within the same bound: `max_nodes` up
        // to 10^12, `max_seconds` up to what 10^12 nodes take at 30 M a second (about 9
        // hours). One past that (max_nodes = 2^63 - 1, max_seconds = 1e300) is no budget here.
        let stops = run
            .max_nodes
            .is_some_and(|n| n as f64 <= MAX_UNBUDGETED_NODES)
            || run.max_seconds.is_some_and(|s| s <= MAX_BUDGET_SECONDS);
        if stops {
            continue;
        }
        let d = uniform_plies(run.depth, spec);
        let b = spec.branching as u64;
        let (nodes, which) = match run.algorithm {
            Algorithm::Minimax | Algorithm::Negamax => (full_nodes(b, d), "the full tree"),
            Algorithm::AlphaBeta | Algorithm::Solve | Algorithm::Pvs => (
                minimal_nodes(b, d),
                "the minimal tree, which even perfect ordering enters",
            ),
        };
        if nodes > MAX_UNBUDGETED_NODES {
            // A budget given past the bound is said to be none here, not passed over.
            let given: Vec<String> = [
                run.max_nodes.map(|n| format!("max_nodes = {n}")),
                run.max_seconds.map(|s| format!("max_seconds = {s:?}")),
            ]
            .into_iter()
            .flatten()
            .collect();
            let given = if given.is_empty() {
                String::new()
            } else {
                format!(" ({} is past that, so no budget here)", given.join(" and "))
            };
            return Err(at(path, src, height_span(file), format!(
                "[game] height: {} on a uniform tree of branching {b} searched {d} plies enters at least {nodes:.1e} nodes ({which}), {} per search at 30 M nodes per second; allowed without a budget: at most 10^12 nodes ({}); lower branching, height or depth, or set max_nodes (up to 10^12) or max_seconds (up to 33333, about 9 hours) in [search] to stop each search{given}",
                run.algorithm.name(),
                duration_text(nodes),
                duration_text(MAX_UNBUDGETED_NODES)
            )));
        }
    }
    Ok(())
}

/// Refuses, before anything runs, a run with a transposition table whose search depth passes
/// `tt::MAX_DEPTH` (a depth above it, or `depth = "full"` from a position the game can last
/// longer from): an entry records its remaining depth in one byte (16-byte entries), and an
/// entry cut to 255 would never again count as deep enough above it, silently turning the
/// table's cutoffs off there. A numeric depth past it is refused only where the search starts
/// from more than 255 plies: the searcher caps a depth at the most plies the game can still
/// last (tic-tac-toe searched to depth 300 is searched to depth 9 at most).
pub fn check_table_depth(
    path: &Path,
    src: &str,
    file: &ExperimentFile,
    runs: &[Run],
) -> Result<()> {
    for run in runs {
        if run.tt.is_none() && !run.solver.is_some_and(|t| t.tt) {
            continue;
        }
        let what = match run.depth {
            Depth::Plies(p) if p <= tt::MAX_DEPTH => continue,
            _ => match crate::experiment::runner::search_depth(run).map_err(Error::Input)? {
                l if l <= tt::MAX_DEPTH => continue,
                l => match run.depth {
                    Depth::Plies(p) => format!("depth {p} from position `{}`", run.position),
                    Depth::Full => {
                        format!(
                            "depth = \"full\" from position `{}` ({l} plies)",
                            run.position
                        )
                    }
                },
            },
        };
        let pos = locate(src, &["search", "depth"]).unwrap_or(0);
        let span = file
            .search
            .depth
            .as_ref()
            .map(|d| d.span())
            .unwrap_or(pos..pos);
        // The solver searches to the end, so its way out is a solver without its table.
        let (with, way_out) = if run.solver.is_some() {
            (
                "the solver's transposition table (`tt` in `solver`)",
                "or a `solver` without `tt` (e.g. solver = \"null-window+win-check+non-losing+bounds\")",
            )
        } else {
            (
                "a transposition table",
                "a depth up to 255; lower the depth, or turn the table off",
            )
        };
        return Err(at(path, src, span, format!(
            "depth: {what} with {with}, whose entries record remaining depths up to {} plies (one byte of a 16-byte entry); allowed: any depth (\"full\" included) from a position the game ends within {} plies of, {way_out} (run `{}`)",
            tt::MAX_DEPTH,
            tt::MAX_DEPTH,
            run.key
        )));
    }
    Ok(())
}

/// Refuses ordering terms no run can use: killers or history with no alpha-beta or PVS run that names
/// them, and `tt` with no table anywhere.
pub fn check_orderings(path: &Path, src: &str, runs: &[Run], solve_only: bool) -> Result<()> {
    // Only alpha-beta learns killers and history: the solver records none, and minimax and
    // negamax make no cutoffs to learn from. Beside an alpha-beta run that uses them the terms
    // are a comparison, and the other runs ignore them (as a table-less run ignores `tt`);
    // with none they would order nothing, silently. With only solve runs the solver's own
    // check says so, as `harness solve` does.
    if solve_only {
        for r in runs {
            if let Err(e) = solver::check_recorded_terms(&r.ordering) {
                return Err(at_key(
                    path,
                    src,
                    &["search", "ordering"],
                    format!("`ordering`: {e}"),
                ));
            }
        }
    }
    // The `tt` term orders by the table's stored move: with no table anywhere it would order
    // nothing and the runs would silently be what the ordering without it gives.
    let has_table = |r: &Run| r.tt.is_some() || r.solver.is_some_and(|t| t.tt);
    if runs
        .iter()
        .any(|r| r.ordering.has(&crate::search::OrderTerm::Tt))
        && !runs.iter().any(has_table)
    {
        let fix = if solve_only {
            "add `tt` to the solver's techniques (solver = [\"all\", ...])"
        } else {
            "add a [search.tt] section (enabled = [false, true] compares with and without)"
        };
        return Err(at_key(
            path,
            src,
            &["search", "ordering"],
            format!("`ordering`: the term `tt` (the table's stored move) needs a transposition table, and no run has one; {fix}, or drop `tt`"),
        ));
    }
    // Alpha-beta and PVS alone prune, so alone learn (a solve run's algorithm is `solve`).
    let learns = |r: &Run| r.algorithm.prunes();
    let solver = if runs.iter().any(|r| r.solver.is_some()) {
        ", and the solver records none"
    } else {
        ""
    };
    for (term, name) in [
        (crate::search::OrderTerm::Killer, "killer"),
        (crate::search::OrderTerm::History, "history"),
    ] {
        if runs.iter().any(|r| r.ordering.has(&term))
            && !runs.iter().any(|r| learns(r) && r.ordering.has(&term))
        {
            return Err(at_key(
                path,
                src,
                &["search", "ordering"],
                format!("`ordering`: the term `{name}` orders by the moves that caused cutoffs, and no alpha-beta or pvs run uses it (minimax and negamax search every move{solver}); add alphabeta or pvs to `algorithm`, or drop `{name}`"),
            ));
        }
    }
    Ok(())
}
