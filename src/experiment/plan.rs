//! The plan: the cartesian grid of every list-valued key × positions × repetitions.
//!
//! Each run gets a stable key (its parameters as canonical text, zero-padded so that text
//! order is numeric order) and a seed derived from the experiment seed and that key.

use std::path::Path;

use super::config::{at, find_line, Depth, ExperimentFile, GameKind, TtSection};
use crate::error::{Error, Result};
use crate::games::chess::Chess;
use crate::games::connect4::Connect4;
use crate::games::nim::Nim;
use crate::games::tictactoe::{Scale, TicTacToe};
use crate::games::uniform::{Model, Uniform, UniformSpec, Values};
use crate::search::solver::{self, Techniques};
use crate::search::{
    tt, Algorithm, Bounds, Ordering, Quiescence, Replacement, TieBreak, TtSpec, Variant,
};

/// A game and its options, enough to build any of its positions.
#[derive(Clone, Debug, PartialEq)]
pub enum GameSetup {
    TicTacToe { scale: Scale },
    Nim { misere: bool },
    Chess,
    Uniform { spec: UniformSpec },
    Connect4 { width: u32, height: u32 },
}

impl GameSetup {
    pub fn kind(&self) -> GameKind {
        match self {
            GameSetup::TicTacToe { .. } => GameKind::Tictactoe,
            GameSetup::Nim { .. } => GameKind::Nim,
            GameSetup::Chess => GameKind::Chess,
            GameSetup::Uniform { .. } => GameKind::Uniform,
            GameSetup::Connect4 { .. } => GameKind::Connect4,
        }
    }

    /// The option columns of this game, as (name, value).
    pub fn options(&self) -> Vec<(&'static str, String)> {
        match self {
            GameSetup::TicTacToe { scale } => vec![("scale", scale.name().to_string())],
            GameSetup::Nim { misere } => vec![("misere", misere.to_string())],
            GameSetup::Chess => vec![],
            GameSetup::Uniform { spec } => spec.options(),
            GameSetup::Connect4 { width, height } => {
                vec![("width", width.to_string()), ("height", height.to_string())]
            }
        }
    }

    /// Checks that a position parses, and returns it in the game's canonical notation.
    pub fn canonical_position(&self, text: &str) -> std::result::Result<String, String> {
        use crate::games::Game;
        match self {
            GameSetup::TicTacToe { scale } => {
                TicTacToe::parse_position(*scale, text).map(|g| g.format_position())
            }
            GameSetup::Nim { misere } => {
                Nim::parse_position(*misere, text).map(|g| g.format_position())
            }
            GameSetup::Chess => Chess::canonical(text),
            GameSetup::Uniform { spec } => {
                Uniform::parse_position(*spec, text).map(|g| g.format_position())
            }
            GameSetup::Connect4 { width, height } => {
                Connect4::parse_position(*width, *height, text).map(|g| g.format_position())
            }
        }
    }

    /// Parses one line of a positions file: the position in canonical notation and the expected
    /// score the line gives, if any. Connect Four: the benchmark format `moves [score]`; the
    /// other games: the whole line is a position.
    pub fn parse_line(&self, line: &str) -> std::result::Result<(String, Option<i32>), String> {
        match self {
            GameSetup::Connect4 { .. } => {
                let mut parts = line.split_whitespace();
                let moves = parts.next().unwrap_or("");
                let score = match parts.next() {
                    None => None,
                    Some(s) => Some(s.parse::<i32>().map_err(|_| {
                        let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
                        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                            format!("score `{s}` is out of range: scores are whole numbers from {} to {}", i32::MIN, i32::MAX)
                        } else {
                            format!("`{s}` is not a score: the format is `moves [score]`, the score a whole number")
                        }
                    })?),
                };
                if let Some(extra) = parts.next() {
                    return Err(format!(
                        "unexpected `{extra}` after the score: the format is `moves [score]`"
                    ));
                }
                let canon = self.canonical_position(moves)?;
                if let (Some(s), GameSetup::Connect4 { width, height }) = (score, self) {
                    use crate::games::Game;
                    let g = Connect4::parse_position(*width, *height, &canon)?;
                    let (lo, hi) = g.possible_scores();
                    if lo == hi && g.outcome().is_some() && s != lo {
                        return Err(format!(
                            "score {s} cannot be this position's: the game is over after {} moves on {width}x{height}, with the score {lo}",
                            g.plies()
                        ));
                    }
                    if !(lo..=hi).contains(&s) {
                        return Err(format!(
                            "score {s} cannot be this position's: after {} moves on {width}x{height} a score lies from {lo} to {hi}",
                            g.plies()
                        ));
                    }
                }
                Ok((canon, score))
            }
            _ => Ok((self.canonical_position(line)?, None)),
        }
    }

    /// `count` random openings of `plies` moves from the initial position (rule in
    /// `experiment::positions`), in canonical notation.
    pub fn random_openings(
        &self,
        count: u32,
        plies: u32,
        seed: u64,
    ) -> std::result::Result<Vec<String>, String> {
        use super::positions::random_openings;
        fn text<G: crate::games::Game>(v: Vec<G>) -> Vec<String> {
            v.iter().map(|g| g.format_position()).collect()
        }
        match self {
            GameSetup::TicTacToe { scale } => Ok(text(random_openings(
                &TicTacToe::new(*scale),
                count,
                plies,
                seed,
            )?)),
            GameSetup::Connect4 { width, height } => Ok(text(random_openings(
                &Connect4::new(*width, *height),
                count,
                plies,
                seed,
            )?)),
            GameSetup::Chess => Ok(text(random_openings(
                &Chess::parse_position("start")?,
                count,
                plies,
                seed,
            )?)),
            GameSetup::Nim { .. } => {
                Err("Nim has no initial position to open from; list heap sizes in positions".into())
            }
            GameSetup::Uniform { .. } => {
                Err("uniform trees take no random openings; choose trees with `trees = N`".into())
            }
        }
    }

    /// A value of `position` in the game's external score convention (`Game::external_score`).
    pub fn external_score(&self, position: &str, value: i32) -> Option<i32> {
        use crate::games::Game;
        match self {
            GameSetup::Connect4 { width, height } => {
                Connect4::parse_position(*width, *height, position)
                    .ok()
                    .map(|g| g.external_score(value))
            }
            _ => Some(value),
        }
    }
}

