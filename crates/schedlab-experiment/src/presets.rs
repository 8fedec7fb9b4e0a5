//! Presets: the seeds' experiments, each one click in the web page and one
//! `schedlab reproduce PRESET TRACE` command, named after what they
//! reproduce. A preset is data: sections of runs (policy specs), an
//! optional sweep, repetitions, a load factor, and the metrics its table
//! and figure show, as paths into the metrics document.

use serde::Serialize;

use crate::{Experiment, Sweep};

/// How the web page draws a preset's figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Figure {
    /// Grouped bars, one group per run.
    Bars,
    /// Curves of a metric against the swept parameter, one per run.
    Curves,
    /// Per-category change relative to the section's first run.
    Categories,
    /// A table only.
    Table,
}

/// A column of a preset's table: a label and a path into the metrics
/// document (`fairness.delayed`, `categories.0.mbs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Column {
    pub label: &'static str,
    pub path: &'static str,
}

const fn col(label: &'static str, path: &'static str) -> Column {
    Column { label, path }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Section {
    pub title: &'static str,
    pub runs: &'static [&'static str],
    /// Swept parameter and its values.
    pub sweep: Option<(&'static str, &'static [&'static str])>,
    pub repeat: u32,
    /// Divides inter-arrival times (SPEC §1): 1 is the trace as recorded.
    pub load_factor: f64,
    pub columns: &'static [Column],
}

impl Section {
    pub fn experiment(&self) -> Experiment {
        Experiment {
            runs: self.runs.iter().map(|r| r.to_string()).collect(),
            params: Vec::new(),
            repeat: self.repeat,
            seed: 0,
            sweep: self.sweep.map(|(param, values)| Sweep {
                param: param.to_string(),
                values: values.iter().map(|v| v.to_string()).collect(),
            }),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    /// The seed's figures and tables this preset reproduces.
    pub reproduces: &'static str,
    pub figure: Figure,
    /// Prefixes of the shared traces the seed itself used (and the machine
    /// size it simulated them on, 0 for the header's).
    pub seed_traces: &'static [(&'static str, u32)],
    pub sections: &'static [Section],
}

const SLOWDOWNS: &[Column] = &[col("MBS", "mbs"), col("MWBS", "mwbs"), col("mean wait (s)", "mean_wait")];

const BLOCKED: &[Column] = &[
    col("MBS", "mbs"),
    col("MWBS", "mwbs"),
    col("blocked", "blocked"),
    col("backfilled", "backfilled"),
    col("big blocked MBS", "blocked_groups.0.mbs"),
    col("big blocked MWBS", "blocked_groups.0.mwbs"),
    col("small blocked MBS", "blocked_groups.1.mbs"),
    col("small blocked MWBS", "blocked_groups.1.mwbs"),
];

const PREEMPTION: &[Column] = &[
    col("preempted", "preempted"),
    col("MKT", "mkt"),
    col("wasted load", "wasted_load"),
    col("total load", "total_load"),
    col("MBS", "mbs"),
    col("MWBS", "mwbs"),
];

const CATEGORIES: &[Column] = &[
    col("SN BSD", "categories.0.mbs"),
    col("SW BSD", "categories.1.mbs"),
    col("LN BSD", "categories.2.mbs"),
    col("LW BSD", "categories.3.mbs"),
    col("SN turnaround", "categories.0.mean_turnaround"),
    col("SW turnaround", "categories.1.mean_turnaround"),
    col("LN turnaround", "categories.2.mean_turnaround"),
    col("LW turnaround", "categories.3.mean_turnaround"),
];

const SELECTIVE_RUNS: &[&str] = &["cbf", "easy", "selective", "selective:variant=sel-d"];

const DEADLINE: &[Column] = &[
    col("deadline jobs", "deadline.jobs"),
    col("violations", "deadline.violations"),
    col("mean usage", "deadline.mean_usage"),
    col("regular mean wait", "deadline.regular_mean_wait"),
    col("regular mean stretch", "deadline.regular_mean_stretch"),
    col("mean wait", "mean_wait"),
    col("max stretch", "max_stretch"),
];

/// Every preset, in the order front ends list them.
pub const PRESETS: &[Preset] = &[
    Preset {
        id: "pv-easy-vs-easy",
        title: "PV-EASY vs EASY vs EASY-Last",
        reproduces: "pv-easy-journal figures 5, 6 (MBS, MWBS) and 2, 3 (blocked jobs by parallelism)",
        figure: Figure::Bars,
        seed_traces: &[("CTC-SP2", 430)],
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
        figure: Figure::Table,
        seed_traces: &[("CTC-SP2", 430)],
        sections: &[Section {
            title: "EASY with estimates, EASY-Last",
            runs: &["easy", "easy@last"],
            sweep: None,
            repeat: 1,
            load_factor: 1.0,
            columns: &[
                col("blocked", "fairness.blocked"),
                col("delayed", "fairness.delayed"),
                col("mean delay (s)", "fairness.mean_delay"),
                col("max delay (s)", "fairness.max_delay"),
                col("violations", "reservation_violations.count"),
                col("victim size", "reservation_violations.mean_victim_size"),
                col("mean DTR (s)", "reservation_violations.mean_dtr"),
                col("max DTR (s)", "reservation_violations.max_dtr"),
                col("mean SI", "reservation_violations.mean_si"),
                col("max SI", "reservation_violations.max_si"),
            ],
        }],
    },
    Preset {
        id: "prediction-error",
        title: "Prediction error: PV-EASY vs FCFS-EASY vs SJF-EASY",
        reproduces: "pv-easy-journal figure 4",
        figure: Figure::Curves,
        seed_traces: &[("CTC-SP2", 430)],
        sections: &[Section {
            title: "virtual predictor, maximum error x %, 10 repetitions; PV-EASY with and without step 4",
            runs: &["pv-easy@virtual", "pv-easy:venture=off@virtual", "easy@virtual", "easy:order=shortest@virtual"],
            sweep: Some(("error", &["0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"])),
            repeat: 10,
            load_factor: 1.0,
            columns: &[col("MBS", "mbs"), col("MWBS", "mwbs")],
        }],
    },
    Preset {
        id: "checkpoint-cost",
        title: "CP-PV-EASY: checkpoint cost 60, 120, 180 s",
        reproduces: "pv-easy-journal figure 7, tables 6, 7, 8",
        figure: Figure::Bars,
        seed_traces: &[("CTC-SP2", 430)],
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
        figure: Figure::Bars,
        seed_traces: &[("CTC-SP2", 430)],
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
        figure: Figure::Curves,
        seed_traces: &[("KTH-SP2", 0)],
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
        figure: Figure::Categories,
        seed_traces: &[("CTC-SP2", 430), ("SDSC-SP2", 0), ("KTH-SP2", 0), ("LANL-CM5", 0)],
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
        figure: Figure::Bars,
        seed_traces: &[("HPC2N", 0)],
        sections: &[Section {
            title: "CBF and DBF with 20, 40, 60, 80 % deadline-driven jobs",
            runs: &["cbf", "dbf:fraction=0.2", "dbf:fraction=0.4", "dbf:fraction=0.6", "dbf:fraction=0.8"],
            sweep: None,
            repeat: 1,
            load_factor: 1.0,
            columns: DEADLINE,
        }],
    },
];

/// Looks a preset up by its identifier.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// Follows a dotted path (`fairness.delayed`, `categories.0.mbs`) into a
/// metrics document; `None` where the path leads nowhere.
pub fn metric_at<'a>(metrics: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.').try_fold(metrics, |v, part| match part.parse::<usize>() {
        Ok(i) => v.get(i),
        Err(_) => v.get(part),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Plan;

    #[test]
    fn every_preset_resolves_into_a_plan() {
        for p in PRESETS {
            for s in p.sections {
                let plan = Plan::new(s.experiment()).unwrap_or_else(|e| panic!("{} / {}: {e}", p.id, s.title));
                let values = s.sweep.map_or(1, |(_, v)| v.len());
                assert_eq!(plan.points.len(), s.runs.len() * values * s.repeat as usize, "{}", p.id);
            }
        }
    }

    #[test]
    fn metric_paths_reach_into_arrays_and_objects() {
        let m = serde_json::json!({ "mbs": 2.5, "categories": [{ "mbs": 1.0 }], "fairness": { "delayed": 3 } });
        assert_eq!(metric_at(&m, "mbs"), Some(&serde_json::json!(2.5)));
        assert_eq!(metric_at(&m, "categories.0.mbs"), Some(&serde_json::json!(1.0)));
        assert_eq!(metric_at(&m, "fairness.delayed"), Some(&serde_json::json!(3)));
        assert_eq!(metric_at(&m, "categories.4.mbs"), None);
    }
}
