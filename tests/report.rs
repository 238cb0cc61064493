//! Reports: `harness plot` rebuilds exactly what `harness run` wrote; bad input to `plot` is
//! an input error (exit 2) that overwrites nothing; summary statistics of a hand-made runs.csv.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

mod common;

fn harness() -> Command {
    Command::cargo_bin("harness").expect("the harness binary")
}

/// `harness run --quiet --out OUT EXP`, for its exit status and output.
fn run_exp(exp: &Path, out_dir: &Path) -> assert_cmd::assert::Assert {
    harness()
        .arg("run")
        .arg(exp)
        .args(["--quiet", "--out"])
        .arg(out_dir)
        .assert()
}

/// Writes `text` as exp.toml in a new temporary folder and runs it into `out` there, which
/// must succeed: (the temporary folder, the results folder, the run's assert).
fn run_text(text: &str) -> (tempfile::TempDir, PathBuf, assert_cmd::assert::Assert) {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    fs::write(&exp, text).unwrap();
    let out_dir = tmp.path().join("out");
    let a = run_exp(&exp, &out_dir).success();
    (tmp, out_dir, a)
}

/// Every file under `dir`, relative path -> bytes, sorted.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn plot_rebuilds_run_output_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ttt");
    let exp = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/tictactoe.toml");
    harness()
        .args([
            "run",
            exp.to_str().unwrap(),
            "--quiet",
            "--jobs",
            "2",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let before = files(&out);
    let names: Vec<String> = before
        .iter()
        .map(|(p, _)| p.display().to_string())
        .collect();
    for f in [
        "runs.csv",
        "summary.csv",
        "report.md",
        "manifest.json",
        "experiment.toml",
        "charts/nodes-scale-win-loss.svg",
        "charts/nodes-scale-win-loss.png",
        "charts/ebf-scale-depth-penalty.png",
        "charts/ratio-to-minimal-scale-win-loss.svg",
    ] {
        assert!(names.iter().any(|n| n == f), "{f} missing from {names:?}");
    }
    // No temporary files are left behind.
    assert!(names.iter().all(|n| !n.contains("tmp")), "{names:?}");
    // Remove the derived files so that plot must write them all again.
    fs::remove_file(out.join("summary.csv")).unwrap();
    fs::remove_file(out.join("report.md")).unwrap();
    fs::remove_dir_all(out.join("charts")).unwrap();
    harness().arg("plot").arg(&out).assert().success();
    let after = files(&out);
    assert_eq!(before.len(), after.len());
    for ((p, a), (q, b)) in before.iter().zip(&after) {
        assert_eq!(p, q);
        assert!(a == b, "{} differs after `harness plot`", p.display());
    }
    // The PNG really is a PNG, the SVG an SVG with text drawn in the registered family.
    let png = fs::read(out.join("charts/nodes-scale-win-loss.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let svg = fs::read_to_string(out.join("charts/nodes-scale-win-loss.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("plies left at most (depth = full)"));
    // Nothing in summary.csv or report.md depends on the clock except the time columns.
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let manifest = fs::read_to_string(out.join("manifest.json")).unwrap();
    let started = manifest
        .lines()
        .find(|l| l.contains("\"started\""))
        .unwrap()
        .split('"')
        .nth(3)
        .unwrap()
        .to_string();
    assert!(!md.contains(&started));
}

fn sentinel(dir: &Path) {
    fs::create_dir_all(dir.join("charts")).unwrap();
    fs::write(dir.join("summary.csv"), "old summary").unwrap();
    fs::write(dir.join("report.md"), "old report").unwrap();
    fs::write(dir.join("charts/nodes.svg"), "old chart").unwrap();
}

fn assert_untouched(dir: &Path) {
    assert_eq!(
        fs::read_to_string(dir.join("summary.csv")).unwrap(),
        "old summary"
    );
    assert_eq!(
        fs::read_to_string(dir.join("report.md")).unwrap(),
        "old report"
    );
    assert_eq!(
        fs::read_to_string(dir.join("charts/nodes.svg")).unwrap(),
        "old chart"
    );
    let n = fs::read_dir(dir.join("charts")).unwrap().count();
    assert_eq!(n, 1, "nothing new in charts/");
}

#[test]
fn plot_without_runs_csv_is_an_input_error() {
    let tmp = tempfile::tempdir().unwrap();
    sentinel(tmp.path());
    let out = harness().arg("plot").arg(tmp.path()).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("runs.csv") && err.contains("not found"),
        "{err}"
    );
    assert_untouched(tmp.path());
    // A path that is no folder at all.
    let out = harness()
        .arg("plot")
        .arg(tmp.path().join("nope"))
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("not a folder"), "{err}");
}

/// Writes `csv` as `dir/runs.csv`, runs `harness plot dir`, checks exit 2 and that nothing
/// was written, and returns stderr.
fn plot_refuses(dir: &Path, csv: &str) -> String {
    fs::write(dir.join("runs.csv"), csv).unwrap();
    let out = harness().arg("plot").arg(dir).assert().code(2);
    assert_untouched(dir);
    String::from_utf8_lossy(&out.get_output().stderr).to_string()
}

#[test]
fn plot_with_foreign_columns_is_an_input_error() {
    let tmp = tempfile::tempdir().unwrap();
    sentinel(tmp.path());
    let err = plot_refuses(tmp.path(), "");
    assert!(
        err.contains("runs.csv: empty; `harness run` writes"),
        "{err}"
    );
    let err = plot_refuses(tmp.path(), "a,b,c\n1,2,3\n");
    assert!(
        err.contains("do not match") && err.contains("missing experiment, run_key"),
        "{err}"
    );
    // The right columns but a word where a counter belongs.
    let mut rows = hand_made_rows();
    let csv = |rows: &[Vec<(&str, String)>]| runs_csv(&["branching"], &["tt_hits", "note"], rows);
    rows[0][5].1 = "four".to_string();
    let err = plot_refuses(tmp.path(), &csv(&rows));
    assert!(err.contains("`nodes` holds `four`"), "{err}");
    // A number that is no count, and a status harness never writes.
    rows[0][5].1 = "-5".to_string();
    let err = plot_refuses(tmp.path(), &csv(&rows));
    assert!(
        err.contains("runs.csv:2: column `nodes` holds `-5`, not a count"),
        "{err}"
    );
    // A count past 64 bits: too large, and the message says how large a count may be.
    rows[0][5].1 = "99999999999999999999999".to_string();
    let err = plot_refuses(tmp.path(), &csv(&rows));
    assert!(
        err.contains("holds `99999999999999999999999`, a number too large for it; allowed: a whole number from 0 to 18446744073709551615"),
        "{err}"
    );
    rows[0][5].1 = "4".to_string();
    let err = plot_refuses(tmp.path(), &csv(&rows).replacen(",ok,", ",bogus,", 1));
    assert!(
        err.contains("column `status` holds `bogus`; allowed: ok, budget"),
        "{err}"
    );
    // A control character in a cell (an ordering, a status) is named, escaped, not echoed.
    rows[1][4].1 = "x\u{1b}[31m".to_string();
    let err = plot_refuses(tmp.path(), &csv(&rows));
    assert!(
        err.contains("runs.csv:3: column `ordering` holds `x\\u{1b}[31m`, with the control character U+001B, which harness never writes"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "{err}");
    rows[1][4].1 = "natural".to_string();
    let err = plot_refuses(tmp.path(), &csv(&rows).replacen(",ok,", ",o\0k,", 1));
    assert!(err.contains("column `status` holds `o\\0k`"), "{err}");
    // Rows of unequal length (the header and four rows before it: line 6).
    let err = plot_refuses(tmp.path(), &(hand_made() + "tiny,x,uniform\n"));
    assert!(
        err.contains("runs.csv:6: 3 fields, where the header has"),
        "{err}"
    );
    // The same lines with CRLF endings (the csv crate's own line count is one short there).
    let crlf = |text: String| text.replace('\n', "\r\n");
    let err = plot_refuses(tmp.path(), &crlf(hand_made() + "tiny,x,uniform\n"));
    assert!(
        err.contains("runs.csv:6: 3 fields, where the header has"),
        "{err}"
    );
    let bogus = csv(&rows).replacen(",static,", ",static,\"\",", 1);
    let err = plot_refuses(tmp.path(), &crlf(bogus));
    assert!(err.contains("runs.csv:5: "), "{err}");
    let err = plot_refuses(tmp.path(), &crlf(csv(&rows).replacen(",ok,", ",bogus,", 1)));
    assert!(
        err.contains("runs.csv:2: column `status` holds `bogus`"),
        "{err}"
    );
    // Lone CRs (old Mac line ends) end lines too.
    let cr = |text: String| text.replace('\n', "\r");
    let err = plot_refuses(tmp.path(), &cr(hand_made() + "tiny,x,uniform\n"));
    assert!(
        err.contains("runs.csv:6: 3 fields, where the header has"),
        "{err}"
    );
    let err = plot_refuses(tmp.path(), &cr(csv(&rows).replacen(",ok,", ",bogus,", 1)));
    assert!(err.contains("runs.csv:2: column `status`"), "{err}");
    let err = plot_refuses(
        tmp.path(),
        &cr(csv(&rows).replacen(",static,", ",static,\"\",", 1)),
    );
    assert!(err.contains("runs.csv:5: "), "{err}");
    // A stray quote opens a field that swallows the lines after it: the message says where.
    let stray = csv(&rows).replacen(",static,", ",\"static,", 1);
    for text in [stray.clone(), crlf(stray.clone()), cr(stray)] {
        let err = plot_refuses(tmp.path(), &text);
        assert!(
            err.contains("runs.csv:5: ")
                && err.contains("fields, where the header has")
                && err.contains("opens a quoted field that no `\"` closes on its line"),
            "{err}"
        );
    }
    // Two quotes added on one line join the fields between them: the message says which
    // quoted field holds the row's missing commas.
    let text = csv(&rows);
    let open = text.find(",static,").unwrap() + 1;
    let close = open + text[open + "static,".len()..].find(',').unwrap() + "static,".len();
    let joined = format!(
        "{}\"{}\"{}",
        &text[..open],
        &text[open..close],
        &text[close..]
    );
    let col = open - text[..open].rfind('\n').unwrap();
    for text in [joined.clone(), crlf(joined.clone()), cr(joined)] {
        let err = plot_refuses(tmp.path(), &text);
        assert!(
            err.contains("runs.csv:5: ")
                && err.contains(&format!(
                    "(the quoted field at column {col} holds 1 comma, as many as the row is short of fields"
                )),
            "{err}"
        );
    }
    // Quotes that pair up give no such hint.
    let err = plot_refuses(
        tmp.path(),
        &(hand_made() + "tiny,\"x,\"\"y\"\"\",uniform\n"),
    );
    assert!(
        err.contains("runs.csv:6: 3 fields") && !err.contains("quoted"),
        "{err}"
    );
}

/// A runs.csv in the columns this build of harness writes (taken from the library, so columns
/// added later need no change here), with `extra_params` after `game` and `extra_results` at
/// the end. Fields a row does not give get a fixed default.
fn runs_csv(extra_params: &[&str], extra_results: &[&str], rows: &[Vec<(&str, String)>]) -> String {
    use harness::report::csv::{COUNTER_COLUMNS, HEAD, PARAMS};
    let mut head: Vec<&str> = HEAD.to_vec();
    head.extend(extra_params);
    head.extend(PARAMS);
    head.extend(COUNTER_COLUMNS);
    head.extend(extra_results);
    let default = |c: &str| -> &str {
        match c {
            "experiment" => "tiny",
            "game" => "uniform",
            "algorithm" => "alphabeta",
            "variant" => "fail-soft",
            "depth" => "4",
            "ordering" => "natural",
            "tie_break" => "first",
            "status" => "ok",
            "best_move" | "pv" | "position" => "a",
            "ebf" => "",
            "time_ns" => "100",
            "nodes_per_second" => "5",
            _ => "0",
        }
    };
    let mut out = head.join(",") + "\n";
    for r in rows {
        // A run a budget stopped has no value, move or line, as harness writes it.
        let budget = r.iter().any(|(k, v)| *k == "status" && v == "budget");
        let fields: Vec<String> = head
            .iter()
            .map(|c| {
                r.iter()
                    .find(|(k, _)| k == c)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| match *c {
                        "value" | "best_move" | "pv" if budget => String::new(),
                        _ => default(c).to_string(),
                    })
            })
            .collect();
        out += &(fields.join(",") + "\n");
    }
    out
}

/// `branching` (a parameter by name), `tt_hits` (an unknown numeric column after status: a
/// counter) and `note` (unknown text: a parameter). Group natural: nodes 4, 1, 2 over three
/// positions; group static: nodes 3 (one run).
fn hand_made_rows() -> Vec<Vec<(&'static str, String)>> {
    [
        ("k1", 0, "natural", 4, 1),
        ("k2", 1, "natural", 1, 2),
        ("k3", 2, "natural", 2, 6),
        ("k4", 0, "static", 3, 0),
    ]
    .iter()
    .map(|&(key, pos, ord, nodes, hits)| {
        vec![
            ("run_key", key.to_string()),
            ("branching", "2".to_string()),
            ("position_id", pos.to_string()),
            ("position", format!("p{pos}")),
            ("ordering", ord.to_string()),
            ("nodes", nodes.to_string()),
            ("leaves", "3".to_string()),
            ("max_ply", "4".to_string()),
            ("tt_hits", hits.to_string()),
            ("note", "x".to_string()),
        ]
    })
    .collect()
}

/// Rows for `runs_csv`: the `columns` named once, then each row's values in their order.
fn rows_of(columns: &[&'static str], values: &[&[&str]]) -> Vec<Vec<(&'static str, String)>> {
    values
        .iter()
        .map(|v| {
            assert_eq!(v.len(), columns.len(), "{v:?}");
            columns
                .iter()
                .zip(*v)
                .map(|(c, x)| (*c, x.to_string()))
                .collect()
        })
        .collect()
}

fn hand_made() -> String {
    runs_csv(&["branching"], &["tt_hits", "note"], &hand_made_rows())
}

#[test]
fn summary_statistics_of_a_hand_made_runs_csv() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("runs.csv"), hand_made()).unwrap();
    harness().arg("plot").arg(tmp.path()).assert().success();
    let text = fs::read_to_string(tmp.path().join("summary.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let head: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<Vec<String>> = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 2, "two groups: natural, static");
    let get = |r: usize, c: &str| -> String {
        let i = head
            .iter()
            .position(|h| h == c)
            .unwrap_or_else(|| panic!("no {c} in {head:?}"));
        rows[r][i].clone()
    };
    // Grouping keys: parameters before status, branching, and the text column `note`; not
    // position, rep, seed, run_key.
    let at = |c: &str| head.iter().position(|h| h == c);
    let runs = at("runs").unwrap();
    for c in [
        "game",
        "branching",
        "algorithm",
        "variant",
        "depth",
        "ordering",
        "tie_break",
        "note",
    ] {
        assert!(at(c).unwrap() < runs, "{c} is a grouping column: {head:?}");
    }
    assert!(!head
        .iter()
        .any(|h| h == "position_id" || h.starts_with("seed")));
    assert_eq!(get(0, "ordering"), "natural");
    assert_eq!(get(0, "runs"), "3");
    assert_eq!(get(0, "positions"), "3");
    assert_eq!(get(0, "budget_runs"), "0");
    // nodes 4, 1, 2: mean 7/3, median 2, geometric mean (8)^(1/3) = 2, min 1, max 4.
    assert_eq!(get(0, "nodes_mean"), "2.333333");
    assert_eq!(get(0, "nodes_median"), "2");
    assert_eq!(get(0, "nodes_geomean"), "2");
    assert_eq!(get(0, "nodes_min"), "1");
    assert_eq!(get(0, "nodes_max"), "4");
    // s^2 = ((4-7/3)^2 + (1-7/3)^2 + (2-7/3)^2) / 2 = 7/3; half width t(0.975, 2) * sqrt(s^2/3)
    // = 4.302653 * 0.881917 = 3.794583: interval (-1.461250, 6.127917).
    let lo: f64 = get(0, "nodes_ci95_low").parse().unwrap();
    let hi: f64 = get(0, "nodes_ci95_high").parse().unwrap();
    assert!((lo - -1.461250).abs() < 2e-6, "{lo}");
    assert!((hi - 6.127917).abs() < 2e-6, "{hi}");
    // tt_hits (unknown numeric column after status) is a counter: 1, 2, 6.
    assert_eq!(get(0, "tt_hits_mean"), "3");
    assert_eq!(get(0, "tt_hits_median"), "2");
    // A zero has no geometric mean; one run has no interval.
    assert_eq!(get(1, "tt_hits_geomean"), "");
    assert_eq!(get(1, "nodes_mean"), "3");
    assert_eq!(get(1, "nodes_ci95_low"), "");
    // ebf is empty in every row: not a counter, no columns.
    assert!(!head.iter().any(|h| h == "ebf_mean"));
    // Theory from the branching column, b = 2, d = 4 (Knuth & Moore 1975: 18 nodes; full
    // tree 31 nodes).
    // The theory columns have the names harness's own summaries give them, whatever columns
    // the runs.csv has.
    assert_eq!(get(0, "branching"), "2");
    assert_eq!(get(0, "theory_branching"), "2");
    assert_eq!(get(0, "branching_source"), "branching column");
    assert_eq!(get(0, "minimal_tree_nodes"), "18");
    assert_eq!(get(0, "full_tree_nodes"), "31");
    assert_eq!(get(0, "theory_pearl_r"), "1.618034");
    assert_eq!(get(1, "theory_nodes_over_minimal"), "0.166667");
    // report.md exists and shows the numbers; without experiment.toml/manifest.json it says so.
    let md = fs::read_to_string(tmp.path().join("report.md")).unwrap();
    assert!(
        md.contains("# tiny")
            && md.contains("no experiment.toml")
            && md.contains("environment unknown")
    );
    assert!(tmp.path().join("charts/nodes.png").exists());
}

/// `harness plot` on a folder holding only `runs`: summary.csv's `columns`, a row per group,
/// sorted.
/// A folder holding `runs` as runs.csv, plotted (exit 0).
fn plotted(runs: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("runs.csv"), runs).unwrap();
    harness().arg("plot").arg(tmp.path()).assert().success();
    tmp
}

