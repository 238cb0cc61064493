//! Charts with plotters, each as SVG (vector, for papers) and PNG (1200 px wide, large type for
//! a paper's column width). Text is drawn with the embedded DejaVu Sans (no system font
//! library): [`register_font`] must run before drawing.
//!
//! What is drawn (`[report] charts`):
//! - `nodes`: mean nodes vs x on a log scale, one line per series, min-max bars over the
//!   group's positions and repetitions, and dashed theory lines: the full tree and Knuth and
//!   Moore's minimal tree for the group's b (see `summary` for where b comes from).
//! - `ebf`: mean effective branching factor nodes^(1/max_ply) vs x, min-max bars, and Pearl's
//!   R*(b) dashed.
//! - `ratio-to-minimal`: nodes / minimal tree (the nodes point and min-max bars, each over the
//!   group's minimal tree; log scale when they span more than a factor 30), with a dashed line
//!   at 1.
//! - `nodes-vs-table`: mean nodes vs the transposition-table size column (log x).
//!
//! Every parameter that varies and is neither the x axis, a series column nor a facet column
//! is added to the series, so no chart averages over a parameter silently. The legend sits
//! below the plot, never over data.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::summary::{cmp_values, fmt_num, Group, Summary, BRANCHING_COLUMN};
use super::table::numeric;
use crate::error::{Error, Result};
use crate::experiment::config::{ChartKind, PointStat, TheoryKind, Whiskers, XScale};

/// The embedded font (DejaVu Sans; licence in assets/fonts/DejaVuSans-LICENSE.txt).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

/// Registers the embedded font as plotters' `sans-serif` (idempotent).
pub fn register_font() -> Result<()> {
    static DONE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *DONE
        .get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err(Error::Internal("the embedded font does not load".into()))
    }
}

/// The label of the dashed line of runs without a table on a table-size axis.
pub const NO_TABLE: &str = "no table";

/// Columns that hold a transposition-table size, for `nodes-vs-table` (first one present).
pub const TABLE_SIZE_COLUMNS: [&str; 4] = ["tt_entries", "tt_size", "tt_bits", "table_entries"];

/// The resolved `[report]` settings.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub charts: Vec<ChartKind>,
    /// Whether `charts` was given (then charts the data cannot support are reported missing).
    pub charts_given: bool,
    pub x: String,
    pub series: Vec<String>,
    pub facet: Vec<String>,
    /// Columns the charts average over (blanked before grouping; see `report::build`).
    pub pool: Vec<String>,
    pub x_scale: Option<XScale>,
    /// Every run searched to the end of the game (`depth = "full"`): the depth column is the
    /// plies left from each position.
    pub full_depth: bool,
    pub title: Option<String>,
    pub titles: BTreeMap<ChartKind, String>,
    pub theory: Vec<TheoryKind>,
    /// The statistic a point shows (`[report] point`).
    pub point: PointStat,
    pub whiskers: Whiskers,
    /// Legend names of series labels (`[report] labels`).
    pub labels: BTreeMap<String, String>,
    /// Values of grid columns in the order the experiment file lists them
    /// (`ExperimentFile::listed_values`): categories, series and facets follow it.
    pub order: BTreeMap<String, Vec<String>>,
}

impl Layout {
    /// Compares two values of `col`: in the order the experiment lists them, values it does
    /// not list after those it does and among themselves by `other`.
    fn cmp_in(
        &self,
        col: &str,
        a: &str,
        b: &str,
        other: fn(&str, &str) -> std::cmp::Ordering,
    ) -> std::cmp::Ordering {
        let rank = |v: &str| {
            self.order
                .get(col)
                .and_then(|l| l.iter().position(|x| x == v))
        };
        match (rank(a), rank(b)) {
            (Some(i), Some(j)) => i.cmp(&j),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => other(a, b),
        }
    }

    /// Series keys (values of `cols`) compared column by column, each in listed order, else
    /// numbers as numbers.
    pub fn cmp_keys(&self, cols: &[String], a: &[String], b: &[String]) -> std::cmp::Ordering {
        cols.iter()
            .zip(a.iter().zip(b))
            .map(|(c, (x, y))| self.cmp_in(c, x, y, cmp_values))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    }
}

/// One plotted point: the mean and its min-max range.
#[derive(Clone, Debug)]
pub struct Point {
    pub x: f64,
    pub x_label: String,
    pub y: f64,
    pub lo: f64,
    pub hi: f64,
    /// Some run of the point's group stopped at a budget: the mean is a lower bound. Drawn
    /// apart from the line (a floor bar with an up arrow), never joined to it.
    pub budget: bool,
    /// A share chart's point: the runs its share counts (those with a value in the share's
    /// column: for bm-hit, the finished searches) and the runs of its group.
    pub counted: Option<(usize, usize)>,
}

#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    /// The series columns' values (for ordering the legend).
    pub key: Vec<String>,
    pub points: Vec<Point>,
    /// Colour and marker index: the same series has the same look in every chart and facet
    /// of the experiment (see `assign_styles`).
    pub style: usize,
}

/// One chart, ready to draw (and to tabulate in report.md).
#[derive(Clone, Debug)]
pub struct Chart {
    pub kind: ChartKind,
    /// File name without extension, unique in charts/.
    pub stem: String,
    pub title: String,
    pub facet: String,
    pub x_title: String,
    pub y_title: String,
    pub series: Vec<Series>,
    /// Dashed lines (theory).
    pub theory: Vec<Series>,
    pub log_x: bool,
    pub log_y: bool,
    /// Min-max whiskers drawn (`[report] whiskers`); the table in report.md has min and max
    /// either way.
    pub whiskers: bool,
    /// Category labels when x is not numeric (x = index).
    pub categories: Option<Vec<String>>,
    /// The column names on the x axis and in the series labels, for report.md.
    pub x_column: String,
    pub series_columns: Vec<String>,
    /// A share chart's groups whose every run a budget stopped, as `series at x = value`:
    /// they have no point.
    pub all_stopped: Vec<String>,
}

fn varying(s: &Summary, col: &str) -> bool {
    let Some(i) = s.params.iter().position(|c| c == col) else {
        return false;
    };
    s.groups.iter().any(|g| g.key[i] != s.groups[0].key[i])
}

