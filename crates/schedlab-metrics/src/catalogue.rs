//! The column catalogue: for every metric of the metrics document, its
//! label, unit, digits, a one-sentence explanation and whether tables show
//! it by default. The command line's tables, the page's tables and the
//! presets' tables all read it, and `docs/metrics.md` is generated from it
//! ([`glossary_markdown`]). Adding a metric means adding its field and one
//! line here; a test fails on a numeric metric the catalogue does not know.
//!
//! Keys are paths into the metrics document: `mbs`, `fairness.delayed`,
//! `categories.0.mbs` (category SN), `blocked_groups.0.mbs` (big jobs).

use serde::Serialize;

/// One column of a metrics table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Column {
    /// Path into the metrics document.
    pub key: String,
    /// The same metric as a key, for reading results.
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub metric: MetricKey,
    pub label: String,
    /// `s`, `processors`, or none for counts and ratios.
    pub unit: Option<&'static str>,
    /// Decimals a table prints.
    pub digits: u8,
    pub description: String,
    /// Whether a results table shows it before "more columns".
    pub shown: bool,
}

/// A metric at a fixed path.
struct Entry {
    key: &'static str,
    label: &'static str,
    unit: Option<&'static str>,
    digits: u8,
    description: &'static str,
    shown: bool,
}

const fn e(
    key: &'static str,
    label: &'static str,
    unit: Option<&'static str>,
    digits: u8,
    description: &'static str,
    shown: bool,
) -> Entry {
    Entry { key, label, unit, digits, description, shown }
}

const S: Option<&str> = Some("s");

/// Declares a table of entries and the enum that names them, from one
/// list: variant `i` is entry `i`, so adding a line adds both the column and
/// its key, and no key can name a missing column.
macro_rules! keyed_entries {
    ($(#[$doc:meta])* $name:ident, $table:ident; $($variant:ident = $entry:expr,)*) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $($variant,)*
        }

        const $table: &[Entry] = &[$($entry,)*];

        impl $name {
            /// Every key, in table order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            fn entry(self) -> &'static Entry {
                &$table[self as usize]
            }

            /// The key's name in the metrics document.
            pub fn name(self) -> &'static str {
                self.entry().key
            }

            /// The key of that name, if the table has one.
            pub fn parse(name: &str) -> Option<Self> {
                $table.iter().position(|e| e.key == name).map(|i| Self::ALL[i])
            }
        }
    };
}

