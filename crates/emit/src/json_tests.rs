//! Tests of the JSON emitter: field names, number ranges, round trip.

use pathwise_ir::{Shape, Type};
use pathwise_suite::{FunctionCoverage, GlobalInfo, InputValue, StopReason};
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
        file: 0,
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
    // Inputs in parameter order (t before n), not sorted; a test is one
    // compact line.
    let t_pos = text.find("\"t\":[").unwrap();
    let n_pos = text.find("\"n\":-9223372036854775808").unwrap();
    assert!(text.lines().any(|l| l.starts_with("    {\"id\":1,")), "{text}");
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

/// `push(l, v)` onto a one-node list, plus a test of `rev`-like pointer
/// returns: NULL inputs, opaque cells, a returned NULL.
fn heap_sample() -> TestSuite {
    use crate::c_heap::tests::{heap_suite, heap_var, node, node_ty, r};
    use pathwise_ir::CType;
    use pathwise_suite::{HeapCell, HeapObject, HeapValue};
    let ptr = |t| CType::Ptr(Box::new(t));
    let params = vec![heap_var("l", ptr(CType::Struct(pathwise_ir::StructId(1)))), heap_var("n", ptr(node_ty()))];
    let mut s = heap_suite("f", params, Some(heap_var("", ptr(node_ty()))));
    let list = |id, v| HeapObject {
        id,
        cty: CType::Struct(pathwise_ir::StructId(1)),
        count: 1,
        tail: None,
        cells: vec![HeapCell { offset: 0, path: "[0].first".into(), value: v }],
        freed: false,
        allocated: false,
    };
    let mut t = case(1, vec![InputValue::Pointer(r(1)), InputValue::Pointer(HeapValue::Null)], None);
    t.heap_in = vec![list(1, r(2)), node(2, Some(-1), Some(HeapValue::Null))];
    let mut gone = node(2, None, None);
    gone.freed = true;
    t.heap_out = vec![list(1, r(3)), gone, node(3, Some(u32::MAX as i128), Some(HeapValue::Opaque))];
    t.ret_pointer = Some(HeapValue::Ref { obj: 3, offset: 8 });
    s.tests.push(t);
    let mut t = case(2, vec![InputValue::Pointer(HeapValue::Null), InputValue::Pointer(HeapValue::Null)], None);
    t.ret_pointer = Some(HeapValue::Null);
    s.tests.push(t);
    s
}

#[test]
fn heaps_are_objects_with_ids_and_fields() {
    let v = suite_to_json(&heap_sample());
    assert_eq!(v["params"][0]["c_type"], "struct list *");
    assert_eq!(v["params"][0]["shape"], "heap");
    assert_eq!(v["return"]["c_type"], "struct node *");
    assert_eq!(
        v["structs"][0],
        json!({"name": "struct node", "union": false, "size": 16, "align": 8, "fields": [
            {"name": "data", "offset": 0, "c_type": "int"},
            {"name": "next", "offset": 8, "c_type": "struct node *"}]})
    );
    let t = &v["tests"][0];
    assert_eq!(t["inputs"], json!({"l": {"ref": 1, "offset": 0}, "n": null}));
    assert_eq!(
        t["heap_in"],
        json!([
            {"id": 1, "type": "struct list", "count": 1, "freed": false, "allocated": false,
             "fields": [{"path": ".first", "offset": 0, "value": {"ref": 2, "offset": 0}}]},
            {"id": 2, "type": "struct node", "count": 1, "freed": false, "allocated": false,
             "fields": [{"path": ".data", "offset": 0, "value": -1}, {"path": ".next", "offset": 8, "value": null}]}
        ])
    );
    // Integers are normalised with the field's type.
    assert_eq!(t["expected"]["heap_out"][2]["fields"][0]["value"], -1);
    assert_eq!(t["expected"]["heap_out"][2]["fields"][1]["value"], "opaque");
    assert_eq!(t["expected"]["heap_out"][1]["freed"], true);
    assert_eq!(t["expected"]["return_pointer"], json!({"ref": 3, "offset": 8}));
    assert_eq!(t["expected"]["return"], serde_json::Value::Null);
    // A returned NULL is present as null; a non-pointer function has no field.
    let t2 = v["tests"][1]["expected"].as_object().unwrap();
    assert_eq!(t2.get("return_pointer"), Some(&serde_json::Value::Null));
    let plain = suite_to_json(&sample());
    assert!(plain["tests"][0]["expected"].get("return_pointer").is_none());
    assert_eq!(plain["tests"][0]["heap_in"], json!([]));
    assert_eq!(plain["structs"], json!([]));
}

