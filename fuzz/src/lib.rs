//! Verification helpers shared by the fuzz targets and the replay tests: a small
//! deterministic generator of isl-notation sets, and a differential checker that
//! compares our answers with isl's (through the system library, see [`isl`]); and
//! the problem families of the benchmark against isl ([`families`], used by
//! `src/bin/vs_isl.rs`, which gives isl its problems through [`unchain`], and
//! their widened versions for its tail hunter, [`hunt`]); the
//! dependences ([`deps_isl`]) and the schedules ([`schedule_isl`]) of the
//! `schedule` crate against isl's, with the random SCoPs of [`scops`]; and
//! code generation against isl's AST generator ([`ast_isl`]).

pub mod ast_isl;
pub mod deps_isl;
pub mod families;
pub mod hunt;
pub mod isl;
pub mod roundtrip;
pub mod schedule_isl;
pub mod scops;
pub mod unchain;

pub use roundtrip::check_round_trip;

use presburger::{Set, UnionMap, UnionSet};

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

/// What a generated object has, for counting comparisons per shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Features {
    /// A relation rather than a set.
    pub map: bool,
    /// Has a parameter.
    pub param: bool,
    /// Every disjunct has a box on every dimension.
    pub bounded: bool,
    /// Some disjunct has an `exists`, `mod` or `floor` term.
    pub strides: bool,
}

impl Features {
    /// The features of a pair: bounded when both are, strides when either has them.
    pub fn join(self, other: Features) -> Features {
        Features {
            map: self.map,
            param: self.param || other.param,
            bounded: self.bounded && other.bounded,
            strides: self.strides || other.strides,
        }
    }

