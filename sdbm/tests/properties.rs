//! Differential property tests of `sdbm` against brute-force enumeration.
//!
//! Systems are generated as plain data ([`Spec`]) and decided by an
//! independent enumerator ([`brute_find`], [`for_each_point`]) that shares no
//! code with the crate: a textbook Floyd–Warshall closure of the inequalities
//! (exact for DBMs: a partial assignment that respects the closed bounds among
//! the assigned variables extends to an integral solution, since the
//! constraint matrix is totally unimodular) prunes a depth-first search over
//! the admissible values of each variable. The only reasoning the oracle needs
//! is why its search windows are decisive; see [`brute_find`].

use std::collections::VecDeque;
use std::ops::RangeInclusive;

use presburger_sdbm::{Sdbm, TooLarge};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Plain-data systems

#[derive(Debug, Clone)]
struct Spec {
    n: usize,
    /// `(i, j, c)`: `x_i - x_j <= c`, `i != j`.
    diffs: Vec<(usize, usize, i64)>,
    upper: Vec<Option<i64>>,
    lower: Vec<Option<i64>>,
    /// `(m, r)`, `m >= 1`, `0 <= r < m`.
    cong: Vec<(i64, i64)>,
    /// A contradiction written into the system (incompatible congruences).
    empty: bool,
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn lcm(a: i64, b: i64) -> i64 {
    a / gcd(a, b) * b
}

/// Smallest `v >= c` with `v ≡ r (mod m)`.
fn ceil_to(c: i64, m: i64, r: i64) -> i64 {
    c + (r - c).rem_euclid(m)
}

/// Largest `v <= c` with `v ≡ r (mod m)`.
fn floor_to(c: i64, m: i64, r: i64) -> i64 {
    c - (c - r).rem_euclid(m)
}

impl Spec {
    fn build(&self) -> Sdbm {
        let mut s = Sdbm::new(self.n);
        for &(i, j, c) in &self.diffs {
            s.add_difference(i, j, c);
        }
        for i in 0..self.n {
            if let Some(u) = self.upper[i] {
                s.add_upper(i, u);
            }
            if let Some(l) = self.lower[i] {
                s.add_lower(i, l);
            }
            let (m, r) = self.cong[i];
            s.add_congruence(i, m, r).unwrap();
        }
        if self.empty {
            s.add_difference(0, 0, -1);
        }
        s
    }

    fn lcm(&self) -> i64 {
        self.cong.iter().fold(1, |l, &(m, _)| lcm(l, m))
    }

    /// Largest absolute value of a constant.
    fn max_abs(&self) -> i64 {
        let d = self.diffs.iter().map(|&(_, _, c)| c.abs());
        let b = self
            .upper
            .iter()
            .chain(&self.lower)
            .flatten()
            .map(|c| c.abs());
        d.chain(b).max().unwrap_or(0)
    }

    /// Independent membership check.
    fn holds(&self, p: &[i64]) -> bool {
        !self.empty
            && self.diffs.iter().all(|&(i, j, c)| p[i] - p[j] <= c)
            && (0..self.n).all(|i| {
                self.upper[i].is_none_or(|u| p[i] <= u)
                    && self.lower[i].is_none_or(|l| p[i] >= l)
                    && (p[i] - self.cong[i].1).rem_euclid(self.cong[i].0) == 0
            })
    }

    fn fully_bounded(&self) -> bool {
        (0..self.n).all(|i| self.upper[i].is_some() && self.lower[i].is_some())
    }

    /// The potential graph over the origin (vertex 0) and the variables
    /// (vertex `i + 1`): `d[a * nv + b]` bounds `v_a - v_b`; closed by
    /// Floyd–Warshall. `None` on a negative cycle.
    fn closure(&self) -> Option<Vec<Option<i64>>> {
        if self.empty {
            return None;
        }
        let nv = self.n + 1;
        let mut d = vec![None; nv * nv];
        let set = |d: &mut Vec<Option<i64>>, a: usize, b: usize, c: i64| {
            let e: &mut Option<i64> = &mut d[a * nv + b];
            *e = Some(e.map_or(c, |o| o.min(c)));
        };
        for a in 0..nv {
            set(&mut d, a, a, 0);
        }
        for &(i, j, c) in &self.diffs {
            set(&mut d, i + 1, j + 1, c);
        }
        for i in 0..self.n {
            if let Some(u) = self.upper[i] {
                set(&mut d, i + 1, 0, u);
            }
            if let Some(l) = self.lower[i] {
                set(&mut d, 0, i + 1, -l);
            }
        }
        for k in 0..nv {
            for a in 0..nv {
                for b in 0..nv {
                    if let (Some(x), Some(y)) = (d[a * nv + k], d[k * nv + b]) {
                        set(&mut d, a, b, x + y);
                    }
                }
            }
        }
        if (0..nv).any(|a| d[a * nv + a].unwrap() < 0) {
            return None;
        }
        Some(d)
    }

