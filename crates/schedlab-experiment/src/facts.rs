//! A trace's statistics and cleaning counts as people read them: the
//! labels, the units and the numbers' forms, made once here for the page
//! and the Python package, so neither formats a figure of its own.

use schedlab_workload::{duration_text, Effect, Header, CLEANING_RULES};
use serde::Serialize;

use crate::TraceIdentity;

/// One line of a trace's statistics: "Span", "4 h 54 min".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fact {
    pub label: String,
    pub value: String,
}

/// One cleaning count that is not zero: "skipped: blank lines: 1 line",
/// with the rule's key and the sentence saying why the rule exists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CleaningLine {
    pub key: String,
    pub text: String,
    pub meaning: String,
}

/// A whole number with its thousands grouped: "28,489".
pub fn count_text(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and its noun, singular for one: "1 line", "3,000 jobs".
pub fn counted(n: u64, singular: &str, plural: &str) -> String {
    format!("{} {}", count_text(n), if n == 1 { singular } else { plural })
}

/// A fraction as a percentage with one decimal: "67.3 %"; "–" when unknown.
fn percent(x: Option<f64>) -> String {
    x.filter(|x| x.is_finite()).map_or_else(|| "–".to_owned(), |x| format!("{:.1} %", x * 100.0))
}

/// "67.3 % (simulated: 64.1 %)" where cleaning changed a figure.
fn also(recorded: String, simulated: String) -> String {
    if recorded == simulated {
        recorded
    } else {
        format!("{recorded} (simulated: {simulated})")
    }
}

/// The statistics of a trace read as `identity` (its header, when there is
/// one, adds the computer and the installation).
pub fn trace_facts(identity: &TraceIdentity, header: Option<&Header>) -> Vec<Fact> {
    let st = &identity.stats;
    let (rec, sim) = (&st.recorded, &st.simulated.figures);
    let fact = |label: &str, value: String| Fact { label: label.to_owned(), value };
    let mut out = vec![
        fact("Trace", identity.name.clone()),
        fact("SHA-256", identity.sha256.clone()),
        fact("Jobs", count_text(identity.jobs as u64)),
        fact("Processors", count_text(u64::from(identity.procs))),
        fact("Span", duration_text(rec.duration as f64)),
        fact("Offered load", also(percent(rec.offered_load), percent(sim.offered_load))),
        fact("Mean parallelism", format!("{:.2}", rec.mean_parallelism)),
        fact("Mean runtime", also(duration_text(rec.mean_runtime), duration_text(sim.mean_runtime))),
        fact(
            "Estimate accuracy",
            also(percent(Some(rec.mean_estimate_accuracy)), percent(Some(sim.mean_estimate_accuracy))),
        ),
        fact("Users", count_text(st.users)),
        fact("Queues", count_text(st.queues)),
    ];
    if let Some(h) = header {
        out.extend(h.computer.clone().map(|c| fact("Computer", c)));
        out.extend(h.installation.clone().map(|i| fact("Installation", i)));
    }
    out
}

/// The cleaning rules that counted something for `identity`, in the order
/// they apply.
pub fn cleaning_lines(identity: &TraceIdentity) -> Vec<CleaningLine> {
    CLEANING_RULES
        .iter()
        .filter_map(|r| {
            let n = *identity.cleaning.get(r.key).filter(|n| **n > 0)?;
            let (one, many) = if r.effect == Effect::Skipped { ("line", "lines") } else { ("job", "jobs") };
            Some(CleaningLine {
                key: r.key.to_owned(),
                text: format!("{}: {}: {}", r.effect.word(), r.label, counted(n, one, many)),
                meaning: r.meaning.to_owned(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_and_a_single_one_is_singular() {
        assert_eq!(count_text(0), "0");
        assert_eq!(count_text(999), "999");
        assert_eq!(count_text(28_489), "28,489");
        assert_eq!(count_text(1_000_000), "1,000,000");
        assert_eq!(counted(1, "line", "lines"), "1 line");
        assert_eq!(counted(3000, "job", "jobs"), "3,000 jobs");
    }

    /// A three-hour dump spans "3 h", not "0.0 days"; a mean runtime of
    /// 17,640 s reads "4 h 54 min"; one blank line is "1 line".
    #[test]
    fn facts_use_durations_and_counts() {
        let swf = "; MaxProcs: 4\n\n1 0 0 17640 2 -1 -1 2 20000 -1 1 1 1 -1 1 -1 -1 -1\n2 10800 0 17640 2 -1 -1 2 20000 -1 1 1 1 -1 1 -1 -1 -1\n";
        let options = schedlab_workload::ReadOptions::default();
        let loaded = schedlab_workload::read_swf(swf.as_bytes(), &options).unwrap();
        let identity = TraceIdentity::new("dump.swf".into(), &loaded, &options);
        let facts = trace_facts(&identity, Some(&loaded.header));
        let get = |l: &str| facts.iter().find(|f| f.label == l).map(|f| f.value.clone()).unwrap();
        assert_eq!(get("Span"), "3 h");
        assert_eq!(get("Mean runtime"), "4 h 54 min");
        assert_eq!(get("Jobs"), "2");
        let lines = cleaning_lines(&identity);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(lines[0].text, "skipped: blank lines: 1 line");
    }
}
