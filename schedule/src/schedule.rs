//! Affine multi-dimensional schedules and the identity scheduler.
//!
//! A [`Schedule`] gives each statement `S` an affine function of its
//! iterators and the parameters per time dimension,
//! `θ_S^d(x) = c_d·x + e_d·p + k_d`, with integer coefficients; a dimension
//! whose coefficients on iterators and parameters are all zero is a *scalar*
//! dimension (it orders statements, like the even entries of the 2d+1 form).
//! All statements share one anonymous time space; [`Schedule::to_union_map`]
//! gives the schedule as `S[x] -> [θ_S(x)]`. Beside the functions it holds
//! the permutable *bands* (ranges of consecutive dimensions that can be
//! interchanged and tiled) and, per dimension, whether it is *parallel*
//! (carries no dependence).
//!
//! Parallelism is computed exactly ([`parallel_dims`]): the dependences are
//! mapped to pairs of times, `Sched_S^-1 ; D ; Sched_T`; dimension `d` is
//! parallel when no pair that is equal on every dimension before `d` (not
//! yet satisfied by an outer dimension) has different times at `d`.

use crate::deps::Dependences;
use crate::scop::Scop;
use presburger::build::{Constraint, Expr};
use presburger::{DimKind, Int, Map, Result, Space, Tuple, UnionMap};

/// The schedule of one statement.
#[derive(Clone, Debug)]
pub struct StatementSchedule {
    /// The statement's tuple (`S0` with its number of iterators).
    pub tuple: Tuple,
    /// The names of its iterators, outermost first (for printing).
    pub iterators: Vec<String>,
    /// One row per time dimension: the coefficients of the iterators, then
    /// of the parameters (in the order of [`Schedule::params`]), then the
    /// constant.
    pub rows: Vec<Vec<Int>>,
}

impl StatementSchedule {
    /// The statement's name (empty for an anonymous tuple).
    pub fn name(&self) -> &str {
        self.tuple.name.as_deref().unwrap_or("")
    }

    /// The number of iterators.
    pub fn n_iter(&self) -> usize {
        self.iterators.len()
    }

    /// The function as a map `S[x] -> [θ(x)]` over the parameters `params`.
    pub fn to_map(&self, params: &[String]) -> Result<Map> {
        let n = self.n_iter();
        let space = Space::map(
            params.to_vec(),
            self.tuple.clone(),
            Tuple::anonymous(self.rows.len()),
        );
        let mut cons: Vec<Constraint> = Vec::with_capacity(self.rows.len());
        for (d, row) in self.rows.iter().enumerate() {
            if row.len() != n + params.len() + 1 {
                return Err(presburger::Error::Invalid(format!(
                    "schedule row {d} of {} has {} entries, not {}",
                    self.name(),
                    row.len(),
                    n + params.len() + 1
                )));
            }
            let mut e = Expr::constant(row[n + params.len()].clone());
            for (k, c) in row[..n + params.len()].iter().enumerate() {
                if c.is_zero() {
                    continue;
                }
                let v = if k < n {
                    Expr::dim(DimKind::In, k)
                } else {
                    Expr::param(k - n)
                };
                e = &e + &v.scale(c);
            }
            cons.push(Expr::dim(DimKind::Out, d).eq(e));
        }
        Map::from_constraints(&space, cons)
    }

    /// The function in Pluto's style, `(t, t+i, 2t+i+j, 0)`: each
    /// dimension as an expression of the iterator and parameter names.
    pub fn describe(&self, params: &[String]) -> String {
        let n = self.n_iter();
        let names: Vec<&str> = self
            .iterators
            .iter()
            .map(String::as_str)
            .chain(params.iter().map(String::as_str))
            .collect();
        let dims: Vec<String> = self
            .rows
            .iter()
            .map(|row| {
                let mut s = String::new();
                for (k, c) in row.iter().enumerate() {
                    if c.is_zero() {
                        continue;
                    }
                    let last = k == n + params.len();
                    let mag = c.abs();
                    let sign = if c.is_negative() {
                        "-"
                    } else if s.is_empty() {
                        ""
                    } else {
                        "+"
                    };
                    s.push_str(sign);
                    if last {
                        s.push_str(&mag.to_string());
                    } else {
                        if !mag.is_one() {
                            s.push_str(&mag.to_string());
                        }
                        s.push_str(names.get(k).copied().unwrap_or("?"));
                    }
                }
                if s.is_empty() {
                    s.push('0');
                }
                s
            })
            .collect();
        format!("({})", dims.join(", "))
    }
}

