//! Exact rational linear programming: [`LinearProgram`], an incremental simplex
//! tableau over rational variables with snapshots and rollback.
//!
//! Rows use the layout of the rest of the crate: `row[0]` is the constant and
//! `row[1 + j]` the coefficient of variable `j`, so an inequality row `r` states
//! `r·(1, x) >= 0`. Every answer is exact ([`Rational`] values).
//!
//! ```
//! use presburger::lp::{LinearProgram, LpResult, Rational};
//! use presburger::Int;
//! let row = |v: &[i64]| v.iter().map(|&c| Int::from(c)).collect::<Vec<Int>>();
//! let mut lp = LinearProgram::new(2);
//! lp.add_ineq(&row(&[-1, 2, 0])); // 2x >= 1
//! lp.add_ineq(&row(&[0, -1, 1])); // y >= x
//! // the least value of x + y is 1, at x = y = 1/2
//! match lp.minimize(&row(&[0, 1, 1])) {
//!     LpResult::Optimum { value, point } => {
//!         assert_eq!(value, Rational::new(Int::ONE, Int::ONE));
//!         assert_eq!(point[0], Rational::new(Int::ONE, Int::from(2)));
//!     }
//!     other => panic!("{other:?}"),
//! }
//! let before = lp.snapshot();
//! lp.add_ineq(&row(&[-1, -1, 0])); // x <= -1: no solution any more
//! assert!(lp.is_empty());
//! lp.rollback(before);
//! assert!(!lp.is_empty());
//! ```

use crate::int::Int;
use crate::solver::simplex::{self, Simplex};

pub use crate::solver::simplex::{LpResult, Rational};

impl Rational {
    /// The numerator (in lowest terms, with the sign of the value).
    pub fn numer(&self) -> &Int {
        &self.num
    }

    /// The denominator (positive, in lowest terms).
    pub fn denom(&self) -> &Int {
        &self.den
    }
}

/// A position in the changes made to a [`LinearProgram`], to
/// [`LinearProgram::rollback`] to. It stays valid (and may be used several
/// times) until the program is rolled back past it, to an earlier snapshot;
/// it belongs to the program that took it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot(simplex::Snapshot);

/// A conjunction of rational linear constraints over `n_var()` variables, kept
/// in a simplex tableau: constraints are added one at a time (each addition
/// updates feasibility), objectives are minimised exactly, and every change
/// since a [`Snapshot`] can be undone.
#[derive(Clone, Debug)]
pub struct LinearProgram(Simplex);

impl LinearProgram {
    /// The whole space of `n_var` free rational variables (no constraint).
    pub fn new(n_var: usize) -> LinearProgram {
        LinearProgram(Simplex::new(n_var))
    }

    /// The number of variables.
    pub fn n_var(&self) -> usize {
        self.0.n_var()
    }

    /// Appends a new free variable and returns its index; rows and objectives
    /// given afterwards have one more entry.
    pub fn add_var(&mut self) -> usize {
        self.0.add_var()
    }

    /// Adds the equality `row·(1, x) = 0`. Panics if `row.len() != 1 + n_var()`.
    pub fn add_eq(&mut self, row: &[Int]) {
        self.0.add_eq(row);
    }

    /// Adds the inequality `row·(1, x) >= 0`. Panics if
    /// `row.len() != 1 + n_var()`.
    pub fn add_ineq(&mut self, row: &[Int]) {
        self.0.add_ineq(row);
    }

    /// True when the constraints have no rational solution (kept up to date by
    /// every addition).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The current position, to [`LinearProgram::rollback`] to.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot(self.0.snapshot())
    }

    /// Undoes every constraint and variable added since `s` was taken. Panics
    /// if `s` lies beyond the current state (see [`Snapshot`]).
    pub fn rollback(&mut self, s: Snapshot) {
        self.0.rollback(s.0);
    }

    /// The minimum of `obj·(1, x)` over the constraints and a point where it is
    /// attained, or why there is none (empty, unbounded). Panics if
    /// `obj.len() != 1 + n_var()`.
    pub fn minimize(&mut self, obj: &[Int]) -> LpResult {
        self.0.minimize(obj)
    }

    /// The lexicographic minimum of the objectives `objs` (each `obj·(1, x)`):
    /// the least value of the first, then the least of the second among the
    /// points where the first is least, and so on, with a point optimal for
    /// all of them. `Unbounded` as soon as one objective is unbounded below on
    /// what the previous ones leave. Panics if an objective has the wrong
    /// length.
    pub fn lexmin(&mut self, objs: &[Vec<Int>]) -> LpResult {
        self.0.lexmin(objs)
    }

    /// [`LinearProgram::lexmin`] without undoing the equalities that fix
    /// each optimum: the program keeps them (its points are then the
    /// lexicographic optima), which spares the pivots that undo them. For a
    /// program about to be dropped, or rolled back to an earlier
    /// [`Snapshot`].
    pub fn lexmin_fixing(&mut self, objs: &[Vec<Int>]) -> LpResult {
        self.0.lexmin_fixing(objs)
    }
}
