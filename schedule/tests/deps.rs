//! Memory-based and value-based (flow) dependences against relations derived
//! by hand and against enumeration of small instances.

use presburger::UnionMap;
use presburger_schedule::{Options, dependences, extract_scop};

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

/// The value-based flow of `src` must equal `flow` (and lie inside `raw`).
fn check_flow(src: &str, flow: &str) {
    let scop = extract_scop(src, &Options::default()).unwrap();
    let d = dependences(&scop).unwrap();
    let want: UnionMap = flow.parse().unwrap();
    assert!(
        d.flow.is_equal(&want).unwrap(),
        "flow: expected {want}\n got {}",
        d.flow
    );
    assert!(d.flow.is_subset(&d.raw).unwrap());
}

#[test]
fn flow_of_a_chain_of_writes() {
    // RAW also has S0[i] -> S2[i]; S1 overwrote the element in between
    check_flow(
        "#pragma scop\nfor (i = 0; i < N; i++)\n  A[i] = 0;\nfor (i = 0; i < N; i++)\n  A[i] = A[i] + 1;\n\
         for (i = 0; i < N; i++)\n  B[i] = A[i];\n#pragma endscop\n",
        "[N] -> { S0[i] -> S1[i] : 0 <= i < N; S1[i] -> S2[i] : 0 <= i < N }",
    );
    // straight-line code: a scalar written three times
    check_flow(
        "#pragma scop\nx = 1;\ny = x;\nx = 2;\nz = x + y;\nx = z;\n#pragma endscop\n",
        "{ S0[] -> S1[]; S2[] -> S3[]; S1[] -> S3[]; S3[] -> S4[] }",
    );
}

#[test]
fn flow_of_a_reduction_is_from_the_previous_iteration() {
    check_flow(
        "#pragma scop\ns = 0;\nfor (i = 0; i < N; i++)\n  s = s + A[i];\nB[0] = s;\n#pragma endscop\n",
        "[N] -> { S0[] -> S1[0] : N >= 1; S1[i] -> S1[i + 1] : 0 <= i <= N - 2; \
         S1[i] -> S2[] : i = N - 1 and N >= 1; S0[] -> S2[] : N <= 0 }",
    );
}

#[test]
fn flow_after_a_partial_overwrite() {
    // the second loop overwrites the first M elements: the reads of those come
    // from S1, the others (M <= i < N) still from S0
    check_flow(
        "#pragma scop\nfor (i = 0; i < N; i++)\n  A[i] = 0;\nfor (i = 0; i < M; i++)\n  A[i] = 1;\n\
         for (i = 0; i < N; i++)\n  B[i] = A[i];\n#pragma endscop\n",
        "[N, M] -> { S0[i] -> S2[i] : 0 <= i < N and i >= M; S1[i] -> S2[i] : 0 <= i < M and i < N }",
    );
}

