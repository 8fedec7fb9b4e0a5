//! Formulas of product form, whose order a policy can keep without scoring
//! every waiting job at every pass.
//!
//! A formula is of product form when its tree, above some subexpressions
//! called factors, holds only `*`, `/`, unary `-` and `^` with a
//! whole-number constant exponent, and each factor reads either only what
//! is fixed for a job (a *job factor*: `requested`, `procs`,
//! `log2(procs + 1e-15) * requested`, constants) or only what is common to
//! the jobs submitted in the same second at one pass (a *clock factor*:
//! `wait`, `now`, `free`, `queued`, `wait + 1e-15`). WFP3
//! (`-(wait / requested)^3 * procs`) and UNICEP are of this form. In real
//! arithmetic such a formula is `sign × J × C`, with `J` the product of the
//! job factors (each raised to its exponent) and `C` that of the clock
//! factors; so the jobs submitted in the same second keep the order of `J`
//! at every pass, and the order changes only where the floating-point
//! rounding of nearly equal scores does.
//!
//! The policy must still order jobs exactly as the scores computed in
//! `f64` compare, ties included, so it uses `J` and `C` only for bounds.
//! Each `*` and `/` rounds once (a relative error of at most 2^-53), and
//! `x^n` by repeated squaring rounds at most `|n| + 1` times in the error
//! it compounds, so when every factor is a normal number and no partial
//! product can leave the normal range (checked by the factors' binary
//! exponents, their *weight*), the computed score lies within a relative
//! [`ProductForm::tolerance`] of `sign × J × C` computed in `f64`. A
//! policy files a second's jobs by `sign × J` and, at a pass, reads them in
//! that order, scoring each exactly only when its lower bound could still
//! beat the best exact score found: only jobs within about 10^-14 of each
//! other are scored out of turn.

use crate::code::{emit, power, run, whole_exponent, Op};
use crate::parse::{BinOp, Expr, ExprKind};
use crate::{Formula, Var, Vars};

/// The most a product of factors may weigh (see [`Part`]); two such
/// products together stay below 1,022, the normal range's binary exponent.
const MAX_WEIGHT: u32 = 500;

/// The largest rounding count accepted: beyond it the bounds would be too
/// loose to be worth keeping (and the arithmetic of the count could
/// overflow).
const MAX_ROUNDINGS: u64 = 1 << 20;

/// One factor: a subexpression's code and the exponent it carries in the
/// product (negative under an odd number of divisions).
#[derive(Clone, Debug, PartialEq)]
struct Factor {
    code: Vec<Op>,
    exponent: i64,
}

/// A product of factors for one job or one second at one pass: its value
/// in `f64` and its weight, the sum over its factors of |exponent| ×
/// (|binary exponent| + 1), which bounds the binary exponent of every
/// partial product formed from them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part {
    pub value: f64,
    weight: u32,
}

/// A formula of product form (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct ProductForm {
    /// An odd number of negations above the factors.
    negative: bool,
    jobs: Vec<Factor>,
    clocks: Vec<Factor>,
    /// Roundings the formula's own product performs, weighted by the
    /// exponents above them.
    roundings: u64,
    /// Roundings of computing the job part and the clock part.
    job_roundings: u64,
    clock_roundings: u64,
}

/// What a subexpression reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    /// Only what is fixed for a job, or constants.
    Job,
    /// Only what is common to a second's jobs at one pass (and constants).
    Clock,
    Both,
}

/// Whether `var` is fixed for a job (`Machine` is fixed for every job and
/// counts as such).
fn fixed_for_job(var: Var) -> bool {
    !var.changes_while_waiting()
}

fn reads(e: &Expr) -> Reads {
    let (mut job, mut clock) = (false, false);
    visit_vars(e, &mut |v| {
        if fixed_for_job(v) && v != Var::Machine {
            job = true;
        } else if !fixed_for_job(v) {
            clock = true;
        }
    });
    match (job, clock) {
        (_, false) => Reads::Job,
        (false, true) => Reads::Clock,
        (true, true) => Reads::Both,
    }
}

fn visit_vars(e: &Expr, f: &mut impl FnMut(Var)) {
    match &e.kind {
        ExprKind::Num(_) => {}
        ExprKind::Var(v) => f(*v),
        ExprKind::Neg(a) | ExprKind::Not(a) => visit_vars(a, f),
        ExprKind::Binary(_, a, b) => {
            visit_vars(a, f);
            visit_vars(b, f);
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| visit_vars(a, f)),
    }
}

/// The factors of a product as they are collected.
#[derive(Default)]
struct Collect {
    jobs: Vec<Factor>,
    clocks: Vec<Factor>,
}

