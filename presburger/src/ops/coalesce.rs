//! Coalescing: the same set or map with fewer disjuncts.
//!
//! What it computes: a union of conjunctions with exactly the integer points of
//! the input, where a disjunct contained in another is dropped and two
//! disjuncts are replaced by one conjunction whenever a conjunction built from
//! their constraints has exactly the points of their union.
//!
//! The idea. For two disjuncts `a` and `b`, every constraint considered is an
//! inequality (an equality is the pair of inequalities `e >= 0`, `-e >= 0`),
//! and each constraint `c >= 0` of one is classified against the other,
//! rationally by the minimum `m` of `c` over the other (a linear program on its
//! tableau), and over the integers by [`Region::holds`] when the tableau cannot
//! tell:
//! - *valid*: `c >= 0` holds on the other disjunct; it is kept as it is;
//! - *not valid, bounded* (`m` finite; `m = -1` is the "adjacent" case, where
//!   the other disjunct touches the facet `c = -1`): it is kept relaxed to
//!   `c - ceil(m) >= 0`, which holds on both (this covers the *extension*
//!   case, a disjunct sticking out of the other by one, and more);
//! - *not valid* at all: it is also *wrapped* (see below) when the first
//!   candidate fails.
//!
//! Every constraint of the candidate `H` holds on `a` and on `b`, so `H`
//! contains `a ∪ b`; `H` replaces the two when it has no integer point outside
//! `a ∪ b`, which an exact integer test decides on the tableau of `H`
//! ([`Region::point_outside_both`]: in each piece of `H` minus `a`, a point
//! where a constraint of `b` fails). A merge is never made on
//! anything less, so the result always has the points of the input. Adding a
//! constraint valid on both can only shrink `H`, so one candidate, as tight as
//! can be built, replaces the separate cases (fuse: only the valid
//! constraints; extension: the relaxed ones; wrapping).
//!
//! *Wrapping*: a constraint `f >= 0` of `a` that cuts `b` is turned around
//! its ridge with another constraint `r >= 0` of `a` (both hold on `a`) until
//! it holds on `b`: the least `λ >= 0` with `f + λ·r >= 0` on `b` is the
//! maximum of `-f / r` over `b` where `r > 0`, a linear program on the
//! homogenised constraints of `b` (variables `(t, t·x)`, `t >= 0`, `r = 1`),
//! which also sees the unbounded directions of `b` (`t = 0`: "unbounded
//! wrapping"). The wrapped row is then relaxed to hold on all of `b` if the
//! points where `r <= 0` need it. Wrapping is not tried when a constraint of
//! one side is *separating* (the other side lies entirely at `c <= -2`): it
//! then hardly ever gives an exact candidate, and skipping it halves the time
//! of the many pairs that do not merge (six separate slabs: 0.86 -> 0.39 ms;
//! 10^4 random unions: 26404 -> 26723 disjuncts left, isl 28639). Nor are
//! the cut constraints of a side with more than [`MAX_CUT_TO_WRAP`] of them,
//! or with a constraint unbounded below over the other; when either side has
//! such a constraint, only a side with one cut constraint is wrapped, and
//! only when the point refuting the candidate satisfies the unbounded
//! constraints ([`MAX_CUT_UNBOUNDED`]). A wrapped
//! candidate that still contains the point refuting the unwrapped one fails
//! without a second exact test; the ridges whose rows may cut that point
//! off are wrapped first, and when none of their rows does, wrapping stops
//! there ([`wrapped_rows`]).
//!
//! Divisions: the two disjuncts are first given the same local variables, the
//! union of their division definitions (a division is a function of the
//! variables, so adding one to a conjunction does not change its points), and
//! the defining inequalities of every division are constraints of both. Then
//! the disjuncts are compared as sets in the space extended by the divisions,
//! the case of "equal divisions". A disjunct with a local that has no
//! division definition is rewritten with divisions first when that gives one
//! conjunction ([`super::algebra::explicit_locals_with`]); otherwise it is
//! only dropped when contained in another, never merged.
//!
//! Work. Keeping two disjuncts side by side is always exact, so every test
//! that only serves to drop or merge more runs on a step cap of its own
//! ([`Budget::capped`]; past it the pair is kept): with coefficients near
//! `2^70` one exact test can need seconds of integer search (vs_isl's
//! random and bigcoef families timed out on it). An integer point of each
//! disjunct, found by the emptiness test that drops empty ones, answers
//! most "is this disjunct inside that one" questions by evaluation (a point
//! outside says no) and is the first known point of the classification;
//! the integer points of a disjunct found by later merge attempts join it
//! (at most [`MEMBER_POINTS`]).
//! That search runs on a cap too ([`SAMPLE_STEPS`]): a disjunct whose point
//! is not found within it (one near an integer gap) is kept as it is, never
//! merged nor tested inside another (isl does not test integer emptiness
//! in coalescing at all). A merge is not attempted when both disjuncts
//! have more than a few constraints that do not hold on the other
//! ([`MAX_CUT_TO_MERGE`]): such pairs hardly ever merge.
//! A disjunct with plain existentials (no division found for them without a
//! split into cases) is never merged; it is sampled only when an inside
//! test first needs its point, and a point outside it is found by a small
//! integer test with the point fixed.
//!
//! Source: S. Verdoolaege, "Integer Set Coalescing", IMPACT 2015 (the
//! classification of constraints as valid, separating, cut or adjacent, and the
//! cases of fusion, extension and wrapping, also of unbounded disjuncts, and
//! disjuncts with existentially quantified variables), and the ideas of isl's
//! `isl_coalesce.c`.

use super::algebra::{Region, explicit_locals_single, same_padded};
use crate::api::Disjunction;
use crate::conjunction::{
    BuildRowHasher, Conjunction, Div, Row, div_constraints, implies_row, normalize_ineq,
};
use crate::error::Result;
use crate::int::Int;
use crate::omega::Budget;
use crate::simplex::{LpValue, Rational, Simplex};
use crate::solver::solve::contains_in;
use crate::space::Space;
use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BTreeSet, HashSet};
use std::ops::Bound;

/// Most steps spent on rewriting the plain existentials of one disjunct into
/// divisions before coalescing (past it the disjunct is left as it is).
const EXPLICIT_STEPS: u64 = 20_000;

/// Most steps of the test whether one disjunct lies inside another (past
/// it the two are both kept).
const INSIDE_STEPS: u64 = 1_000;

/// Most steps of one attempt to merge two disjuncts (past it they are not).
const MERGE_STEPS: u64 = 20_000;

/// Most steps of the search for an integer point of one disjunct (past it
/// the disjunct is kept, and tested without a point). A disjunct near an
/// integer gap can need far more: on vs_isl's random family one took
/// 148,520 steps to be found empty, and sampling was 63% of the family's
/// instructions (614 -> 406 M with the cap). 2,000 -> 500 (2026-11-27):
/// bigcoef's instructions -24% and random's -22% (14 of bigcoef's 67 and 8
/// of random's 178 searches used the whole 2,000 steps, for nothing); the
/// disjuncts found empty between the two caps are kept: bigcoef 34 -> 42
/// left, random 91 -> 97, still fewer than isl's on both (isl keeps every
/// disjunct that is rationally non-empty); none of the random unions or of
/// isl's tables needs more than 172 steps.
const SAMPLE_STEPS: u64 = 500;

/// Largest relaxation tried over the integers below the rational one.
const MAX_TIGHTEN: i64 = 8;

/// Only a disjunct with at most this many constraints that do not hold on the
/// other has them wrapped (4 -> 2, then for one of the two disjuncts: sdbm's
/// coalesce replay 2.50 -> 1.85 G instructions, tiled -11%; the isl tables
/// 106 -> 107 disjuncts; since 2026-11-27 for each disjunct on its own:
/// random unions -7%, tiled -10%, sdbm -7%, the isl tables 107 -> 108;
/// still at most isl's on every entry).
const MAX_CUT_TO_WRAP: usize = 2;

/// A merge is tried only when one of the two disjuncts has at most this
/// many constraints that do not hold rationally on the other. Attempts
/// with more on both sides rarely merge: on vs_isl's sdbm family none of
/// 270 did, and they took 41% of the time of all merge attempts there; on
/// 2,000 of the random unions of `isl_coalesce_tables`, one of 63 did.
/// 2 instead of 3 loses entry t57 of isl's tables (a merge with 3 and 6
/// such constraints).
const MAX_CUT_TO_MERGE: usize = 3;

/// As [`MAX_CUT_TO_MERGE`] when a constraint of one side has the other
/// entirely at `c <= -2` (a gap that only a lattice can bridge): with more
/// than two on each side, one of 840 attempts merged on those unions (12%
/// of the time), none of 134 on sdbm (16%). 1 instead of 2 loses entry t60
/// of isl's tables.
const MAX_CUT_TO_MERGE_SEPARATED: usize = 2;

/// As [`MAX_CUT_TO_MERGE`], counting the rows that fail at an integer point
/// of the other side (the cut rows of the candidate, fewer than those that
/// fail rationally), before the exact test of the candidate (see
/// [`try_merge`]): on the first 2,000 random unions of isl_coalesce_tables,
/// none of the 207 attempts with three or more on each side merged; nor
/// does any on isl's tables.
const MAX_CUT_TO_TEST: usize = 2;

/// As [`MAX_CUT_TO_TEST`] across a gap that only a lattice can bridge
/// ([`MAX_CUT_TO_MERGE_SEPARATED`]): none of the 628 attempts with two or
/// more on each side merged on those unions (8% of the time of the merge
/// attempts there), nor does any on isl's tables.
const MAX_CUT_SEPARATED: usize = 1;

/// As [`MAX_CUT_TO_TEST`] when a row of either disjunct is unbounded below
/// over the other (such a pair is wrapped only in a narrow case, see
/// [`try_merge`]): on the 10^4 random unions of isl_coalesce_tables, none
/// of the about 1,800 exact tests of such pairs with two or more cut rows
/// on each side found the candidate exact (2026-11-27).
const MAX_CUT_UNBOUNDED: usize = 1;

/// The most rows cut over the integers that both disjuncts of a merge
/// candidate may have for its exact test: [`MAX_CUT_SEPARATED`] across a
/// gap, [`MAX_CUT_UNBOUNDED`] with a row unbounded below over the other
/// side, else [`MAX_CUT_TO_TEST`].
fn most_cut_to_test(separated: bool, unbounded: bool) -> usize {
    if separated {
        MAX_CUT_SEPARATED
    } else if unbounded {
        MAX_CUT_UNBOUNDED
    } else {
        MAX_CUT_TO_TEST
    }
}

