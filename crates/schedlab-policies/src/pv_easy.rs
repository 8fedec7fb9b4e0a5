//! PV-EASY: preemptive venture EASY backfilling (pv-easy-conference §4,
//! pv-easy-journal §4).
//!
//! Running jobs of higher priority than every waiting job are the *sunny
//! load*; the others (of lower priority than the first waiting job) are the
//! *shadow load*. Each pass:
//!
//! 1. Start waiting jobs in priority order while the first one fits.
//! 2. *Shadow load preemption (SLP)*: if the first waiting job does not fit
//!    but idle processors plus those of the shadow load suffice, preempt
//!    shadow jobs from the lowest priority up until it fits, start it, and go
//!    back to 1. Preempted jobs return to the queue with their priority.
//! 3. *Venture backfilling (VB)*: the first waiting job's reservation is the
//!    earliest predicted end of sunny jobs at which idle plus shadow plus the
//!    sunny processors freed by then suffice (the shadow load counts as
//!    available, since SLP can always take it back). Backfill waiting jobs
//!    that fit now and are predicted to end by that reservation, nearest
//!    predicted end first; then (step 4, unless `venture=off`), while
//!    processors stay idle, start waiting jobs that fit in priority order,
//!    whatever their predictions.
//!
//! Because step 2 runs before the pass ends, the *first* waiting job is
//! never left waiting while idle plus lower-priority processors would
//! suffice: strict fairness holds by construction for the head of the
//! queue, and the run checker verifies it. That is the whole guarantee: a
//! job further back may wait while lower-priority jobs hold the processors
//! it needs (`metrics.fairness_all` counts such delays).
//! What a preemption costs (kill, checkpoint, suspend) is the engine's
//! preemption model, chosen by the `mode` parameter.

use schedlab_engine::params::ParamSet;
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Preemption, Sim, Time};

use crate::common::start_in_order;
use crate::queue_index::{Orders, QueueIndex};
use crate::{ParamCondition, PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "pv-easy",
    name: "PV-EASY",
    description: "Preemptive venture EASY: strict fairness for the first waiting job, by preempting lower-priority \
                  (shadow) jobs whenever that lets it start now (jobs further back get no such guarantee); \
                  predictions decide which jobs to backfill (nearest predicted end first, within a reservation \
                  computed from the higher-priority load), then idle processors are filled in priority order. \
                  Preempted jobs are killed and restarted, resume from a checkpoint (CP-PV-EASY) or are \
                  suspended (VM-PV-EASY).",
    params: PvEasyParams::SPECS,
    uses_runtime_source: true,
    default_source: "last",
    uses_seed: false,
    on_nodes: crate::OnNodes::Refuses(
        "shadow-load preemption counts processors and preemption is not modelled on nodes",
    ),
    build: |values, s| build(PvEasyParams::read(values), s),
    needs_calibration: crate::never_calibrate,
    conditions: &[
        ParamCondition { param: "interval", when: "mode", is: &["checkpoint"] },
        ParamCondition { param: "cost", when: "mode", is: &["checkpoint", "suspend"] },
        ParamCondition { param: "slowdown", when: "mode", is: &["suspend"] },
    ],
};

schedlab_engine::param_choice! {
    /// What a preemption does to the preempted job.
    pub(crate) enum Mode {
        Kill = "kill",
        Checkpoint = "checkpoint",
        Suspend = "suspend",
    }
}

schedlab_engine::param_choice! {
    /// Whether step 4 runs.
    pub(crate) enum Venture {
        On = "on",
        Off = "off",
    }
}

schedlab_engine::param_set! {
    pub(crate) struct PvEasyParams {
        mode: Choice<Mode> { default: Mode::Kill },
            name: "Preemption mode",
            description: "kill: all progress is lost; checkpoint: resume from the last checkpoint (CP-PV-EASY); suspend: progress is kept, every job runs slower (VM-PV-EASY).";
        interval: Int { min: 1, max: 10_000_000, default: 3600 },
            name: "Checkpoint interval",
            description: "Progress between two checkpoints (checkpoint mode).",
            unit: "s";
        cost: Int { min: 0, max: 86_400, default: 60 },
            name: "Checkpoint / resume cost",
            description: "Wall time of each checkpoint and each restart (checkpoint mode), or of each resume (suspend mode).",
            unit: "s";
        slowdown: Float { min: 0.0, max: 100.0, default: 5.0 },
            name: "Virtualisation slowdown",
            description: "How much slower every job runs on the virtualised platform (suspend mode).",
            unit: "%";
        venture: Choice<Venture> { default: Venture::On },
            name: "Fill idle processors in priority order (step 4)",
            description: "on: after venture backfilling, idle processors are filled with waiting jobs in priority order, whatever their predictions (step 4 of the papers); off: only jobs predicted to end by the first waiting job's reservation are backfilled.";
    }
}

fn build(p: PvEasyParams, s: &PolicySettings) -> Box<dyn Policy> {
    Box::new(PvEasy {
        preemption: preemption(&p),
        upper_bound: s.source.is_upper_bound(),
        fill_in_priority_order: p.venture == Venture::On,
        queue: QueueIndex::new(Orders { by_priority: true, by_prediction: true }, s.source),
    })
}

