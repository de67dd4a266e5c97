//! `poly`: the command-line front end of the workspace.
//!
//! - `poly calc [FILE|-]`: runs an isl-calculator-like program (see `calc.rs`).
//! - `poly parse [FILE|-]`: parses one set or map in isl notation and prints it back.
//! - `poly batch [--time] [--repeat R] [--stats] [FILE|-]`: answers one query per line
//!   (`OP<TAB>ARG`), one output line each (see `batch.rs`).
//! - `poly volume FILE.mlir [--output %name] [--tile DIM=SIZE,...] [--regions] [--emit OUT.mlir] [--emit-regions OUT.mlir]`: the
//!   volume model of an MLIR linalg/tensor function (see `volume.rs`).
//! - `poly scop [--function NAME] FILE.c`: the SCoP model (domains, schedule,
//!   accesses) of a C region or of an MLIR `func.func` (`FILE.mlir`; see
//!   `scop.rs`).
//! - `poly deps [--function NAME] FILE.c`: its memory-based dependences (see `scop.rs`).
//! - `poly schedule [--scheduler dfp|lp|identity] [--fuse max|smart|none] [--pluto] FILE.c`, `poly schedule --check FILE.c
//!   SCHEDULE`: a schedule with its bands and parallel dimensions, or the check of
//!   one (see `schedule.rs`).
//! - `poly codegen [--atomic] [--max-steps N] [--run PARAM=VALUE,...] [FILE|-]`: the loop code of a
//!   schedule as C (see `codegen.rs`).
//! - `poly opt FILE.c [-o OUT.c] [--tile N | --tile-sizes A,B,C | --no-tile]
//!   [--parallel] ...`: the file with its SCoP tiled, parallelised and printed
//!   back (see `opt.rs`).
//!
//! Errors go to stderr as `poly: line L, column C: message` with a non-zero exit.
//! A write to standard output that fails ends `poly` as `output` describes:
//! quietly with status 141 on a broken pipe, with `poly: COMMAND: cannot write
//! the output: ...` and status 1 otherwise.

mod args;
mod batch;
mod calc;
mod codegen;
mod opt;
mod output;
mod schedule;
mod scop;
mod volume;

use output::{Failure, Out, print};
use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "\
usage: poly <command> [FILE|-]
       poly batch [--time] [--repeat R] [--stats] [FILE|-]
       poly volume [--output %NAME] [--tile DIM=SIZE,...] [--regions]
                   [--no-clone-constants] [--opaque-unknown] [FILE.mlir|-]
                   [--emit OUT.mlir] [--emit-regions OUT.mlir] [--no-interchange]
                   [--arith-index]
                   [--main OUT.mlir [--main-module M.mlir] [--reps N] [--dyn-size N]
                    [--index NAME=V,...]]
       poly scop [--function NAME] [FILE.c|FILE.mlir|-]
       poly deps [--function NAME] [--distances] [FILE.c|FILE.mlir|-]
       poly deps --mlir-remarks [--split-input-file] [--mlir-else] [FILE.mlir|-]
       poly schedule [--scheduler dfp|lp|identity] [--fuse max|smart|none] [--pluto]
                     [--function NAME] [FILE.c|FILE.mlir|-]
       poly schedule --check [--function NAME] FILE.c|FILE.mlir SCHEDULE
       poly codegen [--atomic] [--max-steps N] [--run PARAM=VALUE,...] [FILE|-]
       poly opt FILE.c [-o OUT.c] [--tile N | --tile-sizes A,B,C | --no-tile] [--parallel]
                [--scheduler dfp|lp|identity] [--fuse max|smart|none] [--parametric] ...

