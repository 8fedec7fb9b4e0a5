//! The files a command writes, through `schedlab-outputs` (declared and
//! checked before the work, staged beside their targets, committed all or
//! nothing; docs/cli.md, "Output files"), and the report every command
//! prints: to `--output` when given, else to stdout.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
pub use schedlab_outputs::{commit, Output, Outputs};

/// The outputs of a command that reads `inputs` and writes its report to
/// `--output` when given.
pub fn for_report<'a>(
    inputs: impl IntoIterator<Item = &'a Path>,
    args: &crate::args::OutputArgs,
) -> Result<(Outputs, Option<Output>)> {
    let mut outputs = Outputs::for_paths(inputs);
    let report = outputs.declare_optional("--output", args.output.as_deref())?;
    Ok((outputs, report))
}

/// Writes a command's report to `output` (declared) or else to stdout.
pub fn emit(
    outputs: &Outputs,
    output: Option<Output>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    emit_with(outputs, Vec::new(), output, write)
}

/// Commits the `staged` files together with a command's report when it
/// goes to `output`, in one commit, so that an interrupt or a failure
/// leaves either all of them new or all as they were (two commits, the
/// files' then the report's, could leave the files new and the report
/// old). A report on stdout is printed only once the files are in place,
/// since it speaks of them.
pub fn emit_with(
    outputs: &Outputs,
    mut staged: Vec<schedlab_outputs::Staged>,
    output: Option<Output>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    match output {
        Some(o) => {
            staged.push(outputs.stage(o, write)?);
            commit(staged)?;
        }
        None => {
            commit(staged)?;
            let mut out = crate::output::stdout();
            write(&mut out)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Pretty JSON and a newline, for [`emit`], written as it is made (the
/// writers `emit` passes are buffered).
pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> impl FnOnce(&mut dyn Write) -> io::Result<()> + '_ {
    move |out| schedlab_experiment::write_document(out, value, "result").map_err(io::Error::other)
}
