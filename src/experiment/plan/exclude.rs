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
use crate::error::Result;
use crate::experiment::config::{at, ExcludeEntry, ExperimentFile};

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
            |r, v| r.depth == *v,
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
            |r, v| r.tie_break == v.0,
            |v| v.0.name().to_string(),
        ));
    }
    if let Some(a) = &e.iterative {
        out.push(key_test(
            "iterative",
            a.span(),
            a.get_ref().values(),
            |r, v| r.iterative == *v,
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

/// The values of key `name` that `runs` hold, as `exclude` writes them, in the runs' order.
fn values_held(runs: &[Run], name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in runs {
        let v = match name {
            "algorithm" => r.algorithm.name().to_string(),
            "variant" => match r.variant {
                Some(v) => v.name().to_string(),
                None => continue,
            },
            "depth" => r.depth.to_string(),
            "ordering" => r.ordering.to_string(),
            "tie_break" => r.tie_break.name().to_string(),
            _ => r.iterative.to_string(),
        };
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The runs of the grid `runs` that no entry of `[search] exclude` matches. Refused (at the
/// entry or value): an entry with no key, a value no run of the grid holds (a slip: it would
/// drop nothing), an entry that matches no run (its values never meet in one run), and a list
/// that drops every run.
pub fn apply(path: &Path, src: &str, file: &ExperimentFile, runs: Vec<Run>) -> Result<Vec<Run>> {
    let Some(list) = &file.search.exclude else {
        return Ok(runs);
    };
    let entries: Vec<(Range<usize>, Vec<KeyTest>)> = list
        .get_ref()
        .iter()
        .map(|e| (e.span(), tests(e.get_ref())))
        .collect();
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
            for (i, shown) in t.shown.iter().enumerate() {
                if !runs.iter().any(|r| (t.holds)(r, i)) {
                    return Err(at(
                        path,
                        src,
                        t.span.clone(),
                        format!(
                            "exclude: `{}` `{shown}` is no run's {} in this grid, so it drops nothing; allowed: {}",
                            t.name,
                            t.name,
                            values_held(&runs, t.name).join(", ")
                        ),
                    ));
                }
            }
        }
        if !runs.iter().any(|r| matches(tests, r)) {
            return Err(at(
                path,
                src,
                span.clone(),
                "exclude: no run holds all of this entry's values together (each is some run's, but never in one run), so it drops nothing; allowed: an entry whose values meet in a run",
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
