//! The optimiser's middle: a schedule of a SCoP, tiled, scanned into loops,
//! the loops marked parallel or vectorisable.
//!
//! [`optimize`] takes a SCoP, its dependences and a schedule (crate
//! `schedule`, e.g. from `presburger_schedule::compute`) and:
//!
//! 1. tiles each permutable band of at least two loops ([`crate::tile`]),
//!    reordering the point loops for locality;
//! 2. computes exactly which dimensions of the transformed schedule carry no
//!    dependence (`presburger_schedule::schedule::parallel_dims`; a tile dimension is
//!    not always parallel when its band dimension is);
//! 3. checks the tiled schedule against the dependences
//!    (`presburger_schedule::validity::check`; a failure is an error, never wrong
//!    code), after checking that each band it tiles is permutable
//!    (`presburger_schedule::schedule::band_is_permutable`; a band that is not stays
//!    untiled);
//! 4. with [`OptOptions::wavefront`], runs each tiled band that has no
//!    parallel tile loop and no parallel loop around it as a wavefront of
//!    tiles (its second tile loop is then parallel; legal for any
//!    permutable band, so not checked again: the full check of a wavefront
//!    takes seconds);
//! 5. scans it ([`crate::generate`]) and marks the loops
//!    ([`crate::Mark`]): with [`OptOptions::openmp`], the outermost parallel
//!    loop of each nest `#pragma omp parallel for` (loops inside a marked
//!    one are not marked again); an innermost loop that is parallel (and not
//!    marked for threads) with [`OptOptions::vector`]: `#pragma omp simd`
//!    (with OpenMP) or `#pragma GCC ivdep` (gcc may ignore the latter with a
//!    warning, "ignoring loop annotation", on loops it reshapes first).
//!
//! The C text of the result is produced by [`crate::emit`].

use crate::ast::{Ast, Mark};
use crate::error::{Error, Result};
use crate::scan::{Options, generate_in, iterator_names};
use crate::tile::{Layout, TileOptions};
use crate::work::Work;
use presburger::build::Expr as Aff;
use presburger::{Set, UnionMap};
use presburger_schedule::schedule::{band_is_permutable, parallel_dims};
use presburger_schedule::validity::{Validity, check};
use presburger_schedule::{Dependences, Schedule, Scop};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// What [`optimize`] does.
#[derive(Clone, Debug)]
pub struct OptOptions {
    /// Tiling (see [`TileOptions`]).
    pub tile: TileOptions,
    /// Mark parallel loops `#pragma omp parallel for`.
    pub openmp: bool,
    /// Run tiled bands without a parallel tile loop as wavefronts of tiles.
    pub wavefront: bool,
    /// The mark of innermost parallel loops, for the vectoriser
    /// ([`Mark::OmpSimd`] or [`Mark::Ivdep`]; `None` for none).
    pub vector: Option<Mark>,
    /// The work limit of the code generation ([`Options::max_steps`]),
    /// one for the scan with approximate tile loops and, should that fail,
    /// the exact scan together.
    pub max_steps: u64,
}

impl Default for OptOptions {
    /// Tiling by 32, no OpenMP, no wavefront, no vector marks, the default
    /// work limit.
    fn default() -> OptOptions {
        OptOptions {
            tile: TileOptions::default(),
            openmp: false,
            wavefront: false,
            vector: None,
            max_steps: crate::DEFAULT_MAX_STEPS,
        }
    }
}

