//! A `@main` for running a function with MLIR's own tools (`mlir-opt` and
//! `mlir-runner`) on the inputs [`pseudo_random_inputs_sized`] gives, printing
//! the hash of each result that [`hash_value`] computes: the MLIR side of a
//! differential test of the interpreter (or of a transformed program).
//!
//! The generated `main` builds each tensor argument with `tensor.generate`,
//! whose body computes the input hash of the module [`super::inputs`] with
//! `arith` ops on `i64` (wrapping, as the Rust side), casts it to the declared
//! (possibly dynamic) type with `tensor.cast`, calls the function, then walks
//! each result with nested `scf.for` loops folding the FNV-1a hash of the
//! elements' bits (`arith.bitcast`, `arith.extui`), and prints it with
//! `vector.print` (an `i64`, so the printed value is the hash as a signed
//! integer).
//!
//! [`pseudo_random_inputs_sized`]: super::pseudo_random_inputs_sized
//! [`hash_value`]: super::hash_value

use std::fmt::Write;

use super::inputs::{FNV_BASIS, FNV_PRIME, MIX_MUL, POS_MUL, argument_shapes, input_base};
use super::value::{ElemType, Ty};
use crate::error::Result;

/// The sizes of a harness given as a command line gives them: one size for
/// every `?` dimension of the tensor arguments, and the value of each integer
/// or `index` argument by name.
#[derive(Debug, Clone, Default)]
pub struct HarnessSizes {
    /// The size of every dynamic dimension.
    pub dynamic: i64,
    /// Values of the integer and `index` arguments (SSA name without `%`).
    pub index_args: Vec<(String, i64)>,
}

impl HarnessSizes {
    /// The `sizes` argument of [`with_main`] for `p`'s function: the dynamic
    /// size once per `?` dimension, then the named values of the integer and
    /// `index` arguments, in argument order; an error names an argument
    /// without a value, or a value for a name that is no such argument.
    pub fn for_program(&self, p: &crate::ir::Program) -> crate::error::Result<Vec<i64>> {
        use crate::ir::Type;
        let mut sizes = Vec::new();
        for &a in &p.args {
            if let Type::Tensor(t) = &p.value(a).ty {
                sizes.extend(t.dims.iter().filter(|d| d.is_none()).map(|_| self.dynamic));
            }
        }
        let integers: Vec<&str> = p
            .args
            .iter()
            .map(|&a| p.value(a))
            .filter(|v| match &v.ty {
                Type::Index => true,
                Type::Scalar(e) => e.starts_with('i'),
                Type::Tensor(_) => false,
            })
            .map(|v| v.ssa.as_str())
            .collect();
        if let Some((n, _)) = self
            .index_args
            .iter()
            .find(|(n, _)| !integers.contains(&n.as_str()))
        {
            let list: Vec<String> = integers.iter().map(|n| format!("%{n}")).collect();
            return Err(crate::error::Error::Request(format!(
                "harness: %{n} is not an integer or index argument of @{} ({})",
                p.name,
                if list.is_empty() {
                    "it has none".to_string()
                } else {
                    format!("those are {}", list.join(", "))
                }
            )));
        }
        for &a in &p.args {
            let v = p.value(a);
            let integer = integers.contains(&v.ssa.as_str());
            if integer {
                let value = self
                    .index_args
                    .iter()
                    .find(|(n, _)| *n == v.ssa)
                    .map(|x| x.1)
                    .ok_or_else(|| {
                        crate::error::Error::Request(format!(
                            "harness: no value for the argument %{} (give it as NAME=VALUE)",
                            v.ssa
                        ))
                    })?;
                sizes.push(value);
            }
        }
        Ok(sizes)
    }
}

/// The text of `module` with a `func.func @main()` added that calls `@func`
/// on the inputs of seed `seed` and `sizes` (as for
/// [`super::pseudo_random_inputs_sized`]) and prints one hash per result.
pub fn with_main(text: &str, func: &str, seed: u64, sizes: &[i64]) -> Result<String> {
    with_timed_main(text, func, seed, sizes, 0)
}

