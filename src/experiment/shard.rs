//! Shards: one experiment's runs split across machines (`harness run --shard I/N`, one job of
//! a Slurm array or a GNU parallel line each) and merged back (`harness merge`) into the
//! results one machine would have written.
//!
//! A run belongs to shard `I` of `N` by its run key alone (a hash of the key, scaled onto
//! `0..N`), never by its place in the grid or by what ran before, so every machine that reads
//! the same experiment file picks the same runs, and the `N` shards hold every run exactly
//! once. A shard's folder keeps its finished runs in `shard.jsonl`: the header and lines of
//! `runs.csv.partial` (see `partial`), for the whole plan, so the merge takes each run as a
//! resumed run is taken and writes runs.csv, summary and charts through the one code path a
//! single machine uses. Shards balance runs by count, not by cost: a grid whose deep runs
//! dominate its time may finish its shards far apart.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::partial::{json_line, Finished, Header};
use super::plan::{fnv1a, mix, Plan};
use super::runner::{lock_output, FolderLock};
use crate::error::{Error, Result};
use crate::report::csv::RunRecord;
use crate::report::manifest::{Manifest, ShardRun};

/// The file of a shard's finished runs, in the shard's folder.
pub const FILE: &str = "shard.jsonl";

/// Whether `dir` holds a `shard.jsonl` of any kind (a file, a folder, a link, even one that
/// leads nowhere): the mark of a shard's folder, which no whole run's report goes into.
pub fn present(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(FILE)).is_ok()
}

/// The most shards one experiment is split into.
pub const MAX_COUNT: u32 = 1_000_000;

/// Shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N`, two whole numbers in digits with 1 ≤ I ≤ N ≤ `MAX_COUNT`.
    fn from_str(s: &str) -> std::result::Result<Shard, String> {
        let allowed = || {
            format!(
                "allowed: I/N, two whole numbers with 1 ≤ I ≤ N ≤ {MAX_COUNT} (shard I of N), e.g. 2/8"
            )
        };
        let (i, n) = s.split_once('/').ok_or_else(allowed)?;
        let num = |t: &str| crate::games::parse_digits::<u32>(t.trim());
        match (num(i), num(n)) {
            (Some(index), Some(count)) if index >= 1 && index <= count && count <= MAX_COUNT => {
                Ok(Shard { index, count })
            }
            _ => Err(allowed()),
        }
    }
}

impl Shard {
    /// The shard (from 1) of `count` that the run with this key belongs to: the key's FNV-1a
    /// hash, mixed (FNV-1a's low bits follow few of the key's bits: its last bit is the parity
    /// of the bytes' last bits, which would put depths 2, 4 and 6 in one shard of two), then
    /// scaled onto 0..count by its high bits.
    pub fn of_key(key: &str, count: u32) -> u32 {
        let h = mix(0, fnv1a(key));
        ((u128::from(h) * u128::from(count)) >> 64) as u32 + 1
    }

    /// Whether the run with this key is in this shard.
    pub fn holds(&self, key: &str) -> bool {
        Shard::of_key(key, self.count) == self.index
    }

    /// The shard's default folder name inside the experiment's results folder.
    pub fn folder(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }

    /// The plan's runs in this shard, in plan order.
    pub fn select(&self, plan: &Plan) -> Plan {
        Plan {
            runs: plan
                .runs
                .iter()
                .filter(|r| self.holds(&r.key))
                .cloned()
                .collect(),
            ..plan.clone()
        }
    }
}

/// Writes `dir/shard.jsonl` atomically: `header` (the whole plan's, see `partial::Header`)
/// and a line per record.
pub fn write(dir: &Path, header: &Header, records: &[RunRecord]) -> Result<()> {
    let mut text = json_line(header)?;
    for r in records {
        text.push_str(&json_line(&Finished::of(r))?);
    }
    crate::report::csv::write_atomic(&dir.join(FILE), text.as_bytes())
}

/// The shard folders `harness merge` finds by itself: the folders named `shard-I-of-N` in
/// `dir` (the experiment's results folder), sorted by name.
pub fn find(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        let what = if e.kind() == std::io::ErrorKind::NotFound {
            "does not exist".to_string()
        } else {
            format!("cannot read: {e}")
        };
        Error::input(format!(
            "{}: {what}; `harness merge FILE` looks there for the folders named shard-I-of-N that `harness run FILE --shard I/N` writes (pass --out DIR for another folder, or list the shard folders after FILE)",
            dir.display()
        ))
    })?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| parse_folder(n).is_some())
        })
        .collect();
    found.sort();
    Ok(found)
}

/// `shard-I-of-N` as a shard.
fn parse_folder(name: &str) -> Option<Shard> {
    let rest = name.strip_prefix("shard-")?;
    let (i, n) = rest.split_once("-of-")?;
    format!("{i}/{n}").parse().ok()
}

