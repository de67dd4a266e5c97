//! `poly opt FILE.c [-o OUT.c] [--tile N | --tile-sizes A,B,C | --no-tile]
//! [--tile-single] [--parallel] [--no-wavefront] [--no-vector] [--ivdep]
//! [--parametric] [--scheduler dfp|lp|identity] [--fuse max|smart|none]
//! [--function NAME] [--max-steps N] [--verbose] [--print-schedule]`:
//! a polycc-like source-to-source optimiser. The SCoP of FILE.c (its
//! `#pragma scop` region) is scheduled (crate `schedule`; pluto-lp-dfp with
//! the smart fusion policy by default), its permutable bands tiled (32 by
//! default), the result scanned into loops (crate `codegen`) and printed in
//! place of the region, everything else byte for byte, to OUT.c or
//! standard output.
//!
//! `--parallel` marks the outermost parallel loop of each nest
//! `#pragma omp parallel for` (compile with `-fopenmp`), runs tiled bands
//! without a parallel loop as wavefronts of tiles (unless `--no-wavefront`)
//! and marks innermost parallel loops `#pragma omp simd` (`--no-vector`
//! drops those); without it no OpenMP pragma is printed. `--ivdep` marks
//! innermost parallel loops `#pragma GCC ivdep` instead (gcc may answer
//! "ignoring loop annotation" on a loop it reshapes: not for `-Werror`).
//! The sizes the file `#define`s as integer constants (outside `#if`
//! blocks) are assumed in the generated code unless `--parametric`.
//! `--max-steps N` is the work limit of the code generation, as for
//! `poly codegen`. `--print-schedule` prints, instead of C, the transformed
//! schedule and the context as `schedule: ...` and `context: ...` lines,
//! `approximate: DIMS` (the tile dimensions, which `poly opt` scans over
//! rational shadows), then `# parallel: DIMS` (the parallel dimensions, a
//! comment there): the input format of `poly codegen`.

use presburger_codegen::emit::constant_macros;
use presburger_codegen::opt::{specialize, transform};
use presburger_codegen::tile::TileOptions;
use presburger_codegen::{EmitOptions, Mark, OptOptions, emit_c, optimize};
use presburger_schedule::{
    Fusion, Options, Scheduler, SchedulerOptions, compute, dependences, extract_scop,
};
use std::time::Instant;

/// The parsed command line of `poly opt`.
struct Args {
    file: Option<String>,
    out: Option<String>,
    sched: SchedulerOptions,
    opt: OptOptions,
    function: Option<String>,
    verbose: bool,
    print_schedule: bool,
    parametric: bool,
}

const USAGE: &str = "usage: poly opt FILE.c [-o OUT.c] [--tile N | --tile-sizes A,B,C | --no-tile] \
[--tile-single] [--parallel] [--no-wavefront] [--no-vector] [--ivdep] [--parametric] \
[--scheduler dfp|lp|identity] [--fuse max|smart|none] [--function NAME] [--max-steps N] [--verbose] [--print-schedule]";

/// A tile size: an integer from 1 to 2^20.
fn size(s: &str) -> Result<i64, String> {
    match s.trim().parse::<i64>() {
        Ok(v) if (1..=1 << 20).contains(&v) => Ok(v),
        _ => Err(format!(
            "a tile size must be an integer from 1 to 1048576, not '{s}'"
        )),
    }
}

/// The command line `args` (after `opt`) read into [`Args`]; an error
/// (with the usage) for an unknown option or a bad value.
fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        file: None,
        out: None,
        sched: SchedulerOptions::default(),
        opt: OptOptions::default(),
        function: None,
        verbose: false,
        print_schedule: false,
        parametric: false,
    };
    let mut no_wavefront = false;
    let mut vector: Option<Option<Mark>> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs {what}\n{USAGE}"))
        };
        match arg.as_str() {
            "-o" => a.out = Some(value("an output file")?),
            "--tile" => {
                let s = size(&value("a tile size")?)?;
                a.opt.tile = TileOptions {
                    tile: true,
                    sizes: Vec::new(),
                    default_size: s,
                    ..a.opt.tile
                };
            }
            "--tile-sizes" => {
                let v = value("sizes such as 32,32,8")?;
                let sizes = v
                    .split(',')
                    .map(size)
                    .collect::<Result<Vec<i64>, String>>()?;
                a.opt.tile = TileOptions {
                    tile: true,
                    sizes,
                    ..a.opt.tile
                };
            }
            "--no-tile" => a.opt.tile.tile = false,
            "--tile-single" => a.opt.tile.single = true,
            "--parallel" => a.opt.openmp = true,
            "--no-wavefront" => no_wavefront = true,
            "--no-vector" => vector = Some(None),
            "--ivdep" => vector = Some(Some(Mark::Ivdep)),
            "--scheduler" => {
                a.sched.scheduler = match value("a scheduler: dfp, lp or identity")?.as_str() {
                    "dfp" => Scheduler::Dfp,
                    "lp" => Scheduler::Lp,
                    "identity" => Scheduler::Identity,
                    other => {
                        return Err(format!("unknown scheduler '{other}' (dfp, lp or identity)"));
                    }
                }
            }
            "--fuse" => {
                a.sched.fuse = match value("a policy: max, smart or none")?.as_str() {
                    "max" => Fusion::Max,
                    "smart" => Fusion::Smart,
                    "none" => Fusion::None,
                    other => {
                        return Err(format!(
                            "unknown fusion policy '{other}' (max, smart or none)"
                        ));
                    }
                }
            }
            "--function" => a.function = Some(value("a function name")?),
            "--max-steps" => {
                a.opt.max_steps =
                    crate::codegen::parse_max_steps(Some(&value("a number of solver steps")?))?
            }
            "--verbose" => a.verbose = true,
            "--parametric" => a.parametric = true,
            "--print-schedule" => a.print_schedule = true,
            s if s.starts_with('-') && s != "-" => {
                return Err(format!("unknown option '{s}'\n{USAGE}"));
            }
            _ if a.file.is_some() => return Err(format!("poly opt takes one input file\n{USAGE}")),
            _ => a.file = Some(arg.clone()),
        }
    }
    a.opt.wavefront = a.opt.openmp && !no_wavefront;
    a.opt.vector = vector.unwrap_or(if a.opt.openmp {
        Some(Mark::OmpSimd)
    } else {
        None
    });
    Ok(a)
}

