//! The backfill cycle's map of the future (`node_space_map_t` in
//! src/plugins/sched/backfill/backfill.c): consecutive records, each an
//! interval and the set of nodes free of backfill reservations during it
//! (`avail_bitmap`). A reservation takes whole nodes: the map holds node
//! bitmaps, not cores, which is why a one-core job does not backfill
//! beside a blocked job's reservation on a one-node cluster even where
//! enough cores are idle. On the archive's model the machine is one node.

use schedlab_engine::Time;

use super::node_set::NodeSet;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    pub(crate) begin: Time,
    pub(crate) end: Time,
    pub(crate) avail: NodeSet,
}

/// How often the map's test counts the nodes left, in records.
const COUNT_EVERY: usize = 16;

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
    /// rounded down, every one of `nodes` nodes free.
    pub(crate) fn new(now: Time, resolution: Time, window: Time, nodes: usize) -> Self {
        let begin = now.div_euclid(resolution) * resolution;
        let end = (now + window).div_euclid(resolution) * resolution;
        NodeSpace { records: vec![Record { begin, end, avail: NodeSet::full(nodes) }], resolution, made: 1 }
    }

    pub(crate) fn made(&self) -> usize {
        self.made
    }

    #[cfg(test)]
    pub(crate) fn records(&self) -> &[Record] {
        &self.records
    }

    /// The nodes of `usable` free through `[start, end]` (the records with
    /// `end > start` and `begin <= end`), and `later`: the end of the
    /// first record from `start` on after which usable nodes become free
    /// that are not free so far (`next_bitmap` not a subset of
    /// `current_bitmap`), where `_attempt_backfill` tries again
    /// (`later_start`). A test that needs `need` nodes fails once fewer
    /// are left, so once `later` is known the walk stops there: the set
    /// returned then holds fewer than `need` nodes, not always exactly
    /// the free ones.
    pub(crate) fn test(&self, start: Time, end: Time, usable: &NodeSet, need: u32) -> (NodeSet, Option<Time>) {
        let mut avail = usable.clone();
        let mut later = None;
        let first = self.records.partition_point(|r| r.end <= start);
        for i in first..self.records.len() {
            let r = &self.records[i];
            let inside = r.begin <= end;
            // The intersection comes first, so that the check for a later
            // start reads it instead of making it again.
            let any = inside && avail.and_any(&r.avail);
            if later.is_none() {
                if let Some(next) = self.records.get(i + 1) {
                    let covered = if inside {
                        NodeSet::and_is_within(usable, &next.avail, &avail)
                    } else {
                        NodeSet::and_is_subset(usable, &next.avail, &avail, &r.avail)
                    };
                    if !covered {
                        later = Some(r.end);
                    }
                }
            }
            if !inside {
                break;
            }
            // Counting costs more than the intersection, so the walk
            // stops at once when no node is left, and counts only every
            // `COUNT_EVERY` records.
            if later.is_some() && need > 0 && (!any || ((i - first) % COUNT_EVERY == 0 && avail.count() < need)) {
                break;
            }
        }
        (avail, later)
    }

    /// Where every node stays taken until the end of the window, if they
    /// do: no job whose limit reaches that far from now can start or
    /// reserve.
    pub(crate) fn taken_from(&self) -> Option<Time> {
        let last = self.records.len() - 1;
        if !self.records[last].avail.is_empty() {
            return None;
        }
        let first = self.records[..last].iter().rposition(|r| !r.avail.is_empty()).map_or(0, |i| i + 1);
        Some(self.records[first].begin)
    }

    /// Whether a reservation of `nodes` for `[start, end)` would meet
    /// another (`_test_resv_overlap`: records with `end > start` and
    /// `begin < end` that do not hold every one of `nodes`).
    pub(crate) fn overlaps(&self, start: Time, end: Time, nodes: &NodeSet) -> bool {
        let first = self.records.partition_point(|r| r.end <= start);
        self.records[first..].iter().take_while(|r| r.begin < end).any(|r| !nodes.is_subset(&r.avail))
    }

    /// Takes `nodes` for `[start, end)` (`_add_reservation`): the record
    /// holding `start` is split there, the records up to `end` lose the
    /// nodes (the last split at `end`), and one pair of neighbours with
    /// the same nodes around the change is merged, as Slurm does.
    pub(crate) fn reserve(&mut self, start: Time, end: Time, nodes: &NodeSet) {
        let start = start.max(self.records[0].begin);
        let end = end.max(start + self.resolution);
        let Some(split) = self.records.iter().position(|r| r.end >= start) else { return };
        let one_before = split.saturating_sub(1);
        let mut j = split;
        if self.records[j].end > start {
            let r = self.records[j].clone();
            self.records.insert(j + 1, Record { begin: start, end: r.end, avail: r.avail });
            self.records[j].end = start;
            self.made += 1;
        }
        let mut one_after = None;
        while j + 1 < self.records.len() {
            j += 1;
            if end < self.records[j].end {
                let r = self.records[j].clone();
                self.records.insert(j + 1, Record { begin: end, end: r.end, avail: r.avail });
                self.records[j].end = end;
                self.made += 1;
            }
            self.records[j].avail.and_not(nodes);
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
            if self.records[i].avail == self.records[i + 1].avail {
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

    /// On one node: the set holds node 0 or nothing.
    fn rec(begin: Time, end: Time, free: bool) -> Record {
        Record { begin, end, avail: if free { NodeSet::full(1) } else { NodeSet::empty(1) } }
    }

    fn one() -> NodeSet {
        NodeSet::full(1)
    }

    #[test]
    fn a_reservation_splits_the_window_and_blocks_the_node() {
        let mut ns = NodeSpace::new(125, 60, 3600, 1);
        assert_eq!(ns.records(), &[rec(120, 3720, true)]);
        ns.reserve(300, 480, &one());
        assert_eq!(ns.records(), &[rec(120, 300, true), rec(300, 480, false), rec(480, 3720, true)]);
        // A job from 130 to 299 fits before it; one to 300 touches it.
        assert_eq!(ns.test(130, 299, &one(), 1), (one(), Some(480)));
        assert!(ns.test(130, 300, &one(), 1).0.is_empty());
        // From 480 on the node is free again.
        assert_eq!(ns.test(480, 900, &one(), 1), (one(), None));
        assert!(ns.overlaps(240, 301, &one()));
        assert!(!ns.overlaps(480, 600, &one()));
        assert!(!ns.overlaps(120, 300, &one()));
    }

    #[test]
    fn adjacent_reservations_merge_one_pair() {
        let mut ns = NodeSpace::new(0, 60, 600, 1);
        ns.reserve(60, 120, &one());
        ns.reserve(120, 180, &one());
        assert_eq!(ns.records(), &[rec(0, 60, true), rec(60, 180, false), rec(180, 600, true)]);
        // A reservation shorter than the resolution still takes one slot.
        ns.reserve(300, 300, &one());
        assert_eq!(ns.records()[3], rec(300, 360, false));
    }

    /// Four nodes: node 1 reserved for [100, 200), nodes 1 and 2 for
    /// [200, 300). A job that may use nodes {0, 1} from 0 to 150 meets the
    /// records [0, 100) and [100, 200): node 0 alone is free throughout.
    /// Walking on, the first record after which a usable node comes back
    /// is [200, 300) (node 1 is free from 300), so it may try again at 300.
    #[test]
    fn records_hold_the_nodes_left_free() {
        let mut ns = NodeSpace::new(0, 1, 1000, 4);
        ns.reserve(100, 200, &NodeSet::of(4, [1]));
        ns.reserve(200, 300, &NodeSet::of(4, [1, 2]));
        let begins: Vec<(Time, Time, u32)> = ns.records().iter().map(|r| (r.begin, r.end, r.avail.count())).collect();
        assert_eq!(begins, vec![(0, 100, 4), (100, 200, 3), (200, 300, 2), (300, 1000, 4)]);
        let usable = NodeSet::of(4, [0, 1]);
        let (avail, later) = ns.test(0, 150, &usable, 1);
        assert_eq!(avail, NodeSet::of(4, [0]));
        assert_eq!(later, Some(300));
        // Nodes {0, 3} are never reserved: nothing later offers more.
        let (avail, later) = ns.test(0, 900, &NodeSet::of(4, [0, 3]), 1);
        assert_eq!((avail.count(), later), (2, None));
        // Two of {0, 1} are never free together through 900: the walk may
        // stop early, but the later start is the same.
        let (avail, later) = ns.test(0, 900, &usable, 2);
        assert!(avail.count() < 2);
        assert_eq!(later, Some(300));
        // Node 2 from 250: taken by [200, 300); node 3 is not.
        assert!(ns.overlaps(250, 260, &NodeSet::of(4, [2])));
        assert!(!ns.overlaps(250, 260, &NodeSet::of(4, [3])));
        assert_eq!(ns.taken_from(), None);
    }
    /// Random maps of 1 to 150 nodes with random reservations: a test
    /// that needs some nodes gives the later start the whole walk gives
    /// (`need` 0 never stops early), and the same nodes whenever enough
    /// are free; otherwise fewer than it needs.
    #[test]
    fn a_test_that_stops_early_agrees_with_the_whole_walk() {
        let mut seed = 11u64;
        let mut below = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        for case in 0..300 {
            let nodes = 1 + below(150) as usize;
            let mut ns = NodeSpace::new(0, 1 + below(3) as Time, 2000, nodes);
            for _ in 0..below(60) {
                let from = below(1800) as Time;
                let taken = NodeSet::of(nodes, (0..nodes as u32).filter(|_| below(3) == 0));
                ns.reserve(from, from + 1 + below(400) as Time, &taken);
            }
            for _ in 0..20 {
                let start = below(1900) as Time;
                let end = start + below(1000) as Time;
                let usable = NodeSet::of(nodes, (0..nodes as u32).filter(|_| below(5) > 0));
                let need = 1 + below(nodes as u64) as u32;
                let (all, later) = ns.test(start, end, &usable, 0);
                let (got, got_later) = ns.test(start, end, &usable, need);
                assert_eq!(got_later, later, "case {case}");
                if all.count() >= need {
                    assert_eq!(got, all, "case {case}");
                } else {
                    assert!(got.count() < need, "case {case}");
                }
            }
        }
    }
}
