//! Connect Four on a bitboard.
//!
//! The board has `width` columns and `height` rows (7 × 6 by default); any size with
//! `width × (height + 1) <= 64` works. Column `c` (0-based, from the left) owns the bits
//! `c·(height+1) .. c·(height+1)+height−1`, bottom row first; the bit above each column is a
//! sentinel that is always empty, so a shift never carries a line from one column into the next.
//! Two words describe a position: `current` (the stones of the side to move) and `mask` (every
//! stone). A four is found with three shifts and two ANDs per direction.
//!
//! **Moves** are columns. In text they are numbered from 1 at the left, as in the benchmark
//! format: a position is the string of columns played from the empty board, e.g. `4453`
//! (digits when the board has at most 9 columns; otherwise numbers separated by `,` or spaces).
//! `start` (or an empty string) is the empty board. Natural order: columns left to right.
//!
//! **Key**: `current + mask`. Within a column with k stones this is `current_bits + 2^k − 1`,
//! which lies in `[2^k − 1, 2^(k+1) − 2]`: different stone counts give disjoint ranges and, for
//! one count, different stones give different values, and no column overflows into the next
//! (the sentinel bit absorbs the top). So the key is exact: two positions share a key only if
//! they have the same stones (and hence the same side to move).
//!
//! **Utility** of a finished game, from the side to move: `−(1000 − plies played)` when the
//! opponent has just connected four (the side to move has lost), 0 for a full board without a
//! four. Faster wins score higher.
//!
//! **Evaluation** E(s) of an unfinished position, from the side to move: every four-cell window
//! (horizontal, vertical, both diagonals) that holds stones of one side only scores
//! f(k) for the side with k stones in it, f(1) = 1, f(2) = 3, f(3) = 9 (positive for the side
//! to move, negative for the opponent; empty and mixed windows score 0); plus
//! 3 × (own stones − opponent's stones) in the centre column (both middle columns when the
//! width is even). The sum is clamped to ±(999 − width × height), strictly inside every win or
//! loss, so a heuristic value never passes for a proven one.
//!
//! **Orderings**: `static` sorts children by their static evaluation (a move that wins at once
//! first, then the child's E negated, i.e. from the mover's side); `center-out` tries the middle
//! column first and then alternates outwards, left before right (4, 3, 5, 2, 6, 1, 7 on the
//! standard board); `threats` sorts moves by the number of empty cells where the mover could
//! complete four after the move (use `threats+center-out` to break its ties centre-out).
//!
//! **Benchmark scores** (the solver's external convention, data/connect4/README.md): the side
//! to move wins: ⌊(width × height + 2 − p) / 2⌋, p the plies on the board when the winner
//! connects four (on boards with an even number of cells, 7×6 among them: width × height / 2 +
//! 1 − the winner's stone count, 22 − stones on 7×6); a draw 0; a loss the negative of the
//! winner's score.

use super::{Game, Side};

/// Utility base: a win at `p` plies played is worth `WIN - p` to the winner.
pub const WIN: i32 = 1000;

/// Window weights f(1), f(2), f(3) of the evaluation.
pub const WINDOW_WEIGHTS: [i32; 4] = [0, 1, 3, 9];
/// Weight of a centre-column stone.
pub const CENTRE_WEIGHT: i32 = 3;

/// The board geometry and the masks derived from it (computed once per game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Geometry {
    width: u32,
    height: u32,
    /// One bit at the bottom of each column.
    bottom: u64,
    /// Every playable cell.
    board: u64,
    /// The centre column(s).
    centre: u64,
    /// For each direction (vertical, horizontal, diagonal /, diagonal \): its shift and the
    /// cells where a window of four in that direction starts and stays on the board.
    shifts: [u32; 4],
    starts: [u64; 4],
}