/// A schedule of every statement of a SCoP, with its bands and parallel
/// dimensions (see the module doc).
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The parameters the rows refer to.
    pub params: Vec<String>,
    /// One schedule per statement, all with the same number of dimensions.
    pub statements: Vec<StatementSchedule>,
    /// The permutable bands, `(first, last)` dimensions inclusive,
    /// outermost first.
    pub bands: Vec<(usize, usize)>,
    /// Per dimension: true when it carries no dependence.
    pub parallel: Vec<bool>,
}

impl Schedule {
    /// The number of time dimensions.
    pub fn n_dims(&self) -> usize {
        self.statements.first().map_or(0, |s| s.rows.len())
    }

    /// The schedule as a union map from each statement's instances to the
    /// common time space.
    pub fn to_union_map(&self) -> Result<UnionMap> {
        let mut u = UnionMap::empty(self.params.clone());
        for s in &self.statements {
            u.add(s.to_map(&self.params)?)?;
        }
        Ok(u)
    }

    /// True when dimension `d` is scalar: every statement's time there is a
    /// constant (it only orders statements, like a loop distribution).
    pub fn is_scalar(&self, d: usize) -> bool {
        self.statements.iter().all(|st| {
            st.rows
                .get(d)
                .is_none_or(|r| r[..r.len() - 1].iter().all(Int::is_zero))
        })
    }

    /// The number of loops (non-scalar dimensions) of the outermost band:
    /// the band holding the first non-scalar dimension (a dimension in no
    /// band counts as a band of its own).
    pub fn outer_band_depth(&self) -> usize {
        let n = self.n_dims();
        let Some(f) = (0..n).find(|&d| !self.is_scalar(d)) else {
            return 0;
        };
        let (a, b) = self
            .bands
            .iter()
            .copied()
            .find(|&(a, b)| a <= f && f <= b)
            .unwrap_or((f, f));
        (a..=b).filter(|&d| !self.is_scalar(d)).count()
    }

    /// The number of loops (non-scalar dimensions) that carry no dependence.
    pub fn parallel_loops(&self) -> usize {
        (0..self.n_dims())
            .filter(|&d| self.parallel.get(d).copied().unwrap_or(false) && !self.is_scalar(d))
            .count()
    }

    /// The indices of the parallel dimensions.
    pub fn parallel_indices(&self) -> Vec<usize> {
        (0..self.parallel.len())
            .filter(|&d| self.parallel[d])
            .collect()
    }
}

/// The dependences `deps` (RAW, WAR, WAW) as pairs of times under `sched`:
/// the union of `Sched_S^-1 ; D ; Sched_T` over the relations `D: S -> T`,
/// one map on the time space of `n` dimensions, for the parameter values of
/// the context of `scop`.
pub fn time_pairs(scop: &Scop, deps: &Dependences, sched: &UnionMap, n: usize) -> Result<Map> {
    let mut params = deps.raw.params().to_vec();
    for p in sched.params() {
        if !params.contains(p) {
            params.push(p.clone());
        }
    }
    let t = Tuple::anonymous(n);
    let mut out = Map::empty(Space::map(params, t.clone(), t))?;
    let times =
        |m: &UnionMap| -> Result<UnionMap> { sched.reverse().apply_range(m)?.apply_range(sched) };
    for rel in [&deps.raw, &deps.war, &deps.waw] {
        for m in times(rel)?.members() {
            out = out.union(m)?;
        }
    }
    out.intersect_params(&scop.context)
}

/// Per dimension of `sched` (which has `n` dimensions): true when no
/// dependence pair of `deps` that is equal on the dimensions before it has
/// different times at it (see the module doc).
pub fn parallel_dims(
    scop: &Scop,
    deps: &Dependences,
    sched: &UnionMap,
    n: usize,
) -> Result<Vec<bool>> {
    let pairs = time_pairs(scop, deps, sched, n)?;
    let space = pairs.space().clone();
    let mut out = Vec::with_capacity(n);
    for d in 0..n {
        let mut carried = false;
        for step in [1i64, -1] {
            let mut cons: Vec<Constraint> = (0..d)
                .map(|k| Expr::dim(DimKind::In, k).eq(Expr::dim(DimKind::Out, k)))
                .collect();
            let diff = &Expr::dim(DimKind::Out, d) - &Expr::dim(DimKind::In, d);
            cons.push((step * diff).ge(1));
            let sel = Map::from_constraints(&space, cons)?;
            if !pairs.intersect(&sel)?.is_empty()? {
                carried = true;
                break;
            }
        }
        out.push(!carried);
    }
    Ok(out)
}

