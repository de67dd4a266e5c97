//! Scans of tiled schedules with approximate tile loops.
mod common;
use codegen::{generate, Options};
use common::check_ast;

#[test]
fn wavefront_trisolv() {
    let text = "[N] -> { S0[i] -> [o0, 0, i, 0, 0] : 0 <= i < N and i - 3 <= 4o0 <= i; S1[i, j] -> [o0, o1, i, j, 1] : 0 <= j < i and -i + 4o0 <= 4o1 <= j and 0 <= i < N and j - 3 <= 4o1 <= -i + 4o0 + 3; S2[i] -> [o0, o1, i, i, 2] : -i + 4o0 <= 4o1 <= i and 0 <= i < N and i - 3 <= 4o1 <= -i + 4o0 + 3 }";
    let sched: presburger::UnionMap = text.parse().unwrap();
    for approx in [vec![], vec![true, true]] {
        let ast = generate(
            &sched,
            None,
            None,
            &Options {
                approximate: approx.clone(),
                ..Options::default()
            },
        )
        .unwrap();
        println!("{approx:?}\n{}", ast.to_c());
        check_ast(&ast, &sched, &[vec![1], vec![5], vec![9], vec![12]]).unwrap();
    }
}
