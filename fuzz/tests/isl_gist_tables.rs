//! isl's own gist tests, run against our gist; isl's simplification of a few
//! sets with existentials, against our `simplify_full`; and a random
//! differential of gist against isl's.
//!
//! The strings come from isl's test file `isl_test.c`: the table `gist_tests`
//! (set, context, isl's expected gist), the basic set and the map `test_gist`
//! checks by hand, and the table `plain_gist_tests` (maps; isl tests
//! `isl_map_plain_gist_basic_map` on it, we run the full gist, whose meaning is
//! the same). `isl_test.c` has no table for simplification; the sets of
//! [`SIMPLIFY_TESTS`] are those of issue 14 and of `test_affine_hull` in
//! `isl_test.c`, whose existentials isl removes or reduces.
//!
//! Checked for every gist entry (`S` in context `C`, our gist `G`):
//! - exactly, by our own algebra: `G ∩ C = S ∩ C`, and no disjunct of `G`
//!   lies outside `C` (unless `C` is empty, when isl's gist is the universe);
//! - by isl: our `G` read back by isl, intersected with `C`, equals isl's gist
//!   intersected with `C` (and the table's expected gist intersected with `C`).
//!
//! Printed (not failed): the entries where our gist has more disjuncts, more
//! constraints or more locals than isl's. For simplification: our result equals
//! the input (ours and isl's equality), and where we keep more locals or
//! disjuncts than isl is printed.

use presburger::{Map, Set};
use presburger_fuzz::isl::Ctx;
use presburger_fuzz::{Rng, Shape, random_set};

