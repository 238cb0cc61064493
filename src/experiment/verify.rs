//! `harness verify`: searches an experiment's runs again and compares them with a results
//! folder's runs.csv, every column but the wall-clock ones: the check that a machine, a
//! build or a thread count reproduces published counters. Nothing is written.

use std::collections::HashMap;
use std::path::Path;

use super::plan::Plan;
use super::runner::{self, RunOptions};
use super::shard::Shard;
use crate::error::{Error, Result};
use crate::report::csv::{header, row, RunRecord, TIME_COLUMNS};
use crate::report::table::{from_parts, read_table, Row, Table};

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
    /// A row (or line) that is no run of what was searched.
    pub stray: bool,
}

/// This search's side of a row that is no run of the experiment.
const NO_SUCH_RUN: &str = "no such run";

/// What `verify` found.
pub struct Verified {
    /// Runs searched and compared.
    pub runs: usize,
    /// Columns compared (all but the wall-clock ones).
    pub columns: usize,
    pub differences: Vec<Difference>,
}

impl Verified {
    /// Runs of the plan with a difference (in a cell, or no row).
    pub fn runs_differing(&self) -> usize {
        self.run_keys(false)
    }

    /// Rows (of runs.csv or shard.jsonl) that are no run of the plan.
    pub fn strays(&self) -> usize {
        self.run_keys(true)
    }

    /// The distinct run keys of the differences that are rows of no run (`strays`), or of
    /// the others.
    fn run_keys(&self, strays: bool) -> usize {
        let keys: std::collections::HashSet<&str> = self
            .differences
            .iter()
            .filter(|d| d.stray == strays && !d.run_key.is_empty())
            .map(|d| d.run_key.as_str())
            .collect();
        keys.len()
    }
}

/// Whether `col` holds wall-clock time (or a figure of it).
fn is_time(col: &str) -> bool {
    TIME_COLUMNS
        .iter()
        .any(|t| col == *t || col.starts_with(&format!("{t}_")))
}

