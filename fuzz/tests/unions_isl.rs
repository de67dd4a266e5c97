//! The union operations of `presburger` (`src/ops/unions.rs`) against isl's on the same
//! texts: `lexmin` and `lexmax` of union sets and `deltas` of union maps
//! (unique results: compared by isl's equality on our printed result), and
//! `gist` of union sets and maps (not unique: our result and isl's must agree
//! inside the context; that members without a context are dropped, as isl
//! does, is a unit test of `presburger`).

use presburger::{UnionMap, UnionSet};
use presburger_fuzz::isl::Ctx;

/// Union sets whose members all have a lexicographic minimum and maximum.
const BOUNDED: &[&str] = &[
    "{ A[i] : 2 <= i <= 5; B[i, j] : 0 <= j <= i <= 3 and i + j >= 2 }",
    "{ A[i] : 0 <= i <= 9 and i mod 3 = 2; C[] }",
    "{ [i, j] : 0 <= i, j <= 4 and i + j = 5 or i = j = 7 }",
    "{ A[i] : 1 = 0; B[i] : 0 <= i <= 1 }",
    "{ S[i, j] : exists e : i = 2e + 1 and 0 <= j < i <= 8 }",
];

/// Union maps for `deltas`: maps within one space, maps between spaces.
const MAPS: &[&str] = &[
    "{ S[i, j] -> S[i + 1, j - 1]; S[i, j] -> T[i, j]; [i] -> [i + 2] }",
    "[N] -> { A[i] -> A[j] : 0 <= i < j < N; B[i] -> B[2i] : i >= 0 }",
    "{ A[i] -> A[i] : i mod 2 = 0; A[i] -> B[i] }",
];

/// (set, context) pairs for `gist`: members with and without a context,
/// and parameter contexts.
const GISTS: &[(&str, &str)] = &[
    (
        "[n] -> { A[i] : 0 <= i < n; B[i] : i >= 0 }",
        "[n] -> { A[i] : i >= 0 }",
    ),
    (
        "[n] -> { A[i] : 0 <= i < n and n > 0; B[i] : i = n and n > 0 }",
        "[n] -> { : n > 0 }",
    ),
    (
        "{ A[i, j] : 0 <= i <= 10 and 0 <= j <= i; B[i] : i > 3 }",
        "{ A[i, j] : i >= 0 and j >= 0; B[i] : i >= 0 }",
    ),
    ("{ A[i] : i mod 2 = 0 and i >= 0 }", "{ A[i] : i >= 0 }"),
];

const MAP_GISTS: &[(&str, &str)] = &[
    (
        "{ A[i] -> B[j] : 0 <= i <= 10 and j = i; C[i] -> C[i] }",
        "{ A[i] -> B[j] : 0 <= i <= 10 }",
    ),
    (
        "[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 and n >= 2 }",
        "[n] -> { S[i] -> S[j] : n >= 2 }",
    ),
];

fn isl_equal_sets(ctx: &Ctx, ours: &UnionSet, theirs_text: &str, what: &str) {
    let printed = ours.to_string();
    let back = ctx
        .union_set(&printed)
        .unwrap_or_else(|| panic!("isl rejects our {printed} ({what})"));
    let theirs = ctx.union_set(theirs_text).expect("isl's own text");
    assert_eq!(
        back.is_equal(&theirs),
        Some(true),
        "{what}: ours {printed}, isl {theirs_text}"
    );
}

#[test]
fn lexmin_lexmax_of_union_sets() {
    let ctx = Ctx::new();
    for text in BOUNDED {
        let ours: UnionSet = text.parse().unwrap();
        let isl = ctx.union_set(text).unwrap();
        let (min, max) = (isl.lexmin().unwrap(), isl.lexmax().unwrap());
        isl_equal_sets(
            &ctx,
            &ours.lexmin().unwrap(),
            &min.to_text(),
            &format!("lexmin {text}"),
        );
        isl_equal_sets(
            &ctx,
            &ours.lexmax().unwrap(),
            &max.to_text(),
            &format!("lexmax {text}"),
        );
    }
}

#[test]
fn deltas_of_union_maps() {
    let ctx = Ctx::new();
    for text in MAPS {
        let ours: UnionMap = text.parse().unwrap();
        let isl = ctx.union_map(text).unwrap().deltas().unwrap();
        isl_equal_sets(
            &ctx,
            &ours.deltas().unwrap(),
            &isl.to_text(),
            &format!("deltas {text}"),
        );
    }
}

#[test]
fn gists_agree_inside_the_context() {
    let ctx = Ctx::new();
    for (a, c) in GISTS {
        let ours = a
            .parse::<UnionSet>()
            .unwrap()
            .gist(&c.parse().unwrap())
            .unwrap();
        let isl_c = ctx.union_set(c).unwrap();
        let isl = ctx.union_set(a).unwrap().gist(&isl_c).unwrap();
        let printed = ours.to_string();
        let back = ctx.union_set(&printed).unwrap();
        // inside the context (a parameter context intersects every member)
        let (x, y) = if c.contains("{ :") {
            (back, isl)
        } else {
            (
                back.intersect(&isl_c).unwrap(),
                isl.intersect(&isl_c).unwrap(),
            )
        };
        assert_eq!(x.is_equal(&y), Some(true), "gist({a}, {c}): ours {printed}");
    }
    for (a, c) in MAP_GISTS {
        let ours = a
            .parse::<UnionMap>()
            .unwrap()
            .gist(&c.parse().unwrap())
            .unwrap();
        let isl_c = ctx.union_map(c).unwrap();
        let isl = ctx.union_map(a).unwrap().gist(&isl_c).unwrap();
        let printed = ours.to_string();
        let back = ctx.union_map(&printed).unwrap();
        let (x, y) = (
            back.intersect(&isl_c).unwrap(),
            isl.intersect(&isl_c).unwrap(),
        );
        assert_eq!(x.is_equal(&y), Some(true), "gist({a}, {c}): ours {printed}");
    }
}
