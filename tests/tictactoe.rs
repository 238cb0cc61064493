//! Tic-tac-toe: counters pinned to published figures (../shared/reference.md), and every
//! algorithm, variant and ordering checked against minimax on every reachable position.

mod common;

use std::collections::{BTreeMap, HashSet};

use harness::games::tictactoe::{Scale, TicTacToe};
use harness::games::{Game, INF};
use harness::search::{search, Algorithm, Ordering, SearchSpec, Searcher, Status, Variant};

fn run_full(
    g: &mut TicTacToe,
    algorithm: Algorithm,
    seed: u64,
) -> Result<harness::search::SearchResult<u8>, String> {
    let spec = full(algorithm, g);
    search(g, &spec, seed)
}

fn full(algorithm: Algorithm, g: &TicTacToe) -> SearchSpec {
    SearchSpec::new(algorithm, g.max_remaining_plies())
}

#[test]
fn minimax_from_the_empty_board_enters_the_published_tree() {
    for scale in [Scale::WinLoss, Scale::DepthPenalty] {
        for alg in [Algorithm::Minimax, Algorithm::Negamax] {
            let mut g = TicTacToe::new(scale);
            let r = run_full(&mut g, alg, 1).unwrap();
            assert_eq!(r.status, Status::Ok);
            assert_eq!(r.counters.nodes, 549_946, "{alg:?} {scale:?}");
            assert_eq!(r.counters.terminal, 255_168);
            // Full depth: every leaf is a finished game.
            assert_eq!(r.counters.leaves, 255_168);
            assert_eq!(r.counters.cutoffs, 0);
            // 294,778 interior nodes; every node but the root is a move generated at one.
            assert_eq!(r.counters.interior, 294_778);
            assert_eq!(r.counters.moves_generated, 549_946 - 1);
            assert_eq!(r.counters.max_ply, 9);
            // Half a million nodes take some time: the clock was read around the search.
            assert!(r.counters.time_ns > 0);
            // ebf = 549,946^(1/9); mean branching = 549,945 / 294,778.
            let ebf = r.counters.effective_branching_factor().unwrap();
            assert!((ebf - 4.343_235_10).abs() < 1e-8, "{ebf}");
            let b = r.counters.mean_branching().unwrap();
            assert!((b - 1.865_624_30).abs() < 1e-8, "{b}");
            assert_eq!(r.value, 0, "the empty board is a draw");
            assert_eq!(r.pv.len(), 9, "a draw is played out to the full board");
            // The game is restored.
            assert_eq!(g.format_position(), ".........");
        }
    }
}

