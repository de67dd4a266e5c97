//! placeholder
pub mod int;
