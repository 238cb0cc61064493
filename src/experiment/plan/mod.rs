//! The plan: the cartesian grid of every list-valued key × positions × repetitions.
//!
//! Each run gets a stable key (its parameters as canonical text, zero-padded so that text
//! order is numeric order) and a seed derived from the experiment seed and that key.
//!
//! [`build`] works in stages, one file each: the game setups (`setup`, with `uniform` for the
//! trees), their positions (`sources`), the search keys and their expansion into runs
//! (`grid`, keyed and seeded by `keys`), then the refusals that need the whole grid
//! (`checks`).

use std::path::Path;

use super::config::{at, ExperimentFile};
use crate::error::{Error, Result};
use crate::search::solver::Techniques;
use crate::search::{Algorithm, Ordering, Quiescence, TieBreak, TtSpec, Variant};

mod checks;
mod exclude;
mod grid;
mod keys;
mod setup;
mod sources;
mod uniform;

pub use checks::MAX_UNBUDGETED_NODES;
pub use keys::{fnv1a, mix, run_key, search_hash, seed_key, Fnv, Widths};
pub use setup::{GameSetup, OPTION_COLUMNS};
pub use uniform::uniform_positions;

use super::config::Depth;

/// One search to run.
#[derive(Clone, Debug)]
pub struct Run {
    pub key: String,
    pub seed: u64,
    pub game: GameSetup,
    pub position_id: usize,
    /// The position in the game's canonical notation.
    pub position: String,
    pub algorithm: Algorithm,
    pub variant: Option<Variant>,
    pub depth: Depth,
    pub ordering: Ordering,
    pub tie_break: TieBreak,
    pub rep: u32,
    pub max_nodes: Option<u64>,
    pub max_seconds: Option<f64>,
    pub quiescence: Quiescence,
    /// The transposition table (alpha-beta only); `None`: off.
    pub tt: Option<TtSpec>,
    /// Iterative deepening.
    pub iterative: bool,
    /// Also search without a table to count wrong root values and moves.
    pub reference: bool,
    /// The solver's techniques (`algorithm = "solve"` only).
    pub solver: Option<Techniques>,
    /// The score the position's source gives (a positions file), in the game's external
    /// convention.
    pub expected: Option<i32>,
}

impl Run {
    pub fn uses_randomness(&self) -> bool {
        self.ordering.uses_randomness() || self.tie_break == TieBreak::Random
    }

    /// Whether the run's position carries an EPD `bm` or `am` (runs.csv then has `bm_hit`,
    /// empty where the search chose no move: the game over at the root, or a budget hit).
    pub fn carries_suite_moves(&self) -> bool {
        matches!(self.game, GameSetup::Chess)
            && crate::games::chess::Chess::carries_suite_moves(&self.position)
    }
}

/// The experiment, validated and expanded.
#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub description: String,
    pub seed: u64,
    pub runs: Vec<Run>,
}

impl Plan {
    /// Positions searched under more than one `position_id` (listed twice, in any spelling;
    /// a positions-file line equal to a listed position or a random opening; Connect Four
    /// move lists that reach one board), one line each, naming the ids, their texts and the
    /// game setups. Each id counts in the statistics as a position of its own, so a repeat
    /// weighs that position more: `harness run` warns.
    pub fn repeated_positions(&self) -> Vec<String> {
        use std::collections::{BTreeMap, BTreeSet};
        // (setup, identity) -> the ids and texts of the position.
        let mut same: BTreeMap<(String, String), BTreeMap<usize, &str>> = BTreeMap::new();
        let mut done: BTreeSet<(String, usize)> = BTreeSet::new();
        for r in &self.runs {
            let setup = setup_name(&r.game);
            if done.insert((setup.clone(), r.position_id)) {
                let identity = r.game.identity(&r.position);
                same.entry((setup, identity))
                    .or_default()
                    .insert(r.position_id, &r.position);
            }
        }
        // One line per repeat, whatever the number of setups that share it (position ids
        // are the list's, not a setup's).
        let mut lines: BTreeMap<Vec<(usize, &str)>, Vec<String>> = BTreeMap::new();
        for ((setup, _), ids) in same {
            if ids.len() > 1 {
                lines
                    .entry(ids.into_iter().collect())
                    .or_default()
                    .push(setup);
            }
        }
        lines
            .into_iter()
            .map(|(ids, setups)| {
                let texts: BTreeSet<&str> = ids.iter().map(|&(_, t)| t).collect();
                // The first few ids: a file that repeats one line 20,000 times gets a warning
                // line, not one that names each.
                const SHOWN: usize = 8;
                let few = |list: Vec<String>| match list.len().checked_sub(SHOWN) {
                    Some(more) if more > 0 => {
                        format!("{} and {more} more", list[..SHOWN].join(", "))
                    }
                    _ => list.join(", "),
                };
                let what = match texts.first() {
                    Some(text) if texts.len() == 1 => {
                        let list = ids.iter().map(|(i, _)| i.to_string()).collect();
                        format!("`{text}` is position_id {}", few(list))
                    }
                    _ => {
                        let list = ids.iter().map(|(i, t)| format!("{i} `{t}`")).collect();
                        format!("position_id {} are one position", few(list))
                    }
                };
                format!("{what} ({})", setups.join("; "))
            })
            .collect()
    }

