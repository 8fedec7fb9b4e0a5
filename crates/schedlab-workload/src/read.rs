//! `read_swf`: the streaming reader, the per-line rules and the machine size.

use std::io::{self, BufRead, BufReader, Read};

use crate::clean::{clean_rows, CleaningReport, Row};
use crate::error::{BadLine, SwfError};
use crate::header::{Header, HeaderReader};
use crate::input::{fill, open, Meter, Opened, SourceState};
use crate::job::{Job, Trace};
use crate::limits::{MAX_PROCS, MAX_TIME};
use crate::line::{classify, parse_fields, to_job, LineError, LineKind};
use crate::options::ReadOptions;

/// Longest line accepted, in bytes; a longer line is skipped as bad without
/// being held in memory. A valid job line is well under 1 KiB.
pub const MAX_LINE_BYTES: u64 = 64 * 1024;

/// Size of the read buffer between the (decompressed) stream and the lines.
const READ_BUFFER: usize = 64 * 1024;

/// A trace read and cleaned, with everything said about it.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The cleaned jobs and the machine size.
    pub trace: Trace,
    /// The header's key/value pairs.
    pub header: Header,
    /// What cleaning did, by reason.
    pub report: CleaningReport,
    /// SHA-256 of the uncompressed bytes, lowercase hex: the trace's identity.
    pub sha256: String,
    /// Uncompressed size in bytes.
    pub bytes: u64,
    /// Lines in the uncompressed text.
    pub lines: u64,
}

/// Reads an SWF trace, plain or compressed (gzip, zlib, bzip2, xz or zstd,
/// detected by its first bytes), and cleans it as described in the crate
/// documentation.
///
/// The text is read line by line through a fixed buffer; only the jobs are
/// kept. Errors name the line (and field) at fault.
pub fn read_swf<R: Read>(reader: R, opts: &ReadOptions) -> Result<Loaded, SwfError> {
    opts.validate()?;
    let Opened { reader, format, state } = open(reader)?;
    let compression = format.compression();
    let mut reader = BufReader::with_capacity(READ_BUFFER, Meter::new(reader, opts.max_bytes));
    let mut ingest = Ingest::new(opts);
    if let Err(stop) = ingest.run(&mut reader) {
        let line = ingest.lines + 1;
        return Err(match stop {
            Stop::TooManyJobs => SwfError::TooManyJobs { limit: opts.max_jobs, line: ingest.lines },
            Stop::Io(e) => classify_error(e, reader.get_ref(), &state, compression, line, opts),
        });
    }
    let meter = reader.into_inner();
    let bytes = meter.bytes;
    if bytes == 0 {
        return Err(SwfError::Empty { compression });
    }
    let sha256 = meter.sha256_hex();
    let lines = ingest.lines;
    let (trace, header, report) = ingest.finish(opts)?;
    Ok(Loaded { trace, header, report, sha256, bytes, lines })
}

/// Tells a size-limit stop, a decoder error and a reader error apart.
fn classify_error<M>(
    e: io::Error,
    meter: &Meter<M>,
    source: &SourceState,
    compression: Option<&'static str>,
    line: u64,
    opts: &ReadOptions,
) -> SwfError {
    let consumed = source.consumed.get();
    match compression {
        _ if meter.over => SwfError::TooLarge { limit: opts.max_bytes, compression, line },
        Some(format) if !source.failed.get() => {
            SwfError::Corrupt { format, offset: consumed, line, message: e.to_string() }
        }
        _ => SwfError::Io { bytes: consumed, line, source: e },
    }
}

/// Why reading stopped early.
enum Stop {
    Io(io::Error),
    TooManyJobs,
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Io(e)
    }
}

/// Reads one line into `buf`, without its ending: `\n`, `\r\n` or a lone
/// `\r` (old Mac files). Returns `None` at the end of the input, else
/// whether the line was longer than [`MAX_LINE_BYTES`], in which case `buf`
/// holds only its start and the rest was skipped unread.
fn next_line<B: BufRead>(reader: &mut B, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    let max = MAX_LINE_BYTES as usize;
    let mut any = false;
    loop {
        let chunk = fill(reader)?;
        if chunk.is_empty() {
            return Ok(any.then_some(buf.len() >= max));
        }
        any = true;
        let end = memchr::memchr2(b'\n', b'\r', chunk);
        let body = &chunk[..end.unwrap_or(chunk.len())];
        buf.extend_from_slice(&body[..body.len().min(max - buf.len().min(max))]);
        let Some(end) = end else {
            let n = chunk.len();
            reader.consume(n);
            continue;
        };
        let cr = chunk[end] == b'\r';
        reader.consume(end + 1);
        if cr {
            skip_newline(reader)?;
        }
        return Ok(Some(buf.len() >= max));
    }
}

/// Skips the `\n` of a `\r\n` ending, if it is there.
fn skip_newline<B: BufRead>(reader: &mut B) -> io::Result<()> {
    if fill(reader)?.first() == Some(&b'\n') {
        reader.consume(1);
    }
    Ok(())
}

/// The state while lines are read.
struct Ingest<'a> {
    opts: &'a ReadOptions,
    header: HeaderReader,
    report: CleaningReport,
    rows: Vec<Row>,
    lines: u64,
    in_header: bool,
    late_comments: u64,
}

