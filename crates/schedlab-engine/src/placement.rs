//! The allocation rule, given what each candidate node can hold
//! (docs/semantics.md, "Machines of nodes"): one function that every
//! planner (the engine's index, EASY's plan, the node profile, the slurm
//! policy's test) calls with its own view of the nodes, so that all of
//! them place a request the same way.
//!
//! A request spread over exactly `nodes` nodes takes, in node order, each
//! node after which the rest can still be completed by later nodes, with
//! as many tasks as it holds less one for each node still to take (what
//! cons_tres `_eval_nodes` gives each node it picks, `_cpus_to_use`).
//! Most calls are answered by the plain pass in node order, which takes
//! every node while more than one is still to take; only when that pass
//! fails does the rule look ahead, with the largest later nodes' sums.

use std::collections::BTreeMap;

use schedlab_workload::{Request, Spread};

use crate::nodes::Slot;

/// The first-fit placement of `request` among `candidates`, each a node
/// and the units of the request it can hold, in increasing node order;
/// `None` if they cannot hold it.
pub fn first_fit(request: &Request, candidates: &[(u32, u64)]) -> Option<Vec<Slot>> {
    let most = candidates.iter().map(|c| c.1).max().unwrap_or(0);
    first_fit_in_order(request, most, candidates.iter().copied())
}

/// [`first_fit`] over candidates given in increasing node order on
/// demand, each with the units it can hold: the pass in node order stops
/// once the request is placed, so the candidates are all listed only when
/// that pass fails and the rule must look ahead. `most` bounds what any
/// candidate can count towards the request ([`Request::worth`]); a pass
/// that completes the request with any such bound took the rule's nodes
/// ([`Need::take`]).
pub fn first_fit_in_order<I>(request: &Request, most: u64, candidates: I) -> Option<Vec<Slot>>
where
    I: Iterator<Item = (u32, u64)> + Clone,
{
    let mut need = Need::of(request);
    need.most = most;
    let mut out = Vec::new();
    for (node, here) in candidates.clone() {
        if need.done() {
            break;
        }
        let take = need.take(&request.spread, here);
        if take > 0 {
            out.push(Slot { node, units: take as u32 });
        }
    }
    if need.done() {
        return Some(out);
    }
    match request.spread {
        Spread::Over { nodes, .. } => spread_ahead(u64::from(request.count), nodes, &candidates.collect::<Vec<_>>()),
        _ => None,
    }
}

/// What a placement still needs while the nodes are visited in order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Need {
    /// Units still to place.
    pub units: u64,
    /// Nodes still to take (a request spread over nodes only).
    pub nodes: u32,
    /// The most units any node could hold (a bound): a node holding fewer
    /// than what is left less this much on each other node still to take
    /// cannot be taken.
    pub most: u64,
}

impl Need {
    /// Everything `request` asks.
    pub fn of(request: &Request) -> Need {
        let nodes = match request.spread {
            Spread::Over { nodes, .. } => nodes,
            _ => 0,
        };
        Need { units: u64::from(request.count), nodes, most: u64::MAX }
    }

    /// The fewest units the next node taken must hold (one, except for a
    /// request spread over nodes whose later nodes could not make up the
    /// rest).
    pub fn least(&self) -> u64 {
        let others = u64::from(self.nodes.saturating_sub(1)).saturating_mul(self.most);
        self.units.saturating_sub(others).max(1)
    }

    /// Nothing more to place (every node taken, for a request spread
    /// over nodes: its last node takes what is left).
    pub fn done(&self) -> bool {
        self.units == 0
    }

    /// How many units the next node in order takes when it can hold
    /// `here` (more than zero) of them, recorded; zero if it is passed by:
    /// a node of a request spread over nodes must hold at least
    /// [`Need::least`] (the last one all that is left). A pass that
    /// completes the request this way took only nodes after which it could
    /// be completed and passed by only nodes after which it could not, so
    /// it gives the rule's nodes.
    pub fn take(&mut self, spread: &Spread, here: u64) -> u64 {
        if here == 0 || self.units == 0 {
            return 0;
        }
        let take = match spread {
            Spread::Nodes => 1,
            Spread::Tasks => here.min(self.units),
            Spread::Over { .. } if here < self.least() => 0,
            Spread::Over { .. } => here.min(self.units - u64::from(self.nodes.saturating_sub(1))),
        };
        if take > 0 {
            self.units -= take;
            self.nodes = self.nodes.saturating_sub(1);
        }
        take
    }
}

