//! `[search] exclude`: combinations of the grid's values left out. The grid is the cartesian
//! product of every list; an entry such as `{ algorithm = "minimax", ordering = ["static",
//! "random"] }` drops each run whose algorithm is minimax and whose ordering is static or
//! random (minimax's node count does not depend on the ordering, so one ordering is enough).
//! A run is dropped when it matches every key of at least one entry.
//!
//! Dropping runs changes no other run: keys and seeds come from each run's own parameters, so
//! the runs kept are searched exactly as in the full grid.

use std::ops::Range;
use std::path::Path;

use super::Run;
use crate::error::{Error, Result};
use crate::experiment::config::{at, item_span, ExcludeEntry, ExperimentFile};

/// Whether a run holds the value at an index of a key's list.
type Holds<'a> = Box<dyn Fn(&Run, usize) -> bool + 'a>;

/// One key of an entry: its name, where it stands, and for each value it lists whether a run
/// holds it and how the value is written.
struct KeyTest<'a> {
    name: &'static str,
    span: Range<usize>,
    holds: Holds<'a>,
    shown: Vec<String>,
}

/// The test of key `name` at `span` whose list is `values`: `holds` says whether a run has a
/// value, `show` writes it.
fn key_test<'a, T>(
    name: &'static str,
    span: Range<usize>,
    values: &'a [T],
    holds: fn(&Run, &T) -> bool,
    show: fn(&T) -> String,
) -> KeyTest<'a> {
    KeyTest {
        name,
        span,
        holds: Box::new(move |r: &Run, i| holds(r, &values[i])),
        shown: values.iter().map(show).collect(),
    }
}

/// The keys `e` names, each with its test.
fn tests(e: &ExcludeEntry) -> Vec<KeyTest<'_>> {
    let mut out = Vec::new();
    if let Some(a) = &e.algorithm {
        out.push(key_test(
            "algorithm",
            a.span(),
            a.get_ref().values(),
            |r, v| r.algorithm == v.0,
            |v| v.0.name().to_string(),
        ));
    }
    if let Some(a) = &e.variant {
        out.push(key_test(
            "variant",
            a.span(),
            a.get_ref().values(),
            |r, v| r.variant == Some(v.0),
            |v| v.0.name().to_string(),
        ));
    }
    if let Some(a) = &e.depth {
        out.push(key_test(
            "depth",
            a.span(),
            &a.get_ref().0,
            |r, v| r.solver.is_none() && r.depth == *v,
            ToString::to_string,
        ));
    }
    if let Some(a) = &e.ordering {
        out.push(key_test(
            "ordering",
            a.span(),
            a.get_ref().values(),
            |r, v| r.ordering == v.0,
            |v| v.0.to_string(),
        ));
    }
    if let Some(a) = &e.tie_break {
        out.push(key_test(
            "tie_break",
            a.span(),
            a.get_ref().values(),
            |r, v| r.solver.is_none() && r.tie_break == v.0,
            |v| v.0.name().to_string(),
        ));
    }
    if let Some(a) = &e.iterative {
        out.push(key_test(
            "iterative",
            a.span(),
            a.get_ref().values(),
            |r, v| r.solver.is_none() && r.iterative == *v,
            ToString::to_string,
        ));
    }
    out
}

/// Whether `run` matches every key of an entry (`tests`).
fn matches(tests: &[KeyTest], run: &Run) -> bool {
    tests
        .iter()
        .all(|t| (0..t.shown.len()).any(|i| (t.holds)(run, i)))
}

/// The runs of the grid `runs` that no entry of `[search] exclude` matches. Refused (at the
/// list, the entry or the value): an empty list or entry, a value the grid's list for the key
/// does not hold (a slip: it would drop nothing), an entry that drops no run the other
/// entries keep (its values never meet in one run, or other entries, before or after it, cover
/// it), and a list that drops every run. `listed(key)`: the grid's values of a key (defaults included).
pub fn apply(
    path: &Path,
    src: &str,
    file: &ExperimentFile,
    listed: impl Fn(&str) -> Vec<String>,
    runs: Vec<Run>,
) -> Result<Vec<Run>> {
    let Some(list) = &file.search.exclude else {
        return Ok(runs);
    };
    if list.get_ref().is_empty() {
        return Err(at(
            path,
            src,
            list.span(),
            "exclude: an empty list leaves out nothing; allowed: one or more entries such as { algorithm = \"minimax\", ordering = \"static\" }, or leave the key out",
        ));
    }
    let entries: Vec<(Range<usize>, Vec<KeyTest>)> = list
        .get_ref()
        .iter()
        .map(|e| (e.span(), tests(e.get_ref())))
        .collect();
    // Each entry on its own first (an empty one, a value not in the grid), so that a slip in
    // one is named there, not as another entry's redundancy.
    for (span, tests) in &entries {
        if tests.is_empty() {
            return Err(at(
                path,
                src,
                span.clone(),
                "exclude: an entry with no key drops nothing; allowed: a table of one or more of algorithm, variant, depth, ordering, tie_break, iterative, each with a value or a list of the grid's values, e.g. { algorithm = \"minimax\", ordering = \"static\" }",
            ));
        }
        for t in tests {
            let allowed = listed(t.name);
            for (i, shown) in t.shown.iter().enumerate() {
                if allowed.contains(shown) {
                    continue;
                }
                // At the value in a list (a depth range's values are not items).
                let at_value = if t.name == "depth" {
                    t.span.clone()
                } else {
                    item_span(src, t.span.clone(), i)
                };
                let msg = if allowed.is_empty() {
                    format!(
                        "exclude: {} `{shown}` matches no run, so it drops nothing: no run of this grid has a {} to match (variant: alpha-beta runs; depth, tie_break, iterative: runs other than solve); allowed: another key",
                        t.name, t.name
                    )
                } else {
                    format!(
                        "exclude: {} `{shown}` is not in the grid's {} list, so it drops nothing; allowed: {}",
                        t.name,
                        t.name,
                        allowed.join(", ")
                    )
                };
                return Err(at(path, src, at_value, msg));
            }
        }
    }
    for (n, (span, tests)) in entries.iter().enumerate() {
        // Against every other entry, before or after it: which of two entries is redundant
        // does not depend on the order they are written in.
        let others = || entries.iter().enumerate().filter(|&(m, _)| m != n);
        let drops_new = runs
            .iter()
            .any(|r| matches(tests, r) && !others().any(|(_, (_, other))| matches(other, r)));
        if !drops_new {
            let why = if runs.iter().any(|r| matches(tests, r)) {
                "every run it matches is one another entry drops too"
            } else {
                "no run holds all of its values together (each is in the grid, but they never meet in one run)"
            };
            return Err(at(
                path,
                src,
                span.clone(),
                format!("exclude: this entry drops no run: {why}; allowed: an entry that drops runs the others keep"),
            ));
        }
    }
    let kept: Vec<Run> = runs
        .into_iter()
        .filter(|r| !entries.iter().any(|(_, tests)| matches(tests, r)))
        .collect();
    if kept.is_empty() {
        return Err(at(
            path,
            src,
            list.span(),
            "exclude: drops every run of the grid; allowed: entries that leave some runs",
        ));
    }
    Ok(kept)
}

/// An input error of a check on the runs `exclude` kept, which the whole grid passed: it says
/// that the exclusion is what left the setting unused.
pub fn noted(e: Error) -> Error {
    match e {
        Error::Input(m) => Error::Input(format!(
            "{m} (the whole grid has such runs, but `[search] exclude` leaves them out)"
        )),
        other => other,
    }
}