commands:
  calc    run a calculator program: statements `S := <set or map>;` and `<expr>;`
          with + (union), * (intersection), M(S) (apply), M^-1, A . B, dom M, ran M,
          domain(M), range(M), reverse(M), intersect_domain(M, S), ...
          (`poly calc --help` lists every function and operator with an example)
  parse   parse one set or map in isl notation and print it back
  batch   answer one query per line, `OP<TAB>ARG` with OP one of is_empty, sample,
          lexmin, lexmax; prints one line per query (the answer or `error: line L: ...`)
          --time: add a TAB and the nanoseconds of the operation; --repeat R: run it
          R times (the time is the total); --stats: a summary on stderr at the end
  volume  the volume model of an MLIR linalg/tensor function: the element map of a
          returned value, its domain and regions (constant, dense, static, edge,
          corner) with their sizes; --regions prints each as `region NAME: SET`;
          --tile 2=16,3=16 prints the tiles (`tiles all:`, `tiles interior:`) and the
          slice of each input one tile reads (`slice NAME: offsets .. sizes ..`);
          --emit OUT.mlir writes the function tiled (interior tile loops with no
          padding, partitions around them), --emit-regions OUT.mlir computed per
          region; --main OUT.mlir writes the function (or M.mlir) with a @main that
          times N calls on deterministic inputs and prints a hash of the result
  scop    the SCoP model of the `#pragma scop` ... `#pragma endscop` region of a C
          file (or of the body of function NAME), or of an MLIR func.func in the
          affine dialect (FILE.mlir, or text starting with func.func/module; the
          first function with a body or @NAME): prints `context:`, `domain:`,
          `schedule:` (2d+1 form), `reads:` and `writes:` lines in isl notation
  deps    the memory-based dependences of that region: `raw:`, `war:` and `waw:`
          lines, each a union map from source to target statement instances,
          then `flow:`, the value-based flow (each read from its last writer);
          --distances adds `distance KIND SRC -> TGT: (DIRS) SET` per relation:
          the direction per common loop (<, =, >, <=, >=, *) and the distances;
          --per-op (MLIR): one statement per load and store op instead of per store;
          --mlir-remarks: the remarks of mlir-opt --test-memref-dependence-check
          instead, one line per pair of affine accesses and depth
          (--split-input-file: each part between `// -----` lines on its own;
          --mlir-else: else regions under their affine.if's condition, as MLIR has them)
  schedule  a schedule of that region: `schedule:` (a union map to one time space),
          `band: FIRST LAST` per permutable band, `parallel:` the dimensions that
          carry no dependence; --scheduler dfp (pluto-lp-dfp: fusion and
          permutation on the fusion conflict graph, then scaling, shifting and
          skewing; the default), lp (pluto-lp: Pluto's hyperplanes one at a time
          on the LP relaxation) or identity (the original 2d+1 schedule);
          --fuse smart (Pluto's heuristics, the default), max or none;
          --pluto adds `T(S0): (i, j, 0, k)` per statement; --check FILE
          SCHEDULE checks a union map (text or a file) against the dependences and
          prints `valid` or `invalid: ...` (then exits non-zero)
  codegen  the loops that scan a schedule, printed as C in isl's style: FILE holds
          a schedule union map with the domains in it, e.g.
          `[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 1] : 0 <= i < N }`,
          optionally followed by a context set (`[N] -> { : N >= 1 }`, or
          `context: SET`) and options (`options: atomic` or isl's
          `{ [i] -> atomic[x] }`); --atomic: one loop per group of overlapping
          statements instead of separation; --max-steps N: the work limit of
          the whole generation in solver steps (default 20000000; past it the
          command fails, naming the step it was in); --run N=4: print the
          statement instances the code runs for those parameter values instead
  opt     a polycc-like optimiser: the SCoP of FILE.c scheduled, its permutable bands
          tiled (32 by default), the loops printed in place of the region (statements
          as macros), the rest of the file byte for byte; --parallel adds
          `#pragma omp parallel for` on parallel loops (wavefronts of tiles when a
          band has none) and `#pragma omp simd`; --parametric keeps #defined sizes
          symbolic; `poly opt --help` lists every option
  help    print this text

FILE defaults to standard input.";

fn read_input(arg: Option<&String>) -> Result<String, String> {
    match arg.map(String::as_str) {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(s)
        }
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}")),
    }
}

fn run(args: &[String]) -> Result<(), Failure> {
    let Some(cmd) = args.first() else {
        return Err(USAGE.into());
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "batch" => return batch::main(rest),
        "volume" => return print("volume", &volume::run(rest)?),
        "scop" => return print("scop", &scop::run(rest)?),
        "deps" => return print("deps", &scop::run_deps(rest)?),
        "opt" => return print("opt", &opt::run(rest)?),
        "codegen" => return print("codegen", &codegen::run(rest)?),
        "schedule" => {
            let (out, ok) = schedule::run(rest)?;
            print("schedule", &out)?;
            return if ok {
                Ok(())
            } else {
                Err("the schedule is invalid".into())
            };
        }
        _ => {}
    }
    match cmd.as_str() {
        "help" | "--help" | "-h" if rest.is_empty() => print("help", &format!("{USAGE}\n")),
        "help" | "--help" | "-h" => Err(format!(
            "{cmd} takes no arguments (`poly calc --help`, `poly batch --help` and `poly opt \
             --help` describe those commands)"
        )
        .into()),
        "calc"
            if matches!(
                args.get(1).map(String::as_str),
                Some("--help" | "-h" | "help")
            ) =>
        {
            print("calc", &calc::help())
        }
        "calc" => {
            let text = read_input(only_file("calc", rest)?)?;
            let mut out = Out::new();
            let r = calc::run(&text, &mut out);
            // a failed write is the reason calc stopped, if there was one
            if let Some(f) = out.failure("calc") {
                return Err(f);
            }
            r.map_err(|e| e.to_string())?;
            out.finish("calc")
        }
        "parse" => {
            let text = read_input(only_file("parse", rest)?)?;
            let obj = presburger::parse_object(&text).map_err(|e| e.to_string())?;
            let text = match obj {
                presburger::Object::Set(s) => format!("{s}\n"),
                presburger::Object::Map(m) => format!("{m}\n"),
            };
            print("parse", &text)
        }
        other => Err(format!("unknown command '{other}'\n{USAGE}").into()),
    }
}

/// The one optional input file of a command that takes no options (`calc`,
/// `parse`): an argument starting with `-` (but `-` itself, standard
/// input) is an unknown option, a second file too many.
fn only_file<'a>(cmd: &str, rest: &'a [String]) -> Result<Option<&'a String>, String> {
    let usage = format!("usage: poly {cmd} [FILE|-]");
    let mut file = None;
    for a in rest {
        if a.starts_with('-') && a != "-" {
            return Err(format!("{cmd}: unknown option '{a}'\n{usage}"));
        }
        if file.is_some() {
            return Err(format!("{cmd}: at most one input file\n{usage}"));
        }
        file = Some(a);
    }
    Ok(file)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    output::exit_code(run(&args))
}
