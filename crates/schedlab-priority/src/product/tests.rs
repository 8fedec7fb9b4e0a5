use proptest::prelude::*;

use crate::{find_preset, Formula, ProductForm, Var, Vars};

fn form(source: &str) -> Option<ProductForm> {
    ProductForm::of(&Formula::compile(source).expect("a formula"))
}

#[test]
fn the_time_dependent_presets_are_of_product_form_and_the_fixed_ones_need_none() {
    for name in ["wfp3", "unicep"] {
        assert!(form(find_preset(name).expect("a preset").source).is_some(), "{name}");
    }
    for name in ["fcfs", "sjf", "saf", "f1", "f2", "f3", "f4"] {
        assert!(form(find_preset(name).expect("a preset").source).is_none(), "{name}");
    }
}

#[test]
fn sums_functions_and_conditions_over_both_kinds_of_variable_are_not() {
    for source in [
        "wait + requested",
        "log(wait + procs)",
        "(wait / requested)^2.5 * procs",
        "if(wait > 10, procs, requested)",
        "max(wait, requested) * procs",
        "-(wait / requested)^100",
    ] {
        assert!(form(source).is_none(), "{source}");
    }
    for source in [
        "wait",
        "-wait * procs",
        "log(wait) * procs",
        "(wait + 1e-15) / log2(procs + 1e-15)",
        "now / (requested * -procs)^-2",
    ] {
        assert!(form(source).is_some(), "{source}");
    }
}

/// A negated clock factor (UNICEP's `-(wait + 1e-15)`) gives its sign to
/// the form, so its clock part is positive whenever the wait is: a pass
/// merges only the seconds whose clock part is. The job part is the
/// denominator's inverse.
#[test]
fn a_negated_clock_factor_gives_its_sign_to_the_form() {
    let f = form(find_preset("unicep").expect("a preset").source).expect("product form");
    let mut vars = Vars::default();
    vars.set(Var::Wait, 64.0).set(Var::Requested, 10.0).set(Var::Procs, 4.0);
    assert_eq!(f.sign(), -1.0);
    // 64 + 1e-15 rounds to 64.
    assert_eq!(f.clock_part(&vars, &mut Vec::new()).map(|p| p.value), Some(64.0));
    assert_eq!(f.job_part(&vars, &mut Vec::new()).map(|p| p.value), Some(1.0 / (libm::log2(4.0 + 1e-15) * 10.0)));
}

/// `x^0` is 1 whatever `x` is, so a product raised to it drops out.
#[test]
fn a_zeroth_power_drops_its_factors() {
    let f = form("wait * (requested + wait)^0").expect("product form");
    let mut vars = Vars::default();
    vars.set(Var::Wait, 8.0).set(Var::Requested, 3.0);
    assert_eq!(f.job_part(&vars, &mut Vec::new()).map(|p| p.value), Some(1.0));
    assert_eq!(f.clock_part(&vars, &mut Vec::new()).map(|p| p.value), Some(8.0));
}

/// Zero, subnormal and non-finite factors have no part: the policy scores
/// such jobs exactly.
#[test]
fn a_factor_that_is_not_a_normal_number_has_no_part() {
    let f = form("-(wait / requested)^3 * procs").expect("product form");
    let mut vars = Vars::default();
    vars.set(Var::Requested, 10.0).set(Var::Procs, 4.0);
    assert!(f.job_part(&vars, &mut Vec::new()).is_some());
    for wait in [0.0, f64::MIN_POSITIVE / 4.0, f64::INFINITY, f64::NAN] {
        vars.set(Var::Wait, wait);
        assert!(f.clock_part(&vars, &mut Vec::new()).is_none(), "{wait}");
    }
    vars.set(Var::Requested, 1e300);
    assert!(f.job_part(&vars, &mut Vec::new()).is_none(), "too heavy");
}

fn job_leaf() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "requested",
        "procs",
        "(requested + procs)",
        "log2(procs + 1e-15)",
        "submit",
        "3.5",
        "(procs - 64)",
        "sqrt(requested)",
    ])
}

fn clock_leaf() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["wait", "(wait + 1e-15)", "now", "(free + 1)", "(queued - 3)", "(wait - 100)"])
}

/// Product-form formulas over the leaves above.
fn product_formula() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![job_leaf().prop_map(str::to_owned), clock_leaf().prop_map(str::to_owned)];
    leaf.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| format!("-{a}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) * ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) / ({b})")),
            (inner, -4i32..=4).prop_map(|(a, n)| format!("({a})^{n}")),
        ]
    })
}

/// A job's variables at a pass; values drawn from a few, so that scores
/// tie or nearly tie often.
fn job_vars() -> impl Strategy<Value = Vars> {
    (
        prop::sample::select(vec![0.0, 1.0, 7.0, 3600.0, 1e6]),
        prop::sample::select(vec![0.0, 1.0, 2.0, 3.0, 60.0, 61.0, 86400.0, 1e7]),
        prop::sample::select(vec![1.0, 2.0, 3.0, 64.0, 127.0, 1024.0]),
    )
        .prop_map(|(submit, requested, procs)| {
            let mut vars = Vars::default();
            vars.set(Var::Submit, submit).set(Var::Requested, requested).set(Var::Procs, procs);
            vars
        })
}

/// Sets a pass's variables for a job submitted at its `submit`.
fn at_pass(mut vars: Vars, wait: f64, free: f64, queued: f64) -> Vars {
    let now = vars.get(Var::Submit) + wait;
    vars.set(Var::Wait, wait).set(Var::Now, now).set(Var::Free, free).set(Var::Queued, queued);
    vars
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The lower bound is below every score it bounds, and it does not
    /// decrease along the order a policy files a second's jobs in, so the
    /// first job of that order bounds all the others.
    #[test]
    fn lower_bounds_hold_and_follow_the_filing_order(
        source in product_formula(),
        a in job_vars(),
        b in job_vars(),
        wait in prop::sample::select(vec![1.0, 2.0, 99.0, 100.0, 101.0, 3599.0, 1e5, 3e7]),
        free in 0.0..300.0f64,
        queued in 0.0..1e5f64,
        direction in prop::sample::select(vec![1.0, -1.0]),
    ) {
        let formula = Formula::compile(&source).expect("a formula");
        let Some(form) = ProductForm::of(&formula) else {
            // Only the formulas without a clock factor have no form.
            prop_assume!(!formula.is_time_dependent());
            return Ok(());
        };
        let mut stack = Vec::new();
        // Both jobs are submitted in the same second, as a group is.
        let mut b = b;
        b.set(Var::Submit, a.get(Var::Submit));
        let (a, b) = (at_pass(a, wait, free.floor(), queued.floor()), at_pass(b, wait, free.floor(), queued.floor()));
        let Some(clock) = form.clock_part(&a, &mut stack) else { return Ok(()) };
        let mut bounds = Vec::new();
        for vars in [a, b] {
            let Some(job) = form.job_part(&vars, &mut stack) else { continue };
            let score = formula.eval(&vars, &mut stack);
            let bound = form.lower_bound(direction, clock, job.value);
            prop_assert!(bound <= direction * score, "{source}: bound {bound} above {}", direction * score);
            bounds.push((direction * form.sign() * job.value, bound));
        }
        if let [(ka, la), (kb, lb)] = bounds[..] {
            if clock.value > 0.0 && ka <= kb {
                prop_assert!(la <= lb, "{source}: filed {ka} ≤ {kb} but bounds {la} > {lb}");
            }
        }
    }
}
