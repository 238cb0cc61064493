//! `summary.csv`: runs grouped by every parameter column (see `table` for the roles), with
//! statistics of every counter and the theory of the group's tree.
//!
//! Columns: the parameters; `runs` (rows in the group), `positions` (distinct positions),
//! `budget_runs` (runs stopped by a budget, included in the statistics); for each counter `c`:
//! `c_mean, c_median, c_geomean, c_min, c_max, c_ci95_low, c_ci95_high` over the runs where it
//! is not empty (see `stats` for the interval); then the theory columns:
//! - `theory_branching`, `branching_source`: the b of the theory. Taken from a `branching` column when
//!   runs.csv has one (uniform trees); otherwise the *equivalent uniform branching factor* of the
//!   full-width search: the b whose full tree of the group's depth has as many nodes as
//!   minimax/negamax entered (mean over the group's positions) on the same game, options,
//!   positions and depth, without iterative deepening (whose nodes add up every iteration).
//!   Empty when neither exists.
//! - `full_tree_nodes` = sum of b^l for l = 0..d; `minimal_tree_nodes` = Knuth and Moore's
//!   minimal tree, sum over l = 0..d of b^ceil(l/2) + b^floor(l/2) - 1; `theory_pearl_r` = R*(b);
//! - `theory_nodes_over_minimal`, `theory_nodes_over_full` = nodes_mean divided by those, and
//!   `ebf_over_pearl` = ebf_mean / R*(b);
//! - `growth` = nodes_mean(d) / nodes_mean(d - 1) and `growth_2` = sqrt(nodes_mean(d) /
//!   nodes_mean(d - 2)): the measured branching factor between depths, against the group with
//!   every other parameter the same at depth d - 1 (d - 2). `growth_2` steps over alpha-beta's
//!   odd/even oscillation (Pearl's measured ratio). A uniform tree searched to its height
//!   (`depth = "full"`) with no shallower search of the same tree in the experiment is compared
//!   with the trees of height d - 1 (d - 2) searched to theirs, every other parameter the same.
//!   Otherwise the shallower group must hold the same positions: a real game searched to its
//!   end has other positions one ply shallower, so it gets no growth. Empty when that group is
//!   missing or either group holds a run a budget stopped.
//!
//! Groups are sorted by their parameter values (numerically where both values are numbers).

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use super::stats::Stats;
use super::table::{number_or_bool, numeric, Role, Table};
use super::theory;
use crate::experiment::plan::OPTION_COLUMNS;

/// `Theory::source` when b is the `branching` column (else b is fitted to minimax/negamax).
pub const BRANCHING_COLUMN: &str = "branching column";

/// The b used by the theory columns, and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Theory {
    pub branching: f64,
    pub source: &'static str,
    pub depth: u32,
    pub full_nodes: f64,
    pub minimal_nodes: f64,
    pub pearl_r: f64,
    /// The b of each run's position's own tree, in the order of their (tree, position) keys
    /// (a position once per run of the group, as the statistics count it): a real game's
    /// fitted to that position's minimax/negamax node count (`branching` fits their mean);
    /// uniform trees' `branching` once. The ebf chart's theory lines are the chart's point
    /// statistic over these trees, as its points are over the runs.
    pub position_branching: Vec<f64>,
}

impl Theory {
    /// `v` over a theory figure (`minimal_nodes`, `full_nodes`, `pearl_r`), or none when that
    /// figure is past what a float holds (a tree too large: its cell is empty, and so is the
    /// ratio, which would read 0).
    pub fn ratio(v: f64, of: f64) -> Option<f64> {
        of.is_finite().then(|| v / of)
    }

    /// Mean `nodes` over the minimal and over the full tree, and mean `ebf` over R*(b), each
    /// by `ratio`: summary.csv's and report.md's ratio columns.
    pub fn ratios(&self, nodes: Option<f64>, ebf: Option<f64>) -> [Option<f64>; 3] {
        [
            nodes.and_then(|n| Theory::ratio(n, self.minimal_nodes)),
            nodes.and_then(|n| Theory::ratio(n, self.full_nodes)),
            ebf.and_then(|e| Theory::ratio(e, self.pearl_r)),
        ]
    }

