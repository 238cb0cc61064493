//! Experiment files: TOML, parsed with serde (unknown keys rejected), validated with spans so
//! every error names the file, the key, its line:column and what is allowed.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use toml::Spanned;

use super::oneormany::{from_seq, OneOrMany};
use crate::error::{Error, Result};
use crate::search::{Algorithm, Bounds, Ordering, Quiescence, Replacement, TieBreak, Variant};

/// The whole experiment file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    /// Names the results folder `results/<name>/`.
    pub name: Spanned<String>,
    #[serde(default)]
    pub description: String,
    /// The experiment seed; every random choice derives from it and the run key.
    #[serde(default)]
    pub seed: u64,
    pub game: GameSection,
    pub search: SearchSection,
    /// `[report]`: which charts to draw and how (all keys optional).
    #[serde(default)]
    pub report: Option<ReportSection>,
}

impl ExperimentFile {
    /// The values of each grid column of runs.csv in the order this file lists them (as
    /// runs.csv writes them): charts put categories, series and facets in this order, so a
    /// baseline listed first is drawn first. Columns of numbers are not listed (they sort as
    /// numbers).
    pub fn listed_values(&self) -> BTreeMap<String, Vec<String>> {
        fn names<T>(v: &[T], name: impl Fn(&T) -> String) -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for x in v {
                let n = name(x);
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            out
        }
        let mut m = BTreeMap::new();
        let s = &self.search;
        m.insert(
            "algorithm".into(),
            names(s.algorithm.values(), |a| a.0.name().into()),
        );
        if let Some(v) = &s.variant {
            m.insert("variant".into(), names(v.values(), |a| a.0.name().into()));
        }
        if let Some(v) = &s.ordering {
            m.insert("ordering".into(), names(v.values(), |o| o.0.to_string()));
        }
        if let Some(v) = &s.tie_break {
            m.insert("tie_break".into(), names(v.values(), |t| t.0.name().into()));
        }
        if let Some(v) = &s.solver {
            m.insert(
                "solver".into(),
                names(v.get_ref().values(), |t| t.0.to_string()),
            );
        }
        if let Some(v) = &s.iterative {
            m.insert("iterative".into(), names(v.values(), |b| b.to_string()));
        }
        if s.quiescence.is_some() {
            m.insert(
                "quiescence".into(),
                names(&s.quiescence_grid(), Quiescence::label),
            );
        }
        if let Some(tt) = &s.tt {
            if let Some(v) = &tt.enabled {
                let on_off = |b: &bool| if *b { "on" } else { "off" }.to_string();
                m.insert("tt".into(), names(v.values(), on_off));
            }
            if let Some(v) = &tt.replacement {
                let v = v.get_ref().values();
                m.insert("tt_replacement".into(), names(v, |r| r.0.name().into()));
            }
            if let Some(v) = &tt.bounds {
                m.insert("tt_bounds".into(), names(v.values(), |b| b.0.name().into()));
            }
        }
        if let Some(v) = &self.game.scale {
            m.insert(
                "scale".into(),
                names(v.get_ref().values(), |x| x.0.name().into()),
            );
        }
        if let Some(v) = &self.game.misere {
            m.insert(
                "misere".into(),
                names(v.get_ref().values(), |b| b.to_string()),
            );
        }
        m
    }
}

/// The tables of an experiment file (a [section] or an inline `{ ... }`) are read from a table
/// only. serde's derived structs also take an array, field by field in order, so that
/// `random_openings = [2, 3]` would silently read as 2 openings of 3 plies: each such struct
/// derives its reader as an inherent function (`remote = "Self"`), which this `Deserialize`
/// calls on a table and no other value.
macro_rules! table_only {
    ($t:ty, $expecting:expr) => {
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                struct V;
                impl<'de> de::Visitor<'de> for V {
                    type Value = $t;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_map<A: de::MapAccess<'de>>(
                        self,
                        map: A,
                    ) -> std::result::Result<$t, A::Error> {
                        <$t>::deserialize(de::value::MapAccessDeserializer::new(map))
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}
table_only!(RandomOpenings, "a table `{ count = N, plies = N }`");
// (The quiescence message adds an example of the table.)
table_only!(QuiescenceSection, "a table");
table_only!(TtSection, A_TABLE);
table_only!(GameSection, A_TABLE);
table_only!(SearchSection, A_TABLE);
table_only!(ReportSection, A_TABLE);
table_only!(ExcludeEntry, EXCLUDE_ENTRY);

/// What an entry of `[search] exclude` is, in its messages.
const EXCLUDE_ENTRY: &str = "a table in braces";

/// What a section of the file is, in its messages.
const A_TABLE: &str = "a table (`key = { ... }` or a [section])";

/// `[report]`: the charts of summary.csv / report.md. Column names (`x`, `series`, `facet`)
/// are checked against runs.csv when the report is built.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct ReportSection {
    /// Charts to draw; default: all that the data supports.
    pub charts: Option<Spanned<Vec<ChartKind>>>,
    /// The x axis column; default `depth`.
    pub x: Option<Spanned<String>>,
    /// Column(s) whose values make the series (one line per value); default `ordering`.
    pub series: Option<Spanned<OneOrMany<String>>>,
    /// Column(s) whose values make separate charts (one chart per value); default none.
    pub facet: Option<Spanned<OneOrMany<String>>>,
    /// A title put before every chart's own title (e.g. the experiment's subject).
    pub title: Option<String>,
    /// Per-chart titles, replacing the default ones: `titles = { nodes = "..." }`.
    pub titles: Option<std::collections::BTreeMap<ChartKind, String>>,
    /// Theory lines to draw; default all three.
    pub theory: Option<Spanned<Vec<TheoryKind>>>,
    /// Column(s) the charts average over instead of splitting by them (e.g. `depth` when
    /// `depth = "full"` makes it a property of the position). summary.csv still groups by them.
    pub pool: Option<Spanned<OneOrMany<String>>>,
    /// How a numeric x axis is spaced: `linear` (default; log for table sizes), `log`, or
    /// `category` (evenly, one tick per value: key bits 8, 9, ..., 64).
    pub x_scale: Option<XScale>,
    /// The statistic a point shows: `mean` (default), `geomean` or `median` of the group's
    /// runs (geomean and median resist one big position in a pooled group).
    pub point: Option<PointStat>,
    /// The whiskers around a point: `min-max` (default) or `none`.
    pub whiskers: Option<Whiskers>,
    /// The y axes of a chart's facets: `shared` (default; one range over all facets, so they
    /// compare at a glance) or `own` (each facet's file its own range).
    pub facet_y: Option<FacetY>,
    /// Legend names for series labels: `labels = { "win-check+tt" = "no null-window" }`.
    pub labels: Option<std::collections::BTreeMap<String, String>>,
}

/// `[report] point`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PointStat {
    #[default]
    Mean,
    Geomean,
    Median,
}

impl PointStat {
    pub fn name(self) -> &'static str {
        match self {
            PointStat::Mean => "mean",
            PointStat::Geomean => "geomean",
            PointStat::Median => "median",
        }
    }
}

/// `[report] whiskers`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Whiskers {
    #[default]
    MinMax,
    None,
}

/// `[report] facet_y`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FacetY {
    #[default]
    Shared,
    Own,
}

/// `[report] x_scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum XScale {
    Linear,
    Log,
    Category,
}

/// The charts `[report] charts` can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChartKind {
    /// Nodes vs x (log y), min-max bars, theory lines.
    Nodes,
    /// Effective branching factor vs x, with Pearl's R*(b).
    Ebf,
    /// Mean nodes / Knuth-Moore minimal tree, as bars.
    RatioToMinimal,
    /// Nodes vs transposition-table size.
    NodesVsTable,
    /// Quiescence nodes (qnodes) vs x (log y), next to the main-search nodes.
    Qnodes,
    /// False hits of the table (`tt_false_hits`: hits on an entry stored for another
    /// position) vs x (log y); drawn where some run has one (fewer than 64 key bits).
    FalseHits,
    /// Percent of runs whose root value differs from the same search without a table
    /// (`value_wrong`; needs `[search.tt] reference = true`).
    ValueWrong,
    /// Percent of runs whose move is worse than the best (`move_wrong`; likewise).
    MoveWrong,
    /// Percent of finished searches whose move is the position's annotated best move
    /// (`bm_hit`; positions from an EPD suite with `bm` or `am`).
    BmHit,
    /// Search time (`time_ns`, in milliseconds; in seconds once a search reaches 10,000 ms) vs
    /// x (log y). Wall-clock time differs between machines and runs, so it is drawn only when
    /// `charts` names it.
    Time,
}

impl ChartKind {
    pub const ALL: [ChartKind; 10] = [
        ChartKind::Nodes,
        ChartKind::Ebf,
        ChartKind::RatioToMinimal,
        ChartKind::NodesVsTable,
        ChartKind::Qnodes,
        ChartKind::FalseHits,
        ChartKind::ValueWrong,
        ChartKind::MoveWrong,
        ChartKind::BmHit,
        ChartKind::Time,
    ];
    /// Whether the chart is drawn (where the data allows) when `[report] charts` is not
    /// given: all but `time`, whose values are the machine's, not the experiment's.
    pub fn by_default(self) -> bool {
        self != ChartKind::Time
    }
    pub fn name(self) -> &'static str {
        match self {
            ChartKind::Nodes => "nodes",
            ChartKind::Ebf => "ebf",
            ChartKind::RatioToMinimal => "ratio-to-minimal",
            ChartKind::NodesVsTable => "nodes-vs-table",
            ChartKind::Qnodes => "qnodes",
            ChartKind::FalseHits => "false-hits",
            ChartKind::ValueWrong => "value-wrong",
            ChartKind::MoveWrong => "move-wrong",
            ChartKind::BmHit => "bm-hit",
            ChartKind::Time => "time",
        }
    }
    /// Whether its points show `[report] point` (mean, geomean or median) of a counter (the
    /// ratio-to-minimal chart: of nodes, over the minimal tree); the share charts show the
    /// share of the finished runs.
    pub fn shows_point_stat(self) -> bool {
        self.share_column().is_none()
    }
    /// The 0/1 (or false/true) runs.csv column whose share of runs, in percent, a
    /// `value-wrong`, `move-wrong` or `bm-hit` chart plots.
    pub fn share_column(self) -> Option<&'static str> {
        match self {
            ChartKind::ValueWrong => Some("value_wrong"),
            ChartKind::MoveWrong => Some("move_wrong"),
            ChartKind::BmHit => Some("bm_hit"),
            _ => None,
        }
    }
}

/// The theory lines `[report] theory` can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TheoryKind {
    /// The full tree, (b^(d+1) - 1) / (b - 1) nodes.
    FullTree,
    /// Knuth and Moore's minimal tree.
    KnuthMoore,
    /// Pearl's asymptotic branching factor R*(b) (on the ebf chart).
    Pearl,
}

impl TheoryKind {
    /// The name `[report] theory` gives it.
    pub fn name(self) -> &'static str {
        match self {
            TheoryKind::FullTree => "full-tree",
            TheoryKind::KnuthMoore => "knuth-moore",
            TheoryKind::Pearl => "pearl",
        }
    }
}

