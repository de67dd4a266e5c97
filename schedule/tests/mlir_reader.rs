//! The MLIR front end on MLIR as MLIR writes it (issue 43): `affine.apply`
//! chains wherever an affine operand is allowed, the accesses of every
//! memory op (unused loads, stores of constants into local buffers), memref
//! types by MLIR's grammar and `affine.parallel`. Each model is compared
//! with the one written by hand in isl notation (`is_equal`).

use presburger::{UnionMap, UnionSet};
use presburger_schedule::mlir::{MlirOptions, extract_scop_mlir_with};
use presburger_schedule::{Options, Scop, extract_scop_mlir};

/// The model of `src` (one statement per store).
fn mlir(src: &str) -> Scop {
    extract_scop_mlir(src, &Options::default()).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// The model of `src` with one statement per load and store op.
fn per_op(src: &str) -> Scop {
    let o = MlirOptions { per_op: true };
    extract_scop_mlir_with(src, &Options::default(), &o).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// Asserts that the schedule of `s` is `want`.
fn check_schedule(s: &Scop, want: &str) {
    let want: UnionMap = want.parse().unwrap();
    let got = s.schedule().unwrap();
    assert!(
        got.is_equal(&want).unwrap(),
        "schedule {got}\n  want {want}"
    );
}

/// The message of the error the front end gives for `src`.
fn error(src: &str) -> String {
    match extract_scop_mlir(src, &Options::default()) {
        Ok(_) => panic!("no error for\n{src}"),
        Err(e) => e.to_string(),
    }
}

/// Asserts that the domains, reads and writes of `s` are the given ones.
fn check(s: &Scop, domain: &str, reads: &str, writes: &str) {
    let d: UnionSet = domain.parse().unwrap();
    let r: UnionMap = reads.parse().unwrap();
    let w: UnionMap = writes.parse().unwrap();
    let (sd, sr, sw) = (
        s.domains().unwrap(),
        s.reads().unwrap(),
        s.writes().unwrap(),
    );
    assert!(sd.is_equal(&d).unwrap(), "domain {sd}\n  want {d}");
    assert!(sr.is_equal(&r).unwrap(), "reads {sr}\n  want {r}");
    assert!(sw.is_equal(&w).unwrap(), "writes {sw}\n  want {w}");
}

/// The headline reproducer of the issue: the load after an `affine.apply`
/// was swallowed (the apply looked for `[symbols]` on the next line).
#[test]
fn apply_feeding_a_load_on_the_next_line() {
    let s = mlir(
        "func.func @f(%m: memref<100xf32>, %out: memref<100xf32>) {
  affine.for %i0 = 1 to 11 {
    %a1 = affine.apply affine_map<(d0) -> (d0 + 1)> (%i0)
    %v0 = affine.load %m[%a1] : memref<100xf32>
    affine.store %v0, %out[%i0] : memref<100xf32>
  }
  return
}
",
    );
    check(
        &s,
        "{ S0[i0] : 1 <= i0 <= 10 }",
        "{ S0[i0] -> m[i0 + 1] }",
        "{ S0[i0] -> out[i0] }",
    );
}

/// Chains of applies with `floordiv`, `ceildiv`, `mod` and symbols, in
/// subscripts, loop bounds (also under `max`/`min`) and `affine.if` sets.
#[test]
fn apply_chains_everywhere_an_affine_operand_is_allowed() {
    let s = mlir(
        "#lb = affine_map<(d0)[s0] -> (d0 floordiv 2, s0 - 4)>
#ub = affine_map<(d0)[s0] -> (d0 ceildiv 3 + 10, s0)>
#set = affine_set<(d0)[s0] : (d0 mod 4 - 1 >= 0, s0 - d0 >= 0)>
func.func @f(%A: memref<?xindex>, %N: index) {
  affine.for %i = 0 to 20 {
    %a = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)> (%i)[%N]
    %b = affine.apply affine_map<(d0) -> (d0 mod 3)> (%a)
    %c = affine.apply affine_map<(d0, d1) -> (d0 floordiv 2 + d1)> (%i, %b)
    affine.for %j = max #lb(%c)[%N] to min #ub(%a)[%N] {
      %d = affine.apply affine_map<(d0) -> (d0 ceildiv 2)> (%j)
      affine.if #set(%d)[%N] {
        %v = affine.load %A[%c + %d] : memref<?xindex>
        affine.store %v, %A[%b] : memref<?xindex>
      }
    }
  }
  return
}
",
    );
    // a = 2i + N, b = a mod 3, c = floor(i/2) + b, d = ceil(j/2)
    let dom = "[N] -> { S0[i, j] : 0 <= i < 20 and j >= floor((floor(i/2) + ((2i + N) mod 3))/2) \
               and j >= N - 4 and j < ceil((2i + N)/3) + 10 and j < N \
               and (ceil(j/2)) mod 4 >= 1 and N >= ceil(j/2) }";
    check(
        &s,
        dom,
        "[N] -> { S0[i, j] -> A[floor(i/2) + ((2i + N) mod 3) + ceil(j/2)] }",
        "[N] -> { S0[i, j] -> A[(2i + N) mod 3] }",
    );
    assert_eq!(s.params, ["N"]);
    assert_eq!(
        s.array("A").map(|a| a.dims),
        Some(1),
        "memref<?xindex> is 1-d"
    );
}

