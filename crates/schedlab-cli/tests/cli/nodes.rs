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

/// The `slurm` policy alone takes the machine from a slurm.conf of several
/// nodes (the node lines are not ignored), and runs on it, checked node by
/// node; a file of one node is the trace's processors, as without it.
#[test]
fn the_slurm_policy_runs_on_a_slurm_conf_machine() {
    let dump = fixture("slurm/sacct-tres.txt");
    let conf = fixture("slurm/cluster.conf");
    let o = schedlab(&["run", &dump, "--slurm-conf", &conf, "--policy", "slurm"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("partition       gpu: 4 jobs"), "{out}");
    let err = stderr(&o);
    assert!(!err.contains("NodeName") && !err.contains("PartitionName"), "{err}");
    let one = std::env::temp_dir().join(format!("schedlab-one-node-{}.conf", std::process::id()));
    std::fs::write(&one, "NodeName=n1 CPUs=100\nPartitionName=all Nodes=n1 Default=YES\n").unwrap();
    let with_file = json(&[
        "run",
        &sample(),
        "--first",
        "300",
        "--policy",
        "slurm",
        "--slurm-conf",
        one.to_str().unwrap(),
        "--json",
    ]);
    let without = json(&["run", &sample(), "--first", "300", "--policy", "slurm", "--json"]);
    std::fs::remove_file(&one).ok();
    assert!(with_file["trace"]["machine"].is_null(), "one node makes no machine");
    for figure in ["mean_wait", "max_wait", "mbs", "utilization"] {
        assert!(without["metrics"][figure].is_number(), "{figure}");
        assert_eq!(with_file["metrics"][figure], without["metrics"][figure], "{figure}");
    }
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
        (&["--slurm-conf", &conf, "--policy", "dbf"], "policy `dbf` refuses a machine of nodes"),
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

/// Two jobs on `a:2x(cpu=4,mem=8G)+b:1x(cpu=8,gpu=2)`, written to a file
/// (`ReqCPUS`, the job's cores, equal to its ReqTRES `cpu=`).
fn two_job_dump(dir: &std::path::Path) -> String {
    let path = dir.join("two.txt");
    let text = "JobIDRaw|Submit|Start|ElapsedRaw|TimelimitRaw|ReqCPUS|User|Partition|State|ReqTRES\n\
                1|2024-03-01T10:00:00|2024-03-01T10:00:00|100|10|4|u|a|COMPLETED|cpu=4,mem=4G,node=2\n\
                2|2024-03-01T10:00:10|2024-03-01T10:00:10|100|10|4|u|b|COMPLETED|cpu=4,node=1,gres/gpu=2\n";
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The result document describes the machine by hand-countable totals: 16
/// cores (4 + 4 + 8), 16,384 MiB (8 GiB on each `a` node; `b` has none),
/// 2 GPUs; `a` is nodes 0–1 with 8 cores, `b` node 2 with 8. On
/// processors the key is absent.
#[test]
fn the_result_document_describes_the_machine_of_nodes() {
    let dir = temp_dir("machine-doc");
    let dump = two_job_dump(&dir);
    let doc = json(&["run", &dump, "--nodes", "a:2x(cpu=4,mem=8G)+b:1x(cpu=8,gpu=2)", "--policy", "fcfs", "--json"]);
    let m = &doc["trace"]["machine"];
    assert_eq!(m["nodes"], 3);
    let totals: Vec<(String, Value, u64)> = m["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap().to_owned(), r["unit"].clone(), r["total"].as_u64().unwrap()))
        .collect();
    let want = [("cpu", Value::from("cores"), 16), ("mem", Value::from("MiB"), 16384), ("gpu", Value::Null, 2)];
    assert_eq!(totals, want.map(|(n, u, t)| (n.to_owned(), u, t)));
    assert_eq!(m["partitions"][0]["node_ranges"], "0-1");
    assert_eq!(m["partitions"][0]["cores"], 8);
    assert_eq!(m["partitions"][1]["node_ranges"], "2");
    assert_eq!(m["node_types"][1]["first"], 2);
    assert_eq!(m["node_types"][1]["capacity"], serde_json::json!([8, 0, 2]));
    assert_eq!(m["default_partition"], "a");
    let on_processors = json(&["run", &dump, "--policy", "fcfs", "--json"]);
    assert!(on_processors["trace"].get("machine").is_none(), "{}", on_processors["trace"]);
}

/// `--jobs-csv` on nodes ends each row with what the job held: job 1 two
/// nodes of 2 cores and 2,048 MiB each, job 2 one node, 4 cores, 2 GPUs.
/// `--gantt` draws the Gantt by node: one line between each two nodes.
#[test]
fn the_jobs_table_and_the_gantt_show_the_nodes() {
    let dir = temp_dir("machine-views");
    let dump = two_job_dump(&dir);
    let (csv, svg) = (dir.join("jobs.csv"), dir.join("gantt.svg"));
    let nodes = "a:2x(cpu=4,mem=8G)+b:1x(cpu=8,gpu=2)";
    let args = ["run", &dump, "--nodes", nodes, "--policy", "fcfs", "--jobs-csv", csv.to_str().unwrap()];
    let o = schedlab(&[&args[..], &["--gantt", svg.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let table = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].ends_with(",reservation,partition,nodes,cpu,mem,gpu"), "{}", lines[0]);
    assert!(lines[1].ends_with(",a,2,4,4096,0"), "{}", lines[1]);
    assert!(lines[2].ends_with(",b,1,4,0,2"), "{}", lines[2]);
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert!(drawing.contains("cores, node after node"), "the axis says the rows are cores by node");
}
