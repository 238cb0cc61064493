//! Connect Four: move generation, win detection and keys against the published count of
//! distinct positions per ply; alpha-beta against minimax with every ordering; the solver
//! against the benchmark sets' listed scores and against plain alpha-beta on small boards;
//! position sources; and bad input on the command line (exit 2, file, line and move named).

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

use harness::experiment::plan::GameSetup;
use harness::experiment::positions::random_openings;
use harness::experiment::solve::{read_positions, solve_positions, SolveOptions};
use harness::games::connect4::Connect4;
use harness::games::Game;
use harness::search::solver::{solve, Techniques};
use harness::search::{search, Algorithm, Ordering, SearchSpec, Variant};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// OEIS A212693 (reference.md): distinct positions with n stones, n = 0..13.
const DISTINCT: [usize; 14] = [
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101, 30929111,
];

/// Hashes Connect Four's exact keys with one multiply (the keys are distinct already; SipHash
/// would triple the walk's time).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ (h >> 29)
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

type KeySet = HashSet<u64, std::hash::BuildHasherDefault<KeyHasher>>;

/// Depth-first walk that enters each distinct position of each ply once.
fn walk(g: &mut Connect4, ply: usize, seen: &mut [KeySet]) {
    if !seen[ply].insert(g.key()) || ply + 1 == seen.len() || g.outcome().is_some() {
        // Seen before, deep enough, or a finished game (it counts but is not expanded).
        return;
    }
    let mut buf = Vec::with_capacity(7);
    g.moves(&mut buf);
    for &m in &buf {
        g.make(m);
        walk(g, ply + 1, seen);
        g.unmake(m);
    }
}

/// Distinct positions with n stones for n = 0..=max, by walking the tree.
fn distinct_positions(max: usize) -> Vec<usize> {
    let mut seen: Vec<KeySet> = DISTINCT[..=max]
        .iter()
        .map(|&n| KeySet::with_capacity_and_hasher(n, Default::default()))
        .collect();
    walk(&mut Connect4::new(7, 6), 0, &mut seen);
    seen.iter().map(|s| s.len()).collect()
}

#[test]
fn distinct_positions_per_ply_match_the_published_sequence() {
    assert_eq!(distinct_positions(11), DISTINCT[..=11]);
}

/// The same through n = 13 (30,929,111 positions; about 40 s and 850 MB): run with
/// `cargo test --release -- --ignored`.
#[test]
#[ignore = "slow: about 40 s and 850 MB"]
fn distinct_positions_through_13_stones_match_the_published_sequence() {
    assert_eq!(distinct_positions(13), DISTINCT);
}

#[test]
fn alphabeta_with_every_ordering_returns_the_minimax_value() {
    let orderings = [
        "natural",
        "center-out",
        "static",
        "random",
        "threats",
        "threats+center-out",
        "explicit:4,3,5",
        "static+random",
    ];
    let mut positions = random_openings(&Connect4::new(7, 6), 6, 10, 7).unwrap();
    positions.extend(random_openings(&Connect4::new(7, 6), 6, 25, 8).unwrap());
    positions.push(Connect4::new(7, 6));
    for (i, g) in positions.iter().enumerate() {
        for depth in 1..=6 {
            let mut mm = *g;
            let reference = search(&mut mm, &SearchSpec::new(Algorithm::Minimax, depth), 1)
                .unwrap()
                .value;
            for ordering in orderings {
                for (algorithm, variant) in [
                    (Algorithm::AlphaBeta, Variant::FailSoft),
                    (Algorithm::AlphaBeta, Variant::FailHard),
                    (Algorithm::Pvs, Variant::FailSoft),
                    (Algorithm::Pvs, Variant::FailHard),
                ] {
                    let mut spec = SearchSpec::new(algorithm, depth);
                    spec.ordering = Ordering::parse(ordering).unwrap();
                    spec.variant = variant;
                    let mut ab = *g;
                    let r = search(&mut ab, &spec, i as u64).unwrap();
                    assert_eq!(
                        r.value,
                        reference,
                        "{} depth {depth} {ordering} {algorithm:?} {variant:?}",
                        g.format_position()
                    );
                    assert_eq!(ab.key(), g.key());
                }
            }
        }
    }
}