fn plotted_summary(runs: &str, columns: &[&str]) -> Vec<Vec<String>> {
    let tmp = plotted(runs);
    let mut rdr = csv::Reader::from_path(tmp.path().join("summary.csv")).unwrap();
    let head = rdr.headers().unwrap().clone();
    let col = |c: &str| head.iter().position(|h| h == c).unwrap();
    let mut rows: Vec<Vec<String>> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            columns.iter().map(|c| r[col(c)].to_string()).collect()
        })
        .collect();
    rows.sort();
    rows
}

/// growth = nodes_mean(d) / nodes_mean(d - 1) and growth_2 = sqrt(nodes_mean(d) /
/// nodes_mean(d - 2)) within a series; a budget-stopped group gives none, nor takes part.
#[test]
fn summary_growth_between_depths() {
    let rows = rows_of(
        &["run_key", "ordering", "depth", "nodes", "status"],
        &[
            &["a1", "natural", "1", "10", "ok"],
            &["a2", "natural", "2", "40", "ok"],
            &["a3", "natural", "3", "90", "ok"],
            &["a4", "natural", "4", "500", "budget"],
            &["a5", "natural", "5", "8100", "ok"],
            &["b2", "static", "2", "7", "ok"],
            &["b3", "static", "3", "21", "ok"],
        ],
    );
    let got = plotted_summary(
        &runs_csv(&[], &[], &rows),
        &["ordering", "depth", "growth", "growth_2"],
    );
    let got: Vec<(String, String, String, String)> = got
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone(), r[2].clone(), r[3].clone()))
        .collect();
    let want = [
        ("natural", "1", "", ""),
        ("natural", "2", "4", ""),
        ("natural", "3", "2.25", "3"),
        ("natural", "4", "", ""),
        ("natural", "5", "", "9.486833"),
        ("static", "2", "", ""),
        ("static", "3", "3", ""),
    ];
    let want: Vec<(String, String, String, String)> = want
        .iter()
        .map(|w| (w.0.into(), w.1.into(), w.2.into(), w.3.into()))
        .collect();
    assert_eq!(got, want);
}

/// Iterative deepening's per-iteration counts, summarized per group: the mean in each
/// iteration over the finished runs that reached it (a run a budget stopped is left out), as
/// `iteration_nodes_mean` beside runs.csv's `iteration_nodes`.
#[test]
fn summary_means_each_iteration_over_the_runs_that_reached_it() {
    let columns = [
        "run_key",
        "ordering",
        "position_id",
        "nodes",
        "status",
        "iteration_nodes",
    ];
    let rows = rows_of(
        &columns,
        &[
            &["a1", "natural", "0", "16", "ok", "1:1 2:5 3:10"],
            &["a2", "natural", "1", "9", "ok", "1:2 2:7"],
            &["a3", "natural", "2", "31", "ok", "1:4 2:6 3:21"],
            &["a4", "natural", "3", "900", "budget", "1:100 2:800"],
            &["b1", "static", "0", "3", "ok", "1:3"],
        ],
    );
    let got = plotted_summary(
        &runs_csv(&[], &["iteration_nodes"], &rows),
        &["ordering", "iteration_nodes_mean"],
    );
    // Iteration 1: (1 + 2 + 4) / 3; iteration 2: (5 + 7 + 6) / 3; iteration 3: (10 + 21) / 2.
    assert_eq!(
        got,
        [
            vec!["natural".to_string(), "1:2.333333 2:6 3:15.5".to_string()],
            vec!["static".to_string(), "1:3".to_string()],
        ]
    );
    // No iterations in a finished run (none at all, or only in a run a budget stopped): no
    // column.
    let stopped = rows_of(
        &columns,
        &[
            &["a1", "natural", "0", "16", "ok", ""],
            &["a2", "natural", "1", "9", "budget", "1:2 2:7"],
        ],
    );
    for runs in [
        runs_csv(&[], &[], &hand_made_rows()),
        runs_csv(&[], &["iteration_nodes"], &stopped),
    ] {
        let tmp = plotted(&runs);
        let head = fs::read_to_string(tmp.path().join("summary.csv")).unwrap();
        assert!(
            !head.lines().next().unwrap().contains("iteration_"),
            "{head}"
        );
    }
}

/// A per-iteration cell that is not what harness writes (iterations numbered 1, 2, ... one
/// space apart, a count each) is refused, as a bad counter is: it would enter the means.
#[test]
fn a_malformed_iteration_cell_is_an_input_error() {
    let tmp = tempfile::tempdir().unwrap();
    sentinel(tmp.path());
    for cell in [
        "1:2 x:3",
        "1:",
        ":5",
        "1:-3",
        "1:+5",
        "1:0.5",
        "1:1e400",
        "01:100",
        "1:2 1:4",
        "0:5",
        "2:5",
        "1:2  2:3",
        " 1:2",
        "1:2:3",
        "1:18446744073709551616",
    ] {
        let rows = rows_of(
            &["run_key", "iteration_nodes"],
            &[&["a1", "1:1 2:5"], &["a2", cell]],
        );
        let err = plot_refuses(tmp.path(), &runs_csv(&[], &["iteration_nodes"], &rows));
        assert!(
            err.contains("column `iteration_nodes`")
                && err.contains("a count per iteration, the iterations numbered from 1"),
            "{cell}: {err}"
        );
    }
}

/// A theory figure past what a float holds (the full tree of b = 10^6 to depth 60) is an
/// empty cell, and so is the ratio over it (which read 0); the ratio over the minimal tree
/// (about 10^180) stays.
#[test]
fn a_ratio_over_a_tree_too_large_for_a_float_is_empty() {
    let rows = rows_of(
        &["run_key", "branching", "depth", "nodes", "status"],
        &[&["k", "1000000", "60", "100", "ok"]],
    );
    let got = plotted_summary(
        &runs_csv(&["branching"], &[], &rows),
        &[
            "full_tree_nodes",
            "theory_nodes_over_full",
            "theory_pearl_r",
            "theory_nodes_over_minimal",
        ],
    );
    assert_eq!(got.len(), 1);
    assert_eq!(
        (got[0][0].as_str(), got[0][1].as_str()),
        ("", ""),
        "{got:?}"
    );
    assert!(!got[0][2].is_empty() && !got[0][3].is_empty(), "{got:?}");
}

/// On uniform trees searched to their height (`depth = "full"`), growth runs across heights;
/// where the experiment also searched the same tree shallower, that search is the neighbour
/// (and when a budget stopped that search, there is none: not the smaller trees).
#[test]
fn summary_growth_across_heights_of_full_depth_searches() {
    let rows = rows_of(
        &[
            "run_key", "game", "ordering", "height", "depth", "nodes", "status",
        ],
        &[
            &["a1", "uniform", "natural", "1", "1", "4", "ok"],
            &["a2", "uniform", "natural", "2", "2", "12", "ok"],
            &["a3", "uniform", "natural", "3", "3", "27", "ok"],
            &["a4", "uniform", "natural", "4", "4", "108", "ok"],
            &["b3", "uniform", "static", "3", "3", "20", "ok"],
            &["b4", "uniform", "static", "4", "4", "90", "ok"],
            &["c4", "uniform", "static", "4", "3", "30", "ok"],
            &["d3", "uniform", "random", "3", "3", "20", "ok"],
            &["d4", "uniform", "random", "4", "4", "90", "ok"],
            &["e4", "uniform", "random", "4", "3", "30", "budget"],
        ],
    );
    let got = plotted_summary(
        &runs_csv(&["branching", "height"], &[], &rows),
        &["ordering", "height", "depth", "growth", "growth_2"],
    );
    let want = [
        ["natural", "1", "1", "", ""],
        ["natural", "2", "2", "3", ""],
        ["natural", "3", "3", "2.25", "2.598076"],
        ["natural", "4", "4", "4", "3"],
        // Height 4's tree searched to depth 3 was stopped: no growth, not one over height 3.
        ["random", "3", "3", "", ""],
        ["random", "4", "3", "", ""],
        ["random", "4", "4", "", ""],
        // Height 3's tree is another tree; height 4's tree searched to depth 3 is the same one.
        ["static", "3", "3", "", ""],
        ["static", "4", "3", "", ""],
        ["static", "4", "4", "3", ""],
    ]
    .map(|w| w.map(String::from).to_vec());
    assert_eq!(got, want);
}

#[test]
fn report_section_errors_point_at_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("runs.csv"), hand_made()).unwrap();
    let exp = "name = \"tiny\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 4\n[report]\nseries = \"colour\"\n";
    fs::write(tmp.path().join("experiment.toml"), exp).unwrap();
    let out = harness().arg("plot").arg(tmp.path()).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("experiment.toml:8:10")
            && err.contains("`colour`")
            && err.contains("allowed: game, branching"),
        "{err}"
    );
    assert!(!tmp.path().join("summary.csv").exists());
    // Unknown keys and chart names are caught by the parser, with their position.
    fs::write(
        tmp.path().join("experiment.toml"),
        exp.replace("series = \"colour\"", "charts = [\"pie\"]"),
    )
    .unwrap();
    let out = harness().arg("plot").arg(tmp.path()).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("experiment.toml:8:") && err.contains("pie"),
        "{err}"
    );
    // An empty column list names no column (it was told it "gives no runs").
    for key in ["series", "facet", "pool"] {
        fs::write(
            tmp.path().join("experiment.toml"),
            exp.replace("series = \"colour\"", &format!("{key} = []")),
        )
        .unwrap();
        let out = harness().arg("plot").arg(tmp.path()).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            err.contains("experiment.toml:8:")
                && err.contains(&format!(
                    "`{key}`: an empty list names no column; allowed: a column name"
                )),
            "{err}"
        );
    }
}

#[test]
fn table_size_column_gives_a_nodes_vs_table_chart() {
    // tt_entries after status is still a parameter (by name); depth 4 and 6; three sizes.
    let mut rows = Vec::new();
    let mut k = 0;
    for depth in [4, 6] {
        for (size, nodes) in [(1024, 900), (65536, 500), (4194304, 300)] {
            for pos in 0..2 {
                k += 1;
                let n = nodes * depth / 4 + pos * 10;
                rows.push(vec![
                    ("run_key", format!("k{k:02}")),
                    ("game", "tictactoe".to_string()),
                    ("position_id", pos.to_string()),
                    ("depth", depth.to_string()),
                    ("ordering", "static".to_string()),
                    ("nodes", n.to_string()),
                    ("max_ply", depth.to_string()),
                    ("ebf", "2.5".to_string()),
                    ("tt_entries", size.to_string()),
                    ("tt_hits", "7".to_string()),
                ]);
            }
        }
    }
    let csv = runs_csv(&[], &["tt_entries", "tt_hits"], &rows);
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("runs.csv"), csv).unwrap();
    harness().arg("plot").arg(tmp.path()).assert().success();
    let svg = fs::read_to_string(tmp.path().join("charts/nodes-vs-table.svg")).unwrap();
    assert!(
        svg.contains("tt_entries (table entries, log scale)"),
        "x axis title"
    );
    let summary = fs::read_to_string(tmp.path().join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 6, "groups: 2 depths x 3 sizes");
    assert!(summary.lines().next().unwrap().contains(",tt_entries,"));
}

#[test]
fn run_with_a_bad_report_section_exits_2_before_searching() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    fs::write(
        &exp,
        "name = \"tinynim\"\n[game]\nkind = \"nim\"\npositions = [\"1,2\"]\n[search]\nalgorithm = \"minimax\"\ndepth = \"full\"\n[report]\nfacet = \"colour\"\n",
    )
    .unwrap();
    let out_dir = tmp.path().join("out");
    let out = run_exp(&exp, &out_dir).code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    // The user's file and the key's line:column, checked against the columns runs.csv will
    // have; nothing is searched or written.
    assert!(
        err.contains("exp.toml:9:9") && err.contains("`colour`") && err.contains("allowed:"),
        "{err}"
    );
    assert!(!out_dir.exists(), "nothing written");
}

/// Two depths; at depth 6 one of the two positions stopped at the node budget.
fn budget_rows() -> Vec<Vec<(&'static str, String)>> {
    let mut rows = Vec::new();
    for (k, (depth, pos, nodes, status)) in [
        (4, 0, 100, "ok"),
        (4, 1, 120, "ok"),
        (6, 0, 900, "ok"),
        (6, 1, 1000, "budget"),
    ]
    .into_iter()
    .enumerate()
    {
        rows.push(vec![
            ("run_key", format!("k{k}")),
            ("game", "tictactoe".to_string()),
            ("position_id", pos.to_string()),
            ("depth", depth.to_string()),
            ("status", status.to_string()),
            ("nodes", nodes.to_string()),
            ("max_ply", depth.to_string()),
            ("ebf", "2.5".to_string()),
        ]);
    }
    rows
}

/// report.md's "Measured vs predicted" marks a budget-stopped group's ebf as a lower bound
/// only when its stopped runs reached their deepest ply; one stopped short has no ebf there,
/// as on the ebf chart, and a note says why.
#[test]
fn an_ebf_stopped_short_of_its_deepest_ply_is_no_lower_bound() {
    let rows = rows_of(
        &[
            "run_key",
            "branching",
            "depth",
            "nodes",
            "max_ply",
            "ebf",
            "status",
        ],
        &[
            &["a", "3", "3", "30", "3", "3.107233", "ok"],
            &["b", "3", "3", "35", "3", "3.271066", "budget"],
            &["c", "3", "4", "60", "4", "2.783158", "ok"],
            &["d", "3", "4", "30", "2", "5.477226", "budget"],
        ],
    );
    let tmp = plotted(&runs_csv(&["branching"], &[], &rows));
    let md = fs::read_to_string(tmp.path().join("report.md")).unwrap();
    let rows = table_rows(&md, "| depth | b |");
    assert_eq!(rows.len(), 2, "{md}");
    // Depth 3: the stopped run reached ply 3, so its ebf is a floor.
    assert_eq!(rows[0][1], "3");
    assert_eq!(rows[0][8], "≥ 3.189", "{md}");
    // Depth 4: stopped at ply 2 of 4, no ebf.
    assert_eq!(rows[1][1], "4");
    assert_eq!((rows[1][8], rows[1][10]), ("", ""), "{md}");
    assert!(
        md.contains(
            "ebf is left empty for a group with a run a budget stopped before its deepest ply"
        ),
        "{md}"
    );
}

