//! The other input formats replay as the SWF they were converted from, and
//! a run written as Batsim's jobs.csv holds the hand-computed schedule.

use schedlab::experiment::write_jobs_csv;
use schedlab::schedule::{write_batsim_jobs, Layout};
use schedlab::workload::{read_swf, Loaded, ReadOptions, Trace, TraceFormat};

use crate::support::run;

fn fixture(name: &str, opts: &ReadOptions) -> Loaded {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_swf(file, opts).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The per-job CSV and the Batsim jobs.csv of a run of `spec`.
fn schedule(trace: &Trace, spec: &str) -> (String, String) {
    let out = run(trace, spec);
    let mut jobs = Vec::new();
    write_jobs_csv(&mut jobs, trace, &out.record, 10).expect("in memory");
    let layout = Layout::new(&trace.jobs, None, &out.record).expect("checked run");
    let mut batsim = Vec::new();
    write_batsim_jobs(&mut batsim, &trace.jobs, &out.record, &layout).expect("in memory");
    (String::from_utf8(jobs).expect("utf-8"), String::from_utf8(batsim).expect("utf-8"))
}

const POLICIES: [&str; 5] = ["fcfs", "easy", "easy:order=shortest", "cbf", "easy@last"];

#[test]
fn a_sacct_dump_gives_the_schedule_of_its_hand_converted_swf() {
    let opts = ReadOptions { machine_size: Some(16), ..ReadOptions::default() };
    let dump = fixture("slurm/sacct-rules.txt", &opts);
    let swf = fixture("slurm/sacct-rules.swf", &opts);
    assert_eq!(dump.format, TraceFormat::Sacct);
    for spec in POLICIES {
        assert_eq!(schedule(&dump.trace, spec), schedule(&swf.trace, spec), "{spec}");
    }
}

#[test]
fn batsim_workloads_give_the_schedule_of_their_swf() {
    let swf = fixture("batsim/source.swf", &ReadOptions::default());
    for name in ["batsim/workload-v4.json", "batsim/workload-v5.json"] {
        let workload = fixture(name, &ReadOptions::default());
        assert_eq!(workload.format, TraceFormat::Batsim);
        for spec in POLICIES {
            assert_eq!(schedule(&workload.trace, spec), schedule(&swf.trace, spec), "{name} {spec}");
        }
    }
}

/// EASY on 8 processors, by hand: job 1 (4 procs) starts at 0 and ends at
/// 100; job 2 (8) is blocked with a reservation at 200 (job 1's estimate);
/// jobs 3 (2, est. 60) at 15 and 5 (2, est. 40) at 25 end before it and
/// backfill; job 4 (4) does not fit. Job 2 starts at 100 when job 1 ends,
/// job 4 at 150 after it, job 6 (6) at 400 when job 4 ends. Processors by
/// best fit from the lowest index: job 3 takes 4-5 beside job 1, job 5
/// takes 6-7. Job 4 asked for no time (250 s filled in) and job 5 for its
/// run time: both ran until their request, which Batsim calls walltime
/// reached. Stretch = turnaround / execution.
#[test]
fn batsim_jobs_csv_of_a_hand_computed_easy_schedule() {
    let swf = fixture("batsim/source.swf", &ReadOptions::default());
    let want = "\
job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata
1,w0,100,0.000000,4,200.000000,1,COMPLETED_SUCCESSFULLY,0.000000,100.000000,100.000000,0.000000,100.000000,1.000000,0-3,-1.000000,
2,w0,50,10.000000,8,100.000000,1,COMPLETED_SUCCESSFULLY,100.000000,50.000000,150.000000,90.000000,140.000000,2.800000,0-7,-1.000000,
3,w0,30,15.000000,2,60.000000,1,COMPLETED_SUCCESSFULLY,15.000000,30.000000,45.000000,0.000000,30.000000,1.000000,4-5,-1.000000,
4,w0,250,20.000000,4,250.000000,0,COMPLETED_WALLTIME_REACHED,150.000000,250.000000,400.000000,130.000000,380.000000,1.520000,0-3,-1.000000,
5,w0,40,25.000000,2,40.000000,0,COMPLETED_WALLTIME_REACHED,25.000000,40.000000,65.000000,0.000000,40.000000,1.000000,6-7,-1.000000,
6,w0,10,30.000000,6,20.000000,1,COMPLETED_SUCCESSFULLY,400.000000,10.000000,410.000000,370.000000,380.000000,38.000000,0-5,-1.000000,
";
    assert_eq!(schedule(&swf.trace, "easy").1, want);
}
