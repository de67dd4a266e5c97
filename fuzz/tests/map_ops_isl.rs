//! The rearrangements of spaces against isl 0.25 on random maps and sets:
//! `Map::domain_map`, `range_map`, `zip` and `insert_dims`, `Set::insert_dims`,
//! `insert_params` (against isl's `insert_dims` on parameters and then the
//! names), and the union versions `UnionMap::domain_map`, `range_map` and
//! `zip` (members that cannot zip are dropped, on both sides). Our result is
//! printed and read by isl, and must be equal (`isl_map_is_equal`,
//! `isl_set_is_equal`, `isl_union_map_is_equal`: same spaces, tuple names and
//! nesting included, and same points) to isl's own result on the same input
//! text. Where isl fails (a map that cannot zip, a position out of range), we
//! must return an error.
//!
//! The maps are those of the generators of `presburger_fuzz` (`A[..] -> B[..]`,
//! sometimes with a second member `A[..] -> C[..]`), with their tuples cut
//! into pairs (`[A[i0] -> E[i1]] -> [B[o0] -> F[]]`, the wrapped tuples named
//! sometimes) for `zip`. `MAP_OPS_CASES` sets the number of cases (default
//! 500); needs the system isl (`apt-get install libisl-dev`).

use presburger::{DimKind, Map, Set, UnionMap};
use presburger_fuzz::isl::{Ctx, IMap, ISet, IslDim, UMap};
use presburger_fuzz::{MapShape, Rng, Shape, Source, random_map_features, random_set};
use std::collections::BTreeMap;

/// isl's work per comparison (reading, the operation and the equality).
const ISL_MAX_OPERATIONS: u64 = 200_000;

#[derive(Default)]
struct Tally {
    compared: BTreeMap<&'static str, u64>,
    skipped: BTreeMap<String, u64>,
    mismatches: Vec<String>,
}

impl Tally {
    fn record(&mut self, what: &'static str, case: &str, v: Result<(), String>) {
        match v {
            Ok(()) => *self.compared.entry(what).or_default() += 1,
            Err(e) if e.starts_with("skip: ") => {
                *self
                    .skipped
                    .entry(format!("{what} ({})", &e[6..]))
                    .or_default() += 1
            }
            Err(e) => self.mismatches.push(format!("{what}: {e} for {case}")),
        }
    }
}

fn skip(ctx: &Ctx) -> String {
    if ctx.quota_hit() {
        "skip: isl quota".into()
    } else {
        "skip: isl error".into()
    }
}

/// Our map (printed) against isl's by `isl_map_is_equal`.
fn same_map(ctx: &Ctx, ours: presburger::Result<Map>, theirs: Option<IMap>) -> Result<(), String> {
    let ours = ours.map_err(|e| format!("ours failed: {e}"))?.to_string();
    let theirs = theirs.ok_or_else(|| skip(ctx))?;
    let back = ctx
        .read_map(&ours)
        .ok_or_else(|| format!("isl cannot read our {ours}"))?;
    match back.is_equal(&theirs) {
        Some(true) => Ok(()),
        Some(false) => Err(format!("ours {ours}, isl {}", theirs.to_text())),
        None => Err(skip(ctx)),
    }
}

/// Our set (printed) against isl's by `isl_set_is_equal`.
fn same_set(ctx: &Ctx, ours: presburger::Result<Set>, theirs: Option<ISet>) -> Result<(), String> {
    let ours = ours.map_err(|e| format!("ours failed: {e}"))?.to_string();
    let theirs = theirs.ok_or_else(|| skip(ctx))?;
    let back = ctx
        .read_set(&ours)
        .ok_or_else(|| format!("isl cannot read our {ours}"))?;
    match back.is_equal(&theirs) {
        Some(true) => Ok(()),
        Some(false) => Err(format!("ours {ours}, isl {}", theirs.to_text())),
        None => Err(skip(ctx)),
    }
}

/// Our union map (printed) against isl's by `isl_union_map_is_equal`.
fn same_union(ctx: &Ctx, ours: &UnionMap, theirs: Option<UMap>) -> Result<(), String> {
    let ours = ours.to_string();
    let theirs = theirs.ok_or_else(|| skip(ctx))?;
    let back = ctx
        .union_map(&ours)
        .ok_or_else(|| format!("isl cannot read our {ours}"))?;
    match back.is_equal(&theirs) {
        Some(true) => Ok(()),
        Some(false) => Err(format!("ours {ours}, isl {}", theirs.to_text())),
        None => Err(skip(ctx)),
    }
}

/// Both refuse: our error against isl's failure (a null result).
fn both_refuse<T: std::fmt::Display, U>(
    ours: presburger::Result<T>,
    theirs: Option<U>,
) -> Result<(), String> {
    match (ours, theirs) {
        (Err(_), None) => Ok(()),
        (Ok(o), None) => Err(format!("isl refuses, ours gives {o}")),
        (Err(e), Some(_)) => Err(format!("isl accepts, ours refuses: {e}")),
        (Ok(o), Some(_)) => Err(format!("both accept an invalid case? ours {o}")),
    }
}