// Every metric at a fixed path, in table order.
keyed_entries! {
    /// A metric at a fixed path of the metrics document, one per line of the catalogue.
    Metric, ENTRIES;
    Mbs = e("mbs", "MBS", None, 3, "Mean bounded slowdown: the mean over jobs of (wait + max(runtime, τ)) / max(runtime, τ), with τ the bounded-slowdown threshold (10 s); 1 means no job waited.", true),
    Mwbs = e("mwbs", "MWBS", None, 3, "Mean weighted bounded slowdown: the bounded slowdowns weighted by job size (processors), so wide jobs count more.", true),
    MeanWait = e("mean_wait", "mean wait", S, 1, "Mean time from submission to start (for a preempted job, lost work and overheads count as waiting).", true),
    Utilization = e("utilization", "utilisation", None, 3, "Work done (runtime × processors) over the machine's capacity from the first submission to the last end; 1 is a machine never idle.", true),
    MaxWait = e("max_wait", "max wait", S, 0, "The longest wait of any job.", true),
    Backfilled = e("backfilled", "backfilled", None, 0, "Jobs started while a job of higher priority was still waiting.", true),
    Blocked = e("blocked", "blocked", None, 0, "Jobs that were first in the queue at the end of a scheduling pass and could not start.", true),
    FairnessDelayed = e("fairness.delayed", "delayed", None, 0, "Blocked jobs that started later than their fair start: the first moment they were first in the queue and the idle processors plus those of lower-priority running jobs would have sufficed (the papers' head-only strict-fairness audit).", true),
    Jobs = e("jobs", "jobs", None, 0, "Jobs measured: all jobs, unless the first and last ones are left out (skip percentage).", false),
    MedianWait = e("median_wait", "median wait", S, 0, "The wait that half of the jobs did not exceed (nearest rank).", false),
    P95Wait = e("p95_wait", "p95 wait", S, 0, "The wait that 95 % of the jobs did not exceed (nearest rank).", false),
    MeanTurnaround = e("mean_turnaround", "mean turnaround", S, 1, "Mean time from submission to end.", false),
    MeanSlowdown = e("mean_slowdown", "mean slowdown", None, 3, "Mean of turnaround / max(runtime, 1 s), not bounded: very short jobs dominate it.", false),
    MaxSlowdown = e("max_slowdown", "max slowdown", None, 3, "The largest turnaround / max(runtime, 1 s).", false),
    MeanStretch = e("mean_stretch", "mean stretch", None, 3, "Mean of (wait + estimate) / estimate, the stretch of deadline-based backfilling (its eq. 2).", false),
    MaxStretch = e("max_stretch", "max stretch", None, 3, "The largest stretch (wait + estimate) / estimate.", false),
    Makespan = e("makespan", "makespan", S, 0, "Time from the first submission to the last end.", false),
    FairnessBlocked = e("fairness.blocked", "audited blocked", None, 0, "Blocked jobs the strict-fairness audit examined.", false),
    FairnessMeanDelay = e("fairness.mean_delay", "mean delay", S, 1, "Mean delay past the fair start of the delayed jobs.", false),
    FairnessMaxDelay = e("fairness.max_delay", "max delay", S, 0, "The longest delay past a fair start.", false),
    FairnessAllBlocked = e("fairness_all.blocked", "waited", None, 0, "Jobs that waited at all, the jobs the full strict-fairness audit examines.", false),
    FairnessAllDelayed = e("fairness_all.delayed", "delayed (all)", None, 0, "Jobs that, at some moment while they waited, could have started on idle processors plus those of lower-priority running jobs without taking processors a higher-priority job could start on (full strict-fairness audit).", false),
    FairnessAllMeanDelay = e("fairness_all.mean_delay", "mean delay (all)", S, 1, "Mean delay of the jobs the full audit counts, from the first such moment to their start.", false),
    FairnessAllMaxDelay = e("fairness_all.max_delay", "max delay (all)", S, 0, "The longest delay the full audit counts.", false),
    FairnessAllCulprits = e("fairness_all.culprits", "culprits", None, 0, "Distinct lower-priority jobs that held processors a delayed job could have started on.", false),
    Preempted = e("preempted", "preempted", None, 0, "Jobs started more than once (preemptive policies).", false),
    PreemptionRate = e("preemption_rate", "preemption rate", None, 4, "Preempted jobs over measured jobs.", false),
    Mkt = e("mkt", "MKT", None, 2, "Mean times killed: the mean number of preemptions of the preempted jobs.", false),
    MeanRtw = e("mean_rtw", "mean RTW", None, 3, "Runtime waste (time held − runtime) / runtime, averaged over the preempted jobs.", false),
    TotalLoad = e("total_load", "total load", None, 4, "Processor time held (lost work and overheads included) over processors × (last end − first submission).", false),
    WastedLoad = e("wasted_load", "wasted load", None, 4, "Processor time held beyond the jobs' runtimes (lost progress, checkpoint, restart and resume costs) over the same capacity.", false),
    ReservationViolationsCount = e("reservation_violations.count", "violations", None, 0, "Blocked jobs that started after a reservation in force when a job was backfilled behind them, although at that reservation the idle processors and those still held by such backfilled jobs would have sufficed (late predecessors excluded).", false),
    ReservationViolationsMeanVictimSize = e("reservation_violations.mean_victim_size", "victim size", Some("processors"), 1, "Mean size of the jobs whose reservation was violated.", false),
    ReservationViolationsMeanDtr = e("reservation_violations.mean_dtr", "mean DTR", S, 1, "Mean delay from reservation (start − the violated reservation) of the violated jobs.", false),
    ReservationViolationsMaxDtr = e("reservation_violations.max_dtr", "max DTR", S, 0, "The longest delay from reservation.", false),
    ReservationViolationsMeanSi = e("reservation_violations.mean_si", "mean SI", None, 3, "Mean slowdown increment DTR / max(runtime, τ) of the violated jobs.", false),
    ReservationViolationsMaxSi = e("reservation_violations.max_si", "max SI", None, 3, "The largest slowdown increment.", false),
    ReservationChanges = e("reservation_changes", "plan changes", None, 0, "Reservations the policy made or moved during the run (its reservation log): the work of keeping its plan, which grows with the reservation depth and the queue. It counts all jobs, whatever the skip percentage.", false),
    DeadlineJobs = e("deadline.jobs", "deadline jobs", None, 0, "Deadline-driven jobs measured (deadline-based backfilling).", false),
    DeadlineViolations = e("deadline.violations", "deadline violations", None, 0, "Deadline-driven jobs that ended after their deadline.", false),
    DeadlineViolationsMinimum = e("deadline.violations_minimum", "violations (minimum)", None, 0, "Deadline violations of jobs whose deadline was the rule's minimum window after submission (24 h by default).", false),
    DeadlineViolationsScaled = e("deadline.violations_scaled", "violations (scaled)", None, 0, "Deadline violations of jobs whose deadline was the factor times their estimate after submission (10 × by default).", false),
    DeadlineStartedAtSubmission = e("deadline.started_at_submission", "started at submission", None, 0, "Deadline-driven jobs that started the second they were submitted.", false),
    DeadlineMeanUsage = e("deadline.mean_usage", "mean usage", None, 3, "(end − submission) / (deadline − submission), averaged over the deadline-driven jobs.", false),
    DeadlineMeanUsageDelayed = e("deadline.mean_usage_delayed", "mean usage (delayed)", None, 3, "Mean usage of the deadline-driven jobs that did not start at once.", false),
    DeadlineRegularJobs = e("deadline.regular_jobs", "regular jobs", None, 0, "Jobs without a deadline measured.", false),
    DeadlineRegularMeanWait = e("deadline.regular_mean_wait", "regular mean wait", S, 1, "Mean wait of the jobs without a deadline.", false),
    DeadlineRegularMeanStretch = e("deadline.regular_mean_stretch", "regular mean stretch", None, 3, "Mean stretch of the jobs without a deadline.", false),
    DeadlineRegularMaxStretch = e("deadline.regular_max_stretch", "regular max stretch", None, 3, "The largest stretch of a job without a deadline.", false),
    DeadlineDeadlineMeanWait = e("deadline.deadline_mean_wait", "deadline mean wait", S, 1, "Mean wait of the deadline-driven jobs.", false),
    DeadlineDeadlineMeanStretch = e("deadline.deadline_mean_stretch", "deadline mean stretch", None, 3, "Mean stretch of the deadline-driven jobs.", false),
    PriorityHighJobs = e("priority.high_jobs", "high-priority jobs", None, 0, "Jobs measured that the policy gave the higher priority (slack's every k-th job).", false),
    PriorityHighMeanWait = e("priority.high_mean_wait", "high-priority mean wait", S, 1, "Mean wait of the jobs given the higher priority.", false),
    PriorityLowJobs = e("priority.low_jobs", "low-priority jobs", None, 0, "Jobs measured that kept the lower priority.", false),
    PriorityLowMeanWait = e("priority.low_mean_wait", "low-priority mean wait", S, 1, "Mean wait of the jobs that kept the lower priority.", false),
    PredictionsErrorPct = e("predictions.error_pct", "error x", Some("%"), 0, "The virtual predictor's maximum relative error x: each prediction is runtime × (1 + u), u uniform in [−x, x].", false),
    PredictionsMeanAbsErrorPct = e("predictions.mean_abs_error_pct", "realised error", Some("%"), 1, "Mean of |prediction − runtime| / max(runtime, 1 s) over the measured jobs, with the predictions the jobs last started with (after clamping to [1 s, estimate]).", false),
    PredictionsMeanAbsErrorS = e("predictions.mean_abs_error_s", "realised error in time", S, 0, "Mean of |prediction − runtime| over the measured jobs.", false),
    PredictionsUnderpredicted = e("predictions.underpredicted", "under-predicted", None, 0, "Jobs whose prediction fell short of their runtime (they outlive it while running).", false),
    PredictionsClampedToEstimate = e("predictions.clamped_to_estimate", "clamped to estimate", None, 0, "Virtual-predictor draws above the estimate, clamped to it.", false),
    PredictionsRaisedToOne = e("predictions.raised_to_one", "raised to 1 s", None, 0, "Virtual-predictor draws below 1 s, raised to it.", false),
    FairSlowdownJobs = e("fair_slowdown.jobs", "fair-slowdown jobs", None, 0, "Jobs in the fair-slowdown table.", false),
}

