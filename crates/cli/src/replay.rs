//! `pathwise replay DIR`: compile the generated tests with coverage, run
//! them, and compare the coverage gcov measures with the coverage the
//! generator predicted (stored in `NAME_tests.json`).
//!
//! Agreement is judged line by line on the lines both sides know: the
//! generator's line set comes from IR locations and gcov's from gcc's line
//! table, and they legitimately differ at the edges (gcc counts the line of a
//! function's opening brace, the generator may attribute a `return` to the
//! closing one). A line both know must be covered on both sides or on
//! neither. Branch sides are compared as counts: both the total and the
//! number taken must match.
//!
//! Only the tests whose native runs record coverage count on either side:
//! a test process stopped inside a basic block (a trap of the
//! `signed-integer-overflow` check, a hardware fault) writes no gcov
//! counters, as they would be inconsistent, and an error test whose error
//! did not manifest natively writes none either (they would cover code past
//! the error). The test program lists those tests (`coverage: test N not
//! recorded`), and the prediction is rebuilt from the other tests' own
//! coverage in the JSON (`predict.rs`).
//!
//! Exit status (`print_outcome`): 0 when every test passed (an error not
//! observed natively is reported and counted apart, not a failure) and the
//! coverage agrees; 1 on a failure or a disagreement; 4 when the suite has
//! no test at all (nothing was checked, which a CI job should notice).
//!
//! A directory may hold the suites of several functions (`gen`'s default
//! `--out` is shared): each is built and run in a scratch directory of
//! its own, and the suite's directory is left as it was.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use pathwise_emit::json::{FunctionCoverageJson, SuiteJson};

use crate::gcov::{run_gcov, GcovReport};

/// Name of the coverage-instrumented test executable (built in a scratch
/// directory).
pub const EXE: &str = "pathwise_replay";

/// What to replay and how to build it.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    pub dir: PathBuf,
    /// Extra `-I` directories for gcc (those given to `gen`).
    pub include_dirs: Vec<PathBuf>,
    /// Extra `-D` definitions for gcc (`-UNAME` undefines).
    pub defines: Vec<String>,
    /// Further gcc options: a compilation database's `-std=...` and
    /// `-include FILE` (`pathwise project`'s index).
    pub extra_args: Vec<String>,
    /// Kill the test program after this long.
    pub run_timeout: Duration,
}

/// The generated files found in the directory.
#[derive(Clone, Debug)]
pub struct SuiteFiles {
    /// `NAME` of `NAME_tests.c`.
    pub name: String,
    pub c_file: PathBuf,
    pub json_file: PathBuf,
}

/// One row of the coverage table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverageRow {
    pub function: String,
    /// `(covered, total)` lines as gcov measured them; `None` if gcov has no
    /// record of the function.
    pub measured_lines: Option<(usize, usize)>,
    pub predicted_lines: (usize, usize),
    pub measured_branches: Option<(u64, u64)>,
    pub predicted_branches: (u64, u64),
}

/// The result of a replay.
#[derive(Clone, Debug, Default)]
pub struct ReplayOutcome {
    /// Tests in the suite (0: nothing was replayed).
    pub tests: usize,
    pub passed: u64,
    pub failed: u64,
    /// Error tests whose error did not manifest natively (the call
    /// returned): neither passed nor failed.
    pub not_observed: u64,
    /// The test program exited with status 0.
    pub exit_ok: bool,
    /// Lines of the test program's output reporting failures.
    pub failures: Vec<String>,
    /// Its lines reporting errors not observed natively.
    pub not_observed_lines: Vec<String>,
    /// The tests whose coverage the native run could not record, with why
    /// (`test 3: stopped by signal 4 inside a basic block`).
    pub unrecorded: Vec<String>,
    pub rows: Vec<CoverageRow>,
    /// Human-readable disagreements between measured and predicted coverage.
    pub disagreements: Vec<String>,
    /// Lines whose branches gcc compiled differently from the source's
    /// decisions, so that they cannot be compared.
    pub not_compared: Vec<String>,
    /// The statements and branch sides a complete statement or branch
    /// cover recorded as infeasible within the bound (`cover.infeasible`
    /// or `vc.infeasible` of the JSON), one line each: no test reaches
    /// them by design, so they are listed, not compared.
    pub infeasible: Vec<String>,
    /// The suite's tests, `(id, name of the C test function)`, in order
    /// (for `--junit`).
    pub test_names: Vec<(usize, String)>,
    /// What gcov measured (`None` when no test recorded coverage; for
    /// `--lcov`).
    pub measured: Option<GcovReport>,
    /// Why the suite could not be replayed at all (its test file does not
    /// compile, the program crashed before its summary): a failure that the
    /// other suites' replay and the `--junit` file still report.
    pub broken: Option<String>,
}

