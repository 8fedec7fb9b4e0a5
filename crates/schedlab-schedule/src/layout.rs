//! The processor layout: which processor indices each run of a job is drawn
//! on.
//!
//! Processors are interchangeable in the model, so the layout is a
//! presentation choice, recomputed from the run record alone. The runs are
//! replayed in time order, at each second the runs that end first, then
//! the runs of no length that start (the engine completes a job of zero
//! length in a batch of its own within the second, so it may have held
//! processors a later start of that second takes), then the other runs
//! that start, in priority order (job index). A starting run takes
//! the smallest free interval of processor indices that holds it whole
//! (best fit, the lowest index among equals), which keeps wide holes for
//! wide jobs; when no free interval is wide enough (a fragmented machine)
//! it takes the widest free intervals, widest first, the last one from its
//! low end, and is drawn as several bands. A run that ends at the second it
//! starts holds nothing and is released at once.
//!
//! The free intervals are kept twice, by first index (to merge a released
//! interval with its neighbours) and by (width, first index) (to find the
//! best fit), so a run costs O(k log P) for k bands.
//!
//! On a machine of nodes the rows are the nodes' cores, node after node
//! (node `n` owns rows `first[n]..first[n + 1]`, [`crate::NodeRows`]), and a run
//! takes, on each node of its recorded placement, the cores its slot holds
//! there (the whole node in an exclusive partition), by the same best fit
//! inside that node's rows: the Gantt by node. Which cores of a node a job
//! holds is again a presentation choice; which nodes is the run's own.

use std::collections::{BTreeMap, BTreeSet};

use schedlab_engine::RunRecord;
use schedlab_workload::{Cluster, Job};

use crate::node_rows::NodeCores;
use crate::runs::{run_of, RunId};
use crate::ScheduleError;

/// Processor indices `lo..hi`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Band {
    pub lo: u32,
    pub hi: u32,
}

impl Band {
    pub fn width(&self) -> u32 {
        self.hi - self.lo
    }
}

/// The bands of every run, by run id.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Where each run's bands begin in `bands`; one more entry than runs.
    first: Vec<u32>,
    bands: Vec<Band>,
}

impl Layout {
    /// Lays out every run of `record`, on the cores of `cluster`'s nodes
    /// when the run was on a machine of nodes; fails only on a record that
    /// holds more processors (or more of a node's cores) than there are at
    /// some instant (a run that was not checked), or a run on nodes without
    /// its machine.
    pub fn new(jobs: &[Job], cluster: Option<&Cluster>, record: &RunRecord) -> Result<Layout, ScheduleError> {
        let runs = record.jobs.len() + record.segments.len();
        // Bands in start order first, then moved to run-id order.
        let mut placed: Vec<(u32, u32)> = vec![(0, 0); runs];
        let mut bands: Vec<Band> = Vec::with_capacity(runs + runs / 8);
        replay(jobs, cluster, record, &ReplayOrder::new(record), |r, taken| {
            placed[r as usize] = (bands.len() as u32, taken.len() as u32);
            bands.extend_from_slice(taken);
        })?;
        Ok(Layout::in_run_order(&placed, &bands))
    }

    fn in_run_order(placed: &[(u32, u32)], bands: &[Band]) -> Layout {
        let mut first = Vec::with_capacity(placed.len() + 1);
        let mut ordered = Vec::with_capacity(bands.len());
        for &(at, len) in placed {
            first.push(ordered.len() as u32);
            ordered.extend_from_slice(&bands[at as usize..(at + len) as usize]);
        }
        first.push(ordered.len() as u32);
        Layout { first, bands: ordered }
    }

    /// The bands of run `r`, lowest indices first.
    pub fn bands(&self, r: RunId) -> &[Band] {
        &self.bands[self.first[r as usize] as usize..self.first[r as usize + 1] as usize]
    }

    /// Runs drawn on more than one band.
    pub fn split_runs(&self) -> usize {
        self.first.windows(2).filter(|w| w[1] - w[0] > 1).count()
    }

    pub fn heap_bytes(&self) -> usize {
        self.first.capacity() * 4 + self.bands.capacity() * std::mem::size_of::<Band>()
    }
}

/// The order the layout replays runs in: starts by (start, whether the
/// run has a length, job, run), so that runs of no length come first in
/// their second; ends (of runs with a length) by (end, run).
pub(crate) struct ReplayOrder {
    pub by_start: Vec<RunId>,
    pub by_end: Vec<RunId>,
}

impl ReplayOrder {
    pub fn new(record: &RunRecord) -> ReplayOrder {
        let runs = record.jobs.len() + record.segments.len();
        let mut by_start: Vec<RunId> = (0..runs as RunId).collect();
        by_start.sort_by_key(|&r| {
            let run = run_of(record, r);
            (run.start, run.end > run.start, run.job, r)
        });
        let mut by_end: Vec<RunId> =
            by_start.iter().copied().filter(|&r| run_of(record, r).end > run_of(record, r).start).collect();
        by_end.sort_by_key(|&r| (run_of(record, r).end, r));
        ReplayOrder { by_start, by_end }
    }
}

