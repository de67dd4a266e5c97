//! Unimodular changes of variables: a column echelon form of an integer matrix,
//! and with it the compression of integer equalities.
//!
//! Both the integer sampler ([`crate::solver::sample`]) and its handling of
//! unbounded sets need the same step: given integer rows `a_1, .., a_m` over `d`
//! variables, find a unimodular `d x d` matrix `U` (integer, determinant ±1, so
//! `x = U t` maps `Z^d` onto `Z^d`) such that every row, written in the new
//! variables `t`, has a lower-triangular shape: `a_i · U` is zero beyond column
//! `p_i`, with the pivots `p_1 < p_2 < ..` of the independent rows forming the
//! first `rank` columns. This is a column Hermite-style echelon form (without the
//! reduction of the entries left of each pivot, which nothing here needs).
//!
//! The idea: process the rows in order; for row `i`, look at its entries
//! `a_i · U` in the columns not yet used as pivots, and combine those columns by
//! Euclid steps (subtract `q` times one column from another, swap) until only one
//! of them is non-zero: their gcd. Column operations are unimodular and applied to
//! `U`, and they only touch columns at or after the current pivot, so the rows
//! already processed keep their shape. Source: the Hermite normal form, e.g.
//! A. Schrijver, *Theory of Linear and Integer Programming*, 1986, ch. 4–5; its
//! use for compressing equalities is the classic first step of integer
//! programming (Schrijver, sec. 5.3).

use crate::conjunction::Row;
use crate::int::Int;

/// A unimodular matrix and how many of its leading columns are pivots (see the
/// module doc). `u[r][c]` is row `r`, column `c`.
#[derive(Clone, Debug)]
pub(crate) struct Echelon {
    /// The `d x d` unimodular matrix `U` (rows of `x = U t`).
    pub u: Vec<Vec<Int>>,
    /// The number of independent rows (= the pivot columns `0..rank`).
    pub rank: usize,
}

/// `a · U` for the coefficient slice `a` (length `d`).
pub(crate) fn times(a: &[Int], u: &[Vec<Int>]) -> Vec<Int> {
    let d = a.len();
    let mut out = vec![Int::ZERO; u.first().map_or(0, |r| r.len())];
    for (r, ar) in a.iter().enumerate().take(d) {
        if ar.is_zero() {
            continue;
        }
        for (o, urc) in out.iter_mut().zip(&u[r]) {
            if !urc.is_zero() {
                *o += ar * urc;
            }
        }
    }
    out
}

/// `m · v` for a matrix given by its rows.
pub(crate) fn mat_vec(m: &[Vec<Int>], v: &[Int]) -> Vec<Int> {
    m.iter()
        .map(|row| {
            let mut s = Int::ZERO;
            for (a, b) in row.iter().zip(v) {
                if !a.is_zero() && !b.is_zero() {
                    s += a * b;
                }
            }
            s
        })
        .collect()
}

/// `col_dst -= q * col_src` on the matrix `u`.
fn col_axpy(u: &mut [Vec<Int>], dst: usize, src: usize, q: &Int) {
    for row in u.iter_mut() {
        if !row[src].is_zero() {
            let t = q * &row[src];
            row[dst] -= t;
        }
    }
}

fn col_swap(u: &mut [Vec<Int>], a: usize, b: usize) {
    if a != b {
        for row in u.iter_mut() {
            row.swap(a, b);
        }
    }
}

fn col_neg(u: &mut [Vec<Int>], a: usize) {
    for row in u.iter_mut() {
        row[a] = -&row[a];
    }
}

