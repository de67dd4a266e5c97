//! Satisfiability of general SDBMs, pseudo-polynomial in the LCM of the divisors.
//!
//! Source: "Strided Difference Bound Matrices", Section 3.3 (`SolveSDBM` in
//! Figure 1, Lemma 8 = the Cook–Gerards–Schrijver–Tardos proximity bound
//! generalised to congruences, Lemma 9 = Δ = 1 for DBMs).
//!
//! Idea:
//! 1. (Accelerator, not in the paper's algorithm) run path closure + GCD
//!    tightening for a few rounds: both rules are sound, a negative cycle proves
//!    emptiness at once, and the closed matrix gives shortest-path potentials.
//! 2. `z`: an integral point of the inequalities alone (shortest-path distances
//!    from a virtual source, read off the closed matrix; Lemma 4).
//! 3. Proximity: if the SDBM has a solution it has one with
//!    `|x_i - z_i| <= n·L` (Lemma 8 with Δ = 1). Add that box (we use the
//!    vertex count `n + 1` instead of `n`, which only loosens it).
//! 4. With an upper bound `u_i` on every variable, apply to a fixpoint, with a
//!    worklist: `u_i :=` the largest admissible value `<= u_i`, and for every
//!    `x_i - x_j <= c`, `u_i := min(u_i, u_j + c)`. Every solution in the box
//!    stays `<= u` (soundness), so `u_i < l_i` proves emptiness; at the
//!    fixpoint `x = u` satisfies every constraint — the witness does not depend
//!    on Lemma 8, only the emptiness answer does.
//!
//! Cost: every `u_i` falls at most `2(n+1)L + 1` times and each fall rescans
//! the `O(n)` edges out of `x_i`: `O(n^3 L)` on the dense closed matrix. The
//! work is capped at [`STEP_LIMIT`] edge relaxations; beyond it the solver
//! returns [`TooLarge`] so that the caller can fall back to another procedure.
//!
//! The solver also accepts one *exclusion* `x_k ≢ s (mod d)`: the admissible
//! set of `x_k` is then a union of residue classes modulo `lcm(m_k, d)`, the
//! rounding step stays trivial, and Lemma 8 applies to each class with
//! `L' = lcm(L, d)`. Normal forms use it to ask "does `x_k` take a value outside
//! this class?" in one call.

use std::collections::VecDeque;

use crate::TooLarge;
use crate::arith::{add, floor_to, lcm, modulo, mul, neg, sub};
use crate::work::{Closure, Work, round_limit};

/// Maximum number of edge relaxations of one general solve before it gives
/// up with [`TooLarge`] (about 10^7 elementary steps).
pub const STEP_LIMIT: u64 = 10_000_000;

/// A constraint `v_vertex ≢ residue (mod modulus)`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exclusion {
    pub(crate) vertex: usize,
    pub(crate) modulus: i128,
    pub(crate) residue: i128,
}

/// Largest value `<= u` admissible for a vertex with class `r (mod m)` and
/// optional exclusion `(d, s)`, where the caller has ruled out `d | m`
/// (so the class minus the excluded residues is not empty and, if the value
/// found is excluded, the previous member of the class is not).
fn round_down(u: i128, m: i128, r: i128, excl: Option<(i128, i128)>) -> Result<i128, TooLarge> {
    let mut v = floor_to(u, m, r)?;
    if let Some((d, s)) = excl {
        if modulo(sub(v, s)?, d) == 0 {
            v = sub(v, m)?;
        }
    }
    Ok(v)
}

