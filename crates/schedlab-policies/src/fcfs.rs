//! First come, first served: no backfilling at all.

use schedlab_engine::{EngineError, Guarantee, Happened, Policy, Sim};

use crate::common::start_in_order;
use crate::{PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "fcfs",
    name: "FCFS",
    description: "First come, first served: jobs start strictly in priority (submission) order; \
                  a job that does not fit blocks every job behind it. The baseline of every backfilling study.",
    params: &[],
    uses_runtime_source: false,
    default_source: "estimate",
    uses_seed: false,
    on_nodes: crate::OnNodes::Runs,
    build: |_, s| build(s),
    needs_calibration: crate::never_calibrate,
    conditions: &[],
};

fn build(_: &PolicySettings) -> Box<dyn Policy> {
    Box::new(Fcfs)
}

struct Fcfs;

impl Policy for Fcfs {
    fn schedule(&mut self, sim: &mut Sim<'_>, _: &Happened) -> Result<(), EngineError> {
        start_in_order(sim, &mut |_| {})
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        vec![Guarantee::PriorityOrder]
    }
}
