//! Problem families for the side-by-side benchmark against isl (`src/bin/vs_isl.rs`):
//! deterministic generators of isl-notation union sets whose shapes follow the kinds
//! of problems a polyhedral compiler asks (random conjunctions near an integer gap,
//! thin lattice sets, huge coefficients, tiled convolutions, dependence polyhedra,
//! difference constraints). The same seed gives the same problems.
//!
//! Every family makes, for one problem, a space (parameters and set variables) and
//! a natural group of disjuncts in it ([`Family::pieces`]); [`Family::problem`] is
//! one union (for emptiness) and [`Family::pair`] two unions of 1–4 disjuncts of the
//! same space related so that inclusion and equality hold sometimes.
//!
//! Arithmetic on coefficients is in `i128` (the largest family, `bigcoef`, keeps
//! coefficients below 2^71 and sums of a few products below 2^110).

use crate::{Rng, Source};

/// The parameters and set variables of a generated problem.
#[derive(Debug, Clone)]
pub struct Space {
    pub params: Vec<String>,
    pub vars: Vec<String>,
}

impl Space {
    fn new(params: &[&str], vars: Vec<String>) -> Space {
        Space {
            params: params.iter().map(|p| p.to_string()).collect(),
            vars,
        }
    }
}

/// One disjunct: existential locals and a conjunction of constraints (text).
#[derive(Debug, Clone, Default)]
pub struct Disjunct {
    pub locals: Vec<String>,
    pub cons: Vec<String>,
}

impl Disjunct {
    fn text(&self) -> String {
        let body = if self.cons.is_empty() {
            "true".to_string()
        } else {
            self.cons.join(" and ")
        };
        if self.locals.is_empty() {
            format!("({body})")
        } else {
            format!("(exists {} : {body})", self.locals.join(", "))
        }
    }
}

/// A union of disjuncts in one space, printed as isl text by [`Union::text`].
#[derive(Debug, Clone)]
pub struct Union {
    pub space: Space,
    pub disjuncts: Vec<Disjunct>,
}

impl Union {
    /// The isl text, e.g. `[N] -> { [i, j] : (...) or (exists e : ...) }`.
    pub fn text(&self) -> String {
        let pre = if self.space.params.is_empty() {
            String::new()
        } else {
            format!("[{}] -> ", self.space.params.join(", "))
        };
        let body = if self.disjuncts.is_empty() {
            "false".to_string()
        } else {
            self.disjuncts
                .iter()
                .map(Disjunct::text)
                .collect::<Vec<_>>()
                .join(" or ")
        };
        format!("{pre}{{ [{}] : {body} }}", self.space.vars.join(", "))
    }
}

/// The problem families of the benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// See [`random_pieces`].
    Random,
    /// See [`lattice_pieces`].
    Lattice,
    /// See [`bigcoef_pieces`].
    BigCoef,
    /// See [`tiled_pieces`].
    Tiled,
    /// See [`dependence_pieces`].
    Dependence,
    /// See [`sdbm_pieces`].
    Sdbm,
}

impl Family {
    /// All families, in the order of the benchmark's table.
    pub const ALL: [Family; 6] = [
        Family::Random,
        Family::Lattice,
        Family::BigCoef,
        Family::Tiled,
        Family::Dependence,
        Family::Sdbm,
    ];

