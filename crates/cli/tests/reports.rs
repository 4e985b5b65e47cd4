//! The reports people look at (issue 25): `pathwise report DIR` (HTML,
//! checked in a real headless browser, and `--sarif`, validated against
//! the official SARIF 2.1.0 schema), and `pathwise replay DIR --lcov
//! FILE --junit FILE` (the tracefile's line counts against gcov's own
//! text output, rendered by lcov's genhtml; the JUnit XML's counts, and a
//! failure from a deliberately broken suite).
//!
//! Suites are generated from the repository's C files with the CLI, run
//! from the repository root, as a developer or CI would.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{gen, root};
use serde_json::Value;

fn pathwise(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathwise")).args(args).current_dir(root()).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Merge (its loops; its source includes the file defining it) and two
/// functions with error tests, in one directory: the suites and their JSON.
fn mixed_suites(dir: &Path) -> Vec<Value> {
    vec![
        gen("examples/merge.c", "Merge", &["--precondition", "merge_valid"], dir).1,
        gen("tests/c/errors.c", "div_zero", &[], dir).1,
        gen("tests/c/corpus/seeded_offbyone.c", "sum_bytes_buggy", &[], dir).1,
    ]
}

fn is_installed(tool: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().is_ok_and(|o| o.status.success())
}

/// The part of `html` from `<section id="ID"` to its `</section>`.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html.find(&format!("<section id=\"{id}\"")).unwrap_or_else(|| panic!("no section {id}"));
    let end = html[start..].find("</section>").unwrap() + start;
    &html[start..end]
}

/// The first source table of a section (the function under test's file).
fn first_source(section: &str) -> &str {
    let start = section.find("<table class=\"source\">").expect("a source table");
    let end = section[start..].find("</table>").unwrap() + start;
    &section[start..end]
}

/// What the report must show of suite `suite`, checked in `html` (the
/// file as written, or the DOM a browser built from it).
fn check_section(html: &str, i: usize, suite: &Value) {
    let sec = section(html, &format!("f{i}"));
    let tests = suite["tests"].as_array().unwrap();
    assert_eq!(sec.matches("class=\"test\"").count(), tests.len(), "test rows of {}", suite["function"]);
    assert_eq!(sec.matches("class=\"path\" id=").count(), tests.len());
    // Lines of the function under test's file: covered (fully or with a
    // branch side not taken) and not covered, as the JSON predicts.
    let fut = suite["function"].as_str().unwrap();
    let functions = suite["coverage"]["functions"].as_array().unwrap();
    let file = functions.iter().find(|f| f["name"] == fut).unwrap()["file"].clone();
    let lines = |key: &str| -> BTreeSet<u64> {
        let of_file = functions.iter().filter(|f| f["file"] == file);
        of_file.flat_map(|f| f[key].as_array().unwrap().iter().map(|l| l.as_u64().unwrap())).collect()
    };
    let (all, covered) = (lines("lines"), lines("lines_covered"));
    let src = first_source(sec);
    let count = |class: &str| src.matches(&format!("class=\"line {class}")).count();
    assert_eq!(count("cov") + count("part"), covered.len(), "{fut}: covered lines");
    assert_eq!(count("unc"), all.difference(&covered).count(), "{fut}: lines not covered");
    // One row per line of the source file.
    let source_path = Path::new(file.as_str().unwrap());
    let n = std::fs::read_to_string(root().join(source_path)).unwrap().lines().count();
    assert_eq!(src.matches("<tr id=").count(), n, "{fut}: rows of {}", source_path.display());
    for t in tests.iter().filter(|t| t["outcome"] == "error") {
        let id = t["id"].as_u64().unwrap();
        let at = sec.find(&format!("id=\"f{i}-e{id}\"")).unwrap_or_else(|| panic!("{fut}: error of test {id}"));
        let item = &sec[at..at + sec[at..].find("</li>").unwrap()];
        assert!(item.contains(t["error"]["kind"].as_str().unwrap()), "{item}");
        assert!(item.contains(&format!(">{}:{}:", t["error"]["file"].as_str().unwrap(), t["error"]["line"])), "{item}");
    }
}

