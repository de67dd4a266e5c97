//! The algorithms on quasi-affine functions ([`Aff`], [`MultiAff`] and the
//! piecewise types): sharing division locals between two expressions,
//! arithmetic, comparison sets, composition (pullback), the graph of a
//! function as constraints and the recovery of a function from a map whose
//! outputs are fixed by equalities.
//!
//! The ideas follow isl's `isl_aff.c` (Verdoolaege, "isl: An Integer Set
//! Library for the Polyhedral Model", ICMS 2010): an expression is a row over
//! the columns of its domain plus division locals, two expressions are
//! combined after their divisions are put in one list (equal divisions
//! shared), and a comparison of two expressions is one inequality over that
//! list. Everything is exact.

use crate::api::fn_space;
use crate::api::{
    Aff, Disjunction, Map, MultiAff, PwAff, PwMultiAff, Set, domain_of, merged_params,
};
use crate::conjunction::{Conjunction, Div, Row};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::solver::budget::Budget;
use crate::solver::solve::empty_parts;
use crate::space::Space;
use crate::space::Tuple;

/// Most groups of equal functions [`PwMultiAff::coalesce`] compares pairwise
/// for functions that agree on a domain (a graph comparison per pair).
const MAX_GROUPS_TO_MATCH: usize = 12;

/// `row` padded with zeros to `n` entries.
fn padded(row: &Row, n: usize) -> Row {
    let mut r = row.clone();
    r.resize(n, Int::ZERO);
    r
}

/// `a·ka + b·kb`, entry by entry (`b` padded with zeros).
fn lin_comb(a: &Row, ka: &Int, b: &Row, kb: &Int) -> Row {
    let n = a.len().max(b.len());
    (0..n)
        .map(|c| {
            let x = a.get(c).map_or(Int::ZERO, |v| v * ka);
            let y = b.get(c).map_or(Int::ZERO, |v| v * kb);
            x + y
        })
        .collect()
}

/// A division in lowest terms (the gcd of its numerator and denominator
/// divided out), so that equal divisions compare equal.
fn reduced_div(mut d: Div) -> Div {
    let g = d.num.iter().fold(d.den.clone(), |g, v| g.gcd(v));
    if !g.is_one() && !g.is_zero() {
        d.den = d.den.exact_div(&g);
        for v in &mut d.num {
            *v = v.exact_div(&g);
        }
    }
    d
}

impl Aff {
    /// Appends the division `d` (its numerator over the current columns, or a
    /// prefix of them) and returns its column; an equal division already
    /// present is shared instead.
    pub(crate) fn push_div(&mut self, d: Div) -> usize {
        let nv = 1 + self.space.n_var();
        let n = self.n_col();
        let d = reduced_div(Div {
            num: padded(&d.num, n),
            den: d.den,
        });
        if let Some(k) = self
            .divs
            .iter()
            .position(|e| e.num[..n] == d.num[..] && e.den == d.den)
        {
            return nv + k;
        }
        self.num.push(Int::ZERO);
        for e in &mut self.divs {
            e.num.push(Int::ZERO);
        }
        let mut d = d;
        d.num.push(Int::ZERO);
        self.divs.push(d);
        n
    }

    /// Brings the divisions to a simpler, more canonical form (isl makes the
    /// same simplifications of an expression's divisions): a division with
    /// denominator 1 or a constant numerator is replaced by its value; a
    /// division of a division, `floor((floor(g/m) + h)/n)` with `h` an
    /// integer expression, becomes `floor((g + m·h)/(m·n))` (for integer
    /// `n > 0`, `floor(floor(x)/n) = floor(x/n)`); divisions are reduced by
    /// the gcd of numerator and denominator; equal divisions are merged; and
    /// unused ones dropped. Exact: the value is unchanged everywhere.
    pub(crate) fn simplify_divs(&mut self) {
        let nv = 1 + self.space.n_var();
        for _ in 0..16 {
            let mut changed = false;
            for k in 0..self.divs.len() {
                let col = nv + k;
                if self.num[col].is_zero()
                    && self.divs[k + 1..].iter().all(|d| d.num[col].is_zero())
                {
                    continue;
                }
                let d = reduced_div(self.divs[k].clone());
                let is_const = d.num[1..].iter().all(Int::is_zero);
                if d.den.is_one() || is_const {
                    let value: Row = if is_const {
                        let mut v = vec![Int::ZERO; d.num.len()];
                        v[0] = d.num[0].floor_div(&d.den);
                        v
                    } else {
                        d.num.clone()
                    };
                    self.substitute_col(col, &value);
                    changed = true;
                    continue;
                }
                if let Some(j) = (0..k).rev().find(|&j| d.num[nv + j].is_one()) {
                    let dj = &self.divs[j];
                    let mut n: Row = d.num.iter().map(|v| v * &dj.den).collect();
                    n[nv + j] = Int::ZERO;
                    for (a, b) in n.iter_mut().zip(&dj.num) {
                        if !b.is_zero() {
                            *a += b;
                        }
                    }
                    self.divs[k] = reduced_div(Div {
                        num: n,
                        den: &d.den * &dj.den,
                    });
                    changed = true;
                    continue;
                }
                self.divs[k] = d;
                if let Some(j) = (0..k).find(|&j| self.divs[j] == self.divs[k]) {
                    let mut value = vec![Int::ZERO; self.n_col()];
                    value[nv + j] = Int::ONE;
                    self.substitute_col(col, &value);
                    changed = true;
                }
            }
            self.drop_unused_divs();
            if !changed {
                break;
            }
        }
    }