    /// The name on the command line and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Family::Random => "random",
            Family::Lattice => "lattice",
            Family::BigCoef => "bigcoef",
            Family::Tiled => "tiled",
            Family::Dependence => "dependence",
            Family::Sdbm => "sdbm",
        }
    }

    /// The family of a name.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// A space of the family's shape.
    pub fn space(self, rng: &mut Rng) -> Space {
        match self {
            Family::Random | Family::BigCoef => random_space(rng),
            Family::Lattice => lattice_space(rng),
            Family::Tiled => tiled_space(rng),
            Family::Dependence => dependence_space(rng),
            Family::Sdbm => sdbm_space(rng),
        }
    }

    /// The family's natural group of disjuncts in `space` (one conjunction for
    /// `random`, `lattice`, `bigcoef`; about four tiles for `tiled`; one disjunct per
    /// lexicographic level for `dependence`; one or two for `sdbm`). With `pair`,
    /// the disjuncts are for a two-argument problem: the families whose single
    /// problems are mostly empty make non-empty pieces more often there, so that
    /// inclusion is not decided by emptiness alone.
    pub fn pieces(self, rng: &mut Rng, space: &Space, pair: bool) -> Vec<Disjunct> {
        match self {
            Family::Random => random_pieces(rng, space),
            Family::Lattice => lattice_pieces(rng, space),
            Family::BigCoef => bigcoef_pieces(rng, space),
            Family::Tiled => tiled_pieces(rng, space, pair),
            Family::Dependence => dependence_pieces(rng, space, pair),
            Family::Sdbm => sdbm_pieces(rng, space, pair),
        }
    }

    /// A constraint that cuts a set of the family (a bound on one variable at the
    /// family's scale), for the restricted and split variants of [`Family::pair`].
    fn cut(self, rng: &mut Rng, space: &Space) -> (String, i128) {
        let v = space.vars[rng.range(0, space.vars.len() as i64 - 1) as usize].clone();
        let c = match self {
            Family::Random | Family::BigCoef => rng.range(-3, 3) as i128,
            Family::Lattice => pow10(rng.range(0, 8) as u32) + rng.range(-3, 3) as i128,
            Family::Tiled => rng.range(0, 96) as i128,
            Family::Dependence => rng.range(0, 6) as i128,
            Family::Sdbm => rng.range(-3, 6) as i128,
        };
        (v, c)
    }

    /// One problem for a one-argument operation: the family's natural group of
    /// disjuncts in a fresh space.
    pub fn problem(self, rng: &mut Rng) -> String {
        let space = self.space(rng);
        let disjuncts = self.pieces(rng, &space, false);
        Union { space, disjuncts }.text()
    }

    /// A pair `(A, B)` of unions of 1–4 disjuncts of the family in one space, for
    /// the two-argument operations. `B` is one of: `A` with 1–2 more disjuncts
    /// (`A ⊆ B`); `A` with a bound added to every disjunct (`B ⊆ A`); `A` written
    /// differently (disjuncts and constraints reordered, one disjunct split in two
    /// by a bound: equal); an unrelated union of the family. The two are swapped
    /// half of the time, so inclusion is sometimes true and sometimes false.
    pub fn pair(self, rng: &mut Rng) -> (String, String) {
        let space = self.space(rng);
        let k = rng.range(1, 4) as usize;
        let a = self.take(rng, &space, k);
        let b = match rng.range(0, 3) {
            0 => {
                let mut b = a.clone();
                let extra = rng.range(1, 2) as usize;
                b.extend(self.take(rng, &space, extra));
                shuffle(rng, &mut b);
                b
            }
            1 => {
                let mut b = a.clone();
                for d in &mut b {
                    let (v, c) = self.cut(rng, &space);
                    d.cons.push(if rng.chance(50) {
                        format!("{v} <= {c}")
                    } else {
                        format!("{v} >= {c}")
                    });
                }
                b
            }
            2 => {
                let mut b = a.clone();
                for d in &mut b {
                    shuffle(rng, &mut d.cons);
                }
                let at = rng.range(0, b.len() as i64 - 1) as usize;
                let (v, c) = self.cut(rng, &space);
                let mut lo = b[at].clone();
                lo.cons.push(format!("{v} <= {c}"));
                b[at].cons.push(format!("{v} >= {}", c + 1));
                b.push(lo);
                shuffle(rng, &mut b);
                b
            }
            _ => {
                let k = rng.range(1, 4) as usize;
                self.take(rng, &space, k)
            }
        };
        let (a, b) = (
            Union {
                space: space.clone(),
                disjuncts: a,
            },
            Union {
                space,
                disjuncts: b,
            },
        );
        if rng.chance(50) {
            (a.text(), b.text())
        } else {
            (b.text(), a.text())
        }
    }

    /// `k` disjuncts of the family in `space` (from as many groups as needed).
    fn take(self, rng: &mut Rng, space: &Space, k: usize) -> Vec<Disjunct> {
        let mut out = Vec::new();
        while out.len() < k {
            let mut p = self.pieces(rng, space, true);
            shuffle(rng, &mut p);
            out.extend(p);
        }
        out.truncate(k);
        out
    }
}

