//! A site's own slurm.conf as parameters of the `slurm` policy
//! (`--slurm-conf FILE`): `SchedulerParameters`, `Priority*` and
//! `AccountingStorageEnforce` are read,
//! and every line or option that is not, or that Slurm itself would
//! ignore, is named with the reason, so nothing is dropped silently.

use schedlab_workload::{Machine, SlurmConf};

/// The policy's parameters a slurm.conf sets, and what it did not use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiteSettings {
    /// `KEY=VALUE` pairs under the policy's parameter names.
    pub params: Vec<(String, String)>,
    /// One note per line or option left out, with its line number.
    pub ignored: Vec<Ignored>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    pub line: usize,
    pub what: String,
    pub why: String,
}

/// `SchedulerParameters` options the policy reads, under their names
/// (`max_job_bf` is bf_max_job_test's old name, still read by 22.05).
const SCHEDULER_OPTIONS: &[(&str, &str)] = &[
    ("sched_interval", "sched_interval"),
    ("default_queue_depth", "default_queue_depth"),
    ("batch_sched_delay", "batch_sched_delay"),
    ("bf_interval", "bf_interval"),
    ("bf_resolution", "bf_resolution"),
    ("bf_window", "bf_window"),
    ("bf_max_job_test", "bf_max_job_test"),
    ("max_job_bf", "bf_max_job_test"),
    ("bf_max_job_user", "bf_max_job_user"),
    ("bf_min_age_reserve", "bf_min_age_reserve"),
];

const PRIORITY_KEYS: &[&str] = &[
    "PriorityType",
    "PriorityWeightAge",
    "PriorityWeightFairshare",
    "PriorityWeightJobSize",
    "PriorityWeightPartition",
    "PriorityWeightQOS",
    "PriorityMaxAge",
    "PriorityDecayHalfLife",
    "PriorityCalcPeriod",
    "PriorityUsageResetPeriod",
];

/// Reads the policy's settings from a tokenized slurm.conf. Its NodeName,
/// PartitionName and GresTypes lines make the machine when it has more
/// than one node; a machine of one node is not made (the trace's
/// processors are that node), and those lines are listed as ignored.
pub fn site_settings(conf: &SlurmConf) -> SiteSettings {
    let mut out = SiteSettings::default();
    let mut dbd = false;
    let nodes = Machine::from_slurm_conf(conf).map_or(0, |m| m.nodes());
    for include in &conf.includes {
        out.ignore(
            include.line,
            format!("Include {}", include.file),
            "an included file is not opened; paste its lines",
        );
    }
    for line in &conf.lines {
        let (key, value) = (line.key(), line.value());
        if line.is("SchedulerParameters") {
            scheduler_parameters(&mut out, line.line, value);
        } else if let Some(&name) = PRIORITY_KEYS.iter().find(|k| line.is(k)) {
            let value = match name {
                "PriorityType" => value.to_ascii_lowercase(),
                "PriorityUsageResetPeriod" => value.to_ascii_uppercase(),
                _ => value.to_owned(),
            };
            out.params.push((name.to_owned(), value));
        } else if line.is("PriorityFavorSmall") {
            favor_small(&mut out, line.line, value);
        } else if line.is("PriorityFlags") {
            priority_flags(&mut out, line.line, value);
        } else if line.is("AccountingStorageEnforce") {
            out.params.push(("AccountingStorageEnforce".into(), value.to_owned()));
        } else if line.is("AccountingStorageType") {
            dbd = value.eq_ignore_ascii_case("accounting_storage/slurmdbd");
            out.ignore(line.line, format!("{key}={value}"), "read only to know whether SlurmDBD is used");
        } else if line.is("SchedulerType") && !value.eq_ignore_ascii_case("sched/backfill") {
            out.ignore(line.line, format!("{key}={value}"), "only sched/backfill is modelled; the policy backfills");
        } else if line.is("NodeName") || line.is("PartitionName") || line.is("GresTypes") {
            if nodes <= 1 {
                out.ignore(
                    line.line,
                    format!("{key}={value}"),
                    "a machine of one node: the policy runs on the trace's processors, as one node of them",
                );
            }
        } else {
            out.ignore(line.line, format!("{key}={value}"), "no setting of the scheduling policy");
        }
    }
    if !dbd {
        without_dbd(&mut out);
    }
    out
}

impl SiteSettings {
    fn ignore(&mut self, line: usize, what: String, why: &str) {
        self.ignored.push(Ignored { line, what, why: why.to_owned() });
    }
}

fn scheduler_parameters(out: &mut SiteSettings, line: usize, value: &str) {
    for option in value.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        let (name, v) = option.split_once('=').unwrap_or((option, ""));
        match SCHEDULER_OPTIONS.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some(&(_, param)) => out.params.push((param.to_owned(), v.to_owned())),
            None if name.eq_ignore_ascii_case("bf_continue") => out.ignore(
                line,
                option.to_owned(),
                "no effect here: a simulated cycle takes no time, so it never yields its locks",
            ),
            None => out.ignore(line, option.to_owned(), "a SchedulerParameters option the policy does not model"),
        }
    }
}

