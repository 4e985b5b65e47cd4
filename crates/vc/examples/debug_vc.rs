//! Build the VC of a function and print its graph and first model (a
//! debugging aid).
use pathwise_expr::{ExprPool, Query, SolveResult, SolverBackend};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let c = pathwise_cfront::compile_file(std::path::Path::new(&a[1]), &Default::default()).expect("compiles");
    let p = &c.program;
    let main = p.func_by_name(&a[2]).expect("function");
    let pre = a.get(3).and_then(|n| p.func_by_name(n));
    let mut pool = ExprPool::new();
    let vc = pathwise_vc::build_vc(&mut pool, p, main, pre, &pathwise_vc::Options::new(1, 16)).expect("vc");
    for (n, k) in vc.graph.nodes.iter().enumerate() {
        println!(
            "node {n}: {:?} {} bb{} start {} {:?} out {:?}",
            k.region,
            p.func(k.func).name,
            k.block.0,
            k.start,
            k.counters,
            vc.graph.out[n].iter().map(|&e| (vc.graph.edges[e].kind, vc.graph.edges[e].to)).collect::<Vec<_>>()
        );
    }
    if a.len() > 4 {
        for c in &vc.constraints {
            println!("  {}", pool.display(*c));
        }
    }
    let mut z = pathwise_solver_z3::Z3Backend::new(None);
    match z.check(&pool, &Query { constraints: vc.constraints.clone(), assumptions: vec![] }) {
        SolveResult::Sat(m) => {
            for (n, r) in vc.reach.iter().enumerate() {
                print!("r{n}={:?} ", m.bv.get(r));
            }
            println!();
            for (n, r) in vc.edge_vars.iter().enumerate() {
                print!("e{n}={:?} ", m.bv.get(r));
            }
            println!();
        }
        other => println!("{other:?}"),
    }
}