/// Every `href="#X"` of `html` has an element `id="X"`.
fn links_resolve(html: &str) {
    let ids: BTreeSet<&str> = html.split("id=\"").skip(1).map(|r| &r[..r.find('"').unwrap()]).collect();
    for target in html.split("href=\"#").skip(1).map(|r| &r[..r.find('"').unwrap()]) {
        assert!(ids.contains(target), "dangling link #{target}");
    }
}

#[test]
fn html_report_is_self_contained_and_renders_in_chromium() {
    let out = tempfile::tempdir().unwrap();
    let suites = mixed_suites(out.path());
    let o = pathwise(&["report", s(out.path())]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let html = std::fs::read_to_string(out.path().join("report.html")).unwrap();
    // Suites in name order: Merge, div_zero, sum_bytes_buggy.
    for (i, suite) in suites.iter().enumerate() {
        check_section(&html, i, suite);
    }
    links_resolve(&html);
    for external in ["<script", "<link", " src=", "http://", "https://", "url("] {
        assert!(!html.contains(external), "the report loads something: {external}");
    }
    // div_zero's error shows its test's inputs; Merge's index row its figures.
    assert!(section(&html, "f1").contains("with a = 0, b = 0."), "div_zero's error inputs");
    assert!(html.contains(">Merge</a></td><td>k-path, k = 2</td><td class=\"num\">17</td><td class=\"num\">17</td>"));
    // The same suites give the same bytes.
    let again = tempfile::tempdir().unwrap();
    let copy = again.path().join("again.html");
    assert_eq!(pathwise(&["report", s(out.path()), "--html", s(&copy)]).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), html);
    in_chromium(&out.path().join("report.html"), &suites);
}

