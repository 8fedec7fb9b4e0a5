//! A checked experiment and its points (see docs/semantics.md,
//! "Experiments").
//!
//! A point is (run, sweep value, repetition). Points are numbered run-major,
//! then by sweep value, then by repetition; a run the sweep does not apply
//! to has one cell (no value). A run that draws nothing from its seed
//! (`RunSpec::uses_seed`) has one repetition whatever the experiment's
//! `repeat`: its other repetitions would repeat its numbers exactly and
//! show a spread of ± 0 that says nothing. A shard `I/N` (1-based) takes the points
//! whose number is I−1 modulo N, which spreads the expensive runs over the
//! shards. The plan counts its points arithmetically and makes a point only
//! when asked, so a shard of a huge grid costs memory for its own points
//! only.

use schedlab_workload::short_text;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::experiment::{SweepError, MAX_REPEAT, MAX_RUNS};
use schedlab_engine::params::{CheckedValue, ParamInput};

use crate::{resolve, Experiment, RunSettings, SpecError};

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GridError {
    #[error("--shard `{0}`: write I/N, shard I of N, e.g. 2/8")]
    ShardShape(String),
    #[error("shard {index}/{count}: {rule}")]
    Shard { index: i64, count: i64, rule: &'static str },
    #[error("an experiment needs at least one run")]
    NoRun,
    #[error("an experiment has at most {MAX_RUNS} runs, got {0}")]
    TooManyRuns(usize),
    #[error("repeat must be between 1 and {MAX_REPEAT}, got {0}")]
    Repeat(u32),
    #[error(
        "seed {seed} with repeat {repeat} would pass 2^64 - 1 and wrap around to 0; the largest seed allowed is {max}"
    )]
    SeedWraps { seed: u64, repeat: u32, max: u64 },
    #[error("{0}")]
    Spec(#[from] SpecError),
    #[error("{0}")]
    Config(#[from] crate::ConfigError),
    #[error("{0}")]
    Sweep(#[from] SweepError),
    #[error("run `{}`{at}: {message}", short_text(.label))]
    Run { label: String, at: String, message: String },
    #[error("sweep parameter `{}` is not a parameter of any run", short_text(.0))]
    SweepUnknown(String),
    #[error("sweep.runs: run {index} is not a run of the experiment (it has {runs})")]
    SweepRunIndex { index: usize, runs: usize },
    #[error("sweep.runs: run `{}` has no parameter `{}` to sweep", short_text(.label), short_text(.param))]
    SweepRunUnused { label: String, param: String },
    #[error("parameter `{param}` is swept and also set {place}; give it one way")]
    SweepConflict { param: String, place: String },
    #[error("--param {}: no run of the experiment has a parameter `{}`", short_text(.0), short_text(.0))]
    ParamUnknown(String),
    #[error(
        "the experiment plans {total} simulations ({runs} runs × up to {values} sweep values × up to {repeat} repetitions), \
         more than the {MAX_SIMULATIONS} one experiment may plan; sweep fewer values, repeat fewer times or \
         compare fewer runs"
    )]
    TooMuchWork { runs: usize, values: usize, repeat: u32, total: u64 },
}

/// The most simulations one experiment may plan (points, counted before
/// anything runs). Each limit alone (100 runs, 10,000 sweep values, 10,000
/// repetitions) is reasonable, their product (10^10) is not: a 9 KB share
/// link planned that many and ran forever. 10^8 is the grid one run swept
/// over every value and repetition makes, the largest the shards were
/// designed to split; checked in `Plan::new`, so every front end (command
/// line, page, link, Python, merge) has the one bound (docs/decisions.md).
pub const MAX_SIMULATIONS: u64 = 100_000_000;

/// Which slice of the points to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// 1-based.
    pub index: u32,
    pub count: u32,
}

/// The rules of a shard I/N, each with its own message.
fn shard_rule(index: i64, count: i64) -> Result<(), GridError> {
    let rule = if count < 1 {
        "the count N must be 1 or more"
    } else if count > i64::from(u32::MAX) {
        "the count N must be at most 4294967295"
    } else if index < 1 {
        "the index I must be 1 or more (shards are numbered from 1)"
    } else if index > count {
        "the index I must be at most the count N"
    } else {
        return Ok(());
    };
    Err(GridError::Shard { index, count, rule })
}

