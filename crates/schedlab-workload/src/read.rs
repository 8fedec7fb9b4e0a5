//! `read_swf`: the streaming reader, the per-line rules, the machine size,
//! and the dispatch to the reader of the format the first line tells.

use std::io::{self, BufRead, BufReader, Read};

use crate::batsim::read_batsim;
use crate::clean::{clean_rows, duplicate_ids, CleaningReport, Row};
use crate::error::{BadLine, SwfError};
use crate::format::TraceFormat;
use crate::header::{Header, HeaderReader};
use crate::input::{detect, fill, open, Meter, Opened, Sniffed, SourceState, Trailing};
use crate::job::{Job, SwfExtra, Trace};
use crate::limits::{MAX_PROCS, MAX_TIME};
use crate::line::{classify, parse_fields, to_job, LineKind};
use crate::options::{ReadOptions, Window};
use crate::sacct::SacctIngest;
use crate::stats::{stats_with_cleaning, TraceStats};
use crate::tally::Tally;

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
    /// What the text was: SWF, a Slurm accounting dump or a Batsim workload.
    pub format: TraceFormat,
}

/// Reads a trace, plain or compressed (gzip, zlib, bzip2, xz or zstd,
/// detected by its first bytes), in any format its first line tells (SWF,
/// a Slurm accounting dump, a Batsim workload; see [`TraceFormat`]), and
/// cleans it as described in the crate documentation.
///
/// SWF and sacct text is read line by line through a fixed buffer; only
/// the jobs are kept. Errors name the line (and field) at fault.
pub fn read_swf<R: Read>(reader: R, opts: &ReadOptions) -> Result<Loaded, SwfError> {
    let (gathered, source) = read_input(reader, opts, AllRows)?;
    let (trace, header, report) = gathered.finish(opts)?;
    let Source { sha256, bytes, lines, format } = source;
    Ok(Loaded { trace, header, report, sha256, bytes, lines, format })
}

/// A trace's statistics and everything said about it, without its jobs.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The trace's figures, as recorded and as simulated.
    pub stats: TraceStats,
    /// The header's key/value pairs.
    pub header: Header,
    /// What cleaning did, by reason.
    pub report: CleaningReport,
    /// SHA-256 of the uncompressed bytes, lowercase hex.
    pub sha256: String,
    /// Uncompressed size in bytes.
    pub bytes: u64,
    /// Lines in the uncompressed text.
    pub lines: u64,
    /// What the text was.
    pub format: TraceFormat,
}

/// Reads a trace as [`read_swf`] does and returns its statistics, with the
/// same figures, counts, warnings and errors as
/// [`stats_with_cleaning`](crate::stats_with_cleaning) of the trace
/// `read_swf` returns. An SWF trace read without a window is summed while
/// it streams, so memory does not grow with its jobs (only with its
/// distinct users and queues and with the gaps between its job numbers);
/// a Slurm dump, a Batsim workload or a window keeps the jobs, because
/// their rules need the whole trace in order.
pub fn read_stats<R: Read>(reader: R, opts: &ReadOptions) -> Result<Summary, SwfError> {
    let (gathered, source) = read_input(reader, opts, Statistics)?;
    let (stats, header, report) = match gathered {
        Either::Streamed(g) => g.finish(opts)?,
        Either::Rows(g) => {
            let (trace, header, report) = g.finish(opts)?;
            (stats_with_cleaning(&trace, &report), header, report)
        }
    };
    let Source { sha256, bytes, lines, format } = source;
    Ok(Summary { stats, header, report, sha256, bytes, lines, format })
}

/// What the reader learns of the input itself, whatever it keeps of it.
struct Source {
    sha256: String,
    bytes: u64,
    lines: u64,
    format: TraceFormat,
}

/// Opens the input, tells its format and hands its text to `gather`.
fn read_input<R: Read, G: Gather>(reader: R, opts: &ReadOptions, gather: G) -> Result<(G::Out, Source), SwfError> {
    opts.validate()?;
    let Opened { reader, format, state } = open(reader)?;
    let compression = format.compression();
    let mut meter = BufReader::with_capacity(READ_BUFFER, Meter::new(reader, opts.max_bytes));
    let mut lines = 0;
    let read = refuse_compressed_twice(&mut meter, compression).and_then(|()| {
        let first = first_line(&mut meter)?;
        let kind = TraceFormat::of(&first);
        let mut input = io::Cursor::new(first).chain(&mut meter);
        Ok((kind, gather.gather(kind, &mut input, opts, &mut lines)?))
    });
    // An empty input says so, rather than that it holds no job.
    if meter.get_ref().bytes == 0 && !matches!(read, Err(Stop::Io(_))) {
        return Err(SwfError::Empty { compression });
    }
    let (kind, gathered) = read.map_err(|stop| match stop {
        Stop::TooManyJobs => SwfError::TooManyJobs { limit: opts.max_jobs, line: lines },
        Stop::Io(e) => classify_error(e, meter.get_ref(), &state, compression, lines + 1, opts),
        Stop::Invalid(e) => e,
    })?;
    let meter = meter.into_inner();
    let source = Source { bytes: meter.bytes, sha256: meter.sha256_hex(), lines, format: kind };
    Ok((gathered, source))
}

