//! What the MLIR front end knows about each SSA value ([`Val`]), the index
//! expressions it builds from them (MLIR [`AffineExpr`]s over the loop
//! iterators and the parameters), the domain conditions ([`Guard`]) and their
//! translation into `presburger` expressions and the C front end's
//! [`Cond`]itions.
//!
//! Index values are kept as [`AffineExpr`]s in which `Dim(k)` is the iterator
//! of the k-th enclosing loop (outermost 0) and `Symbol(p)` the p-th parameter
//! of the SCoP; the maps of `affine.apply`, `affine.for` bounds and `affine.if`
//! sets are composed into that form by [`substitute`].

use crate::c::affine::Cond;
use presburger::DimKind;
use presburger::build::Expr as Aff;
use presburger_mlir_syntax::AffineExpr;

/// One array element or scalar read or written: the array's name and the
/// subscripts over the statement's iterators and the parameters.
#[derive(Clone, Debug)]
pub struct RawAccess {
    /// The array (the memref's SSA name without `%`, or a scalar argument).
    pub array: String,
    /// One index expression per dimension.
    pub subs: Vec<AffineExpr>,
    /// For a vector access (`affine.vector_load`), the vector's sizes: its
    /// elements are `subs[d] .. subs[d] + size` in the last dimensions;
    /// empty for one element.
    pub extents: Vec<i64>,
}

impl RawAccess {
    /// The access of the 0-d array `name` (a scalar).
    pub fn scalar(name: &str) -> RawAccess {
        RawAccess {
            array: name.to_string(),
            subs: Vec::new(),
            extents: Vec::new(),
        }
    }
}

/// What an SSA value is, as far as the model goes.
#[derive(Clone, Debug)]
pub enum Val {
    /// An affine index value.
    Index(AffineExpr),
    /// An `index` argument or a `memref.dim` of an argument: a parameter, given
    /// its number when first used in an index.
    Param(String),
    /// An index value that is not affine (the reason, for messages).
    NonAffine(String),
    /// A value computed from memory: the reads it depends on and the byte spans
    /// of the operations that compute it.
    Data {
        /// The array elements read, each with the byte offset of the operation
        /// that reads it (a load, or the op using a scalar argument).
        reads: Vec<(usize, RawAccess)>,
        /// The operations' spans in the source.
        spans: Vec<(usize, usize)>,
    },
    /// A non-index scalar argument (`%alpha: f64`): reading it reads the 0-d
    /// array `alpha[]`, as a C scalar would.
    Scalar(String),
    /// A memref argument: the key of its description.
    Memref(String),
    /// The largest (`max`) or smallest of affine pieces (`arith.maxsi`,
    /// `arith.minsi`, `affine.max`, `affine.min`): a loop bound, not an
    /// index.
    Extremum {
        /// Whether it is the maximum.
        max: bool,
        /// The pieces.
        pieces: Vec<AffineExpr>,
    },
    /// An `i1` condition on affine indices (`arith.cmpi`, `andi`, `ori`).
    Cond(Guard),
}

/// A condition on the iterators and parameters.
#[derive(Clone, Debug)]
pub enum Guard {
    /// `e >= 0`.
    Ge(AffineExpr),
    /// `e == 0`.
    Eq(AffineExpr),
    /// All of them.
    And(Vec<Guard>),
    /// At least one of them.
    Or(Vec<Guard>),
}

/// `a + b`.
pub fn add(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::Add(Box::new(a), Box::new(b))
}

/// `a * k`.
pub fn scale(a: AffineExpr, k: i64) -> AffineExpr {
    AffineExpr::Mul(Box::new(a), Box::new(AffineExpr::Const(k)))
}

/// `a - b`.
pub fn sub(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    add(a, scale(b, -1))
}

/// The constant value of `e` when it has one (folding sums and products of
/// constants; `None` on overflow).
pub fn constant(e: &AffineExpr) -> Option<i64> {
    match e {
        AffineExpr::Const(c) => Some(*c),
        AffineExpr::Add(a, b) => constant(a)?.checked_add(constant(b)?),
        AffineExpr::Mul(a, b) => constant(a)?.checked_mul(constant(b)?),
        _ => None,
    }
}

/// `e` with `Dim(i)` replaced by `dims[i]` and `Symbol(i)` by `syms[i]`;
/// `None` when `e` uses an operand that is not given.
pub fn substitute(e: &AffineExpr, dims: &[AffineExpr], syms: &[AffineExpr]) -> Option<AffineExpr> {
    let sub = |x: &AffineExpr| substitute(x, dims, syms).map(Box::new);
    Some(match e {
        AffineExpr::Dim(i) => dims.get(*i)?.clone(),
        AffineExpr::Symbol(i) => syms.get(*i)?.clone(),
        AffineExpr::Const(c) => AffineExpr::Const(*c),
        AffineExpr::Add(a, b) => AffineExpr::Add(sub(a)?, sub(b)?),
        AffineExpr::Mul(a, b) => AffineExpr::Mul(sub(a)?, sub(b)?),
        AffineExpr::FloorDiv(a, b) => AffineExpr::FloorDiv(sub(a)?, sub(b)?),
        AffineExpr::CeilDiv(a, b) => AffineExpr::CeilDiv(sub(a)?, sub(b)?),
        AffineExpr::Mod(a, b) => AffineExpr::Mod(sub(a)?, sub(b)?),
    })
}

