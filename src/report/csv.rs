//! `runs.csv`: one row per run, one column per parameter and per counter, rows sorted by run
//! key. Written to a temporary file, flushed, synced and renamed, so a reader never sees a
//! half-written file.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};
use crate::experiment::plan::{Run, OPTION_COLUMNS};
use crate::report::summary::fixed_or_scientific;
use crate::search::counters::PER_ITERATION;
use crate::search::{Counters, Status};

/// One finished (or budget-stopped) run.
#[derive(Clone, Debug)]
pub struct RunRecord {
    pub run: Run,
    /// The depth searched, in plies (`full` resolved against the position).
    pub depth: u32,
    /// d for the theory columns: `depth`, capped at the most plies the game can still last
    /// from the position (`Game::max_remaining_plies`).
    pub theory_depth: u32,
    pub status: Status,
    pub value: i32,
    pub best_move: String,
    pub pv: String,
    pub counters: Counters,
    /// Whether the best move is one of the position's annotated best moves (EPD `bm`, or
    /// avoids `am`); `None` for positions without such annotations.
    pub bm_hit: Option<bool>,
    /// Iterative deepening: what each iteration counted, depth 1 first.
    pub iterations: Vec<Counters>,
    /// The comparison with a search without a table (`[search.tt] reference = true`).
    pub reference: Option<Reference>,
}

/// A run's root value and move checked against the same search without a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reference {
    /// The root value without a table.
    pub value: i32,
    /// The run's root value differs from it.
    pub value_wrong: bool,
    /// The run's move is worse than the best (its value, searched without a table, is below
    /// the reference value).
    pub move_wrong: bool,
}

/// Parameter columns before the option columns.
pub const HEAD: [&str; 3] = ["experiment", "run_key", "game"];
/// Parameter columns after the option columns.
pub const PARAMS: [&str; 10] = [
    "position_id",
    "position",
    "algorithm",
    "variant",
    "depth",
    "ordering",
    "tie_break",
    "quiescence",
    "rep",
    "seed",
];
/// Result and counter columns.
pub const COUNTER_COLUMNS: [&str; 14] = [
    "status",
    "value",
    "best_move",
    "pv",
    "nodes",
    "qnodes",
    "leaves",
    "terminal",
    "cutoffs",
    "first_move_cutoffs",
    "max_ply",
    "ebf",
    "time_ns",
    "nodes_per_second",
];

/// The column that appears when some position carries best-move annotations (EPD `bm`/`am`).
const BM_HIT: [&str; 1] = ["bm_hit"];
/// The shape of the searched tree and the theory for it (see `theory_fields`).
pub const THEORY_COLUMNS: [&str; 16] = [
    "interior",
    "moves_generated",
    "mean_branching",
    "searched_branching",
    "theory_depth",
    "minimal_leaves",
    "minimal_nodes",
    "full_leaves",
    "full_nodes",
    "pearl_r",
    "leaf_ebf",
    "leaves_over_minimal",
    "nodes_over_minimal",
    "leaves_over_full",
    "nodes_over_full",
    "leaf_ebf_over_pearl",
];

/// A count: a whole number when it is one, else three decimals; empty past f64's range
/// (b^d overflows for d × log10 b > 308: a deep Nim or chess search).
fn count(x: f64) -> String {
    if !x.is_finite() {
        String::new()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        fixed_or_scientific(x, 3, 0.0)
    }
}

