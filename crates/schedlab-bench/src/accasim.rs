//! The reference peer of `bench --accasim`: AccaSim's EASY, run by
//! `scripts/accasim_easy.py` on the same trace and machine size.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

const SCRIPT: &str = "scripts/accasim_easy.py";

/// The JSON line the script prints.
#[derive(Debug, Default, Deserialize)]
pub struct AccasimResult {
    #[serde(default)]
    pub ok: bool,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub jobs: u64,
    #[serde(default)]
    pub seconds: f64,
    #[serde(default)]
    pub peak_rss_mb: f64,
    #[serde(default)]
    pub mean_wait: f64,
}

/// Whether `python3 -c "import accasim"` works.
pub fn installed() -> bool {
    Command::new("python3")
        .args(["-c", "import accasim"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The script: under `$SCHEDLAB_ROOT`, else under the current directory or
/// one of its parents, else next to the executable's ancestors (a
/// `target/release/schedlab-bench` inside the repository).
pub fn script() -> Option<PathBuf> {
    if let Some(root) = std::env::var_os("SCHEDLAB_ROOT") {
        let p = Path::new(&root).join(SCRIPT);
        return p.is_file().then_some(p);
    }
    let cwd = std::env::current_dir().ok();
    let exe = std::env::current_exe().ok();
    let starts = cwd.iter().chain(exe.iter());
    starts.flat_map(|start| start.ancestors().map(|a| a.join(SCRIPT)).collect::<Vec<_>>()).find(|p| p.is_file())
}

/// Runs the script once; errors are its own message or why it could not run.
pub fn run(script: &Path, trace: &Path, procs: u32) -> Result<AccasimResult, String> {
    let out = Command::new("python3")
        .arg(script)
        .arg(trace)
        .args(["--procs", &procs.to_string(), "--json"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    let result: AccasimResult =
        serde_json::from_str(line).map_err(|_| format!("{SCRIPT} printed no result (exit status {})", out.status))?;
    if !result.ok {
        return Err(result.error.unwrap_or_else(|| "failed without a message".into()));
    }
    Ok(result)
}
