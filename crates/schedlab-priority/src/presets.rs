//! The published queue orders, written in the formula language. Each is
//! lowest score first; a policy's `direction` can turn any of them round.
//!
//! Reading of the RLScheduler code (DIR-LAB/deep-batch-scheduler,
//! `HPCSimPickJobs.py`, the `*_score` functions and `job.py`), from which
//! the forms of WFP3, UNICEP and F1–F4 are taken:
//!
//! - `s` is `job.submit_time`, SWF field 2 as the file writes it: seconds
//!   on the trace's own clock (whose origin is the log's start), neither
//!   rebased to the trace's first submission nor to the start of the
//!   sampled sequence. Schedlab's `submit` is that same field (after a load
//!   factor, if one is set, which rescales it from the first submission).
//! - F1 guards both logarithms: a value that is not positive is replaced
//!   by 0.1. F2–F4 have no guard, so a job submitted at 0 scores −∞ there
//!   (numpy's `log10(0)`) and comes first; the presets keep that.
//! - `r` is the requested time (SWF field 9; the runtime when unknown, as
//!   Schedlab's cleaning also does) and `n` the requested processors.
//! - WFP and UNICEP compute the wait as `scheduled_time − submit_time`,
//!   and `scheduled_time` is −1 for every job still waiting, so the code's
//!   `w` is −1 − s rather than a wait. The presets use the wait
//!   (`now − submit`), as the formulas are published (Tang et al., "Fault-
//!   aware, utility-based job scheduling on Blue Gene/P systems", 2009)
//!   and as the issue states them.
//! - SJF and smallest-first break ties by submission, as Schedlab does for
//!   every order (then by job number).

/// A named formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The name used in `--param order=NAME` and in share links.
    pub name: &'static str,
    /// The formula, lowest score first.
    pub source: &'static str,
    /// What it does, in a few words.
    pub title: &'static str,
    /// Where it comes from.
    pub origin: &'static str,
}

/// Every preset, in the order front ends list them.
pub const PRESETS: &[Preset] = &[
    Preset { name: "fcfs", source: "submit", title: "first come, first served", origin: "the trace order" },
    Preset {
        name: "sjf",
        source: "requested",
        title: "shortest requested time first",
        origin: "RLScheduler sjf_score (request time, then submission)",
    },
    Preset { name: "ljf", source: "-requested", title: "longest requested time first", origin: "SJF reversed" },
    Preset {
        name: "smallest",
        source: "procs",
        title: "fewest processors first",
        origin: "RLScheduler smallest_score (processors, then submission)",
    },
    Preset { name: "largest", source: "-procs", title: "most processors first", origin: "smallest first reversed" },
    Preset {
        name: "saf",
        source: "requested * procs",
        title: "smallest area (requested time × processors) first",
        origin: "smallest area first",
    },
    Preset {
        name: "wfp3",
        source: "-(wait / requested)^3 * procs",
        title: "WFP3: wait over request, cubed, times processors, highest first",
        origin: "Tang et al. 2009; RLScheduler wfp_score",
    },
    Preset {
        name: "unicep",
        source: "-(wait + 1e-15) / (log2(procs + 1e-15) * requested)",
        title: "UNICEP: wait over request and log2 of processors, highest first",
        origin: "Tang et al. 2009; RLScheduler uni_score",
    },
    Preset {
        name: "f1",
        source: "log10(if(requested > 0, requested, 0.1)) * procs + 870 * log10(if(submit > 0, submit, 0.1))",
        title: "F1 = log10(r)·n + 870·log10(s)",
        origin: "Carastan-Santos and de Camargo, SC'17; RLScheduler f1_score",
    },
    Preset {
        name: "f2",
        source: "sqrt(requested) * procs + 25600 * log10(submit)",
        title: "F2 = √r·n + 25600·log10(s)",
        origin: "Carastan-Santos and de Camargo, SC'17; RLScheduler f2_score",
    },
    Preset {
        name: "f3",
        source: "requested * procs + 6860000 * log10(submit)",
        title: "F3 = r·n + 6,860,000·log10(s)",
        origin: "Carastan-Santos and de Camargo, SC'17; RLScheduler f3_score",
    },
    Preset {
        name: "f4",
        source: "requested * sqrt(procs) + 530000 * log10(submit)",
        title: "F4 = r·√n + 530,000·log10(s)",
        origin: "Carastan-Santos and de Camargo, SC'17; RLScheduler f4_score",
    },
];

/// The preset called `name`.
pub fn find_preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The preset `text` names or spells out: its name, or its formula typed
/// with any spacing ("requested*sqrt(procs)+530000*log10(submit)" is F4).
pub fn preset_of(text: &str) -> Option<&'static Preset> {
    let bare = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let text = bare(text);
    PRESETS.iter().find(|p| p.name == text || bare(p.source) == text)
}

/// For an order that is one word and no formula (`WFP3`, `wfp`, `FCFS`):
/// the preset it may have meant, as a hint. Preset names stay exact (in
/// lower case), so that one order has one spelling in titles, links and
/// result documents; the hint says which spelling.
pub fn preset_hint(text: &str) -> Option<String> {
    let word = text.trim();
    if word.is_empty() || !word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    if let Some(p) = find_preset(&lower) {
        return Some(format!("preset names are lower case: did you mean the preset `{}`?", p.name));
    }
    crate::nearest(&lower, PRESETS.iter().map(|p| p.name)).map(|name| format!("did you mean the preset `{name}`?"))
}
