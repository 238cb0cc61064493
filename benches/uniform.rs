//! Uniform-tree speed: alpha-beta nodes per second on generated trees (every value is a hash of
//! the path, so a node costs a few hashes), and what the oracle orderings cost on top (the
//! oracle's own exact search is not counted as nodes, but it is time).
//!
//! `cargo bench --bench uniform` (criterion's throughput is the node count: elements/s are
//! nodes/s of the search as the experiments count them).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use harness::games::uniform::{Model, Uniform, UniformSpec, Values};
use harness::search::{search, Algorithm, Ordering, SearchSpec};

fn tree(b: u32, d: u32, model: Model) -> Uniform {
    let spec = UniformSpec {
        branching: b,
        height: d,
        values: Values::Distinct,
        model,
    };
    Uniform::new(spec, 0, 0x5eed)
}

fn bench_uniform(c: &mut Criterion) {
    for (b, d) in [(3u32, 10u32), (8, 6)] {
        let mut group = c.benchmark_group(format!("uniform-b{b}-d{d}"));
        for (model, orderings) in [
            (
                Model::Independent,
                ["natural", "random", "oracle-best", "oracle-worst"],
            ),
            (
                Model::Nested,
                ["natural", "random", "oracle-best", "oracle-worst"],
            ),
        ] {
            let root = tree(b, d, model);
            for ordering in orderings {
                let mut s = SearchSpec::new(Algorithm::AlphaBeta, d);
                s.ordering = Ordering::parse(ordering).unwrap();
                let nodes = search(&mut root.clone(), &s, 1).unwrap().counters.nodes;
                group.throughput(Throughput::Elements(nodes));
                group.bench_function(BenchmarkId::new(model.name(), ordering), |bench| {
                    bench.iter(|| black_box(search(&mut root.clone(), &s, 1).unwrap().value))
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench_uniform);
criterion_main!(benches);
