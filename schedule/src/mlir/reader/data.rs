//! Operations on values: index arithmetic (`arith.constant`, `affine.apply`,
//! `arith.addi`/`subi`/`muli`, ...), computations on data (other `arith` and
//! `math` ops), `memref.alloca`, and the loads and stores whose subscripts
//! become accesses; each store records a statement.

use super::*;

/// SSA operands as written: names without `%`, and the offsets of their `%`.
type Operands<'a> = Vec<(&'a str, usize)>;

/// The data computed from values `vals` by the op at `span`: their reads
/// (a scalar argument is a read of its 0-d array), merged without repeats so
/// that `%y = arith.addf %x, %x` chains stay as large as the loads they
/// read, and the spans of the ops that compute them.
fn data_of(vals: Vec<Val>, span: (usize, usize)) -> Val {
    let mut reads: Vec<(usize, RawAccess)> = Vec::new();
    let mut spans = vec![span];
    let mut merge = |key: usize, a: RawAccess| {
        if !reads.iter().any(|(k, b)| *k == key && b.array == a.array) {
            reads.push((key, a));
        }
    };
    for v in vals {
        match v {
            Val::Data { reads: r, spans: s } => {
                for (key, a) in r {
                    merge(key, a);
                }
                spans.extend(s);
            }
            Val::Scalar(s) => merge(span.0, RawAccess::scalar(&s)),
            _ => {}
        }
    }
    spans.sort_unstable();
    spans.dedup();
    Val::Data { reads, spans }
}

impl<'a> Reader<'a> {
    /// `%r = memref.alloca(%sizes) {attributes} : memref<...>`: a local
    /// array named by its SSA name (its sizes are not modelled).
    pub(super) fn alloc(&mut self, op: &str, r: &str) -> Result<()> {
        while let Some(b) = self.c.byte() {
            if b == b':' || b == b'\n' {
                break;
            }
            if b == b'{' {
                self.c.skip_balanced(b'{', b'}')?;
                continue;
            }
            self.c.bump();
        }
        if !self.c.eat(":") {
            return self.err(
                self.c.pos,
                format!("expected `:` and the memref type of {op}"),
            );
        }
        self.c.skip_ws();
        let ty_at = self.c.pos;
        self.c.skip_type()?;
        let ty = self.c.src.get(ty_at..self.c.pos).unwrap_or("");
        let Some(info) = memref_info(ty) else {
            return self.err(ty_at, format!("{op}: cannot read the memref type `{ty}`"));
        };
        self.end_of_line();
        self.memrefs.insert(r.to_string(), info);
        self.define(r, Val::Memref(r.to_string()));
        Ok(())
    }

    /// `%r = arith.constant 3 : index` (an index constant), `%r =
    /// index.constant 3` (`index` set: no type follows) or any other
    /// constant (data without reads).
    pub(super) fn constant(&mut self, r: &str, index: bool) -> Result<()> {
        let val = if self.c.peek_int() {
            let v = self.c.int()?;
            self.skip_blanks();
            if index || (self.c.eat(":") && (self.c.peek_kw("index") || self.c.peek("i"))) {
                Val::Index(AffineExpr::Const(v))
            } else {
                Val::Data {
                    reads: Vec::new(),
                    spans: Vec::new(),
                }
            }
        } else {
            Val::Data {
                reads: Vec::new(),
                spans: Vec::new(),
            }
        };
        self.end_of_line();
        self.define(r, val);
        Ok(())
    }

    /// An `arith` or `math` op: index arithmetic when all operands are
    /// indices, otherwise a computation on data (its reads are its operands').
    pub(super) fn arith(&mut self, name: &str, r: &str, start: usize) -> Result<()> {
        let operands = self.line_operands()?;
        let end = self.c.pos;
        let mut vals = Vec::new();
        for (n, at) in &operands {
            vals.push(self.value(n, *at)?);
        }
        let is_index = |v: &Val| matches!(v, Val::Index(_) | Val::Param(_) | Val::NonAffine(_));
        // `arith.select %c, %a, %b` on an affine condition: data from both
        // values (piecewise, so not affine, on indices)
        if name == "arith.select" && vals.len() == 3 && matches!(vals[0], Val::Cond(_)) {
            if vals[1..].iter().all(is_index) {
                let why = "`arith.select` of index values is piecewise".to_string();
                self.define(r, Val::NonAffine(why));
                return Ok(());
            }
            vals.remove(0);
        }
        if vals.iter().any(|v| matches!(v, Val::Cond(_))) {
            let conds: Vec<Guard> = vals
                .iter()
                .filter_map(|v| match v {
                    Val::Cond(g) => Some(g.clone()),
                    _ => None,
                })
                .collect();
            let why = vals.iter().find_map(|v| match v {
                Val::NonAffine(w) => Some(w.clone()),
                _ => None,
            });
            let val = match name {
                _ if why.is_some() => Val::NonAffine(why.unwrap_or_default()),
                "arith.andi" if conds.len() == vals.len() => Val::Cond(Guard::And(conds)),
                "arith.ori" if conds.len() == vals.len() => Val::Cond(Guard::Or(conds)),
                _ => Val::NonAffine(format!("`{name}` of a condition")),
            };
            self.define(r, val);
            return Ok(());
        }
        if matches!(name, "arith.maxsi" | "arith.minsi")
            && vals.len() == 2
            && vals
                .iter()
                .all(|v| matches!(v, Val::Index(_) | Val::Param(_) | Val::Extremum { .. }))
        {
            let max = name == "arith.maxsi";
            let mut pieces = Vec::new();
            for ((n, at), v) in operands.iter().zip(&vals) {
                match v {
                    Val::Extremum { max: m, pieces: p } if *m == max => {
                        pieces.extend(p.iter().cloned())
                    }
                    Val::Extremum { .. } => {
                        let why = "`arith.maxsi` and `arith.minsi` mixed".to_string();
                        self.define(r, Val::NonAffine(why));
                        return Ok(());
                    }
                    _ => pieces.push(self.index(n, *at, name)?),
                }
            }
            self.define(r, Val::Extremum { max, pieces });
            return Ok(());
        }
        let index_op = name.starts_with("arith.") || name.starts_with("index.");
        let val = if !vals.is_empty() && vals.iter().all(is_index) && index_op {
            self.index_arith(name, &operands)?
        } else {
            data_of(vals, (start, end))
        };
        self.define(r, val);
        Ok(())
    }

