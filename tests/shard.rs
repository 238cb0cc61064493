//! Shards: `harness run --shard I/N` on each of N machines and `harness merge` give the
//! results one machine gives (every column but the wall-clock ones; the same summary,
//! charts and report but for its environment section), and a merge of the wrong folders is
//! refused with exit 2.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn harness() -> Command {
    Command::cargo_bin("harness").unwrap()
}

/// A grid that mixes what decides runs.csv's columns (a table on and off, iterative
/// deepening on and off, random orderings repeated), so shards hold different kinds of runs.
const TTT: &str = r#"
name = "shards"
seed = 7
[game]
kind = "tictactoe"
positions = ["start", "4,0", "x.o.x...."]
[search]
algorithm = ["alphabeta", "negamax"]
depth = [2, 4]
ordering = ["natural", "random"]
repetitions = 2
iterative = [false, true]
[search.tt]
enabled = [false, true]
entries = 1024
"#;

/// EPD positions with `bm`: runs.csv gets the `bm_hit` column from the results.
const CHESS: &str = r#"
name = "shards-chess"
seed = 3
[game]
kind = "chess"
positions = [
  "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";",
  "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bm d5; id \"BK.02\";",
  "start",
]
[search]
algorithm = "alphabeta"
depth = [1, 2]
ordering = ["static", "natural"]
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run(args: &[&str], file: &Path, out: &Path) {
    harness()
        .args(["run", "--quiet"])
        .args(args)
        .arg("--out")
        .arg(out)
        .arg(file)
        .assert()
        .success();
}

/// A CSV without its wall-clock columns.
fn without_time(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| {
            let h = &header[i];
            !harness::report::csv::TIME_COLUMNS
                .iter()
                .any(|t| h == t || h.starts_with(&format!("{t}_")))
        })
        .collect();
    let mut out = vec![keep.iter().map(|&i| header[i].clone()).collect()];
    for rec in r.records() {
        let rec = rec.unwrap();
        out.push(keep.iter().map(|&i| rec[i].to_string()).collect());
    }
    out
}

/// report.md without its environment section (machine, threads, command).
fn without_environment(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("## Environment").unwrap();
    let end = start + text[start..].find("\n## ").unwrap();
    format!("{}{}", &text[..start], &text[end..])
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// Runs `text` whole and in `n` shards (into `<merged>/shard-I-of-N`), merges them, and
/// checks that both folders hold the same results.
fn whole_equals_merged(text: &str, n: u32) -> (tempfile::TempDir, Vec<usize>) {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "e.toml", text);
    let whole = tmp.path().join("whole");
    let merged = tmp.path().join("merged");
    run(&["--jobs", "2"], &file, &whole);
    let mut sizes = Vec::new();
    for i in 1..=n {
        let shard = merged.join(format!("shard-{i}-of-{n}"));
        run(
            &["--jobs", "1", "--shard", &format!("{i}/{n}")],
            &file,
            &shard,
        );
        // A shard has its runs and no report.
        assert!(shard.join("shard.jsonl").is_file());
        assert!(!shard.join("report.md").exists());
        let rows = csv::Reader::from_path(shard.join("runs.csv"))
            .unwrap()
            .records()
            .count();
        sizes.push(rows);
    }
    // The merge finds the shard folders in its output folder by itself.
    harness()
        .arg("merge")
        .arg(&file)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success()
        .stdout(predicates::str::contains(format!("from {n} shards")));
    let all = without_time(&whole.join("runs.csv"));
    assert_eq!(sizes.iter().sum::<usize>(), all.len() - 1);
    assert_eq!(without_time(&merged.join("runs.csv")), all);
    assert_eq!(
        without_time(&merged.join("summary.csv")),
        without_time(&whole.join("summary.csv"))
    );
    assert_eq!(
        files(&merged.join("charts")),
        files(&whole.join("charts")),
        "charts"
    );
    assert_eq!(
        without_environment(&merged.join("report.md")),
        without_environment(&whole.join("report.md"))
    );
    let report = std::fs::read_to_string(merged.join("report.md")).unwrap();
    assert!(
        report.contains(&format!("| merged | {n} shards")),
        "{report}"
    );
    assert!(!merged.join("runs.csv.partial").exists());
    // The merged folder is a results folder like any: it plots to the same files.
    let before = std::fs::read(merged.join("report.md")).unwrap();
    harness().arg("plot").arg(&merged).assert().success();
    assert_eq!(std::fs::read(merged.join("report.md")).unwrap(), before);
    (tmp, sizes)
}

