//! The dependences of the `schedule` crate against isl's (see
//! `src/deps_isl.rs` for what isl computes): RAW, WAR, WAW (memory-based) and
//! the value-based flow (isl's `compute_flow` with the writes as
//! must-sources), compared by isl's `is_equal`, on every kernel of
//! `../schedule/tests/kernels/` and on random SCoPs (`src/scops.rs`;
//! `DEPS_ISL_CASES`, default 300, `DEPS_ISL_SEED`, default 1). Needs the
//! system isl (`apt-get install libisl-dev`).

use presburger_fuzz::Rng;
use presburger_fuzz::deps_isl::{KINDS, Verdict, compare};
use presburger_fuzz::isl::Ctx;
use presburger_fuzz::scops::random_scop;
use presburger_schedule::{Options, extract_scop};
use std::time::Instant;

/// isl's limit per step (its own unit; `DEPS_ISL_OPS` overrides it); past it
/// a relation is skipped.
const ISL_MAX_OPERATIONS: u64 = 5_000_000;

#[derive(Default)]
struct Tally {
    compared: usize,
    equal: [usize; 4],
    skipped: Vec<String>,
    mismatches: Vec<String>,
    errors: Vec<String>,
    /// SCoPs with a non-empty raw, war, waw, flow; with flow ≠ raw (a kill).
    non_empty: [usize; 4],
    killed: usize,
    statements: usize,
}

impl Tally {
    fn case(&mut self, ctx: &Ctx, name: &str, src: &str) {
        let scop = match extract_scop(src, &Options::default()) {
            Ok(s) => s,
            Err(e) => {
                self.errors.push(format!("{name}: front end: {e}\n{src}"));
                return;
            }
        };
        match compare(ctx, &scop) {
            Err(e) => self.errors.push(format!("{name}: {e}\n{src}")),
            Ok((verdicts, d)) => {
                self.statements += scop.statements.len();
                for (k, r) in [&d.raw, &d.war, &d.waw, &d.flow].into_iter().enumerate() {
                    self.non_empty[k] += usize::from(!r.members().is_empty());
                }
                let text = |u: &presburger::UnionMap| ctx.union_map(&u.to_string());
                if let (Some(r), Some(f)) = (text(&d.raw), text(&d.flow)) {
                    self.killed += usize::from(r.is_equal(&f) == Some(false));
                }
                for (k, v) in verdicts.into_iter().enumerate() {
                    match v {
                        Verdict::Equal => {
                            self.compared += 1;
                            self.equal[k] += 1;
                        }
                        Verdict::Skipped(why) => self.skipped.push(format!("{name}: {why}")),
                        Verdict::Differ(ours, isl) => {
                            self.compared += 1;
                            self.mismatches.push(format!(
                                "{name} {}:\n  ours {ours}\n  isl  {isl}\n{src}",
                                KINDS[k]
                            ))
                        }
                    }
                }
            }
        }
    }

    fn report(&self, what: &str, seconds: f64) {
        eprintln!(
            "{what}: {} comparisons ({} raw, {} war, {} waw, {} flow equal), {} mismatches, {} skipped, {} errors, {seconds:.1} s",
            self.compared,
            self.equal[0],
            self.equal[1],
            self.equal[2],
            self.equal[3],
            self.mismatches.len(),
            self.skipped.len(),
            self.errors.len()
        );
        eprintln!(
            "  {} statements; non-empty raw {}, war {}, waw {}, flow {}; flow smaller than raw {}",
            self.statements,
            self.non_empty[0],
            self.non_empty[1],
            self.non_empty[2],
            self.non_empty[3],
            self.killed
        );
        for s in self.skipped.iter().take(5) {
            eprintln!("  skipped {s}");
        }
        for m in self.mismatches.iter().chain(&self.errors).take(5) {
            eprintln!("  {m}");
        }
        assert!(
            self.mismatches.is_empty(),
            "{} mismatches",
            self.mismatches.len()
        );
        assert!(self.errors.is_empty(), "{} errors", self.errors.len());
    }
}

fn new_ctx() -> Ctx {
    let ctx = Ctx::new();
    ctx.set_max_operations(
        std::env::var("DEPS_ISL_OPS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(ISL_MAX_OPERATIONS),
    );
    ctx
}

#[test]
fn kernels_agree_with_isl() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schedule/tests/kernels");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 24, "{} kernels", files.len());
    let ctx = new_ctx();
    let mut tally = Tally::default();
    let t = Instant::now();
    for p in &files {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        tally.case(&ctx, &name, &std::fs::read_to_string(p).unwrap());
    }
    tally.report("kernels", t.elapsed().as_secs_f64());
    assert_eq!(tally.compared, 4 * files.len(), "every relation compared");
}

#[test]
fn random_scops_agree_with_isl() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let cases = env("DEPS_ISL_CASES", 300);
    let seed = env("DEPS_ISL_SEED", 1);
    let ctx = new_ctx();
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let t = Instant::now();
    let show = env("DEPS_ISL_SHOW", 0);
    for k in 0..cases {
        let src = random_scop(&mut rng);
        if k < show {
            eprintln!("case {k}:\n{src}");
        }
        tally.case(&ctx, &format!("case {k} (seed {seed})"), &src);
    }
    tally.report("random SCoPs", t.elapsed().as_secs_f64());
    assert!(
        tally.compared as u64 >= 4 * cases * 9 / 10,
        "too few comparisons: {}",
        tally.compared
    );
}

#[test]
fn a_wrong_flow_is_a_mismatch() {
    // the comparison can fail: jacobi-1d with our flow replaced by RAW
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../schedule/tests/kernels/jacobi-1d.c"),
    )
    .unwrap();
    let scop = extract_scop(&src, &Options::default()).unwrap();
    let d = presburger_schedule::dependences(&scop).unwrap();
    let ctx = new_ctx();
    let text = presburger_fuzz::deps_isl::ScopText::new(&scop).unwrap();
    let model = presburger_fuzz::deps_isl::IslModel::read(&ctx, &text).unwrap();
    let [raw, war, waw, flow] = model.dependences().unwrap();
    let same = |ours: &presburger::UnionMap, isl: &presburger_fuzz::isl::UMap| {
        ctx.union_map(&ours.to_string())
            .unwrap()
            .is_equal(isl)
            .unwrap()
    };
    assert!(same(&d.raw, &raw) && same(&d.war, &war) && same(&d.waw, &waw) && same(&d.flow, &flow));
    assert!(!same(&d.raw, &flow), "RAW is not the flow of jacobi-1d");
    assert!(!same(&d.waw, &raw), "WAW is not RAW");
}
