//! The kernels of `tests/kernels/`: each `NAME.c` is extracted and every line
//! of the hand-written `NAME.expected` (`context:`, `domain:`, `schedule:`,
//! `reads:`, `writes:` in isl notation) must be equal, as a set or map (not
//! as text), to the model's. Each kernel must also compile with
//! `cc -std=c99 -Wall -Werror` and run.

use presburger::{Set, UnionMap, UnionSet};
use presburger_schedule::{Options, Scop, extract_scop};
use std::path::{Path, PathBuf};

fn kernel_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels")
}

/// The kernels' C files, sorted by name.
fn kernels() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(kernel_dir())
        .expect("tests/kernels exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

/// The lines of `expected` that differ from the model (empty when all are
/// equal); every one of the five lines must be present.
fn mismatches(scop: &Scop, expected: &str) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["context", "domain", "schedule", "reads", "writes"] {
        let prefix = format!("{key}:");
        let Some(line) = expected.lines().find(|l| l.starts_with(&prefix)) else {
            out.push(format!("no '{key}:' line"));
            continue;
        };
        let want = line[prefix.len()..].trim();
        let verdict: Result<(bool, String), String> = (|| {
            let e = |e: presburger::Error| format!("{key}: {e}");
            Ok(match key {
                "context" => {
                    let w: Set = want.parse().map_err(e)?;
                    (
                        scop.context.is_equal(&w).map_err(e)?,
                        scop.context.to_string(),
                    )
                }
                "domain" => {
                    let w: UnionSet = want.parse().map_err(e)?;
                    let got = scop.domains().map_err(e)?;
                    (got.is_equal(&w).map_err(e)?, got.to_string())
                }
                _ => {
                    let w: UnionMap = want.parse().map_err(e)?;
                    let got = match key {
                        "schedule" => scop.schedule(),
                        "reads" => scop.reads(),
                        _ => scop.writes(),
                    }
                    .map_err(e)?;
                    (got.is_equal(&w).map_err(e)?, got.to_string())
                }
            })
        })();
        match verdict {
            Ok((true, _)) => {}
            Ok((false, got)) => out.push(format!("{key}: expected {want}\n    got {got}")),
            Err(msg) => out.push(msg),
        }
    }
    out
}

fn extract(path: &Path) -> Scop {
    let src = std::fs::read_to_string(path).expect("readable kernel");
    extract_scop(&src, &Options::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn kernels_match_their_expected_lines() {
    let all = kernels();
    let mut failures = Vec::new();
    for path in &all {
        let scop = extract(path);
        let expected = std::fs::read_to_string(path.with_extension("expected"))
            .unwrap_or_else(|_| panic!("{} has no .expected file", path.display()));
        for m in mismatches(&scop, &expected) {
            failures.push(format!("{}: {m}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(all.len() >= 20, "only {} kernels", all.len());
}

/// The comparison can fail: a changed access, a missing statement, an
/// extra constraint and a missing line are each caught.
#[test]
fn a_broken_expected_line_is_caught() {
    let path = kernel_dir().join("gemm.c");
    let scop = extract(&path);
    let good = std::fs::read_to_string(path.with_extension("expected")).unwrap();
    assert!(mismatches(&scop, &good).is_empty());
    for (from, to) in [
        ("B[k, j]", "B[j, k]"),
        ("S0[i, j] -> C[i, j]; S1", "S1"),
        ("0 <= j < NJ }", "0 <= j < NJ - 1 }"),
        ("[0, i, 1, k, 0, j, 0]", "[0, i, 1, k, 0, j, 1]"),
        ("NK >= 1 }", "NK >= 2 }"),
        ("context:", "kontext:"),
    ] {
        assert!(good.contains(from), "{from}");
        let bad = good.replacen(from, to, 1);
        assert!(
            !mismatches(&scop, &bad).is_empty(),
            "{from} -> {to} not caught"
        );
    }
}

#[test]
fn kernels_compile_and_run() {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    if std::process::Command::new(&cc)
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no C compiler '{cc}'");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kernels");
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for path in kernels() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let exe = dir.join(&name);
        let out = std::process::Command::new(&cc)
            .args(["-std=c99", "-Wall", "-Werror", "-O1"])
            .arg(&path)
            .arg("-o")
            .arg(&exe)
            .arg("-lm")
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{name}: does not compile\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let run = std::process::Command::new(&exe).output().unwrap();
        let text = String::from_utf8_lossy(&run.stdout);
        if !run.status.success() || text.trim().is_empty() || text.contains("nan") {
            failures.push(format!("{name}: bad run: {:?} {text}", run.status));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