/// Most pairs (constraint to wrap, ridge) tried for one pair of disjuncts.
const MAX_WRAPS: usize = 400;

impl Disjunction {
    /// Coalescing: drop disjuncts contained in others; replace two disjuncts by
    /// one conjunction whenever that is exact ([`try_merge`]); repeat until no
    /// pair changes. Exact: the result has the same points. The pairs are
    /// tried those with more constraints in common first ([`Pairs`]:
    /// on vs_isl's families 10 to 25% fewer instructions, as many disjuncts
    /// left).
    ///
    /// Source: see the module doc (Verdoolaege, IMPACT 2015).
    ///
    /// The merges beyond fusion improve a result without being needed for it:
    /// they run on a share of `budget` ([`Budget::optional`]), and when that
    /// runs out the fuse case alone ([`try_fuse`]) gives the answer, as
    /// before issue 14, so that coalescing a large union never makes the
    /// operation that prints it fail.
    ///
    /// Each test of one disjunct inside another and each merge attempt runs
    /// on a cap of its own ([`INSIDE_STEPS`], [`MERGE_STEPS`],
    /// [`Budget::capped`]): past it the pair is kept as it is, which is exact
    /// (two disjuncts left side by side have the points of the two), so a
    /// pair whose exact test needs a long integer search (coefficients near
    /// `2^70`: 1 s and more each) costs a bounded amount and never an error.
    pub(crate) fn coalesce(&self, budget: &mut Budget) -> Result<Disjunction> {
        match budget.optional(|b| self.coalesce_with(true, b))? {
            Some(d) => Ok(d),
            None => self.coalesce_with(false, budget),
        }
    }

    /// [`Disjunction::coalesce`] when `full`; otherwise only the fuse case
    /// ([`try_fuse`]): every constraint of the result is one of the input, so
    /// a union of boxes stays a union of boxes, split as before issue 14.
    pub(crate) fn coalesce_with(&self, full: bool, budget: &mut Budget) -> Result<Disjunction> {
        // every conjunction is simplified once, by `remove_redundancies`
        // (and a merged one by `tidy`): no pass over the whole union before
        // or after (exact duplicates and parts inside a universal one go by
        // the inside tests)
        let space = self.space.clone();
        let mut members: Vec<Member> = Vec::with_capacity(self.parts.len());
        for c in &self.parts {
            let mut c = c.clone();
            budget.spend(1 + c.eqs.len() + c.ineqs.len())?;
            // the divisions first: their rewriting would make the rows
            // redundant again, so the redundant rows go once, after it
            if full {
                c = with_divisions(c, budget)?;
            }
            c.remove_redundancies();
            // an empty disjunct, or one written as an earlier one, goes at once
            // (an inside test on a cap could keep a copy with large coefficients)
            if c.is_trivially_empty()
                || members
                    .iter()
                    .any(|m| m.c.divs == c.divs && m.c.eqs == c.eqs && m.c.ineqs == c.ineqs)
            {
                continue;
            }
            let mut m = Member::new(c, members.len());
            // an integer point of each disjunct whose locals are divisions;
            // one with plain existentials is sampled when first needed
            if m.explicit() && m.point(budget)? == Sampled::Empty {
                continue;
            }
            members.push(m);
        }
        // every disjunct gets a fresh id when it is made; a pair of ids whose
        // test already failed is not tested again after a later change
        let mut next_id = members.len();
        // (a multiplicative hash: SipHash was 0.5% of the time here)
        let mut not_inside: HashSet<(usize, usize), BuildRowHasher> = HashSet::default();
        let mut not_merged: HashSet<(usize, usize), BuildRowHasher> = HashSet::default();
        let mut pairs = Pairs::new(&members);
        'outer: loop {
            budget.spend(1)?;
            let mut next = pairs.first();
            while let Some(key) = next {
                let (i, j) = pairs.positions(key);
                // drop i when it lies inside j
                if !not_inside.contains(&(members[i].id, members[j].id)) {
                    let inside = match members[i].point(budget)? {
                        // no integer point: inside anything
                        Sampled::Empty => true,
                        Sampled::Point => {
                            let (mi, mj) = (&members[i], &members[j]);
                            mj.contains(&mi.c, &mi.points, budget)?
                        }
                        Sampled::GaveUp => false,
                    };
                    if inside {
                        members.remove(i);
                        pairs.remove(i);
                        continue 'outer;
                    }
                    not_inside.insert((members[i].id, members[j].id));
                }
                if i < j
                    && members[i].sampled != Some(Sampled::GaveUp)
                    && members[j].sampled != Some(Sampled::GaveUp)
                    && !not_merged.contains(&(members[i].id, members[j].id))
                {
                    let (a, b) = (&members[i], &members[j]);
                    // integer points of a and b found by the attempt
                    let mut learned = [Vec::new(), Vec::new()];
                    let merged = if full {
                        budget
                            .capped(MERGE_STEPS, |bu| {
                                try_merge(
                                    (&a.c, &a.points),
                                    (&b.c, &b.points),
                                    &space,
                                    &mut learned,
                                    bu,
                                )
                            })?
                            .flatten()
                    } else {
                        budget
                            .capped(MERGE_STEPS, |bu| try_fuse(&a.c, &b.c, &space, bu))?
                            .flatten()
                    };
                    let [in_a, in_b] = learned;
                    for p in in_a {
                        members[i].learn(p);
                    }
                    for p in in_b {
                        members[j].learn(p);
                    }
                    if let Some(m) = merged {
                        // m contains both: their points are points of m
                        let gone = members.remove(j);
                        pairs.remove(j);
                        members[i].replace(m, next_id);
                        pairs.renew(&members, i);
                        for p in gone.points {
                            members[i].learn(p);
                        }
                        next_id += 1;
                        continue 'outer;
                    }
                    not_merged.insert((members[i].id, members[j].id));
                }
                // the pair is settled for as long as both members stay
                pairs.settle(key);
                next = pairs.after(key);
            }
            break;
        }
        // a disjunct never sampled (alone from the start, or left alone) is
        // dropped when it has no integer point, as the others were
        let mut parts = Vec::with_capacity(members.len());
        for mut m in members {
            if m.point(budget)? != Sampled::Empty {
                parts.push(m.c);
            }
        }
        Ok(Disjunction { space, parts })
    }
}

/// The rows two conjunctions have in common (inequalities and equalities).
fn shared(a: &Conjunction, b: &Conjunction) -> usize {
    a.ineqs.iter().filter(|r| b.ineqs.contains(r)).count()
        + a.eqs.iter().filter(|r| b.eqs.contains(r)).count()
}

/// The ordered pairs of distinct members still to be tried by the
/// coalescing loop, in its order: those with more rows in common first
/// (then by position): two disjuncts that share most of their constraints
/// are the likeliest to merge, and a merge made early spares the failed
/// attempts of the pairs it replaces.
///
/// A pair is keyed by its rows in common and the *ranks* of its members: a
/// member's rank is its first position, kept when it is replaced by a merge
/// and when members before it go, so ranks sort as positions do. A pair
/// leaves the set once tried (its tests are then known to fail for as long
/// as both members stay) or when a member goes; a replaced member's pairs
/// are keyed anew. So after each change the loop resumes at the first pair
/// it would try when ordering all pairs again, without doing so.
struct Pairs {
    live: BTreeSet<PairKey>,
    /// The rank of the member at each position (increasing).
    ranks: Vec<u32>,
    /// The rows in common of the members of each pair of ranks (as keyed).
    common: Vec<Vec<u32>>,
}

/// `(rows in common, reversed; rank of the first member; of the second)`.
type PairKey = (Reverse<u32>, u32, u32);

impl Pairs {
    fn new(members: &[Member]) -> Pairs {
        let n = members.len();
        let mut common = vec![vec![0u32; n]; n];
        let mut keys = Vec::with_capacity(n * n.saturating_sub(1));
        for i in 0..n {
            for j in i + 1..n {
                let s = count_u32(shared(&members[i].c, &members[j].c));
                common[i][j] = s;
                common[j][i] = s;
                keys.push((Reverse(s), count_u32(i), count_u32(j)));
                keys.push((Reverse(s), count_u32(j), count_u32(i)));
            }
        }
        keys.sort_unstable();
        Pairs {
            live: keys.into_iter().collect(),
            ranks: (0..n).map(count_u32).collect(),
            common,
        }
    }

    fn first(&self) -> Option<PairKey> {
        self.live.first().copied()
    }

    fn after(&self, key: PairKey) -> Option<PairKey> {
        self.live
            .range((Bound::Excluded(key), Bound::Unbounded))
            .next()
            .copied()
    }

    /// The positions of the members of the pair `key`.
    fn positions(&self, key: PairKey) -> (usize, usize) {
        let at = |r: u32| self.ranks.binary_search(&r).unwrap_or(0);
        (at(key.1), at(key.2))
    }

    /// The pair `key` was tried without a change.
    fn settle(&mut self, key: PairKey) {
        self.live.remove(&key);
    }

    /// The pairs of the member at position `p` leave, as it does.
    fn remove(&mut self, p: usize) {
        let r = self.ranks[p];
        self.drop_pairs(r);
        self.ranks.remove(p);
    }

    /// The member at position `p` was replaced: its pairs are keyed anew.
    fn renew(&mut self, members: &[Member], p: usize) {
        let r = self.ranks[p];
        self.drop_pairs(r);
        for (q, m) in members.iter().enumerate() {
            if q != p {
                let o = self.ranks[q];
                let s = count_u32(shared(&members[p].c, &m.c));
                self.common[r as usize][o as usize] = s;
                self.common[o as usize][r as usize] = s;
                self.live.insert((Reverse(s), r, o));
                self.live.insert((Reverse(s), o, r));
            }
        }
    }

    /// Removes the pairs of the member of rank `r` with every member there is.
    fn drop_pairs(&mut self, r: u32) {
        for &o in &self.ranks {
            if o != r {
                let s = Reverse(self.common[r as usize][o as usize]);
                self.live.remove(&(s, r, o));
                self.live.remove(&(s, o, r));
            }
        }
    }
}

/// A count or position as the `u32` of a [`PairKey`] (a union has far fewer
/// disjuncts and rows).
fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// What the search for an integer point of a disjunct found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sampled {
    /// A point (held in [`Member::point`]).
    Point,
    /// No integer point: the disjunct is empty.
    Empty,
    /// The search ran past [`SAMPLE_STEPS`]: the disjunct is kept as if it
    /// had points, and tested without one.
    GaveUp,
}