/// The categories, in the order of the metrics' `categories` array.
pub const CATEGORY_NAMES: [&str; 4] = ["SN", "SW", "LN", "LW"];

keyed_entries! {
    /// A field of a row of the `categories` table.
    CategoryField, CATEGORY_FIELDS;
    Jobs = e("jobs", "jobs", None, 0, "Jobs of category {c} ({what}).", false),
    Mbs = e("mbs", "MBS", None, 3, "Mean bounded slowdown of the {c} jobs ({what}).", false),
    MeanTurnaround = e("mean_turnaround", "mean turnaround", S, 1, "Mean turnaround of the {c} jobs ({what}).", false),
    MeanWait = e("mean_wait", "mean wait", S, 1, "Mean wait of the {c} jobs ({what}).", false),
}

const CATEGORY_MEANING: [&str; 4] =
    ["short and narrow: at most 1 h and 8 processors by default", "short and wide", "long and narrow", "long and wide"];

keyed_entries! {
    /// A field of a row of the `blocked_groups` table.
    GroupField, GROUP_FIELDS;
    Jobs = e("jobs", "blocked jobs", None, 0, "Blocked jobs of {g}.", false),
    Mbs = e("mbs", "blocked MBS", None, 3, "Mean bounded slowdown of the blocked jobs of {g}.", false),
    Mwbs = e("mwbs", "blocked MWBS", None, 3, "Mean weighted bounded slowdown of the blocked jobs of {g}.", false),
    MinSize = e("min_size", "smallest size", Some("processors"), 0, "Smallest job size of {g}.", false),
    MaxSize = e("max_size", "largest size", Some("processors"), 0, "Largest job size of {g}.", false),
}

