//! Selective reservation (Srinivasan, Kettimuthu, Subramani and Sadayappan
//! 2002), variants Sel and Sel-D.
//!
//! Jobs enter a *no-guarantee* queue, served in priority (FCFS) order with
//! free backfilling: at every pass each unreserved job that fits now
//! without touching any reservation starts. A job moves to the
//! *all-guaranteed* queue, and gets a conservative reservation (the
//! earliest slot that delays no other reservation), when its expansion
//! factor XF = (wait + estimate) / estimate reaches the starvation
//! threshold T. That happens at the first whole second t with
//! t − submit ≥ (T − 1) × estimate, so the policy sets a timer for
//! t = submit + ⌈(T − 1) × estimate⌉ when the job arrives and promotes it
//! in that very pass (T ≤ 1: promoted on arrival). "Estimate" is the
//! runtime the scheduler plans with: the user's estimate with the
//! `estimate` source, the runtime with `exact` (the paper's "accurate
//! estimates" experiments).
//!
//! Reservations are compressed like CBF's when a job ends early: in
//! priority order each reserved job gives back its slot and takes the
//! earliest one now free, never a later one. So with `estimate` or `exact`
//! a promoted job starts no later than the reservation it got at its
//! promotion, which is recorded (`Sim::reserve`) and verified by the run
//! checker. Unreserved jobs record no reservation.
//!
//! Sel uses one threshold; Sel-D one per category SN, SW, LN, LW (the run's
//! category limits, a job classified by its planned runtime and its size).
//! By default the thresholds come from a calibration CBF run of the same
//! trace: the mean bounded slowdown of its well-estimated jobs (runtime at
//! least half the estimate), overall or per category (paper §4.3); a
//! threshold given as a number (> 0) overrides it.

use std::cell::RefCell;
use std::collections::BTreeMap;

use schedlab_engine::params::ParamSet;
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim, Time};

use crate::book::{Book, WAKE};
use crate::queue_index::{Orders, QueueIndex};
use crate::{Calibration, Categories, ParamCondition, PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "selective",
    name: "Selective reservation",
    description: "Jobs wait without a guarantee and backfill freely; a job gets a conservative reservation once \
                  its expansion factor (wait + estimate) / estimate reaches the starvation threshold (Sel: one \
                  threshold; Sel-D: one per category SN, SW, LN, LW). Default thresholds: the mean bounded \
                  slowdown of well-estimated jobs in a CBF run of the same trace. Srinivasan et al. 2002.",
    params: SelectiveParams::SPECS,
    uses_runtime_source: true,
    default_source: "estimate",
    uses_seed: false,
    on_nodes: crate::OnNodes::Refuses("its profile plans processors, not nodes"),
    build: |values, s| build(SelectiveParams::read(values), s),
    needs_calibration: |values| needs_calibration(&SelectiveParams::read(values)),
    conditions: &[
        ParamCondition { param: "threshold", when: "variant", is: &["sel"] },
        ParamCondition { param: "threshold_sn", when: "variant", is: &["sel-d"] },
        ParamCondition { param: "threshold_sw", when: "variant", is: &["sel-d"] },
        ParamCondition { param: "threshold_ln", when: "variant", is: &["sel-d"] },
        ParamCondition { param: "threshold_lw", when: "variant", is: &["sel-d"] },
    ],
};

schedlab_engine::param_choice! {
    /// One threshold, or one per category.
    pub(crate) enum Variant {
        Sel = "sel",
        SelD = "sel-d",
    }
}

schedlab_engine::param_set! {
    pub(crate) struct SelectiveParams {
        variant: Choice<Variant> { default: Variant::Sel },
            name: "Variant",
            description: "sel: one starvation threshold; sel-d: one per job category (SN, SW, LN, LW).";
        threshold: Float { min: 0.0, max: 1e9, default: 0.0 },
            name: "Threshold",
            description: "Sel's starvation threshold (expansion factor); 0 = from a CBF run.";
        threshold_sn: Float { min: 0.0, max: 1e9, default: 0.0 },
            name: "Threshold SN",
            description: "Sel-D threshold of short narrow jobs; 0 = from a CBF run.";
        threshold_sw: Float { min: 0.0, max: 1e9, default: 0.0 },
            name: "Threshold SW",
            description: "Sel-D threshold of short wide jobs; 0 = from a CBF run.";
        threshold_ln: Float { min: 0.0, max: 1e9, default: 0.0 },
            name: "Threshold LN",
            description: "Sel-D threshold of long narrow jobs; 0 = from a CBF run.";
        threshold_lw: Float { min: 0.0, max: 1e9, default: 0.0 },
            name: "Threshold LW",
            description: "Sel-D threshold of long wide jobs; 0 = from a CBF run.";
    }
}

