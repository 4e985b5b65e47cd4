//! What a sweep of library-style C found against ASan, `_FORTIFY_SOURCE`
//! and libFuzzer (`tests/c/trust5/`): each suite is checked natively
//! (gcc and clang under `-Werror`, gcov agrees) and its tests replay under
//! AddressSanitizer, which is what found them.

mod common;

use std::path::Path;
use std::process::Command;

const READS: &str = "tests/c/trust5/reads.c";

/// The suite's test file built with `cc` and `flags` (`-I` the output
/// and the source's directory) and run: its output, which must say every
/// test passed (errors not observed natively aside) with no sanitizer
/// report.
fn passes_built_with(cc: &str, flags: &[&str], out: &Path, function: &str, source_dir: &Path) -> String {
    let exe = out.join(format!("{function}_{cc}_built"));
    let build = Command::new(cc)
        .args(flags)
        .arg("-I")
        .arg(out)
        .arg("-I")
        .arg(source_dir)
        .arg(out.join(format!("{function}_tests.c")))
        .args(["-lm", "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
    let run = Command::new(&exe).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success() && text.contains(" 0 failed") && !text.contains("AddressSanitizer"), "{text}");
    text
}

/// Built with clang's AddressSanitizer, which found the over-reads
/// (`None` where ASan itself cannot run a trivial program: some kernels'
/// address-space randomisation defeats clang 16's).
fn passes_under_asan(out: &Path, function: &str, source_dir: &Path) -> Option<String> {
    let probe = out.join("asan_probe.c");
    std::fs::write(&probe, "int main(void) { return 0; }\n").unwrap();
    let exe = out.join("asan_probe");
    let built = Command::new("clang-16").args(["-fsanitize=address", "-o"]).arg(&exe).arg(&probe).status();
    if !built.is_ok_and(|s| s.success()) || !Command::new(&exe).status().is_ok_and(|s| s.success()) {
        eprintln!("warning: AddressSanitizer does not run here; {function}'s suite is not run under it");
        return None;
    }
    Some(passes_built_with("clang-16", &["-g", "-fsanitize=address"], out, function, source_dir))
}

/// Built as distributions build code (`-O2 -D_FORTIFY_SOURCE=2`), whose
/// checks abort a call writing past its destination's member or size.
fn passes_fortified(out: &Path, function: &str, source_dir: &Path) -> String {
    passes_built_with("gcc", &["-O2", "-D_FORTIFY_SOURCE=2"], out, function, source_dir)
}

#[test]
fn memcmp_reads_its_operands_whole() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(READS, "has_magic", "2", out.path());
    assert_eq!(common::errors(&suite), [("out-of-bounds".to_string(), 15)]);
    let error = suite["tests"].as_array().unwrap().iter().find(|t| t["outcome"] == "error").unwrap();
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("bytes from byte offset 0 of a 4-byte object"), "{message}");

    // In bounds: every test's haystack and needle hold what memcmp reads.
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(READS, "find_bytes", "2", out.path());
    let tests = suite["tests"].as_array().unwrap();
    assert!(tests.iter().all(|t| t["outcome"] == "returned"), "{suite}");
    let dir = common::root().join(READS).parent().unwrap().to_path_buf();
    passes_under_asan(out.path(), "find_bytes", &dir);
}

#[test]
fn code_testing_for_int128_takes_its_portable_branch() {
    let out = tempfile::tempdir().unwrap();
    let (suite, outcome) = common::gen_checked(READS, "mul_high", "1", out.path());
    assert_eq!(suite["tests"].as_array().unwrap().len(), 3, "{suite}");
    assert_eq!(common::branches_covered(&outcome, "mul_high"), Some(true), "{:?}", outcome.rows);
    for t in suite["tests"].as_array().unwrap() {
        let (a, b) = (t["inputs"]["a"].as_u64().unwrap(), t["inputs"]["b"].as_u64().unwrap());
        let want = ((u128::from(a) * u128::from(b)) >> 64) as u64;
        assert_eq!(t["expected"]["return"].as_u64(), Some(want), "{t}");
    }
    let c = std::fs::read_to_string(out.path().join("mul_high_tests.c")).unwrap();
    assert!(c.contains("#undef __SIZEOF_INT128__"), "{c}");
}