#[test]
fn shards_merge_into_what_one_machine_writes() {
    let (_tmp, sizes) = whole_equals_merged(TTT, 3);
    // 3 positions, 2 depths, 3 orderings with their repetitions, iterative or not; a table
    // for alpha-beta only: 36 runs of negamax, 72 of alpha-beta.
    assert_eq!(sizes.iter().sum::<usize>(), 108);
    assert!(sizes.iter().all(|&s| s > 0), "{sizes:?}");
}

#[test]
fn chess_shards_keep_bm_hit() {
    let (tmp, _) = whole_equals_merged(CHESS, 4);
    let merged = without_time(&tmp.path().join("merged/runs.csv"));
    let col = merged[0].iter().position(|h| h == "bm_hit").unwrap();
    assert!(merged[1..].iter().any(|r| !r[col].is_empty()));
}

/// More shards than runs: the empty shards are written, and merged.
#[test]
fn empty_shards_merge() {
    let text = "name = \"few\"\n[game]\nkind = \"nim\"\npositions = [\"3,4\", \"1,2\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 3\n";
    let (_tmp, sizes) = whole_equals_merged(text, 5);
    assert_eq!(sizes.iter().sum::<usize>(), 2);
    assert!(sizes.contains(&0));
}

/// The error of `harness merge FILE ARGS...` (exit 2).
fn merge_error(file: &Path, args: &[&Path]) -> String {
    // In the file's folder, so that a merge that wrote would write into it.
    let out = harness()
        .current_dir(file.parent().unwrap())
        .arg("merge")
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn wrong_shards_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "e.toml", TTT);
    let s = |i: u32, n: u32| tmp.path().join(format!("r/shard-{i}-of-{n}"));
    for (i, n) in [(1, 3), (2, 3), (3, 3), (1, 2)] {
        run(&["--shard", &format!("{i}/{n}")], &file, &s(i, n));
    }
    let e = merge_error(&file, &[&s(1, 3), &s(3, 3)]);
    assert!(e.contains("1 of the 3 shards missing: 2/3"), "{e}");
    let e = merge_error(&file, &[&s(1, 3), &s(2, 3), &s(2, 3), &s(3, 3)]);
    assert!(e.contains("named twice"), "{e}");
    // A copy of a shard under another name is that shard again.
    let copy = tmp.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    for f in [
        "manifest.json",
        "shard.jsonl",
        "runs.csv",
        "experiment.toml",
    ] {
        std::fs::copy(s(2, 3).join(f), copy.join(f)).unwrap();
    }
    let e = merge_error(&file, &[&s(1, 3), &s(2, 3), &copy, &s(3, 3)]);
    assert!(e.contains("is shard 2/3, and so is"), "{e}");
    // The folder holding the shards, given for them.
    let e = merge_error(&file, &[&tmp.path().join("r")]);
    assert!(
        e.contains("holds shard folders (shard-1-of-2, shard-1-of-3"),
        "{e}"
    );
    let e = merge_error(&file, &[&s(1, 3), &s(2, 3), &s(3, 3), &s(1, 2)]);
    assert!(e.contains("a split into 2 and one into 3"), "{e}");
    // Another seed makes other runs.
    let other = write(
        tmp.path(),
        "other.toml",
        &TTT.replace("seed = 7", "seed = 8"),
    );
    let e = merge_error(&other, &[&s(1, 3), &s(2, 3), &s(3, 3)]);
    assert!(
        e.contains("for other runs than this experiment file makes"),
        "{e}"
    );
    // A whole run's folder, a missing folder, and no shard folders at all.
    let whole = tmp.path().join("whole");
    run(&[], &file, &whole);
    let e = merge_error(&file, &[&whole]);
    assert!(e.contains("not a shard"), "{e}");
    let e = merge_error(&file, &[&tmp.path().join("nothing")]);
    assert!(e.contains("not a folder"), "{e}");
    let e = merge_error(&file, &[Path::new("--out"), &whole]);
    assert!(e.contains("no shard folders (named shard-I-of-N)"), "{e}");
    // The output folder cannot be one of the shards.
    let e = merge_error(
        &file,
        &[&s(1, 3), &s(2, 3), &s(3, 3), Path::new("--out"), &s(1, 3)],
    );
    assert!(
        e.contains("is a shard folder as well as the output folder"),
        "{e}"
    );
    // A shard that has not finished, and a damaged shard.jsonl.
    let mf = s(2, 3).join("manifest.json");
    let text = std::fs::read_to_string(&mf).unwrap();
    let unfinished: String = text
        .lines()
        .filter(|l| !l.contains("\"finished\""))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&mf, unfinished).unwrap();
    let e = merge_error(&file, &[&s(1, 3), &s(2, 3), &s(3, 3)]);
    assert!(e.contains("shard 2/3 has not finished"), "{e}");
    std::fs::write(&mf, text).unwrap();
    let jsonl = s(3, 3).join("shard.jsonl");
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    std::fs::write(&jsonl, &lines[..lines.len() - 20]).unwrap();
    let e = merge_error(&file, &[&s(1, 3), &s(2, 3), &s(3, 3)]);
    assert!(e.contains("shard.jsonl:") && e.contains("damaged"), "{e}");
    // A control character in a move (JSON escapes it, so the line parses): runs.csv would
    // carry it to a report that refuses it, so the merge refuses it first.
    let bell = lines.replacen("\"pv\":\"", "\"pv\":\"\\u0007", 1);
    assert_ne!(bell, lines);
    std::fs::write(&jsonl, &bell).unwrap();
    let e = merge_error(&file, &[&s(1, 3), &s(2, 3), &s(3, 3)]);
    assert!(
        e.contains("shard.jsonl:") && e.contains("its pv holds the control character U+0007"),
        "{e}"
    );
    // Nothing was written where the merge would have written.
    assert!(!tmp.path().join("results").exists());
    // A shard folder has no report of its own.
    let out = harness().arg("plot").arg(s(1, 3)).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("holds shard 1/3") && err.contains("harness merge"),
        "{err}"
    );
}