/// `affine.for` operands of a bound map, and `affine.if` operands, also end
/// on their own line.
#[test]
fn bound_and_if_operands_do_not_swallow_the_next_line() {
    let s = mlir(
        "func.func @f(%A: memref<100xf32>, %N: index) {
  affine.for %i = affine_map<(d0) -> (d0)>(%N) to 100 {
    affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%i) {
      %v = affine.load %A[%i] : memref<100xf32>
      affine.store %v, %A[%i + 1] : memref<100xf32>
    }
  }
  return
}
",
    );
    check(
        &s,
        "[N] -> { S0[i] : N <= i < 100 and i >= 5 }",
        "[N] -> { S0[i] -> A[i] }",
        "[N] -> { S0[i] -> A[i + 1] }",
    );
}

/// A function whose buffers come from `memref.alloc` and whose loads feed
/// nothing: every access is in the model (the unused load as a statement of
/// its own, in textual order), not an empty domain.
#[test]
fn unused_loads_and_constant_stores_into_local_buffers_are_accesses() {
    let src = "func.func @f() {
  %m = memref.alloc() : memref<10xf32>
  %cst = arith.constant 7.000000e+00 : f32
  affine.for %i0 = 0 to 10 {
    affine.store %cst, %m[%i0] : memref<10xf32>
  }
  affine.for %i1 = 0 to 10 {
    %1 = affine.load %m[%i1] : memref<10xf32>
    affine.load %m[9 - %i1] : memref<10xf32>
  }
  return
}
";
    let s = mlir(src);
    check(
        &s,
        "{ S0[i0] : 0 <= i0 < 10; S1[i1] : 0 <= i1 < 10; S2[i1] : 0 <= i1 < 10 }",
        "{ S1[i1] -> m[i1]; S2[i1] -> m[9 - i1] }",
        "{ S0[i0] -> m[i0] }",
    );
    check_schedule(
        &s,
        "{ S0[i] -> [0, i, 0]; S1[i] -> [1, i, 0]; S2[i] -> [1, i, 1] }",
    );
    assert_eq!(
        s.statements[1].text,
        "%1 = affine.load %m[%i1] : memref<10xf32>"
    );
    let d = presburger_schedule::dependences(&s).unwrap();
    assert!(
        !d.raw.is_empty().unwrap(),
        "the loads read what the store wrote"
    );
}

/// Per op, every load and store is a statement with its one access, in
/// textual order (as MLIR's dependence test numbers them).
#[test]
fn accesses_per_op() {
    let src = "func.func @f(%A: memref<10xf32>, %B: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %a = affine.load %A[%i] : memref<10xf32>
    %b = affine.load %B[%i] : memref<10xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %A[%i] : memref<10xf32>
  }
  return
}
";
    let s = per_op(src);
    check(
        &s,
        "{ S0[i] : 0 <= i < 10; S1[i] : 0 <= i < 10; S2[i] : 0 <= i < 10 }",
        "{ S0[i] -> A[i]; S1[i] -> B[i] }",
        "{ S2[i] -> A[i] }",
    );
    // per statement, the same function has one statement with both reads
    let s = mlir(src);
    check(
        &s,
        "{ S0[i] : 0 <= i < 10 }",
        "{ S0[i] -> A[i]; S0[i] -> B[i] }",
        "{ S0[i] -> A[i] }",
    );
}

/// Memref types by MLIR's grammar: `index` and `vector` element types,
/// spaces around `x`, layouts and memory spaces.
#[test]
fn memref_types_by_mlir_grammar() {
    let s = mlir(
        "func.func @f(%A: memref<?x?xindex>, %B: memref<2 x 2 x i32>,
             %C: memref<4x4xf32, strided<[4, 1], offset: ?>>, %D: memref<8xvector<4xf32>, 1>,
             %E: memref<f32>) {
  affine.for %i = 0 to 2 {
    %a = affine.load %A[%i, %i] : memref<?x?xindex>
    %b = affine.load %B[%i, 1] : memref<2 x 2 x i32>
    %c = affine.load %C[%i, 0] : memref<4x4xf32, strided<[4, 1], offset: ?>>
    %d = affine.load %D[%i] : memref<8xvector<4xf32>, 1>
    %e = affine.load %E[] : memref<f32>
  }
  return
}
",
    );
    let dims = |n: &str| s.array(n).map(|a| (a.dims, a.element_type.clone()));
    assert_eq!(dims("A"), Some((2, Some("index".into()))));
    assert_eq!(dims("B"), Some((2, Some("i32".into()))));
    assert_eq!(dims("C"), Some((2, Some("f32".into()))));
    assert_eq!(dims("D"), Some((1, Some("vector<4xf32>".into()))));
    assert_eq!(dims("E"), Some((0, Some("f32".into()))));
    assert_eq!(s.array("B").unwrap().sizes, ["2", "2"]);
    let e = error("func.func @f(%A: memref<*xf32>) {\n  return\n}\n");
    assert!(e.contains("cannot read the memref type"), "{e}");
}

/// `affine.parallel` with several iterators, `min`/`max` bounds and steps:
/// one loop per iterator.
#[test]
fn affine_parallel_loops() {
    let s = mlir(
        "func.func @f(%A: memref<100x100xf32>, %x: f32, %N: index) {
  affine.parallel (%i, %j) = (0, max(1, %N - 50)) to (min(%N, 64), 100) step (2, 1) {
    affine.for %k = 0 to 3 {
      affine.store %x, %A[%i + %k, %j] : memref<100x100xf32>
    }
  }
  return
}
",
    );
    check(
        &s,
        "[N] -> { S0[i, j, k] : 0 <= i < N and i < 64 and i mod 2 = 0 and j >= 1 \
         and j >= N - 50 and j < 100 and 0 <= k < 3 }",
        "[N] -> { S0[i, j, k] -> x[] }",
        "[N] -> { S0[i, j, k] -> A[i + k, j] }",
    );
    let e = error(
        "func.func @f(%A: memref<10xf32>) {
  %r, %s = affine.parallel (%i) = (0) to (10) reduce (\"addf\") -> (f32) {
  }
  return
}
",
    );
    assert!(
        e.contains("line 2") && e.contains("2 results for 1 reductions"),
        "{e}"
    );
}

