//! Runs that end honestly (issue 28): an unwritable `--out` found before
//! the search, exit codes that tell a complete run from one a limit or a
//! signal stopped and from bad input, `--fail-on errors`, a closed stdout
//! that is not "an internal error", clear messages for a directory given
//! as FILE and a negative `--k`, `setjmp`/`longjmp` refused, and suites a
//! developer can commit: several in one directory replayed together, no
//! absolute path in their files, and a replay that leaves them untouched.

mod common;

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SOURCE: &str = "int sign(int x) {
    if (x > 0) return 1;
    if (x < 0) return -1;
    return 0;
}

int clamp(int x, int lo, int hi) {
    if (lo > hi) return lo;
    if (x < lo) return lo;
    if (x > hi) return hi;
    return x;
}

int at(const int *a, int i) {
    return a[i];
}
";

fn pathwise(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathwise")).args(args).current_dir(dir).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A temporary directory holding `src/two.c` (the functions above).
fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("src")).unwrap();
    std::fs::write(tmp.path().join("src/two.c"), SOURCE).unwrap();
    tmp
}

/// `gen` of a function whose search never ends (a hash inverted by a
/// branch) with `--out OUT`: it must fail at once, before the search.
fn gen_hard_into(out: &Path) -> (Output, Duration) {
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", "tests/c/hash_inversion.c", "--function", "hard", "--no-overflow-check", "--out"])
        .arg(out)
        .current_dir(common::root())
        .output()
        .unwrap();
    (o, start.elapsed())
}

fn is_root() -> bool {
    let o = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim() == "0"
}

#[test]
fn an_unwritable_out_is_refused_before_the_search() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("taken");
    std::fs::write(&file, "not a directory").unwrap();
    let cases = [
        (file.clone(), format!("error: cannot write to --out {}: it is a file, not a directory", file.display())),
        (
            file.join("sub/dir"),
            format!(
                "error: cannot write to --out {}: {} is a file, not a directory",
                file.join("sub/dir").display(),
                file.display()
            ),
        ),
    ];
    for (out, message) in cases {
        let (o, took) = gen_hard_into(&out);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).starts_with(&message), "{}", stderr(&o));
        // The search of `hard` does not end: an answer in seconds means it
        // never started.
        assert!(took < Duration::from_secs(20), "took {took:?}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a directory");
    // Root writes anywhere: a permission test means nothing there.
    if is_root() {
        eprintln!("running as root: the read-only directory case is skipped");
        return;
    }
    let ro = tmp.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o555);
    std::fs::set_permissions(&ro, perms).unwrap();
    let (o, took) = gen_hard_into(&ro);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let message = format!("error: cannot write to --out {}: permission denied", ro.display());
    assert!(stderr(&o).starts_with(&message), "{}", stderr(&o));
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

/// 0 complete, 5 a limit (`--max-tests`), 6 `--fail-on errors` with an
/// error test; the suite is written in each case. The help lists them.
#[test]
fn exit_codes_tell_how_the_run_ended() {
    let tmp = project();
    let run = |function: &str, extra: &[&str]| {
        let args = [&["gen", "src/two.c", "--function", function, "--out", "out", "--json"][..], extra].concat();
        let o = pathwise(tmp.path(), &args);
        let suite: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
        (o.status.code(), suite["stop"].as_str().unwrap_or("?").to_string(), suite["tests"].as_array().map(Vec::len))
    };
    assert_eq!(run("clamp", &[]), (Some(0), "complete".into(), Some(4)));
    assert_eq!(run("clamp", &["--max-tests", "2"]), (Some(5), "limit".into(), Some(2)));
    // Without --fail-on an error test is a test like any other.
    let (code, _, _) = run("at", &[]);
    assert_eq!(code, Some(0));
    let (code, stop, tests) = run("at", &["--fail-on", "errors"]);
    assert_eq!((code, stop.as_str()), (Some(6), "complete"));
    assert!(tests.unwrap() >= 2);
    assert!(tmp.path().join("out/at_tests.c").is_file());
    // No error test: 0 even under --fail-on errors.
    assert_eq!(run("sign", &["--fail-on", "errors"]).0, Some(0));
    let help = stdout(&pathwise(tmp.path(), &["--help"]));
    for line in
        ["  0    complete", "  5    stopped by a limit", "  6    --fail-on errors", "  130  stopped by a signal"]
    {
        assert!(help.contains(line), "{line}: {help}");
    }
}

