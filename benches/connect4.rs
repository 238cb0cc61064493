//! Connect Four speed: the exact solver on each shipped benchmark set (whole set per
//! iteration; criterion's elements/s = solver nodes per second, and the mean nodes and mean time
//! per position are printed beside the reference solver's published means), and nodes per
//! second of depth-limited alpha-beta with the evaluation E. One thread.
//! Run: `cargo bench --bench connect4`.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use harness::experiment::plan::GameSetup;
use harness::experiment::solve::{read_positions, solve_positions, SolveOptions};
use harness::games::connect4::Connect4;
use harness::search::solver::Techniques;
use harness::search::{search, Algorithm, Ordering, SearchSpec};

/// The reference solver's published means (data/connect4/README.md): nodes, microseconds.
const REFERENCE: [(&str, f64, f64); 3] = [
    ("Test_L3_R1", 51.28, 4.6),
    ("Test_L2_R1", 449.6, 37.5),
    ("Test_L1_R1", 3298.0, 254.6),
];

fn solver(c: &mut Criterion) {
    let setup = GameSetup::Connect4 {
        width: 7,
        height: 6,
    };
    let opts = SolveOptions {
        weak: false,
        techniques: Techniques::ALL,
        ordering: Ordering::parse("threats+center-out").unwrap(),
        max_nodes: None,
        table_entries: None,
    };
    let mut group = c.benchmark_group("connect4-solver");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for (set, ref_nodes, ref_us) in REFERENCE {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("experiments/data/connect4")
            .join(set);
        let positions = read_positions(&setup, &path).unwrap();
        let (mut nodes, mut ns, mut wrong) = (0u64, 0u64, 0);
        solve_positions(&setup, &path, &positions, &opts, |s| {
            nodes += s.result.counters.nodes;
            ns += s.result.counters.time_ns;
            wrong += usize::from(s.expected != Some(s.result.score));
            Ok(())
        })
        .unwrap();
        let n = positions.len() as f64;
        println!(
            "{set}: {} positions, {wrong} wrong; mean nodes {:.2} (reference {ref_nodes}); mean time {:.1} us (reference {ref_us} us); {:.2} M nodes/s",
            positions.len(),
            nodes as f64 / n,
            ns as f64 / n / 1000.0,
            nodes as f64 / (ns as f64 / 1e9) / 1e6
        );
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(set, |b| {
            b.iter(|| {
                let mut total = 0u64;
                solve_positions(&setup, &path, &positions, &opts, |s| {
                    total += s.result.counters.nodes;
                    Ok(())
                })
                .unwrap();
                total
            })
        });
    }
    group.finish();
}

fn alphabeta(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect4-alphabeta-depth-limited");
    group.sample_size(10);
    for (ordering, depth) in [("natural", 8), ("center-out", 9), ("static", 9)] {
        let mut spec = SearchSpec::new(Algorithm::AlphaBeta, depth);
        spec.ordering = Ordering::parse(ordering).unwrap();
        let mut g = Connect4::new(7, 6);
        let nodes = search(&mut g, &spec, 1).unwrap().counters.nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{ordering}-depth{depth}"), |b| {
            b.iter(|| search(&mut g, &spec, 1).unwrap().counters.nodes)
        });
    }
    let mut spec = SearchSpec::new(Algorithm::Minimax, 7);
    spec.ordering = Ordering::natural();
    let mut g = Connect4::new(7, 6);
    let nodes = search(&mut g, &spec, 1).unwrap().counters.nodes;
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("minimax-depth7", |b| {
        b.iter(|| search(&mut g, &spec, 1).unwrap().counters.nodes)
    });
    group.finish();
}

criterion_group!(benches, solver, alphabeta);
criterion_main!(benches);
