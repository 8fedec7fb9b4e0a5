use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use schedlab_workload::{Cluster, Job};
use thiserror::Error;

mod on_nodes;

pub(crate) use on_nodes::NodeRun;

use crate::fenwick::Fenwick;
use crate::policy::{Happened, Policy};
use crate::predictor::{Overrun, Predictor, RuntimeSource};
use crate::record::{JobRecord, ReservationChange, ReservationLog, RunRecord, Segment};
use crate::{JobIdx, Preemption, Time};

/// Everything one run needs besides the jobs and the policy.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub procs: u32,
    pub source: RuntimeSource,
    /// What is expected of a running job that has outlived its prediction.
    pub overrun: Overrun,
    /// Seeds every random draw of the run (the virtual predictor's).
    pub seed: u64,
    /// Call the observer after about this many events, or as many reservation changes (0: never).
    pub progress_every: u64,
}

/// Reported to the observer every `progress_every` events or reservation changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub now: Time,
    pub completed: u64,
    pub jobs: u64,
    pub events: u64,
    /// Reservation changes recorded so far (the run record's log): the
    /// work of a policy that keeps a plan, which on a backlog can grow
    /// faster than the jobs.
    pub reservation_changes: u64,
}

/// The observer's answer: go on, or stop the run at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Cancel,
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    #[error("the jobs are not in priority order (submit time, then job number) at job {job}")]
    Unsorted { job: u64 },
    #[error("job {job} needs {size} processors but the machine has {procs}")]
    JobTooLarge { job: u64, size: u32, procs: u32 },
    #[error("policy bug at t={time}: job {job} needs {size} processors but only {free} are free")]
    Overcommit { time: Time, job: u64, size: u32, free: u32 },
    #[error("policy bug at t={time}: job {job} was started but is not waiting")]
    NotWaiting { time: Time, job: u64 },
    #[error("policy bug at t={time}: job {job} was preempted but is not running")]
    NotRunning { time: Time, job: u64 },
    #[error("policy bug at t={time}: a timer was set for the past (t={at})")]
    TimerInPast { time: Time, at: Time },
    #[error("policy bug at t={time}: prediction {prediction} s for job {job} is outside [1, estimate]")]
    BadPrediction { time: Time, job: u64, prediction: Time },
    #[error(
        "policy bug at t={time}: {waiting} jobs wait (first: job {first}) but nothing is running and no event is due"
    )]
    Stalled { time: Time, waiting: usize, first: u64 },
    #[error("the order formula `{formula}` gives NaN for job {job} at t={time}; a NaN score cannot be ordered")]
    NanScore { time: Time, job: u64, formula: String },
    #[error("the run was cancelled at t={time}")]
    Cancelled { time: Time },
    /// A policy could not be built from parameters that were checked when
    /// they were resolved (which should not happen: the run stops at its
    /// first pass rather than run another policy in its place).
    #[error("policy `{policy}` cannot run with these parameters: {message}")]
    Unbuildable { policy: &'static str, message: String },
    #[error("policy bug at t={time}: job {job} does not fit the free nodes of its partition")]
    NoRoom { time: Time, job: u64 },
    #[error("policy bug at t={time}: job {job} was placed on nodes that cannot hold it")]
    BadPlacement { time: Time, job: u64 },
    #[error("the trace's machine of nodes gives requests for {requests} jobs, the run has {jobs}")]
    RequestsMismatch { requests: usize, jobs: usize },
    #[error("preemption is not modelled on a machine of nodes (job {job} at t={time})")]
    PreemptOnNodes { time: Time, job: u64 },
}

/// A job without a reservation in its current wait.
const NO_RESERVATION: Time = Time::MIN;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Pending,
    Waiting,
    Running,
    Done,
}

