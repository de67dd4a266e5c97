//! Scanning: a loop AST that visits every scheduled statement instance once,
//! in the lexicographic order of its schedule time.
//!
//! Input: a schedule `S[x] -> [t0, ..., t(n-1)]` per statement (a
//! [`UnionMap`] whose ranges all have `n` dimensions; the statements' domain
//! constraints may be inside it), optional domains ([`UnionSet`],
//! intersected with the schedule's domains) and an optional parameter
//! context ([`Set`], a parameter set such as `[N] -> { : N >= 1 }`) that the
//! code may assume. Output: an [`Ast`] whose execution, for any parameter
//! values in the context, calls each statement instance `S(x)` exactly once,
//! the instances in lexicographic order of their times; instances of
//! different statements at the same time run in the order of the statements
//! in the input union map. The loop on time dimension `d` is named `c<d>`
//! (`c0`, `c1`, ...; a dimension fixed to one value by the outer ones has no
//! loop: its value is substituted).
//!
//! # Method
//!
//! The classic scanning of a union of polyhedra dimension by dimension, as
//! in Quilleré, Rajopadhye and Wilde, "Generation of efficient nested loops
//! from polyhedra" (IJPP 2000), with CLooG's refinements (Bastoul, "Code
//! generation in the polyhedral model is easier than you think", PACT 2004)
//! and isl's treatment of strides, guards and the context (Grosser,
//! Verdoolaege, Cohen, "Polyhedral AST generation is more than scanning
//! polyhedra", TOPLAS 2015). Each statement is its set of scheduled times
//! `T_S` (the image of its domain). At time dimension `d`, with the context
//! `C` (what the enclosing loops and conditions guarantee):
//!
//! 1. Project each `T_S` onto `t0 .. td` (exact projection of the inner
//!    dimensions; what cannot be eliminated stays existential).
//! 2. *Separation*: split the projections into disjoint pieces, one per set
//!    of statements active there (`A ∩ B`, `A − B`, `B − A`, ...), each piece
//!    then cut into its conjunctions. With [`Options::atomic`], or when the
//!    split would make more than `8k + 64` pieces for `k` statements (the
//!    number of pieces of `k` mutually shifted statements is quadratic in
//!    `k`), there is no split: each statement's projection is one piece.
//! 3. *Order*: piece `P` must come before `Q` when some point of `P` has a
//!    smaller `td` than some point of `Q` with the same outer values (an
//!    exact emptiness test). Pieces that must come before each other (a
//!    cycle: their ranges on `td` interleave) are merged into one loop, and
//!    the merged pieces are sorted topologically (ties: the input order of
//!    their first statement).
//! 4. *Guards*: the conditions on the outer dimensions and parameters under
//!    which a piece has points, simplified by `gist` against what is known
//!    (an exact gist: a constraint goes when the context and the others imply
//!    it), by inclusion (a guard the context implies goes, a disjunct the
//!    others cover goes), and against the piece's *reach*: where its emitted
//!    code can run anything at all (its loop's bounds and the reach of the
//!    levels inside, computed from the emitted guards and loops and valid for
//!    any outer values), since outside it the guard does not matter (no
//!    `if (N >= 1)` around a loop from 0 to `N - 1`). Conditions common to
//!    all pieces are hoisted around the level when that prints fewer tests.
//! 5. *Loop*: the piece's constraints on `td` (its simple hull when it is a
//!    union; gisted against the context) give the bounds: `td >= ceil(-f/a)`
//!    for each `a·td + f >= 0`, `a > 0`, and `td <= floor(f/a)` for each
//!    `-a·td + f >= 0`; the loop runs from the maximum of the lower bounds to
//!    the minimum of the upper ones. An equality `a·td + f = 0` fixes the
//!    dimension: no loop, `td = -f/a` is substituted below. An equality with
//!    one existential, `a·td + f + m·e = 0`, is a stride: the loop steps by
//!    `m' = m / gcd(a, m)` from the first value `≡ r (mod m')` at or above
//!    each lower bound, `r + m'·ceild(lb − r, m')`. Constraints that the
//!    loop cannot express (other existentials) are left to guards inside.
//! 6. Recurse into the piece with the statements' sets restricted to it and
//!    the context extended by exactly what the guards and the loop enforce
//!    (so every inner guard is gisted against true facts, and whatever the
//!    loop over-approximates is caught by a guard further in).
//!
//! After the last dimension, each statement instance is called, guarded by
//! what is left of its set, with its iterators computed by the inverse of its
//! schedule (the `invert` module). A statement whose inverse is piecewise
//! (a disjunct of its domain fixes an iterator, as on the border of a grid)
//! enters the scan as one statement per piece, the pieces disjoint in time,
//! so each instance is called once, with the expression of its piece.

use crate::ast::{Ast, Bound, Cond, Expr};
use crate::error::{Error, Result};
use crate::invert::{invert, time_var};
use crate::poly::{
    Builder, Env, MAX_SHADOW_ROWS_FOR_BOUNDS, bounds_dim, conj_set, conjs, eliminate_with,
    is_div_row, lift, optional, overflow, project_onto, proved_disjoint, proved_empty,
    proved_empty_conj, proved_subset, set_space, shadow, shadow_capped, shadow_set, simple_hull,
    tidy, to_set, try_coalesce, try_gist,
};
use crate::work::{DEFAULT_MAX_STEPS, Work};
use presburger::{BasicMap, Conjunction, Int, Map, Set, Space, Tuple, UnionMap, UnionSet};
use std::collections::HashMap;

/// Options of the scan.
#[derive(Clone, Debug)]
pub struct Options {
    /// One loop per group of statements whose ranges overlap on a dimension,
    /// with guards inside (isl's "atomic"), instead of one loop per region
    /// where the set of active statements differs (separation, the default;
    /// a dimension whose separation would make more than `8k + 64` regions
    /// for `k` statements is scanned atomically all the same).
    pub atomic: bool,
    /// Per time dimension (missing entries are false): scan the dimension
    /// over the rational shadows of the statements' projections (no
    /// strides, no existential conditions), as Fourier–Motzkin based
    /// generators do (the guards, projections of those shadows, stay
    /// exact: a value fixed by an equality may need a divisibility test). The loop may then run values for which the
    /// levels inside do nothing, which they handle exactly; meant for tile
    /// loops, whose exact projections carry many modulo conditions.
    pub approximate: Vec<bool>,
    /// The work limit of the whole generation, in solver steps (the units
    /// of [`presburger::Budget`]): every query of the inversion, the
    /// separation, the ordering and the simplification of guards draws from
    /// it, and running out is [`Error::WorkLimit`]. The default,
    /// [`DEFAULT_MAX_STEPS`], is `poly codegen --max-steps`'s.
    pub max_steps: u64,
}

impl Default for Options {
    /// Separation, exact scans, [`DEFAULT_MAX_STEPS`].
    fn default() -> Options {
        Options {
            atomic: false,
            approximate: Vec::new(),
            max_steps: DEFAULT_MAX_STEPS,
        }
    }
}

