//! The work limit of one code generation: one pool of solver steps (the
//! units of [`presburger::Budget`]) from which every query of the phase
//! (inversion, separation, ordering, guards, simplification) draws, so that
//! one call of [`crate::generate`] is bounded as a whole instead of each
//! query on its own.
//!
//! A query is run on a [`Budget`] of what is left (or less: a cap for the
//! queries whose "don't know" has a safe answer), and what it spent is
//! taken from the pool. When the pool is empty the generation stops with
//! [`Error::WorkLimit`], which names the step it was in.

use crate::error::{Error, Result};
use presburger::Budget;
use std::cell::{Cell, RefCell};

/// The default work limit of one code generation ([`crate::Options::max_steps`]),
/// in solver steps: twice [`Budget::DEFAULT_STEPS`], the default of one
/// `presburger` query.
pub const DEFAULT_MAX_STEPS: u64 = 2 * Budget::DEFAULT_STEPS;

/// The pool of steps of one code generation and the step it is in (for the
/// message when the pool runs dry). Shared by reference through the scan;
/// single-threaded, hence the cells.
pub(crate) struct Work {
    limit: u64,
    left: Cell<u64>,
    phase: RefCell<String>,
}

impl Work {
    /// A pool of `limit` steps.
    pub(crate) fn new(limit: u64) -> Work {
        Work {
            limit,
            left: Cell::new(limit),
            phase: RefCell::new("starting".into()),
        }
    }

    /// The steps spent so far.
    #[cfg(test)]
    pub(crate) fn spent(&self) -> u64 {
        self.limit - self.left.get()
    }

    /// Records what the generator does now (`"separating the statements at
    /// c1"`), for the message of [`Error::WorkLimit`].
    pub(crate) fn enter(&self, phase: String) {
        *self.phase.borrow_mut() = phase;
    }

    /// The error of an empty pool.
    fn exhausted(&self) -> Error {
        Error::WorkLimit {
            steps: self.limit,
            phase: self.phase.borrow().clone(),
        }
    }

    /// An error when the pool is empty (checked between queries that do
    /// not spend, so that a loop of cheap steps also stops).
    pub(crate) fn check(&self) -> Result<()> {
        if self.left.get() == 0 {
            return Err(self.exhausted());
        }
        Ok(())
    }

    /// Runs `f` on a budget of at most `cap` steps (fewer when less is
    /// left) and takes what it spent from the pool. `Ok(None)` when `f` ran
    /// out of its cap while the pool still has steps (the caller then takes
    /// its safe answer); [`Error::WorkLimit`] when the pool is empty, before
    /// or after `f`; `f`'s other errors pass through.
    pub(crate) fn capped<T>(
        &self,
        cap: u64,
        f: impl FnOnce(&mut Budget) -> presburger::Result<T>,
    ) -> Result<Option<T>> {
        self.check()?;
        let given = cap.min(self.left.get());
        let mut b = Budget::new(given);
        let r = f(&mut b);
        let spent = given.saturating_sub(b.remaining());
        self.left.set(self.left.get().saturating_sub(spent));
        match r {
            Ok(v) => Ok(Some(v)),
            Err(presburger::Error::Budget(_)) if self.left.get() == 0 || given == 0 => {
                Err(self.exhausted())
            }
            Err(presburger::Error::Budget(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Runs `f` on everything that is left: a query the generation cannot
    /// do without. Running out of the pool is [`Error::WorkLimit`]; a
    /// budget error of `f` that is not the pool's (a query's own cap, such
    /// as the most disjuncts a rewriting may make) passes through with the
    /// phase added to its message.
    pub(crate) fn required<T>(
        &self,
        f: impl FnOnce(&mut Budget) -> presburger::Result<T>,
    ) -> Result<T> {
        self.check()?;
        let given = self.left.get();
        let mut b = Budget::new(given);
        let r = f(&mut b);
        let spent = given.saturating_sub(b.remaining());
        self.left.set(self.left.get().saturating_sub(spent));
        match r {
            Ok(v) => Ok(v),
            Err(presburger::Error::Budget(_)) if self.left.get() == 0 => Err(self.exhausted()),
            Err(presburger::Error::Budget(m)) => Err(Error::Presburger(presburger::Error::Budget(
                format!("{m} (while {})", self.phase.borrow()),
            ))),
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use presburger::Set;

    fn sets() -> (Set, Set) {
        let a: Set = "{ [i, j] : 0 <= i, j < 1000 }".parse().unwrap();
        let b: Set = "{ [i, j] : i + j = 999 or i = j }".parse().unwrap();
        (a, b)
    }

    #[test]
    fn queries_draw_from_one_pool() {
        let (a, b) = sets();
        let w = Work::new(10_000_000);
        let r = w.required(|bg| a.subtract_with_budget(&b, bg)).unwrap();
        assert!(!r.is_empty().unwrap());
        let once = w.spent();
        assert!(once > 0);
        w.required(|bg| a.subtract_with_budget(&b, bg)).unwrap();
        assert_eq!(w.spent(), 2 * once);
    }

    #[test]
    fn an_empty_pool_names_the_phase() {
        let (a, b) = sets();
        let w = Work::new(5);
        w.enter("separating the statements at c0".into());
        let e = w.required(|bg| a.subtract_with_budget(&b, bg)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "code generation ran out of its work limit (5 steps) while separating the \
             statements at c0"
        );
        // once empty, every query fails at once, capped or not
        assert!(matches!(
            w.capped(3, |bg| a.is_disjoint_with_budget(&b, bg)),
            Err(Error::WorkLimit { steps: 5, .. })
        ));
    }

    #[test]
    fn a_cap_that_runs_out_is_none_while_the_pool_lasts() {
        let (a, b) = sets();
        let w = Work::new(1_000_000);
        assert!(
            w.capped(2, |bg| a.subtract_with_budget(&b, bg))
                .unwrap()
                .is_none()
        );
        assert!(w.spent() <= 2);
        assert!(
            w.capped(1_000_000, |bg| a.is_disjoint_with_budget(&b, bg))
                .unwrap()
                == Some(false)
        );
    }
}