    /// b is fitted to minimax/negamax (a real game), not the `branching` column: its trees
    /// are a uniform tree's, a reference rather than a bound for the game's search.
    pub fn fitted(&self) -> bool {
        self.source != BRANCHING_COLUMN
    }
}

/// One group of runs: the same value in every parameter column.
#[derive(Clone, Debug)]
pub struct Group {
    /// Values of `Summary::params`, in that order.
    pub key: Vec<String>,
    /// Row indices into the table, in runs.csv order.
    pub rows: Vec<usize>,
    pub positions: usize,
    /// The `position_id`s of its runs, sorted.
    pub position_ids: Vec<String>,
    pub budget: usize,
    /// Of those, the runs stopped before they entered their deepest ply (`max_ply` below
    /// `theory_depth`, the most the search can reach): for them nodes^(1/max_ply) is no lower
    /// bound on the finished search's ebf, since max_ply would grow too.
    pub budget_short: usize,
    /// One entry per `Summary::counters`.
    pub stats: Vec<Option<Stats>>,
    pub theory: Option<Theory>,
    /// One entry per `Summary::iterations`: the mean of that counter in each iteration,
    /// `1:m1 2:m2 ...` (see [`iteration_means`]).
    pub iteration_means: Vec<String>,
}

impl Group {
    pub fn stat(&self, summary: &Summary, counter: &str) -> Option<&Stats> {
        let i = summary.counters.iter().position(|c| c == counter)?;
        self.stats[i].as_ref()
    }
    pub fn param<'a>(&'a self, summary: &Summary, name: &str) -> Option<&'a str> {
        let i = summary.params.iter().position(|c| c == name)?;
        Some(self.key[i].as_str())
    }
}

#[derive(Clone, Debug)]
pub struct Summary {
    pub params: Vec<String>,
    pub counters: Vec<String>,
    /// The per-iteration columns of runs.csv (`iteration_nodes`, ...) that some run fills:
    /// iterative deepening's.
    pub iterations: Vec<String>,
    pub groups: Vec<Group>,
}

/// Compares two field values: as numbers when both are, else as text.
pub fn cmp_values(a: &str, b: &str) -> Ordering {
    match (numeric(a), numeric(b)) {
        (Some(x), Some(y)) => x.total_cmp(&y).then_with(|| a.cmp(b)),
        _ => a.cmp(b),
    }
}

/// `v` to `decimals` decimals, or to 7 significant digits where they would hide it: below
/// `small` in magnitude (0 aside; 6 decimals print a ratio of 4.6e-7 as 0), or from 10^15
/// on, past the digits a double holds. Empty when `v` is not finite.
pub fn fixed_or_scientific(v: f64, decimals: usize, small: f64) -> String {
    // Past what a float holds: no value (see `fmt_num`).
    if !v.is_finite() {
        return String::new();
    }
    if v != 0.0 && (v.abs() < small || v.abs() >= 1e15) {
        format!("{v:.6e}")
    } else {
        format!("{v:.decimals$}")
    }
}

/// A number as summary/report text: integers exactly, others with six decimals, trailing
/// zeros trimmed. Deterministic (no locale, no platform formatting). A value past what a
/// float holds (a full tree of b = 10^6 to depth 1,000, from a hand-made runs.csv) is an empty
/// cell (`fixed_or_scientific`), as a value that does not apply is, rather than `inf`, which
/// no reader takes as a number.
pub fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = fixed_or_scientific(v, 6, 1e-3);
        if s.contains('e') {
            return s;
        }
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" {
            "0".to_string()
        } else {
            s.to_string()
        }
    }
}

