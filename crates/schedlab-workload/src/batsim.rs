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
//!
//! The document streams: each job is checked and kept in a compact form
//! (its numbers and the index of its profile's name) as it is read, and
//! the job limit stops the reading at the first job past it, so a small
//! compressed file of millions of jobs costs no more memory than the limit
//! allows. The profiles may come before or after the jobs; each job's
//! profile is looked up once both are read. The profiles are bounded by
//! the same limit (a workload needs no more profiles than jobs), so a
//! document whose profiles come last, or that holds nothing but profiles,
//! is bounded too (docs/decisions.md).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead, Read};

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::clean::CleaningReport;
use crate::error::{short_text, SwfError};
use crate::header::{machine_count, Header};
use crate::job::{Job, SwfExtra};
use crate::options::ReadOptions;
use crate::read::{keep, Gathered, Stop};

/// A job as the document gives it; its id is read by [`JobId`].
#[derive(Deserialize)]
struct BatsimJob {
    id: JobId,
    subtime: f64,
    res: i64,
    profile: String,
    walltime: Option<f64>,
}

/// A profile as the document gives it; other fields are skipped unread.
#[derive(Deserialize)]
struct Profile {
    #[serde(rename = "type")]
    kind: String,
    delay: Option<f64>,
}

/// What a profile gives a job: its delay, or why it has none (kept short).
#[derive(Clone, Debug)]
enum Delay {
    Seconds(f64),
    Missing,
    OtherType(String),
}

/// A job kept while the document streams: its checked numbers and the
/// index of its profile's name, about 40 bytes.
struct Pending {
    id: u64,
    submit: i64,
    size: u32,
    estimate: i64,
    rounded: bool,
    profile: u32,
}

/// A job id: its number, or the id as a message shows it (short).
enum JobId {
    Number(u64),
    Bad(String),
}

impl<'de> Deserialize<'de> for JobId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<JobId, D::Error> {
        struct IdVisitor;
        impl Visitor<'_> for IdVisitor {
            type Value = JobId;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a job id (a number, or a string ending in one)")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<JobId, E> {
                Ok(JobId::Number(n))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<JobId, E> {
                Ok(u64::try_from(n).map_or_else(|_| JobId::Bad(n.to_string()), JobId::Number))
            }
            fn visit_f64<E: de::Error>(self, x: f64) -> Result<JobId, E> {
                Ok(JobId::Bad(x.to_string()))
            }
            /// `"12"` or `"w0!12"` → 12.
            fn visit_str<E: de::Error>(self, s: &str) -> Result<JobId, E> {
                let number = s.rsplit('!').next().and_then(|n| n.parse().ok());
                Ok(number.map_or_else(|| JobId::Bad(format!("\"{}\"", short_text(s))), JobId::Number))
            }
        }
        deserializer.deserialize_any(IdVisitor)
    }
}

impl fmt::Display for JobId {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            JobId::Number(n) => write!(f, "{n}"),
            JobId::Bad(shown) => f.write_str(shown),
        }
    }
}

fn invalid(at: impl Into<String>, message: impl Into<String>) -> Stop {
    Stop::Invalid(SwfError::Batsim { at: at.into(), message: message.into() })
}

/// Everything read so far, and why reading stopped if it did: a visitor
/// cannot return a [`Stop`] through serde, so it leaves it here and
/// returns a bare error.
struct Workload<'a> {
    opts: &'a ReadOptions,
    nb_res: Option<serde_json::Number>,
    jobs: Vec<Pending>,
    /// Profile names, as jobs name them or the profiles define them, by
    /// index, and their indexes by name.
    names: Vec<Box<str>>,
    index: BTreeMap<Box<str>, u32>,
    /// What each name's profile gives, once defined (by name index).
    defined: Vec<Option<Delay>>,
    profiles: u64,
    seen: [bool; 3],
    /// Why the reading stopped, and at which line.
    stop: Option<(Stop, u64)>,
    lines: &'a LineCount,
}

impl<'a> Workload<'a> {
    fn new(opts: &'a ReadOptions, lines: &'a LineCount) -> Self {
        Workload {
            opts,
            nb_res: None,
            jobs: Vec::new(),
            names: Vec::new(),
            index: BTreeMap::new(),
            defined: Vec::new(),
            profiles: 0,
            seen: [false; 3],
            stop: None,
            lines,
        }
    }

    /// Stops the reading with `stop`, as a serde error serde passes up.
    fn halt<E: de::Error>(&mut self, stop: Stop) -> E {
        self.stop = Some((stop, self.lines.lines()));
        E::custom("stopped")
    }

    fn name_index(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.push(name.into());
        self.index.insert(name.into(), i);
        self.defined.push(None);
        i
    }