pub(crate) fn shuffle<T>(rng: &mut Rng, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        let j = rng.range(0, i as i64) as usize;
        v.swap(i, j);
    }
}

fn pow10(k: u32) -> i128 {
    10i128.pow(k)
}

/// An affine expression `c1 v1 + c2 v2 + ... + k` as text (zero terms left out).
pub(crate) fn affine(terms: &[(i128, &str)], constant: i128) -> String {
    let mut t = String::new();
    for &(c, v) in terms {
        if c == 0 {
            continue;
        }
        let (sign, m) = if c < 0 { ("-", -c) } else { ("+", c) };
        let coef = if m == 1 { String::new() } else { m.to_string() };
        if t.is_empty() {
            t = format!("{}{coef}{v}", if c < 0 { "-" } else { "" });
        } else {
            t.push_str(&format!(" {sign} {coef}{v}"));
        }
    }
    if t.is_empty() {
        return constant.to_string();
    }
    if constant > 0 {
        t.push_str(&format!(" + {constant}"));
    } else if constant < 0 {
        t.push_str(&format!(" - {}", -constant));
    }
    t
}

pub(crate) fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

pub(crate) fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}

pub(crate) fn names(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|k| format!("{prefix}{k}")).collect()
}

/// A coefficient: -5..=5, or (big) zero a quarter of the time and otherwise of
/// magnitude 2^40..2^70.
pub(crate) fn coef(rng: &mut Rng, big: bool) -> i128 {
    if big {
        if rng.chance(25) {
            0
        } else {
            let m = (1i128 << rng.range(40, 69)) + (rng.next_u64() as i128 >> 24);
            if rng.chance(50) { -m } else { m }
        }
    } else {
        rng.range(-5, 5) as i128
    }
}

fn random_space(rng: &mut Rng) -> Space {
    let n = rng.range(2, 8) as usize;
    let params: &[&str] = if rng.chance(30) { &["N"] } else { &[] };
    Space::new(params, names("x", n))
}

/// `random`: one conjunction over the 2–8 set variables (and the parameter `N`
/// when the space has it) with 0–2 existential locals, coefficients in -5..=5.
/// The constraints are built around a random rational centre (denominator 2–7):
/// most are thin slabs `floor(a·c) <= a·x <= ceil(a·c)` (two integer values of
/// `a·x`), the others half-spaces `a·x >= floor(a·c)` or `a·x <= ceil(a·c)`, so
/// the set is rationally non-empty and often integer-empty; a fifth of the
/// constraints get a slack of 1–3 more on both sides, and one in ten conjunctions
/// starts with an equality `a·x = round(a·c)` (which can make it rationally empty).
pub fn random_pieces(rng: &mut Rng, space: &Space) -> Vec<Disjunct> {
    vec![near_gap(rng, space, false)]
}

/// `bigcoef`: as [`random_pieces`] with every non-zero coefficient of magnitude
/// 2^40..2^70 (so the constants are beyond 2^40 too), and the loose constraints'
/// extra slack up to 2^60.
pub fn bigcoef_pieces(rng: &mut Rng, space: &Space) -> Vec<Disjunct> {
    vec![near_gap(rng, space, true)]
}

