//! Helpers shared by the integration tests. (Each test crate uses some of them.)
#![allow(dead_code)]

use std::collections::HashSet;
use std::path::Path;
use std::process::Output;

use harness::games::tictactoe::{Scale, TicTacToe};
use harness::games::Game;

/// `harness run --quiet --jobs 1 --out OUT FILE`, with the process's virtual memory limited to
/// `limit_kb` (the shell's `ulimit -v`) when given.
pub fn harness_run_limited(file: &Path, out: &Path, limit_kb: Option<u32>) -> Output {
    let limit = limit_kb.map_or(String::new(), |kb| format!("ulimit -v {kb} && "));
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{limit}exec \"$0\" run --quiet --jobs 1 --out \"$1\" \"$2\""
        ))
        .arg(env!("CARGO_BIN_EXE_harness"))
        .arg(out)
        .arg(file)
        .output()
        .unwrap()
}

/// Every tic-tac-toe position reachable from the empty board (5,478 of them), each once with
/// its ply, in depth-first order from the empty board (first).
pub fn reachable_tictactoe(scale: Scale) -> Vec<(TicTacToe, u32)> {
    fn walk(g: &mut TicTacToe, ply: u32, seen: &mut HashSet<u64>, out: &mut Vec<(TicTacToe, u32)>) {
        if !seen.insert(g.key()) {
            return;
        }
        out.push((g.clone(), ply));
        if g.outcome().is_some() {
            return;
        }
        let mut moves = Vec::new();
        g.moves(&mut moves);
        for m in moves {
            g.make(m);
            walk(g, ply + 1, seen, out);
            g.unmake(m);
        }
    }
    let mut out = Vec::new();
    walk(&mut TicTacToe::new(scale), 0, &mut HashSet::new(), &mut out);
    out
}

/// Writes the experiment `toml` to a temporary folder and runs it in-process (plan, then
/// every run on one thread): the run records, in runs.csv order.
pub fn run_records(toml: &str) -> Vec<harness::report::csv::RunRecord> {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    std::fs::write(&exp, toml).unwrap();
    let (file, src) = harness::experiment::config::load(&exp).unwrap();
    let plan = harness::experiment::plan::build(&exp, &src, &file).unwrap();
    harness::experiment::runner::run_plan(
        &plan,
        &tmp.path().join("out"),
        harness::experiment::runner::RunOptions {
            jobs: 1,
            quiet: true,
            ..Default::default()
        },
    )
    .unwrap()
}

/// Writes the experiment `toml` to a temporary folder and runs `harness run --quiet --out`
/// on it, which must succeed: the folder (kept alive by the returned guard) and the results
/// folder in it.
pub fn harness_run_text(toml: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    std::fs::write(&exp, toml).unwrap();
    let out = tmp.path().join("out");
    assert_cmd::Command::cargo_bin("harness")
        .unwrap()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&exp)
        .assert()
        .success();
    (tmp, out)
}

/// Starts `harness run FILE --out OUT --jobs 1` and returns it once it has finished at least
/// `runs` runs.
pub fn start_until(file: &Path, out: &Path, runs: usize) -> std::process::Child {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["run", "--quiet", "--jobs", "1", "--out"])
        .arg(out)
        .arg(file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let partial = out.join("runs.csv.partial");
    let start = std::time::Instant::now();
    loop {
        // The header line, then a line per finished run.
        let lines = std::fs::read(&partial)
            .map(|b| b.iter().filter(|&&c| c == b'\n').count())
            .unwrap_or(0);
        if lines > runs {
            return child;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be killed"
        );
        assert!(start.elapsed().as_secs() < 60, "no runs finished");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}
