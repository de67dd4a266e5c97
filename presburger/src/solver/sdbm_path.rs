//! The SDBM fast path of the emptiness check.
//!
//! A conjunction is handed to the `sdbm` crate when, with parameters and dimensions
//! as the SDBM variables, every constraint is
//! - a bound `±g·x + c >= 0` or a difference `g·x_i - g·x_j + c >= 0` (after dividing
//!   by `g`, with the constant rounded down as integer tightening allows),
//! - an equality of one of those shapes (two inequalities), or
//! - a congruence `x + k·e + c = 0` where `e` is a local used by no other equality,
//!   and by no inequality but its own division definition (`x mod m = r`,
//!   `exists e : x = m·e + r` and `x = m·floor(x/m) + r` all look like this): then
//!   `x ≡ -c (mod |k|)`.
//!
//! On the default path, bound propagation (step 0 of [`crate::solver::sample`])
//! runs first, once: it proves most empty loop-nest pieces empty, and its dive
//! finds a point of most others, for less than building the matrix costs.
//!
//! Recognition is one pass over the rows that stops at the first row that does not
//! fit, so a set outside the class pays little. The answer of the fast path is the
//! answer (the classes are equal as sets of integer points); when the `sdbm` crate
//! reports that its machine integers would overflow, or a constant does not fit in
//! 64 bits, the general path answers instead. The witness of the fast path is
//! completed with the values of the congruence locals and checked against every
//! constraint before it is returned.
//!
//! Source: the paper "Strided Difference Bound Matrices" (the `sdbm` crate's
//! documentation names the sections it follows).

use crate::conjunction::{Conjunction, Row, implied_by_div};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::omega::Budget;
use crate::solver::sample::{Propagation, propagation_step};
use crate::stats::{self, Counter};
use presburger_sdbm::Sdbm;

/// Which algorithm answers an emptiness check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EmptinessPath {
    /// The SDBM fast path when the conjunction fits, else the general path.
    #[default]
    Auto,
    /// Only the SDBM path: an error when the conjunction does not fit.
    ForceSdbm,
    /// Only the general path (Omega test).
    ForceGeneral,
}

/// A recognised conjunction: the SDBM over the parameters and dimensions, and for
/// each congruence local the equality that defines it (to complete witnesses).
pub(crate) struct Recognised {
    pub sdbm: Sdbm,
    /// (local index, equality row, column of its variable)
    congruence_locals: Vec<(usize, Row, usize)>,
    /// True when an equality alone showed that there is no point.
    pub trivially_empty: bool,
}

fn small(v: &Int) -> Option<i64> {
    v.to_i64()
}

/// The non-zero columns of a row after the constant, with their coefficients.
fn support(row: &Row) -> smallvec::SmallVec<[(usize, &Int); 4]> {
    let mut out = smallvec::SmallVec::new();
    for (c, v) in row.iter().enumerate().skip(1) {
        if !v.is_zero() {
            out.push((c, v));
            if out.len() > 3 {
                break;
            }
        }
    }
    out
}

/// Tries to read the conjunction as an SDBM. `None` when it does not fit.
pub(crate) fn recognise(c: &Conjunction) -> Option<Recognised> {
    let nv = c.space.n_var();
    let first_local = 1 + nv;
    if !rows_may_fit(c, first_local) {
        return None;
    }
    let mut s = Sdbm::new(nv);
    let mut congruence_locals = Vec::new();
    let mut congruence_eq = vec![false; c.eqs.len()];
    // Locals: each must be a congruence local.
    for l in 0..c.n_local() {
        let col = first_local + l;
        let mut found = None;
        for (k, e) in c.eqs.iter().enumerate() {
            if !e[col].is_zero() {
                if found.is_some() {
                    return None;
                }
                found = Some(k);
            }
        }
        let k = found?;
        let e = &c.eqs[k];
        let sup = support(e);
        if sup.len() != 2 {
            return None;
        }
        let (xc, xa) = if sup[0].0 == col { sup[1] } else { sup[0] };
        if xc >= first_local || !xa.abs().is_one() {
            return None;
        }
        // x·xa + m·e + c = 0  =>  x ≡ -xa·c (mod |m|)
        let m = small(&e[col].abs())?;
        let r = small(&(-(xa * &e[0])))?;
        if s.add_congruence(xc - 1, m, r.rem_euclid(m)).is_err() {
            return None;
        }
        for r in &c.ineqs {
            if !r[col].is_zero() {
                let Some(d) = &c.divs[l] else { return None };
                if !implied_by_div(r, d, col) {
                    return None;
                }
            }
        }
        congruence_eq[k] = true;
        congruence_locals.push((l, e.clone(), xc));
    }
    let mut trivially_empty = false;
    // Inequalities (rows with a local were checked above as division definitions).
    for r in &c.ineqs {
        if r[first_local..].iter().any(|v| !v.is_zero()) {
            continue;
        }
        if !add_row(&mut s, r, false, &mut trivially_empty)? {
            return None;
        }
    }
    for (k, e) in c.eqs.iter().enumerate() {
        if congruence_eq[k] {
            continue;
        }
        if !add_row(&mut s, e, true, &mut trivially_empty)? {
            return None;
        }
    }
    Some(Recognised {
        sdbm: s,
        congruence_locals,
        trivially_empty,
    })
}

