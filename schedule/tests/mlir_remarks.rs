//! `mlir_remarks`, MLIR's dependence report (issue 43), on cases whose
//! answer is known without `mlir-opt`: the cases of MLIR's own test where
//! MLIR is conservative and ours is exact, an access in an `else` region
//! (which MLIR gets wrong), numbering across the functions of a module, and
//! `--split-input-file`.

use presburger_schedule::mlir::mlir_remarks;

/// The ` = RESULT` part of each remark, with `from A to B at depth D`.
fn results(src: &str, split: bool) -> Vec<String> {
    mlir_remarks(src, "t.mlir", split)
        .unwrap_or_else(|e| panic!("{e}"))
        .lines()
        .map(|l| {
            l.split_once(": remark: dependence from ")
                .unwrap()
                .1
                .to_string()
        })
        .collect()
}

/// MLIR's `@mod_deps`: its remark 1 to 1 at depth 1 is `[2, 9]`; the store
/// `%m[(%i0 + 1) mod 2]` meets itself at iterations of one parity, at most
/// 8 apart in `0 .. 9`.
#[test]
fn mod_deps_exact() {
    let src = "func.func @mod_deps() {
  %m = memref.alloc() : memref<100xf32>
  %c7 = arith.constant 7.0 : f32
  affine.for %i0 = 0 to 10 {
    %a0 = affine.apply affine_map<(d0) -> (d0 mod 2)> (%i0)
    %v0 = affine.load %m[%a0] : memref<100xf32>
    %a1 = affine.apply affine_map<(d0) -> ( (d0 + 1) mod 2)> (%i0)
    affine.store %c7, %m[%a1] : memref<100xf32>
  }
  return
}
";
    assert_eq!(
        results(src, false),
        [
            "0 to 0 at depth 1 = false",
            "0 to 0 at depth 2 = false",
            "0 to 1 at depth 1 = [1, 9]",
            "0 to 1 at depth 2 = false",
            "1 to 0 at depth 1 = [1, 9]",
            "1 to 0 at depth 2 = false",
            "1 to 1 at depth 1 = [2, 8]",
            "1 to 1 at depth 2 = false",
        ]
    );
}

/// MLIR gives an op in an `else` region the `then` condition and answers
/// `false` for 0 to 1; the store at `%i = 10` is followed by the load.
#[test]
fn else_regions_have_the_negated_condition() {
    let src = "func.func @f(%A: memref<100xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 100 {
    affine.if affine_set<(d0) : (d0 - 50 >= 0)>(%i) {
    } else {
      affine.store %c, %A[%i] : memref<100xf32>
    }
  }
  %v = affine.load %A[10] : memref<100xf32>
  return
}
";
    assert_eq!(results(src, false)[2], "0 to 1 at depth 1 = true");
    // as MLIR has it
    let mlir = presburger_schedule::mlir::mlir_remarks_with(src, "t.mlir", false, true).unwrap();
    let third = mlir.lines().nth(2).unwrap_or("");
    assert!(third.ends_with("0 to 1 at depth 1 = false"), "{mlir}");
}

/// Accesses are numbered over the module; two functions' accesses never
/// depend on each other (only depth 1, `false`); with `split` each part
/// is a module of its own, its remarks at the lines of the whole text.
#[test]
fn numbering_over_a_module_and_split_parts() {
    let f = "func.func @f(%A: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  affine.store %c, %A[0] : memref<4xf32>
  %v = affine.load %A[0] : memref<4xf32>
  return
}
";
    let module = format!("{f}{}", f.replace("@f", "@g"));
    let r = results(&module, false);
    assert_eq!(r.len(), 16);
    assert_eq!(r[1], "0 to 1 at depth 1 = true");
    assert_eq!(r[2], "0 to 2 at depth 1 = false");
    assert_eq!(r[14], "3 to 2 at depth 1 = false");
    let split = format!("{f}// -----\n{}", f.replace("@f", "@g"));
    let all = mlir_remarks(&split, "t.mlir", true).unwrap();
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(
        lines[4],
        "t.mlir:10:3: remark: dependence from 0 to 0 at depth 1 = false"
    );
    assert_eq!(
        lines[5],
        "t.mlir:10:3: remark: dependence from 0 to 1 at depth 1 = true"
    );
}

