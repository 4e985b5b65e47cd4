//! `pathwise paths` from the command line: output, JSON, errors and the
//! path explosion guard (the consistency with `gen` is asserted in
//! `crates/paths/tests/consistency.rs`).

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pathwise")).arg("paths").args(args).output().expect("runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

const MERGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/bench/merge.c");

#[test]
fn merge_counts_and_json() {
    let (code, out, _) = run(&[MERGE, "-f", "Merge", "--depth", "2"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("Merge: 126 static paths of depth <= 2 (depth 0: 2, depth 1: 22, depth 2: 102)\n"),
        "{out}"
    );
    assert!(out.contains("\npath 126 (depth 0): ") && out.contains("merge.c:17:12 F, "), "{out}");
    let (code, out, _) =
        run(&[MERGE, "-f", "Merge", "--depth", "2", "--feasibility", "--precondition", "merge_pre", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["paths"].as_array().unwrap().len(), 126);
    assert_eq!(v["per_depth"], serde_json::json!([2, 22, 102]));
    assert_eq!(v["feasibility"]["feasible"], 17);
    assert_eq!(v["feasibility"]["infeasible"], 109);
    assert_eq!(v["feasibility"]["unknown"], 0);
    let last = &v["paths"][125];
    assert_eq!(last["feasibility"]["status"], "feasible");
    assert!(
        last["feasibility"]["witness"]["inputs"].is_array() || last["feasibility"]["witness"]["inputs"].is_object()
    );
    assert!(last["decisions"][0]["loc"].as_str().unwrap().ends_with("tests/bench/merge.c:17:12"));
}

#[test]
fn errors_are_clear() {
    let (code, _, err) = run(&[MERGE, "-f", "Nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("function `Nope` not found; functions defined: "), "{err}");
    let (code, _, err) = run(&["/nonexistent.c", "-f", "f"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent.c: no such file"), "{err}");
    let (code, _, err) = run(&[MERGE, "-f", "Merge", "--depth", "5", "--max-paths", "100"]);
    assert_eq!(code, 2);
    assert!(err.contains("error: `Merge` has more than 100 static paths of depth <= 5 ("), "{err}");
    assert!(err.contains("counted when the enumeration stopped); lower --depth or raise --max-paths"), "{err}");
}