/// The machine and the queue as a policy sees them during a pass.
pub struct Sim<'a> {
    jobs: &'a [Job],
    procs: u32,
    now: Time,
    free: u32,
    state: Vec<State>,
    /// Waiting jobs in priority order.
    waiting: BTreeSet<JobIdx>,
    /// Running jobs keyed by expected end.
    running: BTreeSet<(Time, JobIdx)>,
    /// Running jobs in priority order.
    running_by_priority: BTreeSet<JobIdx>,
    /// Changes to `running` so far (`Sim::running_revision`).
    running_revision: u64,
    expected_end: Vec<Time>,
    overrun: Overrun,
    /// The second at which jobs with a stale prediction are expected to end
    /// (`Overrun::Stale`), set at each pass that has any.
    stale_end: Option<Time>,
    preemption: Preemption,
    /// Progress each job had saved when its current segment started.
    saved: Vec<Time>,
    /// The sequence number of each running job's live completion event;
    /// events of preempted segments no longer match and are skipped.
    live: Vec<u64>,
    segments: Vec<Segment>,
    /// Processors held by running jobs, by priority, for the fairness audit.
    held: Fenwick,
    predictor: Predictor,
    records: Vec<JobRecord>,
    /// Each job's reservation in its current wait (`NO_RESERVATION` if none).
    reservation: Vec<Time>,
    reservations: ReservationLog,
    completions: BinaryHeap<Reverse<(Time, u64, JobIdx)>>,
    timers: BinaryHeap<Reverse<(Time, u64, u64)>>,
    next_arrival: usize,
    seq: u64,
    events: u64,
    passes: u64,
    completed: u64,
    /// The machine of nodes and its free resources; `None` on the
    /// archive's model of interchangeable processors.
    cluster: Option<NodeRun<'a>>,
}

impl<'a> Sim<'a> {
    pub fn now(&self) -> Time {
        self.now
    }

    /// The second at which running jobs whose prediction is stale
    /// (`overrun = stale`) are expected to end, the next one, if any runs.
    /// Nothing is released then unless one of them really ends, which is a
    /// completion and so a pass of its own: a policy need not set a timer
    /// for it. A timer there would wake the scheduler every second of the
    /// overrun (10^8 passes for one job that outlived its prediction by
    /// three years).
    pub fn stale_end(&self) -> Option<Time> {
        self.stale_end
    }

    pub fn procs(&self) -> u32 {
        self.procs
    }

    /// Idle processors right now.
    pub fn free(&self) -> u32 {
        self.free
    }

