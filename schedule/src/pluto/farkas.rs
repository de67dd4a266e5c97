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
//! `ν`.
//!
//! The multipliers are eliminated: by duality, `ψ` is in that cone iff `ψ·g
//! ≥ 0` for every extreme ray `g` of the homogenised cone of `D` (its
//! vertices and rays) and `ψ·l = 0` on its lineality space
//! ([`super::cone`]), a few constraints on the unknowns alone, shared by
//! the validity and bounding constraints of the piece and deduplicated
//! across pieces. When a piece has too many generators, the multipliers
//! stay in the LP as variables instead: equating the coefficient of each
//! column of `D` (constant, parameters, source and target iterators,
//! existential variables) gives equalities between the unknowns and the
//! multipliers. Existential variables of `D` are treated as rational (their
//! coefficient in `ψ` is zero): the relaxed polyhedron is larger, so the
//! constraints are sufficient (a schedule that satisfies them is valid),
//! not always necessary.

pub use super::FarkasMethod;
use super::cone::generators;
use crate::scop::Scop;
use presburger::lp::{LinearProgram, LpResult, Rational};
use presburger::{BasicMap, BuildRowHasher, DimKind, Error, Int, Result};
use std::collections::HashSet;

/// The unknowns of a Pluto LP and how each statement's row is made of
/// them: `u` (one variable per parameter) and `w` first, then variables of
/// the caller's choice, and for each statement and each entry of its row
/// (iterators, parameters, constant) a linear form in them. The full layout
/// ([`Layout::new`]) gives every iterator coefficient and constant a
/// variable of its own (parameter coefficients are zero: no parametric
/// shifts, as in Pluto's output); templates ([`Layout::template`]) make
/// rows of a given shape, such as `σ·e_i + shift` for the fusion conflict
/// graph or `σ·e_i + Σ λ_k·row_k + shift` for skewing. Variables created
/// by the LP itself (multipliers) come after [`Layout::n_var`].
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The number of parameters.
    pub np: usize,
    /// Per statement: its number of iterators.
    n_iters: Vec<usize>,
    /// Per statement, per row entry: the entry as a form in the variables.
    entries: Vec<Vec<Form>>,
    /// The number of variables.
    pub n_var: usize,
    /// True for the full layout (whose coefficients [`Lp::new`] keeps
    /// non-negative); a template's variables get their bounds from its
    /// maker.
    full: bool,
}

impl Layout {
    /// The full layout for the statements and parameters of `scop`: one
    /// variable per iterator coefficient and constant of every row.
    pub fn new(scop: &Scop) -> Layout {
        let n_iters: Vec<usize> = scop.statements.iter().map(|s| s.iterators.len()).collect();
        let mut l = Layout::template(scop.params.len(), &n_iters);
        l.full = true;
        for (s, &n) in n_iters.iter().enumerate() {
            for k in (0..n).chain([n + l.np]) {
                let v = l.new_var();
                l.set(s, k, vec![(v, Int::ONE)]);
            }
        }
        l
    }

    /// A layout with `u` and `w` only and every row zero, for statements
    /// with `n_iters` iterators; rows are then made with [`Layout::new_var`]
    /// and [`Layout::set`].
    pub fn template(np: usize, n_iters: &[usize]) -> Layout {
        Layout {
            np,
            n_iters: n_iters.to_vec(),
            entries: n_iters
                .iter()
                .map(|&n| vec![Vec::new(); n + np + 1])
                .collect(),
            n_var: np + 1,
            full: false,
        }
    }

    /// A new variable.
    pub fn new_var(&mut self) -> usize {
        self.n_var += 1;
        self.n_var - 1
    }

    /// Makes entry `k` of statement `s`'s row the form `f`.
    pub fn set(&mut self, s: usize, k: usize, f: Form) {
        self.entries[s][k] = f;
    }

    /// The number of statements.
    pub fn n_stmt(&self) -> usize {
        self.n_iters.len()
    }

    /// The number of iterators of statement `s`.
    pub fn n_iter(&self, s: usize) -> usize {
        self.n_iters[s]
    }

    /// The length of a row of statement `s` (iterators, parameters,
    /// constant).
    pub fn row_len(&self, s: usize) -> usize {
        self.n_iters[s] + self.np + 1
    }

