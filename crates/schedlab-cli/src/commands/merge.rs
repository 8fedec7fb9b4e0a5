//! `schedlab merge`: joins the shards of a sweep into the whole result,
//! after the core has checked every file and every point (`merge`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use schedlab_experiment::{merge, read_shard, ExperimentResult, MAX_SHARD_BYTES};

use crate::args::MergeArgs;
use crate::fail::short_text;
use crate::outputs;
use crate::trace_input::byte_size;

pub fn main(args: &MergeArgs) -> Result<ExitCode> {
    let (outputs, report) = outputs::for_report(args.files.iter().map(PathBuf::as_path), &args.output)?;
    let mut budget = Budget::new(args.max_bytes.as_deref())?;
    let parts =
        args.files.iter().enumerate().map(|(i, path)| read(path, i + 1, &mut budget)).collect::<Result<Vec<_>>>()?;
    let merged = merge(parts)?;
    super::sweep::print(&merged, args.json, &outputs, report)
}

/// The bytes the whole command may read. Every file read is parsed and
/// kept until the merge, so the bound is on all of them together: a
/// bound per file would let three files of 1 GiB take three times the
/// memory of one.
struct Budget {
    limit: u64,
    used: u64,
    files: usize,
}

impl Budget {
    fn new(flag: Option<&str>) -> Result<Self> {
        let limit = match flag {
            Some(text) => byte_size(text).with_context(|| format!("--max-bytes `{}`", short_text(text)))?,
            None => MAX_SHARD_BYTES as u64,
        };
        Ok(Budget { limit, used: 0, files: 0 })
    }

    /// What is left for the next file.
    fn left(&self) -> u64 {
        self.limit - self.used
    }

    /// Counts a file of `bytes`, or says that it does not fit.
    fn take(&mut self, path: &Path, bytes: u64) -> Result<()> {
        if bytes > self.left() {
            let limit = self.limit;
            let before = match self.files {
                0 => String::new(),
                1 => format!(" with the {} bytes of the file before it", self.used),
                n => format!(" with the {} bytes of the {n} files before it", self.used),
            };
            bail!(
                "{}: the shards{before} pass {limit} bytes, the most `merge` reads in all; \
                 --max-bytes raises it (each file stays within {MAX_SHARD_BYTES} bytes)",
                path.display()
            );
        }
        self.used += bytes;
        self.files += 1;
        Ok(())
    }
}

/// Reads at most what is left of the budget of a file before parsing it.
fn read(path: &Path, file: usize, budget: &mut Budget) -> Result<ExperimentResult> {
    let f = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut text = String::new();
    f.take(budget.left().saturating_add(1))
        .read_to_string(&mut text)
        .with_context(|| format!("cannot read {} (not UTF-8 text?)", path.display()))?;
    budget.take(path, text.len() as u64)?;
    read_shard(&text, file).with_context(|| path.display().to_string())
}