fn label_of(s: &Summary, g: &Group, cols: &[String], with_names: bool) -> String {
    cols.iter()
        .filter_map(|c| {
            let v = g.param(s, c).unwrap_or("");
            if with_names {
                let v = if v.is_empty() { "none" } else { v };
                Some(format!("{c}={v}"))
            } else if v.is_empty() {
                // Not set for this group (the variant of minimax): nothing to tell apart.
                None
            } else if matches!(v, "true" | "false" | "on" | "off")
                || numeric(v).is_some()
                || v.contains(',')
            {
                // A bare number, true/false or on/off says nothing without its column; a
                // value with a comma (`on,promotions`) would blur into the `, ` between columns.
                Some(format!("{c}={v}"))
            } else {
                Some(v.to_string())
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn key_of(s: &Summary, g: &Group, cols: &[String]) -> Vec<String> {
    cols.iter()
        .map(|c| g.param(s, c).unwrap_or("").to_string())
        .collect()
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Orders category labels with their numbers compared as numbers (`strong:0:0` before
/// `strong:0.1:0.1` before `strong:1:1`).
fn cmp_natural(a: &str, b: &str) -> std::cmp::Ordering {
    fn parts(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut num = None;
        for (i, ch) in s.char_indices() {
            let d = ch.is_ascii_digit() || (ch == '.' && num == Some(true));
            if num != Some(d) {
                if i > start {
                    out.push((num == Some(true), &s[start..i]));
                }
                start = i;
                num = Some(d);
            }
        }
        if start < s.len() {
            out.push((num == Some(true), &s[start..]));
        }
        out
    }
    if numeric(a).is_some() && numeric(b).is_some() {
        return cmp_values(a, b);
    }
    let (pa, pb) = (parts(a), parts(b));
    for (x, y) in pa.iter().zip(&pb) {
        let o = match (x, y) {
            ((true, u), (true, v)) => cmp_values(u, v),
            ((_, u), (_, v)) => u.cmp(v),
        };
        if o.is_ne() {
            return o;
        }
    }
    pa.len().cmp(&pb.len()).then_with(|| a.cmp(b))
}

/// Units of the x axis title for the columns harness writes. `full_depth`: the depth column
/// holds the plies left to the end of each position.
fn x_title(col: &str, log_x: bool, full_depth: bool) -> String {
    if col == "depth" && full_depth {
        return "plies to the end (depth = full)".into();
    }
    let unit = match col {
        "depth" => Some("plies"),
        "tt_bits" => Some("log2 of table entries"),
        c if TABLE_SIZE_COLUMNS.contains(&c) => Some("table entries"),
        "tt_key_bits" => Some("hash-key bits stored"),
        "tt_bytes" => Some("bytes"),
        "height" => Some("plies"),
        _ => None,
    };
    let name = if col == "depth" { "search depth" } else { col };
    match (unit, log_x) {
        (Some(u), true) => format!("{name} ({u}, log scale)"),
        (Some(u), false) => format!("{name} ({u})"),
        (None, true) => format!("{name} (log scale)"),
        (None, false) => name.to_string(),
    }
}

/// Builds the charts the layout asks for. Charts the data cannot support are left out (the
/// caller lists them in report.md).
pub fn plan_charts(s: &Summary, layout: &Layout) -> (Vec<Chart>, Vec<String>) {
    let mut charts = Vec::new();
    let mut skipped = Vec::new();
    let has_theory = s.groups.iter().any(|g| g.theory.is_some());
    // A table-size axis needs two sizes at least (runs without a table have an empty size).
    let table_col = TABLE_SIZE_COLUMNS
        .iter()
        .find(|c| {
            let Some(i) = s.params.iter().position(|p| p == *c) else {
                return false;
            };
            let mut sizes: Vec<&str> = s
                .groups
                .iter()
                .map(|g| g.key[i].as_str())
                .filter(|v| numeric(v).is_some())
                .collect();
            sizes.sort();
            sizes.dedup();
            sizes.len() >= 2
        })
        .map(|c| c.to_string());
    for &kind in &layout.charts {
        let x = match kind {
            ChartKind::NodesVsTable => match &table_col {
                Some(c) => c.clone(),
                None => {
                    skipped.push(format!(
                        "`{}`: runs.csv has no table-size column with two sizes or more ({})",
                        kind.name(),
                        TABLE_SIZE_COLUMNS.join(", ")
                    ));
                    continue;
                }
            },
            _ => layout.x.clone(),
        };
        if kind == ChartKind::RatioToMinimal
            && !has_theory
            && layout.pool.iter().any(|p| p == "depth")
        {
            skipped.push(format!(
                "`{}`: the charts pool over depth, and a minimal tree is for one depth; summary.csv has `theory_nodes_over_minimal` per group, unpooled",
                kind.name()
            ));
            continue;
        }
        if kind == ChartKind::RatioToMinimal && !has_theory {
            skipped.push(format!(
                "`{}`: no group has a known branching factor (no `branching` column and no minimax/negamax run on the same positions and depth)",
                kind.name()
            ));
            continue;
        }
        if kind == ChartKind::Qnodes
            && !s
                .groups
                .iter()
                .any(|g| g.stat(s, "qnodes").is_some_and(|st| st.max > 0.0))
        {
            skipped.push(format!(
                "`{}`: no run entered a quiescence node (qnodes is 0 or missing)",
                kind.name()
            ));
            continue;
        }
        if let Some(col) = kind.share_column() {
            if !s.groups.iter().any(|g| g.stat(s, col).is_some()) {
                let who = if kind == ChartKind::BmHit {
                    "finished searches of positions with an EPD `bm` or `am` have one"
                } else {
                    "runs with a table and `[search.tt] reference = true` have one"
                };
                skipped.push(format!("`{}`: no run has a {col} ({who})", kind.name()));
                continue;
            }
        }
        if kind == ChartKind::Ebf && !s.counters.iter().any(|c| c == "ebf") {
            skipped.push(format!("`{}`: runs.csv has no ebf column", kind.name()));
            continue;
        }
        // Series: the named ones, then every other varying parameter.
        let mut series: Vec<String> = layout
            .series
            .iter()
            .filter(|c| **c != x && !layout.facet.contains(c) && varying(s, c))
            .cloned()
            .collect();
        for p in &s.params {
            // A parameter that is a function of x and the columns already chosen (tt_bytes of
            // tt_entries, tt_replacement of tt, variant of algorithm) splits nothing.
            let mut known: Vec<String> = vec![x.clone()];
            known.extend(layout.facet.iter().cloned());
            known.extend(series.iter().cloned());
            if *p != x
                && !layout.facet.contains(p)
                && !series.contains(p)
                && varying(s, p)
                && !determined_by(s, p, &known)
            {
                series.push(p.clone());
            }
        }
        // Then drop an added column that the others determine after all (tt of tt_bounds,
        // when tt_bounds is empty exactly when tt is off).
        let named = series.iter().filter(|c| layout.series.contains(c)).count();
        let mut i = named;
        while i < series.len() {
            let mut others: Vec<String> = vec![x.clone()];
            others.extend(layout.facet.iter().cloned());
            others.extend(
                series
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, c)| c.clone()),
            );
            if determined_by(s, &series[i], &others) {
                series.remove(i);
            } else {
                i += 1;
            }
        }
        // Facets: one chart per distinct value tuple, in listed order.
        let mut facets: Vec<(String, Vec<String>, Vec<&Group>)> = Vec::new();
        for g in &s.groups {
            let f = label_of(s, g, &layout.facet, true);
            match facets.iter_mut().find(|(k, _, _)| *k == f) {
                Some((_, _, v)) => v.push(g),
                None => facets.push((f, key_of(s, g, &layout.facet), vec![g])),
            }
        }
        facets.sort_by(|a, b| layout.cmp_keys(&layout.facet, &a.1, &b.1));
        for (facet, _, groups) in facets {
            if let Some(c) = chart_for(s, layout, kind, &x, &series, &facet, &groups) {
                charts.push(c);
            }
        }
    }
    assign_styles(&mut charts, layout);
    // Facets of one figure share the ratio axis's scale: log for all when one needs it.
    if charts
        .iter()
        .any(|c| c.kind == ChartKind::RatioToMinimal && c.log_y)
    {
        for c in &mut charts {
            if c.kind == ChartKind::RatioToMinimal && !c.log_y {
                c.log_y = true;
                c.y_title = ratio_y_title(layout.point, true);
            }
        }
    }
    (charts, skipped)
}

/// Gives every series its colour and marker: one index per series label among the charts
/// with the same series columns, in legend order over all of them. A series keeps its look
/// from chart to chart and facet to facet (a chart that leaves one out, as `qnodes` leaves out
/// runs without quiescence, does not shift the others).
fn assign_styles(charts: &mut [Chart], layout: &Layout) {
    /// A series' identity: its key and label.
    type Id = (Vec<String>, String);
    let mut sets: Vec<(Vec<String>, Vec<Id>)> = Vec::new();
    for c in charts.iter() {
        let i = match sets.iter().position(|(cols, _)| *cols == c.series_columns) {
            Some(i) => i,
            None => {
                sets.push((c.series_columns.clone(), Vec::new()));
                sets.len() - 1
            }
        };
        for s in &c.series {
            let id = (s.key.clone(), s.label.clone());
            if !sets[i].1.contains(&id) {
                sets[i].1.push(id);
            }
        }
    }
    for (cols, ids) in &mut sets {
        ids.sort_by(|a, b| {
            layout
                .cmp_keys(cols, &a.0, &b.0)
                .then_with(|| a.1.cmp(&b.1))
        });
    }
    for c in charts.iter_mut() {
        let (_, ids) = sets
            .iter()
            .find(|(cols, _)| *cols == c.series_columns)
            .expect("collected above");
        for s in &mut c.series {
            s.style = ids
                .iter()
                .position(|(k, l)| *k == s.key && *l == s.label)
                .expect("collected above");
        }
    }
}

fn ratio_y_title(point: PointStat, log_y: bool) -> String {
    let scale = if log_y { " (log scale)" } else { "" };
    format!("{} nodes / minimal-tree nodes{scale}", stat_words(point))
}

/// The statistic a point shows, in the words of an axis title.
fn stat_words(point: PointStat) -> &'static str {
    match point {
        PointStat::Mean => "mean",
        PointStat::Geomean => "geometric mean of",
        PointStat::Median => "median",
    }
}

/// True when every group with the same values of `cols` has the same value of `p`.
fn determined_by(s: &Summary, p: &str, cols: &[String]) -> bool {
    let (xc, pc) = (cols, [p.to_string()]);
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for g in &s.groups {
        let pv = label_of(s, g, &pc, true);
        if let Some(old) = seen.insert(label_of(s, g, xc, true), pv.clone()) {
            if old != pv {
                return false;
            }
        }
    }
    true
}

#[allow(clippy::too_many_arguments)]
fn chart_for(
    s: &Summary,
    layout: &Layout,
    kind: ChartKind,
    x: &str,
    series_cols: &[String],
    facet: &str,
    groups: &[&Group],
) -> Option<Chart> {
    // The x values of this facet.
    // The point (`[report] point`; a geometric mean of a group with a 0 falls back to its
    // median) and its whiskers.
    let point = |st: &crate::report::stats::Stats| -> (f64, f64, f64) {
        let y = match layout.point {
            PointStat::Mean => st.mean,
            PointStat::Geomean => st.geomean.unwrap_or(st.median),
            PointStat::Median => st.median,
        };
        (y, st.min, st.max)
    };
    let y_of = |g: &Group| -> Option<(f64, f64, f64)> {
        match kind {
            ChartKind::Nodes | ChartKind::NodesVsTable => g.stat(s, "nodes").map(point),
            ChartKind::Ebf => g.stat(s, "ebf").map(point),
            ChartKind::ValueWrong | ChartKind::MoveWrong | ChartKind::BmHit => {
                // A share of runs: the mean of a 0/1 column, in percent.
                let col = kind.share_column().expect("a share chart");
                g.stat(s, col).map(|st| {
                    let p = 100.0 * st.mean;
                    (p, p, p)
                })
            }
            ChartKind::Qnodes => g.stat(s, "qnodes").filter(|st| st.max > 0.0).map(point),
            ChartKind::RatioToMinimal => {
                let th = g.theory.as_ref()?;
                // The nodes point and whiskers, each over the group's one minimal tree.
                let (y, lo, hi) = point(g.stat(s, "nodes")?);
                let m = th.minimal_nodes;
                Some((y / m, lo / m, hi / m))
            }
        }
    };
    // On a table-size axis, runs without a table (empty size) become a dashed reference line.
    let no_table = |g: &Group| kind == ChartKind::NodesVsTable && g.param(s, x) == Some("");
    let mut xs: Vec<String> = groups
        .iter()
        .filter(|g| !no_table(g) && y_of(g).is_some())
        .map(|g| g.param(s, x).unwrap_or("").to_string())
        .collect();
    xs.sort_by(|a, b| layout.cmp_in(x, a, b, cmp_natural));
    xs.dedup();
    let numeric_x =
        xs.iter().all(|v| numeric(v).is_some()) && layout.x_scale != Some(XScale::Category);
    let xpos = |v: &str| -> f64 {
        if numeric_x {
            numeric(v).unwrap_or(0.0)
        } else {
            xs.iter().position(|c| c == v).unwrap_or(0) as f64
        }
    };
    let mut series: Vec<Series> = Vec::new();
    let mut reference: Vec<Series> = Vec::new();
    let series_label = |g: &Group| -> String {
        let label = if series_cols.is_empty() {
            "all runs".to_string()
        } else {
            match label_of(s, g, series_cols, false) {
                // Every series column empty for this group (no table): name them.
                l if l.is_empty() => label_of(s, g, series_cols, true),
                l => l,
            }
        };
        layout.labels.get(&label).cloned().unwrap_or(label)
    };
    // A share chart has no point for a group whose every search a budget stopped (none
    // chose a move or has a value): report.md names such groups.
    let all_stopped: Vec<String> = groups
        .iter()
        .filter(|g| kind.share_column().is_some() && g.budget > 0 && g.budget == g.rows.len())
        .map(|g| {
            format!(
                "{} at {x} = {}",
                series_label(g),
                g.param(s, x).unwrap_or("")
            )
        })
        .collect();
    for g in groups {
        let Some((y, lo, hi)) = y_of(g) else { continue };
        if no_table(g) {
            // Label by the series columns that have a value without a table (ordering, say).
            let cols: Vec<String> = series_cols
                .iter()
                .filter(|c| g.param(s, c).is_some_and(|v| !v.is_empty()))
                .cloned()
                .collect();
            let label = if cols.is_empty() {
                NO_TABLE.to_string()
            } else {
                format!("{NO_TABLE}: {}", label_of(s, g, &cols, false))
            };
            if !reference.iter().any(|r| r.label == label) {
                reference.push(Series {
                    label,
                    key: key_of(s, g, series_cols),
                    // One point (drawn across the chart) at a size that is on the axis.
                    points: vec![Point {
                        x: xs.first().map_or(1.0, |v| xpos(v)),
                        x_label: "any size".into(),
                        y,
                        lo: y,
                        hi: y,
                        budget: g.budget > 0,
                        counted: None,
                    }],
                    style: 0,
                });
            }
            continue;
        }
        let label = series_label(g);
        let xv = g.param(s, x).unwrap_or("").to_string();
        let p = Point {
            x: xpos(&xv),
            x_label: if xv.is_empty() { "none".into() } else { xv },
            y,
            lo,
            hi,
            // A share is of the finished searches only (a budget-stopped one has no value or
            // move), not a lower bound: no budget mark; the runs it counts go with it.
            budget: g.budget > 0 && kind.share_column().is_none(),
            counted: kind
                .share_column()
                .and_then(|c| g.stat(s, c))
                .map(|st| (st.n, g.rows.len())),
        };
        match series.iter_mut().find(|q| q.label == label) {
            Some(q) => q.points.push(p),
            None => series.push(Series {
                label,
                key: key_of(s, g, series_cols),
                points: vec![p],
                style: 0,
            }),
        }
    }
    if series.is_empty() {
        return None;
    }
    series.sort_by(|a, b| layout.cmp_keys(series_cols, &a.key, &b.key));
    for q in &mut series {
        q.points.sort_by(|a, b| a.x.total_cmp(&b.x));
    }
    // Theory lines, keyed by the series label when the theory differs between series at the
    // same x, else one line for the chart.
    let mut theory: Vec<Series> = Vec::new();
    let wanted = |t: TheoryKind| layout.theory.contains(&t);
    // Where b is fitted (the uniform tree as big as minimax's), the legend says so: such a
    // tree's minimal tree is no lower bound for a real game's search.
    let fitted = groups.iter().any(|g| {
        g.theory
            .as_ref()
            .is_some_and(|t| t.source != BRANCHING_COLUMN)
    });
    let of_b = if fitted {
        ", b fitted to minimax/negamax"
    } else {
        ""
    };
    let lines: Vec<(TheoryKind, String)> = match kind {
        ChartKind::Nodes | ChartKind::NodesVsTable => vec![
            (
                TheoryKind::FullTree,
                format!("full tree (Σ b^k, k = 0..d{of_b})"),
            ),
            (
                TheoryKind::KnuthMoore,
                format!("minimal tree (Knuth-Moore, all levels{of_b})"),
            ),
        ],
        ChartKind::Ebf => vec![(
            TheoryKind::Pearl,
            format!("Pearl R*(b): random order, asymptotic{of_b}"),
        )],
        ChartKind::RatioToMinimal
        | ChartKind::Qnodes
        | ChartKind::ValueWrong
        | ChartKind::MoveWrong
        | ChartKind::BmHit => vec![],
    };
    for (tk, name) in lines {
        let name = name.as_str();
        if !wanted(tk) {
            continue;
        }
        let value = |g: &Group| {
            g.theory.as_ref().map(|t| match tk {
                TheoryKind::FullTree => t.full_nodes,
                TheoryKind::KnuthMoore => t.minimal_nodes,
                TheoryKind::Pearl => t.pearl_r,
            })
        };
        // Theory depends on the tree only: label its lines by the series columns that name the
        // tree (game and game options), not by orderings or algorithms.
        let tree_cols: Vec<String> = series_cols
            .iter()
            .filter(|c| {
                *c == "game" || crate::experiment::plan::OPTION_COLUMNS.contains(&c.as_str())
            })
            .cloned()
            .collect();
        let tree_cols = if tree_cols.is_empty() {
            series_cols.to_vec()
        } else {
            tree_cols
        };
        // Distinct values per x.
        let mut per_x: BTreeMap<u64, Vec<(f64, String, String)>> = BTreeMap::new();
        for g in groups {
            if let Some(v) = value(g) {
                let xv = g.param(s, x).unwrap_or("").to_string();
                let lbl = if series_cols.is_empty() {
                    String::new()
                } else {
                    label_of(s, g, &tree_cols, false)
                };
                per_x
                    .entry(xpos(&xv).to_bits())
                    .or_default()
                    .push((v, xv, lbl));
            }
        }
        let single = per_x.values().all(|vs| {
            vs.iter()
                .all(|(v, _, _)| (v - vs[0].0).abs() <= 1e-9 * vs[0].0.abs())
        });
        let mut out: Vec<Series> = Vec::new();
        for vs in per_x.values() {
            for (i, (v, xv, lbl)) in vs.iter().enumerate() {
                if single && i > 0 {
                    break;
                }
                let label = if single {
                    name.to_string()
                } else {
                    format!("{name}: {lbl}")
                };
                let p = Point {
                    x: xpos(xv),
                    x_label: xv.clone(),
                    y: *v,
                    lo: *v,
                    hi: *v,
                    budget: false,
                    counted: None,
                };
                match out.iter_mut().find(|q| q.label == label) {
                    Some(q) => {
                        if !q.points.iter().any(|o| o.x == p.x) {
                            q.points.push(p)
                        }
                    }
                    None => out.push(Series {
                        label,
                        key: vec![],
                        points: vec![p],
                        style: 0,
                    }),
                }
            }
        }
        theory.extend(out);
    }
    reference.sort_by(|a, b| layout.cmp_keys(series_cols, &a.key, &b.key));
    theory.extend(reference);
    if kind == ChartKind::RatioToMinimal && wanted(TheoryKind::KnuthMoore) {
        let pts: Vec<Point> = xs
            .iter()
            .map(|xv| Point {
                x: xpos(xv),
                x_label: xv.clone(),
                y: 1.0,
                lo: 1.0,
                hi: 1.0,
                budget: false,
                counted: None,
            })
            .collect();
        theory.push(Series {
            label: format!("minimal tree (ratio 1{of_b})"),
            key: vec![],
            points: pts,
            style: 0,
        });
    }
    let (ymin, ymax) = series
        .iter()
        .flat_map(|q| q.points.iter().map(|p| (p.lo, p.hi)))
        .fold((f64::INFINITY, 0.0f64), |(a, b), (lo, hi)| {
            (a.min(lo), b.max(hi))
        });
    let log_y = match kind {
        ChartKind::Nodes | ChartKind::NodesVsTable | ChartKind::Qnodes => true,
        ChartKind::Ebf | ChartKind::ValueWrong | ChartKind::MoveWrong | ChartKind::BmHit => false,
        ChartKind::RatioToMinimal => ymin > 0.0 && ymax / ymin > 30.0,
    };
    // Table sizes (powers of two) go on a log axis in every chart, not in nodes-vs-table only.
    let size_axis = kind == ChartKind::NodesVsTable || TABLE_SIZE_COLUMNS.contains(&x);
    let log_x = (size_axis || layout.x_scale == Some(XScale::Log))
        && layout.x_scale != Some(XScale::Linear)
        && numeric_x
        && xs.iter().all(|v| numeric(v).unwrap_or(0.0) > 0.0);
    let default_title = match kind {
        ChartKind::Nodes => "Nodes searched",
        ChartKind::Ebf => "Effective branching factor",
        ChartKind::RatioToMinimal => "Nodes relative to the minimal tree",
        ChartKind::NodesVsTable => "Nodes vs transposition-table size",
        ChartKind::Qnodes => "Quiescence nodes",
        ChartKind::ValueWrong => "Wrong root values",
        ChartKind::MoveWrong => "Wrong moves",
        ChartKind::BmHit => "Best moves found",
    };
    let mut title = layout
        .titles
        .get(&kind)
        .cloned()
        .unwrap_or_else(|| default_title.to_string());
    if let Some(t) = &layout.title {
        title = format!("{t}: {title}");
    }
    let y_title = match kind {
        ChartKind::Nodes | ChartKind::NodesVsTable => {
            if groups
                .iter()
                .any(|g| g.stat(s, "qnodes").is_some_and(|st| st.max > 0.0))
            {
                // Quiescence nodes are counted apart (the qnodes chart).
                format!(
                    "{} main-search nodes (log scale, qnodes apart)",
                    stat_words(layout.point)
                )
            } else {
                format!(
                    "{} nodes (positions entered, log scale)",
                    stat_words(layout.point)
                )
            }
        }
        ChartKind::Ebf => format!(
            "{} effective branching factor nodes^(1/max_ply)",
            stat_words(layout.point)
        ),
        ChartKind::Qnodes => format!(
            "{} quiescence nodes (qnodes, log scale)",
            stat_words(layout.point)
        ),
        ChartKind::ValueWrong => "runs whose root value is wrong (%)".into(),
        ChartKind::MoveWrong => "runs whose move is worse than the best (%)".into(),
        ChartKind::BmHit => "finished searches choosing the suite's best move (%)".into(),
        ChartKind::RatioToMinimal => ratio_y_title(layout.point, log_y),
    };
    let stem = if facet.is_empty() {
        kind.name().to_string()
    } else {
        format!("{}-{}", kind.name(), slug(facet))
    };
    Some(Chart {
        kind,
        stem,
        title,
        facet: facet.to_string(),
        x_title: x_title(x, log_x, layout.full_depth),
        y_title,
        series,
        theory,
        log_x,
        log_y,
        whiskers: layout.whiskers == Whiskers::MinMax,
        categories: (!numeric_x).then(|| {
            xs.iter()
                .map(|v| {
                    if v.is_empty() {
                        "none".into()
                    } else {
                        v.clone()
                    }
                })
                .collect()
        }),
        x_column: x.to_string(),
        series_columns: series_cols.to_vec(),
        all_stopped,
    })
}

// ---------------------------------------------------------------------------------------
// Drawing

/// Okabe-Ito colours (distinguishable with colour-blindness) without the pale yellow, then
/// Paul Tol's darker muted ones: 13 before a colour repeats (markers differ meanwhile).
const PALETTE: [RGBColor; 13] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(136, 34, 85),
    RGBColor(68, 170, 153),
    RGBColor(153, 153, 51),
    RGBColor(51, 34, 136),
    RGBColor(170, 68, 153),
    RGBColor(102, 17, 0),
];
/// The colour and dash (length, gap in pixels) of dashed line `i`: the first three differ in
/// both grey and dash (the full and the minimal tree must not look alike where they run close),
/// and the nine pairs of three greys and three dashes all look different.
fn dashed_style(i: usize) -> (RGBColor, (u32, u32)) {
    const DASHES: [(u32, u32); 3] = [(14, 9), (5, 6), (30, 8)];
    let n = THEORY_COLORS.len();
    (THEORY_COLORS[i % n], DASHES[(i % n + i / n) % DASHES.len()])
}

const THEORY_COLORS: [RGBColor; 3] = [
    RGBColor(80, 80, 80),
    RGBColor(0, 0, 0),
    RGBColor(150, 150, 150),
];

pub const WIDTH: u32 = 1200;
pub const PLOT_HEIGHT: u32 = 800;
const TITLE_PX: u32 = 38;
const AXIS_PX: u32 = 32;
const TICK_PX: u32 = 28;
const LEGEND_PX: u32 = 28;
const LEGEND_ROW: u32 = 44;
const SWATCH: u32 = 64;

fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Series `i`'s marker: one of six shapes (circle, triangle up, square, diamond, triangle
/// down, star), filled for the first six series and hollow (outlined) for the next six, drawn
/// in the plot and the legend alike: twelve series before a marker repeats, and colours repeat
/// only after thirteen, so no two series of a chart look alike. Returns the shape and whether
/// it is filled.
fn marker_kind(i: usize) -> (usize, bool) {
    (i % 6, (i / 6).is_multiple_of(2))
}

const MARKER_SIZE: i32 = 9;

struct LegendEntry {
    label: String,
    color: RGBColor,
    /// Dash length and gap of a dashed line's swatch.
    dashed: Option<(u32, u32)>,
    marker: Option<usize>,
    /// The budget mark (a floor bar with an up arrow).
    budget: bool,
}

/// The legend text of the budget mark.
pub const BUDGET_LABEL: &str = "≥ budget hit (lower bound)";

fn legend_entries(c: &Chart) -> Vec<LegendEntry> {
    let mut v: Vec<LegendEntry> = c
        .series
        .iter()
        .map(|s| LegendEntry {
            label: s.label.clone(),
            color: color(s.style),
            dashed: None,
            marker: Some(s.style),
            budget: false,
        })
        .collect();
    v.extend(c.theory.iter().enumerate().map(|(i, s)| LegendEntry {
        label: s.label.clone(),
        color: dashed_style(i).0,
        dashed: Some(dashed_style(i).1),
        marker: None,
        budget: false,
    }));
    if c.series.iter().flat_map(|s| &s.points).any(|p| p.budget) {
        v.push(LegendEntry {
            label: BUDGET_LABEL.into(),
            color: RGBColor(0, 0, 0),
            dashed: None,
            marker: None,
            budget: true,
        });
    }
    v
}

/// Where the legend's entries go: columns of `col_w` pixels, `span` pixels wide in all (the
/// columns, or a wider entry's own row), text at `px`, and each entry's (row, column), rows
/// counted from 0 below the heading.
struct LegendLayout {
    col_w: u32,
    span: u32,
    px: u32,
    cells: Vec<(u32, u32)>,
}

impl LegendLayout {
    fn rows(&self) -> u32 {
        self.cells.last().map_or(0, |&(r, _)| r + 1)
    }
}

/// Legend layout from the text widths. The columns are as wide as the widest series label
/// (theory lines and the budget mark too when there are no series), so a long theory label
/// does not force one column on a chart of many short series: an entry wider than a column
/// gets a row of its own, and the entries after it start a new row. Labels too wide for the
/// canvas at the usual size get a smaller type (down to 20 px), never clipped.
fn legend_layout<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
) -> LegendLayout {
    let full = WIDTH - 40;
    let mut px = LEGEND_PX;
    loop {
        let style = TextStyle::from((FAMILY, px).into_font());
        let widths: Vec<u32> = entries
            .iter()
            .map(|e| {
                let text = root
                    .estimate_text_size(&e.label, &style)
                    .map(|(w, _)| w)
                    .unwrap_or(e.label.chars().count() as u32 * px * 6 / 10);
                SWATCH + 16 + text + 40
            })
            .collect();
        let widest = widths.iter().copied().max().unwrap_or(0);
        if widest > full && px > 20 {
            px -= 2;
            continue;
        }
        let series = entries.iter().any(|e| e.marker.is_some());
        let col_w = entries
            .iter()
            .zip(&widths)
            .filter(|(e, _)| !series || e.marker.is_some())
            .map(|(_, &w)| w)
            .max()
            .unwrap_or(0)
            .min(full);
        let cols = (full / col_w.max(1)).clamp(1, entries.len().max(1) as u32);
        let mut cells = Vec::with_capacity(entries.len());
        let (mut row, mut col) = (0, 0);
        for &w in &widths {
            if w > col_w {
                // A row of its own.
                if col > 0 {
                    row += 1;
                }
                cells.push((row, 0));
                (row, col) = (row + 1, 0);
            } else {
                cells.push((row, col));
                col += 1;
                if col == cols {
                    (row, col) = (row + 1, 0);
                }
            }
        }
        return LegendLayout {
            col_w,
            span: (cols * col_w).max(widest.min(full)),
            px,
            cells,
        };
    }
}

/// Category labels that would run into each other side by side are written vertically: then
/// the widest label's length in pixels, else `None`.
fn vertical_labels<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Chart) -> Option<u32> {
    let cats = c.categories.as_ref()?;
    let tick_style = TextStyle::from((FAMILY, TICK_PX).into_font());
    let widest = cats
        .iter()
        .map(|l| {
            root.estimate_text_size(l, &tick_style)
                .map(|(w, _)| w)
                .unwrap_or(0)
        })
        .max()
        .unwrap_or(0);
    let n = cats.len() as u32;
    (n > 0 && (widest + 24) * n > WIDTH - 200).then_some(widest)
}