fn near_gap(rng: &mut Rng, space: &Space, big: bool) -> Disjunct {
    let n_locals = rng.range(0, 2) as usize;
    let locals = names("e", n_locals);
    let all: Vec<&str> = space
        .vars
        .iter()
        .chain(&space.params)
        .chain(&locals)
        .map(String::as_str)
        .collect();
    let q = rng.range(2, 7) as i128;
    let centre: Vec<i128> = all
        .iter()
        .map(|_| rng.range(-3, 3) as i128 * q + rng.range(0, q as i64 - 1) as i128)
        .collect();
    let m = all.len() + 1 + rng.range(0, 2) as usize;
    // the percentage of thin slabs among the constraints
    let slabs = [20, 50, 80][rng.range(0, 2) as usize];
    let mut cons = Vec::new();
    for k in 0..m {
        let mut a: Vec<i128> = all.iter().map(|_| coef(rng, big)).collect();
        if a.iter().all(|&c| c == 0) {
            a[k % all.len()] = if big { 1i128 << 41 } else { 1 };
        }
        let s: i128 = a.iter().zip(&centre).map(|(x, y)| x * y).sum();
        let terms: Vec<(i128, &str)> = a.iter().copied().zip(all.iter().copied()).collect();
        if k == 0 && rng.chance(10) {
            let r = div_floor(2 * s + q, 2 * q);
            cons.push(format!("{} = {r}", affine(&terms, 0)));
            continue;
        }
        // a·centre = s/q lies in [lo, lo + 1)
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
        let e = affine(&terms, 0);
        if rng.chance(slabs) {
            cons.push(format!("{} <= {e} <= {}", lo - loose, hi + loose));
        } else if rng.chance(50) {
            cons.push(format!("{e} >= {}", lo - loose));
        } else {
            cons.push(format!("{e} <= {}", hi + loose));
        }
    }
    Disjunct { locals, cons }
}

fn lattice_space(rng: &mut Rng) -> Space {
    let n = rng.range(2, 3) as usize;
    let vars = ["x", "y", "z"][..n].iter().map(|v| v.to_string()).collect();
    Space::new(&[], vars)
}

