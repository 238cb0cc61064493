//! `runs.csv.partial`: the runs an unfinished `harness run` has finished, so that a killed or
//! failed experiment resumes where it stopped instead of searching them again.
//!
//! The file is JSON lines. The first line names what wrote it: the experiment, the FNV-1a hash
//! of the experiment file's bytes and of the harness executable's bytes. Each further line is
//! one finished run: its key, its seed and everything its runs.csv row is made of, except the
//! parameters, which the plan gives again. A run of the same file by the same executable
//! would compute the same counters for that key, so its line can stand in for the search;
//! a line written by anything else could not, and is never mixed in. A line cut short by a
//! kill does not parse and its run is searched again.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::plan::{fnv1a, Plan, Run};
use crate::error::{Error, Result};
use crate::report::csv::{Reference, RunRecord};
use crate::search::{Counters, Status};

/// The file name inside a results folder.
pub const FILE: &str = "runs.csv.partial";

/// The format's name and version, in the first line.
const FORMAT: &str = "harness-partial-1";

/// The first line: what wrote the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub experiment: String,
    /// FNV-1a 64 of the experiment file's bytes, as in manifest.json's `config_hash`.
    pub config_hash: String,
    /// FNV-1a 64 of the harness executable's bytes: the build that computed the counters.
    pub build: String,
}

impl Header {
    /// The header a run of this experiment file by this executable writes.
    pub fn current(experiment: &str, src: &str) -> Header {
        Header {
            format: FORMAT.to_string(),
            experiment: experiment.to_string(),
            config_hash: format!("{:016x}", fnv1a(src)),
            build: build_id(),
        }
    }
}

impl Header {
    /// A header no run resumes from (its build is empty): for callers that do not resume.
    pub fn unresumable(experiment: &str) -> Header {
        Header {
            format: FORMAT.to_string(),
            experiment: experiment.to_string(),
            config_hash: String::new(),
            build: String::new(),
        }
    }
}

/// FNV-1a 64 of the running executable's bytes (empty when it cannot be read: then no
/// earlier file matches, and nothing is resumed).
fn build_id() -> String {
    let bytes = std::env::current_exe().and_then(std::fs::read);
    match bytes {
        Ok(b) => {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for &x in &b {
                h ^= x as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            format!("{h:016x}")
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
    pub iteration_nodes: Vec<u64>,
    pub reference: Option<Reference>,
}

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
            iteration_nodes: r.iteration_nodes.clone(),
            reference: r.reference,
        }
    }

    /// The record of `run`, when this is its line (same key and seed).
    pub fn record(&self, run: &Run) -> Option<RunRecord> {
        (self.run_key == run.key && self.seed == run.seed).then(|| RunRecord {
            run: run.clone(),
            depth: self.depth,
            theory_depth: self.theory_depth,
            status: self.status,
            value: self.value,
            best_move: self.best_move.clone(),
            pv: self.pv.clone(),
            counters: self.counters,
            bm_hit: self.bm_hit,
            iteration_nodes: self.iteration_nodes.clone(),
            reference: self.reference,
        })
    }
}

