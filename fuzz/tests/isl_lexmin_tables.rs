//! isl's own tests of lexicographic optima and of `dim_max`/`dim_min`, run
//! against ours and against isl 0.25 through the bindings.
//!
//! The inputs and expected results come from isl's test file `isl_test.c`:
//! the table `lexmin_tests` (map, expected `isl_map_lexmin`), the other inputs
//! of `test_lexmin` (a map with many existentials whose lexmin isl only
//! computes; a set whose `isl_set_lexmax` must meet `C = 8`; a single-valued
//! map and a single-valued set whose lexmin as a function must have the input
//! as its graph), and the inputs of `test_dim_max`, `test_dim_max_1` and
//! `test_dim_max_2` (set, dimension, expected graph of `isl_set_dim_max` or
//! `isl_set_dim_min` as a set, or the expected number of pieces). The one
//! input of `test_dim_max` that isl builds as the range of a map is written
//! here as that range.
//!
//! Checked for every entry:
//! - ours equals isl's (our printed result read by isl, `isl_map_is_equal` /
//!   `isl_set_is_equal`; for `dim_max`/`dim_min` the graphs of the two
//!   functions, `isl_map_from_pw_aff` on isl's side);
//! - isl's result equals the expected result where `isl_test.c` states one,
//!   and ours does too (by our own algebra);
//! - every entry is also run with the other direction (lexmax for lexmin,
//!   `dim_min` for `dim_max`), with no expected result: ours against isl's.
//!
//! An unbounded optimum must give our `Error::Unbounded`; isl's answer is
//! printed (isl 0.25 fails, with a null result, for `isl_map_lexmax`,
//! `isl_set_lexmin` and `isl_set_dim_max` alike; both count as agreeing).
//!
//! The rational entries (`{ rat: .. }`, the last two of `lexmin_tables`) are
//! read as our [`RationalSet`] and as an isl set, and compared both ways:
//! ours printed and read by isl is `isl_set_is_equal` to isl's, and isl's
//! printed and read by us is rationally equal to ours
//! ([`RationalSet::is_equal`]); the expected result likewise.
//!
//! Entries that fail are listed in [`KNOWN_FAILURES`]; `isl_lexmin_tables`
//! fails on any other failure, and the ignored
//! `isl_lexmin_tables_known_failures` on those.
//!
//!     cargo test --release --test isl_lexmin_tables -- --nocapture
//!
//! Needs the system isl (`apt-get install libisl-dev`).

use presburger::{Budget, Error, Map, PwAff, RationalSet, Set};
use presburger_fuzz::isl::Ctx;
use std::time::Instant;

/// Our work per optimum: the default budget of `Map::lexmin` and the like.
const OUR_STEPS: u64 = Budget::DEFAULT_STEPS;

