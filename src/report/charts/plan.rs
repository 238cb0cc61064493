//! What is drawn: summary.csv's groups turned into charts (axes, series, theory lines), in
//! the order and with the looks the experiment's `[report]` asks for.

use std::collections::BTreeMap;

use super::super::summary::{cmp_values, Group, Summary, Theory};
use super::super::table::numeric;
use super::style::LINE_KINDS;
use crate::experiment::config::{ChartKind, FacetY, PointStat, TheoryKind, Whiskers, XScale};

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
    /// Whether `theory` was given (then theory lines no chart draws are reported missing).
    pub theory_given: bool,
    pub x: String,
    pub series: Vec<String>,
    pub facet: Vec<String>,
    /// Columns the charts average over (blanked before grouping; see `report::build`).
    pub pool: Vec<String>,
    pub x_scale: Option<XScale>,
    /// Every run searched to the end of the game (`depth = "full"`): the depth column is the
    /// plies left from each position.
    pub full_depth: bool,
    /// Some runs searched to the end of the game and others to a number of plies (`depth =
    /// [2, 4, 6, "full"]`): a full search's depth is its position's plies left.
    pub mixed_depth: bool,
    pub title: Option<String>,
    pub titles: BTreeMap<ChartKind, String>,
    pub theory: Vec<TheoryKind>,
    /// The statistic a point shows (`[report] point`).
    pub point: PointStat,
    pub whiskers: Whiskers,
    /// Whether a chart's facets share their y range (`[report] facet_y`).
    pub facet_y: FacetY,
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
    /// The runs of the point's group (0 on a theory line).
    pub runs: usize,
}

#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    /// The series columns' values (for ordering the legend).
    pub key: Vec<String>,
    pub points: Vec<Point>,
    /// x values where the series has a group but no point (an ebf left out for a budget): its
    /// line breaks there rather than joining the points on either side across them.
    pub breaks: Vec<f64>,
    /// Colour and marker index: the same series has the same look in every chart and facet
    /// of the experiment (see `assign_styles`). A theory line's: its kind and its place among
    /// the lines of that kind (`LINE_FULL`...).
    pub style: usize,
    /// A dashed line of one value drawn across the whole x range whatever x its points have:
    /// the no-table reference and the ratio-1 line. (Another theory line of one point spans
    /// it only on a chart of one x.)
    pub across: bool,
}

/// The kind of a dashed line, the first part of its `Series::style` (`style::dashed_style`):
/// the full tree, the minimal tree (and the ratio-1 line), anything else (Pearl's R*(b), the
/// no-table reference).
const LINE_FULL: usize = 0;
const LINE_MINIMAL: usize = 1;
const LINE_OTHER: usize = 2;

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
    /// The `[report] theory` lines among them (the ratio chart's ratio-1 line is the minimal
    /// tree's).
    pub theory_kinds: Vec<TheoryKind>,
    pub log_x: bool,
    pub log_y: bool,
    /// Min-max whiskers drawn (`[report] whiskers`); the table in report.md has min and max
    /// either way.
    pub whiskers: bool,
    /// Category labels when x is not numeric (x = index).
    pub categories: Option<Vec<String>>,
    /// A series' points are joined by a line: not on a category axis, nor where each depth is
    /// other positions (`apart`). Theory lines are joined on a category axis too, unless
    /// `apart`.
    pub lines: bool,
    /// Each x holds other positions (`depth = "full"` on a real game), so that neither the
    /// points nor the theory lines are joined from one x to the next, on any axis.
    pub apart: bool,
    /// Each point is drawn as a bar from 1 (the ratio chart: the minimal tree) to its value,
    /// not joined by lines.
    pub bars: bool,
    /// The column names on the x axis and in the series labels, for report.md.
    pub x_column: String,
    pub series_columns: Vec<String>,
    /// A share chart's groups whose every run a budget stopped, and the ebf chart's groups
    /// with a run a budget stopped short of its deepest ply, as `series at x = value`: they
    /// have no point.
    pub all_stopped: Vec<String>,
    /// The ratio chart's groups with nodes but no minimal tree to divide them by, as
    /// `series at x = value`: they have no point.
    pub no_minimal: Vec<String>,
    /// The ebf chart's groups with nodes but no ebf, none of their runs having entered a node
    /// below the root (`max_ply` 0: a finished position, or a root the solver decided before
    /// any child), as `series at x = value`: they have no point.
    pub no_ebf: Vec<String>,
    /// The data's y range over every facet of this chart (`None`: one facet, or `[report]
    /// facet_y = "own"`): facets of one figure share their y axis, so that they can be
    /// compared side by side, unless each is to have its own.
    pub shared_y: Option<(f64, f64)>,
    /// The unit of y, where it has one: the time chart's "ms", or "s" when its values reach
    /// 10,000 ms (in any facet).
    pub y_unit: &'static str,
}

fn varying(s: &Summary, col: &str) -> bool {
    let Some(i) = s.params.iter().position(|c| c == col) else {
        return false;
    };
    s.groups.iter().any(|g| g.key[i] != s.groups[0].key[i])
}

/// How a chart shows a column's empty value: a table column (`tt_*`) is empty on a run
/// without a table; any other on a run the column does not apply to.
fn blank(col: &str) -> &'static str {
    if col.starts_with("tt_") {
        "no table"
    } else {
        "none"
    }
}

