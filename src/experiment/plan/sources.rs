//! The positions of every setup: the explicit list, then the positions files' lines, then the
//! random openings, each validated against every setup; with no source at all, the initial
//! position. Uniform trees take theirs from `trees` instead.

use std::path::{Path, PathBuf};

use super::keys::{fnv1a, mix};
use super::uniform::uniform_positions;
use super::{GameSetup, MAX_OPENINGS, MAX_OPENING_PLIES, MAX_RUNS};
use crate::error::{Error, Result};
use crate::experiment::config::{
    at, field_span, item_span, line_col, locate, read_text, ExperimentFile, GameKind, GameSection,
};
use crate::experiment::positions::position_lines;

/// The positions of each setup, in the setups' order: canonical text and the expected score
/// the source gives, if any.
pub type SetupPositions = Vec<Vec<(String, Option<i32>)>>;

/// The positions of every setup in `setups` (of the listed `kinds`).
pub fn positions(
    path: &Path,
    src: &str,
    file: &ExperimentFile,
    kinds: &[GameKind],
    setups: &[GameSetup],
    per_position: &[usize],
    factors: impl Fn(usize) -> String,
) -> Result<SetupPositions> {
    let g = &file.game;
    let trees = tree_count(path, src, g, kinds)?;
    let listed = listed_positions(path, src, g, kinds)?;
    let files = read_files(path, src, g)?;
    // [setup][position]: canonical text and expected score.
    let mut positions = SetupPositions::new();
    // Every position of every setup is at least one run: a grid past `MAX_RUNS` is refused
    // here, before its positions fill the memory (1,000,000 trees for each of 65,000 tree
    // shapes would be 6.5e10 of them).
    let too_many = |span: std::ops::Range<usize>, what: &str| {
        at(
            path,
            src,
            span,
            format!(
                "[game] {what} × {} game setups (one per combination of the list-valued [game] keys) make more than {MAX_RUNS} runs, the most one experiment holds; split it into several experiments",
                setups.len()
            ),
        )
    };
    let mut total = 0usize;
    let mut total_runs = 0usize;
    for (setup, &per) in setups.iter().zip(per_position) {
        if let GameSetup::Uniform { spec } = setup {
            if total + trees > MAX_RUNS {
                let span = g.trees.as_ref().map_or(g.kind.span(), |t| t.span());
                return Err(too_many(span, &format!("trees = {trees}")));
            }
            total += trees;
            positions.push(
                uniform_positions(spec, file.seed, trees)
                    .into_iter()
                    .map(|p| (p, None))
                    .collect(),
            );
            continue;
        }
        let limit = Limit {
            room: (MAX_RUNS - total_runs.min(MAX_RUNS)) / per.max(1),
            per_position: per,
            earlier: total,
            factors: &factors,
        };
        let row = setup_positions(path, src, file, setup, &listed, &files, &limit)?;
        total += row.len();
        total_runs = total_runs.saturating_add(row.len().saturating_mul(per));
        if total > MAX_RUNS {
            let span = locate(src, &["game"]).unwrap_or(0);
            return Err(too_many(span..span, &format!("{} positions", row.len())));
        }
        positions.push(row);
    }
    Ok(positions)
}

/// The number of uniform trees (`trees`, default 1); uniform trees take no other position
/// source.
fn tree_count(path: &Path, src: &str, g: &GameSection, kinds: &[GameKind]) -> Result<usize> {
    // Uniform trees are chosen by `trees`, not `positions`.
    let trees = match &g.trees {
        Some(t) if !(1..=super::MAX_TREES).contains(t.get_ref()) => {
            return Err(at(
                path,
                src,
                t.span(),
                format!(
                    "[game] trees = {}: the number of uniform trees must be from 1 to {}",
                    t.get_ref(),
                    super::MAX_TREES
                ),
            ))
        }
        Some(t) => *t.get_ref() as usize,
        None => 1,
    };
    if kinds.iter().all(|k| *k == GameKind::Uniform) {
        let sources = [
            ("positions", g.positions.as_ref().map(|p| p.span())),
            (
                "positions_file",
                g.positions_file.as_ref().map(|p| p.span()),
            ),
            (
                "random_openings",
                g.random_openings.as_ref().map(|p| p.span()),
            ),
        ];
        if let Some((key, Some(span))) = sources.into_iter().find(|(_, s)| s.is_some()) {
            return Err(at(
                path,
                src,
                span,
                format!("[game] {key} does not apply to uniform trees: choose how many trees with `trees = N` (each tree's seed comes from the experiment seed and the tree's number)"),
            ));
        }
    }
    Ok(trees)
}

/// The positions `positions` lists, each with its span; with no position source at all, the
/// initial position.
fn listed_positions(
    path: &Path,
    src: &str,
    g: &GameSection,
    kinds: &[GameKind],
) -> Result<Vec<(String, std::ops::Range<usize>)>> {
    let mut position_texts: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    if let Some(p) = &g.positions {
        if p.get_ref().is_empty() {
            return Err(at(path, src, p.span(), "[game] positions is empty; list at least one position (\"start\" is the initial position)"));
        }
        position_texts.extend(p.get_ref().iter().map(|s| (s.get_ref().clone(), s.span())));
    }
    let has_source =
        g.positions.is_some() || g.positions_file.is_some() || g.random_openings.is_some();
    if !has_source {
        if kinds.contains(&GameKind::Nim) {
            return Err(at(
                path,
                src,
                g.kind.span(),
                "[game] positions is missing: Nim needs heap sizes, e.g. positions = [\"3,4,5\"]",
            ));
        }
        position_texts.push(("start".to_string(), g.kind.span()));
    }
    Ok(position_texts)
}

