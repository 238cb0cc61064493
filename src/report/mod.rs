//! Outputs: the tidy per-run CSV, and everything built from it: summary.csv, charts/,
//! report.md (see [`build`]), plus manifest.json (written by `harness run` only).

pub mod charts;
pub mod csv;
pub mod manifest;
pub mod markdown;
pub mod stats;
pub mod summary;
pub mod table;
pub mod theory;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::experiment::config::{
    self, ChartKind, ExperimentFile, ReportSection, TheoryKind, XScale,
};
use crate::experiment::oneormany::{first_repeat, repeat_words};
use charts::Layout;
use table::Table;

/// The copy of the experiment file that `harness run` keeps in the results folder.
pub const EXPERIMENT_COPY: &str = "experiment.toml";

/// What [`build`] wrote.
#[derive(Debug)]
pub struct Built {
    pub files: Vec<PathBuf>,
    pub charts: usize,
    pub groups: usize,
    /// The charts `[report] charts` and the theory lines `[report] theory` name that the data
    /// cannot support, each with why (as report.md lists them).
    pub skipped: Vec<charts::NotDrawn>,
    /// Characters of the charts' text the embedded font has no glyph for (a title in another
    /// script): the PNGs draw boxes in their place.
    pub no_glyph: Vec<char>,
}

/// The files a results folder holds (each written through `NAME.tmp`, `csv::tmp_of`), and its
/// charts folder.
const OUTPUT_FILES: [&str; 5] = [
    "runs.csv",
    EXPERIMENT_COPY,
    manifest::FILE,
    "summary.csv",
    "report.md",
];

/// Every file a run writes or removes in its results folder, charts/ apart: the results, the
/// resume file and a shard's file.
fn run_files() -> impl Iterator<Item = &'static str> {
    OUTPUT_FILES
        .iter()
        .copied()
        .chain(["runs.csv.partial", crate::experiment::shard::FILE])
}

/// Checks, before anything is searched or written, that no name the results folder `dir`
/// needs is taken by the wrong kind of entry (a folder named `runs.csv`, a file named
/// `charts`, a link named `charts`): an input error naming the entry. `remedy`: what the
/// message offers besides removing it (`harness run`: another --out DIR; `plot`: nothing).
pub fn check_output_names(dir: &Path, remedy: &str) -> Result<()> {
    let taken = |p: &Path, what: &str| {
        Error::input(format!(
            "{}: {what}; the results folder needs that name (remove it{remedy})",
            p.display()
        ))
    };
    for name in OUTPUT_FILES.iter().copied().chain(["runs.csv.partial"]) {
        for p in [dir.join(name), csv::tmp_of(&dir.join(name))] {
            if let Some(what) = not_a_file(&p) {
                return Err(taken(&p, &what));
            }
        }
    }
    let charts = dir.join("charts");
    if let Some(k) = entry_kind(&charts).filter(|k| *k != "a folder") {
        return Err(taken(&charts, &format!("is {k}, not a folder")));
    }
    // A link to a folder elsewhere: the report removes the chart files (.svg, .png) an
    // earlier run left in charts/, and would remove them there, outside the results folder.
    if std::fs::symlink_metadata(&charts).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(taken(
            &charts,
            "is a link to a folder, not a folder of its own: the report replaces and removes the .svg and .png files in charts/, and would do so in the folder linked to",
        ));
    }
    // Inside charts/, an entry named like a chart (or its temporary) that is not a file would
    // stop the writing half way, after the earlier report is gone, or block it (a pipe).
    if let Ok(rd) = std::fs::read_dir(&charts) {
        let mut taken_names: Vec<(PathBuf, String)> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_chart_name(p))
            .filter_map(|p| not_a_file(&p).map(|w| (p, w)))
            .collect();
        taken_names.sort();
        if let Some((p, what)) = taken_names.first() {
            return Err(taken(p, what));
        }
    }
    Ok(())
}

/// The longest path, in bytes, this system lets a program name (Linux's PATH_MAX, 4,096,
/// counts the closing NUL; macOS's, 1,024, too); `None` where the harness does not know it.
const PATH_MAX: Option<usize> = if cfg!(target_os = "linux") {
    Some(4095)
} else if cfg!(target_os = "macos") {
    Some(1023)
} else {
    None
};

/// The bytes the longest path in a results folder adds to the folder's: a chart's temporary
/// file, `/charts/STEM.svg.tmp` (the other files' names are shorter).
const LONGEST_INSIDE: usize = "/charts/".len() + charts::MAX_STEM + ".svg.tmp".len();

/// Refuses, before anything is made or written, a results folder whose path, as given
/// (a relative one counts from the current folder, as the system reads it), leaves no room
/// for the chart files under it: writing them would fail after the searches.
/// `remedy`: what the message offers.
pub fn check_path_room(dir: &Path, remedy: &str) -> Result<()> {
    let Some(max) = PATH_MAX else {
        return Ok(());
    };
    let len = dir.as_os_str().len();
    if len + LONGEST_INSIDE <= max {
        return Ok(());
    }
    Err(Error::input(format!(
        "{}: the path is {len} bytes long, and the chart files under it add up to {LONGEST_INSIDE} more (charts/NAME.svg.tmp), past this system's limit of {max} bytes a path; allowed: a folder path of at most {} bytes; {remedy}",
        dir.display(),
        max - LONGEST_INSIDE
    )))
}

