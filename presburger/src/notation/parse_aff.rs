//! Parsing of quasi-affine functions in isl notation (isl's
//! `isl_pw_multi_aff_read_from_str` and relatives):
//!
//! ```text
//! object := [ params '->' ] '{' [ piece (';' piece)* ] '}'
//! piece  := [ tuple '->' ] range [ ':' formula ]
//! range  := [name] '[' ( range '->' range | [ expr (',' expr)* ] ) ']'
//! ```
//!
//! The domain tuple and the condition are read as in a set (so a domain
//! tuple may hold values, and the condition is any formula); each range
//! entry is one expression of the set notation (`(1 + i)`, `floor((i)/2)`,
//! `(i)/2`, `(i) mod 3`), whose division locals become the divisions of the
//! [`Aff`]. A piece without a domain tuple is a function of the parameters
//! (`[N] -> { [(N)] }`). Pieces that overlap add up on the overlap, as isl
//! reads them (`{ [i] -> [(1)]; [i] -> [(2)] : i > 0 }` is 3 for `i > 0`).
//! Errors carry the line and column.

use super::*;
use crate::api::{Aff, MultiAff, PwAff, PwMultiAff, domain_of, fn_space};

/// One piece as read: its map space, its domain (one conjunction per
/// disjunct of the condition, over the domain space) and its function.
pub(crate) struct FnPiece {
    pub(crate) space: Space,
    pub(crate) domain: Vec<Conjunction>,
    pub(crate) f: MultiAff,
}

/// The parameters and the pieces of a text in function notation.
pub(crate) fn parse_fn_pieces(text: &str) -> Result<(Vec<String>, Vec<FnPiece>)> {
    let toks = tokenize(text)?;
    let mut p = Parser::new(toks);
    if p.peek() == &Tok::LBracket {
        p.param_list()?;
        p.expect(&Tok::Arrow)?;
    }
    p.expect(&Tok::LBrace)?;
    let mut pieces = Vec::new();
    if p.peek() != &Tok::RBrace {
        loop {
            pieces.push(p.fn_piece()?);
            if !p.eat(&Tok::Semi) || p.peek() == &Tok::RBrace {
                break;
            }
        }
    }
    p.expect(&Tok::RBrace)?;
    p.expect_end()?;
    Ok((p.params, pieces))
}

impl Parser {
    /// Whether an `->` comes before the end of the current piece (at the
    /// outer level of brackets): then the piece has a domain tuple.
    fn piece_has_domain(&self) -> bool {
        let mut depth = 0usize;
        for t in &self.toks[self.pos..] {
            match &t.tok {
                Tok::LBracket | Tok::LParen | Tok::LBrace => depth += 1,
                Tok::RBracket | Tok::RParen => depth = depth.saturating_sub(1),
                Tok::RBrace if depth == 0 => return false,
                Tok::RBrace => depth -= 1,
                Tok::Colon | Tok::Semi if depth == 0 => return false,
                Tok::Arrow if depth == 0 => return true,
                _ => {}
            }
        }
        false
    }

    /// One piece `[domain ->] range : condition`.
    fn fn_piece(&mut self) -> Result<FnPiece> {
        self.vars.clear();
        self.scope.clear();
        self.div_cache.clear();
        self.tuple_constraints.clear();
        self.n_dims = 0;
        for (i, p) in self.params.clone().into_iter().enumerate() {
            let id = self.new_var(VarKind::Param(i), None);
            self.scope.push((p, id));
            if let Some((_, v)) = self.param_values.iter().find(|(k, _)| *k == i) {
                let value: Piecewise = smallvec![(F::True, Lin::constant(v.clone()))];
                self.tuple_constraints.push(equals(id, value));
            }
        }
        let dom = if self.piece_has_domain() {
            let t = self.tuple()?;
            self.expect(&Tok::Arrow)?;
            Some(t)
        } else {
            None
        };
        let (range, lins) = self.fn_range()?;
        let formula = if self.eat(&Tok::Colon) && !matches!(self.peek(), Tok::Semi | Tok::RBrace) {
            self.formula()?
        } else {
            F::True
        };
        let space = fn_space(self.params.clone(), dom, range);
        let dom_space = domain_of(&space);
        let affs = lins
            .iter()
            .map(|l| self.aff_of(&dom_space, l))
            .collect::<Result<Vec<_>>>()?;
        let mut all = std::mem::take(&mut self.tuple_constraints);
        all.push(formula);
        let disjuncts = self.dnf(F::And(all), false)?;
        let mut domain = Vec::with_capacity(disjuncts.len());
        for d in disjuncts {
            let mut c = self.build(&dom_space, &d)?;
            c.simplify();
            if !c.is_trivially_empty() {
                domain.push(c);
            }
        }
        let f = MultiAff::from_affs(space.clone(), affs)?;
        Ok(FnPiece { space, domain, f })
    }

