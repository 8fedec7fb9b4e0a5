//! The files a command writes, kept safe: every output is declared before
//! the work starts, checked against the command's inputs and its other
//! outputs and proved writable, and written only once the work has
//! succeeded.
//!
//! A regular file (or one yet to be made) is written to a temporary file in
//! its own directory that is then renamed over it; a symbolic link is
//! followed first, so the file it names is the one replaced and the link
//! stays. A device, a FIFO, a socket or an open descriptor (`/dev/stdout`,
//! `/proc/self/fd/1`) is a stream: it is opened and written directly, as
//! `cp` and `sort -o` do, because renaming over it would replace the node
//! itself and its reader would get nothing.
//!
//! So a failed or interrupted command leaves every file as it was; an
//! output can never empty an input before it is read (`run t.swf
//! --jobs-csv t.swf` once did); two outputs can never interleave in one
//! file; and a reader of the target sees either the old file or the whole
//! new one, never a part. Every command that writes a file goes through
//! [`Outputs`]: declare, do the work, [`Outputs::stage`], [`commit`].

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use anyhow::{bail, Context, Result};

/// What makes two paths the same file: the device and inode where the file
/// exists (so a hard link or a symbolic link is caught), else the
/// canonical path of the directory joined with the name.
#[derive(Clone, Debug, PartialEq, Eq)]
enum FileKey {
    Inode(u64, u64),
    Path(PathBuf),
}

/// The key of an input: the file a path names, links followed.
fn input_key(path: &Path) -> Option<FileKey> {
    fs::metadata(path).ok().map(|meta| inode_key(path, &meta))
}

fn inode_key(path: &Path, meta: &fs::Metadata) -> FileKey {
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

/// The directory a path's file lives in (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// How an output reaches its file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// A regular file, or one yet to be made, at this path with no link
    /// left in it: replaced by renaming a temporary file in its directory.
    Replace(PathBuf),
    /// A device, FIFO, socket or open descriptor: written directly.
    Stream(PathBuf),
}

/// The kernel's descriptor links live here; one of them names an open file
/// (a pipe, a terminal, or the file the shell redirected into) that must be
/// written through, never replaced, whatever its type.
const DESCRIPTOR_ROOT: &str = "/proc";

/// How many links are followed before a path is called a loop (Linux's
/// own limit).
const MAX_LINKS: usize = 40;

/// Follows the symbolic links of `path` one at a time, each in its own
/// directory, to the file that will be written, and says how, with the
/// file's key; a directory, a missing directory or a link loop is an error.
fn resolve(path: &Path) -> Result<(Target, FileKey)> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let name = current.file_name().with_context(|| format!("{} does not name a file", current.display()))?;
        let dir = parent(&current);
        let dir = fs::canonicalize(dir).with_context(|| format!("directory {} does not exist", dir.display()))?;
        let full = dir.join(name);
        let meta = match fs::symlink_metadata(&full) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok((Target::Replace(full.clone()), FileKey::Path(full)))
            }
            Err(e) => return Err(e).with_context(|| full.display().to_string()),
        };
        if dir.starts_with(DESCRIPTOR_ROOT) {
            let meta = fs::metadata(&full).with_context(|| full.display().to_string())?;
            return Ok((Target::Stream(full.clone()), inode_key(&full, &meta)));
        }
        if meta.file_type().is_symlink() {
            let link = fs::read_link(&full).with_context(|| full.display().to_string())?;
            current = dir.join(link);
            continue;
        }
        if meta.is_dir() {
            bail!("{} is a directory", full.display());
        }
        let key = inode_key(&full, &meta);
        let target = if meta.is_file() { Target::Replace(full) } else { Target::Stream(full) };
        return Ok((target, key));
    }
    bail!("{}: more than {MAX_LINKS} symbolic links (a loop?)", path.display())
}

/// A declared output: the flag and path the user gave, the file it
/// resolves to and that file's identity.
#[derive(Debug)]
struct Declared {
    flag: &'static str,
    given: PathBuf,
    target: Target,
    key: FileKey,
}

/// The outputs of one command, checked against its inputs.
#[derive(Debug, Default)]
pub struct Outputs {
    inputs: Vec<(PathBuf, FileKey)>,
    declared: Vec<Declared>,
}

/// A handle on a declared output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output(usize);

