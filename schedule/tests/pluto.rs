//! The Pluto schedulers (pluto-lp-dfp and pluto-lp): on Pluto's five
//! kernels (`tests/pluto-kernels/`), schedules at least as good as those
//! Pluto 0.12 prints in its dfp and lp modes, the fusion policies, and on every kernel with every
//! scheduler and policy, independent checks: the schedule is valid, each band
//! permutable, each statement's rows of full rank, and the parallel dimensions
//! those of the exact computation.

mod common;

use common::{kernel, kernel_names, pluto_kernel};
use presburger_schedule::schedule::{band_is_permutable, parallel_dims};
use presburger_schedule::validity::check;
use presburger_schedule::{
    FarkasMethod, Fusion, Schedule, Scheduler, SchedulerOptions, Scop, compute, dependences,
    identity,
};

/// Checks `s` against `scop`'s dependences independently of the scheduler.
fn verify(name: &str, scop: &Scop, s: &Schedule) {
    let d = dependences(scop).unwrap();
    let m = s.to_union_map().unwrap();
    assert!(check(scop, &d, &m).unwrap().is_valid(), "{name}: {m}");
    for &(a, b) in &s.bands {
        assert!(
            band_is_permutable(scop, &d, &m, s.n_dims(), a, b).unwrap(),
            "{name}: band {a}..{b} of {m}"
        );
    }
    assert_eq!(
        parallel_dims(scop, &d, &m, s.n_dims()).unwrap(),
        s.parallel,
        "{name}: {m}"
    );
    for st in &s.statements {
        // full rank: the iterator parts of the rows span every iterator
        let n = st.n_iter();
        let mut rows: Vec<Vec<i128>> = st
            .rows
            .iter()
            .map(|r| {
                r[..n]
                    .iter()
                    .map(|x| x.to_string().parse().unwrap())
                    .collect()
            })
            .collect();
        let mut rank = 0;
        for c in 0..n {
            if let Some(p) = (rank..rows.len()).find(|&i| rows[i][c] != 0) {
                rows.swap(rank, p);
                for i in 0..rows.len() {
                    if i != rank && rows[i][c] != 0 {
                        let (a, b) = (rows[rank][c], rows[i][c]);
                        let pivot = rows[rank].clone();
                        for (x, p) in rows[i].iter_mut().zip(&pivot) {
                            *x = *x * a - p * b;
                        }
                    }
                }
                rank += 1;
            }
        }
        assert_eq!(rank, n, "{name}: {} is not of full rank in {m}", st.name());
    }
}

fn run(scop: &Scop, scheduler: Scheduler, fuse: Fusion) -> Schedule {
    let d = dependences(scop).unwrap();
    let opts = SchedulerOptions {
        scheduler,
        fuse,
        ..SchedulerOptions::default()
    };
    compute(scop, &d, &opts).unwrap()
}

fn describe(s: &Schedule) -> Vec<String> {
    s.statements
        .iter()
        .map(|st| st.describe(&s.params))
        .collect()
}