/// Every `step`-th line of a benchmark set, solved with `opts`; returns (solved, wrong).
fn solve_sample(set: &str, step: usize, opts: &SolveOptions) -> (usize, Vec<String>) {
    let setup = GameSetup::Connect4 {
        width: 7,
        height: 6,
    };
    let all = read_positions(&setup, &repo(&format!("experiments/data/connect4/{set}"))).unwrap();
    assert_eq!(all.len(), 1000, "{set}");
    let sample: Vec<_> = all.into_iter().step_by(step).collect();
    let mut wrong = Vec::new();
    let mut n = 0;
    solve_positions(&setup, Path::new("sample"), &sample, opts, |s| {
        n += 1;
        if Some(s.result.score) != s.expected {
            wrong.push(format!(
                "line {} {}: {} vs {:?}",
                s.line, s.position, s.result.score, s.expected
            ));
        }
        Ok(())
    })
    .unwrap();
    (n, wrong)
}

fn opts(tech: &str, ordering: &str, weak: bool) -> SolveOptions {
    SolveOptions {
        weak,
        techniques: Techniques::parse(tech).unwrap(),
        ordering: Ordering::parse(ordering).unwrap(),
        max_nodes: None,
        table_entries: None,
    }
}

#[test]
fn benchmark_samples_are_solved_to_their_listed_scores() {
    for (set, step) in [("Test_L3_R1", 10), ("Test_L2_R1", 10), ("Test_L1_R1", 20)] {
        let (n, wrong) = solve_sample(set, step, &opts("all", "threats+center-out", false));
        assert_eq!(n, 1000 / step);
        assert!(wrong.is_empty(), "{set}: {wrong:?}");
        let (_, wrong) = solve_sample(set, step * 2, &opts("all", "threats+center-out", true));
        assert!(wrong.is_empty(), "{set} weak: {wrong:?}");
    }
}

#[test]
fn every_technique_set_and_ordering_gives_the_same_scores() {
    for tech in [
        "none",
        "null-window",
        "null-window+win-check",
        "null-window+win-check+non-losing",
        "null-window+win-check+non-losing+bounds",
        "tt",
        "win-check+non-losing+bounds+tt",
    ] {
        let (_, wrong) = solve_sample("Test_L3_R1", 50, &opts(tech, "center-out", false));
        assert!(wrong.is_empty(), "{tech}: {wrong:?}");
    }
    for ordering in ["natural", "static", "random", "threats"] {
        let (_, wrong) = solve_sample("Test_L2_R1", 100, &opts("all", ordering, false));
        assert!(wrong.is_empty(), "{ordering}: {wrong:?}");
    }
}

#[test]
fn small_boards_solver_agrees_with_plain_alphabeta() {
    for (w, h) in [(4, 4), (5, 4), (4, 5)] {
        let g = Connect4::new(w, h);
        let mut spec = SearchSpec::new(Algorithm::AlphaBeta, w * h);
        spec.ordering = Ordering::parse("center-out").unwrap();
        let plain = search(&mut g.clone(), &spec, 1).unwrap().value;
        let full = solve(&mut g.clone(), &spec, Techniques::ALL, false, 1).unwrap();
        let none = solve(&mut g.clone(), &spec, Techniques::NONE, false, 1).unwrap();
        assert_eq!(full.value, plain, "{w}x{h}");
        assert_eq!(none.value, plain, "{w}x{h}");
        assert!(full.counters.nodes < none.counters.nodes);
    }
    // Connect Four on 4x4 is a draw.
    let mut g = Connect4::new(4, 4);
    let spec = SearchSpec::new(Algorithm::AlphaBeta, 16);
    assert_eq!(
        solve(&mut g, &spec, Techniques::ALL, false, 1)
            .unwrap()
            .score,
        0
    );
}

