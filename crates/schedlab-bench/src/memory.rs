//! Memory measurements for `bench`: heap bytes counted by the global
//! allocator (exact, every platform) and the process's resident set size
//! from `/proc/self/status` (Linux; `None` elsewhere).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live heap bytes and their peak.
pub struct CountingAlloc;

fn grew(bytes: usize) {
    let now = CURRENT.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

fn shrank(bytes: usize) {
    CURRENT.fetch_sub(bytes, Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the counters do
// not touch the memory.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrank(layout.size());
            grew(new_size);
        }
        p
    }
}

/// Live heap bytes now.
pub fn heap_now() -> usize {
    CURRENT.load(Relaxed)
}

/// Highest live heap bytes since the start or the last `reset_heap_peak`.
pub fn heap_peak() -> usize {
    PEAK.load(Relaxed)
}

/// Starts a new peak from the current live bytes.
pub fn reset_heap_peak() {
    PEAK.store(CURRENT.load(Relaxed), Relaxed);
}

/// A `kB` field of `/proc/self/status`, in bytes.
fn proc_status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))?;
    let kb: u64 = line[field.len() + 1..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident set size of this process (VmHWM), bytes.
pub fn peak_rss() -> Option<u64> {
    proc_status_kb("VmHWM")
}

/// Resident set size of this process now (VmRSS), bytes.
pub fn rss_now() -> Option<u64> {
    proc_status_kb("VmRSS")
}