/// `[game]`: which game(s), their options and the positions to search from.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct GameSection {
    pub kind: Spanned<OneOrMany<GameKind>>,
    /// Positions in the game's notation; `"start"` is the game's initial position.
    pub positions: Option<Spanned<Vec<Spanned<String>>>>,
    /// A file (or a list of files) of positions, one a line (the game's line format; for
    /// Connect Four the benchmark format `moves [score]`), relative to the experiment file.
    /// Blank lines and lines starting with `#` are skipped.
    pub positions_file: Option<Spanned<OneOrMany<String, true>>>,
    /// Seeded random openings from the game's initial position (see `experiment::positions`).
    pub random_openings: Option<Spanned<RandomOpenings>>,
    /// Connect Four: columns (default 7; rows are `height`, default 6).
    pub width: Option<Spanned<IntGrid>>,
    /// Tic-tac-toe value scale(s): `win-loss`, `depth-penalty`.
    pub scale: Option<Spanned<OneOrMany<Named<crate::games::tictactoe::Scale>>>>,
    /// Nim: misère play (taking the last object loses).
    pub misere: Option<Spanned<OneOrMany<bool>>>,
    /// Uniform trees: branching factor(s) b (a number, a list or { from, to }).
    pub branching: Option<Spanned<IntGrid>>,
    /// Uniform trees: height(s) d, the depth of the leaves. Connect Four: rows (default 6).
    pub height: Option<Spanned<IntGrid>>,
    /// Uniform trees: value distribution(s): `distinct`, `continuous`, `integer`.
    pub values: Option<Spanned<OneOrMany<Named<UniformValues>>>>,
    /// Uniform trees: `[lo, hi]`, the inclusive range of `integer` values.
    pub range: Option<Spanned<Vec<i64>>>,
    /// Uniform trees: `independent` or `incremental`.
    pub model: Option<Spanned<OneOrMany<Named<crate::games::uniform::Model>>>>,
    /// Uniform trees: how many trees (the positions of a uniform experiment), default 1.
    pub trees: Option<Spanned<i64>>,
}

/// The name of a uniform-tree value distribution (the range comes from `range`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UniformValues {
    Distinct,
    Continuous,
    Integer,
}

impl UniformValues {
    pub const NAMES: [&'static str; 3] = crate::games::uniform::Values::NAMES;
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "distinct" => Some(Self::Distinct),
            "continuous" => Some(Self::Continuous),
            "integer" => Some(Self::Integer),
            _ => None,
        }
    }
}

/// Whole numbers: one, a list, or a range `{ from = 1, to = 8 }` (inclusive). Bounds are
/// checked by the planner, which knows the key.
#[derive(Clone, Debug, PartialEq)]
pub struct IntGrid {
    /// The numbers in the file's order; of a range too long to list, only its two ends.
    pub values: Vec<i64>,
    /// For a range of more than `MAX_RANGE_VALUES` numbers, why it is refused. No key's
    /// bounds are that wide, so the planner's check of the ends refuses it first, in the
    /// key's words (`height = { from = 1, to = 1000000 }`: height runs from 1 to 64); this
    /// is the message for a key whose check would not.
    pub too_long: Option<String>,
}

/// The most numbers a range of `IntGrid` lists.
const MAX_RANGE_VALUES: i128 = 100_001;

impl IntGrid {
    /// The numbers, once the planner has checked `values` against the key's bounds: an
    /// error for a range too long to list.
    pub fn listed(&self) -> std::result::Result<&[i64], String> {
        match &self.too_long {
            Some(msg) => Err(msg.clone()),
            None => Ok(&self.values),
        }
    }
}

fn int_grid(values: Vec<i64>) -> IntGrid {
    IntGrid {
        values,
        too_long: None,
    }
}

impl<'de> Deserialize<'de> for IntGrid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IntGrid;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number, a list of them, or a range { from = 1, to = 8 }")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<IntGrid, E> {
                Ok(int_grid(vec![v]))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(
                self,
                mut s: A,
            ) -> std::result::Result<IntGrid, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = s.next_element::<i64>()? {
                    out.push(v);
                }
                if out.is_empty() {
                    return Err(de::Error::custom("an empty list gives no runs"));
                }
                if let Some((i, j)) = crate::experiment::oneormany::first_repeat(&out) {
                    return Err(de::Error::custom(format!(
                        "{} ({}); allowed: each value once",
                        crate::experiment::oneormany::repeat_words(i, j),
                        out[j]
                    )));
                }
                Ok(int_grid(out))
            }
            fn visit_map<A: de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<IntGrid, A::Error> {
                let (f, t) = range_bounds(&mut m, "range")?;
                if f > t {
                    Err(de::Error::custom(format!(
                        "the range from {f} to {t} is empty; allowed: from <= to (both ends included)"
                    )))
                } else if t as i128 - f as i128 >= MAX_RANGE_VALUES {
                    Ok(IntGrid {
                        values: vec![f, t],
                        too_long: Some(format!(
                            "the range from {f} to {t} is too long; allowed: at most {MAX_RANGE_VALUES} values"
                        )),
                    })
                } else {
                    Ok(int_grid((f..=t).collect()))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads the table of a range `{ from = A, to = B }` (both required, no other key); `what`
/// names it in messages ("range", "depth range"). Checking the bounds is the caller's.
fn range_bounds<'de, A: de::MapAccess<'de>>(
    m: &mut A,
    what: &str,
) -> std::result::Result<(i64, i64), A::Error> {
    let (mut from, mut to) = (None, None);
    while let Some(k) = m.next_key::<String>()? {
        match k.as_str() {
            "from" => from = Some(m.next_value::<i64>()?),
            "to" => to = Some(m.next_value::<i64>()?),
            _ => {
                return Err(de::Error::custom(format!(
                    "unknown key `{k}` in a {what}; allowed: from, to"
                )))
            }
        }
    }
    match (from, to) {
        (Some(f), Some(t)) => Ok((f, t)),
        _ => Err(de::Error::custom(format!(
            "a {what} needs both `from` and `to`"
        ))),
    }
}

/// `random_openings = { count = 20, plies = 8 }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct RandomOpenings {
    /// How many distinct openings.
    pub count: u32,
    /// Plies played from the initial position.
    pub plies: u32,
}

/// The games an experiment can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Tictactoe,
    Nim,
    Chess,
    Uniform,
    Connect4,
}

impl GameKind {
    pub const ALL: [GameKind; 5] = [
        GameKind::Tictactoe,
        GameKind::Nim,
        GameKind::Chess,
        GameKind::Uniform,
        GameKind::Connect4,
    ];
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Tictactoe => "tictactoe",
            GameKind::Nim => "nim",
            GameKind::Chess => "chess",
            GameKind::Uniform => "uniform",
            GameKind::Connect4 => "connect4",
        }
    }
    /// The `[game]` option keys that apply to this game.
    pub fn option_keys(self) -> &'static [&'static str] {
        match self {
            GameKind::Tictactoe => &["scale"],
            GameKind::Nim => &["misere"],
            GameKind::Chess => &[],
            GameKind::Uniform => &["branching", "height", "values", "range", "model", "trees"],
            GameKind::Connect4 => &["width", "height"],
        }
    }
}

/// `[search]`: the algorithm and its parameters; any key may be a list.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct SearchSection {
    pub algorithm: OneOrMany<Named<Algorithm>>,
    /// Alpha-beta variant(s): `fail-hard`, `fail-soft` (default). Ignored by minimax/negamax.
    pub variant: Option<OneOrMany<Named<Variant>>>,
    /// Depth(s) in plies, or `full`. Required, except when every algorithm is `solve` (which
    /// always searches to the end of the game).
    pub depth: Option<Spanned<DepthSpec>>,
    /// Ordering(s); default `natural`.
    pub ordering: Option<OneOrMany<OrderingSpec>>,
    /// `first` (default) or `random`.
    pub tie_break: Option<OneOrMany<Named<TieBreak>>>,
    /// Repetitions of runs that use randomness (random ordering or tie-break); default 1.
    pub repetitions: Option<Spanned<u32>>,
    /// Budget: the most nodes one search may enter.
    pub max_nodes: Option<Spanned<u64>>,
    /// Budget: the most seconds one search may take.
    pub max_seconds: Option<Spanned<f64>>,
    /// Solver technique set(s), for `algorithm = "solve"` (default `all`).
    pub solver: Option<Spanned<OneOrMany<TechniquesSpec>>>,
    /// Quiescence search at depth 0: `{ enabled = true, checks = false, promotions = true,
    /// delta = 200 }`; each value may be a list (grid). Default: off.
    pub quiescence: Option<Spanned<QuiescenceSection>>,
    /// Iterative deepening (depths 1..d); default false.
    pub iterative: Option<OneOrMany<bool>>,
    /// `[search.tt]`: the transposition table (alpha-beta only).
    pub tt: Option<TtSection>,
    /// Combinations of the grid's values to leave out: `exclude = [{ algorithm = "minimax",
    /// ordering = ["static", "random"] }]` drops every run whose values match all the keys of
    /// one entry (as a CI matrix's `exclude` does).
    pub exclude: Option<Spanned<Vec<Spanned<ExcludeEntry>>>>,
}

/// One entry of `[search] exclude`: values of grid keys, each a value or a list of them. A
/// run matches the entry when each key it names holds the run's value.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct ExcludeEntry {
    pub algorithm: Option<Spanned<OneOrMany<Named<Algorithm>>>>,
    pub variant: Option<Spanned<OneOrMany<Named<Variant>>>>,
    pub depth: Option<Spanned<DepthSpec>>,
    pub ordering: Option<Spanned<OneOrMany<OrderingSpec>>>,
    pub tie_break: Option<Spanned<OneOrMany<Named<TieBreak>>>>,
    pub iterative: Option<Spanned<OneOrMany<bool>>>,
}

impl SearchSection {
    /// Every quiescence setting the `[search] quiescence` table lists (the grid of its lists);
    /// `off` alone when it is absent. Settings with `enabled = false` collapse into one `off`.
    pub fn quiescence_grid(&self) -> Vec<Quiescence> {
        let Some(q) = &self.quiescence else {
            return vec![Quiescence::off()];
        };
        let q = q.get_ref();
        let list = |v: &Option<OneOrMany<bool>>, default: bool| -> Vec<bool> {
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
}

/// `[search.tt]`: the transposition table. Every key but `reference` may be a list (a grid
/// axis). Used by alpha-beta only; other algorithms run without a table.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct TtSection {
    /// Table on or off; default true once the section is present.
    pub enabled: Option<OneOrMany<bool>>,
    /// Size in entries (a power of two); default 65,536 (1 MiB).
    pub entries: Option<Spanned<OneOrMany<u64>>>,
    /// Size in MiB (a power of two); instead of `entries`.
    pub mib: Option<Spanned<OneOrMany<u64>>>,
    /// `always`, `depth` (default), `two-tier`, `bucket`.
    pub replacement: Option<Spanned<OneOrMany<Named<Replacement>>>>,
    /// Key bits the table keeps, 8 to 64 (default 64).
    pub key_bits: Option<Spanned<OneOrMany<u32>>>,
    /// `correct` (default) or `naive-exact`.
    pub bounds: Option<OneOrMany<Named<Bounds>>>,
    /// Also search each position without a table (uncounted) and fill the columns
    /// reference_value, value_wrong, move_wrong; default false.
    pub reference: Option<bool>,
}

/// `[search] quiescence = { ... }`.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct QuiescenceSection {
    pub enabled: OneOrMany<bool>,
    /// Quiet checking moves at the first quiescence ply; default false.
    pub checks: Option<OneOrMany<bool>>,
    /// Queen promotions that capture nothing; default true.
    pub promotions: Option<OneOrMany<bool>>,
    /// Delta-pruning margin (a whole number >= 0) or `"off"`; default off.
    pub delta: Option<OneOrMany<DeltaSpec>>,
}

