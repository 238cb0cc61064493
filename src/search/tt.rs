//! The transposition table: a fixed-size array of 16-byte entries, allocated once per search
//! (so nothing is allocated per node). The table sees the key through Fibonacci hashing:
//! multiplied by 2^64/φ (odd, so a bijection), of which it keeps the top `key_bits` bits, the
//! *seen key*; the bucket is the seen key's top bits. Every key bit moves both, so a structured
//! key (Connect Four's exact column-by-column bitboard key, whose low bits see only the left
//! columns) spreads over the table and shortens to `key_bits` as Zobrist keys do: two keys are
//! one entry to the table when their products agree in the top `key_bits` bits, which for
//! random keys happens with probability 2^-key_bits. With 64 bits the seen key is a bijection
//! of the key: no false hits.
//!
//! An entry holds the whole product (of which the table compares the seen key alone: the
//! product's other bits serve only to count false hits, `tt_false_hits`, which a table of
//! `key_bits` bits could not tell), the remaining depth the entry was searched to, the score,
//! its bound (exact, lower, upper), the best move (the game's `move_index`) and the search's
//! age.
//!
//! Replacement schemes:
//! - `always`: one slot per key; a store always replaces it.
//! - `depth`: one slot per key; a store replaces it unless the slot holds another key searched
//!   deeper (ties go to the new entry).
//! - `two-tier`: two slots per key: a depth-preferred slot and an always-replace slot. A store
//!   goes to the depth-preferred slot when it is empty, holds the same key or is no deeper than
//!   the new entry; otherwise to the always-replace slot.
//! - `bucket`: four slots per key. A store reuses the slot holding the same key, else an empty
//!   slot, else replaces the shallowest entry from an earlier search (all earlier searches count
//!   alike: the age only tells the current search from the others), else the shallowest.
//!
//! Distance-carrying win/loss scores (`Game::win_threshold`) are stored relative to the node
//! and restored relative to the root on probe (`score_to_tt`, `score_from_tt`).

use std::fmt;

use super::Counters;

/// Bytes of one entry.
pub const ENTRY_BYTES: u64 = std::mem::size_of::<Entry>() as u64;

/// The move index that means "no move".
pub const NO_MOVE: u32 = u32::MAX;
const NO_MOVE16: u16 = u16::MAX;

/// The deepest remaining depth an entry records (one byte). The experiment refuses a run with a
/// table that searches deeper: an entry cut to this depth would never count as deep enough for
/// the nodes above it.
pub const MAX_DEPTH: u32 = u8::MAX as u32;

/// Default size: 2^16 entries (1 MiB).
pub const DEFAULT_ENTRIES: u64 = 1 << 16;

/// How a store chooses the slot it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Replacement {
    Always,
    Depth,
    TwoTier,
    Bucket,
}

impl Replacement {
    pub const NAMES: [&'static str; 4] = ["always", "depth", "two-tier", "bucket"];
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "always" => Some(Self::Always),
            "depth" => Some(Self::Depth),
            "two-tier" => Some(Self::TwoTier),
            "bucket" => Some(Self::Bucket),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// Slots one key may occupy (the bucket size).
    pub fn slots(self) -> u64 {
        match self {
            Self::Always | Self::Depth => 1,
            Self::TwoTier => 2,
            Self::Bucket => 4,
        }
    }
}

/// How the search classifies the score it stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bounds {
    /// Upper bound if the score is at most the node's original alpha, lower bound if it reaches
    /// beta, exact otherwise.
    Correct,
    /// Every score stored as exact: the textbook mistake, kept as an ablation.
    NaiveExact,
}

impl Bounds {
    pub const NAMES: [&'static str; 2] = ["correct", "naive-exact"];
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "correct" => Some(Self::Correct),
            "naive-exact" => Some(Self::NaiveExact),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The table's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TtSpec {
    /// Number of entries: a power of two, at least `replacement.slots()`.
    pub entries: u64,
    pub replacement: Replacement,
    /// Key bits kept, 8..=64: the table sees (compares, and indexes by) the top `key_bits`
    /// bits of the key's Fibonacci product (see the module doc).
    pub key_bits: u32,
    pub bounds: Bounds,
}

impl TtSpec {
    pub fn new(entries: u64) -> Self {
        TtSpec {
            entries,
            replacement: Replacement::Depth,
            key_bits: 64,
            bounds: Bounds::Correct,
        }
    }
    /// Bytes the table allocates.
    pub fn bytes(&self) -> u64 {
        self.entries.saturating_mul(ENTRY_BYTES)
    }
    /// log2 of the number of entries.
    pub fn log2_entries(&self) -> u32 {
        self.entries.trailing_zeros()
    }
}

impl fmt::Display for TtSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "2^{}/{}/k{}/{}",
            self.log2_entries(),
            self.replacement.name(),
            self.key_bits,
            self.bounds.name()
        )
    }
}

/// The kind of score an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

