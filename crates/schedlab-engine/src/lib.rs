//! The simulation engine of Schedlab (docs/semantics.md, "Simulation", "Runtime predictors").
//!
//! The engine replays a cleaned trace as a sequence of events and, after all
//! events of one second have been applied, asks a [`Policy`] for one
//! scheduling pass. It knows no policy by name: policies see the machine
//! through [`Sim`] and act through it (start a job, record a reservation,
//! set a timer). Everything a run needs is passed in (jobs, machine size,
//! runtime source, seed); the engine reads no clock, no file and no global
//! random generator, so a run is a pure function of its inputs.
//!
//! Event order within one second is explicit: completions (and kills at the
//! estimate) first, then arrivals in priority order, then timers in the order
//! they were set. The three kinds are drained in that order before the pass.

mod checker;
mod fenwick;
mod nodes;
pub mod params;
mod placement;
mod policy;
mod predictor;
mod preemption;
mod record;
mod rng;
mod sim;

pub use checker::{check, check_on, CheckError, Violation};
pub use fenwick::Fenwick;
pub use nodes::{Nodes, Slot};
pub use placement::{first_fit, first_fit_in_order, largest_units};
pub use policy::{Deadline, DeadlineKind, Guarantee, Happened, Policy};
pub use predictor::{Overrun, Predictor, RuntimeSource, SourceInfo, UserForecast, SOURCES};
pub use preemption::Preemption;
pub use record::{JobRecord, LogPosition, Placements, ReservationChange, ReservationLog, RunRecord, Segment};
pub use rng::SplitMix64;
pub use sim::{run, run_on, Control, EngineError, Progress, Replay, RunConfig, Sim};

/// Simulated time in integer seconds (docs/semantics.md, "Simulation").
pub type Time = i64;

/// A job's position in the trace's priority order (submit time, then job
/// number): index 0 is the highest priority.
pub type JobIdx = u32;
