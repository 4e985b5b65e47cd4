//! Benchmark: long runs and deadlines (issue 23, "Deadlines and long
//! runs", "One test per bug"), as a user meets them: the `pathwise`
//! process's wall time, best of 3.
//!
//!     cargo bench -p pathwise-cli --bench long_runs
//!
//! - A loop over N input elements taking one symbolic decision each
//!   (`count_positive`, N = 1,000 .. 100,000, `--timeout 3`): runs and
//!   tests within the budget and seconds per run (`stats.elapsed_ms /
//!   stats.runs`). A run is linear in N: the array grows in place as the
//!   run reads it (before, one run per element: no test at N = 10,000).
//! - A block cipher's shape (ten rounds of table lookups over a 16-byte
//!   state and a 176-byte key schedule) under `--timeout 5`: the process
//!   ends within the grace period after the deadline with the tests found
//!   (before, one Z3 check ran for ten minutes and nothing was written).
//! - 40 sequential `if`s whose paths reach 14 division sites, `--timeout
//!   10`: tests, error tests (one per site) and folded paths, the JSON's
//!   size.
//! - A checksum over N input ints (`sum += v[i]`, N = 64 .. 4,096,
//!   `--timeout 30`): every iteration checks the sum for overflow. Before
//!   the integer reading of checked sums and the repeated-check rule
//!   (`search/repeated_checks.rs`), N = 64 already ran into the timeout
//!   (30.2 s, 291 MB) and N = 256 used 3.9 GB.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn pathwise() -> std::path::PathBuf {
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/release/pathwise");
    assert!(exe.is_file(), "build it first: cargo build --release -p pathwise-cli");
    exe
}

/// Best wall time of 3 runs of `gen` and the last run's JSON suite.
fn gen(dir: &Path, file: &str, function: &str, extra: &[&str]) -> (f64, serde_json::Value, u64) {
    let out = dir.join(format!("out-{function}"));
    let mut best = f64::MAX;
    let mut suite = serde_json::Value::Null;
    for _ in 0..3 {
        let start = Instant::now();
        let o = Command::new(pathwise())
            .args(["gen", file, "--function", function, "--json", "--out"])
            .arg(&out)
            .args(extra)
            .current_dir(dir)
            .output()
            .expect("run pathwise");
        best = best.min(start.elapsed().as_secs_f64());
        suite = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    }
    let json_bytes = std::fs::metadata(out.join(format!("{function}_tests.json"))).map_or(0, |m| m.len());
    (best, suite, json_bytes)
}

fn stat(suite: &serde_json::Value, name: &str) -> u64 {
    suite["stats"][name].as_u64().unwrap_or(0)
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path();
    println!("count_positive over N elements, --timeout 3");
    println!("{:>8} {:>7} {:>6} {:>6} {:>10}", "N", "wall s", "runs", "tests", "s per run");
    for n in [1_000u64, 10_000, 25_000, 100_000] {
        let src = format!(
            "int count_positive(const int v[{n}])\n{{\n    int c = 0;\n    for (int i = 0; i < {n}; i++)\n        \
             if (v[i] > 0)\n            c++;\n    return c;\n}}\n"
        );
        std::fs::write(d.join("count.c"), src).expect("write");
        let (wall, suite, _) = gen(d, "count.c", "count_positive", &["--timeout", "3", "--max-array-len", "100000"]);
        let runs = stat(&suite, "runs");
        let per_run = stat(&suite, "elapsed_ms") as f64 / 1000.0 / runs.max(1) as f64;
        println!("{n:>8} {wall:>7.2} {runs:>6} {:>6} {per_run:>10.3}", stat(&suite, "tests"));
    }
    let cipher = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/c/trust2/cipher.c");
    let (wall, suite, _) = gen(d, cipher.to_str().expect("utf-8 path"), "encrypt_block", &["--timeout", "5"]);
    println!(
        "\ncipher, --timeout 5: {wall:.2} s wall, {} test(s), stop {}",
        suite["tests"].as_array().map_or(0, Vec::len),
        suite["stop"]
    );
    let mut ifs = String::from("int many_ifs(int a[40], int d)\n{\n    int acc = 0;\n");
    for i in 0..40 {
        ifs += &format!("    if (a[{i}] > {i})\n        acc += 100 / (d - {});\n", i % 14);
    }
    ifs += "    return acc;\n}\n";
    std::fs::write(d.join("ifs.c"), ifs).expect("write");
    let (wall, suite, json) = gen(d, "ifs.c", "many_ifs", &["--timeout", "10"]);
    println!(
        "40 ifs, --timeout 10: {wall:.2} s wall, {} tests, {} error tests, {} error paths folded, JSON {} KB",
        stat(&suite, "tests"),
        stat(&suite, "error_tests"),
        stat(&suite, "error_paths_folded"),
        json / 1024
    );
    println!("\nchecksum over N ints (sum += v[i]), --timeout 30");
    println!("{:>6} {:>7} {:>6} {:>6} {:>9}  stop", "N", "wall s", "tests", "errors", "repeated");
    for n in [64u64, 256, 1_024, 4_096] {
        let src = format!(
            "int checksum(const int v[{n}])\n{{\n    int s = 0;\n    for (int i = 0; i < {n}; i++)\n        \
             s += v[i];\n    return s;\n}}\n"
        );
        std::fs::write(d.join("sum.c"), src).expect("write");
        let (wall, suite, _) = gen(d, "sum.c", "checksum", &["--timeout", "30", "--max-array-len", "4096"]);
        println!(
            "{n:>6} {wall:>7.2} {:>6} {:>6} {:>9}  {}",
            stat(&suite, "tests"),
            stat(&suite, "error_tests"),
            stat(&suite, "error_checks_repeated"),
            suite["stop"]
        );
    }
}
