//! Element maps of single operations against reference interpreters that list, for
//! every result element, the operand elements the op's definition reads (by looping
//! over the iteration space, independently of the map construction); shape
//! inference; result domains from arbitrary operand domains; the paper's Sec. 5.1
//! maps.

mod common;

use common::*;
use presburger::{Map, Set, UnionMap, UnionSet};
use presburger_volume::Error;
use presburger_volume::element_map::{
    diagonal_map, inner_product_map, op_element_map, outer_product_map, reduction_map,
    result_domains,
};
use presburger_volume::ir::{AffineMap, OpKind, Program, ValueId};
use presburger_volume::shape::{Shapes, infer_shapes};

fn map_of(p: &Program, op: usize) -> (Shapes, UnionMap) {
    let sh = infer_shapes(p).expect("shapes");
    let m = op_element_map(p, op, &sh).expect("map");
    (sh, m)
}

fn last_op(p: &Program) -> usize {
    p.ops.len() - 1
}

fn check(p: &Program, result: ValueId, reference: &Reads) {
    let (sh, m) = map_of(p, last_op(p));
    check_against(p, &sh, &m, result, reference);
}

#[test]
fn generic_elementwise() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[4, 3]));
    let x = b.arg("x", tensor(&[4, 3]));
    let e = b.empty("e", tensor(&[4, 3]), &[]);
    let id = AffineMap::identity(2);
    let r = b.linalg(
        "linalg.generic",
        &[a, x],
        e,
        &[],
        vec![id.clone(), id.clone(), id],
        2,
        false,
        ("r", tensor(&[4, 3])),
    );
    let mut reads = Reads::new();
    for i in 0..4 {
        for j in 0..3 {
            read(&mut reads, &[i, j], "a", &[i, j]);
            read(&mut reads, &[i, j], "x", &[i, j]);
        }
    }
    check(&b.p, r, &reads);
}

#[test]
fn generic_diagonal() {
    // r[i, j] = a[i, i]
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[3, 3]));
    let e = b.empty("e", tensor(&[3, 4]), &[]);
    let r = b.linalg(
        "linalg.generic",
        &[a],
        e,
        &[],
        vec![amap(2, vec![d(0), d(0)]), AffineMap::identity(2)],
        2,
        false,
        ("r", tensor(&[3, 4])),
    );
    let mut reads = Reads::new();
    for i in 0..3 {
        for j in 0..4 {
            read(&mut reads, &[i, j], "a", &[i, i]);
        }
    }
    check(&b.p, r, &reads);
}

#[test]
fn generic_outer_product() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[3]));
    let x = b.arg("x", tensor(&[4]));
    let e = b.empty("e", tensor(&[3, 4]), &[]);
    let r = b.linalg(
        "linalg.generic",
        &[a, x],
        e,
        &[],
        vec![
            AffineMap::select(2, &[0]),
            AffineMap::select(2, &[1]),
            AffineMap::identity(2),
        ],
        2,
        false,
        ("r", tensor(&[3, 4])),
    );
    let mut reads = Reads::new();
    for i in 0..3 {
        for j in 0..4 {
            read(&mut reads, &[i, j], "a", &[i]);
            read(&mut reads, &[i, j], "x", &[j]);
        }
    }
    check(&b.p, r, &reads);
}

#[test]
fn matmul() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[3, 4]));
    let x = b.arg("x", tensor(&[4, 5]));
    let acc = b.arg("acc", tensor(&[3, 5]));
    let r = b.linalg(
        "linalg.matmul",
        &[a, x],
        acc,
        &[],
        vec![
            AffineMap::select(3, &[0, 2]),
            AffineMap::select(3, &[2, 1]),
            AffineMap::select(3, &[0, 1]),
        ],
        2,
        true,
        ("r", tensor(&[3, 5])),
    );
    let mut reads = Reads::new();
    for i in 0..3 {
        for j in 0..5 {
            for k in 0..4 {
                read(&mut reads, &[i, j], "a", &[i, k]);
                read(&mut reads, &[i, j], "x", &[k, j]);
            }
            read(&mut reads, &[i, j], "acc", &[i, j]);
        }
    }
    check(&b.p, r, &reads);
}