/// Replays the layout in `order`, calling `placed` with each run and its
/// bands (lowest indices first) as it starts. Only the bands of the runs
/// holding processors are kept, so a caller that keeps a few runs' bands
/// (one window's) needs memory for those and for what runs at once, not
/// for the whole run. Returns the most runs that held processors at once.
pub(crate) fn replay(
    jobs: &[Job],
    cluster: Option<&Cluster>,
    record: &RunRecord,
    order: &ReplayOrder,
    mut placed: impl FnMut(RunId, &[Band]),
) -> Result<usize, ScheduleError> {
    let mut machine = Rows::new(cluster, record)?;
    let mut holding: BTreeMap<RunId, Vec<Band>> = BTreeMap::new();
    let mut most = 0;
    let mut ended = 0;
    for &r in &order.by_start {
        let run = run_of(record, r);
        while let Some(&e) = order.by_end.get(ended).filter(|&&e| run_of(record, e).end <= run.start) {
            if let Some(bands) = holding.remove(&e) {
                machine.release(&bands);
            }
            ended += 1;
        }
        let mut bands = Vec::with_capacity(1);
        machine
            .take(jobs, run.job, &mut bands)
            .ok_or(ScheduleError::Overcommitted { time: run.start, job: jobs[run.job as usize].id })?;
        bands.sort_unstable();
        placed(r, &bands);
        if run.end <= run.start {
            machine.release(&bands);
        } else {
            holding.insert(r, bands);
            most = most.max(holding.len());
        }
    }
    Ok(most)
}

/// The free rows of the layout: the machine's processors, or each node's cores.
enum Rows<'a> {
    Processors(Machine),
    Nodes(NodeCores<'a>),
}

impl<'a> Rows<'a> {
    fn new(cluster: Option<&'a Cluster>, record: &'a RunRecord) -> Result<Rows<'a>, ScheduleError> {
        match (cluster, &record.placements) {
            (None, None) => Ok(Rows::Processors(Machine::new(record.procs))),
            (Some(cluster), Some(placements)) => Ok(Rows::Nodes(NodeCores::new(cluster, placements))),
            (None, Some(_)) => Err(ScheduleError::MachineMissing),
            (Some(_), None) => Err(ScheduleError::PlacementsMissing),
        }
    }

    /// Takes job `j`'s rows, appending their bands to `out`; `None` if they
    /// are not free (a run that was not checked).
    fn take(&mut self, jobs: &[Job], j: u32, out: &mut Vec<Band>) -> Option<()> {
        match self {
            Rows::Processors(m) => m.take(jobs[j as usize].size, out),
            Rows::Nodes(n) => n.take(j, out),
        }
    }

    fn release(&mut self, bands: &[Band]) {
        match self {
            Rows::Processors(m) => m.release(bands),
            Rows::Nodes(n) => n.release(bands),
        }
    }
}

/// The free processor intervals of the machine (or of one node's cores).
pub(crate) struct Machine {
    by_lo: BTreeMap<u32, u32>,
    by_width: BTreeSet<(u32, u32)>,
    free: u32,
}

impl Machine {
    fn new(procs: u32) -> Self {
        Machine::of(Band { lo: 0, hi: procs })
    }

    /// The rows of `band`, all free.
    pub(crate) fn of(band: Band) -> Self {
        let mut m = Machine { by_lo: BTreeMap::new(), by_width: BTreeSet::new(), free: 0 };
        m.insert(band);
        m
    }

    fn insert(&mut self, b: Band) {
        if b.hi > b.lo {
            self.by_lo.insert(b.lo, b.hi);
            self.by_width.insert((b.width(), b.lo));
            self.free += b.width();
        }
    }

    fn remove(&mut self, b: Band) {
        self.by_lo.remove(&b.lo);
        self.by_width.remove(&(b.width(), b.lo));
        self.free -= b.width();
    }

    /// Takes `size` processors, appending their bands to `out`; `None` if
    /// fewer are free.
    pub(crate) fn take(&mut self, size: u32, out: &mut Vec<Band>) -> Option<()> {
        if size > self.free {
            return None;
        }
        let mut left = size;
        while left > 0 {
            // The best fit if one interval holds what is left, else the widest.
            let &(width, lo) = self.by_width.range((left, 0)..).next().or_else(|| self.by_width.last())?;
            self.remove(Band { lo, hi: lo + width });
            let used = width.min(left);
            out.push(Band { lo, hi: lo + used });
            self.insert(Band { lo: lo + used, hi: lo + width });
            left -= used;
        }
        Some(())
    }

    /// Gives bands back, merged with their free neighbours.
    pub(crate) fn release(&mut self, bands: &[Band]) {
        for &b in bands {
            let mut merged = b;
            if let Some((&lo, &hi)) = self.by_lo.range(..b.lo).next_back().filter(|(_, &hi)| hi == b.lo) {
                self.remove(Band { lo, hi });
                merged.lo = lo;
            }
            if let Some(&hi) = self.by_lo.get(&b.hi) {
                self.remove(Band { lo: b.hi, hi });
                merged.hi = hi;
            }
            self.insert(merged);
        }
    }
}

/// How many processors `bands` cover.
pub fn width_of(bands: &[Band]) -> u32 {
    bands.iter().map(Band::width).sum()
}
