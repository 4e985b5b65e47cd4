//! Array parameters end to end (`tests/c/array_params.c`): rows of
//! variable length (`int a[n][m]`, `int (*a)[n]`, the lengths read on
//! entry) and arrays declared with a length (`int a[3][4]`, `int a[10]`,
//! `const vec3 v` of `typedef int vec3[3]`).
//! The input is one flat array; the test file passes it through `void *`
//! where the parameter points to rows (gcc 14 rejects the implicit
//! conversion), with at least the declared length (gcc checks calls
//! against it: `-Wstringop-overflow` under `-Werror`). Every suite builds
//! with `-Wall -Wextra -Werror`, passes natively and replays with gcov
//! agreeing.

mod common;

/// Generate for `function` at k = 2 without overflow checks; checks the
/// suite natively and by replay; returns the tests.
fn generate_and_replay(function: &str) -> Vec<serde_json::Value> {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen("tests/c/array_params.c", function, &["--k", "2", "--no-overflow-check"], out.path());
    assert_eq!(suite["stop"], "complete", "{function}: {suite:#}");
    let tests = suite["tests"].as_array().unwrap().clone();
    let (code, stdout) = common::build_and_run(out.path(), function, &[]);
    assert_eq!((code, stdout), (0, format!("{} passed, 0 failed\n", tests.len())), "{function}");
    common::replay_passes(out.path(), tests.len(), vec![], true);
    tests
}

#[test]
fn rows_of_variable_length() {
    // n <= 0; n = 1 or 2 (k = 2), each with m = 1 or 2 (the same m in
    // every row; a caller passes m > 0, C11 6.7.6.2p5, and `a` with n rows
    // of m): 1 + 2 * 2.
    assert_eq!(generate_and_replay("sum2d").len(), 5);
    // n != 2; n == 2 with a[1][1] > a[0][0] or not.
    let tests = generate_and_replay("diag");
    assert_eq!(tests.len(), 3);
    // The true side returns the row's size, 2 ints; a[1][1] is the 4th element.
    let t = tests.iter().find(|t| t["expected"]["return"] == 8).expect("a test of the true side");
    let a = t["inputs"]["a"].as_array().unwrap();
    assert!(a.len() >= 4 && a[3].as_i64() > a[0].as_i64(), "{t:#}");
}

#[test]
fn the_row_length_is_read_on_entry() {
    // n <= 1; n > 1 with a[n-1][0] == 7 or not: 3 paths, and the true
    // side reads a[n-1][1] at flat index (n-1)*m + 1 with the entry's m.
    // `a` has n rows of m (the declaration `int a[n][m]`): with m == 1
    // that index is n, past the last row, an out-of-bounds read.
    let out = tempfile::tempdir().unwrap();
    let (_, suite) =
        common::gen("tests/c/array_params.c", "last_of_row", &["--k", "2", "--no-overflow-check"], out.path());
    assert_eq!(suite["stop"], "complete", "{suite:#}");
    let tests = suite["tests"].as_array().unwrap();
    assert_eq!(common::errors(&suite), [("out-of-bounds".to_string(), 42)]);
    let error = tests.iter().find(|t| t["outcome"] == "error").unwrap();
    let (n, m) = (error["inputs"]["n"].as_i64().unwrap(), error["inputs"]["m"].as_i64().unwrap());
    assert_eq!((m, error["inputs"]["a"].as_array().unwrap().len() as i64), (1, n), "{error:#}");
    let returned: Vec<&serde_json::Value> = tests.iter().filter(|t| t["outcome"] != "error").collect();
    assert_eq!(returned.len(), 3);
    for t in returned.iter().filter(|t| t["expected"]["return"] != -1) {
        let (n, m) = (t["inputs"]["n"].as_i64().unwrap(), t["inputs"]["m"].as_i64().unwrap());
        let a = t["inputs"]["a"].as_array().unwrap();
        assert_eq!(a.len() as i64, n * m, "{t:#}");
        let row = ((n - 1) * m) as usize;
        assert_eq!(a[row], 7, "{t:#}");
        assert_eq!(t["expected"]["return"], a[row + 1], "{t:#}");
    }
    common::replay_passes(out.path(), tests.len(), vec![], true);
}

#[test]
fn arrays_declared_with_a_length() {
    for function in ["cell", "head", "first_of"] {
        // The element read is greater than 5 or not.
        assert_eq!(generate_and_replay(function).len(), 2, "{function}");
    }
}
