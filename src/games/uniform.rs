//! Synthetic uniform trees: every interior node has exactly `branching` (b) children and every
//! leaf lies at depth `height` (d). Nothing is stored: each value is a hash of (tree seed, path),
//! so any node can be regenerated from its position text `tree=T,seed=0x…,path=i.j.k`.
//!
//! Values, from the point of view of the first player (the side to move at the root; negamax
//! negates them for the second player):
//! - `distinct`: the leaves of a level are a seeded permutation of 0..b^l (a 4-round Feistel
//!   network with cycle walking), shifted to be centred on 0: no two nodes of a level tie.
//!   Needs b^d <= 2^30, so that every value lies within ±2^29 (`VALUE_LIMIT`).
//! - `continuous`: iid uniform reals on [-1, 1), represented as `i32` multiples of 2^-29
//!   (2^30 equally likely values, so two given leaves tie with probability 2^-30).
//! - `integer`: iid uniform whole numbers in `range = [lo, hi]` (inclusive; ties allowed).
//!
//! Models:
//! - `independent`: leaf values are iid. An interior node evaluated heuristically (a search
//!   shallower than the tree) gets a fresh draw of the same distribution, unrelated to its
//!   subtree: the heuristic is pure noise.
//! - `incremental`: every edge carries a value drawn from the distribution (`continuous`:
//!   uniform on [-2^29/d, 2^29/d) so that sums stay within ±2^29; `integer`: uniform in the range)
//!   and a node's value is the sum of the edges on its path, so a shallow evaluation (the
//!   partial sum) predicts the deep one. `distinct` does not apply (sums tie).
//! - `nested` (with `distinct` values only): the worst case of alpha-beta, constructed. Every
//!   subtree's leaves take a block of consecutive values, and the blocks of siblings do not
//!   overlap: a node ranks its children 0..b by a seeded permutation, and the child of rank r
//!   gets the r-th block from the mover's side (the mover's worst block first). A leaf's value
//!   (first player's view) is thus a mixed-radix number whose digit at ply l is the rank taken
//!   there (counted from the second player's side on odd plies), centred on 0. An interior node
//!   evaluates to the centre of its block.
//!
//!   Why every ordering that puts children worst first (`oracle-worst`) reads all b^d leaves,
//!   fail-hard or fail-soft: let J(n) be node n's block (values from n's mover's view) and
//!   (α, β) its window. Claim: α < min J(n) and max J(n) < β at every node searched. At the
//!   root the window is (−∞, +∞). At n, children come in increasing blocks J_1 < J_2 < ...;
//!   when child i is searched, α has risen to at most the value of child i−1, which lies in
//!   J_{i−1} < J_i, and β > max J(n) ≥ max J_i; the child sees (−β, −α) and its block −J_i,
//!   so the claim holds there too. Hence no child's value ever reaches β: no cutoff anywhere,
//!   shallow or deep, and every leaf is read. (On `independent` trees deep cutoffs can prune
//!   under every ordering, so no ordering need read all b^d leaves there.)
//!
//! Moves are child numbers 0..b (natural order 0, 1, ...). The static order (`static`) sorts
//! children by their heuristic evaluation from the mover's side: informative for the
//! incremental model, noise for the independent one.

use super::{Game, Side};

/// The deepest tree (positions keep one word per level).
pub const MAX_HEIGHT: u32 = 64;
/// The widest tree.
pub const MAX_BRANCHING: u32 = 1024;
/// Every value a uniform tree produces (leaf, heuristic or edge sum) lies within ±VALUE_LIMIT,
/// well inside the search's infinity (`games::INF` = 10^9). A value at or beyond INF would
/// read as a win no window contains: it would cut off at the root and give alpha-beta another
/// value than minimax (as 2^30, the limit before, did on about 14% of continuous leaves).
pub const VALUE_LIMIT: i64 = 1 << 29;
/// `distinct` values are the leaves' ranks centred on 0: b^d <= 2 VALUE_LIMIT = 2^30.
pub const MAX_DISTINCT_LEAVES: f64 = (2 * VALUE_LIMIT) as f64;
/// `integer` ranges: |lo|, |hi| at most this (so incremental sums fit an `i32`).
pub const MAX_INTEGER: i64 = 1_000_000;

/// How leaf (or edge) values are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Values {
    Distinct,
    Continuous,
    /// Inclusive range.
    Integer {
        lo: i32,
        hi: i32,
    },
}

