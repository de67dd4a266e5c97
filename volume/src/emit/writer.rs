//! The MLIR text writer of the emitter: SSA names, index arithmetic, affine maps,
//! tensor types and `scf.for` loops.
//!
//! Index quantities (slice offsets, sizes, loop bounds) are kept symbolic as
//! [`Lin`], an affine form `c + Σ k·s` over *symbols*: SSA index values the
//! emitted code defines (loop induction variables, `tensor.dim` results,
//! `affine.min`/`max` results), each with a known range when there is one. A form
//! is turned into text only when an op needs it ([`Em::val`]: an index constant,
//! the symbol itself, or one `affine.apply`), so sizes stay static wherever the
//! symbols cancel (`hi - lo` of a tile is the tile size) and tensor types stay
//! static. `min`/`max` fold when the symbols' ranges decide them (the clipping of
//! an interior tile's slice against the input's bounds disappears that way, Sec.
//! 5.3) and otherwise become `affine.min`/`affine.max`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::error::Result;

/// An affine form `c + Σ coeff·symbol` over the writer's symbols.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Lin {
    /// The constant part.
    pub c: i64,
    /// Nonzero coefficients by symbol id.
    pub t: BTreeMap<usize, i64>,
}

impl Lin {
    /// The constant `c`.
    pub fn k(c: i64) -> Lin {
        Lin {
            c,
            t: BTreeMap::new(),
        }
    }

    /// The symbol `s`.
    pub fn sym(s: usize) -> Lin {
        let mut t = BTreeMap::new();
        t.insert(s, 1);
        Lin { c: 0, t }
    }

    /// The value when it is a constant.
    pub fn as_const(&self) -> Option<i64> {
        self.t.is_empty().then_some(self.c)
    }

    /// `self + k·o` (saturating: sizes are checked to be far below 2^62 before
    /// emission starts).
    pub fn add_scaled(&self, o: &Lin, k: i64) -> Lin {
        let mut r = self.clone();
        r.c = r.c.saturating_add(o.c.saturating_mul(k));
        for (s, c) in &o.t {
            let e = r.t.entry(*s).or_insert(0);
            *e = e.saturating_add(c.saturating_mul(k));
        }
        r.t.retain(|_, c| *c != 0);
        r
    }

    /// `self + o`.
    pub fn add(&self, o: &Lin) -> Lin {
        self.add_scaled(o, 1)
    }

    /// `self - o`.
    pub fn sub(&self, o: &Lin) -> Lin {
        self.add_scaled(o, -1)
    }

    /// `self + k`.
    pub fn plus(&self, k: i64) -> Lin {
        self.add(&Lin::k(k))
    }

    /// `k·self`.
    pub fn scale(&self, k: i64) -> Lin {
        Lin::k(0).add_scaled(self, k)
    }
}

/// A symbol: the SSA name of an index value and the range it is known to lie in.
#[derive(Debug, Clone)]
pub struct Sym {
    pub name: String,
    pub lo: Option<i64>,
    pub hi: Option<i64>,
}

/// The writer: the function body being built, fresh names, symbols.
#[derive(Debug)]
pub struct Em {
    body: String,
    depth: usize,
    prefix: String,
    counter: usize,
    syms: Vec<Sym>,
    idx_consts: BTreeSet<i64>,
    /// Materialised forms per open region (a value defined in a loop body is not
    /// visible after it).
    cache: Vec<HashMap<Lin, String>>,
    /// Write index arithmetic with `arith` ops instead of `affine` ones.
    pub arith: bool,
}

impl Em {
    /// A writer whose generated names start with `%<prefix>`; `prefix` must start
    /// no SSA name of the program (see [`fresh_prefix`]).
    pub fn new(prefix: &str, depth: usize) -> Em {
        Em {
            body: String::new(),
            depth,
            prefix: prefix.to_string(),
            counter: 0,
            syms: Vec::new(),
            idx_consts: BTreeSet::new(),
            cache: vec![HashMap::new()],
            arith: false,
        }
    }

