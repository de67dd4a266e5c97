//! Verification helpers shared by the fuzz targets and the replay tests: a small
//! deterministic generator of isl-notation sets, and a differential checker that
//! compares our answers with isl's (through the system library, see [`isl`]).

pub mod isl;

use presburger::{Set, UnionSet};

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

    /// A value in `lo ..= hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }

    pub fn chance(&mut self, percent: u64) -> bool {
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
    pub fn random(rng: &mut Rng) -> Shape {
        Shape {
            dims: rng.range(1, 3) as usize,
            param: rng.chance(40),
        }
    }
}

/// A random set of the shape as isl text: 1–3 disjuncts of 0–3 affine constraints
/// (coefficients -3..=3), bounded or not, with strides (`exists`), `mod` and
/// `floor` terms sometimes.
pub fn random_set(rng: &mut Rng, shape: Shape) -> String {
    let mut vars: Vec<String> = (0..shape.dims).map(|k| format!("x{k}")).collect();
    if shape.param {
        vars.push("N".into());
    }
    let lin = |rng: &mut Rng| -> String {
        let mut t = String::new();
        for v in &vars {
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
    };
    let n_disj = rng.range(1, 3);
    let mut disjuncts = Vec::new();
    for _ in 0..n_disj {
        let mut parts = Vec::new();
        if rng.chance(50) {
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
            parts.push(format!("{} {op} {}", lin(rng), rng.range(-5, 5)));
        }
        match rng.range(0, 5) {
            0 => parts.push(format!(
                "exists e : {} = {}e + {}",
                lin(rng),
                rng.range(2, 4),
                rng.range(0, 2)
            )),
            1 => parts.push(format!(
                "({}) mod {} = {}",
                lin(rng),
                rng.range(2, 3),
                rng.range(0, 1)
            )),
            2 => parts.push(format!(
                "floor(({})/{}) >= {}",
                lin(rng),
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
                self.skipped += 1;
                let side = match (ours, theirs) {
                    (None, None) => "both",
                    (None, _) => "ours",
                    _ => "isl",
                };
                *self
                    .skip_reasons
                    .entry(format!("{what} ({side})"))
                    .or_default() += 1;
            }
        }
    }
}

/// Compares our answers with isl's on the sets `a` and `b` (isl text): emptiness,
/// inclusion, equality, subtraction and coalescing (results compared by isl's own
/// equality on our printed output), lexmin of non-parametric sets, and our parsing
/// of isl's printed form.
pub fn compare(ctx: &isl::Ctx, a: &str, b: &str, tally: &mut Tally) {
    let (Ok(x), Ok(y)) = (a.parse::<UnionSet>(), b.parse::<UnionSet>()) else {
        tally.skipped += 1;
        return;
    };
    let (Some(ix), Some(iy)) = (ctx.union_set(a), ctx.union_set(b)) else {
        tally.skipped += 1;
        return;
    };
    let pair = format!("A = {a}, B = {b}");
    tally.check("is_empty", x.is_empty().ok(), ix.is_empty(), &pair);
    tally.check("is_subset", x.is_subset(&y).ok(), ix.is_subset(&iy), &pair);
    tally.check("is_equal", x.is_equal(&y).ok(), ix.is_equal(&iy), &pair);
    // our result, printed and read by isl, must equal isl's result
    let same_as = |ours: Option<String>, theirs: Option<isl::USet>| -> Option<bool> {
        let ours = ctx.union_set(&ours?)?;
        ours.is_equal(&theirs?)
    };
    let d = x.subtract(&y).ok().map(|d| d.to_string());
    tally.check("subtract", same_as(d, ix.subtract(&iy)), Some(true), &pair);
    let c = x.coalesce().ok().map(|c| c.to_string());
    tally.check("coalesce", same_as(c, ix.coalesce()), Some(true), &pair);
    // isl's printed form reads back with our parser as an equal set
    let printed = ix.to_text();
    let back = printed.parse::<UnionSet>().ok();
    tally.check(
        "parse isl output",
        back.and_then(|b| b.is_equal(&x).ok()),
        Some(true),
        &format!("{pair}, isl printed {printed}"),
    );
    // lexmin of a non-parametric single-space set
    if x.params().is_empty() && x.members().len() == 1 {
        let s: &Set = &x.members()[0];
        match s.lexmin() {
            Ok(p) => {
                let ours = match p {
                    Some(p) => Set::from_point(s.space(), &p).ok().map(|q| q.to_string()),
                    None => Some(
                        Set::empty(s.space().clone())
                            .map(|e| e.to_string())
                            .unwrap_or_default(),
                    ),
                };
                tally.check("lexmin", same_as(ours, ix.lexmin()), Some(true), &pair);
            }
            Err(presburger::Error::Unbounded(_)) => {
                // isl's lexmin of an unbounded set is not a point set; skip
                tally.skipped += 1;
            }
            Err(_) => tally.skipped += 1,
        }
    }
}