/// What the entry at `p` is, in a message's words (`a file`, `a folder`, `a link to nothing`,
/// `a device, pipe or socket`), following links; `None` when nothing is there.
pub fn entry_kind(p: &Path) -> Option<&'static str> {
    std::fs::symlink_metadata(p).ok()?;
    Some(if p.is_file() {
        "a file"
    } else if p.is_dir() {
        "a folder"
    } else if !p.exists() {
        "a link to nothing"
    } else {
        "a device, pipe or socket"
    })
}

/// What an entry at `p` is when it is there but not a regular file (or a link to one): a
/// folder, a device, pipe or socket (opening a pipe blocks), or a link to nothing (writing
/// through it would create a file outside the results folder).
fn not_a_file(p: &Path) -> Option<String> {
    entry_kind(p)
        .filter(|k| *k != "a file")
        .map(|k| format!("is {k}, not a file"))
}

/// Refuses, before anything is written, a `harness run` of experiment `name` into a folder
/// that holds files a run would replace or remove (runs.csv, summary.csv, report.md, charts,
/// ...) but is not a results folder of `name`: one whose manifest.json (written first by every
/// run) names another experiment, or which has none (a folder of the user's own). A rerun of
/// the same experiment replaces its results, as it always did.
/// (`file`: the experiment file run, which may itself be the folder's experiment.toml.)
/// Returns the folder's manifest when it is a results folder of `name`.
pub fn check_results_folder(
    dir: &Path,
    name: &str,
    file: &Path,
) -> Result<Option<manifest::Manifest>> {
    let mut held: Vec<String> = run_files()
        .filter(|n| dir.join(n).is_file())
        .filter(|n| !(*n == EXPERIMENT_COPY && same_path(&dir.join(n), file)))
        .map(String::from)
        .collect();
    held.extend(
        chart_files(&dir.join("charts"))
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(|n| format!("charts/{n}"))),
    );
    if held.is_empty() {
        return Ok(None);
    }
    let shown = |held: &[String]| {
        let mut t = held.iter().take(4).cloned().collect::<Vec<_>>().join(", ");
        if held.len() > 4 {
            t.push_str(&format!(" and {} more", held.len() - 4));
        }
        t
    };
    let what = match manifest::Manifest::read(dir) {
        Ok(Some(m)) if m.experiment == name => return Ok(Some(m)),
        Ok(Some(m)) => format!(
            "the results of experiment `{}` (manifest.json)",
            m.experiment
        ),
        Ok(None) => format!(
            "{} but no manifest.json, so it is not a results folder of a harness run",
            shown(&held)
        ),
        Err(e) => format!(
            "{}, but its manifest.json cannot be read ({e}), so it is not known to be a results folder of `{name}`",
            shown(&held)
        ),
    };
    Err(Error::input(format!(
        "{}: holds {what}; a run of experiment `{name}` would replace or remove those files. Allowed: a new or empty folder, or the results folder of `{name}`; pass another --out DIR, or move the files away",
        dir.display()
    )))
}

/// Refuses input files of a run (the experiment `file`, its positions files) that the run
/// into `dir` would replace or remove: a file harness writes there (runs.csv, summary.csv,
/// report.md, manifest.json, runs.csv.partial, shard.jsonl, experiment.toml unless it is
/// `file` itself, their temporaries) or a chart file in its charts/. An input error naming the
/// input, before anything is written.
pub fn check_inputs_outside(dir: &Path, file: &Path, inputs: &[PathBuf]) -> Result<()> {
    let charts = dir.join("charts").canonicalize().ok();
    for input in inputs {
        let Ok(at) = input.canonicalize() else {
            continue;
        };
        let names = run_files()
            // The experiment file run from its own copy: the copy writes the same text.
            .filter(|n| !(*n == EXPERIMENT_COPY && same_path(input, file)));
        // The name inside the results folder the input is at, if the run writes it.
        let mut taken = names
            .flat_map(|n| [n.to_string(), format!("{n}.tmp")])
            .find(|n| dir.join(n).canonicalize().is_ok_and(|t| t == at));
        if taken.is_none() && at.parent().map(Path::to_path_buf) == charts && is_chart_name(&at) {
            taken = at
                .file_name()
                .map(|n| format!("charts/{}", n.to_string_lossy()));
        }
        if let Some(what) = taken {
            return Err(Error::input(format!(
                "{}: is the results folder's {what}, which this run replaces or removes; keep the experiment's input files (the experiment file, its positions files) outside {}, or pass another --out DIR",
                input.display(),
                dir.display()
            )));
        }
    }
    Ok(())
}

