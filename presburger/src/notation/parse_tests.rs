//! Tests of the isl-notation parser and printer: meaning (against a direct evaluator
//! of randomly generated formulas, by enumeration), round trips, and errors.

use super::*;
use crate::testing::{Box as PBox, map_points, set_points};
use num_integer::Integer;
use proptest::prelude::*;
use std::collections::BTreeSet;

fn set(s: &str) -> Set {
    s.parse::<Set>()
        .unwrap_or_else(|e| panic!("parse of {s:?} failed: {e}"))
}

fn pts(s: &Set, params: &[i64], lo: i64, hi: i64) -> BTreeSet<Vec<i64>> {
    set_points(s, &PBox::new(params.to_vec(), lo, hi))
}

fn filter(n_dim: usize, lo: i64, hi: i64, f: impl Fn(&[i64]) -> bool) -> BTreeSet<Vec<i64>> {
    let mut out = BTreeSet::new();
    let mut p = vec![lo; n_dim];
    loop {
        if f(&p) {
            out.insert(p.clone());
        }
        let mut k = n_dim;
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            if p[k] < hi {
                p[k] += 1;
                break;
            }
            p[k] = lo;
        }
    }
}

fn round_trip(s: &Set) -> Set {
    let text = s.to_string();
    let back: Set = text
        .parse()
        .unwrap_or_else(|e| panic!("printed text {text:?} does not parse: {e}"));
    assert!(
        back.plain_is_equal(s),
        "round trip changed the set:\n  {text}\n  {back}"
    );
    back
}

#[test]
fn issue_example_meaning_and_round_trip() {
    let s = set("[N] -> { S[i,j] : 0 <= i < N and 0 <= j <= i and exists e : j = 2e }");
    for n in [0, 1, 4, 7] {
        let want = filter(2, -2, 8, |p| {
            0 <= p[0] && p[0] < n && 0 <= p[1] && p[1] <= p[0] && p[1] % 2 == 0
        });
        assert_eq!(pts(&s, &[n], -2, 8), want, "N = {n}");
    }
    let text = s.to_string();
    assert!(text.starts_with("[N] -> { S[i, j] : "), "{text}");
    round_trip(&s);
}

/// `NaN` is isl's undefined value: every comparison with it is false, so a
/// tuple entry or a constraint with it empties its disjunct, and its negation
/// holds everywhere (`fuzz/tests/notation_isl.rs` compares these with isl).
#[test]
fn nan_is_the_undefined_value() {
    let all = filter(1, -3, 8, |_| true);
    for (text, want) in [
        ("{ [NaN] }", BTreeSet::new()),
        ("{ [x] : x = NaN }", BTreeSet::new()),
        ("{ [x] : x != NaN }", BTreeSet::new()),
        ("{ [x] : 0 <= NaN <= 3 }", BTreeSet::new()),
        ("{ [x] : x = max(x, NaN) }", BTreeSet::new()),
        ("{ [x] : exists y : y = NaN + 1 }", BTreeSet::new()),
        ("{ [x] : not (x = NaN) }", all.clone()),
        ("{ [x] : x < 3 or x = NaN }", filter(1, -3, 8, |p| p[0] < 3)),
        ("{ [x] : NaN < x or x > 5 }", filter(1, -3, 8, |p| p[0] > 5)),
    ] {
        assert_eq!(pts(&set(text), &[], -3, 8), want, "{text}");
    }
    assert!(set("{ [x, NaN] : x > 0 }").is_empty().unwrap());
    assert!(set("[n] -> { [x] : x <= n + NaN }").is_empty().unwrap());
    let m: Map = "{ [x] -> [NaN] }".parse().unwrap();
    assert!(m.is_empty().unwrap());
    // a keyword: not a name for a dimension or a variable
    assert!("{ [x] : exists NaN : x = NaN }".parse::<Set>().is_err());
}

