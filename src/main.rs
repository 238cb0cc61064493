//! The `harness` binary: parses the command line, calls the library, maps errors to exit
//! codes (0 ok, 1 internal failure, 2 bad input).

mod cli;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use anyhow::Context;
use harness::experiment::{config, partial, plan, runner, shard};
use harness::report;
use harness::Error;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(2),
            };
        }
    };
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`| head`): what it read was complete, and nothing is left
        // to report to it.
        Err(e) if is_pipe_closed(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let input = e
                .chain()
                .any(|c| c.downcast_ref::<Error>().is_some_and(Error::is_input));
            note(format_args!("error: {e:#}"));
            ExitCode::from(if input { 2 } else { 1 })
        }
    }
}

/// stdout was closed by its reader (a pipe into `head`).
#[derive(Debug)]
struct PipeClosed;

impl std::fmt::Display for PipeClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stdout closed by its reader")
    }
}

impl std::error::Error for PipeClosed {}

/// Whether `e` is, or was caused by, stdout closed by its reader.
fn is_pipe_closed(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<PipeClosed>().is_some())
}

/// Writes to stdout. A closed pipe is `PipeClosed` (the command ends quietly with status 0),
/// never a panic as `print!` would give.
fn say(text: std::fmt::Arguments) -> anyhow::Result<()> {
    let mut o = std::io::stdout().lock();
    match o
        .write_all(terminal_safe(text).as_bytes())
        .and_then(|()| o.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(PipeClosed.into()),
        r => Ok(r.context("writing to standard output")?),
    }
}

/// Writes a line to stderr; a closed stderr loses the note rather than panicking.
fn note(text: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{}", terminal_safe(text));
}

/// A message with its control and bidirectional characters escaped (`games::terminal_safe`).
fn terminal_safe(text: std::fmt::Arguments) -> String {
    harness::games::terminal_safe(&text.to_string()).into_owned()
}

fn dispatch(cmd: cli::Command) -> anyhow::Result<()> {
    match cmd {
        cli::Command::Run(a) => run(a),
        cli::Command::Merge(a) => merge(a),
        cli::Command::Verify(a) => verify(a),
        cli::Command::Plot { dir } => {
            // Held while the report is written: a run, or another plot, into the same folder
            // waits its turn rather than writing the same files at once.
            let Ok(_lock) = runner::lock_output(&dir) else {
                return Err(harness::error::Error::input(format!(
                    "{}: a `harness run` or another `harness plot` is writing into this folder; plot it once that has finished (a run writes its report itself)",
                    dir.display()
                ))
                .into());
            };
            let built = report::build(&dir)?;
            warn_skipped(&dir.display().to_string(), &built);
            say(format_args!(
                "{}: {}, {} -> {}\n",
                dir.display(),
                counted(built.groups, "group"),
                counted(built.charts, "chart"),
                dir.join("report.md").display()
            ))
        }
        cli::Command::List => say(format_args!("{}", harness::experiment::catalog())),
        cli::Command::Perft { fen, depth, divide } => perft(&fen, depth, divide),
        cli::Command::Theory(a) => theory(a),
        cli::Command::Solve(a) => solve(a),
    }
}

/// The experiment file read, planned and checked as every command that runs or merges it
/// checks it, before any folder is touched.
fn load_checked(file: &Path) -> anyhow::Result<(config::ExperimentFile, String, plan::Plan)> {
    let (parsed, src) = config::load(file)?;
    let plan = plan::build(file, &src, &parsed)?;
    runner::validate_plan_in(&plan, file, &src)?;
    report::check_layout(
        &runner::blank_records(&plan),
        &plan.name,
        parsed.report.as_ref(),
        file,
        &src,
    )?;
    Ok((parsed, src, plan))
}

