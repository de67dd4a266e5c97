//! Property tests of the set and map algebra against brute-force enumeration:
//! random unions of 1–3 conjunctions, 1–3 dimensions, 0–1 parameters, with and
//! without locals. Every operation of the boolean algebra, the map operations, the
//! queries, and the simplifications (which must not change the set).

use crate::space::DimKind;
use crate::testing::{Box as PBox, map_points, set_points};
use crate::{Int, Map, Set};
use proptest::prelude::*;
use std::collections::BTreeSet;

type Points = BTreeSet<Vec<i64>>;

/// A random union over `[x0, .., x{d-1}]` (each in -3..=3), optionally with the
/// parameter N, as isl text.
fn arb_union(d: usize, with_param: bool) -> impl Strategy<Value = String> {
    let names: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
    let nv = d + usize::from(with_param);
    let con = (
        prop::collection::vec(-2i64..=2, nv),
        -3i64..=3,
        prop::bool::weighted(0.2),
    );
    let local = prop::option::weighted(
        0.4,
        (
            prop::collection::vec(-1i64..=1, d),
            2i64..=3,
            0i64..=2,
            prop::bool::ANY,
        ),
    );
    let conj = (prop::collection::vec(con, 0..3), local);
    prop::collection::vec(conj, 1..=3).prop_map(move |cs| {
        let mut vars = names.clone();
        if with_param {
            vars.push("N".into());
        }
        let lin = |coefs: &[i64]| {
            let mut t = String::from("0");
            for (c, v) in coefs.iter().zip(&vars) {
                t.push_str(&format!(" + {c}{v}"));
            }
            t
        };
        let ds: Vec<String> = cs
            .iter()
            .map(|(cons, local)| {
                let mut parts: Vec<String> =
                    names.iter().map(|n| format!("-3 <= {n} <= 3")).collect();
                for (coefs, c, eq) in cons {
                    parts.push(format!(
                        "{} {} {c}",
                        lin(coefs),
                        if *eq { "=" } else { ">=" }
                    ));
                }
                let body = parts.join(" and ");
                match local {
                    Some((coefs, m, r, true)) => {
                        format!("(exists e : {} = {m}e + {r} and {body})", lin(coefs))
                    }
                    Some((coefs, m, r, false)) => {
                        format!(
                            "(exists e : {m}e <= {} + {r} <= {m}e + 1 and {body})",
                            lin(coefs)
                        )
                    }
                    None => format!("({body})"),
                }
            })
            .collect();
        let pre = if with_param { "[N] -> " } else { "" };
        format!("{pre}{{ [{}] : {} }}", names.join(", "), ds.join(" or "))
    })
}

/// A random union of 1–4 conjunctions over `[x0, .., x{d-1}]` (each in -3..=3) and
/// the parameter `N`, bounded to `-1 <= N <= 2` so that enumerating those values
/// decides every question exactly; a conjunction may have an existential of three
/// kinds: a stride (`lin = m·e + r`), a window (`m·e <= lin + r <= m·e + 1`), or a
/// local with two lower bounds and an upper bound (which the subtraction must split
/// into divisions, see `explicit_locals`).
fn arb_bounded_union(d: usize) -> impl Strategy<Value = String> {
    let names: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
    let nv = d + 1;
    let con = (
        prop::collection::vec(-2i64..=2, nv),
        -3i64..=3,
        prop::bool::weighted(0.2),
    );
    let local = prop::option::weighted(
        0.5,
        (
            prop::collection::vec(-1i64..=1, nv),
            prop::collection::vec(-1i64..=1, nv),
            2i64..=3,
            0i64..=2,
            0u8..3,
        ),
    );
    let conj = (prop::collection::vec(con, 0..4), local);
    prop::collection::vec(conj, 1..=4).prop_map(move |cs| {
        let mut vars = names.clone();
        vars.push("N".into());
        let lin = |coefs: &[i64]| {
            let mut t = String::from("0");
            for (c, v) in coefs.iter().zip(&vars) {
                t.push_str(&format!(" + {c}{v}"));
            }
            t
        };
        let ds: Vec<String> = cs
            .iter()
            .map(|(cons, local)| {
                let mut parts: Vec<String> =
                    names.iter().map(|n| format!("-3 <= {n} <= 3")).collect();
                parts.push("-1 <= N <= 2".into());
                for (coefs, c, eq) in cons {
                    parts.push(format!(
                        "{} {} {c}",
                        lin(coefs),
                        if *eq { "=" } else { ">=" }
                    ));
                }
                let body = parts.join(" and ");
                match local {
                    Some((l1, _, m, r, 0)) => {
                        format!("(exists e : {} = {m}e + {r} and {body})", lin(l1))
                    }
                    Some((l1, _, m, r, 1)) => format!(
                        "(exists e : {m}e <= {} + {r} <= {m}e + 1 and {body})",
                        lin(l1)
                    ),
                    Some((l1, l2, m, r, _)) => format!(
                        "(exists e : 2e >= {} and {m}e >= {} and e <= {r} and {body})",
                        lin(l1),
                        lin(l2)
                    ),
                    None => format!("({body})"),
                }
            })
            .collect();
        format!("[N] -> {{ [{}] : {} }}", names.join(", "), ds.join(" or "))
    })
}

