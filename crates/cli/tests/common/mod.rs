//! Shared by the end-to-end tests: generate a suite with the CLI for a C
//! file of the repository, replay it natively (every test must pass), and
//! read its JSON.

use std::path::PathBuf;
use std::process::Command;

use pathwise_cli::replay::{replay, ReplayOptions};

/// Generate for `function` of `file` (a path from the repository root;
/// `extra` arguments after the function, `--k 2` unless they give a k),
/// replay natively and return the JSON suite. With `compare_coverage`,
/// gcov must agree with the prediction.
pub fn generate_and_replay(file: &str, function: &str, extra: &[&str], compare_coverage: bool) -> serde_json::Value {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", file, "-I", "crates/cfront/include", "--function", function, "--out"])
        .arg(out.path())
        .args(extra)
        .args(if extra.contains(&"--k") { &[][..] } else { &["--k", "2"][..] })
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{function}: {}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.path().join(format!("{function}_tests.json"))).unwrap();
    let suite: serde_json::Value = serde_json::from_str(&text).unwrap();
    let n = suite["tests"].as_array().unwrap().len() as u64;
    let opts = ReplayOptions {
        dir: out.path().to_path_buf(),
        include_dirs: vec![root.join("crates/cfront/include")],
        defines: vec![],
        run_timeout: std::time::Duration::from_secs(60),
    };
    let outcome = replay(&opts).unwrap();
    assert_eq!((outcome.passed, outcome.failed), (n, 0), "{function}: {:?}", outcome.failures);
    if compare_coverage {
        assert!(outcome.disagreements.is_empty(), "{function}: {:?}", outcome.disagreements);
    }
    suite
}

/// The error tests of a suite: (kind, line), in test order.
pub fn errors(suite: &serde_json::Value) -> Vec<(String, u64)> {
    suite["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["outcome"] == "error")
        .map(|t| (t["error"]["kind"].as_str().unwrap().to_string(), t["error"]["line"].as_u64().unwrap()))
        .collect()
}

/// The returns of a suite's tests that return, sorted.
#[allow(dead_code)] // each test file compiles its own copy; not all use it
pub fn returns(suite: &serde_json::Value) -> Vec<i64> {
    let mut rets: Vec<i64> =
        suite["tests"].as_array().unwrap().iter().filter_map(|t| t["expected"]["return"].as_i64()).collect();
    rets.sort();
    rets
}
