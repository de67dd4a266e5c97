//! Dependence distance and direction vectors over the loops two statements
//! share.
//!
//! For a dependence relation between statements `S` and `T` that share their
//! first `c` loops (their first `c` textual positions are equal), the
//! *distance vectors* are the differences `y - x` of the iterator values of
//! those loops, target minus source, over all pairs `S[x..] -> T[y..]` of the
//! relation: the deltas of the relation with the other iterators projected
//! out (existentially). The *direction* of loop `k` summarises the signs of
//! the `k`-th component in the loop's order of execution (a decreasing loop
//! runs its iterator downwards, so its differences count negated): `<` when
//! every distance is positive (the target runs in a later iteration), `=`
//! when every one is zero, `>` when every one is negative, `<=` and `>=`
//! when zero and one sign occur, `*` when both signs do
//! (Wolfe's direction vectors, "High performance compilers for parallel
//! computing", 1996, ch. 5). Each sign is decided exactly, by inclusion of the
//! distance set in the half-space or hyperplane, also when the distances
//! depend on the parameters. A relation is *uniform* when its distance set is
//! one vector, the same for every parameter value.

use crate::deps::Dependences;
use crate::scop::Scop;
use presburger::build::Expr;
use presburger::{DimKind, Int, Result, Set, Space, UnionMap};

/// The direction of one common loop (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Every distance is positive in the loop's order: `<`.
    Forward,
    /// Every distance is zero: `=`.
    Same,
    /// Every distance is negative in the loop's order: `>`.
    Backward,
    /// Every distance is zero or positive, and not all of one kind: `<=`.
    ForwardOrSame,
    /// Every distance is zero or negative, and not all of one kind: `>=`.
    BackwardOrSame,
    /// Distances of both signs: `*`.
    Any,
}

impl Direction {
    /// `<`, `=`, `>`, `<=`, `>=` or `*`.
    pub fn symbol(self) -> &'static str {
        match self {
            Direction::Forward => "<",
            Direction::Same => "=",
            Direction::Backward => ">",
            Direction::ForwardOrSame => "<=",
            Direction::BackwardOrSame => ">=",
            Direction::Any => "*",
        }
    }
}

/// The distances of one dependence relation between two statements.
#[derive(Clone, Debug)]
pub struct Distance {
    /// `raw`, `war`, `waw` or `flow`.
    pub kind: &'static str,
    /// The source statement.
    pub source: String,
    /// The target statement.
    pub target: String,
    /// The distance vectors over the common loops, target minus source
    /// iterator values (an anonymous tuple with one dimension per common
    /// loop; the parameters of the SCoP).
    pub distances: Set,
    /// One direction per common loop, outermost first.
    pub direction: Vec<Direction>,
    /// The one distance vector, when the relation is uniform.
    pub uniform: Option<Vec<Int>>,
}

/// The distances of every non-empty relation of `deps`, in the order raw,
/// war, waw, flow and, within one kind, the relations' order.
pub fn distances(scop: &Scop, deps: &Dependences) -> Result<Vec<Distance>> {
    let mut out = Vec::new();
    for (kind, rel) in [
        ("raw", &deps.raw),
        ("war", &deps.war),
        ("waw", &deps.waw),
        ("flow", &deps.flow),
    ] {
        out.extend(of_relation(scop, kind, rel)?);
    }
    Ok(out)
}

/// The distances of each member of one union of dependences.
fn of_relation(scop: &Scop, kind: &'static str, rel: &UnionMap) -> Result<Vec<Distance>> {
    let mut out = Vec::new();
    for m in rel.members() {
        let sp = m.space();
        let (Some(src), tgt) = (sp.domain_tuple(), sp.range_tuple()) else {
            continue;
        };
        let (Some(s), Some(t)) = (
            src.name.as_deref().and_then(|n| scop.statement(n)),
            tgt.name.as_deref().and_then(|n| scop.statement(n)),
        ) else {
            continue;
        };
        let c = common_loops(&s.positions, &t.positions);
        let (ni, no) = (sp.n_in(), sp.n_out());
        let common = m
            .project_out(DimKind::In, c, ni - c)?
            .project_out(DimKind::Out, c, no - c)?;
        let d = common.deltas()?.set_tuple_name(None);
        let space = d.space().clone();
        let mut direction = Vec::with_capacity(c);
        for k in 0..c {
            direction.push(direction_of(
                &d,
                &space,
                k,
                s.signs.get(k).copied().unwrap_or(1),
            )?);
        }
        let uniform = uniform_vector(&d, c)?;
        out.push(Distance {
            kind,
            source: s.name.clone(),
            target: t.name.clone(),
            distances: d,
            direction,
            uniform,
        });
    }
    Ok(out)
}

/// How many leading loops two statements with these textual positions
/// share: loop `k` is common when the positions up to `k` agree (and both
/// statements are that deep).
fn common_loops(a: &[i64], b: &[i64]) -> usize {
    let depth = a.len().min(b.len()).saturating_sub(1);
    (0..depth).take_while(|&k| a[k] == b[k]).count()
}

/// The direction of component `k` of the distances `d`, in the order of a
/// loop of direction `sign`.
fn direction_of(d: &Set, space: &Space, k: usize, sign: i64) -> Result<Direction> {
    let x = Expr::dim(DimKind::SET, k);
    let within = |c| -> Result<bool> { d.is_subset(&Set::from_constraints(space, [c])?) };
    if within(x.clone().eq(0))? {
        return Ok(Direction::Same);
    }
    // x in the loop's order of execution
    let x = if sign < 0 { -x } else { x };
    Ok(if within(x.clone().ge(1))? {
        Direction::Forward
    } else if within(x.clone().le(-1))? {
        Direction::Backward
    } else if within(x.clone().ge(0))? {
        Direction::ForwardOrSame
    } else if within(x.le(0))? {
        Direction::BackwardOrSame
    } else {
        Direction::Any
    })
}

/// The one vector of `d` when every component has one value, independent
/// of the parameters; `None` otherwise (or for an empty `d`).
fn uniform_vector(d: &Set, c: usize) -> Result<Option<Vec<Int>>> {
    let mut v = Vec::with_capacity(c);
    for k in 0..c {
        let (Ok(Some(lo)), Ok(Some(hi))) = (d.dim_min_affine(k), d.dim_max_affine(k)) else {
            return Ok(None);
        };
        // rows: the constant, then one coefficient per parameter
        if lo != hi || lo[1..].iter().any(|x| !x.is_zero()) {
            return Ok(None);
        }
        v.push(lo[0].clone());
    }
    Ok(Some(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_loops_from_positions() {
        assert_eq!(common_loops(&[0, 0, 0], &[0, 0, 1]), 2);
        assert_eq!(common_loops(&[0, 0, 0], &[0, 1, 0]), 1);
        assert_eq!(common_loops(&[0, 1], &[1, 0]), 0);
        assert_eq!(common_loops(&[0, 0, 0, 0], &[0, 0]), 1);
        assert_eq!(common_loops(&[3], &[3]), 0);
    }
}
