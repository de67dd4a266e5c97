//! Criterion microbenchmarks for the workspace (emptiness checks first).
//!
//! The benchmarks live in `benches/benches/*.rs` and run with `cargo bench -p presburger-benches`.
//! This library part holds the problem generators they share. Every generator returns
//! `(name, set, expected_empty)` triples built by parsing isl text; the expected
//! answers are known by construction or worked out by hand (see the comments), and
//! the unit tests below check them against brute-force enumeration and the solver.
#![forbid(unsafe_code)]

use presburger::BasicSet;

/// A named benchmark problem and whether it is empty (has no integer point for any
/// parameter value).
pub type Problem = (String, BasicSet, bool);

fn problem(name: &str, text: &str, empty: bool) -> Problem {
    let set = text
        .parse::<BasicSet>()
        .unwrap_or_else(|e| panic!("benchmark set {name} does not parse: {e}\n{text}"));
    (name.to_string(), set, empty)
}

/// A tiny deterministic PRNG (xorshift64), so the random problems are the same on
/// every run and every machine.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a seed (0 is replaced by a fixed non-zero constant).
    pub fn new(seed: u64) -> XorShift {
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A value in `lo ..= hi` (`lo <= hi`; the slight modulo bias does not matter here).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo + 1) as u64;
        lo + (self.next_u64() % span) as i64
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.next_u64() % n == 0
    }
}

/// The isl text of the affine expression `a·x + c` over the variables `x0, x1, ...`.
pub fn affine(a: &[i64], c: i64) -> String {
    let mut s = String::new();
    for (k, &v) in a.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let mag = v.unsigned_abs();
        let coeff = if mag == 1 {
            String::new()
        } else {
            mag.to_string()
        };
        match (s.is_empty(), v < 0) {
            (true, false) => s += &format!("{coeff}x{k}"),
            (true, true) => s += &format!("-{coeff}x{k}"),
            (false, false) => s += &format!(" + {coeff}x{k}"),
            (false, true) => s += &format!(" - {coeff}x{k}"),
        }
    }
    match (s.is_empty(), c) {
        (true, c) => s = c.to_string(),
        (false, 0) => {}
        (false, c) if c > 0 => s += &format!(" + {c}"),
        (false, c) => s += &format!(" - {}", c.unsigned_abs()),
    }
    s
}

fn dot(a: &[i64], p: &[i64]) -> i64 {
    a.iter().zip(p).map(|(x, y)| x * y).sum()
}

/// A random non-zero coefficient vector with entries in `-5 ..= 5`.
fn random_row(rng: &mut XorShift, d: usize) -> Vec<i64> {
    loop {
        let a: Vec<i64> = (0..d).map(|_| rng.range(-5, 5)).collect();
        if a.iter().any(|&v| v != 0) {
            return a;
        }
    }
}

/// A random constraint that the point `p` satisfies: an inequality
/// `a·x + c >= 0` with slack 0..=2 at `p`, or (one time in six) an equality.
fn planted(rng: &mut XorShift, p: &[i64]) -> String {
    let a = random_row(rng, p.len());
    let v = dot(&a, p);
    if rng.one_in(6) {
        format!("{} = {v}", affine(&a, 0))
    } else {
        format!("{} >= 0", affine(&a, -v + rng.range(0, 2)))
    }
}

/// Half-open box of every random problem: `-BOX <= xk <= BOX`, so enumeration of
/// `[-BOX, BOX]^d` decides emptiness exactly.
pub const RANDOM_BOX: i64 = 4;