impl Geometry {
    fn new(width: u32, height: u32) -> Geometry {
        let h1 = height + 1;
        let cell = |c: u32, r: u32| 1u64 << (c * h1 + r);
        let mut bottom = 0;
        let mut board = 0;
        let mut centre = 0;
        for c in 0..width {
            bottom |= cell(c, 0);
            for r in 0..height {
                board |= cell(c, r);
                let middle = if width % 2 == 1 {
                    c == width / 2
                } else {
                    c == width / 2 || c + 1 == width / 2
                };
                if middle {
                    centre |= cell(c, r);
                }
            }
        }
        // Directions as (column step, row step) with their bit shifts.
        let dirs: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        let shifts = [1, h1, h1 + 1, h1 - 1];
        let mut starts = [0u64; 4];
        for (d, &(dc, dr)) in dirs.iter().enumerate() {
            for c in 0..width as i32 {
                for r in 0..height as i32 {
                    let (ec, er) = (c + 3 * dc, r + 3 * dr);
                    if (0..width as i32).contains(&ec) && (0..height as i32).contains(&er) {
                        starts[d] |= cell(c as u32, r as u32);
                    }
                }
            }
        }
        Geometry {
            width,
            height,
            bottom,
            board,
            centre,
            shifts,
            starts,
        }
    }

    #[inline(always)]
    fn column_mask(&self, c: u32) -> u64 {
        ((1u64 << self.height) - 1) << (c * (self.height + 1))
    }

    #[inline(always)]
    fn top_cell(&self, c: u32) -> u64 {
        1u64 << (c * (self.height + 1) + self.height - 1)
    }

    #[inline(always)]
    fn bottom_cell(&self, c: u32) -> u64 {
        1u64 << (c * (self.height + 1))
    }
}

/// Most plies a game can have (64 cells at most).
const MAX_CELLS: usize = 64;

#[derive(Clone, Copy, Debug)]
pub struct Connect4 {
    geo: Geometry,
    /// Stones of the side to move.
    current: u64,
    /// Every stone on the board.
    mask: u64,
    plies: u32,
    /// The columns played from the empty board (for `format_position`).
    history: [u8; MAX_CELLS],
}

/// Calls `f` with the column stride `h1`, as the constant 7 on the standard board, so that
/// `f`'s shifts compile to immediates there; other boards take the general path.
#[inline(always)]
fn with_stride<T>(h1: u32, f: impl Fn(u32) -> T) -> T {
    if h1 == 7 {
        f(7)
    } else {
        f(h1)
    }
}

/// Whether four cells `s` bits apart fit in the 64-bit board: 3s < 64. A tall narrow board
/// has no four across its columns, and the shifts by 2s or 3s that look for one would wrap
/// in a release build. On 7×6 the stride is a constant and this folds away.
#[inline(always)]
fn four_fits(s: u32) -> bool {
    3 * s < 64
}

/// True when `p` holds four in a row in any direction.
#[inline(always)]
fn has_four(p: u64, h1: u32) -> bool {
    with_stride(h1, |s| has_four_in(p, s))
}

#[inline(always)]
fn has_four_in(p: u64, h1: u32) -> bool {
    for s in [1, h1, h1 + 1, h1 - 1] {
        if !four_fits(s) {
            continue;
        }
        let m = p & (p >> s);
        if m & (m >> (2 * s)) != 0 {
            return true;
        }
    }
    false
}

/// The cells (occupied or not) that would complete a four for the stones `p`.
#[inline(always)]
fn completing_cells(p: u64, h1: u32) -> u64 {
    with_stride(h1, |s| completing_cells_in(p, s))
}

#[inline(always)]
fn completing_cells_in(p: u64, h1: u32) -> u64 {
    // Vertical: three stones below the cell.
    let mut r = (p << 1) & (p << 2) & (p << 3);
    for s in [h1, h1 + 1, h1 - 1] {
        if !four_fits(s) {
            continue;
        }
        // The cell is the last of three in a row on one side, or fills a gap of one.
        let pair_before = (p << s) & (p << (2 * s));
        r |= pair_before & (p << (3 * s));
        r |= pair_before & (p >> s);
        let pair_after = (p >> s) & (p >> (2 * s));
        r |= pair_after & (p >> (3 * s));
        r |= pair_after & (p << s);
    }
    r
}

impl Connect4 {
    /// Checks a board size: at least one row and column, and `width × (height + 1) <= 64`.
    pub fn check_size(width: i64, height: i64) -> Result<(), String> {
        if width < 1 || height < 1 {
            return Err(format!(
                "board {width}x{height}: width and height must be at least 1"
            ));
        }
        if width.saturating_mul(height.saturating_add(1)) > 64 {
            return Err(format!(
                "board {width}x{height}: width × (height + 1) must be at most 64 (one 64-bit word), e.g. 7x6, 8x7, 9x6, 6x5, 4x4"
            ));
        }
        Ok(())
    }

