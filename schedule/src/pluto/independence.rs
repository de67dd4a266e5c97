//! Linear independence of a statement's rows, as Pluto enforces it: the
//! next row must have a component in the orthogonal complement of the rows
//! found so far (Bondhugula et al., PLDI 2008, Sec. 4.3; Pluto+ discusses
//! its limits, Bondhugula, Acharya, Cohen, TOPLAS 38(3), 2016, Sec. 3).

use super::farkas::{Layout, Lp};
use presburger::Int;

/// The number of linearly independent iterator parts among `rows` (each
/// `n` iterator coefficients first).
pub(crate) fn rank_of(rows: &[Vec<Int>], n: usize) -> usize {
    let m: Vec<Vec<Int>> = rows.iter().map(|row| row[..n].to_vec()).collect();
    n - null_space(&m, n).len()
}

/// The number of ways [`add_independence`] can state independence for a
/// statement of `n` iterators: Pluto's combined constraint, then each basis
/// vector of the complement with each sign.
pub(crate) fn n_choices(n: usize) -> usize {
    2 * n + 1
}

/// Adds to `lp` the constraint that statement `s`'s next row (its iterator
/// coefficients in the variables of `layout`) is not zero and independent
/// of its `rows`. With `v_1..v_k` a basis of the vectors orthogonal to the
/// rows (the null space of the matrix they form, oriented to non-negative
/// sums; the unit vectors when there is no row), `choice` 0 is Pluto's
/// combined constraint `v_i·c ≥ 0` for each `i` and `Σ v_i·c ≥ 1` (a
/// heuristic: it misses independent rows with a negative component along
/// some `v_i`), and `choice` `j > 0` the single `±v·c ≥ 1` with `v` the basis
/// vector `(j − 1) / 2`, `+` for odd `j`. A choice beyond the basis falls
/// back to the combined constraint.
pub(crate) fn add_independence(
    lp: &mut Lp,
    layout: &Layout,
    s: usize,
    rows: &[Vec<Int>],
    choice: usize,
) {
    let n = layout.n_iter(s);
    let h: Vec<Vec<Int>> = rows.iter().map(|r| r[..n].to_vec()).collect();
    let basis = null_space(&h, n);
    let form_of = |v: &Vec<Int>, sign: i64| -> Vec<(usize, Int)> {
        v.iter()
            .enumerate()
            .filter(|(_, x)| !x.is_zero())
            .flat_map(|(i, x)| {
                let c = x * &Int::from(sign);
                layout.entry(s, i).iter().map(move |(v, y)| (*v, &c * y))
            })
            .collect()
    };
    if choice > 0 && !h.is_empty() && (choice - 1) / 2 < basis.len() {
        let sign = if choice % 2 == 1 { 1 } else { -1 };
        lp.ge(&form_of(&basis[(choice - 1) / 2], sign), -1);
        return;
    }
    let mut sum = Vec::new();
    for v in &basis {
        let form = form_of(v, 1);
        if !h.is_empty() {
            lp.ge(&form, 0);
        }
        sum.extend(form);
    }
    lp.ge(&sum, -1);
}

/// A basis of the null space `{ v : h·v = 0 }` of the rows `h` (each of `n`
/// entries), integer vectors each oriented to a non-negative sum (a zero sum:
/// first non-zero entry positive). Exact rational Gauss–Jordan elimination.
pub(crate) fn null_space(h: &[Vec<Int>], n: usize) -> Vec<Vec<Int>> {
    // rows as fractions over a common denominator: keep integer rows and
    // eliminate fraction-free
    let mut m: Vec<Vec<Int>> = h.iter().map(|r| r[..n].to_vec()).collect();
    let mut pivots: Vec<usize> = Vec::new();
    let mut r = 0;
    for col in 0..n {
        let Some(p) = (r..m.len()).find(|&i| !m[i][col].is_zero()) else {
            continue;
        };
        m.swap(r, p);
        for i in 0..m.len() {
            if i != r && !m[i][col].is_zero() {
                let (a, b) = (m[r][col].clone(), m[i][col].clone());
                let new: Vec<Int> = (0..n)
                    .map(|j| &(&m[i][j] * &a) - &(&m[r][j] * &b))
                    .collect();
                let g = presburger::gcd_all(new.iter());
                m[i] = if g.is_zero() || g.is_one() {
                    new
                } else {
                    new.iter().map(|x| x.exact_div(&g)).collect()
                };
            }
        }
        pivots.push(col);
        r += 1;
        if r == m.len() {
            break;
        }
    }
    let mut basis = Vec::new();
    for free in (0..n).filter(|c| !pivots.contains(c)) {
        // v[free] = L, v[pivot_k] = -m[k][free] * L / m[k][pivot_k]
        let mut l = Int::ONE;
        for (k, &pc) in pivots.iter().enumerate() {
            l = l.lcm(&m[k][pc].abs());
        }
        let mut v = vec![Int::ZERO; n];
        v[free] = l.clone();
        for (k, &pc) in pivots.iter().enumerate() {
            v[pc] = -(&m[k][free] * &l).exact_div(&m[k][pc]);
        }
        let g = presburger::gcd_all(v.iter());
        if !g.is_zero() && !g.is_one() {
            v = v.iter().map(|x| x.exact_div(&g)).collect();
        }
        let s: Int = v.iter().fold(Int::ZERO, |acc, x| &acc + x);
        let first_neg = v
            .iter()
            .find(|x| !x.is_zero())
            .is_some_and(|x| x.is_negative());
        if s.is_negative() || (s.is_zero() && first_neg) {
            v = v.iter().map(|x| -x.clone()).collect();
        }
        basis.push(v);
    }
    basis
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[&[i64]]) -> Vec<Vec<Int>> {
        v.iter()
            .map(|r| r.iter().map(|&x| Int::from(x)).collect())
            .collect()
    }

    #[test]
    fn null_spaces() {
        assert_eq!(
            null_space(&ints(&[&[1, 0, 0]]), 3),
            ints(&[&[0, 1, 0], &[0, 0, 1]])
        );
        assert_eq!(null_space(&ints(&[&[1, 1]]), 2), ints(&[&[1, -1]]));
        assert_eq!(
            null_space(&ints(&[&[1, 1, 0], &[1, 0, 0]]), 3),
            ints(&[&[0, 0, 1]])
        );
        assert!(null_space(&ints(&[&[1, 2], &[3, 4]]), 2).is_empty());
        assert_eq!(null_space(&ints(&[&[2, 1, 1]]), 3).len(), 2);
    }
}