impl Shard {
    pub fn parse(text: &str) -> Result<Self, GridError> {
        let bad = || GridError::ShardShape(schedlab_workload::short_text(text));
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<i64>().map_err(|_| bad())?, n.trim().parse::<i64>().map_err(|_| bad())?);
        shard_rule(index, count)?;
        // Both lie in 1..=u32::MAX once the rules hold.
        Ok(Shard { index: index as u32, count: count as u32 })
    }

    /// 1 ≤ index ≤ count; the error says which rule the numbers break.
    pub fn check(&self) -> Result<(), GridError> {
        shard_rule(i64::from(self.index), i64::from(self.count))
    }

    pub fn contains(&self, point: u64) -> bool {
        point % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// One point of the plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Point {
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub index: u64,
    pub run: usize,
    /// Index into the sweep's values; `null` for a run the sweep does not
    /// apply to (or without a sweep).
    pub value: Option<usize>,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub seed: u64,
}

/// A checked experiment: every run and every value it takes resolved
/// before anything runs, so a typo fails at once and not after an hour.
/// Each run is resolved once, and each value of a list sweep checked once
/// per run that takes it: a point's settings are those, with its seed and
/// its value (a range's value as a number), so no point reads a text or
/// compiles a formula again.
#[derive(Clone, Debug)]
pub struct Plan {
    experiment: Experiment,
    /// Per run: its settings without a sweep value, at the first seed.
    base: Vec<RunSettings>,
    /// Per run a list sweep applies to: each value of the list, checked
    /// for that run (empty for the other runs and for a range).
    listed: Vec<Vec<CheckedValue>>,
    /// Per run: whether the sweep applies to it.
    swept: Vec<bool>,
    /// Per run: its repetitions per cell, the experiment's `repeat` for a
    /// run that uses its seed and 1 for one that does not.
    repeats: Vec<u32>,
    /// Per run: the number of its first point.
    first: Vec<u64>,
    total: u64,
    values: usize,
}

impl Plan {
    pub fn new(experiment: Experiment) -> Result<Self, GridError> {
        let e = &experiment;
        match e.runs.len() {
            0 => return Err(GridError::NoRun),
            n if n > MAX_RUNS => return Err(GridError::TooManyRuns(n)),
            _ => {}
        }
        if !(1..=MAX_REPEAT).contains(&e.repeat) {
            return Err(GridError::Repeat(e.repeat));
        }
        // The repetitions use seeds seed, seed + 1, …: all must be distinct.
        let max = u64::MAX - u64::from(e.repeat - 1);
        if e.seed > max {
            return Err(GridError::SeedWraps { seed: e.seed, repeat: e.repeat, max });
        }
        // An unknown policy first: every check below would only say that
        // its run takes no parameter.
        for run in &e.runs {
            let policy = crate::settings::find_policy(&run.policy)?;
            // Said before any run, as the run itself would say it.
            if let (Some(_), schedlab_policies::OnNodes::Refuses(why)) = (&e.workload.machine, policy.on_nodes) {
                let message = crate::RunError::NotOnNodes { policy: policy.id, why }.to_string();
                return Err(GridError::Run { label: run.label(), at: String::new(), message });
            }
        }
        for (key, _) in e.params.iter() {
            if !e.runs.iter().any(|r| r.uses(key)) {
                return Err(GridError::ParamUnknown(key.to_owned()));
            }
        }
        let swept: Vec<bool> = match &e.sweep {
            Some(s) => (0..e.runs.len()).map(|r| s.applies_to(r, e.runs[r].uses(&s.param))).collect(),
            None => vec![false; e.runs.len()],
        };
        let values = match &e.sweep {
            Some(s) => check_sweep(e, s, &swept)?,
            None => 0,
        };
        let cells = |run: usize| if swept[run] { values as u64 } else { 1 };
        let repeats: Vec<u32> = e.runs.iter().map(|r| if r.uses_seed() { e.repeat } else { 1 }).collect();
        let mut first = Vec::with_capacity(e.runs.len());
        let mut total = 0u64;
        for (run, &repeat) in repeats.iter().enumerate() {
            first.push(total);
            total += cells(run) * u64::from(repeat);
        }
        if total > MAX_SIMULATIONS {
            return Err(GridError::TooMuchWork { runs: e.runs.len(), values: values.max(1), repeat: e.repeat, total });
        }
        let mut plan = Plan { experiment, base: Vec::new(), listed: Vec::new(), swept, repeats, first, total, values };
        plan.check_runs()?;
        Ok(plan)
    }