/// A scan of the rows without locals for a shape [`add_row`] refuses (more
/// than two variables, or two that are not a difference), before any SDBM is
/// allocated: most sets outside the class stop here.
fn rows_may_fit(c: &Conjunction, first_local: usize) -> bool {
    c.ineqs.iter().chain(&c.eqs).all(|r| {
        r[first_local..].iter().any(|v| !v.is_zero())
            || match support(r).as_slice() {
                [] | [_] => true,
                [(_, a), (_, b)] => *a == &-(*b),
                _ => false,
            }
    })
}

/// Adds a bound or difference row (`>= 0`, or `= 0` for an equality). `Some(false)`
/// when the row has another shape; `None` when a constant does not fit.
fn add_row(s: &mut Sdbm, r: &Row, eq: bool, empty: &mut bool) -> Option<bool> {
    let sup = support(r);
    let c = &r[0];
    match sup.as_slice() {
        [] => {
            let bad = if eq { !c.is_zero() } else { c.is_negative() };
            *empty |= bad;
            Some(true)
        }
        [(x, a)] => {
            let g = a.abs();
            let xi = x - 1;
            if eq {
                // a·x + c = 0
                if !c.is_divisible_by(&g) {
                    *empty = true;
                    return Some(true);
                }
                let v = small(&(-c).exact_div(a))?;
                s.add_lower(xi, v);
                s.add_upper(xi, v);
            } else if a.is_positive() {
                // g·x + c >= 0  =>  x >= ceil(-c / g)
                s.add_lower(xi, small(&(-c).ceil_div(&g))?);
            } else {
                // -g·x + c >= 0  =>  x <= floor(c / g)
                s.add_upper(xi, small(&c.floor_div(&g))?);
            }
            Some(true)
        }
        [(x, a), (y, b)] => {
            if *a != &-(*b) {
                return Some(false);
            }
            let g = a.abs();
            // orient as p - q with coefficient +g on p
            let (p, q) = if a.is_positive() {
                (x - 1, y - 1)
            } else {
                (y - 1, x - 1)
            };
            if eq {
                // g·(p - q) + c = 0
                if !c.is_divisible_by(&g) {
                    *empty = true;
                    return Some(true);
                }
                let v = small(&(-c).exact_div(&g))?;
                s.add_difference(p, q, v);
                s.add_difference(q, p, -v);
            } else {
                // g·(p - q) + c >= 0  =>  q - p <= floor(c / g)
                s.add_difference(q, p, small(&c.floor_div(&g))?);
            }
            Some(true)
        }
        _ => Some(false),
    }
}

impl Recognised {
    /// The SDBM answer as a full point of the conjunction (locals completed), or
    /// `Ok(None)` for empty; `Err(())` when the SDBM solver reports "too large".
    fn solve(&self, c: &Conjunction) -> std::result::Result<Option<Vec<Int>>, ()> {
        if self.trivially_empty {
            return Ok(None);
        }
        let Some(point) = self.sdbm.solve().map_err(|_| ())? else {
            return Ok(None);
        };
        let nv = c.space.n_var();
        let mut full: Vec<Int> = point.into_iter().map(Int::from).collect();
        full.resize(c.n_col() - 1, Int::ZERO);
        for (l, e, _) in &self.congruence_locals {
            // m·e = -(row without e)
            let col = 1 + nv + l;
            let mut rest = e.clone();
            let m = std::mem::take(&mut rest[col]);
            let v = Conjunction::eval_row(&rest, &full);
            if !v.is_divisible_by(&m) {
                return Err(());
            }
            full[nv + l] = (-v).exact_div(&m);
        }
        // division locals of other kinds do not occur (every local is a congruence
        // local); check the point against every constraint all the same
        if !c.satisfied_by(&full) {
            return Err(());
        }
        Ok(Some(full))
    }
}

