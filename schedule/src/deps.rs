//! Memory-based dependences of a SCoP: pairs of statement instances that
//! touch the same array element, the first before the second in the original
//! schedule.
//!
//! With `W` and `R` the write and read relations restricted to the domains,
//! and `Before = Sched ; <_lex ; Sched^-1` the pairs of instances whose 2d+1
//! times are in strict lexicographic order, the relations are
//! `RAW = (W ; R^-1) ∩ Before` (a write, then a read of its element),
//! `WAR = (R ; W^-1) ∩ Before` and `WAW = (W ; W^-1) ∩ Before`, each a union
//! map from the source instance to the target instance. They are
//! memory-based: every earlier access counts, not only the last writer.

use crate::scop::Scop;
use presburger::{Map, Result, Space, Tuple, UnionMap};

/// The three kinds of memory-based dependences.
#[derive(Clone, Debug)]
pub struct Dependences {
    /// Read after write (flow).
    pub raw: UnionMap,
    /// Write after read (anti).
    pub war: UnionMap,
    /// Write after write (output).
    pub waw: UnionMap,
}

/// The memory-based dependences of `scop` (see the module doc).
pub fn dependences(scop: &Scop) -> Result<Dependences> {
    let domains = scop.domains()?;
    let writes = scop.writes()?.intersect_domain(&domains)?;
    let reads = scop.reads()?.intersect_domain(&domains)?;
    let sched = scop.schedule()?;
    let n_out = scop
        .statements
        .first()
        .map(|s| s.schedule.space().n_out())
        .unwrap_or(1);
    let time = Space::set(scop.params.clone(), Tuple::anonymous(n_out));
    let lex = UnionMap::from(Map::lex_lt(&time)?);
    let before = sched.apply_range(&lex)?.apply_range(&sched.reverse())?;
    let pairs = |a: &UnionMap, b: &UnionMap| -> Result<UnionMap> {
        let all = a
            .apply_range(&b.reverse())?
            .intersect(&before)?
            .coalesce()?;
        non_empty(&all)
    };
    Ok(Dependences {
        raw: pairs(&writes, &reads)?,
        war: pairs(&reads, &writes)?,
        waw: pairs(&writes, &writes)?,
    })
}

/// `u` without its empty members (pairs of statements with no dependence).
fn non_empty(u: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.members() {
        if !m.is_empty()? {
            out.add(m.clone())?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::{extract_scop, Options};

    #[test]
    fn a_stencil_in_place() {
        let src = "#pragma scop\nfor (i = 1; i < n; i++)\n  A[i] = A[i - 1] + A[i + 1];\n#pragma endscop\n";
        let d = dependences(&extract_scop(src, &Options::default()).unwrap()).unwrap();
        let raw: UnionMap = "[n] -> { S0[i] -> S0[i + 1] : 1 <= i < n - 1 }"
            .parse()
            .unwrap();
        let war: UnionMap = "[n] -> { S0[i] -> S0[i + 1] : 1 <= i < n - 1 }"
            .parse()
            .unwrap();
        assert!(d.raw.is_equal(&raw).unwrap(), "{}", d.raw);
        assert!(d.war.is_equal(&war).unwrap(), "{}", d.war);
        assert!(d.waw.is_empty().unwrap(), "{}", d.waw);
    }
}
