//! The MLIR front end: each `tests/kernels/NAME.mlir` (hand-written in the
//! affine dialect, one in the `scf.for` + `memref` form) must give the same
//! model as `NAME.c` (statement names, parameters, and the `domain:`,
//! `schedule:`, `reads:`, `writes:` unions, compared with `is_equal`) and as
//! the hand-written `NAME.expected`; its context is the universe (MLIR types say
//! nothing about the sizes) and so contains the C context. Malformed and
//! non-affine inputs are errors at a line and column naming the op; no input
//! prefix panics. When `mlir-opt-22` is installed the kernels must pass its
//! verifier (skipped otherwise).

use presburger::{Set, UnionMap, UnionSet};
use presburger_schedule::{Options, Scop, extract_scop, extract_scop_mlir, looks_like_mlir};
use std::path::{Path, PathBuf};

fn kernel_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels")
}

/// The kernels with an MLIR version, sorted by name.
fn mlir_kernels() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(kernel_dir())
        .expect("tests/kernels exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    v.sort();
    v
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|_| panic!("{} is readable", path.display()))
}

fn mlir(src: &str) -> Scop {
    extract_scop_mlir(src, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The four union views as text lines of the model.
fn unions(s: &Scop) -> (UnionSet, [UnionMap; 3]) {
    (
        s.domains().unwrap(),
        [
            s.schedule().unwrap(),
            s.reads().unwrap(),
            s.writes().unwrap(),
        ],
    )
}

/// The lines where `a` and `b` differ.
fn differences(a: &Scop, b: &Scop) -> Vec<String> {
    let (da, ma) = unions(a);
    let (db, mb) = unions(b);
    let mut out = Vec::new();
    if !da.is_equal(&db).unwrap() {
        out.push(format!("domain: {da}\n    vs {db}"));
    }
    for (key, (x, y)) in ["schedule", "reads", "writes"]
        .iter()
        .zip(ma.iter().zip(&mb))
    {
        if !x.is_equal(y).unwrap() {
            out.push(format!("{key}: {x}\n    vs {y}"));
        }
    }
    out
}

/// The lines of `expected` (except `context:`) that differ from the model.
fn expected_differences(s: &Scop, expected: &str) -> Vec<String> {
    let (d, m) = unions(s);
    let mut out = Vec::new();
    let line = |key: &str| {
        expected
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key}:")))
            .unwrap_or_else(|| panic!("no {key}: line"))
            .trim()
            .to_string()
    };
    let want: UnionSet = line("domain").parse().unwrap();
    if !d.is_equal(&want).unwrap() {
        out.push(format!("domain: {d}"));
    }
    for (key, got) in ["schedule", "reads", "writes"].iter().zip(&m) {
        let want: UnionMap = line(key).parse().unwrap();
        if !got.is_equal(&want).unwrap() {
            out.push(format!("{key}: {got}"));
        }
    }
    let c_context: Set = line("context").parse().unwrap();
    if !c_context.is_subset(&s.context).unwrap() {
        out.push(format!(
            "context {} does not contain {c_context}",
            s.context
        ));
    }
    out
}

#[test]
fn mlir_kernels_match_their_c_versions_and_expected_lines() {
    let all = mlir_kernels();
    let mut failures = Vec::new();
    let mut scf = 0;
    for path in &all {
        let text = read(path);
        if text.contains("scf.for") && text.contains("memref.load") {
            scf += 1;
        }
        let m = mlir(&text);
        let c = extract_scop(&read(&path.with_extension("c")), &Options::default()).unwrap();
        let name = path.display();
        let names = |s: &Scop| {
            s.statements
                .iter()
                .map(|s| s.name.clone())
                .collect::<Vec<_>>()
        };
        if names(&m) != names(&c) {
            failures.push(format!(
                "{name}: statements {:?} vs {:?}",
                names(&m),
                names(&c)
            ));
        }
        if m.params != c.params {
            failures.push(format!(
                "{name}: parameters {:?} vs {:?}",
                m.params, c.params
            ));
        }
        for d in differences(&m, &c) {
            failures.push(format!("{name}: {d}"));
        }
        for d in expected_differences(&m, &read(&path.with_extension("expected"))) {
            failures.push(format!("{name}: expected {d}"));
        }
        let universe: Set = format!("[{}] -> {{ : }}", m.params.join(", "))
            .parse()
            .unwrap();
        if !m.context.is_equal(&universe).unwrap() {
            failures.push(format!("{name}: context {}", m.context));
        }
        for (sm, sc) in m.statements.iter().zip(&c.statements) {
            if sm.writes.len() != sc.writes.len() || sm.iterators.len() != sc.iterators.len() {
                failures.push(format!("{name}: {} differs in writes or depth", sm.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(all.len() >= 5, "only {} MLIR kernels", all.len());
    assert!(scf >= 1, "no kernel in the scf.for + memref form");
}

/// A changed subscript, bound or statement order is caught by the comparison.
#[test]
fn a_changed_mlir_kernel_is_caught() {
    let path = kernel_dir().join("gemm.mlir");
    let good = read(&path);
    let c = extract_scop(&read(&path.with_extension("c")), &Options::default()).unwrap();
    assert!(differences(&mlir(&good), &c).is_empty());
    for (from, to) in [
        ("%B[%k, %j2]", "%B[%j2, %k]"),
        ("affine.for %k = 0 to %NK", "affine.for %k = 1 to %NK"),
        ("%p1 = arith.mulf %p0, %b", "%p1 = arith.mulf %p0, %p0"),
    ] {
        assert!(good.contains(from), "{from}");
        let bad = good.replacen(from, to, 1);
        assert!(!differences(&mlir(&bad), &c).is_empty(), "{from} -> {to}");
    }
}

#[test]
fn statement_texts_iterators_and_arrays() {
    let s = mlir(&read(&kernel_dir().join("gemm.mlir")));
    assert_eq!(s.statements[1].iterators, ["i", "k", "j2"]);
    let t = &s.statements[0].text;
    assert!(t.starts_with("%c0 = affine.load %C[%i, %j]"), "{t}");
    assert!(
        t.ends_with("affine.store %s0, %C[%i, %j] : memref<?x?xf64>"),
        "{t}"
    );
    let c = s.array("C").unwrap();
    assert_eq!((c.dims, c.element_type.as_deref()), (2, Some("f64")));
    assert_eq!(c.sizes, ["?", "?"]);
    assert_eq!(s.array("beta").unwrap().dims, 0);
}

/// `memref.dim` results as parameters, `--function`, a `module` with other
/// functions, declarations, and sibling regions reusing names.
#[test]
fn parameters_from_memref_dim_and_function_selection() {
    let src = "module {\n  func.func private @decl(memref<?xf32>)\n  func.func @first(%A: memref<?xf32>) {\n    return\n  }\n  func.func @k(%A: memref<?x?xf32>) {\n    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %n = memref.dim %A, %c0 : memref<?x?xf32>\n    %m = memref.dim %A, %c1 : memref<?x?xf32>\n    scf.for %i = %c0 to %n step %c1 {\n      %t = arith.constant 2.0 : f32\n      memref.store %t, %A[%i, %c0] : memref<?x?xf32>\n    }\n    scf.for %j = %c1 to %m step %c1 {\n      %t = arith.constant 3.0 : f32\n      memref.store %t, %A[%c0, %j] : memref<?x?xf32>\n    }\n    return\n  }\n}\n";
    let opts = Options {
        function: Some("k".into()),
    };
    let s = extract_scop_mlir(src, &opts).unwrap();
    assert_eq!(s.params, ["n", "m"]);
    let d: UnionSet = "[n, m] -> { S0[i] : 0 <= i < n; S1[j] : 1 <= j < m }"
        .parse()
        .unwrap();
    assert!(s.domains().unwrap().is_equal(&d).unwrap());
    // the first function with a body is @first: no statements
    let first = extract_scop_mlir(src, &Options::default()).unwrap();
    assert!(first.statements.is_empty());
    let e = extract_scop_mlir(
        src,
        &Options {
            function: Some("nope".into()),
        },
    )
    .unwrap_err();
    assert!(e.message.contains("@nope"), "{e}");
}

/// `scf.if` on `arith.cmpi` of affine indices, with `andi`, `ori`, `ne` and
/// `else`, gives the C model of the same conditions.
#[test]
fn scf_if_on_cmpi() {
    let src = "func.func @f(%N: index, %A: memref<?x?xf64>) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n  %z = arith.constant 0.0 : f64\n  scf.for %i = %c0 to %N step %c1 {\n    scf.for %j = %c0 to %N step %c1 {\n      %e = arith.cmpi eq, %i, %j : index\n      %i2 = arith.addi %i, %c2 : index\n      %l = arith.cmpi slt, %i2, %j : index\n      %g = arith.cmpi sge, %j, %c1 : index\n      %a = arith.andi %l, %g : i1\n      %o = arith.ori %e, %a : i1\n      scf.if %o {\n        memref.store %z, %A[%i, %j] : memref<?x?xf64>\n      } else {\n        %n = arith.cmpi ne, %i, %c1 : index\n        scf.if %n {\n          memref.store %z, %A[%j, %i] : memref<?x?xf64>\n        }\n      }\n    }\n  }\n  return\n}\n";
    let c = "#pragma scop\nfor (i = 0; i < N; i++)\n  for (j = 0; j < N; j++)\n    if (i == j || (i + 2 < j && j >= 1))\n      A[i][j] = 0.0;\n    else if (i != 1)\n      A[j][i] = 0.0;\n#pragma endscop\n";
    let m = mlir(src);
    let c = extract_scop(c, &Options::default()).unwrap();
    assert!(differences(&m, &c).is_empty(), "{:?}", differences(&m, &c));
    // a condition on data is refused at the scf.if, naming it
    let data = src.replace(
        "%o = arith.ori %e, %a : i1",
        "%v = memref.load %A[%i, %j] : memref<?x?xf64>\n      %o = arith.cmpf olt, %v, %z : f64",
    );
    let e = extract_scop_mlir(&data, &Options::default()).unwrap_err();
    assert!(e.message.starts_with("scf.if: the condition %o"), "{e}");
    assert_eq!((e.line, e.column), (15, 14), "{e}");
}

/// A local scalar (`memref.alloca() : memref<f64>`) plays the part of a C
/// temporary: `t = A[i]; B[i] = t * t;`.
#[test]
fn local_arrays_from_alloca() {
    let src = "func.func @f(%N: index, %A: memref<?xf64>, %B: memref<?xf64>) {\n  %t = memref.alloca() : memref<f64>\n  affine.for %i = 0 to %N {\n    %a = affine.load %A[%i] : memref<?xf64>\n    affine.store %a, %t[] : memref<f64>\n    %x = affine.load %t[] : memref<f64>\n    %y = arith.mulf %x, %x : f64\n    affine.store %y, %B[%i] : memref<?xf64>\n  }\n  return\n}\n";
    let c = "#pragma scop\nfor (i = 0; i < N; i++) {\n  t = A[i];\n  B[i] = t * t;\n}\n#pragma endscop\n";
    let m = mlir(src);
    let c = extract_scop(c, &Options::default()).unwrap();
    assert!(differences(&m, &c).is_empty(), "{:?}", differences(&m, &c));
    assert_eq!(m.array("t").unwrap().dims, 0);
}

#[test]
fn mlir_is_recognised_by_its_first_word() {
    assert!(looks_like_mlir("// c\nfunc.func @f() {\n}\n"));
    assert!(looks_like_mlir("  module {\n}"));
    assert!(looks_like_mlir("#map = affine_map<(d0) -> (d0)>\n"));
    assert!(!looks_like_mlir("#include <stdio.h>\n"));
    assert!(!looks_like_mlir("#pragma scop\n"));
    assert!(!looks_like_mlir("int main(void) { return 0; }"));
}

/// Wraps `body` in a function with the usual arguments.
fn wrap(body: &str) -> String {
    format!(
        "func.func @f(%N: index, %A: memref<?xf64>, %B: memref<?x?xf64>, %s: f64) {{\n{body}\n  return\n}}\n"
    )
}

#[test]
fn malformed_and_non_affine_inputs_are_placed_errors() {
    // (input, line, column, part of the message)
    let cases: Vec<(String, usize, usize, &str)> = vec![
        (
            wrap("  scf.while : () -> () {\n  }"),
            2,
            3,
            "unsupported operation `scf.while`",
        ),
        (
            wrap(
                "  affine.for %i = 0 to %N {\n    %v = affine.load %A[%i] : memref<?xf64>\n    %k = arith.fptosi %v : f64 to i64\n    %x = arith.index_cast %k : i64 to index\n    %w = memref.load %A[%x] : memref<?xf64>\n    affine.store %w, %A[%i] : memref<?xf64>\n  }",
            ),
            6,
            25,
            "memref.load: the index %x is data-dependent",
        ),
        (
            wrap(
                "  affine.for %i = 0 to %N {\n    %k = arith.muli %i, %i : index\n    %w = memref.load %A[%k] : memref<?xf64>\n    memref.store %w, %A[%i] : memref<?xf64>\n  }",
            ),
            4,
            25,
            "not affine (`arith.muli` of two non-constant values)",
        ),
        (
            wrap(
                "  affine.for %i = 0 to %N {\n    %w = affine.load %A[%i * %i] : memref<?xf64>\n  }",
            ),
            3,
            28,
            "affine.load: `d0 * d0` is not affine",
        ),
        (
            wrap("  affine.for %i = 0 to %N {\n    %w = affine.load %A[%i] : memref<?xf64>\n"),
            7,
            1,
            "never closed",
        ),
        (
            wrap("  affine.for %i = 0 to %N step 0 {\n  }"),
            2,
            32,
            "step 0 must be positive",
        ),
        (
            wrap("  affine.for %i = 0 to %N {\n    affine.store %s, %B[%i] : memref<?x?xf64>\n  }"),
            3,
            22,
            "%B has 2 dimensions, given 1 subscripts",
        ),
        (
            wrap("  affine.if #nope(%N) {\n  }"),
            2,
            13,
            "#nope is not an integer set alias",
        ),
        (
            wrap("  affine.if affine_set<(d0) : (d0 > 0)>(%N) {\n  }"),
            2,
            35,
            "expected `>=`, `<=` or `==`",
        ),
        (
            wrap("  %x = affine.load %A[%q] : memref<?xf64>"),
            2,
            23,
            "%q is not defined",
        ),
        (
            wrap(
                "  affine.for %i = 0 to %N {\n    %r = affine.for %j = 0 to %N iter_args(%a = %A) -> (memref<?xf64>) {\n      affine.yield %a : memref<?xf64>\n    }\n  }",
            ),
            3,
            49,
            "loop-carried memrefs are not supported",
        ),
        (
            wrap("  %c = arith.constant 1 : index\n  scf.for %i = %c to %N step %N {\n  }"),
            3,
            30,
            "the step %N must be a positive constant",
        ),
        (
            wrap("  \"scf.while\"() : () -> ()"),
            2,
            3,
            "unsupported operation `scf.while`",
        ),
        (
            wrap("  affine.for %i = min #m(%N) to %N {\n  }"),
            2,
            19,
            "`min` in a lower bound",
        ),
        (
            "func.func @f(%A: memref<4xf32>) {\n  func.call @g(%A) : (memref<4xf32>) -> ()\n}\n"
                .to_string(),
            2,
            16,
            "unsupported operation `func.call` on the memref %A",
        ),
        (
            wrap("  scf.if %N {\n  }"),
            2,
            10,
            "scf.if: the condition %N is not an arith.cmpi",
        ),
        (
            "int main(void) {}".to_string(),
            1,
            1,
            "expected `func.func`",
        ),
        (
            "func.func @g(%N: index)\n".to_string(),
            1,
            1,
            "no function with a body",
        ),
    ];
    for (src, line, col, msg) in &cases {
        let e = match extract_scop_mlir(src, &Options::default()) {
            Ok(_) => panic!("accepted:\n{src}"),
            Err(e) => e,
        };
        assert!(
            e.message.contains(msg) && (e.line, e.column) == (*line, *col),
            "{src}\nwant {line}:{col} `{msg}`, got {e}"
        );
    }
    assert!(cases.len() >= 10);
}

/// Every prefix of every kernel, and a few mangled copies, read without a
/// panic (an error or a model).
#[test]
fn no_input_prefix_panics() {
    for path in mlir_kernels() {
        let text = read(&path);
        for (i, _) in text.char_indices().step_by(3) {
            let _ = extract_scop_mlir(&text[..i], &Options::default());
        }
        for (from, to) in [
            ("%", ""),
            ("{", ""),
            ("}", ""),
            ("(", "["),
            ("0", "-99999999999999999999"),
        ] {
            let _ = extract_scop_mlir(&text.replacen(from, to, 3), &Options::default());
        }
    }
    let loops: String = (0..100)
        .map(|k| format!("affine.for %i{k} = 0 to %N {{\n"))
        .collect();
    let deep = format!(
        "func.func @f(%N: index) {{\n{loops}{}}}\n",
        "}\n".repeat(100)
    );
    let e = extract_scop_mlir(&deep, &Options::default()).unwrap_err();
    assert!(e.message.contains("nested more than"), "{e}");
    // doubling chains of index and data values stay small
    let mut body = String::from(
        "  %x0 = arith.addi %N, %N : index\n  %v0 = affine.load %A[%N] : memref<?xf64>\n",
    );
    for k in 1..100 {
        body += &format!(
            "  %x{k} = arith.addi %x{p}, %x{p} : index\n  %v{k} = arith.addf %v{p}, %v{p} : f64\n",
            p = k - 1
        );
    }
    let src = wrap(&format!(
        "{body}  affine.store %v99, %A[%N] : memref<?xf64>\n  memref.store %v99, %A[%x99] : memref<?xf64>"
    ));
    let e = extract_scop_mlir(&src, &Options::default()).unwrap_err();
    assert!(e.message.contains("more than 1024 terms"), "{e}");
    assert_eq!(e.line, 203, "{e}");
    let ok = src.replace("  memref.store %v99, %A[%x99] : memref<?xf64>", "");
    let s = extract_scop_mlir(&ok, &Options::default()).unwrap();
    assert_eq!(s.statements[0].reads.len(), 1);
}

/// Random edits of the kernels (deleting, duplicating or replacing a piece
/// with MLIR punctuation and keywords) never panic.
#[test]
fn random_edits_never_panic() {
    const PIECES: [&str; 16] = [
        "%",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "<",
        ">",
        "-",
        " * ",
        "#",
        "affine.for %z = 0 to %N {",
        "step",
        "\n",
        "9223372036854775807",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n.max(1)
    };
    for path in mlir_kernels() {
        let text = read(&path);
        for _ in 0..150 {
            let mut t = text.clone();
            for _ in 0..1 + next(3) {
                let mut at = next(t.len());
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                let mut end = (at + next(12)).min(t.len());
                while !t.is_char_boundary(end) {
                    end -= 1;
                }
                let piece = match next(3) {
                    0 => String::new(),
                    1 => t[at..end].repeat(2),
                    _ => PIECES[next(PIECES.len())].to_string(),
                };
                t.replace_range(at..end, &piece);
            }
            let _ = extract_scop_mlir(&t, &Options::default());
        }
    }
}

/// The kernels are valid MLIR: `mlir-opt-22 --verify-each` accepts them
/// (skipped when the tool is not installed).
#[test]
fn mlir_kernels_pass_mlir_opt() {
    let tool = std::env::var("MLIR_OPT").unwrap_or_else(|_| "mlir-opt-22".into());
    if std::process::Command::new(&tool)
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no {tool}");
        return;
    }
    for path in mlir_kernels() {
        let out = std::process::Command::new(&tool)
            .arg("--verify-each")
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `text` with `%argK` (a number K below `names.len()`) renamed `%names[K]`:
/// undoes `mlir-opt`'s renaming of the function's arguments.
fn rename_args(text: &str, names: &[String]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("%arg") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 4..];
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        match tail[..digits]
            .parse::<usize>()
            .ok()
            .and_then(|k| names.get(k))
        {
            Some(n) if digits > 0 => out.push_str(&format!("%{n}")),
            _ => out.push_str(&rest[i..i + 4 + digits]),
        }
        rest = &tail[digits..];
    }
    out.push_str(rest);
    out
}

/// The argument names of the first function of `text`, in order.
fn arg_names(text: &str) -> Vec<String> {
    let start = text.find("func.func").expect("a function");
    let open = start + text[start..].find('(').expect("(");
    let close = open + text[open..].find(')').expect(")");
    text[open + 1..close]
        .split(',')
        .filter_map(|a| a.trim().strip_prefix('%'))
        .map(|a| a.split(':').next().unwrap_or("").trim().to_string())
        .collect()
}

/// What `mlir-opt-22` prints for each kernel (its own names `%arg0`, `%0`,
/// `#map1`, a `module`, names reused in sibling regions) is read back into
/// the same model, once its argument names are restored; so is the output of
/// `--lower-affine` (`scf.for`, `scf.if` on `arith.cmpi`, `memref` ops and
/// index arithmetic) except where the lowering computes `mod`, `floordiv` or
/// `min` with `arith.remsi`/`divsi`/`select`, which are refused as not affine,
/// naming the op (skipped when the tool is not installed).
#[test]
fn mlir_opt_output_reads_back() {
    let tool = std::env::var("MLIR_OPT").unwrap_or_else(|_| "mlir-opt-22".into());
    if std::process::Command::new(&tool)
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no {tool}");
        return;
    }
    let mut lowered_equal = 0;
    for (path, pass) in mlir_kernels()
        .into_iter()
        .flat_map(|p| [(p.clone(), None), (p, Some("--lower-affine"))])
    {
        let text = read(&path);
        let mut cmd = std::process::Command::new(&tool);
        cmd.args(pass).arg(&path);
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", path.display());
        let printed = rename_args(&String::from_utf8_lossy(&out.stdout), &arg_names(&text));
        let got = extract_scop_mlir(&printed, &Options::default());
        let m = match (got, pass) {
            (Ok(m), _) => m,
            (Err(e), Some(_)) => {
                assert!(
                    ["arith.remsi", "arith.divsi", "arith.select", "arith.cmpi"]
                        .iter()
                        .any(|op| e.message.contains(op)),
                    "{} lowered: {e}",
                    path.display()
                );
                continue;
            }
            (Err(e), None) => panic!("{}: {e}\n{printed}", path.display()),
        };
        if pass.is_some() {
            lowered_equal += 1;
        }
        let original = mlir(&text);
        assert_eq!(m.statements.len(), original.statements.len());
        // mlir-opt renames memref.dim and memref.alloca results: the parameter
        // and array names differ there
        if !text.contains("memref.dim") && !text.contains("memref.alloca") {
            let d = differences(&m, &original);
            assert!(d.is_empty(), "{}: {d:?}", path.display());
        }
    }
    assert!(
        lowered_equal >= 5,
        "only {lowered_equal} lowered kernels read back"
    );
}
