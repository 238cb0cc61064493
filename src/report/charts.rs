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
//! - `ratio-to-minimal`: mean nodes / minimal tree, as bars (log scale when they span more
//!   than a factor 30), with a dashed line at 1.
//! - `nodes-vs-table`: mean nodes vs the transposition-table size column (log x).
//!
//! Every parameter that varies and is neither the x axis, a series column nor a facet column
//! is added to the series, so no chart averages over a parameter silently. The legend sits
//! below the plot, never over data.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::summary::{cmp_values, fmt_num, Group, Summary};
use super::table::numeric;
use crate::error::{Error, Result};
use crate::experiment::config::{ChartKind, TheoryKind};

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

/// Columns that hold a transposition-table size, for `nodes-vs-table` (first one present).
pub const TABLE_SIZE_COLUMNS: [&str; 4] = ["tt_entries", "tt_size", "tt_bits", "table_entries"];

/// The resolved `[report]` settings.
#[derive(Clone, Debug)]
pub struct Layout {
    pub charts: Vec<ChartKind>,
    /// Whether `charts` was given (then charts the data cannot support are reported missing).
    pub charts_given: bool,
    pub x: String,
    pub series: Vec<String>,
    pub facet: Vec<String>,
    pub title: Option<String>,
    pub titles: BTreeMap<ChartKind, String>,
    pub theory: Vec<TheoryKind>,
}

/// One plotted point: the mean and its min-max range.
#[derive(Clone, Debug)]
pub struct Point {
    pub x: f64,
    pub x_label: String,
    pub y: f64,
    pub lo: f64,
    pub hi: f64,
}

