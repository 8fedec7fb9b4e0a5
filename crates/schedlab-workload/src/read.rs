//! `read_swf`: the streaming reader, the per-line rules and the machine size.

use std::io::{self, BufRead, BufReader, Read};

use flate2::read::MultiGzDecoder;

use crate::clean::{clean_rows, CleaningReport, Row};
use crate::error::{BadLine, SwfError};
use crate::header::{Header, HeaderReader};
use crate::input::{sniff, Meter, Origin};
use crate::job::{Job, Trace};
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

/// Reads an SWF trace, plain or gzip (detected by its first two bytes), and
/// cleans it as described in the crate documentation.
///
/// The text is read line by line through a fixed buffer; only the jobs are
/// kept. Errors name the line (and field) at fault.
pub fn read_swf<R: Read>(reader: R, opts: &ReadOptions) -> Result<Loaded, SwfError> {
    opts.validate()?;
    let (gzip, input) = sniff(reader).map_err(|(source, bytes)| SwfError::Io { bytes, line: 1, source })?;
    if gzip {
        read_stream(MultiGzDecoder::new(input), opts)
    } else {
        read_stream(input, opts)
    }
}

fn read_stream<O: Origin>(origin: O, opts: &ReadOptions) -> Result<Loaded, SwfError> {
    let mut reader = BufReader::with_capacity(READ_BUFFER, Meter::new(origin, opts.max_bytes));
    let mut ingest = Ingest::new(opts);
    if let Err(e) = ingest.run(&mut reader) {
        return Err(classify_error(e, reader.get_ref(), ingest.lines + 1, opts));
    }
    let meter = reader.into_inner();
    let bytes = meter.bytes;
    if bytes == 0 {
        return Err(SwfError::Empty { gzip: O::GZIP });
    }
    let sha256 = meter.sha256_hex();
    let lines = ingest.lines;
    let (trace, header, report) = ingest.finish(opts)?;
    Ok(Loaded { trace, header, report, sha256, bytes, lines })
}

/// Tells a size-limit stop, a decoder error and a reader error apart.
fn classify_error<O: Origin>(e: io::Error, meter: &Meter<O>, line: u64, opts: &ReadOptions) -> SwfError {
    let (consumed, source_failed) = meter.inner.source();
    if meter.over {
        SwfError::TooLarge { limit: opts.max_bytes, gzip: O::GZIP, line }
    } else if O::GZIP && !source_failed {
        SwfError::CorruptGzip { offset: consumed, line, message: e.to_string() }
    } else {
        SwfError::Io { bytes: consumed, line, source: e }
    }
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

    fn run<B: BufRead>(&mut self, reader: &mut B) -> io::Result<()> {
        let mut buf = Vec::with_capacity(1024);
        loop {
            buf.clear();
            let n = reader.by_ref().take(MAX_LINE_BYTES).read_until(b'\n', &mut buf)?;
            if n == 0 {
                return Ok(());
            }
            self.lines += 1;
            if n as u64 == MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
                reader.skip_until(b'\n')?;
                let message = format!("is longer than {MAX_LINE_BYTES} bytes");
                self.bad(LineError { field: None, message });
                continue;
            }
            self.line(&buf);
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
        let machine = machine_size(opts, &self.header.header, &self.rows, &mut warnings);
        self.report.warn_all(warnings);
        let mut rows = std::mem::take(&mut self.rows);
        clean_rows(&mut rows, machine, opts, &mut self.report);
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

/// The override, else MaxProcs, else MaxNodes, else the largest job (warned).
fn machine_size(opts: &ReadOptions, header: &Header, rows: &[Row], warnings: &mut Vec<String>) -> u32 {
    if let Some(p) = opts.machine_size.or(header.max_procs).or(header.max_nodes) {
        return p;
    }
    let largest = rows.iter().map(|r| r.0.size).max().unwrap_or(1).max(1);
    warnings.push(format!(
        "the header gives neither MaxProcs nor MaxNodes: machine size set to the largest job, {largest} processors"
    ));
    largest
}
