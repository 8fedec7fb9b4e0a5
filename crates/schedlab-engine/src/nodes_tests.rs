//! The node index against a naive model: a scan of the partition's nodes
//! in order, taking what each can hold. Random machines (types, overlapping
//! partitions, exclusive ones) and random sequences of placements and
//! releases must give the same placements and the same free amounts, and
//! a request refused stays refused until something is given back. Requests
//! spread over nodes are checked against a model that tries every node in
//! order and keeps it only if the largest later nodes can still complete
//! the request (found by sorting them).

use schedlab_workload::{Cluster, Machine, NodeType, Partition, Request, Spread};

use super::{Nodes, Slot};
use crate::SplitMix64;

fn random_machine(rng: &mut SplitMix64, nodes: u32) -> Machine {
    let mut node_types = Vec::new();
    let mut left = nodes;
    while left > 0 {
        let count = 1 + (rng.next_u64() % u64::from(left)) as u32;
        let capacity = vec![1 + rng.next_u64() % 64, rng.next_u64() % 512, rng.next_u64() % 5];
        node_types.push(NodeType { capacity, count });
        left -= count;
    }
    let mut partitions = Vec::new();
    for p in 0..3 {
        let mut members: Vec<u32> = (0..nodes).filter(|_| !rng.next_u64().is_multiple_of(3)).collect();
        if members.is_empty() {
            members.push(0);
        }
        let exclusive = p == 2;
        partitions.push(Partition {
            name: format!("p{p}"),
            nodes: members,
            max_time: None,
            priority_tier: 1,
            exclusive,
        });
    }
    let resources = ["cpu", "mem", "gpu"].map(String::from).to_vec();
    Machine { resources, node_types, partitions, default_partition: 0 }
}

fn random_request(rng: &mut SplitMix64, m: &Machine) -> Request {
    let partition = (rng.next_u64() % m.partitions.len() as u64) as u32;
    let exclusive = m.partitions[partition as usize].exclusive;
    if rng.next_u64().is_multiple_of(3) {
        let nodes = 2 + (rng.next_u64() % 4) as u32;
        let count = nodes + 1 + (rng.next_u64() % 40) as u32;
        let per_node = vec![0, rng.next_u64() % 64, rng.next_u64() % 2];
        let each = vec![1, rng.next_u64() % 4, 0];
        return Request { partition, spread: Spread::Over { nodes, per_node }, count, each, exclusive };
    }
    let spread = if rng.next_u64().is_multiple_of(2) { Spread::Nodes } else { Spread::Tasks };
    let count = 1 + (rng.next_u64() % 6) as u32;
    let each = vec![1 + rng.next_u64() % 16, rng.next_u64() % 64, rng.next_u64() % 2];
    Request { partition, spread, count, each, exclusive }
}

/// Units of `r` a node with `f` free holds, on plain arrays.
fn naive_units(f: &[u64], cap: &[u64], r: &Request) -> u64 {
    if r.exclusive && f != cap {
        return 0;
    }
    let mut units = u64::MAX;
    for k in 0..f.len() {
        let per_node = if let Spread::Over { per_node, .. } = &r.spread { per_node[k] } else { 0 };
        if f[k] < per_node {
            return 0;
        }
        if let Some(u) = (f[k] - per_node).checked_div(r.each[k]) {
            units = units.min(u);
        }
    }
    units
}

/// Tasks over exactly `k` nodes: each node in order is kept if, after
/// it takes what it holds less one per node still to take, the k - 1
/// largest later nodes (sorted) can complete the request.
fn naive_over(units: &[(u32, u64)], count: u64, k: usize) -> Option<Vec<Slot>> {
    let (mut left, mut to_take, mut out) = (count, k, Vec::new());
    for (i, &(n, u)) in units.iter().enumerate() {
        if to_take == 0 {
            break;
        }
        if u == 0 {
            continue;
        }
        let take = u.min(left - (to_take as u64 - 1));
        let mut later: Vec<u64> = units[i + 1..].iter().map(|x| x.1).filter(|&x| x > 0).collect();
        later.sort_unstable_by(|a, b| b.cmp(a));
        if later.len() < to_take - 1 || take + later[..to_take - 1].iter().sum::<u64>() < left {
            continue;
        }
        out.push(Slot { node: n, units: take as u32 });
        left -= take;
        to_take -= 1;
    }
    (to_take == 0).then_some(out)
}