/// A reduction of `affine.parallel` is a scalar: started before the loops,
/// each iteration's yield combines its value into it (reads and writes it).
#[test]
fn parallel_reductions_are_scalars() {
    let s = mlir(
        "func.func @f(%A: memref<10x10xf32>, %B: memref<1xf32>) {
  %r = affine.parallel (%i, %j) = (0, 0) to (10, 10) reduce (\"addf\") -> (f32) {
    %v = affine.load %A[%i, %j] : memref<10x10xf32>
    affine.yield %v : f32
  }
  affine.store %r, %B[0] : memref<1xf32>
  return
}
",
    );
    check(
        &s,
        "{ S0[]; S1[i, j] : 0 <= i < 10 and 0 <= j < 10; S2[] }",
        "{ S1[i, j] -> A[i, j]; S1[i, j] -> r[]; S2[] -> r[] }",
        "{ S0[] -> r[]; S1[i, j] -> r[]; S2[] -> B[0] }",
    );
    check_schedule(
        &s,
        "{ S0[] -> [0, 0, 0, 0, 0]; S1[i, j] -> [1, i, 0, j, 0]; S2[] -> [2, 0, 0, 0, 0] }",
    );
}

/// `arith.select` on data keeps the reads of both values; on indices it is
/// not affine.
#[test]
fn select_on_data_and_on_indices() {
    let s = mlir(
        "func.func @f(%A: memref<10xf32>, %B: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %c5 = arith.constant 5 : index
    %c = arith.cmpi slt, %i, %c5 : index
    %a = affine.load %A[%i] : memref<10xf32>
    %b = affine.load %B[%i] : memref<10xf32>
    %s = arith.select %c, %a, %b : f32
    affine.store %s, %A[%i] : memref<10xf32>
  }
  return
}
",
    );
    check(
        &s,
        "{ S0[i] : 0 <= i < 10 }",
        "{ S0[i] -> A[i]; S0[i] -> B[i] }",
        "{ S0[i] -> A[i] }",
    );
    let e = error(
        "func.func @f(%A: memref<10xf32>, %x: f32) {
  affine.for %i = 0 to 10 {
    %c5 = arith.constant 5 : index
    %c = arith.cmpi slt, %i, %c5 : index
    %s = arith.select %c, %i, %c5 : index
    memref.store %x, %A[%s] : memref<10xf32>
  }
  return
}
",
    );
    assert!(e.contains("piecewise"), "{e}");
}

/// SSA names that are not identifiers (`%0`, `%m.a`) become isl names
/// (`v0`, `m_a`, here `m_a_` as `%m_a` keeps its name) so that the model
/// prints as valid isl notation; names that are identifiers stay as they
/// are.
#[test]
fn ssa_names_that_are_not_identifiers() {
    let s = mlir(
        "func.func @f(%m.a: memref<?xf32>, %m_a: memref<?xf32>) {
  %0 = memref.alloc() : memref<10xf32>
  %c0 = arith.constant 0 : index
  %1 = memref.dim %m.a, %c0 : memref<?xf32>
  affine.for %i = 0 to %1 {
    %v = affine.load %m.a[%i] : memref<?xf32>
    %w = affine.load %m_a[%i] : memref<?xf32>
    %s = arith.addf %v, %w : f32
    affine.store %s, %0[%i] : memref<10xf32>
  }
  return
}
",
    );
    assert_eq!(s.params, ["v1"]);
    let names: Vec<&str> = s.arrays.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["m_a_", "m_a", "v0"]);
    check(
        &s,
        "[v1] -> { S0[i] : 0 <= i < v1 }",
        "[v1] -> { S0[i] -> m_a_[i]; S0[i] -> m_a[i] }",
        "[v1] -> { S0[i] -> v0[i] }",
    );
    for text in [
        s.reads().unwrap().to_string(),
        s.writes().unwrap().to_string(),
    ] {
        assert!(text.parse::<UnionMap>().is_ok(), "{text}");
    }
}

/// `arith.remsi`/`divsi` by a positive constant are `mod`/`floordiv` where
/// the dividend is never negative (decided from the enclosing loops and
/// conditions), and not affine where it may be.
#[test]
fn remsi_and_divsi_of_non_negative_values() {
    let s = mlir(
        "func.func @f(%A: memref<?xf32>, %x: f32, %N: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c1 to %N step %c1 {
    %r = arith.remsi %i, %c4 : index
    %q = arith.divsi %i, %c4 : index
    %s = arith.addi %r, %q : index
    memref.store %x, %A[%s] : memref<?xf32>
  }
  return
}
",
    );
    check(
        &s,
        "[N] -> { S0[i] : 1 <= i < N }",
        "[N] -> { S0[i] -> x[] }",
        "[N] -> { S0[i] -> A[(i mod 4) + floor(i/4)] }",
    );
    let e = error(
        "func.func @f(%A: memref<?xf32>, %x: f32, %N: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c1 to %N step %c1 {
    %m = arith.subi %i, %c4 : index
    %r = arith.remsi %m, %c4 : index
    memref.store %x, %A[%r] : memref<?xf32>
  }
  return
}
",
    );
    assert!(e.contains("line 7") && e.contains("may be negative"), "{e}");
}

