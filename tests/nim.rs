//! Nim: Bouton's theorem (the side to move loses exactly when the XOR of the heaps is 0) on
//! every position of three heaps up to 7 and four heaps up to 4, through the Game trait, and
//! the harness's searches agree with it.

mod common;

use std::collections::HashMap;

use harness::games::nim::Nim;
use harness::games::Game;
use harness::search::{
    search, Algorithm, Bounds, Counters, Ordering, Replacement, SearchSpec, TtSpec, Variant,
};

/// Exact value through the Game trait with a memo: a reference independent of the searches.
fn solve(g: &mut Nim, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(v) = g.outcome() {
        return v;
    }
    if let Some(&v) = memo.get(&g.key()) {
        return v;
    }
    let mut moves = Vec::new();
    g.moves(&mut moves);
    let mut best = -2;
    for m in moves {
        g.make(m);
        best = best.max(-solve(g, memo));
        g.unmake(m);
    }
    memo.insert(g.key(), best);
    best
}

fn all_positions(heaps: usize, max: u8) -> Vec<String> {
    let mut out = vec![String::new()];
    for _ in 0..heaps {
        out = out
            .iter()
            .flat_map(|p| {
                (0..=max).map(move |h| {
                    if p.is_empty() {
                        h.to_string()
                    } else {
                        format!("{p},{h}")
                    }
                })
            })
            .collect();
    }
    out
}

#[test]
fn bouton_holds_for_every_small_position() {
    let mut count = 0;
    for (heaps, max) in [(3, 7), (4, 4)] {
        let mut memo = HashMap::new();
        for text in all_positions(heaps, max) {
            let mut g = Nim::parse_position(false, &text).unwrap();
            let xor = g.heaps().iter().fold(0, |a, &h| a ^ h);
            let v = solve(&mut g, &mut memo);
            assert_eq!(v == -1, xor == 0, "{text}: value {v}, xor {xor}");
            count += 1;
        }
    }
    assert_eq!(count, 8 * 8 * 8 + 5 * 5 * 5 * 5);
}

