//! An exact rational simplex tableau for repeated, incremental use.
//!
//! [`Simplex`] holds a conjunction of affine equalities and inequalities over
//! `n_var` rational variables that are unrestricted in sign, and keeps it
//! feasible as constraints are added: every `add_*` either restores a feasible
//! basis or marks the tableau empty. On top of that it answers linear programs
//! (minimise/maximise an affine function, lexicographic minimisation), gives a
//! rational sample point, decides whether an inequality is redundant, finds the
//! implicit equalities and undoes any sequence of changes through an undo log
//! ([`Simplex::snapshot`] / [`Simplex::rollback`]).
//!
//! # Representation
//!
//! The design follows the incremental tableau of isl (S. Verdoolaege, "isl: An
//! Integer Set Library for the Polyhedral Model", ICMS 2010, and the `isl_tab`
//! design it describes), which MLIR's Presburger `Simplex` also follows. The
//! code here is written from the mathematics, not from either implementation.
//!
//! * Every original variable and every constraint is a *tableau variable*; a
//!   constraint `c0 + c·x` is the variable `s = c0 + c·x`, which an inequality
//!   requires to be `>= 0` and an equality requires to be `= 0`.
//! * At any time exactly `n_var` tableau variables are *columns* (non-basic,
//!   their value at the current vertex is 0) and all others are *rows* (basic),
//!   each row being an affine function of the columns. The columns always form
//!   an affine coordinate system of the variable space (pivoting preserves
//!   this), which is what makes removal on rollback possible.
//! * Rows are fraction-free: row `i` stores integers `d, b, a_0..a_{k}` and
//!   means `(b + Σ a_j·col_j) / d` with `d > 0`; after each change a row is
//!   divided by a common factor of its entries, which keeps coefficient
//!   growth in check: the full gcd for a row that fits 128 bits or whose
//!   entries pass a size bound (`row_limbs_bound`), a factor found within the
//!   pivot row's denominator otherwise (`normalize_pivoted`). All arithmetic
//!   is [`Int`], so entries may exceed `i64` safely.
//! * The current point is "all columns at 0", so the value of row `i` is `b/d`.
//!   The tableau is *feasible* when every sign-restricted row has `b >= 0`.
//!
//! # Free variables
//!
//! Original variables are free: only constraint variables carry a sign
//! restriction. A free column may move in either direction when it enters the
//! basis, and a free row never limits a ratio test (so it never leaves the
//! basis inside a simplex run). No `x = x⁺ - x⁻` splitting is needed.
//!
//! # Equalities
//!
//! An equality `e` is added as a row, driven to the value 0 by a simplex run
//! that keeps every other constraint feasible (if 0 cannot be reached the
//! tableau is empty), then pivoted into a column and that column is *killed*:
//! a dead column is fixed at 0 forever and never chosen as a pivot column, so
//! the equality holds exactly. If the equality row has no non-zero coefficient
//! on a live column it is constant; a non-zero constant makes the tableau empty
//! (e.g. `x + y = 1` after `x + y = 2`) and a zero one is implied and is marked
//! redundant.
//!
//! # Pivoting rule and termination
//!
//! Each simplex run optimises one row (an objective, or a constraint being
//! restored or tested). It uses Dantzig's rule (enter the eligible column with
//! the largest coefficient in the objective row) as long as pivots are
//! non-degenerate, and switches for the rest of the run to Bland's rule
//! (R. G. Bland, "New finite pivoting rules for the simplex method", Math. of
//! Operations Research 2(2), 1977; V. Chvátal, *Linear Programming*, 1983,
//! ch. 3) at the first degenerate pivot: enter the eligible column whose
//! variable has the smallest index, leave by the minimum ratio with ties broken
//! by the smallest variable index (original variables first, then constraints
//! in order of addition).
//!
//! Termination: every non-degenerate pivot strictly improves the objective, so
//! no basis repeats during the Dantzig phase and it is finite. Bland's rule is
//! finite from any starting basis; its proof (Chvátal, ch. 3) goes
//! through with free variables because a free variable that enters the basis
//! never leaves it during the run (free rows are never in the ratio test), so
//! it can never be one of the "fickle" variables of a cycle. The final pivot
//! that moves a row being restored into a column ends the run.
//!
//! # Undo log
//!
//! Additions of variables and constraints, redundancy marks, column kills and
//! the empty mark are recorded in an undo log; pivots are not, because a pivot
//! only changes the basis, not the set. Rolling back removes constraints in
//! reverse order: a row is simply dropped; a column is first pivoted into a
//! row chosen by a ratio test, so that the remaining constraints stay
//! feasible. The basis after a rollback may differ from the basis before the
//! snapshot, but the set, and hence every answer (emptiness, optimal values,
//! redundancy), is the same. Undoing a redundancy mark re-imposes the
//! constraint and, if it was not really redundant and the point has moved
//! since, restores feasibility. The log grows by one small entry per change
//! for the lifetime of the tableau.
//!
//! # Panics
//!
//! Rows and objectives must have exactly `1 + n_var` entries and constraint
//! indices must be below [`Simplex::n_con`]; violating this is a caller bug
//! and panics with a message saying so, as does [`Rational::new`] with a zero
//! denominator and a rollback to a [`Snapshot`] that is visibly stale (see its
//! documentation). Nothing else panics; internal invariants are checked with
//! `debug_assert!` only.

use crate::int::{ExactDivisor, Int, gcd_all, small_common_primes, word_gcd};
use smallvec::SmallVec;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

// ---------------------------------------------------------------- Rational

/// An exact rational number `num / den`.
///
/// Values produced by this module are canonical: `den > 0` and
/// `gcd(num, den) = 1` (zero is `0/1`). Comparison, equality and hashing are by
/// value and only require `den > 0`.
#[derive(Clone)]
pub struct Rational {
    /// The numerator.
    pub(crate) num: Int,
    /// The denominator, positive.
    pub(crate) den: Int,
}

impl Rational {
    /// `num / den` in canonical form. Panics if `den` is zero.
    pub fn new(num: Int, den: Int) -> Rational {
        assert!(!den.is_zero(), "Rational::new: zero denominator");
        let (mut num, mut den) = if den.is_negative() {
            (-num, -den)
        } else {
            (num, den)
        };
        let g = num.gcd(&den);
        if !g.is_one() {
            num = num.exact_div(&g);
            den = den.exact_div(&g);
        }
        Rational { num, den }
    }

    /// The integer `v` as a rational.
    pub fn from_int(v: Int) -> Rational {
        Rational {
            num: v,
            den: Int::ONE,
        }
    }

    /// Zero.
    pub fn zero() -> Rational {
        Rational::from_int(Int::ZERO)
    }

    /// The largest integer `<= self`.
    pub fn floor(&self) -> Int {
        self.num.floor_div(&self.den)
    }

    /// The smallest integer `>= self`.
    pub fn ceil(&self) -> Int {
        self.num.ceil_div(&self.den)
    }

    /// True when the value is an integer.
    pub fn is_integer(&self) -> bool {
        self.num.is_divisible_by(&self.den)
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        self.num.signum() * self.den.signum()
    }
}

impl From<Int> for Rational {
    fn from(v: Int) -> Rational {
        Rational::from_int(v)
    }
}

impl From<i64> for Rational {
    fn from(v: i64) -> Rational {
        Rational::from_int(Int::from(v))
    }
}

impl PartialEq for Rational {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Rational {}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.den == other.den {
            return self.num.cmp(&other.num);
        }
        (&self.num * &other.den).cmp(&(&other.num * &self.den))
    }
}

impl Hash for Rational {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let c = Rational::new(self.num.clone(), self.den.clone());
        c.num.hash(state);
        c.den.hash(state);
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den.is_one() {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// ---------------------------------------------------------------- public types

/// The answer to a linear program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LpResult {
    /// The constraints have no rational solution.
    Empty,
    /// The objective is unbounded in the requested direction.
    Unbounded,
    /// The optimal value and a point where it is attained.
    Optimum {
        /// The optimal value of the objective.
        value: Rational,
        /// An optimal point, one entry per variable.
        point: Vec<Rational>,
    },
}

/// The value of a linear program without an optimal point
/// ([`Simplex::min_value`], [`Simplex::max_value`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LpValue {
    /// The constraints have no rational solution.
    Empty,
    /// The objective is unbounded in the requested direction.
    Unbounded,
    /// The optimal value.
    Optimum(Rational),
}

impl From<LpResult> for LpValue {
    fn from(r: LpResult) -> LpValue {
        match r {
            LpResult::Empty => LpValue::Empty,
            LpResult::Unbounded => LpValue::Unbounded,
            LpResult::Optimum { value, .. } => LpValue::Optimum(value),
        }
    }
}

/// A position in the undo log of a [`Simplex`], to [`Simplex::rollback`] to.
///
/// A snapshot stays valid (and may be used several times) until the tableau is
/// rolled back past it, i.e. to an earlier snapshot. Using it after that is a
/// logic error: it is a plain log length, so the misuse is caught (by a panic)
/// only while the log is still shorter than the snapshot; once more changes
/// have been logged, it silently rolls back to the wrong point. It is only
/// meaningful for the tableau that produced it (or a clone made after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot(usize);

// ---------------------------------------------------------------- internals

/// Entry 0 of a row: its positive denominator.
const DEN: usize = 0;
/// Entry 1 of a row: its constant term.
const CST: usize = 1;
/// Entry `COL0 + j` of a row: the coefficient of column `j`.
const COL0: usize = 2;

/// What a row or a column stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// Original variable `i` (free).
    Var(usize),
    /// Constraint `k`.
    Con(usize),
    /// A temporary objective row (only during one call, always the last row).
    Temp,
}

/// Where a tableau variable currently is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pos {
    Row(usize),
    Col(usize),
}

#[derive(Clone, Debug)]
struct Con {
    pos: Pos,
    is_eq: bool,
    /// Ignored from now on: its sign restriction no longer takes part.
    redundant: bool,
    /// A column fixed at 0 (an equality).
    dead: bool,
}

#[derive(Clone, Copy, Debug)]
enum Undo {
    AddVar,
    AddCon,
    MarkRedundant(usize),
    KillCol(usize),
    MarkEmpty,
}

/// When a simplex run on one row stops early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Run to the optimum (or unboundedness).
    Never,
    /// Stop once `sign * value >= 0`.
    // (only `can_saturate`, which the tests use, stops here)
    #[cfg_attr(not(test), allow(dead_code))]
    NonNeg,
    /// Stop once `sign * value > 0`.
    Positive,
    /// Restore a constraint row: stop once `sign * value >= 0`, and when the
    /// row itself is the first to reach 0 pivot it into a column (exactly 0).
    Restore,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Optimal,
    Unbounded,
    Stopped,
}

/// An exact, incremental rational simplex tableau; see the module documentation.
#[derive(Debug)]
pub struct Simplex {
    /// Row `i`: `[den, const, a_0, .., a_{n_col-1}]`.
    rows: Vec<Vec<Int>>,
    /// Empty row buffers (of removed rows), for the next rows: see
    /// [`Shell`]. Not part of the tableau's state.
    spare: Vec<Vec<Int>>,
    row_owner: Vec<Owner>,
    col_owner: Vec<Owner>,
    vars: Vec<Pos>,
    cons: Vec<Con>,
    empty: bool,
    undo: Vec<Undo>,
    n_pivots: u64,
    /// The (row, column) of the last pivot.
    last_pivot: (usize, usize),
    /// The work of the pivots so far, in budget steps (see [`Simplex::work`]).
    work: u64,
    /// The most limbs of an entry of any constraint added so far.
    input_limbs: usize,
    /// A bound on the limbs of an entry of a fully normalised row, from
    /// `input_limbs` ([`row_limbs_bound`]); a pivoted row beyond it carries a
    /// common factor and gets the full gcd.
    row_limit: usize,
}

impl Clone for Simplex {
    fn clone(&self) -> Simplex {
        Simplex {
            rows: self.rows.clone(),
            spare: Vec::new(),
            row_owner: self.row_owner.clone(),
            col_owner: self.col_owner.clone(),
            vars: self.vars.clone(),
            cons: self.cons.clone(),
            empty: self.empty,
            undo: self.undo.clone(),
            n_pivots: self.n_pivots,
            last_pivot: self.last_pivot,
            work: self.work,
            input_limbs: self.input_limbs,
            row_limit: self.row_limit,
        }
    }
}

/// The vectors of a dropped tableau, empty with their capacity, kept on its
/// thread for the next tableau ([`Simplex::with_capacity`]), its row
/// buffers in `spare`. Coalescing builds and drops a tableau per disjunct,
/// per candidate and per integer test, each with a dozen rows: their
/// allocations and frees were a sixth of the instructions on the random
/// unions of `isl_coalesce_tables`, glibc's free list of each size holding
/// fewer blocks than a tableau frees at once.
///
/// Invariant: every vector is empty, and every buffer in `spare` too.
#[derive(Default)]
struct Shell {
    rows: Vec<Vec<Int>>,
    spare: Vec<Vec<Int>>,
    row_owner: Vec<Owner>,
    col_owner: Vec<Owner>,
    vars: Vec<Pos>,
    cons: Vec<Con>,
    undo: Vec<Undo>,
}

/// Most shells kept per thread (tableaux alive at once in coalescing: the
/// two disjuncts', a candidate's, an integer test's, the wrapping one's).
const SHELLS: usize = 8;

/// Most row buffers a shell keeps, and the largest buffer kept (in
/// entries): a large tableau's memory is not held after it is dropped.
const SPARE_ROWS: usize = 64;
const SPARE_ROW_LEN: usize = 64;

/// Empties `row` into `spare` for a later row, within [`SPARE_ROWS`] and
/// [`SPARE_ROW_LEN`] (else it is dropped).
fn keep_row(spare: &mut Vec<Vec<Int>>, mut row: Vec<Int>) {
    if spare.len() < SPARE_ROWS && row.capacity() <= SPARE_ROW_LEN {
        row.clear();
        spare.push(row);
    }
}

