//! Scalar semantics of the `arith` and `math` dialects
//! (<https://mlir.llvm.org/docs/Dialects/ArithOps/>,
//! <https://mlir.llvm.org/docs/Dialects/MathOps/>): IEEE 754 arithmetic in the
//! operands' own precision (f32 math is done in f32), two's complement
//! integers wrapped to their width, and the casts. What MLIR leaves undefined
//! or poison (division by zero, signed overflow of `divsi`, shifts past the
//! width, out-of-range `fptosi`) is an error here, so that a program relying on
//! it is noticed instead of compared.

use super::value::{ElemType, Scalar, wrap};

/// An error message.
type Res<T> = Result<T, String>;

/// The binary `arith` op `name` (without `arith.`) on two scalars of the same type.
pub fn binary(name: &str, a: Scalar, b: Scalar) -> Res<Scalar> {
    if a.ty() != b.ty() {
        return Err(format!(
            "operands of types {} and {} differ",
            a.ty(),
            b.ty()
        ));
    }
    /// The float op `name` on `$x` and `$y` of type `$t`, in that type (the
    /// extrema through f64, exact for f32 operands).
    macro_rules! float_binary {
        ($x:expr, $y:expr, $t:ty) => {{
            let (x, y): ($t, $t) = ($x, $y);
            let wide = |f: fn(f64, f64) -> f64| f(f64::from(x), f64::from(y)) as $t;
            match name {
                "addf" => x + y,
                "subf" => x - y,
                "mulf" => x * y,
                "divf" => x / y,
                "remf" => x % y,
                "maximumf" => wide(maximum),
                "minimumf" => wide(minimum),
                "maxnumf" => wide(maxnum),
                "minnumf" => wide(minnum),
                "powf" => x.powf(y),
                "copysign" => x.copysign(y),
                _ => return Err(format!("`{name}` is not a binary float operation")),
            }
        }};
    }
    match (a, b) {
        (Scalar::F32(x), Scalar::F32(y)) => Ok(Scalar::F32(float_binary!(x, y, f32))),
        (Scalar::F64(x), Scalar::F64(y)) => Ok(Scalar::F64(float_binary!(x, y, f64))),
        (Scalar::Int(x, t), Scalar::Int(y, _)) => {
            int_binary(name, x, y, t).map(|v| Scalar::int(v, t))
        }
        _ => Err("operands of different kinds".to_string()),
    }
}

/// IEEE 754-2019 `maximum`: NaN if either is NaN, and -0 < +0 (`arith.maximumf`).
/// Exact in f64 for f32 operands, so one function serves both.
fn maximum(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        if x.is_sign_negative() { y } else { x }
    } else if x > y {
        x
    } else {
        y
    }
}

/// IEEE 754-2019 `minimum` (`arith.minimumf`).
fn minimum(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        if x.is_sign_negative() { x } else { y }
    } else if x < y {
        x
    } else {
        y
    }
}

/// `maxNum` (`arith.maxnumf`): the other operand if one is NaN; -0 < +0.
fn maxnum(x: f64, y: f64) -> f64 {
    match (x.is_nan(), y.is_nan()) {
        (true, _) => y,
        (_, true) => x,
        _ => maximum(x, y),
    }
}

/// `minNum` (`arith.minnumf`).
fn minnum(x: f64, y: f64) -> f64 {
    match (x.is_nan(), y.is_nan()) {
        (true, _) => y,
        (_, true) => x,
        _ => minimum(x, y),
    }
}

