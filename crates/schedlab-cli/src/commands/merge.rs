//! `schedlab merge`: joins the shards of a sweep into the whole result,
//! after the core has checked every file and every point (`merge`).

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use schedlab_experiment::{merge, read_shard, ExperimentResult, MAX_SHARD_BYTES};

use crate::args::MergeArgs;
use crate::outputs::Outputs;

pub fn main(args: &MergeArgs) -> Result<ExitCode> {
    let (outputs, report) = Outputs::for_report(args.files.iter().map(PathBuf::as_path), &args.output)?;
    let parts = args.files.iter().enumerate().map(|(i, path)| read(path, i + 1)).collect::<Result<Vec<_>>>()?;
    let merged = merge(parts)?;
    super::sweep::print(&merged, args.json, &outputs, report)
}

/// Reads at most `MAX_SHARD_BYTES` of a file before parsing it.
fn read(path: &std::path::Path, file: usize) -> Result<ExperimentResult> {
    let f = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut text = String::new();
    f.take(MAX_SHARD_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("cannot read {} (not UTF-8 text?)", path.display()))?;
    if text.len() > MAX_SHARD_BYTES {
        bail!("{}: larger than {MAX_SHARD_BYTES} bytes: not a `schedlab sweep --json` result", path.display());
    }
    read_shard(&text, file).with_context(|| path.display().to_string())
}
