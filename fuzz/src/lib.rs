//! Verification helpers shared by the fuzz targets and the replay tests: a small
//! deterministic generator of isl-notation sets, and a differential checker that
//! compares our answers with isl's (through the system library, see [`isl`]).

pub mod isl;

use presburger::{Set, UnionSet};

/// Where the generator takes its choices from.
pub trait Source {
    /// A value in `lo ..= hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64;
    /// True with the given chance.
    fn chance(&mut self, percent: u64) -> bool {
        self.range(0, 99) < percent as i64
    }
}

/// Choices read from a byte string (a fuzzer's input): each choice takes one byte,
/// zeros once the bytes run out, so mutations of the bytes change the structure.
pub struct Bytes<'a>(pub &'a [u8]);

impl Source for Bytes<'_> {
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let b = match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b as i64
            }
            None => 0,
        };
        lo + b % (hi - lo + 1)
    }
}

/// A xorshift generator: deterministic, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

impl Source for Rng {
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// The shape of generated sets: dimension count and whether there is a parameter.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub dims: usize,
    pub param: bool,
}

impl Shape {
    pub fn random(rng: &mut impl Source) -> Shape {
        Shape {
            dims: rng.range(1, 3) as usize,
            param: rng.chance(40),
        }
    }
}

/// A random set of the shape as isl text: 1–3 disjuncts of 0–3 affine constraints
/// (coefficients -3..=3), bounded or not, with strides (`exists`), `mod` and
/// `floor` terms sometimes.
pub fn random_set(rng: &mut impl Source, shape: Shape) -> String {
    random_set_in(rng, shape, false)
}

/// As [`random_set`]; with `bounded`, every dimension is kept within -4..=4 (so
/// that enumeration of the box -5..=5 is exact).
pub fn random_set_in(rng: &mut impl Source, shape: Shape, bounded: bool) -> String {
    let mut vars: Vec<String> = (0..shape.dims).map(|k| format!("x{k}")).collect();
    if shape.param {
        vars.push("N".into());
    }
    let n_disj = rng.range(1, 3);
    let mut disjuncts = Vec::new();
    for _ in 0..n_disj {
        let mut parts = Vec::new();
        if bounded || rng.chance(50) {
            for k in 0..shape.dims {
                parts.push(format!("-4 <= x{k} <= 4"));
            }
        }
        for _ in 0..rng.range(0, 3) {
            let op = match rng.range(0, 4) {
                0 => "=",
                1 | 2 => ">=",
                _ => "<=",
            };
            parts.push(format!("{} {op} {}", lin(rng, &vars), rng.range(-5, 5)));
        }
        match rng.range(0, 5) {
            0 => parts.push(format!(
                "exists e : {} = {}e + {}",
                lin(rng, &vars),
                rng.range(2, 4),
                rng.range(0, 2)
            )),
            1 => parts.push(format!(
                "({}) mod {} = {}",
                lin(rng, &vars),
                rng.range(2, 3),
                rng.range(0, 1)
            )),
            2 => parts.push(format!(
                "floor(({})/{}) >= {}",
                lin(rng, &vars),
                rng.range(2, 3),
                rng.range(-2, 2)
            )),
            _ => {}
        }
        disjuncts.push(if parts.is_empty() {
            "true".to_string()
        } else {
            format!("({})", parts.join(" and "))
        });
    }
    let pre = if shape.param { "[N] -> " } else { "" };
    let names: Vec<String> = (0..shape.dims).map(|k| format!("x{k}")).collect();
    format!(
        "{pre}{{ [{}] : {} }}",
        names.join(", "),
        disjuncts.join(" or ")
    )
}

/// A random affine expression over `vars` with coefficients in -3..=3.
fn lin(rng: &mut impl Source, vars: &[String]) -> String {
    let mut t = String::new();
    for v in vars {
        let c = rng.range(-3, 3);
        if c != 0 {
            t.push_str(&format!(" + {c}{v}"));
        }
    }
    if t.is_empty() {
        "0".into()
    } else {
        t[3..].to_string()
    }
}

