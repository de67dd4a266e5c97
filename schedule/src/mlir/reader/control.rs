//! Regions and control flow: `affine.for`, `scf.for` and `affine.parallel`
//! (bounds, steps, the iterators), `affine.if` on integer sets and `scf.if`
//! on `arith.cmpi` conditions, each pushing its conditions and loops for the
//! ops inside.

use super::*;

impl<'a> Reader<'a> {
    /// A region `{ ops }`; returns the offset after its `}`.
    pub(super) fn block(&mut self) -> Result<usize> {
        if self.iters.len() + self.guards.len() > MAX_DEPTH {
            return self.err(
                self.c.pos,
                format!("regions nested more than {MAX_DEPTH} deep"),
            );
        }
        self.c.expect("{", "to open the region")?;
        self.scopes.push(Vec::new());
        self.path.push((self.n_blocks, 0));
        self.n_blocks += 1;
        let r = self.ops_until_close();
        self.path.pop();
        for name in self.scopes.pop().unwrap_or_default() {
            self.vals.remove(&name);
        }
        r
    }

    /// The operations of a region up to its `}`.
    pub(super) fn ops_until_close(&mut self) -> Result<usize> {
        loop {
            if self.c.eat("}") {
                return Ok(self.c.pos);
            }
            if self.c.at_eof() {
                return self.err(self.c.pos, "the region is never closed (missing `}`)");
            }
            self.op()?;
        }
    }

    /// One bound of an `affine.for`: a constant, an SSA value, or a map (under
    /// `max` for lower bounds, `min` for upper ones) applied to operands; the
    /// pieces, in terms of iterators and parameters.
    pub(super) fn affine_bound(&mut self, lower: bool) -> Result<Vec<AffineExpr>> {
        self.c.skip_ws();
        let at = self.c.pos;
        let (good, bad) = if lower {
            ("max", "min")
        } else {
            ("min", "max")
        };
        if self.c.peek_kw(bad) {
            let which = if lower { "lower" } else { "upper" };
            return self.err(at, format!("affine.for: `{bad}` in a {which} bound"));
        }
        self.c.eat_kw(good);
        if self.c.peek_int() {
            return Ok(vec![AffineExpr::Const(self.c.int()?)]);
        }
        if self.c.peek("%") {
            let (n, n_at) = self.operand("a bound")?;
            return self.pieces(n, n_at, "affine.for", lower);
        }
        let map = self.map_ref()?;
        if map.results.is_empty() {
            return self.err(at, "affine.for: a bound map needs at least one result");
        }
        let (dims, syms) = self.map_operands(&map, at, "affine.for")?;
        map.results
            .iter()
            .map(|e| self.compose(e, &dims, &syms, at))
            .collect()
    }