/// The theory columns of one record, as (column, value).
///
/// b is `mean_branching`, the legal moves per interior node of the searched tree
/// (`moves_generated / interior`: exactly the branching factor on a uniform tree, the mean
/// branching of the positions the search expanded on a real game). d is `theory_depth`, the
/// depth searched, capped at the most plies the game can still last from the position (the
/// same for every algorithm and ordering, however much of the tree they pruned). The
/// predictions are those of a uniform tree with that b and d (Knuth–Moore minimal tree, full
/// tree, Pearl's R*(b)); `leaf_ebf` is leaves^(1/d), the branching factor of the leaf count,
/// which for random ordering tends to R*(b) as d grows. `searched_branching` is
/// (nodes − roots) / interior, the children entered per expanded node: the branching of the
/// searched (pruned) tree, not of the game. Ratios are left empty for a run that a
/// budget stopped.
pub fn theory_fields(r: &RunRecord) -> Vec<(&'static str, String)> {
    use crate::report::theory as t;
    let c = &r.counters;
    let mut out = vec![
        ("interior", c.interior.to_string()),
        ("moves_generated", c.moves_generated.to_string()),
    ];
    let d = r.theory_depth;
    out.push(("theory_depth", d.to_string()));
    let b = match c.mean_branching() {
        Some(b) => b,
        None => return out,
    };
    let ok = r.status == Status::Ok;
    let (ml, mn) = (t::minimal_leaves_real(b, d), t::minimal_nodes_real(b, d));
    let (fl, fnodes) = (t::full_leaves_real(b, d), t::full_nodes_real(b, d));
    let pearl = t::pearl_branching_factor(b);
    let leaf_ebf = if d > 0 {
        (c.leaves as f64).powf(1.0 / d as f64)
    } else {
        f64::NAN
    };
    let ratio = |x: f64| {
        if ok && x.is_finite() {
            // 201 nodes over a full tree of 4.3e8: 4.628000e-7, not 0.000000.
            fixed_or_scientific(x, 6, 1e-3)
        } else {
            String::new()
        }
    };
    // A count over a tree size past f64's range: empty, as the size is (not 0).
    let over = |n: u64, size: f64| {
        if size.is_finite() {
            ratio(n as f64 / size)
        } else {
            String::new()
        }
    };
    out.extend([
        ("mean_branching", format!("{b:.6}")),
        (
            "searched_branching",
            format!(
                "{:.6}",
                c.nodes.saturating_sub(c.roots) as f64 / c.interior as f64
            ),
        ),
        ("minimal_leaves", count(ml)),
        ("minimal_nodes", count(mn)),
        ("full_leaves", count(fl)),
        ("full_nodes", count(fnodes)),
        ("pearl_r", format!("{pearl:.6}")),
        ("leaf_ebf", ratio(leaf_ebf)),
        ("leaves_over_minimal", over(c.leaves, ml)),
        ("nodes_over_minimal", over(c.nodes, mn)),
        ("leaves_over_full", over(c.leaves, fl)),
        ("nodes_over_full", over(c.nodes, fnodes)),
        ("leaf_ebf_over_pearl", ratio(leaf_ebf / pearl)),
    ]);
    out
}
/// Table and iterative-deepening parameters (after `PARAMS`); empty when the table is off.
pub const TT_PARAMS: [&str; 7] = [
    "iterative",
    "tt",
    "tt_entries",
    "tt_bytes",
    "tt_replacement",
    "tt_key_bits",
    "tt_bounds",
];

/// The prefix of the per-iteration columns (after the theory columns): `iteration_nodes` in
/// every runs.csv, the other counters of `PER_ITERATION` (`iteration_leaves`, ...) right after
/// it when some run uses iterative deepening.
pub const ITERATION_PREFIX: &str = "iteration_";

/// Table, killer and history counters (after the per-iteration columns).
pub const TT_COUNTERS: [&str; 14] = [
    "tt_probes",
    "tt_hits",
    "tt_cutoffs",
    "tt_stores",
    "tt_overwrites",
    "tt_collisions",
    "tt_false_hits",
    "tt_occupancy",
    "cutoffs_tt",
    "cutoffs_killer",
    "cutoffs_history",
    "reference_value",
    "value_wrong",
    "move_wrong",
];

/// Columns that hold wall-clock time (and figures derived from it): the only columns that may
/// differ between two runs of the same experiment.
pub const TIME_COLUMNS: [&str; 2] = ["time_ns", "nodes_per_second"];

