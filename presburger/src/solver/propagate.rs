//! Bound propagation: integer bounds on each variable implied by single rows,
//! iterated, as a cheap proof of emptiness in front of the simplex.
//!
//! For an inequality `c0 + Σ a_k·x_k >= 0` and a variable `x_j` with `a_j != 0`,
//! every point satisfies `a_j·x_j >= -c0 - Σ_{k≠j} a_k·x_k >= -c0 - Σ_{k≠j}
//! max(a_k·x_k)`, where `max(a_k·x_k)` is `a_k·hi_k` for `a_k > 0` and
//! `a_k·lo_k` for `a_k < 0` over the current bounds `lo_k <= x_k <= hi_k`. When
//! the right-hand side is finite this bounds `x_j` from below (`a_j > 0`) or
//! above (`a_j < 0`), and since `x_j` is an integer the bound is rounded inwards.
//! An equality is the two inequalities `row >= 0` and `-row >= 0`. A variable
//! whose lower bound passes its upper bound proves the set empty.
//!
//! This is the bound tightening of integer-programming presolve (e.g. M. W. P.
//! Savelsbergh, "Preprocessing and probing techniques for mixed integer
//! programming problems", ORSA J. on Computing 6(4), 1994, sec. 2). It decides
//! nothing on its own that the sampler would not, but on the small systems of
//! tiled and dependence sets it finds most empty pieces after one or two passes
//! over the rows, in machine arithmetic, before any tableau is built.
//!
//! Exactness: bounds are only ever derived, never assumed, so an "empty" answer
//! is a proof; anything that does not fit the machine arithmetic (a big
//! coefficient, an overflowing sum or bound) is skipped, which only makes the
//! result weaker. The passes stop at a fixpoint or after [`MAX_PASSES`] (a chain
//! such as `x <= y - 1, y <= x - 1` over a huge box would otherwise tighten by
//! one per pass).

use crate::conjunction::Row;
#[cfg(test)]
use crate::int::Int;

/// The most passes over the rows.
const MAX_PASSES: usize = 6;

/// The row visits after each value a dive fixes, as a multiple of the number
/// of rows: the dive is a heuristic whose point is checked, so it need not
/// reach a fixpoint.
const DIVE_PASSES: usize = 2;

/// The most term updates a dive may cost (three tries per variable, each a
/// propagation of at most [`DIVE_PASSES`] visits per row): about a
/// millisecond.
const MAX_DIVE_WORK: usize = 1 << 20;

/// Lower and upper integer bounds of one variable (`None`: unbounded that way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Interval {
    pub lo: Option<i64>,
    pub hi: Option<i64>,
}

/// The buffers of a [`Propagator`], kept per thread between propagations:
/// propagation runs in front of every emptiness test, on systems of a dozen
/// rows, where allocating its eight vectors afresh cost a sixth of the test.
#[derive(Default)]
struct Buffers {
    rows: Vec<(i64, usize, usize)>,
    terms: Vec<(usize, i64)>,
    bounds: Vec<Interval>,
    occ: Vec<usize>,
    queue: Vec<usize>,
    queued: Vec<bool>,
    saved: Vec<Interval>,
}

thread_local! {
    static SPARE: std::cell::Cell<Option<Buffers>> = const { std::cell::Cell::new(None) };
}

/// A system in machine words for propagation: each row `c0 + Σ a·x >= 0` as
/// its constant and its non-zero terms, and the current bounds.
pub(crate) struct Propagator {
    /// Row `i` is `rows[i].0 + Σ terms[rows[i].1 .. rows[i].2]`.
    rows: Vec<(i64, usize, usize)>,
    /// The non-zero terms `(variable, coefficient)` of all rows, row after row.
    terms: Vec<(usize, i64)>,
    bounds: Vec<Interval>,
    /// Whether every row of the system is in `rows` (none was left out for
    /// its size), so that a point satisfying `rows` satisfies the system.
    complete: bool,
    /// The dive's buffers (empty between uses).
    occ: Vec<usize>,
    queue: Vec<usize>,
    queued: Vec<bool>,
    saved: Vec<Interval>,
}

impl Drop for Propagator {
    fn drop(&mut self) {
        let b = Buffers {
            rows: std::mem::take(&mut self.rows),
            terms: std::mem::take(&mut self.terms),
            bounds: std::mem::take(&mut self.bounds),
            occ: std::mem::take(&mut self.occ),
            queue: std::mem::take(&mut self.queue),
            queued: std::mem::take(&mut self.queued),
            saved: std::mem::take(&mut self.saved),
        };
        let _ = SPARE.try_with(|s| s.set(Some(b)));
    }
}