/// What one differential comparison found.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub compared: u64,
    pub skipped: u64,
    pub mismatches: Vec<String>,
    /// What was skipped, per operation (an error on either side).
    pub skip_reasons: std::collections::BTreeMap<String, u64>,
}

impl Tally {
    fn check(&mut self, what: &str, ours: Option<bool>, theirs: Option<bool>, ctx: &str) {
        match (ours, theirs) {
            (Some(a), Some(b)) if a == b => self.compared += 1,
            (Some(a), Some(b)) => self
                .mismatches
                .push(format!("{what}: ours {a}, isl {b} for {ctx}")),
            (ours, theirs) => {
                let side = match (ours, theirs) {
                    (None, None) => "both",
                    (None, _) => "ours",
                    _ => "isl",
                };
                self.skip(format!("{what} ({side})"));
            }
        }
    }

    fn skip(&mut self, reason: String) {
        self.skipped += 1;
        *self.skip_reasons.entry(reason).or_default() += 1;
    }

    /// Our answer, or `None` with the operation skipped for the kind of error
    /// (running out of budget is a skip, never a mismatch).
    fn ours<T>(&mut self, what: &str, r: presburger::Result<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                let kind = match e {
                    presburger::Error::Budget(_) => "budget",
                    presburger::Error::Unsupported(_) => "unsupported",
                    _ => "error",
                };
                self.skip(format!("{what} (ours: {kind})"));
                None
            }
        }
    }

    /// Compares a boolean answer of ours (when we have one) with isl's.
    fn check_ours(
        &mut self,
        what: &str,
        ours: presburger::Result<bool>,
        theirs: Option<bool>,
        ctx: &str,
    ) {
        if let Some(v) = self.ours(what, ours) {
            self.check(what, Some(v), theirs, ctx);
        }
    }
}

/// Compares our answers with isl's on the sets `a` and `b` (isl text): emptiness,
/// inclusion, equality, subtraction and coalescing (results compared by isl's own
/// equality on our printed output; a coalesced set with the input), lexmin of non-parametric sets, and our parsing
/// of isl's printed form. An error on our side (e.g. our budget running out) or on
/// isl's (e.g. its operation quota, see [`isl::Ctx::new`]) is a skip with its reason.
pub fn compare(ctx: &isl::Ctx, a: &str, b: &str, tally: &mut Tally) {
    let (Ok(x), Ok(y)) = (a.parse::<UnionSet>(), b.parse::<UnionSet>()) else {
        tally.skip("parse (ours)".into());
        return;
    };
    let (Some(ix), Some(iy)) = (ctx.union_set(a), ctx.union_set(b)) else {
        tally.skip("parse (isl)".into());
        return;
    };
    let pair = format!("A = {a}, B = {b}");
    tally.check_ours("is_empty", x.is_empty(), ix.is_empty(), &pair);
    tally.check_ours("is_subset", x.is_subset(&y), ix.is_subset(&iy), &pair);
    tally.check_ours("is_equal", x.is_equal(&y), ix.is_equal(&iy), &pair);
    // our result, printed and read by isl, must equal isl's result
    let same_as = |ours: String, theirs: Option<isl::USet>| -> Option<bool> {
        let ours = ctx.union_set(&ours)?;
        ours.is_equal(&theirs?)
    };
    if let Some(d) = tally.ours("subtract", x.subtract(&y)) {
        match same_as(d.to_string(), ix.subtract(&iy)) {
            Some(r) => tally.check("subtract", Some(r), Some(true), &pair),
            None => tally.skip("subtract (isl)".into()),
        }
    }
    if let Some(c) = tally.ours("coalesce", x.coalesce()) {
        // against the input itself, freshly parsed: isl's own coalescing is wrong on
        // some inputs (e.g. `{ [x0] : (-4 <= x0 <= 4 and exists e : 2x0 = 4e + 1) or
        // (-4 <= x0 <= 4 and exists e : 2x0 = 3e + 1) or (-4 <= x0 <= -3) }`, where
        // isl 0.25 adds x0 = 0 and also rewrites the shared input object in place)
        match same_as(c.to_string(), ctx.union_set(a)) {
            Some(r) => tally.check("coalesce", Some(r), Some(true), &pair),
            None => tally.skip("coalesce (isl)".into()),
        }
    }
    // isl's printed form reads back with our parser as an equal set
    let printed = ix.to_text();
    let back = printed.parse::<UnionSet>().and_then(|b| b.is_equal(&x));
    tally.check_ours(
        "parse isl output",
        back,
        Some(true),
        &format!("{pair}, isl printed {printed}"),
    );
    // lexmin of a non-parametric single-space set
    if x.params().is_empty() && x.members().len() == 1 {
        let s: &Set = &x.members()[0];
        match s.lexmin() {
            Ok(p) => {
                let ours = match p {
                    Some(p) => Set::from_point(s.space(), &p).map(|q| q.to_string()),
                    None => Set::empty(s.space().clone()).map(|e| e.to_string()),
                };
                if let Some(ours) = tally.ours("lexmin", ours) {
                    match same_as(ours, ix.lexmin()) {
                        Some(r) => tally.check("lexmin", Some(r), Some(true), &pair),
                        None => tally.skip("lexmin (isl)".into()),
                    }
                }
            }
            Err(presburger::Error::Unbounded(_)) => {
                // isl's lexmin of an unbounded set is not a point set; skip
                tally.skip("lexmin (unbounded)".into());
            }
            Err(e) => {
                tally.ours::<()>("lexmin", Err(e));
            }
        }
    }
}

