//! `schedlab`: the command line of Schedlab (docs/cli.md).
//!
//! Everything here is the edge: argument parsing, files, clocks, progress
//! bars, tables and child processes. The simulation, the metrics and the
//! result documents come from the core crates; no scheduling logic lives
//! here. Errors become one line `schedlab: error: <reason>` on stderr with
//! exit code 2 (bad usage or input) or 1 (a run failed).

mod commands;

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue};
use clap::Parser;
// The shared edge (crates/schedlab-cli/src/lib.rs), named at the crate root
// so that the commands reach it as `crate::output` and so on.
use schedlab_cli::{args, fail, output, outputs, trace_input};

fn main() -> ExitCode {
    let cli = args::Cli::try_parse().unwrap_or_else(|e| short_invalid_value(e).exit());
    fail::quiet_panics();
    #[cfg(unix)]
    if let Err(e) = schedlab_outputs::clean_up_on_signals() {
        eprintln!("schedlab: warning: a signal may leave temporary files behind ({e})");
    }
    let outcome = std::panic::catch_unwind(|| commands::dispatch(cli));
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(err)) => fail::report(&err),
        Err(payload) => fail::report_panic(payload.as_ref()),
    }
}

/// Clap's error with the value it quotes cut to the short form every other
/// message uses (`fail::short_text`): clap echoed a 100,000-character
/// `--repeat` whole.
fn short_invalid_value(mut e: clap::Error) -> clap::Error {
    if let Some(ContextValue::String(value)) = e.get(ContextKind::InvalidValue) {
        let short = fail::short_text(value);
        e.insert(ContextKind::InvalidValue, ContextValue::String(short));
    }
    e
}
