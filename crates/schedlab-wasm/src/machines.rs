//! The page's machine editor: a machine of nodes from the Nodes field (the
//! command line's `--nodes` form) or from a dropped slurm.conf, read by the
//! session's readers so the page reports the command line's errors and
//! notes, and the texts the field and its note show for a machine (its
//! `--nodes` form when it has one, and a one-line summary).

use schedlab_session::{machine_from_nodes, machine_from_slurm_conf};
use schedlab_wasm_macros::export;
use schedlab_workload::Machine;
use serde::Serialize;

use crate::session::Error;
use crate::{Js, Thrown};

/// A machine read from a slurm.conf, and what the reader left out.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MachineRead {
    pub machine: Machine,
    /// One note per line the machine reader does not use.
    pub notes: Vec<String>,
}

/// What the page shows of a machine.
#[derive(Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MachineText {
    /// The `--nodes` form, for the field; absent when that form cannot say
    /// the machine (a slurm.conf's time limits, tiers, exclusive nodes).
    #[cfg_attr(test, ts(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
    /// Nodes, totals, node types and partitions in one line.
    pub summary: String,
}

/// The machine the Nodes field describes (`4x(cpu=16,mem=64G)`).
pub fn nodes_machine(spec: &str) -> Result<Machine, Error> {
    Ok(machine_from_nodes(spec, "Nodes")?)
}

/// The machine of a slurm.conf named `name`.
pub fn slurm_conf_machine(text: &str, name: &str) -> Result<MachineRead, Error> {
    let read = machine_from_slurm_conf(text, name)?;
    Ok(MachineRead { machine: read.machine, notes: read.notes })
}

pub fn machine_text_of(machine: &Machine) -> MachineText {
    MachineText { spec: machine.spec(), summary: machine.summary() }
}

/// `machine_of_nodes(spec)`: the machine of the Nodes field's text.
#[export]
pub fn machine_of_nodes(spec: &str) -> Result<Js<Machine>, Thrown> {
    Js::encode(&nodes_machine(spec)?)
}

/// `machine_of_slurm_conf(text, name)`: the machine of a dropped
/// slurm.conf, with a note per line it does not read.
#[export]
pub fn machine_of_slurm_conf(text: &str, name: &str) -> Result<Js<MachineRead>, Thrown> {
    Js::encode(&slurm_conf_machine(text, name)?)
}

/// `machine_text(machine)`: the field's `--nodes` text and the summary.
#[export]
pub fn machine_text(machine: Js<Machine>) -> Result<Js<MachineText>, Thrown> {
    Js::encode(&machine_text_of(&machine.decode("machine")?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_session::ErrorKind;

    #[test]
    fn the_nodes_field_reads_the_command_lines_form() {
        let m = nodes_machine("2x(cpu=4)").unwrap();
        assert_eq!(m.nodes(), 2);
        let e = nodes_machine("2 nodes").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Option);
        assert!(e.message.starts_with("Nodes `2 nodes`: "), "{e}");
    }

    /// By hand: two nodes of 8 cores in `debug`, the `SchedulerParameters`
    /// line noted as not read.
    #[test]
    fn a_slurm_conf_gives_its_machine_and_notes() {
        let conf = "SchedulerParameters=bf_window=60\nNodeName=n[1-2] CPUs=8\nPartitionName=debug Nodes=n[1-2]\n";
        let read = slurm_conf_machine(conf, "site.conf").unwrap();
        assert_eq!((read.machine.nodes(), read.machine.total(0)), (2, 16));
        assert_eq!(read.notes, ["site.conf: ignored 1 line(s): SchedulerParameters (line 1)"]);
        let e = slurm_conf_machine("PartitionName=x Nodes=n1\n", "empty.conf").unwrap_err();
        assert!(e.message.contains("no NodeName line"), "{e}");
    }

    #[test]
    fn a_machine_shows_its_nodes_form_when_it_has_one() {
        let m = nodes_machine("2x(cpu=4)").unwrap();
        let text = machine_text_of(&m);
        assert_eq!(text.spec.as_deref(), Some("2x(cpu=4)"));
        assert_eq!(text.summary, "2 nodes (8 cores): 2 × (cpu 4); partitions all (nodes 0-1)");
    }
}
