//! `poly scop [--function NAME] FILE.c`: the SCoP model of a C file's
//! `#pragma scop` region (or of the body of function NAME), crate `schedule`;
//! `FILE.mlir` (or text starting with `func.func`/`module`) is read by the
//! MLIR front end (the first `func.func` with a body, or `@NAME`).
//! Prints five lines in isl notation: `context: SET`, `domain: UNIONSET`,
//! `schedule: UNIONMAP`, `reads: UNIONMAP`, `writes: UNIONMAP`.
//!
//! `poly deps [--function NAME] FILE.c`: its memory-based dependences, three
//! lines `raw: UNIONMAP`, `war: UNIONMAP`, `waw: UNIONMAP` (source instance
//! to target instance), then the value-based flow dependences `flow: UNIONMAP`
//! (each read instance from its last writer); `--distances` adds a line per
//! relation between two statements, `distance KIND SRC -> TGT: (DIRS) SET`.
//!
//! `poly deps --mlir-remarks [--split-input-file] [--mlir-else] FILE.mlir`:
//! instead, the remarks MLIR's `-test-memref-dependence-check` pass prints
//! for the file (`FILE:LINE:COL: remark: dependence from A to B at depth D
//! = ...`, one line each), to be diffed with `mlir-opt`'s; `--mlir-else`
//! gives the ops of `else` regions their `affine.if`'s condition, as MLIR
//! does.
//!
//! `--per-op` (scop, deps, MLIR only): one statement per load and store op,
//! as MLIR's dependence test counts accesses, instead of one per store.

use presburger_schedule::{Options, Scop, dependences, extract_scop};

/// The SCoP of the file named in `args` (after the command).
pub(crate) fn load(args: &[String]) -> Result<Scop, String> {
    let mut options = Options::default();
    let mut mlir = presburger_schedule::mlir::MlirOptions::default();
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--per-op" => mlir.per_op = true,
            "--function" => {
                options.function = Some(
                    it.next()
                        .ok_or("--function needs a function name, e.g. --function kernel")?
                        .clone(),
                )
            }
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'")),
            s if file.is_none() => file = Some(s.to_string()),
            s => return Err(format!("unexpected argument '{s}'")),
        }
    }
    let text = crate::read_input(file.as_ref())?;
    // MLIR by the extension `.mlir` or by its first word; C otherwise
    if file.as_ref().is_some_and(|f| f.ends_with(".mlir"))
        || presburger_schedule::looks_like_mlir(&text)
    {
        return presburger_schedule::mlir::extract_scop_mlir_with(&text, &options, &mlir)
            .map_err(|e| e.to_string());
    }
    if mlir.per_op {
        return Err("--per-op is for MLIR input only".to_string());
    }
    extract_scop(&text, &options).map_err(|e| e.to_string())
}

/// The output of `poly scop` for the arguments `args` (after `scop`).
pub fn run(args: &[String]) -> Result<String, String> {
    let scop = load(args)?;
    let pb = |e: presburger::Error| e.to_string();
    Ok(format!(
        "context: {}\ndomain: {}\nschedule: {}\nreads: {}\nwrites: {}\n",
        scop.context,
        scop.domains().map_err(pb)?,
        scop.schedule().map_err(pb)?,
        scop.reads().map_err(pb)?,
        scop.writes().map_err(pb)?
    ))
}

/// The output of `poly deps` for the arguments `args` (after `deps`); with
/// `--distances`, one more line per dependence relation between two
/// statements: `distance KIND SRC -> TGT: (DIRS) SET`, the direction per
/// common loop (`<`, `=`, `>`, `*`) and the distance vectors.
pub fn run_deps(args: &[String]) -> Result<String, String> {
    if args.iter().any(|a| a == "--mlir-remarks") {
        return mlir_remarks(args);
    }
    let with_distances = args.iter().any(|a| a == "--distances");
    let rest: Vec<String> = args
        .iter()
        .filter(|a| *a != "--distances")
        .cloned()
        .collect();
    let scop = load(&rest)?;
    let d = dependences(&scop).map_err(|e| e.to_string())?;
    let mut out = format!(
        "raw: {}\nwar: {}\nwaw: {}\nflow: {}\n",
        d.raw, d.war, d.waw, d.flow
    );
    if with_distances {
        for x in presburger_schedule::distances(&scop, &d).map_err(|e| e.to_string())? {
            let dirs: Vec<&str> = x.direction.iter().map(|d| d.symbol()).collect();
            out.push_str(&format!(
                "distance {} {} -> {}: ({}) {}\n",
                x.kind,
                x.source,
                x.target,
                dirs.join(", "),
                x.distances
            ));
        }
    }
    Ok(out)
}

/// The output of `poly deps --mlir-remarks [--split-input-file]
/// [--mlir-else] FILE.mlir`: MLIR's dependence remarks for the file, placed at the file's name as
/// given (`-` or none: standard input, placed at `<stdin>` as `mlir-opt`
/// does).
fn mlir_remarks(args: &[String]) -> Result<String, String> {
    let (mut split, mut as_mlir) = (false, false);
    let mut file = None;
    for a in args {
        match a.as_str() {
            "--mlir-remarks" => {}
            "--split-input-file" => split = true,
            "--mlir-else" => as_mlir = true,
            s if s.starts_with("--") => {
                return Err(format!("unknown option '{s}' with --mlir-remarks"));
            }
            s if file.is_none() => file = Some(s.to_string()),
            s => return Err(format!("unexpected argument '{s}'")),
        }
    }
    let text = crate::read_input(file.as_ref())?;
    let name = match file.as_deref() {
        None | Some("-") => "<stdin>",
        Some(f) => f,
    };
    presburger_schedule::mlir::mlir_remarks_with(&text, name, split, as_mlir)
        .map_err(|e| e.to_string())
}
