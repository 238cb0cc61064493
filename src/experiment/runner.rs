//! Runs a plan in parallel (rayon), with an indicatif progress bar on stderr, and writes
//! `runs.csv`. Finished runs are appended to `runs.csv.partial` as they complete (so a killed
//! experiment loses nothing finished, and its rerun resumes: `partial`); the final, sorted
//! `runs.csv` is written atomically and the partial file removed.

use std::collections::HashMap;
use std::fs::File;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::config::{self, Depth};
use super::partial;
use super::plan::{GameSetup, Plan, Run};
use crate::error::{Error, Result};
use crate::games::chess::Chess;
use crate::games::connect4::Connect4;
use crate::games::nim::Nim;
use crate::games::tictactoe::TicTacToe;
use crate::games::uniform::Uniform;
use crate::games::Game;
use crate::report::csv::{self, Reference, RunRecord};
use crate::search::{SearchResult, SearchSpec, Searcher, Status};

/// How to run a plan.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    pub quiet: bool,
    /// What writes the partial file (`None`: a header no later run resumes from).
    pub header: Option<partial::Header>,
    /// Runs an interrupted run finished (`partial::load`), by run key: not searched again.
    pub done: HashMap<String, partial::Finished>,
}

/// Builds the run's game at its position and calls `f` with it: the one place where a game
/// kind becomes a concrete type, so everything inside `f` is monomorphized.
macro_rules! with_game {
    ($run:expr, |$g:ident| $body:expr) => {
        match &$run.game {
            GameSetup::TicTacToe { scale } => {
                let $g = TicTacToe::parse_position(*scale, &$run.position)?;
                $body
            }
            GameSetup::Nim { misere } => {
                let $g = Nim::parse_position(*misere, &$run.position)?;
                $body
            }
            GameSetup::Chess => {
                let $g = Chess::parse_position(&$run.position)?;
                $body
            }
            GameSetup::Uniform { spec } => {
                let $g = Uniform::parse_position(*spec, &$run.position)?;
                $body
            }
            GameSetup::Connect4 { width, height } => {
                let $g = Connect4::parse_position(*width, *height, &$run.position)?;
                $body
            }
        }
    };
}

fn spec_for<G: Game>(g: &G, run: &Run) -> SearchSpec {
    SearchSpec {
        algorithm: run.algorithm,
        variant: run.variant.unwrap_or(crate::search::Variant::FailSoft),
        depth: match run.depth {
            Depth::Plies(d) => d,
            Depth::Full => plies_left(g),
        },
        ordering: run.ordering.clone(),
        tie_break: run.tie_break,
        max_nodes: run.max_nodes,
        max_seconds: run.max_seconds,
        quiescence: run.quiescence,
        tt: run.tt,
        iterative: run.iterative,
    }
}

/// The most plies the game can still last from `g`: none when it is over, whatever its board
/// leaves empty.
fn plies_left<G: Game>(g: &G) -> u32 {
    if g.outcome().is_some() {
        0
    } else {
        g.max_remaining_plies()
    }
}

/// The most plies the game can still last from the run's position (what `depth = "full"`
/// searches, and where the searcher caps any depth).
pub fn plies_left_of(run: &Run) -> std::result::Result<u32, String> {
    with_game!(run, |g| Ok(plies_left(&g)))
}

/// The `depth` and `theory_depth` a record of `run` holds: the depth its search uses and
/// that depth capped at the plies the game can still last.
pub fn record_depths(run: &Run) -> std::result::Result<(u32, u32), String> {
    with_game!(run, |g| {
        let d = spec_for(&g, run).depth;
        Ok((d, capped(&g, d)))
    })
}

/// A record's `theory_depth`: `depth` capped at the plies the game can still last from `g`.
fn capped<G: Game>(g: &G, depth: u32) -> u32 {
    depth.min(plies_left(g))
}

/// The depth the run's search starts from: its `depth`, capped (as the searcher caps it) at
/// the most plies the game can still last from the position, which is what `depth = "full"`
/// is (0 when the game is over).
pub fn search_depth(run: &Run) -> std::result::Result<u32, String> {
    with_game!(run, |g| Ok(capped(&g, spec_for(&g, run).depth)))
}

