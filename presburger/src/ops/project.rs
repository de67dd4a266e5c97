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
use crate::error::Result;
use crate::int::Int;
use crate::simplex::{LpValue, Rational, Simplex};
use crate::solver::budget::Budget;
use crate::solver::lattice::{column_echelon, times};

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
            self.eliminate_by_fm(l);
            done = true;
        }
        done
    }

    /// Replaces local `l` (in no equality and no division) by its real
    /// shadow: every pair of a lower and an upper bound combined
    /// (Fourier–Motzkin), the rows with `l` and its column dropped. Exact
    /// only where the caller knows it is.
    fn eliminate_by_fm(&mut self, l: usize) {
        let col = 1 + self.space.n_var() + l;
        let lowers = self.ineqs.iter().filter(|r| r[col].is_positive());
        let uppers: Vec<&Row> = self.ineqs.iter().filter(|r| r[col].is_negative()).collect();
        let new_rows: Vec<Row> = lowers
            .flat_map(|lo| uppers.iter().map(move |up| fm_pair(lo, up, col, false)))
            .collect();
        // (the new rows are zero at `col`: they stay, without it)
        self.ineqs.extend(new_rows);
        self.drop_local_with_rows(l);
    }

    /// Drops every inequality that a direction of the plain locals (those
    /// without a definition and in no division) can make as large as
    /// wanted while keeping every other row; true when one was dropped (the
    /// result is then simplified). Exact.
    ///
    /// The directions are the cone `C = { r : E·r = 0, A·r >= 0 }` of the
    /// locals' coefficients `E` in the equalities and `A` in the
    /// inequalities. An inequality that is not an implicit equality of `C`
    /// is positive at a point `r` of the relative interior of `C`
    /// (integral after scaling), where the implicit equalities are zero:
    /// from any integer point that satisfies the equalities and the implicit
    /// equalities' rows, `e + t·r` for a large enough integer `t` satisfies
    /// every row, with the other columns unchanged. So the set is the one
    /// without the other rows. On random systems with several locals and
    /// few bounds on the variables this often leaves no row on the locals
    /// at all (the set is the projection of the rest), where a rewriting
    /// into divisions would split it into hundreds of pieces.
    pub(crate) fn drop_rows_along_free_directions(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let plain: Vec<usize> = (0..self.n_local())
            .filter(|&l| self.divs[l].is_none())
            .map(|l| first_local + l)
            .filter(|&col| !self.divs.iter().flatten().any(|d| !d.num[col].is_zero()))
            .collect();
        if plain.is_empty() {
            return false;
        }
        let on_plain = |r: &Row| plain.iter().any(|&c| !r[c].is_zero());
        let restrict = |r: &Row| -> Row {
            std::iter::once(Int::ZERO)
                .chain(plain.iter().map(|&c| r[c].clone()))
                .collect()
        };
        let rows: Vec<usize> = (0..self.ineqs.len())
            .filter(|&k| on_plain(&self.ineqs[k]))
            .collect();
        if rows.is_empty() {
            return false;
        }
        let mut cone = Simplex::with_capacity(plain.len(), self.eqs.len() + rows.len());
        for e in self.eqs.iter().filter(|e| on_plain(e)) {
            cone.add_eq(&restrict(e));
        }
        let first = cone.n_con();
        for &k in &rows {
            cone.add_ineq(&restrict(&self.ineqs[k]));
        }
        let implicit = cone.detect_implicit_equalities();
        if implicit.len() == rows.len() {
            return self.drop_lineality_of_locals(&plain);
        }
        let keep: Vec<bool> = {
            let mut keep = vec![true; self.ineqs.len()];
            for (i, &k) in rows.iter().enumerate() {
                keep[k] = implicit.binary_search(&(first + i)).is_ok();
            }
            keep
        };
        let mut k = 0;
        self.ineqs.retain(|_| {
            k += 1;
            keep[k - 1]
        });
        self.simplify();
        true
    }

    /// Whether every plain local (a local without a definition) is bounded
    /// once the other columns are fixed, in a conjunction that
    /// [`Conjunction::drop_rows_along_free_directions`] leaves unchanged
    /// and where no definition uses a plain local: there every inequality
    /// on the plain locals is an implicit equality of their cone, so the
    /// cone is the kernel of their coefficients in all rows, and it is zero
    /// exactly when those coefficients have full rank. (Without any
    /// inequality on them, the fixpoint does not reduce the rank: plain
    /// locals in equalities only can stay free, e.g. `x = 2a + 2b`.)
    pub(crate) fn plain_locals_have_full_rank(&self) -> bool {
        let first_local = 1 + self.space.n_var();
        let plain: Vec<usize> = (0..self.n_local())
            .filter(|&l| self.divs[l].is_none())
            .map(|l| first_local + l)
            .collect();
        if self
            .divs
            .iter()
            .flatten()
            .any(|d| plain.iter().any(|&c| !d.num[c].is_zero()))
        {
            return false;
        }
        let parts = self.coefficients_on(&plain);
        let refs: Vec<&[Int]> = parts.iter().map(Vec::as_slice).collect();
        column_echelon(&refs, plain.len()).rank == plain.len()
    }

    /// The coefficients of every row (equalities, then inequalities) on the
    /// columns `cols`, for the rows with one that is not zero.
    fn coefficients_on(&self, cols: &[usize]) -> Vec<Vec<Int>> {
        self.eqs
            .iter()
            .chain(self.ineqs.iter())
            .map(|r| cols.iter().map(|&c| r[c].clone()).collect::<Vec<Int>>())
            .filter(|p| p.iter().any(|v| !v.is_zero()))
            .collect()
    }

    /// With `plain` the columns of the plain locals (see
    /// [`Conjunction::drop_rows_along_free_directions`]): when their
    /// coefficients in the rows span fewer than `plain.len()` dimensions, a
    /// unimodular change of those locals (`e = U·t`, the column echelon form
    /// of the coefficients, [`column_echelon`]) leaves the last ones in no
    /// row, and they are dropped; true when that happened. Exact: `U` maps
    /// the integer points onto the integer points, and a local in no row
    /// takes any value. Such locals are unbounded in both directions, where
    /// a parametric optimum over them has no value.
    fn drop_lineality_of_locals(&mut self, plain: &[usize]) -> bool {
        let d = plain.len();
        let parts = self.coefficients_on(plain);
        let refs: Vec<&[Int]> = parts.iter().map(Vec::as_slice).collect();
        let ech = column_echelon(&refs, d);
        if ech.rank == d {
            return false;
        }
        for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
            let p: Vec<Int> = plain.iter().map(|&c| r[c].clone()).collect();
            if p.iter().all(Int::is_zero) {
                continue;
            }
            let t = times(&p, &ech.u);
            debug_assert!(t[ech.rank..].iter().all(Int::is_zero));
            for (&c, v) in plain.iter().zip(t) {
                r[c] = v;
            }
        }
        let first_local = 1 + self.space.n_var();
        let mut gone: Vec<usize> = plain[ech.rank..].iter().map(|&c| c - first_local).collect();
        gone.sort_unstable();
        for &l in gone.iter().rev() {
            let rows = self.drop_local_with_rows(l);
            debug_assert!(rows.is_empty());
        }
        self.simplify();
        true
    }

    /// Eliminates by Fourier–Motzkin one local without a definition, in no
    /// equality and no division, for which every pair of a lower bound
    /// `n_l·a + e_l >= 0` and an upper bound `-n_u·a + e_u >= 0` leaves room
    /// for an integer value of `a` wherever the other columns are at a
    /// rational point of the conjunction; true when it did (the result is
    /// then simplified). `budget` pays for the linear programs.
    ///
    /// With `g = gcd(n_l, n_u)`, `f_l = n_l / g`, `f_u = n_u / g` and
    /// `N = f_l·f_u·g`, the pair allows an integer `a` when
    /// `f_l·e_u + f_u·e_l + f_l + f_u - 1 - N >= 0` (the multiples of `N`
    /// between `-f_u·e_l - f_u + 1` and `f_l·e_u + f_l - 1` are the values of
    /// `N·a`; an interval of `N` integers holds one). The row does not involve
    /// `a`, so its rational minimum over the conjunction is its minimum over
    /// the projection; when that is above `-1` for every pair, the integer
    /// point of the pair whose bounds are the tightest at a point of the
    /// shadow is a value of `a` there, so the real shadow is exact. This is
    /// the rule of isl's `drop_more_redundant_divs` (`isl_map_simplify.c`),
    /// written here from its description; on random systems of several
    /// locals with small coefficients it takes out locals that the Omega
    /// test's splinters or a parametric optimum would multiply into
    /// hundreds of pieces. A local with more than [`MAX_FM_ROWS`] pairs is
    /// not tried.
    pub(crate) fn eliminate_wide_local(&mut self, budget: &mut Budget) -> Result<bool> {
        let first_local = 1 + self.space.n_var();
        let mut candidates: Vec<(usize, usize)> = (0..self.n_local())
            .filter(|&l| self.divs[l].is_none())
            .filter_map(|l| {
                let col = first_local + l;
                if self.eqs.iter().any(|r| !r[col].is_zero())
                    || self.divs.iter().flatten().any(|d| !d.num[col].is_zero())
                {
                    return None;
                }
                let lo = self.ineqs.iter().filter(|r| r[col].is_positive()).count();
                let up = self.ineqs.iter().filter(|r| r[col].is_negative()).count();
                (lo * up > 0 && lo * up <= MAX_FM_ROWS).then_some((lo * up, l))
            })
            .collect();
        if candidates.is_empty() {
            return Ok(false);
        }
        candidates.sort();
        let Some((mut tab, _)) = self.rational_tableau() else {
            return Ok(false);
        };
        let mut paid = tab.work();
        budget.spend(usize::try_from(paid).unwrap_or(usize::MAX))?;
        for (_, l) in candidates {
            let col = first_local + l;
            let lowers: Vec<&Row> = self.ineqs.iter().filter(|r| r[col].is_positive()).collect();
            let uppers: Vec<&Row> = self.ineqs.iter().filter(|r| r[col].is_negative()).collect();
            let mut wide = true;
            'pairs: for lo in &lowers {
                for up in &uppers {
                    let test = integer_room_row(lo, up, col);
                    let v = tab.min_value(&test);
                    let w = tab.work();
                    budget.spend(1 + usize::try_from(w - paid).unwrap_or(usize::MAX))?;
                    paid = w;
                    match v {
                        LpValue::Optimum(v) if v > Rational::from(-1) => {}
                        _ => {
                            wide = false;
                            break 'pairs;
                        }
                    }
                }
            }
            if !wide {
                continue;
            }
            self.eliminate_by_fm(l);
            self.simplify();
            return Ok(true);
        }
        Ok(false)
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

