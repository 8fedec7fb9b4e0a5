//! Fuzzes whole runs: any bytes make a small trace (read through the SWF
//! reader, so its limits apply) and pick one configuration among every
//! policy with every runtime predictor it accepts, the preemption modes and
//! the variants. The run must finish without a panic and pass the run
//! checker, and its metrics must be finite. One configuration per input
//! keeps the fuzzer fast; the corpus covers them all.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab::engine::{Control, SOURCES};
use schedlab::experiment::{self, PolicySpec};
use schedlab::policies::REGISTRY;
use schedlab::workload::{read_swf, ReadOptions};

/// Variants beyond "each policy with each predictor".
const VARIANTS: &[&str] = &[
    "easy:order=shortest",
    "pv-easy:mode=checkpoint,cost=120",
    "pv-easy:mode=suspend,cost=120",
    "selective:variant=sel-d",
    "easy:error=100@virtual",
    "slurm:bf_interval=1,bf_resolution=1,sched_interval=1",
    "slurm:PriorityType=priority/multifactor,PriorityWeightAge=100,PriorityWeightFairshare=1000,PriorityWeightJobSize=10,PriorityCalcPeriod=1,PriorityDecayHalfLife=2",
];

/// Most jobs a trace gets: small traces keep a run to microseconds.
const MAX_JOBS: usize = 48;

/// Bytes per job: submit gap, run time, size, estimate, user.
const JOB_BYTES: usize = 6;

fuzz_target!(|data: &[u8]| {
    let [head, pick, body @ ..] = data else { return };
    let text = swf_text(*head, body);
    let Ok(loaded) = read_swf(text.as_bytes(), &ReadOptions::default()) else { return };
    let specs = specs();
    let spec = &specs[usize::from(*pick) % specs.len()];
    let mut request = PolicySpec::parse(spec).expect("a registry spec parses").request();
    request.seed = u64::from(*head);
    let settings = experiment::resolve(&request).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let outcome = experiment::run(&loaded.trace, &settings, &mut |_| Control::Continue)
        .unwrap_or_else(|e| panic!("{spec} on\n{text}\nfailed: {e}"));
    assert!(outcome.checked, "{spec}: the checker ran");
    let m = &outcome.metrics;
    assert!(m.mbs.is_finite() && m.mwbs.is_finite() && m.mean_wait.is_finite(), "{spec}: {m:?}");
    assert!(m.utilization.is_finite() && (0.0..=1.0 + 1e-9).contains(&m.utilization), "{spec}: {m:?}");
});

/// Every policy with each predictor it can use (or its own), then the variants.
fn specs() -> Vec<String> {
    let mut specs = Vec::new();
    for policy in REGISTRY {
        if policy.uses_runtime_source {
            specs.extend(SOURCES.iter().map(|s| format!("{}@{}", policy.id, s.id)));
        } else {
            specs.push(policy.id.to_string());
        }
    }
    specs.extend(VARIANTS.iter().map(|v| v.to_string()));
    specs
}

/// An SWF text from the bytes. The head byte picks the machine size (1 to
/// 64) and a time scale: one second, or 2^24 s so that times reach the
/// reader's limit of 2^40 s. Each job takes `JOB_BYTES` bytes.
fn swf_text(head: u8, body: &[u8]) -> String {
    let procs = u32::from(head % 64) + 1;
    let scale: i64 = if head & 0x40 != 0 { 1 << 24 } else { 1 };
    let mut text = format!("; MaxProcs: {procs}\n");
    let mut submit = 0i64;
    for (i, b) in body.chunks_exact(JOB_BYTES).take(MAX_JOBS).enumerate() {
        submit += i64::from(b[0] % 32) * scale;
        let runtime = i64::from(u16::from_le_bytes([b[1], b[2]]) % 4096) * scale;
        let size = u32::from(b[3]) % (procs + 2) + 1;
        // Estimates below, at and above the run time; 0 means "unknown".
        let estimate = match b[4] % 4 {
            0 => 0,
            1 => runtime,
            2 => runtime / 2,
            _ => runtime * 2 + i64::from(b[4]),
        };
        let user = b[5] % 5;
        text += &format!("{} {submit} -1 {runtime} {size} -1 -1 {size} {estimate} -1 1 {user} 1 -1 1 1 -1 -1\n", i + 1);
    }
    text
}