/// `gist_tests` of `isl_test.c` (set, context, expected gist), then the basic
/// set `test_gist` checks to lose all its divisions (no expected text there).
const GIST_TESTS: &[(&str, &str, Option<&str>)] = &[
    (
        "{ [a, b, c] : a <= 15 and a >= 1 }",
        "{ [a, b, c] : exists (e0 = floor((-1 + a)/16): a >= 1 and \
         c <= 30 and 32e0 >= -62 + 2a + 2b - c and b >= 0) }",
        Some("{ [a, b, c] : a <= 15 }"),
    ),
    ("{ : }", "{ : 1 = 0 }", Some("{ : }")),
    ("{ : 1 = 0 }", "{ : 1 = 0 }", Some("{ : }")),
    (
        "[M] -> { [x] : exists (e0 = floor((-2 + x)/3): 3e0 = -2 + x) }",
        "[M] -> { [3M] }",
        Some("[M] -> { [x] : 1 = 0 }"),
    ),
    (
        "{ [m, n, a, b] : a <= 2147 + n }",
        "{ [m, n, a, b] : (m >= 1 and n >= 1 and a <= 2148 - m and \
         b <= 2148 - n and b >= 0 and b >= 2149 - n - a) or \
         (n >= 1 and a >= 0 and b <= 2148 - n - a and \
         b >= 0) }",
        Some("{ [m, n, ku, kl] }"),
    ),
    (
        "{ [a, a, b] : a >= 10 }",
        "{ [a, b, c] : c >= a and c <= b and c >= 2 }",
        Some("{ [a, a, b] : a >= 10 }"),
    ),
    (
        "{ [i, j] : i >= 0 and i + j >= 0 }",
        "{ [i, j] : i <= 0 }",
        Some("{ [0, j] : j >= 0 }"),
    ),
    (
        "[t1] -> { [i4, i6] : exists (e0 = floor((1530 - 4t1 - 5i4)/20): \
         20e0 <= 1530 - 4t1 - 5i4 and 20e0 >= 1511 - 4t1 - 5i4 and \
         5e0 <= 381 - t1 and i4 <= 1) }",
        "[t1] -> { [i4, i6] : exists (e0 = floor((-t1 + i6)/5): \
         5e0 = -t1 + i6 and i6 <= 6 and i6 >= 3) }",
        Some(
            "[t1] -> { [i4, i6] : exists (e0 = floor((1530 - 4t1 - 5i4)/20): \
             i4 <= 1 and 5e0 <= 381 - t1 and 20e0 <= 1530 - 4t1 - 5i4 and \
             20e0 >= 1511 - 4t1 - 5i4) }",
        ),
    ),
    (
        "[t1, t2] -> { [i4, i5, i6] : exists (e0 = floor((1 + i4)/2), \
         e1 = floor((1530 - 4t1 - 5i4)/20), \
         e2 = floor((-4t1 - 5i4 + 10*floor((1 + i4)/2))/20), \
         e3 = floor((-1 + i4)/2): t2 = 0 and 2e3 = -1 + i4 and \
         20e2 >= -19 - 4t1 - 5i4 + 10e0 and 5e2 <= 1 - t1 and \
         2e0 <= 1 + i4 and 2e0 >= i4 and \
         20e1 <= 1530 - 4t1 - 5i4 and \
         20e1 >= 1511 - 4t1 - 5i4 and i4 <= 1 and \
         5e1 <= 381 - t1 and 20e2 <= -4t1 - 5i4 + 10e0) }",
        "[t1, t2] -> { [i4, i5, i6] : exists (e0 = floor((-17 + i4)/2), \
         e1 = floor((-t1 + i6)/5): 5e1 = -t1 + i6 and \
         2e0 <= -17 + i4 and 2e0 >= -18 + i4 and \
         10e0 <= -91 + 5i4 + 4i6 and \
         10e0 >= -105 + 5i4 + 4i6) }",
        Some(
            "[t1, t2] -> { [i4, i5, i6] : exists (e0 = floor((381 - t1)/5), \
             e1 = floor((-1 + i4)/2): t2 = 0 and 2e1 = -1 + i4 and \
             i4 <= 1 and 5e0 <= 381 - t1 and 20e0 >= 1511 - 4t1 - 5i4) }",
        ),
    ),
    (
        "{ [0, 0, q, p] : -5 <= q <= 5 and p >= 0 }",
        "{ [a, b, q, p] : b >= 1 + a }",
        Some("{ [a, b, q, p] : false }"),
    ),
    (
        "[n] -> { [x] : x = n && x mod 32 = 0 }",
        "[n] -> { [x] : x mod 32 = 0 }",
        Some("[n] -> { [x = n] }"),
    ),
    (
        "{ [x] : x mod 6 = 0 }",
        "{ [x] : x mod 3 = 0 }",
        Some("{ [x] : x mod 2 = 0 }"),
    ),
    (
        "{ [x] : x mod 3200 = 0 }",
        "{ [x] : x mod 10000 = 0 }",
        Some("{ [x] : x mod 128 = 0 }"),
    ),
    (
        "{ [x] : x mod 3200 = 0 }",
        "{ [x] : x mod 10 = 0 }",
        Some("{ [x] : x mod 3200 = 0 }"),
    ),
    (
        "{ [a, b, c] : a mod 2 = 0 and a = c }",
        "{ [a, b, c] : b mod 2 = 0 and b = c }",
        Some("{ [a, b, c = a] }"),
    ),
    (
        "{ [a, b, c] : a mod 6 = 0 and a = c }",
        "{ [a, b, c] : b mod 2 = 0 and b = c }",
        Some("{ [a, b, c = a] : a mod 3 = 0 }"),
    ),
    (
        "{ [x] : 0 <= x <= 4 or 6 <= x <= 9 }",
        "{ [x] : 1 <= x <= 3 or 7 <= x <= 8 }",
        Some("{ [x] }"),
    ),
    (
        "{ [x,y] : x < 0 and 0 <= y <= 4 or x >= -2 and -x <= y <= 10 + x }",
        "{ [x,y] : 1 <= y <= 3 }",
        Some("{ [x,y] }"),
    ),
    // test_gist: the gist must have no division left (checked below)
    (
        "[p0, p2, p3, p5, p6, p10] -> { [] : \
         exists (e0 = [(15 + p0 + 15p6 + 15p10)/16], e1 = [(p5)/8], \
         e2 = [(p6)/128], e3 = [(8p2 - p5)/128], \
         e4 = [(128p3 - p6)/4096]: 8e1 = p5 and 128e2 = p6 and \
         128e3 = 8p2 - p5 and 4096e4 = 128p3 - p6 and p2 >= 0 and \
         16e0 >= 16 + 16p6 + 15p10 and  p2 <= 15 and p3 >= 0 and \
         p3 <= 31 and  p6 >= 128p3 and p5 >= 8p2 and p10 >= 0 and \
         16e0 <= 15 + p0 + 15p6 + 15p10 and 16e0 >= p0 + 15p6 + 15p10 and \
         p10 <= 15 and p10 <= -1 + p0 - p6) }",
        "[p0, p2, p3, p5, p6, p10] -> { [] : exists (e0 = [(p5)/8], \
         e1 = [(p6)/128], e2 = [(8p2 - p5)/128], \
         e3 = [(128p3 - p6)/4096]: 8e0 = p5 and 128e1 = p6 and \
         128e2 = 8p2 - p5 and 4096e3 = 128p3 - p6 and p5 >= -7 and \
         p2 >= 0 and 8p2 <= -1 + p0 and p2 <= 15 and p3 >= 0 and \
         p3 <= 31 and 128p3 <= -1 + p0 and p6 >= -127 and \
         p5 <= -1 + p0 and p6 <= -1 + p0 and p6 >= 128p3 and \
         p0 >= 1 and p5 >= 8p2 and p10 >= 0 and p10 <= 15 ) }",
        None,
    ),
];

