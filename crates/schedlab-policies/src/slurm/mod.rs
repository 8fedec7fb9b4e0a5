//! Slurm: what `sched/backfill` with `priority/basic` or
//! `priority/multifactor` does, read from Slurm 22.05's source
//! (docs/slurm.md says which rule comes from which function, and what
//! later versions changed).
//!
//! The machine is the trace's machine of nodes and partitions, or, on the
//! archive model, one node of the trace's processors in one partition
//! (`on_nodes.rs` holds what differs on nodes). Slurm's scheduling has
//! two loops, both here:
//! - the main scheduler (`_schedule`, src/slurmctld/job_scheduler.c)
//!   takes the waiting jobs by partition tier and priority and starts
//!   each that fits; one that does not fails its partition for the rest
//!   of the pass, and that partition's nodes are taken from the other
//!   partitions' jobs. It runs when a job ends, a few seconds after
//!   submissions (`batch_sched_delay`) and over the whole queue every
//!   `sched_interval`; otherwise it looks at `default_queue_depth` jobs;
//! - the backfill cycle (`_attempt_backfill`,
//!   src/plugins/sched/backfill/backfill.c) every `bf_interval`: each
//!   job by priority either starts now, on nodes of its partition that no
//!   reservation made so far in the cycle touches before its time limit
//!   ends, or gets a reservation at its expected start, which takes its
//!   nodes whole from then until its limit ends (`node_space.rs`).
//!
//! Time limits are whole minutes (the job's estimate rounded up), and
//! Slurm plans with them alone: a running job ends, as far as the plan
//! knows, at its start plus its limit.
//!
//! Timers: a pass runs only when something can change. A cycle that
//! started nothing and was not cut short is not run again until a job
//! arrives, ends or starts, or priorities change; it is then run at the
//! next instant of its cadence, which is what Slurm, cycling every
//! `bf_interval` while jobs wait, would have shown (a cycle over an
//! unchanged state decides the same). Priorities under multifactor are
//! recomputed every `PriorityCalcPeriod` while jobs wait or run, as
//! Slurm's decay thread does.

mod conf;
mod cycle;
mod ends;
mod fairshare;
mod holdings;
mod node_pick;
mod node_set;
mod node_space;
mod on_nodes;
mod priority;
mod running;
mod schedule;
mod site;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_on_nodes;

use std::collections::{BTreeMap, BTreeSet};

use schedlab_engine::params::{Checked, ParamSet};
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim, Slot, Time};

use crate::{PolicyInfo, PolicySettings};
use fairshare::Tree;
use on_nodes::Layout;
use priority::{Filed, Queue, Weights};
use running::{Run, Running};
pub use site::{site_settings, Ignored, SiteSettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "slurm",
    name: "Slurm",
    description: "What Slurm's sched/backfill does (read from Slurm 22.05's source), with its own parameter \
                  names and defaults: the main scheduler starts jobs by priority until the first that does not \
                  fit, which blocks its partition for the pass, at submissions, ends and every sched_interval; \
                  the backfill cycle every bf_interval starts a job on nodes no reservation of a higher-priority \
                  job touches before its time limit ends; reservations take whole nodes. On the archive's \
                  processors the machine is one node; on a machine of nodes, its nodes and partitions (first \
                  fit by node index). Priorities: priority/basic (submission order) or priority/multifactor \
                  (age, fair-share as Fair Tree or classic with PriorityDecayHalfLife, job size).",
    params: SlurmParams::SPECS,
    uses_runtime_source: false,
    default_source: "estimate",
    uses_seed: false,
    on_nodes: crate::OnNodes::Runs,
    build: |values, s| Box::new(Slurm::new(&SlurmParams::read(values), s)),
    needs_calibration: crate::never_calibrate,
    conditions: &[],
};

schedlab_engine::param_choice! {
    /// `PriorityType`.
    pub(crate) enum PriorityType {
        Basic = "priority/basic",
        Multifactor = "priority/multifactor",
    }
}

schedlab_engine::param_choice! {
    /// `PriorityFavorSmall`.
    pub(crate) enum YesNo {
        No = "NO",
        Yes = "YES",
    }
}

