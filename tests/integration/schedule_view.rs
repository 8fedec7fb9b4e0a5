//! The schedule as data (`schedlab-schedule`): hand-computed layouts,
//! buckets, series, inspector, comparison and replay on small schedules;
//! the layout's invariants and the queries against brute force on random
//! runs; and a 250,000-job trace.

use proptest::prelude::*;
use schedlab::engine::{JobIdx, RunRecord, Time};
use schedlab::schedule::{
    run_of, run_span, scatter, select, Band, Grid, JobClass, JobRef, Measure, ReservationHeld, RunId, ScatterRect,
    ScheduleView, WindowSchedule,
};
use schedlab::workload::{read_swf, Job, Trace};
use schedlab_synth::{generate_swf, LublinParams};

use crate::properties::{run_checked, traces};
use crate::support::{run, trace, Row};

// The EASY example of the fairness tests (tests/integration/fairness.rs):
// P = 10. 1 (5 procs, runs 20 s of 100) and 2 (3, 500 s) start at 0. 3 (6,
// 10 s) arrives at 1, blocked, shadow 100; 4 (6, runs 10 of 1000) at 2; 5
// (2, 90 s) arrives at 3 and is backfilled (ends 93 ≤ 100). At 20, 1 ends
// early; the head 3 is delayed by 5 from 20 (culprit 5) and its shadow
// moves to 93, when 5 ends. 3 runs 93–103, 4 runs 103–113.
const EASY_EXAMPLE: &[Row] =
    &[(0, 20, 5, 100, 1), (0, 500, 3, 500, 2), (1, 10, 6, 10, 3), (2, 10, 6, 1000, 4), (3, 90, 2, 90, 5)];

// P = 10 under PV-EASY with kill/restart. 1 (8 procs, 100 s) starts at 0.
// 2 (10, 50 s) arrives at 1: it needs 1's processors, reservation 100. 3
// (2, 500 s) arrives at 2; it is predicted to end at 502, after the
// reservation, so it is not venture-backfilled, but step 4 starts it on the
// 2 idle processors: it ventured. At 100, 1 ends: 8 idle + 3's 2 = 10, so
// SLP preempts 3 (98 s lost, killed) and starts 2 (100–150). 3 restarts at
// 150 and ends at 650.
const PREEMPTION_EXAMPLE: &[Row] = &[(0, 100, 8, 100, 1), (1, 50, 10, 50, 2), (2, 500, 2, 500, 3)];

fn view(t: &Trace, spec: &str) -> ScheduleView {
    ScheduleView::new(&t.jobs, None, run(t, spec).record, 10).expect("a checked run lays out")
}

fn band(lo: u32, hi: u32) -> Band {
    Band { lo, hi }
}

/// Equal to the hand-computed values up to rounding.
fn assert_close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-9 * w.abs().max(1.0), "{got:?} vs {want:?}");
    }
}

#[test]
fn a_fragmented_machine_is_laid_out_by_hand() {
    // 1 takes [0,5) (best fit in [0,10)), 2 [5,8), 5 the exact hole [8,10).
    // At 93 the free intervals are [0,5) (1 ended at 20) and [8,10): none
    // holds 6, so 3 takes the widest, [0,5), and then [8,9). At 103 they
    // merge back with [9,10) and 4 is placed the same way.
    let t = trace(10, EASY_EXAMPLE);
    let v = view(&t, "easy");
    let bands = |r: RunId| v.layout().bands(r).to_vec();
    assert_eq!(bands(0), [band(0, 5)]);
    assert_eq!(bands(1), [band(5, 8)]);
    assert_eq!(bands(4), [band(8, 10)]);
    assert_eq!(bands(2), [band(0, 5), band(8, 9)]);
    assert_eq!(bands(3), [band(0, 5), band(8, 9)]);
    assert_eq!(v.layout().split_runs(), 2);
}

