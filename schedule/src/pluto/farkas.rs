//! The linear programs of the Pluto schedulers: the variables (one block of
//! schedule coefficients per statement, the bound `u·p + w`), and the
//! constraints that a row must satisfy on every pair of a dependence
//! polyhedron, linearised with the affine form of Farkas' lemma.
//!
//! # Farkas' lemma
//!
//! A row `φ_S(x) = c_S·x + d_S·p + c0_S` (per statement `S`, iterators `x`,
//! parameters `p`) must satisfy, for every pair `S[x] -> T[y]` of a
//! dependence polyhedron `D`,
//!
//! - *tiling validity*: `φ_T(y) − φ_S(x) ≥ 0`;
//! - *bounding*: `u·p + w − (φ_T(y) − φ_S(x)) ≥ 0`, with `u ≥ 0`, `w ≥ 0`
//!   shared by all dependences (Bondhugula, Hartono, Ramanujam, Sadayappan,
//!   "A practical automatic polyhedral parallelizer and locality optimizer",
//!   PLDI 2008, Sec. 3–4).
//!
//! Both say that an affine form `ψ` of `D`'s variables, whose coefficients
//! are linear in the unknowns, is non-negative on `D`. By the affine form of
//! Farkas' lemma (Schrijver, "Theory of linear and integer programming",
//! 1986, Cor. 7.1h; used for schedules by Feautrier, "Some efficient
//! solutions to the affine scheduling problem, part I", IJPP 21(5), 1992),
//! `ψ ≥ 0` on the non-empty polyhedron `{ z : A z + b ≥ 0, E z + f = 0 }` iff
//! `ψ(z) ≡ λ0 + μ·(A z + b) + ν·(E z + f)` for some `λ0 ≥ 0`, `μ ≥ 0` and free
//! `ν`. Equating the coefficient of each column of `D` (constant,
//! parameters, source and target iterators, existential variables) gives
//! equalities between the unknowns and the multipliers, which stay in the LP
//! as variables. Existential variables of `D` are treated as rational: the
//! relaxed polyhedron is larger, so the constraints are sufficient (a
//! schedule that satisfies them is valid), not always necessary.

use crate::scop::Scop;
use presburger::simplex::{LpResult, Rational, Simplex};
use presburger::{DimKind, Error, Int, Map, Result};

/// Where the variables of a Pluto LP are: `u` (one per parameter), `w`, then
/// one block per statement with the row's coefficients of the statement's
/// iterators, of the parameters, and its constant. Variables created later
/// (multipliers, template variables) come after [`Layout::n_sched`].
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The number of parameters.
    pub np: usize,
    /// Per statement: its first variable and its number of iterators.
    blocks: Vec<(usize, usize)>,
    /// The number of variables of `u`, `w` and the blocks.
    pub n_sched: usize,
}

impl Layout {
    /// The layout for the statements and parameters of `scop`.
    pub fn new(scop: &Scop) -> Layout {
        let np = scop.params.len();
        let mut blocks = Vec::with_capacity(scop.statements.len());
        let mut next = np + 1;
        for s in &scop.statements {
            let n = s.iterators.len();
            blocks.push((next, n));
            next += n + np + 1;
        }
        Layout {
            np,
            blocks,
            n_sched: next,
        }
    }

    /// The number of statements.
    pub fn n_stmt(&self) -> usize {
        self.blocks.len()
    }

    /// The number of iterators of statement `s`.
    pub fn n_iter(&self, s: usize) -> usize {
        self.blocks[s].1
    }

    /// The length of a row of statement `s` (iterators, parameters,
    /// constant).
    pub fn row_len(&self, s: usize) -> usize {
        self.blocks[s].1 + self.np + 1
    }

    /// The variable of entry `k` of statement `s`'s row.
    pub fn coeff(&self, s: usize, k: usize) -> usize {
        debug_assert!(k < self.row_len(s));
        self.blocks[s].0 + k
    }

    /// The variable of `u`'s entry for parameter `q`.
    pub fn u(&self, q: usize) -> usize {
        q
    }

