//! `runs.csv.partial`: the runs an unfinished `harness run` has finished, so that a killed or
//! failed experiment resumes where it stopped instead of searching them again.
//!
//! The file is JSON lines. The first line names what wrote it: the experiment, the FNV-1a hash
//! of its plan (every field of every run: parameters, seeds, position texts with their
//! annotations, budgets, expected scores, whichever file they came from) and of the harness
//! executable's bytes. Each further line is one finished run: its key, its seed and everything
//! its runs.csv row is made of, except the parameters, which the plan gives again. The same
//! plan run by the same executable computes the same counters for each run, so its line can
//! stand in for the search; a line written by anything else could not, and is never mixed in.
//! A line cut short by a kill does not parse and its run is searched again.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::plan::{Fnv, Plan, Run};
use crate::error::{Error, Result};
use crate::report::csv::{Reference, RunRecord};
use crate::search::{Counters, Status};

/// The file name inside a results folder.
pub const FILE: &str = "runs.csv.partial";

/// The format's name and version, in the first line.
/// The lines' format: 2 since a finished run's counters hold `roots` (format 1's lacked it,
/// and searched_branching, which runs.csv derives from the counters, needs it); 3 since they
/// hold `tt_false_hits`.
const FORMAT: &str = "harness-partial-3";

/// The first line: what wrote the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub experiment: String,
    /// FNV-1a 64 of the plan's runs (their `Debug` text, which shows every field).
    pub plan_hash: String,
    /// FNV-1a 64 of the harness executable's bytes: the build that computed the counters.
    pub build: String,
}

impl Header {
    /// The header a run of this plan by this executable writes.
    pub fn current(plan: &Plan) -> Header {
        let mut h = Fnv::default();
        for run in &plan.runs {
            // A run's every field, each run on its own line.
            let _ = writeln!(h, "{run:?}");
        }
        Header {
            format: FORMAT.to_string(),
            experiment: plan.name.clone(),
            plan_hash: format!("{:016x}", h.0),
            build: build_id(),
        }
    }

    /// A header no run resumes from (its build is empty): for callers that do not resume.
    pub fn unresumable(experiment: &str) -> Header {
        Header {
            format: FORMAT.to_string(),
            experiment: experiment.to_string(),
            plan_hash: String::new(),
            build: String::new(),
        }
    }
}

/// FNV-1a 64 of the running executable's bytes (empty when it cannot be read: then no
/// earlier file matches, and nothing is resumed).
fn build_id() -> String {
    match std::env::current_exe().and_then(std::fs::read) {
        Ok(b) => {
            let mut h = Fnv::default();
            h.bytes(&b);
            format!("{:016x}", h.0)
        }
        Err(_) => String::new(),
    }
}

/// One finished run: everything of its record but the plan's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finished {
    pub run_key: String,
    pub seed: u64,
    pub depth: u32,
    pub theory_depth: u32,
    pub status: Status,
    pub value: i32,
    pub best_move: String,
    pub pv: String,
    pub counters: Counters,
    pub bm_hit: Option<bool>,
    pub iterations: Vec<Counters>,
    pub reference: Option<Reference>,
}

/// A record's `(depth, theory_depth)`.
pub type Depths = (u32, u32);

impl Finished {
    pub fn of(r: &RunRecord) -> Finished {
        Finished {
            run_key: r.run.key.clone(),
            seed: r.run.seed,
            depth: r.depth,
            theory_depth: r.theory_depth,
            status: r.status,
            value: r.value,
            best_move: r.best_move.clone(),
            pv: r.pv.clone(),
            counters: r.counters,
            bm_hit: r.bm_hit,
            iterations: r.iterations.clone(),
            reference: r.reference,
        }
    }

    /// The first field of the line holding a control character, with it: harness writes
    /// none (a move or a line is printable text), and runs.csv would carry it to the report,
    /// which refuses such a cell. So a line with one is a damaged line.
    pub fn control_char(&self) -> Option<(&'static str, char)> {
        [
            ("run_key", &self.run_key),
            ("best_move", &self.best_move),
            ("pv", &self.pv),
        ]
        .into_iter()
        .find_map(|(name, text)| text.chars().find(|c| c.is_control()).map(|c| (name, c)))
    }

    /// Whether this is `run`'s line (same key and seed).
    pub fn is_of(&self, run: &Run) -> bool {
        self.run_key == run.key && self.seed == run.seed
    }

