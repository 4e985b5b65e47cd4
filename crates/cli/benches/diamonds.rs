//! Benchmark: seed 001's random-diamond experiment (section 7, Table 1) —
//! per diamond count, the queries and time of the path cover (every
//! feasible path) and of the statement cover (every feasible block), each
//! by the VC method (`gen --method vc`: blocking and enabling clauses) and
//! by the concolic search (`gen`), beside the paper's Table 1 and KLEE 3.2.
//!
//!     cargo bench -p pathwise-cli --bench diamonds [-- OPTIONS]
//!
//! Options: `--dir DIR` (the programs; generated there with
//! `gen_diamonds.py --seed 1 --min 2 --max 9` when missing, default a
//! temporary directory), `--path-max N` (path covers for 2..=N diamonds,
//! default 5: beyond that a path cover takes minutes), `--timeout S` (per
//! program and run, default 5 s), `--only vc|concolic`.
//!
//! Every program is run as `pathwise gen FILE -f diamonds --precondition
//! diamonds_pre --k 1 --no-error-search --criterion k-path|statements
//! [--method vc] --timeout S --json`. Queries are the solver checks the run
//! made (`stats.solver_calls`: for the VC method one per model plus the
//! last `unsat`), time is the run's own (`stats.elapsed_ms`: the VC method's
//! encoding, solving and concrete replay of every valuation; the concolic
//! search), without the process start and the C front end, which the last
//! line adds up separately; next to it, the CPU time of the ten processes
//! (front end included), which other load on the machine inflates less. A run stopped by its timeout is counted as
//! such (`t/o`) with the queries and time it spent. Takes about 3 minutes,
//! most of it in concolic statement covers of programs with infeasible
//! blocks: the concolic search proves a block infeasible only by exploring
//! every path, the VC method with one `unsat` answer.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// What one `gen` run reported.
#[derive(Default, Clone, Copy)]
struct Run {
    queries: u64,
    secs: f64,
    timed_out: bool,
    failed: bool,
}

/// Totals of one method and criterion over some programs.
#[derive(Default, Clone, Copy)]
struct Sum {
    programs: u32,
    queries: u64,
    max_queries: u64,
    secs: f64,
    /// CPU time of the processes (user and system, front end included).
    cpu: f64,
    timeouts: u32,
    failures: u32,
}

impl Sum {
    fn add(&mut self, r: Run) {
        self.programs += 1;
        self.queries += r.queries;
        self.max_queries = self.max_queries.max(r.queries);
        self.secs += r.secs;
        self.timeouts += u32::from(r.timed_out);
        self.failures += u32::from(r.failed);
    }

    fn merge(&mut self, o: &Sum) {
        self.programs += o.programs;
        self.queries += o.queries;
        self.max_queries = self.max_queries.max(o.max_queries);
        self.secs += o.secs;
        self.cpu += o.cpu;
        self.timeouts += o.timeouts;
        self.failures += o.failures;
    }

    /// `queries (max) secs/cpu [t/o] [failed]`, or `-` when not run.
    fn cell(&self, with_max: bool) -> String {
        if self.programs == 0 {
            return format!("{:>30}", "-");
        }
        let max = if with_max { format!(" ({:>2})", self.max_queries) } else { String::new() };
        let mut s = format!("{}{max} {:>6.2}/{:<5.2}", self.queries, self.secs, self.cpu);
        if self.timeouts > 0 {
            s.push_str(&format!(" {}t/o", self.timeouts));
        }
        if self.failures > 0 {
            s.push_str(&format!(" {}FAILED", self.failures));
        }
        format!("{s:>30}")
    }
}

struct Opts {
    dir: PathBuf,
    path_max: u32,
    timeout: u64,
    vc: bool,
    concolic: bool,
}

fn opts() -> (Opts, Option<tempfile::TempDir>) {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let only = value("--only");
    let (dir, temp) = match value("--dir") {
        Some(d) => (PathBuf::from(d), None),
        None => {
            let t = tempfile::tempdir().expect("a temporary directory");
            (t.path().to_path_buf(), Some(t))
        }
    };
    let o = Opts {
        dir,
        path_max: value("--path-max").and_then(|s| s.parse().ok()).unwrap_or(5),
        timeout: value("--timeout").and_then(|s| s.parse().ok()).unwrap_or(5),
        vc: only.as_deref() != Some("concolic"),
        concolic: only.as_deref() != Some("vc"),
    };
    (o, temp)
}

/// Generate the 80 programs into `dir` unless they are there.
fn ensure_programs(dir: &Path) {
    if dir.join("diamonds_9_9.c").exists() {
        return;
    }
    let script = std::env::var("PATHWISE_GEN_DIAMONDS").map(PathBuf::from).unwrap_or_else(|_| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/diamonds/gen_diamonds.py")
    });
    let st = Command::new("python3")
        .arg(&script)
        .arg(dir)
        .args(["--seed", "1", "--min", "2", "--max", "9"])
        .status()
        .unwrap_or_else(|e| panic!("python3 {}: {e} (set PATHWISE_GEN_DIAMONDS)", script.display()));
    assert!(st.success(), "gen_diamonds.py failed");
}