/// isl notation items: `//`, `floord`, `ceild`, parameter values, an empty
/// condition, `Exists`, ranges in tuples, `/` outside a floor, `<<` and its
/// kin between lists, conditional values, and `rat:` refused by name
/// (`fuzz/tests/notation_isl.rs` compares them with isl's reading).
#[test]
fn isl_notation_items() {
    let one = |f: fn(i64) -> bool| filter(1, -6, 9, move |p| f(p[0]));
    for (text, want) in [
        ("{ [i] : i // 2 = 1 }", one(|i| i.div_euclid(2) == 1)),
        (
            "{ [i] : floord(i, 3) = -1 }",
            one(|i| i.div_euclid(3) == -1),
        ),
        ("{ [i] : ceild(i, 2) = 1 }", one(|i| (1..=2).contains(&i))),
        ("{ [i] : 2floord(i, 2) = i }", one(|i| i % 2 == 0)),
        ("{ [i] : }", one(|_| true)),
        ("{ [i] : Exists j : i = 3j }", one(|i| i % 3 == 0)),
        ("{ [0:3] }", one(|i| (0..=3).contains(&i))),
        ("{ [x = 4:5] }", one(|i| (4..=5).contains(&i))),
        ("{ [x = :5] : x >= 3 }", one(|i| (3..=5).contains(&i))),
        ("{ [x = -2:] }", one(|i| i >= -2)),
    ] {
        assert_eq!(pts(&set(text), &[], -6, 9), want, "{text}");
    }
    let s = set("[N = 2] -> { [i] : 0 <= i < N }");
    assert_eq!(pts(&s, &[2], -6, 9), one(|i| (0..2).contains(&i)));
    assert!(pts(&s, &[3], -6, 9).is_empty());
    let s = set("[n] -> { [i, 0:n] : 0 <= i < 2 }");
    assert_eq!(
        pts(&s, &[1], -6, 9),
        filter(2, -6, 9, |p| (0..2).contains(&p[0])
            && (0..=1).contains(&p[1]))
    );
    // `/` outside a floor: rational values, and `<` read as `+ 1 <=` on them
    // (isl's reading: `i/2 < 3` is `i <= 4`)
    for (text, want) in [
        ("{ [i] : i/2 <= 2 }", one(|i| i <= 4)),
        ("{ [i] : i/2 < 3 }", one(|i| i <= 4)),
        ("{ [i] : 0 < i/2 < 2 }", one(|i| i == 2)),
        ("{ [i] : i/2 != 1 }", one(|i| i <= 0 || i >= 4)),
        ("{ [i] : i/3 + i/2 = 5 }", one(|i| i == 6)),
        ("{ [i] : exists j : i = 3j/2 }", one(|i| i % 3 == 0)),
    ] {
        assert_eq!(pts(&set(text), &[], -6, 9), want, "{text}");
    }
    // lexicographic order between lists
    let lex = set("{ [i, j] : i, j << 1, 2 and 0 <= i, j <= 3 }");
    let want = filter(2, -6, 9, |p| {
        (0..=3).contains(&p[0]) && (0..=3).contains(&p[1]) && (p[0], p[1]) < (1, 2)
    });
    assert_eq!(pts(&lex, &[], -6, 9), want);
    let lex = set("{ [i, j] : i, j >>= 1, 2 and 0 <= i, j <= 3 }");
    let want = filter(2, -6, 9, |p| {
        (0..=3).contains(&p[0]) && (0..=3).contains(&p[1]) && (p[0], p[1]) >= (1, 2)
    });
    assert_eq!(pts(&lex, &[], -6, 9), want);
    assert!("{ [i, j] : i, j << 1 }".parse::<Set>().is_err());
    // conditional values: `(e : c)` is e where c holds, `(c ? a : b)` a or b
    let map = |t: &str| t.parse::<Map>().unwrap_or_else(|e| panic!("{t}: {e}"));
    for (text, same) in [
        ("{ [i] -> [(i : i >= 0)] }", "{ [i] -> [i] : i >= 0 }"),
        (
            "{ [i] -> [(i >= 0 ? i : -i)] }",
            "{ [i] -> [j] : (j = i and i >= 0) or (j = -i and i < 0) }",
        ),
        (
            "{ [i] -> [(i > 0 ? (i > 5 ? 5 : i) : 0)] }",
            "{ [i] -> [j] : (j = 5 and i > 5) or (j = i and 0 < i <= 5) or (j = 0 and i <= 0) }",
        ),
    ] {
        assert!(map(text).is_equal(&map(same)).unwrap(), "{text}");
    }
    // deep parentheses are read once per level
    let deep = format!("{{ [i] : {}i{} >= 0 }}", "(".repeat(40), ")".repeat(40));
    assert!(!set(&deep).is_empty().unwrap());
    // parameter sets print as isl prints them, and read back
    for (text, printed) in [
        ("[n] -> { : n < 0 }", "[n] -> { : n <= -1 }"),
        ("[n] -> { : }", "[n] -> { : }"),
        ("{ : }", "{ : }"),
        ("[n] -> { : false }", "[n] -> { : false }"),
    ] {
        let s = set(text);
        assert!(s.is_params(), "{text}");
        assert_eq!(s.to_string(), printed);
        round_trip(&s);
    }
    assert!(!set("{ S[] }").is_params());
    // a wrapped pair of empty tuples is not a parameter set, and prints as itself
    let wrapped = set("{ [[] -> []] }");
    assert!(!wrapped.is_params());
    round_trip(&wrapped);
    // a parameter set restricts the parameters of a whole union; a union that
    // has a parameter set among other members is matched space by space
    let u = |t: &str| t.parse::<UnionSet>().unwrap_or_else(|e| panic!("{t}: {e}"));
    let a = u("[n] -> { S[i] : 0 <= i < n; T[j] : j = n }");
    let got = a.intersect(&u("[n] -> { : n = 2 }")).unwrap();
    let want = u("[n] -> { S[i] : n = 2 and 0 <= i < 2; T[2] : n = 2 }");
    assert!(got.is_equal(&want).unwrap(), "{got}");
    let mixed = u("[n] -> { : n > 0; S[i] : i = 0 }");
    let got = mixed.intersect(&u("{ S[i] : 0 <= i <= 5 }")).unwrap();
    assert!(got.is_equal(&u("[n] -> { S[0] }")).unwrap(), "{got}");
    let e = "rat: { [i] : 0 <= i }"
        .parse::<Set>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("rat:") && e.contains("line 1, column 1"), "{e}");
}