    pub fn jobs(&self) -> &'a [Job] {
        self.jobs
    }

    pub fn job(&self, j: JobIdx) -> &'a Job {
        &self.jobs[j as usize]
    }

    /// Waiting jobs, highest priority first.
    pub fn waiting(&self) -> &BTreeSet<JobIdx> {
        &self.waiting
    }

    pub fn is_waiting(&self, j: JobIdx) -> bool {
        self.state[j as usize] == State::Waiting
    }

    /// Running jobs as `(expected end, job)`, earliest expected end first.
    pub fn running(&self) -> impl Iterator<Item = (Time, JobIdx)> + '_ {
        self.running.iter().copied()
    }

    /// Counts every change to the running jobs or their expected ends
    /// (a start, an end, a corrected prediction). While it stays the same,
    /// so do [`Sim::running`] and the free resources, and a plan made from
    /// them still holds.
    pub fn running_revision(&self) -> u64 {
        self.running_revision
    }

    pub fn running_count(&self) -> usize {
        self.running.len()
    }

    /// Running jobs, highest priority first.
    pub fn running_by_priority(&self) -> impl DoubleEndedIterator<Item = JobIdx> + '_ {
        self.running_by_priority.iter().copied()
    }

    /// Processors held by running jobs of lower priority than `j`.
    pub fn held_by_lower(&self, j: JobIdx) -> u32 {
        self.held.above(j as usize) as u32
    }

    /// Progress (seconds of the job's runtime) a waiting job has kept from
    /// earlier segments; zero unless it was preempted.
    pub fn saved_progress(&self, j: JobIdx) -> Time {
        self.saved[j as usize]
    }

    /// The runtime prediction a policy should use for `j`: the one it was
    /// started with if it runs, else the predictor's current one.
    pub fn prediction(&self, j: JobIdx) -> Time {
        match self.state[j as usize] {
            State::Running | State::Done => self.records[j as usize].prediction,
            _ => self.predictor.predict(self.jobs, j),
        }
    }

    /// What the learning source knows now of the user of `j`
    /// ([`crate::Predictor::forecast`]): while `j` waits, its prediction is
    /// `forecast(j).predict(estimate of j)`, for every job of that user.
    pub fn forecast(&self, j: JobIdx) -> crate::UserForecast {
        self.predictor.forecast(j)
    }

    /// When a running job is expected to end: start plus prediction, or
    /// start plus estimate once it has outlived its prediction.
    pub fn expected_end(&self, j: JobIdx) -> Time {
        self.expected_end[j as usize]
    }

    pub fn record(&self, j: JobIdx) -> &JobRecord {
        &self.records[j as usize]
    }

    /// Starts a waiting job now with the predictor's current prediction.
    pub fn start(&mut self, j: JobIdx) -> Result<(), EngineError> {
        let prediction = self.predictor.predict(self.jobs, j);
        self.start_predicted(j, prediction)
    }

    /// Starts a waiting job now with a prediction the policy planned with
    /// (a profile-based policy keeps the one it reserved with).
    pub fn start_predicted(&mut self, j: JobIdx, prediction: Time) -> Result<(), EngineError> {
        if self.cluster.is_some() {
            let slots = self.placement_now(j)?;
            return self.start_on(j, slots, prediction);
        }
        self.start_checked(j, prediction)
    }

    /// Starts `j` once its room is known to be there (processors checked
    /// here; nodes by the caller).
    fn start_checked(&mut self, j: JobIdx, prediction: Time) -> Result<(), EngineError> {
        let job = self.jobs[j as usize];
        if self.state[j as usize] != State::Waiting {
            return Err(EngineError::NotWaiting { time: self.now, job: job.id });
        }
        if self.cluster.is_none() && job.size > self.free {
            return Err(EngineError::Overcommit { time: self.now, job: job.id, size: job.size, free: self.free });
        }
        if prediction < 1 || prediction > job.estimate.max(1) {
            return Err(EngineError::BadPrediction { time: self.now, job: job.id, prediction });
        }
        let head = self.waiting.first().copied();
        if !self.waiting.remove(&j) {
            return Err(EngineError::NotWaiting { time: self.now, job: job.id });
        }
        let rec = &mut self.records[j as usize];
        if let Some(head) = head.filter(|&h| h != j && !rec.backfilled) {
            rec.backfilled = true;
            rec.backfilled_behind = Some(head);
            rec.backfilled_on_start = rec.starts;
            let promise = self.reservation[head as usize];
            rec.ventured = promise != NO_RESERVATION && self.now.saturating_add(prediction) > promise;
        }
        let resumed = rec.starts > 0;
        if !resumed {
            rec.first_start = self.now;
        }
        rec.start = self.now;
        rec.prediction = prediction;
        rec.starts += 1;
        self.reservation[j as usize] = NO_RESERVATION;
        self.state[j as usize] = State::Running;
        self.free -= self.cores_of(j);
        self.held.add(j as usize, i64::from(job.size));
        self.running_by_priority.insert(j);
        let saved = self.saved[j as usize];
        // A prediction the job has already outlived says nothing more: the
        // run's overrun rule decides (by default: until its estimate).
        let expected = if prediction > saved {
            self.now + self.preemption.wall(saved, prediction, resumed).max(1)
        } else {
            let at_estimate = self.now + self.preemption.wall(saved, job.estimate, resumed);
            self.overrun.expected_end(self.now, self.now, at_estimate)
        };
        self.expected_end[j as usize] = expected;
        self.running.insert((expected, j));
        self.running_revision += 1;
        self.seq += 1;
        self.live[j as usize] = self.seq;
        let end = self.now + self.preemption.wall(saved, job.runtime, resumed);
        self.completions.push(Reverse((end, self.seq, j)));
        Ok(())
    }

    /// Stops a running job now and puts it back in the waiting queue with its
    /// original priority; what progress it keeps depends on the run's
    /// preemption model.
    pub fn preempt(&mut self, j: JobIdx) -> Result<(), EngineError> {
        let job = self.jobs[j as usize];
        if self.state[j as usize] != State::Running {
            return Err(EngineError::NotRunning { time: self.now, job: job.id });
        }
        if self.cluster.is_some() {
            return Err(EngineError::PreemptOnNodes { time: self.now, job: job.id });
        }
        self.stop(j);
        let rec = &mut self.records[j as usize];
        let elapsed = self.now - rec.start;
        let resumed = rec.starts > 1;
        self.saved[j as usize] = self.preemption.saved_after(self.saved[j as usize], elapsed, job.runtime, resumed);
        self.segments.push(Segment { job: j, start: rec.start, end: self.now });
        self.live[j as usize] = 0;
        self.state[j as usize] = State::Waiting;
        self.waiting.insert(j);
        Ok(())
    }

    /// Releases a running job's processors and bookkeeping (completion or
    /// preemption).
    fn stop(&mut self, j: JobIdx) {
        let size = self.jobs[j as usize].size;
        self.running.remove(&(self.expected_end[j as usize], j));
        self.running_revision += 1;
        self.running_by_priority.remove(&j);
        self.free += self.cores_of(j);
        self.release_nodes(j);
        self.held.add(j as usize, -i64::from(size));
        let rec = &mut self.records[j as usize];
        rec.held += self.now - rec.start;
    }

    /// Records a reservation the policy made for `j` (its planned start).
    /// Only a change is kept in the history: a policy may repeat a
    /// reservation at every pass.
    pub fn reserve(&mut self, j: JobIdx, at: Time) {
        let rec = &mut self.records[j as usize];
        if rec.first_reservation.is_none() {
            rec.first_reservation = Some(at);
        }
        if self.reservation[j as usize] != at {
            self.reservation[j as usize] = at;
            self.reservations.push(ReservationChange { job: j, wait: rec.starts, time: self.now, start: at });
        }
    }

    /// Asks for a pass at `at` with `tag` in [`Happened::timers`].
    pub fn set_timer(&mut self, at: Time, tag: u64) -> Result<(), EngineError> {
        if at < self.now {
            return Err(EngineError::TimerInPast { time: self.now, at });
        }
        self.seq += 1;
        self.timers.push(Reverse((at, self.seq, tag)));
        Ok(())
    }
}