#[test]
fn batch_matmul() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[2, 3, 4]));
    let x = b.arg("x", tensor(&[2, 4, 2]));
    let acc = b.arg("acc", tensor(&[2, 3, 2]));
    let r = b.linalg(
        "linalg.batch_matmul",
        &[a, x],
        acc,
        &[],
        vec![
            AffineMap::select(4, &[0, 1, 3]),
            AffineMap::select(4, &[0, 3, 2]),
            AffineMap::select(4, &[0, 1, 2]),
        ],
        3,
        true,
        ("r", tensor(&[2, 3, 2])),
    );
    let mut reads = Reads::new();
    for bb in 0..2 {
        for i in 0..3 {
            for j in 0..2 {
                for k in 0..4 {
                    read(&mut reads, &[bb, i, j], "a", &[bb, i, k]);
                    read(&mut reads, &[bb, i, j], "x", &[bb, k, j]);
                }
                read(&mut reads, &[bb, i, j], "acc", &[bb, i, j]);
            }
        }
    }
    check(&b.p, r, &reads);
}

/// `s * o + dl * k`
fn strided(o: usize, k: usize) -> presburger_volume::ir::AffineExpr {
    add(mul(d(o), c(2)), mul(d(k), c(2)))
}

#[test]
fn conv_2d_nhwc_hwcf_stride_2_dilation_2() {
    // input 1x9x9x2, filter 2x2x2x3, output 1x4x4x3: (9 - 2*(2-1) - 1)/2 + 1 = 4
    let mut b = Builder::new();
    let inp = b.arg("inp", tensor(&[1, 9, 9, 2]));
    let w = b.arg("w", tensor(&[2, 2, 2, 3]));
    let acc = b.arg("acc", tensor(&[1, 4, 4, 3]));
    // loops (n, oh, ow, f, kh, kw, c)
    let r = b.linalg(
        "linalg.conv_2d_nhwc_hwcf",
        &[inp, w],
        acc,
        &[],
        vec![
            amap(7, vec![d(0), strided(1, 4), strided(2, 5), d(6)]),
            AffineMap::select(7, &[4, 5, 6, 3]),
            AffineMap::select(7, &[0, 1, 2, 3]),
        ],
        4,
        true,
        ("r", tensor(&[1, 4, 4, 3])),
    );
    let mut reads = Reads::new();
    for oh in 0..4 {
        for ow in 0..4 {
            for f in 0..3 {
                let o = [0, oh, ow, f];
                for kh in 0..2 {
                    for kw in 0..2 {
                        for ch in 0..2 {
                            read(
                                &mut reads,
                                &o,
                                "inp",
                                &[0, 2 * oh + 2 * kh, 2 * ow + 2 * kw, ch],
                            );
                            read(&mut reads, &o, "w", &[kh, kw, ch, f]);
                        }
                    }
                }
                read(&mut reads, &o, "acc", &o);
            }
        }
    }
    check(&b.p, r, &reads);
}

#[test]
fn conv_2d_nchw_fchw_stride_2_dilation_2() {
    // input 2x2x8x9, filter 3x2x2x3, output 2x3x3x3: H: (8-3)/2+1 = 3, W: (9-5)/2+1 = 3
    let mut b = Builder::new();
    let inp = b.arg("inp", tensor(&[2, 2, 8, 9]));
    let w = b.arg("w", tensor(&[3, 2, 2, 3]));
    let acc = b.arg("acc", tensor(&[2, 3, 3, 3]));
    // loops (n, f, oh, ow, c, kh, kw)
    let r = b.linalg(
        "linalg.conv_2d_nchw_fchw",
        &[inp, w],
        acc,
        &[],
        vec![
            amap(7, vec![d(0), d(4), strided(2, 5), strided(3, 6)]),
            AffineMap::select(7, &[1, 4, 5, 6]),
            AffineMap::select(7, &[0, 1, 2, 3]),
        ],
        4,
        true,
        ("r", tensor(&[2, 3, 3, 3])),
    );
    let mut reads = Reads::new();
    for o in box_points(&[2, 3, 3, 3]) {
        let (n, f, oh, ow) = (o[0], o[1], o[2], o[3]);
        for ch in 0..2 {
            for kh in 0..2 {
                for kw in 0..3 {
                    read(
                        &mut reads,
                        &o,
                        "inp",
                        &[n, ch, 2 * oh + 2 * kh, 2 * ow + 2 * kw],
                    );
                    read(&mut reads, &o, "w", &[f, ch, kh, kw]);
                }
            }
        }
        read(&mut reads, &o, "acc", &o);
    }
    check(&b.p, r, &reads);
}