/// Items of isl's own parser tests (`isl_test.c`) our parser first read wrong or
/// refused: each text against an equivalent plain one, or against the points.
#[test]
fn isl_test_file_items() {
    let map = |t: &str| t.parse::<Map>().unwrap_or_else(|e| panic!("{t}: {e}"));
    let same_map = |a: &str, b: &str| {
        assert!(map(a).is_equal(&map(b)).unwrap(), "{a} is not {b}");
    };
    let same_set = |a: &str, b: &str| {
        assert!(set(a).is_equal(&set(b)).unwrap(), "{a} is not {b}");
    };
    // `Sym=[..]` declares parameters inside the braces
    same_set("{Sym=[n] [i] : i <= n }", "[n] -> { [i] : i <= n }");
    same_set(
        "{ Sym = [n, m] [i] : m <= i <= n }",
        "[n, m] -> { [i] : m <= i <= n }",
    );
    assert!(set("{ Sym[i] }").space().range_tuple().name.is_some());
    // `*`: an unnamed dimension with any value
    same_set("{ [*] }", "{ [a] }");
    same_map("{ [x] -> [*, x] }", "{ [x] -> [y, x] }");
    assert!("{ [* + 1] }".parse::<Set>().is_err());
    // tuple entries with pieces: a value under a condition, `;` between pieces,
    // parentheses around any part; a range where no comparison follows the `:`
    for (text, plain) in [
        ("{ [a] -> [a - 1 : a > 0] }", "{ [a] -> [a - 1] : a > 0 }"),
        (
            "{ [a] -> [a - 1 : a > 0; a : a <= 0] }",
            "{ [a] -> [a - 1] : a > 0; [a] -> [a] : a <= 0 }",
        ),
        (
            "{ [a] -> [(a) * 2 : a >= 0; 0 : a < 0] }",
            "{ [a] -> [2a] : a >= 0; [a] -> [0] : a < 0 }",
        ),
        (
            "{ [a] -> [(a * 2 : a >= 0); 0 : a < 0] }",
            "{ [a] -> [2a] : a >= 0; [a] -> [0] : a < 0 }",
        ),
        (
            "{ [a] -> [(a * 2 : a >= 0; 0 : a < 0)] }",
            "{ [a] -> [2a] : a >= 0; [a] -> [0] : a < 0 }",
        ),
        ("{ [a] -> [a : (a > 0)] }", "{ [a] -> [a] : a > 0 }"),
        ("{ [a] -> [a : not (a > 0)] }", "{ [a] -> [a] : a <= 0 }"),
        (
            "{ [a] -> [a : exists e : a = 2e] }",
            "{ [a] -> [a] : a mod 2 = 0 }",
        ),
        ("{ [a] -> [b = a : a > 0] }", "{ [a] -> [a] : a > 0 }"),
        (
            "{ [x] -> [x - 1 : x + 1] }",
            "{ [x] -> [y] : x - 1 <= y <= x + 1 }",
        ),
        (
            "{ [x] -> [x - 1 : (x) + 1] }",
            "{ [x] -> [y] : x - 1 <= y <= x + 1 }",
        ),
        ("{ [x] -> [x : ] }", "{ [x] -> [y] : y >= x }"),
        // `c ? a : b` without parentheses, nested in its branches
        (
            "{ [i] -> [i > 0 ? 4 : 5] }",
            "{ [i] -> [5] : i <= 0; [i] -> [4] : i >= 1 }",
        ),
        (
            "{ [i] -> [i > 0 and i < 3 ? 1 : 0] }",
            "{ [i] -> [1] : 0 < i < 3; [i] -> [0] : i <= 0 or i >= 3 }",
        ),
        (
            "{ [i] -> [i > 0 ? i > 5 ? 5 : i : 0] }",
            "{ [i] -> [min(max(i, 0), 5)] }",
        ),
    ] {
        same_map(text, plain);
    }
    assert!("{ [a] -> [a : a > 0 : 1] }".parse::<Map>().is_err());
    assert!("{ [i] -> [i > 0] }".parse::<Map>().is_err());
    // constant powers, evaluated as isl reads the tokens: `-2^2` is -4
    same_set("{ [-2^2:2^2-1] }", "{ [-4:3] }");
    same_set("{ [i, 2^3i] : 0 <= i <= 1 }", "{ [0, 0]; [1, 8] }");
    same_set("{ [x] : x // 2^2 = 1 }", "{ [4:7] }");
    same_set("{ [x] : x mod 2^2 = 1 and 0 <= x < 8 }", "{ [1]; [5] }");
    same_set(
        "[N = 2^2] -> { [i] : i < N }",
        "[N] -> { [i] : N = 4 and i < 4 }",
    );
    same_set("{ [0^0, 0^3, 1^99999999999] }", "{ [1, 0, 1] }");
    for (text, msg) in [
        ("{ [2^100000] }", "power"),
        ("{ [2^x] : x = 1 }", "exponent"),
        ("{ [x] : x // 0^1 = 1 }", "division by zero"),
        ("{ [x] : x mod 0^1 = 1 }", "positive"),
    ] {
        let e = text.parse::<Set>().expect_err(text).to_string();
        assert!(e.contains(msg) && e.contains("line 1"), "{text}: {e}");
    }
    // isl's factors: a minus sign makes a number literal negative but negates
    // anything else after its divisions, and the divisions after `2x` or `2 *`
    // bind to the factor on the right (as isl reads `-x//4` and `2x//4`)
    for (text, plain) in [
        ("{ [10//4] }", "{ [2] }"),
        ("{ [-1//4] }", "{ [-1] }"),
        ("{ [- 1//4] }", "{ [-1] }"),
        ("{ [0-1//4] }", "{ [0] }"),
        ("{ [0 - -1//4] }", "{ [1] }"),
        ("{ [2*-2] }", "{ [-4] }"),
        ("{ [i, i*-2] }", "{ [i, -2i] }"),
    ] {
        same_set(text, plain);
    }
    for (text, plain) in [
        ("{ [x] -> [-x//4] }", "{ [x] -> [-floor(x/4)] }"),
        ("{ [x] -> [-(x)//4] }", "{ [x] -> [-floor(x/4)] }"),
        ("{ [x] -> [2x//4] }", "{ [x] -> [2floor(x/4)] }"),
        ("{ [x] -> [2*x//4] }", "{ [x] -> [2floor(x/4)] }"),
        ("{ [x] -> [-2x//4] }", "{ [x] -> [-2floor(x/4)] }"),
        ("{ [x] -> [2*3*x//4] }", "{ [x] -> [6floor(x/4)] }"),
        ("{ [x] -> [x*2//4] }", "{ [x] -> [floor(x/2)] }"),
        ("{ [x] -> [x/2//3] }", "{ [x] -> [floor(x/6)] }"),
        ("{ [x] -> [-x%3] }", "{ [x] -> [-(x mod 3)] }"),
        ("{ [x] -> [-x mod 3] }", "{ [x] -> [-(x mod 3)] }"),
        ("{ [x] -> [2*x%3] }", "{ [x] -> [2(x mod 3)] }"),
        ("{ [x] -> [2 x mod 5] }", "{ [x] -> [2(x mod 5)] }"),
        ("{ [x] -> [4 - -x//3] }", "{ [x] -> [4 + floor(x/3)] }"),
        ("{ [x] -> [x // 2 * 3] }", "{ [x] -> [3floor(x/2)] }"),
    ] {
        same_map(text, plain);
    }
    // a long chain of numbers is read in a loop, not by recursion
    let chain = format!("{{ [x] : {}x >= 0 }}", "1 * ".repeat(10_000));
    same_set(&chain, "{ [x] : x >= 0 }");
    let minus = format!("{{ [x] : {}x >= 0 }}", "- ".repeat(10_000));
    same_set(&minus, "{ [x] : x >= 0 }");
}

