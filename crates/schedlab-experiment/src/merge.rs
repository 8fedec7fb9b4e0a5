//! Joining shard results (`schedlab sweep --shard I/N --json`) into the
//! result of the whole experiment, trusting nothing a file says: every file
//! must come from the same experiment (runs, shared parameters, sweep,
//! repetitions, seed, workload and metric options) on the same trace read
//! the same way, and every point must be the point the plan numbers so
//! (run, sweep value, seed), with a metrics document of the same shape as
//! the run's other points. What a file claims (how many points the
//! experiment has) is arithmetic, never allocated.
//!
//! A [`Merger`] streams: each file is parsed point by point, each point
//! checked as it is read and kept compactly (its metrics' leaves, nine
//! bytes each: `json::compact`), and the merged document is written point
//! by point from them (`Merged::document`). What it holds is counted
//! against a memory budget, so a merge that would not fit is refused with
//! a sentence before it runs out of memory.

mod read;
#[cfg(test)]
mod tests;

use schedlab_engine::Time;
use serde::Serialize;
use thiserror::Error;

use crate::json::compact::{Leaves, Skeleton};
use crate::json::settings_difference;
use crate::result::summary_row;
use crate::{
    Experiment, ExperimentResult, MetricsDocument, Plan, Point, PointResult, Shard, SummaryRow, TraceDocument,
    EXPERIMENT_SCHEMA,
};

/// The memory a merge holds by default, bytes (4 GiB): a merge of three
/// shards of 1 GB each peaks at about 0.94 GB resident (BENCHMARKS.md).
pub const MAX_MERGE_MEMORY: u64 = 1 << 32;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MergeError {
    #[error("nothing to merge")]
    Empty,
    #[error(
        "shard {file}: the points read so far hold more than {limit} bytes of memory, the most this merge may hold \
         ({points} points kept)"
    )]
    Memory { file: usize, limit: u64, points: usize },
    #[error("shard {file}: not JSON: {message}")]
    NotJson { file: usize, message: String },
    #[error("shard {file}: `{field}`: {message}")]
    Field { file: usize, field: String, message: String },
    #[error("shard {file}: `{field}` differs from shard 1's ({this} vs {first})")]
    Mismatch { file: usize, field: String, this: String, first: String },
    #[error("shard {file}: the experiment cannot be planned: {message}")]
    Plan { file: usize, message: String },
    #[error("shard {file}, point {index}: {message}")]
    Point { file: usize, index: u64, message: String },
    #[error("run `{label}`{at}: the mean or 95 % interval of metric `{field}` is beyond the largest number (1.8e308); a shard holds a value no run gives")]
    Overflow { label: String, at: String, field: String },
    #[error(
        "run `{label}`{at}: metric `{field}` is null in {nulls} of its {points} repetitions (first: point {first}) \
         and a number in the others; a mean over fewer repetitions than its seeds list would be wrong: run those \
         points again"
    )]
    PartlyNull { label: String, at: String, field: String, nulls: usize, points: usize, first: u64 },
    #[error("point {0} appears in more than one shard")]
    Duplicate(u64),
    #[error("{missing} of {total} points are missing (first missing: point {first})")]
    Missing { missing: u64, total: u64, first: u64 },
}

fn field_error(file: usize, field: &str, message: impl std::fmt::Display) -> MergeError {
    MergeError::Field { file, field: field.to_owned(), message: message.to_string() }
}

/// The first file's experiment and trace, which every other must repeat.
struct First {
    plan: Plan,
    experiment: Experiment,
    trace: TraceDocument,
    /// Per run: the skeleton of its first point's metrics (the shape the
    /// others must have).
    shapes: Vec<Option<Skeleton>>,
}

/// A point as kept: everything but its metrics, which are leaves.
struct Stored {
    point: Point,
    events: u64,
    elapsed_ms: Option<f64>,
    leaves: usize,
    wait_ecdf: Option<Vec<(Time, f64)>>,
}

/// Shards being merged. Add every file ([`Merger::add_reader`], or
/// [`Merger::add`] for a result in memory), then [`Merger::finish`].
pub struct Merger {
    limit: u64,
    files: usize,
    first: Option<First>,
    stored: Vec<Stored>,
    leaves: Leaves,
    /// Bytes of the kept wait ECDFs.
    ecdf_bytes: usize,
}

impl Merger {
    /// A merge that holds at most `limit` bytes of points.
    pub fn new(limit: u64) -> Self {
        Merger { limit, files: 0, first: None, stored: Vec::new(), leaves: Leaves::default(), ecdf_bytes: 0 }
    }

    /// Adds a shard that is already in memory.
    pub fn add(&mut self, part: ExperimentResult) -> Result<(), MergeError> {
        self.files += 1;
        let file = self.files;
        let header = read::Header {
            schema: Some(part.schema),
            experiment: Some(part.experiment),
            trace: Some(part.trace),
            shard: part.shard,
        };
        let shard = self.begin(file, header)?;
        part.points.into_iter().try_for_each(|p| self.take(file, shard, p))
    }

