//! The integer engine: an exact incremental rational simplex ([`simplex`]), integer
//! emptiness, sampling and optima on it ([`solve`]), the SDBM fast path in front of
//! it ([`sdbm_path`]), and the Omega test ([`omega`]).

pub mod budget;
pub(crate) mod gbr;
pub(crate) mod lattice;
pub mod omega;
pub(crate) mod propagate;
// test helpers of the sampler and the tableau are not used by the library
#[allow(dead_code)]
pub mod sample;
pub mod sdbm_path;
#[allow(dead_code)]
pub mod simplex;
pub mod solve;
