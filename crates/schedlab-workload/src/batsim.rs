//! Batsim workloads (JSON, versions 4 and 5): the only JSON the reader
//! parses (docs/formats.md).
//!
//! A workload has `nb_res` (the machine size), `jobs` (`id`, `subtime`,
//! `res`, `profile`, optional `walltime`) and `profiles`. Schedlab replays
//! a job's run time, so it reads delay profiles only: `{"type": "delay"}`
//! in version 4, `{"type": "DelayProfile"}` in version 5, each with its
//! `delay` in seconds; any other profile type is refused by name. Job ids
//! are numbers, or strings whose part after a `!` (`w0!12`, version 5's
//! `workload!id`) is one, since Schedlab knows jobs by number.

use std::collections::BTreeMap;
use std::io::BufRead;

use serde::Deserialize;

use crate::clean::CleaningReport;
use crate::error::SwfError;
use crate::header::Header;
use crate::job::{Job, SwfExtra};
use crate::options::ReadOptions;
use crate::read::{keep, Gathered, Stop};

#[derive(Deserialize)]
struct Workload {
    nb_res: Option<u64>,
    jobs: Vec<BatsimJob>,
    profiles: BTreeMap<String, Profile>,
}

#[derive(Deserialize)]
struct BatsimJob {
    id: serde_json::Value,
    subtime: f64,
    res: i64,
    profile: String,
    walltime: Option<f64>,
}

#[derive(Deserialize)]
struct Profile {
    #[serde(rename = "type")]
    kind: String,
    delay: Option<f64>,
}

fn invalid(at: impl Into<String>, message: impl Into<String>) -> Stop {
    Stop::Invalid(SwfError::Batsim { at: at.into(), message: message.into() })
}

/// Reads a whole workload (a JSON document cannot be used before its end)
/// and turns its jobs into rows; `lines` counts its lines.
pub(crate) fn read_batsim<B: BufRead>(input: &mut B, opts: &ReadOptions, lines: &mut u64) -> Result<Gathered, Stop> {
    let mut text = Vec::new();
    input.read_to_end(&mut text)?;
    *lines = memchr::memchr_iter(b'\n', &text).count() as u64 + u64::from(!text.ends_with(b"\n"));
    let workload: Workload = serde_json::from_slice(&text).map_err(|e| {
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
        invalid(format!("line {}, column {}", e.line(), e.column()), message)
    })?;
    drop(text);
    if workload.jobs.len() as u64 > opts.max_jobs {
        return Err(Stop::TooManyJobs);
    }
    if workload.jobs.is_empty() {
        return Err(invalid("jobs", "the workload has no job"));
    }
    let mut report = CleaningReport::default();
    let mut rows = Vec::with_capacity(workload.jobs.len());
    for (i, j) in workload.jobs.iter().enumerate() {
        let (job, rounded) = to_job(i, j, &workload.profiles)?;
        report.job_lines += 1;
        report.fractional_rounded += u64::from(rounded);
        keep(opts, &mut report, &mut rows, job, SwfExtra::unknown(-1));
    }
    let header = Header {
        max_procs: workload.nb_res.map(|n| u32::try_from(n).unwrap_or(u32::MAX).min(crate::limits::MAX_PROCS)),
        ..Header::default()
    };
    let no_machine_size = "the workload has no nb_res";
    Ok(Gathered { rows, header, report, warnings: Vec::new(), no_machine_size })
}

/// Job `i` as an SWF job, and whether a time was rounded to whole seconds.
fn to_job(i: usize, j: &BatsimJob, profiles: &BTreeMap<String, Profile>) -> Result<(Job, bool), Stop> {
    let at = || format!("job {} (jobs[{i}])", j.id);
    let id = job_number(&j.id).ok_or_else(|| {
        invalid(at(), "the id is not a number, nor a string ending in one (`w0!12`): Schedlab knows jobs by number")
    })?;
    let delay = delay(&j.profile, profiles).map_err(|message| invalid(at(), message))?;
    let seconds = |x: f64, what: &str| -> Result<(i64, bool), Stop> {
        if !x.is_finite() || x < 0.0 {
            return Err(invalid(at(), format!("{what} {x} is not a time in seconds")));
        }
        let whole = x.round();
        Ok((whole.min(i64::MAX as f64) as i64, whole != x))
    };
    let (submit, a) = seconds(j.subtime, "subtime")?;
    let (runtime, b) = seconds(delay, "the profile's delay")?;
    let (estimate, c) = match j.walltime {
        Some(w) if w > 0.0 => seconds(w, "walltime")?,
        Some(w) => return Err(invalid(at(), format!("walltime {w} is not above 0 (leave it out for no walltime)"))),
        None => (-1, false),
    };
    if j.res < 0 {
        return Err(invalid(at(), format!("res {} is negative", j.res)));
    }
    let size = u32::try_from(j.res).unwrap_or(u32::MAX);
    let job = Job { id, submit, runtime, size, estimate, user: -1, group: -1, queue: -1, partition: -1, status: 1 };
    Ok((job, a || b || c))
}

/// `12`, `"12"` or `"w0!12"` → 12.
fn job_number(id: &serde_json::Value) -> Option<u64> {
    match id {
        serde_json::Value::Number(n) => n.as_u64(),
        serde_json::Value::String(s) => s.rsplit('!').next()?.parse().ok(),
        _ => None,
    }
}

/// The delay of the profile `name` (looked up as written, then without a
/// `workload!` prefix), or why it has none.
fn delay(name: &str, profiles: &BTreeMap<String, Profile>) -> Result<f64, String> {
    let short = name.rsplit('!').next().unwrap_or(name);
    let profile = profiles
        .get(name)
        .or_else(|| profiles.get(short))
        .ok_or_else(|| format!("its profile `{name}` is not among the workload's profiles"))?;
    if profile.kind != "delay" && profile.kind != "DelayProfile" {
        return Err(format!(
            "its profile `{name}` has type `{}`: Schedlab replays only delay profiles (`delay` in Batsim 4, \
             `DelayProfile` in Batsim 5), whose run time does not depend on the platform",
            profile.kind
        ));
    }
    profile.delay.ok_or_else(|| format!("its profile `{name}` has no delay"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_numbers() {
        assert_eq!(job_number(&serde_json::json!(12)), Some(12));
        assert_eq!(job_number(&serde_json::json!("12")), Some(12));
        assert_eq!(job_number(&serde_json::json!("w0!12")), Some(12));
        assert_eq!(job_number(&serde_json::json!("job-a")), None);
        assert_eq!(job_number(&serde_json::json!(-3)), None);
        assert_eq!(job_number(&serde_json::json!(1.5)), None);
    }
}