/// Whether `a` and `b` name one file or folder (both exist, and resolve to one path).
pub fn same_path(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// A name harness writes in charts/: `STEM.svg`, `STEM.png`, or their temporaries
/// `STEM.svg.tmp`, `STEM.png.tmp`.
fn is_chart_name(p: &Path) -> bool {
    let chart = |p: &Path| p.extension().is_some_and(|x| x == "svg" || x == "png");
    chart(p) || (p.extension().is_some_and(|x| x == "tmp") && chart(&p.with_extension("")))
}

/// The first of `dir` and its `charts/` (where that exists) that cannot be written, with the
/// error a probe file there met.
pub fn unwritable(dir: &Path) -> Option<(PathBuf, std::io::Error)> {
    [dir.to_path_buf(), dir.join("charts")]
        .into_iter()
        .filter(|d| d == dir || d.exists())
        .find_map(|d| {
            // One name per process: two runs that start together into one folder would
            // otherwise race on one probe file, and the loser would be told the folder cannot
            // be written when it is only busy (the lock, taken next, says that).
            let probe = d.join(format!(".harness-write-test.{}", std::process::id()));
            // A probe left by a killed process of the same id goes first.
            let _ = std::fs::remove_file(&probe);
            match csv::create_new(&probe) {
                Ok(_) => {
                    let _ = std::fs::remove_file(&probe);
                    None
                }
                Err(e) => Some((d, e)),
            }
        })
}

/// Checks that the report can be written into `dir` (and its `charts/`, where that exists):
/// an input error naming the folder, before anything is rendered.
pub fn check_writable(dir: &Path) -> Result<()> {
    match unwritable(dir) {
        Some((d, e)) => Err(Error::input(format!(
            "{}: cannot be written ({e}); the report (summary.csv, report.md, charts/) is written into the results folder: make it writable, or plot a copy of the folder",
            d.display()
        ))),
        None => Ok(()),
    }
}

/// The chart files (`.svg`, `.png`, and temporaries `.svg.tmp`, `.png.tmp` a killed run left) in
/// `chart_dir`, sorted; none when it cannot be read.
fn chart_files(chart_dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(chart_dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_chart_name(p) && p.is_file())
        .collect();
    files.sort();
    files
}

/// Removes the report files of an earlier run (summary.csv, report.md, the charts), so that
/// a run stopped before its own report is written leaves none that belong to other runs: its
/// folder then has a report that matches runs.csv, or none. Files that are not there are fine.
pub fn remove_report(dir: &Path) -> Result<()> {
    // With the temporaries a killed run may have left of them.
    for name in [
        "report.md",
        "summary.csv",
        "report.md.tmp",
        "summary.csv.tmp",
    ] {
        csv::remove_if_present(&dir.join(name))?;
    }
    for p in chart_files(&dir.join("charts")) {
        csv::remove_if_present(&p)?;
    }
    Ok(())
}

/// Saves the experiment file's text as `dir/experiment.toml` (so `harness plot` can read the
/// description and `[report]` later).
pub fn save_experiment(dir: &Path, src: &str) -> Result<()> {
    csv::write_atomic(&dir.join(EXPERIMENT_COPY), src.as_bytes())
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Io {
        path: path.to_path_buf(),
        err: e,
    }
}

/// Checks the experiment's `[report]` section before anything is searched, against the
/// columns that runs.csv will have: `records` are the plan's runs with empty results.
pub fn check_layout(
    records: &[csv::RunRecord],
    experiment: &str,
    section: Option<&ReportSection>,
    path: &Path,
    src: &str,
) -> Result<()> {
    if section.is_none() {
        return Ok(());
    }
    let header = csv::header(records);
    let rows = records
        .iter()
        .map(|r| table::Row::new(csv::row(experiment, &header, r)))
        .collect();
    let t = table::from_parts(header, rows);
    let s = summary::summarize(&t);
    let layout = resolve_layout(section, &s, path, src)?;
    // The series are known before the search (a depth `full` resolved per position, as the
    // search resolves it).
    let pooled = pooled(&t, &layout);
    check_labels(pooled.as_ref().unwrap_or(&s), &layout, path, src)
}

/// The summary the charts draw: grouped again with the `pool` columns blanked, so that the
/// charts average over them (`None`: nothing pooled, the summary as it is).
fn pooled(t: &table::Table, layout: &charts::Layout) -> Option<summary::Summary> {
    (!layout.pool.is_empty()).then(|| {
        let mut tp = t.clone();
        for c in &layout.pool {
            if let Some(i) = tp.col(c) {
                for row in &mut tp.rows {
                    *row = row.with(i, "");
                }
            }
        }
        summary::summarize(&tp)
    })
}

/// A `[report] labels` key that names no series is a typo, not a wish: an input error at the
/// `labels` line of `path`, listing the series there are in `s`, the summary the charts draw. The series are those of the nodes
/// and nodes-vs-table charts (every other chart has the nodes chart's), drawn or not, before
/// any renaming.
fn check_labels(
    s: &summary::Summary,
    layout: &charts::Layout,
    path: &Path,
    src: &str,
) -> Result<()> {
    if layout.labels.is_empty() {
        return Ok(());
    }
    let mut plain = layout.clone();
    plain.labels.clear();
    plain.charts = vec![ChartKind::Nodes, ChartKind::NodesVsTable];
    let planned = charts::plan_charts(s, &plain).0;
    let mut names: Vec<String> = Vec::new();
    for q in planned.iter().flat_map(|c| &c.series) {
        if !names.contains(&q.label) {
            names.push(q.label.clone());
        }
    }
    // An error at the label `key`.
    let at_label = |key: &str, msg: String| -> Result<()> {
        Err(config::at_key(
            path,
            src,
            &["report", "labels", key],
            format!("[report] labels: {msg}"),
        ))
    };
    if let Some(key) = layout.labels.keys().find(|k| !names.contains(k)) {
        let allowed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        return at_label(
            key,
            format!(
                "`{key}` names no series of the charts; a key is a series' legend label as drawn without labels (its values joined by \", \"); allowed: {}",
                allowed.join(", ")
            ),
        );
    }
    // Two series of one chart drawn under one legend text (spaces around it do not tell
    // texts apart) could not be told apart.
    let drawn = |n: &String| layout.labels.get(n).unwrap_or(n).trim().to_string();
    for c in &planned {
        let names: Vec<&String> = c.series.iter().map(|q| &q.label).collect();
        for (j, &b) in names.iter().enumerate() {
            let Some(&a) = names[..j].iter().find(|&&a| a != b && drawn(a) == drawn(b)) else {
                continue;
            };
            // At the label that made the clash (the later one when both are labels).
            let key = if layout.labels.contains_key(b) { b } else { a };
            let how = |n: &String| {
                if layout.labels.contains_key(n) {
                    format!("`{n}` is labelled")
                } else {
                    format!("`{n}` is drawn as")
                }
            };
            return at_label(
                key,
                format!(
                    "{} {:?} and {} {:?}, so the legend could not tell them apart; allowed: a text no other series is drawn with",
                    how(a),
                    drawn(a),
                    how(b),
                    drawn(b)
                ),
            );
        }
    }
    Ok(())
}

/// Resolves `[report]` against the summary's columns; unknown columns are input errors at the
/// key's line:column in `path`.
pub fn resolve_layout(
    section: Option<&ReportSection>,
    s: &summary::Summary,
    path: &Path,
    src: &str,
) -> Result<Layout> {
    let default = ReportSection::default();
    let r = section.unwrap_or(&default);
    check_texts(r, path, src)?;
    let allowed = || s.params.join(", ");
    let check = |name: &str, key: &str, span: std::ops::Range<usize>| -> Result<()> {
        if s.params.iter().any(|p| p == name) {
            Ok(())
        } else {
            Err(config::at(
                path,
                src,
                span,
                format!(
                    "[report] {key} = `{name}`: not a parameter column of runs.csv; allowed: {}",
                    allowed()
                ),
            ))
        }
    };
    let x = match &r.x {
        Some(x) => {
            check(x.get_ref(), "x", x.span())?;
            // A column empty in every run (`tt_entries` with no table) places no point.
            let filled = |c: &str| {
                s.groups
                    .iter()
                    .any(|g| g.param(s, c).is_some_and(|v| !v.is_empty()))
            };
            if !filled(x.get_ref()) && !s.groups.is_empty() {
                let with: Vec<&str> = s
                    .params
                    .iter()
                    .map(String::as_str)
                    .filter(|c| filled(c))
                    .collect();
                return Err(config::at(
                    path,
                    src,
                    x.span(),
                    format!(
                        "[report] x = `{}`: empty in every run, so no chart could place a point; allowed: a column with a value, {}",
                        x.get_ref(),
                        with.join(", ")
                    ),
                ));
            }
            x.get_ref().clone()
        }
        None => {
            if s.params.iter().any(|p| p == "depth") {
                "depth".to_string()
            } else {
                s.params.first().cloned().unwrap_or_default()
            }
        }
    };
    let list = |v: &Option<toml::Spanned<crate::experiment::oneormany::OneOrMany<String>>>,
                key: &str,
                default: Vec<String>|
     -> Result<Vec<String>> {
        match v {
            Some(sp) => {
                for (i, name) in sp.get_ref().values().iter().enumerate() {
                    check(name, key, config::item_span(src, sp.span(), i))?;
                }
                Ok(sp.get_ref().values().to_vec())
            }
            None => Ok(default),
        }
    };
    // The default series, `ordering`, unless the file makes it a facet or pools over it.
    let named = |v: &Option<toml::Spanned<crate::experiment::oneormany::OneOrMany<String>>>| {
        v.as_ref()
            .is_some_and(|sp| sp.get_ref().values().iter().any(|c| c == "ordering"))
    };
    let default_series =
        if s.params.iter().any(|p| p == "ordering") && !named(&r.facet) && !named(&r.pool) {
            vec!["ordering".to_string()]
        } else {
            vec![]
        };
    let series = list(&r.series, "series", default_series)?;
    // Default facet: one chart per branching factor of uniform trees, whose theory lines
    // differ (unless `branching` is already on the x axis or in the series).
    let branching_varies = s
        .params
        .iter()
        .position(|p| p == "branching")
        .is_some_and(|i| s.groups.iter().any(|g| g.key[i] != s.groups[0].key[i]));
    let default_facet =
        if branching_varies && x != "branching" && !series.iter().any(|c| c == "branching") {
            vec!["branching".to_string()]
        } else {
            vec![]
        };
    let facet = list(&r.facet, "facet", default_facet)?;
    // A column plotted along x cannot also split the lines or the charts: each line or chart
    // would hold one x.
    for (key, given, cols) in [("series", &r.series, &series), ("facet", &r.facet, &facet)] {
        if let (Some(sp), Some(i)) = (given, cols.iter().position(|c| *c == x)) {
            return Err(config::at(
                path,
                src,
                config::item_span(src, sp.span(), i),
                format!(
                    "[report] {key} = `{x}`: also the x axis{}; each {} would hold one x value (allowed: a parameter column other than x)",
                    if r.x.is_none() { " (x defaults to depth; set x to another column)" } else { "" },
                    if key == "series" { "line" } else { "chart" }
                ),
            ));
        }
    }
    // (Only a series the file names: the default one, `ordering`, gives way to a facet.)
    if let (Some(sp), Some(_), Some(i)) = (
        &r.facet,
        &r.series,
        facet.iter().position(|c| series.contains(c)),
    ) {
        let c = &facet[i];
        return Err(config::at(
            path,
            src,
            config::item_span(src, sp.span(), i),
            format!("[report] facet = `{c}`: also a series column; a column splits the lines or the charts, not both (allowed: a parameter column that is neither x nor a series)"),
        ));
    }
    // A log scale spaces numbers: on names (orderings, algorithms) it would do nothing.
    if let (Some(XScale::Log), Some(i)) = (r.x_scale, s.params.iter().position(|p| *p == x)) {
        if let Some(g) = s
            .groups
            .iter()
            .find(|g| !g.key[i].is_empty() && table::numeric(&g.key[i]).is_none_or(|v| v <= 0.0))
        {
            return Err(config::at_key(
                path,
                src,
                &["report", "x_scale"],
                format!(
                    "[report] x_scale = \"log\": x = `{x}` has the value `{}`, which no log axis holds; allowed with log: an x of numbers above 0 (else linear, or category for names)",
                    g.key[i]
                ),
            ));
        }
    }
    let pool = list(&r.pool, "pool", vec![])?;
    if let Some(sp) = &r.pool {
        for (i, p) in pool.iter().enumerate() {
            if *p == x || series.contains(p) || facet.contains(p) {
                return Err(config::at(
                    path,
                    src,
                    config::item_span(src, sp.span(), i),
                    format!(
                        "[report] pool = `{p}`: also the x axis{}, a series or a facet column; a column is pooled over or plotted, not both (allowed: a parameter column that is none of these)",
                        if r.x.is_none() && *p == x { " (x defaults to depth; set x to another column)" } else { "" }
                    ),
                ));
            }
        }
    }
    // A chart or theory line named twice would be drawn once: most likely a slip for another.
    let once =
        |key: &str, span: std::ops::Range<usize>, repeat: Option<(usize, usize)>| match repeat {
            Some((i, j)) => Err(config::at(
                path,
                src,
                config::item_span(src, span, j),
                format!(
                    "[report] {key}: {}; allowed: each value once",
                    repeat_words(i, j)
                ),
            )),
            None => Ok(()),
        };
    if let Some(t) = &r.theory {
        once("theory", t.span(), first_repeat(t.get_ref()))?;
    }
    let (charts, charts_given) = match &r.charts {
        Some(c) => {
            once("charts", c.span(), first_repeat(c.get_ref()))?;
            (c.get_ref().clone(), true)
        }
        None => (
            ChartKind::ALL
                .into_iter()
                .filter(|k| k.by_default())
                .collect(),
            false,
        ),
    };
    // A title for a chart the layout does not draw would be dropped in silence.
    for kind in r.titles.iter().flat_map(|t| t.keys()) {
        if !charts.contains(kind) {
            let drawn: Vec<&str> = charts.iter().map(|k| k.name()).collect();
            return Err(config::at_key(
                path,
                src,
                &["report", "titles", kind.name()],
                format!(
                    "[report] titles: `{}` titles a chart this layout does not draw{}; allowed: a chart it asks for ({}), or add `{}` to `charts`",
                    kind.name(),
                    if charts_given { "" } else { " by default" },
                    if drawn.is_empty() {
                        "none: `charts = []`".to_string()
                    } else {
                        drawn.join(", ")
                    },
                    kind.name()
                ),
            ));
        }
    }
    Ok(Layout {
        charts,
        charts_given,
        theory_given: r.theory.is_some(),
        x,
        series,
        facet,
        pool,
        x_scale: r.x_scale,
        point: r.point.unwrap_or_default(),
        whiskers: r.whiskers.unwrap_or_default(),
        facet_y: r.facet_y.unwrap_or_default(),
        labels: r.labels.clone().unwrap_or_default(),
        order: BTreeMap::new(),
        full_depth: false,
        mixed_depth: false,
        title: r.title.clone(),
        titles: r.titles.clone().unwrap_or_default(),
        theory: r
            .theory
            .as_ref()
            .map(|t| t.get_ref().clone())
            .unwrap_or_else(|| {
                vec![
                    TheoryKind::FullTree,
                    TheoryKind::KnuthMoore,
                    TheoryKind::Pearl,
                ]
            }),
    })
}

/// Whether `text` draws nothing: spaces and characters that print as nothing (a zero-width
/// space) only.
fn blank(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_whitespace() || crate::games::invisible(c))
}