keyed_entries! {
    /// A field of a row of the fair-slowdown table.
    FairSlowdownField, FAIR_SLOWDOWN_FIELDS;
    Jobs = e("jobs", "jobs", None, 0, "Jobs whose slowdown is {r} times their fair slowdown.", false),
    Percent = e("percent", "%", None, 1, "Percentage of jobs whose slowdown is {r} times their fair slowdown.", false),
}

const FAIR_SLOWDOWN_RANGES: [&str; 5] = ["<=1", "1-1.5", "1.5-2", "2-4", ">4"];

impl Entry {
    fn column(&self, metric: MetricKey, label: String, description: String) -> Column {
        let key = metric.path();
        Column { key, metric, label, unit: self.unit, digits: self.digits, description, shown: self.shown }
    }
}

/// A metric of the catalogue: a metric at a fixed path, or a field of a row
/// of one of the metrics' tables (categories, blocked-job groups, the
/// fair-slowdown table). Results are read by key, never by a path in text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MetricKey {
    Fixed(Metric),
    /// Category `index` of [`CATEGORY_NAMES`].
    Category(usize, CategoryField),
    /// Group `index`: the big jobs, the small jobs, then the size bins.
    BlockedGroup(usize, GroupField),
    /// Row `index` of the fair-slowdown table.
    FairSlowdown(usize, FairSlowdownField),
}

impl MetricKey {
    /// The key of a metric path (`mbs`, `categories.0.mbs`,
    /// `fair_slowdown.rows.4.percent`), or `None` for a path that is not a
    /// metric of the catalogue.
    pub fn parse(path: &str) -> Option<Self> {
        if let Some(m) = Metric::parse(path) {
            return Some(MetricKey::Fixed(m));
        }
        if let Some(rest) = path.strip_prefix("fair_slowdown.rows.") {
            let (i, field) = rest.split_once('.')?;
            let row = i.parse::<usize>().ok().filter(|&i| i < FAIR_SLOWDOWN_RANGES.len())?;
            return Some(MetricKey::FairSlowdown(row, FairSlowdownField::parse(field)?));
        }
        let mut parts = path.splitn(3, '.');
        let (table, index, field) = (parts.next()?, parts.next()?.parse::<usize>().ok()?, parts.next()?);
        match table {
            "categories" if index < CATEGORY_NAMES.len() => {
                Some(MetricKey::Category(index, CategoryField::parse(field)?))
            }
            "blocked_groups" => Some(MetricKey::BlockedGroup(index, GroupField::parse(field)?)),
            _ => None,
        }
    }

