//! Unit tests: hand-made cases, the paper's counterexample, overflow edges.
//! The randomized differential tests are in `tests/properties.rs`.

use super::*;

fn sys(n: usize) -> Sdbm {
    Sdbm::new(n)
}

#[test]
fn sdbm_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Sdbm>();
    check::<TooLarge>();
    let e: Box<dyn std::error::Error + Send + Sync> = Box::new(TooLarge);
    assert!(e.to_string().contains("too large"));
}

#[test]
fn trivial_systems() {
    let s = sys(0);
    assert_eq!(s.solve(), Ok(Some(vec![])));
    assert_eq!(s.normalize(), Ok(Some(sys(0))));
    let s = sys(3);
    assert!(s.solve().unwrap().is_some());
    assert_eq!(s.normalize().unwrap(), Some(sys(3)));
    let mut s = sys(2);
    s.add_difference(1, 1, -1);
    assert!(s.is_trivially_empty());
    assert_eq!(s.solve(), Ok(None));
    let mut s = sys(2);
    s.add_difference(1, 1, 0);
    assert!(!s.is_trivially_empty());
    assert!(s.solve().unwrap().is_some());
}

#[test]
fn congruences_combine_by_crt() {
    let mut s = sys(1);
    s.add_congruence(0, 4, 1).unwrap();
    s.add_congruence(0, 6, 3).unwrap();
    assert_eq!(s.congruence(0), (12, 9));
    s.add_congruence(0, 3, 1).unwrap(); // 9 ≢ 1 (mod 3)
    assert!(s.is_trivially_empty());
    assert_eq!(s.solve(), Ok(None));

    let mut s = sys(1);
    s.add_congruence(0, -5, -1).unwrap();
    assert_eq!(s.congruence(0), (5, 4));
    s.add_congruence(0, 0, 9).unwrap(); // x = 9
    assert_eq!((s.lower(0), s.upper(0)), (Some(9), Some(9)));
    assert_eq!(s.solve(), Ok(Some(vec![9])));
    let mut t = sys(1);
    t.add_congruence(0, 0, 8).unwrap();
    t.add_congruence(0, 5, 4).unwrap();
    assert_eq!(t.solve(), Ok(None));
}

#[test]
fn harmonic_detection() {
    let mut s = sys(4);
    s.add_congruence(0, 8, 1).unwrap();
    s.add_congruence(1, 32, 0).unwrap();
    s.add_congruence(2, 2, 1).unwrap();
    assert!(s.is_harmonic());
    s.add_congruence(3, 3, 0).unwrap();
    assert!(!s.is_harmonic());
}

/// The paper's Section 3.1 example: both variables even, `x0 - x1 = 1`.
#[test]
fn gcd_tightening_example() {
    let mut s = sys(2);
    s.add_congruence(0, 2, 0).unwrap();
    s.add_congruence(1, 2, 0).unwrap();
    s.add_difference(0, 1, 1);
    s.add_difference(1, 0, -1);
    assert!(s.is_harmonic());
    assert!(!s.harmonic_fixpoint_nonempty().unwrap());
    assert_eq!(s.solve_harmonic(), Ok(None));
    assert_eq!(s.solve_general(), Ok(None));
}

/// A closed, GCD-tight SDBM with divisors 6, 10, 15 (pairwise gcds 2, 5, 3)
/// that is empty — the paper's example (1) in spirit. With `a = x0 - x1`,
/// `b = x1 - x2`: `a ∈ {0, 2, 4}`, `b ∈ {0, 5}`, `a + b ∈ 3Z ∩ [3, 6]`; the
/// sums are 0, 2, 4, 5, 7, 9, none of which qualifies. Every bound is in its
/// gcd class and equals the path closure of the others, so the harmonic
/// fixpoint finds nothing, yet there is no point.
fn counterexample() -> Sdbm {
    let mut s = sys(3);
    s.add_congruence(0, 6, 0).unwrap();
    s.add_congruence(1, 10, 0).unwrap();
    s.add_congruence(2, 15, 0).unwrap();
    s.add_difference(0, 1, 4);
    s.add_difference(1, 0, 0);
    s.add_difference(1, 2, 5);
    s.add_difference(2, 1, 0);
    s.add_difference(0, 2, 6);
    s.add_difference(2, 0, -3);
    s
}

