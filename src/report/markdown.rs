//! `report.md`: the experiment's description and configuration, the charts with the figures
//! behind each, measured vs predicted, and the environment. A pure function of runs.csv,
//! experiment.toml and manifest.json; no wall-clock time of its own (manifest times are left
//! out), so `harness plot` rewrites it byte for byte.

use std::fmt::Write;

use super::charts::{Chart, Layout, Point, NO_TABLE};
use super::manifest::Manifest;
use super::summary::{fmt_num, Summary};
use super::table::Table;
use crate::experiment::config::ChartKind;

pub struct Inputs<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// The experiment file's text (empty when the results folder has none).
    pub config: &'a str,
    pub table: &'a Table,
    pub summary: &'a Summary,
    pub layout: &'a Layout,
    pub charts: &'a [Chart],
    pub skipped: &'a [crate::report::charts::NotDrawn],
    pub manifest: Option<&'a Manifest>,
}

/// `s` as a table cell: `|` escaped, a line end as a space, and any other control character
/// or bidirectional control written as its escape (`\u{1b}`, `\r`, `\u{202e}`), so that no
/// text report.md takes from manifest.json or a command line (which harness does not check:
/// the run wrote them) reaches a reader's terminal as a byte it would act on.
fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\n' => out.push(' '),
            c if c.is_control() => out.extend(c.escape_debug()),
            c if crate::games::bidi_control(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

/// The parameter columns (indices into `s.params`) whose value differs between groups: those a
/// table of groups names.
fn varying_params(s: &Summary) -> Vec<usize> {
    (0..s.params.len())
        .filter(|&p| s.groups.iter().any(|g| g.key[p] != s.groups[0].key[p]))
        .collect()
}

/// The head and rule of a table of groups, as far as their parameter columns `cols`.
fn param_head(s: &Summary, cols: &[usize]) -> (String, String) {
    let mut head = String::from("|");
    let mut rule = String::from("|");
    for &p in cols {
        let _ = write!(head, " {} |", cell(&s.params[p]));
        rule.push_str("---|");
    }
    (head, rule)
}

/// A group's row of that table, as far as its values in `cols`.
fn param_row(key: &[String], cols: &[usize]) -> String {
    let mut row = String::from("|");
    for &p in cols {
        let _ = write!(row, " {} |", cell(&key[p]));
    }
    row
}

/// Column names as inline code joined by commas, or "none" (an empty code span would show
/// its backticks).
fn code_or_none(names: &[String]) -> String {
    let names: Vec<String> = names
        .iter()
        .filter(|n| !n.is_empty())
        .map(|n| format!("`{n}`"))
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// report.md: the title, description and run counts, then its sections in order.
pub fn render(i: &Inputs) -> String {
    let mut m = String::new();
    let _ = writeln!(m, "# {}\n", i.name);
    if !i.description.is_empty() {
        let _ = writeln!(m, "{}\n", i.description);
    }
    let budget = i.summary.groups.iter().map(|g| g.budget).sum::<usize>();
    let _ = writeln!(
        m,
        "{} runs in {} groups (runs that differ only in position or repetition); {} stopped by a budget. \
         Files: [runs.csv](runs.csv) (one row per run), [summary.csv](summary.csv) (statistics per group), \
         [manifest.json](manifest.json), [experiment.toml](experiment.toml).\n",
        i.table.rows.len(),
        i.summary.groups.len(),
        budget
    );
    solve_scores(&mut m, i);
    configuration(&mut m, i);
    chart_sections(&mut m, i, budget);
    measured_vs_predicted(&mut m, i);
    environment(&mut m, i);
    statistics(&mut m);
    m
}

/// Solve runs whose proved score differs from the positions file's (`score` against
/// `expected` in runs.csv): `harness run` warns of them on stderr, and report.md says so too,
/// with the groups they fall in, since a reader of the report alone would not see the warning.
fn solve_scores(m: &mut String, i: &Inputs) {
    let t = i.table;
    let (Some(score), Some(expected), Some(status)) =
        (t.col("score"), t.col("expected"), t.col("status"))
    else {
        return;
    };
    let ok = crate::search::Status::Ok.name();
    let checked = |r: &usize| &t.rows[*r][status] == ok && !t.rows[*r][expected].is_empty();
    let wrong = |r: &usize| checked(r) && t.rows[*r][score] != t.rows[*r][expected];
    let (n, w) = (
        (0..t.rows.len()).filter(checked).count(),
        (0..t.rows.len()).filter(wrong).count(),
    );
    if n == 0 {
        return;
    }
    if w == 0 {
        let _ = writeln!(
            m,
            "Every one of the {n} finished solve runs with an expected score proved it (runs.csv: `score` = `expected`).\n"
        );
        return;
    }
    let _ = writeln!(
        m,
        "**{w} of the {n} finished solve runs with an expected score proved another** (runs.csv: `score` ≠ `expected`), by group:\n"
    );
    let s = i.summary;
    let cols = varying_params(s);
    let (head, rule) = param_head(s, &cols);
    let _ = writeln!(m, "{head} wrong scores | runs checked |\n{rule}---:|---:|");
    for g in &s.groups {
        let gw = g.rows.iter().filter(|r| wrong(r)).count();
        if gw > 0 {
            let gn = g.rows.iter().filter(|r| checked(r)).count();
            let _ = writeln!(m, "{} {gw} | {gn} |", param_row(&g.key, &cols));
        }
    }
    let _ = writeln!(m);
}

/// The experiment file, and the columns the charts use.
fn configuration(m: &mut String, i: &Inputs) {
    let _ = writeln!(m, "## Configuration\n");
    if i.config.is_empty() {
        let _ = writeln!(m, "(no experiment.toml in this folder)\n");
    } else {
        let _ = writeln!(m, "```toml\n{}\n```\n", i.config.trim_end());
    }
    // The series columns the charts use: the `[report]` ones that vary and are not x or facet,
    // then every other varying parameter the rest do not determine (`charts::plan_charts`).
    let same = i.charts.iter().all(|c| c.series_columns == i.layout.series);
    let series_text = if same {
        code_or_none(&i.layout.series)
    } else {
        format!(
            "{} (`[report] series`, by default `ordering`), which each chart keeps where it varies and is not x or facet, adding every other parameter that varies unless the others determine it: the first column of each chart's table below names its series columns",
            code_or_none(&i.layout.series)
        )
    };
    let _ = writeln!(
        m,
        "Charts: x = {}, facet = {}, series = {series_text}.\n",
        code_or_none(std::slice::from_ref(&i.layout.x)),
        code_or_none(&i.layout.facet)
    );
    if !i.layout.pool.is_empty() {
        let _ = writeln!(
            m,
            "The charts pool over `{}`: their points are means over every run that differs only in {} (and position and repetition); summary.csv keeps those groups apart.\n",
            i.layout.pool.join(", "),
            if i.layout.pool.len() == 1 { "that column" } else { "those columns" }
        );
    }
}

/// Every chart with the figures behind it, and what was not drawn (`budget`: the runs a budget
/// stopped).
fn chart_sections(m: &mut String, i: &Inputs, budget: usize) {
    let _ = writeln!(m, "## Charts\n");
    if i.charts.is_empty() {
        // `charts = []`, or every chart named was refused by the data: say so rather than
        // leave the section empty.
        if i.skipped.is_empty() {
            let _ = writeln!(m, "None: `[report] charts` names no chart.\n");
        } else {
            let _ = writeln!(
                m,
                "None: the data supports none of the charts `[report] charts` names.\n"
            );
        }
    } else {
        chart_points_text(m, i, budget);
    }
    for c in i.charts {
        chart_section(m, i, c);
    }
    if !i.skipped.is_empty() {
        let _ = writeln!(m, "Not drawn:\n");
        for s in i.skipped {
            let _ = writeln!(m, "- {}", s.text());
        }
        let _ = writeln!(m);
    }
}

/// What the charts' points, whiskers and lines are (`budget`: the runs a budget stopped).
fn chart_points_text(m: &mut String, i: &Inputs, budget: usize) {
    let theory_lines = i
        .charts
        .iter()
        .any(|c| c.theory.iter().any(|t| !t.label.starts_with(NO_TABLE)));
    use crate::experiment::config::{PointStat, Whiskers};
    let point = match i.layout.point {
        PointStat::Mean => "means",
        PointStat::Geomean => "geometric means (medians where a run counted 0)",
        PointStat::Median => "medians",
    };
    let shares = i.charts.iter().any(|c| c.kind.share_column().is_some());
    let whiskers = match (i.layout.whiskers, shares) {
        (Whiskers::MinMax, false) => "whiskers span min to max",
        (Whiskers::MinMax, true) => {
            "whiskers span min to max, on the charts of a share (wrong values, wrong moves, best moves) its Wilson 95% interval over the runs it counts"
        }
        (Whiskers::None, _) => "no whiskers",
    };
    // Charts of a share always show the share of all runs: say so only where it differs.
    let means_apart =
        i.layout.point != PointStat::Mean && i.charts.iter().any(|c| !c.kind.shows_point_stat());
    let aside = if means_apart {
        " (wrong-value, wrong-move and best-move points: shares of the group's finished runs)"
    } else {
        ""
    };
    // Where b is fitted to minimax's node count (a real game), the minimal tree is a uniform
    // tree's: the real game's subtrees differ in size, so a search can enter fewer nodes.
    let fitted = i
        .summary
        .groups
        .iter()
        .any(|g| g.theory.as_ref().is_some_and(|t| t.fitted()));
    let theory = match (theory_lines, fitted) {
        (false, _) => "",
        (true, false) => {
            " Dashed and dotted lines are theory for the group's branching factor b (see Measured vs predicted)."
        }
        (true, true) => {
            " Dashed and dotted lines are theory for the group's branching factor b (see Measured vs predicted). \
             Where b is fitted to minimax/negamax, the trees are uniform trees of that b: a reference, \
             not a bound, for a real game, whose subtrees differ in size (a search can enter fewer \
             nodes than that minimal tree)."
        }
    };
    let several = i.charts.iter().any(|c| c.series.len() > 1);
    let _ = writeln!(
        m,
        "Points are {point} over the group's positions and repetitions{aside}; {whiskers}.{theory}{}{}\n",
        if several {
            " With two or more series, the points stand side by side around their x."
        } else {
            ""
        },
        match i.charts.iter().any(|c| c.categories.is_none() && !c.lines && !c.bars) {
            false => "",
            true if i.layout.mixed_depth => {
                " With `depth = \"full\"` among numbers on a real game, a full search stands at its \
                 position's plies left at most, so one depth can hold other positions than the next \
                 (all positions at a number, only those with that many plies left above it): in \
                 charts over depth where it does, the points and theory are not joined by lines."
            }
            true => {
                " With `depth = \"full\"` on a real game, each depth is other positions (those with \
                 that many plies left at most), not a deeper search of the same ones: in charts over \
                 depth their points and theory are not joined by lines, and the number of positions \
                 can differ from one x to the next."
            }
        }
    );
    if budget > 0 {
        let _ = writeln!(
            m,
            "Budget: a point whose group has a run stopped by a node or time budget is a lower bound \
             (that run's counters are those at the stop). It is drawn as a floor bar with an up \
             arrow, is not joined to its series' line, and its value (the chart's statistic: mean, median \
             or geometric mean) is written `≥ x` in the tables below; summary.csv counts such runs in `budget_runs`.\n"
        );
    }
}

/// A point's x label, value, min and max as its table row writes them: to four significant
/// digits (`readable`), a time chart's to three, as decimals (a search of microseconds in ms).
/// summary.csv keeps the full figures.
fn table_numbers(c: &Chart, p: &Point) -> (String, String, String, String) {
    let f = if c.kind == ChartKind::Time {
        three_digits
    } else {
        readable
    };
    (p.x_label.clone(), f(p.y), f(p.lo), f(p.hi))
}

/// One chart: its picture, and a table of its points and lines.
fn chart_section(m: &mut String, i: &Inputs, c: &Chart) {
    let _ = writeln!(m, "### {}", cell(&c.title));
    if !c.facet.is_empty() {
        let _ = writeln!(m, "\n{}", cell(&c.facet));
    }
    let _ = writeln!(
        m,
        "\n![{}](charts/{}.png)\n\nVector: [charts/{}.svg](charts/{}.svg)\n",
        cell(&c.title),
        c.stem,
        c.stem,
        c.stem
    );
    let yname = match c.kind {
        ChartKind::Ebf => "ebf".to_string(),
        ChartKind::RatioToMinimal => "nodes / minimal".to_string(),
        ChartKind::Qnodes => "qnodes".to_string(),
        ChartKind::FalseHits => "tt_false_hits".to_string(),
        ChartKind::ValueWrong => "% value wrong".to_string(),
        ChartKind::MoveWrong => "% move wrong".to_string(),
        ChartKind::BmHit => "% best move".to_string(),
        ChartKind::Time => format!("time ({})", c.y_unit),
        _ => "nodes".to_string(),
    };
    let series_name = if c.series_columns.is_empty() {
        "series (none varies: all runs)".to_string()
    } else {
        c.series_columns.join(", ")
    };
    // A share's min and max would repeat it: its columns are the runs it counts instead.
    let share = c.kind.share_column().is_some();
    let _ = writeln!(
        m,
        "| {} | {} | {} {} | {} |\n|---|---:|---:|---:|---:|---:|",
        cell(&series_name),
        cell(&c.x_column),
        yname,
        if c.kind.shows_point_stat() {
            i.layout.point.name()
        } else {
            "mean"
        },
        if share {
            "runs counted | runs | 95% interval"
        } else {
            "min | max | runs"
        },
    );
    // The last column: the runs behind a point, or a share's Wilson interval (its runs have
    // their own columns).
    let last = |p: &Point| {
        if share {
            format!(" {}–{} |", readable(p.lo), readable(p.hi))
        } else if p.runs > 0 {
            format!(" {} |", p.runs)
        } else {
            " |".to_string()
        }
    };
    for s in &c.series {
        for p in &s.points {
            let (x, y, lo, hi) = table_numbers(c, p);
            let (lo, hi) = match p.counted {
                Some((n, runs)) => (n.to_string(), runs.to_string()),
                None => (lo, hi),
            };
            let y = if p.budget { format!("≥ {y}") } else { y };
            let _ = writeln!(
                m,
                "| {} | {} | {} | {} | {} |{}",
                cell(&s.label),
                x,
                y,
                lo,
                hi,
                last(p)
            );
        }
    }
    for s in &c.theory {
        let what = if s.label.starts_with(NO_TABLE) {
            "reference"
        } else {
            "theory"
        };
        for p in &s.points {
            let (_, y, lo, hi) = table_numbers(c, p);
            // A theory line is one value; the reference, a group of runs, has their spread
            // (a share: the runs it counts and the runs, as the series' rows).
            let spread = if what == "reference" {
                match p.counted {
                    Some((n, runs)) => format!(" {n} | {runs} |"),
                    None => format!(" {lo} | {hi} |"),
                }
            } else {
                " | |".to_string()
            };
            let y = if p.budget { format!("≥ {y}") } else { y };
            let _ = writeln!(
                m,
                "| {} ({what}) | {} | {} |{spread}{}",
                cell(&s.label),
                p.x_label,
                y,
                last(p)
            );
        }
    }
    if !c.no_minimal.is_empty() {
        let _ = writeln!(
            m,
            "\nNo point where a group has no minimal tree to compare with (its b is fitted to the finished minimax/negamax runs of the same positions and depth, and there are none): {}.",
            c.no_minimal.join("; ")
        );
    }
    if !c.no_ebf.is_empty() {
        let _ = writeln!(
            m,
            "\nNo point where no run of a group entered a node below its root (`max_ply` 0: a finished position, or a root decided before any child was entered), so that nodes^(1/max_ply) is undefined: {}.",
            c.no_ebf.join("; ")
        );
    }
    if c.kind == ChartKind::Ebf && !c.all_stopped.is_empty() {
        let _ = writeln!(
            m,
            "\nNo point where a budget stopped a run before it entered its deepest ply (`max_ply` below `theory_depth`): its ebf, nodes^(1/max_ply), is then no lower bound, as max_ply would still grow: {}.",
            c.all_stopped.join("; ")
        );
    }
    if share {
        let (n, runs) = c
            .series
            .iter()
            .flat_map(|s| &s.points)
            .filter_map(|p| p.counted)
            .fold((0, 0), |(a, b), (n, r)| (a + n, b + r));
        let stopped = c.all_stopped.len();
        if n < runs || stopped > 0 {
            let _ = writeln!(
                m,
                "\nA share counts only the runs with a value in `{}` ({n} of the points' {runs} runs here): a search a budget stopped has none.",
                c.kind.share_column().unwrap_or_default()
            );
        }
        if stopped > 0 {
            let _ = writeln!(
                m,
                "No point, every search stopped by a budget: {}.",
                c.all_stopped.join("; ")
            );
        }
    }
    let _ = writeln!(m);
}

/// The groups with a known branching factor against the Knuth–Moore minimal tree, the full
/// tree and Pearl's R*(b).
fn measured_vs_predicted(m: &mut String, i: &Inputs) {
    let _ = writeln!(m, "## Measured vs predicted\n");
    let s = i.summary;
    let vary = varying_params(s);
    let mut with: Vec<_> = s.groups.iter().filter(|g| g.theory.is_some()).collect();
    // Rows in the order the experiment file lists the values, as the charts' tables.
    with.sort_by(|a, b| i.layout.cmp_keys(&s.params, &a.key, &b.key));
    if with.is_empty() {
        let _ = writeln!(
            m,
            "No group has a known branching factor b (no `branching` column, and no minimax/negamax run \
             without iterative deepening on the same game, positions and depth), so there is nothing to predict.\n"
        );
    } else {
        let _ = writeln!(
            m,
            "b is the `branching` column when runs.csv has one, else the equivalent uniform branching \
             factor: the b whose full tree of depth d has as many nodes as minimax/negamax without iterative \
             deepening entered on the same game, options, positions and depth (so for those runs \
             nodes / full tree = 1 by construction; with iterative deepening their nodes add up \
             depths 1 to d). Minimal tree: Knuth and Moore (1975), sum over l = 0..d of \
             b^ceil(l/2) + b^floor(l/2) - 1. R*(b): Pearl (1982), asymptotic branching factor of \
             alpha-beta on random uniform trees.\n"
        );
        let (mut head, mut rule) = param_head(s, &vary);
        head.push_str(" b | nodes mean | minimal tree | nodes / minimal | full tree | nodes / full | ebf mean | R*(b) | ebf / R* |");
        rule.push_str("---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        let _ = writeln!(m, "{head}\n{rule}");
        let mut ebf_left_out = false;
        for g in with {
            let th = g.theory.as_ref().expect("filtered");
            let mut row = param_row(&g.key, &vary);
            let nodes = g.stat(s, "nodes").map(|x| x.mean);
            // Empty, as on the ebf chart, for a group with a run stopped before its deepest
            // ply: nodes^(1/max_ply) is then neither its value nor a floor.
            let ebf = g.stat(s, "ebf").map(|x| x.mean);
            ebf_left_out |= ebf.is_some() && g.budget_short > 0;
            let ebf = ebf.filter(|_| g.budget_short == 0);
            // A group with a budget-stopped run measured lower bounds only.
            let ge = if g.budget > 0 { "≥ " } else { "" };
            // Measured figures, ratios and tree sizes to four significant digits (`readable`).
            let o = |v: Option<f64>| {
                v.map(|v| format!("{ge}{}", readable(v)))
                    .unwrap_or_default()
            };
            let [over_minimal, over_full, ebf_over_pearl] = th.ratios(nodes, ebf);
            let _ = writeln!(
                row,
                " {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                readable(th.branching),
                o(nodes),
                readable(th.minimal_nodes),
                o(over_minimal),
                readable(th.full_nodes),
                o(over_full),
                o(ebf),
                readable(th.pearl_r),
                o(ebf_over_pearl),
            );
            m.push_str(&row);
        }
        if ebf_left_out {
            let _ = writeln!(
                m,
                "\nebf is left empty for a group with a run a budget stopped before its deepest ply: \
                 nodes^(1/max_ply) is then no lower bound, since max_ply would still grow."
            );
        }
        let _ = writeln!(m);
    }
}

/// The manifest: version, commit, machine, seed and command.
fn environment(m: &mut String, i: &Inputs) {
    let _ = writeln!(m, "## Environment\n");
    match i.manifest {
        None => {
            let _ = writeln!(m, "No manifest.json in this folder: environment unknown.\n");
        }
        Some(mf) => {
            let un = |o: &Option<String>| o.clone().unwrap_or_else(|| "unknown".into());
            let _ = writeln!(m, "| | |\n|---|---|");
            let _ = writeln!(m, "| harness | {} |", cell(&mf.harness_version));
            if let Some(b) = &mf.build_commit {
                let _ = writeln!(m, "| harness built from | {} |", cell(b));
            }
            let _ = writeln!(
                m,
                "| git commit of the working directory | {} |",
                cell(&un(&mf.git_commit))
            );
            let _ = writeln!(m, "| rustc | {} |", cell(&un(&mf.rustc)));
            let _ = writeln!(m, "| CPU | {} |", cell(&un(&mf.cpu)));
            if mf.merged.is_empty() {
                let _ = writeln!(m, "| threads | {} |", mf.threads);
            } else {
                let threads: Vec<String> =
                    mf.merged.iter().map(|s| s.threads.to_string()).collect();
                let _ = writeln!(
                    m,
                    "| merged | {} shards (`harness merge`), each run on its own; their folders, machines and times are in manifest.json |",
                    mf.merged.len()
                );
                let _ = writeln!(m, "| threads, by shard | {} |", threads.join(", "));
            }
            if let Some(n) = mf.resumed {
                let _ = writeln!(
                    m,
                    "| resumed | {n} runs taken from an interrupted run (their times were measured by it, on its own thread count) |"
                );
            }
            let _ = writeln!(m, "| OS | {} |", cell(&mf.os));
            let _ = writeln!(m, "| experiment file | {} |", cell(&mf.experiment_file));
            let _ = writeln!(m, "| config hash (FNV-1a 64) | {} |", cell(&mf.config_hash));
            let _ = writeln!(m, "| seed | {} |", mf.seed);
            let _ = writeln!(m, "| command | `{}` |", cell(&mf.command_line.join(" ")));
            let _ = writeln!(
                m,
                "\nStart and end times are in manifest.json (left out here so that `harness plot` \
                 rebuilds this file byte for byte).\n"
            );
        }
    }
}

/// What summary.csv's statistics are.
fn statistics(m: &mut String) {
    let _ = writeln!(m, "## Statistics\n");
    let _ = writeln!(
        m,
        "summary.csv groups runs by every parameter column (all but position and repetition) and gives, \
         per counter, the mean, median, geometric mean (empty when a value is 0), min, max and a 95% \
         Student-t interval of the mean (mean ± t(0.975, n-1)·s/√n, empty for n = 1; where positions have \
         several runs, the repetitions of a random ordering, the positions are the sample: the \
         cluster-robust interval with G-1 degrees of freedom over the G positions, or the textbook variance \
         where that is larger, so that repetitions do not narrow it as independent runs would). Counters are exact; the interval describes the \
         spread over positions and repetitions. Time columns (time_ns, \
         nodes_per_second) are wall-clock and differ between runs; all other figures do not."
    );
}

/// `v` (> 0) to three significant digits, as a decimal (0.000985, 1.38, 52.1; 0.0099996 is
/// 0.0100), whole from 100 up (12346).
fn three_digits(v: f64) -> String {
    if !(v > 0.0 && v.is_finite()) {
        return fmt_num(v);
    }
    significant(v, 3)
}

/// A report table's figure: a whole number exactly (within a float's rounding), any other to
/// four significant digits but never fewer than its whole part (8.333, 35.39, 395.0, 0.005140,
/// 4270.43 as 4270); below 0.001 or from 10^15 up, as 1.234e-4 or 1.552e22. summary.csv keeps
/// six decimals.
fn readable(v: f64) -> String {
    let a = v.abs();
    if !v.is_finite() {
        return fmt_num(v);
    }
    // Whole, or whole but for a float's last bits (a full tree of a b fitted to 933 nodes
    // computes as 932.9999999999): the whole number.
    if a < 1e15 && (v - v.round()).abs() <= 1e-9 * a {
        return fmt_num(v.round());
    }
    if !(1e-3..1e15).contains(&a) {
        return format!("{v:.3e}");
    }
    let sign = if v < 0.0 { "-" } else { "" };
    format!("{sign}{}", significant(a, 4))
}

/// `v` (> 0, finite) to `n` significant digits as a decimal, whole from 10^(n-1) up.
fn significant(v: f64, n: usize) -> String {
    let mut places = (n as i64 - 1 - v.log10().floor() as i64).max(0) as usize;
    // Rounding up to the next power of ten gains a digit: one place fewer.
    let digits = |t: String| {
        t.chars()
            .filter(char::is_ascii_digit)
            .skip_while(|&c| c == '0')
            .count()
    };
    if places > 0 && digits(format!("{v:.places$}")) > n {
        places -= 1;
    }
    format!("{v:.places$}")
}

#[cfg(test)]
mod tests {
    use super::{readable, three_digits};

    #[test]
    fn report_figures_keep_four_significant_digits_and_whole_numbers_exact() {
        let cases = [
            (8.0 + 1.0 / 3.0, "8.333"),
            (35.387991, "35.39"),
            (395.047619, "395.0"),
            (0.0051403, "0.005140"),
            (0.0099996, "0.01000"),
            (9.99996, "10.00"),
            (999.96, "1000"),
            (4270.428571, "4270"),
            (18439.666667, "18440"),
            (123734.4, "123734"),
            (2702.0, "2702"),
            (0.0, "0"),
            (932.9999999999, "933"),
            (1.0000000001, "1"),
            (-0.0, "0"),
            (-2.5, "-2.500"),
            (0.000123456, "1.235e-4"),
            (1e-12, "1.000e-12"),
            (-2.5e-10, "-2.500e-10"),
            (1.5e22, "1.500e22"),
        ];
        for (v, want) in cases {
            assert_eq!(readable(v), want, "{v}");
        }
        // A value past what a float holds is an empty cell, as in summary.csv.
        assert_eq!(readable(f64::INFINITY), "");
        assert_eq!(three_digits(0.0099996), "0.0100");
        assert_eq!(three_digits(12345.6), "12346");
    }
}
