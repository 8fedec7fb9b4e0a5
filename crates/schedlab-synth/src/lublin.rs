//! The Lublin–Feitelson model: its published default parameters and the
//! three draws it makes per job (arrival, size, runtime).
//!
//! Source: U. Lublin and D. G. Feitelson, "The workload on parallel
//! supercomputers: modeling the characteristics of rigid jobs", JPDC 63(11),
//! 2003 (the 1999 technical report of the same name), and the authors'
//! program `m_lublin99.c` distributed with the Parallel Workloads Archive.
//! See the crate documentation for where each constant comes from and which
//! ones we could not check against the published program.

use crate::random::Draws;

/// The two job classes of the model. The class is written in SWF field 15
/// (queue): 0 is interactive, 1 is batch, as in the SWF definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobClass {
    Interactive = 0,
    Batch = 1,
}

/// The parameters of one job class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassModel {
    /// Probability that a job is serial (one processor).
    pub serial_prob: f64,
    /// Probability that a job's log2 size is rounded to an integer (a
    /// power-of-two job); drawn with the same uniform as `serial_prob`, so
    /// it is an unconditional probability (serial + power of two ≤ 1).
    pub pow2_prob: f64,
    /// Lower end of the two-stage uniform on log2(size) of parallel jobs.
    pub u_low: f64,
    /// The middle point is `log2(P) − u_hi_offset − u_med_offset`.
    pub u_med_offset: f64,
    /// The upper end is `log2(P) − u_hi_offset`.
    pub u_hi_offset: f64,
    /// Probability of the first stage, uniform on [u_low, u_med].
    pub u_prob: f64,
    /// ln(runtime) is Gamma(a1, b1) with probability p, Gamma(a2, b2)
    /// otherwise, where p = pa · size + pb clamped to [0, 1].
    pub a1: f64,
    pub b1: f64,
    pub a2: f64,
    pub b2: f64,
    pub pa: f64,
    pub pb: f64,
    /// ln(inter-arrival time) is Gamma(arrival_shape, arrival_scale) in
    /// the model's "virtual" time, which the daily cycle maps to real time.
    pub arrival_shape: f64,
    pub arrival_scale: f64,
}

/// ARAR: the batch class's inter-arrival shape is the interactive one times
/// this factor (batch jobs arrive a little less often).
pub const ARAR: f64 = 1.0225;
/// AARR, BARR: shape and scale of ln(inter-arrival time).
pub const AARR: f64 = 10.2303;
pub const BARR: f64 = 0.4871;
/// ANUM, BNUM: shape and scale of the daily cycle, a gamma density over
/// the half-hour slots of the day.
pub const ANUM: f64 = 8.1737;
pub const BNUM: f64 = 3.9631;
/// The day is cut into this many slots of equal length.
pub const SLOTS: usize = 48;
/// Seconds per slot.
pub const SLOT_SECONDS: f64 = 1800.0;
/// Seconds per day.
pub const DAY: f64 = SLOTS as f64 * SLOT_SECONDS;

/// Interactive jobs (`*_ACTIVE` in `m_lublin99.c`).
pub const INTERACTIVE: ClassModel = ClassModel {
    serial_prob: 0.1541,
    pow2_prob: 0.625,
    u_low: 1.0,
    u_med_offset: 2.5,
    u_hi_offset: 1.5,
    u_prob: 0.705,
    a1: 3.8351,
    b1: 0.6605,
    a2: 7.073,
    b2: 0.6856,
    pa: -0.0118,
    pb: 0.9156,
    arrival_shape: AARR,
    arrival_scale: BARR,
};

/// Batch jobs (`*_BATCH` in `m_lublin99.c`).
pub const BATCH: ClassModel = ClassModel {
    serial_prob: 0.2927,
    pow2_prob: 0.6686,
    u_low: 1.2,
    u_med_offset: 2.0,
    u_hi_offset: 0.0,
    u_prob: 0.875,
    a1: 6.57,
    b1: 0.823,
    a2: 639.1,
    b2: 0.0156,
    pa: -0.003,
    pb: 0.6986,
    arrival_shape: AARR * ARAR,
    arrival_scale: BARR,
};

/// ln(runtime) is capped here (e^40 s is far beyond any machine's life) so
/// that a far-tail draw cannot overflow the integer seconds.
const MAX_LN_RUNTIME: f64 = 40.0;

impl ClassModel {
    /// Number of processors of one job on a machine of `procs` processors.
    pub(crate) fn size(&self, procs: u32, d: &mut Draws) -> u32 {
        let u = d.uniform();
        if u < self.serial_prob || procs == 1 {
            return 1;
        }
        let top = libm::log2(f64::from(procs));
        let u_hi = (top - self.u_hi_offset).max(0.0);
        let u_low = self.u_low.min(u_hi);
        let u_med = (u_hi - self.u_med_offset).clamp(u_low, u_hi);
        let mut log_size = if d.uniform() < self.u_prob { d.between(u_low, u_med) } else { d.between(u_med, u_hi) };
        if u < self.serial_prob + self.pow2_prob {
            log_size = libm::round(log_size);
            if log_size > top {
                // A power of two above a machine that is not one: the
                // largest power of two that fits.
                log_size = libm::floor(top);
            }
        }
        let size = libm::round(libm::exp2(log_size));
        (size as u32).clamp(1, procs)
    }

