//! The schedules of the `schedule` crate against isl's scheduler, for the
//! test `tests/schedule_isl.rs` and the timing `schedule_vs_isl`.
//!
//! isl receives our model as text: the statements' domains restricted to
//! the SCoP's context (`D`) and our dependences `Dep = RAW ∪ WAR ∪ WAW`
//! restricted to the context (memory-based, as [`presburger_schedule::validity::check`]
//! uses them). From them:
//! - [`isl_schedule`]: isl's scheduler (`isl_schedule_constraints_on_domain(D)`
//!   with validity = proximity = coincidence = `Dep`, then
//!   `isl_schedule_constraints_compute_schedule`, isl's default options),
//!   its tree flattened by `isl_schedule_get_map` and read back by our
//!   parser (every statement padded with zero dimensions to the largest
//!   number of time dimensions when they differ);
//! - [`isl_valid`]: isl's check of a schedule `S` (ours, printed):
//!   `Dep ⊆ S ; <_lex ; S⁻¹`, i.e. `Dep.is_subset(lex_lt_union_map(S, S))`:
//!   every dependence pair runs its target strictly after its source.
//!
//! [`metrics`] measures a schedule given as a union map the same way for
//! ours and isl's, with the exact helpers of the `schedule` crate
//! ([`presburger_schedule::schedule::band_is_permutable`],
//! [`presburger_schedule::schedule::parallel_dims`]).

use crate::isl::{Ctx, NodeType, ScheduleNode, UMap, USet};
use presburger::build::{Constraint, Expr};
use presburger::{DimKind, Map, Space, Tuple, UnionMap, UnionSet};
use presburger_schedule::{Dependences, Scop};

/// The context of `scop` as a union set of parameters (what
/// `intersect_params` takes).
fn context(scop: &Scop) -> Result<UnionSet, String> {
    let mut ctx = UnionSet::empty(scop.context.space().params().to_vec());
    ctx.add(scop.context.clone())
        .map_err(|e| format!("ours (context): {e}"))?;
    Ok(ctx)
}

/// The statements' domains of `scop`, each restricted to the context.
pub fn domains_in_context(scop: &Scop) -> Result<UnionSet, String> {
    let e = |e: presburger::Error| format!("ours (domains in the context): {e}");
    let mut out = UnionSet::empty(scop.params.clone());
    for s in &scop.statements {
        out.add(s.domain.intersect_params(&scop.context).map_err(e)?)
            .map_err(e)?;
    }
    Ok(out)
}

/// `RAW ∪ WAR ∪ WAW` of `deps`, restricted to the context of `scop`: the
/// relation a valid schedule must respect (the flow is a subset of RAW).
pub fn all_dependences(scop: &Scop, deps: &Dependences) -> Result<UnionMap, String> {
    let e = |e: presburger::Error| format!("ours (the union of the dependences): {e}");
    let ctx = context(scop)?;
    deps.raw
        .union(&deps.war)
        .and_then(|u| u.union(&deps.waw))
        .and_then(|u| u.intersect_params(&ctx))
        .map_err(e)
}

/// What isl is given, as text (our printing): the domains in the context and
/// the dependences (see the module doc).
pub struct SchedInput {
    /// `D`: the domains restricted to the context.
    pub domain: String,
    /// `Dep`: RAW ∪ WAR ∪ WAW restricted to the context.
    pub deps: String,
}

impl SchedInput {
    /// The texts for `scop` and its dependences `deps`.
    pub fn new(scop: &Scop, deps: &Dependences) -> Result<SchedInput, String> {
        Ok(SchedInput {
            domain: domains_in_context(scop)?.to_string(),
            deps: all_dependences(scop, deps)?.to_string(),
        })
    }

    /// The domains and the dependences read by isl.
    pub fn read<'a>(&self, ctx: &'a Ctx) -> Result<(USet<'a>, UMap<'a>), String> {
        let d = ctx
            .union_set(&self.domain)
            .ok_or_else(|| format!("isl cannot read the domains {}", self.domain))?;
        let m = ctx
            .union_map(&self.deps)
            .ok_or_else(|| format!("isl cannot read the dependences {}", self.deps))?;
        Ok((d, m))
    }
}

/// The outer band of one part of isl's schedule tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeBand {
    /// Its number of members.
    pub members: usize,
    /// How many of them isl marked coincident.
    pub coincident: usize,
}

/// isl's schedule of a SCoP.
pub struct IslSchedule {
    /// `isl_schedule_get_map` as isl printed it.
    pub text: String,
    /// The same read by our parser, padded to `dims` time dimensions.
    pub map: UnionMap,
    /// The number of time dimensions of `map`.
    pub dims: usize,
    /// True when isl's flattened schedule gave the statements different
    /// numbers of time dimensions (so `map` was padded with zeros).
    pub padded: bool,
    /// The outer bands of the tree, for information: one when a band is
    /// reached from the root through nodes with one child; under a sequence
    /// or set node reached first, the outer band of each of its children (a
    /// child without a band gives 0 members).
    pub tree: Vec<TreeBand>,
}

