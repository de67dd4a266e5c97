//! Widened generators for the tail hunter (`vs_isl --hunt`, `src/bin/vs_isl.rs`):
//! problems of the six families of [`crate::families`] made larger and harder
//! than the benchmark's, to find single problems where our library is much
//! slower than isl (or fails where isl answers).
//!
//! What is widened, family by family (each function below has the details):
//! more disjuncts per union (variants of one conjunction, so they overlap and
//! nearly touch), 2–6 existential locals, near-parallel rows (a row copied with
//! one coefficient moved by 1, or scaled and moved), unions of 8–64 pieces of
//! tiled triangular domains (partial tiles, tile sizes such as 32x8x8), and for
//! the two-argument operations *perturbation pairs*: `B` is `A` with one row's
//! constant moved by 1–3, one row replaced by a nearby row, one disjunct split
//! in two by a near-parallel row (equal, or nearly), a moved copy of a disjunct
//! added, a near-parallel cut added, or (tiled) the same set written another
//! way; so `is_subset`, `is_equal` and `subtract` are close calls.
//!
//! The problems are built as integer rows (so that a pair can change one row),
//! independently of the text generators of [`crate::families`], whose output
//! (and so the benchmark's problems) is unchanged. Every constraint is one
//! comparison with zero (`... >= 0`, `... = 0`): the text is what isl prints,
//! and what `poly batch` reads.

use crate::families::{Family, affine, coef, div_ceil, div_floor, names, shuffle};
use crate::{Rng, Source};

/// One constraint `a · columns + c >= 0` (or `= 0`). The columns are the set
/// variables, then the parameters, then the disjunct's locals.
#[derive(Clone, Debug)]
struct Row {
    a: Vec<i128>,
    c: i128,
    eq: bool,
}

impl Row {
    fn ge(a: Vec<i128>, c: i128) -> Row {
        Row { a, c, eq: false }
    }

    fn eq(a: Vec<i128>, c: i128) -> Row {
        Row { a, c, eq: true }
    }

    /// `-(a x + c) - 1 >= 0`: the integer complement of an inequality.
    fn complement(&self) -> Row {
        Row::ge(self.a.iter().map(|x| -x).collect(), -self.c - 1)
    }
}

/// One disjunct: `locals` existential variables and the rows over the
/// variables, the parameters and those locals; `point`, when known, an integer
/// point near the disjunct (every column), to keep a replaced row near it.
#[derive(Clone, Debug)]
struct Conj {
    locals: usize,
    rows: Vec<Row>,
    point: Option<Vec<i128>>,
}

/// A union of disjuncts in one space.
#[derive(Clone, Debug)]
struct Poly {
    vars: Vec<String>,
    params: Vec<String>,
    conjs: Vec<Conj>,
}

impl Poly {
    fn new(vars: Vec<String>, params: Vec<String>) -> Poly {
        Poly {
            vars,
            params,
            conjs: Vec::new(),
        }
    }

    /// Columns of a disjunct before its locals.
    fn fixed(&self) -> usize {
        self.vars.len() + self.params.len()
    }

