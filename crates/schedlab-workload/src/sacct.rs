//! Slurm accounting dumps: the text `sacct --parsable2 --allusers
//! --format=...` prints, read line by line like SWF (docs/formats.md).
//!
//! The first non-blank line names the columns, in any order and any case;
//! columns the reader does not know are ignored. Each job line becomes an
//! SWF job: submit, run and requested times in seconds, the requested
//! processors, numbered users, groups, partitions and QOS, and a status.
//! Job steps are folded into their job, array records that stand for
//! several tasks are expanded, and jobs cancelled before they started and
//! time limits that are unlimited or missing are counted in the report's
//! [`SlurmReport`].

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::clean::{CleaningReport, Row, SlurmReport};
use crate::error::{BadLine, SwfError};
use crate::header::Header;
use crate::job::{Job, SwfExtra};
use crate::options::ReadOptions;
use crate::read::{keep, too_long, Gathered, LineSink, Stop, MAX_LINE_BYTES};
use crate::slurm_time::{parse_time, Stamp};

/// A column the reader uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Col {
    JobIdRaw,
    JobId,
    Submit,
    Start,
    End,
    ElapsedRaw,
    TimelimitRaw,
    NCpus,
    ReqCpus,
    AllocCpus,
    User,
    Group,
    Partition,
    Qos,
    State,
    ReqTres,
    AllocTres,
    ReqMem,
    NNodes,
    ReqNodes,
}

/// The columns by their names in sacct's header (matched without regard
/// to case).
const COLUMNS: [(&str, Col); 20] = [
    ("JobIDRaw", Col::JobIdRaw),
    ("JobID", Col::JobId),
    ("Submit", Col::Submit),
    ("Start", Col::Start),
    ("End", Col::End),
    ("ElapsedRaw", Col::ElapsedRaw),
    ("TimelimitRaw", Col::TimelimitRaw),
    ("NCPUS", Col::NCpus),
    ("ReqCPUS", Col::ReqCpus),
    ("AllocCPUS", Col::AllocCpus),
    ("User", Col::User),
    ("Group", Col::Group),
    ("Partition", Col::Partition),
    ("QOS", Col::Qos),
    ("State", Col::State),
    ("ReqTRES", Col::ReqTres),
    ("AllocTRES", Col::AllocTres),
    ("ReqMem", Col::ReqMem),
    ("NNodes", Col::NNodes),
    ("ReqNodes", Col::ReqNodes),
];

/// The `--format` the documentation recommends, quoted in messages.
const FORMAT: &str =
    "JobIDRaw,JobID,Submit,Start,End,ElapsedRaw,TimelimitRaw,NCPUS,ReqCPUS,User,Group,Partition,QOS,State";

fn name(col: Col) -> &'static str {
    COLUMNS.iter().find(|(_, c)| *c == col).map_or("?", |(n, _)| n)
}

/// Where each known column is in a line, from the header line.
#[derive(Debug)]
struct Columns {
    at: [Option<usize>; COLUMNS.len()],
    count: usize,
}

impl Columns {
    /// Reads the header line; refuses one without the columns a job needs.
    fn new(line: &str, number: u64) -> Result<Columns, SwfError> {
        let names: Vec<&str> = line.split('|').map(str::trim).collect();
        let mut at = [None; COLUMNS.len()];
        for (i, (known, _)) in COLUMNS.iter().enumerate() {
            at[i] = names.iter().position(|n| n.eq_ignore_ascii_case(known));
        }
        let columns = Columns { at, count: names.len() };
        let needs: [&[Col]; 5] = [
            &[Col::JobIdRaw, Col::JobId],
            &[Col::Submit],
            &[Col::Start],
            &[Col::End, Col::ElapsedRaw],
            &[Col::ReqCpus, Col::NCpus, Col::AllocCpus],
        ];
        if let Some(missing) = needs.iter().find(|any| any.iter().all(|&c| !columns.has(c))) {
            let wanted: Vec<&str> = missing.iter().map(|&c| name(c)).collect();
            return Err(SwfError::SacctHeader {
                line: number,
                message: format!(
                    "no {} column among `{}`; export with sacct --parsable2 --allusers --format={FORMAT}",
                    wanted.join(" or "),
                    crate::line::show(line.as_bytes())
                ),
            });
        }
        Ok(columns)
    }