/// Finished games by length (5 plies: 1,440; 6: 5,328; 7: 47,952; 8: 72,576; 9: 127,872) and
/// tree nodes by ply, read off the counters of depth-limited minimax: the games that end
/// within d plies are the terminal leaves at depth d.
#[test]
fn depth_limited_minimax_counts_games_by_length_and_nodes_by_ply() {
    let mut g = TicTacToe::new(Scale::WinLoss);
    let by_ply = [1u64, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    let by_length = [0u64, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872];
    let (mut nodes, mut ended) = (0, 0);
    for d in 0..=9u32 {
        let r = search(&mut g, &SearchSpec::new(Algorithm::Minimax, d), 0).unwrap();
        nodes += by_ply[d as usize];
        ended += by_length[d as usize];
        assert_eq!(r.counters.nodes, nodes, "depth {d}");
        assert_eq!(r.counters.terminal, ended, "depth {d}");
        // The leaves are the finished games plus the positions at the horizon still open.
        let open_at_horizon = by_ply[d as usize] - by_length[d as usize];
        assert_eq!(r.counters.leaves, ended + open_at_horizon, "depth {d}");
    }
}

/// Every position reachable from the empty board, by key, with its ply.
fn reachable() -> BTreeMap<u64, (TicTacToe, u32)> {
    common::reachable_tictactoe(Scale::WinLoss)
        .into_iter()
        .map(|(g, ply)| (g.key(), (g, ply)))
        .collect()
}

#[test]
fn reachable_positions_match_the_published_counts() {
    let all = reachable();
    assert_eq!(all.len(), 5_478);
    let finished = all.values().filter(|(g, _)| g.outcome().is_some()).count();
    assert_eq!(finished, 958);
    let mut by_ply = [0usize; 10];
    for (_, ply) in all.values() {
        by_ply[*ply as usize] += 1;
    }
    assert_eq!(by_ply, [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]);
}

/// Finished games by result (255,168 games, OEIS A061526: 131,184 X wins, 77,904 O wins, 46,080
/// draws, as ../shared/reference.md gives them), every
/// game from the empty board played out. A finished position scores for the side to move, so a
/// win there is always the other side's: X's when X moved last (an odd number of plies).
#[test]
fn finished_games_split_into_the_published_wins_and_draws() {
    fn walk(g: &mut TicTacToe, ply: u32, tally: &mut [u64; 3]) {
        if let Some(v) = g.outcome() {
            assert!(v <= 0, "{}: won by the side to move", g.format_position());
            let i = match (v, ply % 2) {
                (0, _) => 2,
                (_, 1) => 0,
                _ => 1,
            };
            tally[i] += 1;
            return;
        }
        let mut moves = Vec::new();
        g.moves(&mut moves);
        for m in moves {
            g.make(m);
            walk(g, ply + 1, tally);
            g.unmake(m);
        }
    }
    let mut tally = [0; 3];
    walk(&mut TicTacToe::new(Scale::WinLoss), 0, &mut tally);
    assert_eq!(tally, [131_184, 77_904, 46_080], "[X wins, O wins, draws]");
}

/// The 5,478 reachable positions fall into 765 classes under the square's eight symmetries
/// (OEIS A008907): each position's class is the least of its eight images.
#[test]
fn reachable_positions_up_to_symmetry_are_the_published_765() {
    // Cell i of a board's image is cell p[i] of the board.
    let rotate = [6, 3, 0, 7, 4, 1, 8, 5, 2];
    let mirror = [2, 1, 0, 5, 4, 3, 8, 7, 6];
    let mut maps = Vec::new();
    let mut p: [usize; 9] = std::array::from_fn(|i| i);
    for _ in 0..4 {
        maps.push(p);
        maps.push(std::array::from_fn(|i| p[mirror[i]]));
        p = std::array::from_fn(|i| p[rotate[i]]);
    }
    assert_eq!(
        maps.iter().collect::<HashSet<_>>().len(),
        8,
        "eight distinct symmetries"
    );
    let classes: HashSet<String> = reachable()
        .values()
        .map(|(g, _)| {
            let cells: Vec<char> = g.format_position().chars().collect();
            assert_eq!(cells.len(), 9);
            maps.iter()
                .map(|p| p.iter().map(|&i| cells[i]).collect::<String>())
                .min()
                .unwrap()
        })
        .collect();
    assert_eq!(classes.len(), 765);
}

#[test]
fn every_algorithm_and_ordering_returns_the_minimax_value_on_every_position() {
    let orderings = [
        "natural",
        "static",
        "random",
        "explicit:8,7,6,5,4,3,2,1,0",
        "static+random",
    ];
    let all = reachable();
    let mut checked = 0;
    for scale in [Scale::WinLoss, Scale::DepthPenalty] {
        for (text, _) in all.values().map(|(g, p)| (g.format_position(), p)) {
            let mut g = TicTacToe::parse_position(scale, &text).unwrap();
            let truth = run_full(&mut g, Algorithm::Minimax, 0).unwrap();
            for o in orderings {
                let ordering = Ordering::parse(o).unwrap();
                let mut specs = vec![full(Algorithm::Negamax, &g)];
                for algorithm in [Algorithm::AlphaBeta, Algorithm::Pvs] {
                    for variant in [Variant::FailHard, Variant::FailSoft] {
                        let mut s = full(algorithm, &g);
                        s.variant = variant;
                        specs.push(s);
                    }
                }
                for mut spec in specs {
                    spec.ordering = ordering.clone();
                    let r = search(&mut g, &spec, 7).unwrap();
                    assert_eq!(r.value, truth.value, "{text} {scale:?} {o} {spec:?}");
                    assert_eq!(g.format_position(), text);
                    // The best move is one that achieves the value.
                    if let Some(m) = r.best_move {
                        g.make(m);
                        let child = run_full(&mut g, Algorithm::Negamax, 0).unwrap();
                        g.unmake(m);
                        assert_eq!(-child.value, truth.value, "{text} best move {m}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 2 * 5_478 * 5 * 5);
}

/// Full-depth alpha-beta from the empty board, both variants, natural and static order, both
/// scales: every counter as `scripts/models/tictactoe.py` (an independent model written from
/// the README's definitions) counts it. [nodes, leaves, interior, cutoffs, first-move cutoffs].
#[test]
fn alpha_beta_counts_equal_the_independent_model() {
    let mm = run_full(&mut TicTacToe::new(Scale::WinLoss), Algorithm::Minimax, 0).unwrap();
    // [natural order, static order] per scale.
    let counts = [
        (
            Scale::WinLoss,
            [
                [18_297, 7_330, 10_967, 8_180, 5_194],
                [7_275, 2_893, 4_382, 3_090, 2_202],
            ],
        ),
        (
            Scale::DepthPenalty,
            [
                [20_866, 8_453, 12_413, 7_692, 4_635],
                [7_865, 3_161, 4_704, 2_854, 2_025],
            ],
        ),
    ];
    for (scale, [natural, ordered]) in counts {
        for (ordering, want) in [("natural", natural), ("static", ordered)] {
            let mut g = TicTacToe::new(scale);
            for variant in [Variant::FailHard, Variant::FailSoft] {
                let mut spec = full(Algorithm::AlphaBeta, &g);
                spec.variant = variant;
                spec.ordering = Ordering::parse(ordering).unwrap();
                let r = search(&mut g, &spec, 0).unwrap();
                let c = &r.counters;
                let what = format!("{scale:?} {variant:?} {ordering}");
                assert_eq!(r.value, 0, "{what}");
                assert_eq!(
                    [
                        c.nodes,
                        c.leaves,
                        c.interior,
                        c.cutoffs,
                        c.first_move_cutoffs
                    ],
                    want,
                    "{what}"
                );
                // Full depth: every leaf is a finished game; no table, so every node is one or
                // the other.
                assert_eq!(c.terminal, c.leaves, "{what}");
                assert_eq!(c.nodes, c.leaves + c.interior, "{what}");
                assert!(c.nodes < mm.counters.nodes / 10, "{what}");
                // ebf = nodes^(1/9): the deepest ply entered is the last.
                assert_eq!(c.max_ply, 9, "{what}");
                let ebf = c.effective_branching_factor().unwrap();
                assert!(
                    (ebf - (want[0] as f64).powf(1.0 / 9.0)).abs() < 1e-12,
                    "{what}"
                );
            }
        }
    }
}

/// Principal variation search from the empty board, full depth, both variants and scales: every
/// counter as `scripts/models/tictactoe.py` counts it (its `pvs` search), re-searches included.
/// [nodes, leaves, interior, cutoffs, first-move cutoffs, re-searches].
#[test]
fn pvs_counts_equal_the_independent_model() {
    let counts = [
        (
            Scale::WinLoss,
            [
                ("natural", [18_014, 7_188, 10_826, 8_320, 5_139, 8]),
                ("static", [6_375, 2_496, 3_879, 2_929, 1_968, 2]),
                ("oracle-best", [2_312, 781, 1_531, 1_060, 1_060, 0]),
            ],
        ),
        (
            Scale::DepthPenalty,
            [
                ("natural", [18_108, 7_201, 10_907, 8_305, 5_196, 10]),
                ("static", [6_367, 2_491, 3_876, 2_923, 1_969, 2]),
                ("oracle-best", [1_892, 641, 1_251, 850, 850, 0]),
            ],
        ),
    ];
    for (scale, cases) in counts {
        for (ordering, want) in cases {
            let mut g = TicTacToe::new(scale);
            for variant in [Variant::FailHard, Variant::FailSoft] {
                let mut spec = full(Algorithm::Pvs, &g);
                spec.variant = variant;
                spec.ordering = Ordering::parse(ordering).unwrap();
                let r = search(&mut g, &spec, 0).unwrap();
                let c = &r.counters;
                let what = format!("{scale:?} {variant:?} {ordering}");
                assert_eq!(r.value, 0, "{what}");
                assert_eq!(
                    [
                        c.nodes,
                        c.leaves,
                        c.interior,
                        c.cutoffs,
                        c.first_move_cutoffs,
                        c.researches
                    ],
                    want,
                    "{what}"
                );
                // Alpha-beta on the same ordering: PVS enters fewer nodes here, and with the
                // best move first (no move after the first beats it) exactly as many.
                spec.algorithm = Algorithm::AlphaBeta;
                let ab = search(&mut g, &spec, 0).unwrap().counters;
                assert_eq!(ab.researches, 0, "{what}");
                if ordering == "oracle-best" {
                    assert_eq!(ab.nodes, c.nodes, "{what}");
                } else {
                    assert!(c.nodes < ab.nodes, "{what}");
                }
            }
        }
    }
}

/// The alpha-beta bound theorem, with v the minimax value and r the value returned on the
/// window (alpha, beta). Fail-soft: r <= alpha means v <= r (r is an upper bound), r >= beta
/// means v >= r (a lower bound), otherwise r = v; and v <= alpha gives r <= alpha, v >= beta
/// gives r >= beta. Fail-hard: r = alpha when v <= alpha, r = beta when v >= beta, otherwise
/// r = v (at an interior root). Both with and without a transposition table (correct bounds,
/// 64-bit keys), for alpha-beta and principal variation search.
#[test]
fn alpha_beta_satisfies_the_bound_theorem_on_random_windows() {
    use harness::search::{Bounds, Replacement, TtSpec};
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let all = reachable();
    // Fail-low, fail-high, exact, for each (algorithm, variant, table) combination.
    let mut cases = [[0usize; 3]; 8];
    for (base, _) in all.values() {
        for scale in [Scale::WinLoss, Scale::DepthPenalty] {
            let mut g = TicTacToe::parse_position(scale, &base.format_position()).unwrap();
            let v = run_full(&mut g, Algorithm::Negamax, 0).unwrap().value;
            for (k, (algorithm, variant, table)) in [
                (Algorithm::AlphaBeta, Variant::FailSoft, false),
                (Algorithm::AlphaBeta, Variant::FailSoft, true),
                (Algorithm::AlphaBeta, Variant::FailHard, false),
                (Algorithm::AlphaBeta, Variant::FailHard, true),
                (Algorithm::Pvs, Variant::FailSoft, false),
                (Algorithm::Pvs, Variant::FailSoft, true),
                (Algorithm::Pvs, Variant::FailHard, false),
                (Algorithm::Pvs, Variant::FailHard, true),
            ]
            .into_iter()
            .enumerate()
            {
                let a = rng.gen_range(-11..11);
                let b = rng.gen_range(a + 1..=12);
                let (alpha, beta) = if rng.gen_bool(0.05) {
                    (-INF, b)
                } else {
                    (a, b)
                };
                let mut spec = full(algorithm, &g);
                spec.variant = variant;
                spec.ordering = Ordering::parse("random").unwrap();
                spec.tt = table.then_some(TtSpec {
                    entries: 256,
                    replacement: Replacement::TwoTier,
                    key_bits: 64,
                    bounds: Bounds::Correct,
                });
                let mut s = Searcher::new(&g, &spec, rng.gen()).unwrap();
                let r = s.run_window(&mut g, alpha, beta).value;
                let at =
                    format!("v={v} r={r} ({alpha},{beta}) {algorithm:?} {variant:?} table={table}");
                let case = if v <= alpha {
                    0
                } else if v >= beta {
                    1
                } else {
                    2
                };
                cases[k][case] += 1;
                match variant {
                    Variant::FailSoft => {
                        if r <= alpha {
                            assert!(v <= r, "fail-low value is an upper bound: {at}");
                        } else if r >= beta {
                            assert!(v >= r, "fail-high value is a lower bound: {at}");
                        } else {
                            assert_eq!(r, v, "inside the window: {at}");
                        }
                        match case {
                            0 => assert!(r <= alpha, "{at}"),
                            1 => assert!(r >= beta, "{at}"),
                            _ => assert_eq!(r, v, "{at}"),
                        }
                    }
                    // A finished game is a leaf: its utility comes back unclamped, and the
                    // interior node above clamps it.
                    Variant::FailHard if g.outcome().is_some() => assert_eq!(r, v, "{at}"),
                    Variant::FailHard => {
                        let want = [alpha, beta, v][case];
                        assert_eq!(r, want, "{at}");
                    }
                }
            }
        }
    }
    // Every case was exercised for every combination.
    assert!(cases.iter().flatten().all(|&c| c > 100), "{cases:?}");
}

#[test]
fn budgets_stop_the_search_and_keep_partial_counters() {
    let mut g = TicTacToe::new(Scale::WinLoss);
    let mut spec = full(Algorithm::Minimax, &g);
    spec.max_nodes = Some(1000);
    let r = search(&mut g, &spec, 0).unwrap();
    assert_eq!(r.status, Status::Budget);
    assert_eq!(r.counters.nodes, 1000);
    assert_eq!(g.format_position(), ".........");
    // A budget the search fits in exactly does not stop it.
    spec.max_nodes = Some(549_946);
    let r = search(&mut g, &spec, 0).unwrap();
    assert_eq!(r.status, Status::Ok);
    // A time budget is read every 1,024 nodes: one already spent stops the search at the
    // 1,024th node, for every algorithm, with the game restored.
    for alg in [Algorithm::Minimax, Algorithm::Negamax, Algorithm::AlphaBeta] {
        let mut spec = full(alg, &g);
        spec.max_seconds = Some(1e-9);
        let r = search(&mut g, &spec, 0).unwrap();
        assert_eq!(r.status, Status::Budget, "{alg:?}");
        assert_eq!(r.counters.nodes, 1024, "{alg:?}");
        assert_eq!(g.format_position(), ".........");
    }
}

#[test]
fn random_tie_break_is_seeded_and_picks_among_equal_moves() {
    // From the empty board every move draws, so each of the nine is a tie.
    let mut seen = std::collections::BTreeSet::new();
    for alg in [Algorithm::Negamax, Algorithm::AlphaBeta] {
        for seed in 0..40u64 {
            let mut g = TicTacToe::new(Scale::WinLoss);
            let mut spec = full(alg, &g);
            spec.tie_break = harness::search::TieBreak::Random;
            let r1 = search(&mut g, &spec, seed).unwrap();
            let r2 = search(&mut g, &spec, seed).unwrap();
            assert_eq!(r1.best_move, r2.best_move, "same seed, same choice");
            assert_eq!(r1.value, 0);
            seen.insert(r1.best_move.unwrap());
        }
    }
    assert!(
        seen.len() >= 5,
        "random tie-break should spread over the tied moves: {seen:?}"
    );
}

/// `depth = "full"` on a finished position searches 0 plies, not the empty squares: one node,
/// the game's result, with or without iterative deepening and a table.
#[test]
fn depth_full_on_a_finished_position_is_zero_plies() {
    let records = common::run_records(
        "name = \"fin\"\nseed = 1\n[game]\nkind = \"tictactoe\"\npositions = [\"xxxoo....\"]\n[search]\nalgorithm = [\"minimax\", \"alphabeta\"]\ndepth = \"full\"\niterative = [false, true]\n[search.tt]\nenabled = [false, true]\n",
    );
    assert_eq!(records.len(), 6);
    for r in &records {
        // X has three in a row and O is to move: a loss for the side to move.
        assert_eq!(
            (r.depth, r.counters.nodes, r.value),
            (0, 1, -1),
            "{}",
            r.run.key
        );
        assert_eq!(r.status, Status::Ok);
    }
}

/// Builds the plan of an experiment file's text (no run).
fn plan_of(toml: &str) -> harness::experiment::plan::Plan {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    std::fs::write(&exp, toml).unwrap();
    let (file, src) = harness::experiment::config::load(&exp).unwrap();
    harness::experiment::plan::build(&exp, &src, &file).unwrap()
}

/// Run keys pad each number to the widest of its plan, so that runs.csv (in key order) is in
/// numeric order past 999 repetitions and 9,999 plies; a repetition's seed does not depend on
/// how many repetitions the plan holds.
#[test]
fn run_keys_sort_numerically_past_their_usual_widths() {
    let exp = |reps: u32, depths: &str| {
        plan_of(&format!(
            "name = \"w\"\nseed = 3\n[game]\nkind = \"tictactoe\"\n[search]\nalgorithm = \"alphabeta\"\ndepth = {depths}\nordering = \"random\"\nrepetitions = {reps}\n"
        ))
    };
    let big = exp(1001, "[2, 10000]");
    assert_eq!(big.runs.len(), 2002);
    let order: Vec<(u32, u32)> = big
        .runs
        .iter()
        .map(|r| {
            let d = match r.depth {
                harness::experiment::config::Depth::Plies(p) => p,
                harness::experiment::config::Depth::Full => unreachable!(),
            };
            (d, r.rep)
        })
        .collect();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(order, sorted);
    assert!(
        big.runs[1000].key.ends_with("rep=1000"),
        "{}",
        big.runs[1000].key
    );
    assert!(
        big.runs[0].key.contains("depth=00002;"),
        "{}",
        big.runs[0].key
    );
    // The usual widths stay as they were, and so do the seeds.
    let small = exp(10, "2");
    assert!(
        small.runs[5].key.contains("depth=0002;"),
        "{}",
        small.runs[5].key
    );
    assert!(
        small.runs[5].key.ends_with("rep=005"),
        "{}",
        small.runs[5].key
    );
    assert_eq!(small.runs[5].seed, big.runs[5].seed);
}

/// A position's seed does not depend on how many positions the plan holds: tree 3 of 5 and
/// tree 3 of 100 (whose run keys pad the position to 3 digits) shuffle alike.
#[test]
fn a_positions_seed_does_not_depend_on_the_plans_width() {
    let exp = |trees: u32| {
        plan_of(&format!(
            "name = \"w\"\nseed = 3\n[game]\nkind = \"uniform\"\nbranching = 3\nheight = 4\ntrees = {trees}\n[search]\nalgorithm = \"alphabeta\"\ndepth = 4\nordering = \"random\"\n"
        ))
    };
    let (small, big) = (exp(5), exp(100));
    assert!(
        small.runs[3].key.contains(";pos=03;"),
        "{}",
        small.runs[3].key
    );
    assert!(big.runs[3].key.contains(";pos=003;"), "{}", big.runs[3].key);
    assert_eq!(small.runs[3].seed, big.runs[3].seed);
}

/// `static` ranks three classes (centre, corners, edges), in natural order within a class, so a
/// term after it orders the squares of a class. Figures from `scripts/models/tictactoe.py` (an
/// independent model, the README's definitions): alpha-beta (fail-hard), full depth, from the
/// empty board.
#[test]
fn static_ranks_centre_corners_edges_and_leaves_ties_within_each() {
    for (scale, plain, best, worst) in [
        (Scale::DepthPenalty, 7_865, 3_636, 13_934),
        (Scale::WinLoss, 7_275, 4_063, 12_240),
    ] {
        let mut g = TicTacToe::new(scale);
        for (ordering, nodes) in [
            ("static", plain),
            // Within a class the oracle orders; alone it keeps 4, 0, 2, 6, 8, 1, 3, 5, 7.
            ("explicit:4,0,2,6,8,1,3,5,7", plain),
            ("static+oracle-best", best),
            ("static+oracle-worst", worst),
        ] {
            let mut spec = full(Algorithm::AlphaBeta, &g);
            spec.variant = Variant::FailHard;
            spec.ordering = Ordering::parse(ordering).unwrap();
            let r = search(&mut g, &spec, 1).unwrap();
            assert_eq!(r.counters.nodes, nodes, "{scale:?} {ordering}");
        }
    }
}

/// A depth past the game's end searches as the plies left: the same tree, and the same
/// counters, with history too (it credits depth², which once took the depth as written).
#[test]
fn a_depth_past_the_end_searches_as_the_plies_left() {
    let mut g = TicTacToe::parse_position(Scale::DepthPenalty, "4").unwrap();
    for iterative in [false, true] {
        let nodes: Vec<u64> = [8, 9, 255]
            .into_iter()
            .map(|depth| {
                let mut spec = SearchSpec::new(Algorithm::AlphaBeta, depth);
                spec.ordering = Ordering::parse("killer+history+static").unwrap();
                spec.iterative = iterative;
                let r = search(&mut g, &spec, 1).unwrap();
                r.counters.nodes
            })
            .collect();
        // (Depth 9 once entered 1,586 nodes against depth 8's 1,542.)
        assert_eq!(nodes[1..], [nodes[0], nodes[0]], "iterative {iterative}");
        // As `scripts/models/enhancements.py --check` counts the runs.
        assert_eq!(nodes[0], if iterative { 4_688 } else { 1_542 });
    }
}

/// `searched_branching` is (nodes − roots) / interior: each iteration of iterative deepening
/// enters its own root, which is no node's child. Minimax and negamax enter every move they
/// generate, so theirs is `mean_branching` exactly, iterative or not (iterative deepening's
/// extra roots once put minimax's above it: 91/11 for 92 nodes at depth 2); no search enters
/// more children than it generates moves.
#[test]
fn searched_branching_takes_every_root_out_of_the_nodes() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"sb\"\nseed = 1\n[game]\nkind = \"tictactoe\"\n\
         positions = [\"start\", \"4\", \"0,4\", \"0,4,8\"]\n[search]\n\
         algorithm = [\"minimax\", \"negamax\", \"alphabeta\"]\ndepth = [2, \"full\"]\n\
         iterative = [false, true]\n",
    );
    let mut rd = csv::Reader::from_path(out.join("runs.csv")).unwrap();
    let head = rd.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let mut rows = 0;
    for r in rd.records().map(|r| r.unwrap()) {
        let num = |name: &str| r[col(name)].parse::<f64>().unwrap();
        let (mean, searched) = (num("mean_branching"), num("searched_branching"));
        let roots = if &r[col("iterative")] == "true" {
            r[col("iteration_nodes")].split(' ').count() as f64
        } else {
            1.0
        };
        let want = (num("nodes") - roots) / num("interior");
        assert!((searched - want).abs() < 5e-7, "{r:?}");
        if &r[col("algorithm")] == "alphabeta" {
            assert!(searched <= mean + 5e-7, "{r:?}");
        } else {
            assert!((searched - mean).abs() < 5e-7, "{r:?}");
        }
        rows += 1;
    }
    assert_eq!(rows, 4 * 3 * 2 * 2);
    // The case above by hand: minimax from the empty board to depth 2, iterative: 1 + 9 nodes,
    // then 1 + 9 + 72; 1 + 10 interior nodes; 90 children over 11.
    let mut rd = csv::Reader::from_path(out.join("runs.csv")).unwrap();
    let first = rd
        .records()
        .map(|r| r.unwrap())
        .find(|r| {
            [
                &r[col("algorithm")],
                &r[col("position_id")],
                &r[col("depth")],
                &r[col("iterative")],
            ] == ["minimax", "0", "2", "true"]
        })
        .unwrap();
    assert_eq!(
        [
            &first[col("nodes")],
            &first[col("interior")],
            &first[col("searched_branching")]
        ],
        ["92", "11", "8.181818"]
    );
}