/// Checks what can only be checked against a position (e.g. explicit orders), before any
/// search starts.
pub fn validate(run: &Run) -> std::result::Result<(), String> {
    with_game!(run, |g| {
        let mut spec = spec_for(&g, run);
        // The table's size is checked here; the searcher built to check everything else gets
        // the smallest table of the scheme, so that validating does not allocate (and write)
        // every run's full table.
        if let Some(t) = &mut spec.tt {
            crate::search::tt::check_entries(t.entries, t.replacement)?;
            t.entries = t.replacement.slots();
        }
        Searcher::new(&g, &spec, run.seed)?;
        Ok(())
    })
}

/// Runs one search. An error setting the search up is the user's table (`Error::Table`, exit
/// 2): `validate` has built the same searcher with everything but the table's full size, so
/// what is left to fail is the table's allocation, a size the process cannot get (under a
/// memory limit such as `ulimit -v`, which the check against the machine's memory cannot
/// see).
pub fn execute(run: &Run) -> Result<RunRecord> {
    let built = || -> std::result::Result<Result<RunRecord>, String> {
        Ok(with_game!(run, |g| execute_game(g, run)))
    };
    built().map_err(|e| Error::input(format!("run {}: {e}", run.key)))?
}

fn execute_game<G: Game>(mut g: G, run: &Run) -> Result<RunRecord> {
    let spec = spec_for(&g, run);
    // The reason first; the run's key (long) last.
    let setup = |e: String| Error::Table(format!("{e} (run {})", run.key));
    let theory_depth = capped(&g, spec.depth);
    if run.algorithm == crate::search::Algorithm::Solve {
        let tech = run.solver.unwrap_or(crate::search::solver::Techniques::ALL);
        let result =
            crate::search::solver::solve(&mut g, &spec, tech, false, run.seed).map_err(setup)?;
        return Ok(RunRecord {
            run: run.clone(),
            depth: spec.depth,
            theory_depth,
            status: result.status,
            value: result.value,
            best_move: String::new(),
            pv: String::new(),
            counters: result.counters,
            bm_hit: None,
            iterations: Vec::new(),
            reference: None,
        });
    }
    let mut searcher = Searcher::new(&g, &spec, run.seed).map_err(setup)?;
    let result = searcher.run(&mut g);
    let mut line = g.clone();
    let mut pv = Vec::new();
    for &m in &result.pv {
        pv.push(line.format_move(m));
        line.make(m);
    }
    let reference = if run.reference && run.tt.is_some() && result.status == Status::Ok {
        Some(reference(&g, &spec, run.seed, &result).map_err(Error::Internal)?)
    } else {
        None
    };
    Ok(RunRecord {
        run: run.clone(),
        depth: spec.depth,
        theory_depth,
        status: result.status,
        value: result.value,
        best_move: result
            .best_move
            .map(|m| g.format_move(m))
            .unwrap_or_default(),
        pv: pv.join(" "),
        counters: result.counters,
        bm_hit: result.best_move.and_then(|m| g.suite_hit(m)),
        iterations: result.iterations,
        reference,
    })
}

/// The same search without a table (uncounted): is the root value right, and is the chosen
/// move one of the best? The chosen move is checked by searching the position after it,
/// without a table, one ply shallower.
fn reference<G: Game>(
    root: &G,
    spec: &SearchSpec,
    seed: u64,
    result: &SearchResult<G::Move>,
) -> std::result::Result<Reference, String> {
    let plain = SearchSpec {
        tt: None,
        iterative: false,
        max_nodes: None,
        max_seconds: None,
        ..spec.clone()
    };
    let mut g = root.clone();
    let expected = crate::search::search(&mut g, &plain, seed)?;
    let move_wrong = match result.best_move {
        Some(m) => {
            g.make(m);
            let child = SearchSpec {
                depth: spec.depth - 1,
                ..plain.clone()
            };
            // Explicit orders name moves of the root: resolved there, as the search did.
            let mut s = crate::search::Searcher::with_order_root(&g, root, &child, seed)?;
            let v = -s.run(&mut g).value;
            v < expected.value
        }
        None => false,
    };
    Ok(Reference {
        value: expected.value,
        value_wrong: result.value != expected.value,
        move_wrong,
    })
}

