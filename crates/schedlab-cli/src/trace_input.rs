//! Opening a trace file and turning the workload flags into the core's
//! `ReadOptions`. Every error names the file or the flag.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use schedlab_workload::{read_swf, Loaded, Oversize, ReadOptions, Window};

use crate::args::WorkloadArgs;

/// The core's read options for the workload flags.
pub fn read_options(w: &WorkloadArgs) -> Result<ReadOptions> {
    let mut o = ReadOptions::default();
    if w.procs == Some(0) {
        bail!("--procs must be at least 1");
    }
    o.machine_size = w.procs;
    if w.clamp_oversized {
        o.oversize = Oversize::Clamp;
    }
    o.queues = non_empty(&w.queues);
    o.partitions = non_empty(&w.partitions);
    o.drop_status = w.drop_status.clone();
    o.window = window(w)?;
    if let Some(text) = &w.load_factor {
        o.load_factor = load_factor(text)?;
    }
    if let Some(text) = &w.max_bytes {
        o.max_bytes = byte_size(text).with_context(|| format!("--max-bytes `{text}`"))?;
    }
    Ok(o)
}

fn non_empty(values: &[i32]) -> Option<Vec<i32>> {
    (!values.is_empty()).then(|| values.to_vec())
}

fn window(w: &WorkloadArgs) -> Result<Window> {
    match (w.first, &w.time_range) {
        (Some(_), Some(_)) => bail!("--first and --time-range cannot be used together"),
        (Some(0), None) => bail!("--first must keep at least 1 job"),
        (Some(n), None) => Ok(Window::FirstJobs(n)),
        (None, Some(text)) => time_range(text),
        (None, None) => Ok(Window::All),
    }
}

/// `FROM:TO`, whole seconds after the first submit, FROM < TO.
pub fn time_range(text: &str) -> Result<Window> {
    let bad =
        || anyhow!("--time-range `{text}`: expected FROM:TO, whole seconds after the first submit with FROM < TO");
    let (from, to) = text.split_once(':').ok_or_else(bad)?;
    let from: i64 = from.trim().parse().map_err(|_| bad())?;
    let to: i64 = to.trim().parse().map_err(|_| bad())?;
    if from >= to {
        return Err(bad());
    }
    Ok(Window::TimeRange { from, to })
}

fn load_factor(text: &str) -> Result<f64> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => bail!("--load-factor `{text}`: expected a number above 0"),
    }
}

/// A byte count with an optional binary suffix K, M or G (`2G`, `512M`).
pub fn byte_size(text: &str) -> Result<u64> {
    let t = text.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.eq_ignore_ascii_case(&'k') => (&t[..i], 10),
        Some((i, c)) if c.eq_ignore_ascii_case(&'m') => (&t[..i], 20),
        Some((i, c)) if c.eq_ignore_ascii_case(&'g') => (&t[..i], 30),
        _ => (t, 0),
    };
    let n: u64 = digits.trim().parse().map_err(|_| anyhow!("expected a number of bytes, e.g. 2G or 500000000"))?;
    let bytes = n.checked_mul(1 << shift).ok_or_else(|| anyhow!("too large"))?;
    if bytes == 0 {
        bail!("must be at least 1 byte");
    }
    Ok(bytes)
}

/// The name a trace goes by in outputs: its file name.
pub fn trace_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Opens and reads a trace; errors name the file.
pub fn load(path: &Path, opts: &ReadOptions) -> Result<Loaded> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        bail!("{} is a directory, not a trace file", path.display());
    }
    read_swf(BufReader::with_capacity(1 << 16, file), opts).with_context(|| path.display().to_string())
}

/// Reads a trace as `load` does, with the workload flags.
pub fn load_with(path: &Path, w: &WorkloadArgs) -> Result<Loaded> {
    load(path, &read_options(w)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes() {
        assert_eq!(byte_size("2G").unwrap(), 2 << 30);
        assert_eq!(byte_size("512m").unwrap(), 512 << 20);
        assert_eq!(byte_size("100").unwrap(), 100);
        for bad in ["", "G", "-1", "0", "1.5G", "99999999999G"] {
            assert!(byte_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn time_ranges() {
        assert_eq!(time_range("0:3600").unwrap(), Window::TimeRange { from: 0, to: 3600 });
        for bad in ["", "5", "a:b", "10:5", "5:5", "1:2:3"] {
            assert!(time_range(bad).is_err(), "{bad}");
        }
    }
}