fn run(file: &Path, criterion: &str, vc: bool, timeout: u64, out: &Path) -> (Run, Duration) {
    let start = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pathwise"));
    cmd.arg("gen").arg(file).args([
        "-f",
        "diamonds",
        "--precondition",
        "diamonds_pre",
        "--k",
        "1",
        "--no-error-search",
        "--criterion",
        criterion,
        "--json",
        "--timeout",
        &timeout.to_string(),
        "-o",
    ]);
    cmd.arg(out);
    if vc {
        cmd.args(["--method", "vc"]);
    }
    let o = cmd.output().expect("pathwise runs");
    let wall = start.elapsed();
    let json: serde_json::Value = match serde_json::from_slice(&o.stdout) {
        Ok(j) => j,
        Err(_) => {
            eprintln!("{}: {}", file.display(), String::from_utf8_lossy(&o.stderr));
            return (Run { failed: true, ..Default::default() }, wall);
        }
    };
    // 5: stopped by the timeout, counted apart (t/o) rather than as a failure.
    let ok = matches!(o.status.code(), Some(0 | 5));
    if !ok {
        eprintln!("{} ({criterion}, vc {vc}): {}", file.display(), String::from_utf8_lossy(&o.stderr));
    }
    let stats = &json["stats"];
    let r = Run {
        queries: stats["solver_calls"].as_u64().unwrap_or(0),
        secs: stats["elapsed_ms"].as_u64().unwrap_or(0) as f64 / 1000.0,
        timed_out: json["stop"].as_str() == Some("timeout"),
        failed: !ok,
    };
    (r, wall)
}

/// CPU time (user and system) of the finished child processes so far, in
/// seconds (from `/proc/self/stat`; 0 where there is none).
fn children_cpu() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    let f: Vec<&str> = s.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|t| t.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(13) + ticks(14)) / 100.0
}

fn main() {
    let (o, _temp) = opts();
    ensure_programs(&o.dir);
    let out = tempfile::tempdir().expect("a temporary directory");
    println!(
        "Random diamonds (seed 001, section 7): gen_diamonds.py --seed 1, 10 programs per count, \
         --k 1 --no-error-search, precondition diamonds_pre, timeout {} s per run",
        o.timeout
    );
    println!(
        "queries (max per program), then seconds per ten programs: the runs' own time / the processes' CPU \
         time (which a loaded machine inflates less); t/o: runs stopped by the timeout"
    );
    println!(
        "{:>8} | {:>30} | {:>30} | {:>30} | {:>30}",
        "diamonds", "path cover: VC", "path cover: concolic", "statements: VC", "statements: concolic"
    );
    let mut total = [Sum::default(); 4];
    let mut wall = Duration::ZERO;
    for d in 2..=9u32 {
        let mut row = [Sum::default(); 4];
        let plan = [
            (0, "k-path", true, o.vc && d <= o.path_max),
            (1, "k-path", false, o.concolic && d <= o.path_max),
            (2, "statements", true, o.vc),
            (3, "statements", false, o.concolic),
        ];
        for (slot, criterion, vc, wanted) in plan {
            if !wanted {
                continue;
            }
            // The ten runs one after the other, so that the children's CPU
            // time (counted in ticks) is read once per cell.
            let cpu = children_cpu();
            for i in 0..10 {
                let file = o.dir.join(format!("diamonds_{d}_{i}.c"));
                let (r, w) = run(&file, criterion, vc, o.timeout, out.path());
                row[slot].add(r);
                wall += w;
            }
            row[slot].cpu = children_cpu() - cpu;
        }
        println!(
            "{d:>8} | {} | {} | {} | {}",
            row[0].cell(true),
            row[1].cell(true),
            row[2].cell(true),
            row[3].cell(true)
        );
        for (t, r) in total.iter_mut().zip(&row) {
            t.merge(r);
        }
    }
    println!(
        "{:>8} | {} | {} | {} | {}",
        "total",
        total[0].cell(false),
        total[1].cell(false),
        total[2].cell(false),
        total[3].cell(false)
    );
    println!(
        "programs: path covers {} (2..={} diamonds), statement covers {}; all runs, with process start and \
         front end: {:.1} s wall",
        total[0].programs.max(total[1].programs),
        o.path_max,
        total[2].programs.max(total[3].programs),
        wall.as_secs_f64()
    );
    println!(
        "seed 001, Table 1 (SMTInterpol; its own 80 programs of 2-9 diamonds): path cover 69777 queries, \
         13.12 s; statement cover 854 queries, 11.81 s"
    );
    println!(
        "KLEE 3.2 on this machine (all paths): 2-5 diamonds 1.8, 7.5, 31.1, 120.3 s per ten programs; \
         38 of the 40 programs with 6-9 diamonds did not finish in 30 s"
    );
    println!(
        "issue 12's targets: VC path cover of the 40 programs with 2-5 diamonds under 16 s; VC statement \
         cover of all 80 under 8 s with at most 20 queries each"
    );
}