    /// The metric's path in the metrics document (`categories.0.mbs`).
    pub fn path(self) -> String {
        match self {
            MetricKey::Fixed(m) => m.name().to_owned(),
            MetricKey::Category(i, f) => format!("categories.{i}.{}", f.name()),
            MetricKey::BlockedGroup(i, f) => format!("blocked_groups.{i}.{}", f.name()),
            MetricKey::FairSlowdown(i, f) => format!("fair_slowdown.rows.{i}.{}", f.name()),
        }
    }

    /// The metric's column: label, unit, digits and explanation.
    pub fn column(self) -> Column {
        match self {
            MetricKey::Fixed(m) => {
                let e = m.entry();
                e.column(self, e.label.to_owned(), e.description.to_owned())
            }
            MetricKey::Category(i, f) => {
                let (name, meaning, e) = (CATEGORY_NAMES[i], CATEGORY_MEANING[i], f.entry());
                let text = e.description.replace("{c}", name).replace("{what}", meaning);
                e.column(self, format!("{name} {}", e.label), text)
            }
            MetricKey::BlockedGroup(i, f) => {
                let e = f.entry();
                let (prefix, what) = match i {
                    0 => ("big".to_owned(), "the big jobs (more than a quarter of the machine)".to_owned()),
                    1 => ("small".to_owned(), "the small jobs (at most a quarter of the machine)".to_owned()),
                    k => (format!("size bin {}", k - 1), format!("size bin {} of the power-of-two job sizes", k - 1)),
                };
                e.column(self, format!("{prefix} {}", e.label), e.description.replace("{g}", &what))
            }
            MetricKey::FairSlowdown(i, f) => {
                let (range, e) = (FAIR_SLOWDOWN_RANGES[i], f.entry());
                e.column(self, format!("fair slowdown {range} {}", e.label), e.description.replace("{r}", range))
            }
        }
    }
}

impl std::fmt::Display for MetricKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path())
    }
}

/// The column of a metric path, or `None` for a path that is not a metric.
pub fn column(path: &str) -> Option<Column> {
    MetricKey::parse(path).map(MetricKey::column)
}

/// Every column at a fixed path and every category column, in table order.
pub fn columns() -> Vec<Column> {
    let fixed = Metric::ALL.iter().map(|&m| MetricKey::Fixed(m));
    let categories =
        (0..CATEGORY_NAMES.len()).flat_map(|i| CategoryField::ALL.iter().map(move |&f| MetricKey::Category(i, f)));
    let groups = (0..2).flat_map(|i| GroupField::ALL.iter().map(move |&f| MetricKey::BlockedGroup(i, f)));
    fixed.chain(categories).chain(groups).map(MetricKey::column).collect()
}

/// The glossary page (`docs/metrics.md`), generated from the catalogue.
pub fn glossary_markdown() -> String {
    let mut out = String::from(
        "# Metrics\n\nGenerated from the column catalogue (`crates/schedlab-metrics/src/catalogue.rs`) by \
         `cargo test -p schedlab-metrics` with `SCHEDLAB_BLESS=1`; do not edit by hand. Keys are paths into \
         the `metrics` object of a result document; \u{2605} marks the columns tables show by default.\n\n\
         | key | column | unit | meaning |\n|---|---|---|---|\n",
    );
    for c in columns() {
        let star = if c.shown { " \u{2605}" } else { "" };
        let unit = c.unit.unwrap_or("");
        out.push_str(&format!(
            "| `{}` | {}{star} | {unit} | {} |\n",
            c.key,
            c.label,
            c.description.replace('|', "\\|")
        ));
    }
    out.push_str(
        "\nBlocked-job size bins (`blocked_groups.2` on) are powers of two up to the machine size; the \
         fair-slowdown table (`fair_slowdown.rows.N`) bins jobs by slowdown ÷ fair slowdown at 1, 1.5, 2 and 4. \
         A mean over no jobs (no regular jobs, no high-priority jobs) is `null`, and tables print it as \
         \"undefined (no jobs)\".\n",
    );
    out
}