#[test]
fn heaps_round_trip_deterministically() {
    let s = heap_sample();
    let text = suite_to_json_string(&s);
    assert_eq!(text, suite_to_json_string(&heap_sample()), "same suite, same bytes");
    let back = suite_from_json_str(&text).unwrap();
    assert_eq!(back, SuiteJson::from_suite(&s));
    assert_eq!(back.tests[1].expected.return_pointer, Some(HeapValueJson::Null));
    assert_eq!(back.tests[0].inputs.get("n"), Some(&NumOrList::Pointer(HeapValueJson::Null)));
    assert_eq!(
        back.tests[0].inputs.get("l"),
        Some(&NumOrList::Pointer(HeapValueJson::Ref(RefJson { obj: 1, offset: 0 })))
    );
}

#[test]
fn files_without_heaps_still_read() {
    // A file written before heaps existed: no `structs`, `heap_in`, `heap_out`.
    let text = suite_to_json_string(&sample());
    let mut old = text.clone();
    for field in ["structs", "heap_in", "heap_out"] {
        // Pretty at the top level, compact inside a test's line.
        let pattern = [format!("\"{field}\": []"), format!("\"{field}\":[]")]
            .into_iter()
            .find(|p| old.contains(p.as_str()))
            .unwrap_or_else(|| panic!("{field} in {text}"));
        let at = old.find(&pattern).unwrap();
        // Drop the field with the comma that separates it from a neighbour.
        let before = old[..at].trim_end();
        let (start, end) = if let Some(b) =
            before.strip_suffix(',').filter(|_| old[at + pattern.len()..].trim_start().starts_with(['}', ']']))
        {
            (b.len(), at + pattern.len())
        } else {
            (at, at + pattern.len() + old[at + pattern.len()..].find(',').unwrap() + 1)
        };
        old.replace_range(start..end, "");
    }
    assert!(!old.contains("heap") && !old.contains("structs"), "{old}");
    let back = suite_from_json_str(&old).unwrap();
    assert_eq!(back, SuiteJson::from_suite(&sample()));
    assert_eq!(back.tests[0].expected.return_pointer, None);
}

#[test]
fn criterion_is_named_and_defaults_to_k_path() {
    let mut s = sample();
    s.criterion = pathwise_suite::Criterion::BlockK;
    assert_eq!(suite_to_json(&s)["criterion"], "block-k");
    let mut v = suite_to_json(&sample());
    assert_eq!(v["criterion"], "k-path");
    // A file written before the option existed.
    v.as_object_mut().unwrap().remove("criterion");
    let back = suite_from_json_str(&v.to_string()).unwrap();
    assert_eq!(back.criterion, "k-path");
}

/// External functions and a test's calls: values read with the declared
/// types, pointers as null or not; absent without externals.
#[test]
fn external_calls_are_recorded_and_round_trip() {
    use pathwise_suite::{CallArg, ExternalCall, ExternalFunction};
    let mut s = suite("f", vec![int("x")], Some(int("")), vec![]);
    s.externals = vec![
        ExternalFunction {
            name: "read_byte".into(),
            params: vec![int("port")],
            ret: Some(var("", "unsigned char", Type::I8, false, Shape::Scalar)),
            cty: None,
        },
        ExternalFunction {
            name: "log".into(),
            params: vec![var("tag", "char", Type::I8, true, Shape::Pointer), int("v")],
            ret: None,
            cty: None,
        },
        ExternalFunction {
            name: "buffer".into(),
            params: vec![],
            ret: Some(var("", "int", Type::I32, true, Shape::Pointer)),
            cty: None,
        },
    ];
    let mut t = case(1, vec![InputValue::Scalar(3)], Some(0));
    t.calls = vec![
        ExternalCall { name: "read_byte".into(), args: vec![CallArg::Int(-1)], ret: Some(-56), ret_pointer: None },
        ExternalCall {
            name: "log".into(),
            args: vec![CallArg::NonNull, CallArg::Int(200)],
            ret: None,
            ret_pointer: None,
        },
        ExternalCall { name: "log".into(), args: vec![CallArg::Null, CallArg::Int(0)], ret: None, ret_pointer: None },
        ExternalCall { name: "buffer".into(), args: vec![], ret: None, ret_pointer: Some(HeapValue::Null) },
        ExternalCall {
            name: "buffer".into(),
            args: vec![],
            ret: None,
            ret_pointer: Some(HeapValue::Ref { obj: 1, offset: 4 }),
        },
    ];
    s.tests.push(t);
    let v = suite_to_json(&s);
    assert_eq!(
        v["tests"][0]["calls"],
        json!([{"function": "read_byte", "args": [-1], "return": 200},
               {"function": "log", "args": ["non-null", 200], "return": null},
               {"function": "log", "args": ["null", 0], "return": null},
               {"function": "buffer", "args": [], "return": null, "return_pointer": null},
               {"function": "buffer", "args": [], "return": null, "return_pointer": {"ref": 1, "offset": 4}}])
    );
    assert_eq!(v["externals"][1]["params"][0]["shape"], "pointer");
    assert_eq!(v["externals"][0]["return"]["c_type"], "unsigned char");
    let back = suite_from_json_str(&suite_to_json_string(&s)).unwrap();
    assert_eq!(back, SuiteJson::from_suite(&s));
    // Without externals neither field appears.
    let text = suite_to_json_string(&sample());
    assert!(!text.contains("\"calls\"") && !text.contains("\"externals\""), "{text}");
}

