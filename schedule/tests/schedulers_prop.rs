//! Random loop nests (one or two loops, increasing or decreasing, one to
//! three statements reading and writing two arrays at shifted or transposed
//! subscripts): every scheduler and fusion policy gives a valid schedule
//! whose bands are permutable, whose statements' rows have full rank and whose
//! parallel dimensions are the exact ones. The fuzz crate runs 10^4 more
//! against isl.

use presburger_schedule::schedule::{band_is_permutable, parallel_dims};
use presburger_schedule::validity::check;
use presburger_schedule::{
    Fusion, Options, Scheduler, SchedulerOptions, compute, dependences, extract_scop,
};
use proptest::prelude::*;

/// One statement: `W[s0][s1] = R[s2][s3] + W[s4][s5]` with each subscript
/// an iterator plus an offset (or the other iterator, for a transpose).
#[derive(Clone, Debug)]
struct Stmt {
    depth: usize,
    write: (usize, [i64; 2], bool),
    reads: Vec<(usize, [i64; 2], bool)>,
}

fn access(arrays: &[&str], (a, off, swap): &(usize, [i64; 2], bool), depth: usize) -> String {
    let (x, y) = if depth == 1 {
        ("i", "i")
    } else if *swap {
        ("j", "i")
    } else {
        ("i", "j")
    };
    let sub = |v: &str, o: i64| match o {
        0 => v.to_string(),
        o if o < 0 => format!("{v} - {}", -o),
        o => format!("{v} + {o}"),
    };
    format!("{}[{}][{}]", arrays[*a], sub(x, off[0]), sub(y, off[1]))
}

fn program(stmts: &[Stmt], down: bool) -> String {
    let arrays = ["A", "B"];
    let mut body = String::new();
    for s in stmts {
        let rhs: Vec<String> = s
            .reads
            .iter()
            .map(|r| access(&arrays, r, s.depth))
            .collect();
        let line = format!(
            "{} = {} + 1.0;",
            access(&arrays, &s.write, s.depth),
            rhs.join(" + ")
        );
        if s.depth == 2 {
            body.push_str(&format!("    for (j = 2; j < N - 2; j++)\n      {line}\n"));
        } else {
            body.push_str(&format!("    {line}\n"));
        }
    }
    let head = if down {
        "for (i = N - 3; i >= 2; i--)"
    } else {
        "for (i = 2; i < N - 2; i++)"
    };
    format!(
        "double A[100][100], B[100][100];\nvoid f(int N) {{\n  int i, j;\n#pragma scop\n  {head} {{\n{body}  }}\n#pragma endscop\n}}\n"
    )
}

fn acc() -> impl Strategy<Value = (usize, [i64; 2], bool)> {
    (0usize..2, [-1i64..=1, -1i64..=1], any::<bool>())
}

fn stmt() -> impl Strategy<Value = Stmt> {
    (1usize..=2, acc(), prop::collection::vec(acc(), 1..=2)).prop_map(|(depth, write, reads)| {
        Stmt {
            depth,
            write,
            reads,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_schedule_is_valid(stmts in prop::collection::vec(stmt(), 1..=3), down in any::<bool>()) {
        let src = program(&stmts, down);
        let scop = extract_scop(&src, &Options::default()).unwrap();
        let d = dependences(&scop).unwrap();
        for scheduler in [Scheduler::Dfp, Scheduler::Lp] {
            for fuse in [Fusion::Smart, Fusion::Max, Fusion::None] {
                let opts = SchedulerOptions { scheduler, fuse, ..SchedulerOptions::default() };
                let s = compute(&scop, &d, &opts)
                    .unwrap_or_else(|e| panic!("{scheduler:?} {fuse:?}: {e}\n{src}"));
                let m = s.to_union_map().unwrap();
                prop_assert!(check(&scop, &d, &m).unwrap().is_valid(), "{m}\n{src}");
                for &(a, b) in &s.bands {
                    prop_assert!(band_is_permutable(&scop, &d, &m, s.n_dims(), a, b).unwrap(),
                        "band {a}..{b} of {m}\n{src}");
                }
                prop_assert_eq!(parallel_dims(&scop, &d, &m, s.n_dims()).unwrap(), s.parallel.clone(),
                    "{}\n{}", m, src);
            }
        }
    }
}