schedlab_engine::param_choice! {
    /// `PriorityUsageResetPeriod`.
    pub(crate) enum ResetPeriod {
        None = "NONE",
        Now = "NOW",
        Daily = "DAILY",
        Weekly = "WEEKLY",
        Monthly = "MONTHLY",
        Quarterly = "QUARTERLY",
        Yearly = "YEARLY",
    }
}

const U32: i64 = u32::MAX as i64;

schedlab_engine::param_set! {
    /// Slurm's settings under their own names and with their defaults
    /// (slurm.conf(5) of 22.05).
    #[allow(non_snake_case)]
    pub(crate) struct SlurmParams {
        PriorityType: Choice<PriorityType> { default: PriorityType::Basic },
            name: "PriorityType",
            description: "priority/basic: jobs by submission order; priority/multifactor: the weighted sum of the factors below.";
        sched_interval: Int { min: 1, max: 604_800, default: 60 },
            name: "sched_interval",
            description: "Seconds between the main scheduler's passes over the whole queue (it also runs when a job ends and after submissions).",
            unit: "s";
        default_queue_depth: Int { min: 0, max: 100_000_000, default: 100 },
            name: "default_queue_depth",
            description: "Jobs the main scheduler looks at in the passes it makes at job ends and submissions.";
        batch_sched_delay: Int { min: 0, max: 86_400, default: 3 },
            name: "batch_sched_delay",
            description: "Seconds the main scheduler waits between passes for newly submitted batch jobs.",
            unit: "s";
        bf_interval: Int { min: 1, max: 604_800, default: 30 },
            name: "bf_interval",
            description: "Seconds between backfill cycles.",
            unit: "s";
        bf_resolution: Int { min: 1, max: 3600, default: 60 },
            name: "bf_resolution",
            description: "The backfill map's time step: reservations start and end on multiples of it.",
            unit: "s";
        bf_window: Int { min: 1, max: 43_200, default: 1440 },
            name: "bf_window",
            description: "How far ahead, in minutes, backfill plans: a job expected to start later gets no reservation.",
            unit: "min";
        bf_max_job_test: Int { min: 1, max: 1_000_000, default: 500 },
            name: "bf_max_job_test",
            description: "Jobs a backfill cycle tests at most; also the size of its map (bf_node_space_size's default).";
        bf_max_job_user: Int { min: 0, max: 1_000_000, default: 0 },
            name: "bf_max_job_user",
            description: "Jobs of one user a backfill cycle tests at most (0: no limit).";
        bf_end_lag: Int { min: 0, max: 60, default: 1 },
            name: "bf_end_lag",
            description: "Seconds after a job ends before a backfill cycle sees its cores free (not a slurm.conf line: the cycle of that second has already run when the end reaches slurmctld; measured 1 s on real Slurm).",
            unit: "s";
        bf_min_age_reserve: Int { min: 0, max: 31_536_000, default: 0 },
            name: "bf_min_age_reserve",
            description: "Seconds a job must have waited before backfill reserves for it; younger jobs only start if they fit now.",
            unit: "s";
        PriorityWeightAge: Int { min: 0, max: U32, default: 0 },
            name: "PriorityWeightAge",
            description: "Weight of the age factor (time waited over PriorityMaxAge).";
        PriorityWeightFairshare: Int { min: 0, max: U32, default: 0 },
            name: "PriorityWeightFairshare",
            description: "Weight of the fair-share factor.";
        PriorityWeightJobSize: Int { min: 0, max: U32, default: 0 },
            name: "PriorityWeightJobSize",
            description: "Weight of the job-size factor.";
        PriorityWeightPartition: Int { min: 0, max: U32, default: 0 },
            name: "PriorityWeightPartition",
            description: "Weight of the partition factor; with one partition every job has factor 1, so it adds the same to all.";
        PriorityWeightQOS: Int { min: 0, max: U32, default: 0 },
            name: "PriorityWeightQOS",
            description: "Weight of the QOS factor; jobs here have the normal QOS, of priority 0, so it adds nothing.";
        PriorityMaxAge: Text<i64> { default: "7-0", max_len: 20, check: conf::time_mins },
            name: "PriorityMaxAge",
            description: "Wait at which the age factor reaches 1 (Slurm time: minutes, or days-hours[:minutes]).";
        PriorityFavorSmall: Choice<YesNo> { default: YesNo::No },
            name: "PriorityFavorSmall",
            description: "YES: the job-size factor favours small jobs; NO: large ones.";
        PriorityDecayHalfLife: Text<i64> { default: "7-0", max_len: 20, check: conf::time_mins },
            name: "PriorityDecayHalfLife",
            description: "Half-life of past usage in fair-share (0: no decay).";
        PriorityCalcPeriod: Text<i64> { default: "5", max_len: 20, check: conf::calc_period_mins },
            name: "PriorityCalcPeriod",
            description: "How often usage decays and priorities are recomputed (minutes).";
        decay_phase: Int { min: 0, max: 31_536_000, default: 0 },
            name: "decay_phase",
            description: "Seconds past each multiple of PriorityCalcPeriod at which the decay thread runs (not a slurm.conf line: real Slurm's thread runs every period from the second slurmctld started; taken modulo the period).",
            unit: "s";
        PriorityUsageResetPeriod: Choice<ResetPeriod> { default: ResetPeriod::None },
            name: "PriorityUsageResetPeriod",
            description: "When usage is reset to zero: calendar days, weeks (Sunday), months, quarters or years of the simulated clock read as UTC seconds since 1970.";
        PriorityFlags: Text<conf::Flags> { default: "", max_len: 200, check: conf::flags },
            name: "PriorityFlags",
            description: "NO_FAIR_TREE (the classic fair-share formula) and SMALL_RELATIVE_TO_TIME.";
        AccountingStorageEnforce: Text<bool> { default: "", max_len: 200, check: conf::enforces_limits },
            name: "AccountingStorageEnforce",
            description: "With limits (limits, safe or all), a job's usage since the decay thread's last run is charged when it ends; otherwise (Slurm's default, or associations alone) that last stretch is never charged.";
        Shares: Text<fairshare::Shares> { default: "", max_len: 10_000, check: fairshare::parse_shares },
            name: "Shares",
            description: "Fair-share shares (sacctmgr fairshare=N) as ACCOUNT=N and ACCOUNT/USER=N with the trace's group and user numbers; 1 for every other association.";
    }
}

