//! The binary's behaviour on bad usage: `error: ...`, exit code 2, no panic.

use std::process::{Command, Output};

fn pathwise(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathwise")).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn version_and_help() {
    let v = pathwise(&["--version"]);
    assert!(v.status.success());
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("pathwise "));
    let h = pathwise(&["gen", "--help"]);
    let text = String::from_utf8_lossy(&h.stdout);
    assert!(text.contains("--precondition") && text.contains("--max-array-len"), "{text}");
}

#[test]
fn bad_options_exit_2() {
    for args in [
        vec!["gen", "x.c", "--function", "f", "--k", "0"],
        vec!["gen", "x.c", "--function", "f", "--k", "65"],
        vec!["gen", "x.c", "--function", "f", "--max-array-len", "0"],
        vec!["gen", "x.c", "--function", "f", "--timeout", "-1"],
        vec!["gen", "x.c"],
    ] {
        let o = pathwise(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("error"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn missing_file_is_an_error() {
    let o = pathwise(&["gen", "/nonexistent/x.c", "--function", "f"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: cannot read /nonexistent/x.c"), "{}", stderr(&o));
}

#[test]
fn replay_of_empty_dir_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = pathwise(&["replay", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: no *_tests.c file"), "{}", stderr(&o));
}

/// A main the front end cannot lower is reported by what it uses, not as
/// "declared but has no body" (it stays a declaration internally).
#[test]
fn testcomp_names_the_construct_that_makes_main_unsupported() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("p.c");
    std::fs::write(&program, "extern int __VERIFIER_nondet_int(void);\nint main() {\n  __asm__(\"nop\");\n  return __VERIFIER_nondet_int();\n}\n")
        .unwrap();
    let prp = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/testcomp/coverage-branches.prp");
    let out = dir.path().join("suite");
    let o = pathwise(&["testcomp", program.to_str().unwrap(), "--property", prp, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("p.c:3:3: error: unsupported: inline assembly"), "{err}");
    assert!(!err.contains("has no body"), "{err}");
}