impl Values {
    pub const NAMES: [&'static str; 3] = ["distinct", "continuous", "integer"];
    pub fn name(self) -> &'static str {
        match self {
            Values::Distinct => "distinct",
            Values::Continuous => "continuous",
            Values::Integer { .. } => "integer",
        }
    }
}

/// How values relate along a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    Independent,
    Incremental,
    /// Siblings' subtrees take non-overlapping blocks of values (alpha-beta's worst case).
    Nested,
}

impl Model {
    pub const NAMES: [&'static str; 3] = ["independent", "incremental", "nested"];
    pub fn parse(s: &str) -> Option<Model> {
        match s {
            "independent" => Some(Model::Independent),
            "incremental" => Some(Model::Incremental),
            "nested" => Some(Model::Nested),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Model::Independent => "independent",
            Model::Incremental => "incremental",
            Model::Nested => "nested",
        }
    }
}

/// The shape and value distribution of a family of uniform trees (the seed picks the tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UniformSpec {
    pub branching: u32,
    pub height: u32,
    pub values: Values,
    pub model: Model,
}

impl UniformSpec {
    /// Checks the combination; the error names the offending `[game]` key and what is allowed.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let (b, d) = (self.branching, self.height);
        if !(2..=MAX_BRANCHING).contains(&b) {
            return Err((
                "branching",
                format!("branching = {b}: a uniform tree needs b from 2 to {MAX_BRANCHING}"),
            ));
        }
        if !(1..=MAX_HEIGHT).contains(&d) {
            return Err((
                "height",
                format!("height = {d}: a uniform tree needs a height d from 1 to {MAX_HEIGHT}"),
            ));
        }
        match (self.values, self.model) {
            (Values::Distinct, Model::Incremental) => {
                return Err((
                    "model",
                    "model = \"incremental\" with values = \"distinct\": incremental sums edge values, which can tie; use values = \"continuous\" or \"integer\" with it, or model = \"independent\" with distinct values".to_string(),
                ))
            }
            (v @ (Values::Continuous | Values::Integer { .. }), Model::Nested) => {
                return Err((
                    "model",
                    format!("model = \"nested\" with values = \"{}\": nested numbers the leaves itself (distinct values in nested blocks); use it with values = \"distinct\"", v.name()),
                ))
            }
            (Values::Distinct, _) if (b as f64).powi(d as i32) > MAX_DISTINCT_LEAVES => {
                return Err((
                    "height",
                    format!("values = \"distinct\" numbers the b^d = {b}^{d} leaves in an i32, which allows at most 2^30 leaves (values within ±2^29); lower branching or height, or use values = \"continuous\""),
                ))
            }
            (Values::Integer { lo, hi }, _)
                if (lo as i64) < -MAX_INTEGER || hi as i64 > MAX_INTEGER =>
            {
                return Err((
                    "range",
                    format!("range = [{lo}, {hi}]: values must lie within -{MAX_INTEGER}..{MAX_INTEGER}"),
                ))
            }
            (Values::Integer { lo, hi }, _) if lo > hi => {
                return Err((
                    "range",
                    format!("range = [{lo}, {hi}] is empty: write [lo, hi] with lo <= hi"),
                ))
            }
            _ => {}
        }
        Ok(())
    }

    /// The columns this spec adds to runs.csv (and to the run key), as (name, value).
    pub fn options(&self) -> Vec<(&'static str, String)> {
        let mut o = vec![
            ("branching", self.branching.to_string()),
            ("height", self.height.to_string()),
            ("values", self.values.name().to_string()),
        ];
        if let Values::Integer { lo, hi } = self.values {
            o.push(("range", format!("{lo}..{hi}")));
        }
        o.push(("model", self.model.name().to_string()));
        o
    }
}

/// SplitMix64's finalizer: a bijective 64-bit mixer.
#[inline(always)]
pub fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const SALT_VALUE: u64 = 0x6a09_e667_f3bc_c908;
const SALT_EDGE: u64 = 0xbb67_ae85_84ca_a73b;
const SALT_PERM: u64 = 0x3c6e_f372_fe94_f82b;
const SALT_RANK: u64 = 0xa54f_f53a_5f1d_36f1;