/// How a format's text becomes what the caller keeps of it.
trait Gather {
    type Out;
    fn gather<B: BufRead>(
        self,
        kind: TraceFormat,
        input: &mut B,
        opts: &ReadOptions,
        lines: &mut u64,
    ) -> Result<Self::Out, Stop>;
}

/// Every kept job, for a run.
struct AllRows;

impl Gather for AllRows {
    type Out = Gathered;

    fn gather<B: BufRead>(
        self,
        kind: TraceFormat,
        input: &mut B,
        opts: &ReadOptions,
        lines: &mut u64,
    ) -> Result<Gathered, Stop> {
        match kind {
            TraceFormat::Swf => read_lines(input, Ingest::<Vec<Row>>::new(opts, Vec::new()), opts.max_jobs, lines),
            TraceFormat::Sacct => read_lines(input, SacctIngest::new(opts), opts.max_jobs, lines),
            TraceFormat::Batsim => read_batsim(input, opts, lines),
        }
    }
}

/// Sums of the jobs where they can be taken while reading, else every job.
struct Statistics;

enum Either {
    Streamed(Box<Gathered<Tally>>),
    Rows(Box<Gathered>),
}

impl Gather for Statistics {
    type Out = Either;

    fn gather<B: BufRead>(
        self,
        kind: TraceFormat,
        input: &mut B,
        opts: &ReadOptions,
        lines: &mut u64,
    ) -> Result<Either, Stop> {
        if kind == TraceFormat::Swf && opts.window == Window::All {
            let ingest = Ingest::new(opts, Tally::new(opts));
            return read_lines(input, ingest, opts.max_jobs, lines).map(|g| Either::Streamed(Box::new(g)));
        }
        AllRows.gather(kind, input, opts, lines).map(|g| Either::Rows(Box::new(g)))
    }
}

/// Refuses decompressed text that starts as a compressed stream does: a
/// file compressed twice would otherwise read as lines of binary noise.
/// A read error is left for the reader to report where it happens.
fn refuse_compressed_twice<B: BufRead>(text: &mut B, outer: Option<&'static str>) -> Result<(), Stop> {
    let Some(outer) = outer else {
        return Ok(());
    };
    let head = fill(text)?;
    let inner = match detect(head) {
        Sniffed::Known(format) => format.compression(),
        Sniffed::Unsupported(name) => Some(name),
        Sniffed::DamagedGzip(_) => None,
    };
    match inner {
        Some(inner) => Err(Stop::Invalid(SwfError::StillCompressed { outer, inner })),
        None => Ok(()),
    }
}

/// Bytes as text for a message: printable ASCII kept, the rest escaped.
fn printable(bytes: &[u8]) -> String {
    bytes.iter().flat_map(|&b| std::ascii::escape_default(b)).map(char::from).collect()
}

/// The first non-blank line with its ending and the blank lines before it
/// (at most [`MAX_LINE_BYTES`] bytes in all), read to tell the format; the
/// caller reads them again before the rest.
fn first_line<B: BufRead>(reader: &mut B) -> io::Result<Vec<u8>> {
    let mut first = Vec::new();
    while (first.len() as u64) < MAX_LINE_BYTES {
        let before = first.len();
        reader.take(MAX_LINE_BYTES - before as u64).read_until(b'\n', &mut first)?;
        if first.len() == before || first.iter().any(|b| !b.is_ascii_whitespace()) {
            break;
        }
    }
    Ok(first)
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
    let trailing = e.get_ref().and_then(|inner| inner.downcast_ref::<Trailing>());
    match compression {
        _ if meter.over => SwfError::TooLarge { limit: opts.max_bytes, compression, line },
        Some(format) if trailing.is_some() => {
            let start = trailing.map_or_else(String::new, |t| printable(&t.start));
            SwfError::TrailingData { format, line: line - 1, start }
        }
        Some(format) if !source.failed.get() => {
            SwfError::Corrupt { format, offset: consumed, line, message: e.to_string() }
        }
        _ => SwfError::Io { bytes: consumed, line, source: e },
    }
}

