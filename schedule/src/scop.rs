//! The SCoP model: a static control part of a program as sets and maps.
//!
//! A [`Scop`] holds its parameters and their context, its [`Statement`]s
//! (named `S0`, `S1`, ... in textual order) with their iteration domains,
//! original schedules in 2d+1 form and access relations, and the [`Array`]s
//! they touch (a scalar is a 0-d array, `S0[i] -> s[]`). The union views
//! ([`Scop::domains`], [`Scop::schedule`], [`Scop::reads`], [`Scop::writes`])
//! gather the members of every statement.
//!
//! Access relations are the access functions themselves, not restricted to the
//! statement's domain (`S0[i, j] -> A[i, j + 1]`); intersect them with
//! [`Scop::domains`] for the instances that run.

use presburger::build::{Constraint, Expr as Aff};
use presburger::{DimKind, Map, Result, Set, Space, Tuple, UnionMap, UnionSet};

/// A static control part.
#[derive(Clone, Debug)]
pub struct Scop {
    /// The parameters, in order of first use.
    pub params: Vec<String>,
    /// The constraints known on the parameters (a parameter set).
    pub context: Set,
    /// The statements in textual order.
    pub statements: Vec<Statement>,
    /// The arrays and scalars accessed, in order of first access.
    pub arrays: Vec<Array>,
    /// The scalars the region declares (`double t;`, `int a = 0, b;`), as
    /// (name, type) in the order of their declarations, one entry per
    /// declarator; empty for an MLIR function.
    pub locals: Vec<(String, String)>,
    /// Byte range of the region in the source (for `#pragma scop` regions,
    /// from the `#` of `#pragma scop` to the end of `#pragma endscop`).
    pub span: (usize, usize),
}

/// One statement of the SCoP.
#[derive(Clone, Debug)]
pub struct Statement {
    /// `S0`, `S1`, ...
    pub name: String,
    /// The enclosing loops' iterators, outermost first.
    pub iterators: Vec<String>,
    /// The textual positions, outermost first: the even entries of the 2d+1
    /// schedule (one more than there are iterators). Two statements share
    /// their first `k` loops when their first `k` positions are equal.
    pub positions: Vec<i64>,
    /// The direction of each enclosing loop: `1` increasing, `-1` decreasing.
    pub signs: Vec<i64>,
    /// The iteration domain, `S0[i, j] : ...`.
    pub domain: Set,
    /// The original schedule, `S0[i, j] -> [c0, i, c1, j, c2]` padded with
    /// zeros to the SCoP's common output dimension.
    pub schedule: Map,
    /// The reads, one per array reference.
    pub reads: Vec<Access>,
    /// The writes.
    pub writes: Vec<Access>,
    /// The statement's source text.
    pub text: String,
    /// Byte range of the text in the source.
    pub span: (usize, usize),
}

/// One array reference of a statement.
#[derive(Clone, Debug)]
pub struct Access {
    /// The array (or scalar) name.
    pub array: String,
    /// `S0[i, j] -> A[i, j + 1]`.
    pub relation: Map,
}

/// An array (or scalar, with no dimensions) of the SCoP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// Its C name.
    pub name: String,
    /// The number of subscripts it is accessed with.
    pub dims: usize,
    /// The element type's text, when a declaration was found.
    pub element_type: Option<String>,
    /// The declared sizes' text, outermost first (empty when unknown or for a
    /// scalar).
    pub sizes: Vec<String>,
}

/// The 2d+1 schedule `S[i, j] -> [p0, s0*i, p1, s1*j, p2, 0, ...]` of a
/// statement with tuple `tuple`: the positions `positions` at the even
/// places, each iterator times its sign in `signs` (`-1` for a decreasing
/// loop) at the odd ones, zeros up to `n_out` output dimensions. Shared by
/// the front ends.
pub(crate) fn schedule_map(
    params: &[String],
    tuple: &Tuple,
    positions: &[i64],
    signs: &[i64],
    n_out: usize,
) -> Result<Map> {
    let space = Space::map(params.to_vec(), tuple.clone(), Tuple::anonymous(n_out));
    let cons: Vec<Constraint> = (0..n_out)
        .map(|t| {
            let value = if t % 2 == 0 {
                Aff::constant(positions.get(t / 2).copied().unwrap_or(0))
            } else {
                match signs.get(t / 2) {
                    Some(sign) => *sign * Aff::dim(DimKind::In, t / 2),
                    None => Aff::constant(0),
                }
            };
            Aff::dim(DimKind::Out, t).eq(value)
        })
        .collect();
    Map::from_constraints(&space, cons)
}