/// For a lower bound `lo` (`n_l·a + e_l >= 0`) and an upper bound `up`
/// (`-n_u·a + e_u >= 0`) of column `col`, the row that is nonnegative where
/// the pair leaves room for an integer value of `a` (see
/// [`Conjunction::eliminate_wide_local`]); zero at `col`.
fn integer_room_row(lo: &Row, up: &Row, col: usize) -> Row {
    let n_l = &lo[col];
    let n_u = -&up[col];
    let g = n_l.gcd(&n_u);
    let f_l = n_l.exact_div(&g);
    let f_u = n_u.exact_div(&g);
    let mut row: Row = lo
        .iter()
        .zip(up.iter())
        .map(|(l, u)| &f_l * u + &f_u * l)
        .collect();
    debug_assert!(row[col].is_zero());
    row[0] += &f_l + &f_u - Int::ONE - &f_l * &f_u * &g;
    row
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
    use super::*;
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

    /// Sets of two dimensions with three existentials bound together by a
    /// few random rows (coefficients up to 3), the shape where the rules
    /// without a split matter.
    fn arb_locals_text() -> impl Strategy<Value = String> {
        let row = (prop::collection::vec(-3i64..=3, 5), -6i64..=6).prop_map(|(c, k)| {
            format!(
                "{}i + {}j + {}a + {}b + {}c >= {k}",
                c[0], c[1], c[2], c[3], c[4]
            )
        });
        prop::collection::vec(row, 1..7).prop_map(|rows| {
            format!(
                "{{ [i, j] : -3 <= i <= 3 and -3 <= j <= 3 and exists (a, b, c : {}) }}",
                rows.join(" and ")
            )
        })
    }

    /// The split-free rewritings of existentials, applied to a fixpoint.
    fn rewritten(c: &Conjunction) -> Conjunction {
        let mut d = c.clone();
        let mut budget = Budget::default();
        while d.drop_rows_along_free_directions() || d.eliminate_wide_local(&mut budget).unwrap() {}
        d
    }

    #[test]
    fn free_directions_and_wide_locals_go() {
        // `a` can grow along a free direction: the rows with `a` go
        let s: Set = "{ [i] : 0 <= i <= 5 and exists (a, b : a - b >= i and a + b >= 3) }"
            .parse()
            .unwrap();
        let c = &s.0.parts[0];
        assert!(c.n_local() > 0 || c.ineqs.len() == 2, "{s}");
        let d = rewritten(c);
        assert_eq!(d.n_local(), 0, "{d}");
        // a stride is not wide: `2a = i` between `i <= 2a <= i` stays
        let s: Set = "{ [i] : 0 <= i <= 5 and exists (a : i <= 2a <= i) }"
            .parse()
            .unwrap();
        let d = rewritten(&s.0.parts[0]);
        assert!(d.n_local() + d.eqs.len() > 0, "{d}");
        // the bounds `i <= 3a <= i + 2` always leave room: the local goes
        let s: Set = "{ [i] : 0 <= i <= 5 and exists (a, b : i <= 3a + b <= i + 2 and 0 <= b - a <= 4 and b <= 10) }"
            .parse()
            .unwrap();
        let c = &s.0.parts[0];
        let d = rewritten(c);
        assert!(d.n_local() < c.n_local().max(1), "{c} -> {d}");
        let pts = |c: &Conjunction| -> BTreeSet<i64> {
            let s = Set(crate::api::Disjunction {
                space: c.space.clone(),
                parts: vec![c.clone()],
            });
            (-2..8)
                .filter(|&v| s.contains(&[Int::from(v)]).unwrap())
                .collect()
        };
        assert_eq!(pts(c), pts(&d));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn split_free_rewritings_keep_the_points(text in arb_locals_text()) {
            let s: Set = text.parse().unwrap();
            for c in &s.0.parts {
                let d = rewritten(c);
                let one = |c: &Conjunction| Set(crate::api::Disjunction {
                    space: c.space.clone(),
                    parts: vec![c.clone()],
                });
                let (before, after) = (one(c), one(&d));
                for i in -3..=3i64 {
                    for j in -3..=3i64 {
                        let p = [Int::from(i), Int::from(j)];
                        prop_assert_eq!(
                            before.contains(&p).unwrap(),
                            after.contains(&p).unwrap(),
                            "{} -> {} at ({}, {})", c, d, i, j
                        );
                    }
                }
            }
        }
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