    /// A short label such as `map/param/unbounded/strides`.
    pub fn label(&self) -> String {
        format!(
            "{}/{}/{}/{}",
            if self.map { "map" } else { "set" },
            if self.param { "param" } else { "noparam" },
            if self.bounded { "bounded" } else { "unbounded" },
            if self.strides { "strides" } else { "nostrides" },
        )
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
    random_set_features(rng, shape, bounded, 3).0
}

/// As [`random_set_in`] with at most `max_disj` (1–3) disjuncts, and the features of
/// the result.
pub fn random_set_features(
    rng: &mut impl Source,
    shape: Shape,
    bounded: bool,
    max_disj: i64,
) -> (String, Features) {
    let names: Vec<String> = (0..shape.dims).map(|k| format!("x{k}")).collect();
    let mut vars = names.clone();
    if shape.param {
        vars.push("N".into());
    }
    let mut f = Features {
        map: false,
        param: shape.param,
        bounded: true,
        strides: false,
    };
    let body = disjuncts(rng, &names, &vars, None, bounded, max_disj, &mut f);
    let pre = if shape.param { "[N] -> " } else { "" };
    (format!("{pre}{{ [{}] : {body} }}", names.join(", ")), f)
}

/// 1–`max_disj` disjuncts over `vars` (boxes on `boxed`), joined by `or`. With `link`
/// (output and input variables of a map), a disjunct sometimes equates an output
/// with an affine (or `floor`) expression of the inputs.
fn disjuncts(
    rng: &mut impl Source,
    boxed: &[String],
    vars: &[String],
    link: Option<(&[String], &[String])>,
    bounded: bool,
    max_disj: i64,
    f: &mut Features,
) -> String {
    let n_disj = rng.range(1, max_disj);
    let mut out = Vec::new();
    for _ in 0..n_disj {
        let mut parts = Vec::new();
        if bounded || rng.chance(50) {
            for v in boxed {
                parts.push(format!("-4 <= {v} <= 4"));
            }
        } else {
            f.bounded = false;
        }
        if let Some((outs, ins)) = link {
            for o in outs {
                match rng.range(0, 5) {
                    0 | 1 => parts.push(format!(
                        "{o} = {} + {}",
                        small_lin(rng, ins),
                        rng.range(-2, 2)
                    )),
                    2 => {
                        f.strides = true;
                        parts.push(format!(
                            "{o} = floor(({})/{})",
                            small_lin(rng, ins),
                            rng.range(2, 3)
                        ))
                    }
                    _ => {}
                }
            }
        }
        for _ in 0..rng.range(0, 3) {
            let op = match rng.range(0, 4) {
                0 => "=",
                1 | 2 => ">=",
                _ => "<=",
            };
            parts.push(format!("{} {op} {}", lin(rng, vars), rng.range(-5, 5)));
        }
        match rng.range(0, 5) {
            0 => parts.push(format!(
                "exists e : {} = {}e + {}",
                lin(rng, vars),
                rng.range(2, 4),
                rng.range(0, 2)
            )),
            1 => parts.push(format!(
                "({}) mod {} = {}",
                lin(rng, vars),
                rng.range(2, 3),
                rng.range(0, 1)
            )),
            2 => parts.push(format!(
                "floor(({})/{}) >= {}",
                lin(rng, vars),
                rng.range(2, 3),
                rng.range(-2, 2)
            )),
            _ => {}
        }
        if parts
            .iter()
            .any(|p| p.contains("exists") || p.contains("mod") || p.contains("floor"))
        {
            f.strides = true;
        }
        out.push(if parts.is_empty() {
            "true".to_string()
        } else {
            format!("({})", parts.join(" and "))
        });
    }
    out.join(" or ")
}

/// A random affine expression over `vars` with coefficients in -3..=3.
fn lin(rng: &mut impl Source, vars: &[String]) -> String {
    lin_with(rng, vars, 3)
}

/// A random affine expression over `vars` with coefficients in -2..=2.
fn small_lin(rng: &mut impl Source, vars: &[String]) -> String {
    lin_with(rng, vars, 2)
}

fn lin_with(rng: &mut impl Source, vars: &[String], m: i64) -> String {
    let mut t = String::new();
    for v in vars {
        let c = rng.range(-m, m);
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

/// The shape of generated maps: `A[n_in] -> B[n_out]`, sometimes a second range
/// space `C[n_out2]` too, and a parameter or not.
#[derive(Debug, Clone, Copy)]
pub struct MapShape {
    pub n_in: usize,
    pub n_out: usize,
    /// The arity of a second range space `C`, if any.
    pub second: Option<usize>,
    pub param: bool,
    /// Every disjunct boxed in -4..=4 on every dimension.
    pub bounded: bool,
    /// At most this many (1–3) disjuncts per space.
    pub max_disj: i64,
}

impl MapShape {
    pub fn random(rng: &mut impl Source) -> MapShape {
        MapShape {
            n_in: rng.range(1, 2) as usize,
            n_out: rng.range(1, 2) as usize,
            second: rng.chance(25).then(|| rng.range(1, 2) as usize),
            param: rng.chance(40),
            bounded: rng.chance(30),
            max_disj: 3,
        }
    }

    /// A shape whose domain is this shape's first range space `B` (for
    /// composition); its range is `D`.
    pub fn after(&self, rng: &mut impl Source) -> MapShape {
        MapShape {
            n_in: self.n_out,
            n_out: rng.range(1, 2) as usize,
            second: None,
            param: self.param,
            bounded: self.bounded,
            max_disj: self.max_disj,
        }
    }
}

/// A random union map of the shape as isl text, e.g.
/// `[N] -> { A[i0, i1] -> B[o0] : (...) or (...); A[i0, i1] -> C[o0, o1] : ... }`:
/// per space 1–3 disjuncts with boxes or not, equalities between outputs and inputs,
/// strides, `mod` and `floor` terms. The domain tuple is `A` (or `B` for shapes
/// made by [`MapShape::after`]).
pub fn random_map(rng: &mut impl Source, shape: MapShape) -> String {
    random_map_features(rng, shape, "A", "B").0
}

/// As [`random_map`] with the tuple names given (the second range is `C`), and the
/// features of the result.
pub fn random_map_features(
    rng: &mut impl Source,
    shape: MapShape,
    dom: &str,
    ran: &str,
) -> (String, Features) {
    let mut f = Features {
        map: true,
        param: shape.param,
        bounded: true,
        strides: false,
    };
    let ins: Vec<String> = (0..shape.n_in).map(|k| format!("i{k}")).collect();
    let mut pieces = Vec::new();
    let ranges = std::iter::once((ran, shape.n_out)).chain(shape.second.map(|n| ("C", n)));
    for (name, n_out) in ranges {
        let outs: Vec<String> = (0..n_out).map(|k| format!("o{k}")).collect();
        let mut all: Vec<String> = ins.iter().chain(&outs).cloned().collect();
        let mut link_ins = ins.clone();
        if shape.param {
            all.push("N".into());
            link_ins.push("N".into());
        }
        let boxed: Vec<String> = ins.iter().chain(&outs).cloned().collect();
        let body = disjuncts(
            rng,
            &boxed,
            &all,
            Some((&outs, &link_ins)),
            shape.bounded,
            shape.max_disj,
            &mut f,
        );
        pieces.push(format!(
            "{dom}[{}] -> {name}[{}] : {body}",
            ins.join(", "),
            outs.join(", ")
        ));
    }
    let pre = if shape.param { "[N] -> " } else { "" };
    (format!("{pre}{{ {} }}", pieces.join("; ")), f)
}

/// What one comparison found.
pub enum Verdict {
    /// Both sides agree.
    Same,
    /// A disagreement, described.
    Differ(String),
    /// Not compared, with the reason.
    Skip(String),
}

/// A short name for the kind of an error of our library.
pub fn error_kind(e: &presburger::Error) -> &'static str {
    match e {
        presburger::Error::Budget(_) => "budget",
        presburger::Error::Unsupported(_) => "unsupported",
        presburger::Error::Unbounded(_) => "unbounded",
        presburger::Error::Parse { .. } => "parse",
        presburger::Error::SpaceMismatch(_) => "space mismatch",
        presburger::Error::Invalid(_) => "invalid",
    }
}

/// The reason to skip for an error of our library.
pub fn ours_failed(e: &presburger::Error) -> Verdict {
    Verdict::Skip(format!("ours: {}", error_kind(e)))
}

/// The reason to skip for a failure of isl: its operation limit or another error.
fn isl_failed(ctx: &isl::Ctx) -> Verdict {
    Verdict::Skip(
        if ctx.quota_hit() {
            "isl: quota"
        } else {
            "isl: error"
        }
        .into(),
    )
}

/// Two answers to a yes/no question.
fn bools(ctx: &isl::Ctx, ours: presburger::Result<bool>, theirs: Option<bool>) -> Verdict {
    match (ours, theirs) {
        (Err(e), _) => ours_failed(&e),
        (_, None) => isl_failed(ctx),
        (Ok(a), Some(b)) if a == b => Verdict::Same,
        (Ok(a), Some(b)) => Verdict::Differ(format!("ours {a}, isl {b}")),
    }
}

/// Our result (printed) against isl's, by isl's equality on our printed text.
fn same_set(
    ctx: &isl::Ctx,
    ours: presburger::Result<String>,
    theirs: Option<isl::USet>,
) -> Verdict {
    let ours = match ours {
        Ok(o) => o,
        Err(e) => return ours_failed(&e),
    };
    let Some(theirs) = theirs else {
        return isl_failed(ctx);
    };
    let Some(o) = ctx.union_set(&ours) else {
        // reading can run out of isl's operation limit too
        if ctx.quota_hit() || ctx.unlimited(|| ctx.union_set(&ours).is_some()) {
            return Verdict::Skip("isl: quota".into());
        }
        return Verdict::Differ(format!("isl cannot read our output {ours}"));
    };
    match o.is_equal(&theirs) {
        Some(true) => Verdict::Same,
        Some(false) => Verdict::Differ(format!("ours {ours}, isl {}", theirs.to_text())),
        None => isl_failed(ctx),
    }
}

/// As [`same_set`] for maps.
fn same_map(
    ctx: &isl::Ctx,
    ours: presburger::Result<String>,
    theirs: Option<isl::UMap>,
) -> Verdict {
    let ours = match ours {
        Ok(o) => o,
        Err(e) => return ours_failed(&e),
    };
    let Some(theirs) = theirs else {
        return isl_failed(ctx);
    };
    let Some(o) = ctx.union_map(&ours) else {
        // reading can run out of isl's operation limit too
        if ctx.quota_hit() || ctx.unlimited(|| ctx.union_map(&ours).is_some()) {
            return Verdict::Skip("isl: quota".into());
        }
        return Verdict::Differ(format!("isl cannot read our output {ours}"));
    };
    match o.is_equal(&theirs) {
        Some(true) => Verdict::Same,
        Some(false) => Verdict::Differ(format!("ours {ours}, isl {}", theirs.to_text())),
        None => isl_failed(ctx),
    }
}

/// Our parse of isl's printed text, against our own object.
fn reparse<T: std::str::FromStr<Err = presburger::Error>>(
    ctx: &isl::Ctx,
    printed: &str,
    eq: impl FnOnce(&T) -> presburger::Result<bool>,
) -> Verdict {
    if printed.is_empty() {
        return isl_failed(ctx);
    }
    match printed.parse::<T>() {
        Err(e) => Verdict::Differ(format!("we cannot parse isl's output {printed}: {e}")),
        Ok(t) => match eq(&t) {
            Ok(true) => Verdict::Same,
            Ok(false) => Verdict::Differ(format!("isl's output {printed} parses to another set")),
            Err(e) => ours_failed(&e),
        },
    }
}

/// What the differential comparisons found.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub compared: u64,
    pub skipped: u64,
    pub mismatches: Vec<String>,
    /// What was skipped, per operation and reason (an error on either side).
    pub skip_reasons: std::collections::BTreeMap<String, u64>,
    /// Comparisons made, per operation.
    pub per_kind: std::collections::BTreeMap<String, u64>,
    /// Time spent per operation (both libraries and the comparison).
    pub time: std::collections::BTreeMap<String, std::time::Duration>,
    /// When set, comparisons after this instant are skipped (a per-case time cap).
    pub deadline: Option<std::time::Instant>,
}

impl Tally {
    /// Runs one comparison (unless past the deadline) and records its verdict;
    /// `case` describes the inputs, built only for a mismatch.
    pub fn run(&mut self, what: &str, case: &dyn Fn() -> String, f: impl FnOnce() -> Verdict) {
        let start = std::time::Instant::now();
        let v = if self.deadline.is_some_and(|d| start > d) {
            Verdict::Skip("case time cap".into())
        } else {
            f()
        };
        *self.time.entry(what.to_string()).or_default() += start.elapsed();
        match v {
            Verdict::Same => {
                self.compared += 1;
                *self.per_kind.entry(what.to_string()).or_default() += 1;
            }
            Verdict::Differ(d) => self.mismatches.push(format!("{what}: {d} for {}", case())),
            Verdict::Skip(reason) => self.skip(&format!("{what} ({reason})")),
        }
    }