    /// The empty board. Panics on a size `check_size` rejects (callers check first).
    pub fn new(width: u32, height: u32) -> Connect4 {
        assert!(
            Self::check_size(width.into(), height.into()).is_ok(),
            "checked board size"
        );
        Connect4 {
            geo: Geometry::new(width, height),
            current: 0,
            mask: 0,
            plies: 0,
            history: [0; MAX_CELLS],
        }
    }

    pub fn width(&self) -> u32 {
        self.geo.width
    }

    pub fn height(&self) -> u32 {
        self.geo.height
    }

    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Parses a move string (`4453`, or `4,4,5,3` / `4 4 5 3`) played from the empty board.
    /// Errors name the move (its number, from 1, and its text) and what is wrong.
    pub fn parse_position(width: u32, height: u32, text: &str) -> Result<Connect4, String> {
        Self::check_size(width.into(), height.into())?;
        let mut g = Connect4::new(width, height);
        let t = text.trim();
        if t.is_empty() || t == "start" {
            return Ok(g);
        }
        let tokens: Vec<&str> = if t.contains(',') || t.contains(char::is_whitespace) {
            super::move_list(t)?
        } else {
            // Digits, one per move.
            t.split("").filter(|s| !s.is_empty()).collect()
        };
        // `4453 3`: a move string and a score, the positions-file format, given as a position.
        let scored = tokens.len() == 2
            && !t.contains(',')
            && tokens[0].len() > 1
            && tokens[0].bytes().all(|b| b.is_ascii_digit())
            && tokens[1].trim_start_matches('-').parse::<u64>().is_ok();
        // Digits one per move name columns 1 to 9 only: a wider board needs separators.
        let digits_wide = width > 9 && !t.contains(',') && !t.contains(char::is_whitespace);
        let t = super::shown(t);
        for (i, tok) in tokens.iter().enumerate() {
            g.play_checked(tok).map_err(|e| {
                let hint = if scored {
                    format!(" (`{t}` reads as moves and a score, the format of a positions file; here give the moves alone, `{}`, or put moves and scores in a positions_file)", super::shown(tokens[0]))
                } else if digits_wide {
                    format!(" (digits without separators are one column each, 1 to 9; on a board {width} wide separate the columns with commas: `10,3`)")
                } else {
                    String::new()
                };
                format!("move {} (`{}`) of `{t}`: {e}{hint}", i + 1, super::shown(tok))
            })?;
        }
        Ok(g)
    }

    /// Plays one column given in text, with the checks of the benchmark format.
    fn play_checked(&mut self, tok: &str) -> Result<(), String> {
        let m = self.parse_move(tok)?;
        if self.outcome().is_some() {
            return Err("the game is already over".to_string());
        }
        if self.mask & self.geo.top_cell(m as u32) != 0 {
            return Err(format!("column {} is full", m + 1));
        }
        self.make(m);
        Ok(())
    }

    /// The stones of the side that moved last.
    #[inline(always)]
    fn last_mover(&self) -> u64 {
        self.current ^ self.mask
    }

    /// Cells where a stone can be dropped now.
    #[inline(always)]
    fn playable(&self) -> u64 {
        (self.mask + self.geo.bottom) & self.geo.board
    }

    /// Empty cells that would complete a four for the stones `p`.
    #[inline(always)]
    fn threats(&self, p: u64) -> u64 {
        completing_cells(p, self.geo.height + 1) & self.geo.board & !self.mask
    }

    /// The evaluation's sum over windows in one direction, for `own` against `opp`.
    #[inline(always)]
    fn windows(own: u64, opp: u64, s: u32, starts: u64) -> i32 {
        if !four_fits(s) {
            return 0;
        }
        // Windows starting at a bit of `free` hold no stone of `opp`.
        let free = starts & !(opp | opp >> s | opp >> (2 * s) | opp >> (3 * s));
        let a = own & free;
        let b = (own >> s) & free;
        let c = (own >> (2 * s)) & free;
        let d = (own >> (3 * s)) & free;
        // Bit-sliced count of a + b + c + d per window: bit0, bit1, bit2.
        let (x, y) = (a ^ b, a & b);
        let (z, w) = (c ^ d, c & d);
        let bit0 = x ^ z;
        let carry = x & z;
        let bit1 = (y ^ w) | carry;
        let bit2 = y & w;
        let one = bit0 & !bit1 & !bit2;
        let two = !bit0 & bit1;
        let three = bit0 & bit1;
        WINDOW_WEIGHTS[1] * one.count_ones() as i32
            + WINDOW_WEIGHTS[2] * two.count_ones() as i32
            + WINDOW_WEIGHTS[3] * three.count_ones() as i32
    }

