//! Differential testing against gcc on csmith's random programs (issue 15):
//! each program, restricted to what Pathwise supports (integers of every
//! width, globals, arrays, loops, calls), is run by Pathwise's concolic
//! interpreter (its `main` has no inputs, so the single test's return value
//! is its concrete result) and by gcc -O0's executable. Both compute the
//! csmith checksum of every global: our own `csmith.h` (below) makes `main`
//! return it instead of printing it, which Pathwise does not model.
//!
//! csmith's safe-math wrappers keep the programs free of undefined
//! behaviour, so any difference is a disagreement about C semantics. The
//! front end may reject a program (an unsupported construct); those are
//! counted apart and must stay a minority.
//!
//! The fixed seeds below run in CI (`.ci/run` installs csmith); a larger
//! campaign: `CSMITH_SEEDS=1-500 cargo test --release -p pathwise-cli --test
//! csmith -- --nocapture`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

use pathwise_cfront::{compile_file, DataModel, FrontendOptions};
use pathwise_engine::config::Config;
use pathwise_engine::suite::Outcome;

/// Where libcsmith-dev puts `safe_math.h`, the wrappers our header includes.
const CSMITH_INCLUDE: &str = "/usr/include/csmith";

/// Replaces csmith's runtime header: the same CRC-32 of every global, but
/// `platform_main_end` makes `main` return the checksum, and `printf` (only
/// reached when hash values are printed, never with `--no-argc`) does
/// nothing. The safe-math wrappers are csmith's own.
const CSMITH_H: &str = r#"
#ifndef PATHWISE_CSMITH_H
#define PATHWISE_CSMITH_H
#include <stdint.h>
#include <limits.h>
#include <string.h>
#include <float.h>
#include <math.h>
#define printf(...) ((void)0)
#define UNDEFINED(__val) (__val)
#define LOG_INDEX
#define LOG_EXEC
#define STATIC static
#define FUNC_NAME(x) (safe_##x)
#include <safe_math.h>
#undef FUNC_NAME
#define INT_BIT (sizeof(int)*CHAR_BIT)

static uint32_t crc32_tab[256];
static uint32_t crc32_context = 0xFFFFFFFFUL;

static void crc32_gentab(void) {
    uint32_t crc;
    const uint32_t poly = 0xEDB88320UL;
    int i, j;
    for (i = 0; i < 256; i++) {
        crc = i;
        for (j = 8; j > 0; j--) {
            if (crc & 1)
                crc = (crc >> 1) ^ poly;
            else
                crc >>= 1;
        }
        crc32_tab[i] = crc;
    }
}

static void crc32_byte(uint8_t b) {
    crc32_context = ((crc32_context >> 8) & 0x00FFFFFF) ^ crc32_tab[(crc32_context ^ b) & 0xFF];
}

static void crc32_8bytes(uint64_t val) {
    crc32_byte((val >> 0) & 0xff);
    crc32_byte((val >> 8) & 0xff);
    crc32_byte((val >> 16) & 0xff);
    crc32_byte((val >> 24) & 0xff);
    crc32_byte((val >> 32) & 0xff);
    crc32_byte((val >> 40) & 0xff);
    crc32_byte((val >> 48) & 0xff);
    crc32_byte((val >> 56) & 0xff);
}

static void transparent_crc(uint64_t val, char *vname, int flag) {
    crc32_8bytes(val);
}

static void platform_main_begin(void) {}

/* main returns the checksum (its `return 0` after this is never reached). */
#define platform_main_end(crc, flag) return (int)(crc)
#endif
"#;

/// gcc's side: the program's `main` renamed, and a real one printing what
/// it returns.
const DRIVER: &str = r#"
#define main csmith_main
#include "prog.c"
#undef main
#undef printf
#include <stdio.h>
int main(void) { printf("%d\n", csmith_main()); return 0; }
"#;

/// csmith's options: everything Pathwise does not support is off
/// (pointers, structures, unions, bit-fields, volatiles, floats; `argc`
/// would make `main` print hash values), and programs are kept small so
/// that the interpreter runs them in well under a second.
const CSMITH_OPTS: &[&str] = &[
    "--no-pointers",
    "--no-structs",
    "--no-unions",
    "--no-bitfields",
    "--no-volatiles",
    "--no-volatile-pointers",
    "--no-const-pointers",
    "--no-packed-struct",
    "--no-float",
    "--no-argc",
    "--no-builtins",
    "--max-funcs",
    "4",
    "--max-array-dim",
    "2",
    "--max-array-len-per-dim",
    "5",
    "--max-block-depth",
    "3",
];