    /// Resolves every run, then checks it at the values that decide
    /// whether it is valid: every value of a list (kept), the first, second
    /// and last of a range (its values are evenly spaced, so these catch a
    /// bound or a fraction).
    fn check_runs(&mut self) -> Result<(), GridError> {
        for run in 0..self.experiment.runs.len() {
            let swept = self.experiment.sweep.as_ref().filter(|_| self.swept[run]);
            // A run's own error is reported where today's first probe met it.
            let at = if swept.is_some() { Some(0) } else { None };
            let request = self.experiment.request(run, None, self.experiment.seed);
            let base = resolve(&request).map_err(|e| self.run_error(run, at, e))?;
            let mut listed = Vec::new();
            match swept.map(|s| &s.values) {
                Some(crate::SweepValues::List(list)) => {
                    for (v, text) in list.iter().enumerate() {
                        let checked = base.check_value(&self.swept_param(), ParamInput::Text(text));
                        listed.push(checked.map_err(|e| self.run_error(run, Some(v), e))?);
                    }
                }
                Some(crate::SweepValues::Range { .. }) => {
                    let mut probes = vec![0, 1.min(self.values - 1), self.values - 1];
                    probes.dedup();
                    for v in probes {
                        self.with_number(&base, v).map_err(|e| self.run_error(run, Some(v), e))?;
                    }
                }
                None => {}
            }
            self.base.push(base);
            self.listed.push(listed);
        }
        Ok(())
    }

    /// The key of the swept parameter (empty without a sweep).
    fn swept_param(&self) -> String {
        self.experiment.sweep.as_ref().map_or_else(String::new, |s| s.param.clone())
    }

    /// `base` at value `v` of a range: the number its text shows, checked
    /// as a number (from 10^15 up, read from its text).
    fn with_number(&self, base: &RunSettings, v: usize) -> Result<RunSettings, crate::ConfigError> {
        let Some(sweep) = &self.experiment.sweep else { return Ok(base.clone()) };
        let text = sweep.value(v);
        let input = match sweep.number(v) {
            Some(value) => ParamInput::Number { value, text: &text },
            None => ParamInput::Text(&text),
        };
        base.with_value(&sweep.param, input)
    }

    fn run_error(&self, run: usize, value: Option<usize>, e: crate::ConfigError) -> GridError {
        GridError::Run { label: self.label(run), at: self.at(value), message: e.to_string() }
    }

    /// The settings of run `run` at sweep value `value` with seed `seed`,
    /// from the run resolved once.
    fn resolve_at(&self, run: usize, value: Option<usize>, seed: u64) -> Result<RunSettings, GridError> {
        let base = &self.base[run];
        let mut settings = match (value, self.listed[run].get(value.unwrap_or(usize::MAX))) {
            (None, _) => base.clone(),
            (Some(_), Some(checked)) => {
                base.with_checked(&self.swept_param(), checked.clone()).map_err(|e| self.run_error(run, value, e))?
            }
            (Some(v), None) => self.with_number(base, v).map_err(|e| self.run_error(run, value, e))?,
        };
        settings.seed = seed;
        Ok(settings)
    }

    /// ` at PARAM=VALUE` for a swept cell, for messages; empty otherwise.
    pub fn at(&self, value: Option<usize>) -> String {
        match (&self.experiment.sweep, self.value_text(value)) {
            (Some(s), Some(v)) => format!(" at {}={}", short_text(&s.param), short_text(&v)),
            _ => String::new(),
        }
    }

    pub fn experiment(&self) -> &Experiment {
        &self.experiment
    }

