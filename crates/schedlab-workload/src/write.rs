//! Writing SWF: a simulated schedule (or a cleaned trace) in the format other
//! PWA tools read.

use std::io::{self, BufWriter, Write};

use crate::job::{Job, SwfExtra};

/// One job line to write: the job, its other fields, and what the schedule
/// says about it (field 3 wait, field 4 run time, field 5 processors).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwfRow {
    /// The job (fields 1, 2, 8, 9, 11, 12, 13, 15, 16).
    pub job: Job,
    /// Fields 6, 7, 10, 14, 17, 18 (its `wait` and `allocated` are not used).
    pub extra: SwfExtra,
    /// Field 3: wait time, seconds.
    pub wait: i64,
    /// Field 4: run time, seconds.
    pub runtime: i64,
    /// Field 5: allocated processors.
    pub procs: u32,
}

impl SwfRow {
    /// The row that writes a job back as it was read.
    pub fn from_trace(job: Job, extra: SwfExtra) -> Self {
        let procs = u32::try_from(extra.allocated).unwrap_or(job.size);
        SwfRow { job, extra, wait: extra.wait, runtime: job.runtime, procs }
    }
}

/// Writes comment lines ("; " + text, one per line of each comment) and then
/// one 18-field line per row. Integers are written as integers; fields 6, 7
/// and 10 with the fewest digits that read back to the same value
/// (non-finite values, which SWF cannot hold, as -1).
pub fn write_swf<W: Write>(out: W, comments: &[String], rows: impl IntoIterator<Item = SwfRow>) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(64 * 1024, out);
    for comment in comments {
        write_comment(&mut w, comment)?;
    }
    for row in rows {
        write_row(&mut w, &row)?;
    }
    w.flush()
}

fn write_comment<W: Write>(w: &mut W, comment: &str) -> io::Result<()> {
    if comment.is_empty() {
        return writeln!(w, ";");
    }
    for line in comment.lines() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            writeln!(w, ";")?;
        } else {
            writeln!(w, "; {line}")?;
        }
    }
    Ok(())
}

fn write_row<W: Write>(w: &mut W, r: &SwfRow) -> io::Result<()> {
    let (j, e) = (&r.job, &r.extra);
    write!(w, "{} {} {} {} {} ", j.id, j.submit, r.wait, r.runtime, r.procs)?;
    write!(w, "{} {} {} {} ", Real(e.avg_cpu), Real(e.used_memory), j.size, j.estimate)?;
    write!(w, "{} {} {} {} {} ", Real(e.requested_memory), j.status, j.user, j.group, e.executable)?;
    writeln!(w, "{} {} {} {}", j.queue, j.partition, e.preceding, e.think_time)
}

/// A real number written with minimal digits (`Display` of `f64` never uses
/// an exponent, and `-0` is written as `0`).
struct Real(f64);

impl std::fmt::Display for Real {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        if !v.is_finite() {
            f.write_str("-1")
        } else if v == 0.0 {
            f.write_str("0")
        } else {
            write!(f, "{v}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals() {
        let cases = [
            (12.5, "12.5"),
            (-1.0, "-1"),
            (3.0, "3"),
            (-0.0, "0"),
            (f64::NAN, "-1"),
            (0.1, "0.1"),
            (1e20, "100000000000000000000"),
        ];
        for (v, s) in cases {
            assert_eq!(Real(v).to_string(), s);
        }
    }

    #[test]
    fn comments_split_lines() {
        let mut out = Vec::new();
        let comments = vec!["Version: 2.2".to_owned(), "a\nb\r\n\nc".to_owned(), String::new()];
        write_swf(&mut out, &comments, []).expect("write");
        assert_eq!(String::from_utf8(out).expect("utf8"), "; Version: 2.2\n; a\n; b\n;\n; c\n;\n");
    }
}
