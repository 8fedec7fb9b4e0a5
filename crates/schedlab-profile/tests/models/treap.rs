//! The treap with subtree summaries (`schedlab_profile::treap`, under the queue
//! indexes of the backfilling policies) against an ordered map read in
//! full: random insertions, removals, drains and guided searches must give
//! the same answers; a 100,000-entry case checks the same at the size of a
//! long queue. An insertion builds node for node the tree that replacing
//! the entry by `update` builds.

use std::collections::BTreeMap;

use proptest::prelude::*;
use schedlab_engine::SplitMix64;
use schedlab_profile::treap::{Search, Summary, Treap};

/// The sum and the least of the values of a run of entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SumMin {
    sum: i64,
    min: i64,
}

impl Summary<i64> for SumMin {
    const EMPTY: Self = SumMin { sum: 0, min: i64::MAX };

    fn of(v: &i64) -> Self {
        SumMin { sum: *v, min: *v }
    }

    fn join(&self, right: &Self) -> Self {
        SumMin { sum: self.sum + right.sum, min: self.min.min(right.min) }
    }
}

/// An entry whose value is at most `most` (pruned by subtree minimum).
struct AtMost(i64);

impl Search<u32, i64, SumMin> for AtMost {
    fn enter(&self, _: &SumMin, s: &SumMin) -> bool {
        s.min <= self.0
    }

    fn accept(&self, _: &SumMin, _: &u32, v: &i64) -> bool {
        *v <= self.0
    }
}

/// An entry through which the running sum of the values (of the whole map)
/// reaches `level`; values are positive, so the sum only grows.
struct SumReaches(i64);

impl Search<u32, i64, SumMin> for SumReaches {
    fn enter(&self, before: &SumMin, s: &SumMin) -> bool {
        before.sum + s.sum >= self.0
    }

    fn accept(&self, before: &SumMin, _: &u32, v: &i64) -> bool {
        before.sum + v >= self.0
    }
}

#[derive(Clone, Debug)]
enum Op {
    Insert(u32, i64),
    Remove(u32),
    Drain(u32),
    AtMost(Option<u32>, i64),
    Between(Option<u32>, Option<u32>, i64),
    LastAtMost(u32, i64),
    Sum(u32, i64),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        4 => (0u32..200, 1i64..50).prop_map(|(k, v)| Op::Insert(k, v)),
        2 => (0u32..200).prop_map(Op::Remove),
        1 => (0u32..60).prop_map(Op::Drain),
        3 => (proptest::option::of(0u32..200), 1i64..50).prop_map(|(a, m)| Op::AtMost(a, m)),
        3 => (proptest::option::of(0u32..200), proptest::option::of(0u32..210), 1i64..50)
            .prop_map(|(a, b, m)| Op::Between(a, b, m)),
        2 => (0u32..210, 1i64..50).prop_map(|(b, m)| Op::LastAtMost(b, m)),
        2 => (0u32..200, 1i64..2000).prop_map(|(a, l)| Op::Sum(a, l)),
    ];
    proptest::collection::vec(op, 1..200)
}

fn first_at_most(model: &BTreeMap<u32, i64>, after: Option<u32>, most: i64) -> Option<(u32, i64)> {
    let from = after.map_or(0, |a| a + 1);
    model.range(from..).find(|e| *e.1 <= most).map(|(&k, &v)| (k, v))
}

/// The first entry after `after` through which the running sum of the
/// whole map reaches `level`.
fn first_sum_reaching(model: &BTreeMap<u32, i64>, after: u32, level: i64) -> Option<(u32, i64)> {
    let mut sum = 0;
    for (&k, &v) in model {
        sum += v;
        if k > after && sum >= level {
            return Some((k, v));
        }
    }
    None
}