    /// Checks job `i` and keeps it, or says why not.
    fn job(&mut self, i: usize, j: BatsimJob) -> Result<(), Stop> {
        if self.jobs.len() as u64 >= self.opts.max_jobs {
            return Err(Stop::TooManyJobs);
        }
        let at = || format!("job {} (jobs[{i}])", j.id);
        let JobId::Number(id) = j.id else {
            return Err(invalid(
                at(),
                "the id is not a number, nor a string ending in one (`w0!12`): Schedlab knows jobs by number",
            ));
        };
        let (submit, a) = seconds(j.subtime, "subtime").map_err(|m| invalid(at(), m))?;
        let (estimate, b) = match j.walltime {
            Some(w) if w > 0.0 => seconds(w, "walltime").map_err(|m| invalid(at(), m))?,
            Some(w) => {
                return Err(invalid(at(), format!("walltime {w} is not above 0 (leave it out for no walltime)")))
            }
            None => (-1, false),
        };
        if j.res < 0 {
            return Err(invalid(at(), format!("res {} is negative", j.res)));
        }
        let size = u32::try_from(j.res).unwrap_or(u32::MAX);
        let profile = self.name_index(&j.profile);
        self.jobs.push(Pending { id, submit, size, estimate, rounded: a || b, profile });
        Ok(())
    }

    /// Defines the profile `name`; a name defined twice is refused, since
    /// either definition could be the one meant.
    fn profile(&mut self, name: &str, p: Profile) -> Result<(), String> {
        self.profiles += 1;
        if self.profiles > self.opts.max_jobs {
            return Err(format!(
                "more than {} profiles, the job limit (a workload needs no more profiles than jobs)",
                self.opts.max_jobs
            ));
        }
        let i = self.name_index(name) as usize;
        if self.defined[i].is_some() {
            return Err(format!("the profile `{}` is defined twice", short_text(name)));
        }
        let delay = match (p.kind.as_str(), p.delay) {
            ("delay" | "DelayProfile", Some(d)) => Delay::Seconds(d),
            ("delay" | "DelayProfile", None) => Delay::Missing,
            (other, _) => Delay::OtherType(short_text(other)),
        };
        self.defined[i] = Some(delay);
        Ok(())
    }

    /// The delay of profile `i` (looked up as written, then without a
    /// `workload!` prefix), or why it has none.
    fn delay(&self, i: u32) -> Result<f64, String> {
        let name = &self.names[i as usize];
        let short = name.rsplit('!').next().unwrap_or(name);
        let found = self.defined[i as usize]
            .as_ref()
            .or_else(|| self.index.get(short).and_then(|&s| self.defined[s as usize].as_ref()));
        let name = short_text(name);
        match found {
            None => Err(format!("its profile `{name}` is not among the workload's profiles")),
            Some(Delay::Missing) => Err(format!("its profile `{name}` has no delay")),
            Some(Delay::OtherType(kind)) => Err(format!(
                "its profile `{name}` has type `{kind}`: Schedlab replays only delay profiles (`delay` in Batsim 4, \
                 `DelayProfile` in Batsim 5), whose run time does not depend on the platform"
            )),
            Some(Delay::Seconds(d)) => Ok(*d),
        }
    }

    /// The jobs with their run times, through the per-job rules, and the
    /// machine size.
    fn finish(self) -> Result<Gathered, Stop> {
        if self.jobs.is_empty() {
            let what = if self.seen[1] { "the workload has no job" } else { "the workload has no jobs array" };
            return Err(invalid("jobs", what));
        }
        let mut report = CleaningReport::default();
        let mut rows = Vec::with_capacity(self.jobs.len());
        for (i, p) in self.jobs.iter().enumerate() {
            let at = || format!("job {} (jobs[{i}])", p.id);
            let delay = self.delay(p.profile).map_err(|m| invalid(at(), m))?;
            let (runtime, rounded) = seconds(delay, "the profile's delay").map_err(|m| invalid(at(), m))?;
            let job = Job {
                id: p.id,
                submit: p.submit,
                runtime,
                size: p.size,
                estimate: p.estimate,
                user: -1,
                group: -1,
                queue: -1,
                partition: -1,
                status: 1,
            };
            report.job_lines += 1;
            report.fractional_rounded += u64::from(p.rounded || rounded);
            keep(self.opts, &mut report, &mut rows, job, SwfExtra::unknown(-1), 1)?;
        }
        let mut warnings = Vec::new();
        let max_procs = self.nb_res.as_ref().and_then(|n| match machine_count(&n.to_string()) {
            Ok(procs) => Some(procs),
            Err(reason) => {
                warnings.push(format!("nb_res `{}` {reason}; ignored", short_text(&n.to_string())));
                None
            }
        });
        let no_machine_size = match (&self.nb_res, max_procs) {
            (None, _) => "the workload has no nb_res",
            _ => "the workload's nb_res is unusable (see above)",
        };
        let header = Header { max_procs, ..Header::default() };
        Ok(Gathered { rows, header, report, warnings, no_machine_size })
    }
}

/// A time in whole seconds and whether it was rounded, or why it is none.
fn seconds(x: f64, what: &str) -> Result<(i64, bool), String> {
    if !x.is_finite() || x < 0.0 {
        return Err(format!("{what} {} is not a time in seconds", crate::error::short_number(x)));
    }
    let whole = x.round();
    Ok((whole.min(i64::MAX as f64) as i64, whole != x))
}

