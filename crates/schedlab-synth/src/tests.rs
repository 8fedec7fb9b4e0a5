use schedlab_workload::{read_swf, stats, ReadOptions};
use sha2::{Digest, Sha256};

use super::*;

fn params(procs: u32, jobs: u32, load: f64, seed: u64) -> LublinParams {
    LublinParams { procs, jobs, load, seed, estimate_factor: 1.0 }
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let p = params(128, 3000, 0.7, 42);
    let a = generate_swf(&p).unwrap();
    assert_eq!(a, generate_swf(&p).unwrap());
    assert_ne!(a, generate_swf(&LublinParams { seed: 43, ..p }).unwrap());
}

/// The same digest is checked by the WebAssembly tests
/// (crates/schedlab-wasm/tests/web.rs): a seed gives the same trace natively
/// and in the browser.
pub const GOLDEN_PARAMS: (u32, u32, f64, u64) = (64, 500, 0.8, 7);

#[test]
fn golden_digest() {
    let (procs, jobs, load, seed) = GOLDEN_PARAMS;
    let bytes = generate_swf(&params(procs, jobs, load, seed)).unwrap();
    let digest: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(digest, include_str!("../tests/golden.sha256").trim());
}

#[test]
fn the_reader_takes_it_as_it_is_and_the_load_is_hit() {
    for (procs, jobs, load) in
        [(128, 20_000, 0.7), (256, 10_000, 0.5), (100, 5000, 0.9), (1024, 8000, 1.2), (1, 2000, 0.6)]
    {
        let bytes = generate_swf(&params(procs, jobs, load, 1)).unwrap();
        let loaded = read_swf(&bytes[..], &ReadOptions::default()).unwrap();
        assert_eq!(loaded.trace.procs, procs);
        assert_eq!(loaded.trace.jobs.len(), jobs as usize);
        assert_eq!(loaded.report.summary(), "nothing counted", "{procs} {jobs}");
        assert!(loaded.report.warnings.is_empty(), "{:?}", loaded.report.warnings);
        assert_eq!(loaded.header.max_procs, Some(procs));
        assert!(loaded.header.notes[0].contains("Lublin–Feitelson 1999 model, seed 1, load"));
        let s = stats(&loaded.trace);
        let offered = s.recorded.offered_load.expect("jobs arrive over time");
        assert!((offered - load).abs() < 0.05 * load, "load {offered} for target {load}");
        assert!((offered - load).abs() < 0.002 * load, "load {offered} for target {load}");
        assert!(loaded.trace.jobs.iter().all(|j| (1..=procs).contains(&j.size) && j.runtime >= 1));
        assert!((s.recorded.mean_estimate_accuracy - 1.0).abs() < 1e-12);
    }
}