// ----- checkers against brute-force enumeration -------------------------------------

use presburger::testing::{set_points, Box as PBox};
use presburger::{BasicSet, DimKind, EmptinessPath, Int};
use std::collections::BTreeSet;

type Points = BTreeSet<Vec<i64>>;

fn enumerate(s: &Set, params: &[i64]) -> Points {
    set_points(
        s,
        &PBox {
            params: params.to_vec(),
            lo: -5,
            hi: 5,
            local_range: (-12, 12),
        },
    )
}

fn param_values(s: &Set) -> Vec<Vec<i64>> {
    if s.space().n_param() == 0 {
        vec![vec![]]
    } else {
        (-1..=2).map(|n| vec![n]).collect()
    }
}

fn fixed(s: &Set, pv: &[i64]) -> Result<Set, String> {
    let mut f = s.clone();
    for (k, v) in pv.iter().enumerate() {
        f = f.fix(DimKind::Param, k, *v).map_err(|e| e.to_string())?;
    }
    f.project_out(DimKind::Param, 0, pv.len())
        .map_err(|e| e.to_string())
}

fn ints(p: &[i64]) -> Vec<Int> {
    p.iter().map(|&v| Int::from(v)).collect()
}

/// A bounded set (every dimension in -4..=4) against enumeration: `is_empty`,
/// `sample`, `lexmin`, `lexmax` for each parameter value in -1..=2.
pub fn check_emptiness(text: &str) -> Result<(), String> {
    let Ok(s) = text.parse::<Set>() else {
        return Ok(());
    };
    for pv in param_values(&s) {
        let pts = enumerate(&s, &pv);
        let f = fixed(&s, &pv)?;
        let e = f.is_empty().map_err(|e| format!("{text}: {e}"))?;
        if e != pts.is_empty() {
            return Err(format!("is_empty = {e} for {text} at {pv:?}"));
        }
        if let Some(p) = f.sample().map_err(|e| e.to_string())? {
            let p: Vec<i64> = p.iter().map(|v| v.to_i64().unwrap_or(i64::MAX)).collect();
            if !pts.contains(&p) {
                return Err(format!("sample {p:?} not in {text} at {pv:?}"));
            }
        }
        let lo = f.lexmin().map_err(|e| e.to_string())?;
        let hi = f.lexmax().map_err(|e| e.to_string())?;
        if lo != pts.iter().next().map(|p| ints(p)) || hi != pts.iter().next_back().map(|p| ints(p))
        {
            return Err(format!(
                "lexmin/lexmax {lo:?}/{hi:?} wrong for {text} at {pv:?}"
            ));
        }
    }
    Ok(())
}

