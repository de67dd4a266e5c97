//! Code generation from the volume model: the paper's Algorithms 1 and 2 (Sec.
//! 5.2–5.4) emitted as MLIR text.
//!
//! For one output of a function and tile sizes, [`emit`] writes a module with a
//! function of the same name and signature (a drop-in replacement) that computes
//! the output as
//! - **Algorithm 2** ([`partition`]): `scf.for` loops over the interior tiles'
//!   parameter domain (the model's [`crate::model::TileReport::interior`]; loop
//!   bounds read off the parameter set, one loop nest per disjoint piece), each tile computing the whole producer
//!   chain on its box ([`clone`]) from `tensor.extract_slice`s of the live-ins at
//!   the offsets slice matching finds (checked against the model's
//!   [`crate::tiling::match_slice`] and printed as a comment), with no
//!   `tensor.pad` (interior tiles read no padding), and `tensor.insert_slice`
//!   into the output carried by `iter_args`;
//! - **Algorithm 1** ([`partition`]): the rest of the output cut into
//!   hyperrectangular partitions at the bounds of the dense region and of the
//!   interior tiles, each computed by the cloned chain on its box with the
//!   padding kept where the partition reads it (partitions longer than a tile
//!   are tiled too, with `affine.min` for the partial tile when sizes are
//!   parameters).
//!
//! [`emit`] with no tile sizes emits Algorithm 1 alone: the output computed per
//! region (dense core, edges, corners), no tile loops.
//!
//! Dynamic sizes: each size parameter `<arg>_d<k>` of the model is a
//! `tensor.dim` of the argument; bounds that depend on it are emitted with
//! `affine.apply`/`affine.min`/`affine.max` ([`writer`]).

pub mod clone;
pub mod partition;
pub mod writer;

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::ir::{Def, OpKind, Program, Type, ValueId};
use crate::mlir::{self, type_to_string};
use crate::model::{Model, Options};
use crate::shape::{Shapes, Size, infer_shapes};
use writer::{Em, Lin, fresh_prefix, tensor_type};

/// Sizes above this are refused (index arithmetic stays far from overflow).
const MAX_SIZE: i64 = 1 << 31;

/// What the emitter needs of the program while cloning.
pub struct Ctx<'a> {
    /// The program as written (constants not cloned: region bodies name them).
    pub p: &'a Program,
    pub shapes: &'a Shapes,
    /// The ops the output depends on, in textual order.
    pub chain: Vec<usize>,
    /// Size parameter name → symbol of its `tensor.dim`.
    params: HashMap<String, usize>,
    /// See [`EmitOptions::interchange`].
    pub interchange: bool,
}

/// Choices of the emitted code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmitOptions {
    /// Clone each op with a long reduction (32 iterations or more per element)
    /// with its output's last (parallel) loop innermost: every element's summation order is unchanged, and the inner
    /// loop over consecutive outputs vectorizes. On by default.
    pub interchange: bool,
    /// Index arithmetic (slice offsets, bounds, partial tile sizes) with
    /// `arith` ops (`muli`, `addi`, `minsi`, `maxsi`, `floordivsi`) instead of
    /// `affine.apply`/`min`/`max`. Off by default.
    pub arith_index: bool,
}

impl Default for EmitOptions {
    fn default() -> EmitOptions {
        EmitOptions {
            interchange: true,
            arith_index: false,
        }
    }
}

impl Ctx<'_> {
    /// A size of the shape inference as a form over the writer's symbols.
    pub fn size_lin(&self, s: &Size) -> Result<Lin> {
        let mut l = Lin::k(s.constant);
        for (name, c) in &s.terms {
            let sym = self.params.get(name).ok_or_else(|| {
                Error::Invalid(format!(
                    "emit: the size parameter {name} is not a dynamic size of an argument"
                ))
            })?;
            l = l.add_scaled(&Lin::sym(*sym), *c);
        }
        Ok(l)
    }

    /// The sizes of a tensor value.
    pub fn sizes(&self, v: ValueId) -> Result<Vec<Lin>> {
        let s = self.shapes.sizes(v).ok_or_else(|| {
            Error::Invalid(format!("emit: no shape for %{}", self.p.value(v).ssa))
        })?;
        s.iter().map(|x| self.size_lin(x)).collect()
    }

    /// Whether `v` is read as it is (an argument or a constant).
    pub fn is_leaf(&self, v: ValueId) -> bool {
        match self.p.value(v).def {
            Def::Arg(_) => true,
            Def::Op { op, .. } => matches!(self.p.ops[op].kind, OpKind::Constant),
        }
    }
}

