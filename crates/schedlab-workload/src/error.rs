//! Errors that stop a trace from being read, and the bad-line records kept in
//! the cleaning report for lines that were skipped.

use std::fmt;

use serde::Serialize;

use crate::limits::{MAX_HORIZON, MAX_TIME};
use crate::options::OptionsError;

/// Names of the 18 SWF fields, for messages (index 0 is field 1).
pub const FIELD_NAMES: [&str; 18] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable",
    "queue",
    "partition",
    "preceding job",
    "think time",
];

/// The name of SWF field `field` (1-based), or `"?"` outside 1..=18.
pub fn field_name(field: u8) -> &'static str {
    usize::from(field).checked_sub(1).and_then(|i| FIELD_NAMES.get(i)).copied().unwrap_or("?")
}

/// A line that was skipped because it is not a valid job line.
///
/// `Display` gives the full message, e.g.
/// "line 17, field 4 (run time): `abc` is not a number".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BadLine {
    /// 1-based line number in the uncompressed text.
    pub line: u64,
    /// 1-based SWF field number, when one field of an SWF line is to blame.
    pub field: Option<u8>,
    /// The column to blame in a Slurm accounting dump (`Submit`), which
    /// names its fields in its header line rather than by position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<&'static str>,
    /// What is wrong, without the location.
    pub message: String,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.field, self.column) {
            (Some(n), _) => write!(f, "line {}, field {n} ({}): {}", self.line, field_name(n), self.message),
            (None, Some(column)) => write!(f, "line {}, column {column}: {}", self.line, self.message),
            (None, None) => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

/// Why a trace could not be read. Every message says what and where.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SwfError {
    /// The [`ReadOptions`](crate::ReadOptions) are not usable.
    #[error("invalid option: {0}")]
    Options(#[from] OptionsError),
    /// The input has no bytes at all (after decompression).
    #[error("the input is empty (0 bytes{})", after_decompression(.compression))]
    Empty {
        /// The compression, if the input was compressed.
        compression: Option<&'static str>,
    },
    /// Not one line of the input is a valid job line.
    #[error("no valid job in {lines} lines ({bad_lines} bad lines){}", first_bad_text(.first_bad))]
    NoValidJob {
        /// Lines read.
        lines: u64,
        /// Lines skipped as bad.
        bad_lines: u64,
        /// The first bad line, if any.
        first_bad: Option<BadLine>,
    },
    /// Valid job lines exist, but the cleaning rules and filters dropped all.
    #[error("all {job_lines} valid jobs were dropped by cleaning and filters ({summary})")]
    AllJobsDropped {
        /// Valid job lines read.
        job_lines: u64,
        /// Non-zero report counts, "reason count, ...".
        summary: String,
    },
    /// The uncompressed input is larger than `ReadOptions::max_bytes`.
    #[error("the input is larger than the limit of {limit} bytes{} (refused at line {line})", once_decompressed(.compression))]
    TooLarge {
        /// The limit in force.
        limit: u64,
        /// The compression, if the input was compressed.
        compression: Option<&'static str>,
        /// Line (1-based) being read when the limit was passed.
        line: u64,
    },
    /// The input holds more jobs than `ReadOptions::max_jobs`.
    #[error("the input holds more than {limit} jobs, the job limit (refused at line {line})")]
    TooManyJobs {
        /// The limit in force.
        limit: u64,
        /// Line (1-based) of the first job past the limit.
        line: u64,
    },
    /// The compressed stream is corrupt or truncated.
    #[error("corrupt {format} stream at or before compressed byte {offset} (line {line} of the text): {message}")]
    Corrupt {
        /// The compression: gzip, zlib, bzip2, xz or zstd.
        format: &'static str,
        /// Compressed bytes consumed when the error was seen.
        offset: u64,
        /// Uncompressed line being read.
        line: u64,
        /// The decoder's message.
        message: String,
    },
    /// Data that is not compressed follows the compressed trace.
    #[error(
        "the {format} stream ends after line {line} of the text, and the file goes on with bytes that are not {format} \
         (`{start}`): the trace was written with other data after it; cut that off, or decompress the trace alone"
    )]
    TrailingData {
        /// The compression: gzip or zstd.
        format: &'static str,
        /// Lines of text decompressed before it.
        line: u64,
        /// The first bytes that follow, printable.
        start: String,
    },
    /// The decompressed text is itself compressed.
    #[error(
        "the input is {outer}, and what it holds is still compressed ({inner}): it was compressed twice; \
         decompress it once, and read the result"
    )]
    StillCompressed {
        /// The compression of the input.
        outer: &'static str,
        /// The compression of what it holds.
        inner: &'static str,
    },
    /// The input is compressed in a format the reader does not decode.
    #[error("the input is compressed with {format}, which Schedlab does not read: decompress it first")]
    UnsupportedCompression {
        /// The format's name.
        format: &'static str,
    },
    /// The input is gzip whose first two bytes were changed.
    #[error(
        "the input looks like gzip with a damaged header: it starts with bytes 0x{:02x} 0x{:02x}, where gzip has 0x1f 0x8b",
        .bytes[0], .bytes[1]
    )]
    DamagedGzip {
        /// The first two bytes.
        bytes: [u8; 2],
    },
    /// The load factor stretches the submit times past the time limit.
    #[error(
        "load factor {factor} stretches the {span} s between the first and the last submit to {stretched} s, which puts the last submit past the limit of {MAX_TIME} s (2^40)"
    )]
    LoadFactorTooSmall {
        /// The factor, in short form.
        factor: String,
        /// Seconds from the first to the last submit before scaling.
        span: i64,
        /// The same span after scaling, in short form.
        stretched: String,
    },
    /// The jobs' run times add up past what a 64-bit time line can hold.
    #[error(
        "the last submit time plus every job's requested time add up to {total} s, past the limit of {MAX_HORIZON} s (2^62), so a schedule could overflow 64-bit times"
    )]
    TimeLineTooLong {
        /// The sum, in short form.
        total: String,
    },
    /// A Slurm accounting dump whose header line lacks a column the reader
    /// needs, or names none it knows.
    #[error("line {line} (the sacct header): {message}")]
    SacctHeader {
        /// The header's line number.
        line: u64,
        /// What is missing, and how to export it.
        message: String,
    },
    /// A Batsim workload that is not valid JSON, or holds what Schedlab
    /// cannot replay (a profile other than a delay).
    #[error("Batsim workload, {at}: {message}")]
    Batsim {
        /// Where: a line and column of the JSON text, or a job or profile.
        at: String,
        /// What is wrong.
        message: String,
    },
    /// The reader itself failed.
    #[error("I/O error after {bytes} input bytes (line {line}): {source}")]
    Io {
        /// Input (possibly compressed) bytes read before the error.
        bytes: u64,
        /// Line being read.
        line: u64,
        /// The reader's error.
        source: std::io::Error,
    },
}