/// On a category axis, the theory of a group with no point (branching 8, its one run stopped
/// at the root) has no category to stand on: it is left out, not drawn at the first category
/// (branching 2) beside that category's own theory, which then took labels with nothing after
/// their colon. On a numeric axis it stands at its x.
#[test]
fn theory_of_a_group_with_no_category_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("cat.toml");
    let text = "name = \"cat\"\n[game]\nkind = \"uniform\"\nbranching = [8, 2]\nheight = 2\n\
                [search]\nalgorithm = \"alphabeta\"\ndepth = \"full\"\nordering = \"oracle-best\"\n\
                max_nodes = 40\n[report]\nx = \"branching\"\ncharts = [\"ebf\"]\n";
    let theory = |scale: &str| {
        fs::write(&exp, format!("{text}x_scale = \"{scale}\"\n")).unwrap();
        let out = dir.path().join(scale);
        run_exp(&exp, &out).success();
        let md = fs::read_to_string(out.join("report.md")).unwrap();
        let rows = table_rows(&md, "| series (none varies: all runs) | branching |");
        let status: Vec<String> = csv_maps(&out, "runs.csv")
            .iter()
            .map(|r| format!("{}:{}", r["branching"], r["status"]))
            .collect();
        assert_eq!(status, ["2:ok", "8:budget"], "{md}");
        assert_eq!((rows[0][1], rows[0][2]), ("all runs", "2"), "{md}");
        rows[1..]
            .iter()
            .map(|r| format!("{} @ {} = {}", r[1], r[2], r[3]))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        theory("category"),
        [
            "full tree, its nodes^(1/d) (theory) @ 2 = 2.646",
            "minimal tree, its nodes^(1/d) (theory) @ 2 = 2.449",
            "Pearl R*(b): random order, limit as d grows (theory) @ 2 = 1.618",
        ]
    );
    assert_eq!(
        theory("linear"),
        [
            "full tree, its nodes^(1/d) (theory) @ 2 = 2.646",
            "full tree, its nodes^(1/d) (theory) @ 8 = 8.544",
            "minimal tree, its nodes^(1/d) (theory) @ 2 = 2.449",
            "minimal tree, its nodes^(1/d) (theory) @ 8 = 4.899",
            "Pearl R*(b): random order, limit as d grows (theory) @ 2 = 1.618",
            "Pearl R*(b): random order, limit as d grows (theory) @ 8 = 4.309",
        ]
    );
}

#[test]
fn budget_hit_points_are_marked_as_lower_bounds() {
    let tmp = plotted(&runs_csv(&[], &[], &budget_rows()));
    let summary = fs::read_to_string(tmp.path().join("summary.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(summary.as_bytes());
    let head = rdr.headers().unwrap().clone();
    let b = head.iter().position(|h| h == "budget_runs").unwrap();
    let budgets: Vec<String> = rdr.records().map(|r| r.unwrap()[b].to_string()).collect();
    assert_eq!(budgets, ["0", "1"]);
    let md = fs::read_to_string(tmp.path().join("report.md")).unwrap();
    // Depth 4 is a measurement, depth 6 (mean 950 with a stopped run) a lower bound.
    assert!(md.contains("| all runs | 4 | 110 | 100 | 120 |"), "{md}");
    assert!(md.contains("| all runs | 6 | ≥ 950 | 900 | 1000 |"), "{md}");
    let svg = fs::read_to_string(tmp.path().join("charts/nodes.svg")).unwrap();
    assert!(svg.contains("≥ budget hit (lower bound)"), "legend entry");
    // Not joined: the one line of the series' colour and width is the legend swatch; a line
    // joining depth 4 to 6 would be a second. The budget mark's arrow (shaft and head) is
    // drawn heavier.
    let lines = |w: u32| {
        svg.matches(&format!("stroke=\"#0072B2\" stroke-width=\"{w}\" points="))
            .count()
    };
    assert_eq!(lines(3), 1, "{svg}");
    assert_eq!(lines(4), 2, "{svg}");
}

#[test]
fn pool_averages_the_charts_over_a_column_but_not_the_summary() {
    let mut rows = Vec::new();
    let mut k = 0;
    for depth in [4, 6] {
        for (size, nodes) in [(16, 900), (256, 500)] {
            for pos in 0..2 {
                k += 1;
                rows.push(vec![
                    ("run_key", format!("k{k:02}")),
                    ("game", "tictactoe".to_string()),
                    ("position_id", format!("{depth}{pos}")),
                    ("depth", depth.to_string()),
                    ("nodes", (nodes * depth / 4).to_string()),
                    ("max_ply", depth.to_string()),
                    ("tt_entries", size.to_string()),
                    ("tt_bytes", (size * 16).to_string()),
                ]);
            }
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    fs::write(
        tmp.path().join("runs.csv"),
        runs_csv(&[], &["tt_entries", "tt_bytes"], &rows),
    )
    .unwrap();
    fs::write(
        tmp.path().join("experiment.toml"),
        "name = \"tiny\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 4\n\
         [report]\nx = \"tt_entries\"\nx_scale = \"category\"\npool = \"depth\"\ncharts = [\"nodes\"]\n",
    )
    .unwrap();
    harness().arg("plot").arg(tmp.path()).assert().success();
    let summary = fs::read_to_string(tmp.path().join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 4, "groups: 2 depths x 2 sizes");
    let md = fs::read_to_string(tmp.path().join("report.md")).unwrap();
    // One series (tt_bytes is a function of tt_entries; depth is pooled), means over 4 runs.
    assert!(md.contains("| all runs | 16 | 1125 | 900 | 1350 |"), "{md}");
    assert!(md.contains("| all runs | 256 | 625 | 500 | 750 |"), "{md}");
    assert!(md.contains("The charts pool over `depth`"));
    // pool and x on the same column: an input error at the key.
    fs::write(
        tmp.path().join("experiment.toml"),
        "name = \"tiny\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 4\n\
         [report]\nx = \"depth\"\npool = \"depth\"\n",
    )
    .unwrap();
    let out = harness().arg("plot").arg(tmp.path()).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("pool = `depth`"), "{err}");
}

/// A folder whose experiment.toml names another experiment than its runs.csv (what a run that
/// stopped before writing runs.csv leaves behind) is refused by `plot`, not mixed.
#[test]
fn plot_refuses_runs_of_another_experiment() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    let text = "name = \"first\"\n[game]\nkind = \"nim\"\npositions = [\"1,2\"]\n[search]\nalgorithm = \"minimax\"\ndepth = \"full\"\n";
    fs::write(&exp, text).unwrap();
    let out_dir = tmp.path().join("out");
    run_exp(&exp, &out_dir).success();
    fs::write(
        out_dir.join("experiment.toml"),
        text.replace("\"first\"", "\"second\""),
    )
    .unwrap();
    let out = harness().arg("plot").arg(&out_dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("runs.csv holds experiment `first`") && err.contains("`second`"),
        "{err}"
    );
}

/// A run of an experiment of the same name that stops after writing its manifest (here:
/// killed part way) leaves the earlier runs.csv beside it; `plot` refuses it, saying the last
/// run did not finish. A refusal before the search (a table past a process memory limit)
/// leaves the earlier results whole.
#[cfg(target_os = "linux")]
#[test]
fn plot_refuses_runs_left_by_an_earlier_run_of_the_same_name() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    let text = "name = \"same\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n";
    fs::write(&exp, text).unwrap();
    let out_dir = tmp.path().join("out");
    run_exp(&exp, &out_dir).success();
    let report = fs::read(out_dir.join("report.md")).unwrap();
    fs::write(&exp, format!("{text}[search.tt]\nentries = 67108864\n")).unwrap();
    let out = common::harness_run_limited(&exp, &out_dir, Some(500_000));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("more memory than this process can get")
            || err.contains("this machine's memory"),
        "{err}"
    );
    assert_eq!(fs::read(out_dir.join("report.md")).unwrap(), report);
    harness().arg("plot").arg(&out_dir).assert().success();
    // 210 uniform-tree searches of the same name, killed after a few.
    let long = "name = \"same\"\nseed = 5\n[game]\nkind = \"uniform\"\nbranching = 8\nheight = 6\ntrees = 30\n[search]\nalgorithm = \"alphabeta\"\ndepth = \"full\"\nordering = [\"random\", \"natural\", \"strong:0.5:0.5\"]\nrepetitions = 3\n";
    fs::write(&exp, long).unwrap();
    let kill = |dir: &std::path::Path| {
        let mut child = common::start_until(&exp, dir, 2);
        child.kill().unwrap();
        child.wait().unwrap();
    };
    kill(&out_dir);
    let out = harness().arg("plot").arg(&out_dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("did not finish") && err.contains("runs.csv is from an earlier run"),
        "{err}"
    );
    // The same stop as the first run into a folder: no runs.csv at all, and `plot` says why.
    let first = tmp.path().join("first");
    kill(&first);
    let out = harness().arg("plot").arg(&first).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("did not finish") && err.contains("wrote no runs.csv"),
        "{err}"
    );
    // Rerun as it was (--fresh: the killed run's partial file is of other runs): the folder
    // is whole again.
    fs::write(&exp, text).unwrap();
    harness()
        .args(["run", "--quiet", "--fresh", "--out"])
        .arg(&out_dir)
        .arg(&exp)
        .assert()
        .success();
    harness().arg("plot").arg(&out_dir).assert().success();
}

/// A run stopped after it wrote runs.csv and before its end time (made here by taking the end
/// out of a finished run's manifest and moving its start before runs.csv was written): `plot`
/// refuses it as unfinished, and says runs.csv is that run's, not an earlier one's.
#[test]
fn plot_of_a_run_stopped_after_its_runs_csv_says_it_wrote_it() {
    let (_tmp, out_dir, _) = run_text(
        "name = \"late\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n",
    );
    let path = out_dir.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    m["started"] = "2001-01-01T00:00:00Z".into();
    m["finished"] = serde_json::Value::Null;
    m["runs"] = serde_json::Value::Null;
    fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let out = harness().arg("plot").arg(&out_dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("(started 2001-01-01T00:00:00Z) did not finish, though it wrote runs.csv"),
        "{err}"
    );
}

/// A committed results folder's runs.csv, experiment.toml and manifest.json, copied to a
/// temporary folder and plotted there: (the temporary folder, the results folder in it).
fn plot_copy(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("results")
        .join(name);
    let dir = tmp.path().join(name);
    fs::create_dir(&dir).unwrap();
    for f in ["runs.csv", "experiment.toml", "manifest.json"] {
        fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    harness().arg("plot").arg(&dir).assert().success();
    (tmp, dir)
}

/// What plot writes depends on the set of runs, not the order of runs.csv's rows: a mean of
/// floats (nodes_per_second) is summed in run-key order.
#[test]
fn plot_does_not_depend_on_the_order_of_rows() {
    let (_tmp, dir) = plot_copy("nim");
    let written = |f: &str| fs::read(dir.join(f)).unwrap();
    let before = [written("summary.csv"), written("report.md")];
    let csv = fs::read_to_string(dir.join("runs.csv")).unwrap();
    let (head, rest) = csv.split_once('\n').unwrap();
    let reversed: String = rest.lines().rev().map(|l| format!("{l}\n")).collect();
    fs::write(dir.join("runs.csv"), format!("{head}\n{reversed}")).unwrap();
    harness().arg("plot").arg(&dir).assert().success();
    assert!(written("summary.csv") == before[0], "summary.csv changed");
    assert!(written("report.md") == before[1], "report.md changed");
}

/// The rows of report.md's table whose header line starts with `header`, cells trimmed.
fn table_rows<'a>(md: &'a str, header: &str) -> Vec<Vec<&'a str>> {
    md.lines()
        .skip_while(|l| !l.starts_with(header))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect()
}

/// tt-bounds charts what it measures: the percent of runs whose root value is wrong, 0 for
/// correct bounds and above 0 for naive-exact, in a chart and in report.md's table.
#[test]
fn tt_bounds_charts_its_wrong_values() {
    let (_tmp, dir) = plot_copy("tt-bounds");
    for kind in ["value-wrong", "move-wrong"] {
        assert!(dir
            .join(format!("charts/{kind}-scale-win-loss.png"))
            .exists());
    }
    let md = fs::read_to_string(dir.join("report.md")).unwrap();
    let rows = table_rows(&md, "| ordering, variant | tt_bounds | % value wrong mean");
    assert_eq!(rows.len(), 8, "{md}");
    for r in &rows {
        let pct: f64 = r[3].parse().unwrap();
        match r[2] {
            "correct" => assert_eq!(pct, 0.0, "{r:?}"),
            "naive-exact" => assert!(pct > 0.0, "{r:?}"),
            other => panic!("{other}"),
        }
    }
}

/// The fitted b comes from minimax runs without iterative deepening: those with it add up the
/// trees of depths 1..d (tic-tac-toe from the empty board to depth 4: 1 + 9 + 72 + 504 + 3,024
/// = 3,610 nodes without, 3,610 + 505 + 82 + 10 + 1 = 4,288 with), so every group's full tree
/// is 3,610 nodes and plain minimax reads exactly 1 of it.
#[test]
fn iterative_minimax_is_left_out_of_the_fitted_branching_factor() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"idfit\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = 4\niterative = [false, true]\n",
    );
    let mut rdr = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let h = rdr.headers().unwrap().clone();
    let col = |c: &str| h.iter().position(|x| x == c).unwrap();
    let mut rows = Vec::new();
    for r in rdr.records() {
        let r = r.unwrap();
        rows.push((
            r[col("algorithm")].to_string(),
            r[col("iterative")].to_string(),
            r[col("nodes_mean")].to_string(),
            r[col("full_tree_nodes")].to_string(),
            r[col("theory_nodes_over_full")].to_string(),
        ));
    }
    rows.sort();
    let minimax: Vec<_> = rows.iter().filter(|r| r.0 == "minimax").collect();
    assert_eq!(minimax[0].1, "false");
    assert_eq!((&*minimax[0].2, &*minimax[0].4), ("3610", "1"));
    assert_eq!((&*minimax[1].1, &*minimax[1].2), ("true", "4288"));
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.3 == "3610"), "{rows:?}");
}

/// A ratio-to-minimal chart asked for on charts pooled over depth is not drawn, and report.md
/// says why: pooling, not a missing branching factor.
#[test]
fn pooled_depth_names_why_ratio_to_minimal_is_missing() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"pl\"\nseed = 1\n[game]\nkind = \"tictactoe\"\npositions = [\"4\", \"0,4\"]\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = \"full\"\n[report]\nx = \"ordering\"\npool = \"depth\"\ncharts = [\"nodes\", \"ratio-to-minimal\"]\n",
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("`ratio-to-minimal`: the charts pool over depth"),
        "{md}"
    );
}