/// Pixels of the x label area below the axis (tick labels and the axis title).
const X_LABEL_AREA: u32 = 85;

/// The x label area for `vertical` (`vertical_labels`): the usual one, or room for the widest
/// label written vertically plus the axis title.
fn x_label_area(vertical: Option<u32>) -> u32 {
    vertical.map_or(X_LABEL_AREA, |w| w + 75)
}

/// The height of the plot (title, axes, plot area), legend excluded: `PLOT_HEIGHT`, grown by
/// whatever vertical category labels need beyond the usual label area, so that long labels
/// never squeeze the plot area itself.
fn plot_height(vertical: Option<u32>) -> u32 {
    PLOT_HEIGHT + x_label_area(vertical).saturating_sub(X_LABEL_AREA)
}

/// The canvas height of a chart: the plot plus its legend.
pub fn canvas_height(c: &Chart) -> u32 {
    // Width estimates do not depend on the backend; use a throwaway SVG canvas.
    let mut sink = String::new();
    let root = SVGBackend::with_string(&mut sink, (WIDTH, PLOT_HEIGHT)).into_drawing_area();
    let rows = legend_layout(&root, &legend_entries(c)).rows();
    plot_height(vertical_labels(&root, c)) + (rows + 1) * LEGEND_ROW + 20
}

