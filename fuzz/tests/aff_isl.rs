//! Piecewise quasi-affine functions against isl: each text is read by isl and by
//! us; our printed text must read in isl to a function equal to isl's reading of
//! the original (`isl_pw_multi_aff_is_equal`), and our reading of isl's printed
//! text must equal our reading of the original. Where our printing matches
//! isl's character for character, that is checked too.

use presburger::{PwAff, PwMultiAff};
use presburger_fuzz::isl::Ctx;

/// Texts in isl's function notation (several printed by isl itself).
const TEXTS: &[&str] = &[
    "[N] -> { [i] -> [(i + 1)] : i < N; [i] -> [(0)] : i >= N }",
    "{ [i] -> [(floor((i)/2))] }",
    "{ S[i, j] -> [(i), (j + 1)] }",
    "{ [i] -> [((i)/2)] }",
    "[N] -> { [(N)] }",
    "{ [i] -> [(2i)] }",
    "{ [i] -> [(-i - 3)] }",
    "{ [i, j] -> [(3*floor((i + j)/2) - 2j + 5)] }",
    "{ [i] -> [((2i + 1)/3)] }",
    "{ [i] -> [(-floor((i)/2))] }",
    "{ [i] -> A[(i), (2i)] }",
    "{ [i] -> [(i mod 3)] }",
    "{ [i] -> [((3i + floor(i/2))/5)] }",
    "{ [i] -> [(0)] : i > 0 and exists (e: i = 2e) }",
    "{ [i] -> [(i)] : i > 5 or i < 0 }",
    "[N, M] -> { [i] -> [(N - 2M + 1)] : i >= M }",
    "{ [i] -> [(-(i)/2)] }",
    "[N] -> { [(N)] : N > 0 }",
    "{ [i0] -> [(floor((-1 - i0)/2))] }",
    "[N] -> { [i, j] -> [(floor((i + N)/3) + floor((j)/2))] : 0 <= i < N and 0 <= j }",
    "{ [i, j] -> [(floor((floor((i)/2) + j)/3))] }",
    "{ [i] -> [(floor((floor((i)/2) + 1)/3))] }",
    "{ [i] -> [(1)]; [i] -> [(2)] : i > 0 }",
    "{ [i] -> [(1)] : i >= 0; [i] -> [(1)] : i > 5 }",
    "{ [i] -> [(floor(i/2) - 2*floor(floor(i/2)/2))] }",
    "{ [i] -> [(3*floor(i/3))] }",
    "{ [i, j] -> [(2i + j - 2*floor(i/2))] }",
    "[N] -> { [i] -> [(N mod 4 + i mod 3)] : 0 <= i < N; [i] -> [((N + i)/2)] : i >= N }",
    "{ [S[i] -> T[j]] -> [(i + j)] : i >= j }",
    "{ [i, j] -> [S[i] -> T[(floor((j)/2))]] }",
    "{ [] -> A[(1)] }",
    "[N] -> { [] -> A[(N)] : N > 0 }",
    "[N] -> { A[(N), (2N)] : N > 0 }",
    "{ [i, j] -> [(i), (floor((i + j)/2)), (-(j)/3)] : i >= 0 and j >= 0 }",
];

/// Texts that isl prints back unchanged and so do we.
const SAME_PRINT: &[&str] = &[
    "[N] -> { [i] -> [(1 + i)] : i < N; [i] -> [(0)] : i >= N }",
    "{ [i] -> [(floor((i)/2))] }",
    "{ S[i, j] -> [(i), (1 + j)] }",
    "{ [i] -> [(i)/2] }",
    "[N] -> { [(N)] }",
    "{ [i] -> [(2i)] }",
    "{ [i] -> [(-3 - i)] }",
    "{ [i, j] -> [(5 - 2j + 3*floor((i + j)/2))] }",
    "{ [i] -> [(1 + 2i)/3] }",
    "{ [i] -> [(-floor((i)/2))] }",
    "{ [i] -> A[(i)] }",
    "{ [i] -> [(3i + floor((i)/2))/5] }",
    "[N, M] -> { [i] -> [(1 + N - 2M)] }",
    "{ [i] -> [(-i)/2] }",
    "{ [] -> A[(1)] }",
    "{ [i0] -> [(-1 - i0 + floor((1 + i0)/2))] }",
    "{ [i] -> [((i) mod 3)] }",
    "{ [i] -> [(1 + (i) mod 3)] }",
    "{ [i] -> [(2*((i) mod 3))] }",
    "{ [i, j] -> [(j + (i) mod 3)] }",
    "{ [i] -> [((1 + i) mod 3)] }",
    "{ [i] -> [((i) mod 3)/2] }",
    "{ [i, j] -> [((i) mod 3 + (i + j) mod 4)] }",
    "{ [i] -> [(-1 + (1 + i) mod 2)] }",
    "{ [i] -> [(-1*((i) mod 3))] }",
    "{ [i] -> [(i - (i) mod 3)] }",
    "{ [i, j] -> [(-j + (i + j) mod 2)] }",
    "{ [i] -> [(-i + 2*((i) mod 3))] }",
    "{ [i] -> [(5 - i + (i) mod 3)] }",
    "{ [i] -> [(floor((2 + i)/6))] }",
    "{ [i] -> [(floor((i)/2) - 2*floor((i)/4))] }",
];