/// The rule for a request of `count` tasks over exactly `nodes` nodes
/// when the plain pass failed: a node is taken only if the largest of the
/// later nodes can still complete the request after it. The later nodes
/// are kept as a count of nodes by units, so each look is O(distinct
/// amounts) from the largest down.
fn spread_ahead(count: u64, nodes: u32, candidates: &[(u32, u64)]) -> Option<Vec<Slot>> {
    let holding: Vec<(u32, u64)> = candidates.iter().copied().filter(|c| c.1 > 0).collect();
    let mut later: BTreeMap<u64, u64> = BTreeMap::new();
    for &(_, u) in &holding {
        *later.entry(u).or_insert(0) += 1;
    }
    let (mut left, mut to_take) = (count, u64::from(nodes));
    if largest_units(&later, to_take).is_none_or(|sum| sum < left) {
        return None;
    }
    let mut out = Vec::with_capacity(to_take as usize);
    for &(node, here) in &holding {
        if to_take == 0 {
            break;
        }
        if let Some(c) = later.get_mut(&here) {
            *c -= 1;
            if *c == 0 {
                later.remove(&here);
            }
        }
        let take = here.min(left - (to_take - 1));
        if largest_units(&later, to_take - 1).is_none_or(|rest| take + rest < left) {
            continue;
        }
        out.push(Slot { node, units: take as u32 });
        left -= take;
        to_take -= 1;
    }
    (to_take == 0 && left == 0).then_some(out)
}