/// First fit by a scan, on plain arrays.
/// The index of `machine` with every node idle, and each node's capacity
/// (the naive model's free amounts to start from).
fn idle(machine: &Machine) -> (Nodes, Vec<Vec<u64>>) {
    let cluster = Cluster { machine: machine.clone(), requests: Vec::new(), of_job: Vec::new() };
    let types = machine.node_type_of();
    let capacity = types.iter().map(|&t| machine.node_types[t as usize].capacity.clone()).collect();
    (Nodes::new(&cluster), capacity)
}

fn naive_find(m: &Machine, free: &[Vec<u64>], capacity: &[Vec<u64>], r: &Request) -> Option<Vec<Slot>> {
    naive_find_capped(m, free, capacity, r, &|_| u64::MAX)
}

/// First fit by a scan with each node's units capped at `cap(node)`.
fn naive_find_capped(
    m: &Machine,
    free: &[Vec<u64>],
    capacity: &[Vec<u64>],
    r: &Request,
    cap: &dyn Fn(u32) -> u64,
) -> Option<Vec<Slot>> {
    let members = &m.partitions[r.partition as usize].nodes;
    let units_of = |n: u32| naive_units(&free[n as usize], &capacity[n as usize], r).min(cap(n));
    if let Spread::Over { nodes, .. } = r.spread {
        let units: Vec<(u32, u64)> = members.iter().map(|&n| (n, units_of(n))).collect();
        return naive_over(&units, u64::from(r.count), nodes as usize);
    }
    let mut left = u64::from(r.count);
    let mut out = Vec::new();
    for &n in members {
        if left == 0 {
            break;
        }
        let units = units_of(n);
        if units == 0 {
            continue;
        }
        let take = if r.spread == Spread::Nodes { 1 } else { units.min(left) };
        out.push(Slot { node: n, units: take as u32 });
        left -= take;
    }
    (left == 0).then_some(out)
}

#[test]
fn the_index_places_as_a_scan_does() {
    let mut rng = SplitMix64::new(11);
    for round in 0..60 {
        let nodes = 1 + (rng.next_u64() % if round < 50 { 40 } else { 3000 }) as u32;
        let machine = random_machine(&mut rng, nodes);
        let (mut index, capacity) = idle(&machine);
        let mut free = capacity.clone();
        let mut held: Vec<(Request, Vec<Slot>)> = Vec::new();
        // Requests refused since the last release (`Nodes::releases`).
        let mut refused: Vec<Request> = Vec::new();
        for _ in 0..400 {
            if !held.is_empty() && rng.next_u64().is_multiple_of(3) {
                let (r, slots) = held.swap_remove((rng.next_u64() % held.len() as u64) as usize);
                let before = index.releases();
                index.give(&r, &slots);
                assert_ne!(index.releases(), before, "a release is counted");
                refused.clear();
                for s in &slots {
                    for (k, f) in free[s.node as usize].iter_mut().enumerate() {
                        *f += index.taken(&r, *s, k);
                    }
                }
            } else {
                let r = random_request(&mut rng, &machine);
                let found = index.find(&r);
                assert_eq!(found, naive_find(&machine, &free, &capacity, &r), "round {round}");
                if let Some(slots) = found {
                    assert!(index.can_take(&r, &slots));
                    for s in &slots {
                        for (k, f) in free[s.node as usize].iter_mut().enumerate() {
                            *f -= index.taken(&r, *s, k);
                        }
                    }
                    index.take(&r, &slots);
                    held.push((r, slots));
                } else {
                    refused.push(r);
                }
            }
            for r in &refused {
                assert_eq!(index.find(r), None, "round {round}: refused with no release since");
            }
            for n in 0..nodes {
                assert_eq!(index.free(n), free[n as usize].as_slice());
            }
        }
    }
}

