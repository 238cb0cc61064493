//! The command line: determinism of `harness run`, and bad input (exit 2, one clear message
//! naming the file, the key with line:column and what is allowed, no panic, no results file).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

mod common;
use common::start_until;

fn harness() -> Command {
    Command::cargo_bin("harness").unwrap()
}

/// The stderr of `harness ARGS`, which must exit with status 2 (bad input).
fn refused(args: &[&str]) -> String {
    let out = harness().args(args).assert().code(2).get_output().clone();
    String::from_utf8(out.stderr).unwrap()
}

/// Checks that the message `err` says each of `expect` and none of `absent`.
fn says(err: &str, expect: &[&str], absent: &[&str]) {
    for e in expect {
        assert!(err.contains(e), "expected {e:?} in: {err}");
    }
    for a in absent {
        assert!(!err.contains(a), "unexpected {a:?} in: {err}");
    }
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
        "iterative",
        "[search.tt]",
        "two-tier",
        "naive-exact",
        "[report]",
        "ratio-to-minimal",
        "geomean",
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
fn bad(from: &str, to: &str, expect: &[&str]) -> String {
    let text = GOOD.replacen(from, to, 1);
    assert_ne!(text, GOOD, "substitution {from:?} did not apply");
    bad_text(&text, expect)
}

/// `bad`, and the message does not contain `absent`.
fn bad_not(from: &str, to: &str, expect: &[&str], absent: &str) {
    let err = bad(from, to, expect);
    assert!(!err.contains(absent), "{err}");
}

/// Runs `harness run` on the experiment `text` and checks the error: exit 2, one line naming
/// the file and each of `expect`, no panic, no results file.
fn bad_text(text: &str, expect: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, text).unwrap();
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
    err
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
    // A key of another table says where it belongs.
    bad(
        "ordering =",
        "scale = \"win-loss\"\nordering =",
        &[
            "exp.toml:11:1: unknown key `scale`; allowed: `algorithm`,",
            "`scale` belongs in [game]",
        ],
    );
    bad(
        "[search]",
        "[search]\ncharts = [\"nodes\"]",
        &["unknown key `charts`", "`charts` belongs in [report]"],
    );
    bad(
        "[search]",
        "[search]\nplies = 8",
        &["`plies` belongs in [game] random_openings = { ... }"],
    );
    // A section's name inside another section is told to start that section.
    bad(
        "[search]",
        "[search]\nsearch.tt = 3",
        &[
            "unknown key `search`",
            "`search` is a section of its own: start it with [search]",
        ],
    );
    bad(
        "[search]",
        "[search]\nenabled = true",
        &["`enabled` belongs in [search.tt] or [search] quiescence = { ... }"],
    );
    // A key of [report] inside an inline table (an inline [search.tt] too, which holds
    // [search.tt]'s keys), or as a table header, is not sent there: no such [report] key is a
    // table, and an inline table's keys are its own.
    for (text, expect) in [
        (
            GOOD.replacen(
                "[search]",
                "[search]\nquiescence = { enabled = true, x = 1 }",
                1,
            ),
            "`quiescence`: unknown key `x`; allowed: `enabled`",
        ),
        (
            GOOD.replacen(
                "[search]",
                "[search]\ntt = { entries = 16, x = \"depth\" }",
                1,
            ),
            "unknown key `x`",
        ),
        (format!("{GOOD}[game.x]\na = 1\n"), "unknown key `x`"),
    ] {
        let err = bad_text(&text, &[expect]);
        assert!(!err.contains("belongs in"), "{err}");
    }
    // A list of exclusions as [[search.exclude]] tables, and also as a key: given twice.
    let err = bad_text(
        &format!("{GOOD}[[search.exclude]]\nalgorithm = \"minimax\"\n").replacen(
            "[search]",
            "[search]\nexclude = [{ algorithm = \"minimax\" }]",
            1,
        ),
        &["`exclude` is given as a key (`exclude = [...]`) before this [[search.exclude]] table; allowed: one of the two forms"],
    );
    assert!(!err.contains("an array of tables"), "{err}");
    // A misspelt key inside quiescence gets no hint about lists of tables.
    let err = bad_text(
        &GOOD.replacen(
            "[search]",
            "[search]\nquiescence = { enabled = true, bogus = 1 }",
            1,
        ),
        &["`quiescence`: unknown key `bogus`; allowed: `enabled`"],
    );
    assert!(!err.contains("quiescence is one table"), "{err}");
    // An unknown key after others in an inline table is the table's error, not the key's
    // before it.
    bad(
        "[search]",
        "[search]\ntt = { entries = 4096, bogus = 1 }",
        &["`tt`: unknown key `bogus`; allowed: `enabled`, `entries`"],
    );
    // Values are values, not serde's variants.
    bad(
        "[search]",
        "[report]\nwhiskers = \"box\"\n[search]",
        &["`whiskers`: unknown value `box`; allowed: `min-max` or `none`"],
    );
    bad(
        "[search]",
        "[report]\ncharts = [\"nodez\"]\n[search]",
        &["`charts`: unknown value `nodez`; allowed: `nodes`, `ebf`"],
    );
}

/// The ordering term `tt` with no table in any run is an error, not a silent no-op; with a
/// table in some runs (on and off compared) it is fine.
#[test]
fn the_tt_ordering_term_needs_a_table() {
    bad(
        "ordering = \"natural\"",
        "ordering = \"tt+static\"",
        &["exp.toml:11:1", "`tt`", "[search.tt]"],
    );
    good_run(&GOOD.replacen(
        "ordering = \"natural\"",
        "ordering = \"tt+static\"\n[search.tt]\nenabled = [false, true]",
        1,
    ));
}

/// `killer` and `history` with no run that cuts off (only minimax and negamax) are errors, not
/// silent no-ops; beside alpha-beta runs they are fine.
#[test]
fn killer_and_history_need_a_run_that_cuts_off() {
    for term in ["killer", "history"] {
        let ordering = format!("ordering = \"{term}+static\"");
        let text = GOOD
            .replacen(
                "algorithm = \"alphabeta\"",
                "algorithm = [\"minimax\", \"negamax\"]",
                1,
            )
            .replacen("ordering = \"natural\"", &ordering, 1);
        bad_text(
            &text,
            &["exp.toml:11:1", &format!("the term `{term}`"), "alphabeta"],
        );
        good_run(
            &GOOD
                .replacen(
                    "algorithm = \"alphabeta\"",
                    "algorithm = [\"minimax\", \"alphabeta\"]",
                    1,
                )
                .replacen("ordering = \"natural\"", &ordering, 1),
        );
    }
}

/// `[[game]]` (an array of tables) is named as such, not as serde's "unknown variant `kind`".
#[test]
fn an_array_of_tables_is_named_as_one() {
    bad(
        "[game]",
        "[[game]]",
        &[
            "exp.toml:4:1",
            "`[[game]]` is an array of tables",
            "write [game]",
        ],
    );
    bad(
        "[search]",
        "[[search]]",
        &["exp.toml:8:1", "`[[search]]`", "write [search]"],
    );
    // A nested list on a line of its own is a value, not a header.
    let text = GOOD.replacen(
        "ordering = \"natural\"",
        "ordering = [\n[[\"static\", \"random\"]]\n]",
        1,
    );
    let err = bad_text(&text, &["exp.toml:12:2"]);
    assert!(!err.contains("array of tables"), "{err}");
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
fn an_empty_positions_file_name_is_refused() {
    bad(
        "positions = [\"start\"]",
        "positions_file = \"\"",
        &["exp.toml:6:18", "positions_file: an empty file name"],
    );
}

#[test]
fn depth_zero_or_negative_is_refused() {
    bad(
        "depth = 3",
        "depth = 0",
        &["exp.toml:10:9", "depth 0", "plies from 1 to 10000"],
    );
    bad("depth = 3", "depth = -2", &["exp.toml:10:9", "depth -2"]);
    bad(
        "depth = 3",
        "depth = 10001",
        &["exp.toml:10:9", "depth 10001", "plies from 1 to 10000"],
    );
    bad(
        "depth = 3",
        "depth = [2, 0]",
        &["exp.toml:10:13", "depth 0"],
    );
    // A range's bound out of range: at that bound, also inside a list.
    bad(
        "depth = 3",
        "depth = { from = 0, to = 3 }",
        &["exp.toml:10:18", "depth 0"],
    );
    bad(
        "depth = 3",
        "depth = [2, { from = 3, to = 10001 }]",
        &["exp.toml:10:30", "depth 10001"],
    );
    bad(
        "depth = 3",
        "depth = { from = 3, to = 1 }",
        &["exp.toml:10:", "empty"],
    );
    // A list inside the list is a slip (it was read flat); a range inside it is a range.
    bad(
        "depth = 3",
        "depth = [2, [3]]",
        &[
            "exp.toml:10:13:",
            "a list inside the depth list",
            "plies from 1 to 10000",
        ],
    );
    good_run(&GOOD.replacen("depth = 3", "depth = [1, { from = 2, to = 3 }]", 1));
}

/// A required key or section left out: named, with what it takes.
#[test]
fn missing_keys_and_sections_say_what_they_take() {
    bad(
        "name = \"t\"\n",
        "",
        &["exp.toml:1:1", "missing key `name`", "letters"],
    );
    bad(
        "kind = \"tictactoe\"\n",
        "",
        &["exp.toml:4:1", "missing key `kind` in [game]", "connect4"],
    );
    bad(
        "algorithm = \"alphabeta\"\n",
        "",
        &[
            "exp.toml:8:1",
            "missing key `algorithm`",
            "alphabeta, solve",
        ],
    );
    bad(
        "[game]\nkind = \"tictactoe\"\npositions = [\"start\"]\n",
        "",
        &["exp.toml:1:1", "missing section [game]"],
    );
}

/// `depth` may be left out only when every algorithm is `solve`, which always searches to the
/// end of the game.
#[test]
fn depth_is_required_except_for_the_solver() {
    bad(
        "depth = 3\n",
        "",
        &["exp.toml:8:1", "[search] depth is missing", "\"full\""],
    );
    bad(
        "algorithm = \"alphabeta\"\ndepth = 3\n",
        "algorithm = [\"solve\", \"minimax\"]\n",
        &[
            "exp.toml:8:1",
            "depth is missing",
            "only algorithm \"solve\"",
        ],
    );
    let tmp = good_run(&GOOD.replacen(
        "algorithm = \"alphabeta\"\ndepth = 3\n",
        "algorithm = \"solve\"\n",
        1,
    ));
    let rows = counters_only(&tmp.path().join("out/runs.csv"));
    let depth = rows[0].iter().position(|c| c == "depth").unwrap();
    let value = rows[0].iter().position(|c| c == "value").unwrap();
    // Tic-tac-toe from the empty board is a draw, solved to the end (9 plies).
    assert_eq!(
        (rows[1][depth].as_str(), rows[1][value].as_str()),
        ("9", "0")
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
    // An empty positions file is named at its key, not as "no position" somewhere.
    bad(
        "positions = [\"start\"]",
        "positions_file = \"/dev/null\"",
        &["exp.toml:6:18", "/dev/null holds no position"],
    );
    // In a list: at the file's name.
    bad(
        "positions = [\"start\"]",
        "positions_file = [\"/dev/null\"]",
        &["exp.toml:6:19", "/dev/null holds no position"],
    );
    bad(
        "positions = [\"start\"]",
        "positions = [\"start\"]\npositions_file = [\"exp.toml\", \"no-such.txt\"]",
        &["exp.toml:7:31", "cannot read", "no-such.txt"],
    );
    // A folder: said so, without the operating system's "Is a directory (os error 21)".
    bad_not(
        "positions = [\"start\"]",
        "positions_file = \"/\"",
        &["exp.toml:6:18", "cannot read /", "a folder, not a file"],
        "os error",
    );
    // A line of the file that is no position: the file's line, then the key that named it.
    bad(
        "positions = [\"start\"]",
        "positions_file = [\"exp.toml\"]",
        &[
            "exp.toml:1: tictactoe position: `name = \"t\"`",
            "(a line of the [game] positions_file at ",
            "exp.toml:6:19)",
        ],
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
    let err = refused(&["run", "--quiet", "no/such/experiment.toml"]);
    says(
        &err,
        &[
            "no/such/experiment.toml",
            "cannot read",
            "allowed: the path of an experiment's TOML file",
        ],
        &[],
    );
}

/// A file given where `verify` takes the results folder says what goes there.
#[test]
fn verify_refuses_a_file_given_as_the_results_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, GOOD).unwrap();
    let f = file.to_str().unwrap();
    let err = refused(&["verify", "--quiet", f, f]);
    says(
        &err,
        &[
            "a file, not a folder",
            "allowed: the results folder `harness run",
        ],
        &["os error"],
    );
}

/// A results folder given where the experiment file goes (`verify results/NAME`) names the
/// folder and says where a folder belongs, in every command that reads an experiment file.
#[test]
fn a_folder_given_as_the_experiment_file_says_what_goes_there() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("results");
    std::fs::create_dir(&dir).unwrap();
    let d = dir.to_str().unwrap();
    for args in [vec!["run", "--quiet", d], vec!["verify", "--quiet", d]] {
        let err = refused(&args);
        says(
            &err,
            &[
                d,
                "a folder, not a file",
                "allowed: an experiment's TOML file",
                "harness verify FILE DIR",
            ],
            &["os error"],
        );
    }
}

#[test]
fn unwritable_output_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, GOOD).unwrap();
    // A path below a regular file can never be created, even by root; nor can the file itself
    // be the folder. The message says which path is the file.
    let blocker = tmp.path().join("blocker");
    std::fs::write(&blocker, "").unwrap();
    for (out_dir, says) in [
        (
            blocker.join("out"),
            format!("{} is a file, not a folder", blocker.display()),
        ),
        (blocker.clone(), ": is a file, not a folder".to_string()),
    ] {
        let out = harness()
            .args(["run", "--quiet", "--out"])
            .arg(&out_dir)
            .arg(&file)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("output directory") && err.contains("--out") && err.contains(&says),
            "{err}"
        );
    }
}

/// `harness run --quiet --out OUT FILE`, whatever its outcome.
fn run_file(file: &Path, out: &Path) -> std::process::Output {
    harness()
        .args(["run", "--quiet", "--out"])
        .arg(out)
        .arg(file)
        .output()
        .unwrap()
}

/// Runs `harness run` on the experiment `text`, which must succeed; the results are in the
/// returned folder's `out`.
fn good_run(text: &str) -> tempfile::TempDir {
    good_run_stderr(text).0
}

/// `good_run`, with what the run wrote on stderr (its warnings).
fn good_run_stderr(text: &str) -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, text).unwrap();
    let out = harness()
        .args(["run", "--quiet", "--out"])
        .arg(tmp.path().join("out"))
        .arg(&file)
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    (tmp, err)
}

/// The file runs, and its one run's counters are those `scripts/models/tictactoe.py` counts
/// for alpha-beta to depth 3 from the empty board (win-loss, fail-soft, natural order).
#[test]
fn a_good_file_runs() {
    let tmp = good_run(GOOD);
    let mut rows = csv::Reader::from_path(tmp.path().join("out/runs.csv")).unwrap();
    let header = rows.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1);
    let cell = |name: &str| &rows[0][header.iter().position(|h| h == name).unwrap()];
    let counts = [
        "value",
        "nodes",
        "leaves",
        "interior",
        "cutoffs",
        "first_move_cutoffs",
    ];
    assert_eq!(counts.map(cell), ["0", "96", "70", "26", "15", "15"]);
}

/// `algorithm = "pvs"`: runs.csv gains `researches` (0 for alpha-beta's rows; absent from a file
/// with no PVS run), and PVS's row is what `scripts/models/tictactoe.py` counts for principal
/// variation search from the empty board, full depth (win-loss, fail-soft, static order); the
/// summary gives the re-searches' mean.
#[test]
fn pvs_runs_and_counts_its_researches() {
    let text = GOOD
        .replacen("\"alphabeta\"", "[\"alphabeta\", \"pvs\"]", 1)
        .replacen("depth = 3", "depth = \"full\"", 1)
        .replacen("\"natural\"", "\"static\"", 1);
    let tmp = good_run(&text);
    let mut rows = csv::Reader::from_path(tmp.path().join("out/runs.csv")).unwrap();
    let header = rows.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let counts = ["algorithm", "value", "nodes", "cutoffs", "researches"];
    let got: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| counts.iter().map(|c| &r[col(c)]).collect())
        .collect();
    assert_eq!(
        got,
        [
            ["alphabeta", "0", "7275", "3090", "0"],
            ["pvs", "0", "6375", "2929", "2"]
        ]
    );
    let summary = std::fs::read_to_string(tmp.path().join("out/summary.csv")).unwrap();
    assert!(
        summary
            .lines()
            .next()
            .unwrap()
            .contains(",researches_mean,"),
        "{summary}"
    );
    // Without a PVS run there is no such column.
    let tmp = good_run(GOOD);
    let runs = std::fs::read_to_string(tmp.path().join("out/runs.csv")).unwrap();
    assert!(
        !runs.lines().next().unwrap().contains("researches"),
        "{runs}"
    );
}

