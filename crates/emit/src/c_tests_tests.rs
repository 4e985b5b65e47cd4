//! Tests of the C emitter: hand-built suites compiled with gcc and run.

use std::path::Path;
use std::process::Command;

use pathwise_ir::{IntTy, Loc, Shape, SrcVar, Type};
use pathwise_suite::{Coverage, GlobalInfo, InputValue, Outcome, PathStep, Stats, StopReason, TestCase, TestSuite};

use super::write_c_tests;

pub(crate) fn var(name: &str, c: &str, ty: Type, signed: bool, shape: Shape) -> SrcVar {
    SrcVar { name: name.into(), c_scalar: c.into(), scalar: IntTy { ty, signed }, shape, cty: None }
}

pub(crate) fn int(name: &str) -> SrcVar {
    var(name, "int", Type::I32, true, Shape::Scalar)
}

pub(crate) fn suite(function: &str, params: Vec<SrcVar>, ret: Option<SrcVar>, globals: Vec<GlobalInfo>) -> TestSuite {
    TestSuite {
        function: function.into(),
        precondition: None,
        postcondition: None,
        k: 2,
        criterion: pathwise_suite::Criterion::KPath,
        params,
        ret,
        enums: Vec::new(),
        globals,
        files: vec!["src/f.c".into()],
        tests: Vec::new(),
        stats: Stats::default(),
        coverage: Coverage::default(),
        stop: StopReason::Complete,
        check_overflow: true,
        structs: Vec::new(),
        externals: Vec::new(),
        unreached_functions: Vec::new(),
        contracts: Vec::new(),
        source: None,
        feature_macros: Vec::new(),
        goals: Default::default(),
        bound: Default::default(),
    }
}

pub(crate) fn case(id: usize, inputs: Vec<InputValue>, ret: Option<i128>) -> TestCase {
    TestCase {
        id,
        inputs,
        stdin: None,
        stdout: None,
        outcome: Outcome::Returned,
        ret,
        array_outputs: Vec::new(),
        global_outputs: Vec::new(),
        heap_in: Vec::new(),
        heap_out: Vec::new(),
        ret_pointer: None,
        calls: Vec::new(),
        coverage: Vec::new(),
        cost: Vec::new(),
        same_error_paths: 0,
        failed_allocations: Vec::new(),
        path: vec![
            PathStep { func: "f".into(), loc: Loc { file: 0, line: 3, col: 9 }, taken: true, loop_iter: None },
            PathStep {
                func: "g".into(),
                loc: Loc { file: 0, line: 7, col: 5 },
                taken: false,
                loop_iter: Some((Loc { file: 0, line: 6, col: 5 }, 2)),
            },
        ],
        nondets: Vec::new(),
        nondet_types: Vec::new(),
    }
}

/// Write `source` and the test file for `suite` into a temp dir, compile with
/// warnings as errors, run; returns (exit success, stdout).
pub(crate) fn compile_and_run(source: &str, suite: &TestSuite) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("code.c"), source).unwrap();
    let tests = write_c_tests(suite, "code.c");
    std::fs::write(dir.path().join("code_tests.c"), &tests).unwrap();
    compile(dir.path(), &tests);
    let run = Command::new(dir.path().join("a.out")).output().unwrap();
    (run.status.success(), String::from_utf8_lossy(&run.stdout).into_owned())
}

fn compile(dir: &Path, tests: &str) {
    let out = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-o", "a.out", "code_tests.c"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gcc failed:\n{}\n--- generated file ---\n{tests}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn add_one_pass_one_fail() {
    let source = "int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2); }\n";
    let mut s = suite("add", vec![int("a"), int("b")], Some(int("")), vec![]);
    s.tests.push(case(1, vec![InputValue::Scalar(2), InputValue::Scalar(3)], Some(5)));
    s.tests.push(case(2, vec![InputValue::Scalar(1), InputValue::Scalar(1)], Some(3)));
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(!ok, "a failing test must make the exit status non-zero");
    assert!(stdout.contains("test 2: return expected 3 got 2"), "{stdout}");
    assert!(stdout.contains("1 passed, 1 failed"), "{stdout}");
}