    /// The variable `w`.
    pub fn w(&self) -> usize {
        self.np
    }
}

/// A sparse linear form over LP variables.
pub(crate) type Form = Vec<(usize, Int)>;

/// An LP on `presburger`'s exact simplex, built constraint by constraint
/// over the variables of a [`Layout`] and more; `None` inside once the
/// constraints are infeasible. Snapshots and rollbacks let one base
/// (the Farkas constraints of a set of dependences) serve many questions.
pub(crate) struct Lp {
    simplex: Simplex,
}

impl Lp {
    /// An LP over the variables of `layout`, with `u ≥ 0`, `w ≥ 0` and the
    /// parameter coefficients of every row fixed to 0 (no parametric shifts,
    /// as in Pluto's output); iterator coefficients and constants are
    /// non-negative.
    pub fn new(layout: &Layout) -> Lp {
        let mut lp = Lp {
            simplex: Simplex::new(layout.n_sched),
        };
        for v in 0..=layout.np {
            lp.ge(&[(v, Int::ONE)], 0);
        }
        for s in 0..layout.n_stmt() {
            let n = layout.n_iter(s);
            for k in 0..layout.row_len(s) {
                let v = layout.coeff(s, k);
                if k >= n && k < n + layout.np {
                    lp.eq(&[(v, Int::ONE)], 0);
                } else {
                    lp.ge(&[(v, Int::ONE)], 0);
                }
            }
        }
        lp
    }

    /// The number of variables.
    pub fn n_var(&self) -> usize {
        self.simplex.n_var()
    }

    /// A new variable, free (no bound).
    pub fn new_var(&mut self) -> usize {
        self.simplex.add_var()
    }

    /// True when the constraints have no rational solution.
    pub fn is_empty(&self) -> bool {
        self.simplex.is_empty()
    }

    fn dense(&self, form: &[(usize, Int)], constant: i64) -> Vec<Int> {
        let mut row = vec![Int::ZERO; self.n_var() + 1];
        row[0] = Int::from(constant);
        for (v, x) in form {
            row[v + 1] += x;
        }
        row
    }

    /// Adds `form + constant ≥ 0`.
    pub fn ge(&mut self, form: &[(usize, Int)], constant: i64) {
        if !self.is_empty() {
            let row = self.dense(form, constant);
            self.simplex.add_ineq(&row);
        }
    }

    /// Adds `form + constant = 0`.
    pub fn eq(&mut self, form: &[(usize, Int)], constant: i64) {
        if !self.is_empty() {
            let row = self.dense(form, constant);
            self.simplex.add_eq(&row);
        }
    }

    /// The current position, to [`Lp::rollback`] to.
    pub fn snapshot(&self) -> presburger::simplex::Snapshot {
        self.simplex.snapshot()
    }

    /// Undoes everything added since `s`.
    pub fn rollback(&mut self, s: presburger::simplex::Snapshot) {
        self.simplex.rollback(s)
    }

    /// The lexicographic minimum of the variables `order`, one after the
    /// other (each optimum fixed before the next); `None` when infeasible or
    /// unbounded.
    pub fn lexmin(&mut self, order: &[usize]) -> Option<Vec<Rational>> {
        if self.is_empty() {
            return None;
        }
        let n = self.n_var();
        let objs: Vec<Vec<Int>> = order
            .iter()
            .map(|&v| {
                let mut o = vec![Int::ZERO; n + 1];
                o[v + 1] = Int::ONE;
                o
            })
            .collect();
        match self.simplex.lexmin(&objs) {
            LpResult::Optimum { point, .. } => Some(point),
            _ => None,
        }
    }

