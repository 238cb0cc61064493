//! `harness verify`: searches an experiment's runs again and compares them with a results
//! folder's runs.csv, every column but the wall-clock ones: the check that a machine, a
//! build or a thread count reproduces published counters. Nothing is written.

use std::collections::HashMap;
use std::path::Path;

use super::plan::Plan;
use super::runner::{self, RunOptions};
use crate::error::{Error, Result};
use crate::report::csv::{header, row, RunRecord, TIME_COLUMNS};
use crate::report::table::{read_runs, Table};

/// One cell, or one run, that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub run_key: String,
    /// The column; empty when the whole run is missing on one side.
    pub column: String,
    /// runs.csv's value (or what is wrong).
    pub theirs: String,
    /// This search's value.
    pub ours: String,
}

/// What `verify` found.
pub struct Verified {
    /// Runs searched and compared.
    pub runs: usize,
    /// Columns compared (all but the wall-clock ones).
    pub columns: usize,
    pub differences: Vec<Difference>,
    /// Runs with a difference.
    pub runs_differing: usize,
}

/// Whether `col` holds wall-clock time (or a figure of it).
fn is_time(col: &str) -> bool {
    TIME_COLUMNS
        .iter()
        .any(|t| col == *t || col.starts_with(&format!("{t}_")))
}

/// Reads `csv_path` (a results folder's runs.csv) and checks it is of `plan`'s experiment.
pub fn read_results(csv_path: &Path, plan: &Plan) -> Result<Table> {
    let mut t = read_runs(csv_path)?;
    // Only the file's own columns: reading it adds the columns derived from it
    // (`nodes_over_best`) after them.
    let written = ::csv::Reader::from_path(csv_path)
        .and_then(|mut r| r.headers().map(|h| h.len()))
        .map_err(|e| Error::input(format!("{}: cannot read: {e}", csv_path.display())))?;
    t.header.truncate(written);
    t.roles.truncate(written);
    for r in &mut t.rows {
        r.truncate(written);
    }
    let (Some(e), Some(_)) = (t.col("experiment"), t.col("run_key")) else {
        return Err(Error::input(format!(
            "{}: no `experiment` or `run_key` column, so no run of it can be matched to one of `{}`; give the runs.csv `harness run` wrote",
            csv_path.display(),
            plan.name
        )));
    };
    if let Some(other) = t.rows.iter().map(|r| &r[e]).find(|x| **x != plan.name) {
        return Err(Error::input(format!(
            "{}: holds experiment `{other}`, and the experiment file is `{}`; verify a results folder against the file that wrote it",
            csv_path.display(),
            plan.name
        )));
    }
    Ok(t)
}

/// Searches `plan`'s runs (all of them: `whole`, or a shard's) and compares each with its row
/// of `t`, cell by cell in `t`'s columns but the wall-clock ones. With `whole`, rows of `t`
/// that are no run of the plan, and a header other than the one the runs make, differ too.
pub fn verify(plan: &Plan, t: &Table, whole: bool, opts: &RunOptions) -> Result<Verified> {
    let todo: Vec<usize> = (0..plan.runs.len()).collect();
    let mut records: Vec<RunRecord> = runner::search_all(plan, &todo, 0, opts, |_, _| {})?;
    records.sort_by(|a, b| a.run.key.cmp(&b.run.key));
    Ok(compare(plan, t, whole, &records))
}

/// The comparison of `verify`, given the records.
pub fn compare(plan: &Plan, t: &Table, whole: bool, records: &[RunRecord]) -> Verified {
    let key_col = t.col("run_key").unwrap_or(0);
    let by_key: HashMap<&str, &Vec<String>> =
        t.rows.iter().map(|r| (r[key_col].as_str(), r)).collect();
    let compared: Vec<usize> = (0..t.header.len())
        .filter(|&i| !is_time(&t.header[i]))
        .collect();
    let mut differences = Vec::new();
    let mut runs_differing = 0;
    let diff = |key: &str, column: &str, theirs: String, ours: String| Difference {
        run_key: key.to_string(),
        column: column.to_string(),
        theirs,
        ours,
    };
    if whole {
        let ours = header(records);
        if ours != t.header {
            let only = |a: &[String], b: &[String]| -> Vec<String> {
                a.iter().filter(|c| !b.contains(c)).cloned().collect()
            };
            let (theirs_only, ours_only) = (only(&t.header, &ours), only(&ours, &t.header));
            differences.push(diff(
                "",
                "(header)",
                if theirs_only.is_empty() {
                    "the same columns in another order".into()
                } else {
                    format!("also {}", theirs_only.join(", "))
                },
                if ours_only.is_empty() {
                    String::new()
                } else {
                    format!("also {}", ours_only.join(", "))
                },
            ));
        }
    }
    for r in records {
        let key = r.run.key.as_str();
        let Some(theirs) = by_key.get(key) else {
            runs_differing += 1;
            differences.push(diff(key, "", "no row".into(), "searched".into()));
            continue;
        };
        let ours = row(&plan.name, &t.header, r);
        let before = differences.len();
        for &c in &compared {
            if theirs[c] != ours[c] {
                differences.push(diff(key, &t.header[c], theirs[c].clone(), ours[c].clone()));
            }
        }
        if differences.len() > before {
            runs_differing += 1;
        }
    }
    if whole {
        let planned: std::collections::HashSet<&str> =
            records.iter().map(|r| r.run.key.as_str()).collect();
        let mut extra: Vec<&str> = by_key
            .keys()
            .copied()
            .filter(|k| !planned.contains(k))
            .collect();
        extra.sort_unstable();
        for k in extra {
            runs_differing += 1;
            differences.push(diff(k, "", "a row".into(), "no such run".into()));
        }
    }
    Verified {
        runs: records.len(),
        columns: compared.len(),
        differences,
        runs_differing,
    }
}