/// A seeded permutation of 0..n (n >= 1): a balanced 4-round Feistel network on the smallest
/// even number of bits covering n, with cycle walking back into 0..n.
#[inline]
pub fn permute(x: u64, n: u64, key: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    let bits = 64 - (n - 1).leading_zeros();
    let half = bits.div_ceil(2);
    let mask = (1u64 << half) - 1;
    let mut v = x;
    loop {
        let (mut l, mut r) = (v >> half, v & mask);
        for round in 0..4u64 {
            let f = splitmix(key ^ r ^ (round << 58)) & mask;
            (l, r) = (r, l ^ f);
        }
        v = (l << half) | r;
        if v < n {
            return v;
        }
    }
}

/// A node of a uniform tree, with its path back to the root.
#[derive(Clone, Debug)]
pub struct Uniform {
    spec: UniformSpec,
    seed: u64,
    /// The tree's number in its experiment (a label: the seed alone decides the values).
    tree: u64,
    ply: usize,
    /// Per level on the path: the node's hash (its key), its index within its level (for
    /// distinct values) and the moves taken.
    hash: [u64; MAX_HEIGHT as usize + 1],
    index: [u64; MAX_HEIGHT as usize + 1],
    path: [u16; MAX_HEIGHT as usize + 1],
    /// Incremental model: the sum of edge values from the root, first player's view. Nested
    /// model: the first value of the node's block, not yet centred.
    sum: [i64; MAX_HEIGHT as usize + 1],
}

impl Uniform {
    /// The root of tree number `tree` with seed `seed`. The spec must be valid.
    pub fn new(spec: UniformSpec, tree: u64, seed: u64) -> Self {
        let mut u = Uniform {
            spec,
            seed,
            tree,
            ply: 0,
            hash: [0; MAX_HEIGHT as usize + 1],
            index: [0; MAX_HEIGHT as usize + 1],
            path: [0; MAX_HEIGHT as usize + 1],
            sum: [0; MAX_HEIGHT as usize + 1],
        };
        u.hash[0] = splitmix(seed ^ 0x5851_f42d_4c95_7f2d);
        u
    }

    pub fn spec(&self) -> UniformSpec {
        self.spec
    }

    /// Parses `tree=T,seed=0xHEX[,path=i.j.k]` (the form `format_position` writes; `tree=` is
    /// optional, the seed may be decimal).
    pub fn parse_position(spec: UniformSpec, text: &str) -> Result<Self, String> {
        spec.validate().map_err(|(_, e)| e)?;
        let help = "a uniform-tree position is written tree=T,seed=0xHEX[,path=i.j.k]";
        let (mut tree, mut seed, mut path) = (0u64, None, Vec::new());
        for part in text.trim().split(',') {
            let (k, v) = part
                .trim()
                .split_once('=')
                .ok_or_else(|| format!("`{text}`: {help}"))?;
            let v = v.trim();
            match k.trim() {
                "tree" => {
                    tree = super::parse_digits(v).ok_or_else(|| format!("`{text}`: {help}"))?
                }
                "seed" => {
                    // Digits only: `parse` and `from_str_radix` would take a sign.
                    let s = match v.strip_prefix("0x") {
                        Some(h) if h.bytes().all(|b| b.is_ascii_hexdigit()) => {
                            u64::from_str_radix(h, 16).ok()
                        }
                        Some(_) => None,
                        None => super::parse_digits(v),
                    };
                    seed = Some(s.ok_or_else(|| format!("`{text}`: bad seed `{v}`; {help}"))?);
                }
                "path" => {
                    for m in v.split('.').filter(|s| !s.is_empty()) {
                        match super::parse_digits::<u32>(m) {
                            Some(c) if c < spec.branching => path.push(c),
                            _ => {
                                return Err(format!(
                                "`{text}`: path step `{m}` is not a child number; allowed: 0 to {}",
                                spec.branching - 1
                            ))
                            }
                        }
                    }
                }
                _ => return Err(format!("`{text}`: unknown field `{k}`; {help}")),
            }
        }
        let seed = seed.ok_or_else(|| format!("`{text}` gives no seed; {help}"))?;
        if path.len() > spec.height as usize {
            return Err(format!(
                "`{text}`: the path is longer than the tree's height {}",
                spec.height
            ));
        }
        let mut u = Uniform::new(spec, tree, seed);
        for m in path {
            u.make(m);
        }
        Ok(u)
    }

    /// The ply of this node (0 at the root).
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// A uniform draw from the value distribution (iid model), first player's view.
    #[inline(always)]
    fn draw(&self, h: u64) -> i64 {
        match self.spec.values {
            // Callers handle distinct values through the permutation.
            Values::Distinct | Values::Continuous => (h >> 34) as i64 - VALUE_LIMIT,
            Values::Integer { lo, hi } => {
                let span = (hi as i64 - lo as i64 + 1) as u128;
                lo as i64 + ((h as u128 * span) >> 64) as i64
            }
        }
    }