/// Checks every run of the plan against its position (see `validate`).
pub fn validate_plan(plan: &Plan) -> Result<()> {
    match first_invalid(plan) {
        Some((run, e, _)) => Err(Error::input(format!("run {}: {e}", run.key))),
        None => Ok(()),
    }
}

/// The first run that `validate` refuses, with the reason; then a run whose ordering repeats
/// another's in other spellings (`same_orderings`), with the other run.
fn first_invalid(plan: &Plan) -> Option<(&Run, String, Option<&Run>)> {
    plan.runs
        .iter()
        .find_map(|run| validate(run).err().map(|e| (run, e, None)))
        .or_else(|| same_orderings(plan).map(|(a, b, e)| (b, e, Some(a))))
}

/// Two orderings of a grid that are one ordering under two names are one ordering searched
/// twice: an explicit list that spells its moves two ways (`explicit:4` and `explicit:04` in
/// Connect Four) or splits into consecutive lists (`explicit:4,0` and `explicit:4+explicit:0`),
/// or chess's `static` order also named `mvv-lva`. Each is compared in its
/// canonical form (`canonical_ordering`). The two runs (in key order) and the reason.
fn same_orderings(plan: &Plan) -> Option<(&Run, &Run, String)> {
    use crate::search::{OrderTerm, Ordering};
    // The terms a canonical form can rewrite; runs with none of them are their own form.
    let rewritable = |t: &OrderTerm| {
        matches!(
            t,
            OrderTerm::Explicit(_) | OrderTerm::Static | OrderTerm::MvvLva
        )
    };
    let mut seen: std::collections::BTreeMap<String, &Run> = Default::default();
    for run in &plan.runs {
        if !run.ordering.terms.iter().any(rewritable) {
            continue;
        }
        // (A move the game refuses is `validate`'s to report, and it has passed.)
        let Ok(canonical) = canonical_ordering(run) else {
            continue;
        };
        let text = run.ordering.to_string();
        let key = run.key.replacen(
            &format!("ordering={text};"),
            &format!("ordering={canonical};"),
            1,
        );
        match seen.get(&key) {
            Some(first) if first.ordering != run.ordering => {
                let mvv = |o: &Ordering| o.has(&OrderTerm::MvvLva);
                let why = if mvv(&first.ordering) != mvv(&run.ordering) {
                    "`mvv-lva` is chess's `static` under its usual name".to_string()
                } else if split_explicit(&first.ordering) || split_explicit(&run.ordering) {
                    format!("`{canonical}` in the game's notation (explicit lists one after the other rank as one list)")
                } else {
                    format!("`{canonical}` in the game's notation")
                };
                return Some((
                    first,
                    run,
                    format!(
                        "the orderings `{}` and `{text}` are one ordering, {why}; allowed: each ordering once",
                        first.ordering
                    ),
                ));
            }
            _ => {
                seen.insert(key, run);
            }
        }
    }
    None
}

/// The run's ordering with each term under its one name (`OrderTerm::canonical`) and each
/// explicit move read by the game at the run's position and written back in the game's
/// notation.
fn canonical_ordering(run: &Run) -> std::result::Result<crate::search::Ordering, String> {
    use crate::search::OrderTerm;
    with_game!(run, |g| {
        let mut terms = run.ordering.terms.clone();
        for t in &mut terms {
            if let OrderTerm::Explicit(list) = t {
                for m in list.iter_mut() {
                    *m = g.format_move(g.parse_move(m)?);
                }
            } else {
                *t = t.canonical().clone();
            }
        }
        // Consecutive explicit lists are one list: `explicit:4+explicit:0` ranks 4, then 0,
        // then the rest, as `explicit:4,0` does.
        let mut merged: Vec<OrderTerm> = Vec::with_capacity(terms.len());
        for t in terms {
            match (merged.last_mut(), t) {
                (Some(OrderTerm::Explicit(a)), OrderTerm::Explicit(b)) => a.extend(b),
                (_, t) => merged.push(t),
            }
        }
        Ok(crate::search::Ordering { terms: merged })
    })
}

