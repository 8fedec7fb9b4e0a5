//! Hand-written runs for the metrics' unit tests.

use schedlab_engine::{JobRecord, Preemption, ReservationLog, RunRecord, RuntimeSource, Time};
use schedlab_workload::Job;

/// Jobs of one processor each, numbered from 1, given as (submit, runtime,
/// estimate, start), each run once without preemption from its start.
pub(crate) fn finished(rows: &[(Time, Time, Time, Time)]) -> (Vec<Job>, RunRecord) {
    let jobs = rows
        .iter()
        .zip(1..)
        .map(|(&(submit, runtime, estimate, _), id)| Job {
            id,
            submit,
            runtime,
            size: 1,
            estimate,
            user: 1,
            group: 1,
            queue: 1,
            partition: 1,
            status: 1,
        })
        .collect();
    let records = rows
        .iter()
        .map(|&(_, runtime, _, start)| JobRecord {
            first_start: start,
            start,
            end: start + runtime,
            prediction: runtime,
            starts: 1,
            held: runtime,
            completions: 1,
            ..JobRecord::UNSTARTED
        })
        .collect();
    let run = RunRecord {
        procs: rows.len() as u32,
        source: RuntimeSource::Exact,
        preemption: Preemption::Kill,
        jobs: records,
        segments: Vec::new(),
        reservations: ReservationLog::default(),
        events: 0,
        passes: 0,
        placements: None,
    };
    (jobs, run)
}
