//! The SWF header: comment lines (`;`) before the first job line, carrying
//! `Key: value` pairs.

use serde::Serialize;

use crate::limits::MAX_PROCS;

/// Most header entries (notes, other pairs, free comments) kept; more are
/// counted in a warning, so a file of comments cannot grow memory unbounded.
const MAX_ENTRIES: usize = 1000;
/// Longest header value kept, in bytes; longer ones are cut.
const MAX_VALUE: usize = 4096;

/// Keys of the SWF 2.2 header, so that an indented known key is read as a
/// key and not as the continuation of the line above.
const KNOWN_KEYS: [&str; 26] = [
    "Version",
    "Computer",
    "Installation",
    "Acknowledge",
    "Information",
    "Conversion",
    "MaxJobs",
    "MaxRecords",
    "Preemption",
    "UnixStartTime",
    "TimeZone",
    "TimeZoneString",
    "StartTime",
    "EndTime",
    "MaxNodes",
    "MaxProcs",
    "MaxRuntime",
    "MaxMemory",
    "AllowOveruse",
    "MaxQueues",
    "Queues",
    "Queue",
    "MaxPartitions",
    "Partitions",
    "Partition",
    "Note",
];

/// What the header says. Keys are matched without regard to case.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Header {
    /// `MaxProcs`, the leading integer of its value.
    pub max_procs: Option<u32>,
    /// `MaxNodes`, the leading integer of its value.
    pub max_nodes: Option<u32>,
    /// `UnixStartTime`: the epoch second that submit time 0 stands for.
    pub unix_start_time: Option<i64>,
    /// `TimeZoneString`, e.g. `Europe/Stockholm`.
    pub time_zone_string: Option<String>,
    /// `Computer`.
    pub computer: Option<String>,
    /// `Installation`.
    pub installation: Option<String>,
    /// Every `Note`, with its continuation lines joined by newlines.
    pub notes: Vec<String>,
    /// `Version`.
    pub version: Option<String>,
    /// Every other `Key: value` pair, in file order. The numeric keys above are
    /// also kept here verbatim, so text after a number ("338 (batch
    /// partition; 512 total)") is not lost.
    pub other: Vec<(String, String)>,
    /// Comment lines that are not `Key: value` pairs.
    pub comments: Vec<String>,
}

/// Where a continuation line goes.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Note,
    Computer,
    Installation,
    TimeZone,
    Version,
    Other(usize),
    Comment(usize),
}

/// Reads header lines one by one.
#[derive(Debug, Default)]
pub(crate) struct HeaderReader {
    pub header: Header,
    last: Option<Slot>,
    dropped: u64,
    non_utf8: u64,
    pub warnings: Vec<String>,
    /// A `MaxProcs` or `MaxNodes` entry was there but not usable.
    pub machine_size_refused: bool,
}

