//! Presets: the source papers' experiments, each one click in the web page
//! and one `schedlab reproduce PRESET TRACE` command, named after what they
//! reproduce. A preset is data: sections of runs (policy specs), an
//! optional sweep, repetitions, a load factor, the metrics its table shows
//! (catalogue keys, `schedlab_metrics::MetricKey`, labelled by their
//! columns) and the figures the paper draws.

use schedlab_metrics::{CategoryField, GroupField, Metric, MetricKey};
use serde::Serialize;

use schedlab_workload::{is_trace, CTC_SP2_BATCH, KTH_SP2_SLACK};

use crate::{Experiment, RunSpec, Sweep, SweepValues, WorkloadOptions};

/// A figure of a preset section, drawn by `schedlab_charts::preset_figures`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PresetFigure {
    /// Grouped bars, one group per run, one bar per column (a chart per
    /// column when their scales differ tenfold).
    Bars {
        #[cfg_attr(feature = "ts", ts(type = "Array<string>"))]
        columns: &'static [MetricKey],
    },
    /// Each column against the swept parameter, one curve per run.
    Curves {
        #[cfg_attr(feature = "ts", ts(type = "Array<string>"))]
        columns: &'static [MetricKey],
    },
    /// Per-category change of a category metric (`mbs`,
    /// `mean_turnaround`) relative to the section's first run.
    Categories {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        metric: CategoryField,
    },
    /// A blocked-group metric (`mbs`, `mwbs`) by job size, one bar per run.
    BlockedGroups {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        metric: GroupField,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Section {
    pub title: &'static str,
    pub runs: &'static [&'static str],
    /// Swept parameter and its values.
    pub sweep: Option<(&'static str, &'static [&'static str])>,
    pub repeat: u32,
    /// Divides inter-arrival times (docs/semantics.md, "Reading a trace"):
    /// 1 is the trace as recorded. It multiplies the user's load factor.
    pub load_factor: f64,
    /// The metrics its table shows, labelled by the column catalogue
    /// (written as their paths: `fairness.delayed`, `categories.0.mbs`).
    #[cfg_attr(feature = "ts", ts(type = "Array<string>"))]
    pub columns: &'static [MetricKey],
}

impl Section {
    /// The section's experiment on a trace read with `base` (the user's
    /// workload options); the section's load factor multiplies the user's.
    pub fn experiment(&self, base: &WorkloadOptions) -> Experiment {
        let mut workload = base.clone();
        if self.load_factor != 1.0 {
            workload.load_factor = Some(base.load() * self.load_factor);
        }
        Experiment {
            runs: self.runs.iter().map(|r| RunSpec::parse(r).expect("preset specs parse")).collect(),
            repeat: self.repeat,
            sweep: self.sweep.map(|(param, values)| Sweep {
                param: param.to_string(),
                values: SweepValues::List(values.iter().map(|v| v.to_string()).collect()),
                runs: None,
            }),
            workload,
            ..Experiment::default()
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    /// The paper's figures and tables this preset reproduces.
    pub reproduces: &'static str,
    /// The figures of every section, the way the paper draws them (none:
    /// a table only).
    pub figures: &'static [PresetFigure],
    /// Prefixes of the shared traces the paper itself used (and the machine
    /// size it simulated them on, 0 for the header's).
    pub paper_traces: &'static [(&'static str, u32)],
    pub sections: &'static [Section],
}

/// A metric at a fixed path, shortly.
const fn f(metric: Metric) -> MetricKey {
    MetricKey::Fixed(metric)
}

/// CTC-SP2 on the 430 batch processors every paper that uses it simulates.
const CTC_SP2: (&str, u32) = (CTC_SP2_BATCH.trace, CTC_SP2_BATCH.procs);

const SLOWDOWNS: &[MetricKey] = &[f(Metric::Mbs), f(Metric::Mwbs), f(Metric::MeanWait)];

const BLOCKED: &[MetricKey] = &[
    f(Metric::Mbs),
    f(Metric::Mwbs),
    f(Metric::Blocked),
    f(Metric::Backfilled),
    MetricKey::BlockedGroup(0, GroupField::Mbs),
    MetricKey::BlockedGroup(0, GroupField::Mwbs),
    MetricKey::BlockedGroup(1, GroupField::Mbs),
    MetricKey::BlockedGroup(1, GroupField::Mwbs),
];

const PREEMPTION: &[MetricKey] = &[
    f(Metric::Preempted),
    f(Metric::Mkt),
    f(Metric::WastedLoad),
    f(Metric::TotalLoad),
    f(Metric::Mbs),
    f(Metric::Mwbs),
];

const CATEGORIES: &[MetricKey] = &[
    MetricKey::Category(0, CategoryField::Mbs),
    MetricKey::Category(1, CategoryField::Mbs),
    MetricKey::Category(2, CategoryField::Mbs),
    MetricKey::Category(3, CategoryField::Mbs),
    MetricKey::Category(0, CategoryField::MeanTurnaround),
    MetricKey::Category(1, CategoryField::MeanTurnaround),
    MetricKey::Category(2, CategoryField::MeanTurnaround),
    MetricKey::Category(3, CategoryField::MeanTurnaround),
];

const SELECTIVE_RUNS: &[&str] = &["cbf", "easy", "selective", "selective:variant=sel-d"];

const DEADLINE: &[MetricKey] = &[
    f(Metric::DeadlineJobs),
    f(Metric::DeadlineViolations),
    f(Metric::DeadlineMeanUsage),
    f(Metric::DeadlineRegularMeanWait),
    f(Metric::DeadlineRegularMeanStretch),
    f(Metric::MeanWait),
    f(Metric::MaxStretch),
];

/// Every preset, in the order front ends list them.
pub const PRESETS: &[Preset] = &[
    Preset {
        id: "pv-easy-vs-easy",
        title: "PV-EASY vs EASY vs EASY-Last",
        reproduces: "pv-easy-journal figures 5, 6 (MBS, MWBS) and 2, 3 (blocked jobs by parallelism)",
        figures: &[
            PresetFigure::Bars { columns: &[f(Metric::Mbs), f(Metric::Mwbs)] },
            PresetFigure::BlockedGroups { metric: GroupField::Mbs },
            PresetFigure::BlockedGroups { metric: GroupField::Mwbs },
        ],
        paper_traces: &[CTC_SP2],
        sections: &[Section {
            title: "EASY (estimates), EASY-Last, PV-EASY (Last model, kill)",
            runs: &["easy", "easy@last", "pv-easy"],
            sweep: None,
            repeat: 1,
            load_factor: 1.0,
            columns: BLOCKED,
        }],
    },
    Preset {
        id: "fairness-audit",
        title: "Strict-fairness delays and reservation violations of EASY",
        reproduces: "pv-easy-journal tables 1 and 2",
        figures: &[],
        paper_traces: &[CTC_SP2],
        sections: &[Section {
            title: "EASY with estimates, EASY-Last",
            runs: &["easy", "easy@last"],
            sweep: None,
            repeat: 1,
            load_factor: 1.0,
            columns: &[
                f(Metric::FairnessBlocked),
                f(Metric::FairnessDelayed),
                f(Metric::FairnessMeanDelay),
                f(Metric::FairnessMaxDelay),
                f(Metric::ReservationViolationsCount),
                f(Metric::ReservationViolationsMeanVictimSize),
                f(Metric::ReservationViolationsMeanDtr),
                f(Metric::ReservationViolationsMaxDtr),
                f(Metric::ReservationViolationsMeanSi),
                f(Metric::ReservationViolationsMaxSi),
            ],
        }],
    },
    Preset {
        id: "prediction-error",
        title: "Prediction error: PV-EASY vs FCFS-EASY vs SJF-EASY",
        reproduces: "pv-easy-journal figure 4",
        figures: &[PresetFigure::Curves { columns: &[f(Metric::Mbs), f(Metric::Mwbs)] }],
        paper_traces: &[CTC_SP2],
        sections: &[Section {
            title: "virtual predictor, maximum error x %, 10 repetitions; PV-EASY with and without step 4",
            runs: &["pv-easy@virtual", "pv-easy:venture=off@virtual", "easy@virtual", "easy:order=shortest@virtual"],
            sweep: Some(("error", &["0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"])),
            repeat: 10,
            load_factor: 1.0,
            // The realised error beside the swept maximum x: the virtual
            // predictor draws errors up to x (about x/2 on average before
            // clamping to the estimate, which the next column counts).
            columns: &[
                f(Metric::Mbs),
                f(Metric::Mwbs),
                f(Metric::PredictionsMeanAbsErrorPct),
                f(Metric::PredictionsClampedToEstimate),
            ],
        }],
    },
    Preset {
        id: "checkpoint-cost",
        title: "CP-PV-EASY: checkpoint cost 60, 120, 180 s",
        reproduces: "pv-easy-journal figure 7, tables 6, 7, 8",
        figures: &[PresetFigure::Bars { columns: &[f(Metric::Preempted), f(Metric::Mkt)] }],
        paper_traces: &[CTC_SP2],
        sections: &[Section {
            title: "PV-EASY (kill) and CP-PV-EASY, hourly checkpoints",
            runs: &[
                "pv-easy",
                "pv-easy:mode=checkpoint,cost=60",
                "pv-easy:mode=checkpoint,cost=120",
                "pv-easy:mode=checkpoint,cost=180",
            ],
            sweep: None,
            repeat: 1,
            load_factor: 1.0,
            columns: PREEMPTION,
        }],
    },
    Preset {
        id: "suspend-cost",
        title: "VM-PV-EASY: resume cost 60, 120, 180 s",
        reproduces: "pv-easy-journal figure 8, tables 9, 10, 11",
        figures: &[PresetFigure::Bars { columns: &[f(Metric::Preempted), f(Metric::Mkt)] }],
        paper_traces: &[CTC_SP2],
        sections: &[Section {
            title: "PV-EASY (kill) and VM-PV-EASY, 5 % virtualisation slowdown",
            runs: &[
                "pv-easy",
                "pv-easy:mode=suspend,cost=60",
                "pv-easy:mode=suspend,cost=120",
                "pv-easy:mode=suspend,cost=180",
            ],
            sweep: None,
            repeat: 1,
            load_factor: 1.0,
            columns: PREEMPTION,
        }],
    },
    Preset {
        id: "slack-factor",
        title: "Slack-based backfilling: slack factor and heuristics",
        reproduces: "slack-priority-backfilling tables 2 and 5",
        figures: &[PresetFigure::Curves { columns: &[f(Metric::Mbs), f(Metric::Mwbs)] }],
        paper_traces: &[(KTH_SP2_SLACK.trace, KTH_SP2_SLACK.procs)],
        sections: &[
            Section {
                title: "slack factor 1–11 (AST, equal priorities)",
                runs: &["slack"],
                sweep: Some(("sf", &["1", "3", "5", "7", "9", "11"])),
                repeat: 1,
                load_factor: 1.0,
                columns: SLOWDOWNS,
            },
            Section {
                title: "heuristics, every fifth job high priority",
                runs: &[
                    "slack:scenario=every-kth,heuristic=ast",
                    "slack:scenario=every-kth,heuristic=aat",
                    "slack:scenario=every-kth,heuristic=du",
                    "slack:scenario=every-kth,heuristic=dc",
                    "slack:scenario=every-kth,heuristic=dp",
                ],
                sweep: None,
                repeat: 1,
                load_factor: 1.0,
                columns: SLOWDOWNS,
            },
        ],
    },
    Preset {
        id: "selective",
        title: "Selective reservation: Sel, Sel-D, EASY vs CBF by category",
        reproduces: "selective-reservation figures 1–6 and table 9",
        figures: &[
            PresetFigure::Categories { metric: CategoryField::Mbs },
            PresetFigure::Categories { metric: CategoryField::MeanTurnaround },
        ],
        paper_traces: &[CTC_SP2, ("SDSC-SP2", 0), ("KTH-SP2", 0), ("LANL-CM5", 0)],
        sections: &[
            Section {
                title: "normal load",
                runs: SELECTIVE_RUNS,
                sweep: None,
                repeat: 1,
                load_factor: 1.0,
                columns: CATEGORIES,
            },
            Section {
                title: "high load (inter-arrival times divided by 1.3)",
                runs: SELECTIVE_RUNS,
                sweep: None,
                repeat: 1,
                load_factor: 1.3,
                columns: CATEGORIES,
            },
        ],
    },
    Preset {
        id: "dbf",
        title: "Deadline-based backfilling: 20–80 % deadline-driven jobs",
        reproduces: "deadline-based-backfilling figures 2–7",
        figures: &[PresetFigure::Bars { columns: &[f(Metric::DeadlineJobs), f(Metric::DeadlineViolations)] }],
        paper_traces: &[("HPC2N", 0)],
        sections: &[Section {
            title: "CBF and DBF with 20, 40, 60, 80 % deadline-driven jobs",
            runs: &["cbf", "dbf:fraction=0.2", "dbf:fraction=0.4", "dbf:fraction=0.6", "dbf:fraction=0.8"],
            sweep: None,
            repeat: 1,
            load_factor: 1.0,
            columns: DEADLINE,
        }],
    },
    Preset {
        id: "reservation-depth",
        title: "Reservation depth: from EASY to planning every waiting job",
        reproduces: "no paper's figure: MBS, MWBS and plan changes against the reservation depth \
                     (Maui's RESERVATIONDEPTH, the depth of Slurm's backfill), EASY as the reference",
        figures: &[PresetFigure::Curves { columns: &[f(Metric::Mbs), f(Metric::Mwbs), f(Metric::ReservationChanges)] }],
        paper_traces: &[],
        sections: &[Section {
            // The figure draws depth `all` past 64 with its own tick; EASY
            // is drawn flat across the depths, and depth 1 in FCFS order
            // gives its schedule.
            title:
                "backfill in FCFS order at depth 1 (EASY's schedule) to all (every waiting job planned at each pass)",
            runs: &["backfill", "easy"],
            sweep: Some(("depth", &["1", "2", "4", "8", "16", "32", "64", "all"])),
            repeat: 1,
            load_factor: 1.0,
            columns: &[f(Metric::Mbs), f(Metric::Mwbs), f(Metric::MeanWait), f(Metric::ReservationChanges)],
        }],
    },
];

impl Preset {
    /// How many runs the preset makes, all sections together: each
    /// section's plan counts them (a run the sweep does not apply to runs
    /// once per repetition, a run without randomness once however many
    /// repetitions the section asks for). The workload options change no
    /// count, so the defaults stand for every trace.
    pub fn runs(&self) -> Result<u64, crate::GridError> {
        self.sections.iter().map(|s| Ok(crate::Plan::new(s.experiment(&WorkloadOptions::default()))?.len())).sum()
    }

    /// The machine size the paper simulates the trace named `name` (a file
    /// name) on, when it is one of the paper's traces and the paper's size
    /// differs from the header (`schedlab reproduce` and the page use it
    /// unless the user gave a size).
    pub fn machine_size(&self, name: &str) -> Option<u32> {
        self.paper_traces.iter().find(|(prefix, procs)| *procs > 0 && is_trace(name, prefix)).map(|(_, procs)| *procs)
    }

    /// The user's workload options `base` for this preset on the trace
    /// named `name`: the paper's machine size when the user gave none, with
    /// a note saying so (the command line prints it, the page shows it).
    pub fn workload_for(&self, name: &str, base: &WorkloadOptions) -> (WorkloadOptions, Option<String>) {
        let mut workload = base.clone();
        let procs = self.machine_size(name).filter(|_| base.machine_size.is_none());
        let note = procs.map(|p| {
            workload.machine_size = Some(p);
            format!("simulated on {p} processors, the paper's machine (a machine size given in the options wins)")
        });
        (workload, note)
    }

    /// Which traces the paper used, when the trace named `name` is not one
    /// of them: results will differ from the paper's for that reason alone.
    pub fn paper_note(&self, name: &str) -> Option<String> {
        // A preset that reproduces no paper's figure has no traces to miss.
        if self.paper_traces.is_empty() || self.paper_traces.iter().any(|(prefix, _)| is_trace(name, prefix)) {
            return None;
        }
        let used: Vec<String> = self
            .paper_traces
            .iter()
            .map(|(t, procs)| if *procs > 0 { format!("{t} ({procs} processors)") } else { (*t).to_string() })
            .collect();
        Some(format!("The paper used {}, not {name}: expect other numbers than the paper's.", used.join(", ")))
    }
}

/// Looks a preset up by its identifier.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// A preset's result as `schedlab reproduce --json` prints it and the page
/// exports it: the preset and each section's experiment result.
#[derive(Debug, Serialize)]
pub struct Reproduction<'a> {
    pub preset: &'a Preset,
    pub sections: Vec<SectionResult<'a>>,
}

/// One section of a [`Reproduction`].
#[derive(Debug, Serialize)]
pub struct SectionResult<'a> {
    pub title: &'a str,
    pub load_factor: f64,
    pub result: crate::ExperimentResult,
}