/// `pathwise testcomp PROGRAM` with the Test-Comp branch property: its
/// exit status and output.
fn testcomp(program: &str, out: &Path) -> (Option<i32>, String) {
    let prp = common::root().join("tests/testcomp/coverage-branches.prp");
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["testcomp", "--property"])
        .arg(prp)
        .arg("--out")
        .arg(out)
        .arg(program)
        .current_dir(common::root())
        .output()
        .unwrap();
    (o.status.code(), format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
}

#[test]
fn glibcs_classification_functions_are_the_builtins() {
    let out = tempfile::tempdir().unwrap();
    let (code, text) = testcomp("tests/c/trust5/classify_task.c", out.path());
    assert_eq!(code, Some(0), "{text}");
    // Every branch side but `fesetround`'s failure (5 tests).
    assert!(text.contains("5 tests") && text.contains("branches covered:   9/10"), "{text}");
    assert!(text.contains("stop:               Complete"), "{text}");
}

#[test]
fn testcomps_hint_names_its_own_option() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("p.c");
    std::fs::write(
        &program,
        "extern int probe(int);\nextern int __VERIFIER_nondet_int(void);\n\
                              int main(void) { return probe(__VERIFIER_nondet_int()) > 0; }\n",
    )
    .unwrap();
    let (code, text) = testcomp(program.to_str().unwrap(), &dir.path().join("out"));
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("call to `probe`, which has no body and no built-in model"), "{text}");
    assert!(text.contains("`--external concretise` makes each call return the next input"), "{text}");
    assert!(!text.contains("--external-all") && !text.contains("--external probe"), "{text}");
}

#[test]
fn a_buffer_passed_with_its_size_to_snprintf_or_fgets_has_that_size() {
    let dir = common::root().join("tests/c/trust5");
    for (function, buffer, size) in [("format_id", "buf", "cap"), ("first_line_length", "line", "size")] {
        let out = tempfile::tempdir().unwrap();
        let (suite, _) = common::gen_checked("tests/c/trust5/sizes.c", function, "2", out.path());
        let text = std::fs::read_to_string(out.path().join(format!("{function}_tests.c"))).unwrap();
        assert!(text.contains(&format!("{buffer} has {size} elements (inferred from")), "{text}");
        for t in suite["tests"].as_array().unwrap() {
            let n = t["inputs"][size].as_i64().unwrap();
            // (A null buffer is a test of a path that never uses it.)
            let Some(buf) = t["inputs"][buffer].as_array() else { continue };
            assert!(n <= 0 || buf.len() as i64 == n, "{function}: {t}");
        }
        passes_fortified(out.path(), function, &dir);
        passes_under_asan(out.path(), function, &dir);
    }
}

#[test]
fn string_functions_write_within_an_array_member_or_row() {
    const FILE: &str = "tests/c/trust5/members.c";
    let dir = common::root().join("tests/c/trust5");
    for (function, k, errors) in [
        ("set_name", "9", vec![("out-of-bounds".to_string(), 18)]),
        ("set_name_checked", "9", vec![]),
        ("label", "2", vec![]),
        ("clear", "1", vec![]),
        ("keep", "5", vec![("out-of-bounds".to_string(), 49)]),
    ] {
        let out = tempfile::tempdir().unwrap();
        let (suite, _) = common::gen_checked(FILE, function, k, out.path());
        assert_eq!(common::errors(&suite), errors, "{function}: {suite}");
        for t in suite["tests"].as_array().unwrap().iter().filter(|t| t["outcome"] == "error") {
            let message = t["error"]["message"].as_str().unwrap();
            assert!(message.contains("inside a larger object"), "{message}");
        }
        if errors.is_empty() {
            passes_fortified(out.path(), function, &dir);
        }
    }
}

#[test]
fn pointers_stored_into_an_input_or_a_static_buffer_are_checked() {
    const FILE: &str = "tests/c/trust5/outputs.c";
    for (function, check) in [("find_value", "\"line + "), ("borrow", "\"scratch")] {
        let out = tempfile::tempdir().unwrap();
        let (suite, _) = common::gen_checked(FILE, function, "2", out.path());
        let c = std::fs::read_to_string(out.path().join(format!("{function}_tests.c"))).unwrap();
        assert!(!c.contains("not checked"), "{c}");
        // `*strchr(line, '=') = 0` writes `line`.
        assert!(!c.contains("(read only"), "{c}");
        let stored = suite["tests"].as_array().unwrap().iter().filter(|t| t["expected"]["return"] != -1).count();
        let checks = c.lines().filter(|l| l.contains("pathwise_check_pointer(") && l.contains(check)).count();
        assert_eq!(checks, stored, "{function}: {c}");
    }
}