#[test]
fn bad_shard_options_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "e.toml", TTT);
    for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/1000001"] {
        let out = harness()
            .args(["run", "--quiet", "--shard", bad, "--out"])
            .arg(tmp.path().join("out"))
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("allowed: I/N") && err.contains("1 ≤ I ≤ N"),
            "{bad}: {err}"
        );
        assert!(!tmp.path().join("out").exists());
    }
}

/// A shard never runs into a whole run's folder or another shard's, nor a whole run into a
/// shard's: each would replace the other's results with another set of runs. Refused (exit
/// 2), the results left as they were.
#[test]
fn shards_and_whole_runs_keep_to_their_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "e.toml", TTT);
    let whole = tmp.path().join("whole");
    let one = tmp.path().join("one");
    run(&[], &file, &whole);
    run(&["--shard", "1/3"], &file, &one);
    let before = (files(&whole), files(&one));
    for (args, out, expect) in [
        (
            vec!["--shard", "1/3"],
            &whole,
            "holds the results of a whole run of `shards` (manifest.json), which shard 1/3 would replace",
        ),
        (
            vec!["--shard", "2/3"],
            &one,
            "holds shard 1/3 of `shards` (manifest.json), which shard 2/3 would replace",
        ),
        (
            vec![],
            &one,
            "holds shard 1/3 of `shards` (manifest.json), which this whole run would replace",
        ),
    ] {
        let o = harness()
            .args(["run", "--quiet"])
            .args(&args)
            .arg("--out")
            .arg(out)
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
    }
    assert_eq!((files(&whole), files(&one)), before);
    // A whole run's folder that holds a shard.jsonl (put there, or a shard's folder whose
    // manifest lost its `shard` field): refused before anything is searched, as the report
    // could not be written there.
    std::fs::write(whole.join("shard.jsonl"), "").unwrap();
    let before = files(&whole);
    let o = harness()
        .args(["run", "--quiet", "--out"])
        .arg(&whole)
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds shard.jsonl") && err.contains("allowed: a new or empty folder"),
        "{err}"
    );
    assert_eq!(files(&whole), before);
    // The same shard reruns into its own folder.
    run(&["--shard", "1/3"], &file, &one);
}

