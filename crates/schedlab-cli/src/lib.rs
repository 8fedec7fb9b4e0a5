//! The edge every Schedlab command line shares: argument types and value
//! parsers, error reports and exit codes, tables and progress bars, output
//! files and trace loading. The `schedlab` binary (src/main.rs) and the
//! benchmark harness `schedlab-bench` (crates/schedlab-bench) are built on
//! it; neither holds scheduling logic.

pub mod args;
pub mod fail;
pub mod output;
pub mod outputs;
pub mod trace_input;