    /// The isl text: `[N] -> { [x0, x1] : exists (e0, e1 : ... >= 0 and ...) or (...) }`.
    fn text(&self) -> String {
        let pre = if self.params.is_empty() {
            String::new()
        } else {
            format!("[{}] -> ", self.params.join(", "))
        };
        let body = if self.conjs.is_empty() {
            "false".to_string()
        } else {
            self.conjs
                .iter()
                .map(|c| self.conj_text(c))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        format!("{pre}{{ [{}] : {body} }}", self.vars.join(", "))
    }

    fn conj_text(&self, cj: &Conj) -> String {
        let locals: Vec<String> = (0..cj.locals).map(|k| format!("e{k}")).collect();
        let names: Vec<&str> = self
            .vars
            .iter()
            .chain(&self.params)
            .chain(&locals)
            .map(String::as_str)
            .collect();
        let rows: Vec<String> = cj
            .rows
            .iter()
            .map(|r| {
                let terms: Vec<(i128, &str)> = r.a.iter().copied().zip(names.clone()).collect();
                let op = if r.eq { "=" } else { ">=" };
                if r.a.iter().all(|&x| x == 0) {
                    // a constant row (a perturbation can make one)
                    format!("{} {op} 0", r.c)
                } else {
                    format!("{} {op} 0", affine(&terms, r.c))
                }
            })
            .collect();
        let body = if rows.is_empty() {
            "true".to_string()
        } else {
            rows.join(" and ")
        };
        if locals.is_empty() {
            format!("({body})")
        } else {
            format!("exists ({} : {body})", locals.join(", "))
        }
    }

    fn max_locals(&self) -> usize {
        self.conjs.iter().map(|c| c.locals).max().unwrap_or(0)
    }

    fn max_rows(&self) -> usize {
        self.conjs.iter().map(|c| c.rows.len()).max().unwrap_or(0)
    }

    /// `d=VARS p=PARAMS disj=N loc=MAX rows=MAX`.
    fn dims(&self) -> String {
        format!(
            "d={} p={} disj={} loc={} rows={}",
            self.vars.len(),
            self.params.len(),
            self.conjs.len(),
            self.max_locals(),
            self.max_rows()
        )
    }
}

/// A generated problem: a short description of its shape (the sub-kind of the
/// family, its dimensions and, for a pair, how `B` was made from `A`), and the
/// isl text of its one or two arguments.
#[derive(Clone, Debug)]
pub struct Problem {
    pub shape: String,
    pub a: String,
    pub b: Option<String>,
}

/// What a family generator makes: the union, a name for its sub-kind, and
/// (sometimes) the same set written another way.
struct Gen {
    poly: Poly,
    kind: String,
    alt: Option<Poly>,
}

fn generate(family: Family, rng: &mut Rng, pair: bool) -> Gen {
    match family {
        Family::Random => random_w(rng, pair, false),
        Family::BigCoef => random_w(rng, pair, true),
        Family::Lattice => lattice_w(rng, pair),
        Family::Tiled => tiled_w(rng, pair),
        Family::Dependence => dependence_w(rng, pair),
        Family::Sdbm => sdbm_w(rng, pair),
    }
}

/// One union of the family (for `is_empty`, `lexmin`).
pub fn single(family: Family, rng: &mut Rng) -> Problem {
    let g = generate(family, rng, false);
    Problem {
        shape: format!("{} {}", g.kind, g.poly.dims()),
        a: g.poly.text(),
        b: None,
    }
}

/// A perturbation pair `(A, B)` of the family (for `is_subset`, `is_equal`,
/// `subtract`); see the module documentation for the relations.
pub fn pair(family: Family, rng: &mut Rng) -> Problem {
    let (a, b, shape) = pair_polys(family, rng);
    Problem {
        shape,
        a: a.text(),
        b: Some(b.text()),
    }
}

/// The union `A ∪ B` of a perturbation pair as one text (for `coalesce`: the
/// disjuncts of `A` and of its perturbation overlap or nearly touch).
pub fn union_of_pair(family: Family, rng: &mut Rng) -> Problem {
    let (mut a, b, shape) = pair_polys(family, rng);
    a.conjs.extend(b.conjs);
    Problem {
        shape: format!("{shape} union={}", a.conjs.len()),
        a: a.text(),
        b: None,
    }
}

fn pair_polys(family: Family, rng: &mut Rng) -> (Poly, Poly, String) {
    let g = generate(family, rng, true);
    let a = g.poly;
    let mut b = a.clone();
    let relation = match rng.range(0, 6) {
        0 => {
            shift_constant(rng, &mut b);
            "const"
        }
        1 => {
            nearby_row(rng, &mut b);
            "near-row"
        }
        2 => split(rng, &mut b),
        3 => {
            let mut copy = b.conjs[rng.range(0, b.conjs.len() as i64 - 1) as usize].clone();
            shift_row_constant(rng, &mut copy);
            b.conjs.push(copy);
            shuffle(rng, &mut b.conjs);
            "extra-copy"
        }
        4 => {
            let at = rng.range(0, b.conjs.len() as i64 - 1) as usize;
            if let Some(h) = near_parallel_cut(rng, &b.conjs[at]) {
                b.conjs[at].rows.push(h);
                "near-cut"
            } else {
                shift_constant(rng, &mut b);
                "const"
            }
        }
        _ => match g.alt {
            Some(alt) => {
                b = alt;
                if rng.chance(50) {
                    shift_constant(rng, &mut b);
                    "alt+const"
                } else {
                    "alt"
                }
            }
            None => {
                // drop one row of one disjunct (A ⊆ B)
                let at = rng.range(0, b.conjs.len() as i64 - 1) as usize;
                let rows = &mut b.conjs[at].rows;
                if rows.len() > 1 {
                    rows.remove(rng.range(0, rows.len() as i64 - 1) as usize);
                    "drop-row"
                } else {
                    shift_constant(rng, &mut b);
                    "const"
                }
            }
        },
    };
    let shape = format!(
        "{} {} rel={relation}{}",
        g.kind,
        a.dims(),
        if b.conjs.len() != a.conjs.len() {
            format!(" b.disj={}", b.conjs.len())
        } else {
            String::new()
        }
    );
    if rng.chance(50) {
        (a, b, shape)
    } else {
        (b, a, format!("{shape} swapped"))
    }
}

// ---- perturbations ----

/// A step of 1–3, either sign.
fn step(rng: &mut Rng) -> i128 {
    let s = rng.range(1, 3) as i128;
    if rng.chance(50) { -s } else { s }
}

/// One row of one disjunct gets its constant moved by 1–3.
fn shift_constant(rng: &mut Rng, p: &mut Poly) {
    let at = rng.range(0, p.conjs.len() as i64 - 1) as usize;
    shift_row_constant(rng, &mut p.conjs[at]);
}

fn shift_row_constant(rng: &mut Rng, cj: &mut Conj) {
    if cj.rows.is_empty() {
        return;
    }
    // inequalities more often than equalities (a moved equality is mostly empty)
    let mut r = rng.range(0, cj.rows.len() as i64 - 1) as usize;
    if cj.rows[r].eq {
        r = rng.range(0, cj.rows.len() as i64 - 1) as usize;
    }
    cj.rows[r].c += step(rng);
}

/// One row of one disjunct is replaced by a nearby row: one coefficient moved
/// by 1 (the constant adjusted so that the row keeps its value at the
/// disjunct's point, when there is one).
fn nearby_row(rng: &mut Rng, p: &mut Poly) {
    let at = rng.range(0, p.conjs.len() as i64 - 1) as usize;
    let cj = &mut p.conjs[at];
    if cj.rows.is_empty() {
        return;
    }
    let r = rng.range(0, cj.rows.len() as i64 - 1) as usize;
    let moved = moved_row(rng, &cj.rows[r], cj.point.as_deref());
    cj.rows[r] = moved;
}

/// `row` with one coefficient (a non-zero one, mostly) moved by ±1, and the
/// constant adjusted to keep the value at `point`.
fn moved_row(rng: &mut Rng, row: &Row, point: Option<&[i128]>) -> Row {
    let nz: Vec<usize> = (0..row.a.len()).filter(|&j| row.a[j] != 0).collect();
    let j = if !nz.is_empty() && rng.chance(70) {
        nz[rng.range(0, nz.len() as i64 - 1) as usize]
    } else {
        rng.range(0, row.a.len() as i64 - 1) as usize
    };
    let d = if rng.chance(50) { 1 } else { -1 };
    let mut out = row.clone();
    out.a[j] += d;
    if out.a.iter().all(|&x| x == 0) {
        out.a[j] -= 2 * d;
    }
    if let Some(p) = point {
        out.c -= d * p.get(j).copied().unwrap_or(0);
    }
    out
}

/// A row near-parallel to a row of `cj` (moved, or scaled by 2–4 and moved)
/// through about the same place, and its constant moved by 0–2: often nearly
/// redundant. `None` when `cj` has no inequality.
fn near_parallel_cut(rng: &mut Rng, cj: &Conj) -> Option<Row> {
    let ineqs: Vec<&Row> = cj.rows.iter().filter(|r| !r.eq).collect();
    if ineqs.is_empty() {
        return None;
    }
    let base = ineqs[rng.range(0, ineqs.len() as i64 - 1) as usize];
    let mut h = if rng.chance(40) {
        let s = rng.range(2, 4) as i128;
        Row::ge(base.a.iter().map(|x| s * x).collect(), s * base.c)
    } else {
        base.clone()
    };
    h = moved_row(rng, &h, cj.point.as_deref());
    h.c += rng.range(0, 2) as i128;
    Some(h)
}

/// One disjunct split in two by a near-parallel row `h`: `D ∧ h >= 0` and
/// `D ∧ h <= -1` (equal to `D`), or, a third of the time, with the second
/// half moved by one (`h <= 0`: overlapping, still equal; `h <= -2`: a gap
/// of one hyperplane, not equal).
fn split(rng: &mut Rng, p: &mut Poly) -> &'static str {
    let at = rng.range(0, p.conjs.len() as i64 - 1) as usize;
    let Some(h) = near_parallel_cut(rng, &p.conjs[at]) else {
        shift_constant(rng, p);
        return "const";
    };
    let mut lo = p.conjs[at].clone();
    let mut other = h.complement();
    let name = if rng.chance(33) {
        let d = if rng.chance(50) { 1 } else { -1 };
        other.c += d;
        if d > 0 { "split-overlap" } else { "split-gap" }
    } else {
        "split"
    };
    p.conjs[at].rows.push(h);
    lo.rows.push(other);
    p.conjs.push(lo);
    shuffle(rng, &mut p.conjs);
    name
}