fn label_of(s: &Summary, g: &Group, cols: &[String], with_names: bool) -> String {
    cols.iter()
        .filter_map(|c| {
            let v = g.param(s, c).unwrap_or("");
            if with_names {
                let v = if v.is_empty() { blank(c) } else { v };
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

/// The longest file stem a chart gets, in bytes: file systems allow 255 bytes a name, and the
/// stem takes `.svg` / `.png` after it.
pub const MAX_STEM: usize = 120;

/// Makes each chart's file stem its own and short enough for a file name. A facet's slug keeps
/// letters and digits only, so two facets can share one (`a/b` and `a-b`, `A` and `a`), and an
/// ordering such as `explicit:` with every move of a chess position makes one longer than a
/// file name may be. Those charts (and only those: other stems stay as they were) get the
/// slug cut to fit, then `-` and 8 hex digits of a hash of the facet's full text, which does
/// not depend on the other charts.
fn unique_stems(charts: &mut [Chart]) {
    let mut count = std::collections::BTreeMap::new();
    for c in charts.iter() {
        *count.entry(c.stem.clone()).or_insert(0usize) += 1;
    }
    for c in charts.iter_mut() {
        if count[&c.stem] < 2 && c.stem.len() <= MAX_STEM && !c.stem.ends_with('-') {
            continue;
        }
        let mut head = c.stem.trim_end_matches('-').to_string();
        head.truncate(MAX_STEM - 9);
        // (FNV-1a, the run keys' hash: fixed by its definition, not by the Rust release.)
        let hash = crate::experiment::plan::fnv1a(&c.facet) as u32;
        c.stem = format!("{head}-{hash:08x}");
    }
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
pub(super) fn cmp_natural(a: &str, b: &str) -> std::cmp::Ordering {
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
/// holds the most plies each position can have left (its empty cells, its sticks; a uniform
/// tree's height), which a game may end before; `mixed_depth`: it does for some runs.
fn x_title(col: &str, log_x: bool, full_depth: bool, mixed_depth: bool) -> String {
    if col == "depth" && full_depth {
        return "plies left at most (depth = full)".into();
    }
    if col == "depth" && mixed_depth {
        let scale = if log_x { ", log scale" } else { "" };
        return format!("search depth (plies{scale}; depth = full: plies left at most)");
    }
    let unit = match col {
        "depth" => Some("plies"),
        "tt_bits" => Some("log2 of table entries"),
        c if TABLE_SIZE_COLUMNS.contains(&c) => Some("table entries"),
        "tt_key_bits" => Some("hash-key bits stored"),
        "tt_bounds" => Some("bounds the table stores"),
        "tt_replacement" => Some("replacement scheme"),
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

/// A chart or theory line the layout asks for and the data cannot support, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotDrawn {
    /// The `[report]` key that asks for it: `charts`, `titles` (a default chart given a
    /// title) or `theory`.
    pub key: &'static str,
    /// The chart's or line's name in that key.
    pub name: &'static str,
    pub why: String,
    /// Said even of a default chart nobody named: the data would make it, but too crowded to
    /// read (`MAX_SERIES`), which a reader must hear of; a default chart the data cannot make
    /// at all (qnodes without quiescence) is no news.
    pub crowded: bool,
}

impl NotDrawn {
    /// As report.md's "Not drawn" lists it: "`nodes`: why", "theory line `pearl`: why".
    pub fn text(&self) -> String {
        match self.key {
            "charts" | "titles" => format!("`{}`: {}", self.name, self.why),
            _ => format!("theory line `{}`: {}", self.name, self.why),
        }
    }
}

/// The most series one chart draws. Past it markers and colours repeat so often, and the
/// legend runs so long (thousands of rows for a grid of table settings), that no reader could
/// tell the series apart; such a chart is named as not drawn instead.
pub const MAX_SERIES: usize = 100;

/// The charts the layout asks for, and those (and the theory lines) it asks for that the data
/// cannot support, with why.
pub fn plan_charts(s: &Summary, layout: &Layout) -> (Vec<Chart>, Vec<NotDrawn>) {
    let mut charts = Vec::new();
    let mut skipped = Vec::new();
    let chart_skipped = |kind: ChartKind, why: String| NotDrawn {
        key: "charts",
        name: kind.name(),
        why,
        crowded: false,
    };
    let has_theory = s.groups.iter().any(|g| g.theory.is_some());
    let table_col = table_size_column(s);
    for &kind in &layout.charts {
        let x = match chartable(s, layout, kind, has_theory, table_col.as_deref()) {
            Ok(x) => x,
            Err(why) => {
                skipped.push(chart_skipped(kind, why));
                continue;
            }
        };
        let series = series_columns(s, layout, &x);
        let before = charts.len();
        let mut empty = Vec::new();
        // The most series one chart of this kind would hold, past `MAX_SERIES` (then none of
        // its facets is drawn: a figure is all its facets or none).
        let mut crowded = 0;
        for (facet, groups) in facets(s, layout) {
            match chart_for(s, layout, kind, &x, &series, &facet, &groups) {
                Some(c) if c.series.len() > MAX_SERIES => crowded = crowded.max(c.series.len()),
                Some(c) => charts.push(c),
                None => empty.push(facet),
            }
        }
        if crowded > 0 {
            charts.truncate(before);
            skipped.push(NotDrawn {
                crowded: true,
                ..chart_skipped(
                    kind,
                    format!(
                        "{crowded} series in one chart (series columns: {}), more than the {MAX_SERIES} a legend can tell apart; allowed: fewer, by `[report] series`, `facet` or `pool`",
                        series.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
                    ),
                )
            });
            continue;
        }
        // Some facets drawn and others not (facet = "tt" with x = tt_entries: the runs
        // without a table have no x): the others are named, not dropped in silence.
        if charts.len() > before && !empty.is_empty() {
            let names: Vec<String> = empty.iter().map(|f| format!("`{f}`")).collect();
            skipped.push(chart_skipped(
                kind,
                format!(
                    "not for the facet{} {}: no group there has a value to draw (x = `{x}`)",
                    if names.len() == 1 { "" } else { "s" },
                    names.join(", ")
                ),
            ));
        }
        if charts.len() == before {
            let why = if kind == ChartKind::Ebf && s.groups.iter().any(|g| g.budget_short > 0) {
                "no group has an ebf to draw; those with a run a budget stopped short of its deepest ply have none, since ebf is no bound there"
            } else {
                "no group has a value to draw"
            };
            skipped.push(chart_skipped(kind, why.to_string()));
        }
    }
    skipped.extend(theory_not_drawn(&charts, layout, has_theory));
    unique_stems(&mut charts);
    assign_styles(&mut charts, layout);
    // Long searches' times in seconds, in every facet alike: ticks of 10k ms read badly.
    if charts
        .iter()
        .filter(|c| c.kind == ChartKind::Time)
        .flat_map(|c| c.series.iter().flat_map(|q| q.points.iter()))
        .any(|p| p.hi >= 1e4)
    {
        for c in charts.iter_mut().filter(|c| c.kind == ChartKind::Time) {
            // The no-table reference line (x a table size) too.
            for p in c
                .series
                .iter_mut()
                .chain(c.theory.iter_mut())
                .flat_map(|q| q.points.iter_mut())
            {
                (p.y, p.lo, p.hi) = (p.y / 1e3, p.lo / 1e3, p.hi / 1e3);
            }
            c.y_unit = "s";
            c.y_title = time_y_title(layout.point, c.y_unit);
        }
    }
    // Facets of one figure share the ratio axis's range, so they share its scale too: log
    // for all when their ratios together span more than a factor 30 (one facet's bars near 1
    // beside another's near 100 would be slivers on a linear axis). With `facet_y = "own"`
    // each facet decides alone.
    let own = layout.facet_y == FacetY::Own;
    let groups: Vec<Vec<usize>> = if own {
        (0..charts.len()).map(|i| vec![i]).collect()
    } else {
        vec![(0..charts.len()).collect()]
    };
    for g in &groups {
        let ratio = |i: &&usize| charts[**i].kind == ChartKind::RatioToMinimal;
        let (lo, hi) = g
            .iter()
            .filter(ratio)
            .flat_map(|&i| charts[i].series.iter().flat_map(|q| q.points.iter()))
            .fold((f64::INFINITY, 0.0f64), |(a, b), p| {
                (a.min(p.lo), b.max(p.hi))
            });
        if g.iter().filter(ratio).any(|&i| charts[i].log_y) || (lo > 0.0 && hi / lo > 30.0) {
            for &i in g {
                let c = &mut charts[i];
                if c.kind == ChartKind::RatioToMinimal && !c.log_y {
                    c.log_y = true;
                    c.y_title = ratio_y_title(layout.point, true);
                }
            }
        }
    }
    // Facets of one figure share their y range (each kind over its facets), unless
    // `facet_y = "own"`.
    for kind in layout.charts.iter().copied().filter(|_| !own) {
        let of_kind = |c: &&mut Chart| c.kind == kind;
        if charts.iter_mut().filter(of_kind).count() < 2 {
            continue;
        }
        let span = charts
            .iter()
            .filter(|c| c.kind == kind)
            .filter_map(super::axes::y_data)
            .fold(None, |acc: Option<(f64, f64)>, (lo, hi)| {
                Some(acc.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))))
            });
        for c in charts.iter_mut().filter(of_kind) {
            c.shared_y = span;
        }
    }
    (charts, skipped)
}

/// The theory lines a chart of `kind` draws, as `[report] theory` names them: the full and
/// minimal trees on the nodes charts, those and Pearl's R*(b) on the ebf chart, the minimal
/// tree's ratio-1 line on the ratio chart.
fn theory_drawn_on(kind: ChartKind) -> &'static [TheoryKind] {
    match kind {
        ChartKind::Nodes | ChartKind::NodesVsTable => {
            &[TheoryKind::FullTree, TheoryKind::KnuthMoore]
        }
        ChartKind::Ebf => &[
            TheoryKind::FullTree,
            TheoryKind::KnuthMoore,
            TheoryKind::Pearl,
        ],
        ChartKind::RatioToMinimal => &[TheoryKind::KnuthMoore],
        ChartKind::Qnodes
        | ChartKind::FalseHits
        | ChartKind::Time
        | ChartKind::ValueWrong
        | ChartKind::MoveWrong
        | ChartKind::BmHit => &[],
    }
}

/// The theory lines `[report] theory` names that no chart drawn has, each with why: no chart
/// that draws it is drawn, or no group has a branching factor to compute it from, or no
/// group's value is one to draw.
fn theory_not_drawn(charts: &[Chart], layout: &Layout, has_theory: bool) -> Vec<NotDrawn> {
    let mut out = Vec::new();
    for &tk in &layout.theory {
        if charts.iter().any(|c| c.theory_kinds.contains(&tk)) {
            continue;
        }
        let drawers: Vec<ChartKind> = ChartKind::ALL
            .into_iter()
            .filter(|&k| theory_drawn_on(k).contains(&tk))
            .collect();
        let names: Vec<String> = drawers.iter().map(|k| format!("`{}`", k.name())).collect();
        let why = if !charts.iter().any(|c| drawers.contains(&c.kind)) {
            match names.as_slice() {
                [one] => format!("only the {one} chart draws it, and it is not drawn"),
                _ => format!(
                    "only the {} charts draw it, and none of them is drawn",
                    names.join(", ")
                ),
            }
        } else if !has_theory {
            no_theory_why(layout).to_string()
        } else {
            "no group has a value to draw".to_string()
        };
        out.push(NotDrawn {
            key: "theory",
            name: tk.name(),
            why,
            crowded: false,
        });
    }
    out
}

/// Why no group of the charts has a theory (a tree of one b and one depth): pooled over
/// positions of several depths, or no branching factor known.
fn no_theory_why(layout: &Layout) -> &'static str {
    if layout.pool.iter().any(|p| p == "depth") {
        "the charts pool over depth, and a theory tree is for one depth; summary.csv gives the theory columns (`theory_nodes_over_minimal`, ...) per group, unpooled, where a branching factor is known"
    } else {
        "no group has a known branching factor (no `branching` column and no minimax/negamax run without iterative deepening on the same positions and depth)"
    }
}

/// The transposition-table size column a `nodes-vs-table` chart puts on x: the first of
/// `TABLE_SIZE_COLUMNS` with two sizes at least (runs without a table have an empty size).
fn table_size_column(s: &Summary) -> Option<String> {
    TABLE_SIZE_COLUMNS
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
        .map(|c| c.to_string())
}

/// The x column of a chart of `kind`, or why the data cannot support the chart.
fn chartable(
    s: &Summary,
    layout: &Layout,
    kind: ChartKind,
    has_theory: bool,
    table_col: Option<&str>,
) -> Result<String, String> {
    let x = match kind {
        ChartKind::NodesVsTable => match table_col {
            // Faceted by the size, a chart would hold one size. (A series of sizes is
            // swapped with x: the sizes go on x, x's values become the series.)
            Some(c) if layout.facet.iter().any(|f| f == c) => {
                return Err(format!(
                    "the charts' facet is `{c}`, the table size this chart puts on x, so each chart would hold one size; allowed: a `facet` without it"
                ));
            }
            // By default, over the size the nodes chart already has on x, it would be that
            // chart again under another title (asked for by name, it is drawn).
            Some(c)
                if c == layout.x
                    && !layout.charts_given
                    && layout.charts.contains(&ChartKind::Nodes) =>
            {
                return Err(format!(
                    "x is `{c}`, so the nodes chart is this chart; allowed: name it in `charts` to draw both"
                ));
            }
            Some(c) => c.to_string(),
            None => {
                // A size column the charts pool over is gone from what they draw.
                if let Some(p) = layout
                    .pool
                    .iter()
                    .find(|p| TABLE_SIZE_COLUMNS.contains(&p.as_str()))
                {
                    return Err(format!(
                        "the charts pool over `{p}`, the table size this chart puts on x; allowed: a `pool` without it"
                    ));
                }
                return Err(format!(
                    "runs.csv has no table-size column with two sizes or more ({})",
                    TABLE_SIZE_COLUMNS.join(", ")
                ));
            }
        },
        _ => layout.x.clone(),
    };
    if kind == ChartKind::RatioToMinimal && !has_theory {
        return Err(no_theory_why(layout).into());
    }
    let some_positive = |col: &str| {
        s.groups
            .iter()
            .any(|g| g.stat(s, col).is_some_and(|st| st.max > 0.0))
    };
    if kind == ChartKind::Qnodes && !some_positive("qnodes") {
        return Err("no run entered a quiescence node (qnodes is 0 or missing)".into());
    }
    if kind == ChartKind::FalseHits && !some_positive("tt_false_hits") {
        return Err("no run has a false hit (tt_false_hits is 0 or missing: none with 64 key bits, or without a table)".into());
    }
    if kind == ChartKind::Time && !some_positive("time_ns") {
        return Err("no run has a search time (time_ns is 0 or missing)".into());
    }
    if let Some(col) = kind.share_column() {
        if !s.groups.iter().any(|g| g.stat(s, col).is_some()) {
            let who = if kind == ChartKind::BmHit {
                "finished searches that chose a move, of positions with an EPD `bm` or `am`, have one"
            } else {
                "runs with a table and `[search.tt] reference = true` have one"
            };
            return Err(format!("no run has a {col} ({who})"));
        }
    }
    if kind == ChartKind::Ebf && !s.counters.iter().any(|c| c == "ebf") {
        return Err(
            "no run has an ebf (runs.csv's ebf column is empty or missing; a search of a finished position has none)".into(),
        );
    }
    Ok(x)
}

/// A chart's series columns: the named ones that vary and are neither x nor a facet, then
/// every other varying parameter the others do not determine.
fn series_columns(s: &Summary, layout: &Layout, x: &str) -> Vec<String> {
    let mut series: Vec<String> = layout
        .series
        .iter()
        .filter(|c| **c != x && !layout.facet.contains(c) && varying(s, c))
        .cloned()
        .collect();
    for p in &s.params {
        // A parameter that is a function of x and the columns already chosen (tt_bytes of
        // tt_entries, tt_replacement of tt, variant of algorithm) splits nothing.
        let mut known: Vec<String> = vec![x.to_string()];
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
        let mut others: Vec<String> = vec![x.to_string()];
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
    series
}

/// The groups of each facet (one chart per distinct tuple of facet values), in listed order.
fn facets<'a>(s: &'a Summary, layout: &Layout) -> Vec<(String, Vec<&'a Group>)> {
    let mut facets: Vec<(String, Vec<String>, Vec<&Group>)> = Vec::new();
    for g in &s.groups {
        let f = label_of(s, g, &layout.facet, true);
        match facets.iter_mut().find(|(k, _, _)| *k == f) {
            Some((_, _, v)) => v.push(g),
            None => facets.push((f, key_of(s, g, &layout.facet), vec![g])),
        }
    }
    facets.sort_by(|a, b| layout.cmp_keys(&layout.facet, &a.1, &b.1));
    facets
        .into_iter()
        .map(|(f, _, groups)| (f, groups))
        .collect()
}

/// Gives every series its colour and marker: one index per series label among the charts
/// with the same series columns, in legend order over all of them. A series keeps its look
/// from chart to chart and facet to facet (a chart that leaves one out, as `qnodes` leaves out
/// runs without quiescence, does not shift the others).
pub(super) fn assign_styles(charts: &mut [Chart], layout: &Layout) {
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

/// The time chart's y-axis title, its values in `unit` (ms or s).
fn time_y_title(point: PointStat, unit: &str) -> String {
    format!("{} search time ({unit}, log scale)", stat_words(point))
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
    let y_of = |g: &Group| group_point(s, layout, kind, g);
    // On a table-size axis (nodes-vs-table's, or a table-size column as x in any chart), runs
    // without a table (empty size) become a dashed reference line, so the axis stays numeric.
    let size_x = kind == ChartKind::NodesVsTable || TABLE_SIZE_COLUMNS.contains(&x);
    let no_table = |g: &Group| size_x && g.param(s, x) == Some("");
    // The x values of this facet's points, in listed order; on the false-hits chart also those
    // of the groups with none (a table that never hit falsely, at 64 key bits say), so that
    // the axis shows where there is none rather than ending before it.
    let counted = |g: &Group| kind == ChartKind::FalseHits && g.stat(s, "tt_false_hits").is_some();
    let mut xs: Vec<String> = groups
        .iter()
        .filter(|g| !no_table(g) && (y_of(g).is_some() || counted(g)))
        .map(|g| g.param(s, x).unwrap_or("").to_string())
        .collect();
    xs.sort_by(|a, b| layout.cmp_in(x, a, b, cmp_natural));
    xs.dedup();
    // `[report] x_scale` is the scale of `[report] x`: nodes-vs-table's own axis, the table
    // size, keeps its log scale under it.
    let x_scale = if x == layout.x { layout.x_scale } else { None };
    let numeric_x = xs.iter().all(|v| numeric(v).is_some()) && x_scale != Some(XScale::Category);
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
    // Nor has the ebf chart for a group with a search stopped before it entered its deepest
    // ply: nodes^(1/max_ply) is no lower bound when max_ply would still grow (iterative
    // deepening's later iterations, a longer line not yet entered), so the point would be
    // neither a value nor a floor. (Stopped at its deepest ply, it is a floor like nodes.)
    let ebf_left_out = |g: &Group| kind == ChartKind::Ebf && g.budget_short > 0;
    // (A group without a table has no `value_wrong` or `move_wrong` to lose: not named.)
    let table_less = |g: &Group| {
        matches!(kind, ChartKind::ValueWrong | ChartKind::MoveWrong)
            && g.param(s, "tt") != Some("on")
    };
    let omitted = |g: &Group| {
        ebf_left_out(g)
            || (kind.share_column().is_some()
                && g.budget > 0
                && g.budget == g.rows.len()
                && !table_less(g))
    };
    // A group with no point, named for report.md: `series at x = value`.
    let named = |g: &&Group| {
        format!(
            "{} at {x} = {}",
            series_label(g),
            g.param(s, x).unwrap_or("")
        )
    };
    let all_stopped: Vec<String> = groups.iter().filter(|g| omitted(g)).map(named).collect();
    // The ratio chart has no point for a group without a minimal tree (on a real game b is
    // fitted to the finished minimax/negamax runs of the same positions and depth, and a
    // budget may have stopped them all): report.md names such groups.
    let no_minimal: Vec<String> = groups
        .iter()
        .filter(|g| {
            kind == ChartKind::RatioToMinimal
                && g.theory.is_none()
                && g.stat(s, "nodes").is_some()
                // Depth 0 (a finished position) has no tree to compare with.
                && g.stat(s, "theory_depth").is_some_and(|d| d.max > 0.0)
        })
        .map(named)
        .collect();
    let no_ebf: Vec<String> = groups
        .iter()
        .filter(|g| {
            kind == ChartKind::Ebf
                && g.budget_short == 0
                && g.stat(s, "ebf").is_none()
                && g.stat(s, "nodes").is_some()
        })
        .map(named)
        .collect();
    // A share is of the finished searches only (a budget-stopped one has no value or move),
    // not a lower bound: no budget mark; the runs it counts go with it.
    let budget = |g: &Group| g.budget > 0 && kind.share_column().is_none();
    let counted = |g: &Group| {
        kind.share_column()
            .and_then(|c| g.stat(s, c))
            .map(|st| (st.n, g.rows.len()))
    };
    // x values of left-out groups, by series label: their lines break there.
    let mut breaks: Vec<(String, f64)> = Vec::new();
    for g in groups {
        if ebf_left_out(g) {
            breaks.push((series_label(g), xpos(g.param(s, x).unwrap_or(""))));
            continue;
        }
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
                    across: true,
                    // One point (drawn across the chart) at a size that is on the axis.
                    points: vec![Point {
                        x: xs.first().map_or(1.0, |v| xpos(v)),
                        x_label: "any size".into(),
                        // The group's spread, for report.md's table (the line draws y only).
                        y,
                        lo,
                        hi,
                        // As the series' points below (bm-hit: the runs without a table find
                        // best moves too).
                        budget: budget(g),
                        counted: counted(g),
                        runs: g.rows.len(),
                    }],
                    breaks: vec![],
                    style: 0,
                });
            }
            continue;
        }
        let label = series_label(g);
        let xv = g.param(s, x).unwrap_or("").to_string();
        let p = Point {
            x: xpos(&xv),
            x_label: if xv.is_empty() { blank(x).into() } else { xv },
            y,
            lo,
            hi,
            budget: budget(g),
            counted: counted(g),
            runs: g.rows.len(),
        };
        match series.iter_mut().find(|q| q.label == label) {
            Some(q) => q.points.push(p),
            None => series.push(Series {
                label,
                key: key_of(s, g, series_cols),
                points: vec![p],
                breaks: vec![],
                style: 0,
                across: false,
            }),
        }
    }
    if series.is_empty() {
        return None;
    }
    series.sort_by(|a, b| layout.cmp_keys(series_cols, &a.key, &b.key));
    for q in &mut series {
        q.breaks = breaks
            .iter()
            .filter(|(l, _)| *l == q.label)
            .map(|(_, b)| *b)
            .collect();
        q.points.sort_by(|a, b| a.x.total_cmp(&b.x));
    }
    // Runs without a table have no table size: no theory point at a size of 0. On a category
    // axis, a group with no point (its every run stopped short, say) has no category: its
    // theory would land on the first one.
    let on_axis = |g: &Group| numeric_x || xs.iter().any(|v| g.param(s, x).unwrap_or("") == v);
    let sized: Vec<&Group> = groups
        .iter()
        .copied()
        .filter(|g| !no_table(g) && on_axis(g))
        .collect();
    let (theory, theory_kinds) = theory_series(
        s,
        layout,
        kind,
        x,
        series_cols,
        groups,
        &sized,
        &xs,
        &xpos,
        reference,
    );
    let (ymin, ymax) = series
        .iter()
        .flat_map(|q| q.points.iter().map(|p| (p.lo, p.hi)))
        .fold((f64::INFINITY, 0.0f64), |(a, b), (lo, hi)| {
            (a.min(lo), b.max(hi))
        });
    let log_y = match kind {
        ChartKind::Nodes
        | ChartKind::NodesVsTable
        | ChartKind::Qnodes
        | ChartKind::FalseHits
        | ChartKind::Time => true,
        ChartKind::Ebf | ChartKind::ValueWrong | ChartKind::MoveWrong | ChartKind::BmHit => false,
        ChartKind::RatioToMinimal => ymin > 0.0 && ymax / ymin > 30.0,
    };
    // Table sizes (powers of two) go on a log axis in every chart, not in nodes-vs-table only.
    let size_axis = kind == ChartKind::NodesVsTable || TABLE_SIZE_COLUMNS.contains(&x);
    let log_x = (size_axis || x_scale == Some(XScale::Log))
        && x_scale != Some(XScale::Linear)
        && numeric_x
        && xs.iter().all(|v| numeric(v).unwrap_or(0.0) > 0.0);
    // Points over depth = full are joined on uniform trees only (a chart of a real game's
    // positions, or of a real game beside uniform trees, is not), and so are theory lines.
    // With numbers and "full" in one depth list, a full search lands at its position's plies
    // left: where that gives one series other positions at one depth than at another (6: all
    // three positions; 7: only the one with 7 plies left), its points are not joined either.
    let other_positions = || {
        let mut seen: Vec<(String, &[String])> = Vec::new();
        groups.iter().filter(|g| !no_table(g)).any(|g| {
            let label = series_label(g);
            match seen.iter().find(|(l, _)| *l == label) {
                Some((_, ids)) => *ids != g.position_ids.as_slice(),
                None => {
                    seen.push((label, g.position_ids.as_slice()));
                    false
                }
            }
        })
    };
    let apart = x == "depth"
        && (layout.full_depth || (layout.mixed_depth && other_positions()))
        && groups
            .iter()
            .any(|g| g.param(s, "game").is_some_and(|v| v != "uniform"));
    let title = chart_title(layout, kind);
    let y_title = y_title(s, layout, kind, groups, log_y);
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
        x_title: x_title(x, log_x, layout.full_depth, layout.mixed_depth),
        y_title,
        series,
        theory,
        theory_kinds,
        log_x,
        log_y,
        whiskers: layout.whiskers == Whiskers::MinMax,
        categories: (!numeric_x).then(|| {
            xs.iter()
                .map(|v| {
                    if v.is_empty() {
                        blank(x).into()
                    } else {
                        v.clone()
                    }
                })
                .collect()
        }),
        bars: kind == ChartKind::RatioToMinimal,
        lines: numeric_x && kind != ChartKind::RatioToMinimal && !apart,
        apart,
        x_column: x.to_string(),
        series_columns: series_cols.to_vec(),
        all_stopped,
        no_minimal,
        no_ebf,
        shared_y: None,
        y_unit: if kind == ChartKind::Time { "ms" } else { "" },
    })
}

