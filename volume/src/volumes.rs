//! Volumes and their index domains (paper Sec. 4.1, Def. 4.1–4.9).
//!
//! A volume is an indexed aggregate of values whose index domain is a set of
//! integer tuples (Def. 4.1); its rank is the tuple's length, and a scalar is a
//! volume of rank 0, indexed only by the empty tuple (Lemma 4.3, Def. 4.4). A
//! domain equal to its box hull is a hyperrectangle (Def. 4.5), given by its offset
//! (the smallest index per dimension) and size (Lemma 4.6); an array is a volume
//! whose domain is a hyperrectangle at offset 0 (Def. 4.7). A view is an affine map
//! from the indices of a subvolume to those of a supervolume (Def. 4.8), and a
//! slice is the view `i ↦ offset + i ⊙ stride` (Def. 4.9), which is also the
//! element map of `tensor.extract_slice` (A.2.1).

use crate::element_map::slice_map;
use crate::error::{Error, Result};
use crate::tiling::aff_to_string;
use presburger::{Int, Map, Set};

/// A volume: a name (the isl tuple name) and an index domain.
#[derive(Debug, Clone)]
pub struct Volume {
    pub name: String,
    pub domain: Set,
}

/// Offset and size of a hyperrectangle (Lemma 4.6), per dimension, as affine
/// expressions `row·(1, params)` of the domain's parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hyperrectangle {
    pub params: Vec<String>,
    pub offset: Vec<Vec<Int>>,
    pub size: Vec<Vec<Int>>,
}

impl Hyperrectangle {
    /// The offsets as text (`0`, `N - 1`).
    pub fn offset_text(&self) -> Vec<String> {
        self.offset
            .iter()
            .map(|r| aff_to_string(r, &self.params))
            .collect()
    }

    /// The sizes as text (`512`, `N + 3`).
    pub fn size_text(&self) -> Vec<String> {
        self.size
            .iter()
            .map(|r| aff_to_string(r, &self.params))
            .collect()
    }
}

impl Volume {
    /// A volume named after its domain's tuple; the domain must have a tuple name.
    pub fn new(domain: Set) -> Result<Volume> {
        let name = domain
            .space()
            .range_tuple()
            .name
            .clone()
            .ok_or_else(|| Error::Invalid(format!("the domain {domain} has no tuple name")))?;
        Ok(Volume { name, domain })
    }

    /// The number of indices of an element.
    pub fn rank(&self) -> usize {
        self.domain.space().n_out()
    }

    /// A scalar is a volume of rank 0 (Def. 4.4).
    pub fn is_scalar(&self) -> bool {
        self.rank() == 0
    }

    /// The offset and size of the domain if it is a non-empty hyperrectangle (Def.
    /// 4.5): the domain equals the box of its per-dimension minima and maxima, which
    /// must be affine in the parameters. `None` otherwise.
    pub fn hyperrectangle(&self) -> Result<Option<Hyperrectangle>> {
        let d = &self.domain;
        if d.is_empty()? || !d.is_bounded()? {
            return Ok(None);
        }
        let (mut offset, mut size) = (Vec::new(), Vec::new());
        for k in 0..self.rank() {
            let (lo, hi) = match (d.dim_min_affine(k), d.dim_max_affine(k)) {
                (Ok(Some(lo)), Ok(Some(hi))) => (lo, hi),
                (Ok(_), Ok(_)) => return Ok(None),
                (Err(presburger::Error::Unsupported(_)), _)
                | (_, Err(presburger::Error::Unsupported(_))) => return Ok(None),
                (Err(e), _) | (_, Err(e)) => return Err(e.into()),
            };
            let mut n: Vec<Int> = hi.iter().zip(&lo).map(|(h, l)| h - l).collect();
            n[0] += &Int::ONE;
            offset.push(lo);
            size.push(n);
        }
        if !d.box_hull()?.is_equal(d)? {
            return Ok(None);
        }
        Ok(Some(Hyperrectangle {
            params: d.space().params().to_vec(),
            offset,
            size,
        }))
    }

    /// An array is a volume whose domain is a hyperrectangle at offset 0 (Def. 4.7).
    pub fn is_array(&self) -> Result<bool> {
        Ok(self
            .hyperrectangle()?
            .is_some_and(|h| h.offset.iter().all(|r| r.iter().all(Int::is_zero))))
    }
}

/// The slice view `sub[i] ↦ sup[offset + i ⊙ stride]` over `0 <= i < sizes` (Def.
/// 4.9): the element map of extracting `sub` from `sup` (A.2.1).
pub fn slice_view(
    sub: &str,
    sup: &str,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
) -> Result<Map> {
    if offsets.len() != sizes.len() || strides.len() != sizes.len() {
        return Err(Error::Invalid(
            "a slice needs as many offsets and strides as sizes".into(),
        ));
    }
    slice_map(&[], sub, sup, offsets, sizes, strides, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vol(s: &str) -> Volume {
        Volume::new(s.parse().unwrap()).unwrap()
    }

    #[test]
    fn hyperrectangles_arrays_and_scalars() {
        let a = vol("[N] -> { A[i, j] : 0 <= i < N and 0 <= j < 4 }");
        let h = a.hyperrectangle().unwrap().unwrap();
        assert_eq!(h.offset_text(), ["0", "0"]);
        assert_eq!(h.size_text(), ["N", "4"]);
        assert!(a.is_array().unwrap());
        let shifted = vol("{ B[i] : 3 <= i <= 9 }");
        let h = shifted.hyperrectangle().unwrap().unwrap();
        assert_eq!(
            (h.offset_text(), h.size_text()),
            (vec!["3".into()], vec!["7".into()])
        );
        assert!(!shifted.is_array().unwrap());
        // the upper triangle of Appendix A.1 is a volume but no hyperrectangle
        let u = vol("[M, N] -> { U[i, j] : 0 <= i < M and i <= j < N }");
        assert!(u.hyperrectangle().unwrap().is_none());
        let s = vol("{ S[] }");
        assert!(s.is_scalar() && s.is_array().unwrap());
        assert_eq!(s.rank(), 0);
    }

    #[test]
    fn slice_views() {
        let m = slice_view("sub", "sup", &[2, 0], &[3, 2], &[2, 1]).unwrap();
        let want: Map = "{ sub[i, j] -> sup[2 + 2i, j] : 0 <= i < 3 and 0 <= j < 2 }"
            .parse()
            .unwrap();
        assert!(m.is_equal(&want).unwrap());
        assert!(slice_view("a", "b", &[0], &[1, 2], &[1]).is_err());
    }
}