/// Two bounded sets of the same shape against enumeration: intersect, union,
/// subtract, is_subset, is_equal, coalesce.
pub fn check_algebra(a: &str, b: &str) -> Result<(), String> {
    let (Ok(x), Ok(y)) = (a.parse::<Set>(), b.parse::<Set>()) else {
        return Ok(());
    };
    let err = |e: presburger::Error| format!("{a} / {b}: {e}");
    let d = x.subtract(&y).map_err(err)?;
    let i = x.intersect(&y).map_err(err)?;
    let u = x.union(&y).map_err(err)?;
    let c = x.coalesce().map_err(err)?;
    let (mut sub, mut eq) = (true, true);
    for pv in param_values(&x) {
        let (px, py) = (enumerate(&x, &pv), enumerate(&y, &pv));
        let checks: [(&str, &Set, Points); 4] = [
            ("subtract", &d, px.difference(&py).cloned().collect()),
            ("intersect", &i, px.intersection(&py).cloned().collect()),
            ("union", &u, px.union(&py).cloned().collect()),
            ("coalesce", &c, px.clone()),
        ];
        for (what, got, want) in checks {
            if enumerate(got, &pv) != want {
                return Err(format!("{what} wrong for {a} / {b} at {pv:?}: {got}"));
            }
        }
        sub &= px.is_subset(&py);
        eq &= px == py;
    }
    let (s, e) = (x.is_subset(&y).map_err(err)?, x.is_equal(&y).map_err(err)?);
    // with a parameter the samples only refute; without one they decide
    if (!sub && s) || (!eq && e) || (x.space().n_param() == 0 && (s != sub || e != eq)) {
        return Err(format!("is_subset {s} / is_equal {e} wrong for {a} / {b}"));
    }
    Ok(())
}

/// A random SDBM-shaped set: 2–5 variables in -4..=4 (inside the enumerated box
/// -5..=5), differences, bounds and
/// strides with divisors from {2, 3, 4, 6, 8}.
pub fn random_sdbm(src: &mut impl Source) -> String {
    let n = src.range(2, 5) as usize;
    let names: Vec<String> = (0..n).map(|k| format!("x{k}")).collect();
    let mut parts: Vec<String> = names.iter().map(|v| format!("-4 <= {v} <= 4")).collect();
    for _ in 0..src.range(0, 6) {
        let (i, j) = (
            src.range(0, n as i64 - 1) as usize,
            src.range(0, n as i64 - 1) as usize,
        );
        let c = src.range(-5, 5);
        parts.push(match src.range(0, 2) {
            0 if i != j => format!("{} - {} <= {c}", names[i], names[j]),
            1 => format!("{} <= {c}", names[i]),
            _ => format!("{} >= {c}", names[i]),
        });
    }
    for _ in 0..src.range(0, 3) {
        let m = [2, 3, 4, 6, 8][src.range(0, 4) as usize];
        let v = &names[src.range(0, n as i64 - 1) as usize];
        parts.push(format!("{v} mod {m} = {}", src.range(0, m - 1)));
    }
    format!("{{ [{}] : {} }}", names.join(", "), parts.join(" and "))
}

/// An SDBM-shaped set through the fast path, the general path and enumeration.
pub fn check_sdbm(text: &str) -> Result<(), String> {
    let Ok(s) = text.parse::<BasicSet>() else {
        return Ok(());
    };
    let fast = s
        .is_empty_via(EmptinessPath::ForceSdbm)
        .map_err(|e| format!("{text}: {e}"))?;
    let general = s
        .is_empty_via(EmptinessPath::ForceGeneral)
        .map_err(|e| format!("{text}: {e}"))?;
    let brute = enumerate(&Set::from(s), &[]).is_empty();
    if fast != general || fast != brute {
        return Err(format!(
            "fast {fast}, general {general}, enumeration {brute} for {text}"
        ));
    }
    Ok(())
}
