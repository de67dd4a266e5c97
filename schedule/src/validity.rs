//! An independent check that a schedule respects the dependences.
//!
//! A schedule maps every statement instance to a point of one anonymous time
//! space (all statements the same number of dimensions); instances run in the
//! lexicographic order of their times. It is *valid* for a set of
//! dependences when every dependence pair `s -> t` (source before target in
//! the original program) keeps its order strictly:
//!
//! `deps ⊆ Sched ; <_lex ; Sched^-1`
//!
//! (the legality condition of multi-dimensional schedules: Feautrier, "Some
//! efficient solutions to the affine scheduling problem, part II", IJPP
//! 21(6), 1992).
//!
//! The check is written apart from any scheduler and asks the converse
//! question, which needs intersections and emptiness only (no subtraction):
//! a relation `D: S -> T` of the dependences is violated when
//! `D ∩ (Sched_S ; >=_lex ; Sched_T^-1)` has a pair, i.e. the target runs at
//! the same time as the source or earlier. An instance that is the source
//! or target of a dependence and has no time under the schedule also makes
//! the schedule invalid (it cannot be ordered). The witness pair is an
//! integer sample of the violating relation (parameters included), which is
//! cheap once the relation is known not to be empty.

use crate::deps::Dependences;
use crate::scop::Scop;
use presburger::{Int, Map, Result, Space, Tuple, UnionMap, UnionSet};
use std::fmt;

/// A dependence relation that a schedule does not respect.
#[derive(Clone, Debug)]
pub struct Violation {
    /// `raw`, `war`, `waw` (or `deps` for a relation given directly).
    pub kind: &'static str,
    /// The source statement.
    pub source: String,
    /// The target statement.
    pub target: String,
    /// The dependence pairs that the schedule runs at the same time or in
    /// the wrong order (or leaves without a time).
    pub pairs: Map,
    /// One such pair: parameter values, then the source's iterators, then
    /// the target's (when a sample was found).
    pub sample: Option<Vec<Int>>,
    /// Why: `order` (the target is not strictly later) or `unscheduled`.
    pub reason: &'static str,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.reason == "unscheduled" {
            "has instances without a time"
        } else {
            "is not respected"
        };
        write!(
            f,
            "{} dependence {} -> {} {what}: {}",
            self.kind, self.source, self.target, self.pairs
        )?;
        if let Some(s) = &self.sample {
            let txt: Vec<String> = s.iter().map(|v| v.to_string()).collect();
            write!(f, " (e.g. [{}])", txt.join(", "))?;
        }
        Ok(())
    }
}

/// The answer of the check: valid, or the first violated relation found.
#[derive(Clone, Debug)]
pub enum Validity {
    /// Every dependence pair runs its target strictly after its source.
    Valid,
    /// A relation that fails.
    Invalid(Box<Violation>),
}

impl Validity {
    /// True for [`Validity::Valid`].
    pub fn is_valid(&self) -> bool {
        matches!(self, Validity::Valid)
    }
}

/// The number of time dimensions of `sched`: every member must have the
/// same anonymous range of that many dimensions. An empty schedule has 0.
pub fn time_dims(sched: &UnionMap) -> Result<usize> {
    let mut n = None;
    for m in sched.members() {
        let sp = m.space();
        if sp.range_tuple().name.is_some() {
            return Err(presburger::Error::Invalid(format!(
                "the schedule's time space must be anonymous, not {}",
                sp.range_tuple().name.as_deref().unwrap_or("")
            )));
        }
        let k = sp.n_out();
        if *n.get_or_insert(k) != k {
            return Err(presburger::Error::Invalid(
                "every statement's schedule must have the same number of time dimensions".into(),
            ));
        }
    }
    Ok(n.unwrap_or(0))
}

/// Checks `sched` against the memory-based dependences `deps` (RAW, WAR and
/// WAW; the flow dependences are a subset of RAW) of `scop`, for the
/// parameter values of its context. See the module doc.
pub fn check(scop: &Scop, deps: &Dependences, sched: &UnionMap) -> Result<Validity> {
    for (kind, rel) in [("raw", &deps.raw), ("war", &deps.war), ("waw", &deps.waw)] {
        let mut ctx = UnionSet::empty(scop.context.space().params().to_vec());
        ctx.add(scop.context.clone())?;
        let rel = rel.intersect_params(&ctx)?;
        let v = check_relation(kind, &rel, sched)?;
        if !v.is_valid() {
            return Ok(v);
        }
    }
    Ok(Validity::Valid)
}

