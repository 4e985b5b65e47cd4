//! Tests of the Test-Comp writer: exact file contents, escaping, values,
//! crash safety and the zip's entries.

use std::io::Read;
use std::time::Duration;

use pathwise_ir::Type;

use super::*;

fn meta() -> TestCompMetadata {
    TestCompMetadata {
        program_file: "dir/prog.c".into(),
        program_hash: "ab12".into(),
        producer: "Pathwise 0.1.0".into(),
        specification: format!("{SPEC_BRANCHES}\n"),
        entry_function: "main".into(),
        architecture: Architecture::Bits32,
        creation_time: "2024-05-01T12:00:00Z".into(),
    }
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|s| s.to_string()).collect()
}

/// (name, content) of every entry of a zip, in order.
fn zip_entries(path: &Path) -> Vec<(String, String)> {
    let mut archive = zip::ZipArchive::new(fs::File::open(path).unwrap()).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut f = archive.by_index(i).unwrap();
            assert_eq!(f.compression(), CompressionMethod::Deflated);
            let mut s = String::new();
            f.read_to_string(&mut s).unwrap();
            (f.name().unwrap().to_string(), s)
        })
        .collect()
}

#[test]
fn metadata_file_is_exact() {
    let expected = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN" "https://sosy-lab.org/test-format/test-metadata-1.1.dtd">
<test-metadata>
  <sourcecodelang>C</sourcecodelang>
  <producer>Pathwise 0.1.0</producer>
  <specification>COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )</specification>
  <programfile>dir/prog.c</programfile>
  <programhash>ab12</programhash>
  <entryfunction>main</entryfunction>
  <architecture>32bit</architecture>
  <creationtime>2024-05-01T12:00:00Z</creationtime>
</test-metadata>
"#;
    assert_eq!(metadata_xml(&meta()), expected);
    let m64 = TestCompMetadata { architecture: Architecture::Bits64, ..meta() };
    assert!(metadata_xml(&m64).contains("<architecture>64bit</architecture>"));
}

#[test]
fn testcase_files_are_exact() {
    let expected = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" "https://sosy-lab.org/test-format/testcase-1.1.dtd">
<testcase>
  <input>-5</input>
  <input>18446744073709551615</input>
</testcase>
"#;
    assert_eq!(testcase_xml(&strings(&["-5", "18446744073709551615"]), false), expected);
    let err = testcase_xml(&strings(&["42"]), true);
    assert!(err.contains("\n<testcase coversError=\"true\">\n  <input>42</input>\n</testcase>\n"), "{err}");
    let empty = testcase_xml(&[], false);
    assert!(empty.ends_with("<testcase>\n</testcase>\n"), "{empty}");
}

#[test]
fn second_line_is_the_doctype_testcov_looks_for() {
    // TestCov skips a file silently unless line 1 starts with `<?xml ` and
    // line 2 with `<!DOCTYPE testcase `.
    let tc = testcase_xml(&strings(&["1"]), false);
    let lines: Vec<&str> = tc.lines().collect();
    assert!(lines[0].starts_with("<?xml "));
    assert!(lines[1].starts_with("<!DOCTYPE testcase "));
}

#[test]
fn xml_special_characters_are_escaped() {
    assert_eq!(xml_escape("a<b && c>d \"q\" 'x'"), "a&lt;b &amp;&amp; c&gt;d \"q\" 'x'");
    let tc = testcase_xml(&strings(&["<&>"]), false);
    assert!(tc.contains("<input>&lt;&amp;&gt;</input>"));
    let m = TestCompMetadata { program_file: "a&b<c>.c".into(), producer: "P <1>".into(), ..meta() };
    let xml = metadata_xml(&m);
    assert!(xml.contains("<programfile>a&amp;b&lt;c&gt;.c</programfile>"));
    assert!(xml.contains("<producer>P &lt;1&gt;</producer>"));
}

