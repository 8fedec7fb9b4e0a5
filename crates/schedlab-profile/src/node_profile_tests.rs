use schedlab_workload::{Cluster, Machine, Request, Spread};

use super::*;

fn cluster(spec: &str) -> Cluster {
    let machine = Machine::from_spec(spec).expect("a valid machine");
    Cluster { machine, requests: Vec::new(), of_job: Vec::new() }
}

fn nodes_of(partition: u32, count: u32, cpu: u64, mem: u64) -> Request {
    Request { partition, spread: Spread::Nodes, count, each: vec![cpu, mem], exclusive: false }
}

fn tasks_of(partition: u32, count: u32, cpu: u64, mem: u64) -> Request {
    Request { partition, spread: Spread::Tasks, count, each: vec![cpu, mem], exclusive: false }
}

fn slot(node: u32, units: u32) -> Slot {
    Slot { node, units }
}

#[test]
fn a_reservation_blocks_only_its_nodes_and_its_window() {
    // Three nodes of 4 cores and 8 MiB. Node 0 holds 3 cores over [10, 20).
    let c = cluster("3x(cpu=4,mem=8)");
    let mut p = NodeProfile::new(&c, 0);
    let three = nodes_of(0, 1, 3, 1);
    p.reserve(&three, &[slot(0, 1)], 10, 20);
    // Two nodes of 2 cores for 5 s from 8: node 0 has 1 core in [10, 13),
    // so they go on nodes 1 and 2.
    assert_eq!(p.earliest(&nodes_of(0, 2, 2, 0), 8, 5), Some((8, vec![slot(1, 1), slot(2, 1)])));
    // Three such nodes from 8 for 5 s: node 0 only at 20.
    assert_eq!(p.earliest(&nodes_of(0, 3, 2, 0), 8, 5), Some((20, vec![slot(0, 1), slot(1, 1), slot(2, 1)])));
    // For 2 s from 8 the window [8, 10) ends before the reservation.
    assert_eq!(p.earliest(&nodes_of(0, 3, 2, 0), 8, 2), Some((8, vec![slot(0, 1), slot(1, 1), slot(2, 1)])));
    // Tasks of one core: node 0 holds 1 over [10, 20), so 9 tasks fit at 10.
    assert_eq!(p.earliest(&tasks_of(0, 9, 1, 0), 10, 3), Some((10, vec![slot(0, 1), slot(1, 4), slot(2, 4)])));
    assert_eq!(p.earliest(&tasks_of(0, 10, 1, 0), 10, 3), Some((20, vec![slot(0, 4), slot(1, 4), slot(2, 2)])));
    // Released, the whole machine is free again and the breakpoints go.
    p.release(&three, &[slot(0, 1)], 10, 20);
    assert_eq!(p.breakpoints(), 0);
    assert_eq!(p.earliest(&tasks_of(0, 12, 1, 0), 10, 3), Some((10, vec![slot(0, 4), slot(1, 4), slot(2, 4)])));
}

#[test]
fn memory_not_cores_delays_a_window() {
    // Two nodes of 8 cores and 16 MiB; node 0 is held with 1 core and 12
    // MiB until 30, node 1 with 1 core and 12 MiB until 50. A node of 2
    // cores and 8 MiB waits for memory: node 0 at 30.
    let c = cluster("2x(cpu=8,mem=16)");
    let mut p = NodeProfile::new(&c, 0);
    let held = nodes_of(0, 1, 1, 12);
    p.reserve(&held, &[slot(0, 1)], 0, 30);
    p.reserve(&held, &[slot(1, 1)], 0, 50);
    assert_eq!(p.earliest(&nodes_of(0, 1, 2, 8), 0, 10), Some((30, vec![slot(0, 1)])));
    assert_eq!(p.earliest(&nodes_of(0, 2, 2, 8), 0, 10), Some((50, vec![slot(0, 1), slot(1, 1)])));
    // Cores alone fit now.
    assert_eq!(p.earliest(&nodes_of(0, 2, 7, 4), 0, 10), Some((0, vec![slot(0, 1), slot(1, 1)])));
    // Advancing to 40 forgets node 0's end.
    p.advance(40);
    assert_eq!(p.breakpoints(), 1);
    assert_eq!(p.free_at(0, 40), &[8, 16]);
    assert_eq!(p.free_at(1, 40), &[7, 4]);
}

#[test]
fn an_exclusive_request_waits_for_idle_nodes_and_takes_them_whole() {
    let c = cluster("2x(cpu=4,mem=8)");
    let mut p = NodeProfile::new(&c, 0);
    p.reserve(&nodes_of(0, 1, 1, 0), &[slot(1, 1)], 0, 7);
    let whole = Request { exclusive: true, ..nodes_of(0, 2, 1, 0) };
    assert_eq!(p.earliest(&whole, 0, 3), Some((7, vec![slot(0, 1), slot(1, 1)])));
    p.reserve(&whole, &[slot(0, 1), slot(1, 1)], 7, 10);
    assert_eq!(p.free_at(0, 8), &[0, 0]);
    assert_eq!(p.earliest(&nodes_of(0, 1, 1, 1), 5, 3), Some((10, vec![slot(0, 1)])));
    // A request no node can hold never fits.
    assert_eq!(p.earliest(&nodes_of(0, 1, 5, 0), 0, 1), None);
    assert_eq!(p.earliest_before(&nodes_of(0, 1, 1, 1), 5, 3, 10), None);
}

