use crate::Time;

/// An availability profile: free processors as a step function of time, from
/// an origin (the current time) to infinity. Conservative-style policies
/// keep running jobs and reservations in one; EASY-style ones build a small
/// one to find a shadow time.
///
/// Free counts are signed so that a profile can be *overcommitted* for a
/// moment (a running job outlived its prediction and now overlaps
/// reservations); [`Profile::is_overcommitted`] says so and the policy
/// repairs its plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// `(time, free)`: `free` processors from `time` until the next step's
    /// time; the last step lasts forever. Times strictly increase and
    /// neighbouring steps have different counts.
    steps: Vec<(Time, i64)>,
}

impl Profile {
    pub fn new(origin: Time, procs: u32) -> Self {
        Self { steps: vec![(origin, i64::from(procs))] }
    }

    pub fn steps(&self) -> &[(Time, i64)] {
        &self.steps
    }

    /// Forgets the past: the profile now starts at `now`.
    pub fn advance(&mut self, now: Time) {
        let k = self.step_at(now);
        if k > 0 {
            self.steps.drain(..k);
        }
        if self.steps[0].0 < now {
            self.steps[0].0 = now;
        }
    }

    pub fn free_at(&self, t: Time) -> i64 {
        self.steps[self.step_at(t)].1
    }

    pub fn is_overcommitted(&self) -> bool {
        self.steps.iter().any(|s| s.1 < 0)
    }

    /// The earliest time `t >= from` such that `size` processors are free
    /// throughout `[t, t + duration)`. Candidate times are `from` and the
    /// later step boundaries, which is where the answer must lie.
    pub fn earliest_fit(&self, from: Time, duration: Time, size: u32) -> Time {
        let need = i64::from(size);
        let mut i = self.step_at(from);
        let mut start = from.max(self.steps[0].0);
        loop {
            let end = start + duration.max(1);
            let mut j = i;
            while j < self.steps.len() && self.steps[j].0 < end && self.steps[j].1 >= need {
                j += 1;
            }
            if j == self.steps.len() || self.steps[j].0 >= end {
                return start;
            }
            // Step j is too full: no window starting before its end fits.
            if j + 1 == self.steps.len() {
                // Only a profile whose tail is short of processors gets here
                // (a job larger than the machine); report "never".
                return Time::MAX;
            }
            i = j + 1;
            start = self.steps[i].0;
        }
    }

    /// Takes `size` processors over `[start, start + duration)`.
    pub fn allocate(&mut self, start: Time, duration: Time, size: u32) {
        self.add(start, duration, -i64::from(size));
    }

    /// Gives back `size` processors over `[start, start + duration)`.
    pub fn release(&mut self, start: Time, duration: Time, size: u32) {
        self.add(start, duration, i64::from(size));
    }

    fn add(&mut self, start: Time, duration: Time, delta: i64) {
        let start = start.max(self.steps[0].0);
        let end = start.saturating_add(duration);
        if end <= start {
            return;
        }
        let a = self.split(start);
        let b = self.split(end);
        for s in &mut self.steps[a..b] {
            s.1 += delta;
        }
        // Merge equal neighbours at the two edges so the profile stays short.
        if b < self.steps.len() && self.steps[b].1 == self.steps[b - 1].1 {
            self.steps.remove(b);
        }
        if a > 0 && self.steps[a].1 == self.steps[a - 1].1 {
            self.steps.remove(a);
        }
    }

    /// Index of the step in force at `t` (the first step if `t` is before
    /// the origin).
    fn step_at(&self, t: Time) -> usize {
        self.steps.partition_point(|s| s.0 <= t).saturating_sub(1)
    }

    /// Makes sure a step starts exactly at `t` and returns its index.
    fn split(&mut self, t: Time) -> usize {
        let k = self.step_at(t);
        if self.steps[k].0 == t {
            return k;
        }
        self.steps.insert(k + 1, (t, self.steps[k].1));
        k + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_and_release_round_trip() {
        let mut p = Profile::new(0, 10);
        p.allocate(5, 10, 4);
        assert_eq!(p.steps(), &[(0, 10), (5, 6), (15, 10)]);
        p.allocate(10, 10, 6);
        assert_eq!(p.steps(), &[(0, 10), (5, 6), (10, 0), (15, 4), (20, 10)]);
        p.release(10, 10, 6);
        p.release(5, 10, 4);
        assert_eq!(p.steps(), &[(0, 10)]);
    }

    #[test]
    fn earliest_fit_skips_windows_that_are_too_full() {
        let mut p = Profile::new(0, 10);
        p.allocate(0, 10, 8); // 2 free until 10
        p.allocate(20, 10, 9); // 1 free in [20, 30)
        assert_eq!(p.earliest_fit(0, 5, 2), 0);
        assert_eq!(p.earliest_fit(0, 5, 3), 10, "fits between the two");
        assert_eq!(p.earliest_fit(0, 11, 3), 30, "too long for the gap");
        assert_eq!(p.earliest_fit(12, 8, 3), 12, "ends exactly when the second starts");
    }

    #[test]
    fn advance_drops_the_past() {
        let mut p = Profile::new(0, 10);
        p.allocate(0, 10, 8);
        p.advance(4);
        assert_eq!(p.steps(), &[(4, 2), (10, 10)]);
        p.advance(12);
        assert_eq!(p.steps(), &[(12, 10)]);
        assert_eq!(p.free_at(100), 10);
    }

    #[test]
    fn overcommitment_is_visible() {
        let mut p = Profile::new(0, 4);
        p.allocate(0, 10, 3);
        p.allocate(5, 10, 3);
        assert!(p.is_overcommitted());
        assert_eq!(p.free_at(7), -2);
    }
}