#[test]
fn fill() {
    let mut b = Builder::new();
    let cst = b.constant("cst", f32());
    let e = b.empty("e", tensor(&[3, 4]), &[]);
    let r = b.linalg(
        "linalg.fill",
        &[cst],
        e,
        &[],
        vec![amap(2, vec![]), AffineMap::identity(2)],
        2,
        false,
        ("r", tensor(&[3, 4])),
    );
    let mut reads = Reads::new();
    for o in box_points(&[3, 4]) {
        read(&mut reads, &o, "cst", &[]);
    }
    check(&b.p, r, &reads);
}

#[test]
fn transpose() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[3, 4]));
    let e = b.empty("e", tensor(&[4, 3]), &[]);
    let r = b.linalg(
        "linalg.transpose",
        &[a],
        e,
        &[],
        vec![AffineMap::select(2, &[1, 0]), AffineMap::identity(2)],
        2,
        false,
        ("r", tensor(&[4, 3])),
    );
    let mut reads = Reads::new();
    for o in box_points(&[4, 3]) {
        read(&mut reads, &o, "a", &[o[1], o[0]]);
    }
    check(&b.p, r, &reads);
}

#[test]
fn broadcast() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[3]));
    let e = b.empty("e", tensor(&[3, 4]), &[]);
    let r = b.linalg(
        "linalg.broadcast",
        &[a],
        e,
        &[],
        vec![AffineMap::select(2, &[0]), AffineMap::identity(2)],
        2,
        false,
        ("r", tensor(&[3, 4])),
    );
    let mut reads = Reads::new();
    for o in box_points(&[3, 4]) {
        read(&mut reads, &o, "a", &[o[0]]);
    }
    check(&b.p, r, &reads);
}

#[test]
fn reduce() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[3, 4]));
    let init = b.arg("init", tensor(&[3]));
    let r = b.linalg(
        "linalg.reduce",
        &[a],
        init,
        &[],
        vec![AffineMap::identity(2), AffineMap::select(2, &[0])],
        1,
        true,
        ("r", tensor(&[3])),
    );
    let mut reads = Reads::new();
    for i in 0..3 {
        for k in 0..4 {
            read(&mut reads, &[i], "a", &[i, k]);
        }
        read(&mut reads, &[i], "init", &[i]);
    }
    check(&b.p, r, &reads);
}

#[test]
fn pad() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[2, 3]));
    let cst = b.constant("cst", f32());
    let r = b.op(
        "tensor.pad",
        OpKind::Pad {
            low: vec![1, 0],
            high: vec![2, 1],
        },
        &[a, cst],
        &[("r", tensor(&[5, 4]))],
    )[0];
    let mut reads = Reads::new();
    for o in box_points(&[5, 4]) {
        let (h, w) = (o[0] - 1, o[1]);
        if (0..2).contains(&h) && (0..3).contains(&w) {
            read(&mut reads, &o, "a", &[h, w]);
        } else {
            read(&mut reads, &o, "cst", &[]);
        }
    }
    check(&b.p, r, &reads);
    // one disjunct per nonzero (dim, side): low dim 0, high dim 0, high dim 1
    let (_, m) = map_of(&b.p, last_op(&b.p));
    let to_cst = m
        .members()
        .iter()
        .find(|x| x.space().range_tuple().name.as_deref() == Some("cst"))
        .expect("pad value part");
    assert_eq!(to_cst.n_basic(), 3);
}

#[test]
fn extract_slice_strided() {
    let mut b = Builder::new();
    let s = b.arg("s", tensor(&[8, 9]));
    let r = b.op(
        "tensor.extract_slice",
        OpKind::ExtractSlice {
            offsets: vec![1, 2],
            sizes: vec![3, 2],
            strides: vec![2, 3],
            dropped: vec![],
        },
        &[s],
        &[("r", tensor(&[3, 2]))],
    )[0];
    let mut reads = Reads::new();
    for o in box_points(&[3, 2]) {
        read(&mut reads, &o, "s", &[1 + 2 * o[0], 2 + 3 * o[1]]);
    }
    check(&b.p, r, &reads);
}

#[test]
fn extract_slice_rank_reducing() {
    let mut b = Builder::new();
    let s = b.arg("s", tensor(&[4, 5, 6]));
    let r = b.op(
        "tensor.extract_slice",
        OpKind::ExtractSlice {
            offsets: vec![1, 0, 2],
            sizes: vec![1, 5, 2],
            strides: vec![1, 1, 2],
            dropped: vec![0],
        },
        &[s],
        &[("r", tensor(&[5, 2]))],
    )[0];
    let mut reads = Reads::new();
    for o in box_points(&[5, 2]) {
        read(&mut reads, &o, "s", &[1, o[0], 2 + 2 * o[1]]);
    }
    check(&b.p, r, &reads);
}