/// A disjunct being coalesced, with what is learnt about it on the way.
///
/// Invariant: `points` holds integer points of `c` (values of the
/// parameters and dimensions), at most [`MEMBER_POINTS`] of them and none
/// twice, its sample first, when `sampled` is `Some(Sampled::Point)`; else
/// it is empty. `sampled` is `None` until the first search.
struct Member {
    c: Conjunction,
    /// A fresh number for every conjunction a member holds (see `not_inside`).
    id: usize,
    sampled: Option<Sampled>,
    /// The sample, then points found by merge attempts ([`Member::learn`]).
    points: Vec<Vec<Int>>,
}

/// Most integer points a member keeps. Each merge attempt finds points of
/// the two disjuncts (optima of its linear programs at integer points,
/// counterexamples); kept, they refute rows and inclusions in later
/// attempts and tests without a linear program or a search.
const MEMBER_POINTS: usize = 6;

impl Member {
    fn new(c: Conjunction, id: usize) -> Member {
        Member {
            c,
            id,
            sampled: None,
            points: Vec::new(),
        }
    }

    /// Checks the invariant (see the type's doc).
    fn check_invariants(&self) {
        debug_assert!(
            (self.sampled == Some(Sampled::Point)) != self.points.is_empty(),
            "a member's points without a sample, or a sample without points"
        );
        debug_assert!(self.points.len() <= MEMBER_POINTS);
        debug_assert!(
            self.points
                .iter()
                .all(|p| contains_point(&self.c, p) != Some(false)),
            "a member's point outside it"
        );
    }

    /// Keeps `p`, an integer point of the disjunct (values of the parameters
    /// and dimensions), when there is room and it is new.
    fn learn(&mut self, p: Vec<Int>) {
        if self.sampled == Some(Sampled::Point)
            && self.points.len() < MEMBER_POINTS
            && !self.points.contains(&p)
        {
            self.points.push(p);
        }
        self.check_invariants();
    }

    /// Whether every local of the disjunct is a division.
    fn explicit(&self) -> bool {
        self.c.divs.iter().all(Option::is_some)
    }

    /// Searches for an integer point of the disjunct (parameters and
    /// dimensions) on the first call, on a cap of [`SAMPLE_STEPS`], and
    /// says what it found.
    fn point(&mut self, budget: &mut Budget) -> Result<Sampled> {
        if let Some(s) = self.sampled {
            return Ok(s);
        }
        let s = match budget.capped(SAMPLE_STEPS, |b| self.c.sample_full(b))? {
            Some(Some(p)) => {
                let n = self.c.space.n_var();
                self.points = vec![p.into_iter().take(n).collect()];
                Sampled::Point
            }
            Some(None) => Sampled::Empty,
            None => Sampled::GaveUp,
        };
        self.sampled = Some(s);
        Ok(s)
    }

    /// Whether `other`, of which `ps` are integer points (at least one),
    /// lies inside this disjunct: no when one of them is outside it (by
    /// evaluation when its locals are divisions, else, for the first point,
    /// by an integer test on its existentials with the point fixed, on a
    /// cap of [`INSIDE_STEPS`]), else the inclusion test on that cap (past
    /// it: no).
    fn contains(&self, other: &Conjunction, ps: &[Vec<Int>], budget: &mut Budget) -> Result<bool> {
        for (k, p) in ps.iter().enumerate() {
            let p_inside = match contains_point(&self.c, p) {
                Some(inside) => inside,
                None if k == 0 => budget
                    .capped(INSIDE_STEPS, |b| contains_in(&self.c, p, b))?
                    .unwrap_or(true),
                None => true,
            };
            if !p_inside {
                return Ok(false);
            }
        }
        Ok(budget
            .capped(INSIDE_STEPS, |b| match inside(other, &self.c, b)? {
                Some(inside) => Ok(inside),
                None => alone(other).is_subset(&alone(&self.c), b),
            })?
            .unwrap_or(false))
    }

    /// Holds `c`, a new conjunction that contains the old one (a merge).
    fn replace(&mut self, c: Conjunction, id: usize) {
        self.c = c;
        self.id = id;
    }
}

/// `c` with its plain existentials rewritten as divisions when that gives one
/// conjunction without a split into cases, within [`EXPLICIT_STEPS`] (see
/// [`explicit_locals_single`]); otherwise `c` itself. The steps used are
/// spent from `budget` too.
fn with_divisions(c: Conjunction, budget: &mut Budget) -> Result<Conjunction> {
    if c.divs.iter().all(Option::is_some) {
        return Ok(c);
    }
    let mut own = Budget::new(EXPLICIT_STEPS);
    let rewritten = explicit_locals_single(&c, &mut own);
    let used = EXPLICIT_STEPS.saturating_sub(own.remaining());
    budget.spend(usize::try_from(used).unwrap_or(usize::MAX))?;
    Ok(match rewritten {
        Ok(Some(v)) if v.divs.iter().all(Option::is_some) => v,
        _ => c,
    })
}

/// Whether the integer point `x` (values of the parameters and dimensions)
/// lies in `c`, when evaluation can tell: every local of `c` is a division
/// whose definition uses only the columns before it, so its value at `x` is
/// fixed. `None` when a local has no such definition (a plain existential).
/// A point of one disjunct outside another proves that the first does not
/// lie inside the second without any integer search.
fn contains_point(c: &Conjunction, x: &[Int]) -> Option<bool> {
    if c.divs.is_empty() {
        // (no copy of the point: most disjuncts have no locals, and the
        // copies were 2% of the allocations on the random unions)
        let nv = c.space.n_var();
        return Some(c.satisfied_by(x.get(..nv)?));
    }
    Some(c.satisfied_by(&c.with_div_values(x)?))
}

/// `x`, a point of the disjunct that `c` is (aligned by [`aligned_pair`]:
/// the same points), over all the columns of `c`
/// ([`Conjunction::with_div_values`]), for the list of known points of
/// [`classify`]. (Not tested against the rows of `c`: the points of a
/// [`Member`] are its points, and the divisions that alignment adds are
/// functions of the variables. The test was 2% of the instructions on the
/// random unions of `isl_coalesce_tables`.)
fn point_of(c: &Conjunction, x: &[Int]) -> Option<Vec<Int>> {
    let vals = c.with_div_values(x)?;
    debug_assert!(c.satisfied_by(&vals), "a member's point outside it");
    Some(vals)
}

/// Whether `inner` lies inside `outer`, when every local of both is a
/// division (else `None`): over their common locals ([`aligned_pair`]),
/// every row of `outer` holds at every integer point of `inner`, a
/// search on the tableau of `inner` for each row ([`Region::counterexample`];
/// none for a row that a row of `inner` implies). For two disjuncts this
/// costs less than the inclusion test of unions (on the random unions of
/// isl_coalesce_tables, 44,000 instructions a test).
fn inside(inner: &Conjunction, outer: &Conjunction, budget: &mut Budget) -> Result<Option<bool>> {
    let Some((i2, o2)) = aligned_pair(inner, outer) else {
        return Ok(None);
    };
    // (rationally empty: inside anything)
    let Some(mut region) = Region::new(&i2) else {
        return Ok(Some(true));
    };
    let own = inequalities(&i2);
    for r in inequalities(&o2).iter() {
        if own.iter().any(|t| implies_row(t, r)) {
            continue;
        }
        if region.counterexample(r, budget)?.is_some() {
            return Ok(Some(false));
        }
    }
    Ok(Some(true))
}

/// `c` alone as a union (not simplified).
fn alone(c: &Conjunction) -> Disjunction {
    Disjunction {
        space: c.space.clone(),
        parts: vec![c.clone()],
    }
}

/// `a` and `b` over the same local variables: `a` with the divisions of `b`
/// it does not have appended, and `b` rewritten over those locals (a division
/// of `b` equal to one of `a` becomes that local). `None` when a local of
/// either has no division definition, or a definition of `b` uses a later
/// local. Both keep their points: a division is a function of the variables.
fn aligned_pair<'c>(
    a: &'c Conjunction,
    b: &'c Conjunction,
) -> Option<(Cow<'c, Conjunction>, Cow<'c, Conjunction>)> {
    if a.divs.is_empty() && b.divs.is_empty() {
        // (no copies: most merge attempts end early, and the copies and
        // their drops were 2.3% of the instructions on the random unions)
        return Some((Cow::Borrowed(a), Cow::Borrowed(b)));
    }
    if a.divs.iter().chain(&b.divs).any(Option::is_none) {
        return None;
    }
    let nv = 1 + a.space.n_var();
    let mut a2 = a.clone();
    let mut map: Vec<usize> = Vec::with_capacity(b.divs.len());
    for (j, d) in b.divs.iter().enumerate() {
        let d = d.as_ref()?;
        let mut num = vec![Int::ZERO; a2.n_col()];
        for (c, v) in d.num.iter().enumerate() {
            if v.is_zero() {
                continue;
            }
            let col = if c < nv {
                c
            } else {
                *map.get(c - nv).filter(|_| c - nv < j)?
            };
            num[col] += v;
        }
        let found = a2.divs.iter().position(|x| {
            x.as_ref()
                .is_some_and(|x| x.den == d.den && same_padded(&x.num, &num))
        });
        let col = match found {
            Some(l) => nv + l,
            None => a2
                .add_local(Some(Div {
                    num,
                    den: d.den.clone(),
                }))
                .ok()?,
        };
        map.push(col);
    }
    let colmap: Vec<usize> = (0..nv).chain(map.iter().copied()).collect();
    let mut b2 = b.remap(b.space.clone(), a2.n_local(), &colmap);
    b2.divs = a2.divs.clone();
    with_div_rows(&mut a2);
    with_div_rows(&mut b2);
    Some((Cow::Owned(a2), Cow::Owned(b2)))
}

/// Adds the defining inequalities of the divisions of `c` that are not among
/// its inequalities yet (the tableau of [`Region`] sees only rows).
fn with_div_rows(c: &mut Conjunction) {
    let first_local = 1 + c.space.n_var();
    for l in 0..c.divs.len() {
        if let Some(d) = &c.divs[l] {
            let (lo, hi) = div_constraints(d, first_local + l);
            for r in [lo, hi] {
                if !c.ineqs.contains(&r) {
                    c.ineqs.push(r);
                }
            }
        }
    }
}