    /// Checks a file's header: its schema, and its experiment and trace
    /// against the first file's (the first plans the merge). Returns its
    /// shard.
    fn begin(&mut self, file: usize, header: read::Header) -> Result<Option<Shard>, MergeError> {
        let (Some(schema), Some(experiment), Some(trace)) = (header.schema, header.experiment, header.trace) else {
            return Err(field_error(
                file,
                "(document)",
                "a shard file has `schema`, `experiment` and `trace` (the JSON of `schedlab sweep --shard I/N --json`)",
            ));
        };
        if schema != EXPERIMENT_SCHEMA {
            return Err(field_error(file, "schema", format!("`{schema}`, expected `{EXPERIMENT_SCHEMA}`")));
        }
        match &self.first {
            None => {
                let plan =
                    Plan::new(experiment.clone()).map_err(|e| MergeError::Plan { file, message: e.to_string() })?;
                let shapes = vec![None; plan.experiment().runs.len()];
                self.first = Some(First { plan, experiment, trace, shapes });
            }
            Some(f) => {
                if let Some((field, this, first)) =
                    settings_difference((&experiment, &trace), (&f.experiment, &f.trace))
                {
                    return Err(MergeError::Mismatch { file, field, this, first });
                }
            }
        }
        if let Some(s) = header.shard {
            s.check().map_err(|e| field_error(file, "shard", e))?;
        }
        Ok(header.shard)
    }

    /// Checks a point of `file` and keeps it.
    fn take(&mut self, file: usize, shard: Option<Shard>, p: PointResult) -> Result<(), MergeError> {
        let first = self.first.as_mut().ok_or(MergeError::Empty)?;
        check_point(&first.plan, shard, &p, &mut first.shapes).map_err(|message| MergeError::Point {
            file,
            index: p.point.index,
            message,
        })?;
        let leaves = self.leaves.push(&p.metrics);
        self.ecdf_bytes += p.wait_ecdf.as_ref().map_or(0, |w| w.len() * std::mem::size_of::<(Time, f64)>());
        self.stored.push(Stored {
            point: p.point,
            events: p.events,
            elapsed_ms: p.elapsed_ms,
            leaves,
            wait_ecdf: p.wait_ecdf,
        });
        let held = self.leaves.bytes() + self.stored.capacity() * std::mem::size_of::<Stored>() + self.ecdf_bytes;
        if held as u64 > self.limit {
            return Err(MergeError::Memory { file, limit: self.limit, points: self.stored.len() });
        }
        Ok(())
    }

    /// Joins what was added into the result of the whole experiment: every
    /// point exactly once, every cell's metrics summable.
    pub fn finish(mut self) -> Result<Merged, MergeError> {
        let first = self.first.take().ok_or(MergeError::Empty)?;
        let mut stored = std::mem::take(&mut self.stored);
        stored.sort_by_key(|p| p.point.index);
        if let Some(w) = stored.windows(2).find(|w| w[0].point.index == w[1].point.index) {
            return Err(MergeError::Duplicate(w[0].point.index));
        }
        let total = first.plan.len();
        if stored.len() as u64 != total {
            let first = stored
                .iter()
                .enumerate()
                .find(|(k, p)| p.point.index != *k as u64)
                .map_or(stored.len() as u64, |(k, _)| k as u64);
            return Err(MergeError::Missing { missing: total - stored.len() as u64, total, first });
        }
        let skeletons: Vec<Skeleton> =
            first.shapes.into_iter().map(|s| s.unwrap_or_else(|| Skeleton::of(&MetricsDocument::default()))).collect();
        let mut merged = Merged {
            plan: first.plan,
            trace: first.trace,
            stored,
            leaves: self.leaves,
            skeletons,
            summary: Vec::new(),
        };
        merged.summary = merged.summarise()?;
        Ok(merged)
    }
}

/// The merged result, its points kept compactly.
pub struct Merged {
    plan: Plan,
    trace: TraceDocument,
    stored: Vec<Stored>,
    leaves: Leaves,
    skeletons: Vec<Skeleton>,
    summary: Vec<SummaryRow>,
}

impl Merged {
    fn point(&self, s: &Stored) -> PointResult {
        PointResult {
            point: s.point.clone(),
            events: s.events,
            elapsed_ms: s.elapsed_ms,
            metrics: self.leaves.document(&self.skeletons[s.point.run], s.leaves),
            wait_ecdf: s.wait_ecdf.clone(),
        }
    }

    /// Every cell's summary row, after checking that its metrics can be
    /// averaged: no leaf null in some repetitions only, no mean or
    /// interval beyond the largest float.
    fn summarise(&self) -> Result<Vec<SummaryRow>, MergeError> {
        let mut rows = Vec::new();
        for (run, value) in self.plan.cells() {
            let range = self.plan.cell_range(run, value);
            let cell = &self.stored[range.start as usize..range.end as usize];
            self.check_nulls(run, value, cell)?;
            let metrics: Vec<MetricsDocument> =
                cell.iter().map(|p| self.leaves.document(&self.skeletons[run], p.leaves)).collect();
            let metrics: Vec<&MetricsDocument> = metrics.iter().collect();
            if let Some(field) = crate::overflowing_metric(&metrics) {
                return Err(MergeError::Overflow { label: self.plan.label(run), at: self.plan.at(value), field });
            }
            let seeds = cell.iter().map(|p| p.point.seed).collect();
            rows.push(summary_row(&self.plan, run, value, seeds, &metrics));
        }
        Ok(rows)
    }

