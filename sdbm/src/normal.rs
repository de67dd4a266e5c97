//! Normal forms and the join.
//!
//! Source: "Strided Difference Bound Matrices", Section 4 (inequality and
//! congruence normalization, Lemmas 10–12) and Section 5 (operations). See [`Sdbm::normalize`] and [`Sdbm::join`] for the algorithms;
//! the comments below give the arguments the code relies on.

use crate::arith::{add, gcd, modulo, neg, sub, to_i64};
use crate::general::{self, Exclusion};
use crate::work::{Closure, Work, round_limit};
use crate::{Sdbm, TooLarge, solve_work};

/// The maximum of `v_a - v_b` over the solution set of `base`, given a value
/// `lo` attained by some solution and a valid upper bound `hi >= lo`.
///
/// One satisfiability check per step: "is there a solution with
/// `v_a - v_b >= t`", i.e. `base` plus the difference constraint
/// `v_b - v_a <= -t` (still an SDBM with the same divisors, so still harmonic
/// if `base` is). `hi` is probed first since it is often exact (Lemma 10);
/// then a binary search, where every solution found raises the lower end to
/// its own value. Every witness found is pushed to `wits`.
fn maximize(
    base: &Work,
    harmonic: bool,
    (a, b): (usize, usize),
    lo: i128,
    hi: i128,
    wits: &mut Vec<Vec<i128>>,
) -> Result<i128, TooLarge> {
    debug_assert!(lo <= hi);
    if lo >= hi {
        return Ok(lo);
    }
    let probe = |t: i128, wits: &mut Vec<Vec<i128>>| -> Result<Option<i128>, TooLarge> {
        let mut w = base.clone();
        w.add_edge(b, a, neg(t)?);
        match solve_work(&w, harmonic, None)? {
            None => Ok(None),
            Some(v) => {
                let val = sub(v[a], v[b])?;
                debug_assert!(val >= t);
                wits.push(v);
                Ok(Some(val))
            }
        }
    };
    if probe(hi, wits)?.is_some() {
        return Ok(hi);
    }
    // Invariant: some solution has v_a - v_b = good; none has it >= bad.
    let (mut good, mut bad) = (lo, hi);
    while sub(bad, good)? > 1 {
        let mid = add(good, sub(bad, good)? / 2)?;
        match probe(mid, wits)? {
            Some(val) => good = val,
            None => bad = mid,
        }
    }
    Ok(good)
}

