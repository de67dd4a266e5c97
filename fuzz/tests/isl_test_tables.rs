//! isl's own parser tests, run against our parser.
//!
//! The strings come from isl's test file `isl_test.c` (isl's git master of 2022
//! onwards, the version with `//` and `^` in the table): the pairs of its table
//! `parse_map_equal_tests`, the two further pairs `test_parse` checks equal, and
//! the set and map strings `test_parse`, `test_parse_map`, `test_parse_pma` (its
//! map) and `test_read` feed to the parser. Quasi-polynomials, piecewise affine
//! and multi expressions, values and schedules are left out: only sets and maps
//! are ours. `isl_test.c` tests no set or map string for rejection (its
//! `*_fail_tests` are multi piecewise affine expressions), and we read every
//! string of these tables, so there is no list of strings we refuse.
//!
//! Checked for every string: we parse it, and our printed result read back by
//! isl is equal (isl `is_equal`) to isl's own reading of the string (for the few
//! strings the isl we link reads wrongly, [`ISL_0_25_READS_OTHERWISE`], to isl's
//! reading of the other string of the pair). For every pair, our two parses are
//! also equal by our own `is_equal`.

mod common;

use common::{Ours, check, check_against};
use presburger_fuzz::isl::Ctx;

/// `parse_map_equal_tests` of `isl_test.c`: pairs that must be the same set or map.
const PARSE_MAP_EQUAL_TESTS: &[(&str, &str)] = &[
    (
        "{ [x,y]  : [([x/2]+y)/3] >= 1 }",
        "{ [x, y] : 2y >= 6 - x }",
    ),
    (
        "{ [x,y] : x <= min(y, 2*y+3) }",
        "{ [x,y] : x <= y, 2*y + 3 }",
    ),
    (
        "{ [x,y] : x >= min(y, 2*y+3) }",
        "{ [x, y] : (y <= x and y >= -3) or (2y <= -3 + x and y <= -4) }",
    ),
    (
        "[n] -> { [c1] : c1>=0 and c1<=floord(n-4,3) }",
        "[n] -> { [c1] : c1 >= 0 and 3c1 <= -4 + n }",
    ),
    (
        "{ [i,j] -> [i] : i < j; [i,j] -> [j] : j <= i }",
        "{ [i,j] -> [min(i,j)] }",
    ),
    ("{ [i,j] : i != j }", "{ [i,j] : i < j or i > j }"),
    ("{ [i,j] : (i+1)*2 >= j }", "{ [i, j] : j <= 2 + 2i }"),
    (
        "{ [i] -> [i > 0 ? 4 : 5] }",
        "{ [i] -> [5] : i <= 0; [i] -> [4] : i >= 1 }",
    ),
    (
        "[N=2,M] -> { [i=[(M+N)/4]] }",
        "[N, M] -> { [i] : N = 2 and 4i <= 2 + M and 4i >= -1 + M }",
    ),
    ("{ [x] : x >= 0 }", "{ [x] : x-0 >= 0 }"),
    ("{ [i] : ((i > 10)) }", "{ [i] : i >= 11 }"),
    ("{ [i] -> [0] }", "{ [i] -> [0 * i] }"),
    ("{ [a] -> [b] : (not false) }", "{ [a] -> [b] : true }"),
    ("{ [i] : i/2 <= 5 }", "{ [i] : i <= 10 }"),
    ("{Sym=[n] [i] : i <= n }", "[n] -> { [i] : i <= n }"),
    ("{ [*] }", "{ [a] }"),
    ("{ [i] : 2*floor(i/2) = i }", "{ [i] : exists a : i = 2 a }"),
    (
        "{ [a] -> [b] : a = 5 implies b = 5 }",
        "{ [a] -> [b] : a != 5 or b = 5 }",
    ),
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
        "{ [a] -> [(a * 2) : a >= 0; 0 : a < 0] }",
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
    (
        "{ [a,b] -> [i,j] : a,b << i,j }",
        "{ [a,b] -> [i,j] : a < i or (a = i and b < j) }",
    ),
    (
        "{ [a,b] -> [i,j] : a,b <<= i,j }",
        "{ [a,b] -> [i,j] : a < i or (a = i and b <= j) }",
    ),
    (
        "{ [a,b] -> [i,j] : a,b >> i,j }",
        "{ [a,b] -> [i,j] : a > i or (a = i and b > j) }",
    ),
    (
        "{ [a,b] -> [i,j] : a,b >>= i,j }",
        "{ [a,b] -> [i,j] : a > i or (a = i and b >= j) }",
    ),
    (
        "{ [n] -> [i] : exists (a, b, c: 8b <= i - 32a and \
         8b >= -7 + i - 32 a and b >= 0 and b <= 3 and \
         8c < n - 32a and i < n and c >= 0 and \
         c <= 3 and c >= -4a) }",
        "{ [n] -> [i] : 0 <= i < n }",
    ),
    (
        "{ [x] -> [] : exists (a, b: 0 <= a <= 1 and 0 <= b <= 3 and \
         2b <= x - 8a and 2b >= -1 + x - 8a) }",
        "{ [x] -> [] : 0 <= x <= 15 }",
    ),
    ("{ [x] -> [x] : }", "{ [x] -> [x] }"),
    ("{ [x=4:5] -> [x + 1] }", "{ [x] -> [x + 1] : 4 <= x <= 5 }"),
    ("{ [x=4:5] -> [x + 1 : x + 1] }", "{ [x=4:5] -> [x + 1] }"),
    (
        "{ [x] -> [x - 1 : x + 1] }",
        "{ [x] -> [y] : x - 1 <= y <= x + 1 }",
    ),
    ("{ [x=4:] -> [x + 1] }", "{ [x] -> [x + 1] : 4 <= x }"),
    ("{ [x=:5] -> [x + 1] }", "{ [x] -> [x + 1] : x <= 5 }"),
    ("{ [x=:] -> [x + 1] }", "{ [x] -> [x + 1] }"),
    ("{ [:] -> [:] }", "{ [x] -> [y] }"),
    ("{ [x, x//4] }", "{ [x, floor(x/4)] }"),
    ("{ [10//4] }", "{ [2] }"),
    ("{ [-1//4] }", "{ [-1] }"),
    ("{ [0-1//4] }", "{ [0] }"),
    ("{ [- 1//4] }", "{ [-1] }"),
    ("{ [0 - 1//4] }", "{ [0] }"),
    ("{ [0--1//4] }", "{ [1] }"),
    ("{ [0 - -1//4] }", "{ [1] }"),
    ("{ [-2^2:2^2-1] }", "{ [-4:3] }"),
    ("{ [2*-2] }", "{ [-4] }"),
    ("{ [i,i*-2] }", "{ [i,-2i] }"),
    (
        "{ [a = 0:3, b = 0:15, c = 0:15, d] : \
         256*floor((-1 - (256a + 16b + c))/256) >= d }",
        "{ [a = 0:3, b = 0:15, c = 0:15, d] : 256a <= -256 - d }",
    ),
    (
        "[a, b, c, d] -> { [max(a,b,c,d)] }",
        "[a, b, c, d] -> { [a] : b < a and c < a and d < a; \
         [b] : b >= a and c < b and d < b; \
         [c] : c >= a and c >= b and d < c; \
         [d] : d >= a and d >= b and d >= c }",
    ),
    (
        "[a, b, c, d] -> { [min(a,b,c,d)] }",
        "[a, b, c, d] -> { [a] : b >= a and c >= a and d >= a; \
         [b] : b < a and c >= b and d >= b; \
         [c] : c < b and c < a and d >= c; \
         [d] : d < c and d < b and d < a }",
    ),
];