/// `harness run`: checks the experiment, searches every run (resuming an interrupted run of
/// the same plan), writes runs.csv and the manifest, then the report. With `--shard I/N`,
/// only the runs of shard I, into the shard's folder, without a report.
fn run(a: cli::RunArgs) -> anyhow::Result<()> {
    let cli::RunArgs {
        file,
        out,
        jobs,
        quiet,
        fresh,
        shard,
    } = a;
    let jobs = usize::from(jobs);
    let (parsed, src, plan) = load_checked(&file)?;
    warn_positions(
        &plan.name,
        "searched under more than one position_id, each of which counts in the statistics as a position of its own",
        &plan.repeated_positions(),
    );
    warn_positions(
        &plan.name,
        "from which two depths of the list search the same plies (the search stops where the game ends, as \"full\" does), so those runs search one tree twice and count twice in the statistics",
        &plan.depths_searching_one_tree(),
    );
    // A shard's partial file and shard.jsonl carry the whole plan's header: the merge checks
    // every shard against the plan it makes itself.
    let header = partial::Header::current(&plan);
    let total = plan.runs.len();
    let plan = match shard {
        Some(s) => s.select(&plan),
        None => plan,
    };
    let results = PathBuf::from("results").join(&plan.name);
    // Where this run writes by default: the results folder, or the shard's inside it.
    let home = match shard {
        Some(s) => results.join(s.folder()),
        None => results.clone(),
    };
    let dir = out.unwrap_or_else(|| home.clone());
    // Everything is checked before the folder gets its experiment copy and manifest.
    runner::check_table_memory(&plan, jobs)
        .map_err(|e| runner::place_table_error(e, &file, &src))?;
    let (_lock, earlier) = open_output(&dir, &file, &parsed, &plan.name)?;
    // A shard and a whole run (or two shards) never share a folder: one would replace the
    // other's results with another set of runs.
    if let Some(m) = earlier
        .as_ref()
        .filter(|m| m.shard.as_deref() != shard.map(|s| s.to_string()).as_deref())
    {
        let theirs = m.shard.as_deref().map_or(
            format!("the results of a whole run of `{}`", plan.name),
            |s| format!("shard {s} of `{}`", plan.name),
        );
        let ours = shard.map_or("this whole run".to_string(), |s| format!("shard {s}"));
        return Err(harness::Error::input(format!(
            "{}: holds {theirs} (manifest.json), which {ours} would replace with other runs; allowed: a new or empty folder, or {ours}'s own (default {}); pass another --out DIR, or move the files away",
            dir.display(),
            home.display()
        ))
        .into());
    }
    // A whole run's folder with a shard's runs file (its manifest lost the `shard` field, or
    // the file was put there): the report refuses such a folder, so the run would search
    // everything, replace runs.csv and then fail with no report. Refused before that.
    let jsonl = dir.join(shard::FILE);
    if shard.is_none() && shard::present(&dir) {
        return Err(harness::Error::input(format!(
            "{}: holds {} (a shard's runs, which `harness merge` reads), so the folder is a shard's, and a whole run's report cannot be written there; allowed: a new or empty folder, or the whole run's own (default {}); pass another --out DIR, or move {} away",
            dir.display(),
            shard::FILE,
            home.display(),
            jsonl.display()
        ))
        .into());
    }
    // An interrupted run of the same plan by the same build: its finished runs are
    // taken as they are (a partial file of anything else is an error, before the
    // folder is touched).
    let finished = earlier.is_some_and(|m| m.finished.is_some());
    let done = interrupted_runs(&dir, finished, &header, fresh, "search every run")?;
    partial::check_depths(&plan, &done, &dir.join(partial::FILE))?;
    let resumed = partial::resumable(&plan, &done);
    if resumed > 0 && !quiet {
        note(format_args!(
            "{}: resuming: {resumed} of {} runs were finished by an earlier, interrupted run ({}); {} to search",
            plan.name,
            plan.runs.len(),
            dir.join(partial::FILE).display(),
            plan.runs.len() - resumed
        ));
    }
    if plan.runs.is_empty() && !quiet {
        if let Some(s) = shard {
            note(format_args!(
                "{}: shard {s} holds none of the {total} runs; it is written empty, for the merge",
                plan.name
            ));
        }
    }
    let mut manifest = report::manifest::Manifest::start(
        &plan.name,
        &file,
        &src,
        parsed.seed,
        jobs,
        plan.runs.len(),
    );
    manifest.resumed = (resumed > 0).then_some(resumed);
    manifest.shard = shard.map(|s| s.to_string());
    // The unfinished manifest first: from here until it is finished, the folder is
    // marked as a run in progress (`harness plot` refuses it), whatever else it holds.
    // Then the new experiment's copy, and no report of an earlier run.
    manifest.write(&dir)?;
    report::save_experiment(&dir, &src)?;
    report::remove_report(&dir)?;
    let opts = runner::RunOptions {
        jobs,
        quiet,
        header: Some(header.clone()),
        done,
    };
    let records = runner::run_plan(&plan, &dir, opts)
        .map_err(|e| runner::place_table_error(e, &file, &src))?;
    let budget = stopped(&records);
    let resumed_note = if resumed > 0 {
        format!(", {resumed} resumed")
    } else {
        String::new()
    };
    if let Some(s) = shard {
        // The shard's runs for the merge, then its end time: a folder with a finished
        // manifest always has its shard.jsonl.
        shard::write(&dir, &header, &records)?;
        manifest.finish(records.len());
        manifest.write(&dir)?;
        partial::remove(&dir)?;
        // The merge finds shards by itself in their default folders; elsewhere it is told.
        let how = if dir == home {
            format!(
                "`harness merge {}` merges the folders named shard-I-of-N in {} (or list the shard folders after the file)",
                file.display(),
                results.display()
            )
        } else {
            format!(
                "`harness merge {} {} ...` merges them: list the {} shard folders after the file",
                file.display(),
                dir.display(),
                s.count
            )
        };
        return say(format_args!(
            "{}: shard {s}: {} of {total} runs ({budget} stopped by a budget{resumed_note}) -> {}\n{}: once all {} shards have finished, {how}\n",
            plan.name,
            records.len(),
            dir.join("runs.csv").display(),
            plan.name,
            s.count,
        ));
    }
    let n = records.len();
    let built = finish(&plan, &dir, &mut manifest, records)?;
    say_written(
        &plan.name,
        &format!(
            "{} ({budget} stopped by a budget{resumed_note})",
            counted(n, "run")
        ),
        &dir,
        &built,
    )
}