std::thread_local! {
    static KEPT: std::cell::RefCell<Vec<Shell>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Shell {
    /// A kept shell, or a new one.
    fn take() -> Shell {
        KEPT.try_with(|k| k.try_borrow_mut().ok().and_then(|mut k| k.pop()))
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Keeps the vectors of `s` (emptied) for a later tableau, unless
    /// [`SHELLS`] are kept already.
    fn keep(s: &mut Simplex) {
        let mut shell = Shell {
            rows: std::mem::take(&mut s.rows),
            spare: std::mem::take(&mut s.spare),
            row_owner: std::mem::take(&mut s.row_owner),
            col_owner: std::mem::take(&mut s.col_owner),
            vars: std::mem::take(&mut s.vars),
            cons: std::mem::take(&mut s.cons),
            undo: std::mem::take(&mut s.undo),
        };
        for row in shell.rows.drain(..) {
            keep_row(&mut shell.spare, row);
        }
        shell.row_owner.clear();
        shell.col_owner.clear();
        shell.vars.clear();
        shell.cons.clear();
        shell.undo.clear();
        shell.check_invariants();
        // (a thread being torn down keeps nothing)
        let _ = KEPT.try_with(|k| {
            if let Ok(mut k) = k.try_borrow_mut() {
                if k.len() < SHELLS {
                    k.push(shell);
                }
            }
        });
    }

    fn check_invariants(&self) {
        debug_assert!(
            self.rows.is_empty()
                && self.row_owner.is_empty()
                && self.col_owner.is_empty()
                && self.vars.is_empty()
                && self.cons.is_empty()
                && self.undo.is_empty()
                && self.spare.iter().all(Vec::is_empty),
            "a kept tableau shell that is not empty"
        );
    }
}

impl Drop for Simplex {
    fn drop(&mut self) {
        Shell::keep(self);
    }
}

/// The non-zero entries of a pivot row of small values, with their columns.
type SmallEntries = SmallVec<[(usize, i64); 16]>;

/// The update of one row of small entries by a pivot (see
/// [`Simplex::pivot`]): `row[k] = |p|·row[k] + m·prow[k]` at every column but
/// the pivot's, with `m = ∓a_ic` (the sign opposite to the pivot's), the
/// denominator times `|p|`, and `row[cc] = ±a_ic·d_r`. `nz` lists the pivot
/// row's non-zero entries besides the pivot: with `|p| = 1` only those
/// change. Each entry is computed in `i128` (a product of two `i64` fits;
/// the sum of two such products overflows only at `i64::MIN²`, which takes
/// the general path). Returns how many entries left the small form, and
/// whether every entry is known to fit an `i128` (as [`normalize`] wants).
fn update_small_row(
    row: &mut [Int],
    cc: usize,
    ap: i64,
    nz: &[(usize, i64)],
    a_ic: i64,
    neg: bool,
    d_r: &Int,
) -> (u64, bool) {
    // |m| <= 2^63, so m·y and x·ap each fit an i128
    let m: i128 = if neg { a_ic as i128 } else { -(a_ic as i128) };
    let mut wide = d_r.is_small();
    let mut combine = |x: i64, y: i64| -> Int {
        match (x as i128 * ap as i128).checked_add(m * y as i128) {
            Some(v) => Int::from_wide(v),
            None => {
                wide = false;
                Int::from(x).mul_add_mul(&Int::from(ap), &Int::from_wide(m), &Int::from(y))
            }
        }
    };
    let mut big = 0u64;
    if ap == 1 {
        for &(k, y) in nz {
            let x = row[k].small().unwrap_or(0);
            row[k] = combine(x, y);
            big += u64::from(!row[k].is_small());
        }
    } else {
        let mut ys = nz.iter().peekable();
        for (k, entry) in row.iter_mut().enumerate().skip(CST) {
            let y = match ys.peek() {
                Some(&&(j, y)) if j == k => {
                    ys.next();
                    y
                }
                _ => 0,
            };
            let x = entry.small().unwrap_or(0);
            if k == cc || (x == 0 && y == 0) {
                continue;
            }
            *entry = combine(x, y);
            big += u64::from(!entry.is_small());
        }
        row[DEN] *= &Int::from(ap);
    }
    let t = Int::from(a_ic) * d_r;
    row[cc] = if neg { -t } else { t };
    (big, wide)
}

/// A bound, in 64-bit limbs, on the entries of a fully normalised row of a
/// tableau over `n_var` variables whose constraints have entries of at most
/// `input_limbs` limbs. The entries of such a row are, up to a common
/// factor, minors of the constraint matrix with its constant column
/// (Cramer's rule on the current basis), of order at most `n + 1`; by
/// Hadamard's inequality a minor of order `m` with entries below `2^b` is
/// below `m^(m/2)·2^(b·m)`. The partial normalisation of big rows
/// ([`normalize_pivoted`]) can leave a factor outside the pivot row's
/// denominator, and such factors compound from pivot to pivot, so that
/// after many pivots a row can be many times longer than the bound. The
/// bound returned is a quarter of Hadamard's: Hadamard's is far from tight
/// on these rows, so a row that carries a factor is caught sooner, and a row
/// past it is divided by its full gcd (exact either way; a normalised row
/// above it only pays for the gcd).
fn row_limbs_bound(n_var: usize, input_limbs: usize) -> usize {
    let m = n_var + 1;
    let log_m = usize::BITS - m.leading_zeros(); // >= log2(m)
    let bits = m * (64 * input_limbs.max(1) + (log_m as usize).div_ceil(2));
    bits / (4 * 64) + 2
}

/// Divides a row by the gcd of all its entries (the denominator included).
fn normalize(row: &mut [Int]) {
    divide_row(row, &gcd_all(row.iter()));
}

/// A pivot's update of a row with big entries, normalised as
/// [`normalize_pivoted`] does, with each entry's update and its division by
/// the pivot row's denominator `d_r` (> 0, prepared as `div`) done in one step
/// ([`ExactDivisor::divide_mul_add_mul_assign`]): the undivided entry, twice the
/// size, is never stored. Entries are taken in index order, as
/// [`finish_pivoted`] expects; at the first one `d_r` does not divide, the
/// rest of the row is updated undivided and [`finish_pivoted`] takes over.
/// Returns the number of big entries left (for the work count).
fn update_big_row(
    row: &mut [Int],
    prow: &[Int],
    cc: usize,
    abs_p: &Int,
    neg: bool,
    d_r: &Int,
    div: &ExactDivisor,
) -> u64 {
    debug_assert!(d_r.is_positive());
    let a_ic = std::mem::take(&mut row[cc]);
    let m = if neg { a_ic.clone() } else { -&a_ic };
    let mut failed = None;
    let den = std::mem::take(&mut row[DEN]) * abs_p;
    row[DEN] = match div.divide(&den) {
        Some(q) => q,
        None => {
            failed = Some(DEN);
            den
        }
    };
    for k in CST..row.len() {
        if k != cc && failed.is_none() {
            if !div.divide_mul_add_mul_assign(&mut row[k], abs_p, &m, &prow[k]) {
                failed = Some(k);
            }
            continue;
        }
        let (x, y) = (&row[k], &prow[k]);
        row[k] = if k == cc {
            // a_ic·d_r, divided by d_r when the entries before were
            let t = if failed.is_none() {
                a_ic.clone()
            } else {
                &a_ic * d_r
            };
            if neg { -t } else { t }
        } else {
            x.mul_add_mul(abs_p, &m, y)
        };
    }
    let big = row.iter().filter(|v| !v.is_small()).count() as u64;
    match failed {
        Some(done) => {
            let g = shrink_factor(row, d_r, done);
            finish_pivoted(row, g, done);
        }
        None => finish_pivoted(row, Int::ONE, row.len()),
    }
    big
}

/// Divides a row that a pivot has just updated by a common factor of its
/// entries, most often their gcd. A row that fits 128 bits gets the full gcd
/// ([`normalize`]; on such rows the factor is not always within `d_r`, and
/// rows left with a large factor grow). A row with bigger entries would pay for a gcd of two big numbers
/// (a long Euclid run, as long as the numbers when they are coprime), so
/// instead: the update multiplies the row by the pivot and adds a multiple of
/// the pivot row, and, as in fraction-free (Bareiss) elimination, a large
/// divisor of the pivot row's denominator `d_r` then divides the whole row
/// (measured on 700-bit tableaux: that divisor is the bulk of the row's gcd
/// whenever the gcd is big). So the common factor is sought within `d_r`:
/// each entry is divided exactly by the current factor (an [`ExactDivisor`],
/// prepared once: division from the low end, no trial quotients), and only an
/// entry it does not divide costs a gcd, which shrinks the factor. The primes
/// below 50 that still divide every entry are removed after
/// ([`small_common_primes`]). What is left undivided lies outside `d_r`: often
/// nothing, but on some tableaux (a recession cone of 70-bit rows) a large
/// factor of `gcd(p, a_ic)` or of the row's old denominator stays (measured up
/// to 1000 bits); dividing it out costs a gcd of two big numbers per row, which
/// measured slower overall than carrying it.
fn normalize_pivoted(row: &mut [Int], d_r: &Int) {
    if row.iter().all(|v| v.wide().is_some()) {
        normalize(row);
        return;
    }
    finish_pivoted(row, d_r.abs(), 0);
}

/// The rest of [`normalize_pivoted`] once the entries before `done` have
/// been divided by `f` and the others not yet.
fn finish_pivoted(row: &mut [Int], mut f: Int, mut done: usize) {
    // one division per entry: the quotients by `f` are kept, and when `f`
    // shrinks to a divisor `f'`, those already taken are multiplied by `f / f'`
    // (the loop ends with every entry divided, or with f = 1)
    let mut div: Option<ExactDivisor> = None;
    while done < row.len() && !f.is_one() {
        if row[done].is_zero() {
            done += 1;
            continue;
        }
        let d = div.get_or_insert_with(|| ExactDivisor::new(&f));
        if let Some(q) = d.divide(&row[done]) {
            row[done] = q;
            done += 1;
            continue;
        }
        f = shrink_factor(row, &f, done);
        div = None;
    }
    if row.iter().all(|v| v.wide().is_some()) {
        normalize(row);
        return;
    }
    loop {
        let g = small_common_primes(row.iter());
        if g == 1 {
            break;
        }
        for v in row.iter_mut() {
            v.div_exact_word_assign(g);
        }
    }
}

/// The common factor `f` of a row's first `done` entries (already divided
/// by it) shrunk to `g = gcd(f, row[done])`: those entries are multiplied by
/// `f / g`, so that they are the row divided by `g`. Returns `g`.
fn shrink_factor(row: &mut [Int], f: &Int, done: usize) -> Int {
    let g = f.gcd(&row[done]);
    let up = f.exact_div(&g);
    for v in &mut row[..done] {
        if !v.is_zero() {
            *v *= &up;
        }
    }
    g
}

/// Divides every entry of a row by `f`, a common divisor (nothing for 0 and 1).
fn divide_row(row: &mut [Int], f: &Int) {
    if !f.is_one() && !f.is_zero() {
        for v in row.iter_mut() {
            if !v.is_zero() {
                *v = v.exact_div(f);
            }
        }
    }
}

/// Compares `|a|` and `|b|`.
fn cmp_abs(a: &Int, b: &Int) -> Ordering {
    a.abs().cmp(&b.abs())
}

/// Compares the ratios `b1 / |a1|` and `b2 / |a2|` (`a1`, `a2` non-zero).
fn cmp_ratio(b1: &Int, a1: &Int, b2: &Int, a2: &Int) -> Ordering {
    (b1 * a2.abs()).cmp(&(b2 * a1.abs()))
}

impl Simplex {
    /// A tableau over `n_var` free variables and no constraints (the whole space).
    pub fn new(n_var: usize) -> Simplex {
        Simplex::with_capacity(n_var, 8)
    }

    /// [`Simplex::new`] with room for `n_con` constraints (and a few
    /// temporary rows) before any of its vectors grows: a tableau built
    /// from a conjunction of known size allocates each vector once (growing
    /// them row by row cost 3.7% of the instructions of coalescing the
    /// random unions of `isl_coalesce_tables`).
    /// The vectors (and row buffers) of a tableau dropped earlier on the
    /// thread are used again when there is one ([`Shell`]).
    pub fn with_capacity(n_var: usize, n_con: usize) -> Simplex {
        let rows = n_con + 2;
        let mut shell = Shell::take();
        shell.check_invariants();
        shell.rows.reserve(rows);
        shell.row_owner.reserve(rows);
        shell.col_owner.extend((0..n_var).map(Owner::Var));
        shell.vars.extend((0..n_var).map(Pos::Col));
        shell.cons.reserve(n_con);
        shell.undo.reserve(2 * rows);
        Simplex {
            rows: shell.rows,
            spare: shell.spare,
            row_owner: shell.row_owner,
            col_owner: shell.col_owner,
            vars: shell.vars,
            cons: shell.cons,
            empty: false,
            undo: shell.undo,
            n_pivots: 0,
            last_pivot: (0, 0),
            work: 0,
            input_limbs: 0,
            row_limit: row_limbs_bound(n_var, 0),
        }
    }

    /// The number of variables.
    pub fn n_var(&self) -> usize {
        self.vars.len()
    }

    /// The number of constraints added so far (equalities and inequalities share
    /// one index sequence: an equality also takes the next index).
    pub fn n_con(&self) -> usize {
        self.cons.len()
    }

    /// The work done by the pivots so far, in budget steps: one per pivot, one
    /// per 32 entries updated, and one per entry that is a big integer after
    /// the update (a pivot on rows of 400-bit numbers costs a thousand times
    /// one on machine words, and the budget should see that).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Number of pivots performed since creation (statistics only).
    #[cfg(test)]
    pub fn pivots(&self) -> u64 {
        self.n_pivots
    }

    /// True when constraint `con` has been marked redundant (by
    /// [`Simplex::mark_redundant`], or an equality found implied when added).
    /// Panics if `con >= n_con()`.
    #[cfg(test)]
    pub fn is_marked_redundant(&self, con: usize) -> bool {
        self.check_con(con);
        self.cons[con].redundant
    }

    /// Appends a new free variable (a column) and returns its index. Existing
    /// rows and objectives must then have one more entry.
    pub fn add_var(&mut self) -> usize {
        let x = self.vars.len();
        let j = self.col_owner.len();
        for row in &mut self.rows {
            row.push(Int::ZERO);
        }
        self.col_owner.push(Owner::Var(x));
        self.vars.push(Pos::Col(j));
        self.undo.push(Undo::AddVar);
        x
    }

    /// Adds the equality `row·(1,x) = 0`; it takes constraint index
    /// `n_con()` (before the call). Panics if `row.len() != 1 + n_var()`.
    pub fn add_eq(&mut self, row: &[Int]) {
        self.add_con(row, true);
    }

    /// Adds the inequality `row·(1,x) >= 0` and returns its constraint index.
    /// Panics if `row.len() != 1 + n_var()`.
    pub fn add_ineq(&mut self, row: &[Int]) -> usize {
        self.add_con(row, false)
    }

    /// True when the constraints have no rational solution. Kept up to date by
    /// every addition, so this is a field read.
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// The current position in the undo log.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot(self.undo.len())
    }

    /// Undoes every `add_var`, `add_eq`, `add_ineq`, `mark_redundant` and
    /// emptiness change made since `s` was taken, newest first (internal
    /// changes made by `lexmin` are undone by `lexmin` itself). Pivots are not
    /// undone: the basis may differ afterwards, the set and all answers about it
    /// do not. Cost: one row removal per constraint, plus one pivot for each
    /// removed constraint that is non-basic. Panics if `s` lies beyond the
    /// current log (see [`Snapshot`]).
    pub fn rollback(&mut self, s: Snapshot) {
        assert!(
            s.0 <= self.undo.len(),
            "Simplex::rollback: snapshot is no longer valid (taken after an earlier rollback point)"
        );
        while self.undo.len() > s.0 {
            if let Some(u) = self.undo.pop() {
                self.undo_one(u);
            }
        }
    }

    /// Minimises `obj·(1,x)` (`obj[0]` is the constant). Panics if
    /// `obj.len() != 1 + n_var()`.
    pub fn minimize(&mut self, obj: &[Int]) -> LpResult {
        self.optimize(obj, -1)
    }

    /// Maximises `obj·(1,x)` (`obj[0]` is the constant). Panics if
    /// `obj.len() != 1 + n_var()`.
    pub fn maximize(&mut self, obj: &[Int]) -> LpResult {
        self.optimize(obj, 1)
    }

    /// Lexicographic minimisation: minimises `objs[0]`, then `objs[1]` over the
    /// optimal face of `objs[0]`, and so on. The value is the optimum of the last
    /// objective and the point is optimal for all of them. `Unbounded` as soon
    /// as one objective is unbounded below on the face left by the previous
    /// ones. With no objective the answer is value 0 and the sample point.
    ///
    /// Implemented by fixing each optimum with a temporary equality, removed by
    /// rollback before returning. Panics if an objective has the wrong length.
    pub fn lexmin(&mut self, objs: &[Vec<Int>]) -> LpResult {
        let snap = self.snapshot();
        let result = self.lexmin_fixing(objs);
        self.rollback(snap);
        result
    }

    /// [`Simplex::lexmin`] leaving the equalities that fix the optima in the
    /// tableau (for a caller that rolls back to an earlier snapshot or drops
    /// the tableau: the undoing pivots are not made).
    pub fn lexmin_fixing(&mut self, objs: &[Vec<Int>]) -> LpResult {
        if self.empty {
            return LpResult::Empty;
        }
        let mut result = LpResult::Optimum {
            value: Rational::zero(),
            point: self.sample_point().unwrap_or_default(),
        };
        for (i, obj) in objs.iter().enumerate() {
            result = self.minimize(obj);
            let LpResult::Optimum { value, .. } = &result else {
                break;
            };
            if i + 1 < objs.len() {
                // obj·(1,x) = num/den  <=>  den·obj·(1,x) - num = 0
                let mut eq: Vec<Int> = obj.iter().map(|c| c * &value.den).collect();
                eq[0] -= &value.num;
                self.add_eq(&eq);
            }
        }
        result
    }

    /// A rational point satisfying every constraint (the current vertex), or
    /// `None` when the tableau is empty.
    pub fn sample_point(&self) -> Option<Vec<Rational>> {
        if self.empty {
            return None;
        }
        Some(
            self.vars
                .iter()
                .map(|p| match *p {
                    Pos::Col(_) => Rational::zero(),
                    Pos::Row(r) => self.row_value(r),
                })
                .collect(),
        )
    }

    /// The current point when it is integral (every variable's value an
    /// integer), else `None` (also for an empty tableau): [`Simplex::sample_point`]
    /// without building a rational per variable (after an LP, whether the
    /// optimum it reached is an integer point).
    pub(crate) fn integer_sample_point(&self) -> Option<Vec<Int>> {
        if self.empty {
            return None;
        }
        self.vars
            .iter()
            .map(|p| match *p {
                Pos::Col(_) => Some(Int::ZERO),
                Pos::Row(r) => {
                    let (den, cst) = (&self.rows[r][DEN], &self.rows[r][CST]);
                    if den.is_one() {
                        Some(cst.clone())
                    } else if cst.is_divisible_by(den) {
                        Some(cst.exact_div(den))
                    } else {
                        None
                    }
                }
            })
            .collect()
    }

    /// True when inequality `con` is implied (over the rationals) by the other
    /// constraints that are not marked redundant, i.e. its minimum subject to
    /// them is `>= 0`. Also true for an empty tableau (vacuously) and for a
    /// constraint already marked redundant.
    ///
    /// For an equality this is conservative: true only if the equality was
    /// found to be implied by the earlier equalities when it was added (it then
    /// carries a redundancy mark); an equality implied by inequalities reports
    /// false. May pivot. Panics if `con >= n_con()`.
    pub fn is_redundant(&mut self, con: usize) -> bool {
        self.check_con(con);
        if self.empty || self.cons[con].redundant {
            return true;
        }
        if self.cons[con].is_eq {
            return false;
        }
        if let Pos::Col(j) = self.cons[con].pos {
            // Can the column be decreased below 0 without breaking the others?
            match self.ratio_test(j, -1, None) {
                None => return false,
                Some(i) if self.rows[i][CST].is_positive() => return false,
                Some(i) => self.pivot(i, j),
            }
        }
        let Pos::Row(r) = self.cons[con].pos else {
            return false;
        };
        let pivots = self.n_pivots;
        let outcome = self.optimize_row(r, -1, Stop::Positive);
        if outcome == Outcome::Optimal {
            return true;
        }
        if outcome == Outcome::Stopped && self.n_pivots > pivots {
            // The last pivot made row `r` negative, from a basis where every
            // restricted row, `r` too, was non-negative: pivoting back on the
            // same entry returns to that basis in one step (as isl's
            // `sign_of_min`), where a restoring run could take several.
            let (i, j) = self.last_pivot;
            self.pivot(i, j);
            debug_assert!(
                matches!(self.cons[con].pos, Pos::Row(r) if !self.rows[r][CST].is_negative()),
                "pivoting back left the constraint negative"
            );
        } else {
            let ok = self.restore_con(con);
            debug_assert!(ok, "restoring a constraint that was feasible before");
        }
        false
    }

    /// Marks inequality `con` redundant: from now on its sign restriction is
    /// ignored, which is sound when [`Simplex::is_redundant`] said so (marking a
    /// constraint that is not redundant drops it from the set). Recorded in the
    /// undo log. For an equality this is a no-op: equalities stay enforced,
    /// which does not change the set when the equality is truly redundant.
    /// Panics if `con >= n_con()`.
    pub fn mark_redundant(&mut self, con: usize) {
        self.check_con(con);
        let c = &mut self.cons[con];
        if c.redundant || c.is_eq {
            return;
        }
        c.redundant = true;
        self.undo.push(Undo::MarkRedundant(con));
    }

    /// The inequalities (not marked redundant) that hold with equality at every
    /// rational point of the set, in increasing index order. For an empty
    /// tableau every such inequality qualifies (vacuously). Equalities are not
    /// listed. May pivot; does not change the set.
    ///
    /// Idea: a constraint that is positive at some feasible point is not an
    /// implicit equality; each vertex visited reveals many such constraints at
    /// once. Every remaining candidate is maximised (stopping as soon as it
    /// becomes positive); a maximum of 0 makes it an implicit equality.
    pub fn detect_implicit_equalities(&mut self) -> Vec<usize> {
        let n = self.cons.len();
        let candidate = |c: &Con| !c.is_eq && !c.redundant;
        if self.empty {
            return (0..n).filter(|&k| candidate(&self.cons[k])).collect();
        }
        let mut positive = vec![false; n];
        self.note_positive(&mut positive);
        let mut found = Vec::new();
        for k in 0..n {
            if positive[k] || !candidate(&self.cons[k]) {
                continue;
            }
            if let Pos::Col(j) = self.cons[k].pos {
                // Try to increase the column from 0.
                match self.ratio_test(j, 1, None) {
                    None => {
                        positive[k] = true;
                        continue;
                    }
                    Some(i) => self.pivot(i, j),
                }
            }
            let Pos::Row(r) = self.cons[k].pos else {
                continue;
            };
            if self.optimize_row(r, 1, Stop::Positive) == Outcome::Optimal {
                found.push(k);
            } else {
                positive[k] = true;
            }
            self.note_positive(&mut positive);
        }
        found
    }

    /// True when some feasible rational point makes `row·(1,x) = 0`. Works for
    /// any affine function: no sign of `row` over the set is assumed (it is
    /// "min <= 0 <= max" over the convex set). False for an empty tableau. May
    /// pivot. Panics if `row.len() != 1 + n_var()`.
    #[cfg(test)]
    pub fn can_saturate(&mut self, row: &[Int]) -> bool {
        let built = self.express(row);
        if self.empty {
            return false;
        }
        let r = self.push_temp(built);
        let s = self.rows[r][CST].signum();
        let res = s == 0 || self.optimize_row(r, -s, Stop::NonNeg) != Outcome::Optimal;
        self.pop_temp();
        res
    }

    // ------------------------------------------------------------ internals

    fn check_con(&self, con: usize) {
        assert!(
            con < self.cons.len(),
            "Simplex: constraint index {con} out of range ({} constraints)",
            self.cons.len()
        );
    }

    fn row_value(&self, r: usize) -> Rational {
        Rational::new(self.rows[r][CST].clone(), self.rows[r][DEN].clone())
    }

    /// True for a tableau variable whose sign restriction takes part in pivoting.
    fn is_restricted(&self, o: Owner) -> bool {
        match o {
            Owner::Con(k) => !self.cons[k].redundant,
            Owner::Var(_) | Owner::Temp => false,
        }
    }

    fn is_dead(&self, o: Owner) -> bool {
        matches!(o, Owner::Con(k) if self.cons[k].dead)
    }

    /// The index used by Bland's rule: variables first, then constraints.
    fn key(&self, o: Owner) -> usize {
        match o {
            Owner::Var(i) => i,
            Owner::Con(k) => self.vars.len() + k,
            Owner::Temp => usize::MAX,
        }
    }

    fn set_pos(&mut self, o: Owner, p: Pos) {
        match o {
            Owner::Var(i) => self.vars[i] = p,
            Owner::Con(k) => self.cons[k].pos = p,
            Owner::Temp => {}
        }
    }

    /// Expresses `coeffs·(1,x)` in terms of the current columns, as a
    /// normalised row. Panics on a wrong length.
    ///
    /// The idea: each variable that is a column adds its coefficient there;
    /// each basic one adds its row, brought to a common denominator (their
    /// least common multiple). On machine words first
    /// ([`Simplex::express_small`]), on `Int`s when a value leaves them.
    ///
    /// The row is written in a spare buffer when there is one ([`Shell`]).
    fn express(&mut self, coeffs: &[Int]) -> Vec<Int> {
        assert!(
            coeffs.len() == 1 + self.vars.len(),
            "Simplex: a row must have 1 + n_var = {} entries, got {}",
            1 + self.vars.len(),
            coeffs.len()
        );
        let mut out = self.spare.pop().unwrap_or_default();
        debug_assert!(out.is_empty());
        if self.express_small(coeffs, &mut out) {
            debug_assert!(
                out == {
                    let mut general = Vec::new();
                    self.express_general(coeffs, &mut general);
                    general
                }
            );
        } else {
            self.express_general(coeffs, &mut out);
        }
        out
    }

    /// Keeps the buffer of a removed row for a later one (see [`Shell`]).
    fn recycle(&mut self, row: Vec<Int>) {
        keep_row(&mut self.spare, row);
    }

    /// [`Simplex::express`] in machine words, when every coefficient, every
    /// entry of the rows it uses and every value on the way fits one;
    /// false as soon as one does not (checked operations), with `out` left
    /// empty. The row is the same: both are the primitive integer row with a
    /// positive denominator, written to `out` (empty).
    fn express_small(&self, coeffs: &[Int], out: &mut Vec<Int>) -> bool {
        // (on the stack for the usual tableau: a `SmallVec` returned by value
        // and extended into `out` element by element cost 2% of the
        // instructions of coalescing the random unions)
        const STACK: usize = 32;
        let len = COL0 + self.col_owner.len();
        let mut stack = [0i64; STACK];
        let mut heap = Vec::new();
        let words = if len <= STACK {
            &mut stack[..len]
        } else {
            heap.resize(len, 0);
            &mut heap[..]
        };
        if self.express_words(coeffs, words).is_none() {
            return false;
        }
        out.extend(words.iter().map(|&w| Int::from(w)));
        true
    }

    /// The row of [`Simplex::express_small`] in machine words, in `out`
    /// (zeros, one per entry of a row).
    fn express_words(&self, coeffs: &[Int], out: &mut [i64]) -> Option<()> {
        debug_assert!(out.len() == COL0 + self.col_owner.len() && out.iter().all(|&w| w == 0));
        out[DEN] = 1;
        out[CST] = coeffs[0].small()?;
        for (x, c) in coeffs[1..].iter().enumerate() {
            let c = c.small()?;
            if c == 0 {
                continue;
            }
            match self.vars[x] {
                Pos::Col(j) => {
                    out[COL0 + j] = out[COL0 + j].checked_add(c.checked_mul(out[DEN])?)?;
                }
                Pos::Row(r) => {
                    let row = &self.rows[r];
                    let d = row[DEN].small()?;
                    // the common denominator lcm(den, d) = den · (d / g)
                    let g = word_gcd(out[DEN].unsigned_abs(), d.unsigned_abs()) as i64;
                    let (f_out, f_row) = (d / g, (out[DEN] / g).checked_mul(c)?);
                    if f_out != 1 {
                        for v in out.iter_mut() {
                            *v = v.checked_mul(f_out)?;
                        }
                    }
                    for (v, a) in out[CST..].iter_mut().zip(&row[CST..]) {
                        let a = a.small()?;
                        if a != 0 {
                            *v = v.checked_add(f_row.checked_mul(a)?)?;
                        }
                    }
                }
            }
        }
        let mut g = 0u64;
        for v in out.iter() {
            g = word_gcd(g, v.unsigned_abs());
            if g == 1 {
                break;
            }
        }
        // (g divides the denominator, positive, so it fits)
        let g = i64::try_from(g).ok()?;
        if g > 1 {
            for v in out.iter_mut() {
                *v /= g;
            }
        }
        Some(())
    }

    /// [`Simplex::express`] on `Int`s, written to `out` (empty).
    fn express_general(&self, coeffs: &[Int], out: &mut Vec<Int>) {
        debug_assert!(out.is_empty());
        let ncol = self.col_owner.len();
        out.reserve(COL0 + ncol);
        out.push(Int::ONE);
        out.push(coeffs[0].clone());
        out.resize(COL0 + ncol, Int::ZERO);
        for (x, c) in coeffs[1..].iter().enumerate() {
            if c.is_zero() {
                continue;
            }
            match self.vars[x] {
                Pos::Col(j) => {
                    let t = c * &out[DEN];
                    out[COL0 + j] += t;
                }
                Pos::Row(r) => {
                    let row = &self.rows[r];
                    let l = out[DEN].lcm(&row[DEN]);
                    let f_out = l.exact_div(&out[DEN]);
                    let f_row = l.exact_div(&row[DEN]) * c;
                    if !f_out.is_one() {
                        for v in &mut out[CST..] {
                            *v *= &f_out;
                        }
                    }
                    out[DEN] = l;
                    for (v, a) in out[CST..].iter_mut().zip(&row[CST..]) {
                        if !a.is_zero() {
                            *v += &f_row * a;
                        }
                    }
                }
            }
        }
        normalize(out);
    }

    fn push_temp(&mut self, row: Vec<Int>) -> usize {
        self.rows.push(row);
        self.row_owner.push(Owner::Temp);
        self.rows.len() - 1
    }

    fn pop_temp(&mut self) {
        debug_assert_eq!(self.row_owner.last(), Some(&Owner::Temp));
        if let Some(row) = self.rows.pop() {
            self.recycle(row);
        }
        self.row_owner.pop();
    }

    fn optimize(&mut self, obj: &[Int], sign: i32) -> LpResult {
        self.optimize_with_duals(obj, sign, &[]).0
    }

    /// The minimum of `obj·(1,x)` without an optimal point (which costs a
    /// rational per variable to write out): for the many callers that only
    /// want the value (ranges of directions, widths, the set algebra's cuts).
    pub(crate) fn min_value(&mut self, obj: &[Int]) -> LpValue {
        LpValue::from(self.run_lp(obj, -1, &[], false).0)
    }

    /// The maximum of `obj·(1,x)` without an optimal point (see
    /// [`Simplex::min_value`]).
    pub(crate) fn max_value(&mut self, obj: &[Int]) -> LpValue {
        LpValue::from(self.run_lp(obj, 1, &[], false).0)
    }

    /// [`Simplex::maximize_with_duals`] without an optimal point.
    pub(crate) fn max_value_with_duals(
        &mut self,
        obj: &[Int],
        eqs: &[usize],
    ) -> (LpValue, Vec<Rational>) {
        for &k in eqs {
            self.check_con(k);
        }
        let (r, duals) = self.run_lp(obj, 1, eqs, false);
        (LpValue::from(r), duals)
    }

    /// Optimises `obj` in direction `sign`; at an optimum also the coefficient of
    /// each equality of `eqs` (its dead column) in the final objective row, 0 for
    /// one that is not a column (see [`Simplex::maximize_with_duals`]).
    fn optimize_with_duals(
        &mut self,
        obj: &[Int],
        sign: i32,
        eqs: &[usize],
    ) -> (LpResult, Vec<Rational>) {
        self.run_lp(obj, sign, eqs, true)
    }

    /// The linear program of [`Simplex::optimize_with_duals`]; the optimal
    /// point is written out only when `want_point` (else it is left empty:
    /// crate-internal callers that pass false read only the value, through
    /// [`LpValue`]).
    fn run_lp(
        &mut self,
        obj: &[Int],
        sign: i32,
        eqs: &[usize],
        want_point: bool,
    ) -> (LpResult, Vec<Rational>) {
        let built = self.express(obj);
        if self.empty {
            return (LpResult::Empty, Vec::new());
        }
        let r = self.push_temp(built);
        let res = match self.optimize_row(r, sign, Stop::Never) {
            Outcome::Optimal => {
                let duals = eqs
                    .iter()
                    .map(|&k| match self.cons[k].pos {
                        Pos::Col(j) => {
                            Rational::new(self.rows[r][COL0 + j].clone(), self.rows[r][DEN].clone())
                        }
                        Pos::Row(_) => Rational::zero(),
                    })
                    .collect();
                let value = self.row_value(r);
                let point = if want_point {
                    self.sample_point().unwrap_or_default()
                } else {
                    Vec::new()
                };
                (LpResult::Optimum { value, point }, duals)
            }
            Outcome::Unbounded | Outcome::Stopped => (LpResult::Unbounded, Vec::new()),
        };
        self.pop_temp();
        res
    }

    fn add_con(&mut self, coeffs: &[Int], is_eq: bool) -> usize {
        let limbs = coeffs.iter().map(Int::limbs).max().unwrap_or(0);
        if limbs > self.input_limbs {
            self.input_limbs = limbs;
            self.row_limit = row_limbs_bound(self.n_var(), limbs);
        }
        let row = self.express(coeffs);
        let k = self.cons.len();
        self.rows.push(row);
        self.row_owner.push(Owner::Con(k));
        self.cons.push(Con {
            pos: Pos::Row(self.rows.len() - 1),
            is_eq,
            redundant: false,
            dead: false,
        });
        self.undo.push(Undo::AddCon);
        if self.empty {
            return k;
        }
        if is_eq {
            self.settle_eq(k);
        } else if !self.restore_con(k) {
            self.set_empty();
        }
        k
    }

    fn set_empty(&mut self) {
        if !self.empty {
            self.empty = true;
            self.undo.push(Undo::MarkEmpty);
        }
    }

    /// Drives equality `k` to 0 and kills its column (or marks it redundant when
    /// it is constant 0 on the live columns); marks the tableau empty when 0
    /// cannot be reached.
    fn settle_eq(&mut self, k: usize) {
        loop {
            match self.cons[k].pos {
                Pos::Col(_) => {
                    self.cons[k].dead = true;
                    self.undo.push(Undo::KillCol(k));
                    return;
                }
                Pos::Row(r) => {
                    let s = self.rows[r][CST].signum();
                    if s == 0 {
                        let live = (0..self.col_owner.len()).find(|&j| {
                            !self.rows[r][COL0 + j].is_zero() && !self.is_dead(self.col_owner[j])
                        });
                        match live {
                            // Degenerate pivot: the point does not move.
                            Some(j) => self.pivot(r, j),
                            None => {
                                self.cons[k].redundant = true;
                                self.undo.push(Undo::MarkRedundant(k));
                                return;
                            }
                        }
                    } else if self.optimize_row(r, -s, Stop::Restore) != Outcome::Stopped {
                        self.set_empty();
                        return;
                    }
                }
            }
        }
    }

    /// Makes constraint `k` non-negative again when it is a negative row, by
    /// maximising it while keeping all other constraints feasible. False when
    /// its maximum is negative.
    fn restore_con(&mut self, k: usize) -> bool {
        match self.cons[k].pos {
            Pos::Col(_) => true,
            Pos::Row(r) => {
                !self.rows[r][CST].is_negative()
                    || self.optimize_row(r, 1, Stop::Restore) == Outcome::Stopped
            }
        }
    }

    /// Marks every constraint that is a row with positive value.
    fn note_positive(&self, positive: &mut [bool]) {
        for (row, o) in self.rows.iter().zip(&self.row_owner) {
            if let Owner::Con(k) = *o {
                if row[CST].is_positive() {
                    positive[k] = true;
                }
            }
        }
    }

    /// Primal simplex on row `r`: increases `sign * row_r` while every other
    /// restricted row stays `>= 0` (row `r` itself is not restricted during the
    /// run). Dantzig's rule until the first degenerate pivot, then Bland's rule
    /// (see the module documentation for termination).
    fn optimize_row(&mut self, r: usize, sign: i32, stop: Stop) -> Outcome {
        let mut bland = false;
        loop {
            let v = self.rows[r][CST].signum() * sign;
            match stop {
                Stop::NonNeg | Stop::Restore if v >= 0 => return Outcome::Stopped,
                Stop::Positive if v > 0 => return Outcome::Stopped,
                _ => {}
            }
            let Some((j, dir)) = self.choose_column(r, sign, bland) else {
                return Outcome::Optimal;
            };
            let mut leave = self.ratio_test(j, dir, Some(r));
            if stop == Stop::Restore {
                // Row r (negative in direction `sign`) reaches 0 after a step of
                // |b_r| / |a_rj|; it leaves if no other row blocks earlier.
                let row = &self.rows[r];
                let own = row[CST].abs();
                let first = match leave {
                    None => true,
                    Some(i) => {
                        let other = &self.rows[i];
                        cmp_ratio(&own, &row[COL0 + j], &other[CST], &other[COL0 + j])
                            != Ordering::Greater
                    }
                };
                if first {
                    leave = Some(r);
                }
            }
            let Some(i) = leave else {
                return Outcome::Unbounded;
            };
            if i != r && self.rows[i][CST].is_zero() {
                bland = true;
            }
            self.pivot(i, j);
            if i == r {
                return Outcome::Stopped;
            }
        }
    }

    /// The entering column for increasing `sign * row_r`, with the direction
    /// (`±1`) in which the column variable moves; `None` at the optimum.
    fn choose_column(&self, r: usize, sign: i32, bland: bool) -> Option<(usize, i32)> {
        let row = &self.rows[r];
        let mut best: Option<(usize, i32)> = None;
        for (j, (&owner, a)) in self.col_owner.iter().zip(&row[COL0..]).enumerate() {
            if a.is_zero() || self.is_dead(owner) {
                continue;
            }
            let s = a.signum() * sign;
            let dir = if self.is_restricted(owner) {
                if s < 0 {
                    continue;
                }
                1
            } else {
                s
            };
            let better = match best {
                None => true,
                Some((b, _)) => {
                    let by_key = self.key(owner) < self.key(self.col_owner[b]);
                    if bland {
                        by_key
                    } else {
                        match cmp_abs(a, &row[COL0 + b]) {
                            Ordering::Greater => true,
                            Ordering::Less => false,
                            Ordering::Equal => by_key,
                        }
                    }
                }
            };
            if better {
                best = Some((j, dir));
            }
        }
        best
    }

    /// Minimum-ratio test for moving column `j` in direction `dir`: the
    /// restricted row (other than `exclude`) that first reaches 0, ties broken
    /// by Bland's index; `None` when no restricted row decreases.
    fn ratio_test(&self, j: usize, dir: i32, exclude: Option<usize>) -> Option<usize> {
        let cc = COL0 + j;
        let mut best: Option<usize> = None;
        for (i, (row, &owner)) in self.rows.iter().zip(&self.row_owner).enumerate() {
            if Some(i) == exclude || !self.is_restricted(owner) {
                continue;
            }
            let a = &row[cc];
            if a.is_zero() || a.signum() * dir > 0 {
                continue;
            }
            best = match best {
                None => Some(i),
                Some(b) => {
                    let bro = &self.rows[b];
                    match cmp_ratio(&row[CST], a, &bro[CST], &bro[cc]) {
                        Ordering::Less => Some(i),
                        Ordering::Greater => Some(b),
                        Ordering::Equal => {
                            if self.key(owner) < self.key(self.row_owner[b]) {
                                Some(i)
                            } else {
                                Some(b)
                            }
                        }
                    }
                }
            };
        }
        best
    }

    /// Exchanges the basic variable of row `r` with the variable of column `c`
    /// (`a_rc != 0`), fraction-free.
    ///
    /// With `u = (b_r + p·x_c + Σ a_rj·x_j) / d_r` and `s = sign(p)`:
    /// the new row of `x_c` is `(-s·b_r + s·d_r·u - s·Σ a_rj·x_j) / |p|`, and a
    /// row `(b_i + a_ic·x_c + Σ a_ij·x_j) / d_i` becomes
    /// `(|p|·b_i - s·a_ic·b_r + s·a_ic·d_r·u + Σ (|p|·a_ij - s·a_ic·a_rj)·x_j) / (|p|·d_i)`.
    fn pivot(&mut self, r: usize, c: usize) {
        self.n_pivots += 1;
        self.last_pivot = (r, c);
        let cc = COL0 + c;
        let mut prow = std::mem::take(&mut self.rows[r]);
        let p = prow[cc].clone();
        debug_assert!(!p.is_zero(), "pivot on a zero entry");
        let neg = p.is_negative();
        let abs_p = p.abs();
        let d_r = prow[DEN].clone();
        let mut updated = 0u64;
        let mut big = 0u64;
        // The machine-word path: a pivot row of small entries, as a list of
        // its non-zero entries (besides the pivot), and the pivot's magnitude;
        // rows of small entries are then updated in `i128` arithmetic, and
        // with a unit pivot only at those entries (the others are unchanged).
        // (the list is built in place: returned inside an `Option` it was
        // copied once more per pivot)
        let mut nz = SmallEntries::new();
        let small_pivot: Option<i64> = abs_p.small().filter(|_| {
            for (k, y) in prow.iter().enumerate().skip(CST) {
                if k != cc && !y.is_zero() {
                    match y.small() {
                        Some(y) => nz.push((k, y)),
                        None => return false,
                    }
                }
            }
            true
        });
        // the pivot row's denominator prepared as a divisor, once a row needs it
        let mut div_r: Option<ExactDivisor> = None;
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i == r || row[cc].is_zero() {
                continue;
            }
            updated += row.len() as u64;
            if let Some(ap) = small_pivot {
                if let Some(a_ic) = row[cc].small() {
                    if row.iter().all(Int::is_small) {
                        let (b, wide) = update_small_row(row, cc, ap, &nz, a_ic, neg, &d_r);
                        big += b;
                        if wide {
                            normalize(row);
                        } else {
                            normalize_pivoted(row, &d_r);
                        }
                        continue;
                    }
                }
            }
            let div = div_r.get_or_insert_with(|| ExactDivisor::new(&d_r));
            big += update_big_row(row, &prow, cc, &abs_p, neg, &d_r, div);
            if row.iter().any(|v| v.limbs() > self.row_limit) {
                normalize(row);
            }
        }
        if !neg {
            for x in &mut prow[CST..] {
                *x = -&*x;
            }
        }
        prow[cc] = if neg { -d_r } else { d_r };
        prow[DEN] = abs_p;
        // (the entries are those of the row before, up to sign and place: their
        // gcd has not changed, so a normalised row stays normalised)
        self.work += 1 + updated / 32 + big;
        self.rows[r] = prow;
        let ro = self.row_owner[r];
        let co = self.col_owner[c];
        self.row_owner[r] = co;
        self.col_owner[c] = ro;
        self.set_pos(co, Pos::Row(r));
        self.set_pos(ro, Pos::Col(c));
    }

    /// Pivots column `j` into a row without making any restricted row negative
    /// (the column variable itself may move either way: it is about to be
    /// removed). False only if no row depends on the column, which the
    /// coordinate-system invariant rules out for a constraint variable.
    fn col_to_row_any(&mut self, j: usize) -> bool {
        let i = self
            .ratio_test(j, 1, None)
            .or_else(|| self.ratio_test(j, -1, None))
            .or_else(|| self.rows.iter().position(|row| !row[COL0 + j].is_zero()));
        match i {
            Some(i) => {
                self.pivot(i, j);
                true
            }
            None => false,
        }
    }

    fn remove_row(&mut self, r: usize) {
        let row = self.rows.swap_remove(r);
        self.recycle(row);
        self.row_owner.swap_remove(r);
        if r < self.rows.len() {
            let o = self.row_owner[r];
            self.set_pos(o, Pos::Row(r));
        }
    }

    fn remove_col(&mut self, j: usize) {
        let last = self.col_owner.len() - 1;
        if j != last {
            for row in &mut self.rows {
                row.swap(COL0 + j, COL0 + last);
            }
            self.col_owner.swap(j, last);
            let o = self.col_owner[j];
            self.set_pos(o, Pos::Col(j));
        }
        for row in &mut self.rows {
            debug_assert!(row[COL0 + last].is_zero(), "removing a referenced column");
            row.pop();
        }
        self.col_owner.pop();
    }

    fn undo_one(&mut self, u: Undo) {
        match u {
            Undo::AddVar => {
                let x = self.vars.len() - 1;
                if let Pos::Row(r) = self.vars[x] {
                    // Unreachable: once every constraint added after the variable is
                    // gone, nothing depends on it, so it must be a column.
                    debug_assert!(false, "variable to remove is basic");
                    let j = (0..self.col_owner.len()).find(|&j| !self.rows[r][COL0 + j].is_zero());
                    match j {
                        Some(j) => self.pivot(r, j),
                        None => self.remove_row(r),
                    }
                }
                if let Pos::Col(j) = self.vars[x] {
                    self.remove_col(j);
                }
                self.vars.pop();
            }
            Undo::AddCon => {
                let k = self.cons.len() - 1;
                if let Pos::Col(j) = self.cons[k].pos {
                    let moved = self.col_to_row_any(j);
                    debug_assert!(moved, "constraint column with no dependent row");
                    if !moved {
                        self.remove_col(j);
                    }
                }
                if let Pos::Row(r) = self.cons[k].pos {
                    self.remove_row(r);
                }
                self.cons.pop();
            }
            Undo::MarkRedundant(k) => {
                self.cons[k].redundant = false;
                if !self.empty {
                    // Only needed if the mark was wrong and the row went negative.
                    let ok = self.restore_con(k);
                    debug_assert!(ok, "restoring a constraint that was feasible before");
                }
            }
            Undo::KillCol(k) => self.cons[k].dead = false,
            Undo::MarkEmpty => self.empty = false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_integer::Integer;
    use num_traits::{One, Signed, Zero};
    use proptest::prelude::*;

    /// The generic update of one row by a pivot (the formula of
    /// [`update_small_row`], on `Int`s).
    fn update_generic(row: &[Int], prow: &[Int], cc: usize, neg: bool) -> Vec<Int> {
        let abs_p = prow[cc].abs();
        let d_r = &prow[DEN];
        let a_ic = row[cc].clone();
        let m = if neg { a_ic.clone() } else { -&a_ic };
        let mut out = row.to_vec();
        out[DEN] = &row[DEN] * &abs_p;
        for k in CST..row.len() {
            if k != cc {
                out[k] = row[k].mul_add_mul(&abs_p, &m, &prow[k]);
            }
        }
        let t = a_ic * d_r;
        out[cc] = if neg { -t } else { t };
        out
    }

    fn small_value() -> impl Strategy<Value = i64> {
        prop_oneof![
            -3i64..=3,
            Just(i64::MIN),
            Just(i64::MAX),
            Just(i64::MIN + 1),
            any::<i64>(),
        ]
    }

    proptest! {
        /// `express` on machine words agrees with the `Int` path (or leaves
        /// the row to it), on tableaux with entries near the ends of `i64`
        /// after a pivot or two.
        #[test]
        fn express_small_matches_the_general_one(
            cons in proptest::collection::vec(proptest::collection::vec(small_value(), 4), 1..5),
            row in proptest::collection::vec(small_value(), 4),
            pivots in 0usize..3,
        ) {
            let mut s = Simplex::new(3);
            for c in &cons {
                let c: Vec<Int> = c.iter().map(|&v| Int::from(v)).collect();
                s.add_ineq(&c);
            }
            for _ in 0..pivots {
                let at = s.rows.iter().enumerate().find_map(|(i, r)| {
                    r[COL0..].iter().position(|v| !v.is_zero()).map(|j| (i, j))
                });
                if let Some((i, j)) = at {
                    s.pivot(i, j);
                }
            }
            let row: Vec<Int> = row.into_iter().map(Int::from).collect();
            let mut general = Vec::new();
            s.express_general(&row, &mut general);
            let mut small = Vec::new();
            if s.express_small(&row, &mut small) {
                prop_assert_eq!(&small, &general);
            } else {
                prop_assert!(small.is_empty());
            }
            prop_assert_eq!(s.express(&row), general);
        }

        /// The machine-word update agrees with the generic one, with a unit
        /// pivot and without, near the ends of `i64` too.
        #[test]
        fn small_row_update_matches_the_generic_one(
            row in proptest::collection::vec(small_value(), 5),
            prow in proptest::collection::vec(small_value(), 5),
            unit in any::<bool>(),
            neg in any::<bool>(),
        ) {
            let cc = COL0 + 1;
            let mut prow: Vec<Int> = prow.into_iter().map(Int::from).collect();
            let mut row: Vec<Int> = row.into_iter().map(Int::from).collect();
            if unit {
                prow[cc] = Int::from(if neg { -1 } else { 1 });
            } else if prow[cc].is_zero() {
                prow[cc] = Int::from(7);
            }
            if prow[cc].is_negative() != neg {
                prow[cc] = -&prow[cc];
            }
            // (the pivot takes the machine-word path only with |p| small)
            prop_assume!(prow[cc].abs().is_small() && row[cc].is_small() && !row[cc].is_zero());
            prow[DEN] = prow[DEN].abs().max_of(Int::ONE);
            row[DEN] = row[DEN].abs().max_of(Int::ONE);
            prop_assume!(prow[DEN].is_small() && row[DEN].is_small());
            let want = update_generic(&row, &prow, cc, neg);
            let ap = prow[cc].abs().small().unwrap();
            let nz: SmallEntries = prow
                .iter()
                .enumerate()
                .skip(CST)
                .filter(|(k, y)| *k != cc && !y.is_zero())
                .map(|(k, y)| (k, y.small().unwrap()))
                .collect();
            let a_ic = row[cc].small().unwrap();
            let mut got = row.clone();
            update_small_row(&mut got, cc, ap, &nz, a_ic, neg, &prow[DEN].clone());
            prop_assert_eq!(got, want);
        }
    }

    fn row(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    /// The integer point after an LP: `None` at a fractional vertex, the
    /// point at an integral one (as `sample_point` gives it).
    /// On the doubled tableau of a basis reduction over rows with 70-bit
    /// coefficients (LPs, equalities added and rolled back, many pivots), no
    /// entry outgrows the bound of [`row_limbs_bound`]: a row that carries a
    /// factor past it is normalised in full.
    #[test]
    fn big_rows_stay_within_the_minor_bound() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let big = |r: u64| {
            Int::from((r >> 40) as i64) * Int::from(1i64 << 50) + Int::from((r & 0xffff) as i64)
        };
        let d = 6;
        let mut s = Simplex::new(2 * d);
        for copy in 0..2 {
            for v in 0..d {
                for (c, sign) in [(3i64, 1i64), (5, -1)] {
                    let mut row = vec![Int::ZERO; 1 + 2 * d];
                    row[0] = Int::from(c);
                    row[1 + copy * d + v] = Int::from(sign);
                    s.add_ineq(&row);
                }
            }
        }
        let rows: Vec<Vec<Int>> = (0..8)
            .map(|_| {
                let mut row: Vec<Int> = (0..=d).map(|_| big(next())).collect();
                row[0] = &row[0] * &Int::from(8);
                row
            })
            .collect();
        for r in &rows {
            for copy in 0..2 {
                let mut row = vec![Int::ZERO; 1 + 2 * d];
                row[0] = r[0].clone();
                row[1 + copy * d..1 + copy * d + d].clone_from_slice(&r[1..]);
                s.add_ineq(&row);
            }
        }
        let limit = row_limbs_bound(2 * d, s.input_limbs);
        // `b·(u - v)` for a random small direction `b`
        let mut diff = || {
            let mut row = vec![Int::ZERO; 1 + 2 * d];
            for j in 0..d {
                let c = Int::from((next() % 7) as i64 - 3);
                row[1 + d + j] = -&c;
                row[1 + j] = c;
            }
            row
        };
        for round in 0..60 {
            let (fixed, obj) = (diff(), diff());
            let snap = s.snapshot();
            if round % 2 == 0 {
                s.add_eq(&fixed);
            }
            let _ = s.max_value(&obj);
            s.rollback(snap);
            let widest = s.rows.iter().flatten().map(Int::limbs).max().unwrap_or(0);
            assert!(widest <= limit, "round {round}: {widest} limbs > {limit}");
        }
    }

    #[test]
    fn integer_sample_point_at_optima() {
        // 2x >= 1, x <= 3, y = 2x - 1
        let mut s = Simplex::new(2);
        s.add_ineq(&row(&[-1, 2, 0]));
        s.add_ineq(&row(&[3, -1, 0]));
        s.add_eq(&row(&[-1, 2, -1]));
        assert_eq!(
            s.min_value(&row(&[0, 1, 0])),
            LpValue::Optimum(Rational::new(Int::ONE, Int::from(2)))
        );
        assert_eq!(s.integer_sample_point(), None);
        assert_eq!(
            s.min_value(&row(&[0, -1, 0])),
            LpValue::Optimum(Rational::from_int(Int::from(-3)))
        );
        assert_eq!(s.integer_sample_point(), Some(row(&[3, 5])));
        let want: Vec<Int> = s
            .sample_point()
            .unwrap()
            .iter()
            .map(Rational::floor)
            .collect();
        assert_eq!(s.integer_sample_point(), Some(want));
    }

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(Int::from(n), Int::from(d))
    }

    fn pt(v: &[(i64, i64)]) -> Vec<Rational> {
        v.iter().map(|&(n, d)| q(n, d)).collect()
    }

    fn optimum(r: LpResult) -> (Rational, Vec<Rational>) {
        match r {
            LpResult::Optimum { value, point } => (value, point),
            other => panic!("expected an optimum, got {other:?}"),
        }
    }

    fn value_of(r: LpResult) -> Rational {
        optimum(r).0
    }

    /// The answer without the point (optimal points need not be unique).
    fn answer(r: LpResult) -> Result<Rational, LpResult> {
        match r {
            LpResult::Optimum { value, .. } => Ok(value),
            other => Err(other),
        }
    }

    // ------------------------------------------------ independent reference
    //
    // An exact fraction over BigInt (not using `Int` or `Rational`) and a
    // vertex-enumeration LP solver: every n-subset of constraint hyperplanes is
    // solved by Gaussian elimination; feasible unique solutions are the
    // vertices of the (bounded) polytope.

    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Q {
        n: BigInt,
        d: BigInt,
    }

    impl Q {
        fn new(n: BigInt, d: BigInt) -> Q {
            assert!(!d.is_zero());
            let g = n.gcd(&d);
            let (mut n, mut d) = (n / &g, d / &g);
            if d.is_negative() {
                n = -n;
                d = -d;
            }
            Q { n, d }
        }
        fn int(v: &BigInt) -> Q {
            Q::new(v.clone(), BigInt::one())
        }
        fn zero() -> Q {
            Q::int(&BigInt::zero())
        }
        fn is_zero(&self) -> bool {
            self.n.is_zero()
        }
        fn add(&self, o: &Q) -> Q {
            Q::new(&self.n * &o.d + &o.n * &self.d, &self.d * &o.d)
        }
        fn sub(&self, o: &Q) -> Q {
            Q::new(&self.n * &o.d - &o.n * &self.d, &self.d * &o.d)
        }
        fn mul(&self, o: &Q) -> Q {
            Q::new(&self.n * &o.n, &self.d * &o.d)
        }
        fn div(&self, o: &Q) -> Q {
            Q::new(&self.n * &o.d, &self.d * &o.n)
        }
        fn cmp(&self, o: &Q) -> Ordering {
            (&self.n * &o.d).cmp(&(&o.n * &self.d))
        }
        fn same_as(&self, r: &Rational) -> bool {
            self.n == r.num.to_big() && self.d == r.den.to_big()
        }
    }

    /// A constraint: `row·(1,x) >= 0`, or `= 0` when `eq`.
    #[derive(Clone, Debug)]
    struct RefCon {
        row: Vec<BigInt>,
        eq: bool,
    }

    fn eval(row: &[BigInt], x: &[Q]) -> Q {
        let mut s = Q::int(&row[0]);
        for (c, v) in row[1..].iter().zip(x) {
            s = s.add(&Q::int(c).mul(v));
        }
        s
    }

    fn satisfies(cons: &[RefCon], x: &[Q]) -> bool {
        cons.iter().all(|c| {
            let v = eval(&c.row, x);
            if c.eq {
                v.is_zero()
            } else {
                v.cmp(&Q::zero()) != Ordering::Less
            }
        })
    }

    /// The unique solution of the square system `a x = b`, if any.
    fn solve(mut a: Vec<Vec<Q>>, mut b: Vec<Q>) -> Option<Vec<Q>> {
        let n = b.len();
        for col in 0..n {
            let p = (col..n).find(|&r| !a[r][col].is_zero())?;
            a.swap(col, p);
            b.swap(col, p);
            for r in 0..n {
                if r != col && !a[r][col].is_zero() {
                    let f = a[r][col].div(&a[col][col]);
                    let pivot_row = a[col].clone();
                    for (x, y) in a[r].iter_mut().zip(&pivot_row).skip(col) {
                        *x = x.sub(&f.mul(y));
                    }
                    let t = f.mul(&b[col]);
                    b[r] = b[r].sub(&t);
                }
            }
        }
        Some((0..n).map(|i| b[i].div(&a[i][i])).collect())
    }

    fn subsets(m: usize, k: usize) -> Vec<Vec<usize>> {
        fn go(start: usize, m: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if cur.len() == k {
                out.push(cur.clone());
                return;
            }
            for i in start..m {
                cur.push(i);
                go(i + 1, m, k, cur, out);
                cur.pop();
            }
        }
        let mut out = Vec::new();
        go(0, m, k, &mut Vec::new(), &mut out);
        out
    }

    /// All vertices of a bounded polyhedron (empty iff the polyhedron is empty).
    fn vertices(n: usize, cons: &[RefCon]) -> Vec<Vec<Q>> {
        let mut out: Vec<Vec<Q>> = Vec::new();
        for s in subsets(cons.len(), n) {
            let a = s
                .iter()
                .map(|&i| cons[i].row[1..].iter().map(Q::int).collect())
                .collect();
            let b = s.iter().map(|&i| Q::int(&-&cons[i].row[0])).collect();
            if let Some(x) = solve(a, b) {
                if satisfies(cons, &x) && !out.contains(&x) {
                    out.push(x);
                }
            }
        }
        out
    }

    /// Min (or max) of `obj` over a bounded polyhedron; `None` if empty.
    fn ref_opt(n: usize, cons: &[RefCon], obj: &[BigInt], maximize: bool) -> Option<Q> {
        let mut best: Option<Q> = None;
        for v in vertices(n, cons) {
            let val = eval(obj, &v);
            let better = match &best {
                None => true,
                Some(b) => {
                    let o = val.cmp(b);
                    (o == Ordering::Less && !maximize) || (o == Ordering::Greater && maximize)
                }
            };
            if better {
                best = Some(val);
            }
        }
        best
    }

    fn to_ints(row: &[BigInt]) -> Vec<Int> {
        row.iter().map(|b| Int::from_big(b.clone())).collect()
    }

    fn to_q(p: &[Rational]) -> Vec<Q> {
        p.iter()
            .map(|r| Q::new(r.num.to_big(), r.den.to_big()))
            .collect()
    }

    fn build(n: usize, cons: &[RefCon]) -> Simplex {
        let mut s = Simplex::new(n);
        for c in cons {
            if c.eq {
                s.add_eq(&to_ints(&c.row));
            } else {
                s.add_ineq(&to_ints(&c.row));
            }
        }
        s
    }

    fn big_row(v: &[i64]) -> Vec<BigInt> {
        v.iter().map(|&x| BigInt::from(x)).collect()
    }

    /// Box bounds `-b <= x_i <= b`.
    fn box_cons(n: usize, b: i64) -> Vec<RefCon> {
        let mut out = Vec::new();
        for i in 0..n {
            for s in [1, -1] {
                let mut r = vec![0i64; n + 1];
                r[0] = b;
                r[i + 1] = s;
                out.push(RefCon {
                    row: big_row(&r),
                    eq: false,
                });
            }
        }
        out
    }

    /// Checks that a result agrees with the reference (value, and the point is
    /// feasible and attains it).
    fn check_against_ref(s: &mut Simplex, n: usize, cons: &[RefCon], obj: &[BigInt], max: bool) {
        let want = ref_opt(n, cons, obj, max);
        let got = if max {
            s.maximize(&to_ints(obj))
        } else {
            s.minimize(&to_ints(obj))
        };
        match (want, got) {
            (None, LpResult::Empty) => {}
            (Some(w), LpResult::Optimum { value, point }) => {
                assert!(
                    w.same_as(&value),
                    "optimum {value} but reference says {w:?}"
                );
                let p = to_q(&point);
                assert!(satisfies(cons, &p), "optimal point {point:?} is infeasible");
                assert!(
                    eval(obj, &p).same_as(&value),
                    "point does not attain the value"
                );
            }
            (w, g) => panic!("reference {w:?} but simplex {g:?}"),
        }
    }

    // ------------------------------------------------ hand-checked tests

    #[test]
    fn rational_basics() {
        assert_eq!(q(6, -4), q(-3, 2));
        assert_eq!(q(-3, 2).to_string(), "-3/2");
        assert_eq!(q(4, 2).to_string(), "2");
        assert_eq!(q(0, -5).to_string(), "0");
        assert_eq!(q(-3, 2).floor(), Int::from(-2));
        assert_eq!(q(-3, 2).ceil(), Int::from(-1));
        assert!(q(4, 2).is_integer() && !q(1, 3).is_integer());
        assert!(q(1, 3) < q(1, 2) && q(-1, 2) < q(-1, 3));
        let odd = Rational {
            num: Int::from(2),
            den: Int::from(4),
        };
        assert_eq!(odd, q(1, 2));
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Simplex>();
    }

    #[test]
    fn bounded_lp() {
        // max x + y  s.t. x, y >= 0, x + 2y <= 4, 3x + y <= 6  ->  (8/5, 6/5), 14/5
        let mut s = Simplex::new(2);
        s.add_ineq(&row(&[0, 1, 0]));
        s.add_ineq(&row(&[0, 0, 1]));
        s.add_ineq(&row(&[4, -1, -2]));
        s.add_ineq(&row(&[6, -3, -1]));
        assert!(!s.is_empty());
        let (v, p) = optimum(s.maximize(&row(&[0, 1, 1])));
        assert_eq!(v, q(14, 5));
        assert_eq!(p, pt(&[(8, 5), (6, 5)]));
        let (v, p) = optimum(s.minimize(&row(&[1, 1, 1])));
        assert_eq!(v, q(1, 1));
        assert_eq!(p, pt(&[(0, 1), (0, 1)]));
        // minimise -x + y + 3: at (2, 0) -> 1
        assert_eq!(value_of(s.minimize(&row(&[3, -1, 1]))), q(1, 1));
        let p = s.sample_point().unwrap();
        assert_eq!(p.len(), 2);
        assert!(s.pivots() > 0);
    }

    /// A tableau built after one is dropped on the same thread takes its
    /// vectors and row buffers ([`Shell`]), and answers as a new one does
    /// (with a different number of variables, and a temporary row taken
    /// from the spare buffers).
    #[test]
    fn dropped_tableau_vectors_are_reused() {
        let mut a = Simplex::new(3);
        a.add_ineq(&row(&[0, 1, 0, 0]));
        a.add_ineq(&row(&[0, 0, 1, 0]));
        a.add_ineq(&row(&[9, -1, -1, -1]));
        assert_eq!(value_of(a.maximize(&row(&[0, 1, 1, 1]))), q(9, 1));
        drop(a);
        let mut b = Simplex::new(2);
        assert!(b.spare.len() >= 3, "{} spare rows", b.spare.len());
        assert!(b.rows.is_empty() && b.cons.is_empty() && b.undo.is_empty());
        assert_eq!((b.n_var(), b.n_con()), (2, 0));
        b.add_ineq(&row(&[0, 1, 0]));
        b.add_ineq(&row(&[0, 0, 1]));
        b.add_ineq(&row(&[4, -1, -2]));
        b.add_ineq(&row(&[6, -3, -1]));
        assert_eq!(optimum(b.maximize(&row(&[0, 1, 1]))).0, q(14, 5));
        let snap = b.snapshot();
        b.add_ineq(&row(&[-5, 1, 0]));
        assert!(b.is_empty());
        b.rollback(snap);
        assert_eq!(optimum(b.maximize(&row(&[0, 1, 1]))).0, q(14, 5));
        assert!(b.spare.iter().all(Vec::is_empty));
    }

    #[test]
    fn unbounded_and_free_variables() {
        let mut s = Simplex::new(2);
        // x is free, y >= -5
        s.add_ineq(&row(&[5, 0, 1]));
        assert_eq!(s.maximize(&row(&[0, 0, 1])), LpResult::Unbounded);
        assert_eq!(value_of(s.minimize(&row(&[0, 0, 1]))), q(-5, 1));
        assert_eq!(s.minimize(&row(&[0, 1, 0])), LpResult::Unbounded);
        assert_eq!(s.maximize(&row(&[0, 1, 0])), LpResult::Unbounded);
        // x - y >= 3 and x + y <= 1 with y >= -5: x in [-2, 6], y in [-5, -1]
        s.add_ineq(&row(&[-3, 1, -1]));
        s.add_ineq(&row(&[1, -1, -1]));
        let (v, p) = optimum(s.maximize(&row(&[0, 1, 0])));
        assert_eq!(v, q(6, 1));
        assert_eq!(p, pt(&[(6, 1), (-5, 1)]));
        let (v, p) = optimum(s.minimize(&row(&[0, 1, 0])));
        assert_eq!(v, q(-2, 1));
        assert_eq!(p, pt(&[(-2, 1), (-5, 1)]));
        assert_eq!(value_of(s.maximize(&row(&[0, 0, 1]))), q(-1, 1));
        // unbounded again once the upper bound x + y <= 1 is dropped
        s.mark_redundant(2);
        assert_eq!(s.maximize(&row(&[0, 1, 0])), LpResult::Unbounded);
        assert_eq!(value_of(s.minimize(&row(&[0, 1, 0]))), q(-2, 1));
        // free variables go negative
        let mut t = Simplex::new(1);
        t.add_ineq(&row(&[-7, -2])); // -2x >= 7
        assert_eq!(value_of(t.maximize(&row(&[0, 1]))), q(-7, 2));
        // no constraints at all
        let mut u = Simplex::new(3);
        assert_eq!(value_of(u.minimize(&row(&[4, 0, 0, 0]))), q(4, 1));
        assert_eq!(u.minimize(&row(&[0, 0, 1, 0])), LpResult::Unbounded);
        assert_eq!(u.sample_point().unwrap(), pt(&[(0, 1), (0, 1), (0, 1)]));
    }

    #[test]
    fn infeasible() {
        let mut s = Simplex::new(1);
        s.add_ineq(&row(&[-1, 1])); // x >= 1
        assert!(!s.is_empty());
        s.add_ineq(&row(&[0, -1])); // x <= 0
        assert!(s.is_empty());
        assert_eq!(s.minimize(&row(&[0, 1])), LpResult::Empty);
        assert_eq!(s.maximize(&row(&[0, 1])), LpResult::Empty);
        assert_eq!(s.lexmin(&[row(&[0, 1])]), LpResult::Empty);
        assert_eq!(s.sample_point(), None);
        assert!(!s.can_saturate(&row(&[0, 1])));
        assert!(s.is_redundant(0));
        // adding more keeps it empty
        s.add_ineq(&row(&[5, 1]));
        assert!(s.is_empty());
        // constant constraints
        let mut t = Simplex::new(2);
        t.add_ineq(&row(&[3, 0, 0]));
        assert!(!t.is_empty());
        t.add_ineq(&row(&[-1, 0, 0]));
        assert!(t.is_empty());
        // 2-D: x + y >= 3, x <= 1, y <= 1
        let mut u = Simplex::new(2);
        u.add_ineq(&row(&[-3, 1, 1]));
        u.add_ineq(&row(&[1, -1, 0]));
        assert!(!u.is_empty());
        u.add_ineq(&row(&[1, 0, -1]));
        assert!(u.is_empty());
    }

    /// Beale's example, on which Dantzig's rule with the usual tie-breaking
    /// cycles. min -3/4 x1 + 20 x2 - 1/2 x3 + 6 x4 s.t.
    /// 1/4 x1 - 8 x2 - x3 + 9 x4 <= 0, 1/2 x1 - 12 x2 - 1/2 x3 + 3 x4 <= 0,
    /// x3 <= 1, x >= 0. Optimum -5/4 at (1, 0, 1, 0); scaled by 4 below.
    #[test]
    fn beale_cycling_example() {
        let mut s = Simplex::new(4);
        for i in 0..4 {
            let mut r = vec![0i64; 5];
            r[i + 1] = 1;
            s.add_ineq(&row(&r));
        }
        s.add_ineq(&row(&[0, -1, 32, 4, -36]));
        s.add_ineq(&row(&[0, -1, 24, 1, -6]));
        s.add_ineq(&row(&[1, 0, 0, -1, 0]));
        let (v, p) = optimum(s.minimize(&row(&[0, -3, 80, -2, 24])));
        assert_eq!(v, q(-5, 1));
        assert_eq!(p, pt(&[(1, 1), (0, 1), (1, 1), (0, 1)]));
        assert!(s.pivots() < 100, "{} pivots", s.pivots());
        // the same with the constraints in another order
        let mut t = Simplex::new(4);
        t.add_ineq(&row(&[1, 0, 0, -1, 0]));
        t.add_ineq(&row(&[0, -1, 24, 1, -6]));
        t.add_ineq(&row(&[0, -1, 32, 4, -36]));
        for i in (0..4).rev() {
            let mut r = vec![0i64; 5];
            r[i + 1] = 1;
            t.add_ineq(&row(&r));
        }
        assert_eq!(value_of(t.minimize(&row(&[0, -3, 80, -2, 24]))), q(-5, 1));
    }

    /// A tableau whose starting basis is the textbook slack basis of
    /// `max/min c·x s.t. A x <= b, x >= 0`: the variables are `y = x + shift`
    /// (free), and `x_i >= 0` starts negative, so restoring it pivots it into a
    /// column; every later row is a slack row. The textbook data may be
    /// fractional, so each row `[B, A]` is `scale` times `[b, a]`, and the sign
    /// constraints are `scale·x_i >= 0`: every tableau variable is then `scale`
    /// times its textbook counterpart (a row keeps its value when normalised), so
    /// all reduced costs are scaled alike and Dantzig's rule picks the same
    /// columns as in the textbook.
    fn slack_basis(n: usize, scale: i64, rows: &[&[i64]]) -> Simplex {
        let shift = 5;
        let mut s = Simplex::new(n);
        for i in 0..n {
            let mut r = vec![0i64; n + 1];
            r[0] = -shift * scale;
            r[i + 1] = scale;
            s.add_ineq(&row(&r));
            assert!(matches!(s.cons[i].pos, Pos::Col(_)));
        }
        for a in rows {
            // B - A·x = (B + shift·ΣA) - A·y
            let mut r = vec![a[0] + shift * a[1..].iter().sum::<i64>()];
            r.extend(a[1..].iter().map(|v| -v));
            s.add_ineq(&row(&r));
        }
        s
    }

    /// Chvátal's cycling example (Linear Programming, ch. 3): from the slack
    /// basis, the largest-coefficient rule with smallest-index tie-breaking
    /// cycles through six degenerate pivots; the switch to Bland's rule ends it.
    /// max 10x1 - 57x2 - 9x3 - 24x4 s.t. x1/2 - 11x2/2 - 5x3/2 + 9x4 <= 0,
    /// x1/2 - 3x2/2 - x3/2 + x4 <= 0, x1 <= 1, x >= 0; optimum 1 at (1, 0, 1, 0).
    /// (Without the switch this test loops forever.)
    #[test]
    fn chvatal_cycling_example() {
        let mut s = slack_basis(
            4,
            2,
            &[&[0, 1, -11, -5, 18], &[0, 1, -3, -1, 2], &[2, 2, 0, 0, 0]],
        );
        // objective in y = x + 5: c·x = c·y - 5·Σc
        let (v, p) = optimum(s.maximize(&row(&[-5 * (10 - 57 - 9 - 24), 10, -57, -9, -24])));
        assert_eq!(v, q(1, 1));
        assert_eq!(p, pt(&[(6, 1), (5, 1), (6, 1), (5, 1)]));
        assert!(s.pivots() < 40, "{} pivots", s.pivots());
        // Beale's example in the same form (scaled by 4): min -3/4 x1 + 20 x2
        // - 1/2 x3 + 6 x4 s.t. x1/4 - 8x2 - x3 + 9x4 <= 0,
        // x1/2 - 12x2 - x3/2 + 3x4 <= 0, x3 <= 1: optimum -5/4 at (1, 0, 1, 0).
        let mut t = slack_basis(
            4,
            4,
            &[&[0, 1, -32, -4, 36], &[0, 2, -48, -2, 12], &[4, 0, 0, 4, 0]],
        );
        let (v, p) = optimum(t.minimize(&row(&[-5 * (-3 + 80 - 2 + 24), -3, 80, -2, 24])));
        assert_eq!(v, q(-5, 1));
        assert_eq!(p, pt(&[(6, 1), (5, 1), (6, 1), (5, 1)]));
    }

    /// Many constraints through one vertex (highly degenerate), checked
    /// against the reference.
    #[test]
    fn degenerate_apex() {
        let n = 3;
        let mut cons = box_cons(n, 4);
        // a cone with apex (1, 1, 1): a·(x - 1) <= 0 for several a
        for a in [
            [1, 1, 1],
            [1, 2, 0],
            [0, 1, 3],
            [2, 0, 1],
            [1, -1, 1],
            [3, 1, -1],
            [1, 1, 0],
            [0, 1, 1],
        ] {
            let c0: i64 = a.iter().sum();
            cons.push(RefCon {
                row: big_row(&[c0, -a[0], -a[1], -a[2]]),
                eq: false,
            });
        }
        let mut s = build(n, &cons);
        for obj in [
            [0, 1, 1, 1],
            [0, 1, 0, 0],
            [2, 0, 1, -1],
            [0, 3, 2, 1],
            [0, -1, 0, 2],
        ] {
            check_against_ref(&mut s, n, &cons, &big_row(&obj), true);
            check_against_ref(&mut s, n, &cons, &big_row(&obj), false);
        }
    }

    #[test]
    fn equalities() {
        // x + y = 1, x - y = 0 -> (1/2, 1/2)
        let mut s = Simplex::new(2);
        s.add_eq(&row(&[-1, 1, 1]));
        s.add_eq(&row(&[0, 1, -1]));
        assert!(!s.is_empty());
        assert_eq!(s.sample_point().unwrap(), pt(&[(1, 2), (1, 2)]));
        assert_eq!(value_of(s.maximize(&row(&[0, 1, 0]))), q(1, 2));
        assert_eq!(value_of(s.minimize(&row(&[0, 1, 0]))), q(1, 2));
        // inconsistent: x + y = 1, x + y = 2
        let mut t = Simplex::new(2);
        t.add_eq(&row(&[-1, 1, 1]));
        assert!(!t.is_empty());
        t.add_eq(&row(&[-2, 1, 1]));
        assert!(t.is_empty());
        // implied equality is fine and marked redundant
        let mut u = Simplex::new(2);
        u.add_eq(&row(&[-1, 1, 1]));
        u.add_eq(&row(&[-2, 2, 2]));
        assert!(!u.is_empty());
        assert!(u.is_marked_redundant(1) && u.is_redundant(1) && !u.is_redundant(0));
        assert_eq!(u.maximize(&row(&[0, 1, 0])), LpResult::Unbounded);
        assert_eq!(value_of(u.maximize(&row(&[0, 1, 1]))), q(1, 1));
        assert_eq!(value_of(u.minimize(&row(&[0, 2, 2]))), q(2, 1));
        // equality with inequalities: x + y = 1, x, y >= 0
        let mut w = Simplex::new(2);
        w.add_ineq(&row(&[0, 1, 0]));
        w.add_ineq(&row(&[0, 0, 1]));
        w.add_eq(&row(&[-1, 1, 1]));
        let (v, p) = optimum(w.minimize(&row(&[0, 1, -1])));
        assert_eq!(v, q(-1, 1));
        assert_eq!(p, pt(&[(0, 1), (1, 1)]));
        // equality that needs restoring: 2x = 7 with x <= 3 -> empty; with x <= 4 fine
        let mut e = Simplex::new(1);
        e.add_ineq(&row(&[4, -1]));
        e.add_eq(&row(&[-7, 2]));
        assert!(!e.is_empty());
        assert_eq!(e.sample_point().unwrap(), pt(&[(7, 2)]));
        let mut f = Simplex::new(1);
        f.add_ineq(&row(&[3, -1]));
        f.add_eq(&row(&[-7, 2]));
        assert!(f.is_empty());
        // equality between two bounded variables, added after the bounds
        let mut g = Simplex::new(2);
        g.add_ineq(&row(&[-2, 1, 0])); // x >= 2
        g.add_ineq(&row(&[5, 0, -1])); // y <= 5
        g.add_eq(&row(&[0, 1, -1])); // x = y
        assert!(!g.is_empty());
        assert_eq!(value_of(g.maximize(&row(&[0, 1, 0]))), q(5, 1));
        assert_eq!(value_of(g.minimize(&row(&[0, 0, 1]))), q(2, 1));
        g.add_eq(&row(&[-6, 1, 0])); // x = 6 contradicts y <= 5
        assert!(g.is_empty());
        // 0 = 0 and 0 = 1
        let mut h = Simplex::new(1);
        h.add_eq(&row(&[0, 0]));
        assert!(!h.is_empty());
        h.add_eq(&row(&[1, 0]));
        assert!(h.is_empty());
    }

    #[test]
    fn lexmin_and_can_saturate() {
        // triangle x, y >= 0, x + y <= 4, y - x >= -2
        let mut s = Simplex::new(2);
        s.add_ineq(&row(&[0, 1, 0]));
        s.add_ineq(&row(&[0, 0, 1]));
        s.add_ineq(&row(&[4, -1, -1]));
        s.add_ineq(&row(&[2, -1, 1]));
        // lexmin (-x, y): max x = 3 at (3, 1)
        let (v, p) = optimum(s.lexmin(&[row(&[0, -1, 0]), row(&[0, 0, 1])]));
        assert_eq!(v, q(1, 1));
        assert_eq!(p, pt(&[(3, 1), (1, 1)]));
        // lexmin (x + y, -y): on x + y = 0 only (0, 0)
        let (v, p) = optimum(s.lexmin(&[row(&[0, 1, 1]), row(&[0, 0, -1])]));
        assert_eq!(v, q(0, 1));
        assert_eq!(p, pt(&[(0, 1), (0, 1)]));
        // lexmin (-x - y, -y): face x + y = 4, max y = 4
        let (v, p) = optimum(s.lexmin(&[row(&[0, -1, -1]), row(&[0, 0, -1])]));
        assert_eq!(v, q(-4, 1));
        assert_eq!(p, pt(&[(0, 1), (4, 1)]));
        // the temporary equalities are gone
        assert_eq!(s.n_con(), 4);
        assert_eq!(value_of(s.maximize(&row(&[0, 1, 0]))), q(3, 1));
        // lexmin (x, -y): x = 0 face is 0 <= y <= 4, so max y = 4
        let (v, p) = optimum(s.lexmin(&[row(&[0, 1, 0]), row(&[0, 0, -1])]));
        assert_eq!(v, q(-4, 1));
        assert_eq!(p, pt(&[(0, 1), (4, 1)]));
        // no objective: value 0 at the sample point
        let (v, p) = optimum(s.lexmin(&[]));
        assert_eq!(v, q(0, 1));
        assert_eq!(p, s.sample_point().unwrap());
        let mut u = Simplex::new(1);
        u.add_ineq(&row(&[0, 1]));
        assert_eq!(
            u.lexmin(&[row(&[0, 0]), row(&[0, -1])]),
            LpResult::Unbounded
        );
        // can_saturate
        assert!(s.can_saturate(&row(&[0, 1, 0]))); // x = 0
        assert!(s.can_saturate(&row(&[-3, 1, 0]))); // x = 3
        assert!(!s.can_saturate(&row(&[-4, 1, 0]))); // x = 4 impossible
        assert!(s.can_saturate(&row(&[-1, 1, 1]))); // x + y = 1
        assert!(!s.can_saturate(&row(&[1, 1, 1]))); // x + y = -1
        assert!(!s.can_saturate(&row(&[5, -1, -1]))); // x + y = 5
        assert!(s.can_saturate(&row(&[7, -2, -1])));
        assert!(u.can_saturate(&row(&[-100, 1])));
        assert!(!u.can_saturate(&row(&[1, 1])));
        assert!(!u.can_saturate(&row(&[1, 0])));
        assert!(u.can_saturate(&row(&[0, 0])));
    }

    #[test]
    fn snapshot_rollback() {
        let mut s = Simplex::new(2);
        s.add_ineq(&row(&[0, 1, 0]));
        s.add_ineq(&row(&[0, 0, 1]));
        s.add_ineq(&row(&[10, -1, -1]));
        let objs = [
            row(&[0, 1, 0]),
            row(&[0, -1, 0]),
            row(&[0, 1, -2]),
            row(&[3, -2, -3]),
        ];
        let answers =
            |s: &mut Simplex| -> Vec<(Result<Rational, LpResult>, Result<Rational, LpResult>)> {
                objs.iter()
                    .map(|o| (answer(s.minimize(o)), answer(s.maximize(o))))
                    .collect()
            };
        let before = answers(&mut s);
        let snap = s.snapshot();
        // make it empty, then restore
        s.add_ineq(&row(&[-20, 1, 1]));
        assert!(s.is_empty());
        s.add_eq(&row(&[-1, 1, 0]));
        s.rollback(snap);
        assert!(!s.is_empty());
        assert_eq!(s.n_con(), 3);
        assert_eq!(answers(&mut s), before);
        // equalities, a new variable, marks, nested snapshots
        s.add_eq(&row(&[-3, 1, -1]));
        let mid_answers = answers(&mut s);
        assert_eq!(value_of(s.maximize(&row(&[0, 1, 0]))), q(13, 2));
        let snap2 = s.snapshot();
        let z = s.add_var();
        assert_eq!(z, 2);
        s.add_ineq(&row(&[0, 1, 0, -1])); // z <= x
        s.add_ineq(&row(&[0, 0, 1, 1])); // z >= -y
        s.add_eq(&row(&[-1, 0, 0, 2])); // z = 1/2
        let c = s.add_ineq(&row(&[100, 0, 0, 1]));
        assert!(s.is_redundant(c));
        s.mark_redundant(c);
        assert_eq!(value_of(s.minimize(&row(&[0, 1, 0, 0]))), q(3, 1));
        s.rollback(snap2);
        assert_eq!(s.n_var(), 2);
        assert_eq!(answers(&mut s), mid_answers);
        s.rollback(snap);
        assert_eq!(answers(&mut s), before);
        // the same snapshot can be used again
        s.add_ineq(&row(&[-1, 1, 0]));
        s.rollback(snap);
        assert_eq!(answers(&mut s), before);
        // roll back to the very beginning
        s.rollback(Snapshot(0));
        assert_eq!(s.n_con(), 0);
        assert_eq!(s.minimize(&row(&[0, 1, 0])), LpResult::Unbounded);
    }

    #[test]
    fn rollback_of_wrong_redundancy_mark() {
        // mark a binding constraint redundant, move the point, then undo
        let mut s = Simplex::new(1);
        s.add_ineq(&row(&[0, 1])); // x >= 0
        let c = s.add_ineq(&row(&[5, -1])); // x <= 5
        let snap = s.snapshot();
        s.mark_redundant(c);
        assert_eq!(s.maximize(&row(&[0, 1])), LpResult::Unbounded);
        s.add_ineq(&row(&[-7, 1])); // x >= 7 (would be empty with x <= 5)
        assert!(!s.is_empty());
        s.rollback(snap);
        assert_eq!(value_of(s.maximize(&row(&[0, 1]))), q(5, 1));
        assert_eq!(value_of(s.minimize(&row(&[0, 1]))), q(0, 1));
        let p = s.sample_point().unwrap();
        assert!(p[0] >= q(0, 1) && p[0] <= q(5, 1));
    }

    #[test]
    fn rollback_after_optimisation_moved_the_point() {
        // a: x >= 0, d: x <= 10, c: x <= 5; drop c wrongly, let maximize move the
        // point to x = 10, roll back: c must be enforced again.
        let mut s = Simplex::new(1);
        s.add_ineq(&row(&[0, 1]));
        s.add_ineq(&row(&[10, -1]));
        let c = s.add_ineq(&row(&[5, -1]));
        let snap = s.snapshot();
        s.mark_redundant(c);
        assert_eq!(value_of(s.maximize(&row(&[0, 1]))), q(10, 1));
        s.rollback(snap);
        assert_eq!(value_of(s.maximize(&row(&[0, 1]))), q(5, 1));
        assert!(s.sample_point().unwrap()[0] <= q(5, 1));
    }

    #[test]
    fn rollback_removes_column_constraints_feasibly() {
        // x >= -20, x >= -10, then x >= 1 is restored by pivoting it into a
        // column; removing it must pick the row that keeps x >= -10 satisfied
        // (decreasing direction, minimum ratio), not just any row.
        let mut s = Simplex::new(1);
        s.add_ineq(&row(&[20, 1]));
        s.add_ineq(&row(&[10, 1]));
        let snap = s.snapshot();
        let c = s.add_ineq(&row(&[-1, 1]));
        assert!(matches!(s.cons[c].pos, Pos::Col(_)));
        s.rollback(snap);
        assert_eq!(value_of(s.minimize(&row(&[0, 1]))), q(-10, 1));
        assert!(s.sample_point().unwrap()[0] >= q(-10, 1));
        // the same upwards: x <= 20, x <= 10, then x <= -1
        let mut t = Simplex::new(1);
        t.add_ineq(&row(&[20, -1]));
        t.add_ineq(&row(&[10, -1]));
        let snap = t.snapshot();
        t.add_ineq(&row(&[-1, -1]));
        t.rollback(snap);
        assert_eq!(value_of(t.maximize(&row(&[0, 1]))), q(10, 1));
        assert!(t.sample_point().unwrap()[0] <= q(10, 1));
    }

    #[test]
    fn redundancy() {
        let mut s = Simplex::new(1);
        let a = s.add_ineq(&row(&[0, 1])); // x >= 0
        let b = s.add_ineq(&row(&[10, -1])); // x <= 10
        let c = s.add_ineq(&row(&[20, -1])); // x <= 20
        let d = s.add_ineq(&row(&[10, -1])); // x <= 10 again
        assert!(!s.is_redundant(a));
        assert!(s.is_redundant(c));
        assert!(s.is_redundant(b) && s.is_redundant(d));
        s.mark_redundant(b);
        assert!(!s.is_redundant(d), "the duplicate is needed once b is gone");
        assert!(s.is_redundant(c));
        s.mark_redundant(c);
        assert_eq!(value_of(s.maximize(&row(&[0, 1]))), q(10, 1));
        assert_eq!(value_of(s.minimize(&row(&[0, 1]))), q(0, 1));
        // 2-D: x, y >= 0, x + y <= 2, x <= 3 (redundant), x + 2y >= -1 (redundant)
        let mut t = Simplex::new(2);
        let cs = [
            t.add_ineq(&row(&[0, 1, 0])),
            t.add_ineq(&row(&[0, 0, 1])),
            t.add_ineq(&row(&[2, -1, -1])),
            t.add_ineq(&row(&[3, -1, 0])),
            t.add_ineq(&row(&[1, 1, 2])),
            t.add_ineq(&row(&[2, -1, 0])), // x <= 2: redundant (touches at (2,0))
        ];
        let red: Vec<bool> = cs.iter().map(|&k| t.is_redundant(k)).collect();
        assert_eq!(red, [false, false, false, true, true, true]);
        // the answers of is_redundant did not change the set
        assert_eq!(value_of(t.maximize(&row(&[0, 1, 3]))), q(6, 1));
        assert_eq!(value_of(t.minimize(&row(&[0, 1, 3]))), q(0, 1));
    }

    #[test]
    fn implicit_equalities() {
        // x, y >= 0, x + y <= 0: all three are implicit equalities
        let mut s = Simplex::new(2);
        s.add_ineq(&row(&[0, 1, 0]));
        s.add_ineq(&row(&[0, 0, 1]));
        s.add_ineq(&row(&[0, -1, -1]));
        assert_eq!(s.detect_implicit_equalities(), vec![0, 1, 2]);
        // x >= 1, x <= 1, y >= 0, y <= x + 3, x + y = z (eq), z <= 10
        let mut t = Simplex::new(3);
        t.add_ineq(&row(&[-1, 1, 0, 0]));
        t.add_ineq(&row(&[1, -1, 0, 0]));
        t.add_ineq(&row(&[0, 0, 1, 0]));
        t.add_ineq(&row(&[3, 1, -1, 0]));
        t.add_eq(&row(&[0, 1, 1, -1]));
        t.add_ineq(&row(&[10, 0, 0, -1]));
        assert_eq!(t.detect_implicit_equalities(), vec![0, 1]);
        // nothing changed
        assert_eq!(value_of(t.maximize(&row(&[0, 0, 0, 1]))), q(5, 1));
        assert_eq!(t.detect_implicit_equalities(), vec![0, 1]);
        // a constraint that had to be restored is a column; it can grow without
        // bound, so it is not an implicit equality
        let mut v = Simplex::new(1);
        v.add_ineq(&row(&[-1, 1]));
        assert!(matches!(v.cons[0].pos, Pos::Col(_)));
        assert!(v.detect_implicit_equalities().is_empty());
        v.add_ineq(&row(&[1, -1]));
        assert_eq!(v.detect_implicit_equalities(), vec![0, 1]);
        // a full-dimensional set has none
        let mut u = Simplex::new(2);
        u.add_ineq(&row(&[0, 1, 0]));
        u.add_ineq(&row(&[1, -1, 0]));
        u.add_ineq(&row(&[0, 1, -1]));
        assert!(u.detect_implicit_equalities().is_empty());
        // via a pair of opposite sums: x + y >= 2, x + y <= 2, x >= 0
        let mut w = Simplex::new(2);
        w.add_ineq(&row(&[0, 1, 0]));
        w.add_ineq(&row(&[-2, 1, 1]));
        w.add_ineq(&row(&[2, -1, -1]));
        assert_eq!(w.detect_implicit_equalities(), vec![1, 2]);
    }

    #[test]
    fn big_coefficients() {
        let p62: BigInt = BigInt::one() << 62;
        let p100: BigInt = BigInt::one() << 100;
        // 2^100 x <= 3·2^100 + 1  ->  max x = (3·2^100 + 1) / 2^100
        let mut s = Simplex::new(1);
        s.add_ineq(&[Int::from_big(&p100 * 3 + 1), Int::from_big(-p100.clone())]);
        let v = value_of(s.maximize(&row(&[0, 1])));
        assert_eq!(v.num.to_big(), &p100 * 3 + 1);
        assert_eq!(v.den.to_big(), p100.clone());
        assert_eq!(v.floor(), Int::from(3));
        assert_eq!(v.ceil(), Int::from(4));
        // 2-D polygon with huge coefficients, against the reference
        let n = 2;
        let cons = vec![
            RefCon {
                row: vec![BigInt::zero(), BigInt::one(), BigInt::zero()],
                eq: false,
            },
            RefCon {
                row: vec![BigInt::zero(), BigInt::zero(), BigInt::one()],
                eq: false,
            },
            RefCon {
                row: vec![&p100 * &p100, -p100.clone(), -(&p100 + BigInt::one())],
                eq: false,
            },
            RefCon {
                row: vec![p62.clone() * 2, -(&p62 + BigInt::from(3)), BigInt::one()],
                eq: false,
            },
            RefCon {
                row: vec![&p100 * 7 + 5, -BigInt::from(3), -(&p62 - BigInt::one())],
                eq: false,
            },
            RefCon {
                row: vec![BigInt::from(-1), p62.clone(), -(&p62 + BigInt::one())],
                eq: false,
            },
        ];
        let mut s = build(n, &cons);
        assert!(!s.is_empty());
        let objs = [
            vec![BigInt::zero(), BigInt::one(), BigInt::one()],
            vec![BigInt::zero(), p100.clone(), -BigInt::from(1)],
            vec![BigInt::from(5), -(&p62 * BigInt::from(3)), p100.clone() + 7],
            vec![BigInt::zero(), BigInt::zero(), -BigInt::one()],
        ];
        for o in &objs {
            check_against_ref(&mut s, n, &cons, o, true);
            check_against_ref(&mut s, n, &cons, o, false);
        }
        // an equality with big coefficients, then rollback
        let snap = s.snapshot();
        let eq = RefCon {
            row: vec![
                -(&p100 * BigInt::from(5)),
                p100.clone() * 3,
                p100.clone() + 1,
            ],
            eq: true,
        };
        s.add_eq(&to_ints(&eq.row));
        let mut cons2 = cons.clone();
        cons2.push(eq);
        for o in &objs {
            check_against_ref(&mut s, n, &cons2, o, true);
            check_against_ref(&mut s, n, &cons2, o, false);
        }
        s.rollback(snap);
        for o in &objs {
            check_against_ref(&mut s, n, &cons, o, false);
        }
        // inconsistent big equalities: 2^100 x + 2^62 y = 1 and 2^101 x + 2^63 y = 3
        let mut t = Simplex::new(2);
        t.add_eq(&[
            Int::from(-1),
            Int::from_big(p100.clone()),
            Int::from_big(p62.clone()),
        ]);
        assert!(!t.is_empty());
        t.add_eq(&[
            Int::from(-3),
            Int::from_big(&p100 * 2),
            Int::from_big(&p62 * 2),
        ]);
        assert!(t.is_empty());
    }

    // ------------------------------------------------ property tests

    type Lp = (usize, Vec<RefCon>, Vec<i64>);

    fn lp_strategy() -> impl Strategy<Value = Lp> {
        (2usize..=4).prop_flat_map(|n| {
            let con = (
                proptest::collection::vec(-5i64..=5, n),
                -10i64..=10,
                proptest::bool::weighted(0.2),
            )
                .prop_map(|(c, k, eq)| {
                    let mut r = vec![k];
                    r.extend(c);
                    RefCon {
                        row: big_row(&r),
                        eq,
                    }
                });
            (
                Just(n),
                proptest::collection::vec(con, 1..=6),
                proptest::collection::vec(-5i64..=5, n + 1),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Feasibility, optimum of random objectives, sample point, redundancy
        /// and implicit equalities against the vertex-enumeration reference.
        #[test]
        fn random_lps_agree_with_reference((n, random, obj) in lp_strategy()) {
            let mut cons = box_cons(n, 6);
            let n_box = cons.len();
            cons.extend(random.iter().cloned());
            let mut s = build(n, &cons);
            let verts = vertices(n, &cons);
            prop_assert_eq!(s.is_empty(), verts.is_empty());
            let obj = big_row(&obj);
            check_against_ref(&mut s, n, &cons, &obj, false);
            check_against_ref(&mut s, n, &cons, &obj, true);
            if verts.is_empty() {
                prop_assert!(s.sample_point().is_none());
                return Ok(());
            }
            let p = to_q(&s.sample_point().unwrap());
            prop_assert!(satisfies(&cons, &p));
            // implicit equalities: inequalities whose maximum is 0
            let want: Vec<usize> = (0..cons.len())
                .filter(|&k| !cons[k].eq)
                .filter(|&k| ref_opt(n, &cons, &cons[k].row, true).unwrap().is_zero())
                .collect();
            prop_assert_eq!(s.detect_implicit_equalities(), want);
            // redundancy of the random inequalities (dropping one keeps the box)
            for k in n_box..cons.len() {
                if cons[k].eq {
                    continue;
                }
                let mut rest = cons.clone();
                rest.remove(k);
                let m = ref_opt(n, &rest, &cons[k].row, false).unwrap();
                let want = m.cmp(&Q::zero()) != Ordering::Less;
                prop_assert_eq!(s.is_redundant(k), want, "constraint {}", k);
            }
            // drop redundant constraints greedily; the set must not change
            let mut kept = cons.clone();
            let mut dropped = 0;
            for (k, c) in cons.iter().enumerate() {
                if !c.eq && s.is_redundant(k) {
                    s.mark_redundant(k);
                    kept.remove(k - dropped);
                    dropped += 1;
                }
            }
            prop_assert_eq!(vertices(n, &kept).len(), verts.len());
            check_against_ref(&mut s, n, &cons, &obj, false);
            check_against_ref(&mut s, n, &cons, &obj, true);
            // can_saturate the objective at its optimum and just outside
            if let Some(m) = ref_opt(n, &cons, &obj, false) {
                let mut at = to_ints(&obj);
                // den·obj - num vanishes exactly at the minimum
                let den = Int::from_big(m.d.clone());
                for v in at.iter_mut() { *v *= &den; }
                at[0] -= Int::from_big(m.n.clone());
                prop_assert!(s.can_saturate(&at));
                at[0] += Int::from(1);
                prop_assert!(!s.can_saturate(&at));
            }
        }

        /// Adding constraints after a snapshot and rolling back gives back the
        /// exact answers of before, including through emptiness.
        #[test]
        fn rollback_restores_answers((n, random, obj) in lp_strategy(), split in 0usize..6, extra_var: bool) {
            let mut cons = box_cons(n, 6);
            let split = split.min(random.len());
            cons.extend(random[..split].iter().cloned());
            let mut s = build(n, &cons);
            let obj = row(&obj);
            let before = (s.is_empty(), answer(s.minimize(&obj)), answer(s.maximize(&obj)));
            let snap = s.snapshot();
            if extra_var {
                s.add_var();
                // z <= 3 + Σ x_i
                let mut r = vec![3i64];
                r.resize(n + 1, 1);
                r.push(-1);
                s.add_ineq(&row(&r));
            }
            let width = s.n_var();
            for c in &random[split..] {
                let mut r = to_ints(&c.row);
                r.resize(width + 1, Int::from(2));
                if c.eq { s.add_eq(&r); } else { s.add_ineq(&r); }
            }
            let mut o2 = obj.clone();
            o2.resize(width + 1, Int::from(1));
            let _ = s.minimize(&o2);
            let _ = s.detect_implicit_equalities();
            for k in 0..s.n_con() {
                if s.is_redundant(k) { s.mark_redundant(k); }
            }
            s.rollback(snap);
            prop_assert_eq!(s.n_var(), n);
            let after = (s.is_empty(), answer(s.minimize(&obj)), answer(s.maximize(&obj)));
            prop_assert_eq!(after, before);
        }
    }
}
