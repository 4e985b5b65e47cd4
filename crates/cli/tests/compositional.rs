//! `gen --compositional` (top-down function summaries, SMART, seed 004):
//! tests/bench/summaries.c's sum6 needs a handful of runs instead of 729,
//! with the monolithic search's branch coverage and both outcomes of
//! `s == 7`; callees with side effects fall back to monolithic
//! exploration (reported); every suite builds with `-Wall -Wextra
//! -Werror`, passes natively and replays with gcov agreeing.

mod common;

/// Generate with `args`, build and run natively (overflow traps, as error
/// tests expect), replay with gcov: (stdout, JSON suite).
fn generate_and_check(file: &str, function: &str, args: &[&str]) -> (String, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let (summary, suite) = common::gen(file, function, args, out.path());
    let n = suite["tests"].as_array().unwrap().len();
    let bench = format!("-I{}", common::root().join("tests/bench").display());
    let flags = ["-fsanitize=undefined", "-fsanitize-undefined-trap-on-error", &bench];
    let (code, stdout) = common::build_and_run(out.path(), function, &flags);
    assert_eq!((code, stdout), (0, format!("{n} passed, 0 failed\n")), "{function} {args:?}");
    common::replay_passes(out.path(), n, vec![], true);
    (summary, suite)
}

/// Per function: (branches, branches covered).
fn branch_coverage(suite: &serde_json::Value) -> Vec<(String, u64, u64)> {
    let functions = suite["coverage"]["functions"].as_array().unwrap();
    let row = |f: &serde_json::Value| {
        let n = |k: &str| f[k].as_u64().unwrap();
        (f["name"].as_str().unwrap().to_string(), n("branches"), n("branches_covered"))
    };
    functions.iter().map(row).collect()
}

#[test]
fn sum6_composes_classify_instead_of_enumerating_its_729_paths() {
    let file = "tests/bench/summaries.c";
    let (_, mono) = generate_and_check(file, "sum6", &[]);
    assert_eq!(mono["stats"]["runs"], 729);
    let (text, comp) = generate_and_check(file, "sum6", &["--compositional"]);
    let runs = comp["stats"]["runs"].as_u64().unwrap();
    assert!(runs <= 30, "{runs} runs: {text}");
    assert_eq!(comp["stop"], "complete", "{text}");
    assert_eq!(comp["stats"]["divergences"], 0, "{text}");
    assert_eq!(branch_coverage(&comp), branch_coverage(&mono));
    assert!(branch_coverage(&comp).iter().all(|(_, n, c)| n == c), "{text}");
    // Both outcomes of s == 7: sum6 returns 1 and 0.
    let rets = common::returns(&comp);
    assert!(rets.contains(&0) && rets.contains(&1), "{rets:?}");
    let c = &comp["stats"]["compositional"];
    assert_eq!(c["summaries"], serde_json::json!([{ "function": "classify", "cases": 3, "complete": true }]));
    assert!(c["reused"].as_u64().unwrap() >= 5, "{c}");
    assert!(text.contains("summaries:           1 computed (classify 3 case(s), complete)"), "{text}");
}

#[test]
fn callees_with_side_effects_are_explored_monolithically() {
    let file = "tests/c/compositional.c";
    // bump writes a global: no summary, every call explored, the same
    // tests as without --compositional.
    let (_, mono) = generate_and_check(file, "twice", &[]);
    let (text, comp) = generate_and_check(file, "twice", &["--compositional"]);
    assert_eq!(comp["tests"].as_array().unwrap().len(), mono["tests"].as_array().unwrap().len());
    assert_eq!(comp["stats"]["runs"], mono["stats"]["runs"]);
    let fallbacks = &comp["stats"]["compositional"]["fallbacks"];
    assert_eq!(fallbacks, &serde_json::json!(["bump: uses a global or a function pointer at line 10"]), "{text}");
    assert!(text.contains("summary fallback:    bump:"), "{text}");
}

#[test]
fn summarised_and_unsummarisable_callees_mix() {
    // step (and sign below it) is summarised; wrap calls bump, so it is
    // not. Same branch coverage and error locations, fewer runs.
    let file = "tests/c/compositional.c";
    let (_, mono) = generate_and_check(file, "mixed", &[]);
    let (text, comp) = generate_and_check(file, "mixed", &["--compositional"]);
    assert_eq!(branch_coverage(&comp), branch_coverage(&mono));
    assert!(comp["stats"]["runs"].as_u64() < mono["stats"]["runs"].as_u64(), "{text}");
    assert_eq!(comp["stop"], "complete", "{text}");
    let locations = |s: &serde_json::Value| {
        let mut e = common::errors(s);
        e.dedup();
        e
    };
    assert_eq!(locations(&comp), locations(&mono));
    let c = &comp["stats"]["compositional"];
    assert_eq!(c["summaries"][0]["function"], "step", "{c}");
    let fallbacks: Vec<&str> = c["fallbacks"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert!(fallbacks.iter().any(|f| f.starts_with("wrap: calls `bump`")), "{fallbacks:?}");
}