/// Load the report in headless Chromium: the DOM it builds has the same
/// structure, no console message is logged (the page's CSP would log any
/// external load), and a screenshot is taken.
fn in_chromium(page: &Path, suites: &[Value]) {
    if !is_installed("chromium") {
        eprintln!("skipping the browser check: chromium is not installed (apt-get install chromium)");
        return;
    }
    let url = format!("file://{}", page.display());
    let profile = tempfile::tempdir().unwrap();
    let browser = |extra: &[&str]| -> Output {
        let mut args =
            vec!["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--no-first-run"];
        let dir = format!("--user-data-dir={}", profile.path().display());
        args.push(&dir);
        args.extend(extra);
        args.push(&url);
        Command::new("chromium").args(&args).output().unwrap()
    };
    let dom = browser(&["--dump-dom"]);
    assert!(dom.status.success(), "chromium: {}", text(&dom));
    let dom_text = String::from_utf8_lossy(&dom.stdout);
    for (i, suite) in suites.iter().enumerate() {
        check_section(&dom_text, i, suite);
    }
    let log = String::from_utf8_lossy(&dom.stderr);
    let console: Vec<&str> = log.lines().filter(|l| l.contains("CONSOLE") || l.contains("Uncaught")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pathwise-report-screenshot.png");
    let _ = std::fs::remove_file(&shot);
    let o = browser(&["--window-size=1280,1600", &format!("--screenshot={}", shot.display())]);
    assert!(o.status.success(), "chromium: {}", text(&o));
    let png = std::fs::read(&shot).expect("a screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let be = |b: &[u8]| u32::from_be_bytes(b.try_into().unwrap());
    assert_eq!((be(&png[16..20]), be(&png[20..24])), (1280, 1600), "the screenshot's size");
    eprintln!("screenshot of the report: {}", shot.display());
}

#[test]
fn sarif_is_valid_and_lists_every_error_test() {
    let out = tempfile::tempdir().unwrap();
    let mut suites = vec![
        gen("tests/c/errors.c", "div_zero", &[], out.path()).1,
        gen("tests/c/errors.c", "oob_global", &[], out.path()).1,
        gen("tests/c/corpus/seeded_offbyone.c", "sum_bytes_buggy", &[], out.path()).1,
    ];
    suites.sort_by_key(|s| s["function"].as_str().unwrap().to_string());
    let file = out.path().join("errors.sarif");
    let o = pathwise(&["report", s(out.path()), "--sarif", s(&file)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!out.path().join("report.html").exists(), "--sarif alone writes no HTML");
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();

    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/sarif/sarif-schema-2.1.0.json")).unwrap())
            .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The validator does reject what the schema forbids.
    let mut bad = log.clone();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    assert!(!validator.is_valid(&bad));
    bad = log.clone();
    bad.as_object_mut().unwrap().remove("version");
    assert!(!validator.is_valid(&bad));

    let run = &log["runs"][0];
    let rules: Vec<&str> =
        run["tool"]["driver"]["rules"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    let errors: Vec<(&Value, &Value)> = suites
        .iter()
        .flat_map(|s| s["tests"].as_array().unwrap().iter().filter(|t| t["outcome"] == "error").map(move |t| (s, t)))
        .collect();
    let kinds: BTreeSet<&str> = errors.iter().map(|(_, t)| t["error"]["kind"].as_str().unwrap()).collect();
    assert_eq!(rules, kinds.into_iter().collect::<Vec<_>>());
    assert_eq!(rules, ["division-by-zero", "division-overflow", "out-of-bounds"]);
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), errors.len());
    for (r, (suite, t)) in results.iter().zip(&errors) {
        let e = &t["error"];
        assert_eq!(r["ruleId"], e["kind"]);
        assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize], e["kind"]);
        let loc = &r["locations"][0]["physicalLocation"];
        // gen ran from the repository root, as the report: the same relative name.
        assert_eq!(loc["artifactLocation"]["uri"], e["file"]);
        assert_eq!(loc["region"]["startLine"], e["line"]);
        assert_eq!(loc["region"]["startColumn"], e["col"]);
        assert_eq!(r["locations"][0]["logicalLocations"][0]["name"], suite["function"]);
        let message = r["message"]["text"].as_str().unwrap();
        assert!(message.contains(&format!("test {} (", t["id"])), "{message}");
        let inputs: Vec<String> = t["inputs"].as_object().unwrap().iter().map(|(k, v)| format!("{k} = {v}")).collect();
        for input in inputs.iter().filter(|i| !i.contains('[')) {
            assert!(message.contains(input.as_str()), "{message} lacks {input}");
        }
    }
    assert!(results[0]["message"]["text"].as_str().unwrap().ends_with("with a = 0, b = 0"));
}

/// Per file gcov names: line -> count, from the `.gcov` text files that
/// `gcov -p` writes into `dir`.
fn gcov_text_counts(dir: &Path) -> BTreeMap<PathBuf, BTreeMap<u32, u64>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "gcov") {
            continue;
        }
        let body = std::fs::read_to_string(&path).unwrap();
        let source = body.lines().find_map(|l| l.split_once(":Source:")).map(|(_, p)| p.to_string()).unwrap();
        let mut counts = BTreeMap::new();
        for line in body.lines() {
            let mut parts = line.splitn(3, ':');
            let (Some(count), Some(no)) = (parts.next(), parts.next()) else { continue };
            let count = count.trim().trim_end_matches('*');
            let Ok(no) = no.trim().parse::<u32>() else { continue };
            let value = match count {
                "-" => continue,
                "#####" | "=====" => 0,
                n => n.parse().unwrap(),
            };
            counts.insert(no, value);
        }
        out.insert(Path::new(&source).canonicalize().unwrap(), counts);
    }
    out
}

/// `SF` (canonical) -> its `DA` lines, from an lcov tracefile.
fn tracefile_counts(info: &str) -> BTreeMap<PathBuf, BTreeMap<u32, u64>> {
    let mut out = BTreeMap::new();
    let mut current = None;
    for line in info.lines() {
        if let Some(sf) = line.strip_prefix("SF:") {
            current = Some(root().join(sf).canonicalize().unwrap());
            out.insert(current.clone().unwrap(), BTreeMap::new());
        } else if let Some(da) = line.strip_prefix("DA:") {
            let (no, count) = da.split_once(',').unwrap();
            out.get_mut(current.as_ref().unwrap()).unwrap().insert(no.parse().unwrap(), count.parse().unwrap());
        }
    }
    out
}

