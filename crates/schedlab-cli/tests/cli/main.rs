//! End-to-end tests of the `schedlab` binary, by what they check: bad input
//! and the files a command reads and writes (`input`), the documents and
//! tables it prints (`documents`), experiments, shards, presets and the
//! schedule view (`experiments`). The helpers below run the binary.

mod bombs;
mod documents;
mod experiments;
mod files;
mod input;
mod messages;
mod nodes;
mod results;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) fn sample() -> String {
    root().join("samples/kth-sp2-first3000.swf").display().to_string()
}

pub(crate) fn fixture(name: &str) -> String {
    root().join("tests/fixtures").join(name).display().to_string()
}

/// A fresh empty directory for one test.
pub(crate) fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("schedlab-cli-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

pub(crate) fn schedlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(args)
        .env_remove("SCHEDLAB_TRACES")
        .output()
        .expect("run schedlab")
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs a command that must succeed and returns its stdout.
pub(crate) fn ok(args: &[&str]) -> String {
    let o = schedlab(args);
    assert!(o.status.success(), "{args:?} failed: {}", stderr(&o));
    stdout(&o)
}

pub(crate) fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}