    /// Entry `k` of statement `s`'s row as a form in the variables.
    pub fn entry(&self, s: usize, k: usize) -> &Form {
        &self.entries[s][k]
    }

    /// The variable of entry `k` of statement `s`'s row in the full layout
    /// (`None` for a parameter coefficient, or when the entry is not a
    /// variable of its own).
    pub fn coeff(&self, s: usize, k: usize) -> Option<usize> {
        match self.entries[s][k].as_slice() {
            [(v, x)] if x.is_one() => Some(*v),
            _ => None,
        }
    }

    /// The variable of `u`'s entry for parameter `q`.
    pub fn u(&self, q: usize) -> usize {
        q
    }

    /// The variable `w`.
    pub fn w(&self) -> usize {
        self.np
    }

    /// The rows of a rational solution `point`, scaled to integers: every
    /// entry of every row multiplied by the least common multiple of their
    /// denominators, then divided by the gcd of all of them (one factor for
    /// all statements, so that validity, which compares rows of different
    /// statements, is kept: Sec. 2 of the pluto-lp-dfp report).
    pub fn integer_rows(&self, point: &[Rational]) -> Vec<Vec<Int>> {
        let value = |f: &Form| -> Rational {
            let mut num = Int::ZERO;
            let mut den = Int::ONE;
            for (v, x) in f {
                // num/den + x·p.num/p.den
                let p = &point[*v];
                num = &(&num * p.denom()) + &(&(x * p.numer()) * &den);
                den = &den * p.denom();
            }
            Rational::new(num, den)
        };
        let vals: Vec<Vec<Rational>> = self
            .entries
            .iter()
            .map(|row| row.iter().map(value).collect())
            .collect();
        let mut den = Int::ONE;
        for x in vals.iter().flatten() {
            den = den.lcm(x.denom());
        }
        let mut rows: Vec<Vec<Int>> = vals
            .iter()
            .map(|r| {
                r.iter()
                    .map(|x| (x.numer() * &den).exact_div(x.denom()))
                    .collect()
            })
            .collect();
        let g = presburger::gcd_all(rows.iter().flatten());
        if !g.is_zero() && !g.is_one() {
            for r in &mut rows {
                for x in r.iter_mut() {
                    *x = x.exact_div(&g);
                }
            }
        }
        rows
    }
}

/// A sparse linear form over LP variables.
pub(crate) type Form = Vec<(usize, Int)>;

/// An LP on `presburger`'s exact simplex, built constraint by constraint
/// over the variables of a [`Layout`] and more; `None` inside once the
/// constraints are infeasible. Snapshots and rollbacks let one base
/// (the Farkas constraints of a set of dependences) serve many questions.
pub(crate) struct Lp {
    simplex: LinearProgram,
    /// The dependence constraints added since the last rollback, divided by
    /// their gcd, as their non-zero entries (to skip duplicates).
    seen: HashSet<(bool, Vec<(usize, Int)>), BuildRowHasher>,
}

/// The most generators a piece may have for [`FarkasMethod::Generators`].
pub const MAX_RAYS: usize = 400;

