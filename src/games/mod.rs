//! The `Game` trait and the games that implement it.
//!
//! Every search in `crate::search` is generic over `G: Game` and monomorphized: there is no
//! `dyn Game` in a search loop. A game fills caller-owned move buffers (one per ply, reused, so
//! no allocation per node), plays and takes back moves, says when the game is over and what it
//! is worth, evaluates a position heuristically, and keys it in 64 bits.
//!
//! Scores are `i32` from the point of view of the side to move.

pub mod chess;
pub mod connect4;
pub mod never_hit;
pub mod nim;
pub mod tictactoe;
pub mod uniform;
pub mod zobrist;

use std::fmt::Debug;

/// A bound larger than every score any game produces; the root window is (-INF, +INF).
pub const INF: i32 = 1_000_000_000;

/// Which player is to move: the one who moved first in the game, or the other.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// A two-player, zero-sum, perfect-information game.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move: small and `Copy`.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// The game's name as used in experiment files (`kind = "..."`).
    const NAME: &'static str;

    /// Whether the game has noisy moves or positions where the side to move may not stand pat
    /// (`noisy_moves`, `in_check`): chess. Without them quiescence search only stands pat, and
    /// a horizon node's value is its static evaluation on any window.
    const NOISY: bool = false;

    /// An upper bound on the number of legal moves in any position.
    fn max_moves(&self) -> usize;

    /// Moves map into `0..move_space()` (for history tables, killer slots, explicit orders).
    fn move_space(&self) -> usize;
    fn move_index(&self, m: Self::Move) -> usize;

    /// Appends the legal moves, in the game's natural (generation) order, to `out`, which the
    /// caller has cleared. Not called on a finished game.
    fn moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves (perft's bulk counting). The default fills `scratch` with
    /// `moves` and counts them; a game may count without listing.
    fn count_moves(&self, scratch: &mut Vec<Self::Move>) -> u64 {
        scratch.clear();
        self.moves(scratch);
        scratch.len() as u64
    }

    fn make(&mut self, m: Self::Move);
    fn unmake(&mut self, m: Self::Move);

    /// `None` while the game goes on; `Some(utility)` from the side to move once it is over.
    fn outcome(&self) -> Option<i32>;

    /// Heuristic value of an unfinished position, from the side to move.
    fn evaluate(&self) -> i32;

    /// A 64-bit key of the position (everything that changes the legal moves or the score),
    /// updated incrementally by make/unmake (Zobrist, or an exact compact key).
    fn key(&self) -> u64;

    /// Wins and losses that carry their distance (faster wins score higher: tic-tac-toe
    /// `depth-penalty`, Connect Four ±(1000 − plies), chess ±(MATE − ply)) score at least this
    /// much in magnitude, and fall by one per ply further from the root. The transposition
    /// table stores such scores relative to the node and restores them on probe. `None` (the
    /// default): no score carries a distance, so scores are stored as they are.
    fn win_threshold(&self) -> Option<i32> {
        None
    }

    fn side_to_move(&self) -> Side;

    /// An upper bound on the plies left before the game must end (used for `depth = "full"`).
    fn max_remaining_plies(&self) -> u32;

    /// The game's own ordering score of a move for the `static` ordering: higher first.
    fn static_score(&self, m: Self::Move) -> i32;

    /// The `center-out` ordering score of a move (higher first), for games whose moves are
    /// columns (Connect Four); `None` (the default) when the game has no centre.
    fn center_out_score(&self, _m: Self::Move) -> Option<i32> {
        None
    }

    /// The `threats` ordering score of a move (higher first): for Connect Four the number of
    /// empty cells where the mover could complete four after the move. `None` by default.
    fn threats_score(&self, _m: Self::Move) -> Option<i32> {
        None
    }

    // Solver knowledge, used by `search::solver`. The defaults know nothing, so the solver
    // falls back to plain alpha-beta on the game's utilities.

    /// If the side to move can win with its next move, the value of that win.
    fn win_in_one(&self) -> Option<i32> {
        None
    }

    /// When the side to move cannot win at once: fills `out` (cleared by the caller) with the
    /// moves that do not let the opponent win at once, and returns the value of the position
    /// should none be left (every move loses at once). Returns `None` (and fills nothing) when
    /// the game cannot tell.
    fn non_losing_moves(&self, _out: &mut Vec<Self::Move>) -> Option<i32> {
        None
    }

    /// When the side to move can neither win at once nor is lost at once (it has a non-losing
    /// move): the (lowest, highest) value the position can still have.
    fn solver_bounds(&self) -> (i32, i32) {
        (-INF, INF)
    }

    /// The position's value in the game's external score convention (a benchmark's), which is
    /// monotone in the value; the identity by default.
    fn external_score(&self, value: i32) -> i32 {
        value
    }

    /// The value whose external score is `score` (the inverse of `external_score`).
    fn value_of_external(&self, score: i32) -> i32 {
        score
    }

    /// The lowest and highest external score the position can have.
    fn external_bounds(&self) -> (i32, i32) {
        (-INF + 1, INF - 1)
    }

    fn format_move(&self, m: Self::Move) -> String;
    /// Parses a move in the game's notation, legal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;
    fn format_position(&self) -> String;

    /// Quiescence search: appends the legal "noisy" moves (chess: captures, and as `kinds`
    /// asks, queen promotions and quiet checking moves) to `out`, which the caller has cleared.
    /// The default yields nothing, so quiescence in a game without noisy moves only stands pat.
    fn noisy_moves(&self, _out: &mut Vec<Self::Move>, _kinds: NoisyKinds) {}

    /// Quiescence search: whether the side to move may not stand pat (chess: it is in check),
    /// so that every legal move must be searched. Default: never.
    fn in_check(&self) -> bool {
        false
    }

    /// Delta pruning: an upper bound on how much `m` can raise the evaluation's material
    /// balance (chess: the captured piece plus the promotion gain). Default: no bound.
    fn gain_bound(&self, _m: Self::Move) -> i32 {
        INF
    }

    /// Whether `m` agrees with the best moves annotated on the position (EPD `bm`, or not one
    /// of `am`); `None` when the position carries no such annotation.
    fn suite_hit(&self, _m: Self::Move) -> Option<bool> {
        None
    }
}