/// The units of the `k` largest nodes counted in `by_units` (units →
/// nodes), or `None` if there are fewer than `k`: a request of `count`
/// tasks over exactly `k` nodes can be placed on nodes holding these
/// units exactly when this is at least `count` (the look-ahead above
/// keeps that true from node to node).
pub fn largest_units(by_units: &BTreeMap<u64, u64>, k: u64) -> Option<u64> {
    let (mut left, mut sum) = (k, 0u64);
    for (&units, &count) in by_units.iter().rev() {
        if left == 0 {
            break;
        }
        let taken = count.min(left);
        sum = sum.saturating_add(units.saturating_mul(taken));
        left -= taken;
    }
    (left == 0).then_some(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(list: &[(u32, u32)]) -> Vec<Slot> {
        list.iter().map(|&(node, units)| Slot { node, units }).collect()
    }

    #[test]
    fn tasks_over_nodes_leave_one_for_each_node_still_to_take() {
        // 24 tasks over 3 nodes with 16, 16 and 16 free: the first takes
        // 16, the second 24 - 16 - 1 = 7, the third the last one.
        let got = first_fit(&Request::cores_over(24, 3), &[(0, 16), (1, 16), (2, 16)]);
        assert_eq!(got, Some(slots(&[(0, 16), (1, 7), (2, 1)])));
    }

    #[test]
    fn an_uneven_spread_fits_where_an_even_one_would_not() {
        // 8 per node would need 8 free cores on 3 nodes; node 2 has one.
        let got = first_fit(&Request::cores_over(24, 3), &[(0, 16), (1, 7), (2, 1), (3, 16)]);
        assert_eq!(got, Some(slots(&[(0, 16), (1, 7), (2, 1)])));
    }

    #[test]
    fn the_last_node_must_complete_the_request() {
        // After nodes 0 and 1 (1 + 1 tasks), 22 are left for one node:
        // node 2 (10) is passed by, node 3 (22) completes it.
        let got = first_fit(&Request::cores_over(24, 3), &[(0, 1), (1, 1), (2, 10), (3, 22)]);
        assert_eq!(got, Some(slots(&[(0, 1), (1, 1), (3, 22)])));
    }

    #[test]
    fn a_node_after_which_the_rest_cannot_complete_is_passed_by() {
        // 24 tasks over 2 nodes, free 1, 8 and 16: taking node 0 leaves 23
        // for one node, which none has; nodes 1 and 2 give 8 + 16.
        let got = first_fit(&Request::cores_over(24, 2), &[(0, 1), (1, 8), (2, 16)]);
        assert_eq!(got, Some(slots(&[(1, 8), (2, 16)])));
    }

    #[test]
    fn too_few_units_or_nodes_do_not_fit() {
        // The two largest nodes hold 15 of 16; only two nodes for three.
        assert_eq!(first_fit(&Request::cores_over(16, 2), &[(0, 5), (1, 10), (2, 4)]), None);
        assert_eq!(first_fit(&Request::cores_over(6, 3), &[(0, 5), (1, 0), (2, 4)]), None);
    }

    #[test]
    fn largest_sums_the_k_largest_or_says_there_are_too_few() {
        let by_units = BTreeMap::from([(1, 1), (2, 1), (3, 2)]);
        assert_eq!(
            (largest_units(&by_units, 3), largest_units(&by_units, 0), largest_units(&by_units, 5)),
            (Some(8), Some(0), None)
        );
    }

    /// Every node in order is kept if the k - 1 largest later ones (sorted)
    /// can still complete the request: the rule, by brute force.
    fn naive_over(units: &[(u32, u64)], count: u64, k: u64) -> Option<Vec<Slot>> {
        let (mut left, mut to_take, mut out) = (count, k, Vec::new());
        for (i, &(node, u)) in units.iter().enumerate() {
            if to_take == 0 {
                break;
            }
            if u == 0 {
                continue;
            }
            let take = u.min(left - (to_take - 1));
            let mut later: Vec<u64> = units[i + 1..].iter().map(|x| x.1).filter(|&x| x > 0).collect();
            later.sort_unstable_by(|a, b| b.cmp(a));
            let rest = to_take as usize - 1;
            if later.len() < rest || take + later[..rest].iter().sum::<u64>() < left {
                continue;
            }
            out.push(Slot { node, units: take as u32 });
            left -= take;
            to_take -= 1;
        }
        (to_take == 0).then_some(out)
    }

    /// Random candidates and requests over k nodes: the pass on demand with
    /// any bound on what a node counts places as the rule does, and the
    /// rule places the request exactly when the k largest worths reach its
    /// count (what EASY's plan on nodes asks instead of placing it).
    #[test]
    fn the_pass_on_demand_and_the_largest_worths_agree_with_the_rule() {
        let mut rng = crate::SplitMix64::new(31);
        for round in 0..20_000 {
            let len = (rng.next_u64() % 12) as u32;
            let candidates: Vec<(u32, u64)> = (0..len)
                .map(|i| (3 * i + 1, if rng.next_u64().is_multiple_of(4) { 0 } else { rng.next_u64() % 20 }))
                .collect();
            let nodes = 1 + (rng.next_u64() % 5) as u32;
            let count = nodes + (rng.next_u64() % 40) as u32;
            let request = Request::cores_over(count, nodes);
            let want = naive_over(&candidates, u64::from(count), u64::from(nodes));
            assert_eq!(first_fit(&request, &candidates), want, "round {round}");
            let worths: Vec<u64> = candidates.iter().map(|c| request.worth(c.1)).collect();
            let mut by_worth = BTreeMap::new();
            for &w in worths.iter().filter(|&&w| w > 0) {
                *by_worth.entry(w).or_insert(0u64) += 1;
            }
            let places = largest_units(&by_worth, u64::from(nodes)).is_some_and(|s| s >= u64::from(count));
            assert_eq!(places, want.is_some(), "round {round}: {candidates:?} {count} over {nodes}");
            let most_worth = worths.iter().copied().max().unwrap_or(0);
            let most_units = candidates.iter().map(|c| c.1).max().unwrap_or(0);
            for most in [most_worth, most_units, u64::MAX] {
                let got = first_fit_in_order(&request, most, candidates.iter().copied());
                assert_eq!(got, want, "round {round}, most {most}");
            }
        }
    }
}