/// Whether the ordering writes two explicit lists one after the other (one list, as
/// `canonical_ordering` reads them).
fn split_explicit(o: &crate::search::Ordering) -> bool {
    use crate::search::OrderTerm;
    o.terms
        .windows(2)
        .any(|w| matches!(w, [OrderTerm::Explicit(_), OrderTerm::Explicit(_)]))
}

/// `validate_plan` for the experiment file at `path` (text `src`): an error names the file and
/// the line:column of the key it comes from (`ordering`, which most of them concern, else
/// `algorithm`), then the run.
pub fn validate_plan_in(plan: &Plan, path: &Path, src: &str) -> Result<()> {
    let Some((run, e, other)) = first_invalid(plan) else {
        return Ok(());
    };
    let key = if e.contains("ordering") {
        "ordering"
    } else {
        "algorithm"
    };
    let msg = format!(
        "[search] {key}: {e} (position `{}`; run {})",
        crate::games::shown(&run.position),
        run.key
    );
    if key == "ordering" {
        // At the ordering as written in the list, when it is one (the later of two that
        // are one ordering).
        let at = std::iter::once(run)
            .chain(other)
            .filter_map(|r| config::ordering_at(src, &r.ordering))
            .max()
            .unwrap_or(0);
        return Err(config::at(path, src, at..at, msg));
    }
    Err(config::at_key(path, src, &["search", key], msg))
}

/// A table that does not fit (`Error::Table`) as an input error placed in the experiment
/// file at the table's size (`entries` or `mib`; `[search]` when the size is the default).
/// Other errors pass through.
pub fn place_table_error(e: Error, path: &Path, src: &str) -> Error {
    let Error::Table(msg) = e else {
        return e;
    };
    let (key, at) = ["mib", "entries"]
        .into_iter()
        .find_map(|k| largest_size_at(src, k).map(|at| (k, at)))
        .unwrap_or((
            "entries",
            config::locate(src, &["search", "tt", "entries"]).unwrap_or(0),
        ));
    config::at(path, src, at..at, format!("[search.tt] {key}: {msg}"))
}

/// Where the file writes the largest table size of `[search.tt] key` (`entries` or `mib`):
/// the largest number of its list (`entries = [1024, 1073741824]`: at `1073741824`), or its
/// one value; the key when the value is neither.
fn largest_size_at(src: &str, key: &str) -> Option<usize> {
    let at_key = config::locate_exact(src, &["search", "tt", key])?;
    let largest = || {
        let doc = toml_edit::ImDocument::parse(src).ok()?;
        let value = doc.get("search")?.get("tt")?.get(key)?.as_value()?;
        let number = |v: &toml_edit::Value| {
            v.as_integer()
                .map(|n| n as f64)
                .or_else(|| v.as_float())
                .filter(|n| !n.is_nan())
        };
        match value.as_array() {
            Some(list) => list
                .iter()
                .filter_map(|v| Some((number(v)?, v.span()?.start)))
                // The first of equal largest numbers.
                .fold(None, |best: Option<(f64, usize)>, (n, at)| match best {
                    Some((m, _)) if m >= n => best,
                    _ => Some((n, at)),
                })
                .map(|(_, at)| at),
            None => value.span().map(|s| s.start),
        }
    };
    Some(largest().unwrap_or(at_key))
}

/// The plan's runs as records with empty results (depth `full` resolved against each
/// position): what runs.csv's parameter columns will be, before anything is searched.
pub fn blank_records(plan: &Plan) -> Vec<RunRecord> {
    plan.runs
        .iter()
        .map(|run| RunRecord {
            run: run.clone(),
            // `full` resolved as the search resolves it, so that the layout's checks (a log
            // x axis, the series' labels) see the depths runs.csv will hold.
            depth: match run.depth {
                Depth::Plies(d) => d,
                Depth::Full => search_depth(run).unwrap_or(0),
            },
            theory_depth: 0,
            status: Status::Ok,
            value: 0,
            best_move: String::new(),
            pv: String::new(),
            counters: Default::default(),
            bm_hit: None,
            iterations: Vec::new(),
            reference: None,
        })
        .collect()
}

