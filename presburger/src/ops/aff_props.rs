//! Property tests of the quasi-affine function operations against pointwise
//! evaluation on a small box: random piecewise expressions over `[N] -> [i, j]`
//! (rational, with a division, one or two pieces) are combined and the result is
//! evaluated at every point of the box and compared with the operation applied to
//! the values of the operands.

use crate::api::{Aff, MultiAff, PwAff, PwMultiAff, Set};
use crate::int::Int;
use crate::lp::Rational;
use proptest::prelude::*;

fn r_add(a: &Rational, b: &Rational) -> Rational {
    Rational::new(
        a.numer() * b.denom() + b.numer() * a.denom(),
        a.denom() * b.denom(),
    )
}

fn r_mul(a: &Rational, b: &Rational) -> Rational {
    Rational::new(a.numer() * b.numer(), a.denom() * b.denom())
}

fn r_neg(a: &Rational) -> Rational {
    Rational::new(-a.numer(), a.denom().clone())
}

/// A random expression text over `N, i, j`: `(c + a i + b j + e floor((p i + q j + r)/d)) / den`.
fn arb_expr() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(-3i64..=3, 4),
        prop::collection::vec(-2i64..=2, 3),
        0i64..=2,
        2i64..=3,
        1i64..=3,
    )
        .prop_map(|(a, f, e, d, den)| {
            format!(
                "({} + {}*N + {}*i + {}*j + {}*floor(({}*i + {}*j + {})/{}))/{}",
                a[0], a[1], a[2], a[3], e, f[0], f[1], f[2], d, den
            )
        })
}

/// A random condition text `u i + v j + w N + c >= 0`.
fn arb_cond() -> impl Strategy<Value = (String, String)> {
    prop::collection::vec(-2i64..=2, 4).prop_map(|v| {
        let lhs = format!("{}*i + {}*j + {}*N + {}", v[0], v[1], v[2], v[3]);
        (format!("{lhs} >= 0"), format!("{lhs} < 0"))
    })
}

/// A random PwAff over `[N] -> { [i, j] }`: one piece on a half space or
/// everywhere, or two pieces split by a half space.
fn arb_pw_aff() -> impl Strategy<Value = String> {
    (0usize..3, arb_expr(), arb_expr(), arb_cond()).prop_map(|(kind, a, b, (c, nc))| match kind {
        0 => format!("[N] -> {{ [i, j] -> [({a})] }}"),
        1 => format!("[N] -> {{ [i, j] -> [({a})] : {c} }}"),
        _ => format!("[N] -> {{ [i, j] -> [({a})] : {c}; [i, j] -> [({b})] : {nc} }}"),
    })
}

fn points() -> Vec<Vec<Int>> {
    let mut out = Vec::new();
    for n in [-1i64, 2] {
        for i in -3i64..=3 {
            for j in -3i64..=3 {
                out.push(vec![Int::from(n), Int::from(i), Int::from(j)]);
            }
        }
    }
    out
}

fn parse(s: &str) -> PwAff {
    let f: PwAff = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
    f.check_invariants().unwrap();
    f
}