    /// Where this line of `run` (by `is_of`) holds other depths than the plan gives the run
    /// (`depth = "full"` resolved at its position), which group the runs: the line's
    /// `(depth, theory_depth)` and the plan's. A line harness wrote never does; one edited by
    /// hand may.
    pub fn other_depths(&self, run: &Run) -> Result<Option<(Depths, Depths)>> {
        let planned = super::runner::record_depths(run)
            .map_err(|e| Error::input(format!("run {}: {e}", run.key)))?;
        let ours = (self.depth, self.theory_depth);
        Ok((ours != planned).then_some((ours, planned)))
    }

    /// The record of `run`, when this is its line.
    pub fn record(&self, run: &Run) -> Option<RunRecord> {
        self.is_of(run).then(|| RunRecord {
            run: run.clone(),
            depth: self.depth,
            theory_depth: self.theory_depth,
            status: self.status,
            value: self.value,
            best_move: self.best_move.clone(),
            pv: self.pv.clone(),
            counters: self.counters,
            bm_hit: self.bm_hit,
            iterations: self.iterations.clone(),
            reference: self.reference,
        })
    }
}

/// The finished runs of an earlier, unfinished run of the same plan by the same executable,
/// by run key; empty when there is no partial file (or one without finished runs). A partial
/// file written for another plan, by another build or by an older harness, or a damaged one,
/// is an input error (its runs are not silently thrown away), unless `fresh`, which discards
/// it. `then`: what the caller does without the file, for the message (`search every run`).
pub fn load(
    dir: &Path,
    header: &Header,
    fresh: bool,
    then: &str,
) -> Result<HashMap<String, Finished>> {
    let path = dir.join(FILE);
    let mut done = HashMap::new();
    if fresh || !path.exists() {
        return Ok(done);
    }
    let refuse = |what: String| {
        Error::input(format!(
            "{}: {what}; the file is left as it is: pass --fresh to discard it and {then} (or move it away to keep it)",
            path.display()
        ))
    };
    let bytes = std::fs::read(&path).map_err(|e| refuse(format!("cannot read it: {e}")))?;
    // Bytes that are not UTF-8 (a damaged file) simply do not parse.
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let Some(first) = lines.next() else {
        return Ok(done);
    };
    let rest: Vec<&str> = lines.collect();
    let runs = match rest.len() {
        1 => "1 finished run".to_string(),
        n => format!("{n} finished runs"),
    };
    let Ok(theirs) = serde_json::from_str::<Header>(first) else {
        return Err(refuse(format!(
            "its first line is not the header `harness run` writes (the file is an older harness's tab-separated rows, or damaged), so its {} lines cannot be resumed",
            rest.len() + 1
        )));
    };
    if rest.is_empty() {
        // A run that stopped before finishing any: nothing to resume or to keep.
        return Ok(done);
    }
    let why = if theirs.format != header.format {
        Some(format!("in format {}", theirs.format))
    } else if theirs.experiment != header.experiment {
        Some(format!("for experiment `{}`", theirs.experiment))
    } else if theirs.plan_hash != header.plan_hash {
        Some("for other runs (the experiment file's grid, seed or budgets, or the positions it lists or reads from a positions file, have changed since)".to_string())
    } else if theirs.build != header.build || theirs.build.is_empty() {
        Some("by another build of harness".to_string())
    } else {
        None
    };
    if let Some(why) = why {
        return Err(Error::input(format!(
            "{}: holds {runs} of an earlier, unfinished `harness run` into this folder, written {why}, so they are not resumed here and the file is left as it is: rerun the experiment as it was with the same build of harness to resume them (a copy of the file as it was is {}; to run it, copy it beside the experiment file under another name, since paths in it such as positions_file are relative to the file's folder), or pass --fresh to discard them and {then}",
            path.display(),
            dir.join(crate::report::EXPERIMENT_COPY).display()
        )));
    }
    for line in rest {
        // A line cut short by a kill does not parse: its run is searched again.
        let Ok(f) = serde_json::from_str::<Finished>(line) else {
            continue;
        };
        // A damaged line (a control character, which harness never writes): searched again
        // too, so that runs.csv gets the run as harness writes it.
        if f.control_char().is_some() {
            continue;
        }
        if let Some(other) = done.get(&f.run_key) {
            if *other != f {
                return Err(refuse(format!(
                    "holds two different results for run {} (a damaged file)",
                    f.run_key
                )));
            }
        }
        done.insert(f.run_key.clone(), f);
    }
    Ok(done)
}

