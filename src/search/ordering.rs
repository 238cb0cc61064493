//! Move-ordering policies.
//!
//! An ordering is a list of terms applied lexicographically: the first term decides, later
//! terms break its ties, and the game's natural order breaks what is left (sorts are stable).
//! `random` alone is a seeded Fisher–Yates shuffle at every node; inside a list it gives each
//! move a random tie-breaking key.

use std::fmt;

/// One term of an ordering.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OrderTerm {
    /// The game's generation order (a no-op).
    Natural,
    /// The game's own static order (`Game::static_score`).
    Static,
    /// A seeded shuffle.
    Random,
    /// Chess: most valuable victim first, least valuable attacker next (promotions count
    /// their gain); this is chess's static order (`Game::static_score`) under its usual name.
    MvvLva,
    /// Moves in the listed order first (game notation), then the rest in natural order.
    Explicit(Vec<String>),
}

/// A composite ordering: terms joined with `+` in text, e.g. `static+random`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ordering {
    pub terms: Vec<OrderTerm>,
}

pub const ORDERING_HELP: &str = "natural, static, random, mvv-lva (chess), explicit:M1,M2,... (moves in the game's notation), or several joined with `+` (e.g. static+random)";

impl Ordering {
    pub fn natural() -> Self {
        Ordering {
            terms: vec![OrderTerm::Natural],
        }
    }

    pub fn parse(text: &str) -> Result<Ordering, String> {
        let mut terms = Vec::new();
        for part in text.split('+') {
            let p = part.trim();
            let term = if let Some(list) = p.strip_prefix("explicit:") {
                let moves: Vec<String> = list
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                if moves.is_empty() {
                    return Err(format!("`{p}` lists no moves; write explicit:M1,M2,..."));
                }
                OrderTerm::Explicit(moves)
            } else {
                match p {
                    "natural" => OrderTerm::Natural,
                    "static" => OrderTerm::Static,
                    "random" => OrderTerm::Random,
                    "mvv-lva" => OrderTerm::MvvLva,
                    _ => return Err(format!("unknown ordering `{p}`; allowed: {ORDERING_HELP}")),
                }
            };
            terms.push(term);
        }
        Ok(Ordering { terms })
    }

    pub fn uses_randomness(&self) -> bool {
        self.terms.contains(&OrderTerm::Random)
    }
}

impl fmt::Display for Ordering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .terms
            .iter()
            .map(|t| match t {
                OrderTerm::Natural => "natural".to_string(),
                OrderTerm::Static => "static".to_string(),
                OrderTerm::Random => "random".to_string(),
                OrderTerm::MvvLva => "mvv-lva".to_string(),
                OrderTerm::Explicit(m) => format!("explicit:{}", m.join(",")),
            })
            .collect();
        write!(f, "{}", parts.join("+"))
    }
}

/// Stable insertion sort of `moves` by `keys`, highest key first. Move lists are short, and
/// insertion sort needs no allocation.
#[inline]
pub fn sort_by_keys_desc<M: Copy>(moves: &mut [M], keys: &mut [i64]) {
    for i in 1..moves.len() {
        let mut j = i;
        while j > 0 && keys[j - 1] < keys[j] {
            keys.swap(j - 1, j);
            moves.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display() {
        let o = Ordering::parse("static+random").unwrap();
        assert_eq!(o.terms, vec![OrderTerm::Static, OrderTerm::Random]);
        assert_eq!(o.to_string(), "static+random");
        let e = Ordering::parse("explicit:4,0,2").unwrap();
        assert_eq!(e.to_string(), "explicit:4,0,2");
        assert!(Ordering::parse("best").is_err());
        assert!(Ordering::parse("explicit:").is_err());
    }

    #[test]
    fn sort_is_stable_and_descending() {
        let mut m = [0, 1, 2, 3];
        let mut k = [1, 3, 1, 3];
        sort_by_keys_desc(&mut m, &mut k);
        assert_eq!(m, [1, 3, 0, 2]);
    }
}
