//! Every error kind of tests/c/errors.c is found with its kind and line, and
//! its counterpart (`NAME_ok`) reports none; the tests, error tests
//! included, pass when compiled natively.

use std::path::PathBuf;
use std::process::Command;

use pathwise_cli::replay::{replay, ReplayOptions};

/// (function, errors as (kind, line) in test order). gcov's coverage must
/// agree with the prediction for every case, those ending by a signal
/// (abort, failed assert, null dereference) included: the harness's signal
/// handler writes the counters (replay links `__gcov_dump` in for it).
const CASES: &[(&str, &[(&str, u64)])] = &[
    ("div_zero", &[("division-by-zero", 10), ("division-overflow", 10)]),
    ("div_zero_ok", &[]),
    ("div_overflow", &[("division-overflow", 13)]),
    ("div_overflow_ok", &[]),
    ("overflow", &[("signed-overflow", 16)]),
    ("overflow_ok", &[]),
    ("shift", &[("invalid-shift", 19)]),
    ("shift_ok", &[]),
    ("oob_global", &[("out-of-bounds", 22)]),
    ("oob_global_ok", &[]),
    ("oob_local", &[("out-of-bounds", 25)]),
    ("oob_local_ok", &[]),
    ("null_deref", &[("null-dereference", 31)]),
    ("null_deref_ok", &[]),
    ("assertion", &[("assertion-failure", 34)]),
    ("assertion_ok", &[]),
    ("aborts", &[("abort", 37)]),
    ("aborts_ok", &[]),
    ("exits", &[("exit", 40)]),
    ("exits_ok", &[]),
];

#[test]
fn each_error_kind_is_found_and_its_counterpart_is_clean() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    for &(function, want) in CASES {
        let out = tempfile::tempdir().unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
            .args(["gen", "tests/c/errors.c", "--function", function, "--k", "2", "--out"])
            .arg(out.path())
            .current_dir(&root)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{function}: {}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(out.path().join(format!("{function}_tests.json"))).unwrap();
        let suite: serde_json::Value = serde_json::from_str(&text).unwrap();
        let tests = suite["tests"].as_array().unwrap();
        let errors: Vec<(String, u64)> = tests
            .iter()
            .filter(|t| t["outcome"] == "error")
            .map(|t| (t["error"]["kind"].as_str().unwrap().to_string(), t["error"]["line"].as_u64().unwrap()))
            .collect();
        let want: Vec<(String, u64)> = want.iter().map(|(k, l)| (k.to_string(), *l)).collect();
        assert_eq!(errors, want, "{function}");
        let opts = ReplayOptions {
            dir: out.path().to_path_buf(),
            include_dirs: vec![],
            defines: vec![],
            run_timeout: std::time::Duration::from_secs(60),
        };
        let outcome = replay(&opts).unwrap();
        assert_eq!((outcome.passed, outcome.failed), (tests.len() as u64, 0), "{function}: {:?}", outcome.failures);
        assert!(outcome.disagreements.is_empty(), "{function}: {:?}", outcome.disagreements);
    }
}
