//! Printing in isl notation.
//!
//! The output is read back by [`crate::parse`] to an equal object: every variable
//! gets a unique name that is not a keyword or a parameter (unnamed or clashing
//! dimensions get fresh names), locals are printed as `exists (e0 = floor((..)/d), e1
//! : ..)` with the defining inequalities of divisions left out (the parser adds them
//! back), and lower and upper bounds of one variable are chained (`0 <= i < N`).

use crate::api::{BasicMap, BasicSet, Map, Set, UnionMap, UnionSet};
use crate::conjunction::{Conjunction, Row, div_constraints, normalize_ineq};
use crate::elimination::substitute_unit;
use crate::int::Int;
use crate::lexer::{is_ident_char, is_ident_start};
use crate::parse::is_keyword;
use crate::space::{Space, Tuple, TupleBody};
use std::collections::HashSet;
use std::fmt::{self, Write};

fn valid_name(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(is_ident_start) && cs.all(is_ident_char) && !is_keyword(s)
}

fn fresh(base: String, used: &mut HashSet<String>) -> String {
    let mut name = base.clone();
    let mut k = 1;
    while used.contains(&name) || !valid_name(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    used.insert(name.clone());
    name
}

/// Names of the columns of one member of a printed object.
struct Names {
    cols: Vec<String>, // index = column; column 0 unused
    /// Whether a bound may be written strict (`x < N` for `x <= N - 1`):
    /// not in a rational set, where it would read as a different set to a
    /// person (isl reads both the same way, as the parser does).
    strict: bool,
}

fn dim_names(space: &Space, used: &mut HashSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut one = |names: Vec<Option<String>>, prefix: &str, out: &mut Vec<String>| {
        for (k, n) in names.into_iter().enumerate() {
            let base = match n {
                Some(n) if valid_name(&n) && !used.contains(&n) => n,
                _ => format!("{prefix}{k}"),
            };
            out.push(fresh(base, used));
        }
    };
    if let Some(d) = space.domain_tuple() {
        one(d.dim_names(), "i", &mut out);
        one(space.range_tuple().dim_names(), "o", &mut out);
    } else {
        one(space.range_tuple().dim_names(), "i", &mut out);
    }
    out
}

/// Writes a tuple; `None` entries are dimension names, `Some(text)` overrides.
fn fmt_tuple_with<'a>(
    t: &Tuple,
    names: &mut impl Iterator<Item = Option<&'a String>>,
    out: &mut String,
) {
    if let Some(n) = &t.name {
        out.push_str(n);
    }
    out.push('[');
    match &t.body {
        TupleBody::Dims(d) => {
            for k in 0..d.len() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(names.next().flatten().map_or("?", |s| s.as_str()));
            }
        }
        TupleBody::Nested(a, b) => {
            fmt_tuple_with(a, names, out);
            out.push_str(" -> ");
            fmt_tuple_with(b, names, out);
        }
    }
    out.push(']');
}

/// Writes `sum coef·name + constant` (column order, constant last).
fn fmt_lin(row: &[Int], names: &Names, out: &mut String) {
    let mut first = true;
    for (c, v) in row.iter().enumerate().skip(1) {
        if v.is_zero() {
            continue;
        }
        let name = &names.cols[c];
        let neg = v.is_negative();
        let a = v.abs();
        if first {
            if neg {
                out.push('-');
            }
        } else {
            out.push_str(if neg { " - " } else { " + " });
        }
        if !a.is_one() {
            let _ = write!(out, "{a}");
        }
        out.push_str(name);
        first = false;
    }
    let c = &row[0];
    if first {
        let _ = write!(out, "{c}");
    } else if !c.is_zero() {
        out.push_str(if c.is_negative() { " - " } else { " + " });
        let _ = write!(out, "{}", c.abs());
    }
}

fn lin_string(row: &[Int], names: &Names) -> String {
    let mut s = String::new();
    fmt_lin(row, names, &mut s);
    s
}

/// A bound `coef·x (>= or <=) rhs` of one subject column.
struct Bound {
    subject: usize,
    coef: Int,
    rhs: Row,
}

fn has_vars(row: &[Int]) -> bool {
    row[1..].iter().any(|v| !v.is_zero())
}

/// `rhs <= a·x` (strict when that reads better: `rhs - 1 < a·x`).
fn fmt_lower(rhs: &Row, names: &Names) -> String {
    if names.strict && has_vars(rhs) && rhs[0] == 1 {
        let mut r = rhs.clone();
        r[0] = Int::ZERO;
        format!("{} <", lin_string(&r, names))
    } else {
        format!("{} <=", lin_string(rhs, names))
    }
}