/// The column echelon form of the coefficient rows `rows` (each of length `d`);
/// see the module doc. Rows that depend on earlier ones get no pivot.
pub(crate) fn column_echelon(rows: &[&[Int]], d: usize) -> Echelon {
    let mut u: Vec<Vec<Int>> = (0..d)
        .map(|r| {
            let mut row = vec![Int::ZERO; d];
            row[r] = Int::ONE;
            row
        })
        .collect();
    let mut rank = 0;
    for a in rows {
        if rank == d {
            break;
        }
        let mut e = times(a, &u);
        // Euclid on the entries e[rank..]: repeatedly take the smallest non-zero
        // entry as the pivot and reduce the others modulo it.
        loop {
            let mut best: Option<usize> = None;
            for c in rank..d {
                if !e[c].is_zero() && best.is_none_or(|b| e[c].abs() < e[b].abs()) {
                    best = Some(c);
                }
            }
            let Some(p) = best else { break };
            let mut done = true;
            for c in rank..d {
                if c != p && !e[c].is_zero() {
                    let q = e[c].floor_div(&e[p]);
                    col_axpy(&mut u, c, p, &q);
                    let t = &q * &e[p];
                    e[c] -= t;
                    if !e[c].is_zero() {
                        done = false;
                    }
                }
            }
            if done {
                col_swap(&mut u, rank, p);
                e.swap(rank, p);
                if e[rank].is_negative() {
                    col_neg(&mut u, rank);
                    e[rank] = -&e[rank];
                }
                rank += 1;
                break;
            }
        }
    }
    Echelon { u, rank }
}

/// The integer solutions of the equalities `eqs` (rows `1 + d` long, constant
/// first, meaning `row·(1,x) = 0`) as `x = x0 + V z` for all `z` in `Z^(d-r)`,
/// or `None` when there is none (a gcd condition fails or two rows conflict).
/// `V`'s columns are a basis of the integer kernel of the equalities; they are
/// the last `d - r` columns of the unimodular matrix of [`column_echelon`].
pub(crate) struct Compression {
    /// A particular integer solution.
    pub x0: Vec<Int>,
    /// `d` rows of `d - r` entries: `x = x0 + V z`.
    pub v: Vec<Vec<Int>>,
}

impl Compression {
    /// The number of free variables `z`.
    pub fn n_free(&self) -> usize {
        self.v.first().map_or(0, |r| r.len())
    }

    /// The row `row·(1,x)` written over `(1,z)`.
    pub fn apply_row(&self, row: &[Int]) -> Row {
        let c = &row[1..];
        let mut out = Vec::with_capacity(1 + self.n_free());
        let mut c0 = row[0].clone();
        for (a, x) in c.iter().zip(&self.x0) {
            if !a.is_zero() && !x.is_zero() {
                c0 += a * x;
            }
        }
        out.push(c0);
        out.extend(times(c, &self.v));
        out
    }

    /// The point `x0 + V z`.
    pub fn point(&self, z: &[Int]) -> Vec<Int> {
        let mut p = mat_vec(&self.v, z);
        for (a, x) in p.iter_mut().zip(&self.x0) {
            *a += x;
        }
        p
    }
}