#[test]
fn our_printing_reads_in_isl_to_the_same_function() {
    let ctx = Ctx::new();
    let mut failures = Vec::new();
    for text in TEXTS {
        let ours: PwMultiAff = match text.parse() {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{text}: we reject it: {e}"));
                continue;
            }
        };
        let printed = ours.to_string();
        let Some(theirs) = ctx.pw_multi_aff(text) else {
            failures.push(format!("{text}: isl rejects it"));
            continue;
        };
        let Some(back) = ctx.pw_multi_aff(&printed) else {
            failures.push(format!("{text}: isl rejects our printing {printed}"));
            continue;
        };
        if back.is_equal(&theirs) != Some(true) {
            failures.push(format!(
                "{text}: our printing {printed} is {} in isl",
                back.to_text()
            ));
        }
        // our reading of isl's printing
        let isl_text = theirs.to_text();
        match isl_text.parse::<PwMultiAff>() {
            Ok(again) => {
                if !again.is_equal(&ours).unwrap() {
                    failures.push(format!(
                        "{text}: isl prints {isl_text}, which we read as {again}"
                    ));
                }
            }
            Err(e) => failures.push(format!("{text}: we reject isl's printing {isl_text}: {e}")),
        }
        // the same through the single-output types, where they apply (isl's
        // pw_aff has an anonymous range)
        if ours.space().n_out() == 1 && ours.space().range_tuple().name.is_none() {
            let pa: PwAff = text.parse().unwrap();
            let isl_pa = ctx.pw_aff(text).unwrap();
            let back = ctx.pw_aff(&pa.to_string()).unwrap();
            if back.is_equal(&isl_pa) != Some(true) {
                failures.push(format!("{text}: as a pw_aff, {pa} differs in isl"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn printing_matches_isl_text() {
    let ctx = Ctx::new();
    for text in SAME_PRINT {
        let isl = ctx.pw_multi_aff(text).unwrap().to_text();
        assert_eq!(isl, *text, "isl's own printing");
        let ours: PwMultiAff = text.parse().unwrap();
        assert_eq!(ours.to_string(), *text);
    }
}

/// A small deterministic generator (a linear congruential one) for the
/// random texts below.
struct Lcg(u64);

impl Lcg {
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + ((self.0 >> 33) % ((hi - lo + 1) as u64)) as i64
    }
}

/// A random expression over `N, x, y`.
fn expr(r: &mut Lcg, x: &str, y: &str) -> String {
    format!(
        "({} + {}N + {}{x} + {}{y} + {}*floor(({}{x} + {}{y} + {})/{}))/{}",
        r.int(-3, 3),
        r.int(-2, 2),
        r.int(-3, 3),
        r.int(-3, 3),
        r.int(0, 2),
        r.int(-2, 2),
        r.int(-2, 2),
        r.int(-2, 2),
        r.int(2, 3),
        r.int(1, 2)
    )
    .replace("+ -", "- ")
}

/// A random condition and its negation.
fn cond(r: &mut Lcg, x: &str, y: &str) -> (String, String) {
    let lhs = format!(
        "{}{x} + {}{y} + {}N + {}",
        r.int(-2, 2),
        r.int(-2, 2),
        r.int(-1, 1),
        r.int(-3, 3)
    )
    .replace("+ -", "- ");
    (format!("{lhs} >= 0"), format!("{lhs} < 0"))
}

/// A random pw_aff over `[N] -> { [x, y] }` with one or two pieces.
fn pw_aff_text(r: &mut Lcg, x: &str, y: &str) -> String {
    let (a, b) = (expr(r, x, y), expr(r, x, y));
    let (c, nc) = cond(r, x, y);
    match r.int(0, 2) {
        0 => format!("[N] -> {{ [{x}, {y}] -> [({a})] }}"),
        1 => format!("[N] -> {{ [{x}, {y}] -> [({a})] : {c} }}"),
        _ => format!("[N] -> {{ [{x}, {y}] -> [({a})] : {c}; [{x}, {y}] -> [({b})] : {nc} }}"),
    }
}

/// Our result printed and read by isl must equal isl's result.
fn same(
    ctx: &Ctx,
    what: &str,
    ours: &PwAff,
    theirs: Option<presburger_fuzz::isl::PwAff>,
) -> Option<String> {
    let theirs = theirs?;
    let printed = ours.to_string();
    let Some(back) = ctx.pw_aff(&printed) else {
        return Some(format!("{what}: isl rejects our {printed}"));
    };
    (back.is_equal(&theirs) != Some(true))
        .then(|| format!("{what}: ours {printed}, isl's {}", theirs.to_text()))
}

#[test]
fn operations_agree_with_isl() {
    use presburger_fuzz::isl::PwAffOp;
    let ctx = Ctx::new();
    let mut r = Lcg(7);
    let mut failures = Vec::new();
    for _ in 0..150 {
        let (ta, tb) = (pw_aff_text(&mut r, "i", "j"), pw_aff_text(&mut r, "i", "j"));
        let (a, b): (PwAff, PwAff) = (ta.parse().unwrap(), tb.parse().unwrap());
        let (ia, ib) = (ctx.pw_aff(&ta).unwrap(), ctx.pw_aff(&tb).unwrap());
        let what = |op: &str| format!("{op} of {ta} and {tb}");
        let ops: [(PwAffOp, PwAff); 5] = [
            (PwAffOp::Add, a.add(&b).unwrap()),
            (PwAffOp::Sub, a.sub(&b).unwrap()),
            (PwAffOp::Min, a.min(&b).unwrap()),
            (PwAffOp::Max, a.max(&b).unwrap()),
            (PwAffOp::UnionAdd, a.union_add(&b).unwrap()),
        ];
        for (op, ours) in ops {
            failures.extend(same(
                &ctx,
                &what(&format!("{op:?}")),
                &ours,
                ia.binary(op, &ib),
            ));
        }
        failures.extend(same(&ctx, &what("neg"), &a.neg(), ia.unary("neg")));
        failures.extend(same(&ctx, &what("floor"), &a.floor(), ia.unary("floor")));
        failures.extend(same(
            &ctx,
            &what("coalesce"),
            &a.coalesce().unwrap(),
            ia.unary("coalesce"),
        ));
        // pullback by an integral function of [x, y]
        let (g1, g2) = (expr(&mut r, "x", "y"), expr(&mut r, "x", "y"));
        let (c, nc) = cond(&mut r, "x", "y");
        let tg = format!(
            "[N] -> {{ [x, y] -> [(floor({g1})), (y)] : {c}; [x, y] -> [(x), (floor({g2}))] : {nc} }}"
        );
        let g: PwMultiAff = tg.parse().unwrap();
        let ig = ctx.pw_multi_aff(&tg).unwrap();
        failures.extend(same(
            &ctx,
            &format!("pullback of {ta} by {tg}"),
            &a.pullback(&g).unwrap(),
            ia.pullback(&ig),
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Maps whose outputs an equality or a division fixes.
const FUNCTION_MAPS: &[&str] = &[
    "{ [i] -> [o] : 3o = i + 2 }",
    "{ [i, j] -> [a, b] : a = i + j and 2b = a }",
    "{ [i] -> [o] : 2o <= i <= 2o + 1 }",
    "[N] -> { [i] -> [o] : o = i + 1 and i < N or o = 0 and i >= N }",
    "{ [i] -> [o] : exists e : o = e and i = 3e + 1 }",
    "{ [i] -> [o] : o = i and i > 0 or o = i and i < 5 }",
    "{ [i, j] -> [o] : 10o <= 7i + j <= 10o + 1 and j >= 0 }",
    "{ [i] -> [o1, o2] : o1 = floor(i/2) and o2 = o1 + floor(i/3) }",
    "[N] -> { S[i, j] -> A[a] : a = floor((i + N)/4) and 0 <= i, j < N }",
];

#[test]
fn from_map_agrees_with_isl() {
    let ctx = Ctx::new();
    let mut failures = Vec::new();
    for text in FUNCTION_MAPS {
        let m: presburger::Map = text.parse().unwrap();
        let ours = match PwMultiAff::from_map(&m) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{text}: {e}"));
                continue;
            }
        };
        let theirs = ctx.pw_multi_aff_from_map(text).unwrap();
        let back = ctx.pw_multi_aff(&ours.to_string()).unwrap();
        if back.is_equal(&theirs) != Some(true) {
            failures.push(format!("{text}: ours {ours}, isl's {}", theirs.to_text()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
