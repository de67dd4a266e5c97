//! `poly schedule [--scheduler dfp|lp|identity] [--fuse max|smart|none]
//! [--pluto] [--function NAME] FILE`: a schedule of the SCoP of a C or MLIR
//! file (crate `schedule`; pluto-lp-dfp with Pluto's fusion heuristics by
//! default). Prints `schedule: UNIONMAP` (each statement's instances to one
//! time space), one `band: FIRST LAST` line per permutable band (dimensions,
//! inclusive) and `parallel: D ...`, the dimensions that carry no
//! dependence; `--pluto` adds each statement's schedule in Pluto's style,
//! `T(S0): (i, j, 0, k)`.
//!
//! `poly schedule --check FILE SCHEDULE`: checks a schedule given in isl
//! notation (the text itself, told by its braces, or a file holding it, in
//! `poly codegen`'s input format: `poly opt --print-schedule`'s output is
//! one) against the memory-based dependences of FILE; prints `valid`, or
//! `invalid: ...` with the violated relation and a witness pair, and then
//! fails.

use crate::scop::load;
use presburger_schedule::validity::{Validity, check};
use presburger_schedule::{Fusion, Scheduler, SchedulerOptions, compute, dependences};

/// The output of `poly schedule` for `args` (after `schedule`), and whether
/// the command succeeded (false for a schedule that `--check` finds invalid).
pub fn run(args: &[String]) -> Result<(String, bool), String> {
    let mut opts = SchedulerOptions::default();
    let mut pluto = false;
    let mut check_mode = false;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--scheduler" => {
                opts.scheduler = match it.next().map(String::as_str) {
                    Some("dfp") => Scheduler::Dfp,
                    Some("lp") => Scheduler::Lp,
                    Some("identity") => Scheduler::Identity,
                    Some(other) => {
                        return Err(format!("unknown scheduler '{other}' (dfp, lp or identity)"));
                    }
                    None => return Err("--scheduler needs a name: dfp, lp or identity".into()),
                }
            }
            "--fuse" => {
                opts.fuse = match it.next().map(String::as_str) {
                    Some("max") => Fusion::Max,
                    Some("smart") => Fusion::Smart,
                    Some("none") => Fusion::None,
                    Some(other) => {
                        return Err(format!(
                            "unknown fusion policy '{other}' (max, smart or none)"
                        ));
                    }
                    None => return Err("--fuse needs a policy: max, smart or none".into()),
                }
            }
            "--pluto" => pluto = true,
            "--check" => check_mode = true,
            "--function" => {
                rest.push(a.clone());
                rest.push(it.next().ok_or("--function needs a function name")?.clone());
            }
            _ => rest.push(a.clone()),
        }
    }
    let e = |e: presburger::Error| e.to_string();
    if check_mode {
        let Some(sched_arg) = rest.pop() else {
            return Err("usage: poly schedule --check FILE SCHEDULE".into());
        };
        if rest.last().is_none_or(|a| a.starts_with("--")) {
            return Err("usage: poly schedule --check FILE SCHEDULE".into());
        }
        let scop = load(&rest)?;
        // a file, unless the argument is isl text (it has a brace)
        let text = if std::path::Path::new(&sched_arg).is_file() || !sched_arg.contains('{') {
            std::fs::read_to_string(&sched_arg)
                .map_err(|err| format!("cannot read the schedule file {sched_arg}: {err}"))?
        } else {
            sched_arg
        };
        let sched = presburger_codegen::input::parse_input(&text)
            .map_err(|err| format!("the schedule: {err}"))?
            .schedule;
        let d = dependences(&scop).map_err(e)?;
        return Ok(match check(&scop, &d, &sched).map_err(e)? {
            Validity::Valid => ("valid\n".into(), true),
            Validity::Invalid(v) => (format!("invalid: {v}\n"), false),
        });
    }
    let scop = load(&rest)?;
    let d = dependences(&scop).map_err(e)?;
    let s = compute(&scop, &d, &opts).map_err(e)?;
    // with the statement domains and the context, so that the output is
    // `poly codegen` input as it stands
    let mut out = format!(
        "schedule: {}\ndomain: {}\ncontext: {}\n",
        s.to_union_map().map_err(e)?,
        scop.domains().map_err(e)?,
        scop.context
    );
    for (a, b) in &s.bands {
        out.push_str(&format!("band: {a} {b}\n"));
    }
    out.push_str("parallel:");
    for p in s.parallel_indices() {
        out.push_str(&format!(" {p}"));
    }
    out.push('\n');
    if pluto {
        for st in &s.statements {
            out.push_str(&format!("T({}): {}\n", st.name(), st.describe(&s.params)));
        }
    }
    Ok((out, true))
}
