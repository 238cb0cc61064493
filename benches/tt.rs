//! Transposition-table speed: nodes per second of the same alpha-beta (full-depth tic-tac-toe,
//! Connect Four to depth 8, chess to depth 4; Nim and uniform trees in the paired runs) with no table, with a table, and with a table
//! that never hits (every node keyed uniquely, so each probe misses and each store writes: the
//! table's pure overhead); and the cost of one probe in a 64 KiB and a 16 MiB table. Search
//! times are the harness's own `time_ns` (the search alone: allocating the table before it and
//! counting its occupancy after are setup, not search).
//!
//! `cargo bench --bench tt` (criterion prints time per search and nodes per second).
//!
//! `cargo bench --bench tt -- never-hit-paired`: the table's overhead alone, measured in pairs.
//! Criterion times each case in its own stretch of minutes, and on a shared machine the
//! machine's speed drifts between them by more than the effect; here the never-hit search
//! without and with the table alternate (which goes first alternating too), so drift hits
//! both alike. Prints, per game, the fastest search of each kind per node and the median of
//! the per-pair ratios.

use std::time::Duration;

use criterion::{black_box, criterion_group, BenchmarkId, Criterion, Throughput};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use harness::games::chess::Chess;
use harness::games::connect4::Connect4;
use harness::games::never_hit::NeverHit;
use harness::games::nim::Nim;
use harness::games::tictactoe::{Scale, TicTacToe};
use harness::games::uniform::{Model, Uniform, UniformSpec, Values};
use harness::games::Game;
use harness::search::tt::{Bound, Table};
use harness::search::{
    search, Algorithm, Bounds, Counters, Ordering, Replacement, SearchSpec, TtSpec,
};

fn spec(ordering: &str, depth: u32, tt: Option<TtSpec>) -> SearchSpec {
    let mut s = SearchSpec::new(Algorithm::AlphaBeta, depth);
    s.ordering = Ordering::parse(ordering).unwrap();
    s.tt = tt;
    s
}

fn table(entries: u64) -> Option<TtSpec> {
    Some(TtSpec {
        entries,
        replacement: Replacement::Always,
        key_bits: 64,
        bounds: Bounds::Correct,
    })
}

fn nodes<G: Game>(g: &G, s: &SearchSpec) -> u64 {
    let mut g = g.clone();
    search(&mut g, s, 1).unwrap().counters.nodes
}

/// The summed search time of `iters` searches as the harness measures it (`time_ns`: the
/// search alone, without allocating the table before it or counting its occupancy after).
fn search_time<G: Game>(root: &G, s: &SearchSpec, iters: u64) -> Duration {
    let mut total = 0;
    for _ in 0..iters {
        let mut g = root.clone();
        let r = search(&mut g, s, 1).unwrap();
        black_box(r.value);
        total += r.counters.time_ns;
    }
    Duration::from_nanos(total)
}

/// One group per game and ordering: the real search without and with a table, and the
/// never-hit wrapper without and with the same table (the pair whose ratio is the table's
/// pure overhead).
fn bench_game<G: Game>(
    c: &mut Criterion,
    name: &str,
    root: &G,
    depth: u32,
    ordering: &str,
    entries: u64,
) {
    let never = NeverHit::new(root.clone());
    let mut group = c.benchmark_group(format!("{name}-alphabeta-{ordering}"));
    for (case, tt) in [("no-table", None), ("table", table(entries))] {
        let s = spec(ordering, depth, tt);
        group.throughput(Throughput::Elements(nodes(root, &s)));
        group.bench_function(BenchmarkId::new(case, ""), |b| {
            b.iter_custom(|iters| search_time(root, &s, iters))
        });
    }
    for (case, tt) in [
        ("never-hit-no-table", None),
        ("never-hit-table", table(entries)),
    ] {
        let s = spec(ordering, depth, tt);
        group.throughput(Throughput::Elements(nodes(&never, &s)));
        group.bench_function(BenchmarkId::new(case, ""), |b| {
            b.iter_custom(|iters| search_time(&never, &s, iters))
        });
    }
    group.finish();
}

fn bench_search(c: &mut Criterion) {
    // Full-depth tic-tac-toe: 4,096 entries (64 KiB) hold the whole search.
    let ttt = TicTacToe::new(Scale::DepthPenalty);
    for ordering in ["natural", "static"] {
        bench_game(c, "tictactoe-full", &ttt, 9, ordering, 4096);
    }
    // Connect Four from the empty board, depth 8, with the evaluation at the horizon.
    let c4 = Connect4::new(7, 6);
    bench_game(c, "connect4-d8", &c4, 8, "center-out", 1 << 16);
    // Chess from the initial position, depth 4, no quiescence.
    let chess = Chess::default();
    bench_game(c, "chess-d4", &chess, 4, "static", 1 << 16);
}

