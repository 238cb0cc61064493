//! Experiments: the TOML file, the plan (grid of runs) and the parallel runner.

pub mod config;
pub mod oneormany;
pub mod partial;
pub mod plan;
pub mod positions;
pub mod runner;
pub mod shard;
pub mod solve;
pub mod verify;

/// The text of `harness list`: games, algorithms and orderings with their options.
pub fn catalog() -> String {
    use crate::search::{Algorithm, TieBreak, Variant};
    let mut s = String::new();
    s.push_str("games ([game] kind):\n");
    s.push_str("  tictactoe  3x3, X first, squares 0-8 row-major; positions: 9 chars of x/o/. or a move list (4,0,8)\n");
    s.push_str("             options: scale = win-loss (+1/-1/0) | depth-penalty (±(10 - stones), 0 draw)\n");
    s.push_str("             natural order: squares 0..8; static order: centre, then corners, then edges (4 | 0,2,6,8 | 1,3,5,7; a class's squares tie, in index order unless a later term orders them)\n");
    s.push_str(
        "  nim        heaps of objects; positions: heap sizes (3,4,5); moves heap:take (0:2)\n",
    );
    s.push_str(
        "             options: misere = false (last object wins) | true (last object loses)\n",
    );
    s.push_str("             natural order: heaps left to right, take 1, 2, ...; static order: nim-sum-zeroing moves first, then the rest; larger takes first within each\n");
    s.push_str("  chess      legal moves from cozy-chess; positions: start, a FEN (+ `moves e2e4 ...`), or an EPD line (bm/am/id kept: runs.csv gets bm_hit)\n");
    s.push_str("             moves in UCI (e2e4, e7e8q, e1g1); evaluation: material + piece-square tables (Michniewski), mate ±(100000 - ply)\n");
    s.push_str("             natural order: cozy-chess generation (pawns, knights, bishops, rooks, queens, king); static order = mvv-lva\n");
    s.push_str("             quiescence ([search] quiescence = { enabled = true }; defaults checks = false, promotions = true, delta = \"off\" (or a margin, e.g. 200))\n");
    s.push_str("  uniform    synthetic trees, nothing stored: each value a hash of (tree seed, path); moves are child numbers 0..b\n");
    s.push_str("             options: branching = b (>= 2), height = d (>= 1; the leaves' depth), values = distinct | continuous | integer,\n");
    s.push_str("             range = [lo, hi] (integer values), model = independent | incremental | nested (nested: distinct values only), trees = N (default 1; instead of positions)\n");
    s.push_str("             natural order: children 0..b; static order: children by their heuristic value (the partial sum when incremental)\n");
    s.push_str("  connect4   bitboard Connect Four; options: width = 7, height = 6 (width x (height + 1) <= 64)\n");
    s.push_str("             positions: columns played from the empty board, 1 = leftmost (4453); files: `moves [score]` per line\n");
    s.push_str("             natural order: columns left to right; static: children by evaluation E; center-out: 4,3,5,2,6,1,7\n");
    s.push_str("             utility ±(1000 - plies played), draw 0; E = windows of one side (1, 3, 9 for 1-3 stones) + 3 x centre stones\n");
    s.push_str(&format!(
        "algorithms ([search] algorithm): {}\n",
        Algorithm::NAMES.join(", ")
    ));
    s.push_str("  pvs: principal variation search (alpha-beta, each move after the first on a null window, searched again on the full window when it proves better; runs.csv counts the re-searches)\n");
    s.push_str(&format!(
        "  variant (alphabeta and pvs): {} (default fail-soft)\n",
        Variant::NAMES.join(", ")
    ));
    s.push_str(&format!(
        "  tie_break: {} (default first)\n",
        TieBreak::NAMES.join(", ")
    ));
    s.push_str(&format!(
        "orderings ([search] ordering): {}\n",
        crate::search::ordering::ORDERING_HELP
    ));
    s.push_str(&format!(
        "  solver (algorithm solve only): {}\n",
        crate::search::solver::TECHNIQUES_HELP
    ));
    s.push_str("positions: positions = [...], positions_file = \"path\" (relative to the experiment), random_openings = { count, plies }\n");
    s.push_str("depth: a number of plies, \"full\", a list, or { from = 1, to = 9 }\n");
    s.push_str(
        "budgets: max_nodes, max_seconds (a run that hits one is kept with status = budget)\n",
    );
    s.push_str("grid: every list-valued key multiplies the runs; [search] exclude = [{ algorithm = \"minimax\", ordering = [\"static\", \"random\"] }] leaves out the runs that match every key of an entry (keys: algorithm, variant, depth, ordering, tie_break, iterative)\n");
    s.push_str("iterative deepening: [search] iterative = true (depths 1..d, the table kept across iterations; [false, true] compares)\n");
    s.push_str(&format!(
        "table ([search.tt], alpha-beta, pvs and the solver's tt): enabled = true | false, entries = 2^k or mib = 2^k, replacement = {}, key_bits = 8..64, bounds = {}, reference = true (count wrong root values and moves against a search without a table); each but reference may be a list\n",
        crate::search::Replacement::NAMES.join(" | "),
        crate::search::Bounds::NAMES.join(" | "),
    ));
    s.push_str(&format!(
        "report ([report], all optional): x, series, facet, pool (runs.csv parameter columns, not position or rep), x_scale = linear | log | category, charts = [{}], theory = [full-tree, knuth-moore, pearl], point = mean | geomean | median, whiskers = min-max | none, facet_y = shared | own, labels = {{ series = \"legend name\" }}, title, titles = {{ chart = \"title\" }}\n",
        config::ChartKind::ALL.map(|k| k.name()).join(", "),
    ));
    s
}
