//! Descriptive statistics of one counter over the runs of a group: mean, median, geometric
//! mean, min, max and a 95% confidence interval of the mean.
//!
//! The interval is the Student t interval `mean ± t(0.975, n-1) · s / sqrt(n)`, `s` the sample
//! standard deviation (divisor n - 1), when each run is of its own position. Exact counters of
//! a deterministic search over a fixed position set have no sampling error, so read it as the
//! spread over positions and repetitions, not as a measurement error. With n = 1 there is no
//! interval (empty fields). The t quantile is computed here (regularized incomplete beta
//! function, bisection), not looked up, so any n works.
//!
//! Runs of one position (the repetitions of a random ordering) are not independent draws:
//! the position's size moves them together. `Stats::clustered` then takes the positions as
//! the sample: the cluster-robust variance of the mean, `V = G/(G-1) · Σ_g (Σ_{i in g} (x_i -
//! mean))² / n²` over the G positions (a position weighs as many runs as it has), or the
//! textbook s²/n where that is larger, and `mean ± t(0.975, G-1) · sqrt(V)`. With one run per
//! position this is the textbook interval (the same figure); with one position, the runs are
//! the sample (repetitions of that position) and the textbook interval is kept.

/// Statistics of a non-empty list of values.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub n: usize,
    pub mean: f64,
    pub median: f64,
    /// exp(mean(ln x)); `None` when a value is 0 or negative.
    pub geomean: Option<f64>,
    pub min: f64,
    pub max: f64,
    /// The 95% t interval of the mean; `None` when n < 2.
    pub ci95: Option<(f64, f64)>,
    /// The effective number of independent runs behind the mean (Kish: n over the design
    /// effect, the variance taken over the textbook one, so at most `n`): `n` when each run
    /// is of its own position or all are of one; about the positions' G where each position's
    /// runs agree (n(G-1)/(n-1)). A share's Wilson interval is taken over it.
    pub n_eff: f64,
}

impl Stats {
    /// `None` for an empty list. Values are summed in the order given (callers pass them in
    /// runs.csv order, so results are reproducible to the bit).
    pub fn of(values: &[f64]) -> Option<Stats> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
        };
        let geomean = if sorted[0] > 0.0 {
            // exp(mean of ln) rounds: one run of 5545 came back as 5545.000000000001, above
            // its own maximum. It lies within [min, max] exactly.
            let g = (values.iter().map(|v| v.ln()).sum::<f64>() / n as f64).exp();
            Some(g.clamp(sorted[0], sorted[n - 1]))
        } else {
            None
        };
        let ci95 = if n >= 2 {
            let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64;
            let half = t_quantile(0.975, (n - 1) as f64) * (var / n as f64).sqrt();
            Some((mean - half, mean + half))
        } else {
            None
        };
        Some(Stats {
            n,
            mean,
            median,
            geomean,
            min: sorted[0],
            max: sorted[n - 1],
            ci95,
            n_eff: n as f64,
        })
    }

    /// `of`, with `positions[i]` the position of `values[i]`: the interval and `n_eff` take the
    /// positions as the sample where a position has several runs (see the module doc).
    pub fn clustered<P: Ord>(values: &[f64], positions: &[P]) -> Option<Stats> {
        debug_assert_eq!(values.len(), positions.len());
        let mut st = Stats::of(values)?;
        // Each position's sum of deviations from the mean, in the order positions sort.
        let mut sums: std::collections::BTreeMap<&P, f64> = std::collections::BTreeMap::new();
        for (v, p) in values.iter().zip(positions) {
            *sums.entry(p).or_insert(0.0) += v - st.mean;
        }
        let (g, n) = (sums.len(), values.len());
        if g == n || g == 1 {
            return Some(st);
        }
        let clustered = g as f64 / (g - 1) as f64 * sums.values().map(|d| d * d).sum::<f64>()
            / (n as f64 * n as f64);
        // The textbook variance of the mean, s²/n. The clustered one can come out smaller
        // (runs of a position that differ while the positions' means agree: 10, 30 | 10, 30
        // gives 0), and few positions estimate it poorly: the larger of the two is taken, so
        // that repetitions never narrow the interval.
        let textbook =
            values.iter().map(|v| (v - st.mean).powi(2)).sum::<f64>() / ((n - 1) as f64 * n as f64);
        let var = clustered.max(textbook);
        let half = t_quantile(0.975, (g - 1) as f64) * var.sqrt();
        st.ci95 = Some((st.mean - half, st.mean + half));
        // Where every run has the same value (a share of 0 or 1) the design effect is
        // unknown, and the positions are the sample.
        st.n_eff = if textbook > 0.0 {
            n as f64 * textbook / var
        } else {
            g as f64
        };
        Some(st)
    }
}

/// ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9; relative error below 1e-14).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1-x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let nonzero = |v: f64| if v.abs() < TINY { TINY } else { v };
    // One Lentz step with coefficient `aa`: updates C and D, returns the factor C·D.
    let step = |aa: f64, c: &mut f64, d: &mut f64| {
        *d = 1.0 / nonzero(1.0 + aa * *d);
        *c = nonzero(1.0 + aa / *c);
        *d * *c
    };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / nonzero(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..1000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        h *= step(m * (b - m) * x / ((qam + m2) * (a + m2)), &mut c, &mut d);
        let del = step(
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
            &mut c,
            &mut d,
        );
        h *= del;
        if (del - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

/// The regularized incomplete beta function I_x(a, b).
fn inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_cf(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_cf(b, a, 1.0 - x) / b
    }
}

/// The CDF of Student's t distribution with `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * inc_beta(0.5 * df, 0.5, df / (df + t * t));
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The p-quantile (0.5 < p < 1) of Student's t with `df` degrees of freedom, by bisection.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while t_cdf(hi, df) < p {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_published_tables() {
        // Two-sided 95% critical values (any statistics table).
        for &(df, t) in &[
            (1.0, 12.706205),
            (2.0, 4.302653),
            (3.0, 3.182446),
            (4.0, 2.776445),
            (9.0, 2.262157),
            (29.0, 2.045230),
            (120.0, 1.979930),
        ] {
            let q = t_quantile(0.975, df);
            assert!((q - t).abs() < 1e-5, "df {df}: {q} vs {t}");
        }
    }

    #[test]
    fn stats_by_hand() {
        // 1, 2, 4: mean 7/3, median 2, geomean 2, s^2 = ((4/3)^2 + (1/3)^2 + (5/3)^2)/2 = 7/3.
        let s = Stats::of(&[4.0, 1.0, 2.0]).unwrap();
        assert_eq!(s.n, 3);
        assert!((s.mean - 7.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.median, 2.0);
        assert!((s.geomean.unwrap() - 2.0).abs() < 1e-12);
        assert_eq!((s.min, s.max), (1.0, 4.0));
        let half = 4.302653 * (7.0f64 / 3.0 / 3.0).sqrt();
        let (lo, hi) = s.ci95.unwrap();
        assert!((lo - (7.0 / 3.0 - half)).abs() < 1e-5);
        assert!((hi - (7.0 / 3.0 + half)).abs() < 1e-5);
        // Even count: the median is the mean of the middle two; a zero has no geometric mean.
        let s = Stats::of(&[0.0, 3.0, 1.0, 10.0]).unwrap();
        assert_eq!(s.median, 2.0);
        assert_eq!(s.geomean, None);
        // One value: no interval; its geometric mean is itself, not exp(ln) rounded past it.
        assert_eq!(Stats::of(&[5.0]).unwrap().ci95, None);
        for v in [0.005545, 5545.0, 0.1, 3.0e-7] {
            let s = Stats::of(&[v]).unwrap();
            assert_eq!(s.geomean, Some(v), "{v}");
        }
        assert_eq!(Stats::of(&[]), None);
    }

    #[test]
    fn repetitions_of_a_position_are_one_sample_of_the_interval() {
        // 1, 3 of position a and 5, 7 of b: mean 4; the positions' sums of deviations -4 and
        // 4, so V = 2/1 · 32 / 16 = 4: the standard error 2 of the positions' means 2 and 6
        // (s² = 8 over 2), with 1 degree of freedom, not the runs' 3.
        let s = Stats::clustered(&[1.0, 3.0, 5.0, 7.0], &["a", "a", "b", "b"]).unwrap();
        let (lo, hi) = s.ci95.unwrap();
        assert!((hi - 4.0 - 12.706205 * 2.0).abs() < 1e-4, "{hi}");
        assert!((4.0 - lo - 12.706205 * 2.0).abs() < 1e-4, "{lo}");
        // The textbook variance of the mean is (9 + 1 + 1 + 9) / 3 / 4 = 5/3: n_eff = 4 ·
        // (5/3) / 4.
        assert!((s.n_eff - 5.0 / 3.0).abs() < 1e-12, "{}", s.n_eff);
        // Order of the runs does not matter; the other statistics are `of`'s.
        let t = Stats::clustered(&[7.0, 1.0, 5.0, 3.0], &["b", "a", "b", "a"]).unwrap();
        assert_eq!(
            (t.mean, t.median, t.min, t.max),
            (s.mean, s.median, s.min, s.max)
        );
        assert!((t.ci95.unwrap().0 - lo).abs() < 1e-9);
        // A share whose positions differ wholly (0, 0 and 1, 1): n_eff = N(G-1)/(N-1) = 4/3.
        let s = Stats::clustered(&[0.0, 0.0, 1.0, 1.0], &["a", "a", "b", "b"]).unwrap();
        assert!((s.n_eff - 4.0 / 3.0).abs() < 1e-12, "{}", s.n_eff);
        // Runs that differ within positions whose means agree (10, 30 | 10, 30): the clustered
        // variance is 0, and the textbook one, (4 · 100) / 3 / 4, is taken, with 1 degree of
        // freedom; n_eff = n.
        let s = Stats::clustered(&[10.0, 30.0, 10.0, 30.0], &["a", "a", "b", "b"]).unwrap();
        let (lo, hi) = s.ci95.unwrap();
        let half = 12.706205 * (100.0f64 / 3.0).sqrt();
        assert!(
            (hi - 20.0 - half).abs() < 1e-3 && (20.0 - lo - half).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(s.n_eff, 4.0);
        // Every run the same (a share of 0): the positions are the sample.
        let s = Stats::clustered(&[0.0; 6], &[1, 1, 2, 2, 3, 3]).unwrap();
        assert_eq!(s.n_eff, 3.0);
        // One run per position, or one position: the textbook interval, n_eff = n.
        let v = [4.0, 1.0, 2.0];
        assert_eq!(Stats::clustered(&v, &[1, 2, 3]), Stats::of(&v));
        assert_eq!(Stats::clustered(&v, &[7, 7, 7]), Stats::of(&v));
        assert_eq!(Stats::of(&v).unwrap().n_eff, 3.0);
    }
}
