//! Facts and region partitioning (paper Sec. 5.2–5.3).
//!
//! A fact is a predicate on volume elements, given as the set of elements it holds
//! for (e.g. "is a compile-time constant": all of `cst0`). The program's element map
//! transfers it onto the output: the output elements that depend on some element of
//! the fact. The output's domain is then split into regions that want different
//! code: dense (no constant involved), static (only constants involved), and the
//! sparse boundary, itself split into edges and corners.

use crate::error::Result;
use presburger::{BasicSet, Conjunction, Int, Set, UnionMap, UnionSet};

/// The elements of the map's domain that depend on some element of `fact`:
/// `dom(map ∩_range fact)` (paper Sec. 5.2, "range-intersect ... by taking the
/// domain ... we transfer the fact").
pub fn transfer_fact(map: &UnionMap, fact: &UnionSet) -> Result<UnionSet> {
    Ok(map.intersect_range(fact)?.domain()?.coalesce()?)
}

/// The regions of an output volume (paper Sec. 5.3). `dense`, `static_only`,
/// `edges` and `corners` are pairwise disjoint and cover `domain`.
#[derive(Debug, Clone)]
pub struct Regions {
    /// The output's index domain.
    pub domain: Set,
    /// `I_c`: elements that depend on some constant element.
    pub constant: Set,
    /// `I_D = domain \ I_c`: elements that involve no constant (including elements
    /// that depend on nothing at all).
    pub dense: Set,
    /// `I_St`: elements of `I_c` that depend on no live-in element, i.e. only on
    /// constants (computable at compile time).
    pub static_only: Set,
    /// `I_Sp1`: elements of `I_c \ I_St` in exactly one maximal piece (edges).
    pub edges: Set,
    /// `I_Sp2`: elements of `I_c \ I_St` in at least two maximal pieces (corners).
    pub corners: Set,
}

/// Partitions `output_domain` by the facts "depends on a constant" and "depends
/// on a live-in" transferred through the program map `map` (paper Sec. 5.3).
///
/// - `I_c = transfer_fact(map, constant_volumes) ∩ domain`;
/// - `I_D = domain \ I_c`;
/// - `I_St = I_c \ transfer_fact(map, live_in_domains)`: the elements that depend
///   only on constants. The paper writes `I_St = I_c \ dom act0`, which is always
///   empty since `I_c ⊆ dom act0`; its intent ("static": no runtime input
///   involved) is what is computed here. In the paper's example it is empty too.
/// - the sparse rest `I_c \ I_St` is split into maximal convex pieces by
///   [`maximal_pieces`] (`{1 <= h <= 254, w <= 0}` grows to the halfspace
///   `{w <= 0}`); corners (`I_Sp2`) are the points in at least two pieces (the
///   union of the pairwise intersections), edges (`I_Sp1`) the rest. The paper:
///   "All elements of `I_Sp2` are contained within two boundary halfspaces, and
///   thus two disjuncts."
pub fn partition(
    output_domain: &Set,
    map: &UnionMap,
    constant_volumes: &UnionSet,
    live_in_domains: &UnionSet,
) -> Result<Regions> {
    let domain = output_domain.clone();
    let part_in = |u: &UnionSet| -> Result<Set> {
        match u.member_like(domain.space()) {
            Some(s) => Ok(s.intersect(&domain)?.coalesce()?),
            None => Ok(Set::empty(domain.space().clone())?),
        }
    };
    let constant = part_in(&transfer_fact(map, constant_volumes)?)?;
    let from_live_in = part_in(&transfer_fact(map, live_in_domains)?)?;
    let dense = domain.subtract(&constant)?.coalesce()?;
    let static_only = constant.subtract(&from_live_in)?.coalesce()?;
    let sparse = constant.subtract(&static_only)?.coalesce()?;
    let pieces = maximal_pieces(&sparse, &domain)?;
    let mut corners = Set::empty(domain.space().clone())?;
    for i in 0..pieces.len() {
        for j in i + 1..pieces.len() {
            corners = corners.union(&pieces[i].intersect(&pieces[j])?)?;
        }
    }
    let corners = corners.coalesce()?;
    let edges = sparse.subtract(&corners)?.coalesce()?;
    Ok(Regions {
        domain,
        constant,
        dense,
        static_only,
        edges,
        corners,
    })
}