#[test]
fn insert_slice_strided() {
    let mut b = Builder::new();
    let src = b.arg("src", tensor(&[2, 2]));
    let dest = b.arg("dest", tensor(&[5, 6]));
    let r = b.op(
        "tensor.insert_slice",
        OpKind::InsertSlice {
            offsets: vec![1, 1],
            sizes: vec![2, 2],
            strides: vec![2, 3],
            dropped: vec![],
        },
        &[src, dest],
        &[("r", tensor(&[5, 6]))],
    )[0];
    // reference: write the source elements over a copy of the destination
    let mut owner = std::collections::BTreeMap::new();
    for o in box_points(&[5, 6]) {
        owner.insert(o.clone(), ("dest", o));
    }
    for i in box_points(&[2, 2]) {
        owner.insert(vec![1 + 2 * i[0], 1 + 3 * i[1]], ("src", i));
    }
    let mut reads = Reads::new();
    for (o, (v, idx)) in owner {
        read(&mut reads, &o, v, &idx);
    }
    check(&b.p, r, &reads);
}

#[test]
fn insert_slice_rank_reducing() {
    let mut b = Builder::new();
    let src = b.arg("src", tensor(&[3]));
    let dest = b.arg("dest", tensor(&[4, 5]));
    let r = b.op(
        "tensor.insert_slice",
        OpKind::InsertSlice {
            offsets: vec![2, 1],
            sizes: vec![1, 3],
            strides: vec![1, 1],
            dropped: vec![0],
        },
        &[src, dest],
        &[("r", tensor(&[4, 5]))],
    )[0];
    let mut reads = Reads::new();
    for o in box_points(&[4, 5]) {
        if o[0] == 2 && (1..4).contains(&o[1]) {
            read(&mut reads, &o, "src", &[o[1] - 1]);
        } else {
            read(&mut reads, &o, "dest", &o);
        }
    }
    check(&b.p, r, &reads);
}

#[test]
fn body_capturing_outside_scalar() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[3, 2]));
    let s = b.arg("s", f32());
    let e = b.empty("e", tensor(&[3, 2]), &[]);
    let r = b.linalg(
        "linalg.generic",
        &[a],
        e,
        &[s],
        vec![AffineMap::identity(2), AffineMap::identity(2)],
        2,
        false,
        ("r", tensor(&[3, 2])),
    );
    let mut reads = Reads::new();
    for o in box_points(&[3, 2]) {
        read(&mut reads, &o, "a", &o);
        read(&mut reads, &o, "s", &[]);
    }
    check(&b.p, r, &reads);
}

#[test]
fn opaque_is_all_to_all() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[2, 2]));
    let s = b.arg("s", f32());
    let r = b.op("foo.bar", OpKind::Opaque, &[a, s], &[("r", tensor(&[3]))])[0];
    let mut reads = Reads::new();
    for o in box_points(&[3]) {
        for i in box_points(&[2, 2]) {
            read(&mut reads, &o, "a", &i);
        }
        read(&mut reads, &o, "s", &[]);
    }
    check(&b.p, r, &reads);
}

#[test]
fn constant_and_empty_have_no_dependencies() {
    let mut b = Builder::new();
    b.constant("cst", tensor(&[2]));
    b.empty("e", tensor(&[2]), &[]);
    let sh = infer_shapes(&b.p).unwrap();
    for op in 0..2 {
        let m = op_element_map(&b.p, op, &sh).unwrap();
        assert!(m.members().iter().all(|x| x.is_empty().unwrap()));
    }
}