// ---- random and bigcoef ----

/// `random` and `bigcoef`, widened: 2–5 variables (a parameter `N` 30% of the
/// time) and 2–6 existential locals per disjunct (2–4 for `bigcoef`), rows
/// built as the family's around a rational centre (thin slabs written as two
/// rows, half-spaces with slack below 1, sometimes an equality), a third of
/// them near-parallel to an earlier row (one coefficient moved by 1, or scaled
/// by 2–4 and moved), a box around the centre 40% of the time; 1–6 disjuncts
/// (1–4 for a pair), half of them variants of the first (rows moved by 1–3,
/// rows replaced by nearby ones, near-parallel cuts), the others around a
/// nearby centre.
fn random_w(rng: &mut Rng, pair: bool, big: bool) -> Gen {
    let nv = rng.range(2, 5) as usize;
    let params = if rng.chance(30) {
        vec!["N".to_string()]
    } else {
        vec![]
    };
    let mut poly = Poly::new(names("x", nv), params);
    let k = if pair {
        rng.range(1, 4)
    } else {
        rng.range(1, 6)
    } as usize;
    let nl = if big {
        rng.range(2, 4)
    } else {
        rng.range(2, 6)
    } as usize;
    let width = poly.fixed() + nl;
    let q = rng.range(2, 7) as i128;
    let centre: Vec<i128> = (0..width)
        .map(|_| rng.range(-3, 3) as i128 * q + rng.range(0, q as i64 - 1) as i128)
        .collect();
    let boxed = rng.chance(40);
    let first = near_gap_conj(rng, nv, nl, q, &centre, big, boxed);
    poly.conjs.push(first.clone());
    while poly.conjs.len() < k {
        if rng.chance(50) {
            let mut v = first.clone();
            for _ in 0..rng.range(1, 2) {
                match rng.range(0, 2) {
                    0 => shift_row_constant(rng, &mut v),
                    1 => {
                        let r = rng.range(0, v.rows.len() as i64 - 1) as usize;
                        v.rows[r] = moved_row(rng, &v.rows[r], v.point.as_deref());
                    }
                    _ => {
                        if let Some(h) = near_parallel_cut(rng, &v) {
                            v.rows.push(h);
                        }
                    }
                }
            }
            poly.conjs.push(v);
        } else {
            let near: Vec<i128> = centre
                .iter()
                .map(|c| c + rng.range(-(q as i64), q as i64) as i128)
                .collect();
            poly.conjs
                .push(near_gap_conj(rng, nv, nl, q, &near, big, boxed));
        }
    }
    let kind = if big { "bigcoef-wide" } else { "random-wide" };
    Gen {
        poly,
        kind: kind.to_string(),
        alt: None,
    }
}