    /// `affine.for %i = lb to ub step s { ... }` or
    /// `scf.for %i = %lb to %ub step %s { ... }`, optionally with
    /// `iter_args(%a = %init, ...) -> (types)` and as many `results`: each
    /// `%a` is a scalar (the 0-d array `a`, as a C accumulator is), written
    /// by a statement before the loop with `%init` and by the body's
    /// `yield` with each iteration's value; the results read it.
    pub(super) fn for_loop(&mut self, op: &str, op_at: usize, results: &[&str]) -> Result<()> {
        let (iv, iv_at) = self.operand("the loop's induction variable")?;
        if self.vals.contains_key(iv) {
            return self.err(iv_at, format!("{op}: %{iv} is already defined"));
        }
        self.c
            .expect("=", &format!("after the induction variable of {op}"))?;
        let (lowers, uppers, step) = if op == "affine.for" {
            let l = self.affine_bound(true)?;
            if !self.c.eat_kw("to") {
                let found = self.c.found();
                return self.err(
                    self.c.pos,
                    format!("expected `to` in affine.for, found {found}"),
                );
            }
            let u = self.affine_bound(false)?;
            let step = if self.c.eat_kw("step") {
                self.c.skip_ws();
                let at = self.c.pos;
                let s = self.c.int()?;
                if s <= 0 {
                    return self.err(at, format!("affine.for: the step {s} must be positive"));
                }
                s
            } else {
                1
            };
            (l, u, step)
        } else {
            let (l, l_at) = self.operand("the lower bound")?;
            let l = self.pieces(l, l_at, op, true)?;
            if !self.c.eat_kw("to") {
                let found = self.c.found();
                return self.err(
                    self.c.pos,
                    format!("expected `to` in scf.for, found {found}"),
                );
            }
            let (u, u_at) = self.operand("the upper bound")?;
            let u = self.pieces(u, u_at, op, false)?;
            if !self.c.eat_kw("step") {
                let found = self.c.found();
                return self.err(
                    self.c.pos,
                    format!("expected `step` in scf.for, found {found}"),
                );
            }
            let (s, s_at) = self.operand("the step")?;
            let s_e = self.index(s, s_at, op)?;
            let Some(step) = constant(&s_e).filter(|k| *k > 0) else {
                return self.err(
                    s_at,
                    format!("scf.for: the step %{s} must be a positive constant"),
                );
            };
            (l, u, step)
        };
        let carried = self.iter_args(op)?;
        // results may go unnamed (unused)
        if !results.is_empty() && carried.len() != results.len() {
            return self.err(
                op_at,
                format!(
                    "{op}: {} results for {} iter_args",
                    results.len(),
                    carried.len()
                ),
            );
        }
        if self.c.eat(":") {
            self.c.skip_type()?;
        }
        let header = (op_at, self.c.pos);
        for (a, init) in &carried {
            self.statement(vec![RawAccess::scalar(a)], vec![init.clone()], header);
        }
        // the loop comes after the statements that start its scalars
        self.seq += 1;
        self.enter_loop(iv, &lowers, &uppers, step, op == "affine.for");
        for (a, _) in &carried {
            self.vals.insert(a.to_string(), Val::Scalar(a.to_string()));
        }
        self.yields
            .push((carried.iter().map(|(a, _)| a.to_string()).collect(), false));
        let r = self.block();
        self.yields.pop();
        for (a, _) in &carried {
            self.vals.remove(*a);
        }
        self.exit_loops(&[iv]);
        r?;
        for (res, (a, _)) in results.iter().zip(&carried) {
            self.define(res, Val::Scalar(a.to_string()));
        }
        Ok(())
    }

    /// The optional `iter_args(%a = %init, ...) -> (types)` of a loop: each
    /// loop-carried name with its initial value.
    fn iter_args(&mut self, op: &str) -> Result<Vec<(&'a str, Val)>> {
        let mut out = Vec::new();
        if !self.c.eat_kw("iter_args") {
            if self.c.peek("->") {
                return self.err(self.c.pos, format!("{op}: results without iter_args"));
            }
            return Ok(out);
        }
        self.c.expect("(", &format!("after iter_args of {op}"))?;
        loop {
            let (a, a_at) = self.operand("a loop-carried value")?;
            if self.vals.contains_key(a) {
                return self.err(a_at, format!("{op}: %{a} is already defined"));
            }
            self.c.expect("=", "after the name of an iter_arg")?;
            let (x, x_at) = self.operand("an initial value")?;
            let v = self.value(x, x_at)?;
            if matches!(v, Val::Memref(_)) {
                return self.err(
                    x_at,
                    format!("{op}: loop-carried memrefs are not supported"),
                );
            }
            out.push((a, v));
            if !self.c.eat(",") {
                break;
            }
        }
        self.c.expect(")", &format!("to close iter_args of {op}"))?;
        self.result_types(op)?;
        Ok(out)
    }

    /// The `-> (types)` (or `-> type`) of an op with results.
    fn result_types(&mut self, op: &str) -> Result<()> {
        self.c
            .expect("->", &format!("before the result types of {op}"))?;
        if self.c.peek("(") {
            self.c.skip_balanced(b'(', b')')?;
        } else {
            self.c.skip_type()?;
        }
        Ok(())
    }

