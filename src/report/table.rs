//! Reading `runs.csv` back, checking it is what `harness run` writes, and sorting its columns
//! into roles.
//!
//! Column roles (generic, so that columns added later need no change here):
//! - **identity**: `experiment`, `run_key`, `position_id`, `position`, `rep`, `seed`: which run
//!   this is. Not grouped by, not summarized.
//! - **parameter**: every other column before `status`, every column named in
//!   [`KNOWN_PARAMETERS`] wherever it stands, and every column after `status` whose values are
//!   not all numbers. Summaries group by all parameters.
//! - **result**: `status`, `value`, `best_move`, `pv`, and `iteration_nodes`,
//!   `iteration_leaves`, ... (iterative deepening's counts per iteration, as text): per-run
//!   outcomes, not averaged.
//! - **counter**: every other column after `status` whose non-empty values are all numbers
//!   (nodes, leaves, ..., ebf, time_ns, and whatever counters or theory columns are added), or
//!   all `true`/`false` (counted as 1/0, so the mean is a rate: `bm_hit`).

use std::path::Path;

use crate::error::{Error, Result};
use crate::games::parse_digits;
use crate::report::csv as runs_csv;
use crate::search::Status;

/// Columns that identify a run.
pub const IDENTITY: [&str; 6] = [
    "experiment",
    "run_key",
    "position_id",
    "position",
    "rep",
    "seed",
];
/// Per-run outcomes that are not counters.
/// (The per-iteration columns, `iteration_nodes`, ..., are results too: see `classify`.)
pub const RESULTS: [&str; 4] = ["status", "value", "best_move", "pv"];
/// Numeric columns that are parameters even after `status` (table sizes and other settings).
pub const KNOWN_PARAMETERS: [&str; 6] = [
    "tt",
    "tt_enabled",
    "tt_entries",
    "tt_size",
    "tt_replacement",
    "branching",
];

/// The role of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Identity,
    Parameter,
    Result,
    Counter,
}

/// runs.csv in memory.
#[derive(Clone, Debug)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Row>,
    pub roles: Vec<Role>,
}

/// One row of runs.csv, held compactly: its fields one after another in one string, and where
/// each ends. A row of 66 fields as a `Vec<String>` takes about 3.6 KB (a string's 24 bytes
/// and its allocation per field); this takes the row's text and 4 bytes a field, so that a
/// million runs fit in memory while they are reported.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    text: Box<str>,
    ends: Box<[u32]>,
}

/// The longest row [`read_table`] takes, in bytes. A row harness writes is at most a few
/// hundred KB (a line of 10,000 chess moves is 50 KB); the limit keeps every row, with the
/// column a report adds, within the 4 GiB a [`Row`] can index.
pub const MAX_ROW_BYTES: usize = 1 << 30;

impl Row {
    /// The row of these fields, whose text is at most [`MAX_ROW_BYTES`] and a few more
    /// (`read_table` refuses longer rows; harness's own are far shorter).
    pub fn new<S: AsRef<str>>(fields: impl IntoIterator<Item = S>) -> Row {
        let mut text = String::new();
        let mut ends = Vec::new();
        for f in fields {
            text.push_str(f.as_ref());
            ends.push(u32::try_from(text.len()).expect("a row is shorter than 4 GiB"));
        }
        Row {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
        }
    }

    /// The number of fields.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the row has no fields.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The fields, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(move |i| &self[i])
    }

    /// The row with field `i` replaced by `value`.
    pub fn with(&self, i: usize, value: &str) -> Row {
        Row::new(
            self.iter()
                .enumerate()
                .map(|(j, f)| if j == i { value } else { f }),
        )
    }

    /// The row's first `n` fields.
    pub fn truncated(&self, n: usize) -> Row {
        Row::new(self.iter().take(n))
    }

    /// The row with `value` after its last field.
    pub fn pushed(&self, value: &str) -> Row {
        Row::new(self.iter().chain(std::iter::once(value)))
    }
}

impl<S: AsRef<str>> FromIterator<S> for Row {
    fn from_iter<I: IntoIterator<Item = S>>(fields: I) -> Row {
        Row::new(fields)
    }
}

impl std::ops::Index<usize> for Row {
    type Output = str;

