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

use crate::scop::Scop;
use presburger::{Map, Result, Space, Tuple, UnionMap};

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
/// budget).
pub fn dependences(scop: &Scop) -> Result<Dependences> {
    let domains = scop.domains()?;
    let writes = scop.writes()?.intersect_domain(&domains)?;
    let reads = scop.reads()?.intersect_domain(&domains)?;
    let sched = scop.schedule()?;
    let n_out = scop
        .statements
        .first()
        .map(|s| s.schedule.space().n_out())
        .unwrap_or(1);
    let time = Space::set(scop.params.clone(), Tuple::anonymous(n_out));
    let lex = UnionMap::from(Map::lex_lt(&time)?);
    let before = sched.apply_range(&lex)?.apply_range(&sched.reverse())?;
    let pairs = |a: &UnionMap, b: &UnionMap| -> Result<UnionMap> {
        let all = a
            .apply_range(&b.reverse())?
            .intersect(&before)?
            .coalesce_fuse_only()?;
        non_empty(&all)
    };
    // RAW and WAW one write access at a time (their unions are RAW and WAW),
    // kept for the last writers below
    let mut raw = UnionMap::empty(reads.params().to_vec());
    let mut waw = raw.clone();
    let mut per_access = Vec::new();
    for s in &scop.statements {
        for a in &s.writes {
            let wa = UnionMap::from(a.relation.intersect_domain(&s.domain)?);
            let raw_a = pairs(&wa, &reads)?;
            let waw_a = pairs(&wa, &writes)?;
            raw = raw.union(&raw_a)?;
            waw = waw.union(&waw_a)?;
            if !raw_a.members().is_empty() {
                per_access.push((raw_a, waw_a));
            }
        }
    }
    if scop.statements.iter().any(|s| s.writes.len() > 1) {
        // (the fuse case alone: these feed the subtraction below, which the
        // wrapped constraints of the full coalescing can make far costlier)
        raw = raw.coalesce_fuse_only()?;
        waw = waw.coalesce_fuse_only()?;
    }
    // the last writers: RAW_a − (WAW_a ; RAW) (see the module doc)
    let mut flow = UnionMap::empty(raw.params().to_vec());
    for (raw_a, waw_a) in &per_access {
        let killed = waw_a.apply_range(&raw)?;
        flow = flow.union(&raw_a.subtract(&killed)?)?;
    }
    Ok(Dependences {
        flow: non_empty(&flow.coalesce()?)?,
        war: pairs(&reads, &writes)?,
        waw,
        raw,
    })
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
