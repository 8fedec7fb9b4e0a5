//! The parameter values this thread read from text, for the tests that
//! prove a number is read once (feature `counters`, which only tests turn
//! on). Per thread, so that tests running side by side do not see each
//! other's readings.

use std::cell::RefCell;

thread_local! {
    static READ: RefCell<Vec<(&'static str, String)>> = const { RefCell::new(Vec::new()) };
}

/// The (key, text) of every value read from text on this thread since the
/// last call, in order.
pub fn take_read() -> Vec<(&'static str, String)> {
    READ.with(|r| std::mem::take(&mut *r.borrow_mut()))
}

pub(crate) fn count(key: &'static str, text: &str) {
    READ.with(|r| r.borrow_mut().push((key, text.to_owned())));
}