/// Reads `csv_path` (a results folder's runs.csv) and checks it is of `plan`'s experiment;
/// `allow_empty`: a runs.csv of its header alone is taken (a shard of no run).
pub fn read_results(csv_path: &Path, plan: &Plan, allow_empty: bool) -> Result<Table> {
    let mut t = read_table(csv_path, allow_empty)?;
    // Only the file's own columns: reading it adds the columns derived from it
    // (`nodes_over_best`) after them.
    let written = ::csv::Reader::from_path(csv_path)
        .and_then(|mut r| r.headers().map(|h| h.len()))
        .map_err(|e| Error::input(format!("{}: cannot read: {e}", csv_path.display())))?;
    own_columns(&mut t, written);
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

/// Which runs of the experiment a comparison covers.
#[derive(Clone, Copy, Debug)]
pub enum Scope {
    /// Every run: the table's header must be the one the runs make, and every row a run.
    Whole,
    /// Shard I of N's runs in a folder of all of them (`--shard` on a whole run's folder):
    /// the table needs the columns they make, and its rows of the shard must be runs of it
    /// (rows of other shards are not looked at).
    Shard(Shard),
    /// A shard's own folder, which `harness merge` reads: as `Shard`, and a row of another
    /// shard is a difference too (the merge refuses a shard that holds one).
    ShardFolder(Shard),
}

/// Searches `plan`'s runs again (on `opts.jobs` threads, with a progress bar unless
/// `opts.quiet`): the records, sorted by run key.
pub fn search(plan: &Plan, opts: &RunOptions) -> Result<Vec<RunRecord>> {
    let todo: Vec<usize> = (0..plan.runs.len()).collect();
    let mut records = runner::search_all(plan, &todo, 0, opts, |_, _| {})?;
    records.sort_by(|a, b| a.run.key.cmp(&b.run.key));
    Ok(records)
}

/// Keeps the first `n` columns of `t`: reading a runs.csv adds the columns derived from it
/// (`nodes_over_best`) after its own.
fn own_columns(t: &mut Table, n: usize) {
    t.header.truncate(n);
    t.roles.truncate(n);
    for r in &mut t.rows {
        if r.len() > n {
            *r = r.truncated(n);
        }
    }
}

/// Compares `records` (searched again: `full`'s runs, or those of `scope`'s shard) with their
/// rows of `t`, cell by cell in `t`'s columns but the wall-clock ones; `entry` names a row
/// of `t` in a difference ("a row" of runs.csv, "a line" of shard.jsonl).
pub fn compare(
    full: &Plan,
    t: &Table,
    scope: Scope,
    records: &[RunRecord],
    entry: &str,
) -> Verified {
    let key_col = t.col("run_key").unwrap_or(0);
    let by_key: HashMap<&str, &Row> = t.rows.iter().map(|r| (&r[key_col], r)).collect();
    let compared: Vec<usize> = (0..t.header.len())
        .filter(|&i| !is_time(&t.header[i]))
        .collect();
    let mut differences = Vec::new();
    let diff = |key: &str, column: &str, theirs: String, ours: String| Difference {
        run_key: key.to_string(),
        column: column.to_string(),
        theirs,
        ours,
        stray: false,
    };
    let ours = header(records);
    let only = |a: &[String], b: &[String]| -> Vec<String> {
        a.iter().filter(|c| !b.contains(c)).cloned().collect()
    };
    let also = |cols: Vec<String>| {
        if cols.is_empty() {
            String::new()
        } else {
            format!("has also {}", cols.join(" "))
        }
    };
    let (theirs_only, ours_only) = (only(&t.header, &ours), only(&ours, &t.header));
    match scope {
        Scope::Whole if ours != t.header => {
            let theirs = if theirs_only.is_empty() && ours_only.is_empty() {
                "the same columns in another order".to_string()
            } else {
                also(theirs_only)
            };
            differences.push(diff("", "(header)", theirs, also(ours_only)));
        }
        // Other shards' runs may make more columns; this shard's must all be there.
        Scope::Shard(_) | Scope::ShardFolder(_) if !ours_only.is_empty() => {
            differences.push(diff("", "(header)", String::new(), also(ours_only)));
        }
        _ => {}
    }
    for r in records {
        let key = r.run.key.as_str();
        let Some(theirs) = by_key.get(key) else {
            differences.push(diff(key, "", "no row".into(), "searched".into()));
            continue;
        };
        let ours = row(&full.name, &t.header, r);
        for &c in &compared {
            if theirs[c] != ours[c] {
                differences.push(diff(
                    key,
                    &t.header[c],
                    theirs[c].to_string(),
                    ours[c].clone(),
                ));
            }
        }
    }
    // Rows that are no run of the plan (of the shard's runs, with `--shard` on a whole
    // run's folder; in a shard's folder, any other row).
    let planned: std::collections::HashSet<&str> =
        records.iter().map(|r| r.run.key.as_str()).collect();
    let mut extra: Vec<&str> = by_key
        .keys()
        .copied()
        .filter(|k| !planned.contains(k))
        .filter(|k| match scope {
            Scope::Whole | Scope::ShardFolder(_) => true,
            Scope::Shard(s) => s.holds(k),
        })
        .collect();
    extra.sort_unstable();
    let runs_of_full: std::collections::HashSet<&str> = match scope {
        Scope::ShardFolder(_) if !extra.is_empty() => {
            full.runs.iter().map(|r| r.key.as_str()).collect()
        }
        _ => Default::default(),
    };
    for k in extra {
        let ours = match scope {
            Scope::ShardFolder(s) if runs_of_full.contains(k) => {
                format!(
                    "a run of shard {}/{}, not {s}",
                    Shard::of_key(k, s.count),
                    s.count
                )
            }
            _ => NO_SUCH_RUN.into(),
        };
        differences.push(Difference {
            stray: true,
            ..diff(k, "", entry.into(), ours)
        });
    }
    Verified {
        runs: records.len(),
        columns: compared.len(),
        differences,
    }
}

/// The differences of a shard folder's `shard.jsonl` (what `harness merge` reads) from
/// `records` (searched again: the runs of `scope`'s shard of `full`, the whole plan), compared
/// as runs.csv is in its columns `header_cols`; each difference's column names the file.
pub fn compare_shard_file(
    full: &Plan,
    scope: Scope,
    records: &[RunRecord],
    path: &Path,
    header_cols: &[String],
) -> Result<Vec<Difference>> {
    let (theirs, lines) = super::shard::read(path)?;
    let file = super::shard::FILE;
    // A header of another experiment or plan (another budget, say, that no run reached) is
    // a shard `harness merge` refuses, whatever its lines hold.
    let ours = super::partial::Header::current(full);
    let mut out: Vec<Difference> = [
        ("format", &theirs.format, &ours.format),
        ("experiment", &theirs.experiment, &ours.experiment),
        ("plan_hash", &theirs.plan_hash, &ours.plan_hash),
    ]
    .into_iter()
    .filter(|(_, a, b)| a != b)
    .map(|(field, a, b)| Difference {
        run_key: String::new(),
        column: format!("({file} header) {field}"),
        theirs: a.clone(),
        ours: b.clone(),
        stray: false,
    })
    .collect();
    let runs: HashMap<&str, &super::plan::Run> =
        full.runs.iter().map(|r| (r.key.as_str(), r)).collect();
    let mut rows = Vec::new();
    let mut strays = Vec::new();
    for f in &lines {
        match runs.get(f.run_key.as_str()).and_then(|r| f.record(r)) {
            Some(rec) => rows.push(Row::new(row(&full.name, header_cols, &rec))),
            None => strays.push(f.run_key.clone()),
        }
    }
    let mut t = from_parts(header_cols.to_vec(), rows);
    own_columns(&mut t, header_cols.len());
    out.extend(
        compare(full, &t, scope, records, "a line")
            .differences
            .into_iter()
            .map(|mut d| {
                // The file named in the column (alone where the whole run differs).
                d.column = match d.column.as_str() {
                    "" => format!("({file})"),
                    c => format!("{c} ({file})"),
                };
                d
            }),
    );
    out.extend(strays.into_iter().map(|k| Difference {
        run_key: k,
        column: format!("({file})"),
        theirs: "a line".into(),
        ours: NO_SUCH_RUN.into(),
        stray: true,
    }));
    Ok(out)
}