/// `count` small random conjunctions (seeded, deterministic): 2–4 dimensions, 3–8
/// random constraints with coefficients in `-5..=5`, plus the bounds
/// `-4 <= xk <= 4` on every dimension. Their emptiness is known by construction:
/// - `planted_*` (every even index): every constraint holds at a random point `p`
///   of `[-3, 3]^d`, so the set is non-empty;
/// - `farkas_*` (index 1 mod 4): three of the constraints `a1·x + c1 >= 0`,
///   `a2·x + c2 >= 0`, `a3·x + c3 >= 0` have `a3 = -(a1 + a2)` and
///   `c1 + c2 + c3 < 0`; adding them gives `0 <= c1 + c2 + c3 < 0`, so the set is
///   empty (rationally too); the others are planted at a point;
/// - `gap_*` (index 3 mod 4): a thin parallelogram in two dimensions whose integer
///   points would map to a box of the image lattice that holds no lattice point
///   (see `gap_pair`): empty; the others are planted at `p`.
pub fn random_small(count: usize, seed: u64) -> Vec<Problem> {
    let mut rng = XorShift::new(seed);
    let mut out = Vec::with_capacity(count);
    for n in 0..count {
        let d = rng.range(2, 4) as usize;
        let m = rng.range(3, 8) as usize;
        let p: Vec<i64> = (0..d).map(|_| rng.range(-3, 3)).collect();
        let (kind, mut cons) = match n % 4 {
            0 | 2 => ("planted", Vec::new()),
            1 => ("farkas", farkas_triple(&mut rng, &p)),
            _ => ("gap", gap_pair(&mut rng, &p)),
        };
        // the gap pair is two chains, four constraints
        let used = if kind == "gap" { 4 } else { cons.len() };
        for _ in used..m {
            cons.push(planted(&mut rng, &p));
        }
        // shuffle (Fisher–Yates) so the certificate is not always first
        for k in (1..cons.len()).rev() {
            let j = rng.range(0, k as i64) as usize;
            cons.swap(k, j);
        }
        let vars: Vec<String> = (0..d).map(|k| format!("x{k}")).collect();
        let text = format!(
            "{{ [{v}] : -{RANDOM_BOX} <= {v} <= {RANDOM_BOX} and {} }}",
            cons.join(" and "),
            v = vars.join(", ")
        );
        out.push(problem(&format!("{kind}_{n}"), &text, kind != "planted"));
    }
    out
}

/// Three inequalities whose sum is `0 >= 1 + r` (a Farkas certificate of
/// emptiness); the first two hold at `p`.
fn farkas_triple(rng: &mut XorShift, p: &[i64]) -> Vec<String> {
    let d = p.len();
    let (a1, a2, a3) = loop {
        let a1 = random_row(rng, d);
        let a2 = random_row(rng, d);
        let a3: Vec<i64> = a1.iter().zip(&a2).map(|(x, y)| -(x + y)).collect();
        if a3.iter().all(|v| v.abs() <= 5) && a3.iter().any(|&v| v != 0) {
            break (a1, a2, a3);
        }
    };
    let c1 = -dot(&a1, p) + rng.range(0, 3);
    let c2 = -dot(&a2, p) + rng.range(0, 3);
    let c3 = -(c1 + c2) - 1 - rng.range(0, 2);
    vec![
        format!("{} >= 0", affine(&a1, c1)),
        format!("{} >= 0", affine(&a2, c2)),
        format!("{} >= 0", affine(&a3, c3)),
    ]
}

