//! harness: an experiment harness for game-tree search research.
//!
//! `games` holds the `Game` trait and the games; `search` the generic searches and their
//! counters; `experiment` the TOML experiment files, the run grid and the parallel runner;
//! `report` the CSV output.

pub mod error;
pub mod experiment;
pub mod games;
pub mod report;
pub mod search;

pub use error::Error;