/// `a·x <= rhs` (or `a·x < rhs + 1`).
fn fmt_upper(rhs: &Row, names: &Names) -> String {
    if names.strict && has_vars(rhs) && rhs[0] == -1 {
        let mut r = rhs.clone();
        r[0] = Int::ZERO;
        format!("< {}", lin_string(&r, names))
    } else {
        format!("<= {}", lin_string(rhs, names))
    }
}

fn subject_term(b: &Bound, names: &Names) -> String {
    if b.coef.is_one() {
        names.cols[b.subject].clone()
    } else {
        format!("{}{}", b.coef, names.cols[b.subject])
    }
}

/// The column a constraint is written about: the last dimension, else the last
/// local, else the last parameter.
fn subject_col(row: &[Int], first_local: usize, n_param: usize, last: bool) -> Option<usize> {
    let pick = |range: std::ops::Range<usize>| {
        if last {
            range.rev().find(|&c| !row[c].is_zero())
        } else {
            range.into_iter().find(|&c| !row[c].is_zero())
        }
    };
    pick(1 + n_param..first_local)
        .or_else(|| pick(first_local..row.len()))
        .or_else(|| pick(1..1 + n_param))
}

fn fmt_constraints(c: &Conjunction, names: &Names, skip: &[Row]) -> Vec<String> {
    let first_local = 1 + c.space.n_var();
    let np = c.space.n_param();
    let mut out = Vec::new();
    for e in &c.eqs {
        let Some(s) = subject_col(e, first_local, np, true) else {
            // a row without variables (left by an inlined dimension): only a
            // false one says something
            if !e[0].is_zero() {
                out.push("false".to_string());
            }
            continue;
        };
        let sign = if e[s].is_negative() { -1 } else { 1 };
        let a = &e[s] * sign;
        let mut rhs: Row = e.iter().map(|v| -(v * sign)).collect();
        rhs[s] = Int::ZERO;
        let lhs = Bound {
            subject: s,
            coef: a,
            rhs: Vec::new(),
        };
        out.push(format!(
            "{} = {}",
            subject_term(&lhs, names),
            lin_string(&rhs, names)
        ));
    }
    let mut lowers: Vec<Bound> = Vec::new();
    let mut uppers: Vec<Bound> = Vec::new();
    for r in &c.ineqs {
        if skip.contains(r) {
            continue;
        }
        let Some(s) = subject_col(r, first_local, np, true) else {
            if r[0].is_negative() {
                out.push("false".to_string());
            }
            continue;
        };
        let a = r[s].clone();
        if a.is_positive() {
            // a·x + rest >= 0  <=>  -rest <= a·x
            let mut rhs: Row = r.iter().map(|v| -v).collect();
            rhs[s] = Int::ZERO;
            lowers.push(Bound {
                subject: s,
                coef: a,
                rhs,
            });
        } else {
            // -|a|·x + rest >= 0  <=>  |a|·x <= rest
            let mut rhs = r.clone();
            rhs[s] = Int::ZERO;
            uppers.push(Bound {
                subject: s,
                coef: -a,
                rhs,
            });
        }
    }
    for lo in lowers {
        let partner = uppers
            .iter()
            .position(|u| u.subject == lo.subject && u.coef == lo.coef);
        match partner {
            Some(k) => {
                let up = uppers.remove(k);
                out.push(format!(
                    "{} {} {}",
                    fmt_lower(&lo.rhs, names),
                    subject_term(&lo, names),
                    fmt_upper(&up.rhs, names)
                ));
            }
            None => out.push(format!(
                "{} {}",
                subject_term(&lo, names),
                fmt_upper_as_lower(&lo.rhs, names)
            )),
        }
    }
    for up in uppers {
        out.push(format!(
            "{} {}",
            subject_term(&up, names),
            fmt_upper(&up.rhs, names)
        ));
    }
    out
}

/// A lone lower bound reads better as `x >= rhs` (or `x > rhs - 1`).
fn fmt_upper_as_lower(rhs: &Row, names: &Names) -> String {
    if names.strict && has_vars(rhs) && rhs[0] == 1 {
        let mut r = rhs.clone();
        r[0] = Int::ZERO;
        format!("> {}", lin_string(&r, names))
    } else {
        format!(">= {}", lin_string(rhs, names))
    }
}