/// A one-line description of the options, for the comment of the output.
fn banner(a: &Args, fixed: &[String]) -> String {
    let sched = match a.sched.scheduler {
        Scheduler::Dfp => "dfp",
        Scheduler::Lp => "lp",
        Scheduler::Identity => "identity",
    };
    let fuse = match a.sched.fuse {
        Fusion::Max => "max",
        Fusion::Smart => "smart",
        Fusion::None => "none",
    };
    let tile = if a.opt.tile.tile {
        let s = &a.opt.tile.sizes;
        if s.is_empty() {
            format!("tile {}", a.opt.tile.default_size)
        } else {
            let v: Vec<String> = s.iter().map(i64::to_string).collect();
            format!("tile sizes {}", v.join(","))
        }
    } else {
        "no tiling".to_string()
    };
    let par = if a.opt.openmp { ", OpenMP" } else { "" };
    let sizes = if fixed.is_empty() {
        String::new()
    } else {
        format!(", for the #defined {}", fixed.join(", "))
    };
    format!("scheduler {sched}, fusion {fuse}, {tile}{par}{sizes}")
}

/// Runs `poly opt` with `args` (after `opt`): returns the text to print
/// (empty when it was written to `-o`).
pub fn run(args: &[String]) -> Result<String, String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Ok(format!("{USAGE}\n"));
    }
    let a = parse(args)?;
    let text = crate::read_input(a.file.as_ref())?;
    let options = Options {
        function: a.function.clone(),
    };
    let clock = Instant::now();
    let mut scop = extract_scop(&text, &options).map_err(|e| e.to_string())?;
    let e = |e: presburger::Error| e.to_string();
    let deps = dependences(&scop).map_err(e)?;
    let t_deps = clock.elapsed();
    let sched = compute(&scop, &deps, &a.sched).map_err(e)?;
    let t_sched = clock.elapsed() - t_deps;
    let fixed = if a.parametric {
        Vec::new()
    } else {
        let values = constant_macros(&text, scop.span.0);
        specialize(&mut scop, &values).map_err(|e| e.to_string())?
    };
    if a.print_schedule {
        let t = transform(&scop, &deps, &sched, &a.opt).map_err(|e| e.to_string())?;
        let par: Vec<String> = (0..t.parallel.len())
            .filter(|&k| t.parallel[k])
            .map(|k| k.to_string())
            .collect();
        let tiles: Vec<String> = (t.layout.tile_dims().into_iter().enumerate())
            .filter(|&(_, tile)| tile)
            .map(|(k, _)| k.to_string())
            .collect();
        let approximate = if tiles.is_empty() {
            String::new()
        } else {
            format!("approximate: {}\n", tiles.join(" "))
        };
        return Ok(format!(
            "schedule: {}\ncontext: {}\n{approximate}# parallel: {}\n",
            t.schedule,
            scop.context,
            par.join(" ")
        ));
    }
    let result = optimize(&scop, &deps, &sched, &a.opt).map_err(|e| e.to_string())?;
    for note in &result.notes {
        crate::output::warn(&format!("poly opt: warning: {note}"));
    }
    if a.verbose {
        crate::output::warn(&format!(
            "poly opt: dependences {:.3} s",
            t_deps.as_secs_f64()
        ));
        crate::output::warn(&format!(
            "poly opt: schedule {:.3} s",
            t_sched.as_secs_f64()
        ));
        for (name, t) in &result.timings {
            crate::output::warn(&format!("poly opt: {name} {:.3} s", t.as_secs_f64()));
        }
    }
    let out = emit_c(
        &text,
        &scop,
        &result.ast,
        &EmitOptions {
            banner: banner(&a, &fixed),
        },
    )
    .map_err(|e| e.to_string())?;
    match &a.out {
        Some(path) => {
            std::fs::write(path, out).map_err(|err| format!("cannot write {path}: {err}"))?;
            Ok(String::new())
        }
        None => Ok(out),
    }
}