    /// A range tuple of expressions, `[name] '[' expr, .. ']'`, or a nested
    /// pair `[A[..] -> B[..]]` of such tuples; returns the tuple and the
    /// expressions in order.
    fn fn_range(&mut self) -> Result<(Tuple, Vec<Lin>)> {
        let name = match (self.peek().clone(), self.peek_at(1)) {
            (Tok::Ident(s), Tok::LBracket) if !is_keyword(&s) => {
                self.advance();
                Some(s)
            }
            _ => None,
        };
        self.expect(&Tok::LBracket)?;
        let nested = matches!(
            (self.peek(), self.peek_at(1)),
            (Tok::Ident(_), Tok::LBracket) | (Tok::LBracket, _)
        );
        if nested {
            let snap = self.snapshot();
            self.enter()?;
            let attempt = (|| -> Result<(Tuple, Vec<Lin>)> {
                let (a, mut la) = self.fn_range()?;
                self.expect(&Tok::Arrow)?;
                let (b, lb) = self.fn_range()?;
                self.expect(&Tok::RBracket)?;
                la.extend(lb);
                Ok((Tuple::nested(name.clone(), a, b), la))
            })();
            self.leave();
            match attempt {
                Ok(r) => return Ok(r),
                Err(_) => self.restore(snap),
            }
        }
        let mut lins = Vec::new();
        if self.peek() != &Tok::RBracket {
            loop {
                let (line, col) = self.here();
                let mut e = self.expr()?;
                let single = e.len() == 1 && matches!(e[0].0, F::True);
                let Some((_, lin)) = e.pop().filter(|_| single) else {
                    return Err(Error::parse(
                        line,
                        col,
                        "a conditional or min/max value inside a function's tuple is not \
                         supported: write one piece per condition",
                    ));
                };
                lins.push(lin);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(&Tok::RBracket)?;
        Ok((Tuple::named(name, lins.len()), lins))
    }

    /// The expression `l` over the domain space: its division variables (and
    /// those their definitions use) become the divisions, in creation order.
    fn aff_of(&self, dom_space: &Space, l: &Lin) -> Result<Aff> {
        let np = self.params.len();
        let nd = self.n_dims;
        let used = self.used_vars(std::iter::once(l));
        let mut colmap = vec![0usize; self.vars.len()];
        let mut n_extra = 0;
        for (id, v) in self.vars.iter().enumerate() {
            colmap[id] = match v.kind {
                VarKind::Param(i) => 1 + i,
                VarKind::Dim(i) => 1 + np + i,
                VarKind::Extra if used[id] => {
                    if v.div.is_none() {
                        return Err(Error::Invalid(
                            "a function's expression uses a variable that is not a division".into(),
                        ));
                    }
                    n_extra += 1;
                    np + nd + n_extra
                }
                VarKind::Extra => 0,
            };
        }
        let n_col = 1 + np + nd + n_extra;
        let row = |l: &Lin| {
            let mut r = vec![Int::ZERO; n_col];
            r[0] = l.c.clone();
            for (id, c) in l.coefs.iter().enumerate() {
                if !c.is_zero() {
                    r[colmap[id]] = c.clone();
                }
            }
            r
        };
        let mut divs = Vec::new();
        for (id, v) in self.vars.iter().enumerate() {
            if let (VarKind::Extra, true, Some((num, den))) = (v.kind, used[id], &v.div) {
                divs.push(Div {
                    num: row(num),
                    den: den.clone(),
                });
            }
        }
        Aff::from_parts(dom_space.clone(), divs, row(l), l.den.clone())
    }
}

/// The pieces of `text` gathered into functions, one per domain tuple (in
/// order of first appearance), over the parameters of the text.
pub(crate) fn parse_functions(text: &str) -> Result<(Vec<String>, Vec<PwMultiAff>)> {
    let (params, pieces) = parse_fn_pieces(text)?;
    let mut out: Vec<PwMultiAff> = Vec::new();
    for p in pieces {
        let set = Set(Disjunction {
            space: domain_of(&p.space),
            parts: p.domain,
        });
        let idx =
            match out
                .iter()
                .position(|f| match (f.space.domain_tuple(), p.space.domain_tuple()) {
                    (Some(x), Some(y)) => x.same_shape(y),
                    (None, None) => true,
                    _ => false,
                }) {
                Some(i) => {
                    if !out[i].space.same_tuples(&p.space) {
                        return Err(Error::SpaceMismatch(
                            "the pieces of one domain have different range tuples".into(),
                        ));
                    }
                    i
                }
                None => {
                    out.push(PwMultiAff::empty(p.space.clone())?);
                    out.len() - 1
                }
            };
        if set.0.parts.is_empty() {
            continue;
        }
        // pieces that overlap add up there, as isl reads them
        let mut disjoint = true;
        for (s, _) in &out[idx].pieces {
            if !s.is_disjoint(&set)? {
                disjoint = false;
                break;
            }
        }
        if disjoint {
            out[idx].pieces.push((set, p.f));
        } else {
            let one = PwMultiAff::from_piece_list(p.space.clone(), vec![(set, p.f)])?;
            out[idx] = out[idx].union_add(&one)?;
        }
    }
    Ok((params, out))
}

/// The one function of `text` (an error for several domain tuples).
fn parse_one(text: &str, what: &str) -> Result<PwMultiAff> {
    let (_, mut fs) = parse_functions(text)?;
    if fs.len() > 1 {
        return Err(Error::SpaceMismatch(format!(
            "a {what} has one domain space; the text has {} (use the union type)",
            fs.len()
        )));
    }
    fs.pop().ok_or_else(|| {
        Error::Invalid(format!(
            "an empty text `{{ }}` does not say the space of a {what}"
        ))
    })
}

impl FromStr for PwMultiAff {
    type Err = Error;
    fn from_str(s: &str) -> Result<PwMultiAff> {
        parse_one(s, "PwMultiAff")
    }
}

impl FromStr for PwAff {
    type Err = Error;
    fn from_str(s: &str) -> Result<PwAff> {
        PwAff::from_pw_multi_aff(parse_one(s, "PwAff")?)
    }
}

/// The function of a text with one piece on its whole domain space.
fn single_piece(s: &str, what: &str) -> Result<MultiAff> {
    let mut f = parse_one(s, what)?;
    let universe = f.pieces.len() == 1 && f.pieces[0].0.plain_is_universe();
    if !universe {
        return Err(Error::Invalid(format!(
            "a {what} is one expression on the whole domain: no condition and one piece \
             (use the piecewise type)"
        )));
    }
    Ok(f.pieces.swap_remove(0).1)
}

impl FromStr for MultiAff {
    type Err = Error;
    fn from_str(s: &str) -> Result<MultiAff> {
        single_piece(s, "MultiAff")
    }
}

impl FromStr for Aff {
    type Err = Error;
    fn from_str(s: &str) -> Result<Aff> {
        let mut m = single_piece(s, "Aff")?;
        if m.affs.len() != 1 {
            return Err(Error::Invalid(format!(
                "an Aff has one expression, the text has {}",
                m.affs.len()
            )));
        }
        Ok(m.affs.swap_remove(0))
    }
}

impl FromStr for crate::api::UnionPwMultiAff {
    type Err = Error;
    fn from_str(s: &str) -> Result<crate::api::UnionPwMultiAff> {
        let (params, fs) = parse_functions(s)?;
        let mut u = crate::api::UnionPwMultiAff::empty(params);
        for f in fs {
            u.add_pw_multi_aff(f)?;
        }
        Ok(u)
    }
}

impl FromStr for crate::api::UnionPwAff {
    type Err = Error;
    fn from_str(s: &str) -> Result<crate::api::UnionPwAff> {
        crate::api::UnionPwAff::from_union_pw_multi_aff(s.parse()?)
    }
}
