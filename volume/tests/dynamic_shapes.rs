//! Feed-forward shape inference with a dynamic size, from MLIR text
//! (`examples/dynamic_pad_matmul.mlir`): a `tensor<?x3xf32>` through a pad and a
//! matmul gives every domain in terms of the parameter `x_d0`, and the dynamic size
//! of the `tensor.empty(%n)` used as the matmul's init is unified with it.

use presburger::Set;
use presburger_volume::model::{Model, Options};

fn set(s: &str) -> Set {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn model() -> Model {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/dynamic_pad_matmul.mlir"
    );
    let text = std::fs::read_to_string(path).expect("example exists");
    Model::from_mlir(&text, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn domains_are_in_terms_of_the_dynamic_size() {
    let m = model();
    let dom = |name: &str| m.domain(m.program.find(name).unwrap()).unwrap();
    assert!(
        dom("x")
            .is_equal(&set("[x_d0] -> { x[i, j] : 0 <= i < x_d0 and 0 <= j < 3 }"))
            .unwrap()
    );
    assert!(
        dom("p")
            .is_equal(&set(
                "[x_d0] -> { p[i, j] : 0 <= i < x_d0 + 3 and 0 <= j < 3 }"
            ))
            .unwrap()
    );
    // the init's `?` (tensor.empty(%n)) must equal the matmul's row count
    for v in ["e", "c", "r"] {
        let want = set(&format!(
            "[x_d0] -> {{ {v}[i, j] : 0 <= i < x_d0 + 3 and 0 <= j < 5 }}"
        ));
        assert!(dom(v).is_equal(&want).unwrap(), "{v}: {}", dom(v));
    }
    assert_eq!(m.shapes.params, ["x_d0"]);
}

#[test]
fn the_program_map_reads_the_input_rows_shifted_by_the_padding() {
    let m = model();
    let out = m.output(None).unwrap();
    let map = m.output_map(out).unwrap();
    let x = map
        .members()
        .iter()
        .find(|x| x.space().range_tuple().name.as_deref() == Some("x"))
        .unwrap()
        .clone();
    let want: presburger::Map =
        "[x_d0] -> { r[i, j] -> x[i - 1, k] : 1 <= i <= x_d0 and 0 <= j < 5 and 0 <= k < 3 }"
            .parse()
            .unwrap();
    assert!(x.is_equal(&want).unwrap(), "{x}");
    // no element of the result depends on the uninitialised tensor.empty
    assert!(
        map.members()
            .iter()
            .all(|x| x.space().range_tuple().name.as_deref() != Some("e"))
    );
    // regions: the rows of padding depend on constants only (static); the rest is
    // dense
    let r = m.regions(out).unwrap();
    assert!(
        r.dense
            .is_equal(&set(
                "[x_d0] -> { r[i, j] : 1 <= i <= x_d0 and 0 <= j < 5 }"
            ))
            .unwrap()
    );
    assert!(r.static_only.is_equal(&r.constant).unwrap());
}