/// Ops of other dialects in MLIR's generic form (`"op0"(%v) : (f32) -> ()`,
/// as MLIR's tests use) compute data from their operands; on a memref, with
/// a region, or from a dialect read in its pretty form, they are errors.
#[test]
fn generic_ops_of_other_dialects_compute_data() {
    let s = mlir(
        "func.func @f(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<10xf32>
    %w = \"test.op\"(%v) {attr = 1 : i64} : (f32) -> f32
    \"op0\"(%w) : (f32) -> ()
    affine.store %w, %A[9 - %i] : memref<10xf32>
    memref.dealloc %A : memref<10xf32>
  }
  return
}
",
    );
    check(
        &s,
        "{ S0[i] : 0 <= i < 10 }",
        "{ S0[i] -> A[i] }",
        "{ S0[i] -> A[9 - i] }",
    );
    let wrap = |op: &str| {
        format!(
            "func.func @f(%A: memref<10xf32>) {{\n  %c = arith.constant 1.0 : f32\n{op}\n  return\n}}\n"
        )
    };
    let e = error(&wrap(
        "  \"test.fill\"(%A, %c) : (memref<10xf32>, f32) -> ()",
    ));
    assert!(
        e.contains("line 3, column 15") && e.contains("on the memref %A"),
        "{e}"
    );
    let e = error(&wrap("  \"test.region\"() ({\n  }) : () -> ()"));
    assert!(e.contains("line 3") && e.contains("regions"), "{e}");
    let e = error(&wrap("  \"affine.yield\"() : () -> ()"));
    assert!(e.contains("generic form is not read"), "{e}");
}

/// `affine.min`/`affine.max` ops (as tiling writes them) bound `scf.for`
/// and `affine.for` loops; as an index they are not affine.
#[test]
fn affine_min_and_max_ops_as_loop_bounds() {
    let s = mlir(
        "#ub = affine_map<(d0)[s0] -> (d0 + 32, s0)>
func.func @f(%A: memref<?xf32>, %x: f32, %N: index) {
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to %N step 32 {
    %lb = affine.max affine_map<(d0) -> (d0, 4)>(%i)
    %ub = affine.min #ub(%i)[%N]
    scf.for %j = %lb to %ub step %c1 {
      memref.store %x, %A[%j] : memref<?xf32>
    }
  }
  return
}
",
    );
    check(
        &s,
        "[N] -> { S0[i, j] : 0 <= i < N and i mod 32 = 0 and j >= i and j >= 4 \
         and j < i + 32 and j < N }",
        "[N] -> { S0[i, j] -> x[] }",
        "[N] -> { S0[i, j] -> A[j] }",
    );
    let e = error(
        "func.func @f(%A: memref<?xf32>, %x: f32, %N: index) {
  affine.for %i = 0 to 10 {
    %m = affine.min affine_map<(d0)[s0] -> (d0, s0)>(%i)[%N]
    memref.store %x, %A[%m] : memref<?xf32>
  }
  return
}
",
    );
    assert!(
        e.contains("line 4") && e.contains("a min of several values"),
        "{e}"
    );
}

/// `affine.vector_load`/`vector_store` touch several elements at once: they
/// are read (for `--mlir-remarks`, which does not count them, as MLIR's pass
/// does not), but the SCoP model refuses them at the op (its last-writer
/// flow takes every access to be one element).
#[test]
fn vector_accesses_are_read_but_not_modelled() {
    let src = "func.func @f(%in: memref<512xf32>, %out: memref<16x64xf32>) {
  affine.for %i = 0 to 16 {
    %ld0 = affine.vector_load %in[32*%i] : memref<512xf32>, vector<32xf32>
    affine.vector_store %ld0, %out[%i, 8] : memref<16x64xf32>, vector<16xf32>
    %x = affine.load %in[%i] : memref<512xf32>
    affine.store %x, %in[%i + 1] : memref<512xf32>
  }
  return
}
";
    let e = error(src);
    assert!(
        e.contains("line 4, column 5") && e.contains("vector access of in"),
        "{e}"
    );
    let r = presburger_schedule::mlir::mlir_remarks(src, "t.mlir", false).unwrap();
    assert_eq!(r.lines().count(), 8, "{r}");
    assert!(
        r.starts_with("t.mlir:5:10: remark: dependence from 0 to 0 at depth 1"),
        "{r}"
    );
    let e = error(
        "func.func @f(%in: memref<512xf32>) {
  %v = affine.vector_load %in[0] : memref<512xf32>, vector<4x4xf32>
  return
}
",
    );
    assert!(e.contains("line 2") && e.contains("vector type"), "{e}");
}

/// `memref.cast` is the same buffer (the same array); `gpu.alloc` is a
/// local buffer as `memref.alloc` is.
#[test]
fn casts_are_the_same_array_and_gpu_buffers_are_local_arrays() {
    let s = mlir(
        "func.func @f(%in: memref<512xf32>) {
  %c = arith.constant 1.0 : f32
  %m2 = memref.cast %in : memref<512xf32> to memref<?xf32>
  %g = gpu.alloc() : memref<10xf32>
  affine.for %i = 0 to 16 {
    affine.store %c, %m2[32*%i] : memref<?xf32>
    %v = affine.load %in[32*%i] : memref<512xf32>
    affine.store %v, %g[%i mod 10] : memref<10xf32>
  }
  gpu.dealloc %g : memref<10xf32>
  return
}
",
    );
    check(
        &s,
        "{ S0[i] : 0 <= i < 16; S1[i] : 0 <= i < 16 }",
        "{ S1[i] -> in[32i] }",
        "{ S0[i] -> in[32i]; S1[i] -> g[i mod 10] }",
    );
}