/// Checks that the `[report]` texts drawn on charts (`title`, `titles`, `labels`) hold no
/// control character: a chart cannot show one, and SVG (XML) may not hold most of them.
fn check_texts(r: &ReportSection, path: &Path, src: &str) -> Result<()> {
    // (key, the entry's key when the text is one entry's, the text, whether the text is the
    // value (else the entry's key))
    let mut texts: Vec<(&str, Option<&str>, &str, bool)> = Vec::new();
    texts.extend(r.title.iter().map(|t| ("title", None, t.as_str(), true)));
    texts.extend(
        r.titles
            .iter()
            .flatten()
            .map(|(k, t)| ("titles", Some(k.name()), t.as_str(), true)),
    );
    for (k, v) in r.labels.iter().flatten() {
        texts.extend([
            ("labels", Some(k.as_str()), k.as_str(), false),
            ("labels", Some(k.as_str()), v.as_str(), true),
        ]);
    }
    for (key, entry, text, is_value) in texts {
        // At the text: the value (`titles = { nodes = "" }`: at `""`) or the entry's key,
        // else at the key.
        let at = || {
            let path: Vec<&str> = ["report", key].into_iter().chain(entry).collect();
            is_value
                .then(|| config::locate_value(src, &path))
                .flatten()
                .or_else(|| entry.and_then(|_| config::locate_exact(src, &path)))
                .or_else(|| config::locate(src, &["report", key]))
                .unwrap_or(0)
        };
        // A blank title draws nothing where the default title would say what the chart is,
        // and a blank label a series with no name (checked here, before any search, as it
        // needs no series known).
        if is_value && blank(text) {
            let at = at();
            let msg = match (key, entry) {
                ("labels", Some(e)) => format!(
                    "[report] labels: `{e}` is labelled with no text; allowed: a text to draw in the legend"
                ),
                _ => format!(
                    "[report] {key}{}: {text:?} has no text to draw; allowed: a text, or leave the key out for the default title",
                    entry.map_or(String::new(), |e| format!(" `{e}`"))
                ),
            };
            return Err(config::at(path, src, at..at, msg));
        }
        // A control character, and the format characters that steer a line rather than
        // print: line and paragraph separators, and bidirectional embeddings, overrides and
        // isolates (U+202E would draw the rest of a title backwards).
        let steering = |c: char| {
            c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || crate::games::bidi_control(c)
        };
        if let Some(c) = text.chars().find(|&c| steering(c)) {
            let at = at();
            return Err(config::at(
                path,
                src,
                at..at,
                format!(
                    "[report] {key}: {text:?} holds the {} U+{:04X}, which a chart cannot show; allowed: printable text",
                    if c.is_control() { "control character" } else { "line-steering character" },
                    c as u32
                ),
            ));
        }
    }
    Ok(())
}

