//! Criterion microbenchmarks for the workspace (emptiness checks first).
//!
//! The benchmarks live in `benches/benches/*.rs` and run with `cargo bench -p benches`.
//! This library part holds the problem generators they share.
#![forbid(unsafe_code)]
