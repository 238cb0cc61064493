//! Transposition-table speed: nodes per second of the same full-depth tic-tac-toe alpha-beta
//! with no table, with an ample table, and with a table that never hits (every node keyed
//! uniquely, so each probe misses and each store writes: the table's pure overhead); and the
//! cost of one probe in a 16 MiB table.
//!
//! `cargo bench --bench tt` (criterion prints time per search and nodes per second).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use harness::games::tictactoe::{Scale, TicTacToe};
use harness::games::Game;
use harness::search::tt::{Bound, Table};
use harness::search::{
    search, Algorithm, Bounds, Counters, Ordering, Replacement, SearchSpec, TtSpec,
};

/// Tic-tac-toe whose key is new at every node: probes never hit.
#[derive(Clone)]
struct NeverHit {
    g: TicTacToe,
    makes: u64,
}

impl Game for NeverHit {
    type Move = u8;
    const NAME: &'static str = "tictactoe-never-hit";
    fn max_moves(&self) -> usize {
        self.g.max_moves()
    }
    fn move_space(&self) -> usize {
        self.g.move_space()
    }
    fn move_index(&self, m: u8) -> usize {
        self.g.move_index(m)
    }
    fn moves(&self, out: &mut Vec<u8>) {
        self.g.moves(out)
    }
    fn make(&mut self, m: u8) {
        self.makes += 1;
        self.g.make(m)
    }
    fn unmake(&mut self, m: u8) {
        self.g.unmake(m)
    }
    fn outcome(&self) -> Option<i32> {
        self.g.outcome()
    }
    fn evaluate(&self) -> i32 {
        self.g.evaluate()
    }
    /// The number of moves made so far times an odd constant: distinct at every node, and
    /// about as cheap as reading an incremental key.
    fn key(&self) -> u64 {
        self.makes.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn win_threshold(&self) -> Option<i32> {
        self.g.win_threshold()
    }
    fn side_to_move(&self) -> harness::games::Side {
        self.g.side_to_move()
    }
    fn max_remaining_plies(&self) -> u32 {
        self.g.max_remaining_plies()
    }
    fn static_score(&self, m: u8) -> i32 {
        self.g.static_score(m)
    }
    fn format_move(&self, m: u8) -> String {
        self.g.format_move(m)
    }
    fn parse_move(&self, text: &str) -> Result<u8, String> {
        self.g.parse_move(text)
    }
    fn format_position(&self) -> String {
        self.g.format_position()
    }
}

fn spec(ordering: &str, tt: Option<TtSpec>) -> SearchSpec {
    let mut s = SearchSpec::new(Algorithm::AlphaBeta, 9);
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

fn bench_search(c: &mut Criterion) {
    let root = TicTacToe::new(Scale::DepthPenalty);
    let never = NeverHit {
        g: root.clone(),
        makes: 0,
    };
    for ordering in ["natural", "static"] {
        let mut group = c.benchmark_group(format!("tictactoe-full-alphabeta-{ordering}"));
        // 4,096 entries (64 KiB) hold the whole search; the never-hit run uses the same size.
        let cases: [(&str, Option<TtSpec>); 2] = [("no-table", None), ("table", table(4096))];
        for (name, tt) in cases {
            let s = spec(ordering, tt);
            group.throughput(Throughput::Elements(nodes(&root, &s)));
            group.bench_function(BenchmarkId::new(name, ""), |b| {
                b.iter(|| {
                    let mut g = root.clone();
                    black_box(search(&mut g, &s, 1).unwrap().value)
                })
            });
        }
        for (name, tt) in [
            ("never-hit-no-table", None),
            ("never-hit-table", table(4096)),
        ] {
            let s = spec(ordering, tt);
            let n = nodes(&never, &s);
            group.throughput(Throughput::Elements(n));
            group.bench_function(BenchmarkId::new(name, ""), |b| {
                b.iter(|| {
                    let mut g = never.clone();
                    black_box(search(&mut g, &s, 1).unwrap().value)
                })
            });
        }
        group.finish();
    }
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
        let mut t = Table::new(&spec);
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

criterion_group!(benches, bench_search, bench_probe);
criterion_main!(benches);
