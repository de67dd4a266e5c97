//! Polyhedral programs and their scheduling.
//!
//! This crate will hold static control parts read from a C subset (statements,
//! iteration domains, access relations), exact dependence analysis on `presburger`
//! unions, the pluto-lp-dfp scheduler (fusion conflict graph, scaling and shifting,
//! skewing), a Pluto-style LP scheduler and schedule validity checks.
//!
//! Status: empty; built by the scheduling issue.
#![forbid(unsafe_code)]