    /// An `arith`, `math` or `index` op without a result name
    /// (`arith.addi %i, %j : index`): its value is used by nothing, so it
    /// makes no statement; its operands must still be defined.
    pub(super) fn unnamed_arith(&mut self) -> Result<()> {
        for (n, at) in self.line_operands()? {
            self.value(n, at)?;
        }
        Ok(())
    }

    /// The SSA operands on the rest of the op's line, before its `:` type
    /// (or a comment); the cursor ends at the line's end.
    fn line_operands(&mut self) -> Result<Vec<(&'a str, usize)>> {
        let mut operands = Vec::new();
        while let Some(b) = self.c.byte() {
            if b == b'\n' || (b == b'/' && self.c.byte_at(self.c.pos + 1) == Some(b'/')) {
                break;
            }
            if b == b':' {
                break;
            }
            if b == b'%' {
                operands.push(self.operand("an operand")?);
            } else {
                self.c.bump();
            }
        }
        self.end_of_line();
        Ok(operands)
    }

    /// An op of another dialect in MLIR's generic form, `%r = "d.op"(%a, %b)
    /// {attrs} : (types) -> type` (or with no result), or a `func.call @f(%a)`,
    /// without regions and whose operands are no memrefs: like an `arith` op
    /// on data, its results are computed from its operands (and it touches
    /// no memory the model knows of).
    ///
    /// The generic form may span lines (`"d.op"(%a)\n  {attrs}\n  : (f32) ->
    /// ()`). An op at the function's top level (in no loop or condition)
    /// whose one result is an `index` is a parameter: it has one value in a
    /// run of the function, as MLIR takes it for a valid symbol.
    pub(super) fn generic(
        &mut self,
        name: &str,
        name_at: usize,
        results: &[&str],
        start: usize,
    ) -> Result<()> {
        let (operands, result_ty) = if self.c.peek("(") {
            self.generic_parts(name, name_at)?
        } else {
            let operands = self.line_operands()?;
            let line = self.c.src.get(start..self.c.pos).unwrap_or("");
            if line.contains("({") || line.trim_end().ends_with('(') {
                return self.err(
                    name_at,
                    format!("unsupported operation `{name}` with regions in a SCoP"),
                );
            }
            let ty = line.rsplit_once("->").map(|(_, t)| t.trim().to_string());
            (operands, ty)
        };
        let end = self.c.pos;
        let mut vals = Vec::new();
        for (n, at) in &operands {
            let v = self.value(n, *at)?;
            if matches!(v, Val::Memref(_)) {
                return self.err(
                    *at,
                    format!("unsupported operation `{name}` on the memref %{n} (its accesses are unknown)"),
                );
            }
            vals.push(v);
        }
        let one_index = |t: &str| t.trim_start_matches('(').trim_end_matches(')').trim() == "index";
        let top_level_index = result_ty.as_deref().is_some_and(one_index)
            && self.iters.is_empty()
            && self.path.len() <= 1;
        if let (true, [r]) = (top_level_index, results) {
            self.declared.push(r.to_string());
            self.define(r, Val::Param(r.to_string()));
            return Ok(());
        }
        let val = data_of(vals, (start, end));
        for r in results {
            self.define(r, val.clone());
        }
        Ok(())
    }

    /// The operands and the result type (one type, or a parenthesized list
    /// as written) of a generic op `"d.op"(%a, %b) <{props}> {attrs} :
    /// (types) -> type`, the cursor at its `(`; over as many lines as it
    /// takes. An op with regions is an error. When its type is not read
    /// (a type this reader does not know), the rest of the line is skipped
    /// and no result type is given.
    fn generic_parts(
        &mut self,
        name: &str,
        name_at: usize,
    ) -> Result<(Operands<'a>, Option<String>)> {
        let (from, to) = self.c.skip_balanced(b'(', b')')?;
        let after = self.c.pos;
        self.c.pos = from;
        let mut operands = Vec::new();
        while self.c.pos < to {
            if self.c.byte() == Some(b'%') {
                operands.push(self.operand("an operand")?);
            } else {
                self.c.bump();
            }
        }
        self.c.pos = after;
        self.c.skip_ws();
        if self.c.peek("<{") {
            self.c.skip_balanced(b'<', b'>')?;
            self.c.skip_ws();
        }
        if self.c.peek("(") {
            return self.err(
                name_at,
                format!("unsupported operation `{name}` with regions in a SCoP"),
            );
        }
        if self.c.peek("{") {
            self.c.skip_balanced(b'{', b'}')?;
        }
        self.c
            .expect(":", &format!("before the type of `{name}`"))?;
        let type_at = self.c.pos;
        let ty = self.function_type_result();
        if ty.is_err() {
            self.c.pos = type_at;
        }
        self.end_of_line();
        Ok((operands, ty.ok()))
    }

