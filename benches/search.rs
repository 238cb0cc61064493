//! Nodes per second of the core searches over the full tic-tac-toe tree, one thread.
//! Run: `cargo bench --bench search`. Criterion reports "elements/s" = nodes per second (the
//! throughput is set to the exact node count of one search).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use harness::games::tictactoe::{Scale, TicTacToe};
use harness::search::{search, Algorithm, Ordering, SearchSpec, Variant};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("tictactoe-full-tree");
    let cases = [
        ("minimax", Algorithm::Minimax, Variant::FailSoft, "natural"),
        ("negamax", Algorithm::Negamax, Variant::FailSoft, "natural"),
        (
            "alphabeta-fail-soft-natural",
            Algorithm::AlphaBeta,
            Variant::FailSoft,
            "natural",
        ),
        (
            "alphabeta-fail-hard-natural",
            Algorithm::AlphaBeta,
            Variant::FailHard,
            "natural",
        ),
        (
            "alphabeta-fail-soft-static",
            Algorithm::AlphaBeta,
            Variant::FailSoft,
            "static",
        ),
        (
            "alphabeta-fail-soft-random",
            Algorithm::AlphaBeta,
            Variant::FailSoft,
            "random",
        ),
    ];
    for (name, alg, variant, ordering) in cases {
        let mut spec = SearchSpec::new(alg, 9);
        spec.variant = variant;
        spec.ordering = Ordering::parse(ordering).unwrap();
        let mut g = TicTacToe::new(Scale::DepthPenalty);
        let nodes = search(&mut g, &spec, 1).unwrap().counters.nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| search(&mut g, &spec, 1).unwrap().counters.nodes)
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