fn after_decompression(compression: &Option<&'static str>) -> String {
    compression.map(|c| format!(" after {c} decompression")).unwrap_or_default()
}

fn once_decompressed(compression: &Option<&'static str>) -> &'static str {
    if compression.is_some() {
        " once decompressed"
    } else {
        ""
    }
}

/// How many characters of a user's text a message quotes.
const QUOTED_CHARS: usize = 40;

/// A user's text for a message, the one form every message that echoes
/// what a user typed or a file held uses: at most 40 characters, cut with
/// `…` and the whole length (`abc… (52428800 characters)`), so that a
/// 300-digit number or a 50 MB job id does not fill the screen; control
/// characters and bidirectional controls (U+202E, which would show the
/// rest of the line reversed) are escaped (`\u{202e}`), so that what is
/// shown is what was given.
pub fn short_text(text: &str) -> String {
    let mut shown = String::new();
    let mut chars = text.char_indices();
    for (_, c) in chars.by_ref().take(QUOTED_CHARS) {
        if is_hidden(c) {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    match chars.next() {
        Some(_) => format!("{shown}… ({} characters)", text.chars().count()),
        None => shown,
    }
}

/// A character that a terminal would not show as itself: a control
/// character (a newline, NUL, an escape sequence's start) or a
/// bidirectional control, which reorders the text around it.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A number for a message, short however large or small: `1e300`, not 300
/// digits; `0.000001` as `1e-6`; ordinary numbers as Rust prints them.
pub fn short_number(x: f64) -> String {
    let magnitude = x.abs();
    if x.is_finite() && magnitude != 0.0 && !(1e-4..1e15).contains(&magnitude) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

fn first_bad_text(first: &Option<BadLine>) -> String {
    match first {
        Some(b) => format!("; first bad line: {b}"),
        None => "; the input holds only comments and blank lines".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_line_display_names_line_and_field() {
        let b = BadLine { line: 17, field: Some(4), column: None, message: "`abc` is not a number".into() };
        assert_eq!(b.to_string(), "line 17, field 4 (run time): `abc` is not a number");
        let b = BadLine { line: 3, field: None, column: None, message: "has 17 fields, expected 18".into() };
        assert_eq!(b.to_string(), "line 3: has 17 fields, expected 18");
        let b = BadLine { line: 5, field: None, column: Some("Submit"), message: "`x` is not a time".into() };
        assert_eq!(b.to_string(), "line 5, column Submit: `x` is not a time");
    }

    #[test]
    fn numbers_in_messages_are_short() {
        let cases = [
            (1e300, "1e300"),
            (-2.5e20, "-2.5e20"),
            (1e-7, "1e-7"),
            (0.0, "0"),
            (12.5, "12.5"),
            (1e14, "100000000000000"),
        ];
        for (x, want) in cases {
            assert_eq!(short_number(x), want);
        }
        assert_eq!(short_number(f64::NAN), "NaN");
    }

    #[test]
    fn field_names_cover_1_to_18() {
        assert_eq!(field_name(1), "job number");
        assert_eq!(field_name(18), "think time");
        assert_eq!(field_name(0), "?");
        assert_eq!(field_name(19), "?");
    }
}
