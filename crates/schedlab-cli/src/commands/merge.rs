//! `schedlab merge`: joins the shards of a sweep into the whole result.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use schedlab_experiment::{merge, ExperimentResult};

use crate::args::MergeArgs;
use crate::outputs::Outputs;

pub fn main(args: &MergeArgs) -> Result<ExitCode> {
    let (outputs, report) = Outputs::for_report(args.files.iter().map(PathBuf::as_path), &args.output)?;
    let parts = args.files.iter().map(|path| read(path)).collect::<Result<Vec<_>>>()?;
    let merged = merge(parts)?;
    super::sweep::print(&merged, args.json, &outputs, report)
}

fn read(path: &std::path::Path) -> Result<ExperimentResult> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not a `schedlab sweep --json` result", path.display()))
}