    /// Field `i` (panics past the last, as a slice does).
    fn index(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }
}

impl Table {
    pub fn col(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    pub fn columns_with(&self, role: Role) -> Vec<usize> {
        (0..self.header.len())
            .filter(|&i| self.roles[i] == role)
            .collect()
    }
}

/// Whether a field is a number (as written by harness: integers or decimals).
pub fn numeric(s: &str) -> Option<f64> {
    let v: f64 = s.trim().parse().ok()?;
    v.is_finite().then_some(v)
}

/// A counter field as a number: numbers as written, `true`/`false` as 1/0 (so the mean of a
/// boolean result such as `bm_hit` is its rate).
pub fn number_or_bool(s: &str) -> Option<f64> {
    match s {
        "true" => Some(1.0),
        "false" => Some(0.0),
        _ => numeric(s),
    }
}

/// The columns every runs.csv of this harness has (option columns come and go with the games).
pub fn required_columns() -> Vec<&'static str> {
    runs_csv::HEAD
        .iter()
        .chain(runs_csv::PARAMS.iter())
        .chain(runs_csv::COUNTER_COLUMNS.iter())
        .copied()
        .collect()
}

/// The kind of value a column harness writes holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A whole number from 0, in every row.
    Count,
    /// A whole number from 0, or empty (a column that does not apply to the run).
    CountOrEmpty,
    /// A whole number, possibly negative, or empty (values and scores).
    IntegerOrEmpty,
    /// A finite number from 0, or empty (ratios, rates, branching factors).
    RealOrEmpty,
    /// `true`, `false`, or empty.
    BoolOrEmpty,
    /// `0`, `1` (a run's contribution to a count of runs), or empty.
    BitOrEmpty,
    /// Iterative deepening's counts per iteration, `1:8 2:20 3:113` (iterations numbered
    /// from 1, one space apart, a count each), or empty.
    IterationsOrEmpty,
}

impl Kind {
    fn admits(self, s: &str) -> bool {
        let empty = s.is_empty();
        match self {
            // Digits only (Rust's parse would take a leading `+`, which harness never writes).
            Kind::Count => parse_digits::<u64>(s).is_some(),
            Kind::CountOrEmpty => empty || parse_digits::<u64>(s).is_some(),
            Kind::IntegerOrEmpty => {
                empty
                    || parse_digits::<u64>(s.strip_prefix('-').unwrap_or(s)).is_some()
                        && s.parse::<i64>().is_ok()
            }
            Kind::RealOrEmpty => {
                empty
                    || !s.starts_with(['+', ' '])
                        && s.trim_end() == s
                        && numeric(s).is_some_and(|x| x >= 0.0)
            }
            Kind::BoolOrEmpty => empty || s == "true" || s == "false",
            Kind::BitOrEmpty => empty || s == "0" || s == "1",
            Kind::IterationsOrEmpty => {
                empty
                    || s.split(' ').enumerate().all(|(k, pair)| {
                        pair.split_once(':').is_some_and(|(i, n)| {
                            i == (k + 1).to_string() && parse_digits::<u64>(n).is_some()
                        })
                    })
            }
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Kind::Count => "a count (a whole number from 0)",
            Kind::CountOrEmpty => "a count (a whole number from 0) or empty",
            Kind::IntegerOrEmpty => "a whole number or empty",
            Kind::RealOrEmpty => "a finite number from 0 or empty",
            Kind::BoolOrEmpty => "true, false or empty",
            Kind::BitOrEmpty => "0, 1 or empty",
            Kind::IterationsOrEmpty => {
                "a count per iteration, the iterations numbered from 1 (`1:8 2:20 3:113`), or empty"
            }
        }
    }
}

