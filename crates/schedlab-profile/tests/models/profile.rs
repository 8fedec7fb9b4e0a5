//! The availability profile against a naive model: an array of free
//! processors per second. Random sequences of allocations, releases,
//! advances and queries must agree with it on every answer and on the whole
//! step function; a profile of 100,000 reservations is checked against a
//! linear scan of its steps.

use proptest::prelude::*;
use schedlab_engine::{SplitMix64, Time};
use schedlab_profile::Profile;

/// Every time a test uses lies below this; beyond it the model's free count
/// is the machine size (every interval of the tests ends before).
const HORIZON: usize = 400;

/// Free processors per second from 0 to `HORIZON`, with an origin.
#[derive(Clone)]
struct Naive {
    procs: i64,
    origin: Time,
    free: Vec<i64>,
}

impl Naive {
    fn new(procs: u32) -> Self {
        Self { procs: i64::from(procs), origin: 0, free: vec![i64::from(procs); HORIZON] }
    }

    fn at(&self, t: Time) -> i64 {
        self.free.get(t.max(self.origin) as usize).copied().unwrap_or(self.procs)
    }

    /// The profile's documented rule: the start moves up to the origin and
    /// the interval keeps its length.
    fn add(&mut self, start: Time, duration: Time, delta: i64) {
        let start = start.max(self.origin);
        for t in start..start + duration {
            self.free[t as usize] += delta;
        }
    }

    fn fits(&self, start: Time, duration: Time, size: i64) -> bool {
        (start..start + duration.max(1)).all(|t| self.at(t) >= size)
    }

    /// Every change lies before `HORIZON` − 60, so a window that fits
    /// starts before `HORIZON` or never.
    fn earliest_fit(&self, from: Time, duration: Time, size: u32) -> Time {
        let first = from.max(self.origin);
        (first..HORIZON as Time).find(|&t| self.fits(t, duration, i64::from(size))).unwrap_or(Time::MAX)
    }

    /// Whether a window of `duration` on `size` processors starts in
    /// `[from, until - duration]`.
    fn fits_before(&self, from: Time, duration: Time, size: u32, until: Time) -> bool {
        let last = until - duration.max(1);
        (from.max(self.origin)..=last).any(|t| self.fits(t, duration, i64::from(size)))
    }

    fn free_until(&self, t: Time, size: u32) -> Time {
        let first = t.max(self.origin);
        (first..HORIZON as Time).find(|&x| self.at(x) < i64::from(size)).unwrap_or(Time::MAX)
    }

    fn max_free(&self, a: Time, b: Time) -> i64 {
        let a = a.max(self.origin);
        (a..b.max(a + 1)).map(|x| self.at(x)).max().expect("one second at least")
    }

    /// The maximal runs of at least `size` free processors that meet
    /// `[a, b)`; one reaching `HORIZON` never ends.
    fn runs(&self, a: Time, b: Time, size: u32) -> Vec<(Time, Time)> {
        let mut all = Vec::new();
        let mut open: Option<Time> = None;
        for x in self.origin..HORIZON as Time {
            match (open, self.at(x) >= i64::from(size)) {
                (None, true) => open = Some(x),
                (Some(start), false) => {
                    all.push((start, x));
                    open = None;
                }
                _ => {}
            }
        }
        if let Some(start) = open {
            all.push((start, Time::MAX));
        }
        let a = a.max(self.origin);
        all.into_iter().filter(|&(s, e)| a < b && s < b && e > a).collect()
    }

    fn steps(&self) -> Vec<(Time, i64)> {
        let mut out = vec![(self.origin, self.at(self.origin))];
        for t in self.origin + 1..HORIZON as Time + 1 {
            let f = self.at(t);
            if f != out.last().expect("one step").1 {
                out.push((t, f));
            }
        }
        out
    }
}

#[derive(Clone, Debug)]
enum Op {
    Allocate(Time, Time, u32),
    Release(Time, Time, u32),
    Advance(Time),
    Fit(Time, Time, u32),
}