/// `lexmin_tests` of `isl_test.c`: a map and isl's expected `isl_map_lexmin`.
const LEXMIN_TESTS: &[(&str, &str)] = &[
    (
        "{ [x] -> [y] : x <= y <= 10; [x] -> [5] : -8 <= x <= 8 }",
        "{ [x] -> [5] : 6 <= x <= 8; [x] -> [x] : x <= 5 or (9 <= x <= 10) }",
    ),
    (
        "{ [x] -> [y] : 4y = x or 4y = -1 + x or 4y = -2 + x }",
        "{ [x] -> [y] : 4y = x or 4y = -1 + x or 4y = -2 + x }",
    ),
    (
        "{ [x] -> [y] : x = 4y; [x] -> [y] : x = 2y }",
        "{ [x] -> [y] : (4y = x and x >= 0) or \
         (exists (e0 = [(x)/4], e1 = [(-2 + x)/4]: 2y = x and \
         4e1 = -2 + x and 4e0 <= -1 + x and 4e0 >= -3 + x)) or \
         (exists (e0 = [(x)/4]: 2y = x and 4e0 = x and x <= -4)) }",
    ),
    (
        "{ T[a] -> S[b, c] : a = 4b-2c and c >= b }",
        "{ T[a] -> S[b, c] : 2b = a and 2c = a }",
    ),
    // "Check that empty pieces are properly combined."
    (
        "[K, N] -> { [x, y] -> [a, b] : K+2<=N<=K+4 and x>=4 and \
         2N-6<=x<K+N and N-1<=a<=K+N-1 and N+b-6<=a<=2N-4 and \
         b<=2N-3K+a and 3b<=4N-K+1 and b>=N and a>=x+1 }",
        "[K, N] -> { [x, y] -> [1 + x, N] : x >= -6 + 2N and \
         x <= -5 + 2N and x >= -1 + 3K - N and x <= -2 + K + N and \
         x >= 4 }",
    ),
    (
        "{ [i, k, j] -> [a, b, c, d] : 8*floor((b)/8) = b and k <= 255 and \
         a <= 255 and c <= 255 and d <= 255 - j and \
         255 - j <= 7d <= 7 - i and 240d <= 239 + a and \
         247d <= 247 + k - j and 247d <= 247 + k - b and \
         247d <= 247 + i and 248 - b <= 248d <= c and \
         254d >= i - a + b and 254d >= -a + b and \
         255d >= -i + a - b and 1792d >= -63736 + 257b }",
        "{ [i, k, j] -> \
         [-127762 + i + 502j, -62992 + 248j, 63240 - 248j, 255 - j] : \
         k <= 255 and 7j >= 1778 + i and 246j >= 62738 - k and \
         247j >= 62738 - i and 509j <= 129795 + i and \
         742j >= 188724 - i; \
         [0, k, j] -> [1, 0, 248, 1] : k <= 255 and 248 <= j <= 254, k }",
    ),
    (
        "{ [a] -> [b] : 0 <= b <= 255 and -509 + a <= 512b < a and \
         16*floor((8 + b)/16) <= 7 + b; [a] -> [1] }",
        "{ [a] -> [b = 1] : a >= 510 or a <= 0; [a] -> [b = 0] : 0 < a <= 509 }",
    ),
    ("{ rat: [i] : 1 <= 2i <= 9 }", "{ rat: [i] : 2i = 1 }"),
    (
        "{ rat: [i] : 1 <= 2i <= 9 or i >= 10 }",
        "{ rat: [i] : 2i = 1 }",
    ),
];

/// The map of `test_lexmin` whose `isl_map_lexmin` isl computes without an
/// expected result (a past failure of isl's).
const LEXMIN_EXISTENTIALS: &str = "[p0, p1] -> { [] -> [] : \
    exists (e0 = [(2p1)/3], e1, e2, e3 = [(3 - p1 + 3e0)/3], \
    e4 = [(p1)/3], e5 = [(p1 + 3e4)/3]: \
    3e0 >= -2 + 2p1 and 3e0 >= p1 and 3e3 >= 1 - p1 + 3e0 and \
    3e0 <= 2p1 and 3e3 >= -2 + p1 and 3e3 <= -1 + p1 and p1 >= 3 and \
    3e5 >= -2 + 2p1 and 3e5 >= p1 and 3e5 <= -1 + p1 + 3e4 and \
    3e4 <= p1 and 3e4 >= -2 + p1 and e3 <= -1 + e0 and \
    3e4 >= 6 - p1 + 3e1 and 3e1 >= p1 and 3e5 >= -2 + p1 + 3e4 and \
    2e4 >= 3 - p1 + 2e1 and e4 <= e1 and 3e3 <= 2 - p1 + 3e0 and \
    e5 >= 1 + e1 and 3e4 >= 6 - 2p1 + 3e1 and \
    p0 >= 2 and p1 >= p0 and 3e2 >= p1 and 3e4 >= 6 - p1 + 3e2 and \
    e2 <= e1 and e3 >= 1 and e4 <= e2) }";

/// The set of `test_lexmin` whose `isl_set_lexmax` must meet the second set
/// (`C = 8`).
const LEXMAX_KNAPSACK: (&str, &str) = (
    "[C] -> { [obj,a,b,c] : obj <= 38 a + 7 b + 10 c and \
     a + b <= 1 and c <= 10 b and c <= C and a,b,c,C >= 0 }",
    "[C] -> { [obj,a,b,c] : C = 8 }",
);

/// The single-valued map (`isl_basic_map_lexmin_pw_multi_aff`) and set
/// (`isl_set_lexmin_pw_multi_aff`) of `test_lexmin`: the graph of the lexmin
/// as a function is the input.
const LEXMIN_SINGLE_VALUED_MAP: &str = "{ [i] -> [i', j] : j = i - 8i' and i' >= 0 and i' <= 7 and \
     8i' <= i and 8i' >= -7 + i }";