/// What a column harness writes holds (`None`: text, or a column harness does not write).
fn kind_of(name: &str) -> Option<Kind> {
    Some(match name {
        "nodes" | "leaves" | "terminal" | "cutoffs" | "max_ply" | "time_ns" | "depth" | "rep"
        | "seed" | "position_id" => Kind::Count,
        "qnodes" | "first_move_cutoffs" | "interior" | "moves_generated" | "theory_depth"
        | "tt_entries" | "tt_bytes" | "tt_key_bits" | "tt_probes" | "tt_hits" | "tt_cutoffs"
        | "tt_stores" | "tt_overwrites" | "tt_collisions" | "tt_false_hits" | "cutoffs_tt" | "cutoffs_killer"
        | "cutoffs_history" | "researches" => Kind::CountOrEmpty,
        "value" | "reference_value" | "score" | "expected" => Kind::IntegerOrEmpty,
        "ebf"
        | "nodes_per_second"
        | "mean_branching"
        | "searched_branching"
        | "minimal_leaves"
        | "minimal_nodes"
        | "full_leaves"
        | "full_nodes"
        | "pearl_r"
        | "leaf_ebf"
        | "leaves_over_minimal"
        | "nodes_over_minimal"
        | "leaves_over_full"
        | "nodes_over_full"
        | "leaf_ebf_over_pearl"
        | "tt_occupancy"
        // The theory's b (uniform trees; a whole number there, any b >= 0 from another tool).
        | "branching" => Kind::RealOrEmpty,
        "bm_hit" => Kind::BoolOrEmpty,
        "value_wrong" | "move_wrong" => Kind::BitOrEmpty,
        name if name.starts_with(runs_csv::ITERATION_PREFIX) => Kind::IterationsOrEmpty,
        _ => return None,
    })
}

/// The line (from 1) on which byte `at` of `path` stands, lines ending in LF, CRLF or a lone
/// CR. The csv crate's own line count is one short per CRLF record and does not count lone
/// CRs, so harness counts them itself (on an error only: the file is read again up to `at`).
fn line_at(path: &Path, at: u64) -> u64 {
    use std::io::Read;
    let mut head = Vec::new();
    // The crate puts a CRLF record's start on its newline: read through `at`.
    let read = std::fs::File::open(path).and_then(|f| f.take(at + 1).read_to_end(&mut head));
    if read.is_err() {
        return 0;
    }
    let ends = head
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && head.get(i + 1) != Some(&b'\n')))
        .count() as u64;
    ends + 1
}

/// Why the line that starts at byte `at` of `path` reads as `len` fields where the header has
/// `expected`, when a quote explains it. A quoted field runs until its closing quote, across
/// lines: one stray quote swallows the rest of the file into one field, and the crate
/// reports only the short record. Two quotes added by hand on one line join the fields
/// between them into one, so the row is short by the commas inside.
fn quote_hint(path: &Path, at: u64, len: u64, expected: u64) -> Option<String> {
    use std::io::{BufRead, Seek};
    let mut f = std::io::BufReader::new(std::fs::File::open(path).ok()?);
    f.seek(std::io::SeekFrom::Start(at)).ok()?;
    let mut line = Vec::new();
    // One line, however long: at most the file's. The crate puts a CRLF record's start on the
    // previous line's end: read past line ends.
    while line.iter().all(|&b| b == b'\r' || b == b'\n') {
        if f.read_until(b'\n', &mut line).ok()? == 0 {
            return None;
        }
    }
    let text = String::from_utf8_lossy(&line);
    // Lone CRs end lines too (the read went on to a newline or the end).
    let text = text.trim_start_matches(['\r', '\n']);
    let text = text.split(['\r', '\n']).next().unwrap_or("");
    // The quoted fields: (column of the opening quote, commas inside). A quote opens a field
    // only at its start (after a comma); inside, `""` is a quote.
    let mut quoted: Vec<(usize, u64)> = Vec::new();
    let mut open = false;
    let mut field_start = true;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (open, c) {
            (false, '"') if field_start => {
                open = true;
                quoted.push((text[..i].chars().count() + 1, 0));
            }
            (true, '"') if chars.peek().map(|&(_, n)| n) == Some('"') => {
                chars.next();
            }
            (true, '"') => open = false,
            (true, ',') => {
                if let Some(q) = quoted.last_mut() {
                    q.1 += 1;
                }
            }
            _ => {}
        }
        field_start = !open && c == ',';
    }
    if open {
        let col = quoted.last()?.0;
        return Some(format!(
            " (the `\"` at column {col} opens a quoted field that no `\"` closes on its line, so the lines after it were read into that field)"
        ));
    }
    // A quoted field holding as many commas as the row is short of fields.
    let short = expected.checked_sub(len).filter(|&n| n > 0)?;
    let (col, _) = quoted.iter().find(|&&(_, commas)| commas == short)?;
    Some(format!(
        " (the quoted field at column {col} holds {short} comma{}, as many as the row is short of fields: if those quotes were added by hand, they join the fields between them into one)",
        if short == 1 { "" } else { "s" }
    ))
}