/// Checks that the largest table times the runs searched at once fits in the machine's
/// memory (each thread holds one run's table at a time).
pub fn check_table_memory(plan: &Plan, jobs: usize) -> Result<()> {
    let threads = if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    }
    .min(plan.runs.len()) as u64;
    let biggest = plan
        .runs
        .iter()
        .filter_map(|r| r.tt.as_ref())
        .map(|t| t.bytes())
        .max();
    let Some(b) = biggest else {
        return Ok(());
    };
    if let Some(mem) = crate::search::tt::machine_memory() {
        if b.saturating_mul(threads) > mem {
            return Err(Error::Table(format!(
                "{threads} runs at once, each with a table of up to {b} bytes, need more than this machine's memory ({mem} bytes); lower --jobs or the table size"
            )));
        }
    }
    // The machine may hold them while this process may not get them (a `ulimit -v`, a
    // container's limit): the runs' threads are started as the search starts them, each
    // reserves its table (and, by a small allocation first, its allocator's arena), all hold
    // them at once, then give them back, before the results folder is touched. Reserved, not
    // written: no page is touched, so this costs no time and no memory where the limit allows
    // it. Without it, the first run to allocate its table would stop the experiment after an
    // earlier run's results in the folder had been superseded.
    let refused = || {
        Error::Table(format!(
            "{threads} run(s) at once, each with a table of up to {b} bytes, need more memory than this process can get; lower --jobs or the table size"
        ))
    };
    let bytes = usize::try_from(b).map_err(|_| refused())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .build()
        .map_err(|_| refused())?;
    let all_in = std::sync::Barrier::new(threads as usize);
    let got = pool.broadcast(|_| {
        let small: Vec<u64> = Vec::with_capacity(8);
        let mut table: Vec<u8> = Vec::new();
        let ok = table.try_reserve_exact(bytes).is_ok();
        // Every thread waits here, whether or not it got its table, so that all are held
        // at once.
        all_in.wait();
        drop((small, table));
        ok
    });
    if got.iter().all(|&ok| ok) {
        Ok(())
    } else {
        Err(refused())
    }
}

/// Makes sure `dir` exists and can be written, before any search runs.
pub fn prepare_output(dir: &Path) -> Result<()> {
    let bad = |d: &Path, e: std::io::Error| {
        Error::input(format!(
            "output directory {}: cannot be written ({e}); pass a writable folder with --out DIR",
            d.display()
        ))
    };
    crate::report::check_path_room(
        dir,
        "pass a shorter --out DIR; a relative one counts from the current folder",
    )?;
    // A file (or a device, a pipe, a link to nothing) where the folder, or one of the
    // folders above it, should be.
    let not_folder = |p: &&Path| crate::report::entry_kind(p).is_some_and(|k| k != "a folder");
    if let Some(file) = dir.ancestors().find(not_folder) {
        let kind = crate::report::entry_kind(file).unwrap_or("a file");
        let what = if file == dir {
            format!("is {kind}, not a folder")
        } else {
            format!("{} is {kind}, not a folder", file.display())
        };
        return Err(Error::input(format!(
            "output directory {}: {what}; pass a folder with --out DIR",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| bad(dir, e))?;
    crate::report::check_output_names(dir, ", or pass another --out DIR")?;
    // The folder, and its charts/ from an earlier run, which the report is written into.
    match crate::report::unwritable(dir) {
        Some((d, e)) => Err(bad(&d, e)),
        None => Ok(()),
    }
}

/// An exclusive lock on a results folder, held while it lives, so that two runs into one
/// folder cannot interleave their partial files and outputs. The OS releases it when the
/// process ends, however it ends: a killed run leaves no stale lock.
pub struct FolderLock {
    _held: Option<File>,
}

/// Locks `dir` (which exists) for one `harness run`; an input error if another run holds it.
/// Where a folder cannot be opened or locked (not Unix, a file system without locks) there
/// is no lock, and no error.
pub fn lock_output(dir: &Path) -> Result<FolderLock> {
    // Only a folder is opened: opening a pipe would wait for a writer.
    if !dir.is_dir() {
        return Ok(FolderLock { _held: None });
    }
    let Ok(f) = File::open(dir) else {
        return Ok(FolderLock { _held: None });
    };
    match f.try_lock() {
        Ok(()) => Ok(FolderLock { _held: Some(f) }),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::input(format!(
            "{}: another `harness run` (or a `harness merge` or `harness plot`) is writing into this folder; wait for it to finish (a run that is stopped resumes when rerun), or pass another --out DIR",
            dir.display()
        ))),
        Err(std::fs::TryLockError::Error(_)) => Ok(FolderLock { _held: None }),
    }
}

/// Searches the plan's runs `todo` (indexes) on `opts.jobs` threads, with a progress bar on
/// stderr (unless `opts.quiet`) that counts `already` runs as done; `done` is called with each
/// record as it finishes. The records in completion order.
pub fn search_all(
    plan: &Plan,
    todo: &[usize],
    already: usize,
    opts: &RunOptions,
    done: impl Fn(&RunRecord, &ProgressBar) + Sync,
) -> Result<Vec<RunRecord>> {
    let bar =
        ProgressBar::with_draw_target(Some(plan.runs.len() as u64), ProgressDrawTarget::hidden());
    // Runs done already show as done; the time estimate is for the runs still to search.
    bar.set_position(already as u64);
    bar.reset_eta();
    if !opts.quiet && std::io::stderr().is_terminal() {
        // Styled before it is shown, so nothing is drawn in the default style.
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} runs (eta {eta})",
            )
            .expect("a valid template"),
        );
        bar.set_prefix(plan.name.clone());
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    // No more threads than runs (0: rayon's default, one per core).
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.min(todo.len().max(1)))
        .build()
        .map_err(|e| Error::Internal(format!("thread pool: {e}")))?;
    let results: Vec<Result<RunRecord>> = pool.install(|| {
        todo.par_iter()
            .map(|&i| {
                let rec = execute(&plan.runs[i])?;
                done(&rec, &bar);
                bar.inc(1);
                Ok(rec)
            })
            .collect()
    });
    bar.finish_and_clear();
    results.into_iter().collect()
}