/// `lattice`: thin lattice sets and integer gaps in 2–3 variables with coefficients
/// around 10^3..10^14. One conjunction of one of three kinds: a thin strip
/// `c <= a x - b y (+ d z) <= c + w` (`a`, `b` close to the same power of ten,
/// `w` 0..5) with `x` in a box whose width is a random power of ten; an equality
/// `a x + b y (+ d z) = c` with large coefficients (sometimes with a common factor
/// that does not divide `c`) and `0 <= x, y, z <= M`; a thin wedge
/// `p x <= q y` and `q' y <= p' x` between two close slopes with `1 <= x <= M`.
/// Half of the strips and equalities are planted around an integer point (so
/// non-empty); the rest are mostly empty.
pub fn lattice_pieces(rng: &mut Rng, space: &Space) -> Vec<Disjunct> {
    let k = rng.range(3, 14) as u32;
    let big = |rng: &mut Rng| pow10(k) + rng.range(-60, 60) as i128;
    let three = space.vars.len() == 3;
    let plant = rng.chance(50);
    let mut cons = Vec::new();
    match rng.range(0, 2) {
        0 => {
            let (a, b) = (big(rng), big(rng));
            let d = if three { rng.range(-9, 9) as i128 } else { 0 };
            let w = rng.range(0, 5) as i128;
            let lo = rng.range(-1000, 1000) as i128;
            let width = pow10(rng.range(0, k as i64) as u32);
            let c = if plant {
                let px = lo + rng.range(0, 1 << 20) as i128 % (width + 1);
                let py = div_floor(a * px, b) + rng.range(-2, 2) as i128;
                let pz = rng.range(0, 3) as i128;
                a * px - b * py + d * pz - rng.range(0, w as i64) as i128
            } else {
                rng.range(-20, 20) as i128
            };
            let s = affine(&[(a, "x"), (-b, "y"), (d, "z")], 0);
            cons.push(format!("{c} <= {s} <= {}", c + w));
            cons.push(format!("{lo} <= x <= {}", lo + width));
            if three {
                cons.push("0 <= z <= 3".into());
            }
        }
        1 => {
            let g = if rng.chance(30) {
                rng.range(2, 6) as i128
            } else {
                1
            };
            let (a, b) = (g * big(rng), -g * big(rng));
            let d = if three { g * big(rng) } else { 0 };
            let m = pow10(rng.range(1, k as i64) as u32);
            let c = if plant {
                let p: Vec<i128> = (0..3)
                    .map(|_| rng.range(0, 1 << 20) as i128 % (m + 1))
                    .collect();
                a * p[0] + b * p[1] + d * p[2]
            } else {
                rng.range(-5, 5) as i128 * pow10(k) + rng.range(-50, 50) as i128
            };
            cons.push(format!(
                "{} = {c}",
                affine(&[(a, "x"), (b, "y"), (d, "z")], 0)
            ));
            for v in &space.vars {
                cons.push(format!("0 <= {v} <= {m}"));
            }
        }
        _ => {
            // p/q < p'/q': p x <= q y and q' y <= p' x
            let (p, q) = (big(rng), big(rng));
            let (p2, q2) = (p * 1000 + rng.range(1, 50) as i128, q * 1000);
            let m = pow10(rng.range(1, k as i64 + 2) as u32);
            cons.push(format!(
                "{} <= {}",
                affine(&[(p, "x")], 0),
                affine(&[(q, "y")], 0)
            ));
            cons.push(format!(
                "{} <= {}",
                affine(&[(q2, "y")], 0),
                affine(&[(p2, "x")], 0)
            ));
            cons.push(format!("1 <= x <= {m}"));
            if three {
                cons.push(format!(
                    "0 <= {} <= 2",
                    affine(&[(big(rng), "z"), (-big(rng), "x")], 0)
                ));
            }
        }
    }
    vec![Disjunct {
        locals: vec![],
        cons,
    }]
}

fn tiled_space(rng: &mut Rng) -> Space {
    let d = if rng.chance(80) { 2 } else { 1 };
    let mut vars = names("t", d);
    vars.extend(names("o", d));
    Space::new(&[], vars)
}