/// The integer op `name` on values sign-extended from type `t`'s width; the
/// caller wraps the result.
fn int_binary(name: &str, x: i64, y: i64, t: ElemType) -> Res<i64> {
    let w = t.int_width().unwrap_or(64);
    let unsigned = |v: i64| -> u64 {
        if w >= 64 {
            v as u64
        } else {
            (v as u64) & ((1u64 << w) - 1)
        }
    };
    let min = if w >= 64 {
        i64::MIN
    } else {
        -(1i64 << (w - 1))
    };
    let signed_div_check = || -> Res<()> {
        if y == 0 {
            return Err("division by zero".to_string());
        }
        if x == min && y == -1 {
            return Err("signed division overflows".to_string());
        }
        Ok(())
    };
    let shift = || -> Res<u32> {
        let s = unsigned(y);
        if s >= u64::from(w) {
            return Err(format!("shift by {s} is not below the width {w}"));
        }
        Ok(s as u32)
    };
    Ok(match name {
        "addi" => x.wrapping_add(y),
        "subi" => x.wrapping_sub(y),
        "muli" => x.wrapping_mul(y),
        "andi" => x & y,
        "ori" => x | y,
        "xori" => x ^ y,
        "maxsi" => x.max(y),
        "minsi" => x.min(y),
        "maxui" => {
            if unsigned(x) >= unsigned(y) {
                x
            } else {
                y
            }
        }
        "minui" => {
            if unsigned(x) <= unsigned(y) {
                x
            } else {
                y
            }
        }
        "divsi" => {
            signed_div_check()?;
            x / y
        }
        "remsi" => {
            signed_div_check()?;
            x % y
        }
        "floordivsi" => {
            signed_div_check()?;
            x.div_euclid(y) - i64::from(y < 0 && x.rem_euclid(y) != 0)
        }
        "ceildivsi" => {
            signed_div_check()?;
            let q = x / y;
            q + i64::from(x % y != 0 && ((x < 0) == (y < 0)))
        }
        "divui" | "remui" | "ceildivui" => {
            let (a, b) = (unsigned(x), unsigned(y));
            if b == 0 {
                return Err("division by zero".to_string());
            }
            (match name {
                "divui" => a / b,
                "remui" => a % b,
                _ => a.div_ceil(b),
            }) as i64
        }
        "shli" => x << shift()?,
        "shrsi" => x >> shift()?,
        "shrui" => (unsigned(x) >> shift()?) as i64,
        _ => return Err(format!("`{name}` is not a binary integer operation")),
    })
}

/// The unary float op `name` (`arith.negf` or a `math` op such as `exp`,
/// `sqrt`, `absf`), computed in the operand's precision.
pub fn unary(name: &str, a: Scalar) -> Res<Scalar> {
    /// The function `name` of the float `$x`, in `$x`'s own type.
    macro_rules! float_unary {
        ($x:expr) => {{
            let x = $x;
            match name {
                "negf" => -x,
                "absf" => x.abs(),
                "sqrt" => x.sqrt(),
                "rsqrt" => 1.0 / x.sqrt(),
                "exp" => x.exp(),
                "exp2" => x.exp2(),
                "expm1" => x.exp_m1(),
                "log" => x.ln(),
                "log2" => x.log2(),
                "log10" => x.log10(),
                "log1p" => x.ln_1p(),
                "tanh" => x.tanh(),
                "sin" => x.sin(),
                "cos" => x.cos(),
                "floor" => x.floor(),
                "ceil" => x.ceil(),
                "round" => x.round(),
                "roundeven" => x.round_ties_even(),
                "trunc" => x.trunc(),
                _ => return Err(format!("`{name}` is not a unary float operation")),
            }
        }};
    }
    match a {
        Scalar::F32(x) => Ok(Scalar::F32(float_unary!(x))),
        Scalar::F64(x) => Ok(Scalar::F64(float_unary!(x))),
        Scalar::Int(x, t) => match name {
            "absi" => Ok(Scalar::int(x.wrapping_abs(), t)),
            _ => Err(format!("`{name}` needs a float operand, not {t}")),
        },
    }
}

/// `arith.cmpf` with predicate `pred` (`oeq`, `olt`, `ugt`, `ord`, ...).
pub fn cmpf(pred: &str, a: Scalar, b: Scalar) -> Res<bool> {
    let (x, y) = match (a, b) {
        (Scalar::F32(x), Scalar::F32(y)) => (f64::from(x), f64::from(y)),
        (Scalar::F64(x), Scalar::F64(y)) => (x, y),
        _ => return Err("arith.cmpf needs two floats of the same type".to_string()),
    };
    let unordered = x.is_nan() || y.is_nan();
    let rel = |p: &str| match p {
        "eq" => x == y,
        "gt" => x > y,
        "ge" => x >= y,
        "lt" => x < y,
        "le" => x <= y,
        _ => x != y,
    };
    Ok(match pred {
        "false" => false,
        "true" => true,
        "ord" => !unordered,
        "uno" => unordered,
        "oeq" | "ogt" | "oge" | "olt" | "ole" | "one" => !unordered && rel(&pred[1..]),
        "ueq" | "ugt" | "uge" | "ult" | "ule" | "une" => unordered || rel(&pred[1..]),
        _ => return Err(format!("unknown arith.cmpf predicate `{pred}`")),
    })
}