    fn index(col: Col) -> usize {
        COLUMNS.iter().position(|(_, c)| *c == col).unwrap_or(0)
    }

    fn has(&self, col: Col) -> bool {
        self.at[Self::index(col)].is_some()
    }

    /// The trimmed value of `col` in `fields`, if the dump has the column.
    fn get<'a>(&self, fields: &[&'a str], col: Col) -> Option<&'a str> {
        self.at[Self::index(col)].and_then(|i| fields.get(i)).map(|f| f.trim())
    }
}

/// Names numbered from 1 in order of first appearance.
#[derive(Debug, Default)]
struct Numbering {
    names: Vec<String>,
    numbers: BTreeMap<String, i32>,
}

impl Numbering {
    /// The number of `name`; -1 (unknown) for an empty name.
    fn number(&mut self, name: Option<&str>) -> i32 {
        let Some(name) = name.filter(|n| !n.is_empty()) else {
            return -1;
        };
        if let Some(&n) = self.numbers.get(name) {
            return n;
        }
        let n = i32::try_from(self.names.len() + 1).unwrap_or(i32::MAX);
        self.names.push(name.to_owned());
        self.numbers.insert(name.to_owned(), n);
        n
    }
}

/// The state while the lines of a dump are read.
pub(crate) struct SacctIngest<'a> {
    opts: &'a ReadOptions,
    columns: Option<Columns>,
    report: CleaningReport,
    slurm: SlurmReport,
    rows: Vec<Row>,
    users: Numbering,
    groups: Numbering,
    partitions: Numbering,
    qos: Numbering,
    /// The job column of the last job line, which the steps after it name.
    last_job: String,
    /// Times read without a time zone, as UTC.
    naive_times: u64,
    /// Lines with a field that is not UTF-8, read as Latin-1, and the first.
    latin1: Latin1Lines,
}

/// The lines whose text was not UTF-8: how many, and the first.
#[derive(Debug, Default)]
struct Latin1Lines {
    count: u64,
    first: u64,
}