    /// Counts a skip with its reason.
    pub fn skip(&mut self, reason: &str) {
        self.skipped += 1;
        *self.skip_reasons.entry(reason.to_string()).or_default() += 1;
    }
}

/// One comparison with isl's operation count restarted (so that a limit set with
/// [`isl::Ctx::set_max_operations`] applies to each comparison).
fn go(
    ctx: &isl::Ctx,
    tally: &mut Tally,
    what: &str,
    case: &dyn Fn() -> String,
    f: impl FnOnce() -> Verdict,
) {
    ctx.reset_operations();
    tally.run(what, case, f)
}

/// Which comparisons [`compare_with`] and [`compare_maps_with`] make.
#[derive(Debug, Clone, Copy)]
pub struct Ops {
    /// Subtraction and coalescing.
    pub heavy: bool,
    /// Parsing isl's output; reverse, domain, range and composition of maps.
    pub structural: bool,
}

impl Ops {
    pub const ALL: Ops = Ops {
        heavy: true,
        structural: true,
    };
    pub const CHEAP: Ops = Ops {
        heavy: false,
        structural: false,
    };
}

/// Compares our answers with isl's on the sets `a` and `b` (isl text): emptiness,
/// inclusion, equality, subtraction and coalescing (results compared by isl's own
/// equality on our printed output), lexmin of non-parametric sets, and our parsing
/// of isl's printed form.
pub fn compare(ctx: &isl::Ctx, a: &str, b: &str, tally: &mut Tally) {
    compare_with(ctx, a, b, tally, Ops::ALL)
}

/// As [`compare`], making the comparisons of `ops` only (emptiness, inclusion,
/// equality and lexmin always).
pub fn compare_with(ctx: &isl::Ctx, a: &str, b: &str, tally: &mut Tally, ops: Ops) {
    ctx.reset_operations();
    let (x, y) = match (a.parse::<UnionSet>(), b.parse::<UnionSet>()) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => {
            return tally.skip(&format!("parse (ours: {e})"));
        }
    };
    let (Some(ix), Some(iy)) = (ctx.union_set(a), ctx.union_set(b)) else {
        return tally.skip("parse (isl)");
    };
    let pair = || format!("A = {a}, B = {b}");
    go(ctx, tally, "is_empty", &pair, || {
        bools(ctx, x.is_empty(), ix.is_empty())
    });
    go(ctx, tally, "is_subset", &pair, || {
        bools(ctx, x.is_subset(&y), ix.is_subset(&iy))
    });
    go(ctx, tally, "is_equal", &pair, || {
        bools(ctx, x.is_equal(&y), ix.is_equal(&iy))
    });
    if ops.heavy {
        go(ctx, tally, "subtract", &pair, || {
            same_set(ctx, x.subtract(&y).map(|d| d.to_string()), ix.subtract(&iy))
        });
        // against the input itself, freshly parsed: isl's own coalescing is wrong on
        // some inputs (isl 0.25 adds x0 = 0 to `{ [x0] : (-4 <= x0 <= 4 and exists e :
        // 2x0 = 4e + 1) or (-4 <= x0 <= 4 and exists e : 2x0 = 3e + 1) or (-4 <= x0 <=
        // -3) }` and rewrites the shared input object in place)
        go(ctx, tally, "coalesce", &pair, || {
            same_set(ctx, x.coalesce().map(|c| c.to_string()), ctx.union_set(a))
        });
    }
    if ops.structural {
        go(ctx, tally, "parse isl output", &pair, || {
            reparse::<UnionSet>(ctx, &ix.to_text(), |p| p.is_equal(&x))
        });
    }
    // lexmin of a non-parametric single-space set
    if x.params().is_empty() && x.members().len() == 1 {
        let s: &Set = &x.members()[0];
        go(ctx, tally, "lexmin", &pair, || lexmin_verdict(ctx, s, &ix));
    }
}