/// `[report] point`, `whiskers` and `labels` reach the charts: geometric means in report.md's
/// table, a renamed series, and the table keeps min and max without whiskers.
#[test]
fn report_point_whiskers_and_labels() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"pw\"\nseed = 1\n[game]\nkind = \"tictactoe\"\npositions = [\"4\", \"0,4\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 3\nordering = [\"natural\", \"static\"]\n[report]\npoint = \"geomean\"\nwhiskers = \"none\"\nlabels = { static = \"by centre and corners\" }\n",
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("| ordering | depth | nodes geomean | min | max |"),
        "{md}"
    );
    assert!(md.contains("| by centre and corners | 3 |"), "{md}");
    assert!(md.contains("no whiskers"), "{md}");
    // The geometric mean of the two positions' node counts, and their min and max.
    let runs = fs::read_to_string(out.join("runs.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(runs.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let (o, n) = (
        h.iter().position(|c| c == "ordering").unwrap(),
        h.iter().position(|c| c == "nodes").unwrap(),
    );
    let nodes: Vec<f64> = rdr
        .records()
        .map(|r| r.unwrap())
        .filter(|r| &r[o] == "static")
        .map(|r| r[n].parse().unwrap())
        .collect();
    let g = (nodes[0] * nodes[1]).sqrt();
    let row = md
        .lines()
        .find(|l| l.starts_with("| by centre and corners | 3 |"))
        .unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let shown: f64 = cells[3].parse().unwrap();
    assert!((shown - g).abs() < 1e-3 * g, "{row} vs {g}");
    let (lo, hi) = (nodes[0].min(nodes[1]), nodes[0].max(nodes[1]));
    assert_eq!(
        (cells[4], cells[5]),
        (lo.to_string().as_str(), hi.to_string().as_str())
    );
}

/// Categories, series and facets are drawn in the order the experiment file lists their
/// values (a baseline listed first comes first), not sorted by name.
#[test]
fn charts_follow_the_order_the_file_lists() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"order\"\nseed = 1\n[game]\nkind = \"tictactoe\"\nscale = [\"win-loss\", \"depth-penalty\"]\npositions = [\"4\"]\n[search]\nalgorithm = \"alphabeta\"\nvariant = [\"fail-soft\", \"fail-hard\"]\ndepth = 2\nordering = [\"static\", \"natural\", \"killer\"]\n[report]\nx = \"ordering\"\nseries = \"variant\"\nfacet = \"scale\"\ncharts = [\"nodes\"]\n",
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let at = |needle: &str| {
        md.find(needle)
            .unwrap_or_else(|| panic!("{needle} missing:\n{md}"))
    };
    // Facets: win-loss, then depth-penalty.
    assert!(at("charts/nodes-scale-win-loss.png") < at("charts/nodes-scale-depth-penalty.png"));
    // In each facet's table: the series fail-soft before fail-hard, and within each the
    // orderings static, natural, killer.
    let table =
        &md[at("charts/nodes-scale-win-loss.png")..at("charts/nodes-scale-depth-penalty.png")];
    let rows: Vec<(String, String)> = table
        .lines()
        .filter(|l| l.starts_with("| fail-"))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            (c[1].to_string(), c[2].to_string())
        })
        .collect();
    let want: Vec<(String, String)> = ["fail-soft", "fail-hard"]
        .iter()
        .flat_map(|v| {
            ["static", "natural", "killer"]
                .iter()
                .map(move |o| (v.to_string(), o.to_string()))
        })
        .collect();
    assert_eq!(rows, want, "{table}");
}

/// Runs that differ only in the search technique draw the same random numbers: fail-hard and
/// fail-soft alpha-beta shuffle alike under `random` ordering and enter the same nodes on every
/// tree, depth and repetition, while repetitions reshuffle.
#[test]
fn techniques_share_their_random_numbers() {
    let records = common::run_records(
        "name = \"crn\"\nseed = 7\n[game]\nkind = \"uniform\"\nbranching = 3\nheight = 6\ntrees = 4\n[search]\nalgorithm = \"alphabeta\"\nvariant = [\"fail-hard\", \"fail-soft\"]\ndepth = [3, 6]\nordering = \"random\"\nrepetitions = 3\n",
    );
    assert_eq!(records.len(), 4 * 2 * 2 * 3);
    let mut by_key: std::collections::BTreeMap<(usize, u32, u32), Vec<(u64, u64)>> =
        Default::default();
    for r in &records {
        by_key
            .entry((r.run.position_id, r.depth, r.run.rep))
            .or_default()
            .push((r.run.seed, r.counters.nodes));
    }
    let mut seeds = std::collections::BTreeSet::new();
    for (k, v) in &by_key {
        assert_eq!(v.len(), 2, "{k:?}");
        assert_eq!(
            v[0], v[1],
            "fail-hard and fail-soft at {k:?}: (seed, nodes)"
        );
        seeds.insert((k.0, k.2, v[0].0));
    }
    // One seed per tree and repetition (shared by both depths), all different.
    let distinct: std::collections::BTreeSet<u64> = seeds.iter().map(|s| s.2).collect();
    assert_eq!(seeds.len(), 4 * 3);
    assert_eq!(distinct.len(), 4 * 3);
    // The repetitions do reshuffle: some tree's node counts differ between them.
    let differs = by_key
        .iter()
        .any(|((p, d, rep), v)| *rep > 0 && by_key[&(*p, *d, 0)][0].1 != v[0].1);
    assert!(differs, "repetitions gave the same node counts everywhere");
}

/// A `[report] labels` key that names no series is an error (exit 2, naming the key and the
/// series there are, at its line in the results folder's experiment.toml), after the runs:
/// runs.csv is kept for `harness plot`.
#[test]
fn a_label_for_no_series_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    let text = "name = \"lab\"\nseed = 1\n[game]\nkind = \"tictactoe\"\npositions = [\"4\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\nordering = [\"natural\", \"static\"]\n[report]\nlabels = { statc = \"by centre\" }\n";
    // Known before the search: the error is at the user's file, and nothing is searched.
    fs::write(&exp, text).unwrap();
    let out = tmp.path().join("out");
    let o = run_exp(&exp, &out).code(2);
    let err = String::from_utf8_lossy(&o.get_output().stderr).to_string();
    for want in [
        "exp.toml:11:12",
        "`statc` names no series",
        "allowed: `natural`, `static`",
    ] {
        assert!(err.contains(want), "{want:?} missing: {err}");
    }
    assert!(!out.join("runs.csv").exists(), "nothing searched");
    // With depth = "full" too: the depths are resolved against the positions before the
    // search, as the search resolves them.
    fs::write(&exp, text.replace("depth = 2", "depth = \"full\"")).unwrap();
    let o = run_exp(&exp, &out).code(2);
    let err = String::from_utf8_lossy(&o.get_output().stderr).to_string();
    for want in ["exp.toml:11:12", "`statc` names no series"] {
        assert!(err.contains(want), "{want:?} missing: {err}");
    }
    assert!(!err.contains("out/experiment.toml"), "{err}");
    assert!(!out.join("runs.csv").exists(), "nothing searched");
}

/// A log x axis over `depth = "full"` takes the depths the search will use (6 plies from
/// `x.o.x....`, the height of a uniform tree), not a placeholder: it is drawn, and a depth
/// that is really 0 (a finished position) is refused before the search.
#[test]
fn a_log_axis_over_full_depths_sees_the_resolved_depths() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    let ttt = "name = \"lg\"\n[game]\nkind = \"tictactoe\"\npositions = [\"x.o.x....\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = [2, \"full\"]\nordering = \"natural\"\n[report]\nx_scale = \"log\"\n";
    let uniform = "name = \"lg\"\n[game]\nkind = \"uniform\"\nbranching = 2\nheight = 3\n[search]\nalgorithm = \"alphabeta\"\ndepth = \"full\"\nordering = \"natural\"\n[report]\nx_scale = \"log\"\n";
    for (text, depths) in [(ttt, &["2", "6"][..]), (uniform, &["3"][..])] {
        let out = tmp.path().join("out");
        fs::write(&exp, text).unwrap();
        run_exp(&exp, &out).code(0);
        let csv = fs::read_to_string(out.join("runs.csv")).unwrap();
        let mut rdr = csv::Reader::from_reader(csv.as_bytes());
        let di = rdr
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == "depth")
            .unwrap();
        let mut got: Vec<String> = rdr.records().map(|r| r.unwrap()[di].to_string()).collect();
        got.sort();
        assert_eq!(got, depths);
        assert!(out.join("charts/nodes.svg").exists());
        fs::remove_dir_all(&out).unwrap();
    }
    // From a won board "full" is 0 plies, which no log axis holds: refused up front.
    let won = ttt.replace("x.o.x....", "xxxoo....");
    fs::write(&exp, won).unwrap();
    let out = tmp.path().join("out");
    let o = run_exp(&exp, &out).code(2);
    let err = String::from_utf8_lossy(&o.get_output().stderr).to_string();
    assert!(
        err.contains("exp.toml:10:1: [report] x_scale = \"log\": x = `depth` has the value `0`"),
        "{err}"
    );
    assert!(!out.join("runs.csv").exists(), "nothing searched");
}

/// Two series of one chart under one legend text are an error at the label that made them
/// alike: two labels with one text, or a label that is another series' own name.
#[test]
fn two_series_drawn_alike_are_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    let base = "name = \"lab\"\nseed = 1\n[game]\nkind = \"tictactoe\"\npositions = [\"4\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\nordering = [\"natural\", \"static\", \"random\"]\n[report]\n";
    let out = tmp.path().join("out");
    for (labels, want) in [
        (
            "labels = { natural = \"plain\", static = \"plain\" }",
            "exp.toml:11:31: [report] labels: `natural` is labelled \"plain\" and `static` is labelled \"plain\", so the legend could not tell them apart",
        ),
        (
            "labels = { natural = \" static \" }",
            "exp.toml:11:12: [report] labels: `natural` is labelled \"static\" and `static` is drawn as \"static\"",
        ),
        (
            "labels = { natural = \" \" }",
            "exp.toml:11:22: [report] labels: `natural` is labelled with no text; allowed: a text to draw in the legend",
        ),
        (
            "labels = { natural = \"random\" }",
            "exp.toml:11:12: [report] labels: `natural` is labelled \"random\" and `random` is drawn as \"random\"",
        ),
    ] {
        fs::write(&exp, format!("{base}{labels}\n")).unwrap();
        let o = run_exp(&exp, &out).code(2);
        let err = String::from_utf8_lossy(&o.get_output().stderr).to_string();
        assert!(err.contains(want), "{want:?} missing: {err}");
        assert!(!out.join("runs.csv").exists(), "nothing searched");
    }
    // A blank label needs no series known: refused before the search also with depth
    // "full", whose series the search resolves.
    let full = base.replace("depth = 2", "depth = \"full\"");
    fs::write(&exp, format!("{full}labels = {{ natural = \"\" }}\n")).unwrap();
    let o = run_exp(&exp, &out).code(2);
    let err = String::from_utf8_lossy(&o.get_output().stderr).to_string();
    assert!(
        err.contains("exp.toml:11:22: [report] labels: `natural` is labelled with no text"),
        "{err}"
    );
    assert!(!out.join("runs.csv").exists(), "nothing searched");
    // Swapping two names is no clash: each series keeps a text of its own.
    fs::write(
        &exp,
        format!("{base}labels = {{ natural = \"static\", static = \"natural\" }}\n"),
    )
    .unwrap();
    run_exp(&exp, &out).code(0);
}

/// The bm-hit chart plots, per group, the percent of finished searches whose move is the EPD
/// best move: report.md's table equals the share counted from runs.csv, with budget-stopped
/// searches (no move) left out (chess-ordering's natural order at depth 5 has one).
#[test]
fn bm_hit_charts_the_share_of_best_moves_found() {
    let (_tmp, dir) = plot_copy("chess-ordering");
    assert!(dir.join("charts/bm-hit.png").exists());
    // (ordering, depth) -> (best moves found, finished searches, stopped searches).
    let mut counted: std::collections::BTreeMap<(String, String), (u32, u32, u32)> =
        Default::default();
    let mut rdr = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    let h = rdr.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let e = counted
            .entry((rec[col("ordering")].into(), rec[col("depth")].into()))
            .or_default();
        match &rec[col("bm_hit")] {
            "true" => (e.0, e.1) = (e.0 + 1, e.1 + 1),
            "false" => e.1 += 1,
            "" => e.2 += 1,
            other => panic!("bm_hit {other}"),
        }
    }
    assert_eq!(counted[&("natural".into(), "5".into())].2, 1);
    let md = fs::read_to_string(dir.join("report.md")).unwrap();
    let rows = table_rows(&md, "| ordering | depth | % best move mean");
    assert_eq!(rows.len(), counted.len(), "{md}");
    for r in &rows {
        let (hit, finished, stopped) = counted[&(r[1].to_string(), r[2].to_string())];
        let pct: f64 = r[3].parse().unwrap();
        let want = 100.0 * hit as f64 / finished as f64;
        // report.md writes the share to four significant digits.
        assert!((pct - want).abs() <= 5e-4 * want, "{r:?}: {pct} vs {want}");
        // The runs the share counts, and the group's runs.
        assert_eq!(r[4], finished.to_string(), "{r:?}");
        assert_eq!(r[5], (finished + stopped).to_string(), "{r:?}");
    }
    assert!(md.contains("A share counts only the runs with a value in `bm_hit` (719 of the points' 720 runs here)"), "{md}");
}

/// A group whose every search a budget stopped has no share: report.md names it.
#[test]
fn bm_hit_names_groups_with_no_finished_search() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"st\"\n[game]\nkind = \"chess\"\npositions = ['1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";']\n[search]\nalgorithm = \"alphabeta\"\ndepth = [1, 3]\nmax_nodes = 200\n[report]\ncharts = [\"bm-hit\"]\n",
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("No point, every search stopped by a budget: all runs at depth = 3."),
        "{md}"
    );
}

/// runs.csv has `bm_hit` whenever a position carries `bm` or `am`, also when no search chose
/// a move (the game over at the root, or every search stopped by a budget): empty there.
#[test]
fn bm_hit_column_stays_when_no_search_chose_a_move() {
    for (position, depth, status) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - bm Kd2;", "1", "ok"),
        (
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+;",
            "3\nmax_nodes = 10",
            "budget",
        ),
    ] {
        let (_tmp, out) = common::harness_run_text(&format!(
            "name = \"bm\"\n[game]\nkind = \"chess\"\npositions = ['{position}']\n[search]\nalgorithm = \"alphabeta\"\ndepth = {depth}\n[report]\ncharts = [\"bm-hit\"]\n"
        ));
        let runs = csv_maps(&out, "runs.csv");
        let cells: Vec<(&str, &str, &str)> = runs
            .iter()
            .map(|r| {
                (
                    r["status"].as_str(),
                    r["best_move"].as_str(),
                    r["bm_hit"].as_str(),
                )
            })
            .collect();
        assert_eq!(cells, [(status, "", "")], "{position}");
    }
}

/// The runs without a table find best moves too: in a table-size chart their reference row
/// in report.md has the columns of the series' rows (runs counted, runs, the interval), not
/// min and max shifted into them.
#[test]
fn bm_hit_reference_row_without_a_table_has_the_share_columns() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"bmt\"\n[game]\nkind = \"chess\"\npositions = ['4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+;', '4k3/8/8/8/8/8/8/R3K3 w Q - bm Ra8+;']\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n[search.tt]\nenabled = [false, true]\nentries = [256, 4096]\n[report]\nx = \"tt_entries\"\ncharts = [\"bm-hit\"]\n",
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("| 256 |") || l.contains("(reference)"))
        .collect();
    assert_eq!(rows.len(), 2, "{md}");
    // `| series | x | % | counted | runs | interval |`: the same cells after the label and x.
    let tail = |l: &str| l.split(" | ").skip(2).collect::<Vec<_>>().join(" | ");
    assert!(
        rows[1].starts_with("| no table (reference) | any size | "),
        "{md}"
    );
    assert_eq!(tail(rows[0]), tail(rows[1]), "{md}");
    // Two positions, each searched once without a table: 2 runs counted of 2.
    let cells: Vec<String> = tail(rows[1]).split(" | ").map(str::to_string).collect();
    assert_eq!((cells[1].as_str(), cells[2].as_str()), ("2", "2"), "{md}");
    assert!(cells[3].contains('–'), "{md}");
}

/// A bm-hit chart asked for where no position has a best-move annotation is left out, and
/// report.md says why.
#[test]
fn bm_hit_without_annotations_names_why_it_is_missing() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"nb\"\n[game]\nkind = \"tictactoe\"\npositions = [\"4\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = [1, 2]\n[report]\ncharts = [\"nodes\", \"bm-hit\"]\n",
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("`bm-hit`: no run has a bm_hit (finished searches that chose a move, of positions with an EPD `bm` or `am`, have one)"),
        "{md}"
    );
    assert!(!out.join("charts/bm-hit.png").exists());
}