/// Groups the table and computes statistics and theory.
pub fn summarize(t: &Table) -> Summary {
    let pcols = t.columns_with(Role::Parameter);
    let ccols = t.columns_with(Role::Counter);
    // A run that finished (not one a budget stopped: its counters are partial).
    let status = t.col("status");
    let finished = |r: &crate::report::table::Row| status.is_none_or(|s| &r[s] == "ok");
    // The per-iteration columns some finished run fills (the others are left out of their
    // means).
    let icols: Vec<usize> = (0..t.header.len())
        .filter(|&c| t.header[c].starts_with(crate::report::csv::ITERATION_PREFIX))
        .filter(|&c| t.rows.iter().any(|r| finished(r) && !r[c].is_empty()))
        .collect();
    let mut by_key: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for (r, row) in t.rows.iter().enumerate() {
        let key: Vec<String> = pcols.iter().map(|&c| row[c].to_string()).collect();
        by_key.entry(key).or_default().push(r);
    }
    let mut keyed: Vec<(Vec<String>, Vec<usize>)> = by_key.into_iter().collect();
    keyed.sort_by(|a, b| {
        a.0.iter()
            .zip(&b.0)
            .map(|(x, y)| cmp_values(x, y))
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    });
    let pos = t.col("position_id");
    let full_width = full_width_nodes(t);
    // Which position a run searched, across game setups: its game, the game's options and
    // its position. A group pooled over `branching` holds tree 0 of b = 2 and tree 0 of b =
    // 3, two positions with one position_id.
    let origin_cols: Vec<usize> = ["game"]
        .into_iter()
        .chain(OPTION_COLUMNS)
        .chain(["position_id", "position"])
        .filter_map(|c| t.col(c))
        .collect();
    let origin: Vec<Vec<&str>> = t
        .rows
        .iter()
        .map(|row| origin_cols.iter().map(|&c| &row[c]).collect())
        .collect();
    let groups = keyed
        .into_iter()
        .map(|(key, rows)| {
            let positions: BTreeSet<&str> = rows
                .iter()
                .map(|&r| pos.map(|p| &t.rows[r][p]).unwrap_or(""))
                .collect();
            let stopped: Vec<usize> = rows
                .iter()
                .copied()
                .filter(|&r| !finished(&t.rows[r]))
                .collect();
            let budget = stopped.len();
            let (max_ply, cap) = (t.col("max_ply"), t.col("theory_depth").or(t.col("depth")));
            let budget_short = stopped
                .iter()
                .filter(|&&r| match (max_ply, cap) {
                    (Some(m), Some(c)) => {
                        numeric(&t.rows[r][m]).is_none_or(|m| Some(m) != numeric(&t.rows[r][c]))
                    }
                    _ => true,
                })
                .count();
            let stats = ccols
                .iter()
                .map(|&c| {
                    // Each value with its position: repetitions of one position are one
                    // sample of the interval, not several (`Stats::clustered`).
                    let (v, at): (Vec<f64>, Vec<&Vec<&str>>) = rows
                        .iter()
                        .filter_map(|&r| Some((number_or_bool(&t.rows[r][c])?, &origin[r])))
                        .unzip();
                    Stats::clustered(&v, &at)
                })
                .collect();
            let theory = group_theory(t, &rows, &full_width);
            let iteration_means = icols
                .iter()
                .map(|&c| {
                    iteration_means(
                        rows.iter()
                            .filter(|&&r| finished(&t.rows[r]))
                            .map(|&r| &t.rows[r][c]),
                    )
                })
                .collect();
            Group {
                key,
                positions: positions.len(),
                position_ids: positions.iter().map(|p| p.to_string()).collect(),
                rows,
                budget,
                budget_short,
                stats,
                theory,
                iteration_means,
            }
        })
        .collect();
    Summary {
        params: pcols.iter().map(|&c| t.header[c].clone()).collect(),
        counters: ccols.iter().map(|&c| t.header[c].clone()).collect(),
        iterations: icols.iter().map(|&c| t.header[c].clone()).collect(),
        groups,
    }
}