/// The settings as numbers, read once.
#[derive(Clone, Debug)]
struct Settings {
    sched_interval: Time,
    queue_depth: usize,
    batch_delay: Time,
    bf_interval: Time,
    bf_resolution: Time,
    /// Seconds.
    bf_window: Time,
    bf_max_job_test: usize,
    bf_max_job_user: usize,
    bf_min_age_reserve: Time,
    bf_end_lag: Time,
}

/// What priority/multifactor needs beyond the weights.
struct Multifactor {
    weights: Weights,
    /// Whether priorities change while jobs wait (an age or fair-share weight).
    dynamic: bool,
    /// `PriorityCalcPeriod`, seconds.
    calc_period: Time,
    /// The decay thread runs at this many seconds past each multiple of
    /// `calc_period` (less than it).
    phase: Time,
    /// Whether a job's last stretch is charged when it ends
    /// (`AccountingStorageEnforce` with limits).
    charge_at_end: bool,
    /// `1 − 0.693 / half-life` per second, Slurm's own approximation of
    /// 2^(−1/half-life); 1 with no decay.
    decay_factor: f64,
    reset: ResetPeriod,
    shares: BTreeMap<(i32, Option<i32>), u32>,
    tree: Option<Tree>,
    /// The decay thread's last run (`g_last_ran`).
    last_ran: Option<Time>,
    /// Its next run.
    next_run: Option<Time>,
    last_reset: Option<Time>,
    next_reset: Option<Time>,
    /// The last run left the usage as it found it, and so will the runs
    /// after it until a job arrives, starts or ends or the usage is reset.
    usage_settled: bool,
    /// The last run moved no job and no job's priority can change with
    /// age alone: with settled usage, the runs after it compute the same.
    order_settled: bool,
}

/// When the main scheduler and the backfill cycle run next.
#[derive(Default)]
struct Clock {
    /// A pass of the main scheduler still due (`job_sched_cnt` > 0, or a
    /// full pass at the next `sched_interval`), and whether it is full.
    main_due: Option<(Time, bool)>,
    /// The last pass the background loop made for submissions.
    last_batch: Option<Time>,
    /// The last backfill cycle, run or skipped as unchanged.
    bf_last: Option<Time>,
    /// Whether the cycles wait for work (the last found no job to test) or
    /// keep their cadence.
    bf_polling: bool,
    /// Something changed since the last cycle.
    bf_dirty: bool,
    bf_due: Option<Time>,
}

