//! `harness verify`: the committed results reproduce (exit 0), a changed counter, a missing or
//! extra run is named by run key and column (exit 1), wall-clock columns are not compared,
//! and a folder of another experiment or without runs.csv is bad input (exit 2).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn verify(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let out = Command::cargo_bin("harness")
        .unwrap()
        .args(["verify", "--quiet"])
        .arg(repo("experiments/nim.toml"))
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A copy of results/nim/runs.csv with its lines passed through `edit` (line 0: the header).
fn edited(edit: impl Fn(usize, &str) -> Vec<String>) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("results/nim/runs.csv")).unwrap();
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| edit(i, l))
        .collect();
    std::fs::write(tmp.path().join("runs.csv"), lines.join("\n") + "\n").unwrap();
    tmp
}

/// Field `col` (0-based) of a runs.csv line with no quoted field before it.
fn set_field(line: &str, col: usize, value: &str) -> String {
    let mut f: Vec<&str> = line.splitn(col + 2, ',').collect();
    f[col] = value;
    f.join(",")
}

fn column(name: &str) -> usize {
    let text = std::fs::read_to_string(repo("results/nim/runs.csv")).unwrap();
    let header = text.lines().next().unwrap();
    header.split(',').position(|h| h == name).unwrap()
}

#[test]
fn committed_results_verify() {
    let (code, out, err) = verify(&[], &repo("results/nim"));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("nim: 200 runs searched again: every one equals its row"),
        "{out}"
    );
    // A shard's runs alone.
    let (code, out, err) = verify(&["--shard", "2/3"], &repo("results/nim"));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("nim: 65 runs of shard 2/3 searched again"),
        "{out}"
    );
}

#[test]
fn differences_are_named_and_time_is_not_compared() {
    // The position column is quoted ("1,2,3"): edit only fields before it, or count it in.
    let key = "game=nim;misere=false;pos=00;alg=alphabeta;variant=fail-hard;depth=full;ordering=natural;tie=first;rep=000";
    let time = column("time_ns") + 2; // "1,2,3" holds two commas
    let nodes = column("nodes") + 2;
    // Another time only: equal.
    let tmp = edited(|i, l| {
        vec![if i == 1 {
            set_field(l, time, "1")
        } else {
            l.into()
        }]
    });
    let (code, _, err) = verify(&[], tmp.path());
    assert_eq!(code, Some(0), "{err}");
    // Another node count.
    let tmp = edited(|i, l| {
        vec![if i == 1 {
            set_field(l, nodes, "250")
        } else {
            l.into()
        }]
    });
    let (code, out, err) = verify(&[], tmp.path());
    assert_eq!(code, Some(1), "{err}");
    assert!(out.contains(&format!("{key},nodes,250,249")), "{out}");
    assert!(err.contains("1 of 200 runs differ"), "{err}");
    // A run missing, and a row that is no run of the file.
    let tmp = edited(|i, l| match i {
        1 => vec![],
        2 => vec![l.into(), l.replace("rep=000", "rep=999")],
        _ => vec![l.into()],
    });
    let (code, out, err) = verify(&[], tmp.path());
    assert_eq!(code, Some(1), "{err}");
    assert!(out.contains(&format!("{key},,no row,searched")), "{out}");
    assert!(out.contains("rep=999,,a row,no such run"), "{out}");
    assert!(
        err.contains("1 of 200 runs differ from") && err.contains(", 1 row is no run of it"),
        "{err}"
    );
}

#[test]
fn another_experiments_folder_is_bad_input() {
    let (code, _, err) = verify(&[], &repo("results/tictactoe"));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("holds experiment `tictactoe`, and the experiment file is `nim`"),
        "{err}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, err) = verify(&[], tmp.path());
    assert_eq!(code, Some(2));
    assert!(err.contains("runs.csv: not found"), "{err}");
}

fn harness_in(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("harness").unwrap();
    c.current_dir(dir);
    c
}