    /// Replaces column `col` (a division) by the row `value` (over earlier
    /// columns) in the numerator and in the later divisions.
    fn substitute_col(&mut self, col: usize, value: &Row) {
        let subst = |r: &mut Row| {
            let c = std::mem::take(&mut r[col]);
            if !c.is_zero() {
                for (a, v) in r.iter_mut().zip(value) {
                    if !v.is_zero() {
                        *a += &c * v;
                    }
                }
            }
        };
        subst(&mut self.num);
        let first = col - (1 + self.space.n_var()) + 1;
        for d in &mut self.divs[first..] {
            subst(&mut d.num);
        }
    }

    /// Removes the divisions that neither the numerator nor a used division
    /// refers to.
    pub(crate) fn drop_unused_divs(&mut self) {
        let nv = 1 + self.space.n_var();
        let nd = self.divs.len();
        let mut used: Vec<bool> = (0..nd).map(|k| !self.num[nv + k].is_zero()).collect();
        for k in (0..nd).rev() {
            if used[k] {
                let uses: Vec<bool> = (0..k)
                    .map(|j| !self.divs[k].num[nv + j].is_zero())
                    .collect();
                for (u, x) in used.iter_mut().zip(uses) {
                    *u |= x;
                }
            }
        }
        if used.iter().all(|&u| u) {
            return;
        }
        let keep: Vec<usize> = (0..nv)
            .chain((0..nd).filter(|&k| used[k]).map(|k| nv + k))
            .collect();
        let pick = |r: &Row| -> Row { keep.iter().map(|&c| r[c].clone()).collect() };
        self.num = pick(&self.num);
        self.divs = (0..nd)
            .filter(|&k| used[k])
            .map(|k| Div {
                num: pick(&self.divs[k].num),
                den: self.divs[k].den.clone(),
            })
            .collect();
    }

    /// `self` with the divisions of `other` added (equal ones shared), and
    /// `other`'s numerator over the columns of the result. Same space.
    pub(crate) fn on_common_divs(&self, other: &Aff) -> (Aff, Row) {
        let nv = 1 + self.space.n_var();
        let mut a = self.clone();
        let mut cols: Vec<usize> = (0..nv).collect();
        let remap = |r: &Row, cols: &[usize], n: usize| -> Row {
            let mut out = vec![Int::ZERO; n];
            for (c, v) in r.iter().enumerate() {
                if !v.is_zero() {
                    out[cols[c]] = v.clone();
                }
            }
            out
        };
        for d in &other.divs {
            let num = remap(&d.num[..cols.len()].to_vec(), &cols, a.n_col());
            let col = a.push_div(Div {
                num,
                den: d.den.clone(),
            });
            cols.push(col);
        }
        let b = remap(&other.num, &cols, a.n_col());
        (a, b)
    }

    /// Both with their parameters aligned by name; an error for different
    /// domain tuples.
    pub(crate) fn aligned_with(&self, other: &Aff) -> Result<(Aff, Aff)> {
        if !self.space.same_tuples(&other.space) {
            return Err(Error::SpaceMismatch(format!(
                "affine expressions on different domains ({} and {})",
                self.space.tuple_key(),
                other.space.tuple_key()
            )));
        }
        let params = crate::api::merged_params(self.space.params(), other.space.params());
        Ok((self.align_params(&params), other.align_params(&params)))
    }

    /// `ka·self + kb·other` over the shared divisions (the algorithm of
    /// [`Aff::add`] and [`Aff::sub`]): both numerators are brought to the
    /// least common multiple of the denominators.
    pub(crate) fn combine(&self, other: &Aff, ka: &Int, kb: &Int) -> Result<Aff> {
        let (a, b) = self.aligned_with(other)?;
        let (mut r, bnum) = a.on_common_divs(&b);
        let l = a.den.lcm(&b.den);
        let fa = ka * &l.exact_div(&a.den);
        let fb = kb * &l.exact_div(&b.den);
        r.num = lin_comb(&r.num, &fa, &bnum, &fb);
        r.den = l;
        r.normalize();
        r.simplify_divs();
        debug_assert!(r.check_invariants().is_ok());
        Ok(r)
    }