    /// Runtime in whole seconds (at least 1) of a job of `size` processors.
    pub(crate) fn runtime(&self, size: u32, d: &mut Draws) -> i64 {
        let p = (self.pa * f64::from(size) + self.pb).clamp(0.0, 1.0);
        let ln_runtime = d.hyper_gamma((self.a1, self.b1), (self.a2, self.b2), p).min(MAX_LN_RUNTIME);
        (libm::round(libm::exp(ln_runtime)) as i64).max(1)
    }

    /// The next inter-arrival gap, in virtual seconds.
    pub(crate) fn gap(&self, d: &mut Draws) -> f64 {
        libm::exp(d.gamma(self.arrival_shape, self.arrival_scale))
    }
}

/// The daily cycle: how fast virtual time runs in each half-hour slot of
/// the day (mean 1 over the day).
#[derive(Clone, Debug)]
pub struct DailyCycle {
    /// Relative arrival rate per slot, mean 1.
    pub weights: [f64; SLOTS],
    /// Virtual seconds elapsed at the start of each slot, and at the end of
    /// the day (`DAY`).
    starts: [f64; SLOTS + 1],
}

impl DailyCycle {
    /// The Gamma(ANUM, BNUM) density over slot numbers counted from the
    /// start of the day, folded onto one day (slot k also gets the mass of
    /// k + 48, k + 96, …) and integrated over each slot by Simpson's rule.
    pub fn model() -> Self {
        const STEPS: usize = 16;
        const DAYS: usize = 8;
        let density = |x: f64| if x <= 0.0 { 0.0 } else { libm::exp((ANUM - 1.0) * libm::log(x) - x / BNUM) };
        let mut weights = [0.0; SLOTS];
        for k in 0..SLOTS * DAYS {
            let h = 1.0 / STEPS as f64;
            let mut mass = 0.0;
            for i in 0..STEPS {
                let x0 = k as f64 + i as f64 * h;
                mass += h / 6.0 * (density(x0) + 4.0 * density(x0 + h / 2.0) + density(x0 + h));
            }
            weights[k % SLOTS] += mass;
        }
        let mean = weights.iter().sum::<f64>() / SLOTS as f64;
        for w in &mut weights {
            *w /= mean;
        }
        let mut starts = [0.0; SLOTS + 1];
        for k in 0..SLOTS {
            starts[k + 1] = starts[k] + weights[k] * SLOT_SECONDS;
        }
        Self { weights, starts }
    }

    /// Real time (seconds from the start of day 0) at which `virtual_time`
    /// virtual seconds have elapsed: a continuous, strictly increasing map.
    pub fn real_time(&self, virtual_time: f64) -> f64 {
        let per_day = self.starts[SLOTS];
        let days = libm::floor(virtual_time / per_day);
        let rest = virtual_time - days * per_day;
        let slot = self.starts[1..SLOTS].partition_point(|&s| s <= rest);
        days * DAY + slot as f64 * SLOT_SECONDS + (rest - self.starts[slot]) / self.weights[slot]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daily_cycle_peaks_in_the_afternoon_and_is_low_at_night() {
        let c = DailyCycle::model();
        let hour = |h: usize| c.weights[2 * h] + c.weights[2 * h + 1];
        let peak = (0..24).max_by(|&a, &b| hour(a).total_cmp(&hour(b))).unwrap();
        let low = (0..24).min_by(|&a, &b| hour(a).total_cmp(&hour(b))).unwrap();
        assert!((12..=16).contains(&peak), "peak at {peak} h");
        assert!((2..=6).contains(&low), "low at {low} h");
        assert!(hour(peak) / hour(low) > 4.0);
        assert!((c.weights.iter().sum::<f64>() - SLOTS as f64).abs() < 1e-9);
    }

    #[test]
    fn real_time_is_continuous_and_increasing() {
        let c = DailyCycle::model();
        let mut last = -1.0;
        for i in 0..10_000 {
            let v = i as f64 * 37.3;
            let r = c.real_time(v);
            assert!(r > last, "{v} -> {r} after {last}");
            last = r;
        }
        assert!((c.real_time(DAY) - DAY).abs() < 1e-6);
        assert!((c.real_time(3.0 * DAY) - 3.0 * DAY).abs() < 1e-6);
    }

    #[test]
    fn sizes_stay_on_the_machine() {
        let mut d = Draws::new(1);
        for procs in [1, 2, 3, 7, 100, 128, 430, 1024] {
            for class in [INTERACTIVE, BATCH] {
                for _ in 0..2000 {
                    let s = class.size(procs, &mut d);
                    assert!((1..=procs).contains(&s), "{s} on {procs}");
                }
            }
        }
    }
}
