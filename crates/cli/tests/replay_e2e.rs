//! End to end: a hand-built suite written by `gen`'s output writer, then
//! replayed with gcc and gcov; measured coverage must match the prediction.

use std::path::Path;

use pathwise_cli::gen::write_outputs;
use pathwise_cli::replay::{replay, ReplayOptions};
use pathwise_engine::suite::{
    Coverage, FunctionCoverage, InputValue, Outcome, PathStep, Stats, StopReason, TestCase, TestSuite,
};
use pathwise_ir::{IntTy, Loc, Shape, SrcVar, Type};

const SOURCE: &str = "\
int classify(int x) {
    if (x < 0)
        return -1;
    if (x == 0)
        return 0;
    return 1;
}
";

fn int(name: &str) -> SrcVar {
    SrcVar {
        name: name.into(),
        c_scalar: "int".into(),
        scalar: IntTy { ty: Type::I32, signed: true },
        shape: Shape::Scalar,
        cty: None,
    }
}

fn step(line: u32, taken: bool) -> PathStep {
    PathStep { func: "classify".into(), loc: Loc { file: 0, line, col: 9 }, taken, loop_iter: None }
}

fn test(id: usize, x: i128, ret: i128, path: Vec<PathStep>) -> TestCase {
    TestCase {
        id,
        inputs: vec![InputValue::Scalar(x)],
        stdin: None,
        stdout: None,
        outcome: Outcome::Returned,
        ret: Some(ret),
        array_outputs: vec![None],
        global_outputs: vec![],
        path,
        nondets: Vec::new(),
        nondet_types: Vec::new(),
        heap_in: Vec::new(),
        heap_out: Vec::new(),
        ret_pointer: None,
        calls: vec![],
        coverage: vec![],
        cost: vec![],
        same_error_paths: 0,
        failed_allocations: Vec::new(),
    }
}

/// Tests for x < 0 and x > 0 (x == 0 deliberately missing).
fn suite(lines_covered: Vec<u32>, second_ret: i128) -> TestSuite {
    TestSuite {
        function: "classify".into(),
        precondition: None,
        postcondition: None,
        k: 2,
        criterion: pathwise_engine::config::Criterion::KPath,
        params: vec![int("x")],
        ret: Some(int("")),
        enums: Vec::new(),
        globals: vec![],
        files: vec!["classify.c".into()],
        tests: vec![test(1, -5, -1, vec![step(2, true)]), test(2, 7, second_ret, vec![step(2, false), step(4, false)])],
        stats: Stats { tests: 2, feasible_paths: 2, ..Stats::default() },
        coverage: Coverage {
            functions: vec![FunctionCoverage {
                name: "classify".into(),
                file: 0,
                lines: vec![2, 3, 4, 5, 6],
                lines_covered,
                branches: 4,
                branches_covered: 3,
                branch_lines: vec![(2, 2, 2), (4, 2, 1)],
            }],
        },
        stop: StopReason::Complete,
        check_overflow: true,
        structs: vec![],
        externals: vec![],
        unreached_functions: vec![],
        contracts: vec![],
        source: None,
        feature_macros: Vec::new(),
        goals: Default::default(),
        bound: Default::default(),
    }
}

fn setup(s: &TestSuite) -> (tempfile::TempDir, ReplayOptions) {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("classify.c"), SOURCE).unwrap();
    let out = dir.path().join("out");
    write_outputs(s, &src.join("classify.c"), Default::default(), &out).unwrap();
    let opts = ReplayOptions {
        dir: out.clone(),
        include_dirs: vec![out],
        defines: vec![],
        extra_args: vec![],
        run_timeout: std::time::Duration::from_secs(30),
    };
    (dir, opts)
}

fn assert_clean(dir: &Path) {
    let files: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(files.iter().all(|f| !f.ends_with(".gcov.json.gz")), "{files:?}");
}

#[test]
fn replay_measures_and_agrees() {
    let (_tmp, opts) = setup(&suite(vec![2, 3, 4, 6], 1));
    let outcome = replay(&opts).unwrap();
    assert_eq!((outcome.passed, outcome.failed, outcome.exit_ok), (2, 0, true));
    let row = &outcome.rows[0];
    // gcov also counts line 1 (the function's entry): 5 of 6 lines ran.
    assert_eq!(row.measured_lines, Some((5, 6)));
    assert_eq!(row.predicted_lines, (4, 5));
    assert_eq!(row.measured_branches, Some((3, 4)));
    assert!(outcome.disagreements.is_empty(), "{:?}", outcome.disagreements);
    assert!(outcome.is_success());
    // A second replay starts from fresh counts (stale .gcda removed).
    let again = replay(&opts).unwrap();
    assert_eq!(again.rows, outcome.rows);
    assert_clean(&opts.dir);
    // The command prints the table and exits 0.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise")).arg("replay").arg(&opts.dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    println!("{stdout}");
    assert_eq!(o.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("2 passed, 0 failed") && stdout.contains("coverage agrees"), "{stdout}");
}

#[test]
fn replay_reports_disagreement_and_failures() {
    // Predicts line 5 covered (it is not) and a wrong return value for test 2.
    let (_tmp, opts) = setup(&suite(vec![2, 3, 4, 5, 6], 2));
    let outcome = replay(&opts).unwrap();
    assert_eq!((outcome.passed, outcome.failed, outcome.exit_ok), (1, 1, false));
    assert_eq!(outcome.failures, vec!["test 2: return expected 2 got 1".to_string()]);
    assert_eq!(outcome.disagreements, vec!["classify: line 5 predicted covered, gcov says never executed".to_string()]);
    assert!(!outcome.is_success());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise")).arg("replay").arg(&opts.dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    println!("{stdout}");
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("coverage disagrees:\n  classify: line 5"), "{stdout}");
}

#[test]
fn replay_needs_generated_files() {
    let dir = tempfile::tempdir().unwrap();
    let opts = ReplayOptions {
        dir: dir.path().to_path_buf(),
        include_dirs: vec![],
        defines: vec![],
        extra_args: vec![],
        run_timeout: std::time::Duration::from_secs(5),
    };
    let err = replay(&opts).unwrap_err().to_string();
    assert!(err.contains("no *_tests.c file"), "{err}");
}
