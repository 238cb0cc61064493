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
    /// Columns from the middle outwards, left before right (`Game::center_out_score`).
    CenterOut,
    /// Moves by the number of open threats they leave the mover (`Game::threats_score`).
    Threats,
    /// Moves in the listed order first (game notation), then the rest in natural order.
    Explicit(Vec<String>),
    /// The transposition table's stored best move first. When the table is on and the ordering
    /// does not name `tt`, the stored move is tried first anyway (as if `tt` led the ordering);
    /// naming it places it elsewhere, e.g. `killer+tt+static`.
    Tt,
    /// The two killer moves of the ply (moves that caused a cutoff at that ply), most recent
    /// first.
    Killer,
    /// History heuristic: moves by the sum of depth² over the cutoffs they caused (halved
    /// between iterations of iterative deepening).
    History,
    /// Children by their exact value for the remaining depth, best first (`oracle-best`).
    OracleBest,
    /// Children by their exact value for the remaining depth, worst first (`oracle-worst`).
    OracleWorst,
    /// `strong:P1:P2`: the best child first with probability P1, within the first quarter
    /// with probability P2 (P1 <= P2), the rest random. Probabilities in millionths.
    Strong { first: u32, quarter: u32 },
}

/// `static` as `OrderTerm::canonical` returns it.
static STATIC: OrderTerm = OrderTerm::Static;

impl OrderTerm {
    /// The term under its one name: `mvv-lva` is chess's `static` order (`Game::static_score`)
    /// under its usual name; every other term is its own.
    pub fn canonical(&self) -> &OrderTerm {
        match self {
            OrderTerm::MvvLva => &STATIC,
            t => t,
        }
    }

    /// Whether the term needs the oracle (see `search::oracle`).
    pub fn uses_oracle(&self) -> bool {
        matches!(
            self,
            OrderTerm::OracleBest | OrderTerm::OracleWorst | OrderTerm::Strong { .. }
        )
    }
}

/// Parses a probability written as a decimal in [0, 1], to millionths.
fn probability(ordering: &str, text: &str) -> Result<u32, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok((p * 1e6).round() as u32),
        Ok(_) => Err(format!(
            "ordering `{ordering}`: the probability `{}` is outside [0, 1]",
            text.trim()
        )),
        Err(_) => Err(format!(
            "ordering `{ordering}`: `{text}` is not a probability; write strong:P1:P2 with P1 <= P2 in [0, 1], e.g. strong:0.7:0.9"
        )),
    }
}

/// A composite ordering: terms joined with `+` in text, e.g. `static+random`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ordering {
    pub terms: Vec<OrderTerm>,
}

/// The orderings and how terms join, in words: shared by `ORDERING_HELP` and `ORDERING_TERMS`.
macro_rules! ordering_terms {
    () => {
        "natural, static, random, mvv-lva (chess), tt, killer, history, center-out, threats (connect4), explicit:M1,M2,... (moves in the game's notation), oracle-best, oracle-worst, strong:P1:P2 (best child first with probability P1, in the first quarter with probability P2), or several joined with `+` (e.g. tt+killer+history+static)"
    };
}

/// The orderings an experiment file can write, for messages.
pub const ORDERING_HELP: &str = concat!(
    ordering_terms!(),
    " or as a nested list ([\"tt\", \"killer\", \"static\"]); a top-level list of orderings is a grid"
);

/// `ORDERING_HELP` without the experiment file's list forms: the orderings as a command line
/// writes them (`harness solve --ordering`).
pub const ORDERING_TERMS: &str = ordering_terms!();

impl Ordering {
    pub fn natural() -> Self {
        Ordering {
            terms: vec![OrderTerm::Natural],
        }
    }