impl Propagator {
    /// The system `eqs·(1,x) = 0, ineqs·(1,x) >= 0` over `n` variables with no
    /// bounds yet; `None` when a constant row is violated. Rows with an entry
    /// beyond `i64` are left out (see the module doc).
    pub(crate) fn new(n: usize, eqs: &[Row], ineqs: &[Row]) -> Option<Propagator> {
        let b = SPARE
            .try_with(|s| s.take())
            .ok()
            .flatten()
            .unwrap_or_default();
        let (mut rows, mut terms, mut bounds) = (b.rows, b.terms, b.bounds);
        rows.clear();
        terms.clear();
        let mut push = |r: &Row, sign: i64| -> bool {
            let Some(c0) = r[0].to_i64().and_then(|c| c.checked_mul(sign)) else {
                return true;
            };
            let start = terms.len();
            for (j, a) in r[1..].iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                // (i64::MIN is left out too: its negation overflows)
                match a.to_i64().filter(|&a| a != i64::MIN) {
                    Some(a) => terms.push((j, a * sign)),
                    None => {
                        terms.truncate(start);
                        return true;
                    }
                }
            }
            if terms.len() == start {
                return c0 >= 0;
            }
            rows.push((c0, start, terms.len()));
            true
        };
        for r in eqs {
            if !push(r, 1) || !push(r, -1) {
                return None;
            }
        }
        for r in ineqs {
            if !push(r, 1) {
                return None;
            }
        }
        bounds.clear();
        bounds.resize(n, Interval { lo: None, hi: None });
        let complete = rows.len() == 2 * eqs.len() + ineqs.len();
        Some(Propagator {
            rows,
            terms,
            bounds,
            complete,
            occ: b.occ,
            queue: b.queue,
            queued: b.queued,
            saved: b.saved,
        })
    }

    /// Tightens the bounds to a fixpoint (or [`MAX_PASSES`]); false when they
    /// prove the system empty.
    pub(crate) fn run(&mut self) -> bool {
        for _ in 0..MAX_PASSES {
            let mut changed = false;
            for &(c0, start, end) in &self.rows {
                let terms = &self.terms[start..end];
                if !tighten_from(c0, terms, &mut self.bounds, |_| changed = true) {
                    return false;
                }
            }
            if !changed {
                break;
            }
        }
        true
    }

    /// A greedy dive for an integer point: fix each variable in turn and
    /// propagate, trying its middle value (where a fat set has the most room),
    /// then its lower and its upper bound (a bounded side is 0 when the other is
    /// unbounded); `None` when all of them empty the box. There is no deeper
    /// backtracking: this is a heuristic in front of the exact search, and the
    /// caller checks the point. Skipped (`None`) on systems where it would cost
    /// more than [`MAX_DIVE_WORK`] term updates.
    ///
    /// After a value is fixed, only the rows of variables whose bounds changed
    /// are visited again (a worklist over the rows in which each variable
    /// occurs), at most [`DIVE_PASSES`] times the number of rows: the first
    /// fix touches the rows of one variable, not the whole system.
    pub(crate) fn dive(&mut self) -> Option<Vec<i64>> {
        let n = self.bounds.len();
        let work = 3 * DIVE_PASSES * n * self.terms.len();
        if work > MAX_DIVE_WORK {
            return None;
        }
        let occ = Occurrences::new_in(std::mem::take(&mut self.occ), n, &self.rows, &self.terms);
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        let mut queued = std::mem::take(&mut self.queued);
        queued.clear();
        queued.resize(n, false);
        let mut saved = std::mem::take(&mut self.saved);
        let found = self.dive_with(&occ, &mut queue, &mut queued, &mut saved);
        (self.occ, self.queue, self.queued, self.saved) = (occ.data, queue, queued, saved);
        found
    }

    /// [`Propagator::dive`] with its buffers.
    fn dive_with(
        &mut self,
        occ: &Occurrences,
        queue: &mut Vec<usize>,
        queued: &mut [bool],
        saved: &mut Vec<Interval>,
    ) -> Option<Vec<i64>> {
        let n = self.bounds.len();
        for j in 0..n {
            let iv = self.bounds[j];
            let tries = match (iv.lo, iv.hi) {
                (Some(l), Some(h)) => [
                    Some(((l as i128 + h as i128).div_euclid(2)) as i64),
                    Some(l),
                    Some(h),
                ],
                (l, h) => [Some(l.or(h).unwrap_or(0)), None, None],
            };
            saved.clone_from(&self.bounds);
            let mut ok = false;
            for (t, v) in tries.iter().enumerate() {
                let Some(v) = *v else { continue };
                if tries[..t].contains(&Some(v)) {
                    continue;
                }
                self.bounds.clone_from(saved);
                self.bounds[j] = Interval {
                    lo: Some(v),
                    hi: Some(v),
                };
                if self.propagate_from(j, occ, queue, queued) {
                    ok = true;
                    break;
                }
            }
            if !ok {
                return None;
            }
        }
        Some(self.bounds.iter().map(|iv| iv.lo.unwrap_or(0)).collect())
    }

    /// Whether `x` satisfies the system: `Some` of the answer when every row
    /// is held in machine words (and no sum overflows `i128`), `None` when the
    /// caller must check with exact arithmetic.
    pub(crate) fn satisfied_by(&self, x: &[i64]) -> Option<bool> {
        if !self.complete {
            return None;
        }
        for &(c0, s, e) in &self.rows {
            let mut v = c0 as i128;
            for &(j, a) in &self.terms[s..e] {
                v = v.checked_add(a as i128 * x[j] as i128)?;
            }
            if v < 0 {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Propagates a change of the bounds of variable `start` through the rows
    /// it occurs in, and on through the rows of each variable whose bounds
    /// change, for at most [`DIVE_PASSES`] times the number of rows; false when
    /// bounds cross. `queue` and `queued` are scratch space (left empty).
    fn propagate_from(
        &mut self,
        start: usize,
        occ: &Occurrences,
        queue: &mut Vec<usize>,
        queued: &mut [bool],
    ) -> bool {
        let mut visits = DIVE_PASSES * self.rows.len();
        queue.clear();
        queue.push(start);
        queued[start] = true;
        let mut head = 0;
        let mut ok = true;
        'outer: while head < queue.len() {
            let u = queue[head];
            head += 1;
            queued[u] = false;
            for &r in occ.rows_of(u) {
                if visits == 0 {
                    break 'outer;
                }
                visits -= 1;
                let (c0, s, e) = self.rows[r];
                let push = |v: usize| {
                    if !queued[v] {
                        queued[v] = true;
                        queue.push(v);
                    }
                };
                if !tighten_from(c0, &self.terms[s..e], &mut self.bounds, push) {
                    ok = false;
                    break 'outer;
                }
            }
        }
        for &v in &queue[head..] {
            queued[v] = false;
        }
        queue.clear();
        ok
    }
}

/// For each variable, the rows it occurs in (one array, variable after
/// variable, as the rows' terms).
struct Occurrences {
    /// `n + 1` offsets, then the rows: the rows of variable `j` are
    /// `data[data[j]..data[j + 1]]` (one allocation: this is built for every
    /// dive, on systems of a dozen rows).
    data: Vec<usize>,
}

impl Occurrences {
    /// The lists, in `data` (a buffer whose contents are dropped).
    fn new_in(
        mut data: Vec<usize>,
        n: usize,
        rows: &[(i64, usize, usize)],
        terms: &[(usize, i64)],
    ) -> Occurrences {
        data.clear();
        data.resize(n + 1 + terms.len(), 0);
        // counts, then the end offset of each variable's run (a counting
        // sort whose second pass fills each run from its end)
        for &(j, _) in terms {
            data[j + 1] += 1;
        }
        data[0] = n + 1;
        for j in 0..n {
            data[j + 1] += data[j];
        }
        for (r, &(_, s, e)) in rows.iter().enumerate().rev() {
            for &(j, _) in terms[s..e].iter().rev() {
                data[j + 1] -= 1;
                let at = data[j + 1];
                data[at] = r;
            }
        }
        // data[j + 1] is now the start of variable j's run: shift down
        data.copy_within(1..n + 1, 0);
        data[n] = n + 1 + terms.len();
        Occurrences { data }
    }

    fn rows_of(&self, j: usize) -> &[usize] {
        &self.data[self.data[j]..self.data[j + 1]]
    }
}

/// The bounds implied by the rows (see the module doc), or `None` when they
/// prove `{ x in Z^n : eqs·(1,x) = 0, ineqs·(1,x) >= 0 }` empty. Rows have
/// `1 + n` entries, the constant first.
#[cfg(test)]
fn propagate(n: usize, eqs: &[Row], ineqs: &[Row]) -> Option<Vec<Interval>> {
    let mut p = Propagator::new(n, eqs, ineqs)?;
    p.run().then(|| p.bounds.clone())
}

/// The largest value of `a·x` over the interval, `None` when unbounded.
fn max_term(a: i64, iv: Interval) -> Option<i128> {
    let v = if a > 0 { iv.hi } else { iv.lo }?;
    Some(a as i128 * v as i128)
}

/// Tightens the bounds with one row `c0 + Σ a·x >= 0`, calling `changed`
/// with each variable whose bounds it moves; false when a variable's bounds
/// cross.
fn tighten_from(
    c0: i64,
    terms: &[(usize, i64)],
    b: &mut [Interval],
    mut changed: impl FnMut(usize),
) -> bool {
    // the sum of the finite maxima, and the unbounded terms (at most one is useful)
    let mut sum = c0 as i128;
    let mut unbounded = None;
    for &(j, a) in terms {
        match max_term(a, b[j]) {
            Some(m) => match sum.checked_add(m) {
                Some(s) => sum = s,
                None => return true,
            },
            None if unbounded.is_none() => unbounded = Some(j),
            None => return true, // two unbounded terms: nothing follows
        }
    }
    if unbounded.is_none() && sum < 0 {
        return false;
    }
    for &(j, a) in terms {
        // rest = c0 + Σ_{k≠j} max(a_k·x_k); then a·x_j >= -rest
        let rest = match unbounded {
            Some(u) if u != j => continue,
            Some(_) => sum,
            None => match max_term(a, b[j]) {
                Some(m) => sum - m,
                None => continue,
            },
        };
        let Ok(rest) = i64::try_from(rest) else {
            continue;
        };
        if a > 0 {
            // x_j >= ceil(-rest / a)
            let Some(r) = rest.checked_neg() else {
                continue;
            };
            let lo = if a == 1 {
                r
            } else {
                r.div_euclid(a) + i64::from(r.rem_euclid(a) != 0)
            };
            if b[j].lo.is_none_or(|l| lo > l) {
                b[j].lo = Some(lo);
                changed(j);
            }
        } else {
            // x_j <= floor(rest / -a)
            let hi = if a == -1 { rest } else { rest.div_euclid(-a) };
            if b[j].hi.is_none_or(|h| hi < h) {
                b[j].hi = Some(hi);
                changed(j);
            }
        }
        if let (Some(l), Some(h)) = (b[j].lo, b[j].hi) {
            if l > h {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[&[i64]]) -> Vec<Row> {
        v.iter()
            .map(|r| r.iter().map(|&x| Int::from(x)).collect())
            .collect()
    }
    use proptest::prelude::*;

    /// The integer points of the rows in the cube `[-r, r]^n`.
    fn points(n: usize, eqs: &[Row], ineqs: &[Row], r: i64) -> Vec<Vec<i64>> {
        let val = |row: &Row, p: &[i64]| -> i64 {
            let c = |v: &Int| v.to_i64().unwrap();
            c(&row[0]) + row[1..].iter().zip(p).map(|(a, x)| c(a) * x).sum::<i64>()
        };
        let mut out = Vec::new();
        let mut p = vec![-r; n];
        loop {
            if eqs.iter().all(|e| val(e, &p) == 0) && ineqs.iter().all(|i| val(i, &p) >= 0) {
                out.push(p.clone());
            }
            let mut j = 0;
            while j < n && p[j] == r {
                p[j] = -r;
                j += 1;
            }
            if j == n {
                return out;
            }
            p[j] += 1;
        }
    }

    #[test]
    fn finds_a_contradiction_through_a_chain() {
        // o + k >= 193 + 64t, o + k <= 64, t >= 0 (a tiled piece)
        let ineqs = rows(&[
            &[-193, -64, 1, 1],
            &[64, 0, -1, -1],
            &[0, 1, 0, 0],
            &[0, 0, 1, 0],
            &[0, 0, 0, 1],
        ]);
        assert_eq!(propagate(3, &[], &ineqs), None);
    }

    #[test]
    fn dive_tries_both_ends() {
        // t in [0, 1]; 2o + k <= 64t and 2o + k >= 1 need t = 1, not the middle 0
        let ineqs = rows(&[
            &[0, 1, 0, 0],
            &[1, -1, 0, 0],
            &[0, 64, -2, -1],
            &[-1, 0, 2, 1],
            &[0, 0, 1, 0],
            &[0, 0, 0, 1],
            &[2, 0, 0, -1],
        ]);
        let mut p = Propagator::new(3, &[], &ineqs).unwrap();
        assert!(p.run());
        let x = p.dive().expect("a point");
        assert_eq!(x[0], 1);
    }

    #[test]
    fn a_fixed_value_travels_along_a_chain() {
        // 0 <= x_k <= 10 and x0 <= x1 <= x2 <= x3; fixing x0 = 7 must reach x3
        // through the rows of x1 and x2, which x0 does not occur in
        let ineqs = rows(&[
            &[0, 1, 0, 0, 0],
            &[10, 0, 0, 0, -1],
            &[0, -1, 1, 0, 0],
            &[0, 0, -1, 1, 0],
            &[0, 0, 0, -1, 1],
        ]);
        let mut p = Propagator::new(4, &[], &ineqs).unwrap();
        assert!(p.run());
        let occ = Occurrences::new_in(Vec::new(), 4, &p.rows, &p.terms);
        p.bounds[0] = Interval {
            lo: Some(7),
            hi: Some(7),
        };
        let (mut queue, mut queued) = (Vec::new(), vec![false; 4]);
        assert!(p.propagate_from(0, &occ, &mut queue, &mut queued));
        assert_eq!(p.bounds[3].lo, Some(7));
        assert!(queue.is_empty() && queued.iter().all(|q| !q));
        // a value the rows exclude (x0 = 11 > 10 >= x3) is refused
        p.bounds[0] = Interval {
            lo: Some(11),
            hi: Some(11),
        };
        assert!(!p.propagate_from(0, &occ, &mut queue, &mut queued));
        assert!(queued.iter().all(|q| !q), "scratch space is left clean");
    }

    #[test]
    fn rounds_bounds_inwards() {
        // 2x >= 1 and 2x <= 1: rationally x = 1/2, no integer
        assert_eq!(propagate(1, &[], &rows(&[&[-1, 2], &[1, -2]])), None);
        // x = 2y + 1 with 0 <= x <= 0
        let b = propagate(2, &rows(&[&[1, -1, 2]]), &rows(&[&[0, 1, 0], &[0, -1, 0]]));
        assert_eq!(b, None, "2y = -1 has no integer solution");
        let b = propagate(1, &[], &rows(&[&[-1, 3], &[7, -2]])).unwrap();
        assert_eq!(
            b[0],
            Interval {
                lo: Some(1),
                hi: Some(3)
            }
        );
    }

    #[test]
    fn big_values_are_skipped_not_trusted() {
        let mut r = rows(&[&[0, 1]]);
        r[0][0] = Int::from(i64::MIN) * Int::from(4);
        // x >= 2^65 cannot be recorded: no bound, not empty
        r[0][0] = -r[0][0].clone();
        let b = propagate(1, &[], &r).unwrap();
        assert_eq!(b[0], Interval { lo: None, hi: None });
    }

    fn arb_rows() -> impl Strategy<Value = (usize, Vec<Row>, Vec<Row>)> {
        (1usize..=3)
            .prop_flat_map(|n| {
                let row = proptest::collection::vec(-4i64..=4, n + 1);
                (
                    Just(n),
                    proptest::collection::vec(row.clone(), 0..=1),
                    proptest::collection::vec(row, 1..=5),
                )
            })
            .prop_map(|(n, e, i)| {
                let conv = |v: Vec<Vec<i64>>| -> Vec<Row> {
                    v.into_iter()
                        .map(|r| r.into_iter().map(Int::from).collect())
                        .collect()
                };
                (n, conv(e), conv(i))
            })
    }

    proptest! {
        /// Every integer point of the set lies in the propagated box, and "empty"
        /// is only ever said of an empty set (checked by enumeration on a box the
        /// added bounds make exact).
        #[test]
        fn sound_against_enumeration((n, eqs, mut ineqs) in arb_rows()) {
            for j in 0..n {
                let mut lo = vec![Int::from(6); n + 1];
                lo.iter_mut().skip(1).for_each(|v| *v = Int::ZERO);
                let mut hi = lo.clone();
                lo[1 + j] = Int::ONE;
                hi[1 + j] = Int::from(-1);
                ineqs.push(lo);
                ineqs.push(hi);
            }
            let pts = points(n, &eqs, &ineqs, 6);
            if let Some(mut p) = Propagator::new(n, &eqs, &ineqs) {
                if p.run() {
                    if let Some(x) = p.dive() {
                        prop_assert!(pts.contains(&x), "the dive's point {x:?} is not in the set");
                    }
                }
            }
            match propagate(n, &eqs, &ineqs) {
                None => prop_assert!(pts.is_empty(), "said empty, has {:?}", pts[0]),
                Some(b) => {
                    for p in pts {
                        for (j, v) in p.iter().enumerate() {
                            prop_assert!(b[j].lo.is_none_or(|l| l <= *v));
                            prop_assert!(b[j].hi.is_none_or(|h| *v <= h));
                        }
                    }
                }
            }
        }
    }
}
