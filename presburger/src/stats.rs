//! Process-wide counters of where the solver spends its work, for users who want to
//! see it on their workload (`poly batch --stats`).
//!
//! The counters are relaxed atomics, incremented only on events that are rare or
//! already expensive (an emptiness check, a node of the Omega test, a splinter, a
//! value that needed a big integer), so they cost nothing measurable. They are
//! observations only: no result depends on them.

use std::sync::atomic::{AtomicU64, Ordering};

/// A snapshot of the counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Emptiness checks of single conjunctions.
    pub emptiness_checks: u64,
    /// Of those, answered by the SDBM fast path.
    pub sdbm_fast_path: u64,
    /// Of those, that fitted the SDBM class but fell back (constants too large).
    pub sdbm_fallbacks: u64,
    /// Recursive calls of the Omega test.
    pub omega_nodes: u64,
    /// Splinter branches of the Omega test (the non-exact case).
    pub splinters: u64,
    /// Nodes of the integer sampler's search (simplex + basis reduction).
    pub sample_nodes: u64,
    /// Results of integer operations that did not fit in 64 bits.
    pub big_values: u64,
}

static EMPTINESS: AtomicU64 = AtomicU64::new(0);
static FAST: AtomicU64 = AtomicU64::new(0);
static FALLBACK: AtomicU64 = AtomicU64::new(0);
static OMEGA: AtomicU64 = AtomicU64::new(0);
static SPLINTERS: AtomicU64 = AtomicU64::new(0);
static BIG: AtomicU64 = AtomicU64::new(0);
static SAMPLE: AtomicU64 = AtomicU64::new(0);

#[derive(Clone, Copy)]
pub(crate) enum Counter {
    Emptiness,
    SdbmFast,
    SdbmFallback,
    OmegaNode,
    Splinter,
    BigValue,
    SampleNode,
}

#[inline]
pub(crate) fn count(c: Counter) {
    let a = match c {
        Counter::Emptiness => &EMPTINESS,
        Counter::SdbmFast => &FAST,
        Counter::SdbmFallback => &FALLBACK,
        Counter::OmegaNode => &OMEGA,
        Counter::Splinter => &SPLINTERS,
        Counter::BigValue => &BIG,
        Counter::SampleNode => &SAMPLE,
    };
    a.fetch_add(1, Ordering::Relaxed);
}

/// The counters now.
pub fn snapshot() -> Stats {
    Stats {
        emptiness_checks: EMPTINESS.load(Ordering::Relaxed),
        sdbm_fast_path: FAST.load(Ordering::Relaxed),
        sdbm_fallbacks: FALLBACK.load(Ordering::Relaxed),
        omega_nodes: OMEGA.load(Ordering::Relaxed),
        splinters: SPLINTERS.load(Ordering::Relaxed),
        big_values: BIG.load(Ordering::Relaxed),
        sample_nodes: SAMPLE.load(Ordering::Relaxed),
    }
}

/// Sets every counter to zero.
pub fn reset() {
    for a in [
        &EMPTINESS, &FAST, &FALLBACK, &OMEGA, &SPLINTERS, &BIG, &SAMPLE,
    ] {
        a.store(0, Ordering::Relaxed);
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let share = if self.emptiness_checks == 0 {
            0.0
        } else {
            100.0 * self.sdbm_fast_path as f64 / self.emptiness_checks as f64
        };
        write!(
            f,
            "{} emptiness checks, {} by the SDBM fast path ({share:.1}%), {} SDBM fallbacks, \
             {} sampler nodes, {} Omega-test nodes, {} splinters, {} big-integer values",
            self.emptiness_checks,
            self.sdbm_fast_path,
            self.sdbm_fallbacks,
            self.sample_nodes,
            self.omega_nodes,
            self.splinters,
            self.big_values
        )
    }
}