/// A chart's theory lines, in drawing order: the `[report] theory` lines this chart kind
/// draws (`theory_lines`), then the no-table `reference` lines, then the ratio chart's ratio-1
/// line; each line's style set by its kind. Also the kinds drawn, for report.md. `sized`: the
/// groups with a table size where x is one (runs without a table have no size, so no theory
/// point at a size of 0); `xs` the chart's x values and `xpos` their places on the axis.
#[allow(clippy::too_many_arguments)]
fn theory_series(
    s: &Summary,
    layout: &Layout,
    kind: ChartKind,
    x: &str,
    series_cols: &[String],
    groups: &[&Group],
    sized: &[&Group],
    xs: &[String],
    xpos: &dyn Fn(&str) -> f64,
    mut reference: Vec<Series>,
) -> (Vec<Series>, Vec<TheoryKind>) {
    // Theory lines (`theory_lines`), then the no-table reference lines, then the ratio-1 line.
    let mut theory: Vec<Series> = Vec::new();
    let wanted = |t: TheoryKind| layout.theory.contains(&t);
    // Where b is fitted (the uniform tree as big as minimax's), the legend says so: such a
    // tree's minimal tree is no lower bound for a real game's search.
    let fitted = groups
        .iter()
        .any(|g| g.theory.as_ref().is_some_and(Theory::fitted));
    let of_b = if fitted {
        ", b fitted to minimax/negamax"
    } else {
        ""
    };
    // The ratio chart's one theory line, ratio 1, is drawn below.
    let lines: &[TheoryKind] = match kind {
        ChartKind::RatioToMinimal => &[],
        _ => theory_drawn_on(kind),
    };
    let mut theory_kinds = Vec::new();
    for &tk in lines {
        if !wanted(tk) {
            continue;
        }
        // The ebf chart draws the full and minimal trees' own nodes^(1/d), the statistic its
        // points are (a full tree of depth 1 has b + 1 nodes, above b), and Pearl's R*(b),
        // their limit as d grows for random order.
        let name = match (tk, kind == ChartKind::Ebf) {
            (TheoryKind::FullTree, false) => format!("full tree (Σ b^k, k = 0..d{of_b})"),
            (TheoryKind::KnuthMoore, false) => {
                format!("minimal tree (Knuth-Moore, all levels{of_b})")
            }
            (TheoryKind::FullTree, true) => format!("full tree, its nodes^(1/d){of_b}"),
            (TheoryKind::KnuthMoore, true) => format!("minimal tree, its nodes^(1/d){of_b}"),
            (TheoryKind::Pearl, _) => {
                format!("Pearl R*(b): random order, limit as d grows{of_b}")
            }
        };
        let name = name.as_str();
        let line_kind = match tk {
            TheoryKind::FullTree => LINE_FULL,
            TheoryKind::KnuthMoore => LINE_MINIMAL,
            TheoryKind::Pearl => LINE_OTHER,
        };
        let drawn = theory_lines(
            s,
            sized,
            x,
            series_cols,
            (tk, (kind == ChartKind::Ebf).then_some(layout.point)),
            name,
            xpos,
        );
        if !drawn.is_empty() {
            theory_kinds.push(tk);
        }
        theory.extend(drawn.into_iter().map(|t| Series {
            style: line_kind,
            ..t
        }));
    }
    reference.sort_by(|a, b| layout.cmp_keys(series_cols, &a.key, &b.key));
    theory.extend(reference.into_iter().map(|t| Series {
        style: LINE_OTHER,
        ..t
    }));
    if kind == ChartKind::RatioToMinimal && wanted(TheoryKind::KnuthMoore) {
        theory_kinds.push(TheoryKind::KnuthMoore);
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
                runs: 0,
            })
            .collect();
        theory.push(Series {
            label: format!("minimal tree (ratio 1{of_b})"),
            key: vec![],
            points: pts,
            breaks: vec![],
            style: LINE_MINIMAL,
            across: true,
        });
    }
    // A line's dash says its kind in every chart; lines of one kind (trees of several b) take
    // the greys in turn: style = kind + LINE_KINDS × (lines of that kind before it).
    let mut of_kind = [0usize; LINE_KINDS];
    for t in &mut theory {
        let k = t.style;
        t.style = k + LINE_KINDS * of_kind[k];
        of_kind[k] += 1;
    }
    (theory, theory_kinds)
}