/// shard.jsonl and the shard's manifest, edited by hand: each fault is named.
#[test]
fn a_shard_edited_by_hand_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "e.toml", TTT);
    let r = tmp.path().join("r");
    for i in 1..=2 {
        run(
            &["--shard", &format!("{i}/2")],
            &file,
            &r.join(format!("shard-{i}-of-2")),
        );
    }
    let merged = tmp.path().join("merged");
    let merge = |expect: Option<&str>| {
        let o = harness()
            .current_dir(tmp.path())
            .arg("merge")
            .arg(&file)
            .arg("--out")
            .arg(&merged)
            .arg(r.join("shard-1-of-2"))
            .arg(r.join("shard-2-of-2"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        match expect {
            None => assert!(o.status.success(), "{err}"),
            Some(e) => {
                assert_eq!(o.status.code(), Some(2), "{err}");
                assert!(err.contains(e), "{err}");
            }
        }
    };
    let jsonl = r.join("shard-2-of-2/shard.jsonl");
    let text = std::fs::read_to_string(&jsonl).unwrap();
    // A blank last line (an editor's) is fine.
    std::fs::write(&jsonl, format!("{text}\n")).unwrap();
    merge(None);
    // A line twice.
    let second = text.lines().nth(1).unwrap();
    std::fs::write(&jsonl, format!("{text}{second}\n")).unwrap();
    let n = text.lines().count() + 1;
    merge(Some(&format!(":{n}: run ")));
    merge(Some("again (first on line 2)"));
    std::fs::write(&jsonl, &text).unwrap();
    // The manifest's run count.
    let mf = r.join("shard-2-of-2/manifest.json");
    let m = std::fs::read_to_string(&mf).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&m).unwrap();
    v["runs"] = serde_json::json!(999);
    std::fs::write(&mf, v.to_string()).unwrap();
    merge(Some(
        "manifest.json says shard 2/2 finished 999 runs, but it has",
    ));
    // Times the merged manifest would copy: ones harness writes, in order.
    let mut v: serde_json::Value = serde_json::from_str(&m).unwrap();
    v["finished"] = serde_json::json!("garbage");
    std::fs::write(&mf, v.to_string()).unwrap();
    merge(Some("`finished` is `garbage`, not a time harness writes"));
    merge(Some("rerun the shard"));
    let mut v: serde_json::Value = serde_json::from_str(&m).unwrap();
    v["finished"] = serde_json::json!("2000-01-01T00:00:00Z");
    std::fs::write(&mf, v.to_string()).unwrap();
    merge(Some("is before `started`"));
    std::fs::write(&mf, &m).unwrap();
    merge(None);
    // A line's depth, which groups the runs, changed (its key and seed kept).
    let line = text.lines().nth(1).unwrap();
    let at = line.find("\"depth\":").unwrap() + "\"depth\":".len();
    let end = at + line[at..].find(',').unwrap();
    let edited = format!("{}99{}", &line[..at], &line[end..]);
    std::fs::write(&jsonl, text.replacen(line, &edited, 1)).unwrap();
    merge(Some("depth 99 and theory_depth"));
    merge(Some("but this experiment file makes them"));
    // Its seed changed: the run is there, with another seed, and the message says so.
    let at = line.find("\"seed\":").unwrap() + "\"seed\":".len();
    let end = at + line[at..].find([',', '}']).unwrap();
    let seed = &line[at..end];
    let edited = format!("{}12345{}", &line[..at], &line[end..]);
    std::fs::write(&jsonl, text.replacen(line, &edited, 1)).unwrap();
    merge(Some("shard 2/2's shard.jsonl gives run "));
    merge(Some(&format!(
        " seed 12345, but this experiment file makes it {seed}; rerun shard 2 of 2"
    )));
    std::fs::write(&jsonl, &text).unwrap();
    merge(None);
    // A shard an older harness wrote is refused by its format, not called damaged: format 2
    // had no `tt_false_hits` in its counters, format 1 no `roots` either (each read as 0 where
    // absent only so that the line parses to that refusal).
    for (format, absent) in [
        ("harness-partial-2", &["tt_false_hits"][..]),
        ("harness-partial-1", &["tt_false_hits", "roots"][..]),
    ] {
        let older: String = text
            .replace("harness-partial-3", format)
            .lines()
            .map(|l| {
                // Every such field in the line: the run's counters' and each iteration's.
                let mut l = l.to_string();
                for field in absent {
                    let name = format!("\"{field}\":");
                    while let Some(at) = l.find(&name) {
                        let end = at + l[at..].find(',').unwrap() + 1;
                        l.replace_range(at..end, "");
                    }
                }
                l + "\n"
            })
            .collect();
        for field in absent {
            assert!(
                !older.contains(field) && text.contains(&format!("\"{field}\":")),
                "{text}"
            );
        }
        std::fs::write(&jsonl, &older).unwrap();
        merge(Some(&format!(
            "shard.jsonl is in format {format}, not harness-partial-3 as this harness writes"
        )));
        std::fs::write(&jsonl, &text).unwrap();
        merge(None);
    }
    // Without its manifest, a shard's folder is still no results folder to plot.
    std::fs::remove_file(&mf).unwrap();
    let o = harness()
        .arg("plot")
        .arg(r.join("shard-2-of-2"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds a shard of an experiment"));
}

/// A folder that only looks like a shard's is neither run into nor verified as one; a shard
/// of no run verifies; a shard with its own --out is told how to merge.
#[test]
fn shard_files_out_of_place() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "e.toml", TTT);
    // `harness ARGS DIR FILE` (run: ARGS end in --out), or with `verify` first
    // `harness verify ARGS FILE DIR`.
    let status = |args: &[&str], dir: &Path| {
        let mut cmd = harness();
        cmd.current_dir(tmp.path()).args(args);
        if args[0] == "verify" {
            cmd.arg(&file).arg(dir);
        } else {
            cmd.arg(dir).arg(&file);
        }
        let o = cmd.output().unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
        (o.status.code(), text(&o.stdout), text(&o.stderr))
    };
    // A shard.jsonl without a manifest.json: refused before anything is searched, by a whole
    // run and by a shard alike (another experiment's shard file would be replaced).
    let stray = tmp.path().join("stray");
    std::fs::create_dir(&stray).unwrap();
    std::fs::write(stray.join("shard.jsonl"), "").unwrap();
    for args in [
        &["run", "--quiet", "--out"][..],
        &["run", "--quiet", "--shard", "1/2", "--out"],
    ] {
        let (code, _, err) = status(args, &stray);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("holds shard.jsonl but no manifest.json"),
            "{err}"
        );
    }
    assert!(!stray.join("runs.csv").exists());
    // A shard's folder without its shard.jsonl: not a shard the merge takes.
    let one = tmp.path().join("one");
    let (code, out, err) = status(&["run", "--quiet", "--shard", "1/2", "--out"], &one);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(&format!(
            "`harness merge {} {} ...` merges them",
            file.display(),
            one.display()
        )),
        "{out}"
    );
    std::fs::remove_file(one.join("shard.jsonl")).unwrap();
    let (code, _, err) = status(&["verify", "--quiet"], &one);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("holds shard 1/2 (its manifest.json says so), but no shard.jsonl"),
        "{err}"
    );
    // A shard that holds no run verifies, with nothing to search.
    let few = write(
        tmp.path(),
        "few.toml",
        "name = \"few\"\n[game]\nkind = \"tictactoe\"\npositions = [\"4\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n",
    );
    for i in 1..=3 {
        let dir = tmp.path().join(format!("few-{i}"));
        run(&["--shard", &format!("{i}/3")], &few, &dir);
        let o = harness()
            .args(["verify", "--quiet"])
            .arg(&few)
            .arg(&dir)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        assert!(
            out.contains("holds none of the 1 runs: nothing to verify")
                || out.contains("1 runs of shard"),
            "{out}"
        );
    }
}
