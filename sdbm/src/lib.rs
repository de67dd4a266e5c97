//! Strided Difference Bound Matrices (SDBM) and their harmonic case (HSDBM).
//!
//! This crate will hold systems of constraints `x_i - x_j <= c`, `±x_i <= c` and
//! `x_i ≡ r (mod m)` over checked machine integers, their satisfiability (harmonic
//! closure with GCD tightening, and the general algorithm), normal forms and the
//! abstract-domain operations (intersection, equality, inclusion, join). It is the
//! fast path that `presburger` asks before running its simplex. It knows nothing of
//! `presburger` (see `shared/design/ARCHITECTURE.md`), and an operation that would
//! overflow reports "too large" so that the caller falls back, never a wrong answer.
//!
//! Status: empty; built by the SDBM issue.
#![forbid(unsafe_code)]