/// What `delta` allows.
const DELTA_HELP: &str = "a delta-pruning margin: a whole number from 0 to 100000, or \"off\"";

/// A delta-pruning margin, or `off`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeltaSpec(pub Option<i32>);

impl<'de> Deserialize<'de> for DeltaSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = DeltaSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(DELTA_HELP)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<DeltaSpec, E> {
                if (0..=100_000).contains(&v) {
                    Ok(DeltaSpec(Some(v as i32)))
                } else {
                    Err(E::custom(format!(
                        "delta {v} is out of range; allowed: {DELTA_HELP}"
                    )))
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<DeltaSpec, E> {
                if v == "off" {
                    Ok(DeltaSpec(None))
                } else {
                    Err(E::custom(format!("delta `{v}`; allowed: {DELTA_HELP}")))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A solver technique set: `all`, `none` or names joined with `+`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TechniquesSpec(pub crate::search::solver::Techniques);

impl<'de> Deserialize<'de> for TechniquesSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        // A visitor, so that an unknown technique in a list is an error of that item (with
        // its span), not of the whole list.
        struct V;
        impl de::Visitor<'_> for V {
            type Value = TechniquesSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a solver technique set in quotes (`all`, `none`, or names joined with `+`)",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<Self::Value, E> {
                crate::search::solver::Techniques::parse(s)
                    .map(TechniquesSpec)
                    .map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

/// A value named by a string with a fixed set of allowed names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Named<T>(pub T);

/// Types with a fixed set of names, for `Named<T>`.
pub trait NamedValue: Sized {
    const WHAT: &'static str;
    const NAMES: &'static [&'static str];
    fn from_name(s: &str) -> Option<Self>;
}

macro_rules! named {
    ($t:ty, $what:expr) => {
        impl NamedValue for $t {
            const WHAT: &'static str = $what;
            const NAMES: &'static [&'static str] = &<$t>::NAMES;
            fn from_name(s: &str) -> Option<Self> {
                <$t>::parse(s)
            }
        }
    };
}
named!(Algorithm, "algorithm");
named!(Variant, "variant");
named!(TieBreak, "tie_break");
named!(Replacement, "[search.tt] replacement");
named!(Bounds, "[search.tt] bounds");
named!(crate::games::tictactoe::Scale, "scale");
named!(UniformValues, "values");
named!(crate::games::uniform::Model, "model");

impl<'de, T: NamedValue> Deserialize<'de> for Named<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        // A visitor rather than `String::deserialize`, so a value of another type (a number,
        // a boolean) is told the allowed names too, not only "expected a string".
        struct V<T>(std::marker::PhantomData<T>);
        impl<T: NamedValue> de::Visitor<'_> for V<T> {
            type Value = Named<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a name in quotes; allowed: {}", T::NAMES.join(", "))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<Self::Value, E> {
                T::from_name(s).map(Named).ok_or_else(|| {
                    E::custom(format!(
                        "unknown {} `{s}`; allowed: {}",
                        T::WHAT,
                        T::NAMES.join(", ")
                    ))
                })
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

/// One depth: a number of plies, or `full` (to the end of the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Depth {
    Plies(u32),
    Full,
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Plies(d) => write!(f, "{d}"),
            Depth::Full => write!(f, "full"),
        }
    }
}

const DEPTH_HELP: &str =
    "a whole number of plies from 1 to 10000, \"full\", a list of these, or a range { from = 1, to = 9 }";

fn depth_from_i64<E: de::Error>(v: i64) -> std::result::Result<Depth, E> {
    if !(1..=10_000).contains(&v) {
        Err(E::custom(format!(
            "depth {v} is out of range; allowed: {DEPTH_HELP}"
        )))
    } else {
        Ok(Depth::Plies(v as u32))
    }
}

/// `depth`: one depth, a list, or a range.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthSpec(pub Vec<Depth>);

/// One item of a `depth` list: a depth or a range, not a list (`[2, [3]]` would be read as
/// `[2, 3]` and hide a slip).
struct DepthItem(Vec<Depth>);

impl<'de> Deserialize<'de> for DepthItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(DepthVisitor { item: true })
            .map(|s| DepthItem(s.0))
    }
}

impl<'de> Deserialize<'de> for DepthSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(DepthVisitor { item: false })
    }
}

/// `depth`'s visitor; `item`: inside a list, where a list is refused.
struct DepthVisitor {
    item: bool,
}

impl<'de> Visitor<'de> for DepthVisitor {
    type Value = DepthSpec;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(DEPTH_HELP)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<DepthSpec, E> {
        Ok(DepthSpec(vec![depth_from_i64(v)?]))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<DepthSpec, E> {
        if v == "full" {
            Ok(DepthSpec(vec![Depth::Full]))
        } else {
            Err(E::custom(format!("depth `{v}`; allowed: {DEPTH_HELP}")))
        }
    }
    fn visit_seq<A: de::SeqAccess<'de>>(
        self,
        mut s: A,
    ) -> std::result::Result<DepthSpec, A::Error> {
        if self.item {
            return Err(de::Error::custom(format!(
                "a list inside the depth list; allowed: {DEPTH_HELP} (a list is one list deep)"
            )));
        }
        // Each depth, and the list item (from 0) it came from: a range gives several.
        let mut out = Vec::new();
        let mut item_of = Vec::new();
        let mut item = 0;
        while let Some(one) = s.next_element::<DepthItem>()? {
            item_of.extend(std::iter::repeat_n(item, one.0.len()));
            out.extend(one.0);
            item += 1;
        }
        if out.is_empty() {
            return Err(de::Error::custom("an empty depth list gives no runs"));
        }
        if let Some((i, j)) = crate::experiment::oneormany::first_repeat(&out) {
            let d = match out[j] {
                Depth::Plies(p) => p.to_string(),
                Depth::Full => "\"full\"".to_string(),
            };
            return Err(de::Error::custom(format!(
                "item {} of the list repeats depth {d} of item {} (a range counts each of its depths); allowed: each depth once",
                item_of[j] + 1,
                item_of[i] + 1
            )));
        }
        Ok(DepthSpec(out))
    }
    fn visit_map<A: de::MapAccess<'de>>(
        self,
        mut m: A,
    ) -> std::result::Result<DepthSpec, A::Error> {
        let (from, to) = range_bounds(&mut m, "depth range")?;
        depth_from_i64::<A::Error>(from)?;
        depth_from_i64::<A::Error>(to)?;
        if from > to {
            return Err(de::Error::custom(format!(
                "depth range from {from} to {to} is empty; allowed: from <= to, e.g. {{ from = {to}, to = {from} }} (both ends included)"
            )));
        }
        Ok(DepthSpec(
            (from..=to).map(|d| Depth::Plies(d as u32)).collect(),
        ))
    }
}

/// An ordering: a string such as `static` or `static+random`, or a list of terms.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderingSpec(pub Ordering);