/// True when the dimensions `first..=last` of `sched` (which has `n`
/// dimensions) form a permutable band for `deps`: every dependence pair not
/// already ordered by a dimension before `first` has a non-negative distance
/// (target time minus source time) at each dimension of the band, so the
/// dimensions can be interchanged and tiled (the tiling validity condition);
/// for the parameter values of the context of `scop`.
pub fn band_is_permutable(
    scop: &Scop,
    deps: &Dependences,
    sched: &UnionMap,
    n: usize,
    first: usize,
    last: usize,
) -> Result<bool> {
    if last >= n || first > last {
        return Err(presburger::Error::Invalid(format!(
            "band {first}..{last} does not fit {n} dimensions"
        )));
    }
    let pairs = time_pairs(scop, deps, sched, n)?;
    let space = pairs.space().clone();
    for d in first..=last {
        let mut cons: Vec<Constraint> = (0..first)
            .map(|k| Expr::dim(DimKind::In, k).eq(Expr::dim(DimKind::Out, k)))
            .collect();
        cons.push(Expr::dim(DimKind::Out, d).lt(Expr::dim(DimKind::In, d)));
        if !pairs
            .intersect(&Map::from_constraints(&space, cons)?)?
            .is_empty()?
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The rows of the original 2d+1 schedule of each statement of `scop`
/// (the layout of [`StatementSchedule::rows`]): the textual positions as
/// constants at the even dimensions, each loop's iterator times its sign at
/// the odd ones, all statements padded to the same number of dimensions.
pub fn identity_rows(scop: &Scop) -> Vec<Vec<Vec<Int>>> {
    let n_out = scop
        .statements
        .iter()
        .map(|s| s.schedule.space().n_out())
        .max()
        .unwrap_or(1);
    let np = scop.params.len();
    scop.statements
        .iter()
        .map(|s| {
            let n = s.iterators.len();
            (0..n_out)
                .map(|t| {
                    let mut row = vec![Int::ZERO; n + np + 1];
                    if t % 2 == 0 {
                        row[n + np] = Int::from(s.positions.get(t / 2).copied().unwrap_or(0));
                    } else if t / 2 < n {
                        row[t / 2] = Int::from(s.signs.get(t / 2).copied().unwrap_or(1));
                    }
                    row
                })
                .collect()
        })
        .collect()
}

/// The identity scheduler: the original 2d+1 schedule of `scop` (scalar
/// dimensions at the even places, each loop's iterator, times its sign, at
/// the odd ones), each loop dimension a band of its own, and the parallel
/// dimensions computed from `deps`.
pub fn identity(scop: &Scop, deps: &Dependences) -> Result<Schedule> {
    let rows = identity_rows(scop);
    let n_out = rows.first().map_or(1, Vec::len);
    let statements = scop
        .statements
        .iter()
        .zip(rows)
        .map(|(s, rows)| StatementSchedule {
            tuple: s.domain.space().range_tuple().clone(),
            iterators: s.iterators.clone(),
            rows,
        })
        .collect();
    let max_depth = scop
        .statements
        .iter()
        .map(|s| s.iterators.len())
        .max()
        .unwrap_or(0);
    let mut sched = Schedule {
        params: scop.params.clone(),
        statements,
        bands: (0..max_depth).map(|k| (2 * k + 1, 2 * k + 1)).collect(),
        parallel: Vec::new(),
    };
    sched.parallel = parallel_dims(scop, deps, &sched.to_union_map()?, n_out)?;
    Ok(sched)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::{Options, extract_scop};
    use crate::deps::dependences;

    #[test]
    fn identity_of_a_stencil_and_its_parallel_loop() {
        // the outer loop carries the dependence, the inner one does not
        let src = "#pragma scop\nfor (t = 0; t < T; t++)\n  for (i = 0; i < n; i++)\n    B[t][i] = B[t - 1][i] + 1;\n#pragma endscop\n";
        let scop = extract_scop(src, &Options::default()).unwrap();
        let d = dependences(&scop).unwrap();
        let s = identity(&scop, &d).unwrap();
        assert!(
            s.to_union_map()
                .unwrap()
                .is_equal(&scop.schedule().unwrap())
                .unwrap()
        );
        assert_eq!(s.bands, vec![(1, 1), (3, 3)]);
        assert_eq!(s.parallel, vec![true, false, true, true, true]);
        assert_eq!(s.parallel_indices(), vec![0, 2, 3, 4]);
        assert_eq!(s.statements[0].describe(&s.params), "(0, t, 0, i, 0)");
    }

    #[test]
    fn describe_signs_and_constants() {
        let s = StatementSchedule {
            tuple: Tuple::named(Some("S0".into()), 2),
            iterators: vec!["t".into(), "i".into()],
            rows: vec![
                vec![2.into(), 1.into(), 0.into(), 1.into()],
                vec![(-1).into(), 0.into(), 1.into(), (-3).into()],
                vec![0.into(), 0.into(), 0.into(), 0.into()],
            ],
        };
        assert_eq!(s.describe(&["n".into()]), "(2t+i+1, -t+n-3, 0)");
    }
}
