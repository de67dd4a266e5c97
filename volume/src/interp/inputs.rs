//! Deterministic inputs and result hashes for differential runs.
//!
//! Element `l` (row-major position) of argument `a` under seed `s` is `k/64`
//! (floats) or `k` (integers), with `k = (h & 255) - 128` where `h` is
//! [`input_k`]'s SplitMix-style mix of `(l + 1) * POS_MUL` and the
//! argument's base [`input_base`] in wrapping 64-bit arithmetic, chosen so
//! that MLIR code can compute the same values with `arith` ops
//! ([`super::harness`] generates such a `main`). The values are multiples of
//! 1/64 below 2 in magnitude: products and small sums of them are exact in
//! f32, so results do not depend on summation order unless a program sums
//! very many of them.
//!
//! The hash of results is FNV-1a over 64-bit words: `h = (h ^ bits) * P` per
//! element in row-major order, from the FNV offset basis, where `bits` is
//! [`Scalar::bits`] (IEEE bits of floats, integers zero-extended).

use super::value::{ElemType, Scalar, Tensor, Ty, Value, element_count};
use super::{run, signature};
use crate::error::{Error, Result};

/// Multiplier of the seed in the per-argument base.
pub const SEED_MUL: u64 = 0x9E37_79B9_7F4A_7C15;
/// Multiplier of the argument number in the per-argument base.
pub const ARG_MUL: u64 = 0xC2B2_AE3D_27D4_EB4F;
/// Multiplier of the element's position.
pub const POS_MUL: u64 = 0x1656_67B1_9E37_79F9;
/// Multiplier of the mix step.
pub const MIX_MUL: u64 = 0xBF58_476D_1CE4_E5B9;
/// FNV-1a's 64-bit offset basis.
pub const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a's 64-bit prime.
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The per-argument base of the input hash for seed `seed` and argument `arg`.
pub fn input_base(seed: u64, arg: usize) -> u64 {
    seed.wrapping_mul(SEED_MUL) ^ (arg as u64 + 1).wrapping_mul(ARG_MUL)
}

/// The integer `k` in −128..127 of the element at row-major position `pos`
/// for the argument with base `base` (see the module documentation).
pub fn input_k(base: u64, pos: u64) -> i64 {
    let mut h = base ^ pos.wrapping_add(1).wrapping_mul(POS_MUL);
    h ^= h >> 29;
    h = h.wrapping_mul(MIX_MUL);
    h ^= h >> 32;
    (h & 255) as i64 - 128
}

/// The element for `k` in type `t`: `k/64` for floats, `k` for integers.
fn element(k: i64, t: ElemType) -> Scalar {
    match t {
        ElemType::F32 => Scalar::F32(k as f32 / 64.0),
        ElemType::F64 => Scalar::F64(k as f64 / 64.0),
        t => Scalar::int(k, t),
    }
}

/// Inputs for `@func` of `text` with static argument types: every tensor and
/// float argument filled as the module documentation says.
pub fn pseudo_random_inputs(text: &str, func: &str, seed: u64) -> Result<Vec<Value>> {
    pseudo_random_inputs_sized(text, func, seed, &[])
}

/// Inputs for `@func` of `text`: `sizes` gives, in order, the size of each `?`
/// dimension of the tensor arguments (in argument order), then the value of
/// each integer or `index` scalar argument; tensors and float scalars are
/// filled pseudo-randomly from `seed`.
pub fn pseudo_random_inputs_sized(
    text: &str,
    func: &str,
    seed: u64,
    sizes: &[i64],
) -> Result<Vec<Value>> {
    let (args, _) = signature(text, func)?;
    let (shapes, scalars) = argument_shapes(func, &args, sizes)?;
    let mut scalars = scalars.into_iter();
    let mut out = Vec::new();
    for (a, (ty, shape)) in args.iter().zip(shapes).enumerate() {
        let base = input_base(seed, a);
        out.push(match ty {
            Ty::Tensor(_, e) => {
                let n = element_count(&shape)
                    .ok_or_else(|| Error::Invalid(format!("@{func}: argument {a} is too large")))?;
                let data = (0..n as u64)
                    .map(|p| element(input_k(base, p), *e))
                    .collect();
                Value::Tensor(Tensor {
                    elem: *e,
                    shape,
                    data,
                })
            }
            Ty::Scalar(e) if e.is_float() => Value::Scalar(element(input_k(base, 0), *e)),
            Ty::Scalar(e) => Value::Scalar(Scalar::int(scalars.next().unwrap_or(0), *e)),
        });
    }
    Ok(out)
}

