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
/// leaf values: R*(b) = xi / (1 - xi), xi the root in (0, 1) of x^b + x - 1 = 0, solved by
/// bisection to full f64 precision.
pub fn pearl_branching_factor(b: f64) -> f64 {
    let f = |x: f64| x.powf(b) + x - 1.0;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let xi = 0.5 * (lo + hi);
    xi / (1.0 - xi)
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
    fn pearl_published_values() {
        for &(b, r) in &[
            (2.0, 1.618034),
            (3.0, 2.147899),
            (4.0, 2.629658),
            (5.0, 3.079596),
            (10.0, 5.063511),
            (20.0, 8.424663),
            (35.0, 12.830181),
        ] {
            assert!((pearl_branching_factor(b) - r).abs() < 1e-6, "b={b}");
        }
    }
}