/// Replays `jobs` (in priority order) under `policy`: a [`Replay`] whose
/// passes are the policy's.
pub fn run(
    jobs: &[Job],
    config: &RunConfig,
    policy: &mut dyn Policy,
    observer: &mut dyn FnMut(Progress) -> Control,
) -> Result<RunRecord, EngineError> {
    run_on(jobs, None, config, policy, observer)
}

/// [`run`] on a machine of nodes (`cluster`, whose requests are the
/// jobs'), or on the archive's processors for `None`.
pub fn run_on(
    jobs: &[Job],
    cluster: Option<&Cluster>,
    config: &RunConfig,
    policy: &mut dyn Policy,
    observer: &mut dyn FnMut(Progress) -> Control,
) -> Result<RunRecord, EngineError> {
    let mut replay = Replay::on(jobs, cluster, config, policy.preemption())?;
    // A report every `progress_every` events, or as many reservation
    // changes: a backlog re-planned at every early end does its work in
    // the plan, between few events.
    let (mut next_report, mut next_changes) = (config.progress_every, config.progress_every);
    while replay.begin_pass() {
        let (sim, happened) = replay.pass();
        policy.schedule(sim, happened)?;
        replay.end_pass()?;
        let sim = replay.sim();
        let changes = sim.reservations.len() as u64;
        if config.progress_every > 0 && (sim.events >= next_report || changes >= next_changes) {
            next_report = sim.events + config.progress_every;
            next_changes = changes + config.progress_every;
            if observer(progress(sim, jobs.len())) == Control::Cancel {
                return Err(EngineError::Cancelled { time: sim.now });
            }
        }
    }
    if config.progress_every > 0 {
        // A last report, so a progress bar reaches its end; the run is over,
        // so a request to cancel changes nothing.
        let sim = replay.sim();
        let _ = observer(progress(sim, jobs.len()));
    }
    Ok(replay.finish())
}

/// What the observer is told of a run of `jobs` jobs.
fn progress(sim: &Sim<'_>, jobs: usize) -> Progress {
    Progress {
        now: sim.now,
        completed: sim.completed,
        jobs: jobs as u64,
        events: sim.events,
        reservation_changes: sim.reservations.len() as u64,
    }
}

