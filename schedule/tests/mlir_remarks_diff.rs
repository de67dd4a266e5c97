//! A differential of `mlir_remarks` (MLIR's dependence report, issue 43):
//! random affine functions (1–4 deep nests with steps and `max`/`min`
//! bounds, `affine.apply` chains with `floordiv`, `ceildiv` and `mod` (some
//! in the generic form, some with the divisor a symbol bound to a constant), a
//! symbol, `affine.if` with and without `else`, 1–3 memrefs, 2–6 accesses)
//! are checked two ways.
//!
//! - Without the symbol, against a brute force: every instance of every
//!   access is enumerated and, for each pair of accesses and each depth,
//!   the exact answer (`false`, `true`, or each common loop's distance
//!   range) is computed from the pairs of instances that touch one element.
//!   Ours must be exactly that.
//! - Against `mlir-opt-22 --test-memref-dependence-check` (skipped when it
//!   is not installed): ours must be MLIR's or tighter (`false` where MLIR
//!   has a dependence, or ranges inside MLIR's), as MLIR is conservative
//!   (Fourier–Motzkin bounds and rational emptiness with `mod`/`floordiv`
//!   and steps). The one documented exception: MLIR gives the ops of an
//!   `else` region the `then` condition, so the remarks from or to an
//!   access in an `else` region are compared as `mlir_remarks_with(..,
//!   as_mlir)` gives them (with MLIR's conditions), and counted apart. The
//!   functions on which mlir-opt runs out of memory are counted apart too.
//!
//! `POLY_MLIR_DIFF_N` sets the number of functions (300 by default; the
//! issue's run used 10^4), `POLY_MLIR_DIFF_SEED` the seed.

