//! Distance and direction vectors of the kernels' dependences: hand-derived
//! values on a few kernels (a reduction, a time stencil, a decreasing loop),
//! and on every kernel the property that dependences go forward in time: over
//! the common loops, in each loop's order of execution, a distance vector is
//! lexicographically positive between instances of one statement and
//! non-negative between two statements.

mod common;

use common::kernel;
use presburger::{Int, Set};
use presburger_schedule::{Direction, Distance, Scop, dependences, distances};
use std::path::Path;

fn of(scop: &Scop) -> Vec<Distance> {
    distances(scop, &dependences(scop).unwrap()).unwrap()
}

fn find<'a>(ds: &'a [Distance], kind: &str, src: &str, tgt: &str) -> &'a Distance {
    ds.iter()
        .find(|d| d.kind == kind && d.source == src && d.target == tgt)
        .unwrap_or_else(|| panic!("no {kind} {src} -> {tgt}"))
}

fn dirs(d: &Distance) -> Vec<&'static str> {
    d.direction.iter().map(|x| x.symbol()).collect()
}

fn ints(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

#[test]
fn hand_derived_distances() {
    // gemm: C[i][j] accumulates over k; the value flows from k to k + 1
    let ds = of(&kernel("gemm"));
    let acc = find(&ds, "flow", "S1", "S1");
    assert_eq!(dirs(acc), ["=", "<", "="]);
    assert_eq!(acc.uniform, Some(ints(&[0, 1, 0])));
    let raw = find(&ds, "raw", "S1", "S1");
    assert_eq!(dirs(raw), ["=", "<", "="]);
    assert_eq!(
        raw.uniform, None,
        "every later k reads C[i][j]: not uniform"
    );
    assert_eq!(find(&ds, "flow", "S0", "S1").direction, [Direction::Same]);

    // jacobi-1d: B is written at t and read at t (flow) or later (raw);
    // A written at t is read at t + 1
    let ds = of(&kernel("jacobi-1d"));
    assert_eq!(dirs(find(&ds, "raw", "S0", "S1")), ["<="]);
    assert_eq!(dirs(find(&ds, "flow", "S0", "S1")), ["="]);
    let back = find(&ds, "flow", "S1", "S0");
    assert_eq!(back.uniform, Some(ints(&[1])));
    assert_eq!(back.direction, [Direction::Forward]);

    // backsub: i runs downwards; x[j] written at i = j is read at every
    // smaller i, a later iteration: negative differences, forward direction
    let ds = of(&kernel("backsub"));
    let d = find(&ds, "flow", "S2", "S1");
    assert_eq!(d.direction, [Direction::Forward]);
    let later: Set = "[N] -> { [d] : d <= -1 }".parse().unwrap();
    assert!(d.distances.is_subset(&later).unwrap(), "{}", d.distances);
}

/// `{ [d0, ..] : d lexicographically positive (or non-negative) }` with each
/// component taken in its loop's order of execution.
fn lex_forward(signs: &[i64], strict: bool) -> Set {
    let c = signs.len();
    let names: Vec<String> = (0..c).map(|k| format!("d{k}")).collect();
    let mut cases = Vec::new();
    for k in 0..c {
        let mut conj: Vec<String> = names[..k].iter().map(|n| format!("{n} = 0")).collect();
        conj.push(format!("{} * {} >= 1", signs[k], names[k]));
        cases.push(conj.join(" and "));
    }
    if !strict {
        let zero: Vec<String> = names.iter().map(|n| format!("{n} = 0")).collect();
        cases.push(if zero.is_empty() {
            "true".into()
        } else {
            zero.join(" and ")
        });
    }
    if cases.is_empty() {
        cases.push("false".into());
    }
    format!("{{ [{}] : {} }}", names.join(", "), cases.join(" or "))
        .parse()
        .unwrap()
}

#[test]
fn dependences_go_forward_on_every_kernel() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "c").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    assert!(names.len() >= 20);
    let mut checked = 0;
    for name in names {
        let scop = kernel(&name);
        for d in of(&scop) {
            let signs = &scop.statement(&d.source).unwrap().signs;
            let c = d.direction.len();
            let forward = lex_forward(&signs[..c], d.source == d.target);
            assert!(
                d.distances.is_subset(&forward).unwrap(),
                "{name}: {} {} -> {}: {} is not forward",
                d.kind,
                d.source,
                d.target,
                d.distances
            );
            // the first direction that is not `=` is not backward
            if let Some(first) = d.direction.iter().find(|x| **x != Direction::Same) {
                assert!(
                    !matches!(first, Direction::Backward | Direction::BackwardOrSame),
                    "{name}: {} {} -> {}",
                    d.kind,
                    d.source,
                    d.target
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}
