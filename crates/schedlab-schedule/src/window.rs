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
    #[error("time window `{text}`: `{part}` is beyond the time limit of ±2^40 s (about 34,800 years)")]
    Beyond { text: String, part: String },
    #[error("time window `{0}`: its end must come after its start")]
    Empty(String),
    #[error("time window `{text}`: it is shorter than a second ({from} s to {to} s in whole seconds)")]
    UnderASecond { text: String, from: Time, to: Time },
}

/// Parses `FROM:TO` into whole seconds `[from, to)`.
pub fn parse_window(text: &str) -> Result<(Time, Time), WindowError> {
    let (from_text, to_text) = text.split_once(':').ok_or_else(|| WindowError::Shape(text.to_owned()))?;
    let time = |part: &str| {
        let shown = schedlab_workload::short_text(part.trim());
        match seconds(part.trim()) {
            Some(Seconds::Within(t)) => Ok(t),
            Some(Seconds::Beyond) => {
                Err(WindowError::Beyond { text: schedlab_workload::short_text(text), part: shown })
            }
            None => Err(WindowError::Time { text: schedlab_workload::short_text(text), part: shown }),
        }
    };
    let (from, to) = (time(from_text)?, time(to_text)?);
    if to <= from {
        // Times are whole seconds: `0.1:0.2` is a window, but an empty one.
        let given = |part: &str| seconds_given(part.trim());
        if given(to_text) > given(from_text) {
            return Err(WindowError::UnderASecond { text: schedlab_workload::short_text(text), from, to });
        }
        return Err(WindowError::Empty(schedlab_workload::short_text(text)));
    }
    Ok((from, to))
}

/// A time as read: within the limit (whole seconds), or a number beyond it.
enum Seconds {
    Within(Time),
    Beyond,
}

/// The reader's time limit (2^40 s): a window past it holds nothing.
const LIMIT: f64 = (1u64 << 40) as f64;

fn seconds(part: &str) -> Option<Seconds> {
    let secs = seconds_given(part)?.round();
    Some(if secs.abs() <= LIMIT { Seconds::Within(secs as Time) } else { Seconds::Beyond })
}

/// The seconds a time says, before rounding; `None` if it is not a time
/// (not a number, an unknown unit, NaN).
fn seconds_given(part: &str) -> Option<f64> {
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
    let secs = value * scale;
    // An infinite product of a finite number is beyond the limit too.
    (!secs.is_nan() && value.is_finite()).then_some(secs)
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
        let beyond = |text: &str, part: &str| WindowError::Beyond { text: text.into(), part: part.into() };
        assert_eq!(parse_window("1e300:2e300"), Err(beyond("1e300:2e300", "1e300")));
        assert_eq!(parse_window("0:1099511627777"), Err(beyond("0:1099511627777", "1099511627777")));
        assert_eq!(parse_window("0:1e20"), Err(beyond("0:1e20", "1e20")));
        assert_eq!(parse_window("0:1099511627776"), Ok((0, 1 << 40)), "the limit itself");
        assert!(parse_window("1.7e308:1e309")
            .unwrap_err()
            .to_string()
            .contains("`1.7e308` is beyond the time limit of ±2^40 s"));
        assert_eq!(
            parse_window("0.1:0.2").unwrap_err().to_string(),
            "time window `0.1:0.2`: it is shorter than a second (0 s to 0 s in whole seconds)"
        );
        assert!(matches!(parse_window("5d:5d"), Err(WindowError::Empty(_))));
        assert!(matches!(parse_window("nan:1"), Err(WindowError::Time { .. })));
    }
}