    /// How many points the plan has.
    pub fn len(&self) -> u64 {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The label of run `run` (its spec text).
    pub fn label(&self, run: usize) -> String {
        self.experiment.runs[run].label()
    }

    pub fn labels(&self) -> Vec<String> {
        (0..self.experiment.runs.len()).map(|r| self.label(r)).collect()
    }

    /// The title of run `run` at sweep value `value`, for people
    /// ([`crate::run_title`]): the swept parameter is named whenever the
    /// row has a value, and a parameter another run of the same policy sets
    /// otherwise always, even at its default.
    pub fn title(&self, run: usize, value: Option<usize>) -> String {
        let mut always: Vec<&str> = crate::title::distinguishing(&self.experiment, run);
        always.extend(value.and(self.experiment.sweep.as_ref()).map(|s| s.param.as_str()));
        match self.resolve_at(run, value, self.experiment.seed) {
            Ok(settings) => crate::run_title(&settings, &always, self.experiment.workload.load()),
            Err(_) => self.label(run),
        }
    }

    /// The title of every run, without a sweep value.
    pub fn titles(&self) -> Vec<String> {
        (0..self.experiment.runs.len()).map(|r| self.title(r, None)).collect()
    }

    /// How many times each cell of run `run` runs: the experiment's
    /// `repeat`, or 1 for a run that uses no seed.
    pub fn repeat_of(&self, run: usize) -> u32 {
        self.repeats[run]
    }

    /// When the experiment asks for repetitions and some runs use no seed,
    /// the sentence that says those ran once ("EASY and Conservative
    /// backfilling use no randomness: run once"), which the command line
    /// and the page print with the results so that a missing interval is
    /// not taken for a lost one. Each title is named once.
    pub fn once_note(&self) -> Option<String> {
        if self.experiment.repeat < 2 {
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        for run in (0..self.repeats.len()).filter(|&r| self.repeats[r] == 1) {
            let title = self.title(run, None);
            if !names.contains(&title) {
                names.push(title);
            }
        }
        let (last, rest) = names.split_last()?;
        let (list, verb) =
            if rest.is_empty() { (last.clone(), "uses") } else { (format!("{} and {last}", rest.join(", ")), "use") };
        Some(format!("{list} {verb} no randomness: run once"))
    }

    /// Whether the sweep applies to run `run`.
    pub fn is_swept(&self, run: usize) -> bool {
        self.swept[run]
    }

    /// The text of sweep value `value`.
    pub fn value_text(&self, value: Option<usize>) -> Option<String> {
        match (&self.experiment.sweep, value) {
            (Some(s), Some(v)) => Some(s.value(v)),
            _ => None,
        }
    }

    /// Point number `index`, computed (`None` past the end).
    pub fn point(&self, index: u64) -> Option<Point> {
        if index >= self.total {
            return None;
        }
        let run = self.first.partition_point(|&f| f <= index) - 1;
        let offset = index - self.first[run];
        let repeat = u64::from(self.repeats[run]);
        let value = self.swept[run].then(|| (offset / repeat) as usize);
        let seed = self.experiment.seed + offset % repeat;
        Some(Point { index, run, value, seed })
    }

    /// The points of one shard (all of them without a shard), made one at
    /// a time.
    pub fn points(&self, shard: Option<Shard>) -> impl Iterator<Item = Point> + '_ {
        let (start, step) = stride(shard);
        (0..self.shard_len(shard)).filter_map(move |k| self.point(start + k * step))
    }

    /// How many points a shard holds.
    pub fn shard_len(&self, shard: Option<Shard>) -> u64 {
        let (start, step) = stride(shard);
        if start >= self.total {
            0
        } else {
            (self.total - start).div_ceil(step)
        }
    }

    /// Checked settings of a point.
    pub fn settings(&self, point: &Point) -> Result<RunSettings, GridError> {
        self.resolve_at(point.run, point.value, point.seed)
    }

    /// The (run, value) cells in point order: what the summaries have rows for.
    pub fn cells(&self) -> impl Iterator<Item = (usize, Option<usize>)> + '_ {
        (0..self.experiment.runs.len()).flat_map(move |run| {
            let values: Box<dyn Iterator<Item = Option<usize>>> =
                if self.swept[run] { Box::new((0..self.values).map(Some)) } else { Box::new(std::iter::once(None)) };
            values.map(move |v| (run, v))
        })
    }

    /// The numbers of the points of cell (run, value).
    pub fn cell_range(&self, run: usize, value: Option<usize>) -> std::ops::Range<u64> {
        let repeat = u64::from(self.repeats[run]);
        let start = self.first[run] + value.map_or(0, |v| v as u64) * repeat;
        start..start + repeat
    }