/// One conjunction around `centre / q` (numerators over every column: the
/// `nv` variables, the parameters, `nl` locals).
fn near_gap_conj(
    rng: &mut Rng,
    nv: usize,
    nl: usize,
    q: i128,
    centre: &[i128],
    big: bool,
    boxed: bool,
) -> Conj {
    let width = centre.len();
    let point: Vec<i128> = centre
        .iter()
        .map(|&c| div_floor(2 * c + q, 2 * q))
        .collect();
    let m = width + 1 + rng.range(0, 2) as usize;
    let slabs = [20, 50, 80][rng.range(0, 2) as usize];
    let mut rows: Vec<Row> = Vec::new();
    let mut dirs: Vec<Vec<i128>> = Vec::new();
    for k in 0..m {
        let a: Vec<i128> = if !dirs.is_empty() && rng.chance(33) {
            // near-parallel to an earlier direction
            let base = &dirs[rng.range(0, dirs.len() as i64 - 1) as usize];
            let s = if rng.chance(40) {
                rng.range(2, 4) as i128
            } else {
                1
            };
            let mut a: Vec<i128> = base.iter().map(|x| s * x).collect();
            let j = rng.range(0, width as i64 - 1) as usize;
            a[j] += if rng.chance(50) { 1 } else { -1 };
            a
        } else {
            (0..width).map(|_| coef(rng, big)).collect()
        };
        let mut a = a;
        if a.iter().all(|&c| c == 0) {
            a[k % width] = if big { 1i128 << 41 } else { 1 };
        }
        dirs.push(a.clone());
        let s: i128 = a.iter().zip(centre).map(|(x, y)| x * y).sum();
        if k == 0 && rng.chance(10) {
            let r = div_floor(2 * s + q, 2 * q);
            rows.push(Row::eq(a, -r));
            continue;
        }
        let lo = div_floor(s, q);
        let hi = div_ceil(s, q);
        let loose = if rng.chance(20) {
            if big {
                1i128 << rng.range(0, 60)
            } else {
                rng.range(1, 3) as i128
            }
        } else {
            0
        };
        let neg: Vec<i128> = a.iter().map(|x| -x).collect();
        if rng.chance(slabs) {
            rows.push(Row::ge(a, -(lo - loose)));
            rows.push(Row::ge(neg, hi + loose));
        } else if rng.chance(50) {
            rows.push(Row::ge(a, -(lo - loose)));
        } else {
            rows.push(Row::ge(neg, hi + loose));
        }
    }
    if boxed {
        for v in 0..nv {
            let mut a = vec![0; width];
            a[v] = 1;
            rows.push(Row::ge(a.clone(), -(point[v] - rng.range(1, 4) as i128)));
            a[v] = -1;
            rows.push(Row::ge(a, point[v] + rng.range(1, 4) as i128));
        }
    }
    Conj {
        locals: nl,
        rows,
        point: Some(point),
    }
}

// ---- lattice ----

fn pow10(k: u32) -> i128 {
    10i128.pow(k)
}

/// `lattice`, widened: 2–3 variables, 2–4 locals that are strides
/// (`x - m e - r = 0`, `m` 2–9, or on `x + y`), and 1–5 (1–3 for a pair)
/// thin strips `c <= a x - b y (+ d z) <= c + w` with `a`, `b` close to the
/// same power of ten (10^3..10^14), side by side (each strip's `c` one past
/// the previous one's end, give or take one: gaps and overlaps of one), in a
/// box of a random power of ten; the first strip is planted around an
/// integer point half of the time.
fn lattice_w(rng: &mut Rng, pair: bool) -> Gen {
    let nv = rng.range(2, 3) as usize;
    let names = ["x", "y", "z"][..nv]
        .iter()
        .map(|v| v.to_string())
        .collect();
    let mut poly = Poly::new(names, vec![]);
    let nl = rng.range(2, 4) as usize;
    let width = nv + nl;
    let k = rng.range(3, 14) as u32;
    let big = |rng: &mut Rng| pow10(k) + rng.range(-60, 60) as i128;
    let (a, b) = (big(rng), big(rng));
    let d = if nv == 3 { rng.range(-9, 9) as i128 } else { 0 };
    let w = rng.range(0, 5) as i128;
    let lo = rng.range(-1000, 1000) as i128;
    let bw = pow10(rng.range(0, k as i64) as u32);
    let px = lo + rng.range(0, 1 << 20) as i128 % (bw + 1);
    let py = div_floor(a * px, b) + rng.range(-2, 2) as i128;
    let pz = rng.range(0, 3) as i128;
    let c0 = if rng.chance(50) {
        a * px - b * py + d * pz - rng.range(0, w as i64) as i128
    } else {
        rng.range(-20, 20) as i128
    };
    let strides: Vec<(usize, Option<usize>, i128, i128)> = (0..nl)
        .map(|j| {
            let v = j % nv;
            let other = (rng.chance(30)).then(|| (v + 1) % nv);
            let m = rng.range(2, 9) as i128;
            (v, other, m, rng.range(0, m as i64 - 1) as i128)
        })
        .collect();
    let n = if pair {
        rng.range(1, 3)
    } else {
        rng.range(1, 5)
    } as usize;
    let mut c = c0;
    for _ in 0..n {
        let mut rows = Vec::new();
        let mut strip = vec![0; width];
        strip[0] = a;
        strip[1] = -b;
        if nv == 3 {
            strip[2] = d;
        }
        let neg: Vec<i128> = strip.iter().map(|x| -x).collect();
        rows.push(Row::ge(strip, -c));
        rows.push(Row::ge(neg, c + w));
        let mut xa = vec![0; width];
        xa[0] = 1;
        rows.push(Row::ge(xa.clone(), -lo));
        xa[0] = -1;
        rows.push(Row::ge(xa, lo + bw));
        if nv == 3 {
            let mut za = vec![0; width];
            za[2] = 1;
            rows.push(Row::ge(za.clone(), 0));
            za[2] = -1;
            rows.push(Row::ge(za, 3));
        }
        for (j, &(v, other, m, r)) in strides.iter().enumerate() {
            let mut sa = vec![0; width];
            sa[v] = 1;
            if let Some(o) = other {
                sa[o] += 1;
            }
            sa[nv + j] = -m;
            rows.push(Row::eq(sa, -r));
        }
        let mut point = vec![px, py];
        if nv == 3 {
            point.push(pz);
        }
        point.extend(std::iter::repeat_n(0, nl));
        poly.conjs.push(Conj {
            locals: nl,
            rows,
            point: Some(point),
        });
        c += w + 1 + rng.range(-1, 1) as i128;
    }
    Gen {
        poly,
        kind: format!("lattice-strips 10^{k}"),
        alt: None,
    }
}