#[test]
fn maps_with_expressions_in_tuples() {
    let m: Map = "{ A[i] -> B[i + 1, 2i] : 0 <= i < 3 }".parse().unwrap();
    let got = map_points(&m, &PBox::new(vec![], -1, 6));
    let want: BTreeSet<Vec<i64>> = (0..3).map(|i| vec![i, i + 1, 2 * i]).collect();
    assert_eq!(got, want);
    let again: Map = m.to_string().parse().unwrap();
    assert!(again.plain_is_equal(&m), "{m} vs {again}");
    // isl prints fixed dimensions as `name = value`
    let f: Set = "[N] -> { [x0, x1 = 1 - N - 3x0] : 0 <= x0 <= 2 }"
        .parse()
        .unwrap();
    assert_eq!(
        pts(&f, &[1], -8, 4),
        filter(2, -8, 4, |p| (0..=2).contains(&p[0]) && p[1] == -3 * p[0])
    );
    // a repeated name in a tuple is an equality; a parameter in a tuple is too
    let d: Set = "[N] -> { [i, i, N] }".parse().unwrap();
    assert_eq!(
        pts(&d, &[2], -1, 3),
        filter(3, -1, 3, |p| p[0] == p[1] && p[2] == 2)
    );
}

#[test]
fn inlined_outputs_that_depend_on_each_other() {
    // found by the isl differential: after reversal the second output was printed
    // in terms of the first output's name, which the tuple had replaced
    for text in [
        "{ A[i0, i1] -> B[o0] : i0 = -o0 - 5 and i1 = o0 + 3 }",
        "{ A[i0, i1] -> B[o0] : i0 = -3o0 - 5 and i1 = 3o0 + 3 }",
    ] {
        let m: Map = text.parse().unwrap();
        let r = m.reverse();
        let printed = r.to_string();
        let back: Map = printed
            .parse()
            .unwrap_or_else(|e| panic!("{printed} does not parse: {e}"));
        assert!(back.plain_is_equal(&r), "{printed}");
        let pts = map_points(&back, &PBox::new(vec![], -12, 12));
        let want = map_points(&r, &PBox::new(vec![], -12, 12));
        assert_eq!(pts, want);
        assert!(!pts.is_empty());
    }
    let r: Map = "{ A[i0, i1] -> B[o0] : i0 = -o0 - 5 and i1 = o0 + 3 }"
        .parse::<Map>()
        .unwrap()
        .reverse();
    assert_eq!(r.to_string(), "{ B[o0] -> A[-o0 - 5, o0 + 3] }");
}

#[test]
fn unions_across_spaces() {
    let u: UnionSet = "{ A[i] : 0 <= i < 3; B[i, j] : i = j and 0 <= i < 2; A[i] : i = 7 }"
        .parse()
        .unwrap();
    assert_eq!(u.members().len(), 2);
    let a = &u.members()[0];
    assert_eq!(
        pts(a, &[], -1, 8),
        filter(1, -1, 8, |p| (0..3).contains(&p[0]) || p[0] == 7)
    );
    let back: UnionSet = u.to_string().parse().unwrap();
    assert!(back.plain_is_equal(&u), "{u} vs {back}");
    let e: UnionSet = "{ }".parse().unwrap();
    assert!(e.members().is_empty());
    assert_eq!(e.to_string(), "{ }");
    let p: UnionSet = "[N] -> { }".parse().unwrap();
    assert_eq!(p.to_string(), "[N] -> { }");
}

