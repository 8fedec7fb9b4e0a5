//! Tests of the whole reader, by what they check: cleaning rules on tiny
//! traces (`cleaning`), errors, compression and limits (`errors`), gzip,
//! the fixtures and the writer's round trip (`formats`), Slurm accounting
//! dumps (`slurm`), Batsim workloads (`batsim`), and property tests
//! (`properties`). The helpers below build and read small traces.

mod batsim;
mod cleaning;
mod errors;
mod formats;
mod machine;
mod properties;
mod slurm;
mod streamed;

use std::io::{self, Read, Write};

use flate2::write::GzEncoder;
use flate2::Compression;

use crate::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/");
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kth-sp2-first3000.swf");
const SAMPLE_SHA256: &str = "ebb7dc7da59da0f41d7a64c9aebdb46ed6207a3adf6f6fb326d37000264a47b4";

/// A job line: id submit wait runtime alloc cpu mem req_procs req_time req_mem
/// status user group exe queue partition preceding think.
pub(super) fn jl(id: u64, submit: i64, runtime: i64, size: i64, estimate: i64) -> String {
    format!("{id} {submit} 0 {runtime} {size} -1 -1 {size} {estimate} -1 1 1 1 -1 1 1 -1 -1")
}

pub(super) fn text(lines: &[String]) -> String {
    let mut s = String::from("; MaxProcs: 8\n");
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s
}

pub(super) fn read(input: &[u8], opts: &ReadOptions) -> Result<Loaded, SwfError> {
    read_swf(input, opts)
}

pub(super) fn read_ok(input: &str) -> Loaded {
    read(input.as_bytes(), &ReadOptions::default()).expect("read")
}

pub(super) fn ids(l: &Loaded) -> Vec<u64> {
    l.trace.jobs.iter().map(|j| j.id).collect()
}

pub(super) fn count(report: &CleaningReport, reason: &str) -> u64 {
    report.counts().into_iter().find(|c| c.0 == reason).map(|c| c.1).expect(reason)
}

pub(super) fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(data).expect("gzip");
    enc.finish().expect("gzip")
}

pub(super) fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}{name}")).expect(name)
}

/// A reader that gives one byte a call.
pub(super) struct OneByte(pub(super) Vec<u8>);

impl Read for OneByte {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() || buf.is_empty() {
            return Ok(0);
        }
        buf[0] = self.0.remove(0);
        Ok(1)
    }
}

/// The rows a trace writes back.
pub(super) fn rows_of(l: &Loaded) -> Vec<SwfRow> {
    l.trace.jobs.iter().zip(&l.trace.extras).map(|(j, e)| SwfRow::from_trace(*j, *e)).collect()
}