/// `tiled`: pieces of a tiled convolution after intersecting a tile's input region
/// with another tile: 3–5 disjuncts over `[t0, t1, o0, o1]` (tile indices and
/// output points; one spatial dimension in a fifth of the spaces). Per spatial
/// dimension the locals are the tile division (`t0 = floor(o0/32)` or
/// `exists q0 : 32q0 <= o0 <= 32q0 + 31 and t0 = q0`), the kernel offset
/// `0 <= k0 <= 2`, the input point `i0 = S o0 + k0 - P` with padding bounds
/// `0 <= i0 <= H - 1`, and (most of the time) the input tile `r0` with
/// `R r0 <= i0 <= R r0 + R - 1` and `r0 = m t0 + δ`: 4–9 division locals in all,
/// with sum constraints (`t0 + t1 <= c`, `o0 + o1 >= c`) and output bounds. The
/// offset `δ` is outside the range the tile reaches for most pieces (half of the
/// unions have only such pieces), which makes them rationally empty. With `pair`
/// (pieces for a two-argument problem), 70% of the pieces are in range.
pub fn tiled_pieces(rng: &mut Rng, space: &Space, pair: bool) -> Vec<Disjunct> {
    let d = space.vars.len() / 2;
    let n = rng.range(3, 5);
    let all_empty = rng.chance(50) && !pair;
    let tile = [16i128, 32, 64][rng.range(0, 2) as usize];
    let stride = rng.range(1, 2) as i128;
    let kernel = 3i128;
    let pad = rng.range(0, 1) as i128;
    let h = [56i128, 64, 100, 128][rng.range(0, 3) as usize];
    (0..n)
        .map(|_| {
            let reachable = !all_empty && rng.chance(if pair { 70 } else { 35 });
            let mut locals = Vec::new();
            let mut cons = Vec::new();
            for s in 0..d {
                let (t, o) = (format!("t{s}"), format!("o{s}"));
                let (q, k, i, r) = (
                    format!("q{s}"),
                    format!("k{s}"),
                    format!("i{s}"),
                    format!("r{s}"),
                );
                if rng.chance(50) {
                    cons.push(format!("{t} = floor({o}/{tile})"));
                } else {
                    cons.push(format!("{tile}{q} <= {o} <= {tile}{q} + {}", tile - 1));
                    cons.push(format!("{t} = {q}"));
                    locals.push(q);
                }
                cons.push(format!("0 <= {k} <= {}", kernel - 1));
                cons.push(format!(
                    "{i} = {}",
                    affine(&[(stride, o.as_str()), (1, k.as_str())], -pad)
                ));
                cons.push(format!("0 <= {i} <= {}", h - 1));
                cons.push(format!("0 <= {t}"));
                cons.push(format!("0 <= {o} <= {}", h / stride + 1));
                locals.push(k);
                locals.push(i.clone());
                if s == 0 || rng.chance(70) {
                    let region = if rng.chance(50) { tile } else { tile / 2 };
                    let m = stride * tile / region;
                    // i ranges over [S T t - P, S T t + S (T - 1) + K - 1 - P]
                    let lo = div_ceil(-pad - region + 1, region);
                    let hi = div_floor(stride * (tile - 1) + kernel - 1 - pad, region);
                    let delta = if reachable {
                        rng.range(lo as i64, hi as i64) as i128
                    } else if rng.chance(50) {
                        lo - rng.range(1, 3) as i128
                    } else {
                        hi + rng.range(1, 3) as i128
                    };
                    cons.push(format!(
                        "{region}{r} <= {i} <= {region}{r} + {}",
                        region - 1
                    ));
                    cons.push(format!("{r} = {}", affine(&[(m, t.as_str())], delta)));
                    locals.push(r);
                }
            }
            if d == 2 {
                match rng.range(0, 2) {
                    0 => cons.push(format!("t0 + t1 <= {}", rng.range(1, 4))),
                    1 => cons.push(format!("o0 + o1 >= {}", rng.range(0, 40))),
                    _ => {
                        locals.push("u".into());
                        cons.push(format!(
                            "2u <= o0 + o1 <= 2u + 1 and u <= {}",
                            rng.range(8, 60)
                        ));
                    }
                }
            }
            Disjunct { locals, cons }
        })
        .collect()
}

fn dependence_space(rng: &mut Rng) -> Space {
    let d = rng.range(2, 3) as usize;
    let mut vars = names("s", d);
    vars.extend(names("t", d));
    Space::new(&["N"], vars)
}