fn write_experiment(dir: &Path, body: &str) -> PathBuf {
    let p = dir.join("exp.toml");
    std::fs::write(&p, body).unwrap();
    p
}

#[test]
fn position_sources_build_the_grid_and_name_bad_lines() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("pos.txt"),
        "# benchmark lines\n\n4455 18\n44455554221 -15\n\n",
    )
    .unwrap();
    let exp = write_experiment(
        tmp.path(),
        "name = \"t\"\nseed = 5\n[game]\nkind = \"connect4\"\npositions = [\"2252576253462244111563365343671351441\"]\npositions_file = \"pos.txt\"\nrandom_openings = { count = 3, plies = 28 }\n[search]\nalgorithm = \"solve\"\ndepth = \"full\"\nordering = \"threats+center-out\"\nsolver = [\"all\", \"null-window+win-check\"]\n",
    );
    let (file, src) = harness::experiment::config::load(&exp).unwrap();
    let plan = harness::experiment::plan::build(&exp, &src, &file).unwrap();
    // 1 + 2 + 3 positions x 2 technique sets.
    assert_eq!(plan.runs.len(), 12);
    let with_expected: Vec<_> = plan.runs.iter().filter(|r| r.expected.is_some()).collect();
    assert_eq!(with_expected.len(), 4);
    let records = harness::experiment::runner::run_plan(
        &plan,
        &tmp.path().join("out"),
        harness::experiment::runner::RunOptions {
            jobs: 1,
            quiet: true,
            ..Default::default()
        },
    )
    .unwrap();
    for r in &records {
        if let Some(e) = r.run.expected {
            assert_eq!(r.run.game.external_score(&r.run.position, r.value), Some(e));
        }
    }
    let csv = std::fs::read_to_string(tmp.path().join("out/runs.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(header.ends_with("solver,score,expected"), "{header}");

    // A bad line is named by file, line and move.
    std::fs::write(tmp.path().join("pos.txt"), "4455 18\n# ok\n4481 3\n").unwrap();
    let err = harness::experiment::plan::build(&exp, &src, &file)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("pos.txt:3:") && err.contains("move 3 (`8`)"),
        "{err}"
    );
}

fn harness() -> Command {
    Command::cargo_bin("harness").unwrap()
}

/// `harness solve` on a file holding `lines`: exit status and stderr.
fn solve_cli(lines: &str) -> (i32, String, String) {
    solve_cli_with(lines, &[])
}