impl IslSchedule {
    /// The outer bands of the tree, `members/coincident`, joined by `+`
    /// for the parts of a top sequence or set.
    pub fn tree_text(&self) -> String {
        let parts: Vec<String> = self
            .tree
            .iter()
            .map(|b| format!("{}/{}", b.members, b.coincident))
            .collect();
        parts.join("+")
    }
}

/// The outer bands below `node` (see [`IslSchedule::tree`]).
fn outer_bands(node: &ScheduleNode, out: &mut Vec<TreeBand>) -> Result<(), String> {
    let kind = node.kind().ok_or("isl: node type")?;
    let n = node.n_children().ok_or("isl: children")?;
    match kind {
        NodeType::Band => {
            let members = node.band_n_member().ok_or("isl: band members")?;
            let mut coincident = 0;
            for k in 0..members {
                coincident += usize::from(
                    node.band_member_coincident(k)
                        .ok_or("isl: coincident member")?,
                );
            }
            out.push(TreeBand {
                members,
                coincident,
            });
        }
        NodeType::Sequence | NodeType::Set => {
            for k in 0..n {
                let mut one = Vec::new();
                outer_bands(&node.child(k).ok_or("isl: child")?, &mut one)?;
                out.push(one.first().copied().unwrap_or(TreeBand {
                    members: 0,
                    coincident: 0,
                }));
            }
        }
        _ if n == 1 => outer_bands(&node.child(0).ok_or("isl: child")?, out)?,
        _ => out.push(TreeBand {
            members: 0,
            coincident: 0,
        }),
    }
    Ok(())
}

/// `m` (one statement's schedule, `k` time dimensions) followed by `n - k`
/// zero dimensions.
fn pad(m: &Map, n: usize) -> presburger::Result<Map> {
    let k = m.space().n_out();
    let space = Space::map(
        m.space().params().to_vec(),
        Tuple::anonymous(k),
        Tuple::anonymous(n),
    );
    let cons: Vec<Constraint> = (0..n)
        .map(|d| {
            if d < k {
                Expr::dim(DimKind::Out, d).eq(Expr::dim(DimKind::In, d))
            } else {
                Expr::dim(DimKind::Out, d).eq(0)
            }
        })
        .collect();
    m.apply_range(&Map::from_constraints(&space, cons)?)
}

/// isl's schedule for the SCoP given by `input` (see the module doc); `Err`
/// when isl fails (its operation limit: [`Ctx::quota_hit`]) or when our
/// parser cannot read isl's map.
pub fn isl_schedule(ctx: &Ctx, input: &SchedInput) -> Result<IslSchedule, String> {
    let (dom, deps) = input.read(ctx)?;
    let s = dom.compute_schedule(&deps, &deps, &deps).ok_or_else(|| {
        format!(
            "isl: compute_schedule failed{}",
            if ctx.quota_hit() { " (quota)" } else { "" }
        )
    })?;
    let text = s.map().ok_or("isl: get_map failed")?.to_text();
    let mut tree = Vec::new();
    outer_bands(&s.root().ok_or("isl: no root")?, &mut tree)?;
    let parsed: UnionMap = text
        .parse()
        .map_err(|e| format!("ours cannot read isl's schedule {text}: {e}"))?;
    let dims = parsed
        .members()
        .iter()
        .map(|m| m.space().n_out())
        .max()
        .unwrap_or(0);
    let padded = parsed.members().iter().any(|m| m.space().n_out() != dims);
    let e = |e: presburger::Error| format!("ours (padding isl's schedule {text}): {e}");
    let mut map = UnionMap::empty(parsed.params().to_vec());
    for m in parsed.members() {
        if m.space().range_tuple().name.is_some() {
            return Err(format!("isl's schedule has a named time space: {text}"));
        }
        map.add(pad(m, dims).map_err(e)?).map_err(e)?;
    }
    Ok(IslSchedule {
        text,
        map,
        dims,
        padded,
        tree,
    })
}

/// isl's verdict on the schedule `sched` (ours, printed and read by isl)
/// for the dependences of `input`: `Dep ⊆ lex_lt_union_map(S, S)`. `Err`
/// when isl cannot read it or fails (its operation limit).
pub fn isl_valid(ctx: &Ctx, input: &SchedInput, sched: &UnionMap) -> Result<bool, String> {
    let text = sched.to_string();
    let s = ctx
        .union_map(&text)
        .ok_or_else(|| format!("isl cannot read the schedule {text}"))?;
    let deps = ctx
        .union_map(&input.deps)
        .ok_or_else(|| format!("isl cannot read the dependences {}", input.deps))?;
    let quota = |what: &str| {
        format!(
            "isl: {what} failed{}",
            if ctx.quota_hit() { " (quota)" } else { "" }
        )
    };
    let before = s
        .lex_lt_union_map(&s)
        .ok_or_else(|| quota("lex_lt_union_map"))?;
    deps.is_subset(&before).ok_or_else(|| quota("is_subset"))
}

