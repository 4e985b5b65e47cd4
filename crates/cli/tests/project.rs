//! `pathwise project`, `merge` and the replay of an index, on the
//! acceptance project `tests/project/` (9 C files, 60 functions to test,
//! a `compile_commands.json` with relative directories in both the
//! `arguments` and the `command` form, a `pathwise.toml`), copied into a
//! temporary directory for each test: every function processed, the two
//! setjmp/longjmp functions failed with their reason, the same files
//! whatever `--jobs`, an incremental run after an edit that searches
//! exactly the functions the edit reaches, 4 shards merged equal to one
//! run, and the index replayed natively; then bad input (exit 2, no
//! panic), a file that does not compile, a time budget, and the filters.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The acceptance project in the repository.
fn project_source() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/project")
}

/// A fresh copy of the acceptance project (its database names relative
/// directories, so that it works wherever it is).
fn project_copy() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("project");
    copy_tree(&project_source(), &dir);
    (tmp, dir)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn pathwise(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathwise")).args(args).current_dir(cwd).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// `pathwise project DIR --out OUT ARGS...`: its output, which must have
/// exited with `code`, and the index it wrote.
fn project(dir: &Path, out: &Path, args: &[&str], code: i32) -> (String, Value) {
    let mut all = vec!["project", dir.to_str().unwrap(), "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = pathwise(&all, if dir.is_dir() { dir } else { dir.parent().unwrap() });
    assert_eq!(o.status.code(), Some(code), "{}", text(&o));
    let index = serde_json::from_str(&std::fs::read_to_string(out.join("index.json")).unwrap()).unwrap();
    (text(&o), index)
}

/// `value` without the fields that hold times (the only ones two runs of
/// the same functions may differ in) and, with `reuse`, without `reused`.
fn timeless(value: &Value, drop_reused: bool) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "elapsed_ms" | "solver_ms"))
                .filter(|(k, _)| !(drop_reused && matches!(k.as_str(), "reused" | "searched")))
                .map(|(k, v)| (k.clone(), timeless(v, drop_reused)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| timeless(v, drop_reused)).collect()),
        other => other.clone(),
    }
}

/// Every file under `dir` by relative path: JSON files without their
/// times, others as their bytes.
fn contents(dir: &Path) -> BTreeMap<String, String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
                continue;
            }
            let rel = path.strip_prefix(base).unwrap().display().to_string();
            let raw = std::fs::read_to_string(&path).unwrap();
            let content = if rel.ends_with(".json") {
                let v: Value = serde_json::from_str(&raw).unwrap();
                serde_json::to_string_pretty(&timeless(&v, true)).unwrap()
            } else {
                raw
            };
            out.insert(rel, content);
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn names(index: &Value, pred: impl Fn(&Value) -> bool) -> Vec<String> {
    index["functions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| pred(e))
        .map(|e| format!("{}:{}", e["file"].as_str().unwrap(), e["function"].as_str().unwrap()))
        .collect()
}

fn entry<'a>(index: &'a Value, function: &str) -> &'a Value {
    index["functions"].as_array().unwrap().iter().find(|e| e["function"] == function).unwrap()
}