/// Maximal convex pieces of `set` within `domain` (`set ⊆ domain`).
///
/// Idea: every disjunct of the coalesced `set` is grown greedily: its constraints
/// are tried one by one (an equality as its two inequalities), and one is dropped
/// when the relaxed disjunct, intersected with `domain`, still lies in `set`. So a
/// disjunct `{1 <= h <= 254, w <= 0}` of a boundary grows to `{w <= 0}` (within
/// the domain). Pieces contained in another piece are removed. The pieces cover
/// `set`, lie in it, and none can drop a further constraint; the result depends
/// on the order of constraints when several maximal pieces contain a disjunct.
/// (Sec. 5.3: separating `I_Sp1` and `I_Sp2` by inspecting the disjuncts of
/// `I_c`, with the halfspaces made explicit.)
pub fn maximal_pieces(set: &Set, domain: &Set) -> Result<Vec<Set>> {
    let mut pieces: Vec<Set> = Vec::new();
    for b in set.coalesce()?.basics() {
        let c = b.conjunction();
        let rows = inequality_rows(c);
        let mut keep = vec![true; rows.len()];
        for k in 0..rows.len() {
            keep[k] = false;
            let relaxed = build(c, &rows, &keep)?.intersect(domain)?;
            if !relaxed.is_subset(set)? {
                keep[k] = true;
            }
        }
        let piece = build(c, &rows, &keep)?.intersect(domain)?.coalesce()?;
        if !piece.is_empty()? {
            pieces.push(piece);
        }
    }
    // drop pieces contained in others (keep the first of equal ones)
    let mut out: Vec<Set> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let mut contained = false;
        for (j, q) in pieces.iter().enumerate() {
            if i != j && p.is_subset(q)? && (!q.is_subset(p)? || j < i) {
                contained = true;
                break;
            }
        }
        if !contained {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// The constraints of `c` as inequalities only: its inequalities, then each
/// equality as two opposite inequalities.
pub(crate) fn inequality_rows(c: &Conjunction) -> Vec<Vec<Int>> {
    let mut rows: Vec<Vec<Int>> = c.inequalities().to_vec();
    for e in c.equalities() {
        rows.push(e.clone());
        rows.push(e.iter().map(|x| -x).collect());
    }
    rows
}

/// The conjunction with the locals of `c` and the rows of `rows` marked in `keep`
/// (all as inequalities).
pub(crate) fn build(c: &Conjunction, rows: &[Vec<Int>], keep: &[bool]) -> Result<Set> {
    let mut n = Conjunction::universe(c.space().clone());
    for d in c.divs() {
        n.add_local(d.clone())?;
    }
    for (r, &k) in rows.iter().zip(keep) {
        if k {
            n.add_ineq(r.clone())?;
        }
    }
    Ok(Set::from(BasicSet::from_conjunction(n)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> Set {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }
    fn um(s: &str) -> UnionMap {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }
    fn us(s: &str) -> UnionSet {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn check_partition(r: &Regions) {
        let parts = [&r.dense, &r.static_only, &r.edges, &r.corners];
        for i in 0..parts.len() {
            for j in i + 1..parts.len() {
                assert!(parts[i].is_disjoint(parts[j]).unwrap(), "{i} {j}");
            }
        }
        let mut all = parts[0].clone();
        for p in &parts[1..] {
            all = all.union(p).unwrap();
        }
        assert!(all.is_equal(&r.domain).unwrap());
    }

    #[test]
    fn transfer_takes_the_domain_of_the_dependent_part() {
        let m = um("{ o[i] -> c[] : i < 2; o[i] -> x[i] : i >= 1 }");
        let f = transfer_fact(&m, &us("{ c[] }")).unwrap();
        assert!(f.is_equal(&us("{ o[i] : i < 2 }")).unwrap());
    }

    #[test]
    fn padded_row_has_static_corner_edges_and_dense_middle() {
        // o[h, w] on 0..4 x 0..4: rows and columns 0 and 4 read the constant; o[0, 0]
        // reads only the constant; o[0, w], w > 0, reads x too.
        let dom = set("{ o[h, w] : 0 <= h <= 4 and 0 <= w <= 4 }");
        let m = um("{ o[h, w] -> c[] : h = 0 or w = 0 or h = 4 or w = 4; \
                      o[h, w] -> x[h, w] : 0 <= h <= 4 and 0 <= w <= 4 and h + w > 0 }");
        let r = partition(&dom, &m, &us("{ c[] }"), &us("{ x[h, w] }")).unwrap();
        check_partition(&r);
        assert!(r
            .constant
            .is_equal(&set(
                "{ o[h, w] : 0 <= h <= 4 and 0 <= w <= 4 and (h = 0 or w = 0 or h = 4 or w = 4) }"
            ))
            .unwrap());
        assert!(
            r.dense
                .is_equal(&set("{ o[h, w] : 1 <= h <= 3 and 1 <= w <= 3 }"))
                .unwrap()
        );
        assert!(r.static_only.is_equal(&set("{ o[0, 0] }")).unwrap());
        assert!(
            r.corners
                .is_equal(&set(
                    "{ o[h, w] : (h = 0 or h = 4) and (w = 0 or w = 4) and h + w > 0 }"
                ))
                .unwrap()
        );
        assert!(!r.edges.is_empty().unwrap());
    }

    #[test]
    fn pieces_grow_to_halfspaces() {
        let dom = set("{ o[h, w] : 0 <= h <= 9 and 0 <= w <= 9 }");
        let s = set("{ o[h, w] : 0 <= h <= 9 and 0 <= w <= 9 and (h <= 0 or w <= 0) }");
        let p = maximal_pieces(&s, &dom).unwrap();
        assert_eq!(p.len(), 2);
        let want = [
            set("{ o[h, w] : h = 0 and 0 <= w <= 9 }"),
            set("{ o[h, w] : w = 0 and 0 <= h <= 9 }"),
        ];
        for w in &want {
            assert!(p.iter().any(|x| x.is_equal(w).unwrap()), "{p:?}");
        }
    }
}