const LEXMIN_SINGLE_VALUED_SET: &str = "[i] -> { [i', j] : j = i - 8i' and i' >= 0 and i' <= 7 and \
     8i' <= i and 8i' >= -7 + i }";

/// A `dim_max`/`dim_min` entry of `test_dim_max`.
struct DimTest {
    set: &'static str,
    pos: usize,
    maximize: bool,
    /// isl's expected graph (`isl_set_from_pw_aff`), where stated.
    expected: Option<&'static str>,
    /// isl's expected number of pieces, where stated.
    pieces: Option<usize>,
}

/// The range of `test_dim_max`'s `[N,M] -> { [i,j] -> [([i/16]), i%16,
/// ([j/16]), j%16] : 0 <= i < N and 0 <= j < M }`.
const TILED_RANGE: &str = "[N, M] -> { [a, b, c, d] : exists (i, j : \
    0 <= i < N and 0 <= j < M and a = floor(i/16) and b = i mod 16 and \
    c = floor(j/16) and d = j mod 16) }";

const DIM_TESTS: &[DimTest] = &[
    // test_dim_max_1
    DimTest {
        set: "[n] -> { [a, b] : n >= 0 and 4a >= -4 + n and b >= 0 and \
              -4a <= b <= 3 and b < n - 4a }",
        pos: 0,
        maximize: false,
        expected: None,
        pieces: Some(1),
    },
    // test_dim_max_2
    DimTest {
        set: "[P, N] -> { [a] : a < N and a >= 0 and N > P and a <= P and \
              N > 0 and P >= 0 }",
        pos: 0,
        maximize: true,
        expected: None,
        pieces: Some(1),
    },
    DimTest {
        set: "[N] -> { [i] : 0 <= i <= min(N,10) }",
        pos: 0,
        maximize: true,
        expected: Some("[N] -> { [10] : N >= 10; [N] : N <= 9 and N >= 0 }"),
        pieces: None,
    },
    DimTest {
        set: "[N] -> { [i] : 0 <= i <= max(2N,N+6) }",
        pos: 0,
        maximize: true,
        expected: Some("[N] -> { [6 + N] : -6 <= N <= 5; [2N] : N >= 6 }"),
        pieces: None,
    },
    DimTest {
        set: "[N] -> { [i] : 0 <= i <= 2N or 0 <= i <= N+6 }",
        pos: 0,
        maximize: true,
        expected: Some("[N] -> { [6 + N] : -6 <= N <= 5; [2N] : N >= 6 }"),
        pieces: None,
    },
    DimTest {
        set: TILED_RANGE,
        pos: 0,
        maximize: true,
        expected: Some("[N,M] -> { [([(N-1)/16])] : M,N > 0 }"),
        pieces: None,
    },
    DimTest {
        set: TILED_RANGE,
        pos: 3,
        maximize: true,
        expected: Some("[N,M] -> { [t] : t = min(M-1,15) and M,N > 0 }"),
        pieces: None,
    },
    // "Check that solutions are properly merged."
    DimTest {
        set: "[n] -> { [a, b, c] : c >= -4a - 2b and \
              c <= -1 + n - 4a - 2b and c >= -2b and \
              4a >= -4 + n and c >= 0 }",
        pos: 2,
        maximize: false,
        expected: Some("[n] -> { [(0)] : n >= 1 }"),
        pieces: None,
    },
    // "Check that empty solution lie in the right space."
    DimTest {
        set: "[n] -> { [t,a] : 1 = 0 }",
        pos: 0,
        maximize: true,
        expected: Some("[n] -> { [t] : 1 = 0 }"),
        pieces: None,
    },
];

/// Entries that fail (by name, as printed), with the reason: none since the
/// PIP context keeps samples and solves equalities (`lexmin_tests[5]` ran out
/// of budget before) and `rat:` sets are read as [`RationalSet`]s.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

/// Our budget per call.
fn budget() -> Budget {
    Budget::new(OUR_STEPS)
}

/// What one entry gave: `Ok(note)` agreed, `Err(reason)` failed.
type Outcome = Result<String, String>;

