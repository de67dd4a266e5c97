//! Polyhedral models of programs: the SCoP (static control part) of a C
//! region as sets and maps of the `presburger` crate.
//!
//! [`scop`] holds the model, [`c`] the C front end that builds it
//! ([`c::extract_scop`]), [`mlir`] the MLIR front end (affine dialect,
//! [`mlir::extract_scop_mlir`]), [`deps`] the dependences, [`distance`] their
//! distance and direction vectors, [`validity`] the check of a schedule
//! against them, [`schedule`] schedules and the identity scheduler, [`pluto`] the
//! Pluto-style automatic schedulers (pluto-lp, pluto-lp-dfp), [`error`] the
//! error type (line and column of the source).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod c;
pub mod deps;
pub mod distance;
pub mod error;
pub mod mlir;
pub mod pluto;
pub mod schedule;
pub mod scop;
pub mod validity;

pub use c::{Options, extract_scop};
pub use deps::{Dependences, dependences};
pub use distance::{Direction, Distance, distances};
pub use error::{Error, Result};
pub use mlir::{extract_scop_mlir, looks_like_mlir};
pub use pluto::dfp::pluto_dfp;
pub use pluto::lp::pluto_lp;
pub use pluto::{FarkasMethod, Fusion, Scheduler, SchedulerOptions, compute};
pub use schedule::{Schedule, StatementSchedule, identity};
pub use scop::{Access, Array, Scop, Statement};
pub use validity::{Validity, Violation};