fn suite(out: &Path, index: &Value, function: &str) -> Value {
    let path = out.join(entry(index, function)["suite"].as_str().unwrap());
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_function_is_processed_and_the_index_replays() {
    let (tmp, dir) = project_copy();
    let out = tmp.path().join("out");
    let (stdout, index) = project(&dir, &out, &["--jobs", "2"], 7);
    let s = &index["summary"];
    assert_eq!((s["functions"].as_u64(), s["complete"].as_u64(), s["failed"].as_u64()), (Some(60), Some(58), Some(2)));
    assert_eq!((s["limit"].as_u64(), s["searched"].as_u64(), s["reused"].as_u64()), (Some(0), Some(58), Some(0)));
    let files: std::collections::BTreeSet<&str> =
        index["functions"].as_array().unwrap().iter().map(|e| e["file"].as_str().unwrap()).collect();
    assert_eq!(files.len(), 9, "{files:?}");
    // The failures and their reasons, in the index and the summary.
    assert_eq!(
        names(&index, |e| e["status"] == "failed"),
        vec!["src/jumpy.c:checked_div".to_string(), "src/jumpy.c:try_div".to_string()]
    );
    for f in ["checked_div", "try_div"] {
        let reason = entry(&index, f)["reason"].as_str().unwrap();
        assert!(reason.contains("setjmp/longjmp are not supported") && reason.starts_with("src/jumpy.c:"), "{reason}");
        assert!(entry(&index, f).get("suite").is_none());
        assert!(stdout.contains(&format!("failed: src/jumpy.c:{f}: src/jumpy.c:")), "{stdout}");
    }
    // Static functions are tested; preconditions (NAME_pre, and gcd_args
    // named in pathwise.toml) and the header's function are not.
    let all = names(&index, |_| true);
    for f in ["src/strutil.c:is_space", "src/ring.c:ring_ok", "src/token.c:is_digit", "src/jumpy.c:safe_mod"] {
        assert!(all.contains(&f.to_string()), "{f}");
    }
    for f in ["ring_push_pre", "next_token_pre", "parse_int_pre", "gcd_args", "bit_at", "door_apply_pre"] {
        assert!(!all.iter().any(|n| n.ends_with(&format!(":{f}"))), "{f}");
    }
    assert_eq!(suite(&out, &index, "ring_push")["precondition"], "ring_push_pre");
    assert_eq!(suite(&out, &index, "gcd")["precondition"], "gcd_args");
    // pathwise.toml: k, criterion, externals; the file's flags.
    assert_eq!(suite(&out, &index, "count_tokens")["k"], 1);
    assert_eq!(suite(&out, &index, "str_len")["k"], 2);
    assert_eq!(suite(&out, &index, "adler32")["cover"]["criterion"], "branches");
    assert_eq!(entry(&index, "door_apply")["status"], "complete");
    assert_eq!(entry(&index, "ring_push")["flags"]["defines"], serde_json::json!(["RING_CAPACITY=8"]));
    assert_eq!(entry(&index, "parse_int")["flags"]["defines"], serde_json::json!(["NDEBUG", "-UNDEBUG"]));
    assert_eq!(entry(&index, "sum8")["flags"]["extra"], serde_json::json!(["-include", "include/config.h"]));
    assert_eq!(entry(&index, "str_len")["flags"]["extra"], serde_json::json!(["-std=c99"]));
    assert_eq!(entry(&index, "gcd")["flags"]["include_dirs"], serde_json::json!(["include"]));
    let ring_tests = std::fs::read_to_string(out.join("src_ring.c/ring_push/ring_push_tests.c")).unwrap();
    assert!(ring_tests.contains("#define RING_CAPACITY 8"));
    assert!(entry(&index, "int_abs")["errors"].as_u64() == Some(1));
    let cov = &entry(&index, "sign")["coverage"];
    assert_eq!((cov["lines_covered"].as_u64(), cov["branches_covered"].as_u64()), (cov["lines"].as_u64(), Some(4)));
    // Every suite builds and passes natively with its file's flags; the
    // JUnit file has a testsuite per function, a testcase per test.
    let junit = tmp.path().join("junit.xml");
    let lcov = tmp.path().join("project.info");
    let args = ["replay", out.to_str().unwrap(), "--junit", junit.to_str().unwrap(), "--lcov", lcov.to_str().unwrap()];
    let o = pathwise(&args, tmp.path());
    let replayed = text(&o);
    assert_eq!(o.status.code(), Some(0), "{replayed}");
    assert!(replayed.contains("58 suites replayed (58 with tests); none failed"), "{replayed}");
    assert!(replayed.contains("== src/jumpy.c:try_div == not replayed: src/jumpy.c:17:8"), "{replayed}");
    assert_eq!(replayed.matches("coverage agrees").count(), 58, "{replayed}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<&str> =
        doc.descendants().filter(|n| n.has_tag_name("testsuite")).map(|n| n.attribute("name").unwrap()).collect();
    assert_eq!(suites.len(), 58);
    assert!(suites.contains(&"src/ring.c:ring_push"), "{suites:?}");
    let tests: u64 = index["functions"].as_array().unwrap().iter().filter_map(|e| e["tests"].as_u64()).sum();
    assert_eq!(doc.root_element().attribute("tests").unwrap().parse::<u64>().unwrap(), tests);
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
    // The report of the whole project: every suite, and the functions
    // without one with why; every error test in the SARIF log.
    let (html, sarif) = (tmp.path().join("report.html"), tmp.path().join("errors.sarif"));
    let o = pathwise(
        &["report", out.to_str().unwrap(), "--html", html.to_str().unwrap(), "--sarif", sarif.to_str().unwrap()],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("(58 function(s), 2 not tested)"), "{}", text(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<tr class=\"function\">").count(), 58);
    assert_eq!(page.matches("<tr class=\"untested\">").count(), 2);
    assert!(page.contains("<td>src/jumpy.c:try_div</td><td>src/jumpy.c:17:8: call to `_setjmp`"), "{page}");
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let errors: u64 = index["functions"].as_array().unwrap().iter().filter_map(|e| e["errors"].as_u64()).sum();
    assert!(errors > 0);
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len() as u64, errors);
    let info = std::fs::read_to_string(&lcov).unwrap();
    for file in ["bits.c", "ring.c", "strutil.c", "token.c"] {
        assert!(info.lines().any(|l| l.starts_with("SF:") && l.ends_with(file)), "{file} in the tracefile:\n{info}");
    }
}

#[test]
fn output_is_the_same_whatever_the_jobs() {
    let (tmp, dir) = project_copy();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    project(&dir, &one, &["--jobs", "1"], 7);
    project(&dir, &two, &["--jobs", "2"], 7);
    let (a, b) = (contents(&one), contents(&two));
    assert_eq!(a.len(), 58 * 3 + 1, "{:?}", a.keys().collect::<Vec<_>>());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (file, content) in &a {
        assert!(content == &b[file], "{file} differs between --jobs 1 and --jobs 2");
    }
}

#[test]
fn an_incremental_run_searches_only_what_an_edit_reaches() {
    let (tmp, dir) = project_copy();
    let out = tmp.path().join("out");
    let (_, first) = project(&dir, &out, &["--jobs", "2"], 7);
    let (_, again) = project(&dir, &out, &["--jobs", "2"], 7);
    assert_eq!((again["summary"]["searched"].as_u64(), again["summary"]["reused"].as_u64()), (Some(0), Some(58)));
    assert_eq!(timeless(&first, true), timeless(&again, true));
    // Edit the helper is_digit (same lines: the locations of the file's
    // other functions stay): it and its five callers, direct or not,
    // are searched again; the other 52 suites are kept.
    let token = dir.join("src/token.c");
    let source = std::fs::read_to_string(&token).unwrap();
    let edited = source.replace("return c >= '0' && c <= '9';", "return c <= '9' && c >= '0';");
    assert_ne!(source, edited);
    std::fs::write(&token, edited).unwrap();
    let (stdout, after) = project(&dir, &out, &["--jobs", "2"], 7);
    assert_eq!((after["summary"]["searched"].as_u64(), after["summary"]["reused"].as_u64()), (Some(6), Some(52)));
    assert!(stdout.contains("searched 6, reused 52"), "{stdout}");
    let searched = names(&after, |e| e["reused"] == false && e["status"] != "failed");
    let expected = ["is_digit", "classify_char", "scan_number", "scan_ident", "next_token", "count_tokens"];
    assert_eq!(searched, expected.iter().map(|f| format!("src/token.c:{f}")).collect::<Vec<_>>());
    for f in expected {
        assert_ne!(entry(&first, f)["hash"], entry(&after, f)["hash"], "{f}");
    }
    assert_eq!(entry(&first, "is_alpha")["hash"], entry(&after, "is_alpha")["hash"]);
    // An option changed in pathwise.toml: that function alone.
    let toml = dir.join("pathwise.toml");
    let settings = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{settings}\n[functions.sign]\nk = 3\n")).unwrap();
    let (_, opt) = project(&dir, &out, &["--jobs", "2"], 7);
    assert_eq!(names(&opt, |e| e["reused"] == false && e["status"] != "failed"), vec!["src/bits.c:sign".to_string()]);
    // --reuse-from another output at the same depth copies its suites; at
    // another depth they would name their source wrongly: searched again.
    let beside = tmp.path().join("beside");
    let (_, copied) = project(&dir, &beside, &["--jobs", "2", "--reuse-from", out.to_str().unwrap()], 7);
    assert_eq!(copied["summary"]["reused"].as_u64(), Some(58));
    assert_eq!(contents(&beside), contents(&out));
    let deeper = tmp.path().join("a/b/deeper");
    let (_, moved) = project(&dir, &deeper, &["--jobs", "2", "--reuse-from", out.to_str().unwrap()], 7);
    assert_eq!(moved["summary"]["searched"].as_u64(), Some(58));
    // --no-reuse searches everything again.
    let (_, fresh) = project(&dir, &out, &["--jobs", "2", "--no-reuse"], 7);
    assert_eq!(fresh["summary"]["searched"].as_u64(), Some(58));
}

#[test]
fn four_shards_merged_equal_one_run() {
    let (tmp, dir) = project_copy();
    let whole = tmp.path().join("whole");
    let (_, one) = project(&dir, &whole, &["--jobs", "2"], 7);
    let mut shard_dirs = Vec::new();
    let mut seen = Vec::new();
    for i in 1..=4 {
        let out = tmp.path().join(format!("shard{i}"));
        let spec = format!("{i}/4");
        let o = pathwise(
            &["project", dir.to_str().unwrap(), "--out", out.to_str().unwrap(), "--shard", &spec, "-j", "1"],
            &dir,
        );
        let index: Value = serde_json::from_str(&std::fs::read_to_string(out.join("index.json")).unwrap()).unwrap();
        assert_eq!(index["shard"], spec.as_str());
        // A shard without a failing function exits 0.
        let code = if index["summary"]["failed"] == 0 { 0 } else { 7 };
        assert_eq!(o.status.code(), Some(code), "{}", text(&o));
        let part = names(&index, |_| true);
        assert!(!part.is_empty(), "shard {spec} is empty");
        seen.extend(part);
        shard_dirs.push(out);
    }
    let mut all = names(&one, |_| true);
    all.sort();
    seen.sort();
    assert_eq!(seen, all, "the shards are not a partition of the functions");
    let merged = tmp.path().join("merged");
    let mut args = vec!["merge".to_string()];
    args.extend(shard_dirs.iter().map(|d| d.display().to_string()));
    args.extend(["--out".to_string(), merged.display().to_string()]);
    let o = pathwise(&args.iter().map(String::as_str).collect::<Vec<_>>(), tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let m: Value = serde_json::from_str(&std::fs::read_to_string(merged.join("index.json")).unwrap()).unwrap();
    assert_eq!(timeless(&m, false), timeless(&one, false));
    assert_eq!(contents(&merged), contents(&whole));
    // Merging a shard twice is refused.
    let twice = pathwise(
        &["merge", shard_dirs[0].to_str().unwrap(), shard_dirs[0].to_str().unwrap(), "--out", "m2"],
        tmp.path(),
    );
    assert_eq!(twice.status.code(), Some(2));
    assert!(text(&twice).contains("merge the outputs of disjoint shards"), "{}", text(&twice));
    // Balanced by the whole run's times: still a partition.
    let mut balanced = Vec::new();
    for i in 1..=4 {
        let out = tmp.path().join(format!("balanced{i}"));
        let spec = format!("{i}/4");
        let from = whole.join("index.json");
        let o = pathwise(
            &[
                "project",
                dir.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--shard",
                &spec,
                "--balance-from",
                from.to_str().unwrap(),
                "--reuse-from",
                whole.to_str().unwrap(),
            ],
            &dir,
        );
        assert!(matches!(o.status.code(), Some(0 | 7)), "{}", text(&o));
        let index: Value = serde_json::from_str(&std::fs::read_to_string(out.join("index.json")).unwrap()).unwrap();
        // Reused from the whole run: nothing searched again.
        assert_eq!(index["summary"]["searched"].as_u64(), Some(0));
        balanced.extend(names(&index, |_| true));
    }
    balanced.sort();
    assert_eq!(balanced, all);
}

/// A small project written by the test: `files` as (name, text), one
/// database entry each.
fn small_project(files: &[(&str, &str)], toml: Option<&str>) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let mut entries = Vec::new();
    for (name, source) in files {
        std::fs::write(tmp.path().join(name), source).unwrap();
        entries.push(serde_json::json!({"directory": ".", "file": name, "arguments": ["cc", "-c", name]}));
    }
    std::fs::write(tmp.path().join("compile_commands.json"), serde_json::to_string(&entries).unwrap()).unwrap();
    if let Some(t) = toml {
        std::fs::write(tmp.path().join("pathwise.toml"), t).unwrap();
    }
    tmp
}

const GOOD: &str = "int twice(int x) { if (x > 100) return 0; return 2 * x; }\n\
                    int neg(int x) { return x < 0 ? x : -x; }\n";

#[test]
fn bad_input_is_an_error_before_anything_runs() {
    let tmp = small_project(&[("a.c", GOOD)], None);
    let dir = tmp.path().to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["project", "/nonexistent/dir"], "cannot read /nonexistent/dir"),
        (vec!["project", dir, "--shard", "0/4"], "is not a shard"),
        (vec!["project", dir, "--shard", "5/4"], "is not a shard"),
        (vec!["project", dir, "--shard", "two"], "is not a shard"),
        (vec!["project", dir, "--balance-from", "x.json"], "give --shard I/N too"),
        (vec!["project", dir, "--jobs", "0"], "--jobs"),
        (vec!["project", dir, "--functions", "nothing*"], "no function to test"),
        (vec!["project", dir, "--functions", "a[", "--out", "o"], "not a valid pattern"),
        (vec!["merge", "--out", "m", "/nonexistent"], "cannot read /nonexistent/index.json"),
    ];
    for (args, message) in cases {
        let o = pathwise(&args, tmp.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(message), "{args:?}: {}", text(&o));
        assert!(!text(&o).contains("panicked"), "{args:?}: {}", text(&o));
    }
    let empty = tempfile::tempdir().unwrap();
    let o = pathwise(&["project", empty.path().to_str().unwrap()], empty.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("no compile_commands.json in"), "{}", text(&o));
    std::fs::write(empty.path().join("compile_commands.json"), "{\"not\": \"a list\"}").unwrap();
    let o = pathwise(&["project", empty.path().to_str().unwrap()], empty.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("is not a JSON compilation database"), "{}", text(&o));
    for (toml, message) in [
        ("[defaults\nk = 2\n", "is not a valid pathwise.toml"),
        ("[defaults]\nkay = 2\n", "unknown field `kay`"),
        ("[functions.twice]\ncriterion = \"sideways\"\n", "options of a.c:twice"),
        ("[functions.twice]\nargs = [\"--method\", \"vc\"]\n", "runs the concolic search"),
    ] {
        let tmp = small_project(&[("a.c", GOOD)], Some(toml));
        let o = pathwise(&["project", tmp.path().to_str().unwrap()], tmp.path());
        assert_eq!(o.status.code(), Some(2), "{toml}: {}", text(&o));
        assert!(text(&o).contains(message), "{toml}: {}", text(&o));
        assert!(!tmp.path().join("pathwise-out").exists(), "{toml}: something was written");
    }
}