fn bench_probe(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt-probe");
    for log in [12u32, 20] {
        let spec = TtSpec {
            entries: 1 << log,
            replacement: Replacement::Depth,
            key_bits: 64,
            bounds: Bounds::Correct,
        };
        let mut t = Table::try_new(&spec).unwrap();
        let mut counters = Counters::default();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let keys: Vec<u64> = (0..4096).map(|_| rng.next_u64()).collect();
        // Half the table filled with the keys probed (so some probes hit).
        for (i, &k) in keys.iter().enumerate().take(2048) {
            t.store(k, (i % 9) as u32, 0, Bound::Exact, 0, &mut counters);
        }
        group.throughput(Throughput::Elements(keys.len() as u64));
        group.bench_function(
            BenchmarkId::new("probe-4096-keys", format!("2^{log}")),
            |b| {
                b.iter(|| {
                    let mut hits = 0u32;
                    for &k in &keys {
                        hits += t.probe(black_box(k), &mut counters).is_some() as u32;
                    }
                    black_box(hits)
                })
            },
        );
    }
    group.finish();
}

/// The uniform tree the paired runs and `one` time: branching `b`, height `d`, distinct
/// independent leaf values, tree 0 of one fixed seed.
fn uniform(b: u32, d: u32) -> Uniform {
    let spec = UniformSpec {
        branching: b,
        height: d,
        values: Values::Distinct,
        model: Model::Independent,
    };
    Uniform::new(spec, 0, 0x5eed)
}

/// The never-hit search without and with a table, `rounds` interleaved pairs: one table row.
fn paired<G: Game>(name: &str, root: &G, depth: u32, ordering: &str, entries: u64, rounds: u64) {
    let never = NeverHit::new(root.clone());
    let specs = [
        spec(ordering, depth, None),
        spec(ordering, depth, table(entries)),
    ];
    let n = nodes(&never, &specs[0]);
    assert_eq!(n, nodes(&never, &specs[1]), "never-hit: same tree");
    let mut times = [Vec::new(), Vec::new()];
    for r in 0..rounds as usize {
        for k in [r % 2, 1 - r % 2] {
            times[k].push(search_time(&never, &specs[k], 1).as_nanos() as f64);
        }
    }
    let mut ratios: Vec<f64> = times[0].iter().zip(&times[1]).map(|(a, b)| b / a).collect();
    ratios.sort_by(f64::total_cmp);
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min) / n as f64;
    let (b0, b1) = (best(&times[0]), best(&times[1]));
    println!(
        "| {name} | {n} | 2^{} | {rounds} | {b0:.1} → {b1:.1} ns ({:+.1}%) | {:+.1}% |",
        entries.trailing_zeros(),
        (b1 / b0 - 1.0) * 100.0,
        (ratios[ratios.len() / 2] - 1.0) * 100.0
    );
}

fn bench_paired() {
    println!(
        "| search | nodes | table | pairs | fastest per node, without → with | median pair ratio |"
    );
    println!("|---|---|---|---|---|---|");
    let ttt = TicTacToe::new(Scale::DepthPenalty);
    paired("tic-tac-toe, natural", &ttt, 9, "natural", 4096, 2000);
    paired("tic-tac-toe, static", &ttt, 9, "static", 4096, 2000);
    // Nim, the other game when the table was asked for: heaps 3, 4, 5 to the end
    // (12 plies), where natural order enters 33,916 nodes and static order 2,000.
    let nim = Nim::parse_position(false, "3,4,5").unwrap();
    paired("Nim 3,4,5, natural", &nim, 12, "natural", 4096, 1000);
    paired("Nim 3,4,5, static", &nim, 12, "static", 4096, 4000);
    paired(
        "Connect Four d8, center-out",
        &Connect4::new(7, 6),
        8,
        "center-out",
        1 << 16,
        1000,
    );
    // Uniform trees have no transpositions: a table never hits them even unwrapped. Their
    // leaves are most of the nodes at b = 8 and fewer at b = 3 and b = 2.
    for (b, d) in [(8u32, 6u32), (3, 10), (2, 14)] {
        paired(
            &format!("uniform b={b} d={d}, natural"),
            &uniform(b, d),
            d,
            "natural",
            4096,
            1000,
        );
    }
    paired(
        "chess d4, static",
        &Chess::default(),
        4,
        "static",
        1 << 16,
        200,
    );
}

