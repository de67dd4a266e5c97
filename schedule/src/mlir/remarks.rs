//! MLIR's own dependence report as an output format: for each ordered pair
//! of `affine.load`/`affine.store` ops of a module and each depth, the
//! remark MLIR's `-test-memref-dependence-check` pass prints,
//!
//! `FILE:LINE:COL: remark: dependence from A to B at depth D = RESULT`,
//!
//! so that the two can be diffed. Accesses are numbered in textual order
//! over the whole module (every function); the remark is placed at the
//! source op's name. For accesses `a` (source) and `b` (target) with `c`
//! common loops (`affine.for` and `affine.parallel` loops only, as MLIR
//! counts them: the iterator of an `scf.for` around both is free in each),
//! the depths are `1 ..= c + 1`; at depth `d <= c` the
//! dependence is carried by loop `d` (the first `d - 1` common iterators
//! equal, the `d`-th of `b` larger), at depth `c + 1` it is loop
//! independent (all common iterators equal, and `a` before `b` in the text:
//! its ancestor in their innermost common block comes first). As MLIR
//! does, the result is `false` for two loads, different memrefs, or when no
//! pair of instances touches one element under those conditions (for some
//! values of the parameters); otherwise `true` at depth `c + 1` or without
//! common loops, else the range `[lo, hi]` of `b`'s minus `a`'s iterator of
//! each common loop over the dependence polyhedron (`-inf`/`+inf` when
//! unbounded).
//!
//! The polyhedron is exact (built and decided by `presburger`), where MLIR
//! is conservative: its Fourier–Motzkin projection can give wider ranges
//! with `mod`/`floordiv` (its test file says so for `mod`), and it ignores
//! the step of a loop with a non-constant lower bound. Also, MLIR gives the
//! ops in the `else` region of an `affine.if` the `then` condition, where
//! this gives them its negation.

use super::reader::{RawOp, Reader};
use super::values::{Guard, add, sub, substitute};
use crate::c::affine::to_set;
use crate::c::ast::Pos;
use crate::error::{Error, Result};
use presburger::{Int, Space, Tuple};
use presburger_mlir_syntax::{AffineExpr, Cursor};

/// The `affine` accesses of one function, its parameters, and for each of
/// its loops whether it is affine.
struct Function {
    ops: Vec<RawOp>,
    params: Vec<String>,
    affine: Vec<bool>,
}

/// The remarks of MLIR's `-test-memref-dependence-check` for the MLIR text
/// `src`, each placed at `file:LINE:COL` (see the module doc); with `split`,
/// each part between lines `// -----` is a module of its own, as with
/// `mlir-opt --split-input-file` (the lines and columns stay those of the
/// whole text).
pub fn mlir_remarks(src: &str, file: &str, split: bool) -> Result<String> {
    mlir_remarks_with(src, file, split, false)
}

