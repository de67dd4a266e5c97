//! Coalescing: the same set or map with fewer disjuncts.
//!
//! What it computes: a union of conjunctions with exactly the points of the
//! input, where a disjunct contained in another is dropped and two disjuncts
//! are replaced by one conjunction whenever their union is one.
//!
//! The idea (the basic form of isl's `isl_map_coalesce`): the constraints of
//! each disjunct that hold on the other are kept ("fuse"); when their
//! conjunction has no integer point outside both disjuncts (checked exactly by
//! the inclusion test), it is the union. Whether a constraint holds on the
//! other disjunct is decided on that disjunct's tableau ([`Region::holds`]),
//! with the integer test only when the tableau cannot tell.
//!
//! Source: S. Verdoolaege, "Integer Set Coalescing", IMPACT 2015 (sections
//! "Constraint Types" and "Coalescing Cases": fuse, extension, wrapping), and
//! the ideas of isl's `isl_coalesce.c`.

use super::algebra::Region;
use crate::api::Disjunction;
use crate::conjunction::Conjunction;
use crate::error::Result;
use crate::omega::Budget;

impl Disjunction {
    /// Coalescing: drop disjuncts contained in others; merge pairs whose union is a
    /// conjunction (see the module doc). Exact: the result has the same points.
    pub(crate) fn coalesce(&self, budget: &mut Budget) -> Result<Disjunction> {
        let mut d = self.clone();
        d.simplify();
        let mut parts: Vec<Conjunction> = Vec::with_capacity(d.parts.len());
        for mut c in d.parts.drain(..) {
            budget.spend(1 + c.eqs.len() + c.ineqs.len())?;
            c.remove_redundancies();
            if !c.is_empty_with(budget)? {
                parts.push(c);
            }
        }
        let space = d.space.clone();
        let single = |c: &Conjunction| Disjunction {
            space: space.clone(),
            parts: vec![c.clone()],
        };
        'outer: loop {
            for i in 0..parts.len() {
                for j in 0..parts.len() {
                    if i == j {
                        continue;
                    }
                    // drop i when it lies inside j
                    if single(&parts[i]).is_subset(&single(&parts[j]), budget)? {
                        parts.remove(i);
                        continue 'outer;
                    }
                    if i < j {
                        if let Some(m) = try_merge(&parts[i], &parts[j], &space, budget)? {
                            parts.remove(j);
                            parts[i] = m;
                            continue 'outer;
                        }
                    }
                }
            }
            break;
        }
        let mut out = Disjunction { space, parts };
        out.simplify();
        Ok(out)
    }
}

/// The constraints of `a` that hold on all of `b`, plus those of `b` that hold on
/// all of `a`: if their conjunction has no integer point outside `a ∪ b`, it is the
/// union. Only for conjunctions without locals (the common case after
/// simplification); others are left alone.
fn try_merge(
    a: &Conjunction,
    b: &Conjunction,
    space: &crate::space::Space,
    budget: &mut Budget,
) -> Result<Option<Conjunction>> {
    if a.n_local() > 0 || b.n_local() > 0 {
        return Ok(None);
    }
    let mut hull = Conjunction::universe(space.clone());
    for (x, y) in [(a, b), (b, a)] {
        let Some(mut on) = Region::new(y) else {
            // y is empty: everything holds on it
            hull.eqs.extend(x.eqs.iter().cloned());
            hull.ineqs.extend(x.ineqs.iter().cloned());
            continue;
        };
        for e in &x.eqs {
            if on.holds(e, true, budget)? {
                hull.eqs.push(e.clone());
            }
        }
        for r in &x.ineqs {
            if on.holds(r, false, budget)? {
                hull.ineqs.push(r.clone());
            }
        }
    }
    let h = Disjunction {
        space: space.clone(),
        parts: vec![hull.clone()],
    };
    let both = Disjunction {
        space: space.clone(),
        parts: vec![a.clone(), b.clone()],
    };
    if h.is_subset(&both, budget)? {
        hull.simplify();
        Ok(Some(hull))
    } else {
        Ok(None)
    }
}

impl Disjunction {
    /// Coalescing, a budget error reworded for the user.
    pub(crate) fn coalesce_in(&self, budget: &mut Budget) -> Result<Disjunction> {
        self.coalesce(budget)
            .map_err(|e| super::algebra::budget_context("coalescing", e))
    }
}