/// The constraints of `c` as inequalities: each equality as two, the
/// inequalities, and the two defining inequalities of every division (once:
/// a simplified conjunction, and one aligned by [`aligned_pair`], has them
/// among its inequalities already; twice, each was a ridge of its own in
/// [`wrapped_rows`]). Borrowed when `c` has only inequalities (most
/// disjuncts: the copies were 2% of the instructions on the random unions
/// of `isl_coalesce_tables`).
fn inequalities(c: &Conjunction) -> Cow<'_, [Row]> {
    let first_local = 1 + c.space.n_var();
    let div_rows = || {
        c.divs
            .iter()
            .enumerate()
            .filter_map(move |(l, d)| d.as_ref().map(|d| div_constraints(d, first_local + l)))
    };
    let missing = |r: &Row| !c.ineqs.contains(r);
    if c.eqs.is_empty() && div_rows().all(|(lo, hi)| !missing(&lo) && !missing(&hi)) {
        return Cow::Borrowed(&c.ineqs);
    }
    let mut rows = Vec::with_capacity(2 * c.eqs.len() + c.ineqs.len() + 2 * c.divs.len());
    for e in &c.eqs {
        rows.push(e.clone());
        rows.push(e.iter().map(|v| -v).collect());
    }
    rows.extend(c.ineqs.iter().cloned());
    for (lo, hi) in div_rows() {
        for r in [lo, hi] {
            if missing(&r) {
                rows.push(r);
            }
        }
    }
    Cow::Owned(rows)
}

/// How a constraint of one disjunct relates to the other.
enum Class {
    /// It holds on the other.
    Valid,
    /// It does not; relaxed by the rational minimum over the other, it does.
    Relaxed(Row),
    /// It does not, for no relaxation.
    Cut,
}

/// Classifies `row >= 0` against the other disjunct, of `region`, given
/// its rational minimum `m` over it and whether that is attained at an
/// integer point (see the module doc): valid when `m > -1` (the row takes
/// integer values at integer points) or when it holds at every integer
/// point; cut when `m` is unbounded (the other disjunct has an integer
/// point, its sample, and integer points from it along an integral
/// recession direction where the row decreases); otherwise relaxed by the least `k` for which
/// `row + k >= 0` holds at every integer point (tried when the rational
/// relaxation is at most [`MAX_TIGHTEN`]), else by the rational one, when `m`
/// is finite. `known` holds integer points of the other disjunct found so far
/// (over its columns; at first its sample point): a row that fails on one of them needs no search, and
/// each search that refutes a row adds its point.
fn classify(
    row: &Row,
    (m, integral): (LpValue, bool),
    region: &mut Region,
    known: &mut Vec<Vec<Int>>,
    budget: &mut Budget,
) -> Result<Class> {
    if let LpValue::Optimum(m) = &m {
        // the row takes integer values at integer points: above -1 is >= 0
        if *m > Rational::from(-1) {
            return Ok(Class::Valid);
        }
        if integral {
            // attained at an integer point: the integer minimum is `m`
            let mut r = row.clone();
            r[0] -= m.ceil();
            return Ok(Class::Relaxed(r));
        }
    }
    match m {
        // unbounded below: the other disjunct has an integer point (its
        // sample) and, from it, integer points along an integral direction
        // of its recession cone where the row decreases without bound
        LpValue::Unbounded => return Ok(Class::Cut),
        LpValue::Empty => return Ok(Class::Valid),
        LpValue::Optimum(_) => {}
    }
    // does `r >= 0` hold at every integer point of the other disjunct?
    let mut holds = |r: &Row, budget: &mut Budget| -> Result<bool> {
        if known
            .iter()
            .any(|p| Conjunction::eval_row(r, p).is_negative())
        {
            return Ok(false);
        }
        Ok(match region.counterexample(r, budget)? {
            Some(p) => {
                known.push(p);
                false
            }
            None => true,
        })
    };
    if holds(row, budget)? {
        return Ok(Class::Valid);
    }
    Ok(match m {
        LpValue::Optimum(m) => {
            // the rational minimum relaxes by `s`; over the integers a
            // smaller relaxation may hold (tried when `s` is small)
            let s = -m.ceil();
            let mut r = row.clone();
            let mut k = Int::ONE;
            let most = Int::from(MAX_TIGHTEN);
            while k < s && s <= most {
                r[0] = &row[0] + &k;
                if holds(&r, budget)? {
                    return Ok(Class::Relaxed(r));
                }
                k += Int::ONE;
            }
            r[0] = &row[0] + &s;
            Class::Relaxed(r)
        }
        _ => Class::Cut,
    })
}

/// Pushes `row` (normalised) to `out` unless it is already there or always
/// holds. (A candidate has a few dozen rows, rarely more: a scan costs less
/// than hashing a copy of each row, 1.6% of the instructions on the random
/// unions.)
fn add_row(out: &mut Vec<Row>, mut row: Row) {
    if normalize_ineq(&mut row).is_some() {
        return;
    }
    if !out.contains(&row) {
        out.push(row);
    }
}