impl SelectiveParams {
    /// The thresholds as given (0: from a CBF run): Sel's one four times,
    /// or Sel-D's per category SN, SW, LN, LW.
    fn given(&self) -> [f64; 4] {
        match self.variant {
            Variant::Sel => [self.threshold; 4],
            Variant::SelD => [self.threshold_sn, self.threshold_sw, self.threshold_ln, self.threshold_lw],
        }
    }
}

/// A CBF calibration run is needed when a threshold the variant uses is
/// left at 0 ("from a CBF run").
fn needs_calibration(p: &SelectiveParams) -> bool {
    p.given().iter().any(|&t| t <= 0.0)
}

/// The four thresholds (SN, SW, LN, LW) the policy uses: Sel's single one
/// four times, or Sel-D's, each from its parameter or the calibration.
pub(crate) fn thresholds(p: &SelectiveParams, calibration: Option<&Calibration>) -> [f64; 4] {
    let calibrated: [Option<f64>; 4] = match (p.variant, calibration) {
        (_, None) => [None; 4],
        (Variant::Sel, Some(c)) => [Some(c.well_estimated_bsd); 4],
        (Variant::SelD, Some(c)) => c.well_estimated_bsd_by_category.map(Some),
    };
    let given = p.given();
    std::array::from_fn(|k| if given[k] > 0.0 { given[k] } else { calibrated[k].unwrap_or(1.0) })
}

fn build(p: SelectiveParams, s: &PolicySettings) -> Box<dyn Policy> {
    Box::new(Selective {
        thresholds: thresholds(&p, s.calibration.as_ref()),
        categories: s.categories,
        upper_bound: s.source.is_upper_bound(),
        book: Book::default(),
        reserved: Vec::new(),
        unreserved: QueueIndex::new(Orders { by_priority: true, by_prediction: false }, s.source),
        order: Vec::new(),
    })
}

/// The first whole second at which a job submitted at `submit`, planned to
/// run `runtime` s, reaches expansion factor `threshold`:
/// submit + ⌈(threshold − 1) × runtime⌉, and the submit time itself for a
/// threshold of 1 or less.
pub(crate) fn promotion_time(submit: Time, runtime: Time, threshold: f64) -> Time {
    let wait = ((threshold - 1.0) * runtime.max(1) as f64).ceil();
    if wait <= 0.0 {
        submit
    } else if wait >= (Time::MAX - submit) as f64 {
        Time::MAX
    } else {
        submit + wait as Time
    }
}

struct Selective {
    thresholds: [f64; 4],
    categories: Categories,
    upper_bound: bool,
    book: Book,
    /// Per job: promoted (holds a reservation while waiting).
    reserved: Vec<bool>,
    /// The no-guarantee queue: waiting jobs not promoted, indexed.
    unreserved: QueueIndex,
    order: Vec<JobIdx>,
}

impl Policy for Selective {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        if self.reserved.is_empty() {
            self.reserved = vec![false; sim.jobs().len()];
        }
        let changes = self.book.begin(sim, happened);
        self.unreserved.refresh(sim, happened);
        if changes.overcommitted {
            self.rebuild(sim);
        } else if changes.early {
            self.compress(sim);
        }
        if changes.overcommitted || changes.early {
            crate::common::reserve_planned(sim, &self.book, &self.order);
        }
        for &j in &happened.arrived {
            self.arrive(sim, j)?;
        }
        for &tag in &happened.timers {
            if tag != WAKE {
                self.promote(sim, (tag - 1) as JobIdx);
            }
        }
        self.book.start_due(sim)?;
        self.backfill(sim)?;
        self.book.set_wake(sim)
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        crate::common::reservation_guarantee(self.upper_bound)
    }
}