/// What reports, tables and charts print for a mean over no jobs (the
/// metrics document has `null` there): such a mean is undefined, and 0
/// would read as a measurement.
pub const UNDEFINED: &str = "undefined (no jobs)";

/// A mean as a report prints it, with `digits` decimals, or [`UNDEFINED`]
/// for a mean over no jobs.
pub fn format_mean(value: Option<f64>, digits: u8) -> String {
    value.map_or_else(|| UNDEFINED.to_owned(), |v| format!("{v:.*}", usize::from(digits)))
}

/// A number as a table prints it: `digits` decimals, whole numbers without
/// any; `–` for a missing value.
pub fn format_cell(value: Option<f64>, digits: u8) -> String {
    match value {
        None => "\u{2013}".to_owned(),
        Some(v) if !v.is_finite() => "\u{2013}".to_owned(),
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => format!("{v:.0}"),
        Some(v) => format!("{v:.*}", usize::from(digits)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_to_their_columns() {
        assert_eq!(column("mbs").unwrap().label, "MBS");
        assert!(column("mbs").unwrap().shown);
        assert_eq!(column("categories.0.mbs").unwrap().label, "SN MBS");
        assert_eq!(column("categories.3.mean_turnaround").unwrap().unit, Some("s"));
        assert_eq!(column("blocked_groups.0.mbs").unwrap().label, "big blocked MBS");
        assert_eq!(column("blocked_groups.1.mwbs").unwrap().label, "small blocked MWBS");
        assert_eq!(column("fair_slowdown.rows.4.percent").unwrap().label, "fair slowdown >4 %");
        for c in columns() {
            assert_eq!(MetricKey::parse(&c.key), Some(c.metric), "{}", c.key);
        }
        assert_eq!(MetricKey::parse("fair_slowdown.rows.5.jobs"), None, "the table has five rows");
        for not in ["categories.4.mbs", "nope", "categories.x.mbs", "blocked_groups.0.nope", ""] {
            assert!(column(not).is_none(), "{not}");
        }
    }

    #[test]
    fn every_key_is_listed_once_and_explained_in_a_sentence() {
        let all = columns();
        for (i, c) in all.iter().enumerate() {
            assert!(all[..i].iter().all(|d| d.key != c.key), "{} twice", c.key);
            assert!(c.description.ends_with('.') && c.description.len() > 15, "{}", c.key);
        }
        let shown: Vec<&str> = all.iter().filter(|c| c.shown).map(|c| c.key.as_str()).collect();
        assert_eq!(shown[..4], ["mbs", "mwbs", "mean_wait", "utilization"]);
    }

    #[test]
    fn cells_print_with_the_columns_digits() {
        assert_eq!(format_cell(Some(2.34567), 3), "2.346");
        assert_eq!(format_cell(Some(12.0), 3), "12");
        assert_eq!(format_cell(None, 3), "\u{2013}");
        assert_eq!(format_cell(Some(f64::NAN), 1), "\u{2013}");
        assert_eq!(format_mean(Some(2.0), 1), "2.0");
        assert_eq!(format_mean(None, 1), "undefined (no jobs)");
    }

    /// A header is the label and its unit: a label that already ends in
    /// its unit would read "realised error (s) (s)".
    #[test]
    fn no_label_repeats_its_unit() {
        for c in columns() {
            if let Some(unit) = c.unit {
                assert!(!c.label.ends_with(&format!("({unit})")), "{}: {}", c.key, c.label);
            }
        }
    }

    /// docs/metrics.md is the catalogue's glossary; `SCHEDLAB_BLESS=1`
    /// rewrites it.
    #[test]
    fn the_glossary_page_is_generated_from_the_catalogue() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/metrics.md");
        let want = glossary_markdown();
        if std::env::var_os("SCHEDLAB_BLESS").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(have == want, "docs/metrics.md is out of date: run SCHEDLAB_BLESS=1 cargo test -p schedlab-metrics");
    }
}
