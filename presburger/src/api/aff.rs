//! `Aff` and `MultiAff`: quasi-affine functions on one domain (isl's
//! `isl_aff` and `isl_multi_aff`), the types and every public method of them.
//! The algorithms shared with the piecewise types are in `src/ops/aff_ops.rs`.

use super::*;
use crate::conjunction::{Div, Row};
use crate::lp::Rational;

/// A quasi-affine expression over the parameters and the dimensions of a set
/// space, its *domain space* (isl's `isl_aff`):
/// `(c + Σ a·p + Σ b·x + Σ e·floor(div)) / den`, where each division local is
/// `floor(num·(1, p, x, earlier locals) / d)` as in a [`Conjunction`]'s
/// [`Div`], and `den >= 1`. With `den > 1` the value may be rational (isl's
/// `{ [i] -> [(i)/2] }`).
///
/// Column layout of [`Aff::numerator`] and of the division numerators: the
/// constant, the parameters, the domain dimensions, then the division locals
/// (`1 + n_param + n_dim + n_div` entries).
///
/// Invariants (checked by [`Aff::check_invariants`]): the domain space is a
/// set space; every row has `n_col` entries; a division only uses columns
/// before its own; every division denominator is positive; `den > 0` and the
/// gcd of the numerator's entries and `den` is 1.
///
/// ```
/// use presburger::{Aff, Int};
/// let f: Aff = "{ [i] -> [(floor((i)/2) + 1)] }".parse()?;
/// assert_eq!(f.eval(&[Int::from(7)])?, Int::from(4).into());
/// assert_eq!(f.to_string(), "{ [i] -> [(1 + floor((i)/2))] }");
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Aff {
    pub(crate) space: Space,
    pub(crate) divs: Vec<Div>,
    pub(crate) num: Row,
    pub(crate) den: Int,
}

/// A tuple of [`Aff`] over one domain space, with a range tuple (isl's
/// `isl_multi_aff`): a function from the domain to the range tuple.
///
/// ```
/// use presburger::{Int, MultiAff};
/// let f: MultiAff = "{ S[i, j] -> [(i), (j + 1)] }".parse()?;
/// assert_eq!(f.eval(&[Int::from(2), Int::from(3)])?, vec![Int::from(2).into(), Int::from(4).into()]);
/// assert_eq!(f.to_string(), "{ S[i, j] -> [(i), (1 + j)] }");
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MultiAff {
    /// The space: domain tuple -> range tuple (a set space of the range for
    /// a function of the parameters).
    pub(crate) space: Space,
    /// One expression per range dimension, each over the domain space.
    pub(crate) affs: Vec<Aff>,
}

impl Aff {
    /// The expression `num / den` over `space` (a set space) with the division
    /// locals `divs`; see the type's documentation for the column layout. A
    /// division numerator may be given over the columns before its own local
    /// only (it is padded with zeros). Errors for rows of the wrong length, a
    /// non-positive denominator or a division that uses its own or a later
    /// local.
    pub fn from_parts(space: Space, divs: Vec<Div>, num: Row, den: Int) -> Result<Aff> {
        if !space.is_set() {
            return Err(Error::Invalid(
                "the domain space of an affine expression must be a set space".into(),
            ));
        }
        let nv = 1 + space.n_var();
        let n_col = nv + divs.len();
        let mut ds = Vec::with_capacity(divs.len());
        for (k, mut d) in divs.into_iter().enumerate() {
            if d.num.len() > n_col
                || d.num[(nv + k).min(d.num.len())..]
                    .iter()
                    .any(|v| !v.is_zero())
            {
                return Err(Error::Invalid(format!(
                    "division {k} uses its own or a later local, or has too many columns"
                )));
            }
            if !d.den.is_positive() {
                return Err(Error::Invalid(format!(
                    "division {k} needs a positive denominator"
                )));
            }
            d.num.resize(n_col, Int::ZERO);
            ds.push(d);
        }
        if num.len() != n_col {
            return Err(Error::Invalid(format!(
                "the numerator has {} entries, the expression has {n_col} columns",
                num.len()
            )));
        }
        if den.is_zero() {
            return Err(Error::Invalid(
                "the denominator of an affine expression must not be zero".into(),
            ));
        }
        let mut a = Aff {
            space,
            divs: ds,
            num,
            den,
        };
        a.normalize();
        a.simplify_divs();
        debug_assert!(a.check_invariants().is_ok());
        Ok(a)
    }