#[test]
fn thread_local_objects_are_the_threads_static_ones() {
    let out = tempfile::tempdir().unwrap();
    let (suite, outcome) = common::gen_checked("tests/c/trust5/thread_local.c", "enter", "1", out.path());
    // From the globals' initial values: one call, `depth > 3` is false;
    // the other test is `x + calls` overflowing.
    assert_eq!(common::errors(&suite), [("signed-overflow".to_string(), 12)]);
    assert!(outcome.rows.iter().any(|r| r.function == "enter"), "{:?}", outcome.rows);
    let returned = suite["tests"].as_array().unwrap().iter().find(|t| t["outcome"] == "returned").unwrap();
    let x = returned["inputs"]["x"].as_i64().unwrap();
    assert_eq!(returned["expected"]["return"].as_i64(), Some(x + 1), "{returned}");
    assert_eq!(returned["expected"]["globals"]["depth"], 1, "{returned}");
    assert_eq!(returned["expected"]["globals"]["calls"], 1, "{returned}");
    let globals: Vec<&str> = suite["globals"].as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(globals, ["depth", "calls"], "{suite}");
}

#[test]
fn free_fields_under_a_precondition_are_what_it_accepts() {
    let out = tempfile::tempdir().unwrap();
    let file = "tests/c/trust5/members.c";
    let (stdout, _) = common::gen(file, "set_name", &["--k", "1"], out.path());
    assert!(stdout.contains("free fields:         u: id (any value; state what an initialiser"), "{stdout}");
    let pre = ["--k", "1", "--precondition", "set_name_pre"];
    let (stdout, suite) = common::gen(file, "set_name", &pre, out.path());
    assert!(stdout.contains("free fields:         u: id (any value set_name_pre accepts)"), "{stdout}");
    assert!(suite["tests"].as_array().unwrap().iter().all(|t| t["expected"]["return"] != 0), "{suite}");
}

#[test]
fn generic_selection_picks_the_association_of_the_type() {
    let out = tempfile::tempdir().unwrap();
    let (suite, outcome) = common::gen_checked("tests/c/trust5/generic.c", "kinds", "1", out.path());
    assert_eq!(common::branches_covered(&outcome, "kinds"), Some(true), "{:?}", outcome.rows);
    for t in suite["tests"].as_array().unwrap().iter().filter(|t| t["outcome"] == "returned") {
        // KIND(a++) does not evaluate a++: k = 1 + 20 + 300 + 0 + 1.
        let (a, ret) = (t["inputs"]["a"].as_i64().unwrap(), t["expected"]["return"].as_i64().unwrap());
        assert!(ret == 322 + a || ret == -322 - a, "{t}");
    }
}

const INDEXED: &str = "tests/c/trust5/indexed.c";

/// `h->items[h->size] = v` through an input structure, a local
/// structure's `t.count[v[i] & 3]++` and a two-dimensional member indexed
/// by two inputs: every path another index takes is explored (nothing is
/// concretised), gcov measures every branch side covered, and the tests
/// replay under AddressSanitizer.
#[test]
fn arrays_inside_structures_are_indexed_symbolically() {
    // (function, tests): heap_push has 2 refusals and 5 ways through
    // sift-up's two iterations at k = 2; most_common 2 refusals, 1, 4
    // and 4 orders of its counts for 0, 1 and 2 values; flip 4
    // refusals, both sides of `cell[1][2] == 7`, and `flips` overflowing.
    let expected = [("heap_push", 7), ("write_then_read", 5), ("most_common", 11), ("flip", 7)];
    let dir = common::root().join(INDEXED).parent().unwrap().to_path_buf();
    for (function, count) in expected {
        let out = tempfile::tempdir().unwrap();
        let (suite, outcome) = common::gen_checked(INDEXED, function, "2", out.path());
        assert_eq!(common::test_count(&suite), count, "{function}: {suite}");
        assert_eq!(suite["stop"], "complete", "{function}: {}", suite["stop_detail"]);
        assert_eq!(suite["stats"]["values_concretised"], 0, "{function}");
        assert_eq!(common::branches_covered(&outcome, function), Some(true), "{function}");
        passes_under_asan(out.path(), function, &dir);
    }
}