/// `arith.cmpi` with predicate `pred` (`eq`, `slt`, `uge`, ...).
pub fn cmpi(pred: &str, a: Scalar, b: Scalar) -> Res<bool> {
    let (Scalar::Int(x, t), Scalar::Int(y, u)) = (a, b) else {
        return Err("arith.cmpi needs integer or index operands".to_string());
    };
    if t != u {
        return Err(format!("arith.cmpi on {t} and {u}"));
    }
    let (ux, uy) = (a.bits(), b.bits());
    Ok(match pred {
        "eq" => x == y,
        "ne" => x != y,
        "slt" => x < y,
        "sle" => x <= y,
        "sgt" => x > y,
        "sge" => x >= y,
        "ult" => ux < uy,
        "ule" => ux <= uy,
        "ugt" => ux > uy,
        "uge" => ux >= uy,
        _ => return Err(format!("unknown arith.cmpi predicate `{pred}`")),
    })
}

/// The float `x` (exact in f64) as an integer of width `w`, if in range and
/// not NaN (`fptosi` rounds toward zero).
fn float_to_int(x: f64, w: u32, signed: bool) -> Res<i64> {
    let t = x.trunc();
    let (lo, hi) = if signed {
        (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
    } else {
        (0.0, 2f64.powi(w as i32))
    };
    if x.is_nan() || t < lo || t >= hi {
        return Err(format!("{x} does not fit the {w}-bit integer type"));
    }
    Ok(if signed {
        t as i64
    } else {
        wrap(t as u64 as i64, w)
    })
}

/// The integer `v` (sign-extended from its width) as the float type `to`,
/// rounded to nearest even as `sitofp`/`uitofp` do.
fn int_to_float(v: i64, unsigned_bits: Option<u64>, to: ElemType) -> Scalar {
    match (to, unsigned_bits) {
        (ElemType::F32, None) => Scalar::F32(v as f32),
        (ElemType::F32, Some(u)) => Scalar::F32(u as f32),
        (_, None) => Scalar::F64(v as f64),
        (_, Some(u)) => Scalar::F64(u as f64),
    }
}

/// The cast op `name` (without `arith.`: `index_cast`, `sitofp`, `fptosi`,
/// `extf`, `truncf`, `extsi`, `extui`, `trunci`, `bitcast`, ...) of `a` to `to`.
pub fn cast(name: &str, a: Scalar, to: ElemType) -> Res<Scalar> {
    let bad = || format!("arith.{name} cannot cast {} to {to}", a.ty());
    match (name, a) {
        ("index_cast" | "extsi" | "trunci", Scalar::Int(v, _)) if to.int_width().is_some() => {
            Ok(Scalar::int(v, to))
        }
        ("index_castui" | "extui", Scalar::Int(_, _)) if to.int_width().is_some() => {
            Ok(Scalar::int(a.bits() as i64, to))
        }
        ("sitofp", Scalar::Int(v, _)) if to.is_float() => Ok(int_to_float(v, None, to)),
        ("uitofp", Scalar::Int(_, _)) if to.is_float() => Ok(int_to_float(0, Some(a.bits()), to)),
        ("fptosi" | "fptoui", Scalar::F32(_) | Scalar::F64(_)) => {
            let w = to.int_width().ok_or_else(bad)?;
            let x = match a {
                Scalar::F32(x) => f64::from(x),
                Scalar::F64(x) => x,
                Scalar::Int(..) => return Err(bad()),
            };
            Ok(Scalar::int(float_to_int(x, w, name == "fptosi")?, to))
        }
        ("extf", Scalar::F32(x)) if to == ElemType::F64 => Ok(Scalar::F64(f64::from(x))),
        ("truncf", Scalar::F64(x)) if to == ElemType::F32 => Ok(Scalar::F32(x as f32)),
        ("extf" | "truncf", _) if a.ty() == to => Ok(a),
        ("bitcast", _) => match (a, to) {
            (Scalar::F32(x), ElemType::Int(32)) => Ok(Scalar::int(i64::from(x.to_bits()), to)),
            (Scalar::F64(x), ElemType::Int(64)) => Ok(Scalar::int(x.to_bits() as i64, to)),
            (Scalar::Int(_, ElemType::Int(32)), ElemType::F32) => {
                Ok(Scalar::F32(f32::from_bits(a.bits() as u32)))
            }
            (Scalar::Int(_, ElemType::Int(64)), ElemType::F64) => {
                Ok(Scalar::F64(f64::from_bits(a.bits())))
            }
            _ if a.ty() == to => Ok(a),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// Linalg's `cast_signed` to the type `to`: how named ops convert their
/// operands to the output's element type (floats extend or truncate, integers
/// sign-extend or truncate, integers become floats by `sitofp` and floats
/// integers by `fptosi`).
pub fn convert(a: Scalar, to: ElemType) -> Res<Scalar> {
    if a.ty() == to {
        return Ok(a);
    }
    let name = match (a.ty().is_float(), to.is_float()) {
        (true, true) if to == ElemType::F64 => "extf",
        (true, true) => "truncf",
        (false, true) => "sitofp",
        (true, false) => "fptosi",
        (false, false) => "extsi",
    };
    cast(name, a, to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_extrema_follow_ieee_2019() {
        let m = binary("maximumf", Scalar::F32(-0.0), Scalar::F32(0.0)).unwrap();
        assert_eq!(m.bits(), 0f32.to_bits() as u64);
        let m = binary("minimumf", Scalar::F32(0.0), Scalar::F32(-0.0)).unwrap();
        assert_eq!(m.bits(), (-0f32).to_bits() as u64);
        assert!(
            matches!(binary("maximumf", Scalar::F32(f32::NAN), Scalar::F32(1.0)), Ok(Scalar::F32(x)) if x.is_nan())
        );
        assert_eq!(
            binary("maxnumf", Scalar::F32(f32::NAN), Scalar::F32(1.0)),
            Ok(Scalar::F32(1.0))
        );
    }

    #[test]
    fn integer_division_rounds_as_documented() {
        let i = |v| Scalar::index(v);
        assert_eq!(binary("floordivsi", i(-7), i(2)), Ok(i(-4)));
        assert_eq!(binary("floordivsi", i(7), i(-2)), Ok(i(-4)));
        assert_eq!(binary("floordivsi", i(-8), i(2)), Ok(i(-4)));
        assert_eq!(binary("ceildivsi", i(7), i(2)), Ok(i(4)));
        assert_eq!(binary("ceildivsi", i(-7), i(2)), Ok(i(-3)));
        assert_eq!(binary("ceildivsi", i(-7), i(-2)), Ok(i(4)));
        assert_eq!(binary("remsi", i(-7), i(2)), Ok(i(-1)));
        assert_eq!(binary("divsi", i(-7), i(2)), Ok(i(-3)));
        assert!(binary("divsi", i(1), i(0)).is_err());
        let a = Scalar::int(127, ElemType::Int(8));
        assert_eq!(
            binary("addi", a, Scalar::int(1, ElemType::Int(8))),
            Ok(Scalar::int(-128, ElemType::Int(8)))
        );
    }

    #[test]
    fn casts() {
        assert_eq!(
            cast("sitofp", Scalar::int(-3, ElemType::Int(32)), ElemType::F32),
            Ok(Scalar::F32(-3.0))
        );
        assert_eq!(
            cast("fptosi", Scalar::F32(-2.7), ElemType::Int(32)),
            Ok(Scalar::int(-2, ElemType::Int(32)))
        );
        assert!(cast("fptosi", Scalar::F32(1e20), ElemType::Int(32)).is_err());
        assert_eq!(
            cast("truncf", Scalar::F64(0.1), ElemType::F32),
            Ok(Scalar::F32(0.1))
        );
        assert_eq!(
            cast("index_cast", Scalar::index(-1), ElemType::Int(8)),
            Ok(Scalar::int(-1, ElemType::Int(8)))
        );
        assert_eq!(
            cast(
                "index_castui",
                Scalar::int(-1, ElemType::Int(8)),
                ElemType::Index
            ),
            Ok(Scalar::index(255))
        );
        assert!(cmpf("olt", Scalar::F32(1.0), Scalar::F32(2.0)).unwrap());
        assert!(!cmpf("olt", Scalar::F32(f32::NAN), Scalar::F32(2.0)).unwrap());
        assert!(cmpf("une", Scalar::F32(f32::NAN), Scalar::F32(2.0)).unwrap());
        assert!(cmpi("ult", Scalar::index(1), Scalar::index(-1)).unwrap());
    }
}