/// The finished runs of an interrupted run in `dir`'s runs.csv.partial (`partial::load`;
/// `then`: what the command does with --fresh, for its message). A partial file beside a
/// manifest with its end time (`finished`) is a finished run's, killed after the end time and
/// before it removed the file: every run is in runs.csv, nothing is interrupted, so the
/// leftover goes (rather than being resumed, or refused as an unfinished run's).
fn interrupted_runs(
    dir: &Path,
    finished: bool,
    header: &partial::Header,
    fresh: bool,
    then: &str,
) -> anyhow::Result<std::collections::HashMap<String, partial::Finished>> {
    if finished {
        partial::remove(dir)?;
    }
    Ok(partial::load(dir, header, fresh, then)?)
}

/// Readies the results folder `dir` of experiment `name` (from `file`) to be written: made
/// and writable, no input file where the run writes, locked, and holding no other results.
/// The lock, and the folder's manifest when it holds results of `name`.
fn open_output(
    dir: &Path,
    file: &Path,
    parsed: &config::ExperimentFile,
    name: &str,
) -> anyhow::Result<(runner::FolderLock, Option<report::manifest::Manifest>)> {
    runner::prepare_output(dir)?;
    report::check_inputs_outside(dir, file, &input_files(file, parsed))?;
    let lock = runner::lock_output(dir)?;
    let earlier = report::check_results_folder(dir, name, file)?;
    Ok((lock, earlier))
}

/// The files an experiment reads: the experiment file and its positions files (relative to
/// the experiment file's folder).
fn input_files(file: &Path, parsed: &config::ExperimentFile) -> Vec<PathBuf> {
    let folder = file.parent().unwrap_or(Path::new(""));
    let positions = parsed.game.positions_file.iter();
    std::iter::once(file.to_path_buf())
        .chain(positions.flat_map(|f| f.get_ref().values().iter().map(|p| folder.join(p))))
        .collect()
}