/// Reads and checks `path` (a runs.csv). Every problem is an input error naming the file.
pub fn read_runs(path: &Path) -> Result<Table> {
    read_table(path, false)
}

/// `read_runs`, which with `allow_empty` also takes a runs.csv of its header alone (the
/// runs.csv of a shard that holds no run).
pub fn read_table(path: &Path, allow_empty: bool) -> Result<Table> {
    let shown = path.display();
    // (`is_file` and `exists` say false also for a file in a folder this user may not read.)
    let what = match std::fs::metadata(path) {
        Ok(m) if m.is_file() => None,
        Ok(_) => Some("not a regular file".to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("not found".to_string()),
        Err(e) => Some(format!("cannot read: {e}")),
    };
    if let Some(what) = what {
        return Err(Error::input(format!(
            "{shown}: {what}; give a results folder written by `harness run` (with runs.csv in it)"
        )));
    }
    let mut rdr = ::csv::ReaderBuilder::new()
        .has_headers(true)
        .from_path(path)
        .map_err(|e| Error::input(format!("{shown}: cannot read: {e}")))?;
    let header: Vec<String> = rdr
        .headers()
        .map_err(|e| Error::input(format!("{shown}: cannot read the header: {e}")))?
        .iter()
        .map(str::to_string)
        .collect();
    if header.iter().all(|h| h.is_empty()) {
        return Err(Error::input(format!(
            "{shown}: empty; `harness run` writes a header line and a row per run"
        )));
    }
    let missing: Vec<&str> = required_columns()
        .into_iter()
        .filter(|c| !header.iter().any(|h| h == c))
        .collect();
    if !missing.is_empty() {
        return Err(Error::input(format!(
            "{shown}: the columns do not match what `harness run` writes: missing {}",
            missing.join(", ")
        )));
    }
    for (i, h) in header.iter().enumerate() {
        if header[..i].contains(h) {
            return Err(Error::input(format!("{shown}: column `{h}` appears twice")));
        }
        // A nameless column would give summary.csv columns named `_mean`, ...
        if h.trim().is_empty() || h.chars().any(char::is_control) {
            return Err(Error::input(format!(
                "{shown}: column {} has no name (or a control character in it); every column of runs.csv is named",
                i + 1
            )));
        }
    }
    let status = header.iter().position(|h| h == "status").unwrap_or(0);
    if header.iter().position(|h| h == "run_key") > Some(status) {
        return Err(Error::input(format!(
            "{shown}: the columns are not in the order `harness run` writes (parameters, then `status`, then results and counters)"
        )));
    }
    let mut rows = Vec::new();
    // Where each row starts, in bytes: an error names the row's line, counted on demand.
    let mut starts = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| line_at(path, p.byte()));
            let what = match e.kind() {
                ::csv::ErrorKind::UnequalLengths {
                    expected_len, len, ..
                } => format!(
                    "{len} field{}, where the header has {expected_len}{}",
                    if *len == 1 { "" } else { "s" },
                    e.position()
                        .and_then(|p| quote_hint(path, p.byte(), *len, *expected_len))
                        .unwrap_or_default()
                ),
                ::csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_string(),
                _ => e.to_string(),
            };
            Error::input(format!("{shown}:{line}: {what}"))
        })?;
        let start = rec.position().map_or(0, |p| p.byte());
        if rec.as_slice().len() > MAX_ROW_BYTES {
            return Err(Error::input(format!(
                "{shown}:{}: a row of more than 1 GiB; harness writes rows of at most a few hundred KB",
                line_at(path, start)
            )));
        }
        starts.push(start);
        rows.push(Row::new(rec.iter()));
    }
    let line = |r: usize| line_at(path, starts[r]);
    if rows.is_empty() && !allow_empty {
        return Err(Error::input(format!("{shown}: no runs (only a header)")));
    }
    // No cell harness writes holds a control character (positions are written in a printable
    // form, an EPD line's operations with any control character as a space; names and moves
    // are printable): one in a hand-edited cell would reach the terminal in a message, and
    // report.md and summary.csv as it is.
    for (r, row) in rows.iter().enumerate() {
        if let Some((c, ch)) = row
            .iter()
            .enumerate()
            .find_map(|(c, v)| v.chars().find(|ch| ch.is_control()).map(|ch| (c, ch)))
        {
            return Err(Error::input(format!(
                "{shown}:{}: column `{}` holds `{}`, with the control character U+{:04X}, which harness never writes; allowed: printable text",
                line(r),
                header[c],
                crate::games::shown(&row[c]),
                ch as u32
            )));
        }
    }
    // Every column harness writes holds the kind of value harness writes there, in every row:
    // one bad cell in a counter would otherwise make it a parameter, splitting the groups.
    for (c, name) in header.iter().enumerate() {
        let Some(kind) = kind_of(name) else { continue };
        for (r, row) in rows.iter().enumerate() {
            if !kind.admits(&row[c]) {
                // Digits alone (a sign too where the column holds negative numbers): a number
                // of the right form, too large for the column.
                let v = match kind {
                    Kind::IntegerOrEmpty => row[c].strip_prefix('-').unwrap_or(&row[c]),
                    _ => &row[c],
                };
                let too_large = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
                let range = match kind {
                    Kind::Count => format!("from 0 to {}", u64::MAX),
                    Kind::CountOrEmpty => format!("from 0 to {}, or empty", u64::MAX),
                    Kind::IntegerOrEmpty => format!("from {} to {}, or empty", i64::MIN, i64::MAX),
                    _ => String::new(),
                };
                let what = if too_large && !range.is_empty() {
                    format!("a number too large for it; allowed: a whole number {range}")
                } else {
                    format!("not {}", kind.describe())
                };
                return Err(Error::input(format!(
                    "{shown}:{}: column `{name}` holds `{}`, {what}",
                    line(r),
                    crate::games::shown(&row[c]),
                )));
            }
        }
    }
    let statuses = [Status::Ok, Status::Budget].map(Status::name);
    for (r, row) in rows.iter().enumerate() {
        if !statuses.contains(&&row[status]) {
            return Err(Error::input(format!(
                "{shown}:{}: column `status` holds `{}`; allowed: {}",
                line(r),
                crate::games::shown(&row[status]),
                statuses.join(", ")
            )));
        }
    }
    // A finished search has a value; one a budget stopped has no value, move or line (its
    // counters are partial).
    let value = header.iter().position(|h| h == "value");
    for (r, row) in rows.iter().enumerate() {
        if &row[status] != Status::Budget.name() {
            if let Some(c) = value.filter(|&c| row[c].is_empty()) {
                return Err(Error::input(format!(
                    "{shown}:{}: column `{}` is empty in a run of status `{}`; harness writes the value of every search that finished (empty only with status `{}`)",
                    line(r),
                    header[c],
                    &row[status],
                    Status::Budget.name()
                )));
            }
            continue;
        }
        for name in ["value", "best_move", "pv"] {
            if let Some(c) = header.iter().position(|h| h == name) {
                if !row[c].is_empty() {
                    return Err(Error::input(format!(
                        "{shown}:{}: a run stopped by a budget holds `{}` in `{name}`; harness leaves value, best_move and pv empty there",
                        line(r),
                        &row[c]
                    )));
                }
            }
        }
    }
    let e = header.iter().position(|h| h == "experiment").unwrap_or(0);
    if rows.iter().any(|r| r[e] != rows[0][e]) {
        return Err(Error::input(format!(
            "{shown}: rows of more than one experiment; a results folder holds one"
        )));
    }
    let k = header.iter().position(|h| h == "run_key").unwrap_or(0);
    let mut keys: Vec<&str> = rows.iter().map(|r| &r[k]).collect();
    keys.sort_unstable();
    if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::input(format!(
            "{shown}: run key `{}` appears twice",
            w[0]
        )));
    }
    // In run-key order, as harness writes them: sums of floats (a mean of nodes_per_second)
    // then do not depend on the order of the file's rows.
    rows.sort_by(|a, b| a[k].cmp(&b[k]));
    Ok(from_parts(header, rows))
}

