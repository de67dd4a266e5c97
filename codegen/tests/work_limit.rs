//! The work limit of one code generation ([`Options::max_steps`]): every
//! query of the generation draws from it, running out is
//! [`Error::WorkLimit`] naming the step, and the default suffices for
//! ordinary schedules.

use presburger::{Set, UnionMap};
use presburger_codegen::{DEFAULT_MAX_STEPS, Error, Options, generate};

const SKEWED: &str = "[T, N] -> { S[t, i] -> [t, 2t + i, 0] : 0 <= t < T and 1 <= i <= N - 2; \
                      U[t, i] -> [t, 2t + i + 1, 1] : 0 <= t < T and 1 <= i <= N - 2 }";

fn run(max_steps: u64) -> presburger_codegen::Result<presburger_codegen::Ast> {
    let sched: UnionMap = SKEWED.parse().unwrap();
    let ctx: Set = "[T, N] -> { : T >= 1 and N >= 3 }".parse().unwrap();
    generate(
        &sched,
        None,
        Some(&ctx),
        &Options {
            max_steps,
            ..Options::default()
        },
    )
}

#[test]
fn the_default_limit_suffices() {
    assert_eq!(Options::default().max_steps, DEFAULT_MAX_STEPS);
    let ast = run(DEFAULT_MAX_STEPS).unwrap();
    let t = ast.trace(&[("T", 2), ("N", 4)], 1000).unwrap();
    assert_eq!(t.len(), 8);
}

#[test]
fn a_small_limit_is_an_error_naming_the_step() {
    for steps in [1, 100, 1000] {
        match run(steps) {
            Err(Error::WorkLimit { steps: s, phase }) => {
                assert_eq!(s, steps);
                assert!(!phase.is_empty());
                let m = Error::WorkLimit { steps: s, phase }.to_string();
                assert!(
                    m.starts_with(&format!(
                        "code generation ran out of its work limit ({steps} steps) while "
                    )),
                    "{m}"
                );
            }
            other => panic!("{steps} steps: {other:?}"),
        }
    }
}
