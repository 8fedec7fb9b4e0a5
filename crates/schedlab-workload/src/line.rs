//! One SWF line: what kind it is, its 18 numeric fields, and the job they
//! describe. Hand-written for speed: fields are split on ASCII whitespace and
//! integers parsed without going through `str`.

use crate::job::{Job, SwfExtra};

/// Number of fields in a job line.
pub(crate) const FIELDS: usize = 18;

/// What a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// Only whitespace.
    Blank,
    /// First non-blank byte is `;`.
    Comment,
    /// Anything else: must be 18 numbers.
    Job,
}

/// A parsed field: its value rounded to an integer, its exact value, and
/// whether rounding changed it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Num {
    pub int: i64,
    pub float: f64,
    pub frac: bool,
}

/// Why a job line was rejected; `field` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineError {
    pub field: Option<u8>,
    pub message: String,
}

/// A valid job line, before cleaning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Parsed {
    pub job: Job,
    pub extra: SwfExtra,
    /// A time or size field (2, 3, 4, 5, 8, 9 or 18) was fractional and rounded.
    pub rounded: bool,
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// Classifies a line (with or without its newline).
pub(crate) fn classify(line: &[u8]) -> LineKind {
    match line.iter().find(|&&b| !is_space(b)) {
        None => LineKind::Blank,
        Some(b';') => LineKind::Comment,
        Some(_) => LineKind::Job,
    }
}

enum NumError {
    NotANumber,
    OutOfRange,
}

/// Parses a decimal number: `-1`, `42`, `12.5`, `-.5`, `1e3`.
#[inline]
fn parse_num(tok: &[u8]) -> Result<Num, NumError> {
    let (neg, digits) = match tok.first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    if !digits.is_empty() && digits.len() <= 18 {
        let mut v: i64 = 0;
        let mut all_digits = true;
        for &b in digits {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                all_digits = false;
                break;
            }
            v = v * 10 + i64::from(d);
        }
        if all_digits {
            let v = if neg { -v } else { v };
            return Ok(Num { int: v, float: v as f64, frac: false });
        }
    }
    parse_slow(tok)
}

/// The general case: long integers, decimals and exponents.
fn parse_slow(tok: &[u8]) -> Result<Num, NumError> {
    let allowed = |b: &u8| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E');
    if !tok.iter().all(allowed) || !tok.iter().any(u8::is_ascii_digit) {
        return Err(NumError::NotANumber);
    }
    let text = std::str::from_utf8(tok).map_err(|_| NumError::NotANumber)?;
    if let Ok(v) = text.parse::<i64>() {
        return Ok(Num { int: v, float: v as f64, frac: false });
    }
    let f: f64 = text.parse().map_err(|_| NumError::NotANumber)?;
    let r = f.round();
    // 2^63 is exactly representable; anything at or past it does not fit i64.
    const TWO_POW_63: f64 = (1u64 << 63) as f64;
    if !f.is_finite() || r.abs() >= TWO_POW_63 {
        return Err(NumError::OutOfRange);
    }
    Ok(Num { int: r as i64, float: f, frac: f != r })
}