/// An op's type may stand on the next line (MLIR's tests write long loads
/// so); the next op is not swallowed.
#[test]
fn a_type_on_the_next_line() {
    let s = mlir(
        "func.func @f(%A: memref<4x4xf32>) {
  affine.for %i = 0 to 4 {
    %v = affine.load %A[%i, %i]
      : memref<4x4xf32>
    affine.store %v, %A[%i, 0]
      : memref<4x4xf32>
    %w = affine.load %A[0, %i] : memref<4x4xf32>
  }
  return
}
",
    );
    check(
        &s,
        "{ S0[i] : 0 <= i < 4; S1[i] : 0 <= i < 4 }",
        "{ S0[i] -> A[i, i]; S1[i] -> A[0, i] }",
        "{ S0[i] -> A[i, 0] }",
    );
}

/// `iter_args` are scalars, as a C accumulator is: written before the loop
/// with the initial value, by each iteration's `yield`, read by the body and
/// by the loop's results; the results of an `if` likewise.
#[test]
fn loop_carried_values_and_if_results_are_scalars() {
    let s = mlir(
        "func.func @f(%A: memref<10xf32>, %B: memref<10xf32>, %x: f32) {
  %cst = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 10 iter_args(%acc = %cst) -> (f32) {
    %v = affine.load %A[%i] : memref<10xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  affine.store %r, %B[0] : memref<10xf32>
  affine.for %j = 0 to 10 {
    %y = affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%j) -> f32 {
      %w = affine.load %A[%j] : memref<10xf32>
      affine.yield %w : f32
    } else {
      affine.yield %x : f32
    }
    affine.store %y, %B[%j] : memref<10xf32>
  }
  return
}
",
    );
    let names: Vec<&str> = s.statements.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["S0", "S1", "S2", "S3", "S4", "S5"]);
    check(
        &s,
        "{ S0[]; S1[i] : 0 <= i < 10; S2[]; S3[j] : 5 <= j < 10; S4[j] : 0 <= j < 5; \
         S5[j] : 0 <= j < 10 }",
        "{ S1[i] -> acc[]; S1[i] -> A[i]; S2[] -> acc[]; S3[j] -> A[j]; S4[j] -> x[]; \
         S5[j] -> y[] }",
        "{ S0[] -> acc[]; S1[i] -> acc[]; S2[] -> B[0]; S3[j] -> y[]; S4[j] -> y[]; \
         S5[j] -> B[j] }",
    );
    check_schedule(
        &s,
        "{ S0[] -> [0, 0, 0]; S1[i] -> [1, i, 0]; S2[] -> [2, 0, 0]; \
         S3[j] -> [3, j, 0]; S4[j] -> [3, j, 1]; S5[j] -> [3, j, 2] }",
    );
    let e = error(
        "func.func @f(%A: memref<10xf32>) {
  %r = affine.for %i = 0 to 10 {
  }
  return
}
",
    );
    assert!(
        e.contains("line 2") && e.contains("1 results for 0 iter_args"),
        "{e}"
    );
}

/// Several `iter_args` make one statement each, in order; a yield of
/// several values is one statement that writes them all (it reads every
/// old value first, as MLIR's yield does); results may go unnamed.
#[test]
fn several_iter_args_are_several_statements() {
    let s = mlir(
        "func.func @f(%A: memref<10xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 1.0 : f32
  affine.for %i = 0 to 10 iter_args(%a = %c0, %b = %c1) -> (f32, f32) {
    %v = affine.load %A[%i] : memref<10xf32>
    %s = arith.addf %a, %v : f32
    affine.yield %s, %a : f32, f32
  }
  return
}
",
    );
    check_schedule(
        &s,
        "{ S0[] -> [0, 0, 0]; S1[] -> [1, 0, 0]; S2[i] -> [2, i, 0] }",
    );
    check(
        &s,
        "{ S0[]; S1[]; S2[i] : 0 <= i < 10 }",
        "{ S2[i] -> a[]; S2[i] -> A[i] }",
        "{ S0[] -> a[]; S1[] -> b[]; S2[i] -> a[]; S2[i] -> b[] }",
    );
}

/// A `func.call` on values only computes data; on a memref it is an error
/// (what it touches is unknown).
#[test]
fn calls_on_values_compute_data() {
    let s = mlir(
        "func.func private @g(f32) -> f32
func.func @f(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<10xf32>
    %w = func.call @g(%v) : (f32) -> f32
    func.call @h() : () -> ()
    affine.store %w, %A[%i] : memref<10xf32>
  }
  return
}
",
    );
    check(
        &s,
        "{ S0[i] : 0 <= i < 10 }",
        "{ S0[i] -> A[i] }",
        "{ S0[i] -> A[i] }",
    );
    let e = error(
        "func.func @f(%A: memref<10xf32>) {
  func.call @fill(%A) : (memref<10xf32>) -> ()
  return
}
",
    );
    assert!(
        e.contains("line 2") && e.contains("on the memref %A"),
        "{e}"
    );
}