#[test]
fn the_default_is_as_good_as_plutos_dfp_on_its_five_kernels() {
    // Pluto 0.12 --dfp: gemm (i, j, 0, 0) / (i, j, 1, k) (its tiling keeps
    // i, j and k: 3 loops); jacobi-2d (t, 2t+i, 2t+i+j, 0/1); seidel-2d
    // (t, t+i, 2t+i+j); fdtd-2d (t, 0, j|i, t+j) with S4 at 1 (one fused
    // loop, then two bands of 2); lu (i, j, 0|1, i+k|i+j) (2 loops tiled).
    // Ours: the same stencil skews; gemm and lu one permutable band of all
    // their loops (gemm's outer loops parallel); fdtd-2d fused in one band
    // of 3 skewed by t, the schedule Pluto's ILP mode prints.
    /// A kernel, its rows per statement, its bands, its parallel dimensions.
    type Case<'a> = (&'a str, &'a [&'a str], &'a [(usize, usize)], &'a [usize]);
    let cases: [Case; 5] = [
        (
            "gemm",
            &["(i, j, 0, 0)", "(i, j, k, 1)"],
            &[(0, 2)],
            &[0, 1],
        ),
        (
            "jacobi-2d",
            &["(t, 2t+i, 2t+i+j, 0)", "(t, 2t+i+1, 2t+i+j+1, 1)"],
            &[(0, 2)],
            &[2],
        ),
        ("seidel-2d", &["(t, t+i, 2t+i+j)"], &[(0, 2)], &[]),
        (
            "fdtd-2d",
            &[
                "(t, t+j, t)",
                "(t, t+j, t+i)",
                "(t, t+j, t+i)",
                "(t, t+j+1, t+i+1)",
            ],
            &[(0, 2)],
            &[],
        ),
        (
            "lu",
            &["(i, j, k)", "(i, j, j)", "(i, j, k)"],
            &[(0, 2)],
            &[],
        ),
    ];
    for (name, rows, bands, parallel) in cases {
        let scop = pluto_kernel(name);
        let s = run(&scop, Scheduler::Dfp, Fusion::Smart);
        verify(name, &scop, &s);
        assert_eq!(describe(&s), rows, "{name}");
        assert_eq!(s.bands, bands, "{name}");
        assert_eq!(s.parallel_indices(), parallel, "{name}");
        assert_eq!(s.outer_band_depth(), 3, "{name}");
    }
}

#[test]
fn lp_skews_stencils_as_pluto_lp_does() {
    // Pluto 0.12 --lp: seidel-2d (t+i, t, 2t+i+j)
    let scop = pluto_kernel("seidel-2d");
    let s = run(&scop, Scheduler::Lp, Fusion::Smart);
    verify("seidel-2d", &scop, &s);
    assert_eq!(describe(&s), ["(t+i, t, 2t+i+j)"]);
    assert_eq!(s.bands, vec![(0, 2)]);
    // gemm: Pluto's lp mode distributes the two nests of different depths
    let scop = pluto_kernel("gemm");
    let s = run(&scop, Scheduler::Lp, Fusion::Smart);
    assert_eq!(describe(&s), ["(0, i, j, 0)", "(1, i, j, k)"]);
    assert_eq!(s.parallel_indices(), vec![1, 2]);
}

#[test]
fn fusion_policies() {
    let scop = pluto_kernel("gemm");
    // max: the initialisation joins the k band at k = 0
    let s = run(&scop, Scheduler::Dfp, Fusion::Max);
    verify("gemm max", &scop, &s);
    assert_eq!(describe(&s), ["(i, j, 0, 0)", "(i, j, k, 1)"]);
    assert_eq!(s.bands, vec![(0, 2)]);
    // none: one loop nest per component of the dependence graph, the
    // reduction loop innermost (dfp takes a statement's parallel loops
    // first, lp minimises the dependence distances)
    for scheduler in [Scheduler::Dfp, Scheduler::Lp] {
        let s = run(&scop, scheduler, Fusion::None);
        verify("gemm none", &scop, &s);
        assert_eq!(describe(&s), ["(0, i, j, 0)", "(1, i, j, k)"]);
    }
}

#[test]
fn farkas_by_multipliers_gives_the_same_schedules() {
    for name in ["gemm", "seidel-2d", "lu"] {
        let scop = pluto_kernel(name);
        let d = dependences(&scop).unwrap();
        let mut opts = SchedulerOptions::default();
        let a = compute(&scop, &d, &opts).unwrap();
        opts.farkas = FarkasMethod::Multipliers;
        let b = compute(&scop, &d, &opts).unwrap();
        assert_eq!(describe(&a), describe(&b), "{name}");
    }
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
fn every_kernel_with_every_scheduler_is_valid_permutable_and_full_rank() {
    for name in kernel_names() {
        let scop = kernel(&name);
        for scheduler in [Scheduler::Dfp, Scheduler::Lp, Scheduler::Identity] {
            for fuse in [Fusion::Smart, Fusion::Max, Fusion::None] {
                let s = run(&scop, scheduler, fuse);
                verify(&format!("{name} {scheduler:?} {fuse:?}"), &scop, &s);
            }
        }
    }
}
