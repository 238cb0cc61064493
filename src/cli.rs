//! The command line (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "harness",
    version,
    about = "An experiment harness for game-tree search: exact counters, reproducible runs"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run an experiment file and write results/<name>/runs.csv.
    Run(RunArgs),
    /// Merge the shards of an experiment (`harness run FILE --shard I/N`, each run on its own
    /// machine or job) into one results folder, equal to what one machine's `harness run`
    /// writes but for the wall-clock columns and the manifest.
    Merge(MergeArgs),
    /// Search an experiment's runs again and compare them with a results folder's runs.csv,
    /// every column but the wall-clock ones (nothing is written). Exit 0 if all are equal, 1
    /// if any differs (the differences on stdout), 2 on bad input.
    Verify(VerifyArgs),
    /// Rebuild summary.csv, charts/ and report.md of a results folder from its runs.csv
    /// (no search is run; the files equal those `harness run` wrote).
    Plot {
        /// The results folder (e.g. results/tictactoe).
        dir: PathBuf,
    },
    /// List the games, algorithms and orderings with their options.
    List,
    /// Chess perft: the number of legal move paths of each length up to --depth, through the
    /// harness's Game trait; the total (the count at --depth) on the last line.
    Perft {
        /// The position: a FEN or `start`, either of them optionally followed by `moves e2e4 ...`.
        #[arg(long, default_value = "start")]
        fen: String,
        /// Depth in plies (0 to 20).
        #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, 20, "a whole number from 0 to 20"))]
        depth: u32,
        /// Count at --depth below each legal move (sorted by move), then the total.
        #[arg(long)]
        divide: bool,
    },
    /// Print the theory of alpha-beta on uniform trees: Knuth–Moore minimal tree, full tree,
    /// Pearl's R*(b).
    Theory(TheoryArgs),
    /// Solve every position of a file exactly; CSV `position,score,expected,nodes,micros` on
    /// stdout. Exit 1 if a score differs from the expected one, 2 on bad input.
    Solve(SolveArgs),
}

/// The options of `harness run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The experiment file (TOML).
    pub file: PathBuf,
    /// Output folder (default: results/<name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads, at most 1024 (default, or 0: one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0, hide_default_value = true, allow_negative_numbers = true, value_parser = whole::<u16>(0, 1024, "a whole number from 0 to 1024 (0: one per core)"))]
    pub jobs: u16,
    /// No progress bar (nor the note that an interrupted run is resumed).
    #[arg(long)]
    pub quiet: bool,
    /// Discard the runs an interrupted run left in runs.csv.partial and search every run
    /// (by default a rerun of the same file by the same build resumes them).
    #[arg(long)]
    pub fresh: bool,
    /// Run only shard I of N (e.g. 2/8: one job of a job array): the runs whose run key
    /// hashes to it, into results/<name>/shard-I-of-N (or --out) with no report; `harness
    /// merge` joins the N shards.
    #[arg(long, value_name = "I/N", allow_hyphen_values = true, value_parser = |s: &str| s.parse::<harness::experiment::shard::Shard>())]
    pub shard: Option<harness::experiment::shard::Shard>,
}

/// The options of `harness verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The experiment file (TOML).
    pub file: PathBuf,
    /// The results folder to compare with (default: results/<name>).
    pub dir: Option<PathBuf>,
    /// Worker threads, at most 1024 (default, or 0: one per core).
    #[arg(long, default_value_t = 0, hide_default_value = true, allow_negative_numbers = true, value_parser = whole::<u16>(0, 1024, "a whole number from 0 to 1024 (0: one per core)"))]
    pub jobs: u16,
    /// Search and compare only shard I of N of the runs (as `harness run --shard` splits them).
    #[arg(long, value_name = "I/N", allow_hyphen_values = true, value_parser = |s: &str| s.parse::<harness::experiment::shard::Shard>())]
    pub shard: Option<harness::experiment::shard::Shard>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The options of `harness merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The experiment file the shards ran (TOML).
    pub file: PathBuf,
    /// The shard folders (default: the folders named shard-I-of-N in the output folder).
    pub shards: Vec<PathBuf>,
    /// Output folder (default: results/<name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Discard the runs an interrupted `harness run` left in the output folder's
    /// runs.csv.partial (the merge is refused while it holds runs it cannot resume)
    #[arg(long)]
    pub fresh: bool,
}

/// The options of `harness theory`.
#[derive(Debug, Args)]
pub struct TheoryArgs {
    /// Branching factor(s): a number, a range like 2..8, or a comma list.
    #[arg(long, short = 'b', allow_hyphen_values = true)]
    pub branching: String,
    /// Depth(s): a number, a range like 1..10 (inclusive), or a comma list.
    #[arg(long, short = 'd', allow_hyphen_values = true)]
    pub depth: String,
    /// CSV instead of an aligned table.
    #[arg(long)]
    pub csv: bool,
}

/// The options of `harness solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game (connect4, tictactoe, nim).
    #[arg(long)]
    pub game: String,
    /// Positions, one a line (Connect Four: `moves [score]`).
    pub file: PathBuf,
    /// Solve win/draw/loss only (scores 1, 0, -1).
    #[arg(long)]
    pub weak: bool,
    /// Connect Four columns (default 7; Connect Four only).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, u32::MAX as u64, "a whole number from 1, with width × (height + 1) at most 64, e.g. 7 for 7x6"))]
    pub width: Option<u32>,
    /// Connect Four rows (default 6; Connect Four only).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, u32::MAX as u64, "a whole number from 1, with width × (height + 1) at most 64, e.g. 6 for 7x6"))]
    pub height: Option<u32>,
    /// Solver techniques: all, none, or names joined with `+` (null-window, win-check,
    /// non-losing, bounds, tt).
    #[arg(long, default_value = "all")]
    pub solver: String,
    /// Move ordering (as in experiment files; default: threats+center-out for Connect
    /// Four, the fewest nodes of its orderings, static for the others).
    #[arg(long)]
    pub ordering: Option<String>,
    /// The solver's table in MiB, a power of two (default 4: 2^18 entries, replaced
    /// always). Early Connect Four positions want more, e.g. 256.
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX, "a power of two from 1 (MiB)"))]
    pub mib: Option<u64>,
    /// Stop a position's solve after this many nodes: its row has an empty score, and a
    /// note on stderr names it (default: no budget).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX, "a whole number from 1 to 18446744073709551615"))]
    pub max_nodes: Option<u64>,
}

/// A whole-number option from `lo` to `hi` (`allowed` says so to the user), in digits only: clap's own parsers answer a sign,
/// a decimal point or an exponent with "invalid digit found in string", and a negative value
/// with a hint to pass it after `--`, neither of which says what is allowed. (Finer limits,
/// such as a table's power of two, are checked with the other options.)
fn whole<T: TryFrom<u64>>(
    lo: u64,
    hi: u64,
    allowed: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone {
    move |s: &str| {
        harness::games::parse_digits::<u64>(s)
            .filter(|v| (lo..=hi).contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| format!("allowed: {allowed}"))
    }
}