    /// The integer affine expression `row·(1, params, dims)` over the set
    /// space `space` (no divisions, denominator 1).
    pub fn from_row(space: Space, row: Row) -> Result<Aff> {
        Aff::from_parts(space, Vec::new(), row, Int::ONE)
    }

    /// The constant `value` on the set space `space` (isl's `isl_aff_val_on_domain`).
    #[doc(alias = "isl_aff_val_on_domain")]
    pub fn constant(space: Space, value: impl Into<Int>) -> Result<Aff> {
        let mut row = vec![Int::ZERO; 1 + space.n_var()];
        row[0] = value.into();
        Aff::from_row(space, row)
    }

    /// The variable `pos` of `kind` (`DimKind::Param` or `DimKind::SET`) of the
    /// set space `space` (isl's `isl_aff_var_on_domain`).
    ///
    /// ```
    /// use presburger::{Aff, DimKind, Int, Space, Tuple};
    /// let sp = Space::set(vec!["N".into()], Tuple::new(None, &["i", "j"]));
    /// let j = Aff::var_on_domain(sp, DimKind::SET, 1)?;
    /// assert_eq!(j.eval(&[Int::from(9), Int::from(1), Int::from(2)])?, Int::from(2).into());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_aff_var_on_domain")]
    pub fn var_on_domain(space: Space, kind: DimKind, pos: usize) -> Result<Aff> {
        if !space.is_set() || !matches!(kind, DimKind::Param | DimKind::Out) {
            return Err(Error::Invalid(
                "var_on_domain needs a set space and a parameter or set dimension".into(),
            ));
        }
        space.check_range(kind, pos, 1)?;
        let mut row = vec![Int::ZERO; 1 + space.n_var()];
        row[space.offset(kind) + pos] = Int::ONE;
        Aff::from_row(space, row)
    }

    /// The domain space (a set space).
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The division locals.
    pub fn divs(&self) -> &[Div] {
        &self.divs
    }

    /// The numerator row (see the type's documentation for the columns).
    pub fn numerator(&self) -> &Row {
        &self.num
    }

    /// The (positive) denominator.
    pub fn denominator(&self) -> &Int {
        &self.den
    }

    /// Structural equality: the same space, divisions and rows (equal
    /// expressions written differently may compare unequal).
    pub fn plain_is_equal(&self, other: &Aff) -> bool {
        self.space.is_same(&other.space)
            && self.divs == other.divs
            && self.num == other.num
            && self.den == other.den
    }

    /// True when the denominator is 1 (the value is an integer everywhere).
    pub fn is_integral(&self) -> bool {
        self.den.is_one()
    }

    /// Number of columns of the rows.
    pub(crate) fn n_col(&self) -> usize {
        1 + self.space.n_var() + self.divs.len()
    }

    /// Checks the invariants stated on the type; `Err` names the broken one.
    pub fn check_invariants(&self) -> Result<()> {
        let bad = |m: &str| Err(Error::Invalid(format!("Aff invariant: {m}")));
        if !self.space.is_set() {
            return bad("domain space is not a set space");
        }
        let nv = 1 + self.space.n_var();
        let n = self.n_col();
        if self.num.len() != n {
            return bad("numerator length");
        }
        for (k, d) in self.divs.iter().enumerate() {
            if d.num.len() != n || d.num[nv + k..].iter().any(|v| !v.is_zero()) {
                return bad("division row");
            }
            if !d.den.is_positive() {
                return bad("division denominator");
            }
        }
        if !self.den.is_positive() {
            return bad("denominator not positive");
        }
        let g = self.num.iter().fold(self.den.clone(), |g, v| g.gcd(v));
        if !g.is_one() {
            return bad("numerator and denominator not in lowest terms");
        }
        Ok(())
    }

    /// Makes the denominator positive and divides by the gcd of the
    /// numerator's entries and the denominator.
    pub(crate) fn normalize(&mut self) {
        if self.den.is_negative() {
            self.den = -&self.den;
            for v in &mut self.num {
                *v = -&*v;
            }
        }
        let g = self.num.iter().fold(self.den.clone(), |g, v| g.gcd(v));
        if !g.is_one() && !g.is_zero() {
            self.den = self.den.exact_div(&g);
            for v in &mut self.num {
                *v = v.exact_div(&g);
            }
        }
        debug_assert!(self.den.is_positive());
    }