/// The `index` dialect's arithmetic (`index.add`, `index.mul`, ...) is
/// index arithmetic, as `arith`'s is.
#[test]
fn index_dialect_arithmetic() {
    let s = mlir(
        "func.func @f(%A: memref<?xf32>, %x: f32, %N: index) {
  %c0 = index.constant 0
  %c1 = index.constant 1
  %c2 = index.constant 2
  scf.for %i = %c0 to %N step %c1 {
    %a = index.mul %i, %c2
    %b = index.add %a, %c1
    %q = index.floordivs %b, %c2
    memref.store %x, %A[%q] : memref<?xf32>
  }
  return
}
",
    );
    check(
        &s,
        "[N] -> { S0[i] : 0 <= i < N }",
        "[N] -> { S0[i] -> x[] }",
        "[N] -> { S0[i] -> A[floor((2i + 1)/2)] }",
    );
}

/// Top-level ops other than `func.func` (a `gpu.module` with its region, a
/// `memref.global`, a generic op) are skipped, in a `module` too: the
/// functions after them are found, by name as well; an unclosed region is
/// an error with its place.
#[test]
fn other_top_level_ops_are_skipped() {
    let src = "module {
gpu.module @kernels {
  gpu.func @k() {
    affine.for %i = 0 to 4 {
    }
    gpu.return
  }
}
memref.global \"private\" constant @c : memref<2xi32> = dense<[1, 2]> {alignment = 64 : i64}
func.func private @decl(f32) -> f32
\"test.op\"() ({
  ^bb0:
}) : () -> ()
func.func @first(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<10xf32>
    affine.store %v, %A[%i] : memref<10xf32>
  }
  return
}
gpu.module @more { }
func.func @second(%B: memref<5xf32>) {
  affine.for %j = 0 to 5 {
    %v = affine.load %B[%j] : memref<5xf32>
    affine.store %v, %B[%j] : memref<5xf32>
  }
  return
}
}
";
    let s = mlir(src);
    check(
        &s,
        "{ S0[i] : 0 <= i < 10 }",
        "{ S0[i] -> A[i] }",
        "{ S0[i] -> A[i] }",
    );
    let o = Options {
        function: Some("second".to_string()),
    };
    let s = extract_scop_mlir(src, &o).unwrap();
    check(
        &s,
        "{ S0[j] : 0 <= j < 5 }",
        "{ S0[j] -> B[j] }",
        "{ S0[j] -> B[j] }",
    );
    let e = error(
        "gpu.module @m {
  gpu.func @k() {
func.func @f() {
  return
}
",
    );
    assert!(e.contains("line 1, column 15"), "{e}");
}

/// An attribute dictionary after a region's `}` (of `affine.for`, `affine.if`)
/// is the op's attributes, skipped; one never closed is an error.
#[test]
fn attributes_after_a_region_are_skipped() {
    let s = mlir(
        "func.func @f(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%i) {
      %v = affine.load %A[%i] : memref<10xf32>
      affine.store %v, %A[%i] : memref<10xf32>
    } {tag = \"if\"}
  } {slice_fusion_barrier = true, nested = {a = [1, 2]}}
  affine.for %j = 0 to 3 {
    %w = affine.load %A[%j] : memref<10xf32>
    affine.store %w, %A[%j] : memref<10xf32>
  } {test.keep = \"inner\"}
  return
}
",
    );
    check(
        &s,
        "{ S0[i] : 5 <= i < 10; S1[j] : 0 <= j < 3 }",
        "{ S0[i] -> A[i]; S1[j] -> A[j] }",
        "{ S0[i] -> A[i]; S1[j] -> A[j] }",
    );
    let e = error(
        "func.func @f(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
  } {a = 1
",
    );
    assert!(
        e.contains("line 3, column 5") && e.contains("never closed"),
        "{e}"
    );
}

/// An `arith` op whose result is not named computes nothing used: no
/// statement; an operand that is not defined is still an error.
#[test]
fn arith_ops_without_a_result_name_make_no_statement() {
    let s = mlir(
        "func.func @f(%A: memref<10xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    arith.addi %i, %n : index
    arith.constant 1 : index
    %v = affine.load %A[%i] : memref<10xf32>
    arith.addf %v, %v : f32
    affine.store %v, %A[%i] : memref<10xf32>
  }
  return
}
",
    );
    check(
        &s,
        "[n] -> { S0[i] : 0 <= i < 10 }",
        "[n] -> { S0[i] -> A[i] }",
        "[n] -> { S0[i] -> A[i] }",
    );
    let e = error(
        "func.func @f() {
  arith.addi %x, %x : index
  return
}
",
    );
    assert!(
        e.contains("line 2, column 14") && e.contains("%x is not defined"),
        "{e}"
    );
}