fn check(treap: &mut Treap<u32, i64, SumMin>, model: &mut BTreeMap<u32, i64>, op: &Op) -> Result<(), TestCaseError> {
    match *op {
        Op::Insert(k, v) => {
            treap.insert(k, v);
            model.insert(k, v);
        }
        Op::Remove(k) => {
            treap.remove(&k);
            model.remove(&k);
        }
        Op::Drain(k) => {
            let drained = treap.drain_through(&k);
            let gone: Vec<i64> = model.range(..=k).map(|e| *e.1).collect();
            model.retain(|&key, _| key > k);
            prop_assert_eq!(drained.sum, gone.iter().sum::<i64>());
        }
        Op::AtMost(after, most) => {
            prop_assert_eq!(treap.first_after(after.as_ref(), &AtMost(most)), first_at_most(model, after, most));
        }
        Op::Between(after, before, most) => {
            let from = after.map_or(0, |a| a + 1);
            let naive = match before {
                Some(b) if b <= from => None,
                Some(b) => model.range(from..b).find(|e| *e.1 <= most),
                None => model.range(from..).find(|e| *e.1 <= most),
            };
            let naive = naive.map(|(&k, &v)| (k, v));
            prop_assert_eq!(treap.first_between(after.as_ref(), before.as_ref(), &AtMost(most)), naive);
        }
        Op::LastAtMost(before, most) => {
            let naive = model.range(..before).rev().find(|e| *e.1 <= most).map(|(&k, &v)| (k, v));
            prop_assert_eq!(treap.last_before(&before, &AtMost(most)), naive);
        }
        Op::Sum(after, level) => {
            prop_assert_eq!(
                treap.first_after(Some(&after), &SumReaches(level)),
                first_sum_reaching(model, after, level)
            );
            let through: i64 = model.range(..=after).map(|e| *e.1).sum();
            prop_assert_eq!(treap.summary_through(&after).sum, through);
        }
    }
    prop_assert_eq!(treap.len(), model.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_treap_agrees_with_an_ordered_map(ops in ops()) {
        let mut treap = Treap::default();
        let mut model = BTreeMap::new();
        for op in &ops {
            check(&mut treap, &mut model, op)?;
        }
        let entries: Vec<(u32, i64)> = model.iter().map(|(&k, &v)| (k, v)).collect();
        prop_assert_eq!(treap.entries(), entries);
        prop_assert_eq!(treap.summary().sum, model.values().sum::<i64>());
    }

    /// `insert` finds its place in one descent; `update` splits the tree
    /// around the key and merges it back. Both give the entry a fresh
    /// priority, so after the same operations the two trees must be the
    /// same node for node (keys, values, priorities, links, summaries, the
    /// slots reused), whether the key was new or not.
    #[test]
    fn an_insertion_builds_the_tree_an_update_builds(ops in ops()) {
        let mut inserted: Treap<u32, i64, SumMin> = Treap::default();
        let mut updated: Treap<u32, i64, SumMin> = Treap::default();
        for op in &ops {
            match *op {
                Op::Insert(k, v) => {
                    inserted.insert(k, v);
                    updated.update(k, |_| Some(v));
                }
                Op::Remove(k) => {
                    inserted.remove(&k);
                    updated.remove(&k);
                }
                Op::Drain(k) => {
                    inserted.drain_through(&k);
                    updated.drain_through(&k);
                }
                _ => continue,
            }
            prop_assert_eq!(format!("{inserted:?}"), format!("{updated:?}"));
        }
    }
}

/// A queue of 100,000 entries (job, size): every query of a walk through
/// it by "the next job after this one of at most f processors" agrees with
/// a scan, while a third of the entries leave along the way.
#[test]
fn a_treap_of_100000_entries_answers_like_a_scan() {
    let mut rng = SplitMix64::new(10);
    let mut treap: Treap<u32, i64, SumMin> = Treap::default();
    let mut model = BTreeMap::new();
    for k in 0..100_000u32 {
        let size = 1 + (rng.next_f64() * 128.0) as i64;
        treap.insert(k, size);
        model.insert(k, size);
    }
    for round in 0..200 {
        let most = 1 + (rng.next_f64() * 8.0) as i64;
        let mut after = None;
        for _ in 0..50 {
            let found = treap.first_after(after.as_ref(), &AtMost(most));
            assert_eq!(found, first_at_most(&model, after, most), "round {round}");
            let Some((k, _)) = found else { break };
            if round % 3 == 0 {
                treap.remove(&k);
                model.remove(&k);
            }
            after = Some(k);
        }
    }
    assert_eq!(treap.len(), model.len());
    assert_eq!(treap.summary().sum, model.values().sum::<i64>());
}