/// The document's top level: an object whose keys are read as they come.
struct Document<'w, 'a>(&'w mut Workload<'a>);

impl<'de> Visitor<'de> for Document<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Batsim workload: a JSON object with nb_res, jobs and profiles")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(self.0.halt(invalid(
            "line 1",
            "the document is a JSON array; a Batsim workload is a JSON object with nb_res, jobs and profiles",
        )))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let slot = ["nb_res", "jobs", "profiles"].iter().position(|k| *k == key);
            if let Some(s) = slot {
                if std::mem::replace(&mut self.0.seen[s], true) {
                    return Err(de::Error::custom(format!("the key `{key}` is given twice")));
                }
            }
            match slot {
                Some(0) => self.0.nb_res = map.next_value::<Option<serde_json::Number>>()?,
                Some(1) => map.next_value_seed(Jobs(self.0))?,
                Some(2) => map.next_value_seed(Profiles(self.0))?,
                _ => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Document<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// The `jobs` array, each job checked and kept as it is read.
struct Jobs<'w, 'a>(&'w mut Workload<'a>);

impl<'de> DeserializeSeed<'de> for Jobs<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Jobs<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of jobs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while let Some(job) = seq.next_element::<BatsimJob>()? {
            if let Err(stop) = self.0.job(i, job) {
                return Err(self.0.halt(stop));
            }
            i += 1;
        }
        Ok(())
    }
}

/// The `profiles` object, each profile kept as what it gives a job.
struct Profiles<'w, 'a>(&'w mut Workload<'a>);

impl<'de> DeserializeSeed<'de> for Profiles<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Profiles<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of profiles by name")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let profile = map.next_value::<Profile>()?;
            self.0.profile(&name, profile).map_err(de::Error::custom)?;
        }
        Ok(())
    }
}

/// The lines serde has read so far, shared by the input that counts them
/// and the visitors that stop the reading: serde reads on after a
/// visitor's error (to the next `,` or `]`), so a stop notes its line
/// when it happens.
#[derive(Default)]
struct LineCount {
    newlines: Cell<u64>,
    last: Cell<Option<u8>>,
}

impl LineCount {
    /// Lines read so far, a last line without its ending included.
    fn lines(&self) -> u64 {
        self.newlines.get() + u64::from(self.last.get().is_some_and(|b| b != b'\n'))
    }
}

/// The input, counting its lines as serde reads it.
struct Counted<'r, B> {
    inner: &'r mut B,
    count: &'r LineCount,
}

impl<B: BufRead> Read for Counted<'_, B> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let newlines = memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        self.count.newlines.set(self.count.newlines.get() + newlines);
        if n > 0 {
            self.count.last.set(Some(buf[n - 1]));
        }
        Ok(n)
    }
}

/// Reads a workload as it streams and turns its jobs into rows; `lines`
/// counts its lines.
pub(crate) fn read_batsim<B: BufRead>(input: &mut B, opts: &ReadOptions, lines: &mut u64) -> Result<Gathered, Stop> {
    // A UTF-8 byte order mark, as some Windows editors write, is not JSON.
    if input.fill_buf()?.starts_with(b"\xEF\xBB\xBF") {
        input.consume(3);
    }
    let count = LineCount::default();
    let mut workload = Workload::new(opts, &count);
    let read = {
        let mut de = serde_json::Deserializer::from_reader(Counted { inner: input, count: &count });
        Document(&mut workload).deserialize(&mut de).and_then(|()| de.end())
    };
    *lines = count.lines();
    if let Some((stop, line)) = workload.stop.take() {
        *lines = line;
        return Err(stop);
    }
    read.map_err(|e| {
        if e.is_io() {
            return Stop::Io(io::Error::from(e));
        }
        let message = e.to_string();
        let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m);
        invalid(format!("line {}, column {}", e.line(), e.column()), shorten_quoted(message))
    })?;
    workload.finish()
}

/// A serde message with every quoted part cut short: serde quotes the
/// document's text whole (`invalid type: string "…50 MB…", expected f64`),
/// escaping the quotes inside it (`"{\"a\": 1}"`), so a quoted part ends
/// at the first quote that no backslash escapes.
fn shorten_quoted(message: &str) -> String {
    let mut out = String::new();
    let mut quoted: Option<String> = None;
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        match (&mut quoted, c) {
            (None, '"') => quoted = Some(String::new()),
            (None, c) => out.push(c),
            (Some(part), '\\') => {
                part.push(c);
                part.extend(chars.next());
            }
            (Some(part), '"') => {
                out.push('"');
                out.push_str(&short_text(part));
                out.push('"');
                quoted = None;
            }
            (Some(part), c) => part.push(c),
        }
    }
    if let Some(part) = quoted {
        // An unclosed quote: its text is cut short all the same.
        out.push('"');
        out.push_str(&short_text(&part));
    }
    out
}
