//! Rational sets: finite unions of rational polyhedra (isl's `rat:` sets).
//!
//! A [`RationalSet`] is a separate type from [`Set`] on purpose: every
//! algorithm of `Set` reasons about integer points (gcd tightening of
//! constraints, Gomory cuts, the Omega test, ...), and none of them may ever
//! see a rational set. The algorithms here work on rational points only, with
//! the exact rational simplex of [`crate::lp`] and Fourier–Motzkin
//! elimination ([`crate::elimination::fm_pair`], exact over the rationals).

use crate::api::{Set, merged_params};
use crate::conjunction::{Conjunction, Row};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::lp::{LpResult, Rational};
use crate::ops::rational::*;
use crate::space::{Space, Tuple};
use std::fmt;
use std::str::FromStr;

/// Most rows a Fourier–Motzkin elimination of an existential may make in one
/// disjunct before it gives up (the pairs of bounds multiply).
pub const MAX_RATIONAL_FM_ROWS: usize = 4096;

/// A finite union of rational polyhedra over a set space with parameters:
/// isl's rational sets, written `{ rat: [i] : 1 <= 2i <= 9 }`. Its points are
/// all the *rational* vectors (parameters and dimensions alike rational) that
/// satisfy one of its disjuncts, unlike a [`Set`], whose points are integer.
///
/// ```
/// use presburger::RationalSet;
/// let s: RationalSet = "{ rat: [i] : 1 <= 2i <= 9 or i >= 10 }".parse()?;
/// // the least rational point is 1/2 (the integer one would be 1)
/// assert_eq!(s.lexmin()?.to_string(), "{ rat: [i] : 2i = 1 }");
/// // the set has no greatest point
/// assert!(matches!(s.lexmax(), Err(presburger::Error::Unbounded(_))));
/// // rational emptiness: 2i = 1 has a rational solution
/// let half: RationalSet = "{ rat: [i] : 2i = 1 }".parse()?;
/// assert!(!half.is_empty()?);
/// assert!(half.is_subset(&s)?);
/// // `exists` is eliminated exactly (Fourier–Motzkin)
/// let p: RationalSet = "{ rat: [i, j] : exists e : i = 2e and 0 <= e <= j }".parse()?;
/// let q: RationalSet = "{ rat: [i, j] : 0 <= i <= 2j }".parse()?;
/// assert!(p.is_equal(&q)?);
/// // an integer Set does not read `rat:`
/// assert!("{ rat: [i] : i >= 0 }".parse::<presburger::Set>().is_err());
/// # Ok::<(), presburger::Error>(())
/// ```
///
/// # Invariants
///
/// Checked by [`RationalSet::check_invariants`]:
/// - the space is a set space (no domain tuple);
/// - every disjunct is a [`Conjunction`] in exactly that space, with no local
///   variable, and every row has `1 + n_var` entries (constant, parameters,
///   dimensions);
/// - every row is *primitive* (the gcd of all its entries, the constant
///   included, is 1: dividing by it is exact over the rationals, unlike the
///   integer tightening of `Set`), and has a non-zero coefficient (constant
///   rows are decided when the set is built: a true one is dropped, a false
///   one drops its disjunct);
/// - an equality's last non-zero coefficient is positive, and no row appears
///   twice in a disjunct.
///
/// A disjunct may still be empty (rationally infeasible) without being
/// visibly so; [`RationalSet::is_empty`] decides.
///
/// Strict comparisons in the text follow isl's (and the integer parser's)
/// reading, even in a rational set: `i > 0` is `i >= 1`, `i != 0` is
/// `i <= -1 or i >= 1`. The printer writes no strict comparison.
#[derive(Debug, Clone)]
pub struct RationalSet {
    space: Space,
    parts: Vec<Conjunction>,
}

impl RationalSet {
    /// The empty rational set in `space` (a set space).
    pub fn empty(space: Space) -> Result<RationalSet> {
        Self::check_space(&space)?;
        Ok(RationalSet {
            space,
            parts: Vec::new(),
        })
    }

    /// Every rational point of `space` (a set space).
    pub fn universe(space: Space) -> Result<RationalSet> {
        Self::check_space(&space)?;
        Ok(RationalSet {
            parts: vec![Conjunction::universe(space.clone())],
            space,
        })
    }

    fn check_space(space: &Space) -> Result<()> {
        if !space.is_set() {
            return Err(Error::Unsupported(
                "a rational set is a set: rational maps are not supported".into(),
            ));
        }
        Ok(())
    }

