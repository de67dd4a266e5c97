//! The elimination steps on constraint rows, in one place: the row combination
//! of Gaussian and Fourier–Motzkin elimination, the substitution of a variable
//! fixed by an equality with a unit coefficient, the Euclid step on an
//! equality, the Fourier–Motzkin pair of a lower and an upper bound (real and
//! dark shadow), the splinters of the Omega test, and the value of a variable
//! bounded on one side only. Rows are `(constant, coefficients..)`; an inequality means
//! `row >= 0`, an equality `row = 0`.
//!
//! Users: [`crate::conjunction`] (Gaussian elimination, unit locals), the
//! printer (dimensions written as expressions), [`crate::project`] (exact
//! Fourier–Motzkin), [`crate::omega`] (the Omega test), the integer queries
//! of [`crate::solver::solve`] (one-sided locals) and the rewriting of
//! existentials in [`crate::algebra`].

use crate::conjunction::Row;
use crate::int::Int;

/// `dst := a·dst - b·src`, entry by entry.
pub(crate) fn combine(dst: &mut Row, a: &Int, b: &Int, src: &Row) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = d.mul_add_mul(a, &-b, s);
    }
}

/// Substitutes the variable of column `col` in `row` by what the equality `eq`
/// says it is: `eq` has coefficient `±1` there, so `row - (row_col·eq_col)·eq`
/// is `row` with the variable replaced, and has 0 in `col`. Works on any
/// affine form (a constraint, a division numerator, an expression).
pub(crate) fn substitute_unit(row: &mut Row, eq: &Row, col: usize) {
    debug_assert!(
        eq[col].abs().is_one(),
        "substitute_unit needs a unit coefficient"
    );
    if row[col].is_zero() {
        return;
    }
    let f = &row[col] * &eq[col];
    for (x, y) in row.iter_mut().zip(eq) {
        if !y.is_zero() {
            *x -= &f * y;
        }
    }
    debug_assert!(row[col].is_zero());
}

/// The change of variables of the Omega test's Euclid step on an equality
/// `e` (Pugh 1992, sec. 2.2): `x_k = y_k - q·y_j`, unimodular, which with
/// `q = floor(e_j / e_k)` leaves `e_j mod e_k` as the new coefficient of `y_j`
/// in `e`. In every row (`e` among them) the coefficient of column `j`
/// becomes `row_j - q·row_k`.
pub(crate) fn shift_column<'a>(
    rows: impl IntoIterator<Item = &'a mut Row>,
    k: usize,
    j: usize,
    q: &Int,
) {
    for r in rows {
        if !r[k].is_zero() {
            let t = &r[k] * q;
            r[j] -= t;
        }
    }
}

/// The Fourier–Motzkin combination of a lower bound `lo` (`a·x + f >= 0`,
/// `a > 0` in column `col`) and an upper bound `up` (`-b·x + g >= 0`, `b > 0`):
/// `b·f + a·g >= 0`, the condition for some rational `x` between them (column
/// `col` is 0 in the result). With `dark`, the Omega test's dark shadow
/// `b·f + a·g >= (a - 1)(b - 1)`, which guarantees an integer `x` (W. Pugh, "The
/// Omega test", CACM 35(8), 1992, sec. 2.3); when `a = 1` or `b = 1` both are
/// the same and exact over the integers.
pub(crate) fn fm_pair(lo: &Row, up: &Row, col: usize, dark: bool) -> Row {
    let (a, b) = (&lo[col], -&up[col]);
    debug_assert!(a.is_positive() && b.is_positive());
    let mut r: Row = lo
        .iter()
        .zip(up)
        .map(|(x, y)| x.mul_add_mul(&b, a, y))
        .collect();
    if dark {
        r[0] -= (a - 1) * (&b - 1);
    }
    debug_assert!(r[col].is_zero());
    r
}