/// Why reading stopped early.
pub(crate) enum Stop {
    Io(io::Error),
    TooManyJobs,
    /// The input is not a trace of its format at all (a sacct dump without
    /// the columns it needs, a Batsim workload that is not one).
    Invalid(SwfError),
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
pub(crate) fn next_line<B: BufRead>(reader: &mut B, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
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

/// What a line-based format's reader does with each line.
pub(crate) trait LineSink {
    /// Where the kept jobs go.
    type Rows;
    /// Takes line `number` (1-based, without its ending), or `None` when
    /// the line was longer than [`MAX_LINE_BYTES`] and was skipped unread.
    fn line(&mut self, number: u64, line: Option<&[u8]>) -> Result<(), Stop>;
    /// Jobs kept so far, for the job limit.
    fn jobs(&self) -> usize;
    /// What the lines gave, for the cleaning passes.
    fn gathered(self, lines: u64) -> Result<Gathered<Self::Rows>, SwfError>;
}

/// Feeds every line of `reader` to `sink`, counting them in `lines`.
fn read_lines<B: BufRead, S: LineSink>(
    reader: &mut B,
    mut sink: S,
    max_jobs: u64,
    lines: &mut u64,
) -> Result<Gathered<S::Rows>, Stop> {
    let mut buf = Vec::with_capacity(1024);
    loop {
        buf.clear();
        let Some(too_long) = next_line(reader, &mut buf)? else {
            return sink.gathered(*lines).map_err(Stop::Invalid);
        };
        *lines += 1;
        let line = if *lines == 1 {
            // A UTF-8 byte order mark, as some Windows editors write.
            buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&buf)
        } else {
            &buf
        };
        sink.line(*lines, (!too_long).then_some(line))?;
        if sink.jobs() as u64 > max_jobs {
            return Err(Stop::TooManyJobs);
        }
    }
}

/// A line longer than [`MAX_LINE_BYTES`], as a bad line.
pub(crate) fn too_long(line: u64) -> BadLine {
    BadLine { line, field: None, column: None, message: format!("is longer than {MAX_LINE_BYTES} bytes") }
}

/// The state while SWF lines are read.
struct Ingest<'a, R> {
    opts: &'a ReadOptions,
    header: HeaderReader,
    report: CleaningReport,
    rows: R,
    in_header: bool,
    late_comments: u64,
}

impl<'a, R: Rows> Ingest<'a, R> {
    fn new(opts: &'a ReadOptions, rows: R) -> Self {
        Ingest {
            opts,
            header: HeaderReader::default(),
            report: CleaningReport::default(),
            rows,
            in_header: true,
            late_comments: 0,
        }
    }

    fn comment(&mut self, number: u64, line: &[u8]) {
        self.report.comment_lines += 1;
        if self.in_header {
            self.header.line(number, line);
        } else {
            self.late_comments += 1;
        }
    }
}

impl<R: Rows> LineSink for Ingest<'_, R> {
    type Rows = R;

    fn line(&mut self, number: u64, line: Option<&[u8]>) -> Result<(), Stop> {
        let Some(line) = line else {
            self.report.bad_line(too_long(number));
            return Ok(());
        };
        match classify(line) {
            LineKind::Blank => self.report.blank_lines += 1,
            LineKind::Comment => self.comment(number, line),
            LineKind::Job => {
                if self.in_header {
                    self.rows.header_read(&self.header.header);
                }
                self.in_header = false;
                match parse_fields(line).and_then(|f| to_job(&f)) {
                    Ok(parsed) => {
                        self.report.job_lines += 1;
                        self.report.fractional_rounded += u64::from(parsed.rounded);
                        keep(self.opts, &mut self.report, &mut self.rows, parsed.job, parsed.extra, 1)?;
                    }
                    Err(e) => {
                        self.report.bad_line(BadLine { line: number, field: e.field, column: None, message: e.message })
                    }
                }
            }
        }
        Ok(())
    }

    fn jobs(&self) -> usize {
        self.rows.count()
    }

    fn gathered(mut self, lines: u64) -> Result<Gathered<R>, SwfError> {
        self.header.finish();
        if self.report.job_lines == 0 {
            let first_bad = self.report.bad_lines.first().cloned();
            let bad_lines = self.report.bad_lines_total;
            return Err(SwfError::NoValidJob { lines, bad_lines, first_bad });
        }
        let mut warnings = std::mem::take(&mut self.header.warnings);
        if self.late_comments > 0 {
            warnings
                .push(format!("{} comment lines after the first job line were not read as header", self.late_comments));
        }
        let no_machine_size = if self.header.machine_size_refused {
            "the header's MaxProcs and MaxNodes are unusable (see above)"
        } else {
            "the header gives neither MaxProcs nor MaxNodes"
        };
        Ok(Gathered { rows: self.rows, header: self.header.header, report: self.report, warnings, no_machine_size })
    }
}

