//! isl notation: the lexer ([`lexer`]), the parser ([`parse`]) and the printer
//! (`Display` on the set and map types).

pub mod kind;
pub mod lexer;
pub mod parse;
pub(crate) mod print;