#[test]
fn comment_shows_path_and_inputs() {
    let mut s = suite("f", vec![int("a"), var("t", "int", Type::I32, true, Shape::Pointer)], Some(int("")), vec![]);
    s.tests.push(case(1, vec![InputValue::Scalar(-4), InputValue::Array(vec![1, 2])], Some(0)));
    let text = write_c_tests(&s, "f.c");
    assert!(
        text.contains("/* test 1\n * path: f.c:3 T, f.c:7 F [it 2] (in g)\n * inputs: a = -4, t = {1, 2}\n */"),
        "{text}"
    );
    assert!(text.contains("#define main pathwise_original_main\n#include \"f.c\"\n#undef main\n"));
}

#[test]
fn extreme_values_compile_cleanly_and_compare() {
    let source = "int ga; unsigned gb; long long gc; unsigned char gd; _Bool ge; signed char gg; short gh;\n\
        unsigned long long ext(int a, unsigned b, long long c, unsigned char d, _Bool e,\n\
                               unsigned long long f, signed char g, short h) {\n\
            ga = a; gb = b; gc = c; gd = d; ge = e; gg = g; gh = h; return f;\n}\n";
    let params = vec![
        int("a"),
        var("b", "unsigned", Type::I32, false, Shape::Scalar),
        var("c", "long long", Type::I64, true, Shape::Scalar),
        var("d", "unsigned char", Type::I8, false, Shape::Scalar),
        var("e", "_Bool", Type::I1, false, Shape::Scalar),
        var("f", "unsigned long long", Type::I64, false, Shape::Scalar),
        var("g", "signed char", Type::I8, true, Shape::Scalar),
        var("h", "short", Type::I16, true, Shape::Scalar),
    ];
    let globals: Vec<GlobalInfo> = ["ga", "gb", "gc", "gd", "ge", "gg", "gh"]
        .iter()
        .zip(params.iter().enumerate().filter(|(i, _)| *i != 5).map(|(_, p)| p))
        .map(|(n, p)| GlobalInfo { src: SrcVar { name: n.to_string(), ..p.clone() }, init: vec![0] })
        .collect();
    let ret = var("", "unsigned long long", Type::I64, false, Shape::Scalar);
    let mut s = suite("ext", params, Some(ret), globals);
    let mins = [i32::MIN as i128, 0, i64::MIN as i128, 0, 0, 0, -128, i16::MIN as i128];
    let maxs = [i32::MAX as i128, u32::MAX as i128, i64::MAX as i128, 255, 1, u64::MAX as i128, 127, 32767];
    // The same maxima in another bit-equivalent spelling: -1 for all-ones.
    let wrapped = [i32::MAX as i128, -1, i64::MAX as i128, -1, 1, -1, 127, 32767];
    for (id, vals) in [mins, maxs, wrapped].iter().enumerate() {
        let mut t = case(id + 1, vals.iter().map(|&v| InputValue::Scalar(v)).collect(), Some(vals[5]));
        t.global_outputs = [0, 1, 2, 3, 4, 6, 7].iter().map(|&i| vec![vals[i]]).collect();
        s.tests.push(t);
    }
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(ok && stdout.contains("3 passed, 0 failed"), "{stdout}");
}

#[test]
fn zero_length_and_output_arrays() {
    let source = "int sum_inc(int *t, int n) { int s = 0; for (int i = 0; i < n; i++) s += t[i]++; return s; }\n";
    let params = vec![var("t", "int", Type::I32, true, Shape::Pointer), int("n")];
    let mut s = suite("sum_inc", params, Some(int("")), vec![]);
    let mut empty = case(1, vec![InputValue::Array(vec![]), InputValue::Scalar(0)], Some(0));
    empty.array_outputs = vec![Some(vec![]), None];
    let mut three = case(2, vec![InputValue::Array(vec![1, -2, 3]), InputValue::Scalar(3)], Some(2));
    three.array_outputs = vec![Some(vec![2, -1, 4]), None];
    let mut wrong = case(3, vec![InputValue::Array(vec![5]), InputValue::Scalar(1)], Some(5));
    wrong.array_outputs = vec![Some(vec![5]), None];
    s.tests.extend([empty, three, wrong]);
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(!ok);
    assert!(stdout.contains("test 3: t[0] expected 5 got 6"), "{stdout}");
    assert!(stdout.contains("2 passed, 1 failed"), "{stdout}");
}