/// The header for records of these games: option columns are those any record uses.
pub fn header(records: &[RunRecord]) -> Vec<String> {
    let options: Vec<&str> = OPTION_COLUMNS
        .iter()
        .copied()
        .filter(|c| {
            records
                .iter()
                .any(|r| r.run.game.options().iter().any(|(k, _)| k == c))
        })
        .collect();
    // Columns only when some record has them: principal variation search's re-searches; the
    // solver's techniques, the score in the game's external convention, and the score the
    // position's source expects.
    let extra: Vec<&str> = [
        (
            "researches",
            records
                .iter()
                .any(|r| r.run.algorithm == crate::search::Algorithm::Pvs),
        ),
        ("solver", records.iter().any(|r| r.run.solver.is_some())),
        (
            "score",
            records
                .iter()
                .any(|r| r.run.algorithm == crate::search::Algorithm::Solve),
        ),
        ("expected", records.iter().any(|r| r.run.expected.is_some())),
    ]
    .iter()
    .filter(|(_, on)| *on)
    .map(|(c, _)| *c)
    .collect();
    HEAD.iter()
        .chain(options.iter())
        .chain(PARAMS.iter())
        .chain(TT_PARAMS.iter())
        .chain(COUNTER_COLUMNS.iter())
        .chain(BM_HIT.iter().filter(|_| {
            records
                .iter()
                .any(|r| r.bm_hit.is_some() || r.run.carries_suite_moves())
        }))
        .chain(THEORY_COLUMNS.iter())
        .map(|s| s.to_string())
        .chain(
            PER_ITERATION
                .iter()
                .filter(|(name, _)| *name == "nodes" || records.iter().any(|r| r.run.iterative))
                .map(|(name, _)| format!("{ITERATION_PREFIX}{name}")),
        )
        .chain(TT_COUNTERS.iter().map(|s| s.to_string()))
        .chain(extra.iter().map(|s| s.to_string()))
        .collect()
}

/// One record as CSV fields, in `header` order.
pub fn row(experiment: &str, header: &[String], r: &RunRecord) -> Vec<String> {
    let opts = r.run.game.options();
    let c = &r.counters;
    let ok = r.status == Status::Ok;
    let theory = theory_fields(r);
    header
        .iter()
        .map(|col| match col.as_str() {
            "experiment" => experiment.to_string(),
            "run_key" => r.run.key.clone(),
            "game" => r.run.game.kind().name().to_string(),
            "position_id" => r.run.position_id.to_string(),
            "position" => r.run.position.clone(),
            "algorithm" => r.run.algorithm.name().to_string(),
            "variant" => r
                .run
                .variant
                .map(|v| v.name().to_string())
                .unwrap_or_default(),
            "depth" => r.depth.to_string(),
            "ordering" => r.run.ordering.to_string(),
            "tie_break" => r.run.tie_break.name().to_string(),
            "quiescence" => r.run.quiescence.label(),
            "rep" => r.run.rep.to_string(),
            "seed" => r.run.seed.to_string(),
            "status" => r.status.name().to_string(),
            "value" if ok => r.value.to_string(),
            "best_move" if ok => r.best_move.clone(),
            "pv" if ok => r.pv.clone(),
            "value" | "best_move" | "pv" => String::new(),
            "nodes" => c.nodes.to_string(),
            "qnodes" => c.qnodes.to_string(),
            "bm_hit" if ok => r.bm_hit.map(|b| b.to_string()).unwrap_or_default(),
            "bm_hit" => String::new(),
            "leaves" => c.leaves.to_string(),
            "terminal" => c.terminal.to_string(),
            "cutoffs" => c.cutoffs.to_string(),
            "first_move_cutoffs" => c.first_move_cutoffs.to_string(),
            "researches" => c.researches.to_string(),
            "max_ply" => c.max_ply.to_string(),
            "ebf" => c
                .effective_branching_factor()
                .map(|e| format!("{e:.6}"))
                .unwrap_or_default(),
            "time_ns" => c.time_ns.to_string(),
            "nodes_per_second" => format!("{:.0}", c.nodes_per_second()),
            "iterative" => r.run.iterative.to_string(),
            "tt" => if r.run.tt.is_some() { "on" } else { "off" }.to_string(),
            "tt_entries" => r.run.tt.map(|t| t.entries.to_string()).unwrap_or_default(),
            "tt_bytes" => r.run.tt.map(|t| t.bytes().to_string()).unwrap_or_default(),
            "tt_replacement" => r
                .run
                .tt
                .map(|t| t.replacement.name().to_string())
                .unwrap_or_default(),
            "tt_key_bits" => r.run.tt.map(|t| t.key_bits.to_string()).unwrap_or_default(),
            "tt_bounds" => r
                .run
                .tt
                .map(|t| t.bounds.name().to_string())
                .unwrap_or_default(),
            name if name.starts_with(ITERATION_PREFIX) => {
                let counter = name.strip_prefix(ITERATION_PREFIX);
                match PER_ITERATION.iter().find(|(n, _)| Some(*n) == counter) {
                    Some((_, get)) => r
                        .iterations
                        .iter()
                        .enumerate()
                        .map(|(i, c)| format!("{}:{}", i + 1, get(c)))
                        .collect::<Vec<_>>()
                        .join(" "),
                    None => String::new(),
                }
            }
            "tt_probes" => c.tt_probes.to_string(),
            "tt_hits" => c.tt_hits.to_string(),
            "tt_cutoffs" => c.tt_cutoffs.to_string(),
            "tt_stores" => c.tt_stores.to_string(),
            "tt_overwrites" => c.tt_overwrites.to_string(),
            "tt_collisions" => c.tt_collisions.to_string(),
            "tt_false_hits" => c.tt_false_hits.to_string(),
            "tt_occupancy" => c.tt_occupancy.to_string(),
            "cutoffs_tt" => c.cutoffs_tt.to_string(),
            "cutoffs_killer" => c.cutoffs_killer.to_string(),
            "cutoffs_history" => c.cutoffs_history.to_string(),
            "reference_value" => r.reference.map(|x| x.value.to_string()).unwrap_or_default(),
            "value_wrong" => r
                .reference
                .map(|x| (x.value_wrong as u8).to_string())
                .unwrap_or_default(),
            "move_wrong" => r
                .reference
                .map(|x| (x.move_wrong as u8).to_string())
                .unwrap_or_default(),
            "solver" => r.run.solver.map(|t| t.to_string()).unwrap_or_default(),
            "score" if ok && r.run.algorithm == crate::search::Algorithm::Solve => r
                .run
                .game
                .external_score(&r.run.position, r.value)
                .map(|v| v.to_string())
                .unwrap_or_default(),
            "score" => String::new(),
            "expected" => r.run.expected.map(|v| v.to_string()).unwrap_or_default(),
            other => opts
                .iter()
                .chain(theory.iter())
                .find(|(k, _)| *k == other)
                .map(|(_, v)| v.clone())
                .unwrap_or_default(),
        })
        .collect()
}