/// `repetitions` repeats the runs that use randomness; with none it would repeat nothing
/// (it did, silently: every run once), so it is refused at the key.
#[test]
fn repetitions_without_randomness_are_refused() {
    bad(
        "ordering = \"natural\"",
        "ordering = [\"natural\", \"static\"]\nrepetitions = 3",
        &[
            "exp.toml:12:1: [search] repetitions = 3: only runs that use randomness repeat",
            "and no run of this experiment does",
            "allowed: drop repetitions (or repetitions = 1)",
        ],
    );
    // A tie-break that draws is randomness, for the algorithms that have one.
    bad(
        "algorithm = \"alphabeta\"\ndepth = 3",
        "algorithm = \"solve\"\ntie_break = \"first\"\nrepetitions = 2",
        &["repetitions = 2: only runs that use randomness repeat"],
    );
    for ok in [
        "ordering = [\"natural\", \"random\"]\nrepetitions = 3",
        "ordering = \"natural\"\ntie_break = [\"first\", \"random\"]\nrepetitions = 3",
        "ordering = \"strong:0.5:0.9\"\nrepetitions = 2",
        "ordering = \"natural\"\nrepetitions = 1",
    ] {
        good_run(&GOOD.replacen("ordering = \"natural\"", ok, 1));
    }
}

/// Sizes that would exhaust memory or time are refused up front, naming the key and the limit.
#[test]
fn sizes_past_their_limits_are_refused() {
    bad(
        "ordering = \"natural\"",
        "ordering = \"random\"\nrepetitions = 4294967295",
        &[
            "exp.toml:12:",
            "repetitions = 4294967295",
            "from 1 to 100000",
        ],
    );
    bad(
        "positions = [\"start\"]",
        "random_openings = { count = 4294967295, plies = 1 }",
        &["exp.toml:6:", "random_openings", "from 1 to 100000"],
    );
    bad(
        "positions = [\"start\"]",
        "positions_file = \"/dev/zero\"",
        &["exp.toml:6:", "/dev/zero", "larger than 64 MiB"],
    );
    // Openings longer than the game lasts fail after 1,000 fruitless attempts in a row (not
    // 1,000 per opening asked for: minutes here), and no opening passes 10,000 plies.
    bad(
        "positions = [\"start\"]",
        "random_openings = { count = 100000, plies = 10 }",
        &[
            "exp.toml:6:",
            "found only 0 of 100000 distinct openings of 10 plies",
            "1000 attempts in a row",
        ],
    );
    bad(
        "positions = [\"start\"]",
        "random_openings = { count = 1, plies = 4294967295 }",
        &["exp.toml:6:", "plies = 4294967295", "from 0 to 10000"],
    );
    // A negative count or plies: what the key allows, not serde's "a whole number >= 0", at
    // the key inside the inline table.
    for (line, at, allowed) in [
        (
            "random_openings = { count = -1, plies = 2 }",
            "exp.toml:6:29: `random_openings.count`",
            "allowed: a whole number from 1 to 100000",
        ),
        (
            "random_openings = { count = 2, plies = -1 }",
            "exp.toml:6:40: `random_openings.plies`",
            "allowed: a whole number from 0 to 10000",
        ),
    ] {
        let e = bad("positions = [\"start\"]", line, &[at, allowed]);
        assert!(!e.contains(">= 0"), "{e}");
    }
    // A missing key of the two: which one, and what it takes.
    bad(
        "positions = [\"start\"]",
        "random_openings = { count = 1 }",
        &[
            "exp.toml:6:",
            "missing key `plies` in random_openings",
            "from 0 to 10000",
        ],
    );
    bad(
        "positions = [\"start\"]",
        "random_openings = { plies = 1 }",
        &[
            "exp.toml:6:",
            "missing key `count` in random_openings",
            "from 1 to 100000",
        ],
    );
    // A range's length is computed without overflow (it once wrapped, passed the length
    // check and panicked allocating the range).
    bad_text(
        "name = \"w\"\n[game]\nkind = \"connect4\"\nwidth = { from = -9223372036854775808, to = 0 }\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n",
        &[
            "exp.toml:4:18:",
            "board -9223372036854775808x6: width and height must be at least 1",
        ],
    );
}

/// A bad number in a list, range or inline table of `[game]` is reported at that number, in
/// the key's own bounds: a range too long to list reaches past them, and says so at `to`.
#[test]
fn a_bad_number_in_a_list_range_or_table_is_reported_at_it() {
    let c4 = |line: &str| {
        format!("name = \"w\"\n[game]\nkind = \"connect4\"\n{line}\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n")
    };
    let uniform = |line: &str| {
        format!("name = \"u\"\n[game]\nkind = \"uniform\"\n{line}\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n")
    };
    for (text, expect) in [
        (c4("width = [7, 0]"), vec!["exp.toml:4:13:", "board 0x6"]),
        (
            c4("height = [6, 100]"),
            vec!["exp.toml:4:14:", "board 7x100", "at most 64"],
        ),
        // The first height of the range past the board's word: at `to`.
        (
            c4("height = { from = 1, to = 100 }"),
            vec!["exp.toml:4:27:", "board 7x9", "at most 64"],
        ),
        (
            c4("height = { from = 0, to = 4 }"),
            vec!["exp.toml:4:19:", "board 7x0", "at least 1"],
        ),
        // Far past what a range lists (it once said "at most 100,001 values"), and past
        // every integer type: still the board's bounds.
        (
            c4("height = { from = 1, to = 9999999 }"),
            vec!["exp.toml:4:27:", "board 7x9999999", "at most 64"],
        ),
        (
            c4("height = { from = 1, to = 99999999999999999999 }"),
            vec!["exp.toml:4:27:", "board 7x99999999999999999999"],
        ),
        (
            c4("width = { from = 5, to = 3 }"),
            vec!["exp.toml:4:9:", "the range from 5 to 3 is empty"],
        ),
        (
            c4("width = [7, 5,\n  7]"),
            vec![
                "exp.toml:5:3:",
                "`width`: item 3 of the list repeats item 1 (7)",
            ],
        ),
        (
            uniform("branching = [2, 5000]\nheight = 3"),
            vec!["exp.toml:4:17:", "branching = 5000", "from 2 to 1024"],
        ),
        (
            uniform("branching = { from = 2, to = 1000000 }\nheight = 3"),
            vec!["exp.toml:4:30:", "branching = 1000000", "from 2 to 1024"],
        ),
        (
            uniform("branching = 3\nheight = [3, 0]"),
            vec!["exp.toml:5:14:", "height = 0", "from 1 to 64"],
        ),
        // A limit of branching and height together: at the height that passes it.
        (
            uniform("branching = [2, 3]\nheight = [3, 40]"),
            vec!["exp.toml:5:14:", "b^d = 2^40"],
        ),
        // The integer values' range: at the end past the bound, else at the list.
        (
            uniform("branching = 2\nheight = 3\nvalues = \"integer\"\nrange = [1, 99999999]"),
            vec!["exp.toml:7:13:", "within -1000000..1000000"],
        ),
        (
            uniform("branching = 2\nheight = 3\nvalues = \"integer\"\nrange = [5, 1]"),
            vec!["exp.toml:7:9:", "lo <= hi"],
        ),
        // A key of an inline table: at its value.
        (
            c4("random_openings = { count = 3, plies = 20000 }"),
            vec![
                "exp.toml:4:40:",
                "plies = 20000; it must be from 0 to 10000",
            ],
        ),
        (
            c4("random_openings = { count = 0, plies = 2 }"),
            vec!["exp.toml:4:29:", "count = 0; it must be from 1 to 100000"],
        ),
    ] {
        bad_text(&text, &expect);
    }
}

/// A grid past 1,000,000 runs is refused at the key that multiplies it before the positions
/// are built: 65,472 uniform tree shapes of 1,000,000 trees each once took gigabytes first.
#[test]
fn a_grid_too_large_is_refused_before_its_positions_are_built() {
    bad_text(
        "name = \"g\"\n[game]\nkind = \"uniform\"\nbranching = { from = 2, to = 1024 }\nheight = { from = 1, to = 64 }\nvalues = \"continuous\"\ntrees = 1000000\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n",
        &[
            "exp.toml:7:9: [game] trees = 1000000 × 65472 game setups",
            "more than 1000000 runs",
        ],
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("heaps.txt");
    std::fs::write(&file, "1,2\n".repeat(600_000)).unwrap();
    bad_text(
        &format!("name = \"g\"\n[game]\nkind = \"nim\"\nmisere = [false, true]\npositions_file = {:?}\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n", file.display().to_string()),
        &["exp.toml:2:1: [game] 600000 positions × 2 game setups", "more than 1000000 runs"],
    );
}

/// Random openings whose runs would pass 1,000,000 are refused at `count` before a single
/// opening is built: 100,000 chess openings of 350 plies × 11 depths took a minute of building
/// before the grid refused them. 90,910 × 11 is the first count past the limit.
#[test]
fn random_openings_too_many_for_the_grid_are_refused_before_they_are_built() {
    // Only the check before the openings are built says "random_openings: count"; the grid's
    // own check, after them, says "the experiment's grid holds".
    bad_text(
        "name = \"g\"\n[game]\nkind = \"chess\"\nrandom_openings = { count = 90910, plies = 350 }\n[search]\nalgorithm = \"alphabeta\"\ndepth = { from = 1, to = 11 }\n",
        &[
            "exp.toml:4:29: [game] random_openings: count = 90910: 90910 positions, each 11 runs of the [search] grid, make more than 1000000 runs",
            "it multiplies 90910 positions × depth 11; ask for fewer openings",
        ],
    );
}

/// Columns count characters, as an editor shows them: the `é` before the key is one column,
/// though UTF-8 writes it in two bytes (the column said 24).
#[test]
fn error_columns_count_characters_not_bytes() {
    bad_text(
        "name = \"lab\"\n[game]\nkind = \"tictactoe\"\npositions = [\"start\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = [2, 3]\nordering = [\"natural\", \"static\"]\n[report]\nlabels = { \"é\" = \"x\", \"zz\" = \"y\" }\n",
        &["exp.toml:10:23: [report] labels: `zz` names no series"],
    );
}

/// `[report] x` naming a column empty in every run (the table's size with no table) is
/// refused before the search, at the key, listing the columns that have a value: no chart
/// could place a point, and it drew nothing and said nothing.
#[test]
fn an_x_column_empty_in_every_run_is_refused() {
    bad_text(
        "name = \"tx\"\n[game]\nkind = \"tictactoe\"\npositions = [\"start\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = [2, 3]\n[report]\nx = \"tt_entries\"\n",
        &[
            "exp.toml:9:5: [report] x = `tt_entries`: empty in every run",
            "allowed: a column with a value, game, scale, algorithm, variant, depth, ordering,",
        ],
    );
}

/// A grid that passes 1,000,000 runs only once its search keys multiply its positions is
/// refused naming each key with more than one value and its count.
#[test]
fn a_grid_too_large_names_what_multiplies_it() {
    bad_text(
        "name = \"g\"\n[game]\nkind = \"nim\"\npositions = [\"1,2\", \"2,3\", \"3,4\", \"1,2,3\", \"2,2\"]\n[search]\nalgorithm = [\"alphabeta\", \"negamax\"]\ndepth = { from = 1, to = 100 }\nordering = [\"random\", \"natural\", \"static\"]\nrepetitions = 1000\n[search.tt]\nentries = [1024, 4096]\n",
        &[
            // At the largest list: `repetitions`.
            "exp.toml:9:1: the experiment's grid holds more than 1000000 runs",
            "it multiplies 5 positions × algorithm 2 × depth 100 × ordering 3 × [search.tt] settings 2 × repetitions 1000 (of runs that use randomness);",
        ],
    );
    // One position, and uniform trees: the grid is counted, not built (building the first
    // 1,000,000 runs took 6 s before the refusal).
    bad_text(
        "name = \"g\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = { from = 1, to = 9 }\ntie_break = [\"first\", \"random\"]\nordering = [\"natural\", \"random\", \"static\"]\nrepetitions = 100000\n",
        &[
            "exp.toml:9:1: the experiment's grid holds more than 1000000 runs",
            "it multiplies 1 positions × depth 9 × ordering 3 × tie_break 2 × repetitions 100000 (of runs that use randomness);",
        ],
    );
    bad_text(
        "name = \"g\"\n[game]\nkind = \"uniform\"\nbranching = 2\nheight = 4\ntrees = 100000\n[search]\nalgorithm = \"alphabeta\"\ndepth = [1, 2, 3, 4]\nordering = [\"natural\", \"random\", \"static\"]\n",
        &[
            // At `trees`, where the positions come from.
            "exp.toml:6:1: the experiment's grid holds more than 1000000 runs",
            "it multiplies 100000 positions × depth 4 × ordering 3;",
        ],
    );
}

#[test]
fn solve_on_chess_and_position_sources_on_uniform_trees_are_refused() {
    let cases = [
        (
            "kind = \"tictactoe\"\npositions = [\"start\"]",
            "kind = \"chess\"\npositions = [\"7k/8/8/8/8/8/8/R6K w - - 0 1\"]",
            "algorithm = \"alphabeta\"",
            "algorithm = \"solve\"",
            "solve\" is not available for chess",
            // At `algorithm`, the key to change.
            "exp.toml:9:1:",
        ),
        (
            "kind = \"tictactoe\"\npositions = [\"start\"]",
            "kind = \"uniform\"\nbranching = 2\nheight = 3\nrandom_openings = { count = 1, plies = 1 }",
            "ordering = \"natural\"",
            "ordering = \"natural\"",
            "random_openings does not apply to uniform trees",
            "exp.toml:",
        ),
    ];
    for (from1, to1, from2, to2, want, at) in cases {
        let text = GOOD.replacen(from1, to1, 1).replacen(from2, to2, 1);
        bad_text(&text, &[at, want]);
    }
}

/// A name the results folder needs, taken by the wrong kind of entry, is an input error
/// before anything is searched, and leaves no temporary file.
#[test]
fn output_names_taken_by_the_wrong_kind_of_entry_are_input_errors() {
    for (name, dir) in [
        ("runs.csv", true),
        ("runs.csv.partial", true),
        ("manifest.json", true),
        ("report.md", true),
        ("summary.csv", true),
        ("charts", false),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("exp.toml");
        std::fs::write(&file, GOOD).unwrap();
        let out_dir = tmp.path().join("out");
        std::fs::create_dir(&out_dir).unwrap();
        if dir {
            std::fs::create_dir(out_dir.join(name)).unwrap();
        } else {
            std::fs::write(out_dir.join(name), "").unwrap();
        }
        let out = run_file(&file, &out_dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name) && err.contains("--out"), "{name}: {err}");
        let left: Vec<String> = std::fs::read_dir(&out_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, vec![name.to_string()], "{name}: nothing else written");
    }
}