/// The finished runs of an earlier, unfinished run of the same file by the same executable,
/// by run key; empty when there is no partial file (or one without finished runs). A partial file written
/// by another experiment file, another build or an older harness is an input error (its runs
/// are not silently thrown away), unless `fresh`, which discards it.
pub fn load(dir: &Path, header: &Header, fresh: bool) -> Result<HashMap<String, Finished>> {
    let path = dir.join(FILE);
    let mut done = HashMap::new();
    if fresh || !path.exists() {
        return Ok(done);
    }
    let bytes = std::fs::read(&path).map_err(|e| Error::Io {
        path: path.clone(),
        err: e,
    })?;
    // Bytes that are not UTF-8 (a damaged file) simply do not parse.
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let Some(first) = lines.next() else {
        return Ok(done);
    };
    let rest: Vec<&str> = lines.collect();
    let count = rest.len();
    let theirs: Option<Header> = serde_json::from_str(first).ok();
    if count == 0 && theirs.is_some() {
        // A run that stopped before finishing any: nothing to resume or to keep.
        return Ok(done);
    }
    let why = match &theirs {
        None => Some("by an older harness (another format)".to_string()),
        Some(h) if h.format != header.format => Some(format!("in format {}", h.format)),
        Some(h) if h.experiment != header.experiment => {
            Some(format!("for experiment `{}`", h.experiment))
        }
        Some(h) if h.config_hash != header.config_hash => {
            Some("for another version of the experiment file".to_string())
        }
        Some(h) if h.build != header.build || h.build.is_empty() => {
            Some("by another build of harness".to_string())
        }
        Some(_) => None,
    };
    if let Some(why) = why {
        // Without a header line every line is a run.
        let runs = match count + usize::from(theirs.is_none()) {
            1 => "1 run".to_string(),
            n => format!("{n} runs"),
        };
        return Err(Error::input(format!(
            "{}: holds {runs} that an earlier, unfinished `harness run` into this folder finished, written {why}; they are not resumed here and the file is left as it is: rerun the same experiment file with the same build of harness to resume them, or pass --fresh to discard them and search every run",
            path.display()
        )));
    }
    for line in rest {
        if let Ok(f) = serde_json::from_str::<Finished>(line) {
            done.insert(f.run_key.clone(), f);
        }
    }
    Ok(done)
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
    path: PathBuf,
    file: File,
}

impl Writer {
    pub fn create(dir: &Path, header: &Header, kept: &[RunRecord]) -> Result<Writer> {
        let path = dir.join(FILE);
        let mut text = json_line(header)?;
        for r in kept {
            text.push_str(&json_line(&Finished::of(r))?);
        }
        crate::report::csv::write_atomic(&path, text.as_bytes())?;
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| Error::Io {
                path: path.clone(),
                err: e,
            })?;
        Ok(Writer { path, file })
    }

    /// Appends a finished run, flushed (a failure to write loses only the chance to resume
    /// this run: the search result itself is kept in memory).
    pub fn push(&mut self, r: &RunRecord) {
        if let Ok(line) = json_line(&Finished::of(r)) {
            let _ = self.file.write_all(line.as_bytes());
            let _ = self.file.flush();
        }
    }

    /// All runs are in runs.csv: the partial file goes.
    pub fn remove(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn json_line<T: Serialize>(x: &T) -> Result<String> {
    let mut s = serde_json::to_string(x).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            format: FORMAT.to_string(),
            experiment: "e".into(),
            config_hash: "0123456789abcdef".into(),
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
            iteration_nodes: vec![1, 4],
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
        let done = load(d.path(), &header(), false).unwrap();
        assert_eq!(done.len(), 1);
        assert_eq!(done["k=a"], a);
        // --fresh discards it.
        assert!(load(d.path(), &header(), true).unwrap().is_empty());
    }

    #[test]
    fn another_file_build_or_format_is_refused_and_kept() {
        let d = tempfile::tempdir().unwrap();
        let line = json_line(&finished("k=a")).unwrap();
        let mut other_build = header();
        other_build.build = "0000000000000000".into();
        let mut other_file = header();
        other_file.config_hash = "1111111111111111".into();
        let cases = [
            (json_line(&other_build).unwrap(), "another build of harness"),
            (
                json_line(&other_file).unwrap(),
                "another version of the experiment file",
            ),
            ("e\tk=a\t12\n".to_string(), "an older harness"),
        ];
        for (first, why) in cases {
            let text = format!("{first}{line}");
            write(d.path(), &text);
            let err = load(d.path(), &header(), false).unwrap_err();
            assert!(err.is_input());
            let msg = err.to_string();
            assert!(msg.contains(why) && msg.contains("--fresh"), "{msg}");
            assert_eq!(std::fs::read_to_string(d.path().join(FILE)).unwrap(), text);
        }
    }

    #[test]
    fn no_file_or_one_without_runs_resumes_nothing() {
        let d = tempfile::tempdir().unwrap();
        assert!(load(d.path(), &header(), false).unwrap().is_empty());
        write(d.path(), "");
        assert!(load(d.path(), &header(), false).unwrap().is_empty());
        // Another build's header alone (a run that failed before finishing any): no error.
        let mut other = header();
        other.build = "0000000000000000".into();
        write(d.path(), &json_line(&other).unwrap());
        assert!(load(d.path(), &header(), false).unwrap().is_empty());
    }
}