/// A bad value: the column and what is wrong with it.
type Bad = (Option<&'static str>, String);

fn bad(col: Col, message: String) -> Bad {
    (Some(name(col)), message)
}

/// What the job line says, before it becomes one job or several.
struct Record {
    job: Job,
    extra: SwfExtra,
    /// How many jobs the line stands for: the tasks of an array record, else 1.
    tasks: u64,
    /// The line is an array record (`1234_[1-5]`).
    array: bool,
    cancelled_before_start: bool,
    no_time_limit: bool,
}

impl<'a> SacctIngest<'a> {
    pub fn new(opts: &'a ReadOptions) -> Self {
        SacctIngest {
            opts,
            columns: None,
            report: CleaningReport::default(),
            slurm: SlurmReport::default(),
            rows: Vec::new(),
            users: Numbering::default(),
            groups: Numbering::default(),
            partitions: Numbering::default(),
            qos: Numbering::default(),
            last_job: String::new(),
            naive_times: 0,
            latin1: Latin1Lines::default(),
        }
    }

    /// A job or step line: the job it describes, or `None` for a step.
    fn record_line(&mut self, cols: &Columns, line: &str) -> Result<Option<Record>, Bad> {
        let fields: Vec<&str> = line.split('|').collect();
        if fields.len() != cols.count {
            return Err((None, format!("has {} fields, the header has {}", fields.len(), cols.count)));
        }
        let id_col = if cols.has(Col::JobIdRaw) { Col::JobIdRaw } else { Col::JobId };
        let id_text = cols.get(&fields, id_col).unwrap_or("");
        if let Some((job, _step)) = id_text.split_once('.') {
            if job != self.last_job || job.is_empty() {
                return Err(bad(id_col, format!("step `{id_text}` does not follow the line of its job {job}")));
            }
            self.slurm.steps_folded += 1;
            return Ok(None);
        }
        let record = self.record(cols, &fields, id_col, id_text)?;
        self.last_job = id_text.to_owned();
        Ok(Some(record))
    }

    /// Counts a record's jobs and keeps those the rules keep; the tasks of
    /// an array record count against the job limit before they are made.
    fn take(&mut self, r: Record) -> Result<(), Stop> {
        // A task count may be saturated (2^64 tasks): the sums saturate too.
        self.report.job_lines = self.report.job_lines.saturating_add(r.tasks);
        if r.array {
            self.slurm.array_tasks = self.slurm.array_tasks.saturating_add(r.tasks);
        }
        if r.cancelled_before_start {
            self.slurm.cancelled_before_start = self.slurm.cancelled_before_start.saturating_add(r.tasks);
            return Ok(());
        }
        if r.no_time_limit {
            self.slurm.no_time_limit = self.slurm.no_time_limit.saturating_add(r.tasks);
        }
        keep(self.opts, &mut self.report, &mut self.rows, r.job, r.extra, r.tasks)
    }

    fn record(&mut self, cols: &Columns, f: &[&str], id_col: Col, id_text: &str) -> Result<Record, Bad> {
        let (id, array_tasks) = self.job_number(cols, f, id_col, id_text)?;
        let (tasks, array) = (array_tasks.unwrap_or(1), array_tasks.is_some());
        let submit = self.time(cols, f, Col::Submit)?;
        let start = self.time(cols, f, Col::Start)?;
        let end = self.time(cols, f, Col::End)?;
        let elapsed = match cols.get(f, Col::ElapsedRaw).filter(|t| !t.is_empty()) {
            Some(t) => Some(t.parse::<i64>().ok().filter(|&e| e >= 0).ok_or_else(|| {
                bad(Col::ElapsedRaw, format!("`{}` is not a number of seconds", crate::line::show(t.as_bytes())))
            })?),
            None => None,
        };
        let state = cols.get(f, Col::State).unwrap_or("");
        // A job still running when the dump was taken (its End `Unknown`, or
        // its State says so where there is no End) has no run time yet:
        // its ElapsedRaw is the time so far, not the time it took.
        let ended = if cols.has(Col::End) { end.is_some() } else { !still_going(state) };
        let runtime = match (start, elapsed, end) {
            (Some(_), Some(e), _) if ended => e,
            // A difference past i64 (a year-0 Start and an End of 2^63 − 1)
            // is as out of range as any time past the limit.
            (Some(s), None, Some(e)) if ended && e >= s => e.checked_sub(s).unwrap_or(i64::MAX),
            _ => -1,
        };
        let cancelled = state.to_ascii_uppercase().starts_with("CANCELLED");
        let (estimate, no_time_limit) = time_limit(cols.get(f, Col::TimelimitRaw))?;
        let (size, allocated) = size(cols, f)?;
        let job = Job {
            id,
            submit: submit.unwrap_or(-1),
            runtime,
            size,
            estimate,
            user: self.users.number(cols.get(f, Col::User)),
            group: self.groups.number(cols.get(f, Col::Group)),
            queue: self.qos.number(cols.get(f, Col::Qos)),
            partition: self.partitions.number(cols.get(f, Col::Partition)),
            status: status(state),
        };
        let wait = match (submit, start) {
            (Some(s), Some(t)) if t >= s => t.checked_sub(s).unwrap_or(i64::MAX),
            _ => -1,
        };
        let (nodes, gpus, requested_memory) = self.resources(cols, f, size)?;
        let extra = SwfExtra { wait, nodes, gpus, requested_memory, ..SwfExtra::unknown(allocated) };
        let cancelled_before_start = cancelled && (start.is_none() || runtime == 0);
        Ok(Record { job, extra, tasks, array, cancelled_before_start, no_time_limit })
    }

    /// The job number, and how many tasks the line stands for if it is an
    /// array record.
    fn job_number(&self, cols: &Columns, f: &[&str], id_col: Col, id_text: &str) -> Result<(u64, Option<u64>), Bad> {
        let tasks = match cols.get(f, Col::JobId).and_then(array_spec) {
            Some(spec) => {
                let n = count_tasks(spec).ok_or_else(|| {
                    bad(
                        Col::JobId,
                        format!("`{}` is not an array record Schedlab reads", crate::line::show(spec.as_bytes())),
                    )
                })?;
                Some(n)
            }
            None => None,
        };
        // An array task's JobID is `base_task`; its own number is JobIDRaw.
        let number = id_text.split(['_', '+']).next().unwrap_or("");
        let id = number
            .parse::<u64>()
            .map_err(|_| bad(id_col, format!("`{}` is not a job number", crate::line::show(id_text.as_bytes()))))?;
        Ok((id, tasks))
    }

    /// The nodes, GPUs and memory (KB per processor) the job asked for,
    /// each -1 when the dump does not say (`sacct_tres.rs`).
    fn resources(&self, cols: &Columns, f: &[&str], size: u32) -> Result<(i64, i64, f64), Bad> {
        let text = |col| cols.get(f, col).filter(|t: &&str| !t.is_empty());
        let tres = |col| text(col).map(crate::sacct_tres::tres).transpose().map_err(|e| bad(col, e));
        let req_mem = text(Col::ReqMem).map(crate::sacct_tres::req_mem).transpose().map_err(|e| bad(Col::ReqMem, e))?;
        let nodes = |col| {
            text(col)
                .map(|t| t.parse::<u64>().map_err(|_| bad(col, format!("`{t}` is not a number of nodes"))))
                .transpose()
        };
        let nodes = nodes(Col::ReqNodes)?.filter(|&n| n > 0).or(nodes(Col::NNodes)?);
        Ok(crate::sacct_tres::asked(tres(Col::ReqTres)?, tres(Col::AllocTres)?, req_mem, nodes, size))
    }

    /// A time column: epoch seconds, or `None` when the dump says the time is
    /// unknown.
    fn time(&mut self, cols: &Columns, f: &[&str], col: Col) -> Result<Option<i64>, Bad> {
        let text = cols.get(f, col).unwrap_or("");
        match parse_time(text) {
            Ok(None) => Ok(None),
            Ok(Some(Stamp { seconds, zoned })) => {
                self.naive_times += u64::from(!zoned);
                Ok(Some(seconds))
            }
            Err(why) => Err(bad(col, format!("`{}` {why}", crate::line::show(text.as_bytes())))),
        }
    }
}

/// `5-9` in a JobID `1234_[5-9]`, the tasks an array record stands for.
fn array_spec(job_id: &str) -> Option<&str> {
    job_id.split_once("_[").and_then(|(_, rest)| rest.strip_suffix(']'))
}

/// How many tasks `1,3,5-9:2%4` names: comma-separated task numbers and
/// ranges, a range with an optional step, and an optional `%` limit on the
/// tasks run at once (which does not change the count).
fn count_tasks(spec: &str) -> Option<u64> {
    let list = spec.split_once('%').map_or(spec, |(l, _)| l);
    let mut total = 0u64;
    for item in list.split(',') {
        let (range, step) = match item.split_once(':') {
            Some((r, s)) => (r, s.parse::<u64>().ok().filter(|&s| s > 0)?),
            None => (item, 1),
        };
        let (lo, hi) = match range.split_once('-') {
            Some((a, b)) => (a.parse::<u64>().ok()?, b.parse::<u64>().ok()?),
            None => (range.parse::<u64>().ok()?, range.parse::<u64>().ok()?),
        };
        if hi < lo {
            return None;
        }
        // `0-18446744073709551615` names 2^64 tasks: the count saturates,
        // which the job limit then refuses, rather than wrapping to none.
        total = total.saturating_add(((hi - lo) / step).saturating_add(1));
    }
    Some(total)
}

/// The estimate in seconds from `TimelimitRaw` (minutes), and whether the
/// limit is unlimited or missing.
fn time_limit(text: Option<&str>) -> Result<(i64, bool), Bad> {
    let text = text.unwrap_or("");
    if text.is_empty() || text.eq_ignore_ascii_case("UNLIMITED") || text.eq_ignore_ascii_case("Partition_Limit") {
        return Ok((-1, true));
    }
    let minutes = text.parse::<i64>().ok().filter(|&m| m >= 0).ok_or_else(|| {
        bad(
            Col::TimelimitRaw,
            format!("`{}` is not a number of minutes or UNLIMITED", crate::line::show(text.as_bytes())),
        )
    })?;
    Ok((minutes.saturating_mul(60), false))
}

/// The size (the request if positive, else the allocation, as for SWF) and
/// the allocated processors (-1 when the dump does not say).
fn size(cols: &Columns, f: &[&str]) -> Result<(u32, i64), Bad> {
    let count = |col: Col| -> Result<Option<u64>, Bad> {
        match cols.get(f, col).filter(|t| !t.is_empty()) {
            None => Ok(None),
            Some(t) => t
                .parse::<u64>()
                .map(Some)
                .map_err(|_| bad(col, format!("`{}` is not a number of processors", crate::line::show(t.as_bytes())))),
        }
    };
    let allocated = match count(Col::NCpus)? {
        Some(n) => Some(n),
        None => count(Col::AllocCpus)?,
    };
    let requested = count(Col::ReqCpus)?.filter(|&n| n > 0);
    let size = requested.or(allocated).unwrap_or(0);
    // More than u32 processors is counted as out of range by the common rules.
    let size = u32::try_from(size).unwrap_or(u32::MAX);
    Ok((size, allocated.map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX))))
}