fn param_values(with_param: bool) -> Vec<Vec<i64>> {
    if with_param {
        (-1..=2).map(|n| vec![n]).collect()
    } else {
        vec![vec![]]
    }
}

/// The enumeration box: dimensions in -4..=4; locals searched in -8..=8, enough
/// for these sets (dimensions are bounded by 3, and a stride local `e` with
/// `lin = m·e + r` has |e| <= 7).
fn bx(pv: &[i64]) -> PBox {
    PBox {
        params: pv.to_vec(),
        lo: -4,
        hi: 4,
        local_range: (-8, 8),
    }
}

fn pts(s: &Set, pv: &[i64]) -> Points {
    set_points(s, &bx(pv))
}

fn mpts(m: &Map, pv: &[i64]) -> Points {
    map_points(m, &bx(pv))
}

/// The set with its parameters fixed to `pv` and projected away.
fn fixed(s: &Set, pv: &[i64]) -> Set {
    let mut f = s.clone();
    for (k, v) in pv.iter().enumerate() {
        f = f.fix(DimKind::Param, k, *v).unwrap();
    }
    f.project_out(DimKind::Param, 0, pv.len()).unwrap()
}

fn ints(p: &[i64]) -> Vec<Int> {
    p.iter().map(|&v| Int::from(v)).collect()
}