/// The splinters of the Omega test for eliminating the variable of column
/// `col` (Pugh 1992, sec. 2.3.1): when the dark shadow has no integer point but
/// the real shadow has, any integer point lies close to a lower bound: with `m`
/// the largest upper-bound coefficient, `a·x + f = i` for a lower bound
/// `a·x + f >= 0` and some `0 <= i <= floor((m·a - a - m) / m)`. Yields these
/// equalities, lower bound by lower bound.
pub(crate) fn splinters<'a>(
    lowers: &'a [&'a Row],
    uppers: &[&Row],
    col: usize,
) -> impl Iterator<Item = Row> + 'a + use<'a> {
    let m = uppers.iter().map(|u| -&u[col]).max().unwrap_or(Int::ONE);
    lowers.iter().flat_map(move |lo| {
        let a = &lo[col];
        let top = (&m * a - a - &m).floor_div(&m);
        let mut i = Int::ZERO;
        std::iter::from_fn(move || {
            if i > top {
                return None;
            }
            let mut e = (*lo).clone();
            e[0] -= &i;
            i += 1;
            Some(e)
        })
    })
}

/// The value that rows bounding variable `v` (column `v + 1`) allow at `p` (a point
/// of all variables, `p[v]` ignored): the smallest integer above every lower bound,
/// else the largest below every upper bound, else 0. When `v` is bounded on one
/// side only by `rows` (the elimination of a one-sided variable: dropping it
/// with its rows is exact over the integers), that value satisfies all of them.
pub(crate) fn one_sided_value(rows: &[Row], v: usize, p: &[Int]) -> Int {
    let col = v + 1;
    let mut lo: Option<Int> = None;
    let mut hi: Option<Int> = None;
    for r in rows {
        let a = &r[col];
        if a.is_zero() {
            continue;
        }
        let mut s = r[0].clone();
        for (k, c) in r[1..].iter().enumerate() {
            if k != v && !c.is_zero() {
                s += c * &p[k];
            }
        }
        if a.is_positive() {
            // a x + s >= 0  =>  x >= ceil(-s / a)
            let b = (-s).ceil_div(a);
            lo = Some(match lo {
                Some(l) => l.max_of(b),
                None => b,
            });
        } else {
            // -|a| x + s >= 0  =>  x <= floor(s / |a|)
            let b = s.floor_div(&a.abs());
            hi = Some(match hi {
                Some(h) => h.min_of(b),
                None => b,
            });
        }
    }
    lo.or(hi).unwrap_or(Int::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: &[i64]) -> Row {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    #[test]
    fn substitution_replaces_the_variable() {
        // x = y + 2 (as -x + y + 2 = 0) into 3x - y - 1 >= 0 gives 2y + 5 >= 0
        let mut r = row(&[-1, 3, -1]);
        substitute_unit(&mut r, &row(&[2, -1, 1]), 1);
        assert_eq!(r, row(&[5, 0, 2]));
    }

    #[test]
    fn euclid_step_reduces_a_coefficient() {
        // 3x + 7y = 1: with x = x' - 2y, 3x' + y = 1
        let mut e = row(&[-1, 3, 7]);
        let q = e[2].floor_div(&e[1]);
        shift_column([&mut e], 1, 2, &q);
        assert_eq!(e, row(&[-1, 3, 1]));
    }

    #[test]
    fn pair_and_dark_shadow() {
        // 2x - 1 >= 0 and -3x + 7 >= 0: real 3·(-1) + 2·7 = 11 >= 0, dark 11 - 1·2
        let (lo, up) = (row(&[-1, 2]), row(&[7, -3]));
        assert_eq!(fm_pair(&lo, &up, 1, false), row(&[11, 0]));
        assert_eq!(fm_pair(&lo, &up, 1, true), row(&[9, 0]));
    }

    #[test]
    fn splinters_cover_the_gap() {
        // 3x >= 1 and 2x <= ... : m = 2, a = 3, top = floor((6 - 3 - 2) / 2) = 0
        let lo = row(&[-1, 3]);
        let up = row(&[5, -2]);
        let s: Vec<Row> = splinters(&[&lo], &[&up], 1).collect();
        assert_eq!(s, vec![row(&[-1, 3])]);
        // a = 5, m = 4: top = floor((20 - 5 - 4) / 4) = 2: three equalities
        let lo = row(&[0, 5]);
        let up = row(&[9, -4]);
        assert_eq!(splinters(&[&lo], &[&up], 1).count(), 3);
    }
}
