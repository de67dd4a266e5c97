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

/// The `d x d` identity matrix.
fn identity(d: usize) -> Vec<Vec<Int>> {
    (0..d)
        .map(|r| {
            let mut row = vec![Int::ZERO; d];
            row[r] = Int::ONE;
            row
        })
        .collect()
}

/// The column echelon form of the coefficient rows `rows` (each of length `d`);
/// see the module doc. Rows that depend on earlier ones get no pivot.
pub(crate) fn column_echelon(rows: &[&[Int]], d: usize) -> Echelon {
    let mut u = identity(d);
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

/// A unimodular basis of `Z^d` (as rows) whose first vector is `a / gcd(a)`;
/// `None` for the zero vector. The column operations of Euclid's algorithm
/// that take `a` to `(g, 0, .., 0)` (as in [`column_echelon`]) are `a·U`
/// with `U` unimodular; the same steps applied as row operations to the
/// identity give `V = U⁻¹`, and `a = (g, 0, .., 0)·V` makes `V`'s first row
/// `a / g` (Cohen, *A Course in Computational Algebraic Number Theory*,
/// sec. 2.4.3: completing a primitive vector to a unimodular matrix).
pub(crate) fn basis_with_first(a: &[Int]) -> Option<Vec<Vec<Int>>> {
    let d = a.len();
    let mut v = identity(d);
    let mut e = a.to_vec();
    loop {
        let p = (0..d)
            .filter(|&c| !e[c].is_zero())
            .min_by(|&x, &y| e[x].abs().cmp(&e[y].abs()))?;
        let mut done = true;
        for c in 0..d {
            if c != p && !e[c].is_zero() {
                // column c -= q·column p on a·U is row p += q·row c on V
                let q = e[c].floor_div(&e[p]);
                let t = &q * &e[p];
                e[c] -= t;
                let rc = v[c].clone();
                for (x, y) in v[p].iter_mut().zip(&rc) {
                    if !y.is_zero() {
                        *x += &q * y;
                    }
                }
                done &= e[c].is_zero();
            }
        }
        if done {
            v.swap(0, p);
            if e[p].is_negative() {
                for x in &mut v[0] {
                    *x = -&*x;
                }
            }
            return Some(v);
        }
    }
}

/// The integer solutions of the equalities `eqs` (rows `1 + d` long, constant
/// first, meaning `row·(1,x) = 0`) as `x = x0 + V z` for all `z` in `Z^(d-r)`,
/// or `None` when there is none (a gcd condition fails or two rows conflict).
/// `V`'s columns are a basis of the integer kernel of the equalities: the last
/// `d - r` columns of the unimodular matrix of [`column_echelon`], LLL-reduced
/// when they are large and few ([`Compression::reduce`]).
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
    let mut comp = Compression { x0, v };
    if comp.n_free() <= REDUCE_MAX_FREE
        && comp
            .v
            .iter()
            .flatten()
            .chain(&comp.x0)
            .any(|a| a.to_i64().is_none_or(|a| a.unsigned_abs() > REDUCE_ABOVE))
    {
        comp.reduce();
    }
    Some(comp)
}

/// Entries of the kernel basis or of the particular solution beyond this make
/// [`compress_equalities`] reduce them ([`Compression::reduce`]); below it the
/// echelon form's basis is kept as it is (on the unit-coefficient equalities of
/// loop nests it is already short, and sparse).
const REDUCE_ABOVE: u64 = 1 << 20;

/// The most free variables for which [`compress_equalities`] reduces the
/// kernel basis. LLL's work grows fast with the dimension and the size of the
/// entries: on the 3-4-dimensional kernels of 2^70 coefficients in 5-8
/// variables (the benchmark's `bigcoef` family) it cost up to a quarter of the
/// sampler's instructions and did not shorten the search, whose work there is
/// in the inequalities' own skew; on the one- and two-dimensional kernels of
/// thin lattice sets it cut the sampler's instructions by a third overall
/// and by 9x on the slowest problem.
const REDUCE_MAX_FREE: usize = 2;

