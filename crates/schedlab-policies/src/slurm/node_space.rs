//! The backfill cycle's map of the future (`node_space_map_t` in
//! src/plugins/sched/backfill/backfill.c), for one node: consecutive
//! records, each an interval and whether the node is free of backfill
//! reservations during it. A reservation takes the whole node: the map
//! holds node bitmaps, not cores, which is why a one-core job does not
//! backfill beside a blocked job's reservation on a one-node cluster even
//! where enough cores are idle.

use schedlab_engine::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    pub(crate) begin: Time,
    pub(crate) end: Time,
    pub(crate) free: bool,
}

pub(crate) struct NodeSpace {
    records: Vec<Record>,
    resolution: Time,
    /// Records ever made in this cycle (`node_space_recs`), merged ones
    /// included: the count `bf_node_space_size` limits.
    made: usize,
}

impl NodeSpace {
    /// The map at the start of a cycle (`_attempt_backfill`): one free
    /// record from `now` rounded down to the resolution to `now + window`
    /// rounded down.
    pub(crate) fn new(now: Time, resolution: Time, window: Time) -> Self {
        let begin = now.div_euclid(resolution) * resolution;
        let end = (now + window).div_euclid(resolution) * resolution;
        NodeSpace { records: vec![Record { begin, end, free: true }], resolution, made: 1 }
    }

    pub(crate) fn made(&self) -> usize {
        self.made
    }

    #[cfg(test)]
    pub(crate) fn records(&self) -> &[Record] {
        &self.records
    }

    /// Whether the node is free through `[start, end]` (the records with
    /// `end > start` and `begin <= end`), and `later`: the end of the
    /// first record from `start` on after which the node becomes free,
    /// where `_attempt_backfill` tries again (`later_start`).
    pub(crate) fn test(&self, start: Time, end: Time) -> (bool, Option<Time>) {
        let mut avail = true;
        let mut later = None;
        let first = self.records.partition_point(|r| r.end <= start);
        for i in first..self.records.len() {
            let r = self.records[i];
            if later.is_none() {
                if let Some(next) = self.records.get(i + 1) {
                    // The next record offers the node and this one (with
                    // what came before) does not.
                    if next.free && !(avail && r.free) {
                        later = Some(r.end);
                    }
                }
            }
            if r.begin <= end {
                avail &= r.free;
            } else {
                break;
            }
        }
        (avail, later)
    }

    /// Where the node stays taken until the end of the window, if it does:
    /// no job whose limit reaches that far from now can start or reserve.
    pub(crate) fn taken_from(&self) -> Option<Time> {
        let last = self.records.len() - 1;
        if self.records[last].free {
            return None;
        }
        let first = self.records[..last].iter().rposition(|r| r.free).map_or(0, |i| i + 1);
        Some(self.records[first].begin)
    }

    /// Whether a reservation of `[start, end)` would meet another
    /// (`_test_resv_overlap`: records with `end > start` and `begin < end`).
    pub(crate) fn overlaps(&self, start: Time, end: Time) -> bool {
        let first = self.records.partition_point(|r| r.end <= start);
        self.records[first..].iter().take_while(|r| r.begin < end).any(|r| !r.free)
    }

    /// Takes the node for `[start, end)` (`_add_reservation`): the record
    /// holding `start` is split there, the records up to `end` are marked
    /// taken (the last split at `end`), and one pair of neighbours with the
    /// same state around the change is merged, as Slurm does.
    pub(crate) fn reserve(&mut self, start: Time, end: Time) {
        let start = start.max(self.records[0].begin);
        let end = end.max(start + self.resolution);
        let Some(split) = self.records.iter().position(|r| r.end >= start) else { return };
        let one_before = split.saturating_sub(1);
        let mut j = split;
        if self.records[j].end > start {
            let r = self.records[j];
            self.records.insert(j + 1, Record { begin: start, end: r.end, free: r.free });
            self.records[j].end = start;
            self.made += 1;
        }
        let mut one_after = None;
        while j + 1 < self.records.len() {
            j += 1;
            if end < self.records[j].end {
                let r = self.records[j];
                self.records.insert(j + 1, Record { begin: end, end: r.end, free: r.free });
                self.records[j].end = end;
                self.made += 1;
            }
            self.records[j].free = false;
            if end == self.records[j].end {
                one_after = (j + 1 < self.records.len()).then_some(j + 1);
                break;
            }
        }
        self.merge_one(one_before, one_after);
    }

    /// "Drop records with identical bitmaps (up to one record)".
    fn merge_one(&mut self, from: usize, until: Option<usize>) {
        let mut i = from;
        while Some(i) != until && i + 1 < self.records.len() {
            if self.records[i].free == self.records[i + 1].free {
                self.records[i].end = self.records[i + 1].end;
                self.records.remove(i + 1);
                return;
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(begin: Time, end: Time, free: bool) -> Record {
        Record { begin, end, free }
    }

    #[test]
    fn a_reservation_splits_the_window_and_blocks_the_node() {
        let mut ns = NodeSpace::new(125, 60, 3600);
        assert_eq!(ns.records(), &[rec(120, 3720, true)]);
        ns.reserve(300, 480);
        assert_eq!(ns.records(), &[rec(120, 300, true), rec(300, 480, false), rec(480, 3720, true)]);
        // A job from 130 to 299 fits before it; one to 300 touches it.
        assert_eq!(ns.test(130, 299), (true, Some(480)));
        assert!(!ns.test(130, 300).0);
        // From 480 on the node is free again.
        assert_eq!(ns.test(480, 900), (true, None));
        assert!(ns.overlaps(240, 301));
        assert!(!ns.overlaps(480, 600));
        assert!(!ns.overlaps(120, 300));
    }

    #[test]
    fn adjacent_reservations_merge_one_pair() {
        let mut ns = NodeSpace::new(0, 60, 600);
        ns.reserve(60, 120);
        ns.reserve(120, 180);
        assert_eq!(ns.records(), &[rec(0, 60, true), rec(60, 180, false), rec(180, 600, true)]);
        // A reservation shorter than the resolution still takes one slot.
        ns.reserve(300, 300);
        assert_eq!(ns.records()[3], rec(300, 360, false));
    }
}