#[test]
fn lcov_line_counts_are_gcovs_and_genhtml_renders_them() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("merge");
    gen("examples/merge.c", "Merge", &["--precondition", "merge_valid"], &dir);
    let info = out.path().join("merge.info");
    let o = pathwise(&["replay", s(&dir), "--lcov", s(&info)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let info_text = std::fs::read_to_string(&info).unwrap();
    // Named relative to the directory replay ran in (the repository root).
    let sf: Vec<&str> = info_text.lines().filter_map(|l| l.strip_prefix("SF:")).collect();
    assert_eq!(sf, ["crates/cfront/include/pathwise.h", "examples/merge.c", "tests/bench/merge.c"]);

    // gcov's own text output for the same build, made independently.
    let build = out.path().join("build");
    std::fs::create_dir(&build).unwrap();
    let gcc = Command::new("gcc")
        .args(["--coverage", "-O0", "-DPATHWISE_GCOV", "-o", "prog", "-I"])
        .arg(root().join("examples").canonicalize().unwrap())
        .arg("-I")
        .arg(&dir)
        .arg(dir.join("Merge_tests.c"))
        .arg("-lm")
        .current_dir(&build)
        .output()
        .unwrap();
    assert!(gcc.status.success(), "{}", text(&gcc));
    assert!(Command::new(build.join("prog")).current_dir(&build).output().unwrap().status.success());
    let gcov = Command::new("gcov").args(["-p", "prog-Merge_tests.gcda"]).current_dir(&build).output().unwrap();
    assert!(gcov.status.success(), "{}", text(&gcov));
    let mut expected = gcov_text_counts(&build);
    let harness = dir.join("Merge_tests.c").canonicalize().unwrap();
    assert!(expected.remove(&harness).is_some(), "gcov measured the test file too");
    let measured = tracefile_counts(&info_text);
    assert_eq!(measured, expected);
    let merge = &measured[&root().join("tests/bench/merge.c").canonicalize().unwrap()];
    assert_eq!(merge.get(&12), Some(&17), "Merge is entered once per test");

    if !is_installed("genhtml") {
        eprintln!("skipping the genhtml check: lcov is not installed (apt-get install lcov)");
        return;
    }
    let html = out.path().join("html");
    let o = Command::new("genhtml")
        .args(["--branch-coverage", "--output-directory"])
        .arg(&html)
        .arg(&info)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "genhtml: {}", text(&o));
    assert!(!text(&o).contains("ERROR"), "{}", text(&o));
    let index = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(index.contains("tests/bench"), "genhtml's index lists the directories");
    assert!(html.join("tests/bench/merge.c.gcov.html").is_file());
}

/// The attribute `name` of `node`, as a number.
fn count(node: roxmltree::Node, name: &str) -> usize {
    node.attribute(name).unwrap().parse().unwrap()
}

#[test]
fn junit_has_a_testcase_per_test_and_reports_failures() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("suites");
    let suite = gen("tests/c/errors.c", "div_zero", &[], &dir).1;
    let names: Vec<&str> = suite["tests"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    let xml_file = out.path().join("junit.xml");
    let o = pathwise(&["replay", s(&dir), "--junit", s(&xml_file)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let xml = std::fs::read_to_string(&xml_file).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let top = doc.root_element();
    assert_eq!((top.tag_name().name(), count(top, "tests"), count(top, "failures")), ("testsuites", 3, 0));
    let cases: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.iter().map(|c| c.attribute("name").unwrap()).collect::<Vec<_>>(), names);
    assert!(cases.iter().all(|c| c.attribute("classname") == Some("div_zero") && c.first_element_child().is_none()));

    // Break test 2's expected return value: replay fails, and so does its testcase.
    let c_file = dir.join("div_zero_tests.c");
    let c = std::fs::read_to_string(&c_file).unwrap();
    let check = "pathwise_check_signed(2, \"return\", 0, pathwise_ret)";
    assert!(c.contains(check), "test 2 checks its return value");
    std::fs::write(&c_file, c.replace(check, "pathwise_check_signed(2, \"return\", 12345, pathwise_ret)")).unwrap();
    let o = pathwise(&["replay", s(&dir), "--junit", s(&xml_file)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let xml = std::fs::read_to_string(&xml_file).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let top = doc.root_element();
    assert_eq!((count(top, "tests"), count(top, "failures"), count(top, "skipped")), (3, 1, 0));
    let failures: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.has_tag_name("failure")).collect();
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].parent().unwrap().attribute("name"), Some(names[1]));
    assert_eq!(failures[0].attribute("message"), Some("test 2: return expected 12345 got 0"));
}