/// What the merge takes from the shards: every finished run by key, and each shard's line
/// for the merged manifest (in shard order).
pub struct Merged {
    pub done: HashMap<String, Finished>,
    pub shards: Vec<ShardRun>,
    /// The shard folders' locks, held until the merge has written its results: no rerun of a
    /// shard changes it meanwhile.
    pub locks: Vec<FolderLock>,
}

/// Reads the shard folders `dirs` of `plan` (whose header is `header`) and checks that they
/// are the `N` shards of this plan, each finished, each once, run by one build, and that
/// together they hold every run of the plan exactly once. Any fault is an input error naming
/// the folder and what to do.
pub fn gather(plan: &Plan, header: &Header, dirs: &[PathBuf]) -> Result<Merged> {
    let name = &plan.name;
    if dirs.is_empty() {
        return Err(Error::input(format!(
            "{name}: no shard folders to merge; allowed: the folders `harness run FILE --shard I/N` wrote"
        )));
    }
    let mut by_shard: BTreeMap<Shard, (&PathBuf, Manifest, Vec<Finished>)> = BTreeMap::new();
    let mut build: Option<(String, &PathBuf)> = None;
    let mut locks = Vec::new();
    let mut seen: Vec<(PathBuf, &PathBuf)> = Vec::new();
    for dir in dirs {
        let bad = |what: String| Error::input(format!("{}: {what}", dir.display()));
        if !dir.is_dir() {
            return Err(bad(
                "not a folder; allowed: the folders `harness run FILE --shard I/N` wrote".into(),
            ));
        }
        // One folder named twice (perhaps in two spellings) is one shard, and its lock is
        // held already.
        let canon = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        if let Some((_, first)) = seen.iter().find(|(c, _)| *c == canon) {
            return Err(bad(format!(
                "named twice (also as {}); name each shard once",
                first.display()
            )));
        }
        seen.push((canon, dir));
        let lock = lock_output(dir).map_err(|_| {
            bad("a `harness run` is writing into it now; merge once it has finished".into())
        })?;
        let Opened {
            shard,
            manifest,
            lines,
            build: theirs,
        } = open(plan, header, dir)?;
        // The shards' counters come from one build (the same code computes the same
        // counters); the merging build only copies them.
        match &build {
            Some((b, first)) if *b != theirs || b.is_empty() => {
                return Err(bad(format!(
                    "shard {shard} was run by another build of harness than {} was; the counters of two builds need not agree, so rerun the shards with one build",
                    first.display()
                )));
            }
            Some(_) => {}
            None => build = Some((theirs, dir)),
        }
        if let Some((other, (odir, ..))) = by_shard.iter().find(|(s, _)| s.count != shard.count) {
            return Err(bad(format!(
                "is shard {shard}, but {} is shard {other}: a split into {} and one into {}; merge the shards of one split",
                odir.display(),
                shard.count,
                other.count
            )));
        }
        if let Some((other, ..)) = by_shard.get(&shard) {
            return Err(bad(format!(
                "is shard {shard}, and so is {}; name each shard once",
                other.display()
            )));
        }
        check_runs(plan, dir, shard, &manifest, &lines)?;
        by_shard.insert(shard, (dir, manifest, lines));
        locks.push(lock);
    }
    let count = first_count(&by_shard);
    let missing: Vec<String> = (1..=count)
        .map(|index| Shard { index, count })
        .filter(|s| !by_shard.contains_key(s))
        .map(|s| s.to_string())
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(8).map(String::as_str).collect();
        return Err(Error::input(format!(
            "{name}: {} of the {count} shards missing: {}{}; run each with `harness run FILE --shard I/N`, then merge all {count}",
            missing.len(),
            shown.join(", "),
            if missing.len() > shown.len() { ", ..." } else { "" }
        )));
    }
    let mut done = HashMap::new();
    let mut shards = Vec::new();
    for (shard, (dir, mf, lines)) in by_shard {
        shards.push(ShardRun {
            shard: shard.to_string(),
            folder: dir.display().to_string(),
            runs: lines.len(),
            cpu: mf.cpu,
            threads: mf.threads,
            git_commit: mf.git_commit,
            started: mf.started,
            finished: mf.finished.unwrap_or_default(),
            resumed: mf.resumed,
        });
        for f in lines {
            done.insert(f.run_key.clone(), f);
        }
    }
    // Every run of the plan, as the plan has it (key and seed), and at the depths the plan
    // gives it (depth = "full" resolved at its position), which group the runs: a line of the
    // run's key and seed at another depth is no run of it.
    for run in &plan.runs {
        let index = Shard::of_key(&run.key, count);
        let Some(f) = done.get(&run.key).filter(|f| f.is_of(run)) else {
            // Held with another seed (a line edited by hand), or not held at all.
            let why = match done.get(&run.key) {
                Some(f) => format!(
                    "shard {index}/{count}'s {FILE} gives run {} seed {}, but this experiment file makes it {}",
                    run.key, f.seed, run.seed
                ),
                None => format!(
                    "no shard holds run {} as this experiment file makes it",
                    run.key
                ),
            };
            return Err(Error::input(format!(
                "{name}: {why}; rerun shard {index} of {count}"
            )));
        };
        if let Some(((d, td), (pd, ptd))) = f.other_depths(run)? {
            return Err(Error::input(format!(
                "{name}: shard {index}/{count}'s {FILE} gives run {} depth {d} and theory_depth {td}, but this experiment file makes them {pd} and {ptd}; rerun shard {index} of {count}",
                run.key
            )));
        }
    }
    Ok(Merged {
        done,
        shards,
        locks,
    })
}

