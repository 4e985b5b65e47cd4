//! Tests of the JSON emitter: field names, number ranges, round trip.

use pathwise_engine::suite::{FunctionCoverage, GlobalInfo, InputValue, StopReason};
use pathwise_ir::{Shape, Type};
use serde_json::json;

use super::*;
use crate::c_tests::tests::{case, int, suite, var};

fn sample() -> TestSuite {
    let params = vec![
        var("t", "unsigned char", Type::I8, false, Shape::Pointer),
        var("n", "long long", Type::I64, true, Shape::Scalar),
    ];
    let globals = vec![
        GlobalInfo { src: int("count"), init: vec![0] },
        GlobalInfo { src: var("big", "unsigned long long", Type::I64, false, Shape::Array(2)), init: vec![0, 0] },
    ];
    let mut s = suite("f", params, Some(int("")), globals);
    s.precondition = Some("pre".into());
    let mut t = case(1, vec![InputValue::Array(vec![255, -1]), InputValue::Scalar(i64::MIN as i128)], Some(-1));
    t.array_outputs = vec![Some(vec![0, 200]), None];
    t.global_outputs = vec![vec![i32::MIN as i128], vec![u64::MAX as i128, -1]];
    s.tests.push(t);
    s.stats.tests = 1;
    s.stats.runs = 4;
    s.stop = StopReason::Limit("max tests".into());
    s.coverage.functions.push(FunctionCoverage {
        name: "f".into(),
        lines: vec![2, 3, 4],
        lines_covered: vec![2, 3],
        branches: 2,
        branches_covered: 1,
        branch_lines: vec![(3, 2, 1)],
    });
    s
}

#[test]
fn documented_fields_and_numbers() {
    let v = suite_to_json(&sample());
    assert_eq!(v["function"], "f");
    assert_eq!(v["precondition"], "pre");
    assert_eq!(v["k"], 2);
    assert_eq!(
        v["params"][0],
        json!({"name": "t", "c_type": "unsigned char", "shape": "pointer", "length": null, "bits": 8, "signed": false})
    );
    let t = &v["tests"][0];
    assert_eq!(t["id"], 1);
    assert_eq!(t["outcome"], "returned");
    assert_eq!(t["inputs"], json!({"t": [255, 255], "n": i64::MIN}));
    assert_eq!(t["expected"]["return"], -1);
    assert_eq!(t["expected"]["arrays"], json!({"t": [0, 200]}));
    assert_eq!(t["expected"]["globals"], json!({"count": i32::MIN, "big": [u64::MAX, u64::MAX]}));
    assert_eq!(
        t["path"][1],
        json!({"function": "g", "location": "src/f.c:7:5", "file": "src/f.c", "line": 7, "col": 5,
               "taken": false, "loop": {"header": "src/f.c:6:5", "iteration": 2}})
    );
    assert_eq!(t["path"][0]["loop"], serde_json::Value::Null);
    assert_eq!(v["stats"]["runs"], 4);
    assert_eq!(v["stop"], "limit");
    assert_eq!(v["stop_detail"], "max tests");
    assert_eq!(v["coverage"]["functions"][0]["lines_covered"], json!([2, 3]));
}

#[test]
fn text_keeps_parameter_order_and_round_trips() {
    let s = sample();
    let text = suite_to_json_string(&s);
    // Inputs in parameter order (t before n), not sorted.
    let t_pos = text.find("\"t\": [").unwrap();
    let n_pos = text.find("\"n\": -9223372036854775808").unwrap();
    assert!(t_pos < n_pos, "{text}");
    let back = suite_from_json_str(&text).unwrap();
    assert_eq!(back, SuiteJson::from_suite(&s));
    assert_eq!(back.tests[0].inputs.get("n"), Some(&NumOrList::Num(JsonInt(i64::MIN as i128))));
    assert_eq!(back.coverage.functions[0].branches_covered, 1);
}

#[test]
fn variant_names_are_snake_case() {
    assert_eq!(variant_name("Returned"), "returned");
    assert_eq!(variant_name("RuntimeError(\"x\")"), "runtime_error");
}