/// `file` (runs.csv or summary.csv) in `dir` as maps from column to value, one per row.
fn csv_maps(dir: &Path, file: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut rdr = csv::Reader::from_path(dir.join(file)).unwrap();
    let header = rdr.headers().unwrap().clone();
    rdr.records()
        .map(|r| {
            header
                .iter()
                .zip(r.unwrap().iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Five findings of a statistician's audit, each against the number it should be.
#[test]
fn derived_numbers_match_their_definitions_at_the_edges() {
    // The summary's theory uses the depth the tree has (theory_depth), not the depth asked:
    // a tree of height 2 searched "to depth 4" is the full tree of depth 2.
    let (_t, out) = common::harness_run_text(
        "name = \"r1\"\n[game]\nkind = \"uniform\"\nbranching = 3\nheight = 2\n[search]\nalgorithm = [\"negamax\", \"alphabeta\"]\ndepth = [2, 4]\nordering = \"oracle-best\"\n",
    );
    for g in csv_maps(&out, "summary.csv") {
        let want = if g["algorithm"] == "negamax" {
            "1"
        } else {
            "0.692308"
        };
        assert_eq!(g["theory_nodes_over_full"], want, "{g:?}");
    }
    // A ratio too small for 6 decimals keeps 7 significant digits, and so does its mean.
    let (_t, out) = common::harness_run_text(
        "name = \"r3\"\n[game]\nkind = \"nim\"\npositions = [\"3,4,5\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 12\nordering = \"static\"\n[search.tt]\nentries = 4096\n",
    );
    let run = &csv_maps(&out, "runs.csv")[0];
    let full: f64 = run["full_nodes"].parse().unwrap();
    let nodes: f64 = run["nodes"].parse().unwrap();
    let ratio: f64 = run["nodes_over_full"].parse().unwrap();
    assert!(run["nodes_over_full"].contains("e-"), "{run:?}");
    assert!((ratio / (nodes / full) - 1.0).abs() < 1e-6, "{run:?}");
    let g = &csv_maps(&out, "summary.csv")[0];
    assert_eq!(g["nodes_over_full_mean"], run["nodes_over_full"]);
    // theory_depth is written for a finished position too (0), not only where b exists.
    let (_t, out) = common::harness_run_text(
        "name = \"r2\"\n[game]\nkind = \"tictactoe\"\npositions = [\"xxxoo....\", \"x.o.x....\"]\n[search]\nalgorithm = \"minimax\"\ndepth = 1\n",
    );
    let depths: Vec<String> = csv_maps(&out, "runs.csv")
        .iter()
        .map(|r| r["theory_depth"].clone())
        .collect();
    assert_eq!(depths, ["0", "1"]);
    // A real game searched to its end has other positions one ply shallower: no growth.
    let (_t, out) = common::harness_run_text(
        "name = \"r5\"\n[game]\nkind = \"tictactoe\"\npositions = [\"4,0\", \"x.o.x....\"]\n[search]\nalgorithm = \"minimax\"\ndepth = \"full\"\n",
    );
    for g in csv_maps(&out, "summary.csv") {
        assert_eq!(
            (g["growth"].as_str(), g["growth_2"].as_str()),
            ("", ""),
            "{g:?}"
        );
    }
    // The ratio-to-minimal table's min and max are the group's, not its mean three times.
    let (_t, out) = common::harness_run_text(
        "name = \"r4\"\n[game]\nkind = \"tictactoe\"\npositions = [\"start\", \"4,0\"]\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = [2, 3]\n[report]\ncharts = [\"ratio-to-minimal\"]\n",
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let rows = table_rows(&md, "| algorithm");
    assert!(!rows.is_empty(), "{md}");
    let minimax = rows
        .iter()
        .find(|r| r[1] == "minimax" && r[2] == "3")
        .unwrap();
    let (mean, lo, hi): (f64, f64, f64) = (
        minimax[3].parse().unwrap(),
        minimax[4].parse().unwrap(),
        minimax[5].parse().unwrap(),
    );
    assert!(lo < mean && mean < hi, "{minimax:?}");
    // Drawn as bars: one filled face a point (two algorithms at two depths) and one a legend
    // entry.
    let svg = std::fs::read_to_string(out.join("charts/ratio-to-minimal.svg")).unwrap();
    let bars = svg
        .split("<rect")
        .skip(1)
        .filter(|r| r.split('>').next().unwrap().contains("opacity=\"0.35\""))
        .count();
    assert_eq!(bars, 6, "{svg}");
}

/// Sets column `name` of data row `row` (0-based) of `dir/runs.csv` to `value`.
fn set_cell(dir: &Path, row: usize, name: &str, value: &str) {
    let path = dir.join("runs.csv");
    let mut rdr = csv::Reader::from_path(&path).unwrap();
    let header = rdr.headers().unwrap().clone();
    let c = header.iter().position(|h| h == name).unwrap();
    let mut rows: Vec<Vec<String>> = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    rows[row][c] = value.to_string();
    let mut w = csv::Writer::from_path(&path).unwrap();
    w.write_record(&header).unwrap();
    for r in rows {
        w.write_record(r).unwrap();
    }
    w.flush().unwrap();
}

/// One bad cell in any column harness writes is refused at its line, whatever the column:
/// a word in `ebf` or `value_wrong` would otherwise turn that counter into a parameter,
/// splitting every group in two and dropping the charts that ask for it.
#[test]
fn plot_refuses_a_bad_cell_in_any_column_harness_writes() {
    let (_tmp, dir) = plot_copy("tt-bounds");
    let csv = fs::read(dir.join("runs.csv")).unwrap();
    for (name, bad, kind) in [
        ("ebf", "NaN", "a finite number from 0 or empty"),
        ("ebf", "inf", "a finite number from 0 or empty"),
        ("leaf_ebf", "-1.5", "a finite number from 0 or empty"),
        ("value_wrong", "yes", "0, 1 or empty"),
        ("qnodes", "-5", "a count (a whole number from 0) or empty"),
        ("tt_hits", "abc", "a count (a whole number from 0) or empty"),
        ("interior", "-7", "a count (a whole number from 0) or empty"),
        ("depth", "-3", "a count (a whole number from 0)"),
        ("reference_value", "1.5", "a whole number or empty"),
        ("nodes", "+5", "a count (a whole number from 0)"),
        ("reference_value", "+1", "a whole number or empty"),
    ] {
        fs::write(dir.join("runs.csv"), &csv).unwrap();
        set_cell(&dir, 3, name, bad);
        let out = harness().arg("plot").arg(&dir).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            err.contains(&format!(
                "runs.csv:5: column `{name}` holds `{bad}`, not {kind}"
            )),
            "{name}={bad}: {err}"
        );
    }
}

/// A runs.csv whose rows are not the runs manifest.json says the run finished, or a
/// `branching` that is no b, is refused; so is a folder a run is writing into.
#[test]
fn plot_refuses_a_run_count_a_branching_and_a_busy_folder() {
    let (_tmp, dir) = plot_copy("ordering-quality");
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    let rows = fs::read_to_string(dir.join("runs.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    let wrong = manifest.replace(&format!("\"runs\": {rows}"), "\"runs\": 3");
    assert_ne!(wrong, manifest);
    fs::write(dir.join("manifest.json"), wrong).unwrap();
    let out = harness().arg("plot").arg(&dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains(&format!(
            "runs.csv has {rows} rows, but manifest.json says the run finished 3 runs"
        )),
        "{err}"
    );
    fs::write(dir.join("manifest.json"), &manifest).unwrap();
    let csv = fs::read_to_string(dir.join("runs.csv")).unwrap();
    set_cell(&dir, 0, "branching", "-5");
    let out = harness().arg("plot").arg(&dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("column `branching` holds `-5`"), "{err}");
    // A budget row with a value; a nameless column.
    fs::write(dir.join("runs.csv"), &csv).unwrap();
    set_cell(&dir, 0, "status", "budget");
    let out = harness().arg("plot").arg(&dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("runs.csv:2: a run stopped by a budget holds"),
        "{err}"
    );
    // A finished run with no value, and a position_id that is no index.
    for (column, cell, needle) in [
        (
            "value",
            "",
            "runs.csv:2: column `value` is empty in a run of status `ok`",
        ),
        (
            "position_id",
            "abc",
            "runs.csv:2: column `position_id` holds `abc`, not a count",
        ),
        (
            "position_id",
            "-1",
            "runs.csv:2: column `position_id` holds `-1`, not a count",
        ),
    ] {
        fs::write(dir.join("runs.csv"), &csv).unwrap();
        set_cell(&dir, 0, column, cell);
        let out = harness().arg("plot").arg(&dir).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(err.contains(needle), "{err}");
    }
    let (head, rest) = csv.split_once('\n').unwrap();
    let rows: String = rest.lines().map(|l| format!("{l},1\n")).collect();
    fs::write(dir.join("runs.csv"), format!("{head},\n{rows}")).unwrap();
    let out = harness().arg("plot").arg(&dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("has no name"), "{err}");
    fs::write(dir.join("runs.csv"), &csv).unwrap();
    // A run's lock on the folder (as `harness run` holds it while it writes; Unix locks
    // folders).
    #[cfg(unix)]
    {
        let (_tmp2, dir) = plot_copy("nim");
        let lock = fs::File::open(&dir).unwrap();
        lock.try_lock().unwrap();
        let out = harness().arg("plot").arg(&dir).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            err.contains("a `harness run` or another `harness plot` is writing into this folder"),
            "{err}"
        );
        drop(lock);
        harness().arg("plot").arg(&dir).assert().success();
    }
}

/// A manifest.json of another experiment than runs.csv's is refused, as an experiment.toml
/// is: report.md would show the other experiment's file, hash and command line.
#[test]
fn plot_refuses_a_manifest_of_another_experiment() {
    let (_tmp, dir) = plot_copy("nim");
    fs::remove_file(dir.join("experiment.toml")).unwrap();
    harness().arg("plot").arg(&dir).assert().success();
    let other = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tictactoe/manifest.json");
    fs::copy(other, dir.join("manifest.json")).unwrap();
    let out = harness().arg("plot").arg(&dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("runs.csv holds experiment `nim`")
            && err.contains("manifest.json is of experiment `tictactoe`"),
        "{err}"
    );
}

/// A folder in charts/ named like a chart stops `run` and `plot` before anything is written
/// or removed (exit 2, naming it); a temporary a killed run left in charts/ is cleared.
#[test]
fn a_folder_named_like_a_chart_is_refused_and_stale_temporaries_go() {
    let (_tmp, dir) = plot_copy("nim");
    let before = files(&dir);
    let blocker = dir.join("charts/zzz.png");
    fs::create_dir(&blocker).unwrap();
    let out = harness().arg("plot").arg(&dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("zzz.png: is a folder, not a file"), "{err}");
    let exp = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/nim.toml");
    let out = run_exp(&exp, &dir).code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("zzz.png: is a folder, not a file"), "{err}");
    assert_eq!(files(&dir), before, "nothing written or removed");
    fs::remove_dir(&blocker).unwrap();
    fs::write(dir.join("charts/gone.svg.tmp"), "half a chart").unwrap();
    harness().arg("plot").arg(&dir).assert().success();
    assert!(!dir.join("charts/gone.svg.tmp").exists());
    assert_eq!(files(&dir), before);
}

/// A tree too large for f64 (Nim's 63,63,62 to its end: d = 188, b ≈ 75, so b^d ≈ 10^352)
/// leaves its full-tree sizes and the ratios over them empty: runs.csv stays a file that
/// `harness plot` reads (`inf` there was refused as no number, and the run failed).
#[test]
fn tree_sizes_past_f64_are_empty_and_the_run_plots() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"huge\"\n[game]\nkind = \"nim\"\npositions = [\"63,63,62\"]\n[search]\n\
         algorithm = \"alphabeta\"\ndepth = \"full\"\nordering = \"tt+static\"\n\
         [search.tt]\nenabled = true\nmib = 8\n",
    );
    let row = csv_maps(&out, "runs.csv").remove(0);
    let get = |name: &str| row[name].clone();
    assert_eq!(get("theory_depth"), "188");
    for name in [
        "full_leaves",
        "full_nodes",
        "leaves_over_full",
        "nodes_over_full",
    ] {
        assert_eq!(get(name), "", "{name}");
    }
    // The minimal tree, about b^(d/2) ≈ 10^175, still fits, and so does the ratio over it.
    let minimal: f64 = get("minimal_leaves").parse().unwrap();
    assert!((1e150..1e200).contains(&minimal), "{minimal}");
    assert!(get("leaves_over_minimal").parse::<f64>().unwrap() > 0.0);
    harness().arg("plot").arg(&out).assert().success();
    // A budget-stopped search of eight full heaps: d = 504, and even the minimal tree
    // overflows.
    let (_tmp, out) = common::harness_run_text(
        "name = \"huger\"\n[game]\nkind = \"nim\"\npositions = [\"63,63,63,63,63,63,63,63\"]\n\
         [search]\nalgorithm = \"minimax\"\ndepth = \"full\"\nmax_nodes = 1000\n",
    );
    let text = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert!(!text.contains("inf"), "{text}");
    harness().arg("plot").arg(&out).assert().success();
}

/// manifest.json records the commit the binary was built from (in a git checkout, as CI's
/// clone is), which report.md shows as "harness built from".
#[test]
fn the_manifest_names_the_build_commit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    // build.rs's rule: the sources are the top of a git checkout (a clone or a worktree).
    let top =
        git(&["rev-parse", "--show-toplevel"]).and_then(|t| Path::new(&t).canonicalize().ok());
    if top != root.canonicalize().ok() {
        return; // Not built from a git checkout of its own: nothing to record.
    }
    let head = git(&["rev-parse", "HEAD"]).unwrap();
    let (_tmp, out) = common::harness_run_text(
        "name = \"bc\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"minimax\"\ndepth = 1\n",
    );
    let m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let built = m["build_commit"].as_str().unwrap_or_default();
    assert!(built.starts_with(&head), "{built} vs HEAD {head}");
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains(&format!("| harness built from | {built} |")),
        "{md}"
    );
}

