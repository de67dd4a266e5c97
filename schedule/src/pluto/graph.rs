//! The dependence graph of the statements: strongly connected components in
//! a topological order, as the Pluto schedulers use them to decide loop
//! distribution.

/// The strongly connected components of the graph on `n` vertices with the
/// directed `edges`, in a topological order of the component graph (every
/// edge between two components goes from an earlier to a later one). Among
/// the components ready at a step, the one for which `prefer` is true comes
/// first, then the one with the smallest vertex (the statements' textual
/// order). Each component lists its vertices in increasing order.
///
/// Reachability is computed by a transitive closure (Warshall), enough for
/// the tens of statements of a SCoP; components are the classes of mutual
/// reachability; the order is Kahn's algorithm on the component graph.
pub(crate) fn sccs(
    n: usize,
    edges: &[(usize, usize)],
    prefer: impl Fn(&[usize]) -> bool,
) -> Vec<Vec<usize>> {
    let mut reach = vec![vec![false; n]; n];
    for (i, row) in reach.iter_mut().enumerate() {
        row[i] = true;
    }
    for &(a, b) in edges {
        reach[a][b] = true;
    }
    for k in 0..n {
        let through = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (r, &t) in row.iter_mut().zip(&through) {
                    *r |= t;
                }
            }
        }
    }
    let mut comp_of = vec![usize::MAX; n];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        if comp_of[i] != usize::MAX {
            continue;
        }
        let members: Vec<usize> = (i..n).filter(|&j| reach[i][j] && reach[j][i]).collect();
        for &j in &members {
            comp_of[j] = comps.len();
        }
        comps.push(members);
    }
    let m = comps.len();
    let mut preds = vec![0usize; m];
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); m];
    for &(a, b) in edges {
        let (ca, cb) = (comp_of[a], comp_of[b]);
        if ca != cb && !succ[ca].contains(&cb) {
            succ[ca].push(cb);
            preds[cb] += 1;
        }
    }
    let mut done = vec![false; m];
    let mut order = Vec::with_capacity(m);
    for _ in 0..m {
        let ready = (0..m).filter(|&c| !done[c] && preds[c] == 0);
        let Some(next) = ready.min_by_key(|&c| (!prefer(&comps[c]), comps[c][0])) else {
            break;
        };
        done[next] = true;
        for &s in &succ[next] {
            preds[s] -= 1;
        }
        order.push(comps[next].clone());
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_in_topological_order() {
        // 0 -> 1 <-> 2 -> 3, and 4 alone
        let c = sccs(5, &[(0, 1), (1, 2), (2, 1), (2, 3)], |_| false);
        assert_eq!(c, vec![vec![0], vec![1, 2], vec![3], vec![4]]);
        // a later vertex first when it must be
        let c = sccs(3, &[(2, 0)], |_| false);
        assert_eq!(c, vec![vec![1], vec![2], vec![0]]);
        // preferred components first among the ready ones
        let c = sccs(3, &[(0, 1)], |m| m[0] == 2);
        assert_eq!(c, vec![vec![2], vec![0], vec![1]]);
    }
}