/// What [`metrics`] measures of a schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metrics {
    /// The number of time dimensions.
    pub dims: usize,
    /// Per dimension: every statement's time there is one constant over
    /// its instances (for every parameter value of the context).
    pub scalar: Vec<bool>,
    /// The longest `L` such that dimensions `0..L` form a permutable band
    /// (`band_is_permutable(.., 0, L - 1)`).
    pub band_prefix: usize,
    /// The non-scalar dimensions among those `L`: the outer band depth.
    pub band_depth: usize,
    /// Per dimension, from `parallel_dims`.
    pub parallel: Vec<bool>,
    /// The non-scalar dimensions that are parallel: the parallel loops.
    pub parallel_loops: usize,
}

/// True when dimension `d` of each member of `sched` (a schedule already
/// restricted to the statements' instances) takes one value only, over
/// the instances and the parameter values (an unbounded range is not one
/// value).
fn scalar_dim(sched: &UnionMap, d: usize) -> presburger::Result<bool> {
    for m in sched.members() {
        let r = m.range();
        let np = r.space().n_param();
        let n = r.space().n_out();
        // the parameters become set dimensions: a constant must not depend
        // on them either
        let r = r.move_dims(DimKind::Out, n, DimKind::Param, 0, np)?;
        let bounds = (r.dim_min(d), r.dim_max(d));
        match bounds {
            (Ok(lo), Ok(hi)) => {
                if !lo.is_equal(&hi)? {
                    return Ok(false);
                }
            }
            (Err(presburger::Error::Unbounded(_)), _)
            | (_, Err(presburger::Error::Unbounded(_))) => return Ok(false),
            (Err(e), _) | (_, Err(e)) => return Err(e),
        }
    }
    Ok(true)
}

/// The metrics of the schedule `sched` (`n` time dimensions, every
/// statement of `scop`) for `deps`, computed the same way whoever made the
/// schedule: a dimension is scalar when every statement's time there is a
/// constant on its instances in the context; the outer band starts at the
/// first non-scalar dimension `f` (the scalar dimensions before it only
/// distribute: the pairs they order are not asked to be permutable, as in a
/// sequence node of isl's tree) and is the longest `f..L` that is a
/// permutable band for the pairs not ordered before `f`; its depth counts
/// its non-scalar dimensions; the parallel loops are the non-scalar
/// dimensions that carry no dependence.
pub fn metrics(
    scop: &Scop,
    deps: &Dependences,
    sched: &UnionMap,
    n: usize,
) -> Result<Metrics, String> {
    let e = |e: presburger::Error| format!("ours (metrics): {e}");
    let on_domains = sched
        .intersect_domain(&domains_in_context(scop)?)
        .map_err(e)?;
    let scalar = (0..n)
        .map(|d| scalar_dim(&on_domains, d))
        .collect::<presburger::Result<Vec<bool>>>()
        .map_err(e)?;
    let first = (0..n).find(|&d| !scalar[d]).unwrap_or(n);
    let mut band_prefix = first;
    while band_prefix < n
        && presburger_schedule::schedule::band_is_permutable(
            scop,
            deps,
            sched,
            n,
            first,
            band_prefix,
        )
        .map_err(e)?
    {
        band_prefix += 1;
    }
    let band_depth = (first..band_prefix).filter(|&d| !scalar[d]).count();
    let parallel = presburger_schedule::schedule::parallel_dims(scop, deps, sched, n).map_err(e)?;
    let parallel_loops = (0..n).filter(|&d| parallel[d] && !scalar[d]).count();
    Ok(Metrics {
        dims: n,
        scalar,
        band_prefix,
        band_depth,
        parallel,
        parallel_loops,
    })
}

/// The C kernels of `../schedule/tests/kernels/` (named by their stem) and,
/// with `pluto`, those of `../schedule/tests/pluto-kernels/` (named `pluto/STEM`), each
/// directory sorted by name: `(name, source text)`.
pub fn kernels(pluto: bool) -> std::io::Result<Vec<(String, String)>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![(root.join("../schedule/tests/kernels"), "")];
    if pluto {
        dirs.push((root.join("../schedule/tests/pluto-kernels"), "pluto/"));
    }
    let mut out = Vec::new();
    for (dir, prefix) in dirs {
        let mut files: Vec<_> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        files.sort();
        for p in files {
            let stem = p.file_stem().unwrap_or_default().to_string_lossy();
            out.push((format!("{prefix}{stem}"), std::fs::read_to_string(&p)?));
        }
    }
    Ok(out)
}
