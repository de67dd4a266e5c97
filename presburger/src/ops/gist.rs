//! Simplification with respect to the set itself and to a context: implicit
//! equalities, redundant constraints, and `gist`.
//!
//! - `detect_equalities`: inequalities that hold with equality at every rational
//!   point (found by the exact simplex) become equalities; rational implicit
//!   equalities are integer ones too.
//! - `simplify`: structural simplification, implicit equalities, removal of
//!   redundant inequalities and of locals that can be eliminated exactly.
//! - `gist(S, C)` (isl's gist): drops from each conjunction of `S` every constraint
//!   that the context `C` and the remaining constraints imply, so that
//!   `gist(S, C) ∩ C = S ∩ C` while `gist(S, C)` is usually much shorter. A
//!   constraint `c` is implied when `C ∩ rest ∩ not c` has no integer point (decided
//!   exactly, by the disjointness test of [`crate::algebra`] with the context).
//!   One budget per call, shared by all these tests (`gist_with_budget` takes the
//!   caller's).

use crate::algebra::budget_context;
use crate::api::Disjunction;
use crate::conjunction::{Conjunction, Row};
use crate::error::Result;
use crate::omega::Budget;

impl Conjunction {
    /// Turns implicit equalities (inequalities tight at every rational point) into
    /// equalities.
    pub fn detect_equalities(&mut self) {
        self.simplify();
        if self.is_trivially_empty() || self.ineqs.is_empty() {
            return;
        }
        let Some((mut s, first)) = self.rational_tableau() else {
            *self = Conjunction::empty(self.space.clone());
            return;
        };
        let tight = s.detect_implicit_equalities();
        if tight.is_empty() {
            return;
        }
        let mut keep = Vec::with_capacity(self.ineqs.len());
        for (k, r) in self.ineqs.drain(..).enumerate() {
            if tight.contains(&(first + k)) {
                self.eqs.push(r);
            } else {
                keep.push(r);
            }
        }
        self.ineqs = keep;
        self.simplify();
    }
}

impl Disjunction {
    /// Negations of a row, as inequalities whose union is the complement.
    fn negations(row: &Row, is_eq: bool) -> Vec<Row> {
        let mut below: Row = row.iter().map(|v| -v).collect();
        below[0] -= 1;
        if is_eq {
            let mut above = row.clone();
            above[0] -= 1;
            vec![above, below]
        } else {
            vec![below]
        }
    }

    pub(crate) fn gist(&self, context: &Disjunction, budget: &mut Budget) -> Result<Disjunction> {
        let params = crate::api::merged_params(self.space.params(), context.space.params());
        let s = self.align_params(&params);
        let ctx = context.align_params(&params);
        let mut parts = Vec::with_capacity(s.parts.len());
        for c in &s.parts {
            let mut c = c.clone();
            c.simplify();
            // Try to drop each constraint in turn (inequalities, then equalities).
            let mut k = 0;
            while k < c.ineqs.len() + c.eqs.len() {
                let is_eq = k >= c.ineqs.len();
                let mut rest = c.clone();
                let row = if is_eq {
                    rest.eqs.remove(k - c.ineqs.len())
                } else {
                    rest.ineqs.remove(k)
                };
                // divisions' defining rows stay (the printer relies on them)
                let defining = !is_eq && is_div_row(&c, &row);
                let implied = !defining && {
                    let mut all_empty = true;
                    for neg in Disjunction::negations(&row, is_eq) {
                        let mut probe = rest.clone();
                        probe.ineqs.push(neg);
                        let probe = Disjunction {
                            space: s.space.clone(),
                            parts: vec![probe],
                        };
                        if !probe.is_disjoint(&ctx, budget)? {
                            all_empty = false;
                            break;
                        }
                    }
                    all_empty
                };
                if implied {
                    c = rest;
                } else {
                    k += 1;
                }
            }
            c.eliminate_locals_exactly();
            parts.push(c);
        }
        let mut d = Disjunction {
            space: s.space.clone(),
            parts,
        };
        d.simplify();
        Ok(d)
    }
}

fn is_div_row(c: &Conjunction, row: &Row) -> bool {
    let first_local = 1 + c.space.n_var();
    c.divs.iter().enumerate().any(|(l, d)| {
        d.as_ref().is_some_and(|d| {
            let (mut lo, mut hi) = crate::conjunction::div_constraints(d, first_local + l);
            crate::conjunction::normalize_ineq(&mut lo);
            crate::conjunction::normalize_ineq(&mut hi);
            *row == lo || *row == hi
        })
    })
}

impl Disjunction {
    /// The gist in `context`, a budget error reworded for the user.
    pub(crate) fn gist_in(
        &self,
        context: &Disjunction,
        budget: &mut Budget,
    ) -> Result<Disjunction> {
        self.gist(context, budget)
            .map_err(|e| budget_context("gist", e))
    }

