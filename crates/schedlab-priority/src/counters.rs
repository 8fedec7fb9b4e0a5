//! The formulas this thread compiled, for the tests that prove a run
//! compiles its formula once (feature `counters`, which only tests turn
//! on). Per thread, so that tests running side by side do not see each
//! other's compilations.

use std::cell::RefCell;

thread_local! {
    static COMPILED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// The sources compiled on this thread since the last call, in order.
pub fn take_compiled() -> Vec<String> {
    COMPILED.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

pub(crate) fn count(source: &str) {
    COMPILED.with(|c| c.borrow_mut().push(source.to_owned()));
}
