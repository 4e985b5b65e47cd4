//! The real-library corpus of `tests/corpus/` (issue "Trustworthy on real C
//! libraries"): C files of functions written as string, buffer, parser,
//! encoding, checksum and container libraries write them, each function
//! preceded by a line
//!
//! ```text
//! // pathwise: gen --function NAME --k N [--precondition PRE] [options]
//! ```
//!
//! giving the options its suite is generated with. For every such line,
//! `pathwise gen` runs into a temporary directory and `pathwise replay`
//! checks the suite natively: gen must exit 0 with at least one test, and
//! replay must exit 0 (every test passes natively, none fails, and gcov's
//! coverage agrees with the prediction). The corpus holds at least 30
//! functions. A table of the functions (tests, error tests, stop reason,
//! times) is printed; `PATHWISE_CORPUS=NAME,...` runs only those functions
//! (the count is then not checked).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Longest a single gen or replay may take before it counts as hung.
const LIMIT: Duration = Duration::from_secs(150);

/// One `// pathwise:` line.
#[derive(Clone)]
struct Case {
    /// The C file, from the repository root.
    file: String,
    /// Its line number (1-based), for messages.
    line: usize,
    function: String,
    /// The arguments after `gen`.
    args: Vec<String>,
}

/// What running a case gave.
struct Outcome {
    case: Case,
    tests: usize,
    errors: usize,
    stop: String,
    gen_time: Duration,
    replay_time: Duration,
    problems: Vec<String>,
}

/// Every `// pathwise: gen ...` line of the corpus's C files, in file and
/// line order.
fn cases() -> Vec<Case> {
    let dir = root().join("tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = format!("tests/corpus/{}", path.file_name().unwrap().to_string_lossy());
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, l) in text.lines().enumerate() {
            let Some(rest) = l.strip_prefix("// pathwise:") else { continue };
            let words: Vec<String> = rest.split_whitespace().map(String::from).collect();
            assert_eq!(words.first().map(String::as_str), Some("gen"), "{file}:{}: not a `gen` line", i + 1);
            let args = words[1..].to_vec();
            let at = args.iter().position(|a| a == "--function" || a == "-f");
            let function =
                at.and_then(|j| args.get(j + 1)).unwrap_or_else(|| panic!("{file}:{}: no --function", i + 1)).clone();
            out.push(Case { file: file.clone(), line: i + 1, function, args });
        }
    }
    out
}

/// Run `cmd` with its output in files of `dir` (named `name`), killed
/// after [`LIMIT`]: (exit code, stdout, stderr, time); `None` as the code
/// when it was killed or died by a signal.
fn run(mut cmd: Command, dir: &Path, name: &str) -> (Option<i32>, String, String, Duration) {
    let (out_path, err_path) = (dir.join(format!("{name}.stdout")), dir.join(format!("{name}.stderr")));
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::from(std::fs::File::create(&out_path).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()))
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > LIMIT {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    (status.and_then(|s| s.code()), read(&out_path), read(&err_path), start.elapsed())
}

/// `N passed, M failed[, K error(s) not observed natively]` of replay's
/// output: (N + K, M).
fn replay_counts(stdout: &str) -> Option<(usize, usize)> {
    let l = stdout.lines().find(|l| l.contains(" passed, ") && l.contains(" failed"))?;
    let nums: Vec<usize> =
        l.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).filter_map(|w| w.parse().ok()).collect();
    match nums[..] {
        [passed, failed] => Some((passed, failed)),
        [passed, failed, not_observed] => Some((passed + not_observed, failed)),
        _ => None,
    }
}