#[test]
fn operators_and_sugar() {
    type Case = (&'static str, fn(&[i64]) -> bool);
    let cases: &[Case] = &[
        ("{ [i] : i mod 3 = 1 }", |p| p[0].rem_euclid(3) == 1),
        ("{ [i] : i % 3 = 2 }", |p| p[0].rem_euclid(3) == 2),
        ("{ [i] : floor(i / 4) = 1 }", |p| {
            Integer::div_floor(&p[0], &4) == 1
        }),
        ("{ [i] : [i / 4] = -1 }", |p| {
            Integer::div_floor(&p[0], &4) == -1
        }),
        ("{ [i] : ceil(i / 3) = 1 }", |p| {
            Integer::div_ceil(&p[0], &3) == 1
        }),
        ("{ [i] : floor(i / -2) = 1 }", |p| {
            Integer::div_floor(&p[0], &-2) == 1
        }),
        ("{ [i, j] : i <= min(j, 3) }", |p| p[0] <= p[1].min(3)),
        ("{ [i, j] : max(i, j) < 2 }", |p| p[0].max(p[1]) < 2),
        ("{ [i, j] : 0 <= i, j < 3 }", |p| {
            (0..3).contains(&p[0]) && (0..3).contains(&p[1])
        }),
        ("{ [i, j] : i < j or i > j + 2 }", |p| {
            p[0] < p[1] || p[0] > p[1] + 2
        }),
        ("{ [i, j] : not (i = j) }", |p| p[0] != p[1]),
        ("{ [i, j] : i != j && i >= 0 }", |p| {
            p[0] != p[1] && p[0] >= 0
        }),
        ("{ [i, j] : i > 0 implies j > 0 }", |p| {
            p[0] <= 0 || p[1] > 0
        }),
        // keywords in any letter case, and isl's other spellings of and/or
        ("{ [i, j] : FALSE or (i = j AND True) }", |p| p[0] == p[1]),
        ("{ [i, j] : i > 0 /\\ NOT j > 0 \\/ i = -1 }", |p| {
            (p[0] > 0 && p[1] <= 0) || p[0] == -1
        }),
        ("{ [i, j] : EXISTS (e : i = 2e) Or j = MAX(i, 1) }", |p| {
            p[0].rem_euclid(2) == 0 || p[1] == p[0].max(1)
        }),
        ("{ [i, j] : i MOD 2 = 0 and TRUE }", |p| {
            p[0].rem_euclid(2) == 0
        }),
        ("{ [i, j] : true }", |_| true),
        ("{ [i, j] : false }", |_| false),
        ("{ [i, j] : 2i + 3(j - 1) = 0 }", |p| {
            2 * p[0] + 3 * (p[1] - 1) == 0
        }),
        ("{ [i, j] : -2i = j * 2 }", |p| -2 * p[0] == p[1] * 2),
        ("{ [i, j] : exists (e = floor(i / 2) : j = e) }", |p| {
            p[1] == Integer::div_floor(&p[0], &2)
        }),
        ("{ [i, j] : exists e, f : i = 2e and j = 3f }", |p| {
            p[0] % 2 == 0 && p[1] % 3 == 0
        }),
        ("{ [i, j] : not exists e : i + j = 2e }", |p| {
            (p[0] + p[1]) % 2 != 0
        }),
        (
            "{ [i, j] : (i + j) mod 2 = 0 and (i >= 0 or j >= 0) }",
            |p| (p[0] + p[1]).rem_euclid(2) == 0 && (p[0] >= 0 || p[1] >= 0),
        ),
        ("{ [i', j_2] : i' = j_2 }  # a comment", |p| p[0] == p[1]),
    ];
    for (text, f) in cases {
        let s = set(text);
        assert_eq!(
            pts(&s, &[], -6, 6),
            filter(2usize.min(s.space().n_out()), -6, 6, f),
            "{text}"
        );
        let back = round_trip(&s);
        assert_eq!(
            pts(&back, &[], -6, 6),
            pts(&s, &[], -6, 6),
            "{text} printed as {s}"
        );
    }
}

#[test]
fn nested_tuples_parse_and_print() {
    let s: Set = "{ [A[i] -> B[j]] : 0 <= i < j < 3 }".parse().unwrap();
    match &s.space().range_tuple().body {
        TupleBody::Nested(a, b) => {
            assert_eq!(a.name.as_deref(), Some("A"));
            assert_eq!(b.name.as_deref(), Some("B"));
        }
        other => panic!("not nested: {other:?}"),
    }
    assert_eq!(s.to_string(), "{ [A[i] -> B[j]] : i < j <= 2 and i >= 0 }");
    round_trip(&s);
    // a floor in brackets is not a nested tuple
    let f = set("[N] -> { [[N / 2]] }");
    assert_eq!(f.space().n_out(), 1);
}

#[test]
fn parse_errors_have_positions_and_never_panic() {
    let big_line = format!("{{ [i] : i = {}1 }}", "1 + ".repeat(2_500_000));
    let deep = format!("{{ [i] : {}i = 0{} }}", "(".repeat(5000), ")".repeat(5000));
    let deep_not = format!("{{ [i] : {} i = 0 }}", "not ".repeat(5000));
    let deep_tuple = format!("{{ {}i{} }}", "[".repeat(5000), "]".repeat(5000));
    let long_num = format!("{{ [i] : i = {} }}", "9".repeat(20_000));
    let malformed: Vec<(&str, &str)> = vec![
        ("{ [i] : i >= 0", "'}'"),
        ("[N] -> { [i] : i < M }", "unknown variable 'M'"),
        ("{ [i] : i >= 0 @ }", "unexpected character"),
        ("{ [i] : floor(i/0) = 1 }", "division by zero"),
        ("{ [i] : i mod 0 = 1 }", "positive"),
        ("{ [i] : i * i >= 0 }", "not affine"),
        ("{ [i] : i }", "comparison"),
        ("{ [i] : i >= }", "expression"),
        ("{ [i] -> }", "'['"),
        ("[N -> { [i] }", "']'"),
        ("{ [and] }", "keyword"),
        ("{ [Max] }", "keyword"),
        ("{ [x] : exists (RAT : x = RAT) }", "keyword"),
        ("{ [i] : exists : i = 0 }", "existential"),
        ("{ [i] : i / x = 0 }", "integer divisor"),
        ("{ [i] } extra", "after the end"),
        ("{ [i]; [i] -> [j] }", "mix"),
        ("[N, N] -> { [i] }", "twice"),
        ("", "'{'"),
        ("{ [i] : i = 1 ", "'}'"),
        (
            "{ [i] : 0 <= i <= 10 and not exists e : e > i }",
            "complement",
        ),
        ("{ [i] : min(i) < 3 and ", "expression"),
    ];
    for (text, want) in &malformed {
        let e = parse_object(text).expect_err(text);
        let msg = e.to_string();
        assert!(
            msg.contains(want),
            "{text:?}: message {msg:?} lacks {want:?}"
        );
        if !matches!(e, Error::Unsupported(_) | Error::SpaceMismatch(_)) {
            assert!(matches!(e, Error::Parse { line: 1, .. }), "{text:?}: {e:?}");
        }
    }
    for text in [&big_line, &deep, &deep_not, &deep_tuple, &long_num] {
        let r = parse_object(text);
        if text.len() > 1_000_000 {
            // a long but shallow expression is fine
            assert!(r.is_ok(), "long line failed: {:?}", r.err());
        } else {
            let e = r.expect_err("deep nesting must be refused");
            assert!(matches!(e, Error::Parse { .. }), "{e:?}");
        }
    }
    // positions: line and column of the offending token
    let e = parse_object("{ [i] :\n  i >= 0 and\n  j < 3 }").unwrap_err();
    assert_eq!(
        e,
        Error::Parse {
            line: 3,
            column: 3,
            message: "unknown variable 'j'".into()
        }
    );
}

// ----- random formulas: the parser's meaning against a direct evaluator -----------

#[derive(Debug, Clone)]
enum E {
    Var(usize),
    Const(i64),
    Add(std::boxed::Box<E>, std::boxed::Box<E>),
    Mul(i64, std::boxed::Box<E>),
    Floor(std::boxed::Box<E>, i64),
    Mod(std::boxed::Box<E>, i64),
    Min(std::boxed::Box<E>, std::boxed::Box<E>),
    Max(std::boxed::Box<E>, std::boxed::Box<E>),
}

#[derive(Debug, Clone)]
enum Fm {
    Cmp(E, &'static str, E),
    Chain(E, &'static str, E, &'static str, E),
    And(std::boxed::Box<Fm>, std::boxed::Box<Fm>),
    Or(std::boxed::Box<Fm>, std::boxed::Box<Fm>),
    Not(std::boxed::Box<Fm>),
    Implies(std::boxed::Box<Fm>, std::boxed::Box<Fm>),
    /// exists e : lin = m·e (+ r)
    Stride(E, i64, i64),
}

const NAMES: [&str; 3] = ["N", "i", "j"];

fn e_text(e: &E) -> String {
    match e {
        E::Var(v) => NAMES[*v].to_string(),
        E::Const(c) => c.to_string(),
        E::Add(a, b) => format!("({} + {})", e_text(a), e_text(b)),
        E::Mul(k, a) => format!("{k}*({})", e_text(a)),
        E::Floor(a, d) => format!("floor(({})/{d})", e_text(a)),
        E::Mod(a, m) => format!("({}) mod {m}", e_text(a)),
        E::Min(a, b) => format!("min({}, {})", e_text(a), e_text(b)),
        E::Max(a, b) => format!("max({}, {})", e_text(a), e_text(b)),
    }
}

fn e_eval(e: &E, v: &[i64]) -> i64 {
    match e {
        E::Var(k) => v[*k],
        E::Const(c) => *c,
        E::Add(a, b) => e_eval(a, v) + e_eval(b, v),
        E::Mul(k, a) => k * e_eval(a, v),
        E::Floor(a, d) => Integer::div_floor(&e_eval(a, v), d),
        E::Mod(a, m) => e_eval(a, v).rem_euclid(*m),
        E::Min(a, b) => e_eval(a, v).min(e_eval(b, v)),
        E::Max(a, b) => e_eval(a, v).max(e_eval(b, v)),
    }
}

fn cmp_eval(a: i64, op: &str, b: i64) -> bool {
    match op {
        "<" => a < b,
        "<=" => a <= b,
        ">" => a > b,
        ">=" => a >= b,
        "=" => a == b,
        _ => a != b,
    }
}

fn f_text(f: &Fm) -> String {
    match f {
        Fm::Cmp(a, op, b) => format!("{} {op} {}", e_text(a), e_text(b)),
        Fm::Chain(a, o1, b, o2, c) => {
            format!("{} {o1} {} {o2} {}", e_text(a), e_text(b), e_text(c))
        }
        Fm::And(a, b) => format!("({}) and ({})", f_text(a), f_text(b)),
        Fm::Or(a, b) => format!("({}) or ({})", f_text(a), f_text(b)),
        Fm::Not(a) => format!("not ({})", f_text(a)),
        Fm::Implies(a, b) => format!("({}) implies ({})", f_text(a), f_text(b)),
        Fm::Stride(a, m, r) => format!("exists e : {} = {m}e + {r}", e_text(a)),
    }
}

fn f_eval(f: &Fm, v: &[i64]) -> bool {
    match f {
        Fm::Cmp(a, op, b) => cmp_eval(e_eval(a, v), op, e_eval(b, v)),
        Fm::Chain(a, o1, b, o2, c) => {
            let (x, y, z) = (e_eval(a, v), e_eval(b, v), e_eval(c, v));
            cmp_eval(x, o1, y) && cmp_eval(y, o2, z)
        }
        Fm::And(a, b) => f_eval(a, v) && f_eval(b, v),
        Fm::Or(a, b) => f_eval(a, v) || f_eval(b, v),
        Fm::Not(a) => !f_eval(a, v),
        Fm::Implies(a, b) => !f_eval(a, v) || f_eval(b, v),
        Fm::Stride(a, m, r) => (e_eval(a, v) - r).rem_euclid(*m) == 0,
    }
}

fn arb_e() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![(0usize..3).prop_map(E::Var), (-3i64..=3).prop_map(E::Const),];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Add(a.into(), b.into())),
            (-3i64..=3, inner.clone()).prop_map(|(k, a)| E::Mul(k, a.into())),
            (inner.clone(), prop_oneof![2i64..=4, -3i64..=-2])
                .prop_map(|(a, d)| E::Floor(a.into(), d)),
            (inner.clone(), 2i64..=3).prop_map(|(a, m)| E::Mod(a.into(), m)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Min(a.into(), b.into())),
            (inner.clone(), inner).prop_map(|(a, b)| E::Max(a.into(), b.into())),
        ]
    })
}