/// Labelled and grid-only ticks of a log axis over [lo, hi]: powers of 10 when they give at
/// least four labels, else 1-2-5 steps, else every integer multiple of a power of 10.
fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return (vec![], vec![]);
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let pick = |ms: &[f64]| -> Vec<f64> {
        (a..=b)
            .flat_map(|k| ms.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|v| *v >= lo && *v <= hi)
            .collect()
    };
    let all: Vec<f64> = (1..10).map(f64::from).collect();
    let mut bold = pick(&[1.0]);
    if bold.len() < 4 {
        bold = pick(&[1.0, 2.0, 5.0]);
    }
    if bold.len() < 4 {
        bold = pick(&all);
    }
    (bold, pick(&all))
}

/// Ticks of a log x axis: the data's own x values when there are few (table sizes 16, 256,
/// 4096 rather than 10, 100, 1000), else [`log_ticks`].
fn log_x_ticks(lo: f64, hi: f64, xs: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let (bold, light) = log_ticks(lo, hi);
    if xs.len() <= 12 && xs.iter().all(|x| *x > 0.0) {
        (xs.to_vec(), light)
    } else {
        (bold, light)
    }
}

/// Compact tick text: 1500 -> 1.5k, 2e6 -> 2M.
fn si(v: f64) -> String {
    let a = v.abs();
    let (d, suf) = if a >= 1e12 {
        (1e12, "T")
    } else if a >= 1e9 {
        (1e9, "G")
    } else if a >= 1e6 {
        (1e6, "M")
    } else if a >= 1e4 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    let x = v / d;
    let t = if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    format!("{t}{suf}")
}