    /// Connected components of the constraint graph (vertex 0 = origin), each
    /// in breadth-first order from its anchor (the origin, or its smallest
    /// variable), so that every vertex after the first has a constrained
    /// neighbour before it.
    fn components(&self) -> Vec<Vec<usize>> {
        let nv = self.n + 1;
        let mut adj = vec![vec![]; nv];
        let mut edge = |a: usize, b: usize| {
            adj[a].push(b);
            adj[b].push(a);
        };
        for &(i, j, _) in &self.diffs {
            edge(i + 1, j + 1);
        }
        for i in 0..self.n {
            if self.upper[i].is_some() || self.lower[i].is_some() {
                edge(i + 1, 0);
            }
        }
        let mut seen = vec![false; nv];
        let mut comps = vec![];
        for s in 0..nv {
            if seen[s] {
                continue;
            }
            seen[s] = true;
            let mut order = vec![s];
            let mut q = VecDeque::from([s]);
            while let Some(a) = q.pop_front() {
                for &b in &adj[a] {
                    if !seen[b] {
                        seen[b] = true;
                        order.push(b);
                        q.push_back(b);
                    }
                }
            }
            comps.push(order);
        }
        comps
    }

    fn class(&self, v: usize) -> (i64, i64) {
        if v == 0 { (1, 0) } else { self.cong[v - 1] }
    }
}

/// Depth-first search over the vertices `order` (vertex values in `val`):
/// `order[0]` takes the values `anchor`, every other vertex the admissible
/// values allowed by the closed bounds towards the vertices already assigned,
/// clipped to `radius` around the anchor's value. `visit` returns `false` to
/// stop; the function returns `false` if stopped.
fn search(
    spec: &Spec,
    d: &[Option<i64>],
    order: &[usize],
    anchor: &[i64],
    radius: Option<i64>,
    val: &mut Vec<i64>,
    visit: &mut dyn FnMut(&[i64]) -> bool,
) -> bool {
    fn rec(
        spec: &Spec,
        d: &[Option<i64>],
        order: &[usize],
        k: usize,
        radius: Option<i64>,
        val: &mut Vec<i64>,
        visit: &mut dyn FnMut(&[i64]) -> bool,
    ) -> bool {
        if k == order.len() {
            return visit(val);
        }
        let nv = spec.n + 1;
        let v = order[k];
        let mut lo = radius.map(|r| val[order[0]] - r);
        let mut hi = radius.map(|r| val[order[0]] + r);
        for &a in &order[..k] {
            if let Some(c) = d[a * nv + v] {
                let t = val[a] - c;
                lo = Some(lo.map_or(t, |x: i64| x.max(t)));
            }
            if let Some(c) = d[v * nv + a] {
                let t = val[a] + c;
                hi = Some(hi.map_or(t, |x: i64| x.min(t)));
            }
        }
        let (lo, hi) = (lo.expect("unbounded search"), hi.expect("unbounded search"));
        let (m, r) = spec.class(v);
        let mut x = ceil_to(lo, m, r);
        while x <= hi {
            val[v] = x;
            if !rec(spec, d, order, k + 1, radius, val, visit) {
                return false;
            }
            x += m;
        }
        true
    }
    for &a in anchor {
        val[order[0]] = a;
        if !rec(spec, d, order, 1, radius, val, visit) {
            return false;
        }
    }
    true
}

/// Decide a system by enumeration, with or without variable bounds.
///
/// Why the search windows are decisive. Add the origin as vertex 0 (value 0);
/// a bound is a difference with it. Connected components of the constraint
/// graph are independent. Let `C` be the largest |constant| and `L` the lcm of
/// the divisors. Take any solution of a component and sort its values. If two
/// consecutive values are more than `C` apart, no constraint `x_h - x_l <= c`
/// leads from the group `H` above the gap to the group below (it would need
/// `c >= gap > C`). Move the group that does not hold the anchor (the origin,
/// or the component's first variable) towards the other by `t·L` with
/// `t = ⌊(gap - C)/L⌋`: congruences hold (multiples of `L`), constraints inside
/// a group are unchanged, and a constraint from below to above,
/// `x_l - x_h <= c`, still holds since `x_l - x_h <= -(new gap) <= -C <= c`.
/// The gap becomes `< C + L`. Repeating, every gap is `< C + L`, so every value
/// is within `(k-1)(C+L)` of the anchor's (`k` vertices). Finally, in a
/// component without the origin, shifting every variable by a multiple of `L`
/// keeps solutions (the shifting lemma, obvious here: differences and classes
/// modulo every divisor are unchanged), so the anchor can be taken in `[0, L)`.
fn brute_find(spec: &Spec) -> Option<Vec<i64>> {
    let d = spec.closure()?;
    let (l, c) = (spec.lcm(), spec.max_abs());
    let mut point = vec![0i64; spec.n + 1];
    for comp in spec.components() {
        let radius = (comp.len() as i64 - 1) * (c + l);
        let anchor: Vec<i64> = if comp[0] == 0 {
            vec![0]
        } else {
            let (m, r) = spec.class(comp[0]);
            (0..l).filter(|x| (x - r).rem_euclid(m) == 0).collect()
        };
        let mut val = vec![0i64; spec.n + 1];
        let mut found = None;
        search(spec, &d, &comp, &anchor, Some(radius), &mut val, &mut |v| {
            found = Some(v.to_vec());
            false
        });
        let v = found?;
        for &a in &comp {
            point[a] = v[a];
        }
    }
    let p = point[1..].to_vec();
    assert!(spec.holds(&p));
    Some(p)
}

/// Every solution of a system with both bounds on every variable.
fn for_each_point(spec: &Spec, mut f: impl FnMut(&[i64])) {
    assert!(spec.fully_bounded());
    let Some(d) = spec.closure() else { return };
    let order: Vec<usize> = (0..=spec.n).collect();
    let mut val = vec![0i64; spec.n + 1];
    search(spec, &d, &order, &[0], None, &mut val, &mut |v| {
        debug_assert!(spec.holds(&v[1..]));
        f(&v[1..]);
        true
    });
}

fn all_points(spec: &Spec) -> Vec<Vec<i64>> {
    let mut pts = vec![];
    for_each_point(spec, |p| pts.push(p.to_vec()));
    pts
}

/// The expected normal form of a finite point set: the tightest bounds and,
/// per variable, the gcd of the differences of its values (`(1, 0)` for a
/// single value). `None` for the empty set.
fn expected_normal_form(n: usize, pts: &[Vec<i64>]) -> Option<Sdbm> {
    let first = pts.first()?;
    let mut s = Sdbm::new(n);
    for i in 0..n {
        let vals = pts.iter().map(|p| p[i]);
        s.add_upper(i, vals.clone().max().unwrap());
        s.add_lower(i, vals.clone().min().unwrap());
        let g = vals.fold(0, |g, v| gcd(g, v - first[i]));
        if g > 0 {
            s.add_congruence(i, g, first[i]).unwrap();
        }
        for j in 0..n {
            if i != j {
                s.add_difference(i, j, pts.iter().map(|p| p[i] - p[j]).max().unwrap());
            }
        }
    }
    Some(s)
}

/// The plain data of an `Sdbm` (through its public accessors).
fn spec_of(s: &Sdbm) -> Spec {
    let n = s.n_vars();
    let mut diffs = vec![];
    for i in 0..n {
        for j in 0..n {
            if let Some(c) = s.difference(i, j) {
                diffs.push((i, j, c));
            }
        }
    }
    Spec {
        n,
        diffs,
        upper: (0..n).map(|i| s.upper(i)).collect(),
        lower: (0..n).map(|i| s.lower(i)).collect(),
        cong: (0..n).map(|i| s.congruence(i)).collect(),
        empty: s.is_trivially_empty(),
    }
}

// ---------------------------------------------------------------------------
// Generators

const DIVISORS: [i64; 8] = [1, 2, 3, 4, 5, 6, 8, 16];
/// Maximal divisibility chains inside `DIVISORS`.
const CHAINS: [&[i64]; 4] = [&[1, 2, 4, 8, 16], &[1, 2, 6], &[1, 3, 6], &[1, 5]];

/// Divisors whose pairwise gcds (2, 3, 5) are not a chain: where path closure
/// and GCD tightening stop deciding (the paper's example 1).
const PAIRWISE: [i64; 6] = [6, 10, 15, 6, 10, 15];

#[derive(Debug, Clone, Copy)]
enum Divs {
    /// Any of `DIVISORS`.
    Mixed,
    /// A chain from `CHAINS`.
    Harmonic,
    /// From `PAIRWISE`.
    Pairwise,
}

#[derive(Debug, Clone, Copy)]
enum Bounds {
    /// Both bounds on every variable (so the box they span decides).
    All,
    /// Variable-bound-free.
    None,
    /// Each bound present with probability 1/2.
    Some,
}

/// Random systems. Half of them are *anchored*: their constants are those of
/// a hidden point plus a small slack (below `c/2 + 2`; 8 for `Divs::Pairwise`), so that the inequalities are
/// feasible and emptiness, when it happens, comes from the congruences; the
/// others use independent random constants.
fn spec_strategy(
    n: RangeInclusive<usize>,
    divs: Divs,
    bounds: Bounds,
    c: i64,
) -> impl Strategy<Value = Spec> {
    n.prop_flat_map(move |n| {
        let divisors: BoxedStrategy<&'static [i64]> = match divs {
            Divs::Mixed => Just(&DIVISORS[..]).boxed(),
            Divs::Harmonic => prop::sample::select(&CHAINS[..]).boxed(),
            Divs::Pairwise => Just(&PAIRWISE[..]).boxed(),
        };
        let density = prop::sample::select(vec![0.15, 0.35, 0.6, 0.9]);
        (
            (
                Just(n),
                divisors,
                any::<bool>(),
                prop::collection::vec(-c..=c, n),
            ),
            prop::collection::vec((0usize..64, 0i64..64, any::<bool>()), n),
            density.prop_flat_map(move |p| {
                prop::collection::vec(prop::option::weighted(p, -c..=c), n * n)
            }),
            prop::collection::vec((any::<bool>(), any::<bool>(), -c..=c, 0..=c), n),
        )
    })
    .prop_map(
        move |((n, divisors, anchored, hidden), cong, diffs, bnds)| {
            let slack = if matches!(divs, Divs::Pairwise) {
                8
            } else {
                c / 2 + 2
            };
            let cong = cong
                .into_iter()
                .map(|(k, r, plain)| {
                    // A third of the variables without congruence.
                    let m = if plain && k % 3 == 0 && !matches!(divs, Divs::Pairwise) {
                        1
                    } else {
                        divisors[k % divisors.len()]
                    };
                    (m, r % m)
                })
                .collect();
            let diffs = diffs
                .into_iter()
                .enumerate()
                .filter_map(|(k, c)| {
                    let (i, j) = (k / n, k % n);
                    let c = if anchored {
                        c.map(|c| hidden[i] - hidden[j] + c.abs() % slack)
                    } else {
                        c
                    };
                    c.filter(|_| i != j).map(|c| (i, j, c))
                })
                .collect();
            let (mut upper, mut lower) = (vec![None; n], vec![None; n]);
            for (i, (hu, hl, l, w)) in bnds.into_iter().enumerate() {
                let (l, u) = if anchored {
                    (hidden[i] - l.abs() % slack, hidden[i] + w % slack)
                } else {
                    (l, l + w)
                };
                match bounds {
                    Bounds::All => {
                        lower[i] = Some(l);
                        upper[i] = Some(u);
                    }
                    Bounds::None => {}
                    Bounds::Some => {
                        lower[i] = hl.then_some(l);
                        upper[i] = hu.then_some(u);
                    }
                }
            }
            Spec {
                n,
                diffs,
                upper,
                lower,
                cong,
                empty: false,
            }
        },
    )
}

