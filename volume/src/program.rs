//! Programs as compositions of element maps (paper Sec. 4.3, Appendix A.3), and the
//! cloning of constants that keeps one use of a constant from shadowing another
//! (Sec. 5.4).
//!
//! The element map of an assignment relates each element of a value it defines to
//! the operand elements it depends on (results → operands). The program's map
//! relates the elements of the live-out values to the elements they ultimately
//! depend on: elements of live-ins and of values whose elements depend on nothing
//! (constants).

use crate::error::{Error, Result};
use crate::ir::{Def, OpKind, Program, Value};
use presburger::{UnionMap, UnionSet};

/// The identity map on every member of `set`.
fn identity(set: &UnionSet) -> Result<UnionMap> {
    let mut r = UnionMap::empty(set.params().to_vec());
    for s in set.members() {
        r.add(s.identity())?;
    }
    Ok(r)
}

/// `m` without its empty members (set operations keep a member per space even
/// when it is empty).
fn prune(m: &UnionMap) -> Result<UnionMap> {
    let mut r = UnionMap::empty(m.params().to_vec());
    for x in m.members() {
        if !x.is_empty()? {
            r.add(x.clone())?;
        }
    }
    Ok(r)
}

/// Lenient composition `A ∘^id B = A then (B ∪ id(range A \ dom B))` (paper
/// Def. 4.15).
///
/// What it computes: the pairs `x → z` with `x → y` in `A` and either `y → z` in
/// `B`, or `y` not in the domain of `B` and `z = y`. In words: follow `B` where it
/// says something about an element, and keep the element where it does not. With
/// `A` read as "what the live-outs depend on so far" and `B` as an assignment's
/// element map, this substitutes the assignment's dependencies for the elements it
/// defines and leaves all other elements alone.
///
/// (`apply_range` is isl's: `A` first, then `B`.) Members of the result that are
/// empty are dropped, so the result's spaces are exactly those with pairs.
///
/// How: `A ∘ id(range A \ dom B)` is `A` with its range restricted to the
/// elements outside `dom B`, so the result is computed as
/// `(A then B) ∪ (A minus the pairs whose output is in dom B)`. Members of `A`
/// whose range space `B` does not define are kept as they are, and no identity on
/// `range A` is formed: that identity would carry the range's projection (with its
/// existentials) back into every member at every step of a program.
pub fn lenient_compose(a: &UnionMap, b: &UnionMap) -> Result<UnionMap> {
    if b.members().is_empty() {
        return Ok(a.clone());
    }
    let defined = b.domain()?;
    let mut r = a.apply_range(b)?;
    for m in a.members() {
        let kept = match defined.member_like(&m.space().range_space()) {
            None => m.clone(),
            Some(d) => m.subtract_range(d)?,
        };
        r = r.union(&UnionMap::from(kept))?;
    }
    prune(&r.coalesce()?)
}

/// The element map of a program: live-out elements → the live-in and constant
/// elements they depend on (paper Lemma A.5).
///
/// `assignments` are the element maps (results → operands) of the assignments in a
/// valid SSA program order (every value is used only after the assignment that
/// defines it). The map starts as `id(live_outs)` and absorbs the assignments in
/// reverse order by [`lenient_compose`].
///
/// Why this is the transitive-closure definition (Lemma A.3) for SSA programs: let
/// `R` be the union of all assignment maps. Lemma A.3 defines the program's map as
/// the pairs `o → x` with `o` a live-out element, `x` reachable from `o` by a path
/// in `R` and `x` a leaf (an element of a live-in, or an element that depends on
/// nothing, such as a constant's: no assignment has it in its domain). Reverse
/// program order is an ALAP use-def order: when the assignment defining a value `v`
/// is absorbed, every assignment that uses `v` comes later in program order and has
/// been absorbed already, so every path from a live-out to an element of `v` is
/// present in the current map, ending at that element. The lenient composition
/// replaces each such end by its successors in `R` and keeps every other end; no
/// assignment absorbed afterwards (earlier in program order) can produce `v`
/// again, because it cannot use `v`. Induction over the assignments shows that the
/// map after the last step holds exactly the paths of `R` from live-outs that end
/// in leaves; each is enumerated once (paths are finite because the use-def graph
/// is acyclic), which is the closure of Lemma A.3 without computing `R⁺`.
/// Elements of a live-out that no assignment defines map to themselves (they are
/// leaves), as in the closure with zero steps.
pub fn program_map(live_outs: &UnionSet, assignments: &[UnionMap]) -> Result<UnionMap> {
    let mut m = identity(live_outs)?;
    for a in assignments.iter().rev() {
        m = lenient_compose(&m, a)?;
    }
    Ok(m)
}

