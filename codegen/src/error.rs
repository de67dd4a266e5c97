//! The errors of code generation and of running an AST.

use std::fmt;

/// What went wrong. Every failure on user input is one of these, never a
/// panic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An operation of the `presburger` crate failed (a budget ran out, an
    /// object was malformed).
    Presburger(presburger::Error),
    /// The input is not a valid code-generation problem (mismatched time
    /// dimensions, a statement without a name, a context with dimensions).
    Input(String),
    /// The input is valid but this generator cannot produce code for it (a
    /// schedule that is not injective or not invertible as a quasi-affine
    /// function, an unbounded loop, a coefficient beyond 64 bits).
    Unsupported(String),
    /// The code generation ran out of its work limit
    /// ([`crate::Options::max_steps`], `poly codegen --max-steps`): `steps`
    /// is the limit, `phase` what the generator was doing.
    WorkLimit {
        /// The limit, in solver steps.
        steps: u64,
        /// The step of the generation that ran out ("separating the
        /// statements at c1").
        phase: String,
    },
    /// Running an AST failed: an unbound variable, an overflow, a division by
    /// a non-positive number, or the step limit.
    Eval(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Presburger(e) => write!(f, "{e}"),
            Error::Input(m) => write!(f, "invalid input: {m}"),
            Error::Unsupported(m) => write!(f, "cannot generate code: {m}"),
            Error::WorkLimit { steps, phase } => write!(
                f,
                "code generation ran out of its work limit ({steps} steps) while {phase}"
            ),
            Error::Eval(m) => write!(f, "cannot run the AST: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<presburger::Error> for Error {
    fn from(e: presburger::Error) -> Error {
        Error::Presburger(e)
    }
}

/// The result type of this crate.
pub type Result<T> = std::result::Result<T, Error>;
