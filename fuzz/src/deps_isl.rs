//! The dependences of a SCoP computed by isl, for the differential test of
//! the `schedule` crate (`tests/deps_isl.rs`) and the timing `deps_vs_isl`.
//!
//! isl receives the model as text (our printing of the domains `D`, the
//! schedule `S`, the reads and the writes) and computes:
//! - `W = writes ∩_dom D`, `R = reads ∩_dom D` (`isl_union_map_intersect_domain`);
//! - `Before = isl_union_map_lex_lt_union_map(S, S)`, the pairs `i -> j` with
//!   `S(i) <<_lex S(j)`: `i` runs strictly before `j`;
//! - `RAW = W . R⁻¹ ∩ Before` (`isl_union_map_apply_range(W, reverse(R))`: a
//!   write instance to each instance that reads the element it writes, then
//!   only the pairs where the write comes first), `WAR = R . W⁻¹ ∩ Before`,
//!   `WAW = W . W⁻¹ ∩ Before` — memory-based, every earlier access counts;
//! - `flow`: `isl_union_access_info_compute_flow` with `R` as the sink, `W` as
//!   the must-sources and `S` as the schedule map; its must-dependences (each
//!   read instance from its last writer; all our writes are must-writes).
//!
//! The first three are the same formulas as ours, but evaluated by isl's
//! operations (composition, `lex_lt_union_map`, intersection); the flow is
//! isl's own dataflow analysis, an independent algorithm.

use crate::isl::{Ctx, UMap};
use presburger_schedule::{Dependences, Scop};

/// The four relations in isl, in the order raw, war, waw, flow.
pub const KINDS: [&str; 4] = ["raw", "war", "waw", "flow"];

/// The model of `scop` as isl text: domains, schedule, reads, writes.
pub struct ScopText {
    pub domain: String,
    pub schedule: String,
    pub reads: String,
    pub writes: String,
}

impl ScopText {
    pub fn new(scop: &Scop) -> Result<ScopText, String> {
        let e = |e: presburger::Error| format!("ours (printing the model): {e}");
        Ok(ScopText {
            domain: scop.domains().map_err(e)?.to_string(),
            schedule: scop.schedule().map_err(e)?.to_string(),
            reads: scop.reads().map_err(e)?.to_string(),
            writes: scop.writes().map_err(e)?.to_string(),
        })
    }
}

/// The model read by isl.
pub struct IslModel<'a> {
    pub writes: UMap<'a>,
    pub reads: UMap<'a>,
    pub schedule: UMap<'a>,
}

impl<'a> IslModel<'a> {
    /// Parses the texts; `Err` names what isl could not read.
    pub fn read(ctx: &'a Ctx, t: &ScopText) -> Result<IslModel<'a>, String> {
        let dom = ctx
            .union_set(&t.domain)
            .ok_or_else(|| format!("isl cannot read the domain {}", t.domain))?;
        let map = |what: &str, text: &str| {
            ctx.union_map(text)
                .ok_or_else(|| format!("isl cannot read the {what} {text}"))
        };
        let schedule = map("schedule", &t.schedule)?;
        let writes = map("writes", &t.writes)?
            .intersect_domain(&dom)
            .ok_or("isl: writes ∩ domain failed")?;
        let reads = map("reads", &t.reads)?
            .intersect_domain(&dom)
            .ok_or("isl: reads ∩ domain failed")?;
        Ok(IslModel {
            writes,
            reads,
            schedule,
        })
    }

    /// Relation `k` of [`KINDS`] (see the module doc); `None` when isl
    /// failed to compute it (its operation limit, most likely).
    pub fn dependence(&self, k: usize) -> Option<UMap<'a>> {
        if k == 3 {
            return self.reads.compute_flow_must(&self.writes, &self.schedule);
        }
        let before = self.schedule.lex_lt_union_map(&self.schedule)?;
        self.memory_based(k, &before)
    }

    /// RAW, WAR or WAW (`k` = 0, 1, 2) given `Before`.
    fn memory_based(&self, k: usize, before: &UMap<'a>) -> Option<UMap<'a>> {
        let (a, b) = match k {
            0 => (&self.writes, &self.reads),
            1 => (&self.reads, &self.writes),
            _ => (&self.writes, &self.writes),
        };
        a.apply_range(&b.reverse()?)?.intersect(before)
    }

    /// The four relations, in the order of [`KINDS`] (`Before` computed
    /// once); `None` when isl failed on any.
    pub fn dependences(&self) -> Option<[UMap<'a>; 4]> {
        let before = self.schedule.lex_lt_union_map(&self.schedule)?;
        Some([
            self.memory_based(0, &before)?,
            self.memory_based(1, &before)?,
            self.memory_based(2, &before)?,
            self.reads.compute_flow_must(&self.writes, &self.schedule)?,
        ])
    }
}

/// The verdict on one relation.
pub enum Verdict {
    Equal,
    /// Ours and isl's (as texts).
    Differ(String, String),
    /// isl failed (quota) on this relation.
    Skipped(String),
}

/// Our four relations against isl's, each compared by isl's `is_equal` on
/// our printed relation (so a text isl cannot read is a mismatch). `Err`
/// when either side could not build the model at all. Also returns our
/// dependences.
pub fn compare(ctx: &Ctx, scop: &Scop) -> Result<([Verdict; 4], Dependences), String> {
    let deps: Dependences =
        presburger_schedule::dependences(scop).map_err(|e| format!("ours (dependences): {e}"))?;
    let text = ScopText::new(scop)?;
    ctx.reset_operations();
    let model = IslModel::read(ctx, &text)?;
    let ours = [&deps.raw, &deps.war, &deps.waw, &deps.flow];
    let quota = |what: &str| {
        Verdict::Skipped(format!(
            "isl: {what} failed{}",
            if ctx.quota_hit() { " (quota)" } else { "" }
        ))
    };
    let mut out = Vec::new();
    for (k, ours) in ours.iter().enumerate() {
        // isl's limit counts per step: computing the relation, reading ours,
        // comparing
        ctx.reset_operations();
        let Some(t) = model.dependence(k) else {
            out.push(quota(KINDS[k]));
            continue;
        };
        let o = ours.to_string();
        ctx.reset_operations();
        let Some(om) = ctx.union_map(&o) else {
            if ctx.quota_hit() {
                out.push(quota(&format!("reading our {}", KINDS[k])));
            } else {
                out.push(Verdict::Differ(
                    format!("(isl cannot read) {o}"),
                    t.to_text(),
                ));
            }
            continue;
        };
        ctx.reset_operations();
        out.push(match om.is_equal(&t) {
            Some(true) => Verdict::Equal,
            Some(false) => Verdict::Differ(o, t.to_text()),
            None => quota(&format!("is_equal on {}", KINDS[k])),
        });
    }
    let [a, b, c, d]: [Verdict; 4] = out.try_into().map_err(|_| "four verdicts".to_string())?;
    Ok(([a, b, c, d], deps))
}
