//! From the syntax tree of a region to the [`Scop`] model.
//!
//! One walk over the statements keeps the enclosing loops' iterators, the
//! conditions met on the way (loop bounds, strides, `if` conditions, negated
//! for `else`) and the 2d+1 schedule positions: the k-th statement or loop of
//! a loop body (counting through `if` branches and blocks in textual order)
//! gets position k at its level. Each assignment or initialised declaration
//! becomes a statement whose domain is the conjunction of the conditions, whose
//! schedule interleaves positions and iterators (`-i` for a decreasing loop,
//! so that time still grows) and whose accesses are the affine subscripts of
//! its array references.
//!
//! A loop runs from its start while its condition holds: it stops at the
//! first value where the condition fails, even when the condition holds
//! again further on (`for (i = 0; i != 10 && i < 20; i++)` runs 0 to 9, not
//! also 11 to 19). A condition that is one conjunction of affine
//! constraints holds on an interval, so its set is the loop's; any other
//! (a disjunction, `!=`, `%`) gets a [`LoopTest`], and the domain of each
//! statement inside loses the values after the first one where the loop
//! would have stopped (the set `after_a_stop`).
//!
//! Names in loop bounds, conditions and subscripts that are not iterators are
//! parameters. They are only known after the whole region is seen, so the
//! walk runs twice: the first run collects the parameters (and finds every
//! error), the second builds the model with the final parameter list.

use super::affine::{Bound, Cond, bound, compare, cond, to_map, to_set};
use super::ast::{Expr, ExprKind, Pos, Stmt, StmtKind};
use super::decls::Decl;
use super::parser::parse_expr;
use crate::error::{Error, Result};
use crate::scop::{Array, Scop, Statement, access, schedule_map};
use presburger::build::{Constraint, Expr as Aff};
use presburger::{DimKind, Map, Set, Space, Tuple};
use std::collections::{BTreeMap, BTreeSet};

/// A statement before its sets are built.
struct RawStmt {
    iters: Vec<(String, i64)>,
    cond: Cond,
    /// The enclosing loops whose condition may fail and hold again.
    loop_tests: Vec<LoopTest>,
    positions: Vec<i64>,
    reads: Vec<RawAccess>,
    writes: Vec<RawAccess>,
    pos: Pos,
    /// The statement's text when it is not the source at `pos`.
    text: Option<String>,
}

/// A loop whose condition is not one conjunction of affine constraints
/// (see the module doc): what [`after_a_stop`] needs.
#[derive(Clone)]
struct LoopTest {
    /// The loop's dimension (its depth).
    dim: usize,
    /// `1` for an increasing loop, `-1` for a decreasing one.
    sign: i64,
    /// Where the loop may run: from its start, on its stride.
    reach: Cond,
    /// The loop's condition.
    cond: Cond,
    /// Where the condition is, for the errors.
    pos: Pos,
}

/// The points of `space` (a statement's) whose value of dimension
/// `t.dim` comes after a value where the loop of `t` stops: in the
/// direction of the loop, after a value that it can reach and where its
/// condition fails, the other dimensions equal.
fn after_a_stop(t: &LoopTest, space: &Space) -> Result<Set> {
    let pb = |e| Error::from_presburger(t.pos.line, t.pos.col, e);
    let reach = to_set(&t.reach, space, t.pos)?;
    let runs = to_set(
        &Cond::And(vec![t.reach.clone(), t.cond.clone()]),
        space,
        t.pos,
    )?;
    let stops = reach.subtract(&runs).map_err(pb)?;
    let tuple = space.range_tuple().clone();
    let pairs = Space::map(space.params().to_vec(), tuple.clone(), tuple);
    let n = space.dim(DimKind::SET);
    let mut later: Vec<Constraint> = (0..n)
        .filter(|&m| m != t.dim)
        .map(|m| Aff::dim(DimKind::Out, m).eq(Aff::dim(DimKind::In, m)))
        .collect();
    let step = t.sign * (Aff::dim(DimKind::Out, t.dim) - Aff::dim(DimKind::In, t.dim));
    later.push(step.ge(1));
    let later = Map::from_constraints(&pairs, later).map_err(pb)?;
    stops.apply(&later).map_err(pb)
}

/// An array reference: the array and its subscripts over the statement's
/// iterators (as input dimensions), piecewise: the subscripts are
/// `pieces[k].1` where the condition `pieces[k].0` holds (one piece under
/// `Cond::True` unless a subscript has a `?:`, `min` or `max`).
struct RawAccess {
    array: String,
    pieces: Vec<(Cond, Vec<Aff>)>,
}

/// The most pieces of one access relation (the product of the pieces of its
/// subscripts).
const MAX_ACCESS_PIECES: usize = 64;