/// A state of a job that has not ended (when the dump was taken).
fn still_going(state: &str) -> bool {
    let word = state.split_whitespace().next().unwrap_or("").trim_end_matches('+').to_ascii_uppercase();
    matches!(word.as_str(), "RUNNING" | "PENDING" | "SUSPENDED" | "REQUEUED" | "RESIZING" | "CONFIGURING" | "STOPPED")
}

/// A line's text: UTF-8 where it is, and each field that is not read as
/// Latin-1 (ISO 8859-1), which maps every byte to a character, so that
/// `m\xfcller` and `m\xf6ller` stay two users (a lossy decoding would make
/// both `m\u{fffd}ller`). Splitting at `|` first is safe: the byte `|`
/// is the character `|` in both encodings. The flag says a field was not
/// UTF-8.
fn decode(line: &[u8]) -> (Cow<'_, str>, bool) {
    if let Ok(text) = std::str::from_utf8(line) {
        return (Cow::Borrowed(text), false);
    }
    let fields: Vec<Cow<'_, str>> = line
        .split(|&b| b == b'|')
        .map(|f| {
            std::str::from_utf8(f)
                .map_or_else(|_| Cow::Owned(f.iter().map(|&b| char::from(b)).collect()), Cow::Borrowed)
        })
        .collect();
    (Cow::Owned(fields.join("|")), true)
}