    /// Adds the constraints that the rows of `layout`'s statements `src`
    /// and `dst` satisfy tiling validity (`bounding = false`) or the
    /// bounding function (`bounding = true`) on every pair of `dep` (a
    /// relation `src -> dst` over some of `params`), by Farkas' lemma (see
    /// the module doc); one block of multipliers per non-empty basic piece.
    pub fn add_dependence(
        &mut self,
        layout: &Layout,
        params: &[String],
        (src, dst): (usize, usize),
        dep: &Map,
        bounding: bool,
    ) -> Result<()> {
        let np = layout.np;
        let (ns, nt) = (layout.n_iter(src), layout.n_iter(dst));
        for bm in dep.basics() {
            if self.is_empty() {
                return Ok(());
            }
            // an empty piece adds nothing (and Farkas' affine form needs a
            // non-empty polyhedron)
            if bm.is_empty()? {
                continue;
            }
            let c = bm.conjunction();
            let sp = c.space();
            // ψ's coefficient at each column of D, as a form in the unknowns
            let mut psi: Vec<Form> = vec![Vec::new(); c.n_col()];
            let sign = if bounding { -1i64 } else { 1 };
            for k in 0..sp.n_param() {
                let name = &sp.params()[k];
                let Some(q) = params.iter().position(|p| p == name) else {
                    return Err(Error::Invalid(format!(
                        "a dependence uses the unknown parameter {name}"
                    )));
                };
                let col = c.col(DimKind::Param, k);
                psi[col].push((layout.coeff(dst, nt + q), Int::from(sign)));
                psi[col].push((layout.coeff(src, ns + q), Int::from(-sign)));
                if bounding {
                    psi[col].push((layout.u(q), Int::ONE));
                }
            }
            for k in 0..ns {
                psi[c.col(DimKind::In, k)].push((layout.coeff(src, k), Int::from(-sign)));
            }
            for k in 0..nt {
                psi[c.col(DimKind::Out, k)].push((layout.coeff(dst, k), Int::from(sign)));
            }
            psi[0].push((layout.coeff(dst, nt + np), Int::from(sign)));
            psi[0].push((layout.coeff(src, ns + np), Int::from(-sign)));
            if bounding {
                psi[0].push((layout.w(), Int::ONE));
            }
            // ψ − λ0 − μ·ineqs − ν·eqs = 0, column by column
            let lambda0 = self.new_var();
            self.ge(&[(lambda0, Int::ONE)], 0);
            let mu: Vec<usize> = c.inequalities().iter().map(|_| self.new_var()).collect();
            for &m in &mu {
                self.ge(&[(m, Int::ONE)], 0);
            }
            let nu: Vec<usize> = c.equalities().iter().map(|_| self.new_var()).collect();
            for (col, mut row) in psi.into_iter().enumerate() {
                if col == 0 {
                    row.push((lambda0, Int::from(-1)));
                }
                for (k, ineq) in c.inequalities().iter().enumerate() {
                    if !ineq[col].is_zero() {
                        row.push((mu[k], -ineq[col].clone()));
                    }
                }
                for (k, eq) in c.equalities().iter().enumerate() {
                    if !eq[col].is_zero() {
                        row.push((nu[k], -eq[col].clone()));
                    }
                }
                if !row.is_empty() {
                    self.eq(&row, 0);
                }
            }
        }
        Ok(())
    }
}

/// The rows of a rational solution `point` for the statements of `layout`,
/// scaled to integers: every entry of every block multiplied by the least
/// common multiple of their denominators, then divided by the gcd of all of
/// them (one factor for all statements, so that validity, which compares
/// rows of different statements, is kept: Sec. 2 of the pluto-lp-dfp
/// report).
pub(crate) fn integer_rows(layout: &Layout, point: &[Rational]) -> Vec<Vec<Int>> {
    let vars = |s: usize| (0..layout.row_len(s)).map(move |k| layout.coeff(s, k));
    let mut den = Int::ONE;
    for s in 0..layout.n_stmt() {
        for v in vars(s) {
            den = den.lcm(&point[v].den);
        }
    }
    let mut rows: Vec<Vec<Int>> = (0..layout.n_stmt())
        .map(|s| {
            vars(s)
                .map(|v| (&point[v].num * &den).exact_div(&point[v].den))
                .collect()
        })
        .collect();
    let g = presburger::int::gcd_all(rows.iter().flatten());
    if !g.is_zero() && !g.is_one() {
        for r in &mut rows {
            for x in r.iter_mut() {
                *x = x.exact_div(&g);
            }
        }
    }
    rows
}