#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    /// The series columns' values (for ordering the legend).
    pub key: Vec<String>,
    pub points: Vec<Point>,
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
    pub bars: bool,
    /// Category labels when x is not numeric (x = index).
    pub categories: Option<Vec<String>>,
    /// The column names on the x axis and in the series labels, for report.md.
    pub x_column: String,
    pub series_columns: Vec<String>,
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
                None
            } else if v == "true" || v == "false" || numeric(v).is_some() {
                // A bare number or true/false says nothing without its column.
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

/// Units of the x axis title for the columns harness writes.
fn x_title(col: &str) -> String {
    match col {
        "depth" => "search depth (plies)".into(),
        c if TABLE_SIZE_COLUMNS.contains(&c) => format!("{c} (table entries, log scale)"),
        c => c.to_string(),
    }
}

/// Builds the charts the layout asks for. Charts the data cannot support are left out (the
/// caller lists them in report.md).
pub fn plan_charts(s: &Summary, layout: &Layout) -> (Vec<Chart>, Vec<String>) {
    let mut charts = Vec::new();
    let mut skipped = Vec::new();
    let has_theory = s.groups.iter().any(|g| g.theory.is_some());
    let table_col = TABLE_SIZE_COLUMNS
        .iter()
        .find(|c| varying(s, c))
        .map(|c| c.to_string());
    for &kind in &layout.charts {
        let x = match kind {
            ChartKind::NodesVsTable => match &table_col {
                Some(c) => c.clone(),
                None => {
                    skipped.push(format!(
                        "`{}`: runs.csv has no varying table-size column ({})",
                        kind.name(),
                        TABLE_SIZE_COLUMNS.join(", ")
                    ));
                    continue;
                }
            },
            _ => layout.x.clone(),
        };
        if kind == ChartKind::RatioToMinimal && !has_theory {
            skipped.push(format!(
                "`{}`: no group has a known branching factor (no `branching` column and no minimax/negamax run on the same positions and depth)",
                kind.name()
            ));
            continue;
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
            // A parameter that is a function of x (tt_bytes of tt_entries, say) splits nothing.
            if *p != x
                && !layout.facet.contains(p)
                && !series.contains(p)
                && varying(s, p)
                && !determined_by(s, p, &x)
            {
                series.push(p.clone());
            }
        }
        // Facets: one chart per distinct value tuple, in summary order.
        let mut facets: Vec<(String, Vec<&Group>)> = Vec::new();
        for g in &s.groups {
            let f = label_of(s, g, &layout.facet, true);
            match facets.iter_mut().find(|(k, _)| *k == f) {
                Some((_, v)) => v.push(g),
                None => facets.push((f, vec![g])),
            }
        }
        for (facet, groups) in facets {
            if let Some(c) = chart_for(s, layout, kind, &x, &series, &facet, &groups) {
                charts.push(c);
            }
        }
    }
    (charts, skipped)
}

/// True when every group with the same value of `x` has the same value of `p`.
fn determined_by(s: &Summary, p: &str, x: &str) -> bool {
    let (xc, pc) = ([x.to_string()], [p.to_string()]);
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for g in &s.groups {
        let pv = label_of(s, g, &pc, true);
        if let Some(old) = seen.insert(label_of(s, g, &xc, true), pv.clone()) {
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
    let mut xs: Vec<String> = groups
        .iter()
        .map(|g| g.param(s, x).unwrap_or("").to_string())
        .collect();
    xs.sort_by(|a, b| cmp_values(a, b));
    xs.dedup();
    let numeric_x = xs.iter().all(|v| numeric(v).is_some());
    let xpos = |v: &str| -> f64 {
        if numeric_x {
            numeric(v).unwrap_or(0.0)
        } else {
            xs.iter().position(|c| c == v).unwrap_or(0) as f64
        }
    };
    let y_of = |g: &Group| -> Option<(f64, f64, f64)> {
        match kind {
            ChartKind::Nodes | ChartKind::NodesVsTable => {
                g.stat(s, "nodes").map(|st| (st.mean, st.min, st.max))
            }
            ChartKind::Ebf => g.stat(s, "ebf").map(|st| (st.mean, st.min, st.max)),
            ChartKind::RatioToMinimal => {
                let th = g.theory.as_ref()?;
                let st = g.stat(s, "nodes")?;
                let r = st.mean / th.minimal_nodes;
                Some((r, r, r))
            }
        }
    };
    let mut series: Vec<Series> = Vec::new();
    for g in groups {
        let Some((y, lo, hi)) = y_of(g) else { continue };
        let label = if series_cols.is_empty() {
            "all runs".to_string()
        } else {
            label_of(s, g, series_cols, false)
        };
        let xv = g.param(s, x).unwrap_or("").to_string();
        let p = Point {
            x: xpos(&xv),
            x_label: xv,
            y,
            lo,
            hi,
        };
        match series.iter_mut().find(|q| q.label == label) {
            Some(q) => q.points.push(p),
            None => series.push(Series {
                label,
                key: key_of(s, g, series_cols),
                points: vec![p],
            }),
        }
    }
    if series.is_empty() {
        return None;
    }
    series.sort_by(|a, b| {
        a.key
            .iter()
            .zip(&b.key)
            .map(|(x, y)| cmp_values(x, y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for q in &mut series {
        q.points.sort_by(|a, b| a.x.total_cmp(&b.x));
    }
    // Theory lines, keyed by the series label when the theory differs between series at the
    // same x, else one line for the chart.
    let mut theory: Vec<Series> = Vec::new();
    let wanted = |t: TheoryKind| layout.theory.contains(&t);
    let lines: Vec<(TheoryKind, &str)> = match kind {
        ChartKind::Nodes | ChartKind::NodesVsTable => vec![
            (TheoryKind::FullTree, "full tree (sum of b^l)"),
            (TheoryKind::KnuthMoore, "minimal tree (Knuth-Moore)"),
        ],
        ChartKind::Ebf => vec![(TheoryKind::Pearl, "Pearl R*(b)")],
        ChartKind::RatioToMinimal => vec![],
    };
    for (tk, name) in lines {
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
                    }),
                }
            }
        }
        theory.extend(out);
    }
    if kind == ChartKind::RatioToMinimal && wanted(TheoryKind::KnuthMoore) {
        let pts: Vec<Point> = xs
            .iter()
            .map(|xv| Point {
                x: xpos(xv),
                x_label: xv.clone(),
                y: 1.0,
                lo: 1.0,
                hi: 1.0,
            })
            .collect();
        theory.push(Series {
            label: "minimal tree (ratio 1)".into(),
            key: vec![],
            points: pts,
        });
    }
    let (ymin, ymax) = series
        .iter()
        .flat_map(|q| q.points.iter().map(|p| (p.lo, p.hi)))
        .fold((f64::INFINITY, 0.0f64), |(a, b), (lo, hi)| {
            (a.min(lo), b.max(hi))
        });
    let log_y = match kind {
        ChartKind::Nodes | ChartKind::NodesVsTable => true,
        ChartKind::Ebf => false,
        ChartKind::RatioToMinimal => ymin > 0.0 && ymax / ymin > 30.0,
    };
    let log_x = kind == ChartKind::NodesVsTable
        && numeric_x
        && xs.iter().all(|v| numeric(v).unwrap_or(0.0) > 0.0);
    let default_title = match kind {
        ChartKind::Nodes => "Nodes searched",
        ChartKind::Ebf => "Effective branching factor",
        ChartKind::RatioToMinimal => "Nodes relative to the minimal tree",
        ChartKind::NodesVsTable => "Nodes vs transposition-table size",
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
        ChartKind::Nodes | ChartKind::NodesVsTable => "nodes (positions entered, log scale)".into(),
        ChartKind::Ebf => "effective branching factor nodes^(1/d)".into(),
        ChartKind::RatioToMinimal => {
            if log_y {
                "mean nodes / minimal-tree nodes (log scale)".into()
            } else {
                "mean nodes / minimal-tree nodes".into()
            }
        }
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
        x_title: x_title(x),
        y_title,
        series,
        theory,
        log_x,
        log_y,
        bars: kind == ChartKind::RatioToMinimal,
        categories: (!numeric_x).then_some(xs),
        x_column: x.to_string(),
        series_columns: series_cols.to_vec(),
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

/// Marker shape of series i: circle, triangle, square, diamond, then the same hollow.
fn marker_kind(i: usize) -> (usize, bool) {
    (i % 4, (i / 4).is_multiple_of(2))
}

struct LegendEntry {
    label: String,
    color: RGBColor,
    dashed: bool,
    marker: Option<usize>,
}

fn legend_entries(c: &Chart) -> Vec<LegendEntry> {
    let mut v: Vec<LegendEntry> = c
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| LegendEntry {
            label: s.label.clone(),
            color: color(i),
            dashed: false,
            marker: Some(i),
        })
        .collect();
    v.extend(c.theory.iter().enumerate().map(|(i, s)| LegendEntry {
        label: s.label.clone(),
        color: THEORY_COLORS[i % THEORY_COLORS.len()],
        dashed: true,
        marker: None,
    }));
    v
}

/// Legend layout: (columns, column width, rows), from the text widths.
fn legend_layout<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
) -> (u32, u32, u32) {
    let style = TextStyle::from((FAMILY, LEGEND_PX).into_font());
    let widest = entries
        .iter()
        .map(|e| {
            root.estimate_text_size(&e.label, &style)
                .map(|(w, _)| w)
                .unwrap_or(e.label.len() as u32 * LEGEND_PX * 6 / 10)
        })
        .max()
        .unwrap_or(0);
    let col_w = SWATCH + 16 + widest + 40;
    let cols = ((WIDTH - 60) / col_w).clamp(1, entries.len().max(1) as u32);
    let rows = (entries.len() as u32).div_ceil(cols);
    (cols, col_w, rows)
}

/// The canvas height of a chart: the plot plus its legend.
pub fn canvas_height(c: &Chart) -> u32 {
    // Width estimates do not depend on the backend; use a throwaway SVG canvas.
    let mut sink = String::new();
    let root = SVGBackend::with_string(&mut sink, (WIDTH, PLOT_HEIGHT)).into_drawing_area();
    let (_, _, rows) = legend_layout(&root, &legend_entries(c));
    PLOT_HEIGHT + (rows + 1) * LEGEND_ROW + 20
}

/// Labelled and grid-only ticks of a log axis over [lo, hi]: powers of 10 when they give at
/// least four labels, else 1-2-5 steps, else every integer multiple of a power of 10.
fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
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

fn draw_marker<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<DB, Cartesian2d<X, Y>>,
    pts: &[(f64, f64)],
    i: usize,
    col: RGBColor,
) -> std::result::Result<(), String> {
    let (shape, filled) = marker_kind(i);
    let style = if filled {
        col.filled()
    } else {
        col.stroke_width(3)
    };
    let sz = 9;
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    match shape {
        0 => chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, sz, style)))
            .map(|_| ())
            .map_err(e),
        1 => chart
            .draw_series(pts.iter().map(|&p| TriangleMarker::new(p, sz + 2, style)))
            .map(|_| ())
            .map_err(e),
        2 => chart
            .draw_series(
                pts.iter()
                    .map(|&p| EmptyElement::at(p) + Rectangle::new([(-sz, -sz), (sz, sz)], style)),
            )
            .map(|_| ())
            .map_err(e),
        _ => chart
            .draw_series(pts.iter().map(|&p| {
                EmptyElement::at(p)
                    + Polygon::new(
                        vec![(0, -sz - 3), (sz + 3, 0), (0, sz + 3), (-sz - 3, 0)],
                        style,
                    )
            }))
            .map(|_| ())
            .map_err(e),
    }
}

