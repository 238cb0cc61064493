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
    assert!(out.contains("(shard 2/3) searched again"), "{out}");
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
    assert!(err.contains("2 of 200 runs differ"), "{err}");
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
