//! Outputs that are not plain files (devices, FIFOs, symbolic links, open
//! descriptors), outputs that cannot be written, and interrupts: what
//! `outputs.rs` promises in docs/cli.md ("Output files").

use std::fs;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{ok, sample, schedlab, stderr, temp_dir};

/// Makes a special file with a system tool (`mknod`, `mkfifo`); false, with
/// a note, where the system refuses (`mknod` needs privileges).
fn make_node(tool: &str, args: &[&str]) -> bool {
    let made = Command::new(tool).args(args).status().is_ok_and(|s| s.success());
    if !made {
        eprintln!("note: `{tool} {}` was refused; that case is skipped", args.join(" "));
    }
    made
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

fn no_temporary_file(dir: &Path) {
    let names = names(dir);
    assert!(names.iter().all(|n| !n.ends_with(".schedlab-tmp")), "a temporary file is left: {names:?}");
}

fn text(path: &Path) -> String {
    path.display().to_string()
}

/// The reproducer: a copy of /dev/null made with `mknod` was
/// replaced by an 877-byte plain file, by `-o` and by `--jobs-csv`.
#[test]
fn a_device_is_written_to_and_stays_a_device() {
    let dir = temp_dir("device");
    let (null, null2) = (dir.join("mynull"), dir.join("mynull2"));
    if !make_node("mknod", &[&text(&null), "c", "1", "3"]) || !make_node("mknod", &[&text(&null2), "c", "1", "3"]) {
        return;
    }
    let out = ok(&["run", &sample(), "--policy", "easy", "-o", &text(&null), "--jobs-csv", &text(&null2), "-q"]);
    assert!(out.is_empty(), "the report went to the device: {out}");
    for node in [&null, &null2] {
        let kind = fs::symlink_metadata(node).expect("node").file_type();
        assert!(kind.is_char_device(), "{} is still a device, not {kind:?}", node.display());
    }
    no_temporary_file(&dir);
    fs::remove_dir_all(&dir).ok();
}

/// A FIFO's reader gets the whole file, and the FIFO stays.
#[test]
fn a_fifo_is_written_to_its_reader() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("jobs.fifo");
    if !make_node("mkfifo", &[&text(&fifo)]) {
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).expect("read the FIFO"))
    };
    ok(&["run", &sample(), "--policy", "easy", "--jobs-csv", &text(&fifo), "-q"]);
    assert!(fs::symlink_metadata(&fifo).expect("fifo").file_type().is_fifo(), "the FIFO was replaced");
    let csv = reader.join().expect("reader");
    assert_eq!(csv.lines().count(), 3001, "a header and the 3000 jobs");
    no_temporary_file(&dir);
    fs::remove_dir_all(&dir).ok();
}

/// A symbolic link is followed: the file it names is replaced in its own
/// directory and the link stays; a dangling link makes the file it names;
/// a link to the input is refused as the input is.
#[test]
fn a_symbolic_link_is_followed_to_the_file_it_names() {
    let dir = temp_dir("links");
    let (real_dir, link_dir) = (dir.join("real"), dir.join("links"));
    fs::create_dir_all(&real_dir).expect("real dir");
    fs::create_dir_all(&link_dir).expect("link dir");
    let real = real_dir.join("run.json");
    fs::write(&real, "old").expect("old report");
    let link = link_dir.join("run.json");
    symlink("../real/run.json", &link).expect("relative link");
    let chain = link_dir.join("chain.json");
    symlink(&link, &chain).expect("link to a link");
    let (dangling, made) = (link_dir.join("dangling.csv"), real_dir.join("made.csv"));
    symlink(&made, &dangling).expect("dangling link");
    ok(&["run", &sample(), "--policy", "easy", "--json", "-o", &text(&chain), "--jobs-csv", &text(&dangling), "-q"]);
    let doc: Value = serde_json::from_str(&fs::read_to_string(&real).expect("report")).expect("JSON");
    assert_eq!(doc["metrics"]["jobs"], 3000);
    assert_eq!(fs::read_to_string(&made).expect("made").lines().count(), 3001);
    for l in [&link, &chain, &dangling] {
        assert!(fs::symlink_metadata(l).expect("link").file_type().is_symlink(), "{} is still a link", l.display());
    }
    assert_eq!(names(&link_dir), ["chain.json", "dangling.csv", "run.json"]);
    assert_eq!(names(&real_dir), ["made.csv", "run.json"]);

    let trace = real_dir.join("t.swf");
    fs::copy(sample(), &trace).expect("trace");
    let to_trace = link_dir.join("t.csv");
    symlink(&trace, &to_trace).expect("link to the input");
    let o = schedlab(&["run", &text(&trace), "--policy", "easy", "--jobs-csv", &text(&to_trace)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--jobs-csv") && stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(fs::read(&trace).expect("trace"), fs::read(sample()).expect("sample"), "the input is intact");
    fs::remove_dir_all(&dir).ok();
}

/// `/proc/self/fd/1` and `/dev/fd/1` are the command's own stdout: what is
/// written there reaches it, after the files and before the report.
#[test]
fn an_open_descriptor_is_written_through() {
    if !Path::new("/proc/self/fd/1").exists() {
        eprintln!("note: no /proc/self/fd here; that case is skipped");
        return;
    }
    let doc: Value =
        serde_json::from_str(&ok(&["run", &sample(), "--policy", "easy", "--json", "-o", "/proc/self/fd/1", "-q"]))
            .expect("the report on stdout");
    assert_eq!(doc["metrics"]["jobs"], 3000);
    let out = ok(&["run", &sample(), "--policy", "easy", "--jobs-csv", "/dev/fd/1", "--json", "-q"]);
    let (csv, report) = out.split_at(out.find("\n{").expect("the report after the CSV") + 1);
    assert_eq!(csv.lines().count(), 3001);
    assert_eq!(serde_json::from_str::<Value>(report).expect("report")["metrics"]["jobs"], 3000);
}

/// An output that cannot be written fails before the trace is even read:
/// here the trace breaks `--max-jobs`, and the output is what is reported.
#[test]
fn an_unwritable_output_fails_at_once() {
    let Some(dir) = unwritable_directory() else {
        return;
    };
    let target = text(&dir.join("y.json"));
    let o = schedlab(&["run", &sample(), "--policy", "easy", "--max-jobs", "10", "-o", &target]);
    assert_eq!(o.status.code(), Some(2));
    let message = stderr(&o);
    assert!(message.contains(&format!("--output {target}: cannot write there")), "{message}");
    assert!(!message.contains("more than 10 jobs"), "the output is checked first: {message}");
}

/// A directory where this process cannot make a file: a read-only one, or
/// for a privileged user (who writes anywhere) /sys.
fn unwritable_directory() -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("read-only");
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).expect("chmod");
    let candidates = [dir, PathBuf::from("/sys")];
    let found = candidates.into_iter().find(|d| d.is_dir() && fs::write(d.join("probe"), "").is_err());
    if found.is_none() {
        eprintln!("note: every directory tried is writable here; that case is skipped");
    }
    found
}

