//! The library's error type. `Input` is the user's mistake (exit status 2); the rest are
//! internal failures (exit status 1).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: a file, key, value, position or path the user gave. The message says what is
    /// wrong and what is allowed.
    #[error("{0}")]
    Input(String),
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
}

pub type Result<T> = std::result::Result<T, Error>;