/// The result of [`optimize`].
#[derive(Clone, Debug)]
pub struct Optimized {
    /// The marked loop AST; statement calls `S0(..)` take the statement's
    /// iterators, loop `names[k]` scans dimension `k` of `schedule`.
    pub ast: Ast,
    /// The transformed schedule (statement instances to times).
    pub schedule: UnionMap,
    /// What each dimension of `schedule` is.
    pub layout: Layout,
    /// Per dimension of `schedule`: true when it carries no dependence.
    pub parallel: Vec<bool>,
    /// The loop iterator's name per dimension of `schedule`.
    pub names: Vec<String>,
    /// The time each step took (`tile`, `parallel`, `wavefront`, `check`,
    /// `scan`), for `poly opt --verbose`.
    pub timings: Vec<(&'static str, Duration)>,
    /// What was given up and why (see [`optimize`]).
    pub notes: Vec<String>,
}

/// The transformed schedule of [`transform`], before the scan.
#[derive(Clone, Debug)]
pub struct Transformed {
    /// The transformed schedule (statement instances to times).
    pub schedule: UnionMap,
    /// What each dimension of `schedule` is.
    pub layout: Layout,
    /// Per dimension of `schedule`: true when it carries no dependence.
    pub parallel: Vec<bool>,
    /// The time each step took.
    pub timings: Vec<(&'static str, Duration)>,
}

/// Steps 1 to 4 of [`optimize`]: `sched`, a schedule of `scop` for the
/// dependences `deps`, tiled, its parallel dimensions found, wavefronts
/// made, and checked (see the module doc).
pub fn transform(
    scop: &Scop,
    deps: &Dependences,
    sched: &Schedule,
    opts: &OptOptions,
) -> Result<Transformed> {
    if sched.statements.len() != scop.statements.len() {
        return Err(Error::Input(format!(
            "the schedule has {} statements, the SCoP {}",
            sched.statements.len(),
            scop.statements.len()
        )));
    }
    let mut timings = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |name: &'static str| {
        let now = Instant::now();
        timings.push((name, now - clock));
        clock = now;
    };
    // only bands that are permutable (the scheduler's word, checked) are
    // tiled; a band of one dimension always is
    let n = sched.n_dims();
    let whole = sched.to_union_map()?;
    let mut checked = sched.clone();
    checked.bands.clear();
    for &(a, b) in &sched.bands {
        let ok = a == b
            || (b < n
                && band_is_permutable(scop, deps, &whole, n, a, b)
                    .map_err(|e| during("checking the bands", e))?);
        if ok {
            checked.bands.push((a, b));
        }
    }
    let sched = &checked;
    let mut layout = Layout::new(sched, &opts.tile)?;
    if opts.tile.reorder {
        layout = layout.reorder_points(scop, sched);
    }
    let mut map = layout.union_map(scop, sched)?;
    lap("tile");
    let mut parallel = parallel_dims(scop, deps, &map, layout.len())
        .map_err(|e| during("finding the parallel loops", e))?;
    lap("parallel");
    // the tiled schedule checked against the dependences (the wavefront
    // below is legal for any permutable band: a dependence's tile distances
    // are non-negative on both dimensions it adds)
    let validity = check(scop, deps, &map).map_err(|e| during("checking the schedule", e))?;
    if let Validity::Invalid(v) = validity {
        return Err(Error::Unsupported(format!(
            "the transformed schedule violates a dependence ({v}); this is a bug"
        )));
    }
    lap("check");
    if opts.wavefront {
        let mut changed = false;
        for b in 0..layout.bands.len() {
            let band = &layout.bands[b];
            if band.tiles.len() < 2 {
                continue;
            }
            let first = band.tiles[0];
            let tile_parallel = band.tiles.iter().any(|&k| parallel[k]);
            let outer_parallel = (0..first).any(|k| parallel[k] && !layout.is_scalar(sched, k));
            if !tile_parallel && !outer_parallel {
                layout = layout.wavefront(b)?;
                changed = true;
            }
        }
        if changed {
            map = layout.union_map(scop, sched)?;
            parallel = parallel_dims(scop, deps, &map, layout.len())
                .map_err(|e| during("finding the parallel loops of the wavefront", e))?;
        }
        lap("wavefront");
    }
    Ok(Transformed {
        schedule: map,
        layout,
        parallel,
        timings,
    })
}

/// Tiles, checks, scans and marks `sched`, a schedule of `scop` for the
/// dependences `deps` (see the module doc). Should a step fail with the
/// wavefront, it is tried again without it, then without tiling, each
/// retreat told in [`Optimized::notes`]; the error of the untiled attempt
/// is returned when that fails too.
pub fn optimize(
    scop: &Scop,
    deps: &Dependences,
    sched: &Schedule,
    opts: &OptOptions,
) -> Result<Optimized> {
    let mut attempt = opts.clone();
    let mut notes = Vec::new();
    loop {
        match optimize_once(scop, deps, sched, &attempt) {
            Ok(mut r) => {
                r.notes = notes;
                return Ok(r);
            }
            Err(e) if attempt.wavefront => {
                notes.push(format!("no wavefront of tiles ({e})"));
                attempt.wavefront = false;
            }
            Err(e) if attempt.tile.tile => {
                notes.push(format!("no tiling ({e})"));
                attempt.tile.tile = false;
            }
            Err(e) => return Err(e),
        }
    }
}

/// One attempt of [`optimize`] with `opts` as they are.
fn optimize_once(
    scop: &Scop,
    deps: &Dependences,
    sched: &Schedule,
    opts: &OptOptions,
) -> Result<Optimized> {
    let Transformed {
        schedule: map,
        layout,
        parallel,
        mut timings,
    } = transform(scop, deps, sched, opts)?;
    let clock = Instant::now();
    let domains = scop.domains()?;
    let scan_options = Options {
        approximate: layout.tile_dims(),
        ..Options::default()
    };
    // the approximate tile loops first; should they fail (a shadow that
    // lost a bound), the exact scan
    let work = Work::new(opts.max_steps);
    let ast = generate_in(
        &map,
        Some(&domains),
        Some(&scop.context),
        &scan_options,
        &work,
    )
    .or_else(|e| match e {
        Error::WorkLimit { .. } => Err(e),
        _ => generate_in(
            &map,
            Some(&domains),
            Some(&scop.context),
            &Options::default(),
            &work,
        ),
    })
    .map_err(|e| match e {
        Error::Presburger(e) => during("scanning the schedule", e),
        e => e,
    })?;
    let mut params: Vec<String> = map.params().to_vec();
    for p in domains.params().iter().chain(scop.context.space().params()) {
        if !params.contains(p) {
            params.push(p.clone());
        }
    }
    let names = iterator_names(&params, layout.len());
    timings.push(("scan", clock.elapsed()));
    let dim_of: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(k, v)| (v.as_str(), k))
        .collect();
    // a loop is parallel when its dimension carries no dependence between
    // the statements of its body (all statements: `parallel`; a loop around
    // some of them only: computed for those, once per set of statements)
    let mut cache: HashMap<Vec<String>, Vec<bool>> = HashMap::new();
    let n = layout.len();
    let mut is_parallel = |d: usize, stmts: &[String]| -> Result<bool> {
        if parallel.get(d).copied().unwrap_or(false) {
            return Ok(true);
        }
        if stmts.len() == scop.statements.len() {
            return Ok(false);
        }
        if let Some(v) = cache.get(stmts) {
            return Ok(v.get(d).copied().unwrap_or(false));
        }
        let mut sub = UnionMap::empty(map.params().to_vec());
        for m in map.members() {
            let name = m.space().domain_tuple().and_then(|t| t.name.clone());
            if name.is_some_and(|x| stmts.contains(&x)) {
                sub.add(m.clone())?;
            }
        }
        let v = parallel_dims(scop, deps, &sub, n)
            .map_err(|e| during("finding the parallel loops", e))?;
        let r = v.get(d).copied().unwrap_or(false);
        cache.insert(stmts.to_vec(), v);
        Ok(r)
    };
    let ast = mark(ast, &dim_of, &mut is_parallel, opts, false)?;
    Ok(Optimized {
        ast,
        schedule: map,
        layout,
        parallel,
        names,
        timings,
        notes: Vec::new(),
    })
}