/// A shard folder as `open` read it: its shard, manifest, finished runs and the build that
/// ran it.
struct Opened {
    shard: Shard,
    manifest: Manifest,
    lines: Vec<Finished>,
    build: String,
}

/// Reads the shard folder `dir` (locked by the caller) and checks it on its own: a finished
/// shard of `plan`'s experiment, whose shard.jsonl is in this harness's format and of this
/// plan (`header`). The checks that need the other folders are the caller's.
fn open(plan: &Plan, header: &Header, dir: &Path) -> Result<Opened> {
    let name = &plan.name;
    let bad = |what: String| Error::input(format!("{}: {what}", dir.display()));
    let Some(mf) = Manifest::read(dir)? else {
        // The folder that holds the shard folders, given for them.
        let inside = find(dir).unwrap_or_default();
        if !inside.is_empty() {
            return Err(bad(format!(
                "holds shard folders ({}{}), and is not one itself; list them after FILE, or leave the folders out to merge those in the output folder (--out DIR, default results/{name})",
                inside
                    .iter()
                    .take(3)
                    .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .collect::<Vec<_>>()
                    .join(", "),
                if inside.len() > 3 { ", ..." } else { "" }
            )));
        }
        return Err(bad(
            "no manifest.json, so not a shard folder; allowed: the folders `harness run FILE --shard I/N` wrote"
                .to_string(),
        ));
    };
    if mf.experiment != *name {
        return Err(bad(format!(
            "holds experiment `{}`, not `{name}`; merge only the shards of the experiment file given",
            mf.experiment
        )));
    }
    let Some(shard) = mf.shard.as_deref() else {
        return Err(bad(format!(
            "holds the results of a whole run of `{name}`, not a shard (its manifest.json names no shard); allowed: the folders `harness run FILE --shard I/N` wrote"
        )));
    };
    let shard: Shard = shard.parse().map_err(|_| {
        bad(format!(
            "manifest.json's `shard` is `{shard}`, which `harness run` does not write; rerun the shard"
        ))
    })?;
    if mf.finished.is_none() {
        return Err(bad(format!(
            "shard {shard} has not finished (its manifest.json has no end time): let it finish, or rerun it with `harness run FILE --shard {shard}` (which resumes it)"
        )));
    }
    // Its times and counts go into the merged manifest: ones harness writes.
    crate::report::check_manifest_fields(dir, &mf, "rerun the shard")?;
    let (theirs, lines) = read(&dir.join(FILE))?;
    if theirs.format != header.format {
        return Err(bad(format!(
            "{FILE} is in format {}, not {} as this harness writes; merge with the harness that ran the shards, or rerun the shard",
            theirs.format, header.format
        )));
    }
    let why = if theirs.experiment != header.experiment {
        Some(format!("for experiment `{}`", theirs.experiment))
    } else if theirs.plan_hash != header.plan_hash {
        Some("for other runs than this experiment file makes (its grid, seed or budgets, or the positions it lists or reads from a positions file, differ from the shard's)".to_string())
    } else {
        None
    };
    if let Some(why) = why {
        return Err(bad(format!(
            "shard {shard} was run {why}; merge shards of the same experiment file, or rerun the shard with it"
        )));
    }
    Ok(Opened {
        shard,
        manifest: mf,
        lines,
        build: theirs.build,
    })
}

