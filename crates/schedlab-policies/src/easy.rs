//! EASY backfilling (Lifka 1995; Mu'alem and Feitelson 2001).
//!
//! At every pass: start waiting jobs in priority order while the first one
//! fits. If the first waiting job (the *head*) is then blocked, compute its
//! reservation from the running jobs' expected ends (the shadow time and
//! the extra processors, see `common::shadow`) and backfill later jobs that
//! fit now and either are expected to end by the shadow time or use only
//! extra processors. Backfill candidates are tried in priority order
//! (FCFS-EASY) or shortest expected runtime first (SJF-EASY), ties broken by
//! priority. Expected runtimes come from the chosen runtime source: `last`
//! gives EASY-Last, `tsafrir` with `shortest` gives EASY++.

use schedlab_engine::params::{ParamKind, ParamSpec};
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim, Time};

use crate::common::{shadow, start_in_order};
use crate::{PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "easy",
    name: "EASY",
    description: "Aggressive backfilling: jobs start in priority order while the first fits; the first blocked job \
                  gets a reservation at the earliest time enough processors are expected to be free, and later \
                  jobs may jump ahead if they fit now and do not delay that reservation. With the `last` runtime \
                  source this is EASY-Last; with `tsafrir` and shortest-first order, EASY++.",
    params: &[ParamSpec {
        key: "order",
        name: "Backfill order",
        description: "Order in which waiting jobs are tried for backfilling: priority (FCFS-EASY) or shortest expected runtime first (SJF-EASY).",
        kind: ParamKind::Choice { options: &["priority", "shortest"], default: "priority" },
        unit: None,
    }],
    uses_runtime_source: true,
    default_source: "estimate",
    build,
    needs_calibration: crate::never_calibrate,
    conditions: &[],
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    Priority,
    Shortest,
}

fn build(s: &PolicySettings) -> Box<dyn Policy> {
    let order = if s.params.choice("order") == "shortest" { Order::Shortest } else { Order::Priority };
    Box::new(Easy { order, upper_bound: s.source.is_upper_bound(), candidates: Vec::new() })
}

struct Easy {
    order: Order,
    /// Whether runtimes never fall short, so the head's reservation holds.
    upper_bound: bool,
    /// Reused between passes: (sort key, job).
    candidates: Vec<(Time, JobIdx)>,
}

impl Policy for Easy {
    fn schedule(&mut self, sim: &mut Sim<'_>, _: &Happened) -> Result<(), EngineError> {
        start_in_order(sim)?;
        let Some(&head) = sim.waiting().first() else { return Ok(()) };
        let (shadow_time, extra) = shadow(sim, sim.job(head).size);
        sim.reserve(head, shadow_time);
        if sim.free() > 0 {
            self.backfill(sim, shadow_time, extra)?;
        }
        Ok(())
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        crate::common::reservation_guarantee(self.upper_bound)
    }
}

impl Easy {
    fn backfill(&mut self, sim: &mut Sim<'_>, shadow_time: Time, mut extra: u32) -> Result<(), EngineError> {
        self.collect_candidates(sim);
        for &(_, j) in &self.candidates {
            let size = sim.job(j).size;
            if size > sim.free() {
                continue;
            }
            let ends_in_time = sim.now().saturating_add(sim.prediction(j)) <= shadow_time;
            if ends_in_time {
                sim.start(j)?;
            } else if size <= extra {
                sim.start(j)?;
                extra -= size;
            }
            if sim.free() == 0 {
                break;
            }
        }
        Ok(())
    }

    /// Waiting jobs behind the head that could fit now, in backfill order.
    fn collect_candidates(&mut self, sim: &Sim<'_>) {
        let free = sim.free();
        self.candidates.clear();
        for &j in &sim.waiting()[1..] {
            if sim.job(j).size <= free {
                let key = match self.order {
                    Order::Priority => 0,
                    Order::Shortest => sim.prediction(j),
                };
                self.candidates.push((key, j));
            }
        }
        if self.order == Order::Shortest {
            self.candidates.sort_unstable();
        }
    }
}