/// A run its caller drives one pass at a time. [`run`] calls a policy
/// between [`Replay::begin_pass`] and [`Replay::end_pass`]; a caller that
/// must hand control back in the middle of a pass (the Gymnasium
/// environment, which waits for an agent's action at each decision) keeps
/// the pass open between its calls instead of blocking a thread. Both go
/// through the same steps, so they give the same record.
pub struct Replay<'a> {
    sim: Sim<'a>,
    happened: Happened,
    source: RuntimeSource,
}

impl<'a> Replay<'a> {
    /// A run of `jobs` (in priority order) that has applied no event yet.
    pub fn new(jobs: &'a [Job], config: &RunConfig, preemption: Preemption) -> Result<Self, EngineError> {
        Replay::on(jobs, None, config, preemption)
    }

    /// [`Replay::new`] on a machine of nodes, or on processors for `None`.
    pub fn on(
        jobs: &'a [Job],
        cluster: Option<&'a Cluster>,
        config: &RunConfig,
        preemption: Preemption,
    ) -> Result<Self, EngineError> {
        validate(jobs, config.procs)?;
        let mut sim = new_sim(jobs, config, preemption);
        if let Some(c) = cluster {
            if c.of_job.len() != jobs.len() {
                return Err(EngineError::RequestsMismatch { requests: c.of_job.len(), jobs: jobs.len() });
            }
            sim.cluster = Some(NodeRun::new(c, jobs.len()));
        }
        Ok(Replay { sim, happened: Happened::default(), source: config.source })
    }

    /// Applies every event of the next second that has any and opens its
    /// pass; `false` once no event is left, when the run is over.
    pub fn begin_pass(&mut self) -> bool {
        let Some(t) = next_event_time(&self.sim) else { return false };
        self.sim.now = t;
        self.happened.clear();
        apply_events(&mut self.sim, &mut self.happened);
        true
    }

    /// The open pass: the machine to act on, and what happened since the
    /// previous pass.
    pub fn pass(&mut self) -> (&mut Sim<'a>, &Happened) {
        (&mut self.sim, &self.happened)
    }

    pub fn sim(&self) -> &Sim<'a> {
        &self.sim
    }

    /// Closes the pass: audits the head of the queue on the state it leaves
    /// behind, and fails if jobs wait with nothing left to happen.
    pub fn end_pass(&mut self) -> Result<(), EngineError> {
        let sim = &mut self.sim;
        sim.passes += 1;
        audit_head(sim);
        if !sim.waiting.is_empty() && next_event_time(sim).is_none() {
            return Err(EngineError::Stalled {
                time: sim.now,
                waiting: sim.waiting.len(),
                first: sim.waiting.first().map_or(0, |&j| sim.jobs[j as usize].id),
            });
        }
        Ok(())
    }

    /// The record of the run, once [`Replay::begin_pass`] has said it is over.
    pub fn finish(self) -> RunRecord {
        let sim = self.sim;
        RunRecord {
            procs: sim.procs,
            source: self.source,
            preemption: sim.preemption,
            jobs: sim.records,
            segments: sim.segments,
            reservations: sim.reservations,
            events: sim.events,
            passes: sim.passes,
            placements: sim.cluster.map(|c| c.placements),
        }
    }
}

fn validate(jobs: &[Job], procs: u32) -> Result<(), EngineError> {
    for (i, j) in jobs.iter().enumerate() {
        if j.size > procs || j.size == 0 {
            return Err(EngineError::JobTooLarge { job: j.id, size: j.size, procs });
        }
        if i > 0 && (jobs[i - 1].submit, jobs[i - 1].id) > (j.submit, j.id) {
            return Err(EngineError::Unsorted { job: j.id });
        }
    }
    Ok(())
}

fn new_sim<'a>(jobs: &'a [Job], config: &RunConfig, preemption: Preemption) -> Sim<'a> {
    let n = jobs.len();
    Sim {
        jobs,
        procs: config.procs,
        now: jobs.first().map_or(0, |j| j.submit),
        free: config.procs,
        state: vec![State::Pending; n],
        waiting: BTreeSet::new(),
        running: BTreeSet::new(),
        running_by_priority: BTreeSet::new(),
        running_revision: 0,
        expected_end: vec![0; n],
        overrun: config.overrun,
        stale_end: None,
        preemption,
        saved: vec![0; n],
        live: vec![0; n],
        segments: Vec::new(),
        held: Fenwick::new(n),
        predictor: Predictor::new(config.source, jobs, config.seed),
        records: vec![JobRecord::UNSTARTED; n],
        reservation: vec![NO_RESERVATION; n],
        reservations: ReservationLog::default(),
        completions: BinaryHeap::new(),
        timers: BinaryHeap::new(),
        next_arrival: 0,
        seq: 0,
        events: 0,
        passes: 0,
        completed: 0,
        cluster: None,
    }
}