/// The `[report] point` statistic of `st` (a geometric mean of values with a 0 falls back to
/// their median).
fn point_of(point: PointStat, st: &crate::report::stats::Stats) -> f64 {
    match point {
        PointStat::Mean => st.mean,
        PointStat::Geomean => st.geomean.unwrap_or(st.median),
        PointStat::Median => st.median,
    }
}

/// The point a group draws in a chart of `kind`, with its whiskers: (y, low, high); `None` when
/// the group has no value to draw there.
fn group_point(
    s: &Summary,
    layout: &Layout,
    kind: ChartKind,
    g: &Group,
) -> Option<(f64, f64, f64)> {
    // The point (`[report] point`; a geometric mean of a group with a 0 falls back to its
    // median) and its whiskers.
    let point = |st: &crate::report::stats::Stats| -> (f64, f64, f64) {
        (point_of(layout.point, st), st.min, st.max)
    };
    match kind {
        ChartKind::Nodes | ChartKind::NodesVsTable => g.stat(s, "nodes").map(point),
        ChartKind::Ebf => g.stat(s, "ebf").map(point),
        ChartKind::ValueWrong | ChartKind::MoveWrong | ChartKind::BmHit => {
            // A share of runs: the mean of a 0/1 column, in percent.
            let col = kind.share_column().expect("a share chart");
            g.stat(s, col).map(|st| {
                let (lo, hi) = wilson(st.mean, st.n_eff);
                (100.0 * st.mean, 100.0 * lo, 100.0 * hi)
            })
        }
        ChartKind::Qnodes => g.stat(s, "qnodes").filter(|st| st.max > 0.0).map(point),
        // A group with none has no point on the log axis (64 key bits: never one).
        ChartKind::FalseHits => g
            .stat(s, "tt_false_hits")
            .filter(|st| st.max > 0.0)
            .map(point),
        // Milliseconds (a whole tic-tac-toe search at about 0.1); `plan_charts` turns a chart
        // with a search of 10,000 ms or more into seconds.
        ChartKind::Time => g
            .stat(s, "time_ns")
            .filter(|st| st.max > 0.0)
            .map(point)
            .map(|(y, lo, hi)| (y / 1e6, lo / 1e6, hi / 1e6)),
        ChartKind::RatioToMinimal => {
            let th = g.theory.as_ref()?;
            // The nodes point and whiskers, each over the group's one minimal tree.
            let (y, lo, hi) = point(g.stat(s, "nodes")?);
            let m = th.minimal_nodes;
            Some((
                Theory::ratio(y, m)?,
                Theory::ratio(lo, m)?,
                Theory::ratio(hi, m)?,
            ))
        }
    }
}

