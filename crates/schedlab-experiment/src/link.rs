//! Share links: an experiment, the trace it runs on and the preset last run,
//! in a URL fragment.
//!
//! - `#v2=` + base64url of the JSON of a [`Link`] (the current format);
//! - `#v1=` + base64url of the page's first compact JSON (trace
//!   `t`, workload `w`, global knobs `g`, policy cards `p`, repetitions `r`,
//!   seed `s`, preset `x`), migrated into a [`Link`] so old links keep
//!   opening.
//!
//! Both base64 alphabets are accepted (standard `+/` and URL-safe `-_`),
//! with or without `=` padding (also percent-encoded, `%3D`), because chat
//! clients rewrite links. The data is bounded ([`MAX_LINK`]) before it is
//! decoded, and every refusal names the field. A decoded link has been
//! planned ([`crate::Plan::new`]), so it runs; whether a sample exists is
//! the page's to check (it owns the samples).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{Experiment, Plan};

/// Longest link data read, in characters after `v1=`/`v2=`.
pub const MAX_LINK: usize = 16_000;
const MAX_TEXT: usize = 2_000;
/// Largest seed a link may carry: the page's numbers are exact up to 2^53.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Where the experiment's trace comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TraceRef {
    /// A sample bundled with the page, by id.
    Sample { id: String },
    /// A Lublin–Feitelson trace generated with these settings.
    Generated {
        procs: u32,
        jobs: u32,
        load: f64,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        seed: u64,
    },
    /// An http(s) URL.
    Url { url: String },
    /// A file the user chose, known by name and SHA-256 (of its
    /// uncompressed text).
    File { name: String, sha256: String },
}

/// What a share link carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Link {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub trace: Option<TraceRef>,
    pub experiment: Experiment,
    /// The id of the preset last run, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub preset: Option<String>,
    /// The schedule view open when the link was made, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub view: Option<ViewLink>,
}

/// The schedule view a link restores: the runs shown, the time window and
/// the job inspected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ViewLink {
    /// The experiment's points shown (a run's first repetition): run A and,
    /// when two are compared, run B.
    #[cfg_attr(feature = "ts", ts(type = "Array<number>"))]
    pub points: Vec<u64>,
    /// The window `[from, to)`, in the trace's seconds.
    pub from: i64,
    pub to: i64,
    /// The job inspected, by its number in the trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub job: Option<u64>,
    /// Whether the two runs' Gantts are stacked on one time axis (before
    /// and after); absent in links made before the stacking was kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub stacked: bool,
}

/// The farthest instant a view may show, on either side of the trace's
/// start: the trace reader's time limit (2^40 s), the bounds of the window
/// syntax too (`parse_window`). A window may begin before the first submit,
/// because the view can be panned a little past either end of the run.
const MAX_VIEW_TIME: i64 = 1 << 40;

/// A link that cannot be opened; the message names the field.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct LinkError(pub String);

pub(crate) fn bad(text: impl Into<String>) -> LinkError {
    LinkError(text.into())
}

/// The fragment (without `#`) of a link.
pub fn encode(link: &Link) -> Result<String, LinkError> {
    check(link)?;
    let json = serde_json::to_string(link).map_err(|e| bad(e.to_string()))?;
    let data = base64url(json.as_bytes());
    if data.len() > MAX_LINK {
        return Err(bad(format!(
            "the experiment is too large for a link ({} characters; at most {MAX_LINK})",
            data.len()
        )));
    }
    Ok(format!("v2={data}"))
}

/// Decodes a fragment (with or without its `#`).
pub fn decode(fragment: &str) -> Result<Link, LinkError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let (version, data) = if let Some(d) = fragment.strip_prefix("v2=") {
        (2, d)
    } else if let Some(d) = fragment.strip_prefix("v1=") {
        (1, d)
    } else {
        return Err(bad("the link is not a Schedlab experiment (expected #v2=… or #v1=…)"));
    };
    if data.len() > MAX_LINK {
        return Err(bad(format!("the link is too long ({} characters; at most {MAX_LINK})", data.len())));
    }
    let bytes = base64_decode(data)?;
    let text = String::from_utf8(bytes).map_err(|_| bad("the link's data is not UTF-8 text"))?;
    let link = crate::json::link_data(&text, version)?;
    check(&link)?;
    Ok(link)
}

/// What a link must satisfy beyond its shape: a trace reference that makes
/// sense, a known preset, seeds the page can hold, workload options the
/// reader accepts, and a plannable experiment.
fn check(link: &Link) -> Result<(), LinkError> {
    if let Some(t) = &link.trace {
        check_trace(t)?;
    }
    if let Some(p) = &link.preset {
        if crate::preset(p).is_none() {
            return Err(bad(format!("preset: the link names a preset that does not exist (`{}`)", clip(p))));
        }
    }
    let e = &link.experiment;
    if e.seed > MAX_SAFE_INTEGER - u64::from(e.repeat) {
        return Err(bad(format!("experiment.seed: {} is too large (at most 2^53 − 1 − repeat)", e.seed)));
    }
    // The reader's own check, so that a link that decodes also opens its
    // trace (a machine size of 0, a load factor of 0, an empty queue list).
    e.workload.read_options().validate().map_err(|err| bad(format!("experiment.workload: {err}")))?;
    let plan = Plan::new(e.clone()).map_err(|err| bad(format!("experiment: {err}")))?;
    if let Some(v) = &link.view {
        check_view(v, plan.len())?;
    }
    Ok(())
}

