//! Position sources, for every game: an explicit list (`positions = [...]`), a file
//! (`positions_file = "path"`) and seeded random openings (`random_openings = { count, plies }`).
//!
//! **Files**: one position a line; blank lines and lines whose first non-blank character is `#`
//! are skipped. Each line is parsed by the game (`GameSetup::parse_line`): for Connect Four the
//! benchmark format `moves [score]`; for the other games the whole line is a position.
//!
//! **Random openings**: each opening plays `plies` moves from the game's initial position, each
//! move drawn uniformly among the legal moves (ChaCha8, seeded from the experiment seed and the
//! game's setup). An opening is discarded and drawn again when the game ends within it, when at
//! its end the side to move has a move that wins at once, or when it repeats a position already
//! drawn (same key). Openings are drawn until `count` are kept, in the order they were drawn; the
//! draw gives up (an input error) after `1000 × count` attempts.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::games::Game;

/// True when the side to move has a move that ends the game with its own win.
pub fn can_win_at_once<G: Game>(game: &mut G, buf: &mut Vec<G::Move>) -> bool {
    buf.clear();
    game.moves(buf);
    let moves = std::mem::take(buf);
    let mut wins = false;
    for &m in &moves {
        game.make(m);
        // The outcome is from the new side to move: negative means the mover has won.
        wins = matches!(game.outcome(), Some(u) if u < 0);
        game.unmake(m);
        if wins {
            break;
        }
    }
    *buf = moves;
    wins
}

/// `count` distinct random openings of `plies` moves from `start`, by the rule above, as the
/// games' positions after them.
pub fn random_openings<G: Game>(
    start: &G,
    count: u32,
    plies: u32,
    seed: u64,
) -> Result<Vec<G>, String> {
    random_openings_as(start, count, plies, seed, G::clone)
}

/// [`random_openings`], each kept as `keep` makes it of the game after the opening (its
/// text, say: a chess game holds a board per ply played, 25 KB after 200 plies, which
/// 100,000 openings would hold at once).
pub fn random_openings_as<G: Game, T>(
    start: &G,
    count: u32,
    plies: u32,
    seed: u64,
    keep: impl Fn(&G) -> T,
) -> Result<Vec<T>, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out: Vec<T> = Vec::with_capacity(count as usize);
    let mut keys = std::collections::BTreeSet::new();
    let mut buf = Vec::with_capacity(start.max_moves());
    // A request that cannot be met (more plies than the game lasts, more openings than
    // exist) fails after this many attempts in a row that found no new opening, rather than
    // after a number of attempts that grows with `count`.
    const MISSES: u32 = 1000;
    let mut misses = 0;
    while out.len() < count as usize {
        misses += 1;
        if misses > MISSES {
            return Err(format!(
                "random_openings: found only {} of {count} distinct openings of {plies} plies: {MISSES} attempts in a row found no new one (finished games, immediate wins and repeats are skipped); ask for fewer or shorter openings",
                out.len()
            ));
        }
        let mut g = start.clone();
        let mut ok = true;
        for _ in 0..plies {
            if g.outcome().is_some() {
                ok = false;
                break;
            }
            buf.clear();
            g.moves(&mut buf);
            let m = buf[rng.gen_range(0..buf.len())];
            g.make(m);
        }
        if !ok || g.outcome().is_some() || can_win_at_once(&mut g, &mut buf) {
            continue;
        }
        if keys.insert(g.key()) {
            out.push(keep(&g));
            misses = 0;
        }
    }
    Ok(out)
}

/// One line of a positions file that holds a position, with its 1-based line number.
pub fn position_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;

    #[test]
    fn openings_follow_the_rule_and_the_seed() {
        let start = Connect4::new(7, 6);
        let a = random_openings(&start, 20, 8, 42).unwrap();
        let b = random_openings(&start, 20, 8, 42).unwrap();
        let c = random_openings(&start, 20, 8, 43).unwrap();
        let text = |v: &[Connect4]| v.iter().map(|g| g.format_position()).collect::<Vec<_>>();
        assert_eq!(text(&a), text(&b));
        assert_ne!(text(&a), text(&c));
        let mut keys = std::collections::BTreeSet::new();
        let mut buf = Vec::new();
        for mut g in a {
            assert_eq!(g.plies(), 8);
            assert!(g.outcome().is_none());
            assert!(!can_win_at_once(&mut g, &mut buf));
            assert!(keys.insert(g.key()));
        }
    }

    #[test]
    fn lines_skip_blanks_and_comments() {
        let v: Vec<_> = position_lines("# c\n\n4453 3\n  \n12 1\n").collect();
        assert_eq!(v, vec![(3, "4453 3"), (5, "12 1")]);
    }
}