/// Compares our lexmin/lexmax of a map with isl's and with `expected`.
fn check_map(ctx: &Ctx, text: &str, maximize: bool, expected: Option<&str>) -> Outcome {
    let ours_in: Map = text.parse().map_err(|e| format!("our parser: {e}"))?;
    let isl_in = ctx.read_map(text).ok_or("isl's parser rejects the input")?;
    let clock = Instant::now();
    let ours = if maximize {
        ours_in.lexmax_with_budget(&mut budget())
    } else {
        ours_in.lexmin_with_budget(&mut budget())
    };
    let ours_time = clock.elapsed();
    let clock = Instant::now();
    let theirs = isl_in.lexopt(maximize);
    let isl_time = clock.elapsed();
    let ours = match (ours, &theirs) {
        (Err(Error::Unbounded(_)), None) => {
            return Ok("unbounded: ours Error::Unbounded, isl fails (null map)".into());
        }
        (Err(Error::Unbounded(_)), Some(t)) => {
            return Err(format!("ours unbounded, isl gives {}", t.to_text()));
        }
        (Err(e), _) => {
            return Err(format!(
                "ours fails after {ours_time:.2?}: {e}; isl takes {isl_time:.2?}"
            ));
        }
        (Ok(o), None) => return Err(format!("isl fails, ours gives {o}")),
        (Ok(o), Some(_)) => o,
    };
    let theirs = theirs.ok_or("isl fails")?;
    let back = ctx
        .read_map(&ours.to_string())
        .ok_or_else(|| format!("isl cannot read ours: {ours}"))?;
    if back.is_equal(&theirs) != Some(true) {
        return Err(format!("ours {ours}, isl {}", theirs.to_text()));
    }
    if let Some(want) = expected {
        let isl_want = ctx.read_map(want).ok_or("isl rejects the expected map")?;
        if theirs.is_equal(&isl_want) != Some(true) {
            return Err(format!(
                "isl's {} is not the expected one",
                theirs.to_text()
            ));
        }
        let our_want: Map = want
            .parse()
            .map_err(|e| format!("our parser, expected: {e}"))?;
        if !ours.is_equal(&our_want).map_err(|e| e.to_string())? {
            return Err(format!("ours {ours} is not the expected one (our algebra)"));
        }
        return Ok(format!("= isl = expected ({} disjuncts)", ours.n_basic()));
    }
    Ok(format!("= isl ({} disjuncts)", ours.n_basic()))
}

/// Compares our rational lexmin/lexmax of a rational set (`{ rat: .. }`) with
/// isl's `isl_set_lexmin`/`isl_set_lexmax` and with `expected`, both ways:
/// ours read by isl (`isl_set_is_equal`) and isl's read by us
/// ([`RationalSet::is_equal`], rational points).
fn check_rational(ctx: &Ctx, text: &str, maximize: bool, expected: Option<&str>) -> Outcome {
    let ours_in: RationalSet = text.parse().map_err(|e| format!("our parser: {e}"))?;
    let isl_in = ctx.read_set(text).ok_or("isl's parser rejects the input")?;
    let ours = if maximize {
        ours_in.lexmax()
    } else {
        ours_in.lexmin()
    };
    let theirs = isl_in.lexopt(maximize);
    let ours = match (ours, &theirs) {
        (Err(Error::Unbounded(_)), None) => {
            return Ok("unbounded: ours Error::Unbounded, isl fails (null set)".into());
        }
        (Err(Error::Unbounded(_)), Some(t)) => {
            return Err(format!("ours unbounded, isl gives {}", t.to_text()));
        }
        (Err(e), _) => return Err(format!("ours fails: {e}")),
        (Ok(o), None) => return Err(format!("isl fails, ours gives {o}")),
        (Ok(o), Some(_)) => o,
    };
    let theirs = theirs.ok_or("isl fails")?;
    let back = ctx
        .read_set(&ours.to_string())
        .ok_or_else(|| format!("isl cannot read ours: {ours}"))?;
    if back.is_equal(&theirs) != Some(true) {
        return Err(format!("ours {ours}, isl {}", theirs.to_text()));
    }
    let theirs_read: RationalSet = theirs
        .to_text()
        .parse()
        .map_err(|e| format!("we cannot read isl's {}: {e}", theirs.to_text()))?;
    if !ours.is_equal(&theirs_read).map_err(|e| e.to_string())? {
        return Err(format!(
            "ours {ours}, isl {} (by our rational algebra)",
            theirs.to_text()
        ));
    }
    if let Some(want) = expected {
        let isl_want = ctx.read_set(want).ok_or("isl rejects the expected set")?;
        if theirs.is_equal(&isl_want) != Some(true) {
            return Err(format!(
                "isl's {} is not the expected one",
                theirs.to_text()
            ));
        }
        let our_want: RationalSet = want
            .parse()
            .map_err(|e| format!("our parser, expected: {e}"))?;
        if !ours.is_equal(&our_want).map_err(|e| e.to_string())? {
            return Err(format!("ours {ours} is not the expected one (our algebra)"));
        }
        return Ok(format!("= isl = expected (rational: {ours})"));
    }
    Ok(format!("= isl (rational: {ours})"))
}

