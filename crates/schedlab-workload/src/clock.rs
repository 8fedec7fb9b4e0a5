//! Times as people read them. A trace counts seconds from its own start;
//! `d12 06:30` is day 12, 06:30 on that clock. When the header gives
//! `UnixStartTime`, the same instant is also a calendar date. The header's
//! `TimeZone` is a fixed offset from UTC in seconds (the Parallel
//! Workloads Archive's field, without daylight saving), so dates are shown
//! at that offset and say so ("1996-09-30 07:40 UTC+1"); `TimeZoneString`
//! only names the place, since the core carries no time-zone database and
//! would otherwise guess summer time. Without an offset, dates are in UTC.

use serde::{Deserialize, Serialize};

use crate::Header;

/// What the header says about the trace's clock.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceClock {
    /// The epoch second that the trace's second 0 stands for.
    pub unix_start: Option<i64>,
    /// Seconds east of UTC (`TimeZone`), if given.
    pub offset: Option<i64>,
    /// `TimeZoneString`, e.g. `Europe/Stockholm`, if given.
    pub zone: Option<String>,
}

impl TraceClock {
    /// The clock of a trace whose header is `h`.
    pub fn of(h: &Header) -> Self {
        let offset = h
            .other
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("TimeZone"))
            .and_then(|(_, v)| v.split_whitespace().next()?.parse::<i64>().ok())
            .filter(|s| s.abs() <= 14 * 3600);
        TraceClock { unix_start: h.unix_start_time, offset, zone: h.time_zone_string.clone() }
    }

    /// `1996-09-30 07:40 UTC+1`: the calendar date and time of trace second
    /// `t`, or `None` when the header gives no `UnixStartTime`.
    pub fn date(&self, t: f64) -> Option<String> {
        let start = self.unix_start?;
        if !t.is_finite() {
            return None;
        }
        let offset = self.offset.unwrap_or(0);
        let local = start.checked_add(t.round() as i64)?.checked_add(offset)?;
        let (days, rest) = (local.div_euclid(86_400), local.rem_euclid(86_400));
        let (y, m, d) = civil_from_days(days);
        Some(format!("{y:04}-{m:02}-{d:02} {:02}:{:02} {}", rest / 3600, rest % 3600 / 60, utc_offset(offset)))
    }

    /// The date, when known, with the time since the trace's start:
    /// `1996-09-30 14:00 UTC+1 (+7 d 1 h)`; else the trace's own clock,
    /// `d7 01:00`. Never both clocks' times of day side by side: the trace's
    /// starts at its first second, not at midnight, so they would disagree.
    /// The time since the start is held together by no-break spaces, so a
    /// narrow screen breaks the label before it, never inside it.
    pub fn label(&self, t: f64) -> String {
        match self.date(t) {
            Some(d) => format!("{d} (+{})", duration_text(t).replace(' ', "\u{a0}")),
            None => trace_time(t),
        }
    }

    /// One sentence on how dates are shown, for a tooltip or a note.
    pub fn note(&self) -> Option<String> {
        self.unix_start?;
        let place = self.zone.as_deref().map(|z| format!(" ({z}, without daylight saving)")).unwrap_or_default();
        Some(match self.offset {
            Some(o) => format!("Dates are at {}, the header's TimeZone{place}.", utc_offset(o)),
            None => "Dates are in UTC: the header gives no TimeZone offset.".to_owned(),
        })
    }
}

/// `d12 06:30`: day and clock of trace second `t` (`d12` on the day's first second).
pub fn trace_time(t: f64) -> String {
    let t = if t.is_finite() { t.round() as i64 } else { 0 };
    let (day, rest) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    if rest == 0 {
        format!("d{day}")
    } else {
        format!("d{day} {:02}:{:02}", rest / 3600, rest % 3600 / 60)
    }
}

/// `45 s`, `3 min 20 s`, `3 h 20 min`, `2 d 4 h`: a duration to the
/// precision a reader of a schedule wants.
pub fn duration_text(seconds: f64) -> String {
    let s = if seconds.is_finite() { seconds.round() as i64 } else { 0 };
    let sign = if s < 0 { "−" } else { "" };
    let s = s.abs();
    let text = if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        pair(s / 60, "min", s % 60, "s")
    } else if s < 86_400 {
        pair(s / 3600, "h", s % 3600 / 60, "min")
    } else {
        pair(s / 86_400, "d", s % 86_400 / 3600, "h")
    };
    format!("{sign}{text}")
}

/// `3 h 20 min`, or `3 h` when the second part is zero.
fn pair(a: i64, ua: &str, b: i64, ub: &str) -> String {
    if b == 0 {
        format!("{a} {ua}")
    } else {
        format!("{a} {ua} {b} {ub}")
    }
}