/// `cargo bench --bench tt -- one SEARCH/TABLE[/SCHEME] [SEARCHES]`: one line, `SEARCH/TABLE
/// nodes ns`, the fastest of SEARCHES (default 200) searches in nanoseconds per node, for
/// scripts/compare-builds.sh, which alternates two builds' runs of it. TABLE: `none`, `table`
/// (the table on the game itself), `never` (the never-hit wrapper with the table) or
/// `never-none` (the never-hit wrapper without a table: the paired runs' other side); SCHEME:
/// the table's replacement scheme (default `always`). SEARCH:
/// `tictactoe-natural`, `tictactoe-static`, `nim-natural`, `nim-static`, `connect4-d8`,
/// `uniform-b2`, `uniform-b3`, `uniform-b8`, `chess-d4` (the paired runs' searches, and a
/// uniform tree of branching 2 to depth 14).
fn one(case: &str, searches: u64) -> Result<String, String> {
    let mut parts = case.split('/');
    let (Some(name), Some(mode), scheme) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!(
            "`{case}`: write SEARCH/TABLE[/SCHEME], e.g. tictactoe-natural/never"
        ));
    };
    let scheme = match scheme {
        None => Replacement::Always,
        Some(r) => Replacement::parse(r).ok_or_else(|| {
            format!(
                "`{r}`: the scheme is one of {}",
                Replacement::NAMES.join(", ")
            )
        })?,
    };
    let ttt = TicTacToe::new(Scale::DepthPenalty);
    let nim = Nim::parse_position(false, "3,4,5").unwrap();
    // The table of the paired runs: 4,096 entries, 2^16 for Connect Four and chess.
    let (small, large) = ((4096, scheme), (1 << 16, scheme));
    let (nodes, ns) = match name {
        "tictactoe-natural" => fastest(&ttt, 9, "natural", small, mode, searches),
        "tictactoe-static" => fastest(&ttt, 9, "static", small, mode, searches),
        "nim-natural" => fastest(&nim, 12, "natural", small, mode, searches),
        "nim-static" => fastest(&nim, 12, "static", small, mode, searches),
        "connect4-d8" => fastest(&Connect4::new(7, 6), 8, "center-out", large, mode, searches),
        "uniform-b2" => fastest(&uniform(2, 14), 14, "natural", small, mode, searches),
        "uniform-b3" => fastest(&uniform(3, 10), 10, "natural", small, mode, searches),
        "uniform-b8" => fastest(&uniform(8, 6), 6, "natural", small, mode, searches),
        "chess-d4" => fastest(&Chess::default(), 4, "static", large, mode, searches),
        _ => return Err(format!("`{name}`: no such search")),
    }?;
    Ok(format!("{case} {nodes} {ns:.3}"))
}

/// The fastest of `searches` searches of `root` as `mode` says, in ns per node, and its nodes;
/// the table has `entries` entries and the scheme given.
fn fastest<G: Game>(
    root: &G,
    depth: u32,
    ordering: &str,
    (entries, scheme): (u64, Replacement),
    mode: &str,
    searches: u64,
) -> Result<(u64, f64), String> {
    let tt = table(entries).map(|t| TtSpec {
        replacement: scheme,
        ..t
    });
    match mode {
        "none" => Ok(per_node(root, &spec(ordering, depth, None), searches)),
        "table" => Ok(per_node(root, &spec(ordering, depth, tt), searches)),
        "never" | "never-none" => {
            let never = NeverHit::new(root.clone());
            let tt = if mode == "never" { tt } else { None };
            Ok(per_node(&never, &spec(ordering, depth, tt), searches))
        }
        _ => Err(format!(
            "`{mode}`: the table is none, table, never or never-none"
        )),
    }
}

/// The nodes of the search `s` of `root`, and the fastest of `searches` of it per node (ns).
fn per_node<G: Game>(root: &G, s: &SearchSpec, searches: u64) -> (u64, f64) {
    let n = nodes(root, s);
    let fastest = (0..searches.max(1))
        .map(|_| search_time(root, s, 1).as_nanos() as f64)
        .fold(f64::INFINITY, f64::min);
    (n, fastest / n as f64)
}

criterion_group!(benches, bench_search, bench_probe);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "one") {
        let case = args.get(i + 1).map(String::as_str).unwrap_or("");
        let searches = args.get(i + 2).and_then(|n| n.parse().ok()).unwrap_or(200);
        match one(case, searches) {
            Ok(line) => println!("{line}"),
            Err(e) => {
                eprintln!("tt bench one: {e}");
                std::process::exit(2);
            }
        }
        return;
    }
    if args.iter().any(|a| a == "never-hit-paired") {
        bench_paired();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