impl<'de> Deserialize<'de> for OrderingSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OrderingSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "an ordering: {}", crate::search::ordering::ORDERING_HELP)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<OrderingSpec, E> {
                Ordering::parse(v).map(OrderingSpec).map_err(E::custom)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(
                self,
                s: A,
            ) -> std::result::Result<OrderingSpec, A::Error> {
                let parts: Vec<String> = from_seq(s)?;
                Ordering::parse(&parts.join("+"))
                    .map(OrderingSpec)
                    .map_err(de::Error::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// Line and column (1-based) of a byte offset. The column counts characters, as an editor
/// shows it, not bytes: `é` before a key is one column, not two.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(src.len());
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    let before = &src[..end];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// An input error at a span of the file.
pub fn at(path: &Path, src: &str, span: std::ops::Range<usize>, msg: impl fmt::Display) -> Error {
    let (l, c) = line_col(src, span.start);
    Error::input(format!("{}:{l}:{c}: {msg}", path.display()))
}

/// The span of item `i` (from 0) of the list the file writes at `span`, so that an error
/// about one value of `entries = [1024, 1000]` points at `1000`. Of a range
/// `{ from = A, to = B }`, item 0 is at `A` and any later one at `B` (the range reaches a
/// bad number only past a good `from` by going too far). `span` itself when the value
/// there is one value, or has no item `i`.
pub fn item_span(src: &str, span: std::ops::Range<usize>, i: usize) -> std::ops::Range<usize> {
    part_span(src, span, Part::Item(i))
}

/// The span of the value of `key` in the inline table the file writes at `span`
/// (`random_openings = { count = 0, plies = 2 }`: at `0` for `count`); `span` itself when
/// the value there is no such table.
pub fn field_span(src: &str, span: std::ops::Range<usize>, key: &str) -> std::ops::Range<usize> {
    part_span(src, span, Part::Field(key))
}

/// A part of a value: an item of a list (of a range: `from` for item 0, else `to`), or the
/// value of a key of an inline table.
enum Part<'a> {
    Item(usize),
    Field(&'a str),
}

fn part_span(src: &str, span: std::ops::Range<usize>, part: Part) -> std::ops::Range<usize> {
    // The value alone, read as the file's only key: its parts' spans less the 4 bytes of
    // `v = ` are their places in `src`.
    let find = || {
        let text = format!("v = {}", src.get(span.clone())?);
        let doc = toml_edit::ImDocument::parse(text).ok()?;
        let v = doc.get("v")?.as_value()?;
        let s = match (part, v.as_array(), v.as_inline_table()) {
            (Part::Item(i), Some(list), _) => list.get(i)?.span()?,
            (Part::Item(i), _, Some(range)) => {
                range.get(if i == 0 { "from" } else { "to" })?.span()?
            }
            (Part::Field(key), _, Some(table)) => table.get(key)?.span()?,
            _ => return None,
        };
        Some(s.start - 4 + span.start..s.end - 4 + span.start)
    };
    find().unwrap_or(span)
}

/// `item_span` for serde's messages that name an item by its place ("item 2 of the list
/// repeats item 1", `oneormany::repeat_words`), whose span serde gives as the whole list's.
fn named_item_span(src: &str, span: std::ops::Range<usize>, msg: &str) -> std::ops::Range<usize> {
    // A key given twice inside an inline table: TOML reports it at the table's `{`.
    if let Some((before, _)) = msg.split_once("` is given twice in its table") {
        let name = before.rsplit('`').next().unwrap_or("");
        if let Some(at) = second_inline_key(src, span.start, name) {
            return at..at + name.len();
        }
    }
    // A depth out of range at a range's bound (`{ from = 0, to = 3 }`, also as a list item):
    // at that bound.
    if let Some(v) = msg
        .split_once("depth ")
        .and_then(|(_, rest)| rest.split_once(" is out of range"))
        .and_then(|(v, _)| v.parse::<i64>().ok())
    {
        if let Some(at) = range_bound_span(src, span.clone(), v) {
            return at;
        }
    }
    let n = msg
        .find("item ")
        .and_then(|at| msg[at + 5..].split(' ').next())
        .filter(|_| msg.contains(" of the list "))
        .and_then(|n| n.parse::<usize>().ok());
    match n {
        Some(n) if n >= 1 => item_span(src, span, n - 1),
        _ => span,
    }
}

/// The span of the first range bound (`from` or `to` of a `{ from = A, to = B }` the file
/// writes at `span`, or of one inside the list there) whose value is `v`.
fn range_bound_span(
    src: &str,
    span: std::ops::Range<usize>,
    v: i64,
) -> Option<std::ops::Range<usize>> {
    let text = format!("v = {}", src.get(span.clone())?);
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let value = doc.get("v")?.as_value()?;
    let tables: Vec<&toml_edit::InlineTable> = match value.as_array() {
        Some(list) => list.iter().filter_map(|i| i.as_inline_table()).collect(),
        None => value.as_inline_table().into_iter().collect(),
    };
    let bound = tables
        .iter()
        .flat_map(|t| ["from", "to"].into_iter().filter_map(|k| t.get(k)))
        .find(|b| b.as_integer() == Some(v))?;
    let s = bound.span()?;
    Some(s.start - 4 + span.start..s.end - 4 + span.start)
}

/// Byte offset in `src` of the second time the inline table opening at `open` (its `{`, or
/// just after it: where TOML reports a key given twice) writes the key `name` (bare or
/// quoted), among its own keys: not those of tables or lists inside it, nor text in quotes.
/// `None` when no `{` opens there or the key is not there twice.
fn second_inline_key(src: &str, open: usize, name: &str) -> Option<usize> {
    let before = src.get(..open)?;
    let open = match before.trim_end_matches([' ', '\t']).strip_suffix('{') {
        Some(b) if !src.get(open..)?.starts_with('{') => b.len(),
        _ => open,
    };
    let text = src.get(open..)?;
    if !text.starts_with('{') {
        return None;
    }
    let mut depth = 0usize;
    let mut quote = None;
    // Where the current key of the table's own level starts (after `{` or `,`).
    let mut key_from = None;
    let mut seen = 0;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '{' | '[' => {
                depth += 1;
                if depth == 1 {
                    key_from = Some(i + 1);
                }
            }
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return None;
                }
            }
            ',' if depth == 1 => key_from = Some(i + 1),
            '=' if depth == 1 => {
                if let Some(from) = key_from.take() {
                    let raw = &text[from..i];
                    let key = raw.trim().trim_matches(['"', '\'']);
                    if key == name {
                        seen += 1;
                        if seen == 2 {
                            return Some(open + from + raw.len() - raw.trim_start().len());
                        }
                    }
                }
            }
            '"' | '\'' if key_from.is_none() || depth > 1 => quote = Some(c),
            '\n' => return None,
            _ => {}
        }
    }
    None
}

/// Byte offset in `src` of the first line (its text after the indentation) that `pred`
/// accepts.
fn find_line(src: &str, pred: &dyn Fn(&str) -> bool) -> Option<usize> {
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        let t = line.trim_start();
        if pred(t) {
            return Some(offset + line.len() - t.len());
        }
        offset += line.len();
    }
    None
}

/// Byte offset in `src` of the key at `path` (`["search", "ordering"]`) as the file writes it:
/// in a `[table]` header or a dotted key, quoted or bare, inside an inline table. When the
/// file leaves the key out, the deepest table on the path it does write (a missing `depth`
/// is placed at `[search]`); `None` when it writes none of them. Read from the parsed file,
/// so a `description` line that starts like a key, or a key inside `{ ... }`, is no match.
pub fn locate(src: &str, path: &[&str]) -> Option<usize> {
    walk(src, path).map(|(at, _)| at)
}

/// Byte offset of the key at `path` when the file writes it (not one of its tables).
pub fn locate_exact(src: &str, path: &[&str]) -> Option<usize> {
    walk(src, path).and_then(|(at, whole)| whole.then_some(at))
}

/// Byte offset of the value of the key at `path` when the file writes it (`"x"` of
/// `titles = { ebf = "x" }`), for an error about what the value says.
pub fn locate_value(src: &str, path: &[&str]) -> Option<usize> {
    let doc = toml_edit::ImDocument::parse(src).ok()?;
    let (last, tables) = path.split_last()?;
    let mut table: &dyn toml_edit::TableLike = doc.as_table();
    for part in tables {
        table = table.get(part)?.as_table_like()?;
    }
    table.get(last)?.as_value()?.span().map(|s| s.start)
}

/// `locate`'s walk: the offset of the deepest key on `path` the file writes, and whether that
/// is the whole path.
fn walk(src: &str, path: &[&str]) -> Option<(usize, bool)> {
    let doc = toml_edit::ImDocument::parse(src).ok()?;
    let mut table: &dyn toml_edit::TableLike = doc.as_table();
    let mut found = None;
    for (i, part) in path.iter().enumerate() {
        let Some((key, item)) = table.get_key_value(part) else {
            break;
        };
        // A `[table]` header is placed at its `[`; any other key at its first character.
        let header = item
            .as_table()
            .filter(|t| !t.is_implicit() && !t.is_dotted());
        let span = header
            .and_then(|t| t.span())
            .or_else(|| key.span())
            .or_else(|| item.span());
        if let Some(at) = span.map(|s| s.start) {
            found = Some((at, i + 1 == path.len()));
        }
        match item.as_table_like() {
            Some(t) => table = t,
            None => break,
        }
    }
    found
}

/// Byte offset of the element of `[search] ordering` that reads as `ordering` (a name, or a
/// list of terms, each read as the file's own ordering is); else where `locate` places
/// `ordering`.
pub fn ordering_at(src: &str, ordering: &Ordering) -> Option<usize> {
    #[derive(Deserialize)]
    struct One {
        v: OrderingSpec,
    }
    let reads_as = |text: &str| {
        toml::from_str::<One>(&format!("v = {text}")).is_ok_and(|o| o.v.0 == *ordering)
    };
    let element = || -> Option<usize> {
        let doc = toml_edit::ImDocument::parse(src).ok()?;
        let value = doc
            .get("search")?
            .as_table_like()?
            .get("ordering")?
            .as_value()?;
        let one = [value];
        let elements: Vec<&toml_edit::Value> = match value.as_array() {
            Some(a) => a.iter().collect(),
            None => one.to_vec(),
        };
        elements
            .into_iter()
            .filter_map(|v| v.span())
            .find(|s| reads_as(&src[s.clone()]))
            .map(|s| s.start)
    };
    element().or_else(|| locate(src, &["search", "ordering"]))
}

/// An input error at the key `path` (`locate`).
pub fn at_key(path: &Path, src: &str, key: &[&str], msg: impl fmt::Display) -> Error {
    let pos = locate(src, key).unwrap_or(0);
    at(path, src, pos..pos, msg)
}

/// The largest input text file the harness reads (experiment files, position files).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads a text file of at most `MAX_INPUT_BYTES` (a device like /dev/zero or a huge file
/// is refused rather than read without end).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    // Opening a pipe waits for a writer (for ever, when there is none): a pipe is opened
    // without waiting and read as it comes (`harness run /dev/stdin`, `<(...)`); with no
    // writer it reads as empty. A socket is no file to read.
    let meta = std::fs::metadata(path).ok();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if let Some(m) = &meta {
            if m.file_type().is_socket() {
                return Err(std::io::Error::other(
                    "it is a socket, not a file; allowed: a text file",
                ));
            }
            if m.file_type().is_fifo() {
                return decode(&read_pipe(path)?);
            }
        }
    }
    // A folder opens on Unix and fails only at the read, as "Is a directory (os error 21)".
    if meta.is_some_and(|m| m.is_dir()) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "a folder, not a file; allowed: a text file",
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)?;
    decode(&bytes)
}

/// A named pipe's bytes, up to one past `MAX_INPUT_BYTES`: opened without waiting for a
/// writer, then read until the writers close it (none: at once).
#[cfg(unix)]
fn read_pipe(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let mut bytes = Vec::new();
    let mut buf = [0u8; 1 << 16];
    while bytes.len() as u64 <= MAX_INPUT_BYTES {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            // A writer that has not written yet.
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(std::time::Duration::from_millis(5))
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(bytes)
}

/// Text of at most `MAX_INPUT_BYTES` from a file's bytes: UTF-8, a byte-order mark dropped.
fn decode(bytes: &[u8]) -> std::io::Result<String> {
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB, the most the harness reads",
            MAX_INPUT_BYTES >> 20
        )));
    }
    // A byte-order mark, which some Windows editors write first, is no part of the text.
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let body = &bytes[bom..];
    match std::str::from_utf8(body) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            let line = body[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Err(std::io::Error::other(format!(
                "line {line} is not UTF-8 text (byte 0x{:02X} at offset {}); save the file as UTF-8",
                body[at],
                bom + at
            )))
        }
    }
}

/// Reads and parses an experiment file.
pub fn load(path: &Path) -> Result<(ExperimentFile, String)> {
    let src = read_text(path).map_err(|e| {
        // A folder is the likeliest slip (a results folder given where the experiment file
        // goes, as `verify FILE [DIR]` takes both): say which argument it belongs to.
        // The other errors (too large, not UTF-8, a socket) say what is allowed themselves.
        let allowed = match e.kind() {
            std::io::ErrorKind::IsADirectory => "a folder, not a file; allowed: an experiment's TOML file (e.g. experiments/tictactoe.toml); a results folder goes after it, as in `harness verify FILE DIR`, or to `harness plot DIR`".to_string(),
            std::io::ErrorKind::NotFound => format!("{e}; allowed: the path of an experiment's TOML file (e.g. experiments/tictactoe.toml)"),
            _ => e.to_string(),
        };
        Error::input(format!(
            "{}: cannot read the experiment file: {allowed}",
            path.display()
        ))
    })?;
    let file = parse(path, &src)?;
    Ok((file, src))
}

