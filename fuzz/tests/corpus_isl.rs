//! Checks the expected answers of the `poly batch` corpus (`tests/data/`) against
//! isl, for the operations isl answers directly: is_empty, is_subset, is_equal,
//! is_disjoint (as emptiness of the intersection, via subtraction) and
//! subtract_is_empty.

mod common;

use common::{batch_queries, isl_decide};
use presburger_fuzz::isl::Ctx;
use std::path::PathBuf;

#[test]
fn corpus_answers_agree_with_isl() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data");
    let ctx = Ctx::new();
    let mut checked = 0;
    for name in ["emptiness", "algebra"] {
        let input = std::fs::read_to_string(dir.join(format!("{name}.batch"))).unwrap();
        let expected = std::fs::read_to_string(dir.join(format!("{name}.expected"))).unwrap();
        for (q, want) in batch_queries(&input).iter().zip(expected.lines()) {
            let got = isl_decide(&ctx, &q.op, &q.args);
            assert_eq!(
                got.map(|b| b.to_string()).as_deref(),
                Some(want),
                "isl disagrees on {}",
                q.text
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} checked");
}