/// A naive model: every second's free amounts of every node up to a
/// horizon, every node idle after it.
struct Grid {
    r: usize,
    capacity: Vec<u64>,
    members: Vec<Vec<u32>>,
    horizon: Time,
    /// free[(n × horizon + t) × r + k]
    free: Vec<i64>,
}

impl Grid {
    fn new(c: &Cluster, horizon: Time) -> Grid {
        let p = NodeProfile::new(c, 0);
        let n = p.len();
        let mut free = Vec::new();
        for node in 0..n {
            for _ in 0..horizon {
                free.extend(p.capacity[node * p.r..(node + 1) * p.r].iter().map(|&x| x as i64));
            }
        }
        Grid { r: p.r, capacity: p.capacity.clone(), members: p.members.clone(), horizon, free }
    }

    fn at(&self, n: u32, t: Time) -> Vec<i64> {
        if t >= self.horizon {
            return self.capacity[n as usize * self.r..(n as usize + 1) * self.r].iter().map(|&x| x as i64).collect();
        }
        let i = (n as usize * self.horizon as usize + t as usize) * self.r;
        self.free[i..i + self.r].to_vec()
    }

    fn units(&self, n: u32, t: Time, request: &Request) -> u64 {
        let free = self.at(n, t);
        let cap = &self.capacity[n as usize * self.r..(n as usize + 1) * self.r];
        if request.exclusive && free.iter().zip(cap).any(|(&f, &c)| f != c as i64) {
            return 0;
        }
        // What a request spread over nodes asks once per node comes first.
        let rest: Vec<i64> = free.iter().enumerate().map(|(k, &f)| f - request.per_node(k) as i64).collect();
        if rest.iter().any(|&f| f < 0) {
            return 0;
        }
        rest.iter().zip(&request.each).filter(|(_, &e)| e > 0).map(|(&f, &e)| f as u64 / e).min().unwrap_or(u64::MAX)
    }

    fn earliest(&self, request: &Request, from: Time, duration: Time) -> Option<(Time, Vec<Slot>)> {
        for t in from..=self.horizon {
            if let Spread::Over { .. } = request.spread {
                let held: Vec<(u32, u64)> = self.members[request.partition as usize]
                    .iter()
                    .map(|&n| (n, (t..t + duration.max(1)).map(|s| self.units(n, s, request)).min().unwrap_or(0)))
                    .filter(|&(_, u)| u > 0)
                    .collect();
                match schedlab_engine::first_fit(request, &held) {
                    Some(slots) => return Some((t, slots)),
                    None => continue,
                }
            }
            let mut left = u64::from(request.count);
            let mut out = Vec::new();
            for &n in &self.members[request.partition as usize] {
                if left == 0 {
                    break;
                }
                let here = (t..t + duration.max(1)).map(|s| self.units(n, s, request)).min().unwrap_or(0);
                if here == 0 {
                    continue;
                }
                let take = if request.spread == Spread::Nodes { 1 } else { here.min(left) };
                out.push(slot(n, take as u32));
                left -= take;
            }
            if left == 0 {
                return Some((t, out));
            }
        }
        None
    }

    fn change(&mut self, request: &Request, slots: &[Slot], start: Time, end: Time, sign: i64) {
        for s in slots {
            for t in start..end.min(self.horizon) {
                for k in 0..self.r {
                    let amount = if request.exclusive {
                        self.capacity[s.node as usize * self.r + k]
                    } else {
                        request.amount(k, u64::from(s.units))
                    };
                    self.free[(s.node as usize * self.horizon as usize + t as usize) * self.r + k] +=
                        sign * amount as i64;
                }
            }
        }
    }
}

/// A fixed-seed generator (SplitMix64), so the cases are the same at
/// every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: i64) -> i64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as i64
    }
}

/// A random request of nodes or tasks, or, with `over`, a third of them
/// tasks spread over 2 to 4 nodes (more tasks than nodes), some asking
/// memory per node.
fn random_request(rng: &mut Rng, partitions: i64, most: u32, over: bool) -> Request {
    let mut spread = if rng.below(2) == 0 { Spread::Nodes } else { Spread::Tasks };
    let mut count = 1 + rng.below(i64::from(most)) as u32;
    if over && rng.below(3) == 0 {
        let nodes = 2 + rng.below(3) as u32;
        spread = Spread::Over { nodes, per_node: vec![0, rng.below(6) as u64] };
        count = nodes + 1 + rng.below(i64::from(most)) as u32;
    }
    Request {
        partition: rng.below(partitions) as u32,
        spread,
        count,
        each: vec![1 + rng.below(4) as u64, rng.below(10) as u64],
        exclusive: rng.below(8) == 0,
    }
}