/// One statement, or one piece of a statement whose inverse schedule is
/// piecewise (the pieces of one statement have disjoint times): its name,
/// its scheduled times, and its iterators as expressions of the parameters
/// and the time variables.
struct Stmt {
    name: String,
    time: Set,
    args: Vec<Expr>,
}

/// A piece of a level: a set over `t0 .. td` and the statements active in
/// it, with a key for the order of unrelated pieces.
struct Node {
    set: Set,
    stmts: Vec<usize>,
    key: usize,
    /// The statements all of whose pieces (within the context) are in this
    /// node, set by [`Gen::order`]: their sets need no restriction to it.
    whole: Vec<usize>,
}

/// What the loop of one piece is: a fixed value or bounds and a stride,
/// the constraints it enforces, and `runs`: constraints on the outer
/// dimensions and `td` that hold at every iteration of the emitted loop (or
/// at the substituted value), for any values of the outer dimensions, not
/// only those of the context (an over-approximation: where the emitted code
/// can run its body).
struct LoopParts {
    fixed: Option<Expr>,
    lower: Vec<Expr>,
    upper: Vec<Expr>,
    stride: i64,
    enforced: Conjunction,
    runs: Conjunction,
}

/// A piece with its guard (a set over the outer dimensions where it has
/// points, gisted in the context), its loop and the context inside the loop.
struct Plan {
    node: Node,
    guard: Set,
    lp: LoopParts,
    ctx_in: Set,
}

/// A planned piece with its code (loop or block, without the guard) and
/// where that code can do anything (`reach`, over `t0 .. t(d-1)`).
struct Built {
    full_guard: Set,
    guard: Set,
    code: Ast,
    reach: Set,
}

struct Gen<'a> {
    params: Vec<String>,
    n: usize,
    stmts: Vec<Stmt>,
    /// The iterator's name per time dimension.
    names: Vec<String>,
    /// The expression of each time dimension in the current subtree: its
    /// iterator, or the value substituted for it.
    dims: Vec<Expr>,
    options: &'a Options,
    /// The work limit of the whole generation.
    work: &'a Work,
}

/// A loop AST scanning the schedule (see the module doc).
///
/// ```
/// use presburger_codegen::{generate, Options};
/// let sched: presburger::UnionMap =
///     "[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 1] : 0 <= i < N }".parse()?;
/// let ast = generate(&sched, None, None, &Options::default())?;
/// assert_eq!(
///     ast.to_c(),
///     "\
/// if (N >= 1) {
///   S(0);
///   for (long long c0 = 1; c0 <= N - 1; c0 += 1) {
///     S(c0);
///     T(c0 - 1);
///   }
///   T(N - 1);
/// }
/// "
/// );
/// // for N = 2: S(0), S(1), T(0), T(1)
/// let t = ast.trace(&[("N", 2)], 100)?;
/// let names: Vec<&str> = t.iter().map(|(s, _)| s.as_str()).collect();
/// assert_eq!(names, ["S", "S", "T", "T"]);
/// # Ok::<(), presburger_codegen::Error>(())
/// ```
pub fn generate(
    schedule: &UnionMap,
    domain: Option<&UnionSet>,
    context: Option<&Set>,
    options: &Options,
) -> Result<Ast> {
    generate_in(
        schedule,
        domain,
        context,
        options,
        &Work::new(options.max_steps),
    )
}

/// [`generate`] spending from `work` (shared with the caller, which may run
/// several generations under one limit); `options.max_steps` is not read.
pub(crate) fn generate_in(
    schedule: &UnionMap,
    domain: Option<&UnionSet>,
    context: Option<&Set>,
    options: &Options,
    w: &Work,
) -> Result<Ast> {
    let mut params: Vec<String> = schedule.params().to_vec();
    let mut add_params = |ps: &[String]| {
        for p in ps {
            if !params.contains(p) {
                params.push(p.clone());
            }
        }
    };
    if let Some(d) = domain {
        add_params(d.params());
    }
    if let Some(c) = context {
        if !c.is_params() {
            return Err(Error::Input(format!(
                "the context must be a parameter set such as [N] -> {{ : N >= 1 }}, not {c}"
            )));
        }
        add_params(c.space().params());
    }
    let members = schedule.members();
    let Some(first) = members.first() else {
        return Ok(Ast::Block(Vec::new()));
    };
    let n = first.space().n_out();
    let ctx0 = match context {
        Some(c) => remap_set(c, &params, 0)?,
        None => Set::universe(set_space(&params, 0))?,
    };
    let mut stmts = Vec::new();
    for m in members {
        let sp = m.space();
        let name = sp
            .domain_tuple()
            .and_then(|t| t.name.clone())
            .ok_or_else(|| {
                Error::Input(format!(
                    "every statement needs a name (the domain tuple of {m} has none)"
                ))
            })?;
        if sp.n_out() != n {
            return Err(Error::Input(format!(
                "all schedules must have {n} time dimensions, {name} has {}",
                sp.n_out()
            )));
        }
        let mut m = m.clone();
        if let Some(d) = domain {
            let Some(dom) = sp.domain_space().and_then(|s| d.member_like(&s).cloned()) else {
                continue;
            };
            m = m.intersect_domain(&dom)?;
        }
        if let Some(c) = context {
            m = m.intersect_params(c)?;
        }
        if proved_empty(w, &m.wrap())? {
            continue;
        }
        w.enter(format!("inverting the schedule of {name}"));
        let (time, inverse) = canonical(&m, &params, n)?;
        let text = m.to_string();
        // a piecewise inverse: one statement per piece, disjoint in time
        for piece in invert(w, &inverse, &params, n, &name, &|| text.clone())? {
            stmts.push(Stmt {
                name: name.clone(),
                time: piece.time.unwrap_or_else(|| time.clone()),
                args: piece.args,
            });
        }
    }
    let names = iterator_names(&params, n);
    let dims = names.iter().map(|v| Expr::var(v.clone())).collect();
    let mut g = Gen {
        params,
        n,
        stmts,
        names,
        dims,
        options,
        work: w,
    };
    let active: Vec<(usize, Set)> = g
        .stmts
        .iter()
        .enumerate()
        .map(|(s, st)| (s, st.time.clone()))
        .collect();
    let (body, _) = g.level(0, active, &ctx0)?;
    Ok(block(body))
}

/// The loop iterators' names [`generate`] uses for `n` time dimensions
/// over the parameters `params` (those of the schedule, then of the domains
/// and the context, in order of first appearance): `c0, c1, ...`, or with
/// another prefix when a parameter has one of those names.
pub fn iterator_names(params: &[String], n: usize) -> Vec<String> {
    for prefix in ["c", "t", "i", "c_"] {
        let names: Vec<String> = (0..n).map(|d| format!("{prefix}{d}")).collect();
        if !names.iter().any(|v| params.contains(v)) {
            return names;
        }
    }
    (0..n).map(|d| format!("c_{d}_")).collect()
}

/// The column of parameter `p` of `from` in the parameter list `params`.
fn param_map(from: &[String], params: &[String]) -> Result<Vec<usize>> {
    from.iter()
        .map(|p| {
            params
                .iter()
                .position(|q| q == p)
                .map(|i| 1 + i)
                .ok_or_else(|| Error::Input(format!("unknown parameter {p}")))
        })
        .collect()
}