/// Solve `w` (vertex 0 pinned to 0) with an optional exclusion. Returns vertex
/// values with `v_0 = 0`, or `None` if empty.
pub(crate) fn solve(mut w: Work, excl: Option<Exclusion>) -> Result<Option<Vec<i128>>, TooLarge> {
    let nv = w.n;
    let mut ex: Vec<Option<(i128, i128)>> = vec![None; nv];
    // L' = lcm of all divisors (and of the excluded modulus).
    let mut big_l: i128 = 1;
    for a in 1..nv {
        big_l = lcm(big_l, w.m[a])?;
    }
    if let Some(e) = excl {
        let (m, r) = (w.m[e.vertex], w.r[e.vertex]);
        let d = e.modulus;
        if d >= 1 && e.vertex > 0 {
            if m % d == 0 {
                // The whole class r (mod m) has one residue modulo d.
                if modulo(sub(r, e.residue)?, d) == 0 {
                    return Ok(None);
                }
            } else {
                ex[e.vertex] = Some((d, modulo(e.residue, d)));
                big_l = lcm(big_l, d)?;
            }
        }
    }
    // Vertex 0 is the constant 0, which is ≡ 0 modulo anything: giving it the
    // divisor L' lets GCD tightening round the variable bounds.
    w.m[0] = big_l;
    w.r[0] = 0;

    match w.close_tight(round_limit(nv))? {
        Closure::Empty => return Ok(None),
        Closure::Capped => {
            if !w.floyd()? {
                return Ok(None);
            }
        }
        Closure::Fixpoint => {}
    }

    // Shortest-path potentials from a virtual source with 0-edges to every
    // vertex: z_a = min(0, min_b d[a][b]); then shift so that z_0 = 0.
    let mut z = vec![0i128; nv];
    for (a, za) in z.iter_mut().enumerate() {
        for b in 0..nv {
            if let Some(c) = w.get(a, b) {
                *za = (*za).min(c);
            }
        }
    }
    let z0 = z[0];
    for za in z.iter_mut() {
        *za = sub(*za, z0)?;
    }

    let width = mul(nv as i128, big_l)?;
    let mut top = vec![0i128; nv];
    let mut lo = vec![0i128; nv];
    for a in 1..nv {
        let mut u = add(z[a], width)?;
        if let Some(c) = w.get(a, 0) {
            u = u.min(c);
        }
        let mut l = sub(z[a], width)?;
        if let Some(c) = w.get(0, a) {
            l = l.max(neg(c)?);
        }
        top[a] = u;
        lo[a] = l;
    }
    // The fixpoint is the greatest solution below `top`. First try with the
    // tops capped at i64::MAX, so that the witness can be reported; if that
    // capped system is empty, decide the uncapped one.
    let big = i128::from(i64::MAX);
    if top.iter().any(|&t| t > big) {
        let capped: Vec<i128> = top.iter().map(|&t| t.min(big)).collect();
        if let Some(v) = descend(&w, &ex, capped, &lo)? {
            return Ok(Some(v));
        }
    }
    descend(&w, &ex, top, &lo)
}

/// The worklist fixpoint of `SolveSDBM` from the upper bounds `up` (vertex 0
/// at 0) with lower bounds `lo`: the greatest solution `<= up`, or `None` if
/// some upper bound falls below its lower bound.
fn descend(
    w: &Work,
    ex: &[Option<(i128, i128)>],
    mut up: Vec<i128>,
    lo: &[i128],
) -> Result<Option<Vec<i128>>, TooLarge> {
    let nv = w.n;
    for a in 1..nv {
        up[a] = round_down(up[a], w.m[a], w.r[a], ex[a])?;
        if up[a] < lo[a] {
            return Ok(None);
        }
    }
    let mut queue: VecDeque<usize> = (0..nv).collect();
    let mut queued = vec![true; nv];
    let mut steps: u64 = 0;
    while let Some(a) = queue.pop_front() {
        queued[a] = false;
        for b in 0..nv {
            if b == a {
                continue;
            }
            // v_b - v_a <= c  =>  u_b <= u_a + c
            let Some(c) = w.get(b, a) else { continue };
            steps += 1;
            if steps > STEP_LIMIT {
                return Err(TooLarge);
            }
            let cand = add(up[a], c)?;
            if cand < up[b] {
                let nb = if b == 0 {
                    // The constant 0: any fall below 0 is a contradiction.
                    -1
                } else {
                    round_down(cand, w.m[b], w.r[b], ex[b])?
                };
                up[b] = nb;
                if nb < lo[b] {
                    return Ok(None);
                }
                if !queued[b] {
                    queued[b] = true;
                    queue.push_back(b);
                }
            }
        }
    }
    debug_assert_eq!(up[0], 0);
    debug_assert!(w.satisfied_by(&up));
    debug_assert!(
        ex.iter()
            .zip(&up)
            .all(|(e, &v)| e.is_none_or(|(d, s)| modulo(v - s, d) != 0))
    );
    Ok(Some(up))
}
