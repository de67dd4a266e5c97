//! Rewrites chained comparisons `a <= e <= b` of isl notation as `a <= e and
//! e <= b`, for the benchmark against isl (`src/bin/vs_isl.rs`).
//!
//! Why: isl's reader intersects the conjuncts of a formula one at a time, and an
//! intersection where both sides hold more than one constraint (a chained
//! comparison holds two) goes through `isl_basic_map_intersect` and then
//! `isl_basic_map_is_empty` on the result: an exact integer emptiness test of
//! every prefix of the conjunction, while parsing. A set read that way is
//! already marked empty or given a cached sample point, and the `is_empty`
//! timed afterwards is a flag read. Written one comparison per conjunct, each
//! intersection adds a single constraint (isl's shortcut, with only a syntactic
//! check), so the emptiness test runs inside the timed operation, as it does for
//! a set built through isl's constraint API. The sets are the same.

/// The text with every chain of two or more comparisons between delimiters
/// (`(`, `)`, `{`, `}`, `:`, ` and `, ` or `) written as a conjunction of
/// single comparisons. Comparisons are recognised as ` <= `, ` >= `, ` < `,
/// ` > `, ` = ` (with the spaces our printer puts around them); a chain that
/// a delimiter cuts (a term such as `floor(..)` inside it) is left as it is,
/// which only means that isl may decide it while parsing.
pub fn unchain(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut seg_start = 0;
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        let delim = if matches!(bytes[i], b'(' | b')' | b'{' | b'}' | b':') {
            1
        } else if text[i..].starts_with(" and ") {
            5
        } else if text[i..].starts_with(" or ") {
            4
        } else {
            0
        };
        if delim > 0 {
            out.push_str(&unchain_segment(&text[seg_start..i]));
            out.push_str(&text[i..i + delim]);
            i += delim;
            seg_start = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&unchain_segment(&text[seg_start..]));
    out
}

/// One segment between delimiters: `p0 op0 p1 op1 p2 ..` becomes `p0 op0 p1 and
/// p1 op1 p2 ..`; a segment with fewer than two comparisons is returned as is.
fn unchain_segment(seg: &str) -> String {
    const OPS: [&str; 5] = [" <= ", " >= ", " < ", " > ", " = "];
    let mut parts = Vec::new();
    let mut ops = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < seg.len() {
        match OPS.iter().find(|op| seg[i..].starts_with(**op)) {
            Some(op) => {
                parts.push(&seg[start..i]);
                ops.push(*op);
                i += op.len();
                start = i;
            }
            None => i += seg[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    parts.push(&seg[start..]);
    if ops.len() < 2 {
        return seg.to_string();
    }
    let mut s = String::with_capacity(seg.len() * 2);
    for (k, op) in ops.iter().enumerate() {
        if k > 0 {
            s.push_str(" and ");
        }
        s.push_str(if k == 0 { parts[0] } else { parts[k].trim() });
        s.push_str(op);
        s.push_str(if k + 2 == parts.len() {
            parts[k + 1]
        } else {
            parts[k + 1].trim()
        });
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_become_conjunctions() {
        let t = "[N] -> { [x, y] : (exists e : 0 <= x <= N - 1 and y = 2e and 3 >= y > x > 0) or (x = y) }";
        assert_eq!(
            unchain(t),
            "[N] -> { [x, y] : (exists e : 0 <= x and x <= N - 1 and y = 2e and 3 >= y and y > x and x > 0) or (x = y) }"
        );
    }

    #[test]
    fn single_comparisons_and_tuples_are_untouched() {
        for t in [
            "{ [x0, x1] : (x0 - x1 <= -3 and x1 >= 2) }",
            "[N] -> { A[i] -> B[j] : i = j }",
            "{ [x] : 0 <= floor((x)/2) <= 3 }",
        ] {
            assert_eq!(unchain(t), t);
        }
    }

    /// The rewritten text is the same set.
    #[test]
    fn the_set_is_the_same() {
        let t = "[N] -> { [x, y] : (exists e : 0 <= x <= N - 1 and y = 2e and 3 >= y > x > 0) or (x = y) }";
        let a: presburger::UnionSet = t.parse().unwrap();
        let b: presburger::UnionSet = unchain(t).parse().unwrap();
        assert!(a.is_equal(&b).unwrap());
    }
}
