//! Shared by the scan tests: the scheduled instances of a schedule for given
//! parameter values, enumerated by `presburger` and sorted by time (ties in
//! the input order of the statements), and the check that an AST visits
//! exactly those, in that order.
#![allow(dead_code)] // each test file uses a part of it

use presburger::{DimKind, Int, Set, UnionMap};
use presburger_codegen::{Ast, Options, Visit, generate};

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
        let ast = generate(
            &sched,
            None,
            None,
            &Options {
                atomic,
                ..Options::default()
            },
        )
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

/// A xorshift generator (deterministic, no dependency).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A value in `lo ..= hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        lo + (x % ((hi - lo + 1) as u64)) as i64
    }

    pub fn chance(&mut self, percent: i64) -> bool {
        self.range(0, 99) < percent
    }
}

/// `c·v` terms as isl text (`0` when all coefficients are zero).
fn affine(coefs: &[i64], vars: &[String], constant: i64) -> String {
    let mut t = String::new();
    for (c, v) in coefs.iter().zip(vars) {
        if *c != 0 {
            t.push_str(&format!(" + {c}{v}"));
        }
    }
    if constant != 0 || t.is_empty() {
        t.push_str(&format!(" + {constant}"));
    }
    t[3..].replace("+ -", "- ")
}

/// A random schedule with 1-3 statements of 0-2 iterators (boxes with a
/// parametric or constant bound, sometimes an extra affine or modulo
/// constraint) and injective schedules: a unimodular transformation (swaps,
/// skews, reversals) with constant or parametric shifts, sometimes a row
/// scaled by 2 or 3 (a stride), padded with constant dimensions (2d+1-like
/// scalar dimensions first or last). Uses the parameter `N` or none.
pub fn random_schedule(rng: &mut Rng) -> String {
    let param = rng.chance(60);
    let n_stmt = rng.range(1, 3) as usize;
    let dims: Vec<usize> = (0..n_stmt).map(|_| rng.range(0, 2) as usize).collect();
    let max_k = *dims.iter().max().unwrap_or(&0);
    let extra = rng.range(0, 1) as usize;
    let n = (max_k + extra).max(1);
    let scalar_first = rng.chance(50);
    let mut pieces = Vec::new();
    for (s, &k) in dims.iter().enumerate() {
        let xs: Vec<String> = (0..k).map(|j| format!("i{j}")).collect();
        let mut cons = Vec::new();
        for x in &xs {
            let lo = rng.range(-1, 1);
            let hi = if param && rng.chance(60) {
                format!("N - {}", rng.range(0, 1)).replace("- 0", "+ 0")
            } else {
                rng.range(0, 3).to_string()
            };
            cons.push(format!("{lo} <= {x} <= {hi}"));
        }
        if k > 0 && rng.chance(40) {
            let mut vars = xs.clone();
            let mut coefs: Vec<i64> = (0..k).map(|_| rng.range(-2, 2)).collect();
            if param {
                vars.push("N".into());
                coefs.push(rng.range(-1, 1));
            }
            cons.push(format!(
                "{} >= {}",
                affine(&coefs, &vars, 0),
                rng.range(-3, 2)
            ));
        }
        if k > 0 && rng.chance(20) {
            let coefs: Vec<i64> = (0..k).map(|_| rng.range(1, 2)).collect();
            let m = rng.range(2, 3);
            cons.push(format!(
                "({}) mod {m} = {}",
                affine(&coefs, &xs, 0),
                rng.range(0, m - 1)
            ));
        }
        // a unimodular matrix: the identity through a few elementary steps
        let mut u: Vec<Vec<i64>> = (0..k)
            .map(|r| (0..k).map(|c| i64::from(r == c)).collect())
            .collect();
        for _ in 0..rng.range(0, 3) {
            if k == 0 {
                break;
            }
            let (a, b) = (
                rng.range(0, k as i64 - 1) as usize,
                rng.range(0, k as i64 - 1) as usize,
            );
            match rng.range(0, 2) {
                0 => u.swap(a, b),
                1 if a != b => {
                    let f = if rng.chance(50) { 1 } else { -1 };
                    let row_a = u[a].clone();
                    for (x, y) in u[b].iter_mut().zip(&row_a) {
                        *x += f * y;
                    }
                }
                _ => u[a].iter_mut().for_each(|x| *x = -*x),
            }
        }
        let mut rows: Vec<String> = Vec::new();
        for r in &u {
            let scale = if rng.chance(15) { rng.range(2, 3) } else { 1 };
            let coefs: Vec<i64> = r.iter().map(|c| c * scale).collect();
            let shift = rng.range(-2, 2);
            let mut e = affine(&coefs, &xs, shift);
            if param && rng.chance(20) {
                e = format!("{e} + N");
            }
            rows.push(e);
        }
        let pad = n - k;
        let consts: Vec<String> = (0..pad)
            .map(|_| {
                if rng.chance(80) {
                    rng.range(0, 2).to_string()
                } else {
                    s.to_string()
                }
            })
            .collect();
        let time = if scalar_first {
            consts.into_iter().chain(rows).collect::<Vec<_>>()
        } else {
            rows.into_iter().chain(consts).collect::<Vec<_>>()
        };
        let cond = if cons.is_empty() {
            String::new()
        } else {
            format!(" : {}", cons.join(" and "))
        };
        pieces.push(format!(
            "S{s}[{}] -> [{}]{cond}",
            xs.join(", "),
            time.join(", ")
        ));
    }
    let pre = if param { "[N] -> " } else { "" };
    format!("{pre}{{ {} }}", pieces.join("; "))
}