/// `s_p_get_boolean`: yes, true, 1 and up, no, false, 0 (any case).
fn favor_small(out: &mut SiteSettings, line: usize, value: &str) {
    let v = value.to_ascii_lowercase();
    match v.as_str() {
        "yes" | "true" | "1" | "up" => out.params.push(("PriorityFavorSmall".into(), "YES".into())),
        "no" | "false" | "0" | "down" => out.params.push(("PriorityFavorSmall".into(), "NO".into())),
        _ => out.ignore(line, format!("PriorityFavorSmall={value}"), "not a yes/no value; Slurm reads it as NO"),
    }
}

fn priority_flags(out: &mut SiteSettings, line: usize, value: &str) {
    let mut kept = Vec::new();
    for flag in value.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        if super::conf::flags(flag).is_ok() {
            kept.push(flag);
        } else {
            out.ignore(line, format!("PriorityFlags {flag}"), "a priority flag the policy does not model");
        }
    }
    out.params.push(("PriorityFlags".into(), kept.join(",")));
}

/// Without SlurmDBD, priority/multifactor drops the age and fair-share
/// weights ("PriorityWeightAge can only be used with SlurmDBD, ignoring",
/// `init` in priority_multifactor.c); the policy does the same.
fn without_dbd(out: &mut SiteSettings) {
    for name in ["PriorityWeightAge", "PriorityWeightFairshare"] {
        if let Some(i) = out.params.iter().position(|(k, v)| k == name && v != "0") {
            out.params[i].1 = "0".into();
            out.ignore(
                0,
                name.to_owned(),
                "set to 0 as Slurm does without AccountingStorageType=accounting_storage/slurmdbd",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_workload::parse_slurm_conf;

    fn settings(text: &str) -> SiteSettings {
        site_settings(&parse_slurm_conf(text).unwrap())
    }

    #[test]
    fn scheduler_and_priority_lines_become_parameters() {
        let s = settings(
            "SchedulerType=sched/backfill\nSchedulerParameters=bf_window=2880,bf_continue,max_job_bf=100,kill_invalid_depend\n\
             PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityFavorSmall=yes\n\
             PriorityFlags=NO_FAIR_TREE,MAX_TRES\nAccountingStorageType=accounting_storage/slurmdbd\n\
             AccountingStorageEnforce=associations,limits\nNodeName=n1 CPUs=8\n",
        );
        let p = |k: &str| s.params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(p("bf_window"), Some("2880"));
        assert_eq!(p("bf_max_job_test"), Some("100"));
        assert_eq!(p("PriorityType"), Some("priority/multifactor"));
        assert_eq!(p("PriorityWeightAge"), Some("1000"));
        assert_eq!(p("PriorityFavorSmall"), Some("YES"));
        assert_eq!(p("PriorityFlags"), Some("NO_FAIR_TREE"));
        assert_eq!(p("AccountingStorageEnforce"), Some("associations,limits"));
        let ignored: Vec<&str> = s.ignored.iter().map(|i| i.what.as_str()).collect();
        assert!(ignored.contains(&"bf_continue"), "{ignored:?}");
        assert!(ignored.contains(&"kill_invalid_depend"), "{ignored:?}");
        assert!(ignored.contains(&"PriorityFlags MAX_TRES"), "{ignored:?}");
        assert!(ignored.iter().any(|w| w.starts_with("NodeName")), "{ignored:?}");
        assert!(s.ignored.iter().all(|i| i.line > 0), "each note names its line");
    }

    /// Four nodes make the machine, so their lines are read, not ignored;
    /// one node is the trace's processors, and its lines are ignored.
    #[test]
    fn node_lines_are_ignored_only_for_one_node() {
        let four = settings("NodeName=n[1-4] CPUs=8\nPartitionName=p Nodes=n[1-4] Default=YES\n");
        assert!(four.ignored.is_empty(), "{:?}", four.ignored);
        let one = settings("NodeName=n1 CPUs=8\nPartitionName=p Nodes=n1 Default=YES\n");
        let lines: Vec<usize> = one.ignored.iter().map(|i| i.line).collect();
        assert_eq!(lines, [1, 2], "{:?}", one.ignored);
    }

    #[test]
    fn without_slurmdbd_age_and_fairshare_weights_drop_to_zero() {
        let s = settings("PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityWeightJobSize=5\n");
        assert!(s.params.contains(&("PriorityWeightAge".into(), "0".into())));
        assert!(s.params.contains(&("PriorityWeightJobSize".into(), "5".into())));
        assert!(s.ignored.iter().any(|i| i.what == "PriorityWeightAge"));
    }
}
