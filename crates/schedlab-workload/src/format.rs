//! What a trace's text is, told by its first line (never by a file name),
//! as its compression is told by its first bytes.

use serde::Serialize;

/// The format of a trace's (uncompressed) text.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceFormat {
    /// The Standard Workload Format of the Parallel Workloads Archive: any
    /// text that is not one of the others.
    #[default]
    Swf,
    /// A Slurm accounting dump (`sacct --parsable2`): a first line of
    /// `|`-separated column names, one of them `JobIDRaw` or `JobID`.
    Sacct,
    /// A Batsim workload (JSON, versions 4 and 5): text starting with `{`
    /// (or `[`, a JSON array, which the Batsim reader refuses by name).
    Batsim,
}

impl TraceFormat {
    /// The format of a text whose first line (ending included or not) is
    /// `first`. No SWF line starts with `{` or holds a `|` outside a
    /// comment, so neither test takes an SWF file for another format.
    pub fn of(first: &[u8]) -> TraceFormat {
        let first = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
        let text = String::from_utf8_lossy(first);
        let text = text.trim_start();
        // A top-level JSON array is no SWF line either: the Batsim reader
        // says what it is rather than the SWF reader counting its fields.
        if text.starts_with('{') || text.starts_with('[') {
            TraceFormat::Batsim
        } else if !text.starts_with(';') && text.contains('|') {
            TraceFormat::Sacct
        } else {
            TraceFormat::Swf
        }
    }

    /// The format's name, for messages and documents.
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Swf => "SWF",
            TraceFormat::Sacct => "Slurm accounting dump",
            TraceFormat::Batsim => "Batsim workload",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_first_line() {
        let cases: [(&[u8], TraceFormat); 10] = [
            (b"[{\"id\": 1}]\n", TraceFormat::Batsim),
            (b"\xEF\xBB\xBF{\"nb_res\": 4,\n", TraceFormat::Batsim),
            (b"; Version: 2.2\n", TraceFormat::Swf),
            (b"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n", TraceFormat::Swf),
            (b"; Note: a|b\n", TraceFormat::Swf),
            (b"", TraceFormat::Swf),
            (b"JobIDRaw|Submit|Start|End\n", TraceFormat::Sacct),
            (b"\xEF\xBB\xBFJobID|State\r\n", TraceFormat::Sacct),
            (b"{\"nb_res\": 4,\n", TraceFormat::Batsim),
            (b"  \n", TraceFormat::Swf),
        ];
        for (line, want) in cases {
            assert_eq!(TraceFormat::of(line), want, "{:?}", String::from_utf8_lossy(line));
        }
    }
}