pub(crate) struct Slurm {
    s: Settings,
    multifactor: Option<Multifactor>,
    queue: Queue,
    running: Running,
    clock: Clock,
    /// Times a timer is set for.
    armed: BTreeSet<Time>,
    started: bool,
    /// The machine's partitions, on a machine of nodes.
    layout: Option<Layout>,
    /// The backfill test's working state on nodes.
    scratch: std::cell::RefCell<on_nodes::Scratch>,
    /// The one node of the archive's model, as the map's node set.
    one_node: node_set::NodeSet,
}

impl Slurm {
    fn new(p: &SlurmParams, _: &PolicySettings) -> Self {
        let s = Settings {
            sched_interval: p.sched_interval,
            queue_depth: p.default_queue_depth as usize,
            batch_delay: p.batch_sched_delay,
            bf_interval: p.bf_interval,
            bf_resolution: p.bf_resolution,
            bf_window: p.bf_window * 60,
            bf_max_job_test: p.bf_max_job_test as usize,
            bf_max_job_user: p.bf_max_job_user as usize,
            bf_min_age_reserve: p.bf_min_age_reserve,
            bf_end_lag: p.bf_end_lag,
        };
        let multifactor = (p.PriorityType == PriorityType::Multifactor).then(|| multifactor(p));
        Slurm {
            s,
            multifactor,
            queue: Queue::default(),
            running: Running::default(),
            clock: Clock { bf_polling: true, ..Clock::default() },
            armed: BTreeSet::new(),
            started: false,
            layout: None,
            scratch: Default::default(),
            one_node: node_set::NodeSet::full(1),
        }
    }
}

/// The text parameters were read (times in minutes, flags, shares) when
/// the request was read; a value not made that way, refused by its check,
/// would be a bug, answered with Slurm's default.
fn multifactor(p: &SlurmParams) -> Multifactor {
    let minutes = |v: &Checked<i64>, default: i64| v.value().map_or(default, |m| **m);
    let flags = p.PriorityFlags.value().map_or_else(|_| conf::Flags::default(), |f| **f);
    let weights = Weights {
        age: p.PriorityWeightAge as u32,
        fairshare: p.PriorityWeightFairshare as u32,
        job_size: p.PriorityWeightJobSize as u32,
        partition: p.PriorityWeightPartition as u32,
        qos: p.PriorityWeightQOS as u32,
        max_age: minutes(&p.PriorityMaxAge, 7 * 1440) * 60,
        favor_small: p.PriorityFavorSmall == YesNo::Yes,
        size_relative: flags.size_relative,
        classic: flags.classic,
    };
    let half_life = minutes(&p.PriorityDecayHalfLife, 7 * 1440) * 60;
    let calc_period = minutes(&p.PriorityCalcPeriod, 5).max(1) * 60;
    Multifactor {
        dynamic: weights.age > 0 || weights.fairshare > 0,
        weights,
        calc_period,
        phase: p.decay_phase.rem_euclid(calc_period),
        charge_at_end: p.AccountingStorageEnforce.value().is_ok_and(|limits| **limits),
        decay_factor: if half_life > 0 { 1.0 - 0.693 / half_life as f64 } else { 1.0 },
        reset: p.PriorityUsageResetPeriod,
        shares: p.Shares.value().map_or_else(|_| fairshare::Shares::new(), |s| fairshare::Shares::clone(s)),
        tree: None,
        last_ran: None,
        next_run: None,
        last_reset: None,
        next_reset: None,
        usage_settled: false,
        order_settled: false,
    }
}

