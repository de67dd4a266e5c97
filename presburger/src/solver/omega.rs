//! Exact integer feasibility, with a witness, of a system of affine equalities and
//! inequalities over unbounded integer variables: the Omega test.
//!
//! Source: W. Pugh, "The Omega test: a fast and practical integer programming
//! algorithm for dependence analysis", Supercomputing 1991 / CACM 35(8), 1992.
//! The steps, each exact over the integers:
//! 1. *Normalise*: divide every row by the gcd of its coefficients (tightening the
//!    constant of an inequality, gcd test for an equality), merge parallel
//!    inequalities, and turn `a >= 0`, `-a >= 0` into `a = 0`.
//! 2. *Equalities*: an equality with a unit coefficient eliminates its variable by
//!    substitution. Otherwise a unimodular change of variables (one Euclid step on
//!    the coefficients: `x_k = y_k - q·y_j`, `q = floor(a_j / a_k)`) strictly lowers
//!    the smallest coefficient, until a unit coefficient appears (Pugh's "mod hat"
//!    reaches the same end).
//! 3. *Variables bounded on one side only* (or not at all) are dropped with all their
//!    constraints: whatever the other variables are, such a variable has a value.
//! 4. *Fourier–Motzkin* on a variable `x`: every pair of a lower bound `a·x >= α` and
//!    an upper bound `b·x <= β` gives the real shadow `a·β - b·α >= 0`. When all lower
//!    or all upper coefficients are 1 the real shadow is exactly the integer
//!    projection. Otherwise: if the rational system is infeasible (checked with the
//!    exact simplex), there is no point; if the *dark shadow*
//!    `a·β - b·α >= (a-1)(b-1)` has an integer point, so does the system; else every
//!    integer point lies on one of the *splinters* `a·x = α + i` for a lower bound
//!    and `0 <= i <= (m·a - a - m) / m`, `m` the largest upper coefficient, and each
//!    splinter is solved as a system with one more equality.
//!
//! Termination, for every input (bounded or not): every recursive call is on a
//! system with fewer variables (steps 2 with a unit coefficient, 3, 4), or on the same
//! variables with a smaller least equality coefficient (step 2, Euclid), or on a
//! splinter, which adds an equality and so removes a variable in its next call.
//! Each call makes finitely many calls, so the recursion tree is finite. A [`Budget`]
//! bounds the work all the same (Fourier–Motzkin can grow the number of rows
//! quickly), and running out is an error, never a wrong answer.
//!
//! A witness is built on the way back: an eliminated variable gets the smallest
//! value its lower bounds allow at the point found for the others (the largest its
//! upper bounds allow when it has no lower bound, 0 when it has neither).

use crate::conjunction::{Row, merge_parallel, normalize_eq, normalize_ineq};
use crate::elimination::{fm_pair, one_sided_value, shift_column, splinters, substitute_unit};
use crate::error::Result;
use crate::int::Int;
use crate::simplex::Simplex;
pub use crate::solver::budget::Budget;
use crate::stats::{self, Counter};

/// An integer point of `{ x in Z^n : eqs·(1,x) = 0, ineqs·(1,x) >= 0 }`, or `None`.
/// Rows have `1 + n` entries, the constant first.
pub fn integer_sample(
    n: usize,
    eqs: Vec<Row>,
    ineqs: Vec<Row>,
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    solve(n, eqs, ineqs, budget)
}

/// Normalises rows, merges parallel inequalities and opposite pairs. `None` when a
/// row or a pair is infeasible on its own.
fn tidy(eqs: Vec<Row>, ineqs: Vec<Row>) -> Option<(Vec<Row>, Vec<Row>)> {
    let mut kept_eqs = Vec::with_capacity(eqs.len());
    for mut e in eqs {
        match normalize_eq(&mut e) {
            Some(true) => {}
            Some(false) => return None,
            None => kept_eqs.push(e),
        }
    }
    let mut kept = Vec::with_capacity(ineqs.len());
    for mut r in ineqs {
        match normalize_ineq(&mut r) {
            Some(true) => {}
            Some(false) => return None,
            None => kept.push(r),
        }
    }
    let (new_eqs, ineqs) = merge_parallel(kept)?;
    kept_eqs.extend(new_eqs);
    Some((kept_eqs, ineqs))
}

fn remove_col(rows: &mut [Row], col: usize) {
    for r in rows {
        r.remove(col);
    }
}

