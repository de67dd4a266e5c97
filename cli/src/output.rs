//! Standard output and standard error for every subcommand, with every
//! write error handled.
//!
//! A command writes its output through [`Out`] (or [`print`], for a text
//! computed first) and ends with [`exit_code`]:
//!
//! - when standard output is a pipe whose reader has gone (`poly scop f.c |
//!   head -c1`), `poly` stops quietly with status [`BROKEN_PIPE_STATUS`],
//!   141: what a shell reports for a process killed by SIGPIPE (128 + 13),
//!   as C tools are (Rust ignores the signal, so the write fails with
//!   `EPIPE` instead); a pipeline with `set -o pipefail` sees `poly` as it
//!   sees `cat`;
//! - any other write error (`ENOSPC` from `> /dev/full`) prints `poly:
//!   COMMAND: cannot write the output: ERROR` on standard error and exits
//!   with status 1.
//!
//! Messages to standard error go through [`warn`], which ignores its own
//! write errors (there is nowhere left to report them).

use std::io::{self, ErrorKind, Write};
use std::process::ExitCode;

/// The exit status after a broken pipe on standard output (see the module
/// doc).
pub const BROKEN_PIPE_STATUS: u8 = 141;

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// An error, printed `poly: MESSAGE` (status 1).
    Message(String),
    /// Standard output could not be written.
    Write {
        /// The subcommand (`scop`, `calc`, ...).
        command: String,
        /// The first write error.
        error: io::Error,
    },
}

impl From<String> for Failure {
    fn from(m: String) -> Failure {
        Failure::Message(m)
    }
}

impl From<&str> for Failure {
    fn from(m: &str) -> Failure {
        Failure::Message(m.to_string())
    }
}

/// Standard output, keeping the first write error (every later write
/// fails too, with the same kind of error).
pub struct Out {
    inner: io::StdoutLock<'static>,
    error: Option<io::Error>,
}

impl Out {
    /// Standard output, locked.
    pub fn new() -> Out {
        Out {
            inner: io::stdout().lock(),
            error: None,
        }
    }

    /// The first write error, as the failure of `command`.
    pub fn failure(&mut self, command: &str) -> Option<Failure> {
        self.error.take().map(|error| Failure::Write {
            command: command.to_string(),
            error,
        })
    }

    /// Flushes; the first write error, if any, as the failure of `command`.
    pub fn finish(mut self, command: &str) -> Result<(), Failure> {
        let _ = self.flush();
        match self.failure(command) {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    /// Keeps the first error `e` and returns one of the same kind.
    fn keep(&mut self, e: io::Error) -> io::Error {
        let copy = io::Error::new(e.kind(), e.to_string());
        if e.kind() != ErrorKind::Interrupted && self.error.is_none() {
            self.error = Some(e);
        }
        copy
    }
}

impl Default for Out {
    fn default() -> Out {
        Out::new()
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(e) = &self.error {
            return Err(io::Error::new(e.kind(), e.to_string()));
        }
        self.inner.write(buf).map_err(|e| self.keep(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(e) = &self.error {
            return Err(io::Error::new(e.kind(), e.to_string()));
        }
        self.inner.flush().map_err(|e| self.keep(e))
    }
}

/// Writes `text` to standard output as the output of `command`.
pub fn print(command: &str, text: &str) -> Result<(), Failure> {
    let mut out = Out::new();
    let _ = out.write_all(text.as_bytes());
    out.finish(command)
}

/// Writes `text` and a newline to standard error; a failure to do so is
/// ignored.
pub fn warn(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// The exit status of `poly` for the result of a command, after printing
/// its error message (see the module doc).
pub fn exit_code(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Write { error, .. }) if error.kind() == ErrorKind::BrokenPipe => {
            ExitCode::from(BROKEN_PIPE_STATUS)
        }
        Err(Failure::Write { command, error }) => {
            warn(&format!(
                "poly: {command}: cannot write the output: {error}"
            ));
            ExitCode::FAILURE
        }
        Err(Failure::Message(m)) => {
            warn(&format!("poly: {m}"));
            ExitCode::FAILURE
        }
    }
}