    /// A new SSA name.
    pub fn fresh(&mut self) -> String {
        self.counter += 1;
        format!("%{}{}", self.prefix, self.counter)
    }

    /// A new name for a value inside a region body (never clashes with [`Em::fresh`]).
    pub fn inner(&self, what: &str) -> String {
        format!("%{}_{what}", self.prefix)
    }

    /// Writes one line at the current depth (multi-line text is re-indented).
    pub fn line(&mut self, s: &str) {
        for l in s.lines() {
            for _ in 0..self.depth {
                self.body.push_str("  ");
            }
            self.body.push_str(l.trim_start());
            self.body.push('\n');
        }
    }

    /// Writes text as is (region bodies keep their own layout).
    pub fn raw(&mut self, s: &str) {
        self.body.push_str(s);
        if !s.ends_with('\n') {
            self.body.push('\n');
        }
    }

    /// The name of the index constant `k` (declared by [`Em::finish`]).
    pub fn idx(&mut self, k: i64) -> String {
        self.idx_consts.insert(k);
        idx_name(&self.prefix, k)
    }

    /// Declares a symbol for the index value `name`.
    pub fn new_sym(&mut self, name: &str, lo: Option<i64>, hi: Option<i64>) -> usize {
        self.syms.push(Sym {
            name: name.to_string(),
            lo,
            hi,
        });
        self.syms.len() - 1
    }

    /// The SSA name of a symbol.
    pub fn sym_name(&self, s: usize) -> &str {
        &self.syms[s].name
    }

    /// The range of a form, from its symbols' ranges.
    pub fn range(&self, l: &Lin) -> (Option<i64>, Option<i64>) {
        let (mut lo, mut hi) = (Some(l.c), Some(l.c));
        for (s, &k) in &l.t {
            let sy = &self.syms[*s];
            let (a, b) = if k > 0 {
                (sy.lo, sy.hi)
            } else {
                (sy.hi, sy.lo)
            };
            lo = lo
                .zip(a)
                .map(|(x, a)| x.saturating_add(a.saturating_mul(k)));
            hi = hi
                .zip(b)
                .map(|(x, b)| x.saturating_add(b.saturating_mul(k)));
        }
        (lo, hi)
    }

    /// Whether `a <= b` always (`Some(true)`), never (`Some(false)`), or unknown.
    pub fn le(&self, a: &Lin, b: &Lin) -> Option<bool> {
        let (lo, hi) = self.range(&b.sub(a));
        if lo.is_some_and(|x| x >= 0) {
            Some(true)
        } else if hi.is_some_and(|x| x < 0) {
            Some(false)
        } else {
            None
        }
    }

    /// `max(a, b)`, folded when decided.
    pub fn max(&mut self, a: &Lin, b: &Lin) -> Lin {
        match self.le(a, b) {
            Some(true) => b.clone(),
            Some(false) => a.clone(),
            None => self.minmax("affine.max", a, b),
        }
    }

    /// `min(a, b)`, folded when decided.
    pub fn min(&mut self, a: &Lin, b: &Lin) -> Lin {
        match self.le(a, b) {
            Some(true) => a.clone(),
            Some(false) => b.clone(),
            None => self.minmax("affine.min", a, b),
        }
    }

    fn minmax(&mut self, op: &str, a: &Lin, b: &Lin) -> Lin {
        let (ra, rb) = (self.range(a), self.range(b));
        // max(a, b) >= each known lower bound; its upper bound needs both
        let any = |x: Option<i64>, y: Option<i64>, f: fn(i64, i64) -> i64| match (x, y) {
            (Some(x), Some(y)) => Some(f(x, y)),
            (x, None) => x,
            (None, y) => y,
        };
        let both =
            |x: Option<i64>, y: Option<i64>, f: fn(i64, i64) -> i64| x.zip(y).map(|(x, y)| f(x, y));
        let (lo, hi) = if op == "affine.max" {
            (any(ra.0, rb.0, i64::max), both(ra.1, rb.1, i64::max))
        } else {
            (both(ra.0, rb.0, i64::min), any(ra.1, rb.1, i64::min))
        };
        let name = self.affine_op(op, &[a, b], None);
        let s = self.new_sym(&name, lo, hi);
        Lin::sym(s)
    }