fn next_event_time(sim: &Sim<'_>) -> Option<Time> {
    let arrival = sim.jobs.get(sim.next_arrival).map(|j| j.submit);
    let completion = sim.completions.peek().map(|Reverse(c)| c.0);
    let timer = sim.timers.peek().map(|Reverse(t)| t.0);
    [arrival, completion, timer].into_iter().flatten().min()
}

/// Applies every event due at `sim.now`: completions, then arrivals, then
/// timers (docs/semantics.md, "Simulation"), then corrects the expected ends of overdue jobs.
fn apply_events(sim: &mut Sim<'_>, happened: &mut Happened) {
    let now = sim.now;
    while let Some(&Reverse((t, seq, j))) = sim.completions.peek() {
        if t != now {
            break;
        }
        sim.completions.pop();
        // The completion of a segment that was preempted is no event.
        if sim.live[j as usize] == seq {
            complete(sim, j);
            happened.completed.push(j);
        }
    }
    while sim.next_arrival < sim.jobs.len() && sim.jobs[sim.next_arrival].submit == now {
        let j = sim.next_arrival as JobIdx;
        sim.state[j as usize] = State::Waiting;
        sim.waiting.insert(j);
        sim.next_arrival += 1;
        sim.events += 1;
        happened.arrived.push(j);
    }
    while let Some(&Reverse((t, _, tag))) = sim.timers.peek() {
        if t != now {
            break;
        }
        sim.timers.pop();
        sim.events += 1;
        happened.timers.push(tag);
    }
    correct_overdue(sim, happened);
}

fn complete(sim: &mut Sim<'_>, j: JobIdx) {
    let job = sim.jobs[j as usize];
    sim.stop(j);
    sim.live[j as usize] = 0;
    sim.state[j as usize] = State::Done;
    sim.predictor.completed(sim.jobs, j, job.runtime);
    let rec = &mut sim.records[j as usize];
    rec.end = sim.now;
    rec.completions += 1;
    sim.completed += 1;
    sim.events += 1;
}

/// A running job still running at its predicted end has outlived its
/// prediction; from now on the run's overrun rule says when it is expected
/// to end (by default: at its estimate).
fn correct_overdue(sim: &mut Sim<'_>, happened: &mut Happened) {
    // A stale job is expected in the next second at every pass, so it is
    // corrected again at each one: the jobs corrected now are all of them.
    let first_overdue = happened.overdue.len();
    while let Some(&(end, j)) = sim.running.first() {
        if end > sim.now {
            break;
        }
        sim.running.pop_first();
        let job = &sim.jobs[j as usize];
        let rec = &sim.records[j as usize];
        let wall = sim.preemption.wall(sim.saved[j as usize], job.estimate, rec.starts > 1);
        let corrected = sim.overrun.expected_end(sim.now, rec.start, rec.start + wall);
        sim.expected_end[j as usize] = corrected;
        sim.running.insert((corrected, j));
        sim.running_revision += 1;
        happened.overdue.push(j);
    }
    // A follow-up batch in the same second finds them corrected already.
    if sim.overrun == Overrun::Stale && happened.overdue.len() > first_overdue {
        sim.stale_end = Some(sim.now + 1);
    } else if sim.stale_end != Some(sim.now + 1) {
        sim.stale_end = None;
    }
}

/// The strict-fairness audit and the "blocked" class (docs/semantics.md, "Metrics"), evaluated on
/// the state the pass leaves behind, which lasts until the next event.
fn audit_head(sim: &mut Sim<'_>) {
    let Some(&h) = sim.waiting.first() else { return };
    let size = sim.jobs[h as usize].size;
    let lower = sim.held.above(h as usize) as u32;
    let rec = &mut sim.records[h as usize];
    rec.blocked = true;
    if rec.fair_start.is_none() && sim.free + lower >= size {
        rec.fair_start = Some(sim.now);
    }
}