#[test]
fn failures_budgets_and_filters_are_recorded() {
    // A file that does not compile fails as a whole; the others go on.
    // A function the front end refuses fails with its diagnostic.
    let asm = "int spin(int x) { __asm__(\"nop\"); return x; }\n";
    let broken = "int broken(int x) { return x +; }\n";
    let tmp = small_project(&[("a.c", GOOD), ("b.c", broken), ("c.c", asm)], None);
    let out = tmp.path().join("out");
    let (_, index) = project(tmp.path(), &out, &["--k", "2"], 7);
    assert_eq!(names(&index, |e| e["status"] == "complete"), vec!["a.c:twice".to_string(), "a.c:neg".to_string()]);
    assert_eq!(names(&index, |e| e["status"] == "failed"), vec!["b.c:*".to_string(), "c.c:spin".to_string()]);
    let b = entry(&index, "*");
    assert!(b["reason"].as_str().unwrap().starts_with("the file could not be compiled: "), "{b}");
    let spin = entry(&index, "spin")["reason"].as_str().unwrap();
    assert_eq!(spin, "unsupported C: c.c:1:19: error: unsupported: inline assembly");
    // Filters: by file and by function (name or FILE:NAME).
    let (_, only) = project(tmp.path(), &out, &["--k", "2", "--files", "a.*", "--functions", "ne*"], 0);
    assert_eq!(names(&only, |_| true), vec!["a.c:neg".to_string()]);
    // A file that does not compile stays listed: it may hold such functions.
    let (_, by_file) = project(tmp.path(), &out, &["--k", "2", "--functions", "a.c:tw*"], 7);
    assert_eq!(names(&by_file, |_| true), vec!["a.c:twice".to_string(), "b.c:*".to_string()]);
    // A function whose budget ends is a limit (exit 5), its tests written.
    let slow = "int bits(const unsigned char *s, int n) {\n  int c = 0, i;\n  for (i = 0; i < n; i++) {\n\
                if (s[i] & 1) c++;\n    if (s[i] & 2) c += 2;\n    if (s[i] & 4) c += 3;\n  }\n  return c;\n}\n";
    let tmp = small_project(&[("s.c", slow), ("a.c", GOOD)], Some("[functions.bits]\nk = 30\ntimeout = 0.5\n"));
    let out = tmp.path().join("out");
    let (stdout, index) = project(tmp.path(), &out, &["--k", "2", "-j", "1"], 5);
    let bits = entry(&index, "bits");
    assert_eq!(bits["status"], "limit", "{bits}");
    assert!(bits["reason"].as_str().unwrap().contains("time"), "{bits}");
    assert!(bits["tests"].as_u64().unwrap() > 0 && out.join(bits["suite"].as_str().unwrap()).is_file());
    assert!(stdout.contains("limit: s.c:bits:"), "{stdout}");
    assert_eq!(names(&index, |e| e["status"] == "complete").len(), 2);
    // The run's budget: what it cuts is a limit, what it leaves
    // unstarted fails, and never reused.
    let (_, cut) = project(tmp.path(), &out, &["--k", "2", "-j", "1", "--timeout", "0.3", "--no-reuse"], 7);
    let not_started = names(&cut, |e| e["reason"].as_str().is_some_and(|r| r.starts_with("not started: the run's")));
    assert!(!not_started.is_empty(), "{cut}");
    assert_eq!(cut["summary"]["failed"].as_u64(), Some(not_started.len() as u64));
}

