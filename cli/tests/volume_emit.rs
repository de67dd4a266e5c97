//! `poly volume --emit`, `--emit-regions` and `--main`: the files are written,
//! the emitted function keeps the original's name and signature, and (when
//! `mlir-opt-22` is installed) they pass MLIR's verifier.

mod common;

use common::{poly, stderr, stdout};
use std::process::Command;

fn example(name: &str) -> String {
    format!("{}/../examples/{name}.mlir", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn emit_writes_tiled_and_region_modules() {
    let dir = std::env::temp_dir().join(format!("poly-volume-emit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (t, r, m) = (dir.join("t.mlir"), dir.join("r.mlir"), dir.join("m.mlir"));
    let src = example("conv_pad_relu");
    let o = poly(
        &[
            "volume",
            &src,
            "--tile",
            "2=16,3=16",
            "--emit",
            t.to_str().unwrap(),
            "--emit-regions",
            r.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("wrote"), "{}", stdout(&o));
    let tiled = std::fs::read_to_string(&t).unwrap();
    let regions = std::fs::read_to_string(&r).unwrap();
    let sig = "func.func @krnl0(%ifm: tensor<1x3x512x512xf32>) -> tensor<1x8x256x256xf32>";
    assert!(tiled.contains(sig) && regions.contains(sig));
    assert!(tiled.contains("scf.for") && !regions.contains("scf.for"));
    let o = poly(
        &[
            "volume",
            &src,
            "--main",
            m.to_str().unwrap(),
            "--main-module",
            t.to_str().unwrap(),
            "--reps",
            "3",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let with_main = std::fs::read_to_string(&m).unwrap();
    assert!(with_main.contains("func.func @main()") && with_main.contains("@rtclock"));
    let have_opt = Command::new("mlir-opt-22")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if have_opt {
        for f in [&t, &r, &m] {
            let o = Command::new("mlir-opt-22").arg(f).output().unwrap();
            assert!(o.status.success(), "{}: {}", f.display(), stderr(&o));
        }
    } else {
        eprintln!("skipped the verification: mlir-opt-22 not installed");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn emit_needs_tiles_and_reports_errors() {
    let src = example("conv_pad_relu");
    let o = poly(&["volume", &src, "--emit", "/nonexistent/x.mlir"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--tile"), "{}", stderr(&o));
    let o = poly(
        &[
            "volume",
            &src,
            "--tile",
            "9=4",
            "--emit",
            "/tmp/never-written.mlir",
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("dimension 9"), "{}", stderr(&o));
}