/// The outline of marker `shape` (1 to 5) around (0, 0), in pixels (y down); shape 0, the
/// circle, has none.
fn marker_outline(shape: usize) -> Vec<(i32, i32)> {
    let r = MARKER_SIZE as f64;
    // Regular polygons by radius and the angle of their first vertex (degrees, 0 = up).
    let polygon = |n: usize, radius: f64, first: f64| -> Vec<(f64, f64)> {
        (0..n)
            .map(|k| {
                let a = (first + 360.0 * k as f64 / n as f64).to_radians();
                (radius * a.sin(), -radius * a.cos())
            })
            .collect()
    };
    let pts = match shape {
        1 => polygon(3, r + 3.0, 0.0),
        2 => polygon(4, r * std::f64::consts::SQRT_2, 45.0),
        3 => polygon(4, r + 3.0, 0.0),
        4 => polygon(3, r + 3.0, 180.0),
        _ => {
            // A five-pointed star: outer and inner vertices in turn.
            let outer = polygon(5, r + 4.0, 0.0);
            let inner = polygon(5, (r + 4.0) * 0.45, 36.0);
            outer
                .into_iter()
                .zip(inner)
                .flat_map(|(o, i)| [o, i])
                .collect()
        }
    };
    pts.into_iter()
        .map(|(x, y)| (x.round() as i32, y.round() as i32))
        .collect()
}

/// Draws series `i`'s marker at each point, on a chart (`chart`, data coordinates) or a
/// drawing area (`area`, pixels).
macro_rules! draw_markers {
    (@emit chart, $t:expr, $el:expr, $e:expr) => {
        $t.draw_series(std::iter::once($el)).map_err($e)?
    };
    (@emit area, $t:expr, $el:expr, $e:expr) => {
        $t.draw(&$el).map_err($e)?
    };
    ($mode:ident, $t:expr, $points:expr, $i:expr, $col:expr, $e:expr) => {{
        let (shape, filled) = marker_kind($i);
        let col: RGBColor = $col;
        for p in $points {
            match (shape, filled) {
                (0, true) => {
                    draw_markers!(@emit $mode, $t, Circle::new(p, MARKER_SIZE, col.filled()), $e);
                }
                (0, false) => {
                    let st = col.stroke_width(3);
                    draw_markers!(@emit $mode, $t, Circle::new(p, MARKER_SIZE, st), $e);
                }
                (_, true) => {
                    let el = EmptyElement::at(p) + Polygon::new(marker_outline(shape), col.filled());
                    draw_markers!(@emit $mode, $t, el, $e);
                }
                (_, false) => {
                    let mut ring = marker_outline(shape);
                    // Closed, and on to the second vertex so that the first corner joins.
                    ring.push(ring[0]);
                    ring.push(ring[1]);
                    let el = EmptyElement::at(p) + PathElement::new(ring, col.stroke_width(3));
                    draw_markers!(@emit $mode, $t, el, $e);
                }
            }
        }
    }};
}