/// The per-job rules that need nothing but the job itself, for every
/// format, applied to `times` identical jobs (the tasks of a Slurm array
/// record) at once. Jobs kept past the job limit stop the reading before
/// they are made, so one line that stands for millions of tasks costs no
/// memory.
pub(crate) fn keep(
    opts: &ReadOptions,
    r: &mut CleaningReport,
    rows: &mut impl Rows,
    job: Job,
    extra: SwfExtra,
    times: u64,
) -> Result<(), Stop> {
    let o = opts;
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
        if (rows.count() as u64).saturating_add(times) > opts.max_jobs {
            return Err(Stop::TooManyJobs);
        }
        rows.push((job, extra), times);
        return Ok(());
    };
    *counter = counter.saturating_add(times);
    Ok(())
}

/// Where the jobs that the per-job rules keep go: a list of them for a
/// run, or running sums for the statistics.
pub(crate) trait Rows {
    /// Takes `times` copies of a kept job.
    fn push(&mut self, row: Row, times: u64);
    /// Jobs taken so far, for the job limit.
    fn count(&self) -> usize;
    /// Called once, when the first job line ends an SWF header.
    fn header_read(&mut self, _header: &Header) {}
}

impl Rows for Vec<Row> {
    fn push(&mut self, row: Row, times: u64) {
        self.extend(std::iter::repeat_n(row, times as usize));
    }

    fn count(&self) -> usize {
        self.len()
    }
}

/// What a format's reader hands to the cleaning passes that every format
/// shares.
pub(crate) struct Gathered<R = Vec<Row>> {
    pub rows: R,
    pub header: Header,
    pub report: CleaningReport,
    pub warnings: Vec<String>,
    /// Why the machine size is guessed when neither the options nor the
    /// header give it.
    pub no_machine_size: &'static str,
}

impl Gathered {
    /// Machine size, cleaning passes, and the final trace.
    fn finish(mut self, opts: &ReadOptions) -> Result<(Trace, Header, CleaningReport), SwfError> {
        let mut rows = std::mem::take(&mut self.rows);
        let placed = opts.machine.as_ref().map(|m| {
            let names = self.report.slurm.as_ref().map_or(&[][..], |s| &s.partitions[..]);
            let (report, requests) = crate::clean::place_rows(&mut rows, m, names);
            self.report.machine = Some(report);
            (m, requests)
        });
        let largest = rows.iter().map(|r| r.0.size).max();
        let machine = match &placed {
            Some((m, _)) => u32::try_from(m.total(0)).unwrap_or(u32::MAX).min(crate::MAX_PROCS),
            None => machine_size(opts, &self.header, largest, self.no_machine_size, &mut self.warnings),
        };
        clean_rows(&mut rows, machine, opts, &mut self.report)?;
        let (count, example) = duplicate_ids(&rows);
        self.warnings.extend(self.report.duplicate_ids_warning(count, example));
        self.report.warn_all(self.warnings);
        if rows.is_empty() {
            let job_lines = self.report.job_lines;
            return Err(SwfError::AllJobsDropped { job_lines, summary: self.report.summary() });
        }
        self.report.jobs_kept = rows.len() as u64;
        let (mut jobs, mut extras): (Vec<_>, Vec<_>) = rows.into_iter().unzip();
        jobs.shrink_to_fit();
        extras.shrink_to_fit();
        let cluster = placed.map(|(m, requests)| {
            let of_job = extras.iter().map(|e| e.request).collect();
            std::sync::Arc::new(crate::Cluster { machine: m.clone(), requests, of_job })
        });
        Ok((Trace { procs: machine, jobs, extras, cluster }, self.header, self.report))
    }
}

/// The machine size the options or the header give, if any.
pub(crate) fn given_machine_size(machine_size: Option<u32>, h: &Header) -> Option<u32> {
    machine_size.or(h.max_procs).or(h.max_nodes)
}

/// The override, else MaxProcs, else MaxNodes, else the largest job (warned,
/// with the reason `why`).
pub(crate) fn machine_size(
    opts: &ReadOptions,
    h: &Header,
    largest: Option<u32>,
    why: &str,
    warnings: &mut Vec<String>,
) -> u32 {
    if let Some(p) = given_machine_size(opts.machine_size, h) {
        return p;
    }
    let largest = largest.unwrap_or(1).max(1);
    warnings.push(format!("{why}: machine size set to the largest job, {largest} processors"));
    largest
}
