//! From the [`RawStmt`]s of the walk to the [`Scop`]: domains from the
//! guards (through the C front end's [`to_set`]), 2d+1 schedules from the
//! positions and iterators, access relations from the subscripts, arrays from
//! the memref arguments' types.

use super::reader::{MemrefInfo, RawStmt};
use super::values::{RawAccess, to_aff};
use crate::c::affine::to_set;
use crate::c::ast::Pos;
use crate::error::{Error, Result};
use crate::scop::{Access, Array, Scop, Statement, access, schedule_map};
use presburger::build::Constraint;
use presburger::{DimKind, Set, Space, Tuple};
use presburger_mlir_syntax::isl_name;
use std::collections::{HashMap, HashSet};

/// Names in isl notation for SSA names: those are `[A-Za-z0-9_$.-]+` and
/// may start with a digit (`%0`, `%m.a`), isl's are identifiers. Each is
/// [`isl_name`] of it (`v0`, `m_a`), with `_`s added until it is unlike
/// every other name given.
#[derive(Default)]
struct Namer {
    given: HashMap<String, String>,
    used: HashSet<String>,
}

impl Namer {
    /// The isl name of the SSA name `ssa`.
    fn name(&mut self, ssa: &str) -> String {
        if let Some(n) = self.given.get(ssa) {
            return n.clone();
        }
        let mut n = isl_name(ssa);
        while self.used.contains(&n) {
            n.push('_');
        }
        self.used.insert(n.clone());
        self.given.insert(ssa.to_string(), n.clone());
        n
    }
}

/// The place of byte offset `at` (line and column of `src`).
fn place(src: &str, at: usize) -> Pos {
    let mut c = presburger_mlir_syntax::Cursor::new(src);
    c.pos = 0;
    let (line, col) = c.line_col(at);
    Pos {
        start: at,
        end: at,
        line,
        col,
    }
}

/// The model of the statements `stmts` of a function whose body spans `span`;
/// `used` are the parameters in order of first use (the symbols of the
/// walk's expressions), `declared` the order the SCoP lists them in (the
/// order of the function's arguments).
pub fn build(
    src: &str,
    used: &[String],
    declared: &[String],
    stmts: &[RawStmt],
    memrefs: &HashMap<String, MemrefInfo>,
    span: (usize, usize),
) -> Result<Scop> {
    let declared_used: Vec<&String> = declared.iter().filter(|p| used.contains(p)).collect();
    let order: Vec<usize> = used
        .iter()
        .map(|u| declared_used.iter().position(|p| *p == u).unwrap_or(0))
        .collect();
    let mut namer = Namer::default();
    // names that are identifiers first, so that they stay as they are
    let all = stmts
        .iter()
        .flat_map(|s| s.reads.iter().chain(&s.writes).map(|a| &a.array))
        .chain(declared_used.iter().copied());
    for n in all {
        if isl_name(n) == *n {
            namer.name(n);
        }
    }
    let params: Vec<String> = declared_used.iter().map(|p| namer.name(p)).collect();
    let context = Set::from_constraints(
        &Space::set(params.clone(), Tuple::new(None, &[])),
        Vec::<Constraint>::new(),
    )
    .map_err(|e| Error::from_presburger(0, 0, e))?;
    let depth = stmts.iter().map(|s| s.iters.len()).max().unwrap_or(0);
    let n_out = 2 * depth + 1;
    let mut statements = Vec::new();
    let mut arrays: Vec<Array> = Vec::new();
    for (k, raw) in stmts.iter().enumerate() {
        let name = format!("S{k}");
        let pos = place(src, raw.at);
        let pb = |e| Error::from_presburger(pos.line, pos.col, e);
        let n = raw.iters.len();
        let iter_names: Vec<String> = raw.iters.iter().map(|i| isl_name(i)).collect();
        let iters: Vec<&str> = iter_names.iter().map(String::as_str).collect();
        let tuple = Tuple::new(Some(&name), &iters);
        let Some(cond) = raw.guard.to_cond(n, &order) else {
            return Err(Error::new(
                pos.line,
                pos.col,
                "a loop bound or condition of this statement is not affine",
            ));
        };
        let domain = to_set(&cond, &Space::set(params.clone(), tuple.clone()), pos)?;
        let schedule =
            schedule_map(&params, &tuple, &raw.positions, &vec![1; n], n_out).map_err(pb)?;
        let relation = |a: &RawAccess, name: &str| -> Result<Access> {
            let mut subs = Vec::new();
            for s in &a.subs {
                match to_aff(s, DimKind::In, n, &order) {
                    Some(s) => subs.push(s),
                    None => {
                        return Err(Error::new(
                            pos.line,
                            pos.col,
                            format!("a subscript of {} is not affine", a.array),
                        ));
                    }
                }
            }
            if !a.extents.is_empty() {
                // a range of elements per instance: the last writers of
                // `dependences` take every access to be one element
                return Err(Error::new(
                    pos.line,
                    pos.col,
                    format!(
                        "the vector access of {} (several elements at once) is not in the \
                         SCoP model (`poly deps --mlir-remarks` reads it)",
                        a.array
                    ),
                ));
            }
            access(&params, &tuple, name, &subs).map_err(pb)
        };
        let mut relations = |v: &[RawAccess]| -> Result<Vec<Access>> {
            v.iter()
                .map(|a| relation(a, &namer.name(&a.array)))
                .collect()
        };
        let reads = relations(&raw.reads)?;
        let writes = relations(&raw.writes)?;
        for a in raw.reads.iter().chain(&raw.writes) {
            let name = namer.name(&a.array);
            if arrays.iter().any(|x| x.name == name) {
                continue;
            }
            let info = memrefs.get(&a.array);
            arrays.push(Array {
                name,
                dims: a.subs.len(),
                element_type: info.map(|i| i.elem.clone()),
                sizes: info.map(|i| i.sizes.clone()).unwrap_or_default(),
            });
        }
        statements.push(Statement {
            name,
            iterators: iter_names.clone(),
            positions: raw.positions.clone(),
            signs: vec![1; n],
            domain,
            schedule,
            reads,
            writes,
            text: raw.text.clone(),
            span: raw.span,
        });
    }
    Ok(Scop {
        params,
        context,
        statements,
        arrays,
        locals: Vec::new(),
        span,
    })
}