    /// Moves over a function type `(types) -> type` or `(types) -> (types)`
    /// and returns its result part as written.
    fn function_type_result(&mut self) -> Result<String> {
        self.c.skip_balanced(b'(', b')')?;
        self.c.expect("->", "in the function type")?;
        self.c.skip_ws();
        let from = self.c.pos;
        if self.c.byte() == Some(b'(') {
            self.c.skip_balanced(b'(', b')')?;
        } else {
            self.c.skip_type()?;
        }
        Ok(self.c.src.get(from..self.c.pos).unwrap_or("").to_string())
    }

    /// Index arithmetic: `addi`, `subi`, `muli` (by a constant), `floordivsi`,
    /// `ceildivsi` (by a positive constant), `remsi`/`divsi` (by a positive
    /// constant, of a value never negative there: `mod`/`floordiv`),
    /// `index_cast`; anything else, or a
    /// non-affine result, is [`Val::NonAffine`] (an error only if used as an
    /// index).
    pub(super) fn index_arith(&mut self, name: &str, operands: &[(&'a str, usize)]) -> Result<Val> {
        let mut es = Vec::new();
        for (n, at) in operands {
            if let Some(Val::NonAffine(why)) = self.vals.get(*n) {
                return Ok(Val::NonAffine(why.clone()));
            }
            match self.index(n, *at, name) {
                Ok(e) => es.push(e),
                Err(_) => {
                    return Ok(Val::NonAffine(format!(
                        "computed by `{name}` from a non-affine value"
                    )));
                }
            }
        }
        // the index dialect's names of the same operations
        let short = match name {
            "index.add" => "addi",
            "index.sub" => "subi",
            "index.mul" => "muli",
            "index.floordivs" => "floordivsi",
            "index.ceildivs" => "ceildivsi",
            "index.rems" => "remsi",
            "index.divs" => "divsi",
            "index.casts" | "index.castu" => "index_cast",
            n => n.trim_start_matches("arith."),
        };
        let bin = |es: &[AffineExpr]| match es {
            [a, b] => Some((a.clone(), b.clone())),
            _ => None,
        };
        let div = |k: Option<i64>| k.filter(|k| *k > 0);
        Ok(match (short, bin(&es)) {
            ("addi", Some((a, b))) => Val::Index(add(a, b)),
            ("subi", Some((a, b))) => Val::Index(sub(a, b)),
            ("muli", Some((a, b))) => match (constant(&a), constant(&b)) {
                (Some(k), _) => Val::Index(scale(b, k)),
                (None, Some(k)) => Val::Index(scale(a, k)),
                _ => Val::NonAffine(format!("`{name}` of two non-constant values")),
            },
            ("floordivsi" | "ceildivsi", Some((a, b))) => match div(constant(&b)) {
                Some(k) => {
                    let (a, k) = (Box::new(a), Box::new(AffineExpr::Const(k)));
                    Val::Index(if short == "floordivsi" {
                        AffineExpr::FloorDiv(a, k)
                    } else {
                        AffineExpr::CeilDiv(a, k)
                    })
                }
                None => Val::NonAffine(format!(
                    "`{name}` by a value that is not a positive constant"
                )),
            },
            ("remsi" | "divsi", Some((a, b))) => match div(constant(&b)) {
                // C's truncating division and remainder are floordiv and mod
                // where the dividend is not negative
                Some(k) if self.never_negative(&a) => {
                    let (a, k) = (Box::new(a), Box::new(AffineExpr::Const(k)));
                    Val::Index(if short == "remsi" {
                        AffineExpr::Mod(a, k)
                    } else {
                        AffineExpr::FloorDiv(a, k)
                    })
                }
                Some(_) => Val::NonAffine(format!(
                    "`{name}` of a value that may be negative (truncating, not floor)"
                )),
                None => Val::NonAffine(format!(
                    "`{name}` by a value that is not a positive constant"
                )),
            },
            ("index_cast" | "index_castui", None) if es.len() == 1 => Val::Index(es[0].clone()),
            _ => Val::NonAffine(format!("`{name}` is not an affine operation")),
        })
    }

    /// Whether the index expression `e` is at least 0 wherever the op is
    /// reached: the enclosing conditions and `e < 0` have no common point,
    /// for any values of the parameters (decided by `presburger`; false
    /// when that cannot be built).
    fn never_negative(&self, e: &AffineExpr) -> bool {
        let n = self.iters.len();
        let mut parts = self.guards.clone();
        parts.push(Guard::Ge(add(scale(e.clone(), -1), AffineExpr::Const(-1))));
        let order: Vec<usize> = (0..self.params.len()).collect();
        let Some(cond) = Guard::And(parts).to_cond(n, &order) else {
            return false;
        };
        let space = presburger::Space::set(self.params.clone(), presburger::Tuple::anonymous(n));
        let pos = crate::c::ast::Pos {
            start: self.c.pos,
            end: self.c.pos,
            line: 0,
            col: 0,
        };
        crate::c::affine::to_set(&cond, &space, pos)
            .ok()
            .and_then(|s| s.is_empty().ok())
            .unwrap_or(false)
    }

    /// `%r = affine.apply #map(%d...)[%s...]`.
    pub(super) fn apply(&mut self, r: &str) -> Result<()> {
        let at = self.c.pos;
        let map = self.map_ref()?;
        if map.results.len() != 1 {
            return self.err(at, "affine.apply needs a map with one result");
        }
        if let Some(why) = self.not_affine_operand("affine.apply") {
            self.end_of_line();
            self.define(r, Val::NonAffine(why));
            return Ok(());
        }
        let (dims, syms) = self.map_operands(&map, at, "affine.apply")?;
        let v = self.compose_value(&map.results, &dims, &syms, at, "affine.apply")?;
        self.end_of_line();
        self.define(r, v);
        Ok(())
    }

    /// `%r = "affine.apply"(%d..., %s...) {map = MAP} : (index...) -> index`,
    /// the generic form of `affine.apply` (the attribute dictionary may be
    /// the properties `<{map = MAP}>`, and the op may span lines): the
    /// operands are the map's dimensions, then its symbols.
    pub(super) fn generic_apply(&mut self, r: &str) -> Result<()> {
        let at = self.c.pos;
        let operands = self.operand_names("(", ")", "the operands of `affine.apply`")?;
        self.c.skip_ws();
        let close = if self.c.eat("<{") {
            "}>"
        } else {
            self.c
                .expect("{", "to open the attributes of `affine.apply`")?;
            "}"
        };
        self.c.skip_ws();
        let key_at = self.c.pos;
        if !self.c.eat_kw("map") {
            let found = self.c.found();
            return self.err(
                key_at,
                format!("`affine.apply`: expected `map = ...`, found {found}"),
            );
        }
        self.c.expect("=", "after `map`")?;
        let map = self.map_ref()?;
        self.c
            .expect(close, "to close the attributes of `affine.apply`")?;
        self.c.expect(":", "before the type of `affine.apply`")?;
        self.function_type_result()?;
        if map.results.len() != 1 {
            return self.err(at, "affine.apply needs a map with one result");
        }
        if operands.len() != map.n_dims + map.n_symbols {
            return self.err(
                at,
                format!(
                    "affine.apply: the map takes {} operands, {} given",
                    map.n_dims + map.n_symbols,
                    operands.len()
                ),
            );
        }
        let mut es = Vec::new();
        for (n, o_at) in &operands {
            es.push(self.index(n, *o_at, "affine.apply")?);
        }
        let syms = es.split_off(map.n_dims);
        let v = self.compose_value(&map.results, &es, &syms, at, "affine.apply")?;
        self.end_of_line();
        self.define(r, v);
        Ok(())
    }

    /// `%r = affine.min #map(%d...)[%s...]` (or `affine.max`): the smallest
    /// (largest) of the map's results, a loop bound as `arith.minsi` gives
    /// one (an index when the map has one result).
    pub(super) fn min_max(&mut self, op: &str, r: &str) -> Result<()> {
        let at = self.c.pos;
        let map = self.map_ref()?;
        if map.results.is_empty() {
            return self.err(at, format!("{op} needs a map with results"));
        }
        if let Some(why) = self.not_affine_operand(op) {
            self.end_of_line();
            self.define(r, Val::NonAffine(why));
            return Ok(());
        }
        let (dims, syms) = self.map_operands(&map, at, op)?;
        let mut val = self.compose_value(&map.results, &dims, &syms, at, op)?;
        if let Val::Extremum { max, .. } = &mut val {
            *max = op == "affine.max";
        }
        self.end_of_line();
        self.define(r, val);
        Ok(())
    }

    /// `%r:N = affine.delinearize_index %x into (b0, ..., bN-1) : index, ...`
    /// (the first basis element may be left out): the digits of `%x` in the
    /// mixed radix of the basis, `r_k = (x floordiv S_k) mod b_k` with `S_k`
    /// the product of the basis elements after `b_k`, the first digit not
    /// reduced (`x floordiv S_0`), as MLIR defines the op. The basis elements
    /// are integers or SSA constants; another basis (a product of symbols)
    /// or an index that is not affine gives values that are errors only
    /// where they are used as indices.
    pub(super) fn delinearize(&mut self, results: &[&str]) -> Result<()> {
        let op = "affine.delinearize_index";
        let at = self.c.pos;
        let (x, x_at) = self.operand("the linear index")?;
        if !self.c.eat_kw("into") {
            let found = self.c.found();
            return self.err(self.c.pos, format!("{op}: expected `into`, found {found}"));
        }
        let basis = self.basis(op)?;
        let n = results.len();
        let vals = match self.radix(op, at, &basis, n)? {
            Err(why) => vec![Val::NonAffine(why); n],
            Ok(strides) => match self.index_or_why(x, x_at, op)? {
                Err(why) => vec![Val::NonAffine(why); n],
                Ok(x) => (0..n)
                    .map(|k| {
                        let q = match strides[k] {
                            1 => x.clone(),
                            s => AffineExpr::FloorDiv(
                                Box::new(x.clone()),
                                Box::new(AffineExpr::Const(s)),
                            ),
                        };
                        Val::Index(if k == 0 {
                            q
                        } else {
                            AffineExpr::Mod(
                                Box::new(q),
                                Box::new(AffineExpr::Const(strides[k - 1] / strides[k])),
                            )
                        })
                    })
                    .collect(),
            },
        };
        let vals = self.only_for_index_types(vals, op);
        for (r, v) in results.iter().zip(vals) {
            self.define(r, v);
        }
        Ok(())
    }

    /// `%r = affine.linearize_index [disjoint] [%i0, ..., %iN-1] by (b0, ...,
    /// bN-1) : index` (the first basis element may be left out): the sum of
    /// the `i_k * S_k`, `S_k` the product of the basis elements after `b_k`,
    /// as MLIR defines the op (`disjoint`, a promise that each `i_k` is in
    /// `0 .. b_k`, changes nothing). The basis as for [`Reader::delinearize`].
    pub(super) fn linearize(&mut self, r: &str) -> Result<()> {
        let op = "affine.linearize_index";
        let at = self.c.pos;
        self.c.eat_kw("disjoint");
        let operands = self.operand_names("[", "]", &format!("the indices of {op}"))?;
        if !self.c.eat_kw("by") {
            let found = self.c.found();
            return self.err(self.c.pos, format!("{op}: expected `by`, found {found}"));
        }
        let basis = self.basis(op)?;
        let n = operands.len();
        let mut val = match self.radix(op, at, &basis, n)? {
            Err(why) => Val::NonAffine(why),
            Ok(strides) => {
                let mut sum = Ok(AffineExpr::Const(0));
                for ((name, o_at), s) in operands.iter().zip(&strides) {
                    sum = match (sum, self.index_or_why(name, *o_at, op)?) {
                        (Ok(acc), Ok(i)) => Ok(add(acc, scale(i, *s))),
                        (Err(why), _) | (_, Err(why)) => Err(why),
                    };
                }
                match sum {
                    Ok(e) => Val::Index(e),
                    Err(why) => Val::NonAffine(why),
                }
            }
        };
        if let [v] = self.only_for_index_types(vec![val.clone()], op).as_slice() {
            val = v.clone();
        }
        self.define(r, val);
        Ok(())
    }

    /// The SSA names of a list `open %a, %b close` (`what` names it in
    /// messages).
    fn operand_names(&mut self, open: &str, close: &str, what: &str) -> Result<Operands<'a>> {
        self.c.expect(open, &format!("to open {what}"))?;
        let mut operands = Vec::new();
        if self.c.eat(close) {
            return Ok(operands);
        }
        loop {
            operands.push(self.operand("an index operand")?);
            if !self.c.eat(",") {
                self.c.expect(close, &format!("to close {what}"))?;
                return Ok(operands);
            }
        }
    }

    /// The basis `(b, %b, ...)` of a (de)linearization: each element an
    /// integer, or the value of an SSA constant; `None` for another value.
    fn basis(&mut self, op: &str) -> Result<Vec<Option<i64>>> {
        self.c.expect("(", &format!("to open the basis of {op}"))?;
        let mut basis = Vec::new();
        if self.c.eat(")") {
            return Ok(basis);
        }
        loop {
            self.c.skip_ws();
            if self.c.peek_int() {
                basis.push(Some(self.c.int()?));
            } else {
                let (b, _) = self.operand("a basis element")?;
                basis.push(match self.vals.get(b) {
                    Some(Val::Index(e)) => constant(e),
                    _ => None,
                });
            }
            if self.c.eat(",") {
                continue;
            }
            self.c.expect(")", &format!("to close the basis of {op}"))?;
            return Ok(basis);
        }
    }

    /// The strides `S_0, ..., S_{n-1}` of `n` digits in the mixed radix
    /// `basis` (`n` or `n - 1` elements; the first of `n` is not used):
    /// `S_{n-1} = 1`, `S_k = S_{k+1} * b_{k+1}`. `Ok(Err(why))` when an
    /// element the strides use is not a positive constant.
    fn radix(
        &self,
        op: &str,
        at: usize,
        basis: &[Option<i64>],
        n: usize,
    ) -> Result<std::result::Result<Vec<i64>, String>> {
        if n == 0 || (basis.len() != n && basis.len() + 1 != n) {
            return self.err(
                at,
                format!(
                    "{op}: {n} indices need a basis of {n} or {} elements, not {}",
                    n.saturating_sub(1),
                    basis.len()
                ),
            );
        }
        let used = &basis[basis.len() + 1 - n..];
        let mut strides = vec![1i64; n];
        for k in (0..n - 1).rev() {
            let Some(b) = used[k].filter(|b| *b > 0) else {
                return Ok(Err(format!(
                    "`{op}` with a basis element that is not a positive constant (semi-affine)"
                )));
            };
            let Some(s) = strides[k + 1].checked_mul(b) else {
                return self.err(at, format!("{op}: the basis' product overflows 64 bits"));
            };
            strides[k] = s;
        }
        Ok(Ok(strides))
    }

    /// The affine index of `%name`, or why it is not one (not affine, data);
    /// undefined names and memrefs are errors.
    fn index_or_why(
        &mut self,
        name: &str,
        at: usize,
        op: &str,
    ) -> Result<std::result::Result<AffineExpr, String>> {
        match self.value(name, at)? {
            Val::Memref(_) => self.err(at, format!("{op}: %{name} is a memref, not an index")),
            Val::Index(_) | Val::Param(_) => Ok(Ok(self.index(name, at, op)?)),
            Val::NonAffine(why) => Ok(Err(format!("computed by `{op}` from %{name}: {why}"))),
            _ => Ok(Err(format!(
                "computed by `{op}` from %{name}, which is not an affine index"
            ))),
        }
    }

    /// The values `vals` of the op's results if its type list (after `:`,
    /// which may be on the next line) is all `index`; for vectors of indices
    /// (`vector<4xindex>`) they are not affine indices. Moves past the list.
    fn only_for_index_types(&mut self, vals: Vec<Val>, op: &str) -> Vec<Val> {
        let before = self.c.pos;
        let mut all_index = true;
        if self.c.eat(":") {
            loop {
                self.c.skip_ws();
                let from = self.c.pos;
                if self.c.skip_type().is_err() {
                    all_index = false;
                    break;
                }
                all_index &= self.c.src.get(from..self.c.pos) == Some("index");
                // a `,` on this line continues the list (the next op may
                // start on the next line)
                if !self.c.peek_on_line(",") {
                    break;
                }
                self.c.bump();
            }
        } else {
            self.c.pos = before;
        }
        self.end_of_line();
        if all_index {
            return vals;
        }
        let why = format!("`{op}` on vectors of indices");
        vals.iter().map(|_| Val::NonAffine(why.clone())).collect()
    }

    /// Why the value of an op is not affine although it is well defined: one
    /// of its map operands `(%d...)[%s...]` (on the op's line, the cursor
    /// before them) is a min or max of several values, or not affine itself
    /// (an `affine.min` of an `affine.min`, as canonicalization leaves them).
    /// Such a value is an error only where it is used as an index. The cursor
    /// does not move.
    fn not_affine_operand(&mut self, op: &str) -> Option<String> {
        let from = self.c.pos;
        let mut why = None;
        while let Some(b) = self.c.byte() {
            if b == b'\n'
                || b == b':'
                || (b == b'/' && self.c.byte_at(self.c.pos + 1) == Some(b'/'))
            {
                break;
            }
            if b != b'%' {
                self.c.bump();
                continue;
            }
            let Some((n, _)) = self.c.ssa() else {
                break;
            };
            why = match self.vals.get(n) {
                Some(Val::Extremum { max, .. }) => Some(format!(
                    "computed by `{op}` from %{n}, a {} of several values",
                    if *max { "max" } else { "min" }
                )),
                Some(Val::NonAffine(w)) => Some(format!("computed by `{op}` from %{n}: {w}")),
                _ => None,
            };
            if why.is_some() {
                break;
            }
        }
        self.c.pos = from;
        why
    }

    /// `#alias` or an inline `affine_map<...>`.
    pub(super) fn map_ref(&mut self) -> Result<AffineMap> {
        self.c.skip_ws();
        let at = self.c.pos;
        if self.c.eat("affine_map<") {
            return Ok(parse_semi_affine_map_after_open(&mut self.c)?);
        }
        if self.c.eat("#") {
            if let Some((n, _)) = self.c.ident() {
                return match self.maps.get(n) {
                    Some(m) => Ok(m.clone()),
                    None => self.err(at, format!("#{n} is not an affine map alias")),
                };
            }
        }
        let found = self.c.found();
        self.err(at, format!("expected an affine map, found {found}"))
    }

    /// The `(%d, ...)[%s, ...]` operands of a map, as index expressions; their
    /// numbers must match the map's.
    pub(super) fn map_operands(
        &mut self,
        map_dims: &AffineMap,
        at: usize,
        op: &str,
    ) -> Result<(Vec<AffineExpr>, Vec<AffineExpr>)> {
        let dims = self.operand_list("(", ")", op)?;
        // on the op's line only: a `[` looked for on the next line would move
        // the cursor there, and the op's end of line would be the next op's
        let syms = if self.c.peek_on_line("[") {
            self.operand_list("[", "]", op)?
        } else {
            Vec::new()
        };
        if dims.len() != map_dims.n_dims || syms.len() != map_dims.n_symbols {
            return self.err(
                at,
                format!(
                    "{op}: the map takes {} dims and {} symbols, given {} and {}",
                    map_dims.n_dims,
                    map_dims.n_symbols,
                    dims.len(),
                    syms.len()
                ),
            );
        }
        Ok((dims, syms))
    }

    /// `open %a, %b close` as index expressions.
    pub(super) fn operand_list(
        &mut self,
        open: &str,
        close: &str,
        op: &str,
    ) -> Result<Vec<AffineExpr>> {
        self.c
            .expect(open, &format!("to open the operands of {op}"))?;
        let mut out = Vec::new();
        if self.c.eat(close) {
            return Ok(out);
        }
        loop {
            let (n, at) = self.operand("an index operand")?;
            out.push(self.index(n, at, op)?);
            if self.c.eat(",") {
                continue;
            }
            self.c
                .expect(close, &format!("to close the operands of {op}"))?;
            return Ok(out);
        }
    }

    /// `e` with the map's dims and symbols replaced by the operands.
    pub(super) fn compose(
        &self,
        e: &AffineExpr,
        dims: &[AffineExpr],
        syms: &[AffineExpr],
        at: usize,
    ) -> Result<AffineExpr> {
        self.compose_or_semi(e, dims, syms, at)?
            .or_else(|why| self.err(at, why))
    }

    /// As [`Reader::compose`], but a map that stays semi-affine (a symbol
    /// that is not a constant as a divisor or a factor) is `Ok(Err(why))`.
    fn compose_or_semi(
        &self,
        e: &AffineExpr,
        dims: &[AffineExpr],
        syms: &[AffineExpr],
        at: usize,
    ) -> Result<std::result::Result<AffineExpr, String>> {
        match substitute(e, dims, syms) {
            Some(x) if nodes(&x, MAX_INDEX_NODES) > MAX_INDEX_NODES => self.err(
                at,
                format!("the index expression has more than {MAX_INDEX_NODES} terms"),
            ),
            Some(x) => Ok(quasi_affine(&x)),
            None => self.err(at, "the affine map uses more operands than given"),
        }
    }

    /// The value of an op that applies the map with results `results` to
    /// its operands (`affine.apply`, or `affine.min`/`max` with several
    /// results: a minimum, which the caller may turn into a maximum). A map
    /// that stays semi-affine gives a [`Val::NonAffine`], an error only
    /// where it is used as an index (MLIR's canonicalization tests return
    /// such values).
    fn compose_value(
        &self,
        results: &[AffineExpr],
        dims: &[AffineExpr],
        syms: &[AffineExpr],
        at: usize,
        op: &str,
    ) -> Result<Val> {
        let mut pieces = Vec::new();
        for e in results {
            match self.compose_or_semi(e, dims, syms, at)? {
                Ok(x) => pieces.push(x),
                Err(why) => return Ok(Val::NonAffine(format!("`{op}`: {why}"))),
            }
        }
        Ok(match pieces.len() {
            1 => Val::Index(pieces.remove(0)),
            _ => Val::Extremum { max: false, pieces },
        })
    }

    /// The subscripts of a load or store: `[exprs over %values]` for the
    /// affine ops, `[%i, %j]` for memref's.
    pub(super) fn subscripts(&mut self, op: &str) -> Result<Vec<AffineExpr>> {
        self.c.skip_ws();
        if op.starts_with("affine.") {
            self.c
                .expect("[", &format!("to open the subscripts of {op}"))?;
            let o = parse_operand_exprs(&mut self.c, "]")
                .map_err(|e| Error::new(e.line, e.column, format!("{op}: {}", e.message)))?;
            self.resolve(&o, &o.exprs, op)
        } else {
            self.operand_list("[", "]", op)
        }
    }

    /// The expressions `exprs`, written over the SSA operands of `o` (as in
    /// `affine.load %A[%i + 1]`), as index expressions over the iterators
    /// and parameters.
    pub(super) fn resolve(
        &mut self,
        o: &OperandExprs,
        exprs: &[AffineExpr],
        op: &str,
    ) -> Result<Vec<AffineExpr>> {
        let mut dims = Vec::new();
        for (n, at) in &o.dims {
            dims.push(self.index(n, *at, op)?);
        }
        let mut syms = Vec::new();
        for (n, at) in &o.syms {
            syms.push(self.index(n, *at, op)?);
        }
        let at = self.c.pos;
        exprs
            .iter()
            .map(|e| self.compose(e, &dims, &syms, at))
            .collect()
    }

    /// The memref operand of a load or store: its name and rank.
    pub(super) fn memref(&mut self, op: &str) -> Result<(String, usize, usize)> {
        let (m, at) = self.operand("a memref")?;
        match self.value(m, at)? {
            Val::Memref(k) => {
                let rank = self.memrefs.get(&k).map(|i| i.rank).unwrap_or(0);
                Ok((k, rank, at))
            }
            _ => self.err(at, format!("{op}: %{m} is not a memref argument")),
        }
    }

    /// `%A[...] : type` after a load or store: the memref, its subscripts
    /// (as many as its rank) and the type, read over.
    fn access(&mut self, op: &str) -> Result<RawAccess> {
        let (array, rank, at) = self.memref(op)?;
        let subs = self.subscripts(op)?;
        if subs.len() != rank {
            return self.err(
                at,
                format!(
                    "{op}: %{array} has {rank} dimensions, given {} subscripts",
                    subs.len()
                ),
            );
        }
        let extents = if op.starts_with("affine.vector_") {
            self.vector_extents(op, rank)?
        } else {
            self.rest_is_type(op)?;
            Vec::new()
        };
        Ok(RawAccess {
            array,
            subs,
            extents,
        })
    }

    /// The sizes of the vector type of `op` after its memref type (`:
    /// memref<512xf32>, vector<32xf32>`), at most `rank` of them, each a
    /// positive constant; the rest of the line is read over.
    fn vector_extents(&mut self, op: &str, rank: usize) -> Result<Vec<i64>> {
        self.c.expect(":", &format!("before the types of {op}"))?;
        self.c.skip_type()?;
        self.c
            .expect(",", &format!("before the vector type of {op}"))?;
        self.c.skip_ws();
        let at = self.c.pos;
        self.c.skip_type()?;
        let ty = self.c.src.get(at..self.c.pos).unwrap_or("");
        let sizes = ty
            .strip_prefix("vector<")
            .and_then(|t| t.strip_suffix('>'))
            .and_then(shape)
            .map(|(sizes, _)| sizes);
        let extents: Option<Vec<i64>> = sizes.and_then(|v| {
            v.iter()
                .map(|x| x.parse::<i64>().ok().filter(|k| *k > 0))
                .collect()
        });
        match extents {
            Some(e) if !e.is_empty() && e.len() <= rank => {
                self.end_of_line();
                Ok(e)
            }
            _ => self.err(
                at,
                format!("{op}: cannot read the vector type `{ty}` (fixed sizes, at most the memref's rank)"),
            ),
        }
    }

    /// Records the load or store `op` (at `start`, named at `name_at`,
    /// ending at `end`) of `access` among the [`RawOp`]s.
    fn record(&mut self, op: &str, write: bool, access: RawAccess, at: (usize, usize, usize)) {
        let (start, name_at, end) = at;
        self.ops.push(RawOp {
            name: op.to_string(),
            write,
            access,
            iters: self.iters.clone(),
            loops: self.loop_ids.clone(),
            guard: Guard::And(self.guards.clone()),
            mlir_guard: {
                let mut g = self.guards.clone();
                for (k, then) in &self.else_guards {
                    if let Some(x) = g.get_mut(*k) {
                        *x = then.clone();
                    }
                }
                Guard::And(g)
            },
            path: self.path.clone(),
            start,
            name_at,
            end,
            seq: self.seq,
        });
    }

    /// `%r = affine.load %A[...] : type` (or `memref.load`; the result may
    /// be absent when unused).
    pub(super) fn load(
        &mut self,
        op: &str,
        start: usize,
        name_at: usize,
        r: Option<&str>,
    ) -> Result<()> {
        let access = self.access(op)?;
        let end = self.c.pos;
        self.record(op, false, access.clone(), (start, name_at, end));
        if let Some(r) = r {
            self.define(
                r,
                Val::Data {
                    reads: vec![(start, access)],
                    spans: vec![(start, end)],
                },
            );
        }
        Ok(())
    }

    /// `affine.store %v, %A[...] : type` (or `memref.store`): a statement.
    pub(super) fn store(&mut self, op: &str, start: usize, name_at: usize) -> Result<()> {
        let (v, v_at) = self.operand("the stored value")?;
        let value = self.value(v, v_at)?;
        self.c
            .expect(",", &format!("after the value stored by {op}"))?;
        let write = self.access(op)?;
        let end = self.c.pos;
        self.record(op, true, write.clone(), (start, name_at, end));
        if matches!(value, Val::Memref(_)) {
            return self.err(v_at, format!("{op}: cannot store the memref %{v}"));
        }
        self.statement(vec![write], vec![value], (start, end));
        Ok(())
    }

    /// Records the statement that writes `writes` with the values `values`
    /// (its reads: the loads that feed them, the scalars they are; its
    /// text: the ops that compute them and the op at `span`), at the
    /// current place. Several writes are one statement when one op writes
    /// them at once (a `yield` of several values reads them all first).
    pub(super) fn statement(
        &mut self,
        writes: Vec<RawAccess>,
        values: Vec<Val>,
        span: (usize, usize),
    ) {
        let (start, end) = span;
        let (mut reads, mut spans) = (Vec::new(), Vec::new());
        if let Val::Data { reads: r, spans: s } = data_of(values, span) {
            self.consumed.extend(r.iter().map(|(k, _)| *k));
            reads = r.into_iter().map(|(_, a)| a).collect();
            spans = s;
        }
        spans.push((start, end));
        spans.sort_unstable();
        spans.dedup();
        let text = spans
            .iter()
            .map(|(s, e)| self.c.src.get(*s..*e).unwrap_or("").trim())
            .collect::<Vec<_>>()
            .join("\n");
        let first = spans.first().map(|s| s.0).unwrap_or(start);
        // a number of its own: one op (a yield of several values, a loop
        // with several iter_args) may make several statements
        self.seq += 1;
        self.stmts.push(RawStmt {
            iters: self.iters.clone(),
            loops: self.loop_ids.clone(),
            seq: self.seq,
            guard: Guard::And(self.guards.clone()),
            positions: Vec::new(),
            reads,
            writes,
            text,
            span: (first, end),
            at: start,
        });
    }

    /// `affine.yield %a, %b : types` (or `scf.yield`) in a region whose op
    /// has results: each value is written to the scalar the result stands
    /// for (a statement each); a yield of values elsewhere is an error.
    pub(super) fn yield_values(&mut self, name: &str, name_at: usize, start: usize) -> Result<()> {
        let (targets, accumulate) = self.yields.last().cloned().unwrap_or_default();
        if targets.is_empty() {
            return self.err(
                name_at,
                format!("`{name}` with values where the op has no results"),
            );
        }
        let operands = self.line_operands()?;
        let end = self.c.pos;
        if operands.len() != targets.len() {
            return self.err(
                name_at,
                format!(
                    "`{name}` of {} values for {} results",
                    operands.len(),
                    targets.len()
                ),
            );
        }
        let mut values = Vec::new();
        for (v, at) in &operands {
            let value = self.value(v, *at)?;
            if matches!(value, Val::Memref(_)) {
                return self.err(*at, format!("`{name}` of the memref %{v} is not supported"));
            }
            values.push(value);
        }
        if accumulate {
            // a reduction combines each value with the scalar's
            values.extend(targets.iter().map(|t| Val::Scalar(t.clone())));
        }
        let writes = targets.iter().map(|t| RawAccess::scalar(t)).collect();
        self.statement(writes, values, (start, end));
        Ok(())
    }
}
