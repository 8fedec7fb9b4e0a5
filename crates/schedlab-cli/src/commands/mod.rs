//! One module per subcommand.

mod compare;
mod experiment;
mod merge;
mod policies;
mod reproduce;
mod run;
mod stats;
mod sweep;

use std::process::ExitCode;

use anyhow::Result;

use crate::args::Command;

pub fn dispatch(cli: crate::args::Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Stats(a) => stats::main(&a),
        Command::Run(a) => run::main(&a),
        Command::Compare(a) => compare::main(&a),
        Command::Policies(a) => policies::main(&a),
        Command::Sweep(a) => sweep::main(&a),
        Command::Merge(a) => merge::main(&a),
        Command::Reproduce(a) => reproduce::main(&a),
    }
}
