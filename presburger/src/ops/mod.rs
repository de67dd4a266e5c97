//! The set and map algebra on top of the integer engine: subtraction, inclusion,
//! equality ([`algebra`]), coalescing ([`coalesce`]), relation operations ([`maps`]), gist
//! ([`gist`]), bounds, boxes and enumeration ([`bounds`]) and exact projection
//! ([`project`]), operations on unions member by member ([`unions`]), and the
//! rational algorithms of [`crate::RationalSet`] ([`rational`]).

pub mod aff_ops;
#[cfg(test)]
mod aff_props;
pub mod algebra;
#[cfg(test)]
mod algebra_props;
pub mod bounds;
pub mod coalesce;
pub mod gist;
pub mod maps;
pub mod project;
pub mod rational;
pub mod unions;