/// A copy of `p` in which every constant with several uses has one definition per
/// use (paper Sec. 5.4, "cloning only those values that do not entail
/// recomputation, e.g., the constants").
///
/// Why: a shared constant is one volume, so the program's map cannot tell which use
/// an element of it came through; a later use (say an elementwise op with the
/// constant) shadows the one that defines the sparsity (say a pad). With one value
/// per use, every use keeps its own volume.
///
/// How: uses are counted in op order and operand order. The first use keeps the
/// original value; the `k`-th later use (`k = 1, 2, ...`) gets a copy of the
/// constant op, inserted just before the using op, that defines a fresh value with
/// SSA name `<ssa>.<k>` and volume `<volume>_<k>` (`k` is increased further if that
/// name is taken). Returned values (`func.return`) are not uses of an op and keep
/// the original value. All `Def::Op` indices are recomputed for the new op order.
pub fn clone_constants(p: &Program) -> Program {
    let uses = p.uses();
    let is_const = |v: usize| -> bool {
        match p.values.get(v).map(|x| x.def) {
            Some(Def::Op { op, .. }) => p
                .ops
                .get(op)
                .is_some_and(|o| matches!(o.kind, OpKind::Constant)),
            _ => false,
        }
    };
    let mut out = Program {
        name: p.name.clone(),
        values: p.values.clone(),
        args: p.args.clone(),
        ops: Vec::with_capacity(p.ops.len()),
        returns: p.returns.clone(),
    };
    // how many uses of each value have been seen so far
    let mut seen = vec![0usize; p.values.len()];
    // next suffix to try for each value
    let mut next_k = vec![1usize; p.values.len()];
    for op in &p.ops {
        let mut op = op.clone();
        for pos in 0..op.operands.len() {
            let v = op.operands[pos];
            if v >= p.values.len() || !is_const(v) || uses[v].len() < 2 {
                continue;
            }
            seen[v] += 1;
            if seen[v] == 1 {
                continue;
            }
            let Def::Op { op: def_op, result } = p.values[v].def else {
                continue;
            };
            let orig = &p.values[v];
            // a fresh name
            let (ssa, volume) = loop {
                let k = next_k[v];
                next_k[v] += 1;
                let ssa = format!("{}.{k}", orig.ssa);
                let volume = format!("{}_{k}", orig.volume);
                if !out
                    .values
                    .iter()
                    .any(|x| x.ssa == ssa || x.volume == volume)
                {
                    break (ssa, volume);
                }
            };
            let template = &p.ops[def_op];
            let mut clone = template.clone();
            // fresh values for every result of the constant op (normally one)
            let mut new_results = Vec::with_capacity(template.results.len());
            for (r, &old) in template.results.iter().enumerate() {
                let id = out.values.len();
                let (s, vol) = if r == result {
                    (ssa.clone(), volume.clone())
                } else {
                    (
                        format!("{}.{}", p.values[old].ssa, ssa),
                        format!("{}_{}", p.values[old].volume, volume),
                    )
                };
                out.values.push(Value {
                    ssa: s,
                    volume: vol,
                    ty: p.values[old].ty.clone(),
                    def: Def::Op { op: 0, result: r },
                });
                new_results.push(id);
            }
            op.operands[pos] = new_results[result];
            clone.results = new_results;
            out.ops.push(clone);
        }
        out.ops.push(op);
    }
    // recompute the definitions
    for (i, op) in out.ops.iter().enumerate() {
        for (r, &v) in op.results.iter().enumerate() {
            if let Some(val) = out.values.get_mut(v) {
                val.def = Def::Op { op: i, result: r };
            }
        }
    }
    out
}

/// The live-out values of `p` as an error-checked list of volume names, a helper
/// for building `live_outs` for [`program_map`].
pub fn live_out_volumes(p: &Program) -> Result<Vec<String>> {
    p.returns
        .iter()
        .map(|&v| {
            p.values
                .get(v)
                .map(|x| x.volume.clone())
                .ok_or_else(|| Error::Invalid(format!("returned value {v} does not exist")))
        })
        .collect()
}