#[test]
fn flow_of_jacobi_1d() {
    // within a sweep S1 reads what S0 wrote; S0 of sweep t + 1 reads what S1
    // wrote in sweep t (never an older sweep)
    check_flow(
        &kernel("jacobi-1d"),
        "[T, N] -> { S0[t, i] -> S1[t, i2] : 0 <= t < T and 1 <= i <= N - 2 and 1 <= i2 <= N - 2 and i - 1 <= i2 <= i + 1; \
         S1[t, i] -> S0[t + 1, i2] : 0 <= t <= T - 2 and 1 <= i <= N - 2 and 1 <= i2 <= N - 2 and i - 1 <= i2 <= i + 1 }",
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

// ---- brute force: the dependences of small instances, by enumeration

use presburger::{DimKind, Set};
use std::collections::BTreeSet;

/// `s` with every parameter fixed to its value in `values` and removed.
fn fixed(mut s: Set, values: &[(&str, i64)]) -> Set {
    while s.space().n_param() > 0 {
        let name = s.space().params()[0].clone();
        let v = values
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no value for {name}"))
            .1;
        s = s
            .fix(DimKind::Param, 0, v)
            .unwrap()
            .project_out(DimKind::Param, 0, 1)
            .unwrap();
    }
    s
}

fn points(s: &Set) -> Vec<Vec<i64>> {
    s.points(1_000_000)
        .unwrap()
        .into_iter()
        .map(|p| p.iter().map(|x| x.to_i64().unwrap()).collect())
        .collect()
}

/// The image of the point `p` under a map (fixed parameters).
fn image(m: &presburger::Map, p: &[i64], values: &[(&str, i64)]) -> Vec<Vec<i64>> {
    let mut s = fixed(m.wrap(), values);
    for (k, v) in p.iter().enumerate() {
        s = s.fix(DimKind::SET, k, *v).unwrap();
    }
    points(&s)
        .into_iter()
        .map(|q| q[p.len()..].to_vec())
        .collect()
}

type Pairs = BTreeSet<(String, Vec<i64>, String, Vec<i64>)>;

/// RAW, WAR, WAW by enumerating instances, their times and their elements,
/// and the flow: for each read of each instance, the latest earlier write of
/// its element.
fn brute(scop: &presburger_schedule::Scop, values: &[(&str, i64)]) -> [Pairs; 4] {
    // (statement, instance, time, [(array, element, is_write)])
    let mut inst = Vec::new();
    for s in &scop.statements {
        for p in points(&fixed(s.domain.clone(), values)) {
            let time = image(&s.schedule, &p, values).remove(0);
            let mut acc = Vec::new();
            for (list, w) in [(&s.reads, false), (&s.writes, true)] {
                for a in list {
                    for e in image(&a.relation, &p, values) {
                        acc.push((a.array.clone(), e, w));
                    }
                }
            }
            inst.push((s.name.clone(), p, time, acc));
        }
    }
    let mut out = [Pairs::new(), Pairs::new(), Pairs::new(), Pairs::new()];
    for b in &inst {
        for (arr, e, w) in &b.3 {
            if *w {
                continue;
            }
            let last = inst
                .iter()
                .filter(|a| a.2 < b.2 && a.3.iter().any(|x| x.2 && &x.0 == arr && &x.1 == e))
                .max_by(|x, y| x.2.cmp(&y.2));
            if let Some(a) = last {
                out[3].insert((a.0.clone(), a.1.clone(), b.0.clone(), b.1.clone()));
            }
        }
    }
    for a in &inst {
        for b in &inst {
            if a.2 >= b.2 {
                continue;
            }
            for (arr, e, wa) in &a.3 {
                for (brr, f, wb) in &b.3 {
                    if arr != brr || e != f {
                        continue;
                    }
                    let k = match (wa, wb) {
                        (true, false) => 0,
                        (false, true) => 1,
                        (true, true) => 2,
                        _ => continue,
                    };
                    out[k].insert((a.0.clone(), a.1.clone(), b.0.clone(), b.1.clone()));
                }
            }
        }
    }
    out
}

/// The pairs of a dependence relation with fixed parameters.
fn pairs(u: &presburger::UnionMap, values: &[(&str, i64)]) -> Pairs {
    let mut out = Pairs::new();
    for m in u.members() {
        let (src, dst) = (
            m.space().domain_tuple().unwrap().clone(),
            m.space().range_tuple().clone(),
        );
        let n_in = src.len();
        let name = |t: &presburger::Tuple| t.name.clone().unwrap_or_default();
        for p in points(&fixed(m.wrap(), values)) {
            out.insert((
                name(&src),
                p[..n_in].to_vec(),
                name(&dst),
                p[n_in..].to_vec(),
            ));
        }
    }
    out
}

#[test]
fn kernels_against_enumeration() {
    for (k, values) in [
        ("trisolv", &[("N", 5)][..]),
        ("lu", &[("N", 4)]),
        ("cholesky", &[("N", 4)]),
        ("jacobi-1d", &[("T", 2), ("N", 6)]),
        ("seidel-2d", &[("T", 2), ("N", 5)]),
        ("covariance", &[("M", 3), ("N", 3)]),
        ("scalars", &[("N", 2), ("M", 3)]),
        ("backsub", &[("N", 4)]),
        ("conds", &[("N", 4)]),
        ("tiled", &[("N", 10)]),
        ("gemm", &[("NI", 3), ("NJ", 2), ("NK", 3)]),
        ("floyd-warshall", &[("N", 4)]),
        ("fdtd-2d", &[("T", 2), ("NX", 3), ("NY", 4)]),
        ("interval", &[("N", 6)]),
        ("banddp", &[("N", 6), ("W", 2)]),
    ] {
        let scop = extract_scop(&kernel(k), &Options::default()).unwrap();
        let d = dependences(&scop).unwrap();
        let want = brute(&scop, values);
        for (kind, got, want) in [
            ("raw", &d.raw, &want[0]),
            ("war", &d.war, &want[1]),
            ("waw", &d.waw, &want[2]),
            ("flow", &d.flow, &want[3]),
        ] {
            let got = pairs(got, values);
            assert!(
                &got == want,
                "{k} {kind}: only computed {:?}\nonly enumerated {:?}",
                got.difference(want).take(5).collect::<Vec<_>>(),
                want.difference(&got).take(5).collect::<Vec<_>>()
            );
        }
    }
}

/// 400 statements in one loop, each reading its neighbours' arrays (the
/// program of `scripts/bench_scale.sh`): the dependences relate only
/// statements that touch a common array, and are found pair of accesses by
/// pair of accesses (over the whole unions this took minutes in a test
/// build).
#[test]
fn four_hundred_statements_in_one_loop() {
    let n = 400;
    let mut src = String::from("#pragma scop\nfor (i = 1; i < N; i++) {\n");
    for k in 0..n {
        let mut rhs = format!("A{k}[i - 1]");
        if k > 0 {
            rhs = format!("A{}[i] + {rhs}", k - 1);
        }
        if k + 1 < n {
            rhs = format!("{rhs} + A{}[i]", k + 1);
        }
        src.push_str(&format!("  A{k}[i] = {rhs};\n"));
    }
    src.push_str("}\n#pragma endscop\n");
    let d = dependences(&extract_scop(&src, &Options::default()).unwrap()).unwrap();
    // RAW: each statement to itself (the next iteration) and to its right
    // neighbour (the same one); WAR: to the right neighbour; no WAW
    assert_eq!(d.raw.members().len(), 2 * n - 1);
    assert_eq!(d.war.members().len(), n - 1);
    assert!(d.waw.members().is_empty());
    assert_eq!(d.flow.members().len(), 2 * n - 1);
    let some: UnionMap =
        "[N] -> { S7[i] -> S8[i] : 1 <= i < N; S7[i] -> S7[i + 1] : 1 <= i <= N - 2 }"
            .parse()
            .unwrap();
    assert!(some.is_subset(&d.raw).unwrap());
    let war: UnionMap = "[N] -> { S7[i] -> S8[i] : 1 <= i < N }".parse().unwrap();
    assert!(war.is_subset(&d.war).unwrap());
}