fn ops(procs: u32) -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        3 => (0i64..150, 0i64..60, 1..=procs).prop_map(|(s, d, n)| Op::Allocate(s, d, n)),
        1 => (0i64..150, 0i64..60, 1..=procs).prop_map(|(s, d, n)| Op::Release(s, d, n)),
        1 => (0i64..150).prop_map(Op::Advance),
        3 => (0i64..160, 0i64..60, 1..=procs + 1).prop_map(|(s, d, n)| Op::Fit(s, d, n)),
    ];
    proptest::collection::vec(op, 1..120)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_profile_agrees_with_a_per_second_array((procs, ops) in (1u32..12).prop_flat_map(|n| (Just(n), ops(n)))) {
        let mut p = Profile::new(0, procs);
        let mut naive = Naive::new(procs);
        for op in ops {
            apply(&mut p, &mut naive, &op)?;
        }
    }

    /// A trial (checkpoint, changes and queries) is then taken back at once
    /// (`rollback`), by hand change by change when the profile says it
    /// cannot, or kept (`commit`); either way the profile agrees with the
    /// model after it and through the changes that follow.
    #[test]
    fn a_trial_is_taken_back_or_kept_exactly(
        (procs, before, trial, after, keep) in (1u32..12).prop_flat_map(|n| (Just(n), ops(n), ops(n), ops(n), any::<bool>()))
    ) {
        let mut p = Profile::new(0, procs);
        let mut naive = Naive::new(procs);
        for op in before {
            apply(&mut p, &mut naive, &op)?;
        }
        p.checkpoint();
        let saved = naive.clone();
        let mut inverse = Vec::new();
        // A trial does not advance the profile (that ends it).
        for op in trial.iter().filter(|op| !matches!(op, Op::Advance(_))) {
            apply(&mut p, &mut naive, op)?;
            match *op {
                Op::Allocate(s, d, n) => inverse.push(Op::Release(s, d, n)),
                Op::Release(s, d, n) => inverse.push(Op::Allocate(s, d, n)),
                _ => {}
            }
        }
        if keep {
            p.commit();
        } else {
            if !p.rollback() {
                for op in inverse.iter().rev() {
                    apply(&mut p, &mut naive, op)?;
                }
            }
            naive = saved;
        }
        states_agree(&p, &naive)?;
        for op in after {
            apply(&mut p, &mut naive, &op)?;
        }
    }
}

/// Applies `op` to both and checks that they agree.
fn apply(p: &mut Profile, naive: &mut Naive, op: &Op) -> Result<(), TestCaseError> {
    match *op {
        Op::Allocate(s, d, n) => {
            p.allocate(s, d, n);
            naive.add(s, d, -i64::from(n));
        }
        Op::Release(s, d, n) => {
            p.release(s, d, n);
            naive.add(s, d, i64::from(n));
        }
        Op::Advance(t) => {
            p.advance(t);
            naive.origin = naive.origin.max(t);
        }
        Op::Fit(s, d, n) => queries_agree(p, naive, s, d, n)?,
    }
    states_agree(p, naive)
}

/// Every query for a window from `s` of `d` seconds on `n` processors.
fn queries_agree(p: &Profile, naive: &Naive, s: Time, d: Time, n: u32) -> Result<(), TestCaseError> {
    // Queries only make sense on a profile that is not overcommitted before
    // the tail; both must agree anyway.
    prop_assert_eq!(p.earliest_fit(s, d, n), naive.earliest_fit(s, d, n), "fit {} {} {}", s, d, n);
    let until = s + 2 * d + 5;
    prop_assert_eq!(p.fits_before(s, d, n, until), naive.fits_before(s, d, n, until), "fits before");
    prop_assert_eq!(p.free_until(s, n), naive.free_until(s, n), "free until {} {}", s, n);
    prop_assert_eq!(p.max_free(s, s + d), naive.max_free(s, s + d), "max free {} {}", s, s + d);
    let mut runs = Vec::new();
    p.runs(s, s + d, n, &mut runs);
    prop_assert_eq!(runs, naive.runs(s, s + d, n), "runs {} {} {}", s, s + d, n);
    Ok(())
}

/// The whole step function and the free count at a few times.
fn states_agree(p: &Profile, naive: &Naive) -> Result<(), TestCaseError> {
    prop_assert_eq!(p.steps(), naive.steps());
    prop_assert_eq!(p.is_overcommitted(), naive.steps().iter().any(|s| s.1 < 0));
    for t in [naive.origin, naive.origin + 7, 60, 149] {
        prop_assert_eq!(p.free_at(t), naive.at(t), "free at {}", t);
    }
    Ok(())
}

/// The earliest fit by one linear scan of the steps: a window starts at
/// `from` or at a step; a step short of processors sends the next candidate
/// past it.
fn scan_fit(steps: &[(Time, i64)], from: Time, duration: Time, size: u32) -> Time {
    let need = i64::from(size);
    let mut k = steps.partition_point(|s| s.0 <= from).saturating_sub(1);
    let mut start = from.max(steps[0].0);
    while k < steps.len() {
        let end = start + duration.max(1);
        if steps[k].0 >= end {
            return start;
        }
        if steps[k].1 < need {
            match steps.get(k + 1) {
                Some(next) => start = next.0,
                None => return Time::MAX,
            }
        }
        k += 1;
    }
    start
}