/// Parses an experiment file's text.
pub fn parse(path: &Path, src: &str) -> Result<ExperimentFile> {
    toml::from_str::<ExperimentFile>(src).map_err(|e| {
        // No section of an experiment is an array of tables. serde would read `[[game]]` as
        // the table's fields in order and complain about a variant named `kind`: say what the
        // file means instead.
        // (But [[search.exclude]]: `exclude` is a list of tables.)
        let table_array = |l: &str| {
            let l = l.split('#').next().unwrap_or("").trim_end();
            l.strip_prefix("[[")
                .and_then(|r| r.strip_suffix("]]"))
                .is_some_and(|name| {
                    !name.trim().is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "_-. ".contains(c))
                        && name.split('.').map(str::trim).collect::<Vec<_>>()
                            != ["search", "exclude"]
                })
        };
        if let Some(pos) = find_line(src, &table_array) {
            let header = src[pos..].lines().next().unwrap_or("").trim();
            let name = header.trim_start_matches('[').split(']').next().unwrap_or("").trim();
            return at(
                path,
                src,
                pos..pos,
                format!(
                    "`{header}` is an array of tables; an experiment has one [{name}] table: write [{name}], and list a grid's values inside it (e.g. kind = [\"tictactoe\", \"nim\"] in [game], ordering = [\"natural\", \"static\"] in [search])"
                ),
            );
        }
        let msg = e
            .message()
            .trim()
            .lines()
            .map(str::trim)
            .collect::<Vec<_>>()
            .join("; ");
        let msg = plain_words(&msg);
        if let Some(err) = e
            .span()
            .and_then(|span| datetime_error(path, src, span.start, &msg))
        {
            return err;
        }
        if let Some(err) = e.span().and_then(|span| titles_error(path, src, span, &msg)) {
            return err;
        }
        if let Some(err) = e.span().and_then(|span| dotted_key_error(path, src, span, &msg)) {
            return err;
        }
        if let Some(err) = e.span().and_then(|span| header_table_error(path, src, span, &msg)) {
            return err;
        }
        match e.span() {
            Some(span) => {
                // Name the key when the message does not: the text before `=` on the line
                // where the offending value starts.
                let key = key_at(src, span.start);
                let msg = syntax_hint(src, span.clone(), &msg, key.as_deref()).unwrap_or(msg);
                // `plain_words`'s hint of where an unknown key belongs, taken back where it
                // would mislead: at an unknown table header ([game.x]: no section's key of that
                // name is a table), inside an inline table (`tt = { x = 1 }`), or among the
                // keys of a table that is one (`random_openings`, `quiescence`, also written as
                // a section): their keys are their own, and `x` there is no [report] `x`.
                let line_start = src[..span.start].rfind('\n').map_or(0, |i| i + 1);
                let line = src[line_start..].lines().next().unwrap_or("");
                let named = expected_names(e.message());
                let inline_keys = || {
                    SECTIONS
                        .iter()
                        .any(|(section, name)| name.ends_with("{ ... }") && keys_of(section) == named)
                };
                let msg = match msg.find("` belongs in ") {
                    Some(at)
                        if line.trim_start().starts_with('[')
                            || line.contains('{')
                            || inline_keys() =>
                    {
                        msg[..msg[..at].rfind("; `").unwrap_or(at)].to_string()
                    }
                    _ => msg,
                };
                // A number past the key's type: the file's words for it, and which way.
                let past = [(TOO_LARGE, "large"), (TOO_SMALL, "small")]
                    .into_iter()
                    .find(|(words, _)| msg.contains(words));
                if past.is_some() && key.as_deref().and_then(allowed_number).is_none() {
                    if let Some(m) = too_large_in_words(path, src, span.start) {
                        let m = match &key {
                            Some(k) if !m.contains(k.split('.').next().unwrap_or(k)) => {
                                format!("`{k}`: {m}")
                            }
                            _ => m,
                        };
                        return at(path, src, span, m);
                    }
                }
                // `kind` read as something else than a name: serde speaks of an enum, a map or
                // "string or table".
                let msg = if key.as_deref() == Some("kind")
                    && [
                        "expected enum",
                        "invalid type: map",
                        "wanted string or table",
                        "wanted exactly 1 element",
                    ]
                        .iter()
                        .any(|w| msg.contains(w))
                {
                    format!("`kind` takes a game name in quotes, or a list of them; allowed: {GAME_KINDS}")
                } else if msg == "wanted string or table" {
                    // A name from a fixed list (an enum), given as a number or a boolean.
                    match allowed_names(src, span.clone(), false) {
                        Some(allowed) => format!("takes a name in quotes; allowed: {allowed}"),
                        None => msg,
                    }
                } else if key.as_deref() == Some("ordering") && msg.ends_with("expected a string")
                {
                    // Inside an ordering's list of terms (one list deep: ["tt", "static"] is
                    // tt+static), something other than a name.
                    format!(
                        "{msg}: each term of an ordering is a name in quotes, and a list of terms is one list deep; allowed: {}",
                        crate::search::ordering::ORDERING_HELP
                    )
                } else if msg.ends_with("expected a sequence") {
                    // A list of such names (`theory`, `charts`), given as one value.
                    match allowed_names(src, span.clone(), true) {
                        Some(allowed) => format!("{msg}: a list of names in quotes; allowed: {allowed}"),
                        None => msg,
                    }
                } else {
                    msg
                };
                let allowed = key.as_deref().and_then(allowed_number);
                // serde's range for an unsigned key starts at 0 and has no top; say the key's.
                let msg = match &allowed {
                    Some(allowed) => {
                        msg.replace(", expected a whole number >= 0", &format!("; allowed: {allowed}"))
                    }
                    None => msg,
                };
                // A number past what TOML or the key holds, or a list where one value goes:
                // say what the key allows (the key's last part, for a dotted key).
                let leaf = key.as_deref().map(last_part);
                let msg = match (allowed, past) {
                    (Some(allowed), Some((words, way))) => {
                        msg.replace(words, &format!("number too {way}; allowed: {allowed}"))
                    }
                    (Some(allowed), None)
                        if msg.starts_with("invalid type: sequence")
                            && leaf.is_some_and(|k| ONE_VALUE.contains(&k)) =>
                    {
                        format!("a list where one value goes; allowed: {allowed}")
                    }
                    _ => msg,
                };
                // [report]'s column lists make no runs: an empty one names no column.
                let msg = if matches!(leaf, Some("series" | "facet" | "pool"))
                    && msg == "an empty list gives no runs"
                {
                    "an empty list names no column; allowed: a column name or a list of them, or leave the key out".to_string()
                } else {
                    msg
                };
                let msg = if msg.starts_with("invalid type:") {
                    let msg = short_floats(&msg);
                    if msg.contains("allowed") {
                        msg
                    } else {
                        format!("{msg}{}", type_hint(&msg, leaf))
                    }
                } else {
                    msg
                };
                let msg = match key {
                    Some(ref key) if !msg.contains(&format!("`{key}`")) => format!("`{key}`: {msg}"),
                    _ => msg,
                };
                // A list (of tables or booleans) for quiescence: serde reads it as the table's
                // fields in order. The grid goes inside one table.
                let msg = if key.as_deref() == Some("quiescence") && !msg.contains("unknown key") {
                    format!("{msg}; quiescence is one table whose values may be lists, e.g. {{ enabled = true, checks = [false, true] }}")
                } else {
                    msg
                };
                // An error about one item of a list: at that item.
                let span = named_item_span(src, span, &msg);
                at(path, src, span, msg)
            }
            None => Error::input(format!("{}: {msg}", path.display())),
        }
    })
}

/// What is allowed, for serde's "invalid type: …, expected …" that no key-specific rewrite
/// has explained: how a value of the expected kind is written (`leaf`: the key's last part).
fn type_hint(msg: &str, leaf: Option<&str>) -> String {
    let expected = msg.rsplit(", expected ").next().unwrap_or("");
    match expected {
        "a boolean" => "; allowed: true or false, without quotes".to_string(),
        EXCLUDE_ENTRY => "; allowed: a list of tables in braces, e.g. exclude = [{ algorithm = \"minimax\", ordering = [\"static\", \"random\"] }]".to_string(),
        "a map" => format!(
            "; allowed: a table in braces, e.g. {}",
            match leaf {
                Some("labels") => "labels = { natural = \"plain order\" }",
                Some("titles") => "titles = { nodes = \"Nodes by depth\" }",
                _ => "{ key = value, ... }",
            }
        ),
        "a sequence" => format!(
            "; allowed: a list in brackets, e.g. {}",
            match leaf {
                Some("positions") => "positions = [\"4,0\", \"start\"]",
                Some("range") => "range = [-100, 100] (lo, hi)",
                Some(k) => return format!("; allowed: a list in brackets, `{k} = [...]`"),
                None => "[1, 2]",
            }
        ),
        // `labels = { a.b = "x" }`: TOML reads the dotted key as a table inside the map.
        "a string" if msg.starts_with("invalid type: map") && leaf == Some("labels") => {
            "; a dotted key makes a table inside the map: a key that holds a dot goes in quotes, e.g. labels = { \"strong:0.5:0.5\" = \"half\" }, and each value is text in quotes".to_string()
        }
        "a string" if msg.starts_with("invalid type: map") && leaf == Some("titles") => {
            "; a dotted key makes a table inside the map; allowed: chart names, each with its title in quotes, e.g. titles = { nodes = \"Nodes by depth\" }".to_string()
        }
        // Where serde's "expected" already says what the key allows, it is not said twice.
        _ => leaf
            .and_then(allowed_number)
            .map(allowed_tail)
            .filter(|tail| tail.strip_prefix("; allowed: ") != Some(expected))
            .unwrap_or_default(),
    }
}

/// serde writes a float in every digit (`1e308` as 309 of them): a long one, as `1e308`.
fn short_floats(msg: &str) -> String {
    const AT: &str = "floating point `";
    let Some(start) = msg.find(AT).map(|i| i + AT.len()) else {
        return msg.to_string();
    };
    let Some(len) = msg[start..].find('`') else {
        return msg.to_string();
    };
    let digits = &msg[start..start + len];
    match digits.parse::<f64>() {
        Ok(v) if digits.len() > 24 => format!("{}{v:e}{}", &msg[..start], &msg[start + len..]),
        _ => msg.to_string(),
    }
}