fn arb_op() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("<"),
        Just("<="),
        Just(">"),
        Just(">="),
        Just("="),
        Just("!=")
    ]
}

fn arb_f() -> impl Strategy<Value = Fm> {
    let leaf = prop_oneof![
        4 => (arb_e(), arb_op(), arb_e()).prop_map(|(a, o, b)| Fm::Cmp(a, o, b)),
        1 => (arb_e(), prop_oneof![Just("<"), Just("<=")], arb_e(), prop_oneof![Just("<"), Just("<=")], arb_e())
            .prop_map(|(a, o1, b, o2, c)| Fm::Chain(a, o1, b, o2, c)),
        1 => (arb_e(), 2i64..=4, 0i64..=2).prop_map(|(a, m, r)| Fm::Stride(a, m, r)),
    ];
    leaf.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Fm::And(a.into(), b.into())),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Fm::Or(a.into(), b.into())),
            inner.clone().prop_map(|a| Fm::Not(a.into())),
            (inner.clone(), inner).prop_map(|(a, b)| Fm::Implies(a.into(), b.into())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The parsed set has exactly the points where the formula holds, and its
    /// printed form parses back to an equal set with the same points.
    #[test]
    fn random_formulas_mean_what_they_say(f in arb_f(), n in -2i64..=3) {
        let text = format!("[N] -> {{ [i, j] : {} }}", f_text(&f));
        let s = match text.parse::<Set>() {
            Ok(s) => s,
            Err(Error::Budget(_)) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("{text}: {e}"))),
        };
        let want = filter(2, -4, 4, |p| f_eval(&f, &[n, p[0], p[1]]));
        let got = pts(&s, &[n], -4, 4);
        prop_assert_eq!(&got, &want, "{}\nparsed as {}", text, s);
        let printed = s.to_string();
        let back: Set = printed.parse().map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
        // The same set (exactly, by the set algebra). Not always the same rows:
        // simplification is not idempotent on some unions from negations (the
        // reparsed text can reveal more equalities), which the committed seed shows.
        prop_assert!(back.plain_is_equal(&s) || back.is_equal(&s).unwrap_or(false), "{}\nreprinted {}", printed, back);
        prop_assert_eq!(pts(&back, &[n], -4, 4), want);
    }

    /// The same formulas as relations `[i] -> [j]`.
    #[test]
    fn random_relations_round_trip(f in arb_f()) {
        let text = format!("[N] -> {{ A[i] -> B[j] : {} }}", f_text(&f));
        let m = match text.parse::<Map>() {
            Ok(m) => m,
            Err(Error::Budget(_)) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("{text}: {e}"))),
        };
        let printed = m.to_string();
        let back: Map = printed.parse().map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
        prop_assert!(back.plain_is_equal(&m) || back.is_equal(&m).unwrap_or(false), "{}\nreprinted {}", printed, back);
        let b = PBox::new(vec![1], -3, 3);
        prop_assert_eq!(map_points(&back, &b), map_points(&m, &b));
        let want = filter(2, -3, 3, |p| f_eval(&f, &[1, p[0], p[1]]));
        prop_assert_eq!(map_points(&m, &b), want);
    }
}

