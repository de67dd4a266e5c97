//! Checks the expected answers of the `poly batch` corpus (`tests/data/`) against
//! isl, for the operations isl answers directly: is_empty, is_subset, is_equal,
//! is_disjoint (as emptiness of the intersection, via subtraction) and
//! subtract_is_empty.

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
        let queries = input
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        for (line, want) in queries.zip(expected.lines()) {
            let parts: Vec<&str> = line.split('\t').collect();
            // a map (one space) is compared as its set of pairs `{ [A[..] -> B[..]] : .. }`
            let as_set = |text: &str| -> String {
                match text.split_once('{') {
                    Some((pre, body)) if body.contains("->") => {
                        let end = body
                            .find(':')
                            .unwrap_or_else(|| body.rfind('}').unwrap_or(0));
                        format!("{pre}{{ [{}] {}", body[..end].trim(), &body[end..])
                    }
                    _ => text.to_string(),
                }
            };
            let isl = |text: &str| {
                let t = as_set(text);
                ctx.union_set(&t)
                    .unwrap_or_else(|| panic!("isl does not read {t}"))
            };
            let got = match parts[0] {
                // a map has `->` inside the braces (parameters put one before them)
                "is_empty"
                    if parts[1]
                        .split_once('{')
                        .is_some_and(|(_, b)| b.contains("->")) =>
                {
                    ctx.union_map_is_empty(parts[1])
                }
                "is_empty" => isl(parts[1]).is_empty(),
                "is_subset" => isl(parts[1]).is_subset(&isl(parts[2])),
                "is_equal" => isl(parts[1]).is_equal(&isl(parts[2])),
                "subtract_is_empty" => isl(parts[1])
                    .subtract(&isl(parts[2]))
                    .and_then(|d| d.is_empty()),
                "is_disjoint" => {
                    // A and B are disjoint iff A - B = A
                    let a = isl(parts[1]);
                    a.subtract(&isl(parts[2])).and_then(|d| d.is_equal(&a))
                }
                other => panic!("unknown op {other}"),
            };
            assert_eq!(
                got.map(|b| b.to_string()).as_deref(),
                Some(want),
                "isl disagrees on {line}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} checked");
}
