//! Dependences of a SCoP: pairs of statement instances that touch the same
//! array element, the first before the second in the original schedule.
//!
//! With `W` and `R` the write and read relations restricted to the domains,
//! and `Before = Sched ; <_lex ; Sched^-1` the pairs of instances whose 2d+1
//! times are in strict lexicographic order, the memory-based relations are
//! `RAW = (W ; R^-1) ∩ Before` (a write, then a read of its element),
//! `WAR = (R ; W^-1) ∩ Before` and `WAW = (W ; W^-1) ∩ Before`, each a union
//! map from the source instance to the target instance. They are
//! memory-based: every earlier access counts, not only the last writer.
//!
//! # Value-based flow dependences
//!
//! [`Dependences::flow`] keeps, for each read, only its *last writer*: the
//! write of the element read that comes last before the read (Feautrier,
//! "Dataflow analysis of array and scalar references", IJPP 20(1), 1991,
//! defines the last writer and computes it by parametric integer
//! programming). Here it is computed by subtraction, the formulation isl uses
//! for must-sources (every write of ours is a must-write: it always happens
//! and always writes its element). A pair `(w1, r)` of `RAW` is killed when
//! some write `w2` of the same element lies strictly between them:
//!
//! `flow = RAW − (WAW ; RAW)`, per write access.
//!
//! `;` is composition left to right (`a ; b = a.apply_range(b)`: `w1 -> w2`
//! then `w2 -> r`). Why it is exact: let `a` be one write access, a function
//! from instances to elements (an affine subscript gives one element per
//! instance), `RAW_a = (W_a ; R^-1) ∩ Before` and `WAW_a = (W_a ; W^-1) ∩
//! Before`. For `(w1, r)` in `RAW_a` the element is `e = W_a(w1)`, read by
//! `r`. If a write `w2` of `e` lies strictly between (`w1 < w2 < r`), then
//! `(w1, w2) ∈ WAW_a` and, as `w2` writes `e` which `r` reads,
//! `(w2, r) ∈ RAW`: the pair is in `WAW_a ; RAW`. Conversely, a pair of
//! `WAW_a ; RAW` has a `w2` after `w1` that writes `W_a(w1) = e` and comes
//! before `r`: `w1` is not the last writer of `e` before `r`. So
//! `RAW_a − (WAW_a ; RAW)` is exactly the set of pairs where `w1`, through
//! access `a`, is the last writer of an element `r` reads, and `flow` is its
//! union over the write accesses. (Applied to the whole `WAW` at once the
//! subtraction would be inexact for a statement with two write accesses: a
//! later write of one element would kill the flow through the other. The
//! front end makes one write per statement, where the two agree.) A write
//! and a read of one instance (`s = s + A[i]`) are not ordered by `Before`:
//! the read sees the value of an earlier instance.

use crate::scop::{Scop, union_map, union_set};
use presburger::{Map, Result, Space, Tuple, UnionMap};
use std::cell::RefCell;
use std::collections::HashMap;

/// The three kinds of memory-based dependences and the value-based flow.
#[derive(Clone, Debug)]
pub struct Dependences {
    /// Read after write (flow).
    pub raw: UnionMap,
    /// Write after read (anti).
    pub war: UnionMap,
    /// Write after write (output).
    pub waw: UnionMap,
    /// Value-based flow: each read instance from the last write of the
    /// element before it (a subset of `raw`; see the module doc).
    pub flow: UnionMap,
}