/// `scop` with its context restricted to the parameter values `values`
/// (`(name, value)`; names that are no parameter of `scop` are ignored),
/// e.g. the sizes a C file `#define`s ([`crate::emit::constant_macros`]):
/// the generated code is then specialised to them. Returns the names
/// fixed.
pub fn specialize(scop: &mut Scop, values: &[(String, i64)]) -> Result<Vec<String>> {
    let space = scop.context.space().clone();
    let params = space.params().to_vec();
    let mut cons = Vec::new();
    let mut fixed = Vec::new();
    for (name, v) in values {
        if let Some(k) = params.iter().position(|p| p == name) {
            if !fixed.contains(name) {
                cons.push(Aff::param(k).eq(Aff::constant(*v)));
                fixed.push(name.clone());
            }
        }
    }
    if !cons.is_empty() {
        let c = Set::from_constraints(&space, cons)?;
        scop.context = scop.context.intersect(&c)?;
    }
    Ok(fixed)
}

/// A failure of `presburger` during `step`, saying so.
fn during(step: &str, e: presburger::Error) -> Error {
    Error::Unsupported(format!("{step}: {e}"))
}

/// True when `ast` holds no loop.
fn loop_free(ast: &Ast) -> bool {
    let mut found = false;
    ast.walk(&mut |a| found |= matches!(a, Ast::For { .. }));
    !found
}

