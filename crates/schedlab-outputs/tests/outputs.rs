//! What the outputs promise, tested on real files, real directories and
//! real signals: refusals before any work, nothing changed before the
//! commit, modes kept, and a commit that ends all old or all new whatever
//! interrupts it.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use schedlab_outputs::{commit, commit_observed, Input, OutputError, Outputs, Refusal};

/// A fresh empty directory for one test.
fn scratch(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("schedlab-outputs-{}-{tag}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

fn refusal(result: Result<schedlab_outputs::Output, OutputError>) -> Refusal {
    match result {
        Err(OutputError::Refused { reason, .. }) => reason,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn an_input_or_a_second_output_is_refused_by_any_path() {
    let dir = scratch("refuse");
    let input = dir.join("t.swf");
    fs::write(&input, "1").expect("input");
    let mut outputs = Outputs::for_paths([input.as_path()]);
    assert_eq!(refusal(outputs.declare("--jobs-csv", &input)), Refusal::IsInput(input.display().to_string()));
    // The same file by other names: `dir/./t.swf`, a hard link, and the
    // descriptor of the file opened.
    assert!(outputs.declare("--swf-out", &dir.join(".").join("t.swf")).is_err());
    let link = dir.join("link.swf");
    fs::hard_link(&input, &link).expect("hard link");
    assert!(outputs.declare("--swf-out", &link).is_err());
    let opened = fs::File::open(&input).expect("open");
    let by_descriptor = PathBuf::from(format!("/proc/self/fd/{}", opened.as_raw_fd()));
    assert!(matches!(refusal(outputs.declare("--swf-out", &by_descriptor)), Refusal::IsInput(_)));
    let out = dir.join("o");
    outputs.declare("--swf-out", &out).expect("a new file");
    let err = outputs.declare("--jobs-csv", &dir.join(".").join("o")).expect_err("twice");
    assert_eq!(
        err.to_string(),
        format!("--jobs-csv {}/./o: is also the output of --swf-out: give each output its own file", dir.display())
    );
    assert_eq!(fs::read_to_string(&input).expect("input"), "1", "untouched");
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_open_input_is_known_by_its_identity() {
    let dir = scratch("identity");
    let input = dir.join("t.swf");
    fs::write(&input, "1").expect("input");
    let opened = fs::File::open(&input).expect("open");
    // The file is renamed after it was opened: the path no longer names
    // it, its identity still does.
    let moved = dir.join("moved.swf");
    fs::rename(&input, &moved).expect("rename");
    let mut outputs = Outputs::new([Input::open_file("the loaded trace", &opened).expect("identity")]);
    assert_eq!(refusal(outputs.declare("path", &moved)), Refusal::IsInput("the loaded trace".to_owned()));
    let meta = fs::metadata(&moved).expect("meta");
    let mut outputs = Outputs::new([Input::identity("t", meta.dev(), meta.ino())]);
    assert!(outputs.declare("path", &moved).is_err());
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn directories_sockets_and_a_trailing_slash_are_refused_before_any_work() {
    let dir = scratch("kinds");
    let mut outputs = Outputs::new([]);
    assert_eq!(refusal(outputs.declare("-o", &dir)), Refusal::Directory);
    let missing = PathBuf::from(format!("{}/newfile/", dir.display()));
    assert_eq!(refusal(outputs.declare("-o", &missing)), Refusal::TrailingSlash);
    assert_eq!(
        refusal(outputs.declare("-o", Path::new(&format!("{}/newfile/.", dir.display())))),
        Refusal::TrailingSlash
    );
    let socket = dir.join("s.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("socket");
    assert_eq!(refusal(outputs.declare("-o", &socket)), Refusal::Socket);
    assert!(matches!(outputs.declare("-o", &dir.join("missing/o")), Err(OutputError::Unwritable { .. })));
    assert_eq!(names(&dir), ["s.sock"], "no file made, no temporary file left");
    // A terminal or /dev/null may be read and written by one command.
    let null = Path::new("/dev/null");
    let mut outputs = Outputs::for_paths([null]);
    outputs.declare("-o", null).expect("a character device is shareable");
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn nothing_changes_until_commit_and_a_failed_write_leaves_no_file() {
    let dir = scratch("commit");
    let target = dir.join("out.csv");
    fs::write(&target, "old").expect("old content");
    let mut outputs = Outputs::new([]);
    let o = outputs.declare("--jobs-csv", &target).expect("declare");
    let staged = outputs.stage(o, |w| w.write_all(b"new")).expect("stage");
    assert_eq!(fs::read_to_string(&target).expect("target"), "old");
    commit(vec![staged]).expect("commit");
    assert_eq!(fs::read_to_string(&target).expect("target"), "new");
    let failed = outputs.stage(o, |_| Err(io::Error::other("disk full")));
    assert!(matches!(failed, Err(OutputError::Write { .. })), "{failed:?}");
    let mut writer = outputs.writer(o).expect("writer");
    writer.write_all(b"half").expect("write");
    drop(writer);
    assert_eq!(fs::read_to_string(&target).expect("target"), "new");
    assert_eq!(names(&dir), ["out.csv"], "no temporary file is left behind");
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_replaced_file_keeps_its_mode_and_a_new_file_gets_the_default() {
    let dir = scratch("mode");
    let private = dir.join("private.csv");
    fs::write(&private, "old").expect("old");
    fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).expect("chmod");
    let shared = dir.join("shared.csv");
    fs::write(&shared, "old").expect("old");
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o664)).expect("chmod");
    let fresh = dir.join("fresh.csv");
    let mut outputs = Outputs::new([]);
    let all = outputs
        .declare_all([("a", private.as_path()), ("b", shared.as_path()), ("c", fresh.as_path())])
        .expect("declare");
    let staged = all.iter().map(|&o| outputs.stage(o, |w| w.write_all(b"new")).expect("stage")).collect();
    commit(staged).expect("commit");
    let mode = |p: &Path| fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode(&private), 0o600);
    assert_eq!(mode(&shared), 0o664);
    let made = fs::File::create(dir.join("probe")).expect("probe");
    assert_eq!(mode(&fresh), made.metadata().expect("meta").permissions().mode() & 0o777, "the umask's default");
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_target_that_became_a_directory_leaves_every_output_as_it_was() {
    let dir = scratch("became-dir");
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    fs::write(&a, "old a").expect("a");
    let mut outputs = Outputs::new([]);
    let all = outputs.declare_all([("a", a.as_path()), ("b", b.as_path()), ("c", c.as_path())]).expect("declare");
    let staged = all.iter().map(|&o| outputs.stage(o, |w| w.write_all(b"new")).expect("stage")).collect();
    fs::create_dir(&b).expect("b is now a directory");
    let err = commit(staged).expect_err("b cannot be replaced");
    assert!(err.to_string().contains("no longer a regular file"), "{err}");
    assert_eq!(fs::read_to_string(&a).expect("a"), "old a");
    assert_eq!(names(&dir), ["a", "b"]);
    fs::remove_dir_all(&dir).ok();
}

/// A rename that fails after others succeeded puts the earlier targets
/// back: the directory is made between the check and the renames.
#[test]
fn a_rename_that_fails_part_way_puts_the_earlier_targets_back() {
    let dir = scratch("part-way");
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    fs::write(&a, "old a").expect("a");
    fs::write(&b, "old b").expect("b");
    let inode = fs::metadata(&a).expect("a").ino();
    let mut outputs = Outputs::new([]);
    let all = outputs.declare_all([("a", a.as_path()), ("b", b.as_path()), ("c", c.as_path())]).expect("declare");
    let staged = all.iter().map(|&o| outputs.stage(o, |w| w.write_all(b"new")).expect("stage")).collect();
    let result = commit_observed(staged, |i| {
        if i == 2 {
            fs::create_dir(&c).expect("c becomes a directory");
            fs::write(c.join("inside"), "x").expect("a non-empty directory");
        }
    });
    assert!(matches!(result, Err(OutputError::Commit { .. })), "{result:?}");
    assert_eq!(fs::read_to_string(&a).expect("a"), "old a");
    assert_eq!(fs::read_to_string(&b).expect("b"), "old b");
    assert_eq!(fs::metadata(&a).expect("a").ino(), inode, "the very file is back");
    assert_eq!(names(&dir), ["a", "b", "c"]);
    fs::remove_dir_all(&dir).ok();
}

/// The old content of the targets a child process replaces, and the new.
const OLD: [&str; 3] = ["old 0", "old 1", ""];
const NEW: [&str; 3] = ["new 0", "new 1", "new 2"];
const SIGNALS: [(i32, &str); 4] = [(2, "INT"), (15, "TERM"), (1, "HUP"), (3, "QUIT")];
const CHILD: &str = "SCHEDLAB_OUTPUTS_CHILD";

/// Sets up three targets (two existing, one of mode 600, and one absent).
fn three_targets(dir: &Path) -> Vec<PathBuf> {
    let targets: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("out{i}"))).collect();
    for (target, old) in targets.iter().zip(OLD).take(2) {
        fs::write(target, old).expect("old");
    }
    fs::set_permissions(&targets[1], fs::Permissions::from_mode(0o600)).expect("chmod");
    targets
}

/// The state of the targets: all old (`Some(false)`), all new
/// (`Some(true)`) or a mix (`None`), and nothing else in the directory.
fn outcome(dir: &Path, targets: &[PathBuf]) -> Option<bool> {
    let read = |p: &PathBuf| fs::read_to_string(p).unwrap_or_default();
    let contents: Vec<String> = targets.iter().map(read).collect();
    let left = names(dir);
    let expected_names = |n: usize| (0..n).map(|i| format!("out{i}")).collect::<Vec<_>>();
    if contents == NEW && left == expected_names(3) {
        return Some(true);
    }
    let old_mode = fs::metadata(&targets[1]).map(|m| m.permissions().mode() & 0o777).ok();
    (contents == OLD && left == expected_names(2) && old_mode == Some(0o600)).then_some(false)
}

/// The child's side: writes new content to the three targets of the
/// directory in `SCHEDLAB_OUTPUTS_CHILD` and commits it, raising the
/// signal given there before the rename given there (or, with no rename
/// given, announcing the commit on stdout and pausing a millisecond
/// between renames for the parent to interrupt).
#[test]
fn child_process_commit() {
    let Ok(spec) = std::env::var(CHILD) else { return };
    let mut parts = spec.split(':');
    let dir = PathBuf::from(parts.next().expect("dir"));
    let signal: i32 = parts.next().expect("signal").parse().expect("signal");
    let point: Option<usize> = parts.next().and_then(|p| p.parse().ok());
    schedlab_outputs::clean_up_on_signals().expect("handler");
    let targets: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("out{i}"))).collect();
    let mut outputs = Outputs::new([]);
    let declared = outputs.declare_all(targets.iter().map(|t| ("o", t.as_path()))).expect("declare");
    let staged =
        declared.iter().zip(NEW).map(|(&o, new)| outputs.stage(o, |w| w.write_all(new.as_bytes())).expect("stage"));
    let staged = staged.collect();
    println!("committing");
    let _ = io::stdout().flush();
    commit_observed(staged, |i| match point {
        Some(p) if p == i => {
            signal_hook::low_level::raise(signal).expect("raise");
            // The handler ends the process; this only waits for it.
            std::thread::sleep(std::time::Duration::from_secs(10));
        }
        Some(_) => {}
        None => std::thread::sleep(std::time::Duration::from_millis(1)),
    })
    .expect("commit");
}

fn child(dir: &Path, signal: i32, point: Option<usize>) -> Command {
    let spec = format!("{}:{signal}:{}", dir.display(), point.map_or_else(String::new, |p| p.to_string()));
    let mut command = Command::new(std::env::current_exe().expect("test binary"));
    command.args(["child_process_commit", "--exact", "--nocapture", "--test-threads=1"]).env(CHILD, spec);
    command
}

/// Every catchable signal at every point of a commit (before each rename
/// and after the last): the process dies of the signal and every target is
/// as it was, mode included, with no temporary or backup file left.
#[test]
fn a_signal_at_any_point_of_a_commit_leaves_every_file_as_it_was() {
    for (signal, name) in SIGNALS {
        for point in 0..=3 {
            let dir = scratch("signal");
            let targets = three_targets(&dir);
            let status = child(&dir, signal, Some(point)).stdout(Stdio::null()).status().expect("child");
            assert_eq!(status.signal(), Some(signal), "SIG{name} at {point}: {status:?}");
            assert_eq!(outcome(&dir, &targets), Some(false), "SIG{name} at {point}: {:?}", names(&dir));
            fs::remove_dir_all(&dir).ok();
        }
    }
}

/// 80 interrupts sent from outside at times spread over a commit: each
/// leaves the targets all old or all new, never a mix.
#[test]
fn eighty_interrupts_around_commit_time_never_leave_a_mix() {
    let mut seen = [0usize; 2];
    for k in 0..80u64 {
        let (signal, name) = SIGNALS[(k % 4) as usize];
        let dir = scratch("interrupts");
        let targets = three_targets(&dir);
        let mut process = child(&dir, signal, None).stdout(Stdio::piped()).spawn().expect("child");
        let mut out = process.stdout.take().expect("stdout");
        let mut line = [0u8; 11];
        io::Read::read_exact(&mut out, &mut line).expect("the child announces its commit");
        std::thread::sleep(std::time::Duration::from_micros(50 * (k % 80)));
        let _ = Command::new("kill").args(["-s", name, &process.id().to_string()]).status();
        let _ = process.wait().expect("wait");
        let state = outcome(&dir, &targets);
        assert!(state.is_some(), "interrupt {k} (SIG{name}) left a mix: {:?}", names(&dir));
        seen[usize::from(state == Some(true))] += 1;
        fs::remove_dir_all(&dir).ok();
    }
    eprintln!("80 interrupts: {} all old, {} all new", seen[0], seen[1]);
}

/// Temporary names taken by files a killed process left are skipped; when
/// every name tried is taken, the message names one ("File exists (os
/// error 17)" named none).
#[test]
fn taken_temporary_names_are_skipped_and_named() {
    let dir = scratch("taken");
    let pid = std::process::id();
    // More names than this test binary ever numbers.
    for n in 0..5_000 {
        fs::write(dir.join(format!(".{pid}-{n}.schedlab-tmp")), "").expect("leftover");
    }
    let err = Outputs::new([]).declare("--jobs-csv", &dir.join("out.csv")).expect_err("every name taken");
    let message = err.to_string();
    assert!(message.contains("temporary names beside the target are taken"), "{message}");
    assert!(message.contains(&format!("{}/.{pid}-", dir.display())) && message.contains(".schedlab-tmp"), "{message}");
    fs::remove_dir_all(&dir).ok();
}