fn draw_marker<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<DB, Cartesian2d<X, Y>>,
    pts: &[(f64, f64)],
    i: usize,
    col: RGBColor,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    draw_markers!(chart, chart, pts.iter().copied(), i, col, e);
    Ok(())
}

/// The budget mark at data point `$at`: a floor bar with an arrow rising from it (the mean is
/// a lower bound). No series marker (circle, triangle, square, diamond, filled or hollow) has
/// this shape, so a budget point is never read as a series' own point.
macro_rules! budget_element {
    ($at:expr, $col:expr) => {{
        let st = $col.stroke_width(3);
        EmptyElement::at($at)
            + PathElement::new(vec![(-12, 0), (12, 0)], $col.stroke_width(4))
            + PathElement::new(vec![(0, 0), (0, -34)], st)
            + PathElement::new(vec![(-8, -25), (0, -35), (8, -25)], st)
    }};
}

/// The budget mark in the legend, centred at `at`.
fn budget_mark<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    col: RGBColor,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let st = col.stroke_width(3);
    let (x, y) = at;
    area.draw(&PathElement::new(
        vec![(x - 10, y + 10), (x + 10, y + 10)],
        col.stroke_width(4),
    ))
    .map_err(e)?;
    area.draw(&PathElement::new(vec![(x, y + 10), (x, y - 19)], st))
        .map_err(e)?;
    area.draw(&PathElement::new(
        vec![(x - 6, y - 13), (x, y - 20), (x + 6, y - 13)],
        st,
    ))
    .map_err(e)?;
    Ok(())
}

fn legend_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    i: usize,
    col: RGBColor,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    draw_markers!(area, area, std::iter::once(at), i, col, e);
    Ok(())
}