/// A manifest whose `started` or `finished` is not a time harness writes (a hand edit: a
/// word, a month 13, a 30 February), whose `finished` is before its `started`, or whose
/// `resumed` passes its `runs`, or that has its end time without its `runs`, is refused by
/// `plot`, naming the key.
#[test]
fn plot_refuses_a_manifest_time_harness_did_not_write() {
    let not_a_time =
        |key: &str, bad: &str| format!("`{key}` is `{bad}`, not a time harness writes");
    for (key, bad, expect) in [
        (
            "finished",
            "yesterday".into(),
            not_a_time("finished", "yesterday"),
        ),
        ("finished", "".into(), not_a_time("finished", "")),
        (
            "started",
            "2026-13-01T00:00:00Z".into(),
            not_a_time("started", "2026-13-01T00:00:00Z"),
        ),
        (
            "started",
            "2026-02-30T00:00:00Z".into(),
            not_a_time("started", "2026-02-30T00:00:00Z"),
        ),
        (
            "finished",
            "2001-01-01T00:00:00Z".into(),
            "`finished` (2001-01-01T00:00:00Z) is before `started`".to_string(),
        ),
        (
            "resumed",
            serde_json::json!(1000),
            "`resumed` is 1000, more than the 1 runs".to_string(),
        ),
        (
            "runs",
            serde_json::Value::Null,
            "has `finished` but no `runs`".to_string(),
        ),
    ] {
        let bad: serde_json::Value = bad;
        let tmp = tempfile::tempdir().unwrap();
        let exp = tmp.path().join("exp.toml");
        fs::write(&exp, "name = \"t\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n").unwrap();
        let out_dir = tmp.path().join("out");
        run_exp(&exp, &out_dir).success();
        harness().arg("plot").arg(&out_dir).assert().success();
        let mf = out_dir.join("manifest.json");
        let text = fs::read_to_string(&mf).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v[key] = bad;
        fs::write(&mf, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        let out = harness().arg("plot").arg(&out_dir).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(err.contains(&expect), "{err}");
    }
}

/// report.md takes its environment from manifest.json and its description from the folder's
/// experiment.toml, neither written by `harness plot`: a control character in the one is
/// written as its escape (a terminal showing report.md would act on ESC or CR), and the other
/// is refused as `harness run` refuses it, at the text.
#[test]
fn plot_keeps_control_characters_from_the_manifest_and_description_out_of_report_md() {
    let (_tmp, out_dir, _) = run_text(
        "name = \"t\"\ndescription = \"plain\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n",
    );
    let mf = out_dir.join("manifest.json");
    let mut v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&mf).unwrap()).unwrap();
    v["cpu"] = "AMD\u{1b}[31m EPYC\r\u{7}\u{202e}".into();
    v["command_line"] = serde_json::json!(["harness", "run", "x\u{1b}y.toml"]);
    fs::write(&mf, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    harness().arg("plot").arg(&out_dir).assert().success();
    let md = fs::read_to_string(out_dir.join("report.md")).unwrap();
    assert!(
        !md.chars()
            .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
        "{md:?}"
    );
    assert!(
        md.contains("| CPU | AMD\\u{1b}[31m EPYC\\r\\u{7}\\u{202e} |"),
        "{md}"
    );
    assert!(md.contains("`harness run x\\u{1b}y.toml`"), "{md}");
    let exp = out_dir.join("experiment.toml");
    let text = fs::read_to_string(&exp).unwrap();
    fs::write(&exp, text.replace("\"plain\"", "\"pl\\u001bain\"")).unwrap();
    let before = fs::read(out_dir.join("report.md")).unwrap();
    let out = harness().arg("plot").arg(&out_dir).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("experiment.toml:2:")
            && err.contains("description: holds the control character U+001B"),
        "{err}"
    );
    assert_eq!(fs::read(out_dir.join("report.md")).unwrap(), before);
}

/// The folder's experiment.toml is report.md's configuration of runs.csv's runs: edited in
/// `[report]`, `description` or comments it plots; edited in what was searched (the seed, a
/// depth) it is refused, since the report would show another experiment's settings over these
/// runs. A manifest without the search hash (of an older build) is not checked.
#[test]
fn plot_refuses_an_experiment_toml_whose_search_settings_changed_after_the_runs() {
    let (_tmp, out_dir, _) = run_text(
        "name = \"t\"\nseed = 7\ndescription = \"a\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = [1, 2]\n",
    );
    let exp = out_dir.join("experiment.toml");
    let original = fs::read_to_string(&exp).unwrap();
    let plot = || harness().arg("plot").arg(&out_dir).assert();
    // Comments, spacing, the description and [report]: the same search.
    fs::write(
        &exp,
        original
            .replace("description = \"a\"", "# note\ndescription = \"b\"")
            .replace("depth = [1, 2]", "depth = [ 1, 2 ]  # two")
            + "[report]\ntitle = \"T\"\n",
    )
    .unwrap();
    plot().success();
    for (from, to, expect) in [
        ("seed = 7", "seed = 8", "its seed is 8, the runs' 7"),
        (
            "depth = [1, 2]",
            "depth = [1, 3]",
            "are not those runs.csv's runs were searched with",
        ),
    ] {
        fs::write(&exp, original.replace(from, to)).unwrap();
        let out = plot().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            err.contains("experiment.toml: its settings outside `[report]` and `description`")
                && err.contains(expect),
            "{err}"
        );
    }
    let mf = out_dir.join("manifest.json");
    let mut v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&mf).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("search_hash").unwrap();
    fs::write(&mf, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    plot().success();
}

/// A table-size column as x is a log axis in every chart, also when some runs have no table:
/// those become the dashed "no table" line, as in nodes-vs-table, not a category `none`.
#[test]
fn a_table_size_x_stays_a_log_axis_with_runs_without_a_table() {
    let (_tmp, out_dir, _) = run_text(
        "name = \"sz\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 4\n[search.tt]\nenabled = [false, true]\nentries = [16, 256, 65536]\n[report]\nx = \"tt_entries\"\ncharts = [\"nodes\", \"ebf\", \"nodes-vs-table\"]\n",
    );
    for chart in ["nodes", "ebf", "nodes-vs-table"] {
        let svg = fs::read_to_string(out_dir.join(format!("charts/{chart}.svg"))).unwrap();
        assert!(
            svg.contains("tt_entries (table entries, log scale)"),
            "{chart}: log x"
        );
        assert!(
            svg.contains("no table") && !svg.contains(">none<"),
            "{chart}"
        );
    }
}

/// Every text of the chart files `PREFIX-*.svg` in `out`'s charts/, but each title's line
/// that names the facet (`facet_col=`), one list per file in file-name order.
fn facet_chart_texts(out: &Path, prefix: &str, facet_col: &str) -> Vec<Vec<String>> {
    let mut names: Vec<String> = fs::read_dir(out.join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!("{prefix}-")) && n.ends_with(".svg"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|name| {
            let svg = fs::read_to_string(out.join("charts").join(name)).unwrap();
            svg.split("<text")
                .skip(1)
                .map(|t| {
                    t.split('>')
                        .nth(1)
                        .unwrap_or("")
                        .split('<')
                        .next()
                        .unwrap_or("")
                        .trim()
                        .to_string()
                })
                .filter(|t| !t.contains(&format!("{facet_col}=")))
                .collect()
        })
        .collect()
}

/// Facets of one chart share their y axis: side by side, their ticks are the same.
#[test]
fn facets_share_the_y_axis() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    fs::write(
        &exp,
        "name = \"f\"\n[game]\nkind = \"nim\"\nmisere = [false, true]\npositions = [\"3,4,5\"]\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\nordering = [\"natural\", \"static\"]\ndepth = \"full\"\n[report]\nx = \"algorithm\"\nfacet = \"misere\"\n",
    )
    .unwrap();
    let out_dir = tmp.path().join("out");
    run_exp(&exp, &out_dir).success();
    let texts = facet_chart_texts(&out_dir, "nodes", "misere");
    assert_eq!(texts.len(), 2);
    assert_eq!(texts[0], texts[1]);
}

/// `[report] facet_y = "own"`: each facet's chart has the y range of its own data. Uniform
/// trees of b = 2 and b = 6, height 4: minimax enters 31 and 1,555 nodes, so the shared axis
/// runs past 1,000 in both files, and the own axes do only for b = 6.
#[test]
fn facets_get_their_own_y_axes_when_asked() {
    let text = |facet_y: &str| {
        format!(
            "name = \"f\"\n[game]\nkind = \"uniform\"\nbranching = [2, 6]\nheight = 4\n[search]\nalgorithm = \"minimax\"\ndepth = [2, 4]\nordering = \"natural\"\n[report]\ncharts = [\"nodes\"]\n{facet_y}"
        )
    };
    let ticks = |texts: &[String]| texts.iter().any(|t| t == "1000" || t == "1k");
    let (_tmp, shared) = common::harness_run_text(&text(""));
    let s = facet_chart_texts(&shared, "nodes", "branching");
    assert_eq!(s.len(), 2);
    assert_eq!(s[0], s[1]);
    assert!(ticks(&s[0]), "{:?}", s[0]);
    let (_tmp, own) = common::harness_run_text(&text("facet_y = \"own\"\n"));
    let o = facet_chart_texts(&own, "nodes", "branching");
    assert_eq!(o.len(), 2);
    assert_ne!(o[0], o[1]);
    assert!(!ticks(&o[0]), "b = 2: {:?}", o[0]);
    assert!(ticks(&o[1]), "b = 6: {:?}", o[1]);
    // The shared layout is the default one.
    let (_tmp, named) = common::harness_run_text(&text("facet_y = \"shared\"\n"));
    assert_eq!(facet_chart_texts(&named, "nodes", "branching"), s);
}

/// summary.csv's rows of the results folder `out`, as column -> value maps.
fn summary_maps(out: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let head = r.headers().unwrap().clone();
    r.records()
        .map(|row| {
            let row = row.unwrap();
            head.iter()
                .zip(row.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Beside uniform trees, another game's groups get the minimax fit as their theory (the
/// `branching` column is empty there); a Connect Four board searched to its end is no uniform
/// tree searched to its height, so boards of other heights give it no growth.
#[test]
fn theory_and_growth_per_game_in_mixed_experiments() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"mixed\"\n[game]\nkind = [\"uniform\", \"tictactoe\"]\nbranching = 3\nheight = 4\npositions = [\"x.o.x....\"]\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = \"full\"\nordering = \"natural\"\n",
    );
    let rows = summary_maps(&out);
    assert_eq!(rows.len(), 4);
    for r in &rows {
        let b: f64 = r["theory_branching"].parse().unwrap();
        if r["game"] == "uniform" {
            assert_eq!(
                (b, r["branching_source"].as_str()),
                (3.0, "branching column")
            );
        } else {
            // Minimax enters 933 nodes from this position to depth 6: sum of b^l, l = 0..6.
            let full: f64 = (0..=6).map(|l| b.powi(l)).sum();
            assert!((full - 933.0).abs() < 0.01, "{b}: {full}");
            assert!(r["branching_source"].starts_with("equivalent uniform tree"));
        }
    }
    let (_tmp, out) = common::harness_run_text(
        "name = \"c4h\"\n[game]\nkind = \"connect4\"\nwidth = 1\nheight = [3, 4, 5]\n[search]\nalgorithm = \"alphabeta\"\ndepth = \"full\"\n",
    );
    for r in summary_maps(&out) {
        assert_eq!(
            (r["growth"].as_str(), r["growth_2"].as_str()),
            ("", ""),
            "{r:?}"
        );
    }
}

/// A budget-stopped run's ebf is a floor only once it has entered its deepest ply: iterative
/// deepening stopped in an early iteration has a smaller max_ply, and its nodes^(1/max_ply)
/// can exceed the finished search's. Such a group has no ebf point; report.md says why, and
/// a chart the file asks for that nothing can be drawn in is named on stderr.
#[test]
fn ebf_of_a_search_stopped_short_of_its_depth_is_no_point() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    fs::write(
        &exp,
        "name = \"idb\"\n[game]\nkind = \"connect4\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = [3, 9]\nordering = \"natural\"\niterative = true\nmax_nodes = 600\n[report]\ncharts = [\"nodes\", \"ebf\", \"qnodes\"]\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let a = run_exp(&exp, &out).success();
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(
        err.contains("warning: idb: [report] charts: not drawn: `qnodes`"),
        "{err}"
    );
    let runs = fs::read_to_string(out.join("runs.csv")).unwrap();
    assert_eq!(
        runs.matches(",budget,").count(),
        1,
        "depth 9 stops, depth 3 finishes"
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("No point where a budget stopped a run before it entered its deepest ply (`max_ply` below `theory_depth`)"),
        "{md}"
    );
    assert!(md.contains(": all runs at depth = 9."), "{md}");
    assert!(out.join("charts/ebf.svg").exists());
}

/// Theory lines are labelled by what the theory depends on: with x = ordering and depth in
/// the series, each depth's full and minimal tree has its own line (one label hid the deeper
/// one); on a table-size x, runs without a table add no theory point at size 0.
#[test]
fn theory_lines_keep_every_tree_and_depth() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"tlines\"\n[game]\nkind = \"connect4\"\nwidth = [6, 7]\nheight = 4\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = [2, 4]\nordering = [\"natural\", \"center-out\"]\n[report]\nx = \"ordering\"\nseries = [\"algorithm\", \"depth\"]\ncharts = [\"nodes\"]\n",
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    // Minimax's full tree at depth 4 on the 6x4 and 7x4 boards: 1,555 and 2,801 nodes (the
    // minimax runs' own counts, which the fit reproduces), minimal trees 130 and 173.
    for (depth, width, full, minimal) in [
        (2, 6, 43, 18),
        (4, 6, 1555, 130),
        (2, 7, 57, 21),
        (4, 7, 2801, 173),
    ] {
        for (kind, v) in [("full tree", full), ("minimal tree", minimal)] {
            let row = md
                .lines()
                .find(|l| {
                    l.starts_with(&format!("| {kind}"))
                        && l.contains(&format!(
                            ": depth={depth}, width={width} (theory) | natural |"
                        ))
                })
                .unwrap_or_else(|| panic!("{kind} depth {depth} width {width}: {md}"));
            assert!(row.contains(&format!("| natural | {v} |")), "{row}");
        }
    }
    let (_tmp, out) = common::harness_run_text(
        "name = \"nvt\"\n[game]\nkind = \"connect4\"\nrandom_openings = { count = 3, plies = 4 }\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = 5\nordering = \"natural\"\n[search.tt]\nenabled = [false, true]\nentries = [256, 4096]\n[report]\ncharts = [\"nodes-vs-table\"]\n",
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let theory: Vec<&str> = md.lines().filter(|l| l.contains("(theory) |")).collect();
    assert!(!theory.is_empty(), "{md}");
    for l in theory {
        assert!(
            !l.contains("(theory) |  |"),
            "a theory point without a size: {l}"
        );
    }
}

/// Tic-tac-toe runs.csv rows of (depth, position_id, time_ns), 50 nodes each.
fn time_rows(runs: &[(u32, u32, u64)]) -> Vec<Vec<(&'static str, String)>> {
    runs.iter()
        .enumerate()
        .map(|(k, (depth, pos, ns))| {
            vec![
                ("run_key", format!("k{k}")),
                ("game", "tictactoe".to_string()),
                ("position_id", format!("{pos}")),
                ("depth", format!("{depth}")),
                ("nodes", "50".to_string()),
                ("time_ns", format!("{ns}")),
            ]
        })
        .collect()
}

/// The `time` chart draws `time_ns` in milliseconds, and only when `charts` names it: the
/// default charts are the same on any machine.
#[test]
fn time_is_charted_in_milliseconds_only_when_asked() {
    let rows = time_rows(&[
        (2, 0, 1_500_000),
        (2, 1, 2_500_000),
        (4, 0, 40_000),
        (4, 1, 960),
        // A clock too coarse for a tiny search reads 0: the group keeps its point.
        (6, 0, 0),
        (6, 1, 500_000),
        // Rounding up to a power of ten keeps three significant digits.
        (8, 0, 9_996),
        (8, 1, 9_996),
    ]);
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("runs.csv"), runs_csv(&[], &[], &rows)).unwrap();
    harness().arg("plot").arg(tmp.path()).assert().success();
    assert!(tmp.path().join("charts/nodes.svg").exists());
    assert!(!tmp.path().join("charts/time.svg").exists());

    fs::write(
        tmp.path().join("experiment.toml"),
        "name = \"tiny\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = [2, 4, 6, 8]\n[report]\ncharts = [\"nodes\", \"time\"]\n",
    )
    .unwrap();
    harness().arg("plot").arg(tmp.path()).assert().success();
    let svg = fs::read_to_string(tmp.path().join("charts/time.svg")).unwrap();
    assert!(svg.contains("mean search time (ms, log scale)"), "y title");
    let md = fs::read_to_string(tmp.path().join("report.md")).unwrap();
    // Depth 2: 1.5 and 2.5 ms, mean 2; depth 4: 0.04 and 0.00096 ms, mean 0.02048; depth 6:
    // 0 and 0.5 ms; depth 8: 0.009996 ms twice.
    assert!(md.contains("| time (ms) mean | min | max | runs |"), "{md}");
    assert!(
        md.contains("| all runs | 2 | 2.00 | 1.50 | 2.50 | 2 |"),
        "{md}"
    );
    assert!(
        md.contains("| all runs | 4 | 0.0205 | 0.000960 | 0.0400 | 2 |"),
        "{md}"
    );
    assert!(
        md.contains("| all runs | 6 | 0.250 | 0 | 0.500 | 2 |"),
        "{md}"
    );
    assert!(
        md.contains("| all runs | 8 | 0.0100 | 0.0100 | 0.0100 | 2 |"),
        "{md}"
    );

    // A search of 10,000 ms or more: the chart (every facet alike) is in seconds.
    let rows = time_rows(&[(2, 0, 4_000_000), (4, 0, 20_000_000_000)]);
    fs::write(tmp.path().join("runs.csv"), runs_csv(&[], &[], &rows)).unwrap();
    harness().arg("plot").arg(tmp.path()).assert().success();
    let svg = fs::read_to_string(tmp.path().join("charts/time.svg")).unwrap();
    assert!(svg.contains("mean search time (s, log scale)"), "y title");
    let md = fs::read_to_string(tmp.path().join("report.md")).unwrap();
    assert!(md.contains("| time (s) mean | min | max | runs |"), "{md}");
    assert!(
        md.contains("| all runs | 2 | 0.00400 | 0.00400 | 0.00400 | 1 |"),
        "{md}"
    );
    assert!(
        md.contains("| all runs | 4 | 20.0 | 20.0 | 20.0 | 1 |"),
        "{md}"
    );
}

/// A branching factor so large that the theory lines overflow f64 (b^3 of 1e200) once left
/// plot searching for ticks on an infinite axis forever: the overflowed lines are left out
/// and the chart is drawn.
#[test]
fn plot_draws_a_chart_whose_theory_overflows() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"huge\"\n[game]\nkind = \"uniform\"\nbranching = [2, 3]\nheight = 3\n[search]\nalgorithm = \"alphabeta\"\ndepth = \"full\"\n",
    );
    let csv = fs::read_to_string(out.join("runs.csv")).unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let at = lines[0].split(',').position(|c| c == "branching").unwrap();
    let row = lines
        .iter()
        .position(|l| l.contains(",uniform,2,"))
        .unwrap();
    let mut cells: Vec<&str> = lines[row].split(',').collect();
    assert_eq!(cells[at], "2");
    cells[at] = "1e200";
    lines[row] = cells.join(",");
    fs::write(out.join("runs.csv"), lines.join("\n") + "\n").unwrap();
    harness()
        .arg("plot")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    let charts: Vec<String> = fs::read_dir(out.join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        charts.iter().any(|c| c == "nodes-branching-1e200.png"),
        "{charts:?}"
    );
}

