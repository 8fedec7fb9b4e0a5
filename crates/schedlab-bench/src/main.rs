//! `schedlab-bench`: the benchmark harness (docs/cli.md, BENCHMARKS.md).
//!
//! It lives apart from the user's `schedlab` because it counts every heap
//! allocation (`memory`, a global allocator with two atomic counters) to
//! tell a run's own memory from the loaded trace's; the user's binary keeps
//! the system allocator. The shared edge (errors, tables, trace loading)
//! comes from `schedlab_cli`'s library.

mod accasim;
mod args;
mod bench;
mod bench_one;
mod bench_schedule;
mod estimates;
mod memory;
mod queue_stress;

use std::process::ExitCode;

use clap::Parser;
// Named at the crate root so that the modules reach them as `crate::output`
// and so on, as in the `schedlab` binary.
use schedlab_cli::{fail, output, trace_input};

/// Counts heap bytes so the bench can tell the simulator's own memory apart
/// from the loaded trace's (see `memory`).
#[global_allocator]
static ALLOCATOR: memory::CountingAlloc = memory::CountingAlloc;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    fail::quiet_panics();
    let outcome = std::panic::catch_unwind(|| match cli.command {
        None => bench::main(&cli.bench),
        Some(args::Command::One(a)) => bench_one::main(&a),
        Some(args::Command::Schedule(a)) => bench_schedule::main(&a),
    });
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(err)) => fail::report(&err),
        Err(payload) => fail::report_panic(payload.as_ref()),
    }
}
