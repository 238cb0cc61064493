//! `manifest.json`: what ran, where and when. Written by `harness run` only (at the start, and
//! again at the end with the end time); `harness plot` reads it for the environment section of
//! report.md and never writes it. report.md uses none of its times, so it stays byte-identical.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The file name inside a results folder.
pub const FILE: &str = "manifest.json";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub experiment: String,
    /// The experiment file as given on the command line.
    pub experiment_file: String,
    /// FNV-1a 64 of the experiment file's bytes, as 16 hex digits.
    pub config_hash: String,
    /// `plan::search_hash` of the experiment file: its settings but `description` and
    /// `[report]`, which `harness plot` compares with the folder's experiment.toml; absent in
    /// manifests of older builds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_hash: Option<String>,
    pub seed: u64,
    pub harness_version: String,
    /// `git rev-parse HEAD` in the working directory at run time (`-dirty` appended when
    /// `git status --porcelain` lists changes outside the checkout's `results/`); absent
    /// outside a git checkout.
    pub git_commit: Option<String>,
    /// The commit harness was built from (`-dirty`: its sources differed from it); absent
    /// when it was not built from a git checkout, and in manifests of older builds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_commit: Option<String>,
    /// `rustc --version` of the compiler that built harness.
    pub rustc: Option<String>,
    /// `model name` from /proc/cpuinfo.
    pub cpu: Option<String>,
    /// Worker threads the runs used.
    pub threads: usize,
    pub os: String,
    pub command_line: Vec<String>,
    /// UTC, RFC 3339.
    pub started: String,
    pub finished: Option<String>,
    pub runs: Option<usize>,
    /// Runs taken from an interrupted run's runs.csv.partial rather than searched by this one
    /// (their time columns were measured by that run); absent when none were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed: Option<usize>,
    /// `I/N` in the folder of shard I of N (`harness run --shard`): it holds that shard's runs
    /// only, for `harness merge`; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// In a folder `harness merge` wrote: the shards it merged, in shard order (their own
    /// machines, threads and times; the merge's are this manifest's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<ShardRun>,
}

/// One merged shard, as its manifest.json recorded it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShardRun {
    /// `I/N`.
    pub shard: String,
    /// The shard's folder, as the merge was given it.
    pub folder: String,
    pub runs: usize,
    pub cpu: Option<String>,
    pub threads: usize,
    pub git_commit: Option<String>,
    pub started: String,
    pub finished: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed: Option<usize>,
}

impl Manifest {
    /// The manifest at the start of a run of `runs` runs on `jobs` threads (0: one per core).
    pub fn start(
        experiment: &str,
        file: &Path,
        src: &str,
        seed: u64,
        jobs: usize,
        runs: usize,
    ) -> Manifest {
        let threads = if jobs == 0 {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        } else {
            jobs
        };
        // No more run at once than there are runs.
        let threads = threads.min(runs.max(1));
        Manifest {
            experiment: experiment.to_string(),
            experiment_file: file.display().to_string(),
            config_hash: format!("{:016x}", crate::experiment::plan::fnv1a(src)),
            search_hash: crate::experiment::plan::search_hash(src),
            seed,
            harness_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: git_commit(),
            build_commit: option_env!("HARNESS_BUILD_COMMIT").map(str::to_string),
            rustc: option_env!("HARNESS_RUSTC_VERSION").map(str::to_string),
            cpu: cpu_model(),
            threads,
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            // Lossy: an argument need not be Unicode (a file name), and the manifest is text.
            command_line: std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            started: now_utc(),
            finished: None,
            runs: None,
            resumed: None,
            shard: None,
            merged: Vec::new(),
        }
    }

    /// Records the end time and the run count. The end time is the wall clock's, but never
    /// before `started`: a clock stepped back during the run (a time server's correction, a
    /// virtual machine resumed) would otherwise write a manifest that `plot` and `merge`
    /// refuse as edited by hand, and the finished runs could only be searched again.
    pub fn finish(&mut self, runs: usize) {
        // Stamps of one form compare as text in time order.
        self.finished = Some(now_utc().max(self.started.clone()));
        self.runs = Some(runs);
    }