/// Our lexmin of `s` (a point, printed as a set) against isl's lexmin of `theirs`.
fn lexmin_verdict(ctx: &isl::Ctx, s: &Set, theirs: &isl::USet) -> Verdict {
    let ours = match s.lexmin() {
        Ok(Some(p)) => Set::from_point(s.space(), &p).map(|q| q.to_string()),
        Ok(None) => Set::empty(s.space().clone()).map(|e| e.to_string()),
        // isl's lexmin of an unbounded set is not a point set
        Err(e) => return ours_failed(&e),
    };
    same_set(ctx, ours, theirs.lexmin())
}

/// Compares our answers with isl's on the union maps `a` and `b` (same spaces) and
/// `c` (whose domain is the first range space of `a`): emptiness, inclusion,
/// equality, subtraction, coalescing, reverse, domain, range, composition
/// `a` then `c`, our parsing of isl's printed `a`, and the lexmin of the wrapped
/// `a` when it has no parameter and one space. (Our `UnionMap` has no `lexmin`;
/// isl's `isl_union_map_lexmin` is per domain point and is not compared.)
pub fn compare_maps(ctx: &isl::Ctx, a: &str, b: &str, c: &str, tally: &mut Tally) {
    compare_maps_with(ctx, a, b, c, tally, Ops::ALL)
}

