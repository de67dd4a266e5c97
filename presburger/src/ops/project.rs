//! Projection: eliminating variables exactly over the integers, and removing
//! redundant constraints.
//!
//! `project_out` first makes the eliminated variables existentially quantified
//! locals (always exact), then removes every local for which an exact integer
//! elimination exists, and keeps the others as locals:
//! - a local fixed by an equality with a unit coefficient is substituted
//!   (in [`Conjunction::simplify`]);
//! - a local bounded on one side only (or not at all) is dropped with its
//!   inequalities: any value of the other variables leaves it a value;
//! - a local whose lower-bound coefficients are all 1 (or whose upper-bound
//!   coefficients are all 1) is eliminated by Fourier–Motzkin, which is then exact
//!   over the integers: `x >= l_i` with integer `l_i` and `b_j·x <= u_j` have a common
//!   integer solution iff `b_j·l_i <= u_j` for all pairs (Pugh 1992, "exact
//!   elimination"; Schrijver, Theory of Linear and Integer Programming, §12.2).
//!
//! What remains is a set with existential variables, exact as it stands; the
//! emptiness test and all queries handle such sets exactly. (The Omega test's dark
//! shadow and splinters could trade the remaining locals for a union of
//! conjunctions; that is left for when a caller needs local-free output.)
//! Fourier–Motzkin steps that would add more than [`MAX_FM_ROWS`] rows are not taken.
//!
//! Redundancy: an inequality implied over the rationals by the other constraints is
//! implied over the integers too, and the rational polyhedron (in the space of all
//! variables, locals included) does not change when it is dropped, so neither do its
//! integer points or their projection. The exact simplex decides it.

use crate::conjunction::{Conjunction, Row};
use crate::elimination::fm_pair;
use crate::simplex::Simplex;

/// Largest number of rows one Fourier–Motzkin step may create in `project_out`.
pub const MAX_FM_ROWS: usize = 64;

impl Conjunction {
    /// Removes every local that can be eliminated exactly (see the module doc);
    /// returns true if any was. The result is simplified. Passes
    /// (`Conjunction::elimination_pass`) alternate with simplifications
    /// (which can merge the new rows and make more locals eliminable), the
    /// first pass on the rows as they come (most often simplified already): a
    /// pass that eliminates nothing there is tried once more after the
    /// simplification.
    pub fn eliminate_locals_exactly(&mut self) -> bool {
        let mut any = false;
        let mut simplified = false;
        loop {
            if self.is_trivially_empty() {
                return any;
            }
            let done = self.elimination_pass();
            any |= done;
            if !done && simplified {
                return any;
            }
            self.simplify();
            simplified = true;
        }
    }

    /// One pass of exact eliminations: the locals are visited from the last,
    /// and each one that occurs in no equality and no division and whose
    /// lower (or upper) bounds all have coefficient one, or that is bounded
    /// on one side only, is eliminated by Fourier–Motzkin (exact then); the
    /// columns of the locals before it do not move, so the pass goes on with
    /// them. True when a local was eliminated.
    fn elimination_pass(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let mut done = false;
        for l in (0..self.n_local()).rev() {
            let col = first_local + l;
            if self.eqs.iter().any(|r| !r[col].is_zero()) {
                continue;
            }
            if self.divs.iter().flatten().any(|d| !d.num[col].is_zero()) {
                continue;
            }
            let lowers: Vec<&Row> = self.ineqs.iter().filter(|r| r[col].is_positive()).collect();
            let uppers: Vec<&Row> = self.ineqs.iter().filter(|r| r[col].is_negative()).collect();
            let one_sided = lowers.is_empty() || uppers.is_empty();
            let exact =
                lowers.iter().all(|r| r[col].is_one()) || uppers.iter().all(|r| r[col] == -1);
            if !one_sided && (!exact || lowers.len() * uppers.len() > MAX_FM_ROWS) {
                continue;
            }
            let mut new_rows = Vec::new();
            for lo in &lowers {
                for up in &uppers {
                    new_rows.push(fm_pair(lo, up, col, false));
                }
            }
            // (the new rows are zero at `col`: they stay, without it)
            self.ineqs.extend(new_rows);
            self.drop_local_with_rows(l);
            done = true;
        }
        done
    }

    /// Drops the inequalities implied (over the rationals, hence over the integers)
    /// by the other constraints. Equalities are kept.
    pub fn remove_redundancies(&mut self) {
        self.simplify();
        if self.is_trivially_empty() || self.ineqs.is_empty() {
            return;
        }
        let Some((mut s, first)) = self.rational_tableau() else {
            *self = Conjunction::empty(self.space.clone());
            return;
        };
        let ineqs = std::mem::take(&mut self.ineqs);
        self.ineqs = irredundant(
            &mut s,
            ineqs.into_iter().enumerate().map(|(k, r)| (first + k, r)),
        );
        if self.divs.is_empty() {
            // without locals, dropping rows from a simplified conjunction
            // leaves it simplified (the rows stay normalised and sorted, and
            // no two of them merge that did not before)
            debug_assert!(
                {
                    let mut again = self.clone();
                    again.simplify();
                    again.eqs == self.eqs && again.ineqs == self.ineqs
                },
                "remove_redundancies: a second simplification changed the rows"
            );
            return;
        }
        // keep the defining inequalities of divisions (the printer relies on them)
        self.simplify();
    }
}

