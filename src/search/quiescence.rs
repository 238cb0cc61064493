//! Quiescence search: at the horizon (depth 0) the search does not take the static
//! evaluation at face value but plays on the noisy moves until the position is quiet.
//!
//! At each quiescence node: the side to move may *stand pat* (take the static evaluation,
//! betting that some quiet move is at least as good), unless it is in check, when every legal
//! move is searched instead; then the game's noisy moves (`Game::noisy_moves`: captures, and
//! optionally queen promotions and, at the first quiescence ply only, quiet checking moves) in
//! MVV-LVA order (`Game::static_score`). Delta pruning, when on, skips a capture or promotion
//! that cannot bring the score back to alpha even with `delta` to spare:
//! `stand pat + gain bound of the move + delta <= alpha`; quiet checks are never skipped.
//!
//! Counting: the horizon node itself is a main-search node and leaf (counted in `nodes` and
//! `leaves`); every position quiescence enters below it counts one `qnode`, so
//! `nodes + qnodes` is every position visited. `max_nodes` bounds `nodes + qnodes`.

use super::{Searcher, Variant};
use crate::games::{Game, NoisyKinds, INF};

/// Quiescence settings of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Quiescence {
    pub enabled: bool,
    /// Quiet checking moves at the first quiescence ply.
    pub checks: bool,
    /// Promotions to a queen that capture nothing.
    pub promotions: bool,
    /// Delta-pruning margin in the evaluation's units; `None`: no delta pruning.
    pub delta: Option<i32>,
}

impl Quiescence {
    /// Quiescence off.
    pub fn off() -> Self {
        Quiescence::default()
    }

    /// Quiescence on with every option at its default (no checks, promotions, no delta
    /// pruning): all it is on a game without noisy moves, where it stands pat.
    pub fn stand_pat() -> Self {
        Quiescence {
            enabled: true,
            checks: false,
            promotions: true,
            delta: None,
        }
    }

    /// Canonical text: `off`, or `on` with its settings, e.g. `on,promotions,delta=200`.
    pub fn label(&self) -> String {
        if !self.enabled {
            return "off".to_string();
        }
        let mut s = "on".to_string();
        if self.promotions {
            s.push_str(",promotions");
        }
        if self.checks {
            s.push_str(",checks");
        }
        if let Some(d) = self.delta {
            s.push_str(&format!(",delta={d}"));
        }
        s
    }
}

impl<G: Game> Searcher<G> {
    /// Bookkeeping on entering a quiescence node below the horizon.
    #[inline(always)]
    fn enter_q(&mut self) -> Result<(), ()> {
        self.check_node_budget()?;
        self.counters.qnodes += 1;
        self.check_deadline(self.counters.qnodes)
    }

    /// Quiescence search of `game` on the window (alpha, beta), `qply` plies below the
    /// horizon. At `qply` 0 the caller has counted the node and checked that the game goes on.
    pub(crate) fn quiesce(&mut self, game: &mut G, qply: usize, alpha: i32, beta: i32) -> i32 {
        if qply > 0 {
            if self.enter_q().is_err() {
                return 0;
            }
            if let Some(u) = game.outcome() {
                return u;
            }
        }
        let q = self.spec.quiescence;
        // The horizon node (qply 0) is a leaf of the main search, whose value goes up as it
        // is under both variants (its parent, an interior node, clamps under fail-hard), as a
        // static evaluation there would: so a game without noisy moves searches alike with
        // quiescence on and off. Below the horizon fail-hard clamps, as interior nodes do.
        let hard = self.spec.variant == Variant::FailHard && qply > 0;
        let in_check = game.in_check();
        let mut alpha = alpha;
        let mut best = -INF;
        let stand = if in_check {
            None
        } else {
            Some(game.evaluate())
        };
        if let Some(s) = stand {
            if s >= beta {
                return if hard { beta } else { s };
            }
            best = s;
            alpha = alpha.max(s);
        }
        while self.qmoves.len() <= qply {
            self.qmoves.push(Vec::with_capacity(game.max_moves()));
            self.qkeys.push(Vec::with_capacity(game.max_moves()));
        }
        let mut moves = std::mem::take(&mut self.qmoves[qply]);
        let mut keys = std::mem::take(&mut self.qkeys[qply]);
        moves.clear();
        keys.clear();
        if in_check {
            game.moves(&mut moves);
        } else {
            let kinds = NoisyKinds {
                promotions: q.promotions,
                checks: q.checks && qply == 0,
            };
            game.noisy_moves(&mut moves, kinds);
        }
        keys.extend(moves.iter().map(|&m| game.static_score(m) as i64));
        super::ordering::sort_by_keys_desc(&mut moves, &mut keys);
        let mut cut = false;
        for &m in &moves {
            // Delta pruning skips captures and promotions only: a quiet check gains no
            // material and is searched for the mate or the fork it may bring.
            if let (Some(d), Some(s)) = (q.delta, stand) {
                let gain = game.gain_bound(m);
                if gain > 0 && s.saturating_add(gain).saturating_add(d) <= alpha {
                    continue;
                }
            }
            game.make(m);
            let v = -self.quiesce(game, qply + 1, -beta, -alpha);
            game.unmake(m);
            if self.aborted {
                break;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                cut = true;
                break;
            }
        }
        self.qmoves[qply] = moves;
        self.qkeys[qply] = keys;
        match (hard, cut) {
            (false, _) => best,
            (true, true) => beta,
            (true, false) => alpha,
        }
    }
}