/// A different writing of the same set: every bound is moved up by less than
/// the step of its class (`x_i <= u` with `x_i ≡ r (mod m)` is the same as
/// `x_i <= floor_to(u) + k` for `k < m`; a difference bound likewise modulo
/// `gcd(m_i, m_j)`), and the constraints are listed in another order.
fn rewrite(spec: &Spec, seed: u64) -> Spec {
    let mut st = seed | 1;
    let mut rnd = move |k: i64| {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        (st % k as u64) as i64
    };
    let mut out = spec.clone();
    for (i, j, c) in out.diffs.iter_mut() {
        let (mi, ri) = spec.cong[*i];
        let (mj, rj) = spec.cong[*j];
        let g = gcd(mi, mj);
        *c = floor_to(*c, g, ri - rj) + rnd(g);
    }
    out.diffs.reverse();
    for i in 0..spec.n {
        let (m, r) = spec.cong[i];
        out.upper[i] = spec.upper[i].map(|u| floor_to(u, m, r) + rnd(m));
        out.lower[i] = spec.lower[i].map(|l| ceil_to(l, m, r) - rnd(m));
    }
    out
}

/// `s` plus valid constraints: the bounds of its normal form `nf`, loosened.
fn add_implied(s: &Sdbm, nf: &Sdbm, seed: u64) -> Sdbm {
    let mut st = seed | 1;
    let mut rnd = move |k: i64| {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        (st % k as u64) as i64
    };
    let mut out = s.clone();
    let n = s.n_vars();
    for i in 0..n {
        for j in 0..n {
            if let Some(c) = nf.difference(i, j).filter(|_| rnd(2) == 0) {
                out.add_difference(i, j, c + rnd(3));
            }
        }
        if let Some(u) = nf.upper(i).filter(|_| rnd(2) == 0) {
            out.add_upper(i, u + rnd(3));
        }
        if let Some(l) = nf.lower(i).filter(|_| rnd(2) == 0) {
            out.add_lower(i, l - rnd(3));
        }
        if rnd(2) == 0 {
            let (m, r) = nf.congruence(i);
            // Any divisor of a valid divisor is valid.
            let d = (1..=m)
                .filter(|d| m % d == 0)
                .nth(rnd(m) as usize % 2)
                .unwrap_or(1);
            out.add_congruence(i, d, r).unwrap();
        }
    }
    out
}