#[test]
fn closed_tight_but_empty_non_harmonic_system() {
    let s = counterexample();
    assert!(!s.is_harmonic());
    // The system is already closed and tight: one closure round changes nothing.
    let mut w = s.work().unwrap();
    let before = w.d.clone();
    assert!(w.floyd().unwrap());
    assert!(!w.gcd_tighten().unwrap());
    assert_eq!(w.d, before);
    // So the harmonic fixpoint alone would call it non-empty ...
    assert!(s.harmonic_fixpoint_nonempty().unwrap());
    // ... but it is empty: brute force over x0 in one period (shift invariance
    // by L = 30) and the others within their difference bounds from x0.
    for x0 in 0..30 {
        for x1 in x0 - 4..=x0 {
            for x2 in x0 - 6..=x0 - 3 {
                assert!(!s.contains(&[x0, x1, x2]));
            }
        }
    }
    assert_eq!(s.solve(), Ok(None));
    assert_eq!(s.solve_general(), Ok(None));
    assert_eq!(s.solve_harmonic(), Ok(None)); // falls back to the general algorithm
    assert_eq!(s.is_empty(), Ok(true));
    assert_eq!(s.normalize(), Ok(None));
    // Loosening one bound by one step of its class makes it non-empty.
    let mut t = s.clone();
    t.diff[2] = Some(9); // x0 - x2 <= 9
    let x = t.solve().unwrap().expect("non-empty");
    assert!(t.contains(&x));
}

#[test]
fn normal_form_simple_cases() {
    // x ≡ 0 (mod 2), 0 <= x <= 5: bounds [0, 4], divisor 2.
    let mut s = sys(1);
    s.add_congruence(0, 2, 0).unwrap();
    s.add_lower(0, 0);
    s.add_upper(0, 5);
    let n = s.normalize().unwrap().unwrap();
    assert_eq!(
        (n.lower(0), n.upper(0), n.congruence(0)),
        (Some(0), Some(4), (2, 0))
    );

    // x in {2, 6} only: divisor 4 although L = 6 (a bounded variable's
    // sparsest divisor need not divide L).
    let mut s = sys(2);
    s.add_congruence(0, 2, 0).unwrap();
    s.add_congruence(1, 3, 0).unwrap();
    s.add_difference(0, 1, 0); // y - x in [0, 1]
    s.add_difference(1, 0, 1);
    s.add_lower(0, 2);
    s.add_upper(0, 6);
    let n = s.normalize().unwrap().unwrap();
    assert_eq!(n.congruence(0), (4, 2));
    assert_eq!((n.lower(0), n.upper(0)), (Some(2), Some(6)));
    assert_eq!((n.lower(1), n.upper(1)), (Some(3), Some(6)));
    assert_eq!(n.congruence(1), (3, 0));
    assert_eq!((n.difference(1, 0), n.difference(0, 1)), (Some(1), Some(0)));

    // A fixed variable gets (1, 0).
    let mut s = sys(2);
    s.add_congruence(0, 7, 3).unwrap();
    s.add_lower(0, 3);
    s.add_upper(0, 9);
    s.add_difference(1, 0, 2);
    let n = s.normalize().unwrap().unwrap();
    assert_eq!(
        (n.lower(0), n.upper(0), n.congruence(0)),
        (Some(3), Some(3), (1, 0))
    );
    assert_eq!((n.upper(1), n.lower(1)), (Some(5), None));
    assert_eq!(n.difference(1, 0), Some(2));
    assert_eq!(n.difference(0, 1), None);
    assert_eq!(n.congruence(1), (1, 0));
}