impl Collect {
    /// Collects the factors of `e` raised to `exponent`; returns the
    /// roundings of `e`'s product (weighted as its error compounds) and
    /// whether `e` negates its product, or `None` when `e` is not of
    /// product form.
    fn of(&mut self, e: &Expr, exponent: i64) -> Option<(u64, bool)> {
        let kind = reads(e);
        if let (Reads::Clock, ExprKind::Neg(inner)) = (kind, &e.kind) {
            // A clock factor's sign is taken out (negation is exact), so
            // that `-(wait + 1e-15)` counts as a positive clock part: a
            // pass merges only the seconds whose clock part is positive.
            return self.of(inner, exponent).map(|(r, neg)| (r, !neg));
        }
        if kind != Reads::Both {
            let mut code = Vec::new();
            emit(e, &mut code);
            let factor = Factor { code, exponent };
            match kind {
                Reads::Clock => self.clocks.push(factor),
                _ => self.jobs.push(factor),
            }
            return Some((0, false));
        }
        match &e.kind {
            ExprKind::Neg(a) => self.of(a, exponent).map(|(r, neg)| (r, !neg)),
            ExprKind::Binary(op @ (BinOp::Mul | BinOp::Div), a, b) => {
                let (ra, na) = self.of(a, exponent)?;
                let right = if *op == BinOp::Div { exponent.checked_neg()? } else { exponent };
                let (rb, nb) = self.of(b, right)?;
                Some((ra.checked_add(rb)?.checked_add(1)?, na != nb))
            }
            ExprKind::Binary(BinOp::Pow, a, b) => {
                let n = i64::from(whole_exponent(b)?);
                if n == 0 {
                    // `x^0` is exactly 1 whatever x is, NaN included.
                    return Some((0, false));
                }
                let (r, neg) = self.of(a, exponent.checked_mul(n)?)?;
                let own = n.unsigned_abs() + 1 + u64::from(n < 0);
                Some((r.checked_mul(n.unsigned_abs())?.checked_add(own)?, neg && n % 2 != 0))
            }
            _ => None,
        }
    }
}

/// Roundings of computing a product of `factors` by [`product`].
fn product_roundings(factors: &[Factor]) -> Option<u64> {
    factors.iter().try_fold(0u64, |sum, f| sum.checked_add(f.exponent.unsigned_abs().checked_add(2)?))
}

/// The binary exponent of a normal number.
fn binary_exponent(x: f64) -> u32 {
    (((x.to_bits() >> 52) & 0x7ff) as i32 - 1023).unsigned_abs()
}

/// The product of `factors` each raised to its exponent, computed from
/// `vars`, or `None` when a factor is not a normal number or the weight
/// passes [`MAX_WEIGHT`].
fn product(factors: &[Factor], vars: &Vars, stack: &mut Vec<f64>) -> Option<Part> {
    let (mut value, mut weight) = (1.0f64, 0u32);
    for f in factors {
        let x = run(&f.code, vars, stack);
        if !x.is_normal() {
            return None;
        }
        let magnitude = u32::try_from(f.exponent.unsigned_abs()).ok()?;
        weight = weight.checked_add(magnitude.checked_mul(binary_exponent(x) + 1)?)?;
        if weight > MAX_WEIGHT {
            return None;
        }
        // The weight bounds the exponent, so `magnitude` fits an i32.
        let p = power(x, magnitude as i32);
        if f.exponent > 0 {
            value *= p;
        } else {
            value /= p;
        }
    }
    Some(Part { value, weight })
}

impl ProductForm {
    /// The formula's product form, if it has one and reads a variable
    /// that changes while a job waits.
    pub fn of(formula: &Formula) -> Option<ProductForm> {
        if !formula.is_time_dependent() {
            return None;
        }
        let mut c = Collect::default();
        let (roundings, negative) = c.of(formula.tree(), 1)?;
        let form = ProductForm {
            negative,
            job_roundings: product_roundings(&c.jobs)?,
            clock_roundings: product_roundings(&c.clocks)?,
            jobs: c.jobs,
            clocks: c.clocks,
            roundings,
        };
        (form.total_roundings()? <= MAX_ROUNDINGS).then_some(form)
    }

    fn total_roundings(&self) -> Option<u64> {
        self.roundings.checked_add(self.job_roundings)?.checked_add(self.clock_roundings)?.checked_add(1)
    }

    /// −1 when the formula negates the product of its factors, else 1.
    pub fn sign(&self) -> f64 {
        if self.negative {
            -1.0
        } else {
            1.0
        }
    }

    /// The product of the job factors for the job whose variables are
    /// `vars`; `None` when one is not a normal number or they weigh too
    /// much, and then the job must be scored exactly at every pass.
    pub fn job_part(&self, vars: &Vars, stack: &mut Vec<f64>) -> Option<Part> {
        product(&self.jobs, vars, stack)
    }

    /// The product of the clock factors for a second's jobs at a pass
    /// (`vars` holds that pass's `wait`, `now`, `free`, `queued` and
    /// `machine`); `None` as for [`ProductForm::job_part`], and then that
    /// second's jobs must be scored exactly at this pass.
    pub fn clock_part(&self, vars: &Vars, stack: &mut Vec<f64>) -> Option<Part> {
        product(&self.clocks, vars, stack)
    }

    /// The relative distance within which the formula's computed score
    /// lies from `sign × job × clock` computed in `f64`, when both parts
    /// exist: twice the rounding count (plus one) times 2^-53, generous
    /// against the second-order terms.
    pub fn tolerance(&self) -> f64 {
        let n = self.total_roundings().unwrap_or(MAX_ROUNDINGS) as f64;
        2.0 * (n + 1.0) * f64::EPSILON / 2.0
    }

    /// A number no greater than `direction × score` for any job whose job
    /// part has the value `job`, scored at a pass where its second's clock
    /// part is `clock` (`direction` is 1 or −1). For a fixed positive
    /// clock part it does not decrease as `direction × sign × job` grows.
    pub fn lower_bound(&self, direction: f64, clock: Part, job: f64) -> f64 {
        let x = direction * self.sign() * (clock.value * job);
        // Twice the tolerance covers the rounding of these two operations.
        x - x.abs() * (2.0 * self.tolerance())
    }
}

#[cfg(test)]
mod tests;