/// Every option column any game can have, in CSV order.
pub const OPTION_COLUMNS: [&str; 8] = [
    "scale",
    "misere",
    "branching",
    "height",
    "values",
    "range",
    "model",
    "width",
];

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
}

/// The experiment, validated and expanded.
#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub description: String,
    pub seed: u64,
    pub runs: Vec<Run>,
}

/// FNV-1a, 64 bits: a stable hash of the run key (std's hashers are not stable across
/// versions, so they must not decide seeds).
pub fn fnv1a(text: &str) -> u64 {
    let mut h = Fnv::default();
    h.bytes(text.as_bytes());
    h.0
}

/// FNV-1a 64 as a running hash: fed bytes, or text as it is written to it (`write!`).
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl std::fmt::Write for Fnv {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.bytes(s.as_bytes());
        Ok(())
    }
}

/// SplitMix64 finalizer: mixes the experiment seed with the key's hash.
pub fn mix(seed: u64, key_hash: u64) -> u64 {
    let mut z = seed ^ key_hash.rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Validates the file and expands its grid.
pub fn build(path: &Path, src: &str, file: &ExperimentFile) -> Result<Plan> {
    let name = file.name.get_ref().trim().to_string();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        || name.starts_with('.')
    {
        return Err(at(
            path,
            src,
            file.name.span(),
            format!("name `{name}`: allowed are letters, digits, `-`, `_` and `.` (it names the results folder)"),
        ));
    }
    let g = &file.game;
    let s = &file.search;

    // Game setups: every kind × its options' values; options must apply to some kind.
    let kinds = g.kind.get_ref().values().to_vec();
    let check_option = |key: &str, span: std::ops::Range<usize>| -> Result<()> {
        if kinds.iter().any(|k| k.option_keys().contains(&key)) {
            Ok(())
        } else {
            let allowed: Vec<String> = kinds
                .iter()
                .map(|k| match k.option_keys() {
                    [] => format!("{}: none", k.name()),
                    keys => format!("{}: {}", k.name(), keys.join(", ")),
                })
                .collect();
            Err(at(
                path,
                src,
                span,
                format!(
                    "[game] {key} does not apply to {}; options by game: {}",
                    kinds
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(", "),
                    allowed.join("; ")
                ),
            ))
        }
    };
    if let Some(sc) = &g.scale {
        check_option("scale", sc.span())?;
    }
    if let Some(m) = &g.misere {
        check_option("misere", m.span())?;
    }
    for (key, span) in [
        ("branching", g.branching.as_ref().map(|x| x.span())),
        ("height", g.height.as_ref().map(|x| x.span())),
        ("values", g.values.as_ref().map(|x| x.span())),
        ("range", g.range.as_ref().map(|x| x.span())),
        ("model", g.model.as_ref().map(|x| x.span())),
        ("trees", g.trees.as_ref().map(|x| x.span())),
    ] {
        if let Some(span) = span {
            check_option(key, span)?;
        }
    }
    if let Some(w) = &g.width {
        check_option("width", w.span())?;
    }
    let mut setups = Vec::new();
    for kind in &kinds {
        match kind {
            GameKind::Tictactoe => {
                let scales = g
                    .scale
                    .as_ref()
                    .map(|s| s.get_ref().values().iter().map(|n| n.0).collect())
                    .unwrap_or_else(|| vec![Scale::WinLoss]);
                setups.extend(
                    scales
                        .into_iter()
                        .map(|scale| GameSetup::TicTacToe { scale }),
                );
            }
            GameKind::Nim => {
                let ms = g
                    .misere
                    .as_ref()
                    .map(|m| m.get_ref().values().to_vec())
                    .unwrap_or_else(|| vec![false]);
                setups.extend(ms.into_iter().map(|misere| GameSetup::Nim { misere }));
            }
            GameKind::Chess => setups.push(GameSetup::Chess),
            GameKind::Uniform => setups.extend(uniform_setups(path, src, g)?),
            GameKind::Connect4 => {
                let sizes = |o: &Option<toml::Spanned<super::config::IntGrid>>, default: i64| {
                    o.as_ref()
                        .map(|v| (v.get_ref().0.clone(), v.span()))
                        .unwrap_or_else(|| (vec![default], g.kind.span()))
                };
                let (widths, wspan) = sizes(&g.width, 7);
                let (heights, hspan) = sizes(&g.height, 6);
                for &w in &widths {
                    for &h in &heights {
                        let span = if !(1..=64).contains(&w) || g.height.is_none() {
                            wspan.clone()
                        } else {
                            hspan.clone()
                        };
                        Connect4::check_size(w, h).map_err(|e| {
                            at(path, src, span, format!("[game] width/height: {e}"))
                        })?;
                        // Checked: both from 1 to 64.
                        let (width, height) = (w as u32, h as u32);
                        setups.push(GameSetup::Connect4 { width, height });
                    }
                }
            }
        }
    }
    // Uniform trees are chosen by `trees`, not `positions`.
    let trees = match &g.trees {
        Some(t) if !(1..=1_000_000).contains(t.get_ref()) => {
            return Err(at(
                path,
                src,
                t.span(),
                format!(
                    "[game] trees = {}: the number of uniform trees must be from 1 to 1000000",
                    t.get_ref()
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

    // Positions: the explicit list, then the file's lines, then the random openings, each
    // validated against every setup. With no source at all, the initial position.
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
    let mut file_texts = Vec::new();
    if let Some(f) = &g.positions_file {
        for rel in f.get_ref().values() {
            let full = path.parent().unwrap_or(Path::new("")).join(rel);
            let text = super::config::read_text(&full).map_err(|e| {
                at(
                    path,
                    src,
                    f.span(),
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
            if super::positions::position_lines(&text).next().is_none() {
                return Err(at(
                    path,
                    src,
                    f.span(),
                    format!(
                        "[game] positions_file: {} holds no position (blank lines and # lines are skipped); allowed: a file with one position per line",
                        full.display()
                    ),
                ));
            }
            file_texts.push((full, text));
        }
    }
    // [setup][position]: canonical text and expected score.
    let mut positions: Vec<Vec<(String, Option<i32>)>> = Vec::new();
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
    for setup in &setups {
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
        let mut row = Vec::new();
        for (text, span) in &position_texts {
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
        for (full, text) in &file_texts {
            for (line_no, line) in super::positions::position_lines(text) {
                let parsed = setup.parse_line(line).map_err(|e| {
                    Error::input(format!(
                        "{}:{line_no}: {} position: {e}",
                        full.display(),
                        setup.kind().name()
                    ))
                })?;
                row.push(parsed);
            }
        }
        if let Some(r) = &g.random_openings {
            let ro = r.get_ref();
            if !(1..=MAX_OPENINGS).contains(&ro.count) {
                return Err(at(
                    path,
                    src,
                    r.span(),
                    format!(
                        "[game] random_openings: count = {}; it must be from 1 to {MAX_OPENINGS}",
                        ro.count
                    ),
                ));
            }
            if ro.plies > MAX_OPENING_PLIES {
                return Err(at(
                    path,
                    src,
                    r.span(),
                    format!(
                        "[game] random_openings: plies = {}; it must be from 0 to {MAX_OPENING_PLIES}",
                        ro.plies
                    ),
                ));
            }
            let mut key = format!("random_openings;game={}", setup.kind().name());
            for (k, v) in setup.options() {
                key.push_str(&format!(";{k}={v}"));
            }
            let openings = setup
                .random_openings(ro.count, ro.plies, mix(file.seed, fnv1a(&key)))
                .map_err(|e| at(path, src, r.span(), format!("[game] {e}")))?;
            row.extend(openings.into_iter().map(|o| (o, None)));
        }
        total += row.len();
        if total > MAX_RUNS {
            let span = find_line(src, &|t: &str| t.starts_with("[game]")).unwrap_or(0);
            return Err(too_many(span..span, &format!("{} positions", row.len())));
        }
        positions.push(row);
    }
    let algorithms: Vec<Algorithm> = s.algorithm.values().iter().map(|n| n.0).collect();
    let variants: Vec<Variant> = s
        .variant
        .as_ref()
        .map(|v| v.values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![Variant::FailSoft]);
    if kinds.contains(&GameKind::Chess) && algorithms.contains(&Algorithm::Solve) {
        return Err(at(
            path,
            src,
            g.kind.span(),
            "[search] algorithm \"solve\" is not available for chess (the solver searches to the end of the game, which chess does not bound); use alphabeta to a depth",
        ));
    }
    let solve_only = algorithms.iter().all(|&a| a == Algorithm::Solve);
    let depths = match &s.depth {
        // The solver searches to the end: a depth of plies with only the solver would be
        // silently ignored.
        Some(d) if solve_only && d.get_ref().0.iter().any(|&x| x != Depth::Full) => {
            return Err(at(
                path,
                src,
                d.span(),
                "`depth`: algorithm \"solve\" always searches to the end of the game, so a depth in plies would be ignored; allowed: \"full\", or leave depth out",
            ));
        }
        Some(d) => d.get_ref().0.clone(),
        // The solver always searches to the end of the game.
        None if solve_only => vec![Depth::Full],
        None => {
            let section = find_line(src, &|t: &str| t.starts_with("[search]")).unwrap_or(0);
            return Err(at(
                path,
                src,
                section..section,
                "[search] depth is missing: give plies (depth = 4), a list (depth = [2, 4]), a range (depth = { from = 1, to = 6 }) or \"full\"; only algorithm \"solve\" goes without",
            ));
        }
    };
    if let (true, Some(d)) = (
        kinds.contains(&GameKind::Chess) && depths.contains(&Depth::Full),
        &s.depth,
    ) {
        return Err(at(
            path,
            src,
            d.span(),
            "depth \"full\" is not available for chess (no useful bound on the game's length); give plies, e.g. depth = { from = 1, to = 5 }",
        ));
    }
    let quiescences = quiescence_grid(s);
    let orderings: Vec<Ordering> = s
        .ordering
        .as_ref()
        .map(|o| o.values().iter().map(|x| x.0.clone()).collect())
        .unwrap_or_else(|| vec![Ordering::natural()]);
    let ties: Vec<TieBreak> = s
        .tie_break
        .as_ref()
        .map(|v| v.values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![TieBreak::First]);
    let reps = match &s.repetitions {
        Some(r) if !(1..=MAX_REPETITIONS).contains(r.get_ref()) => {
            return Err(at(
                path,
                src,
                r.span(),
                format!(
                    "repetitions = {}; it must be from 1 to {MAX_REPETITIONS}",
                    r.get_ref()
                ),
            ))
        }
        Some(r) => *r.get_ref(),
        None => 1,
    };
    let max_nodes = match &s.max_nodes {
        Some(m) if *m.get_ref() == 0 => {
            return Err(at(path, src, m.span(), "max_nodes = 0: allowed: a whole number from 1 (the most positions one search may enter)"))
        }
        m => m.as_ref().map(|m| *m.get_ref()),
    };
    let max_seconds = match &s.max_seconds {
        Some(m) if !(*m.get_ref() > 0.0 && m.get_ref().is_finite()) => {
            return Err(at(
                path,
                src,
                m.span(),
                "max_seconds must be a positive number of seconds",
            ))
        }
        m => m.as_ref().map(|m| *m.get_ref()),
    };

    let iteratives: Vec<bool> = s
        .iterative
        .as_ref()
        .map(|v| v.values().to_vec())
        .unwrap_or_else(|| vec![false]);
    let tt_grid = tt_specs(path, src, s.tt.as_ref())?;
    let reference = s.tt.as_ref().and_then(|t| t.reference).unwrap_or(false);

    let mut runs = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let width = positions
        .iter()
        .map(|r| r.len())
        .max()
        .unwrap_or(0)
        .to_string()
        .len()
        .max(2);
    let solvers: Vec<Techniques> = s
        .solver
        .as_ref()
        .map(|v| v.get_ref().values().iter().map(|t| t.0).collect())
        .unwrap_or_else(|| vec![Techniques::ALL]);
    if let Some(sv) = &s.solver {
        if !algorithms.contains(&Algorithm::Solve) {
            return Err(at(
                path,
                src,
                sv.span(),
                "[search] solver sets the techniques of algorithm \"solve\", which this experiment does not run",
            ));
        }
    }
    for (si, setup) in setups.iter().enumerate() {
        for (pi, (position, expected)) in positions[si].iter().enumerate() {
            for &algorithm in &algorithms {
                let techs: Vec<Option<Techniques>> = if algorithm == Algorithm::Solve {
                    solvers.iter().map(|&t| Some(t)).collect()
                } else {
                    vec![None]
                };
                for solver in techs {
                    // The variant only means something for alpha-beta: other algorithms run once.
                    let vs: Vec<Option<Variant>> = if algorithm.prunes() {
                        variants.iter().map(|&v| Some(v)).collect()
                    } else {
                        vec![None]
                    };
                    for variant in vs {
                        // The solver always searches to the end of the game.
                        let ds: Vec<Depth> = if algorithm == Algorithm::Solve {
                            vec![Depth::Full]
                        } else {
                            depths.clone()
                        };
                        // What the solver does not use is dropped, not multiplied: the root's
                        // tie-break, iterative deepening and quiescence. Its table is the
                        // experiment's (`[search.tt]`), else its own default, and none
                        // without the `tt` technique.
                        let solve = algorithm == Algorithm::Solve;
                        let (run_ties, run_iteratives, run_quiescences) = if solve {
                            (
                                &[TieBreak::First][..],
                                &[false][..],
                                &[Quiescence::off()][..],
                            )
                        } else {
                            (&ties[..], &iteratives[..], &quiescences[..])
                        };
                        let tts: Vec<Option<TtSpec>> = match solver {
                            Some(t) if t.tt => {
                                let mut v: Vec<Option<TtSpec>> = Vec::new();
                                for tt in &tt_grid {
                                    let spec = tt.unwrap_or_else(solver::default_table);
                                    if !v.contains(&Some(spec)) {
                                        v.push(Some(spec));
                                    }
                                }
                                v
                            }
                            // The table serves alpha-beta (and the solver's `tt`) only: other
                            // algorithms run once, without it.
                            _ if algorithm.prunes() => tt_grid.clone(),
                            _ => vec![None],
                        };
                        for &depth in &ds {
                            for (ordering, &tie_break, &iterative, tt) in orderings
                                .iter()
                                .flat_map(|o| run_ties.iter().map(move |t| (o, t)))
                                .flat_map(|(o, t)| run_iteratives.iter().map(move |i| (o, t, i)))
                                .flat_map(|(o, t, i)| tts.iter().map(move |tt| (o, t, i, *tt)))
                            {
                                {
                                    let mut run = Run {
                                        key: String::new(),
                                        seed: 0,
                                        game: setup.clone(),
                                        position_id: pi,
                                        position: position.clone(),
                                        algorithm,
                                        variant,
                                        depth,
                                        ordering: ordering.clone(),
                                        tie_break,
                                        rep: 0,
                                        max_nodes,
                                        max_seconds,
                                        quiescence: Quiescence::off(),
                                        tt,
                                        iterative,
                                        reference,
                                        solver,
                                        expected: *expected,
                                    };
                                    for &q in run_quiescences {
                                        run.quiescence = q;
                                        let n = if run.uses_randomness() { reps } else { 1 };
                                        for rep in 0..n {
                                            run.rep = rep;
                                            run.key = run_key(&run, width);
                                            run.seed =
                                                mix(file.seed, fnv1a(&seed_key(&run, width)));
                                            if seen.insert(run.key.clone()) {
                                                if runs.len() == MAX_RUNS {
                                                    return Err(Error::input(format!(
                                                        "{}: the experiment's grid holds more than {MAX_RUNS} runs (positions × every list-valued key × repetitions); split it into several experiments",
                                                        path.display()
                                                    )));
                                                }
                                                runs.push(run.clone());
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    check_oracle_memory(path, src, file, &runs)?;
    check_search_size(path, src, file, &runs)?;
    check_table_depth(path, src, file, &runs)?;
    // The solver records no killers and no history. An ordering naming them that only solve
    // runs use would order nothing there; beside alpha-beta runs that use them it is a
    // comparison, and the solve runs ignore the terms (as a table-less run ignores `tt`).
    let searched_orders: std::collections::BTreeSet<String> = runs
        .iter()
        .filter(|r| r.solver.is_none())
        .map(|r| r.ordering.to_string())
        .collect();
    for r in runs.iter().filter(|r| r.solver.is_some()) {
        if let Err(e) = solver::check_recorded_terms(&r.ordering) {
            if !searched_orders.contains(&r.ordering.to_string()) {
                let pos = find_line(src, &|l| l.starts_with("ordering")).unwrap_or(0);
                return Err(at(path, src, pos..pos, format!("`ordering`: {e}")));
            }
        }
    }
    // The `tt` term orders by the table's stored move: with no table anywhere it would order
    // nothing and the runs would silently be what the ordering without it gives.
    let has_table = |r: &Run| r.tt.is_some() || r.solver.is_some_and(|t| t.tt);
    if runs
        .iter()
        .any(|r| r.ordering.has(&crate::search::OrderTerm::Tt))
        && !runs.iter().any(has_table)
    {
        let pos = find_line(src, &|l| l.starts_with("ordering")).unwrap_or(0);
        let fix = if solve_only {
            "add `tt` to the solver's techniques (solver = [\"all\", ...])"
        } else {
            "add a [search.tt] section (enabled = [false, true] compares with and without)"
        };
        return Err(at(
            path,
            src,
            pos..pos,
            format!("`ordering`: the term `tt` (the table's stored move) needs a transposition table, and no run has one; {fix}, or drop `tt`"),
        ));
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
/// The longest random opening, in plies (the longest search depth too).
pub const MAX_OPENING_PLIES: u32 = 10_000;

/// The canonical text of a run's parameters: the sort order of runs.csv and the seed's input.
pub fn run_key(r: &Run, pos_width: usize) -> String {
    let mut parts = position_parts(r, pos_width);
    parts.push(format!("alg={}", r.algorithm.name()));
    if let Some(t) = r.solver {
        parts.push(format!("solver={t}"));
    }
    if let Some(v) = r.variant {
        parts.push(format!("variant={}", v.name()));
    }
    parts.push(match r.depth {
        Depth::Plies(d) => format!("depth={d:04}"),
        Depth::Full => "depth=full".to_string(),
    });
    parts.push(format!("ordering={}", r.ordering));
    // Parts for the table and iterative deepening appear only when used, so the keys (and
    // seeds) of runs without them are unchanged.
    if let Some(t) = &r.tt {
        parts.push(format!("tt=2^{:02}", t.log2_entries()));
        parts.push(format!("repl={}", t.replacement.name()));
        parts.push(format!("kbits={:02}", t.key_bits));
        parts.push(format!("bounds={}", t.bounds.name()));
    }
    if r.iterative {
        parts.push("iter=on".to_string());
    }
    parts.push(format!("tie={}", r.tie_break.name()));
    // Only when on, so that the keys (and seeds) of runs without quiescence do not change.
    if r.quiescence.enabled {
        parts.push(format!("q={}", r.quiescence.label()));
    }
    parts.push(format!("rep={:03}", r.rep));
    parts.join(";")
}

/// The run key's first parts, which name the searched position: the game, its options and
/// the position's number.
fn position_parts(r: &Run, pos_width: usize) -> Vec<String> {
    let mut parts = vec![format!("game={}", r.game.kind().name())];
    for (k, v) in r.game.options() {
        parts.push(format!("{k}={v}"));
    }
    parts.push(format!("pos={:0w$}", r.position_id, w = pos_width));
    parts
}

/// The part of the run key that seeds the run's randomness: the game, its options, the
/// position, the ordering, the tie-break and the repetition. Runs that differ only in the
/// search technique (algorithm, variant, depth, table, iterative deepening, quiescence) get the
/// same seed, so they draw the same random numbers (common random numbers): fail-hard and
/// fail-soft alpha-beta without a table, say, shuffle alike and enter the same nodes, and a
/// difference between techniques is theirs, not the shuffles'.
pub fn seed_key(r: &Run, pos_width: usize) -> String {
    let mut parts = position_parts(r, pos_width);
    parts.push(format!("ordering={}", r.ordering));
    parts.push(format!("tie={}", r.tie_break.name()));
    parts.push(format!("rep={:03}", r.rep));
    parts.join(";")
}

/// Every quiescence setting the `[search] quiescence` table lists (the grid of its lists);
/// `off` alone when it is absent. Settings with `enabled = false` collapse into one `off`.
fn quiescence_grid(s: &super::config::SearchSection) -> Vec<Quiescence> {
    let Some(q) = &s.quiescence else {
        return vec![Quiescence::off()];
    };
    let q = q.get_ref();
    let list = |v: &Option<super::oneormany::OneOrMany<bool>>, default: bool| -> Vec<bool> {
        v.as_ref()
            .map(|v| v.values().to_vec())
            .unwrap_or_else(|| vec![default])
    };
    let checks = list(&q.checks, false);
    let promotions = list(&q.promotions, true);
    let deltas: Vec<Option<i32>> = q
        .delta
        .as_ref()
        .map(|d| d.values().iter().map(|x| x.0).collect())
        .unwrap_or_else(|| vec![None]);
    let mut out: Vec<Quiescence> = Vec::new();
    for &enabled in q.enabled.values() {
        for &c in &checks {
            for &p in &promotions {
                for &delta in &deltas {
                    let one = if enabled {
                        Quiescence {
                            enabled,
                            checks: c,
                            promotions: p,
                            delta,
                        }
                    } else {
                        Quiescence::off()
                    };
                    if !out.contains(&one) {
                        out.push(one);
                    }
                }
            }
        }
    }
    out
}

/// The uniform-tree setups: branching × height × values × model, each validated.
fn uniform_setups(
    path: &Path,
    src: &str,
    g: &super::config::GameSection,
) -> Result<Vec<GameSetup>> {
    use super::config::UniformValues;
    let kind_span = g.kind.span();
    let span_of = |key: &str| -> std::ops::Range<usize> {
        match key {
            "branching" => g.branching.as_ref().map(|x| x.span()),
            "height" => g.height.as_ref().map(|x| x.span()),
            "values" => g.values.as_ref().map(|x| x.span()),
            "range" => g.range.as_ref().map(|x| x.span()),
            "model" => g.model.as_ref().map(|x| x.span()),
            _ => None,
        }
        .unwrap_or_else(|| kind_span.clone())
    };
    let need = |key: &str, example: &str| {
        at(
            path,
            src,
            kind_span.clone(),
            format!("[game] {key} is missing: a uniform tree needs it, e.g. {example}"),
        )
    };
    let branchings = g
        .branching
        .as_ref()
        .ok_or_else(|| need("branching", "branching = 3"))?
        .get_ref()
        .0
        .clone();
    let heights = g
        .height
        .as_ref()
        .ok_or_else(|| need("height", "height = 5 or height = { from = 1, to = 8 }"))?
        .get_ref()
        .0
        .clone();
    for &b in &branchings {
        if !(2..=crate::games::uniform::MAX_BRANCHING as i64).contains(&b) {
            return Err(at(
                path,
                src,
                span_of("branching"),
                format!(
                "[game] branching = {b}: a uniform tree needs a branching factor b from 2 to {}",
                crate::games::uniform::MAX_BRANCHING
            ),
            ));
        }
    }
    for &d in &heights {
        if !(1..=crate::games::uniform::MAX_HEIGHT as i64).contains(&d) {
            return Err(at(path, src, span_of("height"), format!(
                "[game] height = {d}: a uniform tree needs a height d (the depth of its leaves) from 1 to {}",
                crate::games::uniform::MAX_HEIGHT
            )));
        }
    }
    let value_names: Vec<UniformValues> = g
        .values
        .as_ref()
        .map(|v| v.get_ref().values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![UniformValues::Distinct]);
    let (lo, hi) = match &g.range {
        Some(r) => {
            if !value_names.contains(&UniformValues::Integer) {
                return Err(at(
                    path,
                    src,
                    r.span(),
                    "[game] range applies only to values = \"integer\"",
                ));
            }
            match r.get_ref().as_slice() {
                [lo, hi]
                    if lo <= hi
                        && *lo >= -crate::games::uniform::MAX_INTEGER
                        && *hi <= crate::games::uniform::MAX_INTEGER =>
                {
                    (*lo as i32, *hi as i32)
                }
                _ => {
                    return Err(at(
                        path,
                        src,
                        r.span(),
                        format!(
                            "[game] range must be [lo, hi] with lo <= hi, both within -{m}..{m}",
                            m = crate::games::uniform::MAX_INTEGER
                        ),
                    ))
                }
            }
        }
        None => (-100, 100),
    };
    let models: Vec<Model> = g
        .model
        .as_ref()
        .map(|v| v.get_ref().values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![Model::Independent]);
    let mut out = Vec::new();
    for &b in &branchings {
        for &d in &heights {
            for &v in &value_names {
                for &model in &models {
                    let values = match v {
                        UniformValues::Distinct => Values::Distinct,
                        UniformValues::Continuous => Values::Continuous,
                        UniformValues::Integer => Values::Integer { lo, hi },
                    };
                    let spec = UniformSpec {
                        branching: b as u32,
                        height: d as u32,
                        values,
                        model,
                    };
                    spec.validate().map_err(|(key, msg)| {
                        at(path, src, span_of(key), format!("[game] {msg}"))
                    })?;
                    out.push(GameSetup::Uniform { spec });
                }
            }
        }
    }
    Ok(out)
}

/// The positions of a uniform setup: tree t's seed is derived from the experiment seed and
/// the tree's key, the run key's game part (`game=uniform;branching=..;...;tree=t`), so every
/// algorithm, variant, depth, ordering and repetition of tree t searches the same tree.
pub fn uniform_positions(spec: &UniformSpec, experiment_seed: u64, trees: usize) -> Vec<String> {
    use crate::games::Game;
    let mut prefix = String::from("game=uniform");
    for (k, v) in spec.options() {
        prefix.push_str(&format!(";{k}={v}"));
    }
    (0..trees)
        .map(|t| {
            let seed = mix(experiment_seed, fnv1a(&format!("{prefix};tree={t}")));
            Uniform::new(*spec, t as u64, seed).format_position()
        })
        .collect()
}

/// The plies a search of `depth` reads on a uniform tree: at most its height.
fn uniform_plies(depth: Depth, spec: &UniformSpec) -> u32 {
    match depth {
        Depth::Plies(p) => p.min(spec.height),
        Depth::Full => spec.height,
    }
}

/// Where an error about a uniform tree's size points: `[game] height`, else the game's kind.
fn height_span(file: &ExperimentFile) -> std::ops::Range<usize> {
    file.game
        .height
        .as_ref()
        .map(|h| h.span())
        .unwrap_or_else(|| file.game.kind.span())
}

/// Refuses, before anything runs, an oracle ordering on a uniform tree too large for the
/// oracle's memo.
fn check_oracle_memory(path: &Path, src: &str, file: &ExperimentFile, runs: &[Run]) -> Result<()> {
    use crate::search::oracle::{uniform_entries, ORACLE_MAX_ENTRIES};
    for run in runs {
        if let (GameSetup::Uniform { spec }, true) = (&run.game, run.ordering.uses_oracle()) {
            let d = uniform_plies(run.depth, spec);
            let need = uniform_entries(spec.branching as u64, d);
            if need > ORACLE_MAX_ENTRIES as f64 {
                return Err(at(path, src, height_span(file), format!(
                    "[game] height: ordering `{}` on a uniform tree of branching {} searched {d} plies needs the oracle to hold {} exact values, more than its memory allows ({ORACLE_MAX_ENTRIES}, about 70 MB); lower height or depth, or leave out oracle-best, oracle-worst and strong for this tree",
                    run.ordering, spec.branching,
                    // Whole below 10^15 (exact there), else 7 significant digits.
                    if need < 1e15 { format!("{need:.0}") } else { format!("{need:.6e}") }
                )));
            }
        }
    }
    Ok(())
}

/// The most nodes a search on a uniform tree may be certain to enter without a budget: about
/// 9 hours per search at 30 M nodes per second (README, Performance: 25 to 50 M on one core).
pub const MAX_UNBUDGETED_NODES: f64 = 1e12;

/// How long `nodes` take at 30 M nodes per second, in the unit a reader grasps.
fn duration_text(nodes: f64) -> String {
    let s = nodes / 3e7;
    let (v, unit) = if s < 2.0 * 3600.0 {
        (s / 60.0, "minutes")
    } else if s < 2.0 * 86400.0 {
        (s / 3600.0, "hours")
    } else if s < 2.0 * 365.25 * 86400.0 {
        (s / 86400.0, "days")
    } else {
        (s / (365.25 * 86400.0), "years")
    };
    if v < 1e6 {
        format!("about {v:.0} {unit}")
    } else {
        format!("about {v:.1e} {unit}")
    }
}

/// Refuses, before anything runs, a search on a uniform tree that cannot finish in a sitting:
/// one whose sure node count (minimax and negamax: the full tree; alpha-beta and the solver:
/// the Knuth–Moore minimal tree, which even perfect ordering enters) passes
/// `MAX_UNBUDGETED_NODES` with no `max_nodes` or `max_seconds` to stop it. Only uniform trees
/// have a size known before the search.
fn check_search_size(path: &Path, src: &str, file: &ExperimentFile, runs: &[Run]) -> Result<()> {
    use crate::report::theory::{full_nodes, minimal_nodes};
    for run in runs {
        let GameSetup::Uniform { spec } = &run.game else {
            continue;
        };
        if run.max_nodes.is_some() || run.max_seconds.is_some() {
            continue;
        }
        let d = uniform_plies(run.depth, spec);
        let b = spec.branching as u64;
        let (nodes, which) = match run.algorithm {
            Algorithm::Minimax | Algorithm::Negamax => (full_nodes(b, d), "the full tree"),
            Algorithm::AlphaBeta | Algorithm::Solve => (
                minimal_nodes(b, d),
                "the minimal tree, which even perfect ordering enters",
            ),
        };
        if nodes > MAX_UNBUDGETED_NODES {
            return Err(at(path, src, height_span(file), format!(
                "[game] height: {} on a uniform tree of branching {b} searched {d} plies enters at least {nodes:.1e} nodes ({which}), {} per search at 30 M nodes per second; allowed without a budget: at most 10^12 nodes ({}); lower branching, height or depth, or set max_nodes or max_seconds in [search] to stop each search",
                run.algorithm.name(),
                duration_text(nodes),
                duration_text(MAX_UNBUDGETED_NODES)
            )));
        }
    }
    Ok(())
}

/// Refuses, before anything runs, a run with a transposition table whose search depth passes
/// `tt::MAX_DEPTH` (a depth above it, or `depth = "full"` from a position the game can last
/// longer from): an entry records its remaining depth in one byte (16-byte entries), and an
/// entry cut to 255 would never again count as deep enough above it, silently turning the
/// table's cutoffs off there. (A numeric depth counts as given even where the game ends
/// sooner: the search's remaining depth starts from it.)
fn check_table_depth(path: &Path, src: &str, file: &ExperimentFile, runs: &[Run]) -> Result<()> {
    for run in runs {
        if run.tt.is_none() && !run.solver.is_some_and(|t| t.tt) {
            continue;
        }
        let what = match run.depth {
            Depth::Plies(p) if p <= tt::MAX_DEPTH => continue,
            Depth::Plies(p) => format!("depth {p}"),
            Depth::Full => match super::runner::search_depth(run).map_err(Error::Input)? {
                l if l > tt::MAX_DEPTH => {
                    format!(
                        "depth = \"full\" from position `{}` ({l} plies)",
                        run.position
                    )
                }
                _ => continue,
            },
        };
        let pos = find_line(src, &|l| l.starts_with("depth")).unwrap_or(0);
        let span = file
            .search
            .depth
            .as_ref()
            .map(|d| d.span())
            .unwrap_or(pos..pos);
        return Err(at(path, src, span, format!(
            "depth: {what} with a transposition table, whose entries record remaining depths up to {} plies (one byte of a 16-byte entry); allowed with a table: a depth up to {}, or \"full\" where the game ends within {} plies; lower the depth, or turn the table off (run `{}`)",
            tt::MAX_DEPTH,
            tt::MAX_DEPTH,
            tt::MAX_DEPTH,
            run.key
        )));
    }
    Ok(())
}

/// The table settings of `[search.tt]`, expanded into the grid: `None` is the table off.
/// Validates every value, with the file, line:column and key in the message.
fn tt_specs(path: &Path, src: &str, t: Option<&TtSection>) -> Result<Vec<Option<TtSpec>>> {
    let t = match t {
        Some(t) => t,
        None => return Ok(vec![None]),
    };
    let enabled: Vec<bool> = t
        .enabled
        .as_ref()
        .map(|v| v.values().to_vec())
        .unwrap_or_else(|| vec![true]);
    let replacements: Vec<Replacement> = t
        .replacement
        .as_ref()
        .map(|v| v.get_ref().values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![Replacement::Depth]);
    let bounds: Vec<Bounds> = t
        .bounds
        .as_ref()
        .map(|v| v.values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![Bounds::Correct]);
    let key_bits: Vec<u32> = match &t.key_bits {
        Some(k) => {
            for &b in k.get_ref().values() {
                if !(8..=64).contains(&b) {
                    return Err(at(
                        path,
                        src,
                        k.span(),
                        format!("[search.tt] key_bits = {b}: allowed are 8 to 64"),
                    ));
                }
            }
            k.get_ref().values().to_vec()
        }
        None => vec![64],
    };
    // Sizes in entries: (entries, replacement) pairs checked against each scheme.
    let mut sizes: Vec<u64> = Vec::new();
    match (&t.entries, &t.mib) {
        (Some(_), Some(m)) => {
            return Err(at(
                path,
                src,
                m.span(),
                "[search.tt]: give the size as `entries` or as `mib`, not both",
            ))
        }
        (Some(e), None) => {
            for &n in e.get_ref().values() {
                for &r in &replacements {
                    tt::check_entries(n, r).map_err(|msg| {
                        at(
                            path,
                            src,
                            e.span(),
                            format!("[search.tt] entries = {n}: {msg}"),
                        )
                    })?;
                }
                sizes.push(n);
            }
        }
        (None, Some(m)) => {
            for &mib in m.get_ref().values() {
                let mut n = 0;
                for &r in &replacements {
                    n = tt::entries_from_mib(mib, r).map_err(|msg| {
                        let hint = if mib.is_power_of_two() {
                            ""
                        } else {
                            " (or give `entries`)"
                        };
                        at(
                            path,
                            src,
                            m.span(),
                            format!("[search.tt] mib = {mib}: {msg}{hint}"),
                        )
                    })?;
                }
                sizes.push(n);
            }
        }
        (None, None) => sizes.push(tt::DEFAULT_ENTRIES),
    }
    let mut out = Vec::new();
    for &on in &enabled {
        if !on {
            out.push(None);
            continue;
        }
        for &entries in &sizes {
            for &replacement in &replacements {
                for &kb in &key_bits {
                    for &b in &bounds {
                        out.push(Some(TtSpec {
                            entries,
                            replacement,
                            key_bits: kb,
                            bounds: b,
                        }));
                    }
                }
            }
        }
    }
    Ok(out)
}
