//! Random SCoPs as C text, for the dependence differential against isl
//! (`tests/deps_isl.rs`): 2–4 statements in a tree of loops of depth at most
//! 3, loop bounds affine in the outer iterators and a parameter `N`,
//! sometimes an affine `if` guard, and accesses with affine subscripts to a
//! few shared arrays (`A` and `B` two-dimensional, `C` and `D`
//! one-dimensional, the scalar `s`).

use crate::Source;

/// The arrays a statement may touch: name and number of subscripts.
const ARRAYS: [(&str, usize); 5] = [("A", 2), ("B", 2), ("C", 1), ("D", 1), ("s", 0)];

struct Gen<'r, R: Source> {
    rng: &'r mut R,
    /// Statements still to place.
    left: usize,
    /// The arrays of this SCoP (a subset of `ARRAYS`, so some are shared).
    arrays: Vec<(&'static str, usize)>,
    /// The array the previous statement wrote.
    last: Option<String>,
    out: String,
}

impl<R: Source> Gen<'_, R> {
    /// An affine expression in the iterators `iters` (and maybe `N`): the
    /// coefficients small, most often one iterator plus a constant.
    fn affine(&mut self, iters: &[String], with_n: bool) -> String {
        let mut terms: Vec<String> = Vec::new();
        for it in iters {
            // most subscripts use one or two of the iterators
            if !self.rng.chance(45) {
                continue;
            }
            let c = [1, 1, 1, -1, 2][self.rng.range(0, 4) as usize];
            terms.push(match c {
                1 => it.clone(),
                -1 => format!("-{it}"),
                c => format!("{c} * {it}"),
            });
        }
        if terms.is_empty() && !iters.is_empty() && self.rng.chance(70) {
            // mostly not a constant subscript
            let k = self.rng.range(0, iters.len() as i64 - 1) as usize;
            terms.push(iters[k].clone());
        }
        if with_n && self.rng.chance(10) {
            terms.push("N".into());
        }
        let k = self.rng.range(-2, 2);
        let mut s = terms.join(" + ").replace("+ -", "- ");
        if s.is_empty() {
            s = k.to_string();
        } else if k > 0 {
            s = format!("{s} + {k}");
        } else if k < 0 {
            s = format!("{s} - {}", -k);
        }
        s
    }

    /// A reference to one of the arrays (`like`'s array more often, so that
    /// statements read what they and their neighbours write).
    fn access(&mut self, iters: &[String], like: Option<&str>) -> String {
        let mut k = self.rng.range(0, self.arrays.len() as i64 - 1) as usize;
        // (the chance is drawn only when `like` names an array)
        let like_at = self.arrays.iter().position(|a| Some(a.0) == like);
        if let Some(p) = like_at.filter(|_| self.rng.chance(35)) {
            k = p;
        }
        let (name, dims) = self.arrays[k];
        let mut s = name.to_string();
        for _ in 0..dims {
            let e = self.affine(iters, true);
            s.push_str(&format!("[{e}]"));
        }
        s
    }

    fn statement(&mut self, iters: &[String], indent: usize) {
        self.left -= 1;
        let lhs = self.access(iters, self.last.clone().as_deref());
        let name: String = lhs.chars().take_while(|c| c.is_alphanumeric()).collect();
        let n = self.rng.range(0, 3);
        let mut rhs: Vec<String> = (0..n).map(|_| self.access(iters, Some(&name))).collect();
        self.last = Some(name);
        if rhs.is_empty() || self.rng.chance(20) {
            rhs.push("1".into());
        }
        let pad = "  ".repeat(indent);
        self.out
            .push_str(&format!("{pad}{lhs} = {};\n", rhs.join(" + ")));
    }

    /// A lower and an upper bound for the loop at depth `iters.len()`.
    fn bounds(&mut self, iters: &[String]) -> (String, String, &'static str) {
        let lo = match (iters.last(), self.rng.range(0, 5)) {
            (Some(o), 0 | 1) => o.clone(),
            (Some(o), 2) => format!("{o} + 1"),
            (_, 3) => "1".into(),
            _ => "0".into(),
        };
        let hi = match (iters.first(), self.rng.range(0, 6)) {
            (Some(o), 0) => o.clone(),
            (Some(o), 1) => format!("N - {o}"),
            (_, 2) => "N - 1".into(),
            (_, 3) => "N + 1".into(),
            (_, 4) => format!("{}", self.rng.range(2, 5)),
            _ => "N".into(),
        };
        let cmp = if self.rng.chance(30) { "<=" } else { "<" };
        (lo, hi, cmp)
    }

    /// A block at loop depth `iters.len()`: one or more items, each a
    /// statement, a loop around a block, or a guarded statement.
    fn block(&mut self, iters: &mut Vec<String>, indent: usize) {
        let pad = "  ".repeat(indent);
        loop {
            if self.left == 0 {
                return;
            }
            let r = self.rng.range(0, 99);
            let loop_percent = [75, 55, 40, 0][iters.len()];
            if r < loop_percent {
                let (lo, hi, cmp) = self.bounds(iters);
                let it = format!("i{}", iters.len());
                self.out.push_str(&format!(
                    "{pad}for (int {it} = {lo}; {it} {cmp} {hi}; {it}++) {{\n"
                ));
                iters.push(it);
                self.block(iters, indent + 1);
                iters.pop();
                self.out.push_str(&format!("{pad}}}\n"));
            } else if !iters.is_empty() && r >= 90 {
                let e = self.affine(iters, false);
                let cmp = ["<=", ">=", "=="][self.rng.range(0, 2) as usize];
                let rhs = if self.rng.chance(50) { "N - 1" } else { "2" };
                self.out.push_str(&format!("{pad}if ({e} {cmp} {rhs})\n"));
                self.statement(iters, indent + 1);
            } else {
                self.statement(iters, indent);
            }
            // end the block early sometimes (the caller's block goes on)
            if indent > 0 && self.rng.chance(40) {
                return;
            }
        }
    }
}

/// A random SCoP as C text (a `#pragma scop` region, no declarations).
pub fn random_scop(rng: &mut impl Source) -> String {
    let n_stmts = rng.range(2, 4) as usize;
    // 2–4 of the arrays; always at least one shared by several statements as
    // the statements draw from the same few
    let mut arrays: Vec<(&'static str, usize)> = ARRAYS
        .iter()
        .copied()
        .filter(|(name, _)| *name != "s" || rng.chance(30))
        .collect();
    while arrays.len() > 2 && rng.chance(50) {
        let k = rng.range(0, arrays.len() as i64 - 1) as usize;
        arrays.remove(k);
    }
    let mut g = Gen {
        rng,
        left: n_stmts,
        arrays,
        last: None,
        out: String::from("#pragma scop\n"),
    };
    g.block(&mut Vec::new(), 0);
    g.out.push_str("#pragma endscop\n");
    g.out
}