/// The memory-based dependences of `scop` and its value-based flow (see the
/// module doc). Fails only when an operation of `presburger` does (its work
/// budget, one for each statement's share of each relation).
///
/// The relations are the formulas of the module doc, evaluated statement by
/// statement and, within a statement, access by access: a pair of accesses
/// takes part only when they touch the same array (found through a table
/// from each array to its accesses), and `Before` is formed only for the
/// pairs of statements that such a pair relates. Every member of the result
/// is the same as that of the formulas over the whole unions (the union
/// operations act space by space, and a space `S -> T` gets the same members
/// in the same order).
pub fn dependences(scop: &Scop) -> Result<Dependences> {
    let params = &scop.params;
    let n_out = scop
        .statements
        .first()
        .map(|s| s.schedule.space().n_out())
        .unwrap_or(1);
    let time = Space::set(params.clone(), Tuple::anonymous(n_out));
    let lex = UnionMap::from(Map::lex_lt(&time)?);
    // each statement's accesses restricted to its domain (one member per
    // array) and its schedule
    let mut stmts = Vec::with_capacity(scop.statements.len());
    for s in &scop.statements {
        let dom = union_set(params, [s.domain.clone()])?;
        let rel = |acc: &[crate::scop::Access]| {
            union_map(params, acc.iter().map(|a| a.relation.clone()))?.intersect_domain(&dom)
        };
        stmts.push(Local {
            reads: rel(&s.reads)?,
            writes: rel(&s.writes)?,
            sched: union_map(params, [s.schedule.clone()])?,
        });
    }
    let ctx = Context {
        params,
        lex,
        stmts: &stmts,
        by_name: scop
            .statements
            .iter()
            .enumerate()
            .map(|(k, s)| (s.name.clone(), k))
            .collect(),
        reads: by_array(stmts.iter().map(|l| &l.reads)),
        writes: by_array(stmts.iter().map(|l| &l.writes)),
        before: RefCell::new(HashMap::new()),
        later: RefCell::new(HashMap::new()),
    };
    let several_writes = scop.statements.iter().any(|s| s.writes.len() > 1);
    // RAW and WAW one write access at a time (their unions are RAW and WAW),
    // kept for the last writers below
    let mut raw = Vec::with_capacity(stmts.len());
    let mut waw = Vec::with_capacity(stmts.len());
    let mut per_access = Vec::new();
    for s in &scop.statements {
        let mut raw_s = UnionMap::empty(params.clone());
        let mut waw_s = raw_s.clone();
        for a in &s.writes {
            let wa = UnionMap::from(a.relation.intersect_domain(&s.domain)?);
            let raw_a = ctx.pairs(&wa, &ctx.reads)?;
            let waw_a = ctx.pairs(&wa, &ctx.writes)?;
            raw_s = raw_s.union(&raw_a)?;
            waw_s = waw_s.union(&waw_a)?;
            if !raw_a.members().is_empty() {
                per_access.push((raw_a, waw_a));
            }
        }
        if several_writes {
            // (the fuse case alone: these feed the subtraction below, which
            // the wrapped constraints of the full coalescing can make far
            // costlier)
            raw_s = raw_s.coalesce_fuse_only()?;
            waw_s = waw_s.coalesce_fuse_only()?;
        }
        raw.push(raw_s);
        waw.push(waw_s);
    }
    let raw = concat(params, raw)?;
    // the members of RAW by their source statement
    let mut raw_from: HashMap<String, Vec<&Map>> = HashMap::new();
    for m in raw.members() {
        if let Some(name) = m.space().domain_tuple().and_then(|t| t.name.clone()) {
            raw_from.entry(name).or_default().push(m);
        }
    }
    // the last writers: RAW_a − (WAW_a ; RAW) (see the module doc), the
    // composition over the members of RAW that leave the middle statement
    let mut flow: Vec<UnionMap> = Vec::new();
    let mut flow_of: Option<String> = None;
    for (raw_a, waw_a) in &per_access {
        let mut killed = Vec::new();
        for x in waw_a.members() {
            let middle = x.space().range_tuple();
            for y in middle
                .name
                .as_ref()
                .and_then(|n| raw_from.get(n))
                .into_iter()
                .flatten()
            {
                if y.space()
                    .domain_tuple()
                    .is_some_and(|t| t.same_shape(middle))
                {
                    killed.push(x.apply_range(y)?);
                }
            }
        }
        let killed = union_map(params, killed)?;
        let source = raw_a.members()[0]
            .space()
            .domain_tuple()
            .and_then(|t| t.name.clone());
        if flow_of != source || flow.is_empty() {
            flow.push(UnionMap::empty(params.clone()));
            flow_of = source;
        }
        let last = flow.len() - 1;
        flow[last] = flow[last].union(&raw_a.subtract(&killed)?)?;
    }
    let mut flow_c = Vec::with_capacity(flow.len());
    for f in flow {
        flow_c.push(non_empty(&f.coalesce()?)?);
    }
    let mut war = Vec::with_capacity(stmts.len());
    for l in &stmts {
        war.push(ctx.pairs(&l.reads, &ctx.writes)?);
    }
    Ok(Dependences {
        flow: concat(params, flow_c)?,
        war: concat(params, war)?,
        waw: concat(params, waw)?,
        raw,
    })
}

/// One statement's accesses, restricted to its domain, and its schedule.
struct Local {
    reads: UnionMap,
    writes: UnionMap,
    sched: UnionMap,
}

/// The members of the access unions `us` (in order) by the name of their
/// array.
fn by_array<'a>(us: impl Iterator<Item = &'a UnionMap>) -> HashMap<Option<String>, Vec<Map>> {
    let mut out: HashMap<Option<String>, Vec<Map>> = HashMap::new();
    for u in us {
        for m in u.members() {
            out.entry(m.space().range_tuple().name.clone())
                .or_default()
                .push(m.reverse());
        }
    }
    out
}

/// What the pairs of accesses are formed from.
struct Context<'a> {
    params: &'a [String],
    /// `<_lex` on the time space.
    lex: UnionMap,
    stmts: &'a [Local],
    by_name: HashMap<String, usize>,
    /// The reversed read and write relations (array to instance) by array.
    reads: HashMap<Option<String>, Vec<Map>>,
    writes: HashMap<Option<String>, Vec<Map>>,
    /// `Sched_s ; <_lex ; Sched_t^-1` by `(s, t)`, and `Sched_s ; <_lex` by
    /// `s`, as they are first needed.
    before: RefCell<HashMap<(usize, usize), UnionMap>>,
    later: RefCell<HashMap<usize, UnionMap>>,
}