/// `plain_gist_tests` of `isl_test.c` (map, context, expected gist), then the
/// map `test_gist` checks to become one disjunct with one division.
const MAP_GIST_TESTS: &[(&str, &str, Option<&str>)] = &[
    (
        "{ [i] -> [j] : i >= 1 and j >= 1 or i >= 2 and j <= 10 }",
        "{ [i] -> [j] : i >= 1 }",
        Some("{ [i] -> [j] : j >= 1 or i >= 2 and j <= 10 }"),
    ),
    (
        "{ [n] -> [i,j,k] : (i mod 3 = 2 and j mod 4 = 2) or \
         (j mod 4 = 2 and k mod 6 = n) }",
        "{ [n] -> [i,j,k] : j mod 4 = 2 }",
        Some("{ [n] -> [i,j,k] : (i mod 3 = 2) or (k mod 6 = n) }"),
    ),
    (
        "{ [i] -> [j] : i > j and (exists a,b : i <= 2a + 5b <= 2) }",
        "{ [i] -> [j] : i > j }",
        Some("{ [i] -> [j] : exists a,b : i <= 2a + 5b <= 2 }"),
    ),
    (
        "[t1] -> { S_0[] -> A[o0] : (exists (e0 = [(-t1 + o0)/16]: \
         16e0 = -t1 + o0 and o0 >= 0 and o0 <= 15 and t1 >= 0)) or \
         (exists (e0 = [(-1 + t1)/16], \
         e1 = [(-16 + t1 - 16e0)/4294967296]: \
         4294967296e1 = -16 + t1 - o0 - 16e0 and \
         16e0 <= -1 + t1 and 16e0 >= -16 + t1 and o0 >= 0 and \
         o0 <= 4294967295 and t1 <= -1)) }",
        "[t1] -> { S_0[] -> A[o0] : t1 >= 0 and t1 <= 4294967295 }",
        None,
    ),
];

/// Sets whose existentials isl removes or reduces: the example of issue 14,
/// and the sets of `test_affine_hull` in `isl_test.c`.
const SIMPLIFY_TESTS: &[&str] = &[
    "{ [a] : exists e0, e1 : 32e1 = 31 + 31a + 31e0 }",
    "{ [a] : exists e0, e1, e2: 32e1 = 31 + 31a + 31e0 and 32e2 = 31 + 31e0 }",
    "{ [a, b, c, 0] : exists (e0 = [(b)/32], e1 = [(c)/32]: \
     32e0 = b and 32e1 = c); [a, 0, c, 0] : exists (e0 = [(c)/32]: 32e0 = c) }",
    "{ [a, b, c] : exists (e0 = floor((-1 + a)/16): a >= 1 and \
     c <= 30 and 32e0 >= -62 + 2a + 2b - c and b >= 0) }",
    "{ [i] : i >= 10 and exists e : 2e <= i and 3e >= i - 10 }",
    "{ [i, j] : i = 4j and exists e : i = 2e }",
];