/// The inequalities (given with their constraint index in `tab`) that the other
/// constraints of `tab` do not imply over the rationals, in order: each one in turn
/// is tested and, when implied, marked redundant in `tab` so that the later tests
/// ignore it (the set stays the same, so dropping all the marked ones is exact).
/// `tab` keeps the marks (roll it back to undo them).
pub(crate) fn irredundant<R>(
    tab: &mut Simplex,
    rows: impl IntoIterator<Item = (usize, R)>,
) -> Vec<R> {
    let rows = rows.into_iter();
    let mut keep = Vec::with_capacity(rows.size_hint().0);
    for (con, r) in rows {
        if tab.is_redundant(con) {
            tab.mark_redundant(con);
        } else {
            keep.push(r);
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use crate::api::{BasicSet, Set};
    use crate::space::DimKind;
    use crate::testing::{Box as PBox, set_points};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn exact_eliminations_remove_locals() {
        // { [i] : exists j : 0 <= j <= 10 and i = j + 3 } -> 3 <= i <= 13, no local
        let s: Set = "{ [i, j] : 0 <= j <= 10 and i = j + 3 }".parse().unwrap();
        let p = s.project_out_exact(DimKind::Out, 1, 1).unwrap();
        assert_eq!(p.to_string(), "{ [i] : 3 <= i <= 13 }");
        // unit lower bounds: { [i] : exists j : i <= j and 2j <= 7 } -> i <= 3
        let s: Set = "{ [i, j] : i <= j and 2j <= 7 }".parse().unwrap();
        let p = s.project_out_exact(DimKind::Out, 1, 1).unwrap();
        assert_eq!(p.to_string(), "{ [i] : i <= 3 }");
        // a stride cannot be eliminated exactly this way and stays a local
        let s: Set = "{ [i, j] : i = 2j and 0 <= j <= 3 }".parse().unwrap();
        let p = s.project_out_exact(DimKind::Out, 1, 1).unwrap();
        let want: BTreeSet<Vec<i64>> = [0, 2, 4, 6].iter().map(|&v| vec![v]).collect();
        assert_eq!(set_points(&p, &PBox::new(vec![], -2, 8)), want);
        // the projection of the domain: { [i] : exists j ... }
        let s: Set = "[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i }"
            .parse()
            .unwrap();
        let p = s.project_out_exact(DimKind::Out, 1, 1).unwrap();
        assert_eq!(p.to_string(), "[N] -> { S[i] : 0 <= i < N }");
    }

    #[test]
    fn redundant_constraints_go() {
        let s: BasicSet = "{ [i, j] : 0 <= i <= 10 and 0 <= j <= i and j <= 20 and i + j >= -5 }"
            .parse()
            .unwrap();
        let r = s.remove_redundancies();
        assert_eq!(r.to_string(), "{ [i, j] : 0 <= j <= i and i <= 10 }");
    }

    fn arb_text() -> impl Strategy<Value = String> {
        let con = (-2i64..=2, -2i64..=2, -2i64..=2, -4i64..=4)
            .prop_map(|(a, b, c, k)| format!("{a}i + {b}j + {c}k >= {k}"));
        (prop::collection::vec(con, 0..4), prop::option::of(2i64..=3)).prop_map(|(cs, stride)| {
            let mut parts = vec![
                "-3 <= i <= 3".to_string(),
                "-3 <= j <= 3".to_string(),
                "-3 <= k <= 3".to_string(),
            ];
            parts.extend(cs);
            if let Some(m) = stride {
                parts.push(format!("exists e : j + k = {m}e"));
            }
            format!("{{ [i, j, k] : {} }}", parts.join(" and "))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn projection_and_redundancy_keep_the_points(text in arb_text(), which in 0usize..3) {
            let s: Set = text.parse().unwrap();
            let b = PBox::new(vec![], -4, 4);
            let pts = set_points(&s, &b);
            let want: BTreeSet<Vec<i64>> = pts
                .iter()
                .map(|p| p.iter().enumerate().filter(|(k, _)| *k != which).map(|(_, v)| *v).collect())
                .collect();
            let p = s.project_out_exact(DimKind::Out, which, 1).unwrap();
            prop_assert_eq!(set_points(&p, &b), want, "{} projected on {}: {}", text, which, p);
            let r = s.remove_redundancies();
            prop_assert_eq!(set_points(&r, &b), pts);
        }
    }
}
