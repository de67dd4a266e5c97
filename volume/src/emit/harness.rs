//! A `@main` that runs a function on deterministic inputs, for checking emitted
//! code with `mlir-runner` and timing it (no interpreter involved: MLIR executes
//! both the original and the emitted module).
//!
//! Each tensor argument is filled with `k/64` (integer element types: `k`), `k`
//! in `-128..=127` from a hash of the element's indices and the argument's
//! position: the values are exact, so sums of a few thousand products are exact
//! in any order. The function is called `reps` times; the wall time of each call
//! (`rtclock` of `libmlir_c_runner_utils`, around the call only) is printed as
//! `time <seconds>`, then a hash of the IEEE bit patterns of the last result's
//! elements, in row-major order, as `hash <i64>`: equal hashes mean bit-identical
//! results.

use std::fmt::Write as _;

use crate::error::{Error, Result};
use crate::ir::{Program, Type};
use crate::mlir::type_to_string;

/// Sizes for the harness: the value of every `?` of the tensor arguments, and of
/// index arguments by name.
#[derive(Debug, Clone, Default)]
pub struct HarnessSizes {
    /// The size of every dynamic dimension.
    pub dynamic: i64,
    /// Values of `index` arguments (SSA name without `%`).
    pub index_args: Vec<(String, i64)>,
}