/// A name of 255 bytes, the most a file system allows, works: the
/// temporary name beside it does not repeat it.
#[test]
fn a_longest_legal_name_works() {
    let dir = temp_dir("long-name");
    let target = dir.join(format!("{}.json", "n".repeat(250)));
    ok(&["run", &sample(), "--policy", "easy", "--json", "-o", &text(&target), "-q"]);
    let doc: Value = serde_json::from_str(&fs::read_to_string(&target).expect("report")).expect("JSON");
    assert_eq!(doc["metrics"]["jobs"], 3000);
    no_temporary_file(&dir);
    fs::remove_dir_all(&dir).ok();
}

/// An interrupt while the outputs are written removes the temporary files,
/// whichever catchable signal it is (SIGHUP and SIGQUIT left them).
/// The command is held there by a second output, a FIFO that nobody reads,
/// which it opens after writing the first output's temporary file.
#[test]
fn an_interrupt_removes_the_temporary_files() {
    for (signal, name) in [(2, "INT"), (15, "TERM"), (1, "HUP"), (3, "QUIT")] {
        let dir = temp_dir("interrupt");
        let fifo = dir.join("held.fifo");
        if !make_node("mkfifo", &[&text(&fifo)]) {
            return;
        }
        let csv = dir.join("jobs.csv");
        let mut child = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .args(["run", &sample(), "--policy", "easy", "--jobs-csv", &text(&csv), "--swf-out", &text(&fifo), "-q"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let deadline = Instant::now() + Duration::from_secs(120);
        while names(&dir).iter().all(|n| !n.ends_with(".schedlab-tmp")) {
            if Instant::now() > deadline || child.try_wait().expect("child").is_some() {
                let _ = child.kill();
                panic!("SIG{name}: the command never held a temporary file: {:?}", names(&dir));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let sent = Command::new("kill").args(["-s", name, &child.id().to_string()]).status().expect("kill");
        assert!(sent.success());
        let status = child.wait().expect("wait");
        assert_eq!(status.signal(), Some(signal), "SIG{name} ends the command as it would have: {status:?}");
        assert_eq!(names(&dir), ["held.fifo"], "SIG{name}: only the FIFO is left");
        fs::remove_dir_all(&dir).ok();
    }
}

/// The input through another path: `/dev/stdin` redirected from the trace,
/// and the trace's own descriptor, were appended to.
#[test]
fn the_input_through_a_descriptor_is_refused() {
    let dir = temp_dir("stdin");
    let trace = dir.join("t.swf");
    fs::copy(sample(), &trace).expect("copy");
    let before = fs::read(&trace).expect("trace");
    for output in ["/dev/stdin", "/proc/self/fd/0"] {
        let o = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .args(["run", "/dev/stdin", "--policy", "easy", "--jobs-csv", output, "-q"])
            .stdin(fs::File::open(&trace).expect("open"))
            .output()
            .expect("run");
        assert_eq!(o.status.code(), Some(2), "{output}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("--jobs-csv {output}: is the input /dev/stdin")), "{}", stderr(&o));
        assert_eq!(fs::read(&trace).expect("trace"), before, "{output}: the trace is untouched");
    }
    fs::remove_dir_all(&dir).ok();
}

/// A socket cannot be opened as a file: refused before the run, not after.
#[test]
fn a_socket_output_is_refused_before_the_run() {
    let dir = temp_dir("socket");
    let socket = dir.join("out.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("socket");
    let o = schedlab(&["run", &sample(), "--policy", "easy", "--max-jobs", "10", "--jobs-csv", &text(&socket)]);
    assert_eq!(o.status.code(), Some(2));
    let message = stderr(&o);
    assert!(message.contains("is a socket, which cannot be opened as a file"), "{message}");
    assert!(!message.contains("more than 10 jobs"), "refused before the trace is read: {message}");
    fs::remove_dir_all(&dir).ok();
}

/// A replaced file keeps its mode: a 600 file became 644.
#[test]
fn a_replaced_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("mode");
    let csv = dir.join("jobs.csv");
    fs::write(&csv, "old").expect("old");
    fs::set_permissions(&csv, fs::Permissions::from_mode(0o600)).expect("chmod");
    ok(&["run", &sample(), "--policy", "easy", "--jobs-csv", &text(&csv), "-q"]);
    assert_eq!(fs::metadata(&csv).expect("csv").permissions().mode() & 0o777, 0o600);
    assert_eq!(fs::read_to_string(&csv).expect("csv").lines().count(), 3001);
    fs::remove_dir_all(&dir).ok();
}

/// `-o newfile/` names a directory that does not exist: it wrote a file
/// named `newfile`.
#[test]
fn a_path_ending_in_a_slash_is_refused() {
    let dir = temp_dir("slash");
    let target = format!("{}/newfile/", dir.display());
    let o = schedlab(&["stats", &sample(), "-o", &target]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ends with `/`, so it names a directory"), "{}", stderr(&o));
    assert!(names(&dir).is_empty(), "no file made: {:?}", names(&dir));
    fs::remove_dir_all(&dir).ok();
}

/// `run` of the sample under EASY with `outputs`, one of them a FIFO nobody
/// reads yet: the command stages its files, then waits on the FIFO before
/// its commit. Returns once `staged` temporary files are in `dir`.
fn held_before_commit(dir: &Path, outputs: &[&str], staged: usize) -> std::process::Child {
    let child = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", &sample(), "--policy", "easy"])
        .args(outputs)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + Duration::from_secs(120);
    while names(dir).iter().filter(|n| n.ends_with(".schedlab-tmp")).count() < staged {
        assert!(Instant::now() < deadline, "the command never staged its files: {:?}", names(dir));
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

/// An output that became a directory while the command ran: the earlier
/// outputs are left as they were (`--jobs-csv` had been replaced). The
/// command is held before its commit by a FIFO output nobody reads yet.
#[test]
fn an_output_that_became_a_directory_leaves_the_others_as_they_were() {
    let dir = temp_dir("became-dir");
    let (csv, swf, fifo) = (dir.join("jobs.csv"), dir.join("out.swf"), dir.join("held.fifo"));
    if !make_node("mkfifo", &[&text(&fifo)]) {
        return;
    }
    fs::write(&csv, "old csv").expect("old");
    let child = held_before_commit(
        &dir,
        &["-q", "--jobs-csv", &text(&csv), "--swf-out", &text(&swf), "--batsim-jobs", &text(&fifo)],
        2,
    );
    fs::create_dir(&swf).expect("the --swf-out path becomes a directory");
    let drained = fs::read(&fifo).expect("read the FIFO");
    assert!(!drained.is_empty());
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no longer a regular file"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&csv).expect("csv"), "old csv", "--jobs-csv is as it was");
    assert_eq!(names(&dir), ["held.fifo", "jobs.csv", "out.swf"]);
    fs::remove_dir_all(&dir).ok();
}

/// The report to a file (`-o`) is committed with the other outputs, not
/// after them: an interrupt or a failure between two commits left the
/// files new and the report old (5 of 80 interrupts did). Here the report's
/// path becomes a directory while the command is held before its commit
/// by a FIFO output nobody reads yet.
#[test]
fn a_report_that_cannot_be_written_leaves_the_files_as_they_were() {
    let dir = temp_dir("report-dir");
    let (csv, report, fifo) = (dir.join("jobs.csv"), dir.join("report.txt"), dir.join("held.fifo"));
    if !make_node("mkfifo", &[&text(&fifo)]) {
        return;
    }
    fs::write(&csv, "old csv").expect("old");
    let child =
        held_before_commit(&dir, &["--jobs-csv", &text(&csv), "--batsim-jobs", &text(&fifo), "-o", &text(&report)], 1);
    fs::create_dir(&report).expect("the report's path becomes a directory");
    assert!(!fs::read(&fifo).expect("read the FIFO").is_empty());
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let kept = fs::read_to_string(&csv).expect("csv");
    assert!(kept == "old csv", "--jobs-csv was replaced by {} bytes", kept.len());
    no_temporary_file(&dir);
    fs::remove_dir_all(&dir).ok();
}