/// As [`mlir_remarks`]; with `as_mlir`, the ops of an `else` region have
/// their `affine.if`'s condition, as MLIR's analysis gives them (its error,
/// see the module doc), so that the remarks of such ops can be compared
/// too; the answers are then MLIR's model's, no longer the program's.
pub fn mlir_remarks_with(src: &str, file: &str, split: bool, as_mlir: bool) -> Result<String> {
    let mut out = String::new();
    for chunk in chunks(src, split) {
        let functions = functions(&chunk)?;
        let all: Vec<(usize, &RawOp)> = functions
            .iter()
            .enumerate()
            .flat_map(|(f, func)| func.ops.iter().map(move |o| (f, o)))
            .collect();
        let cursor = Cursor::new(&chunk);
        for (i, (fa, a)) in all.iter().enumerate() {
            let (line, col) = cursor.line_col(a.name_at);
            for (j, (fb, b)) in all.iter().enumerate() {
                let common = if fa == fb {
                    common_loops(a, b, &functions[*fa].affine)
                } else {
                    Vec::new()
                };
                for d in 1..=common.len() + 1 {
                    let result = if fa == fb {
                        let p = &functions[*fa].params;
                        dependence(a, b, d, &common, p, &cursor, as_mlir)?
                    } else {
                        "false".to_string()
                    };
                    out.push_str(&format!(
                        "{file}:{line}:{col}: remark: dependence from {i} to {j} at depth {d} = {result}\n"
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// The modules of `src`: the whole text, or with `split` its parts between
/// lines that start with `// -----`, each preceded by as many line ends as
/// lines before it (so that lines and columns are those of `src`).
fn chunks(src: &str, split: bool) -> Vec<String> {
    if !split {
        return vec![src.to_string()];
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut line = 0usize;
    for l in src.split_inclusive('\n') {
        if l.trim_start().starts_with("// -----") {
            out.push(std::mem::take(&mut cur));
            line += 1;
            cur = "\n".repeat(line);
            continue;
        }
        cur.push_str(l);
        line += 1;
    }
    out.push(cur);
    out
}

/// The functions with a body of the module `src`, each with its `affine`
/// loads and stores in textual order.
fn functions(src: &str) -> Result<Vec<Function>> {
    let mut out = Vec::new();
    for n in 0.. {
        let mut r = Reader::new(src);
        if !r.top_nth(n)? {
            break;
        }
        let affine = r.affine_loops();
        let ops = r
            .ops
            .into_iter()
            // the ops MLIR's pass collects (not the vector ones)
            .filter(|o| matches!(o.name.as_str(), "affine.load" | "affine.store"))
            .collect();
        out.push(Function {
            ops,
            params: r.params,
            affine,
        });
    }
    Ok(out)
}

/// The affine loops around both `a` and `b` (of one function; `affine[l]`
/// says whether loop `l` is), as positions among their iterators. MLIR's
/// test counts those only: an `scf.for` around both is not a loop of the
/// report, its iterator is free in each access (it cannot appear in an
/// affine subscript or condition).
fn common_loops(a: &RawOp, b: &RawOp, affine: &[bool]) -> Vec<usize> {
    a.loops
        .iter()
        .zip(&b.loops)
        .take_while(|(x, y)| x == y)
        .enumerate()
        .filter(|(_, (l, _))| affine.get(**l).copied().unwrap_or(true))
        .map(|(k, _)| k)
        .collect()
}

/// Whether `a` comes before `b`: in their innermost common block, the op
/// holding `a` comes before the one holding `b` (false for one op, or for
/// two regions of one op).
fn before(a: &RawOp, b: &RawOp) -> bool {
    let mut last = None;
    for (x, y) in a.path.iter().zip(&b.path) {
        if x.0 != y.0 {
            break;
        }
        last = Some((x.1, y.1));
    }
    matches!(last, Some((i, j)) if i < j)
}

/// The result of one remark: the dependence from `a` to `b` (one function,
/// the loops of iterators `common` in common, parameters `params`) at depth
/// `d` (see the module doc); with `as_mlir`, under MLIR's conditions of
/// `else` regions.
fn dependence(
    a: &RawOp,
    b: &RawOp,
    d: usize,
    common: &[usize],
    params: &[String],
    cursor: &Cursor,
    as_mlir: bool,
) -> Result<String> {
    let no = || Ok("false".to_string());
    if a.access.array != b.access.array || (!a.write && !b.write) {
        return no();
    }
    let n_common = common.len();
    if d > n_common && !before(a, b) {
        return no();
    }
    let (na, nb, np) = (a.iters.len(), b.iters.len(), params.len());
    let (line, col) = cursor.line_col(a.name_at);
    let not_affine = || {
        Error::new(
            line,
            col,
            "a subscript or condition of this access is not affine",
        )
    };
    // b's iterators follow a's
    let dims: Vec<AffineExpr> = (0..nb).map(|k| AffineExpr::Dim(na + k)).collect();
    let syms: Vec<AffineExpr> = (0..np).map(AffineExpr::Symbol).collect();
    let shift = |e: &AffineExpr| substitute(e, &dims, &syms);
    let (ga, gb) = if as_mlir {
        (&a.mlir_guard, &b.mlir_guard)
    } else {
        (&a.guard, &b.guard)
    };
    let mut parts = vec![ga.clone(), gb.map(&shift).ok_or_else(not_affine)?];
    for (x, y) in a.access.subs.iter().zip(&b.access.subs) {
        let y = shift(y).ok_or_else(not_affine)?;
        parts.push(Guard::Eq(sub(x.clone(), y)));
    }
    for (i, &k) in common.iter().take(d).enumerate() {
        let diff = sub(AffineExpr::Dim(na + k), AffineExpr::Dim(k));
        parts.push(if i + 1 == d {
            Guard::Ge(add(diff, AffineExpr::Const(-1)))
        } else {
            Guard::Eq(diff)
        });
    }
    let order: Vec<usize> = (0..np).collect();
    let cond = Guard::And(parts)
        .to_cond(na + nb, &order)
        .ok_or_else(not_affine)?;
    let at = a.name_at;
    let pos = Pos {
        start: at,
        end: at,
        line,
        col,
    };
    let space = Space::set(params.to_vec(), Tuple::anonymous(na + nb));
    let set = to_set(&cond, &space, pos)?;
    let pb = |e| Error::from_presburger(line, col, e);
    if set.is_empty().map_err(pb)? {
        return no();
    }
    if n_common == 0 || d > n_common {
        return Ok("true".to_string());
    }
    let mut ranges = String::new();
    for &k in common {
        // b's iterator minus a's, over (1, params, a's dims, b's dims)
        let mut aff = vec![Int::from(0); 1 + np + na + nb];
        aff[1 + np + na + k] = Int::from(1);
        aff[1 + np + k] = Int::from(-1);
        let bound = |v: presburger::Result<Option<Int>>, inf: &str| match v {
            Ok(Some(x)) => Ok(x.to_string()),
            Ok(None) | Err(presburger::Error::Unbounded(_)) => Ok(inf.to_string()),
            Err(e) => Err(pb(e)),
        };
        let lo = bound(set.min(&aff), "-inf")?;
        let hi = bound(set.max(&aff), "+inf")?;
        ranges.push_str(&format!("[{lo}, {hi}]"));
    }
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_parts_keep_their_lines() {
        let parts = chunks("a\n// -----\nb\nc\n// -----\nd", true);
        assert_eq!(parts, ["a\n", "\n\nb\nc\n", "\n\n\n\n\nd"]);
        assert_eq!(chunks("a\n// -----\nb", false).len(), 1);
    }
}
