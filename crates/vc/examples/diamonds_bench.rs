//! The random-diamond experiment of seed 001 (section 7, Table 1): per
//! diamond count, the queries and time of the path cover (blocking clauses)
//! and of the statement cover (enabling clauses), VC only (no replay).
//!
//!     python3 ../shared/bench/diamonds/gen_diamonds.py /tmp/dia --seed 1
//!     cargo run --release -p pathwise-vc --example diamonds_bench -- /tmp/dia [PATH_MAX_DIAMONDS] [PATH_TIMEOUT_S]
//!
//! Path covers run for programs of at most PATH_MAX_DIAMONDS diamonds
//! (default 5), each within PATH_TIMEOUT_S seconds (default 60).
use std::time::{Duration, Instant};

use pathwise_expr::ExprPool;
use pathwise_vc::{build_vc, cover, Criterion, Options};

fn run(file: &std::path::Path, crit: Criterion, timeout: Duration) -> (u64, f64, usize, bool) {
    let c = pathwise_cfront::compile_file(file, &Default::default()).expect("compiles");
    let p = &c.program;
    let (main, pre) = (p.func_by_name("diamonds").expect("diamonds"), p.func_by_name("diamonds_pre"));
    let start = Instant::now();
    let mut pool = ExprPool::new();
    let vc = build_vc(&mut pool, p, main, pre, &Options::new(2, 16)).expect("vc");
    let mut z3 = pathwise_solver_z3::Z3Session::new(&pool, &vc.constraints);
    let res = cover(&mut pool, p, &vc, &mut z3, crit, Some(start + timeout)).expect("cover");
    (res.queries, start.elapsed().as_secs_f64(), res.models.len(), res.complete)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::Path::new(args.get(1).map(String::as_str).unwrap_or("/tmp/dia"));
    let path_max: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let path_timeout = Duration::from_secs(args.get(3).and_then(|s| s.parse().ok()).unwrap_or(60));
    println!("diamonds | path cover: queries, s, incomplete | statement cover: queries (max), s");
    let (mut tq, mut tt, mut sq, mut st) = (0, 0.0, 0, 0.0);
    for d in 2..=9u32 {
        let (mut pq, mut pt, mut pinc, mut q, mut t, mut qmax) = (0, 0.0, 0, 0, 0.0, 0);
        for i in 0..10 {
            let f = dir.join(format!("diamonds_{d}_{i}.c"));
            if d <= path_max {
                let (a, b, _, complete) = run(&f, Criterion::Paths, path_timeout);
                pq += a;
                pt += b;
                pinc += usize::from(!complete);
            }
            let (a, b, _, complete) = run(&f, Criterion::Statements, Duration::from_secs(600));
            assert!(complete);
            q += a;
            t += b;
            qmax = qmax.max(a);
        }
        let path = if d <= path_max { format!("{pq:>7} {pt:>8.2} {pinc:>3}") } else { "      -        -   -".into() };
        println!("{d:>8} | {path} | {q:>5} ({qmax:>2}) {t:>6.2}");
        tq += pq;
        tt += pt;
        sq += q;
        st += t;
    }
    println!("total    | {tq:>7} {tt:>8.2}     | {sq:>5}      {st:>6.2}");
    println!("seed 001 Table 1 (SMTInterpol, its own 80 programs, all paths): path cover 69777 / 13.12 s; statement cover 854 / 11.81 s");
}
