//! The files a command writes, kept safe: every output is declared before
//! the work starts, checked against the command's inputs and its other
//! outputs, and written only once the work has succeeded, each to a
//! temporary file in its own directory that is then renamed over it.
//!
//! So a failed or interrupted command leaves every file as it was; an
//! output can never empty an input before it is read (`run t.swf
//! --jobs-csv t.swf` once did); two outputs can never interleave in one
//! file; and a reader of the target sees either the old file or the whole
//! new one, never a part. Every command that writes a file goes through
//! [`Outputs`]: declare, do the work, [`Outputs::stage`], [`commit`].

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// What makes two paths the same file: the device and inode where the file
/// exists (so a hard link or a symbolic link is caught), else the
/// canonical path of the directory joined with the name.
#[derive(Clone, Debug, PartialEq, Eq)]
enum FileKey {
    Inode(u64, u64),
    Path(PathBuf),
}

fn file_key(path: &Path) -> Result<FileKey> {
    if let Ok(meta) = fs::metadata(path) {
        if meta.is_dir() {
            bail!("{} is a directory", path.display());
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            return Ok(FileKey::Inode(meta.dev(), meta.ino()));
        }
        #[cfg(not(unix))]
        return Ok(FileKey::Path(fs::canonicalize(path).with_context(|| path.display().to_string())?));
    }
    let name = path.file_name().with_context(|| format!("{} does not name a file", path.display()))?;
    let dir = parent(path);
    let dir = fs::canonicalize(dir).with_context(|| format!("directory {} of {}", dir.display(), path.display()))?;
    Ok(FileKey::Path(dir.join(name)))
}

/// The directory a path's file lives in (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A declared output: the flag that named it, its path and its identity.
#[derive(Debug)]
struct Declared {
    flag: &'static str,
    path: PathBuf,
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
        let inputs = inputs.into_iter().filter_map(|p| file_key(p).ok().map(|key| (p.to_path_buf(), key))).collect();
        Outputs { inputs, declared: Vec::new() }
    }

    /// Declares the output `path` of the flag `flag`; refuses a path that is
    /// an input, or an output already declared, or that cannot be written
    /// (a directory, a missing directory), before any work is done.
    pub fn declare(&mut self, flag: &'static str, path: &Path) -> Result<Output> {
        let key = file_key(path).with_context(|| format!("{flag} {}: cannot write there", path.display()))?;
        if let Some((input, _)) = self.inputs.iter().find(|(_, k)| *k == key) {
            bail!("{flag} {} is the input {}: refusing to overwrite it", path.display(), input.display());
        }
        if let Some(other) = self.declared.iter().find(|d| d.key == key) {
            bail!("{flag} {} is also the output of {}: give each output its own file", path.display(), other.flag);
        }
        self.declared.push(Declared { flag, path: path.to_path_buf(), key });
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

    /// Writes an output's whole content to a temporary file beside it; the
    /// target is untouched until [`commit`].
    pub fn stage(&self, output: Output, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<Staged> {
        let target = &self.declared[output.0].path;
        let temp = temp_path(target);
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&temp)
            .with_context(|| format!("cannot write {}", target.display()))?;
        let staged = Staged { temp, target: target.clone() };
        let mut out = BufWriter::with_capacity(1 << 16, file);
        write(&mut out)
            .and_then(|()| out.flush())
            .and_then(|()| out.get_ref().sync_all())
            .with_context(|| format!("cannot write {}", target.display()))?;
        Ok(staged)
    }
}

/// `.NAME.PID.schedlab-tmp` in the target's directory, so that the rename
/// stays on one file system.
fn temp_path(target: &Path) -> PathBuf {
    let mut name = OsString::from(".");
    name.push(target.file_name().unwrap_or_default());
    name.push(format!(".{}.schedlab-tmp", std::process::id()));
    parent(target).join(name)
}

/// An output written to its temporary file, waiting for [`commit`]; the
/// temporary file is removed if it is dropped uncommitted.
#[derive(Debug)]
pub struct Staged {
    temp: PathBuf,
    target: PathBuf,
}

impl Drop for Staged {
    fn drop(&mut self) {
        // Gone already once committed; an error here has nobody to tell.
        let _ = fs::remove_file(&self.temp);
    }
}

/// Renames every staged output over its target, once all are written.
pub fn commit(staged: Vec<Staged>) -> Result<()> {
    for s in &staged {
        fs::rename(&s.temp, &s.target).with_context(|| format!("cannot write {}", s.target.display()))?;
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

/// Pretty JSON and a newline, for [`emit`].
pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> impl FnOnce(&mut dyn Write) -> io::Result<()> + '_ {
    move |out| {
        serde_json::to_writer_pretty(&mut *out, value)?;
        writeln!(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