/// The preemption model the parameters describe.
fn preemption(p: &PvEasyParams) -> Preemption {
    match p.mode {
        Mode::Checkpoint => Preemption::Checkpoint { interval: p.interval, cost: p.cost },
        // Percent to parts per million, rounded so 5 % is exactly 50,000.
        Mode::Suspend => Preemption::Suspend { slowdown_ppm: (p.slowdown * 10_000.0).round() as i64, cost: p.cost },
        Mode::Kill => Preemption::Kill,
    }
}

struct PvEasy {
    preemption: Preemption,
    upper_bound: bool,
    /// VB step 4 (`venture=on`).
    fill_in_priority_order: bool,
    /// The waiting queue, indexed by priority and by prediction.
    queue: QueueIndex,
}

impl Policy for PvEasy {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        self.queue.refresh(sim, happened);
        let queue = &mut self.queue;
        while start_in_order(sim, &mut |j| queue.remove(j)).and_then(|()| shadow_load_preemption(sim, queue))? {}
        let Some(&head) = sim.waiting().first() else { return Ok(()) };
        let reservation = sunny_reservation(sim, head);
        sim.reserve(head, reservation);
        if sim.free() == 0 {
            return Ok(());
        }
        self.venture_backfill(sim, head, reservation)?;
        if self.fill_in_priority_order {
            self.fill_idle_in_priority_order(sim)?;
        }
        Ok(())
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        let mut g = vec![Guarantee::StrictFairness];
        if self.upper_bound {
            // With runtimes that never fall short, the sunny jobs are gone by
            // the reservation and SLP starts the head then.
            g.push(Guarantee::NoLaterThanFirstReservation);
        }
        g
    }

    fn preemption(&self) -> Preemption {
        self.preemption
    }
}

/// SLP: if the first waiting job can start by preempting lower-priority jobs,
/// preempts them from the lowest priority up (filing them in the queue
/// again), starts it and says so.
fn shadow_load_preemption(sim: &mut Sim<'_>, queue: &mut QueueIndex) -> Result<bool, EngineError> {
    let Some(&head) = sim.waiting().first() else { return Ok(false) };
    let need = sim.job(head).size;
    if sim.free() + sim.held_by_lower(head) < need {
        return Ok(false);
    }
    while sim.free() < need {
        let lowest = sim.running_by_priority().next_back();
        match lowest {
            Some(victim) if victim > head => {
                sim.preempt(victim)?;
                queue.insert(sim, victim);
            }
            // Unreachable: the lower-priority processors were counted above.
            _ => return Ok(false),
        }
    }
    queue.remove(head);
    sim.start(head)?;
    Ok(true)
}

/// VB step 1: the earliest predicted end of a sunny job (higher priority
/// than `head`) at which idle plus shadow plus freed sunny processors suffice.
fn sunny_reservation(sim: &Sim<'_>, head: JobIdx) -> Time {
    let need = sim.job(head).size;
    let mut available = sim.free() + sim.held_by_lower(head);
    for (end, j) in sim.running() {
        if j < head {
            available += sim.job(j).size;
            if available >= need {
                return end;
            }
        }
    }
    Time::MAX
}

impl PvEasy {
    /// VB steps 2 and 3: jobs behind the head that fit now and are predicted
    /// to end by the reservation, nearest predicted end first (ties by
    /// priority). In that order, each start is the next job that fits as
    /// the free processors stand; those in between did not fit with more.
    fn venture_backfill(&mut self, sim: &mut Sim<'_>, head: JobIdx, reservation: Time) -> Result<(), EngineError> {
        let mut after = None;
        while sim.free() > 0 {
            let Some((p, j)) = self.queue.next_by_prediction(sim, after, sim.free()) else { break };
            if sim.now().saturating_add(p) > reservation {
                break;
            }
            after = Some((p, j));
            if j != head {
                self.queue.remove(j);
                sim.start(j)?;
            }
        }
        Ok(())
    }

    /// VB step 4: while processors are idle, start waiting jobs that fit, in
    /// priority order, whatever their predictions.
    fn fill_idle_in_priority_order(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let mut after = None;
        while sim.free() > 0 {
            let Some(j) = self.queue.first_by_priority(sim, after, sim.free(), sim.free(), Time::MAX) else { break };
            self.queue.remove(j);
            sim.start(j)?;
            after = Some(j);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mode chooses the model; only the fields the mode uses reach it.
    #[test]
    fn the_mode_and_its_fields_make_the_preemption_model() {
        let defaults = PvEasyParams::default();
        assert_eq!(preemption(&defaults), Preemption::Kill);
        let checkpoint = PvEasyParams { mode: Mode::Checkpoint, interval: 600, cost: 120, ..defaults.clone() };
        assert_eq!(preemption(&checkpoint), Preemption::Checkpoint { interval: 600, cost: 120 });
        // 12.5 % is 125,000 parts per million.
        let suspend = PvEasyParams { mode: Mode::Suspend, slowdown: 12.5, interval: 600, ..defaults };
        assert_eq!(preemption(&suspend), Preemption::Suspend { slowdown_ppm: 125_000, cost: 60 });
    }
}