/// A warning on stderr naming `lines` (positions, the first five) of experiment `name` that
/// `what` says of them; none when there are none.
fn warn_positions(name: &str, what: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    const SHOWN: usize = 5;
    let more = lines.len().saturating_sub(SHOWN);
    note(format_args!(
        "warning: {name}: {} position(s) {what}: {}{}",
        lines.len(),
        lines[..lines.len().min(SHOWN)].join("; "),
        if more > 0 {
            format!("; and {more} more")
        } else {
            String::new()
        }
    ));
}

/// `harness merge`: the shards of one experiment (`harness run --shard`) into one results
/// folder, written as `harness run` writes it, every run taken from its shard.
fn merge(a: cli::MergeArgs) -> anyhow::Result<()> {
    let cli::MergeArgs {
        file,
        shards,
        out,
        fresh,
    } = a;
    let (parsed, src, plan) = load_checked(&file)?;
    let dir = out.unwrap_or_else(|| PathBuf::from("results").join(&plan.name));
    let shards = if shards.is_empty() {
        shard::find(&dir)?
    } else {
        shards
    };
    let header = partial::Header::current(&plan);
    if shards.is_empty() {
        return Err(harness::Error::input(format!(
            "{}: no shard folders (named shard-I-of-N) in it; `harness run {} --shard I/N` writes shard I of N into {} (or --out DIR); or list the shard folders after the experiment file",
            dir.display(),
            file.display(),
            dir.join("shard-I-of-N").display()
        ))
        .into());
    }
    let merged = shard::gather(&plan, &header, &shards)?;
    if let Some(s) = shards.iter().find(|s| report::same_path(s, &dir)) {
        return Err(harness::Error::input(format!(
            "{}: is a shard folder as well as the output folder; the merge writes into a folder of its own (--out DIR; default results/{})",
            s.display(),
            plan.name
        ))
        .into());
    }
    let (_lock, earlier) = open_output(&dir, &file, &parsed, &plan.name)?;
    // A shard's folder (of another split, or of this one not named) keeps its shard.
    if earlier.as_ref().is_some_and(|m| m.shard.is_some()) || shard::present(&dir) {
        return Err(harness::Error::input(format!(
            "{}: holds {} of `{}`, which the merge would replace; the merge writes into a folder of its own (--out DIR; default results/{})",
            dir.display(),
            earlier
                .and_then(|m| m.shard)
                .map_or("a shard".to_string(), |s| format!("shard {s}")),
            plan.name,
            plan.name
        ))
        .into());
    }
    // As for `harness run`: a partial file of an interrupted run that holds runs of another
    // plan or build (which the merge cannot take either) is refused unless --fresh. The
    // merge writes its own over it.
    let finished = earlier.as_ref().is_some_and(|m| m.finished.is_some());
    interrupted_runs(&dir, finished, &header, fresh, "merge")?;
    let mut manifest =
        report::manifest::Manifest::start(&plan.name, &file, &src, parsed.seed, 1, plan.runs.len());
    manifest.threads = merged.shards.iter().map(|s| s.threads).max().unwrap_or(1);
    let mut cpus: Vec<&str> = merged
        .shards
        .iter()
        .filter_map(|s| s.cpu.as_deref())
        .collect();
    cpus.sort_unstable();
    cpus.dedup();
    manifest.cpu = (!cpus.is_empty()).then(|| cpus.join("; "));
    let count = merged.shards.len();
    manifest.merged = merged.shards;
    let _shard_locks = merged.locks;
    manifest.write(&dir)?;
    report::save_experiment(&dir, &src)?;
    report::remove_report(&dir)?;
    // Every run is finished in its shard: the runner searches none, and writes runs.csv as
    // it writes a resumed run's.
    let opts = runner::RunOptions {
        jobs: 1,
        quiet: true,
        header: Some(header),
        done: merged.done,
    };
    let records = runner::run_plan(&plan, &dir, opts)?;
    let budget = stopped(&records);
    let n = records.len();
    let built = finish(&plan, &dir, &mut manifest, records)?;
    say_written(
        &plan.name,
        &format!(
            "{} from {} ({budget} stopped by a budget)",
            counted(n, "run"),
            counted(count, "shard")
        ),
        &dir,
        &built,
    )
}

