//! Replays the brute-force checkers of the fuzz targets without cargo-fuzz: the
//! committed inputs in `fuzz/seeds/<target>/` (regressions and seeds) and a
//! bounded number of fresh deterministic random cases.
// The closures instantiate the generic runners for each source (a function pointer
// to a generic fn over `Bytes<'a>` does not fit `fn(&mut Bytes)`).
#![allow(clippy::redundant_closure)]

use presburger_fuzz::{
    Bytes, Rng, Shape, Source, check_algebra, check_emptiness, check_round_trip, check_sdbm,
    random_sdbm, random_set, random_set_in,
};
use std::path::PathBuf;

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("seeds")
        .join(target);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
        .collect()
}

fn run_emptiness(src: &mut impl Source) -> Result<(), String> {
    let shape = Shape::random(src);
    check_emptiness(&random_set_in(src, shape, true))
}

fn run_algebra(src: &mut impl Source) -> Result<(), String> {
    let shape = Shape::random(src);
    let x = random_set_in(src, shape, true);
    let y = random_set_in(src, shape, true);
    check_algebra(&x, &y)
}

fn run_sdbm(src: &mut impl Source) -> Result<(), String> {
    check_sdbm(&random_sdbm(src))
}

/// As the `parse` target: an odd first byte asks for generated text, anything else
/// is read as raw text.
fn run_parse_bytes(data: &[u8]) -> Result<(), String> {
    match data.split_first() {
        Some((first, rest)) if first % 2 == 1 => run_parse(&mut Bytes(rest)),
        _ => match std::str::from_utf8(data) {
            Ok(text) => check_round_trip(text, false),
            Err(_) => Ok(()),
        },
    }
}

fn run_parse(src: &mut impl Source) -> Result<(), String> {
    let shape = Shape::random(src);
    check_round_trip(&random_set(src, shape), true)
}

fn replay(
    target: &str,
    cases: u64,
    f: fn(&mut Rng) -> Result<(), String>,
    g: fn(&mut Bytes) -> Result<(), String>,
) {
    for s in seeds(target) {
        g(&mut Bytes(&s)).unwrap_or_else(|m| panic!("{target} seed: {m}"));
    }
    let mut rng = Rng::new(7 + cases);
    for k in 0..cases {
        f(&mut rng).unwrap_or_else(|m| panic!("{target} case {k}: {m}"));
    }
}

#[test]
fn emptiness_bruteforce() {
    replay(
        "emptiness_bruteforce",
        300,
        |r| run_emptiness(r),
        |b| run_emptiness(b),
    );
}

#[test]
fn algebra_bruteforce() {
    replay(
        "algebra_bruteforce",
        150,
        |r| run_algebra(r),
        |b| run_algebra(b),
    );
}

#[test]
fn sdbm_vs_simplex() {
    replay("sdbm_vs_simplex", 1000, |r| run_sdbm(r), |b| run_sdbm(b));
}

#[test]
fn parse_round_trip() {
    for s in seeds("parse") {
        run_parse_bytes(&s).unwrap_or_else(|m| panic!("parse seed: {m}"));
    }
    let mut rng = Rng::new(11);
    for k in 0..2000 {
        run_parse(&mut rng).unwrap_or_else(|m| panic!("parse case {k}: {m}"));
    }
}