/// `gen ... | head -1`: a closed stdout ends the process quietly (SIGPIPE,
/// as shell tools end), after the files are written; never "internal
/// error ... please report it".
#[test]
fn a_closed_stdout_is_not_an_internal_error() {
    let tmp = project();
    for json in [true, false] {
        let out = tmp.path().join(format!("out-{json}"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pathwise"));
        cmd.args(["gen", "src/two.c", "--function", "clamp", "--out"]).arg(&out).current_dir(tmp.path());
        if json {
            cmd.arg("--json");
        }
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        // The reader is gone before anything is printed.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.signal(), Some(libc_sigpipe()), "{:?}: {}", o.status, stderr(&o));
        assert!(!stderr(&o).contains("internal error"), "{}", stderr(&o));
        for f in ["clamp_tests.c", "clamp_tests.json", "pathwise.h"] {
            assert!(out.join(f).is_file(), "{f} missing");
        }
    }
}

fn libc_sigpipe() -> i32 {
    13
}

#[test]
fn a_directory_as_file_and_a_negative_k_are_named() {
    let tmp = project();
    let o = pathwise(tmp.path(), &["gen", "src", "--function", "sign"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: cannot read src: is a directory"), "{}", stderr(&o));
    for k in [&["--k", "-1"][..], &["--k=-1"], &["-k", "-3"], &["--k", "0"]] {
        let args = [&["gen", "src/two.c", "--function", "sign"][..], k].concat();
        let o = pathwise(tmp.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{k:?}");
        assert!(stderr(&o).contains("k must be a positive integer"), "{k:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("-- -1"), "{}", stderr(&o));
    }
    assert!(!tmp.path().join("pathwise-out").exists(), "nothing written on bad input");
}

/// A function calling `setjmp`/`longjmp` is refused with the call's
/// location, whatever `--external` says: stubs for them gave false error
/// tests (a `longjmp` that returns, "unreachable code").
#[test]
fn setjmp_and_longjmp_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("jump.c"),
        "#include <setjmp.h>\n\nstatic jmp_buf env;\n\nstatic void fail(int code) {\n    longjmp(env, code);\n}\n\n\
         int guarded(int x) {\n    int r = setjmp(env);\n    if (r != 0)\n        return -r;\n    if (x < 0)\n        fail(2);\n    return x;\n}\n",
    )
    .unwrap();
    for extra in [&[][..], &["--external-all"], &["--external", "longjmp"], &["--method", "vc"]] {
        let args = [&["gen", "jump.c", "--function", "guarded"][..], extra].concat();
        let o = pathwise(tmp.path(), &args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains("setjmp/longjmp are not supported"), "{extra:?}: {err}");
        assert!(!err.contains("hint") && !err.contains("`--external"), "{extra:?}: {err}");
        if extra.first() != Some(&"--external") {
            assert!(err.starts_with("error: jump.c:10:12: call to `_setjmp`"), "{extra:?}: {err}");
        }
    }
    assert!(!tmp.path().join("pathwise-out").exists());
}

/// Every file of `dir` (recursively) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                stack.push(p);
                out.insert(format!("{name}/"), Vec::new());
            } else {
                out.insert(name, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Two functions generated into the default `./pathwise-out`: `replay`
/// builds and runs both (before: "several test files ... keep one per
/// directory"), in scratch directories, leaving the suite's files as they
/// were; no emitted file names the machine's absolute paths, so the
/// project moved elsewhere replays as well.
#[test]
fn several_suites_in_one_directory_replay_and_stay_as_they_were() {
    let tmp = project();
    for function in ["sign", "clamp"] {
        let o = pathwise(tmp.path(), &["gen", "src/two.c", "--function", function]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    }
    let suites = tmp.path().join("pathwise-out");
    let abs = [tmp.path().to_path_buf(), tmp.path().canonicalize().unwrap()];
    let before = snapshot(&suites);
    assert_eq!(before.len(), 5, "{:?}", before.keys());
    for (name, bytes) in &before {
        let text = String::from_utf8_lossy(bytes);
        for a in &abs {
            assert!(!text.contains(a.to_str().unwrap()), "{name} names {}", a.display());
        }
    }
    let json: serde_json::Value = serde_json::from_slice(&before["sign_tests.json"]).unwrap();
    assert_eq!(json["source"], "../src/two.c");
    assert!(String::from_utf8_lossy(&before["sign_tests.c"]).contains("cc -I. -I../src sign_tests.c"));
    let o = pathwise(tmp.path(), &["replay", "pathwise-out"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    for line in [
        "== clamp_tests.c ==\n4 passed, 0 failed",
        "== sign_tests.c ==\n3 passed, 0 failed",
        "2 suites replayed; none failed",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    assert_eq!(text.matches("coverage agrees").count(), 2, "{text}");
    assert_eq!(snapshot(&suites), before, "replay changed the suite's directory");

    // The project elsewhere (another machine): it replays from there.
    let moved = tempfile::tempdir().unwrap();
    for (dir, file) in [
        ("src", "two.c"),
        ("pathwise-out", "sign_tests.c"),
        ("pathwise-out", "sign_tests.json"),
        ("pathwise-out", "pathwise.h"),
    ] {
        std::fs::create_dir_all(moved.path().join(dir)).unwrap();
        std::fs::copy(tmp.path().join(dir).join(file), moved.path().join(dir).join(file)).unwrap();
    }
    drop(tmp);
    let o = pathwise(moved.path(), &["replay", "pathwise-out"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("3 passed, 0 failed"), "{}", stdout(&o));
}

/// One failing suite among several makes `replay` fail, and names it.
#[test]
fn replay_of_several_suites_names_the_failing_one() {
    let tmp = project();
    for function in ["sign", "clamp"] {
        assert_eq!(pathwise(tmp.path(), &["gen", "src/two.c", "--function", function]).status.code(), Some(0));
    }
    // The code changed after the suites were generated: sign(0) is now 7.
    let changed = SOURCE.replacen("return 0;", "return 7;", 1);
    std::fs::write(tmp.path().join("src/two.c"), changed).unwrap();
    let o = pathwise(tmp.path(), &["replay", "pathwise-out"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
    assert!(text.contains("== sign_tests.c ==\ntest "), "{text}");
    assert!(text.contains("2 passed, 1 failed"), "{text}");
    assert!(text.contains("2 suites replayed; failing: sign"), "{text}");
}

/// In `testcomp`, a run that stops at what the engine does not model is
/// still a test of the inputs it read: natively the program goes on
/// past that point, and Test-Comp counts what it covers.
#[test]
fn a_testcomp_run_cut_short_by_an_unsupported_construct_is_a_test() {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["testcomp", "tests/c/cut_short_task.c", "--property", "tests/testcomp/coverage-branches.prp", "--out"])
        .arg(out.path())
        .current_dir(common::root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&o.stderr));
    // `x > 2`, and the run that stopped at the `printf`.
    assert!(text.contains("pathwise testcomp: 2 tests"), "{text}");
    assert!(text.contains("cut_short_task.c:12:5: printf conversion `%p` is not modelled"), "{text}");
    let cases = std::fs::read_dir(out.path()).unwrap().filter_map(Result::ok);
    let n = cases.filter(|e| e.file_name().to_string_lossy().starts_with("testcase")).count();
    assert_eq!(n, 2);
}
