//! Coalescing against isl's: the sets of isl's own coalescing tests (the tables
//! `coalesce_tests` and `coalesce_unbounded_tests` of `isl_test.c`, isl's git
//! master) and random unions of 2-6 disjuncts.
//!
//! For every set: we parse it and coalesce it, isl parses it and coalesces it;
//! our result must equal the input (our `is_equal`, and isl's `is_equal` on our
//! printed result read back by isl); then the numbers of disjuncts left on both
//! sides are compared. The default tests assert equality everywhere and a
//! ratchet on our total over the table (a regression fails); the ignored ones
//! assert the goal of issue 14 (never more disjuncts than isl on an entry of
//! the table, and no more in total over 10^4 random unions). Run with
//! `--nocapture` for the tables of the entries where we leave more than isl.

use presburger::Set;
use presburger_fuzz::isl::Ctx;
use presburger_fuzz::{Rng, Source};
use std::io::Write;
use std::time::{Duration, Instant};

/// `coalesce_unbounded_tests` of `isl_test.c` (isl runs them with bounded
/// wrapping off; here both sides use their defaults): (one disjunct expected, set).
const COALESCE_UNBOUNDED_TESTS: &[(bool, &str)] = &[
    (
        true,
        "{ [x,y,z] : y + 2 >= 0 and x - y + 1 >= 0 and -x - y + 1 >= 0 and -3 <= z <= 3;[x,y,z] : -x+z + 20 >= 0 and -x-z + 20 >= 0 and x-z + 20 >= 0 and x+z + 20 >= 0 and -10 <= y <= 0}",
    ),
    (true, "{ [x,y] : 0 <= x,y <= 10; [5,y]: 4 <= y <= 11 }"),
    (true, "{ [x,0,0] : -5 <= x <= 5; [0,y,1] : -5 <= y <= 5 }"),
    (
        true,
        "{ [x,y] : 0 <= x <= 10 and 0 >= y >= -1 and x+y >= 0; [0,1] }",
    ),
    (
        true,
        "{ [x,y] : (0 <= x,y <= 4) or (2 <= x,y <= 5 and x + y <= 9) }",
    ),
];
/// `coalesce_tests` of `isl_test.c`: (isl expects one disjunct, set).
const COALESCE_TESTS: &[(bool, &str)] = &[
    (
        true,
        "{[x,y]: x >= 0 & x <= 10 & y >= 0 & y <= 10 or y >= x & x >= 2 & 5 >= y }",
    ),
    (
        true,
        "{[x,y]: y >= 0 & 2x + y <= 30 & y <= 10 & x >= 0 or x + y >= 10 & y <= x & x + y <= 20 & y >= 0}",
    ),
    (
        false,
        "{[x,y]: y >= 0 & 2x + y <= 30 & y <= 10 & x >= 0 or x + y >= 10 & y <= x & x + y <= 19 & y >= 0}",
    ),
    (
        true,
        "{[x,y]: y >= 0 & x <= 5 & y <= x or y >= 0 & x >= 6 & x <= 10 & y <= x}",
    ),
    (
        false,
        "{[x,y]: y >= 0 & x <= 5 & y <= x or y >= 0 & x >= 7 & x <= 10 & y <= x}",
    ),
    (
        false,
        "{[x,y]: y >= 0 & x <= 5 & y <= x or y >= 0 & x >= 6 & x <= 10 & y + 1 <= x}",
    ),
    (
        true,
        "{[x,y]: y >= 0 & x <= 5 & y <= x or y >= 0 & x = 6 & y <= 6}",
    ),
    (
        false,
        "{[x,y]: y >= 0 & x <= 5 & y <= x or y >= 0 & x = 7 & y <= 6}",
    ),
    (
        true,
        "{[x,y]: y >= 0 & x <= 5 & y <= x or y >= 0 & x = 6 & y <= 5}",
    ),
    (
        false,
        "{[x,y]: y >= 0 & x <= 5 & y <= x or y >= 0 & x = 6 & y <= 7}",
    ),
    (
        true,
        "[n] -> { [i] : i = 1 and n >= 2 or 2 <= i and i <= n }",
    ),
    (
        false,
        "{[x,y] : x >= 0 and y >= 0 or 0 <= y and y <= 5 and x = -1}",
    ),
    (
        true,
        "[n] -> { [i] : 1 <= i and i <= n - 1 or 2 <= i and i <= n }",
    ),
    (
        false,
        "[n] -> { [[i0] -> [o0]] : exists (e0 = [(i0)/4], e1 = [(o0)/4], e2 = [(n)/2], e3 = [(-2 + i0)/4], e4 = [(-2 + o0)/4], e5 = [(-2n + i0)/4]: 2e2 = n and 4e3 = -2 + i0 and 4e4 = -2 + o0 and i0 >= 8 + 2n and o0 >= 2 + i0 and o0 <= 56 + 2n and o0 <= -12 + 4n and i0 <= 57 + 2n and i0 <= -11 + 4n and o0 >= 6 + 2n and 4e0 <= i0 and 4e0 >= -3 + i0 and 4e1 <= o0 and 4e1 >= -3 + o0 and 4e5 <= -2n + i0 and 4e5 >= -3 - 2n + i0);[[i0] -> [o0]] : exists (e0 = [(i0)/4], e1 = [(o0)/4], e2 = [(n)/2], e3 = [(-2 + i0)/4], e4 = [(-2 + o0)/4], e5 = [(-2n + i0)/4]: 2e2 = n and 4e3 = -2 + i0 and 4e4 = -2 + o0 and 2e0 >= 3 + n and e0 <= -4 + n and 2e0 <= 27 + n and e1 <= -4 + n and 2e1 <= 27 + n and 2e1 >= 2 + n and e1 >= 1 + e0 and i0 >= 7 + 2n and i0 <= -11 + 4n and i0 <= 57 + 2n and 4e0 <= -2 + i0 and 4e0 >= -3 + i0 and o0 >= 6 + 2n and o0 <= -11 + 4n and o0 <= 57 + 2n and 4e1 <= -2 + o0 and 4e1 >= -3 + o0 and 4e5 <= -2n + i0 and 4e5 >= -3 - 2n + i0 ) }",
    ),
    (
        false,
        "[n, m] -> { [o0, o2, o3] : (o3 = 1 and o0 >= 1 + m and o0 <= n + m and o2 <= m and o0 >= 2 + n and o2 >= 3) or (o0 >= 2 + n and o0 >= 1 + m and o0 <= n + m and n >= 1 and o3 <= -1 + o2 and o3 >= 1 - m + o2 and o3 >= 2 and o3 <= n) }",
    ),
    (
        false,
        "[M, N] -> { [[i0, i1, i2, i3, i4, i5, i6] -> [o0, o1, o2, o3, o4, o5, o6]] : (o6 <= -4 + 2M - 2N + i0 + i1 - i2 + i6 - o0 - o1 + o2 and o3 <= -2 + i3 and o6 >= 2 + i0 + i3 + i6 - o0 - o3 and o6 >= 2 - M + N + i3 + i4 + i6 - o3 - o4 and o0 <= -1 + i0 and o4 >= 4 - 3M + 3N - i0 - i1 + i2 + 2i3 + i4 + o0 + o1 - o2 - 2o3 and o6 <= -3 + 2M - 2N + i3 + i4 - i5 + i6 - o3 - o4 + o5 and 2o6 <= -5 + 5M - 5N + 2i0 + i1 - i2 - i5 + 2i6 - 2o0 - o1 + o2 + o5 and o6 >= 2i0 + i1 + i6 - 2o0 - o1 and 3o6 <= -5 + 4M - 4N + 2i0 + i1 - i2 + 2i3 + i4 - i5 + 3i6 - 2o0 - o1 + o2 - 2o3 - o4 + o5) or (N >= 2 and o3 <= -1 + i3 and o0 <= -1 + i0 and o6 >= i3 + i6 - o3 and M >= 0 and 2o6 >= 1 + i0 + i3 + 2i6 - o0 - o3 and o6 >= 1 - M + i0 + i6 - o0 and N >= 2M and o6 >= i0 + i6 - o0) }",
    ),
    (
        false,
        "[M, N] -> { [o0] : (o0 = 0 and M >= 1 and N >= 2) or (o0 = 0 and M >= 1 and N >= 2M and N >= 2 + M) or (o0 = 0 and M >= 2 and N >= 3) or (M = 0 and o0 = 0 and N >= 3) }",
    ),
    (
        false,
        "{ [i0, i1, i2, i3] : (i1 = 10i0 and i0 >= 1 and 10i0 <= 100 and i3 <= 9 + 10 i2 and i3 >= 1 + 10i2 and i3 >= 0) or (i1 <= 9 + 10i0 and i1 >= 1 + 10i0 and i2 >= 0 and i0 >= 0 and i1 <= 100 and i3 <= 9 + 10i2 and i3 >= 1 + 10i2) }",
    ),
    (
        false,
        "[M] -> { [i1] : (i1 >= 2 and i1 <= M) or (i1 = M and M >= 1) }",
    ),
    (
        false,
        "{[x,y] : x,y >= 0; [x,y] : 10 <= x <= 20 and y >= -1 }",
    ),
    (
        true,
        "{ [x, y] : (x >= 1 and y >= 1 and x <= 2 and y <= 2) or (y = 3 and x = 1) }",
    ),
    (
        true,
        "[M] -> { [i0, i1, i2, i3, i4] : (i1 >= 3 and i4 >= 2 + i2 and i2 >= 2 and i0 >= 2 and i3 >= 1 + i2 and i0 <= M and i1 <= M and i3 <= M and i4 <= M) or (i1 >= 2 and i4 >= 1 + i2 and i2 >= 2 and i0 >= 2 and i3 >= 1 + i2 and i0 <= M and i1 <= -1 + M and i3 <= M and i4 <= -1 + M) }",
    ),
    (
        true,
        "{ [x, y] : (x >= 0 and y >= 0 and x <= 10 and y <= 10) or (x >= 1 and y >= 1 and x <= 11 and y <= 11) }",
    ),
    (false, "{[x,0] : x >= 0; [x,1] : x <= 20}"),
    (true, "{ [x, 1 - x] : 0 <= x <= 1; [0,0] }"),
    (true, "{ [0,0]; [i,i] : 1 <= i <= 10 }"),
    (false, "{ [0,0]; [i,j] : 1 <= i,j <= 10 }"),
    (true, "{ [0,0]; [i,2i] : 1 <= i <= 10 }"),
    (false, "{ [0,0]; [i,2i] : 2 <= i <= 10 }"),
    (false, "{ [1,0]; [i,2i] : 1 <= i <= 10 }"),
    (false, "{ [0,1]; [i,2i] : 1 <= i <= 10 }"),
    (
        false,
        "{ [a, b] : exists e : 2e = a and a >= 0 and (a <= 3 or (b <= 0 and b >= -4 + a)) }",
    ),
    (
        false,
        "{ [i, j, i', j'] : i <= 2 and j <= 2 and j' >= -1 + 2i + j - 2i' and i' <= -1 + i and j >= 1 and j' <= i + j - i' and i >= 1; [1, 1, 1, 1] }",
    ),
    (
        true,
        "{ [i,j] : exists a,b : i = 2a and j = 3b; [i,j] : exists a : j = 3a }",
    ),
    (
        true,
        "{ [a, b, c] : (c <= 7 - b and b <= 1 and b >= 0 and c >= 3 + b and b <= 3 + 8a and b >= -26 + 8a and a >= 3) or (b <= 1 and c <= 7 and b >= 0 and c >= 4 + b and b <= 3 + 8a and b >= -26 + 8a and a >= 3) }",
    ),
    (
        true,
        "{ [a, 0, c] : c >= 1 and c <= 29 and c >= -1 + 8a and c <= 6 + 8a and a >= 3; [a, -1, c] : c >= 1 and c <= 30 and c >= 8a and c <= 7 + 8a and a >= 3 and a <= 4 }",
    ),
    (
        true,
        "{ [x,y] : 0 <= x <= 2 and y >= 0 and x + 2y <= 4; [x,0] : 3 <= x <= 4 }",
    ),
    (
        true,
        "{ [x,y] : 0 <= x <= 3 and y >= 0 and x + 3y <= 6; [x,0] : 4 <= x <= 5 }",
    ),
    (
        false,
        "{ [x,y] : 0 <= x <= 2 and y >= 0 and x + 2y <= 4; [x,0] : 3 <= x <= 5 }",
    ),
    (
        false,
        "{ [x,y] : 0 <= x <= 2 and y >= 0 and x + y <= 4; [x,0] : 3 <= x <= 4 }",
    ),
    (
        true,
        "{ [i0, i1] : i0 <= 122 and i0 >= 1 and 128i1 >= -249 + i0 and i1 <= 0; [i0, 0] : i0 >= 123 and i0 <= 124 }",
    ),
    (true, "{ [0,0]; [1,1] }"),
    (
        true,
        "[n] -> { [k] : 16k <= -1 + n and k >= 1; [0] : n >= 2 }",
    ),
    (
        true,
        "{ [k, ii, k - ii] : ii >= -6 + k and ii <= 6 and ii >= 1 and ii <= k;[k, 0, k] : k <= 6 and k >= 1 }",
    ),
    (
        true,
        "{ [i,j] : i = 4 j and 0 <= i <= 100;[i,j] : 1 <= i <= 100 and i >= 4j + 1 and i <= 4j + 2 }",
    ),
    (
        true,
        "{ [x,y] : x % 2 = 0 and y % 2 = 0; [x,x] : x % 2 = 0 }",
    ),
    (
        true,
        "[n] -> { [1] : n >= 0;[x] : exists (e0 = floor((x)/2): x >= 2 and 2e0 >= -1 + x and 2e0 <= x and 2e0 <= n) }",
    ),
    (
        true,
        "[n] -> { [x, y] : exists (e0 = floor((x)/2), e1 = floor((y)/3): 3e1 = y and x >= 2 and 2e0 >= -1 + x and 2e0 <= x and 2e0 <= n);[1, y] : exists (e0 = floor((y)/3): 3e0 = y and n >= 0) }",
    ),
    (
        true,
        "[t1] -> { [i0] : (exists (e0 = floor((63t1)/64): 128e0 >= -134 + 127t1 and t1 >= 2 and 64e0 <= 63t1 and 64e0 >= -63 + 63t1)) or t1 = 1 }",
    ),
    (
        true,
        "{ [i, i] : exists (e0 = floor((1 + 2i)/3): 3e0 <= 2i and 3e0 >= -1 + 2i and i <= 9 and i >= 1);[0, 0] }",
    ),
    (
        true,
        "{ [t1] : exists (e0 = floor((-11 + t1)/2): 2e0 = -11 + t1 and t1 >= 13 and t1 <= 16);[t1] : t1 <= 15 and t1 >= 12 }",
    ),
    (true, "{ [x,y] : x = 3y and 0 <= y <= 2; [-3,-1] }"),
    (true, "{ [x,y] : 2x = 3y and 0 <= y <= 4; [-3,-2] }"),
    (false, "{ [x,y] : 2x = 3y and 0 <= y <= 4; [-2,-2] }"),
    (false, "{ [x,y] : 2x = 3y and 0 <= y <= 4; [-3,-1] }"),
    (
        true,
        "{ [i] : exists j : i = 4 j and 0 <= i <= 100;[i] : exists j : 1 <= i <= 100 and i >= 4j + 1 and i <= 4j + 2 }",
    ),
    (
        true,
        "{ [c0] : (exists (e0 : c0 - 1 <= 3e0 <= c0)) or (exists (e0 : 3e0 = -2 + c0)) }",
    ),
    (
        false,
        "[n, b0, t0] -> { [i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12] : (exists (e0 = floor((-32b0 + i4)/1048576), e1 = floor((i8)/32): 1048576e0 = -32b0 + i4 and 32e1 = i8 and n <= 2147483647 and b0 <= 32767 and b0 >= 0 and 32b0 <= -2 + n and t0 <= 31 and t0 >= 0 and i0 >= 8 + n and 3i4 <= -96 + 3t0 + i0 and 3i4 >= -95 - n + 3t0 + i0 and i8 >= -157 + i0 - 4i4 and i8 >= 0 and i8 <= -33 + i0 - 4i4 and 3i8 <= -91 + 4n - i0)) or (exists (e0 = floor((-32b0 + i4)/1048576), e1 = floor((i8)/32): 1048576e0 = -32b0 + i4 and 32e1 = i8 and n <= 2147483647 and b0 <= 32767 and b0 >= 0 and 32b0 <= -2 + n and t0 <= 31 and t0 >= 0 and i0 <= 7 + n and 4i4 <= -3 + i0 and 3i4 <= -96 + 3t0 + i0 and 3i4 >= -95 - n + 3t0 + i0 and i8 >= -157 + i0 - 4i4 and i8 >= 0 and i8 <= -4 + i0 - 3i4 and i8 <= -41 + i0));[i0, i1, i2, i3, 0, i5, i6, i7, i8, i9, i10, i11, i12] : (exists (e0 = floor((i8)/32): b0 = 0 and 32e0 = i8 and n <= 2147483647 and t0 <= 31 and t0 >= 0 and i0 >= 11 and i0 >= 96 - 3t0 and i0 <= 95 + n - 3t0 and i0 <= 7 + n and i8 >= -40 + i0 and i8 <= -10 + i0)) }",
    ),
    (
        false,
        "{ [i0, i1, i2] : (exists (e0, e1 = floor((i0)/32), e2 = floor((i1)/32): 32e1 = i0 and 32e2 = i1 and i1 >= -31 + i0 and i1 <= 31 + i0 and i2 >= -30 + i0 and i2 >= -30 + i1 and 32e0 >= -30 + i0 and 32e0 >= -30 + i1 and 32e0 >= -31 + i2 and 32e0 <= 30 + i2 and 32e0 <= 31 + i1 and 32e0 <= 31 + i0)) or i0 >= 0 }",
    ),
    (true, "{ [a, b, c] : 2b = 1 + a and 2c = 2 + a; [0, 0, 0] }"),
    (
        true,
        "{ [a, a, b, c] : 32*floor((a)/32) = a and 2*floor((b)/2) = b and 2*floor((c)/2) = c and 0 <= a <= 192;[224, 224, b, c] : 2*floor((b)/2) = b and 2*floor((c)/2) = c }",
    ),
    (
        true,
        "[n] -> { [a,b] : (exists e : 1 <= a <= 7e and 9e <= b <= n) or (0 <= a <= b <= n) }",
    ),
    (
        true,
        "{ [a, b] : 0 <= a <= 2 and b >= 0 and ((0 < b <= 13) or (2*floor((a + b)/2) >= -5 + a + 2b)) }",
    ),
    (
        true,
        "{ [a] : (2 <= a <= 5) or (a mod 2 = 1 and 1 <= a <= 5) }",
    ),
    (
        true,
        "{ [a, b, c] : (b = -1 + a and 0 < a <= 3 and 9*floor((-4a + 2c)/9) <= -3 - 4a + 2c) or (exists (e0 = floor((-16 + 2c)/9): a = 4 and b = 3 and 9e0 <= -19 + 2c)) }",
    ),
    (
        true,
        "{ [a, b, c] : (b = -1 + a and 0 < a <= 3 and 9*floor((-4a + 2c)/9) <= -3 - 4a + 2c) or (a = 4 and b = 3 and 9*floor((-16 + 2c)/9) <= -19 + 2c) }",
    ),
    (
        false,
        "{ [a, b, c] : (b <= 2 and b <= -2 + a) or (b = -1 + a and 0 < a <= 3 and 9*floor((-4a + 2c)/9) <= -3 - 4a + 2c) or (exists (e0 = floor((-16 + 2c)/9): a = 4 and b = 3 and 9e0 <= -19 + 2c)) }",
    ),
    (
        true,
        "{ [y, x] : (x - y) mod 3 = 2 and 2 <= y <= 200 and 0 <= x <= 2;[1, 0] }",
    ),
    (
        true,
        "{ [x, y] : (x - y) mod 3 = 2 and 2 <= y <= 200 and 0 <= x <= 2;[0, 1] }",
    ),
    (true, "{ [1, y] : -1 <= y <= 1; [x, -x] : 0 <= x <= 1 }"),
    (true, "{ [1, y] : 0 <= y <= 1; [x, -x] : 0 <= x <= 1 }"),
    (
        true,
        "{ [x, y] : 0 <= x <= 10 and x - 4*floor(x/4) <= 1 and y <= 0; [x, y] : 0 <= x <= 10 and x - 4*floor(x/4) > 1 and y <= 0; [x, y] : 0 <= x <= 10 and x - 5*floor(x/5) <= 1 and 0 < y; [x, y] : 0 <= x <= 10 and x - 5*floor(x/5) > 1 and 0 < y }",
    ),
    (
        true,
        "{ [x, 0] : 0 <= x <= 10 and x mod 2 = 0; [x, 0] : 0 <= x <= 10 and x mod 2 = 1; [x, y] : 0 <= x <= 10 and 1 <= y <= 10 }",
    ),
    (
        true,
        "{ [a] : a <= 8 and (a mod 10 = 7 or a mod 10 = 8 or a mod 10 = 9) }",
    ),
    (
        true,
        "{ [x, y] : 2y = -x and x <= 0 or x <= -1 and 2y <= -x - 1 and 2y >= x - 1 }",
    ),
    (
        false,
        "{ [x, y] : 2y = -x and x <= 0 or x <= -2 and 2y <= -x - 1 and 2y >= x - 1 }",
    ),
    (
        true,
        "{ [a] : (a <= 0 and 3*floor((a)/3) = a) or (a < 0 and 3*floor((a)/3) < a) }",
    ),
    (
        true,
        "{ [a] : (a <= 0 and 3*floor((a)/3) = a) or (a < -1 and 3*floor((a)/3) < a) }",
    ),
    (
        true,
        "{ [a, b] : a <= 1024 and b >= 0 and ((-31 - a + b <= 32*floor((-1 - a)/32) <= -33 + b and 32*floor((-1 - a)/32) <= -16 + b + 16*floor((-1 - a)/16))or (2 <= a <= 15 and b < a)) }",
    ),
    (
        true,
        "{ [a] : a > 0 and ((16*floor((a)/16) < a and 32*floor((a)/32) < a) or a <= 15) }",
    ),
    (
        true,
        "{ [a, b, c, d] : (-a + d) mod 64 = 0 and a <= 8 and b <= 1 and 10 - a <= c <= 3 and d >= 5 and 9 - 64b <= d <= 70;[a, b = 1, c, d] : (-a + d) mod 64 = 0 and a <= 8 and c >= 4 and 10 - a <= c <= 5 and 5 <= d <= 73 - c }",
    ),
    (
        true,
        "[n, m] -> { S_0[i] : (-n + i) mod 3 = 0 and m >= 3 + n and i >= n and 3*floor((2 + n + 2m)/3) <= n + 3m - i; S_0[n] : n <= m <= 2 + n }",
    ),
    (
        true,
        "{ [a, b] : exists (e0: 0 <= a <= 1 and b >= 0 and 2e0 >= -5 + a + 2b and 2e0 >= -1 + a + b and 2e0 <= a + b); [a, b] : exists (e0: 0 <= a <= 1 and 2e0 >= -5 + a + 2b and 2e0 >= -1 - a + b and 2e0 <= -a + b and 2e0 < -a + 2b) }",
    ),
    (
        true,
        "{ [i, j, i - 8j] : 8 <= i <= 63 and -7 + i <= 8j <= i; [i, 0, i] : 0 <= i <= 7 }",
    ),
];