    /// Every conjunction with its implicit equalities, redundant constraints
    /// and eliminable locals removed; the empty ones dropped.
    pub(crate) fn simplify_full(&self, budget: &mut Budget) -> Result<Disjunction> {
        let mut d = self.clone();
        let mut parts = Vec::with_capacity(d.parts.len());
        for mut c in d.parts.drain(..) {
            c.detect_equalities();
            c.eliminate_locals_exactly();
            c.remove_redundancies();
            if !c.is_empty_with(budget)? {
                parts.push(c);
            }
        }
        d.parts = parts;
        d.simplify();
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Set;
    use crate::testing::{set_points, Box as PBox};
    use proptest::prelude::*;

    fn set(s: &str) -> Set {
        s.parse().unwrap()
    }

    #[test]
    fn gist_drops_what_the_context_implies() {
        let g = set("[N] -> { [i] : 0 <= i < N and N >= 10 }")
            .gist(&set("[N] -> { [i] : N >= 10 and i >= 0 }"))
            .unwrap();
        assert_eq!(g.to_string(), "[N] -> { [i] : i < N }");
        let e = set("{ [i, j] : i >= 0 and j >= 0 and i + j <= 0 }").detect_equalities();
        assert_eq!(e.to_string(), "{ [0, 0] }");
        let s = set("{ [i] : 0 <= i <= 10 and i <= 20 and 2i >= -5 }")
            .simplify_full()
            .unwrap();
        assert_eq!(s.to_string(), "{ [i] : 0 <= i <= 10 }");
    }

    /// No local left in the printed set.
    fn no_locals(s: &Set) -> bool {
        let t = s.to_string();
        !t.contains("exists") && !t.contains("mod") && !t.contains("floor")
    }

    /// Issue 14: a piece outside the context is dropped by gist.
    #[test]
    fn gist_drops_pieces_outside_the_context() {
        let s = set("{ [t0, t1] : t1 <= -1 or (t1 >= 0 and t0 >= 5) }");
        let c = set("{ [t0, t1] : t1 >= 0 }");
        let g = s.gist(&c).unwrap();
        assert!(g.is_equal(&set("{ [t0, t1] : t0 >= 5 }")).unwrap(), "{g}");
        assert!(g
            .intersect(&c)
            .unwrap()
            .is_equal(&s.intersect(&c).unwrap())
            .unwrap());
        // a piece of the input that lies entirely outside the context
        let g = set("{ [0, 0, q, p] : -5 <= q <= 5 and p >= 0 }")
            .gist(&set("{ [a, b, q, p] : b >= 1 + a }"))
            .unwrap();
        assert!(g.is_empty().unwrap(), "{g}");
        // an empty context implies everything
        let g = set("{ [i] : i >= 3 }")
            .gist(&set("{ [i] : 1 = 0 }"))
            .unwrap();
        assert_eq!(g.to_string(), "{ [i] }");
    }

    /// Issue 14: existentials that the set does not need are removed.
    #[test]
    fn simplify_removes_needless_existentials() {
        // 32e1 = 31(1 + a + e0) holds for every a with e0 = -1 - a
        let s = set("{ [a] : exists e0, e1 : 32e1 = 31 + 31a + 31e0 }");
        let f = s.simplify_full().unwrap();
        assert_eq!(f.to_string(), "{ [a] }");
        // the constraints on e hold for some integer e whenever i >= 10
        let s = set("{ [i] : i >= 10 and exists e : 2e <= i and 3e >= i - 10 }");
        let f = s.simplify_full().unwrap();
        assert!(no_locals(&f) && f.is_equal(&s).unwrap(), "{f}");
        assert_eq!(f.to_string(), "{ [i] : i >= 10 }");
        // a stride that another equality makes redundant
        let s = set("{ [i, j] : i = 4j and exists e : i = 2e }");
        let f = s.simplify_full().unwrap();
        assert!(no_locals(&f) && f.is_equal(&s).unwrap(), "{f}");
        // two locals free in one equality: one stride with their gcd is left
        let s = set("{ [a] : exists e0, e1 : 6e0 + 4e1 = a }");
        let f = s.simplify_full().unwrap();
        assert!(f.is_equal(&set("{ [a] : a mod 2 = 0 }")).unwrap(), "{f}");
        // a stride that is needed stays
        let s = set("{ [i] : exists e : i = 3e and 0 <= i <= 10 }");
        let f = s.simplify_full().unwrap();
        assert!(f.is_equal(&s).unwrap() && !no_locals(&f), "{f}");
    }

    fn arb() -> impl Strategy<Value = String> {
        let con =
            (-2i64..=2, -2i64..=2, -3i64..=3).prop_map(|(a, b, c)| format!("{a}i + {b}j >= {c}"));
        (prop::collection::vec(con, 0..4), prop::option::of(2i64..=3)).prop_map(|(cs, m)| {
            let mut parts = vec!["-3 <= i <= 3".to_string(), "-3 <= j <= 3".to_string()];
            parts.extend(cs);
            let body = parts.join(" and ");
            match m {
                Some(m) => format!("{{ [i, j] : exists e : i + j = {m}e and {body} }}"),
                None => format!("{{ [i, j] : {body} }}"),
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// gist(S, C) ∩ C = S ∩ C, and the simplifications keep the points.
        #[test]
        fn simplifications_keep_the_meaning(a in arb(), c in arb()) {
            let (s, ctx) = (set(&a), set(&c));
            let b = PBox::new(vec![], -4, 4);
            let g = s.gist(&ctx).unwrap();
            prop_assert_eq!(
                set_points(&g.intersect(&ctx).unwrap(), &b),
                set_points(&s.intersect(&ctx).unwrap(), &b)
            );
            prop_assert!(g.intersect(&ctx).unwrap().is_equal(&s.intersect(&ctx).unwrap()).unwrap());
            // no piece of the gist outside the context (unless the context is empty)
            if !ctx.is_empty().unwrap() {
                for b in g.basics() {
                    prop_assert!(!Set::from(b.clone()).is_disjoint(&ctx).unwrap(), "{} outside {}", b, c);
                }
            }
            let p = set_points(&s, &b);
            prop_assert_eq!(set_points(&s.detect_equalities(), &b), p.clone());
            let f = s.simplify_full().unwrap();
            prop_assert_eq!(set_points(&f, &b), p);
            prop_assert!(f.is_equal(&s).unwrap());
        }
    }
}