    /// The conjunction over the domain space whose locals are the divisions
    /// of `self` (with their defining inequalities) and no other constraint.
    pub(crate) fn div_conj(&self) -> Result<Conjunction> {
        let mut c = Conjunction::universe(self.space.clone());
        for d in &self.divs {
            c.add_local(Some(d.clone()))?;
        }
        Ok(c)
    }

    /// The set of domain points where `self >= other` (`self > other` when
    /// `strict`): one inequality over the shared divisions, both sides
    /// multiplied by the least common multiple `l` of the denominators so
    /// that they are integers (then `>` is `>= 1`).
    pub(crate) fn ge_set(&self, other: &Aff, strict: bool) -> Result<Set> {
        let (a, b) = self.aligned_with(other)?;
        let (r, bnum) = a.on_common_divs(&b);
        let l = a.den.lcm(&b.den);
        let mut row = lin_comb(&r.num, &l.exact_div(&a.den), &bnum, &-l.exact_div(&b.den));
        if strict {
            row[0] -= Int::ONE;
        }
        let mut c = r.div_conj()?;
        c.add_ineq(row)?;
        Ok(Set(Disjunction::from_conj(c)))
    }

    /// The composition `self ∘ g` (the algorithm of [`Aff::pullback`]): each
    /// domain dimension `x_j` of `self` is replaced by `g_j`, a rational row
    /// over the columns of `g`'s domain and divisions; each division of
    /// `self`, in order, becomes a division over the new columns
    /// (`floor((N/L)/d) = floor(N/(L·d))` for an integer row `N`), shared when
    /// equal. Parameters aligned by the caller.
    pub(crate) fn pullback_impl(&self, g: &MultiAff) -> Result<Aff> {
        let gdom = g.domain_space();
        let np = self.space.n_param();
        if self.space.params() != gdom.params() {
            return Err(Error::Invalid(
                "internal: pullback without aligned parameters".into(),
            ));
        }
        let nx = self.space.n_out();
        let mut r = Aff {
            space: gdom.clone(),
            divs: Vec::new(),
            num: vec![Int::ZERO; 1 + gdom.n_var()],
            den: Int::ONE,
        };
        // g's expressions over r's columns (r gains g's divisions)
        let mut gx: Vec<(Row, Int)> = Vec::with_capacity(nx);
        for ga in &g.affs {
            let (r2, num) = r.on_common_divs(ga);
            r = r2;
            gx.push((num, ga.den.clone()));
        }
        let l = gx.iter().fold(Int::ONE, |l, (_, d)| l.lcm(d));
        let nv_self = 1 + self.space.n_var();
        // self's division k sits at r's column div_cols[k]
        let mut div_cols: Vec<usize> = Vec::with_capacity(self.divs.len());
        let subst = |row: &Row, r: &Aff, div_cols: &[usize]| -> Row {
            let n = r.n_col();
            let mut out = vec![Int::ZERO; n];
            for (c, v) in row.iter().enumerate() {
                if v.is_zero() {
                    continue;
                }
                if c <= np {
                    out[c] += v * &l;
                } else if c < nv_self {
                    let (gr, gd) = &gx[c - 1 - np];
                    let k = v * &l.exact_div(gd);
                    for (o, w) in out.iter_mut().zip(gr) {
                        if !w.is_zero() {
                            *o += w * &k;
                        }
                    }
                } else {
                    out[div_cols[c - nv_self]] += v * &l;
                }
            }
            out
        };
        for d in &self.divs {
            let n = subst(&d.num, &r, &div_cols);
            let col = r.push_div(Div {
                num: n,
                den: &d.den * &l,
            });
            div_cols.push(col);
        }
        r.num = subst(&self.num, &r, &div_cols);
        r.den = &self.den * &l;
        r.normalize();
        r.simplify_divs();
        debug_assert!(r.check_invariants().is_ok());
        Ok(r)
    }
}