/// `tensor<?x3xf32>` through a pad (low [1,0], high [2,0]) and a matmul with a 3x5
/// constant: sizes in the parameter `x_d0`.
#[test]
fn dynamic_shapes_through_pad_and_matmul() {
    let mut b = Builder::new();
    let x = b.arg("x", dyn_tensor(&[None, Some(3)]));
    let n = b.arg("n", presburger_volume::ir::Type::Index);
    let cst = b.constant("cst", f32());
    let pad = b.op(
        "tensor.pad",
        OpKind::Pad {
            low: vec![1, 0],
            high: vec![2, 0],
        },
        &[x, cst],
        &[("pad", dyn_tensor(&[None, Some(3)]))],
    )[0];
    let w = b.constant("w", tensor(&[3, 5]));
    let e = b.empty("e", dyn_tensor(&[None, Some(5)]), &[n]);
    let mm = b.linalg(
        "linalg.matmul",
        &[pad, w],
        e,
        &[],
        vec![
            AffineMap::select(3, &[0, 2]),
            AffineMap::select(3, &[2, 1]),
            AffineMap::select(3, &[0, 1]),
        ],
        2,
        true,
        ("mm", dyn_tensor(&[None, Some(5)])),
    );
    let sh = infer_shapes(&b.p).unwrap();
    let want: Set = "[x_d0] -> { mm[i, j] : 0 <= i < x_d0 + 3 and 0 <= j < 5 }"
        .parse()
        .unwrap();
    assert!(sh.domain(&b.p, mm).unwrap().is_equal(&want).unwrap());
    let want_pad: Set = "[x_d0] -> { pad[i, j] : 0 <= i < x_d0 + 3 and 0 <= j < 3 }"
        .parse()
        .unwrap();
    assert!(sh.domain(&b.p, pad).unwrap().is_equal(&want_pad).unwrap());
    // the placeholder of the empty is not used for the loop range, and is unified
    // with it: the init has the result's rows
    let want_e: Set = "[x_d0] -> { e[i, j] : 0 <= i < x_d0 + 3 and 0 <= j < 5 }"
        .parse()
        .unwrap();
    assert!(sh.domain(&b.p, e).unwrap().is_equal(&want_e).unwrap());
    assert_eq!(sh.params, ["x_d0"]);
    assert!(sh.sizes(n).is_none());
    // the pad's map is parametric too
    let m = op_element_map(&b.p, 1, &sh).unwrap();
    let want_m: UnionMap =
        "[x_d0] -> { pad[i, j] -> x[i - 1, j] : 1 <= i < x_d0 + 1 and 0 <= j < 3; \
         pad[i, j] -> cst[] : 0 <= j < 3 and 0 <= i < x_d0 + 3 and (i < 1 or i >= x_d0 + 1) }"
            .parse()
            .unwrap();
    assert!(m.is_equal(&want_m).unwrap(), "{m}");
}

#[test]
fn static_size_disagreement_is_an_error() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[2, 3]));
    let cst = b.constant("cst", f32());
    b.op(
        "tensor.pad",
        OpKind::Pad {
            low: vec![1, 0],
            high: vec![2, 0],
        },
        &[a, cst],
        &[("r", tensor(&[6, 3]))],
    );
    match infer_shapes(&b.p) {
        Err(Error::Invalid(m)) => assert!(m.contains("line 2"), "{m}"),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[2, 3]));
    let e = b.empty("e", tensor(&[2, 3]), &[]);
    // an indexing map of the wrong rank
    b.linalg(
        "linalg.generic",
        &[a],
        e,
        &[],
        vec![AffineMap::select(2, &[0]), AffineMap::identity(2)],
        2,
        false,
        ("r", tensor(&[2, 3])),
    );
    assert!(infer_shapes(&b.p).is_err());
    // operands missing
    let mut b = Builder::new();
    b.op(
        "tensor.pad",
        OpKind::Pad {
            low: vec![1],
            high: vec![1],
        },
        &[],
        &[("r", tensor(&[3]))],
    );
    assert!(infer_shapes(&b.p).is_err());
    // a value id out of range, for the map of an op whose shapes were inferred
    let mut b = Builder::new();
    let a = b.arg("a", tensor(&[2]));
    let e = b.empty("e", tensor(&[2]), &[]);
    b.linalg(
        "linalg.copy",
        &[a],
        e,
        &[],
        vec![AffineMap::identity(1), AffineMap::identity(1)],
        1,
        false,
        ("r", tensor(&[2])),
    );
    let sh = infer_shapes(&b.p).unwrap();
    b.p.ops[1].operands[0] = 99;
    assert!(op_element_map(&b.p, 1, &sh).is_err());
    assert!(op_element_map(&b.p, 7, &sh).is_err());
    assert!(result_domains(&b.p, 1, &[]).is_err());
}