/// A write through one input structure is read through another only when
/// the two are one object and the index is the one read: the solver
/// chooses both.
#[test]
fn an_indexed_write_is_seen_through_an_alias() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(INDEXED, "write_then_read", "2", out.path());
    let mut returns = common::returns(&suite);
    returns.sort();
    assert_eq!(returns, [-1, -1, 0, 1, 2], "{suite}");
    let one = suite["tests"].as_array().unwrap().iter().find(|t| t["expected"]["return"] == 1).unwrap();
    let inputs = &one["inputs"];
    assert_eq!(inputs["a"], inputs["b"], "{one}");
    assert_eq!(inputs["i"], 2, "{one}");
}

const CAPACITY: &str = "tests/c/trust5/capacity.c";

/// The contract lines of a suite (its `contracts`, absent when none).
fn contracts(suite: &serde_json::Value) -> Vec<String> {
    let all = suite["contracts"].as_array().map_or(&[][..], |c| &c[..]);
    all.iter().map(|c| c.as_str().unwrap().to_string()).collect()
}

/// A capacity check before block writes (`if (al + bl > cap) return -1;
/// memcpy(out + al, ...)`, `if (n > cap)` before `memcpy(dst, src, n +
/// 1)`) gives the buffer that capacity: the off-by-one is an
/// out-of-bounds test, the correct check has none, and a limit the
/// writes do not share is no capacity.
#[test]
fn a_capacity_check_before_a_block_write_sizes_the_buffer() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(CAPACITY, "copy_string", "2", out.path());
    assert!(contracts(&suite).iter().any(|c| c.starts_with("dst has cap elements")), "{:?}", contracts(&suite));
    let errors = common::error_messages(&suite);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0].0.as_str(), errors[0].1), ("out-of-bounds", 24), "{errors:?}");
    let error = suite["tests"].as_array().unwrap().iter().find(|t| t["outcome"] == "error").unwrap();
    // The string fills the buffer: its terminator is the byte too many.
    assert_eq!(error["inputs"]["cap"], error["inputs"]["src"].as_array().unwrap().len() as u64 - 1, "{error}");

    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(CAPACITY, "join", "2", out.path());
    assert!(contracts(&suite).iter().any(|c| c.starts_with("out has cap elements")), "{:?}", contracts(&suite));
    assert!(common::errors(&suite).is_empty(), "{suite}");
    let dir = common::root().join(CAPACITY).parent().unwrap().to_path_buf();
    passes_under_asan(out.path(), "join", &dir);
    passes_fortified(out.path(), "join", &dir);

    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(CAPACITY, "fill", "2", out.path());
    assert!(!contracts(&suite).iter().any(|c| c.contains("has max elements")), "{:?}", contracts(&suite));
}

/// `strncpy(buf, name, cap)` writes `cap` bytes, so `buf` has `cap`:
/// without a terminator, `strlen` reads past it.
#[test]
fn strncpy_sizes_its_destination() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(CAPACITY, "set_name", "2", out.path());
    assert!(contracts(&suite).iter().any(|c| c.starts_with("buf has cap elements")), "{:?}", contracts(&suite));
    assert_eq!(common::errors(&suite), [("out-of-bounds".to_string(), 43)]);
    let dir = common::root().join(CAPACITY).parent().unwrap().to_path_buf();
    passes_fortified(out.path(), "set_name", &dir);
}

/// `bsearch` and `qsort` walk `n` elements of `v`: no test passes a
/// shorter array (bsearch's false out-of-bounds test is gone), and
/// `qsort`'s byte copies of an `int` array whose count is an input run
/// (they stopped as an unsupported access).
#[test]
fn bsearch_and_qsort_walk_the_count_they_are_given() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(CAPACITY, "contains", "2", out.path());
    assert!(contracts(&suite).iter().any(|c| c.starts_with("v has n elements")), "{:?}", contracts(&suite));
    assert!(common::errors(&suite).is_empty(), "{suite}");
    assert_eq!(suite["stop"], "complete");

    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(CAPACITY, "smallest", "2", out.path());
    assert_eq!(suite["stop"], "complete", "{}", suite["stop_detail"]);
    assert_eq!(suite["stats"]["values_concretised"], 0);
    let mut counts: Vec<u64> =
        suite["tests"].as_array().unwrap().iter().map(|t| t["inputs"]["n"].as_u64().unwrap()).collect();
    counts.sort();
    // k = 2 bounds qsort's own loops: 0 and 1 elements.
    assert_eq!(counts, [0, 1]);
}

