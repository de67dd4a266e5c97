//! Tiled schedules and their scan: the layouts of `presburger_codegen::tile` (tile
//! dimensions before the band, wavefronts, reordered point loops) of the
//! kernels' schedules, scanned with approximate tile loops
//! (`Options::approximate`), must visit exactly the scheduled instances in
//! time order (enumerated by `presburger`) for several parameter values;
//! and a piece whose conjunctions overlap runs its instances once.

mod common;
use common::check_ast;
use presburger::UnionMap;
use presburger_codegen::opt::transform;
use presburger_codegen::tile::{Dim, Layout, TileOptions};
use presburger_codegen::{OptOptions, Options, generate};
use presburger_schedule::{SchedulerOptions, compute, dependences, extract_scop};

/// The scan of `sched` with its tile dimensions (per `layout`)
/// approximated, and exact too with `exact` (slow on wavefronts), checked
/// against enumeration for `values`.
fn check_tiled(name: &str, sched: &UnionMap, layout: &Layout, values: &[Vec<i64>], exact: bool) {
    let approximate: Vec<bool> = layout
        .dims
        .iter()
        .map(|d| matches!(d, Dim::Tile { .. }))
        .collect();
    let mut modes = vec![approximate];
    if exact {
        modes.push(Vec::new());
    }
    for approx in modes {
        let options = Options {
            approximate: approx.clone(),
            ..Options::default()
        };
        let ast = generate(sched, None, None, &options)
            .unwrap_or_else(|e| panic!("{name} (approximate {approx:?}): {e}\n{sched}"));
        if let Err(e) = check_ast(&ast, sched, values) {
            panic!("{name} (approximate {approx:?}): {e}");
        }
    }
}

/// A kernel's C source with its sizes as parameters.
fn kernel(src: &str, sizes: &[&str], tile: i64, wavefront: bool, values: &[Vec<i64>]) {
    let scop = extract_scop(src, &presburger_schedule::Options::default()).unwrap();
    assert_eq!(scop.params, sizes);
    let deps = dependences(&scop).unwrap();
    let sched = compute(&scop, &deps, &SchedulerOptions::default()).unwrap();
    let opts = OptOptions {
        tile: TileOptions {
            default_size: tile,
            ..TileOptions::default()
        },
        openmp: wavefront,
        wavefront,
        vector: None,
        ..OptOptions::default()
    };
    let t = transform(&scop, &deps, &sched, &opts).unwrap();
    assert!(!t.layout.bands.is_empty(), "nothing tiled:\n{src}");
    if wavefront {
        assert!(
            t.layout.bands.iter().any(|b| b.wavefront),
            "no wavefront:\n{src}"
        );
    }
    check_tiled(src, &t.schedule, &t.layout, values, !wavefront);
}

#[test]
fn gemm_tiles() {
    let src = "#pragma scop\nfor (i = 0; i < NI; i++) {\n  for (j = 0; j < NJ; j++)\n    C[i][j] *= beta;\n  for (k = 0; k < NK; k++)\n    for (j = 0; j < NJ; j++)\n      C[i][j] += alpha * A[i][k] * B[k][j];\n}\n#pragma endscop\n";
    kernel(
        src,
        &["NI", "NJ", "NK"],
        2,
        false,
        &[vec![1, 1, 1], vec![3, 2, 5], vec![4, 3, 2]],
    );
}

#[test]
fn stencil_wavefronts() {
    let jacobi = "#pragma scop\nfor (t = 0; t < T; t++) {\n  for (i = 1; i < N - 1; i++)\n    B[i] = A[i - 1] + A[i] + A[i + 1];\n  for (i = 1; i < N - 1; i++)\n    A[i] = B[i - 1] + B[i] + B[i + 1];\n}\n#pragma endscop\n";
    kernel(
        jacobi,
        &["T", "N"],
        3,
        true,
        &[vec![1, 3], vec![2, 7], vec![4, 9], vec![5, 4]],
    );
    let seidel = "#pragma scop\nfor (t = 0; t < T; t++)\n  for (i = 1; i < N - 1; i++)\n    for (j = 1; j < N - 1; j++)\n      A[i][j] = A[i - 1][j] + A[i][j - 1] + A[i][j] + A[i + 1][j] + A[i][j + 1];\n#pragma endscop\n";
    kernel(seidel, &["T", "N"], 2, true, &[vec![1, 4], vec![3, 5]]);
}