// ---- tiled ----

/// Tile sizes for `d` dimensions, the outer one largest (`32x8x8`, `16x8x4`, ...).
fn tile_sizes(rng: &mut Rng, d: usize) -> Vec<i128> {
    let outer = [8i128, 16, 32, 32][rng.range(0, 3) as usize];
    let mut t = vec![outer];
    for _ in 1..d {
        t.push([4i128, 8, 8, 16][rng.range(0, 3) as usize].min(outer));
    }
    t
}

/// A triangular domain over `d` points `y` (at columns `at..at + d`): the
/// chain `0 <= y_{d-1}`, `f_k y_{k+1} <= y_k` (`f_k` 1, or 2 for a skewed
/// side), `y_0 <= m`.
#[derive(Clone)]
struct Triangle {
    f: Vec<i128>,
    m: i128,
}

impl Triangle {
    fn random(rng: &mut Rng, d: usize, m: i128) -> Triangle {
        let f = (0..d.saturating_sub(1))
            .map(|_| if rng.chance(20) { 2 } else { 1 })
            .collect();
        Triangle { f, m }
    }

    fn rows(&self, width: usize, at: usize) -> Vec<Row> {
        let d = self.f.len() + 1;
        let mut rows = Vec::new();
        let mut a = vec![0; width];
        a[at + d - 1] = 1;
        rows.push(Row::ge(a, 0));
        for k in 0..d - 1 {
            let mut a = vec![0; width];
            a[at + k] = 1;
            a[at + k + 1] = -self.f[k];
            rows.push(Row::ge(a, 0));
        }
        let mut a = vec![0; width];
        a[at] = -1;
        rows.push(Row::ge(a, self.m));
        rows
    }

    /// Whether the box `[o_k, o_k + t_k - 1]` meets the domain (the least
    /// choice of each coordinate from the innermost out is optimal).
    fn meets(&self, o: &[i128], t: &[i128]) -> bool {
        let d = o.len();
        let mut y = o[d - 1].max(0);
        if y > o[d - 1] + t[d - 1] - 1 {
            return false;
        }
        for k in (0..d - 1).rev() {
            y = o[k].max(self.f[k] * y);
            if y > o[k] + t[k] - 1 {
                return false;
            }
        }
        y <= self.m
    }

    /// The origins of the tiles (sizes `t`) that meet the domain.
    fn tiles(&self, t: &[i128]) -> Vec<Vec<i128>> {
        let d = t.len();
        let mut out = Vec::new();
        let mut o = vec![0i128; d];
        loop {
            if self.meets(&o, t) {
                out.push(o.clone());
            }
            // next origin in the box [0, m]^d, odometer order
            let mut k = d;
            loop {
                if k == 0 {
                    return out;
                }
                k -= 1;
                o[k] += t[k];
                if o[k] <= self.m {
                    break;
                }
                o[k] = 0;
            }
        }
    }
}

/// Rows of the box `o_k <= y_k <= o_k + t_k - 1` (columns `at..`).
fn box_rows(width: usize, at: usize, o: &[i128], t: &[i128]) -> Vec<Row> {
    let mut rows = Vec::new();
    for k in 0..o.len() {
        let mut a = vec![0; width];
        a[at + k] = 1;
        rows.push(Row::ge(a.clone(), -o[k]));
        a[at + k] = -1;
        rows.push(Row::ge(a, o[k] + t[k] - 1));
    }
    rows
}

/// A triangle whose tiles number 8–64 (when it can; the bound grows from
/// about one outer tile).
fn triangle_with_tiles(rng: &mut Rng, t: &[i128]) -> (Triangle, Vec<Vec<i128>>) {
    let d = t.len();
    let mut m = t[0] * rng.range(1, 3) as i128 - 1 + rng.range(0, t[0] as i64 - 1) as i128;
    let tri = Triangle::random(rng, d, m);
    let mut tri = tri;
    loop {
        tri.m = m;
        let tiles = tri.tiles(t);
        if tiles.len() >= 8 || m > 64 * t[0] {
            return (tri, tiles);
        }
        m += t[0] / 2;
    }
}