    /// Opens the loop of iterator `iv` (the next dimension) between the
    /// largest of `lowers` and the smallest of `uppers` (exclusive), by
    /// `step`: its conditions, its [`LoopMark`] (`affine` for an
    /// `affine.for` or `affine.parallel`), its iterator.
    pub(super) fn enter_loop(
        &mut self,
        iv: &str,
        lowers: &[AffineExpr],
        uppers: &[AffineExpr],
        step: i64,
        affine: bool,
    ) {
        let depth = self.iters.len();
        let x = AffineExpr::Dim(depth);
        let mut parts: Vec<Guard> = lowers
            .iter()
            .map(|l| Guard::Ge(sub(x.clone(), l.clone())))
            .collect();
        parts.extend(
            uppers
                .iter()
                .map(|u| Guard::Ge(add(sub(u.clone(), x.clone()), AffineExpr::Const(-1)))),
        );
        if step > 1 {
            // the iterator is the start plus a multiple of the step; the start
            // is the lower bound piece that is the largest
            let cases = lowers
                .iter()
                .map(|l| {
                    let mut c: Vec<Guard> = lowers
                        .iter()
                        .map(|o| Guard::Ge(sub(l.clone(), o.clone())))
                        .collect();
                    c.push(Guard::Eq(AffineExpr::Mod(
                        Box::new(sub(x.clone(), l.clone())),
                        Box::new(AffineExpr::Const(step)),
                    )));
                    Guard::And(c)
                })
                .collect();
            parts.push(Guard::Or(cases));
        }
        let id = self.loop_marks.len();
        self.loop_marks.push(LoopMark {
            id,
            parent: self.loop_ids.last().copied(),
            seq: self.seq,
            affine,
        });
        self.loop_ids.push(id);
        self.iters.push(iv.to_string());
        self.vals.insert(iv.to_string(), Val::Index(x));
        self.guards.push(Guard::And(parts));
    }

    /// Closes the innermost loops, of iterators `ivs`.
    pub(super) fn exit_loops(&mut self, ivs: &[&str]) {
        for iv in ivs {
            self.guards.pop();
            self.iters.pop();
            self.loop_ids.pop();
            self.vals.remove(*iv);
        }
    }

    /// `affine.parallel (%i, %j) = (lbs) to (ubs) step (s, t) { ... }`: one
    /// loop per iterator, outermost first; a bound is an affine expression
    /// over SSA values or, below, a `max(...)` of several (above, `min`).
    /// With `reduce ("addf", ...) -> (types)`, each result is a scalar (named
    /// by it): a statement before the loops starts it, and each iteration's
    /// `yield` combines its value into it (reads and writes it), in the
    /// loops' order.
    pub(super) fn parallel(&mut self, op_at: usize, results: &[&str]) -> Result<()> {
        self.c
            .expect("(", "to open the iterators of affine.parallel")?;
        let mut ivs: Vec<&'a str> = Vec::new();
        loop {
            let (iv, iv_at) = self.operand("an induction variable")?;
            if self.vals.contains_key(iv) || ivs.contains(&iv) {
                return self.err(iv_at, format!("affine.parallel: %{iv} is already defined"));
            }
            ivs.push(iv);
            if !self.c.eat(",") {
                break;
            }
        }
        self.c
            .expect(")", "to close the iterators of affine.parallel")?;
        self.c
            .expect("=", "after the iterators of affine.parallel")?;
        let lowers = self.parallel_bounds("max")?;
        if !self.c.eat_kw("to") {
            let found = self.c.found();
            return self.err(
                self.c.pos,
                format!("expected `to` in affine.parallel, found {found}"),
            );
        }
        let uppers = self.parallel_bounds("min")?;
        let mut steps = vec![1; ivs.len()];
        if self.c.eat_kw("step") {
            self.c.expect("(", "to open the steps of affine.parallel")?;
            steps.clear();
            loop {
                self.c.skip_ws();
                let at = self.c.pos;
                let s = self.c.int()?;
                if s <= 0 {
                    return self.err(
                        at,
                        format!("affine.parallel: the step {s} must be positive"),
                    );
                }
                steps.push(s);
                if !self.c.eat(",") {
                    break;
                }
            }
            self.c
                .expect(")", "to close the steps of affine.parallel")?;
        }
        let mut reductions = 0;
        if self.c.eat_kw("reduce") {
            self.c.expect("(", "after `reduce`")?;
            loop {
                self.c.string_lit()?;
                reductions += 1;
                if !self.c.eat(",") {
                    break;
                }
            }
            self.c.expect(")", "to close the reductions")?;
            self.result_types("affine.parallel")?;
        } else if self.c.peek("->") {
            return self.err(op_at, "affine.parallel: results without reductions");
        }
        if !results.is_empty() && results.len() != reductions {
            return self.err(
                op_at,
                format!(
                    "affine.parallel: {} results for {reductions} reductions",
                    results.len()
                ),
            );
        }
        if lowers.len() != ivs.len() || uppers.len() != ivs.len() || steps.len() != ivs.len() {
            return self.err(
                op_at,
                format!(
                    "affine.parallel: {} iterators, {} lower bounds, {} upper bounds, {} steps",
                    ivs.len(),
                    lowers.len(),
                    uppers.len(),
                    steps.len()
                ),
            );
        }
        let header = (op_at, self.c.pos);
        for res in results {
            self.statement(vec![RawAccess::scalar(res)], Vec::new(), header);
        }
        // the loops come after the statements that start the reductions
        self.seq += 1;
        for (k, iv) in ivs.iter().enumerate() {
            self.enter_loop(iv, &lowers[k], &uppers[k], steps[k], true);
        }
        self.yields
            .push((results.iter().map(|r| r.to_string()).collect(), true));
        let r = self.block();
        self.yields.pop();
        let rev: Vec<&str> = ivs.iter().rev().copied().collect();
        self.exit_loops(&rev);
        r?;
        for res in results {
            self.define(res, Val::Scalar(res.to_string()));
        }
        Ok(())
    }