use presburger_schedule::mlir::{mlir_remarks, mlir_remarks_with};
use std::collections::HashMap;
use std::fmt::Write as _;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    /// The next number.
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `lo ..= hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    /// True with probability `p` percent.
    fn chance(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
}

/// An affine expression over the loop iterators (by depth) and the symbol.
#[derive(Clone, Debug)]
enum E {
    Iv(usize),
    Sym,
    Const(i64),
    Add(Box<E>, Box<E>),
    Mul(Box<E>, i64),
    FloorDiv(Box<E>, i64),
    CeilDiv(Box<E>, i64),
    Mod(Box<E>, i64),
}

impl E {
    /// Its value for iterators `iv` (no symbol).
    fn eval(&self, iv: &[i64]) -> i64 {
        match self {
            E::Iv(k) => iv[*k],
            E::Sym => unreachable!("no brute force with the symbol"),
            E::Const(c) => *c,
            E::Add(a, b) => a.eval(iv) + b.eval(iv),
            E::Mul(a, k) => a.eval(iv) * k,
            E::FloorDiv(a, k) => a.eval(iv).div_euclid(*k),
            E::CeilDiv(a, k) => -((-a.eval(iv)).div_euclid(*k)),
            E::Mod(a, k) => a.eval(iv).rem_euclid(*k),
        }
    }
    /// Its text with iterator `k` written `dim(k)` and the symbol `sym`.
    fn text(&self, dim: &dyn Fn(usize) -> String, sym: &str) -> String {
        match self {
            E::Iv(k) => dim(*k),
            E::Sym => sym.to_string(),
            E::Const(c) => c.to_string(),
            E::Add(a, b) => format!("({} + {})", a.text(dim, sym), b.text(dim, sym)),
            E::Mul(a, k) => format!("({}) * {k}", a.text(dim, sym)),
            E::FloorDiv(a, k) => format!("({}) floordiv {k}", a.text(dim, sym)),
            E::CeilDiv(a, k) => format!("({}) ceildiv {k}", a.text(dim, sym)),
            E::Mod(a, k) => format!("({}) mod {k}", a.text(dim, sym)),
        }
    }
}

/// An op of a generated function.
#[derive(Clone, Debug)]
enum Node {
    For {
        lbs: Vec<E>,
        ubs: Vec<E>,
        step: i64,
        body: Vec<Node>,
    },
    If {
        conds: Vec<(E, bool)>,
        then: Vec<Node>,
        els: Option<Vec<Node>>,
    },
    Access {
        write: bool,
        mem: usize,
        subs: Vec<E>,
    },
}

/// What is generated for one function.
struct Func {
    body: Vec<Node>,
    ranks: Vec<usize>,
    sym: bool,
}

/// The generator's state for one function.
struct Gen<'r> {
    rng: &'r mut Rng,
    max_depth: usize,
    left: usize,
    ranks: Vec<usize>,
    sym: bool,
}

impl Gen<'_> {
    /// A random expression over `depth` iterators, `size` nodes at most.
    fn expr(&mut self, depth: usize, size: usize) -> E {
        if size <= 1 || self.rng.chance(45) {
            return match self.rng.range(0, 9) {
                0..=5 if depth > 0 => E::Iv(self.rng.range(0, depth as i64 - 1) as usize),
                6 if self.sym => E::Sym,
                _ => E::Const(self.rng.range(-2, 3)),
            };
        }
        let a = Box::new(self.expr(depth, size - 1));
        match self.rng.range(0, 6) {
            0 | 1 => E::Add(a, Box::new(self.expr(depth, size / 2))),
            2 => E::Mul(a, [2, 3, -1][self.rng.range(0, 2) as usize]),
            3 => E::FloorDiv(a, self.rng.range(2, 4)),
            4 => E::CeilDiv(a, self.rng.range(2, 3)),
            _ => E::Mod(a, self.rng.range(2, 4)),
        }
    }

    /// A subscript or condition over `depth` iterators: mostly an iterator
    /// (or two) plus a constant, sometimes under `floordiv`, `ceildiv` or
    /// `mod`, sometimes any expression.
    fn index(&mut self, depth: usize) -> E {
        if depth == 0 || self.rng.chance(10) {
            return self.expr(depth, 4);
        }
        let iv = |g: &mut Self| E::Iv(g.rng.range(0, depth as i64 - 1) as usize);
        let mut e = iv(self);
        if self.rng.chance(25) {
            e = E::Mul(Box::new(e), 2);
        }
        if self.rng.chance(25) {
            e = E::Add(Box::new(e), Box::new(iv(self)));
        }
        if self.sym && self.rng.chance(15) {
            e = E::Add(Box::new(e), Box::new(E::Sym));
        }
        if self.rng.chance(60) {
            e = E::Add(Box::new(e), Box::new(E::Const(self.rng.range(-2, 2))));
        }
        if self.rng.chance(30) {
            let k = self.rng.range(2, 3);
            e = match self.rng.range(0, 2) {
                0 => E::FloorDiv(Box::new(e), k),
                1 => E::CeilDiv(Box::new(e), k),
                _ => E::Mod(Box::new(e), k),
            };
        }
        e
    }

    /// The bounds of a loop at `depth`, with few iterations.
    fn bounds(&mut self, depth: usize) -> (Vec<E>, Vec<E>) {
        let trip = [8, 6, 4, 3][depth.min(3)];
        let mut lbs = vec![E::Const(self.rng.range(0, 2))];
        let mut ubs = vec![E::Const(self.rng.range(3, trip))];
        if depth > 0 && self.rng.chance(40) {
            let k = self.rng.range(0, depth as i64 - 1) as usize;
            lbs.push(match self.rng.range(0, 1) {
                0 => E::Add(Box::new(E::Iv(k)), Box::new(E::Const(-2))),
                _ => E::FloorDiv(Box::new(E::Iv(k)), 2),
            });
        }
        if depth > 0 && self.rng.chance(40) {
            let k = self.rng.range(0, depth as i64 - 1) as usize;
            ubs.push(E::Add(
                Box::new(E::Iv(k)),
                Box::new(E::Const(self.rng.range(1, 3))),
            ));
        }
        if self.sym && self.rng.chance(30) {
            ubs.push(E::Sym);
        }
        if self.sym && self.rng.chance(15) {
            lbs.push(E::Add(Box::new(E::Sym), Box::new(E::Const(-4))));
        }
        (lbs, ubs)
    }

    /// A block of ops at `depth` (at least one access when `must`).
    fn block(&mut self, depth: usize, must: bool) -> Vec<Node> {
        let mut out = Vec::new();
        let n = self.rng.range(1, 3);
        for i in 0..n {
            if self.left == 0 {
                break;
            }
            let roll = self.rng.range(0, 99);
            if depth < self.max_depth && (roll < 40 || (i == 0 && depth == 0)) {
                let (lbs, ubs) = self.bounds(depth);
                let step = if self.rng.chance(25) {
                    self.rng.range(2, 3)
                } else {
                    1
                };
                let body = self.block(depth + 1, true);
                out.push(Node::For {
                    lbs,
                    ubs,
                    step,
                    body,
                });
            } else if roll < 52 {
                let conds = (0..self.rng.range(1, 2))
                    .map(|_| {
                        // true for about half of the iterations
                        let e = self.index(depth);
                        let e = if self.rng.chance(50) {
                            let c = E::Const(self.rng.range(-2, 1));
                            E::Add(Box::new(e), Box::new(c))
                        } else {
                            let c = E::Const(self.rng.range(1, 4));
                            E::Add(Box::new(E::Mul(Box::new(e), -1)), Box::new(c))
                        };
                        (e, self.rng.chance(10))
                    })
                    .collect();
                let then = self.block(depth, false);
                let els = self.rng.chance(30).then(|| self.block(depth, false));
                out.push(Node::If { conds, then, els });
            } else {
                out.push(self.access(depth));
            }
        }
        if must && self.left > 0 && !out.iter().any(|n| matches!(n, Node::Access { .. })) {
            out.push(self.access(depth));
        }
        out
    }

    /// One load or store at `depth`.
    fn access(&mut self, depth: usize) -> Node {
        self.left -= 1;
        let mem = self.rng.range(0, self.ranks.len() as i64 - 1) as usize;
        let subs = (0..self.ranks[mem]).map(|_| self.index(depth)).collect();
        Node::Access {
            write: self.rng.chance(50),
            mem,
            subs,
        }
    }
}

/// A random function.
fn generate(rng: &mut Rng) -> Func {
    let n_mem = [1, 1, 2, 3][rng.range(0, 3) as usize];
    let ranks: Vec<usize> = (0..n_mem)
        .map(|_| if rng.chance(70) { 1 } else { 2 })
        .collect();
    let sym = rng.chance(30);
    let mut g = Gen {
        max_depth: rng.range(1, 4) as usize,
        left: rng.range(2, 6) as usize,
        ranks,
        sym,
        rng,
    };
    let mut body = Vec::new();
    while g.left > 0 {
        body.extend(g.block(0, true));
    }
    let ranks = g.ranks;
    Func { body, ranks, sym }
}

/// The MLIR text of functions, writing each expression inline or through a
/// chain of `affine.apply`s.
struct Emit<'r> {
    rng: &'r mut Rng,
    out: String,
    n_tmp: usize,
    sym: bool,
}

impl Emit<'_> {
    /// Writes `text` as a line indented for `depth`.
    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "  ".repeat(depth + 1));
    }

    /// An SSA value holding `e`: one `affine.apply`, or a chain of them.
    fn apply(&mut self, e: &E, depth: usize, indent: usize) -> String {
        let (map, operands) = match e {
            E::FloorDiv(a, k) | E::CeilDiv(a, k) | E::Mod(a, k) if self.rng.chance(60) => {
                let t = self.apply(a, depth, indent);
                let op = match e {
                    E::FloorDiv(..) => "floordiv",
                    E::CeilDiv(..) => "ceildiv",
                    _ => "mod",
                };
                if self.rng.chance(30) {
                    // semi-affine: the divisor a symbol bound to a constant
                    (format!("(d0)[s0] -> (d0 {op} s0)"), format!("({t})[%c{k}]"))
                } else {
                    (format!("(d0) -> (d0 {op} {k})"), format!("({t})"))
                }
            }
            E::Add(a, b) if self.rng.chance(50) => {
                let (ta, tb) = (self.apply(a, depth, indent), self.apply(b, depth, indent));
                ("(d0, d1) -> (d0 + d1)".to_string(), format!("({ta}, {tb})"))
            }
            _ => self.map_of(std::slice::from_ref(e), depth),
        };
        let t = format!("%t{}", self.n_tmp);
        self.n_tmp += 1;
        if self.rng.chance(20) {
            // the generic form: dims then symbols in one operand list
            let flat = operands
                .replace("()[", "(")
                .replace(")[", ", ")
                .replace(']', ")");
            let types = vec!["index"; flat.matches('%').count()].join(", ");
            self.line(
                indent,
                &format!(
                    "{t} = \"affine.apply\"{flat} {{map = affine_map<{map}>}} : ({types}) -> index"
                ),
            );
        } else {
            self.line(
                indent,
                &format!("{t} = affine.apply affine_map<{map}>{operands}"),
            );
        }
        t
    }

    /// The map `(d0, ...)[s0] -> (es)` over the `depth` iterators (and the
    /// symbol), with its operands.
    fn map_of(&mut self, es: &[E], depth: usize) -> (String, String) {
        let dims: Vec<String> = (0..depth).map(|k| format!("d{k}")).collect();
        let ivs: Vec<String> = (0..depth).map(|k| format!("%i{k}")).collect();
        let (syms, sym_ops) = if self.sym { ("[s0]", "[%N]") } else { ("", "") };
        let results: Vec<String> = es
            .iter()
            .map(|e| e.text(&|k| format!("d{k}"), "s0"))
            .collect();
        (
            format!("({}){syms} -> ({})", dims.join(", "), results.join(", ")),
            format!("({}){sym_ops}", ivs.join(", ")),
        )
    }

    /// A map over the iterators whose results are `es`, some of them
    /// computed first by `affine.apply` (a new dim each).
    fn map_with_applies(&mut self, es: &[E], depth: usize, indent: usize) -> (String, String) {
        let mut extra = Vec::new();
        let mut results = Vec::new();
        for e in es {
            if self.rng.chance(35) {
                let t = self.apply(e, depth, indent);
                results.push(format!("d{}", depth + extra.len()));
                extra.push(t);
            } else {
                results.push(e.text(&|k| format!("d{k}"), "s0"));
            }
        }
        let dims: Vec<String> = (0..depth + extra.len()).map(|k| format!("d{k}")).collect();
        let mut ops: Vec<String> = (0..depth).map(|k| format!("%i{k}")).collect();
        ops.extend(extra);
        let (syms, sym_ops) = if self.sym { ("[s0]", "[%N]") } else { ("", "") };
        (
            format!("({}){syms} -> ({})", dims.join(", "), results.join(", ")),
            format!("({}){sym_ops}", ops.join(", ")),
        )
    }

    /// Writes the ops of `nodes`, inside `depth` loops, indented for `indent`.
    fn block(&mut self, nodes: &[Node], depth: usize, indent: usize) {
        for n in nodes {
            match n {
                Node::For {
                    lbs,
                    ubs,
                    step,
                    body,
                } => {
                    let (lm, lo) = self.map_with_applies(lbs, depth, indent);
                    let (um, uo) = self.map_with_applies(ubs, depth, indent);
                    let lkw = if lbs.len() > 1 { "max " } else { "" };
                    let ukw = if ubs.len() > 1 { "min " } else { "" };
                    let step = if *step > 1 {
                        format!(" step {step}")
                    } else {
                        String::new()
                    };
                    self.line(
                        indent,
                        &format!(
                            "affine.for %i{depth} = {lkw}affine_map<{lm}>{lo} to {ukw}affine_map<{um}>{uo}{step} {{"
                        ),
                    );
                    self.block(body, depth + 1, indent + 1);
                    self.line(indent, "}");
                }
                Node::If { conds, then, els } => {
                    let es: Vec<E> = conds.iter().map(|c| c.0.clone()).collect();
                    let (m, ops) = self.map_with_applies(&es, depth, indent);
                    // the map's results become the set's constraints
                    let (head, results) = m.split_once(" -> ").unwrap();
                    let results = &results[1..results.len() - 1];
                    let parts: Vec<String> = split_top(results)
                        .iter()
                        .zip(conds)
                        .map(|(r, (_, eq))| format!("{r} {} 0", if *eq { "==" } else { ">=" }))
                        .collect();
                    self.line(
                        indent,
                        &format!(
                            "affine.if affine_set<{head} : ({})>{ops} {{",
                            parts.join(", ")
                        ),
                    );
                    self.block(then, depth, indent + 1);
                    if let Some(e) = els {
                        self.line(indent, "} else {");
                        self.block(e, depth, indent + 1);
                    }
                    self.line(indent, "}");
                }
                Node::Access { write, mem, subs } => {
                    let mut texts = Vec::new();
                    for s in subs {
                        if self.rng.chance(50) {
                            texts.push(self.apply(s, depth, indent));
                        } else {
                            texts.push(s.text(&|k| format!("%i{k}"), "symbol(%N)"));
                        }
                    }
                    let ty = format!("memref<{}f32>", "?x".repeat(subs.len()));
                    let subs = texts.join(", ");
                    if *write {
                        self.line(
                            indent,
                            &format!("affine.store %cst, %m{mem}[{subs}] : {ty}"),
                        );
                    } else {
                        let t = format!("%v{}", self.n_tmp);
                        self.n_tmp += 1;
                        self.line(indent, &format!("{t} = affine.load %m{mem}[{subs}] : {ty}"));
                    }
                }
            }
        }
    }
}

/// `text` split at its top-level commas.
fn split_top(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out.iter().map(|s| s.trim().to_string()).collect()
}

/// The MLIR text of function `f` named `@fNAME`.
fn emit(f: &Func, name: usize, rng: &mut Rng) -> String {
    let mut args: Vec<String> = f
        .ranks
        .iter()
        .enumerate()
        .map(|(k, r)| format!("%m{k}: memref<{}f32>", "?x".repeat(*r)))
        .collect();
    if f.sym {
        args.push("%N: index".into());
    }
    let mut e = Emit {
        rng,
        out: String::new(),
        n_tmp: 0,
        sym: f.sym,
    };
    e.line(0, "%cst = arith.constant 1.0 : f32");
    for k in 2..=4 {
        e.line(0, &format!("%c{k} = arith.constant {k} : index"));
    }
    e.block(&f.body, 0, 0);
    format!(
        "func.func @f{name}({}) {{\n{}  return\n}}\n",
        args.join(", "),
        e.out
    )
}

/// One access as the brute force sees it.
struct Acc {
    write: bool,
    mem: usize,
    loops: Vec<usize>,
    path: Vec<(usize, usize)>,
    /// Its instances: iterators and element.
    inst: Vec<(Vec<i64>, Vec<i64>)>,
    in_else: bool,
}

/// Walks the tree: every access (in textual order) with its instances.
struct Walk {
    accs: Vec<Acc>,
    n_loops: usize,
    n_blocks: usize,
}

impl Walk {
    /// Records the accesses of `nodes` (no instances yet).
    fn shape(
        &mut self,
        nodes: &[Node],
        loops: &mut Vec<usize>,
        path: &mut Vec<(usize, usize)>,
        in_else: bool,
    ) {
        let block = self.n_blocks;
        self.n_blocks += 1;
        path.push((block, 0));
        for (k, n) in nodes.iter().enumerate() {
            if let Some(last) = path.last_mut() {
                last.1 = k;
            }
            match n {
                Node::For { body, .. } => {
                    loops.push(self.n_loops);
                    self.n_loops += 1;
                    self.shape(body, loops, path, in_else);
                    loops.pop();
                }
                Node::If { then, els, .. } => {
                    self.shape(then, loops, path, in_else);
                    if let Some(e) = els {
                        self.shape(e, loops, path, true);
                    }
                }
                Node::Access { write, mem, .. } => self.accs.push(Acc {
                    write: *write,
                    mem: *mem,
                    loops: loops.clone(),
                    path: path.clone(),
                    inst: Vec::new(),
                    in_else,
                }),
            }
        }
        path.pop();
    }
}

/// Adds the instances of `nodes` under iterators `iv` to `accs` (numbered
/// from `*next`).
fn run(nodes: &[Node], iv: &mut Vec<i64>, accs: &mut [Acc], next: &mut usize, live: bool) {
    for n in nodes {
        match n {
            Node::For {
                lbs,
                ubs,
                step,
                body,
            } => {
                let lo = lbs.iter().map(|e| e.eval(iv)).max().unwrap_or(0);
                let hi = ubs.iter().map(|e| e.eval(iv)).min().unwrap_or(0);
                let start = *next;
                let mut x = lo;
                let mut ran = false;
                while live && x < hi {
                    *next = start;
                    iv.push(x);
                    run(body, iv, accs, next, true);
                    iv.pop();
                    x += step;
                    ran = true;
                }
                if !ran {
                    // number the accesses inside all the same
                    *next = start;
                    iv.push(0);
                    run(body, iv, accs, next, false);
                    iv.pop();
                }
            }
            Node::If { conds, then, els } => {
                let holds = conds.iter().all(|(e, eq)| {
                    let v = e.eval(iv);
                    if *eq { v == 0 } else { v >= 0 }
                });
                run(then, iv, accs, next, live && holds);
                if let Some(e) = els {
                    run(e, iv, accs, next, live && !holds);
                }
            }
            Node::Access { subs, .. } => {
                if live {
                    let elem = subs.iter().map(|s| s.eval(iv)).collect();
                    accs[*next].inst.push((iv.clone(), elem));
                }
                *next += 1;
            }
        }
    }
}

/// The accesses of `f`, in textual order, without their instances.
fn accesses(f: &Func) -> Vec<Acc> {
    let mut w = Walk {
        accs: Vec::new(),
        n_loops: 0,
        n_blocks: 0,
    };
    w.shape(&f.body, &mut Vec::new(), &mut Vec::new(), false);
    w.accs
}

/// The number of loops around both `a` and `b`.
fn common(a: &Acc, b: &Acc) -> usize {
    a.loops
        .iter()
        .zip(&b.loops)
        .take_while(|(x, y)| x == y)
        .count()
}

/// The exact remark results of one function, in MLIR's order.
fn brute_force(f: &Func) -> Vec<String> {
    let mut accs = accesses(f);
    run(&f.body, &mut Vec::new(), &mut accs, &mut 0, true);
    let mut out = Vec::new();
    for a in &accs {
        for b in &accs {
            let c = common(a, b);
            let before = {
                let mut last = None;
                for (x, y) in a.path.iter().zip(&b.path) {
                    if x.0 != y.0 {
                        break;
                    }
                    last = Some((x.1, y.1));
                }
                matches!(last, Some((i, j)) if i < j)
            };
            // per depth: whether some pair, and the ranges
            let mut found = vec![false; c + 1];
            let mut ranges = vec![vec![(i64::MAX, i64::MIN); c]; c + 1];
            if a.mem == b.mem && (a.write || b.write) {
                let mut by_elem: HashMap<&[i64], Vec<&[i64]>> = HashMap::new();
                for (x, e) in &b.inst {
                    by_elem.entry(e.as_slice()).or_default().push(x);
                }
                for (x, e) in &a.inst {
                    for y in by_elem.get(e.as_slice()).into_iter().flatten() {
                        let d = (0..c).find(|&k| x[k] != y[k]);
                        let depth = match d {
                            Some(k) if y[k] > x[k] => k,
                            Some(_) => continue,
                            None if before => c,
                            None => continue,
                        };
                        found[depth] = true;
                        for k in 0..c {
                            let r = &mut ranges[depth][k];
                            r.0 = r.0.min(y[k] - x[k]);
                            r.1 = r.1.max(y[k] - x[k]);
                        }
                    }
                }
            }
            for d in 0..=c {
                out.push(if !found[d] {
                    "false".to_string()
                } else if c == 0 || d == c {
                    "true".to_string()
                } else {
                    ranges[d]
                        .iter()
                        .map(|(l, h)| format!("[{l}, {h}]"))
                        .collect()
                });
            }
        }
    }
    out
}

/// The result part of each remark line.
fn results(remarks: &str) -> Vec<String> {
    remarks
        .lines()
        .filter_map(|l| l.split_once(" = ").map(|x| x.1.to_string()))
        .collect()
}

/// The ranges `[lo, hi]...` of a result, `None` for `true`/`false`.
fn ranges(r: &str) -> Option<Vec<(f64, f64)>> {
    if !r.starts_with('[') {
        return None;
    }
    let num = |s: &str| match s.trim() {
        "-inf" => f64::NEG_INFINITY,
        "+inf" => f64::INFINITY,
        x => x.parse().unwrap(),
    };
    Some(
        r.trim_start_matches('[')
            .trim_end_matches(']')
            .split("][")
            .map(|p| {
                let (l, h) = p.split_once(", ").unwrap();
                (num(l), num(h))
            })
            .collect(),
    )
}

/// Whether our result `ours` is MLIR's `theirs` or tighter.
fn tighter_or_equal(ours: &str, theirs: &str) -> bool {
    if ours == theirs || ours == "false" {
        return true;
    }
    match (ranges(ours), ranges(theirs)) {
        (Some(o), Some(t)) => {
            o.len() == t.len() && o.iter().zip(&t).all(|(a, b)| a.0 >= b.0 && a.1 <= b.1)
        }
        _ => false,
    }
}

/// The remarks (standard error) of `tool --test-memref-dependence-check
/// --split-input-file path`, its file name written `f.mlir`; `None` when it
/// fails (it is given 2 GiB of memory and 60 s).
fn run_tool(tool: &str, path: &std::path::Path) -> Option<String> {
    let p = path.to_str()?;
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 2097152; exec timeout 60 {tool} --test-memref-dependence-check \
             --split-input-file '{p}' -o /dev/null"
        ))
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stderr).replace(p, "f.mlir"))
}