#[test]
fn normal_form_vbf_congruences() {
    // x0 ≡ 0 (mod 4), x1 ≡ 0 (mod 2), x1 - x0 in [0, 1]: x1 = x0, so x1 ≡ 0 (mod 4).
    let mut s = sys(2);
    s.add_congruence(0, 4, 0).unwrap();
    s.add_congruence(1, 2, 0).unwrap();
    s.add_difference(1, 0, 1);
    s.add_difference(0, 1, 0);
    let n = s.normalize().unwrap().unwrap();
    assert_eq!(n.congruence(1), (4, 0));
    assert_eq!((n.difference(1, 0), n.difference(0, 1)), (Some(0), Some(0)));
    assert_eq!((n.upper(0), n.lower(0)), (None, None));
    assert!(s.is_equal(&n).unwrap());
}

#[test]
fn join_examples() {
    let mut a = sys(1);
    a.add_lower(0, 0);
    a.add_upper(0, 0);
    let mut b = sys(1);
    b.add_lower(0, 6);
    b.add_upper(0, 6);
    let j = a.join(&b).unwrap();
    assert_eq!(
        (j.lower(0), j.upper(0), j.congruence(0)),
        (Some(0), Some(6), (6, 0))
    );
    let j2 = a.join(&a).unwrap();
    assert_eq!(j2, a.normalize().unwrap().unwrap());
    let e = Sdbm::empty(1);
    assert_eq!(e.join(&b).unwrap(), b.normalize().unwrap().unwrap());
    assert_eq!(e.join(&e).unwrap(), Sdbm::empty(1));
    let mut c = sys(1);
    c.add_congruence(0, 4, 1).unwrap();
    let j = c.join(&b).unwrap(); // 1 (mod 4) or 6: gcd(4, 5) = 1
    assert_eq!(j.congruence(0), (1, 0));
    assert_eq!((j.lower(0), j.upper(0)), (None, None));
}

#[test]
fn inclusion_and_equality() {
    let mut a = sys(2);
    a.add_congruence(0, 4, 0).unwrap();
    a.add_difference(0, 1, 0);
    a.add_difference(1, 0, 0);
    let mut b = sys(2);
    b.add_congruence(1, 2, 0).unwrap();
    b.add_difference(0, 1, 3);
    assert!(a.is_subset(&b).unwrap());
    assert!(!b.is_subset(&a).unwrap());
    assert!(!a.is_equal(&b).unwrap());
    let mut a2 = a.clone();
    a2.add_congruence(1, 2, 0).unwrap(); // implied
    a2.add_difference(0, 1, 5); // implied (looser)
    assert!(a.is_equal(&a2).unwrap());
    assert!(Sdbm::empty(2).is_subset(&a).unwrap());
    assert!(!a.is_subset(&Sdbm::empty(2)).unwrap());
}