/// The union of two disjuncts as one conjunction, when there is one to be
/// found (see the module doc): the candidate of the constraints of both that
/// hold on the other, the others relaxed to hold, is checked for points outside
/// `a ∪ b` by an exact integer test ([`Region::point_outside_both`], on the
/// candidate's tableau: 6% fewer instructions than the general inclusion
/// test on the random unions of `isl_coalesce_tables`, 8% on vs_isl's
/// dependence family); if it has some, the constraints that do
/// not hold on the other are wrapped ([`wrapped_rows`]) and the tighter
/// candidate is checked in turn. `None` when neither is exact, or when a local
/// has no division definition.
///
/// Source: Verdoolaege, IMPACT 2015 (fusion, extension, wrapping).
fn try_merge(
    (a, pa): (&Conjunction, &[Vec<Int>]),
    (b, pb): (&Conjunction, &[Vec<Int>]),
    space: &Space,
    learned: &mut [Vec<Vec<Int>>; 2],
    budget: &mut Budget,
) -> Result<Option<Conjunction>> {
    let Some((a, b)) = aligned_pair(a, b) else {
        return Ok(None);
    };
    let nv = space.n_var();
    // integer points of b, then of a: those known (the samples first),
    // then the optima of the linear programs found at integer points (at
    // most [`KNOWN_POINTS`])
    let mut points: [Vec<Vec<Int>>; 2] = [
        pb.iter().filter_map(|p| point_of(&b, p)).collect(),
        pa.iter().filter_map(|p| point_of(&a, p)).collect(),
    ];
    let gap = |in_a: &[Vec<Int>], in_b: &[Vec<Int>], skip: usize| {
        in_a.iter().take(SEGMENT_ENDS).enumerate().any(|(i, p)| {
            in_b.iter()
                .take(SEGMENT_ENDS)
                .enumerate()
                .any(|(j, q)| i.max(j) >= skip && gap_between(&a, &b, p, q))
        })
    };
    // the segment between the two samples first, before any tableau is
    // built (on the random unions of isl_coalesce_tables it ends 2,317 of
    // 9,418 attempts, 73% of those the segments end after the LPs)
    if gap(&points[1], &points[0], 0) {
        return Ok(None);
    }
    let sampled = points[0].len().min(points[1].len());
    let (rows_a, rows_b) = (inequalities(&a), inequalities(&b));
    // a row failing at a known integer point of the other side is cut
    // there over the integers (it ends among the cut rows below): when both
    // sides have more such rows than [`MAX_CUT_TO_TEST`], the count before
    // the exact test would end the attempt, so it ends now, before any
    // tableau is built (the same answer, sooner)
    let fails = |r: &Row, pts: &[Vec<Int>]| {
        pts.iter()
            .any(|p| Conjunction::eval_row(r, p).is_negative())
    };
    let failing = |rows: &[Row], pts: &[Vec<Int>]| {
        rows.iter()
            .filter(|r| fails(r, pts))
            .take(MAX_CUT_TO_TEST + 1)
            .count()
    };
    if failing(&rows_a, &points[0]) > MAX_CUT_TO_TEST
        && failing(&rows_b, &points[1]) > MAX_CUT_TO_TEST
    {
        return Ok(None);
    }
    let (Some(mut on_a), Some(mut on_b)) = (Region::new(&a), Region::new(&b)) else {
        return Ok(None);
    };
    // first the rational minimum of every row over the other side; a row
    // with the other side entirely beyond `r = -1` (a gap) ends the attempt,
    // unless a side has equalities: on a lattice such as `x = 3y` the gap
    // can hold no integer point (`{ [x, y] : x = 3y and 0 <= y <= 2; [-3, -1] }`
    // is one conjunction)
    let gaps_count = a.eqs.is_empty() && b.eqs.is_empty();
    // with equalities, a gap still makes wrapping pointless (see below)
    let mut separated = false;
    let mut mins = [
        Vec::with_capacity(rows_a.len()),
        Vec::with_capacity(rows_b.len()),
    ];
    let mut not_valid = [0usize; 2];
    // rows that fail at a known integer point of the other side (see
    // `failing`): cut over the integers for certain
    let mut cut_for_sure = [0usize; 2];
    // whether a row of either side is unbounded below over the other
    let mut unbounded_any = false;
    // the rows of the two sides in turn, so that the count below ends an
    // attempt after a few rows of each side
    let longest = rows_a.len().max(rows_b.len());
    let order = (0..longest).flat_map(|k| [(0, k), (1, k)]);
    for (side, k) in order {
        let (rows, lp, others) = match side {
            0 => (&rows_a, &mut on_b, &rows_b),
            _ => (&rows_b, &mut on_a, &rows_a),
        };
        let Some(r) = rows.get(k) else {
            continue;
        };
        // a row of the other side with the same linear part and a
        // constant no larger implies it there: valid without the LP
        // (any value `>= 0` classifies it so)
        if others.iter().any(|t| implies_row(t, r)) {
            mins[side].push((LpValue::Optimum(Rational::from_int(Int::ZERO)), false));
            continue;
        }
        let (m, at) = lp.rational_min(r, budget)?;
        let integral = at.is_some();
        if let Some(p) = at {
            if points[side].len() < KNOWN_POINTS && !points[side].contains(&p) {
                // (a point of the other side: b for side 0)
                learned[1 - side].push(p[..nv].to_vec());
                points[side].push(p);
            }
        }
        let valid = matches!(&m, LpValue::Optimum(m) if m.signum() >= 0);
        // a known point of the other side where `r >= -1` shows that
        // side is not beyond `r = -1`, without the linear program
        let reached = |p: &Vec<Int>| Conjunction::eval_row(r, p) >= Int::from(-1);
        if !valid && !separated && !points[side].iter().any(reached) {
            let minus: Row = r.iter().map(|v| -v).collect();
            if let LpValue::Optimum(x) = lp.rational_min_value(&minus, budget)? {
                separated = x > Rational::from_int(Int::ONE);
                if separated && gaps_count {
                    return Ok(None);
                }
            }
        }
        // rows that do not hold rationally on the other side: with
        // more than [`MAX_CUT_TO_MERGE`] of them on each side (with a
        // gap, `separated`: [`MAX_CUT_TO_MERGE_SEPARATED`]) a merge is
        // rare, and such attempts took much of the time of the failed
        // ones; the count ends the attempt as soon as it is reached
        // (`separated`, once set, stays set)
        if matches!(&m, LpValue::Unbounded) || matches!(&m, LpValue::Optimum(m) if m.signum() < 0) {
            not_valid[side] += 1;
            let most = if separated {
                MAX_CUT_TO_MERGE_SEPARATED
            } else {
                MAX_CUT_TO_MERGE
            };
            if not_valid[0].min(not_valid[1]) > most {
                return Ok(None);
            }
            // the same end as the count before the exact test, before the
            // integer tests of the classification (known points only grow;
            // a row unbounded below is cut)
            let unbounded_row = matches!(&m, LpValue::Unbounded);
            unbounded_any |= unbounded_row;
            if unbounded_row || fails(r, &points[side]) {
                cut_for_sure[side] += 1;
                let most = most_cut_to_test(separated, unbounded_any);
                if cut_for_sure[0].min(cut_for_sure[1]) > most {
                    return Ok(None);
                }
            }
        }
        mins[side].push((m, integral));
    }
    // the rows of each side unbounded below over the other
    let unbounded = mins.each_ref().map(|ms| {
        ms.iter()
            .map(|(m, _)| matches!(m, LpValue::Unbounded))
            .collect::<Vec<_>>()
    });
    let [mins_a, mins_b] = mins;
    // (a gap found after the count passed the smaller limit)
    if separated && not_valid[0].min(not_valid[1]) > MAX_CUT_TO_MERGE_SEPARATED {
        return Ok(None);
    }
    if gap(&points[1], &points[0], sampled) {
        return Ok(None);
    }
    let tested = points[0].len().min(points[1].len());
    let mut hull = Vec::with_capacity(rows_a.len() + rows_b.len());
    // the rows of each side that do not hold on the other: (row, index in its side)
    let mut cut_a = Vec::new();
    let mut cut_b = Vec::new();
    // the known integer points of b, then of a: those found so far, then
    // those the classification finds
    let mut found = points;
    let [seed_b, seed_a] = &mut found;
    for (rows, mins, region, cut, known) in [
        (&rows_a, mins_a, &mut on_b, &mut cut_a, seed_b),
        (&rows_b, mins_b, &mut on_a, &mut cut_b, seed_a),
    ] {
        for (k, (r, m)) in rows.iter().zip(mins).enumerate() {
            match classify(r, m, region, known, budget)? {
                Class::Valid => add_row(&mut hull, r.clone()),
                Class::Relaxed(x) => {
                    add_row(&mut hull, x);
                    cut.push(k);
                }
                // (only a row unbounded below: `unbounded_any`)
                Class::Cut => cut.push(k),
            }
        }
    }
    // the points found since (points of b outside a, and of a outside b)
    // give more segments that every candidate contains
    let [in_b, in_a] = &found;
    for (side, pts) in [(1, in_b), (0, in_a)] {
        learned[side].extend(pts.iter().map(|p| p[..nv].to_vec()));
    }
    if gap(in_a, in_b, tested) {
        return Ok(None);
    }
    // (the rows move into the candidate and back: no copies)
    let candidate = |rows: Vec<Row>| Conjunction {
        space: space.clone(),
        divs: a.divs.clone(),
        eqs: Vec::new(),
        ineqs: rows,
    };
    // an integer point of `c` outside `a ∪ b`, if there is one
    let outside = |c: &Conjunction, budget: &mut Budget| -> Result<Option<Vec<Int>>> {
        Ok(match Region::new(c) {
            Some(mut on) => on.point_outside_both(&rows_a, &rows_b, budget)?,
            None => None,
        })
    };
    // too many rows of each side cut over the integers for a merge (see
    // [`MAX_CUT_TO_TEST`]): no exact test
    if cut_a.len().min(cut_b.len()) > most_cut_to_test(separated, unbounded_any) {
        return Ok(None);
    }
    let mut h = candidate(hull);
    if let Some(x) = outside(&h, budget)? {
        // (wrapping pays an LP per pair of a cut row and a ridge: on the
        // vs_isl coalesce families it merged little where a side has three
        // or more cut rows, which cost most of its time, so only a side with
        // at most [`MAX_CUT_TO_WRAP`] of them is wrapped (until 2026-11-27
        // both sides were once one of them had so few: on the first 2,000
        // random unions of isl_coalesce_tables that merged 15 pairs more,
        // 5,462 disjuncts left against 5,477, for 7% more instructions;
        // tiled 10%, sdbm 7%; one table entry, u0, keeps two disjuncts as
        // isl does); nor are the cut rows of a side with a row unbounded
        // below over the other side: wrapping them gave one merge on the
        // 10^4 random unions of isl_coalesce_tables (27,224 -> 27,225
        // disjuncts left) and none on isl's tables or vs_isl's families,
        // and skipping it saves 9 to 12% of the instructions of the random
        // unions, sdbm and dependence; since 2026-11-27 the other side
        // only when it has one cut row and `x` satisfies every row
        // unbounded below: wrapping the other side merged 38 of 3,427
        // such pairs on the 10^4 random unions, for 35% of the time spent
        // wrapping there, and 34 of the 38 among the 600 that pass this
        // test; isl's table entry t16 is one of them)
        let unbounded_at_x = unbounded.iter().zip([&rows_a, &rows_b]).any(|(u, rows)| {
            rows.iter()
                .zip(u)
                .any(|(r, &u)| u && Conjunction::eval_row(r, &x).is_negative())
        });
        if unbounded_at_x {
            return Ok(None);
        }
        let wraps = |cut: &[usize], unbounded: &[bool]| {
            let most = if unbounded_any { 1 } else { MAX_CUT_TO_WRAP };
            !cut.is_empty() && cut.len() <= most && !unbounded.contains(&true)
        };
        let wrap = [wraps(&cut_a, &unbounded[0]), wraps(&cut_b, &unbounded[1])];
        if separated || wrap == [false, false] {
            return Ok(None);
        }
        let mut hull = std::mem::take(&mut h.ineqs);
        let mut wrap_side = |side: usize, stop_early: bool, budget: &mut Budget| match side {
            0 => wrapped_rows(
                &rows_a,
                &cut_a,
                &b,
                &mut on_b,
                (&x, in_b),
                stop_early,
                budget,
            ),
            _ => wrapped_rows(
                &rows_b,
                &cut_b,
                &a,
                &mut on_a,
                (&x, in_a),
                stop_early,
                budget,
            ),
        };
        // whether a wrapped row cuts off `x` (`add_row` keeps that: it
        // drops only rows that hold at `x`, and normalising an inequality
        // keeps its sign at integer points)
        let mut add_wrapped = |rows: Vec<Row>| {
            let mut cuts = false;
            for r in rows {
                cuts |= Conjunction::eval_row(&r, &x).is_negative();
                add_row(&mut hull, r);
            }
            cuts
        };
        let mut cuts_x = false;
        // each side's wrapping ends early when none of its rows that may cut
        // off `x` does (see [`wrapped_rows`]); a side that ended so is
        // wrapped again in full when the other side's rows cut it off
        let mut stopped = [false; 2];
        for side in 0..2 {
            if wrap[side] {
                let (rows, st) = wrap_side(side, !cuts_x, budget)?;
                stopped[side] = st;
                cuts_x |= add_wrapped(rows);
            }
        }
        if cuts_x {
            for (side, stopped) in stopped.into_iter().enumerate() {
                if stopped {
                    add_wrapped(wrap_side(side, false, budget)?.0);
                }
            }
        }
        // the point outside both that refuted the first candidate refutes
        // this one too unless a wrapped row cuts it off (on the first 2,000
        // random unions of isl_coalesce_tables: 405 of 1,166 wrapped
        // candidates, whose exact test is then not needed)
        if !cuts_x {
            return Ok(None);
        }
        h = candidate(hull);
        if outside(&h, budget)?.is_some() {
            return Ok(None);
        }
    }
    // (simplified first and last by the redundancy removal itself)
    h.remove_redundancies();
    Ok(Some(h))
}

/// Most integer points of the segment between two samples tested by
/// [`gap_between`].
const SEGMENT_POINTS: i64 = 16;

/// Most points of each side whose segments [`try_merge`] tests.
const SEGMENT_ENDS: usize = 4;

/// Most integer points of each side that [`try_merge`] collects from the
/// optima of its linear programs.
const KNOWN_POINTS: usize = 6;

/// True when an integer point of the segment from `pa` (an integer point of
/// `a`) to `pb` (of `b`) lies in neither, by evaluation: then no candidate
/// of [`try_merge`] has exactly the points of `a ∪ b`, and none needs to be
/// built. `a` and `b` have the same divisions ([`aligned_pair`]) and the
/// points are given on all their columns, divisions included. The argument
/// is made in that lifted space, where every candidate is a polyhedron that
/// contains both points and the defining inequalities of the divisions (they
/// hold on both sides): the integer points of the segment, `pa + k·(pb -
/// pa)/g` for `g` the gcd of the differences and `0 < k < g`, are in the
/// candidate, and one whose division columns are the divisions of its
/// variables is a point of the candidate's set. At most [`SEGMENT_POINTS`]
/// of them are tested, spread over the segment. (Without the lifting the
/// argument fails: a set with divisions need not be convex.)
fn gap_between(a: &Conjunction, b: &Conjunction, pa: &[Int], pb: &[Int]) -> bool {
    let mut g = Int::ZERO;
    for (y, x) in pb.iter().zip(pa) {
        g = g.gcd(&(y - x));
    }
    let Some(g) = g.to_i64() else {
        return false;
    };
    if g <= 1 {
        return false;
    }
    let g_int = Int::from(g);
    let step: Vec<Int> = pb
        .iter()
        .zip(pa)
        .map(|(y, x)| (y - x).exact_div(&g_int))
        .collect();
    let tests = (g - 1).min(SEGMENT_POINTS);
    // (one buffer for the points: b has the divisions of a, so a point
    // whose division columns are the divisions of its variables is one on
    // both sides, and each side is a plain evaluation there)
    let mut x = pa.to_vec();
    (1..=tests).any(|t| {
        // spread: k = t·g / (tests + 1), in 1..g
        let k = (i128::from(t) * i128::from(g) / i128::from(tests + 1)).max(1);
        let k = Int::from(i64::try_from(k).unwrap_or(1));
        for ((v, p), s) in x.iter_mut().zip(pa).zip(&step) {
            *v = p + &(s * &k);
        }
        a.has_div_values(&x) && !a.satisfied_by(&x) && !b.satisfied_by(&x)
    })
}

