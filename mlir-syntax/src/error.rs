//! The crate's error: a message at a line and column of the MLIR text.

use std::fmt;

/// Text that is not valid in the MLIR subset read here, with its place (line
/// and column count from 1, the column in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for Error {}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
