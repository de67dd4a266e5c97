//! The `poly batch` corpus in `tests/data/`: each `NAME.batch` must print exactly
//! `NAME.expected` (answers from the literature and checked against isl by
//! `fuzz/tests/corpus_isl.rs`).

use std::path::PathBuf;
use std::process::Command;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

#[test]
fn batch_corpus_gives_the_expected_answers() {
    let mut checked = 0;
    for entry in std::fs::read_dir(data_dir()).expect("tests/data exists") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "batch") {
            continue;
        }
        let expected = std::fs::read_to_string(path.with_extension("expected"))
            .unwrap_or_else(|e| panic!("{}: no .expected file: {e}", path.display()));
        let out = Command::new(env!("CARGO_BIN_EXE_poly"))
            .arg("batch")
            .arg(&path)
            .output()
            .expect("poly runs");
        let got = String::from_utf8_lossy(&out.stdout);
        let got: Vec<&str> = got.lines().collect();
        let want: Vec<&str> = expected.lines().collect();
        assert_eq!(got.len(), want.len(), "{}: line count", path.display());
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{}: answer {} differs", path.display(), k + 1);
        }
        checked += want.len();
    }
    assert!(checked >= 50, "only {checked} corpus answers checked");
}