/// Builds summary.csv, charts/*.svg|png and report.md in `dir` from `dir/runs.csv`,
/// `dir/experiment.toml` (optional: description and `[report]`) and `dir/manifest.json`
/// (optional: environment). Runs no search. Every input is read and checked before anything
/// is written; every file is written to a temporary name and renamed into place.
pub fn build(dir: &Path) -> Result<Built> {
    if !dir.is_dir() {
        return Err(Error::input(format!(
            "{}: not a folder; give a results folder written by `harness run` (e.g. results/NAME)",
            dir.display()
        )));
    }
    check_path_room(
        dir,
        "plot a copy of the folder at a shorter path, or give a relative path from nearer it",
    )?;
    check_output_names(dir, "")?;
    // 1. Inputs.
    let mf = manifest::Manifest::read(dir)?;
    // A shard's folder: its manifest says so, and its shard.jsonl too when the manifest
    // has gone or lost the field.
    let shard = mf.as_ref().and_then(|m| m.shard.clone());
    let jsonl = crate::experiment::shard::FILE;
    let has_jsonl = crate::experiment::shard::present(dir);
    if shard.is_some() || has_jsonl {
        let which = shard
            .as_ref()
            .map_or("a shard".to_string(), |s| format!("shard {s}"));
        let evidence = match (&shard, has_jsonl) {
            (Some(_), true) => format!("its manifest.json names the shard, and it has {jsonl}"),
            (Some(_), false) => "its manifest.json names the shard".to_string(),
            (None, _) => format!("it has {jsonl}"),
        };
        return Err(Error::input(format!(
            "{}: holds {which} of an experiment ({evidence}), a part of its runs, whose report would describe that part alone; merge the shards into one results folder with `harness merge FILE` (FILE: the experiment file), which writes the report",
            dir.display(),
        )));
    }
    check_finished(dir, mf.as_ref())?;
    let t = table::read_runs(&dir.join("runs.csv"))?;
    check_writable(dir)?;
    let exp_path = dir.join(EXPERIMENT_COPY);
    let (exp, src) = if exp_path.exists() {
        let (f, s) = config::load(&exp_path)?;
        // The copy's description goes into report.md as `harness run` took it.
        crate::experiment::plan::check_description(&exp_path, &s, &f.description)?;
        (Some(f), s)
    } else {
        (None, String::new())
    };
    check_same_experiment(dir, &t, exp.as_ref(), &exp_path, &src, mf.as_ref())?;
    check_run_count(dir, &t, mf.as_ref())?;
    let s = summary::summarize(&t);
    let layout = layout_for(&t, &s, exp.as_ref(), &exp_path, &src)?;

    // 2. Outputs, in memory where possible.
    let summary_csv = summary::to_csv(&s);
    let pooled = pooled(&t, &layout);
    let drawn = pooled.as_ref().unwrap_or(&s);
    check_labels(drawn, &layout, &exp_path, &src)?;
    let (charts, mut skipped) = charts::plan_charts(drawn, &layout);
    // Charts and theory lines nobody asked for (the defaults) that the data cannot support
    // are not news; a default chart given a title in `titles` was asked for there; one too
    // crowded to draw is news whoever asked.
    skipped.retain_mut(|n| match n.key {
        "charts" if layout.charts_given || n.crowded => true,
        "charts" if layout.titles.keys().any(|k| k.name() == n.name) => {
            n.key = "titles";
            true
        }
        "charts" => false,
        _ => layout.theory_given,
    });
    let svgs = charts
        .iter()
        .map(charts::render_svg)
        .collect::<Result<Vec<_>>>()?;
    let name = exp
        .as_ref()
        .map(|e| e.name.get_ref().clone())
        .unwrap_or_else(|| {
            t.col("experiment")
                .map(|c| t.rows[0][c].to_string())
                .unwrap_or_default()
        });
    let md = markdown::render(&markdown::Inputs {
        name: &name,
        description: exp.as_ref().map(|e| e.description.as_str()).unwrap_or(""),
        config: &src,
        table: &t,
        summary: &s,
        layout: &layout,
        charts: &charts,
        skipped: &skipped,
        manifest: mf.as_ref(),
    });

    let pngs = charts
        .iter()
        .map(charts::render_png)
        .collect::<Result<Vec<_>>>()?;

    // 3. Write, each file through a temporary name.
    let files = write_outputs(dir, &charts, &svgs, &pngs, &summary_csv, &md)?;
    // Every text a chart draws: titles, facets, axis titles, legend labels and headings.
    let mut no_glyph = Vec::new();
    for c in &charts {
        let texts = [&c.title, &c.facet, &c.x_title, &c.y_title]
            .into_iter()
            .chain(c.series.iter().chain(&c.theory).map(|q| &q.label))
            .chain(c.series_columns.iter())
            .chain(c.categories.iter().flatten());
        for t in texts {
            for ch in charts::missing_glyphs(t) {
                if !no_glyph.contains(&ch) {
                    no_glyph.push(ch);
                }
            }
        }
    }
    Ok(Built {
        files,
        charts: charts.len(),
        groups: s.groups.len(),
        skipped,
        no_glyph,
    })
}

