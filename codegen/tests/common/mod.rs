//! Shared by the scan tests: the scheduled instances of a schedule for given
//! parameter values, enumerated by `presburger` and sorted by time (ties in
//! the input order of the statements), and the check that an AST visits
//! exactly those, in that order.
#![allow(dead_code)] // each test file uses a part of it

use codegen::{generate, Ast, Options, Visit};
use presburger::{DimKind, Int, Set, UnionMap};

/// The instances `(statement, iterators)` of `sched` for the parameter
/// values `pv` (in the order of `sched.params()`), sorted by time, ties by
/// statement order.
pub fn expected(sched: &UnionMap, pv: &[i64]) -> Result<Vec<Visit>, String> {
    let mut all: Vec<(Vec<i64>, usize, Visit)> = Vec::new();
    for (k, m) in sched.members().iter().enumerate() {
        let name = m
            .space()
            .domain_tuple()
            .and_then(|t| t.name.clone())
            .unwrap_or_default();
        let params = m.space().params().to_vec();
        let mut fixed = m.clone();
        for (j, p) in params.iter().enumerate() {
            let pos = sched
                .params()
                .iter()
                .position(|q| q == p)
                .ok_or("unknown parameter")?;
            fixed = fixed
                .fix(DimKind::Param, j, pv[pos])
                .map_err(|e| e.to_string())?;
        }
        let fixed = fixed
            .project_out(DimKind::Param, 0, params.len())
            .map_err(|e| e.to_string())?;
        let k_in = fixed.space().n_in();
        let pairs: Set = fixed.wrap();
        for p in pairs.point_iter() {
            let p = p.map_err(|e| e.to_string())?;
            let p: Vec<i64> = p
                .iter()
                .map(|v| Int::to_i64(v).unwrap_or(i64::MAX))
                .collect();
            let (x, t) = p.split_at(k_in);
            all.push((t.to_vec(), k, (name.clone(), x.to_vec())));
        }
    }
    all.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    Ok(all.into_iter().map(|(_, _, v)| v).collect())
}

/// All combinations of the values for each parameter.
pub fn combinations(ranges: &[std::ops::RangeInclusive<i64>]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for r in ranges {
        let mut next = Vec::new();
        for p in &out {
            for v in r.clone() {
                let mut q = p.clone();
                q.push(v);
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// The trace of `ast` against the enumeration of `sched`, for each
/// parameter value combination.
pub fn check_ast(ast: &Ast, sched: &UnionMap, values: &[Vec<i64>]) -> Result<(), String> {
    for pv in values {
        let want = expected(sched, pv)?;
        let names: Vec<(&str, i64)> = sched
            .params()
            .iter()
            .map(String::as_str)
            .zip(pv.iter().copied())
            .collect();
        let got = ast
            .trace(&names, 100_000)
            .map_err(|e| format!("at {pv:?}: {e}\n{}", ast.to_c()))?;
        if got != want {
            return Err(format!(
                "at {names:?}:\n  got  {got:?}\n  want {want:?}\ncode:\n{}",
                ast.to_c()
            ));
        }
    }
    Ok(())
}

/// Generates code for `text` (separated and atomic) and checks both
/// against enumeration for every combination of parameter values in
/// `ranges` (one range per parameter of the union map, in its order).
/// Returns the separated code.
pub fn check(text: &str, ranges: &[std::ops::RangeInclusive<i64>]) -> String {
    let sched: UnionMap = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(
        sched.params().len(),
        ranges.len(),
        "{text}: one range per parameter"
    );
    let values = combinations(ranges);
    let mut code = String::new();
    for atomic in [false, true] {
        let ast = generate(&sched, None, None, &Options { atomic })
            .unwrap_or_else(|e| panic!("{text} (atomic {atomic}): {e}"));
        if let Err(e) = check_ast(&ast, &sched, &values) {
            panic!("{text} (atomic {atomic}): {e}");
        }
        if !atomic {
            code = ast.to_c();
        }
    }
    code
}
