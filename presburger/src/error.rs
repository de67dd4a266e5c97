//! The library's error type.

use std::fmt;

/// Everything that can go wrong in `presburger`, with a message a person can act on.
///
/// ```
/// use presburger::{Error, Set};
/// let e = "{ [i] : i <= }".parse::<Set>().unwrap_err();
/// assert!(matches!(e, Error::Parse { line: 1, .. }), "{e}");
/// let unbounded: Set = "{ [i] : i >= 0 }".parse()?;
/// assert!(matches!(unbounded.lexmax(), Err(Error::Unbounded(_))));
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Text that is not valid isl notation; `line` and `column` count from 1.
    Parse {
        /// The line of the offending text, from 1.
        line: usize,
        /// Its column, from 1.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// Two objects whose spaces do not fit the operation (e.g. applying a map to a
    /// set of another space).
    SpaceMismatch(String),
    /// An input the library understands but does not handle (yet), said plainly.
    Unsupported(String),
    /// An operation ran out of the budget it was given.
    Budget(String),
    /// An operation whose answer does not exist because the set is unbounded
    /// (e.g. `lexmin` of `{ [i] : i <= 0 }`).
    Unbounded(String),
    /// An index, position or argument out of range for the object.
    Invalid(String),
}

impl Error {
    pub(crate) fn parse(line: usize, column: usize, message: impl Into<String>) -> Error {
        Error::Parse {
            line,
            column,
            message: message.into(),
        }
    }

    /// For a parse error: the same error with its position moved by the place where
    /// the parsed text starts inside a larger text (line and column of its first
    /// character, from 1). Other errors are returned unchanged.
    pub fn offset_by(self, line: usize, column: usize) -> Error {
        match self {
            Error::Parse {
                line: l,
                column: c,
                message,
            } => Error::Parse {
                column: if l == 1 { c + column - 1 } else { c },
                line: l + line - 1,
                message,
            },
            e => e,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse {
                line,
                column,
                message,
            } => write!(f, "line {line}, column {column}: {message}"),
            Error::SpaceMismatch(m) => write!(f, "space mismatch: {m}"),
            Error::Unsupported(m) => write!(f, "unsupported: {m}"),
            Error::Budget(m) => write!(f, "budget exhausted: {m}"),
            Error::Unbounded(m) => write!(f, "unbounded: {m}"),
            Error::Invalid(m) => write!(f, "invalid argument: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// The library's result type.
pub type Result<T> = std::result::Result<T, Error>;
