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
    "{ [i] -> [(floor(i/2) - 2*floor(floor(i/2)/2))] }",
    "{ [i] -> [(3*floor(i/3))] }",
    "{ [i, j] -> [(2i + j - 2*floor(i/2))] }",
    "[N] -> { [i] -> [(N mod 4 + i mod 3)] : 0 <= i < N; [i] -> [((N + i)/2)] : i >= N }",
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
        // the same through the single-output types, where they apply
        if ours.space().n_out() == 1 {
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
