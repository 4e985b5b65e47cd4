//! Benchmark: Merge (seed 002) for k = 1..5 — time, solver calls, runs and
//! peak memory, next to the paper's figures.
//!
//! Run with `cargo bench -p pathwise-engine --bench merge`. Each k runs in a
//! child process so that the peak resident set size (VmHWM) is its own.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use pathwise_engine::config::Config;

/// One row of the paper's figures (seed 002, section 7): k, feasible paths,
/// tests generated, infeasible prefixes, seconds on a 2 GHz PC.
type PaperRow = (u32, u64, Option<u64>, Option<u64>, Option<f64>);

const PAPER: &[PaperRow] = &[
    (1, 5, None, None, None),
    (2, 17, Some(19), Some(25), None),
    (3, 49, None, None, None),
    (4, 129, None, None, None),
    (5, 321, Some(337), Some(317), Some(2.0)),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(pos) = args.iter().position(|a| a == "--child") {
        let k: u32 = args[pos + 1].parse().expect("k");
        child(k);
        return;
    }
    println!("Merge (examples/merge.c, precondition merge_valid), release build, best of 3 runs");
    println!(
        "{:>2} {:>7} {:>7} {:>9} {:>6} {:>10} {:>8} {:>9} {:>9} {:>12} | paper: paths tests infeasible time",
        "k", "tests", "runs", "solver", "cache", "infeasible", "time ms", "solver ms", "peak MiB", "calls/prefix"
    );
    for &(k, paths, tests, infeasible, secs) in PAPER {
        let out = Command::new(std::env::current_exe().expect("exe"))
            .args(["--child", &k.to_string()])
            .output()
            .expect("child run");
        let line = String::from_utf8_lossy(&out.stdout);
        let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
        println!(
            "{} | {} {} {} {}",
            line.trim_end(),
            paths,
            opt(tests),
            opt(infeasible),
            secs.map_or("-".to_string(), |s| format!("{s:.1} s"))
        );
    }
    println!("target: k = 5 under 500 ms; at most one solver call per explored prefix");
}

fn child(k: u32) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/merge.c");
    let opts = pathwise_cfront::FrontendOptions {
        include_dirs: vec![],
        defines: vec![],
        data_model: pathwise_cfront::DataModel::Lp64,
        extra_args: vec![],
    };
    let program = pathwise_cfront::compile_file(&path, &opts).expect("front end").program;
    let config =
        Config { precondition: Some("merge_valid".into()), max_steps_per_run: 1_000_000, ..Config::new("Merge", k) };
    let mut best = None;
    let mut last = None;
    for _ in 0..3 {
        let mut backend = pathwise_solver_z3::Z3Backend::new(None);
        let t = Instant::now();
        let suite = pathwise_engine::generate(&program, &config, &mut backend, &mut pathwise_engine::NoObserver)
            .expect("generation");
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        best = Some(best.map_or(ms, |b: f64| b.min(ms)));
        last = Some(suite);
    }
    let s = last.expect("a run").stats;
    println!(
        "{:>2} {:>7} {:>7} {:>9} {:>6} {:>10} {:>8.1} {:>9} {:>9.1} {:>12.2}",
        k,
        s.tests,
        s.runs,
        s.solver_calls,
        s.solver_cache_hits,
        s.infeasible_prefixes,
        best.unwrap_or(0.0),
        s.solver_ms,
        peak_mib(),
        s.solver_calls as f64 / s.prefixes_explored.max(1) as f64,
    );
}

fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}
