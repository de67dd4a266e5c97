//! Side-by-side timing of code generation: ours (`presburger_codegen::generate`, the
//! default separation) and isl's (`isl_ast_build_from_context` and
//! `isl_ast_build_node_from_schedule_map` with its default options), on the
//! same inputs, parsed once beforehand by each side.
//!
//!     cargo run --release --bin codegen_vs_isl -- [--cases N] [--seed S] [--reps R] [--show] [--per-kernel]
//!
//! `--show` prints both programs for each kernel first.
//! Inputs: a few classic schedules (`kernels`: 2d+1 gemm, a skewed
//! jacobi-1d, a triangular solve, a tiled loop, strides, two shifted
//! statements), the schedules our default scheduler (`presburger_schedule::compute`,
//! dfp with smart fusion) finds for the 24 kernels of
//! `../schedule/tests/kernels/` and Pluto's five (`scops`: the schedule
//! restricted to the statements' domains; `--per-kernel` prints each), and N
//! random schedules of `src/ast_isl.rs` (default 200).
//! Each side runs R times (default 5) per input and the median is kept; the
//! table gives, per family, the median over its inputs of those medians and
//! their total, in µs, and the lines of C of each side.

use presburger_fuzz::Rng;
use presburger_fuzz::ast_isl::random_schedule;
use presburger_fuzz::isl::Ctx;
use std::time::Instant;

const KERNELS: &[&str] = &[
    "[N] -> { S0[i, j] -> [0, i, 0, j, 0, 0, 0] : 0 <= i, j < N; S1[i, k, j] -> [0, i, 1, k, 0, j, 0] : 0 <= i, j, k < N }",
    "[T, N] -> { S[t, i] -> [t, 2t + i, 0] : 0 <= t < T and 1 <= i <= N - 2; U[t, i] -> [t, 2t + i + 1, 1] : 0 <= t < T and 1 <= i <= N - 2 }",
    "[N] -> { S[i, j] -> [i, 0, j] : 0 <= j < i < N; T[i] -> [i, 1, 0] : 0 <= i < N }",
    "[N] -> { S[i, j] -> [floor(i/32), floor(j/32), i, j] : 0 <= i, j < N }",
    "[N] -> { S[i] -> [2i + 1] : 0 <= i < N; T[i] -> [3i] : 0 <= i < N }",
    "[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 1] : 0 <= i < N }",
    "[N, M] -> { S[i, j] -> [i, j] : 0 <= i < N and 0 <= j < M; T[i, j] -> [i, j] : 0 <= j <= i < N }",
    "[N] -> { S[i, j, k] -> [i, j, k] : 0 <= i < N and 0 <= j <= i and j <= k <= i }",
];