    /// The `(...)` bound list of an `affine.parallel`, `kw` (`max` or `min`)
    /// allowed: the pieces of each bound over the iterators and parameters.
    fn parallel_bounds(&mut self, kw: &str) -> Result<Vec<Vec<AffineExpr>>> {
        self.c
            .expect("(", "to open the bounds of affine.parallel")?;
        let (entries, o) = parse_operand_bounds(&mut self.c, ")", kw)
            .map_err(|e| Error::new(e.line, e.column, format!("affine.parallel: {}", e.message)))?;
        entries
            .iter()
            .map(|pieces| self.resolve(&o, pieces, "affine.parallel"))
            .collect()
    }

    /// `affine.if #set(%d...)[%s...] { ... } else { ... }`, optionally with
    /// results (see [`Reader::if_results`]).
    pub(super) fn if_op(&mut self, op_at: usize, results: &[&str]) -> Result<()> {
        self.c.skip_ws();
        let at = self.c.pos;
        let set = if self.c.eat("affine_set<") {
            parse_set_after_open(&mut self.c)?
        } else if self.c.eat("#") {
            match self.c.ident() {
                Some((n, _)) => match self.sets.get(n) {
                    Some(s) => s.clone(),
                    None => return self.err(at, format!("#{n} is not an integer set alias")),
                },
                None => return self.err(at, "expected an integer set alias after `#`"),
            }
        } else {
            let found = self.c.found();
            return self.err(
                at,
                format!("expected an integer set in affine.if, found {found}"),
            );
        };
        let shape = AffineMap {
            n_dims: set.n_dims,
            n_symbols: set.n_symbols,
            results: Vec::new(),
        };
        let (dims, syms) = self.map_operands(&shape, at, "affine.if")?;
        let mut atoms = Vec::new();
        for (e, is_eq) in &set.constraints {
            let e = self.compose(e, &dims, &syms, at)?;
            atoms.push(if *is_eq { Guard::Eq(e) } else { Guard::Ge(e) });
        }
        self.if_results("affine.if", op_at, results, Guard::And(atoms))
    }

    /// The branches of an `if` with `results` (`-> (types)` next, unless
    /// there are none): each result is a scalar (the 0-d array named by
    /// it) that the `yield` of the branch taken writes, and that its uses
    /// read.
    fn if_results(&mut self, op: &str, op_at: usize, results: &[&str], cond: Guard) -> Result<()> {
        if results.is_empty() {
            if self.c.peek("->") {
                return self.err(op_at, format!("{op}: result types without result names"));
            }
        } else {
            self.result_types(op)?;
        }
        self.yields
            .push((results.iter().map(|r| r.to_string()).collect(), false));
        let r = self.branches(cond);
        self.yields.pop();
        r?;
        for res in results {
            self.define(res, Val::Scalar(res.to_string()));
        }
        Ok(())
    }