/// The seeds of the bounded campaign run by default (in CI).
const DEFAULT_SEEDS: std::ops::RangeInclusive<u64> = 1..=80;

/// Interpreter steps allowed: a few seconds of interpretation.
const STEP_LIMIT: u64 = 5_000_000;

/// gcc's flags without csmith's safe math: signed arithmetic wraps (as
/// Pathwise's without overflow checks), and the undefined shifts and
/// divisions trap.
const WRAP_FLAGS: &[&str] =
    &["-fwrapv", "-fsanitize=shift,integer-divide-by-zero", "-fsanitize-undefined-trap-on-error"];

/// Stands for a native run that trapped.
const UB: i128 = i128::MIN;

/// What happened to one program.
#[derive(Debug)]
enum Verdict {
    /// Both computed this checksum.
    Agree(i128),
    /// The front end rejected it (unsupported construct): the diagnostic.
    Unsupported(String),
    /// gcc's executable did not finish within a second, or Pathwise's run
    /// went over its step limit (csmith's loops may run millions of
    /// iterations); `true` when gcc's did.
    TooLong(bool),
    /// The native run trapped on undefined behaviour.
    Undefined,
    Mismatch(String),
}

/// `CSMITH_ILP32`: both sides under i386's data model.
fn ilp32() -> bool {
    std::env::var("CSMITH_ILP32").is_ok()
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Agree(v) => write!(f, "agree: {v}"),
            Verdict::Unsupported(d) => write!(f, "unsupported: {d}"),
            Verdict::TooLong(true) => write!(f, "too long natively"),
            Verdict::TooLong(false) => write!(f, "over Pathwise's step limit"),
            Verdict::Undefined => write!(f, "undefined behaviour natively"),
            Verdict::Mismatch(m) => write!(f, "MISMATCH: {m}"),
        }
    }
}

fn csmith_available() -> bool {
    Command::new("csmith").arg("--version").output().is_ok_and(|o| o.status.success())
        && Path::new(CSMITH_INCLUDE).join("safe_math.h").exists()
}

fn run(cmd: &mut Command, what: &str) -> std::process::Output {
    cmd.output().unwrap_or_else(|e| panic!("cannot run {what}: {e}"))
}

/// gcc -O0's result for the program in `dir`, or `None` if it ran too long.
fn gcc_result(dir: &Path, wrap: bool) -> Option<i128> {
    std::fs::write(dir.join("driver.c"), DRIVER).unwrap();
    let exe = dir.join("a.out");
    let out = run(
        Command::new("gcc")
            .args(["-O0", "-w", "-I"])
            .arg(CSMITH_INCLUDE)
            .args(if wrap { WRAP_FLAGS } else { &[] })
            .args(if ilp32() { &["-m32"][..] } else { &[] })
            .arg("driver.c")
            .arg("-o")
            .arg(&exe)
            .current_dir(dir),
        "gcc",
    );
    assert!(out.status.success(), "gcc failed in {}: {}", dir.display(), String::from_utf8_lossy(&out.stderr));
    let out = run(Command::new("timeout").arg("1").arg(&exe), "the program");
    if out.status.code() == Some(124) {
        return None;
    }
    if wrap && out.status.code().is_none() {
        return Some(UB);
    }
    assert!(out.status.success(), "the native program failed in {}", dir.display());
    Some(String::from_utf8_lossy(&out.stdout).trim().parse().expect("a number"))
}

/// Pathwise's result: the return value of `main` run by the engine.
fn pathwise_result(prog: &Path, wrap: bool) -> Result<i128, Verdict> {
    let opts = FrontendOptions {
        include_dirs: vec![prog.parent().unwrap().to_path_buf(), PathBuf::from(CSMITH_INCLUDE)],
        defines: vec![],
        data_model: if ilp32() { DataModel::Ilp32 } else { DataModel::Lp64 },
        extra_args: vec![],
    };
    let compiled = compile_file(prog, &opts).map_err(|d| Verdict::Unsupported(d.to_string()))?;
    // safe_math.h's floating wrappers may be unsupported: csmith never
    // calls them with --no-float.
    if let Some(u) = compiled.unsupported.iter().find(|u| u.diagnostic.file.ends_with("prog.c")) {
        return Err(Verdict::Unsupported(u.diagnostic.to_string()));
    }
    let config = Config {
        max_steps_per_run: STEP_LIMIT,
        check_overflow: !wrap,
        long_bits: if ilp32() { 32 } else { 64 },
        ..Config::new("main", 1)
    };
    let mut backend = pathwise_solver_z3::Z3Backend::new(None);
    let suite = pathwise_engine::generate(&compiled.program, &config, &mut backend, &mut pathwise_engine::NoObserver)
        .map_err(|e| Verdict::Mismatch(format!("generation failed: {e}")))?;
    match suite.tests.as_slice() {
        [t] if t.outcome == Outcome::Returned => t.ret.ok_or_else(|| Verdict::Mismatch("no return value".into())),
        [t] => Err(Verdict::Mismatch(format!("the run ended with {:?}", t.outcome))),
        // The front end accepted everything, so the run was over the step
        // limit (csmith's loops may run millions of iterations).
        [] => Err(Verdict::TooLong(false)),
        ts => Err(Verdict::Mismatch(format!("{} tests instead of one", ts.len()))),
    }
}