fn legend_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    i: usize,
    col: RGBColor,
) -> std::result::Result<(), String> {
    let (shape, filled) = marker_kind(i);
    let style = if filled {
        col.filled()
    } else {
        col.stroke_width(3)
    };
    let sz = 9;
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    match shape {
        0 => area.draw(&Circle::new(at, sz, style)).map_err(e),
        1 => area
            .draw(&TriangleMarker::new(at, sz + 2, style))
            .map_err(e),
        2 => area
            .draw(&Rectangle::new(
                [(at.0 - sz, at.1 - sz), (at.0 + sz, at.1 + sz)],
                style,
            ))
            .map_err(e),
        _ => area
            .draw(&Polygon::new(
                vec![
                    (at.0, at.1 - sz - 3),
                    (at.0 + sz + 3, at.1),
                    (at.0, at.1 + sz + 3),
                    (at.0 - sz - 3, at.1),
                ],
                style,
            ))
            .map_err(e),
    }
}

/// Draws `c` on `root` (WIDTH x canvas_height).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let (plot, legend) = root.split_vertically(PLOT_HEIGHT);
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
        for y in [p.lo, p.hi, p.y] {
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
    } else {
        (xmin - 0.6 * step, xmax + 0.6 * step)
    };
    let (y0, y1) = if c.log_y {
        (ymin / 2.0, ymax * 2.0)
    } else if c.bars {
        (0.0, ymax * 1.12)
    } else {
        let pad = ((ymax - ymin) * 0.08).max(0.05 * ymax.abs()).max(1e-9);
        ((ymin - pad).max(0.0), ymax + pad)
    };
    let k = c.series.len().max(1) as f64;
    let integer_x = c.categories.is_none() && xs.iter().all(|x| x.fract() == 0.0) && !c.log_x;
    let cats = c.categories.clone();
    let x_fmt = move |v: &f64| -> String {
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
        } else {
            si(*v)
        }
    };
    let y_fmt = |v: &f64| si(*v);
    let n_xlabels = if c.categories.is_some() || integer_x {
        // Unit steps, so that every x with data gets its label (up to 20 labels).
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
        .x_label_area_size(85)
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
            let dodge = |i: usize| -> f64 {
                if c.log_x || k < 2.0 {
                    0.0
                } else {
                    (i as f64 - (k - 1.0) / 2.0) * (0.36 * step / k)
                }
            };
            if c.bars {
                let bw = 0.8 * step / k;
                for (i, s) in c.series.iter().enumerate() {
                    let col = color(i);
                    $chart
                        .draw_series(s.points.iter().map(|p| {
                            let left = p.x - 0.4 * step + i as f64 * bw;
                            Rectangle::new([(left, y0), (left + bw * 0.92, p.y)], col.filled())
                        }))
                        .map_err(e)?;
                }
            } else {
                for (i, s) in c.series.iter().enumerate() {
                    let col = color(i);
                    let d = dodge(i);
                    let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x + d, p.y)).collect();
                    $chart
                        .draw_series(LineSeries::new(pts.clone(), col.stroke_width(3)))
                        .map_err(e)?;
                    let cap = 0.05 * step;
                    for p in &s.points {
                        if p.hi > p.lo {
                            let x = p.x + d;
                            let st = col.stroke_width(2);
                            $chart
                                .draw_series(std::iter::once(PathElement::new(
                                    vec![(x, p.lo), (x, p.hi)],
                                    st,
                                )))
                                .map_err(e)?;
                            if !c.log_x {
                                for yv in [p.lo, p.hi] {
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
                    draw_marker(&mut $chart, &pts, i, col)?;
                }
            }
            for (i, s) in c.theory.iter().enumerate() {
                let col = THEORY_COLORS[i % THEORY_COLORS.len()];
                let mut pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.y)).collect();
                if pts.len() == 1 || c.bars {
                    // A single point (or the ratio-1 line): draw it across the x range.
                    let y = pts[0].1;
                    if pts.iter().all(|p| p.1 == y) {
                        pts = vec![(x0, y), (x1, y)];
                    }
                }
                $chart
                    .draw_series(DashedLineSeries::new(
                        pts,
                        14,
                        9,
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
            let (xb, xl) = log_ticks(x0, x1);
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
            let (xb, xl) = log_ticks(x0, x1);
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
    let (cols, col_w, _) = legend_layout(root, &entries);
    let text =
        TextStyle::from((FAMILY, LEGEND_PX).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let left = ((WIDTH - cols * col_w) / 2) as i32;
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
    for (n, en) in entries.iter().enumerate() {
        let (row, col) = (n as u32 / cols + 1, n as u32 % cols);
        let x = left + (col * col_w) as i32;
        let y = (10 + row * LEGEND_ROW + LEGEND_ROW / 2) as i32;
        if en.dashed {
            let mut sx = x;
            while sx < x + SWATCH as i32 {
                let ex = (sx + 14).min(x + SWATCH as i32);
                legend
                    .draw(&PathElement::new(
                        vec![(sx, y), (ex, y)],
                        en.color.stroke_width(3),
                    ))
                    .map_err(e)?;
                sx += 23;
            }
        } else {
            let line = if c.bars { 0 } else { 3 };
            if line > 0 {
                legend
                    .draw(&PathElement::new(
                        vec![(x, y), (x + SWATCH as i32, y)],
                        en.color.stroke_width(line),
                    ))
                    .map_err(e)?;
            }
            match (c.bars, en.marker) {
                (true, _) => legend
                    .draw(&Rectangle::new(
                        [(x + 12, y - 13), (x + SWATCH as i32 - 12, y + 13)],
                        en.color.filled(),
                    ))
                    .map_err(e)?,
                (false, Some(i)) => {
                    legend_marker(&legend, (x + SWATCH as i32 / 2, y), i, en.color)?
                }
                _ => {}
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
    Ok(out)
}

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