/// `harness solve --game connect4` on `lines`, with more arguments.
fn solve_cli_with(lines: &str, args: &[&str]) -> (i32, String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("positions.txt");
    std::fs::write(&p, lines).unwrap();
    let out = harness()
        .args(["solve", "--game", "connect4"])
        .args(args)
        .arg(&p)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Connect Four is a first-player win (Allen; Allis, 1988; reference.md), and with perfect play
/// the win comes only with the first player's 21st and last stone: score 22 − 21 = 1 in the
/// benchmark convention. `harness solve` as a user runs it, with a 1 GiB table: 2,222,346,427
/// nodes, about 11 minutes and 1.2 GB on the 2-core development machine. Run with
/// `cargo test --release -- --ignored`.
#[test]
#[ignore = "slow: about 11 minutes and 1.2 GB"]
fn solve_cli_finds_the_empty_board_a_first_player_win() {
    let (code, stdout, stderr) = solve_cli_with("start 1\n", &["--mib", "1024"]);
    assert_eq!(code, 0, "{stderr}");
    let row: Vec<&str> = stdout.lines().nth(1).unwrap().split(',').collect();
    // position (no moves: `start`, as runs.csv writes it), score, expected, nodes.
    assert_eq!(row[..4], ["start", "1", "1", "2222346427"], "{stdout}");
}

#[test]
fn solve_cli_rejects_bad_input_with_file_line_and_move() {
    let cases = [
        ("4455 18\n4481 3\n", ":2:", "move 3 (`8`)", "1 to 7"),
        (
            "4455 18\n\n1111111 0\n",
            ":3:",
            "move 7 (`1`)",
            "column 1 is full",
        ),
        (
            "12121212 0\n",
            ":1:",
            "move 8 (`2`)",
            "game is already over",
        ),
        ("44x5 1\n", ":1:", "move 3 (`x`)", "not a column"),
        ("4455 many\n", ":1:", "`many`", "not a score"),
        ("4455 99999999999\n", ":1:", "`99999999999`", "out of range"),
        ("4455 18 3\n", ":1:", "`3`", "moves [score]"),
    ];
    for (text, line, mv, what) in cases {
        let (code, stdout, stderr) = solve_cli(text);
        assert_eq!(code, 2, "{text:?}: {stderr}");
        assert!(
            stdout.is_empty(),
            "{text:?}: nothing solved before the error"
        );
        for needle in ["positions.txt", line, mv, what] {
            assert!(
                stderr.contains(needle),
                "{text:?}: `{needle}` not in {stderr}"
            );
        }
        assert!(!stderr.contains("panicked"));
    }
}

/// `--mib` sizes the solver's table: 1 MiB is 65,536 entries, and the CLI prints the node count
/// the library's solve gives with that table. The two sizes give different counts on this
/// benchmark position, so the size reaches the search.
#[test]
fn solve_cli_mib_sizes_the_table() {
    let line = "32164625 11\n";
    let nodes_with = |entries: Option<u64>| {
        let setup = GameSetup::Connect4 {
            width: 7,
            height: 6,
        };
        let mut o = opts("all", "threats+center-out", false);
        o.table_entries = entries;
        let mut nodes = 0;
        solve_positions(
            &setup,
            Path::new("one"),
            &[(1, "32164625".to_string(), Some(11))],
            &o,
            |s| {
                assert_eq!(s.result.score, 11);
                nodes = s.result.counters.nodes;
                Ok(())
            },
        )
        .unwrap();
        nodes
    };
    let (small, default) = (nodes_with(Some(1 << 16)), nodes_with(None));
    assert_ne!(small, default);
    for (args, nodes) in [(&["--mib", "1"][..], small), (&[][..], default)] {
        let (code, stdout, stderr) = solve_cli_with(line, args);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains(&format!("32164625,11,11,{nodes},")),
            "{args:?}: {stdout}"
        );
    }
    for (mib, what) in [("3", "not a power of two"), ("0", "holds nothing")] {
        let (code, stdout, stderr) = solve_cli_with(line, &["--mib", mib]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stdout.is_empty());
        assert!(
            stderr.contains(&format!("--mib {mib}")) && stderr.contains(what),
            "{stderr}"
        );
    }
}

/// `--max-nodes N` stops a position's solve at N nodes: its row keeps the position, the
/// expected score and the nodes at the stop, with an empty score; stderr names its line; a
/// stopped position is not a wrong one (exit 0). The benchmark position 32164625 takes 17,155
/// nodes (the default ordering, threats+center-out); 445566 takes fewer than 1,000.
#[test]
fn solve_cli_max_nodes_stops_a_position_and_says_so() {
    let (code, stdout, stderr) = solve_cli_with(
        "32164625 11
445566 18
start 1
",
        &["--max-nodes", "1000"],
    );
    assert_eq!(code, 0, "{stderr}");
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows.len(), 4, "{stdout}");
    assert!(rows[1].starts_with("32164625,,11,1000,"), "{stdout}");
    assert!(rows[2].starts_with("445566,18,18,"), "{stdout}");
    // The empty board as runs.csv writes it, not an empty cell.
    assert!(rows[3].starts_with("start,,1,1000,"), "{stdout}");
    assert!(
        stderr.contains("2 position(s) stopped by --max-nodes 1000")
            && stderr.contains("line(s) 1, 3"),
        "{stderr}"
    );
    // A budget that every position fits in changes nothing.
    let (code, stdout, _) = solve_cli_with(
        "32164625 11
",
        &["--max-nodes", "17155"],
    );
    assert_eq!(code, 0);
    assert!(stdout.contains("32164625,11,11,17155,"), "{stdout}");
    let (code, stdout, stderr) = solve_cli_with(
        "445566 18
",
        &["--max-nodes", "0"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("--max-nodes 0") && stderr.contains("allowed"),
        "{stderr}"
    );
}