#[test]
fn command_line_limits() {
    let run = |args: &[&str]| {
        let out = harness().args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, err) = run(&["run", "--jobs", "5000", "experiments/tictactoe.toml"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--jobs") && err.contains("from 0 to 1024"),
        "{err}"
    );
    let (code, _, err) = run(&["theory", "-b", "2..1000000", "-d", "1..1000"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("rows; at most 100000"), "{err}");
    let (code, _, err) = run(&["theory", "-b", "1", "-d", "3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a range like 2..10"), "{err}");
    // A value given twice would print its rows twice.
    let (code, _, err) = run(&["theory", "-b", "2,3", "-d", "2..5,4"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--depth `2..5` and `4` both give 4; allowed: each value once"),
        "{err}"
    );
    // Depth 0: the position itself, with or without --divide.
    for divide in [false, true] {
        let mut args = vec!["perft", "--depth", "0"];
        if divide {
            args.push("--divide");
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(out, "total: 1\n", "divide={divide}");
    }
}

/// Runs `harness solve ARGS FILE`, checks exit 2 with nothing on stdout, and returns stderr.
fn solve_refuses(args: &[&str], file: &Path) -> String {
    let out = harness()
        .arg("solve")
        .args(args)
        .arg(file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    err
}

#[test]
fn solve_defaults_to_an_ordering_the_game_has_and_refuses_empty_files() {
    let tmp = tempfile::tempdir().unwrap();
    let nim = tmp.path().join("nim.txt");
    std::fs::write(&nim, "3,4,5\n1,1\n").unwrap();
    let out = harness()
        .args(["solve", "--game", "nim"])
        .arg(&nim)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // Bouton: 3^4^5 = 2 is a win for the side to move, 1^1 = 0 a loss.
    let scores: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').nth(3).unwrap())
        .collect();
    assert_eq!(scores, ["1", "-1"], "{text}");
    // A folder for the file is said to be one.
    let err = solve_refuses(&["--game", "nim"], tmp.path());
    says(&err, &["a folder, not a file"], &["os error"]);
    // An ordering the game lacks is named with its flag, and nothing goes to stdout.
    let err = solve_refuses(&["--game", "nim", "--ordering", "center-out"], &nim);
    assert!(
        err.contains("--ordering") && err.contains("center-out"),
        "{err}"
    );
    let empty = tmp.path().join("empty.txt");
    std::fs::write(&empty, "# nothing\n\n").unwrap();
    let err = solve_refuses(&["--game", "connect4"], &empty);
    assert!(
        err.contains("empty.txt") && err.contains("no position"),
        "{err}"
    );
}

/// Orderings that the game cannot use are found when the runs are checked, before any
/// search; the error names the file and the `ordering` line.
#[test]
fn an_ordering_the_game_lacks_names_the_ordering_line() {
    bad(
        "ordering = \"natural\"",
        "ordering = [\"natural\", \"center-out\"]",
        &[
            "exp.toml:11:24:",
            "[search] ordering",
            "applies to Connect Four",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"explicit:9\"",
        &["exp.toml:11:12:", "`9` is not a tic-tac-toe square"],
    );
}

/// One ordering, one name: a term or an explicit move written twice orders nothing the first
/// did not, so it is refused where it is written.
#[test]
fn an_ordering_term_or_move_written_twice_is_refused() {
    bad(
        "ordering = \"natural\"",
        "ordering = [\"natural\", \"static+static\"]",
        &[
            "exp.toml:11:",
            "`static+static` lists `static` twice; allowed: each term once",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = [[\"tt\", \"killer\", \"tt\"]]",
        &["exp.toml:11:", "ordering `tt+killer+tt` lists `tt` twice"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"explicit:4,,0\"",
        &["exp.toml:11:", "has an empty move"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"explicit:4,0,04\"",
        &[
            "exp.toml:11:",
            "lists the move 4 twice (`4` and `04`); allowed: each move once",
        ],
    );
    // Chess's static order under both its names, in one ordering and as two grid values (at
    // the later one).
    let chess = |ordering: &str| {
        GOOD.replacen("kind = \"tictactoe\"", "kind = \"chess\"", 1)
            .replacen("ordering = \"natural\"", ordering, 1)
    };
    bad_text(
        &chess("ordering = \"static+mvv-lva\""),
        &[
            "exp.toml:11:12:",
            "`static+mvv-lva` lists the static order twice: `mvv-lva` is chess's `static` under its usual name; allowed: one of them",
        ],
    );
    bad_text(
        &chess("ordering = [\"mvv-lva\", \"natural\", \"static\"]"),
        &[
            "exp.toml:11:35:",
            "the orderings `mvv-lva` and `static` are one ordering, `mvv-lva` is chess's `static` under its usual name; allowed: each ordering once",
        ],
    );
    // Two grid values that spell one explicit list two ways: at the later one.
    bad(
        "ordering = \"natural\"",
        "ordering = [\"explicit:4,0\", \"natural\", \"explicit:04,00\"]",
        &[
            "exp.toml:11:40:",
            "the orderings `explicit:04,00` and `explicit:4,0` are one ordering, `explicit:4,0` in the game's notation; allowed: each ordering once",
        ],
    );
    // Or split one list into two, one after the other: the first term ranks 4, the second
    // 0 among the rest, as the one list does.
    bad(
        "ordering = \"natural\"",
        "ordering = [\"explicit:4,0\", \"explicit:4+explicit:0\"]",
        &[
            "exp.toml:11:29:",
            "are one ordering, `explicit:4,0` in the game's notation (explicit lists one after the other rank as one list); allowed: each ordering once",
        ],
    );
    // Apart, with another term between them, they are two orderings.
    good_run(&GOOD.replacen(
        "ordering = \"natural\"",
        "ordering = [\"explicit:4,0\", \"explicit:4+static+explicit:0\"]",
        1,
    ));
}

/// The TOML reader's own grammar messages get what is allowed: a key's characters, a
/// missing `=`, a name without quotes, a number past f64, a bad section header, lists nested
/// past the reader's limit.
#[test]
fn toml_grammar_errors_say_what_is_allowed() {
    // A section given twice, or as a key and a header.
    bad(
        "[search]\n",
        "[search]\nalgorithm = \"alphabeta\"\n[search]\n",
        &[
            "exp.toml:10:1:",
            "the section [search] is given twice (or also as a key `search = { ... }` written before it); allowed: each section once, its keys under one header",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\ntt = { enabled = true }\n[search.tt] # again\nentries = 64",
        &[
            "exp.toml:13:1:",
            "the section [search.tt] is given twice (or also as a key `tt = { ... }` written before it)",
        ],
    );
    bad(
        "kind = ",
        "kïnd = ",
        &[
            "exp.toml:5:2:",
            "`kïnd`: a key cannot hold `ï`",
            "ASCII letters, digits",
        ],
    );
    bad(
        "kind = ",
        "kind ",
        &[
            "exp.toml:5:6:",
            "`kind` must be followed by `=` (found `\"tictactoe\"`)",
        ],
    );
    bad(
        "\"tictactoe\"",
        "tictactoe",
        &[
            "exp.toml:5:8:",
            "`tictactoe` is no TOML value: a name or text goes in quotes (\"tictactoe\")",
            "allowed: `tictactoe`, `nim`",
        ],
    );
    bad(
        "\"alphabeta\"",
        "alphabeta",
        &[
            "exp.toml:9:13:",
            "goes in quotes (\"alphabeta\"); allowed: minimax, negamax, alphabeta, solve",
        ],
    );
    bad(
        "[\"start\"]",
        "[start]",
        &["exp.toml:6:14:", "`start` is no TOML value"],
    );
    bad(
        "depth = 3",
        "depth = 3\nmax_seconds = 1e400",
        &[
            "exp.toml:11:15:",
            "`1e400` is past the largest number a float holds",
            "allowed: a positive, finite number of seconds",
        ],
    );
    // Below a nanosecond, a budget would round to none.
    bad(
        "depth = 3",
        "depth = 3\nmax_seconds = 5e-324",
        &["exp.toml:11:15:", "at least 1e-9 (one nanosecond"],
    );
    bad(
        "[search]",
        "[sëarch]",
        &["exp.toml:8:3:", "allowed: [game], [search], [report]"],
    );
    bad(
        "kind = \"tictactoe\"",
        "kind",
        &[
            "exp.toml:5:5:",
            "`kind` must be followed by `=` (found the line's end)",
        ],
    );
    bad(
        "kind = \"tictactoe\"",
        "kind = \"tictactoe\" extra",
        &[
            "exp.toml:5:20:",
            "`extra` after the value; allowed after a value: a comment",
        ],
    );
    bad(
        "kind = \"tictactoe\"",
        "kind = \"tictactoe",
        &["exp.toml:5:18:", "the text is not closed on its line"],
    );
    bad(
        "kind = \"tictactoe\"",
        "kind = \"tic\u{7}tactoe\"",
        &["exp.toml:5:12:", "control character U+0007", "\\u0007"],
    );
    bad(
        "seed = 1",
        "seed = 1\nseed = 2",
        &[
            "exp.toml:3:1:",
            "`seed` is given twice in its table; allowed: each key or section once",
        ],
    );
    let deep = format!("{}\"natural\"{}", "[".repeat(100), "]".repeat(100));
    bad(
        "\"natural\"",
        &deep,
        &[
            "`ordering`: lists or tables nested deeper",
            "allowed: an ordering",
        ],
    );
    // A carriage return alone (TOML's reader says nothing of it), a key that starts with a
    // character no key holds, and a no-break space after a value: each named, with what is
    // allowed.
    bad(
        "seed = 1",
        "seed = 1\n\rx = 2",
        &[
            "exp.toml:3:1:",
            "a carriage return (`\\r`) not followed by a line feed",
        ],
    );
    for (line, shown) in [
        (".a = 1", "invalid key `.a`"),
        ("\u{a0}a = 1", "`\\u{a0}` (U+00A0) is no key character"),
    ] {
        bad(
            "seed = 1",
            &format!("seed = 1\n{line}"),
            &[
                "exp.toml:3:1:",
                shown,
                "a bare key being ASCII letters, digits",
            ],
        );
    }
    bad(
        "seed = 1",
        "seed = 1\u{a0}",
        &["exp.toml:2:9:", "`\\u{a0}` after the value"],
    );
}

/// A number past its key's type, where the key's range depends on the game: the message the
/// key's range check gives, with the file's number.
#[test]
fn a_number_too_large_for_a_game_key_quotes_the_games_range() {
    let tictactoe = "kind = \"tictactoe\"\npositions = [\"start\"]";
    let big = "99999999999999999999";
    for (game, expect) in [
        (
            format!("kind = \"uniform\"\nbranching = {big}\nheight = 3"),
            "exp.toml:6:13: [game] branching = 99999999999999999999: a uniform tree needs a branching factor b from 2 to 1024".to_string(),
        ),
        (
            format!("kind = \"uniform\"\nbranching = 3\nheight = [2, {big}]"),
            "exp.toml:7:14: [game] height = 99999999999999999999: a uniform tree needs a height d (the depth of its leaves) from 1 to 64".to_string(),
        ),
        (
            format!("kind = \"uniform\"\nbranching = 3\nheight = 3\nvalues = \"integer\"\nrange = [0, {big}]"),
            "exp.toml:9:13: [game] range must be [lo, hi] with lo <= hi, both within -1000000..1000000".to_string(),
        ),
        (
            format!("kind = \"connect4\"\npositions = [\"start\"]\nwidth = {big}"),
            "exp.toml:7:9: [game] width/height: board 99999999999999999999x6".to_string(),
        ),
        // Too small, and two numbers past every type (each named as written).
        (
            format!("kind = \"uniform\"\nbranching = -{big}\nheight = 3"),
            "exp.toml:6:13: [game] branching = -99999999999999999999: a uniform tree needs a branching factor b from 2 to 1024".to_string(),
        ),
        (
            format!("kind = \"connect4\"\npositions = [\"start\"]\nwidth = {big}\nheight = 88888888888888888888"),
            "exp.toml:7:9: [game] width/height: board 99999999999999999999x88888888888888888888: width × (height + 1) must be at most 64".to_string(),
        ),
    ] {
        let err = bad(tictactoe, &game, &[&expect]);
        assert!(!err.contains("README's Limits"), "{err}");
    }
    bad(
        "depth = 3",
        &format!("depth = {{ from = 1, to = {big} }}"),
        &["exp.toml:10:26: depth 99999999999999999999 is out of range; allowed: a whole number of plies from 1 to 10000"],
    );
}

/// report.md shows the description as written: a control character in it is refused.
#[test]
fn a_control_character_in_the_description_is_refused() {
    bad(
        "name = \"t\"",
        "description = \"bell \\u0007 here\"\nname = \"t\"",
        &[
            // At the text, not the key.
            "exp.toml:1:15:",
            "description",
            "U+0007",
            "allowed: printable text, tabs and line breaks",
        ],
    );
    bad(
        "name = \"t\"",
        "description = \"abc \\u202E fed\"\nname = \"t\"",
        &["exp.toml:1:15:", "U+202E"],
    );
    // Tabs and line breaks are text.
    let tmp = good_run(&GOOD.replacen(
        "seed = 1",
        "seed = 1\ndescription = \"\"\"\nTwo lines,\n\tone indented.\"\"\"",
        1,
    ));
    let report = std::fs::read_to_string(tmp.path().join("out/report.md")).unwrap();
    assert!(report.contains("Two lines,\n\tone indented."), "{report}");
}

/// Type errors name the key and say what is allowed in the words of the file, not serde's
/// type names.
#[test]
fn type_errors_name_the_key_in_plain_words() {
    bad(
        "kind = \"tictactoe\"",
        "kind = 1",
        &[
            "exp.toml:5:",
            "`kind`",
            "allowed: tictactoe, nim, chess, uniform, connect4",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\ntt = 5",
        &["exp.toml:12:", "`tt`", "expected a table"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\niterative = \"yes\"",
        &[
            "exp.toml:12:",
            "`iterative`",
            "expected a boolean; allowed: true or false, without quotes",
        ],
    );
    bad(
        "positions = [\"start\"]",
        "positions = \"4,0\"",
        &[
            "exp.toml:6:13: `positions`: invalid type: string \"4,0\", expected a sequence; allowed: a list in brackets, e.g. positions = [\"4,0\", \"start\"]",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\nlabels = [\"a\"]",
        &[
            "exp.toml:13:10: `labels`: invalid type: sequence, expected a map; allowed: a table in braces, e.g. labels = { natural = \"plain order\" }",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\nquiescence = [{ enabled = true }]",
        &[
            "exp.toml:12:",
            "`quiescence`",
            "one table whose values may be lists",
        ],
    );
    // A number or a boolean where a name goes lists the names, as an unknown name does.
    bad(
        "algorithm = \"alphabeta\"",
        "algorithm = 5",
        &[
            "exp.toml:9:13:",
            "`algorithm`",
            "allowed: minimax, negamax, alphabeta, solve",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\ntie_break = [\"first\", true]",
        &["exp.toml:12:23:", "`tie_break`", "allowed: first, random"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\nx_scale = 3",
        &[
            "exp.toml:13:11:",
            "`x_scale`",
            "allowed: `linear`, `log`, `category`",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\ntheory = \"pearl\"",
        &[
            "exp.toml:13:10:",
            "`theory`",
            "a list of names in quotes; allowed: `full-tree`, `knuth-moore`, `pearl`",
        ],
    );
    // No serde type name is left in these messages.
    for (from, to) in [
        ("kind = \"tictactoe\"", "kind = 1"),
        ("depth = 3", "depth = 3\ntt = 5"),
        ("depth = 3", "depth = 3\nrepetitions = \"two\""),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("exp.toml");
        std::fs::write(&file, GOOD.replacen(from, to, 1)).unwrap();
        let out = harness()
            .args(["run", "--quiet"])
            .arg(&file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        for word in ["struct", "GameKind", "Section", "i64", "u32"] {
            assert!(!err.contains(word), "{to}: {err}");
        }
    }
}

/// A reader that stops early (`harness theory ... | head -1`) ends the command quietly with
/// status 0, not with a panic about a broken pipe (exit 101).
#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    // About 800 KB of output: far more than a pipe holds, so the writer meets the closed end.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["theory", "-b", "2..100", "-d", "1..100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here: the pipe is closed.
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// An experiment of 210 uniform-tree searches: long enough (a second or two on one thread) to
/// be killed part way.
const LONG: &str = r#"
name = "resume"
seed = 5
[game]
kind = "uniform"
branching = 8
height = 6
trees = 30
[search]
algorithm = "alphabeta"
depth = "full"
ordering = ["random", "natural", "strong:0.5:0.5"]
repetitions = 3
"#;

/// A folder holding the LONG experiment as exp.toml: (the folder, the file, its `out` folder).
fn long_experiment() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, LONG).unwrap();
    let out = tmp.path().join("out");
    (tmp, file, out)
}

/// `harness run FILE --out OUT` with `extra` arguments, asserted by the caller.
fn run_into(file: &Path, out: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    harness()
        .args(["run", "--out"])
        .arg(out)
        .args(extra)
        .arg(file)
        .assert()
}

/// Starts `harness run FILE --out OUT --jobs 1` and kills it (SIGKILL) once it has finished at
/// least `runs` runs; returns the partial file's bytes.
fn kill_after(file: &Path, out: &Path, runs: usize) -> Vec<u8> {
    let mut child = start_until(file, out, runs);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!out.join("runs.csv").exists());
    std::fs::read(out.join("runs.csv.partial")).unwrap()
}

/// A folder takes one run at a time: a second run into it is refused (exit 2) while the first
/// holds it, and the lock goes with the first run's process, so a rerun after a kill resumes.
#[test]
fn a_folder_takes_one_run_at_a_time() {
    let (_tmp, file, out) = long_experiment();
    let mut first = start_until(&file, &out, 3);
    let second = run_into(&file, &out, &["--quiet"]).code(2);
    let err = String::from_utf8_lossy(&second.get_output().stderr).to_string();
    assert!(
        err.contains("another `harness run` (or a `harness merge` or `harness plot`) is writing into this folder"),
        "{err}"
    );
    first.kill().unwrap();
    first.wait().unwrap();
    let again = run_into(&file, &out, &["--quiet"]).success();
    let stdout = String::from_utf8_lossy(&again.get_output().stdout).to_string();
    assert!(stdout.contains(" resumed) -> "), "{stdout}");
}

/// A killed run keeps what it finished, and rerunning the same file resumes: only the runs
/// left are searched, and runs.csv equals an uninterrupted run's but for the time columns,
/// even with the partial file's last line cut short by the kill.
#[test]
fn a_killed_run_resumes_where_it_stopped() {
    let (tmp, file, out) = long_experiment();
    let whole = tmp.path().join("whole");
    run_into(&file, &whole, &["--quiet"]).success();
    let bytes = kill_after(&file, &out, 20);
    // A kill in the middle of a line: the cut run is searched again.
    let cut = &bytes[..bytes.len() - 40];
    std::fs::write(out.join("runs.csv.partial"), cut).unwrap();
    // A finished line whose depth was edited by hand is no run of this file: refused, and
    // the file left as it is.
    let text = String::from_utf8_lossy(cut).to_string();
    let line = text.lines().nth(1).unwrap();
    let at = line.find("\"depth\":").unwrap() + "\"depth\":".len();
    let end = at + line[at..].find(',').unwrap();
    let edited = text.replacen(line, &format!("{}99{}", &line[..at], &line[end..]), 1);
    std::fs::write(out.join("runs.csv.partial"), &edited).unwrap();
    let refused = run_into(&file, &out, &["--quiet"]).code(2);
    says(
        &String::from_utf8_lossy(&refused.get_output().stderr),
        &[
            "runs.csv.partial: holds run",
            "at depth 99 and theory_depth",
            "pass --fresh",
        ],
        &[],
    );
    assert_eq!(
        std::fs::read_to_string(out.join("runs.csv.partial")).unwrap(),
        edited
    );
    // A finished line with a control character in its line of moves (escaped in JSON, so it
    // parses), which harness never writes and the report would refuse: searched again, so
    // runs.csv gets the run as harness writes it.
    let bell = text.replacen("\"pv\":\"", "\"pv\":\"\\u0007", 1);
    assert_ne!(bell, text);
    std::fs::write(out.join("runs.csv.partial"), &bell).unwrap();
    let whole_lines = cut.iter().filter(|&&c| c == b'\n').count() - 2;
    let done = run_into(&file, &out, &["--jobs", "2"]).success();
    let stderr = String::from_utf8_lossy(&done.get_output().stderr).to_string();
    let stdout = String::from_utf8_lossy(&done.get_output().stdout).to_string();
    let resumed = format!("resuming: {whole_lines} of 210 runs");
    assert!(stderr.contains(&resumed), "{stderr}");
    assert!(
        stdout.contains(&format!(
            "210 runs (0 stopped by a budget, {whole_lines} resumed)"
        )),
        "{stdout}"
    );
    assert_eq!(
        counters_only(&out.join("runs.csv")),
        counters_only(&whole.join("runs.csv"))
    );
    assert!(!out.join("runs.csv.partial").exists());
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains(&format!("\"resumed\": {whole_lines}")));
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains(&format!("| resumed | {whole_lines} runs taken from")));
    assert!(!std::fs::read_to_string(whole.join("manifest.json"))
        .unwrap()
        .contains("resumed"));
}

/// A merge into a folder holding an interrupted run's finished runs of other runs (another
/// seed) is refused as that run's rerun is (exit 2), the partial file and the experiment copy
/// left as they were, until --fresh.
#[test]
fn a_merge_keeps_an_interrupted_runs_partial_file() {
    let (tmp, file, out) = long_experiment();
    let bytes = kill_after(&file, &out, 5);
    let copy = std::fs::read(out.join("experiment.toml")).unwrap();
    std::fs::write(&file, LONG.replace("seed = 5", "seed = 6")).unwrap();
    let shard = tmp.path().join("shard");
    run_into(&file, &shard, &["--quiet", "--shard", "1/1"]).success();
    let merge = |extra: &[&str]| {
        harness()
            .arg("merge")
            .arg(&file)
            .arg(&shard)
            .arg("--out")
            .arg(&out)
            .args(extra)
            .assert()
    };
    let refused = merge(&[]).code(2);
    let err = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    for part in [
        "runs.csv.partial: holds",
        "written for other runs",
        "pass --fresh to discard them and merge",
    ] {
        assert!(err.contains(part), "{err}");
    }
    assert_eq!(std::fs::read(out.join("runs.csv.partial")).unwrap(), bytes);
    assert_eq!(std::fs::read(out.join("experiment.toml")).unwrap(), copy);
    merge(&["--fresh"]).success();
    assert!(!out.join("runs.csv.partial").exists());
    assert!(out.join("runs.csv").exists());
}

/// The finished runs of other runs (here: another seed) are neither mixed in nor thrown away:
/// the rerun is refused (exit 2) and leaves the partial file as it was, until --fresh. A
/// comment added to the file changes no run, and the rerun resumes.
#[test]
fn runs_of_another_file_are_not_resumed_but_kept() {
    let (_tmp, file, out) = long_experiment();
    let run = |extra: &[&str]| run_into(&file, &out, &[&["--quiet"], extra].concat());
    let bytes = kill_after(&file, &out, 5);
    std::fs::write(&file, LONG.replace("seed = 5", "seed = 6")).unwrap();
    let refused = run(&[]).code(2);
    let err = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    for part in [
        "runs.csv.partial: holds",
        "written for other runs",
        "experiment.toml",
        "--fresh",
    ] {
        assert!(err.contains(part), "{err}");
    }
    assert_eq!(std::fs::read(out.join("runs.csv.partial")).unwrap(), bytes);
    let fresh = run(&["--fresh"]).success();
    let stdout = String::from_utf8_lossy(&fresh.get_output().stdout).to_string();
    assert!(
        stdout.contains("210 runs (0 stopped by a budget)"),
        "{stdout}"
    );
    assert!(!out.join("runs.csv.partial").exists());
    // A comment is no change to the runs.
    std::fs::write(&file, LONG).unwrap();
    std::fs::remove_file(out.join("runs.csv")).unwrap();
    kill_after(&file, &out, 5);
    std::fs::write(&file, format!("# a note\n{LONG}")).unwrap();
    let resumed = run(&[]).success();
    let stdout = String::from_utf8_lossy(&resumed.get_output().stdout).to_string();
    assert!(stdout.contains(" resumed) -> "), "{stdout}");
}

/// A chart cannot show a control character, and SVG may not hold one: `[report]` texts with
/// one are refused at their value (a title with U+0007 once wrote three unreadable SVGs).
#[test]
fn report_texts_with_control_characters_are_refused() {
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\ntitle = \"bell\\u0007x\"",
        &["exp.toml:13:9: [report] title", "U+0007", "printable text"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report.labels]\nnatural = \"a\\u0001b\"",
        &["exp.toml:13:11: [report] labels", "U+0001"],
    );
    // Characters that steer the line instead of printing: a line separator, a
    // right-to-left override (which would draw the rest of the title backwards).
    for (c, code) in [("\\u2028", "U+2028"), ("\\u202E", "U+202E")] {
        bad(
            "ordering = \"natural\"",
            &format!("ordering = \"natural\"\n[report]\ntitle = \"ab{c}c\""),
            &[
                "exp.toml:13:9: [report] title",
                &format!("holds the line-steering character {code}, which a chart cannot show"),
            ],
        );
    }
    // One entry of an inline table: placed at that entry's value.
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\ntitles = { nodes = \"ok\", ebf = \"a\\u0007\" }",
        &["exp.toml:13:32: [report] titles", "U+0007"],
    );
    // A title of no text (a label of no text is refused by the labels' checks).
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\ntitle = \" \"",
        &["exp.toml:13:9: [report] title", "has no text to draw"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\ntitles = { nodes = \"ok\", ebf = \"\" }",
        &[
            "exp.toml:13:32: [report] titles `ebf`",
            "has no text to draw",
        ],
    );
    // Zero-width spaces draw nothing either.
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\ntitle = \"\\u200b\\u200b\"",
        &["exp.toml:13:9: [report] title", "has no text to draw"],
    );
}

/// `solve` options that do not apply are refused, not ignored, and a benchmark score no
/// position could have is bad input (exit 2 before anything is solved), not a wrong answer.
#[test]
fn solve_refuses_board_sizes_of_other_games_and_impossible_scores() {
    let tmp = tempfile::tempdir().unwrap();
    let ttt = tmp.path().join("t.txt");
    std::fs::write(&ttt, "4,0\n").unwrap();
    let err = solve_refuses(&["--game", "tictactoe", "--width", "5"], &ttt);
    assert!(
        err.contains("--width/--height set the Connect Four board"),
        "{err}"
    );
    let c4 = tmp.path().join("c4.txt");
    // After 4 moves on 7x6 a score lies from -18 to 18 (no four before the fourth stone).
    std::fs::write(&c4, "4453 2\n4453 99\n").unwrap();
    let err = solve_refuses(&["--game", "connect4"], &c4);
    assert!(
        err.contains("c4.txt:2")
            && err.contains("score 99 cannot be this position's: after 4 moves on 7x6 a score lies from -18 to 18"),
        "{err}"
    );
    std::fs::write(
        &c4, "4 99
",
    )
    .unwrap();
    let err = solve_refuses(&["--game", "connect4"], &c4);
    assert!(err.contains("after 1 move on 7x6 a score lies"), "{err}");
}

/// A byte-order mark before the first line is no part of it, in an experiment, a positions
/// file and a `solve` file alike; bytes that are not UTF-8 are refused naming their line.
#[test]
fn a_byte_order_mark_is_skipped_and_bytes_not_utf8_name_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    let positions = tmp.path().join("heaps.txt");
    std::fs::write(&positions, "\u{feff}1,2\n3\n").unwrap();
    let text = format!(
        "\u{feff}name = \"b\"\n[game]\nkind = \"nim\"\npositions_file = {:?}\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n",
        positions.display().to_string()
    );
    let run = good_run(&text);
    let csv = std::fs::read_to_string(run.path().join("out/runs.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.lines().nth(1).unwrap().contains(",\"1,2\","), "{csv}");
    let solve_file = tmp.path().join("c4.txt");
    std::fs::write(&solve_file, "\u{feff}4444443\n").unwrap();
    let out = harness()
        .args(["solve", "--game", "connect4"])
        .arg(&solve_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(&positions, b"1,2\n3\n4,\xff5\n").unwrap();
    bad_text(
        &text,
        &[
            "heaps.txt",
            "line 3 is not UTF-8 text (byte 0xFF at offset 8)",
        ],
    );
    // The offset counts the file's bytes, a byte-order mark included.
    std::fs::write(&positions, b"\xEF\xBB\xBF1,2\n3\n4,\xff5\n").unwrap();
    bad_text(
        &text,
        &["line 3 is not UTF-8 text (byte 0xFF at offset 11)"],
    );
}

/// The solver records no killers or history, and `tt` needs its table: such orderings would
/// order nothing, so they are refused at the `ordering` key, as in `harness solve`.
#[test]
fn orderings_the_solver_cannot_follow_are_refused() {
    let text = |ordering: &str, solver: &str| {
        format!("name = \"s\"\n[game]\nkind = \"tictactoe\"\npositions = [\"x.o.x....\"]\n[search]\nalgorithm = \"solve\"\nordering = \"{ordering}\"\nsolver = \"{solver}\"\n")
    };
    bad_text(
        &text("killer+static", "all"),
        &[
            "exp.toml:7:1: `ordering`",
            "the solver records no killer moves",
        ],
    );
    bad_text(
        &text("tt+static", "null-window+win-check"),
        &[
            "exp.toml:7:1",
            "no run has one; add `tt` to the solver's techniques",
        ],
    );
    good_run(&text("tt+static", "all"));
    // Beside runs that use the terms, solve runs ignore them: a comparison, not a mistake
    // (a with/without-tt ablation; alpha-beta with killers beside the solver).
    let mixed = |ordering: &str, extra: &str| {
        text(ordering, "all").replace(
            "algorithm = \"solve\"",
            &format!("algorithm = [\"alphabeta\", \"solve\"]\ndepth = \"full\"{extra}"),
        )
    };
    good_run(&mixed("killer+static", ""));
    // Beside minimax, which makes no cutoffs, nothing learns them either.
    for ordering in ["killer+static", "history"] {
        bad_text(
            &text(ordering, "all").replace(
                "algorithm = \"solve\"",
                "algorithm = [\"minimax\", \"solve\"]\ndepth = \"full\"",
            ),
            &[
                "exp.toml:8:1: `ordering`: the term `",
                "no alpha-beta or pvs run uses it",
            ],
        );
    }
    good_run(&text("tt+static", "all").replace(
        "solver = \"all\"",
        "solver = [\"all\", \"null-window+win-check\"]",
    ));
    // A depth in plies with only the solver would be ignored.
    bad_text(
        &format!("{}depth = 3\n", text("static", "all")),
        &["exp.toml:9:9: `depth`: algorithm \"solve\" always searches to the end"],
    );
    good_run(&format!("{}depth = \"full\"\n", text("static", "all")));
}

/// A solve that proves another score than the positions file gives is reported on stderr
/// (the run still succeeds: with few key bits that is the finding), and runs.csv has both.
#[test]
fn solve_runs_scoring_other_than_expected_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("pos.txt"), "445566 17\n4455 18\n").unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(
        &file,
        "name = \"w\"\n[game]\nkind = \"connect4\"\npositions_file = \"pos.txt\"\n[search]\nalgorithm = \"solve\"\nordering = \"center-out\"\n",
    )
    .unwrap();
    let out = run_file(&file, &tmp.path().join("out"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: w: 1 finished solve run(s) proved a score other than"),
        "{err}"
    );
    let csv = std::fs::read_to_string(tmp.path().join("out/runs.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let head = rows.headers().unwrap().clone();
    let col =
        |r: &csv::StringRecord, c: &str| r[head.iter().position(|h| h == c).unwrap()].to_string();
    let pairs: Vec<(String, String)> = rows
        .records()
        .map(|r| r.unwrap())
        .map(|r| (col(&r, "score"), col(&r, "expected")))
        .collect();
    assert_eq!(
        pairs,
        [("18".into(), "17".into()), ("18".into(), "18".into())]
    );
}

/// A position listed twice (here also in another spelling, or as another Connect Four move
/// order to the same board) is searched under each of its `position_id`s and weighs more in
/// the statistics: the run warns, naming the ids, and still runs; distinct positions draw no
/// warning.
#[test]
fn a_position_listed_twice_is_warned_about() {
    let run = |kind: &str, positions: &str| {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("exp.toml");
        let text = format!(
            "name = \"dup\"\n[game]\nkind = \"{kind}\"\npositions = [{positions}]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n"
        );
        std::fs::write(&file, text).unwrap();
        let out = run_file(&file, &tmp.path().join("out"));
        assert!(out.status.success());
        let rows = std::fs::read_to_string(tmp.path().join("out/runs.csv"))
            .unwrap()
            .lines()
            .count();
        (String::from_utf8(out.stderr).unwrap(), rows)
    };
    let (err, rows) = run("tictactoe", "\"x........\", \"start\", \"X........\"");
    assert_eq!(rows, 4, "a header and three runs");
    assert!(
        err.contains("warning: dup: 1 position(s) searched under more than one position_id")
            && err.contains("`x........` is position_id 0, 2 (tictactoe scale=win-loss)"),
        "{err}"
    );
    let (err, _) = run("tictactoe", "\"x........\", \"start\"");
    assert!(!err.contains("warning"), "{err}");
    // Connect Four: two move orders to one board are one position.
    let (err, _) = run("connect4", "\"4455\", \"5544\", \"45\"");
    assert!(
        err.contains("1 position(s)")
            && err.contains(
                "position_id 0 `4455`, 1 `5544` are one position (connect4 width=7 height=6)"
            ),
        "{err}"
    );
    // One position listed 12 times: the first 8 ids, and how many more.
    let (err, rows) = run("nim", &["\"1,2\""; 12].join(", "));
    assert_eq!(rows, 13, "a header and twelve runs");
    assert!(
        err.contains("`1,2` is position_id 0, 1, 2, 3, 4, 5, 6, 7 and 4 more (nim misere=false)\n"),
        "{err}"
    );
}

/// `--out` into a folder that holds files a run would replace, but is not a results folder of
/// the experiment (the user's own files; another experiment's results): exit 2, every file
/// left as it was. A rerun of the same experiment replaces its own results.
#[test]
fn a_run_refuses_a_folder_it_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let file = |name: &str| {
        let f = tmp.path().join(format!("{name}.toml"));
        std::fs::write(
            &f,
            format!("name = \"{name}\"\n[game]\nkind = \"tictactoe\"\npositions = [\"4,0\"]\n[search]\nalgorithm = \"minimax\"\ndepth = 1\n"),
        )
        .unwrap();
        f
    };
    let own = tmp.path().join("mine");
    std::fs::create_dir_all(own.join("charts")).unwrap();
    std::fs::write(own.join("report.md"), "my notes").unwrap();
    std::fs::write(own.join("charts/figure1.png"), "png").unwrap();
    let out = run_file(&file("u"), &own);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("report.md, charts/figure1.png but no manifest.json") && err.contains("--out"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(own.join("report.md")).unwrap(),
        "my notes"
    );
    assert!(own.join("charts/figure1.png").exists() && !own.join("runs.csv").exists());
    // Another experiment's results.
    let theirs = tmp.path().join("theirs");
    assert!(run_file(&file("a"), &theirs).status.success());
    let before = std::fs::read(theirs.join("runs.csv")).unwrap();
    let out = run_file(&file("b"), &theirs);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("the results of experiment `a`"), "{err}");
    assert_eq!(std::fs::read(theirs.join("runs.csv")).unwrap(), before);
    // The same experiment again: its results are replaced.
    assert!(run_file(&file("a"), &theirs).status.success());
}

/// A float where a whole number goes: what the key allows is said once (serde's "expected"
/// already says it for depth), and a float of many digits is shown short.
#[test]
fn floats_for_whole_numbers_say_what_is_allowed_once() {
    let exp = |depth: &str| {
        format!("name = \"d\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"minimax\"\ndepth = {depth}\n")
    };
    for (depth, shown) in [
        ("2.0", "`2.0`"),
        ("1e308", "`1e308`"),
        ("-1e300", "`-1e300`"),
    ] {
        let e = bad_text(
            &exp(depth),
            &[
                "exp.toml:6:9",
                "`depth`",
                &format!("floating point {shown}"),
                "a whole number of plies from 1 to 10000",
            ],
        );
        assert_eq!(e.matches("a whole number of plies").count(), 1, "{e}");
        assert!(e.len() < 300, "{e}");
    }
    // Also where the key's own message says what it allows (it showed all 309 digits).
    for (key, after) in [("seed", "name = \"d\""), ("max_nodes", "depth = 1")] {
        let text = exp("1").replacen(after, &format!("{after}\n{key} = 1e308"), 1);
        let e = bad_text(
            &text,
            &[&format!("`{key}`"), "floating point `1e308`", "allowed"],
        );
        assert!(e.len() < 300, "{e}");
    }
}

/// A date-time, a dotted key on a key that takes a value, and a table where a name goes:
/// messages that name the key and what it takes, in the experiment's words (serde's own name
/// the private key of TOML date-times, or a "map", and no key).
#[test]
fn date_times_dotted_keys_and_tables_name_the_key() {
    let exp = |game: &str, search: &str| {
        format!("name = \"d\"\n[game]\nkind = \"tictactoe\"\n{game}\n[search]\nalgorithm = \"minimax\"\n{search}\n")
    };
    let e = bad_text(
        &exp("", "depth = 07:32:00"),
        &[
            "exp.toml:7:9",
            "`depth`",
            "a date-time `07:32:00`",
            "expected a whole number of plies",
        ],
    );
    assert!(!e.contains("$__toml"), "{e}");
    bad_text(
        &format!("seed = 1979-05-27T07:32:00Z\n{}", exp("", "depth = 1")),
        &[
            "exp.toml:1:8",
            "`seed`",
            "a date-time `1979-05-27T07:32:00Z`",
            "allowed: a whole number from 0 to 9223372036854775807",
        ],
    );
    bad_text(
        &exp("", "depth = 1\niterative = 1979-05-27 07:32:00"),
        &[
            "exp.toml:8:13",
            "`iterative`",
            "a date-time `1979-05-27 07:32:00`",
        ],
    );
    bad_text(
        &exp("", "depth = 1").replace("kind = \"tictactoe\"", "kind.x = \"tictactoe\""),
        &[
            "exp.toml:3:1",
            "`kind.x`",
            "makes `kind` a table",
            "write `kind = ...`",
        ],
    );
    // A key that looks like a date is a key; a dotted key into a real table gets its value's
    // message; a deeper dotted key names all but its last part.
    bad_text(
        &exp("", "depth = 1\n2024-01 = 5"),
        &["unknown key `2024-01`"],
    );
    bad_text(
        &format!("{}[report]\nlabels.foo = 3\n", exp("", "depth = 1")),
        &["`labels.foo`: invalid type: integer `3`, expected a string"],
    );
    bad_text(
        &exp("", "depth = 1\ntt.enabled.x = 1").replace("minimax", "alphabeta"),
        &["`tt.enabled.x`: a dotted key makes `tt.enabled` a table"],
    );
    bad_text(
        &exp("", "depth = 1").replace("kind = \"tictactoe\"", "kind = { a = 1 }"),
        &["`kind` takes a name in quotes, not a table", "`tictactoe`"],
    );
    // An empty table, a list holding a non-name, a quoted dotted part: named, with what
    // `kind` takes.
    for kind in ["kind = {}", "kind = [1]", "kind = [\"nim\", {}]"] {
        bad_text(
            &exp("", "depth = 1").replace("kind = \"tictactoe\"", kind),
            &[
                "`kind` takes a game name in quotes, or a list of them",
                "allowed: tictactoe, nim",
            ],
        );
    }
    bad_text(
        &exp("", "depth = 1").replace("kind = \"tictactoe\"", "kind.\"x\" = 1"),
        &["`kind.\"x\"`: a dotted key makes `kind` a table"],
    );
    // A table header whose last part takes a value: named at the header, with what it takes
    // (serde's words named no key, and for `charts` listed the file's top-level keys).
    for (header, expect) in [
        ("report.x", "`x` takes a value (a string): write `x = ...` under [report]"),
        ("report.charts", "`charts` takes a value (a list): write `charts = ...` under [report]"),
        (
            "search.tt.key_bits",
            "`key_bits` takes a value (allowed: a whole number from 8 to 64): write `key_bits = ...` under [search.tt]",
        ),
    ] {
        let err = bad_text(
            &format!("{}[report]\n[{header}]\nfoo = 1\n", exp("", "depth = 1")),
            &[
                "exp.toml:9:1",
                &format!("`[{header}]`: a table header makes"),
                expect,
            ],
        );
        assert!(!err.contains("allowed: `name`"), "{err}");
    }
    // A key given twice inside an inline table: at its second time, not at the table's brace
    // (a key of the same name in a list or table inside it does not count).
    let search =
        "depth = 1\ntt = { enabled = true, key_bits = [8, 16], \"entries\" = 16, entries = 32 }";
    bad_text(
        &exp("", search).replace("minimax", "alphabeta"),
        &["exp.toml:8:60", "`entries` is given twice in its table"],
    );
    bad_text(
        &exp("", "depth = 1\ntt = { enabled = true,\n  entries = 16 }")
            .replace("minimax", "alphabeta"),
        &["an inline table `{ ... }` closes on the line it opens"],
    );
}

/// Only Connect Four lines carry a score: a tic-tac-toe or Nim line that ends in one is
/// refused with a message that says so.
#[test]
fn a_score_on_a_line_of_another_game_is_explained() {
    let tmp = tempfile::tempdir().unwrap();
    for (game, line) in [("tictactoe", "x.o.x.... 0"), ("nim", "3,4,5 1")] {
        let f = tmp.path().join(format!("{game}.txt"));
        std::fs::write(&f, format!("{line}\n")).unwrap();
        let err = solve_refuses(&["--game", game], &f);
        assert!(
            err.contains(&format!("{game}.txt:1"))
                && err.contains("only Connect Four lines carry a score"),
            "{err}"
        );
    }
}

/// A failed append to runs.csv.partial (here a file-size limit, as a full disk would) is
/// reported once on stderr, also with --quiet, and the run goes on.
#[cfg(unix)]
#[test]
fn a_failed_append_to_the_partial_file_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    // 16 runs: the file, its copy and the manifest fit in 2 KiB; the partial file does not.
    let exp = tmp.path().join("exp.toml");
    std::fs::write(
        &exp,
        "name = \"t\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = [1, 2, 3, 4]\nordering = [\"natural\", \"static\"]\n",
    )
    .unwrap();
    let bin = assert_cmd::cargo::cargo_bin("harness");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 2; exec \"$0\" run --quiet --jobs 1 --out \"$1\" \"$2\"")
        .arg(&bin)
        .arg(tmp.path().join("out"))
        .arg(&exp)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.matches("cannot append to").count(),
        1,
        "one warning: {err}"
    );
    assert!(
        err.contains("runs.csv.partial") && err.contains("the run goes on"),
        "{err}"
    );
    // runs.csv (over the limit too) fails as a write error, not a panic.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The solver's budget, oracle visits included, is per position: a position stopped by it
/// leaves the next one its whole budget.
#[test]
fn an_oracle_budget_is_per_position_in_solve() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("two.txt");
    std::fs::write(&f, ".........\nxo..x.o..\n").unwrap();
    let out = harness()
        .args([
            "solve",
            "--game",
            "tictactoe",
            "--ordering",
            "oracle-best",
            "--max-nodes",
            "300",
        ])
        .arg(&f)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    // The empty board stops (score empty); the second position is solved: 5 in 36 nodes.
    assert_eq!((rows[0][0], rows[0][1]), (".........", ""), "{stdout}");
    assert_eq!(
        (rows[1][0], rows[1][1], rows[1][3]),
        ("xo..x.o..", "5", "36"),
        "{stdout}"
    );
    assert!(
        err.contains("stopped by --max-nodes 300") && err.contains("line(s) 1\n"),
        "{err}"
    );
}

/// `harness solve` gives each position the oracle of its own depth, an empty memo and fresh
/// random numbers: a Nim position's nodes and its budget do not depend on the lines above it
/// (the oracle once kept the first position's depth and the memo of earlier positions, and
/// the random numbers ran on).
#[test]
fn solve_oracle_orderings_do_not_depend_on_earlier_positions() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("nim.txt");
    std::fs::write(&f, "1,1\n3,4,5\n3,4,5\n").unwrap();
    let alone = tmp.path().join("alone.txt");
    std::fs::write(&alone, "3,4,5\n").unwrap();
    let solve_file = |f: &Path, ordering: &str, budget: Option<&str>| {
        let mut cmd = harness();
        cmd.args(["solve", "--game", "nim", "--ordering", ordering]);
        if let Some(b) = budget {
            cmd.args(["--max-nodes", b]);
        }
        let out = cmd.arg(f).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // position, score, expected, nodes (the time left out).
        csv::Reader::from_reader(&out.stdout[..])
            .records()
            .map(|r| {
                r.unwrap()
                    .iter()
                    .take(4)
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    let solve = |ordering: &str, budget: Option<&str>| solve_file(&f, ordering, budget);
    // 3,4,5 after other positions takes the nodes it takes alone (the two oracles order
    // differently, so a leak of either's state would show).
    for ordering in ["oracle-best", "oracle-worst"] {
        let nodes = solve_file(&alone, ordering, None)[0][3].clone();
        let rows = solve(ordering, None);
        assert_eq!(
            (rows[1][3].as_str(), rows[2][3].as_str()),
            (nodes.as_str(), nodes.as_str()),
            "{rows:?}"
        );
    }
    // Random numbers restart at each position: the same position, the same solve.
    for ordering in ["random", "strong:0.7:0.9"] {
        let rows = solve(ordering, None);
        assert_eq!(rows[1][3], rows[2][3], "{ordering}: {rows:?}");
    }
    // The same position under the same budget ends the same way both times.
    let rows = solve("oracle-best", Some("30000"));
    assert_eq!(rows[1], rows[2], "{rows:?}");
    assert_eq!(rows[1][1], "", "stopped: {rows:?}");
}

/// Runs `harness ARGS` and returns (exit code, stderr).
fn status_and_err(args: &[&str]) -> (Option<i32>, String) {
    let out = harness().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `harness solve` refuses, as `harness run` does for its solve runs, a position the game can
/// last more than 255 plies from when the solver's table is in use (its entries hold the
/// remaining depth in a byte), naming the line; without `tt` it searches.
#[test]
fn solve_refuses_positions_past_the_tables_depth() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("nim.txt");
    // 8 heaps of 63: 504 plies at most; the first line lasts 6.
    std::fs::write(&f, "1,2,3\n63,63,63,63,63,63,63,63\n").unwrap();
    let f = f.to_str().unwrap();
    let (code, err) = status_and_err(&["solve", "--game", "nim", f, "--max-nodes", "1000"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("nim.txt:2: the game can last 504 more plies")
            && err.contains(
                "allowed: a position the game ends within 255 plies of, or a --solver without `tt`"
            ),
        "{err}"
    );
    let out = harness()
        .args(["solve", "--game", "nim", f, "--max-nodes", "1000"])
        .args(["--solver", "null-window+win-check+non-losing+bounds"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(csv.contains("\"63,63,63,63,63,63,63,63\",,,1000,"), "{csv}");
}

/// `harness solve` checks an explicit ordering against every position, naming the line (it
/// once checked the first position only), and move lists with an empty item are refused.
#[test]
fn solve_checks_every_line_and_refuses_empty_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("nim.txt");
    std::fs::write(&f, "10,10\n3,4,5\n").unwrap();
    let f = f.to_str().unwrap();
    let (code, err) = status_and_err(&["solve", "--game", "nim", f, "--ordering", "explicit:1:9"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "nim.txt:2: --ordering: explicit ordering: Nim move `1:9` does not fit the heaps 3,4,5"
        ),
        "{err}"
    );
    for line in [",", "4,,0", "4,0,"] {
        let t = tmp.path().join("ttt.txt");
        std::fs::write(&t, format!("{line}\n")).unwrap();
        let (code, err) = status_and_err(&["solve", "--game", "tictactoe", t.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{line}: {err}");
        assert!(err.contains("has an empty move between commas"), "{err}");
    }
    // A line of a million moves is quoted by its head and its length.
    let c = tmp.path().join("c4.txt");
    std::fs::write(&c, "4".repeat(1_000_000)).unwrap();
    let (code, err) = status_and_err(&["solve", "--game", "connect4", c.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.len() < 300 && err.contains("... (1000000 characters)"),
        "{err}"
    );
}

/// Number options say what they allow, for a sign, an exponent or a value out of range.
#[test]
fn number_options_say_what_is_allowed() {
    for (args, allowed) in [
        (
            &["run", "x.toml", "--jobs", "-1"][..],
            "allowed: a whole number from 0 to 1024",
        ),
        (
            &["solve", "--game", "nim", "x", "--max-nodes=-5"][..],
            "allowed: a whole number from 1",
        ),
        (
            &["solve", "--game", "nim", "x", "--mib", "1e30"][..],
            "allowed: a power of two from 1 (MiB)",
        ),
        (
            &["perft", "--depth", "-1"][..],
            "allowed: a whole number from 0 to 20",
        ),
        (
            &["perft", "--depth", "21"][..],
            "allowed: a whole number from 0 to 20",
        ),
        (
            &["theory", "-b", "-1", "-d", "3"][..],
            "--branching `-1`: write a number",
        ),
        (
            &["theory", "-b", "+3", "-d", "3"][..],
            "--branching `+3`: write a number",
        ),
        (
            &[
                "solve", "--game", "nim", "x", "--solver", "none", "--mib", "64",
            ][..],
            "--mib sizes the solver's table, which --solver none leaves out",
        ),
    ] {
        let (code, err) = status_and_err(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(allowed), "{args:?}: {err}");
    }
}

/// A pipe where a results folder or one of its files should be is refused at once (opening
/// it would wait for a writer for ever), and so are a device or a link to nothing as --out.
#[cfg(unix)]
#[test]
fn pipes_devices_and_dangling_links_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = |p: &Path| {
        assert!(std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .unwrap()
            .success())
    };
    let p = tmp.path().join("p");
    fifo(&p);
    let (code, err) = status_and_err(&["plot", p.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a folder"), "{err}");
    // A pipe with no writer as the experiment file, a positions file or a file to solve
    // reads as empty at once (opening it waited for a writer for ever).
    let ps = p.to_str().unwrap();
    for (args, says) in [
        (vec!["run", ps, "--quiet"], "missing key `name`"),
        (vec!["solve", "--game", "nim", ps], "no position"),
    ] {
        let (code, err) = status_and_err(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{err}");
    }
    bad(
        "positions = [\"start\"]",
        &format!("positions_file = {ps:?}"),
        &["exp.toml:6:", "holds no position"],
    );
    // A pipe with a writer is read: an experiment or a positions file on standard input.
    let exp_text = std::fs::read_to_string(repo("experiments/tictactoe.toml")).unwrap();
    let out_stdin = tmp.path().join("stdin");
    harness()
        .args(["run", "/dev/stdin", "--quiet", "--out"])
        .arg(&out_stdin)
        .write_stdin(exp_text)
        .assert()
        .success();
    assert!(out_stdin.join("runs.csv").exists());
    let solved = harness()
        .args(["solve", "--game", "tictactoe", "/dev/stdin"])
        .write_stdin("4,0\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&solved).contains("o...x....,0,,746,"));
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    fifo(&out.join("runs.csv.partial"));
    let exp = repo("experiments/tictactoe.toml");
    let exp = exp.to_str().unwrap();
    // A run into `out` is refused, saying `what`.
    let refused = |out: &Path, what: &str| {
        let (code, err) = status_and_err(&["run", exp, "--quiet", "--out", out.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(what), "{err}");
    };
    refused(&out, "runs.csv.partial: is a device, pipe or socket");
    // A pipe named like a chart's temporary, and a link to nothing where a result's
    // temporary goes (writing through it would leave a file outside the folder).
    let out2 = tmp.path().join("out2");
    std::fs::create_dir_all(out2.join("charts")).unwrap();
    fifo(&out2.join("charts/nodes.svg.tmp"));
    refused(&out2, "nodes.svg.tmp: is a device, pipe or socket");
    let out3 = tmp.path().join("out3");
    std::fs::create_dir(&out3).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("outside.tmp"), out3.join("runs.csv.tmp")).unwrap();
    refused(&out3, "runs.csv.tmp: is a link to nothing");
    assert!(!tmp.path().join("outside.tmp").exists());
    // A link there to a file outside: the temporary replaces the link, and the file it
    // pointed to is left as it was.
    std::fs::write(tmp.path().join("outside.tmp"), "precious").unwrap();
    let (code, err) = status_and_err(&["run", exp, "--quiet", "--out", out3.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let kept = std::fs::read_to_string(tmp.path().join("outside.tmp")).unwrap();
    assert_eq!(kept, "precious");
    assert!(!out3.join("runs.csv").is_symlink() && !out3.join("runs.csv.tmp").exists());
    let dangling = tmp.path().join("dangling");
    std::os::unix::fs::symlink(tmp.path().join("nowhere"), &dangling).unwrap();
    refused(
        Path::new("/dev/null"),
        "is a device, pipe or socket, not a folder",
    );
    refused(&dangling, "is a link to nothing, not a folder");
}

/// Errors found after parsing are placed at the key as the parsed file has it: not at a
/// `description` line that starts like the key, and inside inline tables, quoted keys and
/// lists (the element that is wrong).
#[test]
fn checks_after_parsing_place_the_key_itself() {
    let head = "name = \"x\"\ndescription = \"\"\"\nordering = tt is what this measures\ndepth and [search] too\n\"\"\"\n[game]\nkind = \"tictactoe\"\n";
    // `tt` with no table: the ordering at line 11, not the description's line 3.
    bad_text(
        &format!(
            "{head}[search]\nalgorithm = \"alphabeta\"\ndepth = 2\nordering = \"tt+static\"\n"
        ),
        &["exp.toml:11:1:", "needs a transposition table"],
    );
    // A quoted key.
    bad_text(
        &format!(
            "{head}[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n\"ordering\" = \"tt+static\"\n"
        ),
        &["exp.toml:11:1:", "needs a transposition table"],
    );
    // A missing depth: the [search] header (line 8).
    bad_text(
        &format!("{head}[search]\nalgorithm = \"alphabeta\"\n"),
        &["exp.toml:8:1:", "depth is missing"],
    );
    // An ordering in a list: the element (11:24), not the key.
    bad_text(
        &format!("{head}[search]\nalgorithm = \"alphabeta\"\ndepth = 2\nordering = [\"natural\", \"explicit:9\"]\n"),
        &["exp.toml:11:24:", "`9` is not a tic-tac-toe square"],
    );
    // Inside an inline [search] table.
    bad_text(
        "name = \"x\"\nsearch = { algorithm = \"alphabeta\", depth = 2, ordering = \"mvv-lva\" }\n[game]\nkind = \"tictactoe\"\n",
        &["exp.toml:2:59:", "mvv-lva applies to chess only"],
    );
    // A `titles` key that is no chart names `titles`, in each form.
    let tail = "[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n[report]\n";
    for (titles, at) in [
        (
            "titles = { nodes = \"a\", nodez = \"b\" }",
            "exp.toml:12:25:",
        ),
        ("titles.nodez = \"b\"", "exp.toml:12:8:"),
        ("[report.titles]\nnodez = \"b\"", "exp.toml:13:1:"),
    ] {
        bad_text(
            &format!("{head}{tail}{titles}\n"),
            &[
                at,
                "[report] titles: `nodez` is not a chart; allowed: `nodes`",
            ],
        );
    }
}

/// A `[search]` setting no run would use is refused at its key instead of being ignored: a
/// variant or a table without alpha-beta, a reference comparison with no table run, and with
/// the solver alone iterative deepening, quiescence, a random tie-break, or `enabled`.
#[test]
fn settings_no_run_uses_are_refused() {
    let exp = |algorithm: &str, rest: &str| {
        format!("name = \"x\"\n[game]\nkind = \"tictactoe\"\npositions = [\"4,0\"]\n[search]\nalgorithm = {algorithm}\n{rest}\n")
    };
    for (text, expect) in [
        (
            exp(
                "[\"minimax\", \"negamax\"]",
                "depth = 2\nvariant = \"fail-hard\"",
            ),
            vec![
                "exp.toml:8:1:",
                "[search] variant",
                "this experiment runs minimax, negamax",
            ],
        ),
        (
            exp("\"minimax\"", "depth = 2\n[search.tt]\nentries = 1024"),
            vec![
                "exp.toml:8:1:",
                "[search.tt]: a transposition table serves alphabeta, pvs",
            ],
        ),
        (
            exp(
                "\"alphabeta\"",
                "depth = 2\n[search.tt]\nenabled = false\nreference = true",
            ),
            vec![
                "exp.toml:10:1:",
                "[search.tt] reference",
                "the table disabled",
            ],
        ),
        (
            exp("\"solve\"", "iterative = true"),
            vec![
                "exp.toml:7:1:",
                "[search] iterative: the solver has no iterative deepening",
            ],
        ),
        (
            exp("\"solve\"", "quiescence = { enabled = true }"),
            vec!["exp.toml:7:1:", "the solver has no quiescence search"],
        ),
        (
            exp("\"solve\"", "tie_break = [\"first\", \"random\"]"),
            vec!["exp.toml:7:1:", "the solver has no random root tie-break"],
        ),
        (
            exp("\"solve\"", "[search.tt]\nenabled = [false, true]"),
            vec![
                "exp.toml:8:1:",
                "[search.tt] enabled",
                "the solver's table is its `tt` technique",
            ],
        ),
        (
            exp(
                "\"solve\"",
                "solver = \"null-window\"\n[search.tt]\nentries = 1024",
            ),
            vec![
                "exp.toml:8:1:",
                "with no solver set that includes tt; add tt to solver",
            ],
        ),
        (
            exp(
                "[\"minimax\", \"solve\"]",
                "depth = \"full\"\n[search.tt]\nenabled = true",
            ),
            vec![
                "exp.toml:9:1:",
                "[search.tt] enabled: turns the table of alphabeta and pvs on and off",
            ],
        ),
        (
            exp(
                "[\"alphabeta\", \"solve\"]",
                "depth = \"full\"\n[search.tt]\nenabled = false\nentries = 4096",
            ),
            vec![
                "exp.toml:10:1:",
                "[search.tt] entries: enabled = false turns every table off",
            ],
        ),
    ] {
        bad_text(&text, &expect);
    }
    // Principal variation search takes them as alpha-beta does.
    let tmp = good_run(&exp(
        "[\"minimax\", \"pvs\"]",
        "depth = \"full\"\nvariant = [\"fail-hard\", \"fail-soft\"]\n[search.tt]\nenabled = [false, true]\nentries = 1024",
    ));
    let runs = std::fs::read_to_string(tmp.path().join("out/runs.csv")).unwrap();
    assert_eq!(runs.lines().count() - 1, 1 + 2 * 2, "{runs}");
    // Beside a run that uses them, they are a comparison, not refused.
    let tmp = good_run(&exp(
        "[\"minimax\", \"alphabeta\", \"solve\"]",
        "depth = \"full\"\nvariant = [\"fail-hard\", \"fail-soft\"]\niterative = [false, true]\n[search.tt]\nenabled = [false, true]\nentries = 1024",
    ));
    let runs = std::fs::read_to_string(tmp.path().join("out/runs.csv")).unwrap();
    // minimax: 2 (iterative); alphabeta: 2 variants x 2 iterative x 2 tables; solve: 1 (its
    // table is the one [search.tt] sizes, once: the disabled entry adds no second one).
    assert_eq!(runs.lines().count() - 1, 2 + 8 + 1, "{runs}");
}

/// A column cannot be both the x axis and a series or facet, nor both a series and a facet.
#[test]
fn report_columns_play_one_role() {
    let exp = |report: &str| {
        format!("name = \"x\"\n[game]\nkind = \"tictactoe\"\npositions = [\"4,0\"]\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = [1, 2]\n[report]\n{report}\n")
    };
    bad_text(
        &exp("series = [\"algorithm\", \"depth\"]"),
        &[
            "exp.toml:9:24:",
            "[report] series = `depth`: also the x axis (x defaults to depth",
        ],
    );
    bad_text(
        &exp("x = \"algorithm\"\nfacet = \"algorithm\""),
        &[
            "exp.toml:10:9:",
            "[report] facet = `algorithm`: also the x axis;",
        ],
    );
    bad_text(
        &exp("series = \"algorithm\"\nfacet = \"algorithm\""),
        &[
            "exp.toml:10:9:",
            "[report] facet = `algorithm`: also a series column",
        ],
    );
    // In a list: at the item.
    bad_text(
        &exp("series = \"algorithm\"\nfacet = [\"ordering\", \"algorithm\"]"),
        &[
            "exp.toml:10:22:",
            "[report] facet = `algorithm`: also a series column",
        ],
    );
    bad_text(
        &exp("series = [\"algorithm\", \"colour\"]"),
        &[
            "exp.toml:9:24:",
            "[report] series = `colour`: not a parameter column",
        ],
    );
    bad_text(
        &exp("pool = [\"ordering\", \"depth\"]"),
        &["exp.toml:9:21:", "[report] pool = `depth`: also the x axis"],
    );
    // A log axis of names did nothing.
    bad_text(
        &exp("x = \"algorithm\"\nseries = \"depth\"\nx_scale = \"log\""),
        &[
            "exp.toml:11:1:",
            "x = `algorithm` has the value `alphabeta`, which no log axis holds",
        ],
    );
    // The default series, ordering, gives way to a facet of ordering.
    good_run(&exp("facet = \"ordering\"").replace(
        "depth = [1, 2]",
        "depth = [1, 2]\nordering = [\"natural\", \"static\"]",
    ));
}

/// A grid list that repeats a value is refused at the repeat: it would search the same runs
/// again, or, kept once by key, silently not.
#[test]
fn repeated_grid_values_are_refused() {
    bad(
        "algorithm = \"alphabeta\"",
        "algorithm = [\"alphabeta\", \"minimax\", \"alphabeta\"]",
        &[
            "exp.toml:9:38:",
            "`algorithm`: item 3 of the list repeats item 1",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = [\"static+random\", [\"static\", \"random\"]]",
        &[
            "exp.toml:11:30:",
            "`ordering`: item 2 of the list repeats item 1",
        ],
    );
    // A list written over several lines: at the repeat's line.
    bad(
        "algorithm = \"alphabeta\"",
        "algorithm = [\n  \"alphabeta\",\n  \"alphabeta\",\n]",
        &[
            "exp.toml:11:3:",
            "`algorithm`: item 2 of the list repeats item 1",
        ],
    );
    // A depth that a range already gave: at the item that gives it again, naming both.
    bad(
        "depth = 3",
        "depth = [{ from = 1, to = 3 }, 2]",
        &[
            "exp.toml:10:32:",
            "`depth`: item 2 of the list repeats depth 2 of item 1 (a range counts each of its depths)",
        ],
    );
    // A chart or theory line named twice (once silently drawn once): at the repeat.
    bad(
        "[search]",
        "[report]\ncharts = [\"nodes\", \"ebf\", \"nodes\"]\n[search]",
        &[
            "exp.toml:9:27:",
            "[report] charts: item 3 of the list repeats item 1",
        ],
    );
    bad(
        "[search]",
        "[report]\ntheory = [\"pearl\", \"pearl\"]\n[search]",
        &[
            "exp.toml:9:20:",
            "[report] theory: item 2 of the list repeats item 1",
        ],
    );
    // An unknown solver in a list: at it.
    bad(
        "algorithm = \"alphabeta\"\ndepth = 3",
        "algorithm = \"solve\"\nsolver = [\"all\", \"tt+bogus\"]",
        &["exp.toml:10:18:", "unknown solver technique `bogus`"],
    );
    bad(
        "depth = 3",
        "depth = [4, 1, { from = 2, to = 4 }]",
        &[
            "exp.toml:10:16:",
            "item 3 of the list repeats depth 4 of item 1",
        ],
    );
}

/// Messages that say what is wrong in the user's terms: a name too long for a folder, digits
/// run together on a board wider than 9, a NUL shown as `\0`, and solve's flags named one by
/// one, without the TOML forms an experiment file has.
#[test]
fn messages_name_the_fault_in_the_users_terms() {
    let long = "a".repeat(101);
    bad(
        "name = \"t\"",
        &format!("name = \"{long}\""),
        &[
            "exp.toml:1:8:",
            "(101 characters)",
            "allowed are up to 100 ASCII letters",
        ],
    );
    let c4 = GOOD
        .replace(
            "kind = \"tictactoe\"",
            "kind = \"connect4\"\nwidth = 10\nheight = 4",
        )
        .replace("positions = [\"start\"]", "positions = [\"10\"]");
    bad_text(
        &c4,
        &[
            "move 2 (`0`) of `10`",
            "on a board 10 wide separate the columns with commas",
        ],
    );
    bad(
        "positions = [\"start\"]",
        "positions = [\"4,0\\u0000\"]",
        &["`4,0\\0` is neither a board"],
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("p.txt");
    std::fs::write(&file, "4,0\n").unwrap();
    let f = file.to_str().unwrap();
    let (code, err) = status_and_err(&["solve", "--game", "tictactoe", "--ordering", "bogus", f]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--ordering: unknown ordering `bogus`"),
        "{err}"
    );
    assert!(
        !err.contains("nested list") && !err.contains("grid"),
        "{err}"
    );
    let (code, err) = status_and_err(&["solve", "--game", "tictactoe", "--ordering", "mvv-lva", f]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("error: --ordering: ordering mvv-lva applies to chess only"),
        "{err}"
    );
}

/// A file or folder name that is not Unicode is a legal Linux path: `run` takes it (the
/// manifest records the command line lossily) rather than panicking. (macOS file systems
/// refuse such names.)
#[cfg(target_os = "linux")]
#[test]
fn names_that_are_not_unicode_are_taken() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp
        .path()
        .join(std::ffi::OsStr::from_bytes(b"\xff\xfe.toml"));
    std::fs::write(
        &exp,
        "name = \"odd\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\n",
    )
    .unwrap();
    let out = tmp.path().join(std::ffi::OsStr::from_bytes(b"out_\xff"));
    harness()
        .arg("run")
        .arg(&exp)
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains("out_\u{fffd}"), "{manifest}");
    harness().arg("plot").arg(&out).assert().success();
}

/// A partial file beside a finished manifest (a run killed after its end time, before it
/// removed the file) is a leftover: the next run removes it rather than resuming or refusing it.
#[test]
fn a_partial_file_beside_a_finished_manifest_is_a_leftover() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    std::fs::write(
        &exp,
        "name = \"left\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = [1, 2]\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let run = || {
        harness()
            .arg("run")
            .arg(&exp)
            .arg("--out")
            .arg(&out)
            .assert()
            .success()
    };
    run();
    std::fs::write(out.join("runs.csv.partial"), "not a header\nnor a run\n").unwrap();
    let err = String::from_utf8_lossy(&run().get_output().stderr).to_string();
    assert!(!err.contains("resuming"), "{err}");
    assert!(!out.join("runs.csv.partial").exists());
}

/// A list where a table goes is refused rather than read field by field in order (serde's
/// derived structs take both): `random_openings = [2, 3]` was 2 openings of 3 plies, and
/// `quiescence = [true, false, true, 100]` a quiescence setting. Quiescence options with
/// quiescence off in every run are refused, as a table's are with every table off.
#[test]
fn lists_where_a_table_goes_and_unused_quiescence_options_are_refused() {
    bad(
        "positions = [\"start\"]",
        "random_openings = [2, 3]",
        &[
            "exp.toml:6:19: `random_openings`",
            "invalid type: sequence, expected a table `{ count = N, plies = N }`",
        ],
    );
    bad(
        "positions = [\"start\"]",
        "random_openings = [{ count = 2, plies = 3 }]",
        &["exp.toml:6:19: `random_openings`", "expected a table"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\nquiescence = [true, false, true, 100]",
        &[
            "exp.toml:12:14: `quiescence`",
            "invalid type: sequence, expected a table; quiescence is one table",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\ntt = [[true]]",
        &[
            "exp.toml:12:6: `tt`",
            "invalid type: sequence, expected a table",
        ],
    );
    let chess = |q: &str| {
        GOOD.replacen("tictactoe", "chess", 1)
            .replacen("depth = 3", "depth = 1", 1)
            + &format!("quiescence = {q}\n")
    };
    for (q, key, col) in [
        (
            "{ enabled = false, delta = 100, checks = true }",
            "checks",
            46,
        ),
        (
            "{ enabled = [false], promotions = false }",
            "promotions",
            35,
        ),
    ] {
        bad_text(
            &chess(q),
            &[
                &format!("exp.toml:12:{col}: [search] quiescence {key}: enabled = false"),
                "allowed: enabled = true or [false, true]",
            ],
        );
    }
    good_run(&chess("{ enabled = [false, true], delta = 100 }"));
    good_run(&chess("{ enabled = false }"));
    // A game with no noisy moves only stands pat: an option chooses among moves it does not
    // have (checks = [false, true] searched each position twice alike).
    for (q, key) in [
        ("{ enabled = true, checks = [false, true] }", "checks"),
        (
            "{ enabled = [false, true], promotions = false }",
            "promotions",
        ),
        ("{ enabled = true, delta = 100 }", "delta"),
    ] {
        bad(
            "ordering = \"natural\"",
            &format!("ordering = \"natural\"\nquiescence = {q}"),
            &[
                "exp.toml:12:",
                &format!("[search] quiescence {key}: tictactoe has no noisy moves"),
                &format!("allowed: drop {key} (quiescence = {{ enabled = true }} stands pat"),
            ],
        );
    }
    good_run(&(GOOD.to_string() + "quiescence = { enabled = [false, true] }\n"));
    // Beside chess the options shape the chess runs; tic-tac-toe's take quiescence off or
    // on with the defaults, once each.
    let mixed = GOOD.replacen(
        "kind = \"tictactoe\"",
        "kind = [\"chess\", \"tictactoe\"]",
        1,
    ) + "quiescence = { enabled = [false, true], checks = [false, true] }\n";
    let tmp = good_run(&mixed);
    let csv = std::fs::read_to_string(tmp.path().join("out/runs.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let (gi, qi) = (
        h.iter().position(|c| c == "game").unwrap(),
        h.iter().position(|c| c == "quiescence").unwrap(),
    );
    let mut got: Vec<(String, String)> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[gi].to_string(), r[qi].to_string())
        })
        .collect();
    got.sort();
    let want = [
        ("chess", "off"),
        ("chess", "on,promotions"),
        ("chess", "on,promotions,checks"),
        ("tictactoe", "off"),
        ("tictactoe", "on,promotions"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(g, q)| (g.to_string(), q.to_string()))
        .collect();
    assert_eq!(got, want);
    // With only solve runs the fix is to drop quiescence: the solver has none.
    bad_text(
        &(GOOD.replacen(
            "algorithm = \"alphabeta\"\ndepth = 3",
            "algorithm = \"solve\"",
            1,
        ) + "quiescence = { enabled = false, delta = 100 }\n"),
        &[
            "quiescence delta",
            "drop quiescence (the solver has no quiescence search)",
        ],
    );
    // One example of the table, not two.
    let err = bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\nquiescence = true",
        &["`quiescence`: invalid type: boolean `true`, expected a table; quiescence is one table"],
    );
    assert_eq!(err.matches("enabled = true").count(), 1, "{err}");
    // A table of dotted keys has no place the reader can record: the message says how to
    // write the table instead of calling it a key that takes a value.
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\nquiescence.enabled = true",
        &[
            "exp.toml:12:1: `quiescence.enabled`: `quiescence` is read as one table",
            "or as a [search.quiescence] section",
        ],
    );
}

/// A number too large for its key, and a list where one value goes, say what the key allows.
#[test]
fn numbers_too_large_and_lists_for_one_value_name_what_is_allowed() {
    bad(
        "seed = 1",
        "seed = 9223372036854775808",
        &[
            "exp.toml:2:8: `seed`: number too large",
            "allowed: a whole number from 0 to 9223372036854775807",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\nmax_nodes = 18446744073709551615",
        &[
            "exp.toml:12:13: `max_nodes`: number too large",
            "allowed: a whole number from 1 to 9223372036854775807 (2^63 - 1;",
        ],
    );
    bad(
        "depth = 3",
        "depth = 99999999999999999999",
        &[
            "exp.toml:10:9: `depth`: number too large",
            "allowed: a whole number of plies from 1 to 10000",
        ],
    );
    for (line, allowed) in [
        (
            "max_seconds = [1, 2]",
            "a positive, finite number of seconds",
        ),
        ("repetitions = [2, 3]", "a whole number from 1 to 100000"),
        (
            "max_nodes = [2, 3]",
            "a whole number from 1 to 9223372036854775807",
        ),
    ] {
        bad(
            "ordering = \"natural\"",
            &format!("ordering = \"natural\"\n{line}"),
            &[
                "exp.toml:12:",
                "a list where one value goes",
                &format!("allowed: {allowed}"),
            ],
        );
    }
    // A grid key given a list inside its list is not told it takes one value.
    bad_not(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[search.tt]\nkey_bits = [[16]]",
        &[
            "exp.toml:13:13: `key_bits`",
            "allowed: a whole number from 8 to 64",
        ],
        "one value",
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\ntt.key_bits = 99999999999999999999",
        &["`tt.key_bits`: number too large; allowed: a whole number from 8 to 64"],
    );
    // Inside an inline table, the key named is the table's key, not the table (serde
    // reports the value at the table's key).
    for (line, at, allowed) in [
        (
            "tt = { entries = 99999999999999999999 }",
            "exp.toml:12:18: `tt.entries`: number too large",
            "allowed: a power of two >= 1",
        ),
        (
            "tt = { replacement = \"depth\", key_bits = 5000000000 }",
            "exp.toml:12:42: `tt.key_bits`",
            "allowed: a whole number from 8 to 64",
        ),
        (
            "tt = { mib = -1 }",
            "exp.toml:12:14: `tt.mib`",
            "allowed: a power of two >= 1 (or give `entries`)",
        ),
        (
            "quiescence = { enabled = true, delta = 99999999999999999999 }",
            "exp.toml:12:40: `quiescence.delta`: number too large",
            "allowed: a delta-pruning margin",
        ),
    ] {
        let e = bad(
            "ordering = \"natural\"",
            &format!("ordering = \"natural\"\n{line}"),
            &[at, allowed],
        );
        assert!(!e.contains("one table whose values"), "{e}");
    }
    // A negative number for an unsigned key gets the key's range, not serde's ">= 0".
    bad_not(
        "seed = 1",
        "seed = -1",
        &[
            "exp.toml:2:8: `seed`",
            "allowed: a whole number from 0 to 9223372036854775807",
        ],
        ">= 0",
    );
    bad(
        "positions = [\"start\"]",
        "positions = [\"start\"]\n[game.random_openings]\ncount = 2\nplies = -1",
        &["`plies`", "allowed: a whole number from 0 to 10000"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\nmax_seconds = inf",
        &[
            "exp.toml:12:15: `max_seconds` = inf",
            "allowed: a positive, finite number of seconds",
        ],
    );
    // A tiny or huge number is shown in exponent form, not in 330 digits.
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\nmax_seconds = 5e-324",
        &["exp.toml:12:15: `max_seconds` = 5e-324: allowed:"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\nmax_seconds = -1e300",
        &["exp.toml:12:15: `max_seconds` = -1e300: allowed:"],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = [[[\"static\"]]]",
        &[
            "exp.toml:11:14: `ordering`",
            "a list of terms is one list deep; allowed: natural, static",
        ],
    );
}

/// A `charts` that links to a folder elsewhere is refused by run and plot alike: the report
/// removes the chart files in charts/, and would remove them there.
#[test]
fn a_charts_link_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, GOOD).unwrap();
    let out_dir = tmp.path().join("out");
    harness()
        .args(["run", "--quiet", "--out"])
        .arg(&out_dir)
        .arg(&file)
        .assert()
        .success();
    let figs = tmp.path().join("figs");
    std::fs::create_dir(&figs).unwrap();
    std::fs::write(figs.join("paper.svg"), "mine").unwrap();
    std::fs::remove_dir_all(out_dir.join("charts")).unwrap();
    std::os::unix::fs::symlink(&figs, out_dir.join("charts")).unwrap();
    for args in [vec!["plot"], vec!["run", "--quiet", "--out"]] {
        let mut cmd = harness();
        cmd.args(&args).arg(&out_dir);
        if args[0] == "run" {
            cmd.arg(&file);
        }
        let err = String::from_utf8(cmd.assert().code(2).get_output().stderr.clone()).unwrap();
        assert!(err.contains("charts: is a link to a folder"), "{err}");
        // plot has no --out to offer.
        assert_eq!(err.contains("--out"), args[0] == "run", "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(figs.join("paper.svg")).unwrap(),
        "mine"
    );
}

/// `depth = [9, "full"]` from tic-tac-toe's empty board searches one tree twice, and so do
/// depths 8 and 9 from a position with 7 plies left (the search stops where the game ends):
/// said on stderr, with the positions.
#[test]
fn depths_that_search_one_tree_are_warned() {
    let (_tmp, err) = good_run_stderr(
        &GOOD
            .replace("depth = 3", "depth = [9, \"full\", 8, 6]")
            .replace(
                "positions = [\"start\"]",
                "positions = [\"start\", \"4\", \"4,0\"]",
            ),
    );
    assert!(
        err.contains("3 position(s) from which two depths of the list search the same plies"),
        "{err}"
    );
    for line in [
        "`.........` (position_id 0, tictactoe scale=win-loss): depths 9 and \"full\" are both 9 plies",
        "`....x....` (position_id 1, tictactoe scale=win-loss): depths 8, 9 and \"full\" are all 8 plies",
        "`o...x....` (position_id 2, tictactoe scale=win-loss): depths 8, 9 and \"full\" are all 7 plies",
    ] {
        assert!(err.contains(line), "{line}\n{err}");
    }
    // Depth 6 is shallower than every position's end.
    assert!(!err.contains(" 6,"), "{err}");
    // A list whose depths all stop short of the end says nothing.
    let (_tmp, err) = good_run_stderr(&GOOD.replace("depth = 3", "depth = [3, 4]"));
    assert!(!err.contains("warning"), "{err}");
}

/// An explicit move that is illegal in one of the positions names that position.
#[test]
fn an_explicit_move_illegal_in_one_position_names_it() {
    let text = GOOD
        .replace("kind = \"tictactoe\"", "kind = \"chess\"")
        .replace(
            "positions = [\"start\"]",
            "positions = [\"start\", \"8/8/8/4k3/8/8/8/4K3 w - - 0 1\"]",
        )
        .replace("ordering = \"natural\"", "ordering = \"explicit:e2e4\"");
    bad_text(
        &text,
        &[
            "exp.toml:11:12",
            "move `e2e4` is not legal here (position `8/8/8/4k3/8/8/8/4K3 w - - 0 1`; run ",
        ],
    );
}

/// An input file of the run (the experiment file, a positions file) kept in the results folder
/// under a name the run writes or removes is refused before anything is written; the
/// experiment file run from its own copy, experiment.toml, is fine.
#[test]
fn input_files_the_run_would_replace_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("out");
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, GOOD).unwrap();
    let run = |file: &Path| {
        harness()
            .args(["run", "--quiet", "--out"])
            .arg(&out_dir)
            .arg(file)
            .output()
            .unwrap()
    };
    assert!(run(&file).status.success());
    for name in [
        "report.md",
        "summary.csv",
        "charts/mine.png",
        "runs.csv.partial",
    ] {
        let inside = out_dir.join(name);
        std::fs::write(&inside, GOOD).unwrap();
        let o = run(&inside);
        assert_eq!(o.status.code(), Some(2), "{name}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "is the results folder's {name}, which this run replaces"
            )),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&inside).unwrap(), GOOD, "{name}");
        std::fs::remove_file(&inside).unwrap();
    }
    // A positions file there.
    std::fs::write(out_dir.join("summary.csv"), "4\n").unwrap();
    let with_file = tmp.path().join("pf.toml");
    std::fs::write(
        &with_file,
        GOOD.replace(
            "positions = [\"start\"]",
            "positions_file = \"out/summary.csv\"",
        ),
    )
    .unwrap();
    let o = run(&with_file);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert_eq!(
        std::fs::read_to_string(out_dir.join("summary.csv")).unwrap(),
        "4\n"
    );
    // The folder's own experiment.toml, run again.
    assert!(run(&out_dir.join("experiment.toml")).status.success());
}

/// A title for a chart the layout does not draw is refused at its key, not dropped.
#[test]
fn a_title_for_a_chart_not_drawn_is_refused() {
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\ncharts = [\"nodes\"]\ntitles = { nodes = \"N\", time = \"Wall\" }",
        &[
            "exp.toml:14:25",
            "[report] titles: `time` titles a chart this layout does not draw; allowed: a chart it asks for (nodes), or add `time` to `charts`",
        ],
    );
    bad(
        "ordering = \"natural\"",
        "ordering = \"natural\"\n[report]\ncharts = []\ntitles = { nodes = \"N\" }",
        &["allowed: a chart it asks for (none: `charts = []`), or add `nodes` to `charts`"],
    );
}

/// A folder path as long as `len` bytes, of components no file system refuses (at most 200
/// bytes each), relative to the current folder.
#[cfg(target_os = "linux")]
fn long_relative_path(len: usize) -> PathBuf {
    let mut parts = Vec::new();
    let mut left = len;
    while left > 201 {
        parts.push("d".repeat(200));
        left -= 201;
    }
    parts.push("e".repeat(left));
    PathBuf::from(parts.join("/"))
}

/// A results folder whose path leaves no room for its chart files (Linux: 4,095 bytes a path,
/// of which `/charts/NAME.svg.tmp` takes up to 136) is refused before anything is searched,
/// made or written: `run` with exit 2 and nothing created, `plot` with exit 2 and the folder
/// untouched. A path one byte shorter runs and draws its charts.
#[cfg(target_os = "linux")]
#[test]
fn a_results_folder_too_deep_for_its_charts_is_refused_up_front() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    std::fs::write(&exp, GOOD).unwrap();
    let fits = long_relative_path(4095 - 136);
    let over = long_relative_path(4095 - 136 + 1);
    let run = |out: &Path| {
        harness()
            .current_dir(tmp.path())
            .arg("run")
            .arg(&exp)
            .arg("--quiet")
            .arg("--out")
            .arg(out)
            .output()
            .unwrap()
    };
    let o = run(&over);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "the path is 3960 bytes long, and the chart files under it add up to 136 more"
        ) && err.contains("allowed: a folder path of at most 3959 bytes; pass a shorter --out DIR"),
        "{err}"
    );
    assert!(!tmp.path().join("d".repeat(200)).exists(), "nothing made");
    let o = run(&fits);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let charts = tmp.path().join(&fits).join("charts");
    assert!(std::fs::read_dir(&charts).unwrap().count() > 0);
    // The same results one byte deeper: plot refuses them and leaves them as they are.
    let deeper = tmp.path().join(&over);
    std::fs::create_dir_all(deeper.parent().unwrap()).unwrap();
    std::fs::rename(tmp.path().join(&fits), &deeper).unwrap();
    let report = std::fs::read(deeper.join("report.md")).unwrap();
    let o = harness()
        .current_dir(tmp.path())
        .arg("plot")
        .arg(&over)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("plot a copy of the folder at a shorter path"),
        "{err}"
    );
    assert_eq!(std::fs::read(deeper.join("report.md")).unwrap(), report);
}

/// A number with a leading zero (TOML reads `007` as 0 with `07` after it) is named as such,
/// with the number to write and what the key allows; a wrong type for `max_seconds` and a
/// dotted key inside `labels` or `titles` say what is allowed.
#[test]
fn leading_zeros_types_and_dotted_label_keys_say_what_is_allowed() {
    bad(
        "seed = 1",
        "seed = 007",
        &[
            "exp.toml:2:",
            "`007`: TOML numbers take no leading zero (write `7`)",
            "allowed: a whole number from 0 to",
        ],
    );
    bad("seed = 1", "seed = 0_7", &["`0_7`", "(write `7`)"]);
    bad(
        "depth = 3",
        "depth = [1, 03]",
        &[
            "exp.toml:10:14:",
            "`03`",
            "(write `3`)",
            "allowed: a whole number of plies",
        ],
    );
    let budget = |v: &str| format!("depth = 3\nmax_seconds = {v}");
    for v in ["00.5", "\"1\"", "true"] {
        bad(
            "depth = 3",
            &budget(v),
            &[
                "`max_seconds`",
                "allowed: a positive, finite number of seconds",
            ],
        );
    }
    bad("depth = 3", &budget("00.5"), &["(write `0.5`)"]);
    let report = |r: &str| format!("ordering = \"natural\"\n[report]\n{r}");
    bad(
        "ordering = \"natural\"",
        &report("labels = { a.b = \"x\" }"),
        &["`labels`", "a key that holds a dot goes in quotes"],
    );
    bad(
        "ordering = \"natural\"",
        &report("titles = { nodes.a = \"x\" }"),
        &[
            "`titles`",
            "allowed: chart names, each with its title in quotes",
        ],
    );
}

/// A title for a default chart the data cannot support (`qnodes` on tic-tac-toe, which has no
/// quiescence search) is not dropped in silence: the run goes on, and stderr and report.md say
/// the chart is not drawn, and why, as for a chart named in `charts`.
#[test]
fn a_title_for_a_default_chart_the_data_cannot_support_is_reported() {
    let (tmp, err) = good_run_stderr(&format!(
        "{GOOD}\n[report]\ntitles = {{ qnodes = \"Q\", nodes = \"N\" }}\n"
    ));
    let why = "`qnodes`: no run entered a quiescence node (qnodes is 0 or missing)";
    assert!(
        err.contains(&format!("warning: t: [report] titles: not drawn: {why}")),
        "{err}"
    );
    let md = std::fs::read_to_string(tmp.path().join("out/report.md")).unwrap();
    assert!(md.contains(&format!("Not drawn:\n\n- {why}\n")), "{md}");
    // The chart it did draw carries its title; without `titles`, the default is silent.
    assert!(md.contains("### Tic-tac-toe: N\n"), "{md}");
    let (_tmp, err) = good_run_stderr(GOOD);
    assert!(!err.contains("not drawn"), "{err}");
}

/// A chart of more than 100 series is not drawn (a legend of thousands of rows once made a
/// canvas too tall for its pixel buffer, and the run panicked after searching everything): it
/// is named on stderr and under report.md's Not drawn, default chart or not, with the series
/// columns to cut; 100 series still draw.
#[test]
fn a_chart_of_too_many_series_is_named_not_drawn() {
    // 10 table sizes × `bits` key-bit counts: one series each.
    let grid = |bits: u32| {
        let entries: Vec<String> = (4..14).map(|i| (1u64 << i).to_string()).collect();
        let key_bits: Vec<String> = (0..bits).map(|i| (64 - i).to_string()).collect();
        format!(
            "{}\n[search.tt]\nentries = [{}]\nkey_bits = [{}]\n",
            GOOD.replace("depth = 3", "depth = 1"),
            entries.join(", "),
            key_bits.join(", ")
        )
    };
    let (tmp, err) = good_run_stderr(&grid(11));
    let why = "`nodes`: 110 series in one chart (series columns: `tt_entries`, `tt_key_bits`), more than the 100 a legend can tell apart; allowed: fewer, by `[report] series`, `facet` or `pool`";
    assert!(
        err.contains(&format!("warning: t: [report] charts: not drawn: {why}")),
        "{err}"
    );
    let md = std::fs::read_to_string(tmp.path().join("out/report.md")).unwrap();
    assert!(md.contains(&format!("- {why}\n")), "{md}");
    assert!(!tmp.path().join("out/charts/nodes.png").exists());
    let (tmp, err) = good_run_stderr(&grid(10));
    assert!(!err.contains("series in one chart"), "{err}");
    assert!(tmp.path().join("out/charts/nodes.png").exists());
}

/// `[search] exclude` leaves out the runs that match every key of an entry, and the runs it
/// keeps are those of the whole grid, row for row (keys, seeds and counters); slips are refused
/// at the entry or the value, with what is allowed.
#[test]
fn exclude_leaves_out_grid_combinations_and_refuses_slips() {
    let grid = "name = \"x\"\n[game]\nkind = \"tictactoe\"\npositions = [\"start\", \"4,0\"]\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = [2, 3]\nordering = [\"natural\", \"static\", \"random\"]\nrepetitions = 2\n";
    let excluded = format!(
        "{grid}exclude = [\n  {{ algorithm = \"minimax\", ordering = [\"static\", \"random\"] }},\n  {{ algorithm = \"minimax\", depth = 3 }},\n]\n"
    );
    let tmp = tempfile::tempdir().unwrap();
    let runs_of = |name: &str, text: &str| {
        let file = tmp.path().join(format!("{name}.toml"));
        std::fs::write(&file, text).unwrap();
        let out = tmp.path().join(name);
        harness()
            .args(["run", "--quiet", "--out"])
            .arg(&out)
            .arg(&file)
            .assert()
            .success();
        counters_only(&out.join("runs.csv"))
    };
    let whole = runs_of("whole", grid);
    let part = runs_of("part", &excluded);
    let col = |name: &str| whole[0].iter().position(|h| h == name).unwrap();
    let (alg, depth, ordering) = (col("algorithm"), col("depth"), col("ordering"));
    // 2 positions × (minimax: natural at depth 2; alpha-beta: 2 depths × (natural, static,
    // random twice)).
    assert_eq!(part.len() - 1, 2 * (1 + 2 * 4), "{part:?}");
    let dropped =
        |r: &Vec<String>| r[alg] == "minimax" && (r[ordering] != "natural" || r[depth] == "3");
    let kept: Vec<&Vec<String>> = whole.iter().filter(|r| !dropped(r)).collect();
    assert_eq!(kept.len(), part.len());
    for (a, b) in kept.iter().zip(&part) {
        assert_eq!(*a, b);
    }
    for (entry, expect) in [
        (
            "{ algorithm = \"negamax\" }",
            "exp.toml:10:26: exclude: algorithm `negamax` is not in the grid's algorithm list, so it drops nothing; allowed: minimax, alphabeta",
        ),
        // At the value in its list.
        (
            "{ ordering = [\"static\", \"center-out\"] }",
            "exp.toml:10:36: exclude: ordering `center-out` is not in the grid's ordering list",
        ),
        (
            "{ }",
            "exp.toml:10:12: exclude: an entry with no key drops nothing; allowed: a table of one or more of algorithm",
        ),
        (
            "",
            "exp.toml:10:11: exclude: an empty list leaves out nothing",
        ),
        (
            "{ algorithm = \"minimax\", variant = \"fail-soft\" }",
            "exp.toml:10:12: exclude: this entry drops no run: no run holds all of its values together",
        ),
        (
            "{ algorithm = \"minimax\" }, { algorithm = \"minimax\", depth = 2 }",
            "exp.toml:10:39: exclude: this entry drops no run: every run it matches is one another entry drops too",
        ),
        // A slip in a later entry is named there, not as the earlier entry's redundancy.
        (
            "{ algorithm = \"minimax\" }, { }",
            "exp.toml:10:39: exclude: an entry with no key drops nothing",
        ),
        (
            "{ algorithm = \"minimax\" }, { algorithm = \"minimax\", ordering = \"center-out\" }",
            "exp.toml:10:75: exclude: ordering `center-out` is not in the grid's ordering list",
        ),
        // Covered by an entry after it: refused all the same.
        (
            "{ algorithm = \"minimax\", depth = 2 }, { algorithm = \"minimax\" }",
            "exp.toml:10:12: exclude: this entry drops no run: every run it matches is one another entry drops too",
        ),
        (
            "{ depth = [2, 3] }",
            "exp.toml:10:11: exclude: drops every run of the grid",
        ),
        (
            "{ colour = 1 }",
            "unknown key `colour`; allowed: `algorithm`, `variant`, `depth`, `ordering`, `tie_break`, `iterative`",
        ),
        (
            "\"minimax\"",
            "allowed: a list of tables in braces, e.g. exclude = [{",
        ),
        // A list in place of a table is not read key by key in order (it would leave out
        // the minimax runs at depth 2 unasked), and serde's type names stay out of the message.
        (
            "[\"minimax\", \"fail-soft\", 2, \"natural\", \"first\", false]",
            "invalid type: sequence, expected a table in braces; allowed: a list of tables in braces",
        ),
        // Every random run left out: `repetitions` would repeat nothing, as without them.
        (
            "{ ordering = \"random\" }",
            "repetitions = 2: only runs that use randomness repeat",
        ),
    ] {
        let e = bad_text(&format!("{grid}exclude = [{entry}]\n"), &[expect]);
        if entry.contains("random") {
            assert!(e.contains("but `[search] exclude` leaves them out"), "{e}");
        }
    }
    // The solver's runs search to the end with the first tie-break and no iterations: an
    // exclusion of a depth, tie-break or iteration setting never matches them.
    let solve = "name = \"s\"\n[game]\nkind = \"tictactoe\"\npositions = [\"x.o.x....\"]\n[search]\nalgorithm = [\"minimax\", \"solve\"]\ndepth = 2\ntie_break = [\"first\", \"random\"]\nrepetitions = 2\n";
    bad_text(
        &format!("{solve}exclude = [{{ depth = \"full\" }}]\n"),
        &["exp.toml:10:22: exclude: depth `full` is not in the grid's depth list, so it drops nothing; allowed: 2"],
    );
    // Only solver runs left: a depth in plies would be ignored, as beside the solver alone.
    let e = bad_text(
        &format!("{solve}exclude = [{{ algorithm = \"minimax\" }}]\n"),
        &["exp.toml:7:9: `depth`: the runs kept are all algorithm \"solve\""],
    );
    assert!(e.contains("but `[search] exclude` leaves them out"), "{e}");
    let kept = runs_of(
        "solve",
        &format!("{solve}exclude = [{{ tie_break = \"first\" }}]\n"),
    );
    let alg = kept[0].iter().position(|h| h == "algorithm").unwrap();
    let algs: Vec<&str> = kept[1..].iter().map(|r| r[alg].as_str()).collect();
    assert_eq!(
        algs.iter().filter(|a| **a == "solve").count(),
        1,
        "{algs:?}"
    );
    assert_eq!(
        algs.iter().filter(|a| **a == "minimax").count(),
        2,
        "{algs:?}"
    );
}

/// The `false-hits` chart draws the table's false hits per search where some run has one (a
/// point per group with any, none at 64 key bits), and is named under Not drawn, with why,
/// when no run has one.
#[test]
fn false_hits_chart_draws_where_a_run_has_one() {
    let grid = |bits: &str| {
        format!(
            "{}[search.tt]\nentries = 16\nreplacement = \"always\"\nkey_bits = {bits}\n[report]\nx = \"tt_key_bits\"\ncharts = [\"false-hits\"]\n",
            GOOD.replace("depth = 3", "depth = \"full\"")
        )
    };
    let (tmp, err) = good_run_stderr(&grid("[8, 12, 64]"));
    assert!(!err.contains("not drawn"), "{err}");
    assert!(tmp.path().join("out/charts/false-hits.png").exists());
    let md = std::fs::read_to_string(tmp.path().join("out/report.md")).unwrap();
    // Its point table: one row per key-bit count with a false hit (8 and 12, not 64).
    let rows: Vec<&str> = md
        .lines()
        .skip_while(|l| !l.contains("tt_false_hits mean"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(rows.len(), 2, "{md}");
    assert!(rows.iter().all(|r| !r.contains("| 64 |")), "{rows:?}");
    let (tmp, err) = good_run_stderr(&grid("64"));
    let why = "`false-hits`: no run has a false hit (tt_false_hits is 0 or missing: none with 64 key bits, or without a table)";
    assert!(
        err.contains(&format!("warning: t: [report] charts: not drawn: {why}")),
        "{err}"
    );
    assert!(!tmp.path().join("out/charts/false-hits.png").exists());
}

/// A table the machine holds but this process may not get (here a `ulimit -v` of about 1 GB
/// against two tables of 4 GiB) is refused before the results folder is touched: the earlier
/// run's report, summary and finished manifest stay, and the message stands at the list's
/// largest size, naming --jobs.
#[test]
fn a_table_this_process_cannot_get_is_refused_before_the_folder_is_touched() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    let text = |entries: &str| {
        format!("name = \"m\"\n[game]\nkind = \"tictactoe\"\npositions = [\"x.o.x.o..\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = \"full\"\n[search.tt]\nentries = {entries}\n")
    };
    std::fs::write(&file, text("1024")).unwrap();
    let out = tmp.path().join("out");
    run_into(&file, &out, &["--quiet"]).success();
    let before: Vec<(String, Vec<u8>)> = ["report.md", "summary.csv", "manifest.json", "runs.csv"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read(out.join(f)).unwrap()))
        .collect();
    std::fs::write(&file, text("[1024, 268435456]")).unwrap();
    let exe = assert_cmd::cargo::cargo_bin("harness");
    let got = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000 && exec \"$0\" \"$@\"")
        .arg(&exe)
        .args(["run", "--quiet", "--jobs", "2", "--out"])
        .arg(&out)
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8(got.stderr).unwrap();
    assert_eq!(got.status.code(), Some(2), "{err}");
    // Line 9, the 9 characters of `entries = [1024, ` before the largest size.
    says(
        &err,
        &[
            "exp.toml:9:18:",
            "[search.tt] entries",
            "lower --jobs or the table size",
        ],
        &["panic"],
    );
    for (f, bytes) in before {
        assert_eq!(std::fs::read(out.join(&f)).unwrap(), bytes, "{f} changed");
    }
}

/// A control character that reaches a message from a path (here ESC in --out) is written as
/// its escape, on stderr and on stdout, so that no message can drive the terminal; a write
/// to a full standard output names it (exit 1).
#[cfg(target_os = "linux")]
#[test]
fn messages_escape_control_characters_and_name_a_failing_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("exp.toml");
    std::fs::write(&file, GOOD).unwrap();
    let out = tmp.path().join("a\u{1b}[31mb");
    let got = harness()
        .args(["run", "--out"])
        .arg(&out)
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(got.stdout).unwrap();
    assert!(stdout.contains("a\\u{1b}[31mb"), "{stdout}");
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    // `plot`'s warning of a chart it cannot draw names the folder: escaped too, and so is a
    // bidirectional override in it.
    let odd = tmp.path().join("c\u{202e}d\u{1b}[2J");
    std::fs::rename(&out, &odd).unwrap();
    let toml = odd.join("experiment.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        format!("{text}\n[report]\ncharts = [\"nodes\", \"qnodes\"]\n"),
    )
    .unwrap();
    let got = harness()
        .arg("plot")
        .arg(&odd)
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8(got.stderr).unwrap();
    assert!(
        err.contains("c\\u{202e}d\\u{1b}[2J") && err.contains("not drawn"),
        "{err}"
    );
    assert!(
        !err.contains('\u{1b}') && !err.contains('\u{202e}'),
        "{err}"
    );
    std::fs::rename(&odd, &out).unwrap();
    // The folder is a file's place now: the refusal names the path, escaped.
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::write(&out, "").unwrap();
    let err = refused(&[
        "run",
        "--out",
        out.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert!(
        err.contains("a\\u{1b}[31mb") && !err.contains('\u{1b}'),
        "{err}"
    );
    let full = std::fs::File::create("/dev/full").unwrap();
    let got = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .args(["theory", "--branching", "2", "--depth", "3"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(got.status.code(), Some(1));
    let err = String::from_utf8(got.stderr).unwrap();
    assert!(err.contains("writing to standard output"), "{err}");
}