/// A set rebuilt in `[params] -> { [k] }` (parameters matched by name).
fn remap_set(s: &Set, params: &[String], k: usize) -> Result<Set> {
    let space = set_space(params, k);
    let mut varmap = param_map(s.space().params(), params)?;
    let np = params.len();
    varmap.extend((0..k).map(|j| 1 + np + j));
    let mut parts = Vec::new();
    for c in conjs(s) {
        let mut b = Builder::new(&space);
        b.add(&c, &varmap);
        parts.push(b.build()?);
    }
    to_set(&space, parts)
}

/// The scheduled times of a statement, in `[params] -> { [n] }`, and its
/// inverse schedule `[params] -> { [n] -> [k] }`.
fn canonical(m: &Map, params: &[String], n: usize) -> Result<(Set, Map)> {
    let np = params.len();
    let k = m.space().n_in();
    let pm = param_map(m.space().params(), params)?;
    let tspace = set_space(params, n);
    let mut times = Vec::new();
    let ispace = Space::map(params.to_vec(), Tuple::anonymous(n), Tuple::anonymous(k));
    let inv_map: Vec<usize> = pm
        .iter()
        .copied()
        .chain((0..k).map(|i| 1 + np + n + i))
        .chain((0..n).map(|j| 1 + np + j))
        .collect();
    let mut inverse = Map::empty(ispace.clone())?;
    for b in m.basics() {
        let c = b.conjunction();
        let mut ib = Builder::new(&ispace);
        ib.add(c, &inv_map);
        let ic = ib.build()?;
        inverse = inverse.union(&Map::from(BasicMap::from_conjunction(ic)?))?;
    }
    // the times: the domain of the inverse (the iterators projected out)
    for c in inverse.domain().basics() {
        times.push(c.conjunction().clone());
    }
    let time = to_set(&tspace, times)?;
    Ok((time, inverse))
}

/// One node, or a block of several.
fn block(mut v: Vec<Ast>) -> Ast {
    if v.len() == 1 {
        return v.pop().unwrap_or(Ast::Block(Vec::new()));
    }
    let mut flat = Vec::new();
    for a in v {
        match a {
            Ast::Block(inner) => flat.extend(inner),
            a => flat.push(a),
        }
    }
    Ast::Block(flat)
}

/// `g` simplified in the context `ctx` (same space): `g'` with `g' ∩ ctx =
/// g ∩ ctx`, the universe when `ctx ⊆ g`, else the gist of `g` (isl's gist,
/// exact) without the disjuncts that the others cover within `ctx`.
fn simplify_guard(w: &Work, g: &Set, ctx: &Set) -> Result<Set> {
    let g = try_coalesce(w, try_gist(w, g, ctx)?)?;
    if g.plain_is_universe() {
        return Ok(g);
    }
    if proved_subset(w, ctx, &g)? {
        return Ok(Set::universe(g.space().clone())?);
    }
    let parts = conjs(&g);
    if parts.len() <= 1 || parts.len() > 8 {
        return Ok(g);
    }
    let space = g.space().clone();
    let mut kept = parts;
    let mut k = kept.len();
    while k > 0 {
        k -= 1;
        let others: Vec<_> = kept
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, c)| c.clone())
            .collect();
        let this = to_set(&space, vec![kept[k].clone()])?.intersect(ctx)?;
        if proved_subset(w, &this, &to_set(&space, others)?)? {
            kept.remove(k);
        }
    }
    to_set(&space, kept)
}

/// The number of comparisons in a condition list.
fn n_tests(conds: &[Cond]) -> usize {
    conds
        .iter()
        .map(|c| match c {
            Cond::Ge(_) | Cond::Eq(_) => 1,
            Cond::And(v) | Cond::Or(v) => n_tests(v),
        })
        .sum()
}

/// `then` under `conds` (itself when there are none).
fn guarded(conds: Vec<Cond>, then: Ast) -> Ast {
    if conds.is_empty() {
        then
    } else {
        Ast::If {
            conds,
            then: Box::new(then),
            otherwise: None,
        }
    }
}

fn int64(v: &Int) -> Result<i64> {
    v.to_i64()
        .ok_or_else(|| Error::Unsupported(format!("the coefficient {v} does not fit in 64 bits")))
}