/// Splits a job line into its 18 numbers.
pub(crate) fn parse_fields(line: &[u8]) -> Result<[Num; FIELDS], LineError> {
    let mut out = [Num::default(); FIELDS];
    let mut count = 0usize;
    let mut first_err: Option<LineError> = None;
    let mut i = 0;
    while i < line.len() {
        if is_space(line[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && !is_space(line[i]) {
            i += 1;
        }
        if count < FIELDS && first_err.is_none() {
            match parse_num(&line[start..i]) {
                Ok(v) => out[count] = v,
                Err(e) => first_err = Some(token_error(line, start, i, count, e)),
            }
        }
        count += 1;
    }
    if count != FIELDS {
        let plural = if count == 1 { "" } else { "s" };
        let message = format!("has {count} field{plural}, expected {FIELDS}");
        return Err(LineError { field: None, message });
    }
    first_err.map_or(Ok(out), Err)
}

fn token_error(line: &[u8], start: usize, end: usize, index: usize, e: NumError) -> LineError {
    let tok = &line[start..end];
    let message = match (std::str::from_utf8(tok), e) {
        (Err(u), _) => {
            let at = u.valid_up_to();
            format!("byte 0x{:02X} at column {} is not valid UTF-8", tok[at], start + at + 1)
        }
        (Ok(_), NumError::NotANumber) => format!("`{}` is not a number", show(tok)),
        (Ok(_), NumError::OutOfRange) => format!("`{}` is out of range", show(tok)),
    };
    LineError { field: u8::try_from(index + 1).ok(), message }
}

/// A token for a message: escaped, at most 40 characters.
pub(crate) fn show(tok: &[u8]) -> String {
    crate::error::short_text(&String::from_utf8_lossy(tok))
}

/// Turns 18 numbers into a job, checking the identifier fields.
pub(crate) fn to_job(f: &[Num; FIELDS]) -> Result<Parsed, LineError> {
    let id = u64::try_from(ident(f, 1)?).map_err(|_| field_error(1, f, "is negative: a job number is 0 or more"))?;
    let rounded = [2usize, 3, 4, 5, 8, 9, 18].iter().any(|&k| f[k - 1].frac);
    let size = if f[7].int > 0 { f[7].int } else { f[4].int };
    let job = Job {
        id,
        submit: f[1].int,
        runtime: f[3].int,
        size: u32::try_from(size.max(0)).unwrap_or(u32::MAX),
        estimate: f[8].int,
        user: ident32(f, 12)?,
        group: ident32(f, 13)?,
        queue: ident32(f, 15)?,
        partition: ident32(f, 16)?,
        status: ident32(f, 11)?,
    };
    let extra = SwfExtra {
        wait: f[2].int,
        allocated: f[4].int,
        avg_cpu: f[5].float,
        used_memory: f[6].float,
        requested_memory: f[9].float,
        executable: ident(f, 14)?,
        preceding: ident(f, 17)?,
        think_time: f[17].int,
        nodes: -1,
        gpus: -1,
        request: 0,
    };
    Ok(Parsed { job, extra, rounded })
}

/// An identifier field (1-based): must be a whole number.
fn ident(f: &[Num; FIELDS], field: u8) -> Result<i64, LineError> {
    let n = f[usize::from(field) - 1];
    if n.frac {
        return Err(field_error(field, f, "is not a whole number"));
    }
    Ok(n.int)
}

fn ident32(f: &[Num; FIELDS], field: u8) -> Result<i32, LineError> {
    i32::try_from(ident(f, field)?).map_err(|_| field_error(field, f, "is out of range for an identifier (32 bits)"))
}

fn field_error(field: u8, f: &[Num; FIELDS], what: &str) -> LineError {
    let value = crate::error::short_number(f[usize::from(field) - 1].float);
    LineError { field: Some(field), message: format!("`{value}` {what}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Option<Num> {
        parse_num(s.as_bytes()).ok()
    }

    #[test]
    fn numbers() {
        let cases: [(&str, Option<(i64, bool)>); 16] = [
            ("0", Some((0, false))),
            ("-1", Some((-1, false))),
            ("+7", Some((7, false))),
            ("123456789012345678", Some((123456789012345678, false))),
            ("9223372036854775807", Some((i64::MAX, false))),
            ("12.5", Some((13, true))),
            ("-12.5", Some((-13, true))),
            ("3.0", Some((3, false))),
            ("-.5", Some((-1, true))),
            ("1e3", Some((1000, false))),
            ("abc", None),
            ("-", None),
            (".", None),
            ("1e999", None),
            ("nan", None),
            ("99999999999999999999", None),
        ];
        for (s, want) in cases {
            assert_eq!(num(s).map(|n| (n.int, n.frac)), want, "{s}");
        }
    }

    #[test]
    fn kinds() {
        assert_eq!(classify(b"\n"), LineKind::Blank);
        assert_eq!(classify(b"  \t\r\n"), LineKind::Blank);
        assert_eq!(classify(b"; Version: 2.2\n"), LineKind::Comment);
        assert_eq!(classify(b"  ;x"), LineKind::Comment);
        assert_eq!(classify(b"1 2 3"), LineKind::Job);
    }

    const LINE: &[u8] =
        b"   15   599850 192180   3477    4     -1    -1    4  53940    -1  1  12  12  -1 -1 -1 -1 -1\r\n";

    #[test]
    fn kth_line() {
        let p = to_job(&parse_fields(LINE).expect("fields")).expect("job");
        assert_eq!((p.job.id, p.job.submit, p.job.runtime, p.job.size), (15, 599850, 3477, 4));
        assert_eq!((p.job.estimate, p.job.status, p.job.user, p.job.queue), (53940, 1, 12, -1));
        assert_eq!((p.extra.wait, p.extra.allocated, p.extra.avg_cpu), (192180, 4, -1.0));
        assert!(!p.rounded);
    }

    #[test]
    fn line_errors() {
        let cases: [(&[u8], Option<u8>, &str); 9] = [
            (b"1 2 3", None, "has 3 fields, expected 18"),
            (b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", None, "has 19 fields"),
            (b"1 2 3 abc 5 6 7 8 9 10 11 12 13 14 15 16 17 18", Some(4), "`abc` is not a number"),
            (b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 1\xff", Some(18), "0xFF at column 44"),
            (b"1.5 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18", Some(1), "not a whole number"),
            (b"-3 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18", Some(1), "is negative"),
            (b"1 2 3 4 5 6 7 8 9 10 11 99999999999 13 14 15 16 17 18", Some(12), "out of range"),
            (b"1 2 3 4 5 6 7 8 9 10 11 1e300 13 14 15 16 17 18", Some(12), "`1e300` is out of range"),
            (b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 1e17 16 17 18", Some(15), "`1e17` is out of range for an identifier"),
        ];
        for (line, field, text) in cases {
            let err = parse_fields(line).and_then(|f| to_job(&f).map(|_| ())).expect_err(text);
            assert_eq!(err.field, field, "{text}");
            assert!(err.message.contains(text), "{} !~ {text}", err.message);
        }
    }

    #[test]
    fn fractional_fields() {
        let p = to_job(&parse_fields(b"1 2.4 3 4.5 5 6.25 7 8 9 10 11 12 13 14 15 16 17 18").expect("f")).expect("j");
        assert_eq!((p.job.submit, p.job.runtime, p.extra.avg_cpu), (2, 5, 6.25));
        assert!(p.rounded);
    }

    #[test]
    fn size_falls_back_to_allocated() {
        let p = to_job(&parse_fields(b"1 0 0 10 6 -1 -1 -1 60 -1 1 1 1 -1 -1 -1 -1 -1").expect("f")).expect("j");
        assert_eq!(p.job.size, 6);
        let p = to_job(&parse_fields(b"1 0 0 10 -1 -1 -1 -1 60 -1 1 1 1 -1 -1 -1 -1 -1").expect("f")).expect("j");
        assert_eq!(p.job.size, 0);
    }

    #[test]
    fn long_tokens_are_shortened() {
        let s = show(&[b'x'; 100]);
        assert_eq!(s, format!("{}… (100 characters)", "x".repeat(40)));
        assert_eq!(show("a\u{202e}b\n".as_bytes()), "a\\u{202e}b\\n", "what a terminal would hide is escaped");
    }
}
