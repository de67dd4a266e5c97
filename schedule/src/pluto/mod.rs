//! Pluto-style automatic scheduling: the choice of scheduler and fusion
//! policy ([`SchedulerOptions`]) and the entry point [`compute`].
//!
//! [`lp`] finds permutable bands of hyperplanes on the LP relaxation of
//! Pluto's formulation (pluto-lp); [`dfp`] decides fusion and permutation
//! first (pluto-lp-dfp). Both build on `partial` (the schedule under
//! construction and its open dependences), `farkas` (the LPs),
//! `independence` and `graph` (components of the dependence graph).

pub(crate) mod cone;
pub mod dfp;
pub(crate) mod farkas;
pub(crate) mod graph;
pub(crate) mod independence;
pub mod lp;
pub(crate) mod partial;

use crate::deps::Dependences;
use crate::schedule::{Schedule, identity};
use crate::scop::Scop;
use presburger::Result;

/// Which scheduler [`compute`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scheduler {
    /// pluto-lp-dfp: fusion decided on the fusion conflict graph, then
    /// scaling, shifting and skewing per level.
    #[default]
    Dfp,
    /// pluto-lp: hyperplanes one at a time on the LP relaxation, loop
    /// distribution by strongly connected components when none is found.
    Lp,
    /// The original program order (the 2d+1 schedule of the SCoP).
    Identity,
}

/// How much loop fusion the scheduler aims for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Fusion {
    /// Fuse whatever can be fused.
    Max,
    /// The default: with `dfp`, the best by a cost model (the deepest
    /// outer permutable band, then the most parallel loops) of
    /// pluto-lp-dfp with Pluto's fusion rules (a statement whose loops are
    /// used up is distributed from the loops still running, unless a
    /// pluto-lp row keeps the band going), pluto-lp-dfp without fusion, and
    /// pluto-lp; with `lp`, Pluto's `smartfuse` (components of different
    /// loop depths distributed).
    #[default]
    Smart,
    /// Distribute every strongly connected component of the dependence
    /// graph into loops of its own.
    None,
}

/// How the Pluto LPs state Farkas' lemma (see `farkas.rs`; both are exact
/// statements of it, they differ in speed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FarkasMethod {
    /// Constraints from the generators of each piece's homogenised cone
    /// (multipliers eliminated), falling back to multipliers for a piece
    /// with more than `farkas::MAX_RAYS` generators.
    #[default]
    Generators,
    /// Multipliers as LP variables.
    Multipliers,
}

/// The options of [`compute`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SchedulerOptions {
    /// The scheduler.
    pub scheduler: Scheduler,
    /// The fusion policy (ignored by the identity scheduler).
    pub fuse: Fusion,
    /// How Farkas' lemma is stated in the LPs.
    pub farkas: FarkasMethod,
}

/// A schedule of `scop` for its dependences `deps`, by the scheduler and
/// fusion policy of `opts`; always valid for `deps` (checked by
/// [`crate::validity::check`]).
pub fn compute(scop: &Scop, deps: &Dependences, opts: &SchedulerOptions) -> Result<Schedule> {
    match (opts.scheduler, opts.fuse) {
        (Scheduler::Identity, _) => identity(scop, deps),
        (Scheduler::Lp, _) => lp::pluto_lp(scop, deps, opts),
        (Scheduler::Dfp, Fusion::Smart) => smart(scop, deps, opts),
        (Scheduler::Dfp, _) => dfp::pluto_dfp(scop, deps, opts),
    }
}

/// The default: the best of pluto-lp-dfp with Pluto's fusion rules,
/// pluto-lp-dfp with every component distributed, and pluto-lp with
/// Pluto's depth-based distribution, by a cost model: the deepest outermost permutable band
/// (what tiling can use), then the most parallel loops; the first on a tie
/// (so fusion is preferred). A candidate whose outer band holds every loop
/// of the deepest statement ends the search (nothing deeper exists).
/// Pluto's report leaves the cost model of fusion as future work; this one
/// is the measure the schedulers are compared with isl's by.
fn smart(scop: &Scop, deps: &Dependences, opts: &SchedulerOptions) -> Result<Schedule> {
    let full = scop
        .statements
        .iter()
        .map(|s| s.iterators.len())
        .max()
        .unwrap_or(0);
    let candidates = [
        (Scheduler::Dfp, Fusion::Smart),
        (Scheduler::Dfp, Fusion::None),
        (Scheduler::Lp, Fusion::Smart),
    ];
    let initial = partial::Partial::pieces_of(scop, deps)?;
    let mut best: Option<Schedule> = None;
    let score = |s: &Schedule| (s.outer_band_depth(), s.parallel_loops());
    for (scheduler, fuse) in candidates {
        let o = SchedulerOptions {
            scheduler,
            fuse,
            ..*opts
        };
        let s = match scheduler {
            Scheduler::Dfp => dfp::dfp_from(scop, deps, &initial, &o)?,
            _ => lp::lp_from(scop, deps, &initial, &o)?,
        };
        let done = s.outer_band_depth() >= full;
        if best.as_ref().is_none_or(|b| score(&s) > score(b)) {
            best = Some(s);
        }
        if done {
            break;
        }
    }
    match best {
        Some(b) => Ok(b),
        None => identity(scop, deps),
    }
}