/// As [`with_main`], and first `reps` timed calls: each prints a line
/// `time <seconds>` (the wall time of the call alone, by `rtclock` of
/// `libmlir_c_runner_utils`) and then the hashes of its results, which keeps
/// the call's work from being optimised away. The last lines are the hashes
/// of one more call, untimed, as [`with_main`] prints them. For benchmarks
/// (`poly volume --main`, `scripts/bench_volume.sh`).
pub fn with_timed_main(
    text: &str,
    func: &str,
    seed: u64,
    sizes: &[i64],
    reps: usize,
) -> Result<String> {
    let (args, results) = super::signature(text, func)?;
    let (shapes, scalars) = argument_shapes(func, &args, sizes)?;
    let mut scalars = scalars.into_iter();
    let mut m = String::from("func.func @main() {\n");
    let mut operands = Vec::new();
    for (a, (ty, shape)) in args.iter().zip(&shapes).enumerate() {
        let base = input_base(seed, a);
        let name = match ty {
            Ty::Tensor(_, e) => {
                let stat = Ty::Tensor(shape.iter().map(|&s| Some(s)).collect(), *e);
                let idx: Vec<String> = (0..shape.len()).map(|d| format!("%i{d}")).collect();
                let block_args: Vec<String> = idx.iter().map(|i| format!("{i}: index")).collect();
                let _ = writeln!(
                    m,
                    "  %a{a}s = tensor.generate {{\n  ^bb0({}):",
                    block_args.join(", ")
                );
                // The row-major position, in index arithmetic.
                let _ = writeln!(m, "    %p0 = arith.constant 0 : index");
                for (d, (i, size)) in idx.iter().zip(shape).enumerate() {
                    let _ = writeln!(
                        m,
                        "    %n{d} = arith.constant {size} : index\n    %q{d} = arith.muli %p{d}, %n{d} : index\n    %p{} = arith.addi %q{d}, {i} : index",
                        d + 1
                    );
                }
                let _ = writeln!(
                    m,
                    "    %pos = arith.index_cast %p{} : index to i64",
                    shape.len()
                );
                let x = element_from_pos(&mut m, "    ", "h", "%pos", base, *e);
                let _ = writeln!(m, "    tensor.yield {x} : {e}\n  }} : {stat}");
                let _ = writeln!(m, "  %a{a} = tensor.cast %a{a}s : {stat} to {ty}");
                format!("%a{a}")
            }
            Ty::Scalar(e) if e.is_float() => {
                let _ = writeln!(m, "  %a{a}pos = arith.constant 0 : i64");
                element_from_pos(
                    &mut m,
                    "  ",
                    &format!("a{a}h"),
                    &format!("%a{a}pos"),
                    base,
                    *e,
                )
            }
            Ty::Scalar(e) => {
                let v = scalars.next().unwrap_or(0);
                let _ = writeln!(m, "  %a{a} = arith.constant {v} : {e}");
                format!("%a{a}")
            }
        };
        operands.push(name);
    }
    let tys = |v: &[Ty]| v.iter().map(Ty::to_string).collect::<Vec<_>>().join(", ");
    let call = format!(
        "func.call @{func}({}) : ({}) -> ({})",
        operands.join(", "),
        tys(&args),
        tys(&results)
    );
    let _ = writeln!(
        m,
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %fnv = arith.constant {} : i64\n  %prime = arith.constant {} : i64",
        FNV_BASIS as i64, FNV_PRIME as i64
    );
    // the call as `{res} = call`, the lines `after_call`, then the hash of
    // each result, with names prefixed by `tag` (the timed loop's body is a
    // region of its own) and hash indices from `first`
    let call_and_hash = |m: &mut String, tag: &str, first: usize, after_call: &str| {
        let res = format!("%{tag}r");
        match results.len() {
            0 => {
                let _ = writeln!(m, "  {call}");
            }
            1 => {
                let _ = writeln!(m, "  {res} = {call}");
            }
            n => {
                let _ = writeln!(m, "  {res}:{n} = {call}");
            }
        }
        m.push_str(after_call);
        for (r, ty) in results.iter().enumerate() {
            let v = if results.len() == 1 {
                res.clone()
            } else {
                format!("{res}#{r}")
            };
            let h = hash_result(m, first + r, &v, ty);
            let _ = writeln!(m, "  vector.print {h} : i64");
        }
    };
    if reps > 0 {
        m.insert_str(0, "func.func private @rtclock() -> f64\n");
        let _ = writeln!(
            m,
            "  %nreps = arith.constant {reps} : index\n  scf.for %rep = %c0 to %nreps step %c1 {{\n  %t0 = func.call @rtclock() : () -> f64"
        );
        let timing = "  %t1 = func.call @rtclock() : () -> f64\n  %dt = arith.subf %t1, %t0 : f64\n  vector.print str \"time \"\n  vector.print %dt : f64\n";
        // (the hash's names are distinct from the untimed call's below)
        call_and_hash(&mut m, "t", results.len(), timing);
        m.push_str("  }\n");
    }
    call_and_hash(&mut m, "", 0, "");
    m.push_str("  return\n}\n");
    // Inside the module wrapper if there is one, else at the end.
    let wrapped = text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("module") || l.starts_with("builtin.module")
    });
    Ok(match text.rfind('}') {
        Some(end) if wrapped => format!("{}\n{m}}}\n", &text[..end]),
        _ => format!("{text}\n{m}"),
    })
}

