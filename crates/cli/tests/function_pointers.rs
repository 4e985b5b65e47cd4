//! Function pointers end to end (`tests/c/fnptr.c`): a table of handlers,
//! a predicate, an optional operator and a visitor passed as parameters.
//! An input function pointer is null, one of the unit's functions of its
//! type, or the caller's callback (a stub whose results are inputs),
//! decided where the path calls or compares it: every test passes natively
//! with `-Wall -Wextra -Werror` and replays with gcov agreeing.

mod common;

/// Generate for `function` of `tests/c/fnptr.c` at k = 2 with its
/// precondition `FUNCTION_pre` if `pre`; checks the suite natively and by
/// replay, and returns each test's inputs.
fn generate_and_replay(function: &str, pre: bool) -> Vec<serde_json::Value> {
    let out = tempfile::tempdir().unwrap();
    let pre_name = format!("{function}_pre");
    let mut args = vec!["--k", "2"];
    if pre {
        args.extend(["--precondition", pre_name.as_str()]);
    }
    let (_, suite) = common::gen("tests/c/fnptr.c", function, &args, out.path());
    assert_eq!(suite["stop"], "complete", "{function}: {suite:#}");
    let tests = suite["tests"].as_array().unwrap().clone();
    // Signed overflow traps, as the error tests expect.
    let ub = ["-fsanitize=undefined", "-fsanitize-undefined-trap-on-error"];
    let (code, stdout) = common::build_and_run(out.path(), function, &ub);
    assert_eq!((code, stdout), (0, format!("{} passed, 0 failed\n", tests.len())));
    common::replay_passes(out.path(), tests.len(), vec![], true);
    tests.iter().map(|t| t["inputs"].clone()).collect()
}

/// The function pointer passed in each test (`null` for a null pointer).
fn targets(inputs: &[serde_json::Value], param: &str) -> Vec<String> {
    inputs
        .iter()
        .map(|i| match &i[param] {
            serde_json::Value::Null => "null".to_string(),
            v => v["function"].as_str().unwrap().to_string(),
        })
        .collect()
}

#[test]
fn table_of_handlers_calls_each_one() {
    // '+', '-' (each also overflowing) and 'm' (both sides of its `<`),
    // and an unknown operator.
    let inputs = generate_and_replay("eval_op", false);
    assert_eq!(inputs.len(), 7);
}

#[test]
fn input_predicate_is_each_function_of_its_type() {
    // n = 0 calls nothing; n = 1 and n = 2 call the predicate once or
    // twice, each result either way, for each of the 2 `int (int)`
    // functions and the caller's callback (a stub whose results are
    // inputs; the precondition excludes null): 1 + 3 * (2 + 4).
    let inputs = generate_and_replay("count_if", true);
    assert_eq!(inputs.len(), 19);
    let t = targets(&inputs, "pred");
    for f in ["is_even", "is_negative", "pathwise_stub_count_if_pred"] {
        assert!(t.iter().filter(|g| *g == f).count() >= 6, "{f}: {t:?}");
    }
}

#[test]
fn optional_operator_is_null_or_each_binop() {
    // n <= 0; f == NULL; n = 1 with f set (never called); n = 2 with
    // op_add, op_sub, op_min (both sides of its comparison) and the
    // caller's operator.
    let inputs = generate_and_replay("fold", true);
    assert_eq!(inputs.len(), 8);
    let mut t = targets(&inputs, "f");
    t.sort();
    t.dedup();
    assert_eq!(t, vec!["null", "op_add", "op_min", "op_sub", "pathwise_stub_fold_f"]);
}

#[test]
fn callback_of_the_caller_is_a_stub_returning_what_each_path_needs() {
    // No function of the unit has the visitor's type: the visitor is the
    // parameter's stub, whose results are inputs. n = 0; then each call
    // returns < 0, 0 or > 0, up to n = 2 calls: 1 + 3 + 3 (the third
    // "> 0" of the first call ends at n = 1 or goes on to a second call).
    let inputs = generate_and_replay("for_each", true);
    assert_eq!(inputs.len(), 7);
    let t = targets(&inputs, "visit");
    assert!(t.iter().all(|f| f == "pathwise_stub_for_each_visit"), "{t:?}");
}

/// Generate for `function` of `tests/c/fnptr_fields.c` at k = 2 without
/// overflow checks; checks the suite natively and by replay; returns each
/// test's target of the member `member` of the input object (`error`
/// when the object itself is null).
fn member_targets(function: &str, member: &str) -> Vec<String> {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen("tests/c/fnptr_fields.c", function, &["--k", "2", "--no-overflow-check"], out.path());
    assert_eq!(suite["stop"], "complete", "{function}: {suite:#}");
    let tests = suite["tests"].as_array().unwrap();
    let (code, stdout) = common::build_and_run(out.path(), function, &[]);
    assert_eq!((code, stdout), (0, format!("{} passed, 0 failed\n", tests.len())));
    common::replay_passes(out.path(), tests.len(), vec![], true);
    tests
        .iter()
        .map(|t| {
            let fields = t["heap_in"].get(0).map(|o| o["fields"].clone()).unwrap_or_default();
            let cell = fields.as_array().and_then(|f| f.iter().find(|c| c["path"] == format!(".{member}")).cloned());
            match cell.map(|c| c["value"].clone()) {
                None => "error".to_string(),
                Some(serde_json::Value::Null) => "null".to_string(),
                Some(v) => v["function"].as_str().unwrap().to_string(),
            }
        })
        .collect()
}

#[test]
fn members_of_input_structures_are_null_a_function_or_the_callers_callback() {
    // The object is dereferenced without a null test (a contract, not a
    // test); its `read` is null (-1), or `twice`, `neg` or the callback,
    // each with a result above 10 or not.
    let mut got = member_targets("use", "read");
    got.sort();
    let want = ["neg", "neg", "null", "pathwise_stub_field_ops_read", "pathwise_stub_field_ops_read"];
    let mut want: Vec<String> = want.iter().map(|s| s.to_string()).chain(["twice".into(), "twice".into()]).collect();
    want.sort();
    assert_eq!(got, want);
    // A comparator member (`const void *` parameters, which the test's
    // declarations keep): the member null (a call through it, an error),
    // or `by_int` or the callback, each ordering x and y or not; the
    // object is assumed non-null.
    let mut got = member_targets("ordered", "cmp");
    got.sort();
    let want = ["by_int", "by_int", "null", "pathwise_stub_field_sorter_cmp", "pathwise_stub_field_sorter_cmp"];
    assert_eq!(got, want);
}