#[test]
fn junit_reports_a_suite_that_does_not_build_and_the_others() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("suites");
    let suites = mixed_suites(&dir);
    let c_file = dir.join("div_zero_tests.c");
    let c = std::fs::read_to_string(&c_file).unwrap();
    std::fs::write(&c_file, c.replacen("static int ", "static int int ", 1)).unwrap();
    let xml_file = out.path().join("junit.xml");
    let o = pathwise(&["replay", s(&dir), "--junit", s(&xml_file)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("error: gcc could not compile"), "{}", text(&o));
    assert!(text(&o).contains("3 suites replayed; failing: div_zero"), "{}", text(&o));
    let xml = std::fs::read_to_string(&xml_file).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let testsuites: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(testsuites.len(), 3);
    let broken = testsuites.iter().find(|n| n.attribute("name") == Some("div_zero_tests.c")).unwrap();
    assert_eq!((count(*broken, "tests"), count(*broken, "failures")), (1, 1));
    let failure = broken.descendants().find(|n| n.has_tag_name("failure")).unwrap();
    assert!(failure.attribute("message").unwrap().contains("gcc could not compile"), "{xml}");
    // The other suites' tests are all there, passing.
    let others: usize =
        suites.iter().filter(|s| s["function"] != "div_zero").map(|s| s["tests"].as_array().unwrap().len()).sum();
    let passing = testsuites
        .iter()
        .filter(|n| n.attribute("name") != Some("div_zero_tests.c"))
        .map(|n| count(*n, "tests") - count(*n, "failures"))
        .sum::<usize>();
    assert_eq!(passing, others);
}

#[test]
fn report_rejects_a_missing_or_empty_directory() {
    let o = pathwise(&["report", "/nonexistent/pathwise-suites"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("cannot read directory /nonexistent/pathwise-suites"), "{}", text(&o));
    let empty = tempfile::tempdir().unwrap();
    let o = pathwise(&["report", s(empty.path()), "--sarif", s(&empty.path().join("x.sarif"))]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no *_tests.c file in"), "{}", text(&o));
    assert!(!empty.path().join("x.sarif").exists(), "nothing is written");
}

#[test]
fn html_report_marks_code_infeasible_within_the_bound() {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = gen("tests/c/covers.c", "third", &["--criterion", "statements"], out.path());
    let infeasible: Vec<u64> = suite["cover"]["infeasible"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["location"].as_str().unwrap().rsplit(':').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(infeasible, [45], "covers.c's `hit = 1` in third");
    let o = pathwise(&["report", s(out.path())]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let html = std::fs::read_to_string(out.path().join("report.html")).unwrap();
    assert!(html.contains("<td class=\"num\">1</td></tr>"), "the index counts one infeasible goal");
    let src = first_source(section(&html, "f0"));
    assert_eq!(src.matches("class=\"line inf").count(), 1);
    assert!(src.contains("<tr id=\"f0-s0-L45\" class=\"line inf\""));
    // Code lines not covered: the infeasible one is shown as such, the others not covered.
    let f = &suite["coverage"]["functions"][0];
    let uncovered = f["lines"].as_array().unwrap().len() - f["lines_covered"].as_array().unwrap().len();
    assert_eq!(src.matches("class=\"line unc").count() + 1, uncovered);
    assert!(section(&html, "f0").contains("third: statement at <a href=\"#f0-s0-L45\">tests/c/covers.c:45:13</a>"));
}
