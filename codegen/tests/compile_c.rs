//! The printed C compiles with `cc -std=c99 -Wall -Werror` (with the helper
//! macros of `Macro::definition` and statement macros that print their
//! arguments) and, run for several parameter values, prints exactly the
//! scheduled instances in time order (enumerated by `presburger`). All cases
//! go into one C file, compiled once. Skipped (with a message) when no `cc`
//! is installed.

mod common;
use codegen::{generate, Macro, Options};
use common::{combinations, expected, random_schedule, Rng};
use std::fmt::Write as _;
use std::process::Command;

struct Case {
    text: String,
    values: Vec<Vec<i64>>,
}

fn cases() -> Vec<Case> {
    let fixed: &[(&str, &[std::ops::RangeInclusive<i64>])] = &[
        ("[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 1] : 0 <= i < N }", &[-1..=4]),
        ("[N] -> { S[i, j] -> [i, j] : 0 <= j <= i < N }", &[0..=4]),
        ("[T, N] -> { S[t, i] -> [t, 2t + i] : 0 <= t < T and 1 <= i < N - 1 }", &[0..=3, 0..=5]),
        ("[N] -> { S[i] -> [2i + 1] : 0 <= i < N; T[i] -> [3i] : 0 <= i < N }", &[0..=6]),
        ("[N] -> { S[i, j] -> [2i + j, j] : 0 <= i, j < N }", &[0..=4]),
        ("[N] -> { S[i] -> [floor(i/4), i] : 0 <= i < N }", &[0..=9]),
        ("[N] -> { S[i] -> [-i] : 0 <= i < N and i mod 3 = 1 }", &[0..=8]),
        ("[N] -> { S[i, j] -> [i, j] : 0 <= i, j < N and (i <= 1 or j >= 3) }", &[0..=5]),
        ("[N] -> { S[i] -> [i] : 0 <= i < N and N mod 2 = 0 }", &[0..=5]),
        ("[N] -> { S[i, j] -> [i + j, i - j] : 0 <= i, j < N }", &[0..=4]),
        ("[N, M] -> { S[i, j] -> [i, j] : 0 <= i < N and 0 <= j < M; T[i, j] -> [i, j] : 0 <= j <= i < N }", &[0..=3, -1..=3]),
        ("{ S[] -> [0]; T[i] -> [i] : 1 <= i <= 3; U[] -> [2] }", &[]),
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

#[test]
fn printed_c_compiles_and_runs_in_order() {
    if Command::new("cc").arg("--version").output().is_err() {
        eprintln!("no cc: the C test is skipped");
        return;
    }
    let cases = cases();
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
                let fmt: Vec<&str> = (0..n).map(|_| "%ld").collect();
                let vals: String = args.iter().map(|a| format!(", (long)({a})")).collect();
                writeln!(
                    src,
                    "#define {name}({}) printf(\"{name}({})\\n\"{vals})",
                    args.join(", "),
                    fmt.join(", ")
                )
                .unwrap();
                macros.push(name);
            }
            let params: Vec<String> = sched.params().iter().map(|p| format!("long {p}")).collect();
            let params = if params.is_empty() {
                "void".to_string()
            } else {
                params.join(", ")
            };
            writeln!(src, "static void {fname}({params}) {{").unwrap();
            for line in ast.to_c().lines() {
                writeln!(src, "  {line}").unwrap();
            }
            src.push_str("}\n");
            for m in macros {
                writeln!(src, "#undef {m}").unwrap();
            }
            for pv in &case.values {
                let args: Vec<String> = pv.iter().map(|v| v.to_string()).collect();
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
    let dir = std::env::temp_dir().join(format!("codegen_c_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("cases.c");
    let exe = dir.join("cases");
    std::fs::write(&c, &src).unwrap();
    let cc = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Werror", "-O0", "-o"])
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
    assert!(run.status.success());
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
