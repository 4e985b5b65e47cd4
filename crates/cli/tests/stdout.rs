//! What a function writes on the standard output is an output its tests
//! check (`tests/c/trust4/stdout.c`): the generator records the bytes
//! `printf`, `puts`, `fputs`, `putchar`, `fwrite`... send to `stdout` with
//! the run's values, as glibc formats them (JSON: `expected.stdout`), and
//! each C test captures descriptor 1 during the call and compares. Before,
//! the tests printed that output among their own messages and checked
//! nothing of it.

mod common;

use std::path::Path;

const FILE: &str = "tests/c/trust4/stdout.c";

/// Generate at k and check the suite natively (`common::gen_checked`:
/// every test passes with gcc and clang, gcov agrees).
fn generate(function: &str, k: &str, out: &Path) -> serde_json::Value {
    let (suite, outcome) = common::gen_checked(FILE, function, k, out);
    assert_eq!(common::branches_covered(&outcome, function), Some(true), "{function}: {:?}", outcome.rows);
    suite
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

/// A test's recorded output as text (`None`: the call wrote nothing there).
fn stdout(t: &serde_json::Value) -> Option<String> {
    let bytes = t["expected"].get("stdout")?.as_array().unwrap();
    Some(bytes.iter().map(|b| char::from(b.as_u64().unwrap() as u8)).collect())
}

fn int(t: &serde_json::Value, name: &str) -> i64 {
    t["inputs"][name].as_i64().unwrap()
}

fn bytes(t: &serde_json::Value, name: &str) -> Vec<u8> {
    t["inputs"][name].as_array().unwrap().iter().map(|b| b.as_u64().unwrap() as u8).collect()
}

#[test]
fn printed_numbers_follow_each_tests_values() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("print_sign", "1", out.path());
    // Printing a number forks nothing: the two sides of `x < 0`.
    assert_eq!(tests(&suite).len(), 2);
    for t in tests(&suite) {
        let x = int(t, "x");
        let want = if x < 0 { format!("{x} is negative\n") } else { format!("{x:5}|{x:<4x}|\n") };
        assert_eq!(stdout(t).as_deref(), Some(want.as_str()), "{t}");
    }
    let c = std::fs::read_to_string(out.path().join("print_sign_tests.c")).unwrap();
    assert!(c.contains("pathwise_stdout_capture();"), "{c}");
    assert!(c.contains("pathwise_failed |= pathwise_stdout_check(1, pathwise_out, sizeof pathwise_out - 1);"), "{c}");
}

#[test]
fn a_wrong_output_fails_the_test() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("print_sign", "1", out.path());
    let negative = tests(&suite).iter().find(|t| int(t, "x") < 0).unwrap();
    let x = int(negative, "x");
    // The expected text edited: the native run must notice.
    let path = out.path().join("print_sign_tests.c");
    let c = std::fs::read_to_string(&path).unwrap();
    let literal = format!("\"{x} is negative\\n\"");
    assert!(c.contains(&literal), "{c}");
    std::fs::write(&path, c.replace(&literal, &format!("\"{x} is positive\\n\""))).unwrap();
    let include = common::root().join(FILE).parent().unwrap().to_path_buf();
    let (code, stdout) = common::build_and_run_with("gcc", out.path(), "print_sign", &include, &[]);
    assert_ne!(code, 0, "{stdout}");
    let at = x.to_string().len() + 4;
    let id = negative["id"].as_u64().unwrap();
    assert!(
        stdout.contains(&format!("test {id}: standard output differs at byte {at}: expected 112, got 110")),
        "{stdout}"
    );
}

#[test]
fn a_byte_loop_prints_what_it_reads() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("hex_dump", "2", out.path());
    // n <= 0, one byte, two bytes (k = 2).
    assert_eq!(tests(&suite).len(), 3);
    for t in tests(&suite) {
        let n = int(t, "n").max(0) as usize;
        let hex: String = bytes(t, "p")[..n].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(stdout(t), Some(hex + "\n"), "{t}");
    }
}

