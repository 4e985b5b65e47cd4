//! `cargo bench -p pathwise-cli --bench compositional [-- sweep]`: runs,
//! solver calls and time of the monolithic and the compositional searches
//! (top-down and bottom-up) on the seed programs and on a generated family
//! that explodes monolithically; `sweep` compares the error kinds and the
//! branch sides covered of every function of tests/c and tests/bench
//! instead (what `tests/compositional.rs` asserts), at k = 2 or under
//! `SWEEP_K=N` and `SWEEP_BLOCK=1` (block-k).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pathwise_engine::config::{Config, Criterion};
use pathwise_engine::search::{generate, NoObserver};
use pathwise_engine::suite::{StopReason, TestSuite};
use pathwise_solver_z3::Z3Backend;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Mono,
    TopDown,
    BottomUp,
}

fn run(program: &pathwise_ir::Program, config: &Config, mode: Mode) -> (TestSuite, Duration) {
    let mut c = config.clone();
    c.compositional = mode != Mode::Mono;
    c.compose.bottom_up = mode == Mode::BottomUp;
    let start = Instant::now();
    let mut backend = Z3Backend::new(None);
    let suite = generate(program, &c, &mut backend, &mut NoObserver).expect("generate");
    (suite, start.elapsed())
}

fn compile(file: &Path, defines: &[String]) -> pathwise_ir::Program {
    let includes = [root().join("tests/bench"), root().join("crates/cfront/include")];
    pathwise_cli::frontend::compile(file, &includes, defines).expect("compiles").program
}

fn row(name: &str, program: &pathwise_ir::Program, config: &Config) {
    let mut cells = Vec::new();
    for mode in [Mode::Mono, Mode::TopDown, Mode::BottomUp] {
        let (s, t) = run(program, config, mode);
        let r = &s.stats.summaries;
        let runs = s.stats.runs + r.bottom_up_runs;
        let calls = s.stats.solver_calls + r.bottom_up_solver_calls;
        let done = if s.stop == StopReason::Complete { "" } else { "*" };
        cells.push(format!("{runs:>6}{done:1} {calls:>6} {:>8.1}", t.as_secs_f64() * 1000.0));
    }
    println!("{name:<28} {}", cells.join(" | "));
}

fn header() {
    println!(
        "{:<28} {:>7} {:>6} {:>8} | {:>7} {:>6} {:>8} | {:>7} {:>6} {:>8}",
        "program", "runs", "calls", "ms", "runs", "calls", "ms", "runs", "calls", "ms"
    );
    println!("{:<28} {:^24} | {:^24} | {:^24}", "", "monolithic", "top-down", "bottom-up");
}

/// `n` calls in sequence to a 3-path helper, then a branch on the sum.
fn family(n: usize) -> String {
    let params: Vec<String> = (0..n).map(|i| format!("int x{i}")).collect();
    let calls: Vec<String> = (0..n).map(|i| format!("classify3(x{i})")).collect();
    format!(
        "int classify3(int x)\n{{\n    if (x > 100)\n        return 2;\n    if (x > 0)\n        return 1;\n    return 0;\n}}\n\n\
         int chain(int dummy, {})\n{{\n    int s = {};\n    if (s == {})\n        return 1;\n    return dummy;\n}}\n",
        params.join(", "),
        calls.join(" + "),
        n + 1
    )
}