#[test]
fn extreme_constants() {
    const MAX: i64 = i64::MAX;
    const MIN: i64 = i64::MIN;
    let mut s = sys(1);
    s.add_lower(0, MIN);
    s.add_upper(0, MAX);
    let x = s.solve().unwrap().unwrap();
    assert!(s.contains(&x));
    // The normal form keeps both bounds.
    let n = s.normalize().unwrap().unwrap();
    assert_eq!((n.lower(0), n.upper(0)), (Some(MIN), Some(MAX)));

    let mut s = sys(1);
    s.add_lower(0, MAX);
    assert_eq!(s.solve_harmonic(), Ok(Some(vec![MAX])));
    assert_eq!(s.solve_general(), Ok(Some(vec![MAX])));
    s.add_congruence(0, 2, 0).unwrap(); // MAX is odd: the points start at 2^63
    assert_eq!(s.solve_harmonic(), Err(TooLarge));
    assert_eq!(s.solve_general(), Err(TooLarge));

    let mut s = sys(1);
    s.add_upper(0, MIN);
    s.add_congruence(0, 2, 1).unwrap(); // MIN is even: the points end at -2^63 - 1
    assert_eq!(s.solve(), Err(TooLarge));
    s.add_lower(0, MIN);
    assert_eq!(s.solve(), Ok(None));

    // x0 - x1 <= MIN and x1 - x0 <= MIN: a negative cycle of weight 2·MIN.
    let mut s = sys(2);
    s.add_difference(0, 1, MIN);
    s.add_difference(1, 0, MIN);
    assert_eq!(s.solve(), Ok(None));
    assert_eq!(s.solve_general(), Ok(None));
    // x0 - x1 <= MIN, x1 - x0 <= MAX: x1 - x0 >= 2^63 > MAX, empty.
    let mut s = sys(2);
    s.add_difference(0, 1, MIN);
    s.add_difference(1, 0, MAX);
    assert_eq!(s.solve(), Ok(None));
    assert_eq!(s.solve_general(), Ok(None));
    // Without the second bound and with x0 >= 0: x1 >= 2^63, beyond i64.
    let mut s = sys(2);
    s.add_difference(0, 1, MIN);
    s.add_lower(0, 0);
    assert_eq!(s.solve(), Err(TooLarge));
    assert_eq!(s.solve_general(), Err(TooLarge));
    // A chain of MAX steps: distances beyond i64 but exact in i128.
    let mut s = sys(4);
    for i in 0..3 {
        s.add_difference(i + 1, i, MAX);
        s.add_difference(i, i + 1, MAX);
    }
    s.add_upper(0, MAX);
    s.add_lower(3, MIN);
    let x = s.solve().unwrap().unwrap();
    assert!(s.contains(&x));
    assert_eq!(s.normalize(), Err(TooLarge)); // x3 - x0 <= 3·MAX does not fit

    // Congruences whose combination does not fit.
    let mut s = sys(1);
    s.add_congruence(0, MAX, 0).unwrap();
    assert_eq!(s.add_congruence(0, MAX - 1, 0), Err(TooLarge));
    assert_eq!(s.congruence(0), (MAX, 0)); // unchanged
    assert_eq!(s.add_congruence(0, MIN, 0), Err(TooLarge));
    // A huge LCM makes the general solver refuse, never answer wrongly.
    let mut s = sys(3);
    s.add_congruence(0, 1 << 40, 0).unwrap();
    s.add_congruence(1, 3, 1).unwrap();
    s.add_congruence(2, 5, 2).unwrap();
    s.add_difference(0, 1, 7);
    s.add_difference(1, 2, -3);
    s.add_difference(2, 0, 1);
    match s.solve() {
        Ok(Some(x)) => assert!(s.contains(&x)),
        Ok(None) => panic!("x0 = 2^40·k, x1, x2 nearby: the system has points"),
        Err(TooLarge) => {}
    }
}

#[test]
fn general_step_limit_reports_too_large() {
    // The counterexample's emptiness is only found by the descent of the
    // general algorithm, whose length grows with L. An unrelated variable with
    // a large coprime divisor makes L = 30 · 1_000_003 and the descent longer
    // than the budget: the answer is TooLarge, not a guess.
    let c = counterexample();
    let mut s = sys(4);
    for i in 0..3 {
        for j in 0..3 {
            if let Some(b) = c.difference(i, j) {
                s.add_difference(i, j, b);
            }
        }
        let (m, r) = c.congruence(i);
        s.add_congruence(i, m, r).unwrap();
    }
    s.add_congruence(3, 1_000_003, 0).unwrap();
    assert_eq!(s.solve(), Err(TooLarge));
    // With bounds that keep the box small the same system is decided.
    let mut t = s.clone();
    for i in 0..3 {
        t.add_lower(i, -100);
        t.add_upper(i, 100);
    }
    assert_eq!(t.solve(), Ok(None));
}