impl Outputs {
    /// The outputs of a command that reads `inputs`. An input that cannot
    /// be found is left to the command's own error.
    pub fn new<'a>(inputs: impl IntoIterator<Item = &'a Path>) -> Self {
        let inputs = inputs.into_iter().filter_map(|p| input_key(p).map(|key| (p.to_path_buf(), key))).collect();
        Outputs { inputs, declared: Vec::new() }
    }

    /// Declares the output `path` of the flag `flag`, before any work is
    /// done. A file (links followed) that is an input or an output already
    /// declared is refused, and so is one that cannot be made (a directory,
    /// a missing or unwritable directory, a name too long): a temporary
    /// file is created beside it and removed at once to prove it. A stream
    /// is not checked against the inputs: writing to it cannot destroy
    /// them.
    pub fn declare(&mut self, flag: &'static str, path: &Path) -> Result<Output> {
        let cannot = || format!("{flag} {}: cannot write there", path.display());
        let (target, key) = resolve(path).with_context(cannot)?;
        if let Target::Replace(file) = &target {
            if let Some((input, _)) = self.inputs.iter().find(|(_, k)| *k == key) {
                bail!("{flag} {} is the input {}: refusing to overwrite it", path.display(), input.display());
            }
            if let Some(other) = self.declared.iter().find(|d| d.key == key) {
                bail!("{flag} {} is also the output of {}: give each output its own file", path.display(), other.flag);
            }
            let (temp, _) = create_temp(file).with_context(cannot)?;
            remove_temp(&temp);
        }
        self.declared.push(Declared { flag, given: path.to_path_buf(), target, key });
        Ok(Output(self.declared.len() - 1))
    }

    /// The outputs of a command that reads `inputs` and writes its report
    /// to `--output` when given.
    pub fn for_report<'a>(
        inputs: impl IntoIterator<Item = &'a Path>,
        args: &crate::args::OutputArgs,
    ) -> Result<(Self, Option<Output>)> {
        let mut outputs = Outputs::new(inputs);
        let report = outputs.declare_optional("--output", args.output.as_deref())?;
        Ok((outputs, report))
    }

    /// Declares `path` if there is one.
    pub fn declare_optional(&mut self, flag: &'static str, path: Option<&Path>) -> Result<Option<Output>> {
        path.map(|p| self.declare(flag, p)).transpose()
    }

    /// Writes an output's whole content: a file to a temporary file beside
    /// it, left untouched until [`commit`]; a stream directly.
    pub fn stage(&self, output: Output, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<Staged> {
        let declared = &self.declared[output.0];
        let cannot = || format!("cannot write {}", declared.given.display());
        match &declared.target {
            Target::Stream(path) => {
                // Appending writes after whatever the descriptor already
                // holds, so `-o /dev/stdout >> log` keeps the log.
                let file = File::options().append(true).open(path).with_context(cannot)?;
                let mut out = BufWriter::with_capacity(1 << 16, file);
                write(&mut out).and_then(|()| out.flush()).with_context(cannot)?;
                Ok(Staged { temp: None, target: path.clone() })
            }
            Target::Replace(path) => {
                let (temp, file) = create_temp(path).with_context(cannot)?;
                let staged = Staged { temp: Some(temp), target: path.clone() };
                let mut out = BufWriter::with_capacity(1 << 16, file);
                write(&mut out)
                    .and_then(|()| out.flush())
                    .and_then(|()| out.get_ref().sync_all())
                    .with_context(cannot)?;
                Ok(staged)
            }
        }
    }
}

/// The temporary files that exist now, so that an interrupt can remove
/// them; a file is created, renamed and removed under this lock, so the
/// interrupt sees each either whole or gone.
static LIVE_TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live_temporaries() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE_TEMPORARIES.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `.PID-N.schedlab-tmp` in the target's directory, so that the rename
/// stays on one file system. It does not repeat the target's name, so that
/// any legal name (up to 255 bytes) leaves room for it.
fn temp_path(target: &Path) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    parent(target).join(format!(".{}-{n}.schedlab-tmp", std::process::id()))
}

/// Creates a new temporary file beside `target` and records it.
fn create_temp(target: &Path) -> io::Result<(PathBuf, File)> {
    let mut live = live_temporaries();
    let temp = temp_path(target);
    let file = File::options().write(true).create_new(true).open(&temp)?;
    live.push(temp.clone());
    Ok((temp, file))
}

/// Removes a temporary file and forgets it.
fn remove_temp(temp: &Path) {
    let mut live = live_temporaries();
    // An error here has nobody to tell: the file is gone or was never made.
    let _ = fs::remove_file(temp);
    live.retain(|p| p != temp);
}