impl<'a> Ingest<'a> {
    fn new(opts: &'a ReadOptions) -> Self {
        Ingest {
            opts,
            header: HeaderReader::default(),
            report: CleaningReport::default(),
            rows: Vec::new(),
            lines: 0,
            in_header: true,
            late_comments: 0,
        }
    }

    fn run<B: BufRead>(&mut self, reader: &mut B) -> Result<(), Stop> {
        let mut buf = Vec::with_capacity(1024);
        loop {
            buf.clear();
            let Some(too_long) = next_line(reader, &mut buf)? else {
                return Ok(());
            };
            self.lines += 1;
            if too_long {
                let message = format!("is longer than {MAX_LINE_BYTES} bytes");
                self.bad(LineError { field: None, message });
                continue;
            }
            self.line(&buf);
            if self.rows.len() as u64 > self.opts.max_jobs {
                return Err(Stop::TooManyJobs);
            }
        }
    }

    fn line(&mut self, mut line: &[u8]) {
        if self.lines == 1 {
            // A UTF-8 byte order mark, as some Windows editors write.
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        match classify(line) {
            LineKind::Blank => self.report.blank_lines += 1,
            LineKind::Comment => self.comment(line),
            LineKind::Job => {
                self.in_header = false;
                match parse_fields(line).and_then(|f| to_job(&f)) {
                    Ok(parsed) => {
                        self.report.job_lines += 1;
                        self.report.fractional_rounded += u64::from(parsed.rounded);
                        self.keep(parsed.job, parsed.extra);
                    }
                    Err(e) => self.bad(e),
                }
            }
        }
    }

    fn comment(&mut self, line: &[u8]) {
        self.report.comment_lines += 1;
        if self.in_header {
            self.header.line(self.lines, line);
        } else {
            self.late_comments += 1;
        }
    }

    fn bad(&mut self, e: LineError) {
        self.report.bad_line(BadLine { line: self.lines, field: e.field, message: e.message });
    }

    /// The per-job rules that need nothing but the job itself.
    fn keep(&mut self, job: Job, extra: crate::job::SwfExtra) {
        let o = self.opts;
        let r = &mut self.report;
        let counter = if job.submit < 0 {
            &mut r.unknown_submit
        } else if job.runtime < 0 {
            &mut r.unknown_runtime
        } else if job.size == 0 {
            &mut r.unknown_size
        } else if job.submit > MAX_TIME || job.runtime > MAX_TIME || job.estimate > MAX_TIME {
            &mut r.time_out_of_range
        } else if job.size > MAX_PROCS {
            &mut r.size_out_of_range
        } else if o.drop_status.contains(&job.status) {
            &mut r.status_filtered
        } else if o.queues.as_ref().is_some_and(|q| !q.contains(&job.queue)) {
            &mut r.queue_filtered
        } else if o.partitions.as_ref().is_some_and(|p| !p.contains(&job.partition)) {
            &mut r.partition_filtered
        } else {
            self.rows.push((job, extra));
            return;
        };
        *counter += 1;
    }

    /// Machine size, cleaning passes, and the final trace.
    fn finish(mut self, opts: &ReadOptions) -> Result<(Trace, Header, CleaningReport), SwfError> {
        self.header.finish();
        if self.report.job_lines == 0 {
            let first_bad = self.report.bad_lines.first().cloned();
            let bad_lines = self.report.bad_lines_total;
            return Err(SwfError::NoValidJob { lines: self.lines, bad_lines, first_bad });
        }
        let mut warnings = std::mem::take(&mut self.header.warnings);
        if self.late_comments > 0 {
            warnings
                .push(format!("{} comment lines after the first job line were not read as header", self.late_comments));
        }
        let machine = machine_size(opts, &self.header, &self.rows, &mut warnings);
        let mut rows = std::mem::take(&mut self.rows);
        clean_rows(&mut rows, machine, opts, &mut self.report)?;
        warnings.extend(self.report.duplicate_ids_warning(&rows));
        self.report.warn_all(warnings);
        if rows.is_empty() {
            let job_lines = self.report.job_lines;
            return Err(SwfError::AllJobsDropped { job_lines, summary: self.report.summary() });
        }
        self.report.jobs_kept = rows.len() as u64;
        let (mut jobs, mut extras): (Vec<_>, Vec<_>) = rows.into_iter().unzip();
        jobs.shrink_to_fit();
        extras.shrink_to_fit();
        Ok((Trace { procs: machine, jobs, extras }, self.header.header, self.report))
    }
}

/// The override, else MaxProcs, else MaxNodes, else the largest job (warned,
/// with the reason: no such header entry, or only unusable ones).
fn machine_size(opts: &ReadOptions, header: &HeaderReader, rows: &[Row], warnings: &mut Vec<String>) -> u32 {
    let h = &header.header;
    if let Some(p) = opts.machine_size.or(h.max_procs).or(h.max_nodes) {
        return p;
    }
    let largest = rows.iter().map(|r| r.0.size).max().unwrap_or(1).max(1);
    let why = if header.machine_size_refused {
        "the header's MaxProcs and MaxNodes are unusable (see above)"
    } else {
        "the header gives neither MaxProcs nor MaxNodes"
    };
    warnings.push(format!("{why}: machine size set to the largest job, {largest} processors"));
    largest
}