/// The fuse case alone (the coalescing of before issue 14, for
/// [`Disjunction::coalesce_with`] without `full`): the constraints of `a` that
/// hold on all of `b`, plus those of `b` that hold on all of `a` (equalities
/// kept whole), when their conjunction has no integer point outside `a ∪ b`.
/// Only for conjunctions without locals; every constraint of the result is one
/// of the input.
fn try_fuse(
    a: &Conjunction,
    b: &Conjunction,
    space: &Space,
    budget: &mut Budget,
) -> Result<Option<Conjunction>> {
    if a.n_local() > 0 || b.n_local() > 0 {
        return Ok(None);
    }
    let mut hull = Conjunction::universe(space.clone());
    for (x, y) in [(a, b), (b, a)] {
        let Some(mut on) = Region::new(y) else {
            // y is empty: everything holds on it
            hull.eqs.extend(x.eqs.iter().cloned());
            hull.ineqs.extend(x.ineqs.iter().cloned());
            continue;
        };
        for e in &x.eqs {
            if on.holds(e, true, budget)? {
                hull.eqs.push(e.clone());
            }
        }
        for r in &x.ineqs {
            if on.holds(r, false, budget)? {
                hull.ineqs.push(r.clone());
            }
        }
    }
    let both = Disjunction {
        space: space.clone(),
        parts: vec![a.clone(), b.clone()],
    };
    let h = Disjunction {
        space: space.clone(),
        parts: vec![hull.clone()],
    };
    if h.is_subset(&both, budget)? {
        hull.simplify();
        Ok(Some(hull))
    } else {
        Ok(None)
    }
}

/// Whether the row `q·f + p·r` that [`wrapped_rows`] makes of the cut row
/// `f` and the ridge `r` may be negative at `x`, given `known`, integer
/// points of the other disjunct. With `λ = p/q > 0`, the row is relaxed
/// to `w + s` with `w = f + λ·r` (up to the factor `q`) and `s >= 0`,
/// `s >= -w(y)` at every point `y` of the other disjunct; so it is
/// negative at `x` only if `f(x) + λ·r(x) < 0` and `w(x) < w(y)` at each
/// known `y`. And `λ >= -f(y)/r(y)` at each known `y` with `r(y) > 0` (`λ`
/// is the largest such ratio over the other disjunct). Each condition
/// bounds `λ` on one side; false when no `λ` meets them all.
fn may_cut_off(f: &Row, r: &Row, x: &[Int], known: &[Vec<Int>]) -> bool {
    /// Narrows `[lo, hi)` to the `λ` with `a + λ·b < 0`; false when no
    /// `λ` has it (`b = 0`, `a >= 0`).
    fn narrow(a: Int, b: Int, lo: &mut Rational, hi: &mut Option<Rational>) -> bool {
        match b.signum() {
            0 => return a.is_negative(),
            s if s > 0 => {
                let h = Rational::new(-a, b);
                *hi = Some(hi.take().map_or(h.clone(), |old| old.min(h)));
            }
            _ => {
                let l = Rational::new(a, -b);
                if l > *lo {
                    *lo = l;
                }
            }
        }
        true
    }
    let mut lo = Rational::zero();
    let mut hi = None;
    let (fx, rx) = (Conjunction::eval_row(f, x), Conjunction::eval_row(r, x));
    if !narrow(fx.clone(), rx.clone(), &mut lo, &mut hi) {
        return false;
    }
    for y in known {
        let (fy, ry) = (Conjunction::eval_row(f, y), Conjunction::eval_row(r, y));
        if ry.is_positive() {
            lo = lo.max(Rational::new(-&fy, ry.clone()));
        }
        if !narrow(&fx - &fy, &rx - &ry, &mut lo, &mut hi) {
            return false;
        }
    }
    hi.is_none_or(|h| lo < h)
}

/// Wrapping (see the module doc): for each row `f` of `rows` (the constraints
/// of one disjunct) listed in `cut` (those that do not hold on the other
/// disjunct `other`) and each row `r` of `rows` not listed there (a ridge
/// that holds on `other`), the row `q·f + p·r`
/// with `λ = p/q` the least value making `f + λ·r >= 0` hold where `r > 0` on
/// `other`, relaxed by its minimum over `other` when that is negative. Every
/// row returned holds on both disjuncts. At most [`MAX_WRAPS`] pairs. A row
/// with local variables is only wrapped with `p, q <= 2`: a wrapped row
/// mixing divisions with large coefficients makes guards such as
/// `10c >= 29 floor(c/3) + 10` in generated code, which no reader (nor gcc's
/// `-Warray-bounds`, which then reports a subscript out of bounds) follows.
///
/// The ridges come in two groups: first those whose wrapped rows may cut
/// off `x`, the integer point that refuted the candidate without wrapping
/// ([`may_cut_off`], given `known`, integer points of `other`), then the
/// others. With `stop_early`, when no row of the first group is negative
/// at `x`, no row returned would be, and the rows so far are returned with
/// `true` (stopped) without wrapping the others; otherwise all the rows,
/// with `false`.
///
/// Source: Verdoolaege, IMPACT 2015 (wrapping, unbounded wrapping).
fn wrapped_rows(
    rows: &[Row],
    cut: &[usize],
    other: &Conjunction,
    lp_other: &mut Region,
    (x, known): (&[Int], &[Vec<Int>]),
    stop_early: bool,
    budget: &mut Budget,
) -> Result<(Vec<Row>, bool)> {
    let mut out = Vec::new();
    if cut.is_empty() {
        return Ok((out, false));
    }
    let n = other.n_col();
    // homogenised: columns (1, t, t·x); a row `c` of `other` becomes `(0, c)`
    let lift = |r: &Row, constant: Int| -> Row {
        let mut h = Vec::with_capacity(n + 1);
        h.push(constant);
        h.extend(r.iter().cloned());
        h
    };
    let n_rows = other.eqs.len() + other.ineqs.len() + 2 * other.divs.len() + 1;
    // (and a ridge at a time)
    let mut hom = Simplex::with_capacity(n, n_rows + 1);
    for e in &other.eqs {
        hom.add_eq(&lift(e, Int::ZERO));
    }
    for r in &other.ineqs {
        hom.add_ineq(&lift(r, Int::ZERO));
    }
    let first_local = 1 + other.space.n_var();
    for (l, d) in other.divs.iter().enumerate() {
        if let Some(d) = d {
            let (lo, hi) = div_constraints(d, first_local + l);
            hom.add_ineq(&lift(&lo, Int::ZERO));
            hom.add_ineq(&lift(&hi, Int::ZERO));
        }
    }
    let mut t = vec![Int::ZERO; n + 1];
    t[1] = Int::ONE;
    hom.add_ineq(&t);
    let mut paid = 0u64;
    let mut tries = 0usize;
    // rows on the variables only
    let nv = 1 + other.space.n_var();
    let plain = |r: &Row| r[nv.min(r.len())..].iter().all(Int::is_zero);
    // the objectives `-f` of the cut rows, homogenised, made once
    let minus_cut: Vec<Row> = cut
        .iter()
        .map(|&f_at| lift(&rows[f_at], Int::ZERO).iter().map(|v| -v).collect())
        .collect();
    // (a ridge holds on the other disjunct: wrapping around a cut row
    // as well merged one pair more on the 10^4 random unions of
    // isl_coalesce_tables, for 1% of their instructions)
    let ridges = (0..rows.len()).filter(|k| !cut.contains(k));
    // the ridges whose wrapped rows may cut off `x` first: when none of
    // theirs does, no row returned does, and the others are not wrapped
    let (first, rest): (Vec<usize>, Vec<usize>) = ridges.partition(|&k| {
        cut.iter()
            .any(|&f_at| may_cut_off(&rows[f_at], &rows[k], x, known))
    });
    let n_first = first.len();
    for (at, k) in first.into_iter().chain(rest).enumerate() {
        if tries >= MAX_WRAPS {
            break;
        }
        if stop_early
            && at == n_first
            && out
                .iter()
                .all(|w| !Conjunction::eval_row(w, x).is_negative())
        {
            return Ok((out, true));
        }
        let r = &rows[k];
        let snap = hom.snapshot();
        hom.add_eq(&lift(r, -Int::ONE));
        if hom.is_empty() {
            hom.rollback(snap);
            continue;
        }
        for (&f_at, minus_f) in cut.iter().zip(&minus_cut) {
            if tries >= MAX_WRAPS {
                continue;
            }
            tries += 1;
            let f = &rows[f_at];
            let v = hom.max_value(minus_f);
            let w = hom.work();
            budget.spend(1 + usize::try_from(w.saturating_sub(paid)).unwrap_or(usize::MAX))?;
            paid = w;
            let LpValue::Optimum(lambda) = v else {
                continue;
            };
            if lambda.signum() <= 0 {
                continue;
            }
            let (p, q) = (&lambda.num, &lambda.den);
            let two = Int::from(2);
            if (!plain(r) || !plain(f)) && (p > &two || q > &two) {
                continue;
            }
            let mut row: Row = f.iter().zip(r).map(|(x, y)| q * x + p * y).collect();
            match lp_other.rational_min_value(&row, budget)? {
                LpValue::Optimum(m) if m.signum() < 0 => row[0] -= m.ceil(),
                LpValue::Optimum(_) => {}
                _ => continue,
            }
            out.push(row);
        }
        hom.rollback(snap);
    }
    Ok((out, false))
}

impl Disjunction {
    /// Coalescing, a budget error reworded for the user.
    pub(crate) fn coalesce_in(&self, budget: &mut Budget) -> Result<Disjunction> {
        self.coalesce(budget)
            .map_err(|e| super::algebra::budget_context("coalescing", e))
    }

