//! The floating-point checks of `gen --check` / `--no-check` (issue 26):
//! overflow (finite operands, an infinite result) and division by zero are
//! errors only when asked for, the undefined float-to-int conversion is one
//! by default; every error test stops natively where the engine's run did
//! (the test enables the exception's trap), at -O0 and -O2, with gcc and
//! clang, and `replay` agrees with gcov.
//!
//! The figures, from the source of tests/c/float_checks.c:
//! - `scale`: `x * y` overflows (an error), else the product is `> 1` or
//!   not (`r / 2` cannot overflow): 2 + 1 error; without the checks 2.
//! - `ratio`: `num / den` divides by zero, overflows (a tiny divisor), or
//!   neither: 1 + 2 errors; without the checks 1.
//! - `narrow`: the double is too large for a float, or not: 1 + 1.
//! - `sum_if_small`: `a + 1.0` cannot overflow under the guard; the
//!   guard fails on its first or second comparison (`&&`), and `a + b`
//!   overflows after either: 3 + 1 error (the other path ending there is
//!   folded into it, one error test per site).
//! - `truncate`: by default 1 + 1 `float-cast-overflow`; with `--no-check
//!   float-to-int` 1.

mod common;

use std::path::Path;

const CHECKS: &[&str] = &["--k", "1", "--check", "float-overflow,float-div-by-zero"];

struct Case {
    function: &'static str,
    args: &'static [&'static str],
    returned: usize,
    errors: &'static [(&'static str, u64)],
}

const CASES: &[Case] = &[
    Case { function: "scale", args: CHECKS, returned: 2, errors: &[("float-overflow", 9)] },
    Case { function: "scale", args: &["--k", "1"], returned: 2, errors: &[] },
    Case { function: "ratio", args: CHECKS, returned: 1, errors: &[] },
    Case { function: "ratio", args: &["--k", "1"], returned: 1, errors: &[] },
    Case { function: "narrow", args: CHECKS, returned: 1, errors: &[("float-overflow", 24)] },
    Case { function: "sum_if_small", args: CHECKS, returned: 3, errors: &[("float-overflow", 32)] },
    Case { function: "truncate", args: &["--k", "1"], returned: 1, errors: &[("float-cast-overflow", 38)] },
    Case { function: "truncate", args: &["--k", "1", "--no-check", "float-to-int"], returned: 1, errors: &[] },
];

fn run_case(case: &Case, out: &Path) -> serde_json::Value {
    let (_, suite) = common::gen("tests/c/float_checks.c", case.function, case.args, out);
    suite
}

#[test]
fn checked_float_errors_are_found_and_trap_natively() {
    for case in CASES {
        let out = tempfile::tempdir().unwrap();
        let suite = run_case(case, out.path());
        let what = format!("{} {:?}", case.function, case.args);
        let tests = suite["tests"].as_array().unwrap();
        let returned = tests.iter().filter(|t| t["outcome"] == "returned").count();
        assert_eq!(returned, case.returned, "{what}");
        let mut errors = common::errors(&suite);
        if case.function == "ratio" && case.args == CHECKS {
            // The division's two errors are at one site: each its own kind.
            errors.sort();
            assert_eq!(
                errors,
                vec![("float-division-by-zero".to_string(), 18), ("float-overflow".to_string(), 18)],
                "{what}"
            );
        } else {
            let want: Vec<(String, u64)> = case.errors.iter().map(|(k, l)| (k.to_string(), *l)).collect();
            assert_eq!(errors, want, "{what}");
        }
        assert_eq!(suite["stop"], "complete", "{what}");
        common::replay_passes(out.path(), tests.len(), vec![], true);
        // Overflows trap natively; a division by zero does unless it is
        // `0.0 / 0.0` (the invalid exception), and the undefined conversion
        // only under UBSan: those may be counted apart, never failures.
        let may_not_trap = tests
            .iter()
            .filter(|t| matches!(t["error"]["kind"].as_str(), Some("float-division-by-zero" | "float-cast-overflow")))
            .count();
        for cc in ["gcc", "clang-16"] {
            if which(cc).is_none() {
                continue;
            }
            for opt in ["-O0", "-O2"] {
                let include = common::root().join("tests/c");
                let (code, stdout) = common::build_and_run_with(cc, out.path(), case.function, &include, &[opt, "-lm"]);
                assert_eq!(code, 0, "{what} {cc} {opt}: {stdout}");
                let not_observed = count_not_observed(&stdout);
                assert!(not_observed <= may_not_trap, "{what} {cc} {opt}: {stdout}");
                let passed = tests.len() - not_observed;
                assert!(stdout.contains(&format!("{passed} passed, 0 failed")), "{what} {cc} {opt}: {stdout}");
            }
        }
    }
}

fn count_not_observed(stdout: &str) -> usize {
    stdout.lines().filter(|l| l.contains("error not observed natively")).count()
}

fn which(cc: &str) -> Option<()> {
    std::process::Command::new(cc).arg("--version").output().ok().filter(|o| o.status.success()).map(|_| ())
}

