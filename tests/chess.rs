//! Chess: perft against published figures, alpha-beta against minimax under every ordering,
//! quiescence against the horizon effect, and bad input through the CLI.

use assert_cmd::Command;
use harness::games::chess::{Chess, MATE};
use harness::games::Game;
use harness::search::perft::perft;
use harness::search::{search, Algorithm, Ordering, Quiescence, SearchSpec, Variant};
use predicates::prelude::*;

mod common;

const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

fn counts(fen: &str, max: u32) -> Vec<u64> {
    let mut g = Chess::parse_position(fen).unwrap();
    (1..=max).map(|d| perft(&mut g, d)).collect()
}

/// Chessprogramming wiki, "Perft Results" (../shared/reference.md).
#[test]
fn perft_matches_published_figures() {
    assert_eq!(
        counts(INITIAL, 6),
        [20, 400, 8902, 197281, 4865609, 119060324]
    );
    assert_eq!(counts(KIWIPETE, 5), [48, 2039, 97862, 4085603, 193690690]);
    assert_eq!(
        counts(POSITION3, 6),
        [14, 191, 2812, 43238, 674624, 11030083]
    );
}

#[test]
fn perft_cli_prints_depths_and_total() {
    Command::cargo_bin("harness")
        .unwrap()
        .args(["perft", "--fen", KIWIPETE, "--depth", "2"])
        .assert()
        .success()
        .stdout("depth 1: 48\ndepth 2: 2039\ntotal: 2039\n");
    let out = Command::cargo_bin("harness")
        .unwrap()
        .args(["perft", "--fen", INITIAL, "--depth", "3", "--divide"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 21);
    assert!(lines.contains(&"e2e4: 600"), "{text}");
    assert_eq!(lines[20], "total: 8902");
}

/// Ten varied positions: openings, middlegames with captures and checks, castling, en
/// passant, promotions, endgames, a mate in one.
const TEN: [&str; 10] = [
    INITIAL,
    KIWIPETE,
    POSITION3,
    // Position 4 and 5 of the perft suite (castling, promotions, checks).
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // En passant available.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Promotion race.
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
    // Mate in one for White (Qh7#... via back rank: Re8#).
    "6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1",
    // Open middlegame with hanging pieces.
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 5",
    // Rook endgame.
    "8/8/3k4/8/1R6/8/4K3/6r1 b - - 0 40",
];

fn value(fen: &str, alg: Algorithm, variant: Variant, depth: u32, ordering: &str, q: bool) -> i32 {
    let mut g = Chess::parse_position(fen).unwrap();
    let mut spec = SearchSpec::new(alg, depth);
    spec.variant = variant;
    spec.ordering = Ordering::parse(ordering).unwrap();
    if q {
        spec.quiescence = Quiescence {
            enabled: true,
            checks: false,
            promotions: true,
            delta: None,
        };
    }
    let r = search(&mut g, &spec, 7).unwrap();
    assert_eq!(
        g.format_position(),
        Chess::parse_position(fen).unwrap().format_position()
    );
    r.value
}

#[test]
fn alphabeta_equals_minimax_under_every_ordering() {
    let orderings = [
        "natural",
        "static",
        "mvv-lva",
        "random",
        "mvv-lva+random",
        "explicit:e2e4,d2d4",
    ];
    for fen in TEN {
        for depth in 1..=3 {
            let mm = value(
                fen,
                Algorithm::Minimax,
                Variant::FailSoft,
                depth,
                "natural",
                false,
            );
            let nm = value(
                fen,
                Algorithm::Negamax,
                Variant::FailSoft,
                depth,
                "natural",
                false,
            );
            assert_eq!(mm, nm, "{fen} depth {depth}");
            for o in orderings {
                if o.starts_with("explicit") && fen != INITIAL {
                    continue;
                }
                for v in [Variant::FailSoft, Variant::FailHard] {
                    for alg in [Algorithm::AlphaBeta, Algorithm::Pvs] {
                        let ab = value(fen, alg, v, depth, o, false);
                        assert_eq!(ab, mm, "{fen} depth {depth} ordering {o} {alg:?} {v:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn alphabeta_equals_minimax_with_quiescence() {
    for fen in TEN {
        for depth in 1..=2 {
            let mm = value(
                fen,
                Algorithm::Minimax,
                Variant::FailSoft,
                depth,
                "natural",
                true,
            );
            for o in ["natural", "mvv-lva"] {
                for v in [Variant::FailSoft, Variant::FailHard] {
                    for alg in [Algorithm::AlphaBeta, Algorithm::Pvs] {
                        let ab = value(fen, alg, v, depth, o, true);
                        assert_eq!(ab, mm, "{fen} depth {depth} ordering {o} {alg:?} {v:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn mate_in_one_scores_mate_minus_ply() {
    let v = value(
        TEN[7],
        Algorithm::AlphaBeta,
        Variant::FailSoft,
        2,
        "mvv-lva",
        false,
    );
    assert_eq!(v, MATE - 1);
}

/// White's queen can take a knight on d5 that a pawn defends. At depth 1 the capture looks
/// like a knight won (about +800: queen against pawn); quiescence sees exd5 and keeps the
/// queen (about +480: queen against knight and pawn), as a two-ply search does.
#[test]
fn quiescence_sees_the_recapture_beyond_the_horizon() {
    let fen = "7k/8/4p3/3n4/8/8/8/3Q3K w - - 0 1";
    let run = |depth: u32, q: bool| {
        let mut g = Chess::parse_position(fen).unwrap();
        let mut spec = SearchSpec::new(Algorithm::AlphaBeta, depth);
        spec.ordering = Ordering::parse("mvv-lva").unwrap();
        spec.quiescence.enabled = q;
        spec.quiescence.promotions = true;
        let r = search(&mut g, &spec, 1).unwrap();
        (
            r.value,
            g.format_move(r.best_move.unwrap()),
            r.counters.qnodes,
        )
    };
    let (plain, plain_move, plain_q) = run(1, false);
    let (quiet, quiet_move, qnodes) = run(1, true);
    let (two, _, _) = run(2, false);
    assert_eq!(plain_move, "d1d5");
    assert!((750..=850).contains(&plain), "{plain}");
    assert_eq!(plain_q, 0);
    assert_ne!(quiet_move, "d1d5");
    assert!((430..=530).contains(&quiet), "{quiet}");
    assert!(qnodes > 0);
    // The right value: what a search that sees the recapture finds, up to the positional
    // terms of Black's extra move.
    assert!(
        (quiet - two).abs() <= 40,
        "quiescence {quiet}, depth 2 {two}"
    );
}

/// Quiescence's own cutoffs are not counted in `cutoffs` (README: main-search nodes only;
/// positions below the horizon are `qnodes`). At depth 1 every child of the root is a leaf
/// and the root's full window never closes, so the main search has no cutoff, whatever
/// quiescence does below: Kiwipete's 48 captures-rich leaves search thousands of qnodes.
#[test]
fn quiescence_cutoffs_are_not_main_search_cutoffs() {
    let mut g = Chess::parse_position(KIWIPETE).unwrap();
    let mut spec = SearchSpec::new(Algorithm::AlphaBeta, 1);
    spec.ordering = Ordering::parse("mvv-lva").unwrap();
    spec.quiescence.enabled = true;
    let c = search(&mut g, &spec, 1).unwrap().counters;
    assert_eq!((c.nodes, c.leaves, c.interior), (49, 48, 1));
    assert_eq!((c.cutoffs, c.first_move_cutoffs), (0, 0));
    assert!(c.qnodes > 1000, "{c:?}");
}

fn bad_fen(fen: &str, needle: &str) {
    Command::cargo_bin("harness")
        .unwrap()
        .args(["perft", "--fen", fen, "--depth", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--fen").and(predicate::str::contains(needle)));
}

#[test]
fn malformed_fen_fields_are_input_errors() {
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "has 7 ranks",
    );
    bad_fen(
        "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "has `X`",
    );
    bad_fen(
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "covers 7 squares",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "side-to-move field `x`",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
        "castling field `KQxq`",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
        "en-passant field `e4`",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        "en-passant field `e6`",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "halfmove-clock field `x`",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "fullmove-number field `0`",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "fullmove-number field is missing",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "side-to-move field is missing",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1",
        "castling field `KQkq` does not match",
    );
    // cozy-chess takes these (Chess960's rule: a king anywhere on the back rank with a rook
    // beside it) and would generate a castle standard chess does not have.
    bad_fen(
        "4k3/8/8/8/8/8/8/5K1R w K - 0 1",
        "`K` needs the king on e1 and a rook on h1",
    );
    bad_fen(
        "r2k4/8/8/8/8/8/8/4K3 b q - 0 1",
        "`q` needs the king on e8 and a rook on a8",
    );
    // Two digits in a row sum to eight squares, but no FEN writes them so.
    bad_fen(
        "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 6 (`44`) has two digits in a row",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +5 1",
        "halfmove-clock field `+5`",
    );
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 500;",
        "EPD operation `hmvc 500;`: allowed: a whole number from 0 to 100",
    );
}

#[test]
fn impossible_double_checks_are_input_errors_and_possible_ones_are_not() {
    // No discovered check comes from a knight or a pawn.
    bad_fen(
        "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1",
        "impossible double check (from d3 and f3",
    );
    bad_fen(
        "4k3/8/8/8/8/8/3p1p2/4K3 w - - 0 1",
        "impossible double check (from d2 and f2",
    );
    // Two rooks on one line through the king: the one that moved there could not have been
    // blocking the other.
    bad_fen(
        "4k3/8/8/8/8/8/8/r3K2r w - - 0 1",
        "on one line through the king on e1",
    );
    // Possible: a knight moving off the e-file uncovers the rook (Nd6+ from e4), and a pawn
    // taking on d8 and promoting uncovers the rook behind it (exd8=Q+).
    for fen in [
        "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
        "3Qk3/8/8/8/8/8/8/4RK2 b - - 0 1",
    ] {
        let g = Chess::parse_position(fen).unwrap();
        assert!(g.in_check(), "{fen}");
    }
}

#[test]
fn illegal_positions_are_input_errors() {
    bad_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", "no black king");
    bad_fen("4k3/8/8/8/8/8/8/8 w - - 0 1", "no white king");
    // Black is in check from the rook, but it is White's move.
    bad_fen(
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "side not to move (black) is in check",
    );
    // Black is in check three times over, on White's move: the side not to move is named (a
    // board cozy-chess refuses with either side to move).
    bad_fen(
        "4k3/8/3N4/1B6/8/8/8/4R1K1 w - - 0 1",
        "side not to move (black) is in check",
    );
    // White to move, in check from three pieces: more than one move can give.
    bad_fen(
        "4r1k1/8/8/8/1b6/3n4/8/4K3 w - - 0 1",
        "the side to move is in check by 3 pieces",
    );
    bad_fen(
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "pawn on the first or eighth rank",
    );
    // Neither side is in check by a piece, but the kings touch (cozy-chess takes the FEN).
    bad_fen(
        "kK6/8/8/8/8/8/PPPPPPPP/8 w - - 0 1",
        "kings stand side by side (b8 and a8)",
    );
    bad_fen("8/8/8/3kK3/8/8/8/8 b - - 0 1", "kings stand side by side");
}

fn write_experiment(dir: &std::path::Path, positions: &str) -> std::path::PathBuf {
    let path = dir.join("x.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"x\"\n[game]\nkind = \"chess\"\npositions = [\n  {positions}\n]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\nordering = \"mvv-lva\"\nquiescence = {{ enabled = [false, true], delta = 200 }}\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn epd_line_without_a_position_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_experiment(dir.path(), "'bm e4; id \"no board\";'");
    Command::cargo_bin("harness")
        .unwrap()
        .args(["run", path.to_str().unwrap(), "--quiet"])
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("x.toml:5:3").and(predicate::str::contains("no position")),
        );
    let path = write_experiment(
        dir.path(),
        "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Nf6;'",
    );
    Command::cargo_bin("harness")
        .unwrap()
        .args(["run", path.to_str().unwrap(), "--quiet"])
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("x.toml:5:3")
                .and(predicate::str::contains("`Nf6` is not legal")),
        );
}

/// EPD lines written the way people get them wrong: each error says how an EPD line is
/// written (four FEN fields, then operations each ending with `;`).
#[test]
fn malformed_epd_lines_say_how_epd_is_written() {
    let board = "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - -";
    for (rest, needle) in [
        (
            "bm Qd1+",
            "`bm Qd1+` after the four FEN fields is neither the clocks nor `moves`",
        ),
        ("bm Qd1+ Qd2", "`bm Qd1+ Qd2` after the four FEN fields"),
        (
            "0 1 bm Qd1+;",
            "start with the number `0`: an EPD line has no clock fields",
        ),
        (
            "bm Qd1+; id \"x\"",
            "EPD operation `id \"x\"` does not end with `;`",
        ),
    ] {
        bad_fen(&format!("{board} {rest}"), needle);
        bad_fen(&format!("{board} {rest}"), "each ending with `;`");
    }
    // A control character inside a field is written as its escape, never sent to the
    // terminal (an ESC would start a colour sequence there).
    for fen in [
        "k7/8/8/8/8/8/8/KQ6 w - - 0 1\u{1b}[31m",
        "k7/8/8/8/8/8/8/KQ6 w\u{7} - - 0 1",
        "k7/8/8/8/8/8/8/KQ6 w - - 0 1 moves a1a2\u{1b}",
        "k7/8/8/8/8/8/8/KQ6 w - - hmvc 1\u{1b};",
    ] {
        let out = Command::cargo_bin("harness")
            .unwrap()
            .args(["perft", "--fen", fen, "--depth", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{fen:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.chars().any(|c| c != '\n' && c.is_control()), "{err:?}");
        assert!(err.contains("\\u{1b}") || err.contains("\\u{7}"), "{err}");
    }
    // Material no game reaches: more promoted pieces than missing pawns.
    bad_fen(
        "kqqqqqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQQQQK w - - 0 1",
        "white has 14 pieces beyond one queen",
    );
    bad_fen(
        "4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1",
        "but 8 pawns left: at most 0 promotions",
    );
    // Operations that contradict or repeat themselves: bm_hit could not be read.
    for (rest, needle) in [
        ("bm Qd1+; am Qd1+;", "`bm` and `am` both list the move d6d1"),
        ("bm Qd1+; bm Qd2;", "EPD operation `bm` is given twice"),
        ("bm Qd1+ d6d1;", "lists the move `d6d1` twice"),
        // A second clock: the last one would silently win (hmvc 100 is a fifty-move draw).
        ("hmvc 5; hmvc 100;", "EPD operation `hmvc` is given twice"),
        (
            "hmvc 5; bm Qd1+; hmvc 5;",
            "EPD operation `hmvc` is given twice",
        ),
        ("fmvn 3; fmvn 4;", "EPD operation `fmvn` is given twice"),
        // A clock of no number, or of two (the second was dropped unread).
        (
            "hmvc;",
            "EPD operation `hmvc` has no operand; allowed: one whole number from 0 to 100",
        ),
        (
            "hmvc 5 6;",
            "EPD operation `hmvc` has 2 operands; allowed: one whole number from 0 to 100",
        ),
        (
            "fmvn 7 8 9;",
            "EPD operation `fmvn` has 3 operands; allowed: one whole number from 1 to 65535",
        ),
    ] {
        bad_fen(&format!("{board} {rest}"), needle);
    }
}

#[test]
fn epd_runs_report_bm_hit_and_qnodes() {
    let dir = tempfile::tempdir().unwrap();
    // The queen takes a defended knight only without quiescence; bm says keep the queen.
    let path = write_experiment(
        dir.path(),
        "'7k/8/4p3/3n4/8/8/8/3Q3K w - - am Qxd5; id \"hang\";', 'start'",
    );
    let out = dir.path().join("out");
    Command::cargo_bin("harness")
        .unwrap()
        .args(["run", path.to_str().unwrap(), "--quiet", "--jobs", "1"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let mut rdr = csv::Reader::from_path(out.join("runs.csv")).unwrap();
    let header = rdr.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    let (q, qn, hit, bm) = (
        col("quiescence"),
        col("qnodes"),
        col("bm_hit"),
        col("best_move"),
    );
    let hang: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| r[col("position_id")] == *"0")
        .collect();
    let off = hang.iter().find(|r| &r[q] == "off").unwrap();
    let on = hang
        .iter()
        .find(|r| &r[q] == "on,promotions,delta=200")
        .unwrap();
    assert_eq!((&off[bm], &off[hit], &off[qn]), ("d1d5", "false", "0"));
    assert_eq!(&on[hit], "true");
    assert!(on[qn].parse::<u64>().unwrap() > 0);
    let start: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| r[col("position_id")] == *"1")
        .collect();
    assert!(start.iter().all(|r| r[hit].is_empty()));
}

#[test]
fn mvv_lva_is_refused_outside_chess_and_full_depth_in_chess() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.toml");
    std::fs::write(
        &path,
        "name = \"t\"\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = 2\nordering = \"mvv-lva\"\n",
    )
    .unwrap();
    Command::cargo_bin("harness")
        .unwrap()
        .args(["run", path.to_str().unwrap(), "--quiet"])
        .arg("--out")
        .arg(dir.path().join("o"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("mvv-lva applies to chess only"));
    std::fs::write(
        &path,
        "name = \"t\"\n[game]\nkind = \"chess\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = \"full\"\n",
    )
    .unwrap();
    Command::cargo_bin("harness")
        .unwrap()
        .args(["run", path.to_str().unwrap(), "--quiet"])
        .arg("--out")
        .arg(dir.path().join("o"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("t.toml:6:9")
                .and(predicate::str::contains("not available for chess")),
        );
}

/// Every position of the shipped suites parses, with its `bm` moves legal and its `id`.
#[test]
fn shipped_suites_parse() {
    for (file, n) in [
        ("experiments/data/bk.epd", 24),
        ("experiments/data/wac.epd", 300),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let mut count = 0;
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let g = Chess::parse_position(line).unwrap_or_else(|e| panic!("{file}: {line}: {e}"));
            assert!(!g.ops().bm.is_empty() || !g.ops().am.is_empty(), "{line}");
            assert!(g.ops().id.is_some(), "{line}");
            assert_eq!(
                Chess::canonical(&Chess::canonical(line).unwrap()),
                Chess::canonical(line)
            );
            count += 1;
        }
        assert_eq!(count, n, "{file}");
    }
}

/// `--divide` at depth 3 from the initial position splits the published 8,902 into the
/// per-move counts every correct move generator prints (UCI engines' `go perft 3`; they sum to
/// 8,902), and `--fen "start moves e2e4"` reaches the position below one of them.
#[test]
fn perft_divide_and_fen_with_moves_match_the_published_split() {
    let out = Command::cargo_bin("harness")
        .unwrap()
        .args(["perft", "--depth", "3", "--divide"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let want = "a2a3: 380\na2a4: 420\nb1a3: 400\nb1c3: 440\nb2b3: 420\nb2b4: 421\nc2c3: 420\nc2c4: 441\nd2d3: 539\nd2d4: 560\ne2e3: 599\ne2e4: 600\nf2f3: 380\nf2f4: 401\ng1f3: 440\ng1h3: 400\ng2g3: 420\ng2g4: 421\nh2h3: 380\nh2h4: 420\ntotal: 8902\n";
    assert_eq!(text, want);
    let out = Command::cargo_bin("harness")
        .unwrap()
        .args(["perft", "--fen", "start moves e2e4", "--depth", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, "depth 1: 20\ndepth 2: 600\ntotal: 600\n");
    // An illegal move in the list is an input error naming it.
    bad_fen("start moves e2e5", "move `e2e5` is not legal here");
    // A promotion without its piece, or to a king or a pawn, says so (and offers the four
    // moves from the same squares).
    for m in ["a7a8", "a7a8k", "a7a8p"] {
        bad_fen(
            &format!("8/P1k5/K7/8/8/8/8/8 w - - 0 1 moves {m}"),
            "a pawn reaching the last rank names the piece it becomes, a queen, rook, bishop or knight; allowed: a7a8q, a7a8r, a7a8b or a7a8n",
        );
    }
    // No move after the fifty-move rule ended the game: a FEN clock past 100 is refused, and
    // the moves cannot reach one either. Up to clock 100 they may.
    let fifty = "6k1/8/6K1/8/8/8/8/R7 w - - 99 80 moves a1a2";
    bad_fen(
        &format!("{fifty} g8h8"),
        "move `g8h8` comes after the fifty-move rule ended the game (halfmove clock 100)",
    );
    Command::cargo_bin("harness")
        .unwrap()
        .args(["perft", "--fen", fifty, "--depth", "1"])
        .assert()
        .success();
}

/// Quiet checks at the first quiescence ply find a mate that captures alone miss. Black's only
/// legal move is ...a4 (Kg8 is covered by the bishop, Kg7 by the h6 pawn, h7 is blocked);
/// then White's quiet Rb8 is mate. At depth 1 the mate lies in quiescence: with `checks` it is
/// found (black mated at ply 2, one qnode: the mated position), without it White has no
/// capture and stands pat. Delta pruning, which skips captures and promotions only, leaves the
/// quiet check alone even at delta 0, where stand pat + 0 + 0 <= alpha (= stand pat).
#[test]
fn quiescence_checks_find_a_quiet_mate_at_the_horizon() {
    let g = Chess::parse_position("7k/7p/7P/p7/2B5/8/3K4/1R6 b - - 0 1").unwrap();
    let mut moves = Vec::new();
    g.moves(&mut moves);
    assert_eq!(moves.len(), 1, "black's one legal move");
    for checks in [false, true] {
        for delta in [None, Some(0), Some(200)] {
            for algorithm in [Algorithm::AlphaBeta, Algorithm::Minimax] {
                let mut spec = SearchSpec::new(algorithm, 1);
                spec.quiescence = Quiescence {
                    enabled: true,
                    checks,
                    promotions: true,
                    delta,
                };
                let r = search(&mut g.clone(), &spec, 0).unwrap();
                let case = format!("{algorithm:?} checks={checks} delta={delta:?}");
                assert_eq!(r.counters.nodes, 2, "{case}");
                // The mated position lies below the horizon: a qnode, not a ply of max_ply.
                assert_eq!(r.counters.max_ply, 1, "{case}");
                if checks {
                    assert_eq!(r.value, -(MATE - 2), "{case}");
                    assert_eq!(r.counters.qnodes, 1, "{case}");
                } else {
                    assert!(r.value.abs() < MATE / 2, "{case}: {}", r.value);
                    assert_eq!(r.counters.qnodes, 0, "{case}");
                }
            }
        }
    }
}

/// Delta pruning skips a capture exactly when stand pat + the capture's gain bound + delta <=
/// alpha. White to move at the horizon (depth 0) stands pat at -340 and has two captures: Nxd5
/// takes the queen (Black then has no capture and stands pat: 575 for White, which becomes
/// alpha), Bxg4 a pawn (gain bound 100). So Bxg4 is skipped for delta <= 575 - (-340) - 100 =
/// 815 and searched for 816: one qnode against two, the same value either way.
#[test]
fn quiescence_delta_skips_a_capture_exactly_at_its_margin() {
    let g = Chess::parse_position("7k/8/8/3q4/6p1/2N5/7K/3B4 w - - 0 1").unwrap();
    let stand = g.evaluate();
    assert_eq!(stand, -340);
    let mut after_queen = g.clone();
    after_queen.make(g.parse_move("c3d5").unwrap());
    assert_eq!(-after_queen.evaluate(), 575);
    assert_eq!(g.gain_bound(g.parse_move("d1g4").unwrap()), 100);
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Minimax] {
        for (delta, qnodes) in [(None, 2), (Some(815), 1), (Some(816), 2), (Some(0), 1)] {
            let mut spec = SearchSpec::new(algorithm, 0);
            spec.quiescence = Quiescence {
                enabled: true,
                checks: false,
                promotions: true,
                delta,
            };
            let r = search(&mut g.clone(), &spec, 0).unwrap();
            assert_eq!(r.value, 575, "{algorithm:?} delta {delta:?}");
            assert_eq!(r.counters.nodes, 1, "{algorithm:?} delta {delta:?}");
            assert_eq!(r.counters.qnodes, qnodes, "{algorithm:?} delta {delta:?}");
        }
    }
}

/// An EPD line with a tab between its operations and a control character inside its `id`
/// runs, and its runs.csv plots: the position is written with spaces in their place (harness
/// writes no control character, and `plot` refuses one).
#[test]
fn epd_operations_with_control_characters_are_written_printable() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"epd\"\n[game]\nkind = \"chess\"\npositions = [\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\\tid \\\"a\\u0001b\\\";\"]\n[search]\nalgorithm = \"alphabeta\"\ndepth = 1\n",
    );
    let csv = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert!(csv.contains("bm e5; id \"\"a b\"\";"), "{csv}");
    assert!(!csv.chars().any(|c| c.is_control() && c != '\n'), "{csv}");
    Command::cargo_bin("harness")
        .unwrap()
        .arg("plot")
        .arg(&out)
        .assert()
        .success();
}