/// Runs a budget stopped.
fn stopped(records: &[harness::report::csv::RunRecord]) -> usize {
    records
        .iter()
        .filter(|r| r.status != harness::search::Status::Ok)
        .count()
}

/// The two lines a run or merge ends with: what runs.csv holds (`runs`), and the report.
fn say_written(name: &str, runs: &str, dir: &Path, built: &report::Built) -> anyhow::Result<()> {
    say(format_args!(
        "{name}: {runs} -> {}\n{name}: {}, {} -> {}\n",
        dir.join("runs.csv").display(),
        counted(built.groups, "group"),
        counted(built.charts, "chart"),
        dir.join("report.md").display()
    ))
}

/// `n` and `noun`, the noun plural unless `n` is 1 ("1 run", "0 charts", "3 groups").
fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `harness verify`: the runs searched again (all, or a shard's) and compared with a results
/// folder's runs.csv (and a shard folder's shard.jsonl, which `harness merge` reads).
/// Differences are a finding: on stdout, and exit 1.
fn verify(a: cli::VerifyArgs) -> anyhow::Result<()> {
    use harness::experiment::verify::{self, Scope};
    let cli::VerifyArgs {
        file,
        dir,
        jobs,
        shard: asked,
        quiet,
    } = a;
    let jobs = usize::from(jobs);
    let (_, src, full) = load_checked(&file)?;
    let dir = dir.unwrap_or_else(|| PathBuf::from("results").join(&full.name));
    if dir.is_file() {
        return Err(harness::Error::input(format!(
            "{}: a file, not a folder; allowed: the results folder `harness run {}` wrote (default results/{})",
            dir.display(),
            file.display(),
            full.name
        ))
        .into());
    }
    let csv_path = dir.join("runs.csv");
    // A shard's folder is verified as that shard, unless --shard names another. A manifest
    // that does not read, or names no shard harness writes, is bad input (it was taken for
    // a whole run's, and every other shard's run reported missing).
    let manifest = report::manifest::Manifest::read(&dir)?;
    let folder_shard = match manifest.and_then(|m| m.shard) {
        Some(s) => Some(s.parse::<shard::Shard>().map_err(|e| {
            harness::Error::input(format!(
                "{}: names shard `{s}`, which is no shard harness writes ({e})",
                dir.join(report::manifest::FILE).display()
            ))
        })?),
        None => None,
    };
    let shard = match (asked, folder_shard) {
        (Some(a), Some(f)) if a != f => {
            return Err(harness::Error::input(format!(
                "{}: holds shard {f}, and --shard is {a}; leave --shard out to verify the folder's own shard",
                dir.display()
            ))
            .into())
        }
        (a, f) => a.or(f),
    };
    let plan = match shard {
        Some(s) => s.select(&full),
        None => full.clone(),
    };
    // What the merge would read: a shard folder's shard.jsonl, in runs.csv's columns.
    let jsonl = dir.join(shard::FILE);
    let has_jsonl = shard::present(&dir);
    // A shard's folder whose manifest has gone (or lost the field): which shard it holds is
    // not written anywhere else.
    if shard.is_none() && has_jsonl {
        return Err(harness::Error::input(format!(
            "{}: holds {} (a shard's folder), but its manifest.json does not say which shard; give --shard I/N (the folder's name, shard-I-of-N, says it when harness named it)",
            dir.display(),
            shard::FILE
        ))
        .into());
    }
    // A shard's own folder (by its manifest, or its shard.jsonl) holds that shard alone;
    // --shard on a whole run's folder looks at the shard's rows among the others.
    let scope = match shard {
        Some(s) if folder_shard.is_some() || has_jsonl => Scope::ShardFolder(s),
        Some(s) => Scope::Shard(s),
        None => Scope::Whole,
    };
    runner::check_table_memory(&plan, jobs)
        .map_err(|e| runner::place_table_error(e, &file, &src))?;
    let timed = plan.runs.iter().filter(|r| r.max_seconds.is_some()).count();
    if timed > 0 {
        note(format_args!(
            "warning: {}: {timed} run(s) have a max_seconds budget: one that stops them keeps the counters of the moment it stopped, which depend on the machine's speed, so those runs need not verify",
            plan.name
        ));
    }
    let what = shard.map_or(String::new(), |s| format!(" of shard {s}"));
    // A shard's own folder without its shard.jsonl is no shard a merge takes.
    if let (Some(f), false) = (folder_shard, has_jsonl) {
        return Err(harness::Error::input(format!(
            "{}: holds shard {f} (its manifest.json says so), but no {}, which `harness run --shard` writes for the merge; rerun the shard",
            dir.display(),
            shard::FILE
        ))
        .into());
    }
    let opts = runner::RunOptions {
        jobs,
        quiet,
        ..Default::default()
    };
    // A shard with no run: its runs.csv has the header alone, and nothing is searched; its
    // files are still read, and any run in them is a difference.
    let table = verify::read_results(&csv_path, &full, plan.runs.is_empty())?;
    let records = if plan.runs.is_empty() {
        Vec::new()
    } else {
        verify::search(&plan, &opts).map_err(|e| runner::place_table_error(e, &file, &src))?
    };
    let mut v = verify::compare(&full, &table, scope, &records, "a row");
    if has_jsonl {
        let more = verify::compare_shard_file(&full, scope, &records, &jsonl, &table.header)?;
        v.differences.extend(more);
    }
    if v.differences.is_empty() && plan.runs.is_empty() {
        return say(format_args!(
            "{}: shard {} holds none of the {} runs: nothing to verify\n",
            plan.name,
            shard.map_or(String::new(), |s| s.to_string()),
            full.runs.len()
        ));
    }
    if v.differences.is_empty() {
        return say(format_args!(
            "{}: {} runs{what} searched again: every one equals its row of {}{} in all {} columns but time_ns and nodes_per_second\n",
            plan.name,
            v.runs,
            csv_path.display(),
            if has_jsonl { format!(" and its line of {}", shard::FILE) } else { String::new() },
            v.columns
        ));
    }
    const SHOWN: usize = 20;
    let listed = (|| {
        say(format_args!(
            "run_key,column,{},this search\n",
            csv_field(&csv_path.display().to_string())
        ))?;
        for d in v.differences.iter().take(SHOWN) {
            say(format_args!(
                "{},{},{},{}\n",
                csv_field(&d.run_key),
                csv_field(&d.column),
                csv_field(&d.theirs),
                csv_field(&d.ours)
            ))?;
        }
        anyhow::Ok(())
    })();
    // A reader that went away (`| head -1`) stops the listing, not the verdict: the status
    // still says the results differ.
    if let Err(e) = listed {
        if !is_pipe_closed(&e) {
            return Err(e);
        }
    }
    let header = v
        .differences
        .iter()
        .any(|d| d.column.starts_with("(header)"));
    // A shard's folder: runs.csv and the shard.jsonl the merge reads, rows and lines.
    let (from, rows) = if has_jsonl {
        let both = format!("{} and {}", csv_path.display(), jsonl.display());
        (both, ["row or line", "rows or lines"])
    } else {
        (csv_path.display().to_string(), ["row", "rows"])
    };
    let strays = match v.strays() {
        0 => String::new(),
        1 => format!(", 1 {} is no run of it", rows[0]),
        n => format!(", {n} {} are no run of it", rows[1]),
    };
    anyhow::bail!(
        "{}: {} of {} runs{what} differ from {from}{strays}{} ({}{})",
        plan.name,
        v.runs_differing(),
        v.runs,
        if header {
            ", and so do the columns"
        } else {
            ""
        },
        counted(v.differences.len(), "difference"),
        if v.differences.len() > SHOWN {
            format!(", the first {SHOWN} on stdout")
        } else {
            ", on stdout".to_string()
        }
    )
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The end of a run or merge whose runs.csv is written: the manifest's end time, the partial
/// file removed, the report built, and the warnings the results call for. The records are
/// dropped before the report reads runs.csv back, so that the two are not in memory at once.
fn finish(
    plan: &plan::Plan,
    dir: &Path,
    manifest: &mut report::manifest::Manifest,
    records: Vec<harness::report::csv::RunRecord>,
) -> anyhow::Result<report::Built> {
    manifest.finish(records.len());
    manifest.write(dir)?;
    partial::remove(dir)?;
    // A solve that proves another score than the positions file's is a finding (a
    // table with few key bits, naive-exact bounds) or a fault: never silent.
    let differ = records
        .iter()
        .filter(|r| {
            r.status == harness::search::Status::Ok
                && r.run.algorithm == harness::search::Algorithm::Solve
                && r.run.expected.is_some()
                && r.run.game.external_score(&r.run.position, r.value) != r.run.expected
        })
        .count();
    drop(records);
    let built = report::build(dir).map_err(|e| {
        anyhow::Error::new(e).context(format!(
            "{} is written, but the report is not; fix the cause and run `harness plot {}`",
            dir.join("runs.csv").display(),
            dir.display()
        ))
    })?;
    if differ > 0 {
        note(format_args!(
            "warning: {}: {differ} finished solve run(s) proved a score other than the positions file's expected one (runs.csv columns score and expected)",
            plan.name
        ));
    }
    warn_skipped(&plan.name, &built);
    Ok(built)
}

/// A chart `[report] charts` or `titles` or a theory line `[report] theory` names that the data cannot
/// support is not drawn: said on stderr (report.md says it too), so that a chart or line
/// asked for is not missed in silence.
fn warn_skipped(name: &str, built: &report::Built) {
    for n in &built.skipped {
        note(format_args!(
            "warning: {name}: [report] {}: not drawn: `{}`: {}",
            n.key, n.name, n.why
        ));
    }
    if !built.no_glyph.is_empty() {
        let chars: Vec<String> = built
            .no_glyph
            .iter()
            .map(|c| format!("`{c}` (U+{:04X})", *c as u32))
            .collect();
        note(format_args!(
            "warning: {name}: the charts' font (DejaVu Sans, embedded) has no glyph for {}: the PNGs draw a box in their place; the SVGs leave them to the viewer's fonts",
            chars.join(", ")
        ));
    }
}

/// `harness theory`: the Knuth–Moore minimal tree, the full tree and Pearl's R*(b) for each
/// branching factor and depth.
fn theory(a: cli::TheoryArgs) -> anyhow::Result<()> {
    use harness::report::theory;
    let cli::TheoryArgs {
        branching,
        depth,
        csv,
    } = a;
    let bs = theory::parse_int_set(&branching, 2, 1_000_000)
        .map_err(|e| Error::input(format!("--branching {e}")))?;
    let ds = theory::parse_int_set(&depth, 1, 1_000)
        .map_err(|e| Error::input(format!("--depth {e}")))?;
    const MAX_ROWS: usize = 100_000;
    let rows = bs.len().saturating_mul(ds.len());
    if rows > MAX_ROWS {
        return Err(Error::input(format!(
            "--branching and --depth: {} × {} = {rows} rows; at most {MAX_ROWS}",
            bs.len(),
            ds.len()
        ))
        .into());
    }
    let rows: Vec<theory::Prediction> = bs
        .iter()
        .flat_map(|&b| ds.iter().map(move |&d| theory::predict(b, d as u32)))
        .collect();
    say(format_args!("{}", theory::table(&rows, csv)))
}

/// `harness solve`: every position of a file solved exactly, as CSV on stdout.
fn solve(a: cli::SolveArgs) -> anyhow::Result<()> {
    use harness::experiment::plan::GameSetup;
    let cli::SolveArgs {
        game,
        file,
        weak,
        width,
        height,
        solver,
        ordering,
        mib,
        max_nodes,
    } = a;
    let input = |m: String| anyhow::Error::new(Error::Input(m));
    if matches!(game.as_str(), "tictactoe" | "nim") && (width.is_some() || height.is_some()) {
        return Err(input(format!(
            "--width/--height set the Connect Four board; --game {game} has none (leave them out)"
        )));
    }
    let setup = match game.as_str() {
        "connect4" => {
            let (width, height) = (width.unwrap_or(7), height.unwrap_or(6));
            harness::games::connect4::Connect4::check_size(width.into(), height.into())
                .map_err(|e| input(format!("--width/--height: {e}")))?;
            GameSetup::Connect4 { width, height }
        }
        "tictactoe" => GameSetup::TicTacToe {
            scale: harness::games::tictactoe::Scale::DepthPenalty,
        },
        "nim" => GameSetup::Nim { misere: false },
        other => {
            return Err(input(format!(
                "--game `{other}`; allowed: connect4, tictactoe, nim"
            )))
        }
    };
    let techniques = harness::search::solver::Techniques::parse(&solver)
        .map_err(|e| input(format!("--solver: {e}")))?;
    if mib.is_some() && !techniques.tt {
        return Err(input(format!(
            "--mib sizes the solver's table, which --solver {solver} leaves out; add `tt` to the techniques or leave --mib out"
        )));
    }
    let opts = harness::experiment::solve::SolveOptions {
        weak,
        techniques,
        ordering: harness::search::Ordering::parse(ordering.as_deref().unwrap_or(
            if game == "connect4" {
                "threats+center-out"
            } else {
                "static"
            },
        ))
        // The help speaks of TOML lists; on the command line terms join with `+` only.
        .map_err(|e| {
            use harness::search::ordering::{ORDERING_HELP, ORDERING_TERMS};
            input(format!(
                "--ordering: {}",
                e.replace(ORDERING_HELP, ORDERING_TERMS)
            ))
        })?,
        max_nodes: match max_nodes {
            Some(0) => return Err(input(
                "--max-nodes 0: a solve enters at least one node; allowed: a whole number from 1 to 18446744073709551615"
                    .into(),
            )),
            n => n,
        },
        table_entries: mib
            .map(|m| {
                harness::search::tt::entries_from_mib(m, harness::search::Replacement::Always)
                    .map_err(|e| input(format!("--mib {m}: {e}")))
            })
            .transpose()?,
    };
    let tally = harness::experiment::solve::run(&setup, &file, &opts, std::io::stdout().lock())?;
    if !tally.stopped.is_empty() {
        let lines: Vec<String> = tally.stopped.iter().map(|l| l.to_string()).collect();
        note(format_args!(
            "{}: {} position(s) stopped by --max-nodes {} (empty score), line(s) {}",
            file.display(),
            tally.stopped.len(),
            opts.max_nodes.unwrap_or(0),
            lines.join(", ")
        ));
    }
    let wrong = tally.wrong;
    if wrong > 0 {
        anyhow::bail!(
            "{wrong} position(s) of {} scored differently from the expected score",
            file.display()
        );
    }
    Ok(())
}

/// `harness perft`: counts through the same `Game` trait the searches use.
fn perft(fen: &str, depth: u32, divide: bool) -> anyhow::Result<()> {
    use harness::games::chess::Chess;
    use harness::search::perft::Perft;
    // --depth is 0 to 20 (its parser says so).
    let mut game = Chess::parse_position(fen)
        .map_err(|e| Error::input(format!("--fen `{}`: {e}", harness::games::shown(fen))))?;
    let mut p = Perft::new(&game, depth);
    let start = std::time::Instant::now();
    // At depth 0 there is no move to divide by: the count is the position itself.
    let total = if divide && depth > 0 {
        let mut rows = p.divide(&mut game, depth);
        rows.sort();
        for (m, n) in &rows {
            say(format_args!("{m}: {n}\n"))?;
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        let mut last = 1;
        for d in 1..=depth {
            last = p.count(&mut game, d);
            say(format_args!("depth {d}: {last}\n"))?;
        }
        last
    };
    let secs = start.elapsed().as_secs_f64();
    note(format_args!("{total} leaves in {secs:.3} s"));
    say(format_args!("total: {total}\n"))
}