/// The two further pairs `test_parse` checks equal.
const TEST_PARSE_EQUAL: &[(&str, &str)] = &[
    (
        "{[new,old] -> [new+1-2*[(new+1)/2],old+1-2*[(old+1)/2]]}",
        "{ [new, old] -> [o0, o1] : \
         exists (e0 = [(-1 - new + o0)/2], e1 = [(-1 - old + o1)/2]: \
         2e0 = -1 - new + o0 and 2e1 = -1 - old + o1 and o0 >= 0 and \
         o0 <= 1 and o1 >= 0 and o1 <= 1) }",
    ),
    (
        "{[new,old] -> [new+1-2*[(new+1)/2],old+1-2*[(old+1)/2]]}",
        "{[new,old] -> [(new+1)%2,(old+1)%2]}",
    ),
];

/// The set and map strings `test_parse` (directly and through `test_parse_map`
/// and `test_parse_pma`) and `test_read` give the parser, which isl accepts.
const TEST_PARSE_ACCEPTS: &[&str] = &[
    "{ [i] -> [-i] }",
    "{ A[i] -> L[([i/3])] }",
    "{[[s] -> A[i]] -> [[s+1] -> A[i]]}",
    "{ [p1, y1, y2] -> [2, y1, y2] : p1 = 1 && (y1 <= y2 || y2 = 0) }",
    "{ S1[i] -> [([i/10]),i%10] : 0 <= i <= 45 }",
    // test_parse_pma reads it as a map
    "{ [a, a] -> [i1 = a + 1] }",
    // test_read
    "{[y]: Exists ( alpha : 2alpha = y)}",
];