/// As [`compare_maps`], making the comparisons of `ops` only.
pub fn compare_maps_with(ctx: &isl::Ctx, a: &str, b: &str, c: &str, tally: &mut Tally, ops: Ops) {
    ctx.reset_operations();
    let parsed = (
        a.parse::<UnionMap>(),
        b.parse::<UnionMap>(),
        c.parse::<UnionMap>(),
    );
    let (x, y, z) = match parsed {
        (Ok(x), Ok(y), Ok(z)) => (x, y, z),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            return tally.skip(&format!("parse (ours: {e})"));
        }
    };
    let (Some(ix), Some(iy), Some(iz)) = (ctx.union_map(a), ctx.union_map(b), ctx.union_map(c))
    else {
        return tally.skip("parse (isl)");
    };
    let pair = || format!("A = {a}, B = {b}");
    go(ctx, tally, "map is_empty", &pair, || {
        bools(ctx, x.is_empty(), ix.is_empty())
    });
    go(ctx, tally, "map is_subset", &pair, || {
        bools(ctx, x.is_subset(&y), ix.is_subset(&iy))
    });
    go(ctx, tally, "map is_equal", &pair, || {
        bools(ctx, x.is_equal(&y), ix.is_equal(&iy))
    });
    if ops.heavy {
        go(ctx, tally, "map subtract", &pair, || {
            same_map(ctx, x.subtract(&y).map(|d| d.to_string()), ix.subtract(&iy))
        });
        // against the input, freshly parsed (see the set case)
        go(ctx, tally, "map coalesce", &pair, || {
            same_map(ctx, x.coalesce().map(|d| d.to_string()), ctx.union_map(a))
        });
    }
    if ops.structural {
        let one = || format!("A = {a}");
        go(ctx, tally, "map reverse", &one, || {
            same_map(ctx, Ok(x.reverse().to_string()), ix.reverse())
        });
        go(ctx, tally, "map domain", &one, || {
            same_set(ctx, x.domain().map(|d| d.to_string()), ix.domain())
        });
        go(ctx, tally, "map range", &one, || {
            same_set(ctx, x.range().map(|d| d.to_string()), ix.range())
        });
        let then = || format!("A = {a}, C = {c}");
        go(ctx, tally, "map apply_range", &then, || {
            same_map(
                ctx,
                x.apply_range(&z).map(|d| d.to_string()),
                ix.apply_range(&iz),
            )
        });
        go(ctx, tally, "map parse isl output", &one, || {
            reparse::<UnionMap>(ctx, &ix.to_text(), |p| p.is_equal(&x))
        });
    }
    if x.params().is_empty() && x.members().len() == 1 {
        let w = x.members()[0].wrap();
        if let Some(iw) = ix.wrapped() {
            go(
                ctx,
                tally,
                "map wrapped lexmin",
                &|| format!("A = {a}"),
                || lexmin_verdict(ctx, &w, &iw),
            );
        }
    }
}

