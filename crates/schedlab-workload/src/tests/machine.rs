//! Machines of nodes: the `--nodes` description, the slurm.conf subset,
//! and the requests and refusals of jobs read for one.

use crate::*;

#[test]
fn a_spec_gives_node_types_and_partitions() {
    let m = Machine::from_spec("batch:128x(cores=64,mem=256G) + gpu:8x(cpu=32,mem=512G,gpu=4)").unwrap();
    assert_eq!(m.resources, ["cpu", "mem", "gpu"]);
    assert_eq!(
        m.node_types,
        [
            NodeType { capacity: vec![64, 256 * 1024, 0], count: 128 },
            NodeType { capacity: vec![32, 512 * 1024, 4], count: 8 },
        ]
    );
    assert_eq!(
        m.partitions.iter().map(|p| (p.name.as_str(), p.nodes.len())).collect::<Vec<_>>(),
        [("batch", 128), ("gpu", 8)]
    );
    assert_eq!(m.partitions[1].nodes[0], 128);
    assert_eq!((m.total(0), m.total(2)), (128 * 64 + 8 * 32, 32));
    let one = Machine::from_spec("4x(cpu=8)").unwrap();
    assert_eq!((one.partitions.len(), one.partitions[0].name.as_str(), one.nodes()), (1, "all", 4));
}

#[test]
fn bad_specs_say_what_is_wrong() {
    for (spec, message) in [
        ("128(cpu=4)", "`128(cpu=4)` is not COUNTx(resource=amount,…), e.g. 128x(cpu=64,mem=256G,gpu=4)"),
        ("0x(cpu=4)", "`0x(cpu=4)` is not COUNTx(resource=amount,…), e.g. 128x(cpu=64,mem=256G,gpu=4)"),
        ("2x(mem=4G)", "`2x(mem=4G)`: a node needs at least one cpu"),
        ("2x(cpu=4,mem=lots)", "`2x(cpu=4,mem=lots)`: mem `lots` is not a whole number of MiB (or K, M, G, T)"),
        ("2x(cpu=4,gpu)", "`gpu` in `2x(cpu=4,gpu)` is not resource=amount"),
        ("a:2x(cpu=4)+2x(cpu=8)", "`a:2x(cpu=4)+2x(cpu=8)` names some groups' partitions but not all"),
        ("2x(cpu=2147483648)", "the machine has more than 2147483648 cores (2^31)"),
    ] {
        assert_eq!(Machine::from_spec(spec).unwrap_err(), message, "{spec}");
    }
}

const CONF: &str = include_str!("../../../../tests/fixtures/slurm/cluster.conf");

#[test]
fn a_slurm_conf_gives_the_machine_and_lists_what_it_ignored() {
    let conf = parse_slurm_conf(CONF).unwrap();
    let m = Machine::from_slurm_conf(&conf).unwrap();
    assert_eq!(m.resources, ["cpu", "mem", "gpu"]);
    assert_eq!(
        m.node_types,
        [NodeType { capacity: vec![8, 32000, 0], count: 2 }, NodeType { capacity: vec![16, 64000, 4], count: 1 }]
    );
    let batch = &m.partitions[0];
    assert_eq!((batch.name.as_str(), batch.nodes.as_slice(), batch.max_time), ("batch", &[0, 1][..], Some(3600)));
    let gpu = &m.partitions[1];
    assert_eq!((gpu.nodes.as_slice(), gpu.max_time, gpu.priority_tier), (&[2][..], Some(7200), 2));
    assert_eq!(m.default_partition, 0);
    let ignored: Vec<&str> = conf.lines_except(MACHINE_KEYS).map(|l| l.key()).collect();
    assert_eq!(ignored, ["ClusterName", "SlurmctldHost", "SelectType", "SchedulerParameters"]);
}

#[test]
fn slurm_conf_nodes_from_sockets_defaults_and_all() {
    let conf = "NodeName=DEFAULT Sockets=2 CoresPerSocket=4 ThreadsPerCore=2\nNodeName=n[01-03]\n\
                PartitionName=DEFAULT MaxTime=1-00:00:00\nPartitionName=all Nodes=ALL OverSubscribe=EXCLUSIVE\n";
    let m = Machine::from_slurm_conf(&parse_slurm_conf(conf).unwrap()).unwrap();
    assert_eq!((m.resources.len(), m.node_types[0].capacity[0], m.nodes()), (1, 16, 3));
    assert_eq!((m.partitions[0].max_time, m.partitions[0].exclusive), (Some(86_400), true));
}

#[test]
fn bad_slurm_confs_name_their_line() {
    let cases = [
        ("PartitionName=p Nodes=x\n", "slurm.conf has no NodeName line, so no machine"),
        (
            "NodeName=a CPUs=4\nPartitionName=p Nodes=b\n",
            "slurm.conf line 2: node `b` of partition `p` has no NodeName line",
        ),
        ("NodeName=a CPUs=four\n", "slurm.conf line 1: CPUs `four` is not a whole number"),
        ("NodeName=a[2-1] CPUs=4\n", "slurm.conf line 1: `a[2-1]`: the range `2-1` runs backwards"),
        (
            "NodeName=a CPUs=4\nPartitionName=p Nodes=a MaxTime=soon\n",
            "slurm.conf line 2: MaxTime `soon` is not minutes, [D-]HH:MM:SS or UNLIMITED",
        ),
        (
            "NodeName=a CPUs=4 Gres=gpu:a:b:c\n",
            "slurm.conf line 1: Gres `gpu:a:b:c` is not name:count or name:type:count",
        ),
    ];
    for (text, message) in cases {
        let conf = parse_slurm_conf(text).unwrap();
        assert_eq!(Machine::from_slurm_conf(&conf).unwrap_err(), message, "{text}");
    }
}

#[test]
fn swf_jobs_ask_for_cores_and_their_memory_per_core() {
    // Field 10, requested memory, is KB per processor: 2 GiB here.
    let text = "; MaxProcs: 8\n1 0 0 10 4 -1 -1 4 100 2097152 1 1 1 -1 1 -1 -1 -1\n2 5 0 10 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n";
    let opts =
        ReadOptions { machine: Some(Machine::from_spec("2x(cpu=4,mem=16G)").unwrap()), ..ReadOptions::default() };
    let l = read_swf(text.as_bytes(), &opts).unwrap();
    let c = l.trace.cluster.as_ref().unwrap();
    assert_eq!(l.trace.procs, 8);
    assert_eq!(
        c.request(0),
        &Request { partition: 0, spread: Spread::Tasks, count: 4, each: vec![1, 2048], exclusive: false }
    );
    assert_eq!(c.request(1).each, [1, 0]);
    assert_eq!(l.report.machine, Some(MachineReport { no_fit: vec![], requests: 2 }));
}

#[test]
fn processor_traces_keep_every_field_without_a_machine() {
    let text = "; MaxProcs: 8\n1 0 0 10 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n";
    let l = read_swf(text.as_bytes(), &ReadOptions::default()).unwrap();
    assert!(l.trace.cluster.is_none() && l.report.machine.is_none());
    let json = serde_json::to_string(&l.report).unwrap();
    assert!(!json.contains("machine"), "{json}");
}
