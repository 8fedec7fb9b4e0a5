//! Which nodes Slurm gives a job that can start now: cons_tres
//! `_eval_nodes` (src/plugins/select/cons_tres/job_test.c, 22.05) for
//! nodes of one weight, no required nodes and no topology.
//!
//! The usable nodes (those that can hold a unit of the request) fall into
//! runs of consecutive node indexes. Each round picks one run: the first
//! run that has enough CPUs and nodes for what is left, replaced by a
//! later one only if that is enough too and has fewer CPUs (the tightest
//! fit), or if the best so far is not enough and a later one has more
//! CPUs (Slurm's test is literally "not enough and more CPUs", which also
//! replaces an enough run by a larger one that is not; kept as written).
//! A job of one node takes the node of the run with the fewest CPUs that
//! still hold all of it. Otherwise the run's nodes are taken in order,
//! each with its CPUs less one for each node still to take
//! (`_cpus_to_use`), passing by a last node that cannot complete the job;
//! a round that does not complete the job drops its run and goes on.
//! When that finds nothing, `choose_nodes` tries again without the nodes
//! of at most 1, 2, … CPUs (its answer to the knapsack problem), until it
//! finds nodes or only the job's node count is left.

use schedlab_engine::Slot;
use schedlab_workload::{Request, Spread};

/// A usable node: its index, the units of the request it holds, and the
/// CPUs cons_tres counts on it (its free cores).
#[derive(Clone, Copy, Debug)]
pub(super) struct Usable {
    pub node: u32,
    pub units: u64,
    pub cpus: u64,
}

/// What is still to be found, in Slurm's counters.
struct Left {
    cpus: u64,
    /// `rem_nodes` and `min_rem_nodes` (equal here: `-N` gives both).
    nodes: u64,
    /// `max_nodes`.
    max_nodes: u64,
    /// `rem_max_cpus`.
    max_cpus: u64,
}

/// The nodes `choose_nodes` (job_test.c) picks for `request` among
/// `usable` (in node order), with the units each takes: `_eval_nodes`,
/// then again without the nodes of fewest CPUs while it finds none.
pub(super) fn choose_nodes(request: &Request, usable: &[Usable]) -> Option<Vec<Slot>> {
    if let Some(slots) = eval_nodes(request, usable) {
        return Some(slots);
    }
    let min_nodes = request.min_nodes() as usize;
    let most = usable.iter().map(|u| u.cpus).max().unwrap_or(0);
    let mut kept = usable.to_vec();
    for count in 1..most {
        if kept.len() <= min_nodes {
            break;
        }
        let before = kept.len();
        let mut left = before;
        kept.retain(|u| {
            if left <= min_nodes || u.cpus > count {
                return true;
            }
            left -= 1;
            false
        });
        if kept.len() == before && count != 1 {
            continue;
        }
        if let Some(slots) = eval_nodes(request, &kept) {
            return Some(slots);
        }
    }
    None
}

/// The nodes `_eval_nodes` picks for `request` among `usable` (in node
/// order), with the units each takes; `None` where Slurm finds none.
fn eval_nodes(request: &Request, usable: &[Usable]) -> Option<Vec<Slot>> {
    let cpus = u64::from(request.count) * request.each[0];
    let (nodes, max_nodes) = match request.spread {
        Spread::Nodes => (u64::from(request.count), u64::from(request.count)),
        Spread::Tasks => (1, u64::from(request.count)),
        Spread::Over { nodes, .. } => (u64::from(nodes), u64::from(nodes)),
    };
    let mut left = Left { cpus, nodes, max_nodes, max_cpus: cpus };
    let mut runs = runs_of(usable);
    let mut taken: Vec<(usize, u64)> = Vec::new();
    while !runs.is_empty() && left.max_nodes > 0 {
        let best = best_run(usable, &runs, &left);
        let run = runs.remove(best);
        take_from(&usable[run.0..run.1], run.0, &mut left, &mut taken);
        if left.nodes == 0 && left.cpus == 0 {
            taken.sort_unstable();
            return Some(taken.into_iter().map(|(i, cpus)| slot(request, usable[i], cpus)).collect());
        }
    }
    None
}

/// The slot of a picked node: one unit of a per-node request, else the
/// CPUs it gave as tasks (of one core each), within what it holds.
fn slot(request: &Request, usable: Usable, cpus: u64) -> Slot {
    let units = match request.spread {
        Spread::Nodes => 1,
        _ => (cpus / request.each[0].max(1)).min(usable.units),
    };
    Slot { node: usable.node, units: units as u32 }
}

/// Runs of consecutive node indexes, as [start, end) positions in `usable`.
fn runs_of(usable: &[Usable]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=usable.len() {
        if i == usable.len() || usable[i].node != usable[i - 1].node + 1 {
            if i > start {
                runs.push((start, i));
            }
            start = i;
        }
    }
    runs
}

/// The run a round picks (an index into `runs`).
fn best_run(usable: &[Usable], runs: &[(usize, usize)], left: &Left) -> usize {
    let mut best = 0;
    let (mut best_cpus, mut best_enough) = (0u64, false);
    for (i, &(start, end)) in runs.iter().enumerate() {
        let cpus: u64 = usable[start..end].iter().map(|u| u.cpus).sum();
        let enough = cpus >= left.cpus && (end - start) as u64 >= left.nodes;
        let replace =
            i == 0 || (enough && !best_enough) || (enough && cpus < best_cpus) || (!enough && cpus > best_cpus);
        if replace {
            (best, best_cpus, best_enough) = (i, cpus, enough);
        }
    }
    best
}