/// The mean of a per-iteration counter in each iteration over `cells` (runs.csv's
/// `1:10 2:82 3:586`, one cell per finished run of a group), written the same way: iteration
/// i's mean is over the runs that reached iteration i (a position that ends sooner stops its
/// iterations sooner). Empty where no cell holds an iteration. (`read_table` refuses a cell
/// that does not read as iterations; one here would count for none.)
pub fn iteration_means<'a>(cells: impl Iterator<Item = &'a str>) -> String {
    let mut sums: BTreeMap<u64, (f64, u64)> = BTreeMap::new();
    for cell in cells {
        let parsed: Option<Vec<(u64, f64)>> = cell
            .split_whitespace()
            .map(|pair| {
                let (i, v) = pair.split_once(':')?;
                Some((crate::games::parse_digits(i)?, numeric(v)?))
            })
            .collect();
        for (i, v) in parsed.unwrap_or_default() {
            let e = sums.entry(i).or_insert((0.0, 0));
            e.0 += v;
            e.1 += 1;
        }
    }
    sums.iter()
        .map(|(i, (sum, n))| format!("{i}:{}", fmt_num(sum / *n as f64)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The tree a run searched, for matching with full-width runs: game, game options, depth.
fn tree_key(t: &Table, row: usize) -> Vec<String> {
    std::iter::once("game")
        .chain(OPTION_COLUMNS.iter().copied())
        .chain(std::iter::once("depth"))
        .filter_map(|c| t.col(c).map(|i| t.rows[row][i].to_string()))
        .collect()
}

/// Mean nodes of the full-width (minimax, negamax) runs that finished, by (tree, position).
/// Runs with iterative deepening are left out: their `nodes` add up every iteration's tree,
/// which is not the tree of the run's depth.
fn full_width_nodes(t: &Table) -> BTreeMap<(Vec<String>, String), f64> {
    let (Some(alg), Some(pos), Some(nodes), Some(status)) = (
        t.col("algorithm"),
        t.col("position_id"),
        t.col("nodes"),
        t.col("status"),
    ) else {
        return BTreeMap::new();
    };
    let iterative = t.col("iterative");
    let mut acc: BTreeMap<(Vec<String>, String), (f64, usize)> = BTreeMap::new();
    for (r, row) in t.rows.iter().enumerate() {
        let deepening = iterative.is_some_and(|c| &row[c] == "true");
        if (&row[alg] == "minimax" || &row[alg] == "negamax") && &row[status] == "ok" && !deepening
        {
            if let Some(n) = numeric(&row[nodes]) {
                let e = acc
                    .entry((tree_key(t, r), row[pos].to_string()))
                    .or_insert((0.0, 0));
                e.0 += n;
                e.1 += 1;
            }
        }
    }
    acc.into_iter()
        .map(|(k, (s, n))| (k, s / n as f64))
        .collect()
}

fn group_theory(
    t: &Table,
    rows: &[usize],
    full_width: &BTreeMap<(Vec<String>, String), f64>,
) -> Option<Theory> {
    // d is the depth the tree has: `theory_depth` (the depth searched, capped at the plies
    // the game can still last), as in runs.csv; `depth` in a runs.csv without it. A group
    // whose positions cap it differently gets no theory.
    let depth_col = t
        .col("theory_depth")
        .filter(|&c| rows.iter().all(|&r| !t.rows[r][c].is_empty()))
        .or_else(|| t.col("depth"))?;
    let d = numeric(&t.rows[rows[0]][depth_col])?;
    // Depths past 1,000 (the theory command's limit) get no theory: its sums run over depth.
    if !(1.0..=1000.0).contains(&d)
        || d.fract() != 0.0
        || rows
            .iter()
            .any(|&r| t.rows[r][depth_col] != t.rows[rows[0]][depth_col])
    {
        return None;
    }
    let d = d as u32;
    // The branching column where the group's runs have one (uniform trees; the other games of
    // a mixed experiment leave it empty and get the minimax fit).
    let branching = t
        .col("branching")
        .filter(|&bc| rows.iter().any(|&r| !t.rows[r][bc].is_empty()));
    // (b, where it comes from, each position's full-width node count for a fitted b).
    let (b, source, position_nodes) = if let Some(bc) = branching {
        let v: Vec<f64> = rows
            .iter()
            .filter_map(|&r| numeric(&t.rows[r][bc]))
            .collect();
        if v.is_empty() {
            return None;
        }
        (
            v.iter().sum::<f64>() / v.len() as f64,
            BRANCHING_COLUMN,
            vec![],
        )
    } else {
        let pos = t.col("position_id")?;
        // One per run, as the group's means are over its runs: a position searched twice to
        // one depth (`depth = [6, "full"]` where 6 plies are left) counts twice in both.
        let mut positions: Vec<(Vec<String>, String)> = rows
            .iter()
            .map(|&r| (tree_key(t, r), t.rows[r][pos].to_string()))
            .collect();
        positions.sort();
        let nodes = positions
            .iter()
            .map(|p| full_width.get(p).copied())
            .collect::<Option<Vec<f64>>>()?;
        let n = nodes.iter().sum::<f64>() / nodes.len() as f64;
        (
            theory::equivalent_branching(n, d)?,
            "equivalent uniform tree of minimax/negamax",
            nodes,
        )
    };
    if b < 1.0 {
        return None;
    }
    // Each position's own tree (a real game's), or the group's b where one fits no tree.
    let position_branching = position_nodes
        .iter()
        .map(|&n| theory::equivalent_branching(n, d))
        .collect::<Option<Vec<f64>>>()
        .filter(|bs| !bs.is_empty())
        .unwrap_or_else(|| vec![b]);
    Some(Theory {
        branching: b,
        source,
        depth: d,
        full_nodes: theory::full_nodes_real(b, d),
        minimal_nodes: theory::minimal_nodes_real(b, d),
        pearl_r: theory::pearl_branching_factor(b),
        position_branching,
    })
}

/// Suffixes of the statistics columns, in order.
pub const STAT_SUFFIXES: [&str; 7] = [
    "mean",
    "median",
    "geomean",
    "min",
    "max",
    "ci95_low",
    "ci95_high",
];

/// Theory columns whose summary.csv name always starts `theory_` (see `to_csv`).
const ALWAYS_THEORY_NAMED: [&str; 4] = [
    "branching",
    "pearl_r",
    "nodes_over_minimal",
    "nodes_over_full",
];

/// The theory columns, in order.
pub const THEORY_COLUMNS: [&str; 8] = [
    "branching",
    "branching_source",
    "full_tree_nodes",
    "minimal_tree_nodes",
    "pearl_r",
    "nodes_over_minimal",
    "nodes_over_full",
    "ebf_over_pearl",
];

/// The depth-growth columns, in order.
pub const GROWTH_COLUMNS: [&str; 2] = ["growth", "growth_2"];

/// Per group, `growth` and `growth_2` (see the module doc).
pub fn growth(s: &Summary) -> Vec<[Option<f64>; 2]> {
    let Some(di) = s.params.iter().position(|c| c == "depth") else {
        return vec![[None; 2]; s.groups.len()];
    };
    let hi = s.params.iter().position(|c| c == "height");
    let without = |g: &Group, cols: &[usize]| {
        let mut k = g.key.clone();
        for &i in cols.iter().rev() {
            k.remove(i);
        }
        k
    };
    // A uniform tree searched to its height: its key without depth and height, so that the
    // trees of other heights searched to theirs line up with it.
    // (Connect Four has a `height` column too, its board's: a board searched to its end is no
    // tree searched to its height, so only uniform groups qualify.)
    let gi_kind = s.params.iter().position(|c| c == "game");
    let to_height = |g: &Group| {
        let hi = hi?;
        let uniform = gi_kind.is_none_or(|k| g.key[k] == "uniform");
        (uniform && g.key[hi] == g.key[di]).then(|| without(g, &[di.min(hi), di.max(hi)]))
    };
    // Mean nodes of each finished group, by (the other parameters, depth); and of the groups
    // searched to the tree's height, by (the parameters but depth and height, depth).
    // (mean nodes, the group's index) by (the other parameters, depth).
    // (Every group with a depth is in `nodes`, a budget-stopped one with no mean: the same
    // tree searched shallower and stopped leaves the growth empty, not one of smaller trees.)
    let mut nodes: BTreeMap<(Vec<String>, u64), (Option<f64>, usize)> = BTreeMap::new();
    let mut full: BTreeMap<(Vec<String>, u64), f64> = BTreeMap::new();
    for (gi, g) in s.groups.iter().enumerate() {
        let (Ok(d), Some(n)) = (g.key[di].parse::<u64>(), g.stat(s, "nodes")) else {
            continue;
        };
        let mean = (g.budget == 0 && n.mean > 0.0).then_some(n.mean);
        nodes.insert((without(g, &[di]), d), (mean, gi));
        if let (Some(mean), Some(k)) = (mean, to_height(g)) {
            full.insert((k, d), mean);
        }
    }
    s.groups
        .iter()
        .map(|g| {
            let Ok(d) = g.key[di].parse::<u64>() else {
                return [None; 2];
            };
            let k = without(g, &[di]);
            // The same positions searched shallower: on a real game searched to its end
            // (`depth = "full"`), a group one ply shallower holds other positions, and is no
            // measure of this one's growth.
            // Some(mean, or None when a budget stopped it) when the experiment searched the
            // same positions to depth `d`.
            let at = |d: Option<u64>| {
                let &(n, i) = nodes.get(&(k.clone(), d?))?;
                (s.groups[i].position_ids == g.position_ids).then_some(n)
            };
            let kf = to_height(g);
            let at_full = |d: Option<u64>| Some(*full.get(&(kf.clone()?, d?))?);
            let here = nodes.get(&(k.clone(), d)).and_then(|&(n, _)| n);
            // The same tree searched shallower if the experiment has it, else smaller trees.
            let ratio = |back: u64| {
                let before = d.checked_sub(back);
                let shallower = match at(before) {
                    Some(n) => n?,
                    None => at_full(before)?,
                };
                Some(here? / shallower)
            };
            [ratio(1), ratio(2).map(f64::sqrt)]
        })
        .collect()
}

/// summary.csv as bytes.
pub fn to_csv(s: &Summary) -> Vec<u8> {
    let mut header: Vec<String> = s.params.clone();
    header.extend(["runs", "positions", "budget_runs"].map(String::from));
    for c in &s.counters {
        header.extend(STAT_SUFFIXES.iter().map(|x| format!("{c}_{x}")));
    }
    // The group's b and the theory figures harness also writes per run (runs.csv's
    // `branching` of a uniform tree, `pearl_r`, `nodes_over_*`) are always `theory_`-named, so
    // summary.csv has the same columns for every game; any other column runs.csv already has
    // keeps its name and ours gets `theory_`.
    header.extend(THEORY_COLUMNS.iter().chain(&GROWTH_COLUMNS).map(|x| {
        if ALWAYS_THEORY_NAMED.contains(x) || s.counters.iter().chain(&s.params).any(|c| c == x) {
            format!("theory_{x}")
        } else {
            x.to_string()
        }
    }));
    header.extend(s.iterations.iter().map(|c| format!("{c}_mean")));
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(&header);
    let opt = |v: Option<f64>| v.map(fmt_num).unwrap_or_default();
    let growth = growth(s);
    for (g, growth) in s.groups.iter().zip(growth) {
        let mut rec = g.key.clone();
        rec.push(g.rows.len().to_string());
        rec.push(g.positions.to_string());
        rec.push(g.budget.to_string());
        for st in &g.stats {
            match st {
                Some(st) => {
                    rec.push(fmt_num(st.mean));
                    rec.push(fmt_num(st.median));
                    rec.push(opt(st.geomean));
                    rec.push(fmt_num(st.min));
                    rec.push(fmt_num(st.max));
                    rec.push(opt(st.ci95.map(|c| c.0)));
                    rec.push(opt(st.ci95.map(|c| c.1)));
                }
                None => rec.extend(std::iter::repeat_n(String::new(), STAT_SUFFIXES.len())),
            }
        }
        match &g.theory {
            Some(th) => {
                let nodes = g.stat(s, "nodes").map(|x| x.mean);
                let ebf = g.stat(s, "ebf").map(|x| x.mean);
                rec.push(fmt_num(th.branching));
                rec.push(th.source.to_string());
                rec.push(fmt_num(th.full_nodes));
                rec.push(fmt_num(th.minimal_nodes));
                rec.push(fmt_num(th.pearl_r));
                rec.extend(th.ratios(nodes, ebf).map(opt));
            }
            None => rec.extend(std::iter::repeat_n(String::new(), THEORY_COLUMNS.len())),
        }
        rec.extend(growth.map(opt));
        rec.extend(g.iteration_means.iter().cloned());
        let _ = w.write_record(&rec);
    }
    w.into_inner().unwrap_or_default()
}