/// `(i, j, lo, hi)`: `lo <= x_i - x_j <= hi`.
type Interval = (usize, usize, i64, i64);

/// Systems shaped like the paper's example 1, where path closure and GCD
/// tightening cannot decide: three variables with divisors 6, 10, 15 (pairwise
/// gcds 2, 5, 3) and intervals for `a = x_p - x_q`, `b = x_q - x_r` and
/// `a + b = x_p - x_r`. Either the closed, tight, empty instance of the unit
/// tests (`a ∈ [0, 4]`, `b ∈ [0, 5]`, `a + b ∈ [3, 6]`) moved by a random
/// translation, reflection and permutation of the variables, with one constant
/// possibly nudged by ±1; or a random hexagon whose intervals are chosen in
/// their gcd classes and path-closed. Sometimes with a fourth variable tied to
/// the first, sometimes with bounds on every variable.
fn hexagon_strategy() -> impl Strategy<Value = Spec> {
    (
        any::<bool>(),
        prop::sample::select(vec![
            [0usize, 1, 2],
            [1, 2, 0],
            [2, 0, 1],
            [0, 2, 1],
            [2, 1, 0],
            [1, 0, 2],
        ]),
        (
            prop::collection::vec(-8i64..=8, 3),
            any::<bool>(),
            prop::option::weighted(0.3, (0usize..6, any::<bool>())),
        ),
        (
            prop::collection::vec(0i64..30, 3),
            prop::collection::vec(0i64..=3, 4),
        ),
        prop::option::of((
            prop::sample::select(vec![1i64, 2, 3, 4]),
            -4i64..=4,
            0i64..=3,
        )),
        prop::option::of((-30i64..=-5, 5i64..=30)),
    )
        .prop_map(
            |(known, perm, (shift, reflect, nudge), (rs, ks), extra, bounds)| {
                let divs = [6i64, 10, 15];
                // (i, j, lo, hi): lo <= x_i - x_j <= hi, before the permutation.
                let (cong, mut iv): (Vec<(i64, i64)>, Vec<Interval>) = if known {
                    let iv = vec![(0, 1, 0, 4), (1, 2, 0, 5), (0, 2, 3, 6)];
                    let mut cong = vec![];
                    let mut iv2 = vec![];
                    for k in 0..3 {
                        let r = if reflect { -shift[k] } else { shift[k] };
                        cong.push((divs[k], r.rem_euclid(divs[k])));
                    }
                    for (i, j, lo, hi) in iv {
                        let (lo, hi) = if reflect { (-hi, -lo) } else { (lo, hi) };
                        iv2.push((i, j, lo + cong[i].1 - cong[j].1, hi + cong[i].1 - cong[j].1));
                    }
                    (cong, iv2)
                } else {
                    let cong: Vec<(i64, i64)> =
                        (0..3).map(|k| (divs[k], rs[k] % divs[k])).collect();
                    let r: Vec<i64> = cong.iter().map(|c| c.1).collect();
                    let a1 = ceil_to(shift[0], 2, r[0] - r[1]);
                    let b1 = ceil_to(shift[1], 5, r[1] - r[2]);
                    let (a2, b2) = (a1 + 2 * ks[0], b1 + 5 * (ks[1] % 3));
                    let t = r[0] - r[2];
                    let c1 = floor_to((a2 + b1).min(a1 + b2), 3, t).max(ceil_to(a1 + b1, 3, t));
                    let c2 = ceil_to((a2 + b1).max(a1 + b2), 3, t).min(floor_to(a2 + b2, 3, t));
                    let c1 = (c1 + 3 * (ks[2] % 2)).min(c2);
                    (cong, vec![(0, 1, a1, a2), (1, 2, b1, b2), (0, 2, c1, c2)])
                };
                if let Some((k, up)) = nudge {
                    let e = &mut iv[k % 3];
                    if k < 3 {
                        e.3 += if up { 1 } else { -1 };
                    } else {
                        e.2 += if up { 1 } else { -1 };
                    }
                }
                let n = if extra.is_some() { 4 } else { 3 };
                let mut pc = vec![(1, 0); n];
                for k in 0..3 {
                    pc[perm[k]] = cong[k];
                }
                let mut diffs = vec![];
                for (i, j, lo, hi) in iv {
                    diffs.push((perm[i], perm[j], hi));
                    diffs.push((perm[j], perm[i], -lo));
                }
                if let Some((m, lo, w)) = extra {
                    pc[3] = (m, ks[3] % m);
                    diffs.push((3, 0, lo + w));
                    diffs.push((0, 3, -lo));
                }
                let (lower, upper) = match bounds {
                    Some((l, u)) => (vec![Some(l); n], vec![Some(u); n]),
                    None => (vec![None; n], vec![None; n]),
                };
                Spec {
                    n,
                    diffs,
                    upper,
                    lower,
                    cong: pc,
                    empty: false,
                }
            },
        )
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// `solve`, `solve_harmonic` and `solve_general` against the oracle.
fn check_solvers(spec: &Spec) -> Result<(), TestCaseError> {
    let s = spec.build();
    let expected = brute_find(spec).is_some();
    let check =
        |name: &str, got: Result<Option<Vec<i64>>, TooLarge>| -> Result<(), TestCaseError> {
            let got = got
                .map_err(|_| TestCaseError::fail(format!("{name}: TooLarge on small constants")))?;
            prop_assert_eq!(
                got.is_some(),
                expected,
                "{} disagrees with enumeration",
                name
            );
            if let Some(x) = got {
                prop_assert!(s.contains(&x), "{}: witness {:?} not contained", name, x);
                prop_assert!(
                    spec.holds(&x),
                    "{}: witness {:?} violates the spec",
                    name,
                    x
                );
            }
            Ok(())
        };
    check("solve", s.solve())?;
    check("solve_general", s.solve_general())?;
    check("solve_harmonic", s.solve_harmonic())?;
    prop_assert_eq!(s.is_empty(), Ok(!expected));
    Ok(())
}

// ---------------------------------------------------------------------------
// Satisfiability

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn solve_bounded_matches_enumeration(spec in spec_strategy(2..=6, Divs::Mixed, Bounds::All, 8)) {
        check_solvers(&spec)?;
    }

    #[test]
    fn solve_bounded_harmonic_matches_enumeration(spec in spec_strategy(2..=6, Divs::Harmonic, Bounds::All, 8)) {
        prop_assert!(spec.build().is_harmonic());
        check_solvers(&spec)?;
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn solve_vbf_matches_enumeration(spec in spec_strategy(2..=4, Divs::Mixed, Bounds::None, 8)) {
        check_solvers(&spec)?;
    }

    #[test]
    fn solve_vbf_harmonic_matches_enumeration(spec in spec_strategy(2..=5, Divs::Harmonic, Bounds::None, 8)) {
        check_solvers(&spec)?;
    }

    #[test]
    fn solve_partly_bounded_matches_enumeration(spec in spec_strategy(2..=4, Divs::Mixed, Bounds::Some, 8)) {
        check_solvers(&spec)?;
    }

    #[test]
    fn solve_partly_bounded_harmonic_matches_enumeration(spec in spec_strategy(2..=5, Divs::Harmonic, Bounds::Some, 8)) {
        check_solvers(&spec)?;
    }

    /// Divisors 6, 10, 15: closed, GCD-tight and still empty happens here,
    /// and only the general algorithm's descent decides.
    #[test]
    fn solve_pairwise_divisors_matches_enumeration(
        spec in prop_oneof![
            spec_strategy(3..=5, Divs::Pairwise, Bounds::All, 8),
            spec_strategy(3..=4, Divs::Pairwise, Bounds::None, 8),
            spec_strategy(3..=4, Divs::Pairwise, Bounds::Some, 8),
            hexagon_strategy(),
            hexagon_strategy(),
        ],
    ) {
        check_solvers(&spec)?;
    }

    /// Bigger harmonic systems, no oracle: the two algorithms agree.
    #[test]
    fn harmonic_and_general_agree(spec in spec_strategy(5..=9, Divs::Harmonic, Bounds::Some, 30)) {
        let s = spec.build();
        let h = s.solve_harmonic().unwrap();
        let g = s.solve_general().unwrap();
        prop_assert_eq!(h.is_some(), g.is_some());
        for x in h.iter().chain(&g) {
            prop_assert!(spec.holds(x));
        }
    }
}

// ---------------------------------------------------------------------------
// Normal forms

proptest! {
    #![proptest_config(config(1500))]

    /// On bounded systems the normal form is a function of the enumerated point
    /// set: tightest bounds, gcd congruences.
    #[test]
    fn normal_form_matches_enumeration(
        spec in spec_strategy(1..=4, Divs::Mixed, Bounds::All, 6),
    ) {
        let s = spec.build();
        let pts = all_points(&spec);
        let nf = s.normalize().unwrap();
        prop_assert_eq!(&nf, &expected_normal_form(spec.n, &pts));
    }

    #[test]
    fn normal_form_matches_enumeration_harmonic(
        spec in spec_strategy(1..=4, Divs::Harmonic, Bounds::All, 6),
    ) {
        let s = spec.build();
        let pts = all_points(&spec);
        prop_assert_eq!(&s.normalize().unwrap(), &expected_normal_form(spec.n, &pts));
    }

    /// Different writings of the same set have equal normal forms; the normal
    /// form is idempotent and has the same solution set.
    #[test]
    fn normal_forms_of_equal_sets_are_equal(
        spec in prop_oneof![
            spec_strategy(1..=4, Divs::Mixed, Bounds::Some, 6),
            spec_strategy(1..=4, Divs::Harmonic, Bounds::Some, 6),
            spec_strategy(1..=4, Divs::Mixed, Bounds::None, 6),
            spec_strategy(1..=4, Divs::Harmonic, Bounds::None, 6),
        ],
        seed in any::<u64>(),
    ) {
        let s = spec.build();
        let nf = s.normalize().unwrap();
        let other = rewrite(&spec, seed).build();
        prop_assert_eq!(&other.normalize().unwrap(), &nf);
        prop_assert!(s.is_equal(&other).unwrap());
        match &nf {
            None => prop_assert!(brute_find(&spec).is_none()),
            Some(nf) => {
                let again = nf.normalize().unwrap();
                prop_assert_eq!(again.as_ref(), Some(nf));
                let more = add_implied(&s, nf, seed);
                let more_nf = more.normalize().unwrap();
                prop_assert_eq!(more_nf.as_ref(), Some(nf));
                // Same points as the input around a witness.
                let w = s.solve().unwrap().unwrap();
                let l = spec.lcm();
                let span = 2 * l + 4;
                let mut st = seed | 1;
                for _ in 0..200 {
                    let p: Vec<i64> = w.iter().map(|&x| {
                        st ^= st << 13; st ^= st >> 7; st ^= st << 17;
                        x + (st % (2 * span as u64 + 1)) as i64 - span
                    }).collect();
                    prop_assert_eq!(s.contains(&p), nf.contains(&p));
                }
            }
        }
    }

    /// Variable-bound-free systems: every bound of the normal form is attained
    /// and no tighter bound is valid; every congruence is the sparsest one,
    /// checked through the residues modulo `L` that each variable takes (by the
    /// shifting lemma the values of `x_i` are a union of classes modulo `L`,
    /// so the sparsest divisor is the gcd of `L` and the differences of the
    /// residues present).
    #[test]
    fn vbf_normal_form_is_tight_and_sparsest(
        spec in prop_oneof![
            spec_strategy(1..=4, Divs::Mixed, Bounds::None, 6),
            spec_strategy(1..=4, Divs::Harmonic, Bounds::None, 6),
        ],
    ) {
        let s = spec.build();
        let Some(nf) = s.normalize().unwrap() else {
            prop_assert!(brute_find(&spec).is_none());
            return Ok(());
        };
        let n = spec.n;
        for i in 0..n {
            prop_assert_eq!((nf.upper(i), nf.lower(i)), (None, None));
            for j in 0..n {
                if i == j {
                    continue;
                }
                match nf.difference(i, j) {
                    Some(c) => {
                        let mut t = s.clone();
                        t.add_difference(j, i, -c); // x_i - x_j >= c
                        prop_assert!(t.solve().unwrap().is_some(), "bound not attained");
                        let mut t = s.clone();
                        t.add_difference(j, i, -c - 1);
                        prop_assert!(t.solve().unwrap().is_none(), "bound not valid");
                    }
                    None => {
                        let mut t = s.clone();
                        t.add_difference(j, i, -1000); // x_i - x_j >= 1000
                        prop_assert!(t.solve().unwrap().is_some(), "missing bound, but bounded");
                    }
                }
            }
            let l = spec.lcm();
            let present: Vec<i64> = (0..l)
                .filter(|&rho| {
                    let mut t = s.clone();
                    t.add_congruence(i, l, rho).unwrap();
                    t.solve().unwrap().is_some()
                })
                .collect();
            let g = present.iter().fold(l, |g, &rho| gcd(g, rho - present[0]));
            prop_assert_eq!(nf.congruence(i), (g, present[0] % g));
        }
    }
}

// ---------------------------------------------------------------------------
// Abstract-domain operations

fn small_bounded() -> impl Strategy<Value = Spec> {
    prop_oneof![
        spec_strategy(1..=3, Divs::Mixed, Bounds::All, 5),
        spec_strategy(1..=3, Divs::Harmonic, Bounds::All, 5),
    ]
}

proptest! {
    #![proptest_config(config(1500))]

    /// The join contains both inputs, is the tightest SDBM over their union
    /// (each bound attained by a point of A ∪ B, each congruence the gcd of the
    /// differences of the values), is in normal form, and is included in every
    /// SDBM that contains both inputs.
    #[test]
    fn join_is_least_upper_bound(a in small_bounded(), b in small_bounded(), seed in any::<u64>()) {
        let n = a.n.min(b.n);
        let (a, b) = (truncate(&a, n), truncate(&b, n));
        let (sa, sb) = (a.build(), b.build());
        let j = sa.join(&sb).unwrap();
        let (pa, pb) = (all_points(&a), all_points(&b));
        for p in pa.iter().chain(&pb) {
            prop_assert!(j.contains(p));
        }
        let union: Vec<Vec<i64>> = pa.iter().chain(&pb).cloned().collect();
        match expected_normal_form(n, &union) {
            None => prop_assert_eq!(&j, &Sdbm::empty(n)),
            Some(e) => {
                prop_assert_eq!(&j, &e);
                let jn = j.normalize().unwrap();
                prop_assert_eq!(jn.as_ref(), Some(&j));
                // A random SDBM near the join: if it contains both inputs, it
                // contains the join.
                let c = perturb(&j, seed);
                let c_spec = spec_of(&c);
                let contains_both = union.iter().all(|p| c.contains(p));
                prop_assert_eq!(sa.is_subset(&c).unwrap() && sb.is_subset(&c).unwrap(), contains_both);
                if contains_both {
                    prop_assert!(j.is_subset(&c).unwrap());
                    for p in all_points(&spec_of(&j)) {
                        prop_assert!(c_spec.holds(&p));
                    }
                }
            }
        }
    }

    /// Intersection, inclusion and equality agree with enumeration.
    #[test]
    fn intersect_subset_equal_match_enumeration(
        a in small_bounded(),
        b in small_bounded(),
        how in 0..3u8,
        seed in any::<u64>(),
    ) {
        let n = a.n.min(b.n);
        let a = truncate(&a, n);
        let b = match how {
            0 => truncate(&b, n),
            // The same set written differently.
            1 => rewrite(&a, seed),
            // A subset: A with B's constraints added.
            _ => spec_of(&a.build().intersect(&truncate(&b, n).build()).unwrap()),
        };
        let (sa, sb) = (a.build(), b.build());
        let (pa, pb) = (all_points(&a), all_points(&b));
        let i = sa.intersect(&sb).unwrap();
        let pi = all_points(&spec_of(&i));
        let expected: Vec<Vec<i64>> = pa.iter().filter(|p| sb.contains(p)).cloned().collect();
        prop_assert_eq!(&pi, &expected);
        prop_assert_eq!(i.is_empty().unwrap(), expected.is_empty());
        let a_in_b = pa.iter().all(|p| sb.contains(p));
        let b_in_a = pb.iter().all(|p| sa.contains(p));
        prop_assert_eq!(sa.is_subset(&sb).unwrap(), a_in_b);
        prop_assert_eq!(sb.is_subset(&sa).unwrap(), b_in_a);
        prop_assert_eq!(sa.is_equal(&sb).unwrap(), a_in_b && b_in_a);
    }
}

/// The first `n` variables of a spec.
fn truncate(spec: &Spec, n: usize) -> Spec {
    Spec {
        n,
        diffs: spec
            .diffs
            .iter()
            .copied()
            .filter(|&(i, j, _)| i < n && j < n)
            .collect(),
        upper: spec.upper[..n].to_vec(),
        lower: spec.lower[..n].to_vec(),
        cong: spec.cong[..n].to_vec(),
        empty: spec.empty,
    }
}

/// A system near `s`: every constraint kept, loosened, dropped, or tightened
/// by one step, at random.
fn perturb(s: &Sdbm, seed: u64) -> Sdbm {
    let mut st = seed | 1;
    let mut rnd = move |k: u64| {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        st % k
    };
    let mut shift = move |c: i64| -> Option<i64> {
        match rnd(6) {
            0 => None,
            1 => Some(c - 1),
            2 => Some(c + 1),
            _ => Some(c),
        }
    };
    let spec = spec_of(s);
    let mut out = Sdbm::new(spec.n);
    for &(i, j, c) in &spec.diffs {
        if let Some(c) = shift(c) {
            out.add_difference(i, j, c);
        }
    }
    for i in 0..spec.n {
        if let Some(u) = spec.upper[i].and_then(&mut shift) {
            out.add_upper(i, u);
        }
        if let Some(l) = spec.lower[i].and_then(&mut shift) {
            out.add_lower(i, l);
        }
        let (m, r) = spec.cong[i];
        match shift(0) {
            None => {}
            Some(0) => out.add_congruence(i, m, r).unwrap(),
            Some(_) => out.add_congruence(i, 2 * m, r).unwrap(),
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Extreme constants

fn extreme_constant() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MIN + 1),
        Just(i64::MIN / 2),
        Just(i64::MAX),
        Just(i64::MAX - 1),
        Just(i64::MAX / 2),
        -8i64..=8,
    ]
}

fn extreme_divisor() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(1i64),
        Just(2),
        Just(3),
        Just(1 << 62),
        Just(i64::MAX),
        Just((1 << 31) - 1),
        Just(1_000_003),
    ]
}

