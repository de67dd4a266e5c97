//! Measurement hooks for the workspace's benchmarks, fuzzers and `poly batch
//! --stats`: not part of the API, hidden from the documentation, and free to
//! change with the implementation.
//!
//! What is here and who needs it:
//! - [`stats`]: process-wide counters of the solver's work (`poly batch
//!   --stats`, the `replay` benchmark);
//! - [`EmptinessPath`], [`is_empty_via`], [`sample_general`],
//!   [`sample_omega`]: one emptiness algorithm forced, to compare the paths
//!   (the `emptiness` and `sdbm` benchmarks, the fuzzers);
//! - [`parse_unsimplified`]: the parser without the simplification after it
//!   (the `parse` benchmark);
//! - `testing` (with the `testing` feature): the brute-force point
//!   enumeration oracle (the benchmarks' and fuzzers' checks).
#![doc(hidden)]

use crate::api::BasicSet;
use crate::conjunction::Conjunction;
use crate::error::Result;
use crate::int::Int;
use crate::solver::budget::Budget;

pub use crate::solver::sdbm_path::EmptinessPath;

/// Process-wide counters of where the solver spends its work.
pub mod stats {
    pub use crate::stats::{Stats, reset, snapshot};
}

/// The brute-force oracle: the integer points of an object inside a box.
#[cfg(feature = "testing")]
pub mod testing {
    pub use crate::testing::*;
}

/// [`BasicSet::is_empty`] along the chosen path.
pub fn is_empty_via(s: &BasicSet, path: EmptinessPath) -> Result<bool> {
    s.is_empty_via(path)
}

/// An integer point of all columns of `c` (parameters, dimensions, locals) or
/// `None`, by the general path alone (simplex and basis reduction), without the
/// SDBM fast path.
pub fn sample_general(c: &Conjunction, budget: &mut Budget) -> Result<Option<Vec<Int>>> {
    c.sample_general(budget)
}

/// As [`sample_general`] with the Omega test.
pub fn sample_omega(c: &Conjunction, budget: &mut Budget) -> Result<Option<Vec<Int>>> {
    c.sample_omega(budget)
}

/// The one conjunction a text in isl notation with one part and one disjunct
/// stands for, as the parser builds it (the constraints in the order of the
/// text, not simplified), or `None` for other texts.
pub fn parse_unsimplified(text: &str) -> Result<Option<Conjunction>> {
    let (_, mut parts) = crate::parse::parse_parts(text)?;
    if parts.len() != 1 {
        return Ok(None);
    }
    let (_, mut disjuncts) = parts.pop().expect("one part");
    Ok(if disjuncts.len() == 1 {
        disjuncts.pop()
    } else {
        None
    })
}
