//! Schedlab: the pure core (no I/O, no clock, no global randomness), re-exported in one place.
pub use schedlab_engine as engine;
pub use schedlab_experiment as experiment;
pub use schedlab_metrics as metrics;
pub use schedlab_policies as policies;
pub use schedlab_priority as priority;
pub use schedlab_schedule as schedule;
pub use schedlab_workload as workload;