#[test]
fn statistics_match_the_model() {
    let jobs = generate_jobs(&params(128, 40_000, 0.7, 5)).unwrap();
    let n = jobs.len() as f64;
    let frac = |f: &dyn Fn(&SynthJob) -> bool| jobs.iter().filter(|j| f(j)).count() as f64 / n;
    let interactive = frac(&|j| j.class == JobClass::Interactive);
    // Gap means e^{...}: E[exp(Gamma(a, b))] = (1 − b)^−a, so the
    // interactive stream is the faster one: about 54 % of jobs. The gaps
    // are heavy-tailed (a stream can be silent for a day), so a finite
    // trace's mix varies by several points from seed to seed.
    let rate = |a: f64| 1.0 / (1.0 - 0.4871f64).powf(-a);
    let expected_interactive = rate(10.2303) / (rate(10.2303) + rate(10.2303 * ARAR));
    assert!((interactive - expected_interactive).abs() < 0.06, "{interactive} vs {expected_interactive}");
    let serial = frac(&|j| j.size == 1);
    let expected_serial = interactive * INTERACTIVE.serial_prob + (1.0 - interactive) * BATCH.serial_prob;
    assert!((serial - expected_serial).abs() < 0.015, "serial {serial} vs {expected_serial}");
    // Power-of-two parallel jobs: at least the rounded ones.
    let pow2 = frac(&|j| j.size > 1 && j.size.is_power_of_two());
    let expected_pow2 = interactive * INTERACTIVE.pow2_prob + (1.0 - interactive) * BATCH.pow2_prob;
    assert!(pow2 > expected_pow2 - 0.015 && pow2 < expected_pow2 + 0.08, "pow2 {pow2} vs {expected_pow2}");
    // Runtimes grow with size (p = pa·size + pb falls).
    let mean_ln = |lo: u32, hi: u32| {
        let v: Vec<f64> =
            jobs.iter().filter(|j| (lo..=hi).contains(&j.size)).map(|j| (j.runtime as f64).ln()).collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    assert!(mean_ln(65, 128) > mean_ln(1, 1) + 1.5, "{} {}", mean_ln(65, 128), mean_ln(1, 1));
    // Serial batch jobs: ln runtime mean = p·a1·b1 + (1 − p)·a2·b2.
    let serial_batch: Vec<f64> =
        jobs.iter().filter(|j| j.size == 1 && j.class == JobClass::Batch).map(|j| (j.runtime as f64).ln()).collect();
    let p = BATCH.pa + BATCH.pb;
    let expected = p * BATCH.a1 * BATCH.b1 + (1.0 - p) * BATCH.a2 * BATCH.b2;
    let got = serial_batch.iter().sum::<f64>() / serial_batch.len() as f64;
    assert!((got - expected).abs() < 0.1, "{got} vs {expected}");
    // The daily cycle: more arrivals in the afternoon than at night.
    let mut hours = [0usize; 24];
    for j in &jobs {
        hours[(j.submit.rem_euclid(86_400) / 3600) as usize] += 1;
    }
    let day: usize = hours[12..17].iter().sum();
    let night: usize = hours[2..7].iter().sum();
    assert!(day > 3 * night, "{hours:?}");
    assert!(jobs.windows(2).all(|w| w[0].submit <= w[1].submit));
}

#[test]
fn estimates_follow_the_factor() {
    let p = LublinParams { estimate_factor: 3.0, ..params(64, 2000, 0.7, 9) };
    let jobs = generate_jobs(&p).unwrap();
    assert!(jobs.iter().all(|j| j.estimate == j.runtime * 3));
    let bytes = generate_swf(&p).unwrap();
    let loaded = read_swf(&bytes[..], &ReadOptions::default()).unwrap();
    let s = stats(&loaded.trace);
    assert!((s.recorded.mean_estimate_accuracy - 1.0 / 3.0).abs() < 1e-9);
    // Same jobs and arrivals as with exact estimates.
    let exact = generate_jobs(&LublinParams { estimate_factor: 1.0, ..p }).unwrap();
    assert!(exact.iter().zip(&jobs).all(|(a, b)| a.submit == b.submit && a.runtime == b.runtime));
}

#[test]
fn bad_parameters_are_named() {
    let ok = params(128, 100, 0.7, 1);
    let cases = [
        (LublinParams { procs: 0, ..ok.clone() }, "procs"),
        (LublinParams { jobs: 0, ..ok.clone() }, "jobs"),
        (LublinParams { jobs: MAX_JOBS + 1, ..ok.clone() }, "jobs"),
        (LublinParams { load: 0.0, ..ok.clone() }, "load"),
        (LublinParams { load: f64::NAN, ..ok.clone() }, "load"),
        (LublinParams { load: 11.0, ..ok.clone() }, "load"),
        (LublinParams { estimate_factor: 0.5, ..ok.clone() }, "estimate_factor"),
        (LublinParams { estimate_factor: f64::INFINITY, ..ok.clone() }, "estimate_factor"),
    ];
    for (p, word) in cases {
        let e = generate_swf(&p).unwrap_err().to_string();
        assert!(e.starts_with(word), "{e}");
    }
}

#[test]
fn one_job_and_tiny_machines() {
    let jobs = generate_jobs(&params(1, 1, 0.5, 0)).unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].size, 1);
    for procs in [2, 3, 5] {
        let bytes = generate_swf(&params(procs, 300, 3.0, 2)).unwrap();
        assert_eq!(read_swf(&bytes[..], &ReadOptions::default()).unwrap().trace.jobs.len(), 300);
    }
}

#[test]
fn file_names() {
    assert_eq!(LublinParams::default().file_name(), "lublin99-p128-n10000-l0.7-s1.swf");
    let p = LublinParams { estimate_factor: 2.5, ..LublinParams::default() };
    assert_eq!(p.file_name(), "lublin99-p128-n10000-l0.7-s1-e2.5.swf");
}
