//! `gen --format cmocka`: the same tests as a CMocka program
//! (`NAME_cmocka.c`) beside the plain file. Each is built with gcc (and
//! clang where installed) under `-Wall -Wextra` and linked with
//! Debian's libcmocka, with no warning of its own; it must pass exactly the tests the plain file
//! passes, report as skipped exactly the error tests the plain file counts
//! as "not observed natively", and fail none.

mod common;

use std::path::Path;
use std::process::Command;

use common::root;

/// gcc, and clang when installed (as `clang` or `clang-16`).
fn compilers() -> Vec<&'static str> {
    let clang = ["clang", "clang-16"].into_iter().find(|c| Command::new(c).arg("--version").output().is_ok());
    std::iter::once("gcc").chain(clang).collect()
}

/// Build `file` (in `dir`) with `compiler` and run it: (exit code, stdout
/// and stderr).
fn build_and_run(compiler: &str, dir: &Path, file: &str, libs: &[&str]) -> (i32, String) {
    let exe = dir.join(format!("{file}.{compiler}.out"));
    let cc = Command::new(compiler)
        .args(["-Wall", "-Wextra", "-I"])
        .arg(dir)
        .arg("-I")
        .arg(root().join("tests/c"))
        .arg(dir.join(file))
        .arg("-o")
        .arg(&exe)
        .args(libs)
        .output()
        .unwrap();
    let diagnostics = String::from_utf8_lossy(&cc.stderr);
    assert!(cc.status.success(), "{compiler} {file}: {diagnostics}");
    // The code under test may warn (errors.c's dead conditions do under
    // clang); the generated file must not.
    let own = |l: &&str| l.contains(&format!("{file}:")) && (l.contains(" warning: ") || l.contains(" error: "));
    assert!(!diagnostics.lines().any(|l| own(&l)), "{compiler} warns on {file}:\n{diagnostics}");
    let run = Command::new(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
    (run.status.code().unwrap_or(-1), text)
}

/// The number just before `marker` in `text` (`"3 passed"`, marker
/// `" passed"`).
fn count_before(text: &str, marker: &str) -> usize {
    let at = text.find(marker).unwrap_or_else(|| panic!("no `{marker}` in:\n{text}"));
    let digits: String =
        text[..at].chars().rev().take_while(char::is_ascii_digit).collect::<String>().chars().rev().collect();
    digits.parse().unwrap()
}

/// The number just after `marker` in `text` (CMocka's `[  PASSED  ] 3
/// test(s).`), 0 when no `marker` is followed by one.
fn count_after(text: &str, marker: &str) -> usize {
    // CMocka also lists each skipped or failed test after the same marker.
    text.match_indices(marker)
        .map(|(at, _)| text[at + marker.len()..].chars().take_while(char::is_ascii_digit).collect::<String>())
        .find(|digits| !digits.is_empty())
        .map_or(0, |digits| digits.parse().unwrap())
}

/// Generate with `--format cmocka`, build and run both files with every
/// compiler; the number of error tests not observable natively (skipped).
fn check(file: &str, function: &str, extra: &[&str]) -> usize {
    let out = tempfile::tempdir().unwrap();
    let args = [&["--k", "2", "--format", "cmocka"][..], extra].concat();
    let (stdout, suite) = common::gen(&format!("tests/c/{file}"), function, &args, out.path());
    let cmocka_file = format!("{function}_cmocka.c");
    assert!(stdout.contains(&cmocka_file), "the summary names the CMocka file:\n{stdout}");
    let n = suite["tests"].as_array().unwrap().len();
    assert!(n > 0, "{function}: no tests");
    let mut skipped = None;
    for compiler in compilers() {
        let (code, plain) = build_and_run(compiler, out.path(), &format!("{function}_tests.c"), &["-lm"]);
        assert_eq!(code, 0, "{function} plain ({compiler}):\n{plain}");
        let passed = count_before(&plain, " passed");
        let unobserved =
            if plain.contains(" error(s) not observed") { count_before(&plain, " error(s) not observed") } else { 0 };
        assert_eq!(passed + unobserved, n, "{function}: {plain}");
        let (code, text) = build_and_run(compiler, out.path(), &cmocka_file, &["-lcmocka", "-lm"]);
        assert_eq!(code, 0, "{function} CMocka ({compiler}):\n{text}");
        assert_eq!(count_after(&text, "[  PASSED  ] "), passed, "{function} ({compiler}):\n{text}");
        assert_eq!(count_after(&text, "[  SKIPPED ] "), unobserved, "{function} ({compiler}):\n{text}");
        assert_eq!(count_after(&text, "[==========] Running "), n, "{function}: every test runs\n{text}");
        assert!(!text.contains("[  FAILED  ]"), "{function} ({compiler}):\n{text}");
        skipped = Some(unobserved);
    }
    skipped.unwrap()
}

#[test]
fn cmocka_suite_of_a_parser() {
    assert_eq!(check("readable.c", "parse_int", &[]), 0);
}

#[test]
fn cmocka_suite_with_error_tests() {
    // A trap (division by zero) and a read past an input array (a guard
    // page) observed natively, an abort, and a signed overflow that plain
    // code does not trap (skipped).
    assert_eq!(check("errors.c", "div_zero", &[]), 0);
    assert_eq!(check("errors.c", "oob_input", &[]), 0);
    assert_eq!(check("errors.c", "aborts", &[]), 0);
    assert_eq!(check("errors.c", "overflow", &[]), 1);
}

#[test]
fn cmocka_suite_with_heap_inputs_and_stubs() {
    assert_eq!(check("lists.c", "insert_sorted", &[]), 0);
    assert_eq!(check("externs.c", "sensor", &["--external-all"]), 0);
}

#[test]
fn without_format_no_cmocka_file() {
    let out = tempfile::tempdir().unwrap();
    common::gen("tests/c/errors.c", "aborts", &["--k", "1"], out.path());
    assert!(!out.path().join("aborts_cmocka.c").exists());
    assert!(out.path().join("aborts_tests.c").exists());
}
