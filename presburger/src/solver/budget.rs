//! [`Budget`]: the work limit every expensive query takes. Running out is
//! [`Error::Budget`], never a wrong answer.

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A limit on the work of an integer query, counted in rows built and recursive
/// calls. Running out makes the query return [`Error::Budget`].
///
/// A budget can be *shared* ([`Budget::share`]): the shared handles draw from one
/// pool of steps, so that the independent sub-queries of one operation (run in
/// parallel, e.g. the emptiness tests of a subtraction) are bounded together.
/// Cloning a shared budget gives another handle on the same pool.
///
/// ```
/// use presburger::{Budget, Error, Set};
/// let a: Set = "{ [i, j] : 0 <= i, j < 1000 }".parse()?;
/// let b: Set = "{ [i, j] : i + j = 999 or i = j }".parse()?;
/// // a budget too small ends the operation with an error, never a wrong answer
/// assert!(matches!(a.subtract_with_budget(&b, &mut Budget::new(5)), Err(Error::Budget(_))));
/// assert!(a.subtract_with_budget(&b, &mut Budget::new(1_000_000)).is_ok());
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Budget {
    remaining: u64,
    pool: Option<Arc<AtomicU64>>,
}

impl Budget {
    /// The default: ten million steps (about two seconds of work on this project's
    /// 2-core machine). Compiler-sized problems need far less; bounded systems of
    /// about ten variables with large gaps can need a million or more.
    pub const DEFAULT_STEPS: u64 = 10_000_000;

    /// A budget of `steps` units of work.
    pub fn new(steps: u64) -> Budget {
        Budget {
            remaining: steps,
            pool: None,
        }
    }

    /// What is left.
    pub fn remaining(&self) -> u64 {
        match &self.pool {
            Some(p) => p.load(Ordering::Relaxed),
            None => self.remaining,
        }
    }

    /// Another handle on this budget's steps, usable on another thread: from now on
    /// `self` and every handle spend from one pool.
    pub fn share(&mut self) -> Budget {
        let pool = self
            .pool
            .get_or_insert_with(|| Arc::new(AtomicU64::new(self.remaining)))
            .clone();
        Budget {
            remaining: 0,
            pool: Some(pool),
        }
    }

    pub(crate) fn spend(&mut self, n: usize) -> Result<()> {
        let n = n as u64;
        let ok = match &self.pool {
            Some(p) => p
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |r| r.checked_sub(n))
                .is_ok(),
            None => match self.remaining.checked_sub(n) {
                Some(r) => {
                    self.remaining = r;
                    true
                }
                None => false,
            },
        };
        if !ok {
            match &self.pool {
                Some(p) => p.store(0, Ordering::Relaxed),
                None => self.remaining = 0,
            }
            return Err(Error::Budget(
                "the integer solver exceeded its work budget; raise it with Budget::new".into(),
            ));
        }
        Ok(())
    }
}

impl Budget {
    /// Runs a step whose answer only improves a result (a shorter gist, more
    /// disjuncts merged) on a quarter of what is left, charging what it
    /// spent. Running out of that share is `Ok(None)` ("cannot tell"), so
    /// that the caller keeps its plainer, equally exact answer instead of
    /// failing; other errors pass through.
    pub(crate) fn optional<T>(
        &mut self,
        f: impl FnOnce(&mut Budget) -> Result<T>,
    ) -> Result<Option<T>> {
        let share = self.remaining() / 4;
        self.capped(share, f)
    }

    /// As [`Budget::optional`], on at most `cap` steps (fewer when less is
    /// left): for the many small attempts of one operation (one per pair of
    /// disjuncts in coalescing), each of which may be given up on its own.
    ///
    /// Invariants: what `f` spent is charged to `self`, so the attempts of
    /// an operation stay bounded by its budget; running out of the cap is
    /// never an error for the caller (but a later step of the caller fails
    /// when the cap was all that was left); `f`'s other errors pass through.
    pub(crate) fn capped<T>(
        &mut self,
        cap: u64,
        f: impl FnOnce(&mut Budget) -> Result<T>,
    ) -> Result<Option<T>> {
        let share = cap.min(self.remaining());
        let mut sub = Budget::new(share);
        let r = f(&mut sub);
        let spent = share - sub.remaining();
        self.spend(usize::try_from(spent).unwrap_or(usize::MAX))?;
        match r {
            Ok(v) => Ok(Some(v)),
            Err(Error::Budget(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(Budget::DEFAULT_STEPS)
    }
}
