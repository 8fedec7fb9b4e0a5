//! `schedlab merge`: joins the shards of a sweep into the whole result,
//! after the core has checked every file and every point (`merge`).

use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use schedlab_experiment::{Merger, MAX_MERGE_MEMORY};

use crate::args::MergeArgs;
use crate::fail::short_text;
use crate::outputs;
use crate::trace_input::byte_size;

pub fn main(args: &MergeArgs) -> Result<ExitCode> {
    let (outputs, report) = outputs::for_report(args.files.iter().map(PathBuf::as_path), &args.output)?;
    let limit = match args.max_bytes.as_deref() {
        Some(text) => byte_size(text).with_context(|| format!("--max-bytes `{}`", short_text(text)))?,
        None => MAX_MERGE_MEMORY,
    };
    // Each file streams into the merger, which keeps its points compactly
    // and counts the memory they hold against the limit.
    let mut merger = Merger::new(limit);
    for path in &args.files {
        let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        merger
            .add_reader(BufReader::with_capacity(1 << 16, file))
            .map_err(|e| match e {
                schedlab_experiment::MergeError::Memory { .. } => anyhow::anyhow!("{e}; --max-bytes raises it"),
                e => e.into(),
            })
            .with_context(|| path.display().to_string())?;
    }
    let merged = merger.finish()?;
    if args.json {
        outputs::emit(&outputs, report, outputs::json(&merged.document()))?;
    } else {
        let summary = merged.summary();
        outputs::emit(&outputs, report, |out| super::sweep::write_table(out, &summary))?;
    }
    Ok(ExitCode::SUCCESS)
}