/// Our total number of disjuncts over both tables, at most (the ratchet:
/// lower it when coalescing improves; 106 -> 107 when wrapping was gated
/// to two cut rows, for speed: entry u2; 107 -> 108 when only a side with
/// at most two cut rows was wrapped, for speed: entry u0, two disjuncts as
/// isl leaves).
const TABLE_RATCHET: usize = 108;

/// One set coalesced by both sides.
struct Outcome {
    /// Our disjuncts after coalescing.
    ours: usize,
    /// isl's disjuncts after coalescing.
    isl: usize,
    /// Disjuncts of our reading of the input (before coalescing).
    input: usize,
    /// Time of our coalescing call, and of isl's (parsing excluded).
    times: (Duration, Duration),
}

/// Coalesces `text` with both libraries; an error when a side fails or our
/// result is not equal to the input.
fn compare(ctx: &Ctx, text: &str) -> Result<Outcome, String> {
    let set: Set = text.parse().map_err(|e| format!("we reject {text}: {e}"))?;
    let clock = Instant::now();
    let ours = set
        .coalesce()
        .map_err(|e| format!("our coalesce of {text}: {e}"))?;
    let our_time = clock.elapsed();
    match ours.is_equal(&set) {
        Ok(true) => {}
        Ok(false) => return Err(format!("{text}: our coalesced {ours} differs (ours)")),
        Err(e) => return Err(format!("{text}: our is_equal: {e}")),
    }
    let input = ctx
        .union_set(text)
        .ok_or_else(|| format!("isl rejects {text}"))?;
    let printed = ours.to_string();
    let back = ctx
        .union_set(&printed)
        .ok_or_else(|| format!("isl rejects our {printed} (from {text})"))?;
    if back.is_equal(&input) != Some(true) {
        return Err(format!("{text}: our coalesced {printed} differs (isl)"));
    }
    let clock = Instant::now();
    let coalesced = input.coalesce();
    let isl_time = clock.elapsed();
    let theirs = coalesced
        .and_then(|c| c.n_basic_sets())
        .ok_or_else(|| format!("isl fails to coalesce {text}"))?;
    Ok(Outcome {
        ours: ours.n_basic(),
        isl: theirs,
        input: set.n_basic(),
        times: (our_time, isl_time),
    })
}