/// `e` with the divisor of every `floordiv`, `ceildiv` and `mod` and one
/// factor of every product folded to a constant: a semi-affine map (a symbol
/// as divisor or factor, see
/// `presburger_mlir_syntax::affine::parse_semi_affine_map_after_open`) whose
/// symbols are bound to constants is affine. `Err` says which form stays
/// semi-affine, or which divisor is not positive.
pub fn quasi_affine(e: &AffineExpr) -> Result<AffineExpr, String> {
    let q = |x: &AffineExpr| quasi_affine(x).map(Box::new);
    Ok(match e {
        AffineExpr::Dim(_) | AffineExpr::Symbol(_) | AffineExpr::Const(_) => e.clone(),
        AffineExpr::Add(a, b) => AffineExpr::Add(q(a)?, q(b)?),
        AffineExpr::Mul(a, b) => {
            let (a, b) = (q(a)?, q(b)?);
            match (constant(&a), constant(&b)) {
                (Some(k), _) => AffineExpr::Mul(b, Box::new(AffineExpr::Const(k))),
                (None, Some(k)) => AffineExpr::Mul(a, Box::new(AffineExpr::Const(k))),
                (None, None) => {
                    return Err(
                        "a product of two values that are not constants (a semi-affine map) \
                         is not in the model"
                            .to_string(),
                    );
                }
            }
        }
        AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) | AffineExpr::Mod(a, b) => {
            let a = q(a)?;
            let k = match constant(&quasi_affine(b)?) {
                Some(k) if k > 0 => Box::new(AffineExpr::Const(k)),
                Some(k) => return Err(format!("the divisor {k} must be a positive constant")),
                None => {
                    return Err(
                        "a divisor that is not a constant (a semi-affine map) is not in the model"
                            .to_string(),
                    );
                }
            };
            match e {
                AffineExpr::FloorDiv(..) => AffineExpr::FloorDiv(a, k),
                AffineExpr::CeilDiv(..) => AffineExpr::CeilDiv(a, k),
                _ => AffineExpr::Mod(a, k),
            }
        }
    })
}

/// `e` as a `presburger` expression, iterators as dimensions of `kind` (at
/// most `n_iters` of them) and symbol `p` as parameter `order[p]`; `None`
/// when `e` is not quasi-affine (a product of non-constants, a divisor that is
/// not a positive constant) or uses an iterator or symbol out of range.
pub fn to_aff(e: &AffineExpr, kind: DimKind, n_iters: usize, order: &[usize]) -> Option<Aff> {
    let dims: Vec<Aff> = (0..n_iters).map(|i| Aff::dim(kind, i)).collect();
    let syms: Vec<Aff> = order.iter().map(|&p| Aff::param(p)).collect();
    e.to_expr(&dims, &syms).ok()
}

impl Guard {
    /// The negation (for the `else` branch of an `affine.if`).
    pub fn negate(&self) -> Guard {
        match self {
            // not (e >= 0)  <=>  -e - 1 >= 0
            Guard::Ge(e) => Guard::Ge(add(scale(e.clone(), -1), AffineExpr::Const(-1))),
            Guard::Eq(e) => Guard::Or(vec![
                Guard::Ge(add(e.clone(), AffineExpr::Const(-1))),
                Guard::Ge(add(scale(e.clone(), -1), AffineExpr::Const(-1))),
            ]),
            Guard::And(v) => Guard::Or(v.iter().map(Guard::negate).collect()),
            Guard::Or(v) => Guard::And(v.iter().map(Guard::negate).collect()),
        }
    }

    /// The condition with each expression `e` replaced by `f(e)`; `None`
    /// when `f` gives `None` for one.
    pub fn map(&self, f: &dyn Fn(&AffineExpr) -> Option<AffineExpr>) -> Option<Guard> {
        let all = |v: &[Guard]| v.iter().map(|g| g.map(f)).collect::<Option<Vec<_>>>();
        Some(match self {
            Guard::Ge(e) => Guard::Ge(f(e)?),
            Guard::Eq(e) => Guard::Eq(f(e)?),
            Guard::And(v) => Guard::And(all(v)?),
            Guard::Or(v) => Guard::Or(all(v)?),
        })
    }

    /// The condition over `n_iters` set dimensions; `None` as for [`to_aff`].
    pub fn to_cond(&self, n_iters: usize, order: &[usize]) -> Option<Cond> {
        let aff = |e| to_aff(e, DimKind::SET, n_iters, order);
        Some(match self {
            Guard::Ge(e) => Cond::Atom(aff(e)?.ge(0)),
            Guard::Eq(e) => Cond::Atom(aff(e)?.eq(0)),
            Guard::And(v) => Cond::And(
                v.iter()
                    .map(|g| g.to_cond(n_iters, order))
                    .collect::<Option<_>>()?,
            ),
            Guard::Or(v) => Cond::Or(
                v.iter()
                    .map(|g| g.to_cond(n_iters, order))
                    .collect::<Option<_>>()?,
            ),
        })
    }
}