    /// Coalescing by the fuse case alone, a budget error reworded for the user.
    pub(crate) fn coalesce_fuse_in(&self, budget: &mut Budget) -> Result<Disjunction> {
        self.coalesce_with(false, budget)
            .map_err(|e| super::algebra::budget_context("coalescing", e))
    }
}

#[cfg(test)]
mod tests {
    use super::{MEMBER_POINTS, Member, SAMPLE_STEPS, Sampled, contains_point, inside};
    use crate::Budget;
    use crate::api::Set;
    use crate::conjunction::{Row, implies_row};
    use crate::int::Int;
    use crate::testing::{Box as PBox, set_points};
    use proptest::prelude::*;

    proptest! {
        /// `may_cut_off` never rules out a `λ > 0` that is at least
        /// `-f(y)/r(y)` at the known points with `r(y) > 0` and whose row
        /// `f + λ·r`, raised to hold at every known point, is negative at
        /// `x` (the rows `wrapped_rows` can make are among those).
        #[test]
        fn may_cut_off_keeps_every_cutting_lambda(
            f in proptest::collection::vec(-4i64..5, 3),
            r in proptest::collection::vec(-4i64..5, 3),
            x in proptest::collection::vec(-4i64..5, 2),
            known in proptest::collection::vec(proptest::collection::vec(-4i64..5, 2), 0..4),
            (p, q) in (1i64..12, 1i64..6),
        ) {
            let ints = |v: &[i64]| -> Vec<Int> { v.iter().map(|&a| Int::from(a)).collect() };
            let (f, r, x) = (ints(&f), ints(&r), ints(&x));
            let known: Vec<Vec<Int>> = known.iter().map(|y| ints(y)).collect();
            let eval = |row: &Row, y: &[Int]| crate::conjunction::Conjunction::eval_row(row, y);
            // λ = p/q is a possible wrapping factor for these points
            let possible = known.iter().all(|y| {
                let ry = eval(&r, y);
                !ry.is_positive() || -eval(&f, y) * Int::from(q) <= Int::from(p) * &ry
            });
            let w: Row = f.iter().zip(&r).map(|(a, b)| a * &Int::from(q) + b * &Int::from(p)).collect();
            let raise = known.iter().map(|y| -eval(&w, y)).fold(Int::ZERO, |m, v| m.max(v));
            let cuts = (eval(&w, &x) + raise).is_negative();
            if possible && cuts {
                prop_assert!(super::may_cut_off(&f, &r, &x, &known));
            }
        }
    }

