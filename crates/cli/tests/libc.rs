//! The C library models end to end (tests/c/libc_*.c, one file per
//! header, `<errno.h>` used by the others): `gen` at k = 2, then every test compiled with the real C
//! library and replayed natively (each must pass: the models compute what
//! glibc computes) with gcov's coverage agreeing with the prediction. Path
//! counts are asserted where the functions determine them; the comments
//! derive them.

mod common;

use common::generate_and_replay;

fn tests(suite: &serde_json::Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

/// Generate and replay `function` of `tests/c/FILE`; returns the suite.
fn run(file: &str, function: &str) -> serde_json::Value {
    generate_and_replay(&format!("tests/c/{file}"), function, &[], true)
}

/// Every path found and tested, nothing concretised.
fn complete(suite: &serde_json::Value) -> bool {
    suite["stop"] == "complete"
}

/// The `<ctype.h>` macros index glibc's class table with a symbolic
/// character: the lookups stay symbolic, so each class test is a decision
/// of the program (coverage agrees), and the counts are those of the
/// classes.
#[test]
fn ctype_macros_are_table_lookups() {
    for (function, n) in [
        // A digit, a letter, anything else.
        ("classify", 3),
        // Space, upper, lower, punctuation, control, none (digits and
        // negative chars).
        ("kind", 6),
        // A digit, a hexadecimal letter, anything else.
        ("xdigit_value", 3),
        // The first test holds, only the second, neither.
        ("same_letter", 3),
        // Below -128, above 255, negative, in range: the function forms
        // are expressions (glibc's 1024 for a letter, gcc's 0/1 isdigit).
        ("fn_forms", 4),
        // `_tolower`/`_toupper` through the case tables.
        ("fold", 2),
        // EOF, bytes above 127, isascii/toascii: concrete.
        ("eof_and_high", 1),
        // Every class and case function, macro and function forms, on
        // every argument from -128 to 255: a checksum compared natively.
        ("all_characters", 1),
        // isspace in a loop over an input string: lengths 0..=2, each
        // byte a space or not, k = 2.
        ("words", 7),
    ] {
        let suite = run("libc_ctype.c", function);
        assert_eq!(tests(&suite), n, "{function}");
        assert!(complete(&suite), "{function}: {}", suite["stop"]);
    }
}

/// The `<string.h>` loops on input strings; the concrete calls check the
/// results natively.
#[test]
fn string_functions_replay() {
    for (function, n) in [
        ("find_ab", 18),
        ("last_slash", 6),
        ("spans", 12),
        ("scan", 13),
        // Lengths 0, 1, 2 of the appended string (k = 2).
        ("concat", 3),
        ("dup", 3),
        ("fixed", 1),
        // Every search and comparison on 14 by 14 strings (bytes above
        // 127 included): a checksum compared natively.
        ("string_table", 1),
        // strcasecmp and strncasecmp on 18 by 18 mixed-case strings, exact
        // results in the checksum.
        ("case_table", 1),
        // Against "on" then "x-", ignoring case: the first byte is no 'o'
        // (then no 'x', an 'x' without '-', "x-"), or an 'o' followed by
        // no 'n', or "on" and a third byte that is no terminator, or "on"
        // itself (iterations on the literal's bytes are not bounded by k).
        ("keyword", 6),
        // A size from the inputs: n = 0; n = 1 without ':'; n = 2 without,
        // with ':' second, with ':' first (k = 2 bounds the `i < n` tests).
        ("find_colon", 5),
        // n = 0; a difference first; equal terminators first; n = 1 after an
        // equal byte; then at the second byte a difference, terminators,
        // or n = 2.
        ("same_prefix", 7),
    ] {
        let suite = run("libc_string.c", function);
        assert_eq!(tests(&suite), n, "{function}");
        assert!(complete(&suite), "{function}: {}", suite["stop"]);
    }
}

/// `strncpy(t, src, n)` pads `t` with zeros up to `n`: with `n` from the
/// inputs, the padding is checked against `t`'s 4 bytes before it is
/// fixed, and the overflow is an error test (`n` was fixed to its first
/// value, and the function had one test).
#[test]
fn strncpy_padding_past_its_buffer_is_an_error_test() {
    let suite = run("libc_string.c", "padded");
    assert_eq!(tests(&suite), 9);
    assert_eq!(common::errors(&suite), vec![("out-of-bounds".to_string(), 175)]);
}

/// `strtol` over an input string with an end pointer: per path, the
/// leading spaces (0..=2), the sign ('-', '+', none) and the digits
/// (0..=2) are decided; with no digit the function returns at once,
/// otherwise the end pointer is at the terminator or not:
/// 3 * 3 * (1 + 2 * 2) = 45. Base 0 adds the prefix: per spaces and sign,
/// 3 decimal (no leading '0'), 3 hexadecimal ("0x" and 0..=2 digits) and 2
/// octal (the '0' is the first digit) paths: 9 * 8 = 72. `atoi`: 3 * 3 * 3.
#[test]
fn strtol_family_replays() {
    // `strtol_table`: 32 strings (spaces, signs, prefixes, every limit and
    // just beyond) in 6 bases through the whole family, a checksum of the
    // values, end offsets and errno compared natively.
    for (function, n) in [("parse", 45), ("parse_any", 72), ("to_int", 27), ("corners", 1), ("strtol_table", 1)] {
        let suite = run("libc_stdlib.c", function);
        assert_eq!(tests(&suite), n, "{function}");
        assert!(complete(&suite), "{function}: {}", suite["stop"]);
    }
    // The string that has no digit returns -1, an accepted one its value.
    let suite = run("libc_stdlib.c", "parse");
    let returns = common::returns(&suite);
    assert!(returns.contains(&-1) && returns.contains(&-2), "{returns:?}");
    assert!(returns.iter().any(|&r| r > 0) && returns.iter().any(|&r| r < -3), "{returns:?}");
}

/// `abs` and its relatives are expressions: one returning path, and with
/// overflow checked, the most negative arguments (and the sums) are error
/// tests.
#[test]
fn abs_and_realloc() {
    let suite = run("libc_stdlib.c", "absolutes");
    let errors = common::errors(&suite);
    assert_eq!(tests(&suite) - errors.len(), 1, "{errors:?}");
    assert!(errors.iter().all(|(kind, _)| kind == "signed-overflow"), "{errors:?}");
    // realloc(p, 0) returns NULL, as glibc's does; other sizes stay symbolic.
    let suite = run("libc_stdlib.c", "reallocs");
    let zero = suite["tests"].as_array().unwrap().iter().find(|t| t["inputs"]["n"] == 0);
    assert_eq!(zero.map(|t| &t["expected"]["return"]), Some(&serde_json::json!(0)));
    assert!(complete(&suite), "{}", suite["stop"]);
}

/// realloc shrinking an input object to a size from the input: the copy
/// fills the new object, so no byte of it is an error check whose negation
/// (a size realloc would copy less for) made the run diverge. A null
/// `items`, size 0 (freed) and a smaller size (`v` is assumed non-null);
/// growing is the same path as shrinking (a guard inside realloc, no
/// decision).
#[test]
fn realloc_shrinking_an_input_object() {
    let suite = run("libc_stdlib.c", "realloc_field");
    assert_eq!(tests(&suite), 3);
    assert_eq!(common::assumed_nonnull(&suite), [("v".to_string(), 96)]);
    assert!(complete(&suite), "{}", suite["stop"]);
}

/// Printing does not fork or fix its arguments; formatting an input
/// integer into a buffer fixes it (reported); `%s` of an input string
/// copies its symbolic bytes.
#[test]
fn stdio_formats_replay() {
    for (function, n, whole) in [
        ("show", 2, true),
        ("printed_length", 1, true),
        ("branch_on_length", 4, true),
        // Lengths 0, 1, 2 of the string; none is truncated.
        ("bracket", 3, true),
        ("digits", 1, false),
        ("formats", 1, true),
        // 32 integer formats by 15 values, and the long conversions.
        ("format_table", 1, true),
        // 23 floating formats by 20 values (ties, limits, subnormals).
        ("float_table", 1, true),
        ("others", 1, true),
        // A null name (`n` is assumed non-null), names of length 0..2.
        ("show_name", 4, true),
        // Too large a size, the output fits, it is truncated (which fixes
        // the size: its value is the length written).
        ("fits", 3, false),
    ] {
        let suite = run("libc_stdio.c", function);
        assert_eq!(tests(&suite), n, "{function}");
        assert_eq!(complete(&suite), whole, "{function}: {}", suite["stop"]);
    }
}

/// The `<math.h>` functions IEEE arithmetic fixes (and `errno` for `sqrt`
/// of a negative number): every check holds in the engine and natively
/// (`replay` links with `-lm`).
#[test]
fn math_functions_replay() {
    let suite = run("libc_math.c", "rounding");
    assert_eq!(common::returns(&suite), vec![8191]);
    assert!(complete(&suite), "{}", suite["stop"]);
    // `modf` of a symbolic value, and glibc's `__signbit`: NaN, both
    // infinities, integral values of both signs, fractions of both.
    let suite = run("libc_math.c", "parts");
    assert_eq!(common::returns(&suite), vec![0, 1, 2, 3, 4, 5, 6]);
    assert!(complete(&suite), "{}", suite["stop"]);
    // glibc's `__fpclassify`: one path per class.
    let suite = run("libc_math.c", "kind");
    assert_eq!(common::returns(&suite), vec![10, 11, 12, 13, 14]);
    assert!(complete(&suite), "{}", suite["stop"]);
}

/// A function without a body or model: every missing one is listed with
/// the location of a call, with how to proceed.
#[test]
fn missing_functions_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("missing.c");
    std::fs::write(
        &file,
        "int ext_a(int);\nint ext_b(void);\nstatic int helper(int x) { return ext_b() + x; }\n\
         int f(int x) {\n  if (x) return ext_a(x);\n  return helper(ext_a(1));\n}\n",
    )
    .unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", "--function", "f", "--out"])
        .arg(dir.path().join("out"))
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("missing.c:5:17: call to `ext_a`, which has no body"), "{err}");
    assert!(err.contains("missing.c:3:35: call to `ext_b`, which has no body"), "{err}");
    assert!(err.contains("--external ext_a --external ext_b"), "{err}");
    assert!(err.contains("--external-all"), "{err}");
}