impl Lp {
    /// An LP over the variables of `layout`, with `u ≥ 0`, `w ≥ 0`, and,
    /// for the full layout, every iterator coefficient and constant of every
    /// row non-negative (as in Pluto).
    pub fn new(layout: &Layout) -> Lp {
        let mut lp = Lp {
            simplex: LinearProgram::new(layout.n_var),
            seen: HashSet::default(),
        };
        for v in 0..=layout.np {
            lp.ge(&[(v, Int::ONE)], 0);
        }
        if layout.full {
            for s in 0..layout.n_stmt() {
                let n = layout.n_iter(s);
                for k in (0..n).chain([n + layout.np]) {
                    lp.add_unique(layout.entry(s, k), false);
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
    pub fn snapshot(&self) -> presburger::lp::Snapshot {
        self.simplex.snapshot()
    }

    /// Undoes everything added since `s`.
    pub fn rollback(&mut self, s: presburger::lp::Snapshot) {
        self.simplex.rollback(s);
        self.seen.clear();
    }

    /// Adds `form ≥ 0` (or `= 0`) unless the same constraint, divided by
    /// the gcd of its coefficients, was added before.
    fn add_unique(&mut self, form: &[(usize, Int)], is_eq: bool) {
        let mut row = vec![Int::ZERO; self.n_var() + 1];
        for (v, x) in form {
            row[v + 1] += x;
        }
        self.add_unique_row(row, is_eq);
    }

    /// [`Lp::add_unique`] for a dense row `(constant, variables)` with a
    /// zero constant.
    fn add_unique_row(&mut self, mut row: Vec<Int>, is_eq: bool) {
        if self.is_empty() {
            return;
        }
        let g = presburger::gcd_all(row.iter());
        if g.is_zero() {
            return;
        }
        if !g.is_one() {
            for x in &mut row {
                *x = x.exact_div(&g);
            }
        }
        if is_eq
            && row
                .iter()
                .find(|x| !x.is_zero())
                .is_some_and(Int::is_negative)
        {
            for x in &mut row {
                *x = -x.clone();
            }
        }
        let entries: Vec<(usize, Int)> = row
            .iter()
            .enumerate()
            .filter(|(_, x)| !x.is_zero())
            .map(|(k, x)| (k, x.clone()))
            .collect();
        let key = (is_eq, entries);
        if !self.seen.contains(&key) {
            if is_eq {
                self.simplex.add_eq(&row);
            } else {
                self.simplex.add_ineq(&row);
            }
            self.seen.insert(key);
        }
    }

    /// The lexicographic minimum of the variables `order`, one after the
    /// other (each optimum fixed before the next); `None` when infeasible or
    /// unbounded.
    pub fn lexmin(&mut self, order: &[usize]) -> Option<Vec<Rational>> {
        self.lexmin_with(order, false)
    }

    /// [`Lp::lexmin`] that leaves the equalities fixing the optima in the LP
    /// (see [`LinearProgram::lexmin_fixing`]): for an LP about to be dropped
    /// or rolled back.
    pub fn lexmin_fixing(&mut self, order: &[usize]) -> Option<Vec<Rational>> {
        self.lexmin_with(order, true)
    }

    fn lexmin_with(&mut self, order: &[usize], fixing: bool) -> Option<Vec<Rational>> {
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
        let result = if fixing {
            self.simplex.lexmin_fixing(&objs)
        } else {
            self.simplex.lexmin(&objs)
        };
        match result {
            LpResult::Optimum { point, .. } => Some(point),
            _ => None,
        }
    }

    /// [`Lp::add_dependence`] for generators `gens` of pieces of dependences
    /// `src -> dst` (the constraints of several pieces are those of the
    /// union of their generators).
    pub fn add_generators(
        &mut self,
        layout: &Layout,
        (src, dst): (usize, usize),
        gens: &[&Generator],
        bounding: bool,
    ) {
        let np = layout.np;
        let (ns, nt) = (layout.n_iter(src), layout.n_iter(dst));
        let sign = Int::from(if bounding { -1i64 } else { 1 });
        let n = self.n_var() + 1;
        // ψ's coefficient of each column of the piece as a dense row:
        // sign·(target entry − source entry), plus w or u_q when bounding
        let column = |k: Option<usize>, j: Option<usize>, extra: Option<usize>| {
            let mut row = vec![Int::ZERO; n];
            if let Some(k) = k {
                for (v, x) in layout.entry(dst, k) {
                    row[v + 1] += &(x * &sign);
                }
            }
            if let Some(j) = j {
                for (v, x) in layout.entry(src, j) {
                    row[v + 1] -= &(x * &sign);
                }
            }
            if let (Some(v), true) = (extra, bounding) {
                row[v + 1] += &Int::ONE;
            }
            row.into_iter()
                .enumerate()
                .filter(|(_, x)| !x.is_zero())
                .collect::<Vec<(usize, Int)>>()
        };
        let c = column(Some(nt + np), Some(ns + np), Some(layout.w()));
        let p: Vec<_> = (0..np)
            .map(|q| column(Some(nt + q), Some(ns + q), Some(layout.u(q))))
            .collect();
        let si: Vec<_> = (0..ns).map(|k| column(None, Some(k), None)).collect();
        let di: Vec<_> = (0..nt).map(|k| column(Some(k), None, None)).collect();
        for g in gens {
            if self.is_empty() {
                return;
            }
            let mut row = vec![Int::ZERO; n];
            let terms = std::iter::once((&c, &g.constant))
                .chain(p.iter().zip(&g.params))
                .chain(si.iter().zip(&g.src))
                .chain(di.iter().zip(&g.dst));
            for (f, x) in terms {
                if x.is_zero() {
                    continue;
                }
                for (col, y) in f {
                    row[*col] += &(x * y);
                }
            }
            self.add_unique_row(row, g.line);
        }
    }

    /// Adds the constraints that the rows of `layout`'s statements `src`
    /// and `dst` satisfy tiling validity (`bounding = false`) or the
    /// bounding function (`bounding = true`) on every pair of a dependence
    /// piece `src -> dst` ([`farkas_piece`]), by Farkas' lemma (see the
    /// module doc).
    pub fn add_dependence(
        &mut self,
        layout: &Layout,
        (src, dst): (usize, usize),
        piece: &FarkasPiece,
        bounding: bool,
    ) {
        let np = layout.np;
        let (ns, nt) = (layout.n_iter(src), layout.n_iter(dst));
        let sign = if bounding { -1i64 } else { 1 };
        // ψ's coefficient of the constant, of parameter q, of source
        // iterator k and of target iterator k, as forms in the unknowns
        // sign·(entry k of the target − entry j of the source)
        let diff = |k: Option<usize>, j: Option<usize>| -> Form {
            let mut f: Form = Vec::new();
            if let Some(k) = k {
                f.extend(
                    layout
                        .entry(dst, k)
                        .iter()
                        .map(|(v, x)| (*v, x * &Int::from(sign))),
                );
            }
            if let Some(j) = j {
                f.extend(
                    layout
                        .entry(src, j)
                        .iter()
                        .map(|(v, x)| (*v, x * &Int::from(-sign))),
                );
            }
            f
        };
        let psi_const: Form = {
            let mut f = diff(Some(nt + np), Some(ns + np));
            if bounding {
                f.push((layout.w(), Int::ONE));
            }
            f
        };
        let psi_param = |q: usize| -> Form {
            let mut f = diff(Some(nt + q), Some(ns + q));
            if bounding {
                f.push((layout.u(q), Int::ONE));
            }
            f
        };
        {
            if self.is_empty() {
                return;
            }
            match piece {
                FarkasPiece::Generators(gens) => {
                    let gens: Vec<&Generator> = gens.iter().collect();
                    self.add_generators(layout, (src, dst), &gens, bounding);
                }
                FarkasPiece::Multipliers { conj, param_of } => {
                    // ψ − λ0 − μ·ineqs − ν·eqs = 0, column by column
                    let mut psi: Vec<Form> = vec![Vec::new(); conj.n_col()];
                    psi[0] = psi_const.clone();
                    for (k, &q) in param_of.iter().enumerate() {
                        psi[conj.col(DimKind::Param, k)] = psi_param(q);
                    }
                    for k in 0..ns {
                        psi[conj.col(DimKind::In, k)] = diff(None, Some(k));
                    }
                    for k in 0..nt {
                        psi[conj.col(DimKind::Out, k)] = diff(Some(k), None);
                    }
                    let lambda0 = self.new_var();
                    self.ge(&[(lambda0, Int::ONE)], 0);
                    let mu: Vec<usize> =
                        conj.inequalities().iter().map(|_| self.new_var()).collect();
                    for &m in &mu {
                        self.ge(&[(m, Int::ONE)], 0);
                    }
                    let nu: Vec<usize> = conj.equalities().iter().map(|_| self.new_var()).collect();
                    for (col, mut row) in psi.into_iter().enumerate() {
                        if col == 0 {
                            row.push((lambda0, Int::from(-1)));
                        }
                        for (k, ineq) in conj.inequalities().iter().enumerate() {
                            if !ineq[col].is_zero() {
                                row.push((mu[k], -ineq[col].clone()));
                            }
                        }
                        for (k, eq) in conj.equalities().iter().enumerate() {
                            if !eq[col].is_zero() {
                                row.push((nu[k], -eq[col].clone()));
                            }
                        }
                        if !row.is_empty() {
                            self.eq(&row, 0);
                        }
                    }
                }
            }
        }
    }
}

/// One generator of the homogenised cone of a dependence piece, by the
/// columns that matter to a schedule row: `ψ·g ≥ 0` (`= 0` for a line).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Generator {
    /// A vector of the lineality space (else an extreme ray).
    pub line: bool,
    /// The homogenising coordinate (positive for a vertex).
    pub constant: Int,
    /// Per parameter of the SCoP (zero for one the piece does not use).
    pub params: Vec<Int>,
    /// Per source iterator.
    pub src: Vec<Int>,
    /// Per target iterator.
    pub dst: Vec<Int>,
}

/// A non-empty basic piece of a dependence, ready for Farkas' lemma.
#[derive(Clone, Debug)]
pub(crate) enum FarkasPiece {
    /// The generators of its homogenised cone.
    Generators(Vec<Generator>),
    /// The piece itself, for multipliers (too many generators), with the
    /// SCoP's index of each of its parameters.
    Multipliers {
        /// The constraints.
        conj: presburger::Conjunction,
        /// The SCoP's index of each parameter of `conj`.
        param_of: Vec<usize>,
    },
}

/// The piece `bm` of a dependence (over some of the SCoP's `params`) for
/// [`Lp::add_dependence`], by `method`. `bm` must not be empty (Farkas'
/// affine form needs a non-empty polyhedron).
pub(crate) fn farkas_piece(
    bm: &BasicMap,
    params: &[String],
    method: FarkasMethod,
) -> Result<FarkasPiece> {
    let c = bm.conjunction();
    let sp = c.space();
    let mut param_of = Vec::with_capacity(sp.n_param());
    for name in sp.params() {
        let Some(q) = params.iter().position(|p| p == name) else {
            return Err(Error::Invalid(format!(
                "a dependence uses the unknown parameter {name}"
            )));
        };
        param_of.push(q);
    }
    if method == FarkasMethod::Generators {
        let n = c.n_col();
        let mut t = vec![Int::ZERO; n];
        t[0] = Int::ONE;
        let ineqs: Vec<Vec<Int>> = std::iter::once(t)
            .chain(c.inequalities().iter().cloned())
            .collect();
        if let Some((lines, rays)) = generators(n, c.equalities(), &ineqs, MAX_RAYS) {
            let gens = lines
                .iter()
                .map(|l| (l, true))
                .chain(rays.iter().map(|r| (r, false)))
                .map(|(g, line)| {
                    let mut ps = vec![Int::ZERO; params.len()];
                    for (k, &q) in param_of.iter().enumerate() {
                        ps[q] = g[c.col(DimKind::Param, k)].clone();
                    }
                    Generator {
                        line,
                        constant: g[0].clone(),
                        params: ps,
                        src: (0..sp.n_in())
                            .map(|k| g[c.col(DimKind::In, k)].clone())
                            .collect(),
                        dst: (0..sp.n_out())
                            .map(|k| g[c.col(DimKind::Out, k)].clone())
                            .collect(),
                    }
                })
                .collect();
            return Ok(FarkasPiece::Generators(gens));
        }
    }
    Ok(FarkasPiece::Multipliers {
        conj: c.clone(),
        param_of,
    })
}

impl FarkasPiece {
    /// The piece restricted to the pairs where the rows `rs` (source) and
    /// `rt` (target) give equal times, when that can be read off the
    /// generators: for a row with a non-negative distance on the piece, the
    /// restriction is a face, generated by the generators on which the
    /// distance is zero. `None` when the piece holds multipliers or the row
    /// has a negative distance on some generator (the caller then computes
    /// the piece afresh).
    pub fn face(&self, rs: &[Int], rt: &[Int], np: usize) -> Option<FarkasPiece> {
        let FarkasPiece::Generators(gens) = self else {
            return None;
        };
        let mut kept = Vec::with_capacity(gens.len());
        for g in gens {
            let (ns, nt) = (g.src.len(), g.dst.len());
            let mut d = &(&rt[nt + np] - &rs[ns + np]) * &g.constant;
            for q in 0..np {
                d += &(&(&rt[nt + q] - &rs[ns + q]) * &g.params[q]);
            }
            for (r, x) in rs.iter().zip(&g.src) {
                d -= &(r * x);
            }
            for (r, x) in rt.iter().zip(&g.dst) {
                d += &(r * x);
            }
            if d.is_zero() {
                kept.push(g.clone());
            } else if d.is_negative() || g.line {
                return None;
            }
        }
        Some(FarkasPiece::Generators(kept))
    }
}
