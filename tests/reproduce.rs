//! The committed results are reproducible: every experiment listed in results/experiments.txt
//! (except those marked `slow`) is run again, and its runs.csv and summary.csv must equal the
//! committed ones in every column but the wall-clock ones (time_ns, nodes_per_second and their
//! statistics).

use std::path::Path;

use assert_cmd::Command;

fn read(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let head = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    (head, rows)
}

fn is_time(col: &str) -> bool {
    ["time_ns", "nodes_per_second"]
        .iter()
        .any(|t| col == *t || col.starts_with(&format!("{t}_")))
}

fn compare(committed: &Path, fresh: &Path) {
    let (h1, r1) = read(committed);
    let (h2, r2) = read(fresh);
    assert_eq!(h1, h2, "{}: columns differ", committed.display());
    assert_eq!(
        r1.len(),
        r2.len(),
        "{}: row count differs",
        committed.display()
    );
    for (i, (a, b)) in r1.iter().zip(&r2).enumerate() {
        for (c, name) in h1.iter().enumerate() {
            if !is_time(name) {
                assert_eq!(
                    a[c],
                    b[c],
                    "{} row {} column {name}",
                    committed.display(),
                    i + 2
                );
            }
        }
    }
}

#[test]
fn committed_results_reproduce() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let list = std::fs::read_to_string(root.join("results/experiments.txt")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for line in list.lines() {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else { continue };
        if name.starts_with('#') || words.any(|w| w == "slow") {
            continue;
        }
        let out = tmp.path().join(name);
        Command::cargo_bin("harness")
            .unwrap()
            .arg("run")
            .arg(root.join(format!("experiments/{name}.toml")))
            .args(["--quiet", "--jobs", "2", "--out"])
            .arg(&out)
            .assert()
            .success();
        let committed = root.join("results").join(name);
        compare(&committed.join("runs.csv"), &out.join("runs.csv"));
        compare(&committed.join("summary.csv"), &out.join("summary.csv"));
        for f in ["experiment.toml", "manifest.json", "report.md"] {
            assert!(
                committed.join(f).exists(),
                "results/{name}/{f} is not committed"
            );
        }
        checked += 1;
    }
    assert!(
        checked > 0,
        "no experiment listed in results/experiments.txt"
    );
}