/// A thin parallelogram in two of the dimensions `(xi, xj)` without integer points:
/// `u0 <= α·xi + β·xj <= u0 + 1` and `v0 <= γ·xi + δ·xj <= v0 + 1` with
/// `D = αδ - βγ`, `|D| >= 5`. The map `(xi, xj) -> (u, v)` is invertible, with
/// `xi = (δu - βv)/D` and `xj = (αv - γu)/D`; `u0, v0` are chosen so that at none
/// of the four integer `(u, v)` in the box both are integers, so no integer point
/// maps into it (while the parallelogram has rational points). Not caught by
/// per-constraint gcd tests.
fn gap_pair(rng: &mut XorShift, p: &[i64]) -> Vec<String> {
    let d = p.len();
    let i = rng.range(0, d as i64 - 1) as usize;
    let j = (i + 1 + rng.range(0, d as i64 - 2) as usize) % d;
    loop {
        let (al, be, ga, de) = (
            rng.range(-5, 5),
            rng.range(-5, 5),
            rng.range(-5, 5),
            rng.range(-5, 5),
        );
        let det = al * de - be * ga;
        if det.abs() < 5 {
            continue;
        }
        let u0 = al * p[i] + be * p[j] + rng.range(-2, 2);
        let v0 = ga * p[i] + de * p[j] + rng.range(-2, 2);
        let hits = (u0..=u0 + 1).any(|u| {
            (v0..=v0 + 1).any(|v| (de * u - be * v) % det == 0 && (al * v - ga * u) % det == 0)
        });
        if hits {
            continue;
        }
        let row = |x: i64, y: i64| {
            let mut a = vec![0; d];
            a[i] = x;
            a[j] = y;
            affine(&a, 0)
        };
        return vec![
            format!("{u0} <= {} <= {}", row(al, be), u0 + 1),
            format!("{v0} <= {} <= {}", row(ga, de), v0 + 1),
        ];
    }
}

/// Sets with rational points but no integer point (all empty):
/// - `slab_3x3y`: `3(x - y)` would have to be 1 or 2;
/// - `odd_and_multiple_of_4`: `x` odd and a multiple of 4;
/// - `slab_4x4y_box`: `4(x - y)` would have to be 2 or 3;
/// - `lattice_2d`: `(u, v) = (3x + 5y, 2x + 7y)` maps `Z^2` onto a lattice of index
///   11 (the determinant) where `x = (7u - 5v)/11` and `y = (3v - 2u)/11`; for `u, v`
///   in `{1, 2}` no `7u - 5v` (2, -3, 9, 4) is a multiple of 11, so no integer point;
/// - `lattice_3d`: the same with a 3×3 matrix of determinant 443 and the image box
///   `[1, 3]^3` (the preimage of the box lies inside `(-1, 1)^3`, so enumerating
///   `[-1, 1]^3` decides it: no point);
/// - `lattice_4d`: a 4×4 matrix of determinant -10004 and the image box `[1, 4]^4`
///   (preimage inside `(-1, 1)^4`; no point);
/// - `knapsack_3d`: `106 <= 31x + 37y + 41z <= 108` with `x, y, z >= 0`: the sums of
///   non-negative multiples of 31, 37, 41 skip 106..=108 (enumerated; the neighbours
///   are 105 = 31 + 2·37 and 109 = 31 + 37 + 41);
/// - `knapsack_4d`: `214 <= 53w + 61x + 67y + 71z <= 219` with non-negative variables:
///   the neighbours are 213 = 3·71 and 220 = 3·53 + 61, nothing in between
///   (enumerated).
pub fn integer_gap() -> Vec<Problem> {
    vec![
        problem("slab_3x3y", "{ [x, y] : 1 <= 3x - 3y <= 2 }", true),
        problem(
            "odd_and_multiple_of_4",
            "{ [x] : exists a, b : x = 2a + 1 and x = 4b }",
            true,
        ),
        problem(
            "slab_4x4y_box",
            "{ [x, y] : 0 <= x, y <= 100 and 2 <= 4x - 4y <= 3 }",
            true,
        ),
        problem(
            "lattice_2d",
            "{ [x, y] : 1 <= 3x + 5y <= 2 and 1 <= 2x + 7y <= 2 }",
            true,
        ),
        problem(
            "lattice_3d",
            "{ [x, y, z] : 1 <= 4x + 7y + 3z <= 3 and 1 <= 5x - 2y + 6z <= 3 \
             and 1 <= 3x + 5y - 8z <= 3 }",
            true,
        ),
        problem(
            "lattice_4d",
            "{ [w, x, y, z] : 1 <= 7w - 3x + 5y + 2z <= 4 and 1 <= 4w + 9x - 6y + z <= 4 \
             and 1 <= -5w + 2x + 8y + 3z <= 4 and 1 <= 3w + 6x + y - 9z <= 4 }",
            true,
        ),
        problem(
            "knapsack_3d",
            "{ [x, y, z] : x, y, z >= 0 and 106 <= 31x + 37y + 41z <= 108 }",
            true,
        ),
        problem(
            "knapsack_4d",
            "{ [w, x, y, z] : w, x, y, z >= 0 and 214 <= 53w + 61x + 67y + 71z <= 219 }",
            true,
        ),
    ]
}

