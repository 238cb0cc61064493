//! Run keys and seeds: a run's parameters as canonical text (zero-padded, so that text order
//! is numeric order), hashed with FNV-1a and mixed with the experiment seed.

use super::Run;
use crate::experiment::config::Depth;

/// FNV-1a, 64 bits: a stable hash of the run key (std's hashers are not stable across
/// versions, so they must not decide seeds).
pub fn fnv1a(text: &str) -> u64 {
    let mut h = Fnv::default();
    h.bytes(text.as_bytes());
    h.0
}

/// FNV-1a 64 as a running hash: fed bytes, or text as it is written to it (`write!`).
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl std::fmt::Write for Fnv {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.bytes(s.as_bytes());
        Ok(())
    }
}

/// FNV-1a 64, as 16 hex digits, of what an experiment file asks to search: every key but
/// `description` and `[report]`, as parsed (comments, spacing, key order and the spelling of
/// a value aside: `1_000` is `1000`), so that a results folder's experiment.toml can be told
/// from one whose search settings were edited after its runs were searched. `None` for text
/// that does not parse as TOML.
pub fn search_hash(src: &str) -> Option<String> {
    let mut table: toml::Table = toml::from_str(src).ok()?;
    table.remove("description");
    table.remove("report");
    let mut h = Fnv::default();
    canonical(&mut h, &toml::Value::Table(table));
    Some(format!("{:016x}", h.0))
}

/// Feeds `v` to `h` in one form per value: typed, lengths before contents, a table's keys in
/// sorted order (toml's own text form is not promised to stay the same across versions).
fn canonical(h: &mut Fnv, v: &toml::Value) {
    use std::fmt::Write;
    let _ = match v {
        toml::Value::String(s) => write!(h, "s{}:{s}", s.len()),
        toml::Value::Integer(i) => write!(h, "i{i};"),
        toml::Value::Float(f) => write!(h, "f{:016x};", f.to_bits()),
        toml::Value::Boolean(b) => write!(h, "b{};", u8::from(*b)),
        toml::Value::Datetime(d) => {
            let d = d.to_string();
            write!(h, "d{}:{d}", d.len())
        }
        toml::Value::Array(a) => {
            let _ = write!(h, "a{}[", a.len());
            for x in a {
                canonical(h, x);
            }
            write!(h, "]")
        }
        toml::Value::Table(t) => {
            let mut keys: Vec<&String> = t.keys().collect();
            keys.sort();
            let _ = write!(h, "t{}{{", keys.len());
            for k in keys {
                let _ = write!(h, "{}:{k}", k.len());
                canonical(h, &t[k]);
            }
            write!(h, "}}")
        }
    };
}

