//! The paper's cost model: a job's priority and slack, and what a candidate
//! schedule costs (the newcomer's own term and each moved job's term),
//! with the weights as exponents. Pure arithmetic, tested by hand-computed
//! values; the policy in `slack.rs` builds the candidates it prices.

use schedlab_engine::Time;

/// The four weights, used as exponents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Weights {
    pub u: f64,
    pub t: f64,
    pub p: f64,
    pub f: f64,
}

/// `p` from user, political and scheduler priorities; −1 when the
/// political priority is −1 (quota exceeded).
pub(crate) fn priority(up: f64, pp: f64, sp: f64) -> f64 {
    if pp <= -1.0 {
        -1.0
    } else {
        (up + pp + sp) / 3.0
    }
}

/// `s0 = (1 − p) × SF × AWT`, infinite for `p = −1`.
pub(crate) fn initial_slack(p: f64, sf: f64, awt: f64) -> f64 {
    if p <= -1.0 {
        f64::INFINITY
    } else {
        (1.0 - p) * sf * awt
    }
}

/// `SP = min((te − now) / (2 × AWT), 1)`.
pub(crate) fn scheduler_priority(planned_wait: Time, awt: f64) -> f64 {
    (planned_wait.max(0) as f64 / (2.0 * awt)).min(1.0)
}

fn power(x: f64, w: f64) -> f64 {
    if w == 1.0 {
        x
    } else {
        x.powf(w)
    }
}

const MIN_PRIORITY: f64 = 0.01;

/// The new job's own term: `(te − now)^θt × n^θu`.
pub(crate) fn own_cost(wait: Time, size: u32, w: &Weights) -> f64 {
    power(wait.max(0) as f64, w.t) * power(f64::from(size), w.u)
}

/// What a moved job brings to `cost`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Moved {
    pub size: u32,
    pub priority: f64,
    pub initial_slack: f64,
    pub slack: f64,
}

/// `cost(ji, ti, j)`; `None` (infinite) if `ti` is a delay that overdraws
/// the slack. `newcomer` is `pj`, or `None` for the remove step's dummy job.
///
/// Only a delay (`ti > 0`) can overdraw a slack: a job that stays or moves
/// earlier is always allowed, even when its slack is already negative (a
/// rebuild after a running job outlived its prediction charges moves that
/// no price accepted). Refusing those would drop every candidate holding
/// such a job, compression after an early end included, and leave the
/// machine idle.
pub(crate) fn move_cost(m: &Moved, t: Time, newcomer: Option<f64>, w: &Weights) -> Option<f64> {
    if t > 0 && t as f64 > m.slack {
        return None;
    }
    if t == 0 {
        return Some(0.0);
    }
    let ratio_p = newcomer.map_or(1.0, |pj| m.priority.max(MIN_PRIORITY) / pj.max(MIN_PRIORITY));
    let ratio_f = if m.initial_slack.is_infinite() { 1.0 } else { m.initial_slack / m.slack.max(1.0) };
    let magnitude =
        power(f64::from(m.size), w.u) * power(t.unsigned_abs() as f64, w.t) * power(ratio_p, w.p) * power(ratio_f, w.f);
    Some(if t > 0 { magnitude } else { -magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: Weights = Weights { u: 1.0, t: 1.0, p: 1.0, f: 1.0 };

    #[test]
    fn priority_and_slack_by_hand() {
        // Equal scenario: UP = PP = 0, SP = 1/2 → p = 1/6;
        // s0 = (5/6) × 3 × 2401 = 6002.5.
        let p = priority(0.0, 0.0, 0.5);
        assert!((p - 1.0 / 6.0).abs() < 1e-15);
        assert!((initial_slack(p, 3.0, 2401.0) - 6002.5).abs() < 1e-9);
        // Every fifth job: UP = PP = 1 → p = 2.5/3 = 5/6, s0 = (1/6) × 3 × 2401.
        let hi = priority(1.0, 1.0, 0.5);
        assert!((initial_slack(hi, 3.0, 2401.0) - 1200.5).abs() < 1e-9);
        // Quota exceeded: PP = −1 → p = −1, infinite slack.
        assert_eq!(priority(0.5, -1.0, 0.5), -1.0);
        assert!(initial_slack(-1.0, 3.0, 2401.0).is_infinite());
        // SP after placement: 0 s → 0, one AWT → 1/2, two or more → 1.
        assert_eq!(scheduler_priority(0, 2401.0), 0.0);
        assert_eq!(scheduler_priority(2401, 2401.0), 0.5);
        assert_eq!(scheduler_priority(10_000, 2401.0), 1.0);
    }

    #[test]
    fn costs_by_hand() {
        // A 4-processor job with p = 1/3, s0 = 600, s = 300 is delayed 10 s
        // for a newcomer of p = 1/6: 4 × 10 × 2 × 2 = 160.
        let m = Moved { size: 4, priority: 1.0 / 3.0, initial_slack: 600.0, slack: 300.0 };
        let c = move_cost(&m, 10, Some(1.0 / 6.0), &ONE).unwrap();
        assert!((c - 160.0).abs() < 1e-9, "{c}");
        // Moved 10 s earlier: the same magnitude, negative (a profit).
        assert!((move_cost(&m, -10, Some(1.0 / 6.0), &ONE).unwrap() + 160.0).abs() < 1e-9);
        // Delayed past its slack: rejected; exactly its slack: allowed.
        assert_eq!(move_cost(&m, 301, Some(1.0 / 6.0), &ONE), None);
        assert!(move_cost(&m, 300, Some(1.0 / 6.0), &ONE).is_some());
        // Remove step (dummy newcomer): priority ratio 1 → 4 × 10 × 2 = 80.
        assert!((move_cost(&m, 10, None, &ONE).unwrap() - 80.0).abs() < 1e-9);
        // Weights as exponents: θu = θt = θf = 0.5, θp = 1:
        // 4^0.5 × 16^0.5 × 2 × 2^0.5 = 2 × 4 × 2 × √2.
        let half = Weights { u: 0.5, t: 0.5, p: 1.0, f: 0.5 };
        let c = move_cost(&m, 16, Some(1.0 / 6.0), &half).unwrap();
        assert!((c - 16.0 * 2f64.sqrt()).abs() < 1e-9, "{c}");
        // The newcomer's own term: (te − now) × n = 30 × 5.
        assert_eq!(own_cost(30, 5, &ONE), 150.0);
    }

    #[test]
    fn a_negative_slack_refuses_only_delays() {
        // A rebuild charged 50 s more than the slack had: s = −50, s0 = 600.
        let m = Moved { size: 4, priority: 1.0 / 3.0, initial_slack: 600.0, slack: -50.0 };
        assert_eq!(move_cost(&m, 0, Some(1.0 / 6.0), &ONE), Some(0.0), "staying put is free");
        // 10 s earlier: 4 × 10 × 2 × (600 / max(−50, 1) = 600) = 48,000, a profit.
        let earlier = move_cost(&m, -10, Some(1.0 / 6.0), &ONE).expect("an earlier start is allowed");
        assert!((earlier + 48_000.0).abs() < 1e-6, "{earlier}");
        assert!(move_cost(&m, -10, None, &ONE).is_some(), "compression (remove step) is allowed");
        assert_eq!(move_cost(&m, 1, Some(1.0 / 6.0), &ONE), None, "any delay overdraws it");
    }
}