/// A result pack `%r:2` of `affine.for` or `affine.if` is read as the names
/// `%r#0`, `%r#1` (as `%r_0, %r_1 = ...` is, the names isl gets); a use past the pack, a pack on an
/// op with one result and a pack of no results are errors.
#[test]
fn result_packs_are_several_results() {
    let packed = mlir(
        "func.func @f(%A: memref<10xf32>, %B: memref<10xf32>) {
  %c0 = arith.constant 0.0 : f32
  %r:2 = affine.for %i = 0 to 10 iter_args(%a = %c0, %b = %c0) -> (f32, f32) {
    %v = affine.load %A[%i] : memref<10xf32>
    %s = arith.addf %a, %v : f32
    affine.yield %s, %a : f32, f32
  }
  affine.store %r#1, %B[0] : memref<10xf32>
  affine.for %j = 0 to 10 {
    %y:2 = affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%j) -> (f32, f32) {
      affine.yield %r#0, %c0 : f32, f32
    } else {
      affine.yield %c0, %r#1 : f32, f32
    }
    affine.store %y#1, %B[%j] : memref<10xf32>
  }
  return
}
",
    );
    let named = mlir(
        "func.func @f(%A: memref<10xf32>, %B: memref<10xf32>) {
  %c0 = arith.constant 0.0 : f32
  %r_0, %r_1 = affine.for %i = 0 to 10 iter_args(%a = %c0, %b = %c0) -> (f32, f32) {
    %v = affine.load %A[%i] : memref<10xf32>
    %s = arith.addf %a, %v : f32
    affine.yield %s, %a : f32, f32
  }
  affine.store %r_1, %B[0] : memref<10xf32>
  affine.for %j = 0 to 10 {
    %y_0, %y_1 = affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%j) -> (f32, f32) {
      affine.yield %r_0, %c0 : f32, f32
    } else {
      affine.yield %c0, %r_1 : f32, f32
    }
    affine.store %y_1, %B[%j] : memref<10xf32>
  }
  return
}
",
    );
    let (pd, nd) = (packed.domains().unwrap(), named.domains().unwrap());
    assert!(pd.is_equal(&nd).unwrap(), "{pd}\n{nd}");
    let (pw, nw) = (packed.writes().unwrap(), named.writes().unwrap());
    assert!(pw.is_equal(&nw).unwrap(), "{pw}\n{nw}");
    let (pr, nr) = (packed.reads().unwrap(), named.reads().unwrap());
    assert!(pr.is_equal(&nr).unwrap(), "{pr}\n{nr}");
    let past = error(
        "func.func @f(%B: memref<10xf32>) {
  %c0 = arith.constant 0.0 : f32
  %r:2 = affine.for %i = 0 to 10 iter_args(%a = %c0, %b = %c0) -> (f32, f32) {
    affine.yield %a, %b : f32, f32
  }
  affine.store %r#2, %B[0] : memref<10xf32>
  return
}
",
    );
    assert!(
        past.contains("line 6, column 16") && past.contains("%r#2 is not defined"),
        "{past}"
    );
    let one = error(
        "func.func @f(%A: memref<10xf32>) {
  %v:1 = affine.load %A[0] : memref<10xf32>
  return
}
",
    );
    assert!(
        one.contains("line 2, column 3") && one.contains("result pack"),
        "{one}"
    );
    let none = error(
        "func.func @f() {
  %r:0 = affine.for %i = 0 to 10 {
  }
  return
}
",
    );
    assert!(none.contains("line 2, column 6"), "{none}");
}

/// `affine.apply` in MLIR's generic form (with an attribute dictionary or
/// properties, over two lines), the empty integer set `affine_set<() : ()>`
/// (the universe), and semi-affine maps whose symbols are bound to
/// constants: all as their affine equivalents.
#[test]
fn generic_apply_empty_sets_and_semi_affine_maps_bound_to_constants() {
    let s = mlir(
        "func.func @f(%A: memref<100xf32>) {
  %c2 = arith.constant 2 : index
  affine.for %i = 0 to 50 step 2 {
    affine.for %j = 0 to 4 {
      %x = \"affine.apply\" (%j) { map = affine_map<(d0) -> (d0 + 1)> } :
        (index) -> (index)
      %y = \"affine.apply\"(%i, %x) <{map = affine_map<(d0, d1) -> (d0 + d1)>}> : (index, index) -> index
      %z = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%y)[%c2]
      %w = affine.apply affine_map<(d0)[s0] -> (d0 * s0)>(%z)[%c2]
      %v = affine.load %A[%w] : memref<100xf32>
      affine.if affine_set<() : ()>() {
        affine.store %v, %A[%y] : memref<100xf32>
      }
    }
  }
  return
}
",
    );
    check(
        &s,
        "{ S0[i, j] : i mod 2 = 0 and 0 <= i < 50 and 0 <= j < 4 }",
        "{ S0[i, j] -> A[2 * floor((i + j + 1) / 2)] }",
        "{ S0[i, j] -> A[i + j + 1] }",
    );
    let wrap = |map: &str, sym: &str| {
        format!(
            "func.func @f(%A: memref<100xf32>, %N: index) {{
  %c0 = arith.constant 0 : index
  affine.for %i = 0 to 100 {{
    %z = affine.apply affine_map<{map}>(%i)[{sym}]
    %v = affine.load %A[%z] : memref<100xf32>
    affine.store %v, %A[%i] : memref<100xf32>
  }}
  return
}}
"
        )
    };
    // a semi-affine value is an error where it is used as an index
    let e = error(&wrap("(d0)[s0] -> (d0 floordiv s0)", "%N"));
    assert!(
        e.contains("line 5")
            && e.contains("%z is not affine")
            && e.contains("divisor that is not a constant"),
        "{e}"
    );
    let e = error(&wrap("(d0)[s0] -> (d0 * s0)", "%N"));
    assert!(
        e.contains("line 5") && e.contains("product of two values"),
        "{e}"
    );
    let e = error(&wrap("(d0)[s0] -> (d0 mod s0)", "%c0"));
    assert!(e.contains("line 5") && e.contains("divisor 0"), "{e}");
    let e = error(&wrap("(d0)[s0] -> (d0 * d0)", "%N"));
    assert!(e.contains("not affine"), "{e}");
    let e = error(
        "func.func @f(%A: memref<100xf32>) {
  affine.for %i = 0 to 100 {
    %x = \"affine.apply\"(%i) {map = affine_map<(d0)[s0] -> (d0 + s0)>} : (index) -> index
    affine.store %x, %A[%i] : memref<100xf32>
  }
  return
}
",
    );
    assert!(
        e.contains("line 3") && e.contains("takes 2 operands, 1 given"),
        "{e}"
    );
}

