//! Steps several policies share. They only read and act through `Sim`, so
//! sharing them does not couple one policy to another.

use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Sim, Time};

use crate::book::Book;
use crate::queue_index::QueueIndex;

/// Starts waiting jobs in priority order while the first one fits, telling
/// `started` about each.
pub(crate) fn start_in_order(sim: &mut Sim<'_>, started: &mut dyn FnMut(JobIdx)) -> Result<(), EngineError> {
    while let Some(&head) = sim.waiting().first() {
        if !sim.fits(head) {
            break;
        }
        sim.start(head)?;
        started(head);
    }
    Ok(())
}

/// EASY's reservation for a job of `size` processors that does not fit now:
/// the *shadow time* (the earliest expected end of running jobs at which
/// enough processors are free) and the *extra* processors left over at that
/// time. All jobs expected to end exactly at the shadow time count towards
/// the extra processors.
pub(crate) fn shadow(sim: &Sim<'_>, size: u32) -> (Time, u32) {
    let mut free = sim.free();
    let mut shadow = None;
    for (end, j) in sim.running() {
        match shadow {
            Some(s) if end > s => break,
            _ => free += sim.job(j).size,
        }
        if shadow.is_none() && free >= size {
            shadow = Some(end);
        }
    }
    match shadow {
        Some(s) => (s, free - size),
        // Cannot happen for a job no larger than the machine; answer "never"
        // so that only jobs using spare processors are backfilled.
        None => (Time::MAX, 0),
    }
}

/// FCFS-EASY's backfilling: in priority order from after `after` (from
/// the first waiting job for `None`), every job that fits now and either is
/// expected to end by the shadow time (within `horizon` seconds) or needs
/// only `extra` processors, which it then uses up. Each job started is the
/// first one, after the previous, that qualifies as the free and extra
/// processors stand: the jobs in between did not qualify with more of
/// either, so they are skipped as a scan would skip them.
pub(crate) fn backfill_by_priority(
    sim: &mut Sim<'_>,
    queue: &mut QueueIndex,
    mut after: Option<JobIdx>,
    horizon: Time,
    mut extra: u32,
) -> Result<(), EngineError> {
    while sim.free() > 0 {
        let Some(j) = queue.first_by_priority(sim, after, sim.free(), extra, horizon) else { break };
        if sim.prediction(j) > horizon {
            extra -= sim.job(j).size;
        }
        queue.remove(j);
        sim.start(j)?;
        after = Some(j);
    }
    Ok(())
}

/// The guarantee of reservation-based policies: no job starts after its
/// first reservation, which holds only with runtimes that never fall short.
pub(crate) fn reservation_guarantee(upper_bound: bool) -> Vec<Guarantee> {
    if upper_bound {
        vec![Guarantee::NoLaterThanFirstReservation]
    } else {
        Vec::new()
    }
}

/// The waiting jobs, in priority order, that were already waiting before
/// this pass: a policy that rebuilds its plan places these, and then this
/// pass's arrivals through its own arrival step, so that no job is placed
/// twice.
pub(crate) fn waiting_before<'a>(sim: &'a Sim<'_>, happened: &'a Happened) -> impl Iterator<Item = JobIdx> + 'a {
    sim.waiting().iter().copied().filter(|j| happened.arrived.binary_search(j).is_err())
}

/// Records the planned start of each of `jobs` that has a slot as its
/// reservation, after a compression or a rebuild may have moved them; the
/// engine keeps only the changes, so the run record holds every reservation
/// a job held and when it moved.
pub(crate) fn reserve_planned(sim: &mut Sim<'_>, book: &Book, jobs: &[JobIdx]) {
    for &j in jobs {
        if let Some(slot) = book.slot(j) {
            sim.reserve(j, slot.start);
        }
    }
}