impl ReplayOutcome {
    /// Some test ran, every test passed and coverage agrees.
    pub fn is_success(&self) -> bool {
        self.broken.is_none() && self.tests > 0 && self.exit_ok && self.failed == 0 && self.disagreements.is_empty()
    }
}

/// Exit status of `replay` for a suite without tests.
pub const NOTHING_TO_REPLAY: i32 = crate::exit::NOTHING_TO_REPLAY;

/// Every `NAME_tests.c` in `dir` with its `NAME_tests.json`, by name:
/// `gen` writes the suites of several functions into one `--out`.
pub fn find_suites(dir: &Path) -> Result<Vec<SuiteFiles>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("cannot read directory {}", dir.display()))?;
    let mut names = Vec::new();
    for entry in entries {
        let file_name = entry?.file_name().to_string_lossy().into_owned();
        if let Some(name) = file_name.strip_suffix("_tests.c") {
            names.push(name.to_string());
        }
    }
    names.sort();
    if names.is_empty() {
        bail!("no *_tests.c file in {} (run `pathwise gen` first)", dir.display());
    }
    let mut suites = Vec::new();
    for name in names {
        let json_file = dir.join(format!("{name}_tests.json"));
        if !json_file.is_file() {
            bail!("{} has no matching {name}_tests.json", dir.join(format!("{name}_tests.c")).display());
        }
        suites.push(SuiteFiles { c_file: dir.join(format!("{name}_tests.c")), json_file, name });
    }
    Ok(suites)
}