/// `dependence`: the dependence polyhedron of a write in a 2–3 deep loop nest
/// (source iteration `s`) and a read (target iteration `t`) of the same array
/// element, in `[N] -> { [s0, s1, t0, t1] }` (or depth 3): bounds `0 <= s_k < N`
/// (sometimes triangular, `0 <= s1 <= s0`), access equalities `s_k = t_k + a_k`
/// (`a_k` in -1..=1, sometimes `s_k = 2 t_k + a_k` or the dimension left free),
/// sometimes a parity condition `exists e : s0 = 2e` or a bound on `N`, and one
/// disjunct per level of the lexicographic order `s < t`
/// (`s0 = t0 and s1 <= t1 - 1`, ...). Empty exactly when no level can hold, which
/// happens for about half of the offset vectors. With `pair` (disjuncts for a
/// two-argument problem), 70% of the offset vectors are lexicographically
/// negative, so one level holds.
pub fn dependence_pieces(rng: &mut Rng, space: &Space, pair: bool) -> Vec<Disjunct> {
    let d = space.vars.len() / 2;
    let mut base = Vec::new();
    let triangular = rng.chance(30);
    for side in ["s", "t"] {
        for k in 0..d {
            if k == 1 && triangular {
                base.push(format!("0 <= {side}1 <= {side}0"));
            } else {
                base.push(format!("0 <= {side}{k} <= N - 1"));
            }
        }
    }
    let mut offsets: Vec<i64> = (0..d).map(|_| rng.range(-1, 1)).collect();
    if pair && rng.chance(70) {
        // lexicographically negative: level `l` of the order can hold
        let l = rng.range(0, d as i64 - 1) as usize;
        offsets[..l].fill(0);
        offsets[l] = -1;
    }
    for (k, &a) in offsets.iter().enumerate() {
        match rng.range(0, 9) {
            0 => {}
            1 => base.push(format!("s{k} = 2t{k} + {a}")),
            _ => base.push(format!(
                "s{k} = {}",
                affine(&[(1, format!("t{k}").as_str())], a as i128)
            )),
        }
    }
    let mut locals = Vec::new();
    if rng.chance(20) {
        locals.push("e".to_string());
        base.push(format!("s{} = 2e", rng.range(0, d as i64 - 1)));
    }
    if rng.chance(20) {
        base.push(format!("N <= {}", rng.range(1, 4)));
    }
    (0..d)
        .map(|level| {
            let mut cons = base.clone();
            for k in 0..level {
                cons.push(format!("s{k} = t{k}"));
            }
            cons.push(format!("s{level} <= t{level} - 1"));
            Disjunct {
                locals: locals.clone(),
                cons,
            }
        })
        .collect()
}

fn sdbm_space(rng: &mut Rng) -> Space {
    let n = rng.range(2, 6) as usize;
    let params: &[&str] = if rng.chance(30) { &["N"] } else { &[] };
    Space::new(params, names("x", n))
}

/// `sdbm`: one or two conjunctions of bounds (`l <= x <= u`, or `x <= N` with a
/// parameter), two-variable differences `x - y <= c` (`c` in -4..=4, `n` to `2n`
/// of them) and 0–2 strides `exists e : x = m e + r` (`m` in 2..=4) only: the
/// shape our difference-bound fast path decides. With `pair` (for a two-argument
/// problem) the difference bounds are in -1..=4, so fewer conjunctions are empty.
pub fn sdbm_pieces(rng: &mut Rng, space: &Space, pair: bool) -> Vec<Disjunct> {
    let n = space.vars.len();
    let count = if rng.chance(30) { 2 } else { 1 };
    (0..count)
        .map(|_| {
            let mut cons = Vec::new();
            let mut locals = Vec::new();
            for v in &space.vars {
                if !space.params.is_empty() && rng.chance(25) {
                    cons.push(format!("{v} <= N"));
                } else if rng.chance(70) {
                    let lo = rng.range(-5, 0);
                    cons.push(format!("{lo} <= {v} <= {}", lo + rng.range(0, 8)));
                }
            }
            for _ in 0..rng.range(n as i64, 2 * n as i64) {
                let a = rng.range(0, n as i64 - 1) as usize;
                let mut b = rng.range(0, n as i64 - 2) as usize;
                if b >= a {
                    b += 1;
                }
                cons.push(format!(
                    "{} - {} <= {}",
                    space.vars[a],
                    space.vars[b],
                    rng.range(if pair { -1 } else { -4 }, 4)
                ));
            }
            for s in 0..rng.range(0, 2) {
                let m = rng.range(2, 4);
                let e = format!("e{s}");
                cons.push(format!(
                    "{} = {m}{e} + {}",
                    space.vars[rng.range(0, n as i64 - 1) as usize],
                    rng.range(0, m - 1)
                ));
                locals.push(e);
            }
            shuffle(rng, &mut cons);
            Disjunct { locals, cons }
        })
        .collect()
}