// ----- long conjunctions: linear collection, same meaning as a short equivalent -----

/// The `t`-th of a cycle of constraints over `[i, j]`, each implied by the short
/// form below (`0 <= i <= 20`, `0 <= j <= 30`, `i + j <= 40`, `j - i <= 25`) and
/// the tightest of its kind when `t < 4`.
fn long_constraint(t: usize) -> String {
    let slack = (t * 7919) % 1000;
    let slack = if t < 4 { 0 } else { slack };
    match t % 4 {
        0 => format!("i >= -{slack} and i <= 20 + {slack}"),
        1 => format!("-{slack} <= j <= 30 + {slack}"),
        2 => format!("i + j <= 40 + {slack}"),
        _ => format!("{} + {slack} >= j - i", 25),
    }
}

#[test]
fn long_conjunction_parses_to_all_its_constraints() {
    // 25,000 atoms of the first two kinds and 25,000 of the other two
    let atoms = |t: usize| if t % 4 < 2 { 2 } else { 1 };
    let mut parts = Vec::new();
    let mut n_atoms = 0;
    let mut t = 0;
    while n_atoms < 50_000 {
        parts.push(long_constraint(t));
        n_atoms += atoms(t);
        t += 1;
    }
    assert_eq!(n_atoms, 50_000);
    let text = format!("{{ [i, j] : {} }}", parts.join(" and "));
    // as built: one part, one disjunct, every constraint as a row, in text order
    let (params, built) = parse_parts(&text).unwrap();
    assert!(params.is_empty());
    assert_eq!(built.len(), 1);
    assert_eq!(built[0].1.len(), 1);
    let c = &built[0].1[0];
    assert_eq!(c.equalities().len(), 0);
    assert_eq!(c.inequalities().len(), 50_000);
    assert_eq!(c.inequalities()[0], vec![Int::ZERO, Int::ONE, Int::ZERO]); // i >= 0
    // simplified: the same set as the short form
    let long = set(&text);
    let short = set("{ [i, j] : 0 <= i <= 20 and 0 <= j <= 30 and i + j <= 40 and j - i <= 25 }");
    assert!(long.plain_is_equal(&short), "{long}");
    assert_eq!(pts(&long, &[], -2, 42), pts(&short, &[], -2, 42));
    assert_eq!(long.to_string(), short.to_string());
}