fn check(
    result: &PwAff,
    want: impl Fn(Option<Rational>, Option<Rational>, &[Int]) -> Option<Rational>,
    f: &PwAff,
    g: &PwAff,
) {
    result.check_invariants().unwrap();
    for p in points() {
        let (x, y) = (f.eval(&p).unwrap(), g.eval(&p).unwrap());
        assert_eq!(
            result.eval(&p).unwrap(),
            want(x, y, &p),
            "at {p:?}: {result} from {f} and {g}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn arithmetic_matches_pointwise(a in arb_pw_aff(), b in arb_pw_aff(), k in -3i64..=3) {
        let (f, g) = (parse(&a), parse(&b));
        let both = |op: fn(&Rational, &Rational) -> Rational| {
            move |x: Option<Rational>, y: Option<Rational>, _: &[Int]| Some(op(&x?, &y?))
        };
        check(&f.add(&g).unwrap(), both(r_add), &f, &g);
        check(&f.sub(&g).unwrap(), both(|x, y| r_add(x, &r_neg(y))), &f, &g);
        check(&f.neg(), |x, _, _| x.map(|v| r_neg(&v)), &f, &g);
        let kk = Rational::from(k);
        check(&f.scale(&Int::from(k)), |x, _, _| x.map(|v| r_mul(&v, &kk)), &f, &g);
        let q = Rational::new(Int::from(k), Int::from(3));
        check(&f.scale_rational(&q), |x, _, _| x.map(|v| r_mul(&v, &q)), &f, &g);
        check(&f.min(&g).unwrap(), both(|x, y| x.clone().min(y.clone())), &f, &g);
        check(&f.max(&g).unwrap(), both(|x, y| x.clone().max(y.clone())), &f, &g);
        check(&f.union_add(&g).unwrap(), |x, y, _| match (x, y) {
            (Some(x), Some(y)) => Some(r_add(&x, &y)),
            (x, None) => x,
            (None, y) => y,
        }, &f, &g);
        check(&f.floor(), |x, _, _| x.map(|v| Rational::from(v.floor())), &f, &g);
        check(&f.coalesce().unwrap(), |x, _, _| x, &f, &g);
    }

    #[test]
    fn restriction_matches_pointwise(a in arb_pw_aff(), (c, _) in arb_cond()) {
        let f = parse(&a);
        let s: Set = format!("[N] -> {{ [i, j] : {c} }}").parse().unwrap();
        let r = f.intersect_domain(&s).unwrap();
        let g = f.gist(&s).unwrap();
        r.check_invariants().unwrap();
        g.check_invariants().unwrap();
        for p in points() {
            let inside = s.contains(&p).unwrap();
            let v = f.eval(&p).unwrap();
            prop_assert_eq!(r.eval(&p).unwrap(), if inside { v.clone() } else { None });
            if inside {
                prop_assert_eq!(g.eval(&p).unwrap(), v);
            }
        }
    }

    #[test]
    fn notation_round_trip(a in arb_pw_aff()) {
        let f = parse(&a);
        let text = f.to_string();
        let g = parse(&text);
        prop_assert_eq!(g.to_string(), text.clone());
        prop_assert!(g.is_equal(&f).unwrap(), "{} vs {}", text, a);
        for p in points() {
            prop_assert_eq!(g.eval(&p).unwrap(), f.eval(&p).unwrap());
        }
    }

    #[test]
    fn graph_round_trip(a in arb_pw_aff()) {
        // the graph of an integral function: floor of the random one
        let f = parse(&a).floor();
        let m = f.as_map().unwrap();
        let g = PwAff::from_map(&m).unwrap();
        g.check_invariants().unwrap();
        for p in points() {
            prop_assert_eq!(g.eval(&p).unwrap(), f.eval(&p).unwrap());
        }
    }

    #[test]
    fn pullback_matches_composition(
        a in arb_pw_aff(),
        (g1, g2) in (arb_expr(), arb_expr()),
        (c, nc) in arb_cond(),
        two in any::<bool>(),
    ) {
        let f = parse(&a);
        // g: [N] -> { [x, y] -> [i, j] } integral, one or two pieces
        let g1 = g1.replace('i', "x").replace('j', "y");
        let g2 = g2.replace('i', "x").replace('j', "y");
        let (c, nc) = (c.replace('i', "x").replace('j', "y"), nc.replace('i', "x").replace('j', "y"));
        let text = if two {
            format!("[N] -> {{ [x, y] -> [(floor({g1})), (y)] : {c}; [x, y] -> [(x), (floor({g2}))] : {nc} }}")
        } else {
            format!("[N] -> {{ [x, y] -> [(floor({g1})), (floor({g2}))] }}")
        };
        let g: PwMultiAff = text.parse().unwrap();
        let h = f.pullback(&g).unwrap();
        h.check_invariants().unwrap();
        for p in points() {
            let want = match g.eval(&p).unwrap() {
                None => None,
                Some(v) => {
                    let q: Vec<Int> = std::iter::once(p[0].clone()).chain(v.iter().map(|r| r.floor())).collect();
                    f.eval(&q).unwrap()
                }
            };
            prop_assert_eq!(h.eval(&p).unwrap(), want, "{} after {}", f, g);
        }
        if !two {
            let m: MultiAff = format!("[N] -> {{ [x, y] -> [(floor({g1})), (floor({g2}))] }}").parse().unwrap();
            let h2 = f.pullback_multi_aff(&m).unwrap();
            prop_assert!(h2.is_equal(&h).unwrap());
            for (_, a) in f.pieces() {
                let ha: Aff = a.pullback(&m).unwrap();
                ha.check_invariants().unwrap();
            }
        }
    }
}
