//! `--nodes` and `--slurm-conf`: a run on a machine of nodes prints its
//! resources and partitions, says which slurm.conf lines it ignored, and
//! bad machines or processor-only policies are one-line errors.

use super::*;

#[test]
fn a_slurm_conf_machine_runs_the_tres_fixture() {
    let dump = fixture("slurm/sacct-tres.txt");
    let conf = fixture("slurm/cluster.conf");
    let o = schedlab(&["run", &dump, "--slurm-conf", &conf, "--policy", "easy"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("no_fit 2"), "{out}");
    assert!(out.contains("resources       utilization cpu "), "{out}");
    assert!(out.contains("partition       gpu: 4 jobs"), "{out}");
    let err = stderr(&o);
    assert_eq!(err.matches("ignored").count(), 1, "said once: {err}");
    assert!(
        err.contains("ignored 4 line(s): ClusterName (line 3), SlurmctldHost (line 4), SelectType (line 5), SchedulerParameters (line 12)"),
        "{err}"
    );
    let doc = json(&["run", &dump, "--slurm-conf", &conf, "--policy", "easy", "--json"]);
    assert_eq!(doc["metrics"]["machine"]["resources"][2]["resource"], "gpu");
}

#[test]
fn bad_machines_and_processor_policies_are_refused_in_a_line() {
    let dump = fixture("slurm/sacct-tres.txt");
    let conf = fixture("slurm/cluster.conf");
    let cases: [(&[&str], &str); 3] = [
        (
            &["--nodes", "4x(cpu=0)", "--policy", "easy"],
            "--nodes `4x(cpu=0)`: `4x(cpu=0)`: a node needs at least one cpu",
        ),
        (&["--slurm-conf", &conf, "--policy", "cbf"], "policy `cbf` refuses a machine of nodes"),
        (&["--slurm-conf", "/nonexistent/slurm.conf", "--policy", "easy"], "--slurm-conf /nonexistent/slurm.conf"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["run", dump.as_str()];
        args.extend_from_slice(flags);
        let o = schedlab(&args);
        assert!(!o.status.success(), "{args:?}");
        // The error is the last line (a slurm.conf's ignored lines come first).
        let err = stderr(&o);
        let last = err.trim_end().lines().last().unwrap_or("");
        assert!(last.contains(message), "{args:?}: {err}");
    }
}
