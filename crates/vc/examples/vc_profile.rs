//! Profile one VC cover: sizes and the backend's time split.
use pathwise_expr::ExprPool;
use pathwise_vc::{build_vc, cover, Criterion, Options};
use std::time::{Duration, Instant};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let crit = match a.get(2).map(String::as_str) {
        Some("s") => Criterion::Statements,
        Some("b") => Criterion::Branches,
        _ => Criterion::Paths,
    };
    let c = pathwise_cfront::compile_file(std::path::Path::new(&a[1]), &Default::default()).expect("compiles");
    let p = &c.program;
    let (main, pre) = (p.func_by_name("diamonds").unwrap(), p.func_by_name("diamonds_pre"));
    let t0 = Instant::now();
    let mut pool = ExprPool::new();
    let vc = build_vc(&mut pool, p, main, pre, &Options::new(1, 16)).expect("vc");
    let tb = t0.elapsed();
    println!(
        "nodes {} edges {} constraints {} pool {} build {:?}",
        vc.graph.nodes.len(),
        vc.graph.edges.len(),
        vc.constraints.len(),
        pool.len(),
        tb
    );
    let models =
        if crit == Criterion::Paths { pathwise_solver_z3::Models::Close } else { pathwise_solver_z3::Models::Diverse };
    let mut z3 = pathwise_solver_z3::Z3Session::with_models(&pool, &vc.constraints, models);
    if let Ok(f) = std::env::var("PW_DUMP") {
        std::fs::write(f, format!("{}\n(check-sat)\n", z3.smtlib())).unwrap();
    }
    let t1 = Instant::now();
    let res = cover(&mut pool, p, &vc, &mut z3, crit, Some(Instant::now() + Duration::from_secs(120))).expect("cover");
    println!(
        "queries {} models {} complete {} total {:?} solver {:?}",
        res.queries,
        res.models.len(),
        res.complete,
        t1.elapsed(),
        res.solver_time
    );
    println!("{:?}", z3.stats());
    println!("cpu {:.3} s", cpu());
}

/// User + system CPU time of this process (from /proc/self/stat).
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let f: Vec<&str> = s.rsplit(')').next().unwrap().split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
}