/// The single suite in `dir` ([`replay`]'s; `pathwise replay` takes
/// several with [`replay_all`]).
pub fn find_suite_files(dir: &Path) -> Result<SuiteFiles> {
    let mut suites = find_suites(dir)?;
    if suites.len() > 1 {
        bail!(
            "several test files in {}: {} (replay_all replays each)",
            dir.display(),
            suites.iter().map(|s| format!("{}_tests.c", s.name)).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(suites.remove(0))
}
/// The UBSan checks that make the suite's error tests stop where the engine
/// stopped: only for the kinds of undefined behaviour some test expects
/// (each check adds branches that gcov may count).
fn traps_needed(suite: &SuiteJson) -> Vec<&'static str> {
    let mut out = Vec::new();
    for t in &suite.tests {
        let check = match t.error.as_ref().map(|e| e.kind.as_str()) {
            // Also checks `INT_MIN / -1` (with the division's check).
            Some("signed-overflow" | "division-overflow") => "signed-integer-overflow",
            Some("division-by-zero") => "integer-divide-by-zero",
            Some("null-dereference") => "null",
            Some("invalid-shift") if suite.overflow_checked => "shift",
            Some("invalid-shift") => "shift-exponent",
            Some("out-of-bounds") => "bounds",
            Some("float-cast-overflow") => "float-cast-overflow",
            Some("float-division-by-zero") => "float-divide-by-zero",
            Some("invalid-builtin-argument") => "builtin",
            _ => continue,
        };
        if !out.contains(&check) {
            out.push(check);
        }
    }
    out
}

/// `gcc --coverage -O0 -DPATHWISE_GCOV [-fsanitize=...] -o pathwise_replay DIR/NAME_tests.c`,
/// run in the scratch directory `build` (the program, its notes and its
/// counters are written there: the suite's directory stays as it was).
///
/// The undefined behaviour that error tests expect is made to trap where it
/// happens (UBSan in trap mode needs no run-time library), so that such a
/// test stops at its error as the engine's run did and gcov sees the same
/// lines. `PATHWISE_GCOV` turns on the harness's gcov code (it writes the
/// counters of a test process a signal ends, when they are consistent:
/// see the runner in `pathwise_emit::c_tests`); without it the test file
/// is plain C that builds without `--coverage`.
fn compile(opts: &ReplayOptions, files: &SuiteFiles, traps: &[&str], build: &Path) -> Result<()> {
    let mut cmd = Command::new("gcc");
    cmd.args(["--coverage", "-O0", "-DPATHWISE_GCOV", "-o", EXE]);
    if !traps.is_empty() {
        cmd.arg(format!("-fsanitize={}", traps.join(",")));
        cmd.arg("-fsanitize-undefined-trap-on-error");
    }
    for inc in &opts.include_dirs {
        // Relative include directories were given relative to the caller's
        // working directory, but gcc runs in the scratch directory.
        let abs = std::path::absolute(inc).unwrap_or_else(|_| inc.clone());
        cmd.arg("-I").arg(abs);
    }
    for def in &opts.defines {
        if def.starts_with("-U") || def.starts_with("-D") {
            cmd.arg(def);
        } else {
            cmd.arg(format!("-D{def}"));
        }
    }
    cmd.args(&opts.extra_args);
    cmd.arg(&files.c_file).current_dir(build);
    // The modelled `<math.h>` functions (`sqrt`, `floor`...) are libm's.
    cmd.arg("-lm");
    let out = cmd.output().context("cannot run gcc (is it installed and on PATH?)")?;
    if !out.status.success() {
        bail!("gcc could not compile {}:\n{}", files.c_file.display(), String::from_utf8_lossy(&out.stderr).trim_end());
    }
    Ok(())
}

/// Run the test program built in `build` with a time limit; returns
/// (exit ok, stdout).
fn run_tests(opts: &ReplayOptions, build: &Path) -> Result<(bool, String)> {
    let mut child = Command::new(build.join(EXE))
        .current_dir(build)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("cannot start the compiled tests")?;
    // Read on a thread so that a chatty program cannot fill the pipe and
    // block while we wait for it.
    let mut pipe = child.stdout.take().context("no stdout pipe")?;
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() > opts.run_timeout {
            let _ = child.kill();
            let _ = child.wait();
            bail!("the tests did not finish within {} s (killed)", opts.run_timeout.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = reader.join().unwrap_or_default();
    Ok((status.success(), String::from_utf8_lossy(&stdout).into_owned()))
}

/// `(passed, failed)` from the `P passed, F failed` line of the output.
pub fn parse_summary(output: &str) -> Option<(u64, u64)> {
    parse_summary_line(output).map(|(p, f, _)| (p, f))
}

/// `(passed, failed, errors not observed)` from the summary line, `P
/// passed, F failed[, U error(s) not observed natively]`.
pub fn parse_summary_line(output: &str) -> Option<(u64, u64, u64)> {
    output.lines().rev().find_map(|line| {
        // The code under test may have printed a line without its end:
        // the count is the last run of digits before " passed, ".
        let at = line.rfind(" passed, ")?;
        let head = &line[..at];
        let digits = head.len() - head.chars().rev().take_while(|c| c.is_ascii_digit()).count();
        let (p, rest) = (&head[digits..], line[at + " passed, ".len()..].trim_end());
        let (f, rest) = rest.split_once(" failed")?;
        let u = match rest.strip_prefix(", ") {
            Some(more) => more.strip_suffix(" error(s) not observed natively")?.parse().ok()?,
            None if rest.is_empty() => 0,
            None => return None,
        };
        Some((p.parse().ok()?, f.parse().ok()?, u))
    })
}

/// The tests whose native run recorded no coverage, from the program's
/// `coverage: test N not recorded (WHY)` lines: (ids, `test N: WHY`).
fn parse_unrecorded(output: &str) -> (std::collections::BTreeSet<usize>, Vec<String>) {
    let mut ids = std::collections::BTreeSet::new();
    let mut lines = Vec::new();
    for line in output.lines() {
        let Some(rest) = line.strip_prefix("coverage: test ") else { continue };
        let Some((id, why)) = rest.split_once(" not recorded") else { continue };
        if let Ok(id) = id.parse() {
            ids.insert(id);
            let why = why.trim().trim_start_matches('(').trim_end_matches(')');
            lines.push(format!("test {id}: {why}"));
        }
    }
    (ids, lines)
}

/// The `.gcda` file the test program wrote (name chosen by gcc).
fn find_gcda(dir: &Path) -> Result<String> {
    for entry in std::fs::read_dir(dir)? {
        let file = entry?.file_name().to_string_lossy().into_owned();
        if file.starts_with(EXE) && file.ends_with(".gcda") {
            return Ok(file);
        }
    }
    bail!("the test program wrote no coverage data (did it crash or call _exit?)")
}

fn fmt_ratio<T: std::fmt::Display>(r: Option<(T, T)>) -> String {
    r.map(|(a, b)| format!("{a}/{b}")).unwrap_or_else(|| "-".to_string())
}

/// Compare one function's predicted coverage with gcov's measurements.
fn compare_function(
    p: &FunctionCoverageJson,
    report: &GcovReport,
    out: &mut Vec<String>,
    not_compared: &mut Vec<String>,
) -> CoverageRow {
    // The program's `main` runs renamed, beside the test file's own.
    let gcov_name = if p.name == "main" { pathwise_emit::c_tests::RENAMED_MAIN } else { p.name.as_str() };
    let m = report.functions.get(gcov_name);
    let row = CoverageRow {
        function: p.name.clone(),
        measured_lines: m.map(|m| (m.lines_covered().count(), m.lines.len())),
        predicted_lines: (p.lines_covered.len(), p.lines.len()),
        measured_branches: m.map(|m| (m.branches_taken, m.branches)),
        predicted_branches: (p.branches_covered, p.branches),
    };
    let Some(m) = m else {
        if !p.lines_covered.is_empty() {
            out.push(format!("{}: predicted covered, but gcov has no data for it", p.name));
        }
        return row;
    };
    for &line in &p.lines {
        let Some(&count) = m.lines.get(&line) else { continue };
        let predicted = p.lines_covered.contains(&line);
        if predicted && count == 0 {
            out.push(format!("{}: line {line} predicted covered, gcov says never executed", p.name));
        } else if !predicted && count > 0 {
            out.push(format!("{}: line {line} predicted not covered, gcov says executed {count} time(s)", p.name));
        }
    }
    if let Some(lines) = &p.branch_lines {
        compare_branch_lines(p, lines, m, out, not_compared);
    } else {
        if (m.branches_taken, m.branches) != (p.branches_covered, p.branches) {
            out.push(format!(
                "{}: branches predicted {}/{} taken, gcov measured {}/{}",
                p.name, p.branches_covered, p.branches, m.branches_taken, m.branches
            ));
        }
    }
    row
}

/// Branches line by line. gcc sometimes compiles a source decision without
/// a branch (`a && b` on plain values evaluated without short circuit) or a
/// boolean value used in arithmetic with one (`x % (c + 1)` as `c ? x % 2 :
/// x % 1`): on such lines the counts differ and nothing can be compared, so
/// they are listed apart; every line whose counts match must agree.
fn compare_branch_lines(
    p: &FunctionCoverageJson,
    branch_lines: &[(u32, u64, u64)],
    m: &crate::gcov::MeasuredFunction,
    out: &mut Vec<String>,
    not_compared: &mut Vec<String>,
) {
    let predicted: std::collections::BTreeMap<u32, (u64, u64)> =
        branch_lines.iter().map(|&(line, n, c)| (line, (n, c))).collect();
    let lines: std::collections::BTreeSet<u32> = predicted.keys().chain(m.branch_lines.keys()).copied().collect();
    for line in lines {
        let (pn, pc) = predicted.get(&line).copied().unwrap_or((0, 0));
        let (mn, mc) = m.branch_lines.get(&line).copied().unwrap_or((0, 0));
        if pn != mn {
            not_compared.push(format!(
                "{}: line {line}: {pn} branch(es) in the source's decisions, {mn} in gcc's code",
                p.name
            ));
        } else if pc != mc {
            out.push(format!("{}: line {line}: branches predicted {pc}/{pn} taken, gcov measured {mc}/{mn}", p.name));
        }
    }
}

/// Compare every function of the predicted coverage: the table rows, the
/// disagreements, and the lines whose branches gcc compiled differently
/// from the source's decisions (not compared).
pub fn compare(
    predicted: &[FunctionCoverageJson],
    report: &GcovReport,
) -> (Vec<CoverageRow>, Vec<String>, Vec<String>) {
    let mut disagreements = Vec::new();
    let mut not_compared = Vec::new();
    let rows = predicted.iter().map(|p| compare_function(p, report, &mut disagreements, &mut not_compared)).collect();
    (rows, disagreements, not_compared)
}

/// The coverage table as text.
pub fn format_table(rows: &[CoverageRow]) -> String {
    let header = ["function", "lines measured", "predicted", "branches measured", "predicted"];
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [
                r.function.clone(),
                fmt_ratio(r.measured_lines),
                fmt_ratio(Some(r.predicted_lines)),
                fmt_ratio(r.measured_branches),
                fmt_ratio(Some(r.predicted_branches)),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.len());
        }
    }
    let mut text = String::new();
    let mut line = |cols: [&str; 5]| {
        let parts: Vec<String> = cols.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        text.push_str(parts.join("  ").trim_end());
        text.push('\n');
    };
    line(header);
    for row in &cells {
        line([&row[0], &row[1], &row[2], &row[3], &row[4]]);
    }
    text
}

/// Options of `pathwise replay`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReplayArgs {
    /// Directory written by `pathwise gen` (holds NAME_tests.c and NAME_tests.json), or by
    /// `pathwise project` (holds index.json).
    pub dir: PathBuf,
    /// Add a directory to gcc's include path (as given to `gen`).
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Define a macro for gcc (as given to `gen`; `gen` also repeats them in the test file).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// Kill the test program after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub run_timeout: u64,
    /// Also write the coverage gcov measured as an lcov tracefile (genhtml reads it).
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<PathBuf>,
    /// Also write the tests' native results as JUnit XML (one testcase per test).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

/// Run `pathwise replay`: every suite of the directory, each reported
/// under its name when there are several; returns the exit code (the
/// worst: a failure anywhere, else nothing to replay when no suite has a
/// test).
pub fn run(args: &ReplayArgs) -> Result<i32> {
    // A `pathwise project` output: every suite its index lists.
    if args.dir.join(crate::project::index::FILE).is_file() {
        return crate::project::replay_index::run(args);
    }
    let opts = ReplayOptions {
        dir: args.dir.clone(),
        include_dirs: args.include_dirs.clone(),
        defines: args.defines.clone(),
        extra_args: Vec::new(),
        run_timeout: Duration::from_secs(args.run_timeout.max(1)),
    };
    let outcomes = replay_all(&opts)?;
    let several = outcomes.len() > 1;
    let mut codes = Vec::new();
    for (i, (files, outcome)) in outcomes.iter().enumerate() {
        if several {
            println!("{}== {}_tests.c ==", if i > 0 { "\n" } else { "" }, files.name);
        }
        codes.push(print_outcome(outcome));
    }
    if several {
        let failing: Vec<&str> = outcomes
            .iter()
            .zip(&codes)
            .filter(|(_, &c)| c == crate::exit::FAILED)
            .map(|((f, _), _)| f.name.as_str())
            .collect();
        let verdict = match failing.as_slice() {
            [] => "none failed".to_string(),
            names => format!("failing: {}", names.join(", ")),
        };
        println!("\n{} suites replayed; {verdict}", outcomes.len());
    }
    crate::replay_reports::write_requested(args, &outcomes)?;
    Ok(if codes.contains(&crate::exit::FAILED) {
        crate::exit::FAILED
    } else if codes.iter().all(|&c| c == NOTHING_TO_REPLAY) {
        NOTHING_TO_REPLAY
    } else {
        crate::exit::COMPLETE
    })
}

/// Build, run and measure the tests of every suite in `opts.dir`.
pub fn replay_all(opts: &ReplayOptions) -> Result<Vec<(SuiteFiles, ReplayOutcome)>> {
    let opts = &canonical(opts)?;
    let mut out = Vec::new();
    for files in find_suites(&opts.dir)? {
        // One suite that cannot be built does not hide the others' results.
        let outcome = replay_suite(opts, &files)
            .unwrap_or_else(|e| ReplayOutcome { broken: Some(format!("{e:#}")), ..Default::default() });
        out.push((files, outcome));
    }
    Ok(out)
}

/// Build, run and measure the tests in `opts.dir`, which holds one suite.
pub fn replay(opts: &ReplayOptions) -> Result<ReplayOutcome> {
    let opts = &canonical(opts)?;
    replay_suite(opts, &find_suite_files(&opts.dir)?)
}

/// `opts` with its directory absolute: files are addressed there while
/// child processes run in a scratch directory.
fn canonical(opts: &ReplayOptions) -> Result<ReplayOptions> {
    let dir = opts.dir.canonicalize().with_context(|| format!("cannot read directory {}", opts.dir.display()))?;
    Ok(ReplayOptions { dir, ..opts.clone() })
}

/// Replay one suite: built and run in a scratch directory, removed after,
/// so that the suite's directory is left exactly as it was (a suite is
/// committed with the code; replaying it must not dirty the checkout).
fn replay_suite(opts: &ReplayOptions, files: &SuiteFiles) -> Result<ReplayOutcome> {
    let json = std::fs::read_to_string(&files.json_file)
        .with_context(|| format!("cannot read {}", files.json_file.display()))?;
    let suite: SuiteJson = pathwise_emit::suite_from_json_str(&json)
        .with_context(|| format!("{} is not a Pathwise test suite", files.json_file.display()))?;
    if suite.tests.is_empty() {
        return Ok(ReplayOutcome::default());
    }
    let scratch = tempfile::Builder::new()
        .prefix("pathwise-replay-")
        .tempdir()
        .context("cannot create a scratch directory to build the tests in")?;
    let build = scratch.path();
    let mut include_dirs = opts.include_dirs.clone();
    // The code under test may include "pathwise.h", which `gen` copied next
    // to the tests; from another directory gcc finds it there through -I.
    include_dirs.push(opts.dir.clone());
    // The test file includes the code under test by its name alone; the
    // JSON records its path relative to the suite's directory (absolute in
    // suites written before).
    // Canonical: gcc names an included file by the directory it was found
    // in, and gcov (12) mangles a `..` that climbs to the root
    // (`/tmp/out/../../src` became `src`), which `--lcov` would name.
    if let Some(dir) = suite.source.as_deref().and_then(|s| opts.dir.join(s).parent().map(Path::to_path_buf)) {
        include_dirs.push(dir.canonicalize().unwrap_or(dir));
    }
    compile(&ReplayOptions { include_dirs, ..opts.clone() }, files, &traps_needed(&suite), build)?;
    let (exit_ok, output) = run_tests(opts, build)?;
    let Some((passed, failed, not_observed)) = parse_summary_line(&output) else {
        bail!("the test program ended without its summary line (crashed?); its output:\n{}", output.trim_end());
    };
    let is_not_observed = |l: &&str| l.contains(": error not observed natively");
    let not_observed_lines = output.lines().filter(is_not_observed).map(str::to_string).collect();
    let failures =
        output.lines().filter(|l| l.starts_with("test ") && !is_not_observed(l)).map(str::to_string).collect();
    let (unrecorded_ids, unrecorded) = parse_unrecorded(&output);
    let predicted = crate::predict::recorded_coverage(&suite, &unrecorded_ids);
    let (rows, disagreements, not_compared, measured) = if unrecorded_ids.len() == suite.tests.len() {
        // No counters at all: nothing measured, nothing to compare.
        (Vec::new(), Vec::new(), Vec::new(), None)
    } else {
        let measured = run_gcov(build, &find_gcda(build)?)?;
        let (rows, disagreements, not_compared) = compare(&predicted, &measured);
        (rows, disagreements, not_compared, Some(measured))
    };
    Ok(ReplayOutcome {
        tests: suite.tests.len(),
        passed,
        failed,
        not_observed,
        exit_ok,
        failures,
        not_observed_lines,
        unrecorded,
        rows,
        disagreements,
        not_compared,
        infeasible: infeasible_code(&json),
        test_names: suite.tests.iter().map(|t| (t.id, t.name.clone())).collect(),
        measured,
        broken: None,
    })
}

/// The infeasible code a complete cover recorded in the suite's JSON:
/// `cover` (concolic) or `vc` (`--method vc`), same entries.
fn infeasible_code(json: &str) -> Vec<String> {
    infeasible_entries(json)
        .iter()
        .map(|e| pathwise_vc::generate::infeasible_line(&e.function, &e.location, e.side).trim().to_string())
        .collect()
}

/// The infeasible code entries of a suite's JSON text (`cover` or `vc`,
/// when complete; `vc` is not a field of [`SuiteJson`]: `gen --method vc`
/// adds it).
pub fn infeasible_entries(json: &str) -> Vec<pathwise_emit::json_goals::InfeasibleJson> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(json) else { return Vec::new() };
    let mut out = Vec::new();
    for key in ["cover", "vc"] {
        let Some(obj) = value.get(key) else { continue };
        if obj.get("complete").and_then(serde_json::Value::as_bool) != Some(true) {
            continue;
        }
        let list = obj.get("infeasible").cloned().unwrap_or_default();
        out.extend(serde_json::from_value::<Vec<_>>(list).unwrap_or_default());
    }
    out
}