/// What the file says about names outside the region.
pub struct Env<'a> {
    /// The whole source.
    pub src: &'a str,
    /// Object-like macros.
    pub defines: &'a BTreeSet<String>,
    /// Declarations of the file.
    pub decls: &'a BTreeMap<String, Decl>,
}

struct Walk<'a> {
    env: &'a Env<'a>,
    params: Vec<String>,
    collecting: bool,
    iters: Vec<(String, i64)>,
    conds: Vec<Cond>,
    prefix: Vec<i64>,
    counters: Vec<i64>,
    stmts: Vec<RawStmt>,
    /// Array name, number of subscripts, place of the first access.
    arrays: Vec<(String, usize, Pos)>,
    /// The enclosing loops' [`LoopTest`]s, for the loops that need one.
    loop_tests: Vec<LoopTest>,
    /// Types of the scalars declared in the region.
    local_types: BTreeMap<String, String>,
    /// The scalars declared in the region, in order (`Scop::locals`).
    locals: Vec<(String, String)>,
    /// Scalars written, with the place of the first write.
    written: BTreeMap<String, Pos>,
}

fn err(pos: Pos, msg: impl Into<String>) -> Error {
    Error::new(pos.line, pos.col, msg)
}

/// Builds the SCoP of the statements `body` of a region spanning `span`.
pub fn extract(env: &Env, body: &[Stmt], span: (usize, usize)) -> Result<Scop> {
    let mut first = Walk::new(env, Vec::new(), true);
    first.stmts_seq(body)?;
    for p in &first.params {
        if let Some(pos) = first.written.get(p) {
            return Err(err(
                *pos,
                format!(
                    "'{p}' is assigned in the region but also used in a loop bound, condition or subscript"
                ),
            ));
        }
    }
    let mut walk = Walk::new(env, first.params, false);
    walk.stmts_seq(body)?;
    walk.finish(span)
}