/// Compares our lexmin_set/lexmax_set of a set with isl's and with `expected`;
/// returns our result as well.
fn check_set(
    ctx: &Ctx,
    text: &str,
    maximize: bool,
    expected: Option<&str>,
) -> Result<(String, Option<Set>), String> {
    let ours_in: Set = text.parse().map_err(|e| format!("our parser: {e}"))?;
    let isl_in = ctx.read_set(text).ok_or("isl's parser rejects the input")?;
    let ours = if maximize {
        ours_in.lexmax_set_with_budget(&mut budget())
    } else {
        ours_in.lexmin_set_with_budget(&mut budget())
    };
    let theirs = isl_in.lexopt(maximize);
    let ours = match (ours, &theirs) {
        (Err(Error::Unbounded(_)), None) => {
            return Ok((
                "unbounded: ours Error::Unbounded, isl fails (null set)".into(),
                None,
            ));
        }
        (Err(Error::Unbounded(_)), Some(t)) => {
            return Err(format!("ours unbounded, isl gives {}", t.to_text()));
        }
        (Err(e), _) => return Err(format!("ours fails: {e}")),
        (Ok(o), None) => return Err(format!("isl fails, ours gives {o}")),
        (Ok(o), Some(_)) => o,
    };
    let theirs = theirs.ok_or("isl fails")?;
    let back = ctx
        .read_set(&ours.to_string())
        .ok_or_else(|| format!("isl cannot read ours: {ours}"))?;
    if back.is_equal(&theirs) != Some(true) {
        return Err(format!("ours {ours}, isl {}", theirs.to_text()));
    }
    let mut note = format!("= isl ({} disjuncts)", ours.n_basic());
    if let Some(want) = expected {
        let isl_want = ctx.read_set(want).ok_or("isl rejects the expected set")?;
        if theirs.is_equal(&isl_want) != Some(true) {
            return Err(format!(
                "isl's {} is not the expected one",
                theirs.to_text()
            ));
        }
        let our_want: Set = want
            .parse()
            .map_err(|e| format!("our parser, expected: {e}"))?;
        if !ours.is_equal(&our_want).map_err(|e| e.to_string())? {
            return Err(format!("ours {ours} is not the expected one (our algebra)"));
        }
        note = format!("= isl = expected ({} disjuncts)", ours.n_basic());
    }
    Ok((note, Some(ours)))
}