impl HeaderReader {
    /// Reads one comment line (`;` included, newline optional).
    pub fn line(&mut self, line_no: u64, raw: &[u8]) {
        let text = match std::str::from_utf8(raw) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => {
                if self.non_utf8 == 0 {
                    self.warnings.push(format!("line {line_no}: comment is not valid UTF-8; bad bytes replaced"));
                }
                self.non_utf8 += 1;
                String::from_utf8_lossy(raw)
            }
        };
        let body = text.trim_start().strip_prefix(';').unwrap_or("").trim_end();
        let content = body.trim_start();
        if content.is_empty() {
            self.last = None;
            return;
        }
        if is_continuation(body, content) {
            if let Some(slot) = self.last {
                self.append(slot, content);
                return;
            }
        }
        match split_key(content) {
            Some((key, value)) => self.entry(line_no, key, value),
            None => self.comment(content),
        }
    }

    /// Warnings about entries that were not kept.
    pub fn finish(&mut self) {
        if self.non_utf8 > 1 {
            let more = self.non_utf8 - 1;
            self.warnings.push(format!("{more} more comment lines are not valid UTF-8; bad bytes replaced"));
        }
        if self.dropped > 0 {
            self.warnings.push(format!("{} header entries past the first {MAX_ENTRIES} were ignored", self.dropped));
        }
    }

    fn room(&mut self) -> bool {
        let used = self.header.notes.len() + self.header.other.len() + self.header.comments.len();
        if used >= MAX_ENTRIES {
            self.dropped += 1;
            self.last = None;
            return false;
        }
        true
    }

    fn comment(&mut self, content: &str) {
        if self.room() {
            self.header.comments.push(cut(content));
            self.last = Some(Slot::Comment(self.header.comments.len() - 1));
        }
    }

    fn entry(&mut self, line_no: u64, key: &str, value: &str) {
        if !self.room() {
            return;
        }
        let h = &mut self.header;
        let value_owned = cut(value);
        let slot = match key.to_ascii_lowercase().as_str() {
            "note" | "notes" => {
                h.notes.push(value_owned);
                Slot::Note
            }
            "computer" => set(&mut h.computer, value_owned, Slot::Computer),
            "installation" => set(&mut h.installation, value_owned, Slot::Installation),
            "timezonestring" => set(&mut h.time_zone_string, value_owned, Slot::TimeZone),
            "version" => set(&mut h.version, value_owned, Slot::Version),
            lower => {
                self.numeric(line_no, lower, key, value);
                self.header.other.push((cut(key), value_owned));
                Slot::Other(self.header.other.len() - 1)
            }
        };
        self.last = Some(slot);
    }

    fn numeric(&mut self, line_no: u64, lower: &str, key: &str, value: &str) {
        let (h, warnings) = (&mut self.header, &mut self.warnings);
        let parsed = match lower {
            "maxprocs" => machine_count(value).map(|v| set_number(&mut h.max_procs, v, key, line_no, warnings)),
            "maxnodes" => machine_count(value).map(|v| set_number(&mut h.max_nodes, v, key, line_no, warnings)),
            "unixstarttime" => leading_int(value)
                .map(|v| set_number(&mut h.unix_start_time, v, key, line_no, warnings))
                .ok_or(NOT_A_NUMBER),
            _ => return,
        };
        if let Err(reason) = parsed {
            let shown = crate::line::show(value.as_bytes());
            self.warnings.push(format!("line {line_no}: header {key} `{shown}` {reason}; ignored"));
            self.machine_size_refused |= lower != "unixstarttime";
        }
    }

    fn append(&mut self, slot: Slot, content: &str) {
        let h = &mut self.header;
        let target = match slot {
            Slot::Note => h.notes.last_mut(),
            Slot::Computer => h.computer.as_mut(),
            Slot::Installation => h.installation.as_mut(),
            Slot::TimeZone => h.time_zone_string.as_mut(),
            Slot::Version => h.version.as_mut(),
            Slot::Other(i) => h.other.get_mut(i).map(|(_, v)| v),
            Slot::Comment(i) => h.comments.get_mut(i),
        };
        if let Some(s) = target {
            if s.len() + content.len() < MAX_VALUE {
                s.push('\n');
                s.push_str(content);
            }
        }
    }
}

/// Sets a numeric header field. A value that differs from one given
/// earlier replaces it, as the file's last word, with a warning naming the
/// one used: a header that says two machine sizes is worth a look.
fn set_number<T: PartialEq + std::fmt::Display + Copy>(
    field: &mut Option<T>,
    value: T,
    key: &str,
    line_no: u64,
    warnings: &mut Vec<String>,
) {
    if let Some(earlier) = *field {
        if earlier != value {
            warnings.push(format!(
                "line {line_no}: header {key} {value} differs from the {earlier} given earlier; {value} is used"
            ));
        }
    }
    *field = Some(value);
}

fn set(field: &mut Option<String>, value: String, slot: Slot) -> Slot {
    *field = Some(value);
    slot
}

/// A value cut to at most `MAX_VALUE` bytes, on a character boundary.
fn cut(s: &str) -> String {
    if s.len() <= MAX_VALUE {
        return s.to_owned();
    }
    let mut end = MAX_VALUE;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_owned()
}