impl<'a> Walk<'a> {
    fn new(env: &'a Env<'a>, params: Vec<String>, collecting: bool) -> Walk<'a> {
        Walk {
            env,
            params,
            collecting,
            iters: Vec::new(),
            conds: Vec::new(),
            prefix: Vec::new(),
            counters: vec![0],
            stmts: Vec::new(),
            arrays: Vec::new(),
            loop_tests: Vec::new(),
            local_types: BTreeMap::new(),
            locals: Vec::new(),
            written: BTreeMap::new(),
        }
    }

    /// The variable `name` as an expression: an iterator (as a dimension of
    /// `kind`) or a parameter (added while collecting).
    fn resolve(&mut self, name: &str, pos: Pos, kind: DimKind) -> Result<Aff> {
        if let Some(k) = self.iters.iter().position(|(n, _)| n == name) {
            return Ok(Aff::dim(kind, k));
        }
        if let Some(k) = self.params.iter().position(|p| p == name) {
            return Ok(Aff::param(k));
        }
        if self.collecting {
            self.params.push(name.to_string());
            return Ok(Aff::param(self.params.len() - 1));
        }
        Err(err(pos, format!("'{name}' is not a known parameter")))
    }

    fn bound(&mut self, e: &Expr, kind: DimKind) -> Result<Bound> {
        bound(e, &mut |n, p| self.resolve(n, p, kind))
    }

    fn cond(&mut self, e: &Expr, negate: bool) -> Result<Cond> {
        cond(e, negate, &mut |n, p| self.resolve(n, p, DimKind::SET))
    }

    /// The next schedule position at the current level.
    fn next_position(&mut self) -> i64 {
        let c = self.counters.last_mut();
        match c {
            Some(c) => {
                *c += 1;
                *c - 1
            }
            None => 0,
        }
    }

    fn stmts_seq(&mut self, body: &[Stmt]) -> Result<()> {
        for s in body {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<()> {
        match &s.kind {
            StmtKind::Block(b) | StmtKind::Decls(b) => self.stmts_seq(b),
            StmtKind::Empty => Ok(()),
            StmtKind::If { cond, then, els } => {
                let c = self.cond(cond, false)?;
                self.conds.push(c);
                self.stmt(then)?;
                self.conds.pop();
                if let Some(els) = els {
                    let c = self.cond(cond, true)?;
                    self.conds.push(c);
                    self.stmt(els)?;
                    self.conds.pop();
                }
                Ok(())
            }
            StmtKind::For {
                var,
                var_pos,
                init,
                cond,
                step,
                body,
            } => self.for_loop(var, *var_pos, init, cond, *step, body),
            StmtKind::Assign { lhs, op, rhs } => {
                let mut reads = Vec::new();
                let write = self.reference(lhs, true)?;
                if *op != "=" {
                    reads.push(self.reference(lhs, false)?);
                }
                self.reads(rhs, &mut reads)?;
                self.statement(s.pos, reads, write)
            }
            StmtKind::Decl {
                ty,
                name,
                name_pos,
                init,
                shares_type,
            } => {
                if self.iters.iter().any(|(n, _)| n == name) {
                    return Err(err(
                        *name_pos,
                        format!("'{name}' redeclares a loop iterator"),
                    ));
                }
                self.local_types.insert(name.clone(), ty.clone());
                self.locals.push((name.clone(), ty.clone()));
                let Some(init) = init else {
                    return Ok(());
                };
                let mut reads = Vec::new();
                self.reads(init, &mut reads)?;
                let write = self.scalar(name, *name_pos, true)?;
                self.statement(s.pos, reads, write)?;
                if *shares_type {
                    // the source of `a = 1.0` in `double a = 1.0, b;` lacks
                    // the type: the text is `double a = 1.0;`
                    let value = self.env.src.get(init.pos.start..init.pos.end).unwrap_or("");
                    if let Some(last) = self.stmts.last_mut() {
                        last.text = Some(format!("{ty} {name} = {value};"));
                    }
                }
                Ok(())
            }
        }
    }

    fn for_loop(
        &mut self,
        var: &str,
        var_pos: Pos,
        init: &Expr,
        cond_e: &Expr,
        step: i64,
        body: &Stmt,
    ) -> Result<()> {
        if self.iters.iter().any(|(n, _)| n == var) {
            return Err(err(
                var_pos,
                format!("the loop iterator '{var}' is already the iterator of an enclosing loop"),
            ));
        }
        if self.params.iter().any(|p| p == var) && !self.collecting {
            return Err(err(
                var_pos,
                format!("'{var}' is a loop iterator here and a parameter elsewhere in the region"),
            ));
        }
        let start = self.bound(init, DimKind::SET)?;
        let position = self.next_position();
        self.iters.push((var.to_string(), step.signum()));
        let x = Aff::dim(DimKind::SET, self.iters.len() - 1);
        let v = Bound::Leaf(x.clone());
        let mut parts = vec![compare(&v, if step > 0 { ">=" } else { "<=" }, &start)];
        let loop_cond = self.cond(cond_e, false)?;
        parts.push(loop_cond.clone());
        if step.abs() > 1 {
            // the iterator is the start plus a multiple of the step; the start
            // is one of the pieces of its min/max tree, the one it equals
            let cases = start
                .leaf_list()
                .into_iter()
                .map(|s| {
                    Cond::And(vec![
                        compare(&Bound::Leaf(s.clone()), "==", &start),
                        Cond::Atom((&x - s).modulo(step.abs()).eq(0)),
                    ])
                })
                .collect();
            parts.push(Cond::Or(cases));
        }
        let test = if self.collecting {
            None
        } else {
            // the condition's set over the enclosing loops' dimensions: one
            // conjunction without locals holds on an interval of this one
            let space = Space::set(self.params.clone(), Tuple::anonymous(self.iters.len()));
            let set = to_set(&loop_cond, &space, cond_e.pos)?;
            let interval =
                set.n_basic() <= 1 && set.basics().all(|b| b.conjunction().n_local() == 0);
            (!interval).then(|| {
                let mut reach = parts.clone();
                reach.remove(1);
                LoopTest {
                    dim: self.iters.len() - 1,
                    sign: step.signum(),
                    reach: Cond::And(reach),
                    cond: loop_cond,
                    pos: cond_e.pos,
                }
            })
        };
        let tested = test.is_some();
        self.loop_tests.extend(test);
        self.conds.push(Cond::And(parts));
        self.prefix.push(position);
        self.counters.push(0);
        let r = self.stmt(body);
        self.counters.pop();
        self.prefix.pop();
        self.conds.pop();
        if tested {
            self.loop_tests.pop();
        }
        self.iters.pop();
        r
    }

    fn statement(&mut self, pos: Pos, reads: Vec<RawAccess>, write: RawAccess) -> Result<()> {
        let mut positions = self.prefix.clone();
        positions.push(self.next_position());
        self.stmts.push(RawStmt {
            iters: self.iters.clone(),
            cond: Cond::And(self.conds.clone()),
            loop_tests: self.loop_tests.clone(),
            positions,
            reads,
            writes: vec![write],
            pos,
            text: None,
        });
        Ok(())
    }

    /// Records the use of `name` with `n` subscripts.
    fn use_array(&mut self, name: &str, n: usize, pos: Pos) -> Result<()> {
        match self.arrays.iter().find(|(a, _, _)| a == name) {
            Some((_, m, first)) if *m != n => Err(err(
                pos,
                format!(
                    "'{name}' is used with {n} subscript(s) here and with {m} at line {}, column {}",
                    first.line, first.col
                ),
            )),
            Some(_) => Ok(()),
            None => {
                self.arrays.push((name.to_string(), n, pos));
                Ok(())
            }
        }
    }

    fn scalar(&mut self, name: &str, pos: Pos, write: bool) -> Result<RawAccess> {
        if write && self.iters.iter().any(|(n, _)| n == name) {
            return Err(err(
                pos,
                format!("assignment to the loop iterator '{name}'"),
            ));
        }
        if write {
            self.written.entry(name.to_string()).or_insert(pos);
        }
        self.use_array(name, 0, pos)?;
        Ok(RawAccess {
            array: name.to_string(),
            pieces: vec![(Cond::True, Vec::new())],
        })
    }

    /// The array element or scalar that `e` names (as the left side of an
    /// assignment when `write`).
    fn reference(&mut self, e: &Expr, write: bool) -> Result<RawAccess> {
        let mut subs_e = Vec::new();
        let mut base = e;
        while let ExprKind::Index(b, i) = &base.kind {
            subs_e.push(i.as_ref());
            base = b;
        }
        subs_e.reverse();
        let name = match &base.kind {
            ExprKind::Ident(n) => n.clone(),
            ExprKind::Unary("*", _) => {
                return Err(err(e.pos, "pointer dereference is not supported in a SCoP"));
            }
            ExprKind::Member(..) => {
                return Err(err(
                    e.pos,
                    "struct member access is not supported in a SCoP",
                ));
            }
            ExprKind::Binary(_, rest) if matches!(rest[0].0, "+" | "-") => {
                return Err(err(e.pos, "pointer arithmetic is not supported in a SCoP"));
            }
            _ if write => {
                return Err(err(
                    e.pos,
                    "the left side of an assignment must be an array element or a scalar",
                ));
            }
            _ => {
                return Err(err(
                    e.pos,
                    "this array reference is not supported in a SCoP",
                ));
            }
        };
        if subs_e.is_empty() {
            return self.scalar(&name, base.pos, write);
        }
        // the product of the pieces of the subscripts: a piecewise subscript
        // (`A[i > 0 ? i - 1 : 0]`) gives one piece of the relation per case
        let mut pieces: Vec<(Vec<Cond>, Vec<Aff>)> = vec![(Vec::new(), Vec::new())];
        for s in &subs_e {
            if contains_index(s) {
                return Err(err(
                    s.pos,
                    "data-dependent subscript: an array element inside a subscript",
                ));
            }
            let sub = self.bound(s, DimKind::In)?.pieces(s.pos)?;
            if pieces.len().saturating_mul(sub.len()) > MAX_ACCESS_PIECES {
                return Err(err(
                    s.pos,
                    format!(
                        "the subscripts of this reference have more than {MAX_ACCESS_PIECES} piecewise cases together"
                    ),
                ));
            }
            pieces = pieces
                .into_iter()
                .flat_map(|(conds, subs)| {
                    sub.iter().map(move |(c, e)| {
                        let mut conds = conds.clone();
                        if *c != Cond::True {
                            conds.push(c.clone());
                        }
                        let mut subs = subs.clone();
                        subs.push(e.clone());
                        (conds, subs)
                    })
                })
                .collect();
        }
        if write {
            self.written.entry(name.clone()).or_insert(base.pos);
        }
        self.use_array(&name, subs_e.len(), base.pos)?;
        let pieces = pieces
            .into_iter()
            .map(|(conds, subs)| {
                let c = match conds.len() {
                    0 => Cond::True,
                    _ => Cond::And(conds),
                };
                (c, subs)
            })
            .collect();
        Ok(RawAccess {
            array: name,
            pieces,
        })
    }

    /// The reads of the value expression `e`, appended to `out`.
    fn reads(&mut self, e: &Expr, out: &mut Vec<RawAccess>) -> Result<()> {
        match &e.kind {
            ExprKind::Index(..) => out.push(self.reference(e, false)?),
            ExprKind::Ident(n) => {
                let known = self.iters.iter().any(|(i, _)| i == n)
                    || self.params.contains(n)
                    || self.env.defines.contains(n);
                if !known {
                    out.push(self.scalar(n, e.pos, false)?);
                }
            }
            ExprKind::Call(f, args) => {
                if !matches!(f.kind, ExprKind::Ident(_)) {
                    return Err(err(f.pos, "only calls of named functions are supported"));
                }
                for a in args {
                    self.reads(a, out)?;
                }
            }
            ExprKind::Int(_) | ExprKind::OtherLiteral | ExprKind::SizeofType(_) => {}
            ExprKind::Member(..) => {
                return Err(err(
                    e.pos,
                    "struct member access is not supported in a SCoP",
                ));
            }
            ExprKind::Unary(op @ ("*" | "&"), _) => {
                let what = if *op == "*" {
                    "pointer dereference"
                } else {
                    "taking an address"
                };
                return Err(err(e.pos, format!("{what} is not supported in a SCoP")));
            }
            ExprKind::Unary("++" | "--", _) | ExprKind::Postfix(..) | ExprKind::Assign(..) => {
                return Err(err(
                    e.pos,
                    "an assignment or increment inside an expression is not supported",
                ));
            }
            ExprKind::Unary(_, x) | ExprKind::Cast(_, x) => self.reads(x, out)?,
            ExprKind::Binary(first, rest) => {
                self.reads(first, out)?;
                for (_, x) in rest {
                    self.reads(x, out)?;
                }
            }
            ExprKind::Ternary(c, a, b) => {
                self.reads(c, out)?;
                self.reads(a, out)?;
                self.reads(b, out)?;
            }
        }
        Ok(())
    }

    /// The element type and sizes of an array, from the declarations.
    fn describe(&self, name: &str, dims: usize) -> Array {
        let strip = |ty: &str| {
            ty.split_whitespace()
                .filter(|w| !matches!(*w, "static" | "extern" | "register"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let decl = self.env.decls.get(name);
        let element_type = self
            .local_types
            .get(name)
            .map(|t| strip(t))
            .or_else(|| decl.map(|d| strip(&d.ty)));
        let sizes = decl
            .filter(|d| d.sizes.len() == dims)
            .map(|d| {
                d.sizes
                    .iter()
                    .map(|toks| match (toks.first(), toks.last()) {
                        (Some(a), Some(b)) => self.env.src[a.start..b.end].to_string(),
                        _ => String::new(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Array {
            name: name.to_string(),
            dims,
            element_type,
            sizes,
        }
    }

    /// The context: `size >= 1` for every declared size of an accessed array
    /// that is an affine expression of the parameters (C arrays have at least
    /// one element per dimension).
    fn context(&mut self, space: &Space) -> Result<Set> {
        let pb = |e| Error::from_presburger(0, 0, e);
        let mut constraints: Vec<Constraint> = Vec::new();
        let names: Vec<(String, usize)> = self
            .arrays
            .iter()
            .map(|(n, d, _)| (n.clone(), *d))
            .collect();
        for (name, dims) in names {
            let Some(decl) = self.env.decls.get(&name) else {
                continue;
            };
            if decl.sizes.len() != dims {
                continue;
            }
            for toks in &decl.sizes {
                let Ok(e) = parse_expr(toks, Pos::default()) else {
                    continue;
                };
                let params = self.params.clone();
                let mut only_params = |n: &str, p: Pos| match params.iter().position(|q| q == n) {
                    Some(k) => Ok(Aff::param(k)),
                    None => Err(err(p, "not a parameter")),
                };
                if let Ok(Bound::Leaf(size)) = bound(&e, &mut only_params) {
                    if !size.is_constant() {
                        let c = size.ge(1);
                        if !constraints.contains(&c) {
                            constraints.push(c);
                        }
                    }
                }
            }
        }
        Set::from_constraints(space, constraints).map_err(pb)
    }

    fn finish(mut self, span: (usize, usize)) -> Result<Scop> {
        let params = self.params.clone();
        let context = self.context(&Space::set(params.clone(), Tuple::new(None, &[])))?;
        let depth = self.stmts.iter().map(|s| s.iters.len()).max().unwrap_or(0);
        let n_out = 2 * depth + 1;
        let mut statements = Vec::new();
        for (k, raw) in self.stmts.iter().enumerate() {
            let name = format!("S{k}");
            let pb = |e| Error::from_presburger(raw.pos.line, raw.pos.col, e);
            let iters: Vec<&str> = raw.iters.iter().map(|(n, _)| n.as_str()).collect();
            let tuple = Tuple::new(Some(&name), &iters);
            let space = Space::set(params.clone(), tuple.clone());
            let mut domain = to_set(&raw.cond, &space, raw.pos)?;
            for t in &raw.loop_tests {
                let after = after_a_stop(t, &space)?;
                domain = domain
                    .subtract(&after)
                    .and_then(|d| d.coalesce())
                    .map_err(pb)?;
            }
            let signs: Vec<i64> = raw.iters.iter().map(|(_, sign)| *sign).collect();
            let schedule =
                schedule_map(&params, &tuple, &raw.positions, &signs, n_out).map_err(pb)?;
            let relation = |a: &RawAccess| access_relation(&params, &tuple, a, &domain, raw.pos);
            let reads = raw.reads.iter().map(relation).collect::<Result<Vec<_>>>()?;
            let writes = raw
                .writes
                .iter()
                .map(relation)
                .collect::<Result<Vec<_>>>()?;
            statements.push(Statement {
                name,
                iterators: iters.iter().map(|s| s.to_string()).collect(),
                positions: raw.positions.clone(),
                signs,
                domain,
                schedule,
                reads,
                writes,
                text: raw.text.clone().unwrap_or_else(|| {
                    self.env
                        .src
                        .get(raw.pos.start..raw.pos.end)
                        .unwrap_or("")
                        .to_string()
                }),
                span: (raw.pos.start, raw.pos.end),
            });
        }
        let arrays = self
            .arrays
            .iter()
            .map(|(n, d, _)| self.describe(n, *d))
            .collect();
        Ok(Scop {
            params,
            context,
            statements,
            arrays,
            locals: self.locals,
            span,
        })
    }
}

/// The access relation of `a` from the statement instances of `tuple`: the
/// union over its pieces of the piece's subscripts restricted to where the
/// piece's condition holds (errors at `pos`). The conjunctions of a piece
/// that no instance of `domain` reaches (`i == 0 ? N - 1 : i - 1` has the
/// case `i < 0` of `i != 0`, outside `0 <= i < N`) are left out, and a
/// piece whose condition every instance of `domain` meets (`i >= 0` of C's
/// `i / 4` over `0 <= i < N`) keeps its subscripts unrestricted; the
/// relation is not otherwise restricted to the domain, like a reference
/// without pieces.
fn access_relation(
    params: &[String],
    tuple: &Tuple,
    a: &RawAccess,
    domain: &Set,
    pos: Pos,
) -> Result<crate::scop::Access> {
    let pb = |e| Error::from_presburger(pos.line, pos.col, e);
    let mut out: Option<crate::scop::Access> = None;
    for (c, subs) in &a.pieces {
        let mut piece = access(params, tuple, &a.array, subs).map_err(pb)?;
        if *c != Cond::True {
            let space = piece.relation.space().clone();
            let whole = piece
                .relation
                .intersect(&to_map(c, &space, pos)?)
                .map_err(pb)?;
            // a condition that every instance meets (`i >= 0` of C's `i / 4`
            // over `0 <= i < N`) leaves the relation as it is
            let everywhere = whole
                .intersect_domain(domain)
                .and_then(|w| w.is_equal(&piece.relation.intersect_domain(domain)?))
                .map_err(pb)?;
            if !everywhere {
                let mut kept = Map::empty(space).map_err(pb)?;
                for b in whole.basics() {
                    let b = Map::from(b);
                    if !b
                        .intersect_domain(domain)
                        .map_err(pb)?
                        .is_empty()
                        .map_err(pb)?
                    {
                        kept = kept.union(&b).map_err(pb)?;
                    }
                }
                piece.relation = kept;
            }
        }
        out = Some(match out {
            None => piece,
            Some(mut acc) => {
                acc.relation = acc.relation.union(&piece.relation).map_err(pb)?;
                acc
            }
        });
    }
    // a reference has at least one piece
    out.ok_or_else(|| err(pos, "an array reference without subscripts' pieces"))
}

/// True when an array element occurs inside `e`.
fn contains_index(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Index(..) => true,
        ExprKind::Call(f, args) => contains_index(f) || args.iter().any(contains_index),
        ExprKind::Member(x, _, _)
        | ExprKind::Unary(_, x)
        | ExprKind::Postfix(_, x)
        | ExprKind::Cast(_, x) => contains_index(x),
        ExprKind::Binary(first, rest) => {
            contains_index(first) || rest.iter().any(|(_, x)| contains_index(x))
        }
        ExprKind::Assign(_, a, b) => contains_index(a) || contains_index(b),
        ExprKind::Ternary(a, b, c) => contains_index(a) || contains_index(b) || contains_index(c),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::c::{Options, extract_scop};
    use presburger::{Map, Set};

    fn scop(body: &str) -> crate::scop::Scop {
        let src = format!(
            "#define N 10\nstatic double A[N][N + 2], x[2 * N];\nint main(void) {{\n#pragma scop\n{body}\n#pragma endscop\n}}\n"
        );
        extract_scop(&src, &Options::default()).unwrap()
    }

    fn same_set(s: &Set, text: &str) {
        let want: Set = text.parse().unwrap();
        assert!(s.is_equal(&want).unwrap(), "{s} is not {text}");
    }

    fn same_map(m: &Map, text: &str) {
        let want: Map = text.parse().unwrap();
        assert!(m.is_equal(&want).unwrap(), "{m} is not {text}");
    }

    #[test]
    fn positions_count_through_ifs_and_blocks() {
        let s = scop(
            "x[0] = 1;\nfor (int i = 0; i < N; i++) {\n  if (i < 3) { x[i] = 0; } else x[i] = 1;\n  { x[i] += 2; }\n  for (int j = i; j < N; j += 3)\n    A[i][j] = x[j];\n}",
        );
        let names: Vec<&str> = s.statements.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["S0", "S1", "S2", "S3", "S4"]);
        same_map(&s.statements[0].schedule, "{ S0[] -> [0, 0, 0, 0, 0] }");
        same_map(&s.statements[1].schedule, "{ S1[i] -> [1, i, 0, 0, 0] }");
        same_map(&s.statements[2].schedule, "{ S2[i] -> [1, i, 1, 0, 0] }");
        same_map(&s.statements[3].schedule, "{ S3[i] -> [1, i, 2, 0, 0] }");
        same_map(&s.statements[4].schedule, "{ S4[i, j] -> [1, i, 3, j, 0] }");
        same_set(
            &s.statements[1].domain,
            "[N] -> { S1[i] : 0 <= i <= 2 and i < N }",
        );
        same_set(&s.statements[2].domain, "[N] -> { S2[i] : 3 <= i < N }");
        same_set(
            &s.statements[4].domain,
            "[N] -> { S4[i, j] : 0 <= i < N and i <= j < N and (j - i) mod 3 = 0 }",
        );
        assert_eq!(s.statements[3].text, "x[i] += 2;");
        assert_eq!(s.statements[3].iterators, ["i"]);
        // a compound assignment reads its left side
        same_map(&s.statements[3].reads[0].relation, "{ S3[i] -> x[i] }");
    }

    #[test]
    fn decreasing_loops_run_backwards_in_time() {
        let s = scop("for (int i = N; i > 0; i -= 2)\n  x[i] = x[i - 1];");
        same_set(
            &s.statements[0].domain,
            "[N] -> { S0[i] : 0 < i <= N and (N - i) mod 2 = 0 }",
        );
        same_map(&s.statements[0].schedule, "{ S0[i] -> [0, -i, 0] }");
    }

    #[test]
    fn arrays_params_and_context() {
        let s =
            scop("for (int i = 0; i < M; i++) {\n  double t = x[i] * alpha;\n  A[i][K] = t;\n}");
        assert_eq!(s.params, ["M", "K"]);
        let a = s.array("A").unwrap();
        assert_eq!(a.element_type.as_deref(), Some("double"));
        assert_eq!(a.sizes, ["N", "N + 2"]);
        let t = s.array("t").unwrap();
        assert_eq!((t.dims, t.element_type.as_deref()), (0, Some("double")));
        let alpha = s.array("alpha").unwrap();
        assert_eq!((alpha.dims, alpha.element_type.as_deref()), (0, None));
        // N is no parameter of this region: no context from the sizes
        same_set(&s.context, "[M, K] -> { : }");
        let span = &s.statements[0].text;
        assert_eq!(span, "double t = x[i] * alpha;");
    }

    #[test]
    fn piecewise_subscripts_are_relations_with_one_piece_per_case() {
        let s = scop(
            "for (int i = 0; i < N; i++)\n  x[i] = x[i == 0 ? N - 1 : i - 1] + x[i > 0 ? i - 1 : 0] + A[i][min(i, 3)];",
        );
        let st = &s.statements[0];
        let on_domain = |k: usize| st.reads[k].relation.intersect_domain(&st.domain).unwrap();
        same_map(
            &on_domain(0),
            "[N] -> { S0[i] -> x[N - 1] : i = 0 < N; S0[i] -> x[i - 1] : 0 < i < N }",
        );
        // `i > 0 ? i - 1 : 0` is max(i - 1, 0)
        same_map(
            &on_domain(1),
            "[N] -> { S0[i] -> x[o] : 0 <= i < N and o = max(i - 1, 0) }",
        );
        same_map(
            &on_domain(2),
            "[N] -> { S0[i] -> A[i, o] : 0 <= i < N and o = min(i, 3) }",
        );
        // the case i < 0 of `i != 0` reaches no instance: left out
        assert_eq!(st.reads[0].relation.n_basic(), 2);
        // the write is an ordinary relation
        same_map(&st.writes[0].relation, "{ S0[i] -> x[i] }");
    }

    #[test]
    fn conditional_loop_bounds() {
        let s = scop(
            "for (int i = 0; i < N; i++)\n  for (int j = 0; j < (i < N - 2 ? i : N - 2); j++)\n    A[i][j] = 0;\nfor (int i = 0; i < N; i++)\n  for (int j = (i > 3 ? 5 : 0); j < N; j += 2)\n    A[i][j] = 1;",
        );
        same_set(
            &s.statements[0].domain,
            "[N] -> { S0[i, j] : 0 <= i < N and 0 <= j < i and j < N - 2 }",
        );
        assert_eq!(s.statements[0].domain.n_basic(), 1);
        // split by the condition, the stride counted from the start it takes
        same_set(
            &s.statements[1].domain,
            "[N] -> { S1[i, j] : 0 <= i < N and j < N and \
             ((i > 3 and j >= 5 and (j - 5) mod 2 = 0) or (i <= 3 and j >= 0 and j mod 2 = 0)) }",
        );
        let e = crate::c::extract_scop(
            "#pragma scop\nfor (int i = 0; i < n; i++)\n  x[i] = x[x[0] > 0 ? i : 0];\n#pragma endscop\n",
            &Options::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (3, 12), "{e}");
        assert!(e.message.contains("data-dependent"), "{e}");
        let e = crate::c::extract_scop(
            "#pragma scop\nfor (int i = 0; i < n; i++)\n  for (int j = 0; j < (i * i < n ? i : n); j++)\n    x[i] = 0;\n#pragma endscop\n",
            &Options::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (3, 24), "{e}");
        assert!(e.message.contains("(?:)"), "{e}");
    }

    #[test]
    fn division_and_remainder_truncate_as_in_c() {
        let s = scop("for (int i = -8; i < 8; i++)\n  x[i / 2 + 8] = x[i % 3 + 8];");
        same_map(
            &s.statements[0].writes[0].relation,
            "{ S0[i] -> x[o] : (i >= 0 and o = floor(i/2) + 8) or (i < 0 and o = -floor(-i/2) + 8) }",
        );
        same_map(
            &s.statements[0].reads[0].relation,
            "{ S0[i] -> x[o] : (i >= 0 and o = (i mod 3) + 8) or (i < 0 and o = 8 - ((-i) mod 3)) }",
        );
        // over non-negative values, floor without a condition
        let s = scop("for (int i = 0; i < N; i++)\n  x[i / 4] = 0;");
        same_map(
            &s.statements[0].writes[0].relation,
            "{ S0[i] -> x[floor(i/4)] }",
        );
        // (N - 1) / 4 is 0 for N = 0, as for N = 1
        let s = scop("for (int i = 0; i <= (N - 1) / 4; i++)\n  x[i] = 0;");
        same_set(
            &s.statements[0].domain,
            "[N] -> { S0[i] : (N >= 1 and 0 <= i <= floor((N - 1)/4)) or (-2 <= N <= 0 and i = 0) }",
        );
    }

    #[test]
    fn a_loop_stops_where_its_condition_first_fails() {
        let cases = [
            // issue 45: 11 to 19 were instances, and `poly opt` ran them
            (
                "for (int i = 0; i != 10 && i < 20; i++)",
                "{ S0[i] : 0 <= i <= 9 }",
            ),
            (
                "for (int i = 0; i < 10 && i != 5; i++)",
                "{ S0[i] : 0 <= i <= 4 }",
            ),
            ("for (int i = 10; i != 0; i--)", "{ S0[i] : 1 <= i <= 10 }"),
            ("for (int i = 0; i % 2 == 0; i++)", "{ S0[0] }"),
            (
                "for (int i = 0; i != 10; i += 2)",
                "{ S0[i] : 0 <= i <= 8 and i mod 2 = 0 }",
            ),
            (
                "for (int i = 0; i <= 20 && (i < 5 || i > 10); i++)",
                "{ S0[i] : 0 <= i <= 4 }",
            ),
            (
                "for (int i = 20; i >= 0 && (i < 5 || i > 10); i--)",
                "{ S0[i] : 11 <= i <= 20 }",
            ),
            // a disjunction that is an interval: unchanged
            (
                "for (int i = 0; i < N || i < 7; i++)",
                "[N] -> { S0[i] : 0 <= i < N or 0 <= i < 7 }",
            ),
        ];
        for (header, want) in cases {
            let s = scop(&format!("{header}\n  x[i] = 0;"));
            same_set(&s.statements[0].domain, want);
        }
        let s = scop("for (int j = 0; j < N; j++)\n  for (int i = 0; i != j; i++)\n    x[i] = j;");
        same_set(
            &s.statements[0].domain,
            "[N] -> { S0[j, i] : 0 <= i < j < N }",
        );
        // a condition on an `if` holds where it holds
        let s = scop("for (int i = 0; i < 20; i++)\n  if (i < 5 || i > 10)\n    x[i] = 0;");
        same_set(
            &s.statements[0].domain,
            "{ S0[i] : 0 <= i <= 4 or 11 <= i <= 19 }",
        );
    }

    #[test]
    fn declarators_of_one_declaration_are_statements_of_their_own() {
        let s =
            scop("for (int i = 0; i < N; i++) {\n  double a = x[i], b, c = a * 2;\n  x[i] = c;\n}");
        let texts: Vec<&str> = s.statements.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            ["double a = x[i];", "double c = a * 2;", "x[i] = c;"]
        );
        same_map(&s.statements[1].schedule, "{ S1[i] -> [0, i, 1] }");
        same_map(&s.statements[1].reads[0].relation, "{ S1[i] -> a[] }");
        assert_eq!(s.array("b"), None);
        let c = s.array("c").unwrap();
        assert_eq!(c.element_type.as_deref(), Some("double"));
        // every declarator is a local, with or without a value
        let locals: Vec<(&str, &str)> = s
            .locals
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        assert_eq!(locals, [("a", "double"), ("b", "double"), ("c", "double")]);
        let s = scop("for (int i = 0; i < N; i++) {\n  int t;\n  t = i;\n  x[i] = t;\n}");
        assert_eq!(s.locals, [("t".to_string(), "int".to_string())]);
    }
}
