//! What can go wrong with an output, as a typed value the hosts turn into
//! their own errors (the command line's exit 2, Python's exception).

use std::io;
use std::path::{Path, PathBuf};

/// An output refused, unwritable or not committed. Its text names the
/// output (the flag or argument the user gave) and the path.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output is refused before any work: the reason says why.
    #[error("{label} {}: {reason}", path.display())]
    Refused { label: String, path: PathBuf, reason: Refusal },
    /// No file can be made where the output goes (a missing or read-only
    /// directory, a name too long, a link that cannot be read).
    #[error("{label} {}: cannot write there: {source}", path.display())]
    Unwritable {
        label: String,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// Writing the content failed (a full disk, a closed pipe); the target
    /// is as it was.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// Replacing the targets failed part way; every target that had been
    /// replaced was put back, so all are as they were.
    #[error("cannot replace {}: {source}; every output was left as it was", path.display())]
    Commit {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// Replacing the targets failed part way and putting an old file back
    /// failed too: the old content is kept in the backup file named here.
    #[error(
        "cannot replace {}: {source}; and the old {} could not be put back: it is kept as {}",
        path.display(), restore.display(), backup.display()
    )]
    Restore {
        path: PathBuf,
        #[source]
        source: io::Error,
        restore: PathBuf,
        backup: PathBuf,
    },
}

/// Why an output is refused before any work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("is the input {0}: refusing to overwrite it")]
    IsInput(String),
    #[error("is also the output of {0}: give each output its own file")]
    SameAs(String),
    #[error("is a directory")]
    Directory,
    #[error("ends with `/`, so it names a directory, not a file: drop the `/` to write a file")]
    TrailingSlash,
    #[error("is a socket, which cannot be opened as a file")]
    Socket,
    #[error("does not name a file")]
    NoFileName,
    #[error("has more than {0} symbolic links in a row (a loop?)")]
    LinkLoop(usize),
    #[error("is no longer a regular file (it became a directory or a special file while the command ran)")]
    Changed,
}

impl OutputError {
    pub(crate) fn refused(label: &str, path: &Path, reason: Refusal) -> Self {
        OutputError::Refused { label: label.to_owned(), path: path.to_path_buf(), reason }
    }

    pub(crate) fn unwritable(label: &str, path: &Path, source: io::Error) -> Self {
        OutputError::Unwritable { label: label.to_owned(), path: path.to_path_buf(), source }
    }
}
