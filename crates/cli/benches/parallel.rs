//! `cargo bench -p pathwise-cli --bench parallel [-- sim]`: parallel
//! exploration (issue 27, `gen --jobs N`).
//!
//! 1. Wall time as a user meets it: the `pathwise` process, best of 3,
//!    without `--jobs` (the single search), with `--jobs 1` and with
//!    `--jobs 2`, on Merge with all paths of arrays up to 6 elements
//!    (k = 6, 769 tests) and up to 8 (k = 8, 4,097 tests), the ten
//!    5-diamond programs of `gen_diamonds.py --seed 1` (`--k 1
//!    --no-error-search`, summed), and
//!    two parsers of the corpus: `next_token` (k = 4, 3,134 tests, about
//!    10 s) and `url_decode` (k = 3, 5,056 tests); the speedup of 2
//!    workers over 1.
//! 2. The simulated curve (`pathwise_engine::parallel::simulate`): the
//!    same searches with N = 1, 2, 4, ..., 64 virtual workers, time in
//!    instructions (solver calls and fresh searches at their calibrated
//!    cost): makespan, speedup and efficiency over one worker, idle share,
//!    speedup and efficiency over the single search; with the default
//!    grain (`--subtree-runs 256`) and a finer one (32). Merge at k = 8
//!    (4,097 tests) is simulated beside k = 6: at 0.5 s of work, k = 6 is
//!    too small to cut for 16 workers.
//!
//! `-- sim` runs the simulation only; numbers are the grains to simulate
//! instead of 256 and 32 (`-- sim 16`), other arguments keep the
//! workloads whose name contains one of them (`-- sim merge url`).
//!
//! The figures are in docs/src/benchmarks.md.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use pathwise_engine::config::Config;
use pathwise_engine::parallel::simulate::simulate;
use pathwise_solver_z3::Z3Backend;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A workload: C files (run one after the other), function, options.
struct Workload {
    name: &'static str,
    files: Vec<PathBuf>,
    function: &'static str,
    precondition: Option<&'static str>,
    k: u32,
    extra: &'static [&'static str],
}

fn workloads(diamonds: &Path) -> Vec<Workload> {
    let mut w = vec![
        Workload {
            name: "Merge, k = 6",
            files: vec![root().join("tests/bench/merge.c")],
            function: "Merge",
            precondition: Some("merge_pre"),
            k: 6,
            extra: &[],
        },
        Workload {
            name: "Merge, k = 8",
            files: vec![root().join("tests/bench/merge.c")],
            function: "Merge",
            precondition: Some("merge_pre"),
            k: 8,
            extra: &[],
        },
        Workload {
            name: "next_token, k = 4",
            files: vec![root().join("tests/c/corpus/token.c")],
            function: "next_token",
            precondition: None,
            k: 4,
            extra: &[],
        },
        Workload {
            name: "url_decode, k = 3",
            files: vec![root().join("tests/c/corpus/netstr.c")],
            function: "url_decode",
            precondition: None,
            k: 3,
            extra: &[],
        },
    ];
    let files: Vec<PathBuf> = (0..10).map(|i| diamonds.join(format!("diamonds_5_{i}.c"))).collect();
    if files.iter().all(|f| f.exists()) {
        w.push(Workload {
            name: "5 diamonds x 10",
            files,
            function: "diamonds",
            precondition: Some("diamonds_pre"),
            k: 1,
            extra: &["--no-error-search"],
        });
    }
    w
}