/// A shard is verified on its own terms: its runs need their columns, its rows of the shard
/// must be runs, and a shard folder is verified as its shard, runs.csv and the shard.jsonl
/// the merge reads alike.
#[test]
fn shards_verify_as_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    std::fs::copy(repo("experiments/nim.toml"), t.join("nim.toml")).unwrap();
    // A column of the whole run's removed, and a row that is no run put in: every shard
    // that the row's key falls in, or that needs the column, says so.
    let cut = column("tt_entries");
    let tmpd = edited(|i, l| {
        let mut f: Vec<String> = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(l.as_bytes())
            .records()
            .next()
            .unwrap()
            .unwrap()
            .iter()
            .map(String::from)
            .collect();
        f.remove(cut);
        let mut w = csv::Writer::from_writer(vec![]);
        w.write_record(&f).unwrap();
        let line = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let line = line.trim_end().to_string();
        if i == 1 {
            vec![line.clone(), line.replace("rep=000", "rep=999")]
        } else {
            vec![line]
        }
    });
    let mut header_seen = 0;
    let mut extra_seen = 0;
    for i in 1..=3 {
        let (code, out, _) = verify(&["--shard", &format!("{i}/3")], tmpd.path());
        assert_eq!(code, Some(1));
        header_seen += out.contains(",(header),,has also tt_entries") as u32;
        extra_seen += out.contains("rep=999,,a row,no such run") as u32;
    }
    assert_eq!((header_seen, extra_seen), (3, 1));
    // A shard folder: its own shard, found in its manifest.
    let sh = t.join("results/nim/shard-2-of-3");
    harness_in(t)
        .args(["run", "--quiet", "nim.toml", "--shard", "2/3"])
        .assert()
        .success();
    harness_in(t)
        .args(["verify", "--quiet", "nim.toml"])
        .arg(&sh)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "runs of shard 2/3 searched again: every one equals its row of",
        ))
        .stdout(predicates::str::contains("and its line of shard.jsonl"));
    let e = harness_in(t)
        .args(["verify", "--quiet", "nim.toml", "--shard", "1/3"])
        .arg(&sh)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&e).contains("holds shard 2/3, and --shard is 1/3"));
    // A count changed in shard.jsonl (what the merge reads), not in runs.csv.
    let jsonl = sh.join("shard.jsonl");
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let line = text.lines().nth(1).unwrap();
    let nodes = line.split("\"nodes\":").nth(1).unwrap();
    let n: String = nodes.chars().take_while(char::is_ascii_digit).collect();
    let changed = line.replacen(&format!("\"nodes\":{n}"), "\"nodes\":1", 1);
    std::fs::write(&jsonl, text.replacen(line, &changed, 1)).unwrap();
    // verify of the shard folder: exit 1, the differences on stdout.
    let differs = || {
        let out = harness_in(t)
            .args(["verify", "--quiet", "nim.toml"])
            .arg(&sh)
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        String::from_utf8_lossy(&out).to_string()
    };
    let out = differs();
    assert!(
        out.contains(&format!(",nodes (shard.jsonl),1,{n}")),
        "{out}"
    );
    // A header of other runs (the plan hash of another budget no run reached, say): the
    // merge refuses it, and verify names it, though every line equals its run.
    let head = text.lines().next().unwrap();
    let hash = head.split("\"plan_hash\":\"").nth(1).unwrap();
    let hash: String = hash.chars().take_while(|c| *c != '"').collect();
    std::fs::write(&jsonl, text.replacen(&hash, "0123456789abcdef", 1)).unwrap();
    let out = differs();
    assert!(
        out.contains(&format!(
            ",(shard.jsonl header) plan_hash,0123456789abcdef,{hash}"
        )),
        "{out}"
    );
    assert_eq!(out.lines().count(), 2, "{out}");
    // A merge never writes into a shard's folder, of this split or another.
    harness_in(t)
        .args([
            "run", "--quiet", "nim.toml", "--shard", "1/2", "--out", "other",
        ])
        .assert()
        .success();
    std::fs::write(&jsonl, &text).unwrap();
    for i in [1, 3] {
        harness_in(t)
            .args(["run", "--quiet", "nim.toml", "--shard", &format!("{i}/3")])
            .assert()
            .success();
    }
    let before = std::fs::read(t.join("other/runs.csv")).unwrap();
    let e = harness_in(t)
        .args(["merge", "nim.toml", "--out", "other"])
        .arg(t.join("results/nim/shard-1-of-3"))
        .arg(&sh)
        .arg(t.join("results/nim/shard-3-of-3"))
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8_lossy(&e)
            .contains("holds shard 1/2 of `nim`, which the merge would replace"),
        "{}",
        String::from_utf8_lossy(&e)
    );
    assert_eq!(std::fs::read(t.join("other/runs.csv")).unwrap(), before);
}

