//! Running a function with MLIR's own tools: `presburger_volume::interp::harness` adds a
//! `@main` that fills the inputs as `presburger_volume::interp::pseudo_random_inputs_sized`
//! does and prints a hash per result; this lowers the module with
//! `mlir-opt-22` (one-shot bufferization with function boundaries, buffer
//! deallocation, linalg to loops, strided metadata, affine and scf lowering,
//! to LLVM) and executes it with `mlir-runner-22 -O3`.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The MLIR 22 tools and the runtime library `vector.print` needs.
pub struct Tools {
    pub opt: String,
    pub runner: String,
    pub runtime: PathBuf,
}

/// The tools, or `None` (after printing why) when they are not installed.
pub fn tools() -> Option<Tools> {
    let ok = |cmd: &str| {
        Command::new(cmd)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !ok("mlir-opt-22") || !ok("mlir-runner-22") {
        eprintln!(
            "skipped: mlir-opt-22 / mlir-runner-22 not installed (apt-get install mlir-22-tools)"
        );
        return None;
    }
    let libdir = Command::new("llvm-config-22")
        .arg("--libdir")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "/usr/lib/llvm-22/lib".to_string());
    let runtime = std::fs::read_dir(&libdir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libmlir_c_runner_utils.so"))
        });
    let Some(runtime) = runtime else {
        eprintln!("skipped: no libmlir_c_runner_utils.so in {libdir}");
        return None;
    };
    Some(Tools {
        opt: "mlir-opt-22".into(),
        runner: "mlir-runner-22".into(),
        runtime,
    })
}

/// The hashes MLIR's execution of `@func` prints, one per result, on the
/// inputs of `seed` and `sizes`.
pub fn mlir_hashes(
    t: &Tools,
    text: &str,
    func: &str,
    seed: u64,
    sizes: &[i64],
) -> Result<Vec<u64>, String> {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let module = presburger_volume::interp::harness::with_main(text, func, seed, sizes)
        .map_err(|e| e.to_string())?;
    let dir = std::env::temp_dir().join(format!(
        "volume-mlir-exec-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let input = dir.join("in.mlir");
    let lowered = dir.join("llvm.mlir");
    std::fs::write(&input, &module).map_err(|e| e.to_string())?;
    let out = Command::new(&t.opt)
        .arg(&input)
        .args([
            "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map",
            "--buffer-deallocation-pipeline",
            "--convert-bufferization-to-memref",
            "--convert-linalg-to-loops",
            "--expand-strided-metadata",
            "--lower-affine",
            "--convert-scf-to-cf",
            "--convert-to-llvm",
            "--reconcile-unrealized-casts",
            "-o",
        ])
        .arg(&lowered)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "mlir-opt failed on {}:\n{}",
            input.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let out = Command::new(&t.runner)
        .arg(&lowered)
        .args(["-e", "main", "--entry-point-result=void", "-O3"])
        .arg(format!("--shared-libs={}", t.runtime.display()))
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "mlir-runner failed on {}:\n{}",
            lowered.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let hashes = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            l.trim()
                .parse::<i64>()
                .map(|h| h as u64)
                .map_err(|_| format!("unexpected output line `{l}`"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(hashes)
}

/// Checks that MLIR's execution and the interpreter give the same result
/// hashes for `@func` on the inputs of `seed` and `sizes`; does nothing when
/// the tools are missing.
pub fn check_against_mlir(text: &str, func: &str, seed: u64, sizes: &[i64]) {
    let Some(t) = tools() else { return };
    let inputs = presburger_volume::interp::pseudo_random_inputs_sized(text, func, seed, sizes)
        .unwrap_or_else(|e| panic!("{e}"));
    let results = presburger_volume::interp::run(text, func, inputs)
        .unwrap_or_else(|e| panic!("interpreter: {e}"));
    let ours = presburger_volume::interp::hash_values(&results);
    let theirs = mlir_hashes(&t, text, func, seed, sizes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        ours, theirs,
        "@{func}: interpreter hashes against mlir-runner's"
    );
}

/// `text` as `mlir-opt-22` prints it (verified, in MLIR's pretty form), with
/// the extra options `args` (such as `--mlir-print-debuginfo`).
pub fn mlir_printed(t: &Tools, text: &str, args: &[&str]) -> Result<String, String> {
    use std::io::Write;
    let mut child = Command::new(&t.opt)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "mlir-opt-22 refuses the module:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The check an emitted program needs: `transformed = (text, func)` gives,
/// in the interpreter, bit for bit what `original` gives on the inputs of
/// `seed` and `sizes`; and, when the MLIR tools are installed, both modules
/// verify, read back from `mlir-opt-22`'s printed form to the same results,
/// and execute under `mlir-runner-22` to the interpreter's result hashes.
pub fn check_transformed(
    original: (&str, &str),
    transformed: (&str, &str),
    seed: u64,
    sizes: &[i64],
) {
    let results = presburger_volume::interp::compare(original, transformed, seed, sizes)
        .unwrap_or_else(|e| panic!("{e}"));
    let ours = presburger_volume::interp::hash_values(&results);
    let Some(t) = tools() else { return };
    for (text, func) in [original, transformed] {
        let printed = mlir_printed(&t, text, &[]).unwrap_or_else(|e| panic!("@{func}: {e}"));
        presburger_volume::interp::compare((text, func), (&printed, func), seed, sizes)
            .unwrap_or_else(|e| panic!("@{func} as mlir-opt prints it: {e}"));
        let theirs = mlir_hashes(&t, text, func, seed, sizes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            ours, theirs,
            "@{func}: interpreter hashes against mlir-runner's"
        );
    }
}
