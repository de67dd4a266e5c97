//! `poly codegen [--atomic] [--max-steps N] [--run PARAM=VALUE,...] [FILE|-]`: the loop
//! code of a schedule (crate `codegen`), printed as C in the style of isl's
//! AST printer.
//!
//! FILE holds iscc's code-generation input (see `presburger_codegen::input`): a schedule
//! union map with the statement domains in it, e.g.
//! `[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 1] : 0 <= i < N }`, then
//! optionally a context set (`[N] -> { : N >= 1 }`, or `context: SET`) and
//! options (`{ [i] -> atomic[x] }` or `options: atomic`). `--atomic` asks for
//! one loop per group of overlapping statements (with guards) instead of
//! separation. `--max-steps N` bounds the work of the whole generation
//! (inversion, separation, guards) at `N` solver steps (default
//! [`presburger_codegen::DEFAULT_MAX_STEPS`]); past it the command fails with a
//! message naming the step it was in. `--run N=4,M=2` prints, instead of the code, the statement
//! instances the code executes for those parameter values, one per line
//! (`S(0, 1)`), by running the AST; several `--run` options add up, and a
//! parameter given twice is an error.
//!
//! The parameters of the printed code are 64-bit integers (to be declared
//! `long long`); the loop counters are `int` where the loop bounds and the
//! context's bounds on the parameters prove every value fits in 32 bits,
//! `long long` elsewhere.

use crate::read_input;

/// The output of `poly codegen` for `args` (after `codegen`).
pub fn run(args: &[String]) -> Result<String, String> {
    let mut atomic = false;
    let mut max_steps: Option<u64> = None;
    let mut run_with: Option<Vec<(String, i64)>> = None;
    let mut file: Option<&String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--atomic" => atomic = true,
            "--max-steps" => max_steps = Some(parse_max_steps(it.next())?),
            "--run" => {
                let spec = it
                    .next()
                    .ok_or("--run needs parameter values, such as N=4,M=2")?;
                let values = run_with.get_or_insert_with(Vec::new);
                for (name, v) in parse_values(spec)? {
                    if values.iter().any(|(n, _)| *n == name) {
                        return Err(format!(
                            "--run: {name} is given twice (each parameter takes one value)"
                        ));
                    }
                    values.push((name, v));
                }
            }
            s if s.starts_with("--") => {
                return Err(format!(
                    "unknown option '{s}'\nusage: poly codegen [--atomic] [--max-steps N] [--run PARAM=VALUE,...] [FILE|-]"
                ));
            }
            _ if file.is_some() => return Err("poly codegen takes one input file".into()),
            _ => file = Some(a),
        }
    }
    let text = read_input(file)?;
    let mut input = presburger_codegen::input::parse_input(&text).map_err(|e| e.to_string())?;
    if atomic {
        input.options.atomic = true;
    }
    if let Some(n) = max_steps {
        input.options.max_steps = n;
    }
    let ast = input.generate().map_err(|e| e.to_string())?;
    let Some(values) = run_with else {
        return Ok(ast.to_c_with(&input.param_types()));
    };
    let params = input.schedule.params();
    for (name, _) in &values {
        if !params.contains(name) {
            return Err(format!(
                "--run: {name} is not a parameter of the schedule ({})",
                params.join(", ")
            ));
        }
    }
    let refs: Vec<(&str, i64)> = values.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let trace = ast.trace(&refs, 10_000_000).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for (name, args) in trace {
        let a: Vec<String> = args.iter().map(i64::to_string).collect();
        out.push_str(&format!("{name}({})\n", a.join(", ")));
    }
    Ok(out)
}

/// The value of `--max-steps`: a positive number of solver steps (at most
/// `u64::MAX`).
pub fn parse_max_steps(v: Option<&String>) -> Result<u64, String> {
    let v = v.ok_or("--max-steps needs a number of solver steps, such as 100000000")?;
    crate::args::unsigned("--max-steps", v, 1)
}

/// `N=4,M=2` as pairs, in order; each value a 64-bit integer.
fn parse_values(spec: &str) -> Result<Vec<(String, i64)>, String> {
    spec.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let (n, v) = p
                .split_once('=')
                .ok_or_else(|| format!("--run: expected PARAM=VALUE, not {p}"))?;
            let n = n.trim();
            let v = crate::args::signed(&format!("--run: {n}"), v)?;
            Ok((n.to_string(), v))
        })
        .collect()
}