#[test]
fn globals_are_reset_between_tests() {
    let source = "int counter; int hist[3] = {1, 2, 3}; static unsigned char grid[2][2] = {{9, 8}, {7, 6}};\n\
        const int limit = 3;\n\
        int bump(int i) { counter++; hist[i]++; grid[1][1]++; return counter + limit; }\n";
    let globals = vec![
        GlobalInfo { src: int("counter"), init: vec![0] },
        GlobalInfo { src: var("hist", "int", Type::I32, true, Shape::Array(3)), init: vec![1, 2, 3] },
        GlobalInfo { src: var("grid", "unsigned char", Type::I8, false, Shape::Array(4)), init: vec![9, 8, 7, 6] },
    ];
    // A parameter named like a global must not hide it from the checks.
    let mut s = suite("bump", vec![int("i")], Some(int("")), globals);
    s.params[0].name = "counter".into();
    for (id, i) in [(1usize, 0usize), (2, 2)] {
        let mut t = case(id, vec![InputValue::Scalar(i as i128)], Some(4));
        let mut hist = vec![1, 2, 3];
        hist[i] += 1;
        t.global_outputs = vec![vec![1], hist, vec![9, 8, 7, 7]];
        s.tests.push(t);
    }
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(ok && stdout.contains("2 passed, 0 failed"), "{stdout}");
}

#[test]
fn void_function_and_main_under_test() {
    let source = "int g;\nint main(void) { g = 7; return 0; }\nvoid set(int v) { g = v; }\n";
    let mut s = suite("main", vec![], Some(int("")), vec![GlobalInfo { src: int("g"), init: vec![0] }]);
    let mut t = case(1, vec![], Some(0));
    t.global_outputs = vec![vec![7]];
    s.tests.push(t);
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(ok && stdout.contains("1 passed, 0 failed"), "{stdout}");

    let mut s = suite("set", vec![int("v")], None, vec![GlobalInfo { src: int("g"), init: vec![0] }]);
    let mut t = case(1, vec![InputValue::Scalar(-3)], None);
    t.global_outputs = vec![vec![-3]];
    s.tests.push(t);
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(ok && stdout.contains("1 passed, 0 failed"), "{stdout}");
}

#[test]
fn empty_suite_compiles() {
    let s = suite("add", vec![int("a")], Some(int("")), vec![]);
    let (ok, stdout) = compile_and_run("int add(int a) { return a; }\n", &s);
    assert!(ok && stdout.contains("0 passed, 0 failed"), "{stdout}");
}

/// A memory-leak test returns, checks its outputs and observes natively
/// that the leaked allocation is still live: a test claiming a leak that
/// the code frees fails.
#[test]
fn leak_tests_count_allocations() {
    let source = "#include <stdlib.h>\nint f(int x)\n{\n    int *p = malloc(sizeof *p);\n    *p = x;\n    \
                  if (x)\n        return *p;\n    free(p);\n    return 0;\n}\n";
    let mut s = suite("f", vec![int("x")], Some(int("")), vec![]);
    let leak = pathwise_suite::ErrorInfo {
        kind: pathwise_suite::ErrorKind::MemoryLeak { allocation: 1, bytes: 4 },
        loc: Loc { file: 0, line: 4, col: 14 },
        message: "4 byte(s) allocated here are unreachable when `f` returns".into(),
    };
    for (id, x) in [(1, 7), (2, 0)] {
        let mut t = case(id, vec![InputValue::Scalar(x)], Some(x));
        t.outcome = Outcome::Error(leak.clone());
        s.tests.push(t);
    }
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(!ok, "{stdout}");
    assert!(
        stdout.contains("test 2: expected allocation 1 (4 bytes at src/f.c:4:14) to be leaked, but it was freed"),
        "{stdout}"
    );
    assert!(stdout.contains("1 passed, 1 failed"), "{stdout}");
}

/// Body-less functions only other code calls are weak (the file links
/// without them); an error test whose undefined behaviour does not trap is
/// counted apart, and the gcov code is compiled only under PATHWISE_GCOV.
#[test]
fn weak_declarations_and_errors_not_observed() {
    let source = "int elsewhere(int);\nint unused(int x) { return elsewhere(x); }\n\
                  int f(int x) { return x + 2147483647; }\n";
    let mut s = suite("f", vec![int("x")], Some(int("")), vec![]);
    s.unreached_functions = vec!["elsewhere".into()];
    s.tests.push(case(1, vec![InputValue::Scalar(0)], Some(2147483647)));
    let mut t = case(2, vec![InputValue::Scalar(1)], None);
    t.outcome = Outcome::Error(pathwise_suite::ErrorInfo {
        kind: pathwise_suite::ErrorKind::SignedOverflow,
        loc: Loc { file: 0, line: 3, col: 25 },
        message: "signed overflow".into(),
    });
    s.tests.push(t);
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains("#pragma weak elsewhere\n"), "{text}");
    assert!(text.contains("#ifdef PATHWISE_GCOV\nextern void __gcov_dump(void);\n#endif\n"), "{text}");
    assert!(
        text.contains(
            "pathwise_run(2, pathwise_test_f_signed_overflow_line_3, PATHWISE_EXPECT_UB, 0, \"signed-overflow at src/f.c:3:25\")"
        ),
        "{text}"
    );
    // Without -fsanitize the overflow wraps: reported, neither passed nor failed.
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(ok, "{stdout}");
    assert!(
        stdout.contains("test 2: error not observed natively: expected signed-overflow at src/f.c:3:25"),
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 0 failed, 1 error(s) not observed natively\n"), "{stdout}");
}