/// `names[..]` as `v0, v1, ..` with the given prefix, from `lo` to `hi`.
fn vars(prefix: &str, lo: usize, hi: usize) -> String {
    (lo..hi)
        .map(|k| format!("{prefix}{k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A tuple `T[v..]` cut into the pair `[T[v0..vk] -> U[vk..]]`, the pair
/// named `W` sometimes.
fn cut(rng: &mut Rng, name: &str, other: &str, prefix: &str, n: usize) -> String {
    let k = rng.range(0, n as i64) as usize;
    let outer = if rng.chance(25) { "W" } else { "" };
    format!(
        "{outer}[{name}[{}] -> {other}[{}]]",
        vars(prefix, 0, k),
        vars(prefix, k, n)
    )
}

/// A random map of the generators and its shape.
fn random_map(rng: &mut Rng) -> (String, MapShape) {
    let shape = MapShape::random(rng);
    let (text, _) = random_map_features(rng, shape, "A", "B");
    (text, shape)
}

/// The same map with its tuples cut into pairs (the second member, if any,
/// cut on one side only sometimes, so that it cannot zip).
fn nested(rng: &mut Rng, text: &str, shape: MapShape) -> String {
    let dom = format!("A[{}]", vars("i", 0, shape.n_in));
    let first = format!("{dom} -> B[{}]", vars("o", 0, shape.n_out));
    let d1 = cut(rng, "A", "E", "i", shape.n_in);
    let r1 = cut(rng, "B", "F", "o", shape.n_out);
    let mut t = text.replacen(&first, &format!("{d1} -> {r1}"), 1);
    if let Some(n2) = shape.second {
        let second = format!("{dom} -> C[{}]", vars("o", 0, n2));
        let r2 = if rng.chance(50) {
            cut(rng, "C", "G", "o", n2)
        } else {
            format!("C[{}]", vars("o", 0, n2))
        };
        let d2 = if rng.chance(70) {
            cut(rng, "A", "E", "i", shape.n_in)
        } else {
            dom.clone()
        };
        t = t.replacen(&second, &format!("{d2} -> {r2}"), 1);
    }
    t
}

fn kind_pair(rng: &mut Rng) -> (DimKind, IslDim) {
    if rng.chance(50) {
        (DimKind::In, IslDim::In)
    } else {
        (DimKind::Out, IslDim::Out)
    }
}

/// One case: a random map (and a set) through every operation, on both sides.
fn case(ctx: &Ctx, rng: &mut Rng, tally: &mut Tally) {
    let (text, shape) = random_map(rng);
    let (Ok(u), Some(iu)) = (text.parse::<UnionMap>(), ctx.union_map(&text)) else {
        *tally.skipped.entry("parse".into()).or_default() += 1;
        return;
    };
    ctx.reset_operations();
    tally.record(
        "union domain_map",
        &text,
        same_union(ctx, &u.domain_map(), iu.domain_map()),
    );
    ctx.reset_operations();
    tally.record(
        "union range_map",
        &text,
        same_union(ctx, &u.range_map(), iu.range_map()),
    );
    if shape.second.is_none() {
        let m: Map = text.parse().expect("one space");
        let im = ctx.read_map(&text).expect("isl reads it as a union map");
        ctx.reset_operations();
        tally.record(
            "domain_map",
            &text,
            same_map(ctx, Ok(m.domain_map()), im.domain_map()),
        );
        ctx.reset_operations();
        tally.record(
            "range_map",
            &text,
            same_map(ctx, Ok(m.range_map()), im.range_map()),
        );
        // insert_dims, in range and (sometimes) out of range
        let (kind, ik) = kind_pair(rng);
        let have = m.space().dim(kind) as i64;
        let beyond = i64::from(rng.chance(10));
        let pos = rng.range(0, have + beyond) as usize;
        let n = rng.range(beyond, 2) as usize;
        ctx.reset_operations();
        let ours = m.insert_dims(kind, pos, n);
        let theirs = im.insert_dims(ik, pos, n);
        if pos as i64 > have {
            tally.record("insert_dims out of range", &text, both_refuse(ours, theirs));
        } else {
            tally.record(
                "insert_dims",
                &format!("{text} ({kind:?}, {pos}, {n})"),
                same_map(ctx, ours, theirs),
            );
        }
        // insert_params: isl's unnamed parameters, then named
        let np = m.space().n_param();
        let ppos = rng.range(0, np as i64) as usize;
        let names: Vec<String> = (0..rng.range(1, 2)).map(|k| format!("P{k}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        ctx.reset_operations();
        let mut theirs = im.insert_dims(IslDim::Param, ppos, names.len());
        for (k, name) in names.iter().enumerate() {
            theirs = theirs.and_then(|t| t.set_dim_name(IslDim::Param, ppos + k, name));
        }
        tally.record(
            "insert_params",
            &format!("{text} ({ppos}, {names:?})"),
            same_map(ctx, m.insert_params(ppos, &refs), theirs),
        );
    }
    // zip, on the tuples cut into pairs
    let zt = nested(rng, &text, shape);
    let (Ok(z), Some(iz)) = (zt.parse::<UnionMap>(), ctx.union_map(&zt)) else {
        *tally.skipped.entry("parse (nested)".into()).or_default() += 1;
        return;
    };
    ctx.reset_operations();
    tally.record("union zip", &zt, same_union(ctx, &z.zip(), iz.zip()));
    ctx.reset_operations();
    tally.record(
        "union domain_map (nested)",
        &zt,
        same_union(ctx, &z.domain_map(), iz.domain_map()),
    );
    for m in z.members() {
        // each member alone, printed by us (isl reads it as one map)
        let mt = m.to_string();
        let Some(im) = ctx.read_map(&mt) else {
            tally.record("zip", &mt, Err(format!("isl cannot read our {mt}")));
            continue;
        };
        ctx.reset_operations();
        if im.can_zip() == Some(true) {
            tally.record("zip", &mt, same_map(ctx, m.zip(), im.zip()));
        } else {
            tally.record("zip refused", &mt, both_refuse(m.zip(), im.zip()));
        }
        ctx.reset_operations();
        tally.record(
            "range_map (nested)",
            &mt,
            same_map(ctx, Ok(m.range_map()), im.range_map()),
        );
        let (kind, ik) = kind_pair(rng);
        let pos = rng.range(0, m.space().dim(kind) as i64) as usize;
        let n = rng.range(0, 2) as usize;
        ctx.reset_operations();
        tally.record(
            "insert_dims (nested)",
            &format!("{mt} ({kind:?}, {pos}, {n})"),
            same_map(ctx, m.insert_dims(kind, pos, n), im.insert_dims(ik, pos, n)),
        );
    }
    // sets: named, anonymous or nested tuples
    let shape = Shape::random(rng);
    let mut st = random_set(rng, shape);
    match rng.range(0, 2) {
        0 => st = st.replacen("{ [", "{ S[", 1),
        1 if shape.dims >= 2 => {
            let from = format!("[{}]", vars("x", 0, shape.dims));
            st = st.replacen(&from, &cut(rng, "S", "T", "x", shape.dims), 1);
        }
        _ => {}
    }
    let (Ok(s), Some(is)) = (st.parse::<Set>(), ctx.read_set(&st)) else {
        *tally.skipped.entry("parse (set)".into()).or_default() += 1;
        return;
    };
    let have = s.space().n_out() as i64;
    let beyond = i64::from(rng.chance(10));
    let pos = rng.range(0, have + beyond) as usize;
    let n = rng.range(beyond, 2) as usize;
    ctx.reset_operations();
    let (ours, theirs) = (
        s.insert_dims(DimKind::SET, pos, n),
        is.insert_dims(IslDim::Out, pos, n),
    );
    if pos as i64 > have {
        tally.record(
            "set insert_dims out of range",
            &st,
            both_refuse(ours, theirs),
        );
    } else {
        tally.record(
            "set insert_dims",
            &format!("{st} ({pos}, {n})"),
            same_set(ctx, ours, theirs),
        );
    }
    let ppos = rng.range(0, s.space().n_param() as i64) as usize;
    ctx.reset_operations();
    let theirs = is
        .insert_dims(IslDim::Param, ppos, 1)
        .and_then(|t| t.set_dim_name(IslDim::Param, ppos, "Q"));
    tally.record(
        "set insert_params",
        &format!("{st} ({ppos})"),
        same_set(ctx, s.insert_params(ppos, &["Q"]), theirs),
    );
}

#[test]
fn rearrangements_agree_with_isl() {
    let cases: u64 = std::env::var("MAP_OPS_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let ctx = Ctx::new();
    ctx.set_max_operations(ISL_MAX_OPERATIONS);
    let mut rng = Rng::new(20261130);
    let mut tally = Tally::default();
    for _ in 0..cases {
        case(&ctx, &mut rng, &mut tally);
    }
    let total: u64 = tally.compared.values().sum();
    eprintln!(
        "map ops against isl: {cases} cases, {total} comparisons, {} skipped, {} mismatches",
        tally.skipped.values().sum::<u64>(),
        tally.mismatches.len()
    );
    eprintln!("  per kind: {:?}", tally.compared);
    eprintln!("  skipped: {:?}", tally.skipped);
    for m in tally.mismatches.iter().take(10) {
        eprintln!("  {m}");
    }
    assert!(
        tally.mismatches.is_empty(),
        "{} mismatches",
        tally.mismatches.len()
    );
    // every kind of comparison was made, and few were skipped
    for kind in [
        "domain_map",
        "range_map",
        "union domain_map",
        "union range_map",
        "union zip",
        "zip",
        "zip refused",
        "insert_dims",
        "insert_dims out of range",
        "insert_params",
        "set insert_dims",
        "set insert_dims out of range",
        "set insert_params",
    ] {
        assert!(
            tally.compared.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} comparison"
        );
    }
    assert!(
        tally.skipped.values().sum::<u64>() * 20 <= total,
        "too many skipped: {:?}",
        tally.skipped
    );
}