/// Checks that `ops` is in a valid SSA order: every operand is an argument or was
/// defined by an earlier op. Used by the tests of [`clone_constants`].
pub fn is_ssa_ordered(p: &Program) -> bool {
    let mut defined = vec![false; p.values.len()];
    for &a in &p.args {
        if let Some(d) = defined.get_mut(a) {
            *d = true;
        }
    }
    for op in &p.ops {
        if op
            .operands
            .iter()
            .any(|&v| !defined.get(v).copied().unwrap_or(false))
        {
            return false;
        }
        for &r in &op.results {
            if let Some(d) = defined.get_mut(r) {
                *d = true;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Op, TensorType, Type};
    use presburger::Set;
    use std::collections::{BTreeMap, BTreeSet};

    fn um(s: &str) -> UnionMap {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }
    fn us(s: &str) -> UnionSet {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    type Elem = (String, Vec<i64>);

    /// The pairs of a finite union map, as explicit elements.
    fn pairs(m: &UnionMap) -> BTreeSet<(Elem, Elem)> {
        let mut out = BTreeSet::new();
        for map in m.members() {
            let sp = map.space();
            let din = sp
                .domain_tuple()
                .and_then(|t| t.name.clone())
                .unwrap_or_default();
            let dout = sp.range_tuple().name.clone().unwrap_or_default();
            let ni = sp.n_in();
            let w: Set = map.wrap();
            for p in w.points(100_000).unwrap() {
                let p: Vec<i64> = p.iter().map(|x| x.to_i64().unwrap()).collect();
                out.insert((
                    (din.clone(), p[..ni].to_vec()),
                    (dout.clone(), p[ni..].to_vec()),
                ));
            }
        }
        out
    }

    fn elems(s: &UnionSet) -> BTreeSet<Elem> {
        let mut out = BTreeSet::new();
        for set in s.members() {
            let name = set.space().range_tuple().name.clone().unwrap_or_default();
            for p in set.points(100_000).unwrap() {
                out.insert((
                    name.clone(),
                    p.iter().map(|x| x.to_i64().unwrap()).collect(),
                ));
            }
        }
        out
    }

    /// Lemma A.3 by brute force: every path in the union of the relations from a
    /// live-out element to an element outside the union's domain.
    fn closure_to_leaves(
        live: &BTreeSet<Elem>,
        rels: &[BTreeSet<(Elem, Elem)>],
    ) -> BTreeSet<(Elem, Elem)> {
        let mut succ: BTreeMap<Elem, Vec<Elem>> = BTreeMap::new();
        for r in rels {
            for (a, b) in r {
                succ.entry(a.clone()).or_default().push(b.clone());
            }
        }
        let mut out = BTreeSet::new();
        for o in live {
            let mut stack = vec![o.clone()];
            let mut visited = BTreeSet::new();
            while let Some(x) = stack.pop() {
                if !visited.insert(x.clone()) {
                    continue;
                }
                match succ.get(&x) {
                    Some(next) => stack.extend(next.iter().cloned()),
                    None => {
                        out.insert((o.clone(), x));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn lenient_composition_keeps_undefined_elements() {
        let a = um("{ A[i] -> B[i] : 0 <= i < 4 }");
        let b = um("{ B[i] -> C[i + 1] : 0 <= i < 2 }");
        let r = lenient_compose(&a, &b).unwrap();
        let want = um("{ A[i] -> C[i + 1] : 0 <= i < 2; A[i] -> B[i] : 2 <= i < 4 }");
        assert!(r.is_equal(&want).unwrap(), "{r:?}");
        // plain composition would lose A[2], A[3]
        let plain = a.apply_range(&b).unwrap();
        assert!(!plain.is_equal(&want).unwrap());
    }

    #[test]
    fn diamond_program_map_is_the_closure() {
        // x (live-in) -> a -> {b, c} -> d (live-out); c also reads a constant k;
        // a is used twice (by b and c), d[3] depends on nothing.
        let ma = um("{ a[i] -> x[i] : 0 <= i < 4; a[i] -> x[i + 1] : 0 <= i < 4 }");
        let mb = um("{ b[i] -> a[i] : 0 <= i < 4 }");
        let mc = um("{ c[i] -> a[i - 1] : 1 <= i < 4; c[i] -> k[] : i = 0 }");
        let md = um("{ d[i] -> b[i] : 0 <= i < 3; d[i] -> c[i + 1] : 0 <= i < 3 }");
        let live = us("{ d[i] : 0 <= i < 4 }");
        let order = [ma.clone(), mb.clone(), mc.clone(), md.clone()];
        let m = program_map(&live, &order).unwrap();
        let rels: Vec<_> = order.iter().map(pairs).collect();
        let want = closure_to_leaves(&elems(&live), &rels);
        assert_eq!(pairs(&m), want);
        // spot checks: d[0] reaches x[0], x[1] via b and x[0], x[1] via c[1] -> a[0]
        assert!(want.contains(&(("d".into(), vec![0]), ("x".into(), vec![1]))));
        assert!(want.contains(&(("d".into(), vec![3]), ("d".into(), vec![3]))));
        // another valid SSA order (c before b) gives the same map
        let m2 = program_map(&live, &[ma, mc, mb, md]).unwrap();
        assert!(m.is_equal(&m2).unwrap());
    }

    #[test]
    fn wrong_order_differs_from_the_closure() {
        // processing a definition before its use loses the dependency: the test
        // above can fail
        let ma = um("{ a[i] -> x[i] : 0 <= i < 2 }");
        let mb = um("{ b[i] -> a[i] : 0 <= i < 2 }");
        let live = us("{ b[i] : 0 <= i < 2 }");
        let good = program_map(&live, &[ma.clone(), mb.clone()]).unwrap();
        let bad = program_map(&live, &[mb, ma]).unwrap();
        assert!(good.is_equal(&um("{ b[i] -> x[i] : 0 <= i < 2 }")).unwrap());
        assert!(!bad.is_equal(&good).unwrap());
    }

    fn tensor(dims: &[i64]) -> Type {
        Type::Tensor(TensorType {
            dims: dims.iter().map(|&d| Some(d)).collect(),
            elem: "f32".into(),
        })
    }

    fn value(ssa: &str, ty: Type, def: Def) -> Value {
        Value {
            ssa: ssa.into(),
            volume: presburger_mlir_syntax::isl_name(ssa),
            ty,
            def,
        }
    }

    #[test]
    fn constants_with_several_uses_are_cloned() {
        // %x = arg; %cst = constant; %cst_1 = constant (a name clash for cloning)
        // %a = pad(%x, %cst); %b = opaque(%a, %cst, %cst); return %b, %cst
        let values = vec![
            value("x", tensor(&[4]), Def::Arg(0)),
            value(
                "cst",
                Type::Scalar("f32".into()),
                Def::Op { op: 0, result: 0 },
            ),
            value("a", tensor(&[6]), Def::Op { op: 1, result: 0 }),
            value("b", tensor(&[6]), Def::Op { op: 2, result: 0 }),
            value(
                "cst.1",
                Type::Scalar("f32".into()),
                Def::Op { op: 3, result: 0 },
            ),
        ];
        let op = |name: &str, kind: OpKind, operands: Vec<usize>, results: Vec<usize>| Op {
            name: name.into(),
            line: 1,
            kind,
            operands,
            results,
        };
        let p = Program {
            name: "f".into(),
            values,
            args: vec![0],
            ops: vec![
                op("arith.constant", OpKind::Constant, vec![], vec![1]),
                op(
                    "tensor.pad",
                    OpKind::Pad {
                        low: vec![1],
                        high: vec![1],
                    },
                    vec![0, 1],
                    vec![2],
                ),
                op("test.op", OpKind::Opaque, vec![2, 1, 1], vec![3]),
                op("arith.constant", OpKind::Constant, vec![], vec![4]),
            ],
            returns: vec![3, 1],
        };
        let q = clone_constants(&p);
        assert!(is_ssa_ordered(&q));
        // two clones: constant, pad, clone, clone, opaque, constant
        assert_eq!(q.ops.len(), 6);
        assert_eq!(q.values.len(), 7);
        // the pad keeps the original
        let pad = q.ops.iter().find(|o| o.name == "tensor.pad").unwrap();
        assert_eq!(pad.operands, vec![0, 1]);
        // the two later uses get fresh values with fresh names
        let user = q.ops.iter().find(|o| o.name == "test.op").unwrap();
        let (u1, u2) = (user.operands[1], user.operands[2]);
        assert!(u1 != 1 && u2 != 1 && u1 != u2);
        // "cst.1" is taken by another constant, so the clones are cst.2 and cst.3
        assert_eq!(q.values[u1].ssa, "cst.2");
        assert_eq!(q.values[u1].volume, "cst_2");
        assert_eq!(q.values[u2].ssa, "cst.3");
        assert_eq!(q.values[u2].volume, "cst_3");
        let volumes: BTreeSet<&str> = q.values.iter().map(|v| v.volume.as_str()).collect();
        assert_eq!(volumes.len(), q.values.len());
        // every value's definition points at the op that defines it
        for (i, v) in q.values.iter().enumerate() {
            if let Def::Op { op, result } = v.def {
                assert_eq!(q.ops[op].results[result], i);
            }
        }
        for &u in &[u1, u2] {
            let Def::Op { op, .. } = q.values[u].def else {
                panic!()
            };
            assert_eq!(q.ops[op].kind, OpKind::Constant);
        }
        // returns unchanged; a constant with one use is left alone
        assert_eq!(q.returns, vec![3, 1]);
        let once = clone_constants(&q);
        assert_eq!(once, q);
    }
}
