//! Code generation against enumeration and isl's AST generator (see
//! `src/ast_isl.rs`): random schedules (1-3 statements, 0-3 iterators,
//! unimodular schedules with shifts, strides and scalar dimensions, extra
//! and modulo constraints, the parameter `N` or none); our AST, run by the
//! interpreter for `N = -1 ..= 4`, must visit exactly the scheduled
//! instances in time order; isl's AST (`isl_ast_build_node_from_schedule_map`
//! with its default options), read back into a `presburger_codegen::Ast`, is run the
//! same way as a check of this harness, and the sizes and generation times
//! of both are summed. `CODEGEN_ISL_CASES` (default 1000) and
//! `CODEGEN_ISL_SEED` (default 1) set the run; the ignored test runs 10,000
//! cases. Needs the system isl (`apt-get install libisl-dev`).

use presburger_fuzz::Rng;
use presburger_fuzz::ast_isl::{Outcome, compare, random_schedule};
use presburger_fuzz::isl::Ctx;
use std::time::{Duration, Instant};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run(cases: u64) {
    let seed = env("CODEGEN_ISL_SEED", 1);
    let ctx = Ctx::new();
    let mut rng = Rng::new(seed);
    let start = Instant::now();
    let (mut same, mut mismatches, mut harness) = (0usize, Vec::new(), Vec::new());
    let (mut ours_lines, mut isl_lines, mut isl_compared) = (0usize, 0usize, 0usize);
    let (mut ours_time, mut isl_time) = (Duration::ZERO, Duration::ZERO);
    let mut ours_shorter = 0usize;
    let mut slowest: Vec<(Duration, String)> = Vec::new();
    let mut isl_shorter = 0usize;
    for _ in 0..cases {
        let text = random_schedule(&mut rng);
        match compare(&ctx, &text) {
            Outcome::Same {
                ours_lines: o,
                isl_lines: i,
                ours_time: ot,
                isl_time: it,
            } => {
                same += 1;
                slowest.push((ot, text.clone()));
                slowest.sort_by_key(|a| std::cmp::Reverse(a.0));
                slowest.truncate(3);
                if let (Some(i), Some(it)) = (i, it) {
                    isl_compared += 1;
                    ours_lines += o;
                    isl_lines += i;
                    ours_time += ot;
                    isl_time += it;
                    ours_shorter += usize::from(o < i);
                    isl_shorter += usize::from(i < o);
                }
            }
            Outcome::Mismatch(m) => mismatches.push(m),
            Outcome::IslHarness(m) => harness.push(m),
        }
    }
    eprintln!(
        "codegen vs enumeration and isl (seed {seed}): {cases} cases, {same} equal to the \
         enumeration, {} mismatches, {} isl harness problems; on the {isl_compared} cases isl \
         also generated: {ours_lines} lines of C ours, {isl_lines} isl's (ours shorter {ours_shorter}, \
         isl's shorter {isl_shorter}); generation {:.1} ms ours, {:.1} ms isl; {:.1} s",
        mismatches.len(),
        harness.len(),
        ours_time.as_secs_f64() * 1e3,
        isl_time.as_secs_f64() * 1e3,
        start.elapsed().as_secs_f64()
    );
    for h in harness.iter().take(3) {
        eprintln!("isl harness: {h}");
    }
    for (t, text) in &slowest {
        eprintln!("slow: {:.1} ms: {text}", t.as_secs_f64() * 1e3);
    }
    for m in mismatches.iter().skip(1).take(9) {
        eprintln!(
            "mismatch: {}",
            m.lines().take(2).collect::<Vec<_>>().join(" / ")
        );
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches; the first:\n{}",
        mismatches.len(),
        mismatches[0]
    );
    assert!(
        harness.len() * 100 <= cases as usize,
        "isl's code read back disagrees with the enumeration in {} cases",
        harness.len()
    );
}

#[test]
fn codegen_matches_enumeration_and_isl() {
    run(env("CODEGEN_ISL_CASES", 1000));
}

#[test]
#[ignore = "10,000 cases: run with --ignored"]
fn codegen_bulk_against_isl() {
    run(10_000);
}