#[test]
fn searches_agree_with_bouton_where_they_finish_quickly() {
    // Full-depth searches on positions with up to 9 objects: every algorithm, both variants,
    // every ordering returns Bouton's value.
    let mut checked = 0;
    for text in all_positions(3, 3) {
        let mut g = Nim::parse_position(false, &text).unwrap();
        let xor = g.heaps().iter().fold(0, |a, &h| a ^ h);
        let expected = if xor == 0 { -1 } else { 1 };
        for alg in [
            Algorithm::Minimax,
            Algorithm::Negamax,
            Algorithm::AlphaBeta,
            Algorithm::Pvs,
        ] {
            for variant in [Variant::FailHard, Variant::FailSoft] {
                for o in ["natural", "static", "random"] {
                    let mut spec = SearchSpec::new(alg, g.max_remaining_plies());
                    spec.variant = variant;
                    spec.ordering = Ordering::parse(o).unwrap();
                    let r = search(&mut g, &spec, 3).unwrap();
                    assert_eq!(r.value, expected, "{text} {alg:?} {variant:?} {o}");
                    if expected == 1 {
                        // The chosen move leaves a nim-sum of 0.
                        let m = r.best_move.unwrap();
                        g.make(m);
                        assert_eq!(g.heaps().iter().fold(0, |a, &h| a ^ h), 0, "{text}");
                        g.unmake(m);
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 64 * 4 * 2 * 3);
}

#[test]
fn misere_play_reverses_only_the_endgame() {
    // Misère Nim: with some heap larger than 1 the side to move loses exactly when the XOR is
    // 0; with all heaps 0 or 1 it loses exactly when the number of 1-heaps is odd.
    let mut memo = HashMap::new();
    for text in all_positions(3, 5) {
        let mut g = Nim::parse_position(true, &text).unwrap();
        let h = g.heaps().to_vec();
        let xor = h.iter().fold(0, |a, &x| a ^ x);
        let ones = h.iter().filter(|&&x| x == 1).count();
        let loses = if h.iter().any(|&x| x > 1) {
            xor == 0
        } else {
            ones % 2 == 1
        };
        let v = solve(&mut g, &mut memo);
        assert_eq!(v == -1, loses, "misère {text}");
    }
}

/// The theory columns' depth is the game's: Nim lasts at most as many plies as there are
/// stones, so a full-depth search of 1,3,4 has d = 8 for every algorithm and ordering, also
/// when alpha-beta pruned every line that long (its deepest ply entered is then 7: about one
/// random-ordered run in ten, so 100 runs all but surely hold one).
#[test]
fn theory_depth_is_the_games_length_not_the_deepest_ply_searched() {
    let (_tmp, out) = common::harness_run_text(
        "name = \"theory-depth\"\nseed = 7\n[game]\nkind = \"nim\"\nmisere = true\n\
         positions = [\"1,3,4\", \"2,2,4\"]\n[search]\nalgorithm = \"alphabeta\"\n\
         depth = \"full\"\nordering = \"random\"\nrepetitions = 50\n",
    );
    let mut rd = csv::Reader::from_path(out.join("runs.csv")).unwrap();
    let head = rd.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let mut pruned_short = 0;
    for r in rd.records().map(|r| r.unwrap()) {
        assert_eq!(&r[col("depth")], "8");
        assert_eq!(&r[col("theory_depth")], "8", "{:?}", r);
        if &r[col("max_ply")] != "8" {
            pruned_short += 1;
        }
    }
    assert!(
        pruned_short > 0,
        "no run pruned every 8-ply line: the case is not exercised"
    );
}

/// Heap sizes are digits only, 0..=63, 1 to 8 heaps: a sign, a blank heap, a letter or too
/// many heaps is refused, naming the heap.
#[test]
fn nim_positions_are_digits_only() {
    for ok in ["3,4,5", " 0 , 63 ", "7"] {
        assert!(Nim::parse_position(false, ok).is_ok(), "{ok}");
    }
    for (bad, says) in [
        ("+3", "heap `+3` is not a whole number from 0 to 63"),
        ("3,-0", "heap `-0`"),
        ("3,,4", "heap ``"),
        ("64", "heap `64`"),
        ("3,x", "heap `x`"),
        ("", "must list 1 to 8 heap sizes"),
        ("1,1,1,1,1,1,1,1,1", "must list 1 to 8 heap sizes"),
    ] {
        let err = Nim::parse_position(false, bad).unwrap_err();
        assert!(err.contains(says), "{bad}: {err}");
    }
}

/// Alpha-beta on a Nim position (normal play, win-loss: the horizon scores 0), fail-soft, as
/// `ordering` says, optionally iterative and with a 1,024-entry `always` table.
fn counted(pos: &str, ordering: &str, depth: u32, iterative: bool, table: bool) -> Counters {
    let mut g = Nim::parse_position(false, pos).unwrap();
    let mut s = SearchSpec::new(Algorithm::AlphaBeta, depth);
    s.ordering = Ordering::parse(ordering).unwrap();
    s.iterative = iterative;
    s.tt = table.then_some(TtSpec {
        entries: 1024,
        replacement: Replacement::Always,
        key_bits: 64,
        bounds: Bounds::Correct,
    });
    search(&mut g, &s, 1).unwrap().counters
}

/// Counters of tiny Nim searches, counted by hand; each pins one rule of the killer, history,
/// first-move and table-move definitions that the tic-tac-toe hand count cannot reach (there
/// every cutoff is by the first move and no second killer decides one).
#[test]
fn nim_searches_counted_by_hand() {
    // Heap 4, depth 2, natural order (take 1, 2, 3, 4). Root children: (3) searches its
    // three replies with the full window, the last, taking the heap, worth +1 (4 nodes);
    // (2) with window (−∞, 1): take 1 scores 0, take 2 wins, +1 ≥ β, a cutoff by the
    // second move (3 nodes); (1): take 1 wins at once, a first-move cutoff (2 nodes); (0) is
    // a finished game. 1 + 4 + 3 + 2 + 1 = 11 nodes, 2 cutoffs, 1 by the first move.
    let c = counted("4", "natural", 2, false, false);
    assert_eq!((c.nodes, c.cutoffs, c.first_move_cutoffs), (11, 2, 1));
    // The same at depth 3 with a table. Searching (3) first (7 nodes) stores (2) with its
    // best move take 2 (its second move) and (1) with take 1. The root's take 2 and take 3
    // then reach (2) and (1) with more depth left, so the entries decide nothing, but their
    // moves go first and win at once: 1 + 7 + 2 + 2 + 1 = 13 nodes, 3 cutoffs, all by the
    // first move, 2 of them by the table's move.
    let c = counted("4", "natural", 3, false, true);
    assert_eq!(
        (c.nodes, c.cutoffs, c.first_move_cutoffs, c.cutoffs_tt),
        (13, 3, 3, 2)
    );
    // Heaps 3,3, depth 2, killers: by the time ply 1 reaches (3,0), the move a1 that cuts it
    // off sits in the ply's second killer slot (a later cutoff took the first): 5 cutoffs,
    // 3 credited to a killer, one of them from the second slot.
    let c = counted("3,3", "killer", 2, false, false);
    assert_eq!(
        (c.nodes, c.cutoffs, c.first_move_cutoffs, c.cutoffs_killer),
        (17, 5, 5, 3)
    );
    // Heaps 1,2 (a, b), iterative to depth 3, history (4 + 9 + 11 nodes): iteration 2's one
    // cutoff, a1 at (1,0), gives a1 the score 1 (depth² at depth 1), uncredited since a1
    // scored 0 before it. Halving before iteration 3 makes it 0 (integer halving), so
    // iteration 3's first cutoff, a1 at (1,0) again, is not credited either; its third, a1 at
    // (1,0) with depth 2 left, comes after the first added 1 and is: 4 cutoffs, 1 credited.
    let c = counted("1,2", "history", 3, true, false);
    assert_eq!((c.nodes, c.cutoffs, c.cutoffs_history), (24, 4, 1));
    // Heap 2 lasts 2 plies at most: iterative deepening to depth 3 stops after iteration 2
    // (3 + 4 nodes; its one cutoff, take 1 from a heap of 1, is uncredited as above).
    let c = counted("2", "history", 3, true, false);
    assert_eq!((c.nodes, c.cutoffs, c.cutoffs_history), (7, 1, 0));
    // Heaps 1,2, iterative to depth 3, killer + history: one killer credit; history, halved
    // to 0 as above, decides none.
    let c = counted("1,2", "killer+history", 3, true, false);
    assert_eq!(
        (c.nodes, c.cutoffs, c.cutoffs_killer, c.cutoffs_history),
        (24, 4, 1, 0)
    );
}
