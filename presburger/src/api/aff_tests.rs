//! Tests of the quasi-affine function types: isl's printed forms, round trips,
//! conversions and operations checked pointwise.

use super::*;
use crate::lp::Rational;

fn pma(s: &str) -> PwMultiAff {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn pa(s: &str) -> PwAff {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Texts as isl 0.25 prints them (isl_pw_multi_aff_to_str), read and printed back unchanged.
const ISL_PRINTED: &[&str] = &[
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
    "{ [i] -> [(floor((2 + i)/6))] }",
    "{ [i] -> A[(i)] }",
    "{ [i] -> [(3i + floor((i)/2))/5] }",
    "{ [i] -> [(i)] : i >= 6 or i <= -1 }", // isl: `i < 0`
    "[N, M] -> { [i] -> [(1 + N - 2M)] }",
    "{ [i] -> [(-i)/2] }",
    "[N] -> { [(N)] : N >= 1 }", // isl: `N > 0`
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
    "{ [i, j] -> [(i + j - (i) mod 2)] }",
    "{ [i, j] -> [(-j + (i + j) mod 2)] }",
    "{ [i] -> [(-i + 2*((i) mod 3))] }",
    "{ [i] -> [(5 - i + (i) mod 3)] }",
    // isl: `(i) mod 2 = 0 and i > 0` (conditions are printed by the set printer)
    "{ [i] -> [(0)] : exists (e0 = floor((i)/2) : i = 2e0 and i >= 1) }",
];

#[test]
fn isl_printed_forms_round_trip() {
    for s in ISL_PRINTED {
        let f = pma(s);
        f.check_invariants().unwrap();
        assert_eq!(f.to_string(), *s);
    }
}

#[test]
fn divisions_are_simplified() {
    for (text, want) in [
        (
            "{ [i] -> [(floor((floor((i)/2) + 1)/3))] }",
            "{ [i] -> [(floor((2 + i)/6))] }",
        ),
        (
            "{ [i] -> [(floor((2i + 2)/4))] }",
            "{ [i] -> [(floor((1 + i)/2))] }",
        ),
        (
            "{ [i] -> [(floor((i)/2) - floor((i)/2) + floor(7/2))] }",
            "{ [i] -> [(3)] }",
        ),
        (
            "{ [i] -> [(floor((i)/2) - 2*floor((floor((i)/2))/2))] }",
            "{ [i] -> [(floor((i)/2) - 2*floor((i)/4))] }",
        ),
    ] {
        let f = pa(text);
        f.check_invariants().unwrap();
        assert_eq!(f.to_string(), want);
    }
}

#[test]
fn remainder_of_a_remainder_prints_exactly() {
    // the second division uses the first: only the first becomes a remainder
    let f = pa("{ [i] -> [(3*floor((i)/3) - 2*floor((i + 2*floor((i)/3))/2))] }");
    assert!(f.to_string().contains(") mod 3"), "{f}");
    let g = pa(&f.to_string());
    assert!(g.is_equal(&f).unwrap(), "{f}");
    for i in -7..=7 {
        let p = [Int::from(i)];
        assert_eq!(f.eval(&p).unwrap(), g.eval(&p).unwrap());
    }
}

#[test]
fn overlapping_pieces_add_up_as_in_isl() {
    let f = pa("{ [i] -> [(1)]; [i] -> [(2)] : i > 0 }");
    f.check_invariants().unwrap();
    assert_eq!(f.eval(&[Int::from(3)]).unwrap(), Some(Rational::from(3)));
    assert_eq!(f.eval(&[Int::from(0)]).unwrap(), Some(Rational::from(1)));
}

#[test]
fn reads_other_spellings() {
    let f = pa("{ [i] -> [(i + 1)] }");
    assert_eq!(f.to_string(), "{ [i] -> [(1 + i)] }");
    let f = pa("{ [i] -> [((i) mod 3)] }");
    let v = f.eval(&[Int::from(7)]).unwrap().unwrap();
    assert_eq!(v, Rational::from(1));
    let f = pa("{ [i] -> [i/2] }");
    assert_eq!(f.to_string(), "{ [i] -> [(i)/2] }");
}

#[test]
fn parse_errors() {
    for bad in [
        "{ [i] -> [(i] }",
        "{ [i] -> [(j)] }",
        "{ [i] -> [(i)]; [j, k] -> [(j)] }",
        "{ [i] -> [(i : i > 0)] }",
    ] {
        assert!(bad.parse::<PwAff>().is_err(), "{bad}");
    }
    match "{ [i] -> [(i +)] }".parse::<PwAff>() {
        Err(Error::Parse { .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!("{ [i] -> [(i)] : i > 0 }".parse::<Aff>().is_err());
    assert!("{ [i] -> [(i), (i)] }".parse::<Aff>().is_err());
}

#[test]
fn graph_and_back() {
    for s in ISL_PRINTED {
        let f = pma(s);
        let m = f.as_map().unwrap();
        let rational = f
            .pieces()
            .iter()
            .any(|(_, m)| m.affs().iter().any(|a| !a.is_integral()));
        let g = PwMultiAff::from_map(&m).unwrap_or_else(|e| panic!("{s}: {m}: {e}"));
        g.check_invariants().unwrap();
        if rational || f.space().is_set() {
            // the graph keeps the integer values only, and the graph of a
            // function of the parameters has a zero-dimensional domain
            assert!(g.as_map().unwrap().is_equal(&m).unwrap(), "{s}");
        } else {
            assert!(g.is_equal(&f).unwrap(), "{s}: {g}");
        }
    }
}

#[test]
fn from_map_errors() {
    let m: Map = "{ [i] -> [o] : 0 <= o <= i }".parse().unwrap();
    assert!(PwMultiAff::from_map(&m).is_err());
    // a division written as inequalities only, and an output bounded by
    // inequalities: converted by the parametric lexmin
    for text in [
        "{ [i] -> [o] : 2o <= i <= 2o + 1 }",
        "[N] -> { [i] -> [o] : o >= i and o >= N and (o <= i or o <= N) }",
    ] {
        let m: Map = text.parse().unwrap();
        let f = PwMultiAff::from_map(&m).unwrap();
        assert!(f.as_map().unwrap().is_equal(&m).unwrap(), "{text}: {f}");
    }
}

#[test]
fn from_pieces_rows() {
    // [N] -> { [i] -> [(i + e0)] : e0 = floor(i/2), 0 <= i < N ; [i] -> [(N)/2] : i >= N }
    let dom = Space::set(vec!["N".into()], Tuple::new(None, &["i"]));
    let space = Space::map(
        vec!["N".into()],
        Tuple::new(None, &["i"]),
        Tuple::anonymous(1),
    );
    let mut c1 = Conjunction::universe(dom.clone());
    let z = Int::ZERO;
    let one = Int::ONE;
    c1.add_local(Some(crate::conjunction::Div {
        num: vec![z.clone(), z.clone(), one.clone()],
        den: Int::from(2),
    }))
    .unwrap();
    c1.add_ineq(vec![z.clone(), z.clone(), one.clone(), z.clone()])
        .unwrap();
    c1.add_ineq(vec![Int::from(-1), one.clone(), Int::from(-1), z.clone()])
        .unwrap();
    let mut c2 = Conjunction::universe(dom.clone());
    c2.add_ineq(vec![z.clone(), Int::from(-1), one.clone()])
        .unwrap();
    let f = PwMultiAff::from_pieces(
        space,
        vec![
            (
                c1,
                vec![vec![z.clone(), z.clone(), one.clone(), one.clone()]],
                one.clone(),
            ),
            (
                c2,
                vec![vec![z.clone(), one.clone(), z.clone()]],
                Int::from(2),
            ),
        ],
    )
    .unwrap();
    f.check_invariants().unwrap();
    assert_eq!(
        f.to_string(),
        "[N] -> { [i] -> [(i + floor((i)/2))] : 0 <= i < N; [i] -> [(N)/2] : i >= N }"
    );
    let v = |n: i64, i: i64| f.eval(&[Int::from(n), Int::from(i)]).unwrap();
    assert_eq!(v(10, 5), Some(vec![Rational::from(7)]));
    assert_eq!(
        v(5, 7),
        Some(vec![Rational::new(Int::from(5), Int::from(2))])
    );
    assert_eq!(v(5, -1), None);
    let p = PwAff::from_pieces(dom, vec![]).unwrap();
    assert_eq!(p.n_piece(), 0);
}

#[test]
fn operations_examples() {
    let f = pa("[N] -> { [i] -> [(i)] : i >= 0 }");
    let g = pa("[N] -> { [i] -> [(N - i)] : i <= 10 }");
    let s = f.add(&g).unwrap();
    assert_eq!(s.to_string(), "[N] -> { [i] -> [(N)] : 0 <= i <= 10 }");
    let m = f.max(&g).unwrap();
    m.check_invariants().unwrap();
    let u = f.union_add(&g).unwrap();
    u.check_invariants().unwrap();
    assert_eq!(
        u.eval(&[Int::from(3), Int::from(20)]).unwrap(),
        Some(Rational::from(20))
    );
    assert_eq!(
        u.eval(&[Int::from(3), Int::from(-5)]).unwrap(),
        Some(Rational::from(8))
    );
    assert_eq!(
        u.eval(&[Int::from(3), Int::from(5)]).unwrap(),
        Some(Rational::from(3))
    );
    let c = pa("{ [i] -> [(0)] : i > 5; [i] -> [(0)] : i <= 5 }")
        .coalesce()
        .unwrap();
    assert_eq!(c.to_string(), "{ [i] -> [(0)] }");
    let h = pa("{ [i] -> [(i)] : 0 <= i <= 10 }")
        .gist(&"{ [i] : i >= 0 }".parse().unwrap())
        .unwrap();
    assert_eq!(h.to_string(), "{ [i] -> [(i)] : i <= 10 }");
    let d = pa("[N] -> { [i] -> [(i)] : 0 <= i < N }").domain().unwrap();
    assert!(
        d.is_equal(&"[N] -> { [i] : 0 <= i < N }".parse().unwrap())
            .unwrap()
    );
    let e = pa("{ [i] -> [(i)/2] }").scale(&Int::from(4));
    assert_eq!(e.to_string(), "{ [i] -> [(2i)] }");
    let q = pa("{ [i] -> [(i)] }").scale_rational(&Rational::new(Int::from(-2), Int::from(6)));
    assert_eq!(q.to_string(), "{ [i] -> [(-i)/3] }");
    assert_eq!(
        pa("{ [i] -> [(1 + i)] }")
            .sub(&pa("{ [i] -> [(i)] }"))
            .unwrap()
            .to_string(),
        "{ [i] -> [(1)] }"
    );
    assert_eq!(
        pa("{ [i] -> [(floor((i)/2))] }")
            .sub(&pa("{ [i] -> [(floor((i)/2))] }"))
            .unwrap()
            .to_string(),
        "{ [i] -> [(0)] }"
    );
    let p = pa("{ [i] -> [(i)] : i > 0 }")
        .intersect_domain(&"[N] -> { : N > 3 }".parse().unwrap())
        .unwrap();
    assert_eq!(p.to_string(), "[N] -> { [i] -> [(i)] : N >= 4 and i >= 1 }");
}

#[test]
fn multi_output_operations() {
    let f = pma("[N] -> { S[i, j] -> A[(i + j), (floor((i)/2))] : 0 <= i < N }");
    let g = pma("[N] -> { S[i, j] -> A[(N), (i)/2] }");
    let s = f.add(&g).unwrap();
    s.check_invariants().unwrap();
    let d = f.sub(&g).unwrap();
    let p = [Int::from(10), Int::from(3), Int::from(4)];
    let want_s = vec![
        Rational::from(17),
        Rational::new(Int::from(5), Int::from(2)),
    ];
    assert_eq!(s.eval(&p).unwrap(), Some(want_s));
    assert_eq!(
        d.eval(&p).unwrap(),
        Some(vec![
            Rational::from(-3),
            Rational::new(Int::from(-1), Int::from(2))
        ])
    );
    assert_eq!(
        s.eval(&[Int::from(2), Int::from(3), Int::from(0)]).unwrap(),
        None
    );
    // a nested range composes with a function on it
    let h = pma("{ [i] -> [S[(i)] -> T[(i + 1)]] }");
    let k = pma("{ [S[a] -> T[b]] -> [(a * 2 + b)] }");
    assert_eq!(k.pullback(&h).unwrap().to_string(), "{ [i] -> [(1 + 3i)] }");
    assert!(f.add(&h).is_err());
    assert!(k.pullback(&f).is_err());
}

#[test]
fn union_types() {
    let text = "[N] -> { A[i] -> [(N + i)] : i >= 1; B[j] -> [(j), (0)] }";
    let u: UnionPwMultiAff = text.parse().unwrap();
    u.check_invariants().unwrap();
    assert_eq!(u.to_string(), text);
    let m = u.as_union_map().unwrap();
    let back = UnionPwMultiAff::from_union_map(&m).unwrap();
    assert_eq!(back.to_string(), text);
    let a_space = Space::set(vec!["N".into()], Tuple::new(Some("A"), &["i"]));
    assert_eq!(
        u.eval(&a_space, &[Int::from(2), Int::from(3)]).unwrap(),
        Some(vec![Rational::from(5)])
    );
    assert_eq!(
        u.eval(&a_space, &[Int::from(2), Int::from(0)]).unwrap(),
        None
    );
    let dom = u.domain().unwrap();
    assert_eq!(dom.members().len(), 2);
    let v: UnionPwMultiAff = "{ A[i] -> [(1)]; C[k] -> [(k)] }".parse().unwrap();
    assert_eq!(
        u.sum(&v).unwrap().to_string(),
        "[N] -> { A[i] -> [(1 + N + i)] : i >= 1 }"
    );
    let w = u.union_add(&v).unwrap();
    w.check_invariants().unwrap();
    assert_eq!(w.members().len(), 3);
    let s: UnionSet = "{ A[i] : i <= 5 }".parse().unwrap();
    assert_eq!(
        u.intersect_domain(&s).unwrap().to_string(),
        "[N] -> { A[i] -> [(N + i)] : 1 <= i <= 5 }"
    );
    let mut x = UnionPwMultiAff::empty(vec![]);
    x.add_pw_multi_aff(pma("{ A[i] -> [(i)] : i >= 0 }"))
        .unwrap();
    assert!(
        x.add_pw_multi_aff(pma("{ A[i] -> [(0)] : i <= 0 }"))
            .is_err()
    );
    x.add_pw_multi_aff(pma("{ A[i] -> [(0)] : i < 0 }"))
        .unwrap();
    assert_eq!(x.coalesce().unwrap().members()[0].n_piece(), 2);
    let e: UnionPwAff = "{  }".parse().unwrap();
    assert_eq!(e.to_string(), "{  }");
    let pa_u: UnionPwAff = "{ A[i] -> [(i)]; B[j] -> [(2j)] }".parse().unwrap();
    assert!("{ A[i] -> [(i), (i)] }".parse::<UnionPwAff>().is_err());
    assert_eq!(pa_u.as_union_map().unwrap().members().len(), 2);
    assert_eq!(
        pa_u.coalesce().unwrap().to_string(),
        "{ A[i] -> [(i)]; B[j] -> [(2j)] }"
    );
}

#[test]
fn errors_name_the_place() {
    match "{ [i] ->\n  [(i +* 2)] }".parse::<PwAff>() {
        Err(Error::Parse { line, .. }) => assert_eq!(line, 2),
        other => panic!("{other:?}"),
    }
    let sp = Space::map(vec![], Tuple::anonymous(1), Tuple::anonymous(2));
    assert!(MultiAff::from_affs(sp, vec![]).is_err());
    assert!(
        Aff::from_parts(
            Space::set(vec![], Tuple::anonymous(1)),
            vec![],
            vec![Int::ONE],
            Int::ONE
        )
        .is_err()
    );
    assert!(
        Aff::from_parts(
            Space::set(vec![], Tuple::anonymous(1)),
            vec![],
            vec![Int::ONE, Int::ONE],
            Int::ZERO
        )
        .is_err()
    );
    let f = pa("{ [i] -> [(i)] }");
    assert!(f.eval(&[]).is_err());
    assert!(PwAff::from_pw_multi_aff(pma("{ [i] -> [(i), (i)] }")).is_err());
}

#[test]
fn parameter_domain_differs_from_zero_dimensional_domain() {
    let f = pma("[N] -> { A[(N)] }");
    let g = pma("[N] -> { [] -> A[(N)] }");
    assert!(f.space().is_set() && !g.space().is_set());
    assert_eq!(g.to_string(), "[N] -> { [] -> A[(N)] }");
    assert!(f.add(&g).is_err());
    assert!(f.as_set().is_ok() && g.as_set().is_err());
    assert!(f.as_map().unwrap().is_equal(&g.as_map().unwrap()).unwrap());
}

#[test]
fn from_pieces_on_the_parameters() {
    // the lexmin of [N] -> { S[i] : i >= N and i >= 0 } as a solver gives it
    let params = vec!["N".to_string()];
    let dom = Space::set(params.clone(), Tuple::anonymous(0));
    let space = Space::set(params.clone(), Tuple::named(Some("S".into()), 1));
    let (z, one) = (Int::ZERO, Int::ONE);
    let mut c1 = Conjunction::universe(dom.clone());
    c1.add_ineq(vec![z.clone(), one.clone()]).unwrap(); // N >= 0
    let mut c2 = Conjunction::universe(dom);
    c2.add_ineq(vec![Int::from(-1), Int::from(-1)]).unwrap(); // N < 0
    let f = PwMultiAff::from_pieces(
        space,
        vec![
            (c1, vec![vec![z.clone(), one.clone()]], one.clone()),
            (c2, vec![vec![z.clone(), z.clone()]], one.clone()),
        ],
    )
    .unwrap();
    f.check_invariants().unwrap();
    assert_eq!(
        f.to_string(),
        "[N] -> { S[(N)] : N >= 0; S[(0)] : N <= -1 }"
    );
    let want: Set = "[N] -> { S[i] : i = N >= 0 or (i = 0 and N < 0) }"
        .parse()
        .unwrap();
    assert!(f.as_set().unwrap().is_equal(&want).unwrap());
    let back: PwMultiAff = f.to_string().parse().unwrap();
    assert!(back.is_equal(&f).unwrap());
}