/// `UTC`, `UTC+1`, `UTC−5`, `UTC+5:30`.
fn utc_offset(seconds: i64) -> String {
    if seconds == 0 {
        return "UTC".to_owned();
    }
    let sign = if seconds < 0 { '−' } else { '+' };
    let (h, m) = (seconds.abs() / 3600, seconds.abs() % 3600 / 60);
    if m == 0 {
        format!("UTC{sign}{h}")
    } else {
        format!("UTC{sign}{h}:{m:02}")
    }
}

/// Year, month and day of the day `days` after 1970-01-01 (proleptic
/// Gregorian; Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The day of year `y`, month `m` and day `d` counted from 1970-01-01
/// (proleptic Gregorian; Howard Hinnant's `days_from_civil`), the inverse
/// of [`civil_from_days`].
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2000-03-01 is 10,957 days (30 years with 7 leap days) plus January's
    /// 31 and leap February's 29 after 1970-01-01; days and dates convert
    /// both ways across centuries and before 1970.
    #[test]
    fn days_and_civil_dates_are_inverse() {
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        for d in (-800_000..800_000).step_by(997) {
            let (y, m, day) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, day), d);
        }
    }

    fn kth() -> TraceClock {
        // The KTH-SP2 header: "UnixStartTime: 843480031", "TimeZone: 3600",
        // "StartTime: Mon Sep 23 14:00:31 CEST 1996" (CEST is UTC+2, so the
        // log's start is 12:00:31 UTC, 13:00:31 at the header's UTC+1).
        TraceClock { unix_start: Some(843_480_031), offset: Some(3600), zone: Some("Europe/Stockholm".into()) }
    }

    fn header(text: &str) -> Header {
        let mut r = crate::header::HeaderReader::default();
        for (i, l) in text.lines().enumerate() {
            r.line(i as u64 + 1, l.as_bytes());
        }
        r.finish();
        r.header
    }

    #[test]
    fn dates_are_at_the_headers_fixed_offset() {
        let c = kth();
        assert_eq!(c.date(0.0).as_deref(), Some("1996-09-23 13:00 UTC+1"));
        // 11 h later crosses midnight; a week later is the 30th.
        assert_eq!(c.date(11.0 * 3600.0).as_deref(), Some("1996-09-24 00:00 UTC+1"));
        assert_eq!(c.label(7.0 * 86_400.0 + 3600.0), "1996-09-30 14:00 UTC+1 (+7\u{a0}d\u{a0}1\u{a0}h)");
        assert_eq!(
            c.note().as_deref(),
            Some("Dates are at UTC+1, the header's TimeZone (Europe/Stockholm, without daylight saving).")
        );
    }

    #[test]
    fn without_an_offset_dates_are_utc_and_without_a_start_there_are_none() {
        let utc = TraceClock { unix_start: Some(0), offset: None, zone: None };
        assert_eq!(utc.date(0.0).as_deref(), Some("1970-01-01 00:00 UTC"));
        // 2000-02-29 (a leap day of a century year divisible by 400) is day 11016.
        assert_eq!(utc.date(11_016.0 * 86_400.0 + 59.0).as_deref(), Some("2000-02-29 00:00 UTC"));
        assert_eq!(utc.note().as_deref(), Some("Dates are in UTC: the header gives no TimeZone offset."));
        let west = TraceClock { unix_start: Some(0), offset: Some(-5 * 3600 - 1800), zone: None };
        assert_eq!(west.date(0.0).as_deref(), Some("1969-12-31 18:30 UTC−5:30"));
        let none = TraceClock::default();
        assert_eq!((none.date(5.0), none.label(90_000.0), none.note()), (None, "d1 01:00".to_owned(), None));
    }

    #[test]
    fn the_clock_is_read_from_the_header() {
        let h = header("; UnixStartTime: 843480031\n; TimeZone: 3600\n; TimeZoneString: Europe/Stockholm\n");
        assert_eq!(TraceClock::of(&h), kth());
        assert_eq!(TraceClock::of(&header("; TimeZone: somewhere\n")), TraceClock::default());
    }

    #[test]
    fn durations_read_as_people_say_them() {
        for (s, text) in [
            (45.0, "45 s"),
            (200.0, "3 min 20 s"),
            (180.0, "3 min"),
            (12_000.0, "3 h 20 min"),
            (187_200.0, "2 d 4 h"),
            (-90.0, "−1 min 30 s"),
            (f64::NAN, "0 s"),
        ] {
            assert_eq!(duration_text(s), text, "{s}");
        }
        assert_eq!(
            (trace_time(0.0), trace_time(86_400.0 * 492.0 + 7.0 * 3600.0 + 300.0)),
            ("d0".to_owned(), "d492 07:05".to_owned())
        );
    }
}