/// What MLIR's canonicalization tests leave: an `affine.min` of an
/// `affine.min` (and a semi-affine map) whose value is only returned, a
/// generic op spanning lines, and an `index` computed at the function's top
/// level by an op the reader does not know, used as a symbol (a parameter).
#[test]
fn values_that_are_not_affine_until_used_and_top_level_symbols() {
    let s = mlir(
        "func.func @f(%a: index, %b: index, %N: index, %A: memref<100xf32>) -> index {
  %0 = affine.min affine_map<(d0)[s0] -> (16, d0 - s0)> (%a)[%b]
  %1 = affine.min affine_map<(d0)[s0] -> (3 * s0, d0)> (%0)[%b]
  %2 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)> (%a)[%N]
  %l = \"foo\"() : () -> (index)
  affine.for %i = max affine_map<()[s0] -> (0, s0)> ()[%l] to 10 {
    %v = affine.load %A[%i] : memref<100xf32>
    \"foo.compare\"(%v, %v) {cmp = \"EQ\"}
        : (f32, f32) -> ()
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  return %1 : index
}
",
    );
    let p = "[a, b, l] -> ";
    check(
        &s,
        &format!("{p}{{ S0[i] : 0 <= i <= 9 and i >= l }}"),
        &format!("{p}{{ S0[i] -> A[i] }}"),
        &format!("{p}{{ S0[i] -> A[i + 1] }}"),
    );
    let e = error(
        "func.func @f(%a: index, %A: memref<100xf32>) {
  %0 = affine.min affine_map<(d0) -> (16, d0)> (%a)
  %1 = affine.apply affine_map<(d0) -> (d0 + 1)> (%0)
  %v = affine.load %A[%1] : memref<100xf32>
  return
}
",
    );
    assert!(
        e.contains("line 4")
            && e.contains("%1 is not affine")
            && e.contains("a min of several values"),
        "{e}"
    );
    // inside a loop, an unknown op's index is data, not a parameter
    let e = error(
        "func.func @f(%A: memref<100xf32>) {
  affine.for %i = 0 to 10 {
    %l = \"foo\"() : () -> index
    %v = affine.load %A[%l] : memref<100xf32>
  }
  return
}
",
    );
    assert!(e.contains("line 4") && e.contains("data-dependent"), "{e}");
}

/// `affine.delinearize_index` (the digits of an index in a mixed radix, the
/// first one not reduced) and `affine.linearize_index` (their sum weighted by
/// the radix), with constant bases, as their `floordiv`/`mod` forms; a basis
/// with a symbol gives values that are errors where used as indices.
/// `affine.prefetch` touches no element.
#[test]
fn delinearize_and_linearize_index() {
    let s = mlir(
        "func.func @f(%A: memref<4x8x16xf32>, %B: memref<512xf32>) {
  %c8 = arith.constant 8 : index
  affine.for %x = 0 to 500 {
    %r:3 = affine.delinearize_index %x into (4, %c8, 16) : index, index, index
    %v = affine.load %A[%r#0, %r#1, %r#2] : memref<4x8x16xf32>
    %l = affine.linearize_index disjoint [%r#0, %r#2] by (4, 16) : index
    %q:2 = affine.delinearize_index %x into (16) : index, index
    %u = affine.load %B[%q#0 - %q#1] : memref<512xf32>
    affine.prefetch %B[%l + 16], read, locality<3>, data : memref<512xf32>
    affine.store %v, %B[%l] : memref<512xf32>
  }
  return
}
",
    );
    check(
        &s,
        "{ S0[x] : 0 <= x < 500; S1[x] : 0 <= x < 500 }",
        "{ S1[x] -> A[floor(x / 128), floor(x / 16) mod 8, x mod 16]; \
           S0[x] -> B[floor(x / 16) - (x mod 16)] }",
        "{ S1[x] -> B[16 * floor(x / 128) + (x mod 16)] }",
    );
    let wrap = |ops: &str| {
        format!(
            "func.func @f(%A: memref<512xf32>, %N: index) {{
  affine.for %x = 0 to 500 {{
{ops}
  }}
  return
}}
"
        )
    };
    // a symbol in the basis: semi-affine, an error only where used
    let e = error(&wrap(
        "    %r:2 = affine.delinearize_index %x into (%N) : index, index
    %v = affine.load %A[%r#1] : memref<512xf32>",
    ));
    assert!(
        e.contains("line 4") && e.contains("%r#1 is not affine"),
        "{e}"
    );
    let _ = mlir(&wrap(
        "    %r:2 = affine.delinearize_index %x into (%N) : index, index
    %v = affine.load %A[%x] : memref<512xf32>",
    ));
    let e = error(&wrap(
        "    %r:3 = affine.delinearize_index %x into (4) : index, index, index",
    ));
    assert!(
        e.contains("line 3") && e.contains("3 indices need a basis of 3 or 2"),
        "{e}"
    );
    let e = error(&wrap(
        "    %l = affine.linearize_index [%x, %x] by (2, 3) : vector<4xindex>
    %v = affine.load %A[%l] : memref<512xf32>",
    ));
    assert!(
        e.contains("line 4") && e.contains("vectors of indices"),
        "{e}"
    );
    for (bad, want) in [
        ("%A[%x], rw, locality<0>, data", "access kind"),
        ("%A[%x], read, locality<4>, data", "locality is 0 to 3"),
        ("%A[%x], read, locality<0>, false", "cache type"),
        ("%A[%y], read, locality<0>, data", "%y is not defined"),
    ] {
        let e = error(&wrap(&format!(
            "    affine.prefetch {bad} : memref<512xf32>"
        )));
        assert!(e.contains("line 3") && e.contains(want), "{e}");
    }
}