    /// An edge value (incremental model), first player's view.
    #[inline(always)]
    fn edge(&self, h: u64) -> i64 {
        match self.spec.values {
            Values::Integer { .. } => self.draw(h),
            _ => {
                let e = VALUE_LIMIT / self.spec.height as i64;
                ((h as u128 * (2 * e) as u128) >> 64) as i64 - e
            }
        }
    }

    /// The node's value from the first player's view: the leaf value at the bottom, the
    /// heuristic value elsewhere.
    #[inline]
    pub fn value_first(&self) -> i32 {
        let p = self.ply;
        let v = match (self.spec.model, self.spec.values) {
            (Model::Incremental, _) => self.sum[p],
            (Model::Nested, _) => self.block_centre(p, self.sum[p]),
            (Model::Independent, Values::Distinct) => {
                let n = (self.spec.branching as u64).pow(p as u32);
                let key = splitmix(self.seed ^ SALT_PERM ^ ((p as u64) << 56));
                permute(self.index[p], n, key) as i64 - (n / 2) as i64
            }
            (Model::Independent, _) => self.draw(splitmix(self.hash[p] ^ SALT_VALUE)),
        };
        v as i32
    }

    /// Nested model: b^(d - p), the size of a block at ply p.
    #[inline(always)]
    fn block(&self, p: usize) -> i64 {
        (self.spec.branching as i64).pow(self.spec.height - p as u32)
    }

    /// Nested model: the first value of child `m`'s block, for the node at ply `p` whose block
    /// starts at `start`. The child's rank (0: the mover's worst) is a seeded permutation of the
    /// child numbers; on odd plies the second player moves, so rank r takes the r-th block
    /// from the top.
    #[inline(always)]
    fn child_block(&self, p: usize, start: i64, m: u32) -> i64 {
        let b = self.spec.branching as u64;
        let rank = permute(m as u64, b, splitmix(self.hash[p] ^ SALT_RANK)) as i64;
        let digit = if p.is_multiple_of(2) {
            rank
        } else {
            b as i64 - 1 - rank
        };
        start + digit * self.block(p + 1)
    }

    /// Nested model: the value of a node at ply `p` whose block starts at `start` (a leaf's
    /// value at the bottom, the block's centre above), centred so the tree's values straddle 0.
    #[inline(always)]
    fn block_centre(&self, p: usize, start: i64) -> i64 {
        start + (self.block(p) - 1) / 2 - self.block(0) / 2
    }

    #[inline(always)]
    fn for_mover(&self, v: i32) -> i32 {
        if self.ply.is_multiple_of(2) {
            v
        } else {
            -v
        }
    }
}

impl Game for Uniform {
    type Move = u32;
    const NAME: &'static str = "uniform";

    fn max_moves(&self) -> usize {
        self.spec.branching as usize
    }
    fn move_space(&self) -> usize {
        self.spec.branching as usize
    }
    #[inline]
    fn move_index(&self, m: u32) -> usize {
        m as usize
    }

    #[inline]
    fn moves(&self, out: &mut Vec<u32>) {
        out.extend(0..self.spec.branching);
    }