/// For a number past its key's type at `pos` (too large, or too small when negative), whose
/// range depends on the game (a uniform tree's branching, a board's width, a depth range):
/// the message the key's own check gives for the extreme number of each integer type there,
/// tried from the widest type, with the file's number in its place. Other numbers past every
/// type in the file get the widest stand-in too, so that they do not stop the check. `None`
/// when no stand-in gets a message on the number's line.
fn too_large_in_words(path: &Path, src: &str, pos: usize) -> Option<String> {
    let number = number_at(src, pos)?;
    let negative = number.starts_with('-');
    let stand_ins: Vec<String> = if negative {
        vec![i64::MIN.to_string(), i32::MIN.to_string(), (-1).to_string()]
    } else {
        [
            i64::MAX as u64,
            u32::MAX as u64,
            i32::MAX as u64,
            u16::MAX as u64,
            u8::MAX as u64,
        ]
        .map(|v| v.to_string())
        .to_vec()
    };
    // A message on the number's line (at the number, or at its key for a list or range).
    let (l, _) = line_col(src, pos);
    let here = format!("{}:{l}:", path.display());
    stand_ins.iter().find_map(|stand_in| {
        let mut text = replace_at(src, pos, number, stand_in);
        // The other numbers given stand-ins, as (stand-in, the file's number).
        let mut others: Vec<(String, String)> = Vec::new();
        // The reader's message (a range's length, say), else the planner's.
        let msg = loop {
            match toml::from_str::<ExperimentFile>(&text) {
                Err(e) => {
                    let at = e.span()?.start;
                    let m = e.message().trim();
                    let past = m == TOO_LARGE_RAW || m == TOO_SMALL_RAW;
                    if line_col(&text, at).0 == l && !(past && at != pos) {
                        break m.to_string();
                    }
                    // Another number past every type, elsewhere: a wide stand-in there, one
                    // of its own, so that a message naming it can name the file's number.
                    let other = number_at(&text, at)?.to_string();
                    let k = others.len() as i64 + 1;
                    let wide = match m {
                        TOO_LARGE_RAW => (i64::MAX - k).to_string(),
                        TOO_SMALL_RAW => (i64::MIN + k).to_string(),
                        _ => return None,
                    };
                    if others.len() >= 16 {
                        return None;
                    }
                    text = replace_at(&text, at, &other, &wide);
                    others.push((wide, other));
                }
                Ok(file) => {
                    let e = super::plan::build(path, &text, &file).err()?.to_string();
                    break e.strip_prefix(&here)?.split_once(": ")?.1.to_string();
                }
            }
        };
        let past = msg.contains(TOO_LARGE_RAW) || msg.contains(TOO_SMALL_RAW);
        (!past).then(|| {
            others.iter().fold(
                msg.replace(stand_in.as_str(), number),
                |m, (wide, other)| m.replace(wide.as_str(), other),
            )
        })
    })
}

/// The whole number written at `pos` of `src` (digits, signs, underscores), if any.
fn number_at(src: &str, pos: usize) -> Option<&str> {
    let rest = src.get(pos..)?;
    let len = rest
        .find(|c: char| !(c.is_ascii_digit() || "+-_".contains(c)))
        .unwrap_or(rest.len());
    (len > 0).then(|| &rest[..len])
}

/// `src` with `old` (which starts at `pos`) replaced by `new`.
fn replace_at(src: &str, pos: usize, old: &str, new: &str) -> String {
    format!("{}{new}{}", &src[..pos], &src[pos + old.len()..])
}

