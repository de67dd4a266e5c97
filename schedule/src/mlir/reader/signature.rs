//! The top level of the MLIR text (a `module`, attribute aliases of affine
//! maps and integer sets, `func.func`s) and the selected function's signature:
//! memref arguments become arrays, `index` arguments parameters, others
//! scalars.

use super::*;

impl<'a> Reader<'a> {
    /// Reads the top level and the function named `want` (or the first one
    /// with a body).
    pub fn top(&mut self, want: Option<&str>) -> Result<()> {
        if self.top_pick(&mut |name| want.is_none_or(|w| w == name))? {
            return Ok(());
        }
        match want {
            Some(w) => Err(Error::new(
                1,
                1,
                format!("no function @{w} with a body in the file"),
            )),
            None => Err(Error::new(1, 1, "no function with a body in the file")),
        }
    }

    /// Reads the top level and the `n`-th function with a body (from 0);
    /// false when the file has fewer.
    pub fn top_nth(&mut self, n: usize) -> Result<bool> {
        let mut k = 0usize;
        self.top_pick(&mut |_| {
            k += 1;
            k == n + 1
        })
    }

    /// Reads the top level up to the first function with a body that `pick`
    /// accepts (it is asked about each, by name, in order) and reads that
    /// function; false when there is none.
    fn top_pick(&mut self, pick: &mut dyn FnMut(&str) -> bool) -> Result<bool> {
        let mut open_modules = 0usize;
        loop {
            if self.c.at_eof() {
                break;
            }
            let at = self.c.pos;
            if self.c.byte() == Some(b'#') {
                self.alias()?;
            } else if self.c.eat_kw("module") {
                if self.c.eat("@") {
                    self.c.ident();
                }
                if self.c.eat_kw("attributes") {
                    self.c.skip_balanced(b'{', b'}')?;
                }
                self.c.expect("{", "to open the module body")?;
                open_modules += 1;
            } else if open_modules > 0 && self.c.eat("}") {
                open_modules -= 1;
            } else if self.c.eat_kw("func.func") {
                if self.function(pick)? {
                    return Ok(true);
                }
            } else if self.at_top_level_op() {
                self.skip_top_level_op()?;
            } else {
                let found = self.c.found();
                return self.err(
                    at,
                    format!("expected `func.func`, `module` or an attribute alias, found {found}"),
                );
            }
        }
        Ok(false)
    }

    /// Whether an op other than `func.func` starts here: a dialect op's name
    /// (`gpu.module`, `memref.global`, `transform.sequence`, an identifier
    /// with a `.`) or a generic op's quoted name.
    fn at_top_level_op(&mut self) -> bool {
        self.c.skip_ws();
        if self.c.byte() == Some(b'"') {
            return true;
        }
        let here = self.c.pos;
        let dotted = self.c.ident().is_some_and(|(n, _)| n.contains('.'));
        self.c.pos = here;
        dotted
    }

    /// Moves over a top-level op that is not a function (its functions, as
    /// those of a `gpu.module`, are not looked at): the rest of its line,
    /// with each `(...)`, `[...]`, `{...}` (its regions and attributes) and
    /// `<...>` group skipped whole even over line ends; it ends at a line
    /// end outside any group. An op that goes on after its region on the next
    /// line (`} : type`) is taken to end at the region's line.
    fn skip_top_level_op(&mut self) -> Result<()> {
        self.c.skip_ws();
        if self.c.byte() == Some(b'"') {
            self.c.string_lit()?;
        }
        loop {
            match self.c.byte() {
                None | Some(b'\n') => return Ok(()),
                Some(b'/') if self.c.byte_at(self.c.pos + 1) == Some(b'/') => {
                    self.end_of_line();
                    return Ok(());
                }
                Some(b'"') => {
                    self.c.string_lit()?;
                }
                // the end of an enclosing `module`'s body
                Some(b'}' | b')' | b']') => return Ok(()),
                Some(b'-') if self.c.byte_at(self.c.pos + 1) == Some(b'>') => self.c.pos += 2,
                Some(open @ (b'(' | b'[' | b'{' | b'<')) => {
                    let close = match open {
                        b'(' => b')',
                        b'[' => b']',
                        b'{' => b'}',
                        _ => b'>',
                    };
                    self.c.skip_balanced(open, close)?;
                }
                Some(_) => self.c.bump(),
            }
        }
    }