proptest! {
    #![proptest_config(config(1000))]

    /// Huge constants and divisors: never a panic; every answer is either
    /// `TooLarge` or right (witnesses are checked, the two algorithms agree
    /// whenever both answer).
    #[test]
    fn extreme_constants_never_panic_nor_lie(
        n in 1usize..=3,
        diffs in prop::collection::vec((0usize..3, 0usize..3, extreme_constant()), 0..5),
        bounds in prop::collection::vec((0usize..3, any::<bool>(), extreme_constant()), 0..4),
        cong in prop::collection::vec((0usize..3, extreme_divisor(), extreme_constant()), 0..3),
    ) {
        let mut s = Sdbm::new(n);
        for &(i, j, c) in &diffs {
            s.add_difference(i % n, j % n, c);
        }
        for &(i, up, c) in &bounds {
            if up { s.add_upper(i % n, c) } else { s.add_lower(i % n, c) }
        }
        for &(i, m, r) in &cong {
            let _ = s.add_congruence(i % n, m, r);
        }
        let answers = [s.solve(), s.solve_general(), s.solve_harmonic()];
        for x in answers.iter().flatten().flatten() {
            prop_assert!(s.contains(x));
        }
        let decided: Vec<bool> = answers.iter().flatten().map(Option::is_some).collect();
        prop_assert!(decided.windows(2).all(|w| w[0] == w[1]));
        if let Ok(Some(nf)) = s.normalize() {
            prop_assert!(decided.iter().all(|&d| d));
            if let Some(x) = answers.iter().flatten().flatten().next() {
                prop_assert!(nf.contains(x));
            }
            if let Ok(eq) = s.is_equal(&nf) {
                prop_assert!(eq);
            }
        }
        let mut t = s.clone();
        t.add_difference(0, n - 1, 0);
        if let (Ok(j), Ok(Some(_))) = (s.join(&t), t.solve()) {
            if let Some(x) = t.solve().unwrap() {
                prop_assert!(j.contains(&x));
            }
        }
        let _ = s.is_subset(&t);
        let _ = s.intersect(&t);
    }
}

/// Found by `extreme_constants_never_panic_nor_lie`: the inclusion test solves a
/// system whose witness lies near the ends of `i128`, and the debug check of the
/// witness overflowed while subtracting two of its values.
#[test]
fn witness_check_near_the_ends_of_i128() {
    let mut s = Sdbm::new(3);
    s.add_lower(0, i64::MAX);
    s.add_lower(0, i64::MIN);
    s.add_upper(1, i64::MIN);
    let _ = s.add_congruence(2, 1 << 62, i64::MIN);
    let _ = s.add_congruence(1, i64::MAX, i64::MIN);
    let mut t = s.clone();
    t.add_difference(0, 2, 0);
    let _ = s.is_subset(&t);
    let _ = s.intersect(&t);
}
