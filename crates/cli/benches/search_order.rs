//! Benchmark: branch coverage at the timeout of searches that do not
//! finish, depth-first (the order before issue 28) against new branches
//! first (`gen`'s default under a time limit), as a user meets them: the
//! `pathwise` process with `--timeout`.
//!
//!     cargo build --release -p pathwise-cli
//!     cargo bench -p pathwise-cli --bench search_order [-- SECONDS [K]]
//!
//! (`PATHWISE_BIN=PATH` measures another binary.)
//!
//! Every function of the two corpora (`tests/c/corpus`, `tests/corpus`,
//! with the options their `// pathwise:` lines give) runs at `--k K`
//! (default 8) with `--timeout SECONDS` (default 3) in each order. The
//! table lists the functions that at least one order did not finish, with
//! the branch sides each covered (the suite's predicted coverage, which
//! replay checks against gcov in the corpus tests) and the tests found;
//! then the totals. Then the same functions without `--k` (deepening,
//! `--timeout SECONDS`): the largest complete k and the branch sides.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The release binary, or `$PATHWISE_BIN` (to measure a copy while the
/// tree is rebuilt).
fn pathwise() -> PathBuf {
    let exe = std::env::var_os("PATHWISE_BIN").map_or_else(|| root().join("target/release/pathwise"), PathBuf::from);
    assert!(exe.is_file(), "build it first: cargo build --release -p pathwise-cli");
    exe
}

/// Every corpus function: (file, function, extra options).
fn corpus() -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    let list = std::fs::read_to_string(root().join("tests/c/corpus/functions.txt")).expect("functions.txt");
    for line in list.lines().filter(|l| !l.starts_with('#')) {
        if let [file, function] = line.split_whitespace().collect::<Vec<_>>()[..] {
            out.push((format!("tests/c/corpus/{file}"), function.to_string(), Vec::new()));
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/corpus"))
        .expect("tests/corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        for line in text.lines().filter_map(|l| l.strip_prefix("// pathwise: gen ")) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(at) = words.iter().position(|w| *w == "--function") else { continue };
            let mut extra = Vec::new();
            let mut i = 0;
            while i < words.len() {
                // The bound and the time limit are the benchmark's; the
                // function is given apart.
                if matches!(words[i], "--function" | "--k" | "--timeout") {
                    i += 2;
                    continue;
                }
                extra.push(words[i].to_string());
                i += 1;
            }
            let name = format!("tests/corpus/{}", file.file_name().expect("name").to_string_lossy());
            out.push((name, words[at + 1].to_string(), extra));
        }
    }
    out
}

/// What one run ended with.
struct Outcome {
    stop: String,
    tests: usize,
    covered: u64,
    sides: u64,
    k: u64,
}

fn run(file: &str, function: &str, extra: &[String], args: &[&str]) -> Option<Outcome> {
    let out = tempfile::tempdir().expect("temporary directory");
    let o = Command::new(pathwise())
        .args(["gen", file, "--function", function, "--json", "--out"])
        .arg(out.path())
        .args(extra)
        .args(args)
        .current_dir(root())
        .output()
        .expect("run pathwise");
    let suite: serde_json::Value = serde_json::from_slice(&o.stdout).ok()?;
    let fs = suite["coverage"]["functions"].as_array()?;
    Some(Outcome {
        stop: suite["stop"].as_str().unwrap_or("?").to_string(),
        tests: suite["tests"].as_array().map_or(0, Vec::len),
        covered: fs.iter().filter_map(|f| f["branches_covered"].as_u64()).sum(),
        sides: fs.iter().filter_map(|f| f["branches"].as_u64()).sum(),
        k: suite["k"].as_u64().unwrap_or(0),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let seconds = args.first().map_or("3".to_string(), String::clone);
    let k = args.get(1).map_or("8".to_string(), String::clone);
    println!("branch sides covered at --timeout {seconds}, --k {k}: depth-first | new branches first");
    println!("{:<44} {:>14} {:>14} {:>6} {:>6}", "function", "depth-first", "new-branches", "tests", "tests");
    let (mut sum_df, mut sum_nb, mut sum_sides, mut unfinished) = (0, 0, 0, Vec::new());
    for (file, function, extra) in corpus() {
        let timed =
            |order: &'static str| run(&file, &function, &extra, &["--k", &k, "--timeout", &seconds, "--order", order]);
        let (Some(df), Some(nb)) = (timed("depth-first"), timed("new-branches-first")) else {
            println!("{:<44} (not generated)", format!("{file}:{function}"));
            continue;
        };
        // `explored`: ended by itself with some prefix undecided.
        let finished = |o: &Outcome| matches!(o.stop.as_str(), "complete" | "explored");
        if finished(&df) && finished(&nb) {
            continue;
        }
        let name = format!("{}:{function}", file.rsplit('/').next().unwrap_or(&file));
        let ratio =
            |o: &Outcome| format!("{}/{} {:>4}", o.covered, o.sides, o.stop.chars().take(4).collect::<String>());
        println!("{name:<44} {:>14} {:>14} {:>6} {:>6}", ratio(&df), ratio(&nb), df.tests, nb.tests);
        sum_df += df.covered;
        sum_nb += nb.covered;
        sum_sides += df.sides;
        unfinished.push((file, function, extra));
    }
    let pct = |n: u64| 100.0 * n as f64 / sum_sides.max(1) as f64;
    println!(
        "{} unfinished functions, {sum_sides} branch sides: depth-first {sum_df} ({:.1}%), new branches first \
         {sum_nb} ({:.1}%)",
        unfinished.len(),
        pct(sum_df),
        pct(sum_nb)
    );
    println!("\nthe same without --k (deepening within --timeout {seconds}): complete k, branch sides");
    let (mut deep_df, mut deep_nb) = (0, 0);
    for (file, function, extra) in &unfinished {
        let deep = |order: &'static str| run(file, function, extra, &["--timeout", &seconds, "--order", order]);
        let (Some(df), Some(nb)) = (deep("depth-first"), deep("new-branches-first")) else { continue };
        let name = format!("{}:{function}", file.rsplit('/').next().unwrap_or(file));
        println!(
            "{name:<44} k {:>2} {:>3}/{:<3} | k {:>2} {:>3}/{:<3}",
            df.k, df.covered, df.sides, nb.k, nb.covered, nb.sides
        );
        deep_df += df.covered;
        deep_nb += nb.covered;
    }
    println!(
        "deepening: depth-first (restarting each k) {deep_df}, new branches first (going on) {deep_nb} branch sides"
    );
}
