//! Machines of nodes never panic, whatever the text: the slurm.conf
//! tokenizer, the machine reader, the `--nodes` description and host lists
//! give a machine or a message; a small machine they give replays a small
//! Slurm dump under FCFS and EASY with the run checker on.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab::engine::Control;
use schedlab::experiment::{self, PolicySpec};
use schedlab::workload::{expand_hostlist, parse_slurm_conf, read_swf, Machine, ReadOptions};

/// Jobs in partitions `batch` and `gpu` and in none, asking for nodes,
/// memory and GPUs.
const DUMP: &str = "JobIDRaw|Submit|Start|ElapsedRaw|TimelimitRaw|ReqCPUS|Partition|State|ReqTRES|ReqMem\n\
1|2024-03-01T10:00:00|2024-03-01T10:00:00|600|20|16|batch|COMPLETED|cpu=16,mem=16000M,node=2|\n\
2|2024-03-01T10:00:10|2024-03-01T10:00:10|300|10|4|gpu|COMPLETED|cpu=4,gres/gpu=2,mem=8G,node=1|\n\
3|2024-03-01T10:00:20|2024-03-01T10:00:20|100|5|2||COMPLETED||2000Mc\n\
4|2024-03-01T10:00:30|2024-03-01T10:00:30|60|2|1|batch|COMPLETED|cpu=1,node=1|\n";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = expand_hostlist(&text);
    let from_spec = Machine::from_spec(&text);
    let from_conf = parse_slurm_conf(&text).map(|c| Machine::from_slurm_conf(&c));
    for machine in [from_spec.ok(), from_conf.ok().and_then(Result::ok)].into_iter().flatten() {
        if machine.nodes() > 64 {
            continue;
        }
        let opts = ReadOptions { machine: Some(machine), ..ReadOptions::default() };
        let Ok(loaded) = read_swf(DUMP.as_bytes(), &opts) else { continue };
        for policy in ["fcfs", "easy"] {
            let settings = experiment::resolve(&PolicySpec::parse(policy).unwrap().request()).unwrap();
            experiment::run(&loaded.trace, &settings, &mut |_| Control::Continue).expect("a checked run");
        }
    }
});