/// SplitMix64 finalizer: mixes the experiment seed with the key's hash.
pub fn mix(seed: u64, key_hash: u64) -> u64 {
    let mut z = seed ^ key_hash.rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// How many digits the numbers of one plan's run keys are zero-padded to: the widest number
/// of the plan, and at least as many as keys have always had (2 for positions, 4 for depths,
/// 3 for repetitions), so that text order is numeric order within the plan and the keys of
/// smaller plans are unchanged.
#[derive(Clone, Copy, Debug)]
pub struct Widths {
    pub position: usize,
    pub depth: usize,
    pub rep: usize,
}

impl Widths {
    /// The widths for a plan whose setups hold at most `positions` positions (numbered from
    /// 0: the width of the count, as keys have always had it), with depths up to `max_depth`
    /// and repetitions numbered up to `max_rep`.
    pub fn new(positions: usize, max_depth: u32, max_rep: u32) -> Widths {
        let digits = |n: u64| n.to_string().len();
        Widths {
            position: digits(positions as u64).max(2),
            depth: digits(max_depth as u64).max(4),
            rep: digits(max_rep as u64).max(3),
        }
    }
}

/// The canonical text of a run's parameters: the sort order of runs.csv.
pub fn run_key(r: &Run, w: Widths) -> String {
    let mut parts = position_parts(r, w.position);
    parts.push(format!("alg={}", r.algorithm.name()));
    if let Some(t) = r.solver {
        parts.push(format!("solver={t}"));
    }
    if let Some(v) = r.variant {
        parts.push(format!("variant={}", v.name()));
    }
    parts.push(match r.depth {
        Depth::Plies(d) => format!("depth={d:0w$}", w = w.depth),
        Depth::Full => "depth=full".to_string(),
    });
    parts.push(format!("ordering={}", r.ordering));
    // Parts for the table and iterative deepening appear only when used, so the keys (and
    // seeds) of runs without them are unchanged.
    if let Some(t) = &r.tt {
        parts.push(format!("tt=2^{:02}", t.log2_entries()));
        parts.push(format!("repl={}", t.replacement.name()));
        parts.push(format!("kbits={:02}", t.key_bits));
        parts.push(format!("bounds={}", t.bounds.name()));
    }
    if r.iterative {
        parts.push("iter=on".to_string());
    }
    parts.push(format!("tie={}", r.tie_break.name()));
    // Only when on, so that the keys (and seeds) of runs without quiescence do not change.
    if r.quiescence.enabled {
        parts.push(format!("q={}", r.quiescence.label()));
    }
    parts.push(format!("rep={:0w$}", r.rep, w = w.rep));
    parts.join(";")
}

/// The run key's first parts, which name the searched position: the game, its options and
/// the position's number.
fn position_parts(r: &Run, pos_width: usize) -> Vec<String> {
    vec![
        r.game.key_text(),
        format!("pos={:0w$}", r.position_id, w = pos_width),
    ]
}

/// The part of the run key that seeds the run's randomness: the game, its options, the
/// position, the ordering, the tie-break and the repetition. Runs that differ only in the
/// search technique (algorithm, variant, depth, table, iterative deepening, quiescence) get the
/// same seed, so they draw the same random numbers (common random numbers): fail-hard and
/// fail-soft alpha-beta without a table, say, shuffle alike and enter the same nodes, and a
/// difference between techniques is theirs, not the shuffles'. The position and the
/// repetition keep their usual padding here (2 and 3 digits), whatever the plan's widths:
/// position 5 draws the same numbers in a plan of 10 positions and in one of 100, and
/// repetition 5 in a plan of 10 repetitions and in one of 1,000.
pub fn seed_key(r: &Run) -> String {
    let mut parts = position_parts(r, 2);
    parts.push(format!("ordering={}", r.ordering));
    parts.push(format!("tie={}", r.tie_break.name()));
    parts.push(format!("rep={:03}", r.rep));
    parts.join(";")
}

#[cfg(test)]
mod tests {
    use super::search_hash;

    #[test]
    fn the_search_hash_reads_settings_not_their_spelling() {
        let base = search_hash("name = \"t\"\nseed = 1000\n[search]\ndepth = [1, 2]\n").unwrap();
        // Spelling, order, comments, the description and [report] aside: the same.
        for same in [
            "seed = 1_000\nname = \"t\"\n[search]\ndepth = [ 1, 2 ] # c\n",
            "name = 't'\nseed = 1000\ndescription = \"x\"\nsearch = { depth = [1, 2] }\n[report]\nx = \"depth\"\n",
        ] {
            assert_eq!(search_hash(same).unwrap(), base, "{same}");
        }
        // A value, its type, or a list's order: another search.
        for other in [
            "name = \"t\"\nseed = 1001\n[search]\ndepth = [1, 2]\n",
            "name = \"t\"\nseed = 1000\n[search]\ndepth = [2, 1]\n",
            "name = \"t\"\nseed = 1000\n[search]\ndepth = [1, 2.0]\n",
            "name = \"t\"\nseed = \"1000\"\n[search]\ndepth = [1, 2]\n",
            "name = \"t\"\nseed = 1000\n[search]\ndepth = [1, 2]\n[game]\n",
        ] {
            assert_ne!(search_hash(other).unwrap(), base, "{other}");
        }
        assert_eq!(search_hash("= broken"), None);
    }
}