/// A copy of shard folder `of`, with the first run of shard folder `from` appended to its
/// `file` (runs.csv or shard.jsonl), verified against `toml`: exit 1, and the one difference
/// names the run as of shard `which` ("3/3, not 2/3"). Returns stderr.
fn verify_with_stray(
    t: &Path,
    toml: &str,
    [of, from]: [&Path; 2],
    file: &str,
    which: &str,
) -> String {
    let dir = t.join(format!("stray-{file}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in std::fs::read_dir(of).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    let theirs = std::fs::read_to_string(from.join(file)).unwrap();
    let line = theirs.lines().nth(1).unwrap();
    let key = line.split("game=").nth(1).unwrap();
    let key = format!("game={}", key.split([',', '"']).next().unwrap());
    let mut ours = std::fs::read_to_string(dir.join(file)).unwrap();
    ours.push_str(line);
    ours.push('\n');
    std::fs::write(dir.join(file), ours).unwrap();
    let out = harness_in(t)
        .args(["verify", "--quiet", toml])
        .arg(&dir)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let named = if file == "runs.csv" {
        ""
    } else {
        "(shard.jsonl)"
    };
    let entry = if file == "runs.csv" {
        "a row"
    } else {
        "a line"
    };
    let row = format!("{key},{named},{entry},\"a run of shard {which}\"");
    assert_eq!(
        stdout.lines().skip(1).collect::<Vec<_>>(),
        [row],
        "{stdout}"
    );
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// A shard's own folder holds its shard alone: a run of another shard in its runs.csv or its
/// shard.jsonl is a difference (the merge refuses such a shard), also in a shard of no run.
#[test]
fn a_shard_folder_holding_another_shards_run_differs() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    std::fs::copy(repo("experiments/nim.toml"), t.join("nim.toml")).unwrap();
    let shard = |name: &str, i: usize| t.join(format!("results/{name}/shard-{i}-of-3"));
    for i in 1..=3 {
        harness_in(t)
            .args(["run", "--quiet", "nim.toml", "--shard", &format!("{i}/3")])
            .assert()
            .success();
    }
    let nim = [shard("nim", 2), shard("nim", 3)];
    let nim = [nim[0].as_path(), nim[1].as_path()];
    let err = verify_with_stray(t, "nim.toml", nim, "runs.csv", "3/3, not 2/3");
    assert!(
        err.contains("0 of 65 runs of shard 2/3 differ from")
            && err.contains("/shard.jsonl, 1 row or line is no run of it"),
        "{err}"
    );
    verify_with_stray(t, "nim.toml", nim, "shard.jsonl", "3/3, not 2/3");
    // The merge refuses that shard as verify now does.
    harness_in(t)
        .args(["merge", "nim.toml", "--out", "m"])
        .arg(shard("nim", 1))
        .arg(t.join("stray-shard.jsonl"))
        .arg(shard("nim", 3))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "shard.jsonl holds 66 runs, but the experiment puts 65 runs in it",
        ));
    // A shard's folder whose manifest has gone, or names no shard: bad input, not every other
    // shard's run reported missing; with --shard it verifies.
    let bare = t.join("bare");
    std::fs::create_dir(&bare).unwrap();
    for f in ["runs.csv", "shard.jsonl", "experiment.toml"] {
        std::fs::copy(shard("nim", 2).join(f), bare.join(f)).unwrap();
    }
    let refused = |needle: &str| {
        harness_in(t)
            .args(["verify", "--quiet", "nim.toml"])
            .arg(&bare)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(needle));
    };
    refused("holds shard.jsonl (a shard's folder), but its manifest.json does not say which shard; give --shard I/N");
    harness_in(t)
        .args(["verify", "--quiet", "nim.toml", "--shard", "2/3"])
        .arg(&bare)
        .assert()
        .success();
    let manifest = std::fs::read_to_string(shard("nim", 2).join("manifest.json")).unwrap();
    let named = manifest.replace("\"shard\": \"2/3\"", "\"shard\": \"4/3\"");
    assert_ne!(named, manifest);
    std::fs::write(bare.join("manifest.json"), named).unwrap();
    refused("manifest.json: names shard `4/3`, which is no shard harness writes");
    std::fs::write(bare.join("manifest.json"), "{").unwrap();
    refused("manifest.json: not a harness manifest (EOF while parsing an object at line 1 column 1); allowed: the manifest.json `harness run` wrote there, unedited: restore it");
    // A list is no manifest (serde would read it field by field, naming its struct).
    std::fs::write(bare.join("manifest.json"), "[]").unwrap();
    refused("manifest.json: not a harness manifest (the file holds no JSON object `{ ... }`)");
    // A shard of no run (one run in three shards), holding the run of the shard that has it.
    let one = "name = \"one\"\n[game]\nkind = \"nim\"\npositions = [\"1,2\"]\n\
               [search]\nalgorithm = \"alphabeta\"\ndepth = 1\n";
    std::fs::write(t.join("one.toml"), one).unwrap();
    for i in 1..=3 {
        harness_in(t)
            .args(["run", "--quiet", "one.toml", "--shard", &format!("{i}/3")])
            .assert()
            .success();
    }
    let runs = |i: usize| {
        let csv = std::fs::read_to_string(shard("one", i).join("runs.csv")).unwrap();
        csv.lines().count() - 1
    };
    let held: Vec<usize> = (1..=3).map(runs).collect();
    assert_eq!(held.iter().sum::<usize>(), 1, "{held:?}");
    let full = 1 + held.iter().position(|&n| n == 1).unwrap();
    let empty = 1 + held.iter().position(|&n| n == 0).unwrap();
    let (of, from) = (shard("one", empty), shard("one", full));
    let which = format!("{full}/3, not {empty}/3");
    // (Its runs.csv's header is of no run's columns, so a row appended there is a damaged
    // file: exit 2.)
    verify_with_stray(t, "one.toml", [&of, &from], "shard.jsonl", &which);
}

