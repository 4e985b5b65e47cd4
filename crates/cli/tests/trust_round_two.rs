//! Trust on real C, round two (issue 23): each item met on real libraries,
//! reproduced in generic form under `tests/c/trust2/`.
//!
//! - A function returning `bool` from `<stdbool.h>` is found (gcc marks the
//!   expansion of `bool` as system-header text in the user's file).
//! - The test file of any function of a unit links alone: the functions the
//!   unit only declares are weak, static ones never are, and the callees of
//!   a function the front end could not lower are among them.
//! - The harness reports through the C library's `printf` whatever the code
//!   under test `#define`s.
//! - One error test per bug (kind, location, failure mode), the others
//!   counted; `--all-error-tests` keeps them.
//! - A read before the start of an input array is an out-of-bounds error.
//! - Arrays read far past 16 elements grow in one run (a key schedule, a
//!   3,000-element loop).
//! - `<wctype.h>` and the multibyte conversions (`mbtowc`, `mbrtowc`...)
//!   are modelled as glibc's "C" locale computes them.
//! - The header's build command has the `-I` directories `gen` was given.
//! - The structure fields read as free inputs are named; a precondition
//!   states what the library's initialiser guarantees.
//! - Inputs as callers pass them: a buffer has as many elements as its
//!   length parameter says and a read-only `char *` ends at its NUL, so
//!   the seeded over-reads (`i <= len`, a skipped line break, an escape
//!   before the NUL) are error tests that trap natively, and correct code
//!   gets none.
//! - `long double` helpers, locals and fields are computed as x87 does, in
//!   80 bits (before: only while their values were doubles).
//! - Library loops over string literals (`strchr("!#$", c)`, `strcmp(s,
//!   "GET")`) are bounded by the literal, not by k.
//! - NULL is an input of every pointer parameter: a test covers each null
//!   check, and a pointer used without one is the contract `assumes
//!   non-null`, not error tests (`--null-args errors` keeps them).
//! - Conversions between object pointer types (a header before a string,
//!   a structure as bytes, a word out of a byte buffer, `container_of`)
//!   are the same address, each access checked at its own type; an input
//!   parameter used as the member of an enclosing structure is named
//!   unsupported, not an out-of-bounds error.
//! - `strtod`, `strtof` and `atof` follow glibc's syntax byte by byte and
//!   give glibc's values, `errno` and end positions.
//! - A loop whose exit reads state set under decisions (`while (!done)`, a
//!   state machine's driver with a switch and a callback) is bounded by k;
//!   before, its search went on as far as the input string grew.
//!
//! Every test file is built with gcc and, where installed, clang
//! (`-Wall -Wextra -Werror`).

mod common;

use std::path::Path;
use std::process::Command;

use common::root;

/// The C compilers on this machine a user may build a test file with:
/// gcc always, clang when installed (as `clang` or `clang-16`).
fn compilers() -> Vec<&'static str> {
    let mut cs = vec!["gcc"];
    for c in ["clang", "clang-16"] {
        if Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()) {
            cs.push(c);
            break;
        }
    }
    cs
}

/// Build `DIR/FUNCTION_tests.c` with each compiler (`-Wall -Wextra
/// -Werror`, `-I tests/c/trust2`) and run it: every run prints
/// `expected`.
fn builds_and_passes_everywhere(dir: &Path, function: &str, expected: &str) {
    for cc in compilers() {
        let (code, stdout) = common::build_and_run_with(cc, dir, function, &root().join("tests/c/trust2"), &[]);
        assert_eq!((code, stdout.as_str()), (0, expected), "{cc}, {function}");
    }
}

fn generate(file: &str, function: &str, extra: &[&str]) -> (tempfile::TempDir, String, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let k: &[&str] = if extra.contains(&"--k") { &[] } else { &["--k", "2"] };
    let args = [k, extra].concat();
    let (stdout, suite) = common::gen(&format!("tests/c/trust2/{file}"), function, &args, out.path());
    (out, stdout, suite)
}

