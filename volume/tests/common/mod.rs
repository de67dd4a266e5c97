//! A small builder for [`Program`]s and a checker that compares an element map with
//! a reference interpreter, point by point.
#![allow(dead_code)]

pub mod examples;
pub mod mlir_exec;

use std::collections::{BTreeMap, BTreeSet};

use presburger::{Map, UnionMap};
use presburger_volume::element_map::fix_domain_point;
use presburger_volume::ir::{
    AffineExpr, AffineMap, Def, IteratorType, LinalgOp, Op, OpKind, Program, TensorType, Type,
    Value, ValueId,
};
use presburger_volume::shape::Shapes;

pub struct Builder {
    pub p: Program,
}

pub fn tensor(dims: &[i64]) -> Type {
    Type::Tensor(TensorType {
        dims: dims.iter().map(|&d| Some(d)).collect(),
        elem: "f32".into(),
    })
}

pub fn dyn_tensor(dims: &[Option<i64>]) -> Type {
    Type::Tensor(TensorType {
        dims: dims.to_vec(),
        elem: "f32".into(),
    })
}

pub fn f32() -> Type {
    Type::Scalar("f32".into())
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            p: Program {
                name: "f".into(),
                values: Vec::new(),
                args: Vec::new(),
                ops: Vec::new(),
                returns: Vec::new(),
            },
        }
    }

    fn value(&mut self, ssa: &str, ty: Type, def: Def) -> ValueId {
        self.p.values.push(Value {
            ssa: ssa.into(),
            volume: presburger_mlir_syntax::isl_name(ssa),
            ty,
            def,
        });
        self.p.values.len() - 1
    }

    pub fn arg(&mut self, ssa: &str, ty: Type) -> ValueId {
        let v = self.value(ssa, ty, Def::Arg(self.p.args.len()));
        self.p.args.push(v);
        v
    }

    /// Adds an op with one result per `(name, type)`.
    pub fn op(
        &mut self,
        name: &str,
        kind: OpKind,
        operands: &[ValueId],
        results: &[(&str, Type)],
    ) -> Vec<ValueId> {
        let idx = self.p.ops.len();
        let rs: Vec<ValueId> = results
            .iter()
            .enumerate()
            .map(|(k, (n, t))| self.value(n, t.clone(), Def::Op { op: idx, result: k }))
            .collect();
        self.p.ops.push(Op {
            name: name.into(),
            line: idx + 1,
            kind,
            operands: operands.to_vec(),
            results: rs.clone(),
        });
        rs
    }

    pub fn constant(&mut self, ssa: &str, ty: Type) -> ValueId {
        self.op("arith.constant", OpKind::Constant, &[], &[(ssa, ty)])[0]
    }

    pub fn empty(&mut self, ssa: &str, ty: Type, sizes: &[ValueId]) -> ValueId {
        self.op("tensor.empty", OpKind::Empty, sizes, &[(ssa, ty)])[0]
    }

    /// A linalg op with one output; `maps` for ins then the out.
    #[allow(clippy::too_many_arguments)]
    pub fn linalg(
        &mut self,
        name: &str,
        ins: &[ValueId],
        out: ValueId,
        captured: &[ValueId],
        maps: Vec<AffineMap>,
        n_par: usize,
        reads_output: bool,
        result: (&str, Type),
    ) -> ValueId {
        let n_loops = maps.first().map_or(0, |m| m.n_dims);
        let iterator_types = (0..n_loops)
            .map(|k| {
                if k < n_par {
                    IteratorType::Parallel
                } else {
                    IteratorType::Reduction
                }
            })
            .collect();
        let mut operands = ins.to_vec();
        operands.push(out);
        operands.extend_from_slice(captured);
        self.op(
            name,
            OpKind::Linalg(LinalgOp {
                n_inputs: ins.len(),
                n_outputs: 1,
                indexing_maps: maps,
                iterator_types,
                reads_output: vec![reads_output],
                body: None,
            }),
            &operands,
            &[result],
        )[0]
    }
}

pub fn d(i: usize) -> AffineExpr {
    AffineExpr::Dim(i)
}

pub fn c(v: i64) -> AffineExpr {
    AffineExpr::Const(v)
}

pub fn add(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::Add(Box::new(a), Box::new(b))
}

pub fn mul(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::Mul(Box::new(a), Box::new(b))
}

pub fn amap(n_dims: usize, results: Vec<AffineExpr>) -> AffineMap {
    AffineMap {
        n_dims,
        n_symbols: 0,
        results,
    }
}

pub type Access = (String, Vec<i64>);
pub type Reads = BTreeMap<Vec<i64>, BTreeSet<Access>>;

/// Records one read of the reference interpreter.
pub fn read(r: &mut Reads, out: &[i64], vol: &str, idx: &[i64]) {
    r.entry(out.to_vec())
        .or_default()
        .insert((vol.to_string(), idx.to_vec()));
}

/// All points of the box `0 <= i < sizes`.
pub fn box_points(sizes: &[i64]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for &s in sizes {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..s).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    out
}

/// The image of one domain point under the members of `m` whose domain is `vol`.
pub fn image(m: &UnionMap, vol: &str, point: &[i64]) -> BTreeSet<Access> {
    let mut out = BTreeSet::new();
    for member in m.members() {
        if member_domain_name(member).as_deref() != Some(vol) {
            continue;
        }
        let fixed = fix_domain_point(member, point).expect("fix");
        let rng = fixed.range();
        let name = rng.space().range_tuple().name.clone().unwrap_or_default();
        // `Set::points` lists the 0-tuple for an empty rank-0 set, so test emptiness
        if rng.is_empty().expect("emptiness") {
            continue;
        }
        for pt in rng.points(100_000).expect("points") {
            let v: Vec<i64> = pt.iter().map(|x| x.to_i64().expect("small")).collect();
            out.insert((name.clone(), v));
        }
    }
    out
}

pub fn member_domain_name(m: &Map) -> Option<String> {
    m.space().domain_tuple().and_then(|t| t.name.clone())
}

/// Checks the element map of `result` (a value of `p`) against the reference reads
/// at every point of its domain, and that the map's domain lies in the result's
/// domain.
pub fn check_against(
    p: &Program,
    shapes: &Shapes,
    m: &UnionMap,
    result: ValueId,
    reference: &Reads,
) {
    let vol = &p.value(result).volume;
    let dom = shapes.domain(p, result).expect("domain");
    for member in m.members() {
        if member_domain_name(member).as_deref() == Some(vol.as_str()) {
            assert!(
                member.domain().is_subset(&dom).expect("subset"),
                "map domain outside dom {vol}: {member}"
            );
        }
    }
    let points = dom.points(100_000).expect("points");
    assert!(!points.is_empty());
    let mut all = BTreeSet::new();
    for pt in points {
        let pt: Vec<i64> = pt.iter().map(|x| x.to_i64().expect("small")).collect();
        let want = reference.get(&pt).cloned().unwrap_or_default();
        let got = image(m, vol, &pt);
        assert_eq!(got, want, "{vol}{pt:?}: map image vs reference");
        all.insert(pt);
    }
    for k in reference.keys() {
        assert!(
            all.contains(k),
            "reference reads at {k:?} outside dom {vol}"
        );
    }
}