/// Lines (indented by `ind`) computing the input element of type `e` from
/// the `i64` position `pos` and the argument's hash base, as [`input_k`] and
/// the element rule do; temporaries are named `%{t}1`, `%{t}2`, ...
/// Returns the element's name.
fn element_from_pos(
    m: &mut String,
    ind: &str,
    t: &str,
    pos: &str,
    base: u64,
    e: ElemType,
) -> String {
    let lines = [
        format!("%{t}1 = arith.constant 1 : i64"),
        format!("%{t}2 = arith.addi {pos}, %{t}1 : i64"),
        format!("%{t}3 = arith.constant {} : i64", POS_MUL as i64),
        format!("%{t}4 = arith.muli %{t}2, %{t}3 : i64"),
        format!("%{t}5 = arith.constant {} : i64", base as i64),
        format!("%{t}6 = arith.xori %{t}5, %{t}4 : i64"),
        format!("%{t}7 = arith.constant 29 : i64"),
        format!("%{t}8 = arith.shrui %{t}6, %{t}7 : i64"),
        format!("%{t}9 = arith.xori %{t}6, %{t}8 : i64"),
        format!("%{t}10 = arith.constant {} : i64", MIX_MUL as i64),
        format!("%{t}11 = arith.muli %{t}9, %{t}10 : i64"),
        format!("%{t}12 = arith.constant 32 : i64"),
        format!("%{t}13 = arith.shrui %{t}11, %{t}12 : i64"),
        format!("%{t}14 = arith.xori %{t}11, %{t}13 : i64"),
        format!("%{t}15 = arith.constant 255 : i64"),
        format!("%{t}16 = arith.andi %{t}14, %{t}15 : i64"),
        format!("%{t}17 = arith.constant 128 : i64"),
        format!("%{t}18 = arith.subi %{t}16, %{t}17 : i64"),
    ];
    for l in lines {
        let _ = writeln!(m, "{ind}{l}");
    }
    let tail = match e {
        ElemType::F32 | ElemType::F64 => format!(
            "%{t}19 = arith.sitofp %{t}18 : i64 to {e}\n{ind}%{t}20 = arith.constant 64.0 : {e}\n{ind}%{t}v = arith.divf %{t}19, %{t}20 : {e}"
        ),
        ElemType::Int(64) => return format!("%{t}18"),
        ElemType::Int(w) => format!("%{t}v = arith.trunci %{t}18 : i64 to i{w}"),
        ElemType::Index => format!("%{t}v = arith.index_cast %{t}18 : i64 to index"),
    };
    let _ = writeln!(m, "{ind}{tail}");
    format!("%{t}v")
}

/// Lines (indented by `ind`) turning `x` of type `e` into the `i64` word the
/// hash reads ([`super::Scalar::bits`]), with temporaries named after `t`;
/// returns the word's name.
fn bits_word(m: &mut String, ind: &str, x: &str, e: ElemType, t: &str) -> String {
    let line = match e {
        ElemType::F32 => format!(
            "%{t}b = arith.bitcast {x} : f32 to i32\n{ind}%{t}w = arith.extui %{t}b : i32 to i64"
        ),
        ElemType::F64 => format!("%{t}w = arith.bitcast {x} : f64 to i64"),
        ElemType::Int(64) => return x.to_string(),
        ElemType::Int(k) => format!("%{t}w = arith.extui {x} : i{k} to i64"),
        ElemType::Index => format!("%{t}w = arith.index_cast {x} : index to i64"),
    };
    let _ = writeln!(m, "{ind}{line}");
    format!("%{t}w")
}

/// Lines folding the FNV-1a hash of result `r` (value `v` of type `ty`);
/// returns the name of the hash.
fn hash_result(m: &mut String, r: usize, v: &str, ty: &Ty) -> String {
    match ty {
        Ty::Scalar(e) => {
            let w = bits_word(m, "  ", v, *e, &format!("r{r}"));
            let _ = writeln!(
                m,
                "  %r{r}x = arith.xori %fnv, {w} : i64\n  %r{r}h = arith.muli %r{r}x, %prime : i64"
            );
            format!("%r{r}h")
        }
        Ty::Tensor(dims, e) => {
            let rank = dims.len();
            for d in 0..rank {
                let _ = writeln!(
                    m,
                    "  %r{r}k{d} = arith.constant {d} : index\n  %r{r}d{d} = tensor.dim {v}, %r{r}k{d} : {ty}"
                );
            }
            // Nested loops over the result; the innermost folds one element.
            let mut acc = "%fnv".to_string();
            for d in 0..rank {
                let ind = "  ".repeat(d + 1);
                let _ = writeln!(
                    m,
                    "{ind}%r{r}l{d} = scf.for %r{r}i{d} = %c0 to %r{r}d{d} step %c1 iter_args(%r{r}a{d} = {acc}) -> (i64) {{"
                );
                acc = format!("%r{r}a{d}");
            }
            let ind = "  ".repeat(rank + 1);
            let idx: Vec<String> = (0..rank).map(|d| format!("%r{r}i{d}")).collect();
            let _ = writeln!(
                m,
                "{ind}%r{r}e = tensor.extract {v}[{}] : {ty}",
                idx.join(", ")
            );
            let w = bits_word(m, &ind, &format!("%r{r}e"), *e, &format!("r{r}"));
            let _ = writeln!(
                m,
                "{ind}%r{r}x = arith.xori {acc}, {w} : i64\n{ind}%r{r}m = arith.muli %r{r}x, %prime : i64"
            );
            let mut inner = format!("%r{r}m");
            for d in (0..rank).rev() {
                let _ = writeln!(
                    m,
                    "{}scf.yield {inner} : i64\n{}}}",
                    "  ".repeat(d + 2),
                    "  ".repeat(d + 1)
                );
                inner = format!("%r{r}l{d}");
            }
            inner
        }
    }
}
