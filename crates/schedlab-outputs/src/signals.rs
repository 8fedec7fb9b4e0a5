//! Undoing this process's unfinished outputs when a signal ends it.

use std::io;

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};

use crate::temp::registry;

/// On SIGINT, SIGTERM, SIGHUP or SIGQUIT, undoes every commit under way
/// (the old files put back), removes every temporary file, and then dies
/// of the signal as the program would have without this handler (exit
/// status 128 + the signal in a shell; SIGQUIT's core dump where the
/// system makes one). For a program's own binary, called once at its
/// start; a host with its own signal handling (Python's
/// `KeyboardInterrupt`) does not call it, and its outputs are still
/// removed when dropped.
pub fn clean_up_on_signals() -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // The lock is held to the end, so no file is made or renamed
            // after this clean-up.
            let mut registry = registry();
            registry.undo_all();
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}
