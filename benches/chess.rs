//! Chess speed: perft through the harness's `Game` trait against the same perft written
//! straight on cozy-chess, and alpha-beta with quiescence. Throughput is in leaves (perft) or
//! positions visited (`nodes + qnodes`) per second.
//!
//! Run: `cargo bench --bench chess`

use std::time::Duration;

use cozy_chess::Board;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use harness::games::chess::Chess;
use harness::games::Game;
use harness::search::perft::Perft;
use harness::search::{search, Algorithm, Ordering, Quiescence, SearchSpec};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Perft on cozy-chess directly, the same algorithm as `Perft` (copy-make, bulk counting at
/// the last ply, as in cozy-chess's own perft example).
fn direct(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    if depth == 1 {
        board.generate_moves(|pm| {
            n += pm.len() as u64;
            false
        });
        return n;
    }
    board.generate_moves(|pm| {
        for m in pm {
            let mut child = board.clone();
            child.play_unchecked(m);
            n += direct(&child, depth - 1);
        }
        false
    });
    n
}

/// Perft on cozy-chess directly without bulk counting: every leaf is played.
fn direct_full(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    board.generate_moves(|pm| {
        for m in pm {
            let mut child = board.clone();
            child.play_unchecked(m);
            n += direct_full(&child, depth - 1);
        }
        false
    });
    n
}

/// Perft through the trait without bulk counting.
fn trait_full(g: &mut Chess, depth: u32, bufs: &mut [Vec<cozy_chess::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (mine, rest) = bufs.split_first_mut().unwrap();
    mine.clear();
    g.moves(mine);
    let mut n = 0;
    for &m in mine.iter() {
        g.make(m);
        n += trait_full(g, depth - 1, rest);
        g.unmake(m);
    }
    n
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for (name, fen, depth) in [("initial", INITIAL, 5), ("kiwipete", KIWIPETE, 4)] {
        let board = Board::from_fen(fen, false).unwrap();
        let leaves = direct(&board, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(BenchmarkId::new("cozy-direct", name), |b| {
            b.iter(|| assert_eq!(direct(&board, depth), leaves))
        });
        let mut g = Chess::parse_position(fen).unwrap();
        let mut p = Perft::new(&g, depth);
        group.bench_function(BenchmarkId::new("harness-trait", name), |b| {
            b.iter(|| assert_eq!(p.count(&mut g, depth), leaves))
        });
        // Without bulk counting every leaf is made and unmade: the trait's full cost per node.
        let d = depth - 1;
        let leaves = direct_full(&board, d);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(BenchmarkId::new("cozy-direct-nobulk", name), |b| {
            b.iter(|| assert_eq!(direct_full(&board, d), leaves))
        });
        let mut bufs: Vec<Vec<cozy_chess::Move>> =
            (0..=d).map(|_| Vec::with_capacity(218)).collect();
        group.bench_function(BenchmarkId::new("harness-trait-nobulk", name), |b| {
            b.iter(|| assert_eq!(trait_full(&mut g, d, &mut bufs), leaves))
        });
    }
    group.finish();
}

fn alphabeta_quiescence(c: &mut Criterion) {
    let mut group = c.benchmark_group("alphabeta-quiescence");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    let mut spec = SearchSpec::new(Algorithm::AlphaBeta, 4);
    spec.ordering = Ordering::parse("mvv-lva").unwrap();
    spec.quiescence = Quiescence {
        enabled: true,
        checks: false,
        promotions: true,
        delta: Some(200),
    };
    for (name, fen) in [("kiwipete", KIWIPETE), ("initial", INITIAL)] {
        let mut g = Chess::parse_position(fen).unwrap();
        let r = search(&mut g, &spec, 1).unwrap();
        let visited = r.counters.nodes + r.counters.qnodes;
        group.throughput(Throughput::Elements(visited));
        group.bench_function(BenchmarkId::new("depth4-mvv-lva", name), |b| {
            b.iter(|| {
                let r = search(&mut g, &spec, 1).unwrap();
                assert_eq!(r.counters.nodes + r.counters.qnodes, visited);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, perft, alphabeta_quiescence);
criterion_main!(benches);