/// Generates the program of `seed` in `dir` and compares both results.
fn check_seed(seed: u64, dir: &Path) -> Verdict {
    std::fs::write(dir.join("csmith.h"), CSMITH_H).unwrap();
    let prog = dir.join("prog.c");
    let opts: Vec<String> = match std::env::var("CSMITH_OPTS") {
        Ok(o) => o.split_whitespace().map(str::to_string).collect(),
        Err(_) => CSMITH_OPTS.iter().map(|o| o.to_string()).collect(),
    };
    let out = run(Command::new("csmith").arg("--seed").arg(seed.to_string()).args(opts).arg("-o").arg(&prog), "csmith");
    assert!(out.status.success(), "csmith failed for seed {seed}");
    let wrap = std::env::var("CSMITH_WRAP").is_ok();
    let Some(expected) = gcc_result(dir, wrap) else { return Verdict::TooLong(true) };
    if expected == UB {
        return Verdict::Undefined;
    }
    match pathwise_result(&prog, wrap) {
        Ok(got) if got == expected => Verdict::Agree(got),
        Ok(got) => Verdict::Mismatch(format!("gcc: {expected}, Pathwise: {got}")),
        Err(v) => v,
    }
}

fn seeds() -> Vec<u64> {
    match std::env::var("CSMITH_SEEDS") {
        Ok(s) => {
            let (a, b) = s.split_once('-').unwrap_or((&s, &s));
            (a.trim().parse().expect("CSMITH_SEEDS=A-B")..=b.trim().parse().expect("CSMITH_SEEDS=A-B")).collect()
        }
        Err(_) => DEFAULT_SEEDS.collect(),
    }
}

#[test]
fn csmith_programs_compute_what_gcc_computes() {
    assert!(
        csmith_available(),
        "csmith is not installed (csmith and {CSMITH_INCLUDE}/safe_math.h are needed): \
         `apt-get install csmith libcsmith-dev`, as .ci/run does"
    );
    let seeds = seeds();
    let start = Instant::now();
    let queue = Mutex::new(seeds.clone());
    let results = Mutex::new(Vec::new());
    let root = tempfile::tempdir().unwrap();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(seed) = queue.lock().unwrap().pop() else { break };
                let dir = root.path().join(seed.to_string());
                std::fs::create_dir_all(&dir).unwrap();
                let t = Instant::now();
                let v = check_seed(seed, &dir);
                eprintln!("seed {seed}: {v} ({:.2}s)", t.elapsed().as_secs_f64());
                results.lock().unwrap().push((seed, v));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let count = |f: fn(&Verdict) -> bool| results.iter().filter(|(_, v)| f(v)).count();
    let agree = count(|v| matches!(v, Verdict::Agree(_)));
    let unsupported = count(|v| matches!(v, Verdict::Unsupported(_)));
    let too_long = count(|v| matches!(v, Verdict::TooLong(_)));
    eprintln!(
        "{} programs in {:.1}s: {agree} agree, {unsupported} unsupported, {too_long} too long to run",
        results.len(),
        start.elapsed().as_secs_f64()
    );
    let mismatches: Vec<String> = results
        .iter()
        .filter(|(_, v)| matches!(v, Verdict::Mismatch(_)))
        .map(|(s, v)| format!("seed {s}: {v}"))
        .collect();
    assert!(
        mismatches.is_empty(),
        "Pathwise and gcc disagree (reproduce with CSMITH_SEEDS=N):\n{}",
        mismatches.join("\n")
    );
    assert!(unsupported * 5 <= results.len(), "too many programs unsupported: {results:#?}");
    // Not a vacuous pass: most programs are compared.
    assert!(agree * 2 >= results.len(), "too few programs compared: {results:#?}");
}