/// The concrete shape of each argument of `@func` (empty for scalars), its
/// `?` sizes taken from `sizes` in order, and the values that follow in
/// `sizes` for the integer and `index` scalar arguments, one each in order.
pub(super) fn argument_shapes(
    func: &str,
    args: &[Ty],
    sizes: &[i64],
) -> Result<(Vec<Vec<usize>>, Vec<i64>)> {
    let mut given = sizes.iter().copied();
    let mut shapes = Vec::new();
    for (a, ty) in args.iter().enumerate() {
        let mut shape = Vec::new();
        if let Ty::Tensor(dims, _) = ty {
            for (d, s) in dims.iter().enumerate() {
                shape.push(match s {
                    Some(s) => *s,
                    None => given
                        .next()
                        .and_then(|x| usize::try_from(x).ok())
                        .ok_or_else(|| {
                            Error::Invalid(format!(
                                "@{func}: no size (or a negative one) given for dimension {d} of argument {a}"
                            ))
                        })?,
                });
            }
        }
        shapes.push(shape);
    }
    let scalars = args
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, Ty::Scalar(e) if !e.is_float()))
        .map(|(a, _)| {
            given.next().ok_or_else(|| {
                Error::Invalid(format!("@{func}: no value given for scalar argument {a}"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((shapes, scalars))
}

/// The FNV-1a hash of one value's bit patterns (see the module documentation).
pub fn hash_value(v: &Value) -> u64 {
    let mut h = FNV_BASIS;
    let mut add = |s: &Scalar| h = (h ^ s.bits()).wrapping_mul(FNV_PRIME);
    match v {
        Value::Scalar(s) => add(s),
        Value::Tensor(t) => t.data.iter().for_each(add),
    }
    h
}

/// The hash of each value.
pub fn hash_values(values: &[Value]) -> Vec<u64> {
    values.iter().map(hash_value).collect()
}

/// Runs `original = (text, func)` and `transformed = (text, func)` on the
/// same pseudo-random inputs (seed `seed`, `sizes` as in
/// [`pseudo_random_inputs_sized`], taken from the original's signature) and
/// checks that they return the same values bit for bit; on a difference, an
/// error names the first differing result and element. Returns the results.
pub fn compare(
    original: (&str, &str),
    transformed: (&str, &str),
    seed: u64,
    sizes: &[i64],
) -> Result<Vec<Value>> {
    let inputs = pseudo_random_inputs_sized(original.0, original.1, seed, sizes)?;
    let a = run(original.0, original.1, inputs.clone())?;
    let b = run(transformed.0, transformed.1, inputs)?;
    if a.len() != b.len() {
        return Err(Error::Invalid(format!(
            "{} results against {}",
            a.len(),
            b.len()
        )));
    }
    for (r, (x, y)) in a.iter().zip(&b).enumerate() {
        if let Some(m) = first_difference(x, y) {
            return Err(Error::Invalid(format!("result {r} differs: {m}")));
        }
    }
    Ok(a)
}

/// Where two values differ in type, shape or any element's bits.
fn first_difference(x: &Value, y: &Value) -> Option<String> {
    match (x, y) {
        (Value::Scalar(a), Value::Scalar(b)) => {
            (a.ty() != b.ty() || a.bits() != b.bits()).then(|| format!("{a} against {b}"))
        }
        (Value::Tensor(a), Value::Tensor(b)) => {
            if a.elem != b.elem || a.shape != b.shape {
                return Some(format!(
                    "{} {:?} against {} {:?}",
                    a.elem, a.shape, b.elem, b.shape
                ));
            }
            let p = a
                .data
                .iter()
                .zip(&b.data)
                .position(|(u, v)| u.bits() != v.bits())?;
            let idx = unflatten(p, &a.shape);
            Some(format!(
                "element {idx:?} is {} against {}",
                a.data[p], b.data[p]
            ))
        }
        _ => Some("a scalar against a tensor".to_string()),
    }
}

/// The multi-index of row-major position `p` in `shape`.
fn unflatten(mut p: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        let s = shape[d].max(1);
        idx[d] = p % s;
        p /= s;
    }
    idx
}