/// Compares our dim_max/dim_min with isl's by their graphs, and with the
/// expected graph and number of pieces. The functions are of the parameters
/// only, so their graphs are sets (`isl_set_from_pw_aff`; `isl_map_from_pw_aff`
/// rejects a function on a parameter domain): ours is the range of
/// [`PwAff::as_map`].
fn check_dim(ctx: &Ctx, t: &DimTest, maximize: bool, with_expected: bool) -> Outcome {
    let ours_in: Set = t.set.parse().map_err(|e| format!("our parser: {e}"))?;
    let isl_in = ctx
        .read_set(t.set)
        .ok_or("isl's parser rejects the input")?;
    let ours: presburger::Result<PwAff> = if maximize {
        ours_in.dim_max_with_budget(t.pos, &mut budget())
    } else {
        ours_in.dim_min_with_budget(t.pos, &mut budget())
    };
    let theirs = isl_in.dim_opt(t.pos, maximize);
    let (ours, theirs) = match (ours, theirs) {
        (Err(Error::Unbounded(_)), None) => {
            return Ok("unbounded: ours Error::Unbounded, isl fails (null pw_aff)".into());
        }
        (Err(Error::Unbounded(_)), Some(t)) => {
            return Err(format!("ours unbounded, isl gives {}", t.to_text()));
        }
        (Err(e), _) => return Err(format!("ours fails: {e}")),
        (Ok(o), None) => return Err(format!("isl fails, ours gives {o}")),
        (Ok(o), Some(t)) => (o, t),
    };
    let graph = ours
        .as_map()
        .map_err(|e| format!("our graph: {e}"))?
        .range();
    let isl_graph = theirs.graph_set(ctx).ok_or("isl_set_from_pw_aff fails")?;
    let back = ctx
        .read_set(&graph.to_string())
        .ok_or_else(|| format!("isl cannot read our graph: {graph}"))?;
    if back.is_equal(&isl_graph) != Some(true) {
        return Err(format!(
            "ours {ours} (graph {graph}), isl {}",
            theirs.to_text()
        ));
    }
    let mut note = format!("= isl ({} pieces: {ours})", ours.n_piece());
    if !with_expected {
        return Ok(note);
    }
    if let Some(want) = t.expected {
        let isl_want = ctx.read_set(want).ok_or("isl rejects the expected set")?;
        if isl_graph.is_equal(&isl_want) != Some(true) {
            return Err(format!(
                "isl's {} is not the expected one",
                isl_graph.to_text()
            ));
        }
        let our_want: Set = want
            .parse()
            .map_err(|e| format!("our parser, expected: {e}"))?;
        if !graph.is_equal(&our_want).map_err(|e| e.to_string())? {
            return Err(format!(
                "ours {graph} is not the expected one (our algebra)"
            ));
        }
        note = format!("= isl = expected ({} pieces: {ours})", ours.n_piece());
    }
    if let Some(n) = t.pieces.filter(|&n| ours.n_piece() != n) {
        return Err(format!(
            "= isl, but {} pieces where isl expects {n}: {ours}",
            ours.n_piece()
        ));
    }
    Ok(note)
}