    /// `floor(a / k)` for `k > 0`.
    pub fn floor_div(&mut self, a: &Lin, k: i64) -> Lin {
        self.div(a, k, "floordiv")
    }

    /// `ceil(a / k)` for `k > 0`.
    pub fn ceil_div(&mut self, a: &Lin, k: i64) -> Lin {
        self.div(a, k, "ceildiv")
    }

    fn div(&mut self, a: &Lin, k: i64, how: &str) -> Lin {
        let k = k.max(1);
        let f = |x: i64| {
            if how == "floordiv" {
                x.div_euclid(k)
            } else {
                -((-x).div_euclid(k))
            }
        };
        if let Some(c) = a.as_const() {
            return Lin::k(f(c));
        }
        if k == 1 {
            return a.clone();
        }
        if a.t.values().all(|c| c % k == 0) {
            // exact in the symbols: only the constant rounds
            let mut r = a.scale(1);
            r.t.values_mut().for_each(|c| *c /= k);
            r.c = f(a.c);
            return r;
        }
        let (lo, hi) = self.range(a);
        let name = self.affine_op("affine.apply", &[a], Some((how, k)));
        let s = self.new_sym(&name, lo.map(f), hi.map(f));
        Lin::sym(s)
    }

    /// The SSA index value of a form (cached per region).
    pub fn val(&mut self, l: &Lin) -> String {
        if let Some(c) = l.as_const() {
            return self.idx(c);
        }
        if l.c == 0 && l.t.len() == 1 {
            if let Some((&s, &1)) = l.t.iter().next() {
                return self.syms[s].name.clone();
            }
        }
        for scope in self.cache.iter().rev() {
            if let Some(n) = scope.get(l) {
                return n.clone();
            }
        }
        let name = self.affine_op("affine.apply", &[l], None);
        if let Some(top) = self.cache.last_mut() {
            top.insert(l.clone(), name.clone());
        }
        name
    }

    /// Emits `%v = op affine_map<()[s..] -> (e, ..)>()[..]` of the forms (each
    /// `(e) how k` when `div` is `Some((how, k))`) and returns `%v`.
    fn affine_op(&mut self, op: &str, forms: &[&Lin], div: Option<(&str, i64)>) -> String {
        if self.arith {
            return self.arith_op(op, forms, div);
        }
        let mut used = Vec::new();
        let exprs: Vec<String> = forms
            .iter()
            .map(|l| {
                let e = self.affine_expr(l, &mut used);
                match div {
                    Some((how, k)) => format!("({e}) {how} {k}"),
                    None => e,
                }
            })
            .collect();
        let name = self.fresh();
        let args = self.sym_args(&used);
        self.line(&format!(
            "{name} = {op} affine_map<(){} -> ({})>(){args}",
            sym_list(used.len()),
            exprs.join(", ")
        ));
        name
    }

    /// [`Em::affine_op`] with `arith` ops: `muli`/`addi` chains, `minsi`/`maxsi`,
    /// `floordivsi`/`ceildivsi`.
    fn arith_op(&mut self, op: &str, forms: &[&Lin], div: Option<(&str, i64)>) -> String {
        let plain = op == "affine.apply" && div.is_none();
        let vals: Vec<String> = forms
            .iter()
            .map(|l| {
                if plain {
                    self.arith_form(l)
                } else {
                    self.val(l)
                }
            })
            .collect();
        let (a, b) = (&vals[0], vals.get(1).unwrap_or(&vals[0]));
        let rhs = match (op, div) {
            ("affine.min", _) => format!("arith.minsi {a}, {b}"),
            ("affine.max", _) => format!("arith.maxsi {a}, {b}"),
            (_, Some((how, k))) => {
                let f = if how == "floordiv" {
                    "floordivsi"
                } else {
                    "ceildivsi"
                };
                format!("arith.{f} {a}, {}", self.idx(k))
            }
            _ => return a.clone(),
        };
        let name = self.fresh();
        self.line(&format!("{name} = {rhs} : index"));
        name
    }

