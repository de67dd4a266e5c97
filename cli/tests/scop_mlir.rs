//! `poly scop` on MLIR: chosen by the `.mlir` extension or by text starting
//! with `func.func`/`module`; prints the same five lines as for C.

mod common;

use common::{kernel, poly};

#[test]
fn scop_reads_mlir_files_and_mlir_on_stdin() {
    let o = poly(&["scop", &kernel("gemm.mlir")], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let keys: Vec<&str> = text
        .lines()
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    assert_eq!(keys, ["context", "domain", "schedule", "reads", "writes"]);
    assert!(text.contains("S1[i, k, j2] -> B[k, j2]"), "{text}");
    // on standard input, by its first word
    let src = std::fs::read_to_string(kernel("trisolv.mlir")).unwrap();
    let o = poly(&["scop"], &src);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("S2[i] -> L[i, i]"));
    // deps work on MLIR too
    let o = poly(&["deps", &kernel("jacobi-1d.mlir")], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("raw: "));
}

#[test]
fn scop_mlir_errors_name_the_line_column_and_op() {
    let o = poly(
        &["scop"],
        "func.func @f(%N: index) {\n  scf.while : () -> () {\n  }\n  return\n}\n",
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 2, column 3: unsupported operation `scf.while`"),
        "{err}"
    );
}