    /// The positions from which two depths of the list search the same tree: the searcher caps
    /// a depth at the plies the game can still last, so `depth = [9, "full"]` or `[9, 10]` from
    /// tic-tac-toe's empty board searches one tree twice. One line per position and setup:
    /// `` `POSITION` (position_id I, SETUP): depths 9 and "full" are both 9 plies``.
    pub fn depths_searching_one_tree(&self) -> Vec<String> {
        use std::collections::BTreeMap;
        // (setup, position_id) -> a run from the position, and the depths written for it,
        // each once (a list of depths is short).
        let mut depths: BTreeMap<(String, usize), (&Run, Vec<Depth>)> = BTreeMap::new();
        for r in &self.runs {
            let (_, written) = depths
                .entry((setup_name(&r.game), r.position_id))
                .or_insert((r, Vec::new()));
            if !written.contains(&r.depth) {
                written.push(r.depth);
            }
        }
        let mut lines = Vec::new();
        for ((setup, id), (run, written)) in depths {
            if written.len() < 2 {
                continue;
            }
            // Read once per position (it parses the position), not once per depth.
            let Ok(limit) = crate::experiment::runner::plies_left_of(run) else {
                continue;
            };
            // The depths that search the position's whole length: numbers at or past it, and
            // "full". Below it two depths never search the same plies.
            let mut capped: Vec<Depth> = written
                .into_iter()
                .filter(|d| match d {
                    Depth::Plies(p) => *p >= limit,
                    Depth::Full => true,
                })
                .collect();
            if capped.len() < 2 {
                continue;
            }
            capped.sort_by_key(|d| match d {
                Depth::Plies(p) => (0, *p),
                Depth::Full => (1, 0),
            });
            let names = depth_names(&capped);
            let listed = match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => names.concat(),
            };
            let each = if capped.len() == 2 { "both" } else { "all" };
            lines.push(format!(
                "`{}` (position_id {id}, {setup}): depths {listed} are {each} {limit} plies",
                run.position
            ));
        }
        lines
    }
}

/// Depths sorted as `depths_searching_one_tree` sorts them, as a message lists them: a run of
/// three or more consecutive numbers as one item, `3 to 100`; "full" quoted.
fn depth_names(depths: &[Depth]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut i = 0;
    while i < depths.len() {
        match depths[i] {
            Depth::Full => {
                names.push("\"full\"".to_string());
                i += 1;
            }
            Depth::Plies(p) => {
                let mut j = i + 1;
                while j < depths.len() && depths[j] == Depth::Plies(p + (j - i) as u32) {
                    j += 1;
                }
                if j - i >= 3 {
                    names.push(format!("{p} to {}", p + (j - i - 1) as u32));
                } else {
                    names.extend((i..j).map(|k| depths[k].to_string()));
                }
                i = j;
            }
        }
    }
    names
}

/// A game and its options as messages name them: `connect4 width=7 height=6`.
fn setup_name(game: &GameSetup) -> String {
    let mut name = game.kind().name().to_string();
    for (k, v) in game.options() {
        name.push_str(&format!(" {k}={v}"));
    }
    name
}

/// The longest experiment name: a folder name, well within the 255 bytes file systems allow.
pub const MAX_NAME: usize = 100;