/// Runs every run of the plan that `opts.done` does not already hold and writes
/// `dir/runs.csv`, keeping `dir/runs.csv.partial` (see `partial::remove`). Returns the
/// records, sorted.
pub fn run_plan(plan: &Plan, dir: &Path, mut opts: RunOptions) -> Result<Vec<RunRecord>> {
    validate_plan(plan)?;
    check_table_memory(plan, opts.jobs)?;
    prepare_output(dir)?;
    // The finished runs become records here; the map of them goes at once (a resumed run's
    // or a merge's runs are not held twice).
    let (kept, todo) = partial::split(plan, &std::mem::take(&mut opts.done));
    let header = opts
        .header
        .clone()
        .unwrap_or_else(|| partial::Header::unresumable(&plan.name));
    let partial = Mutex::new(partial::Writer::create(dir, &header, &kept)?);
    // The first failure to append to the partial file is reported (on stderr, also with
    // --quiet): the run goes on, but a kill from then on would lose the runs not recorded.
    let warned = std::sync::atomic::AtomicBool::new(false);
    let results = search_all(plan, &todo, kept.len(), &opts, |rec, bar| {
        if let Ok(mut f) = partial.lock() {
            if let Err(e) = f.push(rec) {
                if !warned.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    bar.suspend(|| {
                        let text = format!(
                            "warning: {}: cannot append to {} ({e}); the run goes on and writes runs.csv at the end, but if it is stopped before then, the runs finished from here on are searched again",
                            plan.name,
                            dir.join(partial::FILE).display()
                        );
                        eprintln!("{}", crate::games::terminal_safe(&text))
                    });
                }
            }
        }
    })?;
    // The resumed runs join the searched ones (not the other way: the larger vector is not
    // copied); run keys are unique, so the unstable sort (no buffer) orders them as a stable one.
    let mut records = results;
    records.extend(kept);
    records.sort_unstable_by(|a, b| a.run.key.cmp(&b.run.key));
    csv::write_runs(&dir.join("runs.csv"), &plan.name, &records)?;
    // The partial file stays until the caller has marked the run finished (the manifest's
    // end time) and calls `partial::remove`: a run killed between the two is resumed whole.
    drop(partial);
    Ok(records)
}