/// The Wilson score 95% interval of a share `p` of `n` runs: unlike p ± 1.96·√(p(1−p)/n), it
/// stays within [0, 1] and does not shrink to nothing at 0 or 1 of a few runs (0 of 10:
/// 0 to 27.8%). `n` is the effective number of runs (`Stats::n_eff`): fewer than the runs
/// where repetitions of one position move together.
pub(super) fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n.is_nan() || n <= 0.0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let z2n = Z * Z / n;
    let centre = p + z2n / 2.0;
    let half = Z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
    let scale = 1.0 + z2n;
    // At a share of 0 (or 1) the closed form's bound is 0 (or 1) exactly, but centre and half
    // are then equal only up to rounding (0 of 3 gave 4.9e-17, printed as 4.868361e-15%).
    let lo = if p <= 0.0 {
        0.0
    } else {
        ((centre - half) / scale).max(0.0)
    };
    let hi = if p >= 1.0 {
        1.0
    } else {
        ((centre + half) / scale).min(1.0)
    };
    (lo, hi)
}

/// The theory line `tk` of a chart, named `name`: one line when the groups at each x agree on
/// its value, else one per tree and depth (labelled by the series columns that name them:
/// game, game options and depth, or every series column when those leave two values under
/// one label); `xpos` places an x value on the axis.
fn theory_lines(
    s: &Summary,
    groups: &[&Group],
    x: &str,
    series_cols: &[String],
    (tk, per_ply): (TheoryKind, Option<PointStat>),
    name: &str,
    xpos: &dyn Fn(&str) -> f64,
) -> Vec<Series> {
    // `per_ply`: the ebf chart's point statistic. There each line's value is that statistic
    // over the group's positions of each position's own tree's nodes^(1/d) (or R*(b)), as a
    // point is over the runs, so a full-width search sits on the full tree's line even where
    // positions of several sizes share an x.
    let per_position = |t: &Theory| {
        let d = t.depth;
        let own = |b: f64| match tk {
            TheoryKind::FullTree => {
                super::super::theory::full_nodes_real(b, d).powf(1.0 / d as f64)
            }
            TheoryKind::KnuthMoore => {
                super::super::theory::minimal_nodes_real(b, d).powf(1.0 / d as f64)
            }
            TheoryKind::Pearl => super::super::theory::pearl_branching_factor(b),
        };
        let point = per_ply?;
        let vs: Vec<f64> = t.position_branching.iter().map(|&b| own(b)).collect();
        crate::report::stats::Stats::of(&vs).map(|st| point_of(point, &st))
    };
    let value = |g: &Group| {
        g.theory.as_ref().and_then(|t| {
            if per_ply.is_some() {
                return (t.depth > 0).then(|| per_position(t)).flatten();
            }
            match tk {
                TheoryKind::FullTree => Some(t.full_nodes),
                TheoryKind::KnuthMoore => Some(t.minimal_nodes),
                TheoryKind::Pearl => Some(t.pearl_r),
            }
        })
    };
    // Theory depends on the tree and the depth only: label its lines by the series columns
    // that name them (game, game options, depth when it is no x), not by orderings or
    // algorithms.
    let tree_cols: Vec<String> = series_cols
        .iter()
        .filter(|c| {
            *c == "game"
                || *c == "depth"
                || crate::experiment::plan::OPTION_COLUMNS.contains(&c.as_str())
        })
        .cloned()
        .collect();
    // Distinct values per x, labelled by `cols`.
    let per_x_of = |cols: &[String]| {
        let mut per_x: BTreeMap<u64, Vec<(f64, String, String)>> = BTreeMap::new();
        for g in groups {
            // A theory value past f64 (b^d of a huge b) is no point of a line.
            if let Some(v) = value(g).filter(|v| v.is_finite()) {
                let xv = g.param(s, x).unwrap_or("").to_string();
                let lbl = if series_cols.is_empty() {
                    String::new()
                } else {
                    label_of(s, g, cols, false)
                };
                per_x
                    .entry(xpos(&xv).to_bits())
                    .or_default()
                    .push((v, xv, lbl));
            }
        }
        per_x
    };
    let same = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs();
    // One label with two values at one x would hide one of them: label by every series
    // column then (the trees differ by something else than the columns that name trees).
    let clash = |per_x: &BTreeMap<u64, Vec<(f64, String, String)>>| {
        per_x.values().any(|vs| {
            vs.iter()
                .any(|(v, _, l)| vs.iter().any(|(w, _, m)| l == m && !same(*v, *w)))
        })
    };
    let mut per_x = per_x_of(if tree_cols.is_empty() {
        series_cols
    } else {
        &tree_cols
    });
    if clash(&per_x) {
        per_x = per_x_of(series_cols);
    }
    let single = per_x
        .values()
        .all(|vs| vs.iter().all(|(v, _, _)| same(*v, vs[0].0)));
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
                runs: 0,
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
                    breaks: vec![],
                    style: 0,
                    across: false,
                }),
            }
        }
    }
    out
}