/// Dependence polyhedra of three kernels, `[N, T] -> { [source, target] : ... }`
/// with the loop bounds of both iterations, the subscript equalities and the
/// execution-order constraint (`T` is used by jacobi-2d only; the others keep it so
/// every dependence set has the same parameters).
///
/// gemm: `for i, j, k in [0, N): S: C[i][j] += A[i][k] * B[k][j]`; the write and the
/// read of `C[i][j]` in iterations `(i, j, k)` and `(i', j', k')` need `i = i'`,
/// `j = j'`:
/// - `gemm_raw_depth3` (carried by `k`: `k < k'`): non-empty for `N >= 2`;
/// - `gemm_raw_depth1` (carried by `i`: `i < i'`): empty, as `i = i'`;
/// - `gemm_waw_depth2` (`i = i'`, `j < j'`): empty, as `j = j'`;
/// - `gemm_raw_tiled_backward`: `gemm_raw_depth3` with `k` tiled by 8 and the target
///   in an earlier tile (`floor(k'/8) < floor(k/8)`); but `k < k'` gives
///   `floor(k/8) <= floor(k'/8)`: empty.
///
/// lu (no pivoting): `for k in [0, N) { for j in [k+1, N) S1: A[k][j] /= A[k][k];
/// for i in [k+1, N) for j in [k+1, N) S2: A[i][j] -= A[i][k] * A[k][j] }`.
/// S1 precedes S2 in the body of `k`, so S2 before S1 needs `k < k'`, S1 before S2
/// needs `k <= k'`:
/// - `lu_update_to_div`: S2 `(k, i, j)` writes `A[i][j]`, S1 `(k', j')` reads
///   `A[k'][j']`: `i = k'`, `j = j'`, `k < k'`; non-empty (`N = 3`: `(0, 1, 2)` then
///   `(1, 2)`);
/// - `lu_update_to_div_last`: the same with `k' = k + 1` (the last writer): non-empty;
/// - `lu_div_to_update_urow`: S1 `(k, j)` writes `A[k][j]`, S2 `(k', i', j')` reads
///   `A[k'][j']`: `k = k'`, `j = j'`; non-empty;
/// - `lu_div_to_update_lcol`: S1 `(k, j)` writes `A[k][j]`, S2 `(k', i', j')` reads
///   `A[i'][k']`: `i' = k`, `k' = j`; then `i' = k < j = k' < i'`: empty.
///
/// jacobi-2d: `for t in [0, T) { for i, j in [1, N-2] S1: B[i][j] = (A[i][j] +
/// A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j]) / 5; for i, j in [1, N-2] S2:
/// A[i][j] = B[i][j] }`; S2 `(t, i, j)` writes `A[i][j]`, S1 `(t', i', j')` reads
/// it, so `t < t'`:
/// - `jacobi2d_flow_up`: through `A[i'+1][j']` (`i = i' + 1`, `j = j'`) at distance
///   `t' = t + 1`: non-empty for `N >= 4`, `T >= 2`;
/// - `jacobi2d_flow_down`: through `A[i'-1][j']` at any distance `t < t'`: non-empty;
/// - `jacobi2d_skew_violation`: `jacobi2d_flow_up` with `i' + t' < i + t`, i.e. a
///   dependence the skewed schedule `(t, t + i)` would violate; but
///   `i' + t' = (i - 1) + (t + 1) = i + t`: empty;
/// - `jacobi2d_last_row`: `jacobi2d_flow_up` at the last row `i' = N - 2`, which
///   would need a write to row `N - 1`, outside the loop: empty;
/// - `jacobi2d_b_flow`: S1 `(t, i, j)` writes `B[i][j]`, S2 `(t', i', j')` reads
///   `B[i'][j']` with `t <= t'`: non-empty;
/// - `jacobi2d_skewed_tile_backward`: `jacobi2d_flow_up` with the skewed dimension
///   `t + i` tiled by 4 and the target in an earlier tile: as `t' + i' = t + i` the
///   tiles are the same, so empty (skewed tiling is legal);
/// - `jacobi2d_tile_backward`: the same with `i` tiled by 4 without skewing: `i = 4`,
///   `i' = 3` cross backwards (`N >= 6`): non-empty (unskewed tiling is illegal).
pub fn dependences() -> Vec<Problem> {
    const GEMM_DOMAINS: &str = "0 <= i, j, k < N and 0 <= i', j', k' < N";
    const LU_S2_S1: &str =
        "0 <= k < N and k + 1 <= i < N and k + 1 <= j < N and 0 <= k' < N and k' + 1 <= j' < N";
    const LU_S1_S2: &str =
        "0 <= k < N and k + 1 <= j < N and 0 <= k' < N and k' + 1 <= i' < N and k' + 1 <= j' < N";
    const JACOBI: &str =
        "0 <= t < T and 1 <= i, j <= N - 2 and 0 <= t' < T and 1 <= i', j' <= N - 2";
    let gemm = |name: &str, order: &str, empty: bool| {
        problem(
            name,
            &format!(
                "[N, T] -> {{ [i, j, k, i', j', k'] : {GEMM_DOMAINS} and i = i' and j = j' \
                 and {order} }}"
            ),
            empty,
        )
    };
    let lu_s2_s1 = |name: &str, extra: &str, empty: bool| {
        problem(
            name,
            &format!(
                "[N, T] -> {{ [k, i, j, k', j'] : {LU_S2_S1} and i = k' and j = j' and k < k'{extra} }}"
            ),
            empty,
        )
    };
    let lu_s1_s2 = |name: &str, subscripts: &str, empty: bool| {
        problem(
            name,
            &format!(
                "[N, T] -> {{ [k, j, k', i', j'] : {LU_S1_S2} and {subscripts} and k <= k' }}"
            ),
            empty,
        )
    };
    let jacobi = |name: &str, rest: &str, empty: bool| {
        problem(
            name,
            &format!("[N, T] -> {{ [t, i, j, t', i', j'] : {JACOBI} and {rest} }}"),
            empty,
        )
    };
    vec![
        gemm("gemm_raw_depth3", "k < k'", false),
        gemm("gemm_raw_depth1", "i < i'", true),
        gemm("gemm_waw_depth2", "i = i' and j < j'", true),
        gemm(
            "gemm_raw_tiled_backward",
            "k < k' and exists a, b : 8a <= k <= 8a + 7 and 8b <= k' <= 8b + 7 and b < a",
            true,
        ),
        lu_s2_s1("lu_update_to_div", "", false),
        lu_s2_s1("lu_update_to_div_last", " and k' = k + 1", false),
        lu_s1_s2("lu_div_to_update_urow", "k = k' and j = j'", false),
        lu_s1_s2("lu_div_to_update_lcol", "i' = k and k' = j", true),
        jacobi(
            "jacobi2d_flow_up",
            "i = i' + 1 and j = j' and t' = t + 1",
            false,
        ),
        jacobi(
            "jacobi2d_flow_down",
            "i = i' - 1 and j = j' and t < t'",
            false,
        ),
        jacobi(
            "jacobi2d_skew_violation",
            "i = i' + 1 and j = j' and t' = t + 1 and i' + t' < i + t",
            true,
        ),
        jacobi(
            "jacobi2d_last_row",
            "i = i' + 1 and j = j' and t' = t + 1 and i' = N - 2",
            true,
        ),
        jacobi("jacobi2d_b_flow", "i = i' and j = j' and t <= t'", false),
        jacobi(
            "jacobi2d_skewed_tile_backward",
            "i = i' + 1 and j = j' and t' = t + 1 and exists a, b : \
             4a <= t + i <= 4a + 3 and 4b <= t' + i' <= 4b + 3 and b < a",
            true,
        ),
        jacobi(
            "jacobi2d_tile_backward",
            "i = i' + 1 and j = j' and t' = t + 1 and exists a, b : \
             4a <= i <= 4a + 3 and 4b <= i' <= 4b + 3 and b < a",
            false,
        ),
    ]
}