/// The names of the statements `ast` calls, sorted, without repeats.
fn statements_in(ast: &Ast) -> Vec<String> {
    let mut v = Vec::new();
    ast.walk(&mut |a| {
        if let Ast::User { name, .. } = a {
            v.push(name.clone());
        }
    });
    v.sort();
    v.dedup();
    v
}

/// Whether dimension `d` carries no dependence between the statements.
type ParallelTest<'a> = dyn FnMut(usize, &[String]) -> Result<bool> + 'a;

/// `ast` with its loops marked (see the module doc); `inside` is true within
/// a loop already marked for threads.
fn mark(
    ast: Ast,
    dim_of: &HashMap<&str, usize>,
    is_parallel: &mut ParallelTest<'_>,
    opts: &OptOptions,
    inside: bool,
) -> Result<Ast> {
    Ok(match ast {
        Ast::For {
            var,
            lower,
            upper,
            stride,
            body,
        } => {
            let is_par = match dim_of.get(var.as_str()) {
                Some(&d) => is_parallel(d, &statements_in(&body))?,
                None => false,
            };
            let threads = opts.openmp && is_par && !inside;
            let innermost = loop_free(&body);
            let body = Box::new(mark(*body, dim_of, is_parallel, opts, inside || threads)?);
            let node = Ast::For {
                var,
                lower,
                upper,
                stride,
                body,
            };
            if threads {
                Ast::Mark {
                    mark: Mark::OmpParallelFor,
                    body: Box::new(node),
                }
            } else if let (true, true, Some(m)) = (is_par, innermost, opts.vector) {
                Ast::Mark {
                    mark: m,
                    body: Box::new(node),
                }
            } else {
                node
            }
        }
        Ast::If {
            conds,
            then,
            otherwise,
        } => Ast::If {
            conds,
            then: Box::new(mark(*then, dim_of, is_parallel, opts, inside)?),
            otherwise: match otherwise {
                Some(o) => Some(Box::new(mark(*o, dim_of, is_parallel, opts, inside)?)),
                None => None,
            },
        },
        Ast::Block(v) => Ast::Block(
            v.into_iter()
                .map(|a| mark(a, dim_of, is_parallel, opts, inside))
                .collect::<Result<_>>()?,
        ),
        Ast::Mark { mark: m, body } => Ast::Mark {
            mark: m,
            body: Box::new(mark(*body, dim_of, is_parallel, opts, inside)?),
        },
        user @ Ast::User { .. } => user,
    })
}