    /// The value at `point`: the parameters followed by the domain
    /// dimensions. Each division is evaluated in order, then the expression;
    /// exact, a [`Rational`] (an integer for an integral expression).
    ///
    /// ```
    /// use presburger::{Aff, Int};
    /// let f: Aff = "{ [i] -> [(i)/2] }".parse()?;
    /// let v = f.eval(&[Int::from(3)])?;
    /// assert_eq!((v.numer().clone(), v.denom().clone()), (Int::from(3), Int::from(2)));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_aff_eval")]
    pub fn eval(&self, point: &[Int]) -> Result<Rational> {
        if point.len() != self.space.n_var() {
            return Err(Error::Invalid(format!(
                "the point has {} coordinates, the domain has {} parameters and dimensions",
                point.len(),
                self.space.n_var()
            )));
        }
        let vals = self.local_values(point);
        let v = Conjunction::eval_row(&self.num, &vals);
        Ok(Rational::new(v, self.den.clone()))
    }

    /// The point followed by the values of the divisions.
    pub(crate) fn local_values(&self, point: &[Int]) -> Vec<Int> {
        let mut vals = point.to_vec();
        for d in &self.divs {
            let v = Conjunction::eval_row(&d.num, &vals);
            vals.push(v.floor_div(&d.den));
        }
        vals
    }

    /// `self + other` (isl's `isl_aff_add`): same domain tuple, parameters
    /// aligned by name.
    #[doc(alias = "isl_aff_add")]
    pub fn add(&self, other: &Aff) -> Result<Aff> {
        self.combine(other, &Int::ONE, &Int::ONE)
    }

    /// `self - other` (isl's `isl_aff_sub`).
    #[doc(alias = "isl_aff_sub")]
    pub fn sub(&self, other: &Aff) -> Result<Aff> {
        self.combine(other, &Int::ONE, &Int::from(-1))
    }

    /// `-self` (isl's `isl_aff_neg`).
    #[doc(alias = "isl_aff_neg")]
    pub fn neg(&self) -> Aff {
        let mut a = self.clone();
        for v in &mut a.num {
            *v = -&*v;
        }
        a
    }

    /// `self · k` for an integer `k` (isl's `isl_aff_scale`).
    #[doc(alias = "isl_aff_scale")]
    pub fn scale(&self, k: &Int) -> Aff {
        self.scale_rational(&Rational::from(k.clone()))
    }

    /// `self · q` for a rational `q` (isl's `isl_aff_scale_val` with a
    /// rational value; `isl_aff_scale_down_val` is the scaling by `1/d`).
    #[doc(alias = "isl_aff_scale_val")]
    pub fn scale_rational(&self, q: &Rational) -> Aff {
        let mut a = self.clone();
        if q.numer().is_zero() {
            a.divs.clear();
            a.num = vec![Int::ZERO; 1 + a.space.n_var()];
            a.den = Int::ONE;
            return a;
        }
        for v in &mut a.num {
            *v = &*v * q.numer();
        }
        a.den = &a.den * q.denom();
        a.normalize();
        a
    }

    /// `floor(self)` (isl's `isl_aff_floor`): the expression itself when it
    /// is integral, a new division local otherwise.
    #[doc(alias = "isl_aff_floor")]
    pub fn floor(&self) -> Aff {
        if self.den.is_one() {
            return self.clone();
        }
        let mut a = self.clone();
        let col = a.push_div(Div {
            num: self.num.clone(),
            den: self.den.clone(),
        });
        a.num = vec![Int::ZERO; a.n_col()];
        a.num[col] = Int::ONE;
        a.den = Int::ONE;
        a.simplify_divs();
        a
    }

    /// The same expression over the parameters `params`, which contain those
    /// of the domain space.
    pub(crate) fn align_params(&self, params: &[String]) -> Aff {
        if self.space.params() == params {
            return self.clone();
        }
        let old = self.space.params();
        let np = params.len();
        let colmap: Vec<usize> = (0..self.n_col())
            .map(|c| {
                if c == 0 {
                    0
                } else if c <= old.len() {
                    1 + params.iter().position(|q| *q == old[c - 1]).unwrap_or(0)
                } else {
                    c - old.len() + np
                }
            })
            .collect();
        let n = self.n_col() - old.len() + np;
        let map = |r: &Row| {
            let mut out = vec![Int::ZERO; n];
            for (c, v) in r.iter().enumerate() {
                out[colmap[c]] = v.clone();
            }
            out
        };
        Aff {
            space: self.space.with_params(params.to_vec()),
            divs: self
                .divs
                .iter()
                .map(|d| Div {
                    num: map(&d.num),
                    den: d.den.clone(),
                })
                .collect(),
            num: map(&self.num),
            den: self.den.clone(),
        }
    }
}