fn test_count(suite: &serde_json::Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

#[test]
fn a_function_returning_stdbool_bool_is_found() {
    let (out, _, suite) = generate("stdbool_ret.c", "in_range", &[]);
    // x < lo, and the rest (`return x <= hi` is a value, not a decision).
    assert_eq!(test_count(&suite), 2, "{suite:#}");
    builds_and_passes_everywhere(out.path(), "in_range", "2 passed, 0 failed\n");
    common::replay_passes(out.path(), 2, vec![], true);
}

#[test]
fn the_test_file_links_alone_whatever_the_unit_declares() {
    let (out, _, suite) = generate("weak_links.c", "sign", &[]);
    assert_eq!(test_count(&suite), 2, "{suite:#}");
    // Declared here, defined in other units: weak. Not the static
    // functions (gcc: "weak declaration must be public"), whether lowered
    // or not.
    let weak: Vec<&str> =
        suite["unreached_functions"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    let mut sorted = weak.clone();
    sorted.sort();
    assert_eq!(sorted, ["lib_report", "lib_scale"], "{suite:#}");
    builds_and_passes_everywhere(out.path(), "sign", "2 passed, 0 failed\n");
    common::replay_passes(out.path(), 2, vec![], true);
}

#[test]
fn long_double_is_computed_in_80_bits() {
    // A helper scaling by 2.5L made every caller unavailable.
    let (out, _, suite) = generate("long_double.c", "scaled_sum", &[]);
    assert_eq!(test_count(&suite), 1, "{suite:#}");
    builds_and_passes_everywhere(out.path(), "scaled_sum", "1 passed, 0 failed\n");
    // n <= 0, one element, two (k = 2) with the first or the second bound
    // ending the loop; s is assumed non-null where the loop reads it.
    let (out, _, suite) = generate("long_double.c", "weighted", &[]);
    assert_eq!(test_count(&suite), 4, "{suite:#}");
    assert_eq!(common::assumed_nonnull(&suite), [("s".to_string(), 28)]);
    builds_and_passes_everywhere(out.path(), "weighted", "4 passed, 0 failed\n");
    common::replay_passes(out.path(), 4, vec![], true);
    // 1/3 needs x87's 64-bit significand: computed in 80 bits, and both
    // paths have their test.
    let (out, stdout, suite) = generate("long_double.c", "third_positive", &[]);
    assert_eq!(test_count(&suite), 2, "{suite:#}");
    assert!(stdout.contains("stop:                complete"), "{stdout}");
    builds_and_passes_everywhere(out.path(), "third_positive", "2 passed, 0 failed\n");
}

/// `(function, tests, contract line, error sites (kind, line))` of
/// `contracts.c` at k = 2.
const CONTRACT_CASES: [(&str, usize, &str, &[(&str, u64)]); 7] = [
    ("checksum", 3, "buf has len elements", &[]),
    ("sum_upto", 1, "buf has len elements", &[("out-of-bounds", 23)]),
    ("count_padding", 22, "in has len elements", &[("out-of-bounds", 34)]),
    ("count_x", 7, "p has n elements", &[]),
    ("unescaped_len", 8, "s is a NUL-terminated string", &[("out-of-bounds", 58)]),
    ("count_digits", 13, "s is a NUL-terminated string", &[]),
    // `hi` is an index (`a[hi]`), not a length: no contract; a negative
    // `lo` or `hi` reads before the array.
    ("max_in", 9, "", &[("out-of-bounds", 82), ("out-of-bounds", 80)]),
];

#[test]
fn inputs_keep_the_contracts_the_code_shows() {
    for (function, n, contract, errors) in CONTRACT_CASES {
        let (out, stdout, suite) = generate("contracts.c", function, &[]);
        assert_eq!(test_count(&suite), n, "{function}: {stdout}");
        let contracts: Vec<&str> = suite["contracts"]
            .as_array()
            .map_or(Vec::new(), |c| c.iter().map(|v| v.as_str().unwrap()).collect())
            .into_iter()
            .filter(|c| !c.starts_with("assumes non-null: "))
            .collect();
        // Each reads its one pointer without a null test: a contract too.
        assert_eq!(common::assumed_nonnull(&suite).len(), 1, "{function}: {stdout}");
        if contract.is_empty() {
            assert!(contracts.is_empty(), "{function}: {contracts:?}");
        } else {
            assert!(contracts.len() == 1 && contracts[0].starts_with(contract), "{function}: {contracts:?}");
            assert!(stdout.contains(&format!("contract:            {contract}")), "{stdout}");
        }
        let sites: Vec<(String, u64)> = error_sites(&suite).into_iter().map(|(k, l, _)| (k, l)).collect();
        let expected: Vec<(String, u64)> = errors.iter().map(|(k, l)| (k.to_string(), *l)).collect();
        assert_eq!(sites, expected, "{function}");
        // The over-reads trap natively: the arrays end at an inaccessible page.
        builds_and_passes_everywhere(out.path(), function, &format!("{n} passed, 0 failed\n"));
        common::replay_passes(out.path(), n, vec![], true);
    }
    // Without the inference, the seeded over-read is a longer array.
    let (_, _, suite) = generate("contracts.c", "sum_upto", &["--no-inferred-contracts"]);
    assert!(error_sites(&suite).is_empty(), "{suite:#}");
    assert_eq!(common::assumed_nonnull(&suite), [("buf".to_string(), 23)], "{suite:#}");
}

#[test]
fn the_report_is_printed_whatever_the_code_defines_printf_as() {
    let (out, _, suite) = generate("printf_macro.c", "clamp_report", &[]);
    assert_eq!(test_count(&suite), 3, "{suite:#}");
    builds_and_passes_everywhere(out.path(), "clamp_report", "3 passed, 0 failed\n");
    common::replay_passes(out.path(), 3, vec![], true);
}

/// The error tests of a suite: (kind, line, same_error_paths), in test
/// order.
fn error_sites(suite: &serde_json::Value) -> Vec<(String, u64, u64)> {
    common::error_objects(suite)
        .into_iter()
        .map(|e| {
            let (kind, line) = (e["kind"].as_str().unwrap().to_string(), e["line"].as_u64().unwrap());
            (kind, line, e["same_error_paths"].as_u64().unwrap_or(0))
        })
        .collect()
}

/// 2^8 paths reach each of two divisions: by default one error test per
/// (kind, location), the others counted on it; `--all-error-tests` keeps
/// them all, and both suites have the same error sites, paths and
/// coverage.
#[test]
fn one_error_test_per_kind_and_location() {
    let (out, stdout, suite) = generate("error_sites.c", "sum_ratios", &[]);
    let (all_out, _, all) = generate("error_sites.c", "sum_ratios", &["--all-error-tests"]);
    let mut sites: Vec<(String, u64)> = error_sites(&suite).into_iter().map(|(k, l, _)| (k, l)).collect();
    sites.sort();
    let mut all_sites: Vec<(String, u64)> = error_sites(&all).into_iter().map(|(k, l, _)| (k, l)).collect();
    all_sites.sort();
    all_sites.dedup();
    // Division by zero and `d - 1` / `d - 2` overflowing, at lines 22 and 24.
    assert_eq!(
        sites,
        [
            ("division-by-zero".to_string(), 22),
            ("division-by-zero".to_string(), 24),
            ("signed-overflow".to_string(), 22),
            ("signed-overflow".to_string(), 24)
        ]
    );
    assert_eq!(sites, all_sites);
    // Every path to line 22 can fail there: 2^8 of them, one test.
    let folded: u64 = error_sites(&suite).iter().map(|s| s.2).sum();
    let all_errors = error_sites(&all).len() as u64;
    assert_eq!(folded + 4, all_errors);
    assert!(error_sites(&suite).iter().any(|s| s.1 == 22 && s.2 == 255), "{:?}", error_sites(&suite));
    assert_eq!(suite["stats"]["error_paths_folded"].as_u64(), Some(folded));
    assert_eq!(suite["stats"]["feasible_paths"], all["stats"]["feasible_paths"]);
    assert_eq!(test_count(&all) - test_count(&suite), folded as usize);
    assert!(stdout.contains("one per kind and location;"), "{stdout}");
    // Both suites replay, and the smaller one still covers every branch.
    assert_eq!(suite["coverage"], all["coverage"]);
    common::replay_passes(out.path(), test_count(&suite), vec![], true);
    common::replay_passes(all_out.path(), test_count(&all), vec![], true);
}

/// `s[-1]` through a parameter is before the object the caller passes:
/// an out-of-bounds error, whatever the array's length (before, the run
/// asked for a longer array, was pruned and the search said "complete"
/// with no error); so is an index that may be negative.
#[test]
fn reads_before_the_start_of_an_input_array_are_errors() {
    let (out, _, suite) = generate("before_start.c", "dash_follows_nul", &[]);
    assert_eq!(error_sites(&suite), [("out-of-bounds".to_string(), 5, 0)], "{suite:#}");
    assert_eq!(test_count(&suite), 2);
    assert_eq!(suite["stop"], "complete");
    common::replay_passes(out.path(), 2, vec![], true);
    let (out, _, suite) = generate("before_start.c", "at_offset", &[]);
    assert_eq!(error_sites(&suite), [("out-of-bounds".to_string(), 12, 0)], "{suite:#}");
    let negative = suite["tests"].as_array().unwrap().iter().find(|t| t["outcome"] == "error").unwrap();
    assert!(negative["inputs"]["i"].as_i64().unwrap() < 0, "{negative}");
    common::replay_passes(out.path(), test_count(&suite), vec![], true);
}

/// Arrays read far past 16 elements: a 176-byte key schedule read at
/// constant offsets gets its tests (before: none, and "complete"), and a
/// fixed loop over 3,000 elements is one run per test, not one run per
/// element (an array read past its length grows in place).
#[test]
fn long_input_arrays_grow_in_one_run() {
    let (out, _, suite) = generate("long_arrays.c", "mix_key", &[]);
    assert_eq!(suite["stop"], "complete", "{suite:#}");
    assert_eq!(test_count(&suite), 3);
    for t in suite["tests"].as_array().unwrap() {
        assert_eq!(t["inputs"]["key"].as_array().unwrap().len(), 176, "{t}");
    }
    // One run per test, and one passing a null `key` (assumed non-null).
    assert_eq!(suite["stats"]["runs"], 4);
    assert_eq!(suite["stats"]["nonnull_assumed_runs"], 1);
    common::replay_passes(out.path(), 3, vec![], true);
    let (out, _, suite) = generate("long_arrays.c", "count_positive", &["--timeout", "3"]);
    let n = test_count(&suite);
    assert!(n >= 1, "{suite:#}");
    // Every run is a test (or passes a null `v`): none is spent asking
    // for one more element.
    let null_runs = suite["stats"]["nonnull_assumed_runs"].as_u64().unwrap();
    assert_eq!(suite["stats"]["runs"].as_u64(), Some(n as u64 + null_runs));
    for t in suite["tests"].as_array().unwrap() {
        assert_eq!(t["inputs"]["v"].as_array().unwrap().len(), 3000);
    }
    common::replay_passes(out.path(), n, vec![], true);
}

/// `<wctype.h>` in the "C" locale is modelled as glibc computes it (before:
/// no model, and the suggested `--external` stubs returned values glibc
/// never returns): every class decision is explored and the values replay.
#[test]
fn wide_character_classes_are_glibcs() {
    let (out, _, suite) = generate("wide.c", "wide_kind", &[]);
    assert_eq!(suite["stop"], "complete", "{suite:#}");
    assert_eq!(common::returns(&suite), [0, 1, 2, 3, 4, 5]);
    builds_and_passes_everywhere(out.path(), "wide_kind", "6 passed, 0 failed\n");
    common::replay_passes(out.path(), 6, vec![], true);
    let (out, _, suite) = generate("wide.c", "fold", &[]);
    assert_eq!(test_count(&suite), 1);
    builds_and_passes_everywhere(out.path(), "fold", "1 passed, 0 failed\n");
}

/// The build command in the test file's header is complete: a header-only
/// library tested through a one-line wrapper needs the `-I` directory
/// `gen` was given (before, the command left it out and did not build).
#[test]
fn the_header_build_command_has_the_include_directories() {
    let out = tempfile::tempdir().unwrap();
    let args = ["--k", "2", "-I", "tests/c/trust2/include"];
    let (_, suite) = common::gen("tests/c/trust2/header_only.c", "clamp_byte", &args, out.path());
    assert_eq!(test_count(&suite), 3);
    let text = std::fs::read_to_string(out.path().join("clamp_byte_tests.c")).unwrap();
    let command = text
        .lines()
        .find_map(|l| l.strip_prefix(" *   "))
        .and_then(|l| l.strip_suffix(" && ./a.out */"))
        .expect("a build command in the header");
    // Relative to the output directory (no absolute path in the suite).
    let include = root().join("tests/c/trust2/include").canonicalize().unwrap();
    let given = command.split(' ').filter_map(|w| w.strip_prefix("-I")).find(|d| d.ends_with("trust2/include"));
    let given = given.unwrap_or_else(|| panic!("no -I for the include directory: {command}"));
    assert!(!given.starts_with('/'), "{command}");
    assert_eq!(out.path().join(given).canonicalize().unwrap(), include, "{command}");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("{command} -o native && ./native"))
        .current_dir(out.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "3 passed, 0 failed\n", "{}", String::from_utf8_lossy(&o.stderr));
}

/// The fields a structure parameter's tests read as free inputs are named
/// in the summary (a line counter starting at INT_MAX is an artefact of
/// the input model), and a precondition stating what the initialiser
/// guarantees removes the overflow no caller can reach.
#[test]
fn free_structure_fields_are_named_and_a_precondition_bounds_them() {
    let (out, stdout, suite) = generate("parser_state.c", "next_line", &[]);
    assert!(stdout.contains("free fields:         p: pos, line (any value;"), "{stdout}");
    let kinds: Vec<String> = error_sites(&suite).into_iter().map(|(k, _, _)| k).collect();
    assert_eq!(kinds, ["signed-overflow"]);
    assert_eq!(common::assumed_nonnull(&suite).len(), 1, "{stdout}");
    common::replay_passes(out.path(), test_count(&suite), vec![], true);
    let (out, _, suite) = generate("parser_state.c", "next_line", &["--precondition", "parser_ready"]);
    assert!(error_sites(&suite).is_empty(), "{suite:#}");
    assert_eq!(common::returns(&suite).len(), 2);
    common::replay_passes(out.path(), test_count(&suite), vec![], true);
}

/// `(function, tests, whether a test passes NULL, the parameter assumed
/// non-null)` of `null_args.c` at k = 2.
const NULL_CASES: [(&str, usize, bool, Option<(&str, u64)>); 6] = [
    // NULL (-1); "" ; one and two characters (k = 2).
    ("len_or_minus", 4, true, None),
    ("starts_with_a", 1, false, Some(("s", 24))),
    ("getx_or", 2, true, None),
    // `v == NULL` after `*v`: dead under the contract.
    ("late", 1, false, Some(("v", 38))),
    ("apply_or", 2, true, None),
    // NULL, n < 2, the write.
    ("put2", 3, true, None),
];

#[test]
fn pointer_parameters_may_be_null_and_unchecked_ones_are_contracts() {
    for (function, n, passes_null, assumed) in NULL_CASES {
        let (out, stdout, suite) = generate("null_args.c", function, &[]);
        assert_eq!(test_count(&suite), n, "{function}: {stdout}");
        assert_eq!(suite["stop"], "complete", "{function}: {stdout}");
        assert!(common::errors(&suite).is_empty(), "{function}: {stdout}");
        let pointer = suite["params"][0]["name"].as_str().unwrap();
        let null = suite["tests"].as_array().unwrap().iter().any(|t| t["inputs"][pointer].is_null());
        assert_eq!(null, passes_null, "{function}: {suite:#}");
        let expected: Vec<(String, u64)> = assumed.iter().map(|(p, l)| (p.to_string(), *l)).collect();
        assert_eq!(common::assumed_nonnull(&suite), expected, "{function}");
        if let Some((p, _)) = assumed {
            assert!(
                stdout.contains(&format!("contract:            assumes non-null: {p} (used without a null test at"))
            );
            let c = std::fs::read_to_string(out.path().join(format!("{function}_tests.c"))).unwrap();
            assert!(c.contains(&format!("assumes non-null: {p}")), "{c}");
        }
        builds_and_passes_everywhere(out.path(), function, &format!("{n} passed, 0 failed\n"));
        common::replay_passes(out.path(), n, vec![], true);
    }
    // `--null-args errors`: the unchecked dereference is an error test,
    // which crashes natively as expected.
    let (out, _, suite) = generate("null_args.c", "starts_with_a", &["--null-args", "errors"]);
    assert_eq!(common::errors(&suite), [("null-dereference".to_string(), 24)]);
    assert!(common::assumed_nonnull(&suite).is_empty());
    builds_and_passes_everywhere(out.path(), "starts_with_a", "2 passed, 0 failed\n");
    common::replay_passes(out.path(), 2, vec![], true);
}

/// At k = 2 every outcome of a library loop over a literal is a path:
/// `strchr("!#$%&", c)` finds each of the 5 characters, the terminator
/// (c = 0) or nothing; `method` returns each of 0..=3 (before, the
/// not-found side and `strcmp(m, "GET") == 0` were cut by k and the run
/// said "complete").
#[test]
fn library_loops_over_literals_are_not_cut_by_k() {
    let (out, _, suite) = generate("literals.c", "special", &[]);
    assert_eq!(suite["stop"], "complete");
    assert_eq!(test_count(&suite), 7);
    let mut cs: Vec<i64> =
        suite["tests"].as_array().unwrap().iter().map(|t| t["inputs"]["c"].as_i64().unwrap()).collect();
    cs.sort();
    assert_eq!(cs[0], 0);
    assert!([33, 35, 36, 37, 38].iter().all(|c| cs.contains(c)), "{cs:?}");
    assert_eq!(common::returns(&suite).iter().filter(|&&r| r == 0).count(), 1);
    builds_and_passes_everywhere(out.path(), "special", "7 passed, 0 failed\n");
    common::replay_passes(out.path(), 7, vec![], true);
    let (out, _, suite) = generate("literals.c", "method", &[]);
    assert_eq!(suite["stop"], "complete");
    let mut rets = common::returns(&suite);
    rets.dedup();
    assert_eq!(rets, [0, 1, 2, 3]);
    common::replay_passes(out.path(), test_count(&suite), vec![], true);
}

/// `mbtowc` and its family in the "C" locale, as glibc computes them (no
/// model before, and no external stub can write `*pwc`): `first_wide`
/// gets its four paths (NULL, "", an invalid byte, a character), and a
/// checksum over all 256 bytes and the edge cases equals glibc's natively.
#[test]
fn multibyte_conversions_are_glibcs() {
    let (out, _, suite) = generate("multibyte.c", "first_wide", &[]);
    assert_eq!(suite["stop"], "complete");
    // The character is a readable one, ' ' (issue 28's preferred values).
    assert_eq!(common::returns(&suite), [-1, 0, 0, 1032]);
    builds_and_passes_everywhere(out.path(), "first_wide", "4 passed, 0 failed\n");
    common::replay_passes(out.path(), 4, vec![], true);
    let (out, _, suite) = generate("multibyte.c", "mb_table", &[]);
    assert!(common::errors(&suite).is_empty(), "{suite:#}");
    builds_and_passes_everywhere(out.path(), "mb_table", "1 passed, 0 failed\n");
}

/// A dynamic string's header at `s - sizeof(struct hdr)`, a structure read
/// as bytes, a little-endian word out of a byte buffer, `container_of`
/// over a list the function builds: each path its test, built and passed
/// natively, replayed with gcov agreeing. `container_of` on a parameter
/// stops at the access, named, not an out-of-bounds error test.
#[test]
fn pointer_conversions_are_the_same_address() {
    for (function, rets) in [
        // n > 2; malloc fails (no memory); n = 0, 1 (short); n = 2 (long).
        ("dstring_kind", &[-1, 0, 1, 1, 2][..]),
        // b[0] == 0x7f; b[1] == 1; neither.
        ("first_byte", &[0, 1, 2]),
        // len < 4; "\x7fELF"; h[1] == 0x0102; neither.
        ("has_magic", &[-1, 0, 1, 2]),
        // The two values' sum through the embedded nodes: > 10 or not.
        ("list_sum", &[0, 1]),
    ] {
        let (out, _, suite) = generate("casts.c", function, &[]);
        assert_eq!(suite["stop"], "complete", "{function}: {suite:#}");
        assert!(common::errors(&suite).is_empty(), "{function}: {suite:#}");
        assert_eq!(common::returns(&suite), rets, "{function}: {suite:#}");
        let n = rets.len();
        builds_and_passes_everywhere(out.path(), function, &format!("{n} passed, 0 failed\n"));
        common::replay_passes(out.path(), n, vec![], true);
    }
    let (_, stdout, suite) = generate("casts.c", "item_value", &[]);
    assert_eq!((test_count(&suite), suite["stop"].as_str()), (0, Some("explored")), "{suite:#}");
    assert!(common::errors(&suite).is_empty(), "{suite:#}");
    assert!(
        stdout.contains("casts.c:108:9: access 8 byte(s) before the start of an input object (a pointer to a member of an enclosing structure, as `container_of` computes"),
        "{stdout}"
    );
}

/// `strtod` on a symbolic string: every class of result its syntax gives
/// within k = 1 (no number, trailing text, NaN, a number), each test
/// passing natively under gcc and clang with gcov agreeing; the digits are
/// fixed (floating values are not symbolic), so the out-of-range side is
/// not reached and the run says so. On fixed spellings (hexadecimal,
/// `infinity` in any case, `nan(...)`, an exponent with no digit, the
/// subnormal and overflow limits) the values, `errno` and end positions
/// the engine computes are glibc's: the tests compare them natively.
#[test]
fn strtod_is_glibcs() {
    let (out, stdout, suite) = generate("strtod.c", "number_kind", &["--k", "1"]);
    assert_eq!(suite["stop"], "explored", "{stdout}");
    assert!(stdout.contains("1 place(s) where a symbolic value was concretised"), "{stdout}");
    assert!(common::errors(&suite).is_empty(), "{suite:#}");
    let mut kinds = common::returns(&suite);
    kinds.dedup();
    assert_eq!(kinds, [0, 2, 3, 4], "{stdout}");
    assert_eq!(test_count(&suite), 672, "{stdout}");
    builds_and_passes_everywhere(out.path(), "number_kind", "672 passed, 0 failed\n");
    common::replay_passes(out.path(), 672, vec![], true);
    for function in ["spellings", "float_values"] {
        let (out, _, suite) = generate("strtod.c", function, &[]);
        assert_eq!((suite["stop"].as_str(), test_count(&suite)), (Some("complete"), 1), "{suite:#}");
        builds_and_passes_everywhere(out.path(), function, "1 passed, 0 failed\n");
    }
    // All four float checks hold in glibc, and so in the model.
    let (_, _, suite) = generate("strtod.c", "float_values", &[]);
    assert_eq!(common::returns(&suite), [15]);
}

/// The flag loop and the state machine's driver end at k = 2 ("complete"),
/// with the strings of up to two characters before the end as paths; a
/// loop of fixed count still runs all its iterations (2^4 sign patterns).
/// Every suite builds, passes natively and agrees with gcov (the switch
/// stepped through the callback included).
#[test]
fn loops_stepped_by_state_are_bounded_by_k() {
    for (function, rets) in [
        // ";" or "", one character then either, two then either.
        ("until_semicolon", vec![0, 0, 1, 1, 2, 2]),
        // Strings of at most two characters: no token or one.
        ("count_tokens", [vec![0; 13], vec![1; 14]].concat()),
        ("positives", vec![0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4]),
        // An index stepped by 1 or 2 under a decision up to a constant:
        // not state, every one of its 21 paths (3 to 6 steps).
        ("skip_pairs", [vec![3], vec![4; 9], vec![5; 9], vec![6; 2]].concat()),
        // A keyword table searched with `strcmp` to its end: not state
        // (`strcmp` writes nothing), so every keyword is found; the 17
        // others are the ways `s` differs from each.
        ("keyword_id", [vec![0; 17], vec![1, 2, 3, 4, 5]].concat()),
    ] {
        let (out, stdout, suite) = generate("state_loops.c", function, &[]);
        assert_eq!(suite["stop"], "complete", "{function}: {stdout}");
        assert_eq!(common::returns(&suite), rets, "{function}: {stdout}");
        let n = rets.len();
        builds_and_passes_everywhere(out.path(), function, &format!("{n} passed, 0 failed\n"));
        common::replay_passes(out.path(), n, vec![], true);
    }
    // A flag set by a fixed count is counted as state (the rule is
    // static): at k = 2 no path ends within the bound, and the stop line
    // says so rather than a bare "complete"; k = 3 has the 2^4 paths.
    let (_, stdout, suite) = generate("state_loops.c", "flagged_four", &[]);
    assert_eq!(test_count(&suite), 0, "{stdout}");
    assert!(
        stdout.contains("stop:                complete, but no path ends within k = 2: 8 run(s) went past the bound (a larger --k reaches them)"),
        "{stdout}"
    );
    let (_, stdout, suite) = generate("state_loops.c", "flagged_four", &["--k", "3"]);
    assert_eq!(common::returns(&suite), [0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4], "{stdout}");
}