#[test]
fn the_github_workflow_runs_shards_and_merges_them() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/ci/github-actions.yml");
    let yaml = std::fs::read_to_string(path).unwrap();
    // The matrix and the shard count agree.
    assert!(yaml.contains("SHARDS: 4") && yaml.contains("shard: [1, 2, 3, 4]"), "{yaml}");
    for step in [
        "pathwise project build/compile_commands.json --out pathwise-shard",
        "--shard \"${{ matrix.shard }}/$SHARDS\"",
        "--reuse-from pathwise-prev --balance-from pathwise-prev/index.json",
        "pathwise merge shards/* --out pathwise-out --root .",
        "pathwise replay pathwise-out --junit pathwise-junit.xml --lcov pathwise.info",
        "pathwise report pathwise-out --html pathwise-report.html --sarif pathwise.sarif",
        "github/codeql-action/upload-sarif@v3",
        "security-events: write",
        "actions/cache/restore@v4",
        "actions/cache/save@v4",
        "actions/upload-artifact@v4",
    ] {
        assert!(yaml.contains(step), "{step}");
    }
    assert!(!yaml.contains('\t'), "YAML is indented with spaces");
}

#[test]
fn a_database_in_build_with_absolute_paths() {
    // As CMake writes it: build/compile_commands.json, absolute paths, the
    // command as one string; the root (and its pathwise.toml) is the
    // directory given.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("proj");
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::create_dir_all(root.join("inc")).unwrap();
    std::fs::write(root.join("inc/limits2.h"), "#define LIMIT 100\n").unwrap();
    std::fs::write(
        root.join("a.c"),
        GOOD.replace("100", "LIMIT").replace("int twice", "#include <limits2.h>\nint twice"),
    )
    .unwrap();
    std::fs::write(root.join("pathwise.toml"), "[functions.twice]\nk = 1\n").unwrap();
    let build = root.join("build");
    let db = serde_json::json!([{
        "directory": build.display().to_string(),
        "command": format!("/usr/bin/cc -I{} -o a.o -c {}", root.join("inc").display(), root.join("a.c").display()),
        "file": root.join("a.c").display().to_string(),
    }]);
    std::fs::write(build.join("compile_commands.json"), db.to_string()).unwrap();
    let out = tmp.path().join("out");
    let (_, index) = project(&root, &out, &[], 0);
    assert_eq!(names(&index, |_| true), vec!["a.c:twice".to_string(), "a.c:neg".to_string()]);
    assert_eq!(index["root"], "../proj");
    assert_eq!(entry(&index, "twice")["flags"]["include_dirs"], serde_json::json!(["inc"]));
    assert_eq!(suite(&out, &index, "twice")["k"], 1);
    // The same from the database file itself.
    let (_, again) = project(&build.join("compile_commands.json"), &out, &[], 0);
    assert_eq!(again["summary"]["reused"].as_u64(), Some(2));
}