/// Median of the times (µs) of `reps` runs of `f`.
fn median(reps: usize, mut f: impl FnMut() -> f64) -> f64 {
    let mut v: Vec<f64> = (0..reps).map(|_| f()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

struct Row {
    ours: Vec<f64>,
    isl: Vec<f64>,
    ours_lines: usize,
    isl_lines: usize,
    failed: Vec<String>,
}

fn time_one(ctx: &Ctx, text: &str, reps: usize, row: &mut Row) {
    let Ok(sched) = text.parse::<presburger::UnionMap>() else {
        row.failed.push(format!("ours cannot read {text}"));
        return;
    };
    let Some(m) = ctx.union_map(text) else {
        row.failed.push(format!("isl cannot read {text}"));
        return;
    };
    let context = format!("[{}] -> {{ : }}", sched.params().join(", "));
    let mut ours_code = None;
    let ours = median(reps, || {
        let t = Instant::now();
        let r = presburger_codegen::generate(
            &sched,
            None,
            None,
            &presburger_codegen::Options::default(),
        );
        let e = t.elapsed().as_secs_f64() * 1e6;
        ours_code = Some(r.map(|a| a.to_c()));
        e
    });
    let mut isl_code = None;
    let isl = median(reps, || {
        let t = Instant::now();
        let node = ctx.ast_from_schedule_map(&context, &m);
        let e = t.elapsed().as_secs_f64() * 1e6;
        isl_code = node.map(|n| n.to_c());
        e
    });
    match (ours_code, isl_code) {
        (Some(Ok(o)), Some(i)) => {
            row.ours.push(ours);
            row.isl.push(isl);
            row.ours_lines += o.lines().count();
            row.isl_lines += i.lines().count();
        }
        (Some(Err(e)), _) => row.failed.push(format!("ours: {e}: {text}")),
        _ => row.failed.push(format!("isl failed: {text}")),
    }
}

fn med(v: &[f64]) -> f64 {
    let mut w = v.to_vec();
    w.sort_by(|a, b| a.total_cmp(b));
    w.get(w.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|k| args.get(k + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let cases = get("--cases", 200);
    let seed = get("--seed", 1);
    let reps = get("--reps", 5).max(1) as usize;
    let ctx = Ctx::new();
    if args.iter().any(|a| a == "--show") {
        for k in KERNELS {
            let sched: presburger::UnionMap = k.parse().expect("a kernel parses");
            let ours = presburger_codegen::generate(
                &sched,
                None,
                None,
                &presburger_codegen::Options::default(),
            )
            .map(|a| a.to_c())
            .unwrap_or_else(|e| format!("error: {e}\n"));
            let context = format!("[{}] -> {{ : }}", sched.params().join(", "));
            let theirs = ctx
                .union_map(k)
                .and_then(|m| ctx.ast_from_schedule_map(&context, &m))
                .map(|n| n.to_c())
                .unwrap_or_else(|| "isl failed\n".into());
            println!("== {k}\n-- ours\n{ours}-- isl\n{theirs}");
        }
    }
    let mut rows: Vec<(&str, Row)> = Vec::new();
    let new_row = || Row {
        ours: Vec::new(),
        isl: Vec::new(),
        ours_lines: 0,
        isl_lines: 0,
        failed: Vec::new(),
    };
    let mut kernels = new_row();
    for k in KERNELS {
        time_one(&ctx, k, reps, &mut kernels);
    }
    rows.push(("kernels", kernels));
    let mut scops = new_row();
    let per_kernel = args.iter().any(|a| a == "--per-kernel");
    for (name, src) in presburger_fuzz::schedule_isl::kernels(true).unwrap_or_default() {
        let text = (|| -> Result<String, String> {
            let e = |e: presburger::Error| e.to_string();
            let scop =
                presburger_schedule::extract_scop(&src, &presburger_schedule::Options::default())
                    .map_err(|e| e.to_string())?;
            let deps = presburger_schedule::dependences(&scop).map_err(e)?;
            let s = presburger_schedule::compute(
                &scop,
                &deps,
                &presburger_schedule::SchedulerOptions::default(),
            )
            .map_err(e)?;
            let m = s
                .to_union_map()
                .map_err(e)?
                .intersect_domain(&scop.domains().map_err(e)?)
                .map_err(e)?;
            Ok(m.to_string())
        })();
        match text {
            Ok(text) => {
                let before = scops.ours.len();
                time_one(&ctx, &text, reps, &mut scops);
                if per_kernel && scops.ours.len() > before {
                    println!(
                        "{name:<18} ours {:>9.1} µs  isl {:>9.1} µs",
                        scops.ours[before], scops.isl[before]
                    );
                }
            }
            Err(e) => scops.failed.push(format!("{name}: {e}")),
        }
    }
    rows.push(("scops", scops));
    let mut random = new_row();
    let mut rng = Rng::new(seed);
    for _ in 0..cases {
        let text = random_schedule(&mut rng);
        time_one(&ctx, &text, reps, &mut random);
    }
    rows.push(("random", random));
    println!(
        "{:<8} {:>6} {:>12} {:>12} {:>14} {:>14} {:>10} {:>10}",
        "family",
        "inputs",
        "ours med µs",
        "isl med µs",
        "ours total µs",
        "isl total µs",
        "ours lines",
        "isl lines"
    );
    for (name, r) in &rows {
        println!(
            "{:<8} {:>6} {:>12.1} {:>12.1} {:>14.0} {:>14.0} {:>10} {:>10}",
            name,
            r.ours.len(),
            med(&r.ours),
            med(&r.isl),
            r.ours.iter().sum::<f64>(),
            r.isl.iter().sum::<f64>(),
            r.ours_lines,
            r.isl_lines
        );
        for f in r.failed.iter().take(5) {
            println!("  failed: {f}");
        }
        if r.failed.len() > 5 {
            println!("  ... {} failed in all", r.failed.len());
        }
    }
}