impl Selective {
    /// Sets the promotion timer of an arriving job (or promotes it at once).
    fn arrive(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<(), EngineError> {
        let job = sim.job(j);
        let runtime = sim.prediction(j);
        let threshold = self.thresholds[self.categories.index(runtime, job.size)];
        let at = promotion_time(job.submit, runtime, threshold);
        if at <= sim.now() {
            self.promote(sim, j);
        } else if at < Time::MAX {
            sim.set_timer(at, u64::from(j) + 1)?;
        }
        Ok(())
    }

    /// Gives a still-waiting, unreserved job its conservative reservation.
    fn promote(&mut self, sim: &mut Sim<'_>, j: JobIdx) {
        if !sim.is_waiting(j) || self.reserved[j as usize] {
            return;
        }
        self.reserved[j as usize] = true;
        self.unreserved.remove(j);
        let start = self.book.place(sim, j, sim.now());
        sim.reserve(j, start);
    }

    /// Reserved jobs, in priority order, move to the earliest slot now free.
    fn compress(&mut self, sim: &mut Sim<'_>) {
        self.order.clear();
        self.book.compress(sim, &mut self.order);
    }

    /// After an overcommitment (runtimes that fall short): reserved jobs
    /// are placed again from scratch, in priority order.
    fn rebuild(&mut self, sim: &mut Sim<'_>) {
        self.book.reset(sim);
        self.collect_reserved(sim);
        self.book.place_all(sim, &self.order);
    }

    fn collect_reserved(&mut self, sim: &Sim<'_>) {
        self.order.clear();
        let reserved = &self.reserved;
        self.order.extend(sim.waiting().iter().copied().filter(|&j| reserved[j as usize]));
    }

    /// The no-guarantee queue in priority order: every unreserved job that
    /// fits now without touching a reservation starts. A job of size n fits
    /// now iff n processors are free and its prediction is at most how long
    /// they stay free (`Book::free_for`), which only shrinks as jobs start;
    /// so each start is the first job, after the previous one, that fits as
    /// things stand, and the jobs in between, which did not fit before,
    /// still do not.
    fn backfill(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let mut after = None;
        // How long n processors stay free, by n, computed when needed and
        // forgotten after each start (a map, not a table by size: machines
        // may have billions of processors).
        let lasts: RefCell<BTreeMap<u32, Time>> = RefCell::new(BTreeMap::new());
        while sim.free() > 0 {
            let free = sim.free();
            let book = &self.book;
            let stays = |size: u32| {
                if size > free {
                    return 0;
                }
                *lasts.borrow_mut().entry(size).or_insert_with(|| book.free_for(sim, size))
            };
            // A larger job has at most as long: a subtree's least size
            // bounds how long any of its jobs may run.
            let enter =
                |least_size: u32, least_prediction: Time| least_size <= free && least_prediction <= stays(least_size);
            let accept = |size: u32, prediction: Time| size <= free && prediction <= stays(size);
            let Some(j) = self.unreserved.first_by_priority_where(sim, after, free, &enter, &accept) else { break };
            after = Some(j);
            if self.book.fits_now(sim, j) {
                self.unreserved.remove(j);
                self.book.start_now(sim, j)?;
                lasts.borrow_mut().clear();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each threshold is the given one, or the calibration's of its
    /// category (Sel: the overall one), or 1 without a calibration.
    #[test]
    fn thresholds_come_from_the_fields_or_the_calibration() {
        let calibration = Calibration {
            reference: "cbf@estimate".to_string(),
            mean_wait: 0.0,
            well_estimated_bsd: 3.5,
            well_estimated_bsd_by_category: [1.5, 2.5, 3.5, 4.5],
        };
        let sel = SelectiveParams::default();
        assert_eq!(thresholds(&sel, Some(&calibration)), [3.5; 4]);
        assert_eq!(thresholds(&sel, None), [1.0; 4]);
        let sel = SelectiveParams { threshold: 7.0, threshold_sn: 9.0, ..SelectiveParams::default() };
        assert_eq!(thresholds(&sel, Some(&calibration)), [7.0; 4], "Sel reads no Sel-D threshold");
        let sel_d = SelectiveParams { variant: Variant::SelD, threshold: 7.0, threshold_sw: 2.0, ..sel };
        assert_eq!(thresholds(&sel_d, Some(&calibration)), [9.0, 2.0, 3.5, 4.5]);
        assert_eq!(thresholds(&sel_d, None), [9.0, 2.0, 1.0, 1.0]);
    }

    #[test]
    fn promotion_is_at_the_first_second_the_expansion_factor_reaches_the_threshold() {
        // (submit, runtime, threshold, promotion time), by hand:
        // XF(t) = (t − submit + runtime) / runtime.
        let cases: &[(Time, Time, f64, Time)] = &[
            (0, 100, 1.5, 50),    // XF(50) = 150/100 = 1.5 exactly
            (10, 100, 1.505, 61), // (T−1)·r = 50.5 → 51: XF(61) = 151/100 ≥ 1.505 > XF(60)
            (0, 3, 2.0, 3),       // XF(3) = 6/3 = 2
            (7, 100, 1.0, 7),     // threshold 1: at once
            (7, 100, 0.5, 7),     // below 1: at once
            (0, 0, 3.0, 2),       // zero-length job planned as 1 s
        ];
        for &(submit, runtime, t, at) in cases {
            assert_eq!(promotion_time(submit, runtime, t), at, "{submit} {runtime} {t}");
        }
        assert_eq!(promotion_time(0, 100, 1e300), Time::MAX);
    }
}