/// A table of rows as `harness run` writes them, with the columns' roles: parameters before
/// `status` or known by name, counters where every value is a number.
pub fn from_parts(header: Vec<String>, rows: Vec<Row>) -> Table {
    with_nodes_over_best(classify(header, rows))
}

/// The column derived from runs.csv when the experiment has `oracle-best` runs: a run's nodes
/// over the nodes of the `oracle-best` run of the same position with every other parameter
/// the same (algorithm, variant, depth, table, ...), the best-first tree of that position
/// (the mean of those runs' nodes if there are several). Empty where there is no such run or
/// either was stopped by a budget. Not written to runs.csv: summary.csv summarizes it as a
/// counter.
pub const NODES_OVER_BEST: &str = "nodes_over_best";

fn with_nodes_over_best(mut t: Table) -> Table {
    let (Some(ord), Some(nodes), Some(status)) =
        (t.col("ordering"), t.col("nodes"), t.col("status"))
    else {
        return t;
    };
    let best_first = |r: &Row| &r[ord] == "oracle-best";
    if t.col(NODES_OVER_BEST).is_some() || !t.rows.iter().any(&best_first) {
        return t;
    }
    let ok = Status::Ok.name();
    let values: Vec<String> = {
        // Runs of the same position and parameters but the ordering share a key.
        let key_cols: Vec<usize> = (0..t.header.len())
            .filter(|&i| {
                (t.roles[i] == Role::Parameter && i != ord)
                    || ["position_id", "position"].contains(&t.header[i].as_str())
            })
            .collect();
        fn key<'a>(cols: &[usize], r: &'a Row) -> Vec<&'a str> {
            cols.iter().map(|&i| &r[i]).collect()
        }
        let mut best: std::collections::BTreeMap<Vec<&str>, (f64, u32)> = Default::default();
        // Keys with an oracle-best run a budget stopped (one repetition of several, with
        // random tie-breaking): their best-first tree is not known, so no ratio.
        let mut stopped = std::collections::BTreeSet::new();
        for r in t.rows.iter().filter(|r| best_first(r)) {
            if &r[status] != ok {
                stopped.insert(key(&key_cols, r));
            } else if let Some(n) = numeric(&r[nodes]) {
                let e = best.entry(key(&key_cols, r)).or_insert((0.0, 0));
                e.0 += n;
                e.1 += 1;
            }
        }
        for k in &stopped {
            best.remove(k);
        }
        t.rows
            .iter()
            .map(
                |r| match (best.get(&key(&key_cols, r)), numeric(&r[nodes])) {
                    (Some(&(sum, k)), Some(n)) if &r[status] == ok && sum > 0.0 => {
                        format!("{}", n / (sum / f64::from(k)))
                    }
                    _ => String::new(),
                },
            )
            .collect()
    };
    if values.iter().all(String::is_empty) {
        return t;
    }
    t.header.push(NODES_OVER_BEST.to_string());
    for (r, v) in t.rows.iter_mut().zip(values) {
        *r = r.pushed(&v);
    }
    t.roles.push(Role::Counter);
    t
}