    pub fn write(&self, dir: &Path) -> Result<()> {
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::Internal(format!("manifest: {e}")))?;
        text.push('\n');
        crate::report::csv::write_atomic(&dir.join(FILE), text.as_bytes())
    }

    /// Reads `dir/manifest.json`; `Ok(None)` when there is none.
    pub fn read(dir: &Path) -> Result<Option<Manifest>> {
        let path = dir.join(FILE);
        // (`exists` says false also for a file in a folder this user may not read.)
        match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(Error::input(format!(
                    "{}: cannot read: {e}",
                    path.display()
                )))
            }
            Ok(_) => {}
        }
        let text = crate::experiment::config::read_text(&path)
            .map_err(|e| Error::input(format!("{}: cannot read: {e}", path.display())))?;
        // serde would read a list field by field, and name its struct where the file holds
        // no object: a manifest is one JSON object.
        let parsed = if text.trim_start().starts_with('{') {
            serde_json::from_str(&text).map_err(|e| e.to_string())
        } else {
            Err("the file holds no JSON object `{ ... }`".to_string())
        };
        parsed
            .map(Some)
            .map_err(|e| {
                Error::input(format!(
                    "{}: not a harness manifest ({e}); allowed: the manifest.json `harness run` wrote there, unedited: restore it (from git, or run the experiment again)",
                    path.display()
                ))
            })
    }
}

fn git_commit() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let mut c = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if let Ok(st) = std::process::Command::new("git")
        // Results are outputs, not inputs: a run that rewrites results/ (scripts/reproduce.sh
        // runs one experiment after another) would otherwise call every later run dirty.
        .args([
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ":(top,exclude)results",
        ])
        .stderr(std::process::Stdio::null())
        .output()
    {
        if st.status.success() && !st.stdout.is_empty() {
            c.push_str("-dirty");
        }
    }
    Some(c)
}

fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// Whether `t` is a time as `now_utc` writes it: `YYYY-MM-DDTHH:MM:SSZ`, each field in range
/// (the day within its month's days: no 30 February, 29 February in leap years only).
pub fn is_utc_stamp(t: &str) -> bool {
    let b = t.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> { crate::games::parse_digits(t.get(r)?) };
    let (Some(y), Some(m)) = (num(0..4), num(5..7)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    b.len() == 20
        && (b[4], b[7], b[10], b[13], b[16], b[19]) == (b'-', b'-', b'T', b':', b':', b'Z')
        && num(8..10).is_some_and(|d| (1..=days).contains(&d))
        && num(11..13).is_some_and(|h| h < 24)
        && num(14..16).is_some_and(|m| m < 60)
        && num(17..19).is_some_and(|s| s < 60)
}

/// The current time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    utc(secs)
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian, days-to-civil).
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(super::utc(1_700_000_000), "2023-11-14T22:13:20Z");
    }

    /// A wall clock stepped back during a run leaves `finished` at `started`, never before it
    /// (which `plot` and `merge` would refuse); a clock that ran on gives its own time.
    #[test]
    fn finished_is_never_before_started() {
        let mut m = super::Manifest::start("x", std::path::Path::new("x.toml"), "", 1, 1, 1);
        m.started = "2999-01-01T00:00:00Z".to_string();
        m.finish(3);
        assert_eq!(m.finished.as_deref(), Some("2999-01-01T00:00:00Z"));
        assert_eq!(m.runs, Some(3));
        m.started = "2000-01-01T00:00:00Z".to_string();
        m.finish(3);
        let f = m.finished.unwrap();
        assert!(super::is_utc_stamp(&f) && f.as_str() > "2026-01-01", "{f}");
    }

    #[test]
    fn stamps_name_days_their_month_has() {
        for ok in [
            "2000-02-29T00:00:00Z",
            "2024-02-29T23:59:59Z",
            "2026-12-31T12:00:00Z",
        ] {
            assert!(super::is_utc_stamp(ok), "{ok}");
        }
        for bad in [
            "2026-02-30T04:59:12Z",
            "2026-04-31T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-00-10T00:00:00Z",
            "2026-12-03T24:00:00Z",
            "2026-12-03 10:00:00Z",
        ] {
            assert!(!super::is_utc_stamp(bad), "{bad}");
        }
    }
}
