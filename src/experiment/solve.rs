//! `harness solve`: solves every position of a positions file exactly and writes
//! `position,score,expected,nodes,micros` as CSV (an empty score where `--max-nodes` stopped
//! the solve; `nodes` is then the count at the stop).
//!
//! Lines are parsed by the game (`GameSetup::parse_line`, the `positions_file` route), all of
//! them before any search, so bad input stops the command before it prints anything. One solver
//! (one table, emptied before each position) solves the positions in file order. `micros` is the
//! wall-clock time of the solve alone, in microseconds.

use std::io::Write;
use std::path::Path;

use super::plan::GameSetup;
use super::positions::position_lines;
use crate::error::{Error, Result};
use crate::games::connect4::Connect4;
use crate::games::nim::Nim;
use crate::games::tictactoe::TicTacToe;
use crate::games::Game;
use crate::search::solver::{SolveResult, Solver, Techniques};
use crate::search::{Algorithm, Ordering, Replacement, SearchSpec, TtSpec};

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub weak: bool,
    pub techniques: Techniques,
    pub ordering: Ordering,
    pub max_nodes: Option<u64>,
    /// The table's entries (a power of two, replaced always); `None`: the solver's default
    /// (`search::solver::TABLE_ENTRIES`).
    pub table_entries: Option<u64>,
}

/// One solved position.
#[derive(Clone, Debug)]
pub struct Solved {
    pub line: usize,
    pub position: String,
    pub expected: Option<i32>,
    pub result: SolveResult,
}

/// Parses every line of `path` for `setup`: (line number, canonical position, expected score).
pub fn read_positions(setup: &GameSetup, path: &Path) -> Result<Vec<(usize, String, Option<i32>)>> {
    let text = super::config::read_text(path)
        .map_err(|e| Error::input(format!("{}: cannot read the file: {e}", path.display())))?;
    let mut out = Vec::new();
    for (line_no, line) in position_lines(&text) {
        let (pos, expected) = setup
            .parse_line(line)
            .map_err(|e| Error::input(format!("{}:{line_no}: {e}", path.display())))?;
        out.push((line_no, pos, expected));
    }
    if out.is_empty() {
        return Err(Error::input(format!(
            "{}: holds no position (blank lines and # comments only)",
            path.display()
        )));
    }
    Ok(out)
}

/// Solves the positions (already parsed from `file`, which messages name) in order, calling
/// `each` after every one.
pub fn solve_positions(
    setup: &GameSetup,
    file: &Path,
    positions: &[(usize, String, Option<i32>)],
    opts: &SolveOptions,
    mut each: impl FnMut(&Solved) -> Result<()>,
) -> Result<()> {
    macro_rules! go {
        ($start:expr, $parse:expr) => {
            solve_all(file, $start, $parse, positions, opts, &mut each)
        };
    }
    match setup {
        GameSetup::Connect4 { width, height } => go!(Connect4::new(*width, *height), |t| {
            Connect4::parse_position(*width, *height, t)
        }),
        GameSetup::TicTacToe { scale } => {
            go!(TicTacToe::new(*scale), |t| TicTacToe::parse_position(
                *scale, t
            ))
        }
        GameSetup::Chess => go!(
            crate::games::chess::Chess::parse_position("start").map_err(Error::input)?,
            crate::games::chess::Chess::parse_position
        ),
        GameSetup::Uniform { .. } => Err(Error::input(
            "harness solve: uniform trees have no positions files; use an experiment",
        )),
        GameSetup::Nim { misere } => {
            let first = positions.first().map(|p| p.1.as_str()).unwrap_or("1");
            let start = Nim::parse_position(*misere, first).map_err(Error::input)?;
            go!(start, |t| Nim::parse_position(*misere, t))
        }
    }
}