impl Bound {
    /// The bound a search's `value` is against the window (`alpha`, `beta`): upper if it is at
    /// most `alpha`, lower if it reaches `beta`, exact otherwise.
    #[inline(always)]
    pub fn from_window(value: i32, alpha: i32, beta: i32) -> Bound {
        if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// One slot. `meta` holds the bound in its low 2 bits (0: empty slot) and the age above them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The key's whole Fibonacci product (`Table::hashed`); the table reads only its top
    /// `key_bits` bits, the seen key.
    key: u64,
    score: i32,
    mv: u16,
    depth: u8,
    meta: u8,
}

impl Entry {
    #[inline(always)]
    fn occupied(&self) -> bool {
        self.meta & 3 != 0
    }
    #[inline(always)]
    pub fn bound(&self) -> Bound {
        match self.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
    #[inline(always)]
    fn age(&self) -> u8 {
        self.meta >> 2
    }
    /// The remaining depth the entry was searched to (at most `MAX_DEPTH`; the experiment
    /// refuses deeper runs with a table).
    #[inline(always)]
    pub fn depth(&self) -> u32 {
        self.depth as u32
    }
    /// The stored score (relative to the node; see `score_from_tt`).
    #[inline(always)]
    pub fn score(&self) -> i32 {
        self.score
    }
    /// The best move's index, or `NO_MOVE`.
    #[inline(always)]
    pub fn best_move(&self) -> u32 {
        if self.mv == NO_MOVE16 {
            NO_MOVE
        } else {
            self.mv as u32
        }
    }
}

/// A fixed-size transposition table.
pub struct Table {
    slots: Vec<Entry>,
    /// The mask that rounds a slot down to the first slot of its bucket
    /// (`!(slots per bucket - 1)`).
    align: usize,
    /// Keeps the top `key_bits` bits of the Fibonacci product.
    key_mask: u64,
    /// Slots per bucket (1, 2 or 4).
    per: usize,
    replacement: Replacement,
    age: u8,
    naive_exact: bool,
}

impl Table {
    /// Allocates the table (`spec` must have been validated: a power of two, big enough for a
    /// bucket) and writes every entry once. A zeroed allocation would come back as untouched
    /// pages, and the search would pay a page fault at the first store into each 4 KiB: its
    /// time would then measure the operating system's paging, growing with the table's size,
    /// rather than the search. Written here, that cost is setup, outside `time_ns`. An
    /// allocation that fails is an error, not an abort of the process.
    pub fn try_new(spec: &TtSpec) -> Result<Table, String> {
        let n = spec.entries.max(spec.replacement.slots());
        let mut slots = Vec::new();
        slots.try_reserve_exact(n as usize).map_err(|_| {
            format!(
                "cannot allocate the table: {n} entries ({}) are more than the memory this process can get; allowed: a smaller table",
                size_text(n.saturating_mul(ENTRY_BYTES))
            )
        })?;
        slots.resize(n as usize, Entry::default());
        Ok(Table {
            slots,
            align: !(spec.replacement.slots() as usize - 1),
            key_mask: u64::MAX << (64 - spec.key_bits.clamp(1, 64)),
            per: spec.replacement.slots() as usize,
            replacement: spec.replacement,
            age: 0,
            naive_exact: spec.bounds == Bounds::NaiveExact,
        })
    }

    /// Whether every score is to be stored as exact (the `naive-exact` ablation).
    #[inline(always)]
    pub fn naive_exact(&self) -> bool {
        self.naive_exact
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Bytes allocated for the entries.
    pub fn bytes(&self) -> u64 {
        (self.slots.capacity() * std::mem::size_of::<Entry>()) as u64
    }

    /// Starts a new search (an iteration of iterative deepening): entries stored from now on
    /// are younger than those already there. The age has 6 bits and runs 1, 2, ..., 63, 1,
    /// ... (0 only in the first search): when it would come round again, every entry is
    /// first marked as of age 0, which the current search never has, so no entry of an
    /// earlier search ever counts as the current one's. That pass over the table comes once
    /// every 63 searches.
    pub fn new_search(&mut self) {
        if self.age == 63 {
            for e in &mut self.slots {
                e.meta &= 3;
            }
            self.age = 1;
        } else {
            self.age += 1;
        }
    }

    /// The current search's age (0..=63, advanced by `new_search`).
    #[cfg(test)]
    pub(crate) fn age(&self) -> u8 {
        self.age
    }

    /// Empties every slot and resets the age: O(entries). Also writes every page of the
    /// table once, so a caller that reuses the table pays the first-touch cost up front.
    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
        self.age = 0;
    }

    /// Empties the slot holding `key`, if any: O(bucket). A caller that records the keys it
    /// stored can empty the table in time proportional to its stores.
    pub fn forget(&mut self, key: u64) {
        let k = self.seen(key);
        let (base, n) = self.bucket(k);
        for i in base..base + n {
            if self.slots[i].occupied() && self.sees(&self.slots[i], k) {
                self.slots[i] = Entry::default();
            }
        }
    }