/// A theory line `[report] theory` names that no chart drawn shows is named on stderr and in
/// report.md's "Not drawn", with why: Pearl's R*(b) is drawn on the ebf chart only, and a
/// real game searched by alpha-beta alone has no branching factor to draw a minimal tree
/// from. With minimax beside it and the ebf chart asked for, both are drawn and nothing is
/// said; without a `theory` key (all three by default) nothing is said either.
#[test]
fn a_theory_line_asked_for_and_not_drawn_is_named() {
    let exp = |algorithm: &str, charts: &str, theory: &str| {
        format!("name = \"th\"\n[game]\nkind = \"tictactoe\"\npositions = [\"start\"]\n[search]\nalgorithm = {algorithm}\ndepth = [2, 3]\n[report]\ncharts = {charts}\n{theory}")
    };
    let cases = [
        (
            exp(
                "\"alphabeta\"",
                "[\"nodes\"]",
                "theory = [\"pearl\", \"knuth-moore\"]\n",
            ),
            vec![
                "theory line `pearl`: only the `ebf` chart draws it, and it is not drawn",
                "theory line `knuth-moore`: no group has a known branching factor",
            ],
        ),
        (
            exp(
                "[\"alphabeta\", \"minimax\"]",
                "[\"nodes\", \"ebf\"]",
                "theory = [\"pearl\", \"knuth-moore\"]\n",
            ),
            vec![],
        ),
        (exp("\"alphabeta\"", "[\"nodes\"]", ""), vec![]),
    ];
    for (text, expect) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("exp.toml");
        fs::write(&file, &text).unwrap();
        let out = tmp.path().join("out");
        let a = run_exp(&file, &out).success();
        let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
        let md = fs::read_to_string(out.join("report.md")).unwrap();
        assert_eq!(
            err.matches("warning: th: [report] theory: not drawn: ")
                .count(),
            expect.len(),
            "{text}\n{err}"
        );
        assert_eq!(md.contains("Not drawn:"), !expect.is_empty(), "{md}");
        for e in &expect {
            assert!(md.contains(&format!("- {e}")), "{e} in {md}");
            let (line, why) = e.split_once(": ").unwrap();
            let name = line.trim_start_matches("theory line ");
            assert!(
                err.contains(&format!("[report] theory: not drawn: {name}: {why}")),
                "{e} in {err}"
            );
        }
    }
}

/// With no chart drawn, report.md's Charts section says why instead of standing empty:
/// `charts = []` names none; a chart the data cannot support (no quiescence search, so no
/// `qnodes`) is listed under "Not drawn". The charts folder holds nothing either way.
#[test]
fn a_report_without_charts_says_why() {
    let cases = [
        ("[]", "None: `[report] charts` names no chart.", false),
        (
            "[\"qnodes\"]",
            "None: the data supports none of the charts `[report] charts` names.",
            true,
        ),
    ];
    for (charts, says, not_drawn) in cases {
        let (_tmp, out, a) = run_text(&format!("name = \"none\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = [2, 3]\n[report]\ncharts = {charts}\n"));
        let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
        assert!(stdout.contains("2 groups, 0 charts"), "{stdout}");
        let md = fs::read_to_string(out.join("report.md")).unwrap();
        assert!(
            md.contains(&format!("## Charts\n\n{says}\n")),
            "{charts}: {md}"
        );
        assert!(!md.contains("Points are"), "{charts}: {md}");
        assert_eq!(md.contains("Not drawn:"), not_drawn, "{charts}: {md}");
        assert_eq!(fs::read_dir(out.join("charts")).unwrap().count(), 0);
    }
}

/// Each chart gets a file of its own: facets whose slugs agree (`a/b` and `a-b`) and a facet
/// too long for a file name (an `explicit:` ordering of many moves) get a hash of the facet
/// after a slug cut to fit, and report.md links each chart to its own file; other charts keep
/// their plain names.
#[test]
fn charts_of_facets_alike_or_long_get_files_of_their_own() {
    let long = format!("explicit:{}", vec!["a1b1"; 80].join(","));
    let mut rows = Vec::new();
    for (k, ordering) in ["a/b", "a-b", long.as_str(), "natural"].iter().enumerate() {
        for depth in [2, 4] {
            rows.push(vec![
                ("run_key", format!("k{k}{depth}")),
                // A comma in the value: quoted as the csv writer would.
                ("ordering", format!("\"{ordering}\"")),
                ("depth", depth.to_string()),
                ("nodes", (10 * depth + k).to_string()),
                ("max_ply", depth.to_string()),
            ]);
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("runs.csv"), runs_csv(&[], &[], &rows)).unwrap();
    fs::write(
        tmp.path().join("experiment.toml"),
        "name = \"tiny\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 4\n\
         [report]\nx = \"depth\"\nfacet = \"ordering\"\ncharts = [\"nodes\"]\n",
    )
    .unwrap();
    harness().arg("plot").arg(tmp.path()).assert().success();
    let mut svgs: Vec<String> = fs::read_dir(tmp.path().join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    svgs.sort();
    assert_eq!(svgs.len(), 4, "{svgs:?}");
    assert!(
        svgs.contains(&"nodes-ordering-natural.svg".to_string()),
        "{svgs:?}"
    );
    let hashed: Vec<&String> = svgs
        .iter()
        .filter(|n| n.as_str() != "nodes-ordering-natural.svg")
        .collect();
    for n in &hashed {
        let stem = n.trim_end_matches(".svg");
        assert!(stem.len() <= 120, "{n}");
        let hash = stem.rsplit('-').next().unwrap();
        assert!(
            hash.len() == 8 && hash.chars().all(|c| c.is_ascii_hexdigit()),
            "{n}"
        );
    }
    assert!(
        hashed
            .iter()
            .filter(|n| n.starts_with("nodes-ordering-a-b-"))
            .count()
            == 2
    );
    let md = fs::read_to_string(tmp.path().join("report.md")).unwrap();
    for n in &svgs {
        assert!(md.contains(&format!("(charts/{n})")), "report.md links {n}");
    }
}

/// A theory figure past what a float holds (a full tree of b = 10^6 to depth 1,000, from a
/// hand-made runs.csv; harness's own uniform trees stop at b = 1024) is an empty cell in
/// summary.csv and report.md, not `inf`.
#[test]
fn a_theory_figure_past_a_float_is_an_empty_cell() {
    let rows = rows_of(
        &["run_key", "branching", "depth", "nodes", "max_ply"],
        &[&["k1", "1000000", "1000", "5", "3"]],
    );
    let tmp = plotted(&runs_csv(&["branching"], &[], &rows));
    let summary = fs::read_to_string(tmp.path().join("summary.csv")).unwrap();
    let md = fs::read_to_string(tmp.path().join("report.md")).unwrap();
    for text in [&summary, &md] {
        assert!(!text.contains("inf") && !text.contains("NaN"), "{text}");
    }
    let mut lines = summary.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let cell = |c: &str| row[head.iter().position(|&h| h == c).unwrap()];
    // The theory is there (its b, Pearl's ratio); only the trees' sizes are past a float.
    assert_eq!(cell("theory_branching"), "1000000", "{summary}");
    assert_ne!(cell("theory_pearl_r"), "", "{summary}");
    assert_eq!(cell("full_tree_nodes"), "", "{summary}");
}

/// nodes-vs-table asked for while the charts pool over the table size: the warning says so,
/// not that runs.csv has no table sizes.
#[test]
fn nodes_vs_table_pooled_over_its_size_says_why() {
    let (_tmp, dir) = plot_copy("tt-size-nim");
    let exp = fs::read_to_string(dir.join("experiment.toml")).unwrap();
    let exp = exp
        .replace(
            "x = \"tt_entries\"\nseries = \"tt_replacement\"",
            "x = \"tt_replacement\"",
        )
        .replace("pool = \"depth\"", "pool = [\"depth\", \"tt_entries\"]")
        .replace(
            "charts = [\"nodes-vs-table\"]",
            "charts = [\"nodes-vs-table\", \"nodes\"]",
        );
    assert!(exp.contains("pool = [\"depth\", \"tt_entries\"]"));
    fs::write(dir.join("experiment.toml"), exp).unwrap();
    let out = harness().arg("plot").arg(&dir).assert().success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("not drawn: `nodes-vs-table`: the charts pool over `tt_entries`"),
        "{err}"
    );
    assert!(!err.contains("no table-size column"), "{err}");
}

/// nodes-vs-table faceted by the table size would draw one size a chart: not drawn, and the
/// warning names the key.
#[test]
fn nodes_vs_table_faceted_by_its_own_size_says_why() {
    let (_tmp, dir) = plot_copy("tt-size-nim");
    let exp = fs::read_to_string(dir.join("experiment.toml")).unwrap();
    let exp = exp
        .replace(
            "x = \"tt_entries\"\nseries = \"tt_replacement\"\nfacet = \"ordering\"",
            "x = \"tt_replacement\"\nfacet = \"tt_entries\"",
        )
        .replace(
            "charts = [\"nodes-vs-table\"]",
            "charts = [\"nodes-vs-table\", \"nodes\"]",
        );
    assert!(exp.contains("facet = \"tt_entries\""));
    fs::write(dir.join("experiment.toml"), exp).unwrap();
    let out = harness().arg("plot").arg(&dir).assert().success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("not drawn: `nodes-vs-table`: the charts' facet is `tt_entries`"),
        "{err}"
    );
    assert!(!dir.join("charts").read_dir().unwrap().any(|e| e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .starts_with("nodes-vs-table")));
}

/// Text the embedded font cannot draw (a title in Chinese) is said on stderr, with the
/// characters, by `run` and by `plot`; text it can draw says nothing.
#[test]
fn characters_the_font_cannot_draw_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    let text = |title: &str| {
        format!("name = \"t\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n[report]\ntitle = \"{title}\"\n")
    };
    fs::write(&exp, text("漢字 ünïcödé")).unwrap();
    let out_dir = tmp.path().join("out");
    let out = run_exp(&exp, &out_dir).success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("has no glyph for `漢` (U+6F22), `字` (U+5B57): the PNGs draw a box"),
        "{err}"
    );
    let out = harness().arg("plot").arg(&out_dir).assert().success();
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("`漢` (U+6F22)"));
    fs::write(&exp, text("ünïcödé − ≥")).unwrap();
    let out = run_exp(&exp, &out_dir).success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!err.contains("glyph"), "{err}");
}

/// A facet where a chart asked for has nothing to draw while others do (facet = "tt" with
/// x = tt_entries: the runs without a table have no x) is named, not dropped in silence.
#[test]
fn a_facet_with_nothing_to_draw_is_named() {
    let (_tmp, dir) = plot_copy("tt-size-nim");
    let exp = fs::read_to_string(dir.join("experiment.toml")).unwrap();
    let exp = exp.replace("facet = \"ordering\"", "facet = \"tt\"");
    assert!(exp.contains("facet = \"tt\""));
    fs::write(dir.join("experiment.toml"), exp).unwrap();
    let out = harness().arg("plot").arg(&dir).assert().success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("not drawn: `nodes-vs-table`: not for the facet `tt=off`: no group there has a value to draw (x = `tt_entries`)"),
        "{err}"
    );
    let md = fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("not for the facet `tt=off`"), "{md}");
}

/// `[report] x_scale` is the scale of `[report] x`: nodes-vs-table keeps its log table-size axis
/// (it was spread evenly, as categories, when x_scale = "category" was set for another column).
#[test]
fn x_scale_leaves_the_table_size_axis_a_log_axis() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("nvt.toml");
    fs::write(
        &exp,
        "name = \"nvt\"\n[game]\nkind = \"nim\"\npositions = [\"1,2,3\"]\n[search]\n\
         algorithm = \"alphabeta\"\ndepth = \"full\"\n[search.tt]\nentries = [16, 32, 4096]\n\
         key_bits = [8, 64]\n[report]\nx = \"tt_key_bits\"\nx_scale = \"category\"\n\
         series = \"tt_entries\"\ncharts = [\"nodes\", \"nodes-vs-table\"]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    run_exp(&exp, &out).success();
    let svg = fs::read_to_string(out.join("charts/nodes-vs-table.svg")).unwrap();
    assert!(
        svg.contains("tt_entries (table entries, log scale)"),
        "{svg}"
    );
    // The x column's own chart is a category axis: ticks 8 and 64 evenly spaced, no log.
    let svg = fs::read_to_string(out.join("charts/nodes.svg")).unwrap();
    assert!(
        svg.contains("tt_key_bits (hash-key bits stored)\n"),
        "{svg}"
    );
}

/// Quiescence settings come in the order the file lists them, as other grid values do.
#[test]
fn quiescence_series_follow_the_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("q.toml");
    fs::write(
        &exp,
        "name = \"q\"\n[game]\nkind = \"chess\"\npositions = [\"start\"]\n[search]\n\
         algorithm = \"alphabeta\"\ndepth = 1\nordering = \"mvv-lva\"\n\
         quiescence = { enabled = [true, false], checks = [true, false] }\n\
         [report]\nseries = \"quiescence\"\ncharts = [\"nodes\"]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    run_exp(&exp, &out).success();
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let rows: Vec<String> = table_rows(&md, "| quiescence | depth |")
        .iter()
        .map(|r| r[1].to_string())
        .collect();
    assert_eq!(
        rows,
        [
            "quiescence=on,promotions,checks",
            "quiescence=on,promotions",
            "quiescence=off"
        ],
        "{md}"
    );
}