/// On SIGINT or SIGTERM, removes every temporary file and then dies of the
/// signal as the program would have without this handler (exit status
/// 130 or 143 in a shell). Called once, by the binary, at its start.
#[cfg(unix)]
pub fn remove_temporaries_on_interrupt() -> io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // The lock is held to the end, so no temporary file is made
            // or renamed after this sweep.
            let mut live = live_temporaries();
            for temp in live.drain(..) {
                let _ = fs::remove_file(temp);
            }
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// An output written, waiting for [`commit`]: a temporary file, removed if
/// it is dropped uncommitted, or a stream already written.
#[derive(Debug)]
pub struct Staged {
    temp: Option<PathBuf>,
    target: PathBuf,
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(temp) = &self.temp {
            remove_temp(temp);
        }
    }
}

/// Renames every staged file over its target, once all are written.
pub fn commit(staged: Vec<Staged>) -> Result<()> {
    for mut s in staged {
        if let Some(temp) = s.temp.take() {
            let mut live = live_temporaries();
            let renamed = fs::rename(&temp, &s.target);
            live.retain(|p| *p != temp);
            drop(live);
            if let Err(e) = renamed {
                remove_temp(&temp);
                return Err(e).with_context(|| format!("cannot write {}", s.target.display()));
            }
        }
    }
    Ok(())
}

/// Writes a command's report to `output` (declared) or else to stdout.
pub fn emit(
    outputs: &Outputs,
    output: Option<Output>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    match output {
        Some(o) => commit(vec![outputs.stage(o, write)?]),
        None => {
            let mut out = crate::output::stdout();
            write(&mut out)?;
            out.flush()?;
            Ok(())
        }
    }
}

/// Pretty JSON and a newline, for [`emit`], written as it is made (the
/// writers `emit` passes are buffered).
pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> impl FnOnce(&mut dyn Write) -> io::Result<()> + '_ {
    move |out| schedlab_experiment::write_document(out, value, "result").map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    /// A fresh directory under the system's temporary directory.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("schedlab-outputs-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch directory");
        dir
    }

    #[test]
    fn an_input_or_a_second_output_is_refused() {
        let dir = scratch("refuse");
        let input = dir.join("t.swf");
        fs::write(&input, "1").expect("input");
        let mut outputs = Outputs::new([input.as_path()]);
        let err = outputs.declare("--jobs-csv", &input).expect_err("the input");
        assert!(err.to_string().contains("is the input"), "{err}");
        // The same file by another name: `dir/./t.swf`, a hard link.
        let dotted = dir.join(".").join("t.swf");
        assert!(outputs.declare("--swf-out", &dotted).is_err());
        let link = dir.join("link.swf");
        fs::hard_link(&input, &link).expect("hard link");
        assert!(outputs.declare("--swf-out", &link).is_err());
        let out = dir.join("o");
        outputs.declare("--swf-out", &out).expect("a new file");
        let err = outputs.declare("--jobs-csv", &dir.join(".").join("o")).expect_err("twice");
        assert!(err.to_string().contains("is also the output of --swf-out"), "{err}");
        assert!(outputs.declare("--output", &dir).is_err(), "a directory");
        assert!(outputs.declare("--output", &dir.join("missing/o")).is_err(), "a missing directory");
        assert_eq!(fs::read_to_string(&input).expect("input"), "1", "untouched");
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn nothing_changes_until_commit_and_a_failed_write_leaves_no_file() {
        let dir = scratch("commit");
        let target = dir.join("out.csv");
        fs::write(&target, "old").expect("old content");
        let mut outputs = Outputs::new([]);
        let o = outputs.declare("--jobs-csv", &target).expect("declare");
        let staged = outputs.stage(o, |w| w.write_all(b"new")).expect("stage");
        assert_eq!(fs::read_to_string(&target).expect("target"), "old");
        commit(vec![staged]).expect("commit");
        assert_eq!(fs::read_to_string(&target).expect("target"), "new");
        let failed = outputs.stage(o, |_| Err(io::Error::other("disk full")));
        assert!(failed.is_err());
        assert_eq!(fs::read_to_string(&target).expect("target"), "new");
        let left: Vec<_> = fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(left, vec![OsString::from("out.csv")], "no temporary file is left behind");
        fs::remove_dir_all(&dir).ok();
    }
}
