//! SARIF 2.1.0 logs of error tests (`pathwise report DIR --sarif FILE`),
//! the static-analysis interchange format that GitHub code scanning and
//! other code-review tools show inline.
//!
//! One rule per error kind the suites found (`division-by-zero`,
//! `out-of-bounds`, ..., the JSON's `error.kind`), one result per error
//! test: its location (file, line, column), its message naming the test
//! and its inputs, the function under test as logical location, and the
//! test's path as a code flow (the decisions that lead to the error).
//! Files are named by the caller's `uri` function (relative to the
//! directory the report is written from, so that a repository's code
//! scanning finds them). Keys are sorted (`serde_json::Value`), rules by
//! kind, results by suite and test: the same suites give the same bytes.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use crate::json::{HeapValueJson, NumOrList, StepJson, SuiteJson, TestJson};

/// The schema URI a SARIF 2.1.0 log names.
pub const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Description, level and CWE of an error kind (`None`: a kind this
/// version does not know, described by its name).
fn kind_info(kind: &str) -> (&'static str, &'static str, Option<u32>) {
    match kind {
        "division-by-zero" => ("Integer division or remainder by zero", "error", Some(369)),
        "division-overflow" => ("INT_MIN / -1 or INT_MIN % -1 overflows", "error", Some(190)),
        "signed-overflow" => ("Signed integer overflow", "error", Some(190)),
        "invalid-shift" => ("Shift by a negative amount or by at least the width", "error", Some(1335)),
        "invalid-builtin-argument" => ("Zero argument of __builtin_clz or __builtin_ctz", "error", Some(758)),
        "out-of-bounds" => ("Access outside an array", "error", Some(119)),
        "null-dereference" => ("Null pointer dereference", "error", Some(476)),
        "assertion-failure" => ("Assertion failure", "error", Some(617)),
        "abort" => ("Call of abort()", "warning", None),
        "exit" => ("Call of exit()", "note", None),
        "error-call" => ("Call of the error function", "error", None),
        "unreachable" => ("__builtin_unreachable() reached, or end of a non-void function", "error", Some(758)),
        "invalid-pointer-arithmetic" => ("Arithmetic on pointers into different objects", "error", Some(469)),
        "float-cast-overflow" => ("Floating value out of the range of its integer type", "error", Some(681)),
        "float-overflow" => ("Floating-point operation overflowed to an infinity", "warning", Some(190)),
        "float-division-by-zero" => ("Floating-point division by zero", "warning", Some(369)),
        "use-after-free" => ("Use after free", "error", Some(416)),
        "invalid-free" => ("free() of a pointer not from malloc, or twice", "error", Some(590)),
        "memory-leak" => ("Memory leak", "warning", Some(401)),
        "uninitialised-read" => ("Read of uninitialised heap memory", "error", Some(908)),
        _ => ("", "error", None),
    }
}

/// `ab-cd` as `AbCd` (a rule's `name`).
fn camel(kind: &str) -> String {
    kind.split(['-', '_'])
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

fn heap_value_text(v: &HeapValueJson) -> String {
    match v {
        HeapValueJson::Int(i) => i.0.to_string(),
        HeapValueJson::Null => "NULL".into(),
        HeapValueJson::Function(f) => format!("&{}", f.function),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// A test's inputs as `a = 0, t = {1, 2}` (long arrays shortened), and
/// `heap: N objects` when it builds an input heap.
pub fn inputs_text(test: &TestJson) -> String {
    const SHOWN: usize = 32;
    let mut parts: Vec<String> = test
        .inputs
        .0
        .iter()
        .map(|(name, v)| match v {
            NumOrList::Num(n) => format!("{name} = {}", n.0),
            NumOrList::List(items) => {
                let mut shown: Vec<String> = items.iter().take(SHOWN).map(|n| n.0.to_string()).collect();
                if items.len() > SHOWN {
                    shown.push(format!("... ({} elements)", items.len()));
                }
                format!("{name} = {{{}}}", shown.join(", "))
            }
            NumOrList::Pointer(p) => format!("{name} = {}", heap_value_text(p)),
        })
        .collect();
    if !test.heap_in.is_empty() {
        parts.push(format!("heap: {} object(s)", test.heap_in.len()));
    }
    // Out of memory is an input too: which calls return NULL.
    for f in &test.failed_allocations {
        parts.push(format!("{} at {} returns NULL", f.function, f.location));
    }
    if parts.is_empty() {
        "no inputs".into()
    } else {
        parts.join(", ")
    }
}

/// A `physicalLocation` (region only for a known line; SARIF lines and
/// columns start at 1, the JSON's 0 means unknown).
fn physical(uri: String, line: u32, col: u32) -> Value {
    // A relative reference is resolved against the checkout's root; SARIF
    // forbids a base for an absolute URI.
    let artifact =
        if uri.contains("://") { json!({"uri": uri}) } else { json!({"uri": uri, "uriBaseId": "%SRCROOT%"}) };
    let mut loc = json!({ "artifactLocation": artifact });
    if line > 0 {
        let mut region = json!({"startLine": line});
        if col > 0 {
            region["startColumn"] = json!(col);
        }
        loc["region"] = region;
    }
    loc
}

fn step_location(step: &StepJson, uri: &dyn Fn(&str) -> String) -> Value {
    let side = if step.taken { "true" } else { "false" };
    let text = match &step.loop_iter {
        Some(l) => format!("{}: condition {side} (loop iteration {})", step.function, l.iteration),
        None => format!("{}: condition {side}", step.function),
    };
    json!({"location": {"physicalLocation": physical(uri(&step.file), step.line, step.col), "message": {"text": text}}})
}

fn result(suite: &SuiteJson, test: &TestJson, rule_index: usize, uri: &dyn Fn(&str) -> String) -> Option<Value> {
    let e = test.error.as_ref()?;
    let (_, level, _) = kind_info(&e.kind);
    let text = format!(
        "{} in {}: test {} ({}) reaches it with {}",
        e.message,
        suite.function,
        test.id,
        test.name,
        inputs_text(test)
    );
    let mut r = json!({
        "ruleId": e.kind,
        "ruleIndex": rule_index,
        "level": level,
        "message": {"text": text},
        "locations": [{
            "physicalLocation": physical(uri(&e.file), e.line, e.col),
            "logicalLocations": [{"name": suite.function, "kind": "function"}],
        }],
        "properties": {"test": test.id, "testName": test.name, "inputs": test.inputs, "samePaths": e.same_error_paths},
    });
    let steps: Vec<Value> = test.path.iter().map(|s| step_location(s, uri)).collect();
    if !steps.is_empty() {
        r["codeFlows"] = json!([{"threadFlows": [{"locations": steps}]}]);
    }
    Some(r)
}

/// The SARIF log of the error tests of `suites`. `uri(i, file)` maps a
/// file as the JSON of `suites[i]` names it to the URI to write (each
/// suite names files relative to its own `gen` run); `version` is
/// Pathwise's.
pub fn sarif_log(suites: &[SuiteJson], uri: &dyn Fn(usize, &str) -> String, version: &str) -> Value {
    let kinds: BTreeSet<&str> =
        suites.iter().flat_map(|s| &s.tests).filter_map(|t| t.error.as_ref()).map(|e| e.kind.as_str()).collect();
    let kinds: Vec<&str> = kinds.into_iter().collect();
    let rules: Vec<Value> = kinds
        .iter()
        .map(|&k| {
            let (text, level, cwe) = kind_info(k);
            let text = if text.is_empty() { k.to_string() } else { text.to_string() };
            let mut tags = vec!["correctness".to_string()];
            tags.extend(cwe.map(|n| format!("external/cwe/cwe-{n}")));
            json!({
                "id": k,
                "name": camel(k),
                "shortDescription": {"text": text},
                "fullDescription": {"text": format!("{text}: a generated test reaches it (pathwise error kind `{k}`).")},
                "defaultConfiguration": {"level": level},
                "properties": {"tags": tags, "precision": "very-high"},
            })
        })
        .collect();
    let mut sorted: Vec<(usize, &SuiteJson)> = suites.iter().enumerate().collect();
    sorted.sort_by(|a, b| a.1.function.cmp(&b.1.function));
    let results: Vec<Value> = sorted
        .iter()
        .flat_map(|&(i, s)| s.tests.iter().map(move |t| (i, s, t)))
        .filter_map(|(i, s, t)| {
            let kind = t.error.as_ref()?.kind.as_str();
            result(s, t, kinds.iter().position(|&k| k == kind)?, &|file: &str| uri(i, file))
        })
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "Pathwise", "version": version, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_are_camel_case() {
        assert_eq!(camel("division-by-zero"), "DivisionByZero");
        assert_eq!(camel("out-of-bounds"), "OutOfBounds");
    }

    #[test]
    fn known_kinds_have_descriptions() {
        for k in ["division-by-zero", "signed-overflow", "out-of-bounds", "null-dereference", "memory-leak"] {
            assert!(!kind_info(k).0.is_empty(), "{k}");
        }
        assert_eq!(kind_info("something-new"), ("", "error", None));
    }
}