/// For each disjunct of our set: its constraints (not counting the defining
/// inequalities of divisions, which isl does not count either) and locals.
fn our_shape(s: &Set) -> Vec<(usize, usize)> {
    s.basics()
        .map(|b| {
            let c = b.conjunction();
            let first = c.n_col() - c.n_local();
            let defining = |r: &Vec<presburger::Int>| {
                c.divs().iter().enumerate().any(|(l, d)| {
                    d.as_ref().is_some_and(|d| {
                        let col = first + l;
                        let lo = (0..r.len())
                            .all(|j| r[j] == if j == col { -&d.den } else { d.num[j].clone() });
                        let hi = (0..r.len()).all(|j| {
                            r[j] == if j == col {
                                d.den.clone()
                            } else if j == 0 {
                                -&d.num[0] + &d.den - 1
                            } else {
                                -&d.num[j]
                            }
                        });
                        lo || hi
                    })
                })
            };
            let ineqs = c.inequalities().iter().filter(|r| !defining(r)).count();
            (c.equalities().len() + ineqs, c.n_local())
        })
        .collect()
}

/// True when `ours` is bigger than `theirs` somewhere: more disjuncts, or more
/// constraints or locals in total.
fn bigger(ours: &[(usize, usize)], theirs: &[(usize, usize)]) -> bool {
    let sum = |v: &[(usize, usize)]| v.iter().fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
    let (o, t) = (sum(ours), sum(theirs));
    ours.len() > theirs.len() || o.0 > t.0 || o.1 > t.1
}

/// Outcome of one gist comparison: a failure (meaning differs, or a piece
/// outside the context), or whether ours is bigger than isl's (with the texts).
/// With `no_division`, our gist must have no local left (`test_gist`'s check).
fn check_set_gist(
    ctx: &Ctx,
    s: &str,
    c: &str,
    expected: Option<&str>,
    no_division: bool,
) -> Result<Option<String>, String> {
    let ours_s: Set = s.parse().map_err(|e| format!("we reject {s}: {e}"))?;
    let ours_c: Set = c.parse().map_err(|e| format!("we reject {c}: {e}"))?;
    let g = ours_s
        .gist(&ours_c)
        .map_err(|e| format!("gist of {s} in {c}: {e}"))?;
    // exact, by our algebra
    let gc = g.intersect(&ours_c).map_err(|e| e.to_string())?;
    let sc = ours_s.intersect(&ours_c).map_err(|e| e.to_string())?;
    if gc.is_equal(&sc) != Ok(true) {
        return Err(format!("{s} in {c}: our gist {g} ∩ C differs from S ∩ C"));
    }
    if ours_c.is_empty() == Ok(false) {
        for b in g.basics() {
            if Set::from(b.clone()).is_disjoint(&ours_c) != Ok(false) {
                return Err(format!(
                    "{s} in {c}: our disjunct {b} is outside the context"
                ));
            }
        }
    }
    // by isl
    let is = ctx.read_set(s).ok_or(format!("isl rejects {s}"))?;
    let ic = ctx.read_set(c).ok_or(format!("isl rejects {c}"))?;
    let ig = is.gist(&ic).ok_or(format!("isl's gist of {s} fails"))?;
    let printed = g.to_string();
    // we print a set of no dimension as a parameter set; isl reads that as
    // another space than the input's `{ [] : ... }`
    let printed = if s.contains("{ [] :") && !printed.contains("[]") {
        printed
            .replacen("{ :", "{ [] :", 1)
            .replacen("{  }", "{ [] }", 1)
    } else {
        printed
    };
    let back = ctx
        .read_set(&printed)
        .ok_or(format!("isl rejects our {printed}"))?;
    let ours_in = back.intersect(&ic).ok_or(format!(
        "{s} in {c}: isl fails to intersect our {printed} with the context"
    ))?;
    let theirs_in = ig.intersect(&ic).ok_or(format!(
        "{s} in {c}: isl fails to intersect with the context"
    ))?;
    if ours_in.is_equal(&theirs_in) != Some(true) {
        return Err(format!(
            "{s} in {c}: ours {printed} and isl's {} differ in the context",
            ig.to_text()
        ));
    }
    if let Some(e) = expected {
        let ie = ctx.read_set(e).ok_or(format!("isl rejects {e}"))?;
        let want = ie.intersect(&ic).ok_or(format!(
            "{s} in {c}: isl fails to intersect with the context"
        ))?;
        if ours_in.is_equal(&want) != Some(true) {
            return Err(format!(
                "{s} in {c}: ours {printed} differs from the table's {e}"
            ));
        }
    }
    let theirs = ig.shape().ok_or("isl shape")?;
    let ours = our_shape(&g);
    if no_division && ours.iter().any(|x| x.1 > 0) {
        return Err(format!("{s} in {c}: our gist {printed} keeps a division"));
    }
    Ok(bigger(&ours, &theirs).then(|| {
        format!(
            "ours {printed} {ours:?} vs isl's {} {theirs:?} (disjuncts' (constraints, locals))",
            ig.to_text()
        )
    }))
}