/// `tiled`, widened: triangular domains (`0 <= y2 <= y1 <= y0 <= M`, in 2–3
/// dimensions, sometimes a side `2 y_{k+1} <= y_k`) tiled by sizes such as
/// 32x8x8, in three ways:
/// - `tile-origins`: the tile origins `x` (`x_k = T_k e_k`) of the tiles
///   that contain a point `p` of the domain (`x_k <= p_k <= x_k + T_k - 1`):
///   2d locals, and 0–2 cuts on the origins (`x1 + 1 <= x2`, bounds); 1–4
///   disjuncts with different cuts (1–2 for a pair).
/// - `partial-tiles`: the union of 8–64 tiles, each its box intersected with
///   the domain (the tiles on the diagonal are partial), 30% of them with the
///   tile index as a local (`T e <= y <= T e + T - 1`, `e = c`); sometimes a
///   parameter bound `y0 <= N - 1` on all of them. For a pair, all the tiles
///   when they are 64 or fewer, and then the domain is the same set written
///   another way.
/// - `tiled-space`: `[t, y]` with `T_k t_k <= y_k <= T_k t_k + T_k - 1` and
///   the domain on `y`, as one conjunction or as the union of its 8–64 tiles
///   (`t = c` and the box), the other form being the same set; a single
///   problem gets a cut such as `t1 >= t0 + 1`.
fn tiled_w(rng: &mut Rng, pair: bool) -> Gen {
    let d = if rng.chance(60) { 3 } else { 2 };
    let t = tile_sizes(rng, d);
    let sizes = t
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("x");
    match rng.range(0, 2) {
        0 => tile_origins(rng, &t, pair, &sizes),
        1 => partial_tiles(rng, &t, pair, &sizes),
        _ => tiled_space(rng, &t, pair, &sizes),
    }
}

fn tile_origins(rng: &mut Rng, t: &[i128], pair: bool, sizes: &str) -> Gen {
    let d = t.len();
    let mut poly = Poly::new(names("x", d), vec![]);
    let m = if rng.chance(50) {
        t[0] - 1
    } else {
        rng.range(t[0] as i64 / 2, 4 * t[0] as i64) as i128
    };
    let tri = Triangle::random(rng, d, m);
    let nl = 2 * d;
    let width = d + nl;
    let n = if pair {
        rng.range(1, 2)
    } else {
        rng.range(1, 4)
    };
    for _ in 0..n {
        let mut rows = Vec::new();
        for k in 0..d {
            let mut a = vec![0; width];
            a[k] = 1;
            a[d + k] = -t[k];
            rows.push(Row::eq(a, 0));
            let mut a = vec![0; width];
            a[d + d + k] = 1;
            a[k] = -1;
            rows.push(Row::ge(a.clone(), 0));
            let neg: Vec<i128> = a.iter().map(|x| -x).collect();
            rows.push(Row::ge(neg, t[k] - 1));
        }
        rows.extend(tri.rows(width, d + d));
        for _ in 0..rng.range(0, 2) {
            let i = rng.range(0, d as i64 - 1) as usize;
            let mut a = vec![0; width];
            match rng.range(0, 2) {
                0 if d > 1 => {
                    // an order between two origins: x_j >= x_i + 1
                    let mut j = rng.range(0, d as i64 - 2) as usize;
                    if j >= i {
                        j += 1;
                    }
                    a[j] = 1;
                    a[i] = -1;
                    rows.push(Row::ge(a, -1));
                }
                1 => {
                    a[i] = 1;
                    rows.push(Row::ge(a, -(t[i] * rng.range(0, 2) as i128)));
                }
                _ => {
                    a[i] = -1;
                    rows.push(Row::ge(
                        a,
                        t[i] * rng.range(0, 3) as i128 + rng.range(-1, 1) as i128,
                    ));
                }
            }
        }
        poly.conjs.push(Conj {
            locals: nl,
            rows,
            point: None,
        });
    }
    Gen {
        poly,
        kind: format!("tile-origins {sizes} M={m}"),
        alt: None,
    }
}

fn partial_tiles(rng: &mut Rng, t: &[i128], pair: bool, sizes: &str) -> Gen {
    let d = t.len();
    let (tri, mut tiles) = triangle_with_tiles(rng, t);
    let param = rng.chance(25);
    let params = if param { vec!["N".to_string()] } else { vec![] };
    let mut poly = Poly::new(names("y", d), params);
    let fixed = poly.fixed();
    let all = tiles.len() <= 64 && (pair || rng.chance(40));
    shuffle(rng, &mut tiles);
    if !all {
        let keep = rng.range(8.min(tiles.len() as i64), tiles.len().min(64) as i64) as usize;
        tiles.truncate(keep);
    }
    let n_param_rows = |width: usize| -> Vec<Row> {
        if param {
            let mut a = vec![0; width];
            a[0] = -1;
            a[d] = 1;
            vec![Row::ge(a, -1)]
        } else {
            vec![]
        }
    };
    for o in &tiles {
        let local = rng.chance(30);
        let width = fixed + usize::from(local);
        let mut rows = Vec::new();
        if local {
            // T0 e <= y0 <= T0 e + T0 - 1 and e = o0 / T0; the others a box
            let mut a = vec![0; width];
            a[0] = 1;
            a[fixed] = -t[0];
            rows.push(Row::ge(a.clone(), 0));
            let neg: Vec<i128> = a.iter().map(|x| -x).collect();
            rows.push(Row::ge(neg, t[0] - 1));
            let mut e = vec![0; width];
            e[fixed] = 1;
            rows.push(Row::eq(e, -o[0] / t[0]));
            rows.extend(box_rows(width, 1, &o[1..], &t[1..]));
        } else {
            rows.extend(box_rows(width, 0, o, t));
        }
        rows.extend(tri.rows(width, 0));
        rows.extend(n_param_rows(width));
        poly.conjs.push(Conj {
            locals: usize::from(local),
            rows,
            point: None,
        });
    }
    let alt = all.then(|| {
        let mut p = Poly::new(poly.vars.clone(), poly.params.clone());
        let mut rows = tri.rows(fixed, 0);
        rows.extend(n_param_rows(fixed));
        p.conjs.push(Conj {
            locals: 0,
            rows,
            point: None,
        });
        p
    });
    Gen {
        poly,
        kind: format!(
            "partial-tiles {sizes} M={} tiles={}{}",
            tri.m,
            tiles.len(),
            if all { " (all)" } else { "" }
        ),
        alt,
    }
}

