//! Brute-force oracle for tests: the integer points of an object inside a box, for
//! fixed parameter values.
//!
//! Division locals are computed from their definitions; other locals (plain
//! existentials) are searched in `local_range`, so the oracle is exact for sets whose
//! existentials have a witness in that range (tests choose such sets: a local tied by
//! an equality to bounded dimensions, for instance). Available under `cfg(test)` and
//! with the `testing` feature, for other crates' tests.

use crate::api::{BasicMap, BasicSet, Map, Set};
use crate::conjunction::Conjunction;
use crate::int::Int;
use std::collections::BTreeSet;

/// Where to look for points.
#[derive(Debug, Clone)]
pub struct Box {
    /// Values of the parameters, in the object's parameter order.
    pub params: Vec<i64>,
    /// Every dimension ranges over `lo ..= hi`: the lowest value.
    pub lo: i64,
    /// The highest value of every dimension.
    pub hi: i64,
    /// Plain existentials are searched in this range.
    pub local_range: (i64, i64),
}

impl Box {
    /// A box `lo ..= hi` with the given parameter values, locals searched in
    /// `-4·max(|lo|,|hi|)-4 ..= 4·max(|lo|,|hi|)+4`.
    pub fn new(params: Vec<i64>, lo: i64, hi: i64) -> Box {
        let m = 4 * lo.abs().max(hi.abs()) + 4;
        Box {
            params,
            lo,
            hi,
            local_range: (-m, m),
        }
    }
}

/// True when the conjunction holds at `vals` (parameters then dimensions), for some
/// value of the locals (divisions computed, others searched in `local_range`).
pub fn conj_contains(c: &Conjunction, vals: &[i64], local_range: (i64, i64)) -> bool {
    let mut full: Vec<Int> = vals.iter().map(|&v| Int::from(v)).collect();
    full.resize(c.n_col() - 1, Int::ZERO);
    search_locals(c, &mut full, 0, local_range)
}

fn search_locals(c: &Conjunction, full: &mut Vec<Int>, l: usize, range: (i64, i64)) -> bool {
    let first = c.space().n_var();
    if l == c.n_local() {
        return c
            .equalities()
            .iter()
            .all(|r| Conjunction::eval_row(r, full).is_zero())
            && c.inequalities()
                .iter()
                .all(|r| !Conjunction::eval_row(r, full).is_negative());
    }
    match &c.divs()[l] {
        Some(d) => {
            full[first + l] = Conjunction::eval_row(&d.num, full).floor_div(&d.den);
            search_locals(c, full, l + 1, range)
        }
        None => (range.0..=range.1).any(|v| {
            full[first + l] = Int::from(v);
            search_locals(c, full, l + 1, range)
        }),
    }
}

fn points_of(parts: &[Conjunction], n_dim: usize, b: &Box) -> BTreeSet<Vec<i64>> {
    let mut out = BTreeSet::new();
    let mut point = vec![b.lo; n_dim];
    if b.lo > b.hi {
        return out;
    }
    loop {
        let mut vals = b.params.clone();
        vals.extend_from_slice(&point);
        if parts.iter().any(|c| conj_contains(c, &vals, b.local_range)) {
            out.insert(point.clone());
        }
        // next point in the box (odometer)
        let mut k = n_dim;
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            if point[k] < b.hi {
                point[k] += 1;
                break;
            }
            point[k] = b.lo;
        }
    }
}

/// The points of a set in the box.
pub fn set_points(s: &Set, b: &Box) -> BTreeSet<Vec<i64>> {
    points_of(&s.0.parts, s.0.space.n_out(), b)
}

/// The points of a basic set in the box.
pub fn basic_set_points(s: &BasicSet, b: &Box) -> BTreeSet<Vec<i64>> {
    points_of(std::slice::from_ref(&s.0), s.0.space.n_out(), b)
}

/// The pairs of a map in the box, each as the input values followed by the outputs.
pub fn map_points(m: &Map, b: &Box) -> BTreeSet<Vec<i64>> {
    points_of(&m.0.parts, m.0.space.n_in() + m.0.space.n_out(), b)
}

/// The pairs of a basic map in the box.
pub fn basic_map_points(m: &BasicMap, b: &Box) -> BTreeSet<Vec<i64>> {
    points_of(
        std::slice::from_ref(&m.0),
        m.0.space.n_in() + m.0.space.n_out(),
        b,
    )
}