/// Tiled iteration domains, `[N] -> { [tile origins, points] : ... }`:
/// - `tiled32`, `tiled8`: square tiles of 32 (8) whose origins are multiples of 32
///   (8), the points of a tile clipped to `[0, N)`: non-empty (`N >= 1`);
/// - `tiled32_plus40`, `tiled8_plus40`: the same with `i = ti + 40`, beyond the tile
///   (`i < ti + 32`): empty;
/// - `tiled32_offset4`: the origins `ti = tj + 4` differ by 4, but both are multiples
///   of 32: empty (rationally non-empty);
/// - `tiled8_offset12`: `ti = tj + 12` with origins multiples of 8: empty;
/// - `tiled_32_8_nested`: tiles of 32 split into tiles of 8: non-empty.
pub fn tiled() -> Vec<Problem> {
    let square = |s: u32, extra: &str| {
        format!(
            "[N] -> {{ [ti, tj, i, j] : exists a, b : ti = {s}a and tj = {s}b and 0 <= ti < N \
             and 0 <= tj < N and ti <= i < ti + {s} and tj <= j < tj + {s} and i < N and j < N{extra} }}"
        )
    };
    vec![
        problem("tiled32", &square(32, ""), false),
        problem("tiled8", &square(8, ""), false),
        problem("tiled32_plus40", &square(32, " and i = ti + 40"), true),
        problem("tiled8_plus40", &square(8, " and i = ti + 40"), true),
        problem("tiled32_offset4", &square(32, " and ti = tj + 4"), true),
        problem("tiled8_offset12", &square(8, " and ti = tj + 12"), true),
        problem(
            "tiled_32_8_nested",
            "[N] -> { [ti, ii, i] : exists a, b : ti = 32a and ii = 8b and 0 <= ti < N \
             and ti <= ii < ti + 32 and ii < N and ii <= i < ii + 8 and i < N }",
            false,
        ),
    ]
}