/// Runs every entry; returns (name, outcome) in order.
fn run_all() -> Vec<(String, Outcome)> {
    let ctx = Ctx::new();
    let mut out = Vec::new();
    for (k, (map, want)) in LEXMIN_TESTS.iter().enumerate() {
        for maximize in [false, true] {
            let name = format!(
                "lexmin_tests[{k}] {}",
                if maximize { "lexmax" } else { "lexmin" }
            );
            let expected = (!maximize).then_some(*want);
            let outcome = if map.contains("rat:") {
                check_rational(&ctx, map, maximize, expected)
            } else {
                check_map(&ctx, map, maximize, expected)
            };
            out.push((name, outcome));
        }
    }
    for maximize in [false, true] {
        let name = format!(
            "test_lexmin existentials {}",
            if maximize { "lexmax" } else { "lexmin" }
        );
        out.push((name, check_map(&ctx, LEXMIN_EXISTENTIALS, maximize, None)));
    }
    // the knapsack set: isl's lexmax must meet C = 8
    for maximize in [true, false] {
        let name = format!(
            "test_lexmin knapsack {}",
            if maximize { "lexmax" } else { "lexmin" }
        );
        let r = check_set(&ctx, LEXMAX_KNAPSACK.0, maximize, None).and_then(|(note, ours)| {
            let (Some(ours), true) = (ours, maximize) else {
                return Ok(note);
            };
            let c8: Set = LEXMAX_KNAPSACK
                .1
                .parse()
                .map_err(|e: Error| e.to_string())?;
            let meet = ours.intersect(&c8).map_err(|e| e.to_string())?;
            if meet.is_empty().map_err(|e| e.to_string())? {
                return Err(format!("ours {ours} does not meet C = 8"));
            }
            Ok(format!("{note}, meets C = 8"))
        });
        out.push((name, r));
    }
    // single-valued: the lexmin is the input, and so is the graph of the
    // lexmin as a function
    for maximize in [false, true] {
        let which = if maximize { "lexmax" } else { "lexmin" };
        let name = format!("test_lexmin single-valued map {which}");
        let r = check_map(
            &ctx,
            LEXMIN_SINGLE_VALUED_MAP,
            maximize,
            Some(LEXMIN_SINGLE_VALUED_MAP),
        )
        .and_then(|note| {
            let m: Map = LEXMIN_SINGLE_VALUED_MAP
                .parse()
                .map_err(|e: Error| e.to_string())?;
            let f = if maximize {
                m.lexmax_pw_multi_aff()
            } else {
                m.lexmin_pw_multi_aff()
            }
            .map_err(|e| format!("our {which}_pw_multi_aff: {e}"))?;
            let g = f.as_map().map_err(|e| e.to_string())?;
            if !g.is_equal(&m).map_err(|e| e.to_string())? {
                return Err(format!(
                    "graph of our {which}_pw_multi_aff {f} is not the map"
                ));
            }
            let isl_m = ctx.read_map(LEXMIN_SINGLE_VALUED_MAP).ok_or("isl parser")?;
            let back = ctx
                .read_map(&g.to_string())
                .ok_or("isl cannot read our graph")?;
            if back.is_equal(&isl_m) != Some(true) {
                return Err(format!("isl: graph of our {f} is not the map"));
            }
            Ok(format!("{note}; graph of {which}_pw_multi_aff = input"))
        });
        out.push((name, r));
        let name = format!("test_lexmin single-valued set {which}");
        let r = check_set(
            &ctx,
            LEXMIN_SINGLE_VALUED_SET,
            maximize,
            Some(LEXMIN_SINGLE_VALUED_SET),
        )
        .and_then(|(note, _)| {
            let s: Set = LEXMIN_SINGLE_VALUED_SET
                .parse()
                .map_err(|e: Error| e.to_string())?;
            let f = if maximize {
                s.lexmax_pw_multi_aff()
            } else {
                s.lexmin_pw_multi_aff()
            }
            .map_err(|e| format!("our {which}_pw_multi_aff: {e}"))?;
            let g = f.as_set().map_err(|e| e.to_string())?;
            if !g.is_equal(&s).map_err(|e| e.to_string())? {
                return Err(format!(
                    "graph of our {which}_pw_multi_aff {f} is not the set"
                ));
            }
            let isl_s = ctx.read_set(LEXMIN_SINGLE_VALUED_SET).ok_or("isl parser")?;
            let back = ctx
                .read_set(&g.to_string())
                .ok_or("isl cannot read our graph")?;
            if back.is_equal(&isl_s) != Some(true) {
                return Err(format!("isl: graph of our {f} is not the set"));
            }
            Ok(format!("{note}; graph of {which}_pw_multi_aff = input"))
        });
        out.push((name, r));
    }
    for (k, t) in DIM_TESTS.iter().enumerate() {
        for other in [false, true] {
            let maximize = t.maximize != other;
            let name = format!(
                "test_dim_max[{k}] {}({})",
                if maximize { "dim_max" } else { "dim_min" },
                t.pos
            );
            out.push((name, check_dim(&ctx, t, maximize, !other)));
        }
    }
    out
}

/// Prints every outcome; returns the failures not in [`KNOWN_FAILURES`] and
/// the known failures that failed.
fn report(outcomes: &[(String, Outcome)]) -> (Vec<String>, Vec<String>) {
    let known = |n: &str| {
        KNOWN_FAILURES
            .iter()
            .find(|(k, _)| *k == n)
            .map(|(_, why)| *why)
    };
    let (mut new, mut old) = (Vec::new(), Vec::new());
    for (name, o) in outcomes {
        match (o, known(name)) {
            (Ok(note), None) => println!("ok    {name}: {note}"),
            (Ok(note), Some(_)) => println!("ok    {name} (listed as a known failure): {note}"),
            (Err(e), Some(why)) => {
                println!("KNOWN {name}: {why}: {e}");
                old.push(format!("{name}: {e}"));
            }
            (Err(e), None) => {
                println!("FAIL  {name}: {e}");
                new.push(format!("{name}: {e}"));
            }
        }
    }
    let ok = outcomes.iter().filter(|(_, o)| o.is_ok()).count();
    println!(
        "{} entries: {ok} agree, {} known failures, {} new failures",
        outcomes.len(),
        old.len(),
        new.len()
    );
    (new, old)
}

#[test]
fn isl_lexmin_tables() {
    let (new, _) = report(&run_all());
    assert!(new.is_empty(), "{new:#?}");
}

/// The entries of [`KNOWN_FAILURES`], which fail.
#[test]
#[ignore]
fn isl_lexmin_tables_known_failures() {
    let (_, old) = report(&run_all());
    assert!(old.is_empty(), "{old:#?}");
}