/// `mlir-opt-22` (or `$MLIR_OPT`) when it runs.
fn mlir_opt() -> Option<String> {
    let tool = std::env::var("MLIR_OPT").unwrap_or_else(|_| "mlir-opt-22".into());
    std::process::Command::new(&tool)
        .arg("--version")
        .output()
        .ok()
        .map(|_| tool)
}

/// The differential (see the module doc).
#[test]
fn random_functions_against_brute_force_and_mlir_opt() {
    let n: usize = std::env::var("POLY_MLIR_DIFF_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("POLY_MLIR_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(43);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let tool = mlir_opt();
    if tool.is_none() {
        eprintln!("no mlir-opt-22: the brute force only");
    }
    let dir = std::env::temp_dir().join(format!("poly-remarks-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut brute, mut compared, mut tighter, mut with_else) = (0, 0, 0, 0);
    let (mut remarks, mut dependent, mut equal, mut crashed) = (0, 0, 0, 0);
    let (mut else_remarks, mut else_equal) = (0, 0);
    let mut failures = Vec::new();
    let batch = 100;
    for start in (0..n).step_by(batch) {
        let funcs: Vec<Func> = (start..n.min(start + batch))
            .map(|_| generate(&mut rng))
            .collect();
        let texts: Vec<String> = funcs
            .iter()
            .enumerate()
            .map(|(k, f)| emit(f, start + k, &mut rng))
            .collect();
        let module = texts.join("// -----\n");
        let ours_all = mlir_remarks(&module, "f.mlir", true).unwrap_or_else(|e| {
            panic!("{e}\n{module}");
        });
        // each function's remarks, by its line range
        let mut first_line = 1;
        let mut spans = Vec::new();
        for t in &texts {
            let lines = t.lines().count() + 1;
            spans.push((first_line, first_line + lines));
            first_line += lines;
        }
        let split = |all: &str| -> Vec<Vec<String>> {
            let mut per = vec![Vec::new(); texts.len()];
            for l in all.lines().filter(|l| l.contains(": remark: ")) {
                let line: usize = l.split(':').nth(1).unwrap().parse().unwrap();
                let k = spans
                    .iter()
                    .position(|(a, b)| line >= *a && line < *b)
                    .unwrap();
                per[k].push(l.to_string());
            }
            per
        };
        let ours = split(&ours_all);
        // the same with MLIR's conditions of else regions
        let as_mlir = split(&mlir_remarks_with(&module, "f.mlir", true, true).unwrap());
        for (k, f) in funcs.iter().enumerate() {
            if !f.sym {
                brute += 1;
                let want = brute_force(f);
                let got = results(&ours[k].join("\n"));
                if got != want {
                    failures.push(format!(
                        "brute force differs:\n{}\nours: {got:?}\nexact: {want:?}",
                        texts[k]
                    ));
                }
            }
        }
        let Some(tool) = &tool else { continue };
        let path = dir.join(format!("batch{start}.mlir"));
        std::fs::write(&path, &module).unwrap();
        // mlir-opt runs out of memory in its Fourier–Motzkin elimination on
        // a few functions and then stops: then each function on its own
        let theirs: Vec<Option<Vec<String>>> = match run_tool(tool, &path) {
            Some(out) => split(&out).into_iter().map(Some).collect(),
            None => texts
                .iter()
                .enumerate()
                .map(|(k, t)| {
                    // keep the function's lines where they are in the module
                    let own = format!("{}{t}", "\n".repeat(spans[k].0 - 1));
                    let p = dir.join(format!("one{}.mlir", start + k));
                    std::fs::write(&p, own).unwrap();
                    run_tool(tool, &p).map(|out| split(&out).swap_remove(k))
                })
                .collect(),
        };
        for (k, f) in funcs.iter().enumerate() {
            // the remarks whose source or target is in an else region
            let accs = accesses(f);
            let mut in_else = Vec::new();
            for a in &accs {
                for b in &accs {
                    in_else.extend(std::iter::repeat_n(
                        a.in_else || b.in_else,
                        common(a, b) + 1,
                    ));
                }
            }
            with_else += usize::from(accs.iter().any(|a| a.in_else));
            let Some(their) = &theirs[k] else {
                crashed += 1;
                continue;
            };
            compared += 1;
            let (o, t) = (results(&ours[k].join("\n")), results(&their.join("\n")));
            let o_mlir = results(&as_mlir[k].join("\n"));
            if o.len() != t.len() {
                failures.push(format!(
                    "{} remarks vs mlir-opt's {}:\n{}\n{}",
                    o.len(),
                    t.len(),
                    texts[k],
                    their.join("\n")
                ));
                continue;
            }
            let mut any = false;
            for (i, (a, b)) in o.iter().zip(&t).enumerate() {
                if in_else.get(i).copied().unwrap_or(false) {
                    // compared as MLIR sees the else region
                    else_remarks += 1;
                    let a = &o_mlir[i];
                    if a == b {
                        else_equal += 1;
                    } else if !tighter_or_equal(a, b) {
                        failures.push(format!(
                            "remark {i} (else, as MLIR): ours {a}, mlir-opt {b}\n{}",
                            texts[k]
                        ));
                    }
                    continue;
                }
                remarks += 1;
                dependent += usize::from(a != "false");
                if a == b {
                    equal += 1;
                    continue;
                }
                if tighter_or_equal(a, b) {
                    any = true;
                } else {
                    failures.push(format!("remark {i}: ours {a}, mlir-opt {b}\n{}", texts[k]));
                }
            }
            tighter += usize::from(any);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{n} functions: {brute} checked by brute force; {compared} compared with mlir-opt \
         ({tighter} with some remark tighter than MLIR's, {with_else} with an access in an else region), \
         {crashed} on which mlir-opt fails (out of memory); {remarks} remarks compared ({dependent} not false \
         in ours), {equal} equal to mlir-opt's, {else_remarks} from or to an access in an else region \
         compared with MLIR's conditions of else regions ({else_equal} equal, the others tighter)"
    );
    if let Ok(path) = std::env::var("POLY_MLIR_DIFF_DUMP") {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let f = generate(&mut rng);
        std::fs::write(path, emit(&f, 0, &mut rng)).unwrap();
    }
    assert!(
        failures.is_empty(),
        "{} failures, the first:\n{}",
        failures.len(),
        failures.first().cloned().unwrap_or_default()
    );
}