fn solve_all<G: Game>(
    file: &Path,
    start: G,
    parse: impl Fn(&str) -> std::result::Result<G, String>,
    positions: &[(usize, String, Option<i32>)],
    opts: &SolveOptions,
    each: &mut impl FnMut(&Solved) -> Result<()>,
) -> Result<()> {
    let mut spec = SearchSpec::new(Algorithm::Solve, start.max_remaining_plies());
    spec.ordering = opts.ordering.clone();
    spec.max_nodes = opts.max_nodes;
    spec.tt = opts.table_entries.map(|entries| TtSpec {
        replacement: Replacement::Always,
        ..TtSpec::new(entries)
    });
    // Errors here come from the options (`--ordering`, `--solver`, the table's size), before
    // any position.
    crate::search::solver::check_ordering(&spec.ordering, opts.techniques)
        .map_err(|e| Error::input(format!("--ordering/--solver: {e}")))?;
    // An explicit ordering's moves must fit every position (Nim's heaps differ from line to
    // line), as `harness run` checks them against each run's root: before anything is solved.
    for (line, pos, _) in positions {
        let g = parse(pos).map_err(|e| Error::input(format!("{}:{line}: {e}", file.display())))?;
        crate::search::ordering::explicit_keys(&spec.ordering, &g)
            .map_err(|e| Error::input(format!("{}:{line}: --ordering: {e}", file.display())))?;
        // The table's entries hold a remaining depth in one byte, as `harness run` refuses
        // for an experiment's solve runs.
        let plies = g.max_remaining_plies();
        if opts.techniques.tt && plies > crate::search::tt::MAX_DEPTH {
            return Err(Error::input(format!(
                "{}:{line}: the game can last {plies} more plies from this position, past the {} plies of remaining depth the solver's transposition table records (one byte of a 16-byte entry); allowed: a position the game ends within {} plies of, or a --solver without `tt` (e.g. --solver null-window+win-check+non-losing+bounds)",
                file.display(),
                crate::search::tt::MAX_DEPTH,
                crate::search::tt::MAX_DEPTH
            )));
        }
    }
    // Named by what the message is about: the ordering (a term the game lacks), else the
    // table's size, else the techniques.
    let mut solver = Solver::new(&start, &spec, opts.techniques, 0).map_err(|e| {
        let flag = if e.contains("ordering") {
            "--ordering"
        } else if e.contains("table") {
            "--mib"
        } else {
            "--solver"
        };
        Error::input(format!("{flag}: {e}"))
    })?;
    for (line, pos, expected) in positions {
        let mut g =
            parse(pos).map_err(|e| Error::input(format!("{}:{line}: {e}", file.display())))?;
        let result = solver.solve(&mut g, opts.weak);
        let expected = if opts.weak {
            expected.map(i32::signum)
        } else {
            *expected
        };
        each(&Solved {
            line: *line,
            position: pos.clone(),
            expected,
            result,
        })?;
    }
    Ok(())
}

/// What `run` found beyond the CSV.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Positions whose score differs from the expected one.
    pub wrong: usize,
    /// Lines of the positions the node budget stopped (their rows have an empty score).
    pub stopped: Vec<usize>,
}

/// The whole command: reads `path`, solves, writes CSV to `out`. A reader that goes away (a
/// closed pipe, as with `| head`) ends the command quietly: the positions solved so far count.
pub fn run(setup: &GameSetup, path: &Path, opts: &SolveOptions, out: impl Write) -> Result<Tally> {
    let positions = read_positions(setup, path)?;
    let mut w = ::csv::Writer::from_writer(out);
    let mut closed = false;
    let write_err = |e: ::csv::Error, closed: &mut bool| match e.kind() {
        ::csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe => {
            *closed = true;
            Error::Internal("stdout closed".into())
        }
        _ => Error::Internal(format!("writing the scores to standard output: {e}")),
    };
    let mut tally = Tally::default();
    // The header goes out with the first row, so that an error in the options prints nothing.
    let mut header = false;
    let done = solve_positions(setup, path, &positions, opts, |s| {
        if !header {
            header = true;
            w.write_record(["position", "score", "expected", "nodes", "micros"])
                .map_err(|e| write_err(e, &mut closed))?;
        }
        let solved = s.result.status == crate::search::Status::Ok;
        if !solved {
            tally.stopped.push(s.line);
        } else if s.expected.is_some_and(|e| e != s.result.score) {
            tally.wrong += 1;
        }
        w.write_record([
            // As runs.csv writes it (Connect Four's empty board: `start`, which the input
            // takes too), never an empty cell.
            s.position.clone(),
            if solved {
                s.result.score.to_string()
            } else {
                String::new()
            },
            s.expected.map(|e| e.to_string()).unwrap_or_default(),
            s.result.counters.nodes.to_string(),
            format!("{:.3}", s.result.counters.time_ns as f64 / 1000.0),
        ])
        .and_then(|()| w.flush().map_err(::csv::Error::from))
        .map_err(|e| write_err(e, &mut closed))
    });
    match done {
        Err(_) if closed => Ok(tally),
        Err(e) => Err(e),
        Ok(()) => Ok(tally),
    }
}
