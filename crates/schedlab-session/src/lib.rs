//! The one host layer. A [`Session`] is a loaded trace and everything a
//! front end asks of it: runs, experiments through a checked plan,
//! schedules and exports. The command line, the page's WebAssembly binding
//! and the Python extension each translate their arguments into the calls
//! of this crate and its results back into their own terms, nothing else,
//! so a run option or a check added here reaches the three at once.
//!
//! Like the core, the session does no I/O of its own: it reads the bytes
//! it is given and writes into the writers it is given, so it builds for
//! WebAssembly too. Every error is a [`SessionError`] of one
//! [`ErrorKind`].

mod error;

pub use error::{ErrorKind, SessionError};
