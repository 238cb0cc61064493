//! Tic-tac-toe on two 9-bit boards.
//!
//! Squares are numbered 0..8 row-major from the top left; X moves first. Natural move order is
//! square 0 to 8; the static order is centre, corners, edges (4, 0, 2, 6, 8, 1, 3, 5, 7).
//! Positions are written as 9 characters row-major (`x`, `o`, `.`), e.g. `x.o.x....`, or as a
//! move list (`4,0,8`, `4 0 8` or `408`).

use std::sync::OnceLock;

use super::{Game, Side};

/// The fixed seed of tic-tac-toe's Zobrist numbers.
const ZOBRIST_SEED: u64 = 0x7469_6374_6163_746f; // "tictacto"

/// Zobrist numbers: index `side * 9 + square` for a stone, 18 for O to move.
fn zobrist() -> &'static [u64; 19] {
    static Z: OnceLock<[u64; 19]> = OnceLock::new();
    Z.get_or_init(|| {
        let v = super::zobrist::numbers(ZOBRIST_SEED, 19);
        std::array::from_fn(|i| v[i])
    })
}

/// What one move XORs into the key: the stone's number and the side-to-move number together.
fn zobrist_moves() -> &'static [u64; 18] {
    static Z: OnceLock<[u64; 18]> = OnceLock::new();
    Z.get_or_init(|| {
        let z = zobrist();
        std::array::from_fn(|i| z[i] ^ z[18])
    })
}