fn tiled_space(rng: &mut Rng, t: &[i128], pair: bool, sizes: &str) -> Gen {
    let d = t.len();
    let (tri, mut tiles) = triangle_with_tiles(rng, t);
    let mut vars = names("t", d);
    vars.extend(names("y", d));
    let width = 2 * d;
    // the one-conjunction form
    let mut one = Poly::new(vars.clone(), vec![]);
    let mut rows = Vec::new();
    for k in 0..d {
        let mut a = vec![0; width];
        a[d + k] = 1;
        a[k] = -t[k];
        rows.push(Row::ge(a.clone(), 0));
        let neg: Vec<i128> = a.iter().map(|x| -x).collect();
        rows.push(Row::ge(neg, t[k] - 1));
    }
    rows.extend(tri.rows(width, d));
    if tiles.len() > 64 {
        // at most 64 tiles (unless the first outer slab has more): bound the
        // outer tile index before the slab of the 65th tile (in lexicographic
        // order, the outer index first)
        let last = (tiles[64][0] / t[0] - 1).max(0);
        tiles.retain(|o| o[0] / t[0] <= last);
        let mut a = vec![0; width];
        a[0] = -1;
        rows.push(Row::ge(a, last));
    }
    one.conjs.push(Conj {
        locals: 0,
        rows: rows.clone(),
        point: None,
    });
    // the union of its tiles
    let mut many = Poly::new(vars, vec![]);
    for o in &tiles {
        let mut rows = Vec::new();
        for k in 0..d {
            let mut a = vec![0; width];
            a[k] = 1;
            rows.push(Row::eq(a, -o[k] / t[k]));
        }
        rows.extend(box_rows(width, d, o, t));
        rows.extend(tri.rows(width, d));
        many.conjs.push(Conj {
            locals: 0,
            rows,
            point: None,
        });
    }
    shuffle(rng, &mut many.conjs);
    let many_first = rng.chance(50);
    let kind = format!(
        "tiled-space {sizes} M={} tiles={} as {}",
        tri.m,
        many.conjs.len(),
        if many_first { "union" } else { "one" }
    );
    let (mut poly, alt) = if many_first { (many, one) } else { (one, many) };
    if !pair {
        // a cut on the tile indices
        let mut a = vec![0; width];
        if d > 1 && rng.chance(60) {
            a[1] = 1;
            a[0] = -1;
            let c = -(rng.range(0, 1) as i128);
            for cj in &mut poly.conjs {
                cj.rows.push(Row::ge(a.clone(), c - 1));
            }
        } else {
            a[0] = 1;
            let c = rng.range(0, 3) as i128;
            for cj in &mut poly.conjs {
                cj.rows.push(Row::ge(a.clone(), -c));
            }
        }
    }
    Gen {
        poly,
        kind,
        alt: Some(alt),
    }
}

// ---- dependence ----