/// What is allowed, for the TOML parser's own messages (which say what it expected, in
/// grammar terms): a character no bare key holds, a space inside a key, a name without
/// quotes, a number past f64, lists nested past the parser's limit. `None`: no hint.
fn syntax_hint(
    src: &str,
    span: std::ops::Range<usize>,
    msg: &str,
    key: Option<&str>,
) -> Option<String> {
    let line_start = src[..span.start.min(src.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let rest = src.get(span.start..)?;
    // The word at the span: up to a space, a separator or the line's end.
    let word_len = rest
        .find(|c: char| c.is_whitespace() || ",]}=#".contains(c))
        .unwrap_or(rest.len());
    let word = &rest[..word_len];
    let shown = |t: &str| crate::games::shown(t.trim_matches([' ', '\t'])).into_owned();
    let first = rest.chars().next();
    // A carriage return not before a line feed: TOML's reader gives no words for it.
    if msg.is_empty() {
        return Some(match first {
            Some('\r') => "a carriage return (`\\r`) not followed by a line feed; allowed: lines that end in a line feed (LF) or CR LF".to_string(),
            Some(c) => format!("`{}` is not allowed here", shown(&c.to_string())),
            None => "the file ends where TOML expects more".to_string(),
        });
    }
    if msg == "invalid key" {
        let what = match first {
            Some(c) if c.is_control() || crate::games::invisible(c) => format!(
                ": `{}` (U+{:04X}) is no key character",
                shown(&c.to_string()),
                c as u32
            ),
            _ if !word.is_empty() => format!(" `{}`", shown(word)),
            _ => String::new(),
        };
        return Some(format!(
            "{msg}{what}; allowed: a line holds `key = value`, a [section] header or a # comment, a bare key being ASCII letters, digits, `_` and `-` (other text goes in quotes)"
        ));
    }
    if msg == "expected `.`, `=`" {
        // In a key: the key so far is the line's text before the span.
        // (After the last `{` or `,`: a key inside an inline table.)
        let before = src[line_start..span.start]
            .rsplit(['{', ','])
            .next()
            .unwrap_or("")
            .trim_start();
        let c = rest.chars().next().unwrap_or('\n');
        return Some(
            if before.ends_with([' ', '\t']) || c.is_whitespace() || c == '#' {
                // A space or the line's end ended the key, and no `=` came.
                let found = match rest.lines().next().unwrap_or("").split_whitespace().next() {
                    Some(next) => format!("found `{}`", shown(next)),
                    None => "found the line's end".to_string(),
                };
                format!(
                "`{}` must be followed by `=` ({found}); allowed: key = value, a key without spaces",
                shown(before)
            )
            } else {
                let key_end = rest
                    .find(|c: char| c.is_whitespace() || c == '=')
                    .unwrap_or(rest.len());
                format!(
                "`{}{}`: a key cannot hold `{}`; allowed in a key: ASCII letters, digits, `_` and `-` (the README lists every key)",
                shown(before),
                shown(&rest[..key_end]),
                shown(&c.to_string())
            )
            },
        );
    }
    let bare_word = word.starts_with(|c: char| c.is_alphabetic());
    if (msg.starts_with("invalid string; expected `\"`, `'`") && !word.is_empty())
        || (msg == "invalid array; expected `]`" && bare_word)
    {
        // A name or text without its quotes.
        let quoted = format!("\"{}\"", word.trim_matches(|c| c == '"' || c == '\''));
        let allowed = allowed_names(src, span.start..span.start + word_len, false)
            .map_or(String::new(), allowed_tail);
        return Some(format!(
            "`{}` is no TOML value: a name or text goes in quotes ({quoted}){allowed}",
            shown(word)
        ));
    }
    if msg == "invalid floating-point number" {
        let number: String = word.chars().filter(|&c| c != '_').collect();
        if number.parse::<f64>().is_ok_and(|v| v.is_infinite()) {
            let allowed = key
                .and_then(allowed_number)
                .unwrap_or_else(|| "a finite number, where the key takes a number".to_string());
            return Some(format!(
                "`{}` is past the largest number a float holds (about 1.8e308); allowed: {allowed}",
                shown(word)
            ));
        }
    }
    // TOML reads `007` as the number 0 with `07` after it: a leading zero (or `_` after a
    // lone 0), which TOML numbers do not take, not text after a value.
    let zero_at = span
        .start
        .checked_sub(1)
        .filter(|&z| src.as_bytes()[z] == b'0');
    let number_shaped = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || "_.eE+-".contains(c));
    if let Some(z) = zero_at
        .filter(|_| number_shaped && rest.starts_with(|c: char| c.is_ascii_digit() || c == '_'))
    {
        let starts = src[..z]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'));
        if starts {
            let number = &src[z..span.start + word_len];
            let digits = number.trim_start_matches(['0', '_']);
            let plain = match digits.chars().next() {
                Some(c) if c.is_ascii_digit() => digits.to_string(),
                _ => format!("0{digits}"),
            };
            let allowed = key
                .and_then(allowed_number)
                .map_or(String::new(), allowed_tail);
            return Some(format!(
                "`{}`: TOML numbers take no leading zero (write `{plain}`){allowed}",
                shown(number)
            ));
        }
    }
    if msg == "expected newline, `#`" {
        // (Trimmed of plain spaces only: a no-break space is what is to be shown.)
        let extra = rest.lines().next().unwrap_or("").trim_matches([' ', '\t']);
        return Some(format!(
            "`{}` after the value; allowed after a value: a comment (# ...) or the line's end, one key = value per line",
            shown(extra)
        ));
    }
    if (msg == "invalid basic string" || msg == "invalid literal string")
        && rest.lines().next().unwrap_or("").trim().is_empty()
    {
        return Some(format!(
            "{msg}: the text is not closed on its line; allowed: text between two `\"` (or two `'`) on one line, or between `\"\"\"` for text over several lines"
        ));
    }
    if let Some(c) = rest.chars().next().filter(|c| c.is_control()) {
        if msg == "invalid basic string" || msg == "invalid literal string" {
            return Some(format!(
                "{msg}: it holds the control character U+{:04X}, which TOML text cannot hold as it is; allowed: printable text, or an escape in \"...\" such as \\t or \\u{:04X}",
                c as u32, c as u32
            ));
        }
    }
    // TOML 1.0 keeps an inline table on one line: a line break inside one reads as a
    // missing `}`.
    if msg == "invalid inline table; expected `}`" {
        let line = rest
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches([',', ' ', '\t']);
        if line.trim().is_empty() || line.starts_with('#') {
            return Some(format!(
                "{msg}: an inline table `{{ ... }}` closes on the line it opens (TOML 1.0); allowed: all its keys on one line, or a section of its own such as [search.tt] with a key per line"
            ));
        }
    }
    if let Some(dup) = msg.strip_prefix("duplicate key `") {
        let name = dup.split('`').next().unwrap_or("");
        return Some(format!(
            "`{name}` is given twice in its table; allowed: each key or section once (a grid is one key with a list of values)"
        ));
    }
    if msg.starts_with("invalid table header; duplicate key `") {
        // The header as written on its line (`[search.tt]`), the key the table's last part.
        let header = src[line_start..]
            .lines()
            .next()
            .unwrap_or("")
            .split('#')
            .next()
            .unwrap_or("")
            .trim();
        let last = header
            .trim_matches(['[', ']'])
            .rsplit('.')
            .next()
            .unwrap_or("")
            .trim();
        // `[[search.exclude]]` (a list of tables, which may repeat) after `exclude = [...]`.
        if header.starts_with("[[") {
            return Some(format!(
                "`{last}` is given as a key (`{last} = [...]`) before this {} table; allowed: one of the two forms, the key's list or the [[...]] tables",
                shown(header)
            ));
        }
        return Some(format!(
            "the section {} is given twice (or also as a key `{}` written before it); allowed: each section once, its keys under one header",
            shown(header),
            shown(&format!("{last} = {{ ... }}"))
        ));
    }
    if msg == "invalid table header; expected `.`, `]`" {
        return Some(format!(
            "{msg}: a section header is a name in brackets on a line of its own, the name ASCII letters, digits, `_` and `-`; allowed: [game], [search], [report], and the tables inside them such as [search.tt], [search.quiescence], [game.random_openings]"
        ));
    }
    if msg == "recursion limit exceeded" {
        let allowed = if key.map(last_part) == Some("ordering") {
            format!(
                "an ordering, or a list of orderings (a grid) each a name or a list of terms; {}",
                crate::search::ordering::ORDERING_TERMS
            )
        } else {
            "a value, or a list of values (a grid); no key takes lists nested deeper than two"
                .to_string()
        };
        return Some(format!(
            "lists or tables nested deeper than the TOML reader goes; allowed: {allowed}"
        ));
    }
    None
}

/// The names a key takes, for a value at `span` that is no name (`list`: no list of names):
/// the file parsed again with the name `?` (or the list `["?"]`) in its place gives serde's
/// "unknown variant" message, which lists them.
fn allowed_names(src: &str, span: std::ops::Range<usize>, list: bool) -> Option<String> {
    let (name, at) = if list {
        ("[\"?\"]", span.start + 1)
    } else {
        ("\"?\"", span.start)
    };
    let stand_in = format!("{}{name}{}", src.get(..span.start)?, src.get(span.end..)?);
    let e = toml::from_str::<ExperimentFile>(&stand_in).err()?;
    if e.span().map(|s| s.start) != Some(at) {
        return None;
    }
    // serde: "unknown variant `?`, expected one of `a`, `b`, `c`".
    let names: Vec<String> = expected_names(e.message())
        .iter()
        .map(|n| format!("`{n}`"))
        .collect();
    if !names.is_empty() {
        return Some(names.join(", "));
    }
    // A key with its own message for an unknown name ("unknown algorithm `?`; allowed: ...").
    let allowed = e.message().split_once("`?`")?.1.split_once("allowed: ")?.1;
    Some(allowed.trim().to_string())
}

/// The length of the TOML date-time (`1979-05-27T07:32:00Z`, `1979-05-27`, `07:32:00`, with
/// a space for the T) that starts at byte `pos` of `src`, if one does.
fn datetime_at(src: &str, pos: usize) -> Option<usize> {
    let rest = src.get(pos..)?.as_bytes();
    let digits = |from: usize, n: usize| {
        rest.len() >= from + n && rest[from..from + n].iter().all(u8::is_ascii_digit)
    };
    let date = digits(0, 4) && rest.get(4) == Some(&b'-') && digits(5, 2);
    let time = digits(0, 2) && rest.get(2) == Some(&b':') && digits(3, 2);
    if !date && !time {
        return None;
    }
    let mut n = 0;
    while n < rest.len() {
        let c = rest[n];
        let date_time_space = c == b' ' && n == 10 && date && digits(11, 2);
        if c.is_ascii_alphanumeric() || b":.+-".contains(&c) || date_time_space {
            n += 1;
        } else {
            break;
        }
    }
    Some(n)
}

/// The error for a date-time where the experiment takes no date-time. serde sees a TOML
/// date-time as a table with a private key (`$__toml_private_datetime`), so its own message
/// says `map` or names that key. The file is parsed again with `true` in its place, which
/// gives the message that names the key and what it takes, with the date-time put back in.
fn datetime_error(path: &Path, src: &str, pos: usize, msg: &str) -> Option<Error> {
    // A value, not a key that looks like a date (`2024-01 = 5`): serde names the private key,
    // or the text before it on its line is `=`, `[` or `,`.
    let before = src[..pos].trim_end_matches([' ', '\t']);
    let value = msg.contains("$__toml_private_datetime") || before.ends_with(['=', '[', ',']);
    if !value {
        return None;
    }
    let n = datetime_at(src, pos)?;
    let token = &src[pos..pos + n];
    let stand_in = format!("{}true{}", &src[..pos], &src[pos + n..]);
    let msg = match toml::from_str::<ExperimentFile>(&stand_in) {
        Err(e2) if e2.span().is_some_and(|s| s.start == pos) => {
            let m = parse(path, &stand_in).err()?.to_string();
            // `FILE:LINE:COL: MESSAGE`: keep the message.
            let (l, c) = line_col(src, pos);
            let m = m
                .strip_prefix(&format!("{}:{l}:{c}: ", path.display()))
                .unwrap_or(&m)
                .to_string();
            m.replace("boolean `true`", &format!("a date-time `{token}`"))
        }
        // `true` is a value of this key (iterative = true): a string in its place says what
        // the key takes (serde: `invalid type: string "?", expected a boolean`).
        _ => {
            let stand_in = format!("{}\"?\"{}", &src[..pos], &src[pos + n..]);
            let (l, c) = line_col(src, pos);
            let said = parse(path, &stand_in)
                .err()
                .map(|e| e.to_string())
                .and_then(|m| {
                    m.strip_prefix(&format!("{}:{l}:{c}: ", path.display()))
                        .map(str::to_string)
                })
                .filter(|m| m.contains("invalid type: string \"?\""));
            match (said, key_at(src, pos)) {
                (Some(m), _) => m.replace("string \"?\"", &format!("a date-time `{token}`")),
                (None, Some(key)) => format!("`{key}`: a date-time `{token}` is not a value of this key (the README lists what it takes)"),
                (None, None) => format!("a date-time `{token}` is not a value harness takes anywhere"),
            }
        }
    };
    Some(at(path, src, pos..pos + n, msg))
}

/// The error for a `[report] titles` key that is no chart (`titles = { nodez = "..." }`, in
/// any of TOML's forms): serde's words name neither `titles` nor what its keys are.
fn titles_error(path: &Path, src: &str, span: std::ops::Range<usize>, msg: &str) -> Option<Error> {
    let rest = msg.strip_prefix("unknown value `")?;
    let (name, allowed) = rest.split_once('`')?;
    let allowed = allowed.strip_prefix("; allowed: ")?;
    if locate_exact(src, &["report", "titles", name]) != Some(span.start) {
        return None;
    }
    Some(at(
        path,
        src,
        span,
        format!("[report] titles: `{name}` is not a chart; allowed: {allowed}"),
    ))
}

/// The error for a dotted key (`kind.x = ...`) whose first part takes a value, not a table,
/// or for a table where a name goes (`kind = { a = 1 }`): serde's message would speak of a
/// string, a map or a variant, and name no key.
fn dotted_key_error(
    path: &Path,
    src: &str,
    span: std::ops::Range<usize>,
    msg: &str,
) -> Option<Error> {
    let start = src[..span.start.min(src.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = src[start..].lines().next()?;
    let (key, value) = line.split_once('=')?;
    let key = key.trim();
    // `kind = { a = 1 }`: serde reads a one-key table as a variant named by the key.
    if let Some((_, allowed)) = msg.split_once("; allowed: ") {
        if msg.starts_with("unknown value") && value.trim_start().starts_with('{') {
            return Some(at(
                path,
                src,
                span,
                format!("`{key}` takes a name in quotes, not a table; allowed: {allowed}"),
            ));
        }
    }
    // serde's words when a dotted key made a table of a key that takes a string or a list
    // (a dotted key into a real table, `labels.foo = 3`, gets the value's own message).
    if !(msg.contains("invalid type: map") || msg.contains("expected a borrowed string")) {
        return None;
    }
    if !key.contains('.') || key.contains(['[', '{']) {
        return None;
    }
    // The key that takes a value: all parts but the last (`kind` in `kind.x`, `tt.enabled`
    // in `tt.enabled.x`), the last being the one that made it a table.
    let key_start = start + line.len() - line.trim_start().len();
    let (prefix, _) = key.rsplit_once('.')?;
    let prefix = key_parts(prefix).join(".");
    // `quiescence` and `random_openings` do take a table, but one whose place in the file is
    // recorded, which the TOML reader has not got for a table made of dotted keys.
    let text = match prefix.rsplit('.').next() {
        Some("quiescence") => format!("`{key}`: `quiescence` is read as one table, written `quiescence = {{ enabled = true, ... }}` or as a [search.quiescence] section, not as dotted keys"),
        Some("random_openings") => format!("`{key}`: `random_openings` is read as one table, written `random_openings = {{ count = N, plies = N }}`, not as dotted keys"),
        _ => format!(
            "`{key}`: a dotted key makes `{prefix}` a table, but `{prefix}` takes a value: write `{prefix} = ...` (the README lists what each key takes)"
        ),
    };
    Some(at(path, src, key_start..key_start + key.len(), text))
}

/// The parts of a dotted key as the file writes it (`kind."x"`, a header's `search . tt`),
/// each without its spaces and quotes, as messages name them.
fn key_parts(key: &str) -> Vec<&str> {
    key.split('.')
        .map(|p| p.trim().trim_matches(['"', '\'']))
        .collect()
}

/// The error for a table header (`[report.x]`) whose last part names a key that takes a value,
/// not a table: serde reports it at the header with its own words ("invalid type: map,
/// expected a string"), which name no key. What the key takes is serde's "expected" clause.
fn header_table_error(
    path: &Path,
    src: &str,
    span: std::ops::Range<usize>,
    msg: &str,
) -> Option<Error> {
    let rest = msg.strip_prefix("invalid type: map, expected ")?;
    let line = src.get(span.start..)?.lines().next()?.trim_end();
    let header = line.strip_prefix('[').filter(|h| !h.starts_with('['))?;
    let header = header.split(']').next()?;
    let parts = key_parts(header);
    let (key, table) = parts.split_last()?;
    if table.is_empty() {
        return None;
    }
    // "a sequence: a list of names in quotes; allowed: ..." lists what the stand-in parse
    // saw at the header, not the key's names: keep only what kind of value it is.
    let takes = rest
        .split([':', ';'])
        .next()?
        .trim()
        .replace("a sequence", "a list");
    let takes = match allowed_number(key) {
        Some(allowed) => format!("allowed: {allowed}"),
        None => takes,
    };
    let table = table.join(".");
    let shown = header.trim();
    Some(at(
        path,
        src,
        span.start..span.start + line.len(),
        format!(
            "`[{shown}]`: a table header makes `{key}` a table, but `{key}` takes a value ({takes}): write `{key} = ...` under [{table}] (the README lists what each key takes)"
        ),
    ))
}

/// The key of a `key = value` line holding byte `pos` of `src`, when the value starts there;
/// inside an inline table, the dotted path to the table's key (`tt.entries` on the line
/// `tt = { entries = 0 }`), which serde reports at the outer key.
fn key_at(src: &str, pos: usize) -> Option<String> {
    let pos = pos.min(src.len());
    let start = src[..pos].rfind('\n').map_or(0, |i| i + 1);
    inline_key_path(&src[start..pos])
        // (Each key of the path starts after any `{` or `,`: a quoted key or a header is left.)
        .filter(|key| !key.is_empty() && !key.starts_with('[') && !key.contains('"'))
        .or_else(|| value_key_at(src, pos))
}

/// The dotted key path that a line's text up to a value leads to: the keys of the inline
/// tables still open, then the last key before `=`. `None` when the text has no `=` (a list's
/// element on a line of its own) or closes more tables than it opens. Quoted text is
/// skipped (a quoted key comes back with its quotes, which `key_at` leaves to the parsed
/// file).
fn inline_key_path(line: &str) -> Option<String> {
    let mut open: Vec<&str> = Vec::new();
    let mut current: Option<&str> = None;
    // Start of the text since the last `{`, `,` or `=`: where a key begins.
    let mut from = 0;
    let mut quote = None;
    // Lists open inside the innermost inline table: a `,` there separates values, not keys.
    let mut lists = 0;
    for (i, c) in line.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '=' => {
                current = Some(line[from..i].trim());
                from = i + 1;
            }
            '{' => {
                open.push(current.take()?);
                lists = 0;
                from = i + 1;
            }
            '}' => {
                open.pop()?;
                current = None;
                from = i + 1;
            }
            '[' => lists += 1,
            ']' => lists -= 1,
            ',' => {
                // After a key's value ends: the text up to the next `=` is a key of the table
                // (which, at an unknown key, is the table's error).
                if lists == 0 {
                    current = None;
                }
                from = i + 1;
            }
            _ => {}
        }
    }
    open.extend(current);
    (!open.is_empty()).then(|| open.join("."))
}

/// The innermost key whose value holds byte `pos` of `src` (a list's element on a line of
/// its own, a quoted key's value), read from the parsed file; `None` when `src` does not
/// parse (a syntax error has no key).
fn value_key_at(src: &str, pos: usize) -> Option<String> {
    fn find(table: &dyn toml_edit::TableLike, pos: usize) -> Option<String> {
        for (k, item) in table.iter() {
            match item {
                toml_edit::Item::Value(v) if v.span().is_some_and(|s| s.contains(&pos)) => {
                    let inner = v.as_inline_table().and_then(|t| find(t, pos));
                    return inner.or_else(|| Some(k.to_string()));
                }
                toml_edit::Item::Table(t) => {
                    if let Some(inner) = find(t, pos) {
                        return Some(inner);
                    }
                }
                _ => {}
            }
        }
        None
    }
    let doc = toml_edit::ImDocument::parse(src).ok()?;
    find(doc.as_table(), pos)
}

/// The tables of an experiment file: (dotted path, name in messages).
const SECTIONS: [(&str, &str); 7] = [
    ("", "the top level (before any [section])"),
    ("game", "[game]"),
    ("game.random_openings", "[game] random_openings = { ... }"),
    ("search", "[search]"),
    ("search.tt", "[search.tt]"),
    ("search.quiescence", "[search] quiescence = { ... }"),
    ("report", "[report]"),
];

/// The keys a table of the experiment file takes, as serde lists them when it meets an
/// unknown one (so this list cannot drift from the structs). Used on the error path only.
fn keys_of(section: &str) -> Vec<String> {
    let probe = "harness_probe_key = 0\n";
    let text = if section.is_empty() {
        probe.to_string()
    } else {
        format!("[{section}]\n{probe}")
    };
    let Err(e) = toml::from_str::<ExperimentFile>(&text) else {
        return Vec::new();
    };
    expected_names(e.message())
}

/// The names serde's message lists as expected: "expected one of `a`, `b`, `c`", "expected
/// `a` or `b`" or "expected `a`" give a, b, c (none without "expected ").
fn expected_names(msg: &str) -> Vec<String> {
    let Some((_, list)) = msg.split_once("expected ") else {
        return Vec::new();
    };
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The games `kind` takes, as messages list them.
const GAME_KINDS: &str = "tictactoe, nim, chess, uniform, connect4";

/// What a whole-number key that refuses 0 allows, for a negative number, a fraction or a
/// string there, in place of serde's "a whole number >= 0"; `None` for other keys. A dotted
/// key (`tt.entries`, `search.tt.key_bits`) is read by its last part.
fn whole_from_one(key: &str) -> Option<String> {
    use super::plan::{MAX_NODES_ALLOWED, MAX_OPENINGS, MAX_OPENING_PLIES, MAX_REPETITIONS};
    Some(match last_part(key) {
        // Keys of random_openings only (inline, dotted or as a [game.random_openings] section).
        "count" => format!("a whole number from 1 to {MAX_OPENINGS}"),
        "plies" => format!("a whole number from 0 to {MAX_OPENING_PLIES}"),
        "entries" => "a power of two >= 1, e.g. 4096 (or give `mib`)".into(),
        "mib" => "a power of two >= 1 (or give `entries`)".into(),
        "key_bits" => "a whole number from 8 to 64".into(),
        "repetitions" => format!("a whole number from 1 to {MAX_REPETITIONS}"),
        "max_nodes" => MAX_NODES_ALLOWED.into(),
        // The table as a whole (a value serde reports at the table's key).
        "random_openings" => format!(
            "count a whole number from 1 to {MAX_OPENINGS}, plies one from 0 to {MAX_OPENING_PLIES}"
        ),
        _ => return None,
    })
}

/// What `max_seconds` allows.
pub const MAX_SECONDS_ALLOWED: &str =
    "a positive, finite number of seconds, at least 1e-9 (one nanosecond, the clock's unit; leave the key out for no time budget)";

/// `plain_words`' text for a number that does not fit its key.
/// serde's messages for a number past the key's type (`TOO_LARGE`, `TOO_SMALL` in the file's
/// words).
const TOO_LARGE_RAW: &str = "number too large to fit in target type";
const TOO_SMALL_RAW: &str = "number too small to fit in target type";
const TOO_LARGE: &str = "number too large for this key (the README's Limits list the ranges)";
const TOO_SMALL: &str = "number too small for this key (the README's Limits list the ranges)";

/// A dotted key's last part (`key_bits` of `search.tt.key_bits`), or the key itself.
fn last_part(key: &str) -> &str {
    key.rsplit('.').next().unwrap_or(key)
}

/// The numeric keys that take one value, not a list (a grid's keys take lists).
const ONE_VALUE: [&str; 5] = ["seed", "repetitions", "max_nodes", "max_seconds", "trees"];

/// What an error adds after its message when the key's allowed values are known.
fn allowed_tail(allowed: String) -> String {
    format!("; allowed: {allowed}")
}

/// What a numeric key allows, for a number too large for it or (a key of `ONE_VALUE`) a list
/// in its place; `None` for other keys. A dotted key is read by its last part.
fn allowed_number(key: &str) -> Option<String> {
    whole_from_one(key).or_else(|| {
        Some(match last_part(key) {
            "seed" => format!("a whole number from 0 to {} (2^63 - 1)", i64::MAX),
            "depth" => DEPTH_HELP.into(),
            "max_seconds" => MAX_SECONDS_ALLOWED.into(),
            "trees" => format!("a whole number from 1 to {}", super::plan::MAX_TREES),
            "delta" => DELTA_HELP.into(),
            _ => return None,
        })
    })
}

/// serde's type names in deserialization messages, in the words of the experiment file.
fn plain_words(msg: &str) -> String {
    let mut out = msg.replace(
        "expected enum GameKind",
        &format!("expected one of {GAME_KINDS}"),
    );
    for (from, to) in [
        ("expected i64", "expected a whole number"),
        ("expected u64", "expected a whole number >= 0"),
        ("expected u32", "expected a whole number >= 0"),
        ("expected f64", "expected a number"),
        (TOO_LARGE_RAW, TOO_LARGE),
        (TOO_SMALL_RAW, TOO_SMALL),
    ] {
        out = out.replace(from, to);
    }
    // Required keys and sections, with what they take.
    for (from, to) in [
        (
            "missing field `name`",
            "missing key `name` (the experiment's name, which names its results folder: up to 100 ASCII letters, digits, - _ .)".to_string(),
        ),
        (
            "missing field `kind`",
            "missing key `kind` in [game] (one of tictactoe, nim, chess, uniform, connect4)".to_string(),
        ),
        (
            "missing field `algorithm`",
            format!(
                "missing key `algorithm` in [search] (one of {}, or a list)",
                crate::search::Algorithm::NAMES.join(", ")
            ),
        ),
        (
            "missing field `game`",
            "missing section [game] (kind = ... and the positions)".to_string(),
        ),
        (
            "missing field `search`",
            "missing section [search] (algorithm = ..., depth = ...)".to_string(),
        ),
        // The two keys of `random_openings`, the only table with fields of these names.
        (
            "missing field `count`",
            format!("missing key `count` in random_openings (how many openings: a whole number from 1 to {})", super::plan::MAX_OPENINGS),
        ),
        (
            "missing field `plies`",
            format!("missing key `plies` in random_openings (plies each opening plays: a whole number from 0 to {})", super::plan::MAX_OPENING_PLIES),
        ),
    ] {
        out = out.replace(from, &to);
    }
    // serde's "variant" and "field" are the file's values and keys.
    out = out
        .replace("unknown variant `", "unknown value `")
        .replace("unknown field `", "unknown key `")
        .replace(", expected one of ", "; allowed: ");
    if out.starts_with("unknown value `") || out.starts_with("unknown key `") {
        // serde's wording for two variants: "expected `a` or `b`".
        out = out.replacen(", expected ", "; allowed: ", 1);
    }
    if let Some(key) = out
        .strip_prefix("unknown key `")
        .and_then(|rest| rest.split('`').next())
    {
        let homes: Vec<String> = SECTIONS
            .iter()
            .filter(|(section, _)| keys_of(section).iter().any(|k| k == key))
            .map(|(_, name)| name.to_string())
            .collect();
        if SECTIONS.iter().any(|(section, _)| *section == key) {
            // A section's name used as a key inside another section: [search] search.tt = 3.
            out.push_str(&format!(
                "; `{key}` is a section of its own: start it with [{key}] on a line of its own, its keys below it"
            ));
        } else if !homes.is_empty() {
            out.push_str(&format!("; `{key}` belongs in {}", homes.join(" or ")));
        }
    }
    // (serde's "expected struct X" never comes: the file's tables are read by `table_only!`,
    // whose messages say what they expect, and the file itself is always a table.)
    out
}

#[cfg(test)]
mod tests {
    use super::super::plan::{MAX_OPENINGS, MAX_OPENING_PLIES, MAX_REPETITIONS};
    use super::{inline_key_path, whole_from_one};

    /// A value inside an inline table is named by its dotted path; quoted text is skipped.
    #[test]
    fn inline_key_path_names_the_key_inside_inline_tables() {
        for (line, path) in [
            ("depth = ", Some("depth")),
            ("tt = { entries = ", Some("tt.entries")),
            (
                "tt = { replacement = \"a,b=c\", key_bits = ",
                Some("tt.key_bits"),
            ),
            ("search = { tt = { mib = ", Some("search.tt.mib")),
            ("x = { a = { b = 1 }, c = ", Some("x.c")),
            ("tt = { entries = 4096, ", Some("tt")),
            (
                "quiescence = { checks = [false, ",
                Some("quiescence.checks"),
            ),
            ("quiescence = { checks = [false], ", Some("quiescence")),
            ("ordering = [\"tt\", ", Some("ordering")),
            ("  ", None),
            ("a = 1 } b = ", None),
        ] {
            assert_eq!(inline_key_path(line).as_deref(), path, "{line}");
        }
    }

    /// The ranges a type error quotes are the ones the checks enforce.
    #[test]
    fn whole_from_one_quotes_the_checked_ranges() {
        let allowed = |key: &str| whole_from_one(key).unwrap();
        assert!(allowed("repetitions").ends_with(&format!("from 1 to {MAX_REPETITIONS}")));
        let openings = allowed("random_openings");
        assert!(openings.contains(&format!("from 1 to {MAX_OPENINGS},")));
        assert!(openings.ends_with(&format!("from 0 to {MAX_OPENING_PLIES}")));
    }
}
