//! The command line: determinism of `harness run`, and bad input (exit 2, one clear message
//! naming the file, the key with line:column and what is allowed, no panic, no results file).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn harness() -> Command {
    Command::cargo_bin("harness").unwrap()
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// runs.csv without the wall-clock columns.
fn counters_only(csv_path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(csv_path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !harness::report::csv::TIME_COLUMNS.contains(&header[i].as_str()))
        .collect();
    let mut out = vec![keep.iter().map(|&i| header[i].clone()).collect()];
    for rec in r.records() {
        let rec = rec.unwrap();
        out.push(keep.iter().map(|&i| rec[i].to_string()).collect());
    }
    out
}

#[test]
fn tictactoe_experiment_is_identical_across_reruns_and_thread_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let mut tables = Vec::new();
    for (i, jobs) in ["1", "2", "2", "0"].iter().enumerate() {
        let out = tmp.path().join(format!("run{i}"));
        harness()
            .args(["run", "--quiet", "--jobs", jobs, "--out"])
            .arg(&out)
            .arg(repo("experiments/tictactoe.toml"))
            .assert()
            .success();
        tables.push(counters_only(&out.join("runs.csv")));
        assert!(!out.join("runs.csv.partial").exists());
    }
    assert!(tables[0].len() > 100);
    for t in &tables[1..] {
        assert_eq!(t, &tables[0]);
    }
    // The published figure appears in the CSV: minimax from the empty board.
    let header = &tables[0][0];
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let row = tables[0]
        .iter()
        .find(|r| r[col("algorithm")] == "minimax" && r[col("position")] == ".........")
        .unwrap();
    assert_eq!(row[col("nodes")], "549946");
    assert_eq!(row[col("terminal")], "255168");
    assert_eq!(row[col("value")], "0");
}

#[test]
fn list_names_games_algorithms_and_orderings() {
    let out = harness()
        .arg("list")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for word in [
        "tictactoe",
        "nim",
        "minimax",
        "negamax",
        "alphabeta",
        "fail-hard",
        "static",
        "random",
    ] {
        assert!(text.contains(word), "{word} missing from harness list");
    }
}

const GOOD: &str = r#"name = "t"
seed = 1

[game]
kind = "tictactoe"
positions = ["start"]

[search]
algorithm = "alphabeta"
depth = 3
ordering = "natural"
"#;

/// Runs `harness run` on `text` with one substitution and checks the error.
fn bad(from: &str, to: &str, expect: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    let text = GOOD.replacen(from, to, 1);
    assert_ne!(text, GOOD, "substitution {from:?} did not apply");
    std::fs::write(&file, &text).unwrap();
    let out_dir = tmp.path().join("out");
    let out = harness()
        .args(["run", "--quiet", "--out"])
        .arg(&out_dir)
        .arg(&file)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("exp.toml"), "names the file: {err}");
    for e in expect {
        assert!(err.contains(e), "expected {e:?} in: {err}");
    }
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one message: {err}");
    assert!(!out_dir.join("runs.csv").exists(), "no results file");
}

#[test]
fn toml_syntax_error_names_line_and_column() {
    bad("seed = 1", "seed = = 1", &["exp.toml:2:"]);
}

#[test]
fn unknown_key_names_the_key_and_allowed_keys() {
    bad(
        "ordering =",
        "ordring =",
        &["exp.toml:11:1", "ordring", "ordering"],
    );
    bad(
        "positions",
        "postions",
        &["exp.toml:6:1", "postions", "positions"],
    );
}

#[test]
fn unknown_game_algorithm_or_ordering_lists_what_is_allowed() {
    bad(
        "\"tictactoe\"",
        "\"chequers\"",
        &["exp.toml:5:", "chequers", "tictactoe", "nim"],
    );
    bad(
        "\"alphabeta\"",
        "\"alpha-beta\"",
        &["exp.toml:9:", "alpha-beta", "minimax, negamax, alphabeta"],
    );
    bad(
        "\"natural\"",
        "\"best-first\"",
        &["exp.toml:11:", "best-first", "natural, static, random"],
    );
    bad(
        "depth = 3",
        "depth = 3\nvariant = \"fail-medium\"",
        &["fail-medium", "fail-hard, fail-soft"],
    );
}

#[test]
fn depth_zero_or_negative_is_refused() {
    bad(
        "depth = 3",
        "depth = 0",
        &["exp.toml:10:9", "depth 0", "plies >= 1"],
    );
    bad("depth = 3", "depth = -2", &["exp.toml:10:9", "depth -2"]);
    bad("depth = 3", "depth = [2, 0]", &["exp.toml:10:", "depth 0"]);
    bad(
        "depth = 3",
        "depth = { from = 3, to = 1 }",
        &["exp.toml:10:", "empty"],
    );
}

#[test]
fn malformed_positions_are_refused() {
    bad(
        "[\"start\"]",
        "[\"start\", \"xxo\"]",
        &["exp.toml:6:23", "positions", "9 characters"],
    );
    bad(
        "[\"start\"]",
        "[\"xx.......\"]",
        &["exp.toml:6:", "x = o or x = o + 1"],
    );
    bad("[\"start\"]", "[\"4,4\"]", &["exp.toml:6:", "not legal"]);
    bad(
        "kind = \"tictactoe\"\npositions = [\"start\"]",
        "kind = \"nim\"\npositions = [\"3,x\"]",
        &["exp.toml:6:", "heap `x`"],
    );
}

#[test]
fn options_of_another_game_are_refused() {
    bad(
        "kind = \"tictactoe\"",
        "kind = \"tictactoe\"\nmisere = true",
        &["exp.toml:6:", "misere", "tictactoe: scale"],
    );
}

#[test]
fn missing_experiment_file() {
    let out = harness()
        .args(["run", "--quiet", "no/such/experiment.toml"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("no/such/experiment.toml") && err.contains("cannot read"),
        "{err}"
    );
}

#[test]
fn unwritable_output_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, GOOD).unwrap();
    // A path below a regular file can never be created, even by root.
    let blocker = tmp.path().join("blocker");
    std::fs::write(&blocker, "").unwrap();
    let out = harness()
        .args(["run", "--quiet", "--out"])
        .arg(blocker.join("out"))
        .arg(&file)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("output directory") && err.contains("--out"),
        "{err}"
    );
}

#[test]
fn a_good_file_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, GOOD).unwrap();
    harness()
        .args(["run", "--quiet", "--out"])
        .arg(tmp.path().join("out"))
        .arg(&file)
        .assert()
        .success();
    assert!(tmp.path().join("out/runs.csv").exists());
}