    pub fn parse(text: &str) -> Result<Ordering, String> {
        let mut terms = Vec::new();
        if text.trim().is_empty() {
            return Err(format!("an empty ordering; allowed: {ORDERING_HELP}"));
        }
        // `+` joins terms, so a signed probability would split its term in two.
        if text.contains(":+") {
            return Err(format!(
                "ordering `{}`: a `+` right after `:`; a probability is written without a sign (`+` joins terms), e.g. strong:0.7:0.9",
                text.trim()
            ));
        }
        for part in text.split('+') {
            let p = part.trim();
            if p.is_empty() {
                return Err(format!(
                    "ordering `{}` has an empty term (a `+` at an end, or two in a row); allowed: terms joined with `+`, e.g. tt+killer+history+static",
                    text.trim()
                ));
            }
            let term = if let Some(list) = p.strip_prefix("explicit:") {
                let moves: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
                if moves.iter().all(|m| m.is_empty()) {
                    return Err(format!("`{p}` lists no moves; write explicit:M1,M2,..."));
                }
                if moves.iter().any(|m| m.is_empty()) {
                    return Err(format!(
                        "`{p}` has an empty move (two commas in a row, or one at an end); write explicit:M1,M2,..."
                    ));
                }
                OrderTerm::Explicit(moves)
            } else if let Some(args) = p.strip_prefix("strong:") {
                let ps: Vec<&str> = args.split(':').collect();
                if ps.len() != 2 {
                    return Err(format!(
                        "ordering `{p}`: write strong:P1:P2 (P1 the probability that the best child comes first, P2 that it is in the first quarter, P1 <= P2), e.g. strong:0.7:0.9"
                    ));
                }
                let first = probability(p, ps[0])?;
                let quarter = probability(p, ps[1])?;
                if quarter < first {
                    return Err(format!(
                        "ordering `{p}`: the first child is in the first quarter, so P2 ({}) cannot be below P1 ({})",
                        ps[1].trim(),
                        ps[0].trim()
                    ));
                }
                OrderTerm::Strong { first, quarter }
            } else {
                match p {
                    "natural" => OrderTerm::Natural,
                    "static" => OrderTerm::Static,
                    "random" => OrderTerm::Random,
                    "mvv-lva" => OrderTerm::MvvLva,
                    "oracle-best" => OrderTerm::OracleBest,
                    "oracle-worst" => OrderTerm::OracleWorst,
                    "tt" => OrderTerm::Tt,
                    "killer" => OrderTerm::Killer,
                    "history" => OrderTerm::History,
                    "center-out" => OrderTerm::CenterOut,
                    "threats" => OrderTerm::Threats,
                    _ => return Err(format!("unknown ordering `{p}`; allowed: {ORDERING_HELP}")),
                }
            };
            // A term that comes again could only break the ties it made itself: it orders
            // nothing, and one ordering would have two names.
            // Two strong terms: the first orders every child, so the second orders nothing.
            let strong = |t: &OrderTerm| matches!(t, OrderTerm::Strong { .. });
            if strong(&term) && terms.iter().any(strong) {
                return Err(format!(
                    "ordering `{}` has two strong terms; the first sets the whole order; allowed: one strong:P1:P2",
                    text.trim()
                ));
            }
            if terms.contains(&term) {
                return Err(format!(
                    "ordering `{}` lists `{p}` twice; allowed: each term once",
                    text.trim()
                ));
            }
            // The same term under its other name (`static` and `mvv-lva`).
            if terms.iter().any(|t| t.canonical() == term.canonical()) {
                return Err(format!(
                    "ordering `{}` lists the static order twice: `mvv-lva` is chess's `static` under its usual name; allowed: one of them",
                    text.trim()
                ));
            }
            terms.push(term);
        }
        // `natural` is a whole order by itself. First, it leaves the terms after it no ties to
        // break; later, it is the tie-break every ordering already ends with. Either way the
        // list would run as another ordering than its name says.
        if terms.len() > 1 && terms.contains(&OrderTerm::Natural) {
            return Err(format!(
                "ordering `{}` joins `natural` with other terms; `natural` orders every move by itself (first, it leaves the terms after it nothing to order; later, it is the tie-break every ordering ends with); allowed: `natural` alone, or the other terms without it",
                text.trim()
            ));
        }
        // A term that leaves no ties: `strong` gives every move a place of its own, `random` a
        // random 32-bit key of its own (two moves tie about once in 2^32), `center-out` every
        // column a place of its own, so terms after any of them order nothing; `oracle-worst`
        // ties exactly where `oracle-best` does (its keys are the same values negated), so
        // whichever comes second orders nothing.
        if let Some(i) = terms.iter().position(|t| {
            matches!(
                t,
                OrderTerm::Strong { .. } | OrderTerm::Random | OrderTerm::CenterOut
            )
        }) {
            let (whole, last) = match terms[i] {
                OrderTerm::Random => (
                    "`random`, which gives every move a random key of its own (two moves tie about once in 2^32)",
                    "`random` last",
                ),
                OrderTerm::CenterOut => (
                    "`center-out`, which gives every column a place of its own",
                    "`center-out` last",
                ),
                _ => (
                    "a strong term, which gives every move a place of its own",
                    "strong:P1:P2 last",
                ),
            };
            if i + 1 < terms.len() {
                let after: Vec<String> = terms[i + 1..]
                    .iter()
                    .map(|t| {
                        format!(
                            "`{}`",
                            Ordering {
                                terms: vec![t.clone()]
                            }
                        )
                    })
                    .collect();
                return Err(format!(
                    "ordering `{}` puts {} after {whole}: {} would order nothing; allowed: {last}, after the terms whose ties it breaks",
                    text.trim(),
                    after.join(", "),
                    if after.len() == 1 { "it" } else { "they" }
                ));
            }
        }
        if terms.contains(&OrderTerm::OracleBest) && terms.contains(&OrderTerm::OracleWorst) {
            return Err(format!(
                "ordering `{}` joins `oracle-best` and `oracle-worst`; their keys are the same values with opposite signs, so the second breaks no tie the first leaves; allowed: one of them",
                text.trim()
            ));
        }
        Ok(Ordering { terms })
    }

