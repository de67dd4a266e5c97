//! The volume model of tensor programs (IMPACT'23, "Modelling linear algebra
//! kernels as polyhedral volume operations").
//!
//! Volumes (index domains, hyperrectangles, views and slices), the volume element
//! maps of MLIR `linalg`/`tensor` operations, programs as SSA DAGs composed
//! leniently in use-def order, fact transfer, region partitioning (dense, static,
//! edge, corner), shape inference and tiling maps, all on top of the exact set and
//! map algebra of `presburger`.
//!
//! Layers: [`volumes`] volumes, hyperrectangles, arrays and slices (Def. 4.1–4.9);
//! [`ir`] the program representation; [`mlir`] the reader of the MLIR subset;
//! [`shape`] feed-forward shape inference; [`element_map`] the element map of each
//! operation; [`program`] lenient composition into the program's map;
//! [`regions`] facts and region partitioning; [`tiling`] tiling maps, interior tiles
//! and slice matching; [`model`] all of it end to end, from MLIR text to regions
//! and tiles (what `poly volume` prints).
#![forbid(unsafe_code)]

pub mod element_map;
pub mod emit;
pub mod error;
pub mod interp;
pub mod ir;
pub mod mlir;
pub mod model;
pub mod program;
pub mod regions;
pub mod shape;
pub mod tiling;
pub mod volumes;

pub use error::{Error, Result};
pub use ir::Program;