impl Policy for Slurm {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        let now = sim.now();
        self.armed.remove(&now);
        if !self.started {
            self.start(sim);
        }
        self.catch_up_decay(sim, now);
        if !happened.arrived.is_empty() || !happened.completed.is_empty() {
            self.unsettle();
        }
        for &j in &happened.completed {
            self.end(sim, j);
        }
        self.release_ended(now);
        self.decay_if_due(sim, now);
        for &j in &happened.arrived {
            self.file(sim, j);
        }
        if !happened.arrived.is_empty() {
            self.clock.bf_dirty = true;
            self.main_after_submit(now);
        }
        // A backfill cycle in the second of an end runs before the end
        // reaches slurmctld (`bf_end_lag`), so before the main
        // scheduler's pass that the end triggers; without the lag the
        // end comes first.
        if self.s.bf_end_lag > 0 {
            self.backfill_if_due(sim)?;
            self.main_scheduler(sim, !happened.completed.is_empty())?;
        } else {
            self.main_scheduler(sim, !happened.completed.is_empty())?;
            self.backfill_if_due(sim)?;
        }
        self.arm(sim)
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        // Whole-node reservations never overlap one another, and each
        // starts when enough processors are free beside the running jobs
        // held to their limits; but one rounded to `bf_resolution` can end
        // before the job's limit, and the next may begin there. With
        // `bf_end_lag` the cycle in the second of an end runs before the
        // main scheduler's pass and does not see the ended job's cores;
        // that pass may then start a job of higher priority on them,
        // beside which a reservation the cycle made no longer fits until
        // the next cycle makes it again, as in Slurm (2 cores: J4 ends at
        // 275, the cycle reserves J5 for 300 on the core J4 seemed to hold
        // until its limit, and the pass starts J2 on both).
        // On a machine of nodes the checker counts cores, not the nodes a
        // reservation holds, so the promise is not made there.
        if self.s.bf_resolution == 1 && self.s.bf_end_lag == 0 && self.layout.is_none() {
            vec![Guarantee::ReservationsFitTheirPass]
        } else {
            Vec::new()
        }
    }
}

impl Slurm {
    /// The association tree from every (group, user) pair of the trace,
    /// as a site's association list holds every user from the start.
    fn start(&mut self, sim: &Sim<'_>) {
        self.started = true;
        self.layout = Layout::new(sim);
        if let Some(m) = &mut self.multifactor {
            let jobs = sim.jobs();
            m.tree = Some(Tree::new(jobs.iter().map(|j| (j.group, j.user)), &m.shares));
            if m.dynamic {
                // The first run after now at the thread's phase.
                let now = sim.now();
                let since = (now - m.phase).rem_euclid(m.calc_period);
                m.next_run = Some(now - since + m.calc_period);
            }
        }
    }

    /// A job arrived: it waits under its priority, in its partition's tier.
    fn file(&mut self, sim: &Sim<'_>, j: JobIdx) {
        let priority = self.priority_at_submit(sim, j);
        let partition = sim.request(j).map(|r| r.partition as usize);
        let tier = match (sim.cluster(), partition) {
            (Some(c), Some(p)) => c.machine.partitions.get(p).map_or(0, |p| p.priority_tier),
            _ => 0,
        };
        if let (Some(layout), Some(p)) = (self.layout.as_mut(), partition) {
            layout.waiting[p] += 1;
        }
        let job = sim.job(j);
        self.queue.insert(j, Filed { priority, tier, size: job.size }, priority::limit_minutes(job) * 60);
    }

    /// Starts a waiting job now, on `slots` on a machine of nodes.
    fn start_job(&mut self, sim: &mut Sim<'_>, j: JobIdx, slots: Option<Vec<Slot>>) -> Result<(), EngineError> {
        match slots {
            Some(slots) => sim.start_on(j, slots, sim.prediction(j))?,
            None => sim.start(j)?,
        }
        self.queue.remove(j);
        if let (Some(layout), Some(r)) = (self.layout.as_mut(), sim.request(j)) {
            layout.waiting[r.partition as usize] -= 1;
        }
        let job = sim.job(j);
        let now = sim.now();
        let assoc = self.multifactor.as_ref().and_then(|m| m.tree.as_ref()).map_or(0, |t| t.user(job.group, job.user));
        let end = now + priority::limit_minutes(job) * 60;
        self.running.insert(j, Run { start: now, end, size: job.size, assoc });
        self.unsettle();
        self.clock.bf_dirty = true;
        Ok(())
    }

    fn arm(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let now = sim.now();
        let wanted = [
            self.clock.main_due.map(|d| d.0),
            self.clock.bf_due,
            self.next_decay_timer(sim.free()),
            self.running.next_release(),
        ];
        for at in wanted.into_iter().flatten() {
            if at > now && self.armed.insert(at) {
                sim.set_timer(at, 0)?;
            }
        }
        Ok(())
    }

    fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.running.is_empty()
    }
}