/// Refuses a folder whose last `harness run` did not finish. The manifest is rewritten with its
/// end time only after runs.csv is in place, so a manifest without one means runs.csv, if
/// there is one, is an earlier run's, or this run's written just before it was stopped
/// (told apart by when runs.csv was written).
fn check_finished(dir: &Path, mf: Option<&manifest::Manifest>) -> Result<()> {
    if let Some(m) = mf.filter(|m| m.finished.is_none()) {
        // A runs.csv written after the run began (in a later second: stamps have whole
        // seconds) is its own: the run was stopped between writing it and its end time.
        let written = std::fs::metadata(dir.join("runs.csv")).ok().map(|md| {
            md.modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .is_some_and(|d| manifest::utc(d.as_secs()) > m.started)
        });
        let runs = match written {
            Some(true) => "though it wrote runs.csv (it stopped before writing its end time)",
            Some(false) => "so runs.csv is from an earlier run",
            None => "and wrote no runs.csv",
        };
        let partial = if dir.join("runs.csv.partial").exists() {
            " (a rerun of the same experiment by the same build resumes from the runs the last one finished, kept in runs.csv.partial)"
        } else {
            ""
        };
        return Err(Error::input(format!(
            "{}: the last `harness run` into this folder (started {}) did not finish, {runs}; rerun the experiment{partial}",
            dir.display(),
            m.started
        )));
    }
    if let Some(m) = mf {
        check_manifest_fields(dir, m, "rerun the experiment")?;
    }
    Ok(())
}