#[test]
fn a_run_of_no_length_is_placed_before_the_runs_starting_with_it() {
    // P = 10 under FCFS: 1 (8 procs) runs 0–100. At 100, 2 (10 procs, no
    // runtime) starts on the whole machine and completes in a batch of its
    // own within that second; then 3 (7 procs) starts, also at 100. Were 3
    // placed first, 2 would not fit.
    let t = trace(10, &[(0, 100, 8, 100, 1), (100, 0, 10, 1, 2), (100, 50, 7, 50, 3)]);
    let out = run(&t, "fcfs");
    assert_eq!(crate::support::starts(&out.record), [0, 100, 100]);
    let v = ScheduleView::new(&t.jobs, None, out.record, 10).expect("lays out");
    assert_eq!(v.layout().bands(1), [band(0, 10)]);
    assert_eq!(v.layout().bands(2), [band(0, 7)]);
}

#[test]
fn windows_list_the_runs_they_meet_in_start_order() {
    let t = trace(10, EASY_EXAMPLE);
    let v = view(&t, "easy");
    // [95, 200): 2 (0–500), 3 (93–103), 4 (103–113); 1 ended at 20 and 5 at 93.
    let w = v.window(&t.jobs, 95, 200, 10).unwrap();
    assert!(w.complete);
    assert_eq!(w.rects.iter().map(|r| r.job).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!((w.rects[1].start, w.rects[1].end, w.rects[1].class), (93, 103, JobClass::InOrder));
    let cut = v.window(&t.jobs, 95, 200, 2).unwrap();
    assert!(!cut.complete);
    assert_eq!(cut.rects, w.rects[..2]);
    // A window is half-open: 5 ends at 93, so [93, 94) does not meet it.
    let at_93 = v.window(&t.jobs, 93, 94, 10).unwrap();
    assert_eq!(at_93.rects.iter().map(|r| r.job).collect::<Vec<_>>(), [1, 2]);
    assert!(v.window(&t.jobs, 50, 50, 10).is_err());
    // 5 was backfilled and predicted to end (93) before the shadow (100).
    assert_eq!(v.class(4), JobClass::Backfilled);
}

/// A window drawn from the record (`WindowSchedule`, the command line's
/// `--gantt`) keeps the bands of the runs meeting it, of the reservation's
/// run and of what runs at once, not of the whole run. P = 10 under EASY:
/// 200 jobs of 10 processors and 10 s, all submitted at 0, run one after
/// another, job index k over [10k, 10k + 10).
#[test]
fn a_window_keeps_only_the_runs_it_meets() {
    let rows: Vec<Row> = (1..=200).map(|id| (0, 10, 10, 10, id)).collect();
    let t = trace(10, &rows);
    let record = run(&t, "easy").record;
    // [500, 530) meets indices 50, 51 and 52 (49 ends at 500, 53 starts at
    // 530). At its middle, 515, index 51 runs and 52 is the first waiting
    // job, its reservation made at 510 (when 51 started) for 520.
    let grid = Grid { from: 500, to: 530, buckets: 3 };
    let w = WindowSchedule::new(&t.jobs, None, &record, &grid, 1000, 515).expect("lays out");
    assert!(w.window.complete);
    assert_eq!(
        w.window.rects.iter().map(|r| (r.job, r.start, r.end)).collect::<Vec<_>>(),
        [(50, 500, 510), (51, 510, 520), (52, 520, 530)]
    );
    assert!(w.window.rects.iter().all(|r| r.bands == [band(0, 10)]));
    let head = w.head_reservation.expect("52 waits with a reservation");
    assert_eq!((head.job, head.made, head.start, head.bands), (52, 510, 520, vec![band(0, 10)]));
    // One run holding processors, the window's three and the reservation's.
    assert_eq!(w.bands_held, 5);
    // The whole machine is busy; 200 − 51, 200 − 52 and 200 − 53 jobs wait
    // in the three buckets; the first waiting job has waited up to the
    // bucket's end.
    assert_eq!(w.series.utilisation, [1.0, 1.0, 1.0]);
    assert_eq!(w.series.queue_jobs, [149.0, 148.0, 147.0]);
    assert_eq!(w.series.head_wait, [510.0, 520.0, 530.0]);
    // Past the limit no runs are kept: the window is drawn by columns.
    let crowded = WindowSchedule::new(&t.jobs, None, &record, &grid, 2, 515).expect("lays out");
    assert!(!crowded.window.complete && crowded.window.rects.is_empty());
    assert_eq!(crowded.bands_held, 1 + 2 + 1);
    assert_eq!(run_span(&t.jobs, &record), Some((0, 2000)));
}

#[test]
fn buckets_and_series_by_hand() {
    let t = trace(10, EASY_EXAMPLE);
    let v = view(&t, "easy");
    // [0, 100): busy 1: 5 × 20, 2: 3 × 100, 5: 2 × 90, 3: 6 × 7 = 622 of
    // 1000 processor-seconds. Waiting: 3 from 1 to 93 (92 s) and 4 from 2
    // on (98 s): 1.9 jobs on average; their work 6 × 10 × 92 + 6 × 1000 ×
    // 98 = 593,520 over 100 s. The head is 3 until 93 (wait 92 then), then
    // 4, submitted at 2: 98 at the bucket's end.
    let one = Grid { from: 0, to: 100, buckets: 1 };
    let s = v.series(&t.jobs, &one).unwrap();
    assert_close(&s.utilisation, &[0.622]);
    assert_close(&s.queue_jobs, &[1.9]);
    assert_close(&s.queue_work, &[5935.2]);
    assert_close(&s.head_wait, &[98.0]);
    assert_close(&v.utilisation(&one).unwrap(), &[0.622]);
    // Two buckets of 50 s: [0, 50) holds 1 (100), 2 (150), 5 (94) = 344;
    // [50, 100) holds 2 (150), 5 (86), 3 (42) = 278. Head waits: 3 at 50
    // (49); 4 at 100 (98).
    let two = Grid { from: 0, to: 100, buckets: 2 };
    let s = v.series(&t.jobs, &two).unwrap();
    assert_close(&s.utilisation, &[0.688, 0.556]);
    assert_close(&s.head_wait, &[49.0, 98.0]);
    // Buckets need not be whole seconds: [0, 1.5) and [1.5, 3): 8 busy
    // throughout; 3 waits from 1, 4 from 2.
    let s = v.series(&t.jobs, &Grid { from: 0, to: 3, buckets: 2 }).unwrap();
    assert_close(&s.utilisation, &[0.8, 0.8]);
    assert_close(&s.queue_jobs, &[0.5 / 1.5, (1.5 + 1.0) / 1.5]);
    assert!(v.series(&t.jobs, &Grid { from: 0, to: 100, buckets: 0 }).is_err());
    assert!(v.utilisation(&Grid { from: 10, to: 10, buckets: 5 }).is_err());
}

#[test]
fn the_inspector_names_a_blocked_jobs_reservations_and_its_culprit() {
    let t = trace(10, EASY_EXAMPLE);
    let v = view(&t, "easy");
    let three = v.inspect(&t.jobs, 2).unwrap();
    assert_eq!((three.id, three.submit, three.start, three.end), (3, 1, 93, 103));
    // wait = 103 − 1 − 10 = 92; BSD = (92 + 10) / 10.
    assert_eq!((three.wait, three.bsd), (92, 10.2));
    assert!(three.blocked);
    assert_eq!(three.class, JobClass::InOrder);
    // Reserved at 1 for 100 (when 1 was expected to end); moved at 20, when
    // 1 ended early, to 93 (when 5 is expected to end).
    assert_eq!(
        three.reservations,
        [ReservationHeld { made: 1, start: 100, wait: 0 }, ReservationHeld { made: 20, start: 93, wait: 0 }]
    );
    // The full audit: delayed from 20 by 5 until 93.
    let delayed = three.delayed.expect("3 was delayed");
    assert_eq!((delayed.from, delayed.delay), (20, 73));
    assert_eq!(delayed.culprits, [JobRef { job: 4, id: 5 }]);
    assert_eq!(three.bands, [band(0, 5), band(8, 9)]);
    // The culprit's side: backfilled behind 3, and it delayed 3.
    let five = v.inspect(&t.jobs, 4).unwrap();
    assert_eq!(five.class, JobClass::Backfilled);
    assert_eq!(five.backfilled_behind, Some(JobRef { job: 2, id: 3 }));
    assert_eq!(five.delayed_jobs, [JobRef { job: 2, id: 3 }]);
    assert!(five.delayed.is_none() && five.reservations.is_empty());
    assert_eq!(v.find(&t.jobs, 5), Some(4));
    assert_eq!(v.find(&t.jobs, 6), None);
    assert!(v.inspect(&t.jobs, 5).is_err());
}

#[test]
fn a_ventured_job_preempted_by_the_head_loses_its_work() {
    let t = trace(10, PREEMPTION_EXAMPLE);
    let v = view(&t, "pv-easy");
    let three = v.inspect(&t.jobs, 2).unwrap();
    assert_eq!(three.class, JobClass::Ventured);
    assert_eq!((three.start, three.end), (150, 650));
    assert_eq!(three.preemptions.len(), 1);
    let p = &three.preemptions[0];
    // Killed at 100 after 98 s: all of it lost. It ran on the 2 processors
    // 1 left ([8, 10)); it restarts on the lowest of the whole free machine.
    assert_eq!((p.start, p.end, p.lost), (2, 100, 98));
    assert_eq!(p.bands, [band(8, 10)]);
    assert_eq!(three.bands, [band(0, 2)]);
    let w = v.window(&t.jobs, 0, 1000, 10).unwrap();
    let segment = w.rects.iter().find(|r| r.preempted).expect("the preempted run is drawn");
    assert_eq!((segment.job, segment.lost, segment.class), (2, 98, JobClass::Ventured));
    // The head 2 held one reservation, 100, and ran then on the whole machine.
    let two = v.inspect(&t.jobs, 1).unwrap();
    assert_eq!(two.reservations, [ReservationHeld { made: 1, start: 100, wait: 0 }]);
    assert_eq!(two.bands, [band(0, 10)]);
    // Checkpointing every 30 s of progress at 10 s a checkpoint: 1 writes
    // three (at 30, 60 and 90) and ends at 130, when SLP preempts 3. Started
    // at 2, 3 wrote checkpoints at progress 30 (wall 32–42), 60 (72–82) and
    // 90 (112–122): it keeps 90 s of progress, secured at 122, and the 8 s
    // since are lost.
    let cp = view(&t, "pv-easy:mode=checkpoint,interval=30,cost=10");
    let cp3 = cp.inspect(&t.jobs, 2).unwrap();
    assert_eq!((cp3.preemptions[0].end, cp3.preemptions[0].lost), (130, 8));
    // Suspended jobs keep their progress: nothing is lost.
    let vm = view(&t, "pv-easy:mode=suspend,slowdown=0,cost=10");
    assert_eq!(vm.inspect(&t.jobs, 2).unwrap().preemptions[0].lost, 0);
}

#[test]
fn replay_shows_the_machine_the_queue_and_the_heads_reservation() {
    let t = trace(10, EASY_EXAMPLE);
    let v = view(&t, "easy");
    let s = v.replay(&t.jobs, 50, 10);
    assert_eq!(s.running.iter().map(|r| r.job).collect::<Vec<_>>(), [1, 4]);
    assert_eq!(s.busy, 5);
    assert_eq!(s.queue.iter().map(|q| q.job).collect::<Vec<_>>(), [2, 3]);
    assert_eq!(s.queue_length, 2);
    // The head 3's reservation in force at 50 is the one made at 20: start
    // 93, for its prediction (its estimate, 10 s), where it later ran.
    let head = s.head_reservation.expect("3 holds a reservation");
    assert_eq!((head.job, head.made, head.start, head.length), (2, 20, 93, 10));
    assert_eq!(head.bands, [band(0, 5), band(8, 9)]);
    // Before 20 the first reservation was in force.
    assert_eq!(v.replay(&t.jobs, 10, 10).head_reservation.map(|h| h.start), Some(100));
    assert_eq!((s.previous, s.next), (Some(20), Some(93)));
    // A queue limit keeps the first jobs by priority; the length counts all.
    let one = v.replay(&t.jobs, 50, 1);
    assert_eq!((one.queue.len(), one.queue[0].job, one.queue_length), (1, 2, 2));
    // At 93, after 5 ended and 3 started: 4 waits alone.
    let at_93 = v.replay(&t.jobs, 93, 10);
    assert_eq!(at_93.running.iter().map(|r| r.job).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(at_93.queue.iter().map(|q| q.job).collect::<Vec<_>>(), [3]);
}

#[test]
fn the_scatter_shows_who_pays_for_easys_gains() {
    // Under FCFS: 3 starts at 20 when 1 ends (wait 19), 4 at 30 (28), 5 at
    // 40 (37). Under EASY: 3 waits 92, 4 waits 101, 5 none.
    let t = trace(10, EASY_EXAMPLE);
    let (easy, fcfs) = (view(&t, "easy"), view(&t, "fcfs"));
    let s = scatter(&t.jobs, &easy, &fcfs, Measure::Wait).unwrap();
    assert_eq!(s.x, [1.0, 1.0, 92.0, 101.0, 1.0]);
    assert_eq!(s.y, [1.0, 1.0, 19.0, 28.0, 37.0]);
    // Sizes 5, 3, 6, 6, 2: all in the class 2–8.
    assert_eq!(s.size_class, [1, 1, 1, 1, 1]);
    // The jobs EASY made wait longer than FCFS did: 3 and 4.
    let rect = ScatterRect { x_min: 50.0, x_max: 200.0, y_min: 1.0, y_max: 30.0 };
    let picked = select(&t.jobs, &easy, &fcfs, Measure::Wait, &rect, 10).unwrap();
    assert_eq!(picked.jobs, [JobRef { job: 2, id: 3 }, JobRef { job: 3, id: 4 }]);
    assert_eq!(picked.total, 2);
    let first = select(&t.jobs, &easy, &fcfs, Measure::Wait, &rect, 1).unwrap();
    assert_eq!((first.jobs.len(), first.total), (1, 2));
    // Bounded slowdown with τ = 10: 5 under FCFS (37 + 90) / 90.
    let b = scatter(&t.jobs, &easy, &fcfs, Measure::Bsd).unwrap();
    assert_close(&b.y[4..], &[127.0 / 90.0]);
    let other = trace(10, &EASY_EXAMPLE[..3]);
    assert!(scatter(&t.jobs, &easy, &view(&other, "easy"), Measure::Wait).is_err());
}

/// Every run's bands cover exactly its size within the machine, and no
/// processor holds two runs at once (ends before starts at a second).
fn assert_layout_is_sound(jobs: &[Job], record: &RunRecord, v: &ScheduleView) {
    let runs = record.jobs.len() + record.segments.len();
    let mut events: Vec<(Time, bool, RunId)> = Vec::with_capacity(2 * runs);
    for r in 0..runs as RunId {
        let run = run_of(record, r);
        let bands = v.layout().bands(r);
        let width: u32 = bands.iter().map(|b| b.hi - b.lo).sum();
        assert_eq!(width, jobs[run.job as usize].size, "run {r} of job {}", run.job);
        assert!(bands.iter().all(|b| b.lo < b.hi && b.hi <= record.procs), "run {r}: {bands:?}");
        assert!(bands.windows(2).all(|w| w[0].hi <= w[1].lo), "run {r}: {bands:?}");
        if run.end > run.start {
            events.push((run.start, true, r));
            events.push((run.end, false, r));
        }
    }
    // Ends (false) sort before starts (true) at the same second.
    events.sort_unstable();
    let mut owner: Vec<Option<RunId>> = vec![None; record.procs as usize];
    for (time, starts, r) in events {
        for b in v.layout().bands(r) {
            for p in b.lo..b.hi {
                let slot = &mut owner[p as usize];
                if starts {
                    assert!(slot.is_none(), "processor {p} held by runs {slot:?} and {r} at {time}");
                    *slot = Some(r);
                } else {
                    assert_eq!(*slot, Some(r), "processor {p} at {time}");
                    *slot = None;
                }
            }
        }
    }
}

/// The runs meeting `[from, to)` and the jobs waiting at `t`, by brute force.
fn brute_window(record: &RunRecord, from: Time, to: Time) -> Vec<RunId> {
    let mut runs: Vec<RunId> = (0..(record.jobs.len() + record.segments.len()) as RunId)
        .filter(|&r| {
            let run = run_of(record, r);
            run.start < to && run.end > from
        })
        .collect();
    runs.sort_by_key(|&r| (run_of(record, r).start, run_of(record, r).job, r));
    runs
}

fn brute_queue(jobs: &[Job], record: &RunRecord, t: Time) -> Vec<JobIdx> {
    (0..jobs.len() as JobIdx)
        .filter(|&j| {
            let mut from = jobs[j as usize].submit;
            let mut waits = false;
            for s in record.segments.iter().filter(|s| s.job == j) {
                waits |= from <= t && t < s.start;
                from = s.end;
            }
            waits || (from <= t && t < record.jobs[j as usize].start)
        })
        .collect()
}

/// `WindowSchedule`, which keeps only a window's runs, gives the view's
/// figures bit for bit: runs, columns, series and the reservation, for a
/// window at `at` and for the whole span, with room for every run and for
/// two.
fn assert_window_schedule_is_the_views(
    jobs: &[Job],
    record: &RunRecord,
    v: &ScheduleView,
    at: Time,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(run_span(jobs, record), v.span());
    let mut grids = vec![Grid { from: at, to: at + 50, buckets: 7 }];
    grids.extend(v.span().filter(|(a, b)| b > a).map(|(from, to)| Grid { from, to, buckets: 13 }));
    for grid in grids {
        for limit in [usize::MAX, 2] {
            let middle = grid.from + (grid.to - grid.from) / 2;
            let w = WindowSchedule::new(jobs, None, record, &grid, limit, middle).unwrap();
            let want = v.window(jobs, grid.from, grid.to, limit).unwrap();
            prop_assert_eq!(w.window.complete, want.complete);
            if want.complete {
                prop_assert_eq!(&w.window.rects, &want.rects);
            }
            prop_assert_eq!(&w.utilisation, &v.utilisation(&grid).unwrap());
            prop_assert_eq!(&w.series, &v.series(jobs, &grid).unwrap());
            prop_assert_eq!(&w.head_reservation, &v.head_reservation(jobs, middle));
        }
    }
    Ok(())
}

const SPECS: &[&str] = &["fcfs", "easy", "cbf", "pv-easy", "pv-easy:mode=checkpoint,cost=5", "slack", "dbf"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn layouts_and_queries_agree_with_brute_force(t in traces(), at in 0i64..600) {
        for spec in SPECS {
            let out = run_checked(&t, spec, 1).map_err(TestCaseError::fail)?;
            let v = ScheduleView::new(&t.jobs, None, out.record.clone(), 10).map_err(|e| TestCaseError::fail(format!("{spec}: {e}")))?;
            let record = &out.record;
            assert_layout_is_sound(&t.jobs, record, &v);
            // Windows and replay against brute force.
            let w = v.window(&t.jobs, at, at + 50, usize::MAX).unwrap();
            let ids: Vec<RunId> = brute_window(record, at, at + 50);
            prop_assert_eq!(w.rects.len(), ids.len(), "{}", spec);
            for (rect, &r) in w.rects.iter().zip(&ids) {
                let run = run_of(record, r);
                prop_assert_eq!((rect.job, rect.start, rect.end), (run.job, run.start, run.end));
            }
            assert_window_schedule_is_the_views(&t.jobs, record, &v, at)?;
            let state = v.replay(&t.jobs, at, usize::MAX);
            prop_assert_eq!(state.queue.iter().map(|q| q.job).collect::<Vec<_>>(), brute_queue(&t.jobs, record, at));
            prop_assert_eq!(state.queue_length as usize, state.queue.len());
            let busy: u32 = state.running.iter().map(|r| t.jobs[r.job as usize].size).sum();
            prop_assert_eq!(busy, state.busy);
            // Over the whole run, the mean busy processors are Σ size ×
            // length / span, and the mean queue Σ wait lengths / span.
            if let Some((first, last)) = v.span().filter(|(a, b)| b > a) {
                let grid = Grid { from: first, to: last, buckets: 1 };
                let s = v.series(&t.jobs, &grid).unwrap();
                let area: i64 = (0..(record.jobs.len() + record.segments.len()) as RunId)
                    .map(|r| run_of(record, r))
                    .map(|r| i64::from(t.jobs[r.job as usize].size) * (r.end - r.start))
                    .sum();
                let want = area as f64 / (f64::from(t.procs) * (last - first) as f64);
                prop_assert!((s.utilisation[0] - want).abs() < 1e-9, "{}: {} vs {}", spec, s.utilisation[0], want);
                prop_assert!(s.utilisation[0] <= 1.0 + 1e-12);
                let waited: i64 = t.jobs.iter().zip(&record.jobs).map(|(j, r)| r.start - j.submit).sum::<i64>()
                    - record.segments.iter().map(|s| s.end - s.start).sum::<i64>();
                let want = waited as f64 / (last - first) as f64;
                prop_assert!((s.queue_jobs[0] - want).abs() < 1e-9, "{}: {} vs {}", spec, s.queue_jobs[0], want);
            }
        }
    }
}

/// A 250,000-job Lublin–Feitelson trace under EASY: the layout holds its
/// invariants, and a week's window returns what the week holds.
#[test]
fn a_year_of_250000_jobs_is_laid_out_and_queried() {
    let params = LublinParams { procs: 256, jobs: 250_000, load: 0.85, seed: 7, estimate_factor: 3.0 };
    let bytes = generate_swf(&params).expect("valid parameters");
    let t = read_swf(&bytes[..], &Default::default()).expect("generated SWF reads").trace;
    let out = run(&t, "easy");
    let v = ScheduleView::new(&t.jobs, None, out.record.clone(), 10).expect("lays out");
    assert_layout_is_sound(&t.jobs, &out.record, &v);
    let (first, last) = v.span().expect("jobs ran");
    let week = 7 * 86_400;
    let from = first + (last - first) / 2;
    let w = v.window(&t.jobs, from, from + week, usize::MAX).unwrap();
    assert!(w.complete && !w.rects.is_empty());
    assert_eq!(w.rects.len(), brute_window(&out.record, from, from + week).len());
    let s = v.series(&t.jobs, &Grid { from: first, to: last, buckets: 2000 }).unwrap();
    assert!(s.utilisation.iter().all(|&u| (0.0..=1.0 + 1e-12).contains(&u)));
    let state = v.replay(&t.jobs, from, 50);
    let mut queue = brute_queue(&t.jobs, &out.record, from);
    assert_eq!(state.queue_length as usize, queue.len());
    queue.truncate(50);
    assert_eq!(state.queue.iter().map(|q| q.job).collect::<Vec<_>>(), queue);
}