    /// The unclamped evaluation of `own` against `opp`.
    fn raw_eval(&self, own: u64, opp: u64) -> i32 {
        let g = &self.geo;
        let mut v = 0;
        for d in 0..4 {
            v += Self::windows(own, opp, g.shifts[d], g.starts[d]);
            v -= Self::windows(opp, own, g.shifts[d], g.starts[d]);
        }
        v + CENTRE_WEIGHT
            * ((own & g.centre).count_ones() as i32 - (opp & g.centre).count_ones() as i32)
    }

    /// The benchmark score of a value of this position (see the module documentation): a win
    /// that connects four at ply `p` (stones of both sides on the board) is worth
    /// ⌊(cells + 2 − p) / 2⌋.
    pub fn benchmark_score(&self, value: i32) -> i32 {
        let cells = (self.geo.width * self.geo.height) as i32;
        let score = |p: i32| (cells + 2 - p) / 2;
        if value > 0 {
            score(WIN - value)
        } else if value < 0 {
            -score(WIN + value)
        } else {
            0
        }
    }

    /// The value (utility) of this position whose benchmark score is `score`.
    pub fn value_of_score(&self, score: i32) -> i32 {
        let cells = (self.geo.width * self.geo.height) as i32;
        if score == 0 {
            return 0;
        }
        // The winner is the side to move when the score is positive; the first player
        // connects at an odd ply. ⌊(cells + 2 − p) / 2⌋ = |score| for two plies p, one of
        // each parity: the winner's.
        let mover_first = self.plies.is_multiple_of(2);
        let winner_first = if score > 0 { mover_first } else { !mover_first };
        let p = cells + 2 - 2 * score.abs();
        let p = if (p % 2 == 1) == winner_first {
            p
        } else {
            p - 1
        };
        if score > 0 {
            WIN - p
        } else {
            -(WIN - p)
        }
    }

    /// The scores this position can have: a finished game its own; else from a loss at the
    /// opponent's earliest possible four (its next stone, but not before its fourth) to a win
    /// at ours, each 0 when the board fills first. Narrower than `external_bounds`, the
    /// solver's starting window, which leaves out the fourth-stone rule (see there).
    pub fn possible_scores(&self) -> (i32, i32) {
        if let Some(u) = self.outcome() {
            let s = self.benchmark_score(u);
            return (s, s);
        }
        let cells = self.geo.width * self.geo.height;
        let p = self.plies;
        // The earliest ply at which a side with `stones` on the board, to play next at
        // `next`, can connect four.
        let earliest = |stones: u32, next: u32| {
            let ply = next + 2 * (4u32.saturating_sub(stones + 1));
            (ply <= cells).then_some(ply as i32)
        };
        let hi = earliest(p / 2, p + 1).map_or(0, |q| self.benchmark_score(WIN - q));
        let lo = earliest(p - p / 2, p + 2).map_or(0, |q| self.benchmark_score(-(WIN - q)));
        (lo, hi)
    }
}

impl Game for Connect4 {
    type Move = u8;
    const NAME: &'static str = "connect4";

    fn max_moves(&self) -> usize {
        self.geo.width as usize
    }

    fn move_space(&self) -> usize {
        self.geo.width as usize
    }

    #[inline(always)]
    fn move_index(&self, m: u8) -> usize {
        m as usize
    }

    #[inline]
    fn moves(&self, out: &mut Vec<u8>) {
        for c in 0..self.geo.width {
            if self.mask & self.geo.top_cell(c) == 0 {
                out.push(c as u8);
            }
        }
    }

    #[inline(always)]
    fn make(&mut self, m: u8) {
        self.current ^= self.mask;
        self.mask |= self.mask + self.geo.bottom_cell(m as u32);
        self.history[self.plies as usize] = m;
        self.plies += 1;
    }

    #[inline(always)]
    fn unmake(&mut self, m: u8) {
        let col = self.mask & self.geo.column_mask(m as u32);
        let top = 1u64 << (63 - col.leading_zeros());
        self.mask ^= top;
        self.current ^= self.mask;
        self.plies -= 1;
    }

