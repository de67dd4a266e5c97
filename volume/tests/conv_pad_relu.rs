//! The paper's running example end to end (Sec. 5, Figure 1), from the MLIR text of
//! `examples/conv_pad_relu.mlir`: reader, shapes, element maps, lenient composition,
//! regions and tiling, checked against the results the paper states.

use presburger::{Set, UnionSet};
use presburger_volume::model::{Model, Options, count_points};

fn set(s: &str) -> Set {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn model(options: &Options) -> Model {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/conv_pad_relu.mlir"
    );
    let text = std::fs::read_to_string(path).expect("example exists");
    Model::from_mlir(&text, options).unwrap_or_else(|e| panic!("{e}"))
}

const DOM: &str = "{ act0[n, f, h, w] : n = 0 and 0 <= f < 8 and 0 <= h < 256 and 0 <= w < 256 }";

fn within(s: &str) -> Set {
    set(s).intersect(&set(DOM)).unwrap()
}

#[test]
fn program_map_reaches_input_weights_and_padding() {
    let m = model(&Options::default());
    let out = m.output(Some("%act0")).unwrap();
    assert!(m.domain(out).unwrap().is_equal(&set(DOM)).unwrap());
    let map = m.output_map(out).unwrap();
    let mut leaves: Vec<String> = map
        .members()
        .iter()
        .filter_map(|x| x.space().range_tuple().name.clone())
        .collect();
    leaves.sort();
    // the padding value cst0 (its first use, in the pad), its clone used by the
    // activation's body, the slope constant, the fill's zero and the weights
    assert_eq!(leaves, ["cst0", "cst0_01", "cst0_1", "ifm", "wgt", "zero"]);
    // one output element reads a 5x5 window of the input around (2h - 1, 2w - 1)
    let reads = map
        .apply_to(&"{ act0[0, 3, 10, 20] }".parse::<UnionSet>().unwrap())
        .unwrap();
    let ifm = reads
        .members()
        .iter()
        .find(|s| s.space().range_tuple().name.as_deref() == Some("ifm"))
        .unwrap()
        .clone();
    assert!(
        ifm.is_equal(&set(
            "{ ifm[0, c, y, x] : 0 <= c < 3 and 19 <= y <= 23 and 39 <= x <= 43 }"
        ))
        .unwrap()
    );
}

#[test]
fn regions_are_the_papers() {
    let m = model(&Options::default());
    let out = m.output(None).unwrap();
    let r = m.regions(out).unwrap();
    let i_c = within("{ act0[n, f, h, w] : h >= 255 or w >= 255 or h <= 0 or w <= 0 }");
    assert!(r.constant.is_equal(&i_c).unwrap(), "I_c = {}", r.constant);
    let i_d = within("{ act0[n, f, h, w] : 0 < h <= 254 and 0 < w <= 254 }");
    assert!(r.dense.is_equal(&i_d).unwrap(), "I_D = {}", r.dense);
    assert!(r.static_only.is_empty().unwrap());
    // corners: the intersections of two edge halfspaces
    let halfspaces = ["h <= 0", "h >= 255", "w <= 0", "w >= 255"];
    let mut corners = Set::empty(r.domain.space().clone()).unwrap();
    for (i, a) in halfspaces.iter().enumerate() {
        for b in &halfspaces[i + 1..] {
            corners = corners
                .union(&within(&format!("{{ act0[n, f, h, w] : {a} and {b} }}")))
                .unwrap();
        }
    }
    assert!(
        r.corners.is_equal(&corners).unwrap(),
        "corners = {}",
        r.corners
    );
    assert!(r.edges.is_equal(&i_c.subtract(&corners).unwrap()).unwrap());
    // sizes: 8 * 254 * 254 dense elements, 8 * 4 corners (a corner is 1x1 here)
    assert_eq!(
        count_points(&r.dense, 1 << 20).unwrap(),
        Some(8 * 254 * 254)
    );
    assert_eq!(count_points(&r.corners, 1 << 20).unwrap(), Some(8 * 4));
    assert_eq!(
        count_points(&r.edges, 1 << 20).unwrap(),
        Some(8 * (256 * 256 - 254 * 254 - 4))
    );
}

#[test]
fn without_cloning_the_activation_shadows_the_padding_in_the_map_only() {
    // Sec. 5.4: the body of the activation uses cst0 too; with one volume for both
    // uses, every output element depends on cst0 in the program map, and the
    // padding can no longer be read off it ...
    let m = model(&Options {
        clone_constants: false,
        ..Options::default()
    });
    let out = m.output(None).unwrap();
    let cst0 = m
        .output_map(out)
        .unwrap()
        .members()
        .iter()
        .find(|x| x.space().range_tuple().name.as_deref() == Some("cst0"))
        .unwrap()
        .domain();
    assert!(cst0.is_equal(&set(DOM)).unwrap());
    // ... but the regions use the pad's own padding edge (a volume identifier per
    // def-use edge), so they are the paper's all the same
    let r = m.regions(out).unwrap();
    let i_c = within("{ act0[n, f, h, w] : h >= 255 or w >= 255 or h <= 0 or w <= 0 }");
    assert!(r.constant.is_equal(&i_c).unwrap());
    assert_eq!(m.padding_markers, ["pad0_padding"]);
}

#[test]
fn tiles_of_16_by_16() {
    let m = model(&Options::default());
    let out = m.output(None).unwrap();
    let t = m.tile(out, &[(2, 16), (3, 16)]).unwrap();
    assert!(
        t.all
            .is_equal(&set("{ [Q2, Q3] : 0 <= Q2 <= 15 and 0 <= Q3 <= 15 }"))
            .unwrap()
    );
    // the interior tiles: exactly those that do not touch I_c
    assert!(
        t.interior
            .is_equal(&set("{ [Q2, Q3] : 1 <= Q2 <= 14 and 1 <= Q3 <= 14 }"))
            .unwrap()
    );
    let r = m.regions(out).unwrap();
    for q2 in 0..16 {
        for q3 in 0..16 {
            let tile = within(&format!(
                "{{ act0[n, f, h, w] : 16*{q2} <= h < 16*{q2} + 16 and 16*{q3} <= w < 16*{q3} + 16 }}"
            ));
            let touches = !tile.is_disjoint(&r.constant).unwrap();
            let interior = !t
                .interior
                .is_disjoint(&set(&format!("{{ [{q2}, {q3}] }}")))
                .unwrap();
            assert_eq!(touches, !interior, "tile ({q2}, {q3})");
        }
    }
    // the input slice of tile (Q2, Q3): rows from 32Q2 - 1, columns from 32Q3 - 1,
    // 35 of each (Sec. 5.3)
    let (_, _, ifm) = t.slices.iter().find(|(n, _, _)| n == "ifm").unwrap();
    let ifm = ifm.as_ref().expect("the ifm footprint is a slice");
    assert_eq!(ifm.offsets, ["0", "0", "32Q2 - 1", "32Q3 - 1"]);
    assert_eq!(ifm.sizes, ["1", "3", "35", "35"]);
    assert_eq!(ifm.strides, ["1", "1", "1", "1"]);
    let (_, _, wgt) = t.slices.iter().find(|(n, _, _)| n == "wgt").unwrap();
    assert_eq!(wgt.as_ref().unwrap().sizes, ["8", "3", "5", "5"]);
    let w = t.written.as_ref().expect("a tile writes a slice");
    assert_eq!(w.sizes, ["1", "8", "1", "16", "1", "16"]);
}
