//! Random loop nests (affine bounds with min, max, floord, ceild, strides,
//! decreasing loops, and `if` conditions with &&, ||, !, ==, != and %): the
//! iteration domain the front end builds holds exactly the iterations that
//! running the loops executes, for every size N from 0 to 5.

use presburger::{DimKind, Set};
use presburger_schedule::{Options, extract_scop};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A bound expression over N and the outer iterator `i` (inner loop only).
#[derive(Clone, Debug)]
enum E {
    Const(i64),
    N(i64),
    Outer(i64),
    Neg(Box<E>),
    Min(Box<E>, Box<E>),
    Max(Box<E>, Box<E>),
    Floord(Box<E>, i64),
    Ceild(Box<E>, i64),
    Twice(Box<E>),
}

impl E {
    fn c(&self) -> String {
        match self {
            E::Const(c) => format!("{c}"),
            E::N(o) => format!("N + {o}"),
            E::Outer(o) => format!("i + {o}"),
            E::Neg(a) => format!("-({})", a.c()),
            E::Min(a, b) => format!("min({}, {})", a.c(), b.c()),
            E::Max(a, b) => format!("max({}, {})", a.c(), b.c()),
            E::Floord(a, d) => format!("floord({}, {d})", a.c()),
            E::Ceild(a, d) => format!("ceild({}, {d})", a.c()),
            E::Twice(a) => format!("2 * ({})", a.c()),
        }
    }

    fn eval(&self, n: i64, outer: i64) -> i64 {
        match self {
            E::Const(c) => *c,
            E::N(o) => n + o,
            E::Outer(o) => outer + o,
            E::Neg(a) => -a.eval(n, outer),
            E::Min(a, b) => a.eval(n, outer).min(b.eval(n, outer)),
            E::Max(a, b) => a.eval(n, outer).max(b.eval(n, outer)),
            E::Floord(a, d) => a.eval(n, outer).div_euclid(*d),
            E::Ceild(a, d) => -(-a.eval(n, outer)).div_euclid(*d),
            E::Twice(a) => 2 * a.eval(n, outer),
        }
    }
}

fn expr(inner: bool) -> impl Strategy<Value = E> {
    let leaf = if inner {
        prop_oneof![
            (-2i64..=3).prop_map(E::Const),
            (-2i64..=1).prop_map(E::N),
            (-2i64..=2).prop_map(E::Outer),
        ]
        .boxed()
    } else {
        prop_oneof![(-2i64..=3).prop_map(E::Const), (-2i64..=1).prop_map(E::N)].boxed()
    };
    leaf.prop_recursive(2, 6, 2, |e| {
        prop_oneof![
            (e.clone(), e.clone()).prop_map(|(a, b)| E::Min(Box::new(a), Box::new(b))),
            (e.clone(), e.clone()).prop_map(|(a, b)| E::Max(Box::new(a), Box::new(b))),
            (e.clone(), 2i64..=3).prop_map(|(a, d)| E::Floord(Box::new(a), d)),
            (e.clone(), 2i64..=3).prop_map(|(a, d)| E::Ceild(Box::new(a), d)),
            e.clone().prop_map(|a| E::Twice(Box::new(a))),
            e.prop_map(|a| E::Neg(Box::new(a))),
        ]
    })
}

/// A loop: start, comparison, bound and step (the comparison fits the
/// direction of the step so that every loop ends).
#[derive(Clone, Debug)]
struct Loop {
    init: E,
    op: &'static str,
    bound: E,
    step: i64,
}

fn a_loop(inner: bool) -> impl Strategy<Value = Loop> {
    (expr(inner), expr(inner), 0usize..4, prop::bool::ANY).prop_map(|(init, bound, k, two)| {
        let (op, step) = [("<", 1), ("<=", 1), (">", -1), (">=", -1)][k];
        Loop {
            init,
            op,
            bound,
            step: if two { 2 * step } else { step },
        }
    })
}

/// A condition on the iterators `i` and `j` (their values stay well above
/// -1000, so that C's `%` and the model's `mod` agree).
#[derive(Clone, Debug)]
enum C {
    Cmp(&'static str, &'static str, i64),
    Mod(&'static str, i64, i64),
    And(Box<C>, Box<C>),
    Or(Box<C>, Box<C>),
    Not(Box<C>),
}

impl C {
    fn c(&self) -> String {
        match self {
            C::Cmp(v, op, k) => format!("{v} {op} N + {k}"),
            C::Mod(v, m, r) => format!("({v} + 1000) % {m} == {r}"),
            C::And(a, b) => format!("({} && {})", a.c(), b.c()),
            C::Or(a, b) => format!("({} || {})", a.c(), b.c()),
            C::Not(a) => format!("!({})", a.c()),
        }
    }