impl Context<'_> {
    /// `(a ; b^-1) ∩ Before` fuse-coalesced without its empty members, with
    /// `b^-1` the reversed accesses `by` grouped by array: `a`'s members
    /// are composed with those of its own array, in their order.
    fn pairs(&self, a: &UnionMap, by: &HashMap<Option<String>, Vec<Map>>) -> Result<UnionMap> {
        let mut all = Vec::new();
        for x in a.members() {
            let array = x.space().range_tuple();
            for y in by.get(&array.name).into_iter().flatten() {
                if y.space()
                    .domain_tuple()
                    .is_some_and(|t| t.same_shape(array))
                {
                    all.push(x.apply_range(y)?);
                }
            }
        }
        let all = union_map(self.params, all)?;
        let mut before = Vec::with_capacity(all.members().len());
        for m in all.members() {
            let k = |t: Option<&Tuple>| {
                t.and_then(|t| t.name.as_ref())
                    .and_then(|n| self.by_name.get(n).copied())
            };
            if let (Some(s), Some(t)) = (
                k(m.space().domain_tuple()),
                k(Some(m.space().range_tuple())),
            ) {
                before.extend(self.before(s, t)?.members().iter().cloned());
            }
        }
        let before = union_map(self.params, before)?;
        non_empty(&all.intersect(&before)?.coalesce_fuse_only()?)
    }

    /// `Sched_s ; <_lex ; Sched_t^-1`: the pairs of instances of `s` and
    /// `t` in strict lexicographic order of their times.
    fn before(&self, s: usize, t: usize) -> Result<UnionMap> {
        if let Some(b) = self.before.borrow().get(&(s, t)) {
            return Ok(b.clone());
        }
        let later = match self.later.borrow().get(&s) {
            Some(l) => l.clone(),
            None => self.stmts[s].sched.apply_range(&self.lex)?,
        };
        self.later
            .borrow_mut()
            .entry(s)
            .or_insert_with(|| later.clone());
        let b = later.apply_range(&self.stmts[t].sched.reverse())?;
        self.before.borrow_mut().insert((s, t), b.clone());
        Ok(b)
    }
}

/// The members of the unions `us`, in order, as one union.
fn concat(params: &[String], us: Vec<UnionMap>) -> Result<UnionMap> {
    union_map(params, us.into_iter().flat_map(|u| u.members().to_vec()))
}

/// `u` without its empty members (pairs of statements with no dependence).
fn non_empty(u: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.members() {
        if !m.is_empty()? {
            out.add(m.clone())?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::{Options, extract_scop};

    #[test]
    fn a_stencil_in_place() {
        let src = "#pragma scop\nfor (i = 1; i < n; i++)\n  A[i] = A[i - 1] + A[i + 1];\n#pragma endscop\n";
        let d = dependences(&extract_scop(src, &Options::default()).unwrap()).unwrap();
        let raw: UnionMap = "[n] -> { S0[i] -> S0[i + 1] : 1 <= i < n - 1 }"
            .parse()
            .unwrap();
        let war: UnionMap = "[n] -> { S0[i] -> S0[i + 1] : 1 <= i < n - 1 }"
            .parse()
            .unwrap();
        assert!(d.raw.is_equal(&raw).unwrap(), "{}", d.raw);
        assert!(d.war.is_equal(&war).unwrap(), "{}", d.war);
        assert!(d.waw.is_empty().unwrap(), "{}", d.waw);
    }

    #[test]
    fn flow_per_write_access_with_two_writes_in_a_statement() {
        // S0 writes A[i] and (added by hand) C[i]; S1 overwrites A[i] only, so
        // S2's read of C[i] still comes from S0, its read of A[i] from S1
        let src = "#pragma scop\nfor (i = 0; i < n; i++)\n  A[i] = 0;\nfor (i = 0; i < n; i++)\n  A[i] = 1;\nfor (i = 0; i < n; i++)\n  B[i] = A[i] + C[i];\n#pragma endscop\n";
        let mut scop = extract_scop(src, &Options::default()).unwrap();
        scop.statements[0].writes.push(crate::scop::Access {
            array: "C".into(),
            relation: "{ S0[i] -> C[i] }".parse().unwrap(),
        });
        let d = dependences(&scop).unwrap();
        let flow: UnionMap = "[n] -> { S0[i] -> S2[i] : 0 <= i < n; S1[i] -> S2[i] : 0 <= i < n }"
            .parse()
            .unwrap();
        assert!(d.flow.is_equal(&flow).unwrap(), "{}", d.flow);
    }
}
