//! The library's error type. `Input` is the user's mistake (exit status 2); the rest are
//! internal failures (exit status 1).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: a file, key, value, position or path the user gave. The message says what is
    /// wrong and what is allowed.
    #[error("{0}")]
    Input(String),
    /// Bad input too: a table larger than the memory the process can get. Kept apart from
    /// `Input` so that the command line can place it at the table's size in the experiment
    /// file (`runner::place_table_error`).
    #[error("{0}")]
    Table(String),
    /// Reading or writing a file failed for a reason that is not the user's input. The OS
    /// error is part of the message, not a separate source (printed once).
    #[error("{path}: {err}")]
    Io { path: PathBuf, err: std::io::Error },
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(msg.into())
    }
    /// Whether the error is the user's (exit status 2).
    pub fn is_input(&self) -> bool {
        matches!(self, Error::Input(_) | Error::Table(_))
    }
}

pub type Result<T> = std::result::Result<T, Error>;
