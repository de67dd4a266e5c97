//! pluto-lp: Pluto's scheduler on the LP relaxation.
//!
//! # Idea
//!
//! Pluto (Bondhugula, Hartono, Ramanujam, Sadayappan, PLDI 2008) finds the
//! rows of a schedule one at a time, outermost first. Each row satisfies
//! tiling validity on every dependence pair not ordered before the current
//! band, and the bounding function `φ_T(y) − φ_S(x) ≤ u·p + w` whose
//! lexicographic minimum `(u, w, coefficients)` makes dependence distances
//! short and zero when it can (an outer parallel row); see `farkas.rs`
//! for the linearisation. Coefficients are non-negative, iterator
//! coefficients at most [`COEFF_BOUND`], parameter coefficients zero; a
//! statement that still needs rows gets Pluto's non-triviality and
//! linear-independence constraint (`independence.rs`), a complete
//! statement takes part in later rows through validity only.
//!
//! The LP is solved exactly as a sequence of LPs on `presburger`'s simplex
//! (each optimum fixed before the next, no weighted sum), and the rational
//! solution is scaled to integers: the relaxation keeps validity under
//! scaling and finds outer parallel and permutable rows exactly when the ILP
//! does (Acharya, Bondhugula, Cohen, "Polyhedral auto-transformation with no
//! integer linear programming", PLDI 2018, and Sec. 2 of the pluto-lp-dfp
//! report).
//!
//! When no row is found: if the band has rows, it ends; the pairs its rows
//! order leave, and the next band starts with the others (`Partial` (`partial.rs`)).
//! If the band is empty, the strongly connected components of the open
//! pairs are distributed (a scalar dimension, a *cut*); when there is one
//! component, the scheduler gives up and `Partial::finish` completes the
//! schedule with the original order.
//!
//! Fusion: [`Fusion::None`] distributes every component first;
//! [`Fusion::Smart`] (Pluto's default) cuts between consecutive components
//! of different loop depths first; [`Fusion::Max`] cuts only when no row
//! exists.

use super::independence::add_independence;
use super::independence::n_choices;
use super::partial::{InitialDeps, Partial};
use super::{Fusion, SchedulerOptions};
use crate::deps::Dependences;
use crate::schedule::Schedule;
use crate::scop::Scop;
use presburger::{Int, Result};

/// The bound on each iterator coefficient of a row, in the LP (before
/// scaling to integers).
pub const COEFF_BOUND: i64 = 4;

/// The pluto-lp schedule of `scop` for its dependences `deps` (see the
/// module doc): permutable bands, scalar dimensions for distribution, the
/// parallel dimensions. Fails only when a `presburger` operation does.
pub fn pluto_lp(scop: &Scop, deps: &Dependences, opts: &SchedulerOptions) -> Result<Schedule> {
    lp_from(scop, deps, &Partial::pieces_of(scop, deps)?, opts)
}

/// [`pluto_lp`] from the dependence pieces `initial` of `deps`.
pub(crate) fn lp_from(
    scop: &Scop,
    deps: &Dependences,
    initial: &InitialDeps,
    opts: &SchedulerOptions,
) -> Result<Schedule> {
    let fuse = opts.fuse;
    let mut st = Partial::new(scop, initial, opts.farkas);
    match fuse {
        Fusion::None => {
            st.cut_all_sccs()?;
        }
        Fusion::Smart => st.cut_by_depth()?,
        Fusion::Max => {}
    }
    lp_rows(&mut st)?;
    st.finish(deps)
}

/// Adds rows (and cuts) to `st` by the pluto-lp steps of the module doc
/// until every statement is complete or no progress is possible.
pub(crate) fn lp_rows(st: &mut Partial) -> Result<()> {
    let max_dims = 4
        * (st.layout.n_stmt() + 2)
        * (1 + (0..st.n_stmt())
            .map(|s| st.layout.n_iter(s))
            .max()
            .unwrap_or(0));
    while !st.all_complete() && st.n_dims() < max_dims {
        if let Some(rows) = next_row(st)? {
            st.push_rows(rows)?;
            continue;
        }
        if st.band_is_open() {
            st.close_band();
            continue;
        }
        if st.cut_all_sccs()? {
            continue;
        }
        break;
    }
    Ok(())
}

/// The next row of the open band: tiling validity and bounding on the
/// band's pairs, independence for the statements not complete, the
/// lexicographic minimum; `None` when infeasible.
pub(crate) fn next_row(st: &mut Partial) -> Result<Option<Vec<Vec<Int>>>> {
    let needs: Vec<bool> = (0..st.n_stmt()).map(|s| !st.is_complete(s)).collect();
    let rows: Vec<Vec<Vec<Int>>> = (0..st.n_stmt()).map(|s| st.rows(s).to_vec()).collect();
    let order = st.objective();
    let layout = st.layout.clone();
    let max_choice = (0..layout.n_stmt())
        .map(|s| n_choices(layout.n_iter(s)))
        .max()
        .unwrap_or(1);
    let lp = st.band_lp()?;
    // Pluto's combined independence constraint first (choice 0); when it
    // is infeasible, one basis vector with one sign for every statement
    let mut found = None;
    for choice in 0..max_choice {
        let snap = lp.snapshot();
        for (s, &need) in needs.iter().enumerate() {
            let n = layout.n_iter(s);
            for k in 0..n {
                let below: Vec<(usize, Int)> = layout
                    .entry(s, k)
                    .iter()
                    .map(|(v, x)| (*v, -x.clone()))
                    .collect();
                lp.ge(&below, COEFF_BOUND);
            }
            if need {
                add_independence(lp, &layout, s, &rows[s], choice);
            }
        }
        found = lp.lexmin(&order);
        lp.rollback(snap);
        if found.is_some() {
            break;
        }
    }
    let Some(point) = found else {
        return Ok(None);
    };
    Ok(Some(layout.integer_rows(&point)))
}