/// See [`Sdbm::normalize`].
pub(crate) fn normalize(s: &Sdbm) -> Result<Option<Sdbm>, TooLarge> {
    if s.empty {
        return Ok(None);
    }
    let harmonic = s.is_harmonic();
    let big_l = s.lcm_moduli()?;
    let mut cur = s.work()?;
    let Some(first) = solve_work(&cur, harmonic, None)? else {
        return Ok(None);
    };
    let mut wits = vec![first];

    // Upper estimates: path closure + GCD tightening (sound for any SDBM). After
    // the closure a missing bound means "no path", hence unbounded: if no path
    // leads from x_a to x_b, let R be the vertices reachable from x_a; then
    // w + k·L·1_R (shifted back by k·L if R holds vertex 0) is a solution for
    // every k >= 0 and every solution w, and v_a - v_b grows without bound.
    // A contradiction here while a witness exists would be a bug: we report
    // TooLarge (a fallback) rather than risk a wrong answer.
    match cur.close_tight(round_limit(cur.n))? {
        Closure::Empty => {
            debug_assert!(false, "sdbm: closure says empty but a witness exists");
            return Err(TooLarge);
        }
        Closure::Capped => {
            if !cur.floyd()? {
                debug_assert!(false, "sdbm: closure says empty but a witness exists");
                return Err(TooLarge);
            }
        }
        Closure::Fixpoint => {}
    }

    let nv = cur.n;
    let mut tight: Vec<Option<i128>> = vec![None; nv * nv];
    // Variable bounds first: once tight they shrink the general solver's box
    // for everything after.
    let mut order = Vec::with_capacity(nv * nv);
    for a in 1..nv {
        order.push((a, 0));
        order.push((0, a));
    }
    let split = order.len();
    for a in 1..nv {
        for b in 1..nv {
            if a != b {
                order.push((a, b));
            }
        }
    }
    for (idx, &(a, b)) in order.iter().enumerate() {
        if idx == split && !cur.floyd()? {
            debug_assert!(false, "sdbm: tight bounds contradict each other");
            return Err(TooLarge);
        }
        let Some(hi) = cur.get(a, b) else { continue };
        let mut lo = None;
        for w in &wits {
            let t = sub(w[a], w[b])?;
            lo = Some(lo.map_or(t, |x: i128| x.max(t)));
        }
        let lo = lo.ok_or(TooLarge)?;
        if lo > hi {
            debug_assert!(false, "sdbm: a witness violates a derived bound");
            return Err(TooLarge);
        }
        let c = maximize(&cur, harmonic, (a, b), lo, hi, &mut wits)?;
        cur.add_edge(a, b, c);
        tight[a * nv + b] = Some(c);
    }

    // Congruences. M = gcd{v - w : v in V} where V is the set of values of
    // x_a in S and w = wits[0][a]. Start from a multiple D of M:
    // - bounded variable (l < u, both attained, so in V): D = u - l;
    // - a variable unbounded on one side: V ⊇ {w + kL : k >= 0} (or <= 0) by
    //   the recession argument above with b = vertex 0, so D = L.
    // Every witness v gives D := gcd(D, v - w). Then ask for a solution with
    // x_a ≢ w (mod D): none means M = D; one strictly decreases D. The class
    // of x_a (mod m_a) divides all of these, so the loop stops at m_a at the
    // latest.
    let n = s.n;
    let mut modulus = vec![1i64; n];
    let mut residue = vec![0i64; n];
    for a in 1..nv {
        let bounded = match (tight[a * nv], tight[a]) {
            (Some(u), Some(minus_l)) => Some((u, neg(minus_l)?)),
            _ => None,
        };
        if bounded.is_some_and(|(u, l)| u == l) {
            continue; // a single value: canonical (1, 0)
        }
        let base = wits[0][a];
        let mut dd = match bounded {
            Some((u, l)) => sub(u, l)?,
            None => big_l,
        };
        for w in &wits {
            dd = gcd(dd, sub(w[a], base)?)?;
        }
        let ma = cur.m[a];
        debug_assert_eq!(dd % ma, 0);
        if let Some((_, l)) = bounded {
            if dd > big_l && dd > ma {
                // Cheap reduction before the pseudo-polynomial checks: the
                // second smallest value v1 of x_a (a maximization of -x_a over
                // S ∧ x_a >= l + 1, by harmonic checks if S is harmonic).
                let l1 = add(l, 1)?;
                let mut restricted = cur.clone();
                restricted.add_edge(0, a, neg(l1)?);
                let mut lo = None;
                for w in wits.iter().filter(|w| w[a] >= l1) {
                    let t = neg(w[a])?;
                    lo = Some(lo.map_or(t, |x: i128| x.max(t)));
                }
                let lo = match lo {
                    Some(t) => t,
                    None => match solve_work(&restricted, harmonic, None)? {
                        Some(v) => {
                            let t = neg(v[a])?;
                            wits.push(v);
                            t
                        }
                        None => return Err(TooLarge), // unreachable: u > l is attained
                    },
                };
                let best = maximize(&restricted, harmonic, (0, a), lo, neg(l1)?, &mut wits)?;
                dd = gcd(dd, sub(neg(best)?, l)?)?;
            }
        }
        while dd > ma {
            let ex = Exclusion {
                vertex: a,
                modulus: dd,
                residue: modulo(base, dd),
            };
            match general::solve(cur.clone(), Some(ex))? {
                None => break,
                Some(v) => {
                    dd = gcd(dd, sub(v[a], base)?)?;
                    wits.push(v);
                }
            }
        }
        modulus[a - 1] = to_i64(dd)?;
        residue[a - 1] = to_i64(modulo(base, dd))?;
    }

    let mut out = Sdbm::new(n);
    for i in 0..n {
        for j in 0..n {
            if i != j {
                out.diff[i * n + j] = tight[(i + 1) * nv + (j + 1)].map(to_i64).transpose()?;
            }
        }
        out.upper[i] = tight[(i + 1) * nv].map(to_i64).transpose()?;
        out.lower[i] = tight[i + 1].map(|c| neg(c).and_then(to_i64)).transpose()?;
    }
    out.modulus = modulus;
    out.residue = residue;
    Ok(Some(out))
}

/// `(m, r)` of `x_i` in a normal form, with a fixed variable as `(0, value)`.
fn effective_congruence(s: &Sdbm, i: usize) -> (i128, i128) {
    match (s.upper[i], s.lower[i]) {
        (Some(u), Some(l)) if u == l => (0, i128::from(u)),
        _ => (i128::from(s.modulus[i]), i128::from(s.residue[i])),
    }
}

/// See [`Sdbm::join`]. Why the result is the least SDBM above both and is in
/// normal form: each bound of a normal form is attained, so any SDBM containing
/// both inputs has each bound at least the looser one, and none where an input
/// is unbounded; the values of `x_i` over `A ∪ B` have gcd of differences
/// `gcd(m1, m2, r1 - r2)` (with `m = 0` for a fixed variable), so any valid
/// congruence divides it, and the join's own values have exactly that gcd.
pub(crate) fn join(x: &Sdbm, y: &Sdbm) -> Result<Sdbm, TooLarge> {
    let (a, b) = match (x.normalize()?, y.normalize()?) {
        (None, None) => return Ok(Sdbm::empty(x.n)),
        (None, Some(b)) => return Ok(b),
        (Some(a), None) => return Ok(a),
        (Some(a), Some(b)) => (a, b),
    };
    let n = a.n;
    let looser = |p: Option<i64>, q: Option<i64>| match (p, q) {
        (Some(p), Some(q)) => Some(p.max(q)),
        _ => None,
    };
    let mut out = Sdbm::new(n);
    for k in 0..n * n {
        out.diff[k] = looser(a.diff[k], b.diff[k]);
    }
    for i in 0..n {
        out.upper[i] = looser(a.upper[i], b.upper[i]);
        out.lower[i] = match (a.lower[i], b.lower[i]) {
            (Some(p), Some(q)) => Some(p.min(q)),
            _ => None,
        };
        let (ma, ra) = effective_congruence(&a, i);
        let (mb, rb) = effective_congruence(&b, i);
        let g = gcd(gcd(ma, mb)?, sub(ra, rb)?)?;
        if g != 0 {
            out.modulus[i] = to_i64(g)?;
            out.residue[i] = to_i64(modulo(ra, g))?;
        }
    }
    Ok(out)
}