fn case() -> impl Strategy<Value = (usize, bool, String, String)> {
    (1usize..=3, prop::bool::ANY)
        .prop_flat_map(|(d, p)| (Just(d), Just(p), arb_union(d, p), arb_union(d, p)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    #[test]
    fn boolean_algebra_and_queries((d, p, a, b) in case()) {
        let (x, y): (Set, Set) = (a.parse().unwrap(), b.parse().unwrap());
        let diff = x.subtract(&y).unwrap();
        let inter = x.intersect(&y).unwrap();
        let uni = x.union(&y).unwrap();
        let comp = x.complement().unwrap();
        let coal = x.coalesce().unwrap();
        let simp = x.simplify_full().unwrap();
        let gist = x.gist(&y).unwrap();
        let (mut sub, mut eq, mut disj, mut emp) = (true, true, true, true);
        for pv in param_values(p) {
            let (px, py) = (pts(&x, &pv), pts(&y, &pv));
            prop_assert_eq!(pts(&diff, &pv), px.difference(&py).cloned().collect::<Points>(), "{} - {}", a, b);
            prop_assert_eq!(pts(&inter, &pv), px.intersection(&py).cloned().collect::<Points>());
            prop_assert_eq!(pts(&uni, &pv), px.union(&py).cloned().collect::<Points>());
            let all = pts(&Set::universe(x.space().clone()).unwrap(), &pv);
            prop_assert_eq!(pts(&comp, &pv), all.difference(&px).cloned().collect::<Points>());
            prop_assert_eq!(pts(&coal, &pv), px.clone(), "coalesce of {}", a);
            prop_assert_eq!(pts(&simp, &pv), px.clone(), "simplify of {}", a);
            let gy: Points = pts(&gist, &pv).intersection(&py).cloned().collect();
            prop_assert_eq!(gy, px.intersection(&py).cloned().collect::<Points>(), "gist of {} in {}", a, b);
            sub &= px.is_subset(&py);
            eq &= px == py;
            disj &= px.is_disjoint(&py);
            emp &= px.is_empty();
            // queries on the set with the parameters fixed
            let f = fixed(&x, &pv);
            prop_assert_eq!(f.lexmin().unwrap(), px.iter().next().map(|q| ints(q)));
            prop_assert_eq!(f.lexmax().unwrap(), px.iter().next_back().map(|q| ints(q)));
            if let Some(s) = f.sample().unwrap() {
                let s: Vec<i64> = s.iter().map(|v| v.to_i64().unwrap()).collect();
                prop_assert!(px.contains(&s));
            } else {
                prop_assert!(px.is_empty());
            }
            prop_assert!(f.is_bounded().unwrap());
            let listed: Points = f.points(10_000).unwrap().iter()
                .map(|q| q.iter().map(|v| v.to_i64().unwrap()).collect()).collect();
            prop_assert_eq!(&listed, &px);
            for k in 0..d {
                let lo = px.iter().map(|q| q[k]).min();
                let hi = px.iter().map(|q| q[k]).max();
                prop_assert_eq!(f.dim_min(k).unwrap().eval(&[]).unwrap().map(|r| r.floor().to_i64().unwrap()), lo);
                prop_assert_eq!(f.dim_max(k).unwrap().eval(&[]).unwrap().map(|r| r.floor().to_i64().unwrap()), hi);
            }
            let bh = pts(&f.box_hull().unwrap(), &[]);
            let want_box: Points = pts(&Set::universe(f.space().clone()).unwrap(), &[])
                .into_iter()
                .filter(|q| (0..d).all(|k| px.iter().any(|r| r[k] <= q[k]) && px.iter().any(|r| r[k] >= q[k])))
                .collect();
            prop_assert_eq!(bh, want_box);
        }
        // over all parameter values, which the enumeration samples: the answers must
        // not contradict what the samples show
        if !sub { prop_assert!(!x.is_subset(&y).unwrap()); }
        if !eq { prop_assert!(!x.is_equal(&y).unwrap()); }
        if !disj { prop_assert!(!x.is_disjoint(&y).unwrap()); }
        if !emp { prop_assert!(!x.is_empty().unwrap()); }
        if !p {
            prop_assert_eq!(x.is_subset(&y).unwrap(), sub);
            prop_assert_eq!(x.is_equal(&y).unwrap(), eq);
            prop_assert_eq!(x.is_disjoint(&y).unwrap(), disj);
            prop_assert_eq!(x.is_empty().unwrap(), emp);
        }
        prop_assert!(coal.is_equal(&x).unwrap());
    }

    #[test]
    fn map_operations((d, p, a, b) in case()) {
        prop_assume!(d >= 2);
        // x0 -> (x1, ..): split the tuple after the first dimension
        let split = |t: &str| -> Map {
            let names: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
            t.replacen(&format!("[{}]", names.join(", ")), &format!("[x0] -> [{}]", names[1..].join(", ")), 1)
                .parse()
                .unwrap()
        };
        let (m, n) = (split(&a), split(&b));
        let s: Set = b.parse::<Set>().unwrap().project_out(DimKind::Out, 1, d - 1).unwrap();
        for pv in param_values(p) {
            let (pm, pn, ps) = (mpts(&m, &pv), mpts(&n, &pv), pts(&s, &pv));
            let dom: Points = pm.iter().map(|q| vec![q[0]]).collect();
            let ran: Points = pm.iter().map(|q| q[1..].to_vec()).collect();
            prop_assert_eq!(pts(&m.domain(), &pv), dom.clone());
            prop_assert_eq!(pts(&m.range(), &pv), ran);
            let rev: Points = pm.iter().map(|q| { let mut r = q[1..].to_vec(); r.push(q[0]); r }).collect();
            prop_assert_eq!(mpts(&m.reverse(), &pv), rev);
            let id: Points = pm.iter().filter(|q| ps.contains(&vec![q[0]])).cloned().collect();
            prop_assert_eq!(mpts(&m.intersect_domain(&s).unwrap(), &pv), id);
            let sd: Points = pm.iter().filter(|q| !ps.contains(&vec![q[0]])).cloned().collect();
            prop_assert_eq!(mpts(&m.subtract_domain(&s).unwrap(), &pv), sd);
            let md: Points = pm.difference(&pn).cloned().collect();
            prop_assert_eq!(mpts(&m.subtract(&n).unwrap(), &pv), md);
            // composition with the reverse of n: x0 -> y0 when m(x0) = n(y0)
            let comp: Points = pm.iter().flat_map(|q| pn.iter().filter(move |r| r[1..] == q[1..]).map(move |r| vec![q[0], r[0]])).collect();
            prop_assert_eq!(mpts(&m.apply_range(&n.reverse()).unwrap(), &pv), comp);
            let img: Points = pm.iter().filter(|q| ps.contains(&vec![q[0]])).map(|q| q[1..].to_vec()).collect();
            prop_assert_eq!(pts(&m.apply_to(&s).unwrap(), &pv), img);
            let wrapped = m.wrap();
            prop_assert_eq!(pts(&wrapped, &pv), pm.clone());
            prop_assert_eq!(mpts(&wrapped.unwrap().unwrap(), &pv), pm.clone());
            prop_assert_eq!(mpts(&m.flatten(), &pv), pm.clone());
            let fx: Points = pm.iter().filter(|q| q[0] == 1).cloned().collect();
            prop_assert_eq!(mpts(&m.fix(DimKind::In, 0, 1).unwrap(), &pv), fx);
            if d == 2 {
                let deltas: Points = pm.iter().map(|q| vec![q[1] - q[0]]).filter(|v| (-4..=4).contains(&v[0])).collect();
                prop_assert_eq!(pts(&m.deltas().unwrap(), &pv), deltas);
                let lt = m.intersect(&Map::lex_lt(&Set::universe(m.domain().space().clone()).unwrap().space().clone()).unwrap()).unwrap();
                let want: Points = pm.iter().filter(|q| q[0] < q[1]).cloned().collect();
                prop_assert_eq!(mpts(&lt, &pv), want);
                let pre: Points = pm.iter().filter(|q| ps.contains(&vec![q[1]])).map(|q| vec![q[0]]).collect::<Points>();
                prop_assert_eq!(pts(&s.preimage(&m).unwrap(), &pv), pre);
            }
            let rp = m.range_product(&n).unwrap();
            let want: Points = pm.iter().flat_map(|q| pn.iter().filter(move |r| r[0] == q[0]).map(move |r| {
                let mut v = q.clone(); v.extend_from_slice(&r[1..]); v
            })).collect();
            prop_assert_eq!(mpts(&rp, &pv), want);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The tableau search (subtract, complement, is_subset, is_equal, is_disjoint)
    /// against enumeration, on unions of 1–4 conjunctions with existentials and a
    /// bounded parameter (so that the answers over all parameter values are
    /// decided by the enumeration), and against each other.
    #[test]
    fn search_matches_enumeration(
        (a, b) in (1usize..=2).prop_flat_map(|d| (arb_bounded_union(d), arb_bounded_union(d)))
    ) {
        let (x, y): (Set, Set) = (a.parse().unwrap(), b.parse().unwrap());
        let diff = x.subtract(&y).unwrap();
        let comp = y.complement().unwrap();
        let (mut sub, mut sup, mut disj) = (true, true, true);
        for pv in param_values(true) {
            let (px, py) = (pts(&x, &pv), pts(&y, &pv));
            prop_assert_eq!(pts(&diff, &pv), px.difference(&py).cloned().collect::<Points>(), "{} - {} = {}", a, b, diff);
            let all = pts(&Set::universe(y.space().clone()).unwrap(), &pv);
            prop_assert_eq!(pts(&comp, &pv), all.difference(&py).cloned().collect::<Points>(), "complement of {}", b);
            sub &= px.is_subset(&py);
            sup &= py.is_subset(&px);
            disj &= px.is_disjoint(&py);
        }
        prop_assert_eq!(x.is_subset(&y).unwrap(), sub, "{} in {}", a, b);
        prop_assert_eq!(y.is_subset(&x).unwrap(), sup, "{} in {}", b, a);
        prop_assert_eq!(x.is_equal(&y).unwrap(), sub && sup, "{} = {}", a, b);
        prop_assert_eq!(x.is_disjoint(&y).unwrap(), disj, "{} disjoint {}", a, b);
        prop_assert_eq!(diff.is_empty().unwrap(), sub);
        prop_assert!(diff.is_subset(&x).unwrap() && diff.is_disjoint(&y).unwrap());
        prop_assert!(comp.is_disjoint(&y).unwrap());
        prop_assert!(x.is_equal(&diff.union(&x.intersect(&y).unwrap()).unwrap()).unwrap());
    }
}

/// The columns of the tied-locals sets: two dimensions, `N`, two locals.
const TIED_VARS: [&str; 5] = ["x0", "x1", "N", "e0", "e1"];

/// `0 + k0·x0 + ... + k4·e1 + c` over [`TIED_VARS`], as isl text.
fn tied_term(coefs: &[i64], c: i64) -> String {
    let mut t = String::from("0");
    for (k, v) in coefs.iter().zip(TIED_VARS) {
        t.push_str(&format!(" + {k}{v}"));
    }
    format!("{t} + {c}")
}

/// The bounds of every column of the tied-locals sets.
fn tied_bounds() -> Vec<String> {
    [
        "-3 <= x0 <= 3",
        "-3 <= x1 <= 3",
        "-1 <= N <= 2",
        "-4 <= e0 <= 4",
        "-4 <= e1 <= 4",
    ]
    .map(String::from)
    .to_vec()
}

/// A random union of 1–2 conjunctions over `[x0, x1]` (each in -3..=3) and
/// the parameter `N` (in -1..=2), each with two existentials `e0`, `e1` in
/// -4..=4 bound together by 1–3 random rows over all columns: the parametric
/// optimum must see through locals that no single division describes.
fn arb_tied_locals_union() -> impl Strategy<Value = String> {
    let row = (prop::collection::vec(-3i64..=3, 5), -4i64..=4);
    let conj = prop::collection::vec(row, 1..=3);
    prop::collection::vec(conj, 1..=2).prop_map(|cs| {
        let ds: Vec<String> = cs
            .iter()
            .map(|rows| {
                let mut parts = tied_bounds();
                for (coefs, c) in rows {
                    parts.push(format!("{} >= 0", tied_term(coefs, *c)));
                }
                format!("(exists e0, e1 : {})", parts.join(" and "))
            })
            .collect();
        format!("[N] -> {{ [x0, x1] : {} }}", ds.join(" or "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The parametric lexicographic minimum and maximum against enumeration,
    /// parameter value by parameter value, on unions whose existentials are
    /// bound together (the optimum over the locals as trailing variables, or
    /// over the cases of their rewriting as divisions).
    #[test]
    fn parametric_optima_over_tied_locals(a in arb_tied_locals_union()) {
        let x: Set = a.parse().unwrap();
        let (lo, hi) = (x.lexmin_set().unwrap(), x.lexmax_set().unwrap());
        for pv in param_values(true) {
            let px = pts(&x, &pv);
            let first: Points = px.iter().next().cloned().into_iter().collect();
            let last: Points = px.iter().next_back().cloned().into_iter().collect();
            prop_assert_eq!(pts(&lo, &pv), first, "lexmin of {} at N = {}: {}", a, pv[0], lo);
            prop_assert_eq!(pts(&hi, &pv), last, "lexmax of {} at N = {}: {}", a, pv[0], hi);
        }
    }
}

/// A conjunction over `[x0, x1]` and `N` with existentials `e0`, `e1` in
/// -4..=4, each in a window `0 <= lin - k·e <= k - 1 + slack` over the other
/// columns (the other local included, so that the parser finds no division;
/// with slack 0 both windows together usually leave one witness), and 0–1
/// random rows, as isl text; and a perturbed copy: each window's top and the
/// random row's constant moved by -1..=1, and 0–2 more random rows over all
/// columns (an extension of the first, or a peer).
fn arb_extended_pair() -> impl Strategy<Value = (String, String)> {
    let row = || (prop::collection::vec(-3i64..=3, 5), -4i64..=4);
    let window = (
        prop::collection::vec(-2i64..=2, 4),
        -3i64..=3,
        2i64..=3,
        0i64..=1,
        -1i64..=1,
    );
    (
        prop::collection::vec(window, 2),
        prop::collection::vec((row(), -1i64..=1), 0..=1),
        prop::collection::vec(row(), 0..=2),
    )
        .prop_map(|(windows, rows, extra)| {
            let (mut a, mut b) = (tied_bounds(), tied_bounds());
            for (i, (lin, c, k, slack, moved)) in windows.iter().enumerate() {
                // lin over x0, x1, N and the other local; -k on local i
                let mut coefs = lin[..3].to_vec();
                coefs.extend([0, 0]);
                coefs[3 + (1 - i)] = lin[3];
                coefs[3 + i] = -k;
                let t = tied_term(&coefs, *c);
                a.push(format!("0 <= {t} <= {}", k - 1 + slack));
                b.push(format!("0 <= {t} <= {}", k - 1 + (slack + moved).max(0)));
            }
            for ((coefs, c), moved) in &rows {
                a.push(format!("{} >= 0", tied_term(coefs, *c)));
                b.push(format!("{} >= 0", tied_term(coefs, c + moved)));
            }
            for (coefs, c) in &extra {
                b.push(format!("{} >= 0", tied_term(coefs, *c)));
            }
            let set = |rows: &[String]| {
                format!(
                    "[N] -> {{ [x0, x1] : exists e0, e1 : {} }}",
                    rows.join(" and ")
                )
            };
            (set(&a), set(&b))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Subtraction, inclusion and equality against enumeration when the
    /// subtrahend is the minuend with rows on its locals moved or added (a
    /// lifted extension or peer, wholly subtracted in the space of the
    /// locals when the rows common to both leave one witness).
    #[test]
    fn extensions_by_rows_on_locals((a, b) in arb_extended_pair()) {
        let (x, y): (Set, Set) = (a.parse().unwrap(), b.parse().unwrap());
        let diff = x.subtract(&y).unwrap();
        let (mut sub, mut sup) = (true, true);
        for pv in param_values(true) {
            let (px, py) = (pts(&x, &pv), pts(&y, &pv));
            prop_assert_eq!(pts(&diff, &pv), px.difference(&py).cloned().collect::<Points>(), "{} - {} = {}", a, b, diff);
            sub &= px.is_subset(&py);
            sup &= py.is_subset(&px);
        }
        prop_assert_eq!(x.is_subset(&y).unwrap(), sub, "{} in {}", a, b);
        prop_assert_eq!(y.is_subset(&x).unwrap(), sup, "{} in {}", b, a);
        prop_assert_eq!(x.is_equal(&y).unwrap(), sub && sup, "{} = {}", a, b);
    }
}

/// The enumeration box of the rearrangement tests: the sets of `arb_union`
/// lie in -3..=3, so this box holds all their points (locals as in `bx`).
fn small_bx(pv: &[i64]) -> PBox {
    PBox {
        params: pv.to_vec(),
        lo: -3,
        hi: 3,
        local_range: (-8, 8),
    }
}

/// `x{lo}, .., x{hi-1}`.
fn xs(r: std::ops::Range<usize>) -> String {
    r.map(|k| format!("x{k}")).collect::<Vec<_>>().join(", ")
}

/// The text of `arb_union(d, _)` with its tuple `[x0, .., x{d-1}]` replaced by
/// `tuple` (which names the same variables), parsed as a map.
fn retupled(text: &str, d: usize, tuple: &str) -> Map {
    text.replacen(&format!("[{}]", xs(0..d)), tuple, 1)
        .parse()
        .unwrap()
}

/// Every point of `pts` with `n` values of the box -3..=3 inserted at `pos`.
fn with_inserted(pts: &Points, pos: usize, n: usize) -> Points {
    let mut out = pts.clone();
    for _ in 0..n {
        out = out
            .iter()
            .flat_map(|q| {
                (-3..=3).map(move |v| {
                    let mut r = q.clone();
                    r.insert(pos, v);
                    r
                })
            })
            .collect();
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// `domain_map`, `range_map`, `zip` and `insert_dims` against enumeration:
    /// the points of each result are those of the input rearranged (or, for
    /// `insert_dims`, with every value of the new dimensions). The input is a
    /// random union over 1–4 dimensions read with its tuple cut into a map
    /// (`[x0] -> [x1, x2]`, `[[x0] -> []] -> [[x1] -> [x2]]`).
    #[test]
    fn rearrangements_match_enumeration(
        (d, p, a) in (1usize..=4, prop::bool::ANY)
            .prop_flat_map(|(d, p)| (Just(d), Just(p), arb_union(d, p))),
        cuts in prop::collection::vec(0usize..=4, 3),
        n in 0usize..=2,
    ) {
        let mut c: Vec<usize> = cuts.iter().map(|&k| k.min(d)).collect();
        let s = c[0];
        let m = retupled(&a, d, &format!("[{}] -> [{}]", xs(0..s), xs(s..d)));
        c.sort_unstable();
        let z = retupled(&a, d, &format!(
            "[[{}] -> [{}]] -> [[{}] -> [{}]]",
            xs(0..c[0]), xs(c[0]..c[1]), xs(c[1]..c[2]), xs(c[2]..d)
        ));
        let set: Set = a.parse().unwrap();
        let (dm, rm, zm) = (m.domain_map(), m.range_map(), z.zip().unwrap());
        let pos = cuts[1].min(d);
        let ins = set.insert_dims(DimKind::SET, pos, n).unwrap();
        let (in_pos, out_pos) = (cuts[2].min(s), cuts[2].min(d - s));
        let m_in = m.insert_dims(DimKind::In, in_pos, n).unwrap();
        let m_out = m.insert_dims(DimKind::Out, out_pos, n).unwrap();
        for pv in param_values(p) {
            let b = small_bx(&pv);
            let pa = set_points(&set, &b);
            prop_assert_eq!(map_points(&m, &b), pa.clone());
            // the results have at most 5 dimensions where enumerated
            if d + s <= 5 {
                let want: Points = pa.iter().map(|q| [&q[..], &q[..s]].concat()).collect();
                prop_assert_eq!(map_points(&dm, &b), want, "domain_map of {}", m);
            }
            if 2 * d - s <= 5 {
                let want: Points = pa.iter().map(|q| [&q[..], &q[s..]].concat()).collect();
                prop_assert_eq!(map_points(&rm, &b), want, "range_map of {}", m);
            }
            let want: Points = pa
                .iter()
                .map(|q| [&q[..c[0]], &q[c[1]..c[2]], &q[c[0]..c[1]], &q[c[2]..]].concat())
                .collect();
            prop_assert_eq!(map_points(&zm, &b), want, "zip of {}", z);
            if d + n <= 5 {
                prop_assert_eq!(set_points(&ins, &b), with_inserted(&pa, pos, n), "insert_dims of {}", a);
                prop_assert_eq!(map_points(&m_in, &b), with_inserted(&pa, in_pos, n));
                prop_assert_eq!(map_points(&m_out, &b), with_inserted(&pa, s + out_pos, n));
            }
        }
        // the inverses: zip twice, and projecting the new dimensions out
        prop_assert!(zm.zip().unwrap().is_equal(&z).unwrap());
        prop_assert!(dm.domain().unwrap().unwrap().is_equal(&m).unwrap());
        let back = ins.project_out(DimKind::SET, pos, n).unwrap();
        prop_assert!(back.is_equal(&set.insert_dims(DimKind::SET, 0, 0).unwrap()).unwrap());
    }
}