/// `dependence`, widened: depth 2–4, parameters `N` (and `M` 30% of the time,
/// bounding the odd levels), bounds `0 <= s_k <= N - 1` or triangular
/// `s_k <= s_{k-1}`, access equalities `s_k = t_k + a`, `s_k = 2 t_k + a` or
/// skewed `s_k + s_{k+1} = t_k + t_{k+1} + a` (or the level left free, a
/// fifth of the time), 2–4 stride locals
/// (`v - m e - r = 0` on one iterator or the sum of two, `m` 2–4), one
/// disjunct per level of the lexicographic order, for one access pair or
/// (40%) two.
fn dependence_w(rng: &mut Rng, pair: bool) -> Gen {
    let d = rng.range(2, 4) as usize;
    let params = if rng.chance(30) {
        vec!["N".to_string(), "M".to_string()]
    } else {
        vec!["N".to_string()]
    };
    let mut vars = names("s", d);
    vars.extend(names("t", d));
    let mut poly = Poly::new(vars, params);
    let np = poly.params.len();
    let fixed = poly.fixed();
    let nl = rng.range(2, 4) as usize;
    let width = fixed + nl;
    let (s, tt) = (|k: usize| k, |k: usize| d + k);
    let triangular = rng.chance(30);
    let mut bounds = Vec::new();
    for side in [0, d] {
        for k in 0..d {
            let mut a = vec![0; width];
            a[side + k] = 1;
            bounds.push(Row::ge(a.clone(), 0));
            let mut up = vec![0; width];
            up[side + k] = -1;
            if k > 0 && triangular {
                up[side + k - 1] = 1;
                bounds.push(Row::ge(up, 0));
            } else {
                let p = if np == 2 && k % 2 == 1 { 1 } else { 0 };
                up[2 * d + p] = 1;
                bounds.push(Row::ge(up, -1));
            }
        }
    }
    for j in 0..nl {
        let mut a = vec![0; width];
        let v = rng.range(0, 2 * d as i64 - 1) as usize;
        a[v] = 1;
        if rng.chance(30) {
            let w = rng.range(0, 2 * d as i64 - 1) as usize;
            a[w] += 1;
        }
        let m = rng.range(2, 4) as i128;
        a[fixed + j] = -m;
        bounds.push(Row::eq(a, -(rng.range(0, m as i64 - 1) as i128)));
    }
    if rng.chance(20) {
        let mut a = vec![0; width];
        a[2 * d] = -1;
        bounds.push(Row::ge(a, rng.range(1, 6) as i128));
    }
    let accesses = if !pair && rng.chance(40) { 2 } else { 1 };
    for _ in 0..accesses {
        let mut base = bounds.clone();
        let mut offsets: Vec<i128> = (0..d).map(|_| rng.range(-1, 1) as i128).collect();
        if pair && rng.chance(70) {
            let l = rng.range(0, d as i64 - 1) as usize;
            offsets[..l].fill(0);
            offsets[l] = -1;
        }
        for k in 0..d {
            let mut a = vec![0; width];
            match rng.range(0, 9) {
                0 | 3 => {}
                1 => {
                    a[s(k)] = 1;
                    a[tt(k)] = -2;
                    base.push(Row::eq(a, -offsets[k]));
                }
                2 if k + 1 < d => {
                    a[s(k)] = 1;
                    a[s(k + 1)] = 1;
                    a[tt(k)] = -1;
                    a[tt(k + 1)] = -1;
                    base.push(Row::eq(a, -offsets[k]));
                }
                _ => {
                    a[s(k)] = 1;
                    a[tt(k)] = -1;
                    base.push(Row::eq(a, -offsets[k]));
                }
            }
        }
        for level in 0..d {
            let mut rows = base.clone();
            for k in 0..level {
                let mut a = vec![0; width];
                a[s(k)] = 1;
                a[tt(k)] = -1;
                rows.push(Row::eq(a, 0));
            }
            let mut a = vec![0; width];
            a[tt(level)] = 1;
            a[s(level)] = -1;
            rows.push(Row::ge(a, -1));
            poly.conjs.push(Conj {
                locals: nl,
                rows,
                point: None,
            });
        }
    }
    Gen {
        poly,
        kind: format!(
            "dependence-wide depth={d}{}",
            if triangular { " triangular" } else { "" }
        ),
        alt: None,
    }
}

// ---- sdbm ----

/// `sdbm`, widened: 3–8 variables (a parameter `N` 30% of the time), 2–6
/// disjuncts (2–4 for a pair), each with bounds (`l <= x <= l + 0..10`, or
/// `x <= N`), `n` to `2n` differences `x - y <= c` (`c` in -4..=4, -1..=4 for
/// a pair) and 2–6 strides `x - m e - r = 0` (`m` 2–4); half of the disjuncts
/// after the first are variants of it (one bound or difference moved by 1–3).
fn sdbm_w(rng: &mut Rng, pair: bool) -> Gen {
    let n = rng.range(3, 8) as usize;
    let params = if rng.chance(30) {
        vec!["N".to_string()]
    } else {
        vec![]
    };
    let mut poly = Poly::new(names("x", n), params);
    let fixed = poly.fixed();
    let k = if pair {
        rng.range(2, 4)
    } else {
        rng.range(2, 6)
    } as usize;
    let nl = rng.range(2, 6) as usize;
    let width = fixed + nl;
    let fresh = |rng: &mut Rng| -> Conj {
        let mut rows = Vec::new();
        for v in 0..n {
            let mut a = vec![0; width];
            if fixed > n && rng.chance(25) {
                a[v] = -1;
                a[n] = 1;
                rows.push(Row::ge(a, 0));
            } else if rng.chance(70) {
                let lo = rng.range(-5, 0) as i128;
                a[v] = 1;
                rows.push(Row::ge(a.clone(), -lo));
                a[v] = -1;
                rows.push(Row::ge(a, lo + rng.range(0, 10) as i128));
            }
        }
        for _ in 0..rng.range(n as i64, 2 * n as i64) {
            let x = rng.range(0, n as i64 - 1) as usize;
            let mut y = rng.range(0, n as i64 - 2) as usize;
            if y >= x {
                y += 1;
            }
            let mut a = vec![0; width];
            a[x] = -1;
            a[y] = 1;
            rows.push(Row::ge(a, rng.range(if pair { -1 } else { -4 }, 4) as i128));
        }
        for j in 0..nl {
            let mut a = vec![0; width];
            a[rng.range(0, n as i64 - 1) as usize] = 1;
            let m = rng.range(2, 4) as i128;
            a[fixed + j] = -m;
            rows.push(Row::eq(a, -(rng.range(0, m as i64 - 1) as i128)));
        }
        shuffle(rng, &mut rows);
        Conj {
            locals: nl,
            rows,
            point: None,
        }
    };
    let first = fresh(rng);
    poly.conjs.push(first.clone());
    while poly.conjs.len() < k {
        if rng.chance(50) {
            let mut v = first.clone();
            shift_row_constant(rng, &mut v);
            poly.conjs.push(v);
        } else {
            poly.conjs.push(fresh(rng));
        }
    }
    Gen {
        poly,
        kind: "sdbm-wide".to_string(),
        alt: None,
    }
}
