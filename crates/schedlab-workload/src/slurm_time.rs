//! The times of a Slurm accounting dump: `2024-03-01T12:34:56` as sacct
//! prints them (in the time zone of the machine that ran it, which the
//! text does not say), with an optional zone when `SLURM_TIME_FORMAT`
//! adds one (`%FT%T%z`: `+0100`), or epoch seconds (`%s`).

/// A time read from a dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// Seconds since 1970-01-01T00:00:00 UTC (the zone-less times taken as UTC).
    pub seconds: i64,
    /// The text said which instant it is (a zone, or epoch seconds).
    pub zoned: bool,
}

/// Parses a time; `Ok(None)` for the words sacct prints for a time it does
/// not know (`Unknown`, `None`, nothing); `Err` says why the text is not a time.
pub(crate) fn parse_time(text: &str) -> Result<Option<Stamp>, &'static str> {
    const NOT_A_TIME: &str =
        "is not a time (YYYY-MM-DDTHH:MM:SS with an optional zone such as +01:00 or Z, or epoch seconds)";
    if text.is_empty() || text.eq_ignore_ascii_case("Unknown") || text.eq_ignore_ascii_case("None") {
        return Ok(None);
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().map(|seconds| Some(Stamp { seconds, zoned: true })).map_err(|_| NOT_A_TIME);
    }
    let b = text.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b' ') || b[13] != b':' || b[16] != b':' {
        return Err(NOT_A_TIME);
    }
    let num = |from: usize, to: usize| text.get(from..to).filter(|t| t.bytes().all(|c| c.is_ascii_digit()));
    let field = |from, to| num(from, to).and_then(|t| t.parse::<i64>().ok()).ok_or(NOT_A_TIME);
    let (year, month, day) = (field(0, 4)?, field(5, 7)?, field(8, 10)?);
    let (hour, minute, second) = (field(11, 13)?, field(14, 16)?, field(17, 19)?);
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return Err("is not a date of the calendar");
    }
    if hour > 23 || minute > 59 || second > 60 {
        return Err("is not a time of day");
    }
    let offset = zone_offset(&text[19..]).ok_or(NOT_A_TIME)?;
    let local = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    Ok(Some(Stamp { seconds: local - offset.unwrap_or(0), zoned: offset.is_some() }))
}

/// The offset from UTC a zone suffix gives, in seconds: `Some(None)` for
/// no suffix, `None` for one that is not a zone.
fn zone_offset(zone: &str) -> Option<Option<i64>> {
    if zone.is_empty() {
        return Some(None);
    }
    if zone == "Z" {
        return Some(Some(0));
    }
    let sign = match zone.as_bytes()[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits: String = zone[1..].chars().filter(|&c| c != ':').collect();
    if !(digits.len() == 2 || digits.len() == 4) || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let hours: i64 = digits[..2].parse().ok()?;
    let minutes: i64 = if digits.len() == 4 { digits[2..].parse().ok()? } else { 0 };
    (hours <= 23 && minutes <= 59).then_some(Some(sign * (hours * 3600 + minutes * 60)))
}

fn days_in_month(year: i64, month: i64) -> i64 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar
/// (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64, zoned: bool) -> Result<Option<Stamp>, &'static str> {
        Ok(Some(Stamp { seconds, zoned }))
    }

    /// Epoch seconds from `date -u -d ... +%s`: 2024-03-01T12:34:56Z is
    /// 1709296496; 2000-02-29T00:00:00Z is 951782400.
    #[test]
    fn times_with_and_without_zones() {
        assert_eq!(parse_time("2024-03-01T12:34:56"), at(1_709_296_496, false));
        assert_eq!(parse_time("2024-03-01T12:34:56Z"), at(1_709_296_496, true));
        assert_eq!(parse_time("2024-03-01T13:34:56+01:00"), at(1_709_296_496, true));
        assert_eq!(parse_time("2024-03-01T13:34:56+0100"), at(1_709_296_496, true));
        assert_eq!(parse_time("2024-03-01T07:04:56-0530"), at(1_709_296_496, true));
        assert_eq!(parse_time("2000-02-29 00:00:00"), at(951_782_400, false));
        assert_eq!(parse_time("1970-01-01T00:00:00"), at(0, false));
        assert_eq!(parse_time("1709296496"), at(1_709_296_496, true));
        for unknown in ["", "Unknown", "None"] {
            assert_eq!(parse_time(unknown), Ok(None));
        }
    }

    #[test]
    fn what_is_not_a_time() {
        for text in ["2024-03-01", "yesterday", "2024-03-01T12:34:56+1", "2024-03-01T12:3a:56", "2024/03/01T12:34:56"] {
            assert!(parse_time(text).expect_err(text).starts_with("is not a time"), "{text}");
        }
        assert_eq!(parse_time("2023-02-29T00:00:00"), Err("is not a date of the calendar"));
        assert_eq!(parse_time("2024-03-01T24:00:00"), Err("is not a time of day"));
    }
}