/// Strings of the table that the isl we link (0.25) reads otherwise than the
/// table says, because of bugs fixed in later isl versions (the table entries came
/// with the fixes): 0.25 reads `0 - 1//4` as `(0 - 1)//4` and `-2^2` as `(-2)^2`.
/// Our reading of these is checked against isl's reading of the other string of
/// their pair instead.
const ISL_0_25_READS_OTHERWISE: &[&str] = &[
    "{ [0-1//4] }",
    "{ [0 - 1//4] }",
    "{ [0--1//4] }",
    "{ [0 - -1//4] }",
    "{ [-2^2:2^2-1] }",
];

/// Checks both strings of a pair, and that our two readings are equal.
fn check_pair(ctx: &Ctx, a: &str, b: &str) -> Result<(), String> {
    let reference = |t: &str, other: &str| {
        if ISL_0_25_READS_OTHERWISE.contains(&t) {
            other.to_string()
        } else {
            t.to_string()
        }
    };
    let x = check_against(ctx, a, &reference(a, b));
    let y = check_against(ctx, b, &reference(b, a));
    let equal = match (x?, y?) {
        (Ours::Set(x), Ours::Set(y)) => x.is_equal(&y),
        (Ours::Map(x), Ours::Map(y)) => x.is_equal(&y),
        _ => return Err(format!("{a} and {b}: one is a set, the other a map")),
    };
    match equal {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!("we read {a} and {b} differently")),
        Err(e) => Err(format!("{a} vs {b}: {e}")),
    }
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
fn parse_map_equal_tests() {
    for text in ISL_0_25_READS_OTHERWISE {
        assert!(
            PARSE_MAP_EQUAL_TESTS.iter().any(|(a, _)| a == text),
            "{text} is not a first string of the table"
        );
    }
    let ctx = Ctx::new();
    let failures = PARSE_MAP_EQUAL_TESTS
        .iter()
        .filter_map(|(a, b)| check_pair(&ctx, a, b).err())
        .collect();
    report(failures);
}

#[test]
fn test_parse_equal_pairs() {
    let ctx = Ctx::new();
    let failures = TEST_PARSE_EQUAL
        .iter()
        .filter_map(|(a, b)| check_pair(&ctx, a, b).err())
        .collect();
    report(failures);
}

#[test]
fn test_parse_accepts() {
    let ctx = Ctx::new();
    let failures = TEST_PARSE_ACCEPTS
        .iter()
        .filter_map(|text| check(&ctx, text).err())
        .collect();
    report(failures);
}