/// One case of the isl differential from a fuzzer's bytes: the first byte picks
/// sets (even) or maps (odd), the rest drive the generators.
pub fn differential_case(data: &[u8], ctx: &isl::Ctx, tally: &mut Tally) {
    let mut b = Bytes(data);
    if b.range(0, 1) == 0 {
        let shape = Shape::random(&mut b);
        let (x, y) = (random_set(&mut b, shape), random_set(&mut b, shape));
        compare(ctx, &x, &y, tally);
    } else {
        map_case(&mut b, ctx, tally, Ops::ALL, 3);
    }
}

/// Three random maps (`a`, `b` of one shape, `c` composable after `a`) through
/// [`compare_maps_with`], at most `max_disj` disjuncts per space; returns the
/// features of the pair `a`, `b`.
pub fn map_case(
    rng: &mut impl Source,
    ctx: &isl::Ctx,
    tally: &mut Tally,
    ops: Ops,
    max_disj: i64,
) -> Features {
    let mut shape = MapShape::random(rng);
    shape.max_disj = max_disj;
    let (a, fa) = random_map_features(rng, shape, "A", "B");
    let (b, fb) = random_map_features(rng, shape, "A", "B");
    let next = shape.after(rng);
    let (c, _) = random_map_features(rng, next, "B", "D");
    compare_maps_with(ctx, &a, &b, &c, tally, ops);
    fa.join(fb)
}

// ----- checkers against brute-force enumeration -------------------------------------

use presburger::internals::testing::{Box as PBox, set_points};
use presburger::internals::{EmptinessPath, is_empty_via};
use presburger::{BasicSet, DimKind, Int};
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
/// `sample`, `lexmin`, `lexmax` and the projection out of each dimension, for each
/// parameter value in -1..=2.
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
        for k in 0..f.space().n_out() {
            let proj = f
                .project_out(DimKind::Out, k, 1)
                .map_err(|e| format!("{text}: project_out {k}: {e}"))?;
            let want: Points = pts
                .iter()
                .map(|p| [&p[..k], &p[k + 1..]].concat())
                .collect();
            // membership by the exact solver (the projection's existentials may
            // need witnesses beyond the enumeration's search range)
            let n = proj.space().n_out();
            let mut point = vec![-5i64; n];
            loop {
                let inside = proj
                    .contains(&ints(&point))
                    .map_err(|e| format!("{text}: contains: {e}"))?;
                if inside != want.contains(&point) {
                    return Err(format!(
                        "projecting out dimension {k} of {text} at {pv:?} gives {proj}, \
                         wrong at {point:?}"
                    ));
                }
                // the next point of the box -5..=5
                let Some(j) = (0..n).rev().find(|&j| point[j] < 5) else {
                    break;
                };
                point[j] += 1;
                point[j + 1..].iter_mut().for_each(|v| *v = -5);
            }
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
    let fast = is_empty_via(&s, EmptinessPath::ForceSdbm).map_err(|e| format!("{text}: {e}"))?;
    let general =
        is_empty_via(&s, EmptinessPath::ForceGeneral).map_err(|e| format!("{text}: {e}"))?;
    let brute = enumerate(&Set::from(s), &[]).is_empty();
    if fast != general || fast != brute {
        return Err(format!(
            "fast {fast}, general {general}, enumeration {brute} for {text}"
        ));
    }
    Ok(())
}