    /// A form as a chain of `arith.muli`/`arith.addi` on index values.
    fn arith_form(&mut self, l: &Lin) -> String {
        let mut acc: Option<String> = None;
        for (&s, &k) in &l.t {
            let mut term = self.syms[s].name.clone();
            if k != 1 {
                let (c, n) = (self.idx(k), self.fresh());
                self.line(&format!("{n} = arith.muli {term}, {c} : index"));
                term = n;
            }
            acc = Some(match acc {
                None => term,
                Some(a) => {
                    let n = self.fresh();
                    self.line(&format!("{n} = arith.addi {a}, {term} : index"));
                    n
                }
            });
        }
        match acc {
            None => self.idx(l.c),
            Some(a) if l.c == 0 => a,
            Some(a) => {
                let (c, n) = (self.idx(l.c), self.fresh());
                self.line(&format!("{n} = arith.addi {a}, {c} : index"));
                n
            }
        }
    }

    /// Emits `%v = tensor.empty(dynamic sizes) : type` for a tensor of `sizes`.
    pub fn empty(&mut self, sizes: &[Lin], elem: &str) -> String {
        let dyn_sizes: Vec<String> = sizes
            .iter()
            .filter(|s| s.as_const().is_none())
            .map(|s| self.val(s))
            .collect();
        let name = self.fresh();
        self.line(&format!(
            "{name} = tensor.empty({}) : {}",
            dyn_sizes.join(", "),
            tensor_type(sizes, elem)
        ));
        name
    }

    /// The `[offsets] [sizes] [1, ..]` of a slice with unit strides.
    pub fn slice_lists(&mut self, lo: &[Lin], size: &[Lin]) -> String {
        let offs: Vec<String> = lo.iter().map(|l| self.ofr(l)).collect();
        let sizes: Vec<String> = size.iter().map(|l| self.ofr(l)).collect();
        let ones = vec!["1"; sizes.len()].join(", ");
        format!("[{}] [{}] [{ones}]", offs.join(", "), sizes.join(", "))
    }

    /// A mixed static/dynamic entry (`4` or `%v`) of an offsets or sizes list.
    pub fn ofr(&mut self, l: &Lin) -> String {
        match l.as_const() {
            Some(c) => c.to_string(),
            None => self.val(l),
        }
    }

    /// The form as an affine expression in `s<k>`, where `used[k]` is the symbol;
    /// symbols are appended to `used` as they are met.
    fn affine_expr(&self, l: &Lin, used: &mut Vec<usize>) -> String {
        let mut s = String::new();
        for (sym, &k) in &l.t {
            let pos = match used.iter().position(|u| u == sym) {
                Some(p) => p,
                None => {
                    used.push(*sym);
                    used.len() - 1
                }
            };
            let term = if k == 1 {
                format!("s{pos}")
            } else {
                format!("s{pos} * {k}")
            };
            if s.is_empty() {
                s = term;
            } else {
                let _ = write!(s, " + {term}");
            }
        }
        if s.is_empty() {
            return l.c.to_string();
        }
        if l.c > 0 {
            let _ = write!(s, " + {}", l.c);
        } else if l.c < 0 {
            let _ = write!(s, " - {}", l.c.unsigned_abs());
        }
        s
    }

    fn sym_args(&self, used: &[usize]) -> String {
        let names: Vec<&str> = used.iter().map(|&s| self.syms[s].name.as_str()).collect();
        format!("[{}]", names.join(", "))
    }