/// Checks that the shard folder `dir` holds exactly the runs `plan` puts in `shard`, as many
/// as its manifest says it finished.
fn check_runs(
    plan: &Plan,
    dir: &Path,
    shard: Shard,
    mf: &Manifest,
    lines: &[Finished],
) -> Result<()> {
    let bad = |what: String| Error::input(format!("{}: {what}", dir.display()));
    let wanted = shard.select(plan).runs.len();
    let runs = |n: usize| format!("{n} run{}", if n == 1 { "" } else { "s" });
    if lines.len() != wanted {
        return Err(bad(format!(
            "shard {shard}'s {FILE} holds {}, but the experiment puts {} in it; rerun the shard",
            runs(lines.len()),
            runs(wanted)
        )));
    }
    if mf.runs != Some(wanted) {
        return Err(bad(format!(
            "manifest.json says shard {shard} finished {}, but it has {} (in {FILE}), as many as the experiment puts in it; rerun the shard, or restore manifest.json",
            mf.runs.map_or("no count of runs".to_string(), runs),
            runs(wanted)
        )));
    }
    if let Some(f) = lines.iter().find(|f| !shard.holds(&f.run_key)) {
        return Err(bad(format!(
            "{FILE} holds run {}, which is not in shard {shard}; rerun the shard",
            f.run_key
        )));
    }
    Ok(())
}

/// The count of the split the first shard read belongs to (1 before any).
fn first_count<T>(by_shard: &BTreeMap<Shard, T>) -> u32 {
    by_shard.keys().next().map_or(1, |s| s.count)
}

/// `shard.jsonl`: its header and lines. Written whole by a finished shard, so any line that
/// does not parse means a damaged file.
pub fn read(path: &Path) -> Result<(Header, Vec<Finished>)> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::input(format!(
            "{shown}: cannot read ({e}); a finished shard writes it: rerun the shard"
        ))
    })?;
    // Numbered from 1, blank lines (an editor's last newline) skipped.
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty());
    let damaged = |n: usize| {
        Error::input(format!(
            "{shown}:{n}: damaged (not a line harness writes); rerun the shard"
        ))
    };
    let header: Header = match lines.next() {
        Some((n, l)) => serde_json::from_str(l).map_err(|_| damaged(n))?,
        None => return Err(damaged(1)),
    };
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (n, l) in lines {
        // A run's row is built from its line (and the plan's run): the limit of a row of
        // runs.csv holds here too.
        if l.len() > crate::report::table::MAX_ROW_BYTES {
            return Err(Error::input(format!(
                "{shown}:{n}: damaged: a line of more than 1 GiB, where harness writes at most a few hundred KB; rerun the shard"
            )));
        }
        let f: Finished = serde_json::from_str(l).map_err(|_| damaged(n))?;
        if let Some((field, c)) = f.control_char() {
            return Err(Error::input(format!(
                "{shown}:{n}: damaged: its {field} holds the control character U+{:04X}, which harness never writes; rerun the shard",
                c as u32
            )));
        }
        if let Some(first) = seen.insert(f.run_key.clone(), n) {
            return Err(Error::input(format!(
                "{shown}:{n}: run {} again (first on line {first}), which a shard writes once; rerun the shard",
                f.run_key
            )));
        }
        out.push(f);
    }
    Ok((header, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!("1/1".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in [
            "0/3",
            "4/3",
            "3",
            "a/b",
            "-1/3",
            "1/0",
            "1/1000001",
            "1.5/3",
            "",
        ] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("1 ≤ I ≤ N"), "{bad}: {e}");
        }
        assert_eq!(
            parse_folder("shard-3-of-4"),
            Some(Shard { index: 3, count: 4 })
        );
        assert_eq!(parse_folder("shard-5-of-4"), None);
        assert_eq!(parse_folder("shards"), None);
    }

    /// Keys that differ only in a digit's parity land in both of two shards (plain FNV-1a
    /// mod 2 would put depths 2, 4, 6, ... together), and every key is in exactly one shard.
    #[test]
    fn keys_spread_over_the_shards() {
        let keys: Vec<String> = (1..=4000)
            .map(|d| format!("alg=alphabeta;depth={d:04};ordering=natural;pos=00;rep=000"))
            .collect();
        for count in [2u32, 3, 7, 16] {
            let mut per = vec![0usize; count as usize];
            for k in &keys {
                let s = Shard::of_key(k, count);
                assert!((1..=count).contains(&s));
                let holders = (1..=count)
                    .filter(|&index| Shard { index, count }.holds(k))
                    .count();
                assert_eq!(holders, 1);
                per[s as usize - 1] += 1;
            }
            // Within 4 standard deviations of a fair split (binomial).
            let mean = keys.len() as f64 / f64::from(count);
            let sd = (mean * (1.0 - 1.0 / f64::from(count))).sqrt();
            for (i, n) in per.iter().enumerate() {
                assert!(
                    (*n as f64 - mean).abs() <= 4.0 * sd,
                    "{count} shards: shard {} holds {n} of {} keys",
                    i + 1,
                    keys.len()
                );
            }
        }
    }
}
