//! "Search loops allocate nothing per node": a search's allocations (its buffers, sized
//! before it starts, the table, the result) do not grow with the nodes it enters. Each case
//! searches two positions of one game to the same depth with the same settings, one tree
//! much larger than the other, and both must allocate exactly as often.

use allocation_counter::measure;
use harness::experiment::positions::random_openings;
use harness::games::chess::Chess;
use harness::games::connect4::Connect4;
use harness::games::nim::Nim;
use harness::games::tictactoe::{Scale, TicTacToe};
use harness::games::uniform::{Model, Uniform, UniformSpec, Values};
use harness::games::Game;
use harness::search::oracle::uniform_entries;
use harness::search::quiescence::Quiescence;
use harness::search::solver::{solve, Techniques};
use harness::search::tt::TtSpec;
use harness::search::{search, Algorithm, Ordering, SearchSpec, TieBreak};

/// The settings each game is searched with: every algorithm, orderings that keep state
/// (killers, history, the table's move, random draws, the oracle), random tie-breaking, a
/// table, iterative deepening.
fn specs(depth: u32, orderings: &[&str]) -> Vec<(String, SearchSpec)> {
    let mut out = Vec::new();
    for alg in [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::Pvs,
    ] {
        out.push((format!("{alg:?}"), SearchSpec::new(alg, depth)));
    }
    for o in orderings {
        let mut s = SearchSpec::new(Algorithm::AlphaBeta, depth);
        s.ordering = Ordering::parse(o).unwrap();
        s.tie_break = TieBreak::Random;
        out.push((format!("alphabeta {o}, random ties"), s.clone()));
        s.tt = Some(TtSpec::new(1 << 12));
        out.push((format!("alphabeta {o}, table"), s.clone()));
        s.iterative = true;
        out.push((format!("alphabeta {o}, table, iterative"), s.clone()));
        s.algorithm = Algorithm::Pvs;
        out.push((format!("pvs {o}, table, iterative"), s));
    }
    out
}

/// Allocations and nodes of one search of `g` (the game restored after it).
fn allocs<G: Game>(g: &mut G, spec: &SearchSpec) -> (u64, u64) {
    let mut nodes = 0;
    let info = measure(|| {
        let r = search(g, spec, 7).unwrap();
        nodes = r.counters.nodes;
    });
    (info.count_total, nodes)
}

/// `small` and `large` searched with each spec: the same number of allocations, and a large
/// tree at least four times the small one (so that an allocation per node, or per few
/// nodes, would show).
fn same_allocations<G: Game>(
    game: &str,
    mut small: G,
    mut large: G,
    specs: Vec<(String, SearchSpec)>,
) {
    for (name, spec) in specs {
        let (a_small, n_small) = allocs(&mut small, &spec);
        let (a_large, n_large) = allocs(&mut large, &spec);
        assert!(
            n_large >= 4 * n_small,
            "{game}, {name}: {n_large} nodes against {n_small}: the trees are too alike to tell"
        );
        assert_eq!(
            a_small, a_large,
            "{game}, {name}: {a_small} allocations for {n_small} nodes, {a_large} for {n_large}"
        );
        // The count is of this search's own buffers, not of nothing.
        assert!(a_small > 0, "{game}, {name}: no allocation counted");
    }
}

/// Uniform tree 0 of branching `b`, height 6.
fn tree(b: u32) -> Uniform {
    let spec = UniformSpec {
        branching: b,
        height: 6,
        values: Values::Distinct,
        model: Model::Independent,
    };
    Uniform::new(spec, 0, 11)
}