/// The differences on stdout are CSV, also when the folder's name holds a comma and quotes.
#[test]
fn differences_are_csv() {
    let nodes = column("nodes") + 2;
    let src = edited(|i, l| {
        vec![if i == 1 {
            set_field(l, nodes, "1")
        } else {
            l.into()
        }]
    });
    let odd = src.path().join("a,b \"q\"");
    std::fs::create_dir(&odd).unwrap();
    std::fs::copy(src.path().join("runs.csv"), odd.join("runs.csv")).unwrap();
    let (code, out, _) = verify(&[], &odd);
    assert_eq!(code, Some(1));
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(out.as_bytes())
        .records()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(&rows[0][1], "nodes");
    let mut r = csv::Reader::from_reader(out.as_bytes());
    assert_eq!(r.headers().unwrap().len(), 4);
    assert!(r.headers().unwrap()[2].ends_with("a,b \"q\"/runs.csv"));
}

/// A reader that stops early (`harness verify ... | head -1`) cuts the listing of the
/// differences short, not the verdict: the status is still 1.
#[test]
fn differences_found_exit_1_when_the_reader_went_away() {
    use std::process::Stdio;
    let nodes = column("nodes") + 2; // the quoted position field holds two commas
    let tmp = edited(|i, l| {
        vec![if i >= 1 {
            set_field(l, nodes, "1")
        } else {
            l.into()
        }]
    });
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["verify", "--quiet"])
        .arg(repo("experiments/nim.toml"))
        .arg(tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The read end is closed before the search ends, so the first line meets a closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("200 of 200 runs differ"), "{err}");
}