fn solve(n: usize, eqs: Vec<Row>, ineqs: Vec<Row>, b: &mut Budget) -> Result<Option<Vec<Int>>> {
    b.spend(1 + eqs.len() + ineqs.len())?;
    stats::count(Counter::OmegaNode);
    let Some((eqs, ineqs)) = tidy(eqs, ineqs) else {
        return Ok(None);
    };
    if !eqs.is_empty() {
        return solve_equality(n, eqs, ineqs, b);
    }
    if ineqs.is_empty() {
        return Ok(Some(vec![Int::ZERO; n]));
    }
    // Variables that no row uses take any value (0): solve without them.
    let used: Vec<bool> = (0..n)
        .map(|v| ineqs.iter().any(|r| !r[v + 1].is_zero()))
        .collect();
    if used.iter().any(|u| !u) {
        let keep: Vec<usize> = (0..n).filter(|&v| used[v]).collect();
        let shrink = |r: &Row| {
            let mut out = Vec::with_capacity(keep.len() + 1);
            out.push(r[0].clone());
            out.extend(keep.iter().map(|&v| r[v + 1].clone()));
            out
        };
        let rows: Vec<Row> = ineqs.iter().map(shrink).collect();
        return Ok(solve(keep.len(), Vec::new(), rows, b)?.map(|p| {
            let mut full = vec![Int::ZERO; n];
            for (k, &v) in keep.iter().enumerate() {
                full[v] = p[k].clone();
            }
            full
        }));
    }
    // Counts of lower and upper bounds per variable.
    let mut lower = vec![0usize; n];
    let mut upper = vec![0usize; n];
    let mut exact_lower = vec![true; n];
    let mut exact_upper = vec![true; n];
    let mut max_coef = vec![Int::ZERO; n];
    for r in &ineqs {
        for v in 0..n {
            let a = &r[v + 1];
            if a.is_positive() {
                lower[v] += 1;
                exact_lower[v] &= a.is_one();
            } else if a.is_negative() {
                upper[v] += 1;
                exact_upper[v] &= *a == -1;
            }
            let m = a.abs();
            if m > max_coef[v] {
                max_coef[v] = m;
            }
        }
    }
    // A variable bounded on one side only: drop it with its rows.
    if let Some(v) = (0..n).find(|&v| lower[v] == 0 || upper[v] == 0) {
        let (with, mut without): (Vec<Row>, Vec<Row>) =
            ineqs.into_iter().partition(|r| !r[v + 1].is_zero());
        remove_col(&mut without, v + 1);
        return Ok(solve(n - 1, Vec::new(), without, b)?.map(|p| {
            let mut full = p;
            full.insert(v, Int::ZERO);
            full[v] = one_sided_value(&with, v, &full);
            full
        }));
    }
    // Fourier–Motzkin: prefer an exact elimination, then the fewest new rows.
    let cost = |v: usize| lower[v] * upper[v];
    let v = (0..n)
        .filter(|&v| exact_lower[v] || exact_upper[v])
        .min_by_key(|&v| cost(v))
        .unwrap_or_else(|| {
            (0..n)
                .min_by(|&x, &y| cost(x).cmp(&cost(y)).then(max_coef[x].cmp(&max_coef[y])))
                .unwrap_or(0)
        });
    let exact = exact_lower[v] || exact_upper[v];
    let col = v + 1;
    let mut lowers = Vec::new();
    let mut uppers = Vec::new();
    let mut others = Vec::new();
    for r in &ineqs {
        if r[col].is_positive() {
            lowers.push(r);
        } else if r[col].is_negative() {
            uppers.push(r);
        } else {
            let mut o = r.clone();
            o.remove(col);
            others.push(o);
        }
    }
    b.spend(lowers.len() * uppers.len())?;
    let shadow = |dark: bool| {
        let mut rows = others.clone();
        for l in &lowers {
            for u in &uppers {
                let mut r = fm_pair(l, u, col, dark);
                r.remove(col);
                rows.push(r);
            }
        }
        rows
    };
    let lift = |p: Vec<Int>| {
        let mut full = p;
        full.insert(v, Int::ZERO);
        full[v] = one_sided_value(&ineqs, v, &full);
        full
    };
    if exact {
        return Ok(solve(n - 1, Vec::new(), shadow(false), b)?.map(lift));
    }
    if !rationally_feasible(n, &ineqs) {
        return Ok(None);
    }
    if let Some(p) = solve(n - 1, Vec::new(), shadow(true), b)? {
        return Ok(Some(lift(p)));
    }
    // Splinters: a·x = α + i for each lower bound (a·x - α >= 0 is the row).
    for e in splinters(&lowers, &uppers, col) {
        stats::count(Counter::Splinter);
        if let Some(p) = solve(n, vec![e], ineqs.clone(), b)? {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

/// One equality: substitute a variable with a unit coefficient, or make one appear
/// by a unimodular change of variables.
fn solve_equality(
    n: usize,
    mut eqs: Vec<Row>,
    mut ineqs: Vec<Row>,
    b: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    // the equality with the smallest coefficient
    let (ei, k) = eqs
        .iter()
        .enumerate()
        .flat_map(|(i, e)| (1..=n).filter(|&c| !e[c].is_zero()).map(move |c| (i, c)))
        .min_by_key(|&(i, c)| eqs[i][c].abs())
        .unwrap_or((0, 1));
    let e = eqs.swap_remove(ei);
    let a = e[k].clone();
    if a.abs().is_one() {
        // x_k = -a·(e - a·x_k): substitute into every other row, then drop column k.
        let subst = |r: &mut Row| substitute_unit(r, &e, k);
        eqs.iter_mut().for_each(subst);
        ineqs.iter_mut().for_each(subst);
        remove_col(&mut eqs, k);
        remove_col(&mut ineqs, k);
        return Ok(solve(n - 1, eqs, ineqs, b)?.map(|p| {
            let mut full = p;
            full.insert(k - 1, Int::ZERO);
            // a·x_k + rest = 0  =>  x_k = -a·rest
            let mut rest = e[0].clone();
            for c in 1..=n {
                if c != k && !e[c].is_zero() {
                    rest += &e[c] * &full[c - 1];
                }
            }
            full[k - 1] = -(&a * &rest);
            full
        }));
    }
    // Euclid step: x_k = y_k - q_j·y_j makes every other coefficient e_j mod a.
    let mut steps: Vec<(usize, Int)> = Vec::new();
    let mut e = e;
    for j in 1..=n {
        if j != k && !e[j].is_zero() {
            let q = e[j].floor_div(&a);
            if !q.is_zero() {
                let rows = eqs.iter_mut().chain(ineqs.iter_mut());
                shift_column(rows.chain(std::iter::once(&mut e)), k, j, &q);
                steps.push((j, q));
            }
        }
    }
    eqs.push(e);
    Ok(solve(n, eqs, ineqs, b)?.map(|mut y| {
        // back to x: x_k = y_k - sum q_j y_j, x_j = y_j
        for (j, q) in &steps {
            let t = q * &y[j - 1];
            y[k - 1] -= t;
        }
        y
    }))
}

/// Rational feasibility of `ineqs·(1,x) >= 0` with the exact simplex.
fn rationally_feasible(n: usize, ineqs: &[Row]) -> bool {
    let mut s = Simplex::new(n);
    for r in ineqs {
        s.add_ineq(r);
        if s.is_empty() {
            return false;
        }
    }
    !s.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rows(v: &[&[i64]]) -> Vec<Row> {
        v.iter()
            .map(|r| r.iter().map(|&x| Int::from(x)).collect())
            .collect()
    }

    fn sample(n: usize, eqs: &[&[i64]], ineqs: &[&[i64]]) -> Option<Vec<Int>> {
        integer_sample(n, rows(eqs), rows(ineqs), &mut Budget::default()).expect("budget")
    }

    fn satisfies(p: &[Int], eqs: &[Row], ineqs: &[Row]) -> bool {
        let val = |r: &Row| {
            let mut s = r[0].clone();
            for (c, x) in r[1..].iter().zip(p) {
                s += c * x;
            }
            s
        };
        eqs.iter().all(|r| val(r).is_zero()) && ineqs.iter().all(|r| !val(r).is_negative())
    }

    #[test]
    fn unbounded_and_gap_cases() {
        // 3x - 3y = 1: empty
        assert!(sample(2, &[&[-1, 3, -3]], &[]).is_none());
        // x >= 0 and 2y = 2x + 1: empty
        assert!(sample(2, &[&[1, 2, -2]], &[&[0, 1, 0]]).is_none());
        // 7x + 11y = 1 (as two inequalities): non-empty and unbounded
        let p = sample(2, &[], &[&[-1, 7, 11], &[1, -7, -11]]).unwrap();
        assert_eq!(&p[0] * 7 + &p[1] * 11, Int::from(1));
        // x = 2a + 1 and x = 4b: empty; x = 2a and x = 3b + 1: non-empty
        assert!(sample(3, &[&[-1, 1, -2, 0], &[0, 1, 0, -4]], &[]).is_none());
        assert!(sample(3, &[&[0, 1, -2, 0], &[-1, 1, 0, -3]], &[]).is_some());
        // thin slab 1 <= 3x - 3y <= 2: rationally non-empty, integer empty
        assert!(sample(2, &[], &[&[-1, 3, -3], &[2, -3, 3]]).is_none());
        // a slab that needs splinters: 2 <= 4x - 3y <= 2 has points (x = 2, y = 2)
        let p = sample(
            2,
            &[],
            &[&[-2, 4, -3], &[2, -4, 3], &[0, 1, 0], &[10, -1, 0]],
        )
        .unwrap();
        assert_eq!(&p[0] * 4 - &p[1] * 3, Int::from(2));
        // Pugh's example: 27 <= 11x + 13y <= 45, -10 <= 7x - 9y <= 4 has rational
        // points but no integer point (it needs the splinters)
        assert!(
            sample(
                2,
                &[],
                &[&[-27, 11, 13], &[45, -11, -13], &[10, 7, -9], &[4, -7, 9]]
            )
            .is_none()
        );
        // widened to 27 <= 11x + 13y <= 60 it has one
        let ineqs = rows(&[&[-27, 11, 13], &[60, -11, -13], &[10, 7, -9], &[4, -7, 9]]);
        let p = integer_sample(2, vec![], ineqs.clone(), &mut Budget::default())
            .unwrap()
            .unwrap();
        assert!(satisfies(&p, &[], &ineqs));
    }

    #[test]
    fn huge_coefficients_stay_exact() {
        let big = Int::from(1i64 << 62) * Int::from(1i64 << 62); // 2^124
        // big·x - big·y = 1: empty; big·x - (big + 1)·y = 1: has x = y = -1 ... check
        let e1 = vec![Int::from(-1), big.clone(), -&big];
        assert!(
            integer_sample(2, vec![e1], vec![], &mut Budget::default())
                .unwrap()
                .is_none()
        );
        let e2 = vec![Int::from(-1), big.clone(), -(&big + 1)];
        let p = integer_sample(2, vec![e2.clone()], vec![], &mut Budget::default())
            .unwrap()
            .unwrap();
        assert!(satisfies(&p, &[e2], &[]));
    }

    #[test]
    fn budget_runs_out_with_an_error() {
        let ineqs = rows(&[&[-1, 3, -3], &[2, -3, 3]]);
        let r = integer_sample(2, vec![], ineqs, &mut Budget::new(1));
        assert!(matches!(r, Err(crate::Error::Budget(_))));
    }

    fn brute(n: usize, eqs: &[Row], ineqs: &[Row], r: i64) -> bool {
        let mut p = vec![-r; n];
        loop {
            let q: Vec<Int> = p.iter().map(|&x| Int::from(x)).collect();
            if satisfies(&q, eqs, ineqs) {
                return true;
            }
            let mut k = n;
            loop {
                if k == 0 {
                    return false;
                }
                k -= 1;
                if p[k] < r {
                    p[k] += 1;
                    break;
                }
                p[k] = -r;
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        /// Random systems inside the box [-6, 6]^n (box rows added), with random
        /// equalities and inequalities of small coefficients: the Omega test agrees
        /// with enumeration and its witness satisfies every row.
        #[test]
        fn agrees_with_enumeration(
            n in 1usize..=3,
            raw in prop::collection::vec((prop::collection::vec(-4i64..=4, 4), -8i64..=8, prop::bool::weighted(0.3)), 0..5),
        ) {
            let mut eqs = Vec::new();
            let mut ineqs = Vec::new();
            for v in 0..n {
                let mut lo = vec![Int::from(6); n + 1];
                lo.iter_mut().skip(1).for_each(|x| *x = Int::ZERO);
                lo[v + 1] = Int::ONE;
                let mut hi = lo.clone();
                hi[v + 1] = Int::from(-1);
                ineqs.push(lo);
                ineqs.push(hi);
            }
            for (coefs, c, is_eq) in raw {
                let mut r = vec![Int::from(c)];
                r.extend(coefs[..n].iter().map(|&x| Int::from(x)));
                if is_eq { eqs.push(r) } else { ineqs.push(r) }
            }
            let got = integer_sample(n, eqs.clone(), ineqs.clone(), &mut Budget::default()).unwrap();
            prop_assert_eq!(got.is_some(), brute(n, &eqs, &ineqs, 6));
            if let Some(p) = got {
                prop_assert!(satisfies(&p, &eqs, &ineqs), "witness {:?}", p);
            }
        }

        /// The same without a box: unbounded systems terminate, and a witness, when
        /// found, is right; when the enumeration finds a point, so must the test.
        #[test]
        fn unbounded_systems_terminate(
            n in 1usize..=3,
            raw in prop::collection::vec((prop::collection::vec(-5i64..=5, 4), -9i64..=9, prop::bool::weighted(0.3)), 1..5),
        ) {
            let mut eqs = Vec::new();
            let mut ineqs = Vec::new();
            for (coefs, c, is_eq) in raw {
                let mut r = vec![Int::from(c)];
                r.extend(coefs[..n].iter().map(|&x| Int::from(x)));
                if is_eq { eqs.push(r) } else { ineqs.push(r) }
            }
            let got = integer_sample(n, eqs.clone(), ineqs.clone(), &mut Budget::default()).unwrap();
            if let Some(p) = &got {
                prop_assert!(satisfies(p, &eqs, &ineqs));
            }
            if brute(n, &eqs, &ineqs, 8) {
                prop_assert!(got.is_some());
            }
        }
    }
}