/// The text of `func.func @main()` (and the declaration of `rtclock`) calling
/// `p`'s function; to be put inside the module that defines the function.
pub fn main_text(p: &Program, sizes: &HarnessSizes, reps: usize) -> Result<String> {
    let mut s = String::new();
    let _ = writeln!(s, "  func.func private @rtclock() -> f64");
    let _ = writeln!(s, "  func.func @main() {{");
    let mut args = Vec::new();
    let mut types = Vec::new();
    let _ = writeln!(s, "    %h_c0 = arith.constant 0 : index");
    let _ = writeln!(s, "    %h_c1 = arith.constant 1 : index");
    let _ = writeln!(s, "    %h_dyn = arith.constant {} : index", sizes.dynamic);
    for (k, &a) in p.args.iter().enumerate() {
        let v = p.value(a);
        let ty = type_to_string(&v.ty);
        match &v.ty {
            Type::Index => {
                let val = sizes
                    .index_args
                    .iter()
                    .find(|(n, _)| *n == v.ssa)
                    .map(|x| x.1)
                    .ok_or_else(|| {
                        Error::Invalid(format!(
                            "harness: no value for the index argument %{}",
                            v.ssa
                        ))
                    })?;
                let _ = writeln!(s, "    %h_a{k} = arith.constant {val} : index");
            }
            Type::Scalar(e) => {
                let _ = writeln!(
                    s,
                    "    %h_a{k} = arith.constant {} : {e}",
                    scalar(e, k as i64)
                );
            }
            Type::Tensor(t) => {
                let dyns = vec!["%h_dyn"; t.dims.iter().filter(|d| d.is_none()).count()];
                let n = t.dims.len();
                let ds: Vec<String> = (0..n).map(|d| format!("d{d}")).collect();
                let iters = vec!["\"parallel\""; n].join(", ");
                let e = &t.elem;
                let _ = writeln!(s, "    %h_e{k} = tensor.empty({}) : {ty}", dyns.join(", "));
                let _ = writeln!(
                    s,
                    "    %h_a{k} = linalg.generic {{indexing_maps = [affine_map<({0}) -> ({0})>], iterator_types = [{iters}]}} outs(%h_e{k} : {ty}) {{",
                    ds.join(", ")
                );
                let _ = writeln!(s, "    ^bb0(%o: {e}):");
                let _ = writeln!(
                    s,
                    "      %seed = arith.constant {} : i64",
                    0x9E37_79B1_i64 * (k as i64 + 1)
                );
                let _ = writeln!(s, "      %mul = arith.constant 1099511628211 : i64");
                let mut h = "%seed".to_string();
                for d in 0..n {
                    let _ = writeln!(s, "      %i{d} = linalg.index {d} : index");
                    let _ = writeln!(s, "      %j{d} = arith.index_cast %i{d} : index to i64");
                    let _ = writeln!(s, "      %x{d} = arith.xori {h}, %j{d} : i64");
                    let _ = writeln!(s, "      %y{d} = arith.muli %x{d}, %mul : i64");
                    h = format!("%y{d}");
                }
                let _ = writeln!(s, "      %c29 = arith.constant 29 : i64");
                let _ = writeln!(s, "      %sh = arith.shrui {h}, %c29 : i64");
                let _ = writeln!(s, "      %mix = arith.xori {h}, %sh : i64");
                let _ = writeln!(s, "      %c255 = arith.constant 255 : i64");
                let _ = writeln!(s, "      %c128 = arith.constant 128 : i64");
                let _ = writeln!(s, "      %low = arith.andi %mix, %c255 : i64");
                let _ = writeln!(s, "      %kk = arith.subi %low, %c128 : i64");
                if e.starts_with('f') || e.starts_with("bf") {
                    let _ = writeln!(s, "      %kf = arith.sitofp %kk : i64 to {e}");
                    let _ = writeln!(s, "      %c64 = arith.constant 64.0 : {e}");
                    let _ = writeln!(s, "      %val = arith.divf %kf, %c64 : {e}");
                } else if e == "i64" {
                    let _ = writeln!(s, "      %val = arith.addi %kk, %kk : i64");
                } else {
                    let _ = writeln!(s, "      %val = arith.trunci %kk : i64 to {e}");
                }
                let _ = writeln!(s, "      linalg.yield %val : {e}");
                let _ = writeln!(s, "    }} -> {ty}");
            }
        }
        args.push(format!("%h_a{k}"));
        types.push(ty);
    }
    let [r] = p.returns.as_slice() else {
        return Err(Error::Invalid(
            "harness: the function must return one tensor".into(),
        ));
    };
    let rty = type_to_string(&p.value(*r).ty);
    let Type::Tensor(rt) = &p.value(*r).ty else {
        return Err(Error::Invalid(
            "harness: the function must return a tensor".into(),
        ));
    };
    let call = format!(
        "func.call @{}({}) : ({}) -> {rty}",
        p.name,
        args.join(", "),
        types.join(", ")
    );
    let _ = writeln!(s, "    %h_reps = arith.constant {} : index", reps.max(1));
    let _ = writeln!(s, "    scf.for %h_i = %h_c1 to %h_reps step %h_c1 {{");
    let _ = writeln!(s, "      %t0 = func.call @rtclock() : () -> f64");
    let _ = writeln!(s, "      %rr = {call}");
    let _ = writeln!(s, "      %t1 = func.call @rtclock() : () -> f64");
    let _ = writeln!(s, "      %dt = arith.subf %t1, %t0 : f64");
    let _ = writeln!(s, "      vector.print str \"time \"");
    let _ = writeln!(s, "      vector.print %dt : f64");
    let zeros = vec!["%h_c0"; rt.dims.len()].join(", ");
    let _ = writeln!(s, "      %probe = tensor.extract %rr[{zeros}] : {rty}");
    let _ = writeln!(s, "      vector.print str \"probe \"");
    let _ = writeln!(s, "      vector.print %probe : {}", rt.elem);
    let _ = writeln!(s, "    }}");
    let _ = writeln!(s, "    %t0 = func.call @rtclock() : () -> f64");
    let _ = writeln!(s, "    %r = {call}");
    let _ = writeln!(s, "    %t1 = func.call @rtclock() : () -> f64");
    let _ = writeln!(s, "    %dt = arith.subf %t1, %t0 : f64");
    let _ = writeln!(s, "    vector.print str \"time \"");
    let _ = writeln!(s, "    vector.print %dt : f64");
    // the hash of the result's bit patterns
    let n = rt.dims.len();
    let ds: Vec<String> = (0..n).map(|d| format!("d{d}")).collect();
    let iters = vec!["\"reduction\""; n].join(", ");
    let e = &rt.elem;
    let bits = elem_bits(e)?;
    let _ = writeln!(s, "    %hz = tensor.empty() : tensor<i64>");
    let _ = writeln!(s, "    %hc = arith.constant 0 : i64");
    let _ = writeln!(
        s,
        "    %hi = linalg.fill ins(%hc : i64) outs(%hz : tensor<i64>) -> tensor<i64>"
    );
    let _ = writeln!(
        s,
        "    %hs = linalg.generic {{indexing_maps = [affine_map<({0}) -> ({0})>, affine_map<({0}) -> ()>], iterator_types = [{iters}]}} ins(%r : {rty}) outs(%hi : tensor<i64>) {{",
        ds.join(", ")
    );
    let _ = writeln!(s, "    ^bb0(%x: {e}, %acc: i64):");
    if e.starts_with('f') || e.starts_with("bf") {
        let _ = writeln!(s, "      %b = arith.bitcast %x : {e} to i{bits}");
    } else {
        let _ = writeln!(s, "      %b = arith.addi %x, %x : {e}");
    }
    if bits == 64 {
        let _ = writeln!(s, "      %w = arith.addi %b, %b : i64");
    } else {
        let _ = writeln!(s, "      %w = arith.extui %b : i{bits} to i64");
    }
    let _ = writeln!(s, "      %p = arith.constant 1000003 : i64");
    let _ = writeln!(s, "      %m = arith.muli %acc, %p : i64");
    let _ = writeln!(s, "      %y = arith.xori %m, %w : i64");
    let _ = writeln!(s, "      linalg.yield %y : i64");
    let _ = writeln!(s, "    }} -> tensor<i64>");
    let _ = writeln!(s, "    %hv = tensor.extract %hs[] : tensor<i64>");
    let _ = writeln!(s, "    vector.print str \"hash \"");
    let _ = writeln!(s, "    vector.print %hv : i64");
    let _ = writeln!(s, "    return");
    let _ = writeln!(s, "  }}");
    Ok(s)
}

fn elem_bits(e: &str) -> Result<u32> {
    let digits: String = e.chars().filter(|c| c.is_ascii_digit()).collect();
    match digits.parse::<u32>() {
        Ok(b @ (8 | 16 | 32 | 64)) => Ok(b),
        _ => Err(Error::Invalid(format!("harness: element type {e}"))),
    }
}

fn scalar(e: &str, k: i64) -> String {
    if e.starts_with('f') || e.starts_with("bf") {
        format!("{}.5", k + 1)
    } else {
        (k + 1).to_string()
    }
}

/// Puts `main` (from [`main_text`]) next to the function: before the last
/// closing brace of a `module { ... }`, or after the text when there is no
/// module wrapper.
pub fn with_main(module: &str, main: &str) -> Result<String> {
    if !module.lines().any(|l| l.trim_start().starts_with("module")) {
        return Ok(format!("{module}\n{main}"));
    }
    let end = module
        .rfind('}')
        .ok_or_else(|| Error::Invalid("harness: the module text has no closing brace".into()))?;
    Ok(format!("{}{}{}", &module[..end], main, &module[end..]))
}