/// A view names one or two distinct points of the experiment, a non-empty
/// window within the reader's time limit, and a job number the page can hold.
fn check_view(v: &ViewLink, points: u64) -> Result<(), LinkError> {
    if !(1..=2).contains(&v.points.len()) {
        return Err(bad(format!("view.points: one or two runs (A, and B to compare), not {}", v.points.len())));
    }
    if let Some(p) = v.points.iter().find(|&&p| p >= points) {
        return Err(bad(format!("view.points: the experiment has points 0 to {}, not {p}", points - 1)));
    }
    if v.points.len() == 2 && v.points[0] == v.points[1] {
        return Err(bad("view.points: runs A and B must differ"));
    }
    if v.stacked && v.points.len() != 2 {
        return Err(bad("view.stacked: stacking shows two runs, A above B; the view names one"));
    }
    let within = -MAX_VIEW_TIME..=MAX_VIEW_TIME;
    if !within.contains(&v.from) || !within.contains(&v.to) {
        return Err(bad(format!("view.from, view.to: the window must lie within ±2^40 s, not {}:{}", v.from, v.to)));
    }
    if v.to <= v.from {
        return Err(bad(format!("view.to: the window's end ({}) must come after its start ({})", v.to, v.from)));
    }
    if v.job.is_some_and(|j| j > MAX_SAFE_INTEGER) {
        return Err(bad("view.job: a job number of at most 2^53 − 1"));
    }
    Ok(())
}

fn check_trace(t: &TraceRef) -> Result<(), LinkError> {
    match t {
        TraceRef::Sample { id } if id.is_empty() || id.len() > 100 => {
            Err(bad("trace.id: a sample id of 1 to 100 characters"))
        }
        TraceRef::Generated { procs, jobs, load, .. } => {
            let ok = (1..=1_000_000).contains(procs) && (1..=1_000_000).contains(jobs) && (0.01..=10.0).contains(load);
            if ok {
                Ok(())
            } else {
                Err(bad("trace: the generated-trace settings are out of range (procs and jobs 1 to 1,000,000, load 0.01 to 10)"))
            }
        }
        TraceRef::Url { url } => {
            let lower = url.to_ascii_lowercase();
            if url.len() > MAX_TEXT || !(lower.starts_with("https://") || lower.starts_with("http://")) {
                Err(bad("trace.url: the trace URL must be an http or https URL of at most 2,000 characters"))
            } else if url.chars().any(|c| c.is_whitespace() || schedlab_workload::is_hidden(c)) {
                // A URL holds no space, newline, NUL or bidirectional
                // control (which would show it reversed); percent-encode them.
                Err(bad(format!(
                    "trace.url: `{}` holds a space or a control character, which a URL writes percent-encoded",
                    schedlab_workload::short_text(url)
                )))
            } else {
                Ok(())
            }
        }
        TraceRef::File { name, sha256 } => {
            if name.is_empty() || name.chars().count() > 200 || name.chars().any(schedlab_workload::is_hidden) {
                Err(bad("trace.name: the file name must be 1 to 200 printable characters"))
            } else if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
                Err(bad("trace.sha256: the file's SHA-256 must be 64 lowercase hexadecimal digits"))
            } else {
                Ok(())
            }
        }
        TraceRef::Sample { .. } => Ok(()),
    }
}

pub(crate) fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}

// ---- base64 ----

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

/// Either alphabet, padding optional (`=` or `%3D`), nothing else.
fn base64_decode(text: &str) -> Result<Vec<u8>, LinkError> {
    let text = text.replace("%3D", "=").replace("%3d", "=");
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 2 {
        return Err(bad("the link's data is not base64 (too much `=` padding)"));
    }
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in body.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => {
                let shown = body[i..].chars().next().unwrap_or('?');
                return Err(bad(format!("the link's data is not base64 (`{shown}` at position {})", i + 1)));
            }
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if body.len() % 4 == 1 {
        return Err(bad("the link's data is not base64 (its length is impossible)"));
    }
    Ok(out)
}

/// Whether `value` is the parameter's default, so that a migrated link
/// leaves it out.
pub(crate) fn is_default(spec: &schedlab_engine::params::ParamSpec, value: &str) -> bool {
    use schedlab_engine::params::ParamKind;
    match spec.kind {
        ParamKind::Choice { default, .. } => value == default,
        ParamKind::Int { default, .. } => value.trim().parse::<f64>().is_ok_and(|v| v == default as f64),
        ParamKind::Float { default, .. } => value.trim().parse::<f64>().is_ok_and(|v| v == default),
        ParamKind::IntOr { default, .. } | ParamKind::Text { default, .. } => value.trim() == default,
    }
}

#[cfg(test)]
mod tests;