/// Paper App. A.1: `R = U ⊙ V` with `U` upper triangular and `V` "upper-left"
/// triangular gives `dom R = dom U ∩ dom V = { [i, j] : 0 <= i < M and i <= j < N - i }`.
#[test]
fn appendix_a1_triangular_elementwise() {
    let mut b = Builder::new();
    let u = b.arg("u", dyn_tensor(&[None, None]));
    let v = b.arg("v", dyn_tensor(&[None, None]));
    let e = b.empty("e", dyn_tensor(&[None, None]), &[]);
    let id = AffineMap::identity(2);
    b.linalg(
        "linalg.generic",
        &[u, v],
        e,
        &[],
        vec![id.clone(), id.clone(), id],
        2,
        false,
        ("r", dyn_tensor(&[None, None])),
    );
    let du: Set = "[M, N] -> { U[i, j] : 0 <= i < M and i <= j < N }"
        .parse()
        .unwrap();
    // "upper-left triangular": the anti-diagonal triangle
    let dv: Set = "[M, N] -> { V[i, j] : 0 <= i < M and 0 <= j < N - i }"
        .parse()
        .unwrap();
    let de: Set = "[M, N] -> { E[i, j] : 0 <= i < M and 0 <= j < N }"
        .parse()
        .unwrap();
    let doms = result_domains(&b.p, 1, &[du, dv, de]).unwrap();
    let want: Set = "[M, N] -> { r[i, j] : 0 <= i < M and i <= j < N - i }"
        .parse()
        .unwrap();
    assert_eq!(doms.len(), 1);
    assert!(doms[0].is_equal(&want).unwrap(), "{}", doms[0]);
    // and a matmul's result domain from boxes: the rows of A, the columns of B
    let mut b = Builder::new();
    let a = b.arg("a", dyn_tensor(&[None, None]));
    let x = b.arg("x", dyn_tensor(&[None, None]));
    let acc = b.arg("acc", dyn_tensor(&[None, None]));
    b.linalg(
        "linalg.matmul",
        &[a, x],
        acc,
        &[],
        vec![
            AffineMap::select(3, &[0, 2]),
            AffineMap::select(3, &[2, 1]),
            AffineMap::select(3, &[0, 1]),
        ],
        2,
        true,
        ("r", dyn_tensor(&[None, None])),
    );
    let da: Set = "[M, K] -> { [i, k] : 0 <= i < M and 0 <= k < K }"
        .parse()
        .unwrap();
    let dx: Set = "[K, N] -> { [k, j] : 0 <= k < K and 0 <= j < N }"
        .parse()
        .unwrap();
    let dacc: Set = "[M, N] -> { [i, j] : 0 <= i < M and 0 <= j < N }"
        .parse()
        .unwrap();
    let doms = result_domains(&b.p, 0, &[da, dx, dacc]).unwrap();
    let want: Set = "[M, N, K] -> { r[i, j] : 0 <= i < M and 0 <= j < N and K > 0 }"
        .parse()
        .unwrap();
    assert!(doms[0].is_equal(&want).unwrap(), "{}", doms[0]);
}

/// Figure 1 of the paper, built by hand: pad, conv_2d_nchw_fchw (stride 2), and an
/// elementwise generic.
fn figure1() -> (Program, [ValueId; 6]) {
    let mut b = Builder::new();
    let ifm = b.arg("ifm", tensor(&[1, 3, 512, 512]));
    let cst0 = b.constant("cst0", f32());
    let pad0 = b.op(
        "tensor.pad",
        OpKind::Pad {
            low: vec![0, 0, 1, 1],
            high: vec![0, 0, 2, 2],
        },
        &[ifm, cst0],
        &[("pad0", tensor(&[1, 3, 515, 515]))],
    )[0];
    let wgt = b.constant("wgt", tensor(&[8, 3, 5, 5]));
    let init = b.empty("conv0.init", tensor(&[1, 8, 256, 256]), &[]);
    // loops (n, f, y, x, c, a, b)
    let conv0 = b.linalg(
        "linalg.conv_2d_nchw_fchw",
        &[pad0, wgt],
        init,
        &[],
        vec![
            amap(
                7,
                vec![
                    d(0),
                    d(4),
                    add(mul(d(2), c(2)), d(5)),
                    add(mul(d(3), c(2)), d(6)),
                ],
            ),
            AffineMap::select(7, &[1, 4, 5, 6]),
            AffineMap::select(7, &[0, 1, 2, 3]),
        ],
        4,
        true,
        ("conv0", tensor(&[1, 8, 256, 256])),
    );
    let e = b.empty("act0.init", tensor(&[1, 8, 256, 256]), &[]);
    let id = AffineMap::identity(4);
    let act0 = b.linalg(
        "linalg.generic",
        &[conv0],
        e,
        &[],
        vec![id.clone(), id],
        4,
        false,
        ("act0", tensor(&[1, 8, 256, 256])),
    );
    (b.p, [ifm, cst0, pad0, wgt, conv0, act0])
}

