//! How failures leave the program: one line on stderr and an exit code.
//!
//! Exit codes: 0 success, 1 a run failed (engine or checker error, a panic,
//! a benchmark child that died), 2 bad usage or input (files, SWF errors,
//! options, parameters, unknown policies, unwritable outputs).

use std::any::Any;
use std::fmt;
use std::io;
use std::process::ExitCode;
use std::sync::Mutex;

/// Exit code of bad usage or input.
pub const USAGE: u8 = 2;
/// Exit code of a run that failed.
pub const FAILED: u8 = 1;

/// Marks an error as a failed run (exit 1) rather than bad input (exit 2).
#[derive(Debug)]
pub struct RunFailure(pub String);

impl fmt::Display for RunFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RunFailure {}

/// An error for a run that failed, with its message.
pub fn run_failure(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(RunFailure(message.into()))
}

/// The error's whole chain on one line, "context: cause: cause". A cause
/// whose text its parent already shows (an error that both displays and
/// chains its source) is not repeated.
pub fn one_line(err: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if parts.last().is_some_and(|p| p.contains(&text)) {
            continue;
        }
        parts.push(text);
    }
    flatten(&parts.join(": "))
}

pub use schedlab_workload::short_text;

/// Newlines and tabs replaced by spaces, so a message stays on one line.
pub fn flatten(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

/// Prints the error and gives its exit code. A closed stdout (`| head`)
/// is not an error worth a message.
pub fn report(err: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(err) {
        return ExitCode::SUCCESS;
    }
    eprintln!("schedlab: error: {}", one_line(err));
    let failed = err.chain().any(|e| e.downcast_ref::<RunFailure>().is_some());
    ExitCode::from(if failed { FAILED } else { USAGE })
}

static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Replaces the default panic message (several lines, a backtrace hint) by
/// a record that `report_panic` prints as one line.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = Some(format!("{}{location}", panic_text(info.payload())));
        }
    }));
}

/// The message of a caught panic.
pub fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_owned()
    }
}

/// The last panic's message with its location, for a caught panic.
pub fn last_panic(payload: &(dyn Any + Send)) -> String {
    let recorded = LAST_PANIC.lock().ok().and_then(|mut l| l.take());
    flatten(&recorded.unwrap_or_else(|| panic_text(payload)))
}

pub fn report_panic(payload: &(dyn Any + Send)) -> ExitCode {
    eprintln!("schedlab: error: internal error (please report): {}", last_panic(payload));
    ExitCode::from(FAILED)
}