#[test]
fn solve_cli_writes_csv_and_fails_on_a_wrong_expected_score() {
    let (code, stdout, stderr) = solve_cli("445566 18\n4455 18\n44455554221 -15\n");
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "position,score,expected,nodes,micros");
    // A win at once is decided before any search: 0 nodes.
    assert!(lines[1].starts_with("445566,18,18,0,"), "{}", lines[1]);
    assert!(lines[2].starts_with("4455,18,18,"), "{}", lines[2]);
    assert!(lines[3].starts_with("44455554221,-15,-15,"), "{}", lines[3]);
    let (code, stdout, _) = solve_cli("4455 17\n44455554221\n");
    assert_eq!(code, 1);
    assert!(stdout.contains("44455554221,-15,,"), "{stdout}");
}

#[test]
fn solve_cli_ends_quietly_when_stdout_closes() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // More output than a pipe holds (4 × 1,000 lines), so the solver writes after the reader
    // has gone, as with `harness solve ... | head`.
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("positions.txt");
    let set = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/data/connect4/Test_L3_R1"),
    )
    .unwrap();
    std::fs::write(&p, set.repeat(4)).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["solve", "--game", "connect4"])
        .arg(&p)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim(), "position,score,expected,nodes,micros");
    // The reader is dropped here: the pipe is closed.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// Board sizes out of range are named as written, in the experiment file (with line:column)
