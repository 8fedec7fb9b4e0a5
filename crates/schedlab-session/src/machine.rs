//! A machine of nodes from what a user typed: the command line's `--nodes`
//! and `--slurm-conf` come here, and so should every other host's way of
//! giving one, so that each reports the same errors (with the slurm.conf's
//! line numbers) and the same notes.

use schedlab_workload::{parse_slurm_conf, short_text, Machine, MACHINE_KEYS};

use crate::{ErrorKind, SessionError};

/// A machine read from a slurm.conf, with what the reader did not use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmConfMachine {
    pub machine: Machine,
    /// One note per line no reader of the machine uses (`SchedulerParameters
    /// (line 12)`) and per `Include` line, which is not followed.
    pub notes: Vec<String>,
}

/// The machine a `--nodes` description gives (`128x(cpu=64,mem=256G,gpu=4)`);
/// `what` (the host's name for the option, `--nodes`) starts every message.
pub fn machine_from_nodes(spec: &str, what: &str) -> Result<Machine, SessionError> {
    Machine::from_spec(spec)
        .map_err(|e| SessionError::new(ErrorKind::Option, format!("{what} `{}`: {e}", short_text(spec))))
}

/// The machine of a slurm.conf's `NodeName`, `PartitionName` and
/// `GresTypes` lines; `what` (the option and the file's name,
/// `--slurm-conf site.conf`) starts every message and note.
pub fn machine_from_slurm_conf(text: &str, what: &str) -> Result<SlurmConfMachine, SessionError> {
    let name = what;
    let bad = |e: String| SessionError::new(ErrorKind::Option, format!("{name}: {e}"));
    let conf = parse_slurm_conf(text).map_err(|e| bad(e.to_string()))?;
    let machine = Machine::from_slurm_conf(&conf).map_err(bad)?;
    let ignored: Vec<String> =
        conf.lines_except(MACHINE_KEYS).map(|l| format!("{} (line {})", l.key(), l.line)).collect();
    let mut notes = Vec::new();
    if !ignored.is_empty() {
        notes.push(format!("{name}: ignored {} line(s): {}", ignored.len(), ignored.join(", ")));
    }
    for include in &conf.includes {
        notes.push(format!("{name}: line {}: `Include {}` is not read", include.line, include.file));
    }
    Ok(SlurmConfMachine { machine, notes })
}
