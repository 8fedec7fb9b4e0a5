//! Opening a trace file and turning the workload flags into the core's
//! `ReadOptions`. Every error names the file or the flag.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use schedlab_workload::{
    read_stats, read_swf, Loaded, Machine, Oversize, ReadOptions, Summary, SwfError, Window, MAX_PROCS, MAX_TIME,
};

use schedlab_experiment::WorkloadOptions;
use schedlab_session::{machine_from_nodes, machine_from_slurm_conf, Session};

use crate::args::WorkloadArgs;
use crate::fail::short_text;

/// The core's read options for the workload flags.
pub fn read_options(w: &WorkloadArgs) -> Result<ReadOptions> {
    let mut o = ReadOptions::default();
    match w.procs {
        Some(0) => bail!("--procs must be at least 1"),
        Some(p) if p > MAX_PROCS => bail!("--procs {p} is above the limit of {MAX_PROCS} processors (2^31)"),
        _ => o.machine_size = w.procs,
    }
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
        o.max_bytes = byte_size(text).with_context(|| format!("--max-bytes `{}`", short_text(text)))?;
    }
    if let Some(n) = w.max_jobs {
        o.max_jobs = n;
    }
    o.machine = machine(w)?;
    Ok(o)
}

/// The machine of nodes `--nodes` or `--slurm-conf` gives, if any. The
/// slurm.conf lines that no reader uses are printed to standard error
/// (once, though a command may read its flags more than once), so a site's
/// file is never half-read in silence. When every policy is `slurm`, the
/// policy reports the lines itself (`params_with_slurm_conf`), and a file
/// with no NodeName line or of one node makes no machine: the policy then
/// runs on the trace's processors, one node of them, as it did before it
/// read machines, so those results keep their bytes.
fn machine(w: &WorkloadArgs) -> Result<Option<Machine>> {
    if let Some(spec) = &w.nodes {
        return machine_from_nodes(spec, "--nodes").map(Some).map_err(|e| anyhow!("{e}"));
    }
    let Some(path) = w.slurm_conf.as_ref() else { return Ok(None) };
    let text = std::fs::read_to_string(path).with_context(|| format!("--slurm-conf {}", path.display()))?;
    let what = format!("--slurm-conf {}", path.display());
    if w.every_policy_is_slurm && !has_node_lines(&text) {
        return Ok(None);
    }
    let read = machine_from_slurm_conf(&text, &what).map_err(|e| anyhow!("{e}"))?;
    if w.every_policy_is_slurm && read.machine.nodes() <= 1 {
        return Ok(None);
    }
    if !w.every_policy_is_slurm {
        static TOLD: std::sync::Once = std::sync::Once::new();
        TOLD.call_once(|| read.notes.iter().for_each(|note| eprintln!("{note}")));
    }
    Ok(Some(read.machine))
}

/// Whether a slurm.conf has a NodeName line (an unreadable file has none;
/// the policy's reader then says why).
fn has_node_lines(text: &str) -> bool {
    schedlab_workload::parse_slurm_conf(text).is_ok_and(|conf| conf.lines.iter().any(|l| l.is("NodeName")))
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

/// `FROM:TO`, whole seconds after the first submit, FROM < TO, both
/// within ±2^40 s (the reader's time limit).
pub fn time_range(text: &str) -> Result<Window> {
    let shown = short_text(text);
    let bad = || {
        anyhow!(
            "--time-range `{shown}`: expected FROM:TO, whole seconds after the first submit with FROM < TO, \
             both within ±{MAX_TIME} s (2^40)"
        )
    };
    let (from, to) = text.split_once(':').ok_or_else(bad)?;
    let from: i64 = from.trim().parse().map_err(|_| bad())?;
    let to: i64 = to.trim().parse().map_err(|_| bad())?;
    if from >= to || from.unsigned_abs().max(to.unsigned_abs()) > MAX_TIME.unsigned_abs() {
        return Err(bad());
    }
    Ok(Window::TimeRange { from, to })
}

/// A load factor: a finite number above 0. Whether it keeps the submit
/// times within the time limit depends on the trace: the reader checks.
fn load_factor(text: &str) -> Result<f64> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => bail!("--load-factor `{}`: expected a number above 0", short_text(text)),
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
    load_using(path, opts, read_swf)
}

/// Opens a trace and reads its statistics (streaming, see `read_stats`);
/// errors name the file.
pub fn load_summary(path: &Path, opts: &ReadOptions) -> Result<Summary> {
    load_using(path, opts, read_stats)
}

fn load_using<T>(
    path: &Path,
    opts: &ReadOptions,
    read: impl FnOnce(BufReader<File>, &ReadOptions) -> Result<T, SwfError>,
) -> Result<T> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        bail!("{} is a directory, not a trace file", path.display());
    }
    read(BufReader::with_capacity(1 << 16, file), opts)
        .map_err(|e| match flag_of(&e) {
            Some(flag) => anyhow!("{e}; {flag} raises the limit"),
            None => anyhow::Error::new(e),
        })
        .with_context(|| path.display().to_string())
}

/// The flag that lifts the limit an error reports, if any.
fn flag_of(e: &SwfError) -> Option<&'static str> {
    match e {
        SwfError::TooManyJobs { .. } => Some("--max-jobs"),
        SwfError::TooLarge { .. } => Some("--max-bytes"),
        _ => None,
    }
}

/// Reads a trace as `load` does, with the workload flags, and tells its
/// warnings on stderr (they are also in every result document).
pub fn load_with(path: &Path, w: &WorkloadArgs) -> Result<Loaded> {
    load_with_warnings(path, &read_options(w)?)
}

/// A session over the trace at `path`, read with `workload` as
/// `load_with_warnings` reads it (the command line opens the file and
/// words its errors; the session does the rest).
pub fn session(path: &Path, workload: WorkloadOptions) -> Result<Session> {
    let loaded = load_with_warnings(path, &workload.read_options())?;
    Ok(Session::of_loaded(loaded, trace_name(path), workload))
}

/// Reads a trace as `load` does and tells its warnings on stderr.
pub fn load_with_warnings(path: &Path, opts: &ReadOptions) -> Result<Loaded> {
    let loaded = load(path, opts)?;
    let name = trace_name(path);
    for warning in &loaded.report.warnings {
        eprintln!("schedlab: warning: {name}: {}", crate::fail::flatten(warning));
    }
    if let Some(note) = schedlab_workload::paper_machine_note(&name, loaded.trace.procs, opts) {
        eprintln!("schedlab: note: {name}: {note}");
    }
    Ok(loaded)
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
        let edge = format!("-{MAX_TIME}:{MAX_TIME}");
        assert_eq!(time_range(&edge).unwrap(), Window::TimeRange { from: -MAX_TIME, to: MAX_TIME });
        let past = format!("0:{}", MAX_TIME + 1);
        for bad in ["", "5", "a:b", "10:5", "5:5", "1:2:3", "0:9223372036854775807", &past] {
            assert!(time_range(bad).is_err(), "{bad}");
        }
    }
}