    /// Occupied entries in the buckets of `keys`, each bucket counted once: the occupancy of a
    /// table that was empty before `keys` were stored, in time proportional to them.
    pub fn occupancy_of(&self, keys: &[u64]) -> u64 {
        let mut bases: Vec<usize> = keys.iter().map(|&k| self.bucket(self.seen(k)).0).collect();
        bases.sort_unstable();
        bases.dedup();
        bases
            .iter()
            .map(|&b| {
                self.slots[b..b + self.per]
                    .iter()
                    .filter(|e| e.occupied())
                    .count() as u64
            })
            .sum()
    }

    /// Occupied entries.
    pub fn occupancy(&self) -> u64 {
        self.slots.iter().filter(|e| e.occupied()).count() as u64
    }

    /// The seen key: the top `key_bits` bits of the key's Fibonacci product (the low bits
    /// zeroed). Multiplying carries every key bit into the top bits, which the low bits of a
    /// structured key would not do.
    #[inline(always)]
    fn seen(&self, key: u64) -> u64 {
        Self::hashed(key) & self.key_mask
    }

    /// The key's Fibonacci product, all 64 bits: what an entry holds.
    #[inline(always)]
    fn hashed(key: u64) -> u64 {
        /// 2^64 / φ, odd: multiplying by it is a bijection whose top bits mix every key bit.
        const FIBONACCI: u64 = 0x9e37_79b9_7f4a_7c15;
        key.wrapping_mul(FIBONACCI)
    }

    /// Whether the entry `e` holds the seen key `k`: its product's top `key_bits` bits are
    /// `k`. (Whether the slot is occupied is asked apart.)
    #[inline(always)]
    fn sees(&self, e: &Entry, k: u64) -> bool {
        e.key & self.key_mask == k
    }

    /// The first slot of the bucket of the seen key `k`, and the bucket's size. The slot is
    /// the top log2(entries) bits of `k`, taken as the high word of `k * entries` (one
    /// multiply, and right for a one-entry table, where a shift by 64 would not be), rounded
    /// down to the bucket's first slot: the same as the bucket index `k >> (64 -
    /// log2(buckets))` times the bucket size. A seen key of fewer bits than the table's index
    /// reaches only 2^key_bits buckets: the table can tell no more keys apart.
    #[inline(always)]
    fn bucket(&self, k: u64) -> (usize, usize) {
        let slot = ((k as u128 * self.slots.len() as u128) >> 64) as usize;
        (slot & self.align, self.per)
    }

    /// Looks `key` up. Counts a collision when it misses although a slot of its bucket holds
    /// another seen key, and a false hit when it finds the seen key in an entry stored for
    /// another key (whose whole product differs from the probe's). (Probes and hits are
    /// counted by the caller.)
    ///
    /// A slot's key is compared before its occupancy, and the collision is counted without a
    /// branch: while a search fills its table, whether the slot is empty is a coin toss to the
    /// branch predictor, but a matching key stays rare. Testing the occupancy first cost
    /// uniform trees with a table (which never hits them, filled from empty) 13% of their
    /// search time at b = 2 and 7% at b = 3 (README, "Transposition table").
    #[inline(always)]
    pub fn probe(&self, key: u64, c: &mut Counters) -> Option<Entry> {
        let h = Self::hashed(key);
        let k = h & self.key_mask;
        let (base, n) = self.bucket(k);
        if n == 1 {
            let e = self.slots[base];
            if self.sees(&e, k) && e.occupied() {
                c.tt_false_hits += (e.key != h) as u64;
                return Some(e);
            }
            c.tt_collisions += e.occupied() as u64;
            return None;
        }
        let mut other = false;
        for &e in &self.slots[base..base + n] {
            if self.sees(&e, k) && e.occupied() {
                c.tt_false_hits += (e.key != h) as u64;
                return Some(e);
            }
            other |= e.occupied();
        }
        c.tt_collisions += other as u64;
        None
    }

