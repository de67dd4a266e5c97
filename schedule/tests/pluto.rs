//! The pluto-lp scheduler for one band: expected hyperplanes on gemm,
//! jacobi-1d and seidel-2d, and on every kernel that it succeeds on, an
//! independent check that the result is valid and its band permutable.

mod common;

use common::kernel;
use schedule::schedule::band_is_permutable;
use schedule::validity::check;
use schedule::{dependences, identity, pluto_lp, Schedule, Scop};

fn lp(name: &str) -> (Scop, Schedule) {
    let scop = kernel(name);
    let d = dependences(&scop).unwrap();
    let s = pluto_lp(&scop, &d).unwrap();
    // independent checks: valid, and the band permutable
    let m = s.to_union_map().unwrap();
    assert!(check(&scop, &d, &m).unwrap().is_valid(), "{name}: {m}");
    for &(a, b) in &s.bands {
        assert!(
            band_is_permutable(&scop, &d, &m, s.n_dims(), a, b).unwrap(),
            "{name}: band {a}..{b} of {m}"
        );
    }
    (scop, s)
}

fn describe(s: &Schedule) -> Vec<String> {
    s.statements
        .iter()
        .map(|st| st.describe(&s.params))
        .collect()
}

#[test]
fn gemm_is_one_permutable_band_with_outer_parallel_loops() {
    let (_, s) = lp("gemm");
    assert_eq!(describe(&s), ["(i, j, 0, 0)", "(i, j, k, 1)"]);
    assert_eq!(s.bands, vec![(0, 2)]);
    assert_eq!(s.parallel_indices(), vec![0, 1]);
}

#[test]
fn stencils_are_skewed_in_time() {
    let (_, s) = lp("seidel-2d");
    // Pluto's LP mode gives the same rows
    assert_eq!(describe(&s), ["(t+i, t, 2t+i+j)"]);
    assert_eq!(s.bands, vec![(0, 2)]);
    let (_, s) = lp("jacobi-1d");
    assert_eq!(describe(&s), ["(2t+i, t, 0)", "(2t+i+1, t, 1)"]);
    assert_eq!(s.bands, vec![(0, 1)]);
    assert!(s.parallel_indices().is_empty());
}

#[test]
fn the_permutability_check_fails_on_an_illegal_band() {
    // seidel-2d's original loops t, i, j (dimensions 1, 3, 5) are not a
    // permutable band: a dependence has distance (1, -1, ..)
    let scop = kernel("seidel-2d");
    let d = dependences(&scop).unwrap();
    let id = identity(&scop, &d).unwrap();
    let m = id.to_union_map().unwrap();
    assert!(!band_is_permutable(&scop, &d, &m, 7, 1, 5).unwrap());
    assert!(band_is_permutable(&scop, &d, &m, 7, 1, 1).unwrap());
    // gemm's are (the reduction goes forward in k)
    let scop = kernel("gemm");
    let d = dependences(&scop).unwrap();
    let m = identity(&scop, &d).unwrap().to_union_map().unwrap();
    assert!(band_is_permutable(&scop, &d, &m, 7, 1, 1).unwrap());
    assert!(band_is_permutable(&scop, &d, &m, 7, 3, 5).unwrap());
}

#[test]
fn every_kernel_gets_a_valid_schedule_or_an_error() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut ok = 0;
    for name in &names {
        let scop = kernel(name);
        let d = dependences(&scop).unwrap();
        match pluto_lp(&scop, &d) {
            Ok(s) => {
                let m = s.to_union_map().unwrap();
                assert!(check(&scop, &d, &m).unwrap().is_valid(), "{name}: {m}");
                for &(a, b) in &s.bands {
                    assert!(
                        band_is_permutable(&scop, &d, &m, s.n_dims(), a, b).unwrap(),
                        "{name}: band {a}..{b} of {m}"
                    );
                }
                ok += 1;
            }
            Err(e) => assert!(e.to_string().contains("pluto-lp"), "{name}: {e}"),
        }
    }
    assert!(ok >= 15, "{ok} of {}", names.len());
}
