//! The files a Schedlab host writes, kept safe. The command line and the
//! Python package both write through this crate, so they make the same
//! promises:
//!
//! - every output is declared before the work starts, checked against the
//!   command's inputs (by device and inode, so `/dev/stdin`,
//!   `/proc/self/fd/N`, a hard or symbolic link to an input is caught) and
//!   its other outputs, and proved writable (a temporary file is made
//!   beside it and removed); a directory, a socket and a path ending in `/`
//!   are refused;
//! - a regular file (or one yet to be made) is written to a temporary file
//!   in its own directory, with the mode of the file it replaces, and left
//!   there until [`commit`]; a symbolic link is followed first, so the file
//!   it names is replaced and the link stays;
//! - a device, a FIFO or an open descriptor is a stream: opened and written
//!   directly, as `cp` and `sort -o` do, because renaming over it would
//!   replace the node itself and its reader would get nothing;
//! - [`commit`] renames the temporary files over their targets only once all
//!   are written, keeping each old file as a hard-linked backup until every
//!   rename is done; a failure part way, or a signal caught by
//!   [`clean_up_on_signals`], puts the old files back. See `commit.rs` for
//!   exactly what is guaranteed.
//!
//! Declare ([`Outputs::declare`]), do the work, write ([`Outputs::stage`] or
//! [`Outputs::writer`]), then [`commit`] every staged output at once.

mod commit;
mod error;
#[cfg(unix)]
mod signals;
mod target;
mod temp;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub use commit::commit;
#[doc(hidden)]
pub use commit::commit_observed;
pub use error::{OutputError, Refusal};
#[cfg(unix)]
pub use signals::clean_up_on_signals;
pub use target::Input;

use target::{resolve, FileKey, Target};

/// A declared output: the label (flag or argument) and path the user gave,
/// the file it resolves to and that file's identity.
#[derive(Debug)]
struct Declared {
    label: String,
    given: PathBuf,
    target: Target,
    key: FileKey,
}

/// The outputs of one command, checked against its inputs.
#[derive(Debug, Default)]
pub struct Outputs {
    inputs: Vec<Input>,
    declared: Vec<Declared>,
}

/// A handle on a declared output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output(usize);

impl Outputs {
    /// The outputs of a command that reads `inputs`.
    pub fn new(inputs: impl IntoIterator<Item = Input>) -> Self {
        Outputs { inputs: inputs.into_iter().collect(), declared: Vec::new() }
    }

    /// The outputs of a command that reads the files at `paths`.
    pub fn for_paths<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Self {
        Outputs::new(paths.into_iter().map(Input::path))
    }

    /// Declares every `(label, path)` at once, in order.
    pub fn declare_all<'a>(
        &mut self,
        outputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
    ) -> Result<Vec<Output>, OutputError> {
        outputs.into_iter().map(|(label, path)| self.declare(label, path)).collect()
    }

    /// Declares the output `path`, given by `label` (a flag such as
    /// `--jobs-csv`, or a Python argument), before any work is done.
    pub fn declare(&mut self, label: &str, path: &Path) -> Result<Output, OutputError> {
        let (target, key) = resolve(label, path)?;
        let refused = |reason| Err(OutputError::refused(label, path, reason));
        let shareable = matches!(target, Target::Stream { shareable: true, .. });
        if !shareable {
            if let Some(input) = self.inputs.iter().find(|i| i.key.as_ref() == Some(&key)) {
                return refused(Refusal::IsInput(input.name.clone()));
            }
            if let Some(other) = self.declared.iter().find(|d| d.key == key) {
                return refused(Refusal::SameAs(other.label.clone()));
            }
        }
        if let Target::Replace(file) = &target {
            let probe = temp::Temp::create(file, None).map_err(|e| OutputError::unwritable(label, path, e))?;
            drop(probe);
        }
        self.declared.push(Declared { label: label.to_owned(), given: path.to_path_buf(), target, key });
        Ok(Output(self.declared.len() - 1))
    }

    /// Declares `path` if there is one.
    pub fn declare_optional(&mut self, label: &str, path: Option<&Path>) -> Result<Option<Output>, OutputError> {
        path.map(|p| self.declare(label, p)).transpose()
    }

    /// The path the user gave for an output.
    pub fn given(&self, output: Output) -> &Path {
        &self.declared[output.0].given
    }

    /// A writer for an output's whole content: a temporary file beside the
    /// target (left untouched until [`commit`]), or the stream itself.
    /// [`OutputWriter::finish`] makes it a [`Staged`] output.
    pub fn writer(&self, output: Output) -> Result<OutputWriter, OutputError> {
        let declared = &self.declared[output.0];
        let cannot = |e| OutputError::Write { path: declared.given.clone(), source: e };
        match &declared.target {
            Target::Stream { path, .. } => {
                // Appending writes after whatever the descriptor already
                // holds, so `-o /dev/stdout >> log` keeps the log.
                let file = File::options().append(true).open(path).map_err(cannot)?;
                Ok(OutputWriter {
                    out: BufWriter::with_capacity(1 << 16, file),
                    temp: None,
                    declared: declared.given.clone(),
                })
            }
            Target::Replace(path) => {
                let (temp, file) = temp::Temp::create_open(path).map_err(cannot)?;
                Ok(OutputWriter {
                    out: BufWriter::with_capacity(1 << 16, file),
                    temp: Some((temp, path.clone())),
                    declared: declared.given.clone(),
                })
            }
        }
    }

    /// Writes an output's whole content with `write` (see
    /// [`Outputs::writer`]).
    pub fn stage(
        &self,
        output: Output,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<Staged, OutputError> {
        let mut writer = self.writer(output)?;
        let declared = writer.declared.clone();
        write(&mut writer).map_err(|e| OutputError::Write { path: declared, source: e })?;
        writer.finish()
    }
}

/// The content of one output being written. Dropped unfinished, its
/// temporary file is removed.
#[derive(Debug)]
pub struct OutputWriter {
    out: BufWriter<File>,
    temp: Option<(temp::Temp, PathBuf)>,
    declared: PathBuf,
}

impl Write for OutputWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl OutputWriter {
    /// Flushes the content to disk (a file is synced, so that a crash
    /// after the commit cannot leave an empty target) and stages it.
    pub fn finish(mut self) -> Result<Staged, OutputError> {
        let cannot = |e| OutputError::Write { path: self.declared.clone(), source: e };
        self.out.flush().map_err(cannot)?;
        let temp = self.temp.take();
        if let Some((temp, target)) = temp {
            self.out.get_ref().sync_all().map_err(cannot)?;
            return Ok(Staged { temp: Some((temp, target)) });
        }
        Ok(Staged { temp: None })
    }
}

/// An output written, waiting for [`commit`]: a temporary file (removed if
/// it is dropped uncommitted) and its target, or a stream already written.
#[derive(Debug)]
pub struct Staged {
    temp: Option<(temp::Temp, PathBuf)>,
}