    /// Stores an entry as the replacement scheme decides (the `depth` scheme may keep the deeper
    /// entry and store nothing). Counts stores and overwrites (a live entry of another seen key
    /// replaced).
    #[inline(always)]
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        score: i32,
        bound: Bound,
        mv: u32,
        c: &mut Counters,
    ) {
        let h = Self::hashed(key);
        let k = h & self.key_mask;
        let d = depth.min(MAX_DEPTH) as u8;
        let (base, n) = self.bucket(k);
        let slot = match self.replacement {
            Replacement::Always => base,
            Replacement::Depth => {
                let e = &self.slots[base];
                if e.occupied() && !self.sees(e, k) && e.depth > d {
                    return;
                }
                base
            }
            Replacement::TwoTier => {
                let (e0, e1) = (self.slots[base], self.slots[base + 1]);
                let deep_slot_ok = !e0.occupied() || self.sees(&e0, k) || e0.depth <= d;
                if deep_slot_ok {
                    if e1.occupied() && self.sees(&e1, k) && !(e0.occupied() && self.sees(&e0, k)) {
                        // The key moves up to the depth-preferred slot: no duplicate left
                        // (an empty slot's key reads 0, which is also a seen key).
                        self.slots[base + 1] = Entry::default();
                    }
                    base
                } else {
                    base + 1
                }
            }
            Replacement::Bucket => {
                let mut pick = None;
                for i in base..base + n {
                    if self.slots[i].occupied() && self.sees(&self.slots[i], k) {
                        pick = Some(i);
                        break;
                    }
                }
                if pick.is_none() {
                    pick = (base..base + n).find(|&i| !self.slots[i].occupied());
                }
                pick.unwrap_or_else(|| {
                    // Entries of earlier searches first (the current age last), then shallowest.
                    let age = self.age;
                    (base..base + n)
                        .min_by_key(|&i| {
                            let e = &self.slots[i];
                            ((e.age() == age) as u8, e.depth)
                        })
                        .unwrap_or(base)
                })
            }
        };
        let other = !self.sees(&self.slots[slot], k);
        let old = &mut self.slots[slot];
        // Counted without a branch: whether the slot held another key is a coin toss.
        c.tt_overwrites += (old.occupied() & other) as u64;
        c.tt_stores += 1;
        *old = Entry {
            key: h,
            score,
            // NO_MOVE and indexes past 16 bits (none of the games has that many) both become
            // NO_MOVE16.
            mv: mv.min(NO_MOVE16 as u32) as u16,
            depth: d,
            meta: bound as u8 | self.age << 2,
        };
    }
}

/// A score as stored: distance-carrying wins and losses (|score| >= threshold) made relative to
/// the node at `ply` (the distance from the root to the node is removed).
#[inline(always)]
pub fn score_to_tt(score: i32, ply: usize, threshold: Option<i32>) -> i32 {
    match threshold {
        Some(t) if score >= t => score + ply as i32,
        Some(t) if score <= -t => score - ply as i32,
        _ => score,
    }
}

/// A stored score made relative to the root again, at a node at `ply`.
#[inline(always)]
pub fn score_from_tt(score: i32, ply: usize, threshold: Option<i32>) -> i32 {
    match threshold {
        Some(t) if score >= t => score - ply as i32,
        Some(t) if score <= -t => score + ply as i32,
        _ => score,
    }
}

/// A size in bytes as a message shows it: whole MiB from 1 MiB up, bytes below.
fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The machine's memory in bytes (`MemTotal` in /proc/meminfo), if it can be read.
pub fn machine_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// Checks a table size in entries: at least 1, a power of two, at least one bucket, and no
/// larger than the machine's memory. The message says what is allowed.
pub fn check_entries(entries: u64, replacement: Replacement) -> Result<(), String> {
    if entries == 0 {
        return Err("a table of 0 entries holds nothing; allowed: a power of two >= 1".into());
    }
    if !entries.is_power_of_two() {
        // The powers of two on either side, those that fit the machine.
        let below = 1u64 << (63 - entries.leading_zeros());
        let largest = largest_entries();
        if below > largest {
            return Err(format!(
                "{entries} entries is not a power of two, and larger than this machine's memory holds; {}",
                allowed_entries()
            ));
        }
        let around = match below.checked_mul(2) {
            Some(above) if above <= largest => format!("{below} or {above}"),
            _ => below.to_string(),
        };
        return Err(format!(
            "{entries} entries is not a power of two; allowed: 1, 2, 4, ... up to {largest} (this machine's memory), e.g. {around}"
        ));
    }
    if entries < replacement.slots() {
        return Err(format!(
            "the `{}` scheme needs at least {} entries (one bucket); {entries} given",
            replacement.name(),
            replacement.slots()
        ));
    }
    check_bytes(entries.checked_mul(ENTRY_BYTES))
}

/// The largest power-of-two table, in entries, that fits the machine's memory (or the address
/// space, when the memory cannot be read).
fn largest_entries() -> u64 {
    let limit = machine_memory().unwrap_or(isize::MAX as u64) / ENTRY_BYTES;
    1u64 << (63 - limit.max(1).leading_zeros())
}

/// What is allowed, for a table too large: up to `largest_entries`.
fn allowed_entries() -> String {
    let entries = largest_entries();
    format!(
        "allowed: a power of two up to {entries} entries ({})",
        size_text(entries * ENTRY_BYTES)
    )
}

/// Checks that `bytes` (None: overflowed) fits in the machine's memory.
pub fn check_bytes(bytes: Option<u64>) -> Result<(), String> {
    let mem = machine_memory();
    match (bytes, mem) {
        (None, _) => Err(format!(
            "the table would need 2^64 bytes or more, more than this machine's memory; {}",
            allowed_entries()
        )),
        (Some(b), Some(m)) if b > m => Err(format!(
            "the table would need {b} bytes ({:.1} GiB), more than this machine's memory ({m} bytes, {:.1} GiB); {}",
            b as f64 / (1u64 << 30) as f64,
            m as f64 / (1u64 << 30) as f64,
            allowed_entries()
        )),
        (Some(b), _) if b > isize::MAX as u64 => Err(format!(
            "the table would need {b} bytes, more than can be allocated; {}",
            allowed_entries()
        )),
        _ => Ok(()),
    }
}

/// Entries in a table of `mib` MiB (a power of two), checked like `check_entries`.
pub fn entries_from_mib(mib: u64, replacement: Replacement) -> Result<u64, String> {
    if mib == 0 {
        return Err("a table of 0 MiB holds nothing; allowed: a power of two >= 1".into());
    }
    if !mib.is_power_of_two() {
        return Err(format!(
            "{mib} MiB is not a power of two, so no table of whole entries has exactly that size; allowed: 1, 2, 4, ..."
        ));
    }
    let bytes = mib.checked_mul(1 << 20);
    check_bytes(bytes)?;
    let entries = bytes.unwrap_or(0) / ENTRY_BYTES;
    check_entries(entries, replacement)?;
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;
    use crate::games::Game;

    impl Table {
        /// `try_new` for a test's small table.
        fn new(spec: &TtSpec) -> Table {
            Table::try_new(spec).expect("memory for the table")
        }
    }

    fn spec(entries: u64, replacement: Replacement, key_bits: u32) -> TtSpec {
        TtSpec {
            entries,
            replacement,
            key_bits,
            bounds: Bounds::Correct,
        }
    }

    #[test]
    fn entry_is_sixteen_bytes_and_allocation_is_exact() {
        assert_eq!(ENTRY_BYTES, 16);
        for log in [0u32, 4, 10, 16] {
            for r in [
                Replacement::Always,
                Replacement::Depth,
                Replacement::TwoTier,
                Replacement::Bucket,
            ] {
                let s = spec(1 << log, r, 64);
                if check_entries(s.entries, r).is_err() {
                    continue;
                }
                let t = Table::new(&s);
                assert_eq!(t.len() as u64, s.entries);
                assert_eq!(t.bytes(), s.bytes());
                assert_eq!(t.bytes(), 16 << log);
            }
        }
        assert_eq!(
            entries_from_mib(4, Replacement::Bucket).unwrap() * ENTRY_BYTES,
            4 << 20
        );
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(check_entries(0, Replacement::Always).is_err());
        assert!(check_entries(3, Replacement::Always).is_err());
        assert!(check_entries(2, Replacement::Bucket).is_err());
        assert!(check_entries(1 << 62, Replacement::Always).is_err());
        assert!(entries_from_mib(0, Replacement::Always).is_err());
        assert!(entries_from_mib(3, Replacement::Always).is_err());
        assert!(entries_from_mib(1 << 40, Replacement::Always).is_err());
        assert!(check_entries(1, Replacement::Always).is_ok());
    }

    #[test]
    fn store_probe_and_schemes() {
        let mut c = Counters::default();
        // Depth-preferred: a shallower entry of another key does not replace a deeper one.
        let mut t = Table::new(&spec(4, Replacement::Depth, 64));
        let k5 = same_bucket(&t, 1);
        t.store(1, 5, 10, Bound::Exact, 3, &mut c);
        t.store(k5, 2, 20, Bound::Lower, 1, &mut c); // same slot
        assert_eq!(t.probe(1, &mut c).map(|e| e.score()), Some(10));
        assert!(t.probe(k5, &mut c).is_none());
        assert_eq!(c.tt_collisions, 1);
        assert_eq!((c.tt_stores, c.tt_overwrites), (1, 0));
        // Always: the newer entry replaces it.
        let mut t = Table::new(&spec(4, Replacement::Always, 64));
        t.store(1, 5, 10, Bound::Exact, 3, &mut c);
        t.store(k5, 2, 20, Bound::Lower, 1, &mut c);
        let e = t.probe(k5, &mut c).unwrap();
        assert_eq!(
            (e.score(), e.depth(), e.bound(), e.best_move()),
            (20, 2, Bound::Lower, 1)
        );
        assert_eq!(c.tt_overwrites, 1);
        // Two-tier keeps both.
        let mut t = Table::new(&spec(4, Replacement::TwoTier, 64));
        let k3 = same_bucket(&t, 1);
        t.store(1, 5, 10, Bound::Exact, 3, &mut c);
        t.store(k3, 2, 20, Bound::Upper, NO_MOVE, &mut c);
        assert_eq!(t.probe(1, &mut c).unwrap().score(), 10);
        assert_eq!(t.probe(k3, &mut c).unwrap().best_move(), NO_MOVE);
        assert_eq!(t.occupancy(), 2);
        // Two-tier, seen key 0 (an empty slot's key too): kept in the always slot while the
        // deep slot holds a deeper entry, then moved up without a duplicate once it is empty.
        let mut t = Table::new(&spec(2, Replacement::TwoTier, 64));
        let other = same_bucket(&t, 0);
        t.store(other, 9, 1, Bound::Exact, 0, &mut c);
        t.store(0, 1, 2, Bound::Exact, 0, &mut c);
        assert_eq!(t.occupancy(), 2);
        t.forget(other);
        t.store(0, 2, 3, Bound::Exact, 0, &mut c);
        assert_eq!(t.occupancy(), 1);
        assert_eq!(t.probe(0, &mut c).unwrap().score(), 3);
        // Bucket: four keys of one bucket all fit; a fifth replaces the shallowest.
        let mut t = Table::new(&spec(4, Replacement::Bucket, 64));
        for (i, k) in [10u64, 20, 30, 40].iter().enumerate() {
            t.store(*k, 3 + i as u32, 0, Bound::Exact, 0, &mut c);
        }
        assert_eq!(t.occupancy(), 4);
        t.store(50, 9, 0, Bound::Exact, 0, &mut c);
        assert!(t.probe(10, &mut c).is_none());
        assert!(t.probe(50, &mut c).is_some() && t.probe(20, &mut c).is_some());
        // ... but an entry of an older search goes first.
        t.new_search();
        t.store(60, 1, 0, Bound::Exact, 0, &mut c);
        t.store(70, 1, 0, Bound::Exact, 0, &mut c);
        assert!(t.probe(60, &mut c).is_some() && t.probe(70, &mut c).is_some());
    }

    /// The 6-bit age comes round after 63 searches, and an entry of an earlier search still
    /// goes before the current one's (it once counted as current again 64 searches later).
    #[test]
    fn an_old_entry_stays_old_when_the_age_comes_round() {
        let mut c = Counters::default();
        for searches in [1, 62, 63, 64, 65, 126, 127, 128, 200] {
            // The deep entry 10 of the first search, then three entries of the current one.
            let mut t = Table::new(&spec(4, Replacement::Bucket, 64));
            t.store(10, 9, 0, Bound::Exact, 0, &mut c);
            for _ in 0..searches {
                t.new_search();
                assert_ne!(t.age(), 0);
            }
            for k in [20u64, 30, 40] {
                t.store(k, 1, 0, Bound::Exact, 0, &mut c);
            }
            // A fifth key replaces the only entry of an earlier search.
            t.store(50, 1, 0, Bound::Exact, 0, &mut c);
            assert!(t.probe(10, &mut c).is_none(), "after {searches} searches");
            for k in [20u64, 30, 40, 50] {
                assert!(t.probe(k, &mut c).is_some(), "after {searches} searches");
            }
        }
    }

    #[test]
    fn key_bits_keep_the_top_bits_of_the_product() {
        let mut c = Counters::default();
        let mut t = Table::new(&spec(16, Replacement::Always, 8));
        let a = 0x1234_5678_9aab;
        assert_eq!(
            t.seen(a),
            a.wrapping_mul(0x9e37_79b9_7f4a_7c15) & 0xff << 56
        );
        t.store(a, 1, 7, Bound::Exact, 0, &mut c);
        // Another key with the same top 8 bits of the product: a hit, counted as false (the
        // entry's whole product is a's); a's own probe is a true hit.
        let twin = (a + 1..).find(|&x| t.seen(x) == t.seen(a)).unwrap();
        assert_eq!(t.probe(twin, &mut c).unwrap().score(), 7);
        assert_eq!(c.tt_false_hits, 1);
        assert_eq!(t.probe(a, &mut c).unwrap().score(), 7);
        assert_eq!(c.tt_false_hits, 1);
        // Same slot, another seen key: a counted collision, no false hit.
        let other = same_bucket(&t, a);
        assert!(t.probe(other, &mut c).is_none());
        assert_eq!((c.tt_collisions, c.tt_false_hits), (1, 1));
        // To the table the twin is a's key: its store is no overwrite, and a's probe then
        // finds the twin's entry (a false hit).
        t.store(twin, 2, 8, Bound::Exact, 0, &mut c);
        assert_eq!((c.tt_stores, c.tt_overwrites), (2, 0));
        assert_eq!(t.probe(a, &mut c).unwrap().score(), 8);
        assert_eq!(c.tt_false_hits, 2);
        // Every scheme takes the twin for a's key: it replaces a's entry, the shallower one
        // too, and no second slot is taken.
        for scheme in [
            Replacement::Depth,
            Replacement::TwoTier,
            Replacement::Bucket,
        ] {
            let mut c = Counters::default();
            let mut t = Table::new(&spec(16, scheme, 8));
            t.store(a, 5, 7, Bound::Exact, 0, &mut c);
            t.store(twin, 1, 8, Bound::Lower, 0, &mut c);
            assert_eq!(t.occupancy(), 1, "{scheme:?}");
            assert_eq!(t.probe(twin, &mut c).unwrap().score(), 8, "{scheme:?}");
            assert_eq!(t.probe(a, &mut c).unwrap().score(), 8, "{scheme:?}");
            assert_eq!((c.tt_overwrites, c.tt_false_hits), (0, 1), "{scheme:?}");
            t.forget(a);
            assert_eq!(t.occupancy(), 0, "{scheme:?}");
        }
        // Two-tier, the twin in the always-replace slot under a deeper entry of another key:
        // a's store, too shallow for the depth-preferred slot, replaces the twin there (one
        // seen key, one slot), and the twin's probe then finds a's entry (a false hit).
        let mut c = Counters::default();
        let mut t = Table::new(&spec(2, Replacement::TwoTier, 8));
        let (a, twin) = (a, (a + 1..).find(|&x| t.seen(x) == t.seen(a)).unwrap());
        let deep = same_bucket(&t, a);
        t.store(deep, 9, 1, Bound::Exact, 0, &mut c);
        t.store(twin, 1, 2, Bound::Exact, 0, &mut c);
        t.store(a, 5, 3, Bound::Exact, 0, &mut c);
        assert_eq!(t.occupancy(), 2);
        assert_eq!(c.tt_overwrites, 0);
        assert_eq!(t.probe(twin, &mut c).unwrap().score(), 3);
        assert_eq!(t.probe(deep, &mut c).unwrap().score(), 1);
        assert_eq!(c.tt_false_hits, 1);
        // As deep as the entry in the depth-preferred slot, the twin's store moves the seen key
        // up there, replacing the other key's entry (an overwrite), and leaves no copy in the
        // always-replace slot.
        t.store(twin, 9, 4, Bound::Exact, 0, &mut c);
        assert_eq!(t.occupancy(), 1);
        assert_eq!(c.tt_overwrites, 1);
        assert_eq!(t.probe(a, &mut c).unwrap().score(), 4);
        assert!(t.probe(deep, &mut c).is_none());
        // With 64 bits every key is its own entry.
        let t = Table::new(&spec(16, Replacement::Always, 64));
        assert_ne!(t.seen(a), t.seen(twin));
    }

    /// The smallest key above `k` whose bucket is `k`'s, under another seen key.
    fn same_bucket(t: &Table, k: u64) -> u64 {
        let home = t.bucket(t.seen(k)).0;
        (k + 1..)
            .find(|&x| t.seen(x) != t.seen(k) && t.bucket(t.seen(x)).0 == home)
            .unwrap()
    }

    #[test]
    fn key_bits_shorten_structured_keys_as_random_ones() {
        // Keys that differ only above bit 40 (as Connect Four's keys differ only in the right
        // columns) are 4,096 seen keys at 32 bits, not one: the product carries the high bits
        // down. (Kept as the low 32 bits, they would all be 0.)
        let t = Table::new(&spec(4096, Replacement::Always, 32));
        let mut seen: Vec<u64> = (0..4096u64).map(|i| t.seen(i << 40)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 4096);
        // Every Connect Four position of at most 7 plies (76,959 exact keys) shortened to 24
        // bits: about as many pairs share a seen key as random keys would give, n (n - 1) / 2 /
        // 2^24 = 177 (130). Kept as the low 24 bits, which see only the left columns, 7,241,650
        // pairs would.
        fn walk(g: &mut Connect4, plies: u32, keys: &mut Vec<u64>) {
            keys.push(g.key());
            if plies == 7 || g.outcome().is_some() {
                return;
            }
            let mut moves = Vec::new();
            g.moves(&mut moves);
            for m in moves {
                g.make(m);
                walk(g, plies + 1, keys);
                g.unmake(m);
            }
        }
        let mut keys = Vec::new();
        walk(&mut Connect4::new(7, 6), 0, &mut keys);
        keys.sort_unstable();
        keys.dedup();
        let pairs = |seen: &mut Vec<u64>| {
            seen.sort_unstable();
            let mut p = 0u64;
            let mut run = 1u64;
            for w in seen.windows(2) {
                if w[0] == w[1] {
                    run += 1;
                } else {
                    p += run * (run - 1) / 2;
                    run = 1;
                }
            }
            p + run * (run - 1) / 2
        };
        let t = Table::new(&spec(4096, Replacement::Always, 24));
        let n = keys.len() as f64;
        let expected = n * (n - 1.0) / 2.0 / (1u64 << 24) as f64;
        let got = pairs(&mut keys.iter().map(|&k| t.seen(k)).collect()) as f64;
        assert!(
            (expected * 0.5..expected * 1.5).contains(&got),
            "{} positions: {got} pairs, {expected:.0} expected",
            keys.len()
        );
        let low = pairs(&mut keys.iter().map(|&k| k & 0xff_ffff).collect()) as f64;
        assert!(low > 10.0 * expected, "{low}");
    }

    #[test]
    fn fibonacci_indexing_spreads_structured_keys() {
        // Keys that differ only above bit 40 (as Connect Four's keys differ only in the columns
        // their low bits do not see) still fill most of a 4,096-slot table.
        let t = Table::new(&spec(4096, Replacement::Always, 64));
        let mut slots: Vec<usize> = (0..4096u64).map(|i| t.bucket(t.seen(i << 40)).0).collect();
        slots.sort_unstable();
        slots.dedup();
        assert!(slots.len() > 2_500, "{}", slots.len());
        // Indexes stay inside the table for every size, one bucket included.
        for log in 0..12 {
            for scheme in [Replacement::Always, Replacement::Bucket] {
                let entries = (1u64 << log).max(scheme.slots());
                let t = Table::new(&spec(entries, scheme, 64));
                for k in [0, 1, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
                    let (base, n) = t.bucket(t.seen(k));
                    assert!(base + n <= t.len());
                }
            }
        }
    }

    #[test]
    fn bucket_is_the_top_bits_of_the_fibonacci_product() {
        // The slot is the bucket index (the product's top log2(buckets) bits) times the bucket
        // size, for every size and scheme; a one-bucket table has slot 0 only.
        let mut x = 0x1234_5678_9abc_def0u64;
        for log in 0..20u32 {
            for scheme in [
                Replacement::Always,
                Replacement::TwoTier,
                Replacement::Bucket,
            ] {
                let entries = (1u64 << log).max(scheme.slots());
                let t = Table::new(&spec(entries, scheme, 64));
                let buckets = entries / scheme.slots();
                for _ in 0..200 {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let h = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    let index = if buckets == 1 {
                        0
                    } else {
                        h >> (64 - buckets.trailing_zeros())
                    };
                    assert_eq!(t.bucket(t.seen(x)).0 as u64, index * scheme.slots());
                }
            }
        }
    }

    #[test]
    fn win_scores_are_node_relative() {
        let thr = Some(1);
        // A win found 3 plies below a node at ply 4 (score 10 - 7 from the root)...
        let stored = score_to_tt(3, 4, thr);
        assert_eq!(score_from_tt(stored, 4, thr), 3);
        assert_eq!(score_from_tt(stored, 2, thr), 5);
        assert_eq!(score_from_tt(score_to_tt(-3, 4, thr), 2, thr), -5);
        assert_eq!(score_to_tt(0, 4, thr), 0);
        assert_eq!(score_to_tt(1, 4, None), 1);
    }

    #[test]
    fn ordering_terms_put_the_table_move_killers_history_and_previous_pv_first() {
        use crate::games::tictactoe::{Scale, TicTacToe};
        use crate::search::{Algorithm, Ordering, SearchSpec, Searcher};
        let mut g = TicTacToe::new(Scale::WinLoss);
        let root = g.clone();
        let searcher = |ordering: &str, table: bool| {
            let mut spec = SearchSpec::new(Algorithm::AlphaBeta, 3);
            spec.ordering = Ordering::parse(ordering).unwrap();
            spec.tt = table.then(|| TtSpec::new(64));
            Searcher::new(&root, &spec, 1).unwrap()
        };
        // Static order: centre, corners, edges.
        let mut s = searcher("static", true);
        assert_eq!(s.ordered_moves(&mut g, 0), vec![4, 0, 2, 6, 8, 1, 3, 5, 7]);
        // With the table on, its move goes first although the ordering does not name `tt`...
        s.node_tt_move = 7;
        assert_eq!(s.ordered_moves(&mut g, 0), vec![7, 4, 0, 2, 6, 8, 1, 3, 5]);
        // ... and the previous iteration's line before it. (The table's move is the node's:
        // ordering consumes it.)
        assert_eq!(s.node_tt_move, NO_MOVE);
        s.node_tt_move = 7;
        s.prev_pv = vec![8];
        s.follow_pv = true;
        assert_eq!(s.ordered_moves(&mut g, 0), vec![8, 7, 4, 0, 2, 6, 1, 3, 5]);
        // Named, `tt` takes its place in the lexicographic order: here it only breaks the ties
        // of static's classes, putting 7 first among the edges.
        let mut s = searcher("static+tt", true);
        s.node_tt_move = 7;
        assert_eq!(s.ordered_moves(&mut g, 0), vec![4, 0, 2, 6, 8, 7, 1, 3, 5]);
        // Killers (most recent first), then the rest in static order.
        let mut s = searcher("killer+static", false);
        s.killers[0] = [5, 3];
        assert_eq!(s.ordered_moves(&mut g, 0), vec![5, 3, 4, 0, 2, 6, 8, 1, 7]);
        // History scores, highest first.
        let mut s = searcher("history+static", false);
        s.history[1] = 10;
        s.history[2] = 3;
        assert_eq!(s.ordered_moves(&mut g, 0), vec![1, 2, 4, 0, 6, 8, 3, 5, 7]);
    }
}