/// The 5-diamond programs, generated when the shared benchmarks are here.
fn diamond_programs() -> Option<tempfile::TempDir> {
    let script = root().join("../shared/bench/diamonds/gen_diamonds.py");
    if !script.exists() {
        println!("(no ../shared/bench/diamonds/gen_diamonds.py: the diamonds are left out)");
        return None;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let st = Command::new("python3")
        .arg(&script)
        .arg(dir.path())
        .args(["--seed", "1", "--min", "5", "--max", "5"])
        .output()
        .expect("python3");
    assert!(st.status.success(), "gen_diamonds.py failed");
    Some(dir)
}

/// Wall time of `pathwise gen` over the workload's files (`jobs`: `None`
/// for the single search), best of 3.
fn wall(w: &Workload, jobs: Option<u32>) -> Duration {
    let bin = root().join("target/release/pathwise");
    let out = tempfile::tempdir().expect("tempdir");
    (0..3)
        .map(|_| {
            let start = Instant::now();
            for f in &w.files {
                let mut cmd = Command::new(&bin);
                cmd.arg("gen").arg(f).args(["--function", w.function, "--k", &w.k.to_string(), "--out"]);
                cmd.arg(out.path()).args(w.extra);
                if let Some(p) = w.precondition {
                    cmd.args(["--precondition", p]);
                }
                if let Some(n) = jobs {
                    cmd.args(["--jobs", &n.to_string()]);
                }
                let o = cmd.output().expect("pathwise");
                assert!(o.status.success(), "{}: {}", w.name, String::from_utf8_lossy(&o.stderr));
            }
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn walls(ws: &[Workload]) {
    println!("Wall time of the pathwise process, best of 3 (this machine: 2 cores)");
    println!(
        "{:<20} {:>10} {:>10} {:>10} {:>9} {:>11}",
        "workload", "single s", "jobs 1 s", "jobs 2 s", "2 vs 1", "2 vs single"
    );
    for w in ws {
        let single = wall(w, None).as_secs_f64();
        let one = wall(w, Some(1)).as_secs_f64();
        let two = wall(w, Some(2)).as_secs_f64();
        println!("{:<20} {single:>10.2} {one:>10.2} {two:>10.2} {:>8.2}x {:>10.2}x", w.name, one / two, single / two);
    }
    println!();
}

fn sims(ws: &[Workload], subtree_runs: u64) {
    let counts = [1, 2, 4, 8, 16, 32, 64];
    println!(
        "Simulated workers, --subtree-runs {subtree_runs} (time in instructions; a solver call and a fresh search at \
         their calibrated cost)"
    );
    for w in ws {
        // One program stands for the diamonds (the first).
        let file = &w.files[0];
        let includes = [root().join("tests/bench"), root().join("crates/cfront/include")];
        let program = pathwise_cli::frontend::compile(file, &includes, &[]).expect("compiles").program;
        let config = Config {
            precondition: w.precondition.map(str::to_string),
            seek_errors: !w.extra.contains(&"--no-error-search"),
            one_error_test_per_site: true,
            subtree_runs,
            ..Config::new(w.function, w.k)
        };
        let backends = || -> Box<dyn pathwise_expr::SolverBackend> { Box::new(Z3Backend::new(None)) };
        let curve = simulate(&program, &config, &backends, &counts).expect("simulates");
        println!(
            "{} ({}): {} subtrees, {} tests, work {} M instructions; a solver call = {} instructions, a fresh search = {}",
            w.name,
            file.file_name().unwrap_or_default().to_string_lossy(),
            curve.subtrees,
            curve.tests,
            curve.work / 1_000_000,
            curve.call_cost,
            curve.search_cost
        );
        println!(
            "  the single search: {:.1} M instructions (the subtrees' own costs add {:.0}%)",
            curve.single_work as f64 / 1e6,
            (curve.work as f64 / curve.single_work.max(1) as f64 - 1.0) * 100.0
        );
        println!(
            "  {:>7} {:>12} {:>8} {:>10} {:>6} {:>10} {:>14}",
            "workers", "makespan M", "speedup", "efficiency", "idle", "vs single", "eff. vs single"
        );
        for p in &curve.points {
            println!(
                "  {:>7} {:>12.1} {:>7.2}x {:>9.0}% {:>5.0}% {:>9.2}x {:>13.0}%",
                p.workers,
                p.makespan as f64 / 1e6,
                p.speedup,
                p.efficiency * 100.0,
                p.idle * 100.0,
                p.vs_single,
                p.vs_single / p.workers as f64 * 100.0
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let sim_only = args.iter().any(|a| a == "sim");
    // Numbers are grains (`--subtree-runs`) to simulate, names workloads.
    let grains: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let names: Vec<String> =
        args.iter().filter(|a| *a != "sim" && a.parse::<u64>().is_err()).map(|a| a.to_lowercase()).collect();
    let diamonds = diamond_programs();
    let dir = diamonds.as_ref().map_or_else(PathBuf::new, |d| d.path().to_path_buf());
    let mut ws = workloads(&dir);
    if !names.is_empty() {
        ws.retain(|w| names.iter().any(|n| w.name.to_lowercase().contains(n)));
    }
    if !sim_only {
        let st = Command::new("cargo")
            .args(["build", "--release", "-p", "pathwise-cli"])
            .current_dir(root())
            .status()
            .expect("cargo");
        assert!(st.success());
        walls(&ws);
    }
    // The default grain, and a finer one for many cores.
    let grains = if grains.is_empty() { vec![256, 32] } else { grains };
    for (i, &grain) in grains.iter().enumerate() {
        if i > 0 {
            println!();
        }
        sims(&ws, grain);
    }
}