/// An indented line (two or more blanks after `;`) that does not start with a
/// known key continues the entry above it.
fn is_continuation(body: &str, content: &str) -> bool {
    let indent = body.len() - content.len();
    let indented = indent >= 2 || body.starts_with('\t');
    indented && !split_key(content).is_some_and(|(k, _)| is_known(k))
}

fn is_known(key: &str) -> bool {
    KNOWN_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// `Key: value` where the key is a word of letters, digits, `_` or `-`.
fn split_key(content: &str) -> Option<(&str, &str)> {
    let (key, value) = content.split_once(':')?;
    let first_ok = key.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest_ok = key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    (first_ok && rest_ok && key.len() <= 64).then(|| (key, value.trim()))
}

/// The integer a value starts with: "338 (batch partition; 512 total)" → 338.
fn leading_int(value: &str) -> Option<i64> {
    leading_int_wide(value).and_then(|v| i64::try_from(v).ok())
}

fn leading_int_wide(value: &str) -> Option<i128> {
    let v = value.trim_start();
    let sign_len = usize::from(v.starts_with(['-', '+']));
    let digits = v[sign_len..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    v[..sign_len + digits].parse().ok()
}

const NOT_A_NUMBER: &str = "does not start with a usable number";

/// A processor or node count: positive and at most [`MAX_PROCS`]; else why
/// not. The number may be as long as the line, so it is parsed as i128
/// and anything beyond that is "not a number".
pub(crate) fn machine_count(value: &str) -> Result<u32, &'static str> {
    let v = leading_int_wide(value).ok_or(NOT_A_NUMBER)?;
    if v == 0 {
        Err("is 0, not a machine size")
    } else if v < 0 {
        Err("is negative, not a machine size")
    } else if v > i128::from(MAX_PROCS) {
        Err("is above the limit of 2147483648 processors (2^31)")
    } else {
        u32::try_from(v).map_err(|_| NOT_A_NUMBER)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> HeaderReader {
        let mut r = HeaderReader::default();
        for (i, l) in text.lines().enumerate() {
            r.line(i as u64 + 1, l.as_bytes());
        }
        r.finish();
        r
    }

    #[test]
    fn kth_style_header() {
        let r = read(
            "; Version: 2.2\n; Computer: IBM SP2\n; Information: http://www.pdc.kth.se/\n\
             ;              http://www.cs.huji.ac.il/labs/parallel/workload/\n; UnixStartTime: 843480031\n\
             ; TimeZoneString: Europe/Stockholm\n; StartTime: Mon Sep 23 14:00:31 CEST 1996\n\
             ; MaxNodes: 100\n; MaxProcs: 100\n; Note: uses the EASY scheduler\n;\n\
             ; Note: THIS IS A CLEANED VERSION OF THE LOG!\n;       The filter used to produce it was\n",
        );
        let h = &r.header;
        assert_eq!(h.version.as_deref(), Some("2.2"));
        assert_eq!(h.computer.as_deref(), Some("IBM SP2"));
        assert_eq!((h.max_procs, h.max_nodes, h.unix_start_time), (Some(100), Some(100), Some(843480031)));
        assert_eq!(h.time_zone_string.as_deref(), Some("Europe/Stockholm"));
        assert_eq!(h.notes.len(), 2);
        assert_eq!(h.notes[1], "THIS IS A CLEANED VERSION OF THE LOG!\nThe filter used to produce it was");
        let info = h.other.iter().find(|(k, _)| k == "Information").expect("information");
        assert!(info.1.ends_with("\nhttp://www.cs.huji.ac.il/labs/parallel/workload/"));
        let start = h.other.iter().find(|(k, _)| k == "StartTime").expect("start");
        assert_eq!(start.1, "Mon Sep 23 14:00:31 CEST 1996");
        assert!(r.warnings.is_empty());
    }

    #[test]
    fn a_number_given_twice_with_different_values_warns_and_names_the_one_used() {
        let r = read("; MaxProcs: 128\n; MaxNodes: 64\n; MaxProcs: 256\n; MaxNodes: 64\n");
        assert_eq!((r.header.max_procs, r.header.max_nodes), (Some(256), Some(64)));
        assert_eq!(r.warnings, ["line 3: header MaxProcs 256 differs from the 128 given earlier; 256 is used"]);
    }

    #[test]
    fn text_after_numbers_and_no_space() {
        let r =
            read(";MaxProcs: 338 (batch partition; 512 total)\n;MaxNodes:400 (48 interactive)\n;Installation:CTC\n");
        assert_eq!((r.header.max_procs, r.header.max_nodes), (Some(338), Some(400)));
        assert_eq!(r.header.installation.as_deref(), Some("CTC"));
        assert_eq!(r.header.other[0], ("MaxProcs".into(), "338 (batch partition; 512 total)".into()));
    }

    #[test]
    fn indented_known_key_is_a_key() {
        let r = read("; Note: a\n;   MaxProcs: 64\n");
        assert_eq!(r.header.max_procs, Some(64));
        assert_eq!(r.header.notes, vec!["a".to_owned()]);
    }

    #[test]
    fn bad_numbers_warn() {
        let r = read("; MaxProcs: many\n; MaxNodes: 0\n; UnixStartTime: -5\n");
        assert_eq!((r.header.max_procs, r.header.max_nodes, r.header.unix_start_time), (None, None, Some(-5)));
        assert_eq!(r.warnings.len(), 2);
        assert!(r.warnings[0].contains("line 1: header MaxProcs `many`"), "{:?}", r.warnings);
        assert!(r.machine_size_refused);
    }

    #[test]
    fn unusable_machine_sizes_say_why() {
        let cases = [
            ("0", "`0` is 0, not a machine size; ignored"),
            ("-4", "`-4` is negative, not a machine size; ignored"),
            ("1099511627776", "`1099511627776` is above the limit of 2147483648 processors (2^31); ignored"),
            ("4294967295", "above the limit of 2147483648 processors (2^31); ignored"),
            ("99999999999999999999999999999999999999999999", "does not start with a usable number; ignored"),
            ("n/a", "`n/a` does not start with a usable number; ignored"),
        ];
        for (value, want) in cases {
            let r = read(&format!("; MaxProcs: {value}\n"));
            assert_eq!(r.header.max_procs, None, "{value}");
            assert!(r.warnings[0].ends_with(want), "{value}: {:?}", r.warnings);
        }
        let r = read("; MaxProcs: 2147483648\n");
        assert_eq!((r.header.max_procs, r.machine_size_refused), (Some(MAX_PROCS), false));
    }

    #[test]
    fn free_comments_and_non_utf8() {
        let mut r = HeaderReader::default();
        r.line(1, b"; hello world\n");
        r.line(2, b"; Installation: Universit\xe9\n");
        assert_eq!(r.header.comments, vec!["hello world".to_owned()]);
        assert_eq!(r.header.installation.as_deref(), Some("Universit\u{fffd}"));
        assert!(r.warnings[0].starts_with("line 2: comment is not valid UTF-8"));
    }

    #[test]
    fn entries_are_bounded() {
        let mut r = HeaderReader::default();
        for i in 0..1500 {
            r.line(i, b"; Note: x");
        }
        r.finish();
        assert_eq!(r.header.notes.len(), MAX_ENTRIES);
        assert!(r.warnings[0].starts_with("500 header entries"));
    }

    #[test]
    fn leading_integers() {
        assert_eq!(leading_int(" 338 (batch)"), Some(338));
        assert_eq!(leading_int("-12"), Some(-12));
        assert_eq!(leading_int("x1"), None);
        assert_eq!(leading_int("-"), None);
        assert_eq!(leading_int("99999999999999999999"), None);
        assert_eq!(machine_count("99999999999"), Err("is above the limit of 2147483648 processors (2^31)"));
    }
}
