//! `schedlab`: the command line of Schedlab (docs/cli.md).
//!
//! Everything here is the edge: argument parsing, files, clocks, progress
//! bars, tables and child processes. The simulation, the metrics and the
//! result documents come from the core crates; no scheduling logic lives
//! here. Errors become one line `schedlab: error: <reason>` on stderr with
//! exit code 2 (bad usage or input) or 1 (a run failed).

mod args;
mod commands;
mod fail;
mod memory;
mod output;
mod outputs;
mod trace_input;

use std::process::ExitCode;

use clap::Parser;

/// Counts heap bytes so `bench` can tell the simulator's own memory apart
/// from the loaded trace's (see `memory`).
#[global_allocator]
static ALLOCATOR: memory::CountingAlloc = memory::CountingAlloc;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    fail::quiet_panics();
    let outcome = std::panic::catch_unwind(|| commands::dispatch(cli));
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(err)) => fail::report(&err),
        Err(payload) => fail::report_panic(payload.as_ref()),
    }
}