/// A returned pointer into a parameter's input array or into a global is
/// named by them; a test's own coverage, the unreached functions and the
/// source round-trip.
#[test]
fn pointers_into_parameters_and_globals_and_test_coverage() {
    use pathwise_suite::{HeapValue, TestCoverage};
    let mut s = sample();
    s.unreached_functions = vec!["fclose".into()];
    s.source = Some("/src/f.c".into());
    s.tests[0].ret_pointer = Some(HeapValue::Param { param: 0, offset: 1 });
    s.tests[0].coverage = vec![TestCoverage { function: "f".into(), lines: vec![2, 3], branches: vec![(3, 1)] }];
    let mut t2 = s.tests[0].clone();
    t2.id = 2;
    t2.ret_pointer = Some(HeapValue::Global { global: 1, offset: 8 });
    s.tests.push(t2);
    let v = suite_to_json(&s);
    assert_eq!(v["tests"][0]["expected"]["return_pointer"], json!({"param": "t", "offset": 1}));
    assert_eq!(v["tests"][1]["expected"]["return_pointer"], json!({"global": "big", "offset": 8}));
    assert_eq!(v["tests"][0]["coverage"], json!([{"function": "f", "lines": [2, 3], "branches": [[3, 1]]}]));
    assert_eq!(v["unreached_functions"], json!(["fclose"]));
    assert_eq!(v["source"], "/src/f.c");
    let back = suite_from_json_str(&suite_to_json_string(&s)).unwrap();
    assert_eq!(back, SuiteJson::from_suite(&s));
    assert_eq!(
        back.tests[1].expected.return_pointer,
        Some(HeapValueJson::Global(GlobalRefJson { global: "big".into(), offset: 8 }))
    );
    // Without them (older files) the fields are absent and read as empty.
    let plain = suite_to_json(&sample());
    assert!(plain.get("unreached_functions").is_none() && plain.get("source").is_none());
}

#[test]
fn the_bound_report_is_written_and_old_files_read_without_it() {
    use pathwise_suite::{BoundKind, BoundReport, BoundSite};
    let mut s = sample();
    s.files = vec!["src/readable.c".into()];
    let at = |line| pathwise_ir::Loc { file: 0, line, col: 5 };
    s.k = 9;
    s.bound = BoundReport {
        deepened: true,
        partial_k: Some(10),
        at_bound: vec![
            BoundSite { loc: at(17), kind: BoundKind::Loop },
            BoundSite { loc: at(40), kind: BoundKind::Recursion },
        ],
    };
    let v = suite_to_json(&s);
    assert_eq!((v["k"].clone(), v["deepened"].clone(), v["k_partial"].clone()), (json!(9), json!(true), json!(10)));
    assert_eq!(
        v["at_bound"],
        json!([
            {"kind": "loop", "location": "src/readable.c:17:5", "file": "src/readable.c", "line": 17},
            {"kind": "recursion", "location": "src/readable.c:40:5", "file": "src/readable.c", "line": 40},
        ])
    );
    // An explicit --k: not deepened, no partial k.
    let plain = suite_to_json(&sample());
    assert_eq!((plain["deepened"].clone(), plain["k_partial"].clone()), (json!(false), json!(null)));
    // A file written before the fields existed.
    let mut old = v.clone();
    for f in ["deepened", "k_partial", "at_bound"] {
        old.as_object_mut().unwrap().remove(f);
    }
    let back = suite_from_json_str(&old.to_string()).unwrap();
    assert_eq!((back.deepened, back.k_partial, back.at_bound.len()), (false, None, 0));
}