/// Random searches, reservations, releases and advances on both models:
/// every answer of the profile is the grid's.
fn compare_with_grid(spec: &str, partitions: i64, horizon: Time, steps: usize, most: u32, seed: u64) {
    compare_spreads_with_grid(spec, partitions, horizon, (steps, most, false), seed);
}

/// [`compare_with_grid`], with tasks spread over nodes among the requests
/// when `over`.
fn compare_spreads_with_grid(
    spec: &str,
    partitions: i64,
    horizon: Time,
    (steps, most, over): (usize, u32, bool),
    seed: u64,
) {
    let c = cluster(spec);
    let mut rng = Rng(seed);
    let mut grid = Grid::new(&c, horizon);
    let mut p = NodeProfile::new(&c, 0);
    let mut held: Vec<(Request, Vec<Slot>, Time, Time)> = Vec::new();
    // The draws of the searches told the holders come from a generator of
    // their own, so the cases are those the grid always drew.
    let mut other = Rng(seed ^ 0x6a09_e667);
    for step in 0..steps {
        let origin = p.origin();
        match rng.below(10) {
            0 if !held.is_empty() => {
                // Releases what is left of a reservation after a random time.
                let i = rng.below(held.len() as i64) as usize;
                let (request, slots, start, end) = held.swap_remove(i);
                let from = start.max(origin) + rng.below(3);
                if from < end {
                    p.release(&request, &slots, from, end);
                    grid.change(&request, &slots, from, end, 1);
                    held.push((request, slots, start, from));
                }
            }
            1 => p.advance(origin + rng.below(4)),
            _ => {
                let request = random_request(&mut rng, partitions, most, over);
                let from = origin + rng.below(10);
                let duration = 1 + rng.below(horizon / 4);
                let expected = grid.earliest(&request, from, duration);
                assert_eq!(p.earliest(&request, from, duration), expected, "step {step}: {request:?} from {from}");
                among_holders_agree(&p, &request, (from, duration), &expected, &mut other);
                if let Some((start, slots)) = expected.filter(|(s, _)| s + duration < horizon) {
                    p.reserve(&request, &slots, start, start + duration);
                    grid.change(&request, &slots, start, start + duration, -1);
                    held.push((request, slots, start, start + duration));
                }
            }
        }
        held.retain(|h| h.3 > p.origin());
    }
}

/// The same search told the nodes that hold a unit at the origin (with
/// random other nodes, inside the partition or not), unbounded and before
/// a random bound, gives the grid's answer (before the bound, if it is).
fn among_holders_agree(
    p: &NodeProfile,
    request: &Request,
    (from, duration): (Time, Time),
    expected: &Option<(Time, Vec<Slot>)>,
    rng: &mut Rng,
) {
    let holders: Vec<u32> = (0..p.len() as u32)
        .filter(|&n| {
            let inside = p.members[request.partition as usize].contains(&n);
            let holds = inside && p.units_throughout(n, request, p.origin(), 1) > 0;
            holds || rng.below(5) == 0
        })
        .collect();
    let whole = p.earliest_among(request, (from, Time::MAX), duration, &holders);
    assert_eq!(&whole, expected, "{request:?} from {from} among {holders:?}");
    let until = from + rng.below(80);
    let before = expected.clone().filter(|(s, _)| *s < until);
    let bounded = p.earliest_among(request, (from, until), duration, &holders);
    assert_eq!(bounded, before, "{request:?} from {from} before {until} among {holders:?}");
}

#[test]
fn searches_agree_with_a_grid_of_every_second() {
    for seed in 0..40 {
        compare_with_grid("a:3x(cpu=4,mem=8)+b:2x(cpu=2,mem=16)", 2, 60, 120, 5, seed);
    }
}

#[test]
fn many_nodes_and_many_reservations_agree_with_the_grid() {
    // 48 nodes of two types in two partitions, 800 steps, some hundreds
    // of reservations held at once.
    compare_with_grid("a:32x(cpu=8,mem=32)+b:16x(cpu=4,mem=64)", 2, 300, 800, 40, 7);
}

#[test]
fn small_requests_on_many_nodes_agree_with_the_grid() {
    // 64 nodes of one partition and requests of at most 6 nodes or tasks:
    // most searches end well before the last breakpoint, where the time by
    // which enough nodes are settled for good bounds the sweep.
    for seed in 0..4 {
        compare_with_grid("64x(cpu=4,mem=8)", 1, 200, 600, 6, 100 + seed);
    }
}

#[test]
fn tasks_spread_over_nodes_agree_with_the_grid() {
    // Requests of tasks over an exact node count among the others: the
    // sweep asks the allocation rule only where k nodes are worth a task,
    // and stops by the time the k largest settled nodes hold the tasks.
    for seed in 0..30 {
        compare_spreads_with_grid("a:3x(cpu=4,mem=8)+b:2x(cpu=2,mem=16)", 2, 60, (120, 8, true), 200 + seed);
    }
    compare_spreads_with_grid("a:32x(cpu=8,mem=32)+b:16x(cpu=4,mem=64)", 2, 300, (800, 40, true), 9);
}