    /// A point's label for progress and errors: `RUN [PARAM=VALUE] seed S`.
    pub fn point_label(&self, p: &Point) -> String {
        let value = match (&self.experiment.sweep, self.value_text(p.value)) {
            (Some(s), Some(v)) => format!(" {}={v}", s.param),
            _ => String::new(),
        };
        format!("{}{value} seed {}", self.label(p.run), p.seed)
    }
}

/// A shard's first point and step (every point without a shard; an
/// unchecked shard of index 0 or count 0 is read as 1).
fn stride(shard: Option<Shard>) -> (u64, u64) {
    shard.map_or((0, 1), |s| (u64::from(s.index.max(1) - 1), u64::from(s.count.max(1))))
}

/// The sweep's value count, after checking which runs it applies to and
/// that the swept parameter is not also set another way.
fn check_sweep(e: &Experiment, s: &crate::Sweep, swept: &[bool]) -> Result<usize, GridError> {
    let values = s.count()?;
    if let Some(runs) = &s.runs {
        for &index in runs {
            let run = e.runs.get(index).ok_or(GridError::SweepRunIndex { index, runs: e.runs.len() })?;
            if !run.uses(&s.param) {
                return Err(GridError::SweepRunUnused { label: run.label(), param: s.param.clone() });
            }
        }
    }
    if !swept.iter().any(|&w| w) {
        return Err(GridError::SweepUnknown(s.param.clone()));
    }
    if e.params.contains(&s.param) {
        return Err(GridError::SweepConflict { param: s.param.clone(), place: "with --param (params)".into() });
    }
    for (run, spec) in e.runs.iter().enumerate() {
        if swept[run] && spec.params.contains(&s.param) {
            return Err(GridError::SweepConflict {
                param: s.param.clone(),
                place: format!("in run `{}`", spec.label()),
            });
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{MAX_REPEAT, MAX_RUNS};
    use crate::{RunSpec, Sweep};
    use schedlab_engine::RuntimeSource;

    fn runs(specs: &[&str]) -> Vec<RunSpec> {
        specs.iter().map(|s| RunSpec::parse(s).unwrap()).collect()
    }

    /// 100 runs × 10,000 sweep values × 10,000 repetitions, each within
    /// its own limit, planned 10^10 simulations: refused, naming the
    /// product; a plan at the budget is accepted.
    #[test]
    fn the_product_of_runs_values_and_repetitions_has_a_budget() {
        let specs = vec!["easy@virtual"; MAX_RUNS];
        let e = Experiment {
            repeat: MAX_REPEAT,
            sweep: Some(Sweep::parse("error=0:99.99:0.01").unwrap()),
            ..Experiment::of(runs(&specs))
        };
        let err = Plan::new(e).unwrap_err();
        assert_eq!(
            err,
            GridError::TooMuchWork { runs: 100, values: 10_000, repeat: 10_000, total: 10_000_000_000 },
            "{err}"
        );
        assert!(err.to_string().starts_with(
            "the experiment plans 10000000000 simulations (100 runs × up to 10000 sweep values × up to 10000 repetitions), more than the 100000000"
        ));
        let e = Experiment {
            repeat: MAX_REPEAT,
            sweep: Some(Sweep::parse("error=0:99.99:0.01").unwrap()),
            ..Experiment::of(runs(&["easy@virtual"]))
        };
        assert_eq!(Plan::new(e).unwrap().len(), MAX_SIMULATIONS);
    }

    /// A machine of nodes in the workload: a policy that plans processors
    /// is refused when the experiment is planned, in the run's words; one
    /// that runs on nodes is planned.
    #[test]
    fn a_policy_that_refuses_nodes_is_refused_at_planning() {
        let machine = schedlab_workload::Machine::from_spec("2x(cpu=4)").unwrap();
        let on_nodes = |specs: &[&str]| Experiment {
            workload: crate::WorkloadOptions { machine: Some(machine.clone()), ..Default::default() },
            ..Experiment::of(runs(specs))
        };
        let err = Plan::new(on_nodes(&["easy", "dbf"])).unwrap_err();
        assert!(err.to_string().starts_with("run `dbf`: policy `dbf` refuses a machine of nodes: "), "{err}");
        assert_eq!(Plan::new(on_nodes(&["easy", "fcfs", "cbf", "backfill"])).unwrap().len(), 4);
        assert_eq!(Plan::new(Experiment::of(runs(&["cbf"]))).unwrap().len(), 1);
    }

    #[test]
    fn shards_partition_the_points() {
        let shards: Vec<Shard> = (1..=3).map(|i| Shard::parse(&format!("{i}/3")).unwrap()).collect();
        for p in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.contains(p)).count(), 1);
        }
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn points_are_numbered_run_major_and_computed_on_demand() {
        let e = Experiment {
            repeat: 3,
            seed: 5,
            sweep: Some(Sweep::parse("error=0:20:10").unwrap()),
            ..Experiment::of(runs(&["easy@virtual", "fcfs", "pv-easy@virtual"]))
        };
        let plan = Plan::new(e.clone()).unwrap();
        // easy: 3 values × 3; fcfs takes no error and draws nothing from
        // the seed: 1 cell, run once; pv-easy: 9.
        assert_eq!(plan.len(), 9 + 1 + 9);
        assert_eq!(plan.point(4), Some(Point { index: 4, run: 0, value: Some(1), seed: 6 }));
        assert_eq!(plan.point(9), Some(Point { index: 9, run: 1, value: None, seed: 5 }));
        assert_eq!(plan.point(13), Some(Point { index: 13, run: 2, value: Some(1), seed: 5 }));
        assert_eq!(plan.point(19), None);
        let all: Vec<u64> = plan.points(None).map(|p| p.index).collect();
        assert_eq!(all, (0..19).collect::<Vec<_>>());
        let shard: Vec<u64> = plan.points(Some(Shard { index: 2, count: 4 })).map(|p| p.index).collect();
        assert_eq!(shard, [1, 5, 9, 13, 17]);
        assert_eq!(plan.shard_len(Some(Shard { index: 2, count: 4 })), 5);
        assert_eq!(plan.cells().count(), 3 + 1 + 3);
        let bad = Experiment { sweep: Some(Sweep::parse("error=0:200:100").unwrap()), ..e };
        let err = Plan::new(bad).unwrap_err().to_string();
        assert!(err.contains("at error=200") && err.contains("outside"), "{err}");
    }

    /// EASY and CBF with user estimates draw nothing from the seed, DBF
    /// draws its deadline-driven jobs and `virtual` its errors: with
    /// repeat 3 from seed 5, EASY is point 0 (seed 5), DBF points 1–3
    /// (seeds 5, 6, 7), CBF point 4 and EASY@virtual points 5–7.
    #[test]
    fn runs_without_randomness_run_once_and_the_note_names_them() {
        let e = Experiment { repeat: 3, seed: 5, ..Experiment::of(runs(&["easy", "dbf", "cbf", "easy@virtual"])) };
        let plan = Plan::new(e).unwrap();
        let points: Vec<(usize, u64)> = plan.points(None).map(|p| (p.run, p.seed)).collect();
        assert_eq!(points, [(0, 5), (1, 5), (1, 6), (1, 7), (2, 5), (3, 5), (3, 6), (3, 7)]);
        assert_eq!((0..4).map(|r| plan.repeat_of(r)).collect::<Vec<_>>(), [1, 3, 1, 3]);
        assert_eq!((plan.cell_range(1, None), plan.cell_range(2, None)), (1..4, 4..5));
        assert_eq!(plan.once_note().as_deref(), Some("EASY and Conservative backfilling use no randomness: run once"));
        let one = Plan::new(Experiment { repeat: 3, ..Experiment::of(runs(&["easy", "dbf"])) }).unwrap();
        assert_eq!(one.once_note().as_deref(), Some("EASY uses no randomness: run once"));
        assert_eq!(one.len(), 1 + 3);
        // Without repetitions nothing ran fewer times than asked: no note.
        let single = Plan::new(Experiment::of(runs(&["easy", "dbf"]))).unwrap();
        assert_eq!((single.len(), single.once_note()), (2, None));
    }

    #[test]
    fn a_huge_grid_is_counted_not_listed() {
        // 10,000 repetitions × 10,000 values: 10^8 points, no allocation.
        let e = Experiment {
            repeat: 10_000,
            sweep: Some(Sweep::parse("error=0:99.99:0.01").unwrap()),
            ..Experiment::of(runs(&["easy@virtual"]))
        };
        let plan = Plan::new(e).unwrap();
        assert_eq!(plan.len(), 100_000_000);
        let shard = Some(Shard { index: 1, count: u32::MAX });
        assert_eq!(plan.points(shard).map(|p| p.index).collect::<Vec<_>>(), [0]);
        let last = plan.point(99_999_999).unwrap();
        assert_eq!((last.value, last.seed), (Some(9_999), 9_999));
        assert_eq!(plan.value_text(last.value).as_deref(), Some("99.99"));
    }

    #[test]
    fn a_sweep_that_overrides_a_given_parameter_is_refused() {
        let sweep = Some(Sweep::parse("error=0:20:10").unwrap());
        let in_spec = Experiment { sweep: sweep.clone(), ..Experiment::of(runs(&["easy:error=5@virtual"])) };
        let e = Plan::new(in_spec).unwrap_err().to_string();
        assert_eq!(e, "parameter `error` is swept and also set in run `easy:error=5@virtual`; give it one way");
        let mut shared = Experiment { sweep, ..Experiment::of(runs(&["easy@virtual"])) };
        shared.params.set("error", "5");
        assert!(Plan::new(shared).unwrap_err().to_string().contains("also set with --param"));
    }

    #[test]
    fn sweeps_and_shared_params_must_reach_a_run() {
        let e = Experiment { sweep: Some(Sweep::parse("nope=1,2").unwrap()), ..Experiment::of(runs(&["easy"])) };
        assert_eq!(Plan::new(e).unwrap_err(), GridError::SweepUnknown("nope".into()));
        let mut e = Experiment::of(runs(&["easy"]));
        e.params.set("sf", "3");
        assert_eq!(Plan::new(e).unwrap_err(), GridError::ParamUnknown("sf".into()));
        let mut sweep = Sweep::parse("error=1,2").unwrap();
        sweep.runs = Some(vec![1]);
        let e = Experiment { sweep: Some(sweep.clone()), ..Experiment::of(runs(&["easy@virtual", "fcfs"])) };
        assert!(Plan::new(e).unwrap_err().to_string().contains("run `fcfs` has no parameter `error`"));
        sweep.runs = Some(vec![7]);
        let e = Experiment { sweep: Some(sweep), ..Experiment::of(runs(&["easy@virtual"])) };
        assert!(Plan::new(e).unwrap_err().to_string().contains("run 7 is not a run"));
        assert_eq!(Plan::new(Experiment::default()).unwrap_err(), GridError::NoRun);
        let e = Experiment { repeat: 0, ..Experiment::of(runs(&["easy"])) };
        assert_eq!(Plan::new(e).unwrap_err(), GridError::Repeat(0));
    }

    #[test]
    fn a_seed_whose_repetitions_would_wrap_around_is_refused_with_the_largest_allowed() {
        let e = Experiment { repeat: 3, seed: u64::MAX, ..Experiment::of(runs(&["easy"])) };
        let err = Plan::new(e).unwrap_err();
        assert_eq!(err, GridError::SeedWraps { seed: u64::MAX, repeat: 3, max: u64::MAX - 2 });
        assert!(err.to_string().contains("the largest seed allowed is 18446744073709551613"), "{err}");
        // DBF draws from its seed, so it runs once per seed.
        let plan = Plan::new(Experiment { repeat: 3, seed: u64::MAX - 2, ..Experiment::of(runs(&["dbf"])) }).unwrap();
        let seeds: Vec<u64> = plan.points(None).map(|p| p.seed).collect();
        assert_eq!(seeds, [u64::MAX - 2, u64::MAX - 1, u64::MAX]);
    }

    #[test]
    fn a_sweep_limited_to_some_runs_leaves_the_others_unswept() {
        let mut sweep = Sweep::parse("error=0,50").unwrap();
        sweep.runs = Some(vec![1]);
        let e = Experiment { sweep: Some(sweep), ..Experiment::of(runs(&["easy@virtual", "easy@virtual"])) };
        let plan = Plan::new(e).unwrap();
        assert_eq!(plan.len(), 3);
        assert!(!plan.is_swept(0) && plan.is_swept(1));
        let source = |i| plan.settings(&plan.point(i).unwrap()).unwrap().source;
        assert_eq!(source(0), RuntimeSource::Virtual { error_pct: 10.0 }, "the default");
        assert_eq!(source(2), RuntimeSource::Virtual { error_pct: 50.0 });
    }
}