/// Refuses a partial file (`path`) whose line of a run of `plan` holds other depths than the
/// plan gives it: a line edited by hand, which resumed would join another group.
pub fn check_depths(plan: &Plan, done: &HashMap<String, Finished>, path: &Path) -> Result<()> {
    for run in &plan.runs {
        let Some(f) = done.get(&run.key).filter(|f| f.is_of(run)) else {
            continue;
        };
        if let Some(((d, td), (pd, ptd))) = f.other_depths(run)? {
            return Err(Error::input(format!(
                "{}: holds run {} at depth {d} and theory_depth {td}, but this experiment file makes them {pd} and {ptd} (a line edited by hand); the file is left as it is: pass --fresh to discard it and search every run",
                path.display(),
                run.key
            )));
        }
    }
    Ok(())
}

/// How many of `plan`'s runs `done` holds (what `split` would keep, without building them).
pub fn resumable(plan: &Plan, done: &HashMap<String, Finished>) -> usize {
    plan.runs
        .iter()
        .filter(|r| done.get(&r.key).is_some_and(|f| f.is_of(r)))
        .count()
}

/// The records of `plan`'s runs that `done` holds, in plan order, with the indexes of the runs
/// still to search.
pub fn split(plan: &Plan, done: &HashMap<String, Finished>) -> (Vec<RunRecord>, Vec<usize>) {
    let mut kept = Vec::new();
    let mut todo = Vec::new();
    for (i, run) in plan.runs.iter().enumerate() {
        match done.get(&run.key).and_then(|f| f.record(run)) {
            Some(r) => kept.push(r),
            None => todo.push(i),
        }
    }
    (kept, todo)
}

/// The partial file being written: the header and the kept runs first (written whole to a
/// temporary file and renamed into place), then a line per run as it finishes.
pub struct Writer {
    file: File,
}

impl Writer {
    pub fn create(dir: &Path, header: &Header, kept: &[RunRecord]) -> Result<Writer> {
        let path = dir.join(FILE);
        // Streamed, line by line: a resumed run's text is not held whole beside its records.
        let line = |x: Result<String>| x.map_err(|e| std::io::Error::other(e.to_string()));
        crate::report::csv::write_atomic_with(&path, |f| {
            f.write_all(line(json_line(header))?.as_bytes())?;
            for r in kept {
                f.write_all(line(json_line(&Finished::of(r)))?.as_bytes())?;
            }
            Ok(())
        })?;
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| Error::Io { path, err: e })?;
        Ok(Writer { file })
    }

    /// Appends a finished run, flushed. A failure to write loses only the chance to resume
    /// this run (the search result itself is kept in memory): it is returned for the caller
    /// to report, and the run goes on.
    pub fn push(&mut self, r: &RunRecord) -> std::io::Result<()> {
        let line = json_line(&Finished::of(r)).map_err(|e| std::io::Error::other(e.to_string()))?;
        self.file.write_all(line.as_bytes())?;
        self.file.flush()
    }
}

/// All runs are in runs.csv and the manifest has its end time: the partial file in `dir`
/// goes (a file already gone is fine).
pub fn remove(dir: &Path) -> Result<()> {
    crate::report::csv::remove_if_present(&dir.join(FILE))
}