#[test]
fn placements_the_engine_refuses() {
    let machine = Machine::from_spec("a:2x(cpu=4,gpu=1)+b:1x(cpu=8)").unwrap();
    let cluster = Cluster { machine, requests: Vec::new(), of_job: Vec::new() };
    let nodes = Nodes::new(&cluster);
    let two = Request { partition: 0, spread: Spread::Nodes, count: 2, each: vec![2, 1], exclusive: false };
    assert!(nodes.can_take(&two, &[Slot { node: 0, units: 1 }, Slot { node: 1, units: 1 }]));
    for (bad, why) in [
        (vec![Slot { node: 0, units: 1 }], "too few units"),
        (vec![Slot { node: 1, units: 1 }, Slot { node: 0, units: 1 }], "out of order"),
        (vec![Slot { node: 0, units: 1 }, Slot { node: 2, units: 1 }], "outside the partition"),
        (vec![Slot { node: 0, units: 2 }], "two units of a per-node request"),
    ] {
        assert!(!nodes.can_take(&two, &bad), "{why}");
    }
    let tasks = Request { partition: 0, spread: Spread::Tasks, count: 5, each: vec![1, 0], exclusive: false };
    assert!(!nodes.can_take(&tasks, &[Slot { node: 0, units: 5 }]), "more than the node holds");
    assert!(nodes.can_take(&tasks, &[Slot { node: 0, units: 4 }, Slot { node: 1, units: 1 }]));
}

#[test]
fn tasks_over_nodes_take_per_node_amounts_and_exactly_their_nodes() {
    // Partition a: two nodes of 4 cores and 1 GPU. Five tasks over two
    // nodes, one GPU per node: 4 + 1 fit, the GPUs once per node.
    let machine = Machine::from_spec("a:2x(cpu=4,gpu=1)+b:1x(cpu=8)").unwrap();
    let cluster = Cluster { machine, requests: Vec::new(), of_job: Vec::new() };
    let mut nodes = Nodes::new(&cluster);
    let spread = Spread::Over { nodes: 2, per_node: vec![0, 1] };
    let five = Request { partition: 0, spread, count: 5, each: vec![1, 0], exclusive: false };
    let placed = nodes.find(&five).expect("4 + 1 tasks fit");
    assert_eq!(placed, vec![Slot { node: 0, units: 4 }, Slot { node: 1, units: 1 }]);
    for (bad, why) in [
        (vec![Slot { node: 0, units: 4 }, Slot { node: 1, units: 0 }], "a node with no task"),
        (vec![Slot { node: 0, units: 5 }], "one node for two"),
        (vec![Slot { node: 0, units: 3 }, Slot { node: 1, units: 1 }], "four tasks of five"),
    ] {
        assert!(!nodes.can_take(&five, &bad), "{why}");
    }
    nodes.take(&five, &placed);
    assert_eq!((nodes.free(0), nodes.free(1)), (&[0, 0][..], &[3, 0][..]));
    // Nine tasks can never fit on two nodes of four cores; with a node's
    // GPU taken, two tasks over two nodes do not fit now either.
    assert_eq!(nodes.find(&Request { count: 9, ..five.clone() }), None);
    assert!(!nodes.fits(&Request { count: 2, ..five.clone() }));
}