/// Both tables, with the entry's name (`t<k>` for `coalesce_tests`, `u<k>`
/// for `coalesce_unbounded_tests`).
fn entries() -> Vec<(String, bool, &'static str)> {
    let t = COALESCE_TESTS
        .iter()
        .enumerate()
        .map(|(k, &(one, s))| (format!("t{k}"), one, s));
    let u = COALESCE_UNBOUNDED_TESTS
        .iter()
        .enumerate()
        .map(|(k, &(one, s))| (format!("u{k}"), one, s));
    t.chain(u).collect()
}

/// The totals over the tables, with the entries where we leave more than isl.
struct TableRun {
    ours: usize,
    isl: usize,
    ours_single: usize,
    isl_single: usize,
    worse: Vec<(String, usize, usize, &'static str)>,
    failures: Vec<String>,
}

fn run_table() -> TableRun {
    let ctx = Ctx::new();
    let mut run = TableRun {
        ours: 0,
        isl: 0,
        ours_single: 0,
        isl_single: 0,
        worse: Vec::new(),
        failures: Vec::new(),
    };
    for (name, _, text) in entries() {
        match compare(&ctx, text) {
            Ok(o) => {
                if std::env::var_os("COALESCE_TABLE_VERBOSE").is_some() {
                    println!("  {name}: ours {} isl {}", o.ours, o.isl);
                }
                run.ours += o.ours;
                run.isl += o.isl;
                run.ours_single += usize::from(o.ours <= 1);
                run.isl_single += usize::from(o.isl <= 1);
                if o.ours > o.isl {
                    run.worse.push((name, o.ours, o.isl, text));
                }
                let _ = o.input;
            }
            Err(e) => run.failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "isl coalescing tables ({} entries): disjuncts left ours {} / isl {}; \
         one disjunct ours {} / isl {}; entries where we leave more: {}",
        entries().len(),
        run.ours,
        run.isl,
        run.ours_single,
        run.isl_single,
        run.worse.len()
    );
    for (name, o, i, text) in &run.worse {
        println!("  {name}: ours {o} isl {i}  {text}");
    }
    run
}

#[test]
fn coalesce_tables_equal_and_ratchet() {
    let run = run_table();
    assert!(
        run.failures.is_empty(),
        "{} failures:\n{}",
        run.failures.len(),
        run.failures.join("\n")
    );
    assert!(
        run.ours <= TABLE_RATCHET,
        "we leave {} disjuncts over the tables, more than the recorded {TABLE_RATCHET}",
        run.ours
    );
}

/// The goal of issue 14: on every entry of the tables, no more disjuncts than isl.
#[test]
#[ignore = "the goal of issue 14 (met: run with --include-ignored)"]
fn coalesce_tables_as_isl() {
    let run = run_table();
    assert!(run.failures.is_empty(), "{}", run.failures.join("\n"));
    assert!(
        run.worse.is_empty(),
        "{} entries worse than isl",
        run.worse.len()
    );
}

// ----- random unions -----

/// `a·x` over the variables, with coefficients in `-2..=2` (not all zero).
fn form(rng: &mut Rng, vars: &[String]) -> (Vec<i64>, String) {
    loop {
        let coefs: Vec<i64> = vars.iter().map(|_| rng.range(-2, 2)).collect();
        if coefs.iter().all(|&c| c == 0) {
            continue;
        }
        let text = coefs
            .iter()
            .zip(vars)
            .filter(|(c, _)| **c != 0)
            .map(|(c, v)| format!("{c}{v}"))
            .collect::<Vec<_>>()
            .join(" + ");
        return (coefs, text);
    }
}

/// A box `[lo_i, hi_i]` per variable (`None`: no bound on that side).
type Bounds = Vec<(Option<i64>, Option<i64>)>;

/// One disjunct: the box `b`, 0-2 half-spaces through a point of the box, and
/// sometimes an equality, a congruence (a division) or an existential.
fn disjunct(rng: &mut Rng, vars: &[String], b: &Bounds, param: bool) -> String {
    let mut cons = Vec::new();
    let mut centre = Vec::new();
    for (v, (lo, hi)) in vars.iter().zip(b) {
        if let Some(lo) = lo {
            cons.push(format!("{v} >= {lo}"));
        }
        if let Some(hi) = hi {
            cons.push(format!("{v} <= {hi}"));
        }
        centre.push(match (lo, hi) {
            (Some(l), Some(h)) => (l + h) / 2,
            (Some(l), None) => *l + 1,
            (None, Some(h)) => *h - 1,
            (None, None) => 0,
        });
    }
    for _ in 0..rng.range(0, 2) {
        let (c, t) = form(rng, vars);
        let at: i64 = c.iter().zip(&centre).map(|(a, x)| a * x).sum();
        cons.push(format!("{t} >= {}", at - rng.range(0, 2)));
    }
    if param && rng.chance(40) {
        cons.push(format!("{} <= N", vars[0]));
    }
    if rng.chance(15) {
        let (c, t) = form(rng, vars);
        let at: i64 = c.iter().zip(&centre).map(|(a, x)| a * x).sum();
        cons.push(format!("{t} = {at}"));
    }
    let mut locals = "";
    match rng.range(0, 9) {
        0 | 1 => {
            let (_, t) = form(rng, vars);
            let m = rng.range(2, 3);
            cons.push(format!("({t}) mod {m} = {}", rng.range(0, m - 1)));
        }
        2 => {
            let (_, t) = form(rng, vars);
            let m = rng.range(2, 3);
            cons.push(format!("{m}e <= {t} <= {m}e + {}", rng.range(0, m - 1)));
            locals = "e";
        }
        _ => {}
    }
    let body = if cons.is_empty() {
        "true".to_string()
    } else {
        cons.join(" and ")
    };
    if locals.is_empty() {
        format!("({body})")
    } else {
        format!("(exists {locals} : {body})")
    }
}

/// A union of 2-6 disjuncts over 1-3 variables (and the parameter `N` in a
/// quarter of the cases): boxes near each other (a neighbour of the first
/// box, shifted by its width or one more, or a box of its own), bounded or
/// (with `unbounded`) missing some bounds.
fn random_union(rng: &mut Rng, unbounded: bool) -> String {
    let n = rng.range(1, 3) as usize;
    let vars: Vec<String> = (0..n).map(|k| format!("x{k}")).collect();
    let param = rng.chance(25);
    let fresh = |rng: &mut Rng| -> Bounds {
        (0..n)
            .map(|_| {
                let lo = rng.range(-4, 3);
                let hi = lo + rng.range(0, 4);
                let keep = |rng: &mut Rng| !unbounded || rng.chance(75);
                (keep(rng).then_some(lo), keep(rng).then_some(hi))
            })
            .collect()
    };
    let first = fresh(rng);
    let k = rng.range(2, 6);
    let mut parts = Vec::new();
    for i in 0..k {
        let b = if i == 0 || rng.chance(40) {
            if i == 0 { first.clone() } else { fresh(rng) }
        } else {
            let mut b = first.clone();
            let d = rng.range(0, n as i64 - 1) as usize;
            let (lo, hi) = b[d];
            let width = match (lo, hi) {
                (Some(l), Some(h)) => h - l + 1,
                _ => 3,
            };
            let shift = if rng.chance(50) { width } else { width + 1 };
            let shift = if rng.chance(50) { shift } else { -shift };
            b[d] = (lo.map(|l| l + shift), hi.map(|h| h + shift));
            b
        };
        parts.push(disjunct(rng, &vars, &b, param));
    }
    let pre = if param { "[N] -> " } else { "" };
    format!("{pre}{{ [{}] : {} }}", vars.join(", "), parts.join(" or "))
}

/// `cases` random unions (half of them bounded): every result equal to the
/// input; returns (ours, isl, input) totals and prints them.
fn random_run(cases: u64, seed: u64) -> (usize, usize, usize) {
    let ctx = Ctx::new();
    let mut rng = Rng::new(seed);
    let (mut ours, mut isl, mut input) = (0, 0, 0);
    let mut failures = Vec::new();
    let (mut worse, mut better) = (0, 0);
    let (mut our_time, mut isl_time) = (Duration::ZERO, Duration::ZERO);
    // COALESCE_DUMP=FILE: the unions, in the format of the `benches` crate's
    // `replay` (to profile our side alone)
    let mut dump = std::env::var("COALESCE_DUMP")
        .ok()
        .map(|f| std::fs::File::create(f).expect("creating the dump"));
    for case in 0..cases {
        let text = random_union(&mut rng, case % 2 == 1);
        if let Some(out) = &mut dump {
            writeln!(out, "unions\tcoalesce\t{text}\t").expect("writing the dump");
        }
        match compare(&ctx, &text) {
            Ok(o) => {
                ours += o.ours;
                isl += o.isl;
                input += o.input;
                our_time += o.times.0;
                isl_time += o.times.1;
                if o.ours > o.isl {
                    worse += 1;
                    if worse <= 5 {
                        println!("  we leave {} (isl {}): {text}", o.ours, o.isl);
                    }
                }
                better += usize::from(o.ours < o.isl);
            }
            Err(e) => failures.push(e),
        }
    }
    println!(
        "{cases} random unions (seed {seed}): disjuncts in {input}, left ours {ours} / isl {isl}; \
         cases where we leave more {worse}, fewer {better}; coalescing time (one cold call each, \
         parsing excluded) ours {:.1} ms / isl {:.1} ms",
        our_time.as_secs_f64() * 1e3,
        isl_time.as_secs_f64() * 1e3
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (ours, isl, input)
}

#[test]
fn random_unions_equal() {
    let (ours, _, input) = random_run(300, 14);
    assert!(ours <= input);
}

/// The goal of issue 14 on random unions: over 10^4 cases, no more disjuncts
/// in total than isl.
#[test]
#[ignore = "10^4 cases; the goal of issue 14"]
fn random_unions_as_isl() {
    let (ours, isl, _) = random_run(10_000, 2015);
    assert!(ours <= isl, "ours {ours} > isl {isl}");
}