/// The SWF status of a Slurm state: 1 completed, 0 failed (or killed by
/// the system), 5 cancelled, -1 otherwise (still running or pending when
/// the dump was taken, requeued, suspended).
fn status(state: &str) -> i32 {
    let word = state.split_whitespace().next().unwrap_or("").trim_end_matches('+').to_ascii_uppercase();
    match word.as_str() {
        "COMPLETED" => 1,
        "FAILED" | "TIMEOUT" | "NODE_FAIL" | "OUT_OF_MEMORY" | "BOOT_FAIL" | "DEADLINE" | "PREEMPTED" => 0,
        "CANCELLED" => 5,
        _ => -1,
    }
}

impl LineSink for SacctIngest<'_> {
    type Rows = Vec<Row>;

    fn line(&mut self, number: u64, line: Option<&[u8]>) -> Result<(), Stop> {
        let Some(line) = line else {
            if self.columns.is_none() {
                return Err(Stop::Invalid(SwfError::SacctHeader {
                    line: number,
                    message: format!("the header line is longer than {MAX_LINE_BYTES} bytes"),
                }));
            }
            self.report.bad_line(too_long(number));
            return Ok(());
        };
        let (text, latin1) = decode(line);
        if text.trim().is_empty() {
            self.report.blank_lines += 1;
            return Ok(());
        }
        if latin1 {
            self.latin1.count += 1;
            if self.latin1.first == 0 {
                self.latin1.first = number;
            }
        }
        let Some(cols) = self.columns.take() else {
            self.columns = Some(Columns::new(text.trim_end(), number).map_err(Stop::Invalid)?);
            return Ok(());
        };
        let taken = match self.record_line(&cols, text.trim_end_matches(['\r', '\n'])) {
            Ok(Some(record)) => self.take(record),
            Ok(None) => Ok(()),
            Err((column, message)) => {
                self.report.bad_line(BadLine { line: number, field: None, column, message });
                Ok(())
            }
        };
        self.columns = Some(cols);
        taken
    }

    fn jobs(&self) -> usize {
        self.rows.len()
    }

    fn gathered(mut self, lines: u64) -> Result<Gathered, SwfError> {
        if self.report.job_lines == 0 {
            let first_bad = self.report.bad_lines.first().cloned();
            return Err(SwfError::NoValidJob { lines, bad_lines: self.report.bad_lines_total, first_bad });
        }
        let mut header = Header::default();
        // Submit times count from the first, as in the archive's SWF files;
        // the header keeps the epoch second the first stands for.
        if let Some(first) = self.rows.iter().map(|r| r.0.submit).min() {
            for (job, _) in &mut self.rows {
                job.submit -= first;
            }
            header.unix_start_time = Some(first);
        }
        let mut warnings = Vec::new();
        if self.naive_times > 0 {
            warnings.push(format!(
                "{} times in the dump carry no time zone and were read as UTC: a daylight-saving change inside \
                 the dump shifts the jobs after it by an hour (export with SLURM_TIME_FORMAT=%FT%T%z to keep the zone)",
                self.naive_times
            ));
        }
        if self.latin1.count > 0 {
            warnings.push(format!(
                "{} lines (the first is line {}) hold text that is not UTF-8: those fields were read as Latin-1 \
                 (ISO 8859-1); export with LANG=C.UTF-8 to have sacct write UTF-8",
                self.latin1.count, self.latin1.first
            ));
        }
        if self.columns.as_ref().is_some_and(|c| !c.has(Col::TimelimitRaw)) {
            warnings.push("the dump has no TimelimitRaw column: no job has a time limit".to_owned());
        }
        self.slurm.users = self.users.names;
        self.slurm.groups = self.groups.names;
        self.slurm.partitions = self.partitions.names;
        self.slurm.qos = self.qos.names;
        self.report.slurm = Some(self.slurm);
        let no_machine_size = "a sacct dump does not say how many processors the cluster has";
        Ok(Gathered { rows: self.rows, header, report: self.report, warnings, no_machine_size })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_specs_count_their_tasks() {
        let cases =
            [("1-5", Some(5)), ("1,3,5-7", Some(5)), ("0-9:2", Some(5)), ("1-100%4", Some(100)), ("7", Some(1))];
        for (spec, want) in cases {
            assert_eq!(count_tasks(spec), want, "{spec}");
        }
        for spec in ["5-1", "a", "1-", "1-9:0", ""] {
            assert_eq!(count_tasks(spec), None, "{spec}");
        }
        assert_eq!(array_spec("1234_[1-5%2]"), Some("1-5%2"));
        assert_eq!(array_spec("1234_7"), None);
    }

    #[test]
    fn states_become_swf_statuses() {
        let cases = [
            ("COMPLETED", 1),
            ("FAILED", 0),
            ("TIMEOUT", 0),
            ("CANCELLED by 1000", 5),
            ("CANCELLED+", 5),
            ("RUNNING", -1),
            ("", -1),
        ];
        for (state, want) in cases {
            assert_eq!(status(state), want, "{state}");
        }
    }

    #[test]
    fn time_limits_in_minutes() {
        assert_eq!(time_limit(Some("60")).ok(), Some((3600, false)));
        assert_eq!(time_limit(Some("UNLIMITED")).ok(), Some((-1, true)));
        assert_eq!(time_limit(Some("Partition_Limit")).ok(), Some((-1, true)));
        assert_eq!(time_limit(None).ok(), Some((-1, true)));
        let (column, message) = time_limit(Some("1:00:00")).expect_err("not minutes");
        assert_eq!(column, Some("TimelimitRaw"));
        assert!(message.contains("`1:00:00` is not a number of minutes"), "{message}");
    }

    #[test]
    fn headers_without_what_a_job_needs_are_refused() {
        let err = Columns::new("JobIDRaw|Start|End|NCPUS", 1).expect_err("no submit");
        assert!(err.to_string().starts_with("line 1 (the sacct header): no Submit column"), "{err}");
        let err = Columns::new("JobID|Submit|Start|End", 2).expect_err("no size");
        assert!(err.to_string().contains("no ReqCPUS or NCPUS or AllocCPUS column"), "{err}");
        let cols = Columns::new("jobidraw|SUBMIT|start|elapsedraw|reqcpus|Comment", 1).expect("case-insensitive");
        assert_eq!(cols.count, 6);
        assert!(cols.has(Col::ElapsedRaw) && !cols.has(Col::End));
    }
}