    fn set(s: &str) -> Set {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// Coalesces `text`, checks the result is equal to the input, and returns it.
    fn coalesced(text: &str) -> Set {
        let s = set(text);
        let c = s.coalesce().unwrap();
        assert!(c.is_equal(&s).unwrap(), "{text} became {c}");
        c
    }

    /// The two examples of issue 14: an equality next to a triangle (fuse,
    /// once the equality is two inequalities), and two points.
    #[test]
    fn issue_examples() {
        let c =
            coalesced("{ [x, y] : y >= 0 and x <= 5 and y <= x or y >= 0 and x = 6 and y <= 6 }");
        assert_eq!(c.n_basic(), 1, "{c}");
        let two = set("{ [0] }").union(&set("{ [1] }")).unwrap();
        let c = two.coalesce().unwrap();
        assert_eq!(c.to_string(), "{ [i0] : 0 <= i0 <= 1 }");
    }

    /// A disjunct that sticks out of the other by one (relaxed constraints),
    /// and one that needs a wrapped constraint (`x + y <= 4`).
    #[test]
    fn extension_and_wrapping() {
        let c = coalesced("{ [i] : 0 <= i <= 10 or i = 11 }");
        assert_eq!(c.to_string(), "{ [i] : 0 <= i <= 11 }");
        let c = coalesced("{ [x, y] : 1 <= x <= 2 and 1 <= y <= 2 or x = 1 and y = 3 }");
        assert_eq!(c.n_basic(), 1, "{c}");
        // two overlapping boxes: the corners are cut off by wrapped constraints
        let c = coalesced("{ [x, y] : 0 <= x, y <= 10 or 1 <= x, y <= 11 }");
        assert_eq!(c.n_basic(), 1, "{c}");
    }

    /// Unbounded disjuncts: wrapping sees the unbounded directions.
    #[test]
    fn unbounded_wrapping() {
        let c = coalesced("{ [x, y] : 0 <= x <= 10 and 0 >= y >= -1 and x + y >= 0; [0, 1] }");
        assert_eq!(c.n_basic(), 1, "{c}");
        let c = coalesced("{ [x, y] : x >= 0 and y >= 0 or 0 <= y <= 5 and x = -1 }");
        assert_eq!(c.n_basic(), 2, "{c}");
    }

    /// Divisions: the same definitions in every disjunct, and a disjunct
    /// without the division of the other (aligned by adding it).
    #[test]
    fn equal_and_aligned_divisions() {
        let c = coalesced("{ [a] : a <= 8 and (a mod 10 = 7 or a mod 10 = 8 or a mod 10 = 9) }");
        assert_eq!(c.n_basic(), 1, "{c}");
        let c = coalesced("{ [a] : (2 <= a <= 5) or (a mod 2 = 1 and 1 <= a <= 5) }");
        assert_eq!(c.to_string(), "{ [a] : 1 <= a <= 5 }");
        let c =
            coalesced("{ [y, x] : (x - y) mod 3 = 2 and 2 <= y <= 200 and 0 <= x <= 2; [1, 0] }");
        assert_eq!(c.n_basic(), 1, "{c}");
    }

    /// The segment test works in the space lifted by the divisions: the
    /// even numbers of `[0, 2]` and of `[4, 6]` make one conjunction although
    /// the odd number 3 between their samples lies in neither.
    #[test]
    fn segments_between_points_with_divisions() {
        let two = |text: &str| {
            let s = set(text);
            (s.0.parts[0].clone(), s.0.parts[1].clone())
        };
        let (a, b) =
            two("{ [x] : (x mod 2 = 0 and 0 <= x <= 2) or (x mod 2 = 0 and 4 <= x <= 6) }");
        let (a, b) = super::aligned_pair(&a, &b).unwrap();
        let lift = |c: &crate::conjunction::Conjunction, x: i64| {
            c.with_div_values(&[crate::Int::from(x)]).unwrap()
        };
        assert!(!super::gap_between(&a, &b, &lift(&a, 0), &lift(&b, 6)));
        let c =
            coalesced("{ [x] : (x mod 2 = 0 and 0 <= x <= 2) or (x mod 2 = 0 and 4 <= x <= 6) }");
        assert_eq!(c.n_basic(), 1, "{c}");
        // without divisions the odd point is a gap
        let (a, b) = two("{ [x] : 0 <= x <= 2 or 4 <= x <= 6 }");
        let (a, b) = super::aligned_pair(&a, &b).unwrap();
        assert!(super::gap_between(&a, &b, &lift(&a, 0), &lift(&b, 6)));
    }

    /// A disjunct with plain existentials is sampled only when a test needs
    /// its point; one left alone is still dropped when it has no integer
    /// point (it has rational ones), here alone from the start.
    #[test]
    fn lone_empty_disjunct_goes() {
        let s = set(concat!(
            "{ [x0, x1, x2] : exists e0, e1 : 14 <= 5x0 + 4x1 + 2x2 + 2e0 <= 15 and ",
            "-3 <= 3x0 - 5x1 - 5x2 - 5e0 - 5e1 <= -2 and -14 <= -5x0 + 2x1 + 4x2 + 2e0 + 5e1 <= -13 ",
            "and -11 <= -x1 - x2 - 3e0 <= -10 and -16 <= 3x0 - 4x1 + x2 - 4e0 - 3e1 <= -13 and ",
            "15 <= 5x0 + 2x1 + x2 + 5e0 + 3e1 <= 16 and 5x0 + 4x1 - 2x2 - 5e0 - 2e1 <= 4 and ",
            "9 <= -x0 + 2x1 - x2 - e0 - 3e1 <= 10 }"
        ));
        assert_eq!(s.n_basic(), 1);
        assert!(s.is_empty().unwrap());
        assert_eq!(s.coalesce().unwrap().n_basic(), 0);
    }

    /// A row is valid on the other side without its LP when a row there has
    /// the same linear part and a constant no larger (`implies_row`): of
    /// `x + 5 >= 0`, `x + 3 >= 0`, `y + 2 >= 0`, `x + y - 1 >= 0`, the row
    /// `x + 3 >= 0` implies `x + 4 >= 0` and `x + 3 >= 0`, not `x + 2 >= 0`.
    #[test]
    fn tightest_parallel_rows() {
        let row = |v: &[i64]| v.iter().map(|&x| Int::from(x)).collect::<Vec<Int>>();
        let rows = [
            row(&[5, 1, 0]),
            row(&[3, 1, 0]),
            row(&[2, 0, 1]),
            row(&[-1, 1, 1]),
        ];
        let implied = |r: &Row| rows.iter().any(|t| implies_row(t, r));
        assert!(implied(&row(&[4, 1, 0])));
        assert!(implied(&row(&[3, 1, 0])));
        assert!(!implied(&row(&[2, 1, 0])));
        assert!(implied(&row(&[2, 0, 1])));
        assert!(!implied(&row(&[-2, 1, 1])));
        assert!(!implied(&row(&[9, 1, 1, 0])));
    }

    /// A disjunct whose integer point takes more than [`SAMPLE_STEPS`] to
    /// find (coefficients near `2^70`, from vs_isl's bigcoef family) is kept
    /// as it is: not taken for empty, and never merged.
    #[test]
    fn disjunct_past_the_sample_cap_stays() {
        let hard = concat!(
            "[x0, x1, x2, x3, x4, x5] : exists (e0 : -73786976784689407581N - 1126139122808105x1 + 2252",
            "057028469594x2 + 123171949637336691918 <= 576461096125898463x3 <= -73786976784689407581N -",
            " 1126139122808105x1 + 2252057028469594x2 + 123171949637605127375 and 563115984474965x4 >= ",
            "-2252143658054741x0 - 36893489236828652554x1 + 73786977187700951464x2 + 18015024191062600x",
            "3 + 49185125196609900652 and 2035535372737x5 >= -18446744535516069831N + 141488005830061x0",
            " - 9120778284944x1 - 141644470150747x2 - 36893488859756114280x3 + 43042350446127033809 and",
            " 4504367909206619N + 9007487255458803x2 - 9656399977292x3 + 18263240214429e0 + 15749086200",
            "07480 <= 9763045426629x4 <= 4504367909206619N + 9007487255458803x2 - 9656399977292x3 + 182",
            "63240214429e0 + 1574908620007481 and 281714096539941x5 >= 144115342025907713N - 3602903186",
            "3044076x0 - 18446744192491605172x1 + 141656064598431x2 + 71326369496730x4 + 18088716861113",
            "e0 - 12562017588498876674 and 18446744172130241966x5 >= 2252174426015350x0 - 1152922464842",
            "831297x2 - 71335626927399x3 - 36893488787813708771e0 - 99534034004186401987 and 4504000921",
            "652642x5 >= -2305843917997045226x3 - 590295811278465940015e0 - 1573353548769910158298 and ",
            "72057849086740941x5 <= 563612176516747N - 2305843961901096387x0 + 295147906182361872604x1 ",
            "- 590295811331526157169e0 - 1378895061424056762884 and 72058015442936162x4 <= 710625824770",
            "11N + 72058443965980848x0 - 36029318859038262x1 + 1689530830244x2 - 4504185117943708x3 - 2",
            "88231090084815245e0 - 575076807188678089 and 147573953256879511917x5 <= -92233727550852738",
            "46x0 + 563472469799533x1 + 147573953634957034129x2 + 35353540689384x3 - 115292259143406170",
            "4x4 - 36893489160883515943e0 + 45732917279689922921 and 70846040439536x5 <= -2815506377775",
            "66N + 17979783404128x0 - 36029786237009052x1 + 73786976361148332005x2 - 72057758020791390x",
            "3 + 36029665577964403e0 + 73883536102123726871)"
        );
        let text = format!("[N] -> {{ [0, 0, 0, 0, 0, 0] : N = 0; {hard} }}");
        let s = set(&text);
        assert_eq!(s.n_basic(), 2);
        let part = set(&format!("[N] -> {{ {hard} }}"));
        let mut b = Budget::new(SAMPLE_STEPS);
        assert!(matches!(
            part.0.parts[0].sample_full(&mut b),
            Err(crate::Error::Budget(_))
        ));
        assert!(!part.is_empty().unwrap());
        let c = s.coalesce().unwrap();
        assert_eq!(c.n_basic(), 2, "{c}");
        assert!(c.is_equal(&s).unwrap());
    }

    /// A member keeps the points it learns (new ones only, at most
    /// [`MEMBER_POINTS`]), and a learnt point outside another disjunct
    /// refutes its inclusion there without an inclusion test.
    #[test]
    fn member_points_refute_inclusion() {
        let c = set("{ [x, y] : 0 <= x <= 9 and 0 <= y <= 9 }").0.parts[0].clone();
        let mut m = Member::new(c, 0);
        let mut b = Budget::new(1_000_000);
        // nothing is learnt before the sample
        m.learn(vec![Int::from(9), Int::from(9)]);
        assert!(m.points.is_empty());
        assert_eq!(m.point(&mut b).unwrap(), Sampled::Point);
        assert_eq!(m.points.len(), 1);
        let far = vec![Int::from(9), Int::from(9)];
        m.learn(far.clone());
        m.learn(far.clone());
        assert_eq!(m.points.len(), 2);
        for k in 0..20 {
            m.learn(vec![Int::from(k % 10), Int::from(k / 10)]);
        }
        assert_eq!(m.points.len(), MEMBER_POINTS);
        // a disjunct holding the sample but not the learnt corner
        let corner = set("{ [x, y] : 0 <= x <= 9 and 0 <= y <= 9 and x + y <= 17 }")
            .0
            .parts[0]
            .clone();
        let other = Member::new(corner, 1);
        let sample = &m.points[0];
        assert_eq!(contains_point(&other.c, sample), Some(true));
        assert!(!other.contains(&m.c, &m.points, &mut b).unwrap());
        assert!(!other.contains(&m.c, &m.points[..1], &mut b).unwrap());
        m.check_invariants();
    }

    /// The inclusion test of two disjuncts with divisions: over the
    /// integers, and `None` for a plain existential.
    #[test]
    fn inside_over_the_integers() {
        let part = |t: &str| set(t).0.parts[0].clone();
        let mut b = Budget::new(1_000_000);
        let even = part("{ [x] : 0 <= x <= 10 and x mod 2 = 0 }");
        let evens_to_ten = part("{ [x] : exists (e : x = 2e and 0 <= x <= 10) }");
        let to_nine = part("{ [x] : 0 <= x <= 9 }");
        let odd_to_eleven = part("{ [x] : 1 <= x <= 11 and x mod 2 = 1 }");
        assert_eq!(inside(&even, &to_nine, &mut b).unwrap(), Some(false));
        assert_eq!(
            inside(&even, &part("{ [x] : -1 <= x <= 10 }"), &mut b).unwrap(),
            Some(true)
        );
        // an even number is never odd, though rationally the two overlap
        assert_eq!(inside(&even, &odd_to_eleven, &mut b).unwrap(), Some(false));
        // a division or a plain existential, as the reader leaves it
        let r = inside(&evens_to_ten, &even, &mut b).unwrap();
        if evens_to_ten.divs.iter().all(Option::is_some) {
            assert_eq!(r, Some(true));
        } else {
            assert_eq!(r, None);
        }
    }

    /// Nothing is merged where the union is not one conjunction.
    #[test]
    fn gaps_stay() {
        let c =
            coalesced("{ [x, y] : y >= 0 and x <= 5 and y <= x or y >= 0 and x = 7 and y <= 6 }");
        assert_eq!(c.n_basic(), 2, "{c}");
        let c = coalesced("{ [x, y] : 2x = 3y and 0 <= y <= 4; [-2, -2] }");
        assert_eq!(c.n_basic(), 2, "{c}");
        let c = coalesced("{ [x, 0] : x >= 0; [x, 1] : x <= 20 }");
        assert_eq!(c.n_basic(), 2, "{c}");
    }

    /// A budget too small is an error, never a wrong answer.
    #[test]
    fn budget() {
        let s = set("{ [x, y] : 0 <= x, y <= 10 or 1 <= x, y <= 11 }");
        for steps in [1, 10, 100, 1000, 100_000] {
            match s.coalesce_with_budget(&mut Budget::new(steps)) {
                Ok(c) => assert!(c.is_equal(&s).unwrap()),
                Err(e) => assert!(matches!(e, crate::Error::Budget(_)), "{e}"),
            }
        }
    }

    /// Coefficients near `2^70` (vs_isl's bigcoef family): the Omega split
    /// of the existentials has about `2^70` splinters and the exact tests
    /// need long integer searches; each runs on its own cap, so coalescing
    /// ends at once (it ran for minutes) without an error, the parts inside
    /// another dropped.
    #[test]
    fn huge_coefficients_end() {
        let a = set(concat!(
            "{ [x0, x1, x2, x3] : (exists e0, e1 : -18584886037125x0 - 2034770882209x1 + 73786976569159",
            "515992x2 - 1126573082011297x3 - 9132201443724e0 + 36029850572325029e1 <= 14761639143244784",
            "6264 and 18015173624511740x2 + 144115972538764863x3 + 141408795308068e0 - 17932749319336e1",
            " <= 530018190488981251 and 72057709153292380x0 - 18531791446062x1 - 70818739040804x3 + 720",
            "58598156561540e0 + 36029745652667342e1 <= 107838972493934734 and 73786976776373328634x0 - ",
            "2252858997732060x1 + 2457881564691x3 - 5439960238452e1 <= 115950321264518079625 and 360840",
            "86602975x1 + 36123037230147x2 + 70847965828439x3 + 1152921524926507836e0 - 141777283200875",
            "e1 <= -823372196901005215 and 82124958101460328902 <= 4505162012023x0 + 295147906138298512",
            "886x1 - 1152921582044294723x2 - 35553823172866x3 - 144116168542109109e0 + 2163834319295e1 ",
            "<= 82124958101460328903 and 18446744548174333179x0 - 147573952646246807270x1 + 22520413932",
            "52405x2 - 71402158570809x3 + 9071156672871e0 - 4504620202833592e1 <= -13177783896069283142",
            ") }",
        ));
        let lo = a.intersect(&set("{ [x0, x1, x2, x3] : x0 <= 1 }")).unwrap();
        let hi = a.intersect(&set("{ [x0, x1, x2, x3] : x0 >= 2 }")).unwrap();
        let u = a.union(&lo).unwrap().union(&hi).unwrap();
        let c = u.coalesce().unwrap();
        assert!(c.n_basic() <= u.n_basic(), "{c}");
    }

    /// Small unions of 2-4 disjuncts over `[i, j]`: boxes near each other,
    /// some with a half-space, an equality or a congruence.
    fn arb_union() -> impl Strategy<Value = String> {
        let conj = (
            -3i64..=2,
            0i64..=3,
            -3i64..=2,
            0i64..=3,
            prop::option::of((-1i64..=1, -1i64..=1, -2i64..=2)),
            0u8..=5,
        )
            .prop_map(|(i0, wi, j0, wj, half, extra)| {
                let mut cs = vec![
                    format!("{i0} <= i <= {}", i0 + wi),
                    format!("{j0} <= j <= {}", j0 + wj),
                ];
                if let Some((a, b, c)) = half {
                    cs.push(format!("{a}i + {b}j >= {c}"));
                }
                match extra {
                    0 => cs.push(format!("i = {i0}")),
                    1 => cs.push("(i + j) mod 2 = 0".to_string()),
                    2 => cs.push(format!("j = {j0} + i - {i0}")),
                    _ => {}
                }
                format!("({})", cs.join(" and "))
            });
        prop::collection::vec(conj, 2..=4)
            .prop_map(|ds| format!("{{ [i, j] : {} }}", ds.join(" or ")))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// Coalescing keeps the points (by `is_equal` and by enumeration)
        /// and never adds disjuncts.
        #[test]
        fn coalesce_is_exact(text in arb_union()) {
            let s = set(&text);
            let c = s.coalesce().unwrap();
            prop_assert!(c.is_equal(&s).unwrap(), "{} became {}", text, c);
            let bx = PBox::new(vec![], -5, 6);
            prop_assert_eq!(set_points(&c, &bx), set_points(&s, &bx), "{}", text);
            prop_assert!(c.n_basic() <= s.n_basic(), "{} became {}", text, c);
        }
    }
}
