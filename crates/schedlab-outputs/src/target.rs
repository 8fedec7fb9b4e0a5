//! Where an output goes: its path followed link by link to the file that
//! will be written, how it will be written (replaced or streamed), and
//! that file's identity, to compare with the inputs and the other outputs.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use crate::error::{OutputError, Refusal};

/// What makes two paths the same file: the device and inode where the file
/// exists (so a hard link, a symbolic link, `/dev/stdin` or
/// `/proc/self/fd/N` is caught), else the canonical path of the directory
/// joined with the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FileKey {
    Inode(u64, u64),
    Path(PathBuf),
}

impl FileKey {
    fn of(path: &Path, meta: &fs::Metadata) -> FileKey {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let _ = path;
            FileKey::Inode(meta.dev(), meta.ino())
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            FileKey::Path(fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
        }
    }
}

/// A file the command reads, which no output may replace or write into.
#[derive(Clone, Debug)]
pub struct Input {
    pub(crate) name: String,
    pub(crate) key: Option<FileKey>,
}

impl Input {
    /// The file `path` names, links followed. A path that cannot be found
    /// is kept for nothing: the command's own reading will report it.
    pub fn path(path: &Path) -> Input {
        let key = fs::metadata(path).ok().map(|meta| FileKey::of(path, &meta));
        Input { name: path.display().to_string(), key }
    }

    /// A file already open (the trace a Python session loaded), by the
    /// identity of the open file itself, whatever path later names it.
    pub fn open_file(name: &str, file: &File) -> io::Result<Input> {
        let meta = file.metadata()?;
        Ok(Input { name: name.to_owned(), key: Some(FileKey::of(Path::new(name), &meta)) })
    }

    /// A file known by its device and inode (as `os.stat` gives them).
    pub fn identity(name: &str, device: u64, inode: u64) -> Input {
        Input { name: name.to_owned(), key: Some(FileKey::Inode(device, inode)) }
    }
}

/// How an output reaches its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A regular file, or one yet to be made, at this path with no link
    /// left in it: replaced by renaming a temporary file in its directory.
    Replace(PathBuf),
    /// A device, a FIFO or an open descriptor: written directly.
    Stream { path: PathBuf, shareable: bool },
}

/// The kernel's descriptor links live here; one of them names an open file
/// (a pipe, a terminal, or the file the shell redirected into) that must be
/// written through, never replaced, whatever its type.
const DESCRIPTOR_ROOT: &str = "/proc";

/// How many links are followed before a path is called a loop (Linux's
/// own limit).
const MAX_LINKS: usize = 40;

/// The directory a path's file lives in (`.` for a bare name).
pub(crate) fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// True when the path's text ends with `/` or `/.`: the user named a
/// directory, even one that does not exist yet (`-o newfile/`), which
/// `Path::file_name` would silently read as `newfile`.
fn names_a_directory(path: &Path) -> bool {
    let text = path.as_os_str().as_encoded_bytes();
    text.ends_with(b"/") || text.ends_with(b"/.") || text == b"."
}

/// Follows the symbolic links of `path` one at a time, each in its own
/// directory, to the file that will be written, and says how, with the
/// file's key; a directory, a socket, a missing directory or a link loop
/// is an error.
pub(crate) fn resolve(label: &str, path: &Path) -> Result<(Target, FileKey), OutputError> {
    let refused = |reason| OutputError::refused(label, path, reason);
    let unwritable = |e| OutputError::unwritable(label, path, e);
    if names_a_directory(path) {
        return Err(match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => refused(Refusal::Directory),
            _ => refused(Refusal::TrailingSlash),
        });
    }
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let name = current.file_name().ok_or_else(|| refused(Refusal::NoFileName))?;
        let dir = fs::canonicalize(parent(&current)).map_err(|e| {
            let what = format!("directory {} does not exist or cannot be reached: {e}", parent(&current).display());
            unwritable(io::Error::new(e.kind(), what))
        })?;
        let full = dir.join(name);
        let meta = match fs::symlink_metadata(&full) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok((Target::Replace(full.clone()), FileKey::Path(full)))
            }
            Err(e) => return Err(unwritable(e)),
        };
        if dir.starts_with(DESCRIPTOR_ROOT) {
            let meta = fs::metadata(&full).map_err(unwritable)?;
            return stream(&full, &meta).map_err(refused);
        }
        if meta.file_type().is_symlink() {
            current = dir.join(fs::read_link(&full).map_err(unwritable)?);
            continue;
        }
        if meta.is_dir() {
            return Err(refused(Refusal::Directory));
        }
        if meta.is_file() {
            return Ok((Target::Replace(full.clone()), FileKey::of(&full, &meta)));
        }
        return stream(&full, &meta).map_err(refused);
    }
    Err(refused(Refusal::LinkLoop(MAX_LINKS)))
}

/// A special file or an open descriptor, written through. A socket cannot
/// be opened (`open` fails with ENXIO), so it is refused now rather than
/// after the work; a directory behind a descriptor likewise.
fn stream(path: &Path, meta: &fs::Metadata) -> Result<(Target, FileKey), Refusal> {
    if meta.is_dir() {
        return Err(Refusal::Directory);
    }
    let shareable = is_shareable(meta);
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_socket() {
            return Err(Refusal::Socket);
        }
    }
    Ok((Target::Stream { path: path.to_path_buf(), shareable }, FileKey::of(path, meta)))
}

/// A character device (a terminal, `/dev/null`) may be both read and
/// written by one command without harm (`run /dev/stdin -o /dev/stdout` at
/// a terminal); any other file behind a descriptor is data that writing
/// would append to.
fn is_shareable(meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        meta.file_type().is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}
