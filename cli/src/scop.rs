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

use presburger_schedule::{Options, Scop, dependences, extract_scop};

/// The SCoP of the file named in `args` (after the command).
pub(crate) fn load(args: &[String]) -> Result<Scop, String> {
    let mut options = Options::default();
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
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
        return presburger_schedule::extract_scop_mlir(&text, &options).map_err(|e| e.to_string());
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
