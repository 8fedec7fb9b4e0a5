use serde::Serialize;

/// One job as the simulator sees it (docs/semantics.md, "Reading a trace").
///
/// Kept small on purpose: the simulator's per-job state budget is 200 bytes,
/// so the SWF fields a run never reads live apart, in [`SwfExtra`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Job {
    /// SWF field 1, the job number.
    pub id: u64,
    /// SWF field 2, seconds (after the load factor, if any).
    pub submit: i64,
    /// SWF field 4, seconds; capped at `estimate` by cleaning, never negative.
    pub runtime: i64,
    /// Requested processors (field 8) if positive, else allocated (field 5).
    pub size: u32,
    /// SWF field 9 (requested time), seconds; at least `runtime` and at least 1.
    pub estimate: i64,
    /// SWF field 12; -1 when unknown.
    pub user: i32,
    /// SWF field 13; -1 when unknown.
    pub group: i32,
    /// SWF field 15; -1 when unknown.
    pub queue: i32,
    /// SWF field 16; -1 when unknown.
    pub partition: i32,
    /// SWF field 11; -1 when unknown.
    pub status: i32,
}

/// The SWF fields of a job that no policy reads, kept so that the simulated
/// schedule can be written back as a complete SWF file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SwfExtra {
    /// Field 3 as recorded in the original log.
    pub wait: i64,
    /// Field 5.
    pub allocated: i64,
    /// Field 6 (may be fractional).
    pub avg_cpu: f64,
    /// Field 7.
    pub used_memory: f64,
    /// Field 10.
    pub requested_memory: f64,
    /// Field 14.
    pub executable: i64,
    /// Field 17.
    pub preceding: i64,
    /// Field 18.
    pub think_time: i64,
    /// Nodes the job asked for (a Slurm dump's `NNodes` or `ReqNodes`);
    /// -1 when unknown, as in every SWF trace.
    pub nodes: i64,
    /// GPUs the job asked for in all (a Slurm dump's `ReqTRES` `gres/gpu`);
    /// -1 when unknown.
    pub gpus: i64,
    /// On a machine of nodes, the index of the job's request in the
    /// trace's [`crate::Cluster`]; 0 otherwise.
    pub request: u32,
}

impl SwfExtra {
    /// Every field unknown (-1), except the allocated processors: what a
    /// job made up by a generator or a test carries.
    pub fn unknown(allocated: i64) -> Self {
        SwfExtra {
            wait: -1,
            allocated,
            avg_cpu: -1.0,
            used_memory: -1.0,
            requested_memory: -1.0,
            executable: -1,
            preceding: -1,
            think_time: -1,
            nodes: -1,
            gpus: -1,
            request: 0,
        }
    }
}

/// A cleaned trace, jobs sorted by (submit, job number): the order that is
/// also every policy's default priority.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Machine size used for simulation (docs/semantics.md, "Reading a trace").
    pub procs: u32,
    /// Jobs in priority order.
    pub jobs: Vec<Job>,
    /// Same length and order as `jobs`.
    pub extras: Vec<SwfExtra>,
    /// The machine of nodes and the jobs' requests on it, when the trace
    /// was read for one; `None` is the archive's model of `procs`
    /// interchangeable processors.
    pub cluster: Option<std::sync::Arc<crate::Cluster>>,
}
