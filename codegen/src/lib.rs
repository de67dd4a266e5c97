//! Loop code generation from schedules.
//!
//! This crate will hold the scanning of polyhedra into loop ASTs (bounds with
//! min/max/floor/ceil, guards, strides, separation), tiling of permutable bands,
//! C emission, and slice matching (MatchSlice) with tiled-loop generation for
//! volume programs.
//!
//! Status: empty; built by the code-generation issue.
#![forbid(unsafe_code)]