    /// `scf.if %c { ... } else { ... }` on a condition from `arith.cmpi` of
    /// affine indices (and `arith.andi`/`ori` of such), optionally with
    /// results (see [`Reader::if_results`]).
    pub(super) fn scf_if(&mut self, op_at: usize, results: &[&str]) -> Result<()> {
        let (c, at) = self.operand("the condition of scf.if")?;
        let cond = match self.value(c, at)? {
            Val::Cond(g) => g,
            Val::NonAffine(why) => {
                return self.err(at, format!("scf.if: the condition %{c} is not affine ({why})"))
            }
            _ => {
                return self.err(
                    at,
                    format!("scf.if: the condition %{c} is not an arith.cmpi of affine indices (data-dependent?)"),
                )
            }
        };
        self.if_results("scf.if", op_at, results, cond)
    }

    /// `%r = arith.cmpi pred, %a, %b : index` with a signed or equality
    /// predicate on affine indices: a condition ([`Val::NonAffine`] otherwise).
    pub(super) fn cmpi(&mut self, r: &str) -> Result<()> {
        let pred = self.c.ident().map(|(p, _)| p).unwrap_or("");
        self.c.expect(",", "after the predicate of arith.cmpi")?;
        let (a, a_at) = self.operand("an operand of arith.cmpi")?;
        self.c.expect(",", "between the operands of arith.cmpi")?;
        let (b, b_at) = self.operand("an operand of arith.cmpi")?;
        self.end_of_line();
        let (va, vb) = (self.value(a, a_at)?, self.value(b, b_at)?);
        let indices = |v: &Val| matches!(v, Val::Index(_) | Val::Param(_));
        let val = if let (Val::NonAffine(why), _) | (_, Val::NonAffine(why)) = (&va, &vb) {
            Val::NonAffine(why.clone())
        } else if !(indices(&va) && indices(&vb)) {
            Val::NonAffine(format!(
                "`arith.cmpi` of %{a} and %{b}, not both affine indices"
            ))
        } else {
            let (x, y) = (
                self.index(a, a_at, "arith.cmpi")?,
                self.index(b, b_at, "arith.cmpi")?,
            );
            let minus1 = |e| add(e, AffineExpr::Const(-1));
            match pred {
                "eq" => Val::Cond(Guard::Eq(sub(x, y))),
                "ne" => Val::Cond(Guard::Eq(sub(x, y)).negate()),
                "sge" => Val::Cond(Guard::Ge(sub(x, y))),
                "sle" => Val::Cond(Guard::Ge(sub(y, x))),
                "sgt" => Val::Cond(Guard::Ge(minus1(sub(x, y)))),
                "slt" => Val::Cond(Guard::Ge(minus1(sub(y, x)))),
                _ => Val::NonAffine(format!(
                    "`arith.cmpi {pred}` (unsigned or unknown predicate)"
                )),
            }
        };
        self.define(r, val);
        Ok(())
    }

    /// The `{ then }` region under `cond` and an optional `else { ... }` under
    /// its negation.
    pub(super) fn branches(&mut self, cond: Guard) -> Result<()> {
        self.guards.push(cond.clone());
        let r = self.block();
        self.guards.pop();
        r?;
        if self.c.eat_kw("else") {
            self.else_guards.push((self.guards.len(), cond.clone()));
            self.guards.push(cond.negate());
            let r = self.block();
            self.guards.pop();
            self.else_guards.pop();
            r?;
        }
        Ok(())
    }

    /// The pieces of an `scf.for` bound `%name`: one affine index, or the
    /// pieces of an `arith.maxsi` (for a lower bound) or `arith.minsi` (for
    /// an upper one), as `affine.for` bounds have them.
    pub(super) fn pieces(
        &mut self,
        name: &str,
        at: usize,
        op: &str,
        lower: bool,
    ) -> Result<Vec<AffineExpr>> {
        match self.value(name, at)? {
            Val::Extremum { max, pieces } if max == lower => Ok(pieces),
            _ => Ok(vec![self.index(name, at, op)?]),
        }
    }
}
