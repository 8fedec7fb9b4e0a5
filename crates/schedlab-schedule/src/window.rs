//! A time window as a user writes it: `FROM:TO`, each a number of seconds
//! in the trace's time (the times of the SWF file and of the per-job CSV)
//! with an optional unit, `s`, `m` (minutes), `h`, `d` or `w` (weeks):
//! `86400:172800`, `10d:17d`, `1.5h:3h`.

use schedlab_engine::Time;
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum WindowError {
    #[error("time window `{0}`: write FROM:TO, e.g. 10d:17d (units s, m, h, d, w)")]
    Shape(String),
    #[error("time window `{text}`: `{part}` is not a time (a number, optionally followed by s, m, h, d or w)")]
    Time { text: String, part: String },
    #[error("time window `{0}`: its end must come after its start")]
    Empty(String),
}

/// Parses `FROM:TO` into whole seconds `[from, to)`.
pub fn parse_window(text: &str) -> Result<(Time, Time), WindowError> {
    let (from, to) = text.split_once(':').ok_or_else(|| WindowError::Shape(text.to_owned()))?;
    let time =
        |part: &str| seconds(part.trim()).ok_or_else(|| WindowError::Time { text: text.into(), part: part.into() });
    let (from, to) = (time(from)?, time(to)?);
    if to <= from {
        return Err(WindowError::Empty(text.to_owned()));
    }
    Ok((from, to))
}

/// The reader's time limit (2^40 s): a window past it holds nothing.
const LIMIT: f64 = (1u64 << 40) as f64;

fn seconds(part: &str) -> Option<Time> {
    let (number, unit) = match part.char_indices().last()? {
        (at, c) if c.is_ascii_alphabetic() => (&part[..at], c),
        _ => (part, 's'),
    };
    let scale = match unit {
        's' => 1.0,
        'm' => 60.0,
        'h' => 3600.0,
        'd' => 86_400.0,
        'w' => 604_800.0,
        _ => return None,
    };
    let value: f64 = number.trim().parse().ok()?;
    let secs = (value * scale).round();
    (secs.is_finite() && secs.abs() <= LIMIT).then_some(secs as Time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_read_with_units_and_refuse_what_is_not_one() {
        assert_eq!(parse_window("86400:172800"), Ok((86_400, 172_800)));
        assert_eq!(parse_window("10d:17d"), Ok((864_000, 1_468_800)));
        assert_eq!(parse_window("1.5h:3h"), Ok((5400, 10_800)));
        assert_eq!(parse_window(" 0 : 2w "), Ok((0, 1_209_600)));
        assert_eq!(parse_window("-1m:30s"), Ok((-60, 30)));
        assert!(matches!(parse_window("10d"), Err(WindowError::Shape(_))));
        assert!(matches!(parse_window("10x:20d"), Err(WindowError::Time { .. })));
        assert!(matches!(parse_window("a:b"), Err(WindowError::Time { .. })));
        assert!(matches!(parse_window("1e300:2e300"), Err(WindowError::Time { .. })));
        assert!(matches!(parse_window("5d:5d"), Err(WindowError::Empty(_))));
        assert!(matches!(parse_window("nan:1"), Err(WindowError::Time { .. })));
    }
}
