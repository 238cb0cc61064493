//! Theory of alpha-beta on uniform trees (branching b, depth d):
//! Knuth & Moore (1975) minimal tree, the full tree, and Pearl's (1982) asymptotic branching
//! factor of alpha-beta on random (iid) leaf values.
//!
//! Counts are returned as `f64` so that large b^d stay representable; they are exact integers
//! while below 2^53.

/// b^e as f64.
fn pow(b: u64, e: u32) -> f64 {
    (b as f64).powi(e as i32)
}

/// The minimal-tree leaves for a real branching factor b (the mean branching of a real game's
/// searched tree): b^ceil(d/2) + b^floor(d/2) - 1, the same formula as `minimal_leaves`.
pub fn minimal_leaves_real(b: f64, d: u32) -> f64 {
    b.powi(d.div_ceil(2) as i32) + b.powi((d / 2) as i32) - 1.0
}

/// All nodes of the minimal tree for a real b: the sum over levels of `minimal_leaves_real`.
pub fn minimal_nodes_real(b: f64, d: u32) -> f64 {
    (0..=d).map(|l| minimal_leaves_real(b, l)).sum()
}

/// Leaves of the full tree for a real b: b^d.
pub fn full_leaves_real(b: f64, d: u32) -> f64 {
    b.powi(d as i32)
}

/// All nodes of the full tree for a real b: the sum of b^l over l = 0..d.
pub fn full_nodes_real(b: f64, d: u32) -> f64 {
    (0..=d).map(|l| b.powi(l as i32)).sum()
}

/// A tree count as `harness theory` writes it: exact while it fits in 128 bits, else in
/// scientific notation with 7 significant digits (`1.111111e20`); and its log10.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    pub text: String,
    pub log10: f64,
}

/// One row of `harness theory`: the predictions for a uniform tree of branching b, depth d.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub branching: u64,
    pub depth: u32,
    pub minimal_leaves: Count,
    pub minimal_nodes: Count,
    pub full_leaves: Count,
    pub full_nodes: Count,
    /// Pearl's asymptotic branching factor R*(b).
    pub pearl_r: f64,
    /// R*(b)^d: the order of magnitude of the leaves random ordering reads (asymptotically,
    /// up to a constant factor).
    pub pearl_leaves: f64,
}

