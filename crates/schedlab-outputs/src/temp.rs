//! Temporary files beside their targets, and the registry of every file
//! this process made that is not yet in place (temporary files, the
//! journals of commits under way), so that a signal can undo them all.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::commit::Journal;
use crate::target::parent;

/// What this process has made and not yet put in place. A file is created,
/// renamed and removed under this lock, so a signal's clean-up sees each
/// step either done or not begun.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    pub(crate) temps: Vec<PathBuf>,
    pub(crate) journals: Vec<Journal>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { temps: Vec::new(), journals: Vec::new() });

pub(crate) fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How many names are tried when one is taken (a file left by a process
/// of the same id that was killed with SIGKILL) before giving up.
const NAME_ATTEMPTS: usize = 64;

/// A new file beside `target` named `.PID-N.schedlab-SUFFIX`, so that a
/// rename stays on one file system. It does not repeat the target's name,
/// so that any legal name (up to 255 bytes) leaves room for it. `make`
/// creates it and fails with `AlreadyExists` when the name is taken; the
/// next number is then tried. An error names the file.
pub(crate) fn new_beside<T>(
    target: &Path,
    suffix: &str,
    mut make: impl FnMut(&Path) -> io::Result<T>,
) -> io::Result<(PathBuf, T)> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let mut last = None;
    for _ in 0..NAME_ATTEMPTS {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = parent(target).join(format!(".{}-{n}.schedlab-{suffix}", std::process::id()));
        match make(&path) {
            Ok(made) => return Ok((path, made)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(path),
            Err(e) => return Err(io::Error::new(e.kind(), format!("cannot create {}: {e}", path.display()))),
        }
    }
    let taken = last.map_or_else(String::new, |p| p.display().to_string());
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{NAME_ATTEMPTS} temporary names beside the target are taken (the last {taken}): remove leftover .schedlab-* files"),
    ))
}

/// A temporary file that exists, removed when dropped unless it was handed
/// to a commit.
#[derive(Debug)]
pub(crate) struct Temp {
    path: Option<PathBuf>,
}

impl Temp {
    /// Creates a new empty temporary file beside `target` and records it.
    /// When `mode` is given (the mode of the file it will replace), the
    /// file has exactly that mode from its creation, umask aside, so a
    /// private file's content is never readable by others.
    pub(crate) fn create(target: &Path, mode: Option<u32>) -> io::Result<(Temp, File)> {
        let mut registry = registry();
        let (path, file) = new_beside(target, "tmp", |p| open_new(p, mode))?;
        registry.temps.push(path.clone());
        Ok((Temp { path: Some(path) }, file))
    }

    /// A temporary file for `target` with the mode of the file it will
    /// replace (when there is one).
    pub(crate) fn create_open(target: &Path) -> io::Result<(Temp, File)> {
        let mode = existing_mode(target);
        let (temp, file) = Temp::create(target, mode)?;
        if let Some(mode) = mode {
            set_mode(&file, mode)?;
        }
        Ok((temp, file))
    }

    /// Hands the file over to a commit's journal: it is no longer this
    /// value's to remove. Called under the registry's lock.
    pub(crate) fn release(&mut self, registry: &mut Registry) -> PathBuf {
        let path = self.path.take().expect("a temporary file is released once");
        registry.temps.retain(|p| *p != path);
        path
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(path) = self.path.take() {
            let mut registry = registry();
            // An error here has nobody to tell: the file is gone or was
            // never made.
            let _ = fs::remove_file(&path);
            registry.temps.retain(|p| *p != path);
        }
    }
}

fn open_new(path: &Path, mode: Option<u32>) -> io::Result<File> {
    let mut options = File::options();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if let Some(mode) = mode {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode & 0o7777);
    }
    #[cfg(not(unix))]
    let _ = mode;
    options.open(path)
}

/// The permission bits of the regular file at `target`, if there is one.
fn existing_mode(target: &Path) -> Option<u32> {
    let meta = fs::metadata(target).ok().filter(fs::Metadata::is_file)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(meta.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        Some(u32::from(meta.permissions().readonly()))
    }
}

/// Gives the file exactly `mode`: the umask applied at creation may have
/// removed bits the old file had.
fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let mut permissions = file.metadata()?.permissions();
        permissions.set_readonly(mode == 1);
        file.set_permissions(permissions)
    }
}