/// Writes one conjunction's formula (without the tuple), `None` for no constraints.
fn fmt_conj_formula(
    c: &Conjunction,
    base: &[String],
    used: &HashSet<String>,
    strict: bool,
) -> Option<String> {
    let mut used = used.clone();
    let first_local = 1 + c.space.n_var();
    let mut cols = Vec::with_capacity(c.n_col());
    cols.push(String::new());
    cols.extend(base.iter().cloned());
    let locals: Vec<String> = (0..c.n_local())
        .map(|k| fresh(format!("e{k}"), &mut used))
        .collect();
    cols.extend(locals.iter().cloned());
    let names = Names { cols, strict };
    let mut skip = Vec::new();
    let mut decls = Vec::new();
    for (k, d) in c.divs.iter().enumerate() {
        match d {
            Some(d) => {
                let (mut lo, mut hi) = div_constraints(d, first_local + k);
                normalize_ineq(&mut lo);
                normalize_ineq(&mut hi);
                skip.push(lo);
                skip.push(hi);
                decls.push(format!(
                    "{} = floor(({})/{})",
                    locals[k],
                    lin_string(&d.num, &names),
                    d.den
                ));
            }
            None => decls.push(locals[k].clone()),
        }
    }
    let cons = fmt_constraints(c, &names, &skip);
    let body = if cons.is_empty() {
        "true".to_string()
    } else {
        cons.join(" and ")
    };
    if decls.is_empty() {
        if cons.is_empty() {
            return None;
        }
        return Some(body);
    }
    Some(format!("exists ({} : {})", decls.join(", "), body))
}

/// The dimensions of the (output or set) tuple that an equality fixes as an
/// expression of the parameters, the inputs and earlier dimensions of the tuple
/// (`o = i + 1`, `j = 2i`, `i = 0`), to be written inside the tuple as isl does.
/// Returns the texts, and a copy of the conjunction in which those dimensions are
/// substituted away (exact: the coefficient is ±1) and their equalities dropped.
fn inline_outputs(c: &Conjunction, names: &Names) -> (Vec<Option<String>>, Conjunction) {
    let sp = &c.space;
    let (np, ni, no) = (sp.n_param(), sp.n_in(), sp.n_out());
    let first_out = 1 + np + ni;
    // the right-hand sides, kept as rows so that a dimension inlined later is
    // substituted into the ones inlined before it too (no name left dangling)
    let mut rows: Vec<Option<Row>> = vec![None; no];
    let mut c = c.clone();
    let mut i = 0;
    while i < c.eqs.len() {
        let e = &c.eqs[i];
        let fits = |k: usize| {
            e[first_out + k].abs().is_one()
                && (k + 1..no).all(|o| e[first_out + o].is_zero())
                && e[1 + sp.n_var()..].iter().all(Int::is_zero)
        };
        // the last dimension of the equality is the one it defines
        let Some(k) = (0..no).rev().find(|&k| !e[first_out + k].is_zero()) else {
            i += 1;
            continue;
        };
        if rows[k].is_some() || !fits(k) {
            i += 1;
            continue;
        }
        let e = c.eqs.remove(i);
        let col = first_out + k;
        // o = rhs with rhs = -(e - e_o·o) / e_o
        let sign = if e[col].is_negative() { 1 } else { -1 };
        let mut rhs: Row = e.iter().map(|v| v * sign).collect();
        rhs[col] = Int::ZERO;
        let subst = |r: &mut Row| substitute_unit(r, &e, col);
        c.eqs.iter_mut().for_each(subst);
        c.ineqs.iter_mut().for_each(subst);
        c.divs.iter_mut().flatten().for_each(|d| subst(&mut d.num));
        rows.iter_mut().flatten().for_each(subst);
        rows[k] = Some(rhs);
        i = 0;
    }
    let exprs = rows
        .iter()
        .map(|r| r.as_ref().map(|r| lin_string(r, names)))
        .collect();
    (exprs, c)
}