/// See [`Compression`].
pub(crate) fn compress_equalities(eqs: &[Row], d: usize) -> Option<Compression> {
    let coeffs: Vec<&[Int]> = eqs.iter().map(|r| &r[1..]).collect();
    let Echelon { u, rank } = column_echelon(&coeffs, d);
    // Forward substitution: y_p for the pivots, in row order.
    let mut y: Vec<Int> = Vec::with_capacity(rank);
    for r in eqs {
        let e = times(&r[1..], &u);
        // the value of the row at the pivots solved so far
        let mut s = r[0].clone();
        for (q, yq) in y.iter().enumerate() {
            if !e[q].is_zero() {
                s += &e[q] * yq;
            }
        }
        let p = y.len();
        if p < rank && !e[p].is_zero() {
            // this row carries pivot p: e[p]·y_p + s = 0
            if !s.is_divisible_by(&e[p]) {
                return None;
            }
            y.push(-s.exact_div(&e[p]));
        } else if !s.is_zero() {
            return None;
        }
    }
    debug_assert_eq!(y.len(), rank);
    let x0 = mat_vec(&u, &y); // the columns beyond `rank` meet no entry of `y`
    let v = u.into_iter().map(|row| row[rank..].to_vec()).collect();
    Some(Compression { x0, v })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    fn det(m: &[Vec<Int>]) -> num_bigint::BigInt {
        // fraction-free Bareiss elimination on big integers
        use num_bigint::BigInt;
        use num_traits::{One, Zero};
        let n = m.len();
        let mut a: Vec<Vec<BigInt>> = m
            .iter()
            .map(|r| r.iter().map(|v| v.to_big()).collect())
            .collect();
        let mut sign = BigInt::one();
        let mut prev = BigInt::one();
        for k in 0..n {
            if a[k][k].is_zero() {
                let Some(s) = (k + 1..n).find(|&s| !a[s][k].is_zero()) else {
                    return BigInt::zero();
                };
                a.swap(k, s);
                sign = -sign;
            }
            for i in k + 1..n {
                for j in k + 1..n {
                    a[i][j] = (&a[i][j] * &a[k][k] - &a[i][k] * &a[k][j]) / &prev;
                }
            }
            prev = a[k][k].clone();
        }
        sign * &a[n - 1][n - 1]
    }

    #[test]
    fn echelon_shape_and_unimodular() {
        let rows = [ints(&[6, 10, 15]), ints(&[1, 1, 1]), ints(&[7, 11, 16])];
        let refs: Vec<&[Int]> = rows.iter().map(|r| r.as_slice()).collect();
        let e = column_echelon(&refs, 3);
        assert_eq!(e.rank, 2); // the third row is the sum of the first two
        let d = det(&e.u);
        assert!(d == 1.into() || d == (-1).into());
        let r0 = times(&rows[0], &e.u);
        assert_eq!(r0[0], Int::ONE); // gcd(6, 10, 15)
        assert!(r0[1].is_zero() && r0[2].is_zero());
        let r1 = times(&rows[1], &e.u);
        assert!(r1[2].is_zero() && !r1[1].is_zero());
    }

    #[test]
    fn compression_gcd_and_conflicts() {
        // 2x + 4y = 3 has no integer solution
        assert!(compress_equalities(&[ints(&[-3, 2, 4])], 2).is_none());
        // x + y = 1 and x + y = 2 conflict
        assert!(compress_equalities(&[ints(&[-1, 1, 1]), ints(&[-2, 1, 1])], 2).is_none());
        // 3x + 5y = 1: one free variable
        let c = compress_equalities(&[ints(&[-1, 3, 5])], 2).unwrap();
        assert_eq!(c.n_free(), 1);
        for z in -5..5 {
            let p = c.point(&[Int::from(z)]);
            assert_eq!(Int::from(3) * &p[0] + Int::from(5) * &p[1], Int::ONE);
        }
    }

    proptest! {
        /// Every integer solution in a box is reached by `x0 + V z`, and every
        /// `x0 + V z` solves the equalities.
        #[test]
        fn compression_matches_enumeration(
            rows in proptest::collection::vec(proptest::collection::vec(-4i64..=4, 4), 1..3)
        ) {
            let eqs: Vec<Row> = rows.iter().map(|r| ints(r)).collect();
            let d = 3;
            let sols: Vec<Vec<i64>> = (-4..=4i64)
                .flat_map(|a| (-4..=4i64).flat_map(move |b| (-4..=4i64).map(move |c| vec![a, b, c])))
                .filter(|x| eqs.iter().all(|r| {
                    let mut s = r[0].clone();
                    for (a, v) in r[1..].iter().zip(x) {
                        s += a * &Int::from(*v);
                    }
                    s.is_zero()
                }))
                .collect();
            match compress_equalities(&eqs, d) {
                None => prop_assert!(sols.is_empty()),
                Some(c) => {
                    // the map is onto the solutions: each box solution has an exact preimage
                    for x in &sols {
                        // solve V z = x - x0 by the unimodular structure: the free
                        // coordinates are t[rank..] of U^-1 (x - x0); check by search
                        let diff: Vec<Int> = x.iter().zip(&c.x0).map(|(a, b)| Int::from(*a) - b).collect();
                        let rhs: Vec<Row> = (0..d).map(|r| {
                            let mut row = vec![-&diff[r]];
                            row.extend(c.v[r].iter().cloned());
                            row
                        }).collect();
                        // the system V z = diff has an integer solution
                        let s = compress_equalities(&rhs, c.n_free());
                        prop_assert!(s.is_some(), "solution {x:?} not reached");
                    }
                    for z in -2..=2i64 {
                        let zz = vec![Int::from(z); c.n_free()];
                        let p = c.point(&zz);
                        for r in &eqs {
                            let mut s = r[0].clone();
                            for (a, v) in r[1..].iter().zip(&p) { s += a * v; }
                            prop_assert!(s.is_zero());
                        }
                    }
                }
            }
        }
    }
}