/// `const char in[4]` is four characters the caller passes, not a
/// string: no error test for reading past a NUL (and the test file
/// builds under `-Werror`, which `gen_checked` checks).
#[test]
fn an_array_parameter_declared_with_a_length_is_no_string() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(CAPACITY, "pair_sum", "2", out.path());
    assert!(common::errors(&suite).is_empty(), "{suite}");
    assert!(!contracts(&suite).iter().any(|c| c.contains("NUL-terminated")), "{:?}", contracts(&suite));

    // An error test whose input is shorter than the declared length is
    // passed in an array of that length: no unused guard helper.
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(CAPACITY, "lookup_first", "2", out.path());
    assert_eq!(common::errors(&suite), [("out-of-bounds".to_string(), 78)]);
}

const TABLES: &str = "tests/c/trust5/tables.c";

/// A call through a table of function pointers indexed by an input takes
/// one path per handler (the index was fixed to the run's: one handler
/// ever called), and a pointer read from a table of strings one per name.
#[test]
fn a_table_of_pointers_indexed_by_an_input_has_a_path_per_entry() {
    let out = tempfile::tempdir().unwrap();
    let (suite, outcome) = common::gen_checked(TABLES, "dispatch", "2", out.path());
    // op >= 3; op_add and op_sub, each returning or overflowing; op_max's
    // two sides.
    assert_eq!(common::test_count(&suite), 7, "{suite}");
    assert_eq!(suite["stop"], "complete", "{}", suite["stop_detail"]);
    assert_eq!(suite["stats"]["values_concretised"], 0);
    let mut lines: Vec<u64> = common::errors(&suite).into_iter().map(|(_, line)| line).collect();
    lines.sort();
    assert_eq!(lines, [5, 6], "{suite}");
    for function in ["op_add", "op_sub", "op_max", "dispatch"] {
        assert_eq!(common::branches_covered(&outcome, function).unwrap_or(true), true, "{function}");
    }

    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(TABLES, "name_of", "2", out.path());
    let mut inputs: Vec<u64> =
        suite["tests"].as_array().unwrap().iter().map(|t| t["inputs"]["i"].as_u64().unwrap()).collect();
    inputs.sort();
    assert_eq!(&inputs[..3], [0, 1, 2], "{suite}");
    assert!(inputs[3] > 2);
}

/// The address of an entry of a `const` table is checked as that address
/// (`primes + 2`), not as an object the call allocated.
#[test]
fn a_returned_address_in_a_constant_table_is_checked_by_name() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(TABLES, "prime_after", "2", out.path());
    assert_eq!(common::test_count(&suite), 3);
    let file = std::fs::read_to_string(out.path().join("prime_after_tests.c")).unwrap();
    assert!(file.contains("(void *)(((int *)primes) + 2), \"primes + 2\""), "{file}");
    assert!(!file.contains("pathwise_check_fresh("), "{file}");
}

/// Under `--null-args assume`, the non-null check of `*out = n` is not
/// negated again on every path once a run found `out` dereferenced while
/// null: 21 paths took 43 runs, 22 of them passing a null `out`.
#[test]
fn a_known_non_null_output_is_not_asked_null_again() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked("tests/c/trust5/out_param.c", "count_abc", "2", out.path());
    let tests = common::test_count(&suite) as u64;
    assert_eq!(tests, 21, "{suite}");
    let null_runs = suite["stats"]["nonnull_assumed_runs"].as_u64().unwrap();
    assert!(null_runs <= 3, "{null_runs} runs with a null pointer");
    assert_eq!(suite["stats"]["runs"].as_u64(), Some(tests + null_runs));
    let assumed = common::assumed_nonnull(&suite);
    assert_eq!(assumed.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), ["s", "out"], "{assumed:?}");
}