/// Writes `records` (already sorted by run key) to `path` atomically.
pub fn write_runs(path: &Path, experiment: &str, records: &[RunRecord]) -> Result<()> {
    let header = header(records);
    // Streamed to the file, row by row: the whole text in memory as well as the records
    // would be a third more at the run's peak.
    write_atomic_with(path, |f| {
        let mut w = ::csv::Writer::from_writer(f);
        w.write_record(&header)?;
        for r in records {
            w.write_record(row(experiment, &header, r))?;
        }
        w.flush()
    })
}

/// Removes the file at `path`; a file already gone is fine.
pub fn remove_if_present(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::Io {
            path: path.to_path_buf(),
            err: e,
        }),
        _ => Ok(()),
    }
}

/// The temporary `path` is written through: its whole name and `.tmp` (`nodes.svg.tmp`), so
/// no two files share one.
pub fn tmp_of(path: &Path) -> std::path::PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Creates `path` as a new file, after removing whatever entry a killed process left at that
/// name: never through a link there to a file elsewhere.
pub fn create_new(path: &Path) -> std::io::Result<File> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

/// Writes `bytes` to `path` through a temporary file in the same folder (`tmp_of`): write,
/// flush, sync, rename, sync the folder.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// [`write_atomic`] with what `write` writes to the temporary file (through a buffer).
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<File>) -> std::io::Result<()>,
) -> Result<()> {
    let tmp = tmp_of(path);
    let io = |e: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        err: e,
    };
    let written = create_new(&tmp).and_then(|f| {
        let mut w = std::io::BufWriter::new(f);
        write(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()
    });
    let done = written.and_then(|_| std::fs::rename(&tmp, path));
    if done.is_err() {
        // No temporary left behind; the file at `path`, if any, is untouched.
        let _ = std::fs::remove_file(&tmp);
    }
    done.map_err(io)?;
    // The rename itself is durable once the folder is synced (a power cut could otherwise
    // bring back the old file). Where a folder cannot be opened or synced (not Unix), the
    // rename stands as the OS keeps it.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}
