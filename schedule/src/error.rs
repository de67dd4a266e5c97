//! The crate's error: a message at a line and column of the C or MLIR source.

use std::fmt;

/// Something the front end cannot accept, at a place in the source (line and
/// column from 1; both 0 when no place applies, e.g. an empty file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What is wrong, naming the construct.
    pub message: String,
}

impl Error {
    /// An error at `line`, `column`.
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Error {
        Error {
            line,
            column,
            message: message.into(),
        }
    }

    /// A failure of the `presburger` library while building the model, placed
    /// at `line`, `column` of the construct being modelled.
    pub fn from_presburger(line: usize, column: usize, e: presburger::Error) -> Error {
        Error::new(line, column, format!("cannot build the model: {e}"))
    }
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

impl From<presburger_mlir_syntax::Error> for Error {
    fn from(e: presburger_mlir_syntax::Error) -> Error {
        Error::new(e.line, e.column, e.message)
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