    #[inline]
    fn make(&mut self, m: u32) {
        let p = self.ply;
        let h = splitmix(self.hash[p] ^ (m as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        self.hash[p + 1] = h;
        self.index[p + 1] = self.index[p]
            .wrapping_mul(self.spec.branching as u64)
            .wrapping_add(m as u64);
        self.path[p] = m as u16;
        match self.spec.model {
            Model::Incremental => {
                self.sum[p + 1] = self.sum[p] + self.edge(splitmix(h ^ SALT_EDGE))
            }
            Model::Nested => self.sum[p + 1] = self.child_block(p, self.sum[p], m),
            Model::Independent => {}
        }
        self.ply = p + 1;
    }

    #[inline]
    fn unmake(&mut self, _m: u32) {
        self.ply -= 1;
    }

    /// A node at depth `height` is a leaf: its value, from the side to move.
    #[inline]
    fn outcome(&self) -> Option<i32> {
        if self.ply == self.spec.height as usize {
            Some(self.for_mover(self.value_first()))
        } else {
            None
        }
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        self.for_mover(self.value_first())
    }

    /// The path hash: distinct nodes get distinct keys with overwhelming probability (a tree
    /// has no transpositions).
    #[inline]
    fn key(&self) -> u64 {
        self.hash[self.ply]
    }

    fn side_to_move(&self) -> Side {
        if self.ply.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn max_remaining_plies(&self) -> u32 {
        self.spec.height - self.ply as u32
    }

    /// The child's heuristic value from the mover's side (computed as `make` would, without
    /// copying the node).
    #[inline]
    fn static_score(&self, m: u32) -> i32 {
        let p = self.ply;
        let h = splitmix(self.hash[p] ^ (m as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let v = match (self.spec.model, self.spec.values) {
            (Model::Incremental, _) => self.sum[p] + self.edge(splitmix(h ^ SALT_EDGE)),
            (Model::Nested, _) => self.block_centre(p + 1, self.child_block(p, self.sum[p], m)),
            (Model::Independent, Values::Distinct) => {
                let n = (self.spec.branching as u64).pow(p as u32 + 1);
                let key = splitmix(self.seed ^ SALT_PERM ^ ((p as u64 + 1) << 56));
                let index = self.index[p] * self.spec.branching as u64 + m as u64;
                permute(index, n, key) as i64 - (n / 2) as i64
            }
            (Model::Independent, _) => self.draw(splitmix(h ^ SALT_VALUE)),
        };
        self.for_mover(v as i32)
    }

    fn format_move(&self, m: u32) -> String {
        m.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u32, String> {
        match super::parse_digits::<u32>(text.trim()) {
            Some(m) if m < self.spec.branching => Ok(m),
            _ => Err(format!(
                "`{text}` is not a child number; allowed: 0 to {}",
                self.spec.branching - 1
            )),
        }
    }

    fn format_position(&self) -> String {
        let mut s = format!("tree={},seed={:#018x}", self.tree, self.seed);
        if self.ply > 0 {
            let steps: Vec<String> = self.path[..self.ply]
                .iter()
                .map(|m| m.to_string())
                .collect();
            s.push_str(&format!(",path={}", steps.join(".")));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn spec(b: u32, d: u32, values: Values, model: Model) -> UniformSpec {
        UniformSpec {
            branching: b,
            height: d,
            values,
            model,
        }
    }

    /// Every leaf's value from the first player's view, in natural (path) order.
    fn leaves(u: &mut Uniform, out: &mut Vec<i32>) {
        if u.outcome().is_some() {
            out.push(u.value_first());
            return;
        }
        for m in 0..u.spec.branching {
            u.make(m);
            leaves(u, out);
            u.unmake(m);
        }
    }

    #[test]
    fn permutation_is_a_bijection() {
        for n in [1u64, 2, 3, 7, 8, 27, 100, 243, 1000] {
            let got: BTreeSet<u64> = (0..n).map(|x| permute(x, n, 12345)).collect();
            assert_eq!(got.len() as u64, n);
            assert!(got.iter().all(|&v| v < n));
        }
    }

    #[test]
    fn distinct_leaves_never_tie_and_cover_the_range() {
        let mut u = Uniform::new(spec(3, 5, Values::Distinct, Model::Independent), 0, 99);
        let mut v = Vec::new();
        leaves(&mut u, &mut v);
        assert_eq!(v.len(), 243);
        let set: BTreeSet<i32> = v.iter().copied().collect();
        assert_eq!(set.len(), 243);
        assert_eq!(*set.iter().next().unwrap(), -121);
        assert_eq!(*set.iter().last().unwrap(), 121);
        // Not the identity: a permutation that leaves the natural order sorted would be useless.
        assert!(v.windows(2).any(|w| w[0] > w[1]));
    }

    #[test]
    fn same_seed_same_tree_other_seed_other_tree() {
        let s = spec(2, 6, Values::Continuous, Model::Independent);
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        leaves(&mut Uniform::new(s, 0, 7), &mut a);
        leaves(&mut Uniform::new(s, 5, 7), &mut b);
        leaves(&mut Uniform::new(s, 0, 8), &mut c);
        assert_eq!(a, b, "the tree label does not change values");
        assert_ne!(a, c);
    }

    #[test]
    fn continuous_values_fill_the_range_and_stay_inside_the_value_limit() {
        for model in [Model::Independent, Model::Incremental] {
            let mut v = Vec::new();
            leaves(
                &mut Uniform::new(spec(4, 6, Values::Continuous, model), 0, 3),
                &mut v,
            );
            let (lo, hi) = (
                *v.iter().min().unwrap() as i64,
                *v.iter().max().unwrap() as i64,
            );
            assert!(
                lo >= -VALUE_LIMIT && hi < VALUE_LIMIT,
                "{model:?}: {lo} {hi}"
            );
            if model == Model::Independent {
                // 4,096 uniform draws: the extremes lie within 0.5% of the ends.
                assert!(lo < -VALUE_LIMIT * 99 / 100 && hi > VALUE_LIMIT * 99 / 100);
            }
        }
    }

    #[test]
    fn integer_values_stay_in_range_and_tie() {
        let s = spec(4, 4, Values::Integer { lo: -2, hi: 2 }, Model::Independent);
        let mut v = Vec::new();
        leaves(&mut Uniform::new(s, 0, 1), &mut v);
        assert!(v.iter().all(|x| (-2..=2).contains(x)));
        let set: BTreeSet<i32> = v.iter().copied().collect();
        assert_eq!(set.len(), 5, "all five values occur among 256 leaves");
    }

    #[test]
    fn incremental_interior_nodes_are_partial_sums() {
        let s = spec(3, 4, Values::Integer { lo: -5, hi: 5 }, Model::Incremental);
        let mut u = Uniform::new(s, 0, 3);
        assert_eq!(u.evaluate(), 0);
        u.make(1);
        let e1 = u.value_first();
        assert!((-5..=5).contains(&e1));
        assert_eq!(u.evaluate(), -e1, "second player to move sees the negation");
        u.make(2);
        let e2 = u.value_first() - e1;
        assert!((-5..=5).contains(&e2));
        u.make(0);
        u.make(0);
        assert_eq!(u.outcome(), Some(u.value_first()));
        // Unmake and remake reproduce the same values.
        let leaf = u.value_first();
        u.unmake(0);
        u.make(0);
        assert_eq!(u.value_first(), leaf);
    }

    #[test]
    fn static_score_is_the_childs_value_for_the_mover() {
        for (values, model) in [
            (Values::Distinct, Model::Independent),
            (Values::Continuous, Model::Independent),
            (Values::Continuous, Model::Incremental),
            (Values::Integer { lo: -9, hi: 9 }, Model::Incremental),
        ] {
            let mut u = Uniform::new(spec(3, 4, values, model), 0, 21);
            for path in [[0u32, 0], [2, 1]] {
                for &m in &path {
                    for c in 0..3 {
                        let mut child = u.clone();
                        child.make(c);
                        assert_eq!(u.static_score(c), -child.evaluate());
                    }
                    u.make(m);
                }
                u.unmake(0);
                u.unmake(0);
            }
        }
    }

    #[test]
    fn position_text_round_trips() {
        let s = spec(3, 4, Values::Continuous, Model::Independent);
        let mut u = Uniform::new(s, 4, 0xdead_beef);
        u.make(2);
        u.make(0);
        let text = u.format_position();
        assert_eq!(text, "tree=4,seed=0x00000000deadbeef,path=2.0");
        let v = Uniform::parse_position(s, &text).unwrap();
        assert_eq!(v.key(), u.key());
        assert_eq!(v.evaluate(), u.evaluate());
        assert!(Uniform::parse_position(s, "tree=1").is_err());
        assert!(Uniform::parse_position(s, "seed=1,path=3").is_err());
        assert!(Uniform::parse_position(s, "seed=1,path=0.0.0.0.0").is_err());
    }

    #[test]
    fn validation_names_the_key() {
        let ok = spec(2, 3, Values::Distinct, Model::Independent);
        assert!(ok.validate().is_ok());
        assert_eq!(
            spec(1, 3, Values::Distinct, Model::Independent)
                .validate()
                .unwrap_err()
                .0,
            "branching"
        );
        assert_eq!(
            spec(2, 0, Values::Distinct, Model::Independent)
                .validate()
                .unwrap_err()
                .0,
            "height"
        );
        assert_eq!(
            spec(2, 3, Values::Distinct, Model::Incremental)
                .validate()
                .unwrap_err()
                .0,
            "model"
        );
        assert_eq!(
            spec(2, 32, Values::Distinct, Model::Independent)
                .validate()
                .unwrap_err()
                .0,
            "height"
        );
        assert_eq!(
            spec(2, 3, Values::Integer { lo: 3, hi: 1 }, Model::Independent)
                .validate()
                .unwrap_err()
                .0,
            "range"
        );
    }
}