/// Print the outcome; returns the process exit code (0: all good, 1: a
/// failure or a disagreement, [`NOTHING_TO_REPLAY`]: no test).
pub fn print_outcome(outcome: &ReplayOutcome) -> i32 {
    if let Some(why) = &outcome.broken {
        println!("error: {why}");
        return crate::exit::FAILED;
    }
    if outcome.tests == 0 {
        println!("nothing to replay: the suite has no tests (no coverage compared)");
        return NOTHING_TO_REPLAY;
    }
    for f in outcome.failures.iter().chain(&outcome.not_observed_lines) {
        println!("{f}");
    }
    print!("{} passed, {} failed", outcome.passed, outcome.failed);
    if outcome.not_observed > 0 {
        print!(", {} error(s) not observed natively (neither passed nor failed)", outcome.not_observed);
    }
    println!();
    println!();
    if !outcome.unrecorded.is_empty() {
        println!("coverage not recorded natively (left out of both sides of the comparison):");
        for u in &outcome.unrecorded {
            println!("  {u}");
        }
    }
    if outcome.unrecorded.len() == outcome.tests {
        println!("coverage not compared: no test's native run recorded coverage");
    } else {
        print_comparison(outcome);
    }
    if !outcome.exit_ok && outcome.failed == 0 {
        println!("the test program exited with a failure status");
    }
    i32::from(!outcome.is_success())
}

