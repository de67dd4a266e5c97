//! Printing of quasi-affine functions in isl notation, as isl prints them:
//! `[N] -> { [i] -> [(1 + i)] : i < N; [i] -> [(0)] : i >= N }`. An
//! expression is written constant first (`(-3 - i)`), a coefficient is glued
//! to a variable (`2i`) and joined by `*` to a division (`3*floor((i + j)/2)`),
//! a division is `floor((num)/den)`, and a rational expression is
//! `(num)/den` without the outer parentheses (`[(i)/2]`). A piece whose
//! domain has several disjuncts is written once, its disjuncts joined by
//! `or`; a function of the parameters only is `[N] -> { [(N)] }`.

use super::{dim_names, fmt_conj_formula, fmt_tuple_with};
use crate::api::{Aff, MultiAff, PwAff, PwMultiAff};
use crate::int::Int;
use crate::space::Space;
use std::collections::HashSet;
use std::fmt::{self, Write};

/// Writes the terms of `row` (`names[c]` names column `c >= 1`), constant
/// first, isl style; `0` for the zero row.
fn fmt_terms(row: &[Int], names: &[String], out: &mut String) {
    let mut first = true;
    let push_sign = |neg: bool, out: &mut String, first: &mut bool| {
        if *first {
            if neg {
                out.push('-');
            }
        } else {
            out.push_str(if neg { " - " } else { " + " });
        }
        *first = false;
    };
    if !row[0].is_zero() {
        push_sign(row[0].is_negative(), out, &mut first);
        let _ = write!(out, "{}", row[0].abs());
    }
    for (c, v) in row.iter().enumerate().skip(1) {
        if v.is_zero() {
            continue;
        }
        push_sign(v.is_negative(), out, &mut first);
        let a = v.abs();
        let name = &names[c];
        if !a.is_one() {
            let _ = write!(out, "{a}");
            if name.starts_with("floor(") || name.contains(") mod ") {
                out.push('*');
            }
        }
        out.push_str(name);
    }
    if first {
        out.push('0');
    }
}

/// The names of the columns of `a`: the domain names (`base`, after the
/// constant's empty slot), then each division as `floor((num)/den)`.
fn aff_col_names(a: &Aff, base: &[String]) -> Vec<String> {
    let mut names = Vec::with_capacity(a.n_col());
    names.push(String::new());
    names.extend(base.iter().cloned());
    for d in &a.divs {
        let mut s = String::from("floor((");
        fmt_terms(&d.num, &names, &mut s);
        let _ = write!(s, ")/{})", d.den);
        names.push(s);
    }
    names
}

/// One expression as isl writes it inside a tuple: `(terms)` or
/// `(terms)/den`. A division `floor(f/m)` whose coefficient is a multiple
/// `-k·m` of its denominator is written as isl does, as a remainder:
/// `c·floor(f/m) = k·(f mod m) - k·f`, so `i - 3*floor((i)/3)` is
/// `(i) mod 3` (the `-k·f` joins the other terms; exact, so the text means
/// the same expression).
pub(crate) fn aff_text(a: &Aff, base: &[String]) -> String {
    let mut names = aff_col_names(a, base);
    let orig = names.clone();
    let nv = 1 + a.space.n_var();
    let mut rest = a.num.clone();
    // a division whose numerator uses a division written as a remainder
    // stays a floor (its `-k·f` would land on the remainder's column)
    let mut as_mod = vec![false; a.divs.len()];
    for (k, d) in a.divs.iter().enumerate() {
        let col = nv + k;
        let c = rest[col].clone();
        let uses_mod = (0..k).any(|j| as_mod[j] && !d.num[nv + j].is_zero());
        if c.is_zero() || !c.is_divisible_by(&d.den) || uses_mod {
            continue;
        }
        as_mod[k] = true;
        let kk = -c.exact_div(&d.den);
        for (r, f) in rest.iter_mut().zip(&d.num).take(col) {
            if !f.is_zero() {
                *r -= &kk * f;
            }
        }
        // the column now stands for k·(f mod m): coefficient ±1 or a product
        let mut f = String::from("(");
        fmt_terms(&d.num, &orig, &mut f);
        let _ = write!(f, ") mod {}", d.den);
        if kk.abs().is_one() {
            names[col] = f;
            rest[col] = kk;
        } else {
            names[col] = format!("{}*({f})", kk.abs());
            rest[col] = if kk.is_negative() {
                Int::from(-1)
            } else {
                Int::ONE
            };
        }
    }
    let mut s = String::from("(");
    fmt_terms_mod(&rest, &names, &mut s);
    s.push(')');
    if !a.den.is_one() {
        let _ = write!(s, "/{}", a.den);
    }
    s
}

