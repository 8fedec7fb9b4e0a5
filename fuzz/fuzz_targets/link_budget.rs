//! Fuzzes the work a link or an experiment may plan: whatever the runs,
//! sweep and repetitions the bytes choose (each up to its own limit), a
//! plan that is accepted holds at most `MAX_SIMULATIONS` points, and its
//! count agrees with the runs × values × repetitions it was given; a link
//! built from the bytes is accepted only if its plan is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab_experiment::link::decode;
use schedlab_experiment::{Experiment, Plan, RunSpec, Sweep, MAX_SIMULATIONS};

fuzz_target!(|data: &[u8]| {
    let Some(&[runs, sweep, repeat_low, repeat_high, seeded]) = data.get(..5).map(|d| <&[u8; 5]>::try_from(d).unwrap())
    else {
        return;
    };
    let runs = usize::from(runs % 100) + 1;
    let values = u32::from(sweep) * 40 + 1; // 1 to 10,201, past the limit too
    let repeat = (u32::from(repeat_high) << 8 | u32::from(repeat_low)) % 10_001;
    let spec = if seeded & 1 == 1 { "easy@virtual" } else { "easy" };
    let step = 99.0 / f64::from(values.max(2) - 1);
    let sweep = Sweep::parse(&format!("error=0:99:{step}")).ok();
    let mut e = Experiment { repeat, sweep, ..Experiment::of(vec![RunSpec::parse(spec).unwrap(); runs]) };
    if seeded & 2 == 2 {
        e.sweep = None;
    }
    if let Ok(plan) = Plan::new(e.clone()) {
        assert!(plan.len() <= MAX_SIMULATIONS, "{} points", plan.len());
        let cells = e.sweep.as_ref().map_or(Ok(1), Sweep::count).unwrap() as u64;
        let repeats = if spec == "easy" { 1 } else { u64::from(repeat) };
        let swept = if spec == "easy" { 1 } else { cells };
        assert_eq!(plan.len(), runs as u64 * swept * repeats);
    }
    // The same experiment through a link: decoded only if it plans.
    let link = schedlab_experiment::link::Link { trace: None, experiment: e.clone(), preset: None, view: None };
    if let Ok(fragment) = schedlab_experiment::link::encode(&link) {
        let decoded = decode(&fragment);
        assert_eq!(decoded.is_ok(), Plan::new(e).is_ok(), "{:?}", decoded.err());
    }
    // And any text after the five bytes, as a link.
    if let Ok(text) = std::str::from_utf8(&data[5..]) {
        if let Ok(link) = decode(&format!("v2={text}")) {
            assert!(Plan::new(link.experiment).is_ok_and(|p| p.len() <= MAX_SIMULATIONS));
        }
    }
});