#[test]
fn puts_fputs_and_fputc_on_stdout_are_compared_stderr_is_not() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("greet", "2", out.path());
    assert_eq!(tests(&suite).len(), 3);
    for t in tests(&suite) {
        let name = bytes(t, "name");
        let name: String = name.iter().take_while(|&&b| b != 0).map(|&b| char::from(b)).collect();
        if name.is_empty() {
            // Only stderr: no output to compare.
            assert_eq!(stdout(t), None, "{t}");
        } else {
            assert_eq!(stdout(t), Some(format!("hello, {name}!\n")), "{t}");
        }
    }
}

#[test]
fn fprintf_and_fwrite_on_stdout_are_compared() {
    let out = tempfile::tempdir().unwrap();
    // No row, one, two, three, more than three (k = 3), and `i * rows`
    // overflowing: an error test, whose output is not compared.
    let suite = generate("table", "3", out.path());
    assert_eq!(tests(&suite).len(), 6);
    let (returned, errors): (Vec<_>, Vec<_>) = tests(&suite).iter().partition(|t| t["outcome"] == "returned");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["error"]["kind"], "signed-overflow");
    assert_eq!(stdout(errors[0]), None);
    for t in returned {
        let rows = int(t, "rows");
        let mut want = "+--+\n".to_string();
        for i in 0..rows.clamp(0, 3) {
            want += &format!("|{:2}|\n", i * rows);
        }
        want += "+--+\n";
        assert_eq!(stdout(t), Some(want), "{t}");
    }
}

#[test]
fn a_function_that_never_writes_has_no_output_check() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("quiet", "1", out.path());
    assert!(tests(&suite).iter().all(|t| stdout(t).is_none()));
    let c = std::fs::read_to_string(out.path().join("quiet_tests.c")).unwrap();
    assert!(!c.contains("pathwise_stdout"), "{c}");
}

#[test]
fn what_exit_flushes_is_compared_what_exit_discards_is_not() {
    let out = tempfile::tempdir().unwrap();
    // (gcov agrees; the `_exit` test's coverage is not recorded natively.)
    let (suite, outcome) = common::gen_checked(FILE, "check_or_die", "1", out.path());
    let exits_quickly = tests(&suite).iter().find(|t| int(t, "x") == 7).unwrap()["id"].as_u64().unwrap();
    assert_eq!(outcome.unrecorded, [format!("test {exits_quickly}: _exit writes no counters")]);
    assert_eq!(tests(&suite).len(), 3);
    for t in tests(&suite) {
        let x = int(t, "x");
        let want = match x {
            _ if x < 0 => Some(format!("bad value {x}\n")),
            7 => None,
            _ => Some(format!("ok {x}\n")),
        };
        assert_eq!(stdout(t), want, "{t}");
    }
    let path = out.path().join("check_or_die_tests.c");
    let c = std::fs::read_to_string(&path).unwrap();
    let negative = tests(&suite).iter().find(|t| int(t, "x") < 0).unwrap();
    let (x, id) = (int(negative, "x"), negative["id"].as_u64().unwrap());
    assert!(c.contains(&format!("pathwise_stdout_at_exit({id}, pathwise_out, sizeof pathwise_out - 1);")), "{c}");
    // The expected text edited: the exiting child must notice.
    let literal = format!("\"bad value {x}\\n\"");
    assert!(c.contains(&literal), "{c}");
    std::fs::write(&path, c.replace(&literal, &format!("\"bad walue {x}\\n\""))).unwrap();
    let include = common::root().join(FILE).parent().unwrap().to_path_buf();
    let (code, stdout) = common::build_and_run_with("gcc", out.path(), "check_or_die", &include, &[]);
    assert_ne!(code, 0, "{stdout}");
    assert!(
        stdout.contains(&format!("test {id}: standard output differs at byte 4: expected 119, got 118")),
        "{stdout}"
    );
    assert!(stdout.contains("2 passed, 1 failed"), "{stdout}");
}