impl Conjunction {
    /// An integer point of all columns (parameters, dimensions, locals), or `None`,
    /// computed along `path` (see [`EmptinessPath`]).
    pub(crate) fn sample_via(
        &self,
        path: EmptinessPath,
        budget: &mut Budget,
    ) -> Result<Option<Vec<Int>>> {
        stats::count(Counter::Emptiness);
        // a visibly violated row (the canonical empty conjunction) ends it on any path
        if self.is_trivially_empty() {
            return Ok(None);
        }
        // bound propagation first: on the small sets of loop nests it decides
        // more cheaply than a difference-bound matrix
        let mut prop = Propagation::ToRun;
        if path == EmptinessPath::Auto {
            let n = self.n_col() - 1;
            if let Some(answer) = propagation_step(n, &self.eqs, &self.ineqs) {
                return Ok(answer);
            }
            prop = Propagation::Done;
        }
        if path != EmptinessPath::ForceGeneral {
            match recognise(self) {
                Some(rec) => match rec.solve(self) {
                    Ok(answer) => {
                        stats::count(Counter::SdbmFast);
                        return Ok(answer);
                    }
                    Err(()) => {
                        stats::count(Counter::SdbmFallback);
                        if path == EmptinessPath::ForceSdbm {
                            return Err(Error::Budget(
                                "the SDBM path cannot decide this set with machine integers".into(),
                            ));
                        }
                    }
                },
                None if path == EmptinessPath::ForceSdbm => {
                    return Err(Error::Unsupported(
                        "the set is not an SDBM (bounds, differences and strides only)".into(),
                    ));
                }
                None => {}
            }
        }
        self.sample_general_steps(budget, prop)
    }

    /// True when the conjunction is an SDBM that the fast path can take.
    pub fn is_sdbm(&self) -> bool {
        recognise(self).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::BasicSet;
    use crate::testing::{Box as PBox, basic_set_points};
    use proptest::prelude::*;

    fn bs(s: &str) -> BasicSet {
        s.parse().unwrap()
    }

    #[test]
    fn recognition() {
        for (text, fits) in [
            ("{ [i, j] : 0 <= i < 10 and i <= j <= i + 5 }", true),
            (
                "[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i and exists e : j = 2e }",
                true,
            ),
            ("{ [i] : i mod 8 = 3 and 0 <= i <= 100 }", true),
            (
                "[N] -> { [ti, i] : exists a : ti = 32a and 0 <= ti < N and ti <= i < ti + 32 }",
                true,
            ),
            ("{ [i, j] : 2i - 2j >= 3 }", true),
            ("{ [i, j] : i + j <= 4 }", false),
            ("{ [i, j] : 2i <= j }", false),
            ("{ [i, j] : exists e : i + j = 2e }", false),
            ("{ [i] : exists e : 0 <= i - 3e <= 1 }", false),
        ] {
            assert_eq!(bs(text).0.is_sdbm(), fits, "{text}");
        }
    }

    #[test]
    fn forced_paths() {
        let s = bs("{ [i] : i mod 4 = 1 and i mod 6 = 2 }");
        assert!(s.is_empty_via(EmptinessPath::ForceSdbm).unwrap());
        assert!(s.is_empty_via(EmptinessPath::ForceGeneral).unwrap());
        let t = bs("{ [i, j] : i + j <= 4 }");
        assert!(matches!(
            t.is_empty_via(EmptinessPath::ForceSdbm),
            Err(Error::Unsupported(_))
        ));
        assert!(!t.is_empty_via(EmptinessPath::Auto).unwrap());
    }

    /// Random SDBM-shaped conjunctions in isl notation.
    fn arb_sdbm() -> impl Strategy<Value = String> {
        let names = ["a", "b", "c", "d"];
        let con =
            (0usize..4, 0usize..4, -5i64..=5, 0u8..3).prop_map(move |(i, j, c, kind)| match kind {
                0 => format!("{} - {} <= {c}", names[i], names[j]),
                1 => format!("{} <= {c}", names[i]),
                _ => format!("{} >= {c}", names[i]),
            });
        let stride = (
            0usize..4,
            prop::sample::select(vec![2i64, 3, 4, 6, 8]),
            0i64..8,
        )
            .prop_map(move |(i, m, r)| format!("{} mod {m} = {}", names[i], r % m));
        (
            prop::collection::vec(con, 0..6),
            prop::collection::vec(stride, 0..3),
        )
            .prop_map(|(cs, ss)| {
                let mut parts: Vec<String> = ["a", "b", "c", "d"]
                    .iter()
                    .map(|n| format!("-6 <= {n} <= 6"))
                    .collect();
                parts.extend(cs);
                parts.extend(ss);
                format!("{{ [a, b, c, d] : {} }}", parts.join(" and "))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn fast_path_agrees_with_the_general_path(text in arb_sdbm()) {
            let s = bs(&text);
            prop_assert!(s.0.is_sdbm(), "{}", text);
            let fast = s.0.sample_via(EmptinessPath::ForceSdbm, &mut Budget::default()).unwrap();
            let general = s.0.sample_via(EmptinessPath::ForceGeneral, &mut Budget::default()).unwrap();
            prop_assert_eq!(fast.is_some(), general.is_some(), "{}", text);
            let pts = basic_set_points(&s, &PBox::new(vec![], -6, 6));
            prop_assert_eq!(fast.is_some(), !pts.is_empty());
            if let Some(p) = fast {
                let dims: Vec<i64> = p[..4].iter().map(|v| v.to_i64().unwrap()).collect();
                prop_assert!(pts.contains(&dims));
            }
        }
    }
}