#[test]
fn a_signal_stops_the_run_and_the_index_is_written() {
    let slow = "int bits(const unsigned char *s, int n) {\n  int c = 0, i;\n  for (i = 0; i < n; i++) {\n\
                if (s[i] & 1) c++;\n    if (s[i] & 2) c += 2;\n  }\n  return c;\n}\n";
    let tmp = small_project(&[("s.c", slow), ("a.c", GOOD)], Some("[functions.bits]\nk = 30\ntimeout = 60\n"));
    let out = tmp.path().join("out");
    let child = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["project", ".", "--k", "2", "-j", "1", "--out"])
        .arg(&out)
        .current_dir(tmp.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
    let index: Value = serde_json::from_str(&std::fs::read_to_string(out.join("index.json")).unwrap()).unwrap();
    let bits = entry(&index, "bits");
    assert_eq!((bits["status"].as_str(), bits["reason"].as_str()), (Some("limit"), Some("interrupted (a signal)")));
    assert!(out.join(bits["suite"].as_str().unwrap()).is_file());
    let not_started = names(&index, |e| e["reason"] == "not started: interrupted");
    assert_eq!(not_started, vec!["a.c:twice".to_string(), "a.c:neg".to_string()]);
}

/// A project's `main(argc, argv)` is tested as the C runtime calls it, as
/// `gen` tests it: `argv[1]` read after `argc` is checked is no null
/// dereference, and every test passes `argc` strings, then NULL.
#[test]
fn main_gets_its_arguments_contract() {
    let program = "#include <string.h>\n\
                   int main(int argc, char **argv) {\n  if (argc < 2)\n    return 2;\n\
                   return strcmp(argv[1], \"-v\") == 0;\n}\n";
    let tmp = small_project(&[("prog.c", program), ("a.c", GOOD)], None);
    let out = tmp.path().join("out");
    let (_, index) = project(tmp.path(), &out, &["--k", "2"], 0);
    // The contract's own function is not a function of the project.
    assert_eq!(names(&index, |_| true), ["a.c:twice", "a.c:neg", "prog.c:main"]);
    let main = suite(&out, &index, "main");
    assert_eq!(main["precondition"], "pathwise_main_arguments", "{main}");
    let tests = main["tests"].as_array().unwrap();
    assert!(tests.iter().all(|t| t["outcome"] == "returned"), "{main}");
    // argc 1 (the usage), then strcmp's paths over argv[1]: one says "-v".
    let returns: Vec<(i64, i64)> = tests
        .iter()
        .map(|t| (t["inputs"]["argc"].as_i64().unwrap(), t["expected"]["return"].as_i64().unwrap()))
        .collect();
    assert_eq!(returns.iter().filter(|r| r.1 == 2).collect::<Vec<_>>(), [&(1, 2)], "{returns:?}");
    assert_eq!(returns.iter().filter(|r| r.1 == 1).count(), 1, "{returns:?}");
    assert!(returns.iter().all(|r| r.1 == 2 || r.0 >= 2), "{returns:?}");
    assert_eq!(main["stats"]["tests"], 5, "{main}");
    // A `main_pre` of the user's replaces the contract.
    let own = format!("{program}int main_pre(int argc, char **argv) {{ return argc == 1 && argv[1] == 0; }}\n");
    let tmp = small_project(&[("prog.c", &own)], None);
    let (_, index) = project(tmp.path(), &out, &["--k", "2"], 0);
    assert_eq!(suite(&out, &index, "main")["precondition"], "main_pre");
}