/// As [`check_set_gist`], for maps (disjuncts only are compared).
fn check_map_gist(
    ctx: &Ctx,
    s: &str,
    c: &str,
    expected: Option<&str>,
) -> Result<Option<String>, String> {
    let ours_s: Map = s.parse().map_err(|e| format!("we reject {s}: {e}"))?;
    let ours_c: Map = c.parse().map_err(|e| format!("we reject {c}: {e}"))?;
    let g = ours_s
        .gist(&ours_c)
        .map_err(|e| format!("gist of {s} in {c}: {e}"))?;
    let gc = g.intersect(&ours_c).map_err(|e| e.to_string())?;
    let sc = ours_s.intersect(&ours_c).map_err(|e| e.to_string())?;
    if gc.is_equal(&sc) != Ok(true) {
        return Err(format!("{s} in {c}: our gist {g} ∩ C differs from S ∩ C"));
    }
    if ours_c.is_empty() == Ok(false) {
        for b in g.basics() {
            if Map::from(b.clone()).is_disjoint(&ours_c) != Ok(false) {
                return Err(format!(
                    "{s} in {c}: our disjunct {b} is outside the context"
                ));
            }
        }
    }
    let is = ctx.read_map(s).ok_or(format!("isl rejects {s}"))?;
    let ic = ctx.read_map(c).ok_or(format!("isl rejects {c}"))?;
    let ig = is.gist(&ic).ok_or(format!("isl's gist of {s} fails"))?;
    let printed = g.to_string();
    let back = ctx
        .read_map(&printed)
        .ok_or(format!("isl rejects our {printed}"))?;
    let ours_in = back.intersect(&ic).ok_or(format!(
        "{s} in {c}: isl fails to intersect with the context"
    ))?;
    let theirs_in = ig.intersect(&ic).ok_or(format!(
        "{s} in {c}: isl fails to intersect with the context"
    ))?;
    if ours_in.is_equal(&theirs_in) != Some(true) {
        return Err(format!(
            "{s} in {c}: ours {printed} and isl's {} differ in the context",
            ig.to_text()
        ));
    }
    if let Some(e) = expected {
        let ie = ctx.read_map(e).ok_or(format!("isl rejects {e}"))?;
        let want = ie.intersect(&ic).ok_or(format!(
            "{s} in {c}: isl fails to intersect with the context"
        ))?;
        if ours_in.is_equal(&want) != Some(true) {
            return Err(format!(
                "{s} in {c}: ours {printed} differs from the table's {e}"
            ));
        }
    }
    if expected.is_none() {
        // test_gist: one disjunct with one division
        let shape: Vec<usize> = g.basics().map(|b| b.conjunction().n_local()).collect();
        if shape != [1] {
            eprintln!("map gist: {s} in {c}: ours {printed} is not one disjunct with one division");
        }
    }
    Ok((g.n_basic() > ig.n_basic())
        .then(|| format!("ours {printed} vs isl's {} (more disjuncts)", ig.to_text())))
}