/// The coverage table, the lines not compared and the verdict.
fn print_comparison(outcome: &ReplayOutcome) {
    print!("{}", format_table(&outcome.rows));
    println!("(lines are compared where gcov and the prediction both list a line; gcov also counts e.g. a function's opening line;");
    println!(" branches are compared line by line where gcc kept the source's decisions)");
    println!();
    if !outcome.not_compared.is_empty() {
        println!("not compared (gcc compiled these conditions with other branches):");
        for n in &outcome.not_compared {
            println!("  {n}");
        }
    }
    if !outcome.infeasible.is_empty() {
        println!("infeasible within the bound (gen's complete cover: no test reaches them, not a disagreement):");
        for i in &outcome.infeasible {
            println!("  {i} (infeasible)");
        }
    }
    if outcome.disagreements.is_empty() {
        println!("coverage agrees");
    } else {
        println!("coverage disagrees:");
        for d in &outcome.disagreements {
            println!("  {d}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_summary_line() {
        assert_eq!(parse_summary("test 2: return expected 3 got 2\n1 passed, 1 failed\n"), Some((1, 1)));
        assert_eq!(parse_summary("garbage"), None);
        let with_unobserved = "2 passed, 0 failed, 3 error(s) not observed natively\n";
        assert_eq!(parse_summary_line(with_unobserved), Some((2, 0, 3)));
        assert_eq!(parse_summary_line("2 passed, 0 failed, and more\n"), None);
        // Output of the code under test without a final newline.
        assert_eq!(parse_summary("hello3 passed, 1 failed\n"), Some((3, 1)));
        let (ids, why) = parse_unrecorded(
            "coverage: test 3 not recorded (stopped by signal 4 inside a basic block)\n1 passed, 0 failed\n",
        );
        assert_eq!(ids.into_iter().collect::<Vec<_>>(), vec![3]);
        assert_eq!(why, vec!["test 3: stopped by signal 4 inside a basic block".to_string()]);
    }

    #[test]
    fn compares_on_common_lines() {
        let mut report = GcovReport::default();
        let mut m = crate::gcov::MeasuredFunction { name: "f".into(), ..Default::default() };
        m.lines.extend([(1, 2), (2, 2), (3, 0), (4, 1)]);
        m.branches = 2;
        m.branches_taken = 1;
        report.functions.insert("f".into(), m);
        let p = FunctionCoverageJson {
            name: "f".into(),
            file: None,
            // Line 9 is unknown to gcov: ignored; line 1 unknown to us: ignored.
            lines: vec![2, 3, 4, 9],
            lines_covered: vec![2, 4, 9],
            branches: 2,
            branches_covered: 1,
            branch_lines: None,
        };
        let (rows, dis, _) = compare(std::slice::from_ref(&p), &report);
        assert!(dis.is_empty(), "{dis:?}");
        assert_eq!(rows[0].measured_lines, Some((3, 4)));
        let wrong = FunctionCoverageJson { lines_covered: vec![3], branches_covered: 2, ..p.clone() };
        let (_, dis, _) = compare(&[wrong], &report);
        assert_eq!(dis.len(), 4, "{dis:?}");
        let table = format_table(&rows);
        assert!(
            table.starts_with("function  lines measured  predicted  branches measured  predicted\nf         3/4"),
            "{table}"
        );
    }

    #[test]
    fn compares_branches_line_by_line() {
        let mut report = GcovReport::default();
        let mut m = crate::gcov::MeasuredFunction { name: "f".into(), ..Default::default() };
        // Line 2: a decision, both sides taken. Line 5: gcc made a branch of
        // a boolean value (no decision in the source). Line 7: one side.
        m.branch_lines.extend([(2, (2, 2)), (5, (2, 1)), (7, (2, 1))]);
        report.functions.insert("f".into(), m);
        let p = FunctionCoverageJson {
            name: "f".into(),
            file: None,
            lines: vec![],
            lines_covered: vec![],
            branches: 4,
            branches_covered: 3,
            branch_lines: Some(vec![(2, 2, 2), (7, 2, 1)]),
        };
        let (_, dis, not) = compare(std::slice::from_ref(&p), &report);
        assert!(dis.is_empty(), "{dis:?}");
        assert_eq!(not, vec!["f: line 5: 0 branch(es) in the source's decisions, 2 in gcc's code".to_string()]);
        let wrong = FunctionCoverageJson { branch_lines: Some(vec![(2, 2, 1), (7, 2, 1)]), ..p };
        let (_, dis, _) = compare(&[wrong], &report);
        assert_eq!(dis, vec!["f: line 2: branches predicted 1/2 taken, gcov measured 2/2".to_string()]);
    }
}