/// The kinds of noisy moves beyond captures that quiescence search asks a game for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct NoisyKinds {
    /// Promotions (chess: to a queen) that capture nothing.
    pub promotions: bool,
    /// Quiet moves that give check.
    pub checks: bool,
}

/// Plays a move given in text, checking it against the legal moves.
pub fn play_text<G: Game>(game: &mut G, text: &str) -> Result<G::Move, String> {
    if game.outcome().is_some() {
        return Err(format!(
            "move `{}` comes after the game is over",
            shown(text)
        ));
    }
    let m = game.parse_move(text)?;
    let mut legal = Vec::with_capacity(game.max_moves());
    game.moves(&mut legal);
    if !legal.contains(&m) {
        return Err(format!("move `{}` is not legal here", shown(text)));
    }
    game.make(m);
    Ok(m)
}

/// The moves of a move list written with commas or spaces (`4,0,8`, `4 0 8`, `4, 0, 8`): an
/// empty item between commas (`4,,0`, a comma at either end) is an error, not a move left out.
pub fn move_list(t: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    for item in t.split(',') {
        let before = out.len();
        out.extend(item.split_whitespace());
        if out.len() == before && t.contains(',') {
            return Err(format!(
                "`{}` has an empty move between commas (or a comma at its start or end)",
                shown(t)
            ));
        }
    }
    Ok(out)
}

/// A character that prints as blank or as nothing though it is no plain space: other Unicode
/// spaces (a no-break space), zero-width characters and the byte-order mark.
pub fn invisible(c: char) -> bool {
    (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'
        )
}

/// A bidirectional embedding, override or isolate: it reorders the text around it (U+202E
/// draws what follows backwards) without printing.
pub fn bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` as a terminal may show it: each control character (from a path or a file's text,
/// such as ESC) written as its escape (`\u{1b}`), and each bidirectional control as its code
/// (`\u{202e}`), so that no message moves the cursor, recolours the terminal or reorders the
/// text around it; line ends and tabs stay.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() && c != '\n' && c != '\t') || bidi_control(c);
    if !text.chars().any(unsafe_char) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if !unsafe_char(c) {
                c.to_string()
            } else if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.escape_unicode().to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// `text` as a message quotes it: whole up to 80 characters, else its first 60 and how long it
/// is, so that a malformed line of megabytes gives a message of one line; a control character
/// (a NUL, a tab) is written as its escape (`\0`, `\t`), which a terminal would not show;
/// so is an `invisible` character (`\u{a0}`).
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    let n = text.chars().count();
    if n <= 80 {
        return escaped(text);
    }
    let head: String = text.chars().take(60).collect();
    format!("{}... ({n} characters)", escaped(&head)).into()
}

/// `text` whole, with its control and `invisible` characters escaped as `shown` writes them:
/// for a message that quotes parts of its input (a FEN's fields) which `shown` did not pass.
pub fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() || invisible(c)) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else if invisible(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// `s` as a number written in digits only (Rust's `parse` would also take a sign: `+3`).
pub fn parse_digits<T: std::str::FromStr>(s: &str) -> Option<T> {
    Some(s)
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse().ok())
}

/// The name a reader knows a game by (chart titles), from its `kind` in runs.csv.
pub fn display_name(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "tictactoe" => "Tic-tac-toe",
        "nim" => "Nim",
        "connect4" => "Connect Four",
        "chess" => "Chess",
        "uniform" => "Uniform trees",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::connect4::Connect4;
    use super::nim::Nim;
    use super::tictactoe::{Scale, TicTacToe};
    use super::uniform::{Model, Uniform, UniformSpec, Values};
    use super::Game;

    /// Numbers in positions and moves are digits: Rust's integer parsing would take `+4` as 4.
    #[test]
    fn numbers_in_positions_and_moves_are_digits_only() {
        assert!(Connect4::parse_position(7, 6, "4,4").is_ok());
        assert!(Connect4::parse_position(7, 6, "+4,+4").is_err());
        assert!(TicTacToe::parse_position(Scale::WinLoss, "4,0").is_ok());
        assert!(TicTacToe::parse_position(Scale::WinLoss, "+4,0").is_err());
        let nim = Nim::parse_position(false, "3,4").unwrap();
        assert!(nim.parse_move("1:2").is_ok());
        for bad in ["+1:2", "1:+2", "-0:1"] {
            assert!(nim.parse_move(bad).is_err(), "{bad}");
        }
        let spec = UniformSpec {
            branching: 3,
            height: 4,
            values: Values::Distinct,
            model: Model::Independent,
        };
        assert!(Uniform::parse_position(spec, "tree=1,seed=0x1f,path=2.0").is_ok());
        for bad in [
            "tree=+1,seed=0x1f",
            "tree=1,seed=+31",
            "tree=1,seed=0x+1f",
            "tree=1,seed=0x1f,path=+2.0",
        ] {
            assert!(Uniform::parse_position(spec, bad).is_err(), "{bad}");
        }
        let u = Uniform::parse_position(spec, "tree=1,seed=31").unwrap();
        assert!(u.parse_move("2").is_ok());
        assert!(u.parse_move("+2").is_err());
    }
}