impl Compression {
    /// Replaces the kernel basis `V` by an LLL-reduced one (a unimodular change
    /// of `z`, so `x0 + V z` still runs over the same points) and `x0` by a
    /// short representative of `x0 + V Z^f`.
    ///
    /// Why: the echelon form's kernel basis of an equality with large
    /// coefficients is badly skewed (entries near the coefficients themselves,
    /// where a reduced basis has entries near their `f`-th root), and so are
    /// the inequalities written over `z`: the sampler's directions are then
    /// wide, generalized basis reduction runs many rounds on big numbers, and a
    /// set that fits in a small box looks huge. After reduction the rows over
    /// `z` have small coefficients and the unit directions are already nearly
    /// the thin ones.
    ///
    /// The reduction is the integral LLL algorithm with `δ = 3/4` (exact, with
    /// the Gram determinants `d_i` and the scaled Gram–Schmidt coefficients
    /// `λ_ij` as integers): H. Cohen, *A Course in Computational Algebraic
    /// Number Theory*, 1993, Algorithm 2.6.7 (after de Weger); A. K. Lenstra,
    /// H. W. Lenstra and L. Lovász, "Factoring polynomials with rational
    /// coefficients", Math. Ann. 261, 1982, for LLL itself. Then `x0` is
    /// size-reduced against the reduced basis (the same `RED` steps, with `x0`
    /// as one more vector), which bounds each of its Gram–Schmidt coordinates
    /// by half the basis vector's.
    // (the loops index two rows of `lam` at once, as the text's subscripts do)
    #[allow(clippy::needless_range_loop)]
    fn reduce(&mut self) {
        let f = self.n_free();
        if f == 0 {
            return;
        }
        let mut b: Vec<Vec<Int>> = (0..f)
            .map(|c| self.v.iter().map(|row| row[c].clone()).collect())
            .collect();
        let dot = |x: &[Int], y: &[Int]| -> Int {
            let mut s = Int::ZERO;
            for (a, c) in x.iter().zip(y) {
                if !a.is_zero() && !c.is_zero() {
                    s += a * c;
                }
            }
            s
        };
        // d[i + 1] = d_i of the text (d[0] = 1); lam[k][j], j < k, the scaled
        // Gram-Schmidt coefficients
        let mut d = vec![Int::ONE; f + 1];
        let mut lam = vec![vec![Int::ZERO; f]; f];
        // the Gram-Schmidt data of `x` as vector k: lam[k][..k], then d[k + 1]
        // when `norm` is asked for
        let gram =
            |b: &[Vec<Int>], d: &[Int], lam: &[Vec<Int>], k: usize, x: &[Int], norm: bool| {
                let mut row: Vec<Int> = Vec::with_capacity(k + 1);
                for j in 0..k + usize::from(norm) {
                    let mut u = dot(x, if j < k { &b[j] } else { x });
                    for i in 0..j {
                        let lji = if j < k { &lam[j][i] } else { &row[i] };
                        u = (&d[i + 1] * &u - &row[i] * lji).exact_div(&d[i]);
                    }
                    row.push(u);
                }
                row
            };
        // size reduction RED(k, l): b_k -= q b_l with q the rounded lam[k][l] / d_l
        fn red(b: &mut [Vec<Int>], d: &[Int], lam: &mut [Vec<Int>], k: usize, l: usize) {
            let two = Int::from(2);
            if (&lam[k][l] * &two).abs() <= d[l + 1] {
                return;
            }
            let q = (&lam[k][l] * &two + &d[l + 1]).floor_div(&(&d[l + 1] * &two));
            let bl = b[l].clone();
            for (x, y) in b[k].iter_mut().zip(&bl) {
                *x -= &q * y;
            }
            let t = &q * &d[l + 1];
            lam[k][l] -= t;
            for i in 0..l {
                let t = &q * &lam[l][i];
                lam[k][i] -= t;
            }
        }
        d[1] = dot(&b[0], &b[0]);
        let mut kmax = 0;
        let mut k = 1;
        let (three, four) = (Int::from(3), Int::from(4));
        while k < f {
            if k > kmax {
                kmax = k;
                let row = gram(&b, &d, &lam, k, &b[k], true);
                lam[k][..k].clone_from_slice(&row[..k]);
                d[k + 1] = row[k].clone();
                debug_assert!(!d[k + 1].is_zero(), "a kernel basis is independent");
            }
            red(&mut b, &d, &mut lam, k, k - 1);
            // Lovász condition with δ = 3/4, in integers
            let l = &lam[k][k - 1];
            if &four * &d[k + 1] * &d[k - 1] < &three * &d[k] * &d[k] - &four * l * l {
                // SWAP(k)
                b.swap(k, k - 1);
                for j in 0..k - 1 {
                    let t = std::mem::take(&mut lam[k][j]);
                    lam[k][j] = std::mem::replace(&mut lam[k - 1][j], t);
                }
                let l = lam[k][k - 1].clone();
                let bb = (&d[k - 1] * &d[k + 1] + &l * &l).exact_div(&d[k]);
                for i in k + 1..=kmax {
                    let t = lam[i][k].clone();
                    lam[i][k] = (&d[k + 1] * &lam[i][k - 1] - &l * &t).exact_div(&d[k]);
                    lam[i][k - 1] = (&bb * &t + &l * &lam[i][k]).exact_div(&d[k + 1]);
                }
                d[k] = bb;
                k = k.max(2) - 1;
            } else {
                for l in (0..k - 1).rev() {
                    red(&mut b, &d, &mut lam, k, l);
                }
                k += 1;
            }
        }
        // x0 as vector f, size-reduced against the basis
        let row = gram(&b, &d, &lam, f, &self.x0, false);
        b.push(std::mem::take(&mut self.x0));
        lam.push(row);
        for l in (0..f).rev() {
            red(&mut b, &d, &mut lam, f, l);
        }
        self.x0 = b.pop().expect("x0 was pushed");
        for (r, row) in self.v.iter_mut().enumerate() {
            for (c, e) in row.iter_mut().enumerate() {
                *e = b[c][r].clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conjunction::Conjunction;
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

    /// The kernel of one equality with coefficients near 4·10^13: the reduced
    /// basis spans the same lattice as the echelon form's (same Gram
    /// determinant, every vector in the kernel), its entries are far below the
    /// coefficients (the echelon form's reach 10^13), and `x0` is a solution
    /// no longer than the basis allows.
    #[test]
    fn big_kernels_are_reduced() {
        let eq = ints(&[
            -39999999999960,
            40000000000112,
            -40000000000124,
            39999999999984,
        ]);
        let c = compress_equalities(std::slice::from_ref(&eq), 3).unwrap();
        assert_eq!(c.n_free(), 2);
        let gram_det = |cols: &[Vec<Int>]| -> num_bigint::BigInt {
            let g: Vec<Vec<Int>> = cols
                .iter()
                .map(|a| {
                    cols.iter()
                        .map(|b| {
                            a.iter()
                                .zip(b)
                                .map(|(x, y)| x * y)
                                .fold(Int::ZERO, |s, t| s + t)
                        })
                        .collect()
                })
                .collect();
            det(&g)
        };
        let cols = |v: &[Vec<Int>]| -> Vec<Vec<Int>> {
            (0..v[0].len())
                .map(|j| v.iter().map(|r| r[j].clone()).collect())
                .collect()
        };
        let reduced = cols(&c.v);
        let ech = column_echelon(&[&eq[1..]], 3);
        let unreduced: Vec<Vec<Int>> = cols(&ech.u).split_off(1);
        assert_eq!(gram_det(&reduced), gram_det(&unreduced));
        // (35, 32, -3) is in the kernel; the other vector is then near
        // 1.7·10^13 / |(35, 32, -3)|, as the Gram determinant forces
        let short = Int::from(1i64 << 40);
        assert!(
            reduced[0].iter().all(|x| x.abs() < Int::from(100)),
            "{:?}",
            reduced[0]
        );
        for v in &reduced {
            assert!(
                times(
                    &eq[1..],
                    &v.iter().map(|x| vec![x.clone()]).collect::<Vec<_>>()
                )[0]
                .is_zero()
            );
            assert!(v.iter().all(|x| x.abs() < short), "{v:?}");
        }
        assert!(Conjunction::eval_row(&eq, &c.x0).is_zero());
        assert!(c.x0.iter().all(|x| x.abs() < short), "{:?}", c.x0);
    }

    proptest! {
        #[test]
        fn basis_with_first_is_unimodular(a in proptest::collection::vec(-1_000_000i64..1_000_000, 1..5), big in 0u32..3) {
            // entries scaled past 2^64 for some cases
            let scale = (0..big).fold(Int::ONE, |s, _| &s * &Int::from(1i64 << 40));
            let a: Vec<Int> = a.iter().map(|&x| &Int::from(x) * &scale).collect();
            let Some(v) = basis_with_first(&a) else {
                prop_assert!(a.iter().all(Int::is_zero));
                return Ok(());
            };
            let g = crate::int::gcd_all(a.iter());
            let first: Vec<Int> = a.iter().map(|x| x.exact_div(&g)).collect();
            prop_assert_eq!(&v[0], &first);
            let dt = det(&v);
            prop_assert!(dt == num_bigint::BigInt::from(1) || dt == num_bigint::BigInt::from(-1), "det {}", dt);
        }

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