/// The equivalent uniform branching factor: the b >= 1 for which the full tree of depth d has
/// `nodes` nodes (bisection; `None` when d = 0 or nodes < d + 1).
pub fn equivalent_branching(nodes: f64, d: u32) -> Option<f64> {
    if d == 0 || nodes < d as f64 + 1.0 {
        return None;
    }
    let (mut lo, mut hi) = (1.0f64, nodes.max(2.0));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if full_nodes_real(mid, d) < nodes {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The exponents of level l's minimal-tree leaves: ceil(l/2) and floor(l/2).
fn half(l: u32) -> [u32; 2] {
    [l.div_ceil(2), l / 2]
}

pub fn predict(b: u64, d: u32) -> Prediction {
    let r = pearl_branching_factor(b as f64);
    Prediction {
        branching: b,
        depth: d,
        minimal_leaves: count(b, &half(d), 1),
        minimal_nodes: count(
            b,
            &(0..=d).flat_map(half).collect::<Vec<_>>(),
            d as u128 + 1,
        ),
        full_leaves: count(b, &[d], 0),
        full_nodes: count(b, &(0..=d).collect::<Vec<_>>(), 0),
        pearl_r: r,
        pearl_leaves: r.powi(d as i32),
    }
}

/// Parses a set of whole numbers: `5`, a range `1..10` (inclusive), or a comma list of these.
pub fn parse_int_set(text: &str, min: u64, max: u64) -> Result<Vec<u64>, String> {
    let help = format!(
        "write a number, a range like {min}..{} (inclusive) or a comma list, each from {min} to {max}",
        min + 8
    );
    let mut out = Vec::new();
    // The values taken so far, as ranges start -> (end, the text that gave them): a value
    // given twice would repeat its rows (and, never stored twice, the values stay at most
    // max - min + 1 however long the text).
    let mut taken: std::collections::BTreeMap<u64, (u64, &str)> = Default::default();
    for part in text.split(',') {
        let p = part.trim();
        let num = |s: &str| -> Result<u64, String> {
            let v: u64 =
                crate::games::parse_digits(s.trim()).ok_or_else(|| format!("`{p}`: {help}"))?;
            if v < min || v > max {
                return Err(format!("`{p}`: {v} is out of range; {help}"));
            }
            Ok(v)
        };
        let (a, b) = if let Some((a, b)) = p.split_once("..") {
            let b = b.strip_prefix('=').unwrap_or(b);
            let (a, b) = (num(a)?, num(b)?);
            if a > b {
                return Err(format!("`{p}` is an empty range; {help}"));
            }
            (a, b)
        } else {
            let v = num(p)?;
            (v, v)
        };
        // The taken range that starts last at or before b is the only one that can reach a.
        if let Some((&start, &(end, earlier))) = taken.range(..=b).next_back() {
            if end >= a {
                let twice = if earlier == p {
                    format!("`{p}` is given twice")
                } else {
                    format!("`{earlier}` and `{p}` both give {}", a.max(start))
                };
                return Err(format!("{twice}; allowed: each value once"));
            }
        }
        taken.insert(a, (b, p));
        out.extend(a..=b);
    }
    Ok(out)
}

/// The sum of b^e over `exps`, minus `minus`.
fn count(b: u64, exps: &[u32], minus: u128) -> Count {
    let exact = exps
        .iter()
        .try_fold(0u128, |acc, &e| {
            (b as u128).checked_pow(e).and_then(|t| acc.checked_add(t))
        })
        .and_then(|s| s.checked_sub(minus));
    let lb = (b as f64).log10();
    let top = exps.iter().copied().max().unwrap_or(0);
    // Relative to the largest term, so that no power overflows; `minus` is then negligible.
    let rel: f64 = exps
        .iter()
        .map(|&e| 10f64.powf((e as f64 - top as f64) * lb))
        .sum();
    let log = top as f64 * lb + rel.log10();
    match exact {
        Some(v) => Count {
            text: v.to_string(),
            log10: (v as f64).log10(),
        },
        None => Count {
            text: scientific(log),
            log10: log,
        },
    }
}

/// 10^`log` in scientific notation, 7 significant digits.
fn scientific(log: f64) -> String {
    let mut e = log.floor();
    let mut m = 10f64.powf(log - e);
    if format!("{m:.6}").starts_with("10") {
        m /= 10.0;
        e += 1.0;
    }
    format!("{m:.6}e{e:.0}")
}

/// The table `harness theory` prints: aligned text, or CSV.
pub fn table(rows: &[Prediction], csv: bool) -> String {
    let head = [
        "branching",
        "depth",
        "minimal_leaves",
        "minimal_nodes",
        "full_leaves",
        "full_nodes",
        "pearl_r",
        "pearl_leaves",
        "minimal_over_full",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|p| {
            let (b, d) = (p.branching, p.depth);
            // A real-valued estimate: at most 15 significant digits, which f64 carries.
            // At least five significant digits below 10^4 (R*^1 = 1.61803, not 1.6).
            let pearl_leaves = if p.pearl_leaves < 1e14 {
                let decimals = (4 - p.pearl_leaves.log10().floor() as i32).clamp(1, 4) as usize;
                format!("{:.decimals$}", p.pearl_leaves)
            } else {
                scientific(d as f64 * p.pearl_r.log10())
            };
            let ratio_log = p.minimal_leaves.log10 - p.full_leaves.log10;
            let ratio = if ratio_log >= -3.0 {
                format!("{:.6}", 10f64.powf(ratio_log))
            } else {
                scientific(ratio_log)
            };
            vec![
                b.to_string(),
                d.to_string(),
                p.minimal_leaves.text.clone(),
                p.minimal_nodes.text.clone(),
                p.full_leaves.text.clone(),
                p.full_nodes.text.clone(),
                format!("{:.6}", p.pearl_r),
                pearl_leaves,
                ratio,
            ]
        })
        .collect();
    let mut s = String::new();
    if csv {
        s.push_str(&head.join(","));
        s.push('\n');
        for r in &cells {
            s.push_str(&r.join(","));
            s.push('\n');
        }
        return s;
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|i| {
            cells
                .iter()
                .map(|r| r[i].len())
                .chain([head[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |r: &[&str]| -> String {
        let parts: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:>w$}", w = widths[i]))
            .collect();
        parts.join("  ").trim_end().to_string() + "\n"
    };
    s.push_str(&line(&head));
    for r in &cells {
        let refs: Vec<&str> = r.iter().map(|c| c.as_str()).collect();
        s.push_str(&line(&refs));
    }
    s
}

/// Leaves of the minimal (perfectly ordered) tree: b^ceil(d/2) + b^floor(d/2) - 1.
pub fn minimal_leaves(b: u64, d: u32) -> f64 {
    pow(b, d.div_ceil(2)) + pow(b, d / 2) - 1.0
}

/// All nodes of the minimal tree, the root included: the sum over levels l = 0..d of
/// b^ceil(l/2) + b^floor(l/2) - 1.
pub fn minimal_nodes(b: u64, d: u32) -> f64 {
    (0..=d).map(|l| minimal_leaves(b, l)).sum()
}

/// Leaves of the full tree: b^d.
pub fn full_leaves(b: u64, d: u32) -> f64 {
    pow(b, d)
}

/// All nodes of the full tree: (b^(d+1) - 1) / (b - 1) for b >= 2.
pub fn full_nodes(b: u64, d: u32) -> f64 {
    if b == 1 {
        return d as f64 + 1.0;
    }
    (0..=d).map(|l| pow(b, l)).sum()
}

/// Pearl's asymptotic branching factor of alpha-beta on uniform trees with iid continuous
/// leaf values: R*(b) = xi / (1 - xi), xi the root in (0, 1) of x^b + x - 1 = 0.
///
/// Solved by bisection for y = 1 - xi, the root of (1 - y)^b = y, to full f64 precision. For
/// large b, xi lies so close to 1 that 1 - xi computed from xi would keep only a few digits
/// (b = 10^6: y is 1.1e-5, so xi's last bit is already 1e-11 of y).
pub fn pearl_branching_factor(b: f64) -> f64 {
    // (1 - y)^b - y: 1 at y = 0, -1 at y = 1, decreasing between.
    let f = |y: f64| (b * (-y).ln_1p()).exp() - y;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let y = 0.5 * (lo + hi);
    (1.0 - y) / y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_moore_published_examples() {
        // ../shared/reference.md: (b, d) -> (leaves, all nodes)
        for &(b, d, leaves, nodes) in &[
            (3, 3, 11.0, 20.0),
            (2, 4, 7.0, 18.0),
            (3, 5, 35.0, 72.0),
            (5, 5, 149.0, 242.0),
            (2, 10, 63.0, 208.0),
            (10, 4, 199.0, 338.0),
            (6, 5, 251.0, 381.0),
        ] {
            assert_eq!(minimal_leaves(b, d), leaves, "b{b} d{d}");
            assert_eq!(minimal_nodes(b, d), nodes, "b{b} d{d}");
        }
        assert_eq!(full_leaves(3, 3), 27.0);
        assert_eq!(full_nodes(3, 3), 40.0);
    }

    #[test]
    fn real_branching_agrees_with_whole_numbers() {
        for b in 2..9u64 {
            for d in 0..9 {
                assert_eq!(minimal_leaves_real(b as f64, d), minimal_leaves(b, d));
                assert_eq!(minimal_nodes_real(b as f64, d), minimal_nodes(b, d));
                assert_eq!(full_leaves_real(b as f64, d), full_leaves(b, d));
                assert_eq!(full_nodes_real(b as f64, d), full_nodes(b, d));
            }
        }
    }

    #[test]
    fn int_sets_and_table() {
        assert_eq!(parse_int_set("3", 1, 64).unwrap(), vec![3]);
        assert_eq!(parse_int_set("1..4", 1, 64).unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(parse_int_set("2,5..6", 1, 64).unwrap(), vec![2, 5, 6]);
        assert!(parse_int_set("0", 1, 64).is_err());
        assert!(parse_int_set("5..2", 1, 64).is_err());
        assert!(parse_int_set("x", 1, 64).is_err());
        for (text, expect) in [
            ("2,2", "`2` is given twice"),
            ("2..5,4", "`2..5` and `4` both give 4"),
            ("4,2..5", "`4` and `2..5` both give 4"),
            ("6..9,1..3,2..5", "`1..3` and `2..5` both give 2"),
            ("1..3,6..9,2..7", "`6..9` and `2..7` both give 6"),
        ] {
            let e = parse_int_set(text, 1, 64).unwrap_err();
            assert!(
                e.contains(expect) && e.contains("each value once"),
                "{text}: {e}"
            );
        }
        assert_eq!(
            parse_int_set("6..9,1..3,4..5", 1, 64).unwrap(),
            vec![6, 7, 8, 9, 1, 2, 3, 4, 5]
        );
        let t = table(&[predict(3, 3)], true);
        assert_eq!(
            t,
            "branching,depth,minimal_leaves,minimal_nodes,full_leaves,full_nodes,pearl_r,pearl_leaves,minimal_over_full\n3,3,11,20,27,40,2.147899,9.9093,0.407407\n"
        );
    }

    #[test]
    fn pearl_published_values() {
        for &(b, r) in &[
            (2.0, 1.618034),
            (3.0, 2.147899),
            (4.0, 2.629658),
            (5.0, 3.079596),
            (6.0, 3.506323),
            (7.0, 3.915076),
            (8.0, 4.309330),
            (9.0, 4.691538),
            (10.0, 5.063511),
            (20.0, 8.424663),
            (30.0, 11.416399),
            (35.0, 12.830181),
        ] {
            assert!((pearl_branching_factor(b) - r).abs() < 1e-6, "b={b}");
        }
        // Full precision where xi is close to 1 (values from 40-digit arithmetic, mpmath).
        for &(b, r) in &[
            (2.0, 1.618_033_988_749_895),
            (1000.0, 189.911_065_443_816_5),
            (1e6, 87_846.999_201_976_04),
        ] {
            let rel = (pearl_branching_factor(b) - r).abs() / r;
            assert!(rel < 1e-14, "b={b}: relative error {rel:e}");
        }
        // The exponent log R*/log b is 0.69-0.72 for b <= 40 (not 3/4).
        for b in 2..=40 {
            let b = b as f64;
            let e = pearl_branching_factor(b).ln() / b.ln();
            assert!((0.69..=0.72).contains(&e), "b={b}: exponent {e}");
        }
    }

    #[test]
    fn equivalent_branching_recovers_b() {
        for &(b, d) in &[(3u64, 3u32), (2, 10), (10, 4), (6, 5)] {
            let e = equivalent_branching(full_nodes(b, d), d).unwrap();
            assert!((e - b as f64).abs() < 1e-9, "b{b} d{d}: {e}");
        }
        assert_eq!(equivalent_branching(5.0, 0), None);
    }

    /// Counts past f64's 53 bits are printed exactly while they fit in 128 bits, and past
    /// that in scientific notation, never as `inf` or `NaN`.
    #[test]
    fn big_counts_print_exactly_or_in_scientific_notation() {
        let t = table(&[predict(10, 20), predict(1000, 1000)], true);
        let rows: Vec<Vec<&str>> = t.lines().skip(1).map(|l| l.split(',').collect()).collect();
        assert_eq!(rows[0][4], "100000000000000000000");
        assert_eq!(rows[0][5], "111111111111111111111");
        assert_eq!(rows[0][2], "19999999999");
        assert_eq!(rows[1][4], "1.000000e3000");
        assert_eq!(rows[1][2], "2.000000e1500");
        assert!(!t.contains("inf") && !t.contains("NaN"), "{t}");
        // Small trees: the published counts (b = 2, d = 4: 7 and 18; 16 and 31).
        let small = table(&[predict(2, 4)], true);
        assert!(small.contains("\n2,4,7,18,16,31,1.618034,"), "{small}");
    }
}
