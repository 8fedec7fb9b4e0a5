//! The progress observer of a run whose GIL is released: at each of the
//! engine's progress reports (every `PROGRESS_EVERY` events) it takes the
//! GIL back for a moment to run Python's signal handlers (so Ctrl-C raises
//! `KeyboardInterrupt` and cancels the run) and to call the caller's
//! progress callback, whose exception cancels the run too.

use pyo3::prelude::*;
use schedlab::engine::{Control, Progress};
use schedlab::experiment::Phase;

pub struct Observer {
    callback: Option<Py<PyAny>>,
    /// The point being run and how many there are.
    pub point: u64,
    pub points: u64,
    /// What stopped the run, raised once the engine has returned.
    error: Option<PyErr>,
}

impl Observer {
    pub fn new(callback: Option<Py<PyAny>>, points: u64) -> Self {
        Observer { callback, point: 0, points, error: None }
    }

    /// Called by the engine without the GIL.
    pub fn report(&mut self, phase: Phase, p: Progress) -> Control {
        let outcome = Python::attach(|py| {
            py.check_signals()?;
            if let Some(callback) = &self.callback {
                let args = (self.point, self.points, phase.step, phase.steps, phase.label, p.completed, p.jobs);
                callback.call1(py, args)?;
            }
            Ok(())
        });
        match outcome {
            Ok(()) => Control::Continue,
            Err(e) => {
                self.error = Some(e);
                Control::Cancel
            }
        }
    }

    /// The Python error that cancelled the run, if any: it takes precedence
    /// over the engine's "cancelled" error.
    pub fn take_error(&mut self) -> Option<PyErr> {
        self.error.take()
    }

    /// Checks for Ctrl-C between points (a short run may make no progress
    /// report at all); called without the GIL.
    pub fn between_points(&mut self) -> Control {
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => Control::Continue,
            Err(e) => {
                self.error = Some(e);
                Control::Cancel
            }
        }
    }
}
