//! The integer engine: an exact incremental rational simplex ([`simplex`]), integer
//! emptiness, sampling and optima on it ([`solve`]), the SDBM fast path in front of
//! it ([`sdbm_path`]), and the Omega test ([`omega`]).

pub mod budget;
pub(crate) mod gbr;
pub(crate) mod lattice;
pub mod omega;
pub(crate) mod pip;
pub(crate) mod propagate;
pub mod sample;
pub mod sdbm_path;
pub mod simplex;
pub mod solve;