impl MultiAff {
    /// The graph of the function restricted to the domain conjunction `dom`
    /// (over the domain space): a conjunction over the map space with the
    /// locals of `dom`, then the divisions of each expression, and one
    /// equality `den·y_k = num_k` per range dimension. A rational
    /// expression's graph only has the points where its value is an integer.
    pub(crate) fn graph_conj(&self, dom: &Conjunction) -> Result<Conjunction> {
        let sp = &self.space;
        let (np, ni, no) = (sp.n_param(), sp.n_in(), sp.n_out());
        let nv_dom = 1 + np + ni;
        let colmap: Vec<usize> = (0..dom.n_col())
            .map(|c| if c < nv_dom { c } else { c + no })
            .collect();
        let mut c = dom.remap(sp.clone(), dom.n_local(), &colmap);
        for (k, a) in self.affs.iter().enumerate() {
            let mut cols: Vec<usize> = (0..nv_dom).collect();
            for d in &a.divs {
                let mut num = vec![Int::ZERO; c.n_col()];
                for (j, v) in d.num.iter().enumerate().take(cols.len()) {
                    if !v.is_zero() {
                        num[cols[j]] = v.clone();
                    }
                }
                let col = c.add_local(Some(Div {
                    num,
                    den: d.den.clone(),
                }))?;
                cols.push(col);
            }
            let mut row = vec![Int::ZERO; c.n_col()];
            for (j, v) in a.num.iter().enumerate() {
                if !v.is_zero() {
                    row[cols[j]] = -v;
                }
            }
            row[nv_dom + k] = a.den.clone();
            c.add_eq(row)?;
        }
        Ok(c)
    }

    /// `self ∘ g` expression by expression (see [`Aff::pullback_impl`]).
    pub(crate) fn pullback_impl(&self, g: &MultiAff) -> Result<MultiAff> {
        let affs = self
            .affs
            .iter()
            .map(|a| a.pullback_impl(g))
            .collect::<Result<Vec<_>>>()?;
        Ok(MultiAff {
            space: fn_space(
                g.space.params().to_vec(),
                g.space.domain_tuple().cloned(),
                self.space.range_tuple().clone(),
            ),
            affs,
        })
    }
}

