//! Code generation for many statements stays within a work limit that grows
//! with their number: `n` statements shifted against each other
//! (`Sk[i] -> [i + k]`), whose complete separation would make a number of
//! pieces quadratic in `n`, each ordered against the others.

use presburger::{Set, UnionMap};
use presburger_codegen::{DEFAULT_MAX_STEPS, Options, generate};

/// `[N] -> { S0[i] -> [i] : 0 <= i < N; S1[i] -> [i + 1] : ...; ... }`.
fn shifted(n: usize) -> UnionMap {
    let parts: Vec<String> = (0..n)
        .map(|k| format!("S{k}[i] -> [i + {k}] : 0 <= i < N"))
        .collect();
    format!("[N] -> {{ {} }}", parts.join("; "))
        .parse()
        .unwrap()
}

/// Generates the code of `n` shifted statements within `max_steps` and
/// checks that it runs each instance once, in the order of time.
fn check(n: usize, max_steps: u64) {
    let ctx: Set = "[N] -> { : N >= 1 }".parse().unwrap();
    let ast = generate(
        &shifted(n),
        None,
        Some(&ctx),
        &Options {
            max_steps,
            ..Options::default()
        },
    )
    .unwrap();
    let size = 3;
    let trace = ast.trace(&[("N", size)], 100 * n as u64).unwrap();
    assert_eq!(trace.len(), n * size as usize);
    // the time of `Sk(i)` is `i + k`; at one time, the statements in order
    let times: Vec<(i64, usize)> = trace
        .iter()
        .map(|(name, args)| {
            let k: usize = name[1..].parse().unwrap();
            (args[0] + k as i64, k)
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "not in time order");
}

/// 150 statements in 400,000 steps: about twice what they take, and a
/// small share of what complete separation takes (more than 3,000,000
/// steps for 100 statements).
#[test]
fn shifted_statements_within_a_linear_budget() {
    check(150, 400_000);
}

/// The size of the scaling benchmark (docs/benchmarks.md), under the
/// default limit; slow in a test build, so not run by default:
/// `cargo test --release -p presburger-codegen --test scaling -- --ignored`.
#[test]
#[ignore]
fn two_thousand_shifted_statements() {
    check(2000, DEFAULT_MAX_STEPS);
}