/// SDBM-shaped sets of `n` variables (parameters count), empty and non-empty, for
/// the fast-path benchmarks, with their expected emptiness:
/// - `tiled`: a tiled nest with tiles of 32 split into 8 (harmonic: 8 | 32), `n/2`
///   tile and `n/2` point dimensions; empty variant: a point 40 past its tile origin;
/// - `stencil`: neighbours differ by at most 1 (differences only); empty variant:
///   the chain must climb by `n` from `x0` to `x{n-1}` but the last is at most the
///   first;
/// - `triangle`: `0 <= x0 <= x1 <= ... <= N` with even values and a stride 3 on the
///   last (divisors 2 and 3: not harmonic); empty variant: `x{n-1} - x0 <= -1`.
/// - `not_sdbm`: the stencil with one constraint `x0 + x1 <= N` that leaves the
///   class (for the recognition overhead).
pub fn sdbm_family(n: usize) -> Vec<Problem> {
    let mut out = Vec::new();
    let vars = |k: usize, p: &str| -> Vec<String> { (0..k).map(|j| format!("{p}{j}")).collect() };
    // tiled: k tile dims t_j (multiples of 32, then 8 inside), k point dims i_j
    let k = (n / 2).max(1);
    let (t, i) = (vars(k, "t"), vars(k, "i"));
    let mut cons = Vec::new();
    for j in 0..k {
        cons.push(format!("{} mod 32 = 0", t[j]));
        cons.push(format!("{} mod 8 = 0", i[j]));
        cons.push(format!("0 <= {} <= 1000", t[j]));
        cons.push(format!("{t} <= {i} <= {t} + 31", t = t[j], i = i[j]));
    }
    let dims = [t.clone(), i.clone()].concat().join(", ");
    let body = cons.join(" and ");
    out.push((
        format!("tiled_{n}"),
        parse_bs(&format!("{{ [{dims}] : {body} }}")),
        false,
    ));
    out.push((
        format!("tiled_{n}_empty"),
        parse_bs(&format!(
            "{{ [{dims}] : {body} and {} >= {} + 40 }}",
            i[0], t[0]
        )),
        true,
    ));
    // stencil chain
    let x = vars(n, "x");
    let mut chain = vec![format!("0 <= {} <= 100", x[0])];
    for j in 0..n - 1 {
        chain.push(format!("-1 <= {} - {} <= 1", x[j + 1], x[j]));
    }
    let dims = x.join(", ");
    let body = chain.join(" and ");
    out.push((
        format!("stencil_{n}"),
        parse_bs(&format!("{{ [{dims}] : {body} }}")),
        false,
    ));
    out.push((
        format!("stencil_{n}_empty"),
        parse_bs(&format!(
            "{{ [{dims}] : {body} and {} - {} >= {} }}",
            x[n - 1],
            x[0],
            n
        )),
        true,
    ));
    // strided triangle with a parameter
    let mut tri = vec![format!("0 <= {}", x[0]), format!("{} <= N", x[n - 1])];
    for j in 0..n - 1 {
        tri.push(format!("{} <= {}", x[j], x[j + 1]));
    }
    for v in &x {
        tri.push(format!("{v} mod 2 = 0"));
    }
    tri.push(format!("{} mod 3 = 1", x[n - 1]));
    let body = tri.join(" and ");
    out.push((
        format!("triangle_{n}"),
        parse_bs(&format!("[N] -> {{ [{dims}] : {body} }}")),
        false,
    ));
    out.push((
        format!("triangle_{n}_empty"),
        parse_bs(&format!(
            "[N] -> {{ [{dims}] : {body} and {} <= {} - 1 }}",
            x[n - 1],
            x[0]
        )),
        true,
    ));
    // just outside the class
    let body = chain.join(" and ");
    out.push((
        format!("not_sdbm_{n}"),
        parse_bs(&format!(
            "[N] -> {{ [{dims}] : {body} and {} + {} <= N }}",
            x[0],
            x[n.min(2) - 1]
        )),
        false,
    ));
    out
}