    /// `#name = affine_map<...>` or `affine_set<...>` (other aliases are skipped).
    pub(super) fn alias(&mut self) -> Result<()> {
        let at = self.c.pos;
        self.c.pos += 1;
        let Some((name, _)) = self.c.ident() else {
            return self.err(at, "expected an alias name after `#`");
        };
        self.c.expect("=", "after the alias name")?;
        if self.c.eat("affine_map<") {
            let m = parse_semi_affine_map_after_open(&mut self.c)?;
            self.maps.insert(name.to_string(), m);
        } else if self.c.eat("affine_set<") {
            let s = parse_set_after_open(&mut self.c)?;
            self.sets.insert(name.to_string(), s);
        } else {
            self.c.ident();
            if self.c.byte() == Some(b'<') {
                self.c.skip_balanced(b'<', b'>')?;
            }
        }
        Ok(())
    }

    /// One `func.func`; reads its body when `pick` wants it (true).
    pub(super) fn function(&mut self, pick: &mut dyn FnMut(&str) -> bool) -> Result<bool> {
        for kw in ["private", "public", "nested"] {
            self.c.eat_kw(kw);
        }
        self.c.expect("@", "before the function name")?;
        let name = if self.c.peek("\"") {
            self.c.string_lit()?
        } else {
            match self.c.ident() {
                Some((n, _)) => n.to_string(),
                None => return self.err(self.c.pos, "expected the function name after `@`"),
            }
        };
        self.c.skip_ws();
        let args_at = self.c.pos;
        let (_, e) = self.c.skip_balanced(b'(', b')')?;
        // results and attributes, up to the body (or the end of a declaration)
        let mut has_body = false;
        loop {
            self.c.skip_ws();
            match self.c.byte() {
                Some(b'{') => {
                    has_body = true;
                    break;
                }
                Some(b'(') => {
                    self.c.skip_balanced(b'(', b')')?;
                }
                Some(b'<') => {
                    self.c.skip_balanced(b'<', b'>')?;
                }
                _ if self.c.eat("->") || self.c.eat(",") => {}
                _ if self.c.eat_kw("attributes") => {
                    self.c.skip_balanced(b'{', b'}')?;
                }
                Some(b'#') => break,
                _ if self.c.peek_kw("func.func") || self.c.peek("}") || self.c.at_eof() => break,
                // a declaration followed by another top-level op
                _ if self.at_top_level_op() => break,
                _ => {
                    if self.c.byte() == Some(b'!') {
                        self.c.pos += 1;
                    }
                    if self.c.ident().is_none() {
                        let found = self.c.found();
                        return self.err(
                            self.c.pos,
                            format!("unexpected {found} in the signature of @{name}"),
                        );
                    }
                }
            }
        }
        let wanted = has_body && pick(&name);
        if !wanted {
            if has_body {
                self.c.skip_balanced(b'{', b'}')?;
            }
            return Ok(false);
        }
        let body_at = self.c.pos;
        self.arguments(args_at, e)?;
        self.c.pos = body_at;
        let end = self.block()?;
        self.span = (body_at, end);
        Ok(true)
    }

    /// The arguments from the `(` at `args_at` to the `)` at `e`: memrefs,
    /// `index` parameters and scalars.
    pub(super) fn arguments(&mut self, args_at: usize, e: usize) -> Result<()> {
        self.c.pos = args_at + 1;
        while self.c.pos < e {
            let Some((name, at)) = self.c.ssa() else {
                if self.c.eat(")") {
                    break;
                }
                let found = self.c.found();
                return self.err(
                    self.c.pos,
                    format!("expected an argument `%name: type`, found {found}"),
                );
            };
            self.c.expect(":", "after the argument's name")?;
            self.c.skip_ws();
            let ty_at = self.c.pos;
            self.c.skip_type()?;
            let ty = self.c.src.get(ty_at..self.c.pos).unwrap_or("").to_string();
            if self.c.peek("{") {
                self.c.skip_balanced(b'{', b'}')?;
            }
            if self.c.eat_kw("loc") {
                self.c.skip_balanced(b'(', b')')?;
            }
            let val = if ty == "index" {
                self.declared.push(name.to_string());
                Val::Param(name.to_string())
            } else if ty.starts_with("memref<") {
                let Some(info) = memref_info(&ty) else {
                    return self.err(ty_at, format!("cannot read the memref type `{ty}`"));
                };
                self.memrefs.insert(name.to_string(), info);
                Val::Memref(name.to_string())
            } else if ty.starts_with("tensor<") || ty.starts_with("vector<") {
                return self.err(
                    ty_at,
                    format!("argument %{name}: only memrefs, `index` and scalars are modelled, not `{ty}`"),
                );
            } else {
                Val::Scalar(name.to_string())
            };
            if self.vals.insert(name.to_string(), val).is_some() {
                return self.err(at, format!("argument %{name} is declared twice"));
            }
            if !self.c.eat(",") {
                self.c.skip_ws();
                if self.c.pos < e {
                    let found = self.c.found();
                    return self.err(
                        self.c.pos,
                        format!("expected `,` between arguments, found {found}"),
                    );
                }
            }
        }
        Ok(())
    }
}