/// Draws `c` on `root` (WIDTH x canvas_height).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let vertical = vertical_labels(root, c);
    let (plot, legend) = root.split_vertically(plot_height(vertical));
    let title = if c.facet.is_empty() {
        c.title.clone()
    } else {
        format!("{} ({})", c.title, c.facet)
    };

    // Ranges.
    let all = c.series.iter().chain(&c.theory).flat_map(|s| &s.points);
    let (mut xmin, mut xmax, mut ymin, mut ymax) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for p in all {
        xmin = xmin.min(p.x);
        xmax = xmax.max(p.x);
        let ys = if c.whiskers {
            [p.lo, p.hi, p.y]
        } else {
            [p.y; 3]
        };
        for y in ys {
            if !c.log_y || y > 0.0 {
                ymin = ymin.min(y);
                ymax = ymax.max(y);
            }
        }
    }
    if !ymin.is_finite() {
        ymin = 1.0;
        ymax = 10.0;
    }
    let mut xs: Vec<f64> = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.x))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let step = xs
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    let step = if step.is_finite() && step > 0.0 {
        step
    } else {
        1.0
    };
    let (x0, x1) = if c.log_x {
        (xmin / 1.6, xmax * 1.6)
    } else if xmin > 0.0 && xmin >= 0.2 * step {
        // A positive column gets no negative ticks, where that leaves room for the series
        // set side by side around its first x (at most 0.18 steps to the left).
        ((xmin - 0.6 * step).max(0.0), xmax + 0.6 * step)
    } else {
        (xmin - 0.6 * step, xmax + 0.6 * step)
    };
    // Room above for the up arrow of a budget mark.
    let budget = c.series.iter().flat_map(|s| &s.points).any(|p| p.budget);
    let (y0, y1) = if c.log_y {
        (ymin / 2.0, ymax * if budget { 5.0 } else { 2.0 })
    } else if c.kind.share_column().is_some() {
        // Percent of runs: from 0, and room above a chart of zeros.
        (0.0, (ymax * 1.12).clamp(5.0, 105.0))
    } else {
        let pad = ((ymax - ymin) * 0.08).max(0.05 * ymax.abs()).max(1e-9);
        (
            (ymin - pad).max(0.0),
            ymax + if budget { 2.5 * pad } else { pad },
        )
    };
    let k = c.series.len().max(1) as f64;
    let integer_x = c.categories.is_none() && xs.iter().all(|x| x.fract() == 0.0) && !c.log_x;
    let tick_style = TextStyle::from((FAMILY, TICK_PX).into_font());
    let rotate = vertical.is_some();
    let cats = c.categories.clone();
    // A log x axis with few values (table sizes) is labelled at those values, exactly.
    let log_x_exact = c.log_x && xs.len() <= 12;
    let x_fmt = move |v: &f64| -> String {
        if rotate {
            // Drawn below, vertically, after the mesh.
            return String::new();
        }
        if let Some(cats) = &cats {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() {
                return cats[i as usize].clone();
            }
            return String::new();
        }
        if integer_x {
            if (v - v.round()).abs() < 1e-6 {
                format!("{}", v.round() as i64)
            } else {
                String::new()
            }
        } else if log_x_exact && (v - v.round()).abs() < 1e-6 {
            format!("{}", v.round() as i64)
        } else {
            si(*v)
        }
    };
    let y_fmt = |v: &f64| si(*v);
    let n_xlabels = if c.categories.is_some() || (integer_x && x1 - x0 <= 24.0) {
        // Unit steps, so that every x with data gets its label (up to about 25 labels).
        (x1 - x0).ceil() as usize + 1
    } else {
        8
    };

    // A long title (long facet values) shrinks rather than runs off the canvas.
    let mut title_px = TITLE_PX;
    while title_px > 20 {
        let style = TextStyle::from((FAMILY, title_px).into_font());
        match root.estimate_text_size(&title, &style) {
            Ok((w, _)) if w + 40 > WIDTH => title_px -= 2,
            _ => break,
        }
    }
    // The title in its own band, so the top tick label never runs into it.
    let (band, plot) = plot.split_vertically(title_px + 28);
    band.draw(&Text::new(
        title.clone(),
        ((WIDTH / 2) as i32, (title_px / 2 + 14) as i32),
        TextStyle::from((FAMILY, title_px).into_font()).pos(Pos::new(HPos::Center, VPos::Center)),
    ))
    .map_err(e)?;
    let mut builder = ChartBuilder::on(&plot);
    builder
        .margin_top(20)
        .margin_left(16)
        .margin_right(40)
        .margin_bottom(8)
        .x_label_area_size(x_label_area(vertical))
        .y_label_area_size(140);

    macro_rules! body {
        ($chart:ident) => {{
            $chart
                .configure_mesh()
                .x_desc(c.x_title.as_str())
                .y_desc(c.y_title.as_str())
                .axis_desc_style((FAMILY, AXIS_PX))
                .label_style((FAMILY, TICK_PX))
                .x_labels(n_xlabels.min(20))
                .y_labels(10)
                .x_label_formatter(&x_fmt)
                .y_label_formatter(&y_fmt)
                .light_line_style(RGBColor(235, 235, 235))
                .bold_line_style(RGBColor(210, 210, 210))
                .draw()
                .map_err(e)?;
            if rotate {
                // Vertical category labels, read bottom to top, their ends at the axis.
                let style = tick_style
                    .clone()
                    .transform(FontTransform::Rotate270)
                    .pos(Pos::new(HPos::Right, VPos::Center));
                for (i, l) in c.categories.iter().flatten().enumerate() {
                    let (px, py) = $chart.backend_coord(&(i as f64, y0));
                    root.draw(&Text::new(l.clone(), (px, py + 12), style.clone()))
                        .map_err(e)?;
                }
            }
            // Series side by side around each x, so that their bars do not hide each other:
            // an offset on a linear axis, a factor (in decades) on a log one.
            let dodge = |i: usize| -> f64 {
                if k < 2.0 {
                    0.0
                } else if c.log_x {
                    (i as f64 - (k - 1.0) / 2.0) * (0.16 / k)
                } else {
                    (i as f64 - (k - 1.0) / 2.0) * (0.36 * step / k)
                }
            };
            let shift = |x: f64, d: f64| -> f64 {
                if c.log_x {
                    x * 10f64.powf(d)
                } else {
                    x + d
                }
            };
            for (i, s) in c.series.iter().enumerate() {
                let col = color(s.style);
                let d = dodge(i);
                // The line joins measured points only: not across categories, and not to a
                // point whose group hit a budget (a lower bound).
                let pts: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .filter(|p| !p.budget)
                    .map(|p| (shift(p.x, d), p.y))
                    .collect();
                if c.categories.is_none() {
                    let mut run: Vec<(f64, f64)> = Vec::new();
                    for p in s.points.iter().chain(std::iter::once(&Point {
                        x: 0.0,
                        x_label: String::new(),
                        y: 0.0,
                        lo: 0.0,
                        hi: 0.0,
                        budget: true,
                        counted: None,
                    })) {
                        if p.budget {
                            if run.len() > 1 {
                                $chart
                                    .draw_series(LineSeries::new(
                                        std::mem::take(&mut run),
                                        col.stroke_width(3),
                                    ))
                                    .map_err(e)?;
                            }
                            run.clear();
                        } else {
                            run.push((shift(p.x, d), p.y));
                        }
                    }
                }
                $chart
                    .draw_series(
                        s.points
                            .iter()
                            .filter(|p| p.budget)
                            .map(|p| budget_element!((shift(p.x, d), p.y), col)),
                    )
                    .map_err(e)?;
                let cap = 0.05 * step;
                for p in &s.points {
                    if c.whiskers && p.hi > p.lo {
                        let x = shift(p.x, d);
                        let st = col.stroke_width(2);
                        // A minimum of 0 has no place on a log axis: the bar runs down to
                        // the axis and ends in an arrowhead pointing off it, not in a cap
                        // that would read as a small positive minimum.
                        let zero_min = c.log_y && p.lo <= 0.0;
                        let lo = if zero_min { y0 } else { p.lo };
                        $chart
                            .draw_series(std::iter::once(PathElement::new(
                                vec![(x, lo), (x, p.hi)],
                                st,
                            )))
                            .map_err(e)?;
                        if zero_min {
                            $chart
                                .draw_series(std::iter::once(
                                    EmptyElement::at((x, y0))
                                        + PathElement::new(
                                            vec![(-7, -11), (0, 0), (7, -11)],
                                            col.stroke_width(3),
                                        ),
                                ))
                                .map_err(e)?;
                        }
                        if !c.log_x {
                            let caps = [(!zero_min).then_some(lo), Some(p.hi)];
                            for yv in caps.into_iter().flatten() {
                                $chart
                                    .draw_series(std::iter::once(PathElement::new(
                                        vec![(x - cap, yv), (x + cap, yv)],
                                        st,
                                    )))
                                    .map_err(e)?;
                            }
                        }
                    }
                }
                draw_marker(&mut $chart, &pts, s.style, col)?;
            }
            for (i, s) in c.theory.iter().enumerate() {
                let (col, (dash, gap)) = dashed_style(i);
                let mut pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.y)).collect();
                if pts.len() == 1 || c.kind == ChartKind::RatioToMinimal {
                    // A single point (or the ratio-1 line): draw it across the x range.
                    let y = pts[0].1;
                    if pts.iter().all(|p| p.1 == y) {
                        pts = vec![(x0, y), (x1, y)];
                    }
                }
                // A thick dashed polyline bends at every point, and a bend between two flat
                // segments draws a notch: flat runs keep only their ends.
                let flat = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
                let all = pts.clone();
                pts = all
                    .iter()
                    .enumerate()
                    .filter(|&(k, p)| {
                        k == 0
                            || k + 1 == all.len()
                            || !(flat(all[k - 1].1, p.1) && flat(p.1, all[k + 1].1))
                    })
                    .map(|(_, p)| *p)
                    .collect();
                $chart
                    .draw_series(DashedLineSeries::new(
                        pts,
                        dash,
                        gap,
                        ShapeStyle {
                            color: col.to_rgba(),
                            filled: false,
                            stroke_width: 3,
                        },
                    ))
                    .map_err(e)?;
            }
        }};
    }

    match (c.log_x, c.log_y) {
        (false, true) => {
            let (yb, yl) = log_ticks(y0, y1);
            let mut chart = builder
                .build_cartesian_2d(
                    x0..x1,
                    (y0..y1)
                        .log_scale()
                        .with_key_points(yb)
                        .with_light_points(yl),
                )
                .map_err(e)?;
            body!(chart);
        }
        (false, false) => {
            let mut chart = builder.build_cartesian_2d(x0..x1, y0..y1).map_err(e)?;
            body!(chart);
        }
        (true, true) => {
            let (xb, xl) = log_x_ticks(x0, x1, &xs);
            let (yb, yl) = log_ticks(y0, y1);
            let mut chart = builder
                .build_cartesian_2d(
                    (x0..x1)
                        .log_scale()
                        .with_key_points(xb)
                        .with_light_points(xl),
                    (y0..y1)
                        .log_scale()
                        .with_key_points(yb)
                        .with_light_points(yl),
                )
                .map_err(e)?;
            body!(chart);
        }
        (true, false) => {
            let (xb, xl) = log_x_ticks(x0, x1, &xs);
            let mut chart = builder
                .build_cartesian_2d(
                    (x0..x1)
                        .log_scale()
                        .with_key_points(xb)
                        .with_light_points(xl),
                    y0..y1,
                )
                .map_err(e)?;
            body!(chart);
        }
    }

    // The legend, below the plot.
    let entries = legend_entries(c);
    let layout = legend_layout(root, &entries);
    let text =
        TextStyle::from((FAMILY, layout.px).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let left = (WIDTH.saturating_sub(layout.span) / 2) as i32;
    let head = if c.series_columns.is_empty() {
        "legend".to_string()
    } else {
        format!("series: {}", c.series_columns.join(", "))
    };
    legend
        .draw(&Text::new(
            head,
            (left, (10 + LEGEND_ROW / 2) as i32),
            text.clone(),
        ))
        .map_err(e)?;
    for (en, &(row, col)) in entries.iter().zip(&layout.cells) {
        let x = left + (col * layout.col_w) as i32;
        let y = (10 + (row + 1) * LEGEND_ROW + LEGEND_ROW / 2) as i32;
        if en.budget {
            budget_mark(&legend, (x + SWATCH as i32 / 2, y), en.color)?;
        } else if let Some((dash, gap)) = en.dashed {
            let mut sx = x;
            while sx < x + SWATCH as i32 {
                let ex = (sx + dash as i32).min(x + SWATCH as i32);
                legend
                    .draw(&PathElement::new(
                        vec![(sx, y), (ex, y)],
                        en.color.stroke_width(3),
                    ))
                    .map_err(e)?;
                sx += (dash + gap) as i32;
            }
        } else {
            // Points on a category axis are not joined: no line in their swatch either.
            let line = if c.categories.is_some() { 0 } else { 3 };
            if line > 0 {
                legend
                    .draw(&PathElement::new(
                        vec![(x, y), (x + SWATCH as i32, y)],
                        en.color.stroke_width(line),
                    ))
                    .map_err(e)?;
            }
            if let Some(i) = en.marker {
                legend_marker(&legend, (x + SWATCH as i32 / 2, y), i, en.color)?
            }
        }
        legend
            .draw(&Text::new(
                en.label.clone(),
                (x + SWATCH as i32 + 16, y),
                text.clone(),
            ))
            .map_err(e)?;
    }
    root.present().map_err(e)?;
    Ok(())
}

/// The chart as SVG text.
pub fn render_svg(c: &Chart) -> Result<String> {
    register_font()?;
    let h = canvas_height(c);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, h)).into_drawing_area();
        draw(&root, c).map_err(|m| Error::Internal(format!("chart {}: {m}", c.stem)))?;
    }
    // Text was laid out with DejaVu Sans's metrics: ask the viewer for that font first (then
    // Verdana, of about the same widths), so labels fit as they do in the PNG wherever it is
    // installed.
    // XML allows no control character but tab and line ends: a text from a hand-edited
    // runs.csv that holds one loses it rather than making the file unreadable.
    let out: String = out
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
        .collect();
    Ok(out.replace(
        &format!("font-family=\"{FAMILY}\""),
        &format!("font-family=\"{SVG_FAMILIES}\""),
    ))
}

/// The SVG's font list.
const SVG_FAMILIES: &str = "DejaVu Sans, Verdana, sans-serif";