/// Validates the file and expands its grid.
pub fn build(path: &Path, src: &str, file: &ExperimentFile) -> Result<Plan> {
    let name = file.name.get_ref().trim().to_string();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        || name.starts_with('.')
        || name.len() > MAX_NAME
    {
        return Err(at(
            path,
            src,
            file.name.span(),
            format!(
                "name `{}`: allowed are up to {MAX_NAME} ASCII letters, digits, `-`, `_` and `.`, not starting with `.` (it names the results folder)",
                crate::games::shown(&name)
            ),
        ));
    }
    check_description(path, src, &file.description)?;
    let (kinds, setups) = setup::game_setups(path, src, &file.game)?;
    let grid = grid::SearchGrid::new(path, src, file, &kinds)?;
    let per_position = grid.runs_per_position(&setups);
    let positions = sources::positions(path, src, file, &kinds, &setups, &per_position, |n| {
        grid.factors(setups.len(), n)
    })?;
    // Counted, not built: a grid past `MAX_RUNS` is refused at once, not after a million runs.
    let total = positions
        .iter()
        .zip(&per_position)
        .fold(0usize, |t, (row, &n)| {
            t.saturating_add(row.len().saturating_mul(n))
        });
    if total > MAX_RUNS {
        let count: usize = positions.iter().map(Vec::len).sum();
        let factors = grid.factors(setups.len(), count);
        // Placed at the list with the most values: the key the positions come from, or a
        // `[search]` one.
        let (key, n) = grid.largest_factor();
        let key = if count > n {
            ["positions", "positions_file", "trees"]
                .into_iter()
                .map(|k| ["game", k])
                .find(|k| super::config::locate_exact(src, k).is_some())
                .map(|k| k.to_vec())
        } else {
            Some(key.to_vec())
        };
        return Err(match key {
            Some(key) => grid::too_many_runs_at(path, src, &key, &factors),
            None => grid::too_many_runs(path, &factors),
        });
    }
    let runs = grid.expand(path, file.seed, &setups, &positions)?;
    let excluding = file.search.exclude.is_some();
    if excluding {
        // The whole grid's own refusals first, so that those the exclusion brings about can
        // say so.
        checks::check_orderings(path, src, &runs, grid.solve_only)?;
    }
    let mut runs = exclude::apply(path, src, file, |k| grid.listed(k), runs)?;
    if excluding {
        grid.check_kept(path, src, &file.search, &kinds, &runs)
            .map_err(exclude::noted)?;
        let solve_only = runs.iter().all(|r| r.solver.is_some());
        checks::check_orderings(path, src, &runs, solve_only).map_err(exclude::noted)?;
    }
    checks::check_oracle_memory(path, src, file, &runs)?;
    checks::check_search_size(path, src, file, &runs)?;
    checks::check_table_depth(path, src, file, &runs)?;
    if !excluding {
        checks::check_orderings(path, src, &runs, grid.solve_only)?;
    }
    runs.sort_by(|a, b| a.key.cmp(&b.key));
    if runs.is_empty() {
        return Err(Error::input(format!(
            "{}: the experiment has no runs",
            path.display()
        )));
    }
    Ok(Plan {
        name,
        description: file.description.clone(),
        seed: file.seed,
        runs,
    })
}

/// The most runs one experiment may hold.
pub const MAX_RUNS: usize = 1_000_000;
/// The most repetitions of a run that uses randomness.
pub const MAX_REPETITIONS: u32 = 100_000;
/// The most random openings one experiment may ask for.
pub const MAX_OPENINGS: u32 = 100_000;
/// The most uniform trees (`trees`) one experiment may ask for.
pub const MAX_TREES: i64 = 1_000_000;
/// The longest random opening, in plies (the longest search depth too).
pub const MAX_OPENING_PLIES: u32 = 10_000;
/// What `max_nodes` allows (it refuses 0).
pub const MAX_NODES_ALLOWED: &str =
    "a whole number from 1 to 9223372036854775807 (2^63 - 1; the most positions one search may enter)";