/// A pointer parameter into another parameter's array (`f(end, s)`, `end`
/// into the array of `s`) is that array plus an offset, declared after
/// every array; its own array is not built, and the array's output holds
/// the writes through it.
#[test]
fn pointers_into_another_parameters_array() {
    let source = "int fill(char *end, char *s) { int n = 0; while (s < end) { *s++ = 'x'; n++; } return n; }\n";
    let char_ptr = |name: &str| var(name, "char", Type::I8, true, Shape::Pointer);
    let mut s = suite("fill", vec![char_ptr("end"), char_ptr("s")], Some(int("")), vec![]);
    let end = |offset| InputValue::Pointer(pathwise_suite::HeapValue::Param { param: 1, offset });
    let mut two = case(1, vec![end(2), InputValue::Array(vec![0, 0, 7])], Some(2));
    two.array_outputs = vec![None, Some(vec![120, 120, 7])];
    let mut none = case(2, vec![end(0), InputValue::Array(vec![])], Some(0));
    none.array_outputs = vec![None, Some(vec![])];
    s.tests.extend([two, none]);
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains("    char s[3] = {0, 0, 7};\n    char *end = s + 2;\n"), "{text}");
    assert!(text.contains(" * inputs: end = s + 2, s = {0, 0, 7}\n"), "{text}");
    assert!(text.contains("    char *end = s;\n"), "{text}");
    let (ok, stdout) = compile_and_run(source, &s);
    assert!(ok, "{stdout}");
    assert!(stdout.contains("2 passed, 0 failed"), "{stdout}");
}

/// Tests are named for what they check, uniquely, and an enumeration's
/// values are its constants' names (a cast for a value no constant has).
#[test]
fn test_names_and_enumeration_constants() {
    let light = |name: &str| SrcVar {
        c_scalar: "enum light".into(),
        ..var(name, "unsigned int", Type::I32, false, Shape::Scalar)
    };
    let mut s = suite("next", vec![light("l")], Some(light("")), vec![]);
    s.enums = vec![pathwise_ir::EnumDef {
        c_name: "enum light".into(),
        constants: vec![("RED".into(), 0), ("GREEN".into(), 2)],
    }];
    s.tests.push(case(1, vec![InputValue::Scalar(2)], Some(0)));
    s.tests.push(case(2, vec![InputValue::Scalar(7)], Some(0)));
    s.tests.push(case(3, vec![InputValue::Scalar(0)], Some(9)));
    let mut t = case(4, vec![InputValue::Scalar(1)], None);
    t.outcome = Outcome::Error(pathwise_suite::ErrorInfo {
        kind: pathwise_suite::ErrorKind::Exit(3),
        loc: Loc { file: 0, line: 12, col: 5 },
        message: "exit".into(),
    });
    s.tests.push(t);
    assert_eq!(
        crate::describe::test_names(&s),
        [
            "pathwise_test_next_returns_RED",
            "pathwise_test_next_returns_RED_2",
            "pathwise_test_next_returns_9",
            "pathwise_test_next_exit_3_line_12"
        ]
    );
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains("    enum light l = GREEN;\n"), "{text}");
    assert!(text.contains("    enum light l = (enum light)7U;\n"), "{text}");
    assert!(text.contains("pathwise_check_unsigned(1, \"return\", RED, pathwise_ret)"), "{text}");
    assert!(text.contains("static int pathwise_test_next_returns_RED_2(void)"), "{text}");
    let mut u = suite("find", vec![int("x")], Some(int("")), vec![]);
    u.tests.push(case(1, vec![InputValue::Scalar(0)], Some(-1)));
    assert_eq!(crate::describe::test_names(&u), ["pathwise_test_find_returns_minus_1"]);
}
