//! Nim: heaps of objects; a move removes k >= 1 objects from one heap.
//!
//! Normal play: the player who takes the last object wins. Misère: that player loses.
//! Scores are ±1 from the side to move (Nim has no notion of a faster win here).
//! Positions are the heap sizes, comma separated (`3,4,5`). Moves are written `h:k` (take k
//! objects from heap h, heaps numbered from 0 at the left). Natural order: heaps left to right,
//! and within a heap k = 1, 2, ... up to the heap's size. Static order: moves that leave a
//! nim-sum (XOR) of 0 first (Bouton's winning moves in normal play), then larger takes first.

use std::sync::OnceLock;

use super::{Game, Side};

/// The fixed seed of Nim's Zobrist numbers.
const ZOBRIST_SEED: u64 = 0x6e69_6d5f_6865_6170; // "nim_heap"

/// Zobrist numbers: index `heap * 64 + size`.
fn zobrist() -> &'static [u64; MAX_HEAPS * 64] {
    static Z: OnceLock<[u64; MAX_HEAPS * 64]> = OnceLock::new();
    Z.get_or_init(|| {
        let v = super::zobrist::numbers(ZOBRIST_SEED, MAX_HEAPS * 64);
        std::array::from_fn(|i| v[i])
    })
}

/// At most this many heaps, each of at most `MAX_HEAP` objects.
pub const MAX_HEAPS: usize = 8;
pub const MAX_HEAP: u8 = 63;

/// A move: heap index and how many objects to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimMove {
    pub heap: u8,
    pub take: u8,
}

#[derive(Clone, Debug)]
pub struct Nim {
    heaps: [u8; MAX_HEAPS],
    count: usize,
    misere: bool,
    /// Plies played since the given position (for the side to move).
    plies: u32,
    first_to_move: bool,
    /// Zobrist key, updated incrementally.
    hash: u64,
    zob: &'static [u64; MAX_HEAPS * 64],
}

impl Nim {
    pub fn parse_position(misere: bool, text: &str) -> Result<Self, String> {
        let t = text.trim();
        let mut heaps = [0u8; MAX_HEAPS];
        let parts: Vec<&str> = t.split(',').map(|s| s.trim()).collect();
        let t = super::shown(t);
        if t.is_empty() || parts.len() > MAX_HEAPS {
            return Err(format!(
                "Nim position `{t}` must list 1 to {MAX_HEAPS} heap sizes, comma separated, e.g. `3,4,5`"
            ));
        }
        for (i, p) in parts.iter().enumerate() {
            match super::parse_digits::<u8>(p) {
                Some(v) if v <= MAX_HEAP => heaps[i] = v,
                _ => {
                    return Err(format!(
                        "Nim position `{t}`: heap `{}` is not a whole number from 0 to {MAX_HEAP}",
                        super::shown(p)
                    ))
                }
            }
        }
        let mut g = Nim {
            heaps,
            count: parts.len(),
            misere,
            plies: 0,
            first_to_move: true,
            hash: 0,
            zob: zobrist(),
        };
        g.hash = g.key_from_scratch();
        Ok(g)
    }

    /// The Zobrist key computed from scratch (the incremental key must always equal it).
    pub fn key_from_scratch(&self) -> u64 {
        let z = zobrist();
        self.heaps()
            .iter()
            .enumerate()
            .fold(0, |k, (i, &h)| k ^ z[i * 64 + h as usize])
    }

    pub fn heaps(&self) -> &[u8] {
        &self.heaps[..self.count]
    }

    fn total(&self) -> u32 {
        self.heaps().iter().map(|&h| h as u32).sum()
    }

    fn nim_sum(&self) -> u8 {
        self.heaps().iter().fold(0, |a, &h| a ^ h)
    }
}

impl Game for Nim {
    type Move = NimMove;
    const NAME: &'static str = "nim";

    fn max_moves(&self) -> usize {
        self.count * MAX_HEAP as usize
    }
    fn move_space(&self) -> usize {
        MAX_HEAPS * MAX_HEAP as usize
    }
    #[inline]
    fn move_index(&self, m: NimMove) -> usize {
        m.heap as usize * MAX_HEAP as usize + (m.take as usize - 1)
    }

    #[inline]
    fn moves(&self, out: &mut Vec<NimMove>) {
        for (i, &h) in self.heaps().iter().enumerate() {
            for k in 1..=h {
                out.push(NimMove {
                    heap: i as u8,
                    take: k,
                });
            }
        }
    }

    #[inline]
    fn make(&mut self, m: NimMove) {
        let (i, h) = (m.heap as usize, self.heaps[m.heap as usize] as usize);
        let z = self.zob;
        self.hash ^= z[i * 64 + h] ^ z[i * 64 + h - m.take as usize];
        self.heaps[m.heap as usize] -= m.take;
        self.plies += 1;
        self.first_to_move = !self.first_to_move;
    }

    #[inline]
    fn unmake(&mut self, m: NimMove) {
        let (i, h) = (m.heap as usize, self.heaps[m.heap as usize] as usize);
        let z = self.zob;
        self.hash ^= z[i * 64 + h] ^ z[i * 64 + h + m.take as usize];
        self.heaps[m.heap as usize] += m.take;
        self.plies -= 1;
        self.first_to_move = !self.first_to_move;
    }

    #[inline]
    fn outcome(&self) -> Option<i32> {
        if self.heaps().iter().all(|&h| h == 0) {
            // The previous player took the last object.
            Some(if self.misere { 1 } else { -1 })
        } else {
            None
        }
    }

    /// No heuristic: an unfinished position evaluates to 0.
    fn evaluate(&self) -> i32 {
        0
    }

    /// Zobrist over (heap, size). Who is to move is left out on purpose: it changes neither
    /// the legal moves nor the value from the side to move (Nim is impartial).
    #[inline]
    fn key(&self) -> u64 {
        self.hash
    }

    fn side_to_move(&self) -> Side {
        if self.first_to_move {
            Side::First
        } else {
            Side::Second
        }
    }

    fn max_remaining_plies(&self) -> u32 {
        self.total()
    }

    #[inline]
    fn static_score(&self, m: NimMove) -> i32 {
        let after =
            self.nim_sum() ^ self.heaps[m.heap as usize] ^ (self.heaps[m.heap as usize] - m.take);
        (if after == 0 { 1000 } else { 0 }) + m.take as i32
    }

    fn format_move(&self, m: NimMove) -> String {
        format!("{}:{}", m.heap, m.take)
    }

    fn parse_move(&self, text: &str) -> Result<NimMove, String> {
        let bad =
            || format!("`{text}` is not a Nim move: write heap:take, e.g. `0:2` (heaps from 0)");
        let (h, k) = text.trim().split_once(':').ok_or_else(bad)?;
        let heap: u8 = super::parse_digits(h.trim()).ok_or_else(bad)?;
        let take: u8 = super::parse_digits(k.trim()).ok_or_else(bad)?;
        if heap as usize >= self.count || take == 0 || take > self.heaps[heap as usize] {
            return Err(format!(
                "Nim move `{text}` does not fit the heaps {}",
                self.format_position()
            ));
        }
        Ok(NimMove { heap, take })
    }

    fn format_position(&self) -> String {
        self.heaps()
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }
}
