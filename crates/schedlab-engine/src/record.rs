use serde::Serialize;

use crate::{JobIdx, Preemption, RuntimeSource, Time};

/// What happened to one job in a run. The metrics and the checker read only
/// this and the trace, never the engine's internals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobRecord {
    /// The first time the job started.
    pub first_start: Time,
    /// The time of its last start (the one it completed from).
    pub start: Time,
    /// Completion time (or kill at the estimate).
    pub end: Time,
    /// The runtime prediction the job was last started with.
    pub prediction: Time,
    /// Started while a job of higher priority was waiting.
    pub backfilled: bool,
    /// The first waiting job when this job was first backfilled (for the
    /// reservation-violation metric).
    pub backfilled_behind: Option<JobIdx>,
    /// Which of its starts (0 for the first) was its first backfill: 0
    /// unless it first started as the first waiting job and was backfilled
    /// after a preemption. (A count rather than a time keeps the record
    /// small: it fits in padding.)
    pub backfilled_on_start: u32,
    /// At its first backfill, the first waiting job held a reservation and
    /// this job was predicted to end after it: it ventured past the promise
    /// (PV-EASY's step 4; EASY's backfill on the extra processors), relying
    /// on processors the reservation does not need. (A bool fits in
    /// padding.)
    pub ventured: bool,
    /// Was the first waiting job at the end of a scheduling pass, that is,
    /// could not start at once.
    pub blocked: bool,
    /// Strict-fairness audit (docs/semantics.md, "Metrics"): the first time the job was the first
    /// waiting job and idle processors plus those of running jobs of lower
    /// priority sufficed for it.
    pub fair_start: Option<Time>,
    /// The first reservation any policy recorded for the job.
    pub first_reservation: Option<Time>,
    /// How many times the job was started; one more than the times it was
    /// preempted.
    pub starts: u32,
    /// Wall seconds the job held its processors over all its segments.
    pub held: Time,
    /// How many times the job completed; exactly one in a correct run.
    pub completions: u32,
}

impl JobRecord {
    /// A job that has not started (yet): the record every run begins with.
    pub const UNSTARTED: JobRecord = JobRecord {
        first_start: -1,
        start: -1,
        end: -1,
        prediction: 0,
        backfilled: false,
        backfilled_behind: None,
        backfilled_on_start: 0,
        ventured: false,
        blocked: false,
        fair_start: None,
        first_reservation: None,
        starts: 0,
        held: 0,
        completions: 0,
    };
}

/// A stretch of time a job held its processors and was then preempted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub job: JobIdx,
    pub start: Time,
    pub end: Time,
}

/// A reservation a policy made for a job whose reservation was then
/// different (or which had none in its current wait). A job's history is the
/// subsequence of its changes, in order: every reservation it held and when
/// it moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReservationChange {
    pub job: JobIdx,
    /// Which wait of the job it belongs to: how many times the job had
    /// started when it was made (0 before its first start, k after its k-th
    /// preemption).
    pub wait: u32,
    /// When the policy made it.
    pub time: Time,
    /// The start it promises.
    pub start: Time,
}

/// The reservation changes of a run, in the order they were made, stored
/// compactly: conservative backfilling moves every waiting job at each
/// early end (nine changes per job on HPC2N), so 24 bytes a change would
/// dwarf the rest of the run record. Each change is kept as LEB128 varints
/// of small differences: job index and time from the previous change
/// (changes come in time order, a pass's changes often in priority order),
/// the wait, and the promised start from the time it was made (zig-zag
/// encoded where signed; wrapping arithmetic, so every value round-trips).
/// About six bytes a change on real traces.
///
/// The bytes live in blocks of [`LOG_BLOCK`] bytes that are never moved:
/// a log grown by doubling one buffer would hold up to three times its
/// size while it copies, at the moment a run's memory peaks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReservationLog {
    blocks: Vec<Vec<u8>>,
    len: usize,
    /// The last change pushed, the base of the next one's differences.
    last: (JobIdx, Time),
}

/// Bytes of one block of a [`ReservationLog`].
pub const LOG_BLOCK: usize = 1 << 16;

