//! The volume model of a whole program, end to end: read MLIR text, clone
//! constants per use (Sec. 5.4), infer shapes (Sec. 5.3), build each operation's
//! element map (Sec. 4.2), compose them leniently into the program's map (Sec. 4.3,
//! Lemma A.5), and answer the questions of Sec. 5: regions of an output and tiles.
//!
//! ```
//! let text = std::fs::read_to_string(
//!     concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/conv_pad_relu.mlir"),
//! ).unwrap();
//! let model = presburger_volume::model::Model::from_mlir(&text, &Default::default()).unwrap();
//! let out = model.output(None).unwrap();
//! let regions = model.regions(out).unwrap();
//! assert!(!regions.dense.is_empty().unwrap());
//! ```

use crate::element_map::op_element_map;
use crate::error::{Error, Result};
use crate::ir::{OpKind, Program, ValueId};
use crate::mlir;
use crate::program::{clone_constants, program_map};
use crate::regions::{Regions, partition};
use crate::shape::{Shapes, infer_shapes};
use crate::tiling::{
    Slice, all_tiles, disjoint_pieces, footprint, interior_tiles, match_slice, restrict_to_tiles,
    tile_map, tiled_program_map,
};
use presburger::{DimKind, Int, Map, Set, Space, Tuple, UnionMap, UnionSet};

/// How the model is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Give each use of a constant its own volume (Sec. 5.4), so that a later use
    /// of the padding value (e.g. in an activation's body) does not shadow the one
    /// that defines the padding. On by default.
    pub clone_constants: bool,
    /// Read ops the reader does not know as opaque all-to-all operations instead of
    /// refusing them.
    pub opaque_unknown: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            clone_constants: true,
            opaque_unknown: false,
        }
    }
}

/// A program with its shapes, per-operation element maps and program map.
#[derive(Debug, Clone)]
pub struct Model {
    /// The program, after constant cloning if that was asked for.
    pub program: Program,
    pub shapes: Shapes,
    /// `op_maps[i]`: the element map of operation `i` (results to operands).
    pub op_maps: Vec<UnionMap>,
    /// The program's element map, from the live-outs to the leaves of the use-def
    /// graph (live-ins, constants, and values whose elements depend on nothing).
    pub map: UnionMap,
    /// The program's map with each `tensor.pad`'s padding edge sent to a volume of
    /// its own, `<pad result>_padding[]`, instead of the padding value (paper Sec.
    /// 5.4: "assigning each def-use edge a unique volume identifier"). The
    /// constant region is read off it, so a padding value that is used elsewhere
    /// too (an argument, a shared constant) or computed by other ops still marks
    /// exactly the padded elements.
    pub padding_map: UnionMap,
    /// The marker volumes of `padding_map`, one per `tensor.pad`.
    pub padding_markers: Vec<String>,
}

/// The answer to a tiling question (Sec. 5.2, Algorithm 2).
#[derive(Debug, Clone)]
pub struct TileReport {
    /// `M_T`: tiled output `<out>_tile[.., q_d, m_d, ..]` to the output.
    pub tile_map: Map,
    /// `M_T ∘ M` with the tile indices as parameters `Q<d>`.
    pub tiled_map: UnionMap,
    /// Every tile that meets the output's domain, as `{ [Q.., ..] }`.
    pub all: Set,
    /// The tiles inside the domain that avoid the constant region `I_c`.
    pub interior: Set,
    /// `interior` as disjoint conjunctions (Sec. 5.3: split recursively).
    pub interior_pieces: Vec<Set>,
    /// For each leaf volume the tiled map reads: its footprint for the interior
    /// tiles (or all tiles when none is interior) and the slice it is, if it is one.
    pub slices: Vec<(String, Set, Option<Slice>)>,
    /// The part of the output one tile writes, as a slice of the tiled volume.
    pub written: Option<Slice>,
}

impl Model {
    /// Reads `text` (see [`mlir::parse_program_with`]) and builds the model.
    pub fn from_mlir(text: &str, options: &Options) -> Result<Model> {
        let p = mlir::parse_program_with(
            text,
            mlir::Options {
                opaque_unknown: options.opaque_unknown,
            },
        )?;
        Model::build(&p, options)
    }

    /// Builds the model of a program: clones constants (if asked), infers shapes,
    /// builds the element map of every operation and composes them leniently from
    /// the live-outs (paper Lemma A.5).
    pub fn build(p: &Program, options: &Options) -> Result<Model> {
        let program = if options.clone_constants {
            clone_constants(p)
        } else {
            p.clone()
        };
        let shapes = infer_shapes(&program)?;
        let op_maps = (0..program.ops.len())
            .map(|i| op_element_map(&program, i, &shapes))
            .collect::<Result<Vec<_>>>()?;
        let mut outs = UnionSet::empty(shapes.params.clone());
        for &v in &program.returns {
            outs = outs.union(&UnionSet::from(shapes.domain(&program, v)?))?;
        }
        let map = program_map(&outs, &op_maps)?;
        let (marked, padding_markers) = mark_padding(&program, &shapes, &op_maps)?;
        let padding_map = program_map(&outs, &marked)?;
        Ok(Model {
            program,
            shapes,
            op_maps,
            map,
            padding_map,
            padding_markers,
        })
    }

