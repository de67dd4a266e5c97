//! The validity check of schedules: the original schedule of every kernel is
//! valid, hand-made illegal transformations are rejected with a witness, and
//! legal interchanges are accepted. Also the identity scheduler's parallel
//! dimensions on a few kernels, derived by hand.

mod common;

use common::kernel;
use presburger::{Int, UnionMap};
use presburger_schedule::validity::{Validity, check};
use presburger_schedule::{dependences, identity};

fn verdict(name: &str, sched: &str) -> Validity {
    let scop = kernel(name);
    let d = dependences(&scop).unwrap();
    let s: UnionMap = sched.parse().unwrap();
    check(&scop, &d, &s).unwrap()
}

#[test]
fn the_original_schedule_of_every_kernel_is_valid_and_identity_gives_it() {
    let names = common::kernel_names();
    assert!(names.len() >= 20);
    for name in names {
        let scop = kernel(&name);
        let d = dependences(&scop).unwrap();
        let orig = scop.schedule().unwrap();
        let v = check(&scop, &d, &orig).unwrap();
        assert!(v.is_valid(), "{name}: {v:?}");
        let id = identity(&scop, &d).unwrap();
        let m = id.to_union_map().unwrap();
        assert!(m.is_equal(&orig).unwrap(), "{name}: {m} vs {orig}");
        assert_eq!(id.parallel.len(), id.n_dims(), "{name}");
    }
}

#[test]
fn interchanging_seidel_2d_is_rejected() {
    let v = verdict("seidel-2d", "{ S0[t, i, j] -> [0, i, 0, t, 0, j, 0] }");
    let Validity::Invalid(v) = v else {
        panic!("accepted")
    };
    assert_eq!(v.reason, "order");
    // the witness pair (parameters T, N first) runs its target no later
    // than its source
    let s = v.sample.expect("a witness");
    assert_eq!(s.len(), 2 + 3 + 3);
    let (src, tgt) = (&s[2..5], &s[5..8]);
    assert!(tgt[0] > src[0], "{s:?}");
    let key = |x: &[Int]| (x[1].clone(), x[0].clone(), x[2].clone());
    assert!(key(tgt) <= key(src), "{s:?}");
}

#[test]
fn reversing_the_time_loop_is_rejected() {
    let v = verdict(
        "jacobi-1d",
        "{ S0[t, i] -> [0, -t, 0, i, 0]; S1[t, i] -> [0, -t, 1, i, 0] }",
    );
    assert!(!v.is_valid());
    // fusing the two statements of jacobi-1d into one loop nest without a
    // shift is illegal too (S1 at i reads B[i + 1] written later)
    let v = verdict(
        "jacobi-1d",
        "{ S0[t, i] -> [0, t, 0, i, 0]; S1[t, i] -> [0, t, 0, i, 1] }",
    );
    assert!(!v.is_valid());
    // with a shift of one it is legal
    let v = verdict(
        "jacobi-1d",
        "{ S0[t, i] -> [0, t, 0, i, 0]; S1[t, i] -> [0, t, 0, i + 1, 1] }",
    );
    assert!(v.is_valid(), "{v:?}");
}

#[test]
fn interchanging_gemm_i_and_j_is_accepted() {
    let v = verdict(
        "gemm",
        "{ S0[i, j] -> [0, j, 0, i, 0, 0, 0]; S1[i, k, j] -> [0, j, 1, k, 0, i, 0] }",
    );
    assert!(v.is_valid(), "{v:?}");
    // but the reduction over k cannot go before the initialisation
    let v = verdict(
        "gemm",
        "{ S0[i, j] -> [1, i, 0, j, 0, 0, 0]; S1[i, k, j] -> [0, i, 1, k, 0, j, 0] }",
    );
    assert!(!v.is_valid());
    // a statement left out of the schedule cannot be checked: invalid
    let v = verdict("gemm", "{ S1[i, k, j] -> [0, i, 1, k, 0, j, 0] }");
    let Validity::Invalid(v) = v else {
        panic!("accepted")
    };
    assert_eq!(v.reason, "unscheduled");
}

#[test]
fn identity_parallel_dimensions_by_hand() {
    // gemm: i and j parallel (the reduction is on k); the scalar dimension 2
    // orders S0 before S1 within one i (it carries S0 -> S1)
    let scop = kernel("gemm");
    let d = dependences(&scop).unwrap();
    let s = identity(&scop, &d).unwrap();
    assert_eq!(s.bands, vec![(1, 1), (3, 3), (5, 5)]);
    assert_eq!(s.parallel_indices(), vec![0, 1, 4, 5, 6]);
    // seidel-2d: every loop carries a dependence
    let scop = kernel("seidel-2d");
    let d = dependences(&scop).unwrap();
    let s = identity(&scop, &d).unwrap();
    assert_eq!(s.parallel_indices(), vec![0, 2, 4, 6]);
    // jacobi-1d: t carries, the i loops are parallel
    let scop = kernel("jacobi-1d");
    let d = dependences(&scop).unwrap();
    let s = identity(&scop, &d).unwrap();
    assert_eq!(s.parallel_indices(), vec![0, 3, 4]);
}