/// and on the `solve` command line, without wrapping around in the size arithmetic.
#[test]
fn bad_board_sizes_are_named_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    // (width, height, the line named: width's when it is out of 1..=64, else height's)
    for (w, h, line, what) in [
        (
            "-1",
            "6",
            4,
            "board -1x6: width and height must be at least 1",
        ),
        (
            "65",
            "6",
            4,
            "board 65x6: width × (height + 1) must be at most 64",
        ),
        ("9223372036854775807", "6", 4, "board 9223372036854775807x6"),
        (
            "8",
            "8",
            5,
            "board 8x8: width × (height + 1) must be at most 64",
        ),
    ] {
        let exp = write_experiment(
            tmp.path(),
            &format!("name = \"t\"\n[game]\nkind = \"connect4\"\nwidth = {w}\nheight = {h}\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n"),
        );
        let out = harness()
            .arg("run")
            .arg(&exp)
            .arg("--out")
            .arg(tmp.path().join("out"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{w}x{h}: {stderr}");
        for needle in [&format!("exp.toml:{line}:"), "width/height", what] {
            assert!(
                stderr.contains(needle),
                "{w}x{h}: `{needle}` not in {stderr}"
            );
        }
    }
    let p = tmp.path().join("positions.txt");
    std::fs::write(&p, "11 0\n").unwrap();
    for (w, h) in [
        ("65536", "65535"),
        ("4294967295", "4294967295"),
        ("2147483648", "1"),
        ("1", "4294967295"),
    ] {
        let out = harness()
            .args(["solve", "--game", "connect4", "--width", w, "--height", h])
            .arg(&p)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{w}x{h}: {stderr}");
        assert!(
            stderr.contains(&format!("--width/--height: board {w}x{h}"))
                && stderr.contains("must be at most 64"),
            "{w}x{h}: {stderr}"
        );
    }
}

/// Solver runs say what ran: the `tt` technique's table in the table columns (its default
/// size when the experiment gives none, the experiment's when it does), its occupancy when the
/// solve ended; and the parameters the solver does not use (tie-break, iterative deepening,
/// quiescence) do not multiply its runs.
#[test]
fn solver_runs_report_their_table_and_drop_what_they_do_not_use() {
    let body = |tt: &str| {
        format!(
            "name = \"t\"\nseed = 5\n[game]\nkind = \"connect4\"\npositions = [\"5554224333234511764415115\", \"7422341735647741166133573473242566\"]\n[search]\nalgorithm = \"solve\"\nordering = \"threats+center-out\"\nsolver = [\"all\", \"null-window+win-check\"]\ntie_break = \"first\"\niterative = false\nquiescence = {{ enabled = false }}\n{tt}"
        )
    };
    for (tt, entries) in [("", 1u64 << 18), ("[search.tt]\nentries = 4096\n", 4096)] {
        let records = common::run_records(&body(tt));
        // 2 positions × 2 technique sets, nothing else multiplied. (Settings the solver has
        // not, given values other than these, are refused when every run is solve; beside
        // other algorithms they do not split solver runs: tests/cli.rs.)
        assert_eq!(records.len(), 4);
        for r in &records {
            let c = &r.counters;
            let uses_table = r.run.solver.unwrap().tt;
            assert_eq!(r.run.tt.map(|t| t.entries), uses_table.then_some(entries));
            assert!(!r.run.iterative && !r.run.quiescence.enabled);
            if uses_table {
                assert!(c.tt_stores > 0 && c.tt_occupancy > 0, "{} {c:?}", r.run.key);
                assert!(c.tt_occupancy <= c.tt_stores, "{c:?}");
            } else {
                assert_eq!((c.tt_probes, c.tt_occupancy), (0, 0));
            }
        }
    }
}

/// Connect Four has no noisy moves: with quiescence on, a search is the one without it in
/// every counter (quiescence only stands pat), also under fail-hard with a table, where the
/// horizon's value was once clamped to the window and the table's moves and counts moved.
/// So for principal variation search too, which once searched a horizon child again after
/// its null window (as if quiescence had returned a bound), and on uniform trees.
#[test]
fn quiescence_without_noisy_moves_changes_no_counter() {
    let connect4 =
        "[game]\nkind = \"connect4\"\nwidth = 6\nheight = 5\npositions = [\"2\", \"3344\"]\n";
    let uniform = "[game]\nkind = \"uniform\"\nbranching = 3\nheight = 6\nvalues = [\"distinct\", \"integer\"]\ntrees = 4\n";
    for (game, runs) in [(connect4, 64), (uniform, 256)] {
        let records = common::run_records(&format!(
            "name = \"q\"\n{game}[search]\nalgorithm = [\"alphabeta\", \"pvs\"]\nvariant = [\"fail-hard\", \"fail-soft\"]\ndepth = [2, 5]\nordering = \"natural\"\nquiescence = {{ enabled = [false, true] }}\n[search.tt]\nenabled = [false, true]\nentries = 256\nreplacement = \"bucket\"\n",
        ));
        assert_eq!(records.len(), runs, "{game}");
        let mut by_setting = std::collections::BTreeMap::new();
        for r in &records {
            let mut c = r.counters;
            c.time_ns = 0;
            let key = r.run.key.replace(";q=on,promotions", "");
            by_setting
                .entry(key)
                .or_insert_with(Vec::new)
                .push((c, r.value, r.best_move.clone()));
        }
        assert_eq!(by_setting.len(), runs / 2);
        for (key, v) in &by_setting {
            assert_eq!(v.len(), 2, "{key}");
            assert_eq!(v[0], v[1], "{key}");
        }
        // The case is there: PVS searched some moves again.
        assert!(records.iter().any(|r| r.counters.researches > 0), "{game}");
    }
}

/// The solver's null-window tests each enter the root, which is no node's child:
/// `searched_branching` is (nodes − roots) / interior, and never above `mean_branching`
/// (no search enters more children than it generates moves). The first Test_L3_R1 position
/// with every technique: two tests, each a root and one child, so 2 children over 2
/// expanded nodes (it read 3 over 2 when only one root came off).
#[test]
fn searched_branching_takes_the_solvers_roots_out_of_the_nodes() {
    let set = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/data/connect4/Test_L3_R1"),
    )
    .unwrap();
    let positions: Vec<String> = set
        .lines()
        .take(20)
        .map(|l| format!("\"{}\"", l.split(' ').next().unwrap()))
        .collect();
    let (_tmp, out) = common::harness_run_text(&format!(
        "name = \"sb\"\nseed = 1\n[game]\nkind = \"connect4\"\npositions = [{}]\n[search]\n\
         algorithm = \"solve\"\ndepth = \"full\"\nsolver = [\"all\", \"null-window+tt\", \"none\"]\n\
         max_nodes = 200_000\n",
        positions.join(", ")
    ));
    let mut rd = csv::Reader::from_path(out.join("runs.csv")).unwrap();
    let head = rd.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 60);
    let mut expanded = 0;
    for r in rows.iter().filter(|r| &r[col("interior")] != "0") {
        let num = |name: &str| r[col(name)].parse::<f64>().unwrap();
        assert!(
            num("searched_branching") <= num("mean_branching") + 5e-7,
            "{r:?}"
        );
        expanded += 1;
    }
    // (A position `win-check` decides at the root expands none: no branching to compare.)
    assert!(expanded >= 40, "{expanded}");
    let first = rows
        .iter()
        .find(|r| &r[col("solver")] == "all" && &r[col("position_id")] == "0")
        .unwrap();
    assert_eq!(
        [
            &first[col("nodes")],
            &first[col("interior")],
            &first[col("mean_branching")],
            &first[col("searched_branching")]
        ],
        ["4", "2", "1.000000", "1.000000"]
    );
}