#[test]
fn input_values_are_decimal_c_values_of_the_type() {
    let ty = |ty, signed| IntTy { ty, signed };
    assert_eq!(input_value(-1, ty(Type::I64, false)), "18446744073709551615");
    assert_eq!(input_value(u64::MAX as i128, ty(Type::I64, false)), "18446744073709551615");
    assert_eq!(input_value(i64::MIN as i128, ty(Type::I64, true)), "-9223372036854775808");
    assert_eq!(input_value(-5, ty(Type::I32, true)), "-5");
    assert_eq!(input_value(-1, ty(Type::I32, false)), "4294967295");
    assert_eq!(input_value(200, ty(Type::I8, true)), "-56");
    assert_eq!(input_value(-56, ty(Type::I8, false)), "200");
    assert_eq!(input_value(65, ty(Type::I8, true)), "65");
    assert_eq!(input_value(0x1_0000, ty(Type::I16, true)), "0");
    assert_eq!(input_value(2, ty(Type::I1, false)), "0");
    assert_eq!(input_value(1, ty(Type::I1, false)), "1");
}

/// Floating inputs in the forms TestCov's harness reads with `scanf`'s
/// `%f`/`%lf` (`strtod`), exactly: hexadecimal, `inf`, `nan`.
#[test]
fn floating_input_values_are_exact_strtod_forms() {
    let (f32_ty, f64_ty) = (IntTy { ty: Type::F32, signed: true }, IntTy { ty: Type::F64, signed: true });
    // Values arrive read with the type's signedness (sign-extended bits).
    let d = |v: f64| v.to_bits() as i64 as i128;
    assert_eq!(input_value(d(3.0), f64_ty), "0x1.8p+1");
    assert_eq!(input_value(d(-0.1), f64_ty), "-0x1.999999999999ap-4");
    assert_eq!(input_value(d(-0.0), f64_ty), "-0x0p+0");
    assert_eq!(input_value(d(f64::INFINITY), f64_ty), "inf");
    assert_eq!(input_value(d(f64::NAN), f64_ty), "nan");
    assert_eq!(input_value((-1.5f32).to_bits() as i32 as i128, f32_ty), "-0x1.8p+0");
    assert_eq!(input_value(0, f32_ty), "0x0p+0");
}

#[test]
fn hash_and_time() {
    assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_eq!(iso8601_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
    assert_eq!(iso8601_utc(UNIX_EPOCH + Duration::from_secs(951_782_400 + 3723)), "2000-02-29T01:02:03Z");
    assert_eq!(iso8601_utc(UNIX_EPOCH + Duration::from_secs(1_735_689_599)), "2024-12-31T23:59:59Z");
}

#[test]
fn metadata_for_program_hashes_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("p.c");
    fs::write(&prog, "abc").unwrap();
    let m = TestCompMetadata::for_program(&prog, &format!("  {SPEC_ERROR_CALL}\n"), Architecture::Bits64).unwrap();
    assert_eq!(m.program_hash, sha256_hex(b"abc"));
    assert_eq!(m.specification, SPEC_ERROR_CALL);
    assert_eq!(m.entry_function, "main");
    assert!(m.producer.starts_with("Pathwise "));
    assert_eq!(m.program_file, prog.display().to_string());
    assert_eq!(m.creation_time.len(), "2024-05-01T12:00:00Z".len());
}

#[test]
fn files_are_on_disk_after_each_call_and_zipped_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out/suite");
    let mut w = TestCompWriter::create(&dir, &meta()).unwrap();
    assert_eq!(fs::read_to_string(dir.join("metadata.xml")).unwrap(), metadata_xml(&meta()));
    assert_eq!(w.tests_written(), 0);
    // A run killed before any test still leaves a valid (empty) suite.
    assert_eq!(zip_entries(&dir.join("test-suite.zip")).len(), 1);
    let p1 = w.add_test(&strings(&["1", "2"]), false).unwrap();
    assert_eq!(p1, dir.join("testcase-1.xml"));
    assert_eq!(fs::read_to_string(&p1).unwrap(), testcase_xml(&strings(&["1", "2"]), false));
    for i in 2..=11 {
        w.add_test(&strings(&[&i.to_string()]), i == 11).unwrap();
        // ... and after each test, a suite holding every test so far.
        assert_eq!(zip_entries(&dir.join("test-suite.zip")).len(), i + 1);
    }
    assert_eq!(w.tests_written(), 11);
    // Only complete files: no temporary file is left behind.
    let mut names: Vec<String> =
        fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names.len(), 13, "{names:?}");
    assert!(names.iter().all(|n| (n.ends_with(".xml") || n == "test-suite.zip") && !n.starts_with('.')));

    let zip_path = w.finish().unwrap();
    assert_eq!(zip_path, dir.join("test-suite.zip"));
    let entries = zip_entries(&zip_path);
    let mut expected = vec!["test-suite/metadata.xml".to_string()];
    expected.extend((1..=11).map(|i| format!("test-suite/testcase-{i}.xml")));
    assert_eq!(entries.iter().map(|e| e.0.clone()).collect::<Vec<_>>(), expected);
    assert_eq!(entries[0].1, metadata_xml(&meta()));
    assert_eq!(entries[1].1, testcase_xml(&strings(&["1", "2"]), false));
    assert_eq!(entries[11].1, testcase_xml(&strings(&["11"]), true));
}

