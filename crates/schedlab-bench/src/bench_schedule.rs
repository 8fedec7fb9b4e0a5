//! `schedlab-bench schedule` (hidden): the schedule view's costs on one
//! trace under one policy: laying the run out and indexing it, the heap
//! the view takes beside its run record, and the time of each query the
//! page makes while panning, zooming, inspecting and replaying. Prints one
//! JSON object. Positions are spread evenly over the run, not drawn at
//! random, so two runs of the benchmark ask the same questions.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{anyhow, Result};
use schedlab_engine::{Control, Time};
use schedlab_experiment::{resolve, RunRequest};
use schedlab_schedule::{scatter, Grid, Measure, ScheduleView};
use serde::Serialize;

use crate::args::{BenchScheduleArgs, PolicySpec};
use crate::fail::run_failure;
use crate::{memory, output, trace_input};

/// Queries of each kind timed; the figures are medians.
const SAMPLES: usize = 41;

/// Pixel columns of a wide screen.
const COLUMNS: u32 = 1600;

#[derive(Debug, Default, Serialize)]
struct Figures {
    jobs: usize,
    procs: u32,
    policy: String,
    /// Laying the run out and building the indexes, seconds.
    open_seconds: f64,
    /// Live heap the view adds to its run record, bytes, and per job.
    view_heap_bytes: usize,
    view_bytes_per_job: f64,
    /// The run record the view keeps, bytes per job.
    record_bytes_per_job: f64,
    /// The view's own count of its indexes, bytes.
    view_counted_bytes: usize,
    split_runs: usize,
    /// Median milliseconds of: the runs of a week (with their bands);
    week_window_ms: f64,
    week_window_runs: f64,
    /// utilisation per column over the whole run, and over a week;
    whole_buckets_ms: f64,
    week_buckets_ms: f64,
    /// every series per column over the whole run;
    whole_series_ms: f64,
    /// one job's inspector;
    inspect_ms: f64,
    /// the replay state (machine and first 200 waiting jobs);
    replay_ms: f64,
    /// the scatter of every job against a second layout of the same run.
    scatter_ms: f64,
}

pub fn main(args: &BenchScheduleArgs) -> Result<ExitCode> {
    let loaded = trace_input::load_with(&args.trace, &args.workload)?;
    let jobs = &loaded.trace.jobs;
    let spec = PolicySpec::parse(&args.policy)?;
    let request = RunRequest {
        policy: spec.id,
        params: schedlab_experiment::given_texts(spec.params),
        predictor: spec.predictor,
        ..RunRequest::default()
    };
    let settings = resolve(&request)?;
    let outcome = schedlab_experiment::run(&loaded.trace, &settings, &mut |_| Control::Continue)
        .map_err(|e| run_failure(e.to_string()))?;
    let tau = settings.metrics.bsd_threshold;
    let record = outcome.record;
    let record_heap = memory::heap_now();
    let copy = record.clone();
    let copy_heap = memory::heap_now() - record_heap;
    let start = Instant::now();
    let view = ScheduleView::new(jobs, loaded.trace.cluster.as_deref(), copy, tau)?;
    let open_seconds = start.elapsed().as_secs_f64();
    let view_heap = (memory::heap_now() - record_heap).saturating_sub(copy_heap);
    let (first, last) = view.span().ok_or_else(|| anyhow!("the trace has no jobs"))?;
    let n = jobs.len().max(1) as f64;
    let week: Time = 7 * 86_400;
    let at = |k: usize| first + ((last - first) as f64 * k as f64 / SAMPLES as f64) as Time;
    let whole = Grid { from: first, to: last.max(first + 1), buckets: COLUMNS };
    let mut runs = 0usize;
    let mut f = Figures {
        jobs: jobs.len(),
        procs: loaded.trace.procs,
        policy: args.policy.clone(),
        open_seconds,
        view_heap_bytes: view_heap,
        view_bytes_per_job: view_heap as f64 / n,
        record_bytes_per_job: copy_heap as f64 / n,
        view_counted_bytes: view.heap_bytes().0,
        split_runs: view.layout().split_runs(),
        week_window_ms: median_ms(|k| {
            runs += view.window(jobs, at(k), at(k) + week, usize::MAX).map_or(0, |w| w.rects.len());
        }),
        ..Figures::default()
    };
    f.week_window_runs = runs as f64 / SAMPLES as f64;
    f.whole_buckets_ms = median_ms(|_| drop(view.utilisation(&whole)));
    f.week_buckets_ms =
        median_ms(|k| drop(view.utilisation(&Grid { from: at(k), to: at(k) + week, buckets: COLUMNS })));
    f.whole_series_ms = median_ms(|_| drop(view.series(jobs, &whole)));
    f.inspect_ms = median_ms(|k| drop(view.inspect(jobs, (jobs.len() * k / SAMPLES) as u64)));
    f.replay_ms = median_ms(|k| drop(view.replay(jobs, at(k), 200)));
    let other = ScheduleView::new(jobs, loaded.trace.cluster.as_deref(), record, tau)?;
    f.scatter_ms = median_ms(|_| drop(scatter(jobs, &view, &other, Measure::Bsd)));
    let mut out = output::stdout();
    serde_json::to_writer_pretty(&mut out, &f)?;
    writeln!(out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The median over [`SAMPLES`] calls of `query(k)`, milliseconds.
fn median_ms(mut query: impl FnMut(usize)) -> f64 {
    let mut times: Vec<f64> = (0..SAMPLES)
        .map(|k| {
            let start = Instant::now();
            query(k);
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[SAMPLES / 2]
}