/// The longest change: four varints of at most ten bytes.
const LONGEST_CHANGE: usize = 40;

impl ReservationLog {
    /// Appends a change; `change.time` must not precede the last one's.
    pub fn push(&mut self, change: ReservationChange) {
        // A change never straddles two blocks.
        if self.blocks.last().is_none_or(|b| b.len() + LONGEST_CHANGE > LOG_BLOCK) {
            self.blocks.push(Vec::with_capacity(LOG_BLOCK));
        }
        let bytes = self.blocks.last_mut().expect("a block was just ensured");
        let (job, time) = self.last;
        put(bytes, zigzag(i64::from(change.job) - i64::from(job)));
        put(bytes, change.time.wrapping_sub(time) as u64);
        put(bytes, u64::from(change.wait));
        put(bytes, zigzag(change.start.wrapping_sub(change.time)));
        self.last = (change.job, change.time);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the log holds.
    pub fn encoded_bytes(&self) -> usize {
        self.blocks.iter().map(Vec::len).sum()
    }

    /// Bytes the log has allocated.
    pub fn allocated_bytes(&self) -> usize {
        self.blocks.iter().map(Vec::capacity).sum::<usize>() + self.blocks.capacity() * std::mem::size_of::<Vec<u8>>()
    }

    /// The changes in the order they were made.
    pub fn iter(&self) -> impl Iterator<Item = ReservationChange> + '_ {
        self.iter_from(LogPosition::default()).map(|(_, change)| change)
    }

    /// The changes from `position` on (a position [`iter_from`] gave), each
    /// with its own position, so that an index can come back to a change
    /// without decoding the log from its beginning.
    ///
    /// [`iter_from`]: ReservationLog::iter_from
    pub fn iter_from(&self, position: LogPosition) -> impl Iterator<Item = (LogPosition, ReservationChange)> + '_ {
        let LogPosition { mut block, mut at, mut last } = position;
        std::iter::from_fn(move || {
            while self.blocks.get(block as usize).is_some_and(|b| at as usize >= b.len()) {
                block += 1;
                at = 0;
            }
            let bytes = self.blocks.get(block as usize)?;
            let here = LogPosition { block, at, last };
            let mut i = at as usize;
            let job = (i64::from(last.0) + unzigzag(take(bytes, &mut i))) as JobIdx;
            let time = last.1.wrapping_add(take(bytes, &mut i) as Time);
            let wait = take(bytes, &mut i) as u32;
            let start = time.wrapping_add(unzigzag(take(bytes, &mut i)));
            at = i as u32;
            last = (job, time);
            Some((here, ReservationChange { job, wait, time, start }))
        })
    }
}

/// Where a change starts in a [`ReservationLog`]: its block, its offset in
/// the block and the change before it, the base of its differences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogPosition {
    block: u32,
    at: u32,
    last: (JobIdx, Time),
}

impl Serialize for ReservationLog {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Appends `v` as an LEB128 varint.
fn put(bytes: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        bytes.push((v as u8) | 0x80);
        v >>= 7;
    }
    bytes.push(v as u8);
}

/// Reads the varint at `*at` and moves past it.
fn take(bytes: &[u8], at: &mut usize) -> u64 {
    let (mut v, mut shift) = (0u64, 0);
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            break;
        }
        shift += 7;
    }
    v
}

/// The outcome of one run, in the trace's priority order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRecord {
    pub procs: u32,
    pub source: RuntimeSource,
    /// The preemption model the run used (kill for non-preemptive policies,
    /// which never preempt; suspend also slows jobs that are never preempted).
    pub preemption: Preemption,
    pub jobs: Vec<JobRecord>,
    /// Every segment that ended in a preemption, in time order; the last
    /// segment of each job is `jobs[j].start..jobs[j].end`.
    pub segments: Vec<Segment>,
    /// Every change of a job's reservation, in the order they were made;
    /// calls that repeat a job's reservation are not recorded.
    pub reservations: ReservationLog,
    /// Arrivals, completions and timers processed.
    pub events: u64,
    /// Scheduling passes (one per distinct event time, plus follow-ups for
    /// zero-length jobs and timers set for the current second).
    pub passes: u64,
    /// On a machine of nodes, where each job ran; `None` on processors.
    #[serde(skip)]
    pub placements: Option<Placements>,
}

