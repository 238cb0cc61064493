//! The counters every search keeps: plain integers, bumped in the hot loop.
//! Their definitions are in README.md, "What is counted"; tests pin them.

/// Counts of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counters {
    /// Positions the search entered, the root included: one per call of the recursive search.
    pub nodes: u64,
    /// Of the nodes, the roots: one per search from the root that entered it (one for a
    /// search, one per iteration of iterative deepening, one per null-window test of the
    /// solver). Not a runs.csv column: `searched_branching` takes the roots out of `nodes`,
    /// since they are no node's children. (Absent from a line an older harness wrote: read as
    /// 0, so that the line parses and its format, not a parse error, is what refuses it.)
    #[serde(default)]
    pub roots: u64,
    /// Positions quiescence search entered below the horizon (the depth-0 node itself is
    /// counted in `nodes` and `leaves`): `nodes + qnodes` is every position visited.
    pub qnodes: u64,
    /// Nodes scored without expanding children: a finished game, or depth 0 reached.
    pub leaves: u64,
    /// Game-over positions among the nodes (all of them are also leaves).
    pub terminal: u64,
    /// Nodes where a child's score reached beta (alpha >= beta), so the node returned at once.
    pub cutoffs: u64,
    /// Cutoffs caused by the first move tried at the node.
    pub first_move_cutoffs: u64,
    /// Principal variation search: moves searched a second time, on the full window, after
    /// their null-window search returned a score strictly inside it. (Absent from a line an
    /// older harness wrote: read as 0, as `roots` is.)
    #[serde(default)]
    pub researches: u64,
    /// Nodes expanded (their moves generated): nodes that are not leaves.
    pub interior: u64,
    /// Legal moves generated at the interior nodes (searched or pruned); divided by
    /// `interior` it is the mean branching factor of the positions the search expanded.
    pub moves_generated: u64,
    /// The deepest ply entered, the root being ply 0.
    pub max_ply: u32,
    /// Wall-clock nanoseconds of the search.
    pub time_ns: u64,
    /// Transposition-table lookups (one per interior node while the table is on).
    pub tt_probes: u64,
    /// Probes that found an entry with the same seen key (the top `key_bits` bits of the key's
    /// Fibonacci product).
    pub tt_hits: u64,
    /// Hits whose entry alone decided the node (exact score deep enough, or a bound that closed
    /// the window); the node returned without searching a move.
    pub tt_cutoffs: u64,
    /// Entries written.
    pub tt_stores: u64,
    /// Stores that replaced a live entry of another seen key.
    pub tt_overwrites: u64,
    /// Probes that missed while a slot of their bucket held another seen key.
    pub tt_collisions: u64,
    /// Hits on an entry stored for another key: its seen key (the top `key_bits` bits of the
    /// Fibonacci product) is the probe's, its whole product is not. Never with 64 key bits.
    /// (Absent from a line an older harness wrote: read as 0, as `roots` is.)
    #[serde(default)]
    pub tt_false_hits: u64,
    /// Occupied entries when the search ended.
    pub tt_occupancy: u64,
    /// Cutoffs caused by the table's stored move.
    pub cutoffs_tt: u64,
    /// Cutoffs caused by one of the ply's two killer moves (other than the table's move).
    pub cutoffs_killer: u64,
    /// Cutoffs caused by a move with a positive history score (neither the table's move nor a
    /// killer), when the history term is in the ordering.
    pub cutoffs_history: u64,
}

/// Reads one count of a `Counters`.
pub type Read = fn(&Counters) -> u64;

/// The counters iterative deepening reports per iteration (runs.csv `iteration_<name>`),
/// with how to read each from a `Counters`.
pub const PER_ITERATION: [(&str, Read); 11] = [
    ("nodes", |c| c.nodes),
    ("qnodes", |c| c.qnodes),
    ("leaves", |c| c.leaves),
    ("cutoffs", |c| c.cutoffs),
    ("first_move_cutoffs", |c| c.first_move_cutoffs),
    ("tt_probes", |c| c.tt_probes),
    ("tt_hits", |c| c.tt_hits),
    ("tt_cutoffs", |c| c.tt_cutoffs),
    ("cutoffs_tt", |c| c.cutoffs_tt),
    ("cutoffs_killer", |c| c.cutoffs_killer),
    ("cutoffs_history", |c| c.cutoffs_history),
];

impl Counters {
    /// What was counted since `before` (an earlier reading of the same search): each count's
    /// difference. `max_ply` is the deepest ply so far, `time_ns` and `tt_occupancy` are 0
    /// (they are read when the search ends).
    pub fn since(&self, before: &Counters) -> Counters {
        // Each count named once: the difference of every field but the three below.
        macro_rules! minus {
            ($($f:ident),*) => {
                Counters {
                    $($f: self.$f - before.$f,)*
                    max_ply: self.max_ply,
                    time_ns: 0,
                    tt_occupancy: 0,
                }
            };
        }
        minus!(
            nodes,
            roots,
            qnodes,
            leaves,
            terminal,
            cutoffs,
            first_move_cutoffs,
            researches,
            interior,
            moves_generated,
            tt_probes,
            tt_hits,
            tt_cutoffs,
            tt_stores,
            tt_overwrites,
            tt_collisions,
            tt_false_hits,
            cutoffs_tt,
            cutoffs_killer,
            cutoffs_history
        )
    }

    /// Nodes per second (0 when no time was measured).
    pub fn nodes_per_second(&self) -> f64 {
        if self.time_ns == 0 {
            0.0
        } else {
            self.nodes as f64 * 1e9 / self.time_ns as f64
        }
    }

    /// Mean branching factor of the expanded positions: legal moves per interior node.
    pub fn mean_branching(&self) -> Option<f64> {
        if self.interior == 0 {
            None
        } else {
            Some(self.moves_generated as f64 / self.interior as f64)
        }
    }

    /// Effective branching factor nodes^(1/d), d the deepest ply entered (`max_ply`).
    pub fn effective_branching_factor(&self) -> Option<f64> {
        if self.max_ply == 0 {
            None
        } else {
            Some((self.nodes as f64).powf(1.0 / self.max_ply as f64))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Counters;

    #[test]
    fn derived_figures_follow_their_definitions() {
        let mut c = Counters {
            nodes: 549_946,
            interior: 294_778,
            moves_generated: 549_945,
            max_ply: 9,
            time_ns: 2_000_000,
            ..Counters::default()
        };
        // 549,946 nodes in 2 ms.
        assert_eq!(c.nodes_per_second(), 274_973_000.0);
        assert!((c.mean_branching().unwrap() - 549_945.0 / 294_778.0).abs() < 1e-15);
        assert!((c.effective_branching_factor().unwrap() - 4.343_235_10).abs() < 1e-8);
        // Nothing measured, nothing expanded, nothing below the root: no figure.
        c.time_ns = 0;
        c.interior = 0;
        c.max_ply = 0;
        assert_eq!(c.nodes_per_second(), 0.0);
        assert_eq!(c.mean_branching(), None);
        assert_eq!(c.effective_branching_factor(), None);
    }
}
