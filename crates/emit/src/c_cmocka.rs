//! The CMocka form of a suite (`NAME_cmocka.c`, `gen --format cmocka`).
//!
//! The file is the plain test file (`c_tests.rs`) with another `main`: the
//! same test functions and the same runner (each test in its own process,
//! so that a crash, an `exit` or an expected error is judged as in the
//! plain file), and one CMocka test per generated test, named for what it
//! checks, run by `cmocka_run_group_tests_name`. A team that keeps its unit
//! tests in CMocka gets Pathwise's tests in its own runner and reports
//! (CMocka's TAP, subunit and JUnit XML outputs, `CMOCKA_MESSAGE_OUTPUT`).
//!
//! `<cmocka.h>` is included last, after the code under test and the test
//! functions: its function-like macros (`fail()`, `skip()`, `mock()`,
//! `check_expected()`...) would otherwise rewrite calls of the code's own
//! functions of those names.

use std::fmt::Write as _;

use pathwise_suite::TestSuite;

use crate::c_tests::{error_text, expectation};

/// The prefix of generated test function names, left out of CMocka's test
/// names (the group is the function under test).
const TEST_PREFIX: &str = "pathwise_test_";

/// CMocka's headers, in the order `<cmocka.h>` requires.
const INCLUDES: &str = "/* CMocka, last: its macros (fail, skip, mock...) must not rename the code's functions. */\n\
#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <cmocka.h>\n\n";

/// One CMocka test per generated test (`names` are the test functions'
/// names), then `main`.
pub(crate) fn write_cmocka_main(out: &mut String, suite: &TestSuite, names: &[String]) {
    out.push_str(INCLUDES);
    if suite.tests.is_empty() {
        // C has no empty array: nothing to run is a passing program.
        out.push_str("int main(void)\n{\n    pathwise_printf(\"no tests\\n\");\n    return 0;\n}\n");
        return;
    }
    for (test, name) in suite.tests.iter().zip(names) {
        let (expect, value) = expectation(test);
        let error = error_text(suite, test);
        let short = name.strip_prefix(TEST_PREFIX).unwrap_or(name);
        let _ = writeln!(
            out,
            "static void pathwise_cmocka_{short}(void **state)\n{{\n    (void)state;\n    \
             switch (pathwise_run({id}, {name}, {expect}, {value}, {error})) {{\n    \
             case 0:\n        break;\n    \
             case 2: /* the expected error is not observable natively (message above) */\n        skip();\n        break;\n    \
             default:\n        fail_msg(\"test {id} failed (see the message above)\");\n    }}\n}}\n",
            id = test.id
        );
    }
    out.push_str("int main(void)\n{\n    const struct CMUnitTest pathwise_tests[] = {\n");
    for name in names {
        let short = name.strip_prefix(TEST_PREFIX).unwrap_or(name);
        let _ = writeln!(out, "        {{ .name = \"{short}\", .test_func = pathwise_cmocka_{short} }},");
    }
    let group = crate::literal::c_string_literal(suite.function.as_bytes());
    let _ = writeln!(out, "    }};\n    return cmocka_run_group_tests_name({group}, pathwise_tests, NULL, NULL);\n}}");
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use pathwise_suite::{ErrorInfo, ErrorKind, InputValue, Outcome};

    use super::*;
    use crate::c_tests::tests::{case, int, suite};

    /// `absval` with a failing test, a passing one and an expected error.
    fn absval_suite() -> TestSuite {
        let mut s = suite("absval", vec![int("x")], Some(int("")), vec![]);
        s.tests.push(case(1, vec![InputValue::Scalar(-3)], Some(3)));
        s.tests.push(case(2, vec![InputValue::Scalar(4)], Some(5)));
        let mut crash = case(3, vec![InputValue::Scalar(0)], None);
        crash.outcome = Outcome::Error(ErrorInfo {
            kind: ErrorKind::Abort,
            message: "abort() called".into(),
            loc: Default::default(),
        });
        s.tests.push(crash);
        s
    }

    const SOURCE: &str = "#include <stdlib.h>\n\
        int absval(int x) { if (x == 0) abort(); return x < 0 ? -x : x; }\n\
        /* Names CMocka's macros take: the code's own functions keep them. */\n\
        static int skip(int n) { return n; }\nint fail(void) { return skip(0); }\n";

    #[test]
    fn cmocka_runs_each_test_in_its_own_process_and_reports_it() {
        let s = absval_suite();
        let text = crate::write_cmocka_tests(&s, "code.c");
        let cmocka = text.find("#include <cmocka.h>").unwrap();
        assert!(text.find("#include \"code.c\"").unwrap() < cmocka);
        assert!(text.rfind("static int pathwise_test_").unwrap() < cmocka);
        assert!(text.contains("absval_cmocka.c -lcmocka -lm"), "{text}");
        // clang is installed as `clang-16` on Debian (CI installs it).
        let clang = ["clang", "clang-16"].into_iter().find(|c| Command::new(c).arg("--version").output().is_ok());
        for compiler in std::iter::once("gcc").chain(clang) {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("code.c"), SOURCE).unwrap();
            std::fs::write(dir.path().join("absval_cmocka.c"), &text).unwrap();
            let build = Command::new(compiler)
                .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-o", "a.out", "absval_cmocka.c", "-lcmocka"])
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert!(build.status.success(), "{compiler}: {}\n{text}", String::from_utf8_lossy(&build.stderr));
            let run = Command::new(dir.path().join("a.out")).output().unwrap();
            let stdout = String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
            // CMocka's exit status is the number of failed tests.
            assert_eq!(run.status.code(), Some(1), "{stdout}");
            let names = crate::describe::test_names(&s);
            let short = |i: usize| names[i].strip_prefix(TEST_PREFIX).unwrap().to_string();
            assert!(stdout.contains(&format!("[       OK ] {}", short(0))), "{stdout}");
            assert!(stdout.contains(&format!("[  FAILED  ] {}", short(1))), "{stdout}");
            assert!(stdout.contains(&format!("[       OK ] {}", short(2))), "the abort is expected: {stdout}");
            assert!(stdout.contains("test 2: return expected 5 got 4"), "{stdout}");
            assert!(stdout.contains("[  PASSED  ] 2 test(s)."), "{stdout}");
        }
    }
}