pub(crate) fn json_line<T: Serialize>(x: &T) -> Result<String> {
    let mut s = serde_json::to_string(x).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `load` with this module's header, for `harness run` (`search every run`).
    fn load_in(dir: &Path, fresh: bool) -> Result<HashMap<String, Finished>> {
        load(dir, &header(), fresh, "search every run")
    }

    fn header() -> Header {
        Header {
            format: FORMAT.to_string(),
            experiment: "e".into(),
            plan_hash: "0123456789abcdef".into(),
            build: "fedcba9876543210".into(),
        }
    }

    fn finished(key: &str) -> Finished {
        Finished {
            run_key: key.into(),
            seed: 7,
            depth: 3,
            theory_depth: 3,
            status: Status::Ok,
            value: -2,
            best_move: "a1".into(),
            pv: "a1 b2".into(),
            counters: Counters {
                nodes: 12,
                leaves: 8,
                time_ns: 999,
                ..Counters::default()
            },
            bm_hit: Some(true),
            iterations: vec![
                Counters {
                    nodes: 1,
                    ..Counters::default()
                },
                Counters {
                    nodes: 4,
                    cutoffs: 2,
                    ..Counters::default()
                },
            ],
            reference: Some(Reference {
                value: -2,
                value_wrong: false,
                move_wrong: true,
            }),
        }
    }

    fn write(dir: &Path, text: &str) {
        std::fs::write(dir.join(FILE), text).unwrap();
    }

    #[test]
    fn lines_read_back_and_a_cut_line_is_dropped() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (finished("k=a"), finished("k=b"));
        let mut text = json_line(&header()).unwrap();
        text.push_str(&json_line(&a).unwrap());
        let line_b = json_line(&b).unwrap();
        // A kill in the middle of writing the second line.
        text.push_str(&line_b[..line_b.len() / 2]);
        write(d.path(), &text);
        let done = load_in(d.path(), false).unwrap();
        assert_eq!(done.len(), 1);
        assert_eq!(done["k=a"], a);
        // --fresh discards it.
        assert!(load_in(d.path(), true).unwrap().is_empty());
        // The same line twice is harmless; two different results for one run are damage.
        let twice = format!(
            "{}{}",
            json_line(&header()).unwrap(),
            json_line(&a).unwrap().repeat(2)
        );
        write(d.path(), &twice);
        assert_eq!(load_in(d.path(), false).unwrap().len(), 1);
        let mut a2 = a.clone();
        a2.counters.nodes += 1;
        write(d.path(), &format!("{twice}{}", json_line(&a2).unwrap()));
        let err = load_in(d.path(), false).unwrap_err();
        assert!(
            err.is_input()
                && err
                    .to_string()
                    .contains("two different results for run k=a")
        );
    }

    #[test]
    fn other_runs_another_build_or_no_header_are_refused_and_kept() {
        let d = tempfile::tempdir().unwrap();
        let line = json_line(&finished("k=a")).unwrap();
        let mut other_build = header();
        other_build.build = "0000000000000000".into();
        let mut other_plan = header();
        other_plan.plan_hash = "1111111111111111".into();
        let cases = [
            (json_line(&other_build).unwrap(), "another build of harness"),
            (json_line(&other_plan).unwrap(), "for other runs"),
            ("e\tk=a\t12\n".to_string(), "is not the header"),
            ("\0\0\0\n".to_string(), "is not the header"),
        ];
        for (first, why) in cases {
            let text = format!("{first}{line}");
            write(d.path(), &text);
            let err = load_in(d.path(), false).unwrap_err();
            assert!(err.is_input());
            let msg = err.to_string();
            assert!(msg.contains(why) && msg.contains("--fresh"), "{msg}");
            assert_eq!(std::fs::read_to_string(d.path().join(FILE)).unwrap(), text);
        }
    }

    /// The plan hash follows what the runs search, wherever it comes from: a positions file's
    /// lines change it, a comment in the experiment file does not.
    #[test]
    fn the_plan_hash_covers_positions_files_and_not_comments() {
        let d = tempfile::tempdir().unwrap();
        let exp = d.path().join("exp.toml");
        let text = "name = \"h\"\n[game]\nkind = \"tictactoe\"\npositions_file = \"p.txt\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n";
        let hash = |exp_text: &str, positions: &str| {
            std::fs::write(&exp, exp_text).unwrap();
            std::fs::write(d.path().join("p.txt"), positions).unwrap();
            let (file, src) = crate::experiment::config::load(&exp).unwrap();
            let plan = crate::experiment::plan::build(&exp, &src, &file).unwrap();
            Header::current(&plan).plan_hash
        };
        let a = hash(text, "4\n0,4\n");
        assert_eq!(a, hash(&format!("# a comment\n{text}"), "4\n0,4\n"));
        assert_ne!(a, hash(text, "4\n0,8\n"));
        assert_ne!(a, hash(&text.replace("depth = 2", "depth = 3"), "4\n0,4\n"));
    }

    #[test]
    fn no_file_or_one_without_runs_resumes_nothing() {
        let d = tempfile::tempdir().unwrap();
        assert!(load_in(d.path(), false).unwrap().is_empty());
        write(d.path(), "");
        assert!(load_in(d.path(), false).unwrap().is_empty());
        // Another build's header alone (a run that failed before finishing any): no error.
        let mut other = header();
        other.build = "0000000000000000".into();
        write(d.path(), &json_line(&other).unwrap());
        assert!(load_in(d.path(), false).unwrap().is_empty());
    }
}