/// A share chart names a group as stopped by a budget only when it would have had a share: a
/// group without a table has no `value_wrong` to lose (minimax here, searched without one).
#[test]
fn share_charts_name_no_table_less_group_as_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("vw.toml");
    fs::write(
        &exp,
        "name = \"vw\"\n[game]\nkind = \"connect4\"\npositions = [\"start\", \"4453\"]\n\
         [search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = [2, 6]\n\
         ordering = \"center-out\"\nmax_nodes = 3000\n[search.tt]\nenabled = true\n\
         entries = 1024\nreference = true\n[report]\nseries = \"algorithm\"\n\
         charts = [\"value-wrong\", \"move-wrong\"]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    run_exp(&exp, &out).success();
    let runs = csv_maps(&out, "runs.csv");
    let stopped: Vec<String> = runs
        .iter()
        .filter(|r| r["status"] == "budget")
        .map(|r| format!("{} {}", r["algorithm"], r["depth"]))
        .collect();
    // Both minimax searches at depth 6 stop; one alpha-beta search at depth 6 does.
    assert_eq!(stopped, ["minimax 6", "alphabeta 6", "minimax 6"]);
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("No point"), "{md}");
    assert!(
        md.contains(
            "A share counts only the runs with a value in `value_wrong` (3 of the points' 4 runs"
        ),
        "{md}"
    );
}

/// The points of the thick (width 3) polylines of `colour` in an SVG chart, above y = `below`
/// (the plot, not the legend's swatches).
fn strokes(svg: &str, colour: &str, below: f64) -> Vec<Vec<(f64, f64)>> {
    let tag = format!("stroke=\"{colour}\" stroke-width=\"3\" points=\"");
    svg.match_indices(&tag)
        .map(|(i, _)| {
            let rest = &svg[i + tag.len()..];
            let numbers: Vec<f64> = rest[..rest.find('"').unwrap()]
                .split([' ', ','])
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().unwrap())
                .collect();
            numbers
                .chunks(2)
                .map(|xy| (xy[0], xy[1]))
                .collect::<Vec<_>>()
        })
        .filter(|p| p.iter().all(|&(_, y)| y < below))
        .collect()
}

/// With the table size on x, the default charts draw the nodes chart once: nodes-vs-table
/// would be the same chart under another title. Named in `charts`, both are drawn.
#[test]
fn a_table_size_on_x_draws_the_nodes_chart_once_by_default() {
    let exp = |charts: &str| {
        format!(
            "name = \"size\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\n\
             depth = \"full\"\n[search.tt]\nenabled = [false, true]\nentries = [16, 256]\n\
             [report]\nx = \"tt_entries\"\n{charts}"
        )
    };
    let pngs = |out: &Path| {
        let mut names: Vec<String> = fs::read_dir(out.join("charts"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".png"))
            .collect();
        names.sort();
        names
    };
    let (_tmp, out, _) = run_text(&exp(""));
    assert_eq!(pngs(&out), ["ebf.png", "nodes.png"]);
    let svg = fs::read_to_string(out.join("charts/nodes.svg")).unwrap();
    assert!(svg.contains("no table"), "{svg}");
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("Not drawn"), "{md}");
    let (_tmp, out, _) = run_text(&exp("charts = [\"nodes\", \"nodes-vs-table\"]\n"));
    assert_eq!(pngs(&out), ["nodes-vs-table.png", "nodes.png"]);
}

/// `depth = [2, 4, 6, "full"]` from three tic-tac-toe positions with 9, 7 and 6 plies left: a
/// full search stands at its position's plies left, so depth 6 holds all three positions and 7
/// and 9 one each. Those points are not joined (a line 6 → 7 → 9 drew a trend across other
/// positions); from the empty board alone every depth is the one position, and they are.
#[test]
fn numbers_and_full_in_one_depth_list_join_only_the_same_positions() {
    let exp = |positions: &str| {
        format!(
            "name = \"mixed\"\n[game]\nkind = \"tictactoe\"\npositions = [{positions}]\n\
             [search]\nalgorithm = \"alphabeta\"\ndepth = [2, 4, 6, \"full\"]\n\
             [report]\ncharts = [\"nodes\"]\n"
        )
    };
    let thick = |svg: &str| {
        svg.matches("stroke=\"#0072B2\" stroke-width=\"3\" points=")
            .count()
    };
    let (_tmp, out, _) = run_text(&exp("\"start\", \"4,0\", \"x.o.x....\""));
    let svg = fs::read_to_string(out.join("charts/nodes.svg")).unwrap();
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let rows = table_rows(&md, "| series (none varies: all runs) | depth | nodes mean");
    let runs: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r[1] == "all runs")
        .map(|r| (r[2], r[r.len() - 2]))
        .collect();
    // Depth 6: the three positions searched 6 plies, and "x.o.x...." searched to its end.
    assert_eq!(
        runs,
        [("2", "3"), ("4", "3"), ("6", "4"), ("7", "1"), ("9", "1")],
        "{md}"
    );
    assert_eq!(thick(&svg), 0, "points joined across positions: {svg}");
    assert!(
        svg.contains("search depth (plies; depth = full: plies left at most)"),
        "{svg}"
    );
    assert!(
        md.contains("a full search stands at its position's plies left"),
        "{md}"
    );
    let (_tmp, out, _) = run_text(&exp("\"start\""));
    let svg = fs::read_to_string(out.join("charts/nodes.svg")).unwrap();
    // One line through depths 2, 4, 6 and 9, beside the legend's swatch.
    let line = strokes(&svg, "#0072B2", 700.0);
    assert_eq!(line.len(), 1, "{svg}");
    assert_eq!(line[0].len(), 4, "{line:?}");
}

/// Tic-tac-toe to the end from positions with 6 to 9 plies left, each depth other positions:
/// on a category axis, as on a numeric one, the theory lines stand flat at each x and are not
/// joined from one x to the next (a trend over positions that are not deeper searches); the
/// ratio chart's facets, which share their axis, take a log scale when their ratios together
/// span more than a factor 30 (minimax's 8 to 185 beside alpha-beta's 2 to 7); and a log x
/// axis over depths 6 to 9 is padded by a fraction of their gap, not by a factor 1.6.
#[test]
fn full_depth_categories_facets_and_log_depths_draw_as_they_should() {
    let exp = |x_scale: &str| {
        format!(
            "name = \"cat\"\n[game]\nkind = \"tictactoe\"\npositions = [\"start\", \"4,0\", \"x.o.x....\", \"4\"]\n\
             [search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = \"full\"\nordering = [\"natural\", \"static\"]\n\
             [report]\nx_scale = \"{x_scale}\"\nfacet = \"algorithm\"\ncharts = [\"nodes\", \"ratio-to-minimal\"]\n"
        )
    };
    let (_tmp, out, _) = run_text(&exp("category"));
    let svg = fs::read_to_string(out.join("charts/nodes-algorithm-alphabeta.svg")).unwrap();
    // The minimal tree's dotted line, black: one flat stroke at each of the four depths.
    let dots = strokes(&svg, "#000000", 700.0);
    let flat = dots
        .iter()
        .filter(|p| p.iter().all(|q| q.1 == p[0].1))
        .count();
    assert!(dots.len() >= 4, "{dots:?}");
    assert_eq!(
        flat,
        dots.len(),
        "a theory stroke joins two depths: {dots:?}"
    );
    for facet in ["minimax", "alphabeta"] {
        let svg =
            fs::read_to_string(out.join(format!("charts/ratio-to-minimal-algorithm-{facet}.svg")))
                .unwrap();
        assert!(svg.contains("(log scale)"), "{facet}: linear ratio axis");
    }
    let (_tmp, out, _) = run_text(&exp("log"));
    let svg = fs::read_to_string(out.join("charts/nodes-algorithm-minimax.svg")).unwrap();
    // Depths 6 and 9 are labelled more than half the 1,200-pixel canvas apart (padded by a
    // factor 1.6, the axis ran from 3.75 to 14.4 and they stood 310 pixels apart).
    let label_x = |label: &str| {
        let lines: Vec<&str> = svg.lines().collect();
        let i = lines.iter().position(|l| l.trim() == label).unwrap();
        let x = lines[i - 1]
            .split("x=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        x.parse::<f64>().unwrap()
    };
    let apart = label_x("9") - label_x("6");
    assert!(apart > 600.0, "{apart}");
}

/// Nim positions of 8 sticks each (8 plies left at most) whose full trees differ in size: on
/// the ebf chart the full tree's line at x = 8 is the point statistic of each position's own
/// tree, so minimax sits on it (the ebf of their mean tree stood above the mean of their
/// ebfs), with the mean and with the median as the point.
#[test]
fn full_width_ebf_sits_on_the_full_tree_where_positions_share_an_x() {
    for (point, head) in [("mean", "ebf mean"), ("median", "ebf median")] {
        let (_tmp, out, _) = run_text(&format!(
            "name = \"ebf\"\n[game]\nkind = \"nim\"\npositions = [\"1,7\", \"2,6\", \"4,4\", \"8\"]\n[search]\nalgorithm = \"minimax\"\ndepth = \"full\"\n[report]\ncharts = [\"ebf\"]\npoint = \"{point}\"\n"
        ));
        let md = fs::read_to_string(out.join("report.md")).unwrap();
        let rows = table_rows(
            &md,
            &format!("| series (none varies: all runs) | depth | {head}"),
        );
        let at = |label: &str| -> f64 {
            let r = rows.iter().find(|r| r[1].starts_with(label)).unwrap();
            assert_eq!(r[2], "8", "{r:?}");
            r[3].parse().unwrap()
        };
        let (measured, full) = (at("all runs"), at("full tree"));
        assert!(
            (measured - full).abs() < 1e-5,
            "{point}: {measured} vs {full}\n{md}"
        );
        // The positions' trees differ: their ebfs spread, so the mean tree's would not do.
        let r = rows.iter().find(|r| r[1] == "all runs").unwrap();
        assert!(
            r[5].parse::<f64>().unwrap() - r[4].parse::<f64>().unwrap() > 0.1,
            "{r:?}"
        );
    }
}

/// A group none of whose runs entered a node below the root has no ebf (nodes^(1/max_ply)
/// with max_ply 0): the ebf chart's table names it rather than leaving it out in silence.
/// Two Connect Four positions one and two plies from the end that the solver with every
/// technique decides at its roots (2 nodes, max_ply 0), beside the plain null-window solver.
#[test]
fn an_ebf_group_with_no_node_below_its_root_is_named() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"root-only\"\nseed = 1\n[game]\nkind = \"connect4\"\n\
         positions = [\"71255763773133525731261364622167124446454\", \"3135151421347443544172316522225776773566\"]\n\
         [search]\nalgorithm = \"solve\"\ndepth = \"full\"\nordering = \"threats+center-out\"\n\
         solver = [\"all\", \"null-window+tt\"]\n[report]\ncharts = [\"ebf\"]\n",
    );
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let mut rd = csv::Reader::from_reader(runs.as_bytes());
    let head = rd.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let all: Vec<(String, String)> = rd
        .records()
        .map(|r| r.unwrap())
        .filter(|r| &r[col("solver")] == "all")
        .map(|r| (r[col("max_ply")].to_string(), r[col("ebf")].to_string()))
        .collect();
    assert_eq!(
        all,
        [("0".into(), "".into()), ("0".into(), "".into())],
        "{runs}"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains(
            "No point where no run of a group entered a node below its root (`max_ply` 0: a finished position, or a root decided before any child was entered), so that nodes^(1/max_ply) is undefined: all at depth = 1; all at depth = 2."
        ),
        "{md}"
    );
}

/// The fitted b weighs each position as the group's means do, once per run: a position
/// searched twice to one depth (`depth = [6, "full"]` where 6 plies are left) counts twice in
/// both, so minimax's nodes still equal the fitted full tree (the fit once counted it once:
/// nodes / full 0.675).
#[test]
fn a_position_searched_twice_to_one_depth_counts_twice_in_the_fit_too() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"dup\"\n[game]\nkind = \"tictactoe\"\npositions = [\"start\", \"x.o.x....\"]\n[search]\nalgorithm = \"minimax\"\ndepth = [6, \"full\"]\n",
    );
    let summary = csv_maps(&out, "summary.csv");
    let at6 = summary.iter().find(|r| r["depth"] == "6").unwrap();
    // start to depth 6 (73,450 nodes) and x.o.x.... to its end, 6 plies, twice (933 each).
    assert_eq!(at6["runs"], "3");
    assert_eq!(at6["nodes_mean"], "25105.333333");
    let ratio: f64 = at6["theory_nodes_over_full"].parse().unwrap();
    assert!((ratio - 1.0).abs() < 1e-9, "{ratio}");
}

/// A theory line the charts cannot draw because they pool over positions of several depths is
/// said to be missing for that reason, not for want of a branching factor (summary.csv has one
/// per unpooled group: the negamax runs give it).
#[test]
fn a_theory_line_lost_to_pooling_over_depth_says_so() {
    let (_tmp, out, a) = run_text(
        "name = \"p\"\n[game]\nkind = \"nim\"\npositions = [\"1,2\", \"1,2,3\"]\n[search]\nalgorithm = [\"negamax\", \"alphabeta\"]\ndepth = \"full\"\n[report]\nx = \"algorithm\"\npool = \"depth\"\ncharts = [\"nodes\"]\ntheory = [\"knuth-moore\"]\n",
    );
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    let report = fs::read_to_string(out.join("report.md")).unwrap();
    for text in [&err, &report] {
        assert!(
            text.contains(
                "`knuth-moore`: the charts pool over depth, and a theory tree is for one depth"
            ),
            "{text}"
        );
        assert!(
            !text.contains("no group has a known branching factor"),
            "{text}"
        );
    }
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.contains("equivalent uniform tree"), "{summary}");
}

/// A share chart pooled over `branching` keeps tree 0 of b = 2 and tree 0 of b = 3 apart: its
/// Wilson interval is taken over the effective runs of 8 trees (README, Statistics), here
/// recomputed from runs.csv: n over the design effect, the cluster-robust variance over the
/// 8 trees (or the textbook one where larger) against the textbook one.
#[test]
fn a_share_pooled_over_branching_clusters_by_tree() {
    let (_tmp, out, _) = run_text(
        "name = \"poolu\"\nseed = 7\n[game]\nkind = \"uniform\"\nbranching = [2, 3]\nheight = 6\nvalues = \"distinct\"\ntrees = 4\n[search]\nalgorithm = \"alphabeta\"\ndepth = \"full\"\nordering = \"random\"\nrepetitions = 3\n[search.tt]\nentries = 16\nkey_bits = 8\nreference = true\n[report]\nx = \"tt_key_bits\"\nfacet = \"ordering\"\npool = \"branching\"\ncharts = [\"value-wrong\"]\n",
    );
    let mut rd = csv::Reader::from_path(out.join("runs.csv")).unwrap();
    let head = rd.headers().unwrap().clone();
    let col = |n: &str| head.iter().position(|h| h == n).unwrap();
    let (b, id, wrong) = (col("branching"), col("position_id"), col("value_wrong"));
    let mut by_tree: std::collections::BTreeMap<(String, String), Vec<f64>> = Default::default();
    for r in rd.records() {
        let r = r.unwrap();
        let v = if &r[wrong] == "1" { 1.0 } else { 0.0 };
        by_tree
            .entry((r[b].into(), r[id].into()))
            .or_default()
            .push(v);
    }
    let all: Vec<f64> = by_tree.values().flatten().copied().collect();
    let (n, g) = (all.len() as f64, by_tree.len() as f64);
    assert_eq!((n, g), (24.0, 8.0));
    let p = all.iter().sum::<f64>() / n;
    let textbook = all.iter().map(|v| (v - p) * (v - p)).sum::<f64>() / ((n - 1.0) * n);
    let sums = by_tree
        .values()
        .map(|vs| vs.iter().map(|v| v - p).sum::<f64>());
    let clustered = g / (g - 1.0) * sums.map(|d| d * d).sum::<f64>() / (n * n);
    let n_eff = n * textbook / clustered.max(textbook);
    let z = 1.959_963_984_540_054f64;
    let z2n = z * z / n_eff;
    let half = z * (p * (1.0 - p) / n_eff + z2n / (4.0 * n_eff)).sqrt();
    let (lo, hi) = (
        (p + z2n / 2.0 - half) / (1.0 + z2n),
        (p + z2n / 2.0 + half) / (1.0 + z2n),
    );
    let want = format!(
        "| all runs | 8 | {:.2} | 24 | 24 | {:.2}–{:.2} |",
        100.0 * p,
        100.0 * lo,
        100.0 * hi
    );
    let report = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains(&want), "{want} not in\n{report}");
}