/// A chart's title: `[report] titles`' for its kind, else the kind's own, after `[report]
/// title` when given.
fn chart_title(layout: &Layout, kind: ChartKind) -> String {
    let default_title = match kind {
        ChartKind::Nodes => "Nodes searched",
        ChartKind::Ebf => "Effective branching factor",
        ChartKind::RatioToMinimal => "Nodes relative to the minimal tree",
        ChartKind::NodesVsTable => "Nodes vs transposition-table size",
        ChartKind::Qnodes => "Quiescence nodes",
        ChartKind::FalseHits => "False hits of the table",
        ChartKind::ValueWrong => "Wrong root values",
        ChartKind::MoveWrong => "Wrong moves",
        ChartKind::BmHit => "Best moves found",
        ChartKind::Time => "Search time",
    };
    let mut title = layout
        .titles
        .get(&kind)
        .cloned()
        .unwrap_or_else(|| default_title.to_string());
    if let Some(t) = &layout.title {
        title = format!("{t}: {title}");
    }
    title
}

/// A chart's y-axis title (`log_y`: the axis is logarithmic).
fn y_title(
    s: &Summary,
    layout: &Layout,
    kind: ChartKind,
    groups: &[&Group],
    log_y: bool,
) -> String {
    match kind {
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
        ChartKind::FalseHits => format!(
            "{} false hits per search (log scale; none: no point)",
            stat_words(layout.point)
        ),
        ChartKind::ValueWrong => "runs whose root value is wrong (%)".into(),
        ChartKind::MoveWrong => "runs whose move is worse than the best (%)".into(),
        ChartKind::BmHit => "finished searches choosing the suite's best move (%)".into(),
        ChartKind::Time => time_y_title(layout.point, "ms"),
        ChartKind::RatioToMinimal => ratio_y_title(layout.point, log_y),
    }
}
