//! [`Budget`]: the work limit every expensive query takes. Running out is
//! [`Error::Budget`], never a wrong answer.

use crate::error::{Error, Result};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

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
            return Err(exhausted());
        }
        Ok(())
    }
}

/// The error of a budget that ran out.
fn exhausted() -> Error {
    Error::Budget("the integer solver exceeded its work budget; raise it with Budget::new".into())
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

/// One exact method of a [`Budget::portfolio`].
pub(crate) type Method<'m, T> = dyn FnMut(&mut Budget) -> Result<T> + 'm;

impl Budget {
    /// The first exact method of `methods` to answer, run as a portfolio:
    /// in rounds, each method in turn on a cap, until one answers within its
    /// cap or the budget runs out (then [`Error::Budget`]). The first
    /// method's cap starts at `first_cap` steps, each later method's is a
    /// quarter of the one before it (the likely winner goes first), and all
    /// grow fourfold per round. Every method must give the same (exact)
    /// answer; they differ only in how long they take on a given input.
    ///
    /// The idea is that of restart portfolios in constraint solvers (Gomes
    /// and Selman, "Algorithm portfolios", 2001): when one search stalls on
    /// an input that another decides at once, the total is at most a small
    /// constant times the cheapest method's cost, instead of the stalled
    /// method's. With two methods and caps growing geometrically, a first
    /// method that answers after `x` steps costs at most about `x` plus a
    /// third for its restarts plus a third for the second method; a second
    /// method that answers after `y` steps costs at most about seven `y`.
    ///
    /// Invariants: the steps of every run are charged to `self`; other
    /// errors of a method pass through at once.
    pub(crate) fn portfolio<T>(
        &mut self,
        first_cap: u64,
        methods: &mut [&mut Method<'_, T>],
    ) -> Result<T> {
        let mut cap = first_cap.max(1);
        loop {
            for (i, m) in methods.iter_mut().enumerate() {
                if self.remaining() == 0 {
                    return Err(exhausted());
                }
                let share = (cap >> (2 * i.min(31))).max(1);
                if let Some(answer) = self.capped(share, |b| m(b))? {
                    return Ok(answer);
                }
            }
            cap = cap.saturating_mul(4);
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(Budget::DEFAULT_STEPS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A method that answers after `cost` steps (spending one at a time).
    fn costs(cost: u64, answer: u32) -> impl FnMut(&mut Budget) -> Result<u32> {
        move |b: &mut Budget| {
            for _ in 0..cost {
                b.spend(1)?;
            }
            Ok(answer)
        }
    }

    #[test]
    fn portfolio_takes_the_cheap_method_at_bounded_extra_cost() {
        let mut slow = costs(1_000_000, 1);
        let mut fast = costs(5_000, 2);
        let mut b = Budget::new(10_000_000);
        let r = b.portfolio(400, &mut [&mut slow, &mut fast]);
        assert_eq!(r.unwrap(), 2);
        let spent = 10_000_000 - b.remaining();
        // caps 400/100, 1600/400, 6400/1600, 25600/6400: the fast (second)
        // method answers in the fourth round
        let bound = (400 + 1600 + 6400 + 25600) + (100 + 400 + 1600) + 5000;
        assert!(spent <= bound, "spent {spent}");
        assert!(spent >= 5_000);
        // the other way round: the first method answers, the second costs
        // a third of it at most
        let mut slow = costs(1_000_000, 1);
        let mut fast = costs(5_000, 2);
        let mut b = Budget::new(10_000_000);
        assert_eq!(b.portfolio(400, &mut [&mut fast, &mut slow]).unwrap(), 2);
        let spent = 10_000_000 - b.remaining();
        assert!(
            spent <= (400 + 1600) + (100 + 400 + 1600) + 5000,
            "spent {spent}"
        );
    }

    #[test]
    fn portfolio_runs_out_cleanly() {
        let mut a = costs(u64::MAX, 1);
        let mut c = costs(u64::MAX, 1);
        let mut b = Budget::new(50_000);
        let r = b.portfolio(10, &mut [&mut a, &mut c]);
        assert!(matches!(r, Err(Error::Budget(_))));
        assert_eq!(b.remaining(), 0);
    }

    #[test]
    fn portfolio_passes_other_errors_through() {
        let mut bad = |_: &mut Budget| -> Result<u32> { Err(Error::Invalid("x".into())) };
        let mut good = costs(1, 3);
        let mut b = Budget::new(1000);
        let r = b.portfolio(10, &mut [&mut bad, &mut good]);
        assert!(matches!(r, Err(Error::Invalid(_))));
    }
}