/// A positions file: its path (`positions_file` joined to the experiment file's folder, as
/// error messages name it), its text, and where the experiment file names it.
type PositionsFile = (PathBuf, String, std::ops::Range<usize>);

/// The text of every positions file.
fn read_files(path: &Path, src: &str, g: &GameSection) -> Result<Vec<PositionsFile>> {
    let mut file_texts = Vec::new();
    if let Some(f) = &g.positions_file {
        for (i, rel) in f.get_ref().values().iter().enumerate() {
            let full = path.parent().unwrap_or(Path::new("")).join(rel);
            // At the file's name in a list.
            let span = item_span(src, f.span(), i);
            if rel.trim().is_empty() {
                return Err(at(
                    path,
                    src,
                    span,
                    "[game] positions_file: an empty file name; allowed: the path of a file with one position per line, relative to the experiment file",
                ));
            }
            let text = read_text(&full).map_err(|e| {
                at(
                    path,
                    src,
                    span.clone(),
                    format!(
                        "[game] positions_file: cannot read {} ({e}){}",
                        full.display(),
                        if e.kind() == std::io::ErrorKind::NotFound {
                            "; the path is relative to the experiment file"
                        } else {
                            ""
                        }
                    ),
                )
            })?;
            if position_lines(&text).next().is_none() {
                return Err(at(
                    path,
                    src,
                    span,
                    format!(
                        "[game] positions_file: {} holds no position (blank lines and # lines are skipped); allowed: a file with one position per line",
                        full.display()
                    ),
                ));
            }
            file_texts.push((full, text, span));
        }
    }
    Ok(file_texts)
}

/// How many more positions a setup may bring before its runs pass `MAX_RUNS`, so that random
/// openings past it are refused before they are built (100,000 chess openings of 350 plies
/// take a minute).
struct Limit<'a> {
    /// Positions this setup may still bring.
    room: usize,
    /// Runs a position of this setup makes.
    per_position: usize,
    /// Positions of the setups before it.
    earlier: usize,
    /// What multiplies the grid, given the positions (`SearchGrid::factors`).
    factors: &'a dyn Fn(usize) -> String,
}

/// The positions of one setup (not a uniform tree's): the listed ones, then the files' lines,
/// then the random openings, each checked against the setup, in canonical notation.
fn setup_positions(
    path: &Path,
    src: &str,
    file: &ExperimentFile,
    setup: &GameSetup,
    listed: &[(String, std::ops::Range<usize>)],
    files: &[PositionsFile],
    limit: &Limit,
) -> Result<Vec<(String, Option<i32>)>> {
    let g = &file.game;
    let mut row = Vec::new();
    for (text, span) in listed {
        let canon = setup.canonical_position(text).map_err(|e| {
            at(
                path,
                src,
                span.clone(),
                format!("[game] positions: {} position: {e}", setup.kind().name()),
            )
        })?;
        row.push((canon, None));
    }
    for (full, text, span) in files {
        for (line_no, line) in position_lines(text) {
            let parsed = setup.parse_line(line).map_err(|e| {
                // The file's line first (what to fix), then the key that named the file.
                let (l, c) = line_col(src, span.start);
                Error::input(format!(
                    "{}:{line_no}: {} position: {e} (a line of the [game] positions_file at {}:{l}:{c})",
                    full.display(),
                    setup.kind().name(),
                    path.display()
                ))
            })?;
            row.push(parsed);
        }
    }
    if let Some(r) = &g.random_openings {
        let ro = r.get_ref();
        // An error at the field `name` of the inline table.
        let refuse =
            |name: &str, message: String| at(path, src, field_span(src, r.span(), name), message);
        if !(1..=MAX_OPENINGS).contains(&ro.count) {
            return Err(refuse(
                "count",
                format!(
                    "[game] random_openings: count = {}; it must be from 1 to {MAX_OPENINGS}",
                    ro.count
                ),
            ));
        }
        if ro.plies > MAX_OPENING_PLIES {
            return Err(refuse(
                "plies",
                format!(
                    "[game] random_openings: plies = {}; it must be from 0 to {MAX_OPENING_PLIES}",
                    ro.plies
                ),
            ));
        }
        let positions = row.len() + ro.count as usize;
        if positions > limit.room {
            let all = limit.earlier + positions;
            return Err(refuse(
                "count",
                format!(
                    "[game] random_openings: count = {}: {all} positions, each {} runs of the [search] grid, make more than {MAX_RUNS} runs, the most one experiment holds; it multiplies {}; ask for fewer openings, or split it into several experiments",
                    ro.count,
                    limit.per_position,
                    (limit.factors)(all)
                ),
            ));
        }
        let key = format!("random_openings;{}", setup.key_text());
        let openings = setup
            .random_openings(ro.count, ro.plies, mix(file.seed, fnv1a(&key)))
            .map_err(|e| at(path, src, r.span(), format!("[game] {e}")))?;
        row.extend(openings.into_iter().map(|o| (o, None)));
    }
    Ok(row)
}
