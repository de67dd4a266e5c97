//! The printed C compiles with `cc -std=c99 -Wall -Werror` (with the helper
//! macros of `Macro::definition` and statement macros that print their
//! arguments) and, run for several parameter values, prints exactly the
//! scheduled instances in time order (enumerated by `presburger`). All cases
//! go into one C file, compiled once, with gcc's signed overflow checks
//! (`-fsanitize=signed-integer-overflow`, an overflow stops the program)
//! when the compiler has them. Some cases have values past 2^31 (large
//! coefficients, parameters near the limits of their type) with few
//! instances: the counters must be `long long` there, and an `int`
//! parameter's arithmetic done in 64 bits. Skipped (with a message) when no
//! `cc` is installed.

mod common;
use common::{Rng, combinations, expected, random_schedule};
use presburger_codegen::{Macro, Options, ParamCType, ParamTypes, generate};
use std::fmt::Write as _;
use std::process::Command;

struct Case {
    text: String,
    values: Vec<Vec<i64>>,
}

fn cases() -> Vec<Case> {
    let fixed: &[(&str, &[std::ops::RangeInclusive<i64>])] = &[
        (
            "[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 1] : 0 <= i < N }",
            &[-1..=4],
        ),
        ("[N] -> { S[i, j] -> [i, j] : 0 <= j <= i < N }", &[0..=4]),
        (
            "[T, N] -> { S[t, i] -> [t, 2t + i] : 0 <= t < T and 1 <= i < N - 1 }",
            &[0..=3, 0..=5],
        ),
        (
            "[N] -> { S[i] -> [2i + 1] : 0 <= i < N; T[i] -> [3i] : 0 <= i < N }",
            &[0..=6],
        ),
        (
            "[N] -> { S[i, j] -> [2i + j, j] : 0 <= i, j < N }",
            &[0..=4],
        ),
        ("[N] -> { S[i] -> [floor(i/4), i] : 0 <= i < N }", &[0..=9]),
        (
            "[N] -> { S[i] -> [-i] : 0 <= i < N and i mod 3 = 1 }",
            &[0..=8],
        ),
        (
            "[N] -> { S[i, j] -> [i, j] : 0 <= i, j < N and (i <= 1 or j >= 3) }",
            &[0..=5],
        ),
        (
            "[N] -> { S[i] -> [i] : 0 <= i < N and N mod 2 = 0 }",
            &[0..=5],
        ),
        (
            "[N] -> { S[i, j] -> [i + j, i - j] : 0 <= i, j < N }",
            &[0..=4],
        ),
        (
            "[N, M] -> { S[i, j] -> [i, j] : 0 <= i < N and 0 <= j < M; T[i, j] -> [i, j] : 0 <= j <= i < N }",
            &[0..=3, -1..=3],
        ),
        ("{ S[] -> [0]; T[i] -> [i] : 1 <= i <= 3; U[] -> [2] }", &[]),
        // values past 2^31 (the counters end past the upper bound by the stride)
        ("{ S[i] -> [1000000000 i] : 0 <= i <= 3 }", &[]),
        (
            "{ S[i, j] -> [i, 799999999 i + j] : 0 <= i < 3 and 799999997 <= j < 800000000 }",
            &[],
        ),
        (
            "{ S[i, j] -> [i, -1500000000 i + j] : 0 <= i <= 2 and 0 <= j <= 1 }",
            &[],
        ),
        ("{ S[i] -> [i] : 2147483645 <= i <= 2147483647 }", &[]),
        (
            "[N] -> { S[i] -> [N + i] : 0 <= i < 2 }",
            &[2147483646..=2147483648],
        ),
        (
            "[N] -> { S[i] -> [i] : N - 1 <= i <= N }",
            &[-2147483649..=-2147483647],
        ),
    ];
    let mut out: Vec<Case> = fixed
        .iter()
        .map(|(t, r)| Case {
            text: t.to_string(),
            values: combinations(r),
        })
        .collect();
    for seed in 0..40 {
        let text = random_schedule(&mut Rng::new(1000 + seed));
        let np = text.starts_with('[') as usize;
        let values = if np == 1 {
            (-1..=3).map(|n| vec![n]).collect()
        } else {
            vec![vec![]]
        };
        out.push(Case { text, values });
    }
    out
}