/// `n` random reservations (1–64 processors, 1–5,000 s) on 128
/// processors, each placed at its earliest fit as a conservative
/// backfiller would, every 10,000th checked against the scan; with the
/// generator, to go on drawing from it.
fn backfilled(seed: u64, n: u64) -> (Profile, Vec<(Time, Time, u32)>, SplitMix64) {
    let mut p = Profile::new(0, 128);
    let mut g = SplitMix64::new(seed);
    let mut placed = Vec::new();
    for i in 0..n {
        let size = 1 + (g.next_u64() % 64) as u32;
        let duration = 1 + (g.next_u64() % 5000) as Time;
        let start = p.earliest_fit(0, duration, size);
        if i % 10_000 == 0 {
            assert_eq!(start, scan_fit(&p.steps(), 0, duration, size), "reservation {i}");
        }
        p.allocate(start, duration, size);
        placed.push((start, duration, size));
    }
    (p, placed, g)
}

/// 100,000 reservations placed as a conservative backfiller would (each at
/// its earliest fit), then released in part: every answer on the way is
/// checked against the scan for a sample of queries, and the structure
/// keeps one breakpoint per change.
#[test]
fn a_profile_of_100000_reservations_answers_like_a_scan() {
    let (mut p, placed, _) = backfilled(7, 100_000);
    assert!(!p.is_overcommitted());
    for (k, &(start, duration, size)) in placed.iter().enumerate().step_by(3) {
        p.release(start, duration, size);
        if k % 30_000 == 0 {
            let steps = p.steps();
            for size in [1, 17, 128] {
                let from = 1000 * (k as Time % 7);
                assert_eq!(p.earliest_fit(from, 3600, size), scan_fit(&steps, from, 3600, size));
            }
        }
    }
    let steps = p.steps();
    assert_eq!(p.breakpoints() + 1, steps.len());
    assert!(steps.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 != w[1].1), "strictly increasing, no equal neighbours");
    p.advance(steps[steps.len() / 2].0);
    assert_eq!(p.steps(), steps[steps.len() / 2..].to_vec());
}

/// A small trial is taken back at once; one that adds more breakpoints to
/// a stretch than the journal lets a chunk hold is not (the profile says
/// so and keeps its changes), and taking it back by hand restores it.
#[test]
fn a_trial_rolls_back_at_once_unless_it_outgrows_the_journal() {
    let mut p = Profile::new(0, 64);
    for i in 0..40 {
        p.allocate(10 * i, 5, 1 + (i as u32 % 7));
    }
    let before = p.steps();
    p.checkpoint();
    p.release(100, 5, 5);
    p.allocate(103, 50, 9);
    assert!(p.rollback(), "a small trial rolls back");
    assert_eq!(p.steps(), before);
    assert!(!p.rollback(), "a rollback ends the trial");
    p.checkpoint();
    for t in 0..300 {
        p.allocate(1000 + 2 * t, 1, 1);
    }
    assert!(!p.rollback(), "300 new breakpoints in one stretch end the journal");
    assert_ne!(p.steps(), before, "and a failed rollback changes nothing");
    for t in 0..300 {
        p.release(1000 + 2 * t, 1, 1);
    }
    assert_eq!(p.steps(), before);
}

/// Trials on a profile of 100,000 reservations, as slack-based
/// backfilling makes them: the last 16 reservations are lifted and placed
/// again at their earliest fits from a time, then taken back (at once, or
/// by hand when the profile cannot), and every tenth trial is kept; a twin
/// profile that makes the same changes without trials must agree after
/// each one.
#[test]
fn trials_on_a_profile_of_100000_reservations_roll_back_exactly() {
    let (mut p, mut placed, mut g) = backfilled(11, 100_000);
    let mut twin = p.clone();
    let mut at_once = 0;
    for trial in 0..200 {
        let moved = placed.len() - 16;
        let before = p.steps();
        p.checkpoint();
        for &(start, duration, size) in &placed[moved..] {
            p.release(start, duration, size);
        }
        let from = (g.next_u64() % 1_000_000) as Time;
        let mut new = Vec::new();
        for &(_, duration, size) in &placed[moved..] {
            let start = p.earliest_fit(from, duration, size);
            p.allocate(start, duration, size);
            new.push((start, duration, size));
        }
        if trial % 10 == 0 {
            p.commit();
            for (&(start, duration, size), &(s, d, n)) in placed[moved..].iter().zip(&new) {
                twin.release(start, duration, size);
                twin.allocate(s, d, n);
            }
            placed.truncate(moved);
            placed.extend(new);
            assert_eq!(p.steps(), twin.steps(), "trial {trial} kept");
            continue;
        }
        if p.rollback() {
            at_once += 1;
        } else {
            for (&(start, duration, size), &(s, d, n)) in placed[moved..].iter().zip(&new) {
                p.release(s, d, n);
                p.allocate(start, duration, size);
            }
        }
        assert_eq!(p.steps(), before, "trial {trial} taken back");
    }
    assert!(at_once > 0, "some trials roll back at once");
    let (d, n) = (3600, 17);
    assert_eq!(p.earliest_fit(0, d, n), scan_fit(&p.steps(), 0, d, n));
}