#[test]
fn zip_is_deterministic() {
    let tmp = tempfile::tempdir().unwrap();
    let zip_bytes = |sub: &str| {
        let mut w = TestCompWriter::create(tmp.path().join(sub), &meta()).unwrap();
        w.add_test(&strings(&["7"]), false).unwrap();
        fs::read(w.finish().unwrap()).unwrap()
    };
    assert_eq!(zip_bytes("a"), zip_bytes("b"));
}

#[test]
fn zip_suite_salvages_a_directory_in_numeric_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut w = TestCompWriter::create(dir, &meta()).unwrap();
    for i in 1..=10 {
        w.add_test(&strings(&[&i.to_string()]), false).unwrap();
    }
    drop(w); // as if the run had been killed
    fs::write(dir.join("notes.txt"), "x").unwrap();
    let entries = zip_entries(&zip_suite(dir).unwrap());
    let names: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names[0], "test-suite/metadata.xml");
    assert_eq!(names[1], "test-suite/testcase-1.xml");
    assert_eq!(names[2], "test-suite/testcase-2.xml");
    assert_eq!(names[10], "test-suite/testcase-10.xml");
    assert_eq!(names.len(), 11);
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(zip_suite(empty.path()).unwrap_err().kind(), io::ErrorKind::NotFound);
}

/// The validator accepts what the writer produces: run TestCov (installed by
/// `.ci/testcov-setup.sh`) on a small program with both properties.
/// `cargo test -p pathwise-emit -- --ignored testcov`
#[test]
#[ignore = "needs TestCov, lcov, gcc-multilib and clang-tidy (.ci/testcov-setup.sh)"]
fn testcov_accepts_the_suite() {
    const PROGRAM: &str = r#"extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "p.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
int main() {
  int x = __VERIFIER_nondet_int();
  unsigned long long y = __VERIFIER_nondet_ulonglong();
  if (x < -4) {
    if (y == 18446744073709551615ULL) {
      reach_error();
    }
  }
  return 0;
}
"#;
    let tmp = tempfile::tempdir().unwrap();
    let prog = tmp.path().join("p.c");
    fs::write(&prog, PROGRAM).unwrap();
    for (spec, arch, flag, verdict) in
        [(SPEC_BRANCHES, Architecture::Bits32, "-32", "DONE"), (SPEC_ERROR_CALL, Architecture::Bits64, "-64", "TRUE")]
    {
        let work = tempfile::tempdir().unwrap();
        let prp = work.path().join("property.prp");
        fs::write(&prp, format!("{spec}\n")).unwrap();
        let meta = TestCompMetadata::for_program(&prog, spec, arch).unwrap();
        let mut w = TestCompWriter::create(work.path().join("suite"), &meta).unwrap();
        w.add_test(&strings(&["0", "0"]), false).unwrap();
        w.add_test(&strings(&["-5", "1"]), false).unwrap();
        w.add_test(&strings(&["-5", "18446744073709551615"]), spec == SPEC_ERROR_CALL).unwrap();
        let zip_path = w.finish().unwrap();
        let out = std::process::Command::new("testcov")
            .current_dir(work.path())
            .args(["--no-isolation", "--no-plots", "--no-stop-on-success", flag, "--goal"])
            .arg(&prp)
            .arg("--test-suite")
            .arg(&zip_path)
            .arg(&prog)
            .output()
            .expect("testcov on PATH");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("Tests in suite: 3\n"), "{stdout}");
        assert!(stdout.contains("Tests run: 3\n"), "{stdout}");
        assert!(stdout.contains("Coverage: 100.0%\n"), "{stdout}");
        assert!(stdout.contains(&format!("Result: {verdict}\n")), "{stdout}");
    }
}