    /// A metric null in some repetitions of a cell and a number in others
    /// would be averaged over fewer points than the row's seeds say.
    fn check_nulls(&self, run: usize, value: Option<usize>, cell: &[Stored]) -> Result<(), MergeError> {
        let skeleton = &self.skeletons[run];
        for (leaf, key) in skeleton.keys().iter().enumerate() {
            let nulls: Vec<&Stored> = cell.iter().filter(|p| self.leaves.is_null(p.leaves + leaf)).collect();
            if !nulls.is_empty() && nulls.len() < cell.len() {
                return Err(MergeError::PartlyNull {
                    label: self.plan.label(run),
                    at: self.plan.at(value),
                    field: key.path(),
                    nulls: nulls.len(),
                    points: cell.len(),
                    first: nulls[0].point.index,
                });
            }
        }
        Ok(())
    }

    /// The merged result as a document: the bytes of
    /// [`ExperimentResult`]'s, each point made again from its leaves as it
    /// is written.
    pub fn document(&self) -> impl Serialize + '_ {
        MergedDocument {
            schema: EXPERIMENT_SCHEMA,
            experiment: self.plan.experiment(),
            labels: self.plan.labels(),
            titles: self.plan.titles(),
            trace: &self.trace,
            points: Points(self),
            summary: &self.summary,
            note: self.plan.once_note(),
        }
    }

    /// The result without its points (what a table of the summary reads).
    pub fn summary(&self) -> ExperimentResult {
        ExperimentResult { points: Vec::new(), summary: self.summary.clone(), ..self.header() }
    }

    fn header(&self) -> ExperimentResult {
        ExperimentResult {
            schema: EXPERIMENT_SCHEMA.to_string(),
            experiment: self.plan.experiment().clone(),
            labels: self.plan.labels(),
            titles: self.plan.titles(),
            trace: self.trace.clone(),
            shard: None,
            points: Vec::new(),
            summary: Vec::new(),
            note: self.plan.once_note(),
        }
    }

    /// The whole result in memory.
    pub fn into_result(self) -> ExperimentResult {
        let points = self.stored.iter().map(|s| self.point(s)).collect();
        ExperimentResult { points, summary: self.summary.clone(), ..self.header() }
    }
}

/// [`ExperimentResult`]'s fields in its order, borrowed.
#[derive(Serialize)]
struct MergedDocument<'a> {
    schema: &'a str,
    experiment: &'a Experiment,
    labels: Vec<String>,
    titles: Vec<String>,
    trace: &'a TraceDocument,
    points: Points<'a>,
    summary: &'a [SummaryRow],
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// The points, each made as it is written.
struct Points<'a>(&'a Merged);

impl Serialize for Points<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.stored.len()))?;
        for p in &self.0.stored {
            seq.serialize_element(&self.0.point(p))?;
        }
        seq.end()
    }
}

/// Joins shard results in memory (see [`Merger`]).
pub fn merge(parts: Vec<ExperimentResult>) -> Result<ExperimentResult, MergeError> {
    let mut merger = Merger::new(u64::MAX);
    parts.into_iter().try_for_each(|p| merger.add(p))?;
    Ok(merger.finish()?.into_result())
}

/// A point must be the plan's point of that number, belong to its file's
/// shard, and carry a metrics document shaped like the run's others.
fn check_point(
    plan: &Plan,
    shard: Option<Shard>,
    p: &PointResult,
    shapes: &mut [Option<Skeleton>],
) -> Result<(), String> {
    let expected = plan
        .point(p.point.index)
        .ok_or_else(|| format!("the experiment has {} points, numbered from 0", plan.len()))?;
    if let Some(s) = shard.filter(|s| !s.contains(p.point.index)) {
        return Err(format!("not a point of shard {}/{}", s.index, s.count));
    }
    if p.point.run != expected.run {
        return Err(format!("`run` is {}, the plan says {}", p.point.run, expected.run));
    }
    if p.point.value != expected.value {
        let index = |v: Option<usize>| v.map_or("null".into(), |v| v.to_string());
        let text = plan.value_text(expected.value).unwrap_or_else(|| "no value".into());
        return Err(format!("`value` is {}, the plan says {} ({text})", index(p.point.value), index(expected.value)));
    }
    if p.point.seed != expected.seed {
        return Err(format!("`seed` is {}, the plan says {}", p.point.seed, expected.seed));
    }
    match &shapes[p.point.run] {
        Some(shape) => shape.check(&p.metrics),
        None => {
            shapes[p.point.run] = Some(Skeleton::of(&p.metrics));
            Ok(())
        }
    }
}