/// Writes one member (a space and its disjuncts); a rational one (`rational`)
/// with isl's `rat: ` before each of its pieces and no strict bounds.
fn fmt_member(
    space: &Space,
    parts: &[Conjunction],
    params: &[String],
    rational: bool,
    out: &mut String,
) {
    let rat = if rational { "rat: " } else { "" };
    let mut used: HashSet<String> = params.iter().cloned().collect();
    let names = dim_names(space, &mut used);
    let mut base: Vec<String> = params.to_vec();
    base.extend(names.iter().cloned());
    // a set without dimensions or tuple name is a parameter set, which isl
    // writes `{ : constraints }` (and `{ : }` when there are none)
    let params_only = space.is_params();
    let tuple_text = |overrides: &[Option<String>]| {
        let n_in = space.n_in();
        let mut t = String::new();
        if params_only {
            return t;
        }
        let mut it = names.iter().enumerate().map(|(k, n)| {
            if k >= n_in {
                overrides.get(k - n_in).and_then(|o| o.as_ref()).or(Some(n))
            } else {
                Some(n)
            }
        });
        if let Some(d) = space.domain_tuple() {
            fmt_tuple_with(d, &mut it, &mut t);
            t.push_str(" -> ");
        }
        fmt_tuple_with(space.range_tuple(), &mut it, &mut t);
        t
    };
    let cond = if params_only { ": " } else { " : " };
    if parts.is_empty() {
        out.push_str(rat);
        out.push_str(&tuple_text(&[]));
        out.push_str(cond);
        out.push_str("false");
        return;
    }
    let col_names = {
        let mut cols = vec![String::new()];
        cols.extend(base.iter().cloned());
        Names {
            cols,
            strict: !rational,
        }
    };
    let mut pieces: Vec<String> = Vec::new();
    let mut plain: Vec<Option<String>> = Vec::new();
    for c in parts {
        if c.is_trivially_empty() {
            plain.push(Some("false".to_string()));
            continue;
        }
        let (exprs, rest) = inline_outputs(c, &col_names);
        let f = fmt_conj_formula(&rest, &base, &used, !rational);
        if exprs.iter().all(Option::is_none) {
            plain.push(f);
        } else {
            let mut piece = format!("{rat}{}", tuple_text(&exprs));
            if let Some(f) = f {
                piece.push_str(" : ");
                piece.push_str(&f);
            }
            pieces.push(piece);
        }
    }
    if !plain.is_empty() {
        let mut piece = format!("{rat}{}", tuple_text(&[]));
        if plain.iter().all(Option::is_some) {
            let fs: Vec<String> = plain.into_iter().flatten().collect();
            piece.push_str(cond);
            if fs.len() == 1 {
                piece.push_str(&fs[0]);
            } else {
                let wrapped: Vec<String> = fs.iter().map(|f| format!("({f})")).collect();
                piece.push_str(&wrapped.join(" or "));
            }
        } else if params_only {
            piece.push(':');
        }
        pieces.insert(0, piece);
    }
    out.push_str(&pieces.join("; "));
}

fn fmt_object(
    f: &mut fmt::Formatter<'_>,
    params: &[String],
    members: &[(&Space, &[Conjunction])],
) -> fmt::Result {
    fmt_object_as(f, params, members, false)
}

/// [`fmt_object`], rational (`rat:`) when asked.
pub(crate) fn fmt_object_as(
    f: &mut fmt::Formatter<'_>,
    params: &[String],
    members: &[(&Space, &[Conjunction])],
    rational: bool,
) -> fmt::Result {
    let mut out = String::new();
    if !params.is_empty() {
        let _ = write!(out, "[{}] -> ", params.join(", "));
    }
    if members.is_empty() {
        out.push_str("{ }");
        return f.write_str(&out);
    }
    out.push_str("{ ");
    for (k, (space, parts)) in members.iter().enumerate() {
        if k > 0 {
            out.push_str("; ");
        }
        fmt_member(space, parts, params, rational, &mut out);
    }
    out.push_str(" }");
    f.write_str(&out)
}

impl fmt::Display for Conjunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_object(
            f,
            self.space.params(),
            &[(&self.space, std::slice::from_ref(self))],
        )
    }
}

impl fmt::Display for BasicSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Display for BasicMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_object(f, self.0.space.params(), &[(&self.0.space, &self.0.parts)])
    }
}

impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_object(f, self.0.space.params(), &[(&self.0.space, &self.0.parts)])
    }
}

impl fmt::Display for UnionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let members: Vec<(&Space, &[Conjunction])> = self
            .sets
            .iter()
            .map(|s| (&s.0.space, s.0.parts.as_slice()))
            .collect();
        fmt_object(f, &self.params, &members)
    }
}

impl fmt::Display for UnionMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let members: Vec<(&Space, &[Conjunction])> = self
            .maps
            .iter()
            .map(|m| (&m.0.space, m.0.parts.as_slice()))
            .collect();
        fmt_object(f, &self.params, &members)
    }
}

#[path = "print_aff.rs"]
mod print_aff;