/// Each error test names its exception's trap, and no test without such
/// an error enables one.
#[test]
fn only_overflow_and_division_tests_enable_a_trap() {
    let out = tempfile::tempdir().unwrap();
    let suite = run_case(&CASES[0], out.path());
    let c = std::fs::read_to_string(out.path().join("scale_tests.c")).unwrap();
    let traps = c.matches("pathwise_feenableexcept(0x08);").count();
    assert_eq!(traps, 1, "{c}");
    assert_eq!(common::errors(&suite).len(), 1);
    assert!(!c.contains("pathwise_feenableexcept(0x04)"), "{c}");
}

#[test]
fn contradicting_checks_are_refused() {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", "tests/c/float_checks.c", "--function", "scale", "--k", "1"])
        .args(["--check", "float-overflow", "--no-check", "float-overflow", "--out"])
        .arg(out.path())
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("`--check float-overflow` and `--no-check float-overflow` contradict each other"),
        "{stderr}"
    );
}

/// Past an unchecked out-of-range conversion (`--no-check float-to-int`,
/// `testcomp`) the run goes on with the value gcc's x86-64 code gives: the
/// engine's conversions agree with a native program on every integer type
/// for values in range, out of range, at the boundaries, infinite and NaN.
#[test]
fn conversions_to_integers_have_the_compiled_programs_values() {
    use pathwise_expr::float::eval_fconv;
    use pathwise_expr::{FpConv, FpFmt};
    let values: Vec<f64> = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.0,
        44.9,
        127.5,
        128.0,
        -128.0,
        -129.0,
        200.0,
        -200.0,
        255.0,
        256.0,
        300.0,
        32767.0,
        32768.0,
        -32769.0,
        65535.9,
        65536.0,
        2147483647.0,
        2147483648.0,
        -2147483648.0,
        -2147483649.0,
        4294967295.0,
        4294967296.0,
        1e10,
        -1e10,
        9223372036854774784.0,
        9223372036854775808.0,
        -9223372036854775808.0,
        -9223372036854777856.0,
        18446744073709549568.0,
        18446744073709551616.0,
        1e20,
        -1e20,
        1e300,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::MIN_POSITIVE,
    ];
    let types = [
        ("unsigned char", 8, false),
        ("signed char", 8, true),
        ("unsigned short", 16, false),
        ("short", 16, true),
        ("unsigned int", 32, false),
        ("int", 32, true),
        ("unsigned long", 64, false),
        ("long", 64, true),
    ];
    let mut program = String::from("#include <stdio.h>\n");
    for (fmt_name, fmt_ty) in [("double", "double"), ("float", "float")] {
        program.push_str(&format!("static volatile {fmt_ty} {fmt_name}_values[] = {{"));
        for v in &values {
            program.push_str(&format!("{}, ", c_literal(*v, fmt_name == "float")));
        }
        program.push_str("};\n");
    }
    program.push_str("int main(void)\n{\n    unsigned i;\n");
    for fmt_name in ["double", "float"] {
        program.push_str(&format!("    for (i = 0; i < {}; i++) {{\n", values.len()));
        for (ty, _, _) in &types {
            program.push_str(&format!(
                "        printf(\"%llu\\n\", (unsigned long long)({ty})({ty}){fmt_name}_values[i]);\n"
            ));
        }
        program.push_str("    }\n");
    }
    program.push_str("    return 0;\n}\n");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("conv.c"), &program).unwrap();
    let o = std::process::Command::new("gcc")
        .args(["-O0", "-w", "conv.c", "-o", "conv"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = std::process::Command::new(dir.path().join("conv")).output().unwrap();
    let native: Vec<u64> = String::from_utf8_lossy(&run.stdout).lines().map(|l| l.parse().unwrap()).collect();
    let mut expected = Vec::new();
    for fmt in [FpFmt::F64, FpFmt::F32] {
        for v in &values {
            let bits = if fmt == FpFmt::F32 { u64::from((*v as f32).to_bits()) } else { v.to_bits() };
            for &(_, width, signed) in &types {
                let op = if signed {
                    FpConv::ToSigned { from: fmt, width }
                } else {
                    FpConv::ToUnsigned { from: fmt, width }
                };
                let r = eval_fconv(op, fmt.bits(), bits);
                // As the program prints it: sign-extended for signed types.
                let shown =
                    if signed && width < 64 && r >> (width - 1) & 1 == 1 { r | !((1u64 << width) - 1) } else { r };
                expected.push((fmt, *v, width, signed, shown));
            }
        }
    }
    assert_eq!(native.len(), expected.len());
    let wrong: Vec<_> = expected.iter().zip(&native).filter(|(e, n)| e.4 != **n).collect();
    assert!(wrong.is_empty(), "engine vs gcc: {wrong:?}");
}

/// `v` as a C literal of the same value (the shortest decimal that reads
/// back exactly; the infinities and NaNs spelt with builtins).
fn c_literal(v: f64, float: bool) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-__builtin_nan(\"\")".into() } else { "__builtin_nan(\"\")".into() };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-__builtin_inf()".into() } else { "__builtin_inf()".into() };
    }
    // A float literal rounds like the engine's `as f32` (to nearest even).
    format!("{v:?}{}", if float { "f" } else { "" })
}
