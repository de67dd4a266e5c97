//! The volume crate's error type.

use std::fmt;

/// Everything that can go wrong when reading or analysing a tensor program, with a
/// message a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Text that is not valid in the MLIR subset read here; `line` and `column`
    /// count from 1.
    Parse {
        line: usize,
        column: usize,
        message: String,
    },
    /// An operation (or attribute, or type) the model does not handle, with the line
    /// it stands on.
    Unsupported {
        op: String,
        line: usize,
        message: String,
    },
    /// A program that reads but is not well formed (an undefined value, a type that
    /// does not fit the op, a cycle).
    Invalid(String),
    /// A request that does not fit a well-formed program: an output value it
    /// does not return, a tile of a dimension the output lacks, an argument
    /// value the harness needs and was not given, a file that cannot be read
    /// or written. Printed as the message alone.
    Request(String),
    /// An error of the set and map algebra underneath.
    Presburger(presburger::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse {
                line,
                column,
                message,
            } => write!(f, "line {line}, column {column}: {message}"),
            Error::Unsupported { op, line, message } => {
                write!(f, "line {line}: unsupported operation {op}: {message}")
            }
            Error::Invalid(m) => write!(f, "invalid program: {m}"),
            Error::Request(m) => write!(f, "{m}"),
            Error::Presburger(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<presburger_mlir_syntax::Error> for Error {
    fn from(e: presburger_mlir_syntax::Error) -> Error {
        Error::Parse {
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        Error::Presburger(e)
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