/// King and pawn against king, and a middlegame of 48 moves with captures on both sides.
fn chess_pair() -> (Chess, Chess) {
    let ending = Chess::parse_position("8/8/8/4k3/8/4P3/8/4K3 w - - 0 1").unwrap();
    let busy = Chess::parse_position(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .unwrap();
    (ending, busy)
}

#[test]
fn uniform_trees_allocate_the_same_for_b_2_and_b_8() {
    let orderings = ["natural", "random", "killer+history", "tt+killer+history"];
    same_allocations("uniform", tree(2), tree(8), specs(6, &orderings));
}

/// The oracle behind `oracle-best`, `oracle-worst` and `strong` memoizes values in a hash map
/// that grows as the search meets new positions (`search::oracle`): a doubling of the map is
/// an allocation, so a tree 40 times larger may allocate a few times more (log2 of the
/// ratio), never once per node.
#[test]
fn the_oracle_allocates_as_its_memo_doubles_not_per_node() {
    for o in ["oracle-best", "oracle-worst", "strong:0.7:0.9"] {
        let mut s = SearchSpec::new(Algorithm::AlphaBeta, 6);
        s.ordering = Ordering::parse(o).unwrap();
        let (a_small, n_small) = allocs(&mut tree(2), &s);
        let (a_large, n_large) = allocs(&mut tree(8), &s);
        assert!(n_large >= 40 * n_small, "{o}: {n_large} against {n_small}");
        // The memo holds the nodes with two plies or more left, at most.
        let memo = uniform_entries(8, 6) / uniform_entries(2, 6);
        let doublings = memo.log2().ceil() as u64;
        assert!(
            a_small <= a_large && a_large <= a_small + doublings,
            "{o}: {a_small} allocations for {n_small} nodes, {a_large} for {n_large}"
        );
    }
}

#[test]
fn tictactoe_allocates_the_same_from_a_late_and_the_empty_board() {
    let empty = TicTacToe::new(Scale::DepthPenalty);
    let late = TicTacToe::parse_position(Scale::DepthPenalty, "xo.xo....").unwrap();
    let orderings = ["static", "tt+killer+history+static", "random"];
    same_allocations("tic-tac-toe", late, empty, specs(5, &orderings));
}

#[test]
fn connect4_allocates_the_same_from_a_crowded_and_the_empty_board() {
    // 36 plies in: six cells left at most.
    let crowded = random_openings(&Connect4::new(7, 6), 1, 36, 5)
        .unwrap()
        .remove(0);
    let empty = Connect4::new(7, 6);
    let orderings = ["center-out", "tt+killer+history+static", "threats+random"];
    same_allocations("connect4", crowded, empty, specs(6, &orderings));
}

#[test]
fn nim_allocates_the_same_for_small_and_large_heaps() {
    let small = Nim::parse_position(false, "1,1,2").unwrap();
    let large = Nim::parse_position(false, "3,4,5").unwrap();
    let orderings = ["static", "tt+killer+history"];
    same_allocations("nim", small, large, specs(4, &orderings));
}

#[test]
fn chess_allocates_the_same_from_an_ending_and_a_middlegame() {
    let (ending, busy) = chess_pair();
    let orderings = ["mvv-lva", "tt+killer+history+mvv-lva"];
    same_allocations("chess", ending, busy, specs(3, &orderings));
}

/// Quiescence search has no depth to size its buffers by before it starts: a move and a key
/// buffer are made the first time it reaches a quiescence ply, and reused from then on. So a
/// tree that reaches deeper allocates more, by the plies it reaches (two buffers each, and
/// the lists of them doubling), never by its nodes.
#[test]
fn quiescence_allocates_per_ply_reached_not_per_node() {
    let (ending, busy) = chess_pair();
    let mut q = SearchSpec::new(Algorithm::AlphaBeta, 3);
    q.ordering = Ordering::parse("mvv-lva").unwrap();
    q.quiescence = Quiescence {
        enabled: true,
        checks: true,
        promotions: true,
        delta: Some(200),
    };
    let (mut small, mut large) = (ending, busy);
    let (a_small, n_small) = allocs(&mut small, &q);
    let r = search(&mut large, &q, 7).unwrap();
    let (a_large, n_large) = allocs(&mut large, &q);
    let qnodes = r.counters.qnodes;
    assert!(n_large >= 20 * n_small, "{n_large} nodes against {n_small}");
    assert!(qnodes >= 10_000, "{qnodes} quiescence nodes");
    // Two buffers per quiescence ply reached, and the lists of them doubling: 44 more here,
    // against 13,579 quiescence nodes and 2,314 nodes.
    let extra = a_large - a_small.min(a_large);
    assert!(
        a_small <= a_large && extra % 2 == 0 && extra <= 100 && 100 * extra <= qnodes,
        "{a_small} allocations for {n_small} nodes, {a_large} for {n_large} and {qnodes} quiescence nodes"
    );
}

/// `algorithm = "solve"` in `search` (full-depth alpha-beta) with a table and orderings, from
/// two positions searched to the same depth. (Buffers are made for the plies a search can
/// reach, the depth or the plies left in the game if fewer: positions are paired so that
/// both reach the same.)
#[test]
fn solve_in_search_allocates_the_same_for_small_and_large_trees() {
    let solve = |depth: u32, ordering: &str, tt: bool| {
        let mut s = SearchSpec::new(Algorithm::Solve, depth);
        s.ordering = Ordering::parse(ordering).unwrap();
        s.tt = tt.then(|| TtSpec::new(1 << 12));
        (format!("solve {ordering}, table {tt}"), s)
    };
    let specs = |depth| {
        vec![
            solve(depth, "natural", false),
            solve(depth, "static", true),
            solve(depth, "tt+killer+history+static", true),
        ]
    };
    // Five plies searched from both: X wins at once in one, the other is the empty board.
    let won = TicTacToe::parse_position(Scale::DepthPenalty, "xo.xo....").unwrap();
    same_allocations(
        "tic-tac-toe",
        won,
        TicTacToe::new(Scale::DepthPenalty),
        specs(5),
    );
    // Twelve stones, both.
    let small = Nim::parse_position(false, "12").unwrap();
    let large = Nim::parse_position(false, "3,4,5").unwrap();
    same_allocations("nim", small, large, specs(12));
}

/// The exact solver (`harness solve`, `search::solver`: null windows, win checks, its own
/// table) with every technique and none, from two positions with as many plies left (its
/// buffers are for the longest game from the root).
#[test]
fn the_solver_allocates_the_same_for_small_and_large_trees() {
    fn count<G: Game>(g: &mut G, tech: Techniques) -> (u64, u64) {
        let spec = SearchSpec::new(Algorithm::Solve, 0);
        let mut nodes = 0;
        let info = measure(|| {
            nodes = solve(g, &spec, tech, false, 3).unwrap().counters.nodes;
        });
        (info.count_total, nodes)
    }
    fn pair<G: Game>(game: &str, mut small: G, mut large: G) {
        assert_eq!(small.max_remaining_plies(), large.max_remaining_plies());
        for tech in [Techniques::ALL, Techniques::NONE] {
            let (a_small, n_small) = count(&mut small, tech);
            let (a_large, n_large) = count(&mut large, tech);
            assert!(
                n_large >= 4 * n_small,
                "{game}, {tech}: {n_large} against {n_small}"
            );
            assert_eq!(
                a_small, a_large,
                "{game}, {tech}: {a_small} allocations for {n_small} nodes, {a_large} for {n_large}"
            );
        }
    }
    // Of eight Connect Four openings of 28 plies (14 left in each), the one the solver
    // settles in the fewest nodes and the one it needs the most for, of those it searches
    // (a win found at the root is one node, without the search's first allocations).
    let mut openings: Vec<(u64, Connect4)> = random_openings(&Connect4::new(7, 6), 8, 28, 1)
        .unwrap()
        .into_iter()
        .map(|g| (count(&mut g.clone(), Techniques::ALL).1, g))
        .filter(|(n, _)| *n > 1)
        .collect();
    openings.sort_by_key(|(n, _)| *n);
    let large = openings.pop().unwrap().1;
    pair("connect4", openings.swap_remove(0).1, large);
    // Twelve stones each.
    pair(
        "nim",
        Nim::parse_position(false, "12").unwrap(),
        Nim::parse_position(false, "2,2,3,5").unwrap(),
    );
}
