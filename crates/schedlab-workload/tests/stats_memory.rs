//! `read_stats` keeps no job: the heap it needs for an SWF trace does not
//! grow with the trace. Measured by counting the bytes this test binary's
//! allocator hands out, so the figure is exact and needs no clock.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};

use schedlab_workload::{read_stats, read_swf, ReadOptions};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(live, Ordering::SeqCst);
        // SAFETY: the layout is the caller's, passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// An SWF trace of `jobs` jobs, made line by line as it is read, so that
/// the input itself takes no memory.
struct Generated {
    next: u64,
    jobs: u64,
    line: Vec<u8>,
    at: usize,
}

impl Generated {
    fn new(jobs: u64) -> Self {
        Generated { next: 0, jobs, line: b"; MaxProcs: 64\n".to_vec(), at: 0 }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.line.len() {
            if self.next == self.jobs {
                return Ok(0);
            }
            self.next += 1;
            let (id, user) = (self.next, self.next % 97);
            let size = 1 + self.next % 64;
            self.line = format!("{id} {id} 0 60 {size} -1 -1 {size} 120 -1 1 {user} 1 -1 1 1 -1 -1\n").into_bytes();
            self.at = 0;
        }
        let n = buf.len().min(self.line.len() - self.at);
        buf[..n].copy_from_slice(&self.line[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The most heap in use while `f` runs, beyond what was in use before.
fn peak_during<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let out = f();
    (PEAK.load(Ordering::SeqCst) - base, out)
}

#[test]
fn statistics_of_a_trace_take_the_same_memory_for_any_number_of_jobs() {
    let opts = ReadOptions::default();
    let (small, s) = peak_during(|| read_stats(Generated::new(1_000), &opts).expect("read"));
    assert_eq!(s.stats.jobs, 1_000);
    let (large, s) = peak_during(|| read_stats(Generated::new(200_000), &opts).expect("read"));
    assert_eq!((s.stats.jobs, s.stats.users, s.report.duplicate_ids), (200_000, 97, 0));
    // The read buffers and the header are the same for both; 200 times the
    // jobs may not add more than a few kilobytes.
    assert!(large <= small + 16 * 1024, "1,000 jobs: {small} bytes; 200,000 jobs: {large} bytes");
    // The list of jobs a run needs is what the statistics do without.
    let (listed, l) = peak_during(|| read_swf(Generated::new(200_000), &opts).expect("read"));
    assert_eq!(l.trace.jobs.len(), 200_000);
    assert!(listed > 200_000 * 48, "a run's list of 200,000 jobs took only {listed} bytes");
}