impl<'a> Reproduction<'a> {
    /// The reproduction of `preset` from its sections' results, in order;
    /// `None` unless there is one result per section.
    pub fn new(preset: &'a Preset, results: Vec<crate::ExperimentResult>) -> Option<Self> {
        (results.len() == preset.sections.len()).then(|| Reproduction {
            preset,
            sections: preset
                .sections
                .iter()
                .zip(results)
                .map(|(s, result)| SectionResult { title: s.title, load_factor: s.load_factor, result })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Plan;

    #[test]
    fn every_preset_resolves_into_a_plan() {
        for p in PRESETS {
            for s in p.sections {
                let plan = Plan::new(s.experiment(&WorkloadOptions::default()))
                    .unwrap_or_else(|e| panic!("{} / {}: {e}", p.id, s.title));
                // A run the sweep does not apply to (EASY beside the depths)
                // runs once.
                let values = s.sweep.map_or(1, |(_, v)| v.len());
                // A run without randomness runs once however many
                // repetitions the section asks for.
                let runs = |r: usize| if plan.is_swept(r) { values } else { 1 } * plan.repeat_of(r) as usize;
                assert_eq!(plan.len(), (0..s.runs.len()).map(runs).sum::<usize>() as u64, "{}", p.id);
            }
        }
    }

    /// The depth preset sweeps `backfill` over eight depths and runs EASY
    /// once beside them, with no paper to compare against.
    #[test]
    fn the_depth_preset_sweeps_backfill_only() {
        let p = preset("reservation-depth").unwrap();
        let plan = Plan::new(p.sections[0].experiment(&WorkloadOptions::default())).unwrap();
        assert_eq!((plan.is_swept(0), plan.is_swept(1)), (true, false));
        assert_eq!(plan.len(), 8 + 1);
        assert_eq!(p.runs().unwrap(), 8 + 1, "the page's count of the preset's runs");
        assert_eq!(p.paper_note("HPC2N-2002-2.2-cln.swf.gz"), None);
    }

    /// The prediction-error preset: four runs, all with the virtual
    /// predictor (random), at eleven errors, ten repetitions each.
    #[test]
    fn a_preset_counts_its_repetitions_of_random_runs() {
        assert_eq!(preset("prediction-error").unwrap().runs().unwrap(), 4 * 11 * 10);
    }

    #[test]
    fn presets_state_the_papers_machine_sizes() {
        // The PV-EASY papers' CTC-SP2 has 430 batch processors (journal
        // table 3); the slack paper's KTH-SP2 has 128 ("the system with
        // 128 processors", its section 4); the selective-reservation
        // paper runs KTH on its header's 100 nodes.
        let size = |id: &str, name: &str| preset(id).unwrap().machine_size(name);
        assert_eq!(size("pv-easy-vs-easy", "CTC-SP2-1996-3.1-cln.swf.gz"), Some(430));
        assert_eq!(size("pv-easy-vs-easy", "ctc-sp2.swf"), Some(430));
        assert_eq!(size("slack-factor", "KTH-SP2-1996-2.1-cln.swf.gz"), Some(128));
        assert_eq!(size("selective", "KTH-SP2-1996-2.1-cln.swf.gz"), None);
        assert_eq!(size("selective", "CTC-SP2-1996-3.1-cln.swf.gz"), Some(430));
        assert_eq!(size("slack-factor", "sample.swf"), None);
    }

    #[test]
    fn a_preset_applies_the_papers_size_unless_one_was_given() {
        let p = preset("slack-factor").unwrap();
        let (w, note) = p.workload_for("KTH-SP2-1996-2.1-cln.swf.gz", &WorkloadOptions::default());
        assert_eq!(w.machine_size, Some(128));
        assert!(note.unwrap().starts_with("simulated on 128 processors"));
        let given = WorkloadOptions { machine_size: Some(100), ..WorkloadOptions::default() };
        assert_eq!(p.workload_for("KTH-SP2-1996-2.1-cln.swf.gz", &given), (given.clone(), None));
        assert_eq!(p.workload_for("other.swf", &WorkloadOptions::default()).0.machine_size, None);
        assert_eq!(p.paper_note("kth-sp2-first3000.swf"), None);
        assert_eq!(
            p.paper_note("other.swf").as_deref(),
            Some("The paper used KTH-SP2 (128 processors), not other.swf: expect other numbers than the paper's.")
        );
    }
}