/// The solver's counters on the first Test_L3_R1 position, counted by hand (natural order,
/// one full-window search: no null-window). O is to move with five cells left, (6,6) and
/// (7,3)..(7,6) (column, row from the bottom); X threatens (6,6) on the diagonal (3,3) (4,4)
/// (5,5), and (7,5) completes X's row 5 (4,5) (5,5) (6,5).
/// - `none`: the root (2 moves) plays 6, blocking; X has only 7 (1 move), O only 7 (1 move), X
///   only 7, (7,5), a four: a finished game, −1 for O (X wins with its 21st stone). Then the
///   root plays 7: X (2 moves) plays 6 first, a four, which beats the window: a cutoff. So 7
///   nodes, 2 leaves (both finished games), 5 interior, 2 + 1 + 1 + 1 + 2 = 7 moves, 1 cutoff
///   (on the first move), max ply 4.
/// - `win-check`: a node whose mover can connect at once is a leaf. The line after the root
///   plays 6 stops at the node where X can play (7,5); after the root plays 7, X can play
///   (6,6) at once. So 5 nodes, 2 leaves, no finished game, 3 interior (2 + 1 + 1 moves), no
///   cutoff, max ply 3.
/// - `win-check+non-losing`: the root's only move that does not let X connect at once is the
///   block (1 move), X's one move (7,3) gives O no four to make (1 move), and O's one move
///   (7,4) lets X connect at (7,5): no move left that does not lose, a leaf decided with its
///   moves generated (they count only at interior nodes). So 3 nodes, 1 leaf, 2 interior, 2
///   moves, max ply 2.
#[test]
fn solver_counters_counted_by_hand() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"sh\"\nseed = 1\n[game]\nkind = \"connect4\"\npositions = [\"2252576253462244111563365343671351441\"]\n[search]\nalgorithm = \"solve\"\ndepth = \"full\"\nordering = \"natural\"\nsolver = [\"none\", \"win-check\", \"win-check+non-losing\"]\n",
    );
    let mut rd = csv::Reader::from_path(out.join("runs.csv")).unwrap();
    let head = rd.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    let cells = |solver: &str| {
        let r = rows
            .iter()
            .find(|r| &r[head.iter().position(|h| h == "solver").unwrap()] == solver)
            .unwrap();
        [
            "score",
            "nodes",
            "leaves",
            "terminal",
            "interior",
            "moves_generated",
            "cutoffs",
            "first_move_cutoffs",
            "max_ply",
        ]
        .map(|c| r[head.iter().position(|h| h == c).unwrap()].to_string())
    };
    assert_eq!(
        cells("none"),
        ["-1", "7", "2", "2", "5", "7", "1", "1", "4"]
    );
    assert_eq!(
        cells("win-check"),
        ["-1", "5", "2", "0", "3", "4", "0", "0", "3"]
    );
    assert_eq!(
        cells("win-check+non-losing"),
        ["-1", "3", "1", "0", "2", "2", "0", "0", "2"]
    );
}