/// Checks `sched` against one union of dependence relations, reporting a
/// failure under the name `kind`.
pub fn check_relation(kind: &'static str, deps: &UnionMap, sched: &UnionMap) -> Result<Validity> {
    let n = time_dims(sched)?;
    let mut params = deps.params().to_vec();
    for p in sched.params() {
        if !params.contains(p) {
            params.push(p.clone());
        }
    }
    let time = Space::set(params, Tuple::anonymous(n));
    let ge = Map::lex_ge(&time)?;
    for d in deps.members() {
        let sp = d.space();
        let Some(src) = sp.domain_tuple() else {
            continue;
        };
        let tgt = sp.range_tuple();
        let name = |t: &Tuple| t.name.clone().unwrap_or_default();
        let violation = |pairs: Map, reason| -> Result<Validity> {
            let sample = pairs.sample()?;
            Ok(Validity::Invalid(Box::new(Violation {
                kind,
                source: name(src),
                target: name(tgt),
                pairs,
                sample,
                reason,
            })))
        };
        let (Some(ss), Some(st)) = (
            member_from(sched, src, sp.n_in()),
            member_from(sched, tgt, sp.n_out()),
        ) else {
            if d.is_empty()? {
                continue;
            }
            return violation(d.clone(), "unscheduled");
        };
        // every instance of the dependence must have a time
        let unscheduled_src = d.subtract_domain(&ss.domain())?;
        if !unscheduled_src.is_empty()? {
            return violation(unscheduled_src, "unscheduled");
        }
        let unscheduled_tgt = d.subtract_range(&st.domain())?;
        if !unscheduled_tgt.is_empty()? {
            return violation(unscheduled_tgt, "unscheduled");
        }
        // pairs whose target time is not strictly later
        let wrong = ss.apply_range(&ge)?.apply_range(&st.reverse())?;
        let bad = d.intersect(&wrong)?;
        if !bad.is_empty()? {
            return violation(bad.coalesce()?, "order");
        }
    }
    Ok(Validity::Valid)
}

/// The member of `sched` whose domain is the tuple `t` (its name and its
/// `n` dimensions).
fn member_from<'a>(sched: &'a UnionMap, t: &Tuple, n: usize) -> Option<&'a Map> {
    sched.members().iter().find(|m| {
        m.space().n_in() == n && m.space().domain_tuple().map(|d| &d.name) == Some(&t.name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::{Options, extract_scop};
    use crate::deps::dependences;

    #[test]
    fn a_stencil_cannot_run_backwards() {
        let src = "#pragma scop\nfor (i = 1; i < n; i++)\n  A[i] = A[i - 1] + A[i + 1];\n#pragma endscop\n";
        let scop = extract_scop(src, &Options::default()).unwrap();
        let d = dependences(&scop).unwrap();
        assert!(
            check(&scop, &d, &scop.schedule().unwrap())
                .unwrap()
                .is_valid()
        );
        let rev: UnionMap = "[n] -> { S0[i] -> [0, -i, 0] }".parse().unwrap();
        let Validity::Invalid(v) = check(&scop, &d, &rev).unwrap() else {
            panic!("reversal accepted");
        };
        assert_eq!((v.source.as_str(), v.target.as_str()), ("S0", "S0"));
        assert_eq!(v.reason, "order");
        let s = v.sample.expect("a sample");
        // [n, i, i'] with i' = i + 1
        assert_eq!(s[2].clone() - s[1].clone(), Int::from(1));
        // all at one time: not strictly later
        let flat: UnionMap = "[n] -> { S0[i] -> [0] }".parse().unwrap();
        assert!(!check(&scop, &d, &flat).unwrap().is_valid());
        // a schedule missing instances
        let part: UnionMap = "[n] -> { S0[i] -> [i] : i < 5 }".parse().unwrap();
        let Validity::Invalid(v) = check(&scop, &d, &part).unwrap() else {
            panic!("partial schedule accepted");
        };
        assert_eq!(v.reason, "unscheduled");
        // mismatched time dimensions are an error
        let mixed = UnionMap::empty(vec![]);
        assert_eq!(time_dims(&mixed).unwrap(), 0);
    }
}