/// Checks the fields of a finished run's manifest.json in `dir` that only a hand edit could
/// make wrong: `started` and `finished` times harness writes, in order, the run count beside
/// the end time, and no more runs resumed than finished. `rerun`: the message's remedy.
pub fn check_manifest_fields(dir: &Path, m: &manifest::Manifest, rerun: &str) -> Result<()> {
    // A time harness did not write (`yesterday`, empty) means a manifest edited by hand.
    for (key, t) in [
        ("started", Some(&m.started)),
        ("finished", m.finished.as_ref()),
    ] {
        if let Some(t) = t.filter(|t| !manifest::is_utc_stamp(t)) {
            return Err(Error::input(format!(
                "{}: `{key}` is `{}`, not a time harness writes (YYYY-MM-DDTHH:MM:SSZ); {rerun}, or restore manifest.json",
                dir.join("manifest.json").display(),
                crate::games::shown(t)
            )));
        }
    }
    // (Stamps of one form compare as text in time order.)
    if let Some(f) = m.finished.as_ref().filter(|f| **f < m.started) {
        return Err(Error::input(format!(
            "{}: `finished` ({f}) is before `started` ({}), which no run writes; {rerun}, or restore manifest.json",
            dir.join("manifest.json").display(),
            m.started
        )));
    }
    // Every run writes its run count with its end time: without it, runs.csv's rows
    // could not be checked against the runs the run finished.
    if m.finished.is_some() && m.runs.is_none() {
        return Err(Error::input(format!(
            "{}: has `finished` but no `runs` (the number of runs the run finished), which no run writes; {rerun}, or restore manifest.json",
            dir.join("manifest.json").display()
        )));
    }
    if let (Some(r), Some(n)) = (m.resumed, m.runs) {
        if r > n {
            return Err(Error::input(format!(
                "{}: `resumed` is {r}, more than the {n} runs the run finished; {rerun}, or restore manifest.json",
                dir.join("manifest.json").display()
            )));
        }
    }
    Ok(())
}

/// Refuses a runs.csv whose rows are not the runs the finished manifest.json counted.
fn check_run_count(dir: &Path, t: &Table, mf: Option<&manifest::Manifest>) -> Result<()> {
    match mf.and_then(|m| m.runs) {
        Some(n) if n != t.rows.len() => Err(Error::input(format!(
            "{}: runs.csv has {} row{}, but manifest.json says the run finished {n} run{}; rerun the experiment, or restore runs.csv",
            dir.display(),
            t.rows.len(),
            if t.rows.len() == 1 { "" } else { "s" },
            if n == 1 { "" } else { "s" }
        ))),
        _ => Ok(()),
    }
}

