//! Fuzzes the Batsim reader: any bytes after a `{` (or a `[`) must give a
//! trace or an error, never a panic; a trace keeps the job limit the first
//! byte sets, and an error message quotes the document's text short.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab_workload::{read_swf, ReadOptions, TraceFormat};

/// The longest message an error may have: every quoted text is cut to 40
/// characters, so a message never grows with the document.
const MAX_MESSAGE: usize = 1_000;

fuzz_target!(|data: &[u8]| {
    let Some((&b, rest)) = data.split_first() else { return };
    let mut text = Vec::with_capacity(data.len() + 1);
    if !matches!(rest.first(), Some(b'{' | b'[')) {
        text.push(b'{');
    }
    text.extend_from_slice(rest);
    let max_jobs = u64::from(b % 8) + 1;
    let opts = ReadOptions { max_jobs, ..ReadOptions::default() };
    match read_swf(&text[..], &opts) {
        Ok(loaded) => {
            assert_eq!(loaded.format, TraceFormat::Batsim);
            assert!(loaded.trace.jobs.len() as u64 <= max_jobs);
            assert!(loaded.trace.procs >= 1);
            for j in &loaded.trace.jobs {
                assert!(j.runtime >= 0 && j.estimate >= 1 && j.size >= 1 && j.size <= loaded.trace.procs, "{j:?}");
            }
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.len() <= MAX_MESSAGE, "a message of {} bytes: {}", message.len(), &message[..200]);
        }
    }
});