    fn holds(&self, n: i64, i: i64, j: i64) -> bool {
        let val = |v: &str| if v == "i" { i } else { j };
        match self {
            C::Cmp(v, op, k) => {
                let (a, b) = (val(v), n + k);
                match *op {
                    "<" => a < b,
                    "<=" => a <= b,
                    ">" => a > b,
                    ">=" => a >= b,
                    "==" => a == b,
                    _ => a != b,
                }
            }
            C::Mod(v, m, r) => (val(v) + 1000) % m == *r,
            C::And(a, b) => a.holds(n, i, j) && b.holds(n, i, j),
            C::Or(a, b) => a.holds(n, i, j) || b.holds(n, i, j),
            C::Not(a) => !a.holds(n, i, j),
        }
    }
}

fn a_cond() -> impl Strategy<Value = C> {
    let var = prop_oneof![Just("i"), Just("j")];
    let leaf = prop_oneof![
        (
            var.clone(),
            prop_oneof![
                Just("<"),
                Just("<="),
                Just(">"),
                Just(">="),
                Just("=="),
                Just("!=")
            ],
            -3i64..=1
        )
            .prop_map(|(v, op, k)| C::Cmp(v, op, k)),
        (var, 2i64..=3, 0i64..=1).prop_map(|(v, m, r)| C::Mod(v, m, r)),
    ];
    leaf.prop_recursive(2, 4, 2, |c| {
        prop_oneof![
            (c.clone(), c.clone()).prop_map(|(a, b)| C::And(Box::new(a), Box::new(b))),
            (c.clone(), c.clone()).prop_map(|(a, b)| C::Or(Box::new(a), Box::new(b))),
            c.prop_map(|a| C::Not(Box::new(a))),
        ]
    })
}

fn header(var: &str, l: &Loop) -> String {
    let step = match l.step {
        1 => format!("{var}++"),
        -1 => format!("{var}--"),
        s if s > 0 => format!("{var} += {s}"),
        s => format!("{var} -= {}", -s),
    };
    format!(
        "for (int {var} = {}; {var} {} {}; {step})",
        l.init.c(),
        l.op,
        l.bound.c()
    )
}

/// The values the loop runs through, `None` if more than 200.
fn run(l: &Loop, n: i64, outer: i64) -> Option<Vec<i64>> {
    let mut v = l.init.eval(n, outer);
    let b = l.bound.eval(n, outer);
    let mut out = Vec::new();
    while match l.op {
        "<" => v < b,
        "<=" => v <= b,
        ">" => v > b,
        _ => v >= b,
    } {
        out.push(v);
        if out.len() > 200 {
            return None;
        }
        v += l.step;
    }
    Some(out)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn domains_are_the_executed_iterations(
        outer in a_loop(false),
        inner in a_loop(true),
        cond in prop::option::of(a_cond()),
    ) {
        let body = match &cond {
            Some(c) => format!("if ({}) A[i][j] = 0;", c.c()),
            None => "A[i][j] = 0;".to_string(),
        };
        let src = format!(
            "#pragma scop\n{}\n  {}\n    {body}\n#pragma endscop\n",
            header("i", &outer),
            header("j", &inner)
        );
        let scop = extract_scop(&src, &Options::default()).unwrap();
        let dom = &scop.statements[0].domain;
        let k = scop.params.iter().position(|p| p == "N");
        for n in 0..=5i64 {
            let mut want = BTreeSet::new();
            for i in run(&outer, n, 0).unwrap() {
                for j in run(&inner, n, i).unwrap() {
                    if cond.as_ref().is_none_or(|c| c.holds(n, i, j)) {
                        want.insert(vec![i, j]);
                    }
                }
            }
            let fixed: Set = match k {
                Some(k) => dom
                    .fix(DimKind::Param, k, n)
                    .unwrap()
                    .project_out(DimKind::Param, k, 1)
                    .unwrap(),
                None => dom.clone(),
            };
            let got: BTreeSet<Vec<i64>> = fixed
                .points(100_000)
                .unwrap()
                .into_iter()
                .map(|p| p.iter().map(|x| x.to_i64().unwrap()).collect())
                .collect();
            prop_assert_eq!(&got, &want, "N = {}\n{}\ndomain {}", n, src, dom);
        }
    }
}