/// Takes nodes of one run (`first` is its position in the usable list)
/// as `_eval_nodes` does, recording (position, CPUs) in `taken`.
fn take_from(run: &[Usable], first: usize, left: &mut Left, taken: &mut Vec<(usize, u64)>) {
    let mut only = None;
    if left.nodes <= 1 {
        // The best fit single node: the fewest CPUs that hold all left.
        for (i, u) in run.iter().enumerate() {
            if u.cpus >= left.cpus && only.is_none_or(|(_, c)| u.cpus < c) {
                only = Some((i, u.cpus));
                if u.cpus == left.cpus {
                    break;
                }
            }
        }
    }
    for (i, u) in run.iter().enumerate() {
        if left.max_nodes == 0 || (left.nodes == 0 && left.cpus == 0) {
            break;
        }
        if only.is_some_and(|(o, _)| o != i) || (left.max_nodes == 1 && u.cpus < left.cpus) {
            continue;
        }
        // `_cpus_to_use`: keep a CPU for each other node still to take.
        let room = left.max_cpus.saturating_sub(left.nodes.saturating_sub(1));
        let cpus = u.cpus.min(room.max(1));
        taken.push((first + i, cpus));
        left.cpus = left.cpus.saturating_sub(cpus);
        left.max_cpus = left.max_cpus.saturating_sub(cpus);
        left.nodes = left.nodes.saturating_sub(1);
        left.max_nodes -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usable(list: &[(u32, u64)]) -> Vec<Usable> {
        list.iter().map(|&(node, cpus)| Usable { node, units: cpus, cpus }).collect()
    }

    fn slots(list: &[(u32, u32)]) -> Vec<Slot> {
        list.iter().map(|&(node, units)| Slot { node, units }).collect()
    }

    #[test]
    fn the_tightest_run_that_is_enough_is_taken() {
        // Nodes 0, 2-3 and 5-7 usable (1 and 4 full): 8 tasks over 2 nodes.
        // Run {0} has too few nodes; {2,3} has 6 CPUs, too few; {5,6,7}
        // has 12: it is taken, node 5 giving 4, node 6 the other 4.
        let got = eval_nodes(&Request::cores_over(8, 2), &usable(&[(0, 16), (2, 3), (3, 3), (5, 4), (6, 4), (7, 4)]));
        assert_eq!(got, Some(slots(&[(5, 4), (6, 4)])));
        // With node 4 usable too, {2..7} (19 CPUs) is one run, enough.
        // Nodes 2 gives 3 (5 left for one node); nodes 3 to 7 hold fewer
        // than 5 and are passed by, so the round fails and its run is
        // dropped, node 2 kept. The next round's only run, {0}, has a
        // node for the 5 left: node 0 gives 5.
        let got =
            eval_nodes(&Request::cores_over(8, 2), &usable(&[(0, 16), (2, 3), (3, 3), (4, 1), (5, 4), (6, 4), (7, 4)]));
        assert_eq!(got, Some(slots(&[(0, 5), (2, 3)])));
    }

    #[test]
    fn without_the_smallest_nodes_a_job_finds_whole_ones() {
        // 32 tasks over 2 nodes of 16: node 0 has 2 free, then 16 and 16.
        // _eval_nodes takes node 0 (2), then no node holds the 30 left;
        // choose_nodes drops nodes of at most 1 CPU (none), then of at
        // most 2 (node 0), and finds nodes 1 and 2.
        let got = choose_nodes(&Request::cores_over(32, 2), &usable(&[(0, 2), (1, 16), (2, 16)]));
        assert_eq!(got, Some(slots(&[(1, 16), (2, 16)])));
        assert_eq!(eval_nodes(&Request::cores_over(32, 2), &usable(&[(0, 2), (1, 16), (2, 16)])), None);
    }

    #[test]
    fn a_job_of_one_node_takes_the_best_fit_node() {
        let one = Request { partition: 0, spread: Spread::Nodes, count: 1, each: vec![4], exclusive: false };
        let got = eval_nodes(&one, &usable(&[(0, 16), (1, 6), (2, 5), (3, 8)]));
        assert_eq!(got, Some(slots(&[(2, 1)])));
    }

    #[test]
    fn tasks_over_nodes_keep_a_cpu_for_each_node_still_to_take() {
        // 24 tasks over 3 nodes of 16, 7 and 1 free CPUs: 16, 7, 1.
        let got = eval_nodes(&Request::cores_over(24, 3), &usable(&[(0, 16), (1, 7), (2, 1), (3, 16)]));
        assert_eq!(got, Some(slots(&[(0, 16), (1, 7), (2, 1)])));
        // All four nodes idle: 16, then 24 - 16 = 8 left over 2 nodes: 7, 1.
        let got = eval_nodes(&Request::cores_over(24, 3), &usable(&[(0, 16), (1, 16), (2, 16), (3, 16)]));
        assert_eq!(got, Some(slots(&[(0, 16), (1, 7), (2, 1)])));
    }
}