/// Emits the module for live-out `output` (`None`: the first) of the function in
/// `text`: tiled with `tiles` (pairs of output dimension and tile size; Algorithms
/// 1 and 2), or, with no tiles, computed per region (Algorithm 1 alone).
pub fn emit(
    text: &str,
    options: &Options,
    output: Option<&str>,
    tiles: &[(usize, i64)],
) -> Result<String> {
    emit_with(text, options, output, tiles, &EmitOptions::default())
}

/// [`emit`] with the choices of `emit_options`.
pub fn emit_with(
    text: &str,
    options: &Options,
    output: Option<&str>,
    tiles: &[(usize, i64)],
    emit_options: &EmitOptions,
) -> Result<String> {
    let model = Model::from_mlir(text, options)?;
    let mout = model.output(output)?;
    let p = mlir::parse_program_with(
        text,
        mlir::Options {
            opaque_unknown: options.opaque_unknown,
        },
    )?;
    let out_ssa = &model.program.value(mout).ssa;
    let out = p
        .find(out_ssa)
        .ok_or_else(|| Error::Invalid(format!("emit: no value %{out_ssa}")))?;
    if p.returns.len() != 1 {
        return Err(Error::Invalid(format!(
            "emit: @{} returns {} values; the emitter handles functions with one result",
            p.name,
            p.returns.len()
        )));
    }
    let shapes = infer_shapes(&p)?;
    for s in shapes.sizes.iter().flatten().flatten() {
        if s.constant.abs() >= MAX_SIZE || s.terms.values().any(|c| c.abs() >= MAX_SIZE) {
            return Err(Error::Invalid(format!("emit: the size {s} is too large")));
        }
    }
    if let Some((d, t)) = tiles.iter().find(|(_, t)| *t >= MAX_SIZE || *t < 1) {
        return Err(Error::Request(format!(
            "emit: tile size {t} of dimension {d} is out of range"
        )));
    }
    let prefix = fresh_prefix(text);
    let mut em = Em::new(&prefix, 2);
    em.arith = emit_options.arith_index;
    // the constants, as written
    let lines: Vec<&str> = text.lines().collect();
    for op in &p.ops {
        if matches!(op.kind, OpKind::Constant) {
            let l = lines.get(op.line.wrapping_sub(1)).copied().unwrap_or("");
            if !l.contains("arith.constant") || !l.trim_start().starts_with('%') {
                return Err(Error::Unsupported {
                    op: op.name.clone(),
                    line: op.line,
                    message: "emit: a constant must stand on one line of its own".into(),
                });
            }
            em.line(l.split("//").next().unwrap_or(l).trim());
        }
    }
    // the dynamic sizes of the arguments
    let mut params = HashMap::new();
    for &a in &p.args {
        let v = p.value(a);
        if let Type::Tensor(t) = &v.ty {
            for (k, d) in t.dims.iter().enumerate() {
                if d.is_none() {
                    let name = format!("%{prefix}_{}_d{k}", v.volume);
                    let c = em.idx(k as i64);
                    em.line(&format!(
                        "{name} = tensor.dim %{}, {c} : {}",
                        v.ssa,
                        type_to_string(&v.ty)
                    ));
                    let s = em.new_sym(&name, Some(0), Some(MAX_SIZE));
                    params.insert(format!("{}_d{k}", v.volume), s);
                }
            }
        }
    }
    let ctx = Ctx {
        p: &p,
        shapes: &shapes,
        chain: clone::chain(&p, out),
        params,
        interchange: emit_options.interchange,
    };
    let result = partition::emit_output(&mut em, &ctx, &model, mout, out, tiles)?;
    // the function, with the original signature
    let rty = type_to_string(&p.value(out).ty);
    let elem = match &p.value(out).ty {
        Type::Tensor(t) => t.elem.clone(),
        _ => return Err(Error::Invalid("emit: the output is not a tensor".into())),
    };
    let ours = tensor_type(&ctx.sizes(out)?, &elem);
    let result = if ours != rty {
        let c = em.fresh();
        em.line(&format!("{c} = tensor.cast {result} : {ours} to {rty}"));
        c
    } else {
        result
    };
    em.line(&format!("return {result} : {rty}"));
    let args: Vec<String> = p
        .args
        .iter()
        .map(|&a| format!("%{}: {}", p.value(a).ssa, type_to_string(&p.value(a).ty)))
        .collect();
    let mut m = String::new();
    m.push_str(&format!(
        "// Generated by `poly volume` from @{} ({}).\nmodule {{\n  func.func @{}({}) -> {rty} {{\n",
        p.name,
        if tiles.is_empty() {
            "Algorithm 1: per region".to_string()
        } else {
            format!(
                "Algorithms 1 and 2: tiles {}",
                tiles.iter().map(|(d, t)| format!("{d}={t}")).collect::<Vec<_>>().join(",")
            )
        },
        p.name,
        args.join(", ")
    ));
    m.push_str(&em.finish());
    m.push_str("  }\n}\n");
    Ok(m)
}