    #[inline(always)]
    fn outcome(&self) -> Option<i32> {
        if has_four(self.last_mover(), self.geo.height + 1) {
            Some(-(WIN - self.plies as i32))
        } else if self.plies == self.geo.width * self.geo.height {
            Some(0)
        } else {
            None
        }
    }

    fn evaluate(&self) -> i32 {
        let limit = WIN - 1 - (self.geo.width * self.geo.height) as i32;
        self.raw_eval(self.current, self.last_mover())
            .clamp(-limit, limit)
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.current + self.mask
    }

    fn side_to_move(&self) -> Side {
        if self.plies.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn max_remaining_plies(&self) -> u32 {
        self.geo.width * self.geo.height - self.plies
    }

    /// Children by their static evaluation, from the mover's side: a move that wins at once
    /// scores `WIN`, any other the negated evaluation of the position it leads to.
    #[inline]
    fn static_score(&self, m: u8) -> i32 {
        let mut child = *self;
        child.make(m);
        match child.outcome() {
            Some(u) if u < 0 => WIN,
            Some(u) => -u,
            None => -child.evaluate(),
        }
    }

    fn center_out_score(&self, m: Self::Move) -> Option<i32> {
        // Distance from the middle, doubled to stay whole; ties (even widths, and left/right
        // pairs) keep natural order, so the left column comes first.
        Some(-(2 * m as i32 - (self.geo.width as i32 - 1)).abs())
    }

    #[inline]
    fn threats_score(&self, m: Self::Move) -> Option<i32> {
        // The position after the move, without copying the game.
        let stone = (self.mask + self.geo.bottom_cell(m as u32)) & self.geo.column_mask(m as u32);
        let own = self.current | stone;
        let empty = self.geo.board & !(self.mask | stone);
        Some((completing_cells(own, self.geo.height + 1) & empty).count_ones() as i32)
    }

    fn format_move(&self, m: u8) -> String {
        (m as u32 + 1).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let w = self.geo.width;
        match super::parse_digits::<u32>(text.trim()) {
            Some(c) if (1..=w).contains(&c) => Ok((c - 1) as u8),
            _ => Err(format!(
                "`{}` is not a column: columns are numbered 1 to {w} from the left",
                super::shown(text.trim())
            )),
        }
    }

    /// The columns played from the empty board (`start` for the empty board).
    fn format_position(&self) -> String {
        if self.plies == 0 {
            return "start".to_string();
        }
        let cols = self.history[..self.plies as usize]
            .iter()
            .map(|&c| (c as u32 + 1).to_string());
        if self.geo.width <= 9 {
            cols.collect()
        } else {
            cols.collect::<Vec<_>>().join(",")
        }
    }

    fn win_in_one(&self) -> Option<i32> {
        if self.threats(self.current) & self.playable() != 0 {
            Some(WIN - (self.plies as i32 + 1))
        } else {
            None
        }
    }

    fn non_losing_moves(&self, out: &mut Vec<u8>) -> Option<i32> {
        let lost = Some(-(WIN - (self.plies as i32 + 2)));
        let opp = self.last_mover();
        let opp_threats = self.threats(opp);
        let mut ok = self.playable();
        let forced = ok & opp_threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                // Two cells to block at once: every move loses.
                return lost;
            }
            ok = forced;
        }
        // Never play just below a cell where the opponent would complete four.
        ok &= !(opp_threats >> 1);
        // At most one playable cell per column: one set bit per move, left to right.
        let h1 = self.geo.height + 1;
        while ok != 0 {
            out.push((ok.trailing_zeros() / h1) as u8);
            ok &= ok - 1;
        }
        lost
    }

    /// The opponent cannot connect with its next stone (we have a non-losing move), so a loss
    /// comes at the earliest with its second stone from now, `plies + 4`; we cannot connect
    /// with this stone, so a win comes at the earliest with our next one, `plies + 3`. A bound
    /// beyond the full board is a draw.
    fn solver_bounds(&self) -> (i32, i32) {
        let n = (self.geo.width * self.geo.height) as i32;
        let p = self.plies as i32;
        let lo = if p + 4 > n { 0 } else { -(WIN - (p + 4)) };
        let hi = if p + 3 > n { 0 } else { WIN - (p + 3) };
        (lo, hi)
    }

    fn external_score(&self, value: i32) -> i32 {
        self.benchmark_score(value)
    }

    fn value_of_external(&self, score: i32) -> i32 {
        self.value_of_score(score)
    }

    fn external_bounds(&self) -> (i32, i32) {
        let n = (self.geo.width * self.geo.height) as i32;
        let p = self.plies as i32;
        // A loss comes at the earliest with the opponent's next stone, a win with our next.
        (
            self.benchmark_score(-(WIN - (p + 2).min(n))),
            self.benchmark_score(WIN - (p + 1).min(n)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(t: &str) -> Connect4 {
        Connect4::parse_position(7, 6, t).unwrap()
    }

    #[test]
    fn parse_format_and_errors() {
        assert_eq!(pos("4453").format_position(), "4453");
        assert_eq!(pos("").format_position(), "start");
        assert!(Connect4::parse_position(7, 6, "48")
            .unwrap_err()
            .contains("move 2 (`8`)"));
        assert!(Connect4::parse_position(7, 6, "1111111")
            .unwrap_err()
            .contains("column 1 is full"));
        // 1212121: the first player connects four with the 7th move; an 8th is refused.
        assert!(Connect4::parse_position(7, 6, "12121212")
            .unwrap_err()
            .contains("move 8 (`2`)"));
        // Moves and a score, as in a positions file: the message says so.
        let e = Connect4::parse_position(7, 6, "4453 3").unwrap_err();
        assert!(
            e.contains("moves alone, `4453`") && e.contains("positions_file"),
            "{e}"
        );
        assert_eq!(pos("4 4 5 3").format_position(), "4453");
        assert!(!Connect4::parse_position(7, 6, "4 9")
            .unwrap_err()
            .contains("positions_file"));
        assert!(Connect4::check_size(8, 8).is_err());
        assert!(Connect4::check_size(4, 4).is_ok());
    }

    #[test]
    fn wins_and_scores() {
        let g = pos("1212121");
        assert_eq!(g.outcome(), Some(-(WIN - 7)));
        assert_eq!(g.benchmark_score(-(WIN - 7)), -18);
        // `445566`: the side to move connects at once, with its fourth stone: score 18.
        let g = pos("445566");
        assert_eq!(g.win_in_one(), Some(WIN - 7));
        assert_eq!(g.benchmark_score(WIN - 7), 18);
        assert_eq!(g.value_of_score(18), WIN - 7);
        assert_eq!(pos("4455").win_in_one(), None);
        // Horizontal, diagonal and anti-diagonal fours.
        assert!(pos("1122334").outcome().is_some());
        assert!(pos("12233434474").outcome().is_some());
        assert!(pos("1223343447").outcome().is_none());
        assert!(pos("76655454414").outcome().is_some());
        // Round trips of the score maps for both movers.
        for t in ["", "4"] {
            let g = pos(t);
            for s in -18..=18 {
                assert_eq!(g.benchmark_score(g.value_of_score(s)), s, "{t} {s}");
            }
        }
    }

    /// Odd numbers of cells: the first player's win on the last cell of 5×5 (ply 25) is worth
    /// ⌊(25 + 2 − 25) / 2⌋ = 1, not 0 (a draw's), and the second player, who then has lost,
    /// scores −1.
    #[test]
    fn scores_on_boards_with_an_odd_number_of_cells() {
        let g = Connect4::parse_position(5, 5, "525425145341322131144523").unwrap();
        assert_eq!(g.win_in_one(), Some(WIN - 25));
        assert_eq!(g.benchmark_score(WIN - 25), 1);
        assert_eq!(g.value_of_score(1), WIN - 25);
        let after = Connect4::parse_position(5, 5, "5254251453413221311445233").unwrap();
        assert_eq!(after.outcome(), Some(-(WIN - 25)));
        assert_eq!(after.benchmark_score(after.outcome().unwrap()), -1);
        assert_eq!(after.possible_scores(), (-1, -1));
        for (w, h) in [(5, 5), (7, 5), (7, 7), (4, 4), (7, 6)] {
            for t in ["", "1"] {
                let g = Connect4::parse_position(w, h, t).unwrap();
                let (lo, hi) = g.external_bounds();
                for s in lo..=hi {
                    assert_eq!(g.benchmark_score(g.value_of_score(s)), s, "{w}x{h} {t} {s}");
                }
            }
        }
    }

    /// The scores a position can have: a won game its own, a full board 0, else from the
    /// opponent's earliest four to ours, neither before its fourth stone.
    #[test]
    fn possible_scores_follow_the_fourth_stone_rule() {
        assert_eq!(pos("").possible_scores(), (-18, 18));
        assert_eq!(pos("4455").possible_scores(), (-18, 18));
        assert_eq!(pos("445").possible_scores(), (-18, 18));
        assert_eq!(pos("44556").possible_scores(), (-18, 18));
        // Past the fourth stones: the next stone (ply 9, ⌊(44 − 9) / 2⌋ = 17), the opponent's
        // after it (ply 10: 17; from ply 9 on, ply 11: 16).
        assert_eq!(pos("44445555").possible_scores(), (-17, 17));
        assert_eq!(pos("444455551").possible_scores(), (-16, 17));
        assert_eq!(pos("1212121").possible_scores(), (-18, -18));
        let full = "746336637473574166457736354111141522225252";
        assert_eq!(pos(full).outcome(), Some(0));
        assert_eq!(pos(full).possible_scores(), (0, 0));
        // One cell left on 7×6 (the second player's 21st stone): a win is worth 1, no loss.
        assert_eq!(pos(&full[..41]).possible_scores(), (0, 1));
    }

    /// Tall narrow boards: a four in a direction whose stride times 3 passes 63 bits cannot
    /// exist, and its shifts must not wrap (1×62 called one stone four; 2×31 ended `1122`).
    #[test]
    fn tall_narrow_boards_find_no_false_fours() {
        for (w, h, t) in [
            (1, 62, "1"),
            (1, 63, "111"),
            (2, 31, "1122"),
            (2, 30, "112211"),
        ] {
            let g = Connect4::parse_position(w, h, t).unwrap();
            assert_eq!(g.outcome(), None, "{w}x{h} {t}");
        }
        // Vertical fours still count there.
        let g = Connect4::parse_position(2, 31, "1212121").unwrap();
        assert!(g.outcome().is_some());
        // 3×20: no false immediate win from completing cells across the top of a column.
        for t in ["", "1", "123", "2", "3213"] {
            let g = Connect4::parse_position(3, 20, t).unwrap();
            assert_eq!(g.win_in_one(), None, "3x20 {t}");
        }
    }

    #[test]
    fn unmake_restores_and_keys_are_exact() {
        let mut g = pos("44455554221");
        let (c, m, k) = (g.current, g.mask, g.key());
        let mut buf = Vec::new();
        g.moves(&mut buf);
        for &mv in &buf {
            g.make(mv);
            assert_ne!(g.key(), k);
            g.unmake(mv);
            assert_eq!((g.current, g.mask, g.key()), (c, m, k));
        }
        // Transpositions share a key; different positions do not.
        assert_eq!(pos("4453").key(), pos("5344").key());
        assert_ne!(pos("45").key(), pos("54").key());
    }

    #[test]
    fn evaluation_and_orders() {
        let g = pos("");
        assert_eq!(g.evaluate(), 0);
        // One stone in the centre bottom cell, counted by hand from the mover's (second
        // player's) side: the opponent's stone lies in 7 open windows (4 horizontal, 1
        // vertical, 1 on each diagonal), each with one stone, plus the centre weight 3.
        let g = pos("4");
        assert_eq!(CENTRE_WEIGHT, 3);
        assert_eq!(g.evaluate(), -7 - 3);
        let order: Vec<i32> = (0..7).map(|m| g.center_out_score(m).unwrap()).collect();
        assert_eq!(order, vec![-6, -4, -2, 0, -2, -4, -6]);
        // A winning move is the static ordering's first choice.
        let g = pos("445566");
        assert_eq!(g.static_score(2), WIN);
        assert_eq!(g.static_score(6), WIN);
        assert!(g.static_score(0) < WIN);
    }

    #[test]
    fn non_losing_moves_block() {
        // The second player must block the first player's three in column 1... here a
        // horizontal threat: first player has 1,2,3 on the bottom row.
        let g = pos("172737");
        assert_eq!(g.win_in_one(), Some(WIN - 7));
        let g = pos("17273");
        let mut out = Vec::new();
        assert_eq!(g.non_losing_moves(&mut out), Some(-(WIN - 7)));
        assert_eq!(out, vec![3]);
    }
}