fn main() {
    if std::env::args().any(|a| a == "sweep") {
        return sweep();
    }
    header();
    let dir = tempdir();
    let locate_n = dir.join("locate_n.c");
    std::fs::write(
        &locate_n,
        "#include \"pathwise.h\"\n#include \"locate.c\"\nint top_pre(char *input) { pathwise_array_len(input, N + 1); return input[N] == 0; }\n",
    )
    .unwrap();
    for n in [2u32, 4, 8, 16, 32] {
        let program = compile(&locate_n, &[format!("N={n}")]);
        let mut c = Config::new("top", 40);
        c.precondition = Some("top_pre".into());
        c.max_array_len = 40;
        row(&format!("locate.c top, n = {n}"), &program, &c);
    }
    let summaries = compile(&root().join("tests/bench/summaries.c"), &[]);
    row("summaries.c sum6", &summaries, &Config::new("sum6", 2));
    let foo_bar = compile(&root().join("tests/bench/foo_bar.c"), &[]);
    let mut c = Config::new("bar", 2);
    c.check_overflow = false;
    row("foo_bar.c bar (wrap-around)", &foo_bar, &c);
    let rational = compile(&root().join("tests/bench/rational.c"), &[]);
    for f in ["simplify", "simp"] {
        for k in [2, 3, 4] {
            let mut c = Config::new(f, k);
            c.criterion = Criterion::BlockK;
            row(&format!("rational.c {f}, block-{k}"), &rational, &c);
        }
    }
    for n in 4..=12 {
        let file = dir.join(format!("chain{n}.c"));
        std::fs::write(&file, family(n)).unwrap();
        let program = compile(&file, &[]);
        let mut c = Config::new("chain", 2);
        c.timeout = Some(Duration::from_secs(60));
        row(&format!("chain of {n} calls"), &program, &c);
    }
    println!("(* not complete: timeout or undecided prefixes; runs and calls include the bottom-up searches)");
}

fn tempdir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathwise-bench-compositional-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Error kinds of every function of tests/c and tests/bench, monolithic
/// and compositional.
fn sweep() {
    let mut files: Vec<PathBuf> = Vec::new();
    for d in ["tests/c", "tests/bench"] {
        for e in std::fs::read_dir(root().join(d)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "c") {
                files.push(e.path());
            }
        }
    }
    files.sort();
    // `SWEEP_K=N` and `SWEEP_BLOCK=1` (block-k) sweep under another bound.
    let k = std::env::var("SWEEP_K").ok().and_then(|k| k.parse().ok()).unwrap_or(2);
    let criterion = if std::env::var("SWEEP_BLOCK").is_ok() { Criterion::BlockK } else { Criterion::KPath };
    let (mut compared, mut misses, mut less_coverage) = (0, 0, 0);
    for file in files {
        let Ok(fe) = pathwise_cli::frontend::compile(&file, &[root().join("crates/cfront/include")], &[]) else {
            continue;
        };
        let p = &fe.program;
        for (i, f) in p.funcs.iter().enumerate() {
            if f.is_declaration() || p.is_library(pathwise_ir::FuncId(i as u32)) {
                continue;
            }
            let mut c = Config::new(&f.name, k);
            c.criterion = criterion;
            c.timeout = Some(Duration::from_secs(3));
            let kinds = |mode| {
                let mut c = c.clone();
                c.compositional = mode != Mode::Mono;
                c.compose.bottom_up = mode == Mode::BottomUp;
                let mut backend = Z3Backend::new(None);
                let s = generate(p, &c, &mut backend, &mut NoObserver).ok()?;
                let k = s.error_kinds();
                let branches: u64 = s.coverage.functions.iter().map(|f| f.branches_covered).sum();
                Some((k, s.stop == StopReason::Complete, branches))
            };
            let Some((mono, true, mono_branches)) = kinds(Mode::Mono) else { continue };
            for mode in [Mode::TopDown, Mode::BottomUp] {
                let Some((comp, done, branches)) = kinds(mode) else { continue };
                if branches < mono_branches {
                    less_coverage += 1;
                    println!(
                        "{} {}: {} covers {branches} branch sides, monolithic {mono_branches} (complete: {done})",
                        file.display(),
                        f.name,
                        if mode == Mode::TopDown { "top-down" } else { "bottom-up" }
                    );
                }
                compared += 1;
                misses += usize::from(mono.iter().any(|k| !comp.contains(k)));
                let missing: Vec<&&str> = mono.iter().filter(|k| !comp.contains(k)).collect();
                let name = if mode == Mode::TopDown { "top-down" } else { "bottom-up" };
                if !missing.is_empty() {
                    println!("{} {}: {name} misses {missing:?} (complete: {done})", file.display(), f.name);
                }
            }
        }
    }
    println!(
        "{compared} compositional searches compared, {misses} missing an error kind, {less_coverage} covering fewer branch sides"
    );
}