/// Where each job of a run on a machine of nodes ran: its slots (node and
/// units of its request), kept once per job in one list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placements {
    /// Per job, where its slots start in `slots` and how many there are.
    spans: Vec<(u64, u32)>,
    slots: Vec<crate::Slot>,
}

impl Placements {
    /// No job placed yet, for `jobs` jobs.
    pub fn new(jobs: usize) -> Self {
        Placements { spans: vec![(0, 0); jobs], slots: Vec::new() }
    }

    /// Records where job `j` runs (its latest start counts).
    pub fn set(&mut self, j: crate::JobIdx, slots: &[crate::Slot]) {
        self.spans[j as usize] = (self.slots.len() as u64, slots.len() as u32);
        self.slots.extend_from_slice(slots);
    }

    /// Where job `j` ran (empty if it never started).
    pub fn of(&self, j: crate::JobIdx) -> &[crate::Slot] {
        let (at, len) = self.spans[j as usize];
        &self.slots[at as usize..at as usize + len as usize]
    }

    /// Jobs recorded.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reservation_log_gives_back_what_it_was_given() {
        let changes = [
            ReservationChange { job: 7, wait: 0, time: 0, start: 40 },
            ReservationChange { job: 3, wait: 0, time: 0, start: 0 },
            ReservationChange { job: 200_000, wait: 5, time: 1_000_000, start: Time::MAX },
            ReservationChange { job: 0, wait: u32::MAX, time: 1_000_000, start: Time::MIN },
            ReservationChange { job: JobIdx::MAX, wait: 1, time: Time::MAX, start: -5 },
        ];
        let mut log = ReservationLog::default();
        for c in changes {
            log.push(c);
        }
        assert_eq!(log.len(), 5);
        assert_eq!(log.iter().collect::<Vec<_>>(), changes);
        // Reading on from any change's position gives the rest of the log.
        let positions: Vec<LogPosition> = log.iter_from(LogPosition::default()).map(|(p, _)| p).collect();
        for (k, &p) in positions.iter().enumerate() {
            assert_eq!(log.iter_from(p).map(|(_, c)| c).collect::<Vec<_>>(), changes[k..]);
        }
        // A typical change (a neighbouring job, the same second, a start
        // 100 s away) takes five bytes.
        let before = log.encoded_bytes();
        log.push(ReservationChange { job: JobIdx::MAX - 1, wait: 0, time: Time::MAX, start: Time::MAX - 100 });
        assert_eq!(log.encoded_bytes() - before, 5);
    }

    /// A log of many blocks reads back whole, from its start and from any
    /// change's position, and holds no more than its blocks.
    #[test]
    fn a_log_spans_blocks_without_moving_them() {
        let changes: Vec<ReservationChange> = (0..40_000u32)
            .map(|k| ReservationChange {
                job: k.wrapping_mul(2_654_435_761) % 1_000_003,
                wait: k % 3,
                time: i64::from(k) * 1_000_003,
                start: i64::from(k) * 1_000_003 + i64::from(k % 977) * 7_919 - 5_000,
            })
            .collect();
        let mut log = ReservationLog::default();
        for &c in &changes {
            log.push(c);
        }
        assert!(log.blocks.len() > 3, "{} blocks", log.blocks.len());
        assert!(log.blocks.iter().all(|b| b.len() <= LOG_BLOCK && b.capacity() == LOG_BLOCK));
        assert_eq!(log.iter().collect::<Vec<_>>(), changes);
        let positions: Vec<LogPosition> = log.iter_from(LogPosition::default()).map(|(p, _)| p).collect();
        for k in [0, 1, 6_000, 13_107, 13_108, 39_999] {
            assert_eq!(log.iter_from(positions[k]).map(|(_, c)| c).collect::<Vec<_>>(), changes[k..], "from {k}");
        }
        assert!(log.allocated_bytes() < log.encoded_bytes() + LOG_BLOCK + 64 * std::mem::size_of::<Vec<u8>>());
    }
}