    /// The live-out called `name` (`%act0` or `act0`), or the first live-out.
    pub fn output(&self, name: Option<&str>) -> Result<ValueId> {
        let p = &self.program;
        match name {
            None => p
                .returns
                .first()
                .copied()
                .ok_or_else(|| Error::Invalid("the function returns no value".into())),
            Some(n) => {
                let n = n.strip_prefix('%').unwrap_or(n);
                let v = p
                    .find(n)
                    .ok_or_else(|| Error::Request(format!("no value %{n} in the program")))?;
                if !p.returns.contains(&v) {
                    return Err(Error::Request(format!(
                        "%{n} is not returned by the function (live-outs: {})",
                        p.returns
                            .iter()
                            .map(|&r| format!("%{}", p.value(r).ssa))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
                Ok(v)
            }
        }
    }

    /// The index domain of a value.
    pub fn domain(&self, v: ValueId) -> Result<Set> {
        self.shapes.domain(&self.program, v)
    }

    /// The program's map restricted to the elements of live-out `out`.
    pub fn output_map(&self, out: ValueId) -> Result<UnionMap> {
        Ok(self
            .map
            .intersect_domain(&UnionSet::from(self.domain(out)?))?)
    }

    /// The values that fill padding: the yielded operand of every `tensor.pad`.
    pub fn padding_values(&self) -> Vec<ValueId> {
        let mut v: Vec<ValueId> = self
            .program
            .ops
            .iter()
            .filter(|op| matches!(op.kind, OpKind::Pad { .. }))
            .filter_map(|op| op.operands.get(1).copied())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn union_of_domains(&self, values: &[ValueId]) -> Result<UnionSet> {
        let mut u = UnionSet::empty(self.shapes.params.clone());
        for &v in values {
            u = u.union(&UnionSet::from(self.domain(v)?))?;
        }
        Ok(u)
    }

    /// The regions of live-out `out` (Sec. 5.3): the constant region `I_c` (elements
    /// that depend on padding, through the padding edges of [`Model::padding_map`]),
    /// dense, static, edges and corners.
    pub fn regions(&self, out: ValueId) -> Result<Regions> {
        let mut markers = UnionSet::empty(self.shapes.params.clone());
        for m in &self.padding_markers {
            markers = markers.union(&UnionSet::from(marker_set(m)?))?;
        }
        let live_ins = self.union_of_domains(&self.program.args)?;
        let map = self
            .padding_map
            .intersect_domain(&UnionSet::from(self.domain(out)?))?;
        partition(&self.domain(out)?, &map, &markers, &live_ins)
    }

    /// Tiles live-out `out` with `tiles` (pairs of dimension and tile size) and
    /// answers Algorithm 2's questions: the tiled map, the interior tiles (those
    /// that avoid the constant region), and the slice of every leaf volume one
    /// tile reads.
    pub fn tile(&self, out: ValueId, tiles: &[(usize, i64)]) -> Result<TileReport> {
        let p = &self.program;
        let name = &p.value(out).volume;
        let rank = p.value(out).ty.rank();
        let dom = self.domain(out)?;
        let mt = tile_map(name, rank, tiles)?;
        let tiled = tiled_program_map(&mt, &self.output_map(out)?, &dom)?;
        let all = all_tiles(&mt, &dom)?;
        let regions = self.regions(out)?;
        let interior = interior_tiles(&mt, &dom, &regions.constant)?;
        let interior_pieces = disjoint_pieces(&interior)?;
        let chosen = if interior.is_empty()? {
            &all
        } else {
            &interior
        };
        let mut slices = Vec::new();
        let mut leaves: Vec<String> = tiled
            .members()
            .iter()
            .filter_map(|m| m.space().range_tuple().name.clone())
            .collect();
        leaves.sort();
        leaves.dedup();
        for leaf in leaves {
            if let Some(fp) = footprint(&tiled, &leaf)? {
                let fp = restrict_to_tiles(&fp, chosen)?;
                let s = match_slice(&fp)?;
                slices.push((leaf, fp, s));
            }
        }
        let tile_name = format!("{name}_tile");
        let written = match tiled
            .domain()?
            .members()
            .iter()
            .find(|s| s.space().range_tuple().name.as_deref() == Some(tile_name.as_str()))
        {
            Some(w) => match_slice(&restrict_to_tiles(w, chosen)?)?,
            None => None,
        };
        Ok(TileReport {
            tile_map: mt,
            tiled_map: tiled,
            all,
            interior,
            interior_pieces,
            slices,
            written,
        })
    }
}

/// The element maps with the padding edge of every `tensor.pad` redirected to a
/// marker volume `<result>_padding[]` of its own (a unique identifier per def-use
/// edge, Sec. 5.4), and the markers' names.
fn mark_padding(
    p: &Program,
    shapes: &Shapes,
    op_maps: &[UnionMap],
) -> Result<(Vec<UnionMap>, Vec<String>)> {
    let taken: std::collections::BTreeSet<&str> =
        p.values.iter().map(|v| v.volume.as_str()).collect();
    let mut markers = Vec::new();
    let mut marked = Vec::with_capacity(op_maps.len());
    for (op, m) in p.ops.iter().zip(op_maps) {
        let (OpKind::Pad { .. }, Some(&v), Some(&r)) =
            (&op.kind, op.operands.get(1), op.results.first())
        else {
            marked.push(m.clone());
            continue;
        };
        let mut name = format!("{}_padding", p.value(r).volume);
        while taken.contains(name.as_str()) || markers.contains(&name) {
            name.push('_');
        }
        let marker = marker_set(&name)?;
        let value = p.value(v).volume.as_str();
        let mut u = UnionMap::empty(shapes.params.clone());
        for member in m.members() {
            if member.space().range_tuple().name.as_deref() == Some(value) {
                u.add(Map::from_domain_and_range(&member.domain(), &marker)?)?;
            } else {
                u.add(member.clone())?;
            }
        }
        marked.push(u);
        markers.push(name);
    }
    Ok((marked, markers))
}

/// The marker volume `{ name[] }`.
fn marker_set(name: &str) -> Result<Set> {
    Ok(Set::universe(Space::set(
        Vec::new(),
        Tuple::named(Some(name.to_string()), 0),
    ))?)
}

/// The number of integer points of a set without parameters, or `None` when it
/// has parameters, is unbounded, or its pieces that are not boxes have more than
/// `limit` points together. Boxes are counted by the product of their extents,
/// other pieces by enumeration.
pub fn count_points(set: &Set, limit: usize) -> Result<Option<u128>> {
    if set.space().n_param() > 0 || !set.is_bounded()? {
        return Ok(None);
    }
    let mut total: u128 = 0;
    // the enumeration limit holds for all pieces together
    let mut left = limit;
    for piece in disjoint_pieces(set)? {
        let n = match box_extents(&piece)? {
            Some(ext) => ext.iter().try_fold(1u128, |acc, &(lo, hi)| {
                acc.checked_mul((hi - lo + 1) as u128)
            }),
            None => match piece.points(left) {
                Ok(pts) => {
                    left -= pts.len();
                    Some(pts.len() as u128)
                }
                Err(presburger::Error::Budget(_)) => None,
                Err(e) => return Err(e.into()),
            },
        };
        match n.and_then(|n| total.checked_add(n)) {
            Some(t) => total = t,
            None => return Ok(None),
        }
    }
    Ok(Some(total))
}

/// The bounds `lo..=hi` of each dimension, if the (bounded, non-empty,
/// parameter-free) set is exactly the box they make.
pub fn box_extents(set: &Set) -> Result<Option<Vec<(i128, i128)>>> {
    let n = set.space().n_out();
    let mut ext = Vec::with_capacity(n);
    for k in 0..n {
        let mut aff = vec![Int::ZERO; 1 + n];
        aff[1 + k] = Int::ONE;
        let (Some(lo), Some(hi)) = (set.min(&aff)?, set.max(&aff)?) else {
            return Ok(None);
        };
        let (Some(lo), Some(hi)) = (lo.to_i64(), hi.to_i64()) else {
            return Ok(None);
        };
        ext.push((lo as i128, hi as i128));
    }
    let mut b = Set::universe(set.space().clone())?;
    for (k, &(lo, hi)) in ext.iter().enumerate() {
        b = b
            .lower_bound(DimKind::Out, k, Int::from(lo as i64))?
            .upper_bound(DimKind::Out, k, Int::from(hi as i64))?;
    }
    Ok(if b.is_equal(set)? { Some(ext) } else { None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_boxes_and_other_shapes() {
        let s: Set = "{ A[i, j] : 0 <= i < 4 and 0 <= j < 5 or 10 <= i < 12 and j = 0 }"
            .parse()
            .unwrap();
        assert_eq!(count_points(&s, 1000).unwrap(), Some(22));
        let t: Set = "{ A[i, j] : 0 <= j <= i < 4 }".parse().unwrap();
        assert_eq!(count_points(&t, 1000).unwrap(), Some(10));
        assert_eq!(count_points(&t, 3).unwrap(), None);
        let u: Set = "{ A[i] : i >= 0 }".parse().unwrap();
        assert_eq!(count_points(&u, 1000).unwrap(), None);
        let big: Set = "{ A[i, j, k] : 0 <= i, j, k < 100000 }".parse().unwrap();
        assert_eq!(count_points(&big, 10).unwrap(), Some(1_000_000_000_000_000));
    }
}