/// The index's placements on nodes capped by a second state (a planner's
/// `find_where`), and whether a request fits (`fits`), against the scan:
/// random machines in random states, with per-node caps that are often
/// unlimited, often zero and otherwise small, so that many requests spread
/// over nodes fail the pass in node order and are refused either from
/// what that pass saw or by the look-ahead.
#[test]
fn capped_placements_and_fits_are_the_scans() {
    let mut rng = SplitMix64::new(17);
    for round in 0..40 {
        let nodes = 1 + (rng.next_u64() % if round < 30 { 40 } else { 1500 }) as u32;
        let machine = random_machine(&mut rng, nodes);
        let (mut index, capacity) = idle(&machine);
        let mut free = capacity.clone();
        for _ in 0..300 {
            let r = random_request(&mut rng, &machine);
            let salt = rng.next_u64();
            let cap = |n: u32| match SplitMix64::new(salt ^ u64::from(n)).next_u64() % 4 {
                0 => 0,
                1 => SplitMix64::new(salt.wrapping_add(u64::from(n))).next_u64() % 8,
                _ => u64::MAX,
            };
            let capped = index.find_where(&r, &|n, _| cap(n));
            assert_eq!(capped, naive_find_capped(&machine, &free, &capacity, &r, &cap), "round {round}");
            let found = index.find(&r);
            assert_eq!(index.fits(&r), found.is_some(), "round {round}");
            let slots = random_slots(&mut rng, nodes, &r, found.as_deref());
            let want = naive_can_take(&machine, &free, &capacity, &r, &slots);
            assert_eq!(index.can_take(&r, &slots), want, "round {round}: {slots:?}");
            // Keep about half the placements, so the machine fills up.
            if let Some(slots) = found.filter(|_| rng.next_u64().is_multiple_of(2)) {
                for s in &slots {
                    for (k, f) in free[s.node as usize].iter_mut().enumerate() {
                        *f -= index.taken(&r, *s, k);
                    }
                }
                index.take(&r, &slots);
            }
        }
    }
}

/// Slots to offer `can_take`: the found placement, sometimes with one
/// slot's units or node moved, or a few random slots (some beyond the
/// machine).
fn random_slots(rng: &mut SplitMix64, nodes: u32, r: &Request, found: Option<&[Slot]>) -> Vec<Slot> {
    if let Some(found) = found.filter(|_| !rng.next_u64().is_multiple_of(3)) {
        let mut slots = found.to_vec();
        let i = (rng.next_u64() % slots.len() as u64) as usize;
        match rng.next_u64() % 3 {
            0 => slots[i].units += 1,
            1 => slots[i].node = (rng.next_u64() % u64::from(nodes + 1)) as u32,
            _ => {}
        }
        return slots;
    }
    let mut slots: Vec<Slot> = (0..1 + rng.next_u64() % 4)
        .map(|_| Slot { node: (rng.next_u64() % u64::from(nodes + 2)) as u32, units: (rng.next_u64() % 4) as u32 })
        .collect();
    slots.sort_unstable();
    if rng.next_u64().is_multiple_of(2) {
        let count = slots.iter().map(|s| s.units).sum::<u32>();
        slots[0].units += r.count.saturating_sub(count);
    }
    slots
}

/// `can_take` by its definition, on plain arrays.
fn naive_can_take(m: &Machine, free: &[Vec<u64>], capacity: &[Vec<u64>], r: &Request, slots: &[Slot]) -> bool {
    let members = &m.partitions[r.partition as usize].nodes;
    let each_fits = slots.iter().all(|s| {
        members.contains(&s.node)
            && s.units > 0
            && (r.spread != Spread::Nodes || s.units == 1)
            && naive_units(&free[s.node as usize], &capacity[s.node as usize], r) >= u64::from(s.units)
    });
    let distinct = slots.windows(2).all(|w| w[0].node < w[1].node);
    let count = match r.spread {
        Spread::Over { nodes, .. } => slots.len() == nodes as usize,
        _ => true,
    };
    let units: u64 = slots.iter().map(|s| u64::from(s.units)).sum();
    each_fits && distinct && count && units == u64::from(r.count)
}
