//! Memory-based dependences against relations derived by hand.

use presburger::UnionMap;
use schedule::{dependences, extract_scop, Options};

fn check(src: &str, raw: &str, war: &str, waw: &str) {
    let scop = extract_scop(src, &Options::default()).unwrap();
    let d = dependences(&scop).unwrap();
    for (name, got, want) in [
        ("raw", &d.raw, raw),
        ("war", &d.war, war),
        ("waw", &d.waw, waw),
    ] {
        let want: UnionMap = want.parse().unwrap();
        assert!(
            got.is_equal(&want).unwrap(),
            "{name}: expected {want}\n got {got}"
        );
    }
}

fn kernel(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/kernels/{name}.c",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn a_chain_and_a_reduction() {
    check(
        "#pragma scop\nfor (i = 1; i < N; i++)\n  A[i] = A[i - 1] + 1;\n#pragma endscop\n",
        "[N] -> { S0[i] -> S0[i + 1] : 1 <= i and i + 1 < N }",
        "{ }",
        "{ }",
    );
    check(
        "#pragma scop\ns = 0;\nfor (i = 0; i < N; i++)\n  s = s + A[i];\nB[0] = s;\n#pragma endscop\n",
        "[N] -> { S0[] -> S1[i] : 0 <= i < N; S0[] -> S2[]; S1[i] -> S1[i2] : 0 <= i < i2 < N; S1[i] -> S2[] : 0 <= i < N }",
        "[N] -> { S1[i] -> S1[i2] : 0 <= i < i2 < N }",
        "[N] -> { S0[] -> S1[i] : 0 <= i < N; S1[i] -> S1[i2] : 0 <= i < i2 < N }",
    );
}

#[test]
fn trisolv() {
    check(
        &kernel("trisolv"),
        "[N] -> { S0[a] -> S1[i, j] : (a = i or a = j) and 0 <= j < i < N; S0[i] -> S2[i] : 0 <= i < N; \
         S1[i, j] -> S1[i, j2] : 0 <= j < j2 < i < N; S1[a, k] -> S1[i, a] : 0 <= k < a < i < N; \
         S1[i, j] -> S2[i] : 0 <= j < i < N; S2[j] -> S1[i, j] : 0 <= j < i < N }",
        "[N] -> { S1[i, j] -> S1[i, j2] : 0 <= j < j2 < i < N; S1[i, j] -> S2[i] : 0 <= j < i < N }",
        "[N] -> { S0[i] -> S1[i, j] : 0 <= j < i < N; S0[i] -> S2[i] : 0 <= i < N; \
         S1[i, j] -> S1[i, j2] : 0 <= j < j2 < i < N; S1[i, j] -> S2[i] : 0 <= j < i < N }",
    );
}

#[test]
fn jacobi_1d() {
    let flow = "[T, N] -> { S0[t, i] -> S1[t2, i2] : 0 <= t <= t2 < T and 1 <= i <= N - 2 and 1 <= i2 <= N - 2 and i - 1 <= i2 <= i + 1; \
                S1[t, i] -> S0[t2, i2] : 0 <= t < t2 < T and 1 <= i <= N - 2 and 1 <= i2 <= N - 2 and i - 1 <= i2 <= i + 1 }";
    check(
        &kernel("jacobi-1d"),
        flow,
        flow,
        "[T, N] -> { S0[t, i] -> S0[t2, i] : 0 <= t < t2 < T and 1 <= i <= N - 2; S1[t, i] -> S1[t2, i] : 0 <= t < t2 < T and 1 <= i <= N - 2 }",
    );
}

#[test]
fn every_kernel_has_dependences_that_respect_the_schedule() {
    // a coarse check on all kernels: the computation succeeds and a kernel
    // that writes anything it reads later has flow dependences
    let dir = format!("{}/tests/kernels", env!("CARGO_MANIFEST_DIR"));
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "c") {
            let scop =
                extract_scop(&std::fs::read_to_string(&p).unwrap(), &Options::default()).unwrap();
            let d = dependences(&scop).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert!(!d.raw.plain_is_empty(), "{}", p.display());
        }
    }
}