#[test]
fn long_conjunction_around_a_disjunction_keeps_the_atom_order() {
    // `C1 and (i = 0 or i = 1) and C2 ... Cn`: two disjuncts, each with every atom,
    // in text order (the disjunction's equality in second place)
    let n = 2_000;
    let rest: Vec<String> = (0..n).map(|t| format!("j <= {}", 100 + t)).collect();
    let text = format!(
        "{{ [i, j] : j >= 0 and (i = 0 or i = 1) and {} }}",
        rest.join(" and ")
    );
    let (_, built) = parse_parts(&text).unwrap();
    let disjuncts = &built[0].1;
    assert_eq!(disjuncts.len(), 2);
    for (k, d) in disjuncts.iter().enumerate() {
        assert_eq!(d.equalities().len(), 1);
        assert_eq!(d.equalities()[0][0], Int::from(-(k as i64)), "i = {k}");
        assert_eq!(d.inequalities().len(), n + 1);
        assert_eq!(d.inequalities()[1][0], Int::from(100));
        assert_eq!(d.inequalities()[n][0], Int::from(100 + n as i64 - 1));
    }
    let s = set(&text);
    assert_eq!(
        pts(&s, &[], -1, 3),
        filter(2, -1, 3, |p| (p[0] == 0 || p[0] == 1) && p[1] >= 0)
    );
    // a negated long conjunction is a long disjunction (one atom each): refused
    // past the budget with the usual message
    let many: Vec<String> = (0..MAX_DISJUNCTS + 1)
        .map(|t| format!("j <= {t}"))
        .collect();
    let neg = format!("{{ [i, j] : not ({}) }}", many.join(" and "));
    match parse_object(&neg) {
        Err(e) => assert_eq!(
            e.to_string(),
            Error::Budget(format!(
                "the formula expands to more than {MAX_DISJUNCTS} disjuncts"
            ))
            .to_string()
        ),
        Ok(_) => panic!("a negated conjunction of {} atoms parsed", many.len()),
    }
}

#[test]
fn backtracking_forgets_only_the_divisions_it_made() {
    // a parenthesised group is first tried as a formula, then re-read as an
    // expression; divisions made by the failed attempt are forgotten, earlier ones
    // stay shared
    let s = set(
        "{ [i] : floor(i/2) >= 0 and (floor(i/2) + floor(i/3)) <= 4 and \
                 (floor(i/3) - 1) >= floor(i/2) - 3 }",
    );
    let want = filter(1, -5, 30, |p| {
        let (a, b) = (Integer::div_floor(&p[0], &2), Integer::div_floor(&p[0], &3));
        a >= 0 && a + b <= 4 && b + 2 >= a
    });
    assert_eq!(pts(&s, &[], -5, 30), want);
    let (_, built) = parse_parts(
        "{ [i] : floor(i/2) >= 0 and (floor(i/2) + floor(i/3)) <= 4 and \
         (floor(i/3) - 1) >= floor(i/2) - 3 }",
    )
    .unwrap();
    // two distinct divisions, each a local once
    assert_eq!(built[0].1[0].n_local(), 2);
}
