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
use serde_json::Value;
use thiserror::Error;

use crate::{Experiment, ParamList, Plan, RunSpec, Sweep, SweepValues, WorkloadOptions};

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

fn bad(text: impl Into<String>) -> LinkError {
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
    let json: Value =
        serde_json::from_str(&text).map_err(|e| bad(format!("the link's data is not valid JSON ({e})")))?;
    // Read from the text, not the parsed value, whose objects forget the
    // order of a run's parameters (and so its label).
    let link = if version == 2 {
        serde_json::from_str(&text).map_err(|e| bad(format!("the link: {e}")))?
    } else {
        migrate_v1(&json)?
    };
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
            } else {
                Ok(())
            }
        }
        TraceRef::File { name, sha256 } => {
            if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
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

fn clip(s: &str) -> String {
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

// ---- the first format ----

/// Reads a `#v1=` link (the page's compact JSON, validated as the page
/// did) into a [`Link`]. Per policy card: its parameters, with the global
/// knobs over them, parameters at their default left out; its runtime
/// source unless it is the policy's default; its sweep. Cards that sweep
/// share one sweep (the same parameter and range), restricted to them.
fn migrate_v1(v: &Value) -> Result<Link, LinkError> {
    let o = v.as_object().ok_or_else(|| bad("the link's data is malformed (expected an object)"))?;
    if let Some(k) = o.keys().find(|k| !["t", "w", "g", "p", "r", "s", "x"].contains(&k.as_str())) {
        return Err(bad(format!("field `{}`: unknown in a v1 link", clip(k))));
    }
    let trace = o.get("t").map(v1_trace).transpose()?;
    let workload = o.get("w").map(v1_workload).transpose()?.unwrap_or_default();
    let globals = v1_globals(o.get("g"))?;
    let cards = o.get("p").and_then(Value::as_array).filter(|p| !p.is_empty() && p.len() <= 50);
    let cards = cards.ok_or_else(|| bad("field `p`: the link names no policy (or more than 50)"))?;
    let mut runs = Vec::new();
    let mut sweeps: Vec<(usize, (String, f64, f64, f64))> = Vec::new();
    for (i, card) in cards.iter().enumerate() {
        let (run, sweep) = v1_card(card, i, &globals)?;
        if let Some(s) = sweep {
            sweeps.push((i, s));
        }
        runs.push(run);
    }
    let sweep = match sweeps.first() {
        None => None,
        Some((_, first)) => {
            if let Some((i, other)) = sweeps.iter().find(|(_, s)| s != first) {
                return Err(bad(format!(
                    "field `p[{i}]`: policy {} sweeps {} from {} to {} by {}, another policy {} from {} to {} by {}; an experiment sweeps one parameter over one range",
                    i + 1, other.0, other.1, other.2, other.3, first.0, first.1, first.2, first.3
                )));
            }
            Some(Sweep {
                param: first.0.clone(),
                values: SweepValues::Range { from: first.1, to: first.2, step: first.3 },
                runs: Some(sweeps.iter().map(|(i, _)| *i).collect()),
            })
        }
    };
    let int = |key: &str, max: u64| -> Result<Option<u64>, LinkError> {
        match o.get(key) {
            None => Ok(None),
            Some(x) => x
                .as_u64()
                .filter(|n| *n <= max)
                .map(Some)
                .ok_or_else(|| bad(format!("field `{key}`: a whole number from 0 to {max}"))),
        }
    };
    let repeat = int("r", 100)?.unwrap_or(1) as u32;
    if repeat == 0 {
        return Err(bad("field `r`: repetitions from 1 to 100"));
    }
    let seed = int("s", MAX_SAFE_INTEGER)?.unwrap_or(0);
    let preset = match o.get("x") {
        None => None,
        Some(Value::String(p)) => Some(p.clone()),
        Some(_) => return Err(bad("field `x`: a preset id")),
    };
    let experiment = Experiment { runs, repeat, seed, sweep, workload, wait_ecdf: true, ..Experiment::default() };
    Ok(Link { trace, experiment, preset, view: None })
}

fn v1_trace(t: &Value) -> Result<TraceRef, LinkError> {
    let a = t.as_array().filter(|a| a.len() >= 2).ok_or_else(|| bad("field `t`: the trace reference is malformed"))?;
    let text = |i: usize| a.get(i).and_then(Value::as_str).map(str::to_owned);
    let num = |i: usize| a.get(i).and_then(Value::as_f64);
    let whole = |i: usize| a.get(i).and_then(Value::as_u64);
    let r = match a[0].as_str() {
        Some("s") => text(1).map(|id| TraceRef::Sample { id }),
        Some("g") => match (whole(1), whole(2), num(3), whole(4)) {
            (Some(p), Some(j), Some(load), Some(seed)) if p <= u64::from(u32::MAX) && j <= u64::from(u32::MAX) => {
                Some(TraceRef::Generated { procs: p as u32, jobs: j as u32, load, seed })
            }
            _ => None,
        },
        Some("u") => text(1).map(|url| TraceRef::Url { url }),
        Some("f") => match (text(1), text(2)) {
            (Some(name), Some(sha256)) => Some(TraceRef::File { name, sha256 }),
            _ => None,
        },
        _ => return Err(bad("field `t`: the trace reference has an unknown kind")),
    };
    r.ok_or_else(|| bad("field `t`: the trace reference is malformed"))
}

fn v1_workload(w: &Value) -> Result<WorkloadOptions, LinkError> {
    let a =
        w.as_array().filter(|a| a.len() == 5).ok_or_else(|| bad("field `w`: the workload options are malformed"))?;
    let machine =
        a[0].as_u64().filter(|m| *m <= 100_000_000).ok_or_else(|| bad("field `w[0]`: machine size out of range"))?;
    let load = a[1]
        .as_f64()
        .filter(|l| (0.0..=1000.0).contains(l))
        .ok_or_else(|| bad("field `w[1]`: load factor out of range"))?;
    let first = a[2].as_u64().filter(|f| *f <= 100_000_000).ok_or_else(|| bad("field `w[2]`: window out of range"))?;
    let queues = a[3]
        .as_array()
        .filter(|q| q.len() <= 100)
        .and_then(|q| {
            q.iter()
                .map(|x| x.as_i64().filter(|n| (-1..=1_000_000_000).contains(n)).map(|n| n as i32))
                .collect::<Option<Vec<i32>>>()
        })
        .ok_or_else(|| bad("field `w[3]`: the queue filter is malformed"))?;
    let clamp = match a[4].as_u64() {
        Some(0) => false,
        Some(1) => true,
        _ => return Err(bad("field `w[4]`: the oversize option is malformed")),
    };
    Ok(WorkloadOptions {
        machine_size: (machine > 0).then_some(machine as u32),
        load_factor: (load > 0.0).then_some(load),
        window: (first > 0).then_some(schedlab_workload::Window::FirstJobs(first as usize)),
        queues: (!queues.is_empty()).then_some(queues),
        oversize: clamp.then_some(schedlab_workload::Oversize::Clamp),
        ..WorkloadOptions::default()
    })
}

/// The v1 global knobs: `sf`, `error`, `cost` as numbers in text.
fn v1_globals(g: Option<&Value>) -> Result<Vec<(String, String)>, LinkError> {
    let Some(g) = g else { return Ok(Vec::new()) };
    let g = g.as_object().ok_or_else(|| bad("field `g`: the global knobs are malformed"))?;
    g.iter()
        .map(|(k, v)| {
            if !crate::KNOBS.contains(&k.as_str()) {
                return Err(bad(format!("field `g.{}`: not a global knob", clip(k))));
            }
            match v.as_str() {
                Some(t) if t.len() <= 50 && t.trim().parse::<f64>().is_ok_and(f64::is_finite) => {
                    Ok((k.clone(), t.to_owned()))
                }
                _ => Err(bad(format!("field `g.{k}`: not a number"))),
            }
        })
        .collect()
}

type V1Sweep = (String, f64, f64, f64);

fn v1_card(card: &Value, i: usize, globals: &[(String, String)]) -> Result<(RunSpec, Option<V1Sweep>), LinkError> {
    let at = |what: &str| bad(format!("field `p[{i}]` (policy {}): {what}", i + 1));
    let a = card.as_array().filter(|a| (3..=4).contains(&a.len())).ok_or_else(|| at("malformed"))?;
    let id = a[0].as_str().filter(|s| s.len() <= 100).ok_or_else(|| at("malformed"))?;
    let policy = schedlab_policies::find(id).ok_or_else(|| at("the link names a policy this page does not know"))?;
    let source = a[2].as_str().ok_or_else(|| at("the runtime source is malformed"))?;
    let predictor = match (policy.uses_runtime_source, source) {
        (false, "") => None,
        (false, _) => return Err(at(&format!("{} takes no runtime source", policy.name))),
        (true, s) if s == policy.default_source => None,
        (true, s) if schedlab_engine::SOURCES.iter().any(|x| x.id == s) => Some(s.to_owned()),
        (true, _) => return Err(at("unknown runtime source")),
    };
    let mut run = RunSpec { policy: id.to_owned(), params: ParamList::default(), predictor };
    let specs = run.params_taken();
    let given = a[1].as_object().ok_or_else(|| at("parameters are malformed"))?;
    let sweep = a.get(3).map(|s| v1_sweep(s).ok_or_else(|| at("the sweep is malformed"))).transpose()?;
    let mut params = ParamList::default();
    for spec in &specs {
        let own = match given.get(spec.key) {
            Some(Value::String(s)) if s.len() <= 50 => Some(s.clone()),
            Some(_) => return Err(at(&format!("parameter `{}` is malformed", spec.key))),
            None => None,
        };
        let global = globals.iter().find(|(k, _)| k == spec.key).map(|(_, v)| v.clone());
        let Some(value) = global.or(own) else { continue };
        let swept = sweep.as_ref().is_some_and(|s| s.0 == spec.key);
        if !swept && !is_default(spec, &value) {
            params.0.push((spec.key.to_owned(), value));
        }
    }
    if let Some(k) = given.keys().find(|k| !specs.iter().any(|s| s.key == k.as_str())) {
        return Err(at(&format!("unknown parameter `{}`", clip(k))));
    }
    run.params = params;
    Ok((run, sweep))
}

fn v1_sweep(s: &Value) -> Option<V1Sweep> {
    let a = s.as_array().filter(|a| a.len() == 4)?;
    Some((a[0].as_str()?.to_owned(), a[1].as_f64()?, a[2].as_f64()?, a[3].as_f64()?))
}

fn is_default(spec: &schedlab_engine::params::ParamSpec, value: &str) -> bool {
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