fn member(m: &UnionMap, dom: &str, rng: &str) -> Map {
    m.members()
        .iter()
        .find(|x| {
            member_domain_name(x).as_deref() == Some(dom)
                && x.space().range_tuple().name.as_deref() == Some(rng)
        })
        .cloned()
        .unwrap_or_else(|| panic!("no member {dom} -> {rng} in {m}"))
}

#[test]
fn paper_section_5_1_maps() {
    let (p, [_, _, pad0, _, conv0, act0]) = figure1();
    let sh = infer_shapes(&p).unwrap();
    let dom = |v| UnionSet::from(sh.domain(&p, v).unwrap());
    // M_1 (the pad, op 1). The paper prints the second disjunct with `h > 513 or
    // w > 513`, which misses row/column 513 (lo + size = 1 + 512); the map is
    // checked against the corrected `h >= 513 or w >= 513`, restricted to dom pad0
    // (the implied context of Lemma 4.12).
    let m1 = op_element_map(&p, 1, &sh).unwrap();
    let paper_m1: UnionMap =
        "{ pad0[n, c, h, w] -> ifm[n, c, h - 1, w - 1] : 1 <= h < 513 and 1 <= w < 513; \
           pad0[n, c, h, w] -> cst0[] : h < 1 or w < 1 or h >= 513 or w >= 513 }"
            .parse()
            .unwrap();
    let paper_m1 = paper_m1.intersect_domain(&dom(pad0)).unwrap();
    assert!(m1.is_equal(&paper_m1).unwrap(), "{m1}");
    let literal: UnionMap = "{ pad0[n, c, h, w] -> cst0[] : h < 1 or w < 1 or h > 513 or w > 513 }"
        .parse()
        .unwrap();
    let literal = literal.intersect_domain(&dom(pad0)).unwrap();
    let ifm_part: UnionMap =
        "{ pad0[n, c, h, w] -> ifm[n, c, h - 1, w - 1] : 1 <= h < 513 and 1 <= w < 513 }"
            .parse()
            .unwrap();
    let literal = literal
        .union(&ifm_part.intersect_domain(&dom(pad0)).unwrap())
        .unwrap();
    assert!(literal.is_subset(&m1).unwrap());
    assert!(!m1.is_equal(&literal).unwrap());
    let missing = m1.subtract(&literal).unwrap();
    let row_513: UnionMap = "{ pad0[n, c, h, w] -> cst0[] : h = 513 or w = 513 }"
        .parse()
        .unwrap();
    assert!(missing.is_subset(&row_513).unwrap());
    // M_2 (the conv, op 4): the part to pad0 and the part to wgt
    let m2 = op_element_map(&p, 4, &sh).unwrap();
    let paper_m2: UnionMap = "{ conv0[n, f, y, x] -> pad0[n, c, h, w] : exists (a, b : h = 2y + a and w = 2x + b and 0 <= a < 5 and 0 <= b < 5); \
           conv0[n, f, y, x] -> wgt[f, c, a, b] }"
        .parse()
        .unwrap();
    let wgt = p.find("wgt").unwrap();
    let ctx = dom(pad0).union(&dom(wgt)).unwrap();
    let paper_m2 = paper_m2
        .intersect_domain(&dom(conv0))
        .unwrap()
        .intersect_range(&ctx)
        .unwrap();
    let to_pad = UnionMap::from(member(&m2, "conv0", "pad0"));
    let to_wgt = UnionMap::from(member(&m2, "conv0", "wgt"));
    assert!(to_pad.union(&to_wgt).unwrap().is_equal(&paper_m2).unwrap());
    // the conv also accumulates into its init
    let _ = member(&m2, "conv0", "conv0_init");
    // M_3: act0[i] -> conv0[i]
    let m3 = op_element_map(&p, 6, &sh).unwrap();
    let paper_m3: UnionMap = "{ act0[n, f, y, x] -> conv0[n, f, y, x] }".parse().unwrap();
    let paper_m3 = paper_m3.intersect_domain(&dom(act0)).unwrap();
    assert!(m3.is_equal(&paper_m3).unwrap());
}

// ---- appendix operations as maps on their own, against brute force ----