/// The inverse of `a` modulo `m` (`gcd(a, m) = 1`, `m >= 1`).
fn mod_inverse(a: i64, m: i64) -> i64 {
    let (mut r0, mut r1) = (i128::from(a.rem_euclid(m)), i128::from(m));
    let (mut s0, mut s1) = (1i128, 0i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    (s0.rem_euclid(i128::from(m))) as i64
}

/// `e` with its constant and coefficients reduced modulo `m` (the same value
/// modulo `m`, since every atom is an integer).
fn reduce_mod(e: &Expr, m: i64) -> Option<Expr> {
    let mut r = Expr::int(e.constant().rem_euclid(m));
    for (c, a) in e.terms() {
        r = r.checked_add_term(c.rem_euclid(m), a.clone())?;
    }
    Some(r)
}

impl Gen<'_> {
    fn env(&self, k: usize) -> Env<'_> {
        Env {
            params: &self.params,
            dims: &self.dims[..k],
        }
    }

    /// The code for time dimensions `d ..`: `active` holds the statements
    /// with their times (over all `n` dimensions) restricted to the current
    /// subtree; `ctx` (over `t0 .. t(d-1)`) is what holds there.
    /// Also returns where the code can execute anything: a set over `t0 ..
    /// t(d-1)` outside which (for any values, in the context or not) it runs
    /// no statement; an over-approximation, computed from the emitted
    /// guards and loops.
    fn level(&mut self, d: usize, active: Vec<(usize, Set)>, ctx: &Set) -> Result<(Vec<Ast>, Set)> {
        let w = self.work;
        if d == self.n {
            return self.leaf(active, ctx);
        }
        let at = &self.names[d];
        w.enter(format!("projecting the statements onto {at}"));
        // the projections are not intersected with the context (whose
        // existentials would then spread into every piece): the context is
        // added to each emptiness test instead
        let mut projs = Vec::with_capacity(active.len());
        let lctx = lift(ctx, 1)?;
        let approx = self.options.approximate.get(d).copied().unwrap_or(false);
        for (s, t) in &active {
            let mut p = try_coalesce(w, project_onto(w, t, d + 1)?)?;
            if approx {
                // the shadow, unless it lost a bound of this dimension
                // that the exact projection has
                let sh = shadow_set(w, &p)?;
                if bounds_dim(&sh, d) || !bounds_dim(&p, d) {
                    p = sh;
                }
            }
            if !proved_disjoint(w, &p, &lctx)? {
                projs.push((*s, p));
            }
        }
        let projs_all = projs.clone();
        w.enter(format!("separating the statements at {at}"));
        let separated = if self.options.atomic {
            None
        } else {
            separate(w, projs.clone(), &lctx)?
        };
        // atomic at this level when asked, or when separation would make
        // more pieces than `separate` allows
        let atomic = separated.is_none();
        let nodes = match separated {
            Some(nodes) => nodes,
            None => projs
                .into_iter()
                .enumerate()
                .map(|(key, (s, set))| Node {
                    set,
                    stmts: vec![s],
                    key,
                    whole: Vec::new(),
                })
                .collect(),
        };
        w.enter(format!("ordering the pieces at {}", self.names[d]));
        let nodes = self.order(d, nodes, &projs_all, ctx, atomic)?;
        let mut plans = Vec::with_capacity(nodes.len());
        for node in nodes {
            if let Some(p) = self.plan(d, node, ctx)? {
                plans.push(p);
            }
        }
        // the code of each piece, then its guard: where the piece has
        // points, less what the code's doing anything at all implies (a loop
        // whose bounds cross, or a body that does nothing there)
        let mut built = Vec::with_capacity(plans.len());
        for p in plans {
            if let Some(b) = self.build(d, p, &active, ctx)? {
                built.push(b);
            }
        }
        if built.is_empty() {
            return Ok((Vec::new(), Set::empty(set_space(&self.params, d))?));
        }
        // each piece under its own guard, or the conditions common to all
        // pieces hoisted around the level when that prints fewer tests
        w.enter(format!("simplifying the guards at {}", self.names[d]));
        let env_conds = |g: &Set| self.env(d).conds(g);
        let mut own = Vec::with_capacity(built.len());
        let mut own_sets = Vec::with_capacity(built.len());
        for b in &built {
            own.push(env_conds(&b.guard)?);
            own_sets.push(b.guard.clone());
        }
        let mut hoist_conds = Vec::new();
        let mut hoist_set = None;
        if built.len() > 1 {
            let mut any = Set::empty(set_space(&self.params, d))?;
            for b in &built {
                any = any.union(&b.full_guard)?;
            }
            let hoist = conj_set(simple_hull(w, &try_coalesce(w, any)?)?)?;
            let hc = env_conds(&hoist)?;
            if !hc.is_empty() {
                let inside = tidy(w, &ctx.intersect(&hoist)?)?;
                let mut with = Vec::with_capacity(built.len());
                let mut with_sets = Vec::with_capacity(built.len());
                for b in &built {
                    let g = simplify_guard(w, &b.guard, &inside)?;
                    with.push(env_conds(&g)?);
                    with_sets.push(g);
                }
                let count = |v: &[Vec<Cond>]| v.iter().map(|c| n_tests(c)).sum::<usize>();
                if n_tests(&hc) + count(&with) < count(&own) {
                    hoist_conds = hc;
                    hoist_set = Some(hoist);
                    own = with;
                    own_sets = with_sets;
                }
            }
        }
        // where this level's code can do anything: the emitted guards and
        // where each piece's code can
        let mut reach = Set::empty(set_space(&self.params, d))?;
        let mut out = Vec::with_capacity(built.len());
        for ((b, conds), g) in built.into_iter().zip(own).zip(own_sets) {
            if let Some(r) = optional(g.intersect(&b.reach))? {
                reach = reach.union(&r)?;
            } else {
                reach = Set::universe(set_space(&self.params, d))?;
            }
            out.push(guarded(conds, b.code));
        }
        if let Some(h) = hoist_set {
            reach = reach.intersect(&h)?;
        }
        let reach = try_coalesce(w, tidy(w, &reach)?)?;
        Ok((vec![guarded(hoist_conds, block(out))], reach))
    }

    /// The guard and the loop of one piece of level `d` (see the module doc,
    /// steps 4 and 5): the guard is where the piece has points, over the
    /// outer dimensions, gisted in the context.
    fn plan(&self, d: usize, node: Node, ctx: &Set) -> Result<Option<Plan>> {
        let w = self.work;
        w.enter(format!("planning the loop on {}", self.names[d]));
        let g = simplify_guard(w, &try_coalesce(w, project_onto(w, &node.set, d)?)?, ctx)?;
        if proved_empty(w, &g)? {
            return Ok(None);
        }
        let ctx_g = tidy(w, &ctx.intersect(&g)?)?;
        let hull = simple_hull(w, &node.set)?;
        let lifted_ctx = lift(&ctx_g, 1)?;
        let gisted = try_gist(w, &conj_set(hull)?, &lifted_ctx)?;
        let h = match gisted.n_basic() {
            0 => return Ok(None),
            1 => conjs(&gisted).swap_remove(0),
            _ => simple_hull(w, &gisted)?,
        };
        let mut lp = self.loop_parts(d, &h)?;
        if lp.fixed.is_none() && (lp.lower.is_empty() || lp.upper.is_empty()) {
            // no common bound: the least lower and greatest upper bound of
            // the parts (the guards inside keep each part to itself)
            let name = &self.names[d];
            let unbounded = || {
                Error::Unsupported(format!(
                    "the loop on {name} has no lower or upper bound: the scheduled domain \
                     is unbounded (the schedule's constraints and the domains given leave \
                     the instances of a statement unbounded)"
                ))
            };
            if node.set.n_basic() <= 1 {
                return Err(unbounded());
            }
            let (mut los, mut ups) = (Vec::new(), Vec::new());
            for c in conjs(&node.set) {
                let part = try_gist(w, &conj_set(c)?, &lifted_ctx)?;
                let p = self.loop_parts(d, &simple_hull(w, &part)?)?;
                if let Some(v) = p.fixed {
                    los.push(v.clone());
                    ups.push(v);
                } else {
                    los.push(Expr::max(p.lower).ok_or_else(unbounded)?);
                    ups.push(Expr::min(p.upper).ok_or_else(unbounded)?);
                }
            }
            if lp.lower.is_empty() {
                lp.lower = vec![Expr::min(los).ok_or_else(unbounded)?];
            }
            if lp.upper.is_empty() {
                lp.upper = vec![Expr::max(ups).ok_or_else(unbounded)?];
            }
        }
        let ctx_in = tidy(w, &lifted_ctx.intersect(&conj_set(lp.enforced.clone())?)?)?;
        Ok(Some(Plan {
            node,
            guard: g,
            lp,
            ctx_in,
        }))
    }

    /// The code of one planned piece (its loop or fixed value and the
    /// levels inside, without its guard), its final guard and where its code
    /// can do anything. The guard drops what the code's doing anything
    /// implies: outside the code's reach `R` nothing runs, whatever the
    /// guard, so the guard `g'` only has to agree with the piece's guard `g`
    /// on `ctx ∩ R` (a gist). `None` when the body is empty.
    fn build(
        &mut self,
        d: usize,
        plan: Plan,
        active: &[(usize, Set)],
        ctx: &Set,
    ) -> Result<Option<Built>> {
        let w = self.work;
        let n = self.n;
        let Plan {
            node,
            guard,
            lp,
            ctx_in,
        } = plan;
        let mut region: Option<Set> = None;
        let mut inner = Vec::new();
        for &s in &node.stmts {
            let Some((_, t)) = active.iter().find(|(x, _)| *x == s) else {
                continue;
            };
            // a statement whose instances here all lie in the piece needs no
            // restriction to it (which would cut its set into the piece's
            // fragments)
            let t = if node.whole.contains(&s) {
                t.clone()
            } else {
                if region.is_none() {
                    region = Some(lift(&node.set, n - d - 1)?);
                }
                let r = region.as_ref().ok_or_else(overflow)?;
                try_coalesce(w, tidy(w, &t.intersect(r)?)?)?
            };
            inner.push((s, t));
        }
        let saved = self.dims[d].clone();
        self.dims[d] = match &lp.fixed {
            Some(v) => v.clone(),
            None => Expr::var(self.names[d].clone()),
        };
        let body = self.level(d + 1, inner, &ctx_in);
        self.dims[d] = saved;
        let (body, inner_reach) = body?;
        if body.is_empty() {
            return Ok(None);
        }
        w.enter(format!("simplifying the guards at {}", self.names[d]));
        // the reach: where the emitted loop (or value) meets the body's reach
        let reach = match optional(
            inner_reach
                .intersect(&conj_set(lp.runs.clone())?)
                .and_then(|x| x.project_out_exact(presburger::DimKind::Out, d, 1)),
        )? {
            Some(r) => try_coalesce(w, tidy(w, &r)?)?,
            None => Set::universe(set_space(&self.params, d))?,
        };
        let final_guard = simplify_guard(w, &guard, &tidy(w, &ctx.intersect(&reach)?)?)?;
        let code = match lp.fixed {
            Some(_) => block(body),
            None => Ast::For {
                var: self.names[d].clone(),
                lower: Bound(lp.lower),
                upper: Bound(lp.upper),
                stride: lp.stride,
                body: Box::new(block(body)),
            },
        };
        Ok(Some(Built {
            full_guard: guard,
            guard: final_guard,
            code,
            reach,
        }))
    }

    /// The statement calls once every time dimension has its value.
    fn leaf(&mut self, active: Vec<(usize, Set)>, ctx: &Set) -> Result<(Vec<Ast>, Set)> {
        let w = self.work;
        w.enter("guarding the statement calls".into());
        let mut active = active;
        active.sort_by_key(|(s, _)| *s);
        let mut out = Vec::new();
        let mut reach = Set::empty(set_space(&self.params, self.n))?;
        for (s, t) in active {
            if proved_empty(w, &t)? {
                continue;
            }
            let g = simplify_guard(w, &t, ctx)?;
            let conds = self.env(self.n).conds(&g)?;
            reach = reach.union(&g)?;
            let dims = &self.dims;
            let subst = |v: &str| -> Option<Expr> {
                let j = (0..dims.len()).find(|&j| time_var(j) == v)?;
                Some(dims[j].clone())
            };
            let st = &self.stmts[s];
            let mut args = Vec::with_capacity(st.args.len());
            for a in &st.args {
                args.push(a.substitute(&subst).ok_or_else(overflow)?);
            }
            out.push(guarded(
                conds,
                Ast::User {
                    name: st.name.clone(),
                    args,
                },
            ));
        }
        Ok((out, try_coalesce(w, reach)?))
    }

    /// The pieces in execution order, pieces that interleave merged (see the
    /// module doc, step 3); with `atomic`, pieces that overlap are merged too.
    /// `projs` are the statements' projections onto `t0 .. td`: a merged
    /// piece that holds all of its statements' projections (within the
    /// context `ctx`, over `t0 .. t(d-1)`) is their union (fewer fragments
    /// than the union of the pieces).
    ///
    /// The pieces (in the order of their keys) are first cut into *blocks*
    /// of consecutive pieces such that every value of `td` in a block is
    /// smaller than every value in the blocks after it, by the bounds on `td`
    /// alone that the pieces' constraints state (see [`td_bounds`]). No piece
    /// of a later block precedes or overlaps one of an earlier block, and its
    /// keys are larger, so the order of the whole is the blocks' orders one
    /// after the other (the choice by smallest key below takes the earlier
    /// block's components first), and the pairwise tests run within blocks
    /// only. In a block of atomic pieces each of which overlaps the next, all
    /// are one component, with no further test.
    fn order(
        &self,
        d: usize,
        nodes: Vec<Node>,
        projs: &[(usize, Set)],
        ctx: &Set,
        atomic: bool,
    ) -> Result<Vec<Node>> {
        let w = self.work;
        let m = nodes.len();
        if m <= 1 {
            return Ok(nodes
                .into_iter()
                .map(|mut nd| {
                    nd.whole = nd.stmts.clone();
                    nd
                })
                .collect());
        }
        let col = 1 + self.params.len() + d;
        let bounds: Vec<(Option<Int>, Option<Int>)> =
            nodes.iter().map(|nd| td_bounds(&nd.set, col)).collect();
        // block ends: after `p` when the greatest value of `td` up to `p` is
        // below the least one after it
        let mut least_after: Vec<Option<Int>> = vec![None; m];
        for p in (0..m - 1).rev() {
            least_after[p] = match (&bounds[p + 1].0, p + 1 < m - 1) {
                (None, _) => None,
                (Some(lo), false) => Some(lo.clone()),
                (Some(lo), true) => least_after[p + 1].as_ref().map(|l| l.min(lo).clone()),
            };
        }
        let mut blocks = Vec::new();
        let mut start = 0;
        let mut greatest: Option<Int> = None;
        for p in 0..m {
            greatest = match (&bounds[p].1, p == start) {
                (None, _) => None,
                (Some(hi), true) => Some(hi.clone()),
                (Some(hi), false) => greatest.map(|g| g.max(hi.clone())),
            };
            let ends =
                p + 1 == m || matches!((&greatest, &least_after[p]), (Some(g), Some(l)) if g < l);
            if ends {
                blocks.push(start..p + 1);
                start = p + 1;
            }
        }
        let lctx = lift(ctx, 1)?;
        let mut comp = vec![usize::MAX; m];
        let mut order = Vec::new();
        let mut n_comp = 0;
        for b in blocks {
            let overlap = |i: usize, j: usize| -> Result<bool> {
                let both = nodes[i].set.intersect(&nodes[j].set)?;
                Ok(!proved_disjoint(w, &both, &lctx)?)
            };
            let mut chained = atomic;
            for i in b.start..b.end - 1 {
                if !chained {
                    break;
                }
                chained = overlap(i, i + 1)?;
            }
            if chained || b.len() == 1 {
                for c in &mut comp[b.clone()] {
                    *c = n_comp;
                }
                order.push(n_comp);
                n_comp += 1;
                continue;
            }
            let (bcomp, border) =
                self.order_block(d, &nodes[b.clone()], ctx, atomic, &overlap, b.start)?;
            for (k, c) in bcomp.into_iter().enumerate() {
                comp[b.start + k] = n_comp + c;
            }
            let nb = border.len();
            order.extend(border.into_iter().map(|c| n_comp + c));
            n_comp += nb;
        }
        // a statement is whole in a component holding all of its pieces
        let mut only_in: HashMap<usize, Option<usize>> = HashMap::new();
        for (i, nd) in nodes.iter().enumerate() {
            for &s in &nd.stmts {
                only_in
                    .entry(s)
                    .and_modify(|c| {
                        if *c != Some(comp[i]) {
                            *c = None;
                        }
                    })
                    .or_insert(Some(comp[i]));
            }
        }
        let mut whole: Vec<Vec<usize>> = vec![Vec::new(); n_comp];
        for (i, nd) in nodes.iter().enumerate() {
            for &s in &nd.stmts {
                if !whole[comp[i]].contains(&s) && only_in[&s] == Some(comp[i]) {
                    whole[comp[i]].push(s);
                }
            }
        }
        // merge the members of each component (their sets united at once)
        let mut merged: Vec<Option<Node>> = (0..n_comp).map(|_| None).collect();
        let mut more: Vec<Vec<Set>> = vec![Vec::new(); n_comp];
        for (i, node) in nodes.into_iter().enumerate() {
            let c = comp[i];
            merged[c] = Some(match merged[c].take() {
                None => node,
                Some(mut acc) => {
                    more[c].push(node.set);
                    for s in node.stmts {
                        if !acc.stmts.contains(&s) {
                            acc.stmts.push(s);
                        }
                    }
                    acc.stmts.sort_unstable();
                    acc.key = acc.key.min(node.key);
                    acc
                }
            });
        }
        for (c, sets) in more.iter().enumerate() {
            if let Some(acc) = merged[c].as_mut().filter(|_| !sets.is_empty()) {
                acc.set = acc.set.union_all(sets)?;
            }
        }
        let mut out = Vec::with_capacity(n_comp);
        for c in order {
            if let Some(mut node) = merged[c].take() {
                node.whole = std::mem::take(&mut whole[c]);
                node.whole.sort_unstable();
                if node.set.n_basic() > 1 {
                    // a node holding all the pieces of its statements is the
                    // union of their projections (fewer fragments)
                    let all = Set::empty(node.set.space().clone())?.union_all(
                        projs
                            .iter()
                            .filter(|(s, _)| node.stmts.binary_search(s).is_ok())
                            .map(|(_, p)| p),
                    )?;
                    node.set = if node.whole.len() == node.stmts.len()
                        && all.n_basic() < node.set.n_basic()
                    {
                        try_coalesce(w, all)?
                    } else {
                        try_coalesce(w, node.set)?
                    };
                }
                out.push(node);
            }
        }
        Ok(out)
    }

    /// The components of the pieces `nodes` of one block (see
    /// [`Gen::order`]) and their order, by pairwise tests: piece `i` before
    /// `j` when it [`Gen::precedes`] it, and with `atomic` both ways when
    /// they `overlap` (called with the pieces' indices plus `offset`).
    /// Components are the strongly connected components of that relation,
    /// ordered topologically, the smallest key first among those free to go.
    fn order_block(
        &self,
        d: usize,
        nodes: &[Node],
        ctx: &Set,
        atomic: bool,
        overlap: &dyn Fn(usize, usize) -> Result<bool>,
        offset: usize,
    ) -> Result<(Vec<usize>, Vec<usize>)> {
        let m = nodes.len();
        let mut reach = vec![vec![false; m]; m];
        for i in 0..m {
            for j in 0..m {
                if i != j && self.precedes(d, &nodes[i].set, &nodes[j].set, ctx)? {
                    reach[i][j] = true;
                }
            }
        }
        if atomic {
            // pieces of different statements may overlap: those share a loop
            let pairs = (0..m).flat_map(|i| (i + 1..m).map(move |j| (i, j)));
            for (i, j) in pairs {
                if overlap(offset + i, offset + j)? {
                    reach[i][j] = true;
                    reach[j][i] = true;
                }
            }
        }
        let edge = reach.clone();
        // the transitive closure (Warshall)
        for k in 0..m {
            let row_k = reach[k].clone();
            for row in reach.iter_mut() {
                if row[k] {
                    for (x, &y) in row.iter_mut().zip(&row_k) {
                        *x |= y;
                    }
                }
            }
        }
        // strongly connected components
        let mut comp = vec![usize::MAX; m];
        let mut n_comp = 0;
        for i in 0..m {
            if comp[i] != usize::MAX {
                continue;
            }
            comp[i] = n_comp;
            for j in i + 1..m {
                if reach[i][j] && reach[j][i] {
                    comp[j] = n_comp;
                }
            }
            n_comp += 1;
        }
        // the components' order: Kahn's algorithm, smallest key first
        let mut keys = vec![usize::MAX; n_comp];
        for (i, node) in nodes.iter().enumerate() {
            keys[comp[i]] = keys[comp[i]].min(node.key);
        }
        let mut indeg = vec![0usize; n_comp];
        let mut cedge = vec![vec![false; n_comp]; n_comp];
        for i in 0..m {
            for j in 0..m {
                let (a, b) = (comp[i], comp[j]);
                if edge[i][j] && a != b && !cedge[a][b] {
                    cedge[a][b] = true;
                    indeg[b] += 1;
                }
            }
        }
        let mut done = vec![false; n_comp];
        let mut order = Vec::with_capacity(n_comp);
        for _ in 0..n_comp {
            let next = (0..n_comp)
                .filter(|&c| !done[c] && indeg[c] == 0)
                .min_by_key(|&c| keys[c]);
            let Some(c) = next else {
                return Err(Error::Unsupported(
                    "the pieces of a level cannot be ordered".into(),
                ));
            };
            done[c] = true;
            order.push(c);
            for b in 0..n_comp {
                if cedge[c][b] {
                    indeg[b] -= 1;
                }
            }
        }
        Ok((comp, order))
    }

    /// True when some point of `a` has a smaller `td` than some point of `b`
    /// with the same `t0 .. t(d-1)` and parameters, in the context `ctx`.
    fn precedes(&self, d: usize, a: &Set, b: &Set, ctx: &Set) -> Result<bool> {
        let w = self.work;
        let np = self.params.len();
        let space = set_space(&self.params, d + 2);
        let same: Vec<usize> = (1..=np + d).collect();
        let mut ma = same.clone();
        ma.push(1 + np + d);
        let mut mb = same;
        mb.push(1 + np + d + 1);
        let ctx_parts = conjs(ctx);
        for ca in conjs(a) {
            for cb in conjs(b) {
                for cc in &ctx_parts {
                    let mut bld = Builder::new(&space);
                    bld.add(&ca, &ma);
                    bld.add(&cb, &mb);
                    bld.add(cc, &ma[..np + d]);
                    // v - u - 1 >= 0
                    let mut row = vec![Int::ZERO; 1 + np + d + 2];
                    row[0] = Int::from(-1);
                    row[1 + np + d] = Int::from(-1);
                    row[1 + np + d + 1] = Int::ONE;
                    bld.ineq(row);
                    let c = bld.build()?;
                    if !proved_empty_conj(w, &c)? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// The loop on `td` that `h` (a conjunction over `t0 .. td`) gives (see
    /// the module doc, step 5).
    fn loop_parts(&self, d: usize, h: &Conjunction) -> Result<LoopParts> {
        let np = self.params.len();
        let tcol = 1 + np + d;
        let first_local = tcol + 1;
        let n_col = h.n_col();
        let nl = h.n_local();
        let divs = h.divs();
        let pad = |r: &[Int]| {
            let mut r = r.to_vec();
            r.resize(n_col, Int::ZERO);
            r
        };
        let mut eqs: Vec<Vec<Int>> = h.equalities().iter().map(|r| pad(r)).collect();
        let mut ineqs: Vec<Vec<Int>> = h.inequalities().iter().map(|r| pad(r)).collect();
        // known locals: divisions of parameters, outer dimensions and known locals
        let mut known = vec![false; nl];
        for l in 0..nl {
            if let Some(dv) = &divs[l] {
                let num = pad(&dv.num);
                known[l] = num[tcol].is_zero()
                    && (0..l).all(|l2| num[first_local + l2].is_zero() || known[l2]);
            }
        }
        let unknown_in = |r: &[Int]| -> Vec<usize> {
            (0..nl)
                .filter(|&l| !known[l] && !r[first_local + l].is_zero())
                .collect()
        };
        let used_by_divs = |l: usize| {
            divs.iter()
                .flatten()
                .any(|dv| dv.num.get(first_local + l).is_some_and(|v| !v.is_zero()))
        };
        // a stride: an equality on td with exactly one unknown local
        let mut stride_eq: Option<(usize, usize)> = None;
        for (k, r) in eqs.iter().enumerate() {
            if r[tcol].is_zero() {
                continue;
            }
            if let [l] = unknown_in(r)[..] {
                if !used_by_divs(l) {
                    stride_eq = Some((k, l));
                    break;
                }
            }
        }
        if let Some((k, l)) = stride_eq {
            let col = first_local + l;
            let e = eqs[k].clone();
            for (j, r) in eqs.iter_mut().enumerate() {
                if j != k && !r[col].is_zero() {
                    *r = eliminate_with(r, &e, col, true);
                }
            }
            for r in ineqs.iter_mut() {
                if !r[col].is_zero() && !is_div_row(h, r) {
                    *r = eliminate_with(r, &e, col, false);
                }
            }
        }
        let all_known = |r: &[Int]| unknown_in(r).is_empty();
        let env = self.env(d + 1);
        // the part of a row without td
        let rest = |r: &[Int]| -> Result<Expr> {
            let mut f = r.to_vec();
            f[tcol] = Int::ZERO;
            env.row(h, &f)?.ok_or_else(overflow)
        };
        let mut b = Builder::new(h.space());
        b.add_locals(h);
        // a fixed value
        let fixed_row = eqs
            .iter()
            .filter(|r| !r[tcol].is_zero() && all_known(r))
            .min_by_key(|r| r[tcol].abs());
        if let Some(r) = fixed_row {
            let a = int64(&r[tcol])?;
            let f = rest(r)?;
            let v = if a > 0 {
                f.checked_mul(-1).and_then(|x| x.floor_div(a))
            } else {
                f.floor_div(a.checked_neg().ok_or_else(overflow)?)
            }
            .ok_or_else(overflow)?;
            b.eq_full(r.clone());
            // the value emitted is floor(-f / a) for any outer values:
            // a·td <= -f <= a·td + a - 1 (the equality when |a| = 1)
            let mut runs = Builder::new(h.space());
            runs.add_locals(h);
            if a.abs() == 1 {
                runs.eq_full(r.clone());
            } else {
                let pos: Vec<Int> = if a > 0 {
                    r.clone()
                } else {
                    r.iter().map(|v| -v).collect()
                };
                let mut up = pos.clone();
                up[0] = &up[0] + (a.abs() - 1);
                runs.ineq_full(pos.iter().map(|v| -v).collect());
                runs.ineq_full(up);
            }
            return Ok(LoopParts {
                fixed: Some(v),
                lower: Vec::new(),
                upper: Vec::new(),
                stride: 1,
                enforced: b.build()?,
                runs: runs.build()?,
            });
        }
        // the stride
        let mut stride = 1i64;
        let mut offset = Expr::int(0);
        // the rows whose projection is where the loop runs at least once
        let mut ne = Builder::new(h.space());
        ne.add_locals(h);
        if let Some((k, l)) = stride_eq {
            let e = &eqs[k];
            let a = int64(&e[tcol])?;
            let m = int64(&e[first_local + l])?
                .checked_abs()
                .ok_or_else(overflow)?;
            let g = gcd(a, m);
            let m2 = m / g;
            if m2 > 1 {
                let a2 = a / g;
                let inv = mod_inverse(a2, m2);
                let mut f = e.clone();
                f[first_local + l] = Int::ZERO;
                let fe = rest(&f)?;
                // a·td ≡ -f (mod m): td ≡ -(f/g)·inv (mod m2)
                let r = fe
                    .floor_div(g)
                    .and_then(|x| x.checked_mul(-inv))
                    .and_then(|x| reduce_mod(&x, m2))
                    .ok_or_else(overflow)?;
                stride = m2;
                offset = r;
                b.eq_full(e.clone());
                if g == 1 {
                    // the offset is exact: the loop runs exactly on the stride
                    ne.eq_full(e.clone());
                }
            }
        }
        let mut lower = Vec::new();
        let mut upper = Vec::new();
        let mut rows: Vec<Vec<Int>> = ineqs
            .iter()
            .filter(|r| !r[tcol].is_zero() && all_known(r))
            .cloned()
            .collect();
        let has = |rows: &[Vec<Int>], positive: bool| {
            rows.iter().any(|r| r[tcol].is_positive() == positive)
        };
        let (lo_missing, up_missing) = (!has(&rows, true), !has(&rows, false));
        if lo_missing || up_missing {
            // bounds stated through existentials: their rational shadow,
            // with a higher cap when the usual one lost them
            let (_, mut sh) = shadow(h);
            let lost = |sh: &[Vec<Int>]| {
                (lo_missing && !sh.iter().any(|r| r[tcol].is_positive()))
                    || (up_missing && !sh.iter().any(|r| r[tcol].is_negative()))
            };
            if lost(&sh) {
                sh = shadow_capped(h, MAX_SHADOW_ROWS_FOR_BOUNDS).1;
            }
            for mut r in sh {
                let wanted = if r[tcol].is_positive() {
                    lo_missing
                } else {
                    up_missing && r[tcol].is_negative()
                };
                if wanted {
                    r.resize(n_col, Int::ZERO);
                    rows.push(r);
                }
            }
        }
        for r in &rows {
            let a = int64(&r[tcol])?;
            let f = rest(r)?;
            if a > 0 {
                // td >= ceil(-f / a)
                let lb = f
                    .checked_mul(-1)
                    .and_then(|x| x.ceil_div(a))
                    .ok_or_else(overflow)?;
                let lb = if stride > 1 {
                    lb.checked_sub(&offset)
                        .and_then(|x| x.ceil_div(stride))
                        .and_then(|x| x.checked_mul(stride))
                        .and_then(|x| x.checked_add(&offset))
                        .ok_or_else(overflow)?
                } else {
                    lb
                };
                if !lower.contains(&lb) {
                    lower.push(lb);
                }
            } else {
                let ub = f
                    .floor_div(a.checked_neg().ok_or_else(overflow)?)
                    .ok_or_else(overflow)?;
                if !upper.contains(&ub) {
                    upper.push(ub);
                }
            }
            b.ineq_full(r.clone());
            ne.ineq_full(r.clone());
        }
        let runs = ne.build()?;
        if stride == 1 && lower.len() == 1 && upper.len() == 1 && lower[0] == upper[0] {
            return Ok(LoopParts {
                fixed: Some(lower[0].clone()),
                lower: Vec::new(),
                upper: Vec::new(),
                stride: 1,
                enforced: b.build()?,
                runs,
            });
        }
        Ok(LoopParts {
            fixed: None,
            lower,
            upper,
            stride,
            enforced: b.build()?,
            runs,
        })
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// The conjunctions of `set`, made pairwise disjoint (within `lctx`) when
/// they are not: each one less the ones before it. A piece cut into
/// overlapping conjunctions would run the instances in the overlap twice.
fn disjoint_conjs(w: &Work, set: &Set, lctx: &Set) -> Result<Vec<Conjunction>> {
    let parts = conjs(set);
    if parts.len() <= 1 {
        return Ok(parts);
    }
    let space = set.space().clone();
    let one = |c: &Conjunction| to_set(&space, vec![c.clone()]);
    let mut overlap = false;
    'pairs: for i in 0..parts.len() {
        for j in i + 1..parts.len() {
            let both = one(&parts[i])?.intersect(&one(&parts[j])?)?;
            if !proved_disjoint(w, &both, lctx)? {
                overlap = true;
                break 'pairs;
            }
        }
    }
    if !overlap {
        return Ok(parts);
    }
    let mut out: Vec<Conjunction> = Vec::new();
    let mut work: Vec<Conjunction> = parts.into_iter().rev().collect();
    let mut steps = 0usize;
    while let Some(c) = work.pop() {
        steps += 1;
        if steps > 1000 {
            return Err(Error::Unsupported(
                "a piece cannot be cut into disjoint conjunctions in 1000 steps".into(),
            ));
        }
        let mut r = one(&c)?;
        for d in &out {
            let d = one(d)?;
            if !proved_disjoint(w, &r, &d)? {
                r = w.required(|b| r.subtract_with_budget(&d, b))?;
            }
        }
        let r = tidy(w, &r)?;
        let mut rest = conjs(&r);
        match rest.len() {
            0 => {}
            1 => out.extend(rest.pop()),
            _ => work.extend(rest.into_iter().rev()),
        }
    }
    Ok(out)
}

/// Bounds on column `col` (one of the set's dimensions, in the layout of
/// its rows) that hold at every point of `s`: for each conjunction, the
/// constraints on that column alone (`a·x + c >= 0` or `= 0`), the least
/// lower and greatest upper bound over the conjunctions; `None` where some
/// conjunction has no such bound. (Rows of other variables are ignored, so
/// the bounds may be loose, never wrong.)
fn td_bounds(s: &Set, col: usize) -> (Option<Int>, Option<Int>) {
    let mut lo: Option<Int> = None;
    let mut hi: Option<Int> = None;
    for (k, c) in conjs(s).iter().enumerate() {
        let (mut clo, mut chi): (Option<Int>, Option<Int>) = (None, None);
        let alone = |r: &[Int]| {
            r.get(col).is_some_and(|a| !a.is_zero())
                && r.iter()
                    .enumerate()
                    .skip(1)
                    .all(|(j, x)| j == col || x.is_zero())
        };
        let mut lower = |v: Int| clo = Some(clo.take().map_or(v.clone(), |x| x.max(v)));
        let mut upper = |v: Int| chi = Some(chi.take().map_or(v.clone(), |x| x.min(v)));
        for r in c.inequalities().iter().filter(|r| alone(r)) {
            // a·x + c >= 0
            let (a, cst) = (&r[col], &r[0]);
            if a.is_positive() {
                lower((-cst).ceil_div(a));
            } else {
                upper(cst.floor_div(&-a));
            }
        }
        for r in c.equalities().iter().filter(|r| alone(r)) {
            let (a, cst) = (&r[col], &r[0]);
            lower((-cst).ceil_div(a));
            upper((-cst).floor_div(a));
        }
        // a conjunction without a bound leaves the union without one
        lo = if k == 0 {
            clo
        } else {
            lo.zip(clo).map(|(x, y)| x.min(y))
        };
        hi = if k == 0 {
            chi
        } else {
            hi.zip(chi).map(|(x, y)| x.max(y))
        };
    }
    (lo, hi)
}

/// The most pieces [`separate`] makes for `k` statements: past it the level
/// is scanned atomically (a loop per group of overlapping statements, with
/// guards), whose code grows with the number of statements, where complete
/// separation of `k` mutually shifted statements makes a number of pieces
/// quadratic in `k`, each holding up to `k` statements.
fn max_pieces(k: usize) -> usize {
    8 * k + 64
}

/// The pieces of the statements' projections where the set of active
/// statements differs (separation), each cut into its conjunctions, those
/// without points in the context `lctx` left out; a key per piece in the
/// order found. Each projection in turn splits the pieces so far into the
/// part inside it and the part outside, and adds what it has beyond them.
/// `None` as soon as there are more than [`max_pieces`] pieces.
fn separate(w: &Work, projs: Vec<(usize, Set)>, lctx: &Set) -> Result<Option<Vec<Node>>> {
    let max = max_pieces(projs.len());
    let mut pieces: Vec<(Set, Vec<usize>)> = Vec::new();
    for (s, p) in projs {
        if pieces.len() > max {
            return Ok(None);
        }
        let mut rest = p.clone();
        let mut next = Vec::with_capacity(2 * pieces.len() + 1);
        for (r, a) in pieces {
            if proved_disjoint(w, &r, &p)? {
                next.push((r, a));
                continue;
            }
            let both = r.intersect(&p)?;
            if !proved_disjoint(w, &both, lctx)? {
                let mut a2 = a.clone();
                a2.push(s);
                next.push((try_coalesce(w, tidy(w, &both)?)?, a2));
            }
            let only = w.required(|b| r.subtract_with_budget(&p, b))?;
            if !proved_disjoint(w, &only, lctx)? {
                next.push((try_coalesce(w, tidy(w, &only)?)?, a));
            }
            rest = w.required(|b| rest.subtract_with_budget(&r, b))?;
        }
        if !proved_disjoint(w, &rest, lctx)? {
            next.push((try_coalesce(w, tidy(w, &rest)?)?, vec![s]));
        }
        pieces = next;
    }
    let mut nodes = Vec::new();
    for (set, stmts) in pieces {
        let space = set.space().clone();
        for c in disjoint_conjs(w, &set, lctx)? {
            let key = nodes.len();
            let part = to_set(&space, vec![c])?;
            if proved_disjoint(w, &part, lctx)? {
                continue;
            }
            nodes.push(Node {
                set: part,
                stmts: stmts.clone(),
                key,
                whole: Vec::new(),
            });
        }
    }
    if nodes.len() > max {
        return Ok(None);
    }
    // unrelated pieces in the order of their first statement
    nodes.sort_by_key(|nd| (nd.stmts.first().copied(), nd.key));
    for (k, nd) in nodes.iter_mut().enumerate() {
        nd.key = k;
    }
    Ok(Some(nodes))
}