/// The access relation `S[i, j] -> array[subs...]` of a statement with tuple
/// `tuple`, the subscripts over its iterators as input dimensions. Shared by
/// the front ends.
pub(crate) fn access(
    params: &[String],
    tuple: &Tuple,
    array: &str,
    subs: &[Aff],
) -> Result<Access> {
    let space = Space::map(
        params.to_vec(),
        tuple.clone(),
        Tuple::named(Some(array.to_string()), subs.len()),
    );
    let cons = subs
        .iter()
        .enumerate()
        .map(|(d, s)| Aff::dim(DimKind::Out, d).eq(s));
    Ok(Access {
        array: array.to_string(),
        relation: Map::from_constraints(&space, cons)?,
    })
}

/// The union over `params` of `sets`, added in order.
pub(crate) fn union_set(
    params: &[String],
    sets: impl IntoIterator<Item = Set>,
) -> Result<UnionSet> {
    let mut u = UnionSet::empty(params.to_vec());
    u.add_all(sets)?;
    Ok(u)
}

/// The union over `params` of `maps`, added in order.
pub(crate) fn union_map(
    params: &[String],
    maps: impl IntoIterator<Item = Map>,
) -> Result<UnionMap> {
    let mut u = UnionMap::empty(params.to_vec());
    u.add_all(maps)?;
    Ok(u)
}

impl Scop {
    /// The union of the statements' domains.
    pub fn domains(&self) -> Result<UnionSet> {
        union_set(
            &self.params,
            self.statements.iter().map(|s| s.domain.clone()),
        )
    }

    /// The union of the statements' schedules.
    pub fn schedule(&self) -> Result<UnionMap> {
        union_map(
            &self.params,
            self.statements.iter().map(|s| s.schedule.clone()),
        )
    }

    /// The union of all read relations.
    pub fn reads(&self) -> Result<UnionMap> {
        union_map(
            &self.params,
            self.statements
                .iter()
                .flat_map(|s| s.reads.iter().map(|a| a.relation.clone())),
        )
    }

    /// The union of all write relations.
    pub fn writes(&self) -> Result<UnionMap> {
        union_map(
            &self.params,
            self.statements
                .iter()
                .flat_map(|s| s.writes.iter().map(|a| a.relation.clone())),
        )
    }

    /// The statement named `name`.
    pub fn statement(&self, name: &str) -> Option<&Statement> {
        self.statements.iter().find(|s| s.name == name)
    }

    /// The array named `name`.
    pub fn array(&self, name: &str) -> Option<&Array> {
        self.arrays.iter().find(|a| a.name == name)
    }
}

#[cfg(test)]
mod tests {
    use crate::c::{Options, extract_scop};
    use presburger::{UnionMap, UnionSet};

    #[test]
    fn union_views_gather_every_statement() {
        let src = "#pragma scop\nfor (i = 0; i < n; i++) {\n  s = s + A[i];\n  B[i] = s;\n}\nt = s;\n#pragma endscop\n";
        let scop = extract_scop(src, &Options::default()).unwrap();
        let dom: UnionSet = "[n] -> { S0[i] : 0 <= i < n; S1[i] : 0 <= i < n; S2[] }"
            .parse()
            .unwrap();
        assert!(scop.domains().unwrap().is_equal(&dom).unwrap());
        let sched: UnionMap = "{ S0[i] -> [0, i, 0]; S1[i] -> [0, i, 1]; S2[] -> [1, 0, 0] }"
            .parse()
            .unwrap();
        assert!(scop.schedule().unwrap().is_equal(&sched).unwrap());
        let reads: UnionMap = "{ S0[i] -> s[]; S0[i] -> A[i]; S1[i] -> s[]; S2[] -> s[] }"
            .parse()
            .unwrap();
        assert!(scop.reads().unwrap().is_equal(&reads).unwrap());
        let writes: UnionMap = "{ S0[i] -> s[]; S1[i] -> B[i]; S2[] -> t[] }"
            .parse()
            .unwrap();
        assert!(scop.writes().unwrap().is_equal(&writes).unwrap());
        assert_eq!(scop.statement("S2").unwrap().text, "t = s;");
        assert!(scop.statement("S3").is_none());
        assert_eq!(scop.array("s").unwrap().dims, 0);
        let names: Vec<&str> = scop.arrays.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["s", "A", "B", "t"]);
    }
}