/// `ast.to_c_with(params)` for each case as a C function whose parameters
/// are `ptype`, called for each of the case's parameter values; its output
/// is checked against the enumeration of the instances.
fn compile_and_check(
    name: &str,
    cases: &[Case],
    ptype: &str,
    params: &dyn Fn(&[String]) -> ParamTypes,
) {
    if Command::new("cc").arg("--version").output().is_err() {
        eprintln!("no cc: the C test is skipped");
        return;
    }
    let mut src = String::from("#include <stdio.h>\n");
    for m in [Macro::Floord, Macro::Ceild, Macro::Min, Macro::Max] {
        src.push_str(m.definition());
        src.push('\n');
    }
    let mut want = String::new();
    let mut calls = String::new();
    for atomic in [false, true] {
        for (k, case) in cases.iter().enumerate() {
            let sched: presburger::UnionMap = case.text.parse().unwrap();
            let ast = generate(
                &sched,
                None,
                None,
                &Options {
                    atomic,
                    ..Options::default()
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", case.text));
            let fname = format!("case_{k}_{}", atomic as u8);
            let mut macros = Vec::new();
            for m in sched.members() {
                let name = m.space().domain_tuple().unwrap().name.clone().unwrap();
                let n = m.space().n_in();
                let args: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
                let fmt: Vec<&str> = (0..n).map(|_| "%lld").collect();
                let vals: String = args.iter().map(|a| format!(", (long long)({a})")).collect();
                writeln!(
                    src,
                    "#define {name}({}) printf(\"{name}({})\\n\"{vals})",
                    args.join(", "),
                    fmt.join(", ")
                )
                .unwrap();
                macros.push(name);
            }
            let params_c: Vec<String> = sched
                .params()
                .iter()
                .map(|p| format!("{ptype} {p}"))
                .collect();
            let params_c = if params_c.is_empty() {
                "void".to_string()
            } else {
                params_c.join(", ")
            };
            writeln!(src, "static void {fname}({params_c}) {{").unwrap();
            for line in ast.to_c_with(&params(sched.params())).lines() {
                writeln!(src, "  {line}").unwrap();
            }
            src.push_str("}\n");
            for m in macros {
                writeln!(src, "#undef {m}").unwrap();
            }
            for pv in &case.values {
                let args: Vec<String> = pv.iter().map(|v| format!("{v}LL")).collect();
                writeln!(calls, "  printf(\"== {fname} {pv:?}\\n\");").unwrap();
                writeln!(calls, "  {fname}({});", args.join(", ")).unwrap();
                writeln!(want, "== {fname} {pv:?}").unwrap();
                for (name, x) in expected(&sched, pv).unwrap() {
                    let a: Vec<String> = x.iter().map(|v| v.to_string()).collect();
                    writeln!(want, "{name}({})", a.join(", ")).unwrap();
                }
            }
        }
    }
    writeln!(src, "int main(void) {{\n{calls}  return 0;\n}}").unwrap();
    let dir = std::env::temp_dir().join(format!("codegen_c_{name}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("cases.c");
    let exe = dir.join("cases");
    std::fs::write(&c, &src).unwrap();
    let mut flags = vec!["-std=c99", "-Wall", "-Werror", "-O0"];
    let ubsan = [
        "-fsanitize=signed-integer-overflow",
        "-fno-sanitize-recover=all",
    ];
    if sanitizer_works(&dir) {
        flags.extend(ubsan);
    } else {
        eprintln!("no -fsanitize=signed-integer-overflow: overflow is not checked");
    }
    let cc = Command::new("cc")
        .args(&flags)
        .arg("-o")
        .arg(&exe)
        .arg(&c)
        .output()
        .unwrap();
    assert!(
        cc.status.success(),
        "cc failed:\n{}\n(source in {})",
        String::from_utf8_lossy(&cc.stderr),
        c.display()
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(
        run.status.success(),
        "the program failed: {}\n(source in {})",
        String::from_utf8_lossy(&run.stderr),
        c.display()
    );
    let got = String::from_utf8_lossy(&run.stdout).into_owned();
    if got != want {
        // the first differing case
        let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
        let k = g
            .iter()
            .zip(&w)
            .position(|(a, b)| a != b)
            .unwrap_or(g.len().min(w.len()));
        let header = w[..k.min(w.len())]
            .iter()
            .rev()
            .find(|l| l.starts_with("=="))
            .copied()
            .unwrap_or("");
        panic!(
            "the C output differs at line {k} ({header}): got {:?}, want {:?}\n(source in {})",
            g.get(k),
            w.get(k),
            c.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `cc` builds and runs a program with gcc's signed overflow check.
fn sanitizer_works(dir: &std::path::Path) -> bool {
    let c = dir.join("probe.c");
    let exe = dir.join("probe");
    std::fs::write(&c, "int main(void) { return 0; }\n").unwrap();
    let ok = Command::new("cc")
        .args(["-fsanitize=signed-integer-overflow", "-o"])
        .arg(&exe)
        .arg(&c)
        .output()
        .is_ok_and(|o| o.status.success());
    ok && Command::new(&exe).status().is_ok_and(|s| s.success())
}

#[test]
fn printed_c_compiles_and_runs_in_order() {
    // the parameters are `long long`, as `to_c` assumes by default
    compile_and_check("long", &cases(), "long long", &|_| ParamTypes::default());
}

/// Issue 45, item 3: statements whose inverse schedule is piecewise (a
/// disjunct of the domain fixes an iterator, as on the border of a grid;
/// overlapping disjuncts), compiled and run for several parameter values:
/// each instance printed once, in time order.
#[test]
fn piecewise_inverses_compile_and_run_in_order() {
    let border = "0 <= i, j < N and (i = 0 or i = N - 1 or j = 0 or j = N - 1)";
    let cases: Vec<(String, Vec<std::ops::RangeInclusive<i64>>)> = vec![
        ("{ S[i] -> [i] : i = 0 or i = 3 }".into(), vec![]),
        (
            format!("[N] -> {{ S[i, j] -> [i, j] : {border} }}"),
            vec![-1..=9],
        ),
        (
            format!("[N] -> {{ S[i, j] -> [j, i] : {border} }}"),
            vec![-1..=6],
        ),
        (
            format!(
                "[N] -> {{ S[i, j] -> [i, j, 0] : {border}; T[i, j] -> [i, j, 1] : 0 < i, j < N - 1 }}"
            ),
            vec![0..=6],
        ),
        (
            "{ S[i] -> [i] : 0 <= i <= 5 or 3 <= i <= 8 }".into(),
            vec![],
        ),
        (
            "[N] -> { S[i, j] -> [i, j] : (i = 0 and 0 <= j <= N) or (j = 0 and 0 <= i <= N) or \
             (0 <= i <= 1 and 0 <= j <= 1) }"
                .into(),
            vec![-1..=5],
        ),
        (
            "[Ncl] -> { S[j, 28] -> [j] : 1 <= j <= Ncl - 2 and 40 <= Ncl <= 256; \
             S[0, 26] -> [0] : 40 <= Ncl <= 256; S[Ncl - 1, 27] -> [Ncl - 1] : 40 <= Ncl <= 256 }"
                .into(),
            vec![39..=42],
        ),
        (
            "[n] -> { a[i, j, k, l] -> [i, j, 0, k, l] : 0 <= i, j, k, l <= n and \
             (i = 0 or j = 0 or i = n or j = n); b[i, j, k, l] -> [i, j, 1, k, l] : \
             0 <= i, j, k, l <= n and (i = 0 or j = 0 or i = n or j = n) }"
                .into(),
            vec![-1..=3],
        ),
    ];
    let cases: Vec<Case> = cases
        .into_iter()
        .map(|(text, r)| Case {
            values: combinations(&r),
            text,
        })
        .collect();
    compile_and_check("piecewise", &cases, "long long", &|_| ParamTypes::default());
}

#[test]
fn int_parameters_near_their_limits_are_computed_in_64_bits() {
    let max = i64::from(i32::MAX);
    let min = i64::from(i32::MIN);
    let cases = [
        (
            "[N] -> { S[i] -> [N + i] : 0 <= i < 2 }",
            vec![vec![max - 1], vec![max]],
        ),
        (
            "[N, M] -> { S[i] -> [i] : N + M - 2 <= i < N + M }",
            vec![vec![max, max], vec![max, min], vec![min, min]],
        ),
        (
            "[N] -> { S[i] -> [i] : 0 <= i < N and i >= N - 2 }",
            vec![vec![min], vec![max], vec![3]],
        ),
        (
            "[N] -> { S[i] -> [2i] : N - 2 <= i < N }",
            vec![vec![max], vec![min]],
        ),
        (
            "[N] -> { S[i, j] -> [i, 3N - i + j] : N - 2 <= i < N and 0 <= j < 2 }",
            vec![vec![max], vec![min + 2]],
        ),
        (
            "[N] -> { S[i] -> [floor(i / 3), i] : N - 4 <= i < N }",
            vec![vec![max], vec![min + 4]],
        ),
    ];
    let cases: Vec<Case> = cases
        .into_iter()
        .map(|(t, v)| Case {
            text: t.to_string(),
            values: v,
        })
        .collect();
    compile_and_check("int", &cases, "int", &|names| {
        let mut p = ParamTypes::default();
        for n in names {
            p.set_type(n, ParamCType::Int);
        }
        p
    });
}