/// Generate and replay one case; every departure from the expectations is
/// a problem.
fn run_case(case: &Case) -> Outcome {
    let bin = env!("CARGO_BIN_EXE_pathwise");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("suite");
    let mut outcome = Outcome {
        case: case.clone(),
        tests: 0,
        errors: 0,
        stop: String::new(),
        gen_time: Duration::ZERO,
        replay_time: Duration::ZERO,
        problems: Vec::new(),
    };
    let mut gen = Command::new(bin);
    gen.arg("gen").arg(&case.file).args(&case.args).args(["-I", "crates/cfront/include", "--out"]).arg(&out);
    gen.current_dir(root());
    let (code, _, stderr, time) = run(gen, tmp.path(), "gen");
    outcome.gen_time = time;
    if code != Some(0) {
        outcome.problems.push(format!("gen exited with {code:?}: {}", stderr.trim()));
        return outcome;
    }
    let json = out.join(format!("{}_tests.json", case.function));
    let suite: serde_json::Value = match std::fs::read_to_string(&json).map(|t| serde_json::from_str(&t)) {
        Ok(Ok(v)) => v,
        _ => {
            outcome.problems.push(format!("no readable {}", json.display()));
            return outcome;
        }
    };
    let tests = suite["tests"].as_array().cloned().unwrap_or_default();
    outcome.tests = tests.len();
    outcome.errors = tests.iter().filter(|t| t["outcome"] == "error").count();
    outcome.stop = suite["stop"].as_str().unwrap_or("?").to_string();
    if tests.is_empty() {
        outcome.problems.push("gen found no test".into());
        return outcome;
    }
    let mut replay = Command::new(bin);
    replay.arg("replay").arg(&out).current_dir(root());
    let (code, stdout, stderr, time) = run(replay, tmp.path(), "replay");
    outcome.replay_time = time;
    match replay_counts(&stdout) {
        Some((ran, 0)) if ran == tests.len() => {}
        Some((ran, failed)) => {
            outcome.problems.push(format!("replay: {ran} passed, {failed} failed of {}", tests.len()))
        }
        None => outcome.problems.push("replay printed no pass/fail count".into()),
    }
    if code != Some(0) {
        let tail: Vec<&str> = stdout.lines().rev().take(12).collect::<Vec<_>>().into_iter().rev().collect();
        outcome.problems.push(format!("replay exited with {code:?}:\n{}\n{}", tail.join("\n"), stderr.trim()));
    } else if !stdout.contains("coverage agrees") {
        outcome.problems.push("replay did not report that coverage agrees".into());
    }
    outcome
}

/// The table printed after the run.
fn table(outcomes: &[Outcome]) -> String {
    let mut s = format!(
        "{:<26} {:<22} {:>6} {:>6}  {:<9} {:>8} {:>8}\n",
        "function", "file", "tests", "errors", "stop", "gen s", "replay s"
    );
    for o in outcomes {
        let file = o.case.file.trim_start_matches("tests/corpus/");
        s += &format!(
            "{:<26} {:<22} {:>6} {:>6}  {:<9} {:>8.2} {:>8.2}{}\n",
            o.case.function,
            format!("{file}:{}", o.case.line),
            o.tests,
            o.errors,
            o.stop,
            o.gen_time.as_secs_f64(),
            o.replay_time.as_secs_f64(),
            if o.problems.is_empty() { "" } else { "  FAILED" }
        );
    }
    let total: Duration = outcomes.iter().map(|o| o.gen_time + o.replay_time).sum();
    let tests: usize = outcomes.iter().map(|o| o.tests).sum();
    s += &format!("{} functions, {tests} tests, {:.1} s of gen and replay\n", outcomes.len(), total.as_secs_f64());
    s
}

#[test]
fn corpus_generates_and_replays() {
    let only: Option<Vec<String>> =
        std::env::var("PATHWISE_CORPUS").ok().map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let all = cases();
    let mut names: Vec<&str> = all.iter().map(|c| c.function.as_str()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len(), "a function has two `// pathwise:` lines");
    let selected: Vec<Case> =
        all.iter().filter(|c| only.as_ref().is_none_or(|o| o.contains(&c.function))).cloned().collect();
    if only.is_none() {
        assert!(selected.len() >= 30, "the corpus has {} functions, fewer than 30", selected.len());
    }

    // Two workers (the machine has two cores): each takes the next case.
    let queue = Mutex::new(selected.iter().enumerate().collect::<Vec<_>>().into_iter());
    let results: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let next = queue.lock().unwrap().next();
                let Some((i, case)) = next else { break };
                let outcome = run_case(case);
                results.lock().unwrap().push((i, outcome));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    let outcomes: Vec<Outcome> = results.into_iter().map(|(_, o)| o).collect();
    println!("{}", table(&outcomes));

    let failures: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.problems.is_empty())
        .map(|o| format!("{} ({}:{}):\n  {}", o.case.function, o.case.file, o.case.line, o.problems.join("\n  ")))
        .collect();
    assert!(failures.is_empty(), "{} of {} functions failed:\n{}", failures.len(), outcomes.len(), failures.join("\n"));
}