/// The chart as PNG bytes (RGB, best compression, adaptive filter: deterministic).
pub fn render_png(c: &Chart) -> Result<Vec<u8>> {
    register_font()?;
    let h = canvas_height(c);
    let mut rgb = vec![0u8; (WIDTH * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (WIDTH, h)).into_drawing_area();
        draw(&root, c).map_err(|m| Error::Internal(format!("chart {}: {m}", c.stem)))?;
    }
    let mut out = Vec::new();
    let perr = |e: png::EncodingError| Error::Internal(format!("chart {}: PNG: {e}", c.stem));
    {
        let mut enc = png::Encoder::new(&mut out, WIDTH, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Best);
        enc.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
        let mut w = enc.write_header().map_err(perr)?;
        w.write_image_data(&rgb).map_err(perr)?;
        w.finish().map_err(perr)?;
    }
    Ok(out)
}

/// The x label of a point, for tables.
pub fn point_row(p: &Point) -> (String, String, String, String) {
    (
        p.x_label.clone(),
        fmt_num(p.y),
        fmt_num(p.lo),
        fmt_num(p.hi),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_compare_their_numbers_as_numbers() {
        let mut v = vec![
            "strong:1:1",
            "strong:0.1:0.1",
            "random",
            "strong:0:0",
            "strong:0.9:0.9",
            "oracle-best",
        ];
        v.sort_by(|a, b| cmp_natural(a, b));
        assert_eq!(
            v,
            [
                "oracle-best",
                "random",
                "strong:0:0",
                "strong:0.1:0.1",
                "strong:0.9:0.9",
                "strong:1:1"
            ]
        );
        assert!(cmp_natural("9", "10").is_lt());
        assert!(cmp_natural("", "correct").is_lt());
    }

    fn category_chart(labels: &[&str]) -> Chart {
        let points = labels
            .iter()
            .enumerate()
            .map(|(i, l)| Point {
                x: i as f64,
                x_label: l.to_string(),
                y: 10.0 + i as f64,
                lo: 10.0,
                hi: 20.0,
                budget: false,
                counted: None,
            })
            .collect();
        Chart {
            kind: ChartKind::Nodes,
            stem: "nodes".into(),
            title: "Nodes".into(),
            facet: String::new(),
            x_title: "solver".into(),
            y_title: "nodes".into(),
            series: vec![Series {
                label: "all runs".into(),
                key: vec![],
                points,
                style: 0,
            }],
            theory: vec![],
            log_x: false,
            log_y: true,
            whiskers: true,
            categories: Some(labels.iter().map(|l| l.to_string()).collect()),
            x_column: "solver".into(),
            series_columns: vec![],
            all_stopped: vec![],
        }
    }

    /// Twelve series get twelve different markers, and a series' (colour, marker) pair
    /// repeats only after 156 series.
    #[test]
    fn series_markers_and_colours_do_not_repeat_early() {
        let marks: Vec<(usize, bool)> = (0..12).map(marker_kind).collect();
        for (i, a) in marks.iter().enumerate() {
            assert!(!marks[..i].contains(a), "marker {i} repeats");
        }
        let looks: Vec<((usize, bool), RGBColor)> =
            (0..156).map(|i| (marker_kind(i), color(i))).collect();
        for (i, a) in looks.iter().enumerate() {
            assert!(
                !looks[..i].contains(a),
                "series {i} looks like an earlier one"
            );
        }
        // Every shape but the circle has an outline to stroke when hollow.
        for shape in 1..6 {
            assert!(marker_outline(shape).len() >= 3);
        }
    }

    /// The SVG asks for the font its text was measured with, then falls back.
    #[test]
    fn svg_text_names_dejavu_first() {
        let svg = render_svg(&category_chart(&["a", "b"])).unwrap();
        assert!(svg.contains("font-family=\"DejaVu Sans, Verdana, sans-serif\""));
        assert!(!svg.contains("font-family=\"sans-serif\""));
    }

    /// A series keeps its colour and marker in a chart that leaves another series out (as
    /// `qnodes` leaves out runs without quiescence).
    #[test]
    fn a_series_looks_the_same_in_every_chart() {
        let series = |labels: &[&str]| -> Vec<Series> {
            labels
                .iter()
                .map(|l| Series {
                    label: l.to_string(),
                    key: vec![l.to_string()],
                    points: vec![],
                    style: 99,
                })
                .collect()
        };
        let mut all = category_chart(&["a"]);
        all.series_columns = vec!["quiescence".into()];
        let mut some = all.clone();
        all.series = series(&["off", "on,checks", "on,plain"]);
        some.series = series(&["on,checks", "on,plain"]);
        let mut charts = vec![some, all];
        assign_styles(&mut charts, &Layout::default());
        let style = |c: &Chart, l: &str| c.series.iter().find(|s| s.label == l).unwrap().style;
        for l in ["on,checks", "on,plain"] {
            assert_eq!(style(&charts[0], l), style(&charts[1], l));
        }
        assert_eq!(
            [
                style(&charts[1], "off"),
                style(&charts[1], "on,checks"),
                style(&charts[1], "on,plain")
            ],
            [0, 1, 2]
        );
    }

    /// Long category labels, written vertically, make the canvas taller by the room they need
    /// beyond the usual label area, instead of taking it from the plot area (which six
    /// technique sets of the Connect Four solver once squeezed to a strip); short ones leave
    /// the height alone.
    #[test]
    fn vertical_labels_grow_the_canvas_not_shrink_the_plot() {
        let short = category_chart(&["a", "b", "c"]);
        let long = category_chart(&[
            "all",
            "null-window+tt",
            "null-window+win-check+bounds+tt",
            "null-window+win-check+non-losing+bounds",
            "null-window+win-check+non-losing+tt",
            "win-check+non-losing+bounds+tt",
        ]);
        register_font().unwrap();
        let mut sink = String::new();
        let root = SVGBackend::with_string(&mut sink, (WIDTH, PLOT_HEIGHT)).into_drawing_area();
        assert_eq!(vertical_labels(&root, &short), None);
        assert_eq!(plot_height(vertical_labels(&root, &short)), PLOT_HEIGHT);
        let widest = vertical_labels(&root, &long).expect("long labels are vertical");
        assert!(widest > X_LABEL_AREA, "{widest}");
        assert_eq!(
            plot_height(Some(widest)),
            PLOT_HEIGHT + widest + 75 - X_LABEL_AREA
        );
        // Same legend (one series), so the canvases differ by the labels' extra room only.
        assert_eq!(
            canvas_height(&long) - canvas_height(&short),
            widest + 75 - X_LABEL_AREA
        );
        assert!(render_png(&long).is_ok());
    }

    /// Many short series labels share a row even when a theory label is too wide for their
    /// columns: the theory line gets a row of its own instead of forcing one column on all.
    #[test]
    fn a_long_theory_label_does_not_force_one_legend_column() {
        register_font().unwrap();
        let mut sink = String::new();
        let root = SVGBackend::with_string(&mut sink, (WIDTH, PLOT_HEIGHT)).into_drawing_area();
        let entry = |label: &str, marker: Option<usize>| LegendEntry {
            label: label.into(),
            color: color(0),
            dashed: marker.is_none().then_some((12, 6)),
            marker,
            budget: false,
        };
        let mut entries: Vec<LegendEntry> = (0..6)
            .map(|i| entry(&format!("alphabeta, fail-soft, s{i}"), Some(i)))
            .collect();
        entries.push(entry(
            "minimal tree (Knuth-Moore, all levels, b fitted to minimax/negamax)",
            None,
        ));
        entries.push(entry("no table", None));
        let l = legend_layout(&root, &entries);
        assert_eq!(
            l.cells,
            [
                (0, 0),
                (0, 1),
                (1, 0),
                (1, 1),
                (2, 0),
                (2, 1),
                (3, 0),
                (4, 0)
            ]
        );
        assert_eq!(l.rows(), 5);
        assert!(l.span <= WIDTH - 40 && l.span >= 2 * l.col_w, "{}", l.span);
        // Without series, the widest entry sets the column.
        let theory = legend_layout(&root, &entries[6..]);
        assert_eq!(theory.cells, [(0, 0), (1, 0)]);
    }

    #[test]
    fn log_ticks_of_a_bad_range_are_empty() {
        assert_eq!(log_ticks(0.0, 100.0), (vec![], vec![]));
        let (bold, _) = log_ticks(5.0, 50000.0);
        assert_eq!(bold, [10.0, 100.0, 1000.0, 10000.0]);
        assert_eq!(log_x_ticks(2.0, 20000.0, &[4.0, 16.0]).0, [4.0, 16.0]);
    }
}
