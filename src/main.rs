//! The `harness` binary: parses the command line, calls the library, maps errors to exit
//! codes (0 ok, 1 internal failure, 2 bad input).

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use harness::experiment::{config, plan, runner};
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
        Err(e) => {
            let input = e
                .chain()
                .any(|c| matches!(c.downcast_ref::<Error>(), Some(Error::Input(_))));
            eprintln!("error: {e:#}");
            ExitCode::from(if input { 2 } else { 1 })
        }
    }
}

fn dispatch(cmd: cli::Command) -> anyhow::Result<()> {
    match cmd {
        cli::Command::Run {
            file,
            out,
            jobs,
            quiet,
        } => {
            let (parsed, src) = config::load(&file)?;
            let plan = plan::build(&file, &src, &parsed)?;
            let dir = out.unwrap_or_else(|| PathBuf::from("results").join(&plan.name));
            let records = runner::run_plan(&plan, &dir, &runner::RunOptions { jobs, quiet })?;
            let budget = records
                .iter()
                .filter(|r| r.status != harness::search::Status::Ok)
                .count();
            println!(
                "{}: {} runs ({} stopped by a budget) -> {}",
                plan.name,
                records.len(),
                budget,
                dir.join("runs.csv").display()
            );
            Ok(())
        }
        cli::Command::List => {
            print!("{}", harness::experiment::catalog());
            Ok(())
        }
    }
}