#[test]
fn triangular_wavefront() {
    let trisolv = "#pragma scop\nfor (i = 0; i < N; i++) {\n  x[i] = b[i];\n  for (j = 0; j < i; j++)\n    x[i] -= L[i][j] * x[j];\n  x[i] = x[i] / L[i][i];\n}\n#pragma endscop\n";
    kernel(
        trisolv,
        &["N"],
        4,
        true,
        &[vec![1], vec![5], vec![9], vec![12]],
    );
    // the schedule that once ran S2 twice (a fixed tile value needs c0 even)
    let text = "[N] -> { S0[i] -> [o0, 0, i, 0, 0] : 0 <= i < N and i - 3 <= 4o0 <= i; S1[i, j] -> [o0, o1, i, j, 1] : 0 <= j < i and -i + 4o0 <= 4o1 <= j and 0 <= i < N and j - 3 <= 4o1 <= -i + 4o0 + 3; S2[i] -> [o0, o1, i, i, 2] : -i + 4o0 <= 4o1 <= i and 0 <= i < N and i - 3 <= 4o1 <= -i + 4o0 + 3 }";
    let sched: UnionMap = text.parse().unwrap();
    let ast = generate(
        &sched,
        None,
        None,
        &Options {
            approximate: vec![true, true],
            ..Options::default()
        },
    )
    .unwrap();
    check_ast(&ast, &sched, &[vec![1], vec![5], vec![9], vec![12]]).unwrap();
}

#[test]
fn overlapping_conjunctions_run_once() {
    // conds' S3 under pluto-lp: two overlapping disjuncts (i mod 3 != 0, or
    // i >= N - 2) once gave two calls of S3(31)
    let text = "[N] -> { S3[i] -> [1, o1, 0, i, 0] : exists (e0 = floor((i)/3) : 3e0 < i < N and i >= 0 and i - 31 <= 32o1 <= i); S3[i] -> [1, o1, 0, i, 0] : 0 <= i < N and i >= N - 2 and i - 31 <= 32o1 <= i }";
    let sched: UnionMap = text.parse().unwrap();
    for atomic in [false, true] {
        let ast = generate(
            &sched,
            None,
            None,
            &Options {
                atomic,
                ..Options::default()
            },
        )
        .unwrap();
        check_ast(&ast, &sched, &[vec![1], vec![7], vec![32], vec![40]]).unwrap();
    }
}

#[test]
fn layouts() {
    let src = "#pragma scop\nfor (i = 0; i < N; i++)\n  for (j = 0; j < N; j++)\n    for (k = 0; k < N; k++)\n      C[i][j] += A[i][k] * B[k][j];\n#pragma endscop\n";
    let scop = extract_scop(src, &presburger_schedule::Options::default()).unwrap();
    let deps = dependences(&scop).unwrap();
    let sched = compute(&scop, &deps, &SchedulerOptions::default()).unwrap();
    assert_eq!(sched.bands, vec![(0, 2)]);
    let sized = TileOptions {
        sizes: vec![8, 1, 4],
        ..TileOptions::default()
    };
    let l = Layout::new(&sched, &sized).unwrap();
    // a size of 1 leaves j untiled: two tile dimensions, then the band
    assert_eq!(l.len(), 5);
    assert!(matches!(
        l.dims[0],
        Dim::Tile {
            dim: 0,
            size: 8,
            ..
        }
    ));
    assert!(matches!(
        l.dims[1],
        Dim::Tile {
            dim: 2,
            size: 4,
            ..
        }
    ));
    assert_eq!(l.bands[0].tiles, vec![0, 1]);
    assert_eq!(l.bands[0].points, vec![2, 3, 4]);
    let w = l.wavefront(0).unwrap();
    assert!(matches!(&w.dims[0], Dim::Tile { plus, .. } if plus == &vec![1]));
    // no tiling, and bad sizes
    let none = TileOptions {
        tile: false,
        ..TileOptions::default()
    };
    assert_eq!(Layout::new(&sched, &none).unwrap().len(), 3);
    let bad = TileOptions {
        sizes: vec![0],
        ..TileOptions::default()
    };
    assert!(Layout::new(&sched, &bad).is_err());
    assert!(l.wavefront(3).is_err());
    // i, j parallel, k a reduction: j (stride one in C and B) goes innermost
    let r = Layout::new(&sched, &TileOptions::default())
        .unwrap()
        .reorder_points(&scop, &sched);
    let s0: Vec<usize> = (3..6)
        .map(|p| {
            r.moved.iter().find(|m| m.0 == 0 && m.1 == p).map_or_else(
                || match r.dims[p] {
                    Dim::Point { dim } => dim,
                    Dim::Tile { dim, .. } => dim,
                },
                |m| m.2,
            )
        })
        .collect();
    assert_eq!(s0, vec![0, 2, 1]);
}