fn parse_bs(text: &str) -> presburger::BasicSet {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use presburger::Set;
    use presburger::internals::testing::{Box as PBox, set_points};

    /// Checks every problem against enumeration: for each parameter choice, the
    /// points of the set in `[lo, hi]^d`. A set expected non-empty must show a point
    /// for some choice, a set expected empty for none (where the set lies inside the
    /// box for every parameter value, this decides it; otherwise it confirms the hand
    /// reasoning on the cases enumerated).
    fn check_by_enumeration(problems: &[Problem], params: &[Vec<i64>], lo: i64, hi: i64) {
        check_in(problems, params, lo, hi, None)
    }

    /// As `check_by_enumeration`, with plain existentials searched in `locals`.
    fn check_in(
        problems: &[Problem],
        params: &[Vec<i64>],
        lo: i64,
        hi: i64,
        locals: Option<(i64, i64)>,
    ) {
        for (name, set, empty) in problems {
            let s = Set::from(set.clone());
            let found = params.iter().any(|p| {
                assert_eq!(p.len(), s.space().n_param(), "{name}: parameters");
                let mut b = PBox::new(p.clone(), lo, hi);
                if let Some(r) = locals {
                    b.local_range = r;
                }
                !set_points(&s, &b).is_empty()
            });
            assert_eq!(!found, *empty, "{name}: enumeration disagrees\n{s}");
        }
    }

    /// The solver agrees with the expected answers.
    fn check_solver(problems: &[Problem]) {
        for (name, set, empty) in problems {
            assert_eq!(set.is_empty(), Ok(*empty), "{name}: {set}");
        }
    }

    #[test]
    fn xorshift_is_deterministic_and_in_range() {
        let (mut a, mut b) = (XorShift::new(7), XorShift::new(7));
        for _ in 0..1000 {
            let v = a.range(-5, 5);
            assert_eq!(v, b.range(-5, 5));
            assert!((-5..=5).contains(&v));
        }
        assert_ne!(XorShift::new(0).next_u64(), 0);
    }

    #[test]
    fn affine_text() {
        assert_eq!(affine(&[3, -1, 0, 1], -4), "3x0 - x1 + x3 - 4");
        assert_eq!(affine(&[-2, 5], 0), "-2x0 + 5x1");
        assert_eq!(affine(&[0, 0], 7), "7");
    }

    #[test]
    fn random_sets_match_their_construction() {
        let ps = random_small(20, 42);
        assert_eq!(ps.len(), 20);
        assert_eq!(ps.iter().filter(|p| p.2).count(), 10, "half of them empty");
        for (name, set, _) in &ps {
            let d = set.space().n_out();
            assert!((2..=4).contains(&d), "{name}: {d} dimensions");
        }
        // every random set lies in the box, so enumeration decides
        check_by_enumeration(&ps, &[vec![]], -RANDOM_BOX, RANDOM_BOX);
        // other seeds too
        check_by_enumeration(&random_small(12, 2024), &[vec![]], -RANDOM_BOX, RANDOM_BOX);
        // the same seed gives the same sets
        let again = random_small(20, 42);
        for (a, b) in ps.iter().zip(&again) {
            assert_eq!(a.1.to_string(), b.1.to_string());
        }
    }

    #[test]
    fn integer_gap_sets_are_empty_by_enumeration() {
        // bounded sets lie inside these boxes, so enumeration decides them:
        // slab_4x4y_box in [0, 100]^2, lattice_* in (-1, 1)^d, knapsack_3d in [0, 3]^3,
        // knapsack_4d in [0, 4]^4; slab_3x3y and odd_and_multiple_of_4 are unbounded
        let (low, high): (Vec<Problem>, Vec<Problem>) = integer_gap()
            .into_iter()
            .partition(|p| p.1.space().n_out() <= 2);
        check_by_enumeration(&low, &[vec![]], -10, 100);
        check_by_enumeration(&high, &[vec![]], -2, 5);
    }

    #[test]
    fn dependence_sets_match_enumeration() {
        // N and T small: enough for the non-empty ones; the empty ones are empty for
        // every N and T by the reasoning above
        // (N = 6 for jacobi2d_tile_backward). The tile numbers `a, b` of the tiled
        // dependences are floor(k/8) or floor(x/4) of values in [-1, 10]: [-1, 3]
        let params = [vec![4, 3], vec![5, 2], vec![6, 4]];
        check_in(&dependences(), &params, -1, 6, Some((-1, 3)));
    }

    #[test]
    fn tiled_sets_match_enumeration() {
        // with N up to 11 the stride-8 sets have two tile origins (0 and 8)
        let params = [vec![1], vec![5], vec![11]];
        check_by_enumeration(&tiled(), &params, -1, 11);
    }

    #[test]
    fn the_solver_agrees() {
        check_solver(&random_small(20, 42));
        check_solver(&integer_gap());
        check_solver(&dependences());
        check_solver(&tiled());
    }
}