/// Solve runs that prove another score than the positions file's (8 key bits, naive-exact
/// bounds) are counted on stderr and in report.md, with the groups they fall in, from the same
/// runs.csv columns; a run whose every score is right says so.
#[test]
fn wrong_solve_scores_are_counted_in_report_md_as_on_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let lines: Vec<String> = std::fs::read_to_string(repo("experiments/data/connect4/Test_L2_R1"))
        .unwrap()
        .lines()
        .take(10)
        .map(String::from)
        .collect();
    std::fs::write(tmp.path().join("l2.txt"), lines.join("\n") + "\n").unwrap();
    let exp = |tt: &str| {
        write_experiment(
            tmp.path(),
            &format!(
                "name = \"c4\"\n[game]\nkind = \"connect4\"\npositions_file = \"l2.txt\"\n[search]\nalgorithm = \"solve\"\nordering = \"threats+center-out\"\n[search.tt]\nentries = 256\n{tt}"
            ),
        )
    };
    let run = |path: &Path| {
        let out_dir = tmp.path().join("out");
        let out = harness()
            .arg("run")
            .arg(path)
            .args(["--quiet", "--fresh", "--out"])
            .arg(&out_dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let md = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
        let csv = std::fs::read_to_string(out_dir.join("runs.csv")).unwrap();
        (String::from_utf8_lossy(&out.stderr).to_string(), md, csv)
    };
    let (err, md, csv) = run(&exp(
        "key_bits = [8, 64]\nbounds = [\"correct\", \"naive-exact\"]\n",
    ));
    // Count from runs.csv itself.
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let head = rdr.headers().unwrap().clone();
    let col = |n: &str| head.iter().position(|h| h == n).unwrap();
    let (score, expected) = (col("score"), col("expected"));
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let wrong = rows.iter().filter(|r| r[score] != r[expected]).count();
    assert_eq!(rows.len(), 40);
    assert!(wrong > 0, "{csv}");
    assert!(
        err.contains(&format!(
            "{wrong} finished solve run(s) proved a score other"
        )),
        "{err}"
    );
    assert!(
        md.contains(&format!(
            "**{wrong} of the 40 finished solve runs with an expected score proved another**"
        )),
        "{md}"
    );
    // The by-group table adds up to the count.
    let listed: usize = md
        .lines()
        .skip_while(|l| !l.starts_with("| depth | tt_key_bits | tt_bounds | wrong scores"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.split('|')
                .nth(4)
                .unwrap()
                .trim()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(listed, wrong, "{md}");
    let (err, md, _) = run(&exp(""));
    assert!(!err.contains("proved a score other"), "{err}");
    assert!(
        md.contains("Every one of the 10 finished solve runs with an expected score proved it"),
        "{md}"
    );
}