/// report.md shows the description as it is: a control character (but a tab or a line end)
/// would reach the reader as an invisible or garbling byte, and a bidirectional override or
/// isolate would reorder the text around it. Checked by `harness run` and again by `harness
/// plot`, which reads the results folder's copy of the file.
pub fn check_description(path: &Path, src: &str, description: &str) -> Result<()> {
    if let Some(c) = description.chars().find(|&c| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || crate::games::bidi_control(c)
    }) {
        // At the text, where the reader must look (else the key).
        let pos = super::config::locate_value(src, &["description"])
            .or_else(|| super::config::locate(src, &["description"]))
            .unwrap_or(0);
        return Err(at(
            path,
            src,
            pos..pos,
            format!(
                "description: holds the control character U+{:04X}, which report.md cannot show; allowed: printable text, tabs and line breaks",
                c as u32
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::config;

    #[test]
    fn depth_names_join_runs_of_three_or_more() {
        use Depth::{Full, Plies};
        let names = |d: &[Depth]| depth_names(d).join(", ");
        assert_eq!(names(&[Plies(8), Plies(9), Full]), "8, 9, \"full\"");
        assert_eq!(
            names(&[Plies(3), Plies(4), Plies(5), Full]),
            "3 to 5, \"full\""
        );
        assert_eq!(
            names(&[Plies(1), Plies(2), Plies(3), Plies(7), Plies(8)]),
            "1 to 3, 7, 8"
        );
        assert_eq!(names(&[Full]), "\"full\"");
    }

    /// The runs the plan counts (each setup's runs per position times its positions), which
    /// refuse a grid past `MAX_RUNS` before it is built, and the runs `expand` builds.
    fn counted_and_built(path: &Path, src: &str) -> (usize, usize) {
        let file = config::parse(path, src).unwrap();
        let (kinds, setups) = setup::game_setups(path, src, &file.game).unwrap();
        let grid = grid::SearchGrid::new(path, src, &file, &kinds).unwrap();
        let per = grid.runs_per_position(&setups);
        let positions = sources::positions(path, src, &file, &kinds, &setups, &per, |n| {
            grid.factors(setups.len(), n)
        })
        .unwrap();
        let counted = positions.iter().zip(&per).map(|(r, &n)| r.len() * n).sum();
        let built = grid.expand(path, file.seed, &setups, &positions).unwrap();
        (counted, built.len())
    }

    #[test]
    fn counted_runs_are_the_built_runs_in_every_shipped_experiment() {
        let mut files: Vec<_> = std::fs::read_dir("experiments")
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        assert!(files.len() >= 20, "{files:?}");
        for path in files {
            let src = std::fs::read_to_string(&path).unwrap();
            let (counted, built) = counted_and_built(&path, &src);
            assert!(built > 0, "{}", path.display());
            assert_eq!(counted, built, "{}", path.display());
        }
    }

    #[test]
    fn counted_runs_are_the_built_runs_where_settings_collapse() {
        // Quiescence options collapse on games without noisy moves (one stand-pat run each),
        // the solver takes one tie-break and no depth, and randomness repeats only some runs.
        let grids = [
            r#"name = "a"
seed = 1
[game]
kind = ["tictactoe", "chess"]
random_openings = { count = 2, plies = 2 }
[search]
algorithm = ["minimax", "negamax", "alphabeta"]
variant = ["fail-hard", "fail-soft"]
depth = [1, 2]
ordering = ["natural", "static", "random"]
tie_break = ["first", "random"]
iterative = [false, true]
repetitions = 3
quiescence = { enabled = [false, true], checks = [false, true], delta = [100, 200] }
[search.tt]
enabled = [false, true]
entries = [256, 1024]
replacement = ["always", "bucket"]
"#,
            r#"name = "s"
seed = 4
[game]
kind = ["tictactoe", "connect4"]
width = [4, 5]
height = 4
[search]
algorithm = ["alphabeta", "solve"]
depth = "full"
ordering = ["natural", "random"]
tie_break = ["first", "random"]
repetitions = 2
solver = ["all", "none"]
"#,
            r#"name = "b"
seed = 2
[game]
kind = "chess"
positions = ["startpos"]
[search]
algorithm = ["minimax", "alphabeta"]
depth = [1, 2]
ordering = ["natural", "mvv-lva+random"]
tie_break = "random"
repetitions = 4
quiescence = { enabled = [false, true], checks = [false, true], promotions = [false, true] }
"#,
            r#"name = "c"
seed = 3
[game]
kind = "uniform"
branching = [2, 3]
height = [3, 4]
trees = 3
[search]
algorithm = "alphabeta"
depth = [2, "full"]
ordering = ["natural", "random", "oracle-best"]
repetitions = 2
"#,
        ];
        for src in grids {
            let (counted, built) = counted_and_built(Path::new("grid.toml"), src);
            assert!(built > 1, "{src}");
            assert_eq!(counted, built, "{src}");
        }
    }
}
