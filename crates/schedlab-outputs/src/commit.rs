//! Putting every staged file in place, all or nothing.
//!
//! POSIX can rename one file atomically, never a set. So a commit keeps
//! each old file until every rename is done, and can put them all back:
//!
//! 1. every target is checked to be still a regular file or absent (one
//!    that became a directory while the command ran stops the commit here,
//!    before anything changed);
//! 2. each existing target gets a hard-linked backup beside it
//!    (`.PID-N.schedlab-old`; a copy where the file system has no hard
//!    links), recorded in a journal;
//! 3. the temporary files are renamed over their targets one by one, each
//!    rename recorded;
//! 4. the directories are synced and the backups removed.
//!
//! A rename that fails in step 3 undoes the earlier ones (each backup
//! renamed back over its target, a target that did not exist removed), and
//! so does a signal caught by `clean_up_on_signals` at any point: every
//! step holds the registry's lock, which the signal's clean-up takes, so it
//! sees each rename done or not begun. What is guaranteed: a failed commit,
//! or a process ended by SIGINT, SIGTERM, SIGHUP or SIGQUIT, leaves every
//! target as it was (the same inode, content and mode) and no temporary or
//! backup file; a commit that returned `Ok` left every target new. What is
//! not: a process killed by SIGKILL or a power cut during step 3 may leave
//! some targets new and some old, with the old ones' backups
//! (`.PID-N.schedlab-old`) beside them; readers see at every instant each
//! target old or whole new, never a part.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::OutputError;
use crate::target::parent;
use crate::temp::{new_beside, registry, Registry, Temp};
use crate::Staged;

/// One target of a commit under way.
#[derive(Debug)]
struct Replacement {
    temp: PathBuf,
    target: PathBuf,
    /// The old file, hard-linked, when the target existed.
    backup: Option<PathBuf>,
    renamed: bool,
}

/// A commit under way, in the registry so that a signal can undo it.
#[derive(Debug)]
pub(crate) struct Journal {
    id: u64,
    steps: Vec<Replacement>,
}

/// A restore that failed: the target, its kept backup, and why.
type Unrestored = (PathBuf, PathBuf, io::Error);

impl Journal {
    /// Puts every target back as it was and removes every file the commit
    /// made. The first restore that failed is returned, its backup kept.
    pub(crate) fn undo(&mut self) -> Option<Unrestored> {
        let mut failed = None;
        for step in self.steps.iter_mut().rev() {
            let undone = match (step.renamed, &step.backup) {
                (true, Some(backup)) => fs::rename(backup, &step.target),
                (true, None) => remove_if_present(&step.target),
                (false, backup) => {
                    let _ = remove_if_present(&step.temp);
                    backup.as_ref().map_or(Ok(()), remove_if_present)
                }
            };
            if let Err(e) = undone {
                let backup = step.backup.clone().unwrap_or_default();
                failed.get_or_insert((step.target.clone(), backup, e));
            }
        }
        self.steps.clear();
        failed
    }
}

impl Registry {
    /// Undoes every commit under way and removes every temporary file: a
    /// signal's clean-up.
    pub(crate) fn undo_all(&mut self) {
        for mut journal in self.journals.drain(..) {
            if let Some((target, backup, e)) = journal.undo() {
                eprintln!(
                    "could not put back {}: {e}; its old content is kept as {}",
                    target.display(),
                    backup.display()
                );
            }
        }
        for temp in self.temps.drain(..) {
            let _ = fs::remove_file(temp);
        }
    }

    fn journal(&mut self, id: u64) -> &mut Journal {
        self.journals.iter_mut().find(|j| j.id == id).expect("a commit's journal stays until it ends")
    }

    fn take_journal(&mut self, id: u64) -> Option<Journal> {
        let at = self.journals.iter().position(|j| j.id == id)?;
        Some(self.journals.swap_remove(at))
    }
}

fn remove_if_present(path: &PathBuf) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Renames every staged file over its target, all or nothing (see the
/// module's documentation). Streams were written when staged.
pub fn commit(staged: Vec<Staged>) -> Result<(), OutputError> {
    commit_observed(staged, |_| {})
}

/// [`commit`], calling `between(i)` before the `i`-th rename and after the
/// last (`i` = the number of files): the tests pause there to signal the
/// process at every point of a commit.
pub fn commit_observed(staged: Vec<Staged>, mut between: impl FnMut(usize)) -> Result<(), OutputError> {
    let mut files: Vec<(Temp, PathBuf)> = staged.into_iter().filter_map(|mut s| s.temp.take()).collect();
    if files.is_empty() {
        return Ok(());
    }
    for (_, target) in &files {
        still_a_file(target)?;
    }
    let id = begin(&mut files)?;
    for i in 0..files.len() {
        between(i);
        let mut registry = registry();
        let step = &mut registry.journal(id).steps[i];
        match fs::rename(&step.temp, &step.target) {
            Ok(()) => step.renamed = true,
            Err(e) => {
                let path = step.target.clone();
                let mut journal = registry.take_journal(id).expect("the journal of this commit");
                return Err(match journal.undo() {
                    None => OutputError::Commit { path, source: e },
                    Some((restore, backup, _)) => OutputError::Restore { path, source: e, restore, backup },
                });
            }
        }
    }
    between(files.len());
    finish(id);
    Ok(())
}

/// A target that stopped being a regular file (a directory made at its
/// path while the command ran) stops the commit before anything changed.
fn still_a_file(target: &Path) -> Result<(), OutputError> {
    match fs::symlink_metadata(target) {
        Ok(meta) if !meta.is_file() => Err(OutputError::Commit {
            path: target.to_path_buf(),
            source: io::Error::other(
                "it is no longer a regular file (it became a directory or another kind of file while the command ran)",
            ),
        }),
        _ => Ok(()),
    }
}

/// Records the commit's journal with a backup of every existing target.
fn begin(files: &mut [(Temp, PathBuf)]) -> Result<u64, OutputError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut registry = registry();
    registry.journals.push(Journal { id, steps: Vec::with_capacity(files.len()) });
    for (temp, target) in files.iter_mut() {
        let temp = temp.release(&mut registry);
        let backup = backup(target);
        let failed = backup.as_ref().err().map(|e| io::Error::new(e.kind(), e.to_string()));
        let backup = backup.unwrap_or(None);
        registry.journal(id).steps.push(Replacement { temp, target: target.clone(), backup, renamed: false });
        if let Some(e) = failed {
            registry.take_journal(id).expect("the journal of this commit").undo();
            return Err(OutputError::Commit { path: target.clone(), source: e });
        }
    }
    Ok(id)
}

/// A second name for the old file beside it, when there is one.
fn backup(target: &Path) -> io::Result<Option<PathBuf>> {
    if fs::symlink_metadata(target).is_err() {
        return Ok(None);
    }
    let (path, ()) = new_beside(target, "old", |p| match fs::hard_link(target, p) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => fs::copy(target, p).map(drop),
        linked => linked,
    })?;
    Ok(Some(path))
}

/// Syncs the targets' directories, so that the renames survive a crash,
/// then removes the backups and forgets the journal.
fn finish(id: u64) {
    let mut registry = registry();
    let Some(journal) = registry.take_journal(id) else { return };
    let mut dirs: Vec<&Path> = journal.steps.iter().map(|s| parent(&s.target)).collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        // A directory that cannot be synced (some file systems refuse) only
        // loses the durability of the renames, which are done.
        let _ = fs::File::open(dir).and_then(|d| d.sync_all());
    }
    for step in &journal.steps {
        if let Some(backup) = &step.backup {
            let _ = fs::remove_file(backup);
        }
    }
}