impl MultiAff {
    /// The function from the domain tuple of the map space `space` to its
    /// range tuple whose range dimension `k` is `affs[k]` (each over the
    /// domain space of `space`, with the same parameters). For a set space
    /// `space`, a function of the parameters only into its tuple (the
    /// expressions are over the parameter space).
    pub fn from_affs(space: Space, affs: Vec<Aff>) -> Result<MultiAff> {
        let dom = domain_of(&space);
        if affs.len() != space.n_out() {
            return Err(Error::Invalid(format!(
                "{} expressions for a range of {} dimensions",
                affs.len(),
                space.n_out()
            )));
        }
        if let Some(a) = affs.iter().find(|a| !a.space.is_same(&dom)) {
            return Err(Error::SpaceMismatch(format!(
                "an expression lives in {}, not in the domain {}",
                a.space.tuple_key(),
                dom.tuple_key()
            )));
        }
        Ok(MultiAff { space, affs })
    }

    /// The identity on the set space `space` (isl's `isl_multi_aff_identity`
    /// on a set space): the range tuple is a copy of the domain tuple.
    #[doc(alias = "isl_multi_aff_identity")]
    pub fn identity(space: &Space) -> Result<MultiAff> {
        if !space.is_set() {
            return Err(Error::Invalid("identity needs a set space".into()));
        }
        let affs = (0..space.n_out())
            .map(|k| Aff::var_on_domain(space.clone(), DimKind::Out, k))
            .collect::<Result<Vec<_>>>()?;
        let sp = Space::map(
            space.params().to_vec(),
            space.range_tuple().clone(),
            space.range_tuple().clone(),
        );
        MultiAff::from_affs(sp, affs)
    }

    /// The space: a map space (domain tuple -> range tuple), or the set
    /// space of the range for a function of the parameters only.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The domain space (a set space; the parameter space for a function of
    /// the parameters only).
    pub fn domain_space(&self) -> Space {
        domain_of(&self.space)
    }

    /// The expressions, one per range dimension.
    pub fn affs(&self) -> &[Aff] {
        &self.affs
    }

    /// Structural equality, expression by expression.
    pub fn plain_is_equal(&self, other: &MultiAff) -> bool {
        self.space.is_same(&other.space)
            && self.affs.len() == other.affs.len()
            && self
                .affs
                .iter()
                .zip(&other.affs)
                .all(|(a, b)| a.plain_is_equal(b))
    }

    /// The value at `point` (parameters, then domain dimensions).
    pub fn eval(&self, point: &[Int]) -> Result<Vec<Rational>> {
        self.affs.iter().map(|a| a.eval(point)).collect()
    }

    /// Checks the invariants: one expression per range
    /// dimension, each over the domain space and valid.
    pub fn check_invariants(&self) -> Result<()> {
        let dom = domain_of(&self.space);
        if self.affs.len() != self.space.n_out() {
            return Err(Error::Invalid("MultiAff invariant: space or length".into()));
        }
        for a in &self.affs {
            if !a.space.is_same(&dom) {
                return Err(Error::Invalid("MultiAff invariant: aff space".into()));
            }
            a.check_invariants()?;
        }
        Ok(())
    }

    /// The same function over the parameters `params` (containing its own).
    pub(crate) fn align_params(&self, params: &[String]) -> MultiAff {
        MultiAff {
            space: self.space.with_params(params.to_vec()),
            affs: self.affs.iter().map(|a| a.align_params(params)).collect(),
        }
    }
}

/// The space of a function from the domain tuple `domain` (or from the
/// parameters only, for `None`: then a set space of the range, as isl's
/// `[N] -> { [(N)] }`) to `range`.
pub(crate) fn fn_space(params: Vec<String>, domain: Option<Tuple>, range: Tuple) -> Space {
    match domain {
        Some(d) => Space::map(params, d, range),
        None => Space::set(params, range),
    }
}

/// The map space of the graph of a function in `space` (a function of the
/// parameters gets a zero-dimensional domain tuple).
pub(crate) fn graph_space(space: &Space) -> Space {
    Space::map(
        space.params().to_vec(),
        space
            .domain_tuple()
            .cloned()
            .unwrap_or_else(|| Tuple::anonymous(0)),
        space.range_tuple().clone(),
    )
}

/// The domain space of a function's space: its domain tuple, or the
/// parameter space for a function of the parameters only.
pub(crate) fn domain_of(space: &Space) -> Space {
    space
        .domain_space()
        .unwrap_or_else(|| Space::set(space.params().to_vec(), Tuple::anonymous(0)))
}