    pub fn uses_randomness(&self) -> bool {
        self.terms
            .iter()
            .any(|t| matches!(t, OrderTerm::Random | OrderTerm::Strong { .. }))
    }

    /// Whether any term needs the oracle.
    pub fn uses_oracle(&self) -> bool {
        self.terms.iter().any(OrderTerm::uses_oracle)
    }

    pub fn has(&self, term: &OrderTerm) -> bool {
        self.terms.contains(term)
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
                OrderTerm::CenterOut => "center-out".to_string(),
                OrderTerm::Threats => "threats".to_string(),
                OrderTerm::Explicit(m) => format!("explicit:{}", m.join(",")),
                OrderTerm::OracleBest => "oracle-best".to_string(),
                OrderTerm::OracleWorst => "oracle-worst".to_string(),
                OrderTerm::Strong { first, quarter } => {
                    format!("strong:{}:{}", *first as f64 / 1e6, *quarter as f64 / 1e6)
                }
                OrderTerm::Tt => "tt".to_string(),
                OrderTerm::Killer => "killer".to_string(),
                OrderTerm::History => "history".to_string(),
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

/// The sort keys of the ordering's explicit terms, one table per term indexed by move index
/// (the first listed move highest, unlisted moves 0), resolved against `game`; an error names
/// a listed move that does not fit it.
pub fn explicit_keys<G: crate::games::Game>(
    ordering: &Ordering,
    game: &G,
) -> Result<Vec<Vec<i64>>, String> {
    let mut tables: Vec<Vec<i64>> = Vec::new();
    for term in &ordering.terms {
        if let OrderTerm::Explicit(list) = term {
            let mut keys = vec![0i64; game.move_space()];
            let n = list.len() as i64;
            for (i, text) in list.iter().enumerate() {
                let m = game
                    .parse_move(text)
                    .map_err(|e| format!("explicit ordering: {e}"))?;
                // A move an earlier explicit term ranks is ordered there: ranking it again
                // orders nothing.
                if tables.iter().any(|t| t[game.move_index(m)] != 0) {
                    return Err(format!(
                        "ordering `{ordering}` ranks the move {} in two explicit terms; allowed: each move in one list",
                        game.format_move(m)
                    ));
                }
                let slot = &mut keys[game.move_index(m)];
                if *slot != 0 {
                    // Written twice (perhaps in two spellings): the second place would win.
                    let first = list
                        .iter()
                        .find(|t| game.parse_move(t).ok() == Some(m))
                        .map_or(text.as_str(), |t| t.as_str());
                    let spellings = if first == text {
                        format!("`{text}`")
                    } else {
                        format!("`{first}` and `{text}`")
                    };
                    return Err(format!(
                        "explicit ordering `explicit:{}` lists the move {} twice ({spellings}); allowed: each move once",
                        list.join(","),
                        game.format_move(m)
                    ));
                }
                *slot = n - i as i64;
            }
            tables.push(keys);
        }
    }
    Ok(tables)
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
        let c = Ordering::parse("tt+killer+history+static").unwrap();
        assert_eq!(
            c.terms,
            vec![
                OrderTerm::Tt,
                OrderTerm::Killer,
                OrderTerm::History,
                OrderTerm::Static
            ]
        );
        assert_eq!(c.to_string(), "tt+killer+history+static");
        assert!(Ordering::parse("explicit:").is_err());
        // A signed probability: the message says why, not that `strong:` alone is malformed.
        for text in ["strong:+0.5:1", "strong:0.5:+1", "static+strong:+1:1"] {
            let e = Ordering::parse(text).unwrap_err();
            assert!(e.contains("a probability is written without a sign"), "{e}");
        }
    }

    #[test]
    fn a_term_or_move_written_twice_is_refused() {
        for (text, expect) in [
            ("static+static", "lists `static` twice"),
            ("tt+killer+tt", "lists `tt` twice"),
            ("explicit:4,0+explicit:4,0", "lists `explicit:4,0` twice"),
            ("explicit:4,,0", "an empty move"),
            ("explicit:4,0,", "an empty move"),
            ("explicit:,", "lists no moves"),
            ("static+", "has an empty term"),
            ("+static", "has an empty term"),
            ("static++natural", "has an empty term"),
            ("", "an empty ordering"),
            ("strong:0.5:0.5+strong:0.7:0.9", "two strong terms"),
            ("natural+static", "joins `natural` with other terms"),
            ("static+natural", "joins `natural` with other terms"),
            ("tt+killer+natural", "joins `natural` with other terms"),
            ("static+mvv-lva", "lists the static order twice"),
            ("mvv-lva+tt+static", "lists the static order twice"),
            ("strong:0.5:0.5+static", "puts `static` after a strong term"),
            (
                "strong:1:1+random+tt",
                "puts `random`, `tt` after a strong term",
            ),
            ("random+static", "puts `static` after `random`"),
            (
                "center-out+threats",
                "puts `threats` after `center-out`, which gives every column a place of its own",
            ),
            (
                "tt+random+killer+history",
                "puts `killer`, `history` after `random`",
            ),
            (
                "random+strong:0.5:0.5",
                "puts `strong:0.5:0.5` after `random`",
            ),
            (
                "oracle-best+oracle-worst",
                "joins `oracle-best` and `oracle-worst`",
            ),
            (
                "oracle-worst+static+oracle-best",
                "joins `oracle-best` and `oracle-worst`",
            ),
        ] {
            let e = Ordering::parse(text).unwrap_err();
            assert!(e.contains(expect), "{text}: {e}");
        }
        // Two explicit lists are two terms: the second orders what the first leaves unlisted.
        assert!(Ordering::parse("explicit:4+explicit:3").is_ok());
        // A strong term last breaks the ties of the terms before it; an oracle term leaves
        // ties (children of equal value) for a term after it.
        assert!(Ordering::parse("static+strong:0.5:0.5").is_ok());
        assert!(Ordering::parse("oracle-best+static").is_ok());
        assert!(Ordering::parse("threats+center-out").is_ok());
        let game = crate::games::connect4::Connect4::new(7, 6);
        for (text, expect) in [
            ("explicit:4,3,4", "lists the move 4 twice (`4`)"),
            ("explicit:4,3,04", "lists the move 4 twice (`4` and `04`)"),
            (
                "explicit:4+explicit:04",
                "ranks the move 4 in two explicit terms",
            ),
            (
                "explicit:4,1+explicit:1",
                "ranks the move 1 in two explicit terms",
            ),
        ] {
            let e = explicit_keys(&Ordering::parse(text).unwrap(), &game).unwrap_err();
            assert!(e.contains(expect), "{text}: {e}");
        }
    }

    #[test]
    fn oracle_and_strong_terms() {
        let o = Ordering::parse("oracle-best").unwrap();
        assert!(o.uses_oracle() && !o.uses_randomness());
        assert_eq!(o.to_string(), "oracle-best");
        assert_eq!(
            Ordering::parse("oracle-worst").unwrap().to_string(),
            "oracle-worst"
        );
        let s = Ordering::parse("strong:0.7:0.9").unwrap();
        assert_eq!(
            s.terms,
            vec![OrderTerm::Strong {
                first: 700_000,
                quarter: 900_000
            }]
        );
        assert!(s.uses_oracle() && s.uses_randomness());
        assert_eq!(s.to_string(), "strong:0.7:0.9");
        assert_eq!(
            Ordering::parse("strong:0:1").unwrap().to_string(),
            "strong:0:1"
        );
        for bad in [
            "strong:1.5:1",
            "strong:-0.1:0.5",
            "strong:0.9:0.5",
            "strong:0.5",
            "strong:x:1",
        ] {
            let e = Ordering::parse(bad).unwrap_err();
            assert!(e.contains("strong"), "{bad}: {e}");
        }
        assert!(Ordering::parse("strong:1.5:1")
            .unwrap_err()
            .contains("outside [0, 1]"));
    }

    #[test]
    fn sort_is_stable_and_descending() {
        let mut m = [0, 1, 2, 3];
        let mut k = [1, 3, 1, 3];
        sort_by_keys_desc(&mut m, &mut k);
        assert_eq!(m, [1, 3, 0, 2]);
    }
}