/// Sorts the columns into roles.
fn classify(header: Vec<String>, rows: Vec<Row>) -> Table {
    let status = header.iter().position(|h| h == "status").unwrap_or(0);
    let roles = header
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let h = h.as_str();
            if IDENTITY.contains(&h) {
                Role::Identity
            } else if RESULTS.contains(&h) || h.starts_with(runs_csv::ITERATION_PREFIX) {
                Role::Result
            } else if i < status || KNOWN_PARAMETERS.contains(&h) {
                Role::Parameter
            } else {
                let mut any = false;
                let all_numeric = rows.iter().all(|r| {
                    r[i].is_empty() || {
                        any = true;
                        number_or_bool(&r[i]).is_some()
                    }
                });
                if all_numeric && any {
                    Role::Counter
                } else if all_numeric {
                    // Empty everywhere: nothing to summarize or group by.
                    Role::Result
                } else {
                    Role::Parameter
                }
            }
        })
        .collect();
    Table {
        header,
        rows,
        roles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every result, counter, theory and table column harness writes has a kind that `plot`
    /// checks, but for those that hold text: a column added to runs.csv without one would
    /// go unchecked.
    #[test]
    fn every_numeric_column_harness_writes_has_a_kind() {
        let text = [
            "status",
            "best_move",
            "pv",
            "iterative",
            "tt",
            "tt_replacement",
            "tt_bounds",
        ];
        for name in runs_csv::COUNTER_COLUMNS
            .iter()
            .chain(runs_csv::THEORY_COLUMNS.iter())
            .chain(runs_csv::TT_PARAMS.iter())
            .chain(runs_csv::TT_COUNTERS.iter())
            .chain(["bm_hit", "score", "expected", "depth", "rep", "seed"].iter())
        {
            assert_eq!(
                kind_of(name).is_some(),
                !text.contains(name),
                "column `{name}`"
            );
        }
    }

    /// A row gives back each field as it was given, empty ones and the first and last
    /// included, and replacing, dropping or adding a field leaves the others as they were.
    #[test]
    fn a_row_keeps_its_fields() {
        let fields = ["", "ok", "", "a,b", "é🙂", ""];
        let r = Row::new(fields);
        assert_eq!(r.len(), 6);
        assert_eq!(r.iter().collect::<Vec<_>>(), fields);
        for (i, f) in fields.iter().enumerate() {
            assert_eq!(&r[i], *f);
        }
        let w = r.with(1, "budget");
        assert_eq!(
            w.iter().collect::<Vec<_>>(),
            ["", "budget", "", "a,b", "é🙂", ""]
        );
        assert_eq!(r.with(5, "x")[5], *"x");
        assert_eq!(r.truncated(4).iter().collect::<Vec<_>>(), &fields[..4]);
        let p = r.pushed("2.5");
        assert_eq!(p.len(), 7);
        assert_eq!(&p[6], "2.5");
        assert_eq!(&p[4], "é🙂");
        assert!(Row::new(Vec::<String>::new()).is_empty());
        assert_eq!(Row::new([""]).len(), 1);
    }

    /// A run's nodes over those of the oracle-best run of its position and parameters: empty
    /// without one, with a budget stop on either side, and for another algorithm or depth.
    #[test]
    fn nodes_over_best_divides_by_the_same_positions_oracle_best_run() {
        let header = [
            "position",
            "algorithm",
            "depth",
            "ordering",
            "status",
            "nodes",
        ];
        let rows = [
            ["p1", "alphabeta", "4", "oracle-best", "ok", "10"],
            ["p1", "alphabeta", "4", "natural", "ok", "35"],
            ["p1", "alphabeta", "4", "random", "budget", "50"],
            ["p2", "alphabeta", "4", "natural", "ok", "35"],
            ["p1", "alphabeta", "5", "natural", "ok", "35"],
            ["p1", "minimax", "4", "natural", "ok", "35"],
            ["p3", "alphabeta", "4", "oracle-best", "budget", "60"],
            ["p3", "alphabeta", "4", "static", "ok", "70"],
            // Two repetitions of oracle-best (random tie-breaking), one stopped: no ratio.
            ["p4", "alphabeta", "4", "oracle-best", "ok", "10"],
            ["p4", "alphabeta", "4", "oracle-best", "budget", "12"],
            ["p4", "alphabeta", "4", "natural", "ok", "30"],
        ];
        let t = from_parts(
            header.iter().map(|h| h.to_string()).collect(),
            rows.iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect(),
        );
        let c = t.col(NODES_OVER_BEST).expect("derived column");
        assert_eq!(t.roles[c], Role::Counter);
        let got: Vec<&str> = t.rows.iter().map(|r| &r[c]).collect();
        assert_eq!(got, ["1", "3.5", "", "", "", "", "", "", "", "", ""]);
        // No oracle-best run: no column.
        let t = from_parts(
            header.iter().map(|h| h.to_string()).collect(),
            rows[1..6]
                .iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect(),
        );
        assert_eq!(t.col(NODES_OVER_BEST), None);
    }
}