/// Refuses a runs.csv of another experiment than the folder's experiment.toml or manifest.json
/// (a run that stopped before writing runs.csv leaves the new experiment's copy beside the old
/// runs.csv).
fn check_same_experiment(
    dir: &Path,
    t: &Table,
    exp: Option<&ExperimentFile>,
    exp_path: &Path,
    src: &str,
    mf: Option<&manifest::Manifest>,
) -> Result<()> {
    // (A runs.csv of another tool may have no experiment column.)
    let ran = t.col("experiment").map(|c| &t.rows[0][c]);
    if let (Some(ran), Some(e)) = (ran, exp) {
        if ran != e.name.get_ref() {
            return Err(Error::input(format!(
                "{}: runs.csv holds experiment `{ran}`, but {} is experiment `{}` (a run into this folder did not finish?); rerun the experiment or restore its experiment.toml",
                dir.display(),
                exp_path.display(),
                e.name.get_ref()
            )));
        }
    }
    // The same for manifest.json, whose environment report.md shows.
    if let (Some(ran), Some(m)) = (ran, mf) {
        if ran != m.experiment {
            return Err(Error::input(format!(
                "{}: runs.csv holds experiment `{ran}`, but {} is of experiment `{}`; rerun the experiment or restore its manifest.json",
                dir.display(),
                dir.join(manifest::FILE).display(),
                m.experiment
            )));
        }
    }
    // The folder's experiment.toml shows in report.md as the configuration of runs.csv's
    // runs: edited outside `[report]` and `description` (a seed, a grid), it would describe
    // other runs than those.
    if let (Some(e), Some(m)) = (exp, mf) {
        if let (Some(ran), Some(now)) = (&m.search_hash, crate::experiment::plan::search_hash(src))
        {
            if *ran != now {
                let seed = if e.seed != m.seed {
                    format!("; its seed is {}, the runs' {}", e.seed, m.seed)
                } else {
                    String::new()
                };
                return Err(Error::input(format!(
                    "{}: its settings outside `[report]` and `description` are not those runs.csv's runs were searched with (search hash {now}; manifest.json: {ran}{seed}), so report.md would show another experiment's configuration over these runs; allowed: edits to `[report]`, `description` and comments; restore the other settings, or run the edited file into a folder of its own",
                    exp_path.display()
                )));
            }
        }
    }
    Ok(())
}

/// The charts' layout: `[report]` resolved against the summary, with what runs.csv and the
/// experiment file tell (the listed order of values, searches to the end, the game's name).
fn layout_for(
    t: &Table,
    s: &summary::Summary,
    exp: Option<&ExperimentFile>,
    exp_path: &Path,
    src: &str,
) -> Result<Layout> {
    let mut layout = resolve_layout(exp.and_then(|e| e.report.as_ref()), s, exp_path, src)?;
    // Categories, series and facets in the order the experiment file lists their values.
    if let Some(e) = exp {
        layout.order = e.listed_values();
    }
    // `depth = "full"` (the run key says so): depth is the plies left to the end of each
    // position, not a search parameter.
    let full = |r: &table::Row, k: usize| r[k].split(';').any(|part| part == "depth=full");
    layout.full_depth = t
        .col("run_key")
        .is_some_and(|k| t.rows.iter().all(|r| full(r, k)));
    layout.mixed_depth = !layout.full_depth
        && t.col("run_key")
            .is_some_and(|k| t.rows.iter().any(|r| full(r, k)));
    // One game and no title of the experiment's own: the game names the charts.
    if layout.title.is_none() {
        if let Some(g) = t.col("game") {
            let first = t.rows.first().map(|r| &r[g]);
            if t.rows.iter().all(|r| Some(&r[g]) == first) {
                layout.title = first.and_then(crate::games::display_name).map(String::from);
            }
        }
    }
    Ok(layout)
}

/// Writes the charts, summary.csv and report.md, each through a temporary name, and removes
/// the charts of an earlier layout that this one no longer draws; returns the files written.
fn write_outputs(
    dir: &Path,
    charts: &[charts::Chart],
    svgs: &[String],
    pngs: &[Vec<u8>],
    summary_csv: &[u8],
    md: &str,
) -> Result<Vec<PathBuf>> {
    let chart_dir = dir.join("charts");
    std::fs::create_dir_all(&chart_dir).map_err(io(&chart_dir))?;
    let mut files = Vec::new();
    for ((c, svg), png) in charts.iter().zip(svgs).zip(pngs) {
        let p = chart_dir.join(format!("{}.svg", c.stem));
        csv::write_atomic(&p, svg.as_bytes())?;
        files.push(p);
        let p = chart_dir.join(format!("{}.png", c.stem));
        csv::write_atomic(&p, png)?;
        files.push(p);
    }
    // Charts of an earlier layout that this one no longer draws.
    let keep: BTreeSet<String> = charts
        .iter()
        .flat_map(|c| [format!("{}.svg", c.stem), format!("{}.png", c.stem)])
        .collect();
    for p in chart_files(&chart_dir) {
        let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !keep.contains(n) {
            let _ = std::fs::remove_file(&p);
        }
    }
    let p = dir.join("summary.csv");
    csv::write_atomic(&p, summary_csv)?;
    files.push(p);
    let p = dir.join("report.md");
    csv::write_atomic(&p, md.as_bytes())?;
    files.push(p);
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run starting in a folder removes the earlier run's report (and nothing else), so
    /// that one stopped before writing its own leaves no report of other runs.
    #[test]
    fn remove_report_removes_the_report_files_only() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        std::fs::create_dir(dir.join("charts")).unwrap();
        for f in [
            "report.md",
            "summary.csv",
            "runs.csv",
            "experiment.toml",
            "charts/nodes.png",
            "charts/nodes.svg",
            "charts/notes.txt",
        ] {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        remove_report(dir).unwrap();
        let mut left: Vec<String> = walk(dir);
        left.sort();
        assert_eq!(
            left,
            ["charts/notes.txt", "experiment.toml", "runs.csv"].map(String::from)
        );
        // Nothing there to remove is fine.
        remove_report(dir).unwrap();
        check_writable(dir).unwrap();
        assert!(!walk(dir).iter().any(|f| f.contains(".harness-write-test")));
    }

    fn walk(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                out.extend(walk(&p).into_iter().map(|n| format!("{name}/{n}")));
            } else {
                out.push(name);
            }
        }
        out
    }
}