    /// Emits `scf.for %iv = lo to hi step step iter_args(%a = acc) -> (ty)`
    /// (`carried` is `(acc, ty)`) whose body `body(em, iv, a)` returns the value
    /// to yield; returns the loop's result. The induction variable is a symbol
    /// with range `iv_range`.
    pub fn for_loop(
        &mut self,
        lo: &Lin,
        hi: &Lin,
        step: i64,
        iv_range: (Option<i64>, Option<i64>),
        carried: (&str, &str),
        body: impl FnOnce(&mut Em, Lin, String) -> Result<String>,
    ) -> Result<String> {
        let (acc, ty) = carried;
        let (l, h, s) = (self.val(lo), self.val(hi), self.idx(step));
        let res = self.fresh();
        let iv = self.fresh();
        let a = self.fresh();
        self.line(&format!(
            "{res} = scf.for {iv} = {l} to {h} step {s} iter_args({a} = {acc}) -> ({ty}) {{"
        ));
        self.depth += 1;
        self.cache.push(HashMap::new());
        let sym = self.new_sym(&iv, iv_range.0, iv_range.1);
        let out = body(self, Lin::sym(sym), a);
        self.cache.pop();
        let out = out?;
        self.line(&format!("scf.yield {out} : {ty}"));
        self.depth -= 1;
        self.line("}");
        Ok(res)
    }

    /// The body text with the index constants declared first.
    pub fn finish(self) -> String {
        let mut head = String::new();
        for &k in &self.idx_consts {
            for _ in 0..self.depth {
                head.push_str("  ");
            }
            let _ = writeln!(
                head,
                "{} = arith.constant {k} : index",
                idx_name(&self.prefix, k)
            );
        }
        head + &self.body
    }
}

fn idx_name(prefix: &str, k: i64) -> String {
    if k < 0 {
        format!("%{prefix}cm{}", k.unsigned_abs())
    } else {
        format!("%{prefix}c{k}")
    }
}

fn sym_list(n: usize) -> String {
    if n == 0 {
        return String::new();
    }
    let s: Vec<String> = (0..n).map(|k| format!("s{k}")).collect();
    format!("[{}]", s.join(", "))
}

/// A prefix for generated SSA names that starts no `%name` of `text`.
pub fn fresh_prefix(text: &str) -> String {
    let mut p = String::from("v");
    while text.contains(&format!("%{p}")) {
        p.push('v');
    }
    p
}

/// `tensor<4x?x8xf32>` for sizes given as forms (non-constant sizes are `?`).
pub fn tensor_type(sizes: &[Lin], elem: &str) -> String {
    let mut s = String::from("tensor<");
    for z in sizes {
        match z.as_const() {
            Some(c) => {
                let _ = write!(s, "{c}x");
            }
            None => s.push_str("?x"),
        }
    }
    s.push_str(elem);
    s.push('>');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_what_ranges_decide() {
        let mut em = Em::new("v", 0);
        let q = em.new_sym("%q", Some(1), Some(14));
        let lo = Lin::sym(q).scale(32).plus(-1);
        assert_eq!(em.max(&lo, &Lin::k(0)), lo);
        assert_eq!(em.min(&lo.plus(34), &Lin::k(512)), lo.plus(34));
        assert_eq!(em.val(&lo), "%v1");
        assert_eq!(em.val(&lo), "%v1");
        assert_eq!(em.val(&Lin::k(3)), "%vc3");
        let n = em.new_sym("%n", Some(0), None);
        let m = em.min(&Lin::sym(n), &Lin::k(4));
        assert_eq!(m, Lin::sym(2));
        assert_eq!(em.floor_div(&Lin::sym(n).scale(4).plus(3), 4), Lin::sym(n));
        let text = em.finish();
        assert!(text.contains("%vc3 = arith.constant 3 : index"));
        assert!(text.contains("affine.apply affine_map<()[s0] -> (s0 * 32 - 1)>()[%q]"));
        assert!(text.contains("affine.min affine_map<()[s0] -> (s0, 4)>()[%n]"));
    }
}
