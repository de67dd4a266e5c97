//! isl's meaning of notation items: each text is read by isl and by us, our
//! result is printed and read back by isl, and the two must be equal sets
//! (or maps). Add a line here for every notation item we take over from isl.

mod common;

use common::check;
use presburger_fuzz::isl::Ctx;

/// Texts isl reads, each with the meaning isl gives it.
const TEXTS: &[&str] = &[
    // NaN, isl's undefined value: comparisons with it are false
    "{ [NaN] }",
    "{ [x] : x = NaN }",
    "{ [x] : x != NaN }",
    "{ [x] : x >= NaN }",
    "{ [x] : 0 <= NaN <= 3 }",
    "{ [x] : x < 3 or x = NaN }",
    "{ [x] : not (x = NaN) }",
    "{ [x] : NaN < x or x > 5 }",
    "{ [x] : x = max(x, NaN) }",
    "{ [x] : exists y : y = NaN }",
    "{ [x, NaN] : x > 0 }",
    "[n] -> { [x] : x <= n + NaN }",
    "[n] -> { [x] : x <= n or x >= n + NaN }",
    "{ [x] -> [NaN] }",
    "{ [x] -> [y] : y = x + NaN or y = x }",
    // floor division written `//`, `floord` and `ceild`
    "{ [i] : i // 2 = 1 }",
    "{ [i] : i //3 >= 1 and i <= 10 }",
    "{ [i] : floord(i, 2) = 1 }",
    "{ [i] : ceild(i, 2) = 1 }",
    "{ [i] : 2 * floord(i, 3) = i - 1 }",
    "{ [i] -> [floord(i, 4)] }",
    // a parameter with a value
    "[N = 2] -> { [i] : i < N }",
    "[N = -1, M] -> { [i] : N <= i < M }",
    // an empty condition
    "{ S[i] : }",
    // `Exists`
    "{ [i] : Exists j : i = 2j }",
    // ranges in tuples
    "{ [0:3] }",
    "{ [x = 4:5] }",
    "{ [x = :5] : x >= 3 }",
    "{ [x = 4:] }",
    "[n] -> { [i, 0:n] : 0 <= i < 3 }",
    "{ [i] -> [i:i + 2] }",
    // `/` outside a floor: rational expressions, denominators cleared
    "{ [i] : i/2 <= 5 }",
    "{ [i] : i/2 = 1 }",
    "{ [i] : i/2 < 3 }",
    "{ [i] : i/2 != 1 }",
    "{ [i] : 0 < i/2 < 2 }",
    "{ [i] : (i + 1)/2 >= 3 }",
    "{ [i] : 3i/2 >= 3 }",
    "{ [i] : i/3 + i/2 = 5 }",
    "{ [i] : exists j : i = 3j/2 }",
    "{ [i] : 2 * (i/2) = i }",
    "{ [i] : max(i/2, 1) <= 3 }",
    "[n] -> { [i] : i/2 + n/3 >= 1 }",
    "{ [i] -> [j] : j = i/2 }",
    "{ [i, j] -> [floor(i + j/2)] }",
    "{ [i, j] -> [floor((i + j)/2)] }",
    // lexicographic order between lists
    "{ [i, j] -> [k, l] : i, j << k, l }",
    "{ [i, j] -> [k, l] : i, j <<= k, l }",
    "{ [i, j] -> [k, l] : i, j >> k, l }",
    "{ [i, j] -> [k, l] : i, j >>= k, l }",
    "{ [i] -> [j] : i <<= j }",
    "{ [i] : i << 3 }",
    "{ [i, j] : i, j >>= 1, 2 and i <= 1 and j <= 3 }",
    "[n] -> { [i, j, k] : i, j, k << n, 0, n and 0 <= i, j, k <= 2 }",
    // conditional values `(e : c)` and `(c ? a : b)`
    "{ [i] -> [(i : i >= 0)] }",
    "{ [i] -> [(i >= 0 ? i : -i)] }",
    "{ [i, j] -> [(i > j ? i : j), (i : i > 0)] }",
    "[n] -> { [i] -> [(n : i < n)] }",
    // parameter sets, printed as isl prints them
    "[n] -> { : n < 0 }",
    "[n] -> { : }",
    "[n, m] -> { : n < 0 or n > m }",
    "[n] -> { : exists e : n = 2e }",
];

#[test]
fn notation_means_what_isl_reads() {
    let ctx = Ctx::new();
    let failures: Vec<String> = TEXTS.iter().filter_map(|t| check(&ctx, t).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