/// Fails with every failure listed, not only the first.
fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn gist_tests() {
    let ctx = Ctx::new();
    let mut failures = Vec::new();
    let (mut agree, mut more) = (0, 0);
    for (s, c, e) in GIST_TESTS {
        match check_set_gist(&ctx, s, c, *e, e.is_none()) {
            Ok(None) => agree += 1,
            Ok(Some(m)) => {
                more += 1;
                eprintln!("gist_tests: {s} in {c}: {m}");
            }
            Err(m) => failures.push(m),
        }
    }
    for (s, c, e) in MAP_GIST_TESTS {
        match check_map_gist(&ctx, s, c, *e) {
            Ok(None) => agree += 1,
            Ok(Some(m)) => {
                more += 1;
                eprintln!("map gist tests: {s} in {c}: {m}");
            }
            Err(m) => failures.push(m),
        }
    }
    eprintln!(
        "isl gist tables: {} entries, {} failures; of the others {agree} as small as isl's, {more} bigger",
        GIST_TESTS.len() + MAP_GIST_TESTS.len(),
        failures.len()
    );
    report(failures);
}

#[test]
fn simplify_tests() {
    let ctx = Ctx::new();
    let mut failures = Vec::new();
    for s in SIMPLIFY_TESTS {
        let ours: Set = s.parse().unwrap();
        let f = match ours.simplify_full() {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{s}: {e}"));
                continue;
            }
        };
        if f.is_equal(&ours) != Ok(true) {
            failures.push(format!("{s}: our simplification {f} differs"));
            continue;
        }
        let printed = f.to_string();
        let (Some(is), Some(back)) = (ctx.read_set(s), ctx.read_set(&printed)) else {
            failures.push(format!("isl rejects {s} or our {printed}"));
            continue;
        };
        if is.is_equal(&back) != Some(true) {
            failures.push(format!("{s}: isl finds our {printed} different"));
            continue;
        }
        let Some(theirs) = is.simplify() else {
            failures.push(format!("isl's simplification of {s} fails"));
            continue;
        };
        let (o, t) = (our_shape(&f), theirs.shape().unwrap_or_default());
        let locals = |v: &[(usize, usize)]| v.iter().map(|x| x.1).sum::<usize>();
        if o.len() > t.len() || locals(&o) > locals(&t) {
            eprintln!(
                "simplify: {s}: ours {printed} {o:?} keeps more than isl's {} {t:?}",
                theirs.to_text()
            );
        } else {
            eprintln!("simplify: {s}: ours {printed}, isl's {}", theirs.to_text());
        }
    }
    report(failures);
}

/// isl's work limit per case (its unit); a case past it is skipped.
const ISL_MAX_OPERATIONS: u64 = 200_000;

#[test]
fn random_gists_agree_with_isl() {
    let cases: u64 = std::env::var("ISL_GIST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let ctx = Ctx::new();
    ctx.set_max_operations(ISL_MAX_OPERATIONS);
    let mut rng = Rng::new(20261126);
    let mut failures = Vec::new();
    let (mut compared, mut skipped, mut bigger_count) = (0, 0, 0);
    for _ in 0..cases {
        let shape = Shape::random(&mut rng);
        let s = random_set(&mut rng, shape);
        let c = random_set(&mut rng, shape);
        ctx.reset_operations();
        match check_set_gist(&ctx, &s, &c, None, false) {
            Ok(b) => {
                compared += 1;
                if let Some(m) = b {
                    bigger_count += 1;
                    if bigger_count <= 5 {
                        eprintln!("random gist bigger than isl's: {s} in {c}: {m}");
                    }
                }
            }
            // our budget running out, or isl's quota: skipped, not a failure
            Err(m) if m.contains("budget") || ctx.quota_hit() => skipped += 1,
            Err(m) => failures.push(m),
        }
    }
    eprintln!(
        "random gists: {compared} compared, {skipped} skipped, {} failures, ours bigger than isl's in {bigger_count}",
        failures.len()
    );
    report(failures);
    assert!(
        compared * 2 > cases as usize,
        "too few comparisons: {compared}"
    );
}