/// A function the reader refuses is an error at its line and column.
#[test]
fn refused_functions_are_placed_errors() {
    let e = mlir_remarks(
        "func.func @f(%A: memref<4xf32>) {\n  scf.while : () -> () {\n  }\n  return\n}\n",
        "t.mlir",
        false,
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("line 2, column 3:"), "{e}");
}

/// No prefix of a module (cut at any character) makes `mlir_remarks`
/// panic: it gives remarks or an error.
#[test]
fn no_prefix_panics() {
    let src = "#set = affine_set<(d0)[s0] : (d0 - s0 floordiv 2 >= 0)>
func.func @f(%A: memref<?x?xf32>, %N: index) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to %N step 2 {
    %a = affine.apply affine_map<(d0)[s0] -> (d0 mod 3 + s0)> (%i)[%N]
    affine.if #set(%i)[%N] {
      affine.store %c, %A[%a, %i] : memref<?x?xf32>
    } else {
      %v = affine.load %A[%i, %a] : memref<?x?xf32>
    }
    affine.parallel (%p) = (0) to (min(%N, 8)) {
      affine.load %A[%p, %i] : memref<?x?xf32>
    }
  }
  return
}
// -----
func.func @g(%B: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  affine.store %c, %B[0] : memref<4xf32>
  return
}
";
    let full = mlir_remarks(src, "t.mlir", true).unwrap();
    // @f: 3 accesses, 8 pairs with one common loop (2 depths) and the
    // parallel load with itself (3); @g, a module of its own: 1
    assert_eq!(full.lines().count(), 8 * 2 + 3 + 1);
    for (cut, _) in src.char_indices() {
        for split in [false, true] {
            let _ = mlir_remarks(&src[..cut], "t.mlir", split);
        }
    }
}

/// A `memref.cast` of a buffer accesses the buffer: ours finds the
/// dependence, where MLIR, comparing memref values, says `false`.
#[test]
fn casts_alias_their_buffer() {
    let src = "func.func @f(%in: memref<512xf32>) {
  %c = arith.constant 1.0 : f32
  %m2 = memref.cast %in : memref<512xf32> to memref<?xf32>
  affine.store %c, %m2[3] : memref<?xf32>
  %v = affine.load %in[3] : memref<512xf32>
  return
}
";
    assert_eq!(results(src, false)[1], "0 to 1 at depth 1 = true");
}

/// An `scf.for` around affine loops is no loop of MLIR's report: depths
/// count the affine loops only, and the `scf.for`'s iterator is free in
/// each access (as `mlir-opt-22` prints for this function of
/// `loop-fusion-inner.mlir`, with one more store).
#[test]
fn scf_loops_are_not_depths() {
    let src = "func.func @fusion_inner_simple_scf(%A : memref<10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.for %i = %c0 to %c100 step %c1 {
    %B = memref.alloc() : memref<10xf32>
    affine.for %j = 0 to 10 {
      %v = affine.load %A[%j] : memref<10xf32>
      affine.store %v, %B[%j] : memref<10xf32>
    }
    affine.for %j = 0 to 10 {
      %v = affine.load %B[%j] : memref<10xf32>
      affine.store %v, %A[%j] : memref<10xf32>
    }
  }
  return
}
";
    let r = results(src, false);
    let want = |s: &str| assert!(r.iter().any(|x| x == s), "{s} not in {r:#?}");
    // the store to %B and the load of it have no common (affine) loop: one
    // depth, `true`, although the scf.for carries the dependence too
    want("1 to 2 at depth 1 = true");
    // the load of %A meets the later store to %A only through the scf.for:
    // without common affine loops, `true` at depth 1, and back from the
    // store to the load too (the scf.for's next iteration, free here)
    want("0 to 3 at depth 1 = true");
    want("3 to 0 at depth 1 = false");
    // one affine loop in common: depth 1 is the %j loop
    want("2 to 3 at depth 1 = false");
    want("2 to 3 at depth 2 = false");
    assert_eq!(r.len(), 16 + 2 * 2 + 2 * 2, "{r:#?}");
}