fn boxed(m: &UnionMap, dom: &str, dsz: &[i64], ranges: &[(&str, &[i64])]) -> UnionMap {
    let bset = |name: &str, sz: &[i64]| -> UnionSet {
        let vars: Vec<String> = (0..sz.len()).map(|k| format!("i{k}")).collect();
        let cons: Vec<String> = sz
            .iter()
            .enumerate()
            .map(|(k, s)| format!("0 <= i{k} < {s}"))
            .collect();
        let body = if cons.is_empty() {
            String::new()
        } else {
            format!(" : {}", cons.join(" and "))
        };
        format!("{{ {name}[{}]{body} }}", vars.join(", "))
            .parse::<Set>()
            .unwrap()
            .into()
    };
    let mut rs = UnionSet::empty(vec![]);
    for (n, sz) in ranges {
        rs = rs.union(&bset(n, sz)).unwrap();
    }
    m.intersect_domain(&bset(dom, dsz))
        .unwrap()
        .intersect_range(&rs)
        .unwrap()
}

fn check_brute(m: &UnionMap, dom: &str, dsz: &[i64], reads: &Reads) {
    for o in box_points(dsz) {
        let want = reads.get(&o).cloned().unwrap_or_default();
        assert_eq!(image(m, dom, &o), want, "{dom}{o:?}");
    }
}

#[test]
fn appendix_reduction() {
    // R[r0, r1] = sum_k O[r0, k, r1], O 2x3x4
    let m = UnionMap::from(reduction_map("R", "O", 3, 1).unwrap());
    let m = boxed(&m, "R", &[2, 4], &[("O", &[2, 3, 4])]);
    let mut reads = Reads::new();
    for o in box_points(&[2, 3, 4]) {
        read(&mut reads, &[o[0], o[2]], "O", &o);
    }
    check_brute(&m, "R", &[2, 4], &reads);
    assert!(reduction_map("R", "O", 3, 3).is_err());
}

#[test]
fn appendix_diagonal() {
    // axes 0 and 2 of a 3x2x3 volume: R[r0, r1] = O[r0, r1, r0]
    let m = UnionMap::from(diagonal_map("R", "O", 3, 0, 2).unwrap());
    let m = boxed(&m, "R", &[3, 2], &[("O", &[3, 2, 3])]);
    let mut reads = Reads::new();
    for o in box_points(&[3, 2, 3]) {
        if o[0] == o[2] {
            read(&mut reads, &[o[0], o[1]], "O", &o);
        }
    }
    check_brute(&m, "R", &[3, 2], &reads);
    assert!(diagonal_map("R", "O", 3, 2, 1).is_err());
}

#[test]
fn appendix_outer_product() {
    let m = outer_product_map("R", "A", 2, "B", 1).unwrap();
    let m = boxed(&m, "R", &[2, 3, 2], &[("A", &[2, 3]), ("B", &[2])]);
    let mut reads = Reads::new();
    for a in box_points(&[2, 3]) {
        for bb in box_points(&[2]) {
            let r = [a[0], a[1], bb[0]];
            read(&mut reads, &r, "A", &a);
            read(&mut reads, &r, "B", &bb);
        }
    }
    check_brute(&m, "R", &[2, 3, 2], &reads);
}

#[test]
fn appendix_inner_product() {
    // rank 2 · rank 2 is matrix multiplication
    let m = inner_product_map("R", "A", 2, "B", 2).unwrap();
    let m = boxed(&m, "R", &[2, 3], &[("A", &[2, 4]), ("B", &[4, 3])]);
    let mut reads = Reads::new();
    for i in 0..2 {
        for j in 0..3 {
            for k in 0..4 {
                read(&mut reads, &[i, j], "A", &[i, k]);
                read(&mut reads, &[i, j], "B", &[k, j]);
            }
        }
    }
    check_brute(&m, "R", &[2, 3], &reads);
    // rank 3 · rank 2: contraction of A's last axis with B's first
    let m = inner_product_map("R", "A", 3, "B", 2).unwrap();
    let m = boxed(&m, "R", &[2, 2, 3], &[("A", &[2, 2, 4]), ("B", &[4, 3])]);
    let mut reads = Reads::new();
    for a in box_points(&[2, 2, 4]) {
        for j in 0..3 {
            let r = [a[0], a[1], j];
            read(&mut reads, &r, "A", &a);
            read(&mut reads, &r, "B", &[a[2], j]);
        }
    }
    check_brute(&m, "R", &[2, 2, 3], &reads);
    assert!(inner_product_map("R", "A", 0, "B", 2).is_err());
}
