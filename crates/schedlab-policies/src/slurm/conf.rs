//! The values of Slurm's own settings as the policy reads them: time
//! strings (`7-0`, `5`, `1:30:00`), `PriorityFlags`, and the checks that
//! give a pasted value a clear message before a run.

/// Seconds in a Slurm time string, as `time_str2secs`
/// (src/common/parse_time.c) reads it: `days-hours[:minutes[:seconds]]`,
/// `hours:minutes:seconds` or `minutes[:seconds]`. `INFINITE`,
/// `UNLIMITED` and `-1` are refused: no setting the policy reads takes
/// them.
pub(crate) fn time_secs(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let bad = || {
        format!("`{text}` is no Slurm time (minutes, minutes:seconds, hours:minutes:seconds or days-hours[:minutes[:seconds]])")
    };
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || c == ':' || c == '-') {
        return Err(bad());
    }
    let number = |s: &str| -> Result<i64, String> {
        if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse::<i64>().map_err(|_| bad())
    };
    let (days, rest) = match t.split_once('-') {
        Some((d, rest)) => (Some(number(d)?), rest),
        None => (None, t),
    };
    let parts: Vec<&str> = if rest.is_empty() && days.is_some() { vec![] } else { rest.split(':').collect() };
    if parts.len() > 3 {
        return Err(bad());
    }
    let values = parts.iter().map(|p| number(p)).collect::<Result<Vec<_>, _>>()?;
    let secs = match (days, values.as_slice()) {
        (Some(d), v) => {
            let [h, m, s] = [v.first(), v.get(1), v.get(2)].map(|x| x.copied().unwrap_or(0));
            d * 86_400 + h * 3600 + m * 60 + s
        }
        (None, [h, m, s]) => h * 3600 + m * 60 + s,
        (None, [m, s]) => m * 60 + s,
        (None, [m]) => m * 60,
        _ => return Err(bad()),
    };
    Ok(secs)
}

/// Whole minutes of a Slurm time string, rounded up, as `time_str2mins`
/// does; `PriorityDecayHalfLife`, `PriorityMaxAge` and
/// `PriorityCalcPeriod` are read this way (`_validate_and_set_defaults`
/// in src/common/read_config.c) and then kept as minutes × 60.
pub(crate) fn time_mins(text: &str) -> Result<i64, String> {
    time_secs(text).map(|s| (s + 59) / 60)
}

/// `PriorityCalcPeriod` in whole minutes, at least one (read_config.c).
pub(crate) fn calc_period_mins(text: &str) -> Result<i64, String> {
    match time_mins(text)? {
        m if m >= 1 => Ok(m),
        _ => Err(format!("PriorityCalcPeriod `{text}` is less than a minute; Slurm refuses it")),
    }
}

/// The `PriorityFlags` the policy models.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Flags {
    /// `NO_FAIR_TREE`: the classic fair-share formula instead of Fair Tree.
    pub(crate) classic: bool,
    /// `SMALL_RELATIVE_TO_TIME`: the size factor divided by the time limit.
    pub(crate) size_relative: bool,
}

/// Reads a comma-separated `PriorityFlags` value. Flags that change
/// something this model has no notion of are refused by name, so that a
/// pasted line never silently means less than it says.
pub(crate) fn flags(text: &str) -> Result<Flags, String> {
    let mut f = Flags::default();
    for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match word.to_ascii_uppercase().as_str() {
            "NO_FAIR_TREE" => f.classic = true,
            "SMALL_RELATIVE_TO_TIME" => f.size_relative = true,
            // Fair Tree is the default since Slurm 19.05; the flag is accepted.
            "FAIR_TREE" => {}
            other => {
                return Err(format!(
                    "PriorityFlags `{other}` is not modelled (known: NO_FAIR_TREE, SMALL_RELATIVE_TO_TIME, FAIR_TREE)"
                ))
            }
        }
    }
    Ok(f)
}

/// Whether an `AccountingStorageEnforce` value enforces limits, read as
/// `_validate_accounting_storage_enforce` (src/common/read_config.c)
/// reads it: `limits` (or `2`), `safe` and `all` set the limits bit;
/// `associations` (or `1`), `qos`, `wckeys`, `nojobs` and `nosteps` do
/// not. It matters to fair-share because priority/multifactor charges a
/// job's usage since the decay thread's last run when the job ends
/// (`priority_p_job_end`), and slurmctld calls that only from
/// `_adjust_limit_usage` (src/slurmctld/acct_policy.c), which returns
/// first unless limits are enforced.
pub(crate) fn enforces_limits(text: &str) -> Result<bool, String> {
    let mut limits = false;
    for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match word.to_ascii_lowercase().as_str() {
            "limits" | "2" | "safe" | "all" => limits = true,
            "associations" | "1" | "qos" | "wckeys" | "nojobs" | "nosteps" => {}
            other => {
                return Err(format!(
                    "AccountingStorageEnforce `{other}` is not one of associations, limits, qos, safe, wckeys, all, nojobs, nosteps"
                ))
            }
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_strings_read_as_slurm_reads_them() {
        assert_eq!(time_secs("5"), Ok(300));
        assert_eq!(time_secs("5:30"), Ok(330));
        assert_eq!(time_secs("1:00:01"), Ok(3601));
        assert_eq!(time_secs("7-0"), Ok(7 * 86_400));
        assert_eq!(time_secs("1-2:03:04"), Ok(86_400 + 7200 + 180 + 4));
        assert_eq!(time_secs("0-0:10"), Ok(600));
        assert_eq!(time_mins("0:01"), Ok(1), "seconds round up to a minute");
        assert_eq!(time_mins("0"), Ok(0));
        for bad in ["", "x", "1:2:3:4", "-", "1--2", "UNLIMITED", "9999999999"] {
            assert!(time_secs(bad).is_err(), "{bad}");
        }
        assert!(calc_period_mins("0").is_err());
        assert_eq!(calc_period_mins("1"), Ok(1));
    }

    #[test]
    fn only_limits_safe_and_all_enforce_limits() {
        assert_eq!(enforces_limits(""), Ok(false), "Slurm's default enforces nothing");
        assert_eq!(enforces_limits("associations"), Ok(false));
        assert_eq!(enforces_limits("associations,qos,wckeys,nojobs"), Ok(false));
        assert_eq!(enforces_limits("1"), Ok(false));
        for yes in ["limits", "2", "safe", "all", "associations, LIMITS"] {
            assert_eq!(enforces_limits(yes), Ok(true), "{yes}");
        }
        let e = enforces_limits("associations,limit").unwrap_err();
        assert!(e.contains("`limit`"), "{e}");
    }

    #[test]
    fn flags_refuse_what_is_not_modelled_by_name() {
        assert_eq!(flags(""), Ok(Flags::default()));
        assert_eq!(flags("NO_FAIR_TREE, small_relative_to_time"), Ok(Flags { classic: true, size_relative: true }));
        let e = flags("NO_FAIR_TREE,MAX_TRES").unwrap_err();
        assert!(e.contains("MAX_TRES"), "{e}");
    }
}