/// As [`fmt_terms`], with isl's `-1*((f) mod m)` for a remainder with
/// coefficient -1 that comes first.
fn fmt_terms_mod(row: &[Int], names: &[String], out: &mut String) {
    let first_nonzero = row.iter().position(|v| !v.is_zero());
    if let Some(c) = first_nonzero {
        if c > 0
            && row[c] == Int::from(-1)
            && names[c].contains(") mod ")
            && !names[c].contains('*')
        {
            let mut r = row.to_vec();
            let mut n = names.to_vec();
            n[c] = format!("1*({})", names[c]);
            r[c] = Int::from(-1);
            return fmt_terms(&r, &n, out);
        }
    }
    fmt_terms(row, names, out)
}

/// Writes the pieces of the function `f` (map space `space`) as the body of
/// an isl object, `; `-separated.
fn fmt_pieces(space: &Space, f: &PwMultiAff, out: &mut String) {
    let params = space.params();
    let mut used: HashSet<String> = params.iter().cloned().collect();
    let names = dim_names(space, &mut used);
    let ni = space.n_in();
    let mut base: Vec<String> = params.to_vec();
    base.extend(names[..ni].iter().cloned());
    let head = |exprs: &[String]| -> String {
        let mut t = String::new();
        if let Some(d) = space.domain_tuple() {
            let mut it = names[..ni].iter().map(Some);
            fmt_tuple_with(d, &mut it, &mut t);
            t.push_str(" -> ");
        }
        let mut it = exprs.iter().map(Some);
        fmt_tuple_with(space.range_tuple(), &mut it, &mut t);
        t
    };
    let cond_sep = " : ";
    if f.pieces.is_empty() {
        let zeros = vec!["(0)".to_string(); space.n_out()];
        out.push_str(&head(&zeros));
        out.push_str(cond_sep);
        out.push_str("false");
        return;
    }
    let mut texts = Vec::new();
    for (s, m) in &f.pieces {
        let exprs: Vec<String> = m.affs.iter().map(|a| aff_text(a, &base)).collect();
        let mut piece = head(&exprs);
        let mut fs = Vec::new();
        let mut universe = false;
        for c in &s.0.parts {
            match fmt_conj_formula(c, &base, &used, true) {
                Some(t) => fs.push(t),
                None => universe = true,
            }
        }
        if s.0.parts.is_empty() {
            fs.push("false".into());
        }
        if !universe && !fs.is_empty() {
            piece.push_str(cond_sep);
            piece.push_str(&fs.join(" or "));
        }
        texts.push(piece);
    }
    out.push_str(&texts.join("; "));
}

/// The whole text of functions over the parameters `params` (members of a
/// union, or one function).
pub(crate) fn fmt_functions(params: &[String], members: &[&PwMultiAff]) -> String {
    let mut out = String::new();
    if !params.is_empty() {
        let _ = write!(out, "[{}] -> ", params.join(", "));
    }
    if members.is_empty() {
        out.push_str("{  }");
        return out;
    }
    out.push_str("{ ");
    for (k, m) in members.iter().enumerate() {
        if k > 0 {
            out.push_str("; ");
        }
        fmt_pieces(&m.space, m, &mut out);
    }
    out.push_str(" }");
    out
}

impl fmt::Display for PwMultiAff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&fmt_functions(self.space.params(), &[self]))
    }
}

impl fmt::Display for PwAff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Display for MultiAff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&PwMultiAff::from_multi_aff(self.clone()), f)
    }
}

impl fmt::Display for Aff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&PwAff::from_aff(self.clone()), f)
    }
}

impl fmt::Display for crate::api::UnionPwMultiAff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let members: Vec<&PwMultiAff> = self.members.iter().collect();
        f.write_str(&fmt_functions(&self.params, &members))
    }
}

impl fmt::Display for crate::api::UnionPwAff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let members: Vec<&PwMultiAff> = self.members.iter().map(|m| &m.0).collect();
        f.write_str(&fmt_functions(&self.params, &members))
    }
}
