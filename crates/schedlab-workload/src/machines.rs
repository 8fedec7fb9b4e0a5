//! Machine sizes the source papers simulate a shared trace on, where they
//! differ from the trace's own header. This is the one table of them: the
//! presets, `schedlab-bench` and the note a plain run gives all read it.

use crate::ReadOptions;

/// A machine size a source paper used for a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaperMachine {
    /// The trace's PWA file-name prefix (`CTC-SP2`), matched without case.
    pub trace: &'static str,
    /// Processors the paper simulates.
    pub procs: u32,
    /// Which papers, and why the size differs from the header.
    pub why: &'static str,
}

/// CTC-SP2's header says 338 (the batch partition's nodes in the cleaned
/// log); the PV-EASY papers simulate the 430 batch processors of the 512,
/// and their table 3 (load 66.18 %) holds only with 430.
pub const CTC_SP2_BATCH: PaperMachine = PaperMachine {
    trace: "CTC-SP2",
    procs: 430,
    why: "the PV-EASY and selective-reservation papers simulate its 430 batch processors",
};

/// KTH-SP2's header says 100 nodes; the slack-based backfilling paper
/// states 128 processors, and its slack-factor table reproduces only with
/// 128 (docs/reproduction/slack-selective-dbf.md). The other papers use
/// the header, so this size belongs to the slack presets alone and no
/// plain run is told about it.
pub const KTH_SP2_SLACK: PaperMachine =
    PaperMachine { trace: "KTH-SP2", procs: 128, why: "the slack-based backfilling paper simulates 128 processors" };

/// Sizes every source paper that uses the trace agrees on: a plain run of
/// the trace on another size is told which size it used (see
/// [`paper_machine_note`]).
pub const PAPER_MACHINES: &[PaperMachine] = &[CTC_SP2_BATCH];

impl PaperMachine {
    /// Whether a trace named `name` (a file name) is this machine's trace.
    pub fn matches(&self, name: &str) -> bool {
        is_trace(name, self.trace)
    }
}

/// Whether the file name `name` is a trace of the PWA prefix `prefix`
/// (`CTC-SP2`), without regard to case.
pub fn is_trace(name: &str, prefix: &str) -> bool {
    name.len() >= prefix.len() && name.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// The paper machine of a trace named `name`, if the papers agree on one.
pub fn paper_machine(name: &str) -> Option<&'static PaperMachine> {
    PAPER_MACHINES.iter().find(|m| m.matches(name))
}

/// What a run of the trace named `name`, read with `options` on a machine
/// of `procs` processors, should be told about the papers' size: nothing
/// when the machine size was given or already is the papers'.
pub fn paper_machine_note(name: &str, procs: u32, options: &ReadOptions) -> Option<String> {
    let m = paper_machine(name)?;
    if options.machine_size.is_some() || procs == m.procs {
        return None;
    }
    Some(format!(
        "simulated on {procs} processors (the header's); {} (give a machine size of {} to match them)",
        m.why, m.procs
    ))
}
