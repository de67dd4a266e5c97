//! The conversion of MLIR's affine expressions into the quasi-affine
//! expressions of `presburger::build`, shared by the readers that turn MLIR
//! into sets and maps (`volume`'s indexing maps, `schedule`'s loop bounds and
//! subscripts): one home for MLIR's meaning of `floordiv`, `ceildiv` and
//! `mod`.

use crate::affine::AffineExpr;
use presburger::Int;
use presburger::build::Expr;

impl AffineExpr {
    /// This expression as a quasi-affine expression of `presburger::build`,
    /// with dim `i` standing for `dims[i]` and symbol `i` for `syms[i]`, with
    /// MLIR's semantics: `floordiv` rounds down, `ceildiv` up, and `mod` is
    /// the remainder in `0 .. divisor` (also for negative values). Constant
    /// operands are folded.
    ///
    /// Errors (a message, never a panic): a dim or symbol without an
    /// expression, a product of two non-constant expressions, a divisor or
    /// modulus that is not a positive constant (of 64 bits).
    pub fn to_expr(&self, dims: &[Expr], syms: &[Expr]) -> Result<Expr, String> {
        Ok(match self {
            AffineExpr::Dim(i) => dims.get(*i).cloned().ok_or_else(|| {
                format!(
                    "the affine expression uses d{i}, but there are {} dims",
                    dims.len()
                )
            })?,
            AffineExpr::Symbol(i) => syms.get(*i).cloned().ok_or_else(|| {
                format!(
                    "the affine expression uses the symbol s{i}, but there are {} symbols",
                    syms.len()
                )
            })?,
            AffineExpr::Const(c) => Expr::constant(*c),
            AffineExpr::Add(a, b) => a.to_expr(dims, syms)? + b.to_expr(dims, syms)?,
            AffineExpr::Mul(a, b) => {
                let (x, y) = (a.to_expr(dims, syms)?, b.to_expr(dims, syms)?);
                match (x.constant_value(), y.constant_value()) {
                    (Some(c), _) => y.scale(c),
                    (None, Some(c)) => x.scale(c),
                    (None, None) => {
                        return Err(format!(
                            "the product {self} of two non-constant expressions is not affine"
                        ));
                    }
                }
            }
            AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) | AffineExpr::Mod(a, b) => {
                let x = a.to_expr(dims, syms)?;
                let k = b
                    .to_expr(dims, syms)?
                    .constant_value()
                    .filter(|k| k.is_positive())
                    .and_then(Int::to_i64)
                    .ok_or_else(|| {
                        format!("in {self}, the divisor {b} is not a positive constant")
                    })?;
                match self {
                    AffineExpr::FloorDiv(..) => x.floor_div(k),
                    AffineExpr::CeilDiv(..) => x.ceil_div(k),
                    _ => x.modulo(k),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `floordiv`, `ceildiv` and `mod` as MLIR defines them (rounding down, up,
    /// and a remainder in `0 .. k`), also for negative values and for constants
    /// folded away, checked point by point against evaluation in Rust. (The
    /// former isl text `floor((a)/((k)))` did not even parse.)
    #[test]
    fn to_expr_divides_like_mlir_also_below_zero() {
        use presburger::{DimKind, Set, Space, Tuple};
        let x = || Box::new(AffineExpr::Dim(0));
        let c = |k| Box::new(AffineExpr::Const(k));
        let minus3 = || Box::new(AffineExpr::Add(x(), c(-3)));
        let add = |a, b| AffineExpr::Add(Box::new(a), Box::new(b));
        type Case = (AffineExpr, fn(i64) -> i64);
        let cases: Vec<Case> = vec![
            (AffineExpr::FloorDiv(minus3(), c(4)), |v| {
                (v - 3).div_euclid(4)
            }),
            (AffineExpr::CeilDiv(minus3(), c(4)), |v| {
                -(3 - v).div_euclid(4)
            }),
            (AffineExpr::Mod(minus3(), c(4)), |v| (v - 3).rem_euclid(4)),
            (
                AffineExpr::Mul(c(-3), Box::new(AffineExpr::Mod(x(), c(5)))),
                |v| -3 * v.rem_euclid(5),
            ),
            (
                AffineExpr::FloorDiv(
                    Box::new(add(AffineExpr::FloorDiv(x(), c(2)), AffineExpr::Const(1))),
                    c(3),
                ),
                |v| (v.div_euclid(2) + 1).div_euclid(3),
            ),
            // constant operands, folded: -4 + x, -3 + x, 2 + x
            (
                add(AffineExpr::FloorDiv(c(-7), c(2)), AffineExpr::Dim(0)),
                |v| v - 4,
            ),
            (
                add(AffineExpr::CeilDiv(c(-7), c(2)), AffineExpr::Dim(0)),
                |v| v - 3,
            ),
            (add(AffineExpr::Mod(c(-7), c(3)), AffineExpr::Dim(0)), |v| {
                v + 2
            }),
            // a constant divisor computed from a product
            (
                AffineExpr::FloorDiv(x(), Box::new(AffineExpr::Mul(c(2), c(3)))),
                |v| v.div_euclid(6),
            ),
        ];
        let space = Space::set(vec![], Tuple::new(Some("S"), &["x", "y"]));
        let (xv, yv) = (Expr::dim(DimKind::SET, 0), Expr::dim(DimKind::SET, 1));
        for (e, f) in cases {
            let ex = e.to_expr(std::slice::from_ref(&xv), &[]).unwrap();
            let s = Set::from_constraints(&space, [xv.ge(-20), xv.le(20), yv.eq(ex)]).unwrap();
            let mut got: Vec<(i64, i64)> = s
                .points(100)
                .unwrap()
                .iter()
                .map(|p| (p[0].to_i64().unwrap(), p[1].to_i64().unwrap()))
                .collect();
            got.sort_unstable();
            let want: Vec<(i64, i64)> = (-20..=20).map(|v| (v, f(v))).collect();
            assert_eq!(got, want, "{e}");
        }
    }

    /// What the isl parser refused in the former text stays an error, without a
    /// panic: products of two non-constants, divisors that are not positive
    /// constants, unknown dims and symbols. Huge constant factors are exact.
    #[test]
    fn to_expr_rejects_what_is_not_quasi_affine() {
        let (x, y) = (
            Expr::dim(presburger::DimKind::In, 0),
            Expr::dim(presburger::DimKind::In, 1),
        );
        let dims = [x.clone(), y];
        let d = |i| Box::new(AffineExpr::Dim(i));
        let c = |k| Box::new(AffineExpr::Const(k));
        let bad = [
            AffineExpr::Mul(d(0), d(1)),
            AffineExpr::FloorDiv(d(0), d(1)),
            AffineExpr::CeilDiv(d(0), c(0)),
            AffineExpr::Mod(d(0), c(-2)),
            AffineExpr::Dim(2),
            AffineExpr::Symbol(0),
        ];
        for e in bad {
            let err = e.to_expr(&dims, &[]).unwrap_err();
            assert!(!err.is_empty(), "{e}");
        }
        let err = AffineExpr::Mul(d(0), d(1)).to_expr(&dims, &[]).unwrap_err();
        assert!(err.contains("not affine"), "{err}");
        // (i64::MAX · -i64::MAX) · d0 is exact: at d0 = 1 its value is the product
        let m = Int::from(i64::MAX);
        let big = AffineExpr::Mul(Box::new(AffineExpr::Mul(c(i64::MAX), c(-i64::MAX))), d(0));
        let space = presburger::Space::map(
            vec![],
            presburger::Tuple::new(None, &["x", "y"]),
            presburger::Tuple::new(None, &["v"]),
        );
        let v = Expr::dim(presburger::DimKind::Out, 0);
        let at_one = presburger::Map::from_constraints(
            &space,
            [x.eq(1), v.eq(big.to_expr(&dims, &[]).unwrap())],
        )
        .unwrap()
        .range();
        assert_eq!(at_one.dim_max_affine(0).unwrap(), Some(vec![-(&m * &m)]));
    }
}