    /// The rational set of the given disjuncts (conjunctions in `space`, maybe
    /// with locals, which are existentially quantified and eliminated by
    /// Fourier–Motzkin; a local with a division definition is refused).
    pub(crate) fn from_conjunctions(space: Space, parts: Vec<Conjunction>) -> Result<RationalSet> {
        Self::check_space(&space)?;
        let nv = space.n_var();
        let mut out = Vec::with_capacity(parts.len());
        for c in parts {
            if c.space.n_var() != nv {
                return Err(Error::SpaceMismatch(format!(
                    "a disjunct of {} variables in a rational set of {nv}",
                    c.space.n_var()
                )));
            }
            if c.divs.iter().any(Option::is_some) {
                return Err(Error::Unsupported(
                    "an integer division in a rational set: it has no rational meaning".into(),
                ));
            }
            let n_local = c.divs.len();
            let (eqs, ineqs) = eliminate_columns(c.eqs, c.ineqs, 1 + nv, n_local)?;
            let c = Conjunction {
                space: space.clone(),
                divs: Vec::new(),
                eqs,
                ineqs,
            };
            if let Some(c) = rational_normalize(c) {
                out.push(c);
            }
        }
        let mut s = RationalSet { space, parts: out };
        s.dedup();
        Ok(s)
    }

    /// Drops repeated disjuncts, and all but one when one is the universe.
    fn dedup(&mut self) {
        if let Some(u) = self
            .parts
            .iter()
            .position(|c| c.eqs.is_empty() && c.ineqs.is_empty())
        {
            let u = self.parts.swap_remove(u);
            self.parts = vec![u];
            return;
        }
        let mut kept: Vec<Conjunction> = Vec::with_capacity(self.parts.len());
        for p in self.parts.drain(..) {
            if !kept.iter().any(|k| k.eqs == p.eqs && k.ineqs == p.ineqs) {
                kept.push(p);
            }
        }
        self.parts = kept;
    }