/// The function of the map `map` as (domain conjunction, expression) pieces,
/// one per disjunct: each output must be fixed in the disjunct by an
/// equality over the parameters, the inputs, the outputs fixed before and
/// locals with division definitions that do not use the outputs (the
/// equality `a·y = f` gives `y = f/a`; on the disjunct's domain the value is
/// an integer). The pieces are not made disjoint here. An error names the
/// first output that is not fixed so.
pub(crate) fn pieces_from_map(map: &Map) -> Result<Vec<(Set, MultiAff)>> {
    let sp = map.space().clone();
    let (np, ni, no) = (sp.n_param(), sp.n_in(), sp.n_out());
    let nv_dom = 1 + np + ni;
    let first_loc = nv_dom + no;
    let dom_space = domain_of(&sp);
    let mut out = Vec::new();
    for (disjunct, c0) in map.0.parts.iter().enumerate() {
        let mut c = c0.clone();
        c.simplify();
        if c.is_trivially_empty() {
            continue;
        }
        // locals usable in an expression: defined without the outputs
        let mut ok = vec![false; c.n_local()];
        for l in 0..c.n_local() {
            ok[l] = match &c.divs[l] {
                Some(d) => {
                    d.num[nv_dom..first_loc].iter().all(Int::is_zero)
                        && (0..l).all(|j| d.num[first_loc + j].is_zero() || ok[j])
                }
                None => false,
            };
        }
        let mut exprs: Vec<Option<(Row, Int)>> = vec![None; no];
        loop {
            let mut progress = false;
            for k in 0..no {
                if exprs[k].is_some() {
                    continue;
                }
                // a row usable for output k: no unsolved output but k, usable locals only
                let usable = |e: &Row, ok: &[bool], exprs: &[Option<(Row, Int)>]| {
                    !e[nv_dom + k].is_zero()
                        && (0..no).all(|o| o == k || e[nv_dom + o].is_zero() || exprs[o].is_some())
                        && (0..ok.len()).all(|l| e[first_loc + l].is_zero() || ok[l])
                };
                if let Some(e) = c.eqs.iter().find(|e| usable(e, &ok, &exprs)) {
                    // a·y_k + rest = 0: y_k = -rest / a
                    let a = e[nv_dom + k].clone();
                    let (row, l) = substituted(e, k, nv_dom, no, &exprs, true);
                    let mut den = &a * &l;
                    let mut row = row;
                    if den.is_negative() {
                        den = -den;
                        row = row.iter().map(|v| -v).collect();
                    }
                    exprs[k] = Some((row, den));
                    progress = true;
                    continue;
                }
                // a division written as two inequalities: f - d·y_k >= 0 and
                // d·y_k - f + c >= 0 with 0 <= c < d give y_k = floor(f/d) (the
                // interval [f - c, f] holds at most one multiple of d; the
                // constraints stay in the domain)
                let pair = c.ineqs.iter().find_map(|r| {
                    if !r[nv_dom + k].is_negative() || !usable(r, &ok, &exprs) {
                        return None;
                    }
                    let d = -&r[nv_dom + k];
                    let partner = c.ineqs.iter().any(|r2| {
                        let sum = &r2[0] + &r[0];
                        !sum.is_negative()
                            && sum < d
                            && r.iter().zip(r2).skip(1).all(|(x, y)| (x + y).is_zero())
                    });
                    partner.then(|| (r.clone(), d))
                });
                if let Some((r, d)) = pair {
                    let (f, l) = substituted(&r, k, nv_dom, no, &exprs, false);
                    let col = c.add_local(Some(Div {
                        num: padded(&f, c.n_col()),
                        den: &d * &l,
                    }))?;
                    ok.push(true);
                    let mut row = vec![Int::ZERO; c.n_col()];
                    row[col] = Int::ONE;
                    exprs[k] = Some((row, Int::ONE));
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
        if let Some(k) = exprs.iter().position(Option::is_none) {
            return Err(Error::Unsupported(format!(
                "output {k} of disjunct {disjunct} of the map is not fixed by an equality over \
                 the inputs, parameters and division locals, so the map is not converted to a \
                 piecewise function by reading its equalities"
            )));
        }
        // the usable locals become the divisions of every expression
        let mut colmap = vec![usize::MAX; c.n_col()];
        for (col, slot) in colmap.iter_mut().enumerate().take(nv_dom) {
            *slot = col;
        }
        let mut next = nv_dom;
        let nl = c.n_local();
        for l in 0..nl {
            if ok[l] {
                colmap[first_loc + l] = next;
                next += 1;
            }
        }
        let to_aff_row = |r: &Row| -> Row {
            let mut o = vec![Int::ZERO; next];
            for (col, v) in r.iter().enumerate() {
                if !v.is_zero() && colmap[col] != usize::MAX {
                    o[colmap[col]] = v.clone();
                }
            }
            o
        };
        let divs: Vec<Div> = (0..nl)
            .filter(|&l| ok[l])
            .filter_map(|l| c.divs[l].as_ref())
            .map(|d| Div {
                num: to_aff_row(&d.num),
                den: d.den.clone(),
            })
            .collect();
        let mut affs = Vec::with_capacity(no);
        for (row, den) in exprs.into_iter().flatten() {
            let mut a = Aff::from_parts(dom_space.clone(), divs.clone(), to_aff_row(&row), den)?;
            a.drop_unused_divs();
            affs.push(a);
        }
        let dom = Map(Disjunction::from_conj(c)).domain();
        out.push((dom, MultiAff::from_affs(sp.clone(), affs)?));
    }
    Ok(out)
}

/// The row `e` with output `k`'s coefficient and every other output removed,
/// the solved outputs (`exprs`) substituted: returns `(row, l)` with the
/// value `row / l` equal to `-(e - e_k·y_k)` (`negate`) or `e - e_k·y_k`.
fn substituted(
    e: &Row,
    k: usize,
    nv_dom: usize,
    no: usize,
    exprs: &[Option<(Row, Int)>],
    negate: bool,
) -> (Row, Int) {
    let others: Vec<usize> = (0..no)
        .filter(|&o| o != k && !e[nv_dom + o].is_zero())
        .collect();
    let l = others.iter().fold(Int::ONE, |l, &o| {
        l.lcm(&exprs[o].as_ref().map_or(Int::ONE, |x| x.1.clone()))
    });
    let sign = if negate { Int::from(-1) } else { Int::ONE };
    let mut row: Row = e.iter().map(|v| v * &l * &sign).collect();
    for o in 0..no {
        row[nv_dom + o] = Int::ZERO;
    }
    for &o in &others {
        if let Some((ro, d)) = &exprs[o] {
            let f = &e[nv_dom + o] * &l.exact_div(d) * &sign;
            row = lin_comb(&row, &Int::ONE, ro, &f);
        }
    }
    (row, l)
}

// ----- the algorithms of the piecewise types' methods (api/pw_aff.rs) -----

/// The range tuple of a `PwAff`.
pub(crate) fn one_dim() -> Tuple {
    Tuple::anonymous(1)
}

/// Both in one map space, parameters aligned by name; an error for
/// different tuples.
pub(crate) fn aligned(
    a: &PwMultiAff,
    b: &PwMultiAff,
    what: &str,
) -> Result<(PwMultiAff, PwMultiAff)> {
    if !a.space.same_tuples(&b.space) {
        return Err(Error::SpaceMismatch(format!(
            "{what} of piecewise functions in different spaces ({} and {})",
            a.space.tuple_key(),
            b.space.tuple_key()
        )));
    }
    let params = merged_params(a.space.params(), b.space.params());
    Ok((a.align_params(&params), b.align_params(&params)))
}

/// The set `s` over the parameters `params` (containing its own).
pub(crate) fn set_align(s: &Set, params: &[String]) -> Set {
    Set(s.0.align_params(params))
}

impl PwMultiAff {
    /// The algorithm of [`PwMultiAff::from_pieces`]: the locals with division definitions
    /// (whose definitions use such locals only) become the divisions of every expression
    /// of the piece.
    pub(crate) fn from_pieces_impl(
        space: Space,
        pieces: Vec<(Conjunction, Vec<Row>, Int)>,
    ) -> Result<PwMultiAff> {
        let mut r = PwMultiAff::empty(space)?;
        let dom_space = r.domain_space();
        for (c, rows, den) in pieces {
            if !c.space.is_same(&dom_space) {
                return Err(Error::SpaceMismatch(
                    "a piece's conjunction is not over the domain space".into(),
                ));
            }
            if rows.len() != r.space.n_out() {
                return Err(Error::Invalid(format!(
                    "{} rows for {} range dimensions",
                    rows.len(),
                    r.space.n_out()
                )));
            }
            let nv = 1 + dom_space.n_var();
            let nl = c.n_local();
            let mut ok = vec![false; nl];
            for l in 0..nl {
                ok[l] = c.divs[l]
                    .as_ref()
                    .is_some_and(|d| (0..l).all(|j| d.num[nv + j].is_zero() || ok[j]));
            }
            let mut colmap: Vec<Option<usize>> = (0..nv).map(Some).collect();
            let mut next = nv;
            for &o in &ok {
                colmap.push(o.then(|| {
                    next += 1;
                    next - 1
                }));
            }
            let to_row = |r: &Row| -> Result<Row> {
                if r.len() != c.n_col() {
                    return Err(Error::Invalid(format!(
                        "a row has {} entries, the conjunction has {} columns",
                        r.len(),
                        c.n_col()
                    )));
                }
                let mut o = vec![Int::ZERO; next];
                for (col, v) in r.iter().enumerate() {
                    if v.is_zero() {
                        continue;
                    }
                    match colmap[col] {
                        Some(t) => o[t] = v.clone(),
                        None => {
                            return Err(Error::Invalid(format!(
                                "a row uses local {} which has no division definition",
                                col - nv
                            )));
                        }
                    }
                }
                Ok(o)
            };
            let divs: Vec<Div> = (0..nl)
                .filter(|&l| ok[l])
                .filter_map(|l| c.divs[l].as_ref())
                .map(|d| {
                    Ok(Div {
                        num: to_row(&d.num)?,
                        den: d.den.clone(),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let mut affs = Vec::with_capacity(rows.len());
            for row in &rows {
                let mut a =
                    Aff::from_parts(dom_space.clone(), divs.clone(), to_row(row)?, den.clone())?;
                a.drop_unused_divs();
                affs.push(a);
            }
            let f = MultiAff::from_affs(r.space.clone(), affs)?;
            r.pieces.push((Set(Disjunction::from_conj(c)), f));
        }
        Ok(r)
    }

    /// The algorithm of [`PwMultiAff::from_map`] and
    /// [`PwMultiAff::from_map_with_budget`]: the pieces of [`pieces_from_map`], each
    /// domain minus those before it, then merged when their functions are equal;
    /// every solver query (the single-valuedness test, the subtractions, the
    /// emptiness tests, the lexicographic minimum, the merge) spends from `budget`.
    pub(crate) fn from_map_impl(map: &Map, budget: &mut Budget) -> Result<PwMultiAff> {
        if map.space().is_set() {
            return Err(Error::Invalid("from_map needs a map".into()));
        }
        let pairs = map.reverse().apply_range(map)?;
        if !pairs.is_subset_with_budget(&Map::identity(&map.space().range_space())?, budget)? {
            return Err(Error::Invalid(
                "the map is not single-valued, so it is not a function".into(),
            ));
        }
        let raw = match pieces_from_map(map) {
            Ok(raw) => raw,
            // an output bounded by inequalities only: a single-valued map is
            // its own lexicographic minimum, a function by parametric
            // integer programming
            Err(Error::Unsupported(_)) => return Ok(map.lexopt_function_impl(false, budget)?.0),
            Err(e) => return Err(e),
        };
        let mut r = PwMultiAff::empty(map.space().clone())?;
        let mut seen = Set(Disjunction::empty(r.domain_space()));
        for (s, f) in raw {
            let d = s.subtract_with_budget(&seen, budget)?;
            seen = seen.union(&s)?;
            if !empty_parts(d.0.parts.iter(), budget)? {
                r.pieces.push((d, f));
            }
        }
        r.coalesce_affs_impl(budget)
    }

    /// The algorithm of the binary operations on a common domain: every pair of pieces on
    /// the intersection of their domains.
    pub(crate) fn zip_with_impl(
        &self,
        other: &PwMultiAff,
        what: &str,
        range: Tuple,
        mut each: impl FnMut(&Set, &MultiAff, &MultiAff) -> Result<Vec<(Set, MultiAff)>>,
    ) -> Result<PwMultiAff> {
        let (a, b) = aligned(self, other, what)?;
        let space = fn_space(
            a.space.params().to_vec(),
            a.space.domain_tuple().cloned(),
            range,
        );
        let mut r = PwMultiAff::empty(space)?;
        for (da, fa) in &a.pieces {
            for (db, fb) in &b.pieces {
                let common = da.intersect(db)?;
                if common.is_empty()? {
                    continue;
                }
                for (s, f) in each(&common, fa, fb)? {
                    if !s.is_empty()? {
                        r.pieces.push((s, f));
                    }
                }
            }
        }
        Ok(r)
    }

    /// The algorithm of [`PwMultiAff::union_add`]: the sum on the common domain, then
    /// each side's pieces minus the other's domain.
    pub(crate) fn union_add_impl(&self, other: &PwMultiAff) -> Result<PwMultiAff> {
        let (a, b) = aligned(self, other, "union_add")?;
        let mut r = a.add(&b)?;
        let (da, db) = (a.domain()?, b.domain()?);
        for (x, other_dom) in [(&a, &db), (&b, &da)] {
            for (s, f) in &x.pieces {
                let rest = s.subtract(other_dom)?;
                if !rest.is_empty()? {
                    r.pieces.push((rest, f.clone()));
                }
            }
        }
        Ok(r)
    }

    /// The algorithm of [`PwMultiAff::intersect_domain`].
    pub(crate) fn intersect_domain_impl(&self, set: &Set) -> Result<PwMultiAff> {
        let dom = self.domain_space();
        let params_only = set.is_params() && !dom.is_params();
        if !params_only && !set.space().same_tuples(&dom) {
            return Err(Error::SpaceMismatch(
                "the set does not live in the domain of the function".into(),
            ));
        }
        let params = merged_params(self.space.params(), set.space().params());
        let a = self.align_params(&params);
        let set = set_align(set, &params);
        let mut r = PwMultiAff::empty(a.space.clone())?;
        for (s, f) in &a.pieces {
            let t = if params_only {
                s.intersect_params(&set)?
            } else {
                s.intersect(&set)?
            };
            if !t.is_empty()? {
                r.pieces.push((t, f.clone()));
            }
        }
        Ok(r)
    }

    /// The algorithm of [`PwMultiAff::gist`].
    pub(crate) fn gist_impl(&self, context: &Set) -> Result<PwMultiAff> {
        let dom = self.domain_space();
        if !context.space().same_tuples(&dom) {
            return Err(Error::SpaceMismatch(
                "the context does not live in the domain of the function".into(),
            ));
        }
        let params = merged_params(self.space.params(), context.space().params());
        let a = self.align_params(&params);
        let ctx = set_align(context, &params);
        let mut r = PwMultiAff::empty(a.space.clone())?;
        for (s, f) in &a.pieces {
            if s.intersect(&ctx)?.is_empty()? {
                continue;
            }
            r.pieces.push((s.gist(&ctx)?, f.clone()));
        }
        Ok(r)
    }

    /// The algorithm of [`PwMultiAff::coalesce`]: pieces grouped by structurally equal
    /// functions (after the canonical form of their divisions); then a group
    /// whose domain another group's function fits joins it (equal graphs on
    /// that domain); domains united and coalesced. The graph comparisons,
    /// emptiness tests and coalescings spend from `budget`.
    pub(crate) fn coalesce_affs_impl(&self, budget: &mut Budget) -> Result<PwMultiAff> {
        let mut groups: Vec<(Set, MultiAff)> = Vec::new();
        for (s, f) in &self.pieces {
            match groups.iter_mut().find(|(_, g)| g.plain_is_equal(f)) {
                Some((t, _)) => *t = t.union(s)?,
                None => groups.push((s.clone(), f.clone())),
            }
        }
        // a group whose domain another group's function also fits (equal
        // values at every point of the domain, e.g. `N - 1` on `N = P + 1`
        // and `P` beside it) joins that group; only for integer-valued
        // functions (the graphs compared hold integer values only) and few
        // groups (one graph comparison per ordered pair)
        let integral = |f: &MultiAff| f.affs.iter().all(Aff::is_integral);
        if groups.len() <= MAX_GROUPS_TO_MATCH && groups.iter().all(|(_, f)| integral(f)) {
            let mut j = 0;
            while j < groups.len() {
                let (dom, own) = groups[j].clone();
                let on_dom = |f: &MultiAff| -> Result<Map> {
                    PwMultiAff::from_multi_aff(f.clone())
                        .intersect_domain(&dom)?
                        .as_map()
                };
                let mine = on_dom(&own)?;
                let mut target = None;
                for (i, (_, g)) in groups.iter().enumerate() {
                    if i != j && on_dom(g)?.is_equal_with_budget(&mine, budget)? {
                        target = Some(i);
                        break;
                    }
                }
                match target {
                    Some(i) => {
                        groups[i].0 = groups[i].0.union(&dom)?;
                        groups.remove(j);
                        j = 0;
                    }
                    None => j += 1,
                }
            }
        }
        let mut r = PwMultiAff::empty(self.space.clone())?;
        for (s, f) in groups {
            if !empty_parts(s.0.parts.iter(), budget)? {
                r.pieces.push((s.coalesce_with_budget(budget)?, f));
            }
        }
        Ok(r)
    }

    /// The algorithm of [`PwMultiAff::pullback`]: for each pair of pieces, the domain is
    /// `g`'s piece domain intersected with the preimage of `self`'s piece domain under
    /// the graph of `g`'s function, and the function is the composition of
    /// [`MultiAff::pullback_impl`].
    pub(crate) fn pullback_impl(&self, g: &PwMultiAff) -> Result<PwMultiAff> {
        let my_dom = self.space.domain_tuple();
        if my_dom.is_none_or(|d| !d.same_shape(g.space.range_tuple())) {
            return Err(Error::SpaceMismatch(
                "pullback: the range of the inner function is not the domain of the outer one"
                    .into(),
            ));
        }
        let params = merged_params(self.space.params(), g.space.params());
        let f = self.align_params(&params);
        let g = g.align_params(&params);
        let space = fn_space(
            params.clone(),
            g.space.domain_tuple().cloned(),
            f.space.range_tuple().clone(),
        );
        let mut r = PwMultiAff::empty(space)?;
        for (dg, gm) in &g.pieces {
            let graph = PwMultiAff::from_multi_aff(gm.clone()).as_map()?;
            for (df, fm) in &f.pieces {
                let d = dg.intersect(&df.preimage(&graph)?)?;
                if d.is_empty()? {
                    continue;
                }
                let h = fm.pullback_impl(gm)?;
                r.pieces.push((d, h));
            }
        }
        Ok(r)
    }

    /// The algorithm of [`PwMultiAff::is_equal`]: equal domains, and on each intersection
    /// of two pieces no point where one expression is strictly larger than the other.
    pub(crate) fn is_equal_impl(&self, other: &PwMultiAff) -> Result<bool> {
        let (a, b) = aligned(self, other, "comparison")?;
        if !a.domain()?.is_equal(&b.domain()?)? {
            return Ok(false);
        }
        for (da, fa) in &a.pieces {
            for (db, fb) in &b.pieces {
                let common = da.intersect(db)?;
                if common.is_empty()? {
                    continue;
                }
                for (x, y) in fa.affs.iter().zip(&fb.affs) {
                    for strict_side in [x.ge_set(y, true)?, y.ge_set(x, true)?] {
                        if !common.intersect(&strict_side)?.is_empty()? {
                            return Ok(false);
                        }
                    }
                }
            }
        }
        Ok(true)
    }
}

impl PwAff {
    /// The algorithm of [`PwAff::min`] and [`PwAff::max`]: on each intersection of two
    /// pieces, the first expression where it is the answer (ties to it, one inequality of
    /// [`Aff::ge_set`]) and the second on the rest (the strict opposite inequality).
    pub(crate) fn min_max_impl(&self, other: &PwAff, is_max: bool) -> Result<PwAff> {
        let what = if is_max { "max" } else { "min" };
        self.0
            .zip_with_impl(&other.0, what, one_dim(), |s, fa, fb| {
                let (a, b) = (&fa.affs[0], &fb.affs[0]);
                // a is kept where it is the answer (ties go to a), b elsewhere
                let (keep_a, keep_b) = if is_max {
                    (a.ge_set(b, false)?, b.ge_set(a, true)?)
                } else {
                    (b.ge_set(a, false)?, a.ge_set(b, true)?)
                };
                let (pa, pb) = (s.intersect(&keep_a)?, s.intersect(&keep_b)?);
                Ok(vec![(pa, fa.clone()), (pb, fb.clone())])
            })
            .map(PwAff)
    }
}
