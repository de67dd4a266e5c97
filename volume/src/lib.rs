//! The volume model of tensor programs (IMPACT'23, "volume-model-impact23").
//!
//! This crate will hold volumes (index domains, hyperrectangles, views and slices),
//! the volume element maps of MLIR `linalg`/`tensor` operations, programs as SSA DAGs
//! composed leniently in use-def order, fact transfer, region partitioning (dense,
//! static, edge, corner), shape inference and tiling maps, all on top of the exact
//! set and map algebra of `presburger`.
//!
//! Status: empty; built by the volume-model issue.
#![forbid(unsafe_code)]