/// The eight lines of three.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// `HAS_LINE[b]`: the 9-bit board `b` holds a line of three (one lookup instead of eight tests).
static HAS_LINE: [bool; 512] = {
    let mut t = [false; 512];
    let mut b = 0;
    while b < 512 {
        let mut i = 0;
        while i < 8 {
            if b as u16 & LINES[i] == LINES[i] {
                t[b] = true;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Class of each square in the static order: centre 0, corners 1, edges 2 (lower is tried
/// first). Squares of a class tie, so a term after `static` orders within the class and the
/// natural order breaks what ties remain: `static` alone tries 4, 0, 2, 6, 8, 1, 3, 5, 7.
const STATIC_RANK: [i32; 9] = [1, 2, 1, 2, 0, 2, 1, 2, 1];

/// How a finished game is scored, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// +1 win, -1 loss, 0 draw.
    WinLoss,
    /// ±(10 − stones on the board): faster wins score higher; 0 for a draw.
    DepthPenalty,
}

impl Scale {
    pub const NAMES: [&'static str; 2] = ["win-loss", "depth-penalty"];
    pub fn parse(s: &str) -> Option<Scale> {
        match s {
            "win-loss" => Some(Scale::WinLoss),
            "depth-penalty" => Some(Scale::DepthPenalty),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Scale::WinLoss => "win-loss",
            Scale::DepthPenalty => "depth-penalty",
        }
    }
}

#[derive(Clone, Debug)]
pub struct TicTacToe {
    /// Bit i set: square i holds the side's stone. `boards[0]` is X, `boards[1]` is O.
    boards: [u16; 2],
    /// 0 when X is to move, 1 when O is.
    to_move: usize,
    scale: Scale,
    /// Zobrist key, updated incrementally.
    hash: u64,
    zob: &'static [u64; 18],
}

impl TicTacToe {
    pub fn new(scale: Scale) -> Self {
        TicTacToe {
            boards: [0, 0],
            to_move: 0,
            scale,
            hash: 0,
            zob: zobrist_moves(),
        }
    }

    /// The Zobrist key computed from scratch (the incremental key must always equal it).
    pub fn key_from_scratch(&self) -> u64 {
        let z = zobrist();
        let mut k = if self.to_move == 1 { z[18] } else { 0 };
        for side in 0..2 {
            for sq in 0..9 {
                if self.boards[side] >> sq & 1 == 1 {
                    k ^= z[side * 9 + sq];
                }
            }
        }
        k
    }

    fn stones(&self) -> u32 {
        (self.boards[0] | self.boards[1]).count_ones()
    }

    #[inline(always)]
    fn has_line(board: u16) -> bool {
        HAS_LINE[board as usize]
    }

    /// Parses a 9-character board or a move list.
    pub fn parse_position(scale: Scale, text: &str) -> Result<Self, String> {
        let t = text.trim();
        let mut g = TicTacToe::new(scale);
        if t.is_empty() || t == "start" {
            return Ok(g);
        }
        if t.chars().count() == 9 && t.chars().all(|c| "xXoO.-_".contains(c)) {
            for (i, c) in t.chars().enumerate() {
                match c {
                    'x' | 'X' => g.boards[0] |= 1 << i,
                    'o' | 'O' => g.boards[1] |= 1 << i,
                    _ => {}
                }
            }
            let (nx, no) = (g.boards[0].count_ones(), g.boards[1].count_ones());
            if nx != no && nx != no + 1 {
                return Err(format!(
                    "position `{t}` has {nx} x and {no} o; X moves first, so x = o or x = o + 1"
                ));
            }
            let (wx, wo) = (Self::has_line(g.boards[0]), Self::has_line(g.boards[1]));
            if wx && wo {
                return Err(format!("position `{t}` has a line for both sides"));
            }
            if wx && nx == no || wo && nx != no {
                return Err(format!(
                    "position `{t}` cannot arise: the side with a line must have moved last"
                ));
            }
            g.to_move = (nx - no) as usize;
            g.hash = g.key_from_scratch();
            return Ok(g);
        }
        let parts: Vec<&str> = if t.contains(',') || t.contains(char::is_whitespace) {
            super::move_list(t)?
        } else {
            t.split("").filter(|s| !s.is_empty()).collect()
        };
        let t = super::shown(t);
        for p in parts {
            if g.parse_move(p).is_err() {
                return Err(format!(
                    "`{t}` is neither a board of 9 characters (x, o, . row-major, e.g. `x.o.x....`) nor a move list of squares 0-8 (e.g. `4,0,8`)"
                ));
            }
            super::play_text(&mut g, p).map_err(|e| format!("in position `{t}`: {e}"))?;
        }
        Ok(g)
    }
}

impl Game for TicTacToe {
    type Move = u8;
    const NAME: &'static str = "tictactoe";

    fn max_moves(&self) -> usize {
        9
    }
    fn move_space(&self) -> usize {
        9
    }
    #[inline]
    fn move_index(&self, m: u8) -> usize {
        m as usize
    }

    #[inline]
    fn moves(&self, out: &mut Vec<u8>) {
        let mut empty = !(self.boards[0] | self.boards[1]) & 0x1ff;
        while empty != 0 {
            out.push(empty.trailing_zeros() as u8);
            empty &= empty - 1;
        }
    }

    #[inline]
    fn make(&mut self, m: u8) {
        self.hash ^= self.zob[self.to_move * 9 + m as usize];
        self.boards[self.to_move] |= 1 << m;
        self.to_move ^= 1;
    }

    #[inline]
    fn unmake(&mut self, m: u8) {
        self.to_move ^= 1;
        self.boards[self.to_move] &= !(1 << m);
        self.hash ^= self.zob[self.to_move * 9 + m as usize];
    }

    #[inline]
    fn outcome(&self) -> Option<i32> {
        // Only the side that just moved can have completed a line.
        if Self::has_line(self.boards[self.to_move ^ 1]) {
            return Some(match self.scale {
                Scale::WinLoss => -1,
                Scale::DepthPenalty => -(10 - self.stones() as i32),
            });
        }
        if self.stones() == 9 {
            return Some(0);
        }
        None
    }

    /// The scales leave no room between a draw and the smallest win, so an unfinished position
    /// evaluates to 0 (unknown counts as a draw).
    fn evaluate(&self) -> i32 {
        0
    }

    /// Zobrist: the stones of each side and the side to move.
    #[inline]
    fn key(&self) -> u64 {
        self.hash
    }

    /// With `depth-penalty`, every win and loss carries its distance: ±(10 − stones) >= 1.
    fn win_threshold(&self) -> Option<i32> {
        match self.scale {
            Scale::WinLoss => None,
            Scale::DepthPenalty => Some(1),
        }
    }

    fn side_to_move(&self) -> Side {
        if self.to_move == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    fn max_remaining_plies(&self) -> u32 {
        9 - self.stones()
    }

    #[inline]
    fn static_score(&self, m: u8) -> i32 {
        -STATIC_RANK[m as usize]
    }

    fn format_move(&self, m: u8) -> String {
        m.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        match super::parse_digits::<u8>(text.trim()) {
            Some(v) if v < 9 => Ok(v),
            _ => Err(format!(
                "`{text}` is not a tic-tac-toe square (0-8, row-major from the top left)"
            )),
        }
    }

    fn format_position(&self) -> String {
        (0..9)
            .map(|i| {
                if self.boards[0] >> i & 1 == 1 {
                    'x'
                } else if self.boards[1] >> i & 1 == 1 {
                    'o'
                } else {
                    '.'
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_format_round_trip() {
        let g = TicTacToe::parse_position(Scale::WinLoss, "x.o.x....").unwrap();
        assert_eq!(g.format_position(), "x.o.x....");
        assert_eq!(g.side_to_move(), Side::Second);
        let h = TicTacToe::parse_position(Scale::WinLoss, "4,0,8").unwrap();
        assert_eq!(h.format_position(), "o...x...x");
        assert_eq!(h.side_to_move(), Side::Second);
        assert!(TicTacToe::parse_position(Scale::WinLoss, "xx.......").is_err());
        assert!(TicTacToe::parse_position(Scale::WinLoss, "4,4").is_err());
        assert!(TicTacToe::parse_position(Scale::WinLoss, "9").is_err());
    }

    #[test]
    fn outcome_scales() {
        // X: 0,1,2 wins with 5 stones on the board; O to move has lost.
        let g = TicTacToe::parse_position(Scale::DepthPenalty, "xxxoo....").unwrap();
        assert_eq!(g.outcome(), Some(-5));
        let g = TicTacToe::parse_position(Scale::WinLoss, "xxxoo....").unwrap();
        assert_eq!(g.outcome(), Some(-1));
        let g = TicTacToe::parse_position(Scale::WinLoss, "xoxxoxoxo").unwrap();
        assert_eq!(g.outcome(), Some(0));
    }
}