    /// Checks the invariants stated on the type; an `Err` names the first one
    /// broken (for tests: every public constructor and operation keeps them).
    pub fn check_invariants(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Invalid(format!("rational set invariant: {m}")));
        if !self.space.is_set() {
            return bad("not a set space".into());
        }
        let n = 1 + self.space.n_var();
        for (k, c) in self.parts.iter().enumerate() {
            if !c.space.same_tuples(&self.space) || c.space.params() != self.space.params() {
                return bad(format!("disjunct {k} is in another space"));
            }
            if !c.divs.is_empty() {
                return bad(format!("disjunct {k} has locals"));
            }
            for (eq, rows) in [(true, &c.eqs), (false, &c.ineqs)] {
                for (i, r) in rows.iter().enumerate() {
                    if r.len() != n {
                        return bad(format!("disjunct {k}: row of {} entries", r.len()));
                    }
                    let mut x = r.clone();
                    if normalize_rational_row(&mut x, eq).is_some() || x != *r {
                        return bad(format!("disjunct {k}: row {r:?} is not normalized"));
                    }
                    if rows[..i].contains(r) {
                        return bad(format!("disjunct {k}: row {r:?} twice"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The space (a set space, with the parameters).
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The number of disjuncts (rational polyhedra) of the union.
    pub fn n_disjunct(&self) -> usize {
        self.parts.len()
    }

    /// The disjuncts, as conjunctions without locals: a row `r` states
    /// `r·(1, params, dims) >= 0` (an inequality) or `= 0` over the rationals.
    pub fn disjuncts(&self) -> &[Conjunction] {
        &self.parts
    }

    /// The rational relaxation of an integer set: the rational points of the
    /// constraints that `s` holds (so it depends on how `s` is written: the
    /// integer simplification may have tightened `2i >= 1` to `i >= 1`).
    /// Sets with local variables (existentials, divisions) are refused.
    pub fn from_set(s: &Set) -> Result<RationalSet> {
        if s.0.parts.iter().any(|c| c.n_local() > 0) {
            return Err(Error::Unsupported(
                "the rational relaxation of a set with local variables (existentials or \
                 divisions) is not supported"
                    .into(),
            ));
        }
        RationalSet::from_conjunctions(s.0.space.clone(), s.0.parts.clone())
    }

    /// Both sets over the union of their parameter lists (this one's first).
    fn aligned(&self, other: &RationalSet, what: &str) -> Result<(RationalSet, RationalSet)> {
        if !self.space.same_tuples(&other.space) {
            return Err(Error::SpaceMismatch(format!(
                "{what} of rational sets in different spaces ({} and {})",
                self.space.tuple_key(),
                other.space.tuple_key()
            )));
        }
        let params = merged_params(self.space.params(), other.space.params());
        let align = |s: &RationalSet| RationalSet {
            space: s.space.with_params(params.clone()),
            parts: s.parts.iter().map(|c| c.align_params(&params)).collect(),
        };
        Ok((align(self), align(other)))
    }

    /// True when the set has no rational point: every disjunct is infeasible
    /// for the exact rational simplex.
    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.parts.iter().all(|c| lp_of(c).is_empty()))
    }

    /// The intersection (disjunct by disjunct), over both parameter lists.
    pub fn intersect(&self, other: &RationalSet) -> Result<RationalSet> {
        let (a, b) = self.aligned(other, "intersection")?;
        let mut parts = Vec::with_capacity(a.parts.len() * b.parts.len());
        for x in &a.parts {
            for y in &b.parts {
                let mut c = x.clone();
                c.eqs.extend(y.eqs.iter().cloned());
                c.ineqs.extend(y.ineqs.iter().cloned());
                parts.push(c);
            }
        }
        RationalSet::from_conjunctions(a.space, parts)
    }

    /// The union, over both parameter lists.
    pub fn union(&self, other: &RationalSet) -> Result<RationalSet> {
        let (mut a, b) = self.aligned(other, "union")?;
        a.parts.extend(b.parts);
        a.dedup();
        Ok(a)
    }

    /// True when every rational point of `self` is in `other`.
    ///
    /// `P ⊆ Q` iff `P ∩ complement(Q)` has no rational point. The complement
    /// of a disjunct of `Q` is a union of *strict* inequalities (`c < 0` for
    /// a constraint `c >= 0`), so each disjunct of `P` is split by the
    /// constraints of `Q`'s disjuncts in turn (`covered`), and each piece is
    /// tested for a rational point with its strict rows by one LP that
    /// maximises a common slack (`feasible_with_strict`). Exact;
    /// [`Error::Budget`] after a million LPs (the pieces multiply with the
    /// disjuncts of `other`).
    pub fn is_subset(&self, other: &RationalSet) -> Result<bool> {
        let (a, b) = self.aligned(other, "inclusion")?;
        let mut budget = MAX_INCLUSION_LPS;
        for p in &a.parts {
            if !covered(p, &mut Vec::new(), &b.parts, &mut budget)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// True when both sets have the same rational points (each is a subset of
    /// the other, [`RationalSet::is_subset`]).
    pub fn is_equal(&self, other: &RationalSet) -> Result<bool> {
        Ok(self.is_subset(other)? && other.is_subset(self)?)
    }

    /// The lexicographically smallest rational point, as a rational set of at
    /// most one point (empty for an empty set); isl's `isl_set_lexmin` on a
    /// rational set. [`Error::Unbounded`] when there is no least point.
    ///
    /// For a set without parameters: in each disjunct, the exact rational
    /// simplex minimises the first dimension, fixes it at its minimum,
    /// minimises the second, and so on ([`crate::lp::LinearProgram::lexmin`]); the
    /// answer is the smallest of the disjuncts' optima. A disjunct unbounded
    /// below in the first dimension where it is unbounded makes the union
    /// unbounded too (a set with a smaller point than any bound has no least
    /// point).
    ///
    /// With parameters (rational too), the answer is the graph of the
    /// optimum as a function of the parameters, a union of pieces
    /// `{ rat: [i] : 2i = N and N <= 10 }` (closed pieces that overlap only
    /// where they agree), computed by a parametric Fourier–Motzkin
    /// (`param_lexmin` in this file) when the set has one non-empty disjunct;
    /// [`Error::Unbounded`] when some parameter value with a point has no
    /// optimum. A union of several non-empty disjuncts with parameters gives
    /// [`Error::Unsupported`]: its optimum can be a set that is not closed
    /// (`[p] -> { rat: [x] : x = 0 or x = p }` has the minimum `p` for
    /// `p <= 0` and `0` for `p > 0`, strictly), which a union of closed
    /// rational polyhedra cannot hold. isl 0.25 splits the parameters as
    /// integers there (`p >= 1` and `p <= 0`), so it answers only for integer
    /// parameter values.
    pub fn lexmin(&self) -> Result<RationalSet> {
        self.lexopt(false)
    }

    /// The lexicographically largest rational point (see
    /// [`RationalSet::lexmin`]); [`Error::Unbounded`] when there is none.
    pub fn lexmax(&self) -> Result<RationalSet> {
        self.lexopt(true)
    }

    fn lexopt(&self, maximize: bool) -> Result<RationalSet> {
        let np = self.space.n_param();
        let nv = self.space.n_var();
        if np > 0 {
            return self.param_lexopt(maximize);
        }
        let objs: Vec<Vec<Int>> = (0..nv)
            .map(|k| {
                let mut o = vec![Int::ZERO; 1 + nv];
                o[1 + k] = if maximize { -Int::ONE } else { Int::ONE };
                o
            })
            .collect();
        let mut best: Option<Vec<Rational>> = None;
        for c in &self.parts {
            let mut lp = lp_of(c);
            match lp.lexmin(&objs) {
                LpResult::Empty => {}
                LpResult::Unbounded => {
                    return Err(Error::Unbounded(format!(
                        "the rational set has no lexicographically {} point",
                        if maximize { "largest" } else { "smallest" }
                    )));
                }
                LpResult::Optimum { point, .. } => {
                    let better = match &best {
                        None => true,
                        Some(b) => {
                            if maximize {
                                point > *b
                            } else {
                                point < *b
                            }
                        }
                    };
                    if better {
                        best = Some(point);
                    }
                }
            }
        }
        let Some(point) = best else {
            return RationalSet::empty(self.space.clone());
        };
        let mut c = Conjunction::universe(self.space.clone());
        for (k, v) in point.iter().enumerate() {
            // den·x_k - num = 0
            let mut e = vec![Int::ZERO; 1 + nv];
            e[0] = -v.numer();
            e[1 + k] = v.denom().clone();
            c.eqs.push(e);
        }
        RationalSet::from_conjunctions(self.space.clone(), vec![c])
    }
}

impl RationalSet {
    /// The algorithm of [`RationalSet::lexmin`] and `lexmax` with parameters:
    /// [`param_lexmin`] on the one non-empty disjunct (the dimensions
    /// negated for a maximum).
    fn param_lexopt(&self, maximize: bool) -> Result<RationalSet> {
        let np = self.space.n_param();
        let n = self.space.n_var() - np;
        let nonempty: Vec<&Conjunction> =
            self.parts.iter().filter(|c| !lp_of(c).is_empty()).collect();
        let c = match nonempty.as_slice() {
            [] => return RationalSet::empty(self.space.clone()),
            [c] => *c,
            _ => {
                return Err(Error::Unsupported(
                    "the parametric rational optimum of a union of several polyhedra is not \
                     supported (it can be a set that is not closed, which a RationalSet of \
                     closed polyhedra cannot hold)"
                        .into(),
                ));
            }
        };
        let orient = |r: &Row| -> Row {
            let mut r = r.clone();
            if maximize {
                for v in &mut r[1 + np..] {
                    *v = -&*v;
                }
            }
            r
        };
        let mut pieces = Vec::new();
        param_lexmin(
            ParamLevel {
                np,
                n,
                eqs: c.eqs.iter().map(orient).collect(),
                ineqs: c.ineqs.iter().map(orient).collect(),
                ctx_eqs: Vec::new(),
                ctx_ineqs: Vec::new(),
                fixed: Vec::new(),
                k: 0,
            },
            &mut pieces,
            &self.space,
        )?;
        for p in &mut pieces {
            p.eqs = p.eqs.iter().map(orient).collect();
            p.ineqs = p.ineqs.iter().map(orient).collect();
        }
        RationalSet::from_conjunctions(self.space.clone(), pieces)
    }
}

impl Set {
    /// The rational relaxation of the set ([`RationalSet::from_set`]).
    pub fn to_rational(&self) -> Result<RationalSet> {
        RationalSet::from_set(self)
    }
}

impl TryFrom<&Set> for RationalSet {
    type Error = Error;
    fn try_from(s: &Set) -> Result<RationalSet> {
        RationalSet::from_set(s)
    }
}

impl fmt::Display for RationalSet {
    /// isl's notation for rational sets: `{ rat: [i] : 2i = 1 }`, with
    /// `rat: ` before every piece, and `{ rat: [i] : false }` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::notation::print::fmt_object_as(
            f,
            self.space.params(),
            &[(&self.space, &self.parts)],
            true,
        )
    }
}

impl FromStr for RationalSet {
    type Err = Error;

    /// Reads isl's notation for a rational set: `[N] -> { rat: [i] : .. }`,
    /// every `;`-separated part starting with `rat:` and all in one space;
    /// `exists` is allowed (eliminated exactly), divisions (`floor`, `mod`,
    /// ...) are refused with their line and column. `{ }` is the empty set
    /// without dimensions.
    fn from_str(s: &str) -> Result<RationalSet> {
        let (params, parts) = crate::parse::parse_rational_parts(s)?;
        let mut space: Option<Space> = None;
        let mut conjs = Vec::new();
        for (sp, cs) in parts {
            match &space {
                None => space = Some(sp),
                Some(first) if first.same_tuples(&sp) => {}
                Some(first) => {
                    return Err(Error::Unsupported(format!(
                        "a rational set has one space: {} and {} (a union of rational sets \
                         across spaces is not supported)",
                        first.tuple_key(),
                        sp.tuple_key()
                    )));
                }
            }
            conjs.extend(cs);
        }
        let space = space.unwrap_or_else(|| Space::set(params, Tuple::anonymous(0)));
        RationalSet::from_conjunctions(space, conjs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Box as PBox, set_points};
    use proptest::prelude::*;

    fn rs(s: &str) -> RationalSet {
        let r: RationalSet = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
        r.check_invariants().unwrap();
        r
    }

    fn eq(a: &RationalSet, b: &str) -> bool {
        a.is_equal(&rs(b)).unwrap()
    }

    #[test]
    fn isl_lexmin_tests() {
        // lexmin_tests[7] and [8] of isl_test.c
        let a = rs("{ rat: [i] : 1 <= 2i <= 9 }");
        let m = a.lexmin().unwrap();
        m.check_invariants().unwrap();
        assert_eq!(m.to_string(), "{ rat: [i] : 2i = 1 }");
        assert!(eq(&a.lexmax().unwrap(), "{ rat: [i] : 2i = 9 }"));
        let b = rs("{ rat: [i] : 1 <= 2i <= 9 or i >= 10 }");
        assert!(eq(&b.lexmin().unwrap(), "{ rat: [i] : 2i = 1 }"));
        assert!(matches!(b.lexmax(), Err(Error::Unbounded(_))));
        let c = rs("{ rat: [i, j] : 0 <= i <= 3 and 3j >= i and 2j <= 5 }");
        assert_eq!(c.lexmin().unwrap().to_string(), "{ rat: [0, 0] }");
        assert_eq!(c.lexmax().unwrap().to_string(), "{ rat: [3, j] : 2j = 5 }");
        // empty: an empty answer in the same space
        let e = rs("{ rat: [i] : 2i >= 1 and 3i <= 1 }");
        assert!(e.is_empty().unwrap());
        let m = e.lexmin().unwrap();
        assert_eq!(m.n_disjunct(), 0);
        assert_eq!(m.to_string(), "{ rat: [i] : false }");
        assert!(rs(&m.to_string()).is_empty().unwrap());
    }

    #[test]
    fn parse_and_print() {
        for (text, printed) in [
            ("{ rat: [i] : 1 <= 2i <= 9 }", "{ rat: [i] : 1 <= 2i <= 9 }"),
            (
                "[N] -> { rat: [i] : 2i >= N }",
                "[N] -> { rat: [i] : 2i >= N }",
            ),
            (
                "{ rat: [i] : 2i >= 1 and 2i <= 1 }",
                "{ rat: [i] : 2i = 1 }",
            ),
            // strict comparisons as isl reads them, printed without `<`
            ("{ rat: [i] : 0 < i < 5 }", "{ rat: [i] : 1 <= i <= 4 }"),
            ("{ rat: [1] }", "{ rat: [1] }"),
            ("{ rat: A[] }", "{ rat: A[] }"),
            ("[N] -> { rat: : N >= 0 }", "[N] -> { rat: : N >= 0 }"),
            (
                "{ rat: [i] : 0 <= i <= 1; rat: [j] : j >= 5 }",
                "{ rat: [i] : (0 <= i <= 1) or (i >= 5) }",
            ),
        ] {
            let s = rs(text);
            assert_eq!(s.to_string(), printed, "{text}");
            assert!(s.is_equal(&rs(printed)).unwrap());
        }
        // no integer tightening: 2i >= 1 stays
        let s = rs("{ rat: [i] : 2i >= 1 }");
        assert!(!s.is_subset(&rs("{ rat: [i] : i >= 1 }")).unwrap());
        assert!(rs("{ rat: [i] : i >= 1 }").is_subset(&s).unwrap());
        // exists, eliminated by Fourier–Motzkin (isl's answer)
        let p = rs("{ rat: [i, j] : exists (e : j = 2e and 0 <= e <= i <= 3) }");
        assert_eq!(p.to_string(), "{ rat: [i, j] : 0 <= j <= 2i and i <= 3 }");
        assert!(eq(&p, "{ rat: [i, j] : i <= 3 and 0 <= j <= 2i }"));
        let q = rs("{ rat: [i] : exists (a, b : i = a + b and 0 <= 2a <= 1 and 0 <= 3b <= 1) }");
        assert!(eq(&q, "{ rat: [i] : 0 <= 6i <= 5 }"));
        assert!(rs("{ }").is_empty().unwrap());
        // a disjunct that inlining makes a false constant prints `false`
        let e = rs("{ rat: [i, j] : j = -i and 3i + 3j >= 1 and 0 <= i <= 1 }");
        assert!(e.to_string().contains("false"), "{e}");
        assert!(rs(&e.to_string()).is_empty().unwrap());
    }

    #[test]
    fn errors() {
        // floor and mod: a parse error at the division
        for (text, col) in [
            ("{ rat: [i] : i = floor(i/2) }", 18),
            ("{ rat: [i] : i mod 2 = 0 }", 16),
            ("{ rat: [i] : [i/2] >= 1 }", 14),
            ("{ rat: [i] : i // 2 >= 1 }", 16),
        ] {
            match text.parse::<RationalSet>() {
                Err(Error::Parse {
                    line,
                    column,
                    message,
                }) => {
                    assert_eq!((line, column), (1, col), "{text}: {message}");
                    assert!(message.contains("rational"), "{message}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        // an integer Set is told to use RationalSet
        let e = "{ rat: [i] : 0 <= i }".parse::<Set>().unwrap_err();
        assert!(
            matches!(
                e,
                Error::Parse {
                    line: 1,
                    column: 3,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("RationalSet"), "{e}");
        assert!("{ rat: [i] : 0 <= i }".parse::<crate::UnionSet>().is_err());
        assert!(crate::parse_object("{ rat: [i] }").is_err());
        // a part without rat:, a map, two spaces
        let e = "{ rat: [i] : i >= 0; [j] : j >= 1 }"
            .parse::<RationalSet>()
            .unwrap_err();
        assert!(
            matches!(
                e,
                Error::Parse {
                    line: 1,
                    column: 22,
                    ..
                }
            ),
            "{e}"
        );
        assert!("{ [i] : i >= 0 }".parse::<RationalSet>().is_err());
        assert!("{ rat: [i] -> [j] }".parse::<RationalSet>().is_err());
        assert!("{ rat: A[i]; rat: B[j] }".parse::<RationalSet>().is_err());
        // not an existential under a negation made a division
        assert!(
            "{ rat: [i] : not exists e : i = 2e }"
                .parse::<RationalSet>()
                .is_err()
        );
        // unbounded optima, parametric optima
        assert!(matches!(
            rs("{ rat: [i] : i <= 0 }").lexmin(),
            Err(Error::Unbounded(_))
        ));
        assert!(matches!(
            rs("{ rat: [i, j] : 0 <= i <= 1 }").lexmin(),
            Err(Error::Unbounded(_))
        ));
        assert_eq!(
            rs("[N] -> { rat: [i] : i >= N }")
                .lexmin()
                .unwrap()
                .to_string(),
            "[N] -> { rat: [N] }"
        );
        assert!(matches!(
            rs("[N] -> { rat: [i] : i >= N or i >= 0 }").lexmin(),
            Err(Error::Unsupported(_))
        ));
        // spaces must agree
        assert!(rs("{ rat: A[i] }").intersect(&rs("{ rat: B[i] }")).is_err());
        // a set with locals has no relaxation here
        let s: Set = "{ [i] : exists e : i = 2e }".parse().unwrap();
        assert!(s.to_rational().is_err());
    }

    #[test]
    fn set_operations() {
        let a = rs("{ rat: [i, j] : 0 <= i <= 2 and 0 <= j <= 2 }");
        let b = rs("{ rat: [i, j] : i + j >= 3 }");
        let c = a.intersect(&b).unwrap();
        c.check_invariants().unwrap();
        assert!(c.is_subset(&a).unwrap() && c.is_subset(&b).unwrap());
        assert!(!a.is_subset(&c).unwrap());
        // the union of the two halves of a is a
        let lo = rs("{ rat: [i, j] : 0 <= i <= 2 and 0 <= j <= 2 and i + j <= 3 }");
        let u = lo.union(&c).unwrap();
        u.check_invariants().unwrap();
        assert!(u.is_equal(&a).unwrap());
        // but with a gap (rationally: 3 < i + j < 4) it is not
        let hi = rs("{ rat: [i, j] : 0 <= i <= 2 and 0 <= j <= 2 and i + j >= 4 }");
        let lo3 = rs("{ rat: [i, j] : 0 <= i <= 2 and 0 <= j <= 2 and i + j <= 3 }");
        assert!(!a.is_subset(&lo3.union(&hi).unwrap()).unwrap());
        // parameters align by name and are rational too
        let p = rs("[N] -> { rat: [i] : 2i >= N }");
        let q = rs("[M, N] -> { rat: [i] : 2i <= N and i >= M }");
        let r = p.intersect(&q).unwrap();
        r.check_invariants().unwrap();
        assert_eq!(r.space().params(), &["N".to_string(), "M".to_string()][..]);
        assert!(eq(&r, "[N, M] -> { rat: [i] : 2i = N and 2M <= N }"));
        // the relaxation of an integer set
        let s: Set = "{ [i, j] : 0 <= i <= 3 and j = 2i }".parse().unwrap();
        let t = RationalSet::try_from(&s).unwrap();
        assert!(eq(&t, "{ rat: [i, j] : 0 <= i <= 3 and j = 2i }"));
        assert_eq!(t.lexmax().unwrap().to_string(), "{ rat: [3, 6] }");
    }

    /// A random bounded conjunction over `[i, j]` (within -5..=5), as the
    /// constraint text of both worlds.
    fn arb_constraints() -> impl Strategy<Value = String> {
        let con = (-3i64..=3, -3i64..=3, -6i64..=6, prop::bool::ANY).prop_map(|(a, b, c, eq)| {
            format!("{a}i + {b}j + {c} {} 0", if eq { "=" } else { ">=" })
        });
        prop::collection::vec(con, 0..4).prop_map(|cs| {
            let mut parts = vec!["-5 <= i <= 5".to_string(), "-5 <= j <= 5".to_string()];
            parts.extend(cs);
            parts.join(" and ")
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Against the integer world: an integer point is a rational point, so
        /// rational emptiness implies integer emptiness, the rational lexmin
        /// is at most the integer lexmin (and the lexmax at least the integer
        /// one), and the optimum lies in the set.
        #[test]
        fn against_integers(a in arb_constraints(), b in arb_constraints()) {
            let text = format!("{{ [i, j] : ({a}) or ({b}) }}");
            let int: Set = text.parse().unwrap();
            let rat = rs(&text.replace("{ [", "{ rat: ["));
            let pts = set_points(&int, &PBox::new(vec![], -6, 6));
            if rat.is_empty().unwrap() {
                prop_assert!(pts.is_empty());
                prop_assert_eq!(rat.lexmin().unwrap().n_disjunct(), 0);
                return Ok(());
            }
            for maximize in [false, true] {
                let m = if maximize { rat.lexmax() } else { rat.lexmin() }.unwrap();
                m.check_invariants().unwrap();
                prop_assert!(m.is_subset(&rat).unwrap());
                prop_assert_eq!(m.n_disjunct(), 1);
                // the point: every dimension fixed by an equality
                let c = &m.disjuncts()[0];
                prop_assert_eq!(c.eqs.len(), 2);
                prop_assert!(c.ineqs.is_empty());
                let val = |k: usize| -> Rational {
                    let e = c.eqs.iter().find(|e| !e[1 + k].is_zero()).unwrap();
                    Rational::new(-&e[0], e[1 + k].clone())
                };
                let p = vec![val(0), val(1)];
                let int_best = if maximize { pts.iter().max() } else { pts.iter().min() };
                if let Some(q) = int_best {
                    let q: Vec<Rational> = q.iter().map(|&v| Rational::from(v)).collect();
                    if maximize {
                        prop_assert!(p >= q);
                    } else {
                        prop_assert!(p <= q);
                    }
                }
            }
            // the integer relaxation of the disjuncts is the same set rationally
            // when the integer simplification did not tighten anything: at least
            // the rational set contains every integer point
            for q in &pts {
                let pt = rs(&format!("{{ rat: [{}, {}] }}", q[0], q[1]));
                prop_assert!(pt.is_subset(&rat).unwrap());
            }
        }

        /// Intersection, union and inclusion agree with each other.
        #[test]
        fn algebra(a in arb_constraints(), b in arb_constraints()) {
            let x = rs(&format!("{{ rat: [i, j] : {a} }}"));
            let y = rs(&format!("{{ rat: [i, j] : {b} }}"));
            let i = x.intersect(&y).unwrap();
            let u = x.union(&y).unwrap();
            i.check_invariants().unwrap();
            u.check_invariants().unwrap();
            prop_assert!(i.is_subset(&x).unwrap() && i.is_subset(&y).unwrap());
            prop_assert!(x.is_subset(&u).unwrap() && y.is_subset(&u).unwrap());
            prop_assert_eq!(x.is_subset(&y).unwrap(), i.is_equal(&x).unwrap());
            prop_assert_eq!(x.is_subset(&y).unwrap(), u.is_equal(&y).unwrap());
            let again = rs(&u.to_string());
            prop_assert!(again.is_equal(&u).unwrap(), "{} vs {}", again, u);
        }
    }
}

#[cfg(test)]
mod parametric_tests {
    use super::*;
    use proptest::prelude::*;

    fn rs(s: &str) -> RationalSet {
        let r: RationalSet = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
        r.check_invariants().unwrap();
        r
    }

    /// The set with its parameters fixed at `num[p] / den` (and dropped).
    fn fix_params(s: &RationalSet, num: &[i64], den: i64) -> RationalSet {
        let np = s.space.n_param();
        let space = Space::set(Vec::new(), s.space.range_tuple().clone());
        let d = Int::from(den);
        let fix = |r: &Row| -> Row {
            let mut c = &r[0] * &d;
            for p in 0..np {
                c += &r[1 + p] * &Int::from(num[p]);
            }
            let mut out = vec![c];
            out.extend(r[1 + np..].iter().map(|v| v * &d));
            out
        };
        let parts = s
            .parts
            .iter()
            .map(|c| Conjunction {
                space: space.clone(),
                divs: Vec::new(),
                eqs: c.eqs.iter().map(fix).collect(),
                ineqs: c.ineqs.iter().map(fix).collect(),
            })
            .collect();
        RationalSet::from_conjunctions(space, parts).unwrap()
    }

    #[test]
    fn parametric_examples() {
        let s = rs("[N] -> { rat: [i] : 2i >= N and 3i <= N + 5 }");
        let m = s.lexmin().unwrap();
        m.check_invariants().unwrap();
        assert!(
            m.is_equal(&rs("[N] -> { rat: [i] : 2i = N and N <= 10 }"))
                .unwrap()
        );
        let m = s.lexmax().unwrap();
        assert!(
            m.is_equal(&rs("[N] -> { rat: [i] : 3i = N + 5 and N <= 10 }"))
                .unwrap()
        );
        // two pieces, rational boundaries (isl leaves out -1 < p < 0)
        let s = rs("[p] -> { rat: [x, y] : x >= 0 and x >= p and y >= x - p and y >= -x }");
        let m = s.lexmin().unwrap();
        let want = rs("[p] -> { rat: [x, y] : (x = p and y = 0 and p >= 0) or \
                       (x = 0 and y = -p and p <= 0) }");
        assert!(m.is_equal(&want).unwrap(), "{m}");
        // a parameter set: its own optimum
        let s = rs("[N] -> { rat: : N >= 0 }");
        assert!(s.lexmin().unwrap().is_equal(&s).unwrap());
        // unbounded for some parameter values
        assert!(matches!(
            rs("[N] -> { rat: [i, j] : 0 <= i <= N and j <= i }").lexmin(),
            Err(Error::Unbounded(_))
        ));
        // unbounded nowhere it has a point
        let s = rs("[N] -> { rat: [i] : i <= 0 and N >= 1 and N <= 0 }");
        assert_eq!(s.lexmin().unwrap().n_disjunct(), 0);
        // a union with parameters
        assert!(matches!(
            rs("[p] -> { rat: [x] : x = 0 or x = p }").lexmin(),
            Err(Error::Unsupported(_))
        ));
    }

    /// A random polyhedron over `[N, M] -> [i, j]`, bounded in `i, j`.
    fn arb_param_set() -> impl Strategy<Value = String> {
        let con = (
            -3i64..=3,
            -3i64..=3,
            -2i64..=2,
            -2i64..=2,
            -6i64..=6,
            prop::bool::ANY,
        )
            .prop_map(|(a, b, n, m, c, eq)| {
                format!(
                    "{a}i + {b}j + {n}N + {m}M + {c} {} 0",
                    if eq { "=" } else { ">=" }
                )
            });
        prop::collection::vec(con, 0..4).prop_map(|cs| {
            let mut parts = vec![
                "-5 <= i <= 5".to_string(),
                "-5 <= j <= 5".to_string(),
                "-4 <= N <= 4".to_string(),
                "-4 <= M <= 4".to_string(),
            ];
            parts.extend(cs);
            format!("[N, M] -> {{ rat: [i, j] : {} }}", parts.join(" and "))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// The parametric optimum at a parameter value (integer or not) is the
        /// optimum of the set with the parameters fixed there.
        #[test]
        fn parametric_matches_fixed(
            text in arb_param_set(),
            vals in prop::collection::vec((-8i64..=8, -8i64..=8), 3),
            den in 1i64..=2,
        ) {
            let s = rs(&text);
            for maximize in [false, true] {
                let m = if maximize { s.lexmax() } else { s.lexmin() }.unwrap();
                m.check_invariants().unwrap();
                prop_assert!(m.is_subset(&s).unwrap());
                for &(n, mm) in &vals {
                    let fixed = fix_params(&s, &[n, mm], den);
                    let want = if maximize { fixed.lexmax() } else { fixed.lexmin() }.unwrap();
                    let got = fix_params(&m, &[n, mm], den);
                    prop_assert!(
                        got.is_equal(&want).unwrap(),
                        "at N = {n}/{den}, M = {mm}/{den}: {} vs {} (from {})", got, want, m
                    );
                }
            }
        }
    }
}
